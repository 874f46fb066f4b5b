/* cribbage_score.c: the cribbage scoring API (cc_cribbage.h): the show
 * and the play itemized, and the batch kernels, the distribution and the
 * discard analysis, which use a lookup table of the rank kinds (fifteens,
 * pairs, runs: they depend only on the five ranks) built from the family's
 * scorer, and its suit part (flush, nobs) directly. */
#include <stdlib.h>

#include "cribbage_internal.h"

/* ---- show and play scoring: the family's scorers (score_internal.h) ------- */

CC_SCORE_ITEM_LAYOUT(cc_cribbage_item);

int32_t cc_cribbage_show_items(uint64_t hand, int32_t starter, int32_t is_crib,
                               const int32_t *params, cc_cribbage_item *out, int32_t cap) {
    if (check_rules(params) != CC_OK) return CC_E_PARAMS;
    if (is_crib != 0 && is_crib != 1) return CC_E_ARG;
    int32_t c[5];
    int32_t rc = cc_show_hand_ids(hand, 4, starter, c);
    if (rc != CC_OK) return rc;
    cc_show_rules r = show_rules(is_crib, params[CC_CRIBBAGE_P_CRIB_FOUR_FLUSH]);
    return cc_show_items_out(c, &r, out, cap);
}

int32_t cc_cribbage_score_show(uint64_t hand, int32_t starter, int32_t is_crib,
                               const int32_t *params) {
    if (check_rules(params) != CC_OK) return CC_E_PARAMS;
    if (is_crib != 0 && is_crib != 1) return CC_E_ARG;
    if (!cc_show_hand_valid(hand, 4, starter)) return CC_E_CARDS;
    return show_points(hand, starter, is_crib, params[CC_CRIBBAGE_P_CRIB_FOUR_FLUSH]);
}

/* ---- play scoring ------------------------------------------------------------ */

int32_t cc_cribbage_play_items(const uint8_t *seq, int32_t n, cc_cribbage_item *out, int32_t cap) {
    return cc_play_items_out(seq, n, CC_CRIBBAGE_MAX_PLAY, &play_rules, out, cap);
}

/* ---- the rank table: batch scoring, distribution, discard analysis --------- */

#define RANK5 371293 /* 13^5: four hand ranks and the starter rank, any order */

/* t[((((r0 * 13 + r1) * 13 + r2) * 13 + r3) * 13 + r4] = the fifteens, pairs
 * and runs of five cards of those ranks, scored by the show scorer itself. */
static void build_rank_table(uint8_t *t) {
    const cc_show_rules rules = show_rules(0, 0); /* the rank kinds: the same for a crib */
    int32_t r[5];
    for (int32_t idx = 0; idx < RANK5; idx++) {
        int32_t x = idx;
        for (int32_t i = 4; i >= 0; i--) {
            r[i] = x % 13;
            x /= 13;
        }
        /* sort, then score once per multiset: the first index of a multiset
         * is its sorted one, so later orderings copy it */
        int32_t q[5] = {r[0], r[1], r[2], r[3], r[4]};
        for (int32_t i = 1; i < 5; i++)
            for (int32_t j = i; j > 0 && q[j - 1] > q[j]; j--) {
                int32_t y = q[j];
                q[j] = q[j - 1];
                q[j - 1] = y;
            }
        int32_t sorted = (((q[0] * 13 + q[1]) * 13 + q[2]) * 13 + q[3]) * 13 + q[4];
        if (sorted < idx) {
            t[idx] = t[sorted];
            continue;
        }
        if (q[0] == q[4]) { /* five of a rank cannot be dealt */
            t[idx] = 0;
            continue;
        }
        /* suits: the k-th card of a rank gets suit k (a rank occurs at most 4 times) */
        uint64_t cards = 0;
        for (int32_t i = 0; i < 5; i++) {
            int32_t k = 0;
            for (int32_t j = 0; j < i; j++) k += q[j] == q[i];
            cards |= cc_bit_of(k * 13 + q[i]);
        }
        t[idx] = (uint8_t)cc_show_rank_points(cards, &rules);
    }
}

static inline int32_t rank_index4(uint64_t hand) {
    int32_t idx = 0;
    for (int32_t i = 0; i < 4; i++) {
        idx = idx * 13 + (cc_ctz64(hand) & 15);
        hand &= hand - 1;
    }
    return idx * 13;
}

int32_t cc_cribbage_batch_score_show(const uint64_t *hands, const uint8_t *starters, int64_t n,
                                     int32_t is_crib, const int32_t *params, int32_t *out,
                                     int64_t *bad_index) {
    if (check_rules(params) != CC_OK) return CC_E_PARAMS;
    if (is_crib != 0 && is_crib != 1) return CC_E_ARG;
    int32_t rc = cc_show_batch_check(hands, starters, n, 4, out, bad_index);
    if (rc != CC_OK) return rc;
    int32_t four = params[CC_CRIBBAGE_P_CRIB_FOUR_FLUSH];
    if (n < 20000) {
        for (int64_t i = 0; i < n; i++) out[i] = show_points(hands[i], starters[i], is_crib, four);
        return CC_OK;
    }
    uint8_t *t = (uint8_t *)malloc(RANK5);
    if (t == NULL) return CC_E_CAPACITY;
    build_rank_table(t);
    for (int64_t i = 0; i < n; i++) {
        uint64_t h = hands[i];
        int32_t s = starters[i];
        out[i] = t[rank_index4(h) + cc_rank_of(s)] + suit_points(h, s, is_crib, four);
    }
    free(t);
    return CC_OK;
}

int32_t cc_cribbage_show_distribution(int32_t is_crib, const int32_t *params, int64_t *hist) {
    if (check_rules(params) != CC_OK) return CC_E_PARAMS;
    if (is_crib != 0 && is_crib != 1) return CC_E_ARG;
    if (hist == NULL) return CC_E_ARG;
    memset(hist, 0, sizeof(int64_t) * CC_CRIBBAGE_HIST_SIZE);
    uint8_t *t = (uint8_t *)malloc(RANK5);
    if (t == NULL) return CC_E_CAPACITY;
    build_rank_table(t);
    int32_t four = params[CC_CRIBBAGE_P_CRIB_FOUR_FLUSH];
    for (int32_t a = 0; a < NUM_CARDS; a++)
        for (int32_t b = a + 1; b < NUM_CARDS; b++)
            for (int32_t c = b + 1; c < NUM_CARDS; c++)
                for (int32_t d = c + 1; d < NUM_CARDS; d++) {
                    uint64_t h = cc_bit_of(a) | cc_bit_of(b) | cc_bit_of(c) | cc_bit_of(d);
                    int32_t base = rank_index4(h);
                    for (int32_t s = 0; s < NUM_CARDS; s++) {
                        if (h & cc_bit_of(s)) continue;
                        int32_t v = t[base + cc_rank_of(s)] + suit_points(h, s, is_crib, four);
                        if (v >= CC_CRIBBAGE_HIST_SIZE) {
                            free(t);
                            return CC_E_CAPACITY;
                        }
                        hist[v]++;
                    }
                }
    free(t);
    return CC_OK;
}

/* The expected crib of two discards a, b when the other three cards are a
 * uniform 3-subset of pool (m cards), the starter uniform among the three. */
static double crib_expect(const uint8_t *t, int32_t a, int32_t b, const uint8_t *pool, int32_t m,
                          int32_t four) {
    int64_t sum = 0, count = 0;
    uint64_t ab = cc_bit_of(a) | cc_bit_of(b);
    int32_t rab = cc_rank_of(a) * 13 + cc_rank_of(b);
    for (int32_t i = 0; i < m; i++)
        for (int32_t j = i + 1; j < m; j++)
            for (int32_t k = j + 1; k < m; k++) {
                int32_t x[3] = {pool[i], pool[j], pool[k]};
                int32_t rank_part = t[((rab * 13 + cc_rank_of(x[0])) * 13 + cc_rank_of(x[1])) * 13 +
                                      cc_rank_of(x[2])];
                for (int32_t s = 0; s < 3; s++) {
                    uint64_t crib = ab | cc_bit_of(x[(s + 1) % 3]) | cc_bit_of(x[(s + 2) % 3]);
                    sum += rank_part + suit_points(crib, x[s], 1, four);
                }
                count += 3;
            }
    return (double)sum / (double)count;
}

int32_t cc_cribbage_crib_exact(uint64_t hand, const int32_t *params, double *out15) {
    if (check_rules(params) != CC_OK) return CC_E_PARAMS;
    if (out15 == NULL) return CC_E_ARG;
    if ((hand & ~CC_DECK52_MASK) || cc_popcount64(hand) != 6) return CC_E_CARDS;
    uint8_t *t = (uint8_t *)malloc(RANK5);
    if (t == NULL) return CC_E_CAPACITY;
    build_rank_table(t);
    int32_t ids[6];
    uint8_t pool[NUM_CARDS];
    int32_t m = 0;
    for (int32_t i = 0, x = 0; x < NUM_CARDS; x++) {
        if (hand & cc_bit_of(x)) ids[i++] = x;
        else pool[m++] = (uint8_t)x;
    }
    int32_t k = 0;
    for (int32_t i = 0; i < 6; i++)
        for (int32_t j = i + 1; j < 6; j++)
            out15[k++] =
                crib_expect(t, ids[i], ids[j], pool, m, params[CC_CRIBBAGE_P_CRIB_FOUR_FLUSH]);
    free(t);
    return CC_OK;
}

/* The table model: the crib of two discards depends on their ranks and on
 * whether they share a suit; 13 x 13 x 2 values, each over the 50 others. */
static void build_crib_table(const uint8_t *t, int32_t four, double *ct) {
    for (int32_t ra = 0; ra < 13; ra++)
        for (int32_t rb = 0; rb < 13; rb++)
            for (int32_t suited = 0; suited < 2; suited++) {
                double *o = &ct[(ra * 13 + rb) * 2 + suited];
                *o = -1.0;
                if (suited && ra == rb) continue;
                if (ra > rb) { /* symmetric: filled below */
                    continue;
                }
                int32_t a = ra, b = suited ? rb : 13 + rb;
                uint8_t pool[NUM_CARDS];
                int32_t m = 0;
                for (int32_t x = 0; x < NUM_CARDS; x++)
                    if (x != a && x != b) pool[m++] = (uint8_t)x;
                *o = crib_expect(t, a, b, pool, m, four);
            }
    for (int32_t ra = 0; ra < 13; ra++)
        for (int32_t rb = 0; rb < ra; rb++)
            for (int32_t suited = 0; suited < 2; suited++)
                ct[(ra * 13 + rb) * 2 + suited] = ct[(rb * 13 + ra) * 2 + suited];
}

int32_t cc_cribbage_batch_discards(const uint64_t *hands, int64_t n, const int32_t *params,
                                   int32_t *hand_sum, double *crib, int64_t *bad_index) {
    if (check_rules(params) != CC_OK) return CC_E_PARAMS;
    if (n < 0 || (n > 0 && (hands == NULL || hand_sum == NULL))) return CC_E_ARG;
    for (int64_t i = 0; i < n; i++) {
        uint64_t h = hands[i];
        if ((h & ~CC_DECK52_MASK) || cc_popcount64(h) != 6) {
            if (bad_index) *bad_index = i;
            return CC_E_CARDS;
        }
    }
    if (n == 0) return CC_OK;
    int32_t four = params[CC_CRIBBAGE_P_CRIB_FOUR_FLUSH];
    uint8_t *t = (uint8_t *)malloc(RANK5);
    if (t == NULL) return CC_E_CAPACITY;
    build_rank_table(t);
    double ct[13 * 13 * 2];
    if (crib) build_crib_table(t, four, ct);
    for (int64_t i = 0; i < n; i++) {
        uint64_t h = hands[i];
        uint64_t b[6];
        int32_t avail[13]; /* starters of each rank outside the hand */
        int32_t suit_left[4];
        for (int32_t r = 0; r < 13; r++) avail[r] = 4;
        for (int32_t s = 0; s < 4; s++)
            suit_left[s] = 13 - cc_popcount64(h & ((uint64_t)0x1FFF << (16 * s)));
        uint64_t x = h;
        for (int32_t k = 0; k < 6; k++) {
            b[k] = x & -x;
            avail[cc_ctz64(x) & 15]--;
            x &= x - 1;
        }
        int32_t k = 0;
        for (int32_t p = 0; p < 6; p++)
            for (int32_t q = p + 1; q < 6; q++, k++) {
                uint64_t kept = h & ~b[p] & ~b[q];
                int32_t base = rank_index4(kept);
                int32_t sum = 0;
                for (int32_t r = 0; r < 13; r++) sum += avail[r] * t[base + r];
                /* flush: four kept cards of one suit: 4 for each starter
                 * outside it, 5 for each of the suit_left starters in it */
                int32_t ks = cc_ctz64(kept) >> 4;
                if ((kept & ((uint64_t)0x1FFF << (16 * ks))) == kept)
                    sum += 4 * (46 - suit_left[ks]) + 5 * suit_left[ks];
                /* nobs: each kept Jack, with a starter of its suit */
                for (int32_t s = 0; s < 4; s++)
                    if (kept & ((uint64_t)1 << (16 * s + JACK))) sum += suit_left[s];
                hand_sum[i * 15 + k] = sum;
                if (crib) {
                    int32_t pa = cc_ctz64(b[p]), pb = cc_ctz64(b[q]);
                    crib[i * 15 + k] =
                        ct[((pa & 15) * 13 + (pb & 15)) * 2 + ((pa >> 4) == (pb >> 4))];
                }
            }
    }
    free(t);
    return CC_OK;
}
