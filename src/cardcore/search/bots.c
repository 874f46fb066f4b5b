/* bots.c: the built-in bots over the generic game table (cc_bots.h):
 * random, the game's heuristic, determinized Monte Carlo (PIMC) and
 * single-observer ISMCTS, with their rewards, horizons, hooks and
 * root-parallel threads.  Everything a search needs is allocated once, in
 * cc_searcher_new; a simulation allocates nothing.  docs/search.rst
 * describes the algorithms, the reward and the cost. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "cc_bots.h"
#include "cc_internal.h"

/* The ISMCTS tree lives in two parallel arrays indexed by node: the links
 * that a selection scans at every level (edge: the action that leads to the
 * node from its parent, who chose it, the next sibling: 8 bytes, so a scan
 * of many children touches few cache lines) and the statistics read only
 * for the children legal in the determinization (node).  total sums the
 * chooser's rewards over the visits; avail counts the selections at the
 * parent where the action was legal (availability, Cowling et al. 2012). */
typedef struct edge {
    int32_t next_sibling;
    int16_t action;
    int16_t player;
} edge;

typedef struct node {
    double total;
    uint32_t visits;
    uint32_t avail;
    int32_t parent;
    int32_t first_child;
} node;

struct cc_searcher {
    const cc_game *game;
    int32_t params[CC_MAX_PARAMS];
    int32_t nplayers;
    int32_t num_actions;
    int32_t nwords; /* mask words that can hold a legal action */
    cc_bot_spec spec;
    node *nodes;
    edge *edges;
    int32_t cap_nodes;
    int32_t used_nodes;
    void *root;  /* the searched state, its log muted: the samplers' source */
    void *det;   /* a determinization being searched */
    void *work;  /* PIMC: a copy of a determinization for one rollout */
    void *dets;  /* PIMC: samples determinizations */
    double *sum; /* PIMC: summed reward per action */
    int64_t *count;
    void *scratch;    /* the game's prepared sampler (sample_prepare), or NULL */
    int32_t prepared; /* scratch holds the position being searched */
    int64_t last_sims;
    int64_t last_nodes;
    /* rewards and horizon */
    double inv_scale; /* 1 / spec.scale */
    double *win;      /* the win table (win_target^2 values), or NULL */
    int32_t win_target;
    int32_t horizon;   /* 1: stop at the end of the searched deal */
    int32_t root_deal; /* the searched state's deal_index */
    /* hooks */
    cc_bot_hooks hooks;
    int32_t has_hooks;
    int32_t tensor_size;
    int32_t nbatch;    /* leaves waiting for the evaluator */
    float *obs;        /* max(batch, 1) observations */
    uint64_t *bmasks;  /* batch masks */
    int32_t *bplayers; /* batch players */
    int32_t *bleaf;    /* batch leaves (nodes) */
    double *bvalues;   /* batch values, batch * nplayers */
    double *pri;       /* num_actions priors, as the hook wrote them */
    float *prior;      /* with a priors hook: each node's normalized prior */
    /* root parallelism: threads - 1 more searchers, one tree each */
    cc_searcher **workers;
    int32_t nworkers;
};

/* ---- small helpers -------------------------------------------------------- */

static double now_seconds(void) {
    struct timespec ts;
    if (timespec_get(&ts, TIME_UTC) != TIME_UTC) return 0.0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A uniform draw in 0..n-1 (1 <= n <= 2^32) for the search's own choices
 * (rollouts, expansions): Lemire's multiply-and-reject on the top 32 bits of
 * an output, exact and without a division in the common case.  The random
 * bot keeps cc_rng_below, the draw pycards' RandomBot makes. */
static inline uint32_t rng_uniform(cc_rng *rng, uint32_t n) {
    uint64_t m = (cc_rng_next_inline(rng) >> 32) * (uint64_t)n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t t = (uint32_t)(0u - n) % n;
        while (low < t) {
            m = (cc_rng_next_inline(rng) >> 32) * (uint64_t)n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

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

/* Legal actions of state into mask (cleared first): their number. */
static inline int32_t legal(const cc_searcher *s, const void *state, uint64_t *mask) {
    memset(mask, 0, sizeof(uint64_t) * (size_t)s->nwords);
    return s->game->legal_actions(state, mask);
}

static int32_t random_action(const cc_searcher *s, const void *state, cc_rng *rng,
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
static inline int32_t policy_action(const cc_searcher *s, int32_t heuristic, const void *state,
                                    cc_rng *rng, int32_t *action) {
    if (heuristic && s->game->heuristic != NULL) return s->game->heuristic(state, rng, action);
    return random_action(s, state, rng, action);
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

/* Has state left the searched deal (horizon deal)? */
static inline int32_t past_horizon(const cc_searcher *s, const void *state) {
    return s->horizon && s->game->deal_index(state, NULL) != s->root_deal;
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
static inline void leaf_rewards(const cc_searcher *s, const void *state, double *reward) {
    if (s->game->current_player(state) == CC_PLAYER_TERMINAL) final_rewards(s, state, reward);
    else deal_rewards(s, state, reward);
}

/* A legal action for player from the policy hook (checked). */
static int32_t hook_policy(const cc_searcher *s, const void *state, int32_t player,
                           const uint64_t *mask, int32_t *action) {
    int32_t rc = s->game->observe_tensor(state, player, s->obs);
    if (rc != CC_OK) return cc_status_error(rc, CC_E_ARG);
    int32_t a = -1;
    rc = s->hooks.policy(s->hooks.policy_ctx, s->obs, mask, player, &a);
    if (rc != CC_OK) return cc_status_error(rc, CC_E_HOOK);
    if (a < 0 || a >= s->num_actions || !((mask[a >> 6] >> (a & 63)) & 1)) return CC_E_ILLEGAL;
    *action = a;
    return CC_OK;
}

/* A rollout by the policy hook. */
static int32_t hook_rollout(const cc_searcher *s, void *state, double *reward) {
    const cc_game *g = s->game;
    int64_t steps = 0;
    for (;;) {
        int32_t cp = g->current_player(state);
        if (cp == CC_PLAYER_TERMINAL) break;
        if (cp < 0 || cp >= s->nplayers) return CC_E_ARG;
        if (past_horizon(s, state)) break;
        uint64_t mask[CC_MASK_WORDS];
        int32_t n = legal(s, state, mask);
        if (n <= 0) return CC_E_ARG;
        int32_t a;
        int32_t rc = hook_policy(s, state, cp, mask, &a);
        if (rc != CC_OK) return rc;
        rc = g->apply(state, a);
        if (rc != 0) return cc_status_error(rc, CC_E_ILLEGAL);
        if (++steps > CC_BOT_ROLLOUT_LIMIT) return CC_E_CAPACITY;
    }
    leaf_rewards(s, state, reward);
    return CC_OK;
}

/* Play state to the end (of the game, or of the searched deal) with the
 * rollout policy; rewards per player. */
static int32_t rollout(const cc_searcher *s, void *state, cc_rng *rng, double *reward) {
    const cc_game *g = s->game;
    if (s->hooks.policy != NULL) return hook_rollout(s, state, reward);
    int32_t heuristic = s->spec.rollout == CC_ROLLOUT_HEURISTIC && g->heuristic != NULL;
    const int32_t hz = s->horizon;
    int64_t steps = 0;
    for (;;) {
        int32_t a, rc;
        if (hz && past_horizon(s, state)) {
            if (g->current_player(state) == CC_PLAYER_TERMINAL) break;
            deal_rewards(s, state, reward);
            return CC_OK;
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
        if (++steps > CC_BOT_ROLLOUT_LIMIT) return CC_E_CAPACITY;
    }
    final_rewards(s, state, reward);
    return CC_OK;
}

/* The samples of one search all come from the same position and player:
 * a game with a two-phase sampler does the work they share once, here
 * (cardcore.h: its draws are exactly sample_infoset's). */
static void sampler_prepare(cc_searcher *s, const void *state, int32_t root) {
    s->prepared =
        s->scratch != NULL &&
        s->game->sample_prepare(state, root, s->scratch, s->game->sample_scratch_size) == CC_OK;
}

static inline int32_t sample(const cc_searcher *s, const void *state, int32_t root, uint64_t seed,
                             void *out) {
    if (s->prepared) return s->game->sample_draw(state, s->scratch, seed, out);
    return s->game->sample_infoset(state, root, seed, out);
}

/* Is the budget spent after sims simulations started at t0? */
static inline int32_t budget_spent(const cc_searcher *s, int64_t sims, double t0) {
    if (s->spec.seconds > 0.0) {
        if (s->spec.simulations > 0 && sims >= s->spec.simulations) return 1;
        return now_seconds() - t0 >= s->spec.seconds;
    }
    return sims >= s->spec.simulations;
}

/* ---- spec and searcher ------------------------------------------------------ */

int32_t cc_bot_spec_check(const cc_game *game, const cc_bot_spec *spec, int32_t *bad) {
    int32_t ignored;
    if (bad == NULL) bad = &ignored;
    *bad = -1;
    if (game == NULL || spec == NULL) return CC_E_ARG;
    int32_t search = spec->kind == CC_BOT_PIMC || spec->kind == CC_BOT_ISMCTS;
    int32_t f = -1;
    /* comparisons written so that a NaN fails them */
    if (spec->kind < CC_BOT_RANDOM || spec->kind > CC_BOT_ISMCTS) f = CC_BOT_F_KIND;
    else if (spec->rollout != CC_ROLLOUT_RANDOM && spec->rollout != CC_ROLLOUT_HEURISTIC)
        f = CC_BOT_F_ROLLOUT;
    else if (spec->simulations < 0 || spec->simulations > CC_BOT_MAX_SIMULATIONS ||
             (search && spec->seconds == 0.0 && spec->simulations < 1))
        f = CC_BOT_F_SIMULATIONS;
    else if (!(spec->seconds >= 0.0 && spec->seconds <= CC_BOT_MAX_SECONDS)) f = CC_BOT_F_SECONDS;
    else if (!(spec->exploration >= 0.0 && spec->exploration <= CC_BOT_MAX_EXPLORATION))
        f = CC_BOT_F_EXPLORATION;
    else if (spec->samples < (search ? 1 : 0) || spec->samples > CC_BOT_MAX_SAMPLES)
        f = CC_BOT_F_SAMPLES;
    else if (spec->reward < CC_REWARD_WIN || spec->reward > CC_REWARD_POINTS) f = CC_BOT_F_REWARD;
    else if (spec->horizon != CC_HORIZON_GAME && spec->horizon != CC_HORIZON_DEAL)
        f = CC_BOT_F_HORIZON;
    else if (spec->threads < 0 || spec->threads > CC_BOT_MAX_THREADS) f = CC_BOT_F_THREADS;
    else if (!(spec->scale >= 0.0 && spec->scale <= CC_BOT_MAX_SCALE)) f = CC_BOT_F_SCALE;
    else if (spec->win_table != NULL ? spec->win_target < 1 || spec->win_target > CC_BOT_MAX_TARGET
                                     : spec->win_target != 0)
        f = CC_BOT_F_WIN_TABLE;
    else if (spec->reserved != 0) f = CC_BOT_F_RESERVED;
    if (f < 0 && spec->win_table != NULL) {
        size_t m = (size_t)spec->win_target * (size_t)spec->win_target;
        for (size_t i = 0; i < m; i++)
            if (!(spec->win_table[i] >= 0.0 && spec->win_table[i] <= 1.0)) {
                f = CC_BOT_F_WIN_TABLE;
                break;
            }
    }
    if (f >= 0) {
        *bad = f;
        return CC_E_ARG;
    }
    if (search && game->sample_infoset == NULL) return CC_E_ARG;
    return CC_OK;
}

void cc_searcher_free(cc_searcher *s) {
    if (s == NULL) return;
    free(s->nodes);
    free(s->edges);
    free(s->root);
    free(s->det);
    free(s->work);
    free(s->dets);
    free(s->sum);
    free(s->count);
    free(s->scratch);
    free(s->win);
    free(s->obs);
    free(s->bmasks);
    free(s->bplayers);
    free(s->bleaf);
    free(s->bvalues);
    free(s->pri);
    free(s->prior);
    for (int32_t w = 0; w < s->nworkers; w++) cc_searcher_free(s->workers[w]);
    free(s->workers);
    free(s);
}

cc_searcher *cc_searcher_new(const cc_game *game, const int32_t *params, int32_t nplayers,
                             const cc_bot_spec *spec, int32_t *status) {
    int32_t ignored;
    if (status == NULL) status = &ignored;
    *status = CC_E_ARG;
    if (game == NULL || params == NULL || spec == NULL) return NULL;
    if (game->num_params < 0 || game->num_params > CC_MAX_PARAMS) return NULL;
    if (nplayers < game->min_players || nplayers > game->max_players || nplayers > CC_MAX_PLAYERS) {
        *status = CC_E_PLAYERS;
        return NULL;
    }
    int32_t rc = cc_game_check_params(game, params, nplayers, NULL);
    if (rc != CC_OK) {
        *status = rc;
        return NULL;
    }
    rc = cc_bot_spec_check(game, spec, NULL);
    if (rc != CC_OK) {
        *status = rc;
        return NULL;
    }
    int32_t na = game->num_actions(params, nplayers);
    if (na <= 0 || na > CC_MAX_ACTIONS) return NULL;
    cc_searcher *s = calloc(1, sizeof *s);
    *status = CC_E_CAPACITY;
    if (s == NULL) return NULL;
    s->game = game;
    memcpy(s->params, params, sizeof(int32_t) * (size_t)game->num_params);
    s->nplayers = nplayers;
    s->num_actions = na;
    s->nwords = (na + 63) / 64;
    s->spec = *spec;
    s->spec.win_table = NULL; /* the copy is s->win */
    s->inv_scale = spec->scale > 0.0 ? 1.0 / spec->scale : 1.0;
    s->horizon = spec->horizon == CC_HORIZON_DEAL && game->deal_index != NULL;
    s->tensor_size = game->tensor_size(params, nplayers);
    size_t ss = game->state_size;
    int ok = 1;
    if (spec->kind == CC_BOT_ISMCTS || spec->kind == CC_BOT_PIMC) {
        s->root = calloc(1, ss); /* a sampler may copy all of it (the log's entries too) */
        s->det = malloc(ss);
        ok = ok && s->root != NULL && s->det != NULL;
        if (game->sample_prepare != NULL && game->sample_draw != NULL &&
            game->sample_scratch_size > 0) {
            s->scratch = malloc(game->sample_scratch_size);
            ok = ok && s->scratch != NULL;
        }
    }
    if (spec->kind == CC_BOT_ISMCTS) {
        int64_t cap = spec->simulations > 0 ? spec->simulations + 1 : CC_BOT_TIME_NODES;
        if (cap > CC_BOT_MAX_NODES) cap = CC_BOT_MAX_NODES;
        s->cap_nodes = (int32_t)cap;
        s->nodes = malloc(sizeof(node) * (size_t)cap);
        s->edges = malloc(sizeof(edge) * (size_t)cap);
        ok = ok && s->nodes != NULL && s->edges != NULL;
    }
    if (spec->kind == CC_BOT_PIMC) {
        s->work = malloc(ss);
        s->dets = malloc(ss * (size_t)spec->samples);
        s->sum = malloc(sizeof(double) * (size_t)na);
        s->count = malloc(sizeof(int64_t) * (size_t)na);
        ok = ok && s->work && s->dets && s->sum && s->count;
    }
    if (ok && spec->win_table != NULL) {
        size_t m = (size_t)spec->win_target * (size_t)spec->win_target;
        s->win = malloc(sizeof(double) * m);
        ok = s->win != NULL;
        if (ok) memcpy(s->win, spec->win_table, sizeof(double) * m);
        s->win_target = spec->win_target;
    }
    if (ok && spec->threads > 1 && (spec->kind == CC_BOT_ISMCTS || spec->kind == CC_BOT_PIMC)) {
        cc_bot_spec one = *spec;
        one.threads = 1;
        s->workers = calloc((size_t)spec->threads - 1, sizeof(cc_searcher *));
        ok = s->workers != NULL;
        for (int32_t w = 0; ok && w < spec->threads - 1; w++) {
            int32_t st = CC_OK;
            s->workers[w] = cc_searcher_new(game, params, nplayers, &one, &st);
            ok = s->workers[w] != NULL;
            if (ok) s->nworkers++;
        }
    }
    if (!ok) {
        cc_searcher_free(s);
        return NULL;
    }
    *status = CC_OK;
    return s;
}

int64_t cc_searcher_last_simulations(const cc_searcher *s) { return s ? s->last_sims : 0; }
int64_t cc_searcher_last_nodes(const cc_searcher *s) { return s ? s->last_nodes : 0; }

int32_t cc_searcher_set_hooks(cc_searcher *s, const cc_bot_hooks *hooks) {
    if (s == NULL) return CC_E_ARG;
    int32_t kind = s->spec.kind;
    if (hooks != NULL) {
        if (kind != CC_BOT_PIMC && kind != CC_BOT_ISMCTS) return CC_E_ARG;
        if (kind == CC_BOT_PIMC && (hooks->evaluate != NULL || hooks->priors != NULL))
            return CC_E_ARG;
        if (hooks->evaluate != NULL && (hooks->batch < 1 || hooks->batch > CC_BOT_MAX_BATCH))
            return CC_E_ARG;
        if (hooks->reserved != 0 || s->tensor_size <= 0) return CC_E_ARG;
    }
    for (int32_t w = 0; w < s->nworkers; w++) {
        int32_t rc = cc_searcher_set_hooks(s->workers[w], hooks);
        if (rc != CC_OK) return rc;
    }
    free(s->obs);
    free(s->bmasks);
    free(s->bplayers);
    free(s->bleaf);
    free(s->bvalues);
    free(s->pri);
    free(s->prior);
    s->obs = NULL;
    s->bmasks = NULL;
    s->bplayers = NULL;
    s->bleaf = NULL;
    s->bvalues = NULL;
    s->pri = NULL;
    s->prior = NULL;
    memset(&s->hooks, 0, sizeof s->hooks);
    s->has_hooks = 0;
    if (hooks == NULL ||
        (hooks->policy == NULL && hooks->evaluate == NULL && hooks->priors == NULL))
        return CC_OK;
    size_t nb = hooks->evaluate != NULL ? (size_t)hooks->batch : 1;
    s->obs = malloc(sizeof(float) * (size_t)s->tensor_size * nb);
    s->bmasks = malloc(sizeof(uint64_t) * CC_MASK_WORDS * nb);
    s->bplayers = malloc(sizeof(int32_t) * nb);
    s->bleaf = malloc(sizeof(int32_t) * nb);
    s->bvalues = malloc(sizeof(double) * (size_t)s->nplayers * nb);
    s->pri = malloc(sizeof(double) * (size_t)s->num_actions);
    int ok = s->obs && s->bmasks && s->bplayers && s->bleaf && s->bvalues && s->pri;
    if (ok && hooks->priors != NULL) {
        s->prior = malloc(sizeof(float) * (size_t)s->cap_nodes);
        ok = s->prior != NULL;
    }
    if (!ok) {
        cc_searcher_set_hooks(s, NULL);
        return CC_E_CAPACITY;
    }
    s->hooks = *hooks;
    s->has_hooks = 1;
    return CC_OK;
}

/* ---- PIMC ---------------------------------------------------------------- */

/* Score the nlegal actions acts by rollouts in s->sum and s->count. */
static int32_t pimc_run(cc_searcher *s, const void *state, int32_t root, const int32_t *acts,
                        int32_t nlegal, cc_rng *rng) {
    const cc_game *g = s->game;
    size_t ss = g->state_size;
    for (int32_t i = 0; i < nlegal; i++) {
        s->sum[acts[i]] = 0.0;
        s->count[acts[i]] = 0;
    }
    int32_t ns = s->spec.samples;
    sampler_prepare(s, state, root);
    for (int32_t i = 0; i < ns; i++) {
        char *d = (char *)s->dets + ss * (size_t)i;
        int32_t rc = sample(s, state, root, cc_rng_next(rng), d);
        if (rc != CC_OK) return rc;
    }
    /* Rounds: in each, every determinization scores every action once (the
     * last round stops where the budget does, part way if need be). */
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
                rc = rollout(s, s->work, rng, reward);
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

/* The best mean of acts by s->sum and s->count. */
static int32_t pimc_choose(const cc_searcher *s, const int32_t *acts, int32_t nlegal,
                           int32_t *action) {
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
    if (s->hooks.evaluate != NULL) {
        int32_t cp = s->game->current_player(det);
        if (cp == CC_PLAYER_TERMINAL || past_horizon(s, det)) {
            leaf_rewards(s, det, reward);
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
        return s->nbatch == s->hooks.batch ? flush_leaves(s) : CC_OK;
    }
    rc = rollout(s, det, rng, reward);
    if (rc != CC_OK) return rc;
    backup(s, cur, reward, 1);
    return CC_OK;
}

/* Build the tree of state for root within the budget. */
static int32_t ismcts_tree(cc_searcher *s, const void *state, int32_t root, cc_rng *rng) {
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
    sampler_prepare(s, state, root);
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
static int32_t ismcts_choose(const cc_searcher *s, int32_t *action) {
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

/* ---- root parallelism ------------------------------------------------------- */

typedef struct job {
    cc_searcher *s;
    const void *state;
    int32_t root;
    int32_t nlegal;
    const int32_t *acts;
    cc_rng rng;
    int32_t rc;
} job;

static void *run_job(void *arg) {
    job *j = (job *)arg;
    if (j->s->spec.kind == CC_BOT_ISMCTS) j->rc = ismcts_tree(j->s, j->state, j->root, &j->rng);
    else j->rc = pimc_run(j->s, j->state, j->root, j->acts, j->nlegal, &j->rng);
    return NULL;
}

/* threads trees (or PIMC sample sets) at once, each with a generator
 * seeded from rng in order, merged at the root: visits (ISMCTS) or rollouts
 * (PIMC) and rewards summed per action; the choice as with one. */
static int32_t parallel(cc_searcher *s, const void *state, int32_t root, const int32_t *acts,
                        int32_t nlegal, cc_rng *rng, int32_t *action) {
    int32_t nt = s->nworkers + 1;
    job jobs[CC_BOT_MAX_THREADS];
    pthread_t tids[CC_BOT_MAX_THREADS];
    int32_t started[CC_BOT_MAX_THREADS] = {0};
    for (int32_t w = 0; w < nt; w++) {
        jobs[w].s = w == 0 ? s : s->workers[w - 1];
        jobs[w].state = state;
        jobs[w].root = root;
        jobs[w].acts = acts;
        jobs[w].nlegal = nlegal;
        jobs[w].rc = CC_OK;
        cc_rng_seed(&jobs[w].rng, cc_rng_next(rng));
    }
    for (int32_t w = 1; w < nt; w++)
        started[w] = pthread_create(&tids[w], NULL, run_job, &jobs[w]) == 0;
    run_job(&jobs[0]);
    for (int32_t w = 1; w < nt; w++) {
        if (started[w]) pthread_join(tids[w], NULL);
        else run_job(&jobs[w]); /* no thread: run it here */
    }
    int64_t sims = 0, nodes = 0;
    for (int32_t w = 0; w < nt; w++) {
        if (jobs[w].rc != CC_OK) return jobs[w].rc;
        sims += jobs[w].s->last_sims;
        nodes += jobs[w].s->last_nodes;
    }
    /* merged statistics per action, in s->sum and s->count (ISMCTS: the
     * PIMC arrays are not there, so totals go to a local table) */
    double tot[CC_MAX_ACTIONS];
    int64_t cnt[CC_MAX_ACTIONS];
    for (int32_t k = 0; k < nlegal; k++) {
        tot[acts[k]] = 0.0;
        cnt[acts[k]] = 0;
    }
    for (int32_t w = 0; w < nt; w++) {
        const cc_searcher *x = jobs[w].s;
        if (s->spec.kind == CC_BOT_PIMC) {
            for (int32_t k = 0; k < nlegal; k++) {
                tot[acts[k]] += x->sum[acts[k]];
                cnt[acts[k]] += x->count[acts[k]];
            }
            continue;
        }
        for (int32_t ch = x->nodes[0].first_child; ch >= 0; ch = x->edges[ch].next_sibling) {
            int32_t a = x->edges[ch].action;
            tot[a] += x->nodes[ch].total;
            cnt[a] += x->nodes[ch].visits;
        }
    }
    s->last_sims = sims;
    s->last_nodes = nodes;
    int32_t best = -1;
    for (int32_t k = 0; k < nlegal; k++) {
        int32_t a = acts[k];
        if (cnt[a] == 0) continue;
        if (best < 0) {
            best = a;
            continue;
        }
        if (s->spec.kind == CC_BOT_PIMC) {
            if (tot[a] / (double)cnt[a] > tot[best] / (double)cnt[best]) best = a;
            continue;
        }
        double ma = tot[a] * (double)cnt[best], mb = tot[best] * (double)cnt[a];
        if (cnt[a] > cnt[best] || (cnt[a] == cnt[best] && ma > mb)) best = a;
    }
    if (best < 0) return CC_E_ARG;
    *action = best;
    return CC_OK;
}

/* ---- act ----------------------------------------------------------------- */

int32_t cc_searcher_act(cc_searcher *s, const cc_game *game, const void *state, int32_t player,
                        cc_rng *rng, int32_t *action) {
    if (s == NULL || game == NULL || state == NULL || rng == NULL || action == NULL)
        return CC_E_ARG;
    if (game != s->game) return CC_E_ARG;
    s->last_sims = 0;
    s->last_nodes = 0;
    int32_t cp = game->current_player(state);
    if (cp == CC_PLAYER_TERMINAL) return CC_E_GAME_OVER;
    if (cp < 0 || cp >= s->nplayers) return CC_E_ARG;
    if (player != -1 && player != cp) return CC_E_ARG;
    int32_t kind = s->spec.kind;
    int32_t rc;
    if (kind == CC_BOT_RANDOM) return random_action(s, state, rng, action);
    if (kind == CC_BOT_HEURISTIC) {
        int32_t a = -1;
        rc = policy_action(s, 1, state, rng, &a);
        if (rc != CC_OK) return cc_status_error(rc, CC_E_ARG);
        if (game->verify(state, a) != 0) return CC_E_ILLEGAL;
        *action = a;
        return CC_OK;
    }
    uint64_t mask[CC_MASK_WORDS];
    int32_t n = legal(s, state, mask);
    if (n <= 0) return n < 0 ? n : CC_E_GAME_OVER;
    if (n == 1) {
        *action = cc_mask_select(mask, s->nwords, 0);
        return *action < 0 ? CC_E_ARG : CC_OK;
    }
    /* The search works on a copy whose log is muted: the determinizations
     * drawn from it inherit the muted log, so neither the samplers (which
     * copy and redact the kept events) nor the simulations (which push
     * events) spend anything on a log that nobody reads.  No rule and no
     * sampler reads the log (cardcore.h), so the search is the same.  With
     * random rollouts no policy reads a determinization's knowledge of the
     * hidden cards either: the copy is also unobserved (the root's own
     * knowledge, which the sampler reads, is the state's). */
    memcpy(s->root, state, cc_game_used_size(game, state));
    int32_t how = CC_LOG_MUTED;
    if (s->spec.rollout == CC_ROLLOUT_RANDOM || game->heuristic == NULL) how |= CC_LOG_UNOBSERVED;
    /* ISMCTS with random rollouts applies to its determinizations only
     * actions taken from their legal masks (PIMC applies the root's actions,
     * a heuristic its own choice: those are verified) */
    if (kind == CC_BOT_ISMCTS && (how & CC_LOG_UNOBSERVED)) how |= CC_LOG_TRUSTED;
    /* hooks read observations of the determinizations */
    if (s->has_hooks) how = CC_LOG_MUTED;
    cc_log_mute((cc_log *)(void *)((char *)s->root + game->log_offset), how);
    if (s->horizon) s->root_deal = game->deal_index(s->root, NULL);
    for (int32_t w = 0; w < s->nworkers; w++) s->workers[w]->root_deal = s->root_deal;
    int32_t acts[CC_MAX_ACTIONS];
    for (int32_t i = 0; i < n; i++) acts[i] = cc_mask_select(mask, s->nwords, i);
    if (s->nworkers > 0) return parallel(s, s->root, cp, acts, n, rng, action);
    if (kind == CC_BOT_PIMC) {
        rc = pimc_run(s, s->root, cp, acts, n, rng);
        return rc != CC_OK ? rc : pimc_choose(s, acts, n, action);
    }
    rc = ismcts_tree(s, s->root, cp, rng);
    return rc != CC_OK ? rc : ismcts_choose(s, action);
}

/* ---- a whole match in C --------------------------------------------------- */

int32_t cc_play_match(const cc_game *game, const int32_t *params, int32_t nplayers,
                      cc_searcher *const *seats, int64_t ngames, const uint64_t *deal_seeds,
                      const uint64_t *bot_seeds, void *state, int32_t *returns_out,
                      int64_t *moves_out, double *seconds_out) {
    if (game == NULL || params == NULL || seats == NULL || state == NULL || ngames < 0)
        return CC_E_ARG;
    if (ngames > 0 && (deal_seeds == NULL || bot_seeds == NULL || returns_out == NULL))
        return CC_E_ARG;
    if (nplayers < game->min_players || nplayers > game->max_players || nplayers > CC_MAX_PLAYERS)
        return CC_E_PLAYERS;
    int32_t rc = cc_game_check_params(game, params, nplayers, NULL);
    if (rc != CC_OK) return rc;
    for (int32_t p = 0; p < nplayers; p++) {
        const cc_searcher *s = seats[p];
        if (s == NULL || s->game != game || s->nplayers != nplayers ||
            memcmp(s->params, params, sizeof(int32_t) * (size_t)game->num_params) != 0)
            return CC_E_ARG;
    }
    int64_t moves[CC_MAX_PLAYERS] = {0};
    double secs[CC_MAX_PLAYERS] = {0};
    cc_rng rngs[CC_MAX_PLAYERS];
    for (int64_t gi = 0; gi < ngames; gi++) {
        rc = game->init(state, params, nplayers, deal_seeds[gi]);
        if (rc != CC_OK) return rc;
        for (int32_t p = 0; p < nplayers; p++) cc_rng_seed(&rngs[p], bot_seeds[gi * nplayers + p]);
        int64_t steps = 0;
        for (;;) {
            int32_t cp = game->current_player(state);
            if (cp == CC_PLAYER_TERMINAL) break;
            if (cp < 0 || cp >= nplayers) return CC_E_ARG;
            int32_t a = -1;
            double t0 = seconds_out ? now_seconds() : 0.0;
            rc = cc_searcher_act(seats[cp], game, state, cp, &rngs[cp], &a);
            if (seconds_out) secs[cp] += now_seconds() - t0;
            if (rc != CC_OK) return rc;
            moves[cp]++;
            rc = game->apply(state, a);
            if (rc != 0) return cc_status_error(rc, CC_E_ILLEGAL);
            if (++steps > CC_BOT_ROLLOUT_LIMIT) return CC_E_CAPACITY;
        }
        game->returns(state, returns_out + gi * nplayers);
    }
    for (int32_t p = 0; p < nplayers; p++) {
        if (moves_out) moves_out[p] = moves[p];
        if (seconds_out) seconds_out[p] = secs[p];
    }
    return CC_OK;
}
