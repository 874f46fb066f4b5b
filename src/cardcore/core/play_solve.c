/* play_solve.c: the exact solver of the play of the cribbage family
 * (play_internal.h, cc_play_solve), behind the solve of the games' tables.
 *
 * The search plays the rules' sequence (cc_play_next, cc_play_points) on a
 * small copy of what the play reads: the points of each card, the goes and
 * the last card, a new count after 31 or the last card (with new_count) or
 * else the end of the play, then the game's end of the play (its pegs in
 * order), the game ending as soon as a side reaches the target.  The games'
 * tests check it against a brute force over each engine's own apply.
 *
 * Values are to the side of the player to act (the root), whose partner
 * plays with him; every other seat plays against him (with 3 or 4
 * individual players, the paranoid two-sided convention).  Alpha-beta,
 * fail-soft; with the problem's table option, the children in the order of
 * the mover's points and a transposition table keyed on the whole
 * position: the cards played since the root, the current count in order,
 * the seat to act, who has said go, the last to play and the scores. */
#include "cc_bots.h"
#include "play_internal.h"

#include <math.h>
#include <stdlib.h>

#define MAX_CARDS CC_PLAY_MAX_CARDS
#define MAX_SEATS CC_PLAY_MAX_SEATS
#define NUM_CARDS 52
#define TT_BITS 13
#define TT_MIN_LEFT 4 /* positions with fewer cards left are not stored */
#define BOUND_EXACT 1
#define BOUND_LOWER 2
#define BOUND_UPPER 3
#define STOP_MASK 4095 /* the stop flag is read every 4096 positions */

/* Forced inline: play_card_k is specialized on its constant options. */
#if defined(__GNUC__)
#define PLAY_AI static inline __attribute__((always_inline))
#else
#define PLAY_AI static inline
#endif

/* What the play reads of a position, by seat. */
typedef struct pos {
    uint64_t hand[MAX_SEATS];
    uint64_t played; /* since the root */
    int32_t score[MAX_SEATS];
    uint8_t seq[MAX_CARDS];
    int32_t nseq, count_start, total, last, to_act, left;
    uint32_t gone;
} pos;

/* The transposition table's key: the whole position (zero padded). */
typedef struct tt_key {
    uint64_t played;
    int32_t score[MAX_SEATS];
    uint8_t count[MAX_CARDS]; /* the current count's cards in order, then 0xFF */
    uint8_t to_act, last, gone, ncount;
} tt_key;

typedef struct tt_entry {
    tt_key key;
    double value;
    int32_t bound; /* 0: empty */
    int32_t reserved;
} tt_entry;

typedef struct ctx {
    int32_t n, partners, target, dealer, root_side, new_count, nend;
    const int32_t *end_seat, *end_points; /* the game's end of the play */
    cc_play_rules rules;
    const double *win; /* NULL: the margin */
    int32_t win_target;
    int64_t nodes, max_nodes;
    const volatile int32_t *stop; /* NULL: never stopped */
    int32_t err;
    tt_entry *tt;   /* NULL: none; entries not in used are garbage */
    uint64_t *used; /* a bit a slot of tt: stored in this call */
} ctx;

static inline int32_t side(const ctx *c, int32_t q) { return c->partners ? (q & 1) : q; }

/* The value to the root's side of the scores at the end of the game
 * (over: a side reached the target) or of the deal's play. */
static double value_of(const ctx *c, const pos *p, int32_t over) {
    if (c->win == NULL) {
        double sum = 0.0, own = (double)p->score[c->root_side];
        for (int32_t q = 0; q < c->n; q++) sum += (double)p->score[side(c, q)];
        return own - (sum - own) / (double)(c->n - 1);
    }
    if (over) return p->score[c->root_side] >= c->target ? 1.0 : 0.0;
    /* search/bots.c, deal_rewards: [x * t + y], x the next dealer's points */
    int32_t d = cc_play_next_seat(c->n, c->dealer), t = c->win_target;
    int32_t x = p->score[side(c, d)], y = p->score[side(c, 1 - d)];
    x = x < 0 ? 0 : x >= t ? t - 1 : x;
    y = y < 0 ? 0 : y >= t ? t - 1 : y;
    double w = c->win[(size_t)x * (size_t)t + (size_t)y];
    return side(c, d) == c->root_side ? w : 1.0 - w;
}

/* Peg pts to seat q's side; 1 if that ends the game. */
static inline int32_t peg(const ctx *c, pos *p, int32_t q, int32_t pts) {
    if (pts <= 0) return 0;
    p->score[side(c, q)] += pts;
    return p->score[side(c, q)] >= c->target;
}

/* The value once the play is over: the game's end of the play pegged in
 * order (cc_play_problem, end_seat and end_points). */
static double end_value(const ctx *c, pos *p) {
    for (int32_t i = 0; i < c->nend; i++)
        if (peg(c, p, c->end_seat[i], c->end_points[i])) return value_of(c, p, 1);
    return value_of(c, p, 0);
}

static inline void start_count(pos *p) {
    p->count_start = p->nseq;
    p->total = 0;
    p->gone = 0;
}

/* Play card (legal) for the seat to act: 1 with *val if that ends the play
 * or the game, else 0 with the next seat to act set.  new_count and table
 * are the problem's, constants where it is inlined.  A seat with no cards
 * is passed over (cc_play_next, empty_goes 0) whatever the rules say: it
 * can never play again, so saying go changes only its bit in the gone set,
 * which the values do not read. */
PLAY_AI int32_t play_card_k(const ctx *c, pos *p, int32_t card, double *val,
                            const int32_t new_count, const int32_t table) {
    int32_t seat = p->to_act;
    uint64_t b = cc_bit_of(card);
    p->hand[seat] &= ~b;
    if (table) p->played |= b;
    p->left--;
    p->seq[p->nseq++] = (uint8_t)card;
    p->total += cc_pip_of(card);
    p->last = seat;
    int32_t pts =
        cc_play_points(p->seq + p->count_start, p->nseq - p->count_start, p->total, &c->rules);
    if (peg(c, p, seat, pts)) {
        *val = value_of(c, p, 1);
        return 1;
    }
    if (p->total == 31) {
        if (!new_count || p->left == 0) {
            *val = end_value(c, p);
            return 1;
        }
        start_count(p);
    }
    for (int32_t from = seat;; from = p->last) {
        int32_t q = cc_play_next(p->hand, c->n, p->total, &p->gone, from, 0, NULL, NULL);
        if (q >= 0) {
            p->to_act = q;
            return 0;
        }
        if (peg(c, p, p->last, 1)) { /* the last card */
            *val = value_of(c, p, 1);
            return 1;
        }
        if (!new_count || p->left == 0) {
            *val = end_value(c, p);
            return 1;
        }
        start_count(p);
    }
}

/* play_card_k for the search without the table: with the new count a
 * constant (a branch a card; the table's search, larger, does better
 * without the second copy). */
PLAY_AI int32_t play_card(const ctx *c, pos *p, int32_t card, double *val) {
    return c->new_count ? play_card_k(c, p, card, val, 1, 0) : play_card_k(c, p, card, val, 0, 0);
}

PLAY_AI int32_t play_card_table(const ctx *c, pos *p, int32_t card, double *val) {
    return play_card_k(c, p, card, val, c->new_count, 1);
}

static inline uint64_t playable(const pos *p) {
    return cc_play_legal(p->hand[p->to_act], p->total);
}

/* One more position visited: 0, or 1 with the error set past the cap or
 * once the stop flag is set. */
static inline int32_t visit(ctx *c) {
    if (c->max_nodes > 0 && c->nodes >= c->max_nodes) {
        c->err = CC_E_CAPACITY;
        return 1;
    }
    if ((c->nodes & STOP_MASK) == 0 && c->stop != NULL && *c->stop) {
        c->err = CC_E_STOPPED;
        return 1;
    }
    c->nodes++;
    return 0;
}

/* The value to the root's side of position p, the players on the root's
 * side maximizing, the others minimizing (alpha-beta, fail-soft): the
 * children in the order of their cards. */
static double search(ctx *c, const pos *p, double alpha, double beta) {
    int32_t maxing = side(c, p->to_act) == c->root_side;
    double best = maxing ? -HUGE_VAL : HUGE_VAL;
    for (uint64_t u = playable(p); u; u &= u - 1) {
        if (visit(c)) return 0.0;
        pos ch = *p;
        double v;
        if (!play_card(c, &ch, cc_card52_id_of_bit(cc_ctz64(u)), &v)) {
            v = search(c, &ch, alpha, beta);
            if (c->err) return 0.0;
        }
        if (cc_ab_take(maxing, v, &best, &alpha, &beta)) break;
    }
    return best;
}

static void make_key(const pos *p, tt_key *k) {
    memset(k, 0, sizeof *k);
    k->played = p->played;
    for (int32_t q = 0; q < MAX_SEATS; q++) k->score[q] = p->score[q];
    int32_t m = p->nseq - p->count_start;
    memset(k->count, 0xFF, sizeof k->count);
    for (int32_t i = 0; i < m; i++) k->count[i] = p->seq[p->count_start + i];
    k->to_act = (uint8_t)p->to_act;
    k->last = (uint8_t)(p->last & 0xFF);
    k->gone = (uint8_t)p->gone;
    k->ncount = (uint8_t)m;
}

static inline size_t key_slot(const tt_key *k) {
    uint64_t w[sizeof(tt_key) / 8];
    memcpy(w, k, sizeof w);
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        h ^= w[i];
        h *= 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 31;
    }
    return (size_t)(h >> (64 - TT_BITS));
}

/* search with the table option: every child played first, searched in the
 * order of the mover's points (a cheap move ordering), and the
 * transposition table (c->tt, when allocated) for positions of
 * TT_MIN_LEFT cards or more. */
static double search_table(ctx *c, const pos *p, double alpha, double beta) {
    tt_key key;
    tt_entry *e = NULL;
    if (c->tt != NULL && p->left >= TT_MIN_LEFT) {
        make_key(p, &key);
        size_t slot = key_slot(&key);
        e = &c->tt[slot];
        uint64_t bit = (uint64_t)1 << (slot & 63);
        if (!(c->used[slot >> 6] & bit)) { /* first seen: empty (not zeroed at the start) */
            c->used[slot >> 6] |= bit;
            e->bound = 0;
        }
        if (e->bound && memcmp(&e->key, &key, sizeof key) == 0) {
            double v = e->value;
            if (e->bound == BOUND_EXACT) return v;
            if (e->bound == BOUND_LOWER && v >= beta) return v;
            if (e->bound == BOUND_UPPER && v <= alpha) return v;
        }
    }
    double a0 = alpha, b0 = beta;
    int32_t mover = side(c, p->to_act);
    int32_t maxing = mover == c->root_side;
    double best = maxing ? -HUGE_VAL : HUGE_VAL;
    pos ch[MAX_CARDS];
    double cv[MAX_CARDS];
    int32_t over[MAX_CARDS], gain[MAX_CARDS], order[MAX_CARDS], k = 0;
    for (uint64_t u = playable(p); u && k < MAX_CARDS; u &= u - 1, k++) {
        if (visit(c)) return 0.0;
        ch[k] = *p;
        over[k] = play_card_table(c, &ch[k], cc_card52_id_of_bit(cc_ctz64(u)), &cv[k]);
        gain[k] = ch[k].score[mover] - p->score[mover];
        int32_t j = k;
        for (; j > 0 && gain[order[j - 1]] < gain[k]; j--) order[j] = order[j - 1];
        order[j] = k;
    }
    for (int32_t i = 0; i < k; i++) {
        int32_t m = order[i];
        double v = cv[m];
        if (!over[m]) {
            v = search_table(c, &ch[m], alpha, beta);
            if (c->err) return 0.0;
        }
        if (cc_ab_take(maxing, v, &best, &alpha, &beta)) break;
    }
    if (e != NULL) {
        memcpy(&e->key, &key, sizeof key);
        e->value = best;
        e->bound = best <= a0 ? BOUND_UPPER : best >= b0 ? BOUND_LOWER : BOUND_EXACT;
    }
    return best;
}

int32_t cc_play_cards_left(const uint64_t *hand, int32_t n, const uint8_t *seq, int32_t nseq,
                           int32_t max_cards) {
    if (n < 0 || nseq < 0 || (nseq > 0 && seq == NULL)) return -1;
    int32_t left = 0;
    for (int32_t q = 0; q < n; q++) {
        if (hand[q] & ~CC_DECK52_MASK) return -1;
        left += cc_popcount64(hand[q]);
    }
    if (left < 1 || nseq + left > max_cards) return -1;
    for (int32_t i = 0; i < nseq; i++)
        if (seq[i] >= NUM_CARDS) return -1;
    return left;
}

/* CC_OK if the problem is a position of the play the search can take, with
 * *left its cards left. */
static int32_t check_problem(const cc_play_problem *pb, int32_t *left) {
    if (pb->n < 2 || pb->n > MAX_SEATS || pb->to_act < 0 || pb->to_act >= pb->n) return CC_E_ARG;
    if (pb->dealer < 0 || pb->dealer >= pb->n || pb->nend < 0 || pb->nend > MAX_SEATS + 1)
        return CC_E_ARG;
    if (pb->total < 0 || pb->total > 31 || pb->count_start < 0 || pb->count_start > pb->nseq)
        return CC_E_ARG;
    *left = cc_play_cards_left(pb->hand, pb->n, pb->seq, pb->nseq, MAX_CARDS);
    return *left < 0 ? CC_E_ARG : CC_OK;
}

/* CC_OK for no win table, or a valid one for two seats. */
static int32_t check_win_table(const cc_play_problem *pb, const double *win, int32_t target) {
    if (win == NULL) return CC_OK;
    if (pb->n != 2 || target < 1 || target > CC_BOT_MAX_TARGET) return CC_E_ARG;
    size_t m = (size_t)target * (size_t)target;
    for (size_t i = 0; i < m; i++)
        if (!(win[i] >= 0.0 && win[i] <= 1.0)) return CC_E_ARG;
    return CC_OK;
}

int32_t cc_play_solve(const cc_play_problem *pb, const double *win_table, int32_t win_target,
                      int64_t max_nodes, const volatile int32_t *stop, double *values,
                      int64_t *nodes) {
    if (nodes != NULL) *nodes = 0;
    if (pb == NULL || values == NULL || max_nodes < 0) return CC_E_ARG;
    int32_t left, rc = check_problem(pb, &left);
    if (rc == CC_OK) rc = check_win_table(pb, win_table, win_target);
    if (rc != CC_OK) return rc;
    ctx c = {.n = pb->n,
             .partners = pb->partners,
             .target = pb->target,
             .dealer = pb->dealer,
             .new_count = pb->new_count,
             .nend = pb->nend,
             .end_seat = pb->end_seat,
             .end_points = pb->end_points,
             .rules = pb->rules,
             .win = win_table,
             .win_target = win_target,
             .max_nodes = max_nodes,
             .stop = stop};
    c.root_side = side(&c, pb->to_act);
    pos root;
    memset(&root, 0, sizeof root);
    for (int32_t q = 0; q < pb->n; q++) {
        root.hand[q] = pb->hand[q];
        root.score[side(&c, q)] = pb->score[side(&c, q)];
    }
    if (pb->nseq > 0) memcpy(root.seq, pb->seq, (size_t)pb->nseq);
    root.nseq = pb->nseq;
    root.count_start = pb->count_start;
    root.total = pb->total;
    root.last = pb->last;
    root.to_act = pb->to_act;
    root.gone = pb->gone;
    root.left = left;
    uint64_t used[((size_t)1 << TT_BITS) / 64];
    if (pb->table && left >= TT_MIN_LEFT + 1) {
        /* not zeroed: a slot is read once the bitmap says it was written */
        c.tt = (tt_entry *)malloc(sizeof(tt_entry) << TT_BITS);
        if (c.tt == NULL) return CC_E_CAPACITY;
        memset(used, 0, sizeof used);
        c.used = used;
    }
    double out[NUM_CARDS];
    int32_t ids[NUM_CARDS], k = 0;
    c.nodes = 1;
    for (uint64_t u = playable(&root); u; u &= u - 1) {
        int32_t card = cc_card52_id_of_bit(cc_ctz64(u));
        if (visit(&c)) break;
        pos ch = root;
        double v;
        if (pb->table ? !play_card_table(&c, &ch, card, &v) : !play_card(&c, &ch, card, &v))
            v = pb->table ? search_table(&c, &ch, -HUGE_VAL, HUGE_VAL)
                          : search(&c, &ch, -HUGE_VAL, HUGE_VAL);
        if (c.err) break;
        ids[k] = card;
        out[k++] = v;
    }
    free(c.tt);
    if (nodes != NULL) *nodes = c.nodes;
    if (c.err) return c.err;
    for (int32_t i = 0; i < k; i++) values[pb->action_base + ids[i]] = out[i];
    return CC_OK;
}
