/* combos.c: combination primitives over any subset of the 52-card deck.
 *
 * Layout (see cardcore.h): bit s * 16 + r holds rank r (0..12, Ace low) of
 * suit s, so the four 16-bit lanes are the suits and a rank histogram is
 * the bit-sliced sum of the four lanes:
 *
 *   ones  = bit 0 of each rank count, twos = bit 1, fours = bit 2
 *   (13-bit masks; a count of 4 is fours alone).
 *
 * From the slices:
 *   pairs     = sum C(c, 2) = |twos| + 2 |twos & ones| + 6 |fours|
 *               (c = 2, 3, 4 give 1, 3, 6);
 *   runs      = the blocks of consecutive set bits of the presence mask
 *               that contain a 3-window (p & p >> 1 & p >> 2);
 *   run mult  = product of counts = 2^(n2 + 2 n4) 3^n3 where nK is the
 *               number of ranks of the run with count K;
 *   fifteens  = subsets of 2+ cards with pip total t: for at most 5 cards,
 *               all 32 subset sums as bytes of four words (SWAR); above,
 *               a counting DP over the 10 pip values with binomial
 *               coefficients (the coefficient of x^t in the product of
 *               sum_k C(c_v, k) x^(v k)).  At most 2^52 subsets: int64.
 */
#include "cc_combos.h"
#include "combos_internal.h"

/* ---- the shared tables (combos_internal.h) ------------------------------- */

const uint32_t cc_combos_pow3[14] = {1,    3,    9,     27,    81,     243,    729,
                                     2187, 6561, 19683, 59049, 177147, 531441, 1594323};

/* cc_combos_pip_words[j][b]: pip of the card at bit b (0 outside the deck) times
 * the byte pattern of card j in the subset-sum words of fifteens_upto5. */
#define PIPS_OF_LANE(m)                                                                        \
    (m) * 1, (m) * 2, (m) * 3, (m) * 4, (m) * 5, (m) * 6, (m) * 7, (m) * 8, (m) * 9, (m) * 10, \
        (m) * 10, (m) * 10, (m) * 10, 0, 0, 0
#define PIPS_OF_DECK(m) PIPS_OF_LANE(m), PIPS_OF_LANE(m), PIPS_OF_LANE(m), PIPS_OF_LANE(m)
#define SUBSET_BIT0 0x0100010001000100ULL /* bytes i with bit 0 of i set */
#define SUBSET_BIT1 0x0101000001010000ULL
#define SUBSET_BIT2 0x0101010100000000ULL
const uint64_t cc_combos_pip_words[4][64] = {
    {PIPS_OF_DECK(SUBSET_BIT0)},
    {PIPS_OF_DECK(SUBSET_BIT1)},
    {PIPS_OF_DECK(SUBSET_BIT2)},
    {PIPS_OF_DECK(BYTES_01)},
};

/* Any number of cards: counting DP over the pip values. */
int64_t cc_combos_fifteens_dp(uint64_t cards, int32_t target) {
    int64_t ways[CC_MAX_PIP_TOTAL + 1];
    memset(ways, 0, sizeof(int64_t) * (size_t)(target + 1));
    ways[0] = 1;
    int32_t top = 0; /* highest reachable total so far (capped at target) */
    for (int32_t v = 1; v <= 10; v++) {
        int32_t c = pc(cards & pip_cards(v));
        if (c == 0) continue;
        int64_t binom[17];
        binom[0] = 1;
        for (int32_t k = 1; k <= c; k++) binom[k] = binom[k - 1] * (c - k + 1) / k;
        int32_t newtop = top + v * c < target ? top + v * c : target;
        /* in place, from the top: ways[s - v k] (k >= 1) is still old */
        for (int32_t s = newtop; s >= v; s--) {
            int64_t acc = ways[s];
            for (int32_t k = 1; k <= c && v * k <= s; k++) acc += binom[k] * ways[s - v * k];
            ways[s] = acc;
        }
        top = newtop;
    }
    int32_t singles = target <= 10 ? pc(cards & pip_cards(target)) : 0;
    return ways[target] - singles;
}

/* ---- scalar API ------------------------------------------------------ */

int64_t cc_count_fifteens(uint64_t cards, int32_t target) {
    if (cards & ~CC_DECK52_MASK) return CC_E_CARDS;
    if (target < 1 || target > CC_MAX_PIP_TOTAL) return CC_E_ARG;
    return fifteens_any(cards, target, target_bytes(target), single_mask_of(target));
}

int32_t cc_count_pairs(uint64_t cards) {
    if (cards & ~CC_DECK52_MASK) return CC_E_CARDS;
    return pairs_of(rank_slices(cards));
}

int32_t cc_rank_counts(uint64_t cards, uint8_t *out) {
    if (cards & ~CC_DECK52_MASK) return CC_E_CARDS;
    if (out == NULL) return CC_E_ARG;
    for (int32_t r = 0; r < CC_NUM_RANKS; r++) out[r] = (uint8_t)pc(cards & (RANK_BITS << r));
    return CC_OK;
}

int32_t cc_suit_counts(uint64_t cards, uint8_t *out) {
    if (cards & ~CC_DECK52_MASK) return CC_E_CARDS;
    if (out == NULL) return CC_E_ARG;
    for (int32_t s = 0; s < CC_NUM_SUITS; s++) out[s] = (uint8_t)pc(cc_lane(cards, s));
    return CC_OK;
}

int32_t cc_runs(uint64_t cards, uint8_t *out_len, uint32_t *out_mult, uint8_t *out_low) {
    if (cards & ~CC_DECK52_MASK) return CC_E_CARDS;
    slices s = rank_slices(cards);
    uint32_t cover = run_cover(s.present);
    int32_t n = 0;
    while (cover) {
        uint32_t block = lowest_block(cover);
        cover ^= block;
        if (out_len) out_len[n] = (uint8_t)pc(block);
        if (out_mult) out_mult[n] = mult_of(s, block);
        if (out_low) out_low[n] = (uint8_t)tz(block);
        n++;
    }
    return n;
}

int32_t cc_longest_suit_run(uint64_t cards) {
    if (cards & ~CC_DECK52_MASK) return CC_E_CARDS;
    return longest_suit_run_of(cards);
}

/* ---- random hands ---------------------------------------------------- */

int32_t cc_random_hands(uint64_t seed, int32_t k, int64_t n, uint64_t *out) {
    if (k < 0 || k > CC_NUM_CARDS52 || n < 0 || n > CC_MAX_RANDOM_HANDS || (n > 0 && out == NULL))
        return CC_E_ARG;
    cc_rng rng;
    cc_rng_seed(&rng, seed);
    uint8_t deck[CC_NUM_CARDS52];
    for (int32_t j = 0; j < CC_NUM_CARDS52; j++) deck[j] = (uint8_t)j;
    for (int64_t i = 0; i < n; i++) {
        uint64_t hand = 0;
        cc_rng_partial_shuffle(&rng, deck, CC_NUM_CARDS52, k, 0);
        for (int32_t j = 0; j < k; j++) hand |= cc_card52_bit(deck[j]);
        out[i] = hand;
    }
    return CC_OK;
}
