/* rng.c: xoshiro256** seeded by splitmix64, and Fisher-Yates shuffles.
 * The exact sequence is part of the API: the test oracle
 * (tests/reference/rng.py) reproduces it bit for bit. */
#include "cc_internal.h"

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

int32_t cc_rng_seed(cc_rng *rng, uint64_t seed) {
    if (rng == NULL) return CC_E_ARG;
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) rng->s[i] = splitmix64(&x);
    return CC_OK;
}

uint64_t cc_rng_next(cc_rng *rng) {
    if (rng == NULL) return 0;
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t cc_rng_below(cc_rng *rng, uint64_t n) {
    if (n <= 1 || rng == NULL) return 0;
    /* x is kept if x >= 2^64 mod n, which is below n: an x >= n is kept
     * without working out the threshold (one division fewer, same draws) */
    uint64_t x = cc_rng_next(rng);
    if (x >= n) return x % n;
    uint64_t threshold = (0 - n) % n; /* 2^64 mod n */
    while (x < threshold) x = cc_rng_next(rng);
    return x % n;
}

int32_t cc_rng_shuffle_u8(cc_rng *rng, uint8_t *a, int32_t n) {
    if (rng == NULL || n < 0 || (n > 0 && a == NULL)) return CC_E_ARG;
    for (int32_t i = n - 1; i > 0; i--) {
        int32_t j = (int32_t)cc_rng_below(rng, (uint64_t)i + 1);
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
    return CC_OK;
}

int32_t cc_shuffled_deck(uint64_t seed, uint8_t *out, int32_t n) {
    if (n < 0 || n > CC_MAX_SHUFFLE || (n > 0 && out == NULL)) return CC_E_ARG;
    cc_rng rng;
    cc_rng_seed(&rng, seed);
    for (int32_t i = 0; i < n; i++) out[i] = (uint8_t)i;
    cc_rng_shuffle_u8(&rng, out, n);
    return CC_OK;
}

int32_t cc_rng_sequence(uint64_t seed, int64_t n, uint64_t *out) {
    if (n < 0 || n > CC_MAX_RNG_SEQUENCE || (n > 0 && out == NULL)) return CC_E_ARG;
    cc_rng rng;
    cc_rng_seed(&rng, seed);
    for (int64_t i = 0; i < n; i++) out[i] = cc_rng_next(&rng);
    return CC_OK;
}
