/*
 * batch_threads.c: the batch kernels spread over POSIX threads
 * (cc_threads.h).  Nothing here computes a result: each chunk of sets is
 * handed to the one-thread kernel, and the first failing chunk in index
 * order gives the status, so the results and the error are those of one
 * thread.
 */
#define _POSIX_C_SOURCE 200809L
#include "cc_threads.h"

#include <pthread.h>
#include <unistd.h>

#include "cc_combos.h"
#include "cc_cribbage.h"
#include "cc_nodde.h"
#include "cc_notakers.h"
#include "threads_internal.h"

int32_t cc_batch_threads_default(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) return 1;
    return n > CC_MAX_BATCH_THREADS ? CC_MAX_BATCH_THREADS : (int32_t)n;
}

/* One chunk: sets [from, from + count) of the batch described by ctx; its
 * status, and the first bad set (an index into the whole batch). */
typedef int32_t (*chunk_fn)(const void *ctx, int64_t from, int64_t count, int64_t *bad_index,
                            uint64_t *bad_value);

typedef struct chunk_job {
    chunk_fn fn;
    const void *ctx;
    int64_t from, count;
    int64_t piece;                /* sets between two looks at stop */
    const volatile int32_t *stop; /* the caller's stop flag, or NULL */
    int64_t bad_index;
    uint64_t bad_value;
    int32_t rc;
} chunk_job;

/* The chunk in pieces of j->piece sets (one piece without a stop flag),
 * stopping at the first failing piece, or before a piece once *stop is
 * set (CC_E_STOPPED: the pieces done are written, the others not). */
static void run_job(chunk_job *j) {
    j->bad_index = -1;
    j->bad_value = 0;
    j->rc = CC_OK;
    int64_t piece = j->stop != NULL ? j->piece : j->count;
    int64_t done = 0;
    do {
        if (j->stop != NULL && *j->stop != 0) {
            j->rc = CC_E_STOPPED;
            return;
        }
        int64_t k = j->count - done < piece ? j->count - done : piece;
        j->rc = j->fn(j->ctx, j->from + done, k, &j->bad_index, &j->bad_value);
        if (j->bad_index >= 0) j->bad_index += j->from + done;
        done += k;
    } while (j->rc == CC_OK && done < j->count);
}

static void *job_main(void *arg) {
    run_job((chunk_job *)arg);
    return NULL;
}

/* The threads a batch of n sets gets: the request (0: every core), fewer
 * when a thread would have under min_chunk sets; 0 for a bad request. */
static int32_t threads_for(int32_t threads, int64_t n, int64_t min_chunk) {
    if (threads < 0 || threads > CC_MAX_BATCH_THREADS) return 0;
    if (threads == 0) threads = cc_batch_threads_default();
    int64_t most = n / min_chunk;
    if (most < 1) most = 1;
    return most < threads ? (int32_t)most : threads;
}

/* Run fn over [0, n) on up to `threads` threads.  Chunk boundaries fall on
 * multiples of 64 sets, so that no two threads write one cache line of an
 * output of 1-byte or wider elements. */
static int32_t run_chunks(chunk_fn fn, const void *ctx, int64_t n, int32_t threads,
                          int64_t min_chunk, int64_t *bad_index, uint64_t *bad_value,
                          const volatile int32_t *stop) {
    int32_t t = threads_for(threads, n, min_chunk);
    if (t == 0 || n < 0) return CC_E_ARG;
    chunk_job jobs[CC_MAX_BATCH_THREADS];
    pthread_t tids[CC_MAX_BATCH_THREADS];
    uint8_t started[CC_MAX_BATCH_THREADS];
    int64_t per = (n + t - 1) / t;
    per = (per + 63) / 64 * 64;
    int32_t used = 0;
    for (int64_t from = 0; used < t && (from < n || used == 0); from += per, used++) {
        int64_t count = n - from < per ? n - from : per;
        jobs[used] = (chunk_job){fn, ctx, from, count, min_chunk, stop, -1, 0, CC_OK};
    }
    for (int32_t i = 1; i < used; i++)
        started[i] = (uint8_t)cc_thread_start(&tids[i], job_main, &jobs[i]);
    run_job(&jobs[0]);
    for (int32_t i = 1; i < used; i++) {
        if (started[i]) pthread_join(tids[i], NULL);
        else run_job(&jobs[i]);
    }
    /* a stop is the call's status whatever a chunk found */
    if (stop != NULL && *stop != 0) return CC_E_STOPPED;
    for (int32_t i = 0; i < used; i++) {
        if (jobs[i].rc == CC_OK) continue;
        if (jobs[i].bad_index >= 0) {
            if (bad_index) *bad_index = jobs[i].bad_index;
            if (bad_value) *bad_value = jobs[i].bad_value;
        }
        return jobs[i].rc;
    }
    return CC_OK;
}

/* ---- the kernels ---------------------------------------------------------
 * One context describes a batch of any kernel; one chunk function hands a
 * chunk to the kernel it names, with every array advanced to the chunk's
 * first set.  The games' scorers report a bad index only; they cost more per
 * set than the combination kernels, so a thread is worth it on fewer sets. */

typedef enum kernel {
    K_HAND_STATS,
    K_FIFTEENS,
    K_PAIRS,
    K_SUITS,
    K_RUN_SCORE,
    K_SUIT_RUN,
    K_NOTAKERS_POINTS, /* the games' scorers from here on */
    K_CRIBBAGE_SHOW,
    K_NODDE_HAND,
} kernel;

typedef struct batch_ctx {
    kernel k;
    int32_t path, flag; /* flag: the target, ace_in_runs or is_crib */
    const uint64_t *cards;
    const uint8_t *cards8; /* the starters or turn-ups */
    const int32_t *params;
    int64_t *out64;
    int32_t *out32, *out32b;
    uint8_t *suits;
} batch_ctx;

#define AT(p, i) ((p) ? (p) + (i) : NULL)
#define GAME_CHUNK 4096

static int32_t batch_chunk(const void *c, int64_t from, int64_t n, int64_t *bi, uint64_t *bv) {
    const batch_ctx *x = c;
    const uint64_t *cards = AT(x->cards, from);
    const uint8_t *cards8 = AT(x->cards8, from);
    int64_t *o64 = AT(x->out64, from);
    int32_t *o32 = AT(x->out32, from);
    uint8_t *suits = AT(x->suits, 4 * from);
    switch (x->k) {
    case K_HAND_STATS:
        return cc_batch_hand_stats_path(x->path, cards, n, x->flag, o64, o32, AT(x->out32b, from),
                                        suits, bi, bv);
    case K_FIFTEENS: return cc_batch_count_fifteens(cards, n, x->flag, o64, bi, bv);
    case K_PAIRS: return cc_batch_count_pairs(cards, n, o32, bi, bv);
    case K_SUITS: return cc_batch_suit_counts(cards, n, suits, bi, bv);
    case K_RUN_SCORE: return cc_batch_run_score(cards, n, o32, bi, bv);
    case K_SUIT_RUN: return cc_batch_longest_suit_run(cards, n, o32, bi, bv);
    case K_NOTAKERS_POINTS: return cc_notakers_batch_points(cards, n, x->flag, o32, bi);
    case K_CRIBBAGE_SHOW:
        return cc_cribbage_batch_score_show(cards, cards8, n, x->flag, x->params, o32, bi);
    case K_NODDE_HAND: return cc_nodde_batch_score_hand(cards, cards8, n, x->params, o32, bi);
    }
    return CC_E_ARG;
}

static int32_t run(batch_ctx x, int64_t n, int32_t threads, int64_t *bad_index, uint64_t *bad_value,
                   const volatile int32_t *stop) {
    int64_t min_chunk = x.k >= K_NOTAKERS_POINTS ? GAME_CHUNK : CC_BATCH_CHUNK;
    return run_chunks(batch_chunk, &x, n, threads, min_chunk, bad_index, bad_value, stop);
}

int32_t cc_batch_hand_stats_threads(int32_t path, const uint64_t *cards, int64_t n, int32_t target,
                                    int64_t *fifteens, int32_t *pairs, int32_t *run_score,
                                    uint8_t *suits, int64_t *bad_index, uint64_t *bad_value,
                                    int32_t threads, const volatile int32_t *stop) {
    batch_ctx x = {.k = K_HAND_STATS,
                   .path = path,
                   .flag = target,
                   .cards = cards,
                   .out64 = fifteens,
                   .out32 = pairs,
                   .out32b = run_score,
                   .suits = suits};
    return run(x, n, threads, bad_index, bad_value, stop);
}

int32_t cc_batch_count_fifteens_threads(const uint64_t *cards, int64_t n, int32_t target,
                                        int64_t *out, int64_t *bad_index, uint64_t *bad_value,
                                        int32_t threads, const volatile int32_t *stop) {
    batch_ctx x = {.k = K_FIFTEENS, .flag = target, .cards = cards, .out64 = out};
    return run(x, n, threads, bad_index, bad_value, stop);
}

int32_t cc_batch_count_pairs_threads(const uint64_t *cards, int64_t n, int32_t *out,
                                     int64_t *bad_index, uint64_t *bad_value, int32_t threads,
                                     const volatile int32_t *stop) {
    return run((batch_ctx){.k = K_PAIRS, .cards = cards, .out32 = out}, n, threads, bad_index,
               bad_value, stop);
}

int32_t cc_batch_suit_counts_threads(const uint64_t *cards, int64_t n, uint8_t *out,
                                     int64_t *bad_index, uint64_t *bad_value, int32_t threads,
                                     const volatile int32_t *stop) {
    return run((batch_ctx){.k = K_SUITS, .cards = cards, .suits = out}, n, threads, bad_index,
               bad_value, stop);
}

int32_t cc_batch_run_score_threads(const uint64_t *cards, int64_t n, int32_t *out,
                                   int64_t *bad_index, uint64_t *bad_value, int32_t threads,
                                   const volatile int32_t *stop) {
    return run((batch_ctx){.k = K_RUN_SCORE, .cards = cards, .out32 = out}, n, threads, bad_index,
               bad_value, stop);
}

int32_t cc_batch_longest_suit_run_threads(const uint64_t *cards, int64_t n, int32_t *out,
                                          int64_t *bad_index, uint64_t *bad_value, int32_t threads,
                                          const volatile int32_t *stop) {
    return run((batch_ctx){.k = K_SUIT_RUN, .cards = cards, .out32 = out}, n, threads, bad_index,
               bad_value, stop);
}

int32_t cc_notakers_batch_points_threads(const uint64_t *cards, int64_t n, int32_t ace_in_runs,
                                         int32_t *out, int64_t *bad_index, int32_t threads,
                                         const volatile int32_t *stop) {
    batch_ctx x = {.k = K_NOTAKERS_POINTS, .flag = ace_in_runs, .cards = cards, .out32 = out};
    return run(x, n, threads, bad_index, NULL, stop);
}

int32_t cc_cribbage_batch_score_show_threads(const uint64_t *hands, const uint8_t *starters,
                                             int64_t n, int32_t is_crib, const int32_t *params,
                                             int32_t *out, int64_t *bad_index, int32_t threads,
                                             const volatile int32_t *stop) {
    batch_ctx x = {.k = K_CRIBBAGE_SHOW,
                   .flag = is_crib,
                   .cards = hands,
                   .cards8 = starters,
                   .params = params,
                   .out32 = out};
    return run(x, n, threads, bad_index, NULL, stop);
}

int32_t cc_nodde_batch_score_hand_threads(const uint64_t *hands, const uint8_t *turnups, int64_t n,
                                          const int32_t *params, int32_t *out, int64_t *bad_index,
                                          int32_t threads, const volatile int32_t *stop) {
    batch_ctx x = {
        .k = K_NODDE_HAND, .cards = hands, .cards8 = turnups, .params = params, .out32 = out};
    return run(x, n, threads, bad_index, NULL, stop);
}
