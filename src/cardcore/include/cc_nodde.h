/*
 * cc_nodde.h: Nodde Knave (docs/nodde.rst): hand and play scoring, batch
 * hand scoring, the exact hand-score distribution and the game table.
 *
 * Rules parameters: an int32 array of CC_NODDE_NUM_PARAMS values indexed by
 * the CC_NODDE_P_* constants; the table cc_game_nodde.params describes each
 * (its name is the Python NoddeRules field, its range, its default).  Every
 * function taking params checks them against that table.
 *
 * A hand is a 52-card bitset of exactly 3 cards; the turn-up is a dense
 * card id (0..51) not in the hand.
 *
 * A stacked first deal (cc_game.init_deck) takes deck[k], k < 3n, to seat
 * (dealer + 1 + k) mod n (one card at a time from the elder round to the
 * dealer, three rounds), and deck[3n] is the turn-up.  Without reshuffling,
 * the next deals go on down the same deck (deck[3n + 1] to the new elder,
 * and so on) until fewer than 3n + 1 cards are left; every other deal is
 * shuffled by the state's generator.
 */
#ifndef CC_NODDE_H
#define CC_NODDE_H

#include "cardcore.h"

#define CC_NODDE_NUM_PARAMS 10
#define CC_NODDE_P_FOUR_PLAYER_MODE 0 /* CC_NODDE_PARTNERS, CC_NODDE_INDIVIDUAL */
#define CC_NODDE_P_RESHUFFLE 1        /* bool; 0 only with 2 players */
#define CC_NODDE_P_KNAVE_SCORER 2     /* CC_NODDE_KNAVE_DEALER, CC_NODDE_KNAVE_ELDER */
#define CC_NODDE_P_RUN_POINTS 3       /* CC_NODDE_RUN_* */
#define CC_NODDE_P_FLUSH_RULE 4       /* CC_NODDE_FLUSH_* */
#define CC_NODDE_P_HAND_31 5          /* CC_NODDE_HAND31_* */
#define CC_NODDE_P_SCORE_25 6         /* CC_NODDE_SCORE25_* */
#define CC_NODDE_P_FLUSH_IN_PLAY 7    /* bool */
#define CC_NODDE_P_GAME_TARGET 8      /* 1..CC_NODDE_MAX_TARGET */
/* a seat < nplayers, or -1: drawn (the draw is made either way, so fixing the
 * dealer leaves every shuffle as it was) */
#define CC_NODDE_P_FIRST_DEALER 9
#define CC_NODDE_MAX_TARGET 121
#define CC_NODDE_MAX_PLAYERS 4

/* Values of the choice parameters. */
#define CC_NODDE_PARTNERS 0
#define CC_NODDE_INDIVIDUAL 1
#define CC_NODDE_KNAVE_DEALER 0
#define CC_NODDE_KNAVE_ELDER 1
#define CC_NODDE_RUN_MWYNWEN 0  /* run of n = 2(n-2) */
#define CC_NODDE_RUN_PER_CARD 1 /* run of n = n */
#define CC_NODDE_FLUSH_ANY3_OF_4 0
#define CC_NODDE_FLUSH_HAND3_REQUIRED 1
#define CC_NODDE_HAND31_OFF 0
#define CC_NODDE_HAND31_FLAT2 1
#define CC_NODDE_HAND31_FLAT4 2
#define CC_NODDE_SCORE25_OFF 0
#define CC_NODDE_SCORE25_FLAT4 1
#define CC_NODDE_SCORE25_PER_CARD 2

/* Kinds of scoring items (hand, play and game). */
#define CC_NODDE_FIFTEEN 0
#define CC_NODDE_PAIR 1
#define CC_NODDE_RUN 2
#define CC_NODDE_FLUSH 3
#define CC_NODDE_KNAVE_NODDY 4
#define CC_NODDE_THIRTY_ONE 5
#define CC_NODDE_TWENTY_FIVE 6
#define CC_NODDE_LAST_CARD 7
#define CC_NODDE_TURNED_KNAVE 8

/* Event kinds of the game log, numbered from 0 (cc_game_nodde.event_kinds
 * and docs/nodde.rst describe the fields). */
#define CC_NODDE_EV_NEW_DEAL 0
#define CC_NODDE_EV_DEAL_CARD 1
#define CC_NODDE_EV_TURNUP 2
#define CC_NODDE_EV_TURNED_KNAVE 3
#define CC_NODDE_EV_HAND_SCORE 4
#define CC_NODDE_EV_PLAY 5
#define CC_NODDE_EV_GO 6
#define CC_NODDE_EV_LAST_CARD 7
#define CC_NODDE_EV_GAME_OVER 8

/* Reason codes of illegal actions (verify/apply). */
#define CC_NODDE_R_INVALID 1  /* not a card id 0..51 */
#define CC_NODDE_R_NOT_HELD 2 /* the player does not hold the card */
#define CC_NODDE_R_OVER_31 3  /* the card would take the total over 31 */

#define CC_NODDE_MAX_ITEMS 32
#define CC_NODDE_MAX_PLAY 12
#define CC_NODDE_HIST_SIZE 128
#define CC_NODDE_LOG_CAP 1024
/* Deals from one shuffle (2 players without reshuffling: 52 / 7). */
#define CC_NODDE_MAX_DEALS 7

typedef struct cc_nodde_item {
    int32_t kind;
    int32_t points;
    uint64_t cards; /* 52-card bitset of the cards that make the item */
} cc_nodde_item;

/* The itemized hand score: writes at most cap items (in the order
 * fifteens, pairs, runs, flush, knave noddy, 31, 25; within a kind by
 * ascending card set) and returns their number, or CC_E_CARDS / CC_E_ARG /
 * CC_E_PARAMS / CC_E_CAPACITY.
 * params NULL: CC_E_PARAMS; out may be NULL when no item is written (else
 * CC_E_CAPACITY). */
int32_t cc_nodde_hand_items(uint64_t hand, int32_t turnup, const int32_t *params,
                            cc_nodde_item *out, int32_t cap);
/* The total hand score, or a negative error code. params NULL: CC_E_PARAMS. */
int32_t cc_nodde_score_hand(uint64_t hand, int32_t turnup, const int32_t *params);

/* What the last card of a play sequence (seq[0..n-1], dense ids, total at
 * most 31, distinct cards, 1 <= n <= CC_NODDE_MAX_PLAY) makes: items in the
 * order fifteen, pair, run, flush, 31, 25.  Returns the number of items or
 * a negative error code.  The last-card point is scored by the game.
 * params NULL: CC_E_PARAMS; seq NULL: CC_E_ARG; out may be NULL when no
 * item is written (else CC_E_CAPACITY). */
int32_t cc_nodde_play_items(const uint8_t *seq, int32_t n, const int32_t *params,
                            cc_nodde_item *out, int32_t cap);

/* Batch: out[i] = hand score of (hands[i], turnups[i]).  CC_OK, or
 * CC_E_CARDS with *bad_index set (not 3 cards, bits outside the deck, a
 * turn-up id over 51 or inside the hand), or CC_E_PARAMS.
 * params NULL: CC_E_PARAMS; bad_index may be NULL; the arrays may be NULL
 * only for n 0 (else CC_E_ARG). */
int32_t cc_nodde_batch_score_hand(const uint64_t *hands, const uint8_t *turnups, int64_t n,
                                  const int32_t *params, int32_t *out, int64_t *bad_index);

/* hist[k] = number of the 22,100 x 49 (hand, turn-up) deals scoring k
 * points; hist has CC_NODDE_HIST_SIZE entries.
 * params NULL: CC_E_PARAMS; hist NULL: CC_E_ARG. */
int32_t cc_nodde_hand_distribution(const int32_t *params, int64_t *hist);

/* The game's heuristic (nodde_bot.c; docs/nodde.rst, "The heuristic bot"):
 * cc_game_nodde.heuristic.
 * As cc_game.heuristic: CC_E_ARG for a NULL argument. */
int32_t cc_nodde_heuristic(const void *state, cc_rng *rng, int32_t *action);

extern const cc_game cc_game_nodde;

#endif /* CC_NODDE_H */
