/* vecenv.c: a vector of games stepped by one call (see cc_vecenv.h and
 * docs/envs.rst, "The vector environment"). */
#include "cc_vecenv.h"

#include "cc_internal.h"

#if !defined(_WIN32)
#define CC_VEC_PTHREADS 1
#include <pthread.h>
#endif

#define VEC_MAGIC 0x63635F7665636E76ULL /* "cc_vecnv" */
#define VEC_ALIGN 64
/* A guard against a game that never reaches the learner again. */
#define VEC_STEP_LIMIT 1000000
/* A guard against deals that all end before the learner's first turn. */
#define VEC_DEAL_LIMIT 1000
/* Distinct generator seeds for the games of a vector (the 64-bit golden ratio). */
#define VEC_SEED_STRIDE 0x9E3779B97F4A7C15ULL

typedef struct vec_header {
    uint64_t magic;
    const cc_game *game;
    int32_t params[CC_MAX_PARAMS];
    int32_t nplayers;
    int32_t learner;
    int32_t opponent;
    int32_t num_actions;
    int32_t tensor_size;
    int32_t reserved;
    int64_t n;
    size_t slot_size;
} vec_header;

/* The slot of one game, followed by its state. */
typedef struct vec_slot {
    cc_rng rng;        /* seeds of its games, the opponents' moves */
    cc_rng learner;    /* cc_vecenv_random_actions */
    int64_t episodes;  /* games finished */
    int64_t skipped;   /* games dealt again before the learner's first turn */
    int32_t baseline;  /* the learner's score already given as reward */
    int32_t reserved;
    uint64_t legal[CC_MASK_WORDS]; /* the learner's legal actions now */
} vec_slot;

static size_t round_up(size_t x) { return (x + VEC_ALIGN - 1) / VEC_ALIGN * VEC_ALIGN; }

static size_t header_size(void) { return round_up(sizeof(vec_header)); }

static size_t slot_size(const cc_game *game) {
    return round_up(round_up(sizeof(vec_slot)) + game->state_size);
}

static vec_slot *slot_at(const vec_header *v, int64_t i) {
    return (vec_slot *)(void *)((char *)(void *)v + header_size() + (size_t)i * v->slot_size);
}

static void *state_of(vec_slot *s) { return (char *)(void *)s + round_up(sizeof(vec_slot)); }

static const vec_header *header_of(const void *mem) {
    const vec_header *v = (const vec_header *)mem;
    return (v != NULL && v->magic == VEC_MAGIC) ? v : NULL;
}

size_t cc_vecenv_bytes(const cc_game *game, int64_t n) {
    if (game == NULL || n < 1 || n > CC_VEC_MAX_GAMES) return 0;
    return header_size() + (size_t)n * slot_size(game);
}

int64_t cc_vecenv_size(const void *mem) {
    const vec_header *v = header_of(mem);
    return v ? v->n : 0;
}

int32_t cc_vecenv_num_actions(const void *mem) {
    const vec_header *v = header_of(mem);
    return v ? v->num_actions : 0;
}

int32_t cc_vecenv_tensor_size(const void *mem) {
    const vec_header *v = header_of(mem);
    return v ? v->tensor_size : 0;
}

const void *cc_vecenv_state(const void *mem, int64_t i) {
    const vec_header *v = header_of(mem);
    if (v == NULL || i < 0 || i >= v->n) return NULL;
    return state_of(slot_at(v, i));
}

int64_t cc_vecenv_episodes(const void *mem) {
    const vec_header *v = header_of(mem);
    int64_t total = 0;
    if (v == NULL) return 0;
    for (int64_t i = 0; i < v->n; i++) total += slot_at(v, i)->episodes;
    return total;
}

int64_t cc_vecenv_skipped(const void *mem) {
    const vec_header *v = header_of(mem);
    int64_t total = 0;
    if (v == NULL) return 0;
    for (int64_t i = 0; i < v->n; i++) total += slot_at(v, i)->skipped;
    return total;
}

/* ---- one game ------------------------------------------------------------- */

/* The k-th (0-based) set bit of a CC_MASK_WORDS mask. */
static int32_t nth_action(const uint64_t *mask, int32_t k) {
    for (int32_t w = 0; w < CC_MASK_WORDS; w++) {
        int32_t c = cc_popcount64(mask[w]);
        if (k < c) {
            uint64_t m = mask[w];
            for (int32_t i = 0; i < k; i++) m &= m - 1;
            return w * 64 + cc_ctz64(m);
        }
        k -= c;
    }
    return -1;
}

static int32_t opponent_action(const vec_header *v, const void *state, cc_rng *rng,
                               int32_t *action) {
    if (v->opponent == CC_VEC_HEURISTIC && v->game->heuristic != NULL)
        return v->game->heuristic(state, rng, action);
    uint64_t mask[CC_MASK_WORDS] = {0};
    int32_t n = v->game->legal_actions(state, mask);
    if (n <= 0) return CC_E_ARG;
    *action = nth_action(mask, (int32_t)cc_rng_below(rng, (uint64_t)n));
    return *action < 0 ? CC_E_ARG : CC_OK;
}

/* Play the other seats until the learner is to act or the game is over. */
static int32_t advance(const vec_header *v, vec_slot *s) {
    void *state = state_of(s);
    const cc_game *g = v->game;
    int32_t p;
    int64_t moves = 0;
    while ((p = g->current_player(state)) != v->learner && p != CC_PLAYER_TERMINAL) {
        if (p < 0 || p >= v->nplayers) return CC_E_ARG; /* explicit chance: not supported */
        int32_t a = -1;
        int32_t rc = opponent_action(v, state, &s->rng, &a);
        if (rc != CC_OK) return rc < 0 ? rc : CC_E_ILLEGAL;
        rc = g->apply(state, a);
        if (rc != CC_OK) return rc < 0 ? rc : CC_E_ILLEGAL;
        if (++moves > VEC_STEP_LIMIT) return CC_E_CAPACITY;
    }
    return CC_OK;
}

/* Keep the learner's legal actions in the slot: the step checks the
 * learner's actions against them, and the mask is written from them. */
static void refresh_legal(const vec_header *v, vec_slot *s) {
    memset(s->legal, 0, sizeof s->legal);
    v->game->legal_actions(state_of(s), s->legal);
}

/* Deal the slot's next game and play up to the learner's first turn. */
static int32_t new_game(const vec_header *v, vec_slot *s) {
    void *state = state_of(s);
    for (int32_t tries = 0; tries < VEC_DEAL_LIMIT; tries++) {
        /* as a new state of the binding, up to the log's entries (each entry is
         * written before it is kept, so old ones are never read) */
        memset(state, 0, v->game->log_offset + sizeof(cc_log));
        int32_t rc = v->game->init(state, v->params, v->nplayers, cc_rng_next(&s->rng));
        if (rc != CC_OK) return rc;
        rc = advance(v, s);
        if (rc != CC_OK) return rc;
        if (v->game->current_player(state) == v->learner) {
            s->baseline = 0;
            refresh_legal(v, s);
            return CC_OK;
        }
        s->skipped++;
    }
    return CC_E_CAPACITY;
}

static void write_view(const vec_header *v, vec_slot *s, float *obs, int8_t *mask) {
    v->game->observe_tensor(state_of(s), v->learner, obs);
    memset(mask, 0, (size_t)v->num_actions);
    for (int32_t w = 0; w < CC_MASK_WORDS; w++)
        for (uint64_t m = s->legal[w]; m; m &= m - 1) {
            int32_t a = w * 64 + cc_ctz64(m);
            if (a < v->num_actions) mask[a] = 1;
        }
}

/* ---- ranges of games, on one thread each ---------------------------------- */

enum { JOB_OBSERVE, JOB_RESET, JOB_VERIFY, JOB_STEP, JOB_RANDOM };

typedef struct vec_job {
    const vec_header *v;
    int kind;
    int64_t begin, end;
    const int32_t *actions;
    float *obs;
    int8_t *masks;
    float *rewards;
    uint8_t *terminated;
    int32_t *out; /* JOB_RANDOM */
    int32_t rc;
    int64_t bad; /* JOB_VERIFY: the first game with an illegal action */
} vec_job;

static int32_t run_job(vec_job *j) {
    const vec_header *v = j->v;
    const cc_game *g = v->game;
    size_t T = (size_t)v->tensor_size, A = (size_t)v->num_actions;
    int32_t ret[CC_MAX_PLAYERS];
    for (int64_t i = j->begin; i < j->end; i++) {
        vec_slot *s = slot_at(v, i);
        void *state = state_of(s);
        int32_t rc = CC_OK;
        switch (j->kind) {
        case JOB_VERIFY: {
            int32_t a = j->actions[i];
            if (a < 0 || a >= v->num_actions || !((s->legal[a >> 6] >> (a & 63)) & 1)) {
                j->bad = i;
                return CC_E_ILLEGAL;
            }
            continue;
        }
        case JOB_RANDOM: {
            int32_t k = 0;
            for (int32_t w = 0; w < CC_MASK_WORDS; w++) k += cc_popcount64(s->legal[w]);
            if (k <= 0) return CC_E_ARG;
            j->out[i] = nth_action(s->legal, (int32_t)cc_rng_below(&s->learner, (uint64_t)k));
            continue;
        }
        case JOB_RESET:
            rc = new_game(v, s);
            break;
        case JOB_STEP: {
            rc = g->apply(state, j->actions[i]);
            if (rc != CC_OK) return rc < 0 ? rc : CC_E_ILLEGAL;
            rc = advance(v, s);
            if (rc != CC_OK) return rc;
            g->returns(state, ret);
            int32_t score = ret[v->learner];
            j->rewards[i] = (float)(score - s->baseline);
            if (g->current_player(state) == CC_PLAYER_TERMINAL) {
                j->terminated[i] = 1;
                s->episodes++;
                rc = new_game(v, s);
            } else {
                j->terminated[i] = 0;
                s->baseline = score;
                refresh_legal(v, s);
            }
            break;
        }
        default:
            break;
        }
        if (rc != CC_OK) return rc;
        write_view(v, s, j->obs + (size_t)i * T, j->masks + (size_t)i * A);
    }
    return CC_OK;
}

#ifdef CC_VEC_PTHREADS
static void *job_thread(void *arg) {
    vec_job *j = (vec_job *)arg;
    j->rc = run_job(j);
    return NULL;
}
#endif

/* Run the job over all games in nthreads contiguous ranges; the first error
 * (in game order) is returned, with its game in *bad for JOB_VERIFY. */
static int32_t run_all(const vec_header *v, vec_job proto, int32_t nthreads, int64_t *bad) {
    vec_job jobs[CC_VEC_MAX_THREADS];
    if (nthreads < 1) nthreads = 1;
    if (nthreads > CC_VEC_MAX_THREADS) nthreads = CC_VEC_MAX_THREADS;
    if ((int64_t)nthreads > v->n) nthreads = (int32_t)v->n;
    for (int32_t t = 0; t < nthreads; t++) {
        jobs[t] = proto;
        jobs[t].begin = v->n * t / nthreads;
        jobs[t].end = v->n * (t + 1) / nthreads;
        jobs[t].rc = CC_OK;
        jobs[t].bad = -1;
    }
#ifdef CC_VEC_PTHREADS
    pthread_t tid[CC_VEC_MAX_THREADS];
    int started[CC_VEC_MAX_THREADS] = {0};
    for (int32_t t = 1; t < nthreads; t++)
        started[t] = pthread_create(&tid[t], NULL, job_thread, &jobs[t]) == 0;
    jobs[0].rc = run_job(&jobs[0]);
    for (int32_t t = 1; t < nthreads; t++) {
        if (started[t])
            pthread_join(tid[t], NULL);
        else
            jobs[t].rc = run_job(&jobs[t]); /* no thread: run it here */
    }
#else
    for (int32_t t = 0; t < nthreads; t++) jobs[t].rc = run_job(&jobs[t]);
#endif
    for (int32_t t = 0; t < nthreads; t++) {
        if (jobs[t].rc != CC_OK) {
            if (bad) *bad = jobs[t].bad;
            return jobs[t].rc;
        }
    }
    return CC_OK;
}

/* ---- the public calls --------------------------------------------------------- */

int32_t cc_vecenv_init(void *mem, size_t nbytes, const cc_game *game, const int32_t *params,
                       int32_t nplayers, int32_t learner, int32_t opponent, int64_t n,
                       uint64_t seed) {
    if (mem == NULL || game == NULL || params == NULL || n < 1 || n > CC_VEC_MAX_GAMES)
        return CC_E_ARG;
    if (opponent != CC_VEC_RANDOM && opponent != CC_VEC_HEURISTIC) return CC_E_ARG;
    if (game->num_params > CC_MAX_PARAMS) return CC_E_ARG;
    int32_t rc = cc_game_check_params(game, params, nplayers, NULL);
    if (rc != CC_OK) return rc;
    if (learner < 0 || learner >= nplayers) return CC_E_ARG;
    if (nbytes < cc_vecenv_bytes(game, n)) return CC_E_CAPACITY;
    int32_t na = game->num_actions(params, nplayers);
    int32_t ts = game->tensor_size(params, nplayers);
    if (na < 1 || na > CC_MAX_ACTIONS || ts < 0) return CC_E_PARAMS;
    vec_header *v = (vec_header *)mem;
    memset(v, 0, header_size());
    v->game = game;
    memcpy(v->params, params, sizeof(int32_t) * (size_t)game->num_params);
    v->nplayers = nplayers;
    v->learner = learner;
    v->opponent = opponent;
    v->num_actions = na;
    v->tensor_size = ts;
    v->n = n;
    v->slot_size = slot_size(game);
    for (int64_t i = 0; i < n; i++) {
        vec_slot *s = slot_at(v, i);
        memset(s, 0, v->slot_size);
        cc_rng_seed(&s->rng, seed + (uint64_t)i * VEC_SEED_STRIDE);
        cc_rng_seed(&s->learner, ~(seed + (uint64_t)i * VEC_SEED_STRIDE));
        rc = new_game(v, s);
        if (rc != CC_OK) return rc;
    }
    v->magic = VEC_MAGIC; /* valid only once every game is dealt */
    return CC_OK;
}

int32_t cc_vecenv_observe(const void *mem, float *obs, int8_t *masks, int32_t nthreads) {
    const vec_header *v = header_of(mem);
    if (v == NULL || obs == NULL || masks == NULL) return CC_E_ARG;
    vec_job proto = {.v = v, .kind = JOB_OBSERVE, .obs = obs, .masks = masks};
    return run_all(v, proto, nthreads, NULL);
}

int32_t cc_vecenv_reset(void *mem, float *obs, int8_t *masks, int32_t nthreads) {
    const vec_header *v = header_of(mem);
    if (v == NULL || obs == NULL || masks == NULL) return CC_E_ARG;
    vec_job proto = {.v = v, .kind = JOB_RESET, .obs = obs, .masks = masks};
    return run_all(v, proto, nthreads, NULL);
}

int32_t cc_vecenv_step(void *mem, const int32_t *actions, float *obs, int8_t *masks,
                       float *rewards, uint8_t *terminated, int32_t nthreads,
                       int64_t *bad_index) {
    const vec_header *v = header_of(mem);
    if (bad_index) *bad_index = -1;
    if (v == NULL || actions == NULL || obs == NULL || masks == NULL || rewards == NULL ||
        terminated == NULL)
        return CC_E_ARG;
    vec_job proto = {.v = v, .kind = JOB_VERIFY, .actions = actions};
    int32_t rc = run_all(v, proto, nthreads, bad_index);
    if (rc != CC_OK) return rc;
    proto.kind = JOB_STEP;
    proto.obs = obs;
    proto.masks = masks;
    proto.rewards = rewards;
    proto.terminated = terminated;
    return run_all(v, proto, nthreads, NULL);
}

int32_t cc_vecenv_random_actions(void *mem, int32_t *actions, int32_t nthreads) {
    const vec_header *v = header_of(mem);
    if (v == NULL || actions == NULL) return CC_E_ARG;
    vec_job proto = {.v = v, .kind = JOB_RANDOM, .out = actions};
    return run_all(v, proto, nthreads, NULL);
}
