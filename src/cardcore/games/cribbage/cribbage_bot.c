/* cribbage_bot.c: the cribbage heuristic (docs/cribbage.rst, "The
 * heuristic bot"), the table's heuristic. */
#include "cribbage_internal.h"

/* The expected crib points of a discard of ranks a, b (table model, suits
 * averaged), times 100, for the discard heuristic; a single card (3 or 4
 * players) uses row a, column 13. */
static const int16_t crib_pair_x100[13][14] = {
    {553, 444, 456, 547, 574, 426, 408, 413, 404, 396, 419, 386, 375, 444},
    {444, 583, 684, 485, 577, 437, 429, 424, 414, 407, 431, 397, 386, 467},
    {456, 684, 616, 550, 643, 428, 436, 429, 412, 415, 438, 405, 394, 483},
    {547, 485, 550, 614, 700, 497, 418, 431, 421, 415, 438, 404, 394, 483},
    {574, 577, 643, 700, 899, 710, 642, 576, 574, 703, 726, 693, 682, 665},
    {426, 437, 428, 497, 710, 629, 554, 490, 558, 384, 408, 374, 363, 478},
    {408, 429, 436, 418, 642, 554, 611, 677, 436, 373, 402, 369, 358, 467},
    {413, 424, 429, 431, 576, 490, 677, 563, 494, 431, 395, 367, 356, 463},
    {404, 414, 412, 421, 574, 558, 436, 494, 553, 485, 449, 356, 351, 452},
    {396, 407, 415, 415, 703, 384, 373, 431, 485, 546, 505, 412, 342, 445},
    {419, 431, 438, 438, 726, 408, 402, 395, 449, 505, 593, 501, 431, 470},
    {386, 397, 405, 404, 693, 374, 369, 367, 356, 412, 501, 525, 397, 428},
    {375, 386, 394, 394, 682, 363, 358, 356, 351, 342, 431, 397, 503, 408},
};

static int32_t heuristic_discard(const cribbage_state *s, cc_rng *rng, int32_t *action) {
    int32_t q = s->to_act;
    int32_t need = s->discards - cc_popcount64(s->disc[q]);
    uint64_t hand = s->hand[q];
    int32_t ids[6] = {0}, k = 0;
    for (uint64_t u = hand; u; u &= u - 1) ids[k++] = cc_card52_id_of_bit(cc_ctz64(u));
    int32_t mine = side_of(s, q) == side_of(s, s->dealer);
    cc_chooser ch = CC_CHOOSER_INIT;
    for (int32_t i = 0; i < k; i++)
        for (int32_t j = (need == 2 ? i + 1 : k - 1); j < k; j++) {
            uint64_t d = cc_bit_of(ids[i]) | (need == 2 ? cc_bit_of(ids[j]) : 0);
            uint64_t kept = hand & ~d;
            if (cc_popcount64(kept) != 4) continue;
            int64_t sum = 0, cnt = 0;
            for (int32_t st = 0; st < NUM_CARDS; st++) {
                if (s->dealt[q] & cc_bit_of(st)) continue;
                sum += show_points(kept, st, 0, s->params[CC_CRIBBAGE_P_CRIB_FOUR_FLUSH]);
                cnt++;
            }
            /* both discards: those made and these */
            uint64_t all = s->disc[q] | d;
            int32_t r[2], nr = 0;
            for (uint64_t u = all; u; u &= u - 1) r[nr++] = cc_ctz64(u) & 15;
            int32_t crib = nr == 2 ? crib_pair_x100[r[0]][r[1]] : crib_pair_x100[r[0]][13];
            int64_t v = sum * 100 * 100 / cnt + (mine ? crib : -crib) * 100;
            cc_choose(&ch, ids[i], v, rng);
        }
    *action = CC_CRIBBAGE_A_DISCARD + (ch.pick >= 0 ? ch.pick : ids[0]);
    return CC_OK;
}

static int32_t heuristic_play(const cribbage_state *s, cc_rng *rng, int32_t *action) {
    uint64_t legal = legal_bits(s);
    cc_chooser ch = CC_CHOOSER_INIT;
    uint8_t seq[CC_CRIBBAGE_MAX_PLAY + 1];
    int32_t len = s->nplay - s->count_start;
    for (int32_t i = 0; i < len; i++) seq[i] = s->play[s->count_start + i];
    for (uint64_t u = legal; u; u &= u - 1) {
        int32_t c = cc_card52_id_of_bit(cc_ctz64(u));
        seq[len] = (uint8_t)c;
        int32_t total = s->total + cc_pip_of(c);
        int32_t pts = cc_play_points(seq, len + 1, total, &play_rules);
        int32_t v = pts * 100;
        if (total == 5 || total == 21) v -= 150;     /* a ten-card makes 15 or 31 */
        if (len == 0 && cc_pip_of(c) == 5) v -= 100; /* do not lead a five */
        if (len == 0 && c % 13 < 4) v += 20;         /* lead low */
        v += cc_pip_of(c);                           /* keep low cards for later counts */
        cc_choose(&ch, c, v, rng);
    }
    if (ch.pick < 0) return CC_E_ARG;
    *action = CC_CRIBBAGE_A_PLAY + ch.pick;
    return CC_OK;
}

int32_t cc_cribbage_heuristic(const void *state, cc_rng *rng, int32_t *action) {
    const cribbage_state *s = (const cribbage_state *)state;
    if (s == NULL || rng == NULL || action == NULL) return CC_E_ARG;
    if (s->to_act == TERMINAL) return CC_E_GAME_OVER;
    if (s->phase == PHASE_SHOW || s->pclaim) {
        /* muggins: claim the true score; take every point overlooked */
        *action =
            s->calling ? CC_CRIBBAGE_A_MUGGINS : CC_CRIBBAGE_A_CLAIM + cc_cribbage_claim_truth(s);
        return CC_OK;
    }
    return s->phase == PHASE_DISCARD ? heuristic_discard(s, rng, action)
                                     : heuristic_play(s, rng, action);
}
