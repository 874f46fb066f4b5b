/* notakers_split.c: the exact best split of No Takers? (docs/notakers.rst, scoring).
 *
 * Maximum points: a dynamic program over the ranks in run order (the
 * "sequence": A..K for ace_in_runs low, 2..K,A for high, A,2..K,A for
 * both) whose state is each suit's open-run length (0, 1, 2, or 3 meaning
 * "3 or more"; a run of 3 or more scores one point per card, so longer
 * lengths need no state).  At each position the cards not used in runs
 * form one same-rank set: f(c) points for c cards (0 0 1 2 5).  Only suits
 * with a stretch of 3 consecutive cards take part (their state space is
 * 4^k), and only over the positions those stretches span.  For both, each
 * Ace stands once in the sequence: at the bottom if it starts a low run,
 * else at the top; every choice of low-run Aces is tried (at most 16).
 *
 * Best key among the best splits: sets of list position >= 3 (runs and
 * fours) are unique given their descriptor, and a split never holds two
 * sets with the same descriptor.  So the best key is built greedily: scan
 * all such candidate sets in descending descriptor order and keep a
 * candidate S of the remaining cards R when points(S) + best(R - S) equals
 * best(R).  The greedy's first pick is the highest descriptor of any best
 * split, and a set rejected once is never part of a best split later.
 * When no candidate is left, every best split of R is made of pairs and
 * trips only, so it is forced: each rank's remaining cards (2 or 3) form
 * one set.
 */
#include "cc_notakers.h"

#include <stdlib.h>

#include "cc_internal.h"

#define NT_NEG (-(1 << 24))

static const int32_t F_POINTS[5] = {0, 0, 1, 2, 5};
static const int32_t F_COVER[5] = {0, NT_NEG, 1, 2, 5};

/* Tie-break strength of engine suit s (C D H S) and its inverse. */
static const int32_t SUIT_STRENGTH[4] = {0, 2, 3, 1};
static const int32_t STRENGTH_SUIT[4] = {0, 3, 1, 2};

static inline int32_t nt_max(int32_t a, int32_t b) { return a > b ? a : b; }

/* Sum of f(count) over positions, for cards used in same-rank sets only. */
static int32_t nt_rank_sets(const uint32_t lanes[4], uint32_t mask, const int32_t *f) {
    uint32_t a = lanes[0] & mask, b = lanes[1] & mask, c = lanes[2] & mask, d = lanes[3] & mask;
    if (f == F_POINTS) {
        uint32_t ge2 = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d);
        uint32_t ge3 = (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d);
        uint32_t eq4 = a & b & c & d;
        return cc_popcount64(ge2) + cc_popcount64(ge3) + 3 * cc_popcount64(eq4);
    }
    uint32_t ge1 = a | b | c | d;
    uint32_t ge2 = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d);
    uint32_t ge3 = (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d);
    uint32_t eq4 = a & b & c & d;
    int32_t n1 = cc_popcount64(ge1 & ~ge2), n2 = cc_popcount64(ge2 & ~ge3),
            n3 = cc_popcount64(ge3 & ~eq4), n4 = cc_popcount64(eq4);
    return n1 * f[1] + n2 * f[2] + n3 * f[3] + n4 * f[4];
}

/* The next submask of m after t (0 after the last): all submasks of m,
 * from 0 up, are t = 0, next(t), ... */
static inline uint32_t nt_next_sub(uint32_t t, uint32_t m) { return (t - m) & m; }

/* The DP over the positions lo..hi of one block (see nt_dp) for its k
 * suits act[]: the best value of the block's cards, or below NT_NEG / 2
 * if none (a card left alone under F_COVER).  The state t holds a 2-bit
 * run length per suit (coordinate i at bits 2i, 2i+1); only the suits with
 * a stretch card at the current position can have a nonzero length, so V
 * is kept on the submasks of `live` (their coordinates) alone. */
static int32_t nt_dp_block(const uint32_t lanes[4], const uint32_t elig[4], const int32_t *act,
                           int32_t k, int32_t lo, int32_t hi, const int32_t *f) {
    int32_t V[256];
    uint32_t live = 0;
    V[0] = 0;
    for (int32_t j = lo; j <= hi; j++) {
        uint32_t bit = 1u << j;
        int32_t base = 0, nam = 0;
        uint32_t amf = 0; /* the coordinates of the suits with a stretch card at j */
        for (int32_t s = 0; s < 4; s++)
            if (lanes[s] & ~elig[s] & bit) base++;
        for (int32_t i = 0; i < k; i++)
            if (elig[act[i]] & bit) {
                amf |= 3u << (2 * i);
                nam++;
            }
        for (int32_t i = 0; i < k; i++) {
            uint32_t w = 1u << (2 * i), fld = 3u * w;
            if ((live & fld) && !(amf & fld)) { /* the suit's run must be over */
                uint32_t rest = live & ~fld, t = 0;
                do {
                    V[t] = nt_max(V[t], V[t + fld]);
                    t = nt_next_sub(t, rest);
                } while (t);
                live = rest;
            } else if (live & fld) { /* no card in a run, start, go on, or reach 3 */
                uint32_t rest = live & ~fld, t = 0;
                do {
                    int32_t *p = V + t;
                    int32_t v0 = p[0], v1 = p[w], v2 = p[2 * w], v3 = p[3 * w];
                    p[0] = nt_max(v0, v3);
                    p[w] = v0;
                    p[2 * w] = v1;
                    p[3 * w] = nt_max(v2 + 3, v3 + 1);
                    t = nt_next_sub(t, rest);
                } while (t);
            } else if (amf & fld) { /* length 0 so far: stay out or start */
                uint32_t t = 0;
                do {
                    V[t + w] = V[t];
                    V[t + 2 * w] = NT_NEG;
                    V[t + 3 * w] = NT_NEG;
                    t = nt_next_sub(t, live);
                } while (t);
                live |= fld;
            }
        }
        /* the cards at j outside runs make one same-rank set */
        int32_t add[5];
        for (int32_t z = 0; z <= nam; z++) add[z] = f[base + z];
        uint32_t t = 0;
        do {
            uint32_t nonzero = (t | (t >> 1)) & 0x55u;
            V[t] += add[nam - cc_popcount64(nonzero)];
            t = nt_next_sub(t, live);
        } while (t);
    }
    /* every run finished: each length 0 or 3 */
    int32_t best = NT_NEG;
    uint32_t t = 0;
    do {
        if ((((t ^ (t >> 1)) & 0x55u) == 0)) best = nt_max(best, V[t]);
        t = nt_next_sub(t, live);
    } while (t);
    return best;
}

/* The DP over m sequence positions; lanes[s] bit j = the card of suit s at
 * position j (each card at exactly one position).  Positions where no suit
 * has a card of a 3-card stretch hold rank sets only, and split the others
 * into blocks that no run crosses: each block is a DP of its own over the
 * suits with a stretch in it (most blocks have one or two). */
static int32_t nt_dp(const uint32_t lanes[4], int32_t m, const int32_t *f) {
    uint32_t full = (1u << m) - 1u;
    uint32_t elig[4], any = 0;
    for (int32_t s = 0; s < 4; s++) {
        uint32_t x = lanes[s];
        uint32_t e = x & (x >> 1) & (x >> 2);
        uint32_t el = (e | (e << 1) | (e << 2)) & full;
        elig[s] = el;
        any |= el;
    }
    int32_t total = nt_rank_sets(lanes, full & ~any, f);
    if (total < NT_NEG / 2) return NT_NEG;
    uint32_t rest = any;
    while (rest) {
        int32_t lo = cc_ctz64(rest);
        uint32_t run = rest >> lo;
        int32_t len = cc_ctz64(~(uint64_t)run);
        int32_t hi = lo + len - 1;
        uint32_t block = (len >= 32 ? 0xFFFFFFFFu : ((1u << len) - 1u)) << lo;
        rest &= ~block;
        int32_t act[4], k = 0;
        for (int32_t s = 0; s < 4; s++)
            if (elig[s] & block) act[k++] = s;
        int32_t best = nt_dp_block(lanes, elig, act, k, lo, hi, f);
        if (best < NT_NEG / 2) return NT_NEG;
        total += best;
    }
    return total;
}

/* Best value over the sequence for an ace mode (cards already validated). */
static int32_t nt_best(uint64_t cards, int32_t ace, const int32_t *f) {
    uint32_t l[4];
    for (int32_t s = 0; s < 4; s++) l[s] = cc_lane(cards, s);
    if (ace == CC_NOTAKERS_ACE_LOW) return nt_dp(l, 13, f);
    if (ace == CC_NOTAKERS_ACE_HIGH) {
        uint32_t h[4];
        for (int32_t s = 0; s < 4; s++) h[s] = (l[s] >> 1) | ((l[s] & 1u) << 12);
        return nt_dp(h, 13, f);
    }
    /* both: aces able to start a low run (A, 2, 3 of their suit held) */
    uint32_t cand = 0;
    for (int32_t s = 0; s < 4; s++)
        if ((l[s] & 7u) == 7u) cand |= 1u << s;
    int32_t best = NT_NEG;
    uint32_t sub = cand;
    for (;;) {
        uint32_t b[4];
        for (int32_t s = 0; s < 4; s++) {
            uint32_t mid = l[s] & 0x1FFEu;
            uint32_t ace_bit = l[s] & 1u;
            if (ace_bit && ((sub >> s) & 1u)) mid |= 1u;
            else if (ace_bit) mid |= 1u << 13;
            b[s] = mid;
        }
        best = nt_max(best, nt_dp(b, 14, f));
        if (sub == 0) break;
        sub = (sub - 1u) & cand;
    }
    return best;
}

static int32_t nt_check(uint64_t cards, int32_t ace) {
    if (cards & ~CC_DECK52_MASK) return CC_E_CARDS;
    if (ace < CC_NOTAKERS_ACE_LOW || ace > CC_NOTAKERS_ACE_BOTH) return CC_E_ARG;
    return CC_OK;
}

int32_t cc_notakers_points(uint64_t cards, int32_t ace_in_runs) {
    int32_t rc = nt_check(cards, ace_in_runs);
    if (rc != CC_OK) return rc;
    return nt_best(cards, ace_in_runs, F_POINTS);
}

int32_t cc_notakers_splits_exactly(uint64_t cards, int32_t ace_in_runs) {
    int32_t rc = nt_check(cards, ace_in_runs);
    if (rc != CC_OK) return rc;
    return nt_best(cards, ace_in_runs, F_COVER) >= 0 ? 1 : 0;
}

int32_t cc_notakers_batch_points(const uint64_t *cards, int64_t n, int32_t ace_in_runs,
                                 int32_t *out, int64_t *bad_index) {
    if (n < 0 || (n > 0 && (cards == NULL || out == NULL))) return CC_E_ARG;
    if (ace_in_runs < CC_NOTAKERS_ACE_LOW || ace_in_runs > CC_NOTAKERS_ACE_BOTH) return CC_E_ARG;
    for (int64_t i = 0; i < n; i++) {
        if (cards[i] & ~CC_DECK52_MASK) {
            if (bad_index) *bad_index = i;
            return CC_E_CARDS;
        }
        out[i] = nt_best(cards[i], ace_in_runs, F_POINTS);
    }
    return CC_OK;
}

/* ---- the best key ------------------------------------------------------ */

typedef struct nt_cand {
    uint64_t cards;
    int32_t descriptor;
    int32_t points;
    int32_t position;
    int32_t top;
    int32_t suit;
    int32_t kind;
} nt_cand;

#define NT_MAX_CANDS 352

static int32_t nt_descriptor(int32_t position, int32_t top, int32_t suit) {
    return position * 64 + top * 4 + SUIT_STRENGTH[suit];
}

/* Engine rank of sequence position j in an ace mode. */
static int32_t nt_pos_rank(int32_t ace, int32_t j) {
    if (ace == CC_NOTAKERS_ACE_LOW) return j;
    if (ace == CC_NOTAKERS_ACE_HIGH) return j == 12 ? 0 : j + 1;
    return j == 13 ? 0 : j;
}

static int nt_cand_cmp(const void *a, const void *b) {
    int32_t da = ((const nt_cand *)a)->descriptor, db = ((const nt_cand *)b)->descriptor;
    return (da < db) - (da > db); /* descending */
}

static int32_t nt_rankset_top(int32_t r, int32_t tiebreak_ace) {
    if (r == 0) return tiebreak_ace == CC_NOTAKERS_TIEBREAK_ACE_HIGH ? 14 : 1;
    return r + 1;
}

int32_t cc_notakers_best_split(uint64_t cards, int32_t ace_in_runs, int32_t tiebreak_ace,
                               cc_notakers_split *out) {
    int32_t rc = nt_check(cards, ace_in_runs);
    if (rc != CC_OK) return rc;
    if (out == NULL || tiebreak_ace < CC_NOTAKERS_TIEBREAK_ACE_HIGH ||
        tiebreak_ace > CC_NOTAKERS_TIEBREAK_ACE_LOW)
        return CC_E_ARG;
    memset(out, 0, sizeof *out);
    nt_cand cand[NT_MAX_CANDS];
    int32_t nc = 0;
    int32_t m = ace_in_runs == CC_NOTAKERS_ACE_BOTH ? 14 : 13;
    int32_t top_offset = ace_in_runs == CC_NOTAKERS_ACE_HIGH ? 2 : 1;
    for (int32_t s = 0; s < 4; s++) {
        uint32_t lane = cc_lane(cards, s);
        uint32_t seq = 0;
        for (int32_t j = 0; j < m; j++)
            if ((lane >> nt_pos_rank(ace_in_runs, j)) & 1u) seq |= 1u << j;
        for (int32_t a = 0; a + 2 < m; a++) {
            if (!((seq >> a) & 1u)) continue;
            uint64_t run = 0;
            for (int32_t e = a; e < m && ((seq >> e) & 1u); e++) {
                if (a == 0 && e == 13) break; /* both: one Ace cannot stand twice */
                run |= (uint64_t)1 << (16 * s + nt_pos_rank(ace_in_runs, e));
                int32_t len = e - a + 1;
                if (len < 3) continue;
                nt_cand *c = &cand[nc++];
                c->cards = run;
                c->kind = CC_NOTAKERS_SET_RUN;
                c->points = len;
                c->position = len >= 5 ? len + 1 : len;
                c->top = e + top_offset;
                c->suit = s;
                c->descriptor = nt_descriptor(c->position, c->top, s);
            }
        }
    }
    for (int32_t r = 0; r < 13; r++) {
        uint64_t four = 0x0001000100010001ULL << r;
        if ((cards & four) != four) continue;
        nt_cand *c = &cand[nc++];
        c->cards = four;
        c->kind = CC_NOTAKERS_SET_FOUR;
        c->points = 5;
        c->position = 5;
        c->top = nt_rankset_top(r, tiebreak_ace);
        c->suit = 2;
        c->descriptor = nt_descriptor(5, c->top, 2);
    }
    qsort(cand, (size_t)nc, sizeof cand[0], nt_cand_cmp);

    uint64_t rest = cards;
    int32_t target = nt_best(rest, ace_in_runs, F_POINTS);
    out->points = target;
    int32_t ns = 0;
    for (int32_t i = 0; i < nc && target > 0; i++) {
        const nt_cand *c = &cand[i];
        if ((rest & c->cards) != c->cards) continue;
        if (c->points + nt_best(rest & ~c->cards, ace_in_runs, F_POINTS) != target) continue;
        cc_notakers_set *o = &out->sets[ns++];
        o->cards = c->cards;
        o->kind = c->kind;
        o->points = c->points;
        o->position = c->position;
        o->top = c->top;
        o->suit = c->suit;
        o->descriptor = c->descriptor;
        rest &= ~c->cards;
        target -= c->points;
    }
    /* The forced tail: one pair or trips per rank of what is left. */
    int32_t tail_start = ns;
    for (int32_t r = 0; r < 13 && target > 0; r++) {
        uint64_t of_rank = rest & (0x0001000100010001ULL << r);
        int32_t cnt = cc_popcount64(of_rank);
        if (cnt < 2) continue;
        int32_t strongest = -1;
        for (int32_t s = 0; s < 4; s++)
            if ((of_rank >> (16 * s + r)) & 1u) strongest = nt_max(strongest, SUIT_STRENGTH[s]);
        cc_notakers_set *o = &out->sets[ns++];
        o->cards = of_rank;
        o->kind = cnt == 2   ? CC_NOTAKERS_SET_PAIR
                  : cnt == 3 ? CC_NOTAKERS_SET_TRIPS
                             : CC_NOTAKERS_SET_FOUR;
        o->points = F_POINTS[cnt];
        o->position = cnt == 4 ? 5 : cnt - 1;
        o->top = nt_rankset_top(r, tiebreak_ace);
        o->suit = STRENGTH_SUIT[strongest];
        o->descriptor = nt_descriptor(o->position, o->top, o->suit);
        target -= o->points;
    }
    /* sort the tail by descriptor, descending (insertion sort, <= 13 sets) */
    for (int32_t i = tail_start + 1; i < ns; i++) {
        cc_notakers_set x = out->sets[i];
        int32_t j = i - 1;
        while (j >= tail_start && out->sets[j].descriptor < x.descriptor) {
            out->sets[j + 1] = out->sets[j];
            j--;
        }
        out->sets[j + 1] = x;
    }
    out->nsets = ns;
    return target == 0 ? CC_OK : CC_E_ARG;
}

int32_t cc_notakers_compare(const cc_notakers_split *a, const cc_notakers_split *b) {
    if (a == NULL || b == NULL) return (a != NULL) - (b != NULL); /* NULL: below any split */
    if (a->points != b->points) return a->points > b->points ? 1 : -1;
    int32_t n = a->nsets < b->nsets ? a->nsets : b->nsets;
    if (n > CC_NOTAKERS_MAX_SETS) n = CC_NOTAKERS_MAX_SETS; /* the sets a split can hold */
    for (int32_t i = 0; i < n; i++) {
        int32_t da = a->sets[i].descriptor, db = b->sets[i].descriptor;
        if (da != db) return da > db ? 1 : -1;
    }
    if (a->nsets != b->nsets) return a->nsets > b->nsets ? 1 : -1;
    return 0;
}
