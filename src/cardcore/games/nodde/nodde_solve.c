/* nodde_solve.c: the exact solver of the play (docs/nodde.rst, "The
 * solver"), the table's solve_depth and solve.
 *
 * The hands are pegged before the play, so what is left of a deal once it
 * is dealt is its play: at most 12 cards (4 players x 3), one count with no
 * new count after a go.  The search replays the engine's rules on a small
 * copy of what the play reads (nodde_game.c: cc_nodde_apply, next_turn):
 * the points of each card with the rules' play scoring, the end of the deal
 * at 31 or when nobody can play (the last card: 1), the game ending as soon
 * as a side reaches the target.  The deal is valued when its play ends,
 * before the next deal is dealt and pegged (chance).  The tests check it
 * against a brute force over the engine's own apply.
 *
 * Values are to the side of the player to act (the root), whose partner
 * plays with him; every other seat plays against him (with 3 or 4
 * individual players, the paranoid two-sided convention).  Alpha-beta,
 * fail-soft.  No transposition table: the points of a card read the whole
 * sequence played (runs, pairs, flushes, 25 by card count), which also
 * fixes every hand, so no two orders of play reach the same position. */
#include "cc_bots.h"
#include "nodde_internal.h"

#include <math.h>

/* What the play reads of a position. */
typedef struct pos {
    uint64_t hand[CC_NODDE_MAX_PLAYERS];
    int32_t score[CC_NODDE_MAX_PLAYERS]; /* per side */
    uint8_t seq[CC_NODDE_MAX_PLAY];
    int32_t nseq, total, last, to_act;
    uint32_t gone;
} pos;

typedef struct ctx {
    int32_t n, partners, target, dealer, root_side;
    cc_play_rules rules;
    const double *win; /* NULL: the margin */
    int32_t win_target;
    int64_t nodes, max_nodes;
    int32_t err;
} ctx;

static inline int32_t side(const ctx *c, int32_t q) { return c->partners ? (q & 1) : q; }

static inline int32_t next_seat(const ctx *c, int32_t q) { return q + 1 == c->n ? 0 : q + 1; }

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
    int32_t d = next_seat(c, c->dealer), t = c->win_target;
    int32_t x = p->score[side(c, d)], y = p->score[side(c, 1 - d)];
    x = x < 0 ? 0 : x >= t ? t - 1 : x;
    y = y < 0 ? 0 : y >= t ? t - 1 : y;
    double w = c->win[(size_t)x * (size_t)t + (size_t)y];
    return side(c, d) == c->root_side ? w : 1.0 - w;
}

static inline int32_t peg(const ctx *c, pos *p, int32_t q, int32_t pts) {
    if (pts <= 0) return 0;
    p->score[side(c, q)] += pts;
    return p->score[side(c, q)] >= c->target;
}

/* Play card (legal) for the seat to act: 1 with *val if that ends the deal
 * or the game, else 0 with the next seat to act set. */
static int32_t play_card(const ctx *c, pos *p, int32_t card, double *val) {
    int32_t seat = p->to_act;
    p->hand[seat] &= ~cc_bit_of(card);
    p->seq[p->nseq++] = (uint8_t)card;
    p->total += cc_pip_of(card);
    p->last = seat;
    int32_t pts = cc_play_points(p->seq, p->nseq, p->total, &c->rules);
    if (peg(c, p, seat, pts)) {
        *val = value_of(c, p, 1);
        return 1;
    }
    if (p->total == 31) {
        *val = value_of(c, p, 0);
        return 1;
    }
    for (int32_t k = 1, q = next_seat(c, seat); k <= c->n; k++, q = next_seat(c, q)) {
        if (p->gone >> q & 1) continue;
        if (p->hand[q] != 0 && cc_min_pip(p->hand[q]) <= 31 - p->total) {
            p->to_act = q;
            return 0;
        }
        p->gone |= 1u << q;
    }
    int32_t over = peg(c, p, p->last, 1); /* the last card */
    *val = value_of(c, p, over);
    return 1;
}

static inline uint64_t playable(const pos *p) {
    int32_t room = 31 - p->total;
    uint32_t rm = room >= 10 ? 0x1FFFu : (room <= 0 ? 0u : (1u << room) - 1);
    return p->hand[p->to_act] & cc_lanes(rm);
}

/* The value to the root's side of position p, the players on the root's
 * side maximizing, the others minimizing (alpha-beta, fail-soft). */
static double search(ctx *c, const pos *p, double alpha, double beta) {
    int32_t maxing = side(c, p->to_act) == c->root_side;
    double best = maxing ? -HUGE_VAL : HUGE_VAL;
    for (uint64_t u = playable(p); u; u &= u - 1) {
        if (c->max_nodes > 0 && c->nodes >= c->max_nodes) {
            c->err = CC_E_CAPACITY;
            return 0.0;
        }
        c->nodes++;
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

/* Cards left to play: every live state is in the play (the hands are
 * pegged as the deal is dealt). */
int32_t cc_nodde_solve_depth(const void *state) {
    const nodde_state *s = (const nodde_state *)state;
    if (s == NULL || s->to_act == TERMINAL) return -1;
    if (s->n < 2 || s->n > CC_NODDE_MAX_PLAYERS || s->to_act < 0 || s->to_act >= s->n) return -1;
    int32_t left = 0;
    for (int32_t q = 0; q < s->n; q++) {
        if (s->hand[q] & ~CC_DECK52_MASK) return -1;
        left += cc_popcount64(s->hand[q]);
    }
    if (left < 1 || s->nseq < 0 || s->nseq + left > CC_NODDE_MAX_PLAY) return -1;
    for (int32_t i = 0; i < s->nseq; i++)
        if (s->seq[i] >= NUM_CARDS) return -1;
    return left;
}

int32_t cc_nodde_solve(const void *state, const double *win_table, int32_t win_target,
                       int64_t max_nodes, double *values, int64_t *nodes) {
    const nodde_state *s = (const nodde_state *)state;
    if (nodes != NULL) *nodes = 0;
    if (s == NULL || values == NULL || max_nodes < 0) return CC_E_ARG;
    if (s->to_act == TERMINAL) return CC_E_GAME_OVER;
    if (cc_nodde_solve_depth(s) < 0) return CC_E_ARG;
    if (s->total < 0 || s->total > 31 || s->dealer < 0 || s->dealer >= s->n) return CC_E_ARG;
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
             .rules = play_rules(s->params),
             .win = win_table,
             .win_target = win_target,
             .max_nodes = max_nodes};
    c.root_side = side(&c, s->to_act);
    pos root;
    memset(&root, 0, sizeof root);
    for (int32_t q = 0; q < s->n; q++) {
        root.hand[q] = s->hand[q];
        root.score[side(&c, q)] = s->score[side(&c, q)];
    }
    for (int32_t i = 0; i < s->nseq; i++) root.seq[i] = s->seq[i];
    root.nseq = s->nseq;
    root.total = s->total;
    root.last = s->last_player;
    root.to_act = s->to_act;
    root.gone = s->gone;
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
    if (nodes != NULL) *nodes = c.nodes;
    if (c.err) return c.err;
    for (int32_t i = 0; i < k; i++) values[ids[i]] = out[i];
    return CC_OK;
}
