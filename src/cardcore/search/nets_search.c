/* nets_search.c: networks inside the search (cc_bots.h, cc_searcher_set_nets)
 * and the network bot (CC_BOT_NET).  The networks become the searcher's
 * hooks, C functions whose context is the searcher that owns them (the
 * trees of a root-parallel search share it: it is read only while they
 * search); every buffer they use is on the stack. */
#include "search_internal.h"

/* e^x for x <= 0 from exactly rounded operations only (floor, ldexp, +, -,
 * *), so that priors, and the search, are the same on every platform: x =
 * (k + f) ln 2 with f in [0, 1), e^(f ln 2) by its Taylor series to the
 * 13th power (error below 1e-12 of the value). */
static double exp_exact(double x) {
    if (!(x > -700.0)) return 0.0;
    double t = x * 1.44269504088896340736; /* log2(e) */
    double k = floor(t);
    double g = (t - k) * 0.69314718055994530942; /* in [0, ln 2) */
    double p = 1.0;
    for (int i = 13; i >= 1; i--) p = 1.0 + p * g / (double)i;
    return ldexp(p, (int)k);
}

/* The legal action of the highest policy output (ties: the lowest id), or
 * -1 if the mask is empty. */
static int32_t argmax_legal(const float *policy, const uint64_t *mask, int32_t nwords) {
    int32_t best = -1;
    for (int32_t w = 0; w < nwords; w++)
        for (uint64_t m = mask[w]; m; m &= m - 1) {
            int32_t a = w * 64 + cc_ctz64(m);
            if (best < 0 || policy[a] > policy[best]) best = a;
        }
    return best;
}

/* The rollout network as a policy hook: the greedy action.  A searcher's
 * own rollouts never call it (hook_policy in rollout.c draws by
 * cc_net_rollout_action when nets.rollout is set); it marks the searcher
 * as rolling out by a policy, and answers a host that calls the hook. */
static int32_t net_policy_hook(void *ctx, const float *obs, const uint64_t *mask, int32_t player,
                               int32_t *action) {
    const cc_searcher *s = (const cc_searcher *)ctx;
    float policy[CC_MAX_ACTIONS];
    (void)player;
    int32_t rc = cc_net_evaluate(s->nets.rollout, CC_NET_PATH_AUTO, 1, obs, policy, NULL);
    if (rc != CC_OK) return rc;
    int32_t a = argmax_legal(policy, mask, s->nwords);
    if (a < 0) return CC_E_ARG;
    *action = a;
    return CC_OK;
}

/* The rollout network's action: drawn from the softmax of its policy over
 * the legal actions (a greedy rollout could loop for ever where a game can
 * cycle). */
int32_t cc_net_rollout_action(const cc_searcher *s, const float *obs, const uint64_t *mask,
                              cc_rng *rng, int32_t *action) {
    float policy[CC_MAX_ACTIONS];
    int32_t rc = cc_net_evaluate(s->nets.rollout, CC_NET_PATH_AUTO, 1, obs, policy, NULL);
    if (rc != CC_OK) return rc;
    int32_t top = argmax_legal(policy, mask, s->nwords);
    if (top < 0) return CC_E_ARG;
    double total = 0.0;
    for (int32_t w = 0; w < s->nwords; w++)
        for (uint64_t m = mask[w]; m; m &= m - 1) {
            int32_t a = w * 64 + cc_ctz64(m);
            total += exp_exact((double)policy[a] - (double)policy[top]);
        }
    /* a uniform draw in [0, total): 53 random bits */
    double u = (double)(cc_rng_next_inline(rng) >> 11) * 0x1.0p-53 * total;
    int32_t last = top;
    for (int32_t w = 0; w < s->nwords; w++)
        for (uint64_t m = mask[w]; m; m &= m - 1) {
            int32_t a = w * 64 + cc_ctz64(m);
            double p = exp_exact((double)policy[a] - (double)policy[top]);
            if (p <= 0.0) continue;
            last = a;
            if (u < p) {
                *action = a;
                return CC_OK;
            }
            u -= p;
        }
    *action = last; /* rounding left u at the end: the last action drawn */
    return CC_OK;
}

static int32_t net_priors_hook(void *ctx, const float *obs, const uint64_t *mask, int32_t player,
                               double *priors) {
    const cc_searcher *s = (const cc_searcher *)ctx;
    float policy[CC_MAX_ACTIONS];
    (void)player;
    int32_t rc = cc_net_evaluate(s->nets.priors, CC_NET_PATH_AUTO, 1, obs, policy, NULL);
    if (rc != CC_OK) return rc;
    int32_t top = argmax_legal(policy, mask, s->nwords);
    if (top < 0) return CC_E_ARG;
    for (int32_t w = 0; w < s->nwords; w++)
        for (uint64_t m = mask[w]; m; m &= m - 1) {
            int32_t a = w * 64 + cc_ctz64(m);
            priors[a] = exp_exact((double)policy[a] - (double)policy[top]);
        }
    return CC_OK;
}

/* The value network's leaf values, in the spec's reward, times the
 * network's share of the leaf (leaf_weight). */
static int32_t net_value_hook(void *ctx, int32_t n, const float *obs, const uint64_t *masks,
                              const int32_t *players, double *values) {
    const cc_searcher *s = (const cc_searcher *)ctx;
    const int32_t np = s->nplayers;
    (void)masks;
    for (int32_t i = 0; i < n; i++) {
        float v[CC_NET_MAX_PLAYERS];
        int32_t rc = cc_net_evaluate(s->nets.value, CC_NET_PATH_AUTO, 1,
                                     obs + (size_t)i * (size_t)s->tensor_size, NULL, v);
        if (rc != CC_OK) return rc;
        double pts[CC_MAX_PLAYERS];
        for (int32_t k = 0; k < np; k++) pts[(players[i] + k) % np] = (double)v[k];
        double *out = values + (size_t)i * (size_t)np;
        double sum = 0.0;
        for (int32_t p = 0; p < np; p++) sum += pts[p];
        for (int32_t p = 0; p < np; p++) {
            double r;
            if (s->spec.reward == CC_REWARD_WIN) {
                int32_t below = 0, equal = 0;
                for (int32_t q = 0; q < np; q++) {
                    if (q == p) continue;
                    below += pts[q] < pts[p];
                    equal += pts[q] == pts[p];
                }
                r = ((double)below + 0.5 * (double)equal) / (double)(np - 1);
            } else {
                r = pts[p];
                if (s->spec.reward == CC_REWARD_MARGIN) r -= (sum - r) / (double)(np - 1);
                r *= s->inv_scale;
            }
            out[p] = r * s->leaf_weight;
        }
    }
    return CC_OK;
}

static int32_t net_fits(const cc_searcher *s, const cc_net *net) {
    return net == NULL ||
           (cc_net_input_size(net) == s->tensor_size && cc_net_num_actions(net) == s->num_actions &&
            cc_net_num_players(net) == s->nplayers);
}

int32_t cc_searcher_set_nets(cc_searcher *s, const cc_search_nets *nets) {
    if (s == NULL) return CC_E_ARG;
    int32_t kind = s->spec.kind;
    if (nets != NULL) {
        if (!net_fits(s, nets->value) || !net_fits(s, nets->priors) ||
            !net_fits(s, nets->rollout) || !net_fits(s, nets->policy))
            return CC_E_ARG;
        if (!(nets->value_weight >= 0.0 && nets->value_weight <= 1.0)) return CC_E_ARG;
        if ((nets->value != NULL || nets->priors != NULL) && kind != CC_BOT_ISMCTS) return CC_E_ARG;
        if (nets->rollout != NULL && kind != CC_BOT_ISMCTS && kind != CC_BOT_PIMC) return CC_E_ARG;
        if ((nets->policy != NULL) != (kind == CC_BOT_NET)) return CC_E_ARG;
        if (s->tensor_size <= 0) return CC_E_ARG;
    }
    if (kind == CC_BOT_ISMCTS || kind == CC_BOT_PIMC) {
        cc_bot_hooks hooks;
        memset(&hooks, 0, sizeof hooks);
        if (nets != NULL) {
            if (nets->rollout != NULL) {
                hooks.policy = net_policy_hook;
                hooks.policy_ctx = s;
            }
            if (nets->value != NULL) {
                hooks.evaluate = net_value_hook;
                hooks.evaluate_ctx = s;
                hooks.batch = 1;
            }
            if (nets->priors != NULL) {
                hooks.priors = net_priors_hook;
                hooks.priors_ctx = s;
            }
        }
        int32_t rc = cc_searcher_set_hooks(s, &hooks);
        if (rc != CC_OK) return rc;
    }
    double w = nets != NULL && nets->value != NULL ? nets->value_weight : 1.0;
    s->leaf_weight = w;
    if (nets != NULL) s->nets = *nets;
    else memset(&s->nets, 0, sizeof s->nets);
    s->nets.value_weight = w;
    s->has_nets = nets != NULL;
    for (int32_t i = 0; i < s->nworkers; i++) { /* each tree reads its own copy */
        s->workers[i]->leaf_weight = w;
        s->workers[i]->nets = s->nets;
        s->workers[i]->has_nets = s->has_nets;
    }
    return CC_OK;
}

int32_t cc_net_bot_act(cc_searcher *s, const void *state, int32_t player, int32_t *action) {
    if (s->nets.policy == NULL || s->net_obs == NULL) return CC_E_ARG;
    const cc_game *g = s->game;
    uint64_t mask[CC_MASK_WORDS];
    int32_t n = legal(s, state, mask);
    if (n <= 0) return n < 0 ? n : CC_E_GAME_OVER;
    int32_t rc = g->observe_tensor(state, player, s->net_obs);
    if (rc != CC_OK) return cc_status_error(rc, CC_E_ARG);
    float policy[CC_MAX_ACTIONS];
    rc = cc_net_evaluate(s->nets.policy, CC_NET_PATH_AUTO, 1, s->net_obs, policy, NULL);
    if (rc != CC_OK) return rc;
    int32_t a = argmax_legal(policy, mask, s->nwords);
    if (a < 0) return CC_E_ARG;
    if (g->verify(state, a) != 0) return CC_E_ILLEGAL;
    *action = a;
    return CC_OK;
}
