/*
 * cc_bots.h: built-in bots over the generic game table (bots.c).
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
 *                     and Whitehouse 2012) with UCT and availability counts.
 *
 * Rewards (docs/search.rst): a finished game's returns are turned into one
 * reward in [0, 1] per player by rank: (number of other players with fewer
 * points + half the number with as many) / (nplayers - 1): 1 for a win, 0.5
 * for a tie, 0 for a loss with two players.
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

#define CC_BOT_RANDOM 0
#define CC_BOT_HEURISTIC 1
#define CC_BOT_PIMC 2
#define CC_BOT_ISMCTS 3

#define CC_ROLLOUT_RANDOM 0
#define CC_ROLLOUT_HEURISTIC 1

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
/* A rollout longer than this many actions is an error (CC_E_CAPACITY). */
#define CC_BOT_ROLLOUT_LIMIT 1000000

typedef struct cc_bot_spec {
    int32_t kind;        /* CC_BOT_* */
    int32_t rollout;     /* CC_ROLLOUT_*: PIMC and ISMCTS rollouts */
    int64_t simulations; /* PIMC and ISMCTS: simulations (rollouts) per
                            move, 1..CC_BOT_MAX_SIMULATIONS; with seconds
                            > 0 an upper bound, 0 for none */
    double seconds;      /* 0: budget by simulations; else the time budget
                            per move, (0, CC_BOT_MAX_SECONDS] */
    double exploration;  /* ISMCTS: the UCT constant c, 0..MAX_EXPLORATION */
    int32_t samples;     /* PIMC: determinizations per move, 1..MAX_SAMPLES */
    int32_t reserved;    /* 0 */
} cc_bot_spec;

typedef struct cc_searcher cc_searcher;

/* Fields of a spec, as *bad names them. */
#define CC_BOT_F_KIND 0
#define CC_BOT_F_ROLLOUT 1
#define CC_BOT_F_SIMULATIONS 2
#define CC_BOT_F_SECONDS 3
#define CC_BOT_F_EXPLORATION 4
#define CC_BOT_F_SAMPLES 5
#define CC_BOT_F_RESERVED 6

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
 * who is not the one to act.  A single legal action is returned at once. */
int32_t cc_searcher_act(cc_searcher *searcher, const cc_game *game, const void *state,
                        int32_t player, cc_rng *rng, int32_t *action);

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
 * the same seeds. */
int32_t cc_play_match(const cc_game *game, const int32_t *params, int32_t nplayers,
                      cc_searcher *const *seats, int64_t ngames, const uint64_t *deal_seeds,
                      const uint64_t *bot_seeds, void *state, int32_t *returns_out,
                      int64_t *moves_out, double *seconds_out);

#endif /* CC_BOTS_H */
