/*
 * cc_threads.h: the batch kernels spread over threads.
 *
 * Each function here is the kernel of the same name without "_threads"
 * (cardcore.h, cc_combos.h, cc_notakers.h, cc_cribbage.h, cc_nodde.h) run
 * on up to `threads` POSIX threads: the sets are cut into contiguous
 * chunks, one per thread (the calling thread runs the first), each chunk
 * written by one thread only.  The results are the same whatever the
 * thread count, and so is the error: the status of the first chunk (in
 * index order) that fails, so CC_E_CARDS names the first bad set of the
 * whole batch, as the one-thread kernel does.  On an error the outputs are
 * unspecified.
 *
 * threads: 1..CC_MAX_BATCH_THREADS, or 0 for every online core
 * (cc_batch_threads_default); anything else gives CC_E_ARG.  A batch too
 * small to be worth a thread (under CC_BATCH_CHUNK sets per thread for the
 * cheap kernels) uses fewer threads; a thread that cannot be started has
 * its chunk run by the caller.  The pointer rules are the kernel's.
 *
 * stop (may be NULL): the caller's stop flag, set (nonzero) by another
 * thread to stop the call: each thread reads it before each piece of its
 * chunk (CC_BATCH_CHUNK sets for the cheap kernels, 4096 for the games'
 * scorers; without a flag the chunk is one piece) and stops there; once it
 * is set the call returns CC_E_STOPPED (cardcore.h), the outputs written
 * for the pieces done and not for the others.
 * cffi-friendly: fixed-width types and integer constants only.
 */
#ifndef CC_THREADS_H
#define CC_THREADS_H

#include "cardcore.h"

/* The most threads one call uses, and the fewest sets of a cheap kernel
 * given to one thread. */
#define CC_MAX_BATCH_THREADS 256
#define CC_BATCH_CHUNK 32768

/* The number of online cores (at least 1): what threads = 0 means. */
int32_t cc_batch_threads_default(void);

int32_t cc_batch_count_fifteens_threads(const uint64_t *cards, int64_t n, int32_t target,
                                        int64_t *out, int64_t *bad_index, uint64_t *bad_value,
                                        int32_t threads, const volatile int32_t *stop);
int32_t cc_batch_count_pairs_threads(const uint64_t *cards, int64_t n, int32_t *out,
                                     int64_t *bad_index, uint64_t *bad_value, int32_t threads,
                                     const volatile int32_t *stop);
int32_t cc_batch_suit_counts_threads(const uint64_t *cards, int64_t n, uint8_t *out,
                                     int64_t *bad_index, uint64_t *bad_value, int32_t threads,
                                     const volatile int32_t *stop);
int32_t cc_batch_run_score_threads(const uint64_t *cards, int64_t n, int32_t *out,
                                   int64_t *bad_index, uint64_t *bad_value, int32_t threads,
                                   const volatile int32_t *stop);
int32_t cc_batch_longest_suit_run_threads(const uint64_t *cards, int64_t n, int32_t *out,
                                          int64_t *bad_index, uint64_t *bad_value, int32_t threads,
                                          const volatile int32_t *stop);
/* cc_batch_hand_stats_path on threads (path CC_PATH_AUTO: cc_batch_hand_stats). */
int32_t cc_batch_hand_stats_threads(int32_t path, const uint64_t *cards, int64_t n, int32_t target,
                                    int64_t *fifteens, int32_t *pairs, int32_t *run_score,
                                    uint8_t *suits, int64_t *bad_index, uint64_t *bad_value,
                                    int32_t threads, const volatile int32_t *stop);

int32_t cc_notakers_batch_points_threads(const uint64_t *cards, int64_t n, int32_t ace_in_runs,
                                         int32_t *out, int64_t *bad_index, int32_t threads,
                                         const volatile int32_t *stop);
int32_t cc_cribbage_batch_score_show_threads(const uint64_t *hands, const uint8_t *starters,
                                             int64_t n, int32_t is_crib, const int32_t *params,
                                             int32_t *out, int64_t *bad_index, int32_t threads,
                                             const volatile int32_t *stop);
int32_t cc_nodde_batch_score_hand_threads(const uint64_t *hands, const uint8_t *turnups, int64_t n,
                                          const int32_t *params, int32_t *out, int64_t *bad_index,
                                          int32_t threads, const volatile int32_t *stop);

#endif
