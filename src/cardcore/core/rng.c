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

/* cc_recip64 (cc_internal.h): the reciprocals for cc_mod64, entry 0 unused. */
#define RC(n) ((n) ? UINT64_MAX / (uint64_t)(n) : 0)
#define RC4(n) RC(n), RC((n) + 1), RC((n) + 2), RC((n) + 3)
#define RC16(n) RC4(n), RC4((n) + 4), RC4((n) + 8), RC4((n) + 12)
#define RC64(n) RC16(n), RC16((n) + 16), RC16((n) + 32), RC16((n) + 48)
const uint64_t cc_recip64[CC_RECIP_N] = {RC64(0), RC64(64), RC64(128), RC64(192)};
#undef RC
#undef RC4
#undef RC16
#undef RC64

int32_t cc_rng_seed(cc_rng *rng, uint64_t seed) {
    if (rng == NULL) return CC_E_ARG;
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) rng->s[i] = splitmix64(&x);
    return CC_OK;
}

uint64_t cc_rng_next(cc_rng *rng) {
    if (rng == NULL) return 0;
    return cc_rng_next_inline(rng);
}

uint64_t cc_rng_below(cc_rng *rng, uint64_t n) {
    if (rng == NULL) return 0;
    return cc_rng_below_inline(rng, n);
}

void cc_rng_partial_shuffle(cc_rng *rng, uint8_t *a, int32_t n, int32_t k, int32_t from_top) {
    for (int32_t i = 0; i < k; i++) {
        int32_t r = (int32_t)cc_rng_below_inline(rng, (uint64_t)(n - i));
        int32_t x = from_top ? n - 1 - i : i, y = from_top ? r : i + r;
        uint8_t t = a[x];
        a[x] = a[y];
        a[y] = t;
    }
}

int32_t cc_rng_shuffle_u8(cc_rng *rng, uint8_t *a, int32_t n) {
    if (rng == NULL || n < 0 || (n > 0 && a == NULL)) return CC_E_ARG;
    cc_rng_partial_shuffle(rng, a, n, n > 0 ? n - 1 : 0, 1);
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
