/* rollout.c: what a simulation is worth and how it is played out
 * (cc_bots.h): the rewards (win by rank, margin, points), the deal
 * horizon and its win table, the rollout policies (random, the game's
 * heuristic, the policy hook) and the samplers' shared preparation. */
#include "search_internal.h"

int32_t cc_search_random_action(const cc_searcher *s, const void *state, cc_rng *rng,
                                int32_t *action) {
    uint64_t mask[CC_MASK_WORDS];
    int32_t n = legal(s, state, mask);
    if (n <= 0) return n < 0 ? n : CC_E_GAME_OVER;
    int32_t a = cc_mask_select(mask, s->nwords, (int32_t)cc_rng_below(rng, (uint64_t)n));
    if (a < 0) return CC_E_ARG;
    *action = a;
    return CC_OK;
}

/* The rollout policy's action: the game's heuristic if asked for and there
 * is one, else uniformly random. */
int32_t cc_search_policy_action(const cc_searcher *s, int32_t heuristic, const void *state,
                                cc_rng *rng, int32_t *action) {
    if (heuristic && s->game->heuristic != NULL) return s->game->heuristic(state, rng, action);
    return cc_search_random_action(s, state, rng, action);
}

/* Rewards by rank of the returns ret: (others with fewer points + half
 * the others with as many) / (nplayers - 1), in [0, 1]. */
static void rank_rewards(const cc_searcher *s, const int32_t *ret, double *reward) {
    int32_t n = s->nplayers;
    for (int32_t p = 0; p < n; p++) {
        int32_t below = 0, equal = 0;
        for (int32_t q = 0; q < n; q++) {
            if (q == p) continue;
            below += ret[q] < ret[p];
            equal += ret[q] == ret[p];
        }
        reward[p] = ((double)below + 0.5 * (double)equal) / (double)(n - 1);
    }
}

/* Rewards in points of the returns ret: the margin over the mean of the
 * others, or the points, over the scale. */
static void points_rewards(const cc_searcher *s, const int32_t *ret, double *reward) {
    int32_t n = s->nplayers;
    double sum = 0.0;
    for (int32_t p = 0; p < n; p++) sum += (double)ret[p];
    for (int32_t p = 0; p < n; p++) {
        double v = (double)ret[p];
        if (s->spec.reward == CC_REWARD_MARGIN) v -= (sum - v) / (double)(n - 1);
        reward[p] = v * s->inv_scale;
    }
}

/* Rewards of a finished game (spec.reward). */
static void final_rewards(const cc_searcher *s, const void *state, double *reward) {
    int32_t ret[CC_MAX_PLAYERS];
    s->game->returns(state, ret);
    if (s->spec.reward == CC_REWARD_WIN) rank_rewards(s, ret, reward);
    else points_rewards(s, ret, reward);
}

/* Rewards of a state past the searched deal, not finished: margin and
 * points from the returns; win from the win table (two players), else by
 * rank of the scores. */
static void deal_rewards(const cc_searcher *s, const void *state, double *reward) {
    int32_t ret[CC_MAX_PLAYERS];
    s->game->returns(state, ret);
    if (s->spec.reward != CC_REWARD_WIN) {
        points_rewards(s, ret, reward);
        return;
    }
    if (s->win == NULL || s->nplayers != 2) {
        rank_rewards(s, ret, reward);
        return;
    }
    int32_t d = 0, t = s->win_target;
    s->game->deal_index(state, &d);
    if (d < 0 || d > 1) d = 0;
    int32_t x = ret[d], y = ret[1 - d];
    x = x < 0 ? 0 : x >= t ? t - 1 : x;
    y = y < 0 ? 0 : y >= t ? t - 1 : y;
    double w = s->win[(size_t)x * (size_t)t + (size_t)y];
    reward[d] = w;
    reward[1 - d] = 1.0 - w;
}

/* The rewards of where a simulation stopped: finished, or past the deal. */
void cc_search_leaf_rewards(const cc_searcher *s, const void *state, double *reward) {
    if (s->game->current_player(state) == CC_PLAYER_TERMINAL) final_rewards(s, state, reward);
    else deal_rewards(s, state, reward);
}

/* A legal action for player from the policy hook (checked). */
static int32_t hook_policy(const cc_searcher *s, const void *state, int32_t player,
                           const uint64_t *mask, cc_rng *rng, int32_t *action) {
    int32_t rc = s->game->observe_tensor(state, player, s->obs);
    if (rc != CC_OK) return cc_status_error(rc, CC_E_ARG);
    int32_t a = -1;
    if (s->nets.rollout != NULL) rc = cc_net_rollout_action(s, s->obs, mask, rng, &a);
    else rc = s->hooks.policy(s->hooks.policy_ctx, s->obs, mask, player, &a);
    if (rc != CC_OK) return cc_status_error(rc, CC_E_HOOK);
    if (a < 0 || a >= s->num_actions || !((mask[a >> 6] >> (a & 63)) & 1)) return CC_E_ILLEGAL;
    *action = a;
    return CC_OK;
}

/* A rollout by the policy hook (or the rollout network, which draws from
 * rng). */
static int32_t hook_rollout(const cc_searcher *s, void *state, cc_rng *rng, double *reward) {
    const cc_game *g = s->game;
    int32_t sv = s->spec.solve > 0;
    int64_t steps = 0;
    for (;;) {
        int32_t cp = g->current_player(state);
        if (cp == CC_PLAYER_TERMINAL) break;
        if (cp < 0 || cp >= s->nplayers) return CC_E_ARG;
        if (past_horizon(s, state)) break;
        if (stop_requested(s)) return CC_E_STOPPED; /* another tree's hook failed */
        if (sv && in_reach(s, state)) {
            int32_t rc = cc_search_solve_play(s, state);
            if (rc == CC_E_CAPACITY) sv = 0; /* given up: the hook plays on */
            else if (rc != CC_OK) return rc;
            continue;
        }
        uint64_t mask[CC_MASK_WORDS];
        int32_t n = legal(s, state, mask);
        if (n <= 0) return CC_E_ARG;
        int32_t a;
        int32_t rc = hook_policy(s, state, cp, mask, rng, &a);
        if (rc != CC_OK) return rc;
        rc = g->apply(state, a);
        if (rc != 0) return cc_status_error(rc, CC_E_ILLEGAL);
        if (++steps > CC_BOT_ROLLOUT_LIMIT) return CC_E_ROLLOUT_LIMIT;
    }
    cc_search_leaf_rewards(s, state, reward);
    return CC_OK;
}

/* Play state to the end (of the game, or of the searched deal) with the
 * rollout policy; rewards per player. */
int32_t cc_search_rollout(const cc_searcher *s, void *state, cc_rng *rng, double *reward) {
    const cc_game *g = s->game;
    if (s->hooks.policy != NULL) return hook_rollout(s, state, rng, reward);
    int32_t heuristic = s->spec.rollout == CC_ROLLOUT_HEURISTIC && g->heuristic != NULL;
    const int32_t hz = s->horizon;
    int32_t sv = s->spec.solve > 0;
    int64_t steps = 0;
    for (;;) {
        int32_t a, rc;
        if (hz && past_horizon(s, state)) {
            if (g->current_player(state) == CC_PLAYER_TERMINAL) break;
            deal_rewards(s, state, reward);
            return CC_OK;
        }
        if (sv && in_reach(s, state)) {
            rc = cc_search_solve_play(s, state);
            if (rc == CC_E_CAPACITY) sv = 0; /* given up: the policy plays on */
            else if (rc != CC_OK) return rc;
            continue;
        }
        if (heuristic) {
            int32_t cp = g->current_player(state);
            if (cp == CC_PLAYER_TERMINAL) break;
            if (cp < 0 || cp >= s->nplayers) return CC_E_ARG;
            rc = g->heuristic(state, rng, &a);
        } else {
            /* no legal action: the end (the player to act is asked only then) */
            uint64_t mask[CC_MASK_WORDS];
            int32_t n = legal(s, state, mask);
            if (n <= 0) {
                if (n == 0 && g->current_player(state) == CC_PLAYER_TERMINAL) break;
                return CC_E_ARG;
            }
            if (4 * n >= s->num_actions) {
                /* dense: draw action ids until a legal one (uniform over
                 * the legal ones, at most 4 draws on average) */
                int32_t tries = 0;
                do {
                    a = (int32_t)rng_uniform(rng, (uint32_t)s->num_actions);
                } while (!((mask[a >> 6] >> (a & 63)) & 1) && ++tries < 64);
                if (tries == 64)
                    a = cc_mask_select(mask, s->nwords, (int32_t)rng_uniform(rng, (uint32_t)n));
            } else {
                a = cc_mask_select(mask, s->nwords, (int32_t)rng_uniform(rng, (uint32_t)n));
            }
            rc = a < 0 ? CC_E_ARG : CC_OK;
        }
        if (rc != CC_OK) return cc_status_error(rc, CC_E_ARG);
        rc = g->apply(state, a);
        if (rc != 0) return cc_status_error(rc, CC_E_ILLEGAL);
        if (++steps > CC_BOT_ROLLOUT_LIMIT) return CC_E_ROLLOUT_LIMIT;
    }
    final_rewards(s, state, reward);
    return CC_OK;
}

/* The solver's values of the legal actions of state (a state within
 * reach) into values, by the searcher's win table or in points;
 * CC_E_CAPACITY if the solve would pass CC_BOT_SOLVE_NODES positions (or
 * has no memory). */
int32_t cc_search_solve(const cc_searcher *s, const void *state, double *values) {
    int32_t rc = s->game->solve(state, s->solve_win, s->solve_target, CC_BOT_SOLVE_NODES, NULL,
                                values, NULL);
    return rc == CC_OK || rc == CC_E_CAPACITY ? rc : cc_status_error(rc, CC_E_ARG);
}

/* Play state on with the solver as every player's policy while it can take
 * the state: an action of the highest value for the player to act (ties:
 * the lowest id), a single legal action without a solve.  CC_E_CAPACITY:
 * a solve was given up, state is where it stopped. */
int32_t cc_search_solve_play(const cc_searcher *s, void *state) {
    const cc_game *g = s->game;
    double values[CC_MAX_ACTIONS];
    int32_t steps = 0;
    while (g->current_player(state) != CC_PLAYER_TERMINAL && g->solve_depth(state) >= 0) {
        uint64_t mask[CC_MASK_WORDS];
        int32_t n = legal(s, state, mask);
        if (n <= 0) return CC_E_ARG;
        int32_t a = cc_mask_select(mask, s->nwords, 0);
        if (n > 1) {
            int32_t rc = cc_search_solve(s, state, values);
            if (rc != CC_OK) return rc;
            double best = -INFINITY;
            for (int32_t w = 0; w < s->nwords; w++)
                for (uint64_t m = mask[w]; m; m &= m - 1) {
                    int32_t b = w * 64 + cc_ctz64(m);
                    if (values[b] > best) {
                        best = values[b];
                        a = b;
                    }
                }
        }
        if (a < 0) return CC_E_ARG;
        int32_t rc = g->apply(state, a);
        if (rc != 0) return cc_status_error(rc, CC_E_ILLEGAL);
        if (++steps > CC_BOT_ROLLOUT_LIMIT) return CC_E_ROLLOUT_LIMIT;
    }
    return CC_OK;
}

/* The samples of one search all come from the same position and player:
 * a game with a two-phase sampler does the work they share once, here
 * (cardcore.h: its draws are exactly sample_infoset's). */
void cc_search_sampler_prepare(cc_searcher *s, const void *state, int32_t root) {
    s->prepared =
        s->scratch != NULL &&
        s->game->sample_prepare(state, root, s->scratch, s->game->sample_scratch_size) == CC_OK;
}
