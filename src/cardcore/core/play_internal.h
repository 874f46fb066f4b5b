/* play_internal.h: the play (pegging) of the cribbage family, shared by
 * the games' rules (Nodde Knave, cribbage) and by the exact solver of the
 * play (play_solve.c) that their tables' solve_depth and solve call.
 * Private: each game's rules file keeps its own state, events and
 * variants (muggins, what a go records) and calls these for the sequence.
 *
 * The play: the seats play in turn to a running count of at most 31; the
 * points of a card are the family's play scoring (score_internal.h,
 * cc_play_points) on the cards of the count.  A seat that cannot play says
 * go; when nobody can play, the last to play pegs 1 (the last card).  The
 * rules differ in what follows a count of 31 or the last card: a new count
 * while cards are left (cribbage), or the end of the play (Nodde), and in
 * whether a seat whose hand is empty says go (Nodde) or is passed over. */
#ifndef CC_PLAY_INTERNAL_H
#define CC_PLAY_INTERNAL_H

#include "cc_internal.h"
#include "score_internal.h"

/* The most seats and the most cards of one play the solver takes. */
#define CC_PLAY_MAX_SEATS 4
#define CC_PLAY_MAX_CARDS 16

/* The seat after seat q of n (no division: this runs for every card). */
static inline int32_t cc_play_next_seat(int32_t n, int32_t q) { return q + 1 == n ? 0 : q + 1; }

/* The cards of hand that may be played on a count of total. */
static inline uint64_t cc_play_legal(uint64_t hand, int32_t total) {
    int32_t room = 31 - total;
    uint32_t rm = room >= 10 ? 0x1FFFu : (room <= 0 ? 0u : (1u << room) - 1);
    return hand & cc_lanes(rm);
}

/* 1 if hand holds a card that may be played on a count of total. */
static inline int32_t cc_play_can(uint64_t hand, int32_t total) {
    return hand != 0 && cc_min_pip(hand) <= 31 - total;
}

/* What a seat's go records beyond its bit in the gone set (the rules'
 * events): on_go(ctx, seat), or nothing when on_go is NULL. */
typedef void (*cc_play_go_fn)(void *ctx, int32_t seat);

/* The turn after seat `from`: the next of the n seats (not gone) who can
 * play, or -1 if nobody can.  Each seat passed who cannot play says go: its
 * bit is set in *gone, then on_go is told.  empty_goes 1: a seat with no
 * cards says go too; 0: it is passed over.  Inline, so that a constant
 * on_go (or NULL) is inlined too. */
static inline int32_t cc_play_next(const uint64_t *hand, int32_t n, int32_t total, uint32_t *gone,
                                   int32_t from, int32_t empty_goes, cc_play_go_fn on_go,
                                   void *ctx) {
    for (int32_t k = 1, q = cc_play_next_seat(n, from); k <= n; k++, q = cc_play_next_seat(n, q)) {
        if ((*gone >> q & 1) || (!empty_goes && hand[q] == 0)) continue;
        if (cc_play_can(hand[q], total)) return q;
        *gone |= 1u << q;
        if (on_go != NULL) on_go(ctx, q);
    }
    return -1;
}

/* ---- the exact solver of the play (play_solve.c) -------------------------
 * With every hand known, the rest of the play is a game of perfect
 * information.  A game's table fills a cc_play_problem from its state (the
 * rules, the position, what ends the play) and hands it to cc_play_solve. */

typedef struct cc_play_problem {
    /* the rules */
    int32_t n;        /* seats, 2 .. CC_PLAY_MAX_SEATS */
    int32_t partners; /* 1: seats q and q + 2 are one side (side q & 1); 0: a side a seat */
    int32_t target;   /* the game ends as soon as a side's score reaches it */
    int32_t dealer;
    cc_play_rules rules;
    int32_t new_count; /* 1: a new count after 31 or the last card while cards are left */
    /* 1: move ordering (the mover's points first) and a transposition table,
     * for rules with a new count (the cards of the counts before are a set:
     * orders of play meet).  0: neither (one count: the sequence played is
     * the position, no two orders meet). */
    int32_t table;
    /* The game's end of the play (its hook): what it pegs after the play,
     * in order, the game ending as soon as a side reaches the target
     * (cribbage: the show's hands and crib; Nodde: nothing, its hands were
     * pegged before the play). */
    int32_t nend;
    int32_t end_seat[CC_PLAY_MAX_SEATS + 1];
    int32_t end_points[CC_PLAY_MAX_SEATS + 1];
    /* the position */
    uint64_t hand[CC_PLAY_MAX_SEATS]; /* the unplayed cards */
    int32_t score[CC_PLAY_MAX_SEATS]; /* per side */
    const uint8_t *seq;               /* the cards played, in order */
    int32_t nseq, count_start;        /* the count is seq[count_start .. nseq - 1] */
    int32_t total, last, to_act;      /* the count's total, the last to play (-1: none) */
    uint32_t gone;                    /* the seats who said go in this count */
    int32_t action_base;              /* the action of card id c is action_base + c */
} cc_play_problem;

/* The cards left in the n hands (52-card sets) when they and the nseq
 * cards played (valid ids; seq may be NULL when nseq is 0) make a play of
 * at most max_cards cards with a card still to play, else -1: what a
 * table's solve_depth answers for a state of the play. */
int32_t cc_play_cards_left(const uint64_t *hand, int32_t n, const uint8_t *seq, int32_t nseq,
                           int32_t max_cards);

/* The value of each legal card of the seat to act, to that seat's side
 * (its partner plays with it; every other seat against it), in
 * values[action_base + card] (the others untouched): the margin
 * (win_table NULL: the side's score less the mean of the others') at the
 * end of the deal's play, or with 2 seats the win table's chance
 * (search/bots.c, deal_rewards; win_target 1..CC_BOT_MAX_TARGET) and 1 or
 * 0 for a game ended.  max_nodes > 0 caps the positions visited
 * (CC_E_CAPACITY past it); *nodes (if not NULL) gets their number.
 * CC_E_ARG for a problem out of range or a bad win table; CC_E_STOPPED
 * once *stop (stop not NULL) is set, read every 4096 positions.  No state between calls (the table, if any, is one allocation
 * per call). */
int32_t cc_play_solve(const cc_play_problem *pb, const double *win_table, int32_t win_target,
                      int64_t max_nodes, const volatile int32_t *stop, double *values,
                      int64_t *nodes);

#endif /* CC_PLAY_INTERNAL_H */
