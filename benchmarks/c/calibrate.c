/* calibrate.c: the benchmark guard's fixed C workload (docs/benchmarks.rst,
 * "Calibration").  Not part of the engine: benchmarks/guard/harness.py
 * compiles it with the engine's flags into a small shared library of its
 * own and loads it with ctypes.
 *
 * The guard divides the time of each C-bound hot path by the time of this
 * loop, measured in the same run, so that its figures do not depend on how
 * fast or how busy the machine is.  The loop never changes: changing it
 * moves every baseline at once. */
#include <stdint.h>

/* Self-contained on purpose: nothing here calls the engine, so a change to
 * the engine never changes the yardstick the guard measures it with. */
static const uint8_t calib_table[64] = {
    7,  1, 4,  9, 12, 3,  15, 6,  2, 11, 8,  14, 5, 10, 13, 0, 3,  9, 1, 12, 6, 15,
    4,  8, 11, 2, 14, 7,  0,  13, 5, 10, 12, 6,  9, 3,  15, 1, 10, 4, 8, 14, 2, 11,
    13, 5, 0,  7, 1,  13, 7,  10, 4, 11, 0,  15, 9, 6,  12, 2, 14, 8, 3, 5,
};

static inline uint64_t calib_popcount(uint64_t c) {
    c = c - ((c >> 1) & 0x5555555555555555ULL);
    c = (c & 0x3333333333333333ULL) + ((c >> 2) & 0x3333333333333333ULL);
    c = (c + (c >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (c * 0x0101010101010101ULL) >> 56;
}

static inline uint64_t calib_ctz(uint64_t x) {
    uint64_t n = 0;
    if (x == 0) return 64;
    while (!(x & 1)) {
        x >>= 1;
        n++;
    }
    return n;
}

/* n rounds (n >= 0; n < 0 counts as 0) of integer work of the engine's
 * kind: a xorshift generator, a SWAR popcount, a trailing-zero count, a
 * lookup in a 64-entry table and a data-dependent branch.  Returns a
 * checksum (so that the work cannot be optimized away). */
uint64_t cc_calibrate(int64_t n) {
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    uint64_t acc = 0;
    for (int64_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint64_t m = x & 0x000F1FFF1FFF1FFFULL;
        acc += calib_popcount(m) + calib_table[x >> 58];
        if (x & 0x10) acc ^= calib_ctz(m | 0x8000000000000000ULL);
        else acc = (acc << 1) | (acc >> 63);
    }
    return acc;
}
