/* notakers.c: the game No Takers? (RULES.md 3.2) behind the generic cc_game
 * table.  The action encoding, phases and events are in cc_notakers.h and
 * docs/notakers.rst.  Seats 0..n-1 play in this order; seat 0 starts (the
 * dealer is seat n-1). */
#include "cc_notakers.h"

#include "cc_internal.h"

enum {
    P_SAVE_REQUIRES_SET = 0,
    P_SAVE_VISIBILITY,
    P_PASS_FALLBACK,
    P_SHORT_DRAW,
    P_MAX_TURNS,
    P_ACE_IN_RUNS,
    P_TIEBREAK_ACE,
};

enum { FB_EACH_ONE = 0, FB_EACH_AT_LEAST_ONE = 1, FB_FIRST_HOLDER_ONLY = 2 };
enum { GIVE_ASKED = 0, GIVE_FALLBACK = 1, GIVE_NO_TAKERS = 2 };
enum { END_PILE = 0, END_MAX_TURNS = 1, END_LOG = 2 };

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
};

typedef struct nt_ev {
    uint8_t kind;
    uint8_t player;
    uint8_t target;
    int8_t value;
    uint8_t extra;
    uint8_t seen; /* bitmask of seats; 0 = everybody */
} nt_ev;

typedef struct nt_state {
    int32_t params[CC_NT_NUM_PARAMS];
    int32_t n;
    int32_t phase;
    int32_t turn_player; /* whose turn it is (the saver or asker) */
    int32_t actor;       /* current player */
    int32_t turns;       /* completed turns */
    int32_t top;         /* next card of deck[] to draw */
    int32_t ask_target;
    int32_t ask_desc;
    int32_t given;     /* cards given by the current giver in this phase */
    int32_t any_given; /* someone gave the asker a card in this ask */
    int32_t fb_k;      /* pass fallback: seat offset from the asked player */
    uint32_t fb_gave;  /* pass fallback: seats that gave */
    int32_t nt_k;      /* No Takers: seat offset of the next receiver */
    int32_t nevents;
    int32_t points[CC_MAX_PLAYERS];
    uint64_t ask_match;
    uint64_t selection;
    uint64_t hand[CC_MAX_PLAYERS];
    uint64_t save[CC_MAX_PLAYERS];
    uint8_t deck[CC_NUM_CARDS52];
    /* What each observer o knows of seat q's cards (see "knowledge" below):
     * in_hand[o][q] are in q's hand, held[o][q] (a superset) in q's hand or
     * save pile, not_in_hand[o][q] are not in q's hand.  Rows o == q are 0. */
    uint64_t in_hand[CC_MAX_PLAYERS][CC_MAX_PLAYERS];
    uint64_t held[CC_MAX_PLAYERS][CC_MAX_PLAYERS];
    uint64_t not_in_hand[CC_MAX_PLAYERS][CC_MAX_PLAYERS];
    nt_ev ev[CC_NT_MAX_EVENTS];
} nt_state;

static uint64_t card_bit(int32_t c) { return (uint64_t)1 << (16 * (c / 13) + c % 13); }

static uint64_t desc_match(int32_t d) {
    if (d < 13) return 0x0001000100010001ULL << d;
    if (d < 17) return (uint64_t)0x1FFF << (16 * (d - 13));
    return card_bit(d - 17);
}

/* ---- knowledge ---------------------------------------------------------
 * Exact facts an observer learns, kept for the information-set sampler
 * (docs/notakers.rst, "Information-set sampling").  Each update only drops
 * a fact when it may have stopped being true. */

/* Seat q drew cards unseen by the others: any card may be in his hand now. */
static void kn_draw(nt_state *st, int32_t q) {
    for (int32_t o = 0; o < st->n; o++) st->not_in_hand[o][q] = 0;
}

/* Seat q held no card of mask in hand (a Pass, or passed over). */
static void kn_no_match(nt_state *st, int32_t q, uint64_t mask) {
    for (int32_t o = 0; o < st->n; o++)
        if (o != q) st->not_in_hand[o][q] |= mask;
}

/* Seat q saved the cards sel: open saves are public; a hidden save may hold
 * any card known to be in his hand. */
static void kn_save(nt_state *st, int32_t q, uint64_t sel) {
    for (int32_t o = 0; o < st->n; o++) {
        if (o == q) continue;
        if (st->params[P_SAVE_VISIBILITY]) {
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

static void log_ev(nt_state *st, int32_t kind, int32_t player, int32_t target, int32_t value,
                   int32_t extra, uint32_t seen) {
    if (st->nevents >= CC_NT_MAX_EVENTS) return; /* cannot happen: see start_turn */
    nt_ev *e = &st->ev[st->nevents++];
    e->kind = (uint8_t)kind;
    e->player = (uint8_t)player;
    e->target = (uint8_t)target;
    e->value = (int8_t)value;
    e->extra = (uint8_t)extra;
    e->seen = (uint8_t)seen;
}

static void finish(nt_state *st, int32_t reason) {
    st->phase = CC_NT_PHASE_OVER;
    st->actor = CC_PLAYER_TERMINAL;
    log_ev(st, CC_NT_EV_END, st->turn_player, 0, reason, 0, 0);
    int32_t ace = st->params[P_ACE_IN_RUNS], tb = st->params[P_TIEBREAK_ACE];
    int32_t best = -1;
    for (int32_t p = 0; p < st->n; p++) {
        st->points[p] = cc_notakers_points(st->hand[p] | st->save[p], ace);
        if (st->points[p] > best) best = st->points[p];
    }
    /* Ties on points: the best key among the tied players wins (shared if equal). */
    uint32_t winners = 0;
    int32_t ntied = 0;
    for (int32_t p = 0; p < st->n; p++)
        if (st->points[p] == best) {
            winners |= 1u << p;
            ntied++;
        }
    if (ntied > 1) {
        cc_nt_split top, cur;
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
        log_ev(st, CC_NT_EV_SCORE, p, 0, st->points[p], (int32_t)((winners >> p) & 1u), 0);
}

/* Draw for player p (RULES.md 3.2.3 and 3.2.6); may end the game. */
static void draw(nt_state *st, int32_t p, int32_t forced) {
    int32_t left = CC_NUM_CARDS52 - st->top;
    int32_t take = st->n;
    if (left < st->n) take = st->params[P_SHORT_DRAW] == 0 ? left : 0;
    if (take > 0) kn_draw(st, p);
    for (int32_t i = 0; i < take; i++) {
        int32_t c = st->deck[st->top++];
        st->hand[p] |= card_bit(c);
        log_ev(st, CC_NT_EV_DRAW, p, 0, c, forced, 1u << p);
    }
    if (left <= st->n) finish(st, END_PILE);
}

static void start_turn(nt_state *st, int32_t p) {
    st->turn_player = p;
    st->selection = 0;
    if (st->nevents + CC_NT_TURN_EVENTS > CC_NT_MAX_EVENTS) {
        finish(st, END_LOG);
        return;
    }
    if (st->hand[p] == 0) {
        draw(st, p, 1);
        if (st->phase == CC_NT_PHASE_OVER) return;
    }
    st->phase = CC_NT_PHASE_TURN;
    st->actor = p;
}

static void end_turn(nt_state *st) {
    st->turns++;
    st->ask_match = 0;
    st->ask_desc = -1;
    st->ask_target = -1;
    if (st->params[P_MAX_TURNS] > 0 && st->turns >= st->params[P_MAX_TURNS]) {
        finish(st, END_MAX_TURNS);
        return;
    }
    start_turn(st, (st->turn_player + 1) % st->n);
}

static void no_takers(nt_state *st) {
    int32_t asker = st->turn_player;
    log_ev(st, CC_NT_EV_NO_TAKERS, asker, 0, 0, 0, 0);
    if (st->hand[asker] == 0) {
        end_turn(st);
        return;
    }
    st->phase = CC_NT_PHASE_NO_TAKERS;
    st->actor = asker;
    st->nt_k = 1;
    st->given = 0;
}

/* Move the pass fallback to the next holder after offset fb_k, or resolve. */
static void fallback_next(nt_state *st) {
    int32_t asker = st->turn_player;
    for (int32_t k = st->fb_k + 1; k < st->n; k++) {
        int32_t q = (st->ask_target + k) % st->n;
        if (q == asker) continue;
        if (!(st->hand[q] & st->ask_match)) {
            kn_no_match(st, q, st->ask_match);
            continue;
        }
        st->fb_k = k;
        st->actor = q;
        st->given = 0;
        st->phase = CC_NT_PHASE_FALLBACK;
        return;
    }
    st->fb_k = st->n;
    if (st->any_given) end_turn(st);
    else no_takers(st);
}

/* ---- rules as a table ------------------------------------------------ */

static int32_t nt_check_params(const int32_t *pr, int32_t n) {
    if (n < 2 || n > 8) return CC_E_PLAYERS;
    if (pr == NULL) return CC_E_PARAMS;
    if (pr[P_SAVE_REQUIRES_SET] < 0 || pr[P_SAVE_REQUIRES_SET] > 1) return CC_E_PARAMS;
    if (pr[P_SAVE_VISIBILITY] < 0 || pr[P_SAVE_VISIBILITY] > 1) return CC_E_PARAMS;
    if (pr[P_PASS_FALLBACK] < 0 || pr[P_PASS_FALLBACK] > 2) return CC_E_PARAMS;
    if (pr[P_SHORT_DRAW] < 0 || pr[P_SHORT_DRAW] > 1) return CC_E_PARAMS;
    if (pr[P_MAX_TURNS] < 0 || pr[P_MAX_TURNS] > 1000000) return CC_E_PARAMS;
    if (pr[P_ACE_IN_RUNS] < 0 || pr[P_ACE_IN_RUNS] > 2) return CC_E_PARAMS;
    if (pr[P_TIEBREAK_ACE] < 0 || pr[P_TIEBREAK_ACE] > 1) return CC_E_PARAMS;
    return CC_OK;
}

static int32_t nt_num_actions(const int32_t *pr, int32_t n) {
    (void)pr;
    return CC_NT_A_ASK + CC_NT_NUM_DESCRIPTORS * (n - 1);
}

/* Tensor layout: see docs/notakers.rst. */
static int32_t nt_tensor_size(const int32_t *pr, int32_t n) {
    (void)pr;
    return 156 + 52 * (n - 1) + 7 * n + 78;
}

/* The first deal from deck (top first): deck[i] for i < floor(26/n) * n goes
 * to seat i % n; the rest of deck[] is the draw pile, deck[top] on top. */
static int32_t deal(void *state, const int32_t *pr, int32_t n, const uint8_t *deck) {
    if (state == NULL) return CC_E_ARG;
    int32_t rc = nt_check_params(pr, n);
    if (rc != CC_OK) return rc;
    nt_state *st = (nt_state *)state;
    memset(st, 0, sizeof *st);
    memcpy(st->params, pr, sizeof st->params);
    st->n = n;
    st->ask_desc = -1;
    st->ask_target = -1;
    memcpy(st->deck, deck, CC_NUM_CARDS52);
    int32_t each = 26 / n;
    for (int32_t i = 0; i < each * n; i++) {
        int32_t c = st->deck[i];
        st->hand[i % n] |= card_bit(c);
        log_ev(st, CC_NT_EV_DEAL, i % n, 0, c, 0, 1u << (i % n));
    }
    st->top = each * n;
    start_turn(st, 0);
    return CC_OK;
}

static int32_t nt_init(void *state, const int32_t *pr, int32_t n, uint64_t seed) {
    uint8_t deck[CC_NUM_CARDS52];
    cc_shuffled_deck(seed, deck, CC_NUM_CARDS52);
    return deal(state, pr, n, deck);
}

/* The deck must be a permutation of the 52 cards; the seed is not used (the
 * game shuffles only once). */
static int32_t nt_init_deck(void *state, const int32_t *pr, int32_t n, uint64_t seed,
                            const uint8_t *deck, int32_t ndeck) {
    (void)seed;
    if (deck == NULL || ndeck != CC_NUM_CARDS52) return CC_E_ARG;
    uint64_t seen = 0;
    for (int32_t i = 0; i < ndeck; i++) {
        if (deck[i] >= CC_NUM_CARDS52 || (seen >> deck[i]) & 1u) return CC_E_ARG;
        seen |= (uint64_t)1 << deck[i];
    }
    return deal(state, pr, n, deck);
}

static int32_t nt_current_player(const void *state) {
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
        if (ace != CC_NT_ACE_HIGH && (x & (x >> 1) & (x >> 2))) return 1;
        uint32_t h = (x >> 1) | ((x & 1u) << 12);
        if (ace != CC_NT_ACE_LOW && (h & (h >> 1) & (h >> 2))) return 1;
    }
    return 0;
}

static int32_t nt_verify(const void *state, int32_t a) {
    const nt_state *st = (const nt_state *)state;
    if (st->phase == CC_NT_PHASE_OVER) return R_GAME_OVER;
    if (a < 0 || a >= nt_num_actions(st->params, st->n)) return R_RANGE;
    int32_t p = st->actor;
    uint64_t hand = st->hand[p];
    switch (st->phase) {
    case CC_NT_PHASE_TURN:
        if (a == CC_NT_A_DRAW || a >= CC_NT_A_ASK) return 0;
        if (a >= CC_NT_A_SAVE && a < CC_NT_A_GIVE) {
            if (!(hand & card_bit(a - CC_NT_A_SAVE))) return R_NOT_IN_HAND;
            if (cc_popcount64(hand) < 3) return R_HAND_TOO_SMALL;
            if (st->params[P_SAVE_REQUIRES_SET] && !has_save_set(hand, st->params[P_ACE_IN_RUNS]))
                return R_NO_SET_IN_HAND;
            return 0;
        }
        return R_PHASE;
    case CC_NT_PHASE_SAVE:
        if (a == CC_NT_A_SAVE_CANCEL) return 0;
        if (a == CC_NT_A_SAVE_DONE) {
            if (cc_popcount64(st->selection) < 3) return R_SAVE_TOO_SMALL;
            if (st->params[P_SAVE_REQUIRES_SET] &&
                cc_notakers_splits_exactly(st->selection, st->params[P_ACE_IN_RUNS]) != 1)
                return R_NOT_SETS;
            return 0;
        }
        if (a >= CC_NT_A_SAVE && a < CC_NT_A_GIVE) {
            uint64_t b = card_bit(a - CC_NT_A_SAVE);
            if (!(hand & b)) return R_NOT_IN_HAND;
            if (st->selection & b) return R_ALREADY_CHOSEN;
            return 0;
        }
        return R_PHASE;
    case CC_NT_PHASE_GIVE:
    case CC_NT_PHASE_FALLBACK:
        if (a == CC_NT_A_GIVE_DONE) {
            if (st->phase == CC_NT_PHASE_FALLBACK &&
                st->params[P_PASS_FALLBACK] != FB_EACH_AT_LEAST_ONE)
                return R_PHASE;
            return st->given >= 1 ? 0 : R_GIVE_FIRST;
        }
        if (a >= CC_NT_A_GIVE && a < CC_NT_A_ASK) {
            uint64_t b = card_bit(a - CC_NT_A_GIVE);
            if (!(hand & b)) return R_NOT_IN_HAND;
            if (!(st->ask_match & b)) return R_NO_MATCH;
            return 0;
        }
        return R_PHASE;
    case CC_NT_PHASE_NO_TAKERS:
        if (a >= CC_NT_A_GIVE && a < CC_NT_A_ASK) {
            if (!(hand & card_bit(a - CC_NT_A_GIVE))) return R_NOT_IN_HAND;
            return 0;
        }
        return R_PHASE;
    default:
        return R_PHASE;
    }
}

static void set_card_actions(uint64_t *mask, int32_t base, uint64_t cards) {
    while (cards) {
        int32_t bit = cc_ctz64(cards);
        cards &= cards - 1;
        cc_mask_set(mask, base + cc_card52_id_of_bit(bit));
    }
}

static int32_t nt_legal_actions(const void *state, uint64_t *mask) {
    const nt_state *st = (const nt_state *)state;
    if (st->phase == CC_NT_PHASE_OVER) return 0;
    int32_t p = st->actor;
    uint64_t hand = st->hand[p];
    int32_t count = 0;
    switch (st->phase) {
    case CC_NT_PHASE_TURN: {
        cc_mask_set(mask, CC_NT_A_DRAW);
        count = 1;
        if (cc_popcount64(hand) >= 3 &&
            (!st->params[P_SAVE_REQUIRES_SET] || has_save_set(hand, st->params[P_ACE_IN_RUNS]))) {
            set_card_actions(mask, CC_NT_A_SAVE, hand);
            count += cc_popcount64(hand);
        }
        int32_t lo = CC_NT_A_ASK, hi = nt_num_actions(st->params, st->n);
        for (int32_t a = lo; a < hi; a++) cc_mask_set(mask, a);
        count += hi - lo;
        break;
    }
    case CC_NT_PHASE_SAVE:
        cc_mask_set(mask, CC_NT_A_SAVE_CANCEL);
        count = 1;
        if (nt_verify(state, CC_NT_A_SAVE_DONE) == 0) {
            cc_mask_set(mask, CC_NT_A_SAVE_DONE);
            count++;
        }
        set_card_actions(mask, CC_NT_A_SAVE, hand & ~st->selection);
        count += cc_popcount64(hand & ~st->selection);
        break;
    case CC_NT_PHASE_GIVE:
    case CC_NT_PHASE_FALLBACK:
        if (nt_verify(state, CC_NT_A_GIVE_DONE) == 0) {
            cc_mask_set(mask, CC_NT_A_GIVE_DONE);
            count++;
        }
        set_card_actions(mask, CC_NT_A_GIVE, hand & st->ask_match);
        count += cc_popcount64(hand & st->ask_match);
        break;
    case CC_NT_PHASE_NO_TAKERS:
        set_card_actions(mask, CC_NT_A_GIVE, hand);
        count = cc_popcount64(hand);
        break;
    default:
        break;
    }
    return count;
}

static const char *nt_reason_text(int32_t reason) {
    if (reason < 0 || reason >= R_NUM_REASONS) return "unknown reason";
    return REASONS[reason];
}

static void give(nt_state *st, int32_t from, int32_t to, int32_t c, int32_t why) {
    uint64_t b = card_bit(c);
    st->hand[from] &= ~b;
    st->hand[to] |= b;
    kn_give(st, from, to, b, why == GIVE_NO_TAKERS ? CC_DECK52_MASK : st->ask_match);
    log_ev(st, CC_NT_EV_GIVE, from, to, c, why, (1u << from) | (1u << to));
}

static int32_t nt_apply(void *state, int32_t a) {
    nt_state *st = (nt_state *)state;
    int32_t r = nt_verify(state, a);
    if (r != 0) return r;
    int32_t p = st->actor;
    int32_t asker = st->turn_player;
    switch (st->phase) {
    case CC_NT_PHASE_TURN:
        if (a == CC_NT_A_DRAW) {
            draw(st, p, 0);
            if (st->phase != CC_NT_PHASE_OVER) end_turn(st);
        } else if (a >= CC_NT_A_ASK) {
            int32_t k = (a - CC_NT_A_ASK) / CC_NT_NUM_DESCRIPTORS + 1;
            int32_t d = (a - CC_NT_A_ASK) % CC_NT_NUM_DESCRIPTORS;
            int32_t q = (p + k) % st->n;
            st->ask_target = q;
            st->ask_desc = d;
            st->ask_match = desc_match(d);
            st->any_given = 0;
            st->given = 0;
            st->fb_gave = 0;
            log_ev(st, CC_NT_EV_ASK, p, q, d, 0, 0);
            if (st->hand[q] & st->ask_match) {
                st->phase = CC_NT_PHASE_GIVE;
                st->actor = q;
            } else {
                log_ev(st, CC_NT_EV_PASS, q, p, 0, 0, 0);
                kn_no_match(st, q, st->ask_match);
                st->fb_k = 0;
                fallback_next(st);
            }
        } else { /* the first card of a Save */
            st->phase = CC_NT_PHASE_SAVE;
            st->selection = card_bit(a - CC_NT_A_SAVE);
        }
        break;
    case CC_NT_PHASE_SAVE:
        if (a == CC_NT_A_SAVE_CANCEL) {
            st->selection = 0;
            st->phase = CC_NT_PHASE_TURN;
        } else if (a == CC_NT_A_SAVE_DONE) {
            uint32_t seen = st->params[P_SAVE_VISIBILITY] ? 0u : (1u << p);
            uint64_t sel = st->selection;
            while (sel) {
                int32_t bit = cc_ctz64(sel);
                sel &= sel - 1;
                log_ev(st, CC_NT_EV_SAVE, p, 0, cc_card52_id_of_bit(bit), 0, seen);
            }
            kn_save(st, p, st->selection);
            st->hand[p] &= ~st->selection;
            st->save[p] |= st->selection;
            st->selection = 0;
            end_turn(st);
        } else {
            st->selection |= card_bit(a - CC_NT_A_SAVE);
        }
        break;
    case CC_NT_PHASE_GIVE:
        if (a == CC_NT_A_GIVE_DONE) {
            end_turn(st);
            break;
        }
        give(st, p, asker, a - CC_NT_A_GIVE, GIVE_ASKED);
        st->given++;
        st->any_given = 1;
        if (!(st->hand[p] & st->ask_match)) end_turn(st);
        break;
    case CC_NT_PHASE_FALLBACK:
        if (a == CC_NT_A_GIVE_DONE) {
            fallback_next(st);
            break;
        }
        give(st, p, asker, a - CC_NT_A_GIVE, GIVE_FALLBACK);
        st->given++;
        st->any_given = 1;
        st->fb_gave |= 1u << p;
        if (st->params[P_PASS_FALLBACK] == FB_FIRST_HOLDER_ONLY) end_turn(st);
        else if (st->params[P_PASS_FALLBACK] == FB_EACH_ONE || !(st->hand[p] & st->ask_match))
            fallback_next(st);
        break;
    case CC_NT_PHASE_NO_TAKERS: {
        int32_t to = (asker + st->nt_k) % st->n;
        give(st, p, to, a - CC_NT_A_GIVE, GIVE_NO_TAKERS);
        st->given++;
        st->nt_k++;
        if (st->nt_k >= st->n || st->hand[p] == 0) end_turn(st);
        break;
    }
    default:
        return R_PHASE;
    }
    return 0;
}

static void nt_returns(const void *state, int32_t *out) {
    const nt_state *st = (const nt_state *)state;
    for (int32_t p = 0; p < st->n; p++)
        out[p] = st->phase == CC_NT_PHASE_OVER ? st->points[p] : 0;
}

static void put_cards(float *out, uint64_t cards) {
    while (cards) {
        int32_t bit = cc_ctz64(cards);
        cards &= cards - 1;
        out[cc_card52_id_of_bit(bit)] = 1.0f;
    }
}

static int32_t nt_observe_tensor(const void *state, int32_t player, float *out) {
    const nt_state *st = (const nt_state *)state;
    int32_t n = st->n;
    if (player < 0 || player >= n || out == NULL) return CC_E_ARG;
    memset(out, 0, sizeof(float) * (size_t)nt_tensor_size(st->params, n));
    int32_t over = st->phase == CC_NT_PHASE_OVER;
    put_cards(out, st->hand[player]);
    put_cards(out + 52, st->save[player]);
    if (st->phase == CC_NT_PHASE_SAVE && st->actor == player) put_cards(out + 104, st->selection);
    int32_t o = 156;
    for (int32_t k = 1; k < n; k++, o += 52)
        if (st->params[P_SAVE_VISIBILITY]) put_cards(out + o, st->save[(player + k) % n]);
    for (int32_t k = 0; k < n; k++) {
        int32_t q = (player + k) % n;
        out[o + k] = (float)cc_popcount64(st->hand[q]);
        out[o + n + k] = (float)cc_popcount64(st->save[q]);
    }
    o += 2 * n;
    out[o++] = (float)(CC_NUM_CARDS52 - st->top);
    out[o++] = (float)st->turns;
    if (!over) out[o + (st->actor - player + n) % n] = 1.0f;
    o += n;
    out[o + st->phase] = 1.0f;
    o += CC_NT_NUM_PHASES;
    int32_t asking = st->phase == CC_NT_PHASE_GIVE || st->phase == CC_NT_PHASE_FALLBACK ||
                     st->phase == CC_NT_PHASE_NO_TAKERS;
    if (asking) {
        out[o + (st->turn_player - player + n) % n] = 1.0f;
        out[o + n + (st->ask_target - player + n) % n] = 1.0f;
        out[o + 2 * n + st->ask_desc] = 1.0f;
        out[o + 2 * n + CC_NT_NUM_DESCRIPTORS] = (float)st->given;
    }
    o += 2 * n + CC_NT_NUM_DESCRIPTORS + 1;
    if (st->phase == CC_NT_PHASE_NO_TAKERS)
        out[o + (st->turn_player + st->nt_k - player + 2 * n) % n] = 1.0f;
    o += n;
    if (over)
        for (int32_t k = 0; k < n; k++) out[o + k] = (float)st->points[(player + k) % n];
    return CC_OK;
}

static int32_t nt_events(const void *state, cc_event *out, int32_t cap) {
    const nt_state *st = (const nt_state *)state;
    if (out != NULL) {
        for (int32_t i = 0; i < st->nevents && i < cap; i++) {
            const nt_ev *e = &st->ev[i];
            out[i].kind = e->kind;
            out[i].player = e->player;
            out[i].target = e->target;
            out[i].value = e->value;
            out[i].extra = e->extra;
            out[i].seen_by = e->seen ? (uint32_t)e->seen : CC_SEEN_ALL;
        }
    }
    return st->nevents;
}

/* ---- information-set sampling (docs/notakers.rst) ------------------------
 * The hidden cards (pool) are dealt again to the other hands, the hidden
 * save piles and the draw pile, uniformly among the deals that keep every
 * count and the observer's knowledge: in_hand cards stay in that hand,
 * held cards in that hand or save pile, not_in_hand cards out of that hand,
 * and the current giver holds a match.  A proposal places the known cards,
 * then takes each other seat in turn (seats with a not_in_hand constraint
 * first): a seat without a hidden save pile gets a uniform subset of the
 * remaining free cards outside not_in_hand; one with a hidden save pile
 * gets a uniform subset of the free cards for hand and save together, then
 * a uniform subset of those allowed in hand is its hand.  A step with k
 * allowed cards for h places is kept with probability C(k, h) / C(K, h), K
 * a bound on k that does not depend on the draws; so every accepted deal has
 * the same probability.  A rejected proposal starts again. */

#define NT_SAMPLE_TRIES_EXACT 20000
#define NT_SAMPLE_TRIES 100000

static uint64_t binom(int32_t n, int32_t k) {
    if (k < 0 || k > n) return 0;
    uint64_t c = 1;
    for (int32_t i = 0; i < k; i++) c = c * (uint64_t)(n - i) / (uint64_t)(i + 1);
    return c;
}

/* A uniform subset of k cards of set: its cards ascending, shuffled, the
 * first k. */
static uint64_t random_subset(cc_rng *rng, uint64_t set, int32_t k) {
    uint8_t ids[CC_NUM_CARDS52];
    int32_t m = 0;
    for (int32_t c = 0; c < CC_NUM_CARDS52; c++)
        if (set & card_bit(c)) ids[m++] = (uint8_t)c;
    cc_rng_shuffle_u8(rng, ids, m);
    uint64_t out = 0;
    for (int32_t i = 0; i < k && i < m; i++) out |= card_bit(ids[i]);
    return out;
}

/* Keep a step with probability C(k, h) / C(bound, h). */
static int32_t keep_step(cc_rng *rng, int32_t k, int32_t bound, int32_t h) {
    if (k < h) return 0;
    if (k >= bound) return 1;
    return cc_rng_below(rng, binom(bound, h)) < binom(k, h);
}

typedef struct nt_plan {
    int32_t n, player, nseats, hidden_saves;
    int32_t order[CC_MAX_PLAYERS];
    int32_t hand_free[CC_MAX_PLAYERS]; /* hand places left after in_hand cards */
    int32_t take[CC_MAX_PLAYERS];      /* free cards the seat's step takes */
    int32_t bound[CC_MAX_PLAYERS];
    uint64_t fixed[CC_MAX_PLAYERS]; /* in hand for sure */
    uint64_t either[CC_MAX_PLAYERS]; /* in hand or hidden save pile */
    uint64_t out[CC_MAX_PLAYERS];   /* not in hand */
    uint64_t free;
} nt_plan;

static void make_plan(const nt_state *st, int32_t player, const uint64_t *not_in, nt_plan *pl) {
    int32_t n = st->n;
    int32_t open = st->params[P_SAVE_VISIBILITY];
    uint64_t known = st->hand[player] | st->save[player];
    if (open)
        for (int32_t q = 0; q < n; q++) known |= st->save[q];
    uint64_t pool = CC_DECK52_MASK & ~known;
    pl->n = n;
    pl->player = player;
    pl->hidden_saves = !open;
    pl->free = pool;
    for (int32_t q = 0; q < n; q++) {
        pl->fixed[q] = st->in_hand[player][q] & pool;
        pl->either[q] = st->held[player][q] & pool & ~pl->fixed[q];
        if (open || st->save[q] == 0) {
            pl->fixed[q] |= pl->either[q];
            pl->either[q] = 0;
        }
        pl->out[q] = not_in[q] & pool;
        pl->free &= ~(pl->fixed[q] | pl->either[q]);
    }
    pl->nseats = 0;
    for (int32_t pass = 0; pass < 2; pass++)
        for (int32_t k = 1; k < n; k++) {
            int32_t q = (player + k) % n;
            int32_t constrained = (pl->out[q] & (pl->free | pl->either[q])) != 0;
            if (constrained == (pass == 0)) pl->order[pl->nseats++] = q;
        }
    int32_t taken = 0;
    for (int32_t i = 0; i < pl->nseats; i++) {
        int32_t q = pl->order[i];
        int32_t h = cc_popcount64(st->hand[q]) - cc_popcount64(pl->fixed[q]);
        int32_t s = open ? 0 : cc_popcount64(st->save[q]);
        pl->hand_free[q] = h;
        uint64_t out = pl->out[q];
        if (s == 0) {
            /* cards taken before that lie outside out: at least taken minus
             * the most of out they can hold */
            int32_t in_out = 0;
            for (int32_t j = 0; j < i; j++) {
                int32_t r = pl->order[j];
                uint64_t could = pl->free & out;
                if (!pl->hidden_saves || st->save[r] == 0) could &= ~pl->out[r];
                int32_t m = cc_popcount64(could);
                in_out += pl->take[r] < m ? pl->take[r] : m;
            }
            int32_t outs = cc_popcount64(pl->free & out);
            if (in_out > outs) in_out = outs;
            int32_t low = taken - in_out;
            pl->take[q] = h;
            pl->bound[q] = cc_popcount64(pl->free & ~out) - (low > 0 ? low : 0);
        } else {
            int32_t u = h + s - cc_popcount64(pl->either[q]);
            int32_t fa = cc_popcount64(pl->free & ~out);
            int32_t b = cc_popcount64(pl->either[q] & ~out) + (u < fa ? u : fa);
            pl->take[q] = u;
            pl->bound[q] = b < h + s ? b : h + s;
        }
        taken += pl->take[q];
    }
}

/* One proposal into o (hands, hidden saves, the pile); 1 if kept. */
static int32_t propose(const nt_state *st, const nt_plan *pl, cc_rng *rng, nt_state *o) {
    uint64_t rest = pl->free;
    for (int32_t i = 0; i < pl->nseats; i++) {
        int32_t q = pl->order[i];
        int32_t h = pl->hand_free[q];
        uint64_t out = pl->out[q];
        if (!pl->hidden_saves || st->save[q] == 0) {
            uint64_t allowed = rest & ~out;
            if (!keep_step(rng, cc_popcount64(allowed), pl->bound[q], h)) return 0;
            uint64_t chosen = random_subset(rng, allowed, h);
            o->hand[q] = pl->fixed[q] | chosen;
            rest &= ~chosen;
        } else {
            uint64_t chosen = random_subset(rng, rest, pl->take[q]);
            uint64_t both = pl->either[q] | chosen;
            uint64_t allowed = both & ~out;
            if (!keep_step(rng, cc_popcount64(allowed), pl->bound[q], h)) return 0;
            uint64_t in_hand = random_subset(rng, allowed, h);
            o->hand[q] = pl->fixed[q] | in_hand;
            o->save[q] = both & ~in_hand;
            rest &= ~chosen;
        }
    }
    int32_t m = 0;
    for (int32_t c = 0; c < CC_NUM_CARDS52; c++)
        if (rest & card_bit(c)) o->deck[st->top + m++] = (uint8_t)c;
    cc_rng_shuffle_u8(rng, o->deck + st->top, m);
    int32_t ph = st->phase, a = st->actor;
    if ((ph == CC_NT_PHASE_GIVE || ph == CC_NT_PHASE_FALLBACK) && a != pl->player &&
        !(o->hand[a] & st->ask_match))
        return 0;
    if (ph == CC_NT_PHASE_SAVE && a != pl->player)
        o->selection = random_subset(rng, o->hand[a], cc_popcount64(st->selection));
    return 1;
}

/* The constraints of the current ask alone: the asked player and the
 * holders passed over hold no match. */
static void ask_constraints(const nt_state *st, uint64_t *not_in) {
    for (int32_t q = 0; q < st->n; q++) not_in[q] = 0;
    if (st->phase != CC_NT_PHASE_FALLBACK) return;
    not_in[st->ask_target] = st->ask_match;
    for (int32_t k = 1; k < st->fb_k; k++) {
        int32_t q = (st->ask_target + k) % st->n;
        if (q == st->turn_player || ((st->fb_gave >> q) & 1u)) continue;
        not_in[q] = st->ask_match;
    }
}

static int32_t nt_sample_infoset(const void *state, int32_t player, uint64_t seed, void *out) {
    const nt_state *st = (const nt_state *)state;
    if (out == NULL || player < 0 || player >= st->n) return CC_E_ARG;
    nt_state *o = (nt_state *)out;
    memcpy(o, st, sizeof *st);
    cc_rng rng;
    cc_rng_seed(&rng, seed);
    nt_plan plan;
    uint64_t not_in[CC_MAX_PLAYERS];
    int32_t ok = 0;
    for (int32_t q = 0; q < st->n; q++) not_in[q] = st->not_in_hand[player][q];
    make_plan(st, player, not_in, &plan);
    for (int32_t t = 0; t < NT_SAMPLE_TRIES_EXACT && !ok; t++) ok = propose(st, &plan, &rng, o);
    if (!ok) { /* too rare: keep only the current ask's constraints */
        ask_constraints(st, not_in);
        make_plan(st, player, not_in, &plan);
        for (int32_t t = 0; t < NT_SAMPLE_TRIES && !ok; t++) ok = propose(st, &plan, &rng, o);
    }
    if (!ok) return CC_E_CAPACITY;
    for (int32_t j = 0; j < st->top; j++) o->deck[j] = 0;
    for (int32_t i = 0; i < o->nevents; i++) {
        nt_ev *e = &o->ev[i];
        if (e->seen && !((e->seen >> player) & 1u)) e->value = -1;
    }
    /* Only the observer's knowledge holds in the sample. */
    for (int32_t q = 0; q < st->n; q++) {
        o->not_in_hand[player][q] = not_in[q];
        if (q == player) continue;
        for (int32_t r = 0; r < st->n; r++) {
            o->in_hand[q][r] = 0;
            o->held[q][r] = 0;
            o->not_in_hand[q][r] = 0;
        }
    }
    return CC_OK;
}

/* The observer's knowledge (cc_notakers.h). */
int32_t cc_notakers_knowledge(const void *state, int32_t player, uint64_t *out) {
    const nt_state *st = (const nt_state *)state;
    if (st == NULL || out == NULL || player < 0 || player >= st->n) return CC_E_ARG;
    for (int32_t q = 0; q < CC_MAX_PLAYERS; q++) {
        int32_t in = q < st->n;
        out[q] = in ? st->in_hand[player][q] : 0;
        out[CC_MAX_PLAYERS + q] = in ? st->held[player][q] : 0;
        out[2 * CC_MAX_PLAYERS + q] = in ? st->not_in_hand[player][q] : 0;
    }
    return CC_OK;
}

/* TRANSITIONAL: the old check_params signature */
static int32_t nt_check_params_t(const int32_t *params, int32_t nplayers, int32_t *bad) {
    (void)bad;
    return nt_check_params(params, nplayers);
}

const cc_game cc_game_notakers = {
    .name = "notakers",
    .min_players = 2,
    .max_players = 8,
    .deck_size = 52,
    .num_params = CC_NT_NUM_PARAMS,
    .state_size = sizeof(nt_state),
    .check_params = nt_check_params_t,
    .num_actions = nt_num_actions,
    .tensor_size = nt_tensor_size,
    .init = nt_init,
    .current_player = nt_current_player,
    .legal_actions = nt_legal_actions,
    .verify = nt_verify,
    .reason_text = nt_reason_text,
    .apply = nt_apply,
    .returns = nt_returns,
    .observe_tensor = nt_observe_tensor,
    .legacy_events = nt_events,
    .sample_infoset = nt_sample_infoset,
    .init_deck = nt_init_deck,
};
