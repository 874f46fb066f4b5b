/*
 * cc_defined.h: games defined from Python (docs/define.rst): one generic
 * rules interpreter of the trick-taking family, run over compiled tables.
 *
 * A definition is an int32 array of CC_DEFINED_TABLE_LEN values indexed by
 * the CC_DEFINED_F_* constants (pycards.define compiles it from a typed
 * description).  cc_defined_register checks it and adds a game table under
 * the given name to a process-wide, append-only registry (at most
 * CC_DEFINED_MAX_GAMES games): cc_game_by_name and cc_game_by_index then
 * find it after the built-in games, and every generic part (bots, search,
 * the vector environment) runs it.  A registered table never changes.
 *
 * Cards are the 52-card ids (suit * 13 + rank, rank 0 = Ace ... 12 = King);
 * a definition's deck is the cards of its ranks in every suit.  Trick
 * strength follows F_RANK_ORDER (the strength of each rank, higher wins).
 *
 * A stacked first deal (cc_game.init_deck) takes a permutation of the 52
 * card ids and uses the definition's cards in that order (cards outside the
 * deck are skipped): the k-th of them (k < n * hand size) goes to seat
 * (dealer + 1 + k) mod n, one card at a time; then, with a turned-up trump
 * (CC_DEFINED_TRUMP_TURNUP), the next card is the turn-up.
 */
#ifndef CC_DEFINED_H
#define CC_DEFINED_H

#include "cardcore.h"

#define CC_DEFINED_MAX_GAMES 256
#define CC_DEFINED_MAX_NAME 32
#define CC_DEFINED_MAX_PLAYERS 7
#define CC_DEFINED_MAX_SCHEDULE 32
#define CC_DEFINED_MAX_PASS_DIRS 8
#define CC_DEFINED_MAX_HAND 17
#define CC_DEFINED_LOG_CAP 512
#define CC_DEFINED_VERSION 1

/* The fields of a definition. */
#define CC_DEFINED_F_VERSION 0     /* CC_DEFINED_VERSION */
#define CC_DEFINED_F_MIN_PLAYERS 1 /* 2..CC_DEFINED_MAX_PLAYERS */
#define CC_DEFINED_F_MAX_PLAYERS 2
#define CC_DEFINED_F_RANKS 3         /* 13-bit mask of the ranks in the deck */
#define CC_DEFINED_F_RANK_ORDER 4    /* 13 values: the strength of each rank, 0..12 */
#define CC_DEFINED_F_SCHEDULE_LEN 17 /* 1..CC_DEFINED_MAX_SCHEDULE */
/* hand size of deal k is SCHEDULE[k mod len]; 0: the deck shared out evenly */
#define CC_DEFINED_F_SCHEDULE 18
#define CC_DEFINED_F_NUM_DEALS 50  /* deals in a game; 0: until the target */
#define CC_DEFINED_F_TARGET 51     /* >0: ends when a score reaches it; <0: falls to it */
#define CC_DEFINED_F_PASS_COUNT 52 /* cards each player passes (0: no passing) */
#define CC_DEFINED_F_PASS_DIRS_LEN 53
#define CC_DEFINED_F_PASS_DIRS 54  /* by deal (cycled): seats to the left; 0: hold */
#define CC_DEFINED_F_BIDDING 62    /* CC_DEFINED_BID_* */
#define CC_DEFINED_F_NIL 63        /* bool: a bid of 0 is nil (scored alone) */
#define CC_DEFINED_F_HOOK 64       /* bool: the dealer's bid may not make the total the tricks */
#define CC_DEFINED_F_TRUMP 65      /* CC_DEFINED_TRUMP_* */
#define CC_DEFINED_F_TRUMP_SUIT 66 /* TRUMP_FIXED: the suit 0..3 */
#define CC_DEFINED_F_MUST_TRUMP 67 /* bool: void in the led suit, trump if able */
#define CC_DEFINED_F_MUST_OVERTRUMP 68  /* bool: trumping, beat the best trump if able */
#define CC_DEFINED_F_LEAD 69            /* CC_DEFINED_LEAD_* */
#define CC_DEFINED_F_LEAD_CARD 70       /* LEAD_CARD: the card whose holder leads it first */
#define CC_DEFINED_F_BREAK_SUIT 71      /* -1, or a suit not led until played (or only held) */
#define CC_DEFINED_F_NO_POINTS_FIRST 72 /* bool: no point card on the first trick if able */
#define CC_DEFINED_F_CARD_POINTS 73     /* 52 values: points of each card to its taker */
#define CC_DEFINED_F_MOON 125           /* bool: all the point cards to one taker reverses them */
#define CC_DEFINED_F_TRICK_POINTS 126   /* points a trick past the book */
#define CC_DEFINED_F_BOOK 127           /* tricks of a side that score nothing */
#define CC_DEFINED_F_PARTNERS 128       /* bool: 4 players, seats p and p + 2 one side */
#define CC_DEFINED_F_CONTRACT 129       /* CC_DEFINED_CONTRACT_* */
#define CC_DEFINED_F_MADE_BONUS 130     /* points for a made contract */
#define CC_DEFINED_F_MADE_PER_BID 131   /* and per trick bid */
#define CC_DEFINED_F_SET_PER_BID 132    /* points per trick bid of a failed contract */
#define CC_DEFINED_F_OVER_PER_TRICK 133 /* points per trick over the bid (made) */
#define CC_DEFINED_F_BAG_LIMIT 134      /* 0, or overtricks that cost BAG_PENALTY */
#define CC_DEFINED_F_BAG_PENALTY 135
#define CC_DEFINED_F_NIL_BONUS 136           /* a nil made scores it, a nil failed loses it */
#define CC_DEFINED_F_TRICK_POINTS_ALWAYS 137 /* bool: trick points whatever the contract */
#define CC_DEFINED_F_FLOOR 138 /* 0, or a score that ends the game when a seat falls to it */
/* what breaks BREAK_SUIT: -1 a card of it played; 0..51 that too, or that card
 * played; CC_DEFINED_BREAK_NEVER: nothing (led only from a hand of nothing else) */
#define CC_DEFINED_F_BREAK_BY 139
#define CC_DEFINED_F_SIDE_LIMIT 140 /* bool: partners' bids total at most the tricks */
#define CC_DEFINED_F_NIL_TRICKS 141 /* bool: a nil bidder's tricks count for the side's contract */
#define CC_DEFINED_TABLE_LEN 142

#define CC_DEFINED_BREAK_NEVER (-2)

#define CC_DEFINED_BID_NONE 0
#define CC_DEFINED_BID_TRICKS 1 /* each player bids 0..hand size tricks, from the dealer's left */

#define CC_DEFINED_TRUMP_NONE 0
#define CC_DEFINED_TRUMP_FIXED 1
#define CC_DEFINED_TRUMP_TURNUP 2 /* the card after the deal, in no hand */
#define CC_DEFINED_TRUMP_DEALER 3 /* the dealer's last card, shown to all */

#define CC_DEFINED_LEAD_LEFT 0 /* the dealer's left leads first */
#define CC_DEFINED_LEAD_CARD 1 /* the holder of LEAD_CARD leads it */

#define CC_DEFINED_CONTRACT_NONE 0
#define CC_DEFINED_CONTRACT_EXACT 1    /* made: exactly the bid (Oh Hell) */
#define CC_DEFINED_CONTRACT_AT_LEAST 2 /* made: the side's bid or more (Spades) */

/* Rules parameters of every defined game. */
#define CC_DEFINED_NUM_PARAMS 1
#define CC_DEFINED_P_FIRST_DEALER 0 /* a seat, or -1: drawn from the seed */

/* Actions: 0..51 a card (played, or passed in the passing phase), then
 * CC_DEFINED_A_BID + b for a bid of b tricks (b = 0 .. the largest hand). */
#define CC_DEFINED_A_BID 52

/* Event kinds. */
#define CC_DEFINED_EV_NEW_DEAL 0
#define CC_DEFINED_EV_DEAL_CARD 1
#define CC_DEFINED_EV_TURNUP 2
#define CC_DEFINED_EV_PASS 3
#define CC_DEFINED_EV_RECEIVE 4
#define CC_DEFINED_EV_BID 5
#define CC_DEFINED_EV_PLAY 6
#define CC_DEFINED_EV_TRICK 7
#define CC_DEFINED_EV_SCORE 8
#define CC_DEFINED_EV_GAME_OVER 9

/* Reason codes of illegal actions. */
#define CC_DEFINED_R_INVALID 1     /* not an action of this phase */
#define CC_DEFINED_R_NOT_HELD 2    /* the card is not in the hand */
#define CC_DEFINED_R_FOLLOW 3      /* must follow suit */
#define CC_DEFINED_R_TRUMP 4       /* must trump */
#define CC_DEFINED_R_OVERTRUMP 5   /* must overtrump */
#define CC_DEFINED_R_BROKEN 6      /* that suit is not broken */
#define CC_DEFINED_R_LEAD_CARD 7   /* the first lead is a given card */
#define CC_DEFINED_R_FIRST_TRICK 8 /* no point card on the first trick */
#define CC_DEFINED_R_HOOK 9        /* the dealer's bid may not make the total */
#define CC_DEFINED_R_SIDE_LIMIT 10 /* the side's bids may not pass the tricks */

/* Check a definition: CC_OK, or CC_E_PARAMS with *bad_field (may be NULL)
 * set to the index of the first field at fault.  CC_E_ARG for a NULL
 * table or len != CC_DEFINED_TABLE_LEN. */
int32_t cc_defined_check(const int32_t *table, int32_t len, int32_t *bad_field);

/* Register a checked definition under name (1..CC_DEFINED_MAX_NAME - 1
 * lowercase ASCII letters, digits or '_', not the name of a game already
 * registered): *index gets its index in cc_game_by_index.  CC_OK;
 * CC_E_PARAMS (with *bad_field) for a bad definition; CC_E_ARG for a NULL
 * argument, a bad or taken name; CC_E_CAPACITY when the registry is full.
 * Safe to call from several threads; readers never wait. */
int32_t cc_defined_register(const char *name, const int32_t *table, int32_t len, int32_t *index,
                            int32_t *bad_field);

/* The number of defined games registered, and the i-th (NULL past the
 * last). */
int32_t cc_defined_count(void);
const cc_game *cc_defined_game(int32_t i);

/* The heuristic bot of every defined game (docs/define.rst). */
int32_t cc_defined_heuristic(const void *state, cc_rng *rng, int32_t *action);

#endif /* CC_DEFINED_H */
