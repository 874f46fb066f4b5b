/* notakers_sample.c: the No Takers? information-set sampler (the table's
 * sample_infoset; docs/notakers.rst). */
#include <string.h>

#include "notakers_internal.h"

/* ---- information-set sampling (docs/notakers.rst) ------------------------
 * The hidden cards (pool) are dealt again to the other hands, the hidden
 * save piles and the draw pile, uniformly among the deals that keep every
 * count and the observer's knowledge: in_hand cards stay in that hand,
 * held cards in that hand or save pile, not_in_hand cards out of that hand,
 * and the current giver holds a match.  A proposal places the known cards,
 * then takes each other seat in turn (seats with a not_in_hand constraint
 * first): a seat without a hidden save pile gets a uniform subset of the
 * remaining free cards outside not_in_hand; one with a hidden save pile
 * gets a uniform subset of the free cards for hand and save together, then
 * a uniform subset of those allowed in hand is its hand.  A step with k
 * allowed cards for h places is kept with probability C(k, h) / C(K, h), K
 * a bound on k that does not depend on the draws; so every accepted deal has
 * the same probability.  A rejected proposal starts again. */

#define NT_SAMPLE_TRIES_EXACT 20000
#define NT_SAMPLE_TRIES 100000

static uint64_t binom(int32_t n, int32_t k) {
    if (k < 0 || k > n) return 0;
    uint64_t c = 1;
    for (int32_t i = 0; i < k; i++) c = c * (uint64_t)(n - i) / (uint64_t)(i + 1);
    return c;
}

/* A uniform subset of k cards of set (k <= its size): a partial
 * Fisher-Yates shuffle of its cards, the first k. */
static uint64_t random_subset(cc_rng *rng, uint64_t set, int32_t k) {
    uint8_t bit[64]; /* the set's bit positions, ascending */
    int32_t m = 0;
    for (; set; set &= set - 1) bit[m++] = (uint8_t)cc_ctz64(set);
    if (k > m) k = m;
    cc_rng_partial_shuffle(rng, bit, m, k, 0);
    uint64_t out = 0;
    for (int32_t i = 0; i < k; i++) out |= 1ULL << bit[i];
    return out;
}

/* Keep a step with probability C(k, h) / C(bound, h). */
static int32_t keep_step(cc_rng *rng, int32_t k, int32_t bound, int32_t h) {
    if (k < h) return 0;
    if (k >= bound) return 1;
    return cc_rng_below(rng, binom(bound, h)) < binom(k, h);
}

typedef struct nt_plan {
    int32_t n, player, nseats, hidden_saves;
    int32_t order[CC_MAX_PLAYERS];
    int32_t hand_free[CC_MAX_PLAYERS]; /* hand places left after in_hand cards */
    int32_t take[CC_MAX_PLAYERS];      /* free cards the seat's step takes */
    int32_t bound[CC_MAX_PLAYERS];
    uint64_t fixed[CC_MAX_PLAYERS];  /* in hand for sure */
    uint64_t either[CC_MAX_PLAYERS]; /* in hand or hidden save pile */
    uint64_t out[CC_MAX_PLAYERS];    /* not in hand */
    uint64_t free;
} nt_plan;

static void make_plan(const nt_state *st, int32_t player, const uint64_t *not_in, nt_plan *pl) {
    int32_t n = st->n;
    int32_t open = st->params[CC_NOTAKERS_P_SAVE_VISIBILITY];
    uint64_t known = st->hand[player] | st->save[player];
    if (open)
        for (int32_t q = 0; q < n; q++) known |= st->save[q];
    uint64_t pool = CC_DECK52_MASK & ~known;
    pl->n = n;
    pl->player = player;
    pl->hidden_saves = !open;
    pl->free = pool;
    for (int32_t q = 0; q < n; q++) {
        pl->fixed[q] = st->in_hand[player][q] & pool;
        pl->either[q] = st->held[player][q] & pool & ~pl->fixed[q];
        if (open || st->save[q] == 0) {
            pl->fixed[q] |= pl->either[q];
            pl->either[q] = 0;
        }
        pl->out[q] = not_in[q] & pool;
        pl->free &= ~(pl->fixed[q] | pl->either[q]);
    }
    pl->nseats = 0;
    for (int32_t pass = 0; pass < 2; pass++)
        for (int32_t k = 1; k < n; k++) {
            int32_t q = (player + k) % n;
            int32_t constrained = (pl->out[q] & (pl->free | pl->either[q])) != 0;
            if (constrained == (pass == 0)) pl->order[pl->nseats++] = q;
        }
    int32_t taken = 0;
    for (int32_t i = 0; i < pl->nseats; i++) {
        int32_t q = pl->order[i];
        int32_t h = cc_popcount64(st->hand[q]) - cc_popcount64(pl->fixed[q]);
        int32_t s = open ? 0 : cc_popcount64(st->save[q]);
        pl->hand_free[q] = h;
        uint64_t out = pl->out[q];
        if (s == 0) {
            /* cards taken before that lie outside out: at least taken minus
             * the most of out they can hold */
            int32_t in_out = 0;
            for (int32_t j = 0; j < i; j++) {
                int32_t r = pl->order[j];
                uint64_t could = pl->free & out;
                if (!pl->hidden_saves || st->save[r] == 0) could &= ~pl->out[r];
                int32_t m = cc_popcount64(could);
                in_out += pl->take[r] < m ? pl->take[r] : m;
            }
            int32_t outs = cc_popcount64(pl->free & out);
            if (in_out > outs) in_out = outs;
            int32_t low = taken - in_out;
            pl->take[q] = h;
            pl->bound[q] = cc_popcount64(pl->free & ~out) - (low > 0 ? low : 0);
        } else {
            int32_t u = h + s - cc_popcount64(pl->either[q]);
            int32_t fa = cc_popcount64(pl->free & ~out);
            int32_t b = cc_popcount64(pl->either[q] & ~out) + (u < fa ? u : fa);
            pl->take[q] = u;
            pl->bound[q] = b < h + s ? b : h + s;
        }
        taken += pl->take[q];
    }
}

/* One proposal into o (hands, hidden saves, the pile); 1 if kept. */
static int32_t propose(const nt_state *st, const nt_plan *pl, cc_rng *rng, nt_state *o) {
    uint64_t rest = pl->free;
    for (int32_t i = 0; i < pl->nseats; i++) {
        int32_t q = pl->order[i];
        int32_t h = pl->hand_free[q];
        uint64_t out = pl->out[q];
        if (!pl->hidden_saves || st->save[q] == 0) {
            uint64_t allowed = rest & ~out;
            if (!keep_step(rng, cc_popcount64(allowed), pl->bound[q], h)) return 0;
            uint64_t chosen = random_subset(rng, allowed, h);
            o->hand[q] = pl->fixed[q] | chosen;
            rest &= ~chosen;
        } else {
            uint64_t chosen = random_subset(rng, rest, pl->take[q]);
            uint64_t both = pl->either[q] | chosen;
            uint64_t allowed = both & ~out;
            if (!keep_step(rng, cc_popcount64(allowed), pl->bound[q], h)) return 0;
            uint64_t in_hand = random_subset(rng, allowed, h);
            o->hand[q] = pl->fixed[q] | in_hand;
            o->save[q] = both & ~in_hand;
            rest &= ~chosen;
        }
    }
    int32_t m = 0;
    for (int32_t c = 0; c < CC_NUM_CARDS52; c++)
        if (rest & cc_bit_of(c)) o->deck[st->top + m++] = (uint8_t)c;
    cc_rng_shuffle_u8(rng, o->deck + st->top, m);
    int32_t ph = st->phase, a = st->actor;
    if ((ph == CC_NOTAKERS_PHASE_GIVE || ph == CC_NOTAKERS_PHASE_FALLBACK) && a != pl->player &&
        !(o->hand[a] & st->ask_match))
        return 0;
    if (ph == CC_NOTAKERS_PHASE_SAVE && a != pl->player)
        o->selection = random_subset(rng, o->hand[a], cc_popcount64(st->selection));
    return 1;
}

/* The constraints of the current ask alone: the asked player and the
 * holders passed over hold no match. */
static void ask_constraints(const nt_state *st, uint64_t *not_in) {
    for (int32_t q = 0; q < st->n; q++) not_in[q] = 0;
    if (st->phase != CC_NOTAKERS_PHASE_FALLBACK) return;
    not_in[st->ask_target] = st->ask_match;
    for (int32_t k = 1; k < st->fb_k; k++) {
        int32_t q = (st->ask_target + k) % st->n;
        if (q == st->turn_player || ((st->fb_gave >> q) & 1u)) continue;
        not_in[q] = st->ask_match;
    }
}

/* The sample's log: what player saw stays; a hidden save pile's cards are
 * the sampled ones (q's hidden save events, oldest first, get the cards of
 * his sampled pile in ascending order, as one save logs them); any other
 * value player did not see (a deal, draw or give between others) becomes
 * CC_NOTAKERS_UNSEEN. */
static void redact_log(nt_state *o, int32_t player) {
    uint64_t pile[CC_MAX_PLAYERS];
    int32_t hidden[CC_MAX_PLAYERS] = {0};
    cc_log_entry *ev = cc_log_entries(&o->log);
    cc_log_walk w = cc_log_walk_from(&o->log, 0);
    for (int32_t i; (i = cc_log_walk_next(&w)) >= 0;)
        if (ev[i].kind == CC_NOTAKERS_EV_SAVE && !((ev[i].seen_by >> player) & 1u))
            hidden[ev[i].player]++;
    /* the kept hidden saves of q are his last ones: they get the highest
     * cards of his pile (a dropped save had the lowest, by the order above) */
    for (int32_t q = 0; q < o->n; q++) {
        pile[q] = o->save[q];
        while (cc_popcount64(pile[q]) > hidden[q]) pile[q] &= pile[q] - 1;
    }
    w = cc_log_walk_from(&o->log, 0);
    for (int32_t i; (i = cc_log_walk_next(&w)) >= 0;) {
        cc_log_entry *e = &ev[i];
        if ((e->seen_by >> player) & 1u) continue;
        if (e->kind == CC_NOTAKERS_EV_SAVE && pile[e->player]) {
            e->value = cc_card52_id_of_bit(cc_ctz64(pile[e->player]));
            pile[e->player] &= pile[e->player] - 1;
        } else {
            e->value = CC_NOTAKERS_UNSEEN;
        }
    }
}

int32_t cc_notakers_sample_infoset(const void *state, int32_t player, uint64_t seed, void *out) {
    const nt_state *st = (const nt_state *)state;
    if (st == NULL || out == NULL || player < 0 || player >= st->n) return CC_E_ARG;
    nt_state *o = (nt_state *)out;
    memcpy(o, st, cc_game_used_size(&cc_game_notakers, st));
    cc_rng rng;
    cc_rng_seed(&rng, seed);
    nt_plan plan;
    uint64_t not_in[CC_MAX_PLAYERS];
    int32_t ok = 0;
    for (int32_t q = 0; q < st->n; q++) not_in[q] = st->not_in_hand[player][q];
    make_plan(st, player, not_in, &plan);
    for (int32_t t = 0; t < NT_SAMPLE_TRIES_EXACT && !ok; t++) ok = propose(st, &plan, &rng, o);
    if (!ok) { /* too rare: keep only the current ask's constraints */
        ask_constraints(st, not_in);
        make_plan(st, player, not_in, &plan);
        for (int32_t t = 0; t < NT_SAMPLE_TRIES && !ok; t++) ok = propose(st, &plan, &rng, o);
    }
    if (!ok) return CC_E_CAPACITY;
    for (int32_t j = 0; j < st->top; j++) o->deck[j] = 0;
    redact_log(o, player);
    /* Only the observer's knowledge holds in the sample. */
    for (int32_t q = 0; q < st->n; q++) {
        o->not_in_hand[player][q] = not_in[q];
        if (q == player) continue;
        for (int32_t r = 0; r < st->n; r++) {
            o->in_hand[q][r] = 0;
            o->held[q][r] = 0;
            o->not_in_hand[q][r] = 0;
        }
    }
    return CC_OK;
}
