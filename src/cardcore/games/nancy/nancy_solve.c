/* nancy_solve.c: the exact solver of the Game of Nancy's trick play (the
 * game table's solve_depth and solve, cardcore.h; docs/nancy.rst, "The
 * solver").
 *
 * Every card known, the play is a game of two sides: the Taker with his
 * Partner (when there is one) against the opponents.  A position is valued
 * by the Taker's points of the deal, as the engine scores them: the moves
 * are played on copies of the real state with the engine's own apply, and
 * the value is read from the scores where the deal is scored.  The Taker's
 * side maximizes it, the opponents minimize it; every seat's points are a
 * fixed multiple of the Taker's (cc_nancy_settlement), so this is each
 * seat's margin up to a factor of its own sign.
 *
 * The Outsider's exchange is part of the search: a card drawn at random is
 * a chance node (the mean over the eligible cards, each equally likely), a
 * card picked by a player (owner_choice, or a deferred winner_choice /
 * owner_choice) is a decision of that player's side.  So the copies never
 * draw from the state's generator: their rules are switched to the picking
 * modes, and the solver knows from the real rules which picks are chance.
 *
 * Search: alpha-beta (min/max by side) with a transposition table keyed by a
 * 64-bit hash of everything the value depends on (holdings, the 2-player
 * table piles, both trick piles, the trick so far, the player to act, and
 * the Outsider's and Fat Nancy's bookkeeping); equivalent cards (below) are
 * searched once; moves are ordered by the table's best move, then winning
 * cards cheapest first.
 *
 * Equivalent cards.  Two suit cards of one suit in one holding, both face
 * cards (J C Q K) or both not, with no card between them in rank still in
 * a holding or in the trick, do the same in every trick to come; and no
 * objective tells them apart (Empires count a suit, Royal Executioner and
 * Chosen by the Outsider count face cards, the others read trumps and
 * tricks).  With two players only hand cards pair so (a table pile's top
 * uncovers a card when it leaves).  Trumps never pair (Master of the Arcane
 * and Heir's Bodyguard read their numbers).  The same classes (suit and
 * face, or the trump) tell the exchange's cards apart.
 *
 * No allocation per node: solve allocates the state stack and the table once
 * per call.  No globals: two threads may solve at once.
 */
#include <math.h>
#include <stdlib.h>

#include "nancy_internal.h"

/* the bytes of a state a copy carries: the fixed part and the log header
 * (the copies' log is muted, so its entries are never touched) */
#define COPY_BYTES (offsetof(cc_nancy_state, log) + sizeof(cc_log))

typedef struct tt_entry {
    uint64_t key;
    double lo, hi;
    int32_t best; /* card id of the best move found, -1 none */
    int32_t pad;
} tt_entry;

typedef struct solver {
    char *stack; /* depth + 2 states, stride sizeof(cc_nancy_state) */
    int32_t nslots;
    tt_entry *tt;
    uint64_t tt_mask;
    int32_t taker, partner, n, overtrump;
    int32_t chance_now, chance_deferred; /* the real rules draw at random */
    double score0;                       /* the Taker's score before the deal is scored */
    int64_t nodes, max_nodes;
    const volatile int32_t *stop; /* NULL: never stopped */
    int32_t aborted;              /* 0, CC_E_CAPACITY or CC_E_STOPPED */
} solver;

static inline cc_nancy_state *slot_at(const solver *x, int32_t ply) {
    return (cc_nancy_state *)(void *)(x->stack + (size_t)ply * sizeof(cc_nancy_state));
}

static inline int32_t taker_side(const solver *x, int32_t p) {
    return p == x->taker || (p == x->partner && x->partner >= 0);
}

static inline int32_t card_of_lo(int32_t b) { return (b >> 4) * 14 + (b & 15); }
static inline int32_t card_of_hi(int32_t b) { return b == 0 ? CC_NANCY_OUTSIDER : 55 + b; }

/* the class of a card for the exchange: suit * 2 + face for a suit card,
 * 8 + number for a trump */
static inline int32_t card_class(int32_t c) { return c < 56 ? (c / 14) * 2 + is_face(c) : c - 47; }

static inline uint64_t mix(uint64_t h, uint64_t w) {
    h ^= w;
    h *= 0x9E3779B97F4A7C15ull;
    h ^= h >> 31;
    return h;
}

static uint64_t position_key(const cc_nancy_state *s) {
    uint64_t h = 0x243F6A8885A308D3ull;
    for (int32_t p = 0; p < s->n; p++) {
        h = mix(h, s->hand[p].lo);
        h = mix(h, s->hand[p].hi);
        h = mix(h, s->up[p].lo);
        h = mix(h, s->up[p].hi);
    }
    if (s->n == 2) {
        uint64_t w[4];
        memcpy(w, s->ptop, sizeof s->ptop);
        memcpy(w + 2, s->pbot, sizeof s->pbot);
        for (int32_t i = 0; i < 4; i++) h = mix(h, w[i]);
    }
    h = mix(h, s->pile[0].lo);
    h = mix(h, s->pile[0].hi);
    h = mix(h, s->pile[1].lo);
    h = mix(h, s->pile[1].hi);
    uint64_t t = 0;
    for (int32_t i = 0; i < s->trick_n; i++) t |= (uint64_t)(uint8_t)s->trick_card[i] << (8 * i);
    h = mix(h, t);
    uint64_t f =
        (uint64_t)(s->cur & 7) | (uint64_t)(s->leader & 7) << 3 | (uint64_t)(s->trick_n & 7) << 6 |
        (uint64_t)(s->taker_won_all & 1) << 9 | (uint64_t)(s->chosen & 1) << 10 |
        (uint64_t)(s->chosen_pending & 1) << 11 | (uint64_t)(s->debt & 1) << 12 |
        (uint64_t)((s->debt_from + 1) & 3) << 13 | (uint64_t)((s->debt_to + 1) & 3) << 15 |
        (uint64_t)((s->debt_winner + 1) & 15) << 17 | (uint64_t)((s->debt_owner + 1) & 15) << 21 |
        (uint64_t)((s->out_player + 1) & 15) << 25 | (uint64_t)(s->trick_idx & 63) << 29 |
        (uint64_t)(s->phase & 7) << 35;
    h = mix(h, f);
    return (h ^ (h >> 29)) | 1; /* never 0: a zeroed table entry is empty */
}

static double search(solver *x, int32_t ply, double alpha, double beta);

/* Apply action a to a copy of the state at ply into ply + 1 and search it. */
static double child(solver *x, int32_t ply, int32_t a, double alpha, double beta) {
    cc_nancy_state *c = slot_at(x, ply + 1);
    memcpy(c, slot_at(x, ply), COPY_BYTES);
    cc_game_nancy.apply(c, a);
    return search(x, ply + 1, alpha, beta);
}

/* An Outsider exchange's card (phase PICK): one card per class. */
static double pick_node(solver *x, int32_t ply, double alpha, double beta) {
    const cc_nancy_state *s = slot_at(x, ply);
    int32_t rep[30], cnt[30];
    for (int32_t k = 0; k < 30; k++) rep[k] = -1, cnt[k] = 0;
    int32_t total = 0;
    for (int32_t k = 0;; k++) {
        int32_t c = cs_nth(s->pick_set, k);
        if (c < 0) break;
        if (c == CC_NANCY_OUTSIDER) continue; /* (never eligible) */
        int32_t cl = card_class(c);
        if (rep[cl] < 0) rep[cl] = c;
        cnt[cl]++;
        total++;
    }
    int32_t chance = s->pick_deferred ? x->chance_deferred : x->chance_now;
    if (chance) {
        double sum = 0.0;
        for (int32_t k = 0; k < 30; k++) {
            if (rep[k] < 0) continue;
            double v = child(x, ply, CC_NANCY_A_PICK + rep[k], -INFINITY, INFINITY);
            if (x->aborted) return 0.0;
            sum += cnt[k] * v;
        }
        return sum / total;
    }
    int32_t maxing = taker_side(x, s->cur);
    double best = maxing ? -INFINITY : INFINITY;
    for (int32_t k = 0; k < 30; k++) {
        if (rep[k] < 0) continue;
        double v = child(x, ply, CC_NANCY_A_PICK + rep[k], alpha, beta);
        if (x->aborted) return 0.0;
        if (cc_ab_take(maxing, v, &best, &alpha, &beta)) break;
    }
    return best;
}

/* The cards still in play: every holding, the 2-player table bottoms and the
 * trick. */
static cc_nancy_cards in_play(const cc_nancy_state *s) {
    cc_nancy_cards r = {0, 0};
    for (int32_t p = 0; p < s->n; p++) r = cs_or(r, cs_or(s->hand[p], s->up[p]));
    if (s->n == 2)
        for (int32_t q = 0; q < 2; q++)
            for (int32_t i = 0; i < 8; i++)
                if (s->pbot[q][i] >= 0) cs_add(&r, s->pbot[q][i]);
    for (int32_t i = 0; i < s->trick_n; i++) cs_add(&r, s->trick_card[i]);
    return r;
}

/* The legal cards of the player to act, one of each equivalent run (the
 * lowest), in search order (first, the table's move, leads); returns how
 * many.  rep_of (may be NULL; the root's) gets for each legal card the card
 * of out[] that stands for it. */
static int32_t play_moves(const solver *x, const cc_nancy_state *s, int32_t first, int32_t *out,
                          int32_t *rep_of) {
    int32_t p = s->cur;
    cc_nancy_cards hold = cs_or(s->hand[p], s->up[p]);
    cc_nancy_cards legal = legal_from(hold, s->trick_led, s->trick_high, x->overtrump);
    cc_nancy_cards play = in_play(s);
    uint64_t pairable = s->n == 2 ? legal.lo & s->hand[p].lo : legal.lo;
    /* the trick's best so far: strength of the winning card */
    int32_t wbest = -1;
    if (s->trick_n > 0) {
        int32_t w = winner_pos(s->trick_card, s->trick_n);
        if (w >= 0) {
            int32_t c = s->trick_card[w];
            wbest = c >= 56 ? 100 + c : c % 14;
        }
    }
    int32_t cards[80], pri[80], m = 0;
    uint64_t lo = legal.lo;
    while (lo) {
        int32_t b = cc_ctz64(lo);
        lo &= lo - 1;
        int32_t c = card_of_lo(b);
        uint64_t below = play.lo & (CC_NANCY_LANE << (b & ~15)) & (((uint64_t)1 << b) - 1);
        if (below) {
            int32_t pb = 63 - __builtin_clzll(below);
            if (((pairable >> pb) & (pairable >> b) & 1) && ((pb & 15) >= 10) == ((b & 15) >= 10)) {
                if (rep_of) rep_of[c] = rep_of[card_of_lo(pb)];
                continue;
            }
        }
        if (rep_of) rep_of[c] = c;
        cards[m++] = c;
    }
    uint64_t hi = legal.hi;
    while (hi) {
        int32_t b = cc_ctz64(hi);
        hi &= hi - 1;
        int32_t c = card_of_hi(b);
        if (rep_of) rep_of[c] = c;
        cards[m++] = c;
    }
    /* order: the table's move, then (following) the cheapest winning cards,
     * then the cheapest others; (leading) the strongest first */
    int32_t led = s->trick_led;
    for (int32_t i = 0; i < m; i++) {
        int32_t c = cards[i];
        int32_t str = c == CC_NANCY_OUTSIDER ? -1 : c >= 56 ? 100 + c : c % 14;
        int32_t v;
        if (s->trick_n == 0) {
            v = 1000 - str;
        } else {
            int32_t counts = c >= 56 || (c < 56 && c / 14 == led) || led < 0;
            int32_t beats = c != CC_NANCY_OUTSIDER && counts &&
                            (wbest < 0 || (c >= 56 ? str > wbest : (wbest < 100 && str > wbest)));
            v = beats ? str : 1000 + str;
        }
        if (c == first) v = -1000;
        pri[i] = v;
    }
    for (int32_t i = 1; i < m; i++) { /* insertion sort by priority */
        int32_t c = cards[i], v = pri[i], j = i - 1;
        while (j >= 0 && pri[j] > v) {
            cards[j + 1] = cards[j];
            pri[j + 1] = pri[j];
            j--;
        }
        cards[j + 1] = c;
        pri[j + 1] = v;
    }
    memcpy(out, cards, (size_t)m * sizeof *out);
    return m;
}

static double search(solver *x, int32_t ply, double alpha, double beta) {
    const cc_nancy_state *s = slot_at(x, ply);
    if (s->phase == CC_NANCY_PH_OVER) return (double)s->scores[x->taker] - x->score0;
    x->nodes++;
    if (x->max_nodes > 0 && x->nodes > x->max_nodes) {
        x->aborted = CC_E_CAPACITY;
        return 0.0;
    }
    if ((x->nodes & 4095) == 0 && x->stop != NULL && *x->stop) {
        x->aborted = CC_E_STOPPED; /* the flag read every 4096 positions */
        return 0.0;
    }
    if (s->phase == CC_NANCY_PH_PICK) return pick_node(x, ply, alpha, beta);
    if (s->trick_idx == s->each - 1 && !s->debt) {
        /* the last trick, no exchange owed: every card is forced and the
         * deal is scored after it */
        cc_nancy_state *c = slot_at(x, ply + 1);
        memcpy(c, s, COPY_BYTES);
        while (c->phase == CC_NANCY_PH_PLAY) {
            cc_nancy_cards h = cs_or(c->hand[c->cur], c->up[c->cur]);
            cc_game_nancy.apply(c, CC_NANCY_A_PLAY + cs_nth(h, 0));
        }
        return (double)c->scores[x->taker] - x->score0;
    }
    uint64_t key = position_key(s);
    tt_entry *e = &x->tt[key & x->tt_mask];
    int32_t first = -1;
    if (e->key == key) {
        if (e->lo >= beta) return e->lo;
        if (e->hi <= alpha) return e->hi;
        if (e->lo == e->hi) return e->lo;
        if (e->lo > alpha) alpha = e->lo;
        if (e->hi < beta) beta = e->hi;
        first = e->best;
    }
    int32_t moves[80];
    int32_t m = play_moves(x, s, first, moves, NULL);
    int32_t maxing = taker_side(x, s->cur);
    double a1 = alpha, b1 = beta;
    double best = maxing ? -INFINITY : INFINITY;
    int32_t bestc = -1;
    for (int32_t i = 0; i < m; i++) {
        double v = child(x, ply, CC_NANCY_A_PLAY + moves[i], alpha, beta);
        if (x->aborted) return 0.0;
        if (maxing ? v > best : v < best) {
            best = v;
            bestc = moves[i];
        }
        if (maxing) {
            if (best > alpha) alpha = best;
        } else if (best < beta) {
            beta = best;
        }
        if (alpha >= beta) break;
    }
    if (e->key != key) {
        e->key = key;
        e->lo = -INFINITY;
        e->hi = INFINITY;
    }
    if (best <= a1) {
        if (best < e->hi) e->hi = best;
    } else if (best >= b1) {
        if (best > e->lo) e->lo = best;
    } else {
        e->lo = e->hi = best;
    }
    e->best = bestc;
    return best;
}

int32_t cc_nancy_solve_depth(const void *state) {
    if (state == NULL) return -1;
    const cc_nancy_state *s = (const cc_nancy_state *)state;
    if (s->phase != CC_NANCY_PH_PLAY && s->phase != CC_NANCY_PH_PICK) return -1;
    if (s->taker < 0 || s->n < 2 || s->n > CC_NANCY_MAX_PLAYERS) return -1;
    return (s->each - s->trick_idx) * s->n - s->trick_n;
}

int32_t cc_nancy_solve(const void *state, const double *win_table, int32_t win_target,
                       int64_t max_nodes, const volatile int32_t *stop, double *values,
                       int64_t *nodes) {
    (void)win_target;
    if (state == NULL || values == NULL || win_table != NULL || max_nodes < 0) return CC_E_ARG;
    const cc_nancy_state *s = (const cc_nancy_state *)state;
    if (s->phase == CC_NANCY_PH_OVER) return CC_E_GAME_OVER;
    int32_t depth = cc_nancy_solve_depth(state);
    if (depth < 0) return CC_E_ARG;
    solver x;
    memset(&x, 0, sizeof x);
    x.n = s->n;
    x.taker = s->taker;
    x.partner = s->partner == s->taker ? -1 : s->partner;
    x.overtrump = s->params[CC_NANCY_P_OVERTRUMP_ON_TRUMP_LEAD];
    x.chance_now = s->params[CC_NANCY_P_OUTSIDER_EXCHANGE_MODE] == 0;
    x.chance_deferred = s->params[CC_NANCY_P_DEFERRED_EXCHANGE_PICK] == 1;
    x.score0 = s->scores[s->taker];
    x.max_nodes = max_nodes;
    x.stop = stop;
    x.nslots = depth + 4; /* the plays, at most one exchange pick, the root */
    /* the table: 128 KiB to 4 MiB (a larger one costs more to map than it
     * saves in the reach the solver has) */
    int32_t bits = depth <= 12 ? 12 : depth <= 20 ? 15 : 17;
    x.tt_mask = ((uint64_t)1 << bits) - 1;
    x.stack = (char *)malloc((size_t)x.nslots * sizeof(cc_nancy_state));
    x.tt = (tt_entry *)calloc((size_t)1 << bits, sizeof(tt_entry));
    if (x.stack == NULL || x.tt == NULL) {
        free(x.stack);
        free(x.tt);
        return CC_E_CAPACITY;
    }
    cc_nancy_state *root = slot_at(&x, 0);
    memcpy(root, s, COPY_BYTES);
    cc_log_mute(&root->log, CC_LOG_UNOBSERVED | CC_LOG_TRUSTED);
    root->rounds_total = root->rounds_done + 1; /* the deal is scored, then the copy ends */
    root->params[CC_NANCY_P_OUTSIDER_EXCHANGE_MODE] = 1;
    if (root->params[CC_NANCY_P_DEFERRED_EXCHANGE_PICK] == 1)
        root->params[CC_NANCY_P_DEFERRED_EXCHANGE_PICK] = 0;

    /* each seat's points are ratio[p] times the Taker's */
    int32_t d[CC_NANCY_MAX_PLAYERS];
    cc_nancy_settlement(s->n, s->taker, s->partner, 1, 1, 1, d);
    int32_t p = s->cur;
    double scale = (double)d[p] / (double)d[s->taker] * (double)s->n / (double)(s->n - 1);

    int32_t rc = CC_OK;
    if (root->phase == CC_NANCY_PH_PICK) {
        for (int32_t k = 0;; k++) {
            int32_t c = cs_nth(root->pick_set, k);
            if (c < 0) break;
            double v = child(&x, 0, CC_NANCY_A_PICK + c, -INFINITY, INFINITY);
            if (x.aborted) break;
            values[CC_NANCY_A_PICK + c] = v * scale;
        }
    } else {
        int32_t moves[80], rep_of[78];
        int32_t m = play_moves(&x, root, -1, moves, rep_of);
        double val[78];
        for (int32_t i = 0; i < m && !x.aborted; i++)
            val[moves[i]] = child(&x, 0, CC_NANCY_A_PLAY + moves[i], -INFINITY, INFINITY);
        if (!x.aborted) {
            cc_nancy_cards hold = cs_or(root->hand[p], root->up[p]);
            cc_nancy_cards legal = legal_from(hold, root->trick_led, root->trick_high, x.overtrump);
            for (int32_t k = 0;; k++) {
                int32_t c = cs_nth(legal, k);
                if (c < 0) break;
                values[CC_NANCY_A_PLAY + c] = val[rep_of[c]] * scale;
            }
        }
    }
    if (x.aborted) rc = x.aborted;
    if (nodes != NULL) *nodes = x.nodes;
    free(x.stack);
    free(x.tt);
    return rc;
}
