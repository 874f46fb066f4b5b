/* slow_switch.c: the benchmark guard's slow-path switch (guard_internal.h;
 * docs/benchmarks.rst, "Proving the guard can fail").  Only a debug build
 * (CC_SLOW_SWITCH) reads PYCARDS_SLOW_PATH; every other build compiles
 * the marks to nothing and this file to two empty functions.  The guard's
 * yardstick itself is not part of the engine (benchmarks/c/calibrate.c). */
#include <stdlib.h>
#include <string.h>

#include "guard_internal.h"

int32_t cc_slow_switch_built(void) {
#ifdef CC_SLOW_SWITCH
    return 1;
#else
    return 0;
#endif
}

#ifdef CC_SLOW_SWITCH
/* The calibration's kind of round (benchmarks/c/calibrate.c): a xorshift
 * step, a SWAR popcount and a data-dependent branch. */
static uint64_t busy(int64_t n) {
    uint64_t x = 0x9E3779B97F4A7C15ULL, acc = 0;
    for (int64_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint64_t c = x & 0x000F1FFF1FFF1FFFULL;
        c = c - ((c >> 1) & 0x5555555555555555ULL);
        c = (c & 0x3333333333333333ULL) + ((c >> 2) & 0x3333333333333333ULL);
        c = (c + (c >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        acc += (c * 0x0101010101010101ULL) >> 56;
        if (x & 0x10) acc ^= x >> 58;
        else acc = (acc << 1) | (acc >> 63);
    }
    return acc;
}
#endif

void cc_slow_site(const char *site, int64_t work) {
#ifdef CC_SLOW_SWITCH
    const char *want = getenv("PYCARDS_SLOW_PATH");
    if (want == NULL || site == NULL || strcmp(want, site) != 0) return;
    volatile uint64_t sink = busy(work);
    (void)sink;
#else
    (void)site;
    (void)work;
#endif
}
