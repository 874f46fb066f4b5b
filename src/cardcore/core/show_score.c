/* show_score.c: the show and play scorers of the cribbage family
 * (score_internal.h), shared by Nodde Knave and cribbage. */
#include "combos_internal.h"
#include "score_internal.h"

static inline int32_t run_points_of(int32_t rule, int32_t len) {
    return rule == CC_RUN_MWYNWEN ? 2 * (len - 2) : len;
}

static inline void put_item(cc_score_item *out, int32_t *n, int32_t kind, int32_t points,
                            uint64_t cards) {
    out[*n].kind = kind;
    out[*n].points = points;
    out[*n].cards = cards;
    (*n)++;
}

/* The rule as written: every subset of the n = hand_size + 1 cards looked at
 * in turn (the obvious form; the points-only functions below are checked
 * against it). */
int32_t cc_show_items(const int32_t *c, const cc_show_rules *r, cc_score_item *out) {
    const int32_t n = r->hand_size + 1, full = (1 << n) - 1;
    int32_t rk[5] = {0}, st[5] = {0}, sum[32], size[32], k = 0;
    uint64_t b[5], set[32];
    sum[0] = 0;
    size[0] = 0;
    set[0] = 0;
    for (int32_t i = 0; i < n; i++) {
        rk[i] = cc_rank_of(c[i]);
        st[i] = cc_suit_of(c[i]);
        b[i] = cc_bit_of(c[i]);
        for (int32_t m = 1 << i; m < 2 << i; m++) {
            sum[m] = sum[m - (1 << i)] + cc_pip_of_rank(rk[i]);
            size[m] = size[m - (1 << i)] + 1;
            set[m] = set[m - (1 << i)] | b[i];
        }
    }
    /* fifteens: every set of 2+ cards totalling 15, 2 each */
    for (int32_t m = 3; m <= full; m++)
        if (size[m] >= 2 && sum[m] == 15) put_item(out, &k, CC_SCORE_FIFTEEN, 2, set[m]);
    /* pairs: 2 for each two cards of one rank */
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = i + 1; j < n; j++)
            if (rk[i] == rk[j]) put_item(out, &k, CC_SCORE_PAIR, 2, b[i] | b[j]);
    /* runs: the maximal span of 3+ consecutive ranks (at most one among five
     * cards); one run for each choice of one card of each rank of the span */
    uint32_t rmask = 0;
    for (int32_t i = 0; i < n; i++) rmask |= 1u << rk[i];
    uint32_t r3 = rmask & rmask >> 1 & rmask >> 2;
    if (r3) {
        int32_t lo = tz(r3), hi = lo + 2;
        while (hi + 1 < 13 && (rmask >> (hi + 1) & 1)) hi++;
        int32_t len = hi - lo + 1;
        for (int32_t m = 7; m <= full; m++) {
            if (size[m] != len) continue;
            uint32_t seen = 0;
            int32_t ok = 1;
            for (int32_t i = 0; i < n; i++) {
                if (!(m >> i & 1)) continue;
                if (rk[i] < lo || rk[i] > hi || (seen >> rk[i] & 1)) ok = 0;
                seen |= 1u << rk[i];
            }
            if (ok) put_item(out, &k, CC_SCORE_RUN, run_points_of(r->run_points, len), set[m]);
        }
    }
    /* the flush */
    const int32_t h = r->hand_size, hand_mask = (1 << h) - 1;
    if (r->flush_any) {
        for (int32_t s = 0; s < 4; s++) {
            int32_t m = 0;
            for (int32_t i = 0; i < n; i++) m |= (st[i] == s) << i;
            if (size[m] >= r->flush_min) put_item(out, &k, CC_SCORE_FLUSH, size[m], set[m]);
        }
    } else {
        int32_t one = 1;
        for (int32_t i = 1; i < h; i++) one &= st[i] == st[0];
        int32_t m = st[h] == st[0] ? full : hand_mask;
        if (one && size[m] >= r->flush_min) put_item(out, &k, CC_SCORE_FLUSH, size[m], set[m]);
    }
    /* the Jack of the turn-up's suit in hand */
    for (int32_t i = 0; i < h; i++)
        if (rk[i] == 10 && st[i] == st[h]) put_item(out, &k, CC_SCORE_JACK, 1, b[i]);
    /* 31: all the cards */
    if (r->all_31 && sum[full] == 31) put_item(out, &k, CC_SCORE_THIRTY_ONE, r->all_31, set[full]);
    /* 25: every set of 3+ cards totalling 25 */
    if (r->score_25 != CC_25_OFF)
        for (int32_t m = 7; m <= full; m++)
            if (size[m] >= 3 && sum[m] == 25)
                put_item(out, &k, CC_SCORE_TWENTY_FIVE, r->score_25 == CC_25_FLAT4 ? 4 : size[m],
                         set[m]);
    return k;
}

/* Zero bytes of x (every byte below 0x80) as a 0/1 flag per byte. */
CC_AI uint64_t zero_flags(uint64_t x) { return (~(x + BYTES_7F) & BYTES_80) >> 7; }

/* The sum of the bytes of x (at most 255). */
CC_AI int32_t byte_sum(uint64_t x) { return (int32_t)((x * BYTES_01) >> 56); }

/* The rank points of exactly n (4 or 5, a constant after inlining) cards.
 * Fifteens and 25s as fifteens_upto5 counts subsets: the subset sums of the
 * cards as the bytes of two (4 cards: 16 subsets) or four (5 cards: 32)
 * words, the zero bytes of (word ^ target) added as 0/1 bytes and summed by
 * one multiply, without a population count.  No single card makes 15 or 25,
 * so every subset counted has 2 or more cards. */
CC_AI int32_t rank_points_n(uint64_t cards, const cc_show_rules *r, const int32_t n) {
    int32_t b[5], rk[5];
    uint64_t x = cards;
    for (int32_t i = 0; i < n; i++) {
        b[i] = tz(x);
        rk[i] = b[i] & 15;
        x &= x - 1;
    }
    uint64_t w0 =
        cc_combos_pip_words[0][b[0]] + cc_combos_pip_words[1][b[1]] + cc_combos_pip_words[2][b[2]];
    uint64_t w1 = w0 + cc_combos_pip_words[3][b[3]], w2 = 0, w3 = 0;
    if (n == 5) {
        w2 = w0 + cc_combos_pip_words[3][b[4]];
        w3 = w1 + cc_combos_pip_words[3][b[4]];
    }
    const uint64_t t15 = BYTES_01 * 15;
    uint64_t f = zero_flags(w0 ^ t15) + zero_flags(w1 ^ t15);
    if (n == 5) f += zero_flags(w2 ^ t15) + zero_flags(w3 ^ t15);
    int32_t pts = 2 * byte_sum(f);
    /* pairs */
    int32_t pairs = 0;
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = i + 1; j < n; j++) pairs += rk[i] == rk[j];
    pts += 2 * pairs;
    /* the run: one block of 3+ consecutive ranks at most; its multiplicity is
     * the product of its ranks' counts, from its extra cards: none 1, one 2,
     * two 4 (two ranks doubled) or 3 (one rank tripled: all five cards are
     * then in it, three of one rank and two others, three pairs) */
    uint32_t rmask = 0;
    for (int32_t i = 0; i < n; i++) rmask |= 1u << rk[i];
    uint32_t cover = run_cover(rmask);
    if (cover) {
        int32_t len = 32 - __builtin_clz(cover) - tz(cover), in = 0;
        for (int32_t i = 0; i < n; i++) in += (int32_t)(cover >> rk[i] & 1);
        int32_t extra = in - len;
        int32_t mult = extra == 0 ? 1 : extra == 1 ? 2 : pairs == 3 ? 3 : 4;
        pts += mult * run_points_of(r->run_points, len);
    }
    if (r->all_31 || r->score_25 != CC_25_OFF) {
        int32_t total = (int32_t)((n == 5 ? w3 : w1) >> 56); /* all the cards */
        if (r->all_31 && total == 31) pts += r->all_31;
        if (r->score_25 != CC_25_OFF) {
            const uint64_t t25 = BYTES_01 * 25;
            uint64_t g = zero_flags(w0 ^ t25) + zero_flags(w1 ^ t25);
            if (n == 5) g += zero_flags(w2 ^ t25) + zero_flags(w3 ^ t25);
            int32_t sets = byte_sum(g); /* the words hold each subset once */
            if (r->score_25 == CC_25_FLAT4) {
                pts += 4 * sets;
            } else {
                /* sets of 3+ cards (2 cards make 20 at most): all n cards
                 * (total 25), n - 1 (leave out one card of pip total - 25),
                 * the rest n - 2 (3 when n is 5) */
                int32_t all = total == 25, but_one = 0;
                for (int32_t i = 0; i < n; i++) but_one += cc_pip_of_rank(rk[i]) == total - 25;
                pts += n * all + (n - 1) * but_one + (n - 2) * (sets - all - but_one);
            }
        }
    }
    return pts;
}

int32_t cc_show_rank_points(uint64_t cards, const cc_show_rules *r) {
    return r->hand_size == 3 ? rank_points_n(cards, r, 4) : rank_points_n(cards, r, 5);
}

int32_t cc_show_points(uint64_t hand, int32_t turnup, const cc_show_rules *r) {
    return cc_show_rank_points(hand | cc_bit_of(turnup), r) + cc_show_suit_points(hand, turnup, r);
}

void cc_score_sort(cc_score_item *items, int32_t n) {
    for (int32_t i = 1; i < n; i++) { /* insertion sort (stable) */
        cc_score_item x = items[i];
        int32_t j = i - 1;
        while (j >= 0 &&
               (items[j].kind > x.kind || (items[j].kind == x.kind && items[j].cards > x.cards))) {
            items[j + 1] = items[j];
            j--;
        }
        items[j + 1] = x;
    }
}

int32_t cc_play_check(const uint8_t *seq, int32_t n, int32_t max_n) {
    if (seq == NULL || n < 1 || n > max_n) return CC_E_ARG;
    uint64_t seen = 0;
    int32_t total = 0;
    for (int32_t i = 0; i < n; i++) {
        if (seq[i] >= CC_NUM_CARDS52) return CC_E_CARDS;
        uint64_t b = cc_bit_of(seq[i]);
        if (seen & b) return CC_E_CARDS;
        seen |= b;
        total += cc_pip_of_rank(cc_rank_of(seq[i]));
    }
    return total > 31 ? CC_E_ARG : CC_OK;
}

int32_t cc_play_items(const uint8_t *seq, int32_t n, const cc_play_rules *r, cc_score_item *out) {
    int32_t k = 0, total = 0;
    uint64_t all = 0;
    for (int32_t i = 0; i < n; i++) {
        total += cc_pip_of_rank(cc_rank_of(seq[i]));
        all |= cc_bit_of(seq[i]);
    }
    int32_t last = seq[n - 1];
    if (total == 15) put_item(out, &k, CC_SCORE_FIFTEEN, 2, all);
    /* pairs: the cards just before of the same rank: 2, 6 or 12 */
    int32_t same = 0;
    uint64_t cards = cc_bit_of(last);
    for (int32_t i = n - 2; i >= 0 && cc_rank_of(seq[i]) == cc_rank_of(last); i--) {
        same++;
        cards |= cc_bit_of(seq[i]);
    }
    if (same > 0) put_item(out, &k, CC_SCORE_PAIR, same == 1 ? 2 : same == 2 ? 6 : 12, cards);
    /* runs: the longest tail of 3+ cards of distinct consecutive ranks in
     * any order (a repeated rank ends every longer tail) */
    {
        uint32_t m = 0;
        uint64_t c = 0, best_cards = 0;
        int32_t best = 0;
        for (int32_t i = n - 1; i >= 0; i--) {
            uint32_t rb = 1u << cc_rank_of(seq[i]);
            if (m & rb) break;
            m |= rb;
            c |= cc_bit_of(seq[i]);
            int32_t len = n - i;
            if (len >= 3 && (m >> tz(m)) == (1u << len) - 1) {
                best = len;
                best_cards = c;
            }
        }
        if (best) put_item(out, &k, CC_SCORE_RUN, run_points_of(r->run_points, best), best_cards);
    }
    /* flushes: the longest tail of 3+ cards of one suit */
    if (r->flush) {
        int32_t len = 1;
        uint64_t c = cc_bit_of(last);
        for (int32_t i = n - 2; i >= 0 && cc_suit_of(seq[i]) == cc_suit_of(last); i--) {
            len++;
            c |= cc_bit_of(seq[i]);
        }
        if (len >= 3) put_item(out, &k, CC_SCORE_FLUSH, len, c);
    }
    if (total == 31) put_item(out, &k, CC_SCORE_THIRTY_ONE, 2, all);
    if (total == 25 && r->score_25 != CC_25_OFF)
        put_item(out, &k, CC_SCORE_TWENTY_FIVE, r->score_25 == CC_25_FLAT4 ? 4 : n, all);
    return k;
}
