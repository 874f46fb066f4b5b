/* nodde_bot.c: the Nodde Knave heuristic (docs/nodde.rst, "The heuristic
 * bot").
 *
 * The only decision of a Nodde player is which card to play: the hands are
 * scored by the engine.  For each card he may play, the bot weighs
 *
 *   gain    the points the card makes at once (the rules' own play scorer),
 *           everything if they win the game;
 *   danger  the points the next player to play could make in reply, if he
 *           is an opponent: for each rank of card the bot has not seen, the
 *           points a card of that rank would make on top of the new play
 *           (fifteen, thirty-one, twenty-five, pair, run), times how many
 *           such cards it has not seen, times the chance that one of them is
 *           in that player's hand (his cards over the unseen cards);
 *
 * and plays the card with the best gain - danger; among equals the higher
 * card (the low ones are kept for a high count), then the generator breaks
 * the tie.  It reads the player's own hand and public facts only: the play,
 * the turn-up, the hand sizes, who said go, the scores and the cards the
 * player has seen since the shuffle. */
#include "nodde_internal.h"

/* Points a card of each rank would make as the next card after seq[0..n-1]
 * (whose total is total), for the danger estimate: the rank-borne items of
 * docs/nodde.rst, "The play" (fifteen, thirty-one, twenty-five, pair, run;
 * flushes depend on suits and are left out).  acc has 13 entries; ranks that
 * would go over 31 get 0. */
static void reply_points(const uint8_t *seq, int32_t n, int32_t total, const int32_t *p,
                         int32_t *acc) {
    for (int32_t r = 0; r < 13; r++) acc[r] = 0;
    int32_t room = 31 - total;
    /* totals: 15, 31 and (with score_25) 25 */
    int32_t s25 = p[CC_NODDE_P_SCORE_25] != CC_NODDE_SCORE25_OFF;
    const int32_t goals[3] = {15, 31, 25}, pts[3] = {2, 2, 4};
    for (int32_t k = 0; k < 2 + s25; k++) {
        int32_t need = goals[k] - total;
        if (need < 1 || need > 10) continue;
        if (need < 10) acc[need - 1] += pts[k];
        else
            for (int32_t r = 9; r < 13; r++) acc[r] += pts[k];
    }
    /* pairs: the rank of the last card, as many times as it ends the play */
    int32_t r0 = cc_rank_of(seq[n - 1]), same = 0;
    for (int32_t i = n - 1; i >= 0 && cc_rank_of(seq[i]) == r0; i--) same++;
    acc[r0] += same == 1 ? 2 : same == 2 ? 6 : same >= 3 ? 12 : 0;
    /* runs: the last j cards (distinct ranks) and the new card make j + 1
     * consecutive ranks when it extends their span or fills its one gap */
    int32_t best[13] = {0};
    uint32_t m = 0;
    for (int32_t i = n - 1, j = 1; i >= 0; i--, j++) {
        uint32_t b = 1u << cc_rank_of(seq[i]);
        if (m & b) break;
        m |= b;
        if (j < 2) continue;
        int32_t lo = cc_ctz64(m), hi = 31 - __builtin_clz(m), span = hi - lo + 1;
        if (span == j) {
            if (lo > 0) best[lo - 1] = j + 1;
            if (hi < 12) best[hi + 1] = j + 1;
        } else if (span == j + 1) {
            uint32_t gap = ~m & (((1u << span) - 1) << lo);
            best[cc_ctz64(gap)] = j + 1;
        }
    }
    int32_t per_card = p[CC_NODDE_P_RUN_POINTS] != CC_NODDE_RUN_MWYNWEN;
    for (int32_t r = 0; r < 13; r++) {
        if (best[r]) acc[r] += per_card ? best[r] : 2 * (best[r] - 2);
        if (cc_pip_of_rank(r) > room) acc[r] = 0;
    }
}

int32_t cc_nodde_heuristic(const void *state, cc_rng *rng, int32_t *action) {
    const nodde_state *s = (const nodde_state *)state;
    if (s == NULL || rng == NULL || action == NULL) return CC_E_ARG;
    int32_t me = s->to_act;
    if (me == CC_PLAYER_TERMINAL) return CC_E_GAME_OVER;
    if (me < 0 || me >= s->n || s->nseq >= CC_NODDE_MAX_PLAY) return CC_E_ARG;
    int32_t room = 31 - s->total;
    uint64_t legal = 0;
    for (uint64_t h = s->hand[me]; h; h &= h - 1) {
        int32_t c = cc_card52_id_of_bit(cc_ctz64(h));
        if (cc_pip_of(c) <= room) legal |= h & -h;
    }
    if (legal == 0) return CC_E_ARG; /* not a state the game makes */
    int32_t n = s->n;
    int32_t my_side = s->partners ? (me & 1) : me;
    /* the next player to play after this card: the first seat on who has
     * not said go and still holds cards (his hand size is public) */
    int32_t next = -1;
    for (int32_t k = 1; k < n; k++) {
        int32_t q = (me + k) % n;
        if (!(s->gone >> q & 1) && s->hand[q]) {
            next = q;
            break;
        }
    }
    int32_t next_is_opponent = next >= 0 && (s->partners ? (next & 1) : next) != my_side;
    int32_t held = next_is_opponent ? cc_popcount64(s->hand[next]) : 0;
    /* the cards this player has not seen, by rank */
    uint64_t unseen = CC_DECK52_MASK & ~s->seen[me];
    int32_t nunseen = cc_popcount64(unseen);
    int32_t per_rank[13];
    for (int32_t r = 0; r < 13; r++) {
        uint64_t b = unseen >> r;
        per_rank[r] = (int32_t)((b & 1) + (b >> 16 & 1) + (b >> 32 & 1) + (b >> 48 & 1));
    }
    uint8_t seq[CC_NODDE_MAX_PLAY];
    for (int32_t i = 0; i < s->nseq; i++) seq[i] = s->seq[i];
    int32_t nseq = s->nseq + 1;
    cc_play_rules rules = play_rules(s->params);
    /* score = (gain * nunseen - held * sum of unseen reply points) * 16 + pip,
     * in integers so that every platform chooses alike */
    cc_chooser ch = CC_CHOOSER_INIT;
    for (uint64_t l = legal; l; l &= l - 1) {
        int32_t c = cc_card52_id_of_bit(cc_ctz64(l));
        seq[nseq - 1] = (uint8_t)c;
        int32_t total = s->total + cc_pip_of(c);
        int32_t gain = cc_play_points(seq, nseq, total, &rules);
        if (gain > 0 && s->score[my_side] + gain >= s->target) gain = 1000; /* wins */
        int64_t reply = 0;
        if (held > 0) {
            int32_t acc[13];
            reply_points(seq, nseq, total, s->params, acc);
            for (int32_t r = 0; r < 13; r++) reply += (int64_t)per_rank[r] * acc[r];
        }
        int64_t score =
            ((int64_t)gain * (nunseen > 0 ? nunseen : 1) - held * reply) * 16 + cc_pip_of(c);
        cc_choose(&ch, c, score, rng);
    }
    *action = ch.pick;
    return CC_OK;
}
