/* notakers_game.c: the game No Takers? (docs/notakers.rst, "Play") behind
 * the generic cc_game table; the observation tensor is notakers_observe.c,
 * the information-set sampler notakers_sample.c, the heuristic
 * notakers_bot.c.  The action encoding, phases and events are in
 * cc_notakers.h and docs/notakers.rst.  Seats 0..n-1 play in this order; seat 0 starts (the
 * dealer is seat n-1). */
#include "cc_notakers.h"

#include "cc_internal.h"
#include "notakers_internal.h"

enum {
    R_GAME_OVER = 1,
    R_RANGE,
    R_PHASE,
    R_NOT_IN_HAND,
    R_ALREADY_CHOSEN,
    R_HAND_TOO_SMALL,
    R_SAVE_TOO_SMALL,
    R_NOT_SETS,
    R_NO_MATCH,
    R_GIVE_FIRST,
    R_NO_SET_IN_HAND,
    R_SAVE_TAKEN_BACK,
    R_NUM_REASONS
};

static const char *const REASONS[R_NUM_REASONS] = {
    "legal",
    "the game is over",
    "action out of range",
    "not allowed in this phase",
    "card not in hand",
    "card already chosen for the save",
    "a save needs at least 3 cards in hand",
    "a save needs at least 3 cards",
    "the saved cards must split into sets with none left over",
    "card does not match the ask",
    "give at least one card first",
    "no set of 3 or more cards in hand to save",
    "two Saves were cancelled this turn: no more Save this turn",
};

/* The state (nt_state) is in notakers_internal.h, shared with notakers_bot.c. */

/* Seat p + k for 0 <= p < n, 0 <= k < n, without a division. */
static inline int32_t seat_after(const nt_state *st, int32_t p, int32_t k) {
    int32_t q = p + k;
    return q >= st->n ? q - st->n : q;
}

/* The bitset bit of dense card id c: 16 * (c / 13) + c % 13. */
static const uint8_t CARD_BIT[CC_NUM_CARDS52] = {
    0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 16, 17, 18, 19, 20,
    21, 22, 23, 24, 25, 26, 27, 28, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41,
    42, 43, 44, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60,
};

static inline uint64_t card_bit(int32_t c) { return (uint64_t)1 << CARD_BIT[c]; }

static uint64_t desc_match(int32_t d) {
    if (d >= CC_NOTAKERS_D_CARD) return card_bit(d - CC_NOTAKERS_D_CARD); /* the usual ask */
    if (d < CC_NOTAKERS_D_SUIT) return 0x0001000100010001ULL << d;
    return (uint64_t)0x1FFF << (16 * (d - CC_NOTAKERS_D_SUIT));
}

/* ---- knowledge ---------------------------------------------------------
 * Exact facts an observer learns, kept for the information-set sampler
 * (docs/notakers.rst, "Information-set sampling").  Each update only drops
 * a fact when it may have stopped being true.  An unobserved state (a
 * search's private copy in random rollouts: nothing samples from it or
 * asks what a seat knows) keeps none. */

static inline int32_t unobserved(const nt_state *st) { return cc_log_unobserved(&st->log); }

/* Seat q drew cards unseen by the others: any card may be in his hand now. */
static void kn_draw(nt_state *st, int32_t q) {
    if (unobserved(st)) return;
    for (int32_t o = 0; o < st->n; o++) st->not_in_hand[o][q] = 0;
}

/* Seat q held no card of mask in hand (a Pass, or passed over). */
static void kn_no_match(nt_state *st, int32_t q, uint64_t mask) {
    if (unobserved(st)) return;
    for (int32_t o = 0; o < st->n; o++)
        if (o != q) st->not_in_hand[o][q] |= mask;
}

/* Seat q saved the cards sel: open saves are public; a hidden save may hold
 * any card known to be in his hand. */
static void kn_save(nt_state *st, int32_t q, uint64_t sel) {
    if (unobserved(st)) return;
    for (int32_t o = 0; o < st->n; o++) {
        if (o == q) continue;
        if (st->params[CC_NOTAKERS_P_SAVE_VISIBILITY]) {
            st->in_hand[o][q] &= ~sel;
            st->held[o][q] &= ~sel;
        } else {
            st->in_hand[o][q] = 0;
        }
    }
}

/* Seat g gave card c to seat r; could is what an observer who did not see
 * it knows the card to be among (the ask's matches, or any card). */
static void kn_give(nt_state *st, int32_t g, int32_t r, uint64_t b, uint64_t could) {
    if (unobserved(st)) return;
    for (int32_t o = 0; o < st->n; o++) {
        if (o == g) {
            st->in_hand[o][r] |= b;
            st->held[o][r] |= b;
            st->not_in_hand[o][r] &= ~b;
        } else if (o == r) {
            for (int32_t q = 0; q < st->n; q++) {
                st->in_hand[o][q] &= ~b;
                st->held[o][q] &= ~b;
            }
        } else {
            st->in_hand[o][g] &= ~could;
            st->held[o][g] &= ~could;
            st->not_in_hand[o][r] &= ~could;
        }
    }
}

static inline void log_ev(nt_state *st, int32_t kind, int32_t player, int32_t target, int32_t value,
                          int32_t extra, uint32_t seen_by) {
    cc_log_event(&st->log, kind, player, target, value, extra, seen_by);
}

static void finish(nt_state *st, int32_t reason) {
    st->phase = CC_NOTAKERS_PHASE_OVER;
    st->actor = CC_PLAYER_TERMINAL;
    int32_t ace = st->params[CC_NOTAKERS_P_ACE_IN_RUNS],
            tb = st->params[CC_NOTAKERS_P_TIEBREAK_ACE];
    int32_t best = -1;
    for (int32_t p = 0; p < st->n; p++) {
        st->points[p] = cc_notakers_points(st->hand[p] | st->save[p], ace);
        if (st->points[p] > best) best = st->points[p];
    }
    if (cc_log_muted(&st->log)) return; /* the winners and tie-breaks are events only */
    /* Ties on points: the best key among the tied players wins (shared if equal). */
    uint32_t winners = 0;
    int32_t ntied = 0;
    for (int32_t p = 0; p < st->n; p++)
        if (st->points[p] == best) {
            winners |= 1u << p;
            ntied++;
        }
    if (ntied > 1) {
        cc_notakers_split top, cur;
        int32_t have = 0;
        for (int32_t p = 0; p < st->n; p++) {
            if (!((winners >> p) & 1u)) continue;
            cc_notakers_best_split(st->hand[p] | st->save[p], ace, tb, &cur);
            int32_t c = have ? cc_notakers_compare(&cur, &top) : 1;
            if (c > 0) {
                top = cur;
                have = 1;
            }
        }
        for (int32_t p = 0; p < st->n; p++) {
            if (!((winners >> p) & 1u)) continue;
            cc_notakers_best_split(st->hand[p] | st->save[p], ace, tb, &cur);
            if (cc_notakers_compare(&cur, &top) != 0) winners &= ~(1u << p);
        }
    }
    for (int32_t p = 0; p < st->n; p++)
        log_ev(st, CC_NOTAKERS_EV_SCORE, p, 0, st->points[p], (int32_t)((winners >> p) & 1u),
               CC_SEEN_ALL);
    log_ev(st, CC_NOTAKERS_EV_GAME_OVER, st->turn_player, 0, reason, 0, CC_SEEN_ALL);
}

/* Draw for player p (docs/notakers.rst, "Play"); may end the game. */
static void draw(nt_state *st, int32_t p, int32_t forced) {
    int32_t left = CC_NUM_CARDS52 - st->top;
    int32_t take = st->n;
    if (left < st->n) take = st->params[CC_NOTAKERS_P_SHORT_DRAW] == 0 ? left : 0;
    if (take > 0) kn_draw(st, p);
    for (int32_t i = 0; i < take; i++) {
        int32_t c = st->deck[st->top++];
        st->hand[p] |= card_bit(c);
        log_ev(st, CC_NOTAKERS_EV_DRAW, p, 0, c, forced, 1u << p);
    }
    if (left <= st->n) finish(st, CC_NOTAKERS_END_PILE);
}

static void start_turn(nt_state *st, int32_t p) {
    st->turn_player = p;
    st->selection = 0;
    st->cancels = 0;
    if (st->hand[p] == 0) {
        draw(st, p, 1);
        if (st->phase == CC_NOTAKERS_PHASE_OVER) return;
    }
    st->phase = CC_NOTAKERS_PHASE_TURN;
    st->actor = p;
}

static void end_turn(nt_state *st) {
    st->turns++;
    st->ask_match = 0;
    st->ask_desc = -1;
    st->ask_target = -1;
    if (st->params[CC_NOTAKERS_P_MAX_TURNS] > 0 &&
        st->turns >= st->params[CC_NOTAKERS_P_MAX_TURNS]) {
        finish(st, CC_NOTAKERS_END_MAX_TURNS);
        return;
    }
    start_turn(st, seat_after(st, st->turn_player, 1));
}

static void no_takers(nt_state *st) {
    int32_t asker = st->turn_player;
    log_ev(st, CC_NOTAKERS_EV_NO_TAKERS, asker, 0, 0, 0, CC_SEEN_ALL);
    if (st->hand[asker] == 0) {
        end_turn(st);
        return;
    }
    st->phase = CC_NOTAKERS_PHASE_NO_TAKERS;
    st->actor = asker;
    st->nt_k = 1;
    st->given = 0;
}

/* Move the pass fallback to the next holder after offset fb_k, or resolve. */
static void fallback_next(nt_state *st) {
    int32_t asker = st->turn_player;
    for (int32_t k = st->fb_k + 1; k < st->n; k++) {
        int32_t q = seat_after(st, st->ask_target, k);
        if (q == asker) continue;
        if (!(st->hand[q] & st->ask_match)) {
            kn_no_match(st, q, st->ask_match);
            continue;
        }
        st->fb_k = k;
        st->actor = q;
        st->given = 0;
        st->phase = CC_NOTAKERS_PHASE_FALLBACK;
        return;
    }
    st->fb_k = st->n;
    if (st->any_given) end_turn(st);
    else no_takers(st);
}

/* ---- the game described as tables (docs/notakers.rst) ------------------ */

static const cc_param PARAMS[CC_NOTAKERS_NUM_PARAMS] = {
    [CC_NOTAKERS_P_SAVE_REQUIRES_SET] = {.name = "save_requires_set",
                                         .kind = CC_PARAM_BOOL,
                                         .min = 0,
                                         .max = 1,
                                         .default_value = 0,
                                         .doc =
                                             "a Save must split into sets with no card left over"},
    [CC_NOTAKERS_P_SAVE_VISIBILITY] = {.name = "save_visibility",
                                       .kind = CC_PARAM_CHOICE,
                                       .min = 0,
                                       .max = 1,
                                       .default_value = CC_NOTAKERS_SAVES_HIDDEN,
                                       .choices = "hidden|open",
                                       .doc = "save piles face down (sizes public) or face up"},
    [CC_NOTAKERS_P_PASS_FALLBACK] = {.name = "pass_fallback",
                                     .kind = CC_PARAM_CHOICE,
                                     .min = 0,
                                     .max = 2,
                                     .default_value = CC_NOTAKERS_FALLBACK_EACH_ONE,
                                     .choices = "each_one|each_at_least_one|first_holder_only",
                                     .doc = "who gives after a Pass, and how many cards"},
    [CC_NOTAKERS_P_SHORT_DRAW] = {.name = "short_draw",
                                  .kind = CC_PARAM_CHOICE,
                                  .min = 0,
                                  .max = 1,
                                  .default_value = CC_NOTAKERS_SHORT_TAKE_REST_THEN_END,
                                  .choices = "take_rest_then_end|end_without_drawing",
                                  .doc = "a draw that finds fewer cards than players"},
    [CC_NOTAKERS_P_MAX_TURNS] = {.name = "max_turns",
                                 .kind = CC_PARAM_OPTIONAL,
                                 .min = 1,
                                 .max = CC_NOTAKERS_MAX_TURNS,
                                 .default_value = CC_NOTAKERS_NO_TURN_CAP,
                                 .none_value = CC_NOTAKERS_NO_TURN_CAP,
                                 .doc = "end the game after this many turns (None: no cap)"},
    [CC_NOTAKERS_P_ACE_IN_RUNS] = {.name = "ace_in_runs",
                                   .kind = CC_PARAM_CHOICE,
                                   .min = 0,
                                   .max = 2,
                                   .default_value = CC_NOTAKERS_ACE_LOW,
                                   .choices = "low|high|both",
                                   .doc = "where the Ace stands in a run: A-2-3, Q-K-A or either"},
    [CC_NOTAKERS_P_TIEBREAK_ACE] = {.name = "tiebreak_ace",
                                    .kind = CC_PARAM_CHOICE,
                                    .min = 0,
                                    .max = 1,
                                    .default_value = CC_NOTAKERS_TIEBREAK_ACE_HIGH,
                                    .choices = "high|low",
                                    .doc = "an Ace set's rank in the tie-break: 14 or 1"},
};

static const cc_event_kind EVENT_KINDS[CC_NOTAKERS_NUM_EVENT_KINDS] = {
    [CC_NOTAKERS_EV_DEAL] = {"deal", CC_VALUE_CARD, "player was dealt card value; seen by him"},
    [CC_NOTAKERS_EV_DRAW] = {"draw", CC_VALUE_CARD,
                             "player drew card value (extra 1: a forced draw); seen by him"},
    [CC_NOTAKERS_EV_SAVE] = {"save", CC_VALUE_CARD,
                             "player saved card value; seen by him, or by all if saves are open"},
    [CC_NOTAKERS_EV_ASK] = {"ask", CC_VALUE_NUMBER,
                            "player asked target for descriptor value (0..12 a rank, 13..16 a "
                            "suit, 17 + card id a card); public"},
    [CC_NOTAKERS_EV_PASS] = {"pass", CC_VALUE_NONE,
                             "player (the asked) passed; target is the asker; public"},
    [CC_NOTAKERS_EV_GIVE] = {"give", CC_VALUE_CARD,
                             "player gave card value to target (extra 0 asked, 1 pass fallback, "
                             "2 No Takers); seen by both"},
    [CC_NOTAKERS_EV_NO_TAKERS] = {"no_takers", CC_VALUE_NONE,
                                  "player (the asker) found no takers; public"},
    [CC_NOTAKERS_EV_SCORE] = {"score", CC_VALUE_NUMBER,
                              "player scored value points (extra 1: a winner); public"},
    [CC_NOTAKERS_EV_GAME_OVER] = {"game_over", CC_VALUE_NUMBER,
                                  "the game is over: value 0 the draw pile ran out, 1 max_turns; "
                                  "player: whose turn it was; public"},
};

static const cc_action_range ACTION_RANGES[] = {
    {.name = "draw", .first = CC_NOTAKERS_A_DRAW, .count = 1, .arg = CC_ARG_NONE},
    {.name = "end save", .first = CC_NOTAKERS_A_SAVE_DONE, .count = 1, .arg = CC_ARG_NONE},
    {.name = "cancel save", .first = CC_NOTAKERS_A_SAVE_CANCEL, .count = 1, .arg = CC_ARG_NONE},
    {.name = "stop giving", .first = CC_NOTAKERS_A_GIVE_DONE, .count = 1, .arg = CC_ARG_NONE},
    {.name = "save {card}",
     .first = CC_NOTAKERS_A_SAVE,
     .count = CC_NUM_CARDS52,
     .arg = CC_ARG_CARD},
    {.name = "give {card}",
     .first = CC_NOTAKERS_A_GIVE,
     .count = CC_NUM_CARDS52,
     .arg = CC_ARG_CARD},
    {.name = "ask +{seat} rank {rank}",
     .first = CC_NOTAKERS_A_ASK,
     .count = CC_NUM_RANKS,
     .arg = CC_ARG_RANK,
     .stride = CC_NOTAKERS_NUM_DESCRIPTORS},
    {.name = "ask +{seat} suit {suit}",
     .first = CC_NOTAKERS_A_ASK + CC_NOTAKERS_D_SUIT,
     .count = CC_NUM_SUITS,
     .arg = CC_ARG_SUIT,
     .stride = CC_NOTAKERS_NUM_DESCRIPTORS},
    {.name = "ask +{seat} card {card}",
     .first = CC_NOTAKERS_A_ASK + CC_NOTAKERS_D_CARD,
     .count = CC_NUM_CARDS52,
     .arg = CC_ARG_CARD,
     .stride = CC_NOTAKERS_NUM_DESCRIPTORS},
};
#define NUM_ACTION_RANGES ((int32_t)(sizeof ACTION_RANGES / sizeof ACTION_RANGES[0]))

static int32_t cc_notakers_num_actions(const int32_t *pr, int32_t n) {
    (void)pr;
    if (n < 2 || n > CC_MAX_PLAYERS) return CC_E_PLAYERS;
    return CC_NOTAKERS_A_ASK + CC_NOTAKERS_NUM_DESCRIPTORS * (n - 1);
}

/* The first deal from deck (top first): deck[i] for i < floor(26/n) * n goes
 * to seat i % n; the rest of deck[] is the draw pile, deck[top] on top. */
static int32_t deal(void *state, const int32_t *pr, int32_t n, const uint8_t *deck) {
    if (state == NULL) return CC_E_ARG;
    if (n < cc_game_notakers.min_players || n > cc_game_notakers.max_players) return CC_E_PLAYERS;
    int32_t rc = cc_game_check_params(&cc_game_notakers, pr, n, NULL);
    if (rc != CC_OK) return rc;
    nt_state *st = (nt_state *)state;
    memset(st, 0, offsetof(nt_state, log));
    cc_log_init(&st->log, CC_NOTAKERS_LOG_CAPACITY);
    memcpy(st->params, pr, sizeof st->params);
    st->n = n;
    st->ask_desc = -1;
    st->ask_target = -1;
    memcpy(st->deck, deck, CC_NUM_CARDS52);
    int32_t each = 26 / n;
    for (int32_t i = 0; i < each * n; i++) {
        int32_t c = st->deck[i];
        st->hand[i % n] |= card_bit(c);
        log_ev(st, CC_NOTAKERS_EV_DEAL, i % n, 0, c, 0, 1u << (i % n));
    }
    st->top = each * n;
    start_turn(st, 0);
    return CC_OK;
}

static int32_t cc_notakers_init(void *state, const int32_t *pr, int32_t n, uint64_t seed) {
    uint8_t deck[CC_NUM_CARDS52];
    cc_shuffled_deck(seed, deck, CC_NUM_CARDS52);
    return deal(state, pr, n, deck);
}

/* The deck must be a permutation of the 52 cards; the seed is not used (the
 * game shuffles only once). */
static int32_t cc_notakers_init_deck(void *state, const int32_t *pr, int32_t n, uint64_t seed,
                                     const uint8_t *deck, int32_t ndeck) {
    (void)seed;
    if (!cc_deck_is_permutation(deck, ndeck, CC_NUM_CARDS52)) return CC_E_ARG;
    return deal(state, pr, n, deck);
}

static int32_t cc_notakers_current_player(const void *state) {
    if (state == NULL) return CC_E_ARG;
    return ((const nt_state *)state)->actor;
}

/* A set of 3+ cards in hand that splits exactly: trips, two pairs, a run of 3. */
static int32_t has_save_set(uint64_t hand, int32_t ace) {
    int32_t pairs = 0;
    for (int32_t r = 0; r < 13; r++) {
        int32_t c = cc_popcount64(hand & (0x0001000100010001ULL << r));
        if (c >= 3) return 1;
        if (c == 2) pairs++;
    }
    if (pairs >= 2) return 1;
    for (int32_t s = 0; s < 4; s++) {
        uint32_t x = cc_lane(hand, s);
        if (ace != CC_NOTAKERS_ACE_HIGH && (x & (x >> 1) & (x >> 2))) return 1;
        uint32_t h = (x >> 1) | ((x & 1u) << 12);
        if (ace != CC_NOTAKERS_ACE_LOW && (h & (h >> 1) & (h >> 2))) return 1;
    }
    return 0;
}

static int32_t cc_notakers_verify(const void *state, int32_t a) {
    const nt_state *st = (const nt_state *)state;
    if (st == NULL) return CC_E_ARG;
    if (st->phase == CC_NOTAKERS_PHASE_OVER) return CC_E_GAME_OVER;
    if (a < 0 || a >= cc_notakers_num_actions(st->params, st->n)) return R_RANGE;
    int32_t p = st->actor;
    uint64_t hand = st->hand[p];
    switch (st->phase) {
    case CC_NOTAKERS_PHASE_TURN:
        if (a == CC_NOTAKERS_A_DRAW || a >= CC_NOTAKERS_A_ASK) return 0;
        if (a >= CC_NOTAKERS_A_SAVE && a < CC_NOTAKERS_A_GIVE) {
            if (!(hand & card_bit(a - CC_NOTAKERS_A_SAVE))) return R_NOT_IN_HAND;
            if (cc_popcount64(hand) < 3) return R_HAND_TOO_SMALL;
            if (st->cancels >= 2) return R_SAVE_TAKEN_BACK;
            if (st->params[CC_NOTAKERS_P_SAVE_REQUIRES_SET] &&
                !has_save_set(hand, st->params[CC_NOTAKERS_P_ACE_IN_RUNS]))
                return R_NO_SET_IN_HAND;
            return 0;
        }
        return R_PHASE;
    case CC_NOTAKERS_PHASE_SAVE:
        if (a == CC_NOTAKERS_A_SAVE_CANCEL) return 0;
        if (a == CC_NOTAKERS_A_SAVE_DONE) {
            if (cc_popcount64(st->selection) < 3) return R_SAVE_TOO_SMALL;
            if (st->params[CC_NOTAKERS_P_SAVE_REQUIRES_SET] &&
                cc_notakers_splits_exactly(st->selection, st->params[CC_NOTAKERS_P_ACE_IN_RUNS]) !=
                    1)
                return R_NOT_SETS;
            return 0;
        }
        if (a >= CC_NOTAKERS_A_SAVE && a < CC_NOTAKERS_A_GIVE) {
            uint64_t b = card_bit(a - CC_NOTAKERS_A_SAVE);
            if (!(hand & b)) return R_NOT_IN_HAND;
            if (st->selection & b) return R_ALREADY_CHOSEN;
            return 0;
        }
        return R_PHASE;
    case CC_NOTAKERS_PHASE_GIVE:
    case CC_NOTAKERS_PHASE_FALLBACK:
        if (a == CC_NOTAKERS_A_GIVE_DONE) {
            if (st->phase == CC_NOTAKERS_PHASE_FALLBACK &&
                st->params[CC_NOTAKERS_P_PASS_FALLBACK] != CC_NOTAKERS_FALLBACK_EACH_AT_LEAST_ONE)
                return R_PHASE;
            return st->given >= 1 ? 0 : R_GIVE_FIRST;
        }
        if (a >= CC_NOTAKERS_A_GIVE && a < CC_NOTAKERS_A_ASK) {
            uint64_t b = card_bit(a - CC_NOTAKERS_A_GIVE);
            if (!(hand & b)) return R_NOT_IN_HAND;
            if (!(st->ask_match & b)) return R_NO_MATCH;
            return 0;
        }
        return R_PHASE;
    case CC_NOTAKERS_PHASE_NO_TAKERS:
        if (a >= CC_NOTAKERS_A_GIVE && a < CC_NOTAKERS_A_ASK) {
            if (!(hand & card_bit(a - CC_NOTAKERS_A_GIVE))) return R_NOT_IN_HAND;
            return 0;
        }
        return R_PHASE;
    default: return R_PHASE;
    }
}

/* Set the actions base + c for the cards c of cards: the four 13-bit lanes
 * packed into dense-id order, then shifted into place (two words at most). */
static void set_card_actions(uint64_t *mask, int32_t base, uint64_t cards) {
    uint64_t dense = (cards & 0x1FFFu) | ((cards >> 3) & ((uint64_t)0x1FFF << 13)) |
                     ((cards >> 6) & ((uint64_t)0x1FFF << 26)) |
                     ((cards >> 9) & ((uint64_t)0x1FFF << 39));
    int32_t w = base >> 6, b = base & 63;
    mask[w] |= dense << b;
    if (b > 64 - CC_NUM_CARDS52) mask[w + 1] |= dense >> (64 - b);
}

/* Set the bits lo..hi-1 of mask a word at a time (every ask is legal on a
 * turn: the hot path of random playouts). */
static void set_action_range(uint64_t *mask, int32_t lo, int32_t hi) {
    if (lo >= hi) return;
    int32_t wl = lo >> 6, wh = (hi - 1) >> 6;
    uint64_t first = ~(uint64_t)0 << (lo & 63), last = ~(uint64_t)0 >> (63 - ((hi - 1) & 63));
    if (wl == wh) {
        mask[wl] |= first & last;
        return;
    }
    mask[wl] |= first;
    for (int32_t w = wl + 1; w < wh; w++) mask[w] = ~(uint64_t)0;
    mask[wh] |= last;
}

static int32_t cc_notakers_legal_actions(const void *state, uint64_t *mask) {
    const nt_state *st = (const nt_state *)state;
    if (st == NULL || mask == NULL) return CC_E_ARG;
    if (st->phase == CC_NOTAKERS_PHASE_OVER) return 0;
    int32_t p = st->actor;
    uint64_t hand = st->hand[p];
    int32_t count = 0;
    switch (st->phase) {
    case CC_NOTAKERS_PHASE_TURN: {
        cc_mask_set(mask, CC_NOTAKERS_A_DRAW);
        count = 1;
        int32_t held = cc_popcount64(hand);
        if (held >= 3 && st->cancels < 2 &&
            (!st->params[CC_NOTAKERS_P_SAVE_REQUIRES_SET] ||
             has_save_set(hand, st->params[CC_NOTAKERS_P_ACE_IN_RUNS]))) {
            set_card_actions(mask, CC_NOTAKERS_A_SAVE, hand);
            count += held;
        }
        int32_t lo = CC_NOTAKERS_A_ASK, hi = cc_notakers_num_actions(st->params, st->n);
        set_action_range(mask, lo, hi);
        count += hi - lo;
        break;
    }
    case CC_NOTAKERS_PHASE_SAVE:
        cc_mask_set(mask, CC_NOTAKERS_A_SAVE_CANCEL);
        count = 1;
        if (cc_notakers_verify(state, CC_NOTAKERS_A_SAVE_DONE) == 0) {
            cc_mask_set(mask, CC_NOTAKERS_A_SAVE_DONE);
            count++;
        }
        set_card_actions(mask, CC_NOTAKERS_A_SAVE, hand & ~st->selection);
        count += cc_popcount64(hand & ~st->selection);
        break;
    case CC_NOTAKERS_PHASE_GIVE:
    case CC_NOTAKERS_PHASE_FALLBACK:
        if (cc_notakers_verify(state, CC_NOTAKERS_A_GIVE_DONE) == 0) {
            cc_mask_set(mask, CC_NOTAKERS_A_GIVE_DONE);
            count++;
        }
        set_card_actions(mask, CC_NOTAKERS_A_GIVE, hand & st->ask_match);
        count += cc_popcount64(hand & st->ask_match);
        break;
    case CC_NOTAKERS_PHASE_NO_TAKERS:
        set_card_actions(mask, CC_NOTAKERS_A_GIVE, hand);
        count = cc_popcount64(hand);
        break;
    default: break;
    }
    return count;
}

static const char *cc_notakers_reason_text(int32_t reason) {
    if (reason < 0 || reason >= R_NUM_REASONS) return "unknown reason";
    return REASONS[reason];
}

static void give(nt_state *st, int32_t from, int32_t to, int32_t c, int32_t why) {
    uint64_t b = card_bit(c);
    st->hand[from] &= ~b;
    st->hand[to] |= b;
    kn_give(st, from, to, b, why == CC_NOTAKERS_GIVE_NO_TAKERS ? CC_DECK52_MASK : st->ask_match);
    log_ev(st, CC_NOTAKERS_EV_GIVE, from, to, c, why, (1u << from) | (1u << to));
}

static int32_t cc_notakers_apply(void *state, int32_t a) {
    nt_state *st = (nt_state *)state;
    int32_t r = cc_notakers_verify(state, a);
    if (r != 0) return cc_status_error(r, CC_E_ILLEGAL);
    int32_t p = st->actor;
    int32_t asker = st->turn_player;
    switch (st->phase) {
    case CC_NOTAKERS_PHASE_TURN:
        if (a == CC_NOTAKERS_A_DRAW) {
            draw(st, p, 0);
            if (st->phase != CC_NOTAKERS_PHASE_OVER) end_turn(st);
        } else if (a >= CC_NOTAKERS_A_ASK) {
            int32_t k = (a - CC_NOTAKERS_A_ASK) / CC_NOTAKERS_NUM_DESCRIPTORS + 1;
            int32_t d = (a - CC_NOTAKERS_A_ASK) % CC_NOTAKERS_NUM_DESCRIPTORS;
            int32_t q = seat_after(st, p, k);
            st->ask_target = q;
            st->ask_desc = d;
            st->ask_match = desc_match(d);
            st->any_given = 0;
            st->given = 0;
            st->fb_gave = 0;
            log_ev(st, CC_NOTAKERS_EV_ASK, p, q, d, 0, CC_SEEN_ALL);
            if (st->hand[q] & st->ask_match) {
                st->phase = CC_NOTAKERS_PHASE_GIVE;
                st->actor = q;
            } else {
                log_ev(st, CC_NOTAKERS_EV_PASS, q, p, 0, 0, CC_SEEN_ALL);
                kn_no_match(st, q, st->ask_match);
                st->fb_k = 0;
                fallback_next(st);
            }
        } else { /* the first card of a Save */
            st->phase = CC_NOTAKERS_PHASE_SAVE;
            st->selection = card_bit(a - CC_NOTAKERS_A_SAVE);
        }
        break;
    case CC_NOTAKERS_PHASE_SAVE:
        if (a == CC_NOTAKERS_A_SAVE_CANCEL) {
            st->selection = 0;
            st->cancels++;
            st->phase = CC_NOTAKERS_PHASE_TURN;
        } else if (a == CC_NOTAKERS_A_SAVE_DONE) {
            uint32_t seen = st->params[CC_NOTAKERS_P_SAVE_VISIBILITY] == CC_NOTAKERS_SAVES_OPEN
                                ? CC_SEEN_ALL
                                : (1u << p);
            uint64_t sel = st->selection;
            while (sel) {
                int32_t bit = cc_ctz64(sel);
                sel &= sel - 1;
                log_ev(st, CC_NOTAKERS_EV_SAVE, p, 0, cc_card52_id_of_bit(bit), 0, seen);
            }
            kn_save(st, p, st->selection);
            st->hand[p] &= ~st->selection;
            st->save[p] |= st->selection;
            st->selection = 0;
            end_turn(st);
        } else {
            st->selection |= card_bit(a - CC_NOTAKERS_A_SAVE);
        }
        break;
    case CC_NOTAKERS_PHASE_GIVE:
        if (a == CC_NOTAKERS_A_GIVE_DONE) {
            end_turn(st);
            break;
        }
        give(st, p, asker, a - CC_NOTAKERS_A_GIVE, CC_NOTAKERS_GIVE_ASKED);
        st->given++;
        st->any_given = 1;
        if (!(st->hand[p] & st->ask_match)) end_turn(st);
        break;
    case CC_NOTAKERS_PHASE_FALLBACK:
        if (a == CC_NOTAKERS_A_GIVE_DONE) {
            fallback_next(st);
            break;
        }
        give(st, p, asker, a - CC_NOTAKERS_A_GIVE, CC_NOTAKERS_GIVE_FALLBACK);
        st->given++;
        st->any_given = 1;
        st->fb_gave |= 1u << p;
        if (st->params[CC_NOTAKERS_P_PASS_FALLBACK] == CC_NOTAKERS_FALLBACK_FIRST_HOLDER_ONLY)
            end_turn(st);
        else if (st->params[CC_NOTAKERS_P_PASS_FALLBACK] == CC_NOTAKERS_FALLBACK_EACH_ONE ||
                 !(st->hand[p] & st->ask_match))
            fallback_next(st);
        break;
    case CC_NOTAKERS_PHASE_NO_TAKERS: {
        int32_t to = seat_after(st, asker, st->nt_k);
        give(st, p, to, a - CC_NOTAKERS_A_GIVE, CC_NOTAKERS_GIVE_NO_TAKERS);
        st->given++;
        st->nt_k++;
        if (st->nt_k >= st->n || st->hand[p] == 0) end_turn(st);
        break;
    }
    default: return CC_E_ILLEGAL; /* (unreachable: verify refused it) */
    }
    return 0;
}

static void cc_notakers_returns(const void *state, int32_t *out) {
    const nt_state *st = (const nt_state *)state;
    if (st == NULL || out == NULL) return;
    for (int32_t p = 0; p < st->n; p++)
        out[p] = st->phase == CC_NOTAKERS_PHASE_OVER ? st->points[p] : 0;
}

const cc_game cc_game_notakers = {
    CC_GAME_HEADER,
    .name = "notakers",
    .min_players = 2,
    .max_players = CC_MAX_PLAYERS,
    .deck_size = CC_DECK_52,
    .state_size = sizeof(nt_state),
    .log_offset = offsetof(nt_state, log),
    .log_capacity = CC_NOTAKERS_LOG_CAPACITY,
    .num_params = CC_NOTAKERS_NUM_PARAMS,
    .params = PARAMS,
    .check_params = NULL, /* no constraint between the parameters */
    .num_actions = cc_notakers_num_actions,
    .tensor_size = cc_notakers_tensor_size,
    .segments = cc_notakers_segments,
    .num_event_kinds = CC_NOTAKERS_NUM_EVENT_KINDS,
    .event_kinds = EVENT_KINDS,
    .num_action_ranges = NUM_ACTION_RANGES,
    .action_ranges = ACTION_RANGES,
    .init = cc_notakers_init,
    .init_deck = cc_notakers_init_deck,
    .current_player = cc_notakers_current_player,
    .legal_actions = cc_notakers_legal_actions,
    .verify = cc_notakers_verify,
    .reason_text = cc_notakers_reason_text,
    .apply = cc_notakers_apply,
    .returns = cc_notakers_returns,
    .observe_tensor = cc_notakers_observe_tensor,
    .sample_infoset = cc_notakers_sample_infoset,
    .heuristic = cc_notakers_heuristic,
};
