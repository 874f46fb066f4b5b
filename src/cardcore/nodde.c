/* nodde.c: Nodde Knave (RULES.md section 2).
 *
 * The rules live here once: the itemized hand scorer (hand_items_raw), the
 * play scorer (play_items_raw) and the game transitions.  The batch kernel
 * and the distribution use lookup tables built from hand_items_raw itself,
 * split by kind: the rank kinds (fifteens, pairs, runs, 31, 25) depend only
 * on the four ranks, the suit kinds (flush, knave noddy) only on the suits
 * and on which hand cards are Jacks. */
#include "cc_nodde.h"

#include "cc_internal.h"

#define NUM_CARDS 52
#define JACK 10
#define TERMINAL CC_PLAYER_TERMINAL
#define SEEN_ALL_U8 0xFF

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

int32_t cc_nodde_check_params(const int32_t *p) {
    if (p == NULL) return CC_E_PARAMS;
    if (p[0] < 0 || p[0] > 1) return CC_E_PARAMS;
    if (p[1] < 0 || p[1] > 1) return CC_E_PARAMS;
    if (p[2] < 0 || p[2] > 1) return CC_E_PARAMS;
    if (p[3] < 0 || p[3] > 1) return CC_E_PARAMS;
    if (p[4] < 0 || p[4] > 1) return CC_E_PARAMS;
    if (p[5] < 0 || p[5] > 2) return CC_E_PARAMS;
    if (p[6] < 0 || p[6] > 2) return CC_E_PARAMS;
    if (p[7] < 0 || p[7] > 1) return CC_E_PARAMS;
    if (p[8] < 1 || p[8] > CC_NODDE_MAX_TARGET) return CC_E_PARAMS;
    if (p[9] < -1 || p[9] > 3) return CC_E_PARAMS;
    return CC_OK;
}

static int32_t run_value(const int32_t *p, int32_t len) {
    return p[CC_NODDE_P_RUN_POINTS] == 0 ? 2 * (len - 2) : len;
}

/* ---- hand scoring (the rule, once) ---------------------------------------- */

static void put(cc_nodde_item *out, int32_t *n, int32_t kind, int32_t points,
                uint64_t cards) {
    out[*n].kind = kind;
    out[*n].points = points;
    out[*n].cards = cards;
    (*n)++;
}

/* Number of set bits of a 4-bit subset mask (no popcount instruction needed). */
static const uint8_t bits4[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

/* c[0..2]: the hand, c[3]: the turn-up (distinct valid ids).  out must hold
 * CC_NODDE_MAX_ITEMS items (at most 11 + 6 + 2 + 1 + 1 + 1 + 5 = 27 occur). */
static int32_t hand_items_raw(const int32_t *c, const int32_t *p,
                              cc_nodde_item *out) {
    int32_t n = 0;
    int32_t rk[4], st[4];
    uint64_t b[4];
    /* pip total and card set of each of the 16 subsets of the four cards */
    int32_t sum[16];
    uint64_t set[16];
    sum[0] = 0;
    set[0] = 0;
    for (int32_t i = 0; i < 4; i++) {
        rk[i] = rank_of(c[i]);
        st[i] = suit_of(c[i]);
        b[i] = bit_of(c[i]);
        for (int32_t m = 1 << i; m < 2 << i; m++) {
            sum[m] = sum[m - (1 << i)] + pip_of_rank(rk[i]);
            set[m] = set[m - (1 << i)] | b[i];
        }
    }
    /* fifteens: every subset of 2+ cards totalling 15 */
    for (int32_t m = 3; m < 16; m++)
        if (bits4[m] >= 2 && sum[m] == 15) put(out, &n, CC_NODDE_FIFTEEN, 2, set[m]);
    /* pairs: 2 for each pair of same-rank cards */
    for (int32_t i = 0; i < 4; i++)
        for (int32_t j = i + 1; j < 4; j++)
            if (rk[i] == rk[j]) put(out, &n, CC_NODDE_PAIR, 2, b[i] | b[j]);
    /* runs: the maximal span of 3+ consecutive ranks (at most one among four
     * cards), one item per choice of one card for each rank of the span */
    uint32_t rmask = (1u << rk[0]) | (1u << rk[1]) | (1u << rk[2]) | (1u << rk[3]);
    uint32_t r3 = rmask & rmask >> 1 & rmask >> 2;
    if (r3) {
        int32_t lo = cc_ctz64(r3);
        int32_t hi = lo + 2;
        while (hi + 1 < 13 && (rmask >> (hi + 1) & 1)) hi++;
        int32_t len = hi - lo + 1;
        for (int32_t m = 7; m < 16; m++) {
            if (bits4[m] != len) continue;
            uint32_t seen = 0;
            int32_t ok = 1;
            for (int32_t i = 0; i < 4; i++) {
                if (!(m >> i & 1)) continue;
                if (rk[i] < lo || rk[i] > hi || (seen >> rk[i] & 1)) ok = 0;
                seen |= 1u << rk[i];
            }
            if (ok) put(out, &n, CC_NODDE_RUN, run_value(p, len), set[m]);
        }
    }
    /* flush */
    if (p[CC_NODDE_P_FLUSH_RULE] == 0) {
        for (int32_t s = 0; s < 4; s++) {
            int32_t m = (st[0] == s) | (st[1] == s) << 1 | (st[2] == s) << 2 | (st[3] == s) << 3;
            if (bits4[m] >= 3) put(out, &n, CC_NODDE_FLUSH, bits4[m], set[m]);
        }
    } else if (st[0] == st[1] && st[1] == st[2]) {
        int32_t m = st[3] == st[0] ? 15 : 7;
        put(out, &n, CC_NODDE_FLUSH, bits4[m], set[m]);
    }
    /* knave noddy: the Jack of the turn-up's suit in hand */
    for (int32_t i = 0; i < 3; i++)
        if (rk[i] == JACK && st[i] == st[3]) put(out, &n, CC_NODDE_KNAVE_NODDY, 1, b[i]);
    /* 31 in hand */
    int32_t h31 = p[CC_NODDE_P_HAND_31];
    if (h31 != 0 && sum[15] == 31) put(out, &n, CC_NODDE_THIRTY_ONE, h31 == 1 ? 2 : 4, set[15]);
    /* 25: every subset of 3+ cards totalling 25 */
    int32_t s25 = p[CC_NODDE_P_SCORE_25];
    if (s25 != 0)
        for (int32_t m = 7; m < 16; m++)
            if (bits4[m] >= 3 && sum[m] == 25)
                put(out, &n, CC_NODDE_TWENTY_FIVE, s25 == 1 ? 4 : bits4[m], set[m]);
    return n;
}

static int32_t hand_total_raw(const int32_t *c, const int32_t *p) {
    cc_nodde_item items[CC_NODDE_MAX_ITEMS];
    int32_t n = hand_items_raw(c, p, items);
    int32_t t = 0;
    for (int32_t i = 0; i < n; i++) t += items[i].points;
    return t;
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
    if (cc_nodde_check_params(params) != CC_OK) return CC_E_PARAMS;
    int32_t c[4];
    int32_t rc = hand_cards(hand, turnup, c);
    if (rc != CC_OK) return rc;
    cc_nodde_item items[CC_NODDE_MAX_ITEMS];
    int32_t n = hand_items_raw(c, params, items);
    if (n > cap || (n > 0 && out == NULL)) return CC_E_CAPACITY;
    /* canonical order: by kind, then by card set (insertion sort, stable) */
    for (int32_t i = 1; i < n; i++) {
        cc_nodde_item x = items[i];
        int32_t j = i - 1;
        while (j >= 0 && (items[j].kind > x.kind ||
                          (items[j].kind == x.kind && items[j].cards > x.cards))) {
            items[j + 1] = items[j];
            j--;
        }
        items[j + 1] = x;
    }
    for (int32_t i = 0; i < n; i++) out[i] = items[i];
    return n;
}

int32_t cc_nodde_score_hand(uint64_t hand, int32_t turnup, const int32_t *params) {
    if (cc_nodde_check_params(params) != CC_OK) return CC_E_PARAMS;
    int32_t c[4];
    int32_t rc = hand_cards(hand, turnup, c);
    if (rc != CC_OK) return rc;
    return hand_total_raw(c, params);
}

/* ---- play scoring (the rule, once) ------------------------------------------ */

/* seq[0..n-1] valid distinct ids with total <= 31, n >= 1. */
static int32_t play_items_raw(const uint8_t *seq, int32_t n, const int32_t *p,
                              cc_nodde_item *out) {
    int32_t k = 0;
    int32_t total = 0;
    uint64_t all = 0;
    for (int32_t i = 0; i < n; i++) {
        total += pip_of(seq[i]);
        all |= bit_of(seq[i]);
    }
    int32_t last = seq[n - 1];
    if (total == 15) put(out, &k, CC_NODDE_FIFTEEN, 2, all);
    /* pairs: cards immediately before of the same rank */
    int32_t same = 0;
    uint64_t cards = bit_of(last);
    for (int32_t i = n - 2; i >= 0 && rank_of(seq[i]) == rank_of(last); i--) {
        same++;
        cards |= bit_of(seq[i]);
    }
    if (same > 0) put(out, &k, CC_NODDE_PAIR, same == 1 ? 2 : same == 2 ? 6 : 12, cards);
    /* runs: the longest tail of 3+ cards whose ranks are distinct and
     * consecutive (a repeated rank ends every longer tail) */
    {
        uint32_t m = 0;
        uint64_t c = 0;
        int32_t best = 0;
        uint64_t best_cards = 0;
        for (int32_t i = n - 1; i >= 0; i--) {
            uint32_t r = 1u << rank_of(seq[i]);
            if (m & r) break;
            m |= r;
            c |= bit_of(seq[i]);
            int32_t len = n - i;
            if (len >= 3 && (m >> cc_ctz64(m)) == (1u << len) - 1) {
                best = len;
                best_cards = c;
            }
        }
        if (best) put(out, &k, CC_NODDE_RUN, run_value(p, best), best_cards);
    }
    /* flushes: the longest tail of 3+ cards of one suit */
    if (p[CC_NODDE_P_FLUSH_IN_PLAY]) {
        int32_t len = 1;
        uint64_t c = bit_of(last);
        for (int32_t i = n - 2; i >= 0 && suit_of(seq[i]) == suit_of(last); i--) {
            len++;
            c |= bit_of(seq[i]);
        }
        if (len >= 3) put(out, &k, CC_NODDE_FLUSH, len, c);
    }
    if (total == 31) put(out, &k, CC_NODDE_THIRTY_ONE, 2, all);
    int32_t s25 = p[CC_NODDE_P_SCORE_25];
    if (total == 25 && s25 != 0) put(out, &k, CC_NODDE_TWENTY_FIVE, s25 == 1 ? 4 : n, all);
    return k;
}

int32_t cc_nodde_play_items(const uint8_t *seq, int32_t n, const int32_t *params,
                            cc_nodde_item *out, int32_t cap) {
    if (cc_nodde_check_params(params) != CC_OK) return CC_E_PARAMS;
    if (seq == NULL || n < 1 || n > CC_NODDE_MAX_PLAY) return CC_E_ARG;
    uint64_t seen = 0;
    int32_t total = 0;
    for (int32_t i = 0; i < n; i++) {
        if (seq[i] >= NUM_CARDS) return CC_E_CARDS;
        uint64_t b = bit_of(seq[i]);
        if (seen & b) return CC_E_CARDS;
        seen |= b;
        total += pip_of(seq[i]);
    }
    if (total > 31) return CC_E_ARG;
    cc_nodde_item items[8];
    int32_t k = play_items_raw(seq, n, params, items);
    if (k > cap || (k > 0 && out == NULL)) return CC_E_CAPACITY;
    for (int32_t i = 0; i < k; i++) out[i] = items[i];
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

static int32_t is_rank_kind(int32_t kind) {
    return kind != CC_NODDE_FLUSH && kind != CC_NODDE_KNAVE_NODDY;
}

static void build_tables(const int32_t *p, tables *t) {
    cc_nodde_item items[CC_NODDE_MAX_ITEMS];
    int32_t r[4], c[4];
    /* rank kinds are symmetric in the four cards: score each multiset once
     * (ranks ascending, suits 0..3 so the four cards are distinct) ... */
    for (r[0] = 0; r[0] < 13; r[0]++)
        for (r[1] = r[0]; r[1] < 13; r[1]++)
            for (r[2] = r[1]; r[2] < 13; r[2]++)
                for (r[3] = r[2]; r[3] < 13; r[3]++) {
                    for (int32_t i = 0; i < 4; i++) c[i] = i * 13 + r[i];
                    int32_t n = hand_items_raw(c, p, items), s = 0;
                    for (int32_t i = 0; i < n; i++)
                        if (is_rank_kind(items[i].kind)) s += items[i].points;
                    t->rank[((r[0] * 13 + r[1]) * 13 + r[2]) * 13 + r[3]] = (uint8_t)s;
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
        int32_t n = hand_items_raw(c, p, items), sum = 0;
        for (int32_t i = 0; i < n; i++)
            if (!is_rank_kind(items[i].kind)) sum += items[i].points;
        t->suit[idx] = (uint8_t)sum;
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
    if (cc_nodde_check_params(params) != CC_OK) return CC_E_PARAMS;
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
        int32_t c[4];
        for (int64_t i = 0; i < n; i++) {
            hand_ids(hands[i], turnups[i], c);
            out[i] = hand_total_raw(c, params);
        }
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
    if (cc_nodde_check_params(params) != CC_OK) return CC_E_PARAMS;
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

typedef struct nodde_ev {
    int8_t kind;
    int8_t player;
    int8_t target;
    uint8_t seen_by; /* bit per player; SEEN_ALL_U8 for public */
    int16_t value;
    int16_t extra;
} nodde_ev;

typedef struct nodde_state {
    int32_t params[CC_NODDE_NUM_PARAMS];
    int32_t n, nsides, partners, target;
    cc_rng rng;
    uint8_t deck[NUM_CARDS]; /* deck[0 .. 51 - top] is the stock, dealt from the end */
    int32_t top;             /* cards dealt since the last shuffle */
    int32_t stacked;         /* 1: the stock is in a given order; 0: shuffled lazily */
    uint64_t seen[4];        /* cards each player has seen since the last shuffle */
    int32_t dealer, deal_no;
    uint64_t hand[4];  /* unplayed cards */
    uint64_t dealt[4]; /* the three cards dealt */
    int32_t turnup;
    uint8_t seq[CC_NODDE_MAX_PLAY];
    int32_t nseq, total, last_player;
    uint32_t gone;
    int32_t announced[4]; /* hand score called this deal, -1 if not */
    int32_t go_total[4];  /* running total when the player said go, -1 */
    int32_t to_act;
    int32_t score[4]; /* per side */
    int32_t winner;   /* side, or -1 */
    int32_t nev;      /* events ever logged (the ring keeps the last CAP) */
    nodde_ev log[CC_NODDE_LOG_CAP];
} nodde_state;

static void log_ev(nodde_state *s, int32_t kind, int32_t player, int32_t target,
                   int32_t value, int32_t extra, uint8_t seen_by) {
    nodde_ev *e = &s->log[s->nev % CC_NODDE_LOG_CAP];
    e->kind = (int8_t)kind;
    e->player = (int8_t)player;
    e->target = (int8_t)target;
    e->seen_by = seen_by;
    e->value = (int16_t)value;
    e->extra = (int16_t)extra;
    s->nev++;
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
        log_ev(s, CC_NODDE_EV_GAME_OVER, seat, side, s->score[side], 0, SEEN_ALL_U8);
        return 1;
    }
    return 0;
}

static inline int32_t can_play(const nodde_state *s, int32_t seat) {
    uint64_t h = s->hand[seat];
    uint32_t ranks = (uint32_t)(h | h >> 16 | h >> 32 | h >> 48) & 0x1FFFu;
    if (!ranks) return 0;
    return pip_of_rank(cc_ctz64(ranks)) <= 31 - s->total;
}

static void start_deal(nodde_state *s);

static void end_deal(nodde_state *s) {
    s->dealer = (s->dealer + 1) % s->n;
    start_deal(s);
}

/* The next player after seat `from` who can play is to act; those who
 * cannot say go.  If nobody can play the deal ends. */
static void next_turn(nodde_state *s, int32_t from) {
    for (int32_t k = 1; k <= s->n; k++) {
        int32_t q = (from + k) % s->n;
        if (s->gone >> q & 1) continue;
        if (can_play(s, q)) {
            s->to_act = q;
            return;
        }
        s->gone |= 1u << q;
        s->go_total[q] = s->total;
        log_ev(s, CC_NODDE_EV_GO, q, s->total, 0, 0, SEEN_ALL_U8);
    }
    log_ev(s, CC_NODDE_EV_LAST_CARD, s->last_player, s->total, 1, 0, SEEN_ALL_U8);
    if (peg(s, s->last_player, 1)) return;
    end_deal(s);
}

/* The next card of the stock: in order from a stacked deck, else a
 * Fisher-Yates step (the shuffle is done lazily, one card at a time). */
static int32_t deal_card(nodde_state *s) {
    int32_t i = NUM_CARDS - 1 - s->top;
    if (!s->stacked) {
        int32_t j = (int32_t)cc_rng_below(&s->rng, (uint64_t)i + 1);
        uint8_t x = s->deck[i];
        s->deck[i] = s->deck[j];
        s->deck[j] = x;
    }
    s->top++;
    return s->deck[i];
}

static void start_deal(nodde_state *s) {
    int32_t n = s->n;
    int32_t fresh = 0; /* a fresh deck: shuffled now, or the stacked first deck */
    if (s->deal_no == 0) {
        fresh = 1;
    } else if (s->params[CC_NODDE_P_RESHUFFLE] || NUM_CARDS - s->top < 3 * n + 1) {
        for (int32_t i = 0; i < NUM_CARDS; i++) s->deck[i] = (uint8_t)i;
        s->top = 0;
        s->stacked = 0;
        for (int32_t q = 0; q < 4; q++) s->seen[q] = 0;
        fresh = 1;
    }
    s->deal_no++;
    s->nseq = 0;
    s->total = 0;
    s->gone = 0;
    s->last_player = -1;
    for (int32_t q = 0; q < 4; q++) {
        s->hand[q] = 0;
        s->dealt[q] = 0;
        s->announced[q] = -1;
        s->go_total[q] = -1;
    }
    log_ev(s, CC_NODDE_EV_NEW_DEAL, s->dealer, -1, s->deal_no, fresh, SEEN_ALL_U8);
    for (int32_t k = 0; k < 3; k++)
        for (int32_t i = 1; i <= n; i++) {
            int32_t q = (s->dealer + i) % n;
            int32_t c = deal_card(s);
            s->hand[q] |= bit_of(c);
            log_ev(s, CC_NODDE_EV_DEAL_CARD, q, -1, c, 0, (uint8_t)(1u << q));
        }
    s->turnup = deal_card(s);
    for (int32_t q = 0; q < n; q++) {
        s->dealt[q] = s->hand[q];
        s->seen[q] |= s->hand[q] | bit_of(s->turnup);
    }
    log_ev(s, CC_NODDE_EV_TURNUP, s->dealer, -1, s->turnup, 0, SEEN_ALL_U8);
    s->to_act = 0; /* not terminal while scoring */
    int32_t elder = (s->dealer + 1) % n;
    if (rank_of(s->turnup) == JACK) {
        int32_t who = s->params[CC_NODDE_P_KNAVE_SCORER] == 0 ? s->dealer : elder;
        log_ev(s, CC_NODDE_EV_TURNED_KNAVE, who, -1, 2, 0, SEEN_ALL_U8);
        if (peg(s, who, 2)) return;
    }
    for (int32_t i = 1; i <= n; i++) {
        int32_t q = (s->dealer + i) % n;
        int32_t c[4];
        hand_ids(s->hand[q], s->turnup, c);
        int32_t pts = hand_total_raw(c, s->params);
        s->announced[q] = pts;
        log_ev(s, CC_NODDE_EV_HAND_SCORE, q, -1, pts, 0, SEEN_ALL_U8);
        if (peg(s, q, pts)) return;
    }
    next_turn(s, s->dealer);
}

static int32_t g_check_params(const int32_t *params, int32_t nplayers) {
    if (nplayers < 2 || nplayers > 4) return CC_E_PLAYERS;
    if (cc_nodde_check_params(params) != CC_OK) return CC_E_PARAMS;
    /* the seed: playing without reshuffling only works for two players */
    if (params[CC_NODDE_P_RESHUFFLE] == 0 && nplayers != 2) return CC_E_PARAMS;
    if (params[CC_NODDE_P_FIRST_DEALER] >= nplayers) return CC_E_PARAMS;
    return CC_OK;
}

static int32_t g_num_actions(const int32_t *params, int32_t nplayers) {
    (void)params;
    (void)nplayers;
    return NUM_CARDS;
}

static int32_t nsides_of(const int32_t *params, int32_t nplayers) {
    return (nplayers == 4 && params[CC_NODDE_P_FOUR_PLAYER_MODE] == 0) ? 2 : nplayers;
}

/* Tensor layout (docs/nodde.rst), seats relative to the observer:
 *   [0, 52)           own unplayed cards
 *   [52, 104)         the turn-up
 *   104 + 52 i        cards played this deal by relative seat i (n x 52)
 *   104 + 52 n + 52 k the k-th card played this deal (12 x 52)
 *   then: running total; scores by relative side (nsides); player to act
 *   (n, one-hot); dealer (n, one-hot); said go (n); hand score called (n);
 *   hand score value (n); terminal (1). */
static int32_t g_tensor_size(const int32_t *params, int32_t nplayers) {
    return 104 + 52 * nplayers + 52 * CC_NODDE_MAX_PLAY + 1 +
           nsides_of(params, nplayers) + 5 * nplayers + 1;
}

/* The first deal from deck[0..51] (top first) if deck is not NULL, else
 * from a shuffle; the first dealer is the generator's first draw unless the
 * rules name him. */
static int32_t init_state(void *state, const int32_t *params, int32_t nplayers,
                          uint64_t seed, const uint8_t *deck) {
    if (state == NULL || params == NULL) return CC_E_ARG;
    int32_t rc = g_check_params(params, nplayers);
    if (rc != CC_OK) return rc;
    nodde_state *s = (nodde_state *)state;
    for (int32_t i = 0; i < CC_NODDE_NUM_PARAMS; i++) s->params[i] = params[i];
    s->n = nplayers;
    s->partners = nplayers == 4 && params[CC_NODDE_P_FOUR_PLAYER_MODE] == 0;
    s->nsides = nsides_of(params, nplayers);
    s->target = params[CC_NODDE_P_GAME_TARGET];
    cc_rng_seed(&s->rng, seed);
    s->top = 0;
    s->deal_no = 0;
    s->winner = -1;
    s->nev = 0;
    for (int32_t q = 0; q < 4; q++) {
        s->score[q] = 0;
        s->seen[q] = 0;
    }
    /* the stock is dealt from its end: the top card of the deck goes last */
    for (int32_t i = 0; i < NUM_CARDS; i++)
        s->deck[i] = deck ? deck[NUM_CARDS - 1 - i] : (uint8_t)i;
    s->stacked = deck != NULL;
    int32_t drawn = (int32_t)cc_rng_below(&s->rng, (uint64_t)nplayers);
    int32_t fixed = params[CC_NODDE_P_FIRST_DEALER];
    s->dealer = fixed >= 0 ? fixed : drawn;
    start_deal(s);
    return CC_OK;
}

static int32_t g_init(void *state, const int32_t *params, int32_t nplayers, uint64_t seed) {
    return init_state(state, params, nplayers, seed, NULL);
}

static int32_t g_init_deck(void *state, const int32_t *params, int32_t nplayers,
                           uint64_t seed, const uint8_t *deck, int32_t ndeck) {
    if (state == NULL || params == NULL) return CC_E_ARG;
    int32_t rc = g_check_params(params, nplayers);
    if (rc != CC_OK) return rc;
    if (deck == NULL || ndeck != NUM_CARDS) return CC_E_ARG;
    uint64_t seen = 0;
    for (int32_t i = 0; i < NUM_CARDS; i++) {
        if (deck[i] >= NUM_CARDS || (seen & bit_of(deck[i]))) return CC_E_ARG;
        seen |= bit_of(deck[i]);
    }
    return init_state(state, params, nplayers, seed, deck);
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
    if (s->to_act == TERMINAL) return 0;
    uint64_t b = legal_bits(s);
    int32_t k = 0;
    while (b) {
        cc_mask_set(mask, cc_card52_id_of_bit(cc_ctz64(b)));
        b &= b - 1;
        k++;
    }
    return k;
}

static int32_t g_verify(const void *state, int32_t action) {
    const nodde_state *s = (const nodde_state *)state;
    if (s->to_act == TERMINAL) return CC_E_GAME_OVER;
    if (action < 0 || action >= NUM_CARDS) return CC_NODDE_R_INVALID;
    if (!(s->hand[s->to_act] & bit_of(action))) return CC_NODDE_R_NOT_HELD;
    if (pip_of(action) > 31 - s->total) return CC_NODDE_R_OVER_31;
    return 0;
}

static const char *g_reason_text(int32_t reason) {
    switch (reason) {
    case CC_NODDE_R_INVALID: return "invalid action: not a card id 0..51";
    case CC_NODDE_R_NOT_HELD: return "card not held";
    case CC_NODDE_R_OVER_31: return "over 31";
    case CC_E_GAME_OVER: return "game over";
    default: return "unknown reason";
    }
}

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
    cc_nodde_item items[8];
    int32_t k = play_items_raw(s->seq, s->nseq, s->params, items), pts = 0;
    for (int32_t i = 0; i < k; i++) pts += items[i].points;
    log_ev(s, CC_NODDE_EV_PLAY, seat, s->total, action, pts, SEEN_ALL_U8);
    if (peg(s, seat, pts)) return 0;
    if (s->total == 31) end_deal(s);
    else next_turn(s, seat);
    return 0;
}

static void g_returns(const void *state, int32_t *out) {
    const nodde_state *s = (const nodde_state *)state;
    for (int32_t q = 0; q < s->n; q++) out[q] = s->score[side_of(s, q)];
}

static void one_hot_cards(float *out, uint64_t cards) {
    while (cards) {
        out[cc_card52_id_of_bit(cc_ctz64(cards))] = 1.0f;
        cards &= cards - 1;
    }
}

static int32_t g_observe_tensor(const void *state, int32_t player, float *out) {
    const nodde_state *s = (const nodde_state *)state;
    if (out == NULL || player < 0 || player >= s->n) return CC_E_ARG;
    int32_t n = s->n;
    int32_t size = g_tensor_size(s->params, n);
    memset(out, 0, sizeof(float) * (size_t)size);
    one_hot_cards(out, s->hand[player]);
    out[52 + s->turnup] = 1.0f;
    for (int32_t i = 0; i < n; i++) {
        int32_t q = (player + i) % n;
        one_hot_cards(out + 104 + 52 * i, s->dealt[q] & ~s->hand[q]);
    }
    float *o = out + 104 + 52 * n;
    for (int32_t k = 0; k < s->nseq; k++) o[52 * k + s->seq[k]] = 1.0f;
    o += 52 * CC_NODDE_MAX_PLAY;
    *o++ = (float)s->total;
    int32_t me = side_of(s, player);
    for (int32_t i = 0; i < s->nsides; i++) *o++ = (float)s->score[(me + i) % s->nsides];
    if (s->to_act != TERMINAL) o[(s->to_act - player + n) % n] = 1.0f;
    o += n;
    o[(s->dealer - player + n) % n] = 1.0f;
    o += n;
    for (int32_t i = 0; i < n; i++) o[i] = (float)(s->gone >> ((player + i) % n) & 1);
    o += n;
    for (int32_t i = 0; i < n; i++) o[i] = s->announced[(player + i) % n] >= 0 ? 1.0f : 0.0f;
    o += n;
    for (int32_t i = 0; i < n; i++) {
        int32_t a = s->announced[(player + i) % n];
        o[i] = a >= 0 ? (float)a : 0.0f;
    }
    o += n;
    *o = s->to_act == TERMINAL ? 1.0f : 0.0f;
    return CC_OK;
}

static int32_t g_events(const void *state, cc_event *out, int32_t cap) {
    const nodde_state *s = (const nodde_state *)state;
    int32_t stored = s->nev < CC_NODDE_LOG_CAP ? s->nev : CC_NODDE_LOG_CAP;
    int32_t first = s->nev - stored;
    for (int32_t i = 0; i < stored && i < cap && out != NULL; i++) {
        const nodde_ev *e = &s->log[(first + i) % CC_NODDE_LOG_CAP];
        out[i].kind = e->kind;
        out[i].player = e->player;
        out[i].target = e->target;
        out[i].value = e->value;
        out[i].extra = e->extra;
        out[i].seen_by = e->seen_by == SEEN_ALL_U8 ? CC_SEEN_ALL : e->seen_by;
    }
    return stored;
}

/* ---- information-set sampling ---------------------------------------------------- */

/* Whether `cards` (k hidden cards of seat q) fit what everybody saw of q. */
static int32_t consistent(const nodde_state *s, int32_t q, const uint8_t *cards, int32_t k) {
    if (s->go_total[q] >= 0)
        for (int32_t i = 0; i < k; i++)
            if (pip_of(cards[i]) <= 31 - s->go_total[q]) return 0;
    if (q == s->to_act) { /* he did not say go: a card fits */
        int32_t fits = 0;
        for (int32_t i = 0; i < k; i++) fits |= pip_of(cards[i]) <= 31 - s->total;
        if (!fits) return 0;
    }
    if (s->announced[q] >= 0) {
        uint64_t h = s->dealt[q] & ~s->hand[q];
        for (int32_t i = 0; i < k; i++) h |= bit_of(cards[i]);
        int32_t c[4];
        hand_ids(h, s->turnup, c);
        if (hand_total_raw(c, s->params) != s->announced[q]) return 0;
    }
    return 1;
}

/* Count the consistent k-subsets of pool[0..m-1] in lexicographic order;
 * with want >= 0, stop at the want-th one and store it in pick. */
static int64_t scan_subsets(const nodde_state *s, int32_t q, const uint8_t *pool, int32_t m,
                            int32_t k, int64_t want, uint8_t *pick) {
    int32_t idx[3] = {0, 1, 2};
    uint8_t cards[3] = {0, 0, 0};
    int64_t count = 0;
    if (k == 0) {
        return consistent(s, q, cards, 0) ? 1 : 0;
    }
    if (k > m) return 0;
    for (;;) {
        for (int32_t i = 0; i < k; i++) cards[i] = pool[idx[i]];
        if (consistent(s, q, cards, k)) {
            if (count == want) {
                for (int32_t i = 0; i < k; i++) pick[i] = cards[i];
                return count + 1;
            }
            count++;
        }
        int32_t i = k - 1;
        while (i >= 0 && idx[i] == m - k + i) i--;
        if (i < 0) break;
        idx[i]++;
        for (int32_t j = i + 1; j < k; j++) idx[j] = idx[j - 1] + 1;
    }
    return count;
}

static int32_t g_sample_infoset(const void *state, int32_t player, uint64_t seed, void *outp) {
    const nodde_state *s = (const nodde_state *)state;
    if (outp == NULL || player < 0 || player >= s->n) return CC_E_ARG;
    nodde_state *o = (nodde_state *)outp;
    memcpy(o, s, sizeof *s);
    cc_rng rng;
    cc_rng_seed(&rng, seed);
    uint64_t known = s->seen[player];
    uint8_t pool[NUM_CARDS];
    int32_t m = 0;
    for (int32_t c = 0; c < NUM_CARDS; c++)
        if (!(known & bit_of(c))) pool[m++] = (uint8_t)c;
    int64_t counts[4] = {0, 0, 0, 0};
    int32_t hidden[4] = {0, 0, 0, 0};
    for (int32_t i = 1; i < s->n; i++) {
        int32_t q = (player + i) % s->n;
        hidden[q] = cc_popcount64(s->hand[q]);
        counts[q] = scan_subsets(s, q, pool, m, hidden[q], -1, NULL);
        if (counts[q] <= 0) return CC_E_ARG; /* cannot happen for a real state */
    }
    uint64_t pick_bits[4];
    for (;;) {
        uint64_t used = 0;
        int32_t ok = 1;
        for (int32_t i = 1; i < s->n; i++) {
            int32_t q = (player + i) % s->n;
            uint8_t pick[3];
            int64_t want = (int64_t)cc_rng_below(&rng, (uint64_t)counts[q]);
            scan_subsets(s, q, pool, m, hidden[q], want, pick);
            uint64_t bits = 0;
            for (int32_t j = 0; j < hidden[q]; j++) bits |= bit_of(pick[j]);
            if (bits & used) ok = 0;
            used |= bits;
            pick_bits[q] = bits;
        }
        if (ok) break;
    }
    uint64_t taken = 0;
    for (int32_t i = 1; i < s->n; i++) {
        int32_t q = (player + i) % s->n;
        uint64_t played = s->dealt[q] & ~s->hand[q];
        o->hand[q] = pick_bits[q];
        o->dealt[q] = played | pick_bits[q];
        o->seen[q] = (s->seen[q] & known) | o->dealt[q];
        taken |= pick_bits[q];
    }
    /* the rest of the unseen cards: a random part of them is the stock */
    uint8_t rest[NUM_CARDS];
    int32_t r = 0;
    for (int32_t i = 0; i < m; i++)
        if (!(taken & bit_of(pool[i]))) rest[r++] = pool[i];
    cc_rng_shuffle_u8(&rng, rest, r);
    int32_t stock = NUM_CARDS - s->top;
    uint64_t in_stock = 0;
    for (int32_t i = 0; i < stock && i < r; i++) {
        o->deck[i] = rest[i];
        in_stock |= bit_of(rest[i]);
    }
    int32_t at = stock;
    for (int32_t c = 0; c < NUM_CARDS && at < NUM_CARDS; c++)
        if (!(in_stock & bit_of(c))) o->deck[at++] = (uint8_t)c;
    o->rng = rng;
    o->stacked = 0; /* the player does not know the order of the stock */
    /* the log: the other players' cards of this deal are the sampled ones;
     * older values hidden from the player are blanked */
    int32_t stored = s->nev < CC_NODDE_LOG_CAP ? s->nev : CC_NODDE_LOG_CAP;
    int32_t first = s->nev - stored;
    int32_t deal_start = first;
    for (int32_t i = first; i < s->nev; i++)
        if (s->log[i % CC_NODDE_LOG_CAP].kind == CC_NODDE_EV_NEW_DEAL) deal_start = i;
    uint64_t left[4];
    for (int32_t q = 0; q < 4; q++) left[q] = o->dealt[q];
    for (int32_t i = first; i < s->nev; i++) {
        nodde_ev *e = &o->log[i % CC_NODDE_LOG_CAP];
        if (e->seen_by == SEEN_ALL_U8 || (e->seen_by >> player & 1)) continue;
        if (i >= deal_start && e->kind == CC_NODDE_EV_DEAL_CARD && left[e->player]) {
            int32_t q = e->player;
            e->value = (int16_t)cc_card52_id_of_bit(cc_ctz64(left[q]));
            left[q] &= left[q] - 1;
        } else {
            e->value = -1;
        }
    }
    return CC_OK;
}

/* TRANSITIONAL: the old check_params signature */
static int32_t g_check_params_t(const int32_t *params, int32_t nplayers, int32_t *bad) {
    (void)bad;
    return g_check_params(params, nplayers);
}

const cc_game cc_game_nodde = {
    .name = "nodde",
    .min_players = 2,
    .max_players = 4,
    .deck_size = 52,
    .num_params = CC_NODDE_NUM_PARAMS,
    .state_size = sizeof(nodde_state),
    .check_params = g_check_params_t,
    .num_actions = g_num_actions,
    .tensor_size = g_tensor_size,
    .init = g_init,
    .current_player = g_current_player,
    .legal_actions = g_legal_actions,
    .verify = g_verify,
    .reason_text = g_reason_text,
    .apply = g_apply,
    .returns = g_returns,
    .observe_tensor = g_observe_tensor,
    .legacy_events = g_events,
    .sample_infoset = g_sample_infoset,
    .init_deck = g_init_deck,
};
