/* nodde.c: Nodde Knave (docs/nodde.rst).
 *
 * The game transitions live here; the hand and play scoring is the
 * cribbage family's scorer (score_internal.h, combos.c), given Nodde's
 * rules: three cards and the turn-up, and the variants of the rules array.
 * The batch kernel and the distribution use lookup tables built from that
 * scorer, split by kind: the rank kinds (fifteens, pairs, runs, 31, 25)
 * depend only on the four ranks, the suit kinds (flush, knave noddy) only
 * on the suits and on which hand cards are Jacks. */
#include "cc_nodde.h"

#include "cc_internal.h"
#include "nodde_internal.h"

#define NUM_CARDS 52
#define JACK 10
#define TERMINAL CC_PLAYER_TERMINAL

/* ---- cards ------------------------------------------------------------ */

static inline int32_t rank_of(int32_t id) { return id % 13; }
static inline int32_t suit_of(int32_t id) { return id / 13; }
static inline int32_t pip_of_rank(int32_t r) { return r >= 9 ? 10 : r + 1; }
static inline int32_t pip_of(int32_t id) { return pip_of_rank(rank_of(id)); }
static inline uint64_t bit_of(int32_t id) {
    return (uint64_t)1 << (16 * suit_of(id) + rank_of(id));
}
/* A 13-bit rank mask repeated in the four suit lanes. */
static inline uint64_t lanes(uint32_t rank_mask) {
    return (uint64_t)rank_mask * 0x0001000100010001ULL;
}

/* ---- rules parameters ---------------------------------------------------- */

/* The rules table (docs/nodde.rst, "Rules parameters"): names are the fields
 * of the Python NoddeRules, in the same order, with the same defaults. */
static const cc_param nodde_params[CC_NODDE_NUM_PARAMS] = {
    [CC_NODDE_P_FOUR_PLAYER_MODE] = {.name = "four_player_mode", .kind = CC_PARAM_CHOICE,
                                     .min = 0, .max = 1, .default_value = 0,
                                     .choices = "partners|individual",
                                     .doc = "with 4 players: partners (0+2 against 1+3) or individual"},
    [CC_NODDE_P_RESHUFFLE] = {.name = "reshuffle_each_deal", .kind = CC_PARAM_BOOL, .min = 0,
                              .max = 1, .default_value = 1,
                              .doc = "reshuffle before every deal (false: 2 players only)"},
    [CC_NODDE_P_KNAVE_SCORER] = {.name = "turned_knave_scorer", .kind = CC_PARAM_CHOICE,
                                 .min = 0, .max = 1, .default_value = 0,
                                 .choices = "dealer|elder",
                                 .doc = "who pegs 2 for a Jack turned up"},
    [CC_NODDE_P_RUN_POINTS] = {.name = "run_points", .kind = CC_PARAM_CHOICE, .min = 0,
                               .max = 1, .default_value = 0, .choices = "mwynwen|per_card",
                               .doc = "a run of n: 2(n-2) (Lady Mwynwen's table) or n"},
    [CC_NODDE_P_FLUSH_RULE] = {.name = "flush_rule", .kind = CC_PARAM_CHOICE, .min = 0,
                               .max = 1, .default_value = 0,
                               .choices = "any3_of_4|hand3_required",
                               .doc = "a hand flush: any 3 of the 4 cards, or the 3 own cards"},
    [CC_NODDE_P_HAND_31] = {.name = "hand_31", .kind = CC_PARAM_CHOICE, .min = 0, .max = 2,
                            .default_value = 1, .choices = "off|flat2|flat4",
                            .doc = "the four cards of a hand totalling 31"},
    [CC_NODDE_P_SCORE_25] = {.name = "score_25", .kind = CC_PARAM_CHOICE, .min = 0, .max = 2,
                             .default_value = 0, .choices = "off|flat4|per_card",
                             .doc = "sets of 3+ cards totalling 25, and a play total of 25"},
    [CC_NODDE_P_FLUSH_IN_PLAY] = {.name = "flush_in_play", .kind = CC_PARAM_BOOL, .min = 0,
                                  .max = 1, .default_value = 1,
                                  .doc = "the last 3+ cards played of one suit score 1 each"},
    [CC_NODDE_P_GAME_TARGET] = {.name = "game_target", .kind = CC_PARAM_INT, .min = 1,
                                .max = CC_NODDE_MAX_TARGET, .default_value = 31,
                                .doc = "points to win"},
    [CC_NODDE_P_FIRST_DEALER] = {.name = "first_dealer", .kind = CC_PARAM_OPTIONAL, .min = 0,
                                 .max = CC_NODDE_MAX_PLAYERS - 1, .default_value = -1,
                                 .none_value = -1,
                                 .doc = "the first dealer's seat, or None: drawn from the seed"},
};

/* The constraints between parameters and with the player count. */
static int32_t g_check_params(const int32_t *params, int32_t nplayers, int32_t *bad) {
    int32_t ignored;
    if (bad == NULL) bad = &ignored;
    if (params == NULL) return CC_E_ARG;
    if (nplayers == 0) return CC_OK;
    /* docs/nodde.rst, "The deal": without reshuffling, two players only */
    if (params[CC_NODDE_P_RESHUFFLE] == 0 && nplayers != 2) {
        *bad = CC_NODDE_P_RESHUFFLE;
        return CC_E_PARAMS;
    }
    if (params[CC_NODDE_P_FIRST_DEALER] >= nplayers) {
        *bad = CC_NODDE_P_FIRST_DEALER;
        return CC_E_PARAMS;
    }
    return CC_OK;
}

/* The rules array of a scoring function: every value in range. */
static int32_t check_rules(const int32_t *params) {
    return cc_game_check_params(&cc_game_nodde, params, 0, NULL) == CC_OK ? CC_OK : CC_E_PARAMS;
}

/* ---- hand and play scoring: the family's scorers (score_internal.h) --------- */

/* The scorer's items as the API's (the same fields). */
static void copy_items(cc_nodde_item *out, const cc_score_item *items, int32_t n) {
    for (int32_t i = 0; i < n; i++) {
        out[i].kind = items[i].kind;
        out[i].points = items[i].points;
        out[i].cards = items[i].cards;
    }
}

/* The points of a valid 3-card hand with the turn-up. */
static inline int32_t hand_points(uint64_t hand, int32_t turnup, const int32_t *p) {
    cc_show_rules r = show_rules(p);
    return cc_show_points(hand, turnup, &r);
}

/* The three ids of a valid 3-card hand bitset, then the turn-up. */
static void hand_ids(uint64_t hand, int32_t turnup, int32_t *c) {
    for (int32_t i = 0; i < 3; i++) {
        c[i] = cc_card52_id_of_bit(cc_ctz64(hand));
        hand &= hand - 1;
    }
    c[3] = turnup;
}

/* Validate a hand and turn-up, then hand_ids. */
static int32_t hand_cards(uint64_t hand, int32_t turnup, int32_t *c) {
    if (hand & ~CC_DECK52_MASK) return CC_E_CARDS;
    if (cc_popcount64(hand) != 3) return CC_E_CARDS;
    if (turnup < 0 || turnup >= NUM_CARDS) return CC_E_CARDS;
    if (hand & bit_of(turnup)) return CC_E_CARDS;
    hand_ids(hand, turnup, c);
    return CC_OK;
}

int32_t cc_nodde_hand_items(uint64_t hand, int32_t turnup, const int32_t *params,
                            cc_nodde_item *out, int32_t cap) {
    if (check_rules(params) != CC_OK) return CC_E_PARAMS;
    int32_t c[4];
    int32_t rc = hand_cards(hand, turnup, c);
    if (rc != CC_OK) return rc;
    cc_show_rules r = show_rules(params);
    cc_score_item items[CC_SCORE_MAX_SHOW_ITEMS];
    int32_t n = cc_show_items(c, &r, items);
    if (n > cap || (n > 0 && out == NULL)) return CC_E_CAPACITY;
    cc_score_sort(items, n);
    copy_items(out, items, n);
    return n;
}

int32_t cc_nodde_score_hand(uint64_t hand, int32_t turnup, const int32_t *params) {
    if (check_rules(params) != CC_OK) return CC_E_PARAMS;
    int32_t c[4];
    int32_t rc = hand_cards(hand, turnup, c);
    if (rc != CC_OK) return rc;
    return hand_points(hand, turnup, params);
}

/* ---- play scoring ------------------------------------------------------------ */

int32_t cc_nodde_play_items(const uint8_t *seq, int32_t n, const int32_t *params,
                            cc_nodde_item *out, int32_t cap) {
    if (check_rules(params) != CC_OK) return CC_E_PARAMS;
    int32_t rc = cc_play_check(seq, n, CC_NODDE_MAX_PLAY);
    if (rc != CC_OK) return rc;
    cc_play_rules r = play_rules(params);
    cc_score_item items[CC_SCORE_MAX_PLAY_ITEMS];
    int32_t k = cc_play_items(seq, n, &r, items);
    if (k > cap || (k > 0 && out == NULL)) return CC_E_CAPACITY;
    copy_items(out, items, k);
    return k;
}

/* ---- batch hand scoring and the exact distribution ------------------------- */

#define RANK_TABLE 28561 /* 13^4: hand ranks r0 r1 r2 and turn-up rank */
#define SUIT_TABLE 2048  /* 4^4 suits x 8 (which hand cards are Jacks) */
#define BATCH_TABLE_MIN 8192

typedef struct tables {
    uint8_t rank[RANK_TABLE];
    uint8_t suit[SUIT_TABLE];
} tables;

/* Points of the rank kinds (rank_kinds 1: fifteens, pairs, runs, 31, 25,
 * which depend on the four ranks alone) or of the suit kinds (0: flush,
 * knave noddy) of the hand c[0..2] with the turn-up c[3]. */
static int32_t kind_points(const int32_t *c, const int32_t *p, int32_t rank_kinds) {
    cc_show_rules r = show_rules(p);
    uint64_t hand = bit_of(c[0]) | bit_of(c[1]) | bit_of(c[2]);
    return rank_kinds ? cc_show_rank_points(hand | bit_of(c[3]), &r)
                      : cc_show_suit_points(hand, c[3], &r);
}

static void build_tables(const int32_t *p, tables *t) {
    int32_t r[4], c[4];
    /* rank kinds are symmetric in the four cards: score each multiset once
     * (ranks ascending, suits 0..3 so the four cards are distinct) ... */
    for (r[0] = 0; r[0] < 13; r[0]++)
        for (r[1] = r[0]; r[1] < 13; r[1]++)
            for (r[2] = r[1]; r[2] < 13; r[2]++)
                for (r[3] = r[2]; r[3] < 13; r[3]++) {
                    for (int32_t i = 0; i < 4; i++) c[i] = i * 13 + r[i];
                    t->rank[((r[0] * 13 + r[1]) * 13 + r[2]) * 13 + r[3]] =
                        (uint8_t)kind_points(c, p, 1);
                }
    /* ... then copy it to every ordering */
    for (int32_t idx = 0; idx < RANK_TABLE; idx++) {
        int32_t q[4] = {idx / 2197, idx / 169 % 13, idx / 13 % 13, idx % 13};
        for (int32_t i = 1; i < 4; i++)
            for (int32_t j = i; j > 0 && q[j - 1] > q[j]; j--) {
                int32_t x = q[j];
                q[j] = q[j - 1];
                q[j - 1] = x;
            }
        t->rank[idx] = t->rank[((q[0] * 13 + q[1]) * 13 + q[2]) * 13 + q[3]];
    }
    /* suit kinds: hand ranks J or 2, 3, 4; turn-up rank 7 */
    static const int32_t plain[3] = {1, 2, 3};
    for (int32_t idx = 0; idx < SUIT_TABLE; idx++) {
        int32_t s[4] = {idx >> 9, idx >> 7 & 3, idx >> 5 & 3, idx >> 3 & 3};
        int32_t jm = idx & 7;
        for (int32_t i = 0; i < 3; i++) c[i] = s[i] * 13 + ((jm >> i & 1) ? JACK : plain[i]);
        c[3] = s[3] * 13 + 6;
        t->suit[idx] = 0;
        if (c[0] == c[1] || c[0] == c[2] || c[1] == c[2]) continue; /* unreachable */
        t->suit[idx] = (uint8_t)kind_points(c, p, 0);
    }
}

static inline int32_t table_score(const tables *t, int32_t b0, int32_t b1, int32_t b2,
                                  int32_t turnup) {
    int32_t r0 = b0 & 15, r1 = b1 & 15, r2 = b2 & 15;
    int32_t rt = turnup % 13, st = turnup / 13;
    int32_t jm = (r0 == JACK) | (r1 == JACK) << 1 | (r2 == JACK) << 2;
    int32_t si = ((((b0 >> 4) * 4 + (b1 >> 4)) * 4 + (b2 >> 4)) * 4 + st) * 8 + jm;
    return t->rank[((r0 * 13 + r1) * 13 + r2) * 13 + rt] + t->suit[si];
}

int32_t cc_nodde_batch_score_hand(const uint64_t *hands, const uint8_t *turnups,
                                  int64_t n, const int32_t *params, int32_t *out,
                                  int64_t *bad_index) {
    if (check_rules(params) != CC_OK) return CC_E_PARAMS;
    if (n < 0 || (n > 0 && (hands == NULL || turnups == NULL || out == NULL)))
        return CC_E_ARG;
    for (int64_t i = 0; i < n; i++) {
        uint64_t h = hands[i];
        int32_t t = turnups[i];
        if ((h & ~CC_DECK52_MASK) || cc_popcount64(h) != 3 || t >= NUM_CARDS ||
            (h & bit_of(t))) {
            if (bad_index) *bad_index = i;
            return CC_E_CARDS;
        }
    }
    if (n < BATCH_TABLE_MIN) {
        for (int64_t i = 0; i < n; i++) out[i] = hand_points(hands[i], turnups[i], params);
        return CC_OK;
    }
    tables t;
    build_tables(params, &t);
    for (int64_t i = 0; i < n; i++) {
        uint64_t h = hands[i];
        int32_t b0 = cc_ctz64(h);
        h &= h - 1;
        int32_t b1 = cc_ctz64(h);
        h &= h - 1;
        int32_t b2 = cc_ctz64(h);
        out[i] = table_score(&t, b0, b1, b2, turnups[i]);
    }
    return CC_OK;
}

int32_t cc_nodde_hand_distribution(const int32_t *params, int64_t *hist) {
    if (check_rules(params) != CC_OK) return CC_E_PARAMS;
    if (hist == NULL) return CC_E_ARG;
    memset(hist, 0, sizeof(int64_t) * CC_NODDE_HIST_SIZE);
    tables t;
    build_tables(params, &t);
    for (int32_t a = 0; a < NUM_CARDS; a++)
        for (int32_t b = a + 1; b < NUM_CARDS; b++)
            for (int32_t c = b + 1; c < NUM_CARDS; c++) {
                int32_t b0 = 16 * suit_of(a) + rank_of(a);
                int32_t b1 = 16 * suit_of(b) + rank_of(b);
                int32_t b2 = 16 * suit_of(c) + rank_of(c);
                for (int32_t u = 0; u < NUM_CARDS; u++) {
                    if (u == a || u == b || u == c) continue;
                    int32_t s = table_score(&t, b0, b1, b2, u);
                    if (s >= CC_NODDE_HIST_SIZE) return CC_E_CAPACITY;
                    hist[s]++;
                }
            }
    return CC_OK;
}

/* ---- the game ------------------------------------------------------------------ */

/* The state (nodde_state) is in nodde_internal.h, shared with nodde_bot.c. */

static void log_ev(nodde_state *s, int32_t kind, int32_t player, int32_t target,
                   int32_t value, int32_t extra, uint32_t seen_by) {
    cc_log_event(&s->log, kind, player, target, value, extra, seen_by);
}

/* The seat after seat q (no division: this runs for every card dealt and played). */
static inline int32_t next_seat(const nodde_state *s, int32_t q) {
    return q + 1 == s->n ? 0 : q + 1;
}

static inline int32_t side_of(const nodde_state *s, int32_t seat) {
    return s->partners ? (seat & 1) : seat;
}

/* Peg points to seat's side; 1 if that ends the game. */
static int32_t peg(nodde_state *s, int32_t seat, int32_t pts) {
    if (pts <= 0) return 0;
    int32_t side = side_of(s, seat);
    s->score[side] += pts;
    if (s->score[side] >= s->target) {
        s->winner = side;
        s->to_act = TERMINAL;
        log_ev(s, CC_NODDE_EV_GAME_OVER, seat, side, s->score[side], 0, CC_SEEN_ALL);
        return 1;
    }
    return 0;
}

/* The lowest pip value among cards (11, above every card, for none). */
static inline int32_t min_pip(uint64_t cards) {
    uint32_t ranks = (uint32_t)(cards | cards >> 16 | cards >> 32 | cards >> 48) & 0x1FFFu;
    return ranks ? pip_of_rank(cc_ctz64(ranks)) : 11;
}

static inline int32_t can_play(const nodde_state *s, int32_t seat) {
    return s->hand[seat] != 0 && min_pip(s->hand[seat]) <= 31 - s->total;
}

static void start_deal(nodde_state *s);

static void end_deal(nodde_state *s) {
    s->dealer = next_seat(s, s->dealer);
    start_deal(s);
}

/* The next player after seat `from` who can play is to act; those who
 * cannot say go.  If nobody can play the deal ends. */
static void next_turn(nodde_state *s, int32_t from) {
    for (int32_t k = 1, q = next_seat(s, from); k <= s->n; k++, q = next_seat(s, q)) {
        if (s->gone >> q & 1) continue;
        if (can_play(s, q)) {
            s->to_act = q;
            return;
        }
        s->gone |= 1u << q;
        s->go_total[q] = s->total;
        log_ev(s, CC_NODDE_EV_GO, q, s->total, 0, 0, CC_SEEN_ALL);
    }
    log_ev(s, CC_NODDE_EV_LAST_CARD, s->last_player, s->total, 1, 0, CC_SEEN_ALL);
    if (peg(s, s->last_player, 1)) return;
    end_deal(s);
}

/* The next card of the stock: in order from a stacked deck, else a
 * Fisher-Yates step (the shuffle is done lazily, one card at a time). */
static int32_t deal_card(nodde_state *s) {
    int32_t i = NUM_CARDS - 1 - s->top;
    if (!s->stacked) {
        int32_t j = (int32_t)cc_rng_below_inline(&s->rng, (uint64_t)i + 1);
        uint8_t x = s->deck[i];
        s->deck[i] = s->deck[j];
        s->deck[j] = x;
    }
    s->top++;
    return s->deck[i];
}

/* Keep what the sampler needs of the deal that just ended (same shuffle). */
static void keep_past_deal(nodde_state *s) {
    if (s->npast >= CC_NODDE_MAX_DEALS) return; /* cannot happen: 52 / (3n + 1) deals */
    nodde_past *d = &s->past[s->npast++];
    for (int32_t q = 0; q < CC_NODDE_MAX_PLAYERS; q++) {
        d->dealt[q] = s->dealt[q];
        d->left[q] = s->hand[q];
        d->announced[q] = s->announced[q];
        d->go_total[q] = s->go_total[q];
    }
    d->turnup = s->turnup;
    d->reserved = 0;
    d->log_start = s->deal_log_start;
}

/* docs/nodde.rst, "The deal" and "Scoring before play". */
static void start_deal(nodde_state *s) {
    int32_t n = s->n;
    int32_t fresh = 0; /* a fresh deck: shuffled now, or the stacked first deck */
    if (s->deal_no == 0) {
        fresh = 1;
    } else if (s->params[CC_NODDE_P_RESHUFFLE] || NUM_CARDS - s->top < 3 * n + 1) {
        for (int32_t i = 0; i < NUM_CARDS; i++) s->deck[i] = (uint8_t)i;
        s->top = 0;
        s->stacked = 0;
        for (int32_t q = 0; q < CC_NODDE_MAX_PLAYERS; q++) s->seen[q] = 0;
        fresh = 1;
    } else {
        keep_past_deal(s);
    }
    if (fresh) s->npast = 0;
    s->deal_no++;
    s->nseq = 0;
    s->total = 0;
    s->gone = 0;
    s->last_player = -1;
    for (int32_t q = 0; q < CC_NODDE_MAX_PLAYERS; q++) {
        s->hand[q] = 0;
        s->dealt[q] = 0;
        s->announced[q] = -1;
        s->go_total[q] = -1;
    }
    s->deal_log_start = s->log.total;
    log_ev(s, CC_NODDE_EV_NEW_DEAL, s->dealer, -1, s->deal_no, fresh, CC_SEEN_ALL);
    for (int32_t k = 0; k < 3; k++)
        for (int32_t i = 1, q = next_seat(s, s->dealer); i <= n; i++, q = next_seat(s, q)) {
            int32_t c = deal_card(s);
            s->hand[q] |= bit_of(c);
            log_ev(s, CC_NODDE_EV_DEAL_CARD, q, -1, c, 0, 1u << q);
        }
    s->turnup = deal_card(s);
    for (int32_t q = 0; q < n; q++) {
        s->dealt[q] = s->hand[q];
        s->seen[q] |= s->hand[q] | bit_of(s->turnup);
    }
    log_ev(s, CC_NODDE_EV_TURNUP, s->dealer, -1, s->turnup, 0, CC_SEEN_ALL);
    s->to_act = 0; /* not terminal while scoring */
    int32_t elder = next_seat(s, s->dealer);
    if (rank_of(s->turnup) == JACK) {
        int32_t who =
            s->params[CC_NODDE_P_KNAVE_SCORER] == CC_NODDE_KNAVE_DEALER ? s->dealer : elder;
        log_ev(s, CC_NODDE_EV_TURNED_KNAVE, who, -1, 2, 0, CC_SEEN_ALL);
        if (peg(s, who, 2)) return;
    }
    for (int32_t i = 1, q = elder; i <= n; i++, q = next_seat(s, q)) {
        int32_t pts = hand_points(s->hand[q], s->turnup, s->params);
        s->announced[q] = pts;
        log_ev(s, CC_NODDE_EV_HAND_SCORE, q, -1, pts, 0, CC_SEEN_ALL);
        if (peg(s, q, pts)) return;
    }
    next_turn(s, s->dealer);
}

static int32_t g_num_actions(const int32_t *params, int32_t nplayers) {
    (void)params;
    (void)nplayers;
    return NUM_CARDS;
}

static int32_t nsides_of(const int32_t *params, int32_t nplayers) {
    return (nplayers == 4 && params[CC_NODDE_P_FOUR_PLAYER_MODE] == CC_NODDE_PARTNERS)
               ? 2
               : nplayers;
}

/* ---- the observation tensor (docs/nodde.rst, "Observation tensor") ---------- */

/* Offsets of the segments for n players; seat blocks are relative to the
 * observer (block i: seat observer + i). */
#define T_HAND 0
#define T_TURNUP 52
#define T_PLAYED 104
#define T_ORDER(n) (104 + 52 * (n))
#define T_TOTAL(n) (T_ORDER(n) + 52)
#define T_SCORES(n) (T_TOTAL(n) + 1)
#define T_TO_ACT(n) (T_SCORES(n) + (n))
#define T_DEALER(n) (T_TO_ACT(n) + (n))
#define T_GONE(n) (T_DEALER(n) + (n))
#define T_CALLED(n) (T_GONE(n) + (n))
#define T_HAND_SCORES(n) (T_CALLED(n) + (n))
#define T_GAME_OVER(n) (T_HAND_SCORES(n) + (n))
#define T_SIZE(n) (T_GAME_OVER(n) + 1)

static int32_t valid_players(int32_t nplayers) {
    return nplayers >= 2 && nplayers <= CC_NODDE_MAX_PLAYERS;
}

static int32_t g_tensor_size(const int32_t *params, int32_t nplayers) {
    (void)params;
    if (!valid_players(nplayers)) return CC_E_PLAYERS;
    return T_SIZE(nplayers);
}

static int32_t g_segments(const int32_t *params, int32_t nplayers, cc_segment *out,
                          int32_t cap) {
    (void)params;
    if (!valid_players(nplayers)) return CC_E_PLAYERS;
    int32_t n = nplayers;
    const cc_segment segs[] = {
        {"hand", T_HAND, 52, CC_SEG_CARDS, 1, 0, "the observer's unplayed cards"},
        {"turnup", T_TURNUP, 52, CC_SEG_CARD, 1, 0, "the turned-up card (trumps)"},
        {"played", T_PLAYED, 52 * n, CC_SEG_SEAT_CARDS, 1, 0,
         "the cards each seat has played this deal"},
        {"play_order", T_ORDER(n), 52, CC_SEG_NUMBERS, 1, 0,
         "per card id: its place (1..12) in this deal's play, 0 if not played"},
        {"total", T_TOTAL(n), 1, CC_SEG_NUMBER, 1, 0, "the running total"},
        {"scores", T_SCORES(n), n, CC_SEG_SEAT_NUMBERS, 1, 0,
         "the points of each seat's side"},
        {"to_act", T_TO_ACT(n), n, CC_SEG_SEAT, 1, 0, "the seat to play, None when over"},
        {"dealer", T_DEALER(n), n, CC_SEG_SEAT, 1, 0, "the dealer of this deal"},
        {"gone", T_GONE(n), n, CC_SEG_SEAT_NUMBERS, 1, 0, "1 if the seat said go this deal"},
        {"hand_called", T_CALLED(n), n, CC_SEG_SEAT_NUMBERS, 1, 0,
         "1 if the seat has pegged its hand this deal"},
        {"hand_scores", T_HAND_SCORES(n), n, CC_SEG_SEAT_NUMBERS, 1, 0,
         "the hand score each seat pegged this deal (0 if not yet)"},
        {"game_over", T_GAME_OVER(n), 1, CC_SEG_NUMBER, 1, 0, "1 when the game is over"},
    };
    int32_t count = (int32_t)(sizeof segs / sizeof segs[0]);
    for (int32_t i = 0; i < count && i < cap && out != NULL; i++) out[i] = segs[i];
    return count;
}

static void one_hot_cards(float *out, uint64_t cards) {
    while (cards) {
        out[cc_card52_id_of_bit(cc_ctz64(cards))] = 1.0f;
        cards &= cards - 1;
    }
}

static int32_t g_observe_tensor(const void *state, int32_t player, float *out) {
    const nodde_state *s = (const nodde_state *)state;
    if (s == NULL || out == NULL || player < 0 || player >= s->n) return CC_E_ARG;
    int32_t n = s->n;
    memset(out, 0, sizeof(float) * (size_t)T_SIZE(n));
    one_hot_cards(out + T_HAND, s->hand[player]);
    out[T_TURNUP + s->turnup] = 1.0f;
    /* block i is seat q = player + i (mod n), without a division */
    for (int32_t i = 0, q = player; i < n; i++, q = next_seat(s, q))
        one_hot_cards(out + T_PLAYED + 52 * i, s->dealt[q] & ~s->hand[q]);
    for (int32_t k = 0; k < s->nseq; k++) out[T_ORDER(n) + s->seq[k]] = (float)(k + 1);
    out[T_TOTAL(n)] = (float)s->total;
    for (int32_t i = 0, q = player; i < n; i++, q = next_seat(s, q)) {
        out[T_SCORES(n) + i] = (float)s->score[side_of(s, q)];
        out[T_GONE(n) + i] = (float)(s->gone >> q & 1);
        out[T_CALLED(n) + i] = s->announced[q] >= 0 ? 1.0f : 0.0f;
        out[T_HAND_SCORES(n) + i] = s->announced[q] >= 0 ? (float)s->announced[q] : 0.0f;
    }
    if (s->to_act != TERMINAL) {
        int32_t r = s->to_act - player;
        out[T_TO_ACT(n) + (r < 0 ? r + n : r)] = 1.0f;
    }
    int32_t d = s->dealer - player;
    out[T_DEALER(n) + (d < 0 ? d + n : d)] = 1.0f;
    out[T_GAME_OVER(n)] = s->to_act == TERMINAL ? 1.0f : 0.0f;
    return CC_OK;
}

/* ---- init and play ------------------------------------------------------------ */

/* The first deal from deck[0..51] (top first) if deck is not NULL, else
 * from a shuffle; the first dealer is the generator's first draw unless the
 * rules name him. */
static void init_state(nodde_state *s, const int32_t *params, int32_t nplayers, uint64_t seed,
                       const uint8_t *deck) {
    memset(s, 0, offsetof(nodde_state, log));
    cc_log_init(&s->log, CC_NODDE_LOG_CAP);
    for (int32_t i = 0; i < CC_NODDE_NUM_PARAMS; i++) s->params[i] = params[i];
    s->n = nplayers;
    s->partners = nplayers == 4 && params[CC_NODDE_P_FOUR_PLAYER_MODE] == CC_NODDE_PARTNERS;
    s->nsides = nsides_of(params, nplayers);
    s->target = params[CC_NODDE_P_GAME_TARGET];
    cc_rng_seed(&s->rng, seed);
    s->winner = -1;
    /* the stock is dealt from its end: the top card of the deck goes last */
    for (int32_t i = 0; i < NUM_CARDS; i++)
        s->deck[i] = deck ? deck[NUM_CARDS - 1 - i] : (uint8_t)i;
    s->stacked = deck != NULL;
    int32_t drawn = (int32_t)cc_rng_below_inline(&s->rng, (uint64_t)nplayers);
    int32_t fixed = params[CC_NODDE_P_FIRST_DEALER];
    s->dealer = fixed >= 0 ? fixed : drawn;
    start_deal(s);
}

static int32_t g_init(void *state, const int32_t *params, int32_t nplayers, uint64_t seed) {
    if (state == NULL || params == NULL) return CC_E_ARG;
    if (nplayers < cc_game_nodde.min_players || nplayers > cc_game_nodde.max_players)
        return CC_E_PLAYERS;
    int32_t rc = cc_game_check_params(&cc_game_nodde, params, nplayers, NULL);
    if (rc != CC_OK) return rc;
    init_state((nodde_state *)state, params, nplayers, seed, NULL);
    return CC_OK;
}

static int32_t g_init_deck(void *state, const int32_t *params, int32_t nplayers,
                           uint64_t seed, const uint8_t *deck, int32_t ndeck) {
    if (state == NULL || params == NULL) return CC_E_ARG;
    if (nplayers < cc_game_nodde.min_players || nplayers > cc_game_nodde.max_players)
        return CC_E_PLAYERS;
    int32_t rc = cc_game_check_params(&cc_game_nodde, params, nplayers, NULL);
    if (rc != CC_OK) return rc;
    if (deck == NULL || ndeck != NUM_CARDS) return CC_E_ARG;
    uint64_t seen = 0;
    for (int32_t i = 0; i < NUM_CARDS; i++) {
        if (deck[i] >= NUM_CARDS || (seen & bit_of(deck[i]))) return CC_E_ARG;
        seen |= bit_of(deck[i]);
    }
    init_state((nodde_state *)state, params, nplayers, seed, deck);
    return CC_OK;
}

static int32_t g_current_player(const void *state) {
    return ((const nodde_state *)state)->to_act;
}

static uint64_t legal_bits(const nodde_state *s) {
    int32_t room = 31 - s->total;
    uint32_t rm = room >= 10 ? 0x1FFFu : (room <= 0 ? 0u : (1u << room) - 1);
    return s->hand[s->to_act] & lanes(rm);
}

static int32_t g_legal_actions(const void *state, uint64_t *mask) {
    const nodde_state *s = (const nodde_state *)state;
    if (s == NULL || mask == NULL) return CC_E_ARG;
    if (s->to_act == TERMINAL) return 0;
    /* the action of a card is its id, s * 13 + r: the four 13-bit suit lanes
     * of the bitset side by side are the actions 0..51 (mask word 0) */
    uint64_t b = legal_bits(s);
    mask[0] |= (b & 0x1FFF) | (b >> 16 & 0x1FFF) << 13 | (b >> 32 & 0x1FFF) << 26 |
               (b >> 48 & 0x1FFF) << 39;
    int32_t k = 0;
    for (; b; b &= b - 1) k++; /* 3 cards at most */
    return k;
}

static int32_t g_verify(const void *state, int32_t action) {
    const nodde_state *s = (const nodde_state *)state;
    if (s == NULL) return CC_E_ARG;
    if (s->to_act == TERMINAL) return CC_E_GAME_OVER;
    if (action < 0 || action >= NUM_CARDS) return CC_NODDE_R_INVALID;
    if (!(s->hand[s->to_act] & bit_of(action))) return CC_NODDE_R_NOT_HELD;
    if (pip_of(action) > 31 - s->total) return CC_NODDE_R_OVER_31;
    return 0;
}

static const char *g_reason_text(int32_t reason) {
    switch (reason) {
    case CC_NODDE_R_INVALID: return "not a card id 0..51";
    case CC_NODDE_R_NOT_HELD: return "card not held";
    case CC_NODDE_R_OVER_31: return "over 31";
    case CC_E_GAME_OVER: return "game over";
    default: return "unknown reason";
    }
}

/* docs/nodde.rst, "The play". */
static int32_t g_apply(void *state, int32_t action) {
    nodde_state *s = (nodde_state *)state;
    int32_t v = g_verify(s, action);
    if (v != 0) return v;
    int32_t seat = s->to_act;
    uint64_t b = bit_of(action);
    s->hand[seat] &= ~b;
    s->seq[s->nseq++] = (uint8_t)action;
    s->total += pip_of(action);
    s->last_player = seat;
    for (int32_t q = 0; q < s->n; q++) s->seen[q] |= b;
    cc_play_rules rules = play_rules(s->params);
    int32_t pts = cc_play_points(s->seq, s->nseq, s->total, &rules);
    log_ev(s, CC_NODDE_EV_PLAY, seat, s->total, action, pts, CC_SEEN_ALL);
    if (peg(s, seat, pts)) return 0;
    if (s->total == 31) end_deal(s);
    else next_turn(s, seat);
    return 0;
}

static void g_returns(const void *state, int32_t *out) {
    const nodde_state *s = (const nodde_state *)state;
    if (s == NULL || out == NULL) return;
    for (int32_t q = 0; q < s->n; q++) out[q] = s->score[side_of(s, q)];
}

/* ---- information-set sampling -------------------------------------------------- */
/*
 * What player p does not know is which of the cards he has not seen since
 * the last shuffle each other seat holds (or held, unplayed, in an earlier
 * deal of the same shuffle); the rest of them is the stock, in unknown
 * order.  The public facts that constrain one seat's hidden cards in one
 * deal (a "slot") concern that slot alone: the hand score he pegged (with
 * his played cards and that deal's turn-up), the total at which he said go
 * (every hidden card is too high), and, for the seat to act, that he can
 * play (a hidden card fits).  So the consistent deals are the tuples of
 * pairwise disjoint slot fillings, each consistent on its own, and the
 * sampler draws each slot uniformly among its consistent fillings and
 * starts again if two slots share a card: exactly uniform over the tuples.
 * A slot is drawn by rejection (a uniform subset of the unseen cards until
 * one is consistent), and after SLOT_TRIES failures by one pass over all
 * its subsets keeping a uniform consistent one (by rank triples for three
 * hidden cards, scan_slot3): uniform either way.  The expected number of
 * tries is the number of distinct public outcomes of a slot (about 20 hand
 * scores), so a sample costs a few microseconds.
 */

#define SLOT_TRIES 1024
#define MAX_SLOTS (CC_NODDE_MAX_DEALS + CC_NODDE_MAX_PLAYERS)

typedef struct slot {
    int32_t seat, deal; /* deal: index into past[], or -1 for this deal */
    int32_t k;          /* hidden cards */
    uint64_t known;     /* his played cards of that deal */
    int32_t turnup;
    int32_t announced; /* the hand score he pegged, or -1 */
    int32_t go_room;   /* every hidden card is above it, or -1 */
    int32_t fit_room;  /* a hidden card is at most it, or -1 */
    const int32_t *params;
} slot;

static int32_t slot_ok(const slot *sl, uint64_t hidden) {
    int32_t low = min_pip(hidden);
    if (sl->go_room >= 0 && low <= sl->go_room) return 0;
    if (sl->fit_room >= 0 && low > sl->fit_room) return 0;
    if (sl->announced >= 0 &&
        hand_points(sl->known | hidden, sl->turnup, sl->params) != sl->announced)
        return 0;
    return 1;
}

/* Sort three small ints and index them in base b. */
static inline int32_t sorted_index(int32_t a, int32_t b, int32_t c, int32_t base) {
    int32_t x;
    if (a > b) x = a, a = b, b = x;
    if (b > c) x = b, b = c, c = x;
    if (a > b) x = a, a = b, b = x;
    return (a * base + b) * base + c;
}

/* A uniform consistent k-subset of pool[0..m-1] by one pass over all of
 * them (reservoir sampling: the c-th consistent one replaces the pick with
 * probability 1/c).  The hand score is split as the batch tables split it
 * (build_tables): the rank kinds depend on the ranks of the three hand
 * cards only, the suit kinds on their suits and which are Jacks only, each
 * part scored once per pattern met by the rule itself.  CC_E_ARG if no
 * subset is consistent; *nfound (if not NULL) gets their number. */
static int32_t scan_slot(const slot *sl, const uint64_t *pool, int32_t m, cc_rng *rng,
                         uint64_t *pick, uint64_t *nfound) {
    static const int32_t plain[3] = {1, 2, 3};
    int32_t k = sl->k;
    uint64_t count = 0;
    int8_t rank_part[13 * 13 * 13], suit_part[8 * 8 * 8];
    memset(rank_part, -1, sizeof rank_part);
    memset(suit_part, -1, sizeof suit_part);
    int32_t tr = rank_of(sl->turnup), ts = suit_of(sl->turnup);
    int32_t idx[3] = {0, 1, 2};
    for (;;) {
        uint64_t h = 0;
        for (int32_t i = 0; i < k; i++) h |= pool[idx[i]];
        int32_t low = min_pip(h), ok = 1;
        if (sl->go_room >= 0 && low <= sl->go_room) ok = 0;
        if (sl->fit_room >= 0 && low > sl->fit_room) ok = 0;
        if (ok && sl->announced >= 0) {
            int32_t c[4], rep[4];
            hand_ids(sl->known | h, sl->turnup, c);
            int32_t ri = sorted_index(rank_of(c[0]), rank_of(c[1]), rank_of(c[2]), 13);
            if (rank_part[ri] < 0) {
                for (int32_t i = 0; i < 3; i++) rep[i] = i * 13 + rank_of(c[i]);
                rep[3] = 3 * 13 + tr;
                rank_part[ri] = (int8_t)kind_points(rep, sl->params, 1);
            }
            int32_t pat[3];
            for (int32_t i = 0; i < 3; i++) pat[i] = suit_of(c[i]) * 2 + (rank_of(c[i]) == JACK);
            int32_t si = sorted_index(pat[0], pat[1], pat[2], 8);
            if (suit_part[si] < 0) {
                int32_t q[3] = {si / 64, si / 8 % 8, si % 8};
                for (int32_t i = 0; i < 3; i++) rep[i] = (q[i] >> 1) * 13 + ((q[i] & 1) ? JACK : plain[i]);
                rep[3] = ts * 13 + 6;
                suit_part[si] = (int8_t)kind_points(rep, sl->params, 0);
            }
            ok = rank_part[ri] + suit_part[si] == sl->announced;
        }
        if (ok && cc_rng_below(rng, ++count) == 0) *pick = h;
        int32_t i = k - 1;
        while (i >= 0 && idx[i] == m - k + i) i--;
        if (i < 0) break;
        idx[i]++;
        for (int32_t j = i + 1; j < k; j++) idx[j] = idx[j - 1] + 1;
    }
    if (nfound) *nfound = count;
    return count > 0 ? CC_OK : CC_E_ARG;
}

/* scan_slot for a slot of 3 hidden cards, by rank triples: the rank part of
 * the hand score and the lowest pip depend on the three ranks alone, and the
 * suit part lies between 0 and its largest value over the suit patterns, so
 * only the rank triples that can meet the pegged score and the go and fit
 * limits are expanded into cards (the rare slots that fall back to a scan
 * are those with a high score, which few rank triples reach). */
static int32_t scan_slot3(const slot *sl, const uint64_t *pool, int32_t m, cc_rng *rng,
                          uint64_t *pick, uint64_t *nfound) {
    static const int32_t plain[3] = {1, 2, 3};
    int32_t tr = rank_of(sl->turnup), ts = suit_of(sl->turnup);
    uint64_t byr[13][4];
    int32_t cnt[13] = {0};
    for (int32_t i = 0; i < m; i++) {
        int32_t r = cc_ctz64(pool[i]) & 15;
        if (cnt[r] < 4) byr[r][cnt[r]++] = pool[i];
    }
    int8_t suit_part[8 * 8 * 8];
    int32_t maxsp = 0;
    if (sl->announced >= 0)
        for (int32_t a = 0; a < 8; a++)
            for (int32_t b = a; b < 8; b++)
                for (int32_t c = b; c < 8; c++) {
                    int32_t q[3] = {a, b, c}, rep[4];
                    for (int32_t i = 0; i < 3; i++)
                        rep[i] = (q[i] >> 1) * 13 + ((q[i] & 1) ? JACK : plain[i]);
                    rep[3] = ts * 13 + 6;
                    int32_t v = kind_points(rep, sl->params, 0);
                    suit_part[(a * 8 + b) * 8 + c] = (int8_t)v;
                    if (v > maxsp) maxsp = v;
                }
    uint64_t count = 0;
    for (int32_t r1 = 0; r1 < 13; r1++)
        for (int32_t r2 = r1; r2 < 13; r2++)
            for (int32_t r3 = r2; r3 < 13; r3++) {
                if (r1 == r3 ? cnt[r1] < 3
                    : r1 == r2 ? cnt[r1] < 2 || cnt[r3] < 1
                    : r2 == r3 ? cnt[r1] < 1 || cnt[r2] < 2
                               : cnt[r1] < 1 || cnt[r2] < 1 || cnt[r3] < 1)
                    continue;
                int32_t low = pip_of_rank(r1);
                if (sl->go_room >= 0 && low <= sl->go_room) continue;
                if (sl->fit_room >= 0 && low > sl->fit_room) continue;
                int32_t need = -1;
                if (sl->announced >= 0) {
                    int32_t rep[4] = {r1, 13 + r2, 26 + r3, 39 + tr};
                    need = sl->announced - kind_points(rep, sl->params, 1);
                    if (need < 0 || need > maxsp) continue;
                }
                /* the card triples of these ranks */
                const uint64_t *A = byr[r1], *B = byr[r2], *C = byr[r3];
                for (int32_t i = 0; i < cnt[r1]; i++)
                    for (int32_t j = (r2 == r1 ? i + 1 : 0); j < cnt[r2]; j++)
                        for (int32_t l = (r3 == r2 ? j + 1 : 0); l < cnt[r3]; l++) {
                            uint64_t h = A[i] | B[j] | C[l];
                            if (need >= 0) {
                                int32_t c[4];
                                hand_ids(h, sl->turnup, c);
                                int32_t pat[3];
                                for (int32_t x = 0; x < 3; x++)
                                    pat[x] = suit_of(c[x]) * 2 + (rank_of(c[x]) == JACK);
                                if (suit_part[sorted_index(pat[0], pat[1], pat[2], 8)] != need)
                                    continue;
                            }
                            if (cc_rng_below(rng, ++count) == 0) *pick = h;
                        }
            }
    if (nfound) *nfound = count;
    return count > 0 ? CC_OK : CC_E_ARG;
}

/* Uniform indices below m (1 <= m <= 64) from 6-bit chunks of the
 * generator's words, a chunk >= m drawn again: exact, and one 64-bit draw
 * serves several indices. */
typedef struct chunks {
    cc_rng *rng;
    uint64_t bits;
    int32_t left; /* chunks left in bits */
} chunks;

static inline int32_t chunk_below(chunks *c, int32_t m) {
    for (;;) {
        if (c->left == 0) {
            c->bits = cc_rng_next(c->rng);
            c->left = 10;
        }
        int32_t x = (int32_t)(c->bits & 63);
        c->bits >>= 6;
        c->left--;
        if (x < m) return x;
    }
}

/* A uniform consistent filling of the slot (1 <= k <= 3) from pool. */
static int32_t draw_slot(const slot *sl, const uint64_t *pool, int32_t m, cc_rng *rng,
                         uint64_t *pick) {
    int32_t k = sl->k;
    if (k < 1 || k > 3 || k > m) return CC_E_ARG;
    chunks c = {rng, 0, 0};
    for (int32_t t = 0; t < SLOT_TRIES; t++) {
        uint64_t h = 0;
        for (int32_t i = 0; i < k;) {
            uint64_t b = pool[chunk_below(&c, m)];
            if (h & b) continue;
            h |= b;
            i++;
        }
        if (slot_ok(sl, h)) {
            *pick = h;
            return CC_OK;
        }
    }
    if (k == 3 && sl->known == 0) return scan_slot3(sl, pool, m, rng, pick, NULL);
    return scan_slot(sl, pool, m, rng, pick, NULL); /* CC_E_ARG: not a real state */
}

static int32_t g_sample_infoset(const void *state, int32_t player, uint64_t seed, void *outp) {
    const nodde_state *s = (const nodde_state *)state;
    if (s == NULL || outp == NULL || outp == state || player < 0 || player >= s->n)
        return CC_E_ARG;
    int32_t n = s->n;
    /* the slots */
    slot slots[MAX_SLOTS];
    int32_t nslots = 0;
    for (int32_t d = 0; d <= s->npast; d++) {
        const nodde_past *pd = d < s->npast ? &s->past[d] : NULL;
        for (int32_t q = 0; q < n; q++) {
            if (q == player) continue;
            slot *sl = &slots[nslots];
            uint64_t left = pd ? pd->left[q] : s->hand[q];
            uint64_t dealt = pd ? pd->dealt[q] : s->dealt[q];
            int32_t go = pd ? pd->go_total[q] : s->go_total[q];
            sl->seat = q;
            sl->deal = pd ? d : -1;
            sl->k = cc_popcount64(left);
            sl->known = dealt & ~left;
            sl->turnup = pd ? pd->turnup : s->turnup;
            sl->announced = pd ? pd->announced[q] : s->announced[q];
            sl->go_room = go >= 0 ? 31 - go : -1;
            sl->fit_room = (!pd && q == s->to_act) ? 31 - s->total : -1;
            sl->params = s->params;
            if (sl->k > 0) nslots++;
        }
    }
    /* the cards p has not seen since the shuffle */
    uint64_t pool[NUM_CARDS];
    int32_t m = 0;
    uint64_t unseen = CC_DECK52_MASK & ~s->seen[player];
    for (uint64_t u = unseen; u; u &= u - 1) pool[m++] = u & -u;
    uint64_t pick[MAX_SLOTS];
    cc_rng rng; /* out's generator: from the sample seed alone */
    cc_rng_seed(&rng, seed);
    for (;;) {
        uint64_t used = 0;
        int32_t i = 0;
        for (; i < nslots; i++) {
            int32_t rc = draw_slot(&slots[i], pool, m, &rng, &pick[i]);
            if (rc != CC_OK) return rc;
            if (pick[i] & used) break;
            used |= pick[i];
        }
        if (i == nslots) break;
    }
    /* out: the state with the sampled cards */
    nodde_state *o = (nodde_state *)outp;
    memcpy(o, s, cc_game_used_size(&cc_game_nodde, s));
    o->rng = rng;
    uint64_t hidden = 0;
    for (int32_t i = 0; i < nslots; i++) {
        const slot *sl = &slots[i];
        hidden |= pick[i];
        if (sl->deal < 0) {
            o->hand[sl->seat] = pick[i];
            o->dealt[sl->seat] = sl->known | pick[i];
        } else {
            o->past[sl->deal].left[sl->seat] = pick[i];
            o->past[sl->deal].dealt[sl->seat] = sl->known | pick[i];
        }
    }
    for (int32_t q = 0; q < n; q++) {
        if (q == player) continue;
        uint64_t own = o->dealt[q];
        for (int32_t d = 0; d < s->npast; d++) own |= o->past[d].dealt[q];
        o->seen[q] = (s->seen[q] & s->seen[player]) | own;
    }
    /* the stock: the unseen cards no seat holds, in any order (the state
     * shuffles it lazily as it deals); the dealt cards after it */
    int32_t stock = NUM_CARDS - s->top;
    uint64_t rest = unseen & ~hidden;
    if (cc_popcount64(rest) != stock) return CC_E_ARG;
    int32_t at = 0;
    for (uint64_t u = rest; u; u &= u - 1) o->deck[at++] = (uint8_t)cc_card52_id_of_bit(cc_ctz64(u));
    for (uint64_t u = CC_DECK52_MASK & ~rest; u; u &= u - 1)
        o->deck[at++] = (uint8_t)cc_card52_id_of_bit(cc_ctz64(u));
    o->stacked = 0;
    /* the log: p's unseen deal_card values become the sampled cards of this
     * shuffle's deals, and -1 for deals of earlier shuffles */
    uint64_t left[CC_NODDE_MAX_DEALS + 1][CC_NODDE_MAX_PLAYERS];
    for (int32_t d = 0; d <= s->npast; d++)
        for (int32_t q = 0; q < CC_NODDE_MAX_PLAYERS; q++)
            left[d][q] = d < s->npast ? o->past[d].dealt[q] : o->dealt[q];
    int32_t kept = cc_log_kept(&o->log);
    int64_t first = o->log.total - kept;
    int64_t shuffle_start = s->npast > 0 ? s->past[0].log_start : s->deal_log_start;
    int32_t slot_at = (int32_t)(first % CC_NODDE_LOG_CAP); /* ring position of event first */
    for (int32_t i = 0; i < kept; i++) {
        cc_log_entry *e = &o->log_entries[(slot_at + i) % CC_NODDE_LOG_CAP];
        if (e->seen_by >> player & 1) continue;
        int64_t g = first + i;
        int32_t q = e->player;
        if (e->kind != CC_NODDE_EV_DEAL_CARD || g < shuffle_start || q < 0 || q >= n) {
            e->value = -1;
            continue;
        }
        int32_t d = s->npast;
        while (d > 0 && g < (d < s->npast ? s->past[d].log_start : s->deal_log_start)) d--;
        if (left[d][q]) {
            e->value = cc_card52_id_of_bit(cc_ctz64(left[d][q]));
            left[d][q] &= left[d][q] - 1;
        } else {
            e->value = -1;
        }
    }
    return CC_OK;
}

/* ---- the table ------------------------------------------------------------------- */

static const cc_event_kind nodde_event_kinds[] = {
    [CC_NODDE_EV_NEW_DEAL] = {"new_deal", CC_VALUE_NUMBER,
                              "player deals; value: the deal number from 1; extra: 1 if the "
                              "deck was shuffled (or stacked) for it"},
    [CC_NODDE_EV_DEAL_CARD] = {"deal_card", CC_VALUE_CARD,
                               "player is dealt value (seen by him only)"},
    [CC_NODDE_EV_TURNUP] = {"turnup", CC_VALUE_CARD, "player (the dealer) turns up value"},
    [CC_NODDE_EV_TURNED_KNAVE] = {"turned_knave", CC_VALUE_NUMBER,
                                  "player pegs value (2) for a Jack turned up"},
    [CC_NODDE_EV_HAND_SCORE] = {"hand_score", CC_VALUE_NUMBER,
                                "player pegs value for his hand with the turn-up"},
    [CC_NODDE_EV_PLAY] = {"play", CC_VALUE_CARD,
                          "player plays value; target: the running total; extra: points pegged"},
    [CC_NODDE_EV_GO] = {"go", CC_VALUE_NONE, "player says go; target: the running total"},
    [CC_NODDE_EV_LAST_CARD] = {"last_card", CC_VALUE_NUMBER,
                               "player pegs value (1) for the last card; target: the total"},
    [CC_NODDE_EV_GAME_OVER] = {"game_over", CC_VALUE_NUMBER,
                               "player's side (target) wins with value points"},
};

static const cc_action_range nodde_actions[] = {
    {.name = "play {card}", .first = 0, .count = NUM_CARDS, .arg = CC_ARG_CARD},
};

const cc_game cc_game_nodde = {
    CC_GAME_HEADER,
    .name = "nodde",
    .min_players = 2,
    .max_players = CC_NODDE_MAX_PLAYERS,
    .deck_size = CC_DECK_52,
    .state_size = sizeof(nodde_state),
    .log_offset = offsetof(nodde_state, log),
    .log_capacity = CC_NODDE_LOG_CAP,
    .num_params = CC_NODDE_NUM_PARAMS,
    .params = nodde_params,
    .check_params = g_check_params,
    .num_actions = g_num_actions,
    .tensor_size = g_tensor_size,
    .segments = g_segments,
    .num_event_kinds = (int32_t)(sizeof nodde_event_kinds / sizeof nodde_event_kinds[0]),
    .event_kinds = nodde_event_kinds,
    .num_action_ranges = (int32_t)(sizeof nodde_actions / sizeof nodde_actions[0]),
    .action_ranges = nodde_actions,
    .init = g_init,
    .init_deck = g_init_deck,
    .current_player = g_current_player,
    .legal_actions = g_legal_actions,
    .verify = g_verify,
    .reason_text = g_reason_text,
    .apply = g_apply,
    .returns = g_returns,
    .observe_tensor = g_observe_tensor,
    .sample_infoset = g_sample_infoset,
    .heuristic = cc_nodde_heuristic,
};
