/* nancy_sample.c: information-set sampling for the Game of Nancy. */
#include <stdlib.h>

#include "nancy_internal.h"

/* ---- information-set sampling ------------------------------------------
 * docs/nancy.rst, "Information-set samples".  Slots are the places whose
 * cards `player` cannot see: other players' face-down hands, the Hound
 * before it is taken, the Taker's hidden discards and (2 players) the
 * face-down table cards.  Each slot admits the cards the public facts allow
 * (voids, trump ceilings, discard restrictions, the call ladder, a shown
 * Hound).  With self_call_allowed = 0 and a Hound `player` never saw, the
 * called card weighs H / call_free in the Taker's slots (the Taker did not
 * hold it, so it came from the Hound).  Target: deals of the unknown cards
 * into the slots, with probability proportional to their weight.
 * Stage 1: uniform shuffles (0, 200 or 2000 by the size of stage 2's count
 * table), each dealt in slot order and kept if it fits (and, for a weighted
 * deal, with probability H / call_free): exact rejection sampling.
 * Stage 2 (if none was kept): exact sequential assignment, card by card
 * in ascending id order, each card going to a group of slots with
 * probability proportional to the weighted number of ways to finish the
 * deal (counted in doubles over the groups' remaining room); slots of the
 * same kind with the same admitted cards form one group, dealt out among
 * its slots by a uniform shuffle. */

#define SLOT_MAX 20
#define SAMPLE_TABLE_MAX (1 << 22)
#define SAMPLE_TABLE_SMALL 4096
typedef struct slot {
    int32_t kind; /* 0 hand of q, 1 hound, 2 discards, 3 table pile (q, i) */
    int32_t q, i, size;
    int32_t taker_side; /* the Taker's hand or discards */
    cc_nancy_cards allowed;
    int8_t cards[40];
    int32_t got;
} slot;

/* Groups of slots for stage 2: slots other than the Taker's that admit the
 * same cards form one group; a group's remaining room is one digit of a
 * mixed-radix index into the count table. */
typedef struct sgroups {
    int32_t ng, group[SLOT_MAX], gsize[SLOT_MAX], gtaker[SLOT_MAX];
    cc_nancy_cards gallowed[SLOT_MAX];
    int64_t stride[SLOT_MAX + 1];
} sgroups;

/* Fill G; return the count table's size, or -1 above SAMPLE_TABLE_MAX. */
static int64_t make_groups(const slot *sl, int32_t ns, sgroups *G) {
    G->ng = 0;
    for (int32_t j = 0; j < ns; j++) {
        int32_t g = -1;
        for (int32_t h = 0; h < G->ng && !sl[j].taker_side; h++)
            if (!G->gtaker[h] && G->gallowed[h].lo == sl[j].allowed.lo &&
                G->gallowed[h].hi == sl[j].allowed.hi)
                g = h;
        if (g < 0) {
            g = G->ng++;
            G->gsize[g] = 0;
            G->gtaker[g] = sl[j].taker_side;
            G->gallowed[g] = sl[j].allowed;
        }
        G->group[j] = g;
        G->gsize[g] += sl[j].size;
    }
    G->stride[0] = 1;
    for (int32_t g = 0; g < G->ng; g++) {
        G->stride[g + 1] = G->stride[g] * (G->gsize[g] + 1);
        if (G->stride[g + 1] > SAMPLE_TABLE_MAX) return -1;
    }
    return G->stride[G->ng];
}

/* Stage 2: exact weighted assignment of pool[0..nu-1] to the slots. */
static int32_t exact_deal(cc_rng *rng, slot *sl, int32_t ns, const sgroups *G,
                          const uint8_t *pool, int32_t nu, int32_t wcard, double wt) {
    const int32_t ng = G->ng;
    const int32_t *group = G->group, *gsize = G->gsize, *gtaker = G->gtaker;
    const cc_nancy_cards *gallowed = G->gallowed;
    const int64_t *stride = G->stride;
    int64_t tsize = stride[ng];
    if (tsize < 0 || tsize > SAMPLE_TABLE_MAX) return CC_E_CAPACITY;
    double small[SAMPLE_TABLE_SMALL];
    double *f = tsize <= SAMPLE_TABLE_SMALL ? small : (double *)malloc((size_t)tsize * sizeof(double));
    if (f == NULL) return CC_E_CAPACITY;
    /* f[cap] = weighted ways to deal the last sum(cap) cards of the pool into
     * room cap; a child index is smaller, so ascending order works. */
    int32_t odo[SLOT_MAX] = {0}, r = 0; /* the room vector of idx, and its sum */
    for (int64_t idx = 0; idx < tsize; idx++) {
        if (idx > 0) { /* advance the odometer */
            int32_t g = 0;
            while (odo[g] == gsize[g]) {
                r -= odo[g];
                odo[g++] = 0;
            }
            odo[g]++;
            r++;
        }
        if (r == 0) { f[idx] = 1.0; continue; }
        if (r > nu) { f[idx] = 0.0; continue; }
        int32_t c = pool[nu - r];
        double total = 0.0;
        for (int32_t g = 0; g < ng; g++) {
            if (odo[g] == 0 || !cs_has(gallowed[g], c)) continue;
            double w = (c == wcard && gtaker[g]) ? wt : 1.0;
            total += w * f[idx - stride[g]];
        }
        f[idx] = total;
    }
    int32_t cap[SLOT_MAX];
    int64_t idx = 0;
    for (int32_t g = 0; g < ng; g++) {
        cap[g] = gsize[g];
        idx += (int64_t)gsize[g] * stride[g];
    }
    if (!(f[idx] > 0.0)) {
        if (f != small) free(f);
        return CC_E_CAPACITY;
    }
    uint8_t gcards[SLOT_MAX][78];
    int32_t gcount[SLOT_MAX] = {0};
    for (int32_t k = 0; k < nu; k++) {
        int32_t c = pool[k], pick = -1;
        double terms[SLOT_MAX], total = 0.0;
        for (int32_t g = 0; g < ng; g++) {
            terms[g] = 0.0;
            if (cap[g] == 0 || !cs_has(gallowed[g], c)) continue;
            double w = (c == wcard && gtaker[g]) ? wt : 1.0;
            terms[g] = w * f[idx - stride[g]];
            total += terms[g];
        }
        double u = (double)(cc_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0) * total;
        double cum = 0.0;
        for (int32_t g = 0; g < ng; g++) {
            if (terms[g] > 0.0) {
                cum += terms[g];
                pick = g;
                if (u < cum) break;
            }
        }
        if (pick < 0) { /* unreachable while f[idx] > 0; never index with -1 */
            if (f != small) free(f);
            return CC_E_CAPACITY;
        }
        gcards[pick][gcount[pick]++] = (uint8_t)c;
        cap[pick]--;
        idx -= stride[pick];
    }
    if (f != small) free(f);
    for (int32_t g = 0; g < ng; g++) {
        int32_t members = 0;
        for (int32_t j = 0; j < ns; j++) members += group[j] == g;
        if (members > 1) cc_rng_shuffle_u8(rng, gcards[g], gcount[g]);
        int32_t pos = 0;
        for (int32_t j = 0; j < ns; j++) {
            if (group[j] != g) continue;
            sl[j].got = 0;
            for (int32_t k = 0; k < sl[j].size; k++) sl[j].cards[sl[j].got++] = (int8_t)gcards[g][pos++];
        }
    }
    return CC_OK;
}

/* sigma[c] for c in real: the cards of real & sampled stay, the others of
 * real go to those of sampled in ascending order (equal counts). */
static void relabel(int8_t *sigma, cc_nancy_cards real, cc_nancy_cards sampled) {
    cc_nancy_cards from = cs_andnot(real, sampled), to = cs_andnot(sampled, real);
    int32_t m = cs_count(from);
    for (int32_t k = 0; k < m; k++) sigma[cs_nth(from, k)] = (int8_t)cs_nth(to, k);
}

/* The sample is worked out from `state` alone, with a local generator; `outp`
 * (a separate state buffer, or `state` itself) is written only once it has
 * succeeded, so an error (CC_E_ARG, or CC_E_CAPACITY when the count table is
 * too large or cannot be allocated) leaves it untouched. */
int32_t cc_nancy_sample_infoset(const void *state, int32_t player, uint64_t seed, void *outp) {
    const cc_nancy_state *s = (const cc_nancy_state *)state;
    if (s == NULL || outp == NULL) return CC_E_ARG;
    int32_t n = s->n;
    if (player < 0 || player >= n) return CC_E_ARG;
    cc_rng sample_rng;
    cc_rng_seed(&sample_rng, seed);
    cc_rng *rng = &sample_rng;
    slot sl[SLOT_MAX];
    int32_t ns = 0;
    cc_nancy_cards all = {CC_NANCY_LO_MASK, CC_NANCY_HI_MASK};
    int32_t hound_hidden = s->phase == CC_NANCY_PH_BID || s->phase == CC_NANCY_PH_CALL;
    int32_t hound_known = !hound_hidden && s->taker >= 0 &&
                          (s->params[CC_NANCY_P_REVEAL_HOUND] == 1 || player == s->taker);
    /* cards only the Taker's slots may hold: the required ranks of the call
     * ladder and the cards of a Hound `player` saw */
    cc_nancy_cards taker_only = {0, 0};
    for (int32_t r = 0; r < 14; r++)
        if (s->required_taker_ranks & (1u << r)) taker_only = cs_or(taker_only, rank_set(r));
    if (hound_known) taker_only = cs_or(taker_only, s->hound);
    /* the called card, which the Taker did not hold (self_call_allowed = 0) */
    cc_nancy_cards not_taker = {0, 0};
    int32_t wcard = -1;
    int32_t no_self = s->called >= 0 && s->params[CC_NANCY_P_SELF_CALL_ALLOWED] == 0;
    if (no_self && hound_known && !cs_has(s->hound, s->called)) cs_add(&not_taker, s->called);
    if (no_self && !hound_known) wcard = s->called;
    cc_nancy_cards unknown = {0, 0};
    for (int32_t q = 0; q < n; q++) {
        if (q == player || cs_empty(s->hand[q])) continue;
        slot *x = &sl[ns++];
        x->kind = 0;
        x->q = q;
        x->i = -1;
        x->size = cs_count(s->hand[q]);
        x->taker_side = q == s->taker;
        cc_nancy_cards a = all;
        for (int32_t su = 0; su < 4; su++)
            if (s->voids[q] & (1u << su)) a.lo &= ~(CC_NANCY_LANE << (16 * su));
        a.hi &= ~(CC_NANCY_TRUMPS_HI & ~((2ull << s->ceil[q]) - 1));
        if (q == s->taker && !cs_empty(s->shown)) {
            /* the Taker showed a trump: he kept no card he could have discarded */
            a.lo &= CC_NANCY_KINGS_LO;
        }
        a = cs_andnot(a, q == s->taker ? not_taker : taker_only);
        x->allowed = a;
        unknown = cs_or(unknown, s->hand[q]);
    }
    if (hound_hidden) {
        slot *x = &sl[ns++];
        x->kind = 1;
        x->q = x->i = -1;
        x->size = cs_count(s->hound);
        x->taker_side = 0;
        x->allowed = all;
        unknown = cs_or(unknown, s->hound);
    }
    cc_nancy_cards hidden_disc = {0, 0};
    if (player != s->taker) hidden_disc = cs_andnot(s->discards, s->disc_public);
    if (!cs_empty(hidden_disc)) {
        slot *x = &sl[ns++];
        x->kind = 2;
        x->q = x->i = -1;
        x->size = cs_count(hidden_disc);
        x->taker_side = 1;
        cc_nancy_cards a = {CC_NANCY_LO_MASK & ~CC_NANCY_KINGS_LO, 0};
        x->allowed = cs_andnot(a, not_taker);
        unknown = cs_or(unknown, hidden_disc);
    }
    if (n == 2) {
        for (int32_t q = 0; q < 2; q++)
            for (int32_t i = 0; i < 8; i++) {
                if (s->pbot[q][i] < 0) continue;
                slot *x = &sl[ns++];
                x->kind = 3;
                x->q = q;
                x->i = i;
                x->size = 1;
                x->taker_side = 0;
                x->allowed = cs_andnot(all, taker_only);
                cs_add(&unknown, s->pbot[q][i]);
            }
    }
    if (wcard >= 0 && !cs_has(unknown, wcard)) wcard = -1;
    /* only unknown cards are dealt: slots admitting the same of them are alike */
    for (int32_t j = 0; j < ns; j++) {
        sl[j].allowed.lo &= unknown.lo;
        sl[j].allowed.hi &= unknown.hi;
    }
    int32_t H = s->hsize, M = s->call_free;
    int32_t nu = cs_count(unknown);
    uint8_t pool[78];
    for (int32_t k = 0; k < nu; k++) pool[k] = (uint8_t)cs_nth(unknown, k);
    /* stage 1's length is fixed before it starts (so stage 2 stays exact):
     * none when counting is cheap, more when it is dear */
    sgroups G;
    int64_t tsize = make_groups(sl, ns, &G);
    int32_t tries = (tsize >= 0 && tsize <= SAMPLE_TABLE_SMALL) ? 0
                    : (tsize >= 0 && tsize <= 65536)           ? 200
                                                                : 2000;
    int ok = 0;
    for (int32_t attempt = 0; attempt < tries && !ok; attempt++) {
        cc_rng_shuffle_u8(rng, pool, nu);
        int32_t pos = 0, in_taker = 0;
        ok = 1;
        for (int32_t j = 0; j < ns && ok; j++) {
            sl[j].got = 0;
            for (int32_t k = 0; k < sl[j].size; k++) {
                int32_t c = pool[pos++];
                if (!cs_has(sl[j].allowed, c)) { ok = 0; break; }
                if (c == wcard && sl[j].taker_side) in_taker = 1;
                sl[j].cards[sl[j].got++] = (int8_t)c;
            }
        }
        if (ok && in_taker) ok = (int32_t)cc_rng_below(rng, (uint64_t)M) < H;
    }
    if (!ok) {
        if (tsize < 0) return CC_E_CAPACITY;
        for (int32_t k = 0; k < nu; k++) pool[k] = (uint8_t)cs_nth(unknown, k);
        double wt = M > 0 ? (double)H / (double)M : 1.0;
        int32_t rc = exact_deal(rng, sl, ns, &G, pool, nu, wcard, wt);
        if (rc != CC_OK) return rc;
    }
    /* The relabelling sigma of the hidden cards, real -> sampled, for the log:
     * within each group of places (a hand, the Hound, a table card; the
     * Taker's hand and hidden discards together) the cards in both stay,
     * the others pair up in ascending order.  Read from `state` before the
     * output (which may be `state`) is written. */
    int8_t sigma[78];
    for (int32_t c = 0; c < 78; c++) sigma[c] = (int8_t)c;
    cc_nancy_cards sampled[SLOT_MAX], taker_real = {0, 0}, taker_sampled = {0, 0};
    cc_nancy_cards sampled_disc = {0, 0};
    for (int32_t j = 0; j < ns; j++) {
        cc_nancy_cards set = {0, 0}, real = {0, 0};
        for (int32_t k = 0; k < sl[j].size; k++) cs_add(&set, sl[j].cards[k]);
        sampled[j] = set;
        switch (sl[j].kind) {
        case 0: real = s->hand[sl[j].q]; break;
        case 1: real = s->hound; break;
        case 2: real = hidden_disc; sampled_disc = set; break;
        default: cs_add(&real, s->pbot[sl[j].q][sl[j].i]); break;
        }
        if (sl[j].taker_side) {
            taker_real = cs_or(taker_real, real);
            taker_sampled = cs_or(taker_sampled, set);
        } else {
            relabel(sigma, real, set);
        }
    }
    relabel(sigma, taker_real, taker_sampled);
    /* the log from the current deal's first event (earlier deals are over) */
    int32_t kept = cc_log_kept(&s->log), deal_start = 0;
    for (int32_t i = 0; i < kept; i++)
        if (cc_log_at_const(&s->log, i)->kind == CC_NANCY_EV_DEALER) deal_start = i;

    /* success: only now write the output */
    cc_nancy_state *o = (cc_nancy_state *)outp;
    if (o != s) memcpy(o, s, sizeof *s);
    /* the output's generator: the sampler's, seeded from `seed` alone */
    o->rng = sample_rng;
    for (int32_t j = 0; j < ns; j++) {
        cc_nancy_cards set = sampled[j];
        switch (sl[j].kind) {
        case 0: o->hand[sl[j].q] = set; break;
        case 1: o->hound = set; break;
        case 2:
            o->pile[CC_NANCY_PILE_NANCY] = cs_or(cs_andnot(o->pile[CC_NANCY_PILE_NANCY], hidden_disc), set);
            o->discards = cs_or(cs_andnot(o->discards, hidden_disc), set);
            break;
        default: o->pbot[sl[j].q][sl[j].i] = sl[j].cards[0]; break;
        }
    }
    if (s->taker >= 0 && player != s->taker && s->params[CC_NANCY_P_REVEAL_HOUND] == 0 &&
        !hound_hidden) {
        /* a Hound `player` never saw: the one the relabelled log shows */
        cc_nancy_cards h = {0, 0};
        for (int32_t k = 0; k < s->hsize; k++) cs_add(&h, sigma[cs_nth(s->hound, k)]);
        o->hound = h;
    }
    /* the Partner is whoever holds the called card in the sample */
    if (s->called >= 0 && !s->partner_revealed) {
        o->partner = -1;
        for (int32_t q = 0; q < n; q++)
            if (q != s->taker && cs_has(cs_or(o->hand[q], o->up[q]), s->called)) o->partner = q;
    }
    /* the log: what `player` did not see becomes the sample's cards; values
     * of earlier deals he never saw read -1 */
    uint32_t me = 1u << player;
    int32_t disc_k = 0;
    for (int32_t i = 0; i < kept; i++) {
        cc_log_entry *e = cc_log_at(&o->log, i);
        if (e->seen_by & me) continue;
        if (i < deal_start)
            e->value = -1;
        else if (e->kind == CC_NANCY_EV_DISCARD)
            e->value = cs_nth(sampled_disc, disc_k++);
        else if (e->value >= 0 && e->value < 78)
            e->value = sigma[e->value];
    }
    return CC_OK;
}

