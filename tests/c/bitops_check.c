/* bitops_check.c: cc_popcount64 and cc_select64 (cc_internal.h) against
 * bit-by-bit loops, on edge cases and 10^6 pseudo-random words of every
 * density; cc_mod64 (the generator's remainder by a reciprocal) against the
 * % operator for every n up to 300 on edge values and random words.  tests/core/test_bitops.py builds it with the default flags (the
 * SWAR population count on a generic x86-64) and, where the compiler takes
 * it, with -mpopcnt (the instruction).  Prints "checked N bad 0". */
#include <stdio.h>

#include "cc_internal.h"

static uint64_t state = 0x9E3779B97F4A7C15ULL;

static uint64_t next(void) { /* xorshift64 */
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

static long checked, bad;

static void check(uint64_t x) {
    int32_t count = 0;
    for (int32_t b = 0; b < 64; b++) count += (int32_t)((x >> b) & 1u);
    checked++;
    if (cc_popcount64(x) != count) {
        if (bad++ < 5)
            printf("popcount %016llx: %d, not %d\n", (unsigned long long)x, cc_popcount64(x),
                   count);
    }
    int32_t k = 0;
    for (int32_t b = 0; b < 64; b++) {
        if (!((x >> b) & 1u)) continue;
        if (cc_select64(x, k) != b) {
            if (bad++ < 5)
                printf("select %016llx k %d: %d, not %d\n", (unsigned long long)x, k,
                       cc_select64(x, k), b);
        }
        k++;
    }
}

static void check_mod(uint64_t x, uint64_t n) {
    volatile uint64_t vn = n; /* a real division to compare with */
    uint64_t want = x % vn;
    checked++;
    if (cc_mod64(x, n) != want) {
        if (bad++ < 5)
            printf("mod %016llx %llu: %llu, not %llu\n", (unsigned long long)x,
                   (unsigned long long)n, (unsigned long long)cc_mod64(x, n),
                   (unsigned long long)want);
    }
}

static void check_mods(void) {
    for (uint64_t n = 1; n <= 300; n++) {
        for (uint64_t x = 0; x < 4 * n; x++) check_mod(x, n);
        for (uint64_t d = 0; d < 4 * n; d++) check_mod(~(uint64_t)0 - d, n);
        /* around the multiples of n near 2^63 and 2^64 */
        uint64_t top = (~(uint64_t)0 / n) * n, mid = ((uint64_t)1 << 63) / n * n;
        for (uint64_t d = 0; d < 3; d++) {
            check_mod(top - d, n);
            check_mod(mid - d, n);
            check_mod(mid + d, n);
        }
        for (int32_t i = 0; i < 20000; i++) check_mod(next(), n);
    }
}

int main(void) {
    check_mods();
    check(0);
    check(~(uint64_t)0);
    for (int32_t b = 0; b < 64; b++) {
        check((uint64_t)1 << b);
        check(~((uint64_t)1 << b));
        check(~(uint64_t)0 << b);
        check(~(uint64_t)0 >> b);
    }
    for (long i = 0; i < 1000000; i++) {
        uint64_t x = next();
        switch (i % 4) {
        case 1: x &= next(); break;          /* sparse */
        case 2: x &= next() & next(); break; /* sparser */
        case 3: x |= next(); break;          /* dense */
        default: break;
        }
        check(x);
    }
    printf("checked %ld bad %ld\n", checked, bad);
    return bad != 0;
}
