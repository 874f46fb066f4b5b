/*
 * cc_notakers.h: No Takers? (docs/notakers.rst): the exact best-split
 * scorer and the game table cc_game_notakers.
 *
 * Sets (docs/notakers.rst, scoring):
 *   kind     points    list position
 *   pair     1         1
 *   trips    2         2
 *   run 3    3         3
 *   run 4    4         4
 *   four     5         5
 *   run k>=5 k         k + 1
 * Runs are consecutive ranks of one suit; ace_in_runs says where the Ace
 * may stand in a run (low: A-2-3, high: Q-K-A, both: either, never K-A-2).
 *
 * Tie-break key: one descriptor per set, (position, top, suit strength),
 * the sets sorted best first; keys compare lexicographically (a longer key
 * wins over its own prefix).  top: a run's highest card as used in it
 * (2..13, an Ace on top of Q-K-A is 14); a same-rank set's rank (2..13, an
 * Ace is 14 with tiebreak_ace high, 1 with low).  Suit strength: Cups
 * (hearts) 3 > Shields (diamonds) 2 > Swords (spades) 1 > Skulls (clubs) 0;
 * a set's is that of its strongest card.  Descriptor as one integer:
 * position * 64 + top * 4 + strength.
 */
#ifndef CC_NOTAKERS_H
#define CC_NOTAKERS_H

#include "cardcore.h"

#define CC_NOTAKERS_ACE_LOW 0
#define CC_NOTAKERS_ACE_HIGH 1
#define CC_NOTAKERS_ACE_BOTH 2
#define CC_NOTAKERS_TIEBREAK_ACE_HIGH 0
#define CC_NOTAKERS_TIEBREAK_ACE_LOW 1

#define CC_NOTAKERS_SET_PAIR 1
#define CC_NOTAKERS_SET_TRIPS 2
#define CC_NOTAKERS_SET_RUN 3
#define CC_NOTAKERS_SET_FOUR 4

#define CC_NOTAKERS_MAX_SETS 26

/* One set of a split.  cards: bitset; suit: the engine suit id (0..3) of
 * its strongest card by the tie-break order. */
typedef struct cc_notakers_set {
    uint64_t cards;
    int32_t kind;
    int32_t points;
    int32_t position;
    int32_t top;
    int32_t suit;
    int32_t descriptor;
} cc_notakers_set;

/* A best split: sets sorted best first (that order is the key). */
typedef struct cc_notakers_split {
    int32_t points;
    int32_t nsets;
    cc_notakers_set sets[26]; /* CC_NOTAKERS_MAX_SETS */
} cc_notakers_split;

/* Maximum points of a split of cards (any subset of the deck): >= 0, or
 * CC_E_CARDS / CC_E_ARG. */
int32_t cc_notakers_points(uint64_t cards, int32_t ace_in_runs);
/* 1 if cards split into sets with no card left over (the empty set does),
 * 0 if not, or CC_E_CARDS / CC_E_ARG. */
int32_t cc_notakers_splits_exactly(uint64_t cards, int32_t ace_in_runs);
/* The best split (maximum points, then the best key): CC_OK or an error.
 * out NULL: CC_E_ARG. */
int32_t cc_notakers_best_split(uint64_t cards, int32_t ace_in_runs, int32_t tiebreak_ace,
                               cc_notakers_split *out);
/* Compare two splits by (points, key): > 0 if a is better, < 0 if b, 0 if
 * equal.  Either may be NULL: a NULL split ranks below every split (two
 * NULLs are equal); sets past CC_NOTAKERS_MAX_SETS are not read. */
int32_t cc_notakers_compare(const cc_notakers_split *a, const cc_notakers_split *b);
/* Batch: out[i] = cc_notakers_points(cards[i]); CC_OK, or CC_E_CARDS with
 * *bad_index set, or CC_E_ARG.
 * bad_index may be NULL; the arrays may be NULL only for n 0 (else
 * CC_E_ARG). */
int32_t cc_notakers_batch_points(const uint64_t *cards, int64_t n, int32_t ace_in_runs,
                                 int32_t *out, int64_t *bad_index);

/* ---- the game (docs/notakers.rst) ----------------------------------------
 * Rules parameters (int32, in this order; the table cc_game_notakers.params
 * names them after the fields of pycards.games.notakers.NoTakersRules):        */
#define CC_NOTAKERS_P_SAVE_REQUIRES_SET 0 /* 0 false, 1 true */
#define CC_NOTAKERS_P_SAVE_VISIBILITY 1   /* CC_NOTAKERS_SAVES_* */
#define CC_NOTAKERS_P_PASS_FALLBACK 2     /* CC_NOTAKERS_FALLBACK_* */
#define CC_NOTAKERS_P_SHORT_DRAW 3        /* CC_NOTAKERS_SHORT_* */
#define CC_NOTAKERS_P_MAX_TURNS 4         /* CC_NOTAKERS_NO_TURN_CAP, or 1..CC_NOTAKERS_MAX_TURNS */
#define CC_NOTAKERS_P_ACE_IN_RUNS 5       /* CC_NOTAKERS_ACE_* */
#define CC_NOTAKERS_P_TIEBREAK_ACE 6      /* CC_NOTAKERS_TIEBREAK_ACE_* */
#define CC_NOTAKERS_NUM_PARAMS 7

#define CC_NOTAKERS_SAVES_HIDDEN 0
#define CC_NOTAKERS_SAVES_OPEN 1
#define CC_NOTAKERS_FALLBACK_EACH_ONE 0
#define CC_NOTAKERS_FALLBACK_EACH_AT_LEAST_ONE 1
#define CC_NOTAKERS_FALLBACK_FIRST_HOLDER_ONLY 2
#define CC_NOTAKERS_SHORT_TAKE_REST_THEN_END 0
#define CC_NOTAKERS_SHORT_END_WITHOUT_DRAWING 1
#define CC_NOTAKERS_NO_TURN_CAP 0 /* max_turns None */
#define CC_NOTAKERS_MAX_TURNS 1000000

/* Actions (num_actions = 108 + 69 * (nplayers - 1)):
 *   0            draw
 *   1            end the save (at least 3 cards chosen)
 *   2            cancel the save (back to the turn's choice)
 *   3            stop giving (at least the minimum given)
 *   4 + c        save card c (c = dense card id; the first one starts a Save)
 *   56 + c       give card c (asked, pass-fallback or No Takers give)
 *   108 + 69 * (k - 1) + d   ask the player k seats on (1..n-1) for d:
 *                d 0..12 a rank, 13..16 a suit (C D H S), 17 + c a card. */
#define CC_NOTAKERS_A_DRAW 0
#define CC_NOTAKERS_A_SAVE_DONE 1
#define CC_NOTAKERS_A_SAVE_CANCEL 2
#define CC_NOTAKERS_A_GIVE_DONE 3
#define CC_NOTAKERS_A_SAVE 4
#define CC_NOTAKERS_A_GIVE 56
#define CC_NOTAKERS_A_ASK 108
#define CC_NOTAKERS_NUM_DESCRIPTORS 69
#define CC_NOTAKERS_D_SUIT 13 /* descriptors: ranks 0..12, suits 13..16 */
#define CC_NOTAKERS_D_CARD 17 /* cards 17..68 */

/* Phases (observation tensor, docs). */
#define CC_NOTAKERS_PHASE_TURN 0
#define CC_NOTAKERS_PHASE_SAVE 1
#define CC_NOTAKERS_PHASE_GIVE 2
#define CC_NOTAKERS_PHASE_FALLBACK 3
#define CC_NOTAKERS_PHASE_NO_TAKERS 4
#define CC_NOTAKERS_PHASE_OVER 5
#define CC_NOTAKERS_NUM_PHASES 6

/* Event kinds (player, target, value, extra; the table
 * cc_game_notakers.event_kinds documents each):
 *   DEAL      player got value (a card); seen by player
 *   DRAW      player drew value; extra 1 = a forced draw; seen by player
 *   SAVE      player saved value; seen by player, or all if saves are open
 *   ASK       player asked target for value (a descriptor); public
 *   PASS      player (the asked) passed; target = the asker; public
 *   GIVE      player gave value to target; extra CC_NOTAKERS_GIVE_*;
 *             seen by player and target
 *   NO_TAKERS player (the asker) found no takers; public
 *   SCORE     player scored value; extra 1 = a winner; public
 *   GAME_OVER the last event of a finished game; player = whose turn it
 *             was; value CC_NOTAKERS_END_*; public                       */
#define CC_NOTAKERS_EV_DEAL 0
#define CC_NOTAKERS_EV_DRAW 1
#define CC_NOTAKERS_EV_SAVE 2
#define CC_NOTAKERS_EV_ASK 3
#define CC_NOTAKERS_EV_PASS 4
#define CC_NOTAKERS_EV_GIVE 5
#define CC_NOTAKERS_EV_NO_TAKERS 6
#define CC_NOTAKERS_EV_SCORE 7
#define CC_NOTAKERS_EV_GAME_OVER 8
#define CC_NOTAKERS_NUM_EVENT_KINDS 9

/* The value of an event player did not see, in a state sampled for him. */
#define CC_NOTAKERS_UNSEEN (-1)

#define CC_NOTAKERS_GIVE_ASKED 0
#define CC_NOTAKERS_GIVE_FALLBACK 1
#define CC_NOTAKERS_GIVE_NO_TAKERS 2
#define CC_NOTAKERS_END_PILE 0      /* the draw pile ran out */
#define CC_NOTAKERS_END_MAX_TURNS 1 /* max_turns turns were played */

/* Events the state's ring log keeps (cardcore.h, "the event log"); older
 * ones are dropped, the game goes on.  A game where a third of the turns
 * are draws logs about 100 events (at most about 220 in 1500 such games);
 * one where nearly every turn is an Ask (uniformly random play) logs ~2000
 * and keeps its last 256. */
#define CC_NOTAKERS_LOG_CAPACITY 256

/* What player knows of the other seats' cards (docs/notakers.rst,
 * "Information-set sampling"), for a No Takers? state (a cc_game_notakers
 * state: the caller checks the game): out[q] cards known in seat q's hand,
 * out[8 + q] cards known in q's hand or save pile, out[16 + q] cards known
 * not in q's hand, for q < nplayers (0 beyond, and for q == player).
 * out has 24 words.  CC_OK or CC_E_ARG. A NULL state or out: CC_E_ARG. */
int32_t cc_notakers_knowledge(const void *state, int32_t player, uint64_t *out);

/* The game's heuristic (notakers_bot.c; docs/notakers.rst, "The heuristic
 * bot"): cc_game_notakers.heuristic.
 * As cc_game.heuristic: CC_E_ARG for a NULL argument. */
int32_t cc_notakers_heuristic(const void *state, cc_rng *rng, int32_t *action);

/* A world with its history, for inference (notakers_history.c;
 * docs/notakers.rst, "Worlds with a history"): state is a No Takers?
 * state (the caller checks the game), actions[0 .. nsteps) the actions
 * that led to it from the deal of its deck.  out (state_size bytes) gets a
 * state of the game replayed from a deck and along actions whose hidden
 * ones (another seat's Save cards, a give between two other seats) are
 * the world's, consistent with everything player saw; its log names every
 * card.  *log_q gets the log of the probability that this world is drawn
 * (up to the factor of refused draws, the same for every world); at most
 * tries draws.  Only what player saw is read.  CC_OK, CC_E_ARG (a NULL
 * argument, tries < 1, actions that are not the state's game),
 * CC_E_CAPACITY (no world in tries draws, a log that dropped events, or no
 * memory). */
int32_t cc_notakers_sample_history(const void *state, const int32_t *actions, int32_t nsteps,
                                   int32_t player, uint64_t seed, int32_t tries, void *out,
                                   double *log_q);

/* For cc_infer_weight_logged (a cc_infer_allow): 0 if action, another
 * seat's Save card at state (step t of the observer's record), cannot lead
 * to the history sample logs (the record shows the Save done and the card
 * is not among those the sample saves next, or the Save in progress at the
 * end and the card not in the sample's selection); else 1. */
int32_t cc_notakers_history_allow(const void *state, int32_t action, const void *sample,
                                  const float *record, int32_t t, int32_t nsteps, int32_t observer);

extern const cc_game cc_game_notakers;

#endif /* CC_NOTAKERS_H */
