/* notakers_bot.c: the No Takers? heuristic (docs/notakers.rst, "The heuristic
 * bot").
 *
 * On his turn the bot
 *   1. saves the sets of the best split of his hand, when they are three
 *      cards or more (a Save in progress goes on with those cards, then
 *      ends; one it cannot finish is cancelled);
 *   2. else asks for the card it most wants: a rank it holds (in hand or
 *      save pile), or one card that lengthens a run it holds, scored by the
 *      points the card would add times the chance that some hand holds one
 *      (sure when he knows it, from what he was given or saw; none when
 *      every such card is known to be elsewhere), asking the seat known to
 *      hold one, else the seat with the most cards in hand not known to
 *      lack it;
 *   3. else, when no ask is worth a point in expectation or more than a
 *      draw (as many cards as players, each worth what an unseen card would
 *      add on average), draws; from turn 200 on it always draws, so that a
 *      game between heuristic players ends.
 * Asked, it gives one matching card, the one whose loss costs its split
 * least, and stops; with No Takers it gives away its least useful cards.
 * "Least useful": the fewest points lost from the best split of hand and
 * save pile, then the fewest cards of the same rank or close in the same
 * suit, then the lower card; the generator breaks what is left of a tie.
 * It reads its own hand, save pile and selection, the public counts, and
 * what it knows of the other seats' hands (cc_notakers_knowledge), never
 * another hand or the draw pile. */
#include "notakers_internal.h"

#define ASK_TURNS 200

static inline uint64_t rank_mask(int32_t r) { return 0x0001000100010001ULL << r; }

/* The cards of cards that are in some set: two or more of a rank, or three
 * or more consecutive of a suit (where ace_in_runs lets the Ace stand). */
static uint64_t set_cards(uint64_t cards, int32_t ace) {
    uint64_t a = cc_lane(cards, 0), b = cc_lane(cards, 1), c = cc_lane(cards, 2),
             d = cc_lane(cards, 3);
    uint64_t two = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d); /* ranks held twice */
    uint64_t out = cards & two * 0x0001000100010001ULL;
    for (int32_t su = 0; su < 4; su++) {
        uint32_t x = cc_lane(cards, su), cover = 0;
        if (ace != CC_NOTAKERS_ACE_HIGH) {
            uint32_t x3 = x & x >> 1 & x >> 2;
            cover |= x3 | x3 << 1 | x3 << 2;
        }
        if (ace != CC_NOTAKERS_ACE_LOW) { /* ranks 2..K, A as bits 0..12 */
            uint32_t h = (x >> 1) | ((x & 1u) << 12);
            uint32_t h3 = h & h >> 1 & h >> 2;
            uint32_t ch = h3 | h3 << 1 | h3 << 2;
            cover |= ((ch << 1) & 0x1FFEu) | (ch >> 12 & 1u);
        }
        out |= (uint64_t)(cover & 0x1FFFu) << (16 * su);
    }
    return out;
}

/* Near cards of c in mine: same rank, or the same suit within two ranks. */
static int32_t closeness(uint64_t mine, int32_t c) {
    int32_t r = c % 13, s = c / 13;
    uint32_t lane = cc_lane(mine, s);
    uint32_t near = lane & (0x1Fu << (r + 2) >> 4); /* ranks r-2..r+2 */
    near &= ~(1u << r);
    return cc_popcount64(mine & rank_mask(r) & ~cc_bit_of(c)) * 2 + cc_popcount64(near);
}

/* The least useful card of cands (a subset of mine) to part with. */
static int32_t least_useful(uint64_t cands, uint64_t mine, int32_t ace, cc_rng *rng) {
    if (cc_popcount64(cands) == 1) return cc_card52_id_of_bit(cc_ctz64(cands));
    /* cards in no set take no part in the split: score the others only */
    uint64_t in_sets = set_cards(mine, ace);
    int32_t base = (cands & in_sets) ? cc_notakers_points(in_sets, ace) : 0;
    cc_chooser ch = CC_CHOOSER_INIT; /* by the negated cost */
    for (uint64_t x = cands; x; x &= x - 1) {
        int32_t c = cc_card52_id_of_bit(cc_ctz64(x));
        /* a card in no set costs no points */
        int32_t loss = (x & -x & in_sets) ? base - cc_notakers_points(in_sets & ~(x & -x), ace) : 0;
        int64_t cost = ((int64_t)loss * 64 + closeness(mine, c)) * 16 + c % 13;
        cc_choose(&ch, c, -cost, rng);
    }
    return ch.pick;
}

/* The cards the bot saves from hand: those in some set, or, when the saved
 * cards must split into sets and those do not, the sets of the best split. */
static uint64_t save_plan(uint64_t hand, const int32_t *p) {
    int32_t ace = p[CC_NOTAKERS_P_ACE_IN_RUNS];
    uint64_t plan = set_cards(hand, ace);
    if (!p[CC_NOTAKERS_P_SAVE_REQUIRES_SET] || cc_notakers_splits_exactly(plan, ace) == 1)
        return plan;
    cc_notakers_split sp;
    if (cc_notakers_best_split(hand, ace, p[CC_NOTAKERS_P_TIEBREAK_ACE], &sp) != CC_OK) return 0;
    plan = 0;
    for (int32_t i = 0; i < sp.nsets; i++) plan |= sp.sets[i].cards;
    return plan;
}

/* What card c adds to the runs of its suit in mine (a run of k >= 3 is
 * worth k): the run through c, less the runs it joins.  Same-rank sets that
 * might compete for the cards are left out. */
static int32_t run_gain(uint64_t mine, int32_t c, int32_t ace) {
    uint32_t x = cc_lane(mine, c / 13);
    int32_t r = c % 13;
    /* ranks as positions 0..13: A low at 0 (if allowed), 2..K at 1..12, A
     * high at 13 (if allowed) */
    uint32_t line = x >> 1 << 1; /* 2..K at their rank bits 1..12 */
    if (ace != CC_NOTAKERS_ACE_HIGH) line |= x & 1u;
    if (ace != CC_NOTAKERS_ACE_LOW) line |= (x & 1u) << 13;
    int32_t best = 0;
    for (int32_t pos = (r == 0 ? 0 : r); pos <= (r == 0 ? 13 : r); pos += 13) {
        if (r == 0 && ((pos == 0 && ace == CC_NOTAKERS_ACE_HIGH) ||
                       (pos == 13 && ace == CC_NOTAKERS_ACE_LOW)))
            continue;
        int32_t below = 0, above = 0;
        while (pos - below - 1 >= 0 && (line >> (pos - below - 1) & 1)) below++;
        while (pos + above + 1 <= 13 && (line >> (pos + above + 1) & 1)) above++;
        int32_t len = below + above + 1;
        int32_t g = (len >= 3 ? len : 0) - (below >= 3 ? below : 0) - (above >= 3 ? above : 0);
        if (g > best) best = g;
    }
    return best;
}

static inline int32_t legal(const uint64_t *mask, int32_t a) {
    return (int32_t)(mask[a >> 6] >> (a & 63) & 1);
}

/* The ask (or draw) of step 2 and 3 above. */
static int32_t choose_ask(const nt_state *st, int32_t me, cc_rng *rng) {
    int32_t n = st->n, ace = st->params[CC_NOTAKERS_P_ACE_IN_RUNS];
    uint64_t mine = st->hand[me] | st->save[me];
    /* after ASK_TURNS turns it only draws: a game between heuristic players
     * ends even if their asks would pass the same cards to and fro */
    if (st->turns >= ASK_TURNS) return CC_NOTAKERS_A_DRAW;
    uint64_t know[24];
    if (cc_notakers_knowledge(st, me, know) != CC_OK) return CC_NOTAKERS_A_DRAW;
    /* cards that may be in another hand: not mine, not known to be in a
     * save pile (open piles), not known to be out of every other hand */
    uint64_t elsewhere = 0, known_in = 0, lacks_all = CC_DECK52_MASK;
    int32_t other_hands = 0;
    for (int32_t k = 1; k < n; k++) {
        int32_t q = (me + k) % n;
        if (st->params[CC_NOTAKERS_P_SAVE_VISIBILITY] == CC_NOTAKERS_SAVES_OPEN)
            elsewhere |= st->save[q];
        known_in |= know[q];
        lacks_all &= know[16 + q] | ~(uint64_t)0 * (st->hand[q] == 0);
        other_hands += cc_popcount64(st->hand[q]);
    }
    uint64_t possible = CC_DECK52_MASK & ~mine & ~elsewhere & ~lacks_all;
    /* the unknown cards lie in the other hands, the hidden save piles and
     * the draw pile: the chance that one of them is in some hand */
    int32_t hidden_saves = 0;
    if (st->params[CC_NOTAKERS_P_SAVE_VISIBILITY] != CC_NOTAKERS_SAVES_OPEN)
        for (int32_t k = 1; k < n; k++) hidden_saves += cc_popcount64(st->save[(me + k) % n]);
    int32_t known_cards = cc_popcount64(known_in & ~mine);
    int32_t in_hands = other_hands - known_cards;
    int32_t pool = in_hands + hidden_saves + (CC_NUM_CARDS52 - st->top);
    if (in_hands < 0) in_hands = 0;
    if (pool < 1) pool = 1;
    /* candidates: descriptor d with its points per 1024 (gain x chance) */
    cc_chooser ask = CC_CHOOSER_INIT;
    for (int32_t d = 0; d < CC_NOTAKERS_D_CARD + CC_NUM_CARDS52; d++) {
        if (d >= CC_NOTAKERS_D_SUIT && d < CC_NOTAKERS_D_CARD) continue; /* no suit asks */
        uint64_t match = d < 13 ? rank_mask(d) : cc_bit_of(d - CC_NOTAKERS_D_CARD);
        if (d < 13 && !(mine & match)) continue;
        uint64_t want = match & possible;
        if (!want) continue;
        int32_t gain;
        if (d < 13) {
            /* a rank: what one more card adds to its same-rank set (a pair
             * 1, three 2, four 5) */
            static const int32_t more[4] = {0, 1, 1, 3};
            gain = more[cc_popcount64(mine & match)];
        } else {
            /* one card: only one that ends a run of three or more of its
             * suit with the cards it holds */
            if (!(set_cards(mine | match, ace) & match)) continue;
            gain = run_gain(mine, d - CC_NOTAKERS_D_CARD, ace);
        }
        if (gain <= 0) continue;
        /* chance (per 1024) that a hand holds one: sure if known, else
         * 1 - (1 - in_hands / pool)^copies */
        int64_t chance;
        if (want & known_in) {
            chance = 1024;
        } else {
            int64_t miss = 1024;
            for (int32_t i = cc_popcount64(want); i > 0; i--)
                miss = miss * (pool - in_hands) / pool;
            chance = 1024 - miss;
        }
        int64_t value = chance * gain;
        cc_choose(&ask, d, value, rng);
    }
    int32_t best_d = ask.pick;
    int64_t best = ask.best;
    if (best_d < 0 || best < 1024) return CC_NOTAKERS_A_DRAW;
    /* a draw: as many cards as players (or what is left), each worth what
     * an unseen card adds on average */
    uint64_t unseen = CC_DECK52_MASK & ~mine & ~elsewhere & ~known_in;
    int32_t nunseen = cc_popcount64(unseen), left = CC_NUM_CARDS52 - st->top;
    int32_t take = left < n ? left : n;
    int64_t sum = 0;
    for (uint64_t u = unseen; u; u &= u - 1) {
        int32_t c = cc_card52_id_of_bit(cc_ctz64(u));
        static const int32_t more[4] = {0, 1, 1, 3};
        int32_t g = more[cc_popcount64(mine & rank_mask(c % 13)) & 3];
        int32_t r = run_gain(mine, c, ace);
        sum += r > g ? r : g;
    }
    if (nunseen > 0 && best * nunseen <= 1024 * take * sum) return CC_NOTAKERS_A_DRAW;
    /* whom to ask: a seat known to hold one, else the most cards in hand
     * not known to lack it */
    uint64_t match = best_d < 13 ? rank_mask(best_d) : cc_bit_of(best_d - CC_NOTAKERS_D_CARD);
    cc_chooser whom = CC_CHOOSER_INIT;
    for (int32_t k = 1; k < n; k++) {
        int32_t q = (me + k) % n;
        int32_t sc;
        if (know[q] & match & ~mine) sc = 1000;
        else if (!(match & ~know[16 + q] & possible)) sc = 0;
        else sc = 1 + cc_popcount64(st->hand[q]);
        cc_choose(&whom, k, sc, rng);
    }
    if (whom.best <= 1) return CC_NOTAKERS_A_DRAW; /* nobody can have one in hand */
    return CC_NOTAKERS_A_ASK + CC_NOTAKERS_NUM_DESCRIPTORS * (whom.pick - 1) + best_d;
}

int32_t cc_notakers_heuristic(const void *state, cc_rng *rng, int32_t *action) {
    const nt_state *st = (const nt_state *)state;
    if (st == NULL || rng == NULL || action == NULL) return CC_E_ARG;
    if (st->phase == CC_NOTAKERS_PHASE_OVER) return CC_E_GAME_OVER;
    int32_t me = st->actor;
    if (me < 0 || me >= st->n) return CC_E_ARG;
    uint64_t mask[CC_MASK_WORDS] = {0};
    if (cc_game_notakers.legal_actions(st, mask) <= 0) return CC_E_ARG;
    uint64_t hand = st->hand[me], mine = hand | st->save[me];
    int32_t ace = st->params[CC_NOTAKERS_P_ACE_IN_RUNS];
    int32_t a = -1;
    switch (st->phase) {
    case CC_NOTAKERS_PHASE_TURN: {
        uint64_t plan = save_plan(hand, st->params);
        if (cc_popcount64(plan) >= 3) {
            int32_t c = cc_card52_id_of_bit(cc_ctz64(plan));
            if (legal(mask, CC_NOTAKERS_A_SAVE + c)) {
                a = CC_NOTAKERS_A_SAVE + c;
                break;
            }
        }
        a = choose_ask(st, me, rng);
        break;
    }
    case CC_NOTAKERS_PHASE_SAVE: {
        uint64_t todo = save_plan(hand, st->params) & ~st->selection;
        if (todo) {
            a = CC_NOTAKERS_A_SAVE + cc_card52_id_of_bit(cc_ctz64(todo));
        } else if (legal(mask, CC_NOTAKERS_A_SAVE_DONE)) {
            a = CC_NOTAKERS_A_SAVE_DONE;
        } else if (cc_popcount64(st->selection) < 3 &&
                   !st->params[CC_NOTAKERS_P_SAVE_REQUIRES_SET] && (hand & ~st->selection)) {
            uint64_t rest = hand & ~st->selection;
            a = CC_NOTAKERS_A_SAVE + least_useful(rest, mine, ace, rng);
        } else {
            a = CC_NOTAKERS_A_SAVE_CANCEL;
        }
        break;
    }
    case CC_NOTAKERS_PHASE_GIVE:
    case CC_NOTAKERS_PHASE_FALLBACK:
        if (st->given >= 1 && legal(mask, CC_NOTAKERS_A_GIVE_DONE)) {
            a = CC_NOTAKERS_A_GIVE_DONE;
            break;
        }
        a = CC_NOTAKERS_A_GIVE + least_useful(hand & st->ask_match, mine, ace, rng);
        break;
    case CC_NOTAKERS_PHASE_NO_TAKERS:
        a = CC_NOTAKERS_A_GIVE + least_useful(hand, mine, ace, rng);
        break;
    default: return CC_E_ARG;
    }
    /* a fallback that cannot happen: every branch picks a legal action */
    *action = cc_mask_or_first(mask, (CC_MAX_ACTIONS + 63) / 64, a);
    return CC_OK;
}
