/* nodde_internal.h: the Nodde Knave state and scoring helpers, shared by
 * nodde_game.c (the game), nodde_sample.c (the sampler) and nodde_bot.c
 * (the heuristic).  Private: the public API is cc_nodde.h; the
 * rules are in docs/nodde.rst. */
#ifndef NODDE_INTERNAL_H
#define NODDE_INTERNAL_H

#include "cc_internal.h"
#include "cc_nodde.h"
#include "play_internal.h"
#include "score_internal.h"

#define NUM_CARDS 52
#define JACK 10
#define TERMINAL CC_PLAYER_TERMINAL

/* An earlier deal from the current shuffle (only without reshuffling): what
 * the sampler needs of it, since its unplayed cards stay hidden and are not
 * in the stock. */
typedef struct nodde_past {
    uint64_t dealt[CC_NODDE_MAX_PLAYERS]; /* the three cards dealt */
    uint64_t left[CC_NODDE_MAX_PLAYERS];  /* those never played (dead) */
    int32_t announced[CC_NODDE_MAX_PLAYERS];
    int32_t go_total[CC_NODDE_MAX_PLAYERS];
    int32_t turnup;
    int32_t reserved;
    int64_t log_start; /* log index of its new_deal event */
} nodde_past;

typedef struct nodde_state {
    int32_t params[CC_NODDE_NUM_PARAMS];
    int32_t n, nsides, partners, target;
    cc_rng rng;
    uint8_t deck[CC_NUM_CARDS52];        /* deck[0 .. 51 - top] is the stock, dealt from the end */
    int32_t top;                         /* cards dealt since the last shuffle */
    int32_t stacked;                     /* 1: the stock is in a given order; 0: shuffled lazily */
    uint64_t seen[CC_NODDE_MAX_PLAYERS]; /* cards each player has seen since the shuffle */
    int32_t dealer, deal_no;
    uint64_t hand[CC_NODDE_MAX_PLAYERS];  /* unplayed cards */
    uint64_t dealt[CC_NODDE_MAX_PLAYERS]; /* the three cards dealt */
    int32_t turnup;
    uint8_t seq[CC_NODDE_MAX_PLAY];
    int32_t nseq, total, last_player;
    uint32_t gone;
    int32_t announced[CC_NODDE_MAX_PLAYERS]; /* hand score called this deal, -1 if not */
    int32_t go_total[CC_NODDE_MAX_PLAYERS];  /* running total when he said go, -1 */
    int32_t to_act;
    int32_t score[CC_NODDE_MAX_PLAYERS]; /* per side */
    int32_t winner;                      /* side, or -1 */
    int32_t npast;                       /* earlier deals from this shuffle */
    int64_t deal_log_start;              /* log index of this deal's new_deal event */
    nodde_past past[CC_NODDE_MAX_DEALS];
    CC_LOG_MEMBERS(CC_NODDE_LOG_CAP);
} nodde_state;

CC_LOG_LAYOUT(nodde_state);

/* The side of a seat: with partners, seats q and q + 2 are one side. */
static inline int32_t side_of(const nodde_state *s, int32_t seat) {
    return s->partners ? (seat & 1) : seat;
}

/* The family scorer's show rules of a valid rules array (score_internal.h). */
static inline cc_show_rules show_rules(const int32_t *p) {
    static const int32_t flat[3] = {0, 2, 4}; /* hand_31: off, flat2, flat4 */
    cc_show_rules r = {
        .hand_size = 3,
        .run_points =
            p[CC_NODDE_P_RUN_POINTS] == CC_NODDE_RUN_MWYNWEN ? CC_RUN_MWYNWEN : CC_RUN_PER_CARD,
        .flush_any = p[CC_NODDE_P_FLUSH_RULE] == CC_NODDE_FLUSH_ANY3_OF_4,
        .flush_min = 3,
        .all_31 = flat[p[CC_NODDE_P_HAND_31]],
        .score_25 = p[CC_NODDE_P_SCORE_25] == CC_NODDE_SCORE25_FLAT4      ? CC_25_FLAT4
                    : p[CC_NODDE_P_SCORE_25] == CC_NODDE_SCORE25_PER_CARD ? CC_25_PER_CARD
                                                                          : CC_25_OFF,
    };
    return r;
}

/* The play rules of a valid rules array. */
static inline cc_play_rules play_rules(const int32_t *p) {
    cc_show_rules sr = show_rules(p);
    cc_play_rules r = {.run_points = sr.run_points,
                       .flush = p[CC_NODDE_P_FLUSH_IN_PLAY] != 0,
                       .score_25 = sr.score_25};
    return r;
}

/* The points of a valid 3-card hand with the turn-up. */
static inline int32_t hand_points(uint64_t hand, int32_t turnup, const int32_t *p) {
    cc_show_rules r = show_rules(p);
    return cc_show_points(hand, turnup, &r);
}

/* Points of the rank kinds (rank_kinds 1: fifteens, pairs, runs, 31, 25,
 * which depend on the four ranks alone) or of the suit kinds (0: flush,
 * knave noddy) of the hand c[0..2] with the turn-up c[3]. */
static inline int32_t kind_points(const int32_t *c, const int32_t *p, int32_t rank_kinds) {
    cc_show_rules r = show_rules(p);
    uint64_t hand = cc_bit_of(c[0]) | cc_bit_of(c[1]) | cc_bit_of(c[2]);
    return rank_kinds ? cc_show_rank_points(hand | cc_bit_of(c[3]), &r)
                      : cc_show_suit_points(hand, c[3], &r);
}

/* The sampler (nodde_sample.c), the table's sample_infoset; the heuristic
 * is public (cc_nodde.h). */
int32_t cc_nodde_sample_infoset(const void *state, int32_t player, uint64_t seed, void *out);

/* The exact solver of the play (nodde_solve.c), the table's solve_depth
 * and solve. */
int32_t cc_nodde_solve_depth(const void *state);
int32_t cc_nodde_solve(const void *state, const double *win_table, int32_t win_target,
                       int64_t max_nodes, const volatile int32_t *stop, double *values,
                       int64_t *nodes);

#endif /* NODDE_INTERNAL_H */
