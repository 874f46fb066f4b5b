/* cribbage_solve.c: the exact solver of the play (docs/cribbage.rst, "The
 * solver"), the table's solve_depth and solve.
 *
 * With every hand known, the rest of the play is a game of perfect
 * information of at most 16 cards (4 players x 4).  The search replays the
 * engine's rules on a small copy of what the play reads (cribbage_game.c:
 * after_card, next_turn, show): the points of each card, go and last card,
 * the new count after 31 or a go, then the show in its order (the hands from
 * the dealer's left, the dealer's, the crib), the game ending as soon as a
 * side reaches the target.  The tests check it against a brute force over
 * the engine's own apply.
 *
 * Values are to the side of the player to act (the root), whose partner
 * plays with him; every other seat plays against him (with 3 players, the
 * paranoid two-sided convention).  Alpha-beta, fail-soft, with a
 * transposition table keyed on the whole position: the cards played since
 * the root, the current count in order, the seat to act, who has said go,
 * the last to play and the scores.  The table is one allocation per call. */
#include "cc_bots.h"
#include "cribbage_internal.h"

#include <math.h>
#include <stdlib.h>

#define MAX_CARDS 16 /* 4 players x 4 cards in the play */
#define TT_BITS 13
#define TT_MIN_LEFT 4 /* positions with fewer cards left are not stored */
#define BOUND_EXACT 1
#define BOUND_LOWER 2
#define BOUND_UPPER 3

/* What the play reads of a position, by position round the table. */
typedef struct pos {
    uint64_t hand[CC_CRIBBAGE_MAX_PLAYERS];
    uint64_t played; /* since the root */
    int32_t score[CC_CRIBBAGE_MAX_PLAYERS];
    uint8_t play[MAX_CARDS];
    int32_t nplay, count_start, total, last, to_act, left;
    uint32_t gone;
} pos;

/* The transposition table's key: the whole position (zero padded). */
typedef struct tt_key {
    uint64_t played;
    int32_t score[CC_CRIBBAGE_MAX_PLAYERS];
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
    int32_t n, partners, target, dealer, root_side;
    const double *win; /* NULL: the margin */
    int32_t win_target;
    int32_t show_pts[CC_CRIBBAGE_MAX_PLAYERS + 1]; /* in the show's order */
    int32_t show_who[CC_CRIBBAGE_MAX_PLAYERS + 1]; /* the position pegging them */
    int64_t nodes, max_nodes;
    int32_t err;
    tt_entry *tt; /* NULL: none */
} ctx;

static inline int32_t side(const ctx *c, int32_t p) { return c->partners ? (p & 1) : p; }

/* The value to the root's side of the scores at the end of the game
 * (over: a side reached the target) or of the deal. */
static double value_of(const ctx *c, const pos *p, int32_t over) {
    if (c->win == NULL) {
        double sum = 0.0, own = (double)p->score[c->root_side];
        for (int32_t q = 0; q < c->n; q++) sum += (double)p->score[side(c, q)];
        return own - (sum - own) / (double)(c->n - 1);
    }
    if (over) return p->score[c->root_side] >= c->target ? 1.0 : 0.0;
    /* bots.c, deal_rewards: [x * t + y], x the next dealer's points */
    int32_t d = (c->dealer + 1) % c->n, t = c->win_target;
    int32_t x = p->score[side(c, d)], y = p->score[side(c, 1 - d)];
    x = x < 0 ? 0 : x >= t ? t - 1 : x;
    y = y < 0 ? 0 : y >= t ? t - 1 : y;
    double w = c->win[(size_t)x * (size_t)t + (size_t)y];
    return side(c, d) == c->root_side ? w : 1.0 - w;
}

/* Peg pts to position q's side; 1 if that ends the game. */
static inline int32_t peg(const ctx *c, pos *p, int32_t q, int32_t pts) {
    if (pts <= 0) return 0;
    p->score[side(c, q)] += pts;
    return p->score[side(c, q)] >= c->target;
}

/* The show after the last card (cribbage_game.c, show). */
static double show_value(const ctx *c, pos *p) {
    for (int32_t i = 0; i <= c->n; i++)
        if (peg(c, p, c->show_who[i], c->show_pts[i])) return value_of(c, p, 1);
    return value_of(c, p, 0);
}

static inline int32_t can_play(const pos *p, int32_t q) {
    return p->hand[q] != 0 && cc_min_pip(p->hand[q]) <= 31 - p->total;
}

static inline void new_count(pos *p) {
    p->count_start = p->nplay;
    p->total = 0;
    p->gone = 0;
}

/* Play card (legal) for the position to act: 1 with *val if that ends the
 * deal or the game, else 0 with the next position to act set
 * (cribbage_game.c: cc_cribbage_apply, after_card, next_turn). */
static int32_t play_card(const ctx *c, pos *p, int32_t card, double *val) {
    int32_t seat = p->to_act;
    uint64_t b = cc_bit_of(card);
    p->hand[seat] &= ~b;
    p->played |= b;
    p->left--;
    p->play[p->nplay++] = (uint8_t)card;
    p->total += cc_pip_of(card);
    p->last = seat;
    int32_t pts =
        cc_play_points(p->play + p->count_start, p->nplay - p->count_start, p->total, &play_rules);
    if (peg(c, p, seat, pts)) {
        *val = value_of(c, p, 1);
        return 1;
    }
    if (p->total == 31) {
        if (p->left == 0) {
            *val = show_value(c, p);
            return 1;
        }
        new_count(p);
    }
    int32_t from = seat;
    for (;;) {
        for (int32_t k = 1; k <= c->n; k++) {
            int32_t q = (from + k) % c->n;
            if ((p->gone >> q & 1) || p->hand[q] == 0) continue;
            if (can_play(p, q)) {
                p->to_act = q;
                return 0;
            }
            p->gone |= 1u << q;
        }
        if (peg(c, p, p->last, 1)) {
            *val = value_of(c, p, 1);
            return 1;
        }
        if (p->left == 0) {
            *val = show_value(c, p);
            return 1;
        }
        new_count(p);
        from = p->last;
    }
}

/* The cards the position to act may play. */
static inline uint64_t playable(const pos *p) {
    int32_t room = 31 - p->total;
    uint32_t rm = room >= 10 ? 0x1FFFu : (room <= 0 ? 0u : (1u << room) - 1);
    return p->hand[p->to_act] & cc_lanes(rm);
}

static void make_key(const pos *p, tt_key *k) {
    memset(k, 0, sizeof *k);
    k->played = p->played;
    for (int32_t q = 0; q < CC_CRIBBAGE_MAX_PLAYERS; q++) k->score[q] = p->score[q];
    int32_t m = p->nplay - p->count_start;
    memset(k->count, 0xFF, sizeof k->count);
    for (int32_t i = 0; i < m; i++) k->count[i] = p->play[p->count_start + i];
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

/* The value to the root's side of position p, the players on the root's
 * side maximizing, the others minimizing (alpha-beta, fail-soft). */
static double search(ctx *c, const pos *p, double alpha, double beta) {
    tt_key key;
    tt_entry *e = NULL;
    if (c->tt != NULL && p->left >= TT_MIN_LEFT) {
        make_key(p, &key);
        e = &c->tt[key_slot(&key)];
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
    /* the children, the mover's best points first (a cheap move ordering) */
    pos ch[MAX_CARDS];
    double cv[MAX_CARDS];
    int32_t over[MAX_CARDS], gain[MAX_CARDS], order[MAX_CARDS], k = 0;
    for (uint64_t u = playable(p); u && k < MAX_CARDS; u &= u - 1, k++) {
        if (c->max_nodes > 0 && c->nodes >= c->max_nodes) {
            c->err = CC_E_CAPACITY;
            return 0.0;
        }
        c->nodes++;
        ch[k] = *p;
        over[k] = play_card(c, &ch[k], cc_card52_id_of_bit(cc_ctz64(u)), &cv[k]);
        gain[k] = ch[k].score[mover] - p->score[mover];
        int32_t j = k;
        for (; j > 0 && gain[order[j - 1]] < gain[k]; j--) order[j] = order[j - 1];
        order[j] = k;
    }
    for (int32_t i = 0; i < k; i++) {
        int32_t m = order[i];
        double v = cv[m];
        if (!over[m]) {
            v = search(c, &ch[m], alpha, beta);
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

/* Cards left to play: the play phase without muggins (whose claims are
 * decisions of their own) and nothing pending, else -1. */
int32_t cc_cribbage_solve_depth(const void *state) {
    const cribbage_state *s = (const cribbage_state *)state;
    if (s == NULL || s->to_act == TERMINAL || s->phase != PHASE_PLAY) return -1;
    if (s->params[CC_CRIBBAGE_P_MUGGINS] || s->pclaim || s->calling) return -1;
    if (s->n < 2 || s->n > CC_CRIBBAGE_MAX_PLAYERS) return -1;
    int32_t left = 0;
    for (int32_t q = 0; q < s->n; q++) {
        /* what the show will score: a valid hand of 4 with the starter */
        if (s->hand[q] & ~CC_DECK52_MASK) return -1;
        if (!cc_show_hand_valid(s->dealt[q] & ~s->disc[q], 4, s->starter)) return -1;
        left += cc_popcount64(s->hand[q]);
    }
    if (!cc_show_hand_valid(crib_of(s), 4, s->starter)) return -1;
    if (left < 1 || s->nplay < 0 || s->nplay + left > MAX_CARDS) return -1;
    for (int32_t i = 0; i < s->nplay; i++)
        if (s->play[i] >= NUM_CARDS) return -1;
    return left;
}

int32_t cc_cribbage_solve(const void *state, const double *win_table, int32_t win_target,
                          int64_t max_nodes, double *values, int64_t *nodes) {
    const cribbage_state *s = (const cribbage_state *)state;
    if (nodes != NULL) *nodes = 0;
    if (s == NULL || values == NULL || max_nodes < 0) return CC_E_ARG;
    if (s->to_act == TERMINAL) return CC_E_GAME_OVER;
    int32_t left = cc_cribbage_solve_depth(s);
    if (left < 0) return CC_E_ARG;
    if (s->count_start < 0 || s->count_start > s->nplay || s->total < 0 || s->total > 31 ||
        s->to_act < 0 || s->to_act >= s->n || s->dealer < 0 || s->dealer >= s->n)
        return CC_E_ARG;
    if (win_table != NULL) {
        if (s->n != 2 || win_target < 1 || win_target > CC_BOT_MAX_TARGET) return CC_E_ARG;
        size_t m = (size_t)win_target * (size_t)win_target;
        for (size_t i = 0; i < m; i++)
            if (!(win_table[i] >= 0.0 && win_table[i] <= 1.0)) return CC_E_ARG;
    }
    ctx c = {.n = s->n,
             .partners = s->partners,
             .target = s->target,
             .dealer = s->dealer,
             .win = win_table,
             .win_target = win_target,
             .max_nodes = max_nodes};
    c.root_side = side(&c, s->to_act);
    int32_t four = s->params[CC_CRIBBAGE_P_CRIB_FOUR_FLUSH];
    for (int32_t i = 1; i <= s->n; i++) {
        int32_t q = (s->dealer + i) % s->n;
        c.show_who[i - 1] = q;
        c.show_pts[i - 1] = show_points(s->dealt[q] & ~s->disc[q], s->starter, 0, four);
    }
    c.show_who[s->n] = s->dealer;
    c.show_pts[s->n] = show_points(crib_of(s), s->starter, 1, four);

    pos root;
    memset(&root, 0, sizeof root);
    for (int32_t q = 0; q < s->n; q++) {
        root.hand[q] = s->hand[q];
        root.score[side(&c, q)] = s->score[side(&c, q)];
    }
    for (int32_t i = 0; i < s->nplay; i++) root.play[i] = s->play[i];
    root.nplay = s->nplay;
    root.count_start = s->count_start;
    root.total = s->total;
    root.last = s->last_player;
    root.to_act = s->to_act;
    root.gone = s->gone;
    root.left = left;
    if (left >= TT_MIN_LEFT + 1) {
        c.tt = (tt_entry *)calloc((size_t)1 << TT_BITS, sizeof(tt_entry));
        if (c.tt == NULL) return CC_E_CAPACITY;
    }
    double out[NUM_CARDS];
    int32_t ids[NUM_CARDS], k = 0;
    c.nodes = 1;
    for (uint64_t u = playable(&root); u; u &= u - 1) {
        int32_t card = cc_card52_id_of_bit(cc_ctz64(u));
        if (c.max_nodes > 0 && c.nodes >= c.max_nodes) {
            c.err = CC_E_CAPACITY;
            break;
        }
        c.nodes++;
        pos ch = root;
        double v;
        if (!play_card(&c, &ch, card, &v)) v = search(&c, &ch, -HUGE_VAL, HUGE_VAL);
        if (c.err) break;
        ids[k] = card;
        out[k++] = v;
    }
    free(c.tt);
    if (nodes != NULL) *nodes = c.nodes;
    if (c.err) return c.err;
    for (int32_t i = 0; i < k; i++) values[CC_CRIBBAGE_A_PLAY + ids[i]] = out[i];
    return CC_OK;
}
