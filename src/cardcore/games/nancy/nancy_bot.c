/* nancy_bot.c: the Game of Nancy heuristic (docs/nancy.rst, "The heuristic
 * bot").
 *
 * Bidding: the bot counts the objectives its cards (hand and face-up) make
 * likely (Royal Executioner from the face cards it can discard and the
 * Kings and high trumps that win tricks; Heir's Bodyguard from holding XXI
 * and I with trumps to spare; an Empire from nearly all of one suit) and
 * bids that many if the bid is allowed, else passes (bidding the least it
 * may when it must bid).
 * Call (5 and 6 players): a card it does not hold, if it may.
 * Discard: face cards first (they start Royal Executioner in the Nancy),
 * then the lowest cards of its shortest suit (a void lets it trump), a trump
 * only when it must (the lowest).
 * Play: it plays the Outsider at the latest on the last trick but one, and
 * earlier when its own side takes the trick anyway (no exchange then).  When
 * it plays last and its side takes the trick whatever it plays, it banks
 * the card its side's pile wants most (a face card); when its side takes the
 * trick without it, it plays its least valuable card; else, if some card
 * makes its side take the trick, it plays the lowest such card; else it
 * throws its least valuable card (no face card, XXI or I if it can help it;
 * the weakest).  On a lead it plays the highest trump still out if it holds
 * it, else its least valuable card.
 * Outsider exchange pick: the card that helps its side most (a face card
 * into the Nancy for the Taker's side; the least useful out of the
 * opponents' pile for them).
 * Sides: the Taker; the Partner, once he is known (and the holder of the
 * called card knows himself); every other seat is an opponent.  It reads
 * its own cards and the public facts only (cards played, face-up cards,
 * shown trumps, the piles as far as they are public, bids). */
#include "nancy_internal.h"

static inline int32_t is_king(int32_t c) { return c < 56 && c % 14 == 13; }
static inline int32_t trump_no(int32_t c) { return c - 55; } /* for 56..76 */

/* The trick strength of a card: the Outsider lowest, then suit cards by
 * rank, then trumps by number. */
static inline int32_t power(int32_t c) {
    if (c == CC_NANCY_OUTSIDER) return -1;
    return c < 56 ? c % 14 : 100 + trump_no(c);
}

/* What a card is worth in the Nancy (docs/nancy.rst, "The objectives"):
 * face cards (Royal Executioner), XXI and I (Heir's Bodyguard), other
 * trumps a little (Master of the Arcane). */
static inline int32_t nancy_value(int32_t c) {
    if (c == CC_NANCY_OUTSIDER) return 0;
    if (is_face(c)) return 100;
    if (c == 56 || c == 76) return 80;
    if (is_trump(c)) return 10;
    return 0;
}

static inline int32_t legal(const uint64_t *mask, int32_t a) {
    return (int32_t)(mask[a >> 6] >> (a & 63) & 1);
}

/* ---- bidding --------------------------------------------------------------- */

static int32_t bid_target(const cc_nancy_state *s, cc_nancy_cards held) {
    int32_t faces = 0, kings = cc_popcount64(held.lo & CC_NANCY_KINGS_LO);
    faces = cc_popcount64(held.lo & CC_NANCY_FACES_LO) - kings;
    int32_t high_trumps =
        cc_popcount64(held.hi & (0x3FFFFEull & ~((1ull << 16) - 1))); /* XVI..XXI */
    int32_t trumps = cc_popcount64(held.hi & CC_NANCY_TRUMPS_HI);
    int32_t disc = faces < s->hsize ? faces : s->hsize;
    int32_t objectives = 0;
    /* Royal Executioner: 8 face cards; the discards give some, the tricks
     * won by Kings and high trumps the rest */
    if (2 * disc + kings + high_trumps >= 14) objectives++;
    /* Heir's Bodyguard: XXI wins its own trick; I needs trumps to spare */
    if ((held.hi >> 21 & 1) && (held.hi >> 1 & 1) && trumps >= 5) objectives++;
    /* an Empire: nearly every card of one suit */
    for (int32_t su = 0; su < 4; su++)
        if (cc_popcount64(held.lo & (CC_NANCY_LANE << (16 * su))) >= 12) objectives++;
    return objectives;
}

static int32_t choose_bid(const cc_nancy_state *s, const uint64_t *mask, int32_t me) {
    int32_t want = bid_target(s, cs_or(s->hand[me], s->up[me]));
    if (want > 9) want = 9;
    if (want > 0 && legal(mask, CC_NANCY_A_BID + want - 1)) return CC_NANCY_A_BID + want - 1;
    if (legal(mask, CC_NANCY_A_PASS)) return CC_NANCY_A_PASS;
    for (int32_t b = 1; b <= 9; b++) /* forced to bid: the least it may */
        if (legal(mask, CC_NANCY_A_BID + b - 1)) return CC_NANCY_A_BID + b - 1;
    return -1;
}

/* ---- trick play ------------------------------------------------------------- */

/* 1 if a trick won by seat w is good for me: the Taker's side wants the
 * Taker (or a known Partner whose tricks fill the Nancy) to win it; the
 * opponents want anybody else. */
static int32_t good_winner(const cc_nancy_state *s, int32_t me, int32_t me_partner, int32_t w) {
    int32_t t = s->taker;
    int32_t known_partner = s->partner_revealed ? s->partner : (me_partner ? me : -1);
    int32_t fills =
        w == t || (w == known_partner && w >= 0 && s->params[CC_NANCY_P_PARTNER_TRICKS_TO] == 1);
    int32_t me_taker_side = me == t || me_partner;
    return me_taker_side ? fills : !fills;
}

/* The card ids of a set, ascending; returns their number. */
static int32_t card_ids(cc_nancy_cards set, int32_t *out) {
    int32_t k = 0;
    for (uint64_t lo = set.lo; lo; lo &= lo - 1) {
        int32_t b = cc_ctz64(lo);
        out[k++] = (b >> 4) * 14 + (b & 15);
    }
    for (uint64_t hi = set.hi & CC_NANCY_TRUMPS_HI; hi; hi &= hi - 1) out[k++] = 55 + cc_ctz64(hi);
    if (set.hi & 1) out[k++] = CC_NANCY_OUTSIDER;
    return k;
}

static int32_t choose_play(const cc_nancy_state *s, int32_t me, int32_t me_partner, cc_rng *rng) {
    /* the cards it may play (docs/nancy.rst, "Trick play"), as the game
     * computes them */
    int32_t led, high;
    trick_summary(s->trick_card, s->trick_n, &led, &high);
    cc_nancy_cards may = legal_from(cs_or(s->hand[me], s->up[me]), led, high,
                                    s->params[CC_NANCY_P_OVERTRUMP_ON_TRUMP_LEAD]);
    int32_t ids[78];
    int32_t nids = card_ids(may, ids);
    int32_t n = s->n;
    int32_t last = s->trick_n == n - 1;
    int8_t trick[CC_NANCY_MAX_PLAYERS];
    for (int32_t i = 0; i < s->trick_n; i++) trick[i] = s->trick_card[i];
    /* the Outsider: before the last trick, and at once when its own side
     * takes the trick anyway */
    int32_t out_legal = cs_has(may, CC_NANCY_OUTSIDER);
    if (out_legal && s->trick_idx >= s->each - 2 && s->trick_idx < s->each - 1)
        return CC_NANCY_A_PLAY + CC_NANCY_OUTSIDER;
    /* highest trump not yet played (mine count as out) */
    uint64_t trumps_out = CC_NANCY_TRUMPS_HI & ~s->played.hi;
    int32_t top_trump = trumps_out ? 63 - __builtin_clzll(trumps_out) : 0;
    cc_chooser win = CC_CHOOSER_INIT, keep = CC_CHOOSER_INIT, bank = CC_CHOOSER_INIT,
               low = CC_CHOOSER_INIT;
    for (int32_t i = 0; i < nids; i++) {
        int32_t c = ids[i];
        int32_t pw = power(c), val = nancy_value(c);
        /* least valuable: its value to either pile, then its strength */
        int64_t cheap = -((int64_t)(val + (c == CC_NANCY_OUTSIDER ? 50 : 0)) * 256 + pw + 1);
        if (s->trick_n == 0) {
            if (c >= 56 && c <= 76 && trump_no(c) == top_trump) cc_choose(&win, c, 0, rng);
            cc_choose(&low, c, cheap, rng);
            continue;
        }
        trick[s->trick_n] = (int8_t)c;
        int32_t wp = winner_pos(trick, s->trick_n + 1);
        int32_t w = wp < 0 ? -1 : (wp == s->trick_n ? me : s->trick_player[wp]);
        int32_t good = w >= 0 && good_winner(s, me, me_partner, w);
        if (good && last) {
            /* the trick is its side's for sure: bank the card its pile wants
             * most (XXI wins wherever it is played: not worth banking) */
            int32_t bank_val = c == 76 ? 0 : val;
            cc_choose(&bank, c, c == CC_NANCY_OUTSIDER ? 1 << 20 : (int64_t)bank_val * 256 - pw,
                      rng);
        } else if (good && w != me) {
            /* its side takes the trick without this card (the Outsider goes
             * to its own side's pile: no exchange) */
            cc_choose(&keep, c, c == CC_NANCY_OUTSIDER ? 1 << 20 : cheap, rng);
        } else if (good) {
            cc_choose(&win, c, -pw, rng); /* the lowest card that wins */
        }
        if (c != CC_NANCY_OUTSIDER) cc_choose(&low, c, cheap, rng);
    }
    int32_t pick = -1;
    if (s->trick_n == 0) pick = win.pick >= 0 ? win.pick : low.pick;
    else if (bank.pick >= 0) pick = bank.pick;
    else if (keep.pick >= 0) pick = keep.pick;
    else if (win.pick >= 0) pick = win.pick;
    else pick = low.pick;
    if (pick < 0 && out_legal) pick = CC_NANCY_OUTSIDER;
    return pick < 0 ? -1 : CC_NANCY_A_PLAY + pick;
}

/* ---- the other decisions ------------------------------------------------------ */

static int32_t choose_discard(const cc_nancy_state *s, const uint64_t *mask, int32_t me,
                              cc_rng *rng) {
    cc_nancy_cards held = cs_or(s->hand[me], s->up[me]);
    cc_chooser ch = CC_CHOOSER_INIT;
    for (int32_t c = 0; c < 78; c++) {
        if (!legal(mask, CC_NANCY_A_DISCARD + c)) continue;
        int64_t score;
        if (is_face(c)) score = 10000;
        else if (c < 56) {
            int32_t len = cc_popcount64(held.lo & (CC_NANCY_LANE << (16 * (c / 14))));
            score = 5000 - len * 32 - c % 14;
        } else score = 100 - trump_no(c);
        cc_choose(&ch, c, score, rng);
    }
    return ch.pick < 0 ? -1 : CC_NANCY_A_DISCARD + ch.pick;
}

static int32_t choose_call(const cc_nancy_state *s, const uint64_t *mask, int32_t me, cc_rng *rng) {
    cc_nancy_cards held = cs_or(s->hand[me], s->up[me]);
    cc_chooser ch = CC_CHOOSER_INIT;
    for (int32_t c = 0; c < 78; c++)
        if (legal(mask, CC_NANCY_A_CALL + c)) cc_choose(&ch, c, cs_has(held, c) ? 0 : 1, rng);
    return ch.pick < 0 ? -1 : CC_NANCY_A_CALL + ch.pick;
}

static int32_t choose_pick(const cc_nancy_state *s, const uint64_t *mask, int32_t me,
                           int32_t me_partner, cc_rng *rng) {
    int32_t me_taker_side = me == s->taker || me_partner;
    int32_t to_nancy = s->pick_to == CC_NANCY_PILE_NANCY;
    int32_t sign = me_taker_side == to_nancy ? 1 : -1; /* want the card's value, or not */
    cc_chooser ch = CC_CHOOSER_INIT;
    for (int32_t c = 0; c < 78; c++)
        if (legal(mask, CC_NANCY_A_PICK + c))
            cc_choose(&ch, c, sign * ((int64_t)nancy_value(c) * 256 + power(c) + 1), rng);
    return ch.pick < 0 ? -1 : CC_NANCY_A_PICK + ch.pick;
}

int32_t cc_nancy_heuristic(const void *state, cc_rng *rng, int32_t *action) {
    const cc_nancy_state *s = (const cc_nancy_state *)state;
    if (s == NULL || rng == NULL || action == NULL) return CC_E_ARG;
    if (s->phase == CC_NANCY_PH_OVER) return CC_E_GAME_OVER;
    int32_t me = s->cur;
    if (me < 0 || me >= s->n) return CC_E_ARG;
    if (s->phase == CC_NANCY_PH_PLAY) { /* the hot path: no action mask */
        int32_t me_partner = me != s->taker && s->called >= 0 &&
                             (cs_has(cs_or(s->hand[me], s->up[me]), s->called) ||
                              (s->partner_revealed && s->partner == me));
        int32_t a = choose_play(s, me, me_partner, rng);
        if (a < 0) return CC_E_ARG; /* not a state the game makes */
        *action = a;
        return CC_OK;
    }
    uint64_t mask[CC_MASK_WORDS] = {0};
    if (cc_game_nancy.legal_actions(s, mask) <= 0) return CC_E_ARG;
    /* the holder of the called card knows he is the Partner */
    int32_t me_partner = me != s->taker && s->called >= 0 &&
                         (cs_has(cs_or(s->hand[me], s->up[me]), s->called) ||
                          (s->partner_revealed && s->partner == me));
    int32_t a = -1;
    switch (s->phase) {
    case CC_NANCY_PH_BID: a = choose_bid(s, mask, me); break;
    case CC_NANCY_PH_CALL: a = choose_call(s, mask, me, rng); break;
    case CC_NANCY_PH_DISCARD: a = choose_discard(s, mask, me, rng); break;
    case CC_NANCY_PH_PICK: a = choose_pick(s, mask, me, me_partner, rng); break;
    default: return CC_E_ARG;
    }
    /* a fallback that cannot happen: each rule picks a legal action */
    *action = cc_mask_or_first(mask, (CC_NANCY_NUM_ACTIONS + 63) / 64, a);
    return CC_OK;
}
