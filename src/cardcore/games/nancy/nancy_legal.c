/* nancy_legal.c: what the Game of Nancy allows (docs/nancy.rst): the
 * per-phase legal sets, the table's legal_actions, verify and reason_text.
 * The transitions are nancy_game.c. */
#include "nancy_internal.h"

/* ---- per-phase legal sets ---------------------------------------------- */

static int dealer_forced_now(const cc_nancy_state *s) {
    if (s->params[CC_NANCY_P_ALL_PASS] != 1 || s->high_bid > 0) return 0;
    uint32_t others = ((1u << s->n) - 1) & ~(1u << s->cur);
    return (s->passed & others) == others;
}

/* Cards the Taker may name (docs/nancy.rst, "The partner call"). */
cc_nancy_cards cc_nancy_callable(const cc_nancy_state *s, uint32_t *required_ranks) {
    static const int32_t ladder[4] = {12, 10, 11, 13};
    cc_nancy_cards held = cs_or(s->hand[s->taker], s->up[s->taker]);
    int32_t self_ok = s->params[CC_NANCY_P_SELF_CALL_ALLOWED] == 1;
    int32_t steps = self_ok ? 2 : 4;
    uint32_t req = 0;
    cc_nancy_cards out = {0, 0};
    for (int32_t i = 0; i < steps; i++) {
        cc_nancy_cards r = rank_set(ladder[i]);
        cc_nancy_cards cand = self_ok ? r : cs_andnot(r, held);
        int held_all = cs_empty(cs_andnot(r, held));
        if (!held_all || i == steps - 1) {
            out = cand;
            break;
        }
        req |= 1u << ladder[i];
    }
    if (required_ranks) *required_ranks = req;
    return out;
}

static inline cc_nancy_cards discard_others(cc_nancy_cards held) {
    cc_nancy_cards o = {held.lo & ~CC_NANCY_KINGS_LO, 0};
    return o;
}

static cc_nancy_cards discardable(const cc_nancy_state *s) {
    cc_nancy_cards held = cs_or(s->hand[s->taker], s->up[s->taker]);
    cc_nancy_cards others = discard_others(held);
    int32_t remaining = s->hsize - s->ndisc;
    if (cs_count(others) >= remaining) return others;
    cc_nancy_cards r = {others.lo, held.hi & CC_NANCY_MID_TRUMPS_HI};
    return r;
}

static cc_nancy_cards playable_now(const cc_nancy_state *s) {
    cc_nancy_cards p = cs_or(s->hand[s->cur], s->up[s->cur]);
    return legal_from(p, s->trick_led, s->trick_high,
                      s->params[CC_NANCY_P_OVERTRUMP_ON_TRUMP_LEAD]);
}

static void mask_cards(uint64_t *mask, cc_nancy_cards set, int32_t base) {
    /* the set as a 78-bit vector by card id (v0: cards 0..63, v1: 64..77):
     * suit s's lane (bits 16 s ..) moves down by 2 s; hi bit t (1..21) is
     * card 55 + t and hi bit 0 card 77; then shifted to base, word-wise (a
     * word is written only where the vector has bits, so nothing past the
     * mask's last action is touched) */
    uint64_t lo = set.lo;
    uint64_t c56 = (lo & CC_NANCY_LANE) | ((lo >> 2) & (CC_NANCY_LANE << 14)) |
                   ((lo >> 4) & (CC_NANCY_LANE << 28)) | ((lo >> 6) & (CC_NANCY_LANE << 42));
    uint64_t t = (set.hi >> 1) & 0x1FFFFFull;
    uint64_t v0 = c56 | (t << 56), v1 = (t >> 8) | ((set.hi & 1) << 13);
    int32_t w = base >> 6, sh = base & 63;
    if (sh == 0) {
        mask[w] |= v0;
        if (v1) mask[w + 1] |= v1;
        return;
    }
    if (v0 << sh) mask[w] |= v0 << sh;
    uint64_t mid = (v0 >> (64 - sh)) | (v1 << sh);
    if (mid) mask[w + 1] |= mid;
    if (v1 >> (64 - sh)) mask[w + 2] |= v1 >> (64 - sh);
}

int32_t cc_nancy_legal_actions(const void *state, uint64_t *mask) {
    const cc_nancy_state *s = (const cc_nancy_state *)state;
    switch (s->phase) {
    case CC_NANCY_PH_BID: {
        int32_t cnt = 0;
        if (!dealer_forced_now(s)) {
            cc_mask_set(mask, CC_NANCY_A_PASS);
            cnt++;
        }
        int32_t lo = s->params[CC_NANCY_P_MIN_BID];
        if (lo <= s->high_bid) lo = s->high_bid + 1;
        for (int32_t b = lo; b <= 9; b++, cnt++) cc_mask_set(mask, b);
        return cnt;
    }
    case CC_NANCY_PH_CALL: {
        cc_nancy_cards c = cc_nancy_callable(s, NULL);
        mask_cards(mask, c, CC_NANCY_A_CALL);
        return cs_count(c);
    }
    case CC_NANCY_PH_DISCARD: {
        cc_nancy_cards d = discardable(s);
        mask_cards(mask, d, CC_NANCY_A_DISCARD);
        return cs_count(d);
    }
    case CC_NANCY_PH_PLAY: {
        cc_nancy_cards p = playable_now(s);
        mask_cards(mask, p, CC_NANCY_A_PLAY);
        return cs_count(p);
    }
    case CC_NANCY_PH_PICK:
        mask_cards(mask, s->pick_set, CC_NANCY_A_PICK);
        return cs_count(s->pick_set);
    default: return 0;
    }
}

enum {
    R_RANGE = 1,
    R_PHASE,
    R_BID_LOW,
    R_BID_MIN,
    R_FORCED,
    R_CALL,
    R_NOT_HELD_DISCARD,
    R_NEVER_DISCARD,
    R_TRUMP_DISCARD,
    R_NOT_HELD_PLAY,
    R_FOLLOW,
    R_OVERTRUMP,
    R_TRUMP,
    R_PICK,
    R_COUNT
};

static const char *const REASONS[R_COUNT] = {
    "legal",
    "action out of range",
    "not an action of the current phase",
    "bid not higher than the highest bid",
    "bid below the minimum bid",
    "the last player may not pass when all others passed (all_pass=dealer_forced)",
    "that card may not be called",
    "the Taker does not hold that card",
    "Trumps I and XXI, Kings and the Outsider may never be discarded",
    "trumps may be discarded only when short of other cards",
    "you do not hold that card (or it is face-down)",
    "must follow the led suit",
    "must play a higher trump",
    "must play a trump",
    "that card is not eligible for the exchange",
};

const char *cc_nancy_reason_text(int32_t reason) {
    if (reason <= 0 || reason >= R_COUNT) return "unknown reason";
    return REASONS[reason];
}

int32_t cc_nancy_verify(const void *state, int32_t a) {
    const cc_nancy_state *s = (const cc_nancy_state *)state;
    if (s->phase == CC_NANCY_PH_OVER) return CC_E_GAME_OVER;
    if (a < 0 || a >= CC_NANCY_NUM_ACTIONS) return R_RANGE;
    switch (s->phase) {
    case CC_NANCY_PH_BID:
        if (a >= CC_NANCY_A_CALL) return R_PHASE;
        if (a == CC_NANCY_A_PASS) return dealer_forced_now(s) ? R_FORCED : 0;
        if (a < s->params[CC_NANCY_P_MIN_BID]) return R_BID_MIN;
        if (a <= s->high_bid) return R_BID_LOW;
        return 0;
    case CC_NANCY_PH_CALL:
        if (a < CC_NANCY_A_CALL || a >= CC_NANCY_A_DISCARD) return R_PHASE;
        return cs_has(cc_nancy_callable(s, NULL), a - CC_NANCY_A_CALL) ? 0 : R_CALL;
    case CC_NANCY_PH_DISCARD: {
        if (a < CC_NANCY_A_DISCARD || a >= CC_NANCY_A_PLAY) return R_PHASE;
        int32_t c = a - CC_NANCY_A_DISCARD;
        cc_nancy_cards held = cs_or(s->hand[s->taker], s->up[s->taker]);
        if (!cs_has(held, c)) return R_NOT_HELD_DISCARD;
        if (c == CC_NANCY_OUTSIDER || c == 56 || c == 76 || (c < 56 && c % 14 == 13))
            return R_NEVER_DISCARD;
        if (is_trump(c) && !cs_has(discardable(s), c)) return R_TRUMP_DISCARD;
        return 0;
    }
    case CC_NANCY_PH_PLAY: {
        if (a < CC_NANCY_A_PLAY || a >= CC_NANCY_A_PICK) return R_PHASE;
        int32_t c = a - CC_NANCY_A_PLAY;
        cc_nancy_cards p = cs_or(s->hand[s->cur], s->up[s->cur]);
        if (!cs_has(p, c)) return R_NOT_HELD_PLAY;
        if (cs_has(playable_now(s), c)) return 0;
        int32_t led = s->trick_led, high = s->trick_high;
        if (led < 4 && (p.lo & (CC_NANCY_LANE << (16 * led)))) return R_FOLLOW;
        if (!is_trump(c)) {
            uint64_t higher = p.hi & CC_NANCY_TRUMPS_HI & ~((2ull << high) - 1);
            return (led < 4 && higher) ? R_OVERTRUMP : R_TRUMP;
        }
        return R_OVERTRUMP;
    }
    case CC_NANCY_PH_PICK:
        if (a < CC_NANCY_A_PICK) return R_PHASE;
        return cs_has(s->pick_set, a - CC_NANCY_A_PICK) ? 0 : R_PICK;
    default: return R_PHASE;
    }
}
