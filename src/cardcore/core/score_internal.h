/* score_internal.h: the show and play scorers of the cribbage family
 * (combos.c), shared by Nodde Knave (nodde.c) and Cribbage (cribbage.c).
 * Private: each game's public API (cc_nodde.h, cc_cribbage.h) validates its
 * input, fills the rules below from its own rules array and calls these.
 *
 * The show scores a hand of 3 (Nodde) or 4 (cribbage) cards with the
 * turn-up (the starter): fifteens, pairs, runs, the flush, the Jack of the
 * turn-up's suit in hand (knave noddy, his nobs), and Nodde's 31 and 25.
 * The play scores the last card of a count: fifteen, pairs, runs, Nodde's
 * flush, 31, and Nodde's 25.  Each comes itemized (for the scoring APIs and
 * what they record) and as points only (for the game and its rollouts); the
 * two are the same rule and the tests check that they agree everywhere. */
#ifndef CC_SCORE_INTERNAL_H
#define CC_SCORE_INTERNAL_H

#include "cc_internal.h"

/* Item kinds: the numbers of CC_NODDE_* and CC_CRIBBAGE_* (cc_nodde.h,
 * cc_cribbage.h). */
#define CC_SCORE_FIFTEEN 0
#define CC_SCORE_PAIR 1
#define CC_SCORE_RUN 2
#define CC_SCORE_FLUSH 3
#define CC_SCORE_JACK 4 /* knave noddy (Nodde), his nobs (cribbage) */
#define CC_SCORE_THIRTY_ONE 5
#define CC_SCORE_TWENTY_FIVE 6

/* Room for the items of a show (at most 27 occur: 3 + 1 cards with every
 * Nodde variant) and of a play (at most 6). */
#define CC_SCORE_MAX_SHOW_ITEMS 32
#define CC_SCORE_MAX_PLAY_ITEMS 8

/* The layout of cc_nodde_item and cc_cribbage_item. */
typedef struct cc_score_item {
    int32_t kind;
    int32_t points;
    uint64_t cards;
} cc_score_item;

/* A run's points: len (per card) or 2 (len - 2) (Nodde's Mwynwen table). */
#define CC_RUN_PER_CARD 0
#define CC_RUN_MWYNWEN 1
/* A 25: 4 a set, or 1 per card of the set. */
#define CC_25_OFF 0
#define CC_25_FLAT4 1
#define CC_25_PER_CARD 2

typedef struct cc_show_rules {
    int32_t hand_size;  /* 3 or 4: the hand's cards; the turn-up makes 4 or 5 */
    int32_t run_points; /* CC_RUN_* */
    /* The flush.  flush_any 1: the cards of one suit among the hand and the
     * turn-up, flush_min or more, score 1 each (Nodde's any3_of_4).  0: the
     * hand's cards all of one suit score 1 each and the turn-up of that suit
     * 1 more, if that makes flush_min or more (Nodde's hand3_required: 3;
     * a cribbage hand: 4; a crib: 5, or 4 with crib_four_flush). */
    int32_t flush_any;
    int32_t flush_min; /* 3 or more */
    int32_t all_31;    /* points when all the cards total 31 (0: none) */
    int32_t score_25;  /* CC_25_*: every set of 3+ cards totalling 25 */
} cc_show_rules;

typedef struct cc_play_rules {
    int32_t run_points; /* CC_RUN_* */
    int32_t flush;      /* 1: the last 3+ cards played of one suit, 1 each */
    int32_t score_25;   /* CC_25_*: a count of 25 (PER_CARD: 1 per card of the count) */
} cc_play_rules;

/* The itemized show: c[0 .. hand_size - 1] the hand, c[hand_size] the
 * turn-up (distinct valid card ids).  out must hold CC_SCORE_MAX_SHOW_ITEMS;
 * items in the order fifteens, pairs, runs, flush, Jack, 31, 25.  Returns
 * their number. */
int32_t cc_show_items(const int32_t *c, const cc_show_rules *r, cc_score_item *out);

/* The same points, without items: hand a valid bitset of hand_size cards,
 * turnup a valid card id not in it. */
int32_t cc_show_points(uint64_t hand, int32_t turnup, const cc_show_rules *r);

/* The show points that depend on the ranks alone (fifteens, pairs, runs, 31,
 * 25) of cards, the hand and the turn-up (hand_size + 1 cards: any valid set
 * of that many cards). */
int32_t cc_show_rank_points(uint64_t cards, const cc_show_rules *r);

/* The show points that depend on the suits (the flush, the Jack): the rest
 * of cc_show_points.  Inline: the discard analysis calls it in its inner
 * loop. */
static inline int32_t cc_show_suit_points(uint64_t hand, int32_t turnup, const cc_show_rules *r) {
    int32_t ts = turnup / 13;
    uint64_t tbit = (uint64_t)1 << (16 * ts + turnup % 13);
    int32_t pts = (hand >> (16 * ts + 10) & 1) != 0; /* the Jack of the turn-up's suit */
    if (r->flush_any) {
        /* 3 or more of 4 or 5 cards, in bit order, hold the third one; fewer
         * than 3 cards (x == 0: only from a caller's degenerate pattern, never
         * a real hand) make no flush, as flush_min >= 3 */
        uint64_t all = hand | tbit, x = all & (all - 1);
        x &= x - 1;
        if (x != 0) {
            int32_t k = cc_popcount64(all & ((uint64_t)0x1FFF << (cc_ctz64(x) & ~15)));
            if (k >= r->flush_min) pts += k;
        }
    } else if (hand != 0) {
        int32_t hs = cc_ctz64(hand) >> 4;
        if ((hand & ((uint64_t)0x1FFF << (16 * hs))) == hand) {
            int32_t k = r->hand_size + (hs == ts);
            if (k >= r->flush_min) pts += k;
        }
    }
    return pts;
}

/* Sort items into the canonical order of the scoring APIs: by kind, then by
 * card set. */
void cc_score_sort(cc_score_item *items, int32_t n);

/* Check a count handed to a play scoring API: seq not NULL, 1 <= n <= max_n
 * (else CC_E_ARG), valid distinct card ids (else CC_E_CARDS), a pip total of
 * at most 31 (else CC_E_ARG).  CC_OK if it is a count. */
int32_t cc_play_check(const uint8_t *seq, int32_t n, int32_t max_n);

/* The itemized play: seq[0 .. n-1] the cards of the count (valid, distinct,
 * total at most 31, n >= 1), the last just played.  out must hold
 * CC_SCORE_MAX_PLAY_ITEMS; items in the order fifteen, pair, run, flush,
 * 31, 25.  Returns their number. */
int32_t cc_play_items(const uint8_t *seq, int32_t n, const cc_play_rules *r, cc_score_item *out);

/* The same points, without items; total is the count's pip total.  Inline:
 * every card played in a game and its rollouts is scored by it. */
static inline int32_t cc_play_points(const uint8_t *seq, int32_t n, int32_t total,
                                     const cc_play_rules *r) {
    int32_t pts = 0;
    if (total == 15 || total == 31) pts += 2;
    if (total == 25 && r->score_25 != CC_25_OFF) pts += r->score_25 == CC_25_FLAT4 ? 4 : n;
    int32_t last = seq[n - 1], lr = last % 13;
    /* pairs: the cards just before of the same rank: 2, 6 or 12 */
    int32_t same = 0;
    for (int32_t i = n - 2; i >= 0 && seq[i] % 13 == lr; i--) same++;
    pts += same == 0 ? 0 : same == 1 ? 2 : same == 2 ? 6 : 12;
    /* runs: the longest tail of 3+ cards of distinct ranks whose ranks are
     * one block (none when the last two cards pair) */
    if (same == 0 && n >= 3) {
        uint32_t m = 1u << lr;
        int32_t best = 0;
        for (int32_t i = n - 2; i >= 0; i--) {
            uint32_t rb = 1u << (seq[i] % 13);
            if (m & rb) break;
            m |= rb;
            if (n - i >= 3 && ((m + (m & (0u - m))) & m) == 0) best = n - i;
        }
        if (best) pts += r->run_points == CC_RUN_MWYNWEN ? 2 * (best - 2) : best;
    }
    /* flushes: the longest tail of 3+ cards of one suit */
    if (r->flush) {
        int32_t len = 1, ls = last / 13;
        for (int32_t i = n - 2; i >= 0 && seq[i] / 13 == ls; i--) len++;
        if (len >= 3) pts += len;
    }
    return pts;
}

/* ---- the scoring APIs' side (cc_nodde.h, cc_cribbage.h) ------------------- */

/* 1 if a scoring API may score hand (a 52-card set of hand_size cards) with
 * turnup (a card id not in it). */
static inline int32_t cc_show_hand_valid(uint64_t hand, int32_t hand_size, int32_t turnup) {
    return (hand & ~CC_DECK52_MASK) == 0 && cc_popcount64(hand) == hand_size && turnup >= 0 &&
           turnup < 52 && (hand & cc_bit_of(turnup)) == 0;
}

/* The cards of cc_show_items: c[0 .. hand_size-1] the ids of the valid hand
 * (in bit order), c[hand_size] the turn-up. */
static inline void cc_show_ids(uint64_t hand, int32_t hand_size, int32_t turnup, int32_t *c) {
    for (int32_t i = 0; i < hand_size; i++) {
        c[i] = cc_card52_id_of_bit(cc_ctz64(hand));
        hand &= hand - 1;
    }
    c[hand_size] = turnup;
}

/* cc_show_hand_valid, then cc_show_ids: CC_OK, or CC_E_CARDS (c untouched). */
static inline int32_t cc_show_hand_ids(uint64_t hand, int32_t hand_size, int32_t turnup,
                                       int32_t *c) {
    if (!cc_show_hand_valid(hand, hand_size, turnup)) return CC_E_CARDS;
    cc_show_ids(hand, hand_size, turnup, c);
    return CC_OK;
}

/* The shows handed to a batch scoring API: n >= 0 and, when n > 0, the
 * arrays not NULL (else CC_E_ARG); each hands[i] with turnups[i] as
 * cc_show_hand_valid asks (else CC_E_CARDS, the first bad i in *bad_index
 * if bad_index is not NULL).  CC_OK if all can be scored. */
static inline int32_t cc_show_batch_check(const uint64_t *hands, const uint8_t *turnups, int64_t n,
                                          int32_t hand_size, const int32_t *out,
                                          int64_t *bad_index) {
    if (n < 0 || (n > 0 && (hands == NULL || turnups == NULL || out == NULL))) return CC_E_ARG;
    for (int64_t i = 0; i < n; i++)
        if (!cc_show_hand_valid(hands[i], hand_size, turnups[i])) {
            if (bad_index) *bad_index = i;
            return CC_E_CARDS;
        }
    return CC_OK;
}

/* The layout of a scoring API's item type, which must be cc_score_item's:
 * CC_SCORE_ITEM_LAYOUT(cc_nodde_item); at file scope. */
#define CC_SCORE_ITEM_LAYOUT(type)                                                  \
    _Static_assert(sizeof(type) == sizeof(cc_score_item) &&                         \
                       offsetof(type, kind) == offsetof(cc_score_item, kind) &&     \
                       offsetof(type, points) == offsetof(cc_score_item, points) && \
                       offsetof(type, cards) == offsetof(cc_score_item, cards),     \
                   #type ": must have the layout of cc_score_item")

/* Hand the n items to a scoring API's caller: out, cap items of the API's
 * type (of cc_score_item's layout, CC_SCORE_ITEM_LAYOUT).  Returns n, or
 * CC_E_CAPACITY when they do not fit (out untouched). */
static inline int32_t cc_score_items_out(const cc_score_item *items, int32_t n, void *out,
                                         int32_t cap) {
    if (n > cap || (n > 0 && out == NULL)) return CC_E_CAPACITY;
    if (n > 0) memcpy(out, items, sizeof(cc_score_item) * (size_t)n);
    return n;
}

/* The itemized show of cc_show_items, sorted (cc_score_sort) and handed to
 * the caller (cc_score_items_out). */
static inline int32_t cc_show_items_out(const int32_t *c, const cc_show_rules *r, void *out,
                                        int32_t cap) {
    cc_score_item items[CC_SCORE_MAX_SHOW_ITEMS];
    int32_t n = cc_show_items(c, r, items);
    cc_score_sort(items, n);
    return cc_score_items_out(items, n, out, cap);
}

/* The itemized play of cc_play_items after cc_play_check(seq, n, max_n),
 * handed to the caller (cc_score_items_out). */
static inline int32_t cc_play_items_out(const uint8_t *seq, int32_t n, int32_t max_n,
                                        const cc_play_rules *r, void *out, int32_t cap) {
    int32_t rc = cc_play_check(seq, n, max_n);
    if (rc != CC_OK) return rc;
    cc_score_item items[CC_SCORE_MAX_PLAY_ITEMS];
    int32_t k = cc_play_items(seq, n, r, items);
    return cc_score_items_out(items, k, out, cap);
}

#endif /* CC_SCORE_INTERNAL_H */
