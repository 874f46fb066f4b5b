/* vecenv.c: a vector of games stepped by one call (see cc_vecenv.h and
 * docs/envs.rst, "The vector environment"). */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* getpid, posix_memalign, clock_gettime */
#endif
#include "cc_vecenv.h"

#include "cc_internal.h"

/* Worker threads: POSIX threads and C11 atomics (a build without either
 * steps every range on the calling thread). */
#if !defined(_WIN32) && !defined(__STDC_NO_ATOMICS__)
#define CC_VEC_PTHREADS 1
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "threads_internal.h"
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
    int32_t mask_words; /* words of a legal mask that can hold an action */
    int32_t events;     /* CC_VEC_EVENTS: the games keep their event logs */
    int64_t n;
    size_t slot_size;
    size_t scratch_bytes;  /* the scratch states between the header and the slots */
    struct vec_pool *pool; /* the worker threads, NULL until a call needs one */
    int32_t predraw;       /* cc_vecenv_random_actions ran since the last step */
} vec_header;

/* The slot of one game, followed by its state. */
typedef struct vec_slot {
    cc_rng rng;                    /* seeds of its games, the opponents' moves */
    cc_rng learner;                /* cc_vecenv_random_actions */
    int64_t episodes;              /* games finished */
    int64_t skipped;               /* games dealt again before the learner's first turn */
    int32_t baseline;              /* the learner's score already given as reward */
    int32_t nlegal;                /* the number of the learner's legal actions now */
    uint64_t legal[CC_MASK_WORDS]; /* the learner's legal actions now */
    /* cc_vecenv_random_actions' next draw, made ahead by a step on the
     * step's thread (drawn: valid): the action, and the learner generator
     * after it (the generator itself moves on only when the draw is used) */
    cc_rng drawn_rng;
    int32_t drawn_action;
    int32_t drawn;
    int32_t final[CC_MAX_PLAYERS]; /* every seat's returns at the end of its last game */
} vec_slot;

static size_t round_up(size_t x) { return (x + VEC_ALIGN - 1) / VEC_ALIGN * VEC_ALIGN; }

static size_t header_size(void) { return round_up(sizeof(vec_header)); }

/* A game keeping no log needs its state only up to its log's header (the
 * log has capacity 0: nothing is written after the header). */
static size_t state_bytes(const cc_game *game, int32_t flags) {
    return (flags & CC_VEC_EVENTS) ? game->state_size : game->log_offset + sizeof(cc_log);
}

static size_t slot_size(const cc_game *game, int32_t flags) {
    return round_up(round_up(sizeof(vec_slot)) + state_bytes(game, flags));
}

/* Scratch states (log-free vectors only): one per thread that may run,
 * min(n, CC_VEC_MAX_THREADS), each a whole state, for dealing. */
static int64_t scratch_count(const cc_game *game, int64_t n, int32_t flags) {
    (void)game;
    if (flags & CC_VEC_EVENTS) return 0;
    return n < CC_VEC_MAX_THREADS ? n : CC_VEC_MAX_THREADS;
}

static size_t scratch_bytes(const cc_game *game, int64_t n, int32_t flags) {
    return (size_t)scratch_count(game, n, flags) * round_up(game->state_size);
}

static void *scratch_at(const vec_header *v, int32_t t) {
    if (v->events) return NULL;
    return (char *)(void *)v + header_size() + (size_t)t * round_up(v->game->state_size);
}

static vec_slot *slot_at(const vec_header *v, int64_t i) {
    return (vec_slot *)(void *)((char *)(void *)v + header_size() + v->scratch_bytes +
                                (size_t)i * v->slot_size);
}

static void *state_of(vec_slot *s) { return (char *)(void *)s + round_up(sizeof(vec_slot)); }

static const vec_header *header_of(const void *mem) {
    const vec_header *v = (const vec_header *)mem;
    return (v != NULL && v->magic == VEC_MAGIC) ? v : NULL;
}

size_t cc_vecenv_bytes(const cc_game *game, int64_t n, int32_t flags) {
    if (game == NULL || n < 1 || n > CC_VEC_MAX_GAMES || (flags & ~CC_VEC_EVENTS)) return 0;
    return header_size() + scratch_bytes(game, n, flags) + (size_t)n * slot_size(game, flags);
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

int32_t cc_vecenv_copy_state(const void *mem, int64_t i, void *out) {
    const void *src = cc_vecenv_state(mem, i);
    if (src == NULL || out == NULL) return CC_E_ARG;
    const vec_header *v = header_of(mem);
    memcpy(out, src, cc_game_used_size(v->game, src));
    /* a log-free game: the copy gets an empty log of the game's capacity */
    if (!v->events)
        cc_log_init((cc_log *)(void *)((char *)out + v->game->log_offset), v->game->log_capacity);
    return CC_OK;
}

int64_t cc_vecenv_episodes(const void *mem) {
    const vec_header *v = header_of(mem);
    int64_t total = 0;
    if (v == NULL) return 0;
    for (int64_t i = 0; i < v->n; i++) total += slot_at(v, i)->episodes;
    return total;
}

int32_t cc_vecenv_final_returns(const void *mem, int32_t *out) {
    const vec_header *v = header_of(mem);
    if (v == NULL || out == NULL) return CC_E_ARG;
    size_t P = (size_t)v->nplayers;
    for (int64_t i = 0; i < v->n; i++)
        memcpy(out + (size_t)i * P, slot_at(v, i)->final, P * sizeof *out);
    return CC_OK;
}

int64_t cc_vecenv_skipped(const void *mem) {
    const vec_header *v = header_of(mem);
    int64_t total = 0;
    if (v == NULL) return 0;
    for (int64_t i = 0; i < v->n; i++) total += slot_at(v, i)->skipped;
    return total;
}

/* ---- one game ------------------------------------------------------------- */

static int32_t opponent_action(const vec_header *v, const void *state, cc_rng *rng,
                               int32_t *action) {
    if (v->opponent == CC_VEC_HEURISTIC && v->game->heuristic != NULL)
        return v->game->heuristic(state, rng, action);
    uint64_t mask[CC_MASK_WORDS] = {0};
    int32_t n = v->game->legal_actions(state, mask);
    if (n <= 0) return CC_E_ARG;
    *action = cc_mask_select(mask, v->mask_words, (int32_t)cc_rng_below_inline(rng, (uint64_t)n));
    return *action < 0 ? CC_E_ARG : CC_OK;
}

/* Play the other seats until the learner is to act or the game is over;
 * *who gets the learner's seat or CC_PLAYER_TERMINAL. */
static int32_t advance(const vec_header *v, vec_slot *s, int32_t *who) {
    void *state = state_of(s);
    const cc_game *g = v->game;
    int32_t p;
    int64_t moves = 0;
    while ((p = g->current_player(state)) != v->learner && p != CC_PLAYER_TERMINAL) {
        if (p < 0 || p >= v->nplayers) return CC_E_ARG; /* explicit chance: not supported */
        int32_t a = -1;
        int32_t rc = opponent_action(v, state, &s->rng, &a);
        if (rc != CC_OK) return cc_status_error(rc, CC_E_ILLEGAL);
        rc = g->apply(state, a);
        if (rc != CC_OK) return cc_status_error(rc, CC_E_ILLEGAL);
        if (++moves > VEC_STEP_LIMIT) return CC_E_CAPACITY;
    }
    *who = p;
    return CC_OK;
}

/* Keep the learner's legal actions in the slot: the step checks the
 * learner's actions against them, and the mask is written from them. */
static void refresh_legal(const vec_header *v, vec_slot *s) {
    memset(s->legal, 0, sizeof s->legal);
    s->nlegal = v->game->legal_actions(state_of(s), s->legal);
    s->drawn = 0;
}

/* The learner's random action from generator g over the kept legal mask
 * (cc_vecenv_random_actions); -1 without a legal action. */
static int32_t random_action(const vec_header *v, const vec_slot *s, cc_rng *g) {
    if (s->nlegal <= 0) return -1;
    uint64_t k = cc_rng_below_inline(g, (uint64_t)s->nlegal);
    return cc_mask_select(s->legal, v->mask_words, (int32_t)k);
}

/* Draw the learner's next random action ahead, on a copy of its generator:
 * what cc_vecenv_random_actions would draw now, made on the thread that
 * stepped the game (a loop of random_actions and step then spends its
 * serial part on a copy per game). */
static void draw_ahead(const vec_header *v, vec_slot *s) {
    s->drawn_rng = s->learner;
    s->drawn_action = random_action(v, s, &s->drawn_rng);
    s->drawn = s->drawn_action >= 0;
}

/* Deal the slot's next game and play up to the learner's first turn.  A game
 * that keeps its log is dealt in its slot.  A log-free game is dealt in the
 * thread's scratch state (a whole state: the game's init starts its log with
 * the game's capacity and logs the deal), then its fixed part is copied into
 * the slot, which ends after the log's header, and the log is switched off
 * (capacity 0 and muted: the rules never read the log, cardcore.h, so the
 * game plays the same; nothing is written after the header from then on). */
static int32_t new_game(const vec_header *v, vec_slot *s, void *scratch) {
    void *state = state_of(s);
    size_t fixed = v->game->log_offset + sizeof(cc_log);
    void *deal = v->events ? state : scratch;
    for (int32_t tries = 0; tries < VEC_DEAL_LIMIT; tries++) {
        /* as a new state of the binding, up to the log's entries (each entry is
         * written before it is kept, so old ones are never read) */
        memset(deal, 0, fixed);
        int32_t rc = v->game->init(deal, v->params, v->nplayers, cc_rng_next(&s->rng));
        if (rc != CC_OK) return rc;
        if (!v->events) {
            memcpy(state, deal, v->game->log_offset);
            cc_log *log = (cc_log *)(void *)((char *)state + v->game->log_offset);
            cc_log_init(log, 0);
            /* muted: an event costs the game a test (cardcore.h, "the event
             * log"); trusted with random opponents: every action applied is
             * one legal_actions reported (the learner's are checked against
             * it in cc_vecenv_step), so a game's apply may skip verifying it */
            cc_log_mute(log, CC_LOG_MUTED | (v->opponent == CC_VEC_RANDOM ? CC_LOG_TRUSTED : 0));
        }
        int32_t who = CC_PLAYER_TERMINAL;
        rc = advance(v, s, &who);
        if (rc != CC_OK) return rc;
        if (who == v->learner) {
            s->baseline = 0;
            refresh_legal(v, s);
            return CC_OK;
        }
        s->skipped++;
    }
    return CC_E_CAPACITY;
}

/* SPREAD[b]: the 8 bytes of an int8 mask for the 8 bits of b (byte i is bit
 * i; little-endian order of the bytes in memory, fixed by spread_store). */
#define SP1(b)                                                             \
    ((uint64_t)(((b) >> 0) & 1) << 0 | (uint64_t)(((b) >> 1) & 1) << 8 |   \
     (uint64_t)(((b) >> 2) & 1) << 16 | (uint64_t)(((b) >> 3) & 1) << 24 | \
     (uint64_t)(((b) >> 4) & 1) << 32 | (uint64_t)(((b) >> 5) & 1) << 40 | \
     (uint64_t)(((b) >> 6) & 1) << 48 | (uint64_t)(((b) >> 7) & 1) << 56)
#define SP4(b) SP1(b), SP1((b) + 1), SP1((b) + 2), SP1((b) + 3)
#define SP16(b) SP4(b), SP4((b) + 4), SP4((b) + 8), SP4((b) + 12)
#define SP64(b) SP16(b), SP16((b) + 16), SP16((b) + 32), SP16((b) + 48)
static const uint64_t SPREAD[256] = {SP64(0), SP64(64), SP64(128), SP64(192)};
#undef SP1
#undef SP4
#undef SP16
#undef SP64

/* Write 8 mask bytes for the 8 bits of b, byte i for bit i on any byte order. */
static inline void spread_store(int8_t *out, uint32_t b) {
    uint64_t x = SPREAD[b & 0xFF];
    unsigned char bytes[8];
    for (int i = 0; i < 8; i++) bytes[i] = (unsigned char)(x >> (8 * i));
    memcpy(out, bytes, 8);
}

/* The learner's mask as int8 bytes: zeros, then 8 actions per table lookup
 * for each byte of the legal mask that has a legal action. */
static void write_mask(const vec_header *v, const vec_slot *s, int8_t *mask) {
    int32_t A = v->num_actions;
    memset(mask, 0, (size_t)A);
    for (int32_t w = 0; w < v->mask_words; w++) {
        for (uint64_t m = s->legal[w]; m;) {
            int32_t shift = cc_ctz64(m) & ~7;
            int32_t base = w * 64 + shift;
            uint32_t bits = (uint32_t)(m >> shift) & 0xFF;
            m &= ~((uint64_t)0xFF << shift);
            if (base + 8 <= A) {
                spread_store(mask + base, bits);
            } else {
                for (int32_t i = 0; base + i < A; i++) mask[base + i] = (int8_t)((bits >> i) & 1);
            }
        }
    }
}

static void write_view(const vec_header *v, vec_slot *s, float *obs, int8_t *mask) {
    v->game->observe_tensor(state_of(s), v->learner, obs);
    write_mask(v, s, mask);
}

/* ---- ranges of games, on one thread each ---------------------------------- */

enum { JOB_OBSERVE, JOB_RESET, JOB_STEP };

typedef struct vec_job {
    const vec_header *v;
    int kind;
    int64_t begin, end;
    void *scratch; /* the thread's scratch state (log-free vectors) */
    const int32_t *actions;
    float *obs;
    int8_t *masks;
    float *rewards;
    uint8_t *terminated;
    int32_t draw_ahead;           /* JOB_STEP: draw each game's next random action */
    const volatile int32_t *stop; /* the caller's stop flag, or NULL */
} vec_job;

/* Games between two looks at a job's stop flag. */
#define VEC_STOP_GRAIN 64

static int32_t run_job(vec_job *j) {
    const vec_header *v = j->v;
    const cc_game *g = v->game;
    size_t T = (size_t)v->tensor_size, A = (size_t)v->num_actions;
    int32_t ret[CC_MAX_PLAYERS];
    for (int64_t i = j->begin; i < j->end; i++) {
        if (j->stop != NULL && (i - j->begin) % VEC_STOP_GRAIN == 0 && *j->stop != 0)
            return CC_E_STOPPED; /* the games before i done, the others untouched */
        vec_slot *s = slot_at(v, i);
        void *state = state_of(s);
        int32_t rc = CC_OK;
        switch (j->kind) {
        case JOB_RESET: rc = new_game(v, s, j->scratch); break;
        case JOB_STEP: {
            rc = g->apply(state, j->actions[i]);
            if (rc != CC_OK) return cc_status_error(rc, CC_E_ILLEGAL);
            int32_t who = CC_PLAYER_TERMINAL;
            rc = advance(v, s, &who);
            if (rc != CC_OK) return rc;
            g->returns(state, ret);
            int32_t score = ret[v->learner];
            j->rewards[i] = (float)(score - s->baseline);
            if (who == CC_PLAYER_TERMINAL) {
                j->terminated[i] = 1;
                s->episodes++;
                memcpy(s->final, ret, (size_t)v->nplayers * sizeof ret[0]);
                rc = new_game(v, s, j->scratch);
            } else {
                j->terminated[i] = 0;
                s->baseline = score;
                refresh_legal(v, s);
            }
            if (rc == CC_OK && j->draw_ahead) draw_ahead(v, s);
            break;
        }
        default: break;
        }
        if (rc != CC_OK) return rc;
        write_view(v, s, j->obs + (size_t)i * T, j->masks + (size_t)i * A);
    }
    return CC_OK;
}

#ifdef CC_VEC_PTHREADS
/* ---- chunks of games ------------------------------------------------------
 *
 * A call on more than one thread splits its games into chunks of a
 * multiple of VEC_CHUNK_GRAIN games (about VEC_CHUNKS_PER_THREAD per
 * thread), and the threads of the call take the chunks one at a time from a
 * shared counter: a thread that runs late (a worker waiting for its core,
 * or games that cost more than their neighbours) takes fewer chunks instead
 * of holding the call up, and the calling thread takes every chunk no
 * worker has come for.  Chunks of 16 games start on a cache line of every
 * output row of 4 bytes or more (numpy aligns its arrays to 16 bytes at
 * least; the 1-byte terminations share a line at a chunk's edge, a few
 * transfers a call).  A chunk's code goes into its slot of the call; the
 * first error in game order is the first failing chunk's, as on one
 * thread. */

#define VEC_CHUNK_GRAIN 16
#define VEC_CHUNKS_PER_THREAD 8
#define VEC_MAX_CHUNKS (CC_VEC_MAX_THREADS * VEC_CHUNKS_PER_THREAD)

/* A call whose games took less than this on one thread (an estimate from
 * the call before) runs on the calling thread: the handoff would cost more
 * than it saves.  In ns. */
#define VEC_SPLIT_MIN_NS 8000

typedef struct vec_call {
    vec_job proto; /* the call's job (begin, end and scratch set per chunk) */
    int64_t n;     /* games */
    int64_t chunk; /* games per chunk */
    int32_t nchunks;
    int32_t rc[VEC_MAX_CHUNKS];
} vec_call;

/* The games per chunk of a call on n games split over nthreads threads. */
static int64_t chunk_games(int64_t n, int32_t nthreads) {
    int64_t want = (int64_t)nthreads * VEC_CHUNKS_PER_THREAD;
    int64_t chunk = (n + want - 1) / want;
    return (chunk + VEC_CHUNK_GRAIN - 1) / VEC_CHUNK_GRAIN * VEC_CHUNK_GRAIN;
}

static int32_t run_chunk(const vec_call *c, int32_t k, void *scratch) {
    vec_job j = c->proto;
    j.begin = (int64_t)k * c->chunk;
    j.end = c->n - j.begin < c->chunk ? c->n : j.begin + c->chunk;
    j.scratch = scratch;
    return run_job(&j);
}

/* ---- the worker threads ------------------------------------------------------
 *
 * Started at the first call that runs on more than one thread, kept until
 * cc_vecenv_free.  A call fills the pool's one call record, resets the
 * chunk counter, opens the call under its number (a counter of calls,
 * never 0) and posts that number to each worker it wants, waking the ones
 * asleep; then it takes chunks itself.  A worker that sees a new number
 * counts itself in (active) and only then checks that the call is still
 * open under that number; if so it takes chunks until none is left, then
 * counts itself out.  When the counter runs out the caller closes the call
 * and waits for active to reach 0: a worker counted in before the close
 * may still hold a chunk; one that comes later sees the call closed and
 * touches nothing of it.  Both sides' counter and flag operations are
 * sequentially consistent, so either the worker sees the close or the
 * caller sees the worker counted in.  So a worker that wakes late costs the
 * call nothing, and one that wakes in time takes its share.
 *
 * Each side waits by polling with a pause hint, then sleeps on a condition
 * variable.  A worker polls for twice the time between its last two calls
 * if that is at most half of VEC_SPIN_MAX_NS, else for VEC_SPIN_NS: calls
 * that come close together find it awake (a wake costs a microsecond or
 * two, where waking a sleeping thread on a busy machine can cost more than
 * the call), and after the last call it sleeps within VEC_SPIN_MAX_NS.  The
 * caller polls for as long as its own chunks took (at least VEC_SPIN_NS, at
 * most VEC_SPIN_MAX_NS).  A sleeper announces itself in a flag before it
 * checks the counter one last time (under the lock); the other side changes
 * the counter before it reads the flag (both sequentially consistent), so
 * one of the two sees the other and no wake is lost.  The workers block
 * every signal (cc_thread_start). */

#define VEC_SPIN_NS 50000       /* the least polling before sleeping, in ns */
#define VEC_SPIN_MAX_NS 1000000 /* the most */
#define VEC_SPIN_CHECK 32       /* pause hints between two looks at the clock */
#define VEC_SPIN_YIELD_NS 5000  /* polling without yielding the core, in ns */

typedef struct vec_worker {
    _Alignas(64) atomic_uint posted; /* the number of the last call posted to it */
    atomic_int sleeping;             /* it waits, or is about to, on wake */
    int32_t index;                   /* worker index: its scratch state is index + 1 */
    pthread_cond_t wake;
    pthread_t tid;
    struct vec_pool *pool;
} vec_worker;

typedef struct vec_pool {
    pthread_mutex_t lock;              /* guards the sleeps on wake and done */
    pthread_cond_t done;               /* the caller sleeps here for the last worker */
    pid_t pid;                         /* the process that started the workers */
    int32_t nworkers;                  /* started, each with its wake initialised */
    unsigned calls;                    /* the number of the last call */
    int64_t ns_per_game[JOB_STEP + 1]; /* per job kind: the time per game of its last call, ns */
    const vec_header *v;               /* the vector (for the workers' scratch states) */
    vec_call call;
    _Alignas(64) atomic_int next;  /* the next chunk to take */
    _Alignas(64) atomic_uint open; /* the call's number while it is open, else 0 */
    atomic_int active;             /* workers counted in the open call */
    atomic_int caller_sleeping;    /* the caller waits, or is about to, on done */
    atomic_int stop;               /* cc_vecenv_free: the workers return */
    vec_worker workers[CC_VEC_MAX_THREADS - 1];
} vec_pool;

/* A hint to the core that this thread is polling. */
static inline void cpu_pause(void) {
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
    __asm__ __volatile__("pause");
#elif (defined(__GNUC__) || defined(__clang__)) && \
    (defined(__aarch64__) || (defined(__arm__) && defined(__ARM_ARCH) && __ARM_ARCH >= 7))
    __asm__ __volatile__("yield");
#endif /* else none: the loop's atomic load is all it does */
}

/* A monotonic clock in nanoseconds, -1 if there is none. */
static int64_t now_ns(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return -1;
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* x within VEC_SPIN_NS..VEC_SPIN_MAX_NS. */
static int64_t spin_bound(int64_t x) {
    return x < VEC_SPIN_NS ? VEC_SPIN_NS : x > VEC_SPIN_MAX_NS ? VEC_SPIN_MAX_NS : x;
}

/* Poll until ready(arg) or limit_ns have gone by (at once without a clock);
 * ready(arg) then.  After the first VEC_SPIN_YIELD_NS the poller yields its
 * core at each look at the clock: on a machine with more runnable threads
 * than cores, the thread it waits for may be the one waiting for its core. */
static int spin_until(int (*ready)(void *), void *arg, int64_t limit_ns) {
    if (ready(arg)) return 1;
    int64_t start = now_ns();
    for (int32_t k = 1; start >= 0; k++) {
        cpu_pause();
        if (ready(arg)) return 1;
        if (k % VEC_SPIN_CHECK == 0) {
            int64_t t = now_ns();
            if (t < start || t - start >= limit_ns) break;
            if (t - start >= VEC_SPIN_YIELD_NS) sched_yield();
        }
    }
    return ready(arg);
}

typedef struct worker_wait {
    vec_worker *w;
    unsigned seen; /* the number of the last call this worker has looked at */
} worker_wait;

static int worker_ready(void *arg) {
    const worker_wait *ww = (const worker_wait *)arg;
    return atomic_load(&ww->w->posted) != ww->seen || atomic_load(&ww->w->pool->stop);
}

static int caller_ready(void *arg) { return atomic_load(&((vec_pool *)arg)->active) == 0; }

/* Take chunks of the open call until none is left; the games taken. */
static int64_t take_chunks(vec_pool *p, void *scratch) {
    vec_call *c = &p->call;
    int64_t games = 0;
    for (int32_t k; (k = atomic_fetch_add(&p->next, 1)) < c->nchunks;) {
        c->rc[k] = run_chunk(c, k, scratch);
        games +=
            (c->n - (int64_t)k * c->chunk < c->chunk) ? c->n - (int64_t)k * c->chunk : c->chunk;
    }
    return games;
}

static void *worker_main(void *arg) {
    vec_worker *w = (vec_worker *)arg;
    vec_pool *p = w->pool;
    worker_wait ww = {w, 0};
    int64_t last = -1, poll = VEC_SPIN_NS; /* when it saw its last call; how long to poll */
    for (;;) {
        if (!spin_until(worker_ready, &ww, poll)) {
            pthread_mutex_lock(&p->lock);
            atomic_store(&w->sleeping, 1);
            while (!worker_ready(&ww)) pthread_cond_wait(&w->wake, &p->lock);
            atomic_store(&w->sleeping, 0);
            pthread_mutex_unlock(&p->lock);
        }
        if (atomic_load(&p->stop)) return NULL;
        int64_t t = now_ns();
        poll = (last >= 0 && t >= last && t - last <= VEC_SPIN_MAX_NS / 2)
                   ? spin_bound(2 * (t - last))
                   : VEC_SPIN_NS;
        last = t;
        ww.seen = atomic_load(&w->posted);
        atomic_fetch_add(&p->active, 1);
        if (atomic_load(&p->open) == ww.seen) (void)take_chunks(p, scratch_at(p->v, w->index + 1));
        /* else closed, or another call open: nothing of it touched */
        if (atomic_fetch_sub(&p->active, 1) == 1 && atomic_load(&p->caller_sleeping)) {
            pthread_mutex_lock(&p->lock);
            pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->lock);
        }
    }
}

/* Stop and join the workers of a pool started by this process, release it. */
static void pool_free(vec_pool *p) {
    if (p->pid == getpid()) {
        atomic_store(&p->stop, 1);
        pthread_mutex_lock(&p->lock);
        for (int32_t w = 0; w < p->nworkers; w++) pthread_cond_signal(&p->workers[w].wake);
        pthread_mutex_unlock(&p->lock);
        for (int32_t w = 0; w < p->nworkers; w++) {
            pthread_join(p->workers[w].tid, NULL);
            pthread_cond_destroy(&p->workers[w].wake);
        }
        pthread_cond_destroy(&p->done);
        pthread_mutex_destroy(&p->lock);
    }
    /* else a forked child's copy: its threads are the parent's and its lock
     * may be held by one of them, so it is only forgotten */
    free(p);
}

/* The vector's pool with at least min(want, what can be started) workers,
 * started now if missing; the number of workers this call can use (0: run
 * every chunk on the caller).  NULL *pool: no pool could be made. */
static int32_t pool_ready(vec_header *v, int32_t want) {
    pid_t pid = getpid();
    if (v->pool != NULL && v->pool->pid != pid) { /* forked since: start again */
        pool_free(v->pool);
        v->pool = NULL;
    }
    if (v->pool == NULL) {
        void *mem = NULL;
        if (posix_memalign(&mem, 64, sizeof(vec_pool)) != 0) return 0;
        vec_pool *p = (vec_pool *)mem;
        memset(p, 0, sizeof *p);
        if (pthread_mutex_init(&p->lock, NULL) != 0) {
            free(p);
            return 0;
        }
        if (pthread_cond_init(&p->done, NULL) != 0) {
            pthread_mutex_destroy(&p->lock);
            free(p);
            return 0;
        }
        atomic_init(&p->next, 0);
        atomic_init(&p->open, 0);
        atomic_init(&p->active, 0);
        atomic_init(&p->caller_sleeping, 0);
        atomic_init(&p->stop, 0);
        p->pid = pid;
        p->v = v;
        v->pool = p;
    }
    vec_pool *p = v->pool;
    p->v = v; /* the same memory (a vector is never moved while it has workers) */
    while (p->nworkers < want) {
        vec_worker *w = &p->workers[p->nworkers];
        atomic_init(&w->posted, 0);
        atomic_init(&w->sleeping, 0);
        w->index = p->nworkers;
        w->pool = p;
        if (pthread_cond_init(&w->wake, NULL) != 0) break;
        if (!cc_thread_start(&w->tid, worker_main, w)) {
            pthread_cond_destroy(&w->wake);
            break; /* tried again at the next call */
        }
        p->nworkers++;
    }
    return p->nworkers < want ? p->nworkers : want;
}

/* The first failing chunk's code, else CC_OK. */
static int32_t first_error(const vec_call *c) {
    for (int32_t k = 0; k < c->nchunks; k++) {
        if (c->rc[k] != CC_OK) return c->rc[k];
    }
    return CC_OK;
}

/* The call's chunks on the caller and up to nthreads - 1 workers; the
 * first error in game order. */
static int32_t run_pooled(vec_header *v, vec_job proto, int32_t nthreads) {
    proto.begin = 0;
    proto.end = v->n;
    proto.scratch = scratch_at(v, 0);
    int64_t chunk = chunk_games(v->n, nthreads);
    if (chunk >= v->n) return run_job(&proto); /* one chunk: no pool needed */
    int32_t nw = pool_ready(v, nthreads - 1);
    vec_pool *p = v->pool;
    if (p == NULL) return run_job(&proto); /* no pool could be made: one thread */
    int64_t est = p->ns_per_game[proto.kind];
    if (nw <= 0 || (est > 0 && est * v->n < VEC_SPLIT_MIN_NS)) {
        /* too little work to share (by the estimate of the last call of
         * this kind), or no worker: the whole call here, timed so that the
         * estimate follows the games (a phase of cheap steps may end) */
        int64_t start = now_ns();
        int32_t rc = run_job(&proto);
        int64_t took = now_ns() - start;
        if (start >= 0 && took >= 0) p->ns_per_game[proto.kind] = took / v->n + 1;
        return rc;
    }
    vec_call *c = &p->call;
    c->proto = proto;
    c->n = v->n;
    c->chunk = chunk;
    c->nchunks = (int32_t)((v->n + chunk - 1) / chunk);
    if (nw > c->nchunks - 1) nw = c->nchunks - 1;
    unsigned id = ++p->calls;
    if (id == 0) id = ++p->calls; /* 0 means closed */
    atomic_store(&p->next, 0);
    atomic_store(&p->open, id);
    for (int32_t w = 0; w < nw; w++) {
        vec_worker *wk = &p->workers[w];
        atomic_store(&wk->posted, id);
        if (atomic_load(&wk->sleeping)) {
            pthread_mutex_lock(&p->lock);
            pthread_cond_signal(&wk->wake);
            pthread_mutex_unlock(&p->lock);
        }
    }
    int64_t start = now_ns();
    int64_t games = take_chunks(p, scratch_at(v, 0));
    atomic_store(&p->open, 0u);
    int64_t own = now_ns() - start;
    /* the time per game of the chunks the caller took (none if the
     * workers took them all first) */
    if (start >= 0 && own >= 0 && games > 0) p->ns_per_game[proto.kind] = own / games + 1;
    if (!spin_until(caller_ready, p, spin_bound(own))) {
        pthread_mutex_lock(&p->lock);
        atomic_store(&p->caller_sleeping, 1);
        while (!caller_ready(p)) pthread_cond_wait(&p->done, &p->lock);
        atomic_store(&p->caller_sleeping, 0);
        pthread_mutex_unlock(&p->lock);
    }
    return first_error(c);
}
#endif

/* Run the job over all games, in chunks over nthreads threads when
 * nthreads > 1; the first error (in game order) is returned.  The pool is
 * the one part of the vector a call may change whatever its constness (the
 * caller's memory is never const: cc_vecenv_init wrote it). */
static int32_t run_all(const vec_header *v, vec_job proto, int32_t nthreads) {
    if (nthreads > CC_VEC_MAX_THREADS) nthreads = CC_VEC_MAX_THREADS;
    if ((int64_t)nthreads > v->n) nthreads = (int32_t)v->n;
#ifdef CC_VEC_PTHREADS
    if (nthreads > 1) return run_pooled((vec_header *)(uintptr_t)v, proto, nthreads);
#endif
    proto.begin = 0;
    proto.end = v->n;
    proto.scratch = scratch_at(v, 0);
    return run_job(&proto);
}

void cc_vecenv_free(void *mem) {
    vec_header *v = (vec_header *)(uintptr_t)header_of(mem);
    if (v == NULL || v->pool == NULL) return;
#ifdef CC_VEC_PTHREADS
    pool_free(v->pool);
#endif
    v->pool = NULL;
}

/* ---- the public calls --------------------------------------------------------- */

int32_t cc_vecenv_init(void *mem, size_t nbytes, const cc_game *game, const int32_t *params,
                       int32_t nplayers, int32_t learner, int32_t opponent, int32_t flags,
                       int64_t n, uint64_t seed) {
    if (mem == NULL || game == NULL || params == NULL || n < 1 || n > CC_VEC_MAX_GAMES)
        return CC_E_ARG;
    if (opponent != CC_VEC_RANDOM && opponent != CC_VEC_HEURISTIC) return CC_E_ARG;
    if (game->num_params > CC_MAX_PARAMS) return CC_E_ARG;
    if (flags & ~CC_VEC_EVENTS) return CC_E_ARG;
    int32_t rc = cc_game_check_params(game, params, nplayers, NULL);
    if (rc != CC_OK) return rc;
    if (learner < 0 || learner >= nplayers) return CC_E_ARG;
    if (nbytes < cc_vecenv_bytes(game, n, flags)) return CC_E_CAPACITY;
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
    v->mask_words = (na + 63) / 64;
    v->events = (flags & CC_VEC_EVENTS) != 0;
    v->n = n;
    v->slot_size = slot_size(game, flags);
    v->scratch_bytes = scratch_bytes(game, n, flags);
    for (int64_t i = 0; i < n; i++) {
        vec_slot *s = slot_at(v, i);
        memset(s, 0, v->slot_size);
        cc_rng_seed(&s->rng, seed + (uint64_t)i * VEC_SEED_STRIDE);
        cc_rng_seed(&s->learner, ~(seed + (uint64_t)i * VEC_SEED_STRIDE));
        rc = new_game(v, s, scratch_at(v, 0));
        if (rc != CC_OK) return rc;
    }
    v->magic = VEC_MAGIC; /* valid only once every game is dealt */
    return CC_OK;
}

int32_t cc_vecenv_observe(const void *mem, float *obs, int8_t *masks, int32_t nthreads,
                          const volatile int32_t *stop) {
    const vec_header *v = header_of(mem);
    if (v == NULL || obs == NULL || masks == NULL) return CC_E_ARG;
    vec_job proto = {.v = v, .kind = JOB_OBSERVE, .obs = obs, .masks = masks, .stop = stop};
    return run_all(v, proto, nthreads);
}

int32_t cc_vecenv_reset(void *mem, float *obs, int8_t *masks, int32_t nthreads,
                        const volatile int32_t *stop) {
    const vec_header *v = header_of(mem);
    if (v == NULL || obs == NULL || masks == NULL) return CC_E_ARG;
    vec_job proto = {.v = v, .kind = JOB_RESET, .obs = obs, .masks = masks, .stop = stop};
    return run_all(v, proto, nthreads);
}

int32_t cc_vecenv_step(void *mem, const int32_t *actions, float *obs, int8_t *masks, float *rewards,
                       uint8_t *terminated, int32_t nthreads, int64_t *bad_index,
                       const volatile int32_t *stop) {
    const vec_header *v = header_of(mem);
    if (bad_index) *bad_index = -1;
    if (v == NULL || actions == NULL || obs == NULL || masks == NULL || rewards == NULL ||
        terminated == NULL)
        return CC_E_ARG;
    /* every action against its game's kept mask, before anything is applied
     * (on this thread: a few instructions a game) */
    for (int64_t i = 0; i < v->n; i++) {
        int32_t a = actions[i];
        const vec_slot *s = slot_at(v, i);
        if (a < 0 || a >= v->num_actions || !((s->legal[a >> 6] >> (a & 63)) & 1)) {
            if (bad_index) *bad_index = i;
            return CC_E_ILLEGAL;
        }
    }
    /* a loop of random_actions and step: draw the next random actions
     * ahead, each on its game's thread (the generator's course is the same:
     * see cc_vecenv_random_actions) */
    vec_header *mv = (vec_header *)(uintptr_t)v;
    int32_t ahead = mv->predraw;
    mv->predraw = 0;
    vec_job proto = {.v = v,
                     .kind = JOB_STEP,
                     .actions = actions,
                     .obs = obs,
                     .masks = masks,
                     .rewards = rewards,
                     .terminated = terminated,
                     .draw_ahead = ahead,
                     .stop = stop};
    return run_all(v, proto, nthreads);
}

int32_t cc_vecenv_random_actions(void *mem, int32_t *actions, int32_t nthreads) {
    const vec_header *v = header_of(mem);
    if (v == NULL || actions == NULL) return CC_E_ARG;
    (void)nthreads; /* a few instructions a game: on this thread */
    for (int64_t i = 0; i < v->n; i++) {
        vec_slot *s = slot_at(v, i);
        if (s->drawn) { /* drawn ahead by the last step: the same draw */
            actions[i] = s->drawn_action;
            s->learner = s->drawn_rng;
            s->drawn = 0;
            continue;
        }
        int32_t a = random_action(v, s, &s->learner);
        if (a < 0) return CC_E_ARG;
        actions[i] = a;
    }
    ((vec_header *)(uintptr_t)v)->predraw = 1; /* the next step draws ahead */
    return CC_OK;
}
