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
    int64_t bad_index;
    uint64_t bad_value;
    int32_t rc;
} chunk_job;

static void run_job(chunk_job *j) {
    j->bad_index = -1;
    j->bad_value = 0;
    j->rc = j->fn(j->ctx, j->from, j->count, &j->bad_index, &j->bad_value);
    if (j->bad_index >= 0) j->bad_index += j->from;
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
                          int64_t min_chunk, int64_t *bad_index, uint64_t *bad_value) {
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
        jobs[used] = (chunk_job){fn, ctx, from, count, -1, 0, CC_OK};
    }
    for (int32_t i = 1; i < used; i++)
        started[i] = pthread_create(&tids[i], NULL, job_main, &jobs[i]) == 0;
    run_job(&jobs[0]);
    for (int32_t i = 1; i < used; i++) {
        if (started[i]) pthread_join(tids[i], NULL);
        else run_job(&jobs[i]);
    }
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

/* ---- the combination kernels --------------------------------------------- */

typedef struct stats_ctx {
    int32_t path, target;
    const uint64_t *cards;
    int64_t *fifteens;
    int32_t *pairs, *run_score, *out32;
    uint8_t *suits;
} stats_ctx;

#define AT(p, i) ((p) ? (p) + (i) : NULL)

static int32_t hand_stats_chunk(const void *c, int64_t from, int64_t count, int64_t *bi,
                                uint64_t *bv) {
    const stats_ctx *x = c;
    return cc_batch_hand_stats_path(x->path, AT(x->cards, from), count, x->target,
                                    AT(x->fifteens, from), AT(x->pairs, from),
                                    AT(x->run_score, from), AT(x->suits, 4 * from), bi, bv);
}

int32_t cc_batch_hand_stats_threads(int32_t path, const uint64_t *cards, int64_t n, int32_t target,
                                    int64_t *fifteens, int32_t *pairs, int32_t *run_score,
                                    uint8_t *suits, int64_t *bad_index, uint64_t *bad_value,
                                    int32_t threads) {
    stats_ctx x = {path, target, cards, fifteens, pairs, run_score, NULL, suits};
    return run_chunks(hand_stats_chunk, &x, n, threads, CC_BATCH_CHUNK, bad_index, bad_value);
}

static int32_t fifteens_chunk(const void *c, int64_t from, int64_t count, int64_t *bi,
                              uint64_t *bv) {
    const stats_ctx *x = c;
    return cc_batch_count_fifteens(AT(x->cards, from), count, x->target, AT(x->fifteens, from), bi,
                                   bv);
}

int32_t cc_batch_count_fifteens_threads(const uint64_t *cards, int64_t n, int32_t target,
                                        int64_t *out, int64_t *bad_index, uint64_t *bad_value,
                                        int32_t threads) {
    stats_ctx x = {0, target, cards, out, NULL, NULL, NULL, NULL};
    return run_chunks(fifteens_chunk, &x, n, threads, CC_BATCH_CHUNK, bad_index, bad_value);
}

static int32_t pairs_chunk(const void *c, int64_t from, int64_t count, int64_t *bi, uint64_t *bv) {
    const stats_ctx *x = c;
    return cc_batch_count_pairs(AT(x->cards, from), count, AT(x->out32, from), bi, bv);
}

int32_t cc_batch_count_pairs_threads(const uint64_t *cards, int64_t n, int32_t *out,
                                     int64_t *bad_index, uint64_t *bad_value, int32_t threads) {
    stats_ctx x = {0, 15, cards, NULL, NULL, NULL, out, NULL};
    return run_chunks(pairs_chunk, &x, n, threads, CC_BATCH_CHUNK, bad_index, bad_value);
}

static int32_t suits_chunk(const void *c, int64_t from, int64_t count, int64_t *bi, uint64_t *bv) {
    const stats_ctx *x = c;
    return cc_batch_suit_counts(AT(x->cards, from), count, AT(x->suits, 4 * from), bi, bv);
}

int32_t cc_batch_suit_counts_threads(const uint64_t *cards, int64_t n, uint8_t *out,
                                     int64_t *bad_index, uint64_t *bad_value, int32_t threads) {
    stats_ctx x = {0, 15, cards, NULL, NULL, NULL, NULL, out};
    return run_chunks(suits_chunk, &x, n, threads, CC_BATCH_CHUNK, bad_index, bad_value);
}

static int32_t run_score_chunk(const void *c, int64_t from, int64_t count, int64_t *bi,
                               uint64_t *bv) {
    const stats_ctx *x = c;
    return cc_batch_run_score(AT(x->cards, from), count, AT(x->out32, from), bi, bv);
}

int32_t cc_batch_run_score_threads(const uint64_t *cards, int64_t n, int32_t *out,
                                   int64_t *bad_index, uint64_t *bad_value, int32_t threads) {
    stats_ctx x = {0, 15, cards, NULL, NULL, NULL, out, NULL};
    return run_chunks(run_score_chunk, &x, n, threads, CC_BATCH_CHUNK, bad_index, bad_value);
}

static int32_t suit_run_chunk(const void *c, int64_t from, int64_t count, int64_t *bi,
                              uint64_t *bv) {
    const stats_ctx *x = c;
    return cc_batch_longest_suit_run(AT(x->cards, from), count, AT(x->out32, from), bi, bv);
}

int32_t cc_batch_longest_suit_run_threads(const uint64_t *cards, int64_t n, int32_t *out,
                                          int64_t *bad_index, uint64_t *bad_value,
                                          int32_t threads) {
    stats_ctx x = {0, 15, cards, NULL, NULL, NULL, out, NULL};
    return run_chunks(suit_run_chunk, &x, n, threads, CC_BATCH_CHUNK, bad_index, bad_value);
}

/* ---- the games' scorers ---------------------------------------------------
 * Their kernels report a bad index only; these cost more per set than the
 * combination kernels, so a thread is worth it on fewer sets. */

typedef struct game_ctx {
    const uint64_t *hands;
    const uint8_t *cards;
    int32_t flag;
    const int32_t *params;
    int32_t *out;
} game_ctx;

#define GAME_CHUNK 4096

static int32_t notakers_chunk(const void *c, int64_t from, int64_t count, int64_t *bi,
                              uint64_t *bv) {
    (void)bv;
    const game_ctx *x = c;
    return cc_batch_notakers_points(AT(x->hands, from), count, x->flag, AT(x->out, from), bi);
}

int32_t cc_batch_notakers_points_threads(const uint64_t *cards, int64_t n, int32_t ace_in_runs,
                                         int32_t *out, int64_t *bad_index, int32_t threads) {
    game_ctx x = {cards, NULL, ace_in_runs, NULL, out};
    return run_chunks(notakers_chunk, &x, n, threads, GAME_CHUNK, bad_index, NULL);
}

static int32_t cribbage_chunk(const void *c, int64_t from, int64_t count, int64_t *bi,
                              uint64_t *bv) {
    (void)bv;
    const game_ctx *x = c;
    return cc_cribbage_batch_score_show(AT(x->hands, from), AT(x->cards, from), count, x->flag,
                                        x->params, AT(x->out, from), bi);
}

int32_t cc_cribbage_batch_score_show_threads(const uint64_t *hands, const uint8_t *starters,
                                             int64_t n, int32_t is_crib, const int32_t *params,
                                             int32_t *out, int64_t *bad_index, int32_t threads) {
    game_ctx x = {hands, starters, is_crib, params, out};
    return run_chunks(cribbage_chunk, &x, n, threads, GAME_CHUNK, bad_index, NULL);
}

static int32_t nodde_chunk(const void *c, int64_t from, int64_t count, int64_t *bi, uint64_t *bv) {
    (void)bv;
    const game_ctx *x = c;
    return cc_nodde_batch_score_hand(AT(x->hands, from), AT(x->cards, from), count, x->params,
                                     AT(x->out, from), bi);
}

int32_t cc_nodde_batch_score_hand_threads(const uint64_t *hands, const uint8_t *turnups, int64_t n,
                                          const int32_t *params, int32_t *out, int64_t *bad_index,
                                          int32_t threads) {
    game_ctx x = {hands, turnups, 0, params, out};
    return run_chunks(nodde_chunk, &x, n, threads, GAME_CHUNK, bad_index, NULL);
}
