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
 * Stage 1: rejection with early exit (a uniform deal built position by
 * position, dropped at the first card its slot does not admit), within a
 * budget of card draws fixed beforehand (a share of stage 3's table; none
 * where stage 2 runs).
 * Stage 2 (large tables, no weighted card): rejection from a relaxed
 * problem (pairs of groups merged until the table is small), drawn exactly
 * by stage 3's procedure and kept if every slot admits its cards; a fixed
 * number of tries.
 * Stage 3 (if none was kept): exact sequential assignment, card by card
 * (the cards every group admits last, dealt by a shuffle), each card going
 * to a group of slots with probability proportional to the weighted number
 * of ways to finish the deal (counted in doubles over the groups' remaining
 * room); slots with the same admitted cards form one group, dealt out among
 * its slots by a uniform shuffle.
 * Last, a Hound `player` never saw is drawn among the Taker's face-down
 * cards after the take (see below). */

/* sigma[c] for c in real: the k-th card of real (ascending) goes to the k-th
 * of sampled (equal counts).  It carries each hidden place's cards into the
 * log as a set; the order the real ones were dealt in does not survive (the
 * log's hidden places are sorted afterwards: sort_hidden_deals). */
static void relabel(int8_t *sigma, cc_nancy_cards real, cc_nancy_cards sampled) {
    int32_t m = cs_count(real);
    for (int32_t k = 0; k < m; k++) {
        int32_t a = cs_nth(real, 0), b = cs_nth(sampled, 0);
        sigma[a] = (int8_t)b;
        cs_del(&real, a);
        cs_del(&sampled, b);
    }
}

/* The log's deal events that `player` did not see, place by place (each
 * other hand, the Hound), show the place's cards in ascending order: which
 * cards a place was dealt is the sample's, the order they came in is the
 * real deal's and `player` never saw it (two real states that differ only in
 * it, or in which hidden cards went where, must give the same sample).  The
 * face-down table cards (2 players) are places of one card each. */
static void sort_hidden_deals(cc_nancy_state *o, int32_t player, int32_t from, int32_t to) {
    uint32_t me = 1u << player;
    cc_log_entry *entries = cc_log_entries(&o->log);
    for (int32_t g = -1; g < o->n; g++) { /* g: the hand of seat g, -1 the Hound */
        if (g == player) continue;
        cc_log_entry *at[78];
        int32_t m = 0;
        cc_log_walk w = cc_log_walk_from(&o->log, from);
        for (int32_t i = from, slot; i < to && m < 78 && (slot = cc_log_walk_next(&w)) >= 0; i++) {
            cc_log_entry *e = &entries[slot];
            if (e->kind != CC_NANCY_EV_DEAL || (e->seen_by & me)) continue;
            if (g < 0 ? e->target != CC_NANCY_PLACE_HOUND
                      : e->target != CC_NANCY_PLACE_HAND || e->player != g)
                continue;
            /* insertion: at[] in event order, values kept ascending along it */
            int32_t v = e->value, j = m++;
            at[j] = e;
            for (; j > 0 && at[j - 1]->value > v; j--) at[j]->value = at[j - 1]->value;
            at[j]->value = v;
        }
    }
}

/* What a sample of one position for one player needs before its first
 * random number: the slots, the groups, the pool, stage 1's budget, the
 * orders of stages 2 and 3, and their count tables once filled.  The
 * prepared sampler (cc_nancy_sample_prepare) keeps it in the searcher's
 * scratch for all the draws of a move; cc_nancy_sample_infoset works it out
 * for its one draw. */
typedef struct nancy_prep {
    int32_t player, ns, nu, wcard, H, M, nfree;
    int32_t hound_hidden, hound_known, no_self, relax;
    int64_t tsize, budget;
    double wt;
    cc_nancy_cards hidden_disc;
    slot sl[SLOT_MAX];
    sgroups G;
    uint8_t pool[78];   /* ascending (stage 1 shuffles a copy) */
    uint32_t smask[78]; /* by card: the slots admitting it */
    /* stage 3: the cards in ascending order, those every group admits
     * (weight 1) last; gm2 and wm2 in the same order */
    uint8_t order[78];
    uint32_t gm2[78], wm2[78];
    relaxed X; /* stage 2, if relax */
    table_cache full, rtab;
} nancy_prep;

static int32_t prepare(const cc_nancy_state *s, int32_t player, nancy_prep *P) {
    int32_t n = s->n;
    if (player < 0 || player >= n) return CC_E_ARG;
    P->player = player;
    slot *sl = P->sl;
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
    int32_t nu = 0;
    uint8_t *pool = P->pool;
    for (uint64_t u = unknown.lo; u; u &= u - 1) {
        int32_t bit = cc_ctz64(u);
        pool[nu++] = (uint8_t)((bit >> 4) * 14 + (bit & 15));
    }
    for (uint64_t u = unknown.hi & CC_NANCY_TRUMPS_HI; u; u &= u - 1)
        pool[nu++] = (uint8_t)(55 + cc_ctz64(u));
    if (unknown.hi & 1) pool[nu++] = CC_NANCY_OUTSIDER;
    sgroups *G = &P->G;
    int64_t tsize = cc_nancy_make_groups(sl, ns, wcard >= 0, G);
    /* which slots and groups admit each card */
    uint32_t *smask = P->smask, gmask[78], wmask[78];
    memset(smask, 0, sizeof P->smask);
    for (int32_t k = 0; k < nu; k++) {
        int32_t c = pool[k];
        uint32_t sm = 0, gm = 0, wm = 0;
        for (int32_t j = 0; j < ns; j++)
            if (cs_has(sl[j].allowed, c)) {
                sm |= 1u << j;
                gm |= 1u << G->group[j];
                if (c == wcard && sl[j].taker_side) wm |= 1u << G->group[j];
            }
        smask[c] = sm;
        gmask[k] = gm;
        wmask[k] = wm;
    }
    /* Stage 1, rejection, gets a budget of card draws fixed before it starts
     * (so the later stages stay exact) and worth a fraction of stage 3's counting:
     * none when counting is cheap. */
    int64_t budget = tsize < 0                                ? ((int64_t)1 << 24)
                     : tsize <= 512                           ? 0
                     : tsize > NANCY_RELAX_ABOVE && wcard < 0 ? 0 /* stage 2 does better */
                                                              : tsize / 8;
#ifdef NANCY_NO_REJECT /* tests/c/nancy_sampler_relaxed.c: stages 2 and 3 alone */
    budget = 0;
#endif
    /* the order of stages 2 and 3 */
    uint32_t allg = G->ng >= 32 ? 0xFFFFFFFFu : (1u << G->ng) - 1;
    int32_t nc = 0, nfree = 0;
    for (int32_t pass = 0; pass < 2; pass++)
        for (int32_t k = 0; k < nu; k++) {
            int32_t is_free = gmask[k] == allg && wmask[k] == 0;
            if (is_free != pass) continue;
            P->order[nc] = pool[k];
            P->gm2[nc] = gmask[k];
            P->wm2[nc] = wmask[k];
            nc++;
            nfree += pass;
        }
    P->relax = tsize >= 0 && tsize > NANCY_RELAX_ABOVE && wcard < 0 &&
               cc_nancy_relax_prepare(ns, G, P->order, P->gm2, nu, tsize, &P->X) == CC_OK;
    P->ns = ns;
    P->nu = nu;
    P->wcard = wcard;
    P->H = H;
    P->M = M;
    P->nfree = nfree;
    P->wt = M > 0 ? (double)H / (double)M : 1.0;
    P->hound_hidden = hound_hidden;
    P->hound_known = hound_known;
    P->no_self = no_self;
    P->tsize = tsize;
    P->budget = budget;
    P->hidden_disc = hidden_disc;
    P->full.f = P->rtab.f = NULL;
    P->full.cap = P->rtab.cap = 0;
    P->full.state = P->rtab.state = 0;
    return CC_OK;
}

/* One sample from a prepared position: the same random numbers in the same
 * order, and the same output, whether P was prepared for this draw alone or
 * kept for many.  `outp` (a separate state buffer, or `state` itself) is
 * written only once the sample has succeeded, so an error (CC_E_CAPACITY
 * when the count table is too large or cannot be allocated) leaves it
 * untouched. */
static int32_t draw(const cc_nancy_state *s, nancy_prep *P, uint64_t seed, void *outp) {
    int32_t n = s->n, player = P->player, ns = P->ns, nu = P->nu;
    int32_t hound_hidden = P->hound_hidden, hound_known = P->hound_known, no_self = P->no_self;
    cc_nancy_cards hidden_disc = P->hidden_disc;
    cc_rng sample_rng;
    cc_rng_seed(&sample_rng, seed);
    cc_rng *rng = &sample_rng;
    slot sl[SLOT_MAX];
    memcpy(sl, P->sl, sizeof(slot) * (size_t)ns);
    uint8_t pool[78];
    memcpy(pool, P->pool, (size_t)nu);
    int32_t ok = P->budget > 0 && cc_nancy_reject_deal(rng, sl, ns, pool, nu, P->smask, P->wcard,
                                                       P->H, P->M, P->budget);
    if (!ok) {
        if (P->tsize < 0) return CC_E_CAPACITY;
        int32_t rc = 1;
        if (P->relax)
            rc = cc_nancy_exact_deal(rng, sl, ns, &P->X.R, P->X.order, P->X.gm, P->X.wm, nu,
                                     P->X.nfree, 1.0, P->X.tries, &P->rtab);
        if (rc == 1)
            rc = cc_nancy_exact_deal(rng, sl, ns, &P->G, P->order, P->gm2, P->wm2, nu, P->nfree,
                                     P->wt, 1, &P->full);
        if (rc != CC_OK) return rc;
    }
    /* The relabelling sigma of the hidden cards, real -> sampled, for the log:
     * within each group of places (a hand, the Hound, a table card; the
     * Taker's hand and hidden discards together) the real cards and the
     * sampled ones pair up in ascending order.  Read from `state` before the
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
        case 2:
            real = hidden_disc;
            sampled_disc = set;
            break;
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
    /* the log from the current deal's first event (earlier deals are over);
     * events from hidden_end on are seen by all and stay as they are */
    int32_t kept = cc_log_kept(&s->log);
    const int64_t first = s->log.total - kept; /* the first kept event's number */
    int32_t deal_start = s->deal_event > first ? (int32_t)(s->deal_event - first) : 0;
    int32_t hidden_to = s->hidden_end > first ? (int32_t)(s->hidden_end - first) : 0;
    if (hidden_to > kept) hidden_to = kept;

    /* After the take, for a player other than the Taker: the Taker's face-down
     * hand just after the take (`took`) in the sample is his sampled hand and
     * hidden discards plus the public cards that left that hand (plays, shown
     * trumps).  Which of them were the Hound is unknown to `player` unless the
     * Hound was shown: every split of `took` into a deal and a Hound that the
     * public facts allow is equally likely (the deal is uniform), so the Hound
     * is drawn uniformly among them: never a card of a rank the call ladder
     * showed he held before the take (those were in his deal), and with
     * self_call_allowed = 0 always the called card if he has it (he did not
     * hold it at the call).  The count of such splits, C(m, H) or
     * C(m-1, H-1), is what weighs the called card H / m in stage 1 and 3. */
    int32_t after_take = s->taker >= 0 && player != s->taker && !hound_hidden;
    cc_nancy_cards took2 = s->took, hound2 = s->hound;
    if (after_take) {
        cc_nancy_cards t_hand = {0, 0};
        for (int32_t j = 0; j < ns; j++)
            if (sl[j].kind == 0 && sl[j].q == s->taker) t_hand = sampled[j];
        took2 = cs_or(cs_or(cs_andnot(s->took, cs_or(s->hand[s->taker], hidden_disc)), t_hand),
                      sampled_disc);
        if (!hound_known) {
            cc_nancy_cards req = {0, 0};
            for (int32_t r = 0; r < 14; r++)
                if (s->required_taker_ranks & (1u << r)) req = cs_or(req, rank_set(r));
            cc_nancy_cards cand = cs_andnot(took2, req);
            hound2.lo = hound2.hi = 0;
            int32_t need = s->hsize;
            if (no_self && cs_has(cand, s->called)) {
                cs_add(&hound2, s->called);
                cs_del(&cand, s->called);
                need--;
            }
            uint8_t cc[78];
            int32_t m = 0;
            for (int32_t k = 0, t = cs_count(cand); k < t; k++) cc[m++] = (uint8_t)cs_nth(cand, k);
            if (need > m) return CC_E_CAPACITY;  /* unreachable: the state is consistent */
            for (int32_t k = 0; k < need; k++) { /* a partial Fisher-Yates shuffle */
                int32_t j = k + (int32_t)below32(rng, (uint32_t)(m - k));
                uint8_t c = cc[j];
                cc[j] = cc[k];
                cc[k] = c;
                cs_add(&hound2, c);
            }
        }
    }
    /* the Hound (ascending) and the Taker's face-down deal (the rest of
     * took2, ascending) as the sample's log shows them */
    int8_t hound_cards[CC_NANCY_MAX_PLAYERS + 2], deal_cards[40];
    int32_t n_hound = 0, n_deal = 0;
    if (after_take) {
        n_hound = cs_count(hound2);
        for (int32_t k = 0; k < n_hound; k++) hound_cards[k] = (int8_t)cs_nth(hound2, k);
        cc_nancy_cards rest = cs_andnot(took2, hound2);
        n_deal = cs_count(rest);
        for (int32_t k = 0; k < n_deal; k++) deal_cards[k] = (int8_t)cs_nth(rest, k);
    }

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
            o->pile[CC_NANCY_PILE_NANCY] =
                cs_or(cs_andnot(o->pile[CC_NANCY_PILE_NANCY], hidden_disc), set);
            o->discards = cs_or(cs_andnot(o->discards, hidden_disc), set);
            break;
        default: o->pbot[sl[j].q][sl[j].i] = sl[j].cards[0]; break;
        }
    }
    if (after_take) {
        o->hound = hound2;
        o->took = took2;
    }
    /* the Partner is whoever holds the called card in the sample */
    if (s->called >= 0 && !s->partner_revealed) {
        o->partner = -1;
        for (int32_t q = 0; q < n; q++)
            if (q != s->taker && cs_has(cs_or(o->hand[q], o->up[q]), s->called)) o->partner = q;
    }
    /* the log: what `player` did not see becomes the sample's cards (each
     * hidden place's, in ascending order); values of earlier deals he never
     * saw read -1 */
    uint32_t me = 1u << player;
    int32_t disc_k = 0, hound_k = 0, hound_k2 = 0, deal_k = 0;
    int8_t disc_cards[78];
    for (int32_t k = 0, m = cs_count(sampled_disc); k < m; k++)
        disc_cards[k] = (int8_t)cs_nth(sampled_disc, k);
    cc_log_walk w = cc_log_walk_from(&s->log, 0); /* o's log holds the same slots */
    for (int32_t i = 0, slot; i < hidden_to && (slot = cc_log_walk_next(&w)) >= 0; i++) {
        cc_log_entry *e = &cc_log_entries(&o->log)[slot];
        if (e->seen_by & me) continue;
        if (i < deal_start) e->value = -1;
        else if (e->kind == CC_NANCY_EV_DISCARD) e->value = disc_cards[disc_k++];
        else if (after_take && e->kind == CC_NANCY_EV_HOUND)
            e->value = hound_k2 < n_hound ? hound_cards[hound_k2++] : -1;
        else if (after_take && e->kind == CC_NANCY_EV_DEAL && e->target == CC_NANCY_PLACE_HOUND)
            e->value = hound_k < n_hound ? hound_cards[hound_k++] : -1;
        else if (after_take && e->kind == CC_NANCY_EV_DEAL && e->target == CC_NANCY_PLACE_HAND &&
                 e->player == s->taker)
            e->value = deal_k < n_deal ? deal_cards[deal_k++] : -1;
        else if (e->value >= 0 && e->value < 78) e->value = sigma[e->value];
    }
    sort_hidden_deals(o, player, deal_start, hidden_to);
    return CC_OK;
}

int32_t cc_nancy_sample_infoset(const void *state, int32_t player, uint64_t seed, void *outp) {
    const cc_nancy_state *s = (const cc_nancy_state *)state;
    if (s == NULL || outp == NULL) return CC_E_ARG;
    nancy_prep P;
    int32_t rc = prepare(s, player, &P);
    if (rc != CC_OK) return rc;
    return draw(s, &P, seed, outp);
}

/* The scratch: the prepared position, then room for the count tables of
 * stage 3 (up to NANCY_CACHE_FULL entries) and stage 2 (NANCY_RELAX_TABLE);
 * a larger table is worked out for each draw, as cc_nancy_sample_infoset
 * does. */
#define NANCY_CACHE_FULL 65536
_Static_assert(sizeof(nancy_prep) <= CC_NANCY_SAMPLE_PREP_BYTES, "prepared position too large");
_Static_assert(CC_NANCY_SAMPLE_SCRATCH >=
                   CC_NANCY_SAMPLE_PREP_BYTES +
                       sizeof(double) * (NANCY_CACHE_FULL + NANCY_RELAX_TABLE),
               "scratch too small");

int32_t cc_nancy_sample_prepare(const void *state, int32_t player, void *scratch, size_t cap) {
    const cc_nancy_state *s = (const cc_nancy_state *)state;
    if (s == NULL || scratch == NULL) return CC_E_ARG;
    if (cap < CC_NANCY_SAMPLE_SCRATCH) return CC_E_CAPACITY;
    nancy_prep *P = (nancy_prep *)scratch;
    int32_t rc = prepare(s, player, P);
    if (rc != CC_OK) return rc;
    double *tables = (double *)(void *)((char *)scratch + CC_NANCY_SAMPLE_PREP_BYTES);
    P->full.f = tables;
    P->full.cap = NANCY_CACHE_FULL;
    P->rtab.f = tables + NANCY_CACHE_FULL;
    P->rtab.cap = NANCY_RELAX_TABLE;
    return CC_OK;
}

int32_t cc_nancy_sample_draw(const void *state, void *scratch, uint64_t seed, void *outp) {
    const cc_nancy_state *s = (const cc_nancy_state *)state;
    if (s == NULL || scratch == NULL || outp == NULL) return CC_E_ARG;
    return draw(s, (nancy_prep *)scratch, seed, outp);
}
