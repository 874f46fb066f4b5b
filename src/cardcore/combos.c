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

/* Helpers are forced inline so that the popcnt-enabled copies of the batch
 * kernels (see "dispatch" below) really use the instruction. */
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

CC_AI int32_t pairs_of(slices s) {
    return pc(s.twos) + 2 * pc(s.twos & s.ones) +
           6 * pc(s.fours);
}

static const uint32_t POW3[14] = {1,     3,      9,      27,     81,
                                  243,   729,    2187,   6561,   19683,
                                  59049, 177147, 531441, 1594323};

/* Product of the rank counts over the ranks in block. */
CC_AI uint32_t mult_of(slices s, uint32_t block) {
    int32_t n2 = pc(block & s.twos & ~s.ones);
    int32_t n3 = pc(block & s.twos & s.ones);
    int32_t n4 = pc(block & s.fours);
    return ((uint32_t)1 << (n2 + 2 * n4)) * POW3[n3];
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
CC_AI int32_t zero_bytes(uint64_t x) {
    return pc(~(x + BYTES_7F) & BYTES_80);
}

/* Cards whose pip value is v (1..10): one rank, or T J Q K for 10. */
CC_AI uint64_t pip_cards(int32_t v) {
    return v == 10 ? RANK_BITS * 0x1E00u : RANK_BITS << (v - 1);
}

/* PIP_WORDS[j][b]: pip of the card at bit b (0 outside the deck) times
 * the byte pattern of card j in the subset-sum words below. */
#define PIPS_OF_LANE(m)                                                              \
    (m) * 1, (m) * 2, (m) * 3, (m) * 4, (m) * 5, (m) * 6, (m) * 7, (m) * 8, (m) * 9, \
        (m) * 10, (m) * 10, (m) * 10, (m) * 10, 0, 0, 0
#define PIPS_OF_DECK(m) PIPS_OF_LANE(m), PIPS_OF_LANE(m), PIPS_OF_LANE(m), PIPS_OF_LANE(m)
#define SUBSET_BIT0 0x0100010001000100ULL /* bytes i with bit 0 of i set */
#define SUBSET_BIT1 0x0101000001010000ULL
#define SUBSET_BIT2 0x0101010100000000ULL
static const uint64_t PIP_WORDS[4][64] = {
    {PIPS_OF_DECK(SUBSET_BIT0)},
    {PIPS_OF_DECK(SUBSET_BIT1)},
    {PIPS_OF_DECK(SUBSET_BIT2)},
    {PIPS_OF_DECK(BYTES_01)},
};

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
    uint64_t w0 = PIP_WORDS[0][tz(x | stop)];
    x &= x - 1;
    w0 += PIP_WORDS[1][tz(x | stop)];
    x &= x - 1;
    w0 += PIP_WORDS[2][tz(x | stop)];
    x &= x - 1;
    uint64_t p3 = PIP_WORDS[3][tz(x | stop)];
    x &= x - 1;
    uint64_t p4 = PIP_WORDS[3][tz(x | stop)];
    uint64_t w1 = w0 + p3, w2 = w0 + p4, w3 = w1 + p4;
    int32_t raw = zero_bytes(w0 ^ tbytes) + zero_bytes(w1 ^ tbytes) +
                  zero_bytes(w2 ^ tbytes) + zero_bytes(w3 ^ tbytes);
    return (int64_t)((raw >> ((5 - n) & 7)) - singles);
}

/* Any number of cards: counting DP over the pip values. */
static int64_t fifteens_dp(uint64_t cards, int32_t target) {
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

CC_AI uint64_t target_bytes(int32_t target) {
    return BYTES_01 * (uint64_t)(target < 127 ? target : 127);
}

CC_AI int32_t singles_of(uint64_t cards, uint64_t single_mask) {
    return pc(cards & single_mask);
}

CC_AI uint64_t single_mask_of(int32_t target) {
    return target <= 10 ? pip_cards(target) : 0;
}

CC_AI int64_t fifteens_any(uint64_t cards, int32_t target, uint64_t tbytes,
                                   uint64_t single_mask) {
    if (pc(cards) <= 5)
        return fifteens_upto5(cards, pc(cards), tbytes, singles_of(cards, single_mask));
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
        out[r] = (uint8_t)pc(cards & (RANK_BITS << r));
}

void cc_suit_counts(uint64_t cards, uint8_t *out) {
    if (out == NULL) return;
    cards &= CC_DECK52_MASK;
    for (int32_t s = 0; s < CC_NUM_SUITS; s++) out[s] = (uint8_t)pc(cc_lane(cards, s));
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

int32_t cc_longest_suit_run(uint64_t cards) {
    if (cards & ~CC_DECK52_MASK) return CC_E_CARDS;
    return longest_suit_run_of(cards);
}

/* ---- batch kernels ----------------------------------------------------
 * One always-inline loop (stats_loop) computes whichever results have an
 * output array; on x86 with GCC or Clang it is compiled three times,
 * plainly, with popcnt, and with popcnt + BMI1 + BMI2, and the copy is
 * chosen at run time (__builtin_cpu_supports): the portable build would
 * otherwise call a library routine for each popcount.  The loop treats
 * every set as one of 5 cards or fewer (32 subsets, at most one run),
 * branch-free; sets of more cards are redone in a second pass, run only if
 * there are any.  Bits outside the deck are OR-ed together and searched
 * for only after the loop.                                              */

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(__POPCNT__)
#define CC_DISPATCH_POPCNT 1
#endif

CC_AI void suits_of(uint64_t c, uint8_t *out) {
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

CC_AI uint64_t stats_loop(const uint64_t *cards, int64_t n, int32_t target, int64_t *fifteens,
                          int32_t *pairs, int32_t *run_score, uint8_t *suits) {
    uint64_t tbytes = target_bytes(target), single_mask = single_mask_of(target), bad = 0;
    int32_t big = 0;
    /* Pass 1, straight-line code: every set as if it had 5 cards or fewer
     * (defined but meaningless results for larger sets, redone below). */
    for (int64_t i = 0; i < n; i++) {
        uint64_t c = cards[i];
        bad |= c & ~CC_DECK52_MASK;
        c &= CC_DECK52_MASK;
        slices s = rank_slices(c);
        int32_t ncards = pc(c);
        big |= ncards > 5;
        if (fifteens)
            fifteens[i] = fifteens_upto5(c, ncards & 7, tbytes, pc(c & single_mask));
        if (run_score) {
            /* one run at most, no rank four times in it: the product of its
             * counts is 3^n3 2^n2 with n3 <= 1 */
            uint32_t cover = run_cover(s.present);
            uint32_t n2 = (uint32_t)pc(cover & s.twos & ~s.ones);
            uint32_t n3 = (uint32_t)pc(cover & s.twos & s.ones);
            run_score[i] = pc(cover) * (int32_t)((1u + 2u * n3) << (n2 & 15));
        }
        if (pairs) pairs[i] = pairs_of(s);
        if (suits) {
            suits[4 * i] = (uint8_t)pc(c & 0xFFFFu);
            suits[4 * i + 1] = (uint8_t)pc(c & 0xFFFF0000u);
            suits[4 * i + 2] = (uint8_t)pc(c & 0xFFFF00000000ULL);
            suits[4 * i + 3] = (uint8_t)pc(c >> 48);
        }
    }
    /* Pass 2, only if some set has more than 5 cards. */
    if (big && (fifteens || run_score)) {
        for (int64_t i = 0; i < n; i++) {
            uint64_t c = cards[i] & CC_DECK52_MASK;
            if (pc(c) <= 5) continue;
            if (fifteens) fifteens[i] = fifteens_dp(c, target);
            if (run_score) run_score[i] = run_score_of(rank_slices(c));
        }
    }
    return bad;
}

/* One specialised copy of the loop per kernel (the NULL outputs are
 * constants after inlining, so no test on them is left in the loop). */
CC_AI uint64_t stats_switch(const uint64_t *cards, int64_t n, int32_t target, int64_t *fifteens,
                            int32_t *pairs, int32_t *run_score, uint8_t *suits) {
    if (fifteens && pairs && run_score && suits)
        return stats_loop(cards, n, target, fifteens, pairs, run_score, suits);
    if (fifteens) return stats_loop(cards, n, target, fifteens, NULL, NULL, NULL);
    if (pairs) return stats_loop(cards, n, target, NULL, pairs, NULL, NULL);
    if (run_score) return stats_loop(cards, n, target, NULL, NULL, run_score, NULL);
    return stats_loop(cards, n, target, NULL, NULL, NULL, suits);
}

static uint64_t stats_plain(const uint64_t *cards, int64_t n, int32_t target, int64_t *fifteens,
                            int32_t *pairs, int32_t *run_score, uint8_t *suits) {
    return stats_switch(cards, n, target, fifteens, pairs, run_score, suits);
}

#ifdef CC_DISPATCH_POPCNT
__attribute__((target("popcnt"))) static uint64_t stats_popcnt(
    const uint64_t *cards, int64_t n, int32_t target, int64_t *fifteens, int32_t *pairs,
    int32_t *run_score, uint8_t *suits) {
    return stats_switch(cards, n, target, fifteens, pairs, run_score, suits);
}

/* With BMI1/BMI2 too (x & (x - 1), tzcnt and three-operand shifts in one
 * instruction each): about 10% faster again. */
__attribute__((target("popcnt,bmi,bmi2"))) static uint64_t stats_bmi2(
    const uint64_t *cards, int64_t n, int32_t target, int64_t *fifteens, int32_t *pairs,
    int32_t *run_score, uint8_t *suits) {
    return stats_switch(cards, n, target, fifteens, pairs, run_score, suits);
}
#endif

static int32_t find_bad(const uint64_t *cards, int64_t n, int64_t *bad_index) {
    for (int64_t i = 0; i < n; i++) {
        if (cards[i] & ~CC_DECK52_MASK) {
            if (bad_index) *bad_index = i;
            return CC_E_CARDS;
        }
    }
    return CC_OK;
}

/* Validate, run the loop, and find the first bad set if there is one. */
static int32_t stats(const uint64_t *cards, int64_t n, int32_t target, int64_t *fifteens,
                     int32_t *pairs, int32_t *run_score, uint8_t *suits, int64_t *bad_index) {
    if (n < 0 || (n > 0 && cards == NULL)) return CC_E_ARG;
    if (target < 1 || target > CC_MAX_PIP_TOTAL) return CC_E_ARG;
    uint64_t bad;
#ifdef CC_DISPATCH_POPCNT
    if (__builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi") &&
        __builtin_cpu_supports("bmi2"))
        bad = stats_bmi2(cards, n, target, fifteens, pairs, run_score, suits);
    else if (__builtin_cpu_supports("popcnt"))
        bad = stats_popcnt(cards, n, target, fifteens, pairs, run_score, suits);
    else
#endif
        bad = stats_plain(cards, n, target, fifteens, pairs, run_score, suits);
    return bad ? find_bad(cards, n, bad_index) : CC_OK;
}

int32_t cc_batch_count_fifteens(const uint64_t *cards, int64_t n, int32_t target, int64_t *out,
                                int64_t *bad_index) {
    if (n > 0 && out == NULL) return CC_E_ARG;
    return stats(cards, n, target, out, NULL, NULL, NULL, bad_index);
}

int32_t cc_batch_count_pairs(const uint64_t *cards, int64_t n, int32_t *out, int64_t *bad_index) {
    if (n > 0 && out == NULL) return CC_E_ARG;
    return stats(cards, n, 15, NULL, out, NULL, NULL, bad_index);
}

int32_t cc_batch_suit_counts(const uint64_t *cards, int64_t n, uint8_t *out, int64_t *bad_index) {
    if (n < 0 || (n > 0 && (cards == NULL || out == NULL))) return CC_E_ARG;
    uint64_t bad = 0;
    for (int64_t i = 0; i < n; i++) {
        uint64_t c = cards[i];
        bad |= c & ~CC_DECK52_MASK;
        suits_of(c & CC_DECK52_MASK, out + 4 * i);
    }
    return bad ? find_bad(cards, n, bad_index) : CC_OK;
}

int32_t cc_batch_run_score(const uint64_t *cards, int64_t n, int32_t *out, int64_t *bad_index) {
    if (n > 0 && out == NULL) return CC_E_ARG;
    return stats(cards, n, 15, NULL, NULL, out, NULL, bad_index);
}

int32_t cc_batch_hand_stats(const uint64_t *cards, int64_t n, int32_t target, int64_t *fifteens,
                            int32_t *pairs, int32_t *run_score, uint8_t *suits,
                            int64_t *bad_index) {
    if (n > 0 && (fifteens == NULL || pairs == NULL || run_score == NULL || suits == NULL))
        return CC_E_ARG;
    return stats(cards, n, target, fifteens, pairs, run_score, suits, bad_index);
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
    return bad ? find_bad(cards, n, bad_index) : CC_OK;
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
