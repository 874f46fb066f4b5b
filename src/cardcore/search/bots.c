/* bots.c: the built-in bots over the generic game table (cc_bots.h):
 * random, the game's heuristic, determinized Monte Carlo (PIMC) and
 * single-observer ISMCTS.  Everything a search needs is allocated once, in
 * cc_searcher_new; a simulation allocates nothing.  docs/search.rst
 * describes the algorithms, the reward and the cost. */
#include <math.h>
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
    void *scratch; /* the game's prepared sampler (sample_prepare), or NULL */
    int32_t prepared; /* scratch holds the position being searched */
    int64_t last_sims;
    int64_t last_nodes;
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
    if (heuristic && s->game->heuristic != NULL)
        return s->game->heuristic(state, rng, action);
    return random_action(s, state, rng, action);
}

/* Rewards of a finished game, by rank: (others with fewer points + half
 * the others with as many) / (nplayers - 1), in [0, 1]. */
static void rank_rewards(const cc_searcher *s, const void *state, double *reward) {
    int32_t ret[CC_MAX_PLAYERS];
    int32_t n = s->nplayers;
    s->game->returns(state, ret);
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

/* Play state to the end with the rollout policy; rewards per player. */
static int32_t rollout(const cc_searcher *s, void *state, cc_rng *rng, double *reward) {
    const cc_game *g = s->game;
    int32_t heuristic = s->spec.rollout == CC_ROLLOUT_HEURISTIC && g->heuristic != NULL;
    int64_t steps = 0;
    for (;;) {
        int32_t a, rc;
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
    rank_rewards(s, state, reward);
    return CC_OK;
}

/* The samples of one search all come from the same position and player:
 * a game with a two-phase sampler does the work they share once, here
 * (cardcore.h: its draws are exactly sample_infoset's). */
static void sampler_prepare(cc_searcher *s, const void *state, int32_t root) {
    s->prepared = s->scratch != NULL &&
                  s->game->sample_prepare(state, root, s->scratch, s->game->sample_scratch_size) ==
                      CC_OK;
}

static inline int32_t sample(const cc_searcher *s, const void *state, int32_t root,
                             uint64_t seed, void *out) {
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
    if (spec->kind < CC_BOT_RANDOM || spec->kind > CC_BOT_ISMCTS)
        f = CC_BOT_F_KIND;
    else if (spec->rollout != CC_ROLLOUT_RANDOM && spec->rollout != CC_ROLLOUT_HEURISTIC)
        f = CC_BOT_F_ROLLOUT;
    else if (spec->simulations < 0 || spec->simulations > CC_BOT_MAX_SIMULATIONS ||
             (search && spec->seconds == 0.0 && spec->simulations < 1))
        f = CC_BOT_F_SIMULATIONS;
    else if (!(spec->seconds >= 0.0 && spec->seconds <= CC_BOT_MAX_SECONDS))
        f = CC_BOT_F_SECONDS;
    else if (!(spec->exploration >= 0.0 && spec->exploration <= CC_BOT_MAX_EXPLORATION))
        f = CC_BOT_F_EXPLORATION;
    else if (spec->samples < (search ? 1 : 0) || spec->samples > CC_BOT_MAX_SAMPLES)
        f = CC_BOT_F_SAMPLES;
    else if (spec->reserved != 0)
        f = CC_BOT_F_RESERVED;
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
    free(s);
}

cc_searcher *cc_searcher_new(const cc_game *game, const int32_t *params, int32_t nplayers,
                             const cc_bot_spec *spec, int32_t *status) {
    int32_t ignored;
    if (status == NULL) status = &ignored;
    *status = CC_E_ARG;
    if (game == NULL || params == NULL || spec == NULL) return NULL;
    if (game->num_params < 0 || game->num_params > CC_MAX_PARAMS) return NULL;
    if (nplayers < game->min_players || nplayers > game->max_players ||
        nplayers > CC_MAX_PLAYERS) {
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
    if (!ok) {
        cc_searcher_free(s);
        return NULL;
    }
    *status = CC_OK;
    return s;
}

int64_t cc_searcher_last_simulations(const cc_searcher *s) { return s ? s->last_sims : 0; }
int64_t cc_searcher_last_nodes(const cc_searcher *s) { return s ? s->last_nodes : 0; }

/* ---- PIMC ---------------------------------------------------------------- */

static int32_t pimc(cc_searcher *s, const void *state, int32_t root, const uint64_t *mask,
                    int32_t nlegal, cc_rng *rng, int32_t *action) {
    const cc_game *g = s->game;
    size_t ss = g->state_size;
    int32_t acts[CC_MAX_ACTIONS];
    for (int32_t i = 0; i < nlegal; i++) {
        acts[i] = cc_mask_select(mask, s->nwords, i);
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
    int32_t best = acts[0];
    double best_mean = -1.0;
    for (int32_t k = 0; k < nlegal; k++) {
        int32_t a = acts[k];
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

/* One iteration: determinize, select/expand, roll out, back up. */
static int32_t ismcts_iteration(cc_searcher *s, const void *state, int32_t root, cc_rng *rng) {
    const cc_game *g = s->game;
    void *det = s->det;
    node *nodes = s->nodes;
    edge *edges = s->edges;
    const double c = s->spec.exploration;
    const int32_t nw = s->nwords;
    int32_t rc = sample(s, state, root, cc_rng_next(rng), det);
    if (rc != CC_OK) return rc;
    int32_t cur = 0;
    for (;;) {
        int32_t cp = g->current_player(det);
        if (cp == CC_PLAYER_TERMINAL) break;
        if (cp < 0 || cp >= s->nplayers) return CC_E_ARG;
        uint64_t mask[CC_MASK_WORDS];
        int32_t n = legal(s, det, mask);
        if (n <= 0) return CC_E_ARG;
        /* mask keeps the untried actions: children's actions are cleared */
        int32_t best = -1, navail = 0;
        double best_v = -1.0;
        for (int32_t ch = nodes[cur].first_child; ch >= 0; ch = edges[ch].next_sibling) {
            int32_t a = edges[ch].action;
            uint64_t bit = (uint64_t)1 << (a & 63);
            if (!(mask[a >> 6] & bit)) continue;
            mask[a >> 6] &= ~bit;
            navail++;
            node *x = &nodes[ch];
            x->avail++;
            double v = x->total / (double)x->visits +
                       c * sqrt(ln_exact((double)x->avail) / (double)x->visits);
            if (v > best_v) {
                best_v = v;
                best = ch;
            }
        }
        int32_t untried = n - navail;
        if (untried > 0 && s->used_nodes < s->cap_nodes) {
            int32_t a = cc_mask_select(mask, nw, (int32_t)rng_uniform(rng, (uint32_t)untried));
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
    double reward[CC_MAX_PLAYERS];
    rc = rollout(s, det, rng, reward);
    if (rc != CC_OK) return rc;
    for (int32_t x = cur; x > 0; x = nodes[x].parent) {
        nodes[x].visits++;
        nodes[x].total += reward[edges[x].player];
    }
    nodes[0].visits++;
    return CC_OK;
}

static int32_t ismcts(cc_searcher *s, const void *state, int32_t root, cc_rng *rng,
                      int32_t *action) {
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
    sampler_prepare(s, state, root);
    double t0 = s->spec.seconds > 0.0 ? now_seconds() : 0.0;
    int64_t sims = 0;
    while (!budget_spent(s, sims, t0)) {
        int32_t rc = ismcts_iteration(s, state, root, rng);
        if (rc != CC_OK) return rc;
        sims++;
    }
    s->last_sims = sims;
    s->last_nodes = s->used_nodes;
    /* the most visited root action; ties: the better mean, then the lower id */
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

/* ---- act ----------------------------------------------------------------- */

int32_t cc_searcher_act(cc_searcher *s, const cc_game *game, const void *state,
                        int32_t player, cc_rng *rng, int32_t *action) {
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
    cc_log_mute((cc_log *)(void *)((char *)s->root + game->log_offset), how);
    if (kind == CC_BOT_PIMC) return pimc(s, s->root, cp, mask, n, rng, action);
    return ismcts(s, s->root, cp, rng, action);
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
    if (nplayers < game->min_players || nplayers > game->max_players ||
        nplayers > CC_MAX_PLAYERS)
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
        for (int32_t p = 0; p < nplayers; p++)
            cc_rng_seed(&rngs[p], bot_seeds[gi * nplayers + p]);
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
