/* pimc.c: determinized Monte Carlo (cc_bots.h, CC_BOT_PIMC): every legal
 * action of the searched state scored by rollouts in each of `samples`
 * determinizations; the best mean wins.  The determinizations are drawn by
 * the game's sampler (cc_pimc_run) or given with weights
 * (cc_pimc_run_worlds, cc_searcher_act_worlds): then each world's results
 * count with its weight and the best weighted mean wins. */
#include "search_internal.h"

/* ---- PIMC ---------------------------------------------------------------- */

/* The root within the solver's reach: each determinization solved once
 * (one solve values every action; it counts as nlegal simulations) until
 * the samples or the budget are spent, the values summed (margins over the
 * scale).  CC_E_CAPACITY: a solve was given up (the sums are partial). */
static int32_t pimc_solved(cc_searcher *s, const int32_t *acts, int32_t nlegal, int32_t ns,
                           const double *wts) {
    size_t ss = s->game->state_size;
    double values[CC_MAX_ACTIONS];
    double unit = s->solve_win != NULL ? 1.0 : s->inv_scale;
    double t0 = s->spec.seconds > 0.0 ? now_seconds() : 0.0;
    int64_t sims = 0;
    for (int32_t i = 0; i < ns && (i == 0 || !budget_spent(s, sims, t0)); i++) {
        const char *d = (const char *)s->dets + ss * (size_t)i;
        int32_t rc = cc_search_solve(s, d, values);
        if (rc != CC_OK) return rc;
        for (int32_t k = 0; k < nlegal; k++) {
            double v = values[acts[k]] * unit;
            s->sum[acts[k]] += wts ? wts[i] * v : v;
            s->wsum[acts[k]] += wts ? wts[i] : 1.0;
            s->count[acts[k]]++;
        }
        sims += nlegal;
    }
    s->last_sims = sims;
    return CC_OK;
}

/* Every determinization scores every action by rollouts, in rounds (the
 * last round stops where the budget does, part way if need be). */
static int32_t pimc_rollouts(cc_searcher *s, int32_t root, const int32_t *acts, int32_t nlegal,
                             int32_t ns, const double *wts, cc_rng *rng) {
    const cc_game *g = s->game;
    size_t ss = g->state_size;
    double t0 = s->spec.seconds > 0.0 ? now_seconds() : 0.0;
    double reward[CC_MAX_PLAYERS];
    int64_t sims = 0;
    while (!budget_spent(s, sims, t0)) {
        for (int32_t i = 0; i < ns && !budget_spent(s, sims, t0); i++) {
            const char *d = (const char *)s->dets + ss * (size_t)i;
            for (int32_t k = 0; k < nlegal && !budget_spent(s, sims, t0); k++) {
                memcpy(s->work, d, cc_game_used_size(g, d));
                int32_t rc = g->apply(s->work, acts[k]);
                if (rc != 0) return cc_status_error(rc, CC_E_ILLEGAL);
                rc = cc_search_rollout(s, s->work, rng, reward);
                if (rc != CC_OK) return rc;
                s->sum[acts[k]] += wts ? wts[i] * reward[root] : reward[root];
                s->wsum[acts[k]] += wts ? wts[i] : 1.0;
                s->count[acts[k]]++;
                sims++;
            }
        }
    }
    s->last_sims = sims;
    return CC_OK;
}

static void pimc_clear(cc_searcher *s, const int32_t *acts, int32_t nlegal) {
    for (int32_t i = 0; i < nlegal; i++) {
        s->sum[acts[i]] = 0.0;
        s->wsum[acts[i]] = 0.0;
        s->count[acts[i]] = 0;
    }
}

/* Score acts over the ns determinizations in s->dets (weights wts, NULL:
 * 1 each): solved where the searched state is within reach, else (or if
 * a solve is given up) by rollouts. */
static int32_t pimc_value(cc_searcher *s, const void *state, int32_t root, const int32_t *acts,
                          int32_t nlegal, int32_t ns, const double *wts, cc_rng *rng) {
    int32_t reach = s->spec.solve;
    if (reach == 0 || !in_reach(s, state))
        return pimc_rollouts(s, root, acts, nlegal, ns, wts, rng);
    int32_t rc = pimc_solved(s, acts, nlegal, ns, wts);
    if (rc != CC_E_CAPACITY) return rc;
    /* a solve given up: rollouts with the solver off, from scratch */
    pimc_clear(s, acts, nlegal);
    s->spec.solve = 0;
    rc = pimc_rollouts(s, root, acts, nlegal, ns, wts, rng);
    s->spec.solve = reach;
    return rc;
}

/* Score the nlegal actions acts by rollouts in s->sum and s->count. */
int32_t cc_pimc_run(cc_searcher *s, const void *state, int32_t root, const int32_t *acts,
                    int32_t nlegal, cc_rng *rng) {
    size_t ss = s->game->state_size;
    pimc_clear(s, acts, nlegal);
    s->weighted = 0;
    int32_t ns = s->spec.samples;
    cc_search_sampler_prepare(s, state, root);
    for (int32_t i = 0; i < ns; i++) {
        char *d = (char *)s->dets + ss * (size_t)i;
        int32_t rc = sample(s, state, root, cc_rng_next(rng), d);
        if (rc != CC_OK) return rc;
    }
    return pimc_value(s, state, root, acts, nlegal, ns, NULL, rng);
}

/* Score acts over the ns worlds already in s->dets, weighted by wts (each
 * > 0), in s->sum, s->wsum and s->count. */
int32_t cc_pimc_run_worlds(cc_searcher *s, const void *state, int32_t root, const int32_t *acts,
                           int32_t nlegal, int32_t ns, const double *wts, cc_rng *rng) {
    pimc_clear(s, acts, nlegal);
    s->weighted = 1;
    return pimc_value(s, state, root, acts, nlegal, ns, wts, rng);
}

/* The best mean of acts by s->sum and s->count (weighted: s->wsum). */
int32_t cc_pimc_choose(const cc_searcher *s, const int32_t *acts, int32_t nlegal, int32_t *action) {
    int32_t best = acts[0];
    double best_mean = -INFINITY;
    for (int32_t k = 0; k < nlegal; k++) {
        int32_t a = acts[k];
        if (s->count[a] == 0 && s->spec.reward != CC_REWARD_WIN) continue;
        double m = s->count[a] == 0 ? 0.0
                   : s->weighted    ? s->sum[a] / s->wsum[a]
                                    : s->sum[a] / (double)s->count[a];
        if (m > best_mean) {
            best_mean = m;
            best = a;
        }
    }
    *action = best;
    return CC_OK;
}
