/* bots.c: the built-in bots over the generic game table (cc_bots.h):
 * the spec and its checks, the searcher and its hooks, root-parallel
 * threads, act, and a whole match in C.  The searches are in pimc.c and
 * ismcts.c, the rewards and rollouts in rollout.c (search_internal.h).
 * Everything a search needs is allocated once, in cc_searcher_new; a
 * simulation allocates nothing.  docs/search.rst describes the algorithms,
 * the reward and the cost. */
#include <pthread.h>

#include "search_internal.h"
#include "threads_internal.h"

/* ---- spec and searcher ------------------------------------------------------ */

int32_t cc_bot_spec_check(const cc_game *game, const cc_bot_spec *spec, int32_t *bad) {
    int32_t ignored;
    if (bad == NULL) bad = &ignored;
    *bad = -1;
    if (game == NULL || spec == NULL) return CC_E_ARG;
    int32_t search = spec->kind == CC_BOT_PIMC || spec->kind == CC_BOT_ISMCTS;
    int32_t f = -1;
    /* comparisons written so that a NaN fails them */
    if (spec->kind < CC_BOT_RANDOM || spec->kind > CC_BOT_NET) f = CC_BOT_F_KIND;
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
    else if (spec->solve < 0 || spec->solve > CC_BOT_MAX_SOLVE ||
             (spec->solve > 0 && (!search || game->solve == NULL || game->solve_depth == NULL)))
        f = CC_BOT_F_SOLVE;
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
    free(s->wsum);
    free(s->wts);
    free(s->scratch);
    free(s->win);
    free(s->obs);
    free(s->bmasks);
    free(s->bplayers);
    free(s->bleaf);
    free(s->bvalues);
    free(s->pri);
    free(s->prior);
    free(s->net_obs);
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
    atomic_init(&s->stop_flag, 0);
    s->stop = &s->stop_flag;
    memcpy(s->params, params, sizeof(int32_t) * (size_t)game->num_params);
    s->nplayers = nplayers;
    s->num_actions = na;
    s->nwords = (na + 63) / 64;
    s->spec = *spec;
    s->spec.win_table = NULL; /* the copy is s->win */
    s->inv_scale = spec->scale > 0.0 ? 1.0 / spec->scale : 1.0;
    s->horizon = spec->horizon == CC_HORIZON_DEAL && game->deal_index != NULL;
    s->tensor_size = game->tensor_size(params, nplayers);
    s->leaf_weight = 1.0;
    size_t ss = game->state_size;
    int ok = 1;
    if (spec->kind == CC_BOT_NET) {
        s->net_obs = s->tensor_size > 0 ? malloc(sizeof(float) * (size_t)s->tensor_size) : NULL;
        ok = s->net_obs != NULL;
    }
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
        s->wsum = malloc(sizeof(double) * (size_t)na);
        s->wts = malloc(sizeof(double) * (size_t)spec->samples);
        ok = ok && s->work && s->dets && s->sum && s->count && s->wsum && s->wts;
    }
    if (ok && spec->win_table != NULL) {
        size_t m = (size_t)spec->win_target * (size_t)spec->win_target;
        s->win = malloc(sizeof(double) * m);
        ok = s->win != NULL;
        if (ok) memcpy(s->win, spec->win_table, sizeof(double) * m);
        s->win_target = spec->win_target;
    }
    if (ok && spec->solve > 0 && spec->reward == CC_REWARD_WIN && s->horizon && nplayers == 2 &&
        s->win != NULL) {
        s->solve_win = s->win;
        s->solve_target = s->win_target;
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
            if (ok) {
                s->workers[w]->stop = &s->stop_flag; /* one flag for every tree */
                s->nworkers++;
            }
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

/* One tree (or PIMC sample set).  A tree that fails sets the search's stop
 * flag, and every other tree stops at its next simulation: CC_E_STOPPED. */
static void *run_job(void *arg) {
    job *j = (job *)arg;
    if (j->s->spec.kind == CC_BOT_ISMCTS) j->rc = cc_ismcts_tree(j->s, j->state, j->root, &j->rng);
    else j->rc = cc_pimc_run(j->s, j->state, j->root, j->acts, j->nlegal, &j->rng);
    if (j->rc != CC_OK) atomic_store_explicit(j->s->stop, 1, memory_order_relaxed);
    else if (stop_requested(j->s)) j->rc = CC_E_STOPPED; /* its statistics are partial */
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
    atomic_store_explicit(s->stop, 0, memory_order_relaxed); /* no tree runs yet */
    for (int32_t w = 0; w < nt; w++) {
        jobs[w].s = w == 0 ? s : s->workers[w - 1];
        jobs[w].state = state;
        jobs[w].root = root;
        jobs[w].acts = acts;
        jobs[w].nlegal = nlegal;
        jobs[w].rc = CC_OK;
        cc_rng_seed(&jobs[w].rng, cc_rng_next(rng));
    }
    for (int32_t w = 1; w < nt; w++) started[w] = cc_thread_start(&tids[w], run_job, &jobs[w]);
    run_job(&jobs[0]);
    for (int32_t w = 1; w < nt; w++) {
        if (started[w]) pthread_join(tids[w], NULL);
        else run_job(&jobs[w]); /* no thread: run it here */
    }
    /* the error of the first tree that failed of itself, not of one that
     * was stopped because another failed */
    int32_t rc = CC_OK;
    for (int32_t w = 0; w < nt; w++)
        if (jobs[w].rc != CC_OK && (rc == CC_OK || rc == CC_E_STOPPED)) rc = jobs[w].rc;
    if (rc != CC_OK) return rc;
    int64_t sims = 0, nodes = 0;
    for (int32_t w = 0; w < nt; w++) {
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

/* How the search mutes the logs of its copies (see act). */
static int32_t log_how(const cc_searcher *s) {
    const cc_game *game = s->game;
    int32_t how = CC_LOG_MUTED;
    if (s->spec.rollout == CC_ROLLOUT_RANDOM || game->heuristic == NULL) how |= CC_LOG_UNOBSERVED;
    /* ISMCTS with random rollouts applies to its determinizations only
     * actions taken from their legal masks (PIMC applies the root's actions,
     * a heuristic its own choice: those are verified) */
    if (s->spec.kind == CC_BOT_ISMCTS && (how & CC_LOG_UNOBSERVED)) how |= CC_LOG_TRUSTED;
    /* hooks read observations of the determinizations */
    if (s->has_hooks) how = CC_LOG_MUTED;
    return how;
}

/* The checks act and act_worlds share: the player to act, in *cp. */
static int32_t root_player(cc_searcher *s, const cc_game *game, const void *state, int32_t player,
                           int32_t *cp) {
    if (game != s->game) return CC_E_ARG;
    s->last_sims = 0;
    s->last_nodes = 0;
    *cp = game->current_player(state);
    if (*cp == CC_PLAYER_TERMINAL) return CC_E_GAME_OVER;
    if (*cp < 0 || *cp >= s->nplayers) return CC_E_ARG;
    if (player != -1 && player != *cp) return CC_E_ARG;
    return CC_OK;
}

/* The root both searches share: the legal actions of state in acts (*n of
 * them); if there is one, *action is it and nothing more is done; else the
 * root copy s->root, muted as log_how says, and its deal.
 *
 * The search works on a copy whose log is muted: the determinizations
 * drawn from it inherit the muted log, so neither the samplers (which copy
 * and redact the kept events) nor the simulations (which push events) spend
 * anything on a log that nobody reads.  No rule and no sampler reads the
 * log (cardcore.h), so the search is the same.  With random rollouts no
 * policy reads a determinization's knowledge of the hidden cards either:
 * the copy is also unobserved (the root's own knowledge, which the sampler
 * reads, is the state's). */
static int32_t root_prepare(cc_searcher *s, const void *state, int32_t *acts, int32_t *n,
                            int32_t *action) {
    const cc_game *game = s->game;
    uint64_t mask[CC_MASK_WORDS];
    *n = legal(s, state, mask);
    if (*n <= 0) return *n < 0 ? *n : CC_E_GAME_OVER;
    for (int32_t i = 0; i < *n; i++) acts[i] = cc_mask_select(mask, s->nwords, i);
    if (*n == 1) {
        *action = acts[0];
        return *action < 0 ? CC_E_ARG : CC_OK;
    }
    memcpy(s->root, state, cc_game_used_size(game, state));
    cc_log_mute((cc_log *)(void *)((char *)s->root + game->log_offset), log_how(s));
    if (s->horizon) s->root_deal = game->deal_index(s->root, NULL);
    for (int32_t w = 0; w < s->nworkers; w++) s->workers[w]->root_deal = s->root_deal;
    return CC_OK;
}

/* Give the caller's stop flag (NULL: none) to every tree of s. */
static void set_halt(cc_searcher *s, const volatile int32_t *stop) {
    s->halt = stop;
    for (int32_t w = 0; w < s->nworkers; w++) s->workers[w]->halt = stop;
}

/* The status of an act that ran with the caller's stop flag: CC_E_STOPPED
 * once the flag is set (the search may have ended early, its statistics
 * partial), whatever the search returned. */
static int32_t halted(cc_searcher *s, const volatile int32_t *stop, int32_t rc) {
    set_halt(s, NULL);
    return stop != NULL && *stop != 0 ? CC_E_STOPPED : rc;
}

static int32_t act(cc_searcher *s, const cc_game *game, const void *state, int32_t player,
                   cc_rng *rng, int32_t *action);
static int32_t act_worlds(cc_searcher *s, const cc_game *game, const void *state, int32_t player,
                          const void *const *worlds, const double *weights, int32_t nworlds,
                          cc_rng *rng, int32_t *action, double *means);

int32_t cc_searcher_act(cc_searcher *s, const cc_game *game, const void *state, int32_t player,
                        cc_rng *rng, int32_t *action, const volatile int32_t *stop) {
    if (s == NULL) return CC_E_ARG;
    set_halt(s, stop);
    return halted(s, stop, act(s, game, state, player, rng, action));
}

int32_t cc_searcher_act_worlds(cc_searcher *s, const cc_game *game, const void *state,
                               int32_t player, const void *const *worlds, const double *weights,
                               int32_t nworlds, cc_rng *rng, int32_t *action, double *means,
                               const volatile int32_t *stop) {
    if (s == NULL) return CC_E_ARG;
    set_halt(s, stop);
    return halted(s, stop,
                  act_worlds(s, game, state, player, worlds, weights, nworlds, rng, action, means));
}

static int32_t act(cc_searcher *s, const cc_game *game, const void *state, int32_t player,
                   cc_rng *rng, int32_t *action) {
    if (s == NULL || game == NULL || state == NULL || rng == NULL || action == NULL)
        return CC_E_ARG;
    int32_t cp;
    int32_t rc = root_player(s, game, state, player, &cp);
    if (rc != CC_OK) return rc;
    int32_t kind = s->spec.kind;
    if (kind == CC_BOT_RANDOM) return cc_search_random_action(s, state, rng, action);
    if (kind == CC_BOT_HEURISTIC) {
        int32_t a = -1;
        rc = cc_search_policy_action(s, 1, state, rng, &a);
        if (rc != CC_OK) return cc_status_error(rc, CC_E_ARG);
        if (game->verify(state, a) != 0) return CC_E_ILLEGAL;
        *action = a;
        return CC_OK;
    }
    if (kind == CC_BOT_NET) return cc_net_bot_act(s, state, cp, action);
    int32_t acts[CC_MAX_ACTIONS], n;
    rc = root_prepare(s, state, acts, &n, action);
    if (rc != CC_OK || n == 1) return rc;
    if (s->nworkers > 0) return parallel(s, s->root, cp, acts, n, rng, action);
    if (kind == CC_BOT_PIMC) {
        rc = cc_pimc_run(s, s->root, cp, acts, n, rng);
        return rc != CC_OK ? rc : cc_pimc_choose(s, acts, n, action);
    }
    rc = cc_ismcts_tree(s, s->root, cp, rng);
    return rc != CC_OK ? rc : cc_ismcts_choose(s, action);
}

static int32_t act_worlds(cc_searcher *s, const cc_game *game, const void *state, int32_t player,
                          const void *const *worlds, const double *weights, int32_t nworlds,
                          cc_rng *rng, int32_t *action, double *means) {
    if (s == NULL || game == NULL || state == NULL || worlds == NULL || weights == NULL ||
        rng == NULL || action == NULL)
        return CC_E_ARG;
    if (s->spec.kind != CC_BOT_PIMC || s->nworkers > 0) return CC_E_ARG;
    if (nworlds < 1 || nworlds > s->spec.samples) return CC_E_ARG;
    if (means != NULL)
        for (int32_t a = 0; a < s->num_actions; a++) means[a] = NAN;
    int32_t cp;
    int32_t rc = root_player(s, game, state, player, &cp);
    if (rc != CC_OK) return rc;
    double top = 0.0;
    for (int32_t i = 0; i < nworlds; i++) {
        /* written so that a NaN fails */
        if (worlds[i] == NULL || !(weights[i] >= 0.0 && weights[i] < INFINITY)) return CC_E_ARG;
        if (game->current_player(worlds[i]) != cp) return CC_E_ARG;
        if (weights[i] > top) top = weights[i];
    }
    /* the weights over the power of two just above the largest: their sums
     * (of at most samples terms) cannot overflow, however near DBL_MAX they
     * are, and the division is exact (but for a weight under 2^-1022 of the
     * largest), so the means are those of the weights as given */
    int e = 0;
    if (top > 0.0) (void)frexp(top, &e);
    double total = 0.0;
    for (int32_t i = 0; i < nworlds; i++) total += ldexp(weights[i], -e);
    int32_t acts[CC_MAX_ACTIONS], n;
    rc = root_prepare(s, state, acts, &n, action);
    if (rc != CC_OK || n == 1) return rc;
    /* the worlds of positive weight (all at weight 1 if none has one),
     * muted as the root is */
    int32_t how = log_how(s);
    size_t ss = game->state_size;
    int32_t ns = 0;
    for (int32_t i = 0; i < nworlds; i++) {
        if (total > 0.0 && weights[i] == 0.0) continue;
        char *d = (char *)s->dets + ss * (size_t)ns;
        memcpy(d, worlds[i], cc_game_used_size(game, worlds[i]));
        cc_log_mute((cc_log *)(void *)(d + game->log_offset), how);
        s->wts[ns++] = total > 0.0 ? ldexp(weights[i], -e) : 1.0;
    }
    rc = cc_pimc_run_worlds(s, s->root, cp, acts, n, ns, s->wts, rng);
    if (rc != CC_OK) return rc;
    if (means != NULL)
        for (int32_t k = 0; k < n; k++)
            if (s->count[acts[k]] > 0) means[acts[k]] = s->sum[acts[k]] / s->wsum[acts[k]];
    return cc_pimc_choose(s, acts, n, action);
}

/* ---- a whole match in C --------------------------------------------------- */

int32_t cc_play_match(const cc_game *game, const int32_t *params, int32_t nplayers,
                      cc_searcher *const *seats, int64_t ngames, const uint64_t *deal_seeds,
                      const uint64_t *bot_seeds, void *state, int32_t *returns_out,
                      int64_t *moves_out, double *seconds_out, const volatile int32_t *stop) {
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
            if (stop != NULL && *stop != 0) return CC_E_STOPPED;
            int32_t a = -1;
            double t0 = seconds_out ? now_seconds() : 0.0;
            rc = cc_searcher_act(seats[cp], game, state, cp, &rngs[cp], &a, stop);
            if (seconds_out) secs[cp] += now_seconds() - t0;
            if (rc != CC_OK) return rc;
            moves[cp]++;
            rc = game->apply(state, a);
            if (rc != 0) return cc_status_error(rc, CC_E_ILLEGAL);
            if (++steps > CC_BOT_ROLLOUT_LIMIT) return CC_E_ROLLOUT_LIMIT;
        }
        game->returns(state, returns_out + gi * nplayers);
    }
    for (int32_t p = 0; p < nplayers; p++) {
        if (moves_out) moves_out[p] = moves[p];
        if (seconds_out) seconds_out[p] = secs[p];
    }
    return CC_OK;
}
