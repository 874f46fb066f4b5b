/* cribbage_solve.c: the exact solver of the play (docs/cribbage.rst, "The
 * solver"), the table's solve_depth and solve, over the family's solver of
 * the play (core/play_solve.c, cc_play_solve).
 *
 * With every hand known, the rest of the play is a game of perfect
 * information of at most 16 cards (4 players x 4): go and last card, the
 * new count after 31 or a go, then the game's end of the play, the show in
 * its order (the hands from the dealer's left, the dealer's, the crib), the
 * game ending as soon as a side reaches the target.  A new count forgets
 * the order of the cards before, so orders of play meet: the solver's
 * transposition table and move ordering are on.  The tests check it
 * against a brute force over the engine's own apply. */
#include "cribbage_internal.h"
#include "play_internal.h"

#define MAX_CARDS 16 /* 4 players x 4 cards in the play */

_Static_assert(CC_CRIBBAGE_MAX_PLAYERS <= CC_PLAY_MAX_SEATS && MAX_CARDS <= CC_PLAY_MAX_CARDS,
               "the play solver must hold a cribbage play");

/* Cards left to play: the play phase without muggins (whose claims are
 * decisions of their own) and nothing pending, else -1. */
int32_t cc_cribbage_solve_depth(const void *state) {
    const cribbage_state *s = (const cribbage_state *)state;
    if (s == NULL || s->to_act == TERMINAL || s->phase != PHASE_PLAY) return -1;
    if (s->params[CC_CRIBBAGE_P_MUGGINS] || s->pclaim || s->calling) return -1;
    if (s->n < 2 || s->n > CC_CRIBBAGE_MAX_PLAYERS) return -1;
    /* what the show will score: valid hands of 4 with the starter */
    for (int32_t q = 0; q < s->n; q++)
        if (!cc_show_hand_valid(s->dealt[q] & ~s->disc[q], 4, s->starter)) return -1;
    if (!cc_show_hand_valid(crib_of(s), 4, s->starter)) return -1;
    return cc_play_cards_left(s->hand, s->n, s->play, s->nplay, MAX_CARDS);
}

int32_t cc_cribbage_solve(const void *state, const double *win_table, int32_t win_target,
                          int64_t max_nodes, const volatile int32_t *stop, double *values,
                          int64_t *nodes) {
    const cribbage_state *s = (const cribbage_state *)state;
    if (nodes != NULL) *nodes = 0;
    if (s == NULL || values == NULL || max_nodes < 0) return CC_E_ARG;
    if (s->to_act == TERMINAL) return CC_E_GAME_OVER;
    if (cc_cribbage_solve_depth(s) < 0 || s->dealer < 0 || s->dealer >= s->n) return CC_E_ARG;
    cc_play_problem pb = {.n = s->n,
                          .partners = s->partners,
                          .target = s->target,
                          .dealer = s->dealer,
                          .rules = play_rules,
                          .new_count = 1,
                          .table = 1,
                          .nend = s->n + 1,
                          .seq = s->play,
                          .nseq = s->nplay,
                          .count_start = s->count_start,
                          .total = s->total,
                          .last = s->last_player,
                          .to_act = s->to_act,
                          .gone = s->gone,
                          .action_base = CC_CRIBBAGE_A_PLAY};
    /* the show (cribbage_game.c, show): the hands from the dealer's left,
     * then the crib */
    int32_t four = s->params[CC_CRIBBAGE_P_CRIB_FOUR_FLUSH];
    for (int32_t i = 1; i <= s->n; i++) {
        int32_t q = (s->dealer + i) % s->n;
        pb.end_seat[i - 1] = q;
        pb.end_points[i - 1] = show_points(s->dealt[q] & ~s->disc[q], s->starter, 0, four);
    }
    pb.end_seat[s->n] = s->dealer;
    pb.end_points[s->n] = show_points(crib_of(s), s->starter, 1, four);
    for (int32_t q = 0; q < s->n; q++) {
        pb.hand[q] = s->hand[q];
        pb.score[side_of(s, q)] = s->score[side_of(s, q)];
    }
    return cc_play_solve(&pb, win_table, win_target, max_nodes, stop, values, nodes);
}
