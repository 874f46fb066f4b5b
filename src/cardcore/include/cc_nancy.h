/*
 * cc_nancy.h: the Game of Nancy (78-card tarot, 2 to 6 players).
 *
 * The page docs/nancy.rst gives the rules with every variant, the action
 * encoding, the event kinds and the observation layout; the game table
 * (cc_game_nancy) describes its parameters, event kinds, action ranges and
 * observation segments itself.
 * Cards use the Nancy encoding of cardcore.h (dense ids 0..77; a card set is
 * two uint64 words, lo = suit cards at bit s * 16 + r, hi = trump n at bit n,
 * the Outsider at hi bit 0).
 *
 * Allocation: only sample_infoset allocates (its count tables, above 8192
 * entries), and sample_draw for a table too large for the prepared scratch
 * (above 65536 entries); on failure they return CC_E_CAPACITY with the
 * output untouched.
 * init, legal_actions, verify, apply and the observations never allocate.
 */
#ifndef CC_NANCY_H
#define CC_NANCY_H

#include "cardcore.h"

/* ---- rules parameters (index in the int32 params array; described by the
 * table's params[]) ---------------------------------------------------- */
#define CC_NANCY_P_FACE_UP_COUNT 0                 /* 0..12, default 6 (3-6 players) */
#define CC_NANCY_P_HOUND_POSITION_RULE 1           /* 0 ignore, 1 enforce */
#define CC_NANCY_P_BIDDING_STYLE 2                 /* 0 single_round, 1 open_auction */
#define CC_NANCY_P_MIN_BID 3                       /* 1..9 */
#define CC_NANCY_P_ALL_PASS 4                      /* 0 redeal, 1 dealer_forced */
#define CC_NANCY_P_SELF_CALL_ALLOWED 5             /* 0 / 1 */
#define CC_NANCY_P_REVEAL_HOUND 6                  /* 0 / 1 */
#define CC_NANCY_P_OVERTRUMP_ON_TRUMP_LEAD 7       /* 0 / 1 */
#define CC_NANCY_P_PARTNER_TRICKS_TO 8             /* 0 opponents, 1 nancy */
#define CC_NANCY_P_OUTSIDER_EXCHANGE_MODE 9        /* 0 random, 1 owner_choice */
#define CC_NANCY_P_EXCHANGE_FROM_DISCARD 10        /* 0 / 1 */
#define CC_NANCY_P_DEFERRED_EXCHANGE_PICK 11       /* 0 winner_choice, 1 random, 2 owner_choice */
#define CC_NANCY_P_OUTSIDER_LAST_TRICK 12          /* 0 decides_round, 1 changes_side */
#define CC_NANCY_P_ARCANE_SUM_MODE 13              /* 0 exact_total, 1 subset_sum, 2 at_least */
#define CC_NANCY_P_FAT_NANCY_OUTSIDER_EXCEPTION 14 /* 0 none, 1 slam */
#define CC_NANCY_P_MATCH_ROUNDS 15                 /* 0 = one deal per player, else 1..1000 */
/* -1: the first dealer is the generator's first draw, below(nplayers); a
 * seat 0..nplayers-1 fixes him.  The draw is made either way, so fixing the
 * seat the seed draws leaves the game exactly as it was. */
#define CC_NANCY_P_FIRST_DEALER 16
#define CC_NANCY_NUM_PARAMS 17

/* ---- actions ------------------------------------------------------------ */
#define CC_NANCY_A_PASS 0
#define CC_NANCY_A_BID 1      /* + bid - 1: bid 1..9 */
#define CC_NANCY_A_CALL 10    /* + card id: name the Partner's card */
#define CC_NANCY_A_DISCARD 88 /* + card id: discard one card to the Nancy */
#define CC_NANCY_A_PLAY 166   /* + card id: play a card to the trick */
#define CC_NANCY_A_PICK 244   /* + card id: choose the Outsider exchange card */
#define CC_NANCY_NUM_ACTIONS 322

/* ---- phases ------------------------------------------------------------- */
#define CC_NANCY_PH_BID 0
#define CC_NANCY_PH_CALL 1
#define CC_NANCY_PH_DISCARD 2
#define CC_NANCY_PH_PLAY 3
#define CC_NANCY_PH_PICK 4
#define CC_NANCY_PH_OVER 5
#define CC_NANCY_NUM_PHASES 6

/* ---- event kinds (cc_event.kind) ---------------------------------------- */
#define CC_NANCY_EV_DEALER 0  /* player dealer, value rounds done, extra thrown-in deals */
#define CC_NANCY_EV_DEAL 1    /* player owner (-1 Hound), target place, value card */
#define CC_NANCY_EV_BID 2     /* player, value bid (0 = pass) */
#define CC_NANCY_EV_TAKER 3   /* player taker, value bid */
#define CC_NANCY_EV_CALL 4    /* player taker, value called card */
#define CC_NANCY_EV_HOUND 5   /* player taker, value card, extra 1 if shown to all */
#define CC_NANCY_EV_DISCARD 6 /* player taker, value card, extra 1 shown trump | 2 face-up */
#define CC_NANCY_EV_PLAY 7    /* player, value card, extra trick index */
#define CC_NANCY_EV_PARTNER 8 /* player who holds/played the called card, extra 1 partner */
#define CC_NANCY_EV_FLIP 9    /* player, value card turned up, extra pile (2 players) */
#define CC_NANCY_EV_TRICK 10  /* player winner, value trick index, extra pile (0 Nancy) */
#define CC_NANCY_EV_DEBT 11   /* player Outsider's owner, target trick winner, value 0 */
/* EV_EXCHANGE: player chooser (-1 random), target receiving pile (0 Nancy),
 * value card, extra 1 if a deferred payment.  EV_RESULT: player taker, target
 * objectives completed, value objectives mask, extra won | rule13 << 1. */
#define CC_NANCY_EV_EXCHANGE 12
#define CC_NANCY_EV_RESULT 13
#define CC_NANCY_EV_SCORE 14     /* player, value delta, extra cumulative score */
#define CC_NANCY_EV_GAME_OVER 15 /* the last event of a finished match */
#define CC_NANCY_NUM_EVENT_KINDS 16

/* deal places (EV_DEAL target) */
#define CC_NANCY_PLACE_HAND 0
#define CC_NANCY_PLACE_FACE_UP 1
#define CC_NANCY_PLACE_TABLE_DOWN 2
#define CC_NANCY_PLACE_HOUND 3

/* objective bits (bit k-1 for objective k; docs/nancy.rst, "Objectives and score") */
#define CC_NANCY_OBJ_HEIRS_BODYGUARD 1
#define CC_NANCY_OBJ_EMPIRE_RATS 2
#define CC_NANCY_OBJ_EMPIRE_SWORDS 4
#define CC_NANCY_OBJ_EMPIRE_SKULLS 8
#define CC_NANCY_OBJ_EMPIRE_PISTOLS 16
#define CC_NANCY_OBJ_ROYAL_EXECUTIONER 32
#define CC_NANCY_OBJ_MASTER_OF_THE_ARCANE 64
#define CC_NANCY_OBJ_FAT_NANCY 128
#define CC_NANCY_OBJ_CHOSEN_BY_THE_OUTSIDER 256

extern const cc_game cc_game_nancy;

/* The game's heuristic (nancy_bot.c; docs/nancy.rst, "The heuristic bot"):
 * cc_game_nancy.heuristic.
 * As cc_game.heuristic: CC_E_ARG for a NULL argument. */
int32_t cc_nancy_heuristic(const void *state, cc_rng *rng, int32_t *action);

/* ---- scalar rule functions --------------------------------------------- */
/* Legal cards from holding (lo, hi) for a trick of k cards (ids, in play
 * order, k <= 5).  overtrump: overtrump_on_trump_lead (0 or 1).  CC_OK, CC_E_CARDS
 * or CC_E_ARG.
 * trick may be NULL only for k 0; out_lo, out_hi required (NULL:
 * CC_E_ARG). */
int32_t cc_nancy_legal_cards(uint64_t lo, uint64_t hi, const int8_t *trick, int32_t k,
                             int32_t overtrump, uint64_t *out_lo, uint64_t *out_hi);
/* Position (0..k-1) of the winning card of a trick, -1 if it holds no card
 * but the Outsider; CC_E_ARG (< -1) on a bad card. trick NULL: CC_E_ARG. */
int32_t cc_nancy_trick_winner(const int8_t *trick, int32_t k);
/* Objectives 1..7 met by a Nancy (bits as CC_NANCY_OBJ_*); arcane_mode is
 * CC_NANCY_P_ARCANE_SUM_MODE's value.  Negative on bad input. */
int32_t cc_nancy_objectives(uint64_t lo, uint64_t hi, int32_t arcane_mode);
/* base = 2c - 3 max(0, bid - c) + (won ? 5 : -5) - (c == 0 ? 10 : 0). */
int32_t cc_nancy_base_score(int32_t bid, int32_t completed, int32_t won);
/* Points per player of one round (out has nplayers entries); partner -1
 * (or == taker) when the Taker plays alone. out NULL: CC_E_ARG. */
int32_t cc_nancy_settlement(int32_t nplayers, int32_t taker, int32_t partner, int32_t bid,
                            int32_t completed, int32_t won, int32_t *out);
/* The schedule of a first deal from a stacked deck (docs/nancy.rst, "A
 * stacked first deal"; init_deck deals by it): out[i] (78 entries) is the
 * seat that receives the deck's i-th card, top first, or -1 for the Hound,
 * when `dealer` deals to nplayers under these rules (hound_position_rule
 * "enforce": the Hound's cards at their fixed places between the packets).
 * CC_E_PLAYERS, CC_E_PARAMS, or CC_E_ARG for a dealer who is not a seat or
 * a NULL out. */
int32_t cc_nancy_deal_schedule(const int32_t *params, int32_t nplayers, int32_t dealer,
                               int8_t *out);

/* ---- batch kernels ------------------------------------------------------
 * holdings: n rows of (lo, hi); tricks: n rows of k int8 card ids, -1
 * padded at the end, distinct (a repeated id is refused, as by the scalar
 * functions); overtrump is 0 or 1.  Return CC_OK, or CC_E_CARDS / CC_E_ARG with
 * *bad_index set to the first bad row.
 * bad_index may be NULL; the arrays may be NULL only for n 0 (else
 * CC_E_ARG). */
int32_t cc_nancy_batch_legal_cards(const uint64_t *holdings, const int8_t *tricks, int64_t n,
                                   int32_t k, int32_t overtrump, uint64_t *out, int64_t *bad_index);
int32_t cc_nancy_batch_trick_winner(const int8_t *tricks, int64_t n, int32_t k, int8_t *out,
                                    int64_t *bad_index);
int32_t cc_nancy_batch_objectives(const uint64_t *nancies, int64_t n, int32_t arcane_mode,
                                  uint16_t *out, int64_t *bad_index);

#endif /* CC_NANCY_H */
