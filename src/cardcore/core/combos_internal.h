/* combos_internal.h: the combination primitives' inline helpers (the rank
 * histogram as bit slices, runs, fifteens), shared by the primitives
 * (combos.c), their batch kernels (combos_kernels.c) and the show scorer
 * (show_score.c).  Private.  The formulas are in combos.c. */
#ifndef CC_COMBOS_INTERNAL_H
#define CC_COMBOS_INTERNAL_H

#include <string.h>

#include "cc_internal.h"

/* A table shared by the three files: hidden, so that it is read directly,
 * not through the shared object's global offset table. */
#if defined(__GNUC__)
#define CC_HIDDEN __attribute__((visibility("hidden")))
#else
#define CC_HIDDEN
#endif

/* Helpers are forced inline so that the popcnt-enabled copies of the batch
 * kernels (combos_kernels.c) really use the instruction. */
#if defined(__GNUC__)
#define CC_AI static inline __attribute__((always_inline))
#else
#define CC_AI static inline
#endif

CC_AI int32_t pc(uint64_t x) { return (int32_t)__builtin_popcountll(x); }
CC_AI int32_t tz(uint64_t x) { return (int32_t)__builtin_ctzll(x); }

#define LANE13 0x1FFFu
/* Bit r of every lane: the four cards of rank r. */
#define RANK_BITS 0x0001000100010001ULL
#define BYTES_01 0x0101010101010101ULL
#define BYTES_7F 0x7F7F7F7F7F7F7F7FULL
#define BYTES_80 0x8080808080808080ULL

/* ---- rank histogram as bit slices ------------------------------------ */

typedef struct slices {
    uint32_t ones, twos, fours, present;
} slices;

CC_AI slices rank_slices(uint64_t cards) {
    uint32_t lo = (uint32_t)cards, hi = (uint32_t)(cards >> 32);
    uint32_t a = lo ^ hi, b = lo & hi; /* per lane pair (0,2) and (1,3) */
    uint32_t a_hi = a >> 16, b_hi = b >> 16;
    uint32_t carry = a & a_hi;
    slices s;
    s.ones = (a ^ a_hi) & LANE13;
    s.twos = (b ^ b_hi ^ carry) & LANE13;
    s.fours = b & b_hi & LANE13;
    s.present = (lo | hi | ((lo | hi) >> 16)) & LANE13;
    return s;
}

CC_AI int32_t pairs_of(slices s) { return pc(s.twos) + 2 * pc(s.twos & s.ones) + 6 * pc(s.fours); }

/* cc_combos_pow3[k] = 3^k (combos.c). */
CC_HIDDEN extern const uint32_t cc_combos_pow3[14];

/* Product of the rank counts over the ranks in block. */
CC_AI uint32_t mult_of(slices s, uint32_t block) {
    int32_t n2 = pc(block & s.twos & ~s.ones);
    int32_t n3 = pc(block & s.twos & s.ones);
    int32_t n4 = pc(block & s.fours);
    return ((uint32_t)1 << (n2 + 2 * n4)) * cc_combos_pow3[n3];
}

/* Ranks covered by runs of 3 or more consecutive present ranks. */
CC_AI uint32_t run_cover(uint32_t present) {
    uint32_t w3 = present & (present >> 1) & (present >> 2);
    return w3 | (w3 << 1) | (w3 << 2);
}

/* The lowest block of consecutive set bits of cover (0 if none). */
CC_AI uint32_t lowest_block(uint32_t cover) {
    uint32_t low = cover & (0u - cover);
    return cover & ~(cover + low);
}

CC_AI int32_t run_score_of(slices s) {
    uint32_t cover = run_cover(s.present);
    /* The first run unconditionally (0 when there is none): hands of 5
     * cards or fewer hold at most one. */
    uint32_t block = lowest_block(cover);
    int32_t score = pc(block) * (int32_t)mult_of(s, block);
    cover ^= block;
    while (cover) {
        block = lowest_block(cover);
        cover ^= block;
        score += pc(block) * (int32_t)mult_of(s, block);
    }
    return score;
}

/* ---- fifteens -------------------------------------------------------- */

/* Zero bytes of x (every byte of x below 0x80). */
CC_AI int32_t zero_bytes(uint64_t x) { return pc(~(x + BYTES_7F) & BYTES_80); }

/* Cards whose pip value is v (1..10): one rank, or T J Q K for 10. */
CC_AI uint64_t pip_cards(int32_t v) { return v == 10 ? RANK_BITS * 0x1E00u : RANK_BITS << (v - 1); }

/* cc_combos_pip_words[j][b]: pip of the card at bit b (0 outside the deck) times
 * the byte pattern of card j in the subset-sum words below (combos.c). */
CC_HIDDEN extern const uint64_t cc_combos_pip_words[4][64];

/* At most 5 cards: the 32 subset sums of five pips (absent cards have pip
 * 0) as the bytes of four words; byte i of w0 holds the sum of subset i
 * of the first three pips, w1..w3 add the fourth, the fifth, both.  Each
 * absent card doubles every subset, hence the shift by 5 - n.  tbytes is
 * min(target, 127) in every byte (no sum exceeds 50); singles is the
 * number of single cards whose pip is the target.                       */
CC_AI int64_t fifteens_upto5(uint64_t cards, int32_t n, uint64_t tbytes, int32_t singles) {
    /* bit 63 is a sentinel of pip 0 once the set is exhausted */
    const uint64_t stop = (uint64_t)1 << 63;
    uint64_t x = cards;
    uint64_t w0 = cc_combos_pip_words[0][tz(x | stop)];
    x &= x - 1;
    w0 += cc_combos_pip_words[1][tz(x | stop)];
    x &= x - 1;
    w0 += cc_combos_pip_words[2][tz(x | stop)];
    x &= x - 1;
    uint64_t p3 = cc_combos_pip_words[3][tz(x | stop)];
    x &= x - 1;
    uint64_t p4 = cc_combos_pip_words[3][tz(x | stop)];
    uint64_t w1 = w0 + p3, w2 = w0 + p4, w3 = w1 + p4;
    int32_t raw = zero_bytes(w0 ^ tbytes) + zero_bytes(w1 ^ tbytes) + zero_bytes(w2 ^ tbytes) +
                  zero_bytes(w3 ^ tbytes);
    return (int64_t)((raw >> ((5 - n) & 7)) - singles);
}

/* Any number of cards: counting DP over the pip values (combos.c). */
CC_HIDDEN int64_t cc_combos_fifteens_dp(uint64_t cards, int32_t target);

CC_AI uint64_t target_bytes(int32_t target) {
    return BYTES_01 * (uint64_t)(target < 127 ? target : 127);
}

CC_AI int32_t singles_of(uint64_t cards, uint64_t single_mask) { return pc(cards & single_mask); }

CC_AI uint64_t single_mask_of(int32_t target) { return target <= 10 ? pip_cards(target) : 0; }

CC_AI int64_t fifteens_any(uint64_t cards, int32_t target, uint64_t tbytes, uint64_t single_mask) {
    if (pc(cards) <= 5)
        return fifteens_upto5(cards, pc(cards), tbytes, singles_of(cards, single_mask));
    return cc_combos_fifteens_dp(cards, target);
}

CC_AI int32_t longest_suit_run_of(uint64_t cards) {
    /* lanes are separated by zero bits 13..15, so x & x << 1 never mixes
     * two suits */
    int32_t k = 0;
    while (cards) {
        cards &= cards << 1;
        k++;
    }
    return k;
}

#endif
