/* nancy.c: the Game of Nancy (RULES.md section 1; docs/nancy.rst).
 *
 * One flat state per game (no pointers, clone = memcpy).  A match is a
 * sequence of deals; everything automatic (deal, Hound, flips, scoring,
 * redeal, random exchange draws) happens inside apply(), so every decision
 * is an action of the deciding player.  Card sets are two words (lo, hi) in
 * the Nancy layout of cardcore.h.
 */
#include <stdlib.h>

#include "cc_internal.h"
#include "cc_nancy.h"

#define NP CC_NANCY_NUM_PARAMS
#define MAXP 6
#define EVCAP 320
#define OUTSIDER 77
#define LANE14 0x3FFFull
#define FACE_LO 0x3C003C003C003C00ull /* ranks 10..13 (J C Q K) of every suit */
#define KING_LO 0x2000200020002000ull
#define TRUMPS_HI 0x3FFFFEull          /* trumps I..XXI */
#define MID_TRUMPS_HI 0x1FFFFCull      /* trumps II..XX */

enum { PILE_NANCY = 0, PILE_OPP = 1 };

typedef struct ncs {
    uint64_t lo, hi;
} ncs;

typedef struct nstate {
    int32_t params[NP];
    int32_t n, each, hsize, packet, rounds_total;
    int32_t phase, cur, dealer, rounds_done, thrown_in;
    cc_rng rng;
    ncs hand[MAXP], up[MAXP];
    int8_t ptop[2][8], pbot[2][8]; /* 2 players: table piles (-1 none) */
    uint8_t flip_pending[2];
    ncs hound;
    int8_t bid[MAXP]; /* -1 not yet, 0 passed, 1..9 */
    int32_t high_bid, high_bidder, nacted;
    uint32_t passed;
    int32_t taker, partner, called, partner_revealed;
    uint32_t required_taker_ranks; /* ladder ranks the Taker held all of */
    int32_t call_free; /* face-down cards of the Taker at the call + Hound, less required ones */
    ncs discards, shown, disc_public; /* disc_public: shown trumps and face-up discards */
    int32_t ndisc;
    ncs pile[2];
    ncs played;
    int32_t leader, trick_n, trick_idx, last_winner;
    int8_t trick_card[MAXP], trick_player[MAXP];
    int32_t taker_won_all;
    int32_t out_player;
    int32_t debt, debt_from, debt_to, debt_winner, debt_owner;
    /* pending choice (phase PICK) */
    ncs pick_set;
    int32_t pick_from, pick_to, pick_deferred;
    int32_t chosen_pending, chosen;
    int32_t rule13; /* -1 not applied, 0 Taker loses, 1 Taker wins */
    uint8_t voids[MAXP];
    int8_t ceil[MAXP];
    int32_t scores[MAXP];
    int32_t sum_start, sum_len, trick_ev; /* trick_ev: log index of the trick's first play */
    int32_t nev;
    cc_event ev[EVCAP];
} nstate;

/* ---- cards ------------------------------------------------------------- */

static inline int is_trump(int32_t c) { return c >= 56 && c <= 76; }

static inline ncs cbit(int32_t c) {
    ncs r = {0, 0};
    if (c < 56)
        r.lo = (uint64_t)1 << ((c / 14) * 16 + c % 14);
    else if (c < 77)
        r.hi = (uint64_t)1 << (c - 55);
    else
        r.hi = 1;
    return r;
}

static inline int has(ncs s, int32_t c) {
    ncs b = cbit(c);
    return ((s.lo & b.lo) | (s.hi & b.hi)) != 0;
}
static inline ncs cs_or(ncs a, ncs b) { ncs r = {a.lo | b.lo, a.hi | b.hi}; return r; }
static inline ncs cs_andnot(ncs a, ncs b) { ncs r = {a.lo & ~b.lo, a.hi & ~b.hi}; return r; }
static inline int cs_empty(ncs a) { return (a.lo | a.hi) == 0; }
static inline int cs_count(ncs a) { return cc_popcount64(a.lo) + cc_popcount64(a.hi); }
static inline void cs_add(ncs *s, int32_t c) { *s = cs_or(*s, cbit(c)); }
static inline void cs_del(ncs *s, int32_t c) { *s = cs_andnot(*s, cbit(c)); }

/* The k-th card (ascending id) of a set, -1 if none. */
static int32_t cs_nth(ncs s, int32_t k) {
    uint64_t lo = s.lo;
    while (lo) {
        int32_t b = cc_ctz64(lo);
        if (k-- == 0) return (b >> 4) * 14 + (b & 15);
        lo &= lo - 1;
    }
    uint64_t hi = s.hi & TRUMPS_HI;
    while (hi) {
        int32_t b = cc_ctz64(hi);
        if (k-- == 0) return 55 + b;
        hi &= hi - 1;
    }
    if ((s.hi & 1) && k == 0) return OUTSIDER;
    return -1;
}

static inline int is_face(int32_t c) { return c < 56 && c % 14 >= 10; }

static inline ncs rank_set(int32_t r) {
    ncs s = {0, 0};
    for (int32_t su = 0; su < 4; su++) s.lo |= (uint64_t)1 << (su * 16 + r);
    return s;
}

/* ---- trick rules (shared by the game and the batch kernels) ------------ */

/* Led suit (0..3, 4 = trumps, -1 none yet) and highest trump number. */
static inline void trick_summary(const int8_t *trick, int32_t k, int32_t *led,
                                 int32_t *high) {
    int32_t l = -1, h = 0;
    for (int32_t i = 0; i < k; i++) {
        int32_t c = trick[i];
        if (c == OUTSIDER) continue;
        if (l < 0) l = c < 56 ? c / 14 : 4;
        if (c >= 56 && c - 55 > h) h = c - 55;
    }
    *led = l;
    *high = h;
}

/* Rules 8 and 9 for holding p, led suit led (-1 none, 0..3, 4 trumps) and
 * highest trump high; written without data-dependent branches (it runs in
 * the batch kernel as well as in the game). */
static inline ncs legal_from(ncs p, int32_t led, int32_t high, int32_t overtrump) {
    uint64_t lane = (led >= 0 && led < 4) ? LANE14 << (16 * (led & 3)) : 0;
    uint64_t suit = p.lo & lane;
    uint64_t trumps = p.hi & TRUMPS_HI;
    uint64_t higher = trumps & ~((2ull << high) - 1);
    uint64_t excuse = p.hi & 1;
    uint64_t sel = (higher && (led < 4 || overtrump)) ? higher : trumps;
    int32_t anything = led < 0 || (!suit && !trumps);
    ncs r;
    r.lo = anything ? p.lo : suit;
    r.hi = anything ? p.hi : (suit ? excuse : sel | excuse);
    return r;
}

static inline int32_t winner_pos(const int8_t *trick, int32_t k) {
    int32_t led = -1, best = -1, bestv = -1;
    for (int32_t i = 0; i < k; i++) {
        int32_t c = trick[i];
        if (c == OUTSIDER) continue;
        int32_t v;
        if (c >= 56) {
            v = 100 + c;
            if (led < 0) led = 4;
        } else {
            if (led < 0) led = c / 14;
            v = (c / 14 == led) ? c % 14 : -1;
        }
        if (v > bestv) { bestv = v; best = i; }
    }
    return best;
}

static int check_trick(const int8_t *trick, int32_t k) {
    int32_t seen_end = 0;
    uint64_t used[2] = {0, 0};
    for (int32_t i = 0; i < k; i++) {
        int32_t c = trick[i];
        if (c == -1) { seen_end = 1; continue; }
        if (seen_end || c < 0 || c > 77) return 0;
        if (used[c >> 6] & (1ull << (c & 63))) return 0;
        used[c >> 6] |= 1ull << (c & 63);
    }
    return 1;
}

static inline int32_t trick_len(const int8_t *trick, int32_t k) {
    int32_t m = 0;
    while (m < k && trick[m] >= 0) m++;
    return m;
}

int32_t cc_nancy_legal_cards(uint64_t lo, uint64_t hi, const int8_t *trick, int32_t k,
                             int32_t overtrump, uint64_t *out_lo, uint64_t *out_hi) {
    if ((lo & ~CC_NANCY_LO_MASK) || (hi & ~CC_NANCY_HI_MASK)) return CC_E_CARDS;
    if (k < 0 || k > 5 || (k > 0 && trick == NULL) || out_lo == NULL || out_hi == NULL)
        return CC_E_ARG;
    if (!check_trick(trick, k)) return CC_E_ARG;
    int32_t led, high;
    trick_summary(trick, trick_len(trick, k), &led, &high);
    ncs p = {lo, hi};
    ncs r = legal_from(p, led, high, overtrump != 0);
    *out_lo = r.lo;
    *out_hi = r.hi;
    return CC_OK;
}

int32_t cc_nancy_trick_winner(const int8_t *trick, int32_t k) {
    if (k < 0 || k > 6 || (k > 0 && trick == NULL) || !check_trick(trick, k)) return CC_E_ARG;
    return winner_pos(trick, trick_len(trick, k));
}

static int32_t objectives_of(ncs nc, int32_t arcane_mode) {
    int32_t m = 0;
    if ((nc.hi & (1ull << 21)) && (nc.hi & (1ull << 1))) m |= CC_NANCY_OBJ_HEIRS_BODYGUARD;
    for (int32_t s = 0; s < 4; s++)
        if (((nc.lo >> (16 * s)) & LANE14) == LANE14) m |= CC_NANCY_OBJ_EMPIRE_RATS << s;
    if (cc_popcount64(nc.lo & FACE_LO) >= 8) m |= CC_NANCY_OBJ_ROYAL_EXECUTIONER;
    uint64_t t = nc.hi & TRUMPS_HI;
    int32_t sum = 0;
    uint32_t reach = 1; /* bit v: some subset sums to v (v <= 22) */
    while (t) {
        int32_t num = cc_ctz64(t);
        sum += num;
        reach |= (reach << num) & 0x7FFFFFu;
        t &= t - 1;
    }
    int ok = arcane_mode == 0 ? sum == 22 : arcane_mode == 1 ? (reach >> 22) & 1 : sum >= 22;
    if (ok) m |= CC_NANCY_OBJ_MASTER_OF_THE_ARCANE;
    return m;
}

int32_t cc_nancy_objectives(uint64_t lo, uint64_t hi, int32_t arcane_mode) {
    if ((lo & ~CC_NANCY_LO_MASK) || (hi & ~CC_NANCY_HI_MASK)) return CC_E_CARDS;
    if (arcane_mode < 0 || arcane_mode > 2) return CC_E_ARG;
    ncs s = {lo, hi};
    return objectives_of(s, arcane_mode);
}

int32_t cc_nancy_base_score(int32_t bid, int32_t completed, int32_t won) {
    int32_t short_by = bid > completed ? bid - completed : 0;
    return 2 * completed - 3 * short_by + (won ? 5 : -5) - (completed == 0 ? 10 : 0);
}

int32_t cc_nancy_settlement(int32_t nplayers, int32_t taker, int32_t partner, int32_t bid,
                            int32_t completed, int32_t won, int32_t *out) {
    if (nplayers < 2 || nplayers > MAXP || out == NULL) return CC_E_ARG;
    if (taker < 0 || taker >= nplayers || partner < -1 || partner >= nplayers) return CC_E_ARG;
    if (bid < 1 || bid > 9 || completed < 0 || completed > 9) return CC_E_ARG;
    int32_t base = cc_nancy_base_score(bid, completed, won);
    int32_t alone = partner < 0 || partner == taker;
    int32_t opps = nplayers - (alone ? 1 : 2);
    for (int32_t p = 0; p < nplayers; p++) {
        if (p == taker || (!alone && p == partner))
            out[p] = base * opps;
        else
            out[p] = -base * (alone ? 1 : 2);
    }
    return CC_OK;
}

/* ---- batch kernels ----------------------------------------------------- */

/* Per card id + 1 (index 0 is the -1 padding): led suit (0..3, 4 trumps,
 * -1 none for the Outsider and padding) and trump number (0 if none). */
static const int8_t LED_OF[79] = {
    -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    2,  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
    4,  4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, -1};
static const int8_t TRUMP_OF[79] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 0};

/* 0 if row i is a valid holding and trick (ids 0..77, -1 padding at the end;
 * repeated ids are not looked for), else CC_E_CARDS / CC_E_ARG. */
static int32_t batch_row_error(const uint64_t *holdings, const int8_t *t, int32_t k,
                               int64_t i) {
    if ((holdings[2 * i] & ~CC_NANCY_LO_MASK) | (holdings[2 * i + 1] & ~CC_NANCY_HI_MASK))
        return CC_E_CARDS;
    int32_t end = 0;
    for (int32_t j = 0; j < k; j++) {
        if (t[j] < -1 || t[j] > 77 || (end && t[j] != -1)) return CC_E_ARG;
        end |= t[j] == -1;
    }
    return CC_OK;
}

int32_t cc_nancy_batch_legal_cards(const uint64_t *holdings, const int8_t *tricks, int64_t n,
                                   int32_t k, int32_t overtrump, uint64_t *out,
                                   int64_t *bad_index) {
    if (n < 0 || k < 0 || k > 5 || (n > 0 && (holdings == NULL || out == NULL)) ||
        (n > 0 && k > 0 && tricks == NULL))
        return CC_E_ARG;
    uint64_t bad = 0;
    for (int64_t i = 0; i < n; i++) {
        ncs p = {holdings[2 * i], holdings[2 * i + 1]};
        bad |= (p.lo & ~CC_NANCY_LO_MASK) | (p.hi & ~CC_NANCY_HI_MASK);
        const int8_t *t = tricks + i * k;
        int32_t led = -1, high = 0, end = 0;
        for (int32_t j = 0; j < k; j++) {
            int32_t c = t[j];
            /* valid: -1 padding at the end, else 0..77 */
            bad |= (uint64_t)((c < -1) | (c > 77) | (end & (c != -1)));
            end |= c == -1;
            int32_t x = (c < -1 || c > 77) ? 0 : c + 1;
            if (led < 0) led = LED_OF[x];
            int32_t tn = TRUMP_OF[x];
            high = tn > high ? tn : high;
        }
        ncs r = legal_from(p, led, high, overtrump != 0);
        out[2 * i] = r.lo;
        out[2 * i + 1] = r.hi;
    }
    /* locate the first bad row only when there is one */
    for (int64_t i = 0; bad && i < n; i++) {
        int32_t rc = batch_row_error(holdings, tricks + i * k, k, i);
        if (rc != CC_OK) {
            if (bad_index) *bad_index = i;
            return rc;
        }
    }
    return CC_OK;
}

int32_t cc_nancy_batch_trick_winner(const int8_t *tricks, int64_t n, int32_t k, int8_t *out,
                                    int64_t *bad_index) {
    if (n < 0 || k < 0 || k > 6 || (n > 0 && (out == NULL || (k > 0 && tricks == NULL))))
        return CC_E_ARG;
    for (int64_t i = 0; i < n; i++) {
        const int8_t *t = tricks + i * k;
        if (!check_trick(t, k)) {
            if (bad_index) *bad_index = i;
            return CC_E_ARG;
        }
        out[i] = (int8_t)winner_pos(t, trick_len(t, k));
    }
    return CC_OK;
}

int32_t cc_nancy_batch_objectives(const uint64_t *nancies, int64_t n, int32_t arcane_mode,
                                  uint16_t *out, int64_t *bad_index) {
    if (n < 0 || arcane_mode < 0 || arcane_mode > 2 || (n > 0 && (nancies == NULL || out == NULL)))
        return CC_E_ARG;
    for (int64_t i = 0; i < n; i++) {
        ncs s = {nancies[2 * i], nancies[2 * i + 1]};
        if ((s.lo & ~CC_NANCY_LO_MASK) | (s.hi & ~CC_NANCY_HI_MASK)) {
            if (bad_index) *bad_index = i;
            return CC_E_CARDS;
        }
        out[i] = (uint16_t)objectives_of(s, arcane_mode);
    }
    return CC_OK;
}

/* ---- the game ---------------------------------------------------------- */

static const int32_t PARAM_MAX[NP] = {12, 1, 1, 9, 1, 1, 1, 1, 1, 1, 1, 2, 1, 2, 1, 1000, MAXP - 1};
static const int32_t PARAM_MIN[NP] = {0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1};
static const int32_t EACH[7] = {0, 0, 36, 24, 18, 15, 12};

static int32_t n_check_params(const int32_t *params, int32_t nplayers) {
    if (nplayers < 2 || nplayers > MAXP) return CC_E_PLAYERS;
    if (params == NULL) return CC_E_PARAMS;
    for (int32_t i = 0; i < NP; i++)
        if (params[i] < PARAM_MIN[i] || params[i] > PARAM_MAX[i]) return CC_E_PARAMS;
    if (params[CC_NANCY_P_FIRST_DEALER] >= nplayers) return CC_E_PARAMS; /* not a seat */
    return CC_OK;
}

static int32_t n_num_actions(const int32_t *params, int32_t nplayers) {
    (void)params;
    (void)nplayers;
    return CC_NANCY_NUM_ACTIONS;
}

/* Observation layout (docs/nancy.rst): sizes in order. */
static int32_t tensor_len(int32_t n) {
    return n            /* own seat */
           + 78         /* own face-down hand */
           + n * 78     /* face-up cards per seat */
           + n          /* face-down table cards per seat (count) */
           + n * 78     /* current trick, per seat */
           + n          /* trick leader */
           + 78         /* cards played this deal */
           + n * 11     /* bids: none, pass, 1..9 */
           + n          /* dealer */
           + n          /* taker */
           + 78         /* called card */
           + 1 + n      /* partner revealed, partner seat */
           + 78         /* Hound (when shown, or to the Taker) */
           + 78         /* own discards (Taker) */
           + 78         /* shown trump discards */
           + 78         /* Nancy pile as visible */
           + 78         /* opponents' pile */
           + n * 4 + n  /* voids per suit, trump ceiling */
           + CC_NANCY_NUM_PHASES + n /* phase, current player */
           + n          /* cumulative scores */
           + 4;         /* trick index, rounds done, debt pending, Outsider played */
}

static int32_t n_tensor_size(const int32_t *params, int32_t nplayers) {
    (void)params;
    return tensor_len(nplayers);
}

static void ev_push(nstate *s, int32_t kind, int32_t player, int32_t target, int32_t value,
                    int32_t extra, uint32_t seen) {
    if (s->nev >= EVCAP) return;
    cc_event *e = &s->ev[s->nev++];
    e->kind = kind;
    e->player = player;
    e->target = target;
    e->value = value;
    e->extra = extra;
    e->seen_by = seen;
}

static inline int32_t nxt(const nstate *s, int32_t p) { return (p + 1) % s->n; }

static inline int32_t pile_of(const nstate *s, int32_t p) {
    if (p == s->taker) return PILE_NANCY;
    if (p == s->partner && s->params[CC_NANCY_P_PARTNER_TRICKS_TO] == 1) return PILE_NANCY;
    return PILE_OPP;
}

static void place(nstate *s, int32_t q, int32_t c, int32_t idx) {
    if (s->n == 2) {
        if (idx < 8) {
            s->pbot[q][idx] = (int8_t)c;
            ev_push(s, CC_NANCY_EV_DEAL, q, CC_NANCY_PLACE_TABLE_DOWN, c, idx, 0);
        } else if (idx < 16) {
            s->ptop[q][idx - 8] = (int8_t)c;
            cs_add(&s->up[q], c);
            ev_push(s, CC_NANCY_EV_DEAL, q, CC_NANCY_PLACE_FACE_UP, c, idx - 8, CC_SEEN_ALL);
        } else {
            cs_add(&s->hand[q], c);
            ev_push(s, CC_NANCY_EV_DEAL, q, CC_NANCY_PLACE_HAND, c, -1, 1u << q);
        }
        return;
    }
    if (idx < s->params[CC_NANCY_P_FACE_UP_COUNT]) {
        cs_add(&s->up[q], c);
        ev_push(s, CC_NANCY_EV_DEAL, q, CC_NANCY_PLACE_FACE_UP, c, -1, CC_SEEN_ALL);
    } else {
        cs_add(&s->hand[q], c);
        ev_push(s, CC_NANCY_EV_DEAL, q, CC_NANCY_PLACE_HAND, c, -1, 1u << q);
    }
}

static void add_hound(nstate *s, int32_t c) {
    cs_add(&s->hound, c);
    ev_push(s, CC_NANCY_EV_DEAL, -1, CC_NANCY_PLACE_HOUND, c, -1, 0);
}

static void deal(nstate *s, const uint8_t *given) {
    /* keep the previous round's summary at the head of the log */
    if (s->sum_start > 0) {
        int32_t len = s->nev - s->sum_start;
        memmove(s->ev, s->ev + s->sum_start, (size_t)len * sizeof(cc_event));
        s->sum_len = len;
        s->sum_start = 0;
    }
    s->nev = s->sum_len;
    int32_t n = s->n;
    for (int32_t p = 0; p < MAXP; p++) {
        s->hand[p].lo = s->hand[p].hi = 0;
        s->up[p].lo = s->up[p].hi = 0;
        s->bid[p] = -1;
        s->voids[p] = 0;
        s->ceil[p] = 21;
    }
    memset(s->ptop, -1, sizeof s->ptop);
    memset(s->pbot, -1, sizeof s->pbot);
    s->flip_pending[0] = s->flip_pending[1] = 0;
    s->hound.lo = s->hound.hi = 0;
    s->high_bid = 0;
    s->high_bidder = -1;
    s->nacted = 0;
    s->passed = 0;
    s->taker = s->partner = s->called = -1;
    s->partner_revealed = 0;
    s->required_taker_ranks = 0;
    s->call_free = 0;
    s->discards.lo = s->discards.hi = s->shown.lo = s->shown.hi = 0;
    s->disc_public.lo = s->disc_public.hi = 0;
    s->ndisc = 0;
    s->pile[0].lo = s->pile[0].hi = s->pile[1].lo = s->pile[1].hi = 0;
    s->played.lo = s->played.hi = 0;
    s->leader = s->trick_n = s->trick_idx = 0;
    s->last_winner = -1;
    memset(s->trick_card, -1, sizeof s->trick_card);
    memset(s->trick_player, -1, sizeof s->trick_player);
    s->taker_won_all = 1;
    s->out_player = -1;
    s->debt = 0;
    s->debt_from = s->debt_to = s->debt_winner = s->debt_owner = -1;
    s->pick_set.lo = s->pick_set.hi = 0;
    s->pick_from = s->pick_to = -1;
    s->pick_deferred = 0;
    s->chosen_pending = s->chosen = 0;
    s->rule13 = -1;

    ev_push(s, CC_NANCY_EV_DEALER, s->dealer, -1, s->rounds_done, s->thrown_in, CC_SEEN_ALL);
    uint8_t deck[78];
    if (given != NULL) {
        memcpy(deck, given, sizeof deck);
    } else {
        for (int32_t i = 0; i < 78; i++) deck[i] = (uint8_t)i;
        cc_rng_shuffle_u8(&s->rng, deck, 78);
    }
    int32_t packet = s->packet, H = s->hsize;
    int32_t npk = (78 - H) / packet;
    uint8_t chosen[32];
    memset(chosen, 0, sizeof chosen);
    int32_t enforce = s->params[CC_NANCY_P_HOUND_POSITION_RULE] == 1;
    if (enforce && given != NULL) {
        /* a stacked deck: the fixed schedule of docs/nancy.rst (the j-th
         * Hound card goes before packet floor(j * npk / (H + 1))) */
        for (int32_t j = 1; j <= H; j++) chosen[j * npk / (H + 1)] = 1;
    } else if (enforce) {
        uint8_t b[32];
        int32_t m = npk - 1;
        for (int32_t i = 0; i < m; i++) b[i] = (uint8_t)(i + 1);
        for (int32_t i = 0; i < H; i++) {
            int32_t j = i + (int32_t)cc_rng_below(&s->rng, (uint64_t)(m - i));
            uint8_t t = b[i];
            b[i] = b[j];
            b[j] = t;
            chosen[b[i]] = 1;
        }
    }
    int32_t pos = 0, cnt[MAXP] = {0};
    for (int32_t k = 0; k < npk; k++) {
        if (enforce && chosen[k]) add_hound(s, deck[pos++]);
        int32_t q = (s->dealer + 1 + k) % n;
        for (int32_t j = 0; j < packet; j++) place(s, q, deck[pos++], cnt[q]++);
    }
    while (pos < 78) add_hound(s, deck[pos++]);
    s->phase = CC_NANCY_PH_BID;
    s->cur = nxt(s, s->dealer);
}

/* init and init_deck: deal the first deal from the shuffled deck, or from
 * `given` (78 distinct card ids, top first). */
static int32_t start_match(void *state, const int32_t *params, int32_t nplayers, uint64_t seed,
                           const uint8_t *given) {
    if (state == NULL) return CC_E_ARG;
    int32_t rc = n_check_params(params, nplayers);
    if (rc != CC_OK) return rc;
    nstate *s = (nstate *)state;
    memset(s, 0, offsetof(nstate, ev));
    memcpy(s->params, params, sizeof s->params);
    s->n = nplayers;
    s->each = EACH[nplayers];
    s->hsize = nplayers == 5 ? 3 : 6;
    s->packet = nplayers == 2 ? 4 : 3;
    s->rounds_total = params[CC_NANCY_P_MATCH_ROUNDS] ? params[CC_NANCY_P_MATCH_ROUNDS] : nplayers;
    cc_rng_seed(&s->rng, seed);
    /* the first draw is made even when first_dealer fixes the seat */
    s->dealer = (int32_t)cc_rng_below(&s->rng, (uint64_t)nplayers);
    if (params[CC_NANCY_P_FIRST_DEALER] >= 0) s->dealer = params[CC_NANCY_P_FIRST_DEALER];
    s->sum_start = s->sum_len = 0;
    s->nev = 0;
    deal(s, given);
    return CC_OK;
}

static int32_t n_init(void *state, const int32_t *params, int32_t nplayers, uint64_t seed) {
    return start_match(state, params, nplayers, seed, NULL);
}

static int32_t n_init_deck(void *state, const int32_t *params, int32_t nplayers, uint64_t seed,
                           const uint8_t *deck, int32_t ndeck) {
    int32_t rc = n_check_params(params, nplayers);
    if (rc != CC_OK) return rc;
    if (deck == NULL || ndeck != 78) return CC_E_ARG;
    uint64_t seen[2] = {0, 0};
    for (int32_t i = 0; i < 78; i++) {
        if (deck[i] >= 78 || (seen[deck[i] >> 6] >> (deck[i] & 63)) & 1) return CC_E_ARG;
        seen[deck[i] >> 6] |= 1ull << (deck[i] & 63);
    }
    return start_match(state, params, nplayers, seed, deck);
}

static int32_t n_current_player(const void *state) {
    const nstate *s = (const nstate *)state;
    return s->phase == CC_NANCY_PH_OVER ? CC_PLAYER_TERMINAL : s->cur;
}

/* ---- per-phase legal sets ---------------------------------------------- */

static int dealer_forced_now(const nstate *s) {
    if (s->params[CC_NANCY_P_ALL_PASS] != 1 || s->high_bid > 0) return 0;
    uint32_t others = ((1u << s->n) - 1) & ~(1u << s->cur);
    return (s->passed & others) == others;
}

/* Cards the Taker may name (RULES.md 1.3.5; docs: the call ladder). */
static ncs callable(const nstate *s, uint32_t *required_ranks) {
    static const int32_t ladder[4] = {12, 10, 11, 13};
    ncs held = cs_or(s->hand[s->taker], s->up[s->taker]);
    int32_t self_ok = s->params[CC_NANCY_P_SELF_CALL_ALLOWED] == 1;
    int32_t steps = self_ok ? 2 : 4;
    uint32_t req = 0;
    ncs out = {0, 0};
    for (int32_t i = 0; i < steps; i++) {
        ncs r = rank_set(ladder[i]);
        ncs cand = self_ok ? r : cs_andnot(r, held);
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

static inline ncs discard_others(ncs held) {
    ncs o = {held.lo & ~KING_LO, 0};
    return o;
}

static ncs discardable(const nstate *s) {
    ncs held = cs_or(s->hand[s->taker], s->up[s->taker]);
    ncs others = discard_others(held);
    int32_t remaining = s->hsize - s->ndisc;
    if (cs_count(others) >= remaining) return others;
    ncs r = {others.lo, held.hi & MID_TRUMPS_HI};
    return r;
}

static ncs playable_now(const nstate *s) {
    ncs p = cs_or(s->hand[s->cur], s->up[s->cur]);
    int32_t led, high;
    trick_summary(s->trick_card, s->trick_n, &led, &high);
    return legal_from(p, led, high, s->params[CC_NANCY_P_OVERTRUMP_ON_TRUMP_LEAD]);
}

static void mask_cards(uint64_t *mask, ncs set, int32_t base) {
    uint64_t lo = set.lo;
    while (lo) {
        int32_t b = cc_ctz64(lo);
        cc_mask_set(mask, base + (b >> 4) * 14 + (b & 15));
        lo &= lo - 1;
    }
    uint64_t hi = set.hi;
    while (hi) {
        int32_t b = cc_ctz64(hi);
        cc_mask_set(mask, base + (b == 0 ? OUTSIDER : 55 + b));
        hi &= hi - 1;
    }
}

static int32_t n_legal_actions(const void *state, uint64_t *mask) {
    const nstate *s = (const nstate *)state;
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
        ncs c = callable(s, NULL);
        mask_cards(mask, c, CC_NANCY_A_CALL);
        return cs_count(c);
    }
    case CC_NANCY_PH_DISCARD: {
        ncs d = discardable(s);
        mask_cards(mask, d, CC_NANCY_A_DISCARD);
        return cs_count(d);
    }
    case CC_NANCY_PH_PLAY: {
        ncs p = playable_now(s);
        mask_cards(mask, p, CC_NANCY_A_PLAY);
        return cs_count(p);
    }
    case CC_NANCY_PH_PICK:
        mask_cards(mask, s->pick_set, CC_NANCY_A_PICK);
        return cs_count(s->pick_set);
    default:
        return 0;
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

static const char *n_reason_text(int32_t reason) {
    if (reason <= 0 || reason >= R_COUNT) return "unknown reason";
    return REASONS[reason];
}

static int32_t n_verify(const void *state, int32_t a) {
    const nstate *s = (const nstate *)state;
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
        return has(callable(s, NULL), a - CC_NANCY_A_CALL) ? 0 : R_CALL;
    case CC_NANCY_PH_DISCARD: {
        if (a < CC_NANCY_A_DISCARD || a >= CC_NANCY_A_PLAY) return R_PHASE;
        int32_t c = a - CC_NANCY_A_DISCARD;
        ncs held = cs_or(s->hand[s->taker], s->up[s->taker]);
        if (!has(held, c)) return R_NOT_HELD_DISCARD;
        if (c == OUTSIDER || c == 56 || c == 76 || (c < 56 && c % 14 == 13)) return R_NEVER_DISCARD;
        if (is_trump(c) && !has(discardable(s), c)) return R_TRUMP_DISCARD;
        return 0;
    }
    case CC_NANCY_PH_PLAY: {
        if (a < CC_NANCY_A_PLAY || a >= CC_NANCY_A_PICK) return R_PHASE;
        int32_t c = a - CC_NANCY_A_PLAY;
        ncs p = cs_or(s->hand[s->cur], s->up[s->cur]);
        if (!has(p, c)) return R_NOT_HELD_PLAY;
        if (has(playable_now(s), c)) return 0;
        int32_t led, high;
        trick_summary(s->trick_card, s->trick_n, &led, &high);
        if (led < 4 && (p.lo & (LANE14 << (16 * led)))) return R_FOLLOW;
        if (!is_trump(c)) {
            uint64_t higher = p.hi & TRUMPS_HI & ~((2ull << high) - 1);
            return (led < 4 && higher) ? R_OVERTRUMP : R_TRUMP;
        }
        return R_OVERTRUMP;
    }
    case CC_NANCY_PH_PICK:
        if (a < CC_NANCY_A_PICK) return R_PHASE;
        return has(s->pick_set, a - CC_NANCY_A_PICK) ? 0 : R_PICK;
    default:
        return R_PHASE;
    }
}

/* ---- transitions -------------------------------------------------------- */

/* 2 players: turn up the card beneath each pile top that left the table
 * (played to a trick or discarded); it is public from now on. */
static void flip_uncovered(nstate *s) {
    if (s->n != 2) return;
    for (int32_t q = 0; q < 2; q++) {
        for (int32_t i = 0; i < 8; i++) {
            if (!(s->flip_pending[q] & (1u << i))) continue;
            int32_t c = s->pbot[q][i];
            s->ptop[q][i] = (int8_t)c;
            s->pbot[q][i] = -1;
            if (c >= 0) {
                cs_add(&s->up[q], c);
                ev_push(s, CC_NANCY_EV_FLIP, q, -1, c, i, CC_SEEN_ALL);
            }
        }
        s->flip_pending[q] = 0;
    }
}

static void start_play(nstate *s) {
    flip_uncovered(s); /* a discarded pile top uncovers its card now */
    s->phase = CC_NANCY_PH_PLAY;
    s->leader = s->cur = nxt(s, s->dealer);
    s->trick_n = 0;
    s->trick_idx = 0;
}

static void take_hound(nstate *s) {
    int32_t shown = s->params[CC_NANCY_P_REVEAL_HOUND] == 1;
    for (int32_t k = 0; k < s->hsize; k++) {
        int32_t c = cs_nth(s->hound, k);
        ev_push(s, CC_NANCY_EV_HOUND, s->taker, -1, c, shown, shown ? CC_SEEN_ALL : 1u << s->taker);
    }
    s->hand[s->taker] = cs_or(s->hand[s->taker], s->hound);
    s->phase = CC_NANCY_PH_DISCARD;
    s->cur = s->taker;
    s->ndisc = 0;
}

static void end_round(nstate *s);
static void deal(nstate *s, const uint8_t *given);

static void finish_bidding(nstate *s) {
    if (s->high_bid == 0) { /* all passed: thrown-in deal */
        s->thrown_in++;
        s->dealer = nxt(s, s->dealer);
        deal(s, NULL);
        return;
    }
    s->taker = s->high_bidder;
    ev_push(s, CC_NANCY_EV_TAKER, s->taker, -1, s->high_bid, 0, CC_SEEN_ALL);
    if (s->n >= 5) {
        s->phase = CC_NANCY_PH_CALL;
        s->cur = s->taker;
    } else {
        take_hound(s);
    }
}

static void remove_from_holding(nstate *s, int32_t p, int32_t c) {
    if (has(s->up[p], c)) {
        cs_del(&s->up[p], c);
        if (s->n == 2)
            for (int32_t i = 0; i < 8; i++)
                if (s->ptop[p][i] == c) s->flip_pending[p] |= (uint8_t)(1u << i);
    } else {
        cs_del(&s->hand[p], c);
    }
}

static void do_exchange(nstate *s, int32_t c, int32_t chooser) {
    cs_del(&s->pile[s->pick_from], c);
    cs_add(&s->pile[s->pick_to], c);
    ev_push(s, CC_NANCY_EV_EXCHANGE, chooser, s->pick_to, c, s->pick_deferred, CC_SEEN_ALL);
    if (s->pick_to == PILE_NANCY && s->chosen_pending) {
        s->chosen = is_face(c);
        s->chosen_pending = 0;
    }
    s->pick_set.lo = s->pick_set.hi = 0;
}

static inline int32_t side_chooser(const nstate *s, int32_t pile, int32_t player) {
    return pile == PILE_NANCY ? s->taker : player;
}

/* Start an exchange: random draw now, or a PICK decision.  1 if pending. */
static int start_exchange(nstate *s, int32_t from, int32_t to, ncs elig, int32_t deferred,
                          int32_t random, int32_t chooser) {
    s->pick_from = from;
    s->pick_to = to;
    s->pick_deferred = deferred;
    if (random) {
        int32_t k = (int32_t)cc_rng_below(&s->rng, (uint64_t)cs_count(elig));
        do_exchange(s, cs_nth(elig, k), -1);
        return 0;
    }
    s->pick_set = elig;
    s->phase = CC_NANCY_PH_PICK;
    s->cur = chooser;
    return 1;
}

static void next_trick(nstate *s) {
    s->trick_idx++;
    s->trick_n = 0;
    memset(s->trick_card, -1, sizeof s->trick_card);
    memset(s->trick_player, -1, sizeof s->trick_player);
    if (s->trick_idx == s->each) {
        end_round(s);
        return;
    }
    s->phase = CC_NANCY_PH_PLAY;
    s->leader = s->cur = s->last_winner;
}

static void finish_trick(nstate *s) {
    int32_t n = s->n;
    int32_t last = s->trick_idx == s->each - 1;
    int32_t slam = last && s->params[CC_NANCY_P_FAT_NANCY_OUTSIDER_EXCEPTION] == 1 &&
                   s->trick_card[0] == OUTSIDER && s->trick_player[0] == s->taker &&
                   s->taker_won_all;
    int32_t w = slam ? s->taker : s->trick_player[winner_pos(s->trick_card, n)];
    int32_t wp = pile_of(s, w);
    ncs cards = {0, 0};
    int32_t has_out = 0;
    for (int32_t i = 0; i < n; i++) {
        if (s->trick_card[i] == OUTSIDER)
            has_out = 1;
        else
            cs_add(&cards, s->trick_card[i]);
    }
    s->pile[wp] = cs_or(s->pile[wp], cards);
    if (w != s->taker) s->taker_won_all = 0;
    s->last_winner = w;
    ev_push(s, CC_NANCY_EV_TRICK, w, -1, s->trick_idx, wp, CC_SEEN_ALL);
    flip_uncovered(s); /* the cards beneath played pile tops */
    int pending = 0;
    if (has_out && !last) {
        int32_t o = s->out_player, op = pile_of(s, o);
        cs_add(&s->pile[op], OUTSIDER);
        if (op != wp) {
            s->chosen_pending = (o != s->taker && w == s->taker);
            ncs elig = s->pile[op];
            cs_del(&elig, OUTSIDER);
            if (!(op == PILE_NANCY && s->params[CC_NANCY_P_EXCHANGE_FROM_DISCARD] == 1))
                elig = cs_andnot(elig, s->discards);
            if (cs_empty(elig)) {
                s->debt = 1;
                s->debt_from = op;
                s->debt_to = wp;
                s->debt_winner = w;
                s->debt_owner = o;
                ev_push(s, CC_NANCY_EV_DEBT, o, w, -1, 0, CC_SEEN_ALL);
            } else {
                int32_t random = s->params[CC_NANCY_P_OUTSIDER_EXCHANGE_MODE] == 0;
                pending = start_exchange(s, op, wp, elig, 0, random, side_chooser(s, op, o));
            }
        }
    } else if (has_out) {
        cs_add(&s->pile[wp], OUTSIDER);
        if (s->params[CC_NANCY_P_OUTSIDER_LAST_TRICK] == 0 && !slam) {
            int32_t o = s->out_player;
            int32_t side = (o == s->taker || o == s->partner);
            s->rule13 = side ? 0 : (w == s->taker || w == s->partner);
        }
    } else if (s->debt && wp == s->debt_from) {
        int32_t mode = s->params[CC_NANCY_P_DEFERRED_EXCHANGE_PICK];
        int32_t chooser = mode == 0 ? side_chooser(s, s->debt_to, s->debt_winner)
                                    : side_chooser(s, s->debt_from, s->debt_owner);
        s->debt = 0;
        pending = start_exchange(s, s->debt_from, s->debt_to, cards, 1, mode == 1, chooser);
    }
    if (!pending) next_trick(s);
}

static void end_round(nstate *s) {
    int32_t obj = objectives_of(s->pile[PILE_NANCY], s->params[CC_NANCY_P_ARCANE_SUM_MODE]);
    if (s->taker_won_all) obj |= CC_NANCY_OBJ_FAT_NANCY;
    if (s->chosen) obj |= CC_NANCY_OBJ_CHOSEN_BY_THE_OUTSIDER;
    int32_t completed = cc_popcount64((uint64_t)obj);
    int32_t won = s->rule13 >= 0 ? s->rule13 : (completed > 0 && completed >= s->high_bid);
    int32_t delta[MAXP];
    cc_nancy_settlement(s->n, s->taker, s->partner, s->high_bid, completed, won, delta);
    s->sum_start = s->trick_ev; /* the log carries the last trick over to the next deal */
    if (s->partner >= 0 && !s->partner_revealed) {
        s->partner_revealed = 1;
        ev_push(s, CC_NANCY_EV_PARTNER, s->partner, -1, s->called, 1, CC_SEEN_ALL);
    }
    ev_push(s, CC_NANCY_EV_RESULT, s->taker, completed, obj, won | ((s->rule13 >= 0) << 1),
            CC_SEEN_ALL);
    for (int32_t p = 0; p < s->n; p++) {
        s->scores[p] += delta[p];
        ev_push(s, CC_NANCY_EV_SCORE, p, -1, delta[p], s->scores[p], CC_SEEN_ALL);
    }
    s->rounds_done++;
    s->thrown_in = 0;
    s->dealer = nxt(s, s->dealer);
    if (s->rounds_done >= s->rounds_total) {
        s->phase = CC_NANCY_PH_OVER;
        s->cur = CC_PLAYER_TERMINAL;
        return;
    }
    deal(s, NULL);
}

static void play_card(nstate *s, int32_t c) {
    int32_t p = s->cur;
    if (s->trick_n == 0) s->trick_ev = s->nev;
    if (c != OUTSIDER && s->trick_n > 0) {
        int32_t led, high;
        trick_summary(s->trick_card, s->trick_n, &led, &high);
        if (led >= 0 && led < 4) {
            if (c >= 56 || c / 14 != led) {
                s->voids[p] |= (uint8_t)(1u << led);
                if (!is_trump(c))
                    s->ceil[p] = 0;
                else if (c - 55 < high && high < s->ceil[p])
                    s->ceil[p] = (int8_t)high;
            }
        } else if (led == 4) {
            if (!is_trump(c))
                s->ceil[p] = 0;
            else if (s->params[CC_NANCY_P_OVERTRUMP_ON_TRUMP_LEAD] && c - 55 < high &&
                     high < s->ceil[p])
                s->ceil[p] = (int8_t)high;
        }
    }
    remove_from_holding(s, p, c);
    cs_add(&s->played, c);
    s->trick_card[s->trick_n] = (int8_t)c;
    s->trick_player[s->trick_n] = (int8_t)p;
    s->trick_n++;
    ev_push(s, CC_NANCY_EV_PLAY, p, -1, c, s->trick_idx, CC_SEEN_ALL);
    if (c == s->called && !s->partner_revealed) {
        s->partner_revealed = 1;
        ev_push(s, CC_NANCY_EV_PARTNER, p, -1, c, p != s->taker, CC_SEEN_ALL);
    }
    if (c == OUTSIDER) s->out_player = p;
    if (s->trick_n < s->n)
        s->cur = nxt(s, p);
    else
        finish_trick(s);
}

static int32_t n_apply(void *state, int32_t a) {
    nstate *s = (nstate *)state;
    int32_t r = n_verify(s, a);
    if (r != 0) return r;
    switch (s->phase) {
    case CC_NANCY_PH_BID: {
        int32_t p = s->cur;
        s->bid[p] = (int8_t)a;
        if (a == CC_NANCY_A_PASS) {
            s->passed |= 1u << p;
        } else {
            s->high_bid = a;
            s->high_bidder = p;
        }
        s->nacted++;
        ev_push(s, CC_NANCY_EV_BID, p, -1, a, 0, CC_SEEN_ALL);
        uint32_t all = (1u << s->n) - 1;
        if (s->params[CC_NANCY_P_BIDDING_STYLE] == 0) {
            if (s->nacted == s->n)
                finish_bidding(s);
            else
                s->cur = nxt(s, p);
        } else {
            int32_t active = s->n - cc_popcount64(s->passed);
            if (s->passed == all || (s->high_bid > 0 && active == 1)) {
                finish_bidding(s);
            } else {
                int32_t q = nxt(s, p);
                while (s->passed & (1u << q)) q = nxt(s, q);
                s->cur = q;
            }
        }
        return CC_OK;
    }
    case CC_NANCY_PH_CALL: {
        int32_t c = a - CC_NANCY_A_CALL;
        s->called = c;
        callable(s, &s->required_taker_ranks);
        ncs req = {0, 0};
        for (int32_t r = 0; r < 14; r++)
            if (s->required_taker_ranks & (1u << r)) req = cs_or(req, rank_set(r));
        ncs held_req = {s->hand[s->taker].lo & req.lo, s->hand[s->taker].hi & req.hi};
        s->call_free = cs_count(s->hand[s->taker]) + s->hsize - cs_count(held_req);
        s->partner = -1;
        for (int32_t q = 0; q < s->n; q++)
            if (q != s->taker && has(cs_or(s->hand[q], s->up[q]), c)) s->partner = q;
        ev_push(s, CC_NANCY_EV_CALL, s->taker, -1, c, 0, CC_SEEN_ALL);
        take_hound(s);
        return CC_OK;
    }
    case CC_NANCY_PH_DISCARD: {
        int32_t c = a - CC_NANCY_A_DISCARD;
        int32_t t = s->taker;
        int32_t faceup = has(s->up[t], c);
        remove_from_holding(s, t, c);
        cs_add(&s->discards, c);
        cs_add(&s->pile[PILE_NANCY], c);
        int32_t shown = is_trump(c);
        if (shown) cs_add(&s->shown, c);
        if (shown || faceup) cs_add(&s->disc_public, c);
        ev_push(s, CC_NANCY_EV_DISCARD, t, -1, c, shown | (faceup << 1),
                (shown || faceup) ? CC_SEEN_ALL : 1u << t);
        if (++s->ndisc == s->hsize) start_play(s);
        return CC_OK;
    }
    case CC_NANCY_PH_PLAY:
        play_card(s, a - CC_NANCY_A_PLAY);
        return CC_OK;
    case CC_NANCY_PH_PICK:
        do_exchange(s, a - CC_NANCY_A_PICK, s->cur);
        next_trick(s);
        return CC_OK;
    default:
        return CC_E_GAME_OVER;
    }
}

static void n_returns(const void *state, int32_t *out) {
    const nstate *s = (const nstate *)state;
    for (int32_t p = 0; p < s->n; p++) out[p] = s->scores[p];
}

/* ---- observation -------------------------------------------------------- */

static void put_set(float *o, ncs set) {
    for (int32_t c = 0; c < 78; c++)
        if (has(set, c)) o[c] = 1.0f;
}

static int32_t n_observe(const void *state, int32_t player, float *out) {
    const nstate *s = (const nstate *)state;
    int32_t n = s->n;
    if (player < 0 || player >= n || out == NULL) return CC_E_ARG;
    memset(out, 0, sizeof(float) * (size_t)tensor_len(n));
    float *o = out;
    o[player] = 1.0f;
    o += n;
    put_set(o, s->hand[player]);
    o += 78;
    for (int32_t q = 0; q < n; q++, o += 78) put_set(o, s->up[q]);
    for (int32_t q = 0; q < n; q++) {
        int32_t cnt = 0;
        if (n == 2)
            for (int32_t i = 0; i < 8; i++) cnt += s->pbot[q][i] >= 0;
        o[q] = (float)cnt;
    }
    o += n;
    if (s->phase == CC_NANCY_PH_PLAY)
        for (int32_t i = 0; i < s->trick_n; i++)
            o[s->trick_player[i] * 78 + s->trick_card[i]] = 1.0f;
    o += n * 78;
    if (s->phase == CC_NANCY_PH_PLAY) o[s->leader] = 1.0f;
    o += n;
    put_set(o, s->played);
    o += 78;
    for (int32_t q = 0; q < n; q++) o[q * 11 + s->bid[q] + 1] = 1.0f;
    o += n * 11;
    o[s->dealer] = 1.0f;
    o += n;
    if (s->taker >= 0) o[s->taker] = 1.0f;
    o += n;
    if (s->called >= 0) o[s->called] = 1.0f;
    o += 78;
    if (s->partner_revealed) {
        o[0] = 1.0f;
        if (s->partner >= 0) o[1 + s->partner] = 1.0f;
    }
    o += 1 + n;
    int32_t after_hound = s->taker >= 0 && s->phase != CC_NANCY_PH_BID && s->phase != CC_NANCY_PH_CALL;
    if (after_hound && (s->params[CC_NANCY_P_REVEAL_HOUND] == 1 || player == s->taker))
        put_set(o, s->hound);
    o += 78;
    if (player == s->taker) put_set(o, s->discards);
    o += 78;
    put_set(o, s->shown);
    o += 78;
    ncs hidden = cs_andnot(s->discards, s->disc_public);
    put_set(o, player == s->taker ? s->pile[PILE_NANCY]
                                  : cs_andnot(s->pile[PILE_NANCY], hidden));
    o += 78;
    put_set(o, s->pile[PILE_OPP]);
    o += 78;
    for (int32_t q = 0; q < n; q++)
        for (int32_t su = 0; su < 4; su++) o[q * 4 + su] = (float)((s->voids[q] >> su) & 1);
    o += n * 4;
    for (int32_t q = 0; q < n; q++) o[q] = (float)s->ceil[q];
    o += n;
    o[s->phase] = 1.0f;
    o += CC_NANCY_NUM_PHASES;
    if (s->phase != CC_NANCY_PH_OVER) o[s->cur] = 1.0f;
    o += n;
    for (int32_t q = 0; q < n; q++) o[q] = (float)s->scores[q];
    o += n;
    o[0] = (float)s->trick_idx;
    o[1] = (float)s->rounds_done;
    o[2] = (float)s->debt;
    o[3] = (float)(s->out_player >= 0);
    return CC_OK;
}

static int32_t n_events(const void *state, cc_event *out, int32_t cap) {
    const nstate *s = (const nstate *)state;
    if (out != NULL)
        for (int32_t i = 0; i < s->nev && i < cap; i++) out[i] = s->ev[i];
    return s->nev;
}

/* ---- information-set sampling ------------------------------------------
 * docs/nancy.rst, "Information-set samples".  Slots are the places whose
 * cards `player` cannot see: other players' face-down hands, the Hound
 * before it is taken, the Taker's hidden discards and (2 players) the
 * face-down table cards.  Each slot admits the cards the public facts allow
 * (voids, trump ceilings, discard restrictions, the call ladder, a shown
 * Hound).  With self_call_allowed = 0 and a Hound `player` never saw, the
 * called card weighs H / call_free in the Taker's slots (the Taker did not
 * hold it, so it came from the Hound).  Target: deals of the unknown cards
 * into the slots, with probability proportional to their weight.
 * Stage 1: uniform shuffles (0, 200 or 2000 by the size of stage 2's count
 * table), each dealt in slot order and kept if it fits (and, for a weighted
 * deal, with probability H / call_free): exact rejection sampling.
 * Stage 2 (if none was kept): exact sequential assignment, card by card
 * in ascending id order, each card going to a group of slots with
 * probability proportional to the weighted number of ways to finish the
 * deal (counted in doubles over the groups' remaining room); slots of the
 * same kind with the same admitted cards form one group, dealt out among
 * its slots by a uniform shuffle. */

#define SLOT_MAX 20
#define SAMPLE_TABLE_MAX (1 << 22)
#define SAMPLE_TABLE_SMALL 4096
typedef struct slot {
    int32_t kind; /* 0 hand of q, 1 hound, 2 discards, 3 table pile (q, i) */
    int32_t q, i, size;
    int32_t taker_side; /* the Taker's hand or discards */
    ncs allowed;
    int8_t cards[40];
    int32_t got;
} slot;

/* Groups of slots for stage 2: slots other than the Taker's that admit the
 * same cards form one group; a group's remaining room is one digit of a
 * mixed-radix index into the count table. */
typedef struct sgroups {
    int32_t ng, group[SLOT_MAX], gsize[SLOT_MAX], gtaker[SLOT_MAX];
    ncs gallowed[SLOT_MAX];
    int64_t stride[SLOT_MAX + 1];
} sgroups;

/* Fill G; return the count table's size, or -1 above SAMPLE_TABLE_MAX. */
static int64_t make_groups(const slot *sl, int32_t ns, sgroups *G) {
    G->ng = 0;
    for (int32_t j = 0; j < ns; j++) {
        int32_t g = -1;
        for (int32_t h = 0; h < G->ng && !sl[j].taker_side; h++)
            if (!G->gtaker[h] && G->gallowed[h].lo == sl[j].allowed.lo &&
                G->gallowed[h].hi == sl[j].allowed.hi)
                g = h;
        if (g < 0) {
            g = G->ng++;
            G->gsize[g] = 0;
            G->gtaker[g] = sl[j].taker_side;
            G->gallowed[g] = sl[j].allowed;
        }
        G->group[j] = g;
        G->gsize[g] += sl[j].size;
    }
    G->stride[0] = 1;
    for (int32_t g = 0; g < G->ng; g++) {
        G->stride[g + 1] = G->stride[g] * (G->gsize[g] + 1);
        if (G->stride[g + 1] > SAMPLE_TABLE_MAX) return -1;
    }
    return G->stride[G->ng];
}

/* Stage 2: exact weighted assignment of pool[0..nu-1] to the slots. */
static int32_t exact_deal(cc_rng *rng, slot *sl, int32_t ns, const sgroups *G,
                          const uint8_t *pool, int32_t nu, int32_t wcard, double wt) {
    const int32_t ng = G->ng;
    const int32_t *group = G->group, *gsize = G->gsize, *gtaker = G->gtaker;
    const ncs *gallowed = G->gallowed;
    const int64_t *stride = G->stride;
    int64_t tsize = stride[ng];
    if (tsize < 0 || tsize > SAMPLE_TABLE_MAX) return CC_E_CAPACITY;
    double small[SAMPLE_TABLE_SMALL];
    double *f = tsize <= SAMPLE_TABLE_SMALL ? small : (double *)malloc((size_t)tsize * sizeof(double));
    if (f == NULL) return CC_E_CAPACITY;
    /* f[cap] = weighted ways to deal the last sum(cap) cards of the pool into
     * room cap; a child index is smaller, so ascending order works. */
    int32_t odo[SLOT_MAX] = {0}, r = 0; /* the room vector of idx, and its sum */
    for (int64_t idx = 0; idx < tsize; idx++) {
        if (idx > 0) { /* advance the odometer */
            int32_t g = 0;
            while (odo[g] == gsize[g]) {
                r -= odo[g];
                odo[g++] = 0;
            }
            odo[g]++;
            r++;
        }
        if (r == 0) { f[idx] = 1.0; continue; }
        if (r > nu) { f[idx] = 0.0; continue; }
        int32_t c = pool[nu - r];
        double total = 0.0;
        for (int32_t g = 0; g < ng; g++) {
            if (odo[g] == 0 || !has(gallowed[g], c)) continue;
            double w = (c == wcard && gtaker[g]) ? wt : 1.0;
            total += w * f[idx - stride[g]];
        }
        f[idx] = total;
    }
    int32_t cap[SLOT_MAX];
    int64_t idx = 0;
    for (int32_t g = 0; g < ng; g++) {
        cap[g] = gsize[g];
        idx += (int64_t)gsize[g] * stride[g];
    }
    if (!(f[idx] > 0.0)) {
        if (f != small) free(f);
        return CC_E_CAPACITY;
    }
    uint8_t gcards[SLOT_MAX][78];
    int32_t gcount[SLOT_MAX] = {0};
    for (int32_t k = 0; k < nu; k++) {
        int32_t c = pool[k], pick = -1;
        double terms[SLOT_MAX], total = 0.0;
        for (int32_t g = 0; g < ng; g++) {
            terms[g] = 0.0;
            if (cap[g] == 0 || !has(gallowed[g], c)) continue;
            double w = (c == wcard && gtaker[g]) ? wt : 1.0;
            terms[g] = w * f[idx - stride[g]];
            total += terms[g];
        }
        double u = (double)(cc_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0) * total;
        double cum = 0.0;
        for (int32_t g = 0; g < ng; g++) {
            if (terms[g] > 0.0) {
                cum += terms[g];
                pick = g;
                if (u < cum) break;
            }
        }
        if (pick < 0) { /* unreachable while f[idx] > 0; never index with -1 */
            if (f != small) free(f);
            return CC_E_CAPACITY;
        }
        gcards[pick][gcount[pick]++] = (uint8_t)c;
        cap[pick]--;
        idx -= stride[pick];
    }
    if (f != small) free(f);
    for (int32_t g = 0; g < ng; g++) {
        int32_t members = 0;
        for (int32_t j = 0; j < ns; j++) members += group[j] == g;
        if (members > 1) cc_rng_shuffle_u8(rng, gcards[g], gcount[g]);
        int32_t pos = 0;
        for (int32_t j = 0; j < ns; j++) {
            if (group[j] != g) continue;
            sl[j].got = 0;
            for (int32_t k = 0; k < sl[j].size; k++) sl[j].cards[sl[j].got++] = (int8_t)gcards[g][pos++];
        }
    }
    return CC_OK;
}

/* The sample is worked out from `state` alone, with a local generator; `outp`
 * (a separate state buffer, or `state` itself) is written only once it has
 * succeeded, so an error (CC_E_ARG, or CC_E_CAPACITY when the count table is
 * too large or cannot be allocated) leaves it untouched. */
static int32_t n_sample(const void *state, int32_t player, uint64_t seed, void *outp) {
    const nstate *s = (const nstate *)state;
    if (s == NULL || outp == NULL) return CC_E_ARG;
    int32_t n = s->n;
    if (player < 0 || player >= n) return CC_E_ARG;
    cc_rng sample_rng;
    cc_rng_seed(&sample_rng, seed);
    cc_rng *rng = &sample_rng;
    slot sl[SLOT_MAX];
    int32_t ns = 0;
    ncs all = {CC_NANCY_LO_MASK, CC_NANCY_HI_MASK};
    int32_t hound_hidden = s->phase == CC_NANCY_PH_BID || s->phase == CC_NANCY_PH_CALL;
    int32_t hound_known = !hound_hidden && s->taker >= 0 &&
                          (s->params[CC_NANCY_P_REVEAL_HOUND] == 1 || player == s->taker);
    /* cards only the Taker's slots may hold: the required ranks of the call
     * ladder and the cards of a Hound `player` saw */
    ncs taker_only = {0, 0};
    for (int32_t r = 0; r < 14; r++)
        if (s->required_taker_ranks & (1u << r)) taker_only = cs_or(taker_only, rank_set(r));
    if (hound_known) taker_only = cs_or(taker_only, s->hound);
    /* the called card, which the Taker did not hold (self_call_allowed = 0) */
    ncs not_taker = {0, 0};
    int32_t wcard = -1;
    int32_t no_self = s->called >= 0 && s->params[CC_NANCY_P_SELF_CALL_ALLOWED] == 0;
    if (no_self && hound_known && !has(s->hound, s->called)) cs_add(&not_taker, s->called);
    if (no_self && !hound_known) wcard = s->called;
    ncs unknown = {0, 0};
    for (int32_t q = 0; q < n; q++) {
        if (q == player || cs_empty(s->hand[q])) continue;
        slot *x = &sl[ns++];
        x->kind = 0;
        x->q = q;
        x->i = -1;
        x->size = cs_count(s->hand[q]);
        x->taker_side = q == s->taker;
        ncs a = all;
        for (int32_t su = 0; su < 4; su++)
            if (s->voids[q] & (1u << su)) a.lo &= ~(LANE14 << (16 * su));
        a.hi &= ~(TRUMPS_HI & ~((2ull << s->ceil[q]) - 1));
        if (q == s->taker && !cs_empty(s->shown)) {
            /* the Taker showed a trump: he kept no card he could have discarded */
            a.lo &= KING_LO;
        }
        a = cs_andnot(a, q == s->taker ? not_taker : taker_only);
        x->allowed = a;
        unknown = cs_or(unknown, s->hand[q]);
    }
    if (hound_hidden) {
        slot *x = &sl[ns++];
        x->kind = 1;
        x->q = x->i = -1;
        x->size = cs_count(s->hound);
        x->taker_side = 0;
        x->allowed = all;
        unknown = cs_or(unknown, s->hound);
    }
    ncs hidden_disc = {0, 0};
    if (player != s->taker) hidden_disc = cs_andnot(s->discards, s->disc_public);
    if (!cs_empty(hidden_disc)) {
        slot *x = &sl[ns++];
        x->kind = 2;
        x->q = x->i = -1;
        x->size = cs_count(hidden_disc);
        x->taker_side = 1;
        ncs a = {CC_NANCY_LO_MASK & ~KING_LO, 0};
        x->allowed = cs_andnot(a, not_taker);
        unknown = cs_or(unknown, hidden_disc);
    }
    if (n == 2) {
        for (int32_t q = 0; q < 2; q++)
            for (int32_t i = 0; i < 8; i++) {
                if (s->pbot[q][i] < 0) continue;
                slot *x = &sl[ns++];
                x->kind = 3;
                x->q = q;
                x->i = i;
                x->size = 1;
                x->taker_side = 0;
                x->allowed = cs_andnot(all, taker_only);
                cs_add(&unknown, s->pbot[q][i]);
            }
    }
    if (wcard >= 0 && !has(unknown, wcard)) wcard = -1;
    /* only unknown cards are dealt: slots admitting the same of them are alike */
    for (int32_t j = 0; j < ns; j++) {
        sl[j].allowed.lo &= unknown.lo;
        sl[j].allowed.hi &= unknown.hi;
    }
    int32_t H = s->hsize, M = s->call_free;
    int32_t nu = cs_count(unknown);
    uint8_t pool[78];
    for (int32_t k = 0; k < nu; k++) pool[k] = (uint8_t)cs_nth(unknown, k);
    /* stage 1's length is fixed before it starts (so stage 2 stays exact):
     * none when counting is cheap, more when it is dear */
    sgroups G;
    int64_t tsize = make_groups(sl, ns, &G);
    int32_t tries = (tsize >= 0 && tsize <= SAMPLE_TABLE_SMALL) ? 0
                    : (tsize >= 0 && tsize <= 65536)           ? 200
                                                                : 2000;
    int ok = 0;
    for (int32_t attempt = 0; attempt < tries && !ok; attempt++) {
        cc_rng_shuffle_u8(rng, pool, nu);
        int32_t pos = 0, in_taker = 0;
        ok = 1;
        for (int32_t j = 0; j < ns && ok; j++) {
            sl[j].got = 0;
            for (int32_t k = 0; k < sl[j].size; k++) {
                int32_t c = pool[pos++];
                if (!has(sl[j].allowed, c)) { ok = 0; break; }
                if (c == wcard && sl[j].taker_side) in_taker = 1;
                sl[j].cards[sl[j].got++] = (int8_t)c;
            }
        }
        if (ok && in_taker) ok = (int32_t)cc_rng_below(rng, (uint64_t)M) < H;
    }
    if (!ok) {
        if (tsize < 0) return CC_E_CAPACITY;
        for (int32_t k = 0; k < nu; k++) pool[k] = (uint8_t)cs_nth(unknown, k);
        double wt = M > 0 ? (double)H / (double)M : 1.0;
        int32_t rc = exact_deal(rng, sl, ns, &G, pool, nu, wcard, wt);
        if (rc != CC_OK) return rc;
    }
    /* success: only now write the output */
    nstate *o = (nstate *)outp;
    if (o != s) memcpy(o, s, sizeof *s);
    o->rng = sample_rng;
    for (int32_t j = 0; j < ns; j++) {
        ncs set = {0, 0};
        for (int32_t k = 0; k < sl[j].size; k++) cs_add(&set, sl[j].cards[k]);
        switch (sl[j].kind) {
        case 0: o->hand[sl[j].q] = set; break;
        case 1: o->hound = set; break;
        case 2:
            o->pile[PILE_NANCY] = cs_or(cs_andnot(o->pile[PILE_NANCY], hidden_disc), set);
            o->discards = cs_or(cs_andnot(o->discards, hidden_disc), set);
            break;
        default: o->pbot[sl[j].q][sl[j].i] = sl[j].cards[0]; break;
        }
    }
    if (s->taker >= 0 && player != s->taker && s->params[CC_NANCY_P_REVEAL_HOUND] == 0 &&
        !hound_hidden)
        o->hound.lo = o->hound.hi = 0;
    /* the Partner is whoever holds the called card in the sample */
    if (s->called >= 0 && !s->partner_revealed) {
        o->partner = -1;
        for (int32_t q = 0; q < n; q++)
            if (q != s->taker && has(cs_or(o->hand[q], o->up[q]), s->called)) o->partner = q;
    }
    for (int32_t i = 0; i < o->nev; i++)
        if (!(o->ev[i].seen_by & (1u << player))) o->ev[i].value = -1;
    return CC_OK;
}

/* TRANSITIONAL: the old check_params signature */
static int32_t n_check_params_t(const int32_t *params, int32_t nplayers, int32_t *bad) {
    (void)bad;
    return n_check_params(params, nplayers);
}

const cc_game cc_game_nancy = {
    .name = "nancy",
    .min_players = 2,
    .max_players = 6,
    .deck_size = 78,
    .num_params = NP,
    .state_size = sizeof(nstate),
    .check_params = n_check_params_t,
    .num_actions = n_num_actions,
    .tensor_size = n_tensor_size,
    .init = n_init,
    .current_player = n_current_player,
    .legal_actions = n_legal_actions,
    .verify = n_verify,
    .reason_text = n_reason_text,
    .apply = n_apply,
    .returns = n_returns,
    .observe_tensor = n_observe,
    .legacy_events = n_events,
    .sample_infoset = n_sample,
    .init_deck = n_init_deck,
};
