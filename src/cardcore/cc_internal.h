/* cc_internal.h: private inline helpers shared by the cardcore C files. */
#ifndef CC_INTERNAL_H
#define CC_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "cardcore.h"

static inline int32_t cc_popcount64(uint64_t x) {
    return (int32_t)__builtin_popcountll(x);
}

static inline int32_t cc_ctz64(uint64_t x) { return (int32_t)__builtin_ctzll(x); }

/* Lane of suit s (13 rank bits) of a 52-card set. */
static inline uint32_t cc_lane(uint64_t cards, int32_t s) {
    return (uint32_t)(cards >> (16 * s)) & 0x1FFFu;
}

static inline int32_t cc_card52_id_of_bit(int32_t bit) {
    return (bit >> 4) * 13 + (bit & 15);
}

static inline void cc_mask_set(uint64_t *mask, int32_t a) {
    mask[a >> 6] |= (uint64_t)1 << (a & 63);
}

#endif
