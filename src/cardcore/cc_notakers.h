/*
 * cc_notakers.h: No Takers? (RULES.md section 3): the exact best-split
 * scorer and the game table cc_game_notakers.
 *
 * Sets (RULES.md 3.3):
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

#define CC_NT_ACE_LOW 0
#define CC_NT_ACE_HIGH 1
#define CC_NT_ACE_BOTH 2
#define CC_NT_TIEBREAK_ACE_HIGH 0
#define CC_NT_TIEBREAK_ACE_LOW 1

#define CC_NT_SET_PAIR 1
#define CC_NT_SET_TRIPS 2
#define CC_NT_SET_RUN 3
#define CC_NT_SET_FOUR 4

#define CC_NT_MAX_SETS 26

/* One set of a split.  cards: bitset; suit: the engine suit id (0..3) of
 * its strongest card by the tie-break order. */
typedef struct cc_nt_set {
    uint64_t cards;
    int32_t kind;
    int32_t points;
    int32_t position;
    int32_t top;
    int32_t suit;
    int32_t descriptor;
} cc_nt_set;

/* A best split: sets sorted best first (that order is the key). */
typedef struct cc_nt_split {
    int32_t points;
    int32_t nsets;
    cc_nt_set sets[26]; /* CC_NT_MAX_SETS */
} cc_nt_split;

/* Maximum points of a split of cards (any subset of the deck): >= 0, or
 * CC_E_CARDS / CC_E_ARG. */
int32_t cc_notakers_points(uint64_t cards, int32_t ace_in_runs);
/* 1 if cards split into sets with no card left over (the empty set does),
 * 0 if not, or CC_E_CARDS / CC_E_ARG. */
int32_t cc_notakers_splits_exactly(uint64_t cards, int32_t ace_in_runs);
/* The best split (maximum points, then the best key): CC_OK or an error. */
int32_t cc_notakers_best_split(uint64_t cards, int32_t ace_in_runs,
                               int32_t tiebreak_ace, cc_nt_split *out);
/* Compare two splits by (points, key): > 0 if a is better, < 0 if b, 0 if
 * equal. */
int32_t cc_notakers_compare(const cc_nt_split *a, const cc_nt_split *b);
/* Batch: out[i] = cc_notakers_points(cards[i]); CC_OK, or CC_E_CARDS with
 * *bad_index set, or CC_E_ARG. */
int32_t cc_batch_notakers_points(const uint64_t *cards, int64_t n,
                                 int32_t ace_in_runs, int32_t *out,
                                 int64_t *bad_index);

/* ---- the game ------------------------------------------------------------
 * Rules parameters (int32, in this order):
 *   0 save_requires_set  0 false, 1 true
 *   1 save_visibility    0 hidden, 1 open
 *   2 pass_fallback      0 each_one, 1 each_at_least_one, 2 first_holder_only
 *   3 short_draw         0 take_rest_then_end, 1 end_without_drawing
 *   4 max_turns          0 none, else 1..1000000
 *   5 ace_in_runs        0 low, 1 high, 2 both
 *   6 tiebreak_ace       0 high, 1 low
 * Actions (num_actions = 108 + 69 * (nplayers - 1)):
 *   0            draw
 *   1            end the save (at least 3 cards chosen)
 *   2            cancel the save (back to the turn's choice)
 *   3            stop giving (at least the minimum given)
 *   4 + c        save card c (c = dense card id; the first one starts a Save)
 *   56 + c       give card c (asked, pass-fallback or No Takers give)
 *   108 + 69 * (k - 1) + d   ask the player k seats on (1..n-1) for d:
 *                d 0..12 a rank, 13..16 a suit (C D H S), 17 + c a card.
 */
#define CC_NT_NUM_PARAMS 7
#define CC_NT_A_DRAW 0
#define CC_NT_A_SAVE_DONE 1
#define CC_NT_A_SAVE_CANCEL 2
#define CC_NT_A_GIVE_DONE 3
#define CC_NT_A_SAVE 4
#define CC_NT_A_GIVE 56
#define CC_NT_A_ASK 108
#define CC_NT_NUM_DESCRIPTORS 69

/* Phases (observation tensor, docs). */
#define CC_NT_PHASE_TURN 0
#define CC_NT_PHASE_SAVE 1
#define CC_NT_PHASE_GIVE 2
#define CC_NT_PHASE_FALLBACK 3
#define CC_NT_PHASE_NO_TAKERS 4
#define CC_NT_PHASE_OVER 5
#define CC_NT_NUM_PHASES 6

/* Event kinds (player, target, value, extra; see docs/notakers.rst):
 *   DEAL      player got value (a card); seen by player
 *   DRAW      player drew value; extra 1 = a forced draw; seen by player
 *   SAVE      player saved value; seen by player, or all if saves are open
 *   ASK       player asked target for value (a descriptor); public
 *   PASS      player (the asked) passed; target = the asker; public
 *   GIVE      player gave value to target; extra 0 asked, 1 pass fallback,
 *             2 No Takers; seen by player and target
 *   NO_TAKERS player (the asker) found no takers; public
 *   END       the game is over; value 0 draw pile empty, 1 max_turns,
 *             2 event-log capacity; public
 *   SCORE     player scored value; extra 1 = a winner; public            */
#define CC_NT_EV_DEAL 1
#define CC_NT_EV_DRAW 2
#define CC_NT_EV_SAVE 3
#define CC_NT_EV_ASK 4
#define CC_NT_EV_PASS 5
#define CC_NT_EV_GIVE 6
#define CC_NT_EV_NO_TAKERS 7
#define CC_NT_EV_END 8
#define CC_NT_EV_SCORE 9

/* The event log holds CC_NT_MAX_EVENTS events; a new turn starts only if
 * CC_NT_TURN_EVENTS more fit, else the game ends (END value 2). */
#define CC_NT_MAX_EVENTS 16384
#define CC_NT_TURN_EVENTS 96

/* What player knows of the other seats' cards (docs/notakers.rst,
 * "Information-set sampling"), for a No Takers? state (a cc_game_notakers
 * state: the caller checks the game): out[q] cards known in seat q's hand,
 * out[8 + q] cards known in q's hand or save pile, out[16 + q] cards known
 * not in q's hand, for q < nplayers (0 beyond, and for q == player).
 * out has 24 words.  CC_OK or CC_E_ARG. */
int32_t cc_notakers_knowledge(const void *state, int32_t player, uint64_t *out);

extern const cc_game cc_game_notakers;

#endif /* CC_NOTAKERS_H */
