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

#define SLOT_MAX 20
#define SAMPLE_TABLE_MAX (1 << 22)
#define SAMPLE_TABLE_SMALL 8192
typedef struct slot {
    int32_t kind; /* 0 hand of q, 1 hound, 2 discards, 3 table pile (q, i) */
    int32_t q, i, size;
    int32_t taker_side; /* the Taker's hand or discards */
    cc_nancy_cards allowed;
    int8_t cards[40];
    int32_t got;
} slot;

/* Groups of slots for stages 2 and 3: slots that admit the same cards form one
 * group (the Taker's slots only among themselves when a card is weighted);
 * a group's remaining room is one digit of a mixed-radix index into the
 * count table. */
typedef struct sgroups {
    int32_t ng, group[SLOT_MAX], gsize[SLOT_MAX], gtaker[SLOT_MAX];
    cc_nancy_cards gallowed[SLOT_MAX];
    int64_t stride[SLOT_MAX + 1];
} sgroups;

/* Fill G; return the count table's size, or -1 above SAMPLE_TABLE_MAX.
 * The largest group is digit 0 (the table's inner loop runs along it). */
static int64_t make_groups(const slot *sl, int32_t ns, int32_t weighted, sgroups *G) {
    G->ng = 0;
    for (int32_t j = 0; j < ns; j++) {
        int32_t g = -1;
        for (int32_t h = 0; h < G->ng && g < 0; h++)
            if ((!weighted || (!G->gtaker[h] && !sl[j].taker_side)) &&
                G->gallowed[h].lo == sl[j].allowed.lo && G->gallowed[h].hi == sl[j].allowed.hi)
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
    int32_t big = 0;
    for (int32_t g = 1; g < G->ng; g++)
        if (G->gsize[g] > G->gsize[big]) big = g;
    if (big != 0) { /* swap groups 0 and big */
        int32_t t = G->gsize[0]; G->gsize[0] = G->gsize[big]; G->gsize[big] = t;
        t = G->gtaker[0]; G->gtaker[0] = G->gtaker[big]; G->gtaker[big] = t;
        cc_nancy_cards a = G->gallowed[0]; G->gallowed[0] = G->gallowed[big]; G->gallowed[big] = a;
        for (int32_t j = 0; j < ns; j++)
            G->group[j] = G->group[j] == 0 ? big : G->group[j] == big ? 0 : G->group[j];
    }
    G->stride[0] = 1;
    for (int32_t g = 0; g < G->ng; g++) {
        G->stride[g + 1] = G->stride[g] * (G->gsize[g] + 1);
        if (G->stride[g + 1] > SAMPLE_TABLE_MAX) return -1;
    }
    return G->stride[G->ng];
}

/* A uniform integer below n (1 <= n <= 2^32), exact (Lemire's multiply and
 * reject). */
static inline uint32_t below32(cc_rng *rng, uint32_t n) {
    uint64_t x = cc_rng_next(rng) >> 32;
    uint64_t m = x * n;
    if ((uint32_t)m < n) {
        uint32_t t = (uint32_t)(-n) % n;
        while ((uint32_t)m < t) {
            x = cc_rng_next(rng) >> 32;
            m = x * n;
        }
    }
    return (uint32_t)(m >> 32);
}

/* 1 / i! for i = 0..79 (rounded to the nearest double). */
static const double invf[80] = {
    1, 1, 0.5, 0.16666666666666666,
    0.041666666666666664, 0.0083333333333333332, 0.0013888888888888889, 0.00019841269841269841,
    2.4801587301587302e-05, 2.7557319223985893e-06, 2.7557319223985888e-07, 2.505210838544172e-08,
    2.08767569878681e-09, 1.6059043836821613e-10, 1.1470745597729725e-11, 7.6471637318198164e-13,
    4.7794773323873853e-14, 2.8114572543455206e-15, 1.5619206968586225e-16, 8.2206352466243295e-18,
    4.1103176233121648e-19, 1.9572941063391263e-20, 8.8967913924505741e-22, 3.8681701706306841e-23,
    1.6117375710961184e-24, 6.4469502843844736e-26, 2.4795962632247976e-27, 9.183689863795546e-29,
    3.2798892370698378e-30, 1.1309962886447716e-31, 3.7699876288159054e-33, 1.2161250415535179e-34,
    3.8003907548547434e-36, 1.1516335620771951e-37, 3.3871575355211618e-39, 9.6775929586318907e-41,
    2.6882202662866363e-42, 7.2654601791530714e-44, 1.911963205040282e-45, 4.9024697565135435e-47,
    1.2256174391283858e-48, 2.9893108271424046e-50, 7.117406731291439e-52, 1.6552108677421951e-53,
    3.7618428812322616e-55, 8.3596508471828045e-57, 1.817315401561479e-58, 3.866628513960594e-60,
    8.0554760707512364e-62, 1.6439747083165791e-63, 3.287949416633158e-65, 6.4469596404571724e-67,
    1.2397999308571486e-68, 2.3392451525606576e-70, 4.3319354677049218e-72, 7.8762463049180392e-74,
    1.4064725544496498e-75, 2.4674957095607893e-77, 4.2543029475186022e-79, 7.2106829618959365e-81,
    1.2017804936493226e-82, 1.9701319568021682e-84, 3.1776321883905942e-86, 5.0438606164930067e-88,
    7.881032213270323e-90, 1.2124664943492804e-91, 1.8370704459837581e-93, 2.7418961880354601e-95,
    4.0322002765227353e-97, 5.8437685166996161e-99, 8.3482407381423095e-101, 1.1758085546679308e-102,
    1.6330674370387929e-104, 2.2370786808750587e-106, 3.023079298479809e-108, 4.0307723979730788e-110,
    5.3036478920698401e-112, 6.8878544052855063e-114, 8.8305825708788554e-116, 1.1177952621365639e-117
};

/* Stage 3: exact weighted assignment of pool[0..nu-1] to the slots (and,
 * with tries > 1, stage 2's draws from a relaxed problem).
 * gmask[k]: the groups admitting pool[k]; wmask[k]: those where it weighs
 * wt (the Taker's, for the weighted card), else 0. */
/* A count table kept between draws from one position (the prepared
 * sampler's scratch): f has room for cap entries (f NULL: none, the table is
 * worked out for each draw); state 0 until it is filled, then CC_OK or the
 * error its counting found. */
typedef struct table_cache {
    double *f;
    int64_t cap;
    int32_t state;
} table_cache;

/* Stage 3's count table for G into f (stride[ng] entries): CC_OK, or
 * CC_E_CAPACITY if no deal is possible. */
static int32_t count_table(const sgroups *G, const uint32_t *gmask, const uint32_t *wmask,
                           int32_t nu, int32_t nfree, double wt, double *f) {
    const int32_t ng = G->ng;
    const int32_t *gsize = G->gsize;
    const int64_t *stride = G->stride;
    /* f[room] = weighted ways to deal the last sum(room) cards of the pool
     * into room, divided by nfree!; a child index is smaller, so ascending
     * order works.  The last nfree cards of the pool are free (every group
     * admits them, weight 1): for sum(room) == nfree, f is the multinomial
     * nfree! / prod(room!), and entries of a smaller sum are never needed.
     * The odometer runs over digits 1.., the inner loop along digit 0. */

    int32_t odo[SLOT_MAX] = {0};
    int32_t rout = 0;     /* sum of digits 1.. */
    uint32_t nzout = 0;   /* digits 1.. that are > 0 */
    int64_t base = 0;
    const int32_t g0 = gsize[0];
    int32_t st[SLOT_MAX]; /* strides, all below SAMPLE_TABLE_MAX */
    for (int32_t g = 0; g < ng; g++) st[g] = (int32_t)stride[g];
    for (;;) {
        double *row = f + base;
        int32_t o0 = nfree - rout;
        if (o0 <= g0) {
            if (o0 >= 0) {
                double v = invf[o0];
                for (int32_t g = 1; g < ng; g++) v *= invf[odo[g]];
                row[o0] = v;
                o0++;
            } else {
                o0 = 0;
            }
        }
        for (; o0 <= g0; o0++) {
            int32_t r = rout + o0;
            if (r > nu) { row[o0] = 0.0; continue; } /* more room than cards */
            int32_t k = nu - r;
            uint32_t m = gmask[k] & (nzout | (o0 > 0 ? 1u : 0u));
            uint32_t wm = wmask[k];
            const double *child = row + o0;
            double total = 0.0;
            if (wm == 0) {
                for (; m; m &= m - 1) total += child[-st[cc_ctz64(m)]];
            } else {
                for (; m; m &= m - 1) {
                    int32_t g = cc_ctz64(m);
                    total += (wm >> g & 1) ? wt * child[-st[g]] : child[-st[g]];
                }
            }
            row[o0] = total;
        }
        int32_t g = 1;
        while (g < ng && odo[g] == gsize[g]) {
            rout -= odo[g];
            base -= (int64_t)odo[g] * stride[g];
            odo[g] = 0;
            nzout &= ~(1u << g);
            g++;
        }
        if (g >= ng) break;
        odo[g]++;
        rout++;
        base += stride[g];
        nzout |= 1u << g;
    }
    int64_t top = 0;
    for (int32_t g = 0; g < ng; g++) top += (int64_t)gsize[g] * stride[g];
    return f[top] > 0.0 ? CC_OK : CC_E_CAPACITY;
}

/* Stage 3's draws from a filled count table f (up to `tries` of them for
 * stage 2): CC_OK, 1 if no relaxed deal fitted, or an error code. */
static int32_t draw_deal(cc_rng *rng, slot *sl, int32_t ns, const sgroups *G,
                         const uint8_t *pool, const uint32_t *gmask, const uint32_t *wmask,
                         int32_t nu, int32_t nfree, double wt, int32_t tries, const double *f) {
    const int32_t ng = G->ng;
    const int32_t *group = G->group, *gsize = G->gsize;
    const int64_t *stride = G->stride;
    int64_t top = 0;
    for (int32_t g = 0; g < ng; g++) top += (int64_t)gsize[g] * stride[g];
    for (int32_t t = 0; t < tries; t++) {
    int32_t cap[SLOT_MAX];
    int64_t idx = top;
    uint32_t open = 0;
    for (int32_t g = 0; g < ng; g++) {
        cap[g] = gsize[g];
        if (gsize[g] > 0) open |= 1u << g;
    }
    uint8_t gcards[SLOT_MAX][78];
    int32_t gcount[SLOT_MAX] = {0};
    for (int32_t k = 0; k < nu - nfree; k++) {
        int32_t c = pool[k], pick = -1;
        double terms[SLOT_MAX], total = 0.0;
        uint32_t m = gmask[k] & open, wm = wmask[k];
        for (uint32_t x = m; x; x &= x - 1) {
            int32_t g = cc_ctz64(x);
            double v = f[idx - stride[g]];
            terms[g] = (wm >> g & 1) ? wt * v : v;
            total += terms[g];
        }
        double u = (double)(cc_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0) * total;
        double cum = 0.0;
        for (uint32_t x = m; x; x &= x - 1) {
            int32_t g = cc_ctz64(x);
            if (terms[g] > 0.0) {
                cum += terms[g];
                pick = g;
                if (u < cum) break;
            }
        }
        if (pick < 0) return CC_E_CAPACITY; /* unreachable while f[idx] > 0; never index with -1 */
        gcards[pick][gcount[pick]++] = (uint8_t)c;
        if (--cap[pick] == 0) open &= ~(1u << pick);
        idx -= stride[pick];
    }
    /* the free cards: a uniform shuffle dealt into the rooms left */
    uint8_t fc[78];
    for (int32_t k = 0; k < nfree; k++) fc[k] = pool[nu - nfree + k];
    cc_rng_shuffle_u8(rng, fc, nfree);
    for (int32_t g = 0, at = 0; g < ng; g++)
        while (cap[g] > 0) {
            gcards[g][gcount[g]++] = fc[at++];
            cap[g]--;
        }
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
    /* with tries > 1 (a relaxed deal), keep it if every slot admits its cards */
    int32_t fits = 1;
    for (int32_t j = 0; j < ns && fits && tries > 1; j++)
        for (int32_t k = 0; k < sl[j].size; k++)
            if (!cs_has(sl[j].allowed, sl[j].cards[k])) {
                fits = 0;
                break;
            }
    if (fits) return CC_OK;
    }
    return 1; /* no relaxed deal fitted */
}

/* Stage 3 (and stage 2's draws, with tries > 1): the count table, from
 * tc if it has room (filled at its first use), else worked out here, then
 * the draws. */
static int32_t exact_deal(cc_rng *rng, slot *sl, int32_t ns, const sgroups *G,
                          const uint8_t *pool, const uint32_t *gmask, const uint32_t *wmask,
                          int32_t nu, int32_t nfree, double wt, int32_t tries, table_cache *tc) {
    int64_t tsize = G->stride[G->ng];
    if (tsize < 0 || tsize > SAMPLE_TABLE_MAX) return CC_E_CAPACITY;
    if (G->ng == 0) return CC_OK; /* nothing unknown */
    if (tc != NULL && tc->f != NULL && tsize <= tc->cap) {
        if (tc->state == 0) {
            int32_t rc = count_table(G, gmask, wmask, nu, nfree, wt, tc->f);
            tc->state = rc == CC_OK ? 1 : rc;
        }
        if (tc->state != 1) return tc->state;
        return draw_deal(rng, sl, ns, G, pool, gmask, wmask, nu, nfree, wt, tries, tc->f);
    }
    double small[SAMPLE_TABLE_SMALL];
    double *f = tsize <= SAMPLE_TABLE_SMALL ? small : (double *)malloc((size_t)tsize * sizeof(double));
    if (f == NULL) return CC_E_CAPACITY;
    int32_t rc = count_table(G, gmask, wmask, nu, nfree, wt, f);
    if (rc == CC_OK) rc = draw_deal(rng, sl, ns, G, pool, gmask, wmask, nu, nfree, wt, tries, f);
    if (f != small) free(f);
    return rc;
}

/* Stage 2, for large count tables without a weighted card: rejection from
 * a relaxed problem.  Groups are merged in pairs (the pair whose admitted
 * cards differ least) until the count table has at most NANCY_RELAX_TABLE
 * entries; a merged group admits the union of its parts' cards.  A deal is
 * drawn exactly from the relaxed problem (uniform over its deals: the
 * cards of a merged group are split among its slots uniformly) and kept if
 * every slot admits its cards: then it is uniform over the real deals.  The
 * number of tries is fixed before the first (a share of the full table's
 * cost).  CC_OK if a deal was kept, 1 if not, or an error code. */
#ifndef NANCY_RELAX_ABOVE /* (overridden by tests/c/nancy_sampler_relaxed.c) */
#define NANCY_RELAX_ABOVE 32768
#endif
#ifndef NANCY_RELAX_TABLE
#define NANCY_RELAX_TABLE 32768
#endif
typedef struct relaxed {
    sgroups R;
    uint8_t order[78];
    uint32_t gm[78], wm[78];
    int32_t nfree, tries;
} relaxed;

/* Stage 2's relaxed problem for G (its draws take no random number, so it
 * is worked out once per position): CC_OK, or 1 if stage 2 does not run. */
static int32_t relax_prepare(int32_t ns, const sgroups *G, const uint8_t *pool,
                             const uint32_t *gmask, int32_t nu, int64_t tsize, relaxed *X) {
    int32_t ng = G->ng, par[SLOT_MAX], alive[SLOT_MAX], sz[SLOT_MAX];
    cc_nancy_cards al[SLOT_MAX];
    for (int32_t g = 0; g < ng; g++) {
        par[g] = g;
        alive[g] = 1;
        sz[g] = G->gsize[g];
        al[g] = G->gallowed[g];
    }
    for (int32_t merges = 0;; merges++) {
        int64_t prod = 1, left = 0;
        for (int32_t g = 0; g < ng; g++)
            if (alive[g]) prod *= sz[g] + 1, left++;
#ifdef NANCY_RELAX_MERGES /* tests: exactly this many merges (while 2 groups are left) */
        if (merges == NANCY_RELAX_MERGES || left < 2) break;
#else
        if (prod <= NANCY_RELAX_TABLE) break;
#endif
        int32_t ba = -1, bb = -1, best = 1 << 30;
        for (int32_t a = 0; a < ng; a++)
            for (int32_t b = a + 1; b < ng; b++) {
                if (!alive[a] || !alive[b]) continue;
                int32_t d = 2 * cs_count(cs_or(al[a], al[b])) - cs_count(al[a]) - cs_count(al[b]);
                if (d < best) {
                    best = d;
                    ba = a;
                    bb = b;
                }
            }
        if (ba < 0) return 1;
        al[ba] = cs_or(al[ba], al[bb]);
        sz[ba] += sz[bb];
        alive[bb] = 0;
        for (int32_t g = 0; g < ng; g++)
            if (par[g] == bb) par[g] = ba;
    }
    sgroups R;
    int32_t map[SLOT_MAX];
    R.ng = 0;
    for (int32_t g = 0; g < ng; g++)
        if (alive[g]) {
            map[g] = R.ng;
            R.gsize[R.ng] = sz[g];
            R.gtaker[R.ng] = 0;
            R.gallowed[R.ng] = al[g];
            R.ng++;
        }
    for (int32_t j = 0; j < ns; j++) R.group[j] = map[par[G->group[j]]];
    R.stride[0] = 1;
    for (int32_t g = 0; g < R.ng; g++) R.stride[g + 1] = R.stride[g] * (R.gsize[g] + 1);
    int64_t tsize2 = R.stride[R.ng];
    /* the pool with the relaxed masks, the cards every merged group admits last */
    uint8_t *order = X->order;
    uint32_t *gm = X->gm, *wm = X->wm;
    uint32_t allr = (1u << R.ng) - 1;
    int32_t nc = 0, nfree = 0;
    for (int32_t pass = 0; pass < 2; pass++)
        for (int32_t k = 0; k < nu; k++) {
            uint32_t m = 0;
            for (uint32_t x = gmask[k]; x; x &= x - 1) m |= 1u << map[par[cc_ctz64(x)]];
            if ((m == allr) != pass) continue;
            order[nc] = pool[k];
            gm[nc] = m;
            wm[nc] = 0;
            nc++;
            nfree += pass;
        }
    /* tries: about half the full table's work, less the relaxed table's */
    int64_t work = tsize * ng / 4 - tsize2 * R.ng / 2;
    int64_t tries = work / ((int64_t)nu * R.ng + 32);
#ifdef NANCY_RELAX_TRIES
    tries = NANCY_RELAX_TRIES;
#endif
    if (tries < 4) return 1;
    if (tries > 100000) tries = 100000;
    X->R = R;
    X->nfree = nfree;
    X->tries = (int32_t)tries;
    return CC_OK;
}

/* Stage 1: rejection.  A uniform random deal is built position by position
 * (a Fisher-Yates step per position, the most constrained slots first) and
 * dropped at the first card its slot does not admit; a complete deal is
 * kept (with probability H / M when the weighted card went to the Taker).
 * Tries go on until one is kept or `budget` card draws are spent (checked
 * between tries only, so a kept deal is exactly distributed).  1 if kept. */
static int32_t reject_deal(cc_rng *rng, slot *sl, int32_t ns, uint8_t *pool, int32_t nu,
                           const uint32_t *smask_of_card, int32_t wcard, int32_t H, int32_t M,
                           int64_t budget) {
    int32_t order[SLOT_MAX];
    int32_t free_of[SLOT_MAX];
    for (int32_t j = 0; j < ns; j++) {
        order[j] = j;
        free_of[j] = cs_count(sl[j].allowed);
    }
    /* tightest first: fewest admitted cards per place */
    for (int32_t a = 1; a < ns; a++)
        for (int32_t b = a; b > 0; b--) {
            int32_t x = order[b - 1], y = order[b];
            if ((int64_t)free_of[y] * sl[x].size < (int64_t)free_of[x] * sl[y].size) {
                order[b - 1] = y;
                order[b] = x;
            } else {
                break;
            }
        }
    uint8_t pos_slot[78];
    int32_t at = 0;
    for (int32_t a = 0; a < ns; a++)
        for (int32_t k = 0; k < sl[order[a]].size; k++) pos_slot[at++] = (uint8_t)order[a];
    while (budget > 0) {
        int32_t pos = 0;
        for (; pos < nu; pos++) {
            int32_t j = pos + (int32_t)below32(rng, (uint32_t)(nu - pos));
            uint8_t c = pool[j];
            pool[j] = pool[pos];
            pool[pos] = c;
            if (!(smask_of_card[c] >> pos_slot[pos] & 1)) break;
        }
        budget -= pos + 1;
        if (pos < nu) continue;
        at = 0;
        int32_t in_taker = 0;
        for (int32_t a = 0; a < ns; a++) {
            slot *x = &sl[order[a]];
            x->got = 0;
            for (int32_t k = 0; k < x->size; k++) {
                int32_t c = pool[at++];
                if (c == wcard && x->taker_side) in_taker = 1;
                x->cards[x->got++] = (int8_t)c;
            }
        }
        if (!in_taker || (int32_t)below32(rng, (uint32_t)M) < H) return 1;
    }
    return 0;
}

/* sigma[c] for c in real: the k-th card of real (ascending) goes to the k-th
 * of sampled (equal counts).  Only the relative order of the hidden cards in
 * the log survives, which is uniform whatever they are, so the sample's log
 * tells nothing of the real cards; and resampling a sample relabels its log
 * exactly as resampling the real state does. */
static void relabel(int8_t *sigma, cc_nancy_cards real, cc_nancy_cards sampled) {
    int32_t m = cs_count(real);
    for (int32_t k = 0; k < m; k++) {
        int32_t a = cs_nth(real, 0), b = cs_nth(sampled, 0);
        sigma[a] = (int8_t)b;
        cs_del(&real, a);
        cs_del(&sampled, b);
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
    uint8_t pool[78];  /* ascending (stage 1 shuffles a copy) */
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
    for (uint64_t u = unknown.hi & CC_NANCY_TRUMPS_HI; u; u &= u - 1) pool[nu++] = (uint8_t)(55 + cc_ctz64(u));
    if (unknown.hi & 1) pool[nu++] = CC_NANCY_OUTSIDER;
    sgroups *G = &P->G;
    int64_t tsize = make_groups(sl, ns, wcard >= 0, G);
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
    int64_t budget = tsize < 0                                  ? ((int64_t)1 << 24)
                     : tsize <= 512                               ? 0
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
               relax_prepare(ns, G, P->order, P->gm2, nu, tsize, &P->X) == CC_OK;
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
    int32_t ok = P->budget > 0 &&
                 reject_deal(rng, sl, ns, pool, nu, P->smask, P->wcard, P->H, P->M, P->budget);
    if (!ok) {
        if (P->tsize < 0) return CC_E_CAPACITY;
        int32_t rc = 1;
        if (P->relax)
            rc = exact_deal(rng, sl, ns, &P->X.R, P->X.order, P->X.gm, P->X.wm, nu, P->X.nfree,
                            1.0, P->X.tries, &P->rtab);
        if (rc == 1)
            rc = exact_deal(rng, sl, ns, &P->G, P->order, P->gm2, P->wm2, nu, P->nfree, P->wt, 1,
                            &P->full);
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
    /* the log from the current deal's first event (earlier deals are over);
     * events from hidden_end on are seen by all and stay as they are */
    int32_t kept = cc_log_kept(&s->log);
    const int64_t first = s->log.total - kept; /* the first kept event's number */
    const int32_t ring0 = (int32_t)(first % CC_NANCY_LOG_CAP); /* its entry */
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
        took2 = cs_or(cs_or(cs_andnot(s->took, cs_or(s->hand[s->taker], hidden_disc)), t_hand), sampled_disc);
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
            if (need > m) return CC_E_CAPACITY; /* unreachable: the state is consistent */
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
            o->pile[CC_NANCY_PILE_NANCY] = cs_or(cs_andnot(o->pile[CC_NANCY_PILE_NANCY], hidden_disc), set);
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
    /* the log: what `player` did not see becomes the sample's cards; values
     * of earlier deals he never saw read -1 */
    uint32_t me = 1u << player;
    int32_t disc_k = 0, hound_k = 0, hound_k2 = 0, deal_k = 0;
    int8_t disc_cards[78];
    for (int32_t k = 0, m = cs_count(sampled_disc); k < m; k++) disc_cards[k] = (int8_t)cs_nth(sampled_disc, k);
    for (int32_t i = 0; i < hidden_to; i++) {
        int32_t at = ring0 + i;
        cc_log_entry *e = &o->log_entries[at >= CC_NANCY_LOG_CAP ? at - CC_NANCY_LOG_CAP : at];
        if (e->seen_by & me) continue;
        if (i < deal_start)
            e->value = -1;
        else if (e->kind == CC_NANCY_EV_DISCARD)
            e->value = disc_cards[disc_k++];
        else if (after_take && e->kind == CC_NANCY_EV_HOUND)
            e->value = hound_k2 < n_hound ? hound_cards[hound_k2++] : -1;
        else if (after_take && e->kind == CC_NANCY_EV_DEAL && e->target == CC_NANCY_PLACE_HOUND)
            e->value = hound_k < n_hound ? hound_cards[hound_k++] : -1;
        else if (after_take && e->kind == CC_NANCY_EV_DEAL && e->target == CC_NANCY_PLACE_HAND &&
                 e->player == s->taker)
            e->value = deal_k < n_deal ? deal_cards[deal_k++] : -1;
        else if (e->value >= 0 && e->value < 78)
            e->value = sigma[e->value];
    }
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
_Static_assert(CC_NANCY_SAMPLE_SCRATCH >= CC_NANCY_SAMPLE_PREP_BYTES +
                   sizeof(double) * (NANCY_CACHE_FULL + NANCY_RELAX_TABLE), "scratch too small");

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
