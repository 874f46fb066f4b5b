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
#include "cc_internal.h"
#include "cc_combos.h"

#define LANE13 0x1FFFu
/* Bit r of every lane: the four cards of rank r. */
#define RANK_BITS 0x0001000100010001ULL
#define BYTES_01 0x0101010101010101ULL
#define BYTES_7F 0x7F7F7F7F7F7F7F7FULL
#define BYTES_80 0x8080808080808080ULL
/* Pip value of rank r in nibble r: A..9 = 1..9, T J Q K = 10, 13..15 = 0. */
#define PIP_NIBBLES 0x000AAAA987654321ULL

/* ---- rank histogram as bit slices ------------------------------------ */

typedef struct slices {
    uint32_t ones, twos, fours, present;
} slices;

static inline slices rank_slices(uint64_t cards) {
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

static inline int32_t pairs_of(slices s) {
    return cc_popcount64(s.twos) + 2 * cc_popcount64(s.twos & s.ones) +
           6 * cc_popcount64(s.fours);
}

static const uint32_t POW3[14] = {1,     3,      9,      27,     81,
                                  243,   729,    2187,   6561,   19683,
                                  59049, 177147, 531441, 1594323};

/* Product of the rank counts over the ranks in block. */
static inline uint32_t mult_of(slices s, uint32_t block) {
    int32_t n2 = cc_popcount64(block & s.twos & ~s.ones);
    int32_t n3 = cc_popcount64(block & s.twos & s.ones);
    int32_t n4 = cc_popcount64(block & s.fours);
    return ((uint32_t)1 << (n2 + 2 * n4)) * POW3[n3];
}

/* Ranks covered by runs of 3 or more consecutive present ranks. */
static inline uint32_t run_cover(uint32_t present) {
    uint32_t w3 = present & (present >> 1) & (present >> 2);
    return w3 | (w3 << 1) | (w3 << 2);
}

/* The lowest block of consecutive set bits of cover (0 if none). */
static inline uint32_t lowest_block(uint32_t cover) {
    uint32_t low = cover & (0u - cover);
    return cover & ~(cover + low);
}

static inline int32_t run_score_of(slices s) {
    uint32_t cover = run_cover(s.present);
    /* The first run unconditionally (0 when there is none): hands of 5
     * cards or fewer hold at most one. */
    uint32_t block = lowest_block(cover);
    int32_t score = cc_popcount64(block) * (int32_t)mult_of(s, block);
    cover ^= block;
    while (cover) {
        block = lowest_block(cover);
        cover ^= block;
        score += cc_popcount64(block) * (int32_t)mult_of(s, block);
    }
    return score;
}

static inline uint32_t pip_of_bit(int32_t bit) {
    return (uint32_t)(PIP_NIBBLES >> (4 * (bit & 15))) & 15u;
}

/* ---- fifteens -------------------------------------------------------- */

/* Zero bytes of x (every byte of x below 0x80). */
static inline int32_t zero_bytes(uint64_t x) {
    return cc_popcount64(~(x + BYTES_7F) & BYTES_80);
}

/* Cards whose pip value is v (1..10): one rank, or T J Q K for 10. */
static inline uint64_t pip_cards(int32_t v) {
    return v == 10 ? RANK_BITS * 0x1E00u : RANK_BITS << (v - 1);
}

/* At most 5 cards: the 32 subset sums of five pips (absent cards have pip
 * 0) as the bytes of four words; byte i of w holds the sum of the subset i
 * of the first three pips.  Each absent card doubles every subset, hence
 * the shift.  tbyte is min(target, 127): no sum exceeds 50.  singles is
 * the number of single cards whose pip is the target.                  */
static inline int64_t fifteens_upto5(uint64_t cards, uint64_t tbytes,
                                     int32_t singles) {
    uint64_t x = cards;
    uint64_t p[5];
    for (int32_t i = 0; i < 5; i++) {
        /* bit 63 is a sentinel of pip 0 once the set is exhausted */
        p[i] = pip_of_bit(cc_ctz64(x | ((uint64_t)1 << 63)));
        x &= x - 1;
    }
    uint64_t w0 = 0x0100010001000100ULL * p[0] + 0x0101000001010000ULL * p[1] +
                  0x0101010100000000ULL * p[2];
    uint64_t w1 = w0 + BYTES_01 * p[3];
    uint64_t w2 = w0 + BYTES_01 * p[4];
    uint64_t w3 = w1 + BYTES_01 * p[4];
    int32_t raw = zero_bytes(w0 ^ tbytes) + zero_bytes(w1 ^ tbytes) +
                  zero_bytes(w2 ^ tbytes) + zero_bytes(w3 ^ tbytes);
    int32_t pad = 5 - cc_popcount64(cards);
    return (int64_t)((raw >> pad) - singles);
}

/* Any number of cards: counting DP over the pip values. */
static int64_t fifteens_dp(uint64_t cards, int32_t target) {
    int64_t ways[CC_MAX_PIP_TOTAL + 1];
    memset(ways, 0, sizeof(int64_t) * (size_t)(target + 1));
    ways[0] = 1;
    int32_t top = 0; /* highest reachable total so far (capped at target) */
    for (int32_t v = 1; v <= 10; v++) {
        int32_t c = cc_popcount64(cards & pip_cards(v));
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
    int32_t singles = target <= 10 ? cc_popcount64(cards & pip_cards(target)) : 0;
    return ways[target] - singles;
}

static inline uint64_t target_bytes(int32_t target) {
    return BYTES_01 * (uint64_t)(target < 127 ? target : 127);
}

static inline int32_t singles_of(uint64_t cards, uint64_t single_mask) {
    return cc_popcount64(cards & single_mask);
}

static inline uint64_t single_mask_of(int32_t target) {
    return target <= 10 ? pip_cards(target) : 0;
}

static inline int64_t fifteens_any(uint64_t cards, int32_t target, uint64_t tbytes,
                                   uint64_t single_mask) {
    if (cc_popcount64(cards) <= 5)
        return fifteens_upto5(cards, tbytes, singles_of(cards, single_mask));
    return fifteens_dp(cards, target);
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

void cc_rank_counts(uint64_t cards, uint8_t *out) {
    if (out == NULL) return;
    cards &= CC_DECK52_MASK;
    for (int32_t r = 0; r < CC_NUM_RANKS; r++)
        out[r] = (uint8_t)cc_popcount64(cards & (RANK_BITS << r));
}

void cc_suit_counts(uint64_t cards, uint8_t *out) {
    if (out == NULL) return;
    cards &= CC_DECK52_MASK;
    for (int32_t s = 0; s < CC_NUM_SUITS; s++) out[s] = (uint8_t)cc_popcount64(cc_lane(cards, s));
}

int32_t cc_runs(uint64_t cards, uint8_t *out_len, uint32_t *out_mult, uint8_t *out_low) {
    if (cards & ~CC_DECK52_MASK) return CC_E_CARDS;
    slices s = rank_slices(cards);
    uint32_t cover = run_cover(s.present);
    int32_t n = 0;
    while (cover) {
        uint32_t block = lowest_block(cover);
        cover ^= block;
        if (out_len) out_len[n] = (uint8_t)cc_popcount64(block);
        if (out_mult) out_mult[n] = mult_of(s, block);
        if (out_low) out_low[n] = (uint8_t)cc_ctz64(block);
        n++;
    }
    return n;
}

static inline int32_t longest_suit_run_of(uint64_t cards) {
    /* lanes are separated by zero bits 13..15, so x & x << 1 never mixes
     * two suits */
    int32_t k = 0;
    while (cards) {
        cards &= cards << 1;
        k++;
    }
    return k;
}

int32_t cc_longest_suit_run(uint64_t cards) {
    if (cards & ~CC_DECK52_MASK) return CC_E_CARDS;
    return longest_suit_run_of(cards);
}

/* ---- batch kernels ----------------------------------------------------
 * The loops are branch-free on the data except for the rare fallbacks
 * (more than 5 cards for fifteens, a second run); bits outside the deck
 * are OR-ed together and looked for only after the loop.                */

static int32_t first_bad(const uint64_t *cards, int64_t n, int64_t *bad_index) {
    for (int64_t i = 0; i < n; i++) {
        if (cards[i] & ~CC_DECK52_MASK) {
            if (bad_index) *bad_index = i;
            return CC_E_CARDS;
        }
    }
    return CC_OK;
}

static inline int32_t finish(uint64_t bad, const uint64_t *cards, int64_t n,
                             int64_t *bad_index) {
    if (bad) return first_bad(cards, n, bad_index);
    return CC_OK;
}

int32_t cc_batch_count_fifteens(const uint64_t *cards, int64_t n, int32_t target, int64_t *out,
                                int64_t *bad_index) {
    if (n < 0 || (n > 0 && (cards == NULL || out == NULL))) return CC_E_ARG;
    if (target < 1 || target > CC_MAX_PIP_TOTAL) return CC_E_ARG;
    uint64_t tbytes = target_bytes(target), single_mask = single_mask_of(target), bad = 0;
    for (int64_t i = 0; i < n; i++) {
        uint64_t c = cards[i];
        bad |= c & ~CC_DECK52_MASK;
        out[i] = fifteens_any(c & CC_DECK52_MASK, target, tbytes, single_mask);
    }
    return finish(bad, cards, n, bad_index);
}

int32_t cc_batch_count_pairs(const uint64_t *cards, int64_t n, int32_t *out, int64_t *bad_index) {
    if (n < 0 || (n > 0 && (cards == NULL || out == NULL))) return CC_E_ARG;
    uint64_t bad = 0;
    for (int64_t i = 0; i < n; i++) {
        uint64_t c = cards[i];
        bad |= c & ~CC_DECK52_MASK;
        out[i] = pairs_of(rank_slices(c & CC_DECK52_MASK));
    }
    return finish(bad, cards, n, bad_index);
}

static inline void suits_of(uint64_t c, uint8_t *out) {
    /* popcount of each 16-bit lane, SWAR */
    c = c - ((c >> 1) & 0x5555555555555555ULL);
    c = (c & 0x3333333333333333ULL) + ((c >> 2) & 0x3333333333333333ULL);
    c = (c + (c >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    c = (c + (c >> 8)) & 0x00FF00FF00FF00FFULL;
    out[0] = (uint8_t)c;
    out[1] = (uint8_t)(c >> 16);
    out[2] = (uint8_t)(c >> 32);
    out[3] = (uint8_t)(c >> 48);
}

int32_t cc_batch_suit_counts(const uint64_t *cards, int64_t n, uint8_t *out, int64_t *bad_index) {
    if (n < 0 || (n > 0 && (cards == NULL || out == NULL))) return CC_E_ARG;
    uint64_t bad = 0;
    for (int64_t i = 0; i < n; i++) {
        uint64_t c = cards[i];
        bad |= c & ~CC_DECK52_MASK;
        suits_of(c & CC_DECK52_MASK, out + 4 * i);
    }
    return finish(bad, cards, n, bad_index);
}

int32_t cc_batch_run_score(const uint64_t *cards, int64_t n, int32_t *out, int64_t *bad_index) {
    if (n < 0 || (n > 0 && (cards == NULL || out == NULL))) return CC_E_ARG;
    uint64_t bad = 0;
    for (int64_t i = 0; i < n; i++) {
        uint64_t c = cards[i];
        bad |= c & ~CC_DECK52_MASK;
        out[i] = run_score_of(rank_slices(c & CC_DECK52_MASK));
    }
    return finish(bad, cards, n, bad_index);
}

int32_t cc_batch_longest_suit_run(const uint64_t *cards, int64_t n, int32_t *out,
                                  int64_t *bad_index) {
    if (n < 0 || (n > 0 && (cards == NULL || out == NULL))) return CC_E_ARG;
    uint64_t bad = 0;
    for (int64_t i = 0; i < n; i++) {
        uint64_t c = cards[i];
        bad |= c & ~CC_DECK52_MASK;
        out[i] = longest_suit_run_of(c & CC_DECK52_MASK);
    }
    return finish(bad, cards, n, bad_index);
}

int32_t cc_batch_hand_stats(const uint64_t *cards, int64_t n, int32_t target, int64_t *fifteens,
                            int32_t *pairs, int32_t *run_score, uint8_t *suits,
                            int64_t *bad_index) {
    if (n < 0) return CC_E_ARG;
    if (n > 0 && (cards == NULL || fifteens == NULL || pairs == NULL || run_score == NULL ||
                  suits == NULL))
        return CC_E_ARG;
    if (target < 1 || target > CC_MAX_PIP_TOTAL) return CC_E_ARG;
    uint64_t tbytes = target_bytes(target), single_mask = single_mask_of(target), bad = 0;
    for (int64_t i = 0; i < n; i++) {
        uint64_t c = cards[i];
        bad |= c & ~CC_DECK52_MASK;
        c &= CC_DECK52_MASK;
        slices s = rank_slices(c);
        fifteens[i] = fifteens_any(c, target, tbytes, single_mask);
        pairs[i] = pairs_of(s);
        run_score[i] = run_score_of(s);
        suits_of(c, suits + 4 * i);
    }
    return finish(bad, cards, n, bad_index);
}

/* ---- random hands ---------------------------------------------------- */

int32_t cc_random_hands(uint64_t seed, int32_t k, int64_t n, uint64_t *out) {
    if (k < 0 || k > CC_NUM_CARDS52 || n < 0 || (n > 0 && out == NULL)) return CC_E_ARG;
    cc_rng rng;
    cc_rng_seed(&rng, seed);
    uint8_t deck[CC_NUM_CARDS52];
    for (int32_t j = 0; j < CC_NUM_CARDS52; j++) deck[j] = (uint8_t)j;
    for (int64_t i = 0; i < n; i++) {
        uint64_t hand = 0;
        for (int32_t j = 0; j < k; j++) {
            int32_t r = j + (int32_t)cc_rng_below(&rng, (uint64_t)(CC_NUM_CARDS52 - j));
            uint8_t t = deck[j];
            deck[j] = deck[r];
            deck[r] = t;
            hand |= cc_card52_bit(deck[j]);
        }
        out[i] = hand;
    }
    return CC_OK;
}
