/* nancy_sample_deal.c: the deal stages of the Nancy information-set
 * sampler (nancy_sample.c describes them): stage 1's rejection, stage 2's
 * relaxed problem and stage 3's exact weighted assignment with its count
 * table.  The sampler (nancy_sample.c) prepares a position and calls these. */
#include <stdlib.h>

#include "nancy_internal.h"

#define SAMPLE_TABLE_MAX (1 << 22)
#define SAMPLE_TABLE_SMALL 8192

/* Fill G; return the count table's size, or -1 above SAMPLE_TABLE_MAX.
 * The largest group is digit 0 (the table's inner loop runs along it). */
int64_t cc_nancy_make_groups(const slot *sl, int32_t ns, int32_t weighted, sgroups *G) {
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
        int32_t t = G->gsize[0];
        G->gsize[0] = G->gsize[big];
        G->gsize[big] = t;
        t = G->gtaker[0];
        G->gtaker[0] = G->gtaker[big];
        G->gtaker[big] = t;
        cc_nancy_cards a = G->gallowed[0];
        G->gallowed[0] = G->gallowed[big];
        G->gallowed[big] = a;
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

/* 1 / i! for i = 0..79 (rounded to the nearest double). */
static const double invf[80] = {1,
                                1,
                                0.5,
                                0.16666666666666666,
                                0.041666666666666664,
                                0.0083333333333333332,
                                0.0013888888888888889,
                                0.00019841269841269841,
                                2.4801587301587302e-05,
                                2.7557319223985893e-06,
                                2.7557319223985888e-07,
                                2.505210838544172e-08,
                                2.08767569878681e-09,
                                1.6059043836821613e-10,
                                1.1470745597729725e-11,
                                7.6471637318198164e-13,
                                4.7794773323873853e-14,
                                2.8114572543455206e-15,
                                1.5619206968586225e-16,
                                8.2206352466243295e-18,
                                4.1103176233121648e-19,
                                1.9572941063391263e-20,
                                8.8967913924505741e-22,
                                3.8681701706306841e-23,
                                1.6117375710961184e-24,
                                6.4469502843844736e-26,
                                2.4795962632247976e-27,
                                9.183689863795546e-29,
                                3.2798892370698378e-30,
                                1.1309962886447716e-31,
                                3.7699876288159054e-33,
                                1.2161250415535179e-34,
                                3.8003907548547434e-36,
                                1.1516335620771951e-37,
                                3.3871575355211618e-39,
                                9.6775929586318907e-41,
                                2.6882202662866363e-42,
                                7.2654601791530714e-44,
                                1.911963205040282e-45,
                                4.9024697565135435e-47,
                                1.2256174391283858e-48,
                                2.9893108271424046e-50,
                                7.117406731291439e-52,
                                1.6552108677421951e-53,
                                3.7618428812322616e-55,
                                8.3596508471828045e-57,
                                1.817315401561479e-58,
                                3.866628513960594e-60,
                                8.0554760707512364e-62,
                                1.6439747083165791e-63,
                                3.287949416633158e-65,
                                6.4469596404571724e-67,
                                1.2397999308571486e-68,
                                2.3392451525606576e-70,
                                4.3319354677049218e-72,
                                7.8762463049180392e-74,
                                1.4064725544496498e-75,
                                2.4674957095607893e-77,
                                4.2543029475186022e-79,
                                7.2106829618959365e-81,
                                1.2017804936493226e-82,
                                1.9701319568021682e-84,
                                3.1776321883905942e-86,
                                5.0438606164930067e-88,
                                7.881032213270323e-90,
                                1.2124664943492804e-91,
                                1.8370704459837581e-93,
                                2.7418961880354601e-95,
                                4.0322002765227353e-97,
                                5.8437685166996161e-99,
                                8.3482407381423095e-101,
                                1.1758085546679308e-102,
                                1.6330674370387929e-104,
                                2.2370786808750587e-106,
                                3.023079298479809e-108,
                                4.0307723979730788e-110,
                                5.3036478920698401e-112,
                                6.8878544052855063e-114,
                                8.8305825708788554e-116,
                                1.1177952621365639e-117};

/* Stage 3: exact weighted assignment of pool[0..nu-1] to the slots (and,
 * with tries > 1, stage 2's draws from a relaxed problem).
 * gmask[k]: the groups admitting pool[k]; wmask[k]: those where it weighs
 * wt (the Taker's, for the weighted card), else 0. */
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
    int32_t rout = 0;   /* sum of digits 1.. */
    uint32_t nzout = 0; /* digits 1.. that are > 0 */
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
            if (r > nu) {
                row[o0] = 0.0;
                continue;
            } /* more room than cards */
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
static int32_t draw_deal(cc_rng *rng, slot *sl, int32_t ns, const sgroups *G, const uint8_t *pool,
                         const uint32_t *gmask, const uint32_t *wmask, int32_t nu, int32_t nfree,
                         double wt, int32_t tries, const double *f) {
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
            if (pick < 0)
                return CC_E_CAPACITY; /* unreachable while f[idx] > 0; never index with -1 */
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
                for (int32_t k = 0; k < sl[j].size; k++)
                    sl[j].cards[sl[j].got++] = (int8_t)gcards[g][pos++];
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
int32_t cc_nancy_exact_deal(cc_rng *rng, slot *sl, int32_t ns, const sgroups *G,
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
    double *f =
        tsize <= SAMPLE_TABLE_SMALL ? small : (double *)malloc((size_t)tsize * sizeof(double));
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

/* Stage 2's relaxed problem for G (its draws take no random number, so it
 * is worked out once per position): CC_OK, or 1 if stage 2 does not run. */
int32_t cc_nancy_relax_prepare(int32_t ns, const sgroups *G, const uint8_t *pool,
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
int32_t cc_nancy_reject_deal(cc_rng *rng, slot *sl, int32_t ns, uint8_t *pool, int32_t nu,
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
