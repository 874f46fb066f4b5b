/*
 * cc_vecenv.h: a vector of games stepped by one call (vecenv.c).
 *
 * N independent games of one game, rules and player count.  One seat, the
 * learner, is played by the caller; the other seats are played inside C by
 * a built-in policy, so every game in the vector always waits for the
 * learner.  cc_vecenv_step applies one learner action per game, plays the
 * opponents until the learner is to act again, and writes each game's
 * learner observation tensor, action mask, reward and termination into
 * caller-owned arrays.  A finished game is replaced at once by a new one
 * (auto-reset): the observation written for it is the new game's first.
 *
 * Rewards: the change of the learner's score (cc_game.returns) since its
 * previous step, counting from 0 at the deal, so a game's rewards sum to the
 * learner's final score.  A new game that ends before the learner's first
 * turn (possible in principle, not in the built-in games) is dealt again and
 * counted in cc_vecenv_skipped.
 *
 * Randomness: game i owns a generator seeded with seed + i * 0x9E3779B97F4A7C15
 * (mod 2^64, the 64-bit golden ratio); it draws the
 * seed of each of its games and the opponents' moves, so a game's course does
 * not depend on how the vector is split across threads.
 *
 * Memory: the caller allocates cc_vecenv_bytes(game, n, flags) bytes
 * (aligned like malloc's) and keeps them while the vector lives; nothing
 * else is allocated but the worker threads of a call with nthreads > 1 and
 * their shared block (10 KB on 64-bit Linux, whatever n), released by
 * cc_vecenv_free.  Per game: a 256-byte slot (its generators, counters
 * and the learner's legal actions) and the state, rounded up to 64 bytes:
 * with CC_VEC_EVENTS the whole state (cc_game.state_size), without it the
 * state up to its log's header (cc_game.log_offset + sizeof(cc_log)), since
 * a game keeping no log never writes its entries.  The learner's actions
 * are checked on the calling thread before the games are split across
 * threads.
 *
 * Threads: nthreads > 1 splits the games into chunks of a multiple of 16
 * games (about 8 per thread; at most one thread per game and
 * CC_VEC_MAX_THREADS), and the calling thread and up to nthreads - 1 worker
 * threads of the vector take the chunks one at a time until none is left;
 * the call returns once all are done.  So a worker that is late (asleep, or
 * waiting for a core) leaves its chunks to the others instead of holding
 * the call up.  A call on 16 games or fewer, or whose games took less
 * than 8 microseconds at the vector's last call of the same function (too
 * little work to share), runs on the calling thread.  The workers are started at
 * the first call that needs them (more at a call with a larger nthreads; a
 * call with a smaller one leaves the extra ones asleep) and kept until
 * cc_vecenv_free.  Between calls a worker polls for its next call
 * (yielding its core after a few microseconds), then sleeps: it polls for
 * twice the time between its last two calls if they came within 0.5 ms of
 * each other (at least 50 microseconds), else for 50 microseconds.  So
 * close calls pay no thread start and no wake, and an idle vector uses no
 * CPU after at most 1 ms.  A worker that cannot be started leaves its
 * chunks to the others.  The workers belong to the process that started
 * them: in a forked child the vector starts its own.  A build without POSIX
 * threads (or C11 atomics) steps every game on the calling thread.  The results never depend on
 * nthreads.  Do not call two functions on one vector at once, nor copy its
 * memory while it has workers.
 */
#ifndef CC_VECENV_H
#define CC_VECENV_H

#include <stddef.h>
#include <stdint.h>

#include "cardcore.h"

/* The policy that plays the other seats. */
#define CC_VEC_RANDOM 0    /* a uniformly random legal action */
#define CC_VEC_HEURISTIC 1 /* cc_game.heuristic, random if the game has none */

/* Flags of cc_vecenv_init. */
#define CC_VEC_EVENTS 1 /* the games keep their event logs (off: no log) */

#define CC_VEC_MAX_THREADS 64
#define CC_VEC_MAX_GAMES 16777216

/* Bytes of a vector of n games with these flags (0 for a NULL game, n
 * outside 1..CC_VEC_MAX_GAMES or an unknown flag). */
size_t cc_vecenv_bytes(const cc_game *game, int64_t n, int32_t flags);

/* Set up a vector in mem (nbytes >= cc_vecenv_bytes) and deal every game.
 * params/nplayers are checked as by cc_game_check_params; learner is the
 * caller's seat (0..nplayers-1); opponent is a CC_VEC_* policy; flags is 0
 * or CC_VEC_EVENTS.  Without CC_VEC_EVENTS the games keep no event log
 * (each state's log has capacity 0 after its deal: the rules never read
 * it, so the games are the same, a little faster).
 * CC_OK, CC_E_ARG, CC_E_PLAYERS, CC_E_PARAMS or CC_E_CAPACITY (nbytes).
 * A NULL mem, game or params: CC_E_ARG. */
int32_t cc_vecenv_init(void *mem, size_t nbytes, const cc_game *game, const int32_t *params,
                       int32_t nplayers, int32_t learner, int32_t opponent, int32_t flags,
                       int64_t n, uint64_t seed);

/* Stop and join the vector's worker threads and release their block; call
 * it before freeing or initialising the vector's memory again.  The vector
 * stays valid (a later call with nthreads > 1 starts new workers).  Nothing
 * for NULL, a vector that has no workers, or in a forked child for the
 * parent's workers (forgotten, not joined). */
void cc_vecenv_free(void *mem);

/* Number of games, the action space and the tensor size of a vector made by
 * cc_vecenv_init (0 for NULL). */
int64_t cc_vecenv_size(const void *mem);
int32_t cc_vecenv_num_actions(const void *mem);
int32_t cc_vecenv_tensor_size(const void *mem);

/* stop (may be NULL), the last argument of observe, reset and step: the
 * caller's stop flag, set (nonzero) by another thread to stop the call.
 * Each thread reads it before every VEC_STOP_GRAIN-th game (64) of a run
 * of games; once it is set the call returns CC_E_STOPPED (cardcore.h):
 * each game is either done (stepped or dealt, its outputs written) or
 * untouched (its outputs not written), which ones unspecified.  The vector
 * stays valid: every game waits for the learner. */

/* Write every game's learner observation (n * tensor_size floats) and action
 * mask (n * num_actions int8: 1 legal, 0 not).  CC_OK or CC_E_ARG.
 * Every pointer required (NULL: CC_E_ARG). */
int32_t cc_vecenv_observe(const void *mem, float *obs, int8_t *masks, int32_t nthreads,
                          const volatile int32_t *stop);

/* Deal a new game in every slot (each slot's generator goes on; nothing is
 * reseeded) and write the observations.  CC_OK or an error code.
 * Every pointer required (NULL: CC_E_ARG). */
int32_t cc_vecenv_reset(void *mem, float *obs, int8_t *masks, int32_t nthreads,
                        const volatile int32_t *stop);

/* One learner step in every game: actions[i] for game i.  Every action is
 * checked first; if one is not legal, nothing is applied and the call
 * returns CC_E_ILLEGAL with *bad_index set to its game (CC_E_ARG for NULL
 * arrays).  Then obs/masks as in cc_vecenv_observe, rewards[i] (float) and
 * terminated[i] (1 if game i ended at this step and was replaced, else 0).
 * Another error code from a game (a step limit of 10^6 moves between learner
 * turns, a failing rule) leaves the vector in an unspecified but valid state. */
int32_t cc_vecenv_step(void *mem, const int32_t *actions, float *obs, int8_t *masks, float *rewards,
                       uint8_t *terminated, int32_t nthreads, int64_t *bad_index,
                       const volatile int32_t *stop);

/* A uniformly random legal action for the learner in every game, into
 * actions[0..n-1], drawn from each game's second generator, seeded from
 * ~(seed + i * 0x9E3779B97F4A7C15) (the first one's course is not touched):
 * a random learner policy that costs next to nothing.  It runs on the
 * calling thread whatever nthreads (a few instructions a game, less than
 * a handoff to a thread).  A step that follows it draws each game's next
 * such action ahead, on the thread that steps the game, from a copy of the
 * generator; the next call uses that draw and moves the generator on to the
 * copy, so the actions are those of drawing at the call, and a loop of the
 * two spends its serial part on a copy a game.  CC_OK or CC_E_ARG. A NULL
 * mem or actions: CC_E_ARG. */
int32_t cc_vecenv_random_actions(void *mem, int32_t *actions, int32_t nthreads);

/* Games finished since cc_vecenv_init, and games dealt again because they
 * ended before the learner's first turn. 0 for NULL. */
int64_t cc_vecenv_episodes(const void *mem);
int64_t cc_vecenv_skipped(const void *mem);

/* Every seat's returns (cc_game.returns, seat order) at the end of each
 * game's last finished game, into out[i * nplayers + seat] (n * nplayers
 * int32; zeros for a slot whose first game is still on): read after a step
 * that terminated game i, it is that game's result for every seat, where
 * the rewards give the learner's alone.  CC_OK, or CC_E_ARG for a NULL mem
 * or out. */
int32_t cc_vecenv_final_returns(const void *mem, int32_t *out);

/* The state of game i (read-only; NULL for i out of range).  Without
 * CC_VEC_EVENTS its log has capacity 0 (it records nothing) and its memory
 * ends after the log's header: copy it with cc_vecenv_copy_state. */
const void *cc_vecenv_state(const void *mem, int64_t i);

/* Copy game i into out (game.state_size bytes) as a state that plays on
 * like any other: without CC_VEC_EVENTS its log is empty (no event of the
 * game so far) with the game's capacity.  CC_OK or CC_E_ARG.
 * A NULL mem or out: CC_E_ARG. */
int32_t cc_vecenv_copy_state(const void *mem, int64_t i, void *out);

#endif /* CC_VECENV_H */
