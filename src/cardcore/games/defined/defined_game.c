/* defined_game.c: the rules interpreter of the games defined from Python
 * (docs/define.rst): the trick-taking family, run over a compiled table,
 * and the registry of those tables.
 *
 * The registry is the engine's one process-wide store: an append-only array
 * of slots written under a spin lock when a definition is registered, and a
 * count published with release semantics after the slot is complete, so
 * readers (cc_game_by_index, every state's table look-up) never wait and
 * never see a slot being written.  A slot never changes once counted. */
#include <stdatomic.h>

#include "defined_internal.h"

typedef struct defined_slot {
    cc_game game;
    int32_t table[CC_DEFINED_TABLE_LEN];
    char name[CC_DEFINED_MAX_NAME];
    cc_action_range ranges[2];
} defined_slot;

static defined_slot slots[CC_DEFINED_MAX_GAMES];
static atomic_int slot_count;
static atomic_flag slot_lock = ATOMIC_FLAG_INIT;

const int32_t *cc_defined_table(int32_t slot) { return slots[slot].table; }

int32_t cc_defined_count(void) { return atomic_load_explicit(&slot_count, memory_order_acquire); }

const cc_game *cc_defined_game(int32_t i) {
    if (i < 0 || i >= cc_defined_count()) return NULL;
    return &slots[i].game;
}

/* ---- checking a definition ---------------------------------------------- */

static int32_t in_range(const int32_t *T, int32_t f, int32_t lo, int32_t hi, int32_t *bad) {
    if (T[f] < lo || T[f] > hi) {
        *bad = f;
        return 0;
    }
    return 1;
}

/* The hand size of deal k for n players (0 if n is not dealt). */
static int32_t hand_size_of(const int32_t *T, int32_t n, int32_t k) {
    int32_t h = T[CC_DEFINED_F_SCHEDULE + k % T[CC_DEFINED_F_SCHEDULE_LEN]];
    int32_t deck = cc_popcount64(def_deck(T));
    return h == 0 ? deck / n : h;
}

int32_t cc_defined_check(const int32_t *T, int32_t len, int32_t *bad) {
    int32_t ignored;
    if (bad == NULL) bad = &ignored;
    *bad = -1;
    if (T == NULL || len != CC_DEFINED_TABLE_LEN) return CC_E_ARG;
    int32_t ok = in_range(T, CC_DEFINED_F_VERSION, CC_DEFINED_VERSION, CC_DEFINED_VERSION, bad) &&
                 in_range(T, CC_DEFINED_F_MIN_PLAYERS, 2, CC_DEFINED_MAX_PLAYERS, bad) &&
                 in_range(T, CC_DEFINED_F_MAX_PLAYERS, T[CC_DEFINED_F_MIN_PLAYERS],
                          CC_DEFINED_MAX_PLAYERS, bad) &&
                 in_range(T, CC_DEFINED_F_RANKS, 1, 0x1FFF, bad);
    for (int32_t r = 0; ok && r < 13; r++)
        ok = in_range(T, CC_DEFINED_F_RANK_ORDER + r, 0, 12, bad);
    ok = ok && in_range(T, CC_DEFINED_F_SCHEDULE_LEN, 1, CC_DEFINED_MAX_SCHEDULE, bad);
    for (int32_t k = 0; ok && k < CC_DEFINED_MAX_SCHEDULE; k++)
        ok = in_range(T, CC_DEFINED_F_SCHEDULE + k, 0,
                      k < T[CC_DEFINED_F_SCHEDULE_LEN] ? CC_DEFINED_MAX_HAND : 0, bad);
    ok = ok && in_range(T, CC_DEFINED_F_NUM_DEALS, 0, 1000, bad) &&
         in_range(T, CC_DEFINED_F_TARGET, -100000, 100000, bad) &&
         in_range(T, CC_DEFINED_F_PASS_COUNT, 0, 6, bad) &&
         in_range(T, CC_DEFINED_F_PASS_DIRS_LEN, T[CC_DEFINED_F_PASS_COUNT] ? 1 : 0,
                  CC_DEFINED_MAX_PASS_DIRS, bad);
    for (int32_t k = 0; ok && k < CC_DEFINED_MAX_PASS_DIRS; k++)
        ok = in_range(T, CC_DEFINED_F_PASS_DIRS + k, 0,
                      k < T[CC_DEFINED_F_PASS_DIRS_LEN] ? CC_DEFINED_MAX_PLAYERS - 1 : 0, bad);
    ok = ok && in_range(T, CC_DEFINED_F_BIDDING, 0, 1, bad) &&
         in_range(T, CC_DEFINED_F_NIL, 0, T[CC_DEFINED_F_CONTRACT] ? 1 : 0, bad) &&
         in_range(T, CC_DEFINED_F_HOOK, 0, T[CC_DEFINED_F_BIDDING], bad) &&
         in_range(T, CC_DEFINED_F_TRUMP, 0, 3, bad) &&
         in_range(T, CC_DEFINED_F_TRUMP_SUIT, T[CC_DEFINED_F_TRUMP] == 1 ? 0 : -1,
                  T[CC_DEFINED_F_TRUMP] == 1 ? 3 : -1, bad) &&
         in_range(T, CC_DEFINED_F_MUST_TRUMP, 0, T[CC_DEFINED_F_TRUMP] ? 1 : 0, bad) &&
         in_range(T, CC_DEFINED_F_MUST_OVERTRUMP, 0, T[CC_DEFINED_F_TRUMP] ? 1 : 0, bad) &&
         in_range(T, CC_DEFINED_F_LEAD, 0, 1, bad) &&
         in_range(T, CC_DEFINED_F_LEAD_CARD, T[CC_DEFINED_F_LEAD] ? 0 : -1,
                  T[CC_DEFINED_F_LEAD] ? 51 : -1, bad);
    if (ok && T[CC_DEFINED_F_LEAD] && !(def_deck(T) >> T[CC_DEFINED_F_LEAD_CARD] & 1)) {
        *bad = CC_DEFINED_F_LEAD_CARD;
        ok = 0;
    }
    ok = ok && in_range(T, CC_DEFINED_F_BREAK_SUIT, -1, 3, bad) &&
         in_range(T, CC_DEFINED_F_NO_POINTS_FIRST, 0, 1, bad);
    for (int32_t c = 0; ok && c < 52; c++)
        ok = in_range(T, CC_DEFINED_F_CARD_POINTS + c, -1000, 1000, bad);
    ok = ok && in_range(T, CC_DEFINED_F_MOON, 0, 1, bad) &&
         in_range(T, CC_DEFINED_F_TRICK_POINTS, -1000, 1000, bad) &&
         in_range(T, CC_DEFINED_F_BOOK, 0, CC_DEFINED_MAX_HAND * 2, bad) &&
         in_range(T, CC_DEFINED_F_PARTNERS, 0,
                  T[CC_DEFINED_F_MIN_PLAYERS] == 4 && T[CC_DEFINED_F_MAX_PLAYERS] == 4 ? 1 : 0,
                  bad) &&
         in_range(T, CC_DEFINED_F_CONTRACT, 0, T[CC_DEFINED_F_BIDDING] ? 2 : 0, bad) &&
         in_range(T, CC_DEFINED_F_MADE_BONUS, -1000, 1000, bad) &&
         in_range(T, CC_DEFINED_F_MADE_PER_BID, -1000, 1000, bad) &&
         in_range(T, CC_DEFINED_F_SET_PER_BID, -1000, 1000, bad) &&
         in_range(T, CC_DEFINED_F_OVER_PER_TRICK, -1000, 1000, bad) &&
         in_range(T, CC_DEFINED_F_BAG_LIMIT, 0, 100, bad) &&
         in_range(T, CC_DEFINED_F_BAG_PENALTY, -10000, 10000, bad) &&
         in_range(T, CC_DEFINED_F_NIL_BONUS, -10000, 10000, bad) &&
         in_range(T, CC_DEFINED_F_TRICK_POINTS_ALWAYS, 0, 1, bad) &&
         in_range(T, CC_DEFINED_F_FLOOR, -100000, 0, bad) &&
         in_range(T, CC_DEFINED_F_BREAK_BY, T[CC_DEFINED_F_BREAK_SUIT] >= 0 ? -2 : -1,
                  T[CC_DEFINED_F_BREAK_SUIT] >= 0 ? 51 : -1, bad) &&
         in_range(T, CC_DEFINED_F_SIDE_LIMIT, 0,
                  T[CC_DEFINED_F_BIDDING] && T[CC_DEFINED_F_PARTNERS] ? 1 : 0, bad) &&
         in_range(T, CC_DEFINED_F_NIL_TRICKS, 0, T[CC_DEFINED_F_NIL], bad);
    if (ok && T[CC_DEFINED_F_NUM_DEALS] == 0 && T[CC_DEFINED_F_TARGET] == 0) {
        *bad = CC_DEFINED_F_NUM_DEALS; /* a game must end */
        ok = 0;
    }
    /* every player count is dealt: hands (and the turn-up) fit the deck */
    int32_t deck = ok ? cc_popcount64(def_deck(T)) : 0;
    for (int32_t n = T[CC_DEFINED_F_MIN_PLAYERS]; ok && n <= T[CC_DEFINED_F_MAX_PLAYERS]; n++) {
        for (int32_t k = 0; ok && k < T[CC_DEFINED_F_SCHEDULE_LEN]; k++) {
            int32_t h = hand_size_of(T, n, k);
            int32_t need = n * h + (T[CC_DEFINED_F_TRUMP] == CC_DEFINED_TRUMP_TURNUP);
            if (h < 1 || h > CC_DEFINED_MAX_HAND || need > deck ||
                h <= T[CC_DEFINED_F_PASS_COUNT]) {
                *bad = CC_DEFINED_F_SCHEDULE + k;
                ok = 0;
            }
        }
        for (int32_t k = 0; ok && k < T[CC_DEFINED_F_PASS_DIRS_LEN]; k++)
            if (T[CC_DEFINED_F_PASS_DIRS + k] >= n) {
                *bad = CC_DEFINED_F_PASS_DIRS + k;
                ok = 0;
            }
    }
    return ok ? CC_OK : CC_E_PARAMS;
}

/* ---- the tables every defined game shares ------------------------------- */

static const cc_param defined_params[CC_DEFINED_NUM_PARAMS] = {
    {.name = "first_dealer",
     .kind = CC_PARAM_OPTIONAL,
     .min = 0,
     .max = CC_MAX_PLAYERS - 1,
     .default_value = -1,
     .none_value = -1,
     .doc = "the first dealer's seat, or None to draw him from the seed"},
};

static const cc_event_kind defined_event_kinds[] = {
    {"new_deal", CC_VALUE_NUMBER, "player deals deal number value"},
    {"deal_card", CC_VALUE_CARD, "player is dealt card value"},
    {"turnup", CC_VALUE_CARD, "value is turned up (player: the dealer); extra: the trump suit"},
    {"pass", CC_VALUE_CARD, "player passes value to target"},
    {"receive", CC_VALUE_CARD, "player receives value from target"},
    {"bid", CC_VALUE_NUMBER, "player bids value tricks"},
    {"play", CC_VALUE_CARD, "player plays value"},
    {"trick", CC_VALUE_NUMBER, "player wins trick number extra, worth value card points"},
    {"score", CC_VALUE_NUMBER, "player scores value for the deal; extra: the new total"},
    {"game_over", CC_VALUE_NUMBER, "the game ends; player: the best seat, value its score"},
};

static const char *defined_reason_text(int32_t r) {
    switch (r) {
    case CC_DEFINED_R_INVALID: return "not an action of this phase of the game";
    case CC_DEFINED_R_NOT_HELD: return "the card is not in the player's hand";
    case CC_DEFINED_R_FOLLOW: return "the player must follow suit";
    case CC_DEFINED_R_TRUMP: return "the player must trump";
    case CC_DEFINED_R_OVERTRUMP: return "the player must beat the best trump";
    case CC_DEFINED_R_BROKEN: return "that suit may not be led before it is broken";
    case CC_DEFINED_R_LEAD_CARD: return "the first lead is a given card";
    case CC_DEFINED_R_FIRST_TRICK: return "no point card may be played to the first trick";
    case CC_DEFINED_R_HOOK: return "the dealer's bid may not make the bids total the tricks";
    case CC_DEFINED_R_SIDE_LIMIT: return "partners' bids may not total more than the tricks";
    default: return "unknown reason";
    }
}

static int32_t max_hand(const int32_t *T, int32_t n) {
    int32_t m = 0;
    for (int32_t k = 0; k < T[CC_DEFINED_F_SCHEDULE_LEN]; k++) {
        int32_t h = hand_size_of(T, n < 2 ? T[CC_DEFINED_F_MIN_PLAYERS] : n, k);
        if (h > m) m = h;
    }
    return m;
}

static int32_t slot_check_params(int32_t slot, const int32_t *p, int32_t n, int32_t *bad) {
    const int32_t *T = cc_defined_table(slot);
    if (n != 0 && (n < T[CC_DEFINED_F_MIN_PLAYERS] || n > T[CC_DEFINED_F_MAX_PLAYERS]))
        return CC_E_PLAYERS;
    if (n != 0 && p[CC_DEFINED_P_FIRST_DEALER] >= n) {
        *bad = CC_DEFINED_P_FIRST_DEALER;
        return CC_E_PARAMS;
    }
    return CC_OK;
}

/* The bids of the widest table: the action space is the same for every
 * player count (the most tricks any deal has, at the fewest players). */
static int32_t slot_num_actions(int32_t slot, const int32_t *p, int32_t n) {
    (void)p, (void)n;
    const int32_t *T = cc_defined_table(slot);
    return CC_DEFINED_A_BID + (T[CC_DEFINED_F_BIDDING] ? max_hand(T, 0) + 1 : 0);
}

/* The observation tensor (docs/define.rst, "The observation"). */
#define SEG_FIXED 8
static int32_t slot_segments(int32_t slot, const int32_t *p, int32_t n, cc_segment *out,
                             int32_t cap) {
    (void)slot, (void)p;
    int32_t o = 0, k = 0;
    cc_segment segs[12];
    segs[k++] = (cc_segment){"hand", o, 52, CC_SEG_CARDS, 1, 0, "the observer's cards"};
    o += 52;
    segs[k++] = (cc_segment){"trick",
                             o,
                             52 * n,
                             CC_SEG_SEAT_CARDS,
                             1,
                             0,
                             "the card each seat has played to the trick, from the observer"};
    o += 52 * n;
    segs[k++] = (cc_segment){
        "played", o, 52, CC_SEG_CARDS, 1, 0, "the cards of this deal's finished tricks"};
    o += 52;
    segs[k++] = (cc_segment){"turnup", o, 52, CC_SEG_CARD, 1, 0, "the turned-up card"};
    o += 52;
    segs[k++] = (cc_segment){"trump", o, 4, CC_SEG_ONE_HOT, 1, 0, "the trump suit"};
    o += 4;
    segs[k++] = (cc_segment){"passed", o, 52, CC_SEG_CARDS, 1, 0, "the cards the observer passed"};
    o += 52;
    segs[k++] =
        (cc_segment){"received", o, 52, CC_SEG_CARDS, 1, 0, "the cards the observer received"};
    o += 52;
    segs[k++] = (cc_segment){"bids",
                             o,
                             n,
                             CC_SEG_SEAT_NUMBERS,
                             1,
                             0,
                             "each seat's bid (-1: none yet), from the observer"};
    o += n;
    segs[k++] = (cc_segment){"tricks",
                             o,
                             n,
                             CC_SEG_SEAT_NUMBERS,
                             1,
                             0,
                             "the tricks each seat has won this deal, from the observer"};
    o += n;
    segs[k++] = (cc_segment){
        "scores", o, n, CC_SEG_SEAT_NUMBERS, 1, 0, "each seat's score, from the observer"};
    o += n;
    segs[k++] = (cc_segment){"phase", o, 3, CC_SEG_ONE_HOT, 1, 0, "passing, bidding or playing"};
    o += 3;
    segs[k++] = (cc_segment){"dealer", o, n, CC_SEG_SEAT, 1, 0, "the dealer, from the observer"};
    return cc_segments_put(out, cap, 0, segs, k);
}

static int32_t slot_tensor_size(int32_t slot, const int32_t *p, int32_t n) {
    (void)slot, (void)p;
    return 52 * (n + 5) + 4 + 3 + 4 * n;
}

/* ---- dealing -------------------------------------------------------------- */

static void push(defined_state *s, int32_t kind, int32_t player, int32_t target, int32_t value,
                 int32_t extra, uint32_t seen) {
    cc_log_event(&s->log, kind, player, target, value, extra, seen);
}

static void first_lead(defined_state *s);

static void start_deal(defined_state *s) {
    const int32_t *T = def_table(s);
    int32_t n = s->n;
    uint8_t order[52];
    int32_t m = 0;
    if (s->nstack > 0) {
        for (int32_t i = 0; i < s->nstack; i++) order[m++] = s->stack[i];
        s->nstack = 0;
    } else {
        uint64_t d = def_deck(T);
        for (int32_t c = 0; c < 52; c++)
            if (d >> c & 1) order[m++] = (uint8_t)c;
        cc_rng_shuffle_u8(&s->rng, order, m);
    }
    s->hand_size = hand_size_of(T, n, s->deal_no);
    push(s, CC_DEFINED_EV_NEW_DEAL, s->dealer, -1, s->deal_no, 0, CC_SEEN_ALL);
    for (int32_t q = 0; q < DEF_MAXP; q++) {
        s->hand[q] = s->passed[q] = s->received[q] = s->played_by[q] = 0;
        s->voids[q] = 0;
        s->bid[q] = -1;
        s->trick[q] = -1;
        s->tricks[q] = s->points[q] = s->point_cards[q] = 0;
    }
    for (int32_t k = 0; k < n * s->hand_size; k++) {
        int32_t q = (s->dealer + 1 + k) % n;
        s->hand[q] |= def_bit(order[k]);
        push(s, CC_DEFINED_EV_DEAL_CARD, q, -1, order[k], 0, 1u << q);
    }
    s->gone = 0;
    s->turnup = -1;
    s->trump = T[CC_DEFINED_F_TRUMP] == CC_DEFINED_TRUMP_FIXED ? T[CC_DEFINED_F_TRUMP_SUIT] : -1;
    if (T[CC_DEFINED_F_TRUMP] == CC_DEFINED_TRUMP_TURNUP) s->turnup = order[n * s->hand_size];
    else if (T[CC_DEFINED_F_TRUMP] == CC_DEFINED_TRUMP_DEALER)
        s->turnup = order[n * s->hand_size - 1];
    if (s->turnup >= 0) {
        s->trump = def_suit(s->turnup);
        push(s, CC_DEFINED_EV_TURNUP, s->dealer, -1, s->turnup, s->trump, CC_SEEN_ALL);
    }
    s->passers_done = 0;
    s->nbids = 0;
    s->ntrick = 0;
    s->lead_suit = -1;
    s->trick_no = 0;
    s->broken = 0;
    int32_t dir = T[CC_DEFINED_F_PASS_COUNT] && T[CC_DEFINED_F_PASS_DIRS_LEN]
                      ? T[CC_DEFINED_F_PASS_DIRS + s->deal_no % T[CC_DEFINED_F_PASS_DIRS_LEN]]
                      : 0;
    s->to_act = (s->dealer + 1) % n;
    if (dir != 0) {
        s->phase = DEF_PH_PASS;
    } else if (T[CC_DEFINED_F_BIDDING]) {
        s->phase = DEF_PH_BID;
    } else {
        s->phase = DEF_PH_PLAY;
    }
    if (s->phase == DEF_PH_PLAY) first_lead(s);
}

static void first_lead(defined_state *s) {
    const int32_t *T = def_table(s);
    s->phase = DEF_PH_PLAY;
    s->leader = (s->dealer + 1) % s->n;
    if (T[CC_DEFINED_F_LEAD] == CC_DEFINED_LEAD_CARD)
        for (int32_t q = 0; q < s->n; q++)
            if (s->hand[q] >> T[CC_DEFINED_F_LEAD_CARD] & 1) s->leader = q;
    s->to_act = s->leader;
}

static int32_t init_common(int32_t slot, void *state, const int32_t *p, int32_t n, uint64_t seed,
                           const uint8_t *deck, int32_t ndeck) {
    if (state == NULL || p == NULL) return CC_E_ARG;
    int32_t bad;
    int32_t rc = slot_check_params(slot, p, n, &bad);
    if (rc != CC_OK) return rc;
    if (p[0] < -1 || p[0] >= CC_MAX_PLAYERS) return CC_E_PARAMS;
    const int32_t *T = cc_defined_table(slot);
    uint8_t stack[52];
    int32_t m = 0;
    if (deck != NULL) {
        if (!cc_deck_is_permutation(deck, ndeck, 52)) return CC_E_ARG;
        uint64_t d = def_deck(T);
        for (int32_t i = 0; i < 52; i++)
            if (d >> deck[i] & 1) stack[m++] = deck[i];
    }
    defined_state *s = (defined_state *)state;
    memset(s, 0, offsetof(defined_state, log));
    cc_log_init(&s->log, CC_DEFINED_LOG_CAP);
    s->slot = slot;
    s->n = n;
    s->first_dealer = p[0];
    cc_rng_seed(&s->rng, seed);
    int32_t drawn = (int32_t)cc_rng_below(&s->rng, (uint64_t)n);
    s->dealer = p[0] >= 0 ? p[0] : drawn;
    s->nstack = m;
    memcpy(s->stack, stack, (size_t)m);
    start_deal(s);
    return CC_OK;
}

/* ---- play ----------------------------------------------------------------- */

static int32_t defined_current_player(const void *state) {
    const defined_state *s = (const defined_state *)state;
    return s->phase == DEF_PH_OVER ? CC_PLAYER_TERMINAL : s->to_act;
}

uint64_t cc_defined_legal_cards(const defined_state *s) {
    const int32_t *T = def_table(s);
    uint64_t h = s->hand[s->to_act], c = h;
    if (s->ntrick == 0) {
        if (s->trick_no == 0 && T[CC_DEFINED_F_LEAD] == CC_DEFINED_LEAD_CARD &&
            (h >> T[CC_DEFINED_F_LEAD_CARD] & 1))
            return def_bit(T[CC_DEFINED_F_LEAD_CARD]);
        int32_t bs = T[CC_DEFINED_F_BREAK_SUIT];
        if (bs >= 0 && !s->broken && (h & ~def_suit_mask(bs))) c = h & ~def_suit_mask(bs);
    } else {
        uint64_t follow = h & def_suit_mask(s->lead_suit);
        if (follow) {
            c = follow;
        } else if (s->trump >= 0) {
            uint64_t trumps = h & def_suit_mask(s->trump);
            if (T[CC_DEFINED_F_MUST_TRUMP] && trumps) c = trumps;
            if (T[CC_DEFINED_F_MUST_OVERTRUMP] && trumps) {
                int32_t best = -1;
                for (int32_t k = 0; k < s->ntrick; k++) {
                    int32_t card = s->trick[(s->leader + k) % s->n];
                    if (def_suit(card) == s->trump)
                        best = best > def_strength(T, card, s->lead_suit, s->trump)
                                   ? best
                                   : def_strength(T, card, s->lead_suit, s->trump);
                }
                uint64_t over = 0;
                for (uint64_t t = trumps; t; t &= t - 1) {
                    int32_t card = cc_ctz64(t);
                    if (def_strength(T, card, s->lead_suit, s->trump) > best) over |= def_bit(card);
                }
                if (best >= 0 && over) c = over;
            }
        }
    }
    if (s->trick_no == 0 && T[CC_DEFINED_F_NO_POINTS_FIRST]) {
        uint64_t safe = c & ~def_point_cards(T);
        if (safe) c = safe;
    }
    return c;
}

static int32_t bid_allowed(const defined_state *s, int32_t b) {
    const int32_t *T = def_table(s);
    if (b < 0 || b > s->hand_size) return CC_DEFINED_R_INVALID;
    if (T[CC_DEFINED_F_HOOK] && s->nbids == s->n - 1) {
        int32_t total = 0;
        for (int32_t q = 0; q < s->n; q++)
            if (s->bid[q] >= 0) total += s->bid[q];
        if (total + b == s->hand_size) return CC_DEFINED_R_HOOK;
    }
    if (T[CC_DEFINED_F_SIDE_LIMIT]) {
        int32_t partner = s->bid[(s->to_act + 2) % s->n];
        if (partner >= 0 && partner + b > s->hand_size) return CC_DEFINED_R_SIDE_LIMIT;
    }
    return 0;
}

static int32_t defined_legal_actions(const void *state, uint64_t *mask) {
    const defined_state *s = (const defined_state *)state;
    memset(mask, 0, sizeof(uint64_t) * CC_MASK_WORDS);
    if (s->phase == DEF_PH_OVER) return 0;
    if (s->phase == DEF_PH_BID) {
        int32_t k = 0;
        for (int32_t b = 0; b <= s->hand_size; b++)
            if (bid_allowed(s, b) == 0) cc_mask_set(mask, CC_DEFINED_A_BID + b), k++;
        return k;
    }
    uint64_t c = s->phase == DEF_PH_PASS ? s->hand[s->to_act] : cc_defined_legal_cards(s);
    mask[0] = c;
    return cc_popcount64(c);
}

static int32_t defined_verify(const void *state, int32_t a) {
    const defined_state *s = (const defined_state *)state;
    if (s->phase == DEF_PH_OVER) return CC_DEFINED_R_INVALID;
    if (s->phase == DEF_PH_BID)
        return a < CC_DEFINED_A_BID ? CC_DEFINED_R_INVALID : bid_allowed(s, a - CC_DEFINED_A_BID);
    if (a < 0 || a >= 52) return CC_DEFINED_R_INVALID;
    if (!(s->hand[s->to_act] >> a & 1)) return CC_DEFINED_R_NOT_HELD;
    if (s->phase == DEF_PH_PASS || (cc_defined_legal_cards(s) >> a & 1)) return 0;
    /* why not: the first rule that removes the card */
    const int32_t *T = def_table(s);
    uint64_t h = s->hand[s->to_act];
    if (s->ntrick == 0) {
        if (s->trick_no == 0 && T[CC_DEFINED_F_LEAD] == CC_DEFINED_LEAD_CARD &&
            (h >> T[CC_DEFINED_F_LEAD_CARD] & 1))
            return CC_DEFINED_R_LEAD_CARD;
        if (T[CC_DEFINED_F_BREAK_SUIT] == def_suit(a) && !s->broken &&
            (h & ~def_suit_mask(def_suit(a))))
            return CC_DEFINED_R_BROKEN;
        return CC_DEFINED_R_FIRST_TRICK;
    }
    if (h & def_suit_mask(s->lead_suit)) return CC_DEFINED_R_FOLLOW;
    if (s->trump >= 0 && def_suit(a) != s->trump && T[CC_DEFINED_F_MUST_TRUMP] &&
        (h & def_suit_mask(s->trump)))
        return CC_DEFINED_R_TRUMP;
    if (s->trump >= 0 && def_suit(a) == s->trump && T[CC_DEFINED_F_MUST_OVERTRUMP])
        return CC_DEFINED_R_OVERTRUMP;
    return CC_DEFINED_R_FIRST_TRICK;
}

static void score_deal(defined_state *s) {
    const int32_t *T = def_table(s);
    int32_t n = s->n;
    int32_t pts[DEF_MAXP];
    for (int32_t q = 0; q < n; q++) pts[q] = s->points[q];
    if (T[CC_DEFINED_F_MOON]) {
        int32_t all = cc_popcount64(def_point_cards(T)), total = 0;
        for (int32_t q = 0; q < n; q++) total += pts[q];
        for (int32_t q = 0; q < n; q++)
            if (all > 0 && s->point_cards[q] == all)
                for (int32_t r = 0; r < n; r++) pts[r] = r == q ? 0 : total;
    }
    int32_t nsides = T[CC_DEFINED_F_PARTNERS] ? 2 : n;
    int32_t side_pts[DEF_MAXP] = {0}, side_tricks[DEF_MAXP] = {0}, side_bid[DEF_MAXP] = {0};
    int32_t side_bags[DEF_MAXP] = {0};
    int32_t contract = T[CC_DEFINED_F_CONTRACT];
    for (int32_t q = 0; q < n; q++) {
        int32_t d = def_side(T, q);
        side_pts[d] += pts[q];
        int32_t nil = T[CC_DEFINED_F_NIL] && s->bid[q] == 0;
        if (nil) {
            side_pts[d] +=
                s->tricks[q] == 0 ? T[CC_DEFINED_F_NIL_BONUS] : -T[CC_DEFINED_F_NIL_BONUS];
            if (T[CC_DEFINED_F_NIL_TRICKS]) side_tricks[d] += s->tricks[q];
            else side_bags[d] += s->tricks[q];
        } else {
            side_tricks[d] += s->tricks[q];
            if (s->bid[q] > 0) side_bid[d] += s->bid[q];
        }
    }
    for (int32_t d = 0; d < nsides; d++) {
        int32_t t = side_tricks[d], b = side_bid[d];
        if (contract == CC_DEFINED_CONTRACT_NONE || T[CC_DEFINED_F_TRICK_POINTS_ALWAYS]) {
            int32_t over = t - T[CC_DEFINED_F_BOOK];
            side_pts[d] += T[CC_DEFINED_F_TRICK_POINTS] * (over > 0 ? over : 0);
        }
        int32_t bidders = 0;
        for (int32_t q = 0; q < n; q++)
            if (def_side(T, q) == d && !(T[CC_DEFINED_F_NIL] && s->bid[q] == 0)) bidders++;
        if (contract == CC_DEFINED_CONTRACT_NONE || (bidders == 0 && !T[CC_DEFINED_F_NIL_TRICKS]))
            continue;
        int32_t made = contract == CC_DEFINED_CONTRACT_EXACT ? t == b : t >= b;
        if (made) {
            side_pts[d] += T[CC_DEFINED_F_MADE_BONUS] + T[CC_DEFINED_F_MADE_PER_BID] * b +
                           T[CC_DEFINED_F_OVER_PER_TRICK] * (t - b);
            side_bags[d] += t - b;
        } else {
            side_pts[d] += T[CC_DEFINED_F_SET_PER_BID] * b;
        }
    }
    for (int32_t d = 0; d < nsides; d++) {
        int32_t seat = d; /* the side's first seat keeps its bags */
        if (T[CC_DEFINED_F_BAG_LIMIT] > 0) {
            s->bags[seat] += side_bags[d];
            while (s->bags[seat] >= T[CC_DEFINED_F_BAG_LIMIT]) {
                s->bags[seat] -= T[CC_DEFINED_F_BAG_LIMIT];
                side_pts[d] += T[CC_DEFINED_F_BAG_PENALTY];
            }
        }
    }
    for (int32_t q = 0; q < n; q++) {
        s->score[q] += side_pts[def_side(T, q)];
        push(s, CC_DEFINED_EV_SCORE, q, -1, side_pts[def_side(T, q)], s->score[q], CC_SEEN_ALL);
    }
    int32_t over = T[CC_DEFINED_F_NUM_DEALS] > 0 && s->deal_no + 1 >= T[CC_DEFINED_F_NUM_DEALS];
    int32_t target = T[CC_DEFINED_F_TARGET];
    int32_t floor = T[CC_DEFINED_F_FLOOR];
    for (int32_t q = 0; q < n; q++)
        if ((target > 0 && s->score[q] >= target) || (target < 0 && s->score[q] <= target) ||
            (floor < 0 && s->score[q] <= floor))
            over = 1;
    if (over) {
        int32_t best = 0;
        for (int32_t q = 1; q < n; q++)
            if (s->score[q] > s->score[best]) best = q;
        s->phase = DEF_PH_OVER;
        s->to_act = CC_PLAYER_TERMINAL;
        push(s, CC_DEFINED_EV_GAME_OVER, best, -1, s->score[best], 0, CC_SEEN_ALL);
        return;
    }
    s->deal_no++;
    s->dealer = (s->dealer + 1) % n;
    start_deal(s);
}

static void play_card(defined_state *s, int32_t card) {
    const int32_t *T = def_table(s);
    int32_t q = s->to_act, n = s->n;
    if (s->ntrick == 0) {
        s->lead_suit = def_suit(card);
        s->leader = q;
    } else if (def_suit(card) != s->lead_suit) {
        s->voids[q] |= 1u << s->lead_suit;
    }
    s->hand[q] &= ~def_bit(card);
    s->played_by[q] |= def_bit(card);
    s->gone |= def_bit(card);
    s->trick[q] = card;
    s->ntrick++;
    if (T[CC_DEFINED_F_BREAK_BY] != CC_DEFINED_BREAK_NEVER &&
        (def_suit(card) == T[CC_DEFINED_F_BREAK_SUIT] || card == T[CC_DEFINED_F_BREAK_BY]))
        s->broken = 1;
    push(s, CC_DEFINED_EV_PLAY, q, -1, card, s->trick_no, CC_SEEN_ALL);
    if (s->ntrick < n) {
        s->to_act = (q + 1) % n;
        return;
    }
    int32_t w = def_trick_winner(s, T), value = 0;
    for (int32_t r = 0; r < n; r++) {
        int32_t v = T[CC_DEFINED_F_CARD_POINTS + s->trick[r]];
        value += v;
        if (v != 0) s->point_cards[w]++;
        s->trick[r] = -1;
    }
    s->tricks[w]++;
    s->points[w] += value;
    push(s, CC_DEFINED_EV_TRICK, w, -1, value, s->trick_no, CC_SEEN_ALL);
    s->trick_no++;
    s->ntrick = 0;
    s->lead_suit = -1;
    s->leader = s->to_act = w;
    if (s->trick_no == s->hand_size) score_deal(s);
}

static int32_t defined_apply(void *state, int32_t a) {
    if (state == NULL) return CC_E_ARG;
    defined_state *s = (defined_state *)state;
    if (s->phase == DEF_PH_OVER) return CC_E_GAME_OVER;
    if (!cc_log_trusted(&s->log) && defined_verify(s, a) != 0) return CC_E_ILLEGAL;
    const int32_t *T = def_table(s);
    int32_t q = s->to_act, n = s->n;
    if (s->phase == DEF_PH_PASS) {
        int32_t dir = T[CC_DEFINED_F_PASS_DIRS + s->deal_no % T[CC_DEFINED_F_PASS_DIRS_LEN]];
        int32_t to = (q + dir) % n;
        s->hand[q] &= ~def_bit(a);
        s->passed[q] |= def_bit(a);
        push(s, CC_DEFINED_EV_PASS, q, to, a, 0, 1u << q);
        if (cc_popcount64(s->passed[q]) < T[CC_DEFINED_F_PASS_COUNT]) return CC_OK;
        s->to_act = (q + 1) % n;
        if (++s->passers_done < n) return CC_OK;
        for (int32_t r = 0; r < n; r++) {
            int32_t t = (r + dir) % n;
            s->received[t] = s->passed[r];
            s->hand[t] |= s->passed[r];
            for (uint64_t m = s->passed[r]; m; m &= m - 1)
                push(s, CC_DEFINED_EV_RECEIVE, t, r, cc_ctz64(m), 0, (1u << t) | (1u << r));
        }
        if (T[CC_DEFINED_F_BIDDING]) {
            s->phase = DEF_PH_BID;
            s->to_act = (s->dealer + 1) % n;
        } else {
            first_lead(s);
        }
        return CC_OK;
    }
    if (s->phase == DEF_PH_BID) {
        s->bid[q] = a - CC_DEFINED_A_BID;
        push(s, CC_DEFINED_EV_BID, q, -1, s->bid[q], 0, CC_SEEN_ALL);
        s->to_act = (q + 1) % n;
        if (++s->nbids == n) first_lead(s);
        return CC_OK;
    }
    play_card(s, a);
    return CC_OK;
}

static void defined_returns(const void *state, int32_t *out) {
    const defined_state *s = (const defined_state *)state;
    for (int32_t q = 0; q < s->n; q++) out[q] = s->score[q];
}

static void put_cards(float *out, uint64_t cards) {
    for (; cards; cards &= cards - 1) out[cc_ctz64(cards)] = 1.0f;
}

static int32_t defined_observe(const void *state, int32_t p, float *out) {
    const defined_state *s = (const defined_state *)state;
    if (s == NULL || out == NULL || p < 0 || p >= s->n) return CC_E_ARG;
    int32_t n = s->n;
    memset(out, 0, sizeof(float) * (size_t)slot_tensor_size(s->slot, NULL, n));
    float *o = out;
    put_cards(o, s->hand[p]);
    o += 52;
    for (int32_t r = 0; r < n; r++) {
        int32_t c = s->trick[(p + r) % n];
        if (c >= 0) o[52 * r + c] = 1.0f;
    }
    o += 52 * n;
    uint64_t on_trick = 0;
    for (int32_t q = 0; q < n; q++)
        if (s->trick[q] >= 0) on_trick |= def_bit(s->trick[q]);
    put_cards(o, s->gone & ~on_trick);
    o += 52;
    if (s->turnup >= 0) o[s->turnup] = 1.0f;
    o += 52;
    if (s->trump >= 0) o[s->trump] = 1.0f;
    o += 4;
    put_cards(o, s->passed[p]);
    o += 52;
    put_cards(o, s->received[p]);
    o += 52;
    for (int32_t r = 0; r < n; r++) o[r] = (float)s->bid[(p + r) % n];
    o += n;
    for (int32_t r = 0; r < n; r++) o[r] = (float)s->tricks[(p + r) % n];
    o += n;
    for (int32_t r = 0; r < n; r++) o[r] = (float)s->score[(p + r) % n];
    o += n;
    if (s->phase != DEF_PH_OVER) o[s->phase] = 1.0f;
    o += 3;
    o[(s->dealer - p + n) % n] = 1.0f;
    return CC_OK;
}

static int32_t defined_deal_index(const void *state, int32_t *dealer) {
    const defined_state *s = (const defined_state *)state;
    if (dealer) *dealer = s->phase == DEF_PH_OVER ? -1 : s->dealer;
    return s->deal_no + (s->phase == DEF_PH_OVER);
}

/* ---- one table per slot ----------------------------------------------------
 * The table's functions that take no state (their rules array and player
 * count only) must know their definition: each slot has its own small
 * functions that pass the slot's index on. */
#define DEFINED_SLOT_FUNCTIONS(k)                                                                 \
    static int32_t check_##k(const int32_t *p, int32_t n, int32_t *bad) {                         \
        return slot_check_params(k, p, n, bad);                                                   \
    }                                                                                             \
    static int32_t actions_##k(const int32_t *p, int32_t n) { return slot_num_actions(k, p, n); } \
    static int32_t size_##k(const int32_t *p, int32_t n) { return slot_tensor_size(k, p, n); }    \
    static int32_t segments_##k(const int32_t *p, int32_t n, cc_segment *o, int32_t cap) {        \
        return slot_segments(k, p, n, o, cap);                                                    \
    }                                                                                             \
    static int32_t init_##k(void *st, const int32_t *p, int32_t n, uint64_t seed) {               \
        return init_common(k, st, p, n, seed, NULL, 0);                                           \
    }                                                                                             \
    static int32_t init_deck_##k(void *st, const int32_t *p, int32_t n, uint64_t seed,            \
                                 const uint8_t *d, int32_t nd) {                                  \
        if (d == NULL) return CC_E_ARG;                                                           \
        return init_common(k, st, p, n, seed, d, nd);                                             \
    }
#define DEFINED_SLOT_ROW(k) \
    {check_##k, actions_##k, size_##k, segments_##k, init_##k, init_deck_##k}
/* slots 0 .. CC_DEFINED_MAX_GAMES - 1 */
DEFINED_SLOT_FUNCTIONS(0)
DEFINED_SLOT_FUNCTIONS(1)
DEFINED_SLOT_FUNCTIONS(2)
DEFINED_SLOT_FUNCTIONS(3)
DEFINED_SLOT_FUNCTIONS(4)
DEFINED_SLOT_FUNCTIONS(5)
DEFINED_SLOT_FUNCTIONS(6)
DEFINED_SLOT_FUNCTIONS(7)
DEFINED_SLOT_FUNCTIONS(8)
DEFINED_SLOT_FUNCTIONS(9)
DEFINED_SLOT_FUNCTIONS(10)
DEFINED_SLOT_FUNCTIONS(11)
DEFINED_SLOT_FUNCTIONS(12)
DEFINED_SLOT_FUNCTIONS(13)
DEFINED_SLOT_FUNCTIONS(14)
DEFINED_SLOT_FUNCTIONS(15)
DEFINED_SLOT_FUNCTIONS(16)
DEFINED_SLOT_FUNCTIONS(17)
DEFINED_SLOT_FUNCTIONS(18)
DEFINED_SLOT_FUNCTIONS(19)
DEFINED_SLOT_FUNCTIONS(20)
DEFINED_SLOT_FUNCTIONS(21)
DEFINED_SLOT_FUNCTIONS(22)
DEFINED_SLOT_FUNCTIONS(23)
DEFINED_SLOT_FUNCTIONS(24)
DEFINED_SLOT_FUNCTIONS(25)
DEFINED_SLOT_FUNCTIONS(26)
DEFINED_SLOT_FUNCTIONS(27)
DEFINED_SLOT_FUNCTIONS(28)
DEFINED_SLOT_FUNCTIONS(29)
DEFINED_SLOT_FUNCTIONS(30)
DEFINED_SLOT_FUNCTIONS(31)
DEFINED_SLOT_FUNCTIONS(32)
DEFINED_SLOT_FUNCTIONS(33)
DEFINED_SLOT_FUNCTIONS(34)
DEFINED_SLOT_FUNCTIONS(35)
DEFINED_SLOT_FUNCTIONS(36)
DEFINED_SLOT_FUNCTIONS(37)
DEFINED_SLOT_FUNCTIONS(38)
DEFINED_SLOT_FUNCTIONS(39)
DEFINED_SLOT_FUNCTIONS(40)
DEFINED_SLOT_FUNCTIONS(41)
DEFINED_SLOT_FUNCTIONS(42)
DEFINED_SLOT_FUNCTIONS(43)
DEFINED_SLOT_FUNCTIONS(44)
DEFINED_SLOT_FUNCTIONS(45)
DEFINED_SLOT_FUNCTIONS(46)
DEFINED_SLOT_FUNCTIONS(47)
DEFINED_SLOT_FUNCTIONS(48)
DEFINED_SLOT_FUNCTIONS(49)
DEFINED_SLOT_FUNCTIONS(50)
DEFINED_SLOT_FUNCTIONS(51)
DEFINED_SLOT_FUNCTIONS(52)
DEFINED_SLOT_FUNCTIONS(53)
DEFINED_SLOT_FUNCTIONS(54)
DEFINED_SLOT_FUNCTIONS(55)
DEFINED_SLOT_FUNCTIONS(56)
DEFINED_SLOT_FUNCTIONS(57)
DEFINED_SLOT_FUNCTIONS(58)
DEFINED_SLOT_FUNCTIONS(59)
DEFINED_SLOT_FUNCTIONS(60)
DEFINED_SLOT_FUNCTIONS(61)
DEFINED_SLOT_FUNCTIONS(62)
DEFINED_SLOT_FUNCTIONS(63)
DEFINED_SLOT_FUNCTIONS(64)
DEFINED_SLOT_FUNCTIONS(65)
DEFINED_SLOT_FUNCTIONS(66)
DEFINED_SLOT_FUNCTIONS(67)
DEFINED_SLOT_FUNCTIONS(68)
DEFINED_SLOT_FUNCTIONS(69)
DEFINED_SLOT_FUNCTIONS(70)
DEFINED_SLOT_FUNCTIONS(71)
DEFINED_SLOT_FUNCTIONS(72)
DEFINED_SLOT_FUNCTIONS(73)
DEFINED_SLOT_FUNCTIONS(74)
DEFINED_SLOT_FUNCTIONS(75)
DEFINED_SLOT_FUNCTIONS(76)
DEFINED_SLOT_FUNCTIONS(77)
DEFINED_SLOT_FUNCTIONS(78)
DEFINED_SLOT_FUNCTIONS(79)
DEFINED_SLOT_FUNCTIONS(80)
DEFINED_SLOT_FUNCTIONS(81)
DEFINED_SLOT_FUNCTIONS(82)
DEFINED_SLOT_FUNCTIONS(83)
DEFINED_SLOT_FUNCTIONS(84)
DEFINED_SLOT_FUNCTIONS(85)
DEFINED_SLOT_FUNCTIONS(86)
DEFINED_SLOT_FUNCTIONS(87)
DEFINED_SLOT_FUNCTIONS(88)
DEFINED_SLOT_FUNCTIONS(89)
DEFINED_SLOT_FUNCTIONS(90)
DEFINED_SLOT_FUNCTIONS(91)
DEFINED_SLOT_FUNCTIONS(92)
DEFINED_SLOT_FUNCTIONS(93)
DEFINED_SLOT_FUNCTIONS(94)
DEFINED_SLOT_FUNCTIONS(95)
DEFINED_SLOT_FUNCTIONS(96)
DEFINED_SLOT_FUNCTIONS(97)
DEFINED_SLOT_FUNCTIONS(98)
DEFINED_SLOT_FUNCTIONS(99)
DEFINED_SLOT_FUNCTIONS(100)
DEFINED_SLOT_FUNCTIONS(101)
DEFINED_SLOT_FUNCTIONS(102)
DEFINED_SLOT_FUNCTIONS(103)
DEFINED_SLOT_FUNCTIONS(104)
DEFINED_SLOT_FUNCTIONS(105)
DEFINED_SLOT_FUNCTIONS(106)
DEFINED_SLOT_FUNCTIONS(107)
DEFINED_SLOT_FUNCTIONS(108)
DEFINED_SLOT_FUNCTIONS(109)
DEFINED_SLOT_FUNCTIONS(110)
DEFINED_SLOT_FUNCTIONS(111)
DEFINED_SLOT_FUNCTIONS(112)
DEFINED_SLOT_FUNCTIONS(113)
DEFINED_SLOT_FUNCTIONS(114)
DEFINED_SLOT_FUNCTIONS(115)
DEFINED_SLOT_FUNCTIONS(116)
DEFINED_SLOT_FUNCTIONS(117)
DEFINED_SLOT_FUNCTIONS(118)
DEFINED_SLOT_FUNCTIONS(119)
DEFINED_SLOT_FUNCTIONS(120)
DEFINED_SLOT_FUNCTIONS(121)
DEFINED_SLOT_FUNCTIONS(122)
DEFINED_SLOT_FUNCTIONS(123)
DEFINED_SLOT_FUNCTIONS(124)
DEFINED_SLOT_FUNCTIONS(125)
DEFINED_SLOT_FUNCTIONS(126)
DEFINED_SLOT_FUNCTIONS(127)
DEFINED_SLOT_FUNCTIONS(128)
DEFINED_SLOT_FUNCTIONS(129)
DEFINED_SLOT_FUNCTIONS(130)
DEFINED_SLOT_FUNCTIONS(131)
DEFINED_SLOT_FUNCTIONS(132)
DEFINED_SLOT_FUNCTIONS(133)
DEFINED_SLOT_FUNCTIONS(134)
DEFINED_SLOT_FUNCTIONS(135)
DEFINED_SLOT_FUNCTIONS(136)
DEFINED_SLOT_FUNCTIONS(137)
DEFINED_SLOT_FUNCTIONS(138)
DEFINED_SLOT_FUNCTIONS(139)
DEFINED_SLOT_FUNCTIONS(140)
DEFINED_SLOT_FUNCTIONS(141)
DEFINED_SLOT_FUNCTIONS(142)
DEFINED_SLOT_FUNCTIONS(143)
DEFINED_SLOT_FUNCTIONS(144)
DEFINED_SLOT_FUNCTIONS(145)
DEFINED_SLOT_FUNCTIONS(146)
DEFINED_SLOT_FUNCTIONS(147)
DEFINED_SLOT_FUNCTIONS(148)
DEFINED_SLOT_FUNCTIONS(149)
DEFINED_SLOT_FUNCTIONS(150)
DEFINED_SLOT_FUNCTIONS(151)
DEFINED_SLOT_FUNCTIONS(152)
DEFINED_SLOT_FUNCTIONS(153)
DEFINED_SLOT_FUNCTIONS(154)
DEFINED_SLOT_FUNCTIONS(155)
DEFINED_SLOT_FUNCTIONS(156)
DEFINED_SLOT_FUNCTIONS(157)
DEFINED_SLOT_FUNCTIONS(158)
DEFINED_SLOT_FUNCTIONS(159)
DEFINED_SLOT_FUNCTIONS(160)
DEFINED_SLOT_FUNCTIONS(161)
DEFINED_SLOT_FUNCTIONS(162)
DEFINED_SLOT_FUNCTIONS(163)
DEFINED_SLOT_FUNCTIONS(164)
DEFINED_SLOT_FUNCTIONS(165)
DEFINED_SLOT_FUNCTIONS(166)
DEFINED_SLOT_FUNCTIONS(167)
DEFINED_SLOT_FUNCTIONS(168)
DEFINED_SLOT_FUNCTIONS(169)
DEFINED_SLOT_FUNCTIONS(170)
DEFINED_SLOT_FUNCTIONS(171)
DEFINED_SLOT_FUNCTIONS(172)
DEFINED_SLOT_FUNCTIONS(173)
DEFINED_SLOT_FUNCTIONS(174)
DEFINED_SLOT_FUNCTIONS(175)
DEFINED_SLOT_FUNCTIONS(176)
DEFINED_SLOT_FUNCTIONS(177)
DEFINED_SLOT_FUNCTIONS(178)
DEFINED_SLOT_FUNCTIONS(179)
DEFINED_SLOT_FUNCTIONS(180)
DEFINED_SLOT_FUNCTIONS(181)
DEFINED_SLOT_FUNCTIONS(182)
DEFINED_SLOT_FUNCTIONS(183)
DEFINED_SLOT_FUNCTIONS(184)
DEFINED_SLOT_FUNCTIONS(185)
DEFINED_SLOT_FUNCTIONS(186)
DEFINED_SLOT_FUNCTIONS(187)
DEFINED_SLOT_FUNCTIONS(188)
DEFINED_SLOT_FUNCTIONS(189)
DEFINED_SLOT_FUNCTIONS(190)
DEFINED_SLOT_FUNCTIONS(191)
DEFINED_SLOT_FUNCTIONS(192)
DEFINED_SLOT_FUNCTIONS(193)
DEFINED_SLOT_FUNCTIONS(194)
DEFINED_SLOT_FUNCTIONS(195)
DEFINED_SLOT_FUNCTIONS(196)
DEFINED_SLOT_FUNCTIONS(197)
DEFINED_SLOT_FUNCTIONS(198)
DEFINED_SLOT_FUNCTIONS(199)
DEFINED_SLOT_FUNCTIONS(200)
DEFINED_SLOT_FUNCTIONS(201)
DEFINED_SLOT_FUNCTIONS(202)
DEFINED_SLOT_FUNCTIONS(203)
DEFINED_SLOT_FUNCTIONS(204)
DEFINED_SLOT_FUNCTIONS(205)
DEFINED_SLOT_FUNCTIONS(206)
DEFINED_SLOT_FUNCTIONS(207)
DEFINED_SLOT_FUNCTIONS(208)
DEFINED_SLOT_FUNCTIONS(209)
DEFINED_SLOT_FUNCTIONS(210)
DEFINED_SLOT_FUNCTIONS(211)
DEFINED_SLOT_FUNCTIONS(212)
DEFINED_SLOT_FUNCTIONS(213)
DEFINED_SLOT_FUNCTIONS(214)
DEFINED_SLOT_FUNCTIONS(215)
DEFINED_SLOT_FUNCTIONS(216)
DEFINED_SLOT_FUNCTIONS(217)
DEFINED_SLOT_FUNCTIONS(218)
DEFINED_SLOT_FUNCTIONS(219)
DEFINED_SLOT_FUNCTIONS(220)
DEFINED_SLOT_FUNCTIONS(221)
DEFINED_SLOT_FUNCTIONS(222)
DEFINED_SLOT_FUNCTIONS(223)
DEFINED_SLOT_FUNCTIONS(224)
DEFINED_SLOT_FUNCTIONS(225)
DEFINED_SLOT_FUNCTIONS(226)
DEFINED_SLOT_FUNCTIONS(227)
DEFINED_SLOT_FUNCTIONS(228)
DEFINED_SLOT_FUNCTIONS(229)
DEFINED_SLOT_FUNCTIONS(230)
DEFINED_SLOT_FUNCTIONS(231)
DEFINED_SLOT_FUNCTIONS(232)
DEFINED_SLOT_FUNCTIONS(233)
DEFINED_SLOT_FUNCTIONS(234)
DEFINED_SLOT_FUNCTIONS(235)
DEFINED_SLOT_FUNCTIONS(236)
DEFINED_SLOT_FUNCTIONS(237)
DEFINED_SLOT_FUNCTIONS(238)
DEFINED_SLOT_FUNCTIONS(239)
DEFINED_SLOT_FUNCTIONS(240)
DEFINED_SLOT_FUNCTIONS(241)
DEFINED_SLOT_FUNCTIONS(242)
DEFINED_SLOT_FUNCTIONS(243)
DEFINED_SLOT_FUNCTIONS(244)
DEFINED_SLOT_FUNCTIONS(245)
DEFINED_SLOT_FUNCTIONS(246)
DEFINED_SLOT_FUNCTIONS(247)
DEFINED_SLOT_FUNCTIONS(248)
DEFINED_SLOT_FUNCTIONS(249)
DEFINED_SLOT_FUNCTIONS(250)
DEFINED_SLOT_FUNCTIONS(251)
DEFINED_SLOT_FUNCTIONS(252)
DEFINED_SLOT_FUNCTIONS(253)
DEFINED_SLOT_FUNCTIONS(254)
DEFINED_SLOT_FUNCTIONS(255)

typedef struct slot_functions {
    int32_t (*check)(const int32_t *, int32_t, int32_t *);
    int32_t (*actions)(const int32_t *, int32_t);
    int32_t (*size)(const int32_t *, int32_t);
    int32_t (*segments)(const int32_t *, int32_t, cc_segment *, int32_t);
    int32_t (*init)(void *, const int32_t *, int32_t, uint64_t);
    int32_t (*init_deck)(void *, const int32_t *, int32_t, uint64_t, const uint8_t *, int32_t);
} slot_functions;

static const slot_functions slot_fns[CC_DEFINED_MAX_GAMES] = {
    DEFINED_SLOT_ROW(0),   DEFINED_SLOT_ROW(1),   DEFINED_SLOT_ROW(2),   DEFINED_SLOT_ROW(3),
    DEFINED_SLOT_ROW(4),   DEFINED_SLOT_ROW(5),   DEFINED_SLOT_ROW(6),   DEFINED_SLOT_ROW(7),
    DEFINED_SLOT_ROW(8),   DEFINED_SLOT_ROW(9),   DEFINED_SLOT_ROW(10),  DEFINED_SLOT_ROW(11),
    DEFINED_SLOT_ROW(12),  DEFINED_SLOT_ROW(13),  DEFINED_SLOT_ROW(14),  DEFINED_SLOT_ROW(15),
    DEFINED_SLOT_ROW(16),  DEFINED_SLOT_ROW(17),  DEFINED_SLOT_ROW(18),  DEFINED_SLOT_ROW(19),
    DEFINED_SLOT_ROW(20),  DEFINED_SLOT_ROW(21),  DEFINED_SLOT_ROW(22),  DEFINED_SLOT_ROW(23),
    DEFINED_SLOT_ROW(24),  DEFINED_SLOT_ROW(25),  DEFINED_SLOT_ROW(26),  DEFINED_SLOT_ROW(27),
    DEFINED_SLOT_ROW(28),  DEFINED_SLOT_ROW(29),  DEFINED_SLOT_ROW(30),  DEFINED_SLOT_ROW(31),
    DEFINED_SLOT_ROW(32),  DEFINED_SLOT_ROW(33),  DEFINED_SLOT_ROW(34),  DEFINED_SLOT_ROW(35),
    DEFINED_SLOT_ROW(36),  DEFINED_SLOT_ROW(37),  DEFINED_SLOT_ROW(38),  DEFINED_SLOT_ROW(39),
    DEFINED_SLOT_ROW(40),  DEFINED_SLOT_ROW(41),  DEFINED_SLOT_ROW(42),  DEFINED_SLOT_ROW(43),
    DEFINED_SLOT_ROW(44),  DEFINED_SLOT_ROW(45),  DEFINED_SLOT_ROW(46),  DEFINED_SLOT_ROW(47),
    DEFINED_SLOT_ROW(48),  DEFINED_SLOT_ROW(49),  DEFINED_SLOT_ROW(50),  DEFINED_SLOT_ROW(51),
    DEFINED_SLOT_ROW(52),  DEFINED_SLOT_ROW(53),  DEFINED_SLOT_ROW(54),  DEFINED_SLOT_ROW(55),
    DEFINED_SLOT_ROW(56),  DEFINED_SLOT_ROW(57),  DEFINED_SLOT_ROW(58),  DEFINED_SLOT_ROW(59),
    DEFINED_SLOT_ROW(60),  DEFINED_SLOT_ROW(61),  DEFINED_SLOT_ROW(62),  DEFINED_SLOT_ROW(63),
    DEFINED_SLOT_ROW(64),  DEFINED_SLOT_ROW(65),  DEFINED_SLOT_ROW(66),  DEFINED_SLOT_ROW(67),
    DEFINED_SLOT_ROW(68),  DEFINED_SLOT_ROW(69),  DEFINED_SLOT_ROW(70),  DEFINED_SLOT_ROW(71),
    DEFINED_SLOT_ROW(72),  DEFINED_SLOT_ROW(73),  DEFINED_SLOT_ROW(74),  DEFINED_SLOT_ROW(75),
    DEFINED_SLOT_ROW(76),  DEFINED_SLOT_ROW(77),  DEFINED_SLOT_ROW(78),  DEFINED_SLOT_ROW(79),
    DEFINED_SLOT_ROW(80),  DEFINED_SLOT_ROW(81),  DEFINED_SLOT_ROW(82),  DEFINED_SLOT_ROW(83),
    DEFINED_SLOT_ROW(84),  DEFINED_SLOT_ROW(85),  DEFINED_SLOT_ROW(86),  DEFINED_SLOT_ROW(87),
    DEFINED_SLOT_ROW(88),  DEFINED_SLOT_ROW(89),  DEFINED_SLOT_ROW(90),  DEFINED_SLOT_ROW(91),
    DEFINED_SLOT_ROW(92),  DEFINED_SLOT_ROW(93),  DEFINED_SLOT_ROW(94),  DEFINED_SLOT_ROW(95),
    DEFINED_SLOT_ROW(96),  DEFINED_SLOT_ROW(97),  DEFINED_SLOT_ROW(98),  DEFINED_SLOT_ROW(99),
    DEFINED_SLOT_ROW(100), DEFINED_SLOT_ROW(101), DEFINED_SLOT_ROW(102), DEFINED_SLOT_ROW(103),
    DEFINED_SLOT_ROW(104), DEFINED_SLOT_ROW(105), DEFINED_SLOT_ROW(106), DEFINED_SLOT_ROW(107),
    DEFINED_SLOT_ROW(108), DEFINED_SLOT_ROW(109), DEFINED_SLOT_ROW(110), DEFINED_SLOT_ROW(111),
    DEFINED_SLOT_ROW(112), DEFINED_SLOT_ROW(113), DEFINED_SLOT_ROW(114), DEFINED_SLOT_ROW(115),
    DEFINED_SLOT_ROW(116), DEFINED_SLOT_ROW(117), DEFINED_SLOT_ROW(118), DEFINED_SLOT_ROW(119),
    DEFINED_SLOT_ROW(120), DEFINED_SLOT_ROW(121), DEFINED_SLOT_ROW(122), DEFINED_SLOT_ROW(123),
    DEFINED_SLOT_ROW(124), DEFINED_SLOT_ROW(125), DEFINED_SLOT_ROW(126), DEFINED_SLOT_ROW(127),
    DEFINED_SLOT_ROW(128), DEFINED_SLOT_ROW(129), DEFINED_SLOT_ROW(130), DEFINED_SLOT_ROW(131),
    DEFINED_SLOT_ROW(132), DEFINED_SLOT_ROW(133), DEFINED_SLOT_ROW(134), DEFINED_SLOT_ROW(135),
    DEFINED_SLOT_ROW(136), DEFINED_SLOT_ROW(137), DEFINED_SLOT_ROW(138), DEFINED_SLOT_ROW(139),
    DEFINED_SLOT_ROW(140), DEFINED_SLOT_ROW(141), DEFINED_SLOT_ROW(142), DEFINED_SLOT_ROW(143),
    DEFINED_SLOT_ROW(144), DEFINED_SLOT_ROW(145), DEFINED_SLOT_ROW(146), DEFINED_SLOT_ROW(147),
    DEFINED_SLOT_ROW(148), DEFINED_SLOT_ROW(149), DEFINED_SLOT_ROW(150), DEFINED_SLOT_ROW(151),
    DEFINED_SLOT_ROW(152), DEFINED_SLOT_ROW(153), DEFINED_SLOT_ROW(154), DEFINED_SLOT_ROW(155),
    DEFINED_SLOT_ROW(156), DEFINED_SLOT_ROW(157), DEFINED_SLOT_ROW(158), DEFINED_SLOT_ROW(159),
    DEFINED_SLOT_ROW(160), DEFINED_SLOT_ROW(161), DEFINED_SLOT_ROW(162), DEFINED_SLOT_ROW(163),
    DEFINED_SLOT_ROW(164), DEFINED_SLOT_ROW(165), DEFINED_SLOT_ROW(166), DEFINED_SLOT_ROW(167),
    DEFINED_SLOT_ROW(168), DEFINED_SLOT_ROW(169), DEFINED_SLOT_ROW(170), DEFINED_SLOT_ROW(171),
    DEFINED_SLOT_ROW(172), DEFINED_SLOT_ROW(173), DEFINED_SLOT_ROW(174), DEFINED_SLOT_ROW(175),
    DEFINED_SLOT_ROW(176), DEFINED_SLOT_ROW(177), DEFINED_SLOT_ROW(178), DEFINED_SLOT_ROW(179),
    DEFINED_SLOT_ROW(180), DEFINED_SLOT_ROW(181), DEFINED_SLOT_ROW(182), DEFINED_SLOT_ROW(183),
    DEFINED_SLOT_ROW(184), DEFINED_SLOT_ROW(185), DEFINED_SLOT_ROW(186), DEFINED_SLOT_ROW(187),
    DEFINED_SLOT_ROW(188), DEFINED_SLOT_ROW(189), DEFINED_SLOT_ROW(190), DEFINED_SLOT_ROW(191),
    DEFINED_SLOT_ROW(192), DEFINED_SLOT_ROW(193), DEFINED_SLOT_ROW(194), DEFINED_SLOT_ROW(195),
    DEFINED_SLOT_ROW(196), DEFINED_SLOT_ROW(197), DEFINED_SLOT_ROW(198), DEFINED_SLOT_ROW(199),
    DEFINED_SLOT_ROW(200), DEFINED_SLOT_ROW(201), DEFINED_SLOT_ROW(202), DEFINED_SLOT_ROW(203),
    DEFINED_SLOT_ROW(204), DEFINED_SLOT_ROW(205), DEFINED_SLOT_ROW(206), DEFINED_SLOT_ROW(207),
    DEFINED_SLOT_ROW(208), DEFINED_SLOT_ROW(209), DEFINED_SLOT_ROW(210), DEFINED_SLOT_ROW(211),
    DEFINED_SLOT_ROW(212), DEFINED_SLOT_ROW(213), DEFINED_SLOT_ROW(214), DEFINED_SLOT_ROW(215),
    DEFINED_SLOT_ROW(216), DEFINED_SLOT_ROW(217), DEFINED_SLOT_ROW(218), DEFINED_SLOT_ROW(219),
    DEFINED_SLOT_ROW(220), DEFINED_SLOT_ROW(221), DEFINED_SLOT_ROW(222), DEFINED_SLOT_ROW(223),
    DEFINED_SLOT_ROW(224), DEFINED_SLOT_ROW(225), DEFINED_SLOT_ROW(226), DEFINED_SLOT_ROW(227),
    DEFINED_SLOT_ROW(228), DEFINED_SLOT_ROW(229), DEFINED_SLOT_ROW(230), DEFINED_SLOT_ROW(231),
    DEFINED_SLOT_ROW(232), DEFINED_SLOT_ROW(233), DEFINED_SLOT_ROW(234), DEFINED_SLOT_ROW(235),
    DEFINED_SLOT_ROW(236), DEFINED_SLOT_ROW(237), DEFINED_SLOT_ROW(238), DEFINED_SLOT_ROW(239),
    DEFINED_SLOT_ROW(240), DEFINED_SLOT_ROW(241), DEFINED_SLOT_ROW(242), DEFINED_SLOT_ROW(243),
    DEFINED_SLOT_ROW(244), DEFINED_SLOT_ROW(245), DEFINED_SLOT_ROW(246), DEFINED_SLOT_ROW(247),
    DEFINED_SLOT_ROW(248), DEFINED_SLOT_ROW(249), DEFINED_SLOT_ROW(250), DEFINED_SLOT_ROW(251),
    DEFINED_SLOT_ROW(252), DEFINED_SLOT_ROW(253), DEFINED_SLOT_ROW(254), DEFINED_SLOT_ROW(255),
};

static int32_t good_name(const char *name) {
    size_t len = 0;
    for (; name[len] != '\0'; len++) {
        char c = name[len];
        if (len + 1 >= CC_DEFINED_MAX_NAME) return 0;
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return 0;
    }
    return len > 0;
}

int32_t cc_defined_register(const char *name, const int32_t *table, int32_t len, int32_t *index,
                            int32_t *bad_field) {
    if (name == NULL || table == NULL || index == NULL) return CC_E_ARG;
    int32_t rc = cc_defined_check(table, len, bad_field);
    if (rc != CC_OK) return rc;
    if (!good_name(name)) return CC_E_ARG;
    while (atomic_flag_test_and_set_explicit(&slot_lock, memory_order_acquire)) {}
    rc = CC_OK;
    int32_t k = cc_defined_count();
    if (cc_game_by_name(name) != NULL) rc = CC_E_ARG;
    else if (k >= CC_DEFINED_MAX_GAMES) rc = CC_E_CAPACITY;
    if (rc == CC_OK) {
        defined_slot *d = &slots[k];
        memcpy(d->table, table, sizeof d->table);
        strcpy(d->name, name);
        int32_t nranges = 1;
        d->ranges[0] = (cc_action_range){"{card}", 0, 52, CC_ARG_CARD, 0, 0};
        if (table[CC_DEFINED_F_BIDDING])
            d->ranges[nranges++] = (cc_action_range){
                "bid {number}", CC_DEFINED_A_BID, max_hand(table, 0) + 1, CC_ARG_NUMBER, 0, 0};
        const slot_functions *f = &slot_fns[k];
        d->game = (cc_game){
            CC_GAME_HEADER,
            .name = d->name,
            .min_players = table[CC_DEFINED_F_MIN_PLAYERS],
            .max_players = table[CC_DEFINED_F_MAX_PLAYERS],
            .deck_size = CC_DECK_52,
            .state_size = sizeof(defined_state),
            .log_offset = offsetof(defined_state, log),
            .log_capacity = CC_DEFINED_LOG_CAP,
            .num_params = CC_DEFINED_NUM_PARAMS,
            .params = defined_params,
            .check_params = f->check,
            .num_actions = f->actions,
            .tensor_size = f->size,
            .segments = f->segments,
            .num_event_kinds =
                (int32_t)(sizeof defined_event_kinds / sizeof defined_event_kinds[0]),
            .event_kinds = defined_event_kinds,
            .num_action_ranges = nranges,
            .action_ranges = d->ranges,
            .init = f->init,
            .init_deck = f->init_deck,
            .current_player = defined_current_player,
            .legal_actions = defined_legal_actions,
            .verify = defined_verify,
            .reason_text = defined_reason_text,
            .apply = defined_apply,
            .returns = defined_returns,
            .observe_tensor = defined_observe,
            .sample_infoset = cc_defined_sample_infoset,
            .sample_prepare = cc_defined_sample_prepare,
            .sample_draw = cc_defined_sample_draw,
            .sample_scratch_size = cc_defined_sample_scratch,
            .heuristic = cc_defined_heuristic,
            .deal_index = defined_deal_index,
        };
        *index = k;
        atomic_store_explicit(&slot_count, k + 1, memory_order_release);
    }
    atomic_flag_clear_explicit(&slot_lock, memory_order_release);
    return rc;
}
