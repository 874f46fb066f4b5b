/* ismcts.c: single-observer information-set MCTS (cc_bots.h,
 * CC_BOT_ISMCTS; Cowling, Powley and Whitehouse 2012) with UCT or PUCT
 * (the priors hook), availability counts, rollouts or the batched leaf
 * evaluator. */
#include "search_internal.h"

/* ln(x) for x >= 1 from exactly rounded operations only (frexp, +, -, *,
 * /), so that UCB values, and the search, are the same on every platform
 * (a libm log may differ in the last bit between platforms).  x = m * 2^e
 * with m in [sqrt(1/2), sqrt(2)); ln m = 2 atanh(s), s = (m - 1) / (m + 1),
 * |s| < 0.172, by its series to s^19 (error below 1e-16). */
static double ln_exact(double x) {
    int e;
    double m = frexp(x, &e);
    if (m < 0.70710678118654752440) {
        m *= 2.0;
        e--;
    }
    double s = (m - 1.0) / (m + 1.0), s2 = s * s;
    double p = 1.0 / 19.0;
    p = 1.0 / 17.0 + s2 * p;
    p = 1.0 / 15.0 + s2 * p;
    p = 1.0 / 13.0 + s2 * p;
    p = 1.0 / 11.0 + s2 * p;
    p = 1.0 / 9.0 + s2 * p;
    p = 1.0 / 7.0 + s2 * p;
    p = 1.0 / 5.0 + s2 * p;
    p = 1.0 / 3.0 + s2 * p;
    return 2.0 * s + 2.0 * s * (s2 * p) + (double)e * 0.69314718055994530942;
}

/* ---- ISMCTS ------------------------------------------------------------------ */

/* The priors hook's normalized priors of the legal actions of det for cp
 * into s->pri (uniform if they sum to 0 or less). */
static int32_t hook_priors(cc_searcher *s, const void *det, int32_t cp, const uint64_t *mask,
                           int32_t n) {
    int32_t rc = s->game->observe_tensor(det, cp, s->obs);
    if (rc != CC_OK) return cc_status_error(rc, CC_E_ARG);
    for (int32_t a = 0; a < s->num_actions; a++) s->pri[a] = 0.0;
    rc = s->hooks.priors(s->hooks.priors_ctx, s->obs, mask, cp, s->pri);
    if (rc != CC_OK) return cc_status_error(rc, CC_E_HOOK);
    double sum = 0.0;
    for (int32_t w = 0; w < s->nwords; w++)
        for (uint64_t m = mask[w]; m; m &= m - 1) {
            double v = s->pri[w * 64 + cc_ctz64(m)];
            if (!(v >= 0.0 && v <= 1e300)) return CC_E_HOOK; /* negative, NaN or inf */
            sum += v;
        }
    for (int32_t w = 0; w < s->nwords; w++)
        for (uint64_t m = mask[w]; m; m &= m - 1) {
            int32_t a = w * 64 + cc_ctz64(m);
            s->pri[a] = sum > 0.0 ? s->pri[a] / sum : 1.0 / (double)n;
        }
    return CC_OK;
}

/* Select and expand from the root in a fresh determinization (s->det):
 * *leaf gets the node reached, det its state. */
static int32_t ismcts_select(cc_searcher *s, const void *state, int32_t root, cc_rng *rng,
                             int32_t *leaf) {
    const cc_game *g = s->game;
    void *det = s->det;
    node *nodes = s->nodes;
    edge *edges = s->edges;
    const double c = s->spec.exploration;
    const int32_t nw = s->nwords;
    const float *prior = s->prior; /* NULL: UCT */
    int32_t rc = sample(s, state, root, cc_rng_next(rng), det);
    if (rc != CC_OK) return rc;
    int32_t cur = 0;
    for (;;) {
        int32_t cp = g->current_player(det);
        if (cp == CC_PLAYER_TERMINAL) break;
        if (cp < 0 || cp >= s->nplayers) return CC_E_ARG;
        if (s->horizon && past_horizon(s, det)) break;
        uint64_t mask[CC_MASK_WORDS];
        int32_t n = legal(s, det, mask);
        if (n <= 0) return CC_E_ARG;
        uint64_t all[CC_MASK_WORDS];
        if (prior != NULL) memcpy(all, mask, sizeof(uint64_t) * (size_t)nw);
        /* mask keeps the untried actions: children's actions are cleared */
        int32_t best = -1, navail = 0;
        double best_v = -INFINITY;
        for (int32_t ch = nodes[cur].first_child; ch >= 0; ch = edges[ch].next_sibling) {
            int32_t a = edges[ch].action;
            uint64_t bit = (uint64_t)1 << (a & 63);
            if (!(mask[a >> 6] & bit)) continue;
            mask[a >> 6] &= ~bit;
            navail++;
            node *x = &nodes[ch];
            x->avail++;
            double v;
            if (prior == NULL)
                v = x->total / (double)x->visits +
                    c * sqrt(ln_exact((double)x->avail) / (double)x->visits);
            else
                v = x->total / (double)x->visits +
                    c * (double)prior[ch] * sqrt((double)x->avail) / (1.0 + (double)x->visits);
            if (v > best_v) {
                best_v = v;
                best = ch;
            }
        }
        int32_t untried = n - navail;
        if (untried > 0 && s->used_nodes < s->cap_nodes) {
            int32_t a;
            if (prior == NULL) {
                a = cc_mask_select(mask, nw, (int32_t)rng_uniform(rng, (uint32_t)untried));
            } else {
                /* the untried action of highest prior (ties: the lowest id) */
                rc = hook_priors(s, det, cp, all, n);
                if (rc != CC_OK) return rc;
                a = -1;
                for (int32_t w = 0; w < nw; w++)
                    for (uint64_t m = mask[w]; m; m &= m - 1) {
                        int32_t b = w * 64 + cc_ctz64(m);
                        if (a < 0 || s->pri[b] > s->pri[a]) a = b;
                    }
            }
            if (a < 0) return CC_E_ARG;
            int32_t ch = s->used_nodes++;
            node *x = &nodes[ch];
            x->parent = cur;
            x->first_child = -1;
            x->visits = 0;
            x->avail = 1;
            x->total = 0.0;
            edges[ch].next_sibling = nodes[cur].first_child;
            edges[ch].action = (int16_t)a;
            edges[ch].player = (int16_t)cp;
            if (prior != NULL) s->prior[ch] = (float)s->pri[a];
            nodes[cur].first_child = ch;
            rc = g->apply(det, a);
            if (rc != 0) return cc_status_error(rc, CC_E_ILLEGAL);
            cur = ch;
            break;
        }
        if (best < 0) break; /* the pool is full: roll out from here */
        rc = g->apply(det, edges[best].action);
        if (rc != 0) return cc_status_error(rc, CC_E_ILLEGAL);
        cur = best;
    }
    *leaf = cur;
    return CC_OK;
}

static inline void backup(cc_searcher *s, int32_t leaf, const double *reward, int32_t visit) {
    node *nodes = s->nodes;
    for (int32_t x = leaf; x > 0; x = nodes[x].parent) {
        nodes[x].visits += (uint32_t)visit;
        nodes[x].total += reward[s->edges[x].player];
    }
    nodes[0].visits += (uint32_t)visit;
}

/* The evaluator's values of the waiting leaves, backed up (their visits
 * were counted when they were queued). */
static int32_t flush_leaves(cc_searcher *s) {
    int32_t nb = s->nbatch;
    if (nb == 0) return CC_OK;
    s->nbatch = 0;
    int32_t rc =
        s->hooks.evaluate(s->hooks.evaluate_ctx, nb, s->obs, s->bmasks, s->bplayers, s->bvalues);
    if (rc != CC_OK) return cc_status_error(rc, CC_E_HOOK);
    for (int32_t i = 0; i < nb; i++) {
        const double *v = s->bvalues + (size_t)i * (size_t)s->nplayers;
        for (int32_t p = 0; p < s->nplayers; p++)
            if (!(v[p] >= -1e300 && v[p] <= 1e300)) return CC_E_HOOK; /* NaN or inf */
        backup(s, s->bleaf[i], v, 0);
    }
    return CC_OK;
}

/* One iteration: determinize, select/expand, roll out (or queue the leaf
 * for the evaluator), back up. */
static int32_t ismcts_iteration(cc_searcher *s, const void *state, int32_t root, cc_rng *rng) {
    int32_t cur = 0;
    int32_t rc = ismcts_select(s, state, root, rng, &cur);
    if (rc != CC_OK) return rc;
    double reward[CC_MAX_PLAYERS];
    void *det = s->det;
    if (s->hooks.evaluate != NULL && !(s->spec.solve > 0 && in_reach(s, det))) {
        int32_t cp = s->game->current_player(det);
        if (cp == CC_PLAYER_TERMINAL || past_horizon(s, det)) {
            cc_search_leaf_rewards(s, det, reward);
            backup(s, cur, reward, 1);
            return CC_OK;
        }
        int32_t i = s->nbatch;
        rc = s->game->observe_tensor(det, cp, s->obs + (size_t)i * (size_t)s->tensor_size);
        if (rc != CC_OK) return cc_status_error(rc, CC_E_ARG);
        uint64_t *m = s->bmasks + (size_t)i * CC_MASK_WORDS;
        memset(m, 0, sizeof(uint64_t) * CC_MASK_WORDS);
        s->game->legal_actions(det, m);
        s->bplayers[i] = cp;
        s->bleaf[i] = cur;
        for (int32_t p = 0; p < s->nplayers; p++) reward[p] = 0.0;
        backup(s, cur, reward, 1); /* a virtual visit until the value comes */
        s->nbatch = i + 1;
        if (s->nbatch == s->hooks.batch) {
            rc = flush_leaves(s);
            if (rc != CC_OK) return rc;
        }
        if (s->leaf_weight < 1.0) {
            /* a value network's leaf mixed with the rollout: the network's
             * share came scaled by leaf_weight, the rollout's is the rest */
            rc = cc_search_rollout(s, det, rng, reward);
            if (rc != CC_OK) return rc;
            for (int32_t p = 0; p < s->nplayers; p++) reward[p] *= 1.0 - s->leaf_weight;
            backup(s, cur, reward, 0);
        }
        return CC_OK;
    }
    rc = cc_search_rollout(s, det, rng, reward);
    if (rc != CC_OK) return rc;
    backup(s, cur, reward, 1);
    return CC_OK;
}

/* Build the tree of state for root within the budget. */
int32_t cc_ismcts_tree(cc_searcher *s, const void *state, int32_t root, cc_rng *rng) {
    node *r = &s->nodes[0];
    r->parent = -1;
    r->first_child = -1;
    r->visits = 0;
    r->avail = 0;
    r->total = 0.0;
    s->edges[0].next_sibling = -1;
    s->edges[0].action = -1;
    s->edges[0].player = -1;
    s->used_nodes = 1;
    s->nbatch = 0;
    cc_search_sampler_prepare(s, state, root);
    double t0 = s->spec.seconds > 0.0 ? now_seconds() : 0.0;
    int64_t sims = 0;
    while (!budget_spent(s, sims, t0)) {
        int32_t rc = ismcts_iteration(s, state, root, rng);
        if (rc != CC_OK) return rc;
        sims++;
    }
    int32_t rc = s->hooks.evaluate != NULL ? flush_leaves(s) : CC_OK;
    s->last_sims = sims;
    s->last_nodes = s->used_nodes;
    return rc;
}

/* The most visited root action; ties: the better mean, then the lower id. */
int32_t cc_ismcts_choose(const cc_searcher *s, int32_t *action) {
    const node *r = &s->nodes[0];
    int32_t best = -1;
    for (int32_t ch = r->first_child; ch >= 0; ch = s->edges[ch].next_sibling) {
        const node *x = &s->nodes[ch];
        if (best < 0) {
            best = ch;
            continue;
        }
        const node *b = &s->nodes[best];
        double mx = x->total * (double)b->visits, mb = b->total * (double)x->visits;
        if (x->visits > b->visits ||
            (x->visits == b->visits &&
             (mx > mb || (mx == mb && s->edges[ch].action < s->edges[best].action))))
            best = ch;
    }
    if (best < 0) return CC_E_ARG; /* no simulation ran (cannot happen: budget >= 1) */
    *action = s->edges[best].action;
    return CC_OK;
}
