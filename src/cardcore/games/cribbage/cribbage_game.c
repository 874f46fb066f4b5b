/* cribbage.c: Cribbage, the American Cribbage Congress rules (docs/cribbage.rst).
 *
 * The game transitions live here; the show and play scoring is the family's
 * scorer (score_internal.h, combos.c), shared with Nodde Knave, given the
 * cribbage rules: four cards and the starter, a hand flush of 4 or 5, a crib
 * flush of 5 only.  The batch kernels, the distribution and the discard
 * analysis use a lookup table of the rank kinds (fifteens, pairs, runs: they
 * depend only on the five ranks) built from that scorer, and its suit part
 * (flush, nobs) directly. */
#include "cc_cribbage.h"

#include <stdlib.h>

#include "cc_internal.h"
#include "score_internal.h"

#define NUM_CARDS 52
#define JACK 10
#define TERMINAL CC_PLAYER_TERMINAL
#define NP CC_CRIBBAGE_NUM_PARAMS

/* ---- cards ------------------------------------------------------------ */

static inline int32_t rank_of(int32_t id) { return id % 13; }
static inline int32_t suit_of(int32_t id) { return id / 13; }
static inline int32_t pip_of_rank(int32_t r) { return r >= 9 ? 10 : r + 1; }
static inline int32_t pip_of(int32_t id) { return pip_of_rank(rank_of(id)); }
static inline uint64_t bit_of(int32_t id) {
    return (uint64_t)1 << (16 * suit_of(id) + rank_of(id));
}
static inline uint64_t lanes(uint32_t rank_mask) {
    return (uint64_t)rank_mask * 0x0001000100010001ULL;
}

/* ---- rules parameters ---------------------------------------------------- */

/* docs/cribbage.rst, "Rules parameters": the fields of the Python
 * CribbageRules, in the same order, with the same defaults. */
static const cc_param cribbage_params[NP] = {
    [CC_CRIBBAGE_P_GAME_TARGET] = {.name = "game_target", .kind = CC_PARAM_INT, .min = 1,
                                   .max = CC_CRIBBAGE_MAX_TARGET, .default_value = 121,
                                   .doc = "points to win (121; 61 is the short game)"},
    [CC_CRIBBAGE_P_CRIB_FOUR_FLUSH] = {.name = "crib_four_flush", .kind = CC_PARAM_BOOL,
                                       .min = 0, .max = 1, .default_value = 0,
                                       .doc = "a crib flush of the four crib cards counts 4 "
                                              "(not the ACC rule: only a five-card crib flush)"},
    [CC_CRIBBAGE_P_FIRST_DEALER] = {.name = "first_dealer", .kind = CC_PARAM_OPTIONAL,
                                    .min = 0, .max = CC_CRIBBAGE_MAX_PLAYERS - 1,
                                    .default_value = -1, .none_value = -1,
                                    .doc = "the first dealer's seat, or None: cut for deal"},
    [CC_CRIBBAGE_P_MUGGINS] = {.name = "muggins", .kind = CC_PARAM_BOOL, .min = 0, .max = 1,
                               .default_value = 0,
                               .doc = "players claim their own show; an opponent may take "
                                      "points overlooked (ACC rule 10)"},
    [CC_CRIBBAGE_P_OVERCLAIM] = {.name = "overclaim", .kind = CC_PARAM_CHOICE, .min = 0,
                                 .max = 1, .default_value = CC_CRIBBAGE_OVERCLAIM_CORRECT,
                                 .choices = "correct|penalty",
                                 .doc = "with muggins, a claim over the true score: corrected "
                                        "(ACC), or corrected and the excess to the opponent"},
    [CC_CRIBBAGE_P_PARTNERSHIP] = {.name = "partnership", .kind = CC_PARAM_CHOICE, .min = 0,
                                   .max = 1, .default_value = CC_CRIBBAGE_PARTNERS_CUT,
                                   .choices = "cut|seats",
                                   .doc = "4 players: partners by the cut (ACC), or seats 0+2 "
                                          "against 1+3"},
};

static int32_t g_check_params(const int32_t *params, int32_t nplayers, int32_t *bad) {
    int32_t ignored;
    if (bad == NULL) bad = &ignored;
    if (params == NULL) return CC_E_ARG;
    if (nplayers == 0) return CC_OK;
    if (params[CC_CRIBBAGE_P_FIRST_DEALER] >= nplayers) {
        *bad = CC_CRIBBAGE_P_FIRST_DEALER;
        return CC_E_PARAMS;
    }
    return CC_OK;
}

static int32_t check_rules(const int32_t *params) {
    return cc_game_check_params(&cc_game_cribbage, params, 0, NULL) == CC_OK ? CC_OK
                                                                            : CC_E_PARAMS;
}

/* ---- show and play scoring: the family's scorers (score_internal.h) ------- */

/* docs/cribbage.rst, "The show": a hand's flush is its four cards (4) or
 * the five with the starter (5); a crib's only the five, unless the rules
 * count four. */
static inline cc_show_rules show_rules(int32_t is_crib, int32_t crib_four) {
    cc_show_rules r = {.hand_size = 4,
                       .run_points = CC_RUN_PER_CARD,
                       .flush_any = 0,
                       .flush_min = is_crib && !crib_four ? 5 : 4,
                       .all_31 = 0,
                       .score_25 = CC_25_OFF};
    return r;
}

/* docs/cribbage.rst, "The play": fifteen, pairs, runs and 31. */
static const cc_play_rules play_rules = {
    .run_points = CC_RUN_PER_CARD, .flush = 0, .score_25 = CC_25_OFF};

/* The scorer's items as the API's (the same fields). */
static void copy_items(cc_cribbage_item *out, const cc_score_item *items, int32_t n) {
    for (int32_t i = 0; i < n; i++) {
        out[i].kind = items[i].kind;
        out[i].points = items[i].points;
        out[i].cards = items[i].cards;
    }
}

/* The show points of a valid 4-card hand (or crib) with the starter. */
static inline int32_t show_points(uint64_t hand, int32_t starter, int32_t is_crib,
                                  int32_t crib_four) {
    cc_show_rules r = show_rules(is_crib, crib_four);
    return cc_show_points(hand, starter, &r);
}

/* The flush and nobs part of show_points (the rest depends on the ranks). */
static inline int32_t suit_points(uint64_t hand, int32_t starter, int32_t is_crib,
                                  int32_t crib_four) {
    cc_show_rules r = show_rules(is_crib, crib_four);
    return cc_show_suit_points(hand, starter, &r);
}

static void hand_ids(uint64_t hand, int32_t starter, int32_t *c) {
    for (int32_t i = 0; i < 4; i++) {
        c[i] = cc_card52_id_of_bit(cc_ctz64(hand));
        hand &= hand - 1;
    }
    c[4] = starter;
}

static int32_t hand_cards(uint64_t hand, int32_t starter, int32_t *c) {
    if (hand & ~CC_DECK52_MASK) return CC_E_CARDS;
    if (cc_popcount64(hand) != 4) return CC_E_CARDS;
    if (starter < 0 || starter >= NUM_CARDS) return CC_E_CARDS;
    if (hand & bit_of(starter)) return CC_E_CARDS;
    hand_ids(hand, starter, c);
    return CC_OK;
}

int32_t cc_cribbage_show_items(uint64_t hand, int32_t starter, int32_t is_crib,
                               const int32_t *params, cc_cribbage_item *out, int32_t cap) {
    if (check_rules(params) != CC_OK) return CC_E_PARAMS;
    if (is_crib != 0 && is_crib != 1) return CC_E_ARG;
    int32_t c[5];
    int32_t rc = hand_cards(hand, starter, c);
    if (rc != CC_OK) return rc;
    cc_show_rules r = show_rules(is_crib, params[CC_CRIBBAGE_P_CRIB_FOUR_FLUSH]);
    cc_score_item items[CC_SCORE_MAX_SHOW_ITEMS];
    int32_t n = cc_show_items(c, &r, items);
    if (n > cap || (n > 0 && out == NULL)) return CC_E_CAPACITY;
    cc_score_sort(items, n);
    copy_items(out, items, n);
    return n;
}

int32_t cc_cribbage_score_show(uint64_t hand, int32_t starter, int32_t is_crib,
                               const int32_t *params) {
    if (check_rules(params) != CC_OK) return CC_E_PARAMS;
    if (is_crib != 0 && is_crib != 1) return CC_E_ARG;
    int32_t c[5];
    int32_t rc = hand_cards(hand, starter, c);
    if (rc != CC_OK) return rc;
    return show_points(hand, starter, is_crib, params[CC_CRIBBAGE_P_CRIB_FOUR_FLUSH]);
}

/* ---- play scoring ------------------------------------------------------------ */

int32_t cc_cribbage_play_items(const uint8_t *seq, int32_t n, cc_cribbage_item *out,
                               int32_t cap) {
    int32_t rc = cc_play_check(seq, n, CC_CRIBBAGE_MAX_PLAY);
    if (rc != CC_OK) return rc;
    cc_score_item items[CC_SCORE_MAX_PLAY_ITEMS];
    int32_t k = cc_play_items(seq, n, &play_rules, items);
    if (k > cap || (k > 0 && out == NULL)) return CC_E_CAPACITY;
    copy_items(out, items, k);
    return k;
}

/* ---- the rank table: batch scoring, distribution, discard analysis --------- */

#define RANK5 371293 /* 13^5: four hand ranks and the starter rank, any order */

/* t[((((r0 * 13 + r1) * 13 + r2) * 13 + r3) * 13 + r4] = the fifteens, pairs
 * and runs of five cards of those ranks, scored by the show scorer itself. */
static void build_rank_table(uint8_t *t) {
    const cc_show_rules rules = show_rules(0, 0); /* the rank kinds: the same for a crib */
    int32_t r[5];
    for (int32_t idx = 0; idx < RANK5; idx++) {
        int32_t x = idx;
        for (int32_t i = 4; i >= 0; i--) {
            r[i] = x % 13;
            x /= 13;
        }
        /* sort, then score once per multiset: the first index of a multiset
         * is its sorted one, so later orderings copy it */
        int32_t q[5] = {r[0], r[1], r[2], r[3], r[4]};
        for (int32_t i = 1; i < 5; i++)
            for (int32_t j = i; j > 0 && q[j - 1] > q[j]; j--) {
                int32_t y = q[j];
                q[j] = q[j - 1];
                q[j - 1] = y;
            }
        int32_t sorted = (((q[0] * 13 + q[1]) * 13 + q[2]) * 13 + q[3]) * 13 + q[4];
        if (sorted < idx) {
            t[idx] = t[sorted];
            continue;
        }
        if (q[0] == q[4]) { /* five of a rank cannot be dealt */
            t[idx] = 0;
            continue;
        }
        /* suits: the k-th card of a rank gets suit k (a rank occurs at most 4 times) */
        uint64_t cards = 0;
        for (int32_t i = 0; i < 5; i++) {
            int32_t k = 0;
            for (int32_t j = 0; j < i; j++) k += q[j] == q[i];
            cards |= bit_of(k * 13 + q[i]);
        }
        t[idx] = (uint8_t)cc_show_rank_points(cards, &rules);
    }
}

static inline int32_t rank_index4(uint64_t hand) {
    int32_t idx = 0;
    for (int32_t i = 0; i < 4; i++) {
        idx = idx * 13 + (cc_ctz64(hand) & 15);
        hand &= hand - 1;
    }
    return idx * 13;
}

int32_t cc_cribbage_batch_score_show(const uint64_t *hands, const uint8_t *starters,
                                     int64_t n, int32_t is_crib, const int32_t *params,
                                     int32_t *out, int64_t *bad_index) {
    if (check_rules(params) != CC_OK) return CC_E_PARAMS;
    if (is_crib != 0 && is_crib != 1) return CC_E_ARG;
    if (n < 0 || (n > 0 && (hands == NULL || starters == NULL || out == NULL)))
        return CC_E_ARG;
    for (int64_t i = 0; i < n; i++) {
        uint64_t h = hands[i];
        int32_t s = starters[i];
        if ((h & ~CC_DECK52_MASK) || cc_popcount64(h) != 4 || s >= NUM_CARDS ||
            (h & bit_of(s))) {
            if (bad_index) *bad_index = i;
            return CC_E_CARDS;
        }
    }
    int32_t four = params[CC_CRIBBAGE_P_CRIB_FOUR_FLUSH];
    if (n < 20000) {
        for (int64_t i = 0; i < n; i++) out[i] = show_points(hands[i], starters[i], is_crib, four);
        return CC_OK;
    }
    uint8_t *t = (uint8_t *)malloc(RANK5);
    if (t == NULL) return CC_E_CAPACITY;
    build_rank_table(t);
    for (int64_t i = 0; i < n; i++) {
        uint64_t h = hands[i];
        int32_t s = starters[i];
        out[i] = t[rank_index4(h) + rank_of(s)] + suit_points(h, s, is_crib, four);
    }
    free(t);
    return CC_OK;
}

int32_t cc_cribbage_show_distribution(int32_t is_crib, const int32_t *params, int64_t *hist) {
    if (check_rules(params) != CC_OK) return CC_E_PARAMS;
    if (is_crib != 0 && is_crib != 1) return CC_E_ARG;
    if (hist == NULL) return CC_E_ARG;
    memset(hist, 0, sizeof(int64_t) * CC_CRIBBAGE_HIST_SIZE);
    uint8_t *t = (uint8_t *)malloc(RANK5);
    if (t == NULL) return CC_E_CAPACITY;
    build_rank_table(t);
    int32_t four = params[CC_CRIBBAGE_P_CRIB_FOUR_FLUSH];
    for (int32_t a = 0; a < NUM_CARDS; a++)
        for (int32_t b = a + 1; b < NUM_CARDS; b++)
            for (int32_t c = b + 1; c < NUM_CARDS; c++)
                for (int32_t d = c + 1; d < NUM_CARDS; d++) {
                    uint64_t h = bit_of(a) | bit_of(b) | bit_of(c) | bit_of(d);
                    int32_t base = rank_index4(h);
                    for (int32_t s = 0; s < NUM_CARDS; s++) {
                        if (h & bit_of(s)) continue;
                        int32_t v = t[base + rank_of(s)] + suit_points(h, s, is_crib, four);
                        if (v >= CC_CRIBBAGE_HIST_SIZE) {
                            free(t);
                            return CC_E_CAPACITY;
                        }
                        hist[v]++;
                    }
                }
    free(t);
    return CC_OK;
}

/* The expected crib of two discards a, b when the other three cards are a
 * uniform 3-subset of pool (m cards), the starter uniform among the three. */
static double crib_expect(const uint8_t *t, int32_t a, int32_t b, const uint8_t *pool,
                          int32_t m, int32_t four) {
    int64_t sum = 0, count = 0;
    uint64_t ab = bit_of(a) | bit_of(b);
    int32_t rab = rank_of(a) * 13 + rank_of(b);
    for (int32_t i = 0; i < m; i++)
        for (int32_t j = i + 1; j < m; j++)
            for (int32_t k = j + 1; k < m; k++) {
                int32_t x[3] = {pool[i], pool[j], pool[k]};
                int32_t rank_part = t[((rab * 13 + rank_of(x[0])) * 13 + rank_of(x[1])) * 13 +
                                      rank_of(x[2])];
                for (int32_t s = 0; s < 3; s++) {
                    uint64_t crib = ab | bit_of(x[(s + 1) % 3]) | bit_of(x[(s + 2) % 3]);
                    sum += rank_part + suit_points(crib, x[s], 1, four);
                }
                count += 3;
            }
    return (double)sum / (double)count;
}

int32_t cc_cribbage_crib_exact(uint64_t hand, const int32_t *params, double *out15) {
    if (check_rules(params) != CC_OK) return CC_E_PARAMS;
    if (out15 == NULL) return CC_E_ARG;
    if ((hand & ~CC_DECK52_MASK) || cc_popcount64(hand) != 6) return CC_E_CARDS;
    uint8_t *t = (uint8_t *)malloc(RANK5);
    if (t == NULL) return CC_E_CAPACITY;
    build_rank_table(t);
    int32_t ids[6];
    uint8_t pool[NUM_CARDS];
    int32_t m = 0;
    for (int32_t i = 0, x = 0; x < NUM_CARDS; x++) {
        if (hand & bit_of(x)) ids[i++] = x;
        else pool[m++] = (uint8_t)x;
    }
    int32_t k = 0;
    for (int32_t i = 0; i < 6; i++)
        for (int32_t j = i + 1; j < 6; j++)
            out15[k++] = crib_expect(t, ids[i], ids[j], pool, m,
                                     params[CC_CRIBBAGE_P_CRIB_FOUR_FLUSH]);
    free(t);
    return CC_OK;
}

/* The table model: the crib of two discards depends on their ranks and on
 * whether they share a suit; 13 x 13 x 2 values, each over the 50 others. */
static void build_crib_table(const uint8_t *t, int32_t four, double *ct) {
    for (int32_t ra = 0; ra < 13; ra++)
        for (int32_t rb = 0; rb < 13; rb++)
            for (int32_t suited = 0; suited < 2; suited++) {
                double *o = &ct[(ra * 13 + rb) * 2 + suited];
                *o = -1.0;
                if (suited && ra == rb) continue;
                if (ra > rb) { /* symmetric: filled below */
                    continue;
                }
                int32_t a = ra, b = suited ? rb : 13 + rb;
                uint8_t pool[NUM_CARDS];
                int32_t m = 0;
                for (int32_t x = 0; x < NUM_CARDS; x++)
                    if (x != a && x != b) pool[m++] = (uint8_t)x;
                *o = crib_expect(t, a, b, pool, m, four);
            }
    for (int32_t ra = 0; ra < 13; ra++)
        for (int32_t rb = 0; rb < ra; rb++)
            for (int32_t suited = 0; suited < 2; suited++)
                ct[(ra * 13 + rb) * 2 + suited] = ct[(rb * 13 + ra) * 2 + suited];
}

int32_t cc_cribbage_batch_discards(const uint64_t *hands, int64_t n, const int32_t *params,
                                   int32_t *hand_sum, double *crib, int64_t *bad_index) {
    if (check_rules(params) != CC_OK) return CC_E_PARAMS;
    if (n < 0 || (n > 0 && (hands == NULL || hand_sum == NULL))) return CC_E_ARG;
    for (int64_t i = 0; i < n; i++) {
        uint64_t h = hands[i];
        if ((h & ~CC_DECK52_MASK) || cc_popcount64(h) != 6) {
            if (bad_index) *bad_index = i;
            return CC_E_CARDS;
        }
    }
    if (n == 0) return CC_OK;
    int32_t four = params[CC_CRIBBAGE_P_CRIB_FOUR_FLUSH];
    uint8_t *t = (uint8_t *)malloc(RANK5);
    if (t == NULL) return CC_E_CAPACITY;
    build_rank_table(t);
    double ct[13 * 13 * 2];
    if (crib) build_crib_table(t, four, ct);
    for (int64_t i = 0; i < n; i++) {
        uint64_t h = hands[i];
        uint64_t b[6];
        int32_t avail[13]; /* starters of each rank outside the hand */
        int32_t suit_left[4];
        for (int32_t r = 0; r < 13; r++) avail[r] = 4;
        for (int32_t s = 0; s < 4; s++) suit_left[s] = 13 - cc_popcount64(h & ((uint64_t)0x1FFF << (16 * s)));
        uint64_t x = h;
        for (int32_t k = 0; k < 6; k++) {
            b[k] = x & -x;
            avail[cc_ctz64(x) & 15]--;
            x &= x - 1;
        }
        int32_t k = 0;
        for (int32_t p = 0; p < 6; p++)
            for (int32_t q = p + 1; q < 6; q++, k++) {
                uint64_t kept = h & ~b[p] & ~b[q];
                int32_t base = rank_index4(kept);
                int32_t sum = 0;
                for (int32_t r = 0; r < 13; r++) sum += avail[r] * t[base + r];
                /* flush: four kept cards of one suit: 4 for each starter
                 * outside it, 5 for each of the suit_left starters in it */
                int32_t ks = cc_ctz64(kept) >> 4;
                if ((kept & ((uint64_t)0x1FFF << (16 * ks))) == kept)
                    sum += 4 * (46 - suit_left[ks]) + 5 * suit_left[ks];
                /* nobs: each kept Jack, with a starter of its suit */
                for (int32_t s = 0; s < 4; s++)
                    if (kept & ((uint64_t)1 << (16 * s + JACK))) sum += suit_left[s];
                hand_sum[i * 15 + k] = sum;
                if (crib) {
                    int32_t pa = cc_ctz64(b[p]), pb = cc_ctz64(b[q]);
                    crib[i * 15 + k] = ct[((pa & 15) * 13 + (pb & 15)) * 2 + ((pa >> 4) == (pb >> 4))];
                }
            }
    }
    free(t);
    return CC_OK;
}

/* ---- the game ------------------------------------------------------------------ */

#define PHASE_DISCARD 0
#define PHASE_PLAY 1
#define PHASE_SHOW 2 /* muggins: the owners claim their show */

typedef struct cribbage_state {
    int32_t params[NP];
    int32_t n, partners, target, hand_size, discards;
    cc_rng rng;
    uint8_t deck[NUM_CARDS]; /* deck[0 .. 51 - top] is the stock, dealt from the end */
    int32_t top, stacked;
    int32_t dealer, deal_no, phase;
    uint64_t dealt[CC_CRIBBAGE_MAX_PLAYERS]; /* the cards dealt this deal */
    uint64_t hand[CC_CRIBBAGE_MAX_PLAYERS];  /* held: not discarded, not played */
    uint64_t disc[CC_CRIBBAGE_MAX_PLAYERS];  /* discarded to the crib */
    int32_t crib_dealt;                      /* the card dealt to the crib (3 players), or -1 */
    int32_t starter;                         /* -1 until cut */
    uint8_t play[16];                        /* the cards played this deal, in order */
    int32_t nplay, count_start, total, last_player;
    uint32_t gone;
    int32_t go_room[CC_CRIBBAGE_MAX_PLAYERS]; /* the largest room at which he said go, -1 */
    int32_t to_act;
    int32_t score[CC_CRIBBAGE_MAX_PLAYERS]; /* per side */
    int32_t skunk[CC_CRIBBAGE_MAX_PLAYERS]; /* per seat at the end: 0, 1 skunk, 2 double */
    int32_t winner;                         /* side, or -1 */
    int32_t num_actions;
    /* Positions round the table (the internal numbering: every field above
     * is by position) and seats (the players' numbers outside) */
    int32_t seat_of[CC_CRIBBAGE_MAX_PLAYERS], pos_of[CC_CRIBBAGE_MAX_PLAYERS];
    /* muggins: the show item counted (1..n hands from the dealer's left,
     * n + 1 the crib, 0 none), its claim while a call is pending (-1) */
    int32_t show_k, claim, calling, crib_shown;
    /* muggins in the play: the points claimed (0 none, CLAIM_PLAY a card's,
     * CLAIM_GO a go or last card) and their true value */
    int32_t pclaim, ptruth;
    CC_LOG_MEMBERS(CC_CRIBBAGE_LOG_CAP);
} cribbage_state;

CC_LOG_LAYOUT(cribbage_state);

#define CLAIM_PLAY 1
#define CLAIM_GO 2

/* player: a position (logged as its seat); seen_by: positions' bits. */
static void log_ev(cribbage_state *s, int32_t kind, int32_t player, int32_t target,
                   int32_t value, int32_t extra, uint32_t seen_by) {
    if (cc_log_muted(&s->log)) return; /* a search's copy: nothing to map */
    if (player >= 0 && player < s->n) player = s->seat_of[player];
    if (seen_by != CC_SEEN_ALL) {
        uint32_t b = 0;
        for (int32_t q = 0; q < s->n; q++)
            if (seen_by >> q & 1) b |= 1u << s->seat_of[q];
        seen_by = b;
    }
    cc_log_push(&s->log, kind, player, target, value, extra, seen_by);
}

static inline int32_t side_of(const cribbage_state *s, int32_t seat) {
    return s->partners ? (seat & 1) : seat;
}

/* docs/cribbage.rst, "Game end and skunks": a loser short of target - 30
 * (91 of 121) is skunked, short of target - 60 (61 of 121) double skunked. */
static void finish(cribbage_state *s, int32_t seat) {
    int32_t side = side_of(s, seat);
    s->winner = side;
    s->to_act = TERMINAL;
    int32_t worst = 0;
    for (int32_t q = 0; q < s->n; q++) {
        int32_t sc = s->score[side_of(s, q)];
        int32_t k = side_of(s, q) == side ? 0 : sc <= s->target - 61 ? 2 : sc <= s->target - 31 ? 1 : 0;
        s->skunk[q] = k;
        if (k) log_ev(s, CC_CRIBBAGE_EV_SKUNK, q, -1, k, sc, CC_SEEN_ALL);
        if (k > worst) worst = k;
    }
    log_ev(s, CC_CRIBBAGE_EV_GAME_OVER, seat, side, s->score[side], worst, CC_SEEN_ALL);
}

/* Peg points to seat's side; 1 if that ends the game. */
static int32_t peg(cribbage_state *s, int32_t seat, int32_t pts) {
    if (pts <= 0) return 0;
    int32_t side = side_of(s, seat);
    s->score[side] += pts;
    if (s->score[side] >= s->target) {
        finish(s, seat);
        return 1;
    }
    return 0;
}

static inline int32_t min_pip(uint64_t cards) {
    uint32_t ranks = (uint32_t)(cards | cards >> 16 | cards >> 32 | cards >> 48) & 0x1FFFu;
    return ranks ? pip_of_rank(cc_ctz64(ranks)) : 11;
}

static inline int32_t can_play(const cribbage_state *s, int32_t seat) {
    return s->hand[seat] != 0 && min_pip(s->hand[seat]) <= 31 - s->total;
}

static int32_t deal_card(cribbage_state *s) {
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

static void start_deal(cribbage_state *s);

/* docs/cribbage.rst, "The show": pone(s) from the dealer's left, the
 * dealer, then the crib; the game ends as soon as a side reaches the target. */
static uint64_t crib_of(const cribbage_state *s) {
    uint64_t crib = 0;
    for (int32_t q = 0; q < s->n; q++) crib |= s->disc[q];
    if (s->crib_dealt >= 0) crib |= bit_of(s->crib_dealt);
    return crib;
}

/* The true points of show item k (1..n: the hands from the dealer's left,
 * n + 1: the crib). */
static int32_t item_points(const cribbage_state *s, int32_t k) {
    int32_t four = s->params[CC_CRIBBAGE_P_CRIB_FOUR_FLUSH];
    if (k <= s->n) {
        int32_t q = (s->dealer + k) % s->n;
        return show_points(s->dealt[q] & ~s->disc[q], s->starter, 0, four);
    }
    return show_points(crib_of(s), s->starter, 1, four);
}

static void log_crib(cribbage_state *s) {
    for (uint64_t u = crib_of(s); u; u &= u - 1)
        log_ev(s, CC_CRIBBAGE_EV_CRIB_CARD, s->dealer, -1, cc_card52_id_of_bit(cc_ctz64(u)), 0,
               CC_SEEN_ALL);
}

/* Muggins: on to the next item of the show (its owner claims), or the next
 * deal. */
static void next_show(cribbage_state *s) {
    s->show_k++;
    s->claim = -1;
    s->calling = 0;
    if (s->show_k > s->n + 1) {
        s->dealer = (s->dealer + 1) % s->n;
        start_deal(s);
        return;
    }
    if (s->show_k == s->n + 1) {
        log_crib(s);
        s->crib_shown = 1;
        s->to_act = s->dealer;
    } else {
        s->to_act = (s->dealer + s->show_k) % s->n;
    }
}

static void show(cribbage_state *s) {
    int32_t four = s->params[CC_CRIBBAGE_P_CRIB_FOUR_FLUSH];
    if (s->params[CC_CRIBBAGE_P_MUGGINS]) {
        s->phase = PHASE_SHOW;
        s->show_k = 0;
        next_show(s);
        return;
    }
    for (int32_t i = 1; i <= s->n; i++) {
        int32_t q = (s->dealer + i) % s->n;
        int32_t pts = show_points(s->dealt[q] & ~s->disc[q], s->starter, 0, four);
        log_ev(s, CC_CRIBBAGE_EV_SHOW_HAND, q, -1, pts, 0, CC_SEEN_ALL);
        if (peg(s, q, pts)) return;
    }
    uint64_t crib = crib_of(s);
    log_crib(s);
    int32_t pts = show_points(crib, s->starter, 1, four);
    log_ev(s, CC_CRIBBAGE_EV_SHOW_CRIB, s->dealer, -1, pts, 0, CC_SEEN_ALL);
    if (peg(s, s->dealer, pts)) return;
    s->dealer = (s->dealer + 1) % s->n;
    start_deal(s);
}

/* What is being claimed (the target of a claim event, the extra of a
 * muggins call): 0 a hand, 1 the crib, 2 a card of the play, 3 a go or
 * last card. */
static int32_t claim_what(const cribbage_state *s) {
    if (s->phase == PHASE_SHOW) return s->show_k == s->n + 1;
    return s->pclaim == CLAIM_PLAY ? 2 : 3;
}

/* The true points of what is being claimed. */
static int32_t claim_truth(const cribbage_state *s) {
    return s->phase == PHASE_SHOW ? item_points(s, s->show_k) : s->ptruth;
}

static void after_card(cribbage_state *s, int32_t seat);
static void after_go(cribbage_state *s);

/* A claim (and its call) is settled: on with the show, or the play where it
 * stopped. */
static void settle(cribbage_state *s) {
    if (s->phase == PHASE_SHOW) {
        next_show(s);
        return;
    }
    int32_t kind = s->pclaim;
    s->pclaim = 0;
    s->ptruth = 0;
    s->claim = -1;
    s->calling = 0;
    if (kind == CLAIM_PLAY) after_card(s, s->last_player);
    else after_go(s);
}

/* docs/cribbage.rst, "The muggins rule": the owner of the points claims
 * pts of them.  The seat on his left (an opponent) answers an underclaim. */
static void apply_claim(cribbage_state *s, int32_t pts) {
    int32_t owner = s->to_act, n = s->n;
    int32_t what = claim_what(s);
    int32_t in_show = s->phase == PHASE_SHOW;
    int32_t truth = claim_truth(s);
    int32_t caller = (owner + 1) % n;
    int32_t kind = what == 1 ? CC_CRIBBAGE_EV_SHOW_CRIB : CC_CRIBBAGE_EV_SHOW_HAND;
    log_ev(s, CC_CRIBBAGE_EV_CLAIM, owner, what, pts, truth, CC_SEEN_ALL);
    if (pts > truth) {
        int32_t side = side_of(s, owner);
        int32_t before = s->score[side];
        int32_t over = pts - truth;
        int32_t mode = s->params[CC_CRIBBAGE_P_OVERCLAIM];
        int32_t false_game = before + pts >= s->target && before + truth < s->target;
        int32_t how = mode == CC_CRIBBAGE_OVERCLAIM_PENALTY ? 2 : false_game ? 1 : 0;
        log_ev(s, CC_CRIBBAGE_EV_OVERCLAIM, owner, s->seat_of[caller], over, how, CC_SEEN_ALL);
        if (in_show) log_ev(s, kind, owner, -1, truth, 0, CC_SEEN_ALL);
        if (peg(s, owner, truth)) return;
        if (how == 1) {
            /* ACC 8.4 b: a false claim of game: 15 holes back, and the
             * opponent pegs the points overclaimed up to the game hole */
            int32_t back = s->score[side] < 15 ? s->score[side] : 15;
            s->score[side] -= back;
            log_ev(s, CC_CRIBBAGE_EV_PENALTY, owner, s->seat_of[owner], -back, 0, CC_SEEN_ALL);
            int32_t award = s->target - before - truth;
            log_ev(s, CC_CRIBBAGE_EV_PENALTY, caller, s->seat_of[owner], award, 0, CC_SEEN_ALL);
            if (peg(s, caller, award)) return;
        } else if (how == 2) {
            log_ev(s, CC_CRIBBAGE_EV_PENALTY, caller, s->seat_of[owner], over, 0, CC_SEEN_ALL);
            if (peg(s, caller, over)) return;
        }
        settle(s);
        return;
    }
    if (in_show) log_ev(s, kind, owner, -1, pts, 0, CC_SEEN_ALL);
    if (peg(s, owner, pts)) return;
    if (pts < truth) {
        s->claim = pts;
        s->calling = 1;
        s->to_act = caller;
        return;
    }
    settle(s);
}

/* The seat on the claimant's left calls muggins (takes the points
 * overlooked) or passes. */
static void apply_call(cribbage_state *s, int32_t muggins) {
    int32_t caller = s->to_act, n = s->n;
    int32_t owner = (caller + n - 1) % n;
    int32_t missed = claim_truth(s) - s->claim;
    if (muggins) {
        log_ev(s, CC_CRIBBAGE_EV_MUGGINS, caller, s->seat_of[owner], missed, claim_what(s),
               CC_SEEN_ALL);
        if (peg(s, caller, missed)) return;
    } else {
        log_ev(s, CC_CRIBBAGE_EV_NO_MUGGINS, caller, s->seat_of[owner], missed, claim_what(s),
               CC_SEEN_ALL);
    }
    settle(s);
}

static int32_t all_played(const cribbage_state *s) {
    for (int32_t q = 0; q < s->n; q++)
        if (s->hand[q]) return 0;
    return 1;
}

static void new_count(cribbage_state *s) {
    s->count_start = s->nplay;
    s->total = 0;
    s->gone = 0;
}

/* Muggins in the play: the owner of points the play made claims them. */
static void begin_play_claim(cribbage_state *s, int32_t kind, int32_t truth, int32_t owner) {
    s->pclaim = kind;
    s->ptruth = truth;
    s->claim = -1;
    s->calling = 0;
    s->to_act = owner;
}

/* docs/cribbage.rst, "The play": the next player after seat `from` who can
 * play is to act; one who holds cards but cannot play says go; when nobody
 * can play, the last to play pegs 1 (go, or last card; with muggins he
 * claims it), and a new count starts with the player after him. */
static void next_turn(cribbage_state *s, int32_t from) {
    for (;;) {
        for (int32_t k = 1; k <= s->n; k++) {
            int32_t q = (from + k) % s->n;
            if ((s->gone >> q & 1) || s->hand[q] == 0) continue;
            if (can_play(s, q)) {
                s->to_act = q;
                return;
            }
            s->gone |= 1u << q;
            if (31 - s->total > s->go_room[q]) s->go_room[q] = 31 - s->total;
            log_ev(s, CC_CRIBBAGE_EV_GO, q, s->total, 0, 0, CC_SEEN_ALL);
        }
        int32_t done = all_played(s);
        if (s->params[CC_CRIBBAGE_P_MUGGINS]) {
            log_ev(s, CC_CRIBBAGE_EV_LAST_CARD, s->last_player, s->total, 0, done, CC_SEEN_ALL);
            begin_play_claim(s, CLAIM_GO, 1, s->last_player);
            return;
        }
        log_ev(s, CC_CRIBBAGE_EV_LAST_CARD, s->last_player, s->total, 1, done, CC_SEEN_ALL);
        if (peg(s, s->last_player, 1)) return;
        if (done) {
            show(s);
            return;
        }
        new_count(s);
        from = s->last_player;
    }
}

/* The go or last-card point is settled: the show, or a new count. */
static void after_go(cribbage_state *s) {
    if (all_played(s)) {
        show(s);
        return;
    }
    new_count(s);
    next_turn(s, s->last_player);
}

/* A card's points are settled: a count of 31 starts the next (or the show). */
static void after_card(cribbage_state *s, int32_t seat) {
    if (s->total == 31) {
        if (all_played(s)) {
            show(s);
            return;
        }
        new_count(s);
    }
    next_turn(s, seat);
}

/* docs/cribbage.rst, "The deal". */
static void start_deal(cribbage_state *s) {
    int32_t n = s->n;
    if (s->deal_no > 0) {
        for (int32_t i = 0; i < NUM_CARDS; i++) s->deck[i] = (uint8_t)i;
        s->top = 0;
        s->stacked = 0;
    }
    s->deal_no++;
    s->phase = PHASE_DISCARD;
    s->nplay = 0;
    s->count_start = 0;
    s->total = 0;
    s->gone = 0;
    s->last_player = -1;
    s->starter = -1;
    s->crib_dealt = -1;
    s->show_k = 0;
    s->claim = -1;
    s->calling = 0;
    s->crib_shown = 0;
    s->pclaim = 0;
    s->ptruth = 0;
    for (int32_t q = 0; q < CC_CRIBBAGE_MAX_PLAYERS; q++) {
        s->hand[q] = 0;
        s->dealt[q] = 0;
        s->disc[q] = 0;
        s->go_room[q] = -1;
    }
    log_ev(s, CC_CRIBBAGE_EV_NEW_DEAL, s->dealer, -1, s->deal_no, 0, CC_SEEN_ALL);
    for (int32_t k = 0; k < s->hand_size; k++)
        for (int32_t i = 1; i <= n; i++) {
            int32_t q = (s->dealer + i) % n;
            int32_t c = deal_card(s);
            s->hand[q] |= bit_of(c);
            log_ev(s, CC_CRIBBAGE_EV_DEAL_CARD, q, -1, c, 0, 1u << q);
        }
    if (n == 3) {
        s->crib_dealt = deal_card(s);
        log_ev(s, CC_CRIBBAGE_EV_CRIB_DEALT, s->dealer, -1, s->crib_dealt, 0, 0);
    }
    for (int32_t q = 0; q < n; q++) s->dealt[q] = s->hand[q];
    s->to_act = (s->dealer + 1) % n;
}

/* All discards are made: cut the starter, his heels, then the play. */
static void start_play(cribbage_state *s) {
    s->starter = deal_card(s);
    log_ev(s, CC_CRIBBAGE_EV_STARTER, s->dealer, -1, s->starter, 0, CC_SEEN_ALL);
    s->phase = PHASE_PLAY;
    if (rank_of(s->starter) == JACK) {
        log_ev(s, CC_CRIBBAGE_EV_HEELS, s->dealer, -1, 2, 0, CC_SEEN_ALL);
        if (peg(s, s->dealer, 2)) return;
    }
    s->to_act = (s->dealer + 1) % s->n; /* everyone holds 4 cards: the pone can play */
}

/* ---- the observation tensor (docs/cribbage.rst, "Observation tensor") ------- */

#define T_HAND 0
#define T_DISCARDS 52
#define T_STARTER 104
#define T_PLAYED 156
#define T_ORDER(n) (T_PLAYED + 52 * (n))
#define T_COUNT(n) (T_ORDER(n) + 52)
#define T_TOTAL(n) (T_COUNT(n) + 52)
#define T_SCORES(n) (T_TOTAL(n) + 1)
#define T_HELD(n) (T_SCORES(n) + (n))
#define T_TO_ACT(n) (T_HELD(n) + (n))
#define T_DEALER(n) (T_TO_ACT(n) + (n))
#define T_GONE(n) (T_DEALER(n) + (n))
#define T_PHASE(n) (T_GONE(n) + (n))
#define T_SKUNK(n) (T_PHASE(n) + 2)
#define T_GAME_OVER(n) (T_SKUNK(n) + (n))
#define T_SIZE(n) (T_GAME_OVER(n) + 1)

static int32_t valid_players(int32_t nplayers) {
    return nplayers >= 2 && nplayers <= CC_CRIBBAGE_MAX_PLAYERS;
}

/* One fixed action space: the claims, muggins and pass are legal only with
 * muggins, while a claim or a call is awaited. */
static int32_t g_num_actions(const int32_t *params, int32_t nplayers) {
    (void)params;
    (void)nplayers;
    return CC_CRIBBAGE_NUM_ACTIONS;
}

/* The optional segments after T_SIZE(n): "partner" with 4 players, then the
 * muggins segments (crib_shown 52, claimant n, show_crib, claim,
 * muggins_call); -1 for an absent one. */
typedef struct tlayout {
    int32_t partner, mug, size;
} tlayout;

static tlayout layout(const int32_t *params, int32_t n) {
    tlayout t = {-1, -1, T_SIZE(n)};
    if (n == 4) {
        t.partner = t.size;
        t.size += n;
    }
    if (params != NULL && params[CC_CRIBBAGE_P_MUGGINS]) {
        t.mug = t.size;
        t.size += 52 + n + 3;
    }
    return t;
}

static int32_t g_tensor_size(const int32_t *params, int32_t nplayers) {
    if (!valid_players(nplayers)) return CC_E_PLAYERS;
    return layout(params, nplayers).size;
}

static int32_t g_segments(const int32_t *params, int32_t nplayers, cc_segment *out,
                          int32_t cap) {
    if (!valid_players(nplayers)) return CC_E_PLAYERS;
    int32_t n = nplayers;
    tlayout lay = layout(params, n);
    const cc_segment segs[] = {
        {"hand", T_HAND, 52, CC_SEG_CARDS, 1, 0, "the observer's held cards"},
        {"discards", T_DISCARDS, 52, CC_SEG_CARDS, 1, 0,
         "the observer's own discards to the crib this deal"},
        {"starter", T_STARTER, 52, CC_SEG_CARD, 1, 0, "the starter, once cut"},
        {"played", T_PLAYED, 52 * n, CC_SEG_SEAT_CARDS, 1, 0,
         "the cards each seat has played this deal"},
        {"play_order", T_ORDER(n), 52, CC_SEG_NUMBERS, 1, 0,
         "per card id: its place (1..16) in this deal's play, 0 if not played"},
        {"count", T_COUNT(n), 52, CC_SEG_CARDS, 1, 0, "the cards of the current count"},
        {"total", T_TOTAL(n), 1, CC_SEG_NUMBER, 1, 0, "the running total of the count"},
        {"scores", T_SCORES(n), n, CC_SEG_SEAT_NUMBERS, 1, 0,
         "the points of each seat's side"},
        {"held", T_HELD(n), n, CC_SEG_SEAT_NUMBERS, 1, 0, "the number of cards each seat holds"},
        {"to_act", T_TO_ACT(n), n, CC_SEG_SEAT, 1, 0, "the seat to act, None when over"},
        {"dealer", T_DEALER(n), n, CC_SEG_SEAT, 1, 0, "the dealer of this deal"},
        {"gone", T_GONE(n), n, CC_SEG_SEAT_NUMBERS, 1, 0, "1 if the seat said go this count"},
        {"phase", T_PHASE(n), 2, CC_SEG_ONE_HOT, 1, 0,
         "0 discarding, 1 the play; None when over"},
        {"skunk", T_SKUNK(n), n, CC_SEG_SEAT_NUMBERS, 1, 0,
         "at the end: 1 for a skunked seat, 2 for a double skunk"},
        {"game_over", T_GAME_OVER(n), 1, CC_SEG_NUMBER, 1, 0, "1 when the game is over"},
    };
    const cc_segment partner[] = {
        {"partner", lay.partner, n, CC_SEG_SEAT, 1, 0, "4 players: the observer's partner"},
    };
    const cc_segment mug[] = {
        {"crib_shown", lay.mug, 52, CC_SEG_CARDS, 1, 0,
         "muggins: the crib, once turned up in the show"},
        {"claimant", lay.mug + 52, n, CC_SEG_SEAT, 1, 0,
         "muggins: whose points (hand, crib or play) are being claimed, else None"},
        {"show_crib", lay.mug + 52 + n, 1, CC_SEG_NUMBER, 1, 0,
         "muggins: 1 while the crib is being counted"},
        {"claim", lay.mug + 53 + n, 1, CC_SEG_NUMBER, 1, 0,
         "muggins: the points claimed, while a muggins call is awaited"},
        {"muggins_call", lay.mug + 54 + n, 1, CC_SEG_NUMBER, 1, 0,
         "muggins: 1 while a muggins call is awaited"},
    };
    int32_t count = 0;
    const int32_t nbase = (int32_t)(sizeof segs / sizeof segs[0]);
    for (int32_t i = 0; i < nbase; i++, count++)
        if (count < cap && out != NULL) out[count] = segs[i];
    if (lay.partner >= 0) {
        if (count < cap && out != NULL) out[count] = partner[0];
        count++;
    }
    if (lay.mug >= 0)
        for (int32_t i = 0; i < 5; i++, count++)
            if (count < cap && out != NULL) out[count] = mug[i];
    return count;
}

static void one_hot_cards(float *out, uint64_t cards) {
    while (cards) {
        out[cc_card52_id_of_bit(cc_ctz64(cards))] = 1.0f;
        cards &= cards - 1;
    }
}

static int32_t g_observe_tensor(const void *state, int32_t player, float *out) {
    const cribbage_state *s = (const cribbage_state *)state;
    if (s == NULL || out == NULL || player < 0 || player >= s->n) return CC_E_ARG;
    int32_t n = s->n;
    tlayout lay = layout(s->params, n);
    memset(out, 0, sizeof(float) * (size_t)lay.size);
    int32_t me = s->pos_of[player];
    one_hot_cards(out + T_HAND, s->hand[me]);
    one_hot_cards(out + T_DISCARDS, s->disc[me]);
    if (s->starter >= 0) out[T_STARTER + s->starter] = 1.0f;
    /* block i: the seat i places after the observer's (seats, not positions) */
    for (int32_t i = 0; i < n; i++) {
        int32_t q = s->pos_of[(player + i) % n];
        one_hot_cards(out + T_PLAYED + 52 * i, s->dealt[q] & ~s->hand[q] & ~s->disc[q]);
    }
    for (int32_t k = 0; k < s->nplay; k++) out[T_ORDER(n) + s->play[k]] = (float)(k + 1);
    for (int32_t k = s->count_start; k < s->nplay; k++) out[T_COUNT(n) + s->play[k]] = 1.0f;
    out[T_TOTAL(n)] = (float)s->total;
    for (int32_t i = 0; i < n; i++) {
        int32_t q = s->pos_of[(player + i) % n];
        out[T_SCORES(n) + i] = (float)s->score[side_of(s, q)];
        out[T_HELD(n) + i] = (float)cc_popcount64(s->hand[q]);
        out[T_GONE(n) + i] = (float)(s->gone >> q & 1);
        out[T_SKUNK(n) + i] = (float)s->skunk[q];
    }
    if (s->to_act != TERMINAL) {
        out[T_TO_ACT(n) + (s->seat_of[s->to_act] - player + n) % n] = 1.0f;
        if (s->phase != PHASE_SHOW) out[T_PHASE(n) + s->phase] = 1.0f;
    }
    out[T_DEALER(n) + (s->seat_of[s->dealer] - player + n) % n] = 1.0f;
    out[T_GAME_OVER(n)] = s->to_act == TERMINAL ? 1.0f : 0.0f;
    if (lay.partner >= 0)
        out[lay.partner + (s->seat_of[(me + 2) % n] - player + n) % n] = 1.0f;
    if (lay.mug >= 0) {
        if (s->crib_shown) one_hot_cards(out + lay.mug, crib_of(s));
        if (s->to_act != TERMINAL && (s->phase == PHASE_SHOW || s->pclaim)) {
            int32_t owner = s->calling ? (s->to_act + n - 1) % n : s->to_act;
            out[lay.mug + 52 + (s->seat_of[owner] - player + n) % n] = 1.0f;
            out[lay.mug + 52 + n] = s->phase == PHASE_SHOW && s->show_k == n + 1 ? 1.0f : 0.0f;
            out[lay.mug + 53 + n] = s->calling ? (float)s->claim : 0.0f;
            out[lay.mug + 54 + n] = s->calling ? 1.0f : 0.0f;
        }
    }
    return CC_OK;
}

/* ---- init and the actions ------------------------------------------------------ */

/* docs/cribbage.rst, "Cutting for deal": each seat in turn cuts a card; the
 * lowest rank deals; a tie for lowest cuts again.  With partners chosen by
 * the cut (4 players), the two lowest play against the two highest, and a
 * tie between the second and third lowest also cuts again; *second gets
 * the second lowest.  Logged unless the rules fix the first dealer and the
 * cut chooses no partners (the cut is made either way).  The seats are the
 * positions while the cut is made. */
static int32_t cut_for_deal(cribbage_state *s, int32_t log_it, int32_t partners,
                            int32_t *second) {
    for (int32_t round = 1;; round++) {
        uint64_t used = 0;
        int32_t rk[CC_CRIBBAGE_MAX_PLAYERS];
        for (int32_t q = 0; q < s->n; q++) {
            int32_t c;
            do c = (int32_t)cc_rng_below_inline(&s->rng, NUM_CARDS);
            while (used & bit_of(c));
            used |= bit_of(c);
            if (log_it) log_ev(s, CC_CRIBBAGE_EV_CUT, q, -1, c, round, CC_SEEN_ALL);
            rk[q] = rank_of(c);
        }
        /* who: the lowest; *second: the second lowest (ties by seat) */
        int32_t who = 0;
        for (int32_t q = 1; q < s->n; q++)
            if (rk[q] < rk[who]) who = q;
        int32_t sec = who == 0 ? 1 : 0;
        for (int32_t q = 0; q < s->n; q++)
            if (q != who && rk[q] < rk[sec]) sec = q;
        int32_t ok = 1;
        for (int32_t q = 0; q < s->n; q++) {
            if (q != who && rk[q] == rk[who]) ok = 0;
            if (partners && q != who && q != sec && rk[q] == rk[sec]) ok = 0;
        }
        if (ok) {
            *second = sec;
            return who;
        }
    }
}

/* With 4 players: the table's order (positions) from the partners. */
static void seat_partners(cribbage_state *s, int32_t a, int32_t b) {
    /* mate: seat 0's partner */
    int32_t mate = a == 0 ? b : b == 0 ? a : -1;
    int32_t other[2], k = 0;
    if (mate < 0) { /* seat 0 is of the other side: its partner is the third seat */
        for (int32_t q = 1; q < 4; q++)
            if (q != a && q != b) mate = q;
    }
    for (int32_t q = 1; q < 4; q++)
        if (q != mate) other[k++] = q;
    int32_t order[4] = {0, other[0], mate, other[1]};
    for (int32_t i = 0; i < 4; i++) {
        s->seat_of[i] = order[i];
        s->pos_of[order[i]] = i;
    }
    /* one event per side: its lower seat, the partner (target), the side */
    log_ev(s, CC_CRIBBAGE_EV_PARTNERS, 0, order[2], 0, 0, CC_SEEN_ALL);
    log_ev(s, CC_CRIBBAGE_EV_PARTNERS, 1, order[3], 1, 0, CC_SEEN_ALL);
}

static void init_state(cribbage_state *s, const int32_t *params, int32_t nplayers,
                       uint64_t seed, const uint8_t *deck) {
    memset(s, 0, offsetof(cribbage_state, log));
    cc_log_init(&s->log, CC_CRIBBAGE_LOG_CAP);
    for (int32_t i = 0; i < NP; i++) s->params[i] = params[i];
    s->n = nplayers;
    s->partners = nplayers == 4;
    s->target = params[CC_CRIBBAGE_P_GAME_TARGET];
    s->hand_size = nplayers == 2 ? 6 : 5;
    s->discards = nplayers == 2 ? 2 : 1;
    cc_rng_seed(&s->rng, seed);
    s->winner = -1;
    s->num_actions = g_num_actions(params, nplayers);
    for (int32_t q = 0; q < CC_CRIBBAGE_MAX_PLAYERS; q++) {
        s->seat_of[q] = q;
        s->pos_of[q] = q;
    }
    for (int32_t i = 0; i < NUM_CARDS; i++)
        s->deck[i] = deck ? deck[NUM_CARDS - 1 - i] : (uint8_t)i;
    s->stacked = deck != NULL;
    int32_t fixed = params[CC_CRIBBAGE_P_FIRST_DEALER];
    int32_t by_cut = nplayers == 4 && params[CC_CRIBBAGE_P_PARTNERSHIP] == CC_CRIBBAGE_PARTNERS_CUT;
    int32_t second = -1;
    int32_t cut = cut_for_deal(s, fixed < 0 || by_cut, by_cut, &second);
    if (nplayers == 4) seat_partners(s, by_cut ? cut : 0, by_cut ? second : 2);
    s->dealer = s->pos_of[fixed >= 0 ? fixed : cut];
    start_deal(s);
}

static int32_t check_init(const int32_t *params, int32_t nplayers) {
    if (params == NULL) return CC_E_ARG;
    if (nplayers < cc_game_cribbage.min_players || nplayers > cc_game_cribbage.max_players)
        return CC_E_PLAYERS;
    return cc_game_check_params(&cc_game_cribbage, params, nplayers, NULL);
}

static int32_t g_init(void *state, const int32_t *params, int32_t nplayers, uint64_t seed) {
    if (state == NULL) return CC_E_ARG;
    int32_t rc = check_init(params, nplayers);
    if (rc != CC_OK) return rc;
    init_state((cribbage_state *)state, params, nplayers, seed, NULL);
    return CC_OK;
}

static int32_t g_init_deck(void *state, const int32_t *params, int32_t nplayers,
                           uint64_t seed, const uint8_t *deck, int32_t ndeck) {
    if (state == NULL) return CC_E_ARG;
    int32_t rc = check_init(params, nplayers);
    if (rc != CC_OK) return rc;
    if (deck == NULL || ndeck != NUM_CARDS) return CC_E_ARG;
    uint64_t seen = 0;
    for (int32_t i = 0; i < NUM_CARDS; i++) {
        if (deck[i] >= NUM_CARDS || (seen & bit_of(deck[i]))) return CC_E_ARG;
        seen |= bit_of(deck[i]);
    }
    init_state((cribbage_state *)state, params, nplayers, seed, deck);
    return CC_OK;
}

static int32_t g_current_player(const void *state) {
    const cribbage_state *s = (const cribbage_state *)state;
    return s->to_act == TERMINAL ? TERMINAL : s->seat_of[s->to_act];
}

static uint64_t legal_bits(const cribbage_state *s) {
    if (s->phase == PHASE_DISCARD) return s->hand[s->to_act];
    int32_t room = 31 - s->total;
    uint32_t rm = room >= 10 ? 0x1FFFu : (room <= 0 ? 0u : (1u << room) - 1);
    return s->hand[s->to_act] & lanes(rm);
}

static int32_t g_legal_actions(const void *state, uint64_t *mask) {
    const cribbage_state *s = (const cribbage_state *)state;
    if (s == NULL || mask == NULL) return CC_E_ARG;
    if (s->to_act == TERMINAL) return 0;
    if (s->calling) {
        cc_mask_set(mask, CC_CRIBBAGE_A_MUGGINS);
        cc_mask_set(mask, CC_CRIBBAGE_A_PASS);
        return 2;
    }
    if (s->phase == PHASE_SHOW || s->pclaim) {
        int32_t top = s->pclaim ? CC_CRIBBAGE_MAX_PLAY_CLAIM : CC_CRIBBAGE_MAX_CLAIM;
        for (int32_t c = 0; c <= top; c++) cc_mask_set(mask, CC_CRIBBAGE_A_CLAIM + c);
        return top + 1;
    }
    int32_t base = s->phase == PHASE_DISCARD ? CC_CRIBBAGE_A_DISCARD : CC_CRIBBAGE_A_PLAY;
    uint64_t b = legal_bits(s);
    int32_t k = 0;
    while (b) {
        cc_mask_set(mask, base + cc_card52_id_of_bit(cc_ctz64(b)));
        b &= b - 1;
        k++;
    }
    return k;
}

/* g_verify of a claim, muggins or pass, and of a card while claiming. */
static int32_t verify_muggins(const cribbage_state *s, int32_t action) {
    if (action >= CC_CRIBBAGE_A_CLAIM && !s->params[CC_CRIBBAGE_P_MUGGINS])
        return CC_CRIBBAGE_R_NO_MUGGINS;
    if (action >= CC_CRIBBAGE_A_MUGGINS) return s->calling ? 0 : CC_CRIBBAGE_R_NOT_CALL;
    if (action >= CC_CRIBBAGE_A_CLAIM) {
        if (s->calling || (s->phase != PHASE_SHOW && !s->pclaim)) return CC_CRIBBAGE_R_NOT_CLAIM;
        if (s->pclaim && action - CC_CRIBBAGE_A_CLAIM > CC_CRIBBAGE_MAX_PLAY_CLAIM)
            return CC_CRIBBAGE_R_CLAIM_RANGE;
        return 0;
    }
    return s->phase == PHASE_SHOW ? CC_CRIBBAGE_R_IN_SHOW : CC_CRIBBAGE_R_CLAIM_FIRST;
}

static int32_t g_verify(const void *state, int32_t action) {
    const cribbage_state *s = (const cribbage_state *)state;
    if (s == NULL) return CC_E_ARG;
    if (s->to_act == TERMINAL) return CC_E_GAME_OVER;
    if (action < 0 || action >= s->num_actions) return CC_CRIBBAGE_R_INVALID;
    if (action >= CC_CRIBBAGE_A_CLAIM || s->phase == PHASE_SHOW || s->pclaim)
        return verify_muggins(s, action);
    int32_t discard = action < CC_CRIBBAGE_A_PLAY;
    int32_t card = discard ? action : action - CC_CRIBBAGE_A_PLAY;
    if (discard && s->phase != PHASE_DISCARD) return CC_CRIBBAGE_R_NOT_DISCARD;
    if (!discard && s->phase != PHASE_PLAY) return CC_CRIBBAGE_R_NOT_PLAY;
    if (!(s->hand[s->to_act] & bit_of(card))) return CC_CRIBBAGE_R_NOT_HELD;
    if (!discard && pip_of(card) > 31 - s->total) return CC_CRIBBAGE_R_OVER_31;
    return 0;
}

static const char *g_reason_text(int32_t reason) {
    switch (reason) {
    case CC_CRIBBAGE_R_INVALID: return "not an action id of this game";
    case CC_CRIBBAGE_R_IN_SHOW: return "the show: claim the points of the hand or crib";
    case CC_CRIBBAGE_R_NOT_CLAIM: return "nothing is being claimed";
    case CC_CRIBBAGE_R_CLAIM_FIRST: return "claim the points of the play first";
    case CC_CRIBBAGE_R_CLAIM_RANGE: return "more points than a card of the play can make";
    case CC_CRIBBAGE_R_NOT_CALL: return "no claim to call muggins on";
    case CC_CRIBBAGE_R_NO_MUGGINS: return "the muggins rule is not in play";
    case CC_CRIBBAGE_R_NOT_DISCARD: return "not the discard: the play has begun";
    case CC_CRIBBAGE_R_NOT_PLAY: return "not the play: discard to the crib first";
    case CC_CRIBBAGE_R_NOT_HELD: return "card not held";
    case CC_CRIBBAGE_R_OVER_31: return "over 31";
    case CC_E_GAME_OVER: return "game over";
    default: return "unknown reason";
    }
}

static int32_t g_apply(void *state, int32_t action) {
    cribbage_state *s = (cribbage_state *)state;
    int32_t v = g_verify(s, action);
    if (v != 0) return v;
    int32_t seat = s->to_act;
    if (action >= CC_CRIBBAGE_A_CLAIM) {
        if (action >= CC_CRIBBAGE_A_MUGGINS) apply_call(s, action == CC_CRIBBAGE_A_MUGGINS);
        else apply_claim(s, action - CC_CRIBBAGE_A_CLAIM);
        return 0;
    }
    if (s->phase == PHASE_DISCARD) {
        uint64_t b = bit_of(action);
        s->hand[seat] &= ~b;
        s->disc[seat] |= b;
        log_ev(s, CC_CRIBBAGE_EV_DISCARD, seat, -1, action, 0, 1u << seat);
        if (cc_popcount64(s->disc[seat]) < s->discards) return 0;
        if (seat != s->dealer) s->to_act = (seat + 1) % s->n;
        else start_play(s);
        return 0;
    }
    int32_t card = action - CC_CRIBBAGE_A_PLAY;
    s->hand[seat] &= ~bit_of(card);
    s->play[s->nplay++] = (uint8_t)card;
    s->total += pip_of(card);
    s->last_player = seat;
    int32_t pts = cc_play_points(s->play + s->count_start, s->nplay - s->count_start, s->total,
                                 &play_rules);
    if (s->params[CC_CRIBBAGE_P_MUGGINS]) {
        log_ev(s, CC_CRIBBAGE_EV_PLAY, seat, s->total, card, 0, CC_SEEN_ALL);
        if (pts > 0) {
            begin_play_claim(s, CLAIM_PLAY, pts, seat);
            return 0;
        }
    } else {
        log_ev(s, CC_CRIBBAGE_EV_PLAY, seat, s->total, card, pts, CC_SEEN_ALL);
        if (peg(s, seat, pts)) return 0;
    }
    after_card(s, seat);
    return 0;
}

static void g_returns(const void *state, int32_t *out) {
    const cribbage_state *s = (const cribbage_state *)state;
    if (s == NULL || out == NULL) return;
    for (int32_t q = 0; q < s->n; q++) out[q] = s->score[side_of(s, s->pos_of[q])];
}

/* ---- information-set sampling -------------------------------------------------- */
/*
 * Every decision falls in the discard, the play or (muggins) the show of
 * the current deal (every deal is shuffled afresh), so what player p
 * does not know is which of the cards he has not seen this deal each other
 * seat holds, which it discarded, the card dealt to the crib (3 players)
 * and the order of the stock.  The public facts that constrain a seat's
 * held cards: he said go with room r (every held card is above r), and, for
 * the seat to play a card (not one claiming points), that he can play (a
 * held card fits).  The consistent
 * deals are the assignments of the unseen cards to the hidden places with
 * each seat's held cards consistent.  The sampler draws each seat's held
 * cards uniformly among the cards above its go room (one uniform subset per
 * seat, independently) until they are disjoint and the seat to play holds a
 * card that fits: every consistent tuple of held cards then has the same
 * probability.  The discards and the crib card are a uniform draw from the
 * rest, whose size does not depend on the tuple, so the whole assignment is
 * exactly uniform over the consistent deals.
 */

#define SAMPLE_TRIES 1000000

static int32_t g_sample_infoset(const void *state, int32_t player, uint64_t seed, void *outp) {
    const cribbage_state *s = (const cribbage_state *)state;
    if (s == NULL || outp == NULL || outp == state || player < 0 || player >= s->n)
        return CC_E_ARG;
    int32_t n = s->n;
    int32_t seat = player; /* the log speaks in seats, the state in positions */
    player = s->pos_of[seat];
    /* what p has seen this deal (the crib, once turned up in a muggins show) */
    int32_t crib_known = s->crib_shown;
    uint64_t seen = s->dealt[player];
    if (s->starter >= 0) seen |= bit_of(s->starter);
    for (int32_t k = 0; k < s->nplay; k++) seen |= bit_of(s->play[k]);
    if (crib_known) seen |= crib_of(s);
    uint8_t pool[NUM_CARDS];
    int32_t m = 0;
    for (int32_t x = 0; x < NUM_CARDS; x++)
        if (!(seen & bit_of(x))) pool[m++] = (uint8_t)x;
    /* hidden places: per other seat its held cards then its discards, then the crib card */
    int32_t held_k[CC_CRIBBAGE_MAX_PLAYERS] = {0}, disc_k[CC_CRIBBAGE_MAX_PLAYERS] = {0};
    int32_t need = 0;
    for (int32_t q = 0; q < n; q++) {
        if (q == player) continue;
        held_k[q] = cc_popcount64(s->hand[q]);
        disc_k[q] = crib_known ? 0 : cc_popcount64(s->disc[q]);
        need += held_k[q] + disc_k[q];
    }
    int32_t crib_k = s->crib_dealt >= 0 && !crib_known ? 1 : 0;
    need += crib_k;
    int32_t stock = NUM_CARDS - s->top;
    if (need + stock != m) return CC_E_ARG;
    cc_rng rng;
    cc_rng_seed(&rng, seed);
    /* each seat's held cards come from its eligible cards (above its go room) */
    uint8_t elig[CC_CRIBBAGE_MAX_PLAYERS][NUM_CARDS];
    int32_t ne[CC_CRIBBAGE_MAX_PLAYERS] = {0};
    for (int32_t q = 0; q < n; q++) {
        if (q == player) continue;
        for (int32_t i = 0; i < m; i++)
            if (pip_of(pool[i]) > s->go_room[q]) elig[q][ne[q]++] = pool[i];
        if (ne[q] < held_k[q]) return CC_E_ARG; /* not a real state */
    }
    uint64_t held[CC_CRIBBAGE_MAX_PLAYERS] = {0}, disc[CC_CRIBBAGE_MAX_PLAYERS] = {0};
    uint64_t used = 0;
    int32_t ok = 0;
    for (int32_t t = 0; t < SAMPLE_TRIES && !ok; t++) {
        used = 0;
        ok = 1;
        for (int32_t q = 0; q < n && ok; q++) {
            held[q] = 0;
            if (q == player) continue;
            /* a uniform held_k-subset of the eligible cards: partial Fisher-Yates */
            for (int32_t i = 0; i < held_k[q]; i++) {
                int32_t top = ne[q] - 1 - i;
                int32_t j = (int32_t)cc_rng_below_inline(&rng, (uint64_t)top + 1);
                uint8_t x = elig[q][j];
                elig[q][j] = elig[q][top];
                elig[q][top] = x;
                held[q] |= bit_of(x);
            }
            if (held[q] & used) ok = 0;
            used |= held[q];
            if (s->phase == PHASE_PLAY && !s->pclaim && q == s->to_act &&
                min_pip(held[q]) > 31 - s->total)
                ok = 0;
        }
    }
    if (!ok) return CC_E_ARG; /* not a real state */
    /* the other hidden places from the rest, uniformly: discards, the crib card */
    uint8_t rest[NUM_CARDS];
    int32_t r = 0;
    for (int32_t i = 0; i < m; i++)
        if (!(used & bit_of(pool[i]))) rest[r++] = pool[i];
    int32_t at = r;
    for (int32_t q = 0; q < n; q++) {
        disc[q] = crib_known ? s->disc[q] : 0;
        if (q == player) continue;
        for (int32_t i = 0; i < disc_k[q]; i++) {
            int32_t top = --at;
            int32_t j = (int32_t)cc_rng_below_inline(&rng, (uint64_t)top + 1);
            uint8_t x = rest[j];
            rest[j] = rest[top];
            rest[top] = x;
            disc[q] |= bit_of(x);
        }
    }
    int32_t crib_card = s->crib_dealt;
    if (crib_k) {
        int32_t top = --at;
        int32_t j = (int32_t)cc_rng_below_inline(&rng, (uint64_t)top + 1);
        crib_card = rest[j];
        rest[j] = rest[top];
        rest[top] = (uint8_t)crib_card;
    }
    /* rest[0 .. at - 1]: the stock (at == stock, checked above) */
    cribbage_state *o = (cribbage_state *)outp;
    memcpy(o, s, cc_game_used_size(&cc_game_cribbage, s));
    o->rng = rng;
    for (int32_t q = 0; q < n; q++) {
        if (q == player) continue;
        o->hand[q] = held[q];
        o->disc[q] = disc[q];
        o->dealt[q] = held[q] | disc[q] | (s->dealt[q] & ~s->hand[q] & ~s->disc[q]);
    }
    if (crib_k) o->crib_dealt = crib_card;
    /* the stock: the unseen cards nobody holds, shuffled lazily as dealt */
    uint64_t stock_set = 0;
    for (int32_t i = 0; i < stock; i++) {
        o->deck[i] = rest[i];
        stock_set |= bit_of(rest[i]);
    }
    int32_t fill = stock;
    for (int32_t x = 0; x < NUM_CARDS && fill < NUM_CARDS; x++)
        if (!(stock_set & bit_of(x))) o->deck[fill++] = (uint8_t)x;
    o->stacked = 0;
    /* the log: hidden values of this deal become the sampled cards; those of
     * earlier deals -1 */
    uint64_t left_dealt[CC_CRIBBAGE_MAX_PLAYERS], left_disc[CC_CRIBBAGE_MAX_PLAYERS];
    for (int32_t q = 0; q < CC_CRIBBAGE_MAX_PLAYERS; q++) {
        left_dealt[q] = q < n ? o->dealt[q] : 0;
        left_disc[q] = q < n ? o->disc[q] : 0;
    }
    int32_t kept = cc_log_kept(&o->log);
    int64_t first = o->log.total - kept;
    int64_t deal_start = -1;
    for (int32_t i = kept - 1; i >= 0; i--) {
        const cc_log_entry *e = cc_log_at_const(&o->log, i);
        if (e->kind == CC_CRIBBAGE_EV_NEW_DEAL) {
            deal_start = first + i;
            break;
        }
    }
    for (int32_t i = 0; i < kept; i++) {
        cc_log_entry *e = cc_log_at(&o->log, i);
        if (e->seen_by >> seat & 1) continue;
        int32_t q = e->player >= 0 && e->player < n ? s->pos_of[e->player] : -1;
        if (first + i < deal_start || q < 0 || q >= n) {
            e->value = -1;
        } else if (e->kind == CC_CRIBBAGE_EV_DEAL_CARD && left_dealt[q]) {
            e->value = cc_card52_id_of_bit(cc_ctz64(left_dealt[q]));
            left_dealt[q] &= left_dealt[q] - 1;
        } else if (e->kind == CC_CRIBBAGE_EV_DISCARD && left_disc[q]) {
            e->value = cc_card52_id_of_bit(cc_ctz64(left_disc[q]));
            left_disc[q] &= left_disc[q] - 1;
        } else if (e->kind == CC_CRIBBAGE_EV_CRIB_DEALT) {
            e->value = crib_card;
        } else {
            e->value = -1;
        }
    }
    return CC_OK;
}

/* ---- the heuristic bot (docs/cribbage.rst, "The heuristic bot") ------------- */

/* The expected crib points of a discard of ranks a, b (table model, suits
 * averaged), times 100, for the discard heuristic; a single card (3 or 4
 * players) uses row a, column 13. */
static const int16_t crib_pair_x100[13][14] = {
    {553, 444, 456, 547, 574, 426, 408, 413, 404, 396, 419, 386, 375, 444},
    {444, 583, 684, 485, 577, 437, 429, 424, 414, 407, 431, 397, 386, 467},
    {456, 684, 616, 550, 643, 428, 436, 429, 412, 415, 438, 405, 394, 483},
    {547, 485, 550, 614, 700, 497, 418, 431, 421, 415, 438, 404, 394, 483},
    {574, 577, 643, 700, 899, 710, 642, 576, 574, 703, 726, 693, 682, 665},
    {426, 437, 428, 497, 710, 629, 554, 490, 558, 384, 408, 374, 363, 478},
    {408, 429, 436, 418, 642, 554, 611, 677, 436, 373, 402, 369, 358, 467},
    {413, 424, 429, 431, 576, 490, 677, 563, 494, 431, 395, 367, 356, 463},
    {404, 414, 412, 421, 574, 558, 436, 494, 553, 485, 449, 356, 351, 452},
    {396, 407, 415, 415, 703, 384, 373, 431, 485, 546, 505, 412, 342, 445},
    {419, 431, 438, 438, 726, 408, 402, 395, 449, 505, 593, 501, 431, 470},
    {386, 397, 405, 404, 693, 374, 369, 367, 356, 412, 501, 525, 397, 428},
    {375, 386, 394, 394, 682, 363, 358, 356, 351, 342, 431, 397, 503, 408},
};

static int32_t heuristic_discard(const cribbage_state *s, cc_rng *rng, int32_t *action) {
    int32_t q = s->to_act;
    int32_t need = s->discards - cc_popcount64(s->disc[q]);
    uint64_t hand = s->hand[q];
    int32_t ids[6] = {0}, k = 0;
    for (uint64_t u = hand; u; u &= u - 1) ids[k++] = cc_card52_id_of_bit(cc_ctz64(u));
    int32_t mine = side_of(s, q) == side_of(s, s->dealer);
    int64_t best = INT64_MIN;
    int32_t pick = ids[0], ties = 0;
    for (int32_t i = 0; i < k; i++)
        for (int32_t j = (need == 2 ? i + 1 : k - 1); j < k; j++) {
            uint64_t d = bit_of(ids[i]) | (need == 2 ? bit_of(ids[j]) : 0);
            uint64_t kept = hand & ~d;
            if (cc_popcount64(kept) != 4) continue;
            int64_t sum = 0, cnt = 0;
            for (int32_t st = 0; st < NUM_CARDS; st++) {
                if (s->dealt[q] & bit_of(st)) continue;
                sum += show_points(kept, st, 0, s->params[CC_CRIBBAGE_P_CRIB_FOUR_FLUSH]);
                cnt++;
            }
            /* both discards: those made and these */
            uint64_t all = s->disc[q] | d;
            int32_t r[2], nr = 0;
            for (uint64_t u = all; u; u &= u - 1) r[nr++] = cc_ctz64(u) & 15;
            int32_t crib = nr == 2 ? crib_pair_x100[r[0]][r[1]] : crib_pair_x100[r[0]][13];
            int64_t v = sum * 100 * 100 / cnt + (mine ? crib : -crib) * 100;
            if (v > best) {
                best = v;
                pick = ids[i];
                ties = 1;
            } else if (v == best && cc_rng_below(rng, (uint64_t)++ties) == 0) {
                pick = ids[i];
            }
        }
    *action = CC_CRIBBAGE_A_DISCARD + pick;
    return CC_OK;
}

static int32_t heuristic_play(const cribbage_state *s, cc_rng *rng, int32_t *action) {
    uint64_t legal = legal_bits(s);
    int32_t best = INT32_MIN, pick = -1, ties = 0;
    uint8_t seq[CC_CRIBBAGE_MAX_PLAY + 1];
    int32_t len = s->nplay - s->count_start;
    for (int32_t i = 0; i < len; i++) seq[i] = s->play[s->count_start + i];
    for (uint64_t u = legal; u; u &= u - 1) {
        int32_t c = cc_card52_id_of_bit(cc_ctz64(u));
        seq[len] = (uint8_t)c;
        int32_t total = s->total + pip_of(c);
        int32_t pts = cc_play_points(seq, len + 1, total, &play_rules);
        int32_t v = pts * 100;
        if (total == 5 || total == 21) v -= 150; /* a ten-card makes 15 or 31 */
        if (len == 0 && pip_of(c) == 5) v -= 100; /* do not lead a five */
        if (len == 0 && c % 13 < 4) v += 20;       /* lead low */
        v += pip_of(c);                            /* keep low cards for later counts */
        if (v > best) {
            best = v;
            pick = c;
            ties = 1;
        } else if (v == best && cc_rng_below(rng, (uint64_t)++ties) == 0) {
            pick = c;
        }
    }
    if (pick < 0) return CC_E_ARG;
    *action = CC_CRIBBAGE_A_PLAY + pick;
    return CC_OK;
}

static int32_t g_heuristic(const void *state, cc_rng *rng, int32_t *action) {
    const cribbage_state *s = (const cribbage_state *)state;
    if (s == NULL || rng == NULL || action == NULL) return CC_E_ARG;
    if (s->to_act == TERMINAL) return CC_E_GAME_OVER;
    if (s->phase == PHASE_SHOW || s->pclaim) {
        /* muggins: claim the true score; take every point overlooked */
        *action = s->calling ? CC_CRIBBAGE_A_MUGGINS : CC_CRIBBAGE_A_CLAIM + claim_truth(s);
        return CC_OK;
    }
    return s->phase == PHASE_DISCARD ? heuristic_discard(s, rng, action)
                                     : heuristic_play(s, rng, action);
}

/* ---- the table ------------------------------------------------------------------- */

static const cc_event_kind cribbage_event_kinds[] = {
    [CC_CRIBBAGE_EV_CUT] = {"cut", CC_VALUE_CARD,
                            "player cuts value for the deal; extra: the round (ties cut again)"},
    [CC_CRIBBAGE_EV_NEW_DEAL] = {"new_deal", CC_VALUE_NUMBER,
                                 "player deals; value: the deal number from 1"},
    [CC_CRIBBAGE_EV_DEAL_CARD] = {"deal_card", CC_VALUE_CARD,
                                  "player is dealt value (seen by him only)"},
    [CC_CRIBBAGE_EV_CRIB_DEALT] = {"crib_dealt", CC_VALUE_CARD,
                                   "player (the dealer) deals value to the crib (seen by no one)"},
    [CC_CRIBBAGE_EV_DISCARD] = {"discard", CC_VALUE_CARD,
                                "player lays value away to the crib (seen by him only)"},
    [CC_CRIBBAGE_EV_STARTER] = {"starter", CC_VALUE_CARD, "player (the dealer) turns value"},
    [CC_CRIBBAGE_EV_HEELS] = {"his_heels", CC_VALUE_NUMBER,
                              "player (the dealer) pegs value (2) for a Jack starter"},
    [CC_CRIBBAGE_EV_PLAY] = {"play", CC_VALUE_CARD,
                             "player plays value; target: the count; extra: points pegged (with "
                             "muggins 0: he claims them)"},
    [CC_CRIBBAGE_EV_GO] = {"go", CC_VALUE_NONE, "player says go; target: the count"},
    [CC_CRIBBAGE_EV_LAST_CARD] = {"last_card", CC_VALUE_NUMBER,
                                  "player pegs value (1; with muggins 0: he claims it) for go "
                                  "or last card; target: the count; extra: 1 for the last card "
                                  "of the play"},
    [CC_CRIBBAGE_EV_SHOW_HAND] = {"show_hand", CC_VALUE_NUMBER,
                                  "player pegs value for his hand with the starter"},
    [CC_CRIBBAGE_EV_CRIB_CARD] = {"crib_card", CC_VALUE_CARD,
                                  "player (the dealer) shows value, a card of the crib"},
    [CC_CRIBBAGE_EV_SHOW_CRIB] = {"show_crib", CC_VALUE_NUMBER,
                                  "player (the dealer) pegs value for the crib"},
    [CC_CRIBBAGE_EV_SKUNK] = {"skunk", CC_VALUE_NUMBER,
                              "player lost skunked (value 1) or double skunked (2); extra: "
                              "his points"},
    [CC_CRIBBAGE_EV_GAME_OVER] = {"game_over", CC_VALUE_NUMBER,
                                  "player's side (target) wins with value points; extra: the "
                                  "worst skunk among the losers (0, 1, 2)"},
    [CC_CRIBBAGE_EV_PARTNERS] = {"partners", CC_VALUE_NUMBER,
                                 "4 players: player and target are partners, side value"},
    [CC_CRIBBAGE_EV_CLAIM] = {"claim", CC_VALUE_NUMBER,
                              "muggins: player claims value points for his hand (target 0), "
                              "crib (1), a card of the play (2) or go (3); extra: the true "
                              "points"},
    [CC_CRIBBAGE_EV_MUGGINS] = {"muggins", CC_VALUE_NUMBER,
                                "player calls muggins on target and pegs the value points "
                                "overlooked; extra: what was claimed (as a claim's target)"},
    [CC_CRIBBAGE_EV_NO_MUGGINS] = {"no_muggins", CC_VALUE_NUMBER,
                                   "player lets target's value overlooked points go; extra: "
                                   "what was claimed (as a claim's target)"},
    [CC_CRIBBAGE_EV_OVERCLAIM] = {"overclaim", CC_VALUE_NUMBER,
                                  "player claimed value points too many, corrected; target: the "
                                  "opponent on his left; extra: 0 corrected, 1 false claim of "
                                  "game, 2 the excess to the opponent"},
    [CC_CRIBBAGE_EV_PENALTY] = {"penalty", CC_VALUE_NUMBER,
                                "player's side pegs value (negative: back) for target's "
                                "overclaim"},
};

static const cc_action_range cribbage_actions[] = {
    {.name = "discard {card}", .first = CC_CRIBBAGE_A_DISCARD, .count = NUM_CARDS,
     .arg = CC_ARG_CARD},
    {.name = "play {card}", .first = CC_CRIBBAGE_A_PLAY, .count = NUM_CARDS, .arg = CC_ARG_CARD},
    {.name = "claim {number}", .first = CC_CRIBBAGE_A_CLAIM, .count = CC_CRIBBAGE_MAX_CLAIM + 1,
     .arg = CC_ARG_NUMBER, .base = 0},
    {.name = "muggins", .first = CC_CRIBBAGE_A_MUGGINS, .count = 1, .arg = CC_ARG_NONE},
    {.name = "pass", .first = CC_CRIBBAGE_A_PASS, .count = 1, .arg = CC_ARG_NONE},
};

const cc_game cc_game_cribbage = {
    CC_GAME_HEADER,
    .name = "cribbage",
    .min_players = 2,
    .max_players = CC_CRIBBAGE_MAX_PLAYERS,
    .deck_size = CC_DECK_52,
    .state_size = sizeof(cribbage_state),
    .log_offset = offsetof(cribbage_state, log),
    .log_capacity = CC_CRIBBAGE_LOG_CAP,
    .num_params = NP,
    .params = cribbage_params,
    .check_params = g_check_params,
    .num_actions = g_num_actions,
    .tensor_size = g_tensor_size,
    .segments = g_segments,
    .num_event_kinds = (int32_t)(sizeof cribbage_event_kinds / sizeof cribbage_event_kinds[0]),
    .event_kinds = cribbage_event_kinds,
    .num_action_ranges = (int32_t)(sizeof cribbage_actions / sizeof cribbage_actions[0]),
    .action_ranges = cribbage_actions,
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
    .heuristic = g_heuristic,
};
