/* search_internal.h: what the files of the built-in bots share (cc_bots.h):
 * the searcher and its ISMCTS tree, small inline helpers, and the functions
 * one file calls in another.  bots.c holds the spec, the searcher, root
 * parallelism, act and the C match; rollout.c the rewards, horizons and
 * rollouts; pimc.c and ismcts.c the two searches.  Private to search/. */
#ifndef CC_SEARCH_INTERNAL_H
#define CC_SEARCH_INTERNAL_H

#include <math.h>
#include <stdatomic.h>
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
    double *wsum;     /* PIMC: summed weight of the worlds per action */
    double *wts;      /* PIMC over given worlds: their weights (samples) */
    int32_t weighted; /* the last PIMC run was over given worlds */
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
    /* the solver leaf (spec.solve > 0) */
    const double *solve_win; /* the win table the solver values by, or NULL */
    int32_t solve_target;
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
    /* networks (cc_searcher_set_nets): read only while searching */
    cc_search_nets nets;
    int32_t has_nets;
    double leaf_weight; /* the value network's share of a leaf's value (1: no rollout) */
    float *net_obs;     /* CC_BOT_NET: one observation */
    /* root parallelism: threads - 1 more searchers, one tree each */
    cc_searcher **workers;
    int32_t nworkers;
    /* the stop flag of a root-parallel search: a tree that fails (a hook's
     * error) sets it and every other tree stops at its next simulation (or
     * hook rollout step).  stop points to the flag of the searcher that
     * owns the workers, so every tree of one search reads one flag. */
    atomic_int stop_flag;
    atomic_int *stop;
    /* the caller's stop flag of the act under way (cc_searcher_act's stop,
     * given to every tree), or NULL: read with stop at the same places */
    const volatile int32_t *halt;
};

/* ---- small helpers -------------------------------------------------------- */

static inline double now_seconds(void) {
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

/* Legal actions of state into mask (cleared first): their number. */
static inline int32_t legal(const cc_searcher *s, const void *state, uint64_t *mask) {
    memset(mask, 0, sizeof(uint64_t) * (size_t)s->nwords);
    return s->game->legal_actions(state, mask);
}

/* Has state left the searched deal (horizon deal)? */
static inline int32_t past_horizon(const cc_searcher *s, const void *state) {
    return s->horizon && s->game->deal_index(state, NULL) != s->root_deal;
}

static inline int32_t sample(const cc_searcher *s, const void *state, int32_t root, uint64_t seed,
                             void *out) {
    if (s->prepared) return s->game->sample_draw(state, s->scratch, seed, out);
    return s->game->sample_infoset(state, root, seed, out);
}

/* Has another tree of this search, or the caller, asked every tree to stop? */
static inline int32_t stop_requested(const cc_searcher *s) {
    return atomic_load_explicit(s->stop, memory_order_relaxed) != 0 ||
           (s->halt != NULL && *s->halt != 0);
}

/* Is the budget spent after sims simulations started at t0 (or the search
 * asked to stop)? */
static inline int32_t budget_spent(const cc_searcher *s, int64_t sims, double t0) {
    if (stop_requested(s)) return 1;
    if (s->spec.seconds > 0.0) {
        if (s->spec.simulations > 0 && sims >= s->spec.simulations) return 1;
        return now_seconds() - t0 >= s->spec.seconds;
    }
    return sims >= s->spec.simulations;
}

/* Can the game's solver take state within the spec's reach? */
static inline int32_t in_reach(const cc_searcher *s, const void *state) {
    int32_t d = s->game->solve_depth(state);
    return d >= 0 && d <= s->spec.solve;
}

/* ---- across files --------------------------------------------------------- */

/* rollout.c */
int32_t cc_search_random_action(const cc_searcher *s, const void *state, cc_rng *rng,
                                int32_t *action);
int32_t cc_search_policy_action(const cc_searcher *s, int32_t heuristic, const void *state,
                                cc_rng *rng, int32_t *action);
void cc_search_leaf_rewards(const cc_searcher *s, const void *state, double *reward);
int32_t cc_search_rollout(const cc_searcher *s, void *state, cc_rng *rng, double *reward);
int32_t cc_search_solve(const cc_searcher *s, const void *state, double *values);
int32_t cc_search_solve_play(const cc_searcher *s, void *state);
void cc_search_sampler_prepare(cc_searcher *s, const void *state, int32_t root);
/* pimc.c */
int32_t cc_pimc_run(cc_searcher *s, const void *state, int32_t root, const int32_t *acts,
                    int32_t nlegal, cc_rng *rng);
int32_t cc_pimc_run_worlds(cc_searcher *s, const void *state, int32_t root, const int32_t *acts,
                           int32_t nlegal, int32_t ns, const double *wts, cc_rng *rng);
int32_t cc_pimc_choose(const cc_searcher *s, const int32_t *acts, int32_t nlegal, int32_t *action);
/* nets_search.c */
int32_t cc_net_bot_act(cc_searcher *s, const void *state, int32_t player, int32_t *action);
int32_t cc_net_rollout_action(const cc_searcher *s, const float *obs, const uint64_t *mask,
                              cc_rng *rng, int32_t *action);
/* ismcts.c */
int32_t cc_ismcts_tree(cc_searcher *s, const void *state, int32_t root, cc_rng *rng);
int32_t cc_ismcts_choose(const cc_searcher *s, int32_t *action);

#endif /* CC_SEARCH_INTERNAL_H */
