/* pimc.c: determinized Monte Carlo (cc_bots.h, CC_BOT_PIMC): every legal
 * action of the searched state scored by rollouts in each of `samples`
 * determinizations; the best mean wins. */
#include "search_internal.h"

/* ---- PIMC ---------------------------------------------------------------- */

/* The root within the solver's reach: each determinization solved once
 * (one solve values every action; it counts as nlegal simulations) until
 * the samples or the budget are spent, the values summed (margins over the
 * scale).  CC_E_CAPACITY: a solve was given up (the sums are partial). */
static int32_t pimc_solved(cc_searcher *s, const int32_t *acts, int32_t nlegal) {
    size_t ss = s->game->state_size;
    double values[CC_MAX_ACTIONS];
    double unit = s->solve_win != NULL ? 1.0 : s->inv_scale;
    double t0 = s->spec.seconds > 0.0 ? now_seconds() : 0.0;
    int64_t sims = 0;
    for (int32_t i = 0; i < s->spec.samples && (i == 0 || !budget_spent(s, sims, t0)); i++) {
        const char *d = (const char *)s->dets + ss * (size_t)i;
        int32_t rc = cc_search_solve(s, d, values);
        if (rc != CC_OK) return rc;
        for (int32_t k = 0; k < nlegal; k++) {
            s->sum[acts[k]] += values[acts[k]] * unit;
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
                             cc_rng *rng) {
    const cc_game *g = s->game;
    size_t ss = g->state_size;
    int32_t ns = s->spec.samples;
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
                s->sum[acts[k]] += reward[root];
                s->count[acts[k]]++;
                sims++;
            }
        }
    }
    s->last_sims = sims;
    return CC_OK;
}

/* Score the nlegal actions acts by rollouts in s->sum and s->count. */
int32_t cc_pimc_run(cc_searcher *s, const void *state, int32_t root, const int32_t *acts,
                    int32_t nlegal, cc_rng *rng) {
    size_t ss = s->game->state_size;
    for (int32_t i = 0; i < nlegal; i++) {
        s->sum[acts[i]] = 0.0;
        s->count[acts[i]] = 0;
    }
    int32_t ns = s->spec.samples;
    cc_search_sampler_prepare(s, state, root);
    for (int32_t i = 0; i < ns; i++) {
        char *d = (char *)s->dets + ss * (size_t)i;
        int32_t rc = sample(s, state, root, cc_rng_next(rng), d);
        if (rc != CC_OK) return rc;
    }
    int32_t reach = s->spec.solve;
    if (reach == 0 || !in_reach(s, state)) return pimc_rollouts(s, root, acts, nlegal, rng);
    int32_t rc = pimc_solved(s, acts, nlegal);
    if (rc != CC_E_CAPACITY) return rc;
    /* a solve given up: rollouts with the solver off, from scratch */
    for (int32_t i = 0; i < nlegal; i++) {
        s->sum[acts[i]] = 0.0;
        s->count[acts[i]] = 0;
    }
    s->spec.solve = 0;
    rc = pimc_rollouts(s, root, acts, nlegal, rng);
    s->spec.solve = reach;
    return rc;
}

/* The best mean of acts by s->sum and s->count. */
int32_t cc_pimc_choose(const cc_searcher *s, const int32_t *acts, int32_t nlegal, int32_t *action) {
    int32_t best = acts[0];
    double best_mean = -INFINITY;
    for (int32_t k = 0; k < nlegal; k++) {
        int32_t a = acts[k];
        if (s->count[a] == 0 && s->spec.reward != CC_REWARD_WIN) continue;
        double m = s->count[a] ? s->sum[a] / (double)s->count[a] : 0.0;
        if (m > best_mean) {
            best_mean = m;
            best = a;
        }
    }
    *action = best;
    return CC_OK;
}
