/* defined_bot.c: the heuristic of every defined game (docs/define.rst, "The
 * heuristic bot"), from what the player to act may know: his hand, the
 * trick, the bids and the tricks won.
 *
 * - A penalty game (a card worth negative points) passes its worst cards:
 *   the most negative points first, then the strongest; another passes its
 *   weakest cards.
 * - A bid counts the cards of the top two ranks and the trumps of the top
 *   four, the nearest allowed bid to that.
 * - In play a seat wants tricks unless the game is a penalty game, or it
 *   has bid and made its bid.  Leading, it plays its strongest card if it
 *   wants tricks, else its weakest.  Following, wanting tricks, it plays the
 *   weakest card that takes the lead of the trick, else its weakest card;
 *   not wanting them, the strongest card that does not take the lead (the
 *   most negative points first), else its strongest.
 * Ties are broken by the generator. */
#include "defined_internal.h"

static int32_t penalty_game(const int32_t *T) {
    for (int32_t c = 0; c < 52; c++)
        if (T[CC_DEFINED_F_CARD_POINTS + c] < 0) return 1;
    return 0;
}

/* A card's strength with no suit led: its rank order, trumps above. */
static int32_t plain_strength(const int32_t *T, int32_t c, int32_t trump) {
    return T[CC_DEFINED_F_RANK_ORDER + def_rank(c)] + (def_suit(c) == trump ? 16 : 0);
}

int32_t cc_defined_heuristic(const void *state, cc_rng *rng, int32_t *action) {
    if (state == NULL || rng == NULL || action == NULL) return CC_E_ARG;
    const defined_state *s = (const defined_state *)state;
    if (s->phase == DEF_PH_OVER) return CC_E_GAME_OVER;
    const int32_t *T = def_table(s);
    int32_t q = s->to_act, pen = penalty_game(T);
    cc_chooser ch = CC_CHOOSER_INIT;
    if (s->phase == DEF_PH_PASS) {
        for (uint64_t h = s->hand[q]; h; h &= h - 1) {
            int32_t c = cc_ctz64(h), v = plain_strength(T, c, s->trump);
            cc_choose(&ch, c, pen ? -64 * T[CC_DEFINED_F_CARD_POINTS + c] + v : -v, rng);
        }
        *action = ch.pick;
        return CC_OK;
    }
    if (s->phase == DEF_PH_BID) {
        int32_t est = 0;
        for (uint64_t h = s->hand[q]; h; h &= h - 1) {
            int32_t c = cc_ctz64(h), r = T[CC_DEFINED_F_RANK_ORDER + def_rank(c)];
            if (r >= 11 || (def_suit(c) == s->trump && r >= 9)) est++;
        }
        for (int32_t b = 0; b <= s->hand_size; b++) {
            int32_t a = CC_DEFINED_A_BID + b;
            /* legal bids only: the dealer's hook may forbid one */
            int32_t total = 0, last = s->nbids == s->n - 1;
            for (int32_t r = 0; r < s->n; r++)
                if (s->bid[r] >= 0) total += s->bid[r];
            if (T[CC_DEFINED_F_HOOK] && last && total + b == s->hand_size) continue;
            int32_t d = b > est ? b - est : est - b;
            cc_choose(&ch, a, -d, rng);
        }
        *action = ch.pick;
        return CC_OK;
    }
    uint64_t legal = cc_defined_legal_cards(s);
    int32_t side = def_side(T, q), want = !pen;
    if (T[CC_DEFINED_F_BIDDING]) {
        int32_t bid = 0, won = 0;
        for (int32_t r = 0; r < s->n; r++)
            if (def_side(T, r) == side) bid += s->bid[r] > 0 ? s->bid[r] : 0, won += s->tricks[r];
        want = won < bid;
    }
    if (s->ntrick == 0) {
        for (uint64_t h = legal; h; h &= h - 1) {
            int32_t c = cc_ctz64(h), v = plain_strength(T, c, s->trump);
            cc_choose(&ch, c, want ? v : -v, rng);
        }
        *action = ch.pick;
        return CC_OK;
    }
    int32_t w = def_trick_winner(s, T);
    int32_t top = def_strength(T, s->trick[w], s->lead_suit, s->trump);
    cc_chooser other = CC_CHOOSER_INIT;
    for (uint64_t h = legal; h; h &= h - 1) {
        int32_t c = cc_ctz64(h), v = plain_strength(T, c, s->trump);
        int32_t wins = def_strength(T, c, s->lead_suit, s->trump) > top;
        if (want) {
            if (wins) cc_choose(&ch, c, -v, rng);
            else cc_choose(&other, c, -v, rng);
        } else {
            if (!wins) cc_choose(&ch, c, -64 * T[CC_DEFINED_F_CARD_POINTS + c] + v, rng);
            else cc_choose(&other, c, v, rng);
        }
    }
    *action = ch.pick >= 0 ? ch.pick : other.pick;
    return CC_OK;
}
