/* defined_sample.c: the exact information-set sampler of the defined games
 * (docs/define.rst, "The sampler").
 *
 * What player p knows: his hand, the cards played, the turn-up, the cards
 * he passed (in their receiver's hand until played) and the dealer's shown
 * trump card (in the dealer's hand until played).  Every other card is
 * unknown; each other seat holds a known number of them, and a seat that
 * has failed to follow a suit holds none of that suit.  The sampler deals
 * the unknown cards uniformly among the deals where every hidden place (the
 * other hands and the undealt rest) gets its number of cards and no seat a
 * suit it has shown it lacks.
 *
 * Groups: the seats with the same voids (mask v != 0) form one group whose
 * room is the sum of their counts; the seats with no void and the undealt
 * rest form the free group, which takes any card.  A deal is a split of
 * each suit's unknown cards among the groups, then a split of each group's
 * cards among its places.  The number of deals with x[g][s] cards of suit
 * s in group g is prod_s u_s! / (prod_g x[g][s]! * f_s!) (u_s the suit's
 * unknown cards, f_s = u_s - sum_g x[g][s] those of the free group) times
 * the splits inside the groups, which do not depend on x.  So the sampler
 * draws the matrix x suit by suit with probability proportional to
 * prod_s 1 / (prod_g x[g][s]! * f_s!) over the matrices that fill every
 * group exactly, from W(s, r), that weight summed over the suits s..3 with
 * r the groups' room left (a table over r per suit, counted in doubles:
 * W(4, r) = [r = 0]); then deals each suit's cards to the groups by a
 * uniform shuffle and each group's cards to its places by another.  Every
 * consistent deal then has the same probability (up to the rounding of
 * the doubles).  A position whose table would exceed DEF_SAMPLE_TABLE
 * entries (five players or more with four different voids) is sampled by
 * rejection instead: a uniform shuffle of the unknown cards, kept if no
 * seat gets a suit it lacks, also exact. */
#include <stdlib.h>

#include "defined_internal.h"

/* The most shuffles one sample by rejection tries before answering
 * CC_E_CAPACITY. */
#define DEF_SAMPLE_TRIES 1000000
/* The most entries of one suit's count table (the product of the groups'
 * room + 1). */
#define DEF_SAMPLE_TABLE 4096
/* The tables cc_defined_sample_infoset keeps on its stack (larger ones it
 * allocates). */
#define DEF_SAMPLE_SMALL 128

/* 1 / k! for k = 0..13 (constants, rounded to the nearest double). */
static const double invf[14] = {1.0,
                                1.0,
                                1.0 / 2.0,
                                1.0 / 6.0,
                                1.0 / 24.0,
                                1.0 / 120.0,
                                1.0 / 720.0,
                                1.0 / 5040.0,
                                1.0 / 40320.0,
                                1.0 / 362880.0,
                                1.0 / 3628800.0,
                                1.0 / 39916800.0,
                                1.0 / 479001600.0,
                                1.0 / 6227020800.0};

/* What the samples of one position for one player share (worked out by
 * prepare before the first random number). */
typedef struct def_prep {
    int32_t player, passing, m, table;
    int32_t need[DEF_MAXP];
    uint32_t voids[DEF_MAXP];
    uint64_t fixed[DEF_MAXP];
    uint8_t pool[52]; /* the unknown cards, ascending */
    int32_t nsuit[4];
    uint8_t suit_cards[4][13];
    /* groups 0..ng-1 (a void mask each), ng the free group */
    int32_t ng, size, full;
    uint32_t gvoid[DEF_MAXP];
    int32_t groom[DEF_MAXP], gstride[DEF_MAXP];
    int32_t nseat[DEF_MAXP + 1], seat[DEF_MAXP + 1][DEF_MAXP];
    int32_t rest; /* the undealt cards (the free group's last place) */
    double z;     /* W(0, full) */
    double *w;    /* W(s, .) for s = 1..3, size entries each */
} def_prep;

static int32_t pass_target(const defined_state *s, const int32_t *T, int32_t q) {
    if (!T[CC_DEFINED_F_PASS_COUNT] || !T[CC_DEFINED_F_PASS_DIRS_LEN]) return q;
    return (q + T[CC_DEFINED_F_PASS_DIRS + s->deal_no % T[CC_DEFINED_F_PASS_DIRS_LEN]]) % s->n;
}

static double wget(const def_prep *P, int32_t s, int32_t idx) {
    if (s == 4) return idx == 0 ? 1.0 : 0.0;
    return P->w[(size_t)(s - 1) * (size_t)P->size + (size_t)idx];
}

/* The splits of suit s among the groups from room index idx: the sum of
 * their weights (pick < 0), or the split where the running sum first
 * passes pick, into x (its last positive term if rounding passes none). */
typedef struct split_walk {
    const def_prep *P;
    int32_t s, found;
    double pick, cum;
    int32_t x[DEF_MAXP], last[DEF_MAXP], at[DEF_MAXP];
} split_walk;

static void split_rec(split_walk *k, int32_t g, int32_t left, int32_t idx, double acc) {
    const def_prep *P = k->P;
    if (g == P->ng) {
        double v = acc * invf[left];
        v *= wget(P, k->s + 1, idx);
        if (v <= 0.0) return;
        k->cum += v;
        if (k->pick < 0.0) return;
        memcpy(k->last, k->at, sizeof k->at);
        if (k->cum > k->pick) {
            memcpy(k->x, k->at, sizeof k->at);
            k->found = 1;
        }
        return;
    }
    int32_t room = idx / P->gstride[g] % (P->groom[g] + 1);
    int32_t top = P->gvoid[g] >> k->s & 1 ? 0 : room < left ? room : left;
    for (int32_t x = 0; x <= top && !k->found; x++) {
        k->at[g] = x;
        split_rec(k, g + 1, left - x, idx - x * P->gstride[g], acc * invf[x]);
    }
}

static double split_sum(const def_prep *P, int32_t s, int32_t idx) {
    split_walk k = {.P = P, .s = s, .pick = -1.0};
    split_rec(&k, 0, P->nsuit[s], idx, 1.0);
    return k.cum;
}

/* The groups, the pool and (when table) the count tables of a sample of
 * state for p; w has room for 3 * cap entries.  CC_E_ARG for a state no
 * deal is consistent with. */
static int32_t prepare(const defined_state *s, int32_t p, def_prep *P, double *w, int32_t cap) {
    const int32_t *T = def_table(s);
    int32_t n = s->n;
    memset(P, 0, sizeof *P);
    P->player = p;
    P->passing = s->phase == DEF_PH_PASS;
    int32_t target = pass_target(s, T, p);
    uint64_t known = s->hand[p] | s->passed[p] | s->gone;
    if (s->turnup >= 0) known |= def_bit(s->turnup);
    if (!P->passing && target != p) P->fixed[target] = s->passed[p] & s->hand[target];
    if (T[CC_DEFINED_F_TRUMP] == CC_DEFINED_TRUMP_DEALER && s->turnup >= 0 && s->dealer != p)
        P->fixed[s->dealer] |= def_bit(s->turnup) & s->hand[s->dealer];
    int32_t total = 0;
    for (int32_t q = 0; q < n; q++) {
        if (q == p) continue;
        uint64_t held = s->hand[q] | (P->passing ? s->passed[q] : 0);
        P->need[q] = cc_popcount64(held & ~P->fixed[q]);
        P->voids[q] = s->voids[q];
        total += P->need[q];
    }
    for (uint64_t u = def_deck(T) & ~known; u; u &= u - 1) {
        int32_t c = cc_ctz64(u);
        P->pool[P->m++] = (uint8_t)c;
        P->suit_cards[def_suit(c)][P->nsuit[def_suit(c)]++] = (uint8_t)c;
    }
    if (total > P->m) return CC_E_ARG; /* not a reachable state */
    P->rest = P->m - total;
    /* the groups, in seat order of their first seat */
    int32_t ng = 0, size = 1, free = DEF_MAXP;
    for (int32_t q = 0; q < n; q++) {
        if (q == p || P->need[q] == 0) continue;
        uint32_t v = s->voids[q] & 0xF;
        int32_t g = 0;
        if (v == 0) {
            P->seat[free][P->nseat[free]++] = q;
            continue;
        }
        while (g < ng && P->gvoid[g] != v) g++;
        if (g == ng) P->gvoid[ng++] = v;
        P->groom[g] += P->need[q];
        P->seat[g][P->nseat[g]++] = q;
    }
    /* the free group goes last (index ng) */
    memmove(P->seat[ng], P->seat[free], sizeof P->seat[ng]);
    P->nseat[ng] = P->nseat[free];
    P->ng = ng;
    for (int32_t g = 0; g < ng; g++) {
        P->gstride[g] = size;
        size *= P->groom[g] + 1;
        if (size > DEF_SAMPLE_TABLE) return CC_OK; /* by rejection */
        P->full += P->groom[g] * P->gstride[g];
    }
    P->size = size;
    P->table = 1;
    if (w == NULL || size > cap) return CC_OK; /* the caller allocates and asks again */
    P->w = w;
    for (int32_t suit = 3; suit >= 1; suit--)
        for (int32_t idx = 0; idx < size; idx++)
            w[(size_t)(suit - 1) * (size_t)size + (size_t)idx] = split_sum(P, suit, idx);
    P->z = split_sum(P, 0, P->full);
    return P->z > 0.0 ? CC_OK : CC_E_ARG;
}

/* One sample's cards of each other seat (got) from a prepared position. */
static int32_t draw(const def_prep *P, int32_t n, cc_rng *rng, uint64_t *got) {
    for (int32_t q = 0; q < n; q++) got[q] = 0;
    if (!P->table) {
        uint8_t pool[52];
        memcpy(pool, P->pool, sizeof pool);
        for (int32_t tries = 1;; tries++) {
            if (tries > DEF_SAMPLE_TRIES) return CC_E_CAPACITY;
            cc_rng_shuffle_u8(rng, pool, P->m);
            int32_t k = 0, ok = 1;
            for (int32_t q = 0; q < n && ok; q++) {
                got[q] = 0;
                if (q == P->player) continue;
                for (int32_t i = 0; i < P->need[q]; i++, k++) {
                    if (P->voids[q] >> def_suit(pool[k]) & 1) {
                        ok = 0;
                        break;
                    }
                    got[q] |= def_bit(pool[k]);
                }
            }
            if (ok) return CC_OK;
        }
    }
    uint8_t gcards[DEF_MAXP + 1][52];
    int32_t gcount[DEF_MAXP + 1] = {0};
    int32_t idx = P->full;
    double total = P->z;
    for (int32_t suit = 0; suit < 4; suit++) {
        if (suit > 0) total = wget(P, suit, idx);
        split_walk k = {.P = P, .s = suit};
        if (P->ng > 0) { /* else the free group takes the suit */
            k.pick = (double)(cc_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0) * total;
            split_rec(&k, 0, P->nsuit[suit], idx, 1.0);
        }
        const int32_t *x = k.found ? k.x : k.last;
        int32_t u = P->nsuit[suit], at = 0, given = 0, takers = 0;
        for (int32_t g = 0; g < P->ng; g++) given += x[g], takers += x[g] > 0;
        takers += given < u; /* the free group's share */
        uint8_t cards[13];
        memcpy(cards, P->suit_cards[suit], (size_t)u);
        /* a suit split among groups is split by a shuffle (a suit one group
         * takes whole is shuffled with the group's other cards below) */
        if (takers > 1) cc_rng_shuffle_u8(rng, cards, u);
        for (int32_t g = 0; g <= P->ng; g++) {
            int32_t take = g < P->ng ? x[g] : u - at;
            for (int32_t i = 0; i < take; i++) gcards[g][gcount[g]++] = cards[at++];
            if (g < P->ng) idx -= x[g] * P->gstride[g];
        }
    }
    for (int32_t g = 0; g <= P->ng; g++) {
        int32_t places = P->nseat[g] + (g == P->ng && P->rest > 0);
        if (places > 1) cc_rng_shuffle_u8(rng, gcards[g], gcount[g]);
        for (int32_t j = 0, at = 0; j < P->nseat[g]; j++) {
            int32_t q = P->seat[g][j];
            for (int32_t i = 0; i < P->need[q]; i++) got[q] |= def_bit(gcards[g][at++]);
        }
    }
    return CC_OK;
}

/* A sample of s for the prepared player into o, its generator seeded from
 * seed (the draw's random numbers come from it). */
static int32_t write_sample(const defined_state *s, const def_prep *P, uint64_t seed,
                            defined_state *o) {
    const int32_t *T = def_table(s);
    int32_t n = s->n, p = P->player, passing = P->passing;
    const uint64_t *fixed = P->fixed;
    memcpy(o, s,
           offsetof(defined_state, log_entries) +
               (size_t)cc_log_kept(&s->log) * sizeof(cc_log_entry));
    cc_rng_seed(&o->rng, seed);
    uint64_t got[DEF_MAXP];
    int32_t rc = draw(P, n, &o->rng, got);
    if (rc != CC_OK) return rc;
    for (int32_t q = 0; q < n; q++) {
        if (q == p) continue;
        if (passing) {
            /* the cards q has put aside: the first ones drawn for him */
            uint64_t aside = 0, g = got[q];
            for (int32_t i = cc_popcount64(s->passed[q]); i > 0; i--, g &= g - 1)
                aside |= g & (~g + 1);
            o->passed[q] = aside;
            o->hand[q] = (got[q] & ~aside) | fixed[q];
        } else {
            o->hand[q] = got[q] | fixed[q];
        }
    }
    if (!passing && T[CC_DEFINED_F_PASS_COUNT] > 0) {
        /* the passes p did not see: each from cards its receiver got or played */
        for (int32_t q = 0; q < n; q++) {
            int32_t t = pass_target(s, T, q);
            if (q == p || t == p || t == q) continue;
            uint64_t from = got[t] | (s->played_by[t] & ~s->passed[p]), take = 0;
            for (int32_t i = cc_popcount64(s->passed[q]); i > 0 && from; i--) {
                uint64_t low = from & (~from + 1);
                take |= low;
                from &= from - 1;
            }
            o->passed[q] = o->received[t] = take;
        }
    }
    /* the log: what p has not seen told from the sample (each seat's dealt,
     * passed and received cards, in the order of the sample's sets) */
    uint64_t dealt[DEF_MAXP], pass[DEF_MAXP], recv[DEF_MAXP];
    for (int32_t q = 0; q < n; q++) {
        dealt[q] = (o->hand[q] | o->played_by[q] | o->passed[q]) & ~o->received[q];
        pass[q] = o->passed[q];
        recv[q] = o->received[q];
    }
    int32_t order[CC_DEFINED_LOG_CAP], kept = 0, current = 1;
    cc_log_walk w = cc_log_walk_from(&o->log, 0);
    for (int32_t slot; (slot = cc_log_walk_next(&w)) >= 0;) order[kept++] = slot;
    for (int32_t i = kept - 1; i >= 0; i--) { /* newest first: this deal, then older ones */
        cc_log_entry *e = &cc_log_entries(&o->log)[order[i]];
        int32_t q = e->player;
        uint64_t *from = e->kind == CC_DEFINED_EV_DEAL_CARD ? &dealt[q]
                         : e->kind == CC_DEFINED_EV_PASS    ? &pass[q]
                         : e->kind == CC_DEFINED_EV_RECEIVE ? &recv[q]
                                                            : NULL;
        if (!(e->seen_by >> p & 1) && from != NULL) {
            /* an older deal's hidden card: the sample does not say it (-1) */
            e->value = current && *from ? cc_ctz64(*from) : -1;
            if (current && *from) *from &= ~def_bit(e->value);
        }
        if (e->kind == CC_DEFINED_EV_NEW_DEAL) current = 0;
    }
    return CC_OK;
}

static int32_t check(const void *state, int32_t p, const void *out) {
    const defined_state *s = (const defined_state *)state;
    if (s == NULL || out == NULL || out == state || p < 0 || p >= s->n) return CC_E_ARG;
    if (s->phase == DEF_PH_OVER) return CC_E_GAME_OVER;
    return CC_OK;
}

int32_t cc_defined_sample_infoset(const void *state, int32_t p, uint64_t seed, void *out) {
    int32_t rc = check(state, p, out);
    if (rc != CC_OK) return rc;
    const defined_state *s = (const defined_state *)state;
    def_prep P;
    double small[3 * DEF_SAMPLE_SMALL], *w = small;
    rc = prepare(s, p, &P, small, DEF_SAMPLE_SMALL);
    if (rc == CC_OK && P.table && P.w == NULL) { /* a table too large for the stack */
        w = (double *)malloc(sizeof(double) * 3 * (size_t)P.size);
        if (w == NULL) return CC_E_CAPACITY;
        rc = prepare(s, p, &P, w, P.size);
    }
    if (rc == CC_OK) rc = write_sample(s, &P, seed, (defined_state *)out);
    if (w != small) free(w);
    return rc;
}

/* The prepared scratch: the position, then its tables. */
#define DEF_PREP_BYTES ((sizeof(def_prep) + 15) / 16 * 16)
const size_t cc_defined_sample_scratch =
    DEF_PREP_BYTES + sizeof(double) * 3 * (size_t)DEF_SAMPLE_TABLE;

int32_t cc_defined_sample_prepare(const void *state, int32_t p, void *scratch, size_t cap) {
    int32_t rc = check(state, p, scratch);
    if (rc != CC_OK) return rc;
    if (cap < cc_defined_sample_scratch) return CC_E_CAPACITY;
    double *w = (double *)(void *)((char *)scratch + DEF_PREP_BYTES);
    return prepare((const defined_state *)state, p, (def_prep *)scratch, w, DEF_SAMPLE_TABLE);
}

int32_t cc_defined_sample_draw(const void *state, void *scratch, uint64_t seed, void *out) {
    const def_prep *P = (const def_prep *)scratch;
    if (scratch == NULL) return CC_E_ARG;
    int32_t rc = check(state, P->player, out);
    if (rc != CC_OK) return rc;
    return write_sample((const defined_state *)state, P, seed, (defined_state *)out);
}
