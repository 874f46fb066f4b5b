/* cribbage_internal.h: the cribbage state and the helpers shared by the
 * game's files: cribbage_game.c (rules and state), cribbage_score.c (the
 * show and play scoring, the rank table, the discard analysis),
 * cribbage_observe.c (the observation tensor), cribbage_sample.c (the
 * information-set sampler) and cribbage_bot.c (the heuristic).  Private:
 * the public API is cc_cribbage.h; the rules are in docs/cribbage.rst. */
#ifndef CRIBBAGE_INTERNAL_H
#define CRIBBAGE_INTERNAL_H

#include "cc_cribbage.h"
#include "cc_internal.h"
#include "play_internal.h"
#include "score_internal.h"

#define NUM_CARDS 52
#define JACK 10
#define TERMINAL CC_PLAYER_TERMINAL
#define NP CC_CRIBBAGE_NUM_PARAMS

/* ---- rules and scoring (the family's scorers, score_internal.h) --------- */

/* CC_OK for a valid rules array, else CC_E_PARAMS. */
static inline int32_t check_rules(const int32_t *params) {
    return cc_game_check_params(&cc_game_cribbage, params, 0, NULL) == CC_OK ? CC_OK : CC_E_PARAMS;
}

/* docs/cribbage.rst, "The show": a hand's flush is its four cards (4) or
 * the five with the starter (5); a crib's only the five, unless the rules
 * count four. */
static inline cc_show_rules show_rules(int32_t is_crib, int32_t crib_four) {
    cc_show_rules r = {.hand_size = 4,
                       .run_points = CC_RUN_PER_CARD,
                       .flush_any = 0,
                       .flush_min = is_crib && !crib_four ? 5 : 4,
                       .all_31 = 0,
                       .score_25 = CC_25_OFF};
    return r;
}

/* docs/cribbage.rst, "The play": fifteen, pairs, runs and 31. */
static const cc_play_rules play_rules = {
    .run_points = CC_RUN_PER_CARD, .flush = 0, .score_25 = CC_25_OFF};

/* The show points of a valid 4-card hand (or crib) with the starter. */
static inline int32_t show_points(uint64_t hand, int32_t starter, int32_t is_crib,
                                  int32_t crib_four) {
    cc_show_rules r = show_rules(is_crib, crib_four);
    return cc_show_points(hand, starter, &r);
}

/* The flush and nobs part of show_points (the rest depends on the ranks). */
static inline int32_t suit_points(uint64_t hand, int32_t starter, int32_t is_crib,
                                  int32_t crib_four) {
    cc_show_rules r = show_rules(is_crib, crib_four);
    return cc_show_suit_points(hand, starter, &r);
}

/* ---- the state ----------------------------------------------------------- */

#define PHASE_DISCARD 0
#define PHASE_PLAY 1
#define PHASE_SHOW 2 /* muggins: the owners claim their show */

typedef struct cribbage_state {
    int32_t params[NP];
    int32_t n, partners, target, hand_size, discards;
    cc_rng rng;
    uint8_t deck[NUM_CARDS]; /* deck[0 .. 51 - top] is the stock, dealt from the end */
    int32_t top, stacked;
    int32_t dealer, deal_no, phase;
    uint64_t dealt[CC_CRIBBAGE_MAX_PLAYERS]; /* the cards dealt this deal */
    uint64_t hand[CC_CRIBBAGE_MAX_PLAYERS];  /* held: not discarded, not played */
    uint64_t disc[CC_CRIBBAGE_MAX_PLAYERS];  /* discarded to the crib */
    int32_t crib_dealt;                      /* the card dealt to the crib (3 players), or -1 */
    int32_t starter;                         /* -1 until cut */
    uint8_t play[16];                        /* the cards played this deal, in order */
    int32_t nplay, count_start, total, last_player;
    uint32_t gone;
    int32_t go_room[CC_CRIBBAGE_MAX_PLAYERS]; /* the largest room at which he said go, -1 */
    int32_t to_act;
    int32_t score[CC_CRIBBAGE_MAX_PLAYERS]; /* per side */
    int32_t skunk[CC_CRIBBAGE_MAX_PLAYERS]; /* per seat at the end: 0, 1 skunk, 2 double */
    int32_t winner;                         /* side, or -1 */
    int32_t num_actions;
    /* Positions round the table (the internal numbering: every field above
     * is by position) and seats (the players' numbers outside) */
    int32_t seat_of[CC_CRIBBAGE_MAX_PLAYERS], pos_of[CC_CRIBBAGE_MAX_PLAYERS];
    /* muggins: the show item counted (1..n hands from the dealer's left,
     * n + 1 the crib, 0 none), its claim while a call is pending (-1) */
    int32_t show_k, claim, calling, crib_shown;
    /* muggins in the play: the points claimed (0 none, CLAIM_PLAY a card's,
     * CLAIM_GO a go or last card) and their true value */
    int32_t pclaim, ptruth;
    CC_LOG_MEMBERS(CC_CRIBBAGE_LOG_CAP);
} cribbage_state;

CC_LOG_LAYOUT(cribbage_state);

#define CLAIM_PLAY 1
#define CLAIM_GO 2

static inline int32_t valid_players(int32_t nplayers) {
    return nplayers >= 2 && nplayers <= CC_CRIBBAGE_MAX_PLAYERS;
}

static inline int32_t side_of(const cribbage_state *s, int32_t seat) {
    return s->partners ? (seat & 1) : seat;
}

/* The crib: the discards and the card dealt to it. */
static inline uint64_t crib_of(const cribbage_state *s) {
    uint64_t crib = 0;
    for (int32_t q = 0; q < s->n; q++) crib |= s->disc[q];
    if (s->crib_dealt >= 0) crib |= cc_bit_of(s->crib_dealt);
    return crib;
}

/* The cards of the seat to act that it may play (or discard). */
static inline uint64_t legal_bits(const cribbage_state *s) {
    if (s->phase == PHASE_DISCARD) return s->hand[s->to_act];
    return cc_play_legal(s->hand[s->to_act], s->total);
}

/* The table's functions defined outside cribbage_game.c
 * (docs/internals.rst, "Naming"). */
int32_t cc_cribbage_tensor_size(const int32_t *params, int32_t nplayers);
int32_t cc_cribbage_segments(const int32_t *params, int32_t nplayers, cc_segment *out, int32_t cap);
int32_t cc_cribbage_observe_tensor(const void *state, int32_t player, float *out);
int32_t cc_cribbage_sample_infoset(const void *state, int32_t player, uint64_t seed, void *out);
int32_t cc_cribbage_heuristic(const void *state, cc_rng *rng, int32_t *action);
/* The exact solver of the play (cribbage_solve.c). */
int32_t cc_cribbage_solve_depth(const void *state);
int32_t cc_cribbage_solve(const void *state, const double *win_table, int32_t win_target,
                          int64_t max_nodes, const volatile int32_t *stop, double *values,
                          int64_t *nodes);

/* The true points of what is being claimed (muggins; cribbage_game.c). */
int32_t cc_cribbage_claim_truth(const cribbage_state *s);

#endif /* CRIBBAGE_INTERNAL_H */
