/* nancy_internal.h: what the Nancy C files share (private; the public API is
 * cc_nancy.h).  The rules are in docs/nancy.rst.
 *
 *   nancy_rules.c   legal cards, trick winner, objectives, scoring and
 *                   settlement, and their batch kernels
 *   nancy_game.c    the game table: deal, bidding, call, discard, play,
 *                   Outsider exchange, results, observation
 *   nancy_sample.c  the information-set sampler
 *   nancy_solve.c   the exact solver of the trick play
 *
 * Card sets are two words (lo, hi) in the Nancy layout of cardcore.h.
 */
#ifndef NANCY_INTERNAL_H
#define NANCY_INTERNAL_H

#include "cc_internal.h"
#include "cc_nancy.h"

#define CC_NANCY_MAX_PLAYERS 6
#define CC_NANCY_LOG_CAP 320
#define CC_NANCY_OUTSIDER 77
#define CC_NANCY_LANE 0x3FFFull                 /* the 14 ranks of one suit */
#define CC_NANCY_FACES_LO 0x3C003C003C003C00ull /* ranks 10..13 (J C Q K) of every suit */
#define CC_NANCY_KINGS_LO 0x2000200020002000ull
#define CC_NANCY_TRUMPS_HI 0x3FFFFEull     /* trumps I..XXI */
#define CC_NANCY_MID_TRUMPS_HI 0x1FFFFCull /* trumps II..XX */

enum { CC_NANCY_PILE_NANCY = 0, CC_NANCY_PILE_OPP = 1 };

typedef struct cc_nancy_cards {
    uint64_t lo, hi;
} cc_nancy_cards;

typedef struct cc_nancy_state {
    int32_t params[CC_NANCY_NUM_PARAMS];
    int32_t n, each, hsize, packet, rounds_total;
    int32_t phase, cur, dealer, rounds_done, thrown_in;
    cc_rng rng;
    cc_nancy_cards hand[CC_NANCY_MAX_PLAYERS], up[CC_NANCY_MAX_PLAYERS];
    int8_t ptop[2][8], pbot[2][8]; /* 2 players: table piles (-1 none) */
    uint8_t flip_pending[2];
    cc_nancy_cards hound;
    int8_t bid[CC_NANCY_MAX_PLAYERS]; /* -1 not yet, 0 passed, 1..9 */
    int32_t high_bid, high_bidder, nacted;
    uint32_t passed;
    int32_t taker, partner, called, partner_revealed;
    uint32_t required_taker_ranks; /* ladder ranks the Taker held all of */
    int32_t call_free; /* face-down cards of the Taker at the call + Hound, less required ones */
    cc_nancy_cards discards, shown,
        disc_public;     /* disc_public: shown trumps and face-up discards */
    cc_nancy_cards took; /* the Taker's face-down hand just after he took the Hound */
    int32_t ndisc;
    cc_nancy_cards pile[2];
    cc_nancy_cards played;
    int32_t leader, trick_n, trick_idx, last_winner;
    int8_t trick_card[CC_NANCY_MAX_PLAYERS], trick_player[CC_NANCY_MAX_PLAYERS];
    int32_t trick_led, trick_high; /* trick_summary of the trick so far */
    int32_t taker_won_all;
    int32_t out_player;
    int32_t debt, debt_from, debt_to, debt_winner, debt_owner;
    /* pending choice (phase PICK) */
    cc_nancy_cards pick_set;
    int32_t pick_from, pick_to, pick_deferred;
    int32_t chosen_pending, chosen;
    int32_t rule13; /* -1 not applied, 0 Taker loses, 1 Taker wins */
    uint8_t voids[CC_NANCY_MAX_PLAYERS];
    int8_t ceil[CC_NANCY_MAX_PLAYERS];
    int32_t scores[CC_NANCY_MAX_PLAYERS];
    /* for the sampler's log rewrite: log.total before this deal's first
     * event, and after the last event not seen by every player */
    int64_t deal_event, hidden_end;
    /* the event log comes last (cardcore.h, "the event log"); no rule and no
     * sampler reads it */
    CC_LOG_MEMBERS(CC_NANCY_LOG_CAP);
} cc_nancy_state;
CC_LOG_LAYOUT(cc_nancy_state);

/* ---- cards ------------------------------------------------------------- */

static inline int is_trump(int32_t c) { return c >= 56 && c <= 76; }

static inline cc_nancy_cards cs_bit(int32_t c) {
    cc_nancy_cards r = {0, 0};
    /* bit (c / 14) * 16 + c % 14 = c + 2 * (c / 14); for 0 <= c < 56,
     * c / 14 == (c * 37) >> 9 (tests/games/nancy/test_scoring.py checks every c) */
    if (c < 56) r.lo = (uint64_t)1 << ((uint32_t)c + 2u * (((uint32_t)c * 37u) >> 9));
    else if (c < 77) r.hi = (uint64_t)1 << (c - 55);
    else r.hi = 1;
    return r;
}

static inline int cs_has(cc_nancy_cards s, int32_t c) {
    cc_nancy_cards b = cs_bit(c);
    return ((s.lo & b.lo) | (s.hi & b.hi)) != 0;
}
static inline cc_nancy_cards cs_or(cc_nancy_cards a, cc_nancy_cards b) {
    cc_nancy_cards r = {a.lo | b.lo, a.hi | b.hi};
    return r;
}
static inline cc_nancy_cards cs_andnot(cc_nancy_cards a, cc_nancy_cards b) {
    cc_nancy_cards r = {a.lo & ~b.lo, a.hi & ~b.hi};
    return r;
}
static inline int cs_empty(cc_nancy_cards a) { return (a.lo | a.hi) == 0; }
static inline int cs_count(cc_nancy_cards a) { return cc_popcount64(a.lo) + cc_popcount64(a.hi); }
static inline void cs_add(cc_nancy_cards *s, int32_t c) { *s = cs_or(*s, cs_bit(c)); }
static inline void cs_del(cc_nancy_cards *s, int32_t c) { *s = cs_andnot(*s, cs_bit(c)); }

/* The k-th card (ascending id) of a set, -1 if none. */
static inline int32_t cs_nth(cc_nancy_cards s, int32_t k) {
    uint64_t lo = s.lo;
    while (lo) {
        int32_t b = cc_ctz64(lo);
        if (k-- == 0) return (b >> 4) * 14 + (b & 15);
        lo &= lo - 1;
    }
    uint64_t hi = s.hi & CC_NANCY_TRUMPS_HI;
    while (hi) {
        int32_t b = cc_ctz64(hi);
        if (k-- == 0) return 55 + b;
        hi &= hi - 1;
    }
    if ((s.hi & 1) && k == 0) return CC_NANCY_OUTSIDER;
    return -1;
}

static inline int is_face(int32_t c) { return c < 56 && c % 14 >= 10; }

static inline cc_nancy_cards rank_set(int32_t r) {
    cc_nancy_cards s = {0, 0};
    for (int32_t su = 0; su < 4; su++) s.lo |= (uint64_t)1 << (su * 16 + r);
    return s;
}

/* ---- trick rules (shared by the game and the batch kernels) ------------ */

/* Led suit (0..3, 4 = trumps, -1 none yet) and highest trump number. */
static inline void trick_summary(const int8_t *trick, int32_t k, int32_t *led, int32_t *high) {
    int32_t l = -1, h = 0;
    for (int32_t i = 0; i < k; i++) {
        int32_t c = trick[i];
        if (c == CC_NANCY_OUTSIDER) continue;
        if (l < 0) l = c < 56 ? c / 14 : 4;
        if (c >= 56 && c - 55 > h) h = c - 55;
    }
    *led = l;
    *high = h;
}

/* Rules 8 and 9 for holding p, led suit led (-1 none, 0..3, 4 trumps) and
 * highest trump high; written without data-dependent branches (it runs in
 * the batch kernel as well as in the game). */
static inline cc_nancy_cards legal_from(cc_nancy_cards p, int32_t led, int32_t high,
                                        int32_t overtrump) {
    uint64_t lane = (led >= 0 && led < 4) ? CC_NANCY_LANE << (16 * (led & 3)) : 0;
    uint64_t suit = p.lo & lane;
    uint64_t trumps = p.hi & CC_NANCY_TRUMPS_HI;
    uint64_t higher = trumps & ~((2ull << high) - 1);
    uint64_t excuse = p.hi & 1;
    uint64_t sel = (higher && (led < 4 || overtrump)) ? higher : trumps;
    int32_t anything = led < 0 || (!suit && !trumps);
    cc_nancy_cards r;
    r.lo = anything ? p.lo : suit;
    r.hi = anything ? p.hi : (suit ? excuse : sel | excuse);
    return r;
}

static inline int32_t winner_pos(const int8_t *trick, int32_t k) {
    int32_t led = -1, best = -1, bestv = -1;
    for (int32_t i = 0; i < k; i++) {
        int32_t c = trick[i];
        if (c == CC_NANCY_OUTSIDER) continue;
        int32_t v;
        if (c >= 56) {
            v = 100 + c;
            if (led < 0) led = 4;
        } else {
            if (led < 0) led = c / 14;
            v = (c / 14 == led) ? c % 14 : -1;
        }
        if (v > bestv) {
            bestv = v;
            best = i;
        }
    }
    return best;
}

/* Objectives 1..7 met by a Nancy (CC_NANCY_OBJ_* bits), unchecked. */
int32_t cc_nancy_objectives_of(cc_nancy_cards nc, int32_t arcane_mode);

/* What is legal (nancy_legal.c): the table's legal_actions, verify and
 * reason_text, and the cards the Taker may call (bits of the ranks the call
 * ladder shows he holds into *required_ranks). */
int32_t cc_nancy_legal_actions(const void *state, uint64_t *mask);
int32_t cc_nancy_verify(const void *state, int32_t a);
const char *cc_nancy_reason_text(int32_t reason);
cc_nancy_cards cc_nancy_callable(const cc_nancy_state *s, uint32_t *required_ranks);

/* The observation tensor (nancy_observe.c): the table's tensor_size,
 * segments and observe_tensor. */
int32_t cc_nancy_tensor_size(const int32_t *params, int32_t nplayers);
int32_t cc_nancy_segments(const int32_t *params, int32_t nplayers, cc_segment *out, int32_t cap);
int32_t cc_nancy_observe_tensor(const void *state, int32_t player, float *out);

/* The game table's sample_infoset (nancy_sample.c). */
int32_t cc_nancy_sample_infoset(const void *state, int32_t player, uint64_t seed, void *outp);
/* The game table's prepared sampler (nancy_sample.c, cardcore.h). */
#define CC_NANCY_SAMPLE_PREP_BYTES 16384 /* room for the prepared position */
#define CC_NANCY_SAMPLE_SCRATCH (CC_NANCY_SAMPLE_PREP_BYTES + sizeof(double) * (65536 + 32768))
int32_t cc_nancy_sample_prepare(const void *state, int32_t player, void *scratch, size_t cap);
int32_t cc_nancy_sample_draw(const void *state, void *scratch, uint64_t seed, void *outp);

/* The game table's exact solver of the play (nancy_solve.c). */
int32_t cc_nancy_solve_depth(const void *state);
int32_t cc_nancy_solve(const void *state, const double *win_table, int32_t win_target,
                       int64_t max_nodes, const volatile int32_t *stop, double *values,
                       int64_t *nodes);

/* ---- the information-set sampler (nancy_sample.c, nancy_sample_deal.c) -- */

/* The places whose cards a player cannot see (nancy_sample.c, "slots"). */
#define SLOT_MAX 20
typedef struct slot {
    int32_t kind; /* 0 hand of q, 1 hound, 2 discards, 3 table pile (q, i) */
    int32_t q, i, size;
    int32_t taker_side; /* the Taker's hand or discards */
    cc_nancy_cards allowed;
    int8_t cards[40];
    int32_t got;
} slot;

/* Groups of slots for stages 2 and 3: slots that admit the same cards form one
 * group (the Taker's slots only among themselves when a card is weighted);
 * a group's remaining room is one digit of a mixed-radix index into the
 * count table. */
typedef struct sgroups {
    int32_t ng, group[SLOT_MAX], gsize[SLOT_MAX], gtaker[SLOT_MAX];
    cc_nancy_cards gallowed[SLOT_MAX];
    int64_t stride[SLOT_MAX + 1];
} sgroups;

/* A uniform integer below n (1 <= n <= 2^32), exact (Lemire's multiply and
 * reject). */
static inline uint32_t below32(cc_rng *rng, uint32_t n) {
    uint64_t x = cc_rng_next(rng) >> 32;
    uint64_t m = x * n;
    if ((uint32_t)m < n) {
        uint32_t t = (uint32_t)(-n) % n;
        while ((uint32_t)m < t) {
            x = cc_rng_next(rng) >> 32;
            m = x * n;
        }
    }
    return (uint32_t)(m >> 32);
}

/* A count table kept between draws from one position (the prepared
 * sampler's scratch): f has room for cap entries (f NULL: none, the table is
 * worked out for each draw); state 0 until it is filled, then CC_OK or the
 * error its counting found. */
typedef struct table_cache {
    double *f;
    int64_t cap;
    int32_t state;
} table_cache;

/* Stage 2's relaxed problem (nancy_sample_deal.c, cc_nancy_relax_prepare). */
#ifndef NANCY_RELAX_ABOVE /* (overridden by tests/c/nancy_sampler_relaxed.c) */
#define NANCY_RELAX_ABOVE 32768
#endif
#ifndef NANCY_RELAX_TABLE
#define NANCY_RELAX_TABLE 32768
#endif
typedef struct relaxed {
    sgroups R;
    uint8_t order[78];
    uint32_t gm[78], wm[78];
    int32_t nfree, tries;
} relaxed;

/* The deal stages (nancy_sample_deal.c), each described there. */
int64_t cc_nancy_make_groups(const slot *sl, int32_t ns, int32_t weighted, sgroups *G);
int32_t cc_nancy_exact_deal(cc_rng *rng, slot *sl, int32_t ns, const sgroups *G,
                            const uint8_t *pool, const uint32_t *gmask, const uint32_t *wmask,
                            int32_t nu, int32_t nfree, double wt, int32_t tries, table_cache *tc);
int32_t cc_nancy_relax_prepare(int32_t ns, const sgroups *G, const uint8_t *pool,
                               const uint32_t *gmask, int32_t nu, int64_t tsize, relaxed *X);
int32_t cc_nancy_reject_deal(cc_rng *rng, slot *sl, int32_t ns, uint8_t *pool, int32_t nu,
                             const uint32_t *smask_of_card, int32_t wcard, int32_t H, int32_t M,
                             int64_t budget);

#endif /* NANCY_INTERNAL_H */
