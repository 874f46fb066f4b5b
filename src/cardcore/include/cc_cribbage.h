/*
 * cc_cribbage.h: Cribbage (docs/cribbage.rst): show and play scoring, batch
 * show scoring, the exact show-score distribution, discard analysis and the
 * game table.
 *
 * Rules parameters: an int32 array of CC_CRIBBAGE_NUM_PARAMS values indexed
 * by the CC_CRIBBAGE_P_* constants; cc_game_cribbage.params describes each
 * (its name is the Python CribbageRules field, its range, its default).
 * Every function taking params checks them against that table.
 *
 * A hand is a 52-card bitset of exactly 4 cards; the starter is a dense card
 * id (0..51) not in the hand.
 *
 * A stacked first deal (cc_game.init_deck) takes deck[k], k < h * n (h = 6
 * cards with 2 players, 5 with 3 or 4), to the player (k mod n) + 1 places
 * round the table to the dealer's left, one card at a time from the pone
 * round to the dealer; with 3 players the next card goes to the crib; the
 * card after that is the starter.  Every later deal is shuffled by the
 * state's generator.  The table's order is the seats' order, except with 4
 * players whose partners the cut chose: then seat 0, the first of the other
 * side, seat 0's partner, the second of the other side (docs/cribbage.rst,
 * "Players and seating").
 */
#ifndef CC_CRIBBAGE_H
#define CC_CRIBBAGE_H

#include "cardcore.h"

#define CC_CRIBBAGE_NUM_PARAMS 6
#define CC_CRIBBAGE_P_GAME_TARGET 0     /* 1..CC_CRIBBAGE_MAX_TARGET */
#define CC_CRIBBAGE_P_CRIB_FOUR_FLUSH 1 /* bool: a 4-card flush counts in the crib */
/* a seat < nplayers, or -1: cut for deal (the cut is made either way) */
#define CC_CRIBBAGE_P_FIRST_DEALER 2
#define CC_CRIBBAGE_P_MUGGINS 3         /* bool: players claim their points, muggins */
#define CC_CRIBBAGE_P_OVERCLAIM 4       /* CC_CRIBBAGE_OVERCLAIM_*: an overclaim */
#define CC_CRIBBAGE_P_PARTNERSHIP 5     /* CC_CRIBBAGE_PARTNERS_*: 4 players' partners */
#define CC_CRIBBAGE_OVERCLAIM_CORRECT 0 /* corrected (ACC); a false claim of game penalized */
#define CC_CRIBBAGE_OVERCLAIM_PENALTY 1 /* corrected, the excess pegged by the opponent */
#define CC_CRIBBAGE_PARTNERS_CUT 0      /* the two lowest cutters against the two highest */
#define CC_CRIBBAGE_PARTNERS_SEATS 1    /* seats 0 and 2 against 1 and 3 */
#define CC_CRIBBAGE_MAX_TARGET 121
#define CC_CRIBBAGE_MAX_PLAYERS 4

/* Kinds of scoring items (show, play and game). */
#define CC_CRIBBAGE_FIFTEEN 0
#define CC_CRIBBAGE_PAIR 1
#define CC_CRIBBAGE_RUN 2
#define CC_CRIBBAGE_FLUSH 3
#define CC_CRIBBAGE_NOBS 4
#define CC_CRIBBAGE_THIRTY_ONE 5
#define CC_CRIBBAGE_GO 6
#define CC_CRIBBAGE_HEELS 7

/* Event kinds of the game log, numbered from 0 (cc_game_cribbage.event_kinds
 * and docs/cribbage.rst describe the fields). */
#define CC_CRIBBAGE_EV_CUT 0
#define CC_CRIBBAGE_EV_NEW_DEAL 1
#define CC_CRIBBAGE_EV_DEAL_CARD 2
#define CC_CRIBBAGE_EV_CRIB_DEALT 3
#define CC_CRIBBAGE_EV_DISCARD 4
#define CC_CRIBBAGE_EV_STARTER 5
#define CC_CRIBBAGE_EV_HEELS 6
#define CC_CRIBBAGE_EV_PLAY 7
#define CC_CRIBBAGE_EV_GO 8
#define CC_CRIBBAGE_EV_LAST_CARD 9
#define CC_CRIBBAGE_EV_SHOW_HAND 10
#define CC_CRIBBAGE_EV_CRIB_CARD 11
#define CC_CRIBBAGE_EV_SHOW_CRIB 12
#define CC_CRIBBAGE_EV_SKUNK 13
#define CC_CRIBBAGE_EV_GAME_OVER 14
#define CC_CRIBBAGE_EV_PARTNERS 15
#define CC_CRIBBAGE_EV_CLAIM 16
#define CC_CRIBBAGE_EV_MUGGINS 17
#define CC_CRIBBAGE_EV_NO_MUGGINS 18
#define CC_CRIBBAGE_EV_OVERCLAIM 19
#define CC_CRIBBAGE_EV_PENALTY 20

/* Actions: discard a card to the crib, play a card; with muggins, claim
 * 0..CC_CRIBBAGE_MAX_CLAIM points in the show (0..CC_CRIBBAGE_MAX_PLAY_CLAIM
 * for a play or a go in the play), call muggins, or pass (one fixed action
 * space: the last three ranges are legal only while a muggins claim or call
 * is awaited). */
#define CC_CRIBBAGE_A_DISCARD 0
#define CC_CRIBBAGE_A_PLAY 52
#define CC_CRIBBAGE_A_CLAIM 104
#define CC_CRIBBAGE_MAX_CLAIM 29
#define CC_CRIBBAGE_MAX_PLAY_CLAIM 14 /* the most one card of the play can score */
#define CC_CRIBBAGE_A_MUGGINS 134
#define CC_CRIBBAGE_A_PASS 135
#define CC_CRIBBAGE_NUM_ACTIONS 136

/* Reason codes of illegal actions (verify/apply). */
#define CC_CRIBBAGE_R_INVALID 1      /* not an action id */
#define CC_CRIBBAGE_R_NOT_DISCARD 2  /* a discard outside the discard phase */
#define CC_CRIBBAGE_R_NOT_PLAY 3     /* a play outside the play phase */
#define CC_CRIBBAGE_R_NOT_HELD 4     /* the player does not hold the card */
#define CC_CRIBBAGE_R_OVER_31 5      /* the card would take the count over 31 */
#define CC_CRIBBAGE_R_IN_SHOW 6      /* a discard or a play during the show */
#define CC_CRIBBAGE_R_NOT_CLAIM 7    /* a claim when nothing is being claimed */
#define CC_CRIBBAGE_R_NOT_CALL 8     /* muggins or pass with no claim to call */
#define CC_CRIBBAGE_R_NO_MUGGINS 9   /* a claim, muggins or pass without the muggins rule */
#define CC_CRIBBAGE_R_CLAIM_FIRST 10 /* a play while the points of the play are claimed */
#define CC_CRIBBAGE_R_CLAIM_RANGE 11 /* a claim in the play above CC_CRIBBAGE_MAX_PLAY_CLAIM */

#define CC_CRIBBAGE_MAX_ITEMS 32
#define CC_CRIBBAGE_MAX_PLAY 13
#define CC_CRIBBAGE_HIST_SIZE 32
#define CC_CRIBBAGE_LOG_CAP 2048

typedef struct cc_cribbage_item {
    int32_t kind;
    int32_t points;
    uint64_t cards; /* 52-card bitset of the cards that make the item */
} cc_cribbage_item;

/* The itemized show score of a 4-card hand (is_crib 0) or crib (1) with the
 * starter: writes at most cap items (in the order fifteens, pairs, runs,
 * flush, nobs; within a kind by ascending card set) and returns their
 * number, or CC_E_CARDS / CC_E_ARG / CC_E_PARAMS / CC_E_CAPACITY.
 * params NULL: CC_E_PARAMS; out may be NULL when no item is written (else
 * CC_E_CAPACITY). */
int32_t cc_cribbage_show_items(uint64_t hand, int32_t starter, int32_t is_crib,
                               const int32_t *params, cc_cribbage_item *out, int32_t cap);
/* The total show score, or a negative error code. params NULL: CC_E_PARAMS. */
int32_t cc_cribbage_score_show(uint64_t hand, int32_t starter, int32_t is_crib,
                               const int32_t *params);

/* What the last card of a count (seq[0..n-1], dense ids, total at most 31,
 * distinct cards, 1 <= n <= CC_CRIBBAGE_MAX_PLAY) makes: items in the order
 * fifteen, pair, run, 31.  Returns the number of items or a negative error
 * code.  The go and last-card point is pegged by the game.
 * seq NULL: CC_E_ARG; out may be NULL when no item is written (else
 * CC_E_CAPACITY). */
int32_t cc_cribbage_play_items(const uint8_t *seq, int32_t n, cc_cribbage_item *out, int32_t cap);

/* Batch: out[i] = show score of (hands[i], starters[i]).  CC_OK, or
 * CC_E_CARDS with *bad_index set (not 4 cards, bits outside the deck, a
 * starter id over 51 or inside the hand), or CC_E_PARAMS.
 * params NULL: CC_E_PARAMS; bad_index may be NULL; the arrays may be NULL
 * only for n 0 (else CC_E_ARG). */
int32_t cc_cribbage_batch_score_show(const uint64_t *hands, const uint8_t *starters, int64_t n,
                                     int32_t is_crib, const int32_t *params, int32_t *out,
                                     int64_t *bad_index);

/* hist[k] = number of the 270,725 x 48 (hand, starter) pairs scoring k
 * points as a hand (is_crib 0) or a crib (1); hist has
 * CC_CRIBBAGE_HIST_SIZE entries.
 * params NULL: CC_E_PARAMS; hist NULL: CC_E_ARG. */
int32_t cc_cribbage_show_distribution(int32_t is_crib, const int32_t *params, int64_t *hist);

/* Discard analysis of 6-card hands (two players).  The 15 discards of a hand
 * are the pairs (i, j), i < j, of its cards in ascending card id, in
 * lexicographic order.  For hand i and discard k:
 *   hand_sum[15 i + k] = the sum over the 46 starters not in the hand of the
 *     show score of the four kept cards (divide by 46 for the expectation);
 *   crib[15 i + k] (if crib is not NULL) = the expected show score of a crib
 *     holding the two discards when the other two crib cards and the starter
 *     are a uniform 3-card subset of the 50 cards that are not the discards,
 *     the starter uniform among the three (the "table" model,
 *     docs/cribbage.rst "Discard analysis").
 * CC_OK, CC_E_ARG, CC_E_PARAMS, or CC_E_CARDS with *bad_index set.
 * params NULL: CC_E_PARAMS; bad_index may be NULL; the arrays may be NULL
 * only for n 0 (else CC_E_ARG). */
int32_t cc_cribbage_batch_discards(const uint64_t *hands, int64_t n, const int32_t *params,
                                   int32_t *hand_sum, double *crib, int64_t *bad_index);

/* Exact expected crib of each of the 15 discards of one 6-card hand when
 * the other two crib cards and the starter are a uniform 3-card subset of
 * the 46 cards outside the hand, the starter uniform among the three (the
 * "exact" model: the opponent's two discards uniform among his cards).
 * params NULL: CC_E_PARAMS; out15 (15 entries) NULL: CC_E_ARG. */
int32_t cc_cribbage_crib_exact(uint64_t hand, const int32_t *params, double *out15);

extern const cc_game cc_game_cribbage;

#endif /* CC_CRIBBAGE_H */
