/* notakers_history.c: No Takers? worlds with a history, for inference
 * (cc_notakers_sample_history in cc_notakers.h; docs/notakers.rst,
 * "Worlds with a history").
 *
 * A world is the whole game as it may have been: the cards of every deck
 * position dealt or drawn so far, the cards of every save and give the
 * observer did not see, and a Save selection in progress.  It is drawn by
 * sequential importance sampling, each choice uniform among the options
 * that some facts the observer knows leave open, and replayed by the game
 * itself along the actions of the real game, the hidden ones (another
 * seat's Save cards, a give between two other seats) replaced by the
 * world's; a world whose replay shows the observer anything other than
 * what he saw is refused and another is drawn.  *log_q is the log of the
 * probability of the choices that made the accepted world: each world has
 * one way to be drawn, and every world consistent with the observer's
 * record can be (the facts only rule out worlds the record rules out).
 *
 * What is read of the real game is what the observer saw: his own cards
 * (dealt, drawn, given and received), the open save piles, the public
 * actions, his observation tensor after each action and his knowledge
 * (cc_notakers_knowledge: facts of the form "not in q's hand").  Another
 * seat's hidden action is used for its kind only, never its card. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "notakers_internal.h"

/* the draws of one seat at one time (or its deal): deck positions */
typedef struct hgroup {
    int32_t seat, time; /* time: the actions before the cards came */
    int32_t npos;
    uint8_t pos[26]; /* deck positions */
    uint64_t cards;  /* the world's cards of the group */
    int32_t filled;
} hgroup;

typedef struct hctx {
    int32_t n, p, nsteps, tsize, open;
    const int32_t *actions;
    float *obs;           /* (nsteps + 1) * tsize: the observer's tensors */
    uint64_t *ni;         /* (nsteps + 1) * n: not in q's hand after t actions */
    int8_t *hidden_exit;  /* nsteps: the seat whose hidden Save or give it is, or -1 */
    int8_t *hidden_entry; /* nsteps: the seat a hidden give goes to, or -1 */
    int8_t *exit_seat;    /* nsteps: the seat a card leaves in the observer's sight, or -1 */
    uint64_t *exit_cards; /* nsteps: those cards */
    int32_t top;          /* deck positions dealt or drawn by the end */
    int32_t ngroups;
    hgroup groups[CC_NUM_CARDS52];
} hctx;

static double log_binom(int32_t n, int32_t k) {
    return lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1);
}

/* A uniform subset of k cards of set (k <= its size). */
static uint64_t pick(cc_rng *rng, uint64_t set, int32_t k) {
    uint8_t bit[64];
    int32_t m = 0;
    for (; set; set &= set - 1) bit[m++] = (uint8_t)cc_ctz64(set);
    for (int32_t i = 0; i < k && i < m; i++) {
        int32_t j = i + (int32_t)cc_rng_below(rng, (uint64_t)(m - i));
        uint8_t t = bit[i];
        bit[i] = bit[j];
        bit[j] = t;
    }
    uint64_t out = 0;
    for (int32_t i = 0; i < k && i < m; i++) out |= 1ULL << bit[i];
    return out;
}

/* The lowest k cards of set. */
static uint64_t lowest(uint64_t set, int32_t k) {
    uint64_t out = 0;
    for (int32_t i = 0; i < k && set; i++) {
        out |= set & (~set + 1);
        set &= set - 1;
    }
    return out;
}

/* The first step at or after t where seat q's cards may leave unseen
 * (a hidden Save or give), or nsteps. */
static int32_t next_hidden_exit(const hctx *c, int32_t q, int32_t t) {
    for (; t < c->nsteps; t++)
        if (c->hidden_exit[t] == q) return t;
    return c->nsteps;
}

/* The first step at or after t where card b leaves seat q in the
 * observer's sight, or -1. */
static int32_t next_seen_exit(const hctx *c, int32_t q, uint64_t b, int32_t t) {
    for (; t < c->nsteps; t++)
        if (c->exit_seat[t] == q && (c->exit_cards[t] & b)) return t;
    return -1;
}

/* Can card b sit in q's hand after times from .. to (inclusive)? */
static int32_t fits(const hctx *c, int32_t q, uint64_t b, int32_t from, int32_t to) {
    for (int32_t t = from; t <= to && t <= c->nsteps; t++)
        if (c->ni[(size_t)t * (size_t)c->n + (size_t)q] & b) return 0;
    return 1;
}

/* Can card b, which comes to q at time from, stay there until it may leave
 * (its seen exit from q, else q's next hidden exit)? */
static int32_t fits_stay(const hctx *c, int32_t q, uint64_t b, int32_t from) {
    int32_t e = next_hidden_exit(c, q, from);
    int32_t s = next_seen_exit(c, q, b, from);
    if (s >= 0 && s < e) e = s;
    return fits(c, q, b, from, e);
}

/* The real game replayed (in st): what the observer saw, step by step. */
static int32_t prepass(hctx *c, const nt_state *real, nt_state *st) {
    const cc_game *g = &cc_game_notakers;
    int32_t n = c->n, p = c->p;
    memset(st, 0, g->state_size);
    int32_t rc = g->init_deck(st, real->params, n, 0, real->deck, CC_NUM_CARDS52);
    if (rc != CC_OK) return rc;
    int32_t each = 26 / n;
    c->ngroups = 0;
    for (int32_t q = 0; q < n; q++) { /* the deal */
        hgroup *h = &c->groups[c->ngroups++];
        memset(h, 0, sizeof *h);
        h->seat = q;
        h->time = 0;
        for (int32_t i = q; i < each * n; i += n) h->pos[h->npos++] = (uint8_t)i;
    }
    memset(c->ni, 0, sizeof(uint64_t) * (size_t)(c->nsteps + 1) * (size_t)n);
    int32_t ev = cc_log_kept(&st->log);
    for (int32_t t = 0;; t++) {
        if (st->log.total != cc_log_kept(&st->log)) return CC_E_CAPACITY;
        /* the draws the last action made: deck positions in the log's order */
        int32_t kept = cc_log_kept(&st->log), ndraw = 0;
        for (int32_t i = ev; i < kept; i++)
            if (cc_log_at_const(&st->log, i)->kind == CC_NOTAKERS_EV_DRAW) ndraw++;
        int32_t pos = st->top - ndraw;
        for (int32_t i = ev; i < kept; i++) {
            const cc_log_entry *e = cc_log_at_const(&st->log, i);
            if (e->kind != CC_NOTAKERS_EV_DRAW) continue;
            hgroup *h = &c->groups[c->ngroups - 1];
            if (c->ngroups <= n || h->seat != e->player || h->time != t) {
                h = &c->groups[c->ngroups++];
                memset(h, 0, sizeof *h);
                h->seat = e->player;
                h->time = t;
            }
            h->pos[h->npos++] = (uint8_t)pos++;
        }
        ev = kept;
        if (g->observe_tensor(st, p, c->obs + (size_t)t * (size_t)c->tsize) != CC_OK)
            return CC_E_ARG;
        for (int32_t q = 0; q < n; q++)
            if (q != p) c->ni[(size_t)t * (size_t)n + (size_t)q] |= st->not_in_hand[p][q];
        if (t == c->nsteps) break;
        int32_t a = c->actions[t], q = st->actor, ph = st->phase;
        c->hidden_exit[t] = c->hidden_entry[t] = c->exit_seat[t] = -1;
        c->exit_cards[t] = 0;
        int32_t to = -1;
        if (ph == CC_NOTAKERS_PHASE_GIVE || ph == CC_NOTAKERS_PHASE_FALLBACK) to = st->turn_player;
        if (ph == CC_NOTAKERS_PHASE_NO_TAKERS) to = (st->turn_player + st->nt_k) % n;
        int32_t is_give = a >= CC_NOTAKERS_A_GIVE && a < CC_NOTAKERS_A_ASK && to >= 0;
        if (q != p && q >= 0) {
            if (ph == CC_NOTAKERS_PHASE_SAVE && a == CC_NOTAKERS_A_SAVE_DONE) {
                if (c->open) { /* an open Save is seen by all */
                    c->exit_seat[t] = (int8_t)q;
                    c->exit_cards[t] = st->selection;
                } else {
                    c->hidden_exit[t] = (int8_t)q;
                }
            }
            if (is_give && to == p) {
                c->exit_seat[t] = (int8_t)q;
                c->exit_cards[t] = cc_bit_of(a - CC_NOTAKERS_A_GIVE);
            } else if (is_give) {
                c->hidden_exit[t] = (int8_t)q;
                c->hidden_entry[t] = (int8_t)to;
            }
        }
        uint64_t match = st->ask_match;
        int32_t turns = st->turns;
        if (g->apply(st, a) != 0) return CC_E_ARG;
        /* a give that ended the giving with no "stop giving": no match left */
        int32_t stays = st->phase == ph && st->actor == q && st->turns == turns;
        if (q != p && is_give && !stays &&
            (ph == CC_NOTAKERS_PHASE_GIVE ||
             (ph == CC_NOTAKERS_PHASE_FALLBACK &&
              st->params[CC_NOTAKERS_P_PASS_FALLBACK] == CC_NOTAKERS_FALLBACK_EACH_AT_LEAST_ONE)))
            c->ni[(size_t)(t + 1) * (size_t)n + (size_t)q] |= match;
    }
    c->top = st->top;
    return CC_OK;
}

/* The seat that receives a give at st (or -1). */
static int32_t receiver(const nt_state *st) {
    if (st->phase == CC_NOTAKERS_PHASE_GIVE || st->phase == CC_NOTAKERS_PHASE_FALLBACK)
        return st->turn_player;
    if (st->phase == CC_NOTAKERS_PHASE_NO_TAKERS) return (st->turn_player + st->nt_k) % st->n;
    return -1;
}

/* One proposal: the deck, then the replay (w).  1 if accepted. */
static int32_t propose(hctx *c, const nt_state *real, nt_state *w, cc_rng *rng, double *lq) {
    const cc_game *g = &cc_game_notakers;
    int32_t n = c->n, p = c->p;
    double l = 0.0;
    uint8_t deck[CC_NUM_CARDS52];
    uint64_t mine = 0;
    for (int32_t k = 0; k < c->ngroups; k++) {
        hgroup *h = &c->groups[k];
        h->cards = 0;
        h->filled = 0;
        if (h->seat == p) {
            for (int32_t i = 0; i < h->npos; i++) mine |= cc_bit_of(real->deck[h->pos[i]]);
        }
    }
    uint64_t pool = CC_DECK52_MASK & ~mine;
    /* 1. a card the observer first sees leave seat q came to q from the
     * deck, unless a hidden give went to q before: one of q's groups */
    for (int32_t id = 0; id < CC_NUM_CARDS52; id++) {
        uint64_t b = cc_bit_of(id);
        if (!(pool & b)) continue;
        int32_t t = 0;
        for (; t < c->nsteps; t++)
            if (c->exit_seat[t] >= 0 && (c->exit_cards[t] & b)) break;
        if (t == c->nsteps) continue;
        int32_t q = c->exit_seat[t], forced = 1;
        for (int32_t u = 0; u < t; u++)
            if (c->hidden_entry[u] == q) forced = 0;
        if (!forced) continue;
        int32_t cand[CC_NUM_CARDS52], m = 0;
        for (int32_t k = 0; k < c->ngroups; k++) {
            hgroup *h = &c->groups[k];
            if (h->seat != q || h->time > t || h->filled >= h->npos) continue;
            if (fits(c, q, b, h->time, t)) cand[m++] = k;
        }
        if (m == 0) return 0;
        hgroup *h = &c->groups[cand[cc_rng_below(rng, (uint64_t)m)]];
        l -= log((double)m);
        h->cards |= b;
        h->filled++;
        pool &= ~b;
    }
    /* 2. the other places of each group: uniform among the cards that may
     * stay in that hand until they may leave */
    for (int32_t k = 0; k < c->ngroups; k++) {
        hgroup *h = &c->groups[k];
        if (h->seat == p) continue;
        int32_t need = h->npos - h->filled;
        if (need == 0) continue;
        uint64_t allowed = 0;
        for (uint64_t s = pool; s; s &= s - 1) {
            uint64_t b = s & (~s + 1);
            if (fits_stay(c, h->seat, b, h->time)) allowed |= b;
        }
        int32_t m = cc_popcount64(allowed);
        if (m < need) return 0;
        uint64_t chosen = pick(rng, allowed, need);
        l -= log_binom(m, need);
        h->cards |= chosen;
        pool &= ~chosen;
    }
    /* the deck: each group's cards ascending in its places, the observer's
     * own, then the pile (the cards left, shuffled: not part of the world) */
    for (int32_t k = 0; k < c->ngroups; k++) {
        hgroup *h = &c->groups[k];
        uint64_t s = h->cards;
        for (int32_t i = 0; i < h->npos; i++) {
            if (h->seat == p) {
                deck[h->pos[i]] = real->deck[h->pos[i]];
            } else {
                deck[h->pos[i]] = (uint8_t)cc_card52_id_of_bit(cc_ctz64(s));
                s &= s - 1;
            }
        }
    }
    if (cc_popcount64(pool) != CC_NUM_CARDS52 - c->top) return 0; /* (cannot happen) */
    int32_t m = 0;
    for (uint64_t s = pool; s; s &= s - 1)
        deck[c->top + m++] = (uint8_t)cc_card52_id_of_bit(cc_ctz64(s));
    cc_rng_shuffle_u8(rng, deck + c->top, m);
    /* 3. the replay along the real actions, the hidden ones the world's */
    memset(w, 0, g->state_size);
    if (g->init_deck(w, real->params, n, 0, deck, CC_NUM_CARDS52) != CC_OK) return 0;
    float *obs = c->obs + (size_t)(c->nsteps + 1) * (size_t)c->tsize; /* scratch row */
    if (g->observe_tensor(w, p, obs) != CC_OK ||
        memcmp(obs, c->obs, sizeof(float) * (size_t)c->tsize) != 0)
        return 0;
    uint64_t queue = 0; /* the cards of the Save selection being replayed */
    for (int32_t t = 0; t < c->nsteps; t++) {
        int32_t a = c->actions[t], q = w->actor;
        if (q < 0) return 0;
        if (q != p && a >= CC_NOTAKERS_A_SAVE && a < CC_NOTAKERS_A_GIVE) {
            if (w->phase == CC_NOTAKERS_PHASE_TURN) { /* a selection starts: its cards */
                int32_t k = 0, u = t;
                while (u < c->nsteps && c->actions[u] >= CC_NOTAKERS_A_SAVE &&
                       c->actions[u] < CC_NOTAKERS_A_GIVE)
                    k++, u++;
                uint64_t hand = w->hand[q];
                if (cc_popcount64(hand) < k) return 0;
                if (u == c->nsteps) { /* in progress at the end: part of the world */
                    queue = pick(rng, hand, k);
                    l -= log_binom(cc_popcount64(hand), k);
                } else if (c->actions[u] != CC_NOTAKERS_A_SAVE_DONE) { /* cancelled */
                    queue = lowest(hand, k);
                } else if (c->open) { /* an open Save: the cards everyone saw */
                    queue = c->exit_cards[u];
                } else { /* a hidden Save */
                    uint64_t must = 0, keep = 0;
                    for (uint64_t s = hand; s; s &= s - 1) {
                        uint64_t b = s & (~s + 1);
                        int32_t seen = next_seen_exit(c, q, b, u + 1) >= 0;
                        int32_t ok = fits_stay(c, q, b, u + 1);
                        if (seen && !ok) return 0;
                        if (seen) keep |= b;
                        else if (!ok) must |= b;
                    }
                    int32_t mm = cc_popcount64(must);
                    uint64_t free = hand & ~must & ~keep;
                    int32_t f = cc_popcount64(free);
                    if (mm > k || f < k - mm) return 0;
                    queue = must | pick(rng, free, k - mm);
                    l -= log_binom(f, k - mm);
                }
            }
            if (!queue) return 0;
            uint64_t b = queue & (~queue + 1);
            queue &= queue - 1;
            a = CC_NOTAKERS_A_SAVE + cc_card52_id_of_bit(cc_ctz64(b));
        } else if (q != p && a >= CC_NOTAKERS_A_GIVE && a < CC_NOTAKERS_A_ASK) {
            int32_t to = receiver(w);
            if (to < 0) return 0;
            if (to != p) { /* a hidden give: any card the giver may give */
                uint64_t could = w->hand[q];
                if (w->phase != CC_NOTAKERS_PHASE_NO_TAKERS) could &= w->ask_match;
                int32_t k = cc_popcount64(could);
                if (k == 0) return 0;
                uint64_t b = pick(rng, could, 1);
                l -= log((double)k);
                a = CC_NOTAKERS_A_GIVE + cc_card52_id_of_bit(cc_ctz64(b));
            }
        }
        if (g->apply(w, a) != 0) return 0;
        if (g->observe_tensor(w, p, obs) != CC_OK ||
            memcmp(obs, c->obs + (size_t)(t + 1) * (size_t)c->tsize,
                   sizeof(float) * (size_t)c->tsize) != 0)
            return 0;
    }
    *lq = l;
    return 1;
}

int32_t cc_notakers_sample_history(const void *state, const int32_t *actions, int32_t nsteps,
                                   int32_t player, uint64_t seed, int32_t tries, void *out,
                                   double *log_q) {
    const nt_state *real = (const nt_state *)state;
    if (real == NULL || out == NULL || log_q == NULL || (actions == NULL && nsteps > 0) ||
        nsteps < 0 || tries < 1 || player < 0 || player >= real->n)
        return CC_E_ARG;
    const cc_game *g = &cc_game_notakers;
    int32_t rc = CC_OK;
    hctx *c = (hctx *)calloc(1, sizeof *c);
    nt_state *st = (nt_state *)malloc(g->state_size);
    if (c == NULL || st == NULL) {
        free(c);
        free(st);
        return CC_E_CAPACITY;
    }
    c->n = real->n;
    c->p = player;
    c->nsteps = nsteps;
    c->actions = actions;
    c->open = real->params[CC_NOTAKERS_P_SAVE_VISIBILITY] == CC_NOTAKERS_SAVES_OPEN;
    c->tsize = g->tensor_size(real->params, real->n);
    size_t ns = (size_t)nsteps;
    c->obs = (float *)malloc(sizeof(float) * (size_t)c->tsize * (ns + 2));
    c->ni = (uint64_t *)malloc(sizeof(uint64_t) * (size_t)c->n * (ns + 1));
    c->hidden_exit = (int8_t *)malloc(ns + 1);
    c->hidden_entry = (int8_t *)malloc(ns + 1);
    c->exit_seat = (int8_t *)malloc(ns + 1);
    c->exit_cards = (uint64_t *)malloc(sizeof(uint64_t) * (ns + 1));
    if (c->obs == NULL || c->ni == NULL || c->hidden_exit == NULL || c->hidden_entry == NULL ||
        c->exit_seat == NULL || c->exit_cards == NULL) {
        rc = CC_E_CAPACITY;
        goto done;
    }
    rc = prepass(c, real, st);
    if (rc != CC_OK) goto done;
    /* the record must be the state's own game */
    if (st->top != real->top || st->actor != real->actor || st->turns != real->turns) {
        rc = CC_E_ARG;
        goto done;
    }
    cc_rng rng;
    cc_rng_seed(&rng, seed);
    nt_state *w = (nt_state *)out;
    rc = CC_E_CAPACITY;
    for (int32_t k = 0; k < tries; k++) {
        double l = 0.0;
        if (propose(c, real, w, &rng, &l)) {
            *log_q = l;
            rc = CC_OK;
            break;
        }
    }
done:
    free(c->obs);
    free(c->ni);
    free(c->hidden_exit);
    free(c->hidden_entry);
    free(c->exit_seat);
    free(c->exit_cards);
    free(c);
    free(st);
    return rc;
}

/* cc_notakers_history_allow: a Save's card at another seat's step.  The
 * observer's record says how the selection ends: still in progress at the
 * end (the sample's selection is the world's), taken back (any cards), or
 * saved (the cards the sample logs next for that seat). */
int32_t cc_notakers_history_allow(const void *state, int32_t action, const void *sample,
                                  const float *record, int32_t t, int32_t nsteps,
                                  int32_t observer) {
    const nt_state *st = (const nt_state *)state, *sm = (const nt_state *)sample;
    if (action < CC_NOTAKERS_A_SAVE || action >= CC_NOTAKERS_A_GIVE || st->actor == observer)
        return 1;
    if (st->phase != CC_NOTAKERS_PHASE_TURN && st->phase != CC_NOTAKERS_PHASE_SAVE) return 1;
    int32_t tsize = cc_notakers_tensor_size(st->params, st->n), ph, tu;
    cc_notakers_tensor_places(st->params, st->n, &ph, &tu);
    float turns = (float)st->turns;
    int32_t u = t + 1;
    while (u <= nsteps &&
           record[(size_t)u * (size_t)tsize + (size_t)ph + CC_NOTAKERS_PHASE_SAVE] != 0.0f)
        u++;
    uint64_t b = cc_bit_of(action - CC_NOTAKERS_A_SAVE);
    if (u > nsteps) return (sm->selection & b) != 0; /* in progress at the end */
    const float *row = record + (size_t)u * (size_t)tsize;
    if (row[tu] == turns && row[ph + CC_NOTAKERS_PHASE_TURN] != 0.0f) return 1; /* taken back */
    /* saved: the sample's next events are this seat's Save, one a card */
    const cc_log *ls = &sm->log;
    int32_t k = cc_log_kept(&st->log), m = cc_log_kept(ls);
    for (int32_t i = k; i < m; i++) {
        const cc_log_entry *e = cc_log_at_const(ls, i);
        if (e->kind != CC_NOTAKERS_EV_SAVE || e->player != st->actor) break;
        if (e->value >= 0 && cc_bit_of(e->value) == b) return 1;
    }
    return 0;
}
