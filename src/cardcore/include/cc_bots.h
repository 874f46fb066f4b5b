/*
 * cc_bots.h: built-in bots over the generic game table (search/).
 *
 * A bot is described by a cc_bot_spec (kind, rollout policy, budget) and
 * played by a cc_searcher, which allocates everything it needs once (node
 * pool, scratch states, masks) so that no simulation allocates.  Kinds:
 *
 *   CC_BOT_RANDOM     a uniformly random legal action;
 *   CC_BOT_HEURISTIC  the game's rule-based policy (cc_game.heuristic), or
 *                     a random action for a game without one;
 *   CC_BOT_PIMC       determinized Monte Carlo: for each of `samples`
 *                     states drawn by sample_infoset, every legal action is
 *                     scored by rollouts; the best mean over all samples wins;
 *   CC_BOT_ISMCTS     single-observer information-set MCTS (Cowling, Powley
 *                     and Whitehouse 2012) with UCT and availability counts;
 *   CC_BOT_NET        one network call a move (cc_net.h, set by
 *                     cc_searcher_set_nets): the legal action of the highest
 *                     policy output (ties: the lowest id).
 *
 * The solver leaf (spec.solve > 0, a game with cc_game.solve): a simulation
 * that reaches a state within the solver's reach (0 <= solve_depth <=
 * solve) plays on with the solver as every player's policy (each player
 * plays an action of the highest solver value, ties: the lowest id) until
 * the solver can no longer take the state (the deal's play is over), then
 * goes on with the rollout policy; its reward is that of where it stops,
 * in the spec's reward, scale and horizon, as for any rollout.  A solve
 * that would visit more than CC_BOT_SOLVE_NODES positions is given up: that
 * simulation plays on with the rollout policy, the solver off.  The solver
 * is asked for the win table's values (horizon deal, reward win, two
 * players, a win table), else for the points margin.  PIMC at a state
 * within reach solves each determinization once instead (one solve values
 * every action; the values are summed, in the solver's units over scale);
 * if one of those solves is given up, the move is searched by rollouts
 * with the solver off.
 *
 * Rewards (docs/search.rst, spec.reward): what a simulation is worth to
 * each player, from the returns at its end.  CC_REWARD_WIN, by rank:
 * (number of other players with fewer points + half the number with as
 * many) / (nplayers - 1): 1 for a win, 0.5 for a tie, 0 for a loss with two
 * players.  CC_REWARD_MARGIN: (own points - the mean of the others') /
 * scale.  CC_REWARD_POINTS: own points / scale.
 *
 * Horizons (spec.horizon): CC_HORIZON_GAME rolls out to the end of the game;
 * CC_HORIZON_DEAL stops a simulation where the deal (round) of the searched
 * state ends (cc_game.deal_index changes; a game without deal_index is one
 * deal) and values the position there: margin and points from the returns
 * at that moment; win, with two players and a win table, as the table's
 * probability that the next deal's dealer wins from the two scores; win
 * without a table, by rank of the scores.
 *
 * Hooks (cc_searcher_set_hooks): a rollout policy, a batched leaf evaluator
 * and action priors (PUCT), called with a context pointer; a hook that
 * returns a nonzero status stops the search, which returns that status.
 *
 * Threads (spec.threads > 1): root parallelism; as many trees (ISMCTS) or
 * sample sets (PIMC), each with its own generator seeded from the bot's
 * generator, searched at once, their root statistics summed.  They share
 * one stop flag (per searcher, no global): a tree that fails (a hook's
 * error) sets it, every other tree stops at its next simulation (or step
 * of a hook's rollout) with CC_E_STOPPED (cardcore.h), and the act returns
 * the failing tree's status.
 *
 * Same spec, state and generator state -> the same action, on every
 * platform, except with a time budget (seconds > 0), where the number of
 * simulations depends on the machine.  Functions return CC_OK or a negative
 * CC_E_* status code and never abort.
 */
#ifndef CC_BOTS_H
#define CC_BOTS_H

#include <stdint.h>

#include "cardcore.h"
#include "cc_net.h"

#define CC_BOT_RANDOM 0
#define CC_BOT_HEURISTIC 1
#define CC_BOT_PIMC 2
#define CC_BOT_ISMCTS 3
#define CC_BOT_NET 4

#define CC_ROLLOUT_RANDOM 0
#define CC_ROLLOUT_HEURISTIC 1

#define CC_REWARD_WIN 0
#define CC_REWARD_MARGIN 1
#define CC_REWARD_POINTS 2

#define CC_HORIZON_GAME 0
#define CC_HORIZON_DEAL 1

/* The bots' own status codes, CC_E_HOOK and CC_E_ROLLOUT_LIMIT, are in
 * cardcore.h with every other. */

/* The most trees of a root-parallel search. */
#define CC_BOT_MAX_THREADS 64
/* The largest reward scale, and the largest target of a win table. */
#define CC_BOT_MAX_SCALE 1000000000
#define CC_BOT_MAX_TARGET 1024
/* The most leaves per evaluate hook call. */
#define CC_BOT_MAX_BATCH 4096

/* The largest simulation budget per move. */
#define CC_BOT_MAX_SIMULATIONS 100000000
/* The largest time budget per move, in seconds. */
#define CC_BOT_MAX_SECONDS 86400
/* The largest UCT exploration constant. */
#define CC_BOT_MAX_EXPLORATION 1000000
/* The most PIMC determinizations per move. */
#define CC_BOT_MAX_SAMPLES 100000
/* The largest ISMCTS node pool: a search that fills it stops expanding and
 * goes on with rollouts from the tree's leaves. */
#define CC_BOT_MAX_NODES 4194304
/* The node pool of a search budgeted by time alone (simulations 0). */
#define CC_BOT_TIME_NODES 524288
/* A rollout longer than this many actions is an error (CC_E_ROLLOUT_LIMIT). */
#define CC_BOT_ROLLOUT_LIMIT 1000000
/* The largest solver reach (spec.solve): cards still to be played. */
#define CC_BOT_MAX_SOLVE 78
/* The most positions one solve of the solver leaf visits (cc_game.solve's
 * max_nodes): past it, that simulation goes on with the rollout policy. */
#define CC_BOT_SOLVE_NODES 20000

/* The options a searcher takes when it is not told otherwise: the defaults
 * of the bindings' searchers and of pycards.bots.SearchOptions, written once
 * here.  Integers only (the header stays cffi-friendly): the UCT constant is
 * in thousandths (700: c = 0.7); the rollout, reward and horizon are the
 * CC_ROLLOUT_RANDOM, CC_REWARD_WIN and CC_HORIZON_GAME codes; solve 0 never
 * hands a simulation to the solver; the margin reward's scale is 1. */
#define CC_BOT_DEFAULT_SIMULATIONS 1000
#define CC_BOT_DEFAULT_SAMPLES 10
#define CC_BOT_DEFAULT_EXPLORATION_MILLI 700
#define CC_BOT_DEFAULT_ROLLOUT 0
#define CC_BOT_DEFAULT_REWARD 0
#define CC_BOT_DEFAULT_HORIZON 0
#define CC_BOT_DEFAULT_THREADS 1
#define CC_BOT_DEFAULT_SCALE 1
#define CC_BOT_DEFAULT_BATCH 1
#define CC_BOT_DEFAULT_SOLVE 0

typedef struct cc_bot_spec {
    int32_t kind;            /* CC_BOT_* */
    int32_t rollout;         /* CC_ROLLOUT_*: PIMC and ISMCTS rollouts */
    int64_t simulations;     /* PIMC and ISMCTS: simulations (rollouts) per
                            move (per tree), 1..CC_BOT_MAX_SIMULATIONS; with
                            seconds > 0 an upper bound, 0 for none */
    double seconds;          /* 0: budget by simulations; else the time budget
                            per move, (0, CC_BOT_MAX_SECONDS] */
    double exploration;      /* ISMCTS: the UCT constant c, 0..MAX_EXPLORATION */
    int32_t samples;         /* PIMC: determinizations per move, 1..MAX_SAMPLES */
    int32_t reward;          /* CC_REWARD_* (0: win) */
    int32_t horizon;         /* CC_HORIZON_* (0: game) */
    int32_t threads;         /* PIMC and ISMCTS: 0 or 1 for one tree, else
                            2..CC_BOT_MAX_THREADS root-parallel trees */
    double scale;            /* margin and points: the points worth one unit of
                            reward, 0 for 1, else (0, CC_BOT_MAX_SCALE] */
    const double *win_table; /* NULL, or (horizon deal, reward win, two
                            players) win_target * win_target values in
                            [0, 1]: [x * win_target + y] the probability
                            that the dealer of the next deal wins with x
                            points to the other's y (copied by
                            cc_searcher_new) */
    int32_t win_target;      /* with a win table, 1..CC_BOT_MAX_TARGET; else 0 */
    int32_t solve;           /* PIMC and ISMCTS: 0, or hand a state over to the
                            game's exact solver (cc_game.solve) when
                            0 <= solve_depth(state) <= solve, 1..MAX_SOLVE
                            (a game with a solver only) */
} cc_bot_spec;

typedef struct cc_searcher cc_searcher;

/* Fields of a spec, as *bad names them. */
#define CC_BOT_F_KIND 0
#define CC_BOT_F_ROLLOUT 1
#define CC_BOT_F_SIMULATIONS 2
#define CC_BOT_F_SECONDS 3
#define CC_BOT_F_EXPLORATION 4
#define CC_BOT_F_SAMPLES 5
#define CC_BOT_F_REWARD 6
#define CC_BOT_F_HORIZON 7
#define CC_BOT_F_THREADS 8
#define CC_BOT_F_SCALE 9
#define CC_BOT_F_WIN_TABLE 10
#define CC_BOT_F_SOLVE 11

/* CC_OK if spec is a valid bot for game, else CC_E_ARG with *bad (may be
 * NULL) set to the CC_BOT_F_* field at fault (-1: game or spec NULL, or a
 * search bot for a game without a sampler). */
int32_t cc_bot_spec_check(const cc_game *game, const cc_bot_spec *spec, int32_t *bad);

/* A searcher for game with these rules and nplayers (checked), everything
 * allocated once.  NULL on bad arguments or no memory; *status (may be
 * NULL) gets CC_OK, CC_E_ARG, CC_E_PLAYERS, CC_E_PARAMS or CC_E_CAPACITY
 * (no memory). */
cc_searcher *cc_searcher_new(const cc_game *game, const int32_t *params, int32_t nplayers,
                             const cc_bot_spec *spec, int32_t *status);
void cc_searcher_free(cc_searcher *searcher);

/* Choose an action for player (-1: the player to act) in state, a state of
 * the searcher's game made with its rules and players.  rng is the bot's
 * generator (advanced).  CC_OK with *action set; CC_E_GAME_OVER on a
 * finished state; CC_E_ARG for a NULL argument, another game, or a player
 * who is not the one to act.  A single legal action is returned at once.
 * stop (may be NULL): the caller's stop flag for this call, set (nonzero)
 * by another thread to stop the search; every tree reads it where it reads
 * the searcher's own (at each simulation, and each step of a hook's
 * rollout), and once it is set the act returns CC_E_STOPPED (cardcore.h),
 * *action not written; the searcher searches again at its next act. */
int32_t cc_searcher_act(cc_searcher *searcher, const cc_game *game, const void *state,
                        int32_t player, cc_rng *rng, int32_t *action, const volatile int32_t *stop);

/* PIMC over given worlds (a CC_BOT_PIMC searcher of one thread): like
 * cc_searcher_act, but the determinizations are worlds[0 .. nworlds - 1]
 * (states of the searcher's game, rules and players, each with player to
 * act; 1 <= nworlds <= spec.samples), not drawn, and each world's
 * simulations (or solve) count with its weight: an action's value is the
 * weighted mean sum(w_i * r_i) / sum(w_i) over the simulations r_i of it.
 * The weights are first divided by a power of two near the largest
 * (exactly), so that no sum overflows, whatever their size (up to
 * DBL_MAX).  Worlds of weight 0 are left out; if every weight is 0, every
 * world weighs 1.  The budget (simulations or seconds) and the solver (spec.solve,
 * where the searched state is within reach) are as for PIMC; rng is used by
 * the rollouts only.  The caller draws the worlds: that they are
 * consistent with what player knows is the caller's duty (nothing else is
 * read from state but its legal actions, player to act and deal).  means
 * (may be NULL): num_actions doubles, the weighted mean of each legal
 * action searched, NaN for the others (all NaN when a single legal action
 * is returned at once).  CC_OK; CC_E_ARG (a NULL argument, another game,
 * not PIMC, threads > 1, nworlds out of range, a weight negative, NaN or
 * infinite, a world whose player to act differs); CC_E_GAME_OVER;
 * CC_E_ILLEGAL (an action of state illegal in a world); CC_E_STOPPED (stop,
 * as for cc_searcher_act: means are then unspecified). */
int32_t cc_searcher_act_worlds(cc_searcher *searcher, const cc_game *game, const void *state,
                               int32_t player, const void *const *worlds, const double *weights,
                               int32_t nworlds, cc_rng *rng, int32_t *action, double *means,
                               const volatile int32_t *stop);

/* Hooks: Python (or any host) code inside the search.  Each gets its
 * context pointer back and returns CC_OK, or a nonzero status that stops
 * the search (cc_searcher_act returns it; CC_E_HOOK by convention).
 * Observations are the game's observe_tensor of `player` (tensor_size
 * floats), masks CC_MASK_WORDS words of legal actions.
 *
 *   policy    the rollout policy: *action, a legal action for player (the
 *             player to act), replaces CC_ROLLOUT_*;
 *   evaluate  a leaf evaluator (ISMCTS): n leaves (1..batch) at once,
 *             obs[i * tensor_size ...], masks[i * CC_MASK_WORDS ...] and
 *             players[i] (the player to act there) in, values[i * nplayers
 *             + p] out, the value of leaf i to player p in reward units,
 *             each in [-1e300, 1e300] (else CC_E_HOOK); it replaces the
 *             rollout (a finished game keeps its true reward);
 *   priors    action priors for PUCT selection (ISMCTS): priors[a] in
 *             [0, 1e300] for each legal a (else CC_E_HOOK; num_actions
 *             doubles, the others ignored; they need not sum to 1), asked
 *             once per expanded node; selection
 *             then maximizes mean + c * prior * sqrt(avail) / (1 + visits)
 *             and expansion takes the untried action of highest prior. */
typedef int32_t (*cc_policy_hook)(void *ctx, const float *obs, const uint64_t *mask, int32_t player,
                                  int32_t *action);
typedef int32_t (*cc_evaluate_hook)(void *ctx, int32_t n, const float *obs, const uint64_t *masks,
                                    const int32_t *players, double *values);
typedef int32_t (*cc_priors_hook)(void *ctx, const float *obs, const uint64_t *mask, int32_t player,
                                  double *priors);

typedef struct cc_bot_hooks {
    cc_policy_hook policy; /* NULL: the spec's rollout */
    void *policy_ctx;
    cc_evaluate_hook evaluate; /* NULL: rollouts */
    void *evaluate_ctx;
    int32_t batch;         /* with evaluate: leaves per call, 1..CC_BOT_MAX_BATCH */
    int32_t reserved;      /* 0 */
    cc_priors_hook priors; /* NULL: UCT */
    void *priors_ctx;
} cc_bot_hooks;

/* Set (NULL: clear) the searcher's hooks, for the PIMC and ISMCTS kinds
 * (PIMC takes policy only).  CC_OK, CC_E_ARG (a bad batch, a hook its kind
 * does not take), or CC_E_CAPACITY (no memory for the batch). */
int32_t cc_searcher_set_hooks(cc_searcher *searcher, const cc_bot_hooks *hooks);
/* (searcher NULL: CC_E_ARG; hooks NULL clears them.) */

/* Networks in the search (cc_net.h), evaluated in C with no hook:
 *
 *   value     ISMCTS: the leaf value.  The value head's outputs (each
 *             seat's expected final points, the mover first) are turned
 *             into the spec's reward as the returns of a finished game
 *             are (win: by rank; margin, points: over the scale); a leaf
 *             is worth value_weight * that + (1 - value_weight) * its
 *             rollout (value_weight 1: no rollout);
 *   priors    ISMCTS: PUCT priors, the softmax of the policy head over the
 *             legal actions (an exp written with exactly rounded
 *             operations, the same on every platform);
 *   rollout   PIMC and ISMCTS: the rollout policy, each player's action
 *             drawn (from the search's generator) by the softmax of the
 *             policy head over the legal actions;
 *   policy    CC_BOT_NET: the network it plays.
 *
 * A network must match the searcher's game: input_size its tensor_size,
 * num_actions its action count, num_players its players.  The networks
 * are not copied: they must outlive the searcher (or the next call).
 * Setting networks replaces the hooks of cc_searcher_set_hooks (they
 * are made of the networks); NULL clears them.  CC_OK, CC_E_ARG (a
 * network that does not match, one the searcher's kind does not take,
 * value_weight outside [0, 1], CC_BOT_NET without policy), CC_E_CAPACITY. */
typedef struct cc_search_nets {
    const struct cc_net *value; /* (struct: cffi reads cc_net.h after this header) */
    double value_weight;
    const struct cc_net *priors;
    const struct cc_net *rollout;
    const struct cc_net *policy;
} cc_search_nets;

int32_t cc_searcher_set_nets(cc_searcher *searcher, const cc_search_nets *nets);

/* The simulations (rollouts) and tree nodes of the last act.
 * 0 for a NULL searcher. */
int64_t cc_searcher_last_simulations(const cc_searcher *searcher);
int64_t cc_searcher_last_nodes(const cc_searcher *searcher);

/* Play ngames games of game (rules params, nplayers): game g dealt by
 * init(deal_seeds[g]); seat p played by seats[p] (the same searcher may sit
 * at several seats), its generator seeded with bot_seeds[g * nplayers + p]
 * before game g.  state is room for one state of the game (state_size
 * bytes).  Out: returns_out[g * nplayers + p] the returns of game g;
 * moves_out[p] the actions seat p chose and seconds_out[p] the time it spent
 * choosing them, summed over the games (either may be NULL).  The same
 * games, move for move, as a loop of cc_searcher_act over states dealt with
 * the same seeds.  stop (may be NULL): the caller's stop flag, read before
 * every move and given to every act: once it is set, the match returns
 * CC_E_STOPPED; the games finished by then have their returns written, the
 * others not, and moves_out and seconds_out are not written. */
int32_t cc_play_match(const cc_game *game, const int32_t *params, int32_t nplayers,
                      cc_searcher *const *seats, int64_t ngames, const uint64_t *deal_seeds,
                      const uint64_t *bot_seeds, void *state, int32_t *returns_out,
                      int64_t *moves_out, double *seconds_out, const volatile int32_t *stop);

#endif /* CC_BOTS_H */
