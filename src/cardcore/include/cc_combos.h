/*
 * cc_combos.h: combination primitives, the additions to cardcore.h.
 *
 * The scalar primitives and the four single-result batch kernels are
 * declared in cardcore.h ("combination primitives"); this header adds the
 * fused batch kernel and the seeded random-hand generator.  cffi-friendly:
 * fixed-width types and integer constants only.
 */
#ifndef CC_COMBOS_H
#define CC_COMBOS_H

#include "cardcore.h"

/* Largest pip total of any card set (the whole deck), the largest valid
 * target of cc_count_fifteens, and the most maximal runs a set can hold. */
#define CC_MAX_PIP_TOTAL 340
#define CC_MAX_RUNS 4
/* The most hands cc_random_hands makes in one call (1 GiB of output). */
#define CC_MAX_RANDOM_HANDS 134217728

/* One pass per card set computing, for set i:
 *   fifteens[i]    subsets of 2+ cards whose pips total target (1..340),
 *   pairs[i]       same-rank pairs,
 *   run_score[i]   sum over maximal runs of length * multiplicity,
 *   suits[4 i + s] cards of suit s.
 * Every output array is required.  Each set is read once.  Returns CC_OK,
 * CC_E_ARG (bad target, negative n or a NULL pointer), or CC_E_CARDS with
 * *bad_index and *bad_value set to the index of the first set with bits
 * outside the deck and the value read there (either pointer may be NULL;
 * the outputs are then unspecified). */
int32_t cc_batch_hand_stats(const uint64_t *cards, int64_t n, int32_t target, int64_t *fifteens,
                            int32_t *pairs, int32_t *run_score, uint8_t *suits, int64_t *bad_index,
                            uint64_t *bad_value);

/* The paths of the batch kernels: the same results, computed by the
 * portable loop or by copies built for CPU extensions (x86 with GCC or
 * Clang), chosen at run time.  CC_PATH_AUTO is the best this CPU has. */
#define CC_PATH_AUTO 0
#define CC_PATH_PLAIN 1
#define CC_PATH_POPCNT 2
#define CC_PATH_BMI2 3
#define CC_PATH_AVX2 4
#define CC_PATH_AVX512 5
#define CC_NUM_PATHS 6

/* Bit p set for each path p this build and CPU can run. */
uint32_t cc_combos_paths(void);

/* cc_batch_hand_stats on one path (for tests and benchmarks): CC_E_ARG if
 * the path is unknown or not available here.
 * Pointers as cc_batch_hand_stats. */
int32_t cc_batch_hand_stats_path(int32_t path, const uint64_t *cards, int64_t n, int32_t target,
                                 int64_t *fifteens, int32_t *pairs, int32_t *run_score,
                                 uint8_t *suits, int64_t *bad_index, uint64_t *bad_value);

/* Longest same-suit run of each set (batch twin of cc_longest_suit_run).
 * Pointers as the batch kernels of cardcore.h. */
int32_t cc_batch_longest_suit_run(const uint64_t *cards, int64_t n, int32_t *out,
                                  int64_t *bad_index, uint64_t *bad_value);

/* n random k-card sets (0 <= k <= 52) from one generator seeded with seed.
 * A deck of the 52 card ids, ascending, is kept across hands; hand i is
 * made by a partial Fisher-Yates shuffle from the front of that deck: for
 * j = 0..k-1, swap deck[j] with deck[j + below(52 - j)]; the hand is the
 * set of deck[0..k-1].  Returns CC_OK, or CC_E_ARG for k outside 0..52,
 * n outside 0..CC_MAX_RANDOM_HANDS or a NULL out with n > 0.            */
int32_t cc_random_hands(uint64_t seed, int32_t k, int64_t n, uint64_t *out);

#endif /* CC_COMBOS_H */
