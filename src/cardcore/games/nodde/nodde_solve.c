/* nodde_solve.c: the exact solver of the play (docs/nodde.rst, "The
 * solver"), the table's solve_depth and solve, over the family's solver of
 * the play (core/play_solve.c, cc_play_solve).
 *
 * The hands are pegged before the play, so what is left of a deal once it
 * is dealt is its play: at most 12 cards (4 players x 3), one count with no
 * new count after a go, the end of the deal at 31 or when nobody can play
 * (the last card: 1).  The deal is valued when its play ends, before the
 * next deal is dealt and pegged (chance): the game's end of the play pegs
 * nothing.  No transposition table: the points of a card read the whole
 * sequence played (runs, pairs, flushes, 25 by card count), which also
 * fixes every hand, so no two orders of play reach the same position.  The
 * tests check it against a brute force over the engine's own apply. */
#include "nodde_internal.h"
#include "play_internal.h"

_Static_assert(CC_NODDE_MAX_PLAYERS <= CC_PLAY_MAX_SEATS && CC_NODDE_MAX_PLAY <= CC_PLAY_MAX_CARDS,
               "the play solver must hold a Nodde play");

/* Cards left to play: every live state is in the play (the hands are
 * pegged as the deal is dealt). */
int32_t cc_nodde_solve_depth(const void *state) {
    const nodde_state *s = (const nodde_state *)state;
    if (s == NULL || s->to_act == TERMINAL) return -1;
    if (s->n < 2 || s->n > CC_NODDE_MAX_PLAYERS || s->to_act < 0 || s->to_act >= s->n) return -1;
    return cc_play_cards_left(s->hand, s->n, s->seq, s->nseq, CC_NODDE_MAX_PLAY);
}

int32_t cc_nodde_solve(const void *state, const double *win_table, int32_t win_target,
                       int64_t max_nodes, const volatile int32_t *stop, double *values,
                       int64_t *nodes) {
    const nodde_state *s = (const nodde_state *)state;
    if (nodes != NULL) *nodes = 0;
    if (s == NULL || values == NULL || max_nodes < 0) return CC_E_ARG;
    if (s->to_act == TERMINAL) return CC_E_GAME_OVER;
    if (cc_nodde_solve_depth(s) < 0) return CC_E_ARG;
    cc_play_problem pb = {.n = s->n,
                          .partners = s->partners,
                          .target = s->target,
                          .dealer = s->dealer,
                          .rules = play_rules(s->params),
                          .new_count = 0,
                          .table = 0,
                          .nend = 0,
                          .seq = s->seq,
                          .nseq = s->nseq,
                          .count_start = 0,
                          .total = s->total,
                          .last = s->last_player,
                          .to_act = s->to_act,
                          .gone = s->gone,
                          .action_base = 0};
    for (int32_t q = 0; q < s->n; q++) {
        pb.hand[q] = s->hand[q];
        pb.score[side_of(s, q)] = s->score[side_of(s, q)];
    }
    return cc_play_solve(&pb, win_table, win_target, max_nodes, stop, values, nodes);
}
