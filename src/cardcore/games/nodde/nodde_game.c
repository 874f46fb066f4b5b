/* nodde_game.c: Nodde Knave (docs/nodde.rst): the rules and the state.
 *
 * The game transitions live here; the hand and play scoring is the
 * cribbage family's scorer (score_internal.h, core/show_score.c), given Nodde's
 * rules: three cards and the turn-up, and the variants of the rules array.
 * The batch kernel and the distribution use lookup tables built from that
 * scorer, split by kind: the rank kinds (fifteens, pairs, runs, 31, 25)
 * depend only on the four ranks, the suit kinds (flush, knave noddy) only
 * on the suits and on which hand cards are Jacks.  The information-set
 * sampler is nodde_sample.c, the heuristic nodde_bot.c. */
#include "cc_nodde.h"

#include "cc_internal.h"
#include "nodde_internal.h"

/* ---- rules parameters ---------------------------------------------------- */

/* The rules table (docs/nodde.rst, "Rules parameters"): names are the fields
 * of the Python NoddeRules, in the same order, with the same defaults. */
static const cc_param nodde_params[CC_NODDE_NUM_PARAMS] = {
    [CC_NODDE_P_FOUR_PLAYER_MODE] =
        {.name = "four_player_mode",
         .kind = CC_PARAM_CHOICE,
         .min = 0,
         .max = 1,
         .default_value = 0,
         .choices = "partners|individual",
         .doc = "with 4 players: partners (0+2 against 1+3) or individual"},
    [CC_NODDE_P_RESHUFFLE] = {.name = "reshuffle_each_deal",
                              .kind = CC_PARAM_BOOL,
                              .min = 0,
                              .max = 1,
                              .default_value = 1,
                              .doc = "reshuffle before every deal (false: 2 players only)"},
    [CC_NODDE_P_KNAVE_SCORER] = {.name = "turned_knave_scorer",
                                 .kind = CC_PARAM_CHOICE,
                                 .min = 0,
                                 .max = 1,
                                 .default_value = 0,
                                 .choices = "dealer|elder",
                                 .doc = "who pegs 2 for a Jack turned up"},
    [CC_NODDE_P_RUN_POINTS] = {.name = "run_points",
                               .kind = CC_PARAM_CHOICE,
                               .min = 0,
                               .max = 1,
                               .default_value = 0,
                               .choices = "mwynwen|per_card",
                               .doc = "a run of n: 2(n-2) (Lady Mwynwen's table) or n"},
    [CC_NODDE_P_FLUSH_RULE] = {.name = "flush_rule",
                               .kind = CC_PARAM_CHOICE,
                               .min = 0,
                               .max = 1,
                               .default_value = 0,
                               .choices = "any3_of_4|hand3_required",
                               .doc = "a hand flush: any 3 of the 4 cards, or the 3 own cards"},
    [CC_NODDE_P_HAND_31] = {.name = "hand_31",
                            .kind = CC_PARAM_CHOICE,
                            .min = 0,
                            .max = 2,
                            .default_value = 1,
                            .choices = "off|flat2|flat4",
                            .doc = "the four cards of a hand totalling 31"},
    [CC_NODDE_P_SCORE_25] = {.name = "score_25",
                             .kind = CC_PARAM_CHOICE,
                             .min = 0,
                             .max = 2,
                             .default_value = 0,
                             .choices = "off|flat4|per_card",
                             .doc = "sets of 3+ cards totalling 25, and a play total of 25"},
    [CC_NODDE_P_FLUSH_IN_PLAY] = {.name = "flush_in_play",
                                  .kind = CC_PARAM_BOOL,
                                  .min = 0,
                                  .max = 1,
                                  .default_value = 1,
                                  .doc = "the last 3+ cards played of one suit score 1 each"},
    [CC_NODDE_P_GAME_TARGET] = {.name = "game_target",
                                .kind = CC_PARAM_INT,
                                .min = 1,
                                .max = CC_NODDE_MAX_TARGET,
                                .default_value = 31,
                                .doc = "points to win"},
    [CC_NODDE_P_FIRST_DEALER] = {.name = "first_dealer",
                                 .kind = CC_PARAM_OPTIONAL,
                                 .min = 0,
                                 .max = CC_NODDE_MAX_PLAYERS - 1,
                                 .default_value = -1,
                                 .none_value = -1,
                                 .doc = "the first dealer's seat, or None: drawn from the seed"},
};

/* The constraints between parameters and with the player count. */
static int32_t cc_nodde_check_params(const int32_t *params, int32_t nplayers, int32_t *bad) {
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

CC_SCORE_ITEM_LAYOUT(cc_nodde_item);

int32_t cc_nodde_hand_items(uint64_t hand, int32_t turnup, const int32_t *params,
                            cc_nodde_item *out, int32_t cap) {
    if (check_rules(params) != CC_OK) return CC_E_PARAMS;
    int32_t c[4];
    int32_t rc = cc_show_hand_ids(hand, 3, turnup, c);
    if (rc != CC_OK) return rc;
    cc_show_rules r = show_rules(params);
    return cc_show_items_out(c, &r, out, cap);
}

int32_t cc_nodde_score_hand(uint64_t hand, int32_t turnup, const int32_t *params) {
    if (check_rules(params) != CC_OK) return CC_E_PARAMS;
    if (!cc_show_hand_valid(hand, 3, turnup)) return CC_E_CARDS;
    return hand_points(hand, turnup, params);
}

/* ---- play scoring ------------------------------------------------------------ */

int32_t cc_nodde_play_items(const uint8_t *seq, int32_t n, const int32_t *params,
                            cc_nodde_item *out, int32_t cap) {
    if (check_rules(params) != CC_OK) return CC_E_PARAMS;
    cc_play_rules r = play_rules(params);
    return cc_play_items_out(seq, n, CC_NODDE_MAX_PLAY, &r, out, cap);
}

/* ---- batch hand scoring and the exact distribution ------------------------- */

#define RANK_TABLE 28561 /* 13^4: hand ranks r0 r1 r2 and turn-up rank */
#define SUIT_TABLE 2048  /* 4^4 suits x 8 (which hand cards are Jacks) */
#define BATCH_TABLE_MIN 8192

typedef struct tables {
    uint8_t rank[RANK_TABLE];
    uint8_t suit[SUIT_TABLE];
} tables;

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

int32_t cc_nodde_batch_score_hand(const uint64_t *hands, const uint8_t *turnups, int64_t n,
                                  const int32_t *params, int32_t *out, int64_t *bad_index) {
    if (check_rules(params) != CC_OK) return CC_E_PARAMS;
    int32_t rc = cc_show_batch_check(hands, turnups, n, 3, out, bad_index);
    if (rc != CC_OK) return rc;
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
                int32_t b0 = 16 * cc_suit_of(a) + cc_rank_of(a);
                int32_t b1 = 16 * cc_suit_of(b) + cc_rank_of(b);
                int32_t b2 = 16 * cc_suit_of(c) + cc_rank_of(c);
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

static void log_ev(nodde_state *s, int32_t kind, int32_t player, int32_t target, int32_t value,
                   int32_t extra, uint32_t seen_by) {
    cc_log_event(&s->log, kind, player, target, value, extra, seen_by);
}

/* The seat after seat q (no division: this runs for every card dealt and played). */
static inline int32_t next_seat(const nodde_state *s, int32_t q) {
    return cc_play_next_seat(s->n, q);
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

static void start_deal(nodde_state *s);

static void end_deal(nodde_state *s) {
    s->dealer = next_seat(s, s->dealer);
    start_deal(s);
}

/* A seat says go (cc_play_next): the total it could not play on. */
static void on_go(void *ctx, int32_t q) {
    nodde_state *s = (nodde_state *)ctx;
    s->go_total[q] = s->total;
    log_ev(s, CC_NODDE_EV_GO, q, s->total, 0, 0, CC_SEEN_ALL);
}

/* The next player after seat `from` who can play is to act; those who
 * cannot (an empty hand too) say go.  If nobody can play the deal ends:
 * there is no new count (core/play_internal.h). */
static void next_turn(nodde_state *s, int32_t from) {
    int32_t q = cc_play_next(s->hand, s->n, s->total, &s->gone, from, 1, on_go, s);
    if (q >= 0) {
        s->to_act = q;
        return;
    }
    log_ev(s, CC_NODDE_EV_LAST_CARD, s->last_player, s->total, 1, 0, CC_SEEN_ALL);
    if (peg(s, s->last_player, 1)) return;
    end_deal(s);
}

/* The next card of the stock: in order from a stacked deck, else a
 * Fisher-Yates step (the shuffle is done lazily, one card at a time). */
static int32_t deal_card(nodde_state *s) {
    return cc_deal_next(s->deck, NUM_CARDS, &s->top, s->stacked, &s->rng);
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
            s->hand[q] |= cc_bit_of(c);
            log_ev(s, CC_NODDE_EV_DEAL_CARD, q, -1, c, 0, 1u << q);
        }
    s->turnup = deal_card(s);
    for (int32_t q = 0; q < n; q++) {
        s->dealt[q] = s->hand[q];
        s->seen[q] |= s->hand[q] | cc_bit_of(s->turnup);
    }
    log_ev(s, CC_NODDE_EV_TURNUP, s->dealer, -1, s->turnup, 0, CC_SEEN_ALL);
    s->to_act = 0; /* not terminal while scoring */
    int32_t elder = next_seat(s, s->dealer);
    if (cc_rank_of(s->turnup) == JACK) {
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

static int32_t cc_nodde_num_actions(const int32_t *params, int32_t nplayers) {
    (void)params;
    (void)nplayers;
    return NUM_CARDS;
}

static int32_t nsides_of(const int32_t *params, int32_t nplayers) {
    return (nplayers == 4 && params[CC_NODDE_P_FOUR_PLAYER_MODE] == CC_NODDE_PARTNERS) ? 2
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

static int32_t cc_nodde_tensor_size(const int32_t *params, int32_t nplayers) {
    (void)params;
    if (!valid_players(nplayers)) return CC_E_PLAYERS;
    return T_SIZE(nplayers);
}

static int32_t cc_nodde_segments(const int32_t *params, int32_t nplayers, cc_segment *out,
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
        {"scores", T_SCORES(n), n, CC_SEG_SEAT_NUMBERS, 1, 0, "the points of each seat's side"},
        {"to_act", T_TO_ACT(n), n, CC_SEG_SEAT, 1, 0, "the seat to play, None when over"},
        {"dealer", T_DEALER(n), n, CC_SEG_SEAT, 1, 0, "the dealer of this deal"},
        {"gone", T_GONE(n), n, CC_SEG_SEAT_NUMBERS, 1, 0, "1 if the seat said go this deal"},
        {"hand_called", T_CALLED(n), n, CC_SEG_SEAT_NUMBERS, 1, 0,
         "1 if the seat has pegged its hand this deal"},
        {"hand_scores", T_HAND_SCORES(n), n, CC_SEG_SEAT_NUMBERS, 1, 0,
         "the hand score each seat pegged this deal (0 if not yet)"},
        {"game_over", T_GAME_OVER(n), 1, CC_SEG_NUMBER, 1, 0, "1 when the game is over"},
    };
    return cc_segments_put(out, cap, 0, segs, (int32_t)(sizeof segs / sizeof segs[0]));
}

static int32_t cc_nodde_observe_tensor(const void *state, int32_t player, float *out) {
    const nodde_state *s = (const nodde_state *)state;
    if (s == NULL || out == NULL || player < 0 || player >= s->n) return CC_E_ARG;
    int32_t n = s->n;
    memset(out, 0, sizeof(float) * (size_t)T_SIZE(n));
    cc_one_hot_cards52(out + T_HAND, s->hand[player]);
    out[T_TURNUP + s->turnup] = 1.0f;
    /* block i is seat q = player + i (mod n), without a division */
    for (int32_t i = 0, q = player; i < n; i++, q = next_seat(s, q))
        cc_one_hot_cards52(out + T_PLAYED + 52 * i, s->dealt[q] & ~s->hand[q]);
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

static int32_t cc_nodde_init(void *state, const int32_t *params, int32_t nplayers, uint64_t seed) {
    if (state == NULL || params == NULL) return CC_E_ARG;
    if (nplayers < cc_game_nodde.min_players || nplayers > cc_game_nodde.max_players)
        return CC_E_PLAYERS;
    int32_t rc = cc_game_check_params(&cc_game_nodde, params, nplayers, NULL);
    if (rc != CC_OK) return rc;
    init_state((nodde_state *)state, params, nplayers, seed, NULL);
    return CC_OK;
}

static int32_t cc_nodde_init_deck(void *state, const int32_t *params, int32_t nplayers,
                                  uint64_t seed, const uint8_t *deck, int32_t ndeck) {
    if (state == NULL || params == NULL) return CC_E_ARG;
    if (nplayers < cc_game_nodde.min_players || nplayers > cc_game_nodde.max_players)
        return CC_E_PLAYERS;
    int32_t rc = cc_game_check_params(&cc_game_nodde, params, nplayers, NULL);
    if (rc != CC_OK) return rc;
    if (!cc_deck_is_permutation(deck, ndeck, NUM_CARDS)) return CC_E_ARG;
    init_state((nodde_state *)state, params, nplayers, seed, deck);
    return CC_OK;
}

static int32_t cc_nodde_current_player(const void *state) {
    return ((const nodde_state *)state)->to_act;
}

static uint64_t legal_bits(const nodde_state *s) {
    return cc_play_legal(s->hand[s->to_act], s->total);
}

static int32_t cc_nodde_legal_actions(const void *state, uint64_t *mask) {
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

static int32_t cc_nodde_verify(const void *state, int32_t action) {
    const nodde_state *s = (const nodde_state *)state;
    if (s == NULL) return CC_E_ARG;
    if (s->to_act == TERMINAL) return CC_E_GAME_OVER;
    if (action < 0 || action >= NUM_CARDS) return CC_NODDE_R_INVALID;
    if (!(s->hand[s->to_act] & cc_bit_of(action))) return CC_NODDE_R_NOT_HELD;
    if (cc_pip_of(action) > 31 - s->total) return CC_NODDE_R_OVER_31;
    return 0;
}

static const char *cc_nodde_reason_text(int32_t reason) {
    switch (reason) {
    case CC_NODDE_R_INVALID: return "not a card id 0..51";
    case CC_NODDE_R_NOT_HELD: return "card not held";
    case CC_NODDE_R_OVER_31: return "over 31";
    case CC_E_GAME_OVER: return "game over";
    default: return "unknown reason";
    }
}

/* docs/nodde.rst, "The play". */
static int32_t cc_nodde_apply(void *state, int32_t action) {
    nodde_state *s = (nodde_state *)state;
    int32_t v = cc_nodde_verify(s, action);
    if (v != 0) return cc_status_error(v, CC_E_ILLEGAL);
    int32_t seat = s->to_act;
    uint64_t b = cc_bit_of(action);
    s->hand[seat] &= ~b;
    s->seq[s->nseq++] = (uint8_t)action;
    s->total += cc_pip_of(action);
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

static void cc_nodde_returns(const void *state, int32_t *out) {
    const nodde_state *s = (const nodde_state *)state;
    if (s == NULL || out == NULL) return;
    for (int32_t q = 0; q < s->n; q++) out[q] = s->score[side_of(s, q)];
}

/* Deals finished: deal_no counts the deals started, the current one too. */
static int32_t cc_nodde_deal_index(const void *state, int32_t *dealer) {
    const nodde_state *s = (const nodde_state *)state;
    if (dealer != NULL) *dealer = s->dealer;
    return s->deal_no - 1;
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
    .check_params = cc_nodde_check_params,
    .num_actions = cc_nodde_num_actions,
    .tensor_size = cc_nodde_tensor_size,
    .segments = cc_nodde_segments,
    .num_event_kinds = (int32_t)(sizeof nodde_event_kinds / sizeof nodde_event_kinds[0]),
    .event_kinds = nodde_event_kinds,
    .num_action_ranges = (int32_t)(sizeof nodde_actions / sizeof nodde_actions[0]),
    .action_ranges = nodde_actions,
    .init = cc_nodde_init,
    .init_deck = cc_nodde_init_deck,
    .current_player = cc_nodde_current_player,
    .legal_actions = cc_nodde_legal_actions,
    .verify = cc_nodde_verify,
    .reason_text = cc_nodde_reason_text,
    .apply = cc_nodde_apply,
    .returns = cc_nodde_returns,
    .observe_tensor = cc_nodde_observe_tensor,
    .sample_infoset = cc_nodde_sample_infoset,
    .heuristic = cc_nodde_heuristic,
    .deal_index = cc_nodde_deal_index,
    .solve_depth = cc_nodde_solve_depth,
    .solve = cc_nodde_solve,
};
