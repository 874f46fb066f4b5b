/* cc_internal.h: private inline helpers shared by the cardcore C files. */
#ifndef CC_INTERNAL_H
#define CC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cardcore.h"

/* The legal-action masks (CC_MASK_WORDS words of 64 bits) cover every
 * action id below CC_MAX_ACTIONS. */
_Static_assert(CC_MASK_WORDS * 64 >= CC_MAX_ACTIONS,
               "CC_MASK_WORDS words must cover CC_MAX_ACTIONS actions");

/* The first fields of every game's table (cardcore.h, cc_game): its size
 * and ABI version, for the designated initializer of the table. */
#define CC_GAME_HEADER .size = sizeof(cc_game), .abi = CC_ABI_VERSION

/* One child's value v in a min/max alpha-beta search (the exact solvers):
 * the maximizing (maxing) or minimizing side takes v into *best and
 * narrows its bound of the window; nonzero when the window is closed (the
 * other children need not be searched). */
static inline int cc_ab_take(int maxing, double v, double *best, double *alpha, double *beta) {
    if (maxing) {
        if (v > *best) *best = v;
        if (*best > *alpha) *alpha = *best;
    } else {
        if (v < *best) *best = v;
        if (*best < *beta) *beta = *best;
    }
    return *alpha >= *beta;
}

/* Population count: the instruction where the compiler targets it (the
 * build passes no -march, so on a generic x86-64 it does not), else the
 * SWAR sum below, inline (__builtin_popcountll would be a libgcc call).
 * Same result either way.  combos.c's batch kernels keep their own
 * runtime-dispatched popcnt paths. */
static inline int32_t cc_popcount64(uint64_t x) {
#if defined(__POPCNT__) || (defined(__aarch64__) && defined(__GNUC__))
    return (int32_t)__builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int32_t)((x * 0x0101010101010101ULL) >> 56);
#endif
}

/* The index of the lowest set bit of x.  x must not be 0 (undefined
 * behaviour in the builtin: every caller checks or knows it). */
static inline int32_t cc_ctz64(uint64_t x) { return (int32_t)__builtin_ctzll(x); }

/* The position of the k-th (0-based) set bit of x, 0 <= k < popcount(x):
 * the byte that holds it from the bytes' running counts (SWAR), then at
 * most 7 steps inside that byte. */
static inline int32_t cc_select64(uint64_t x, int32_t k) {
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t c = x - ((x >> 1) & 0x5555555555555555ULL);
    c = (c & 0x3333333333333333ULL) + ((c >> 2) & 0x3333333333333333ULL);
    c = (c + (c >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    uint64_t upto = c * ones; /* byte i: the set bits of bytes 0..i */
    /* the bytes whose running count is <= k (a prefix of the bytes) */
    uint64_t before = (((uint64_t)k * ones | highs) - upto) & highs;
    int32_t b = (int32_t)(((before >> 7) * ones) >> 56);
    k -= (int32_t)(((upto << 8) >> (8 * b)) & 0xFF);
    uint64_t v = (x >> (8 * b)) & 0xFF;
    for (; k > 0; k--) v &= v - 1;
    return 8 * b + cc_ctz64(v);
}

/* The k-th (0-based) set bit of the mask of nwords words mask[0..nwords-1]
 * (an action mask, cardcore.h), or -1 when k is not below its count. */
static inline int32_t cc_mask_select(const uint64_t *mask, int32_t nwords, int32_t k) {
    for (int32_t w = 0; w < nwords; w++) {
        uint64_t m = mask[w];
        if (m == 0) continue;
        int32_t c = cc_popcount64(m);
        if (k < c) return w * 64 + cc_select64(m, k);
        k -= c;
    }
    return -1;
}

/* The error of a verify status (cardcore.h, "the game table": CC_OK, a
 * reason > 0 that the action is illegal, or an error < 0): CC_OK, the error
 * itself, or `reason_error` for a reason.  (An apply status is CC_OK or an
 * error already, which this passes through.) */
static inline int32_t cc_status_error(int32_t status, int32_t reason_error) {
    return status < 0 ? status : status > 0 ? reason_error : CC_OK;
}

/* The generator, inline (cardcore.h, "random numbers"; the same sequence as
 * cc_rng_next and cc_rng_below, which call these): rng is not NULL. */
static inline uint64_t cc_rng_next_inline(cc_rng *rng) {
    uint64_t *s = rng->s;
    uint64_t x = s[1] * 5;
    uint64_t result = ((x << 7) | (x >> 57)) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return result;
}

/* cc_recip64[n] = floor((2^64 - 1) / n) for 1 <= n < CC_RECIP_N (rng.c). */
#define CC_RECIP_N 256
extern const uint64_t cc_recip64[CC_RECIP_N];

/* x mod n (n >= 1), exactly.  For n < CC_RECIP_N with 128-bit products:
 * q = floor(x * cc_recip64[n] / 2^64) is floor(x / n) or one less (the
 * reciprocal is below 2^64 / n by less than 1, and x < 2^64), so one
 * subtraction corrects the remainder: a multiplication instead of a
 * division.  Otherwise the % operator.  Same result either way. */
static inline uint64_t cc_mod64(uint64_t x, uint64_t n) {
#if defined(__SIZEOF_INT128__)
    if (n < CC_RECIP_N) {
        uint64_t q = (uint64_t)(((unsigned __int128)x * cc_recip64[n]) >> 64);
        uint64_t r = x - q * n;
        return r >= n ? r - n : r;
    }
#endif
    return x % n;
}

/* cc_rng_below for a generator that is not NULL: draw x until x >= 2^64 mod
 * n (an x >= n is kept without working out that bound, which is below n),
 * then x mod n. */
static inline uint64_t cc_rng_below_inline(cc_rng *rng, uint64_t n) {
    if (n <= 1) return 0;
    uint64_t x = cc_rng_next_inline(rng);
    if (x < n) {
        uint64_t threshold = (0 - n) % n; /* 2^64 mod n */
        while (x < threshold) x = cc_rng_next_inline(rng);
    }
    return cc_mod64(x, n);
}

/* 52-card ids and sets (cardcore.h, "Card layout"): id s * 13 + r, set bit
 * s * 16 + r; valid ids only. */
static inline int32_t cc_rank_of(int32_t id) { return id % 13; }
static inline int32_t cc_suit_of(int32_t id) { return id / 13; }
/* The pip value of a rank: Ace 1 .. Ten 10, the court cards 10. */
static inline int32_t cc_pip_of_rank(int32_t r) { return r >= 9 ? 10 : r + 1; }
static inline int32_t cc_pip_of(int32_t id) { return cc_pip_of_rank(cc_rank_of(id)); }
static inline uint64_t cc_bit_of(int32_t id) {
    return (uint64_t)1 << (16 * cc_suit_of(id) + cc_rank_of(id));
}
/* The cards of the ranks in rank_mask, in every suit. */
static inline uint64_t cc_lanes(uint32_t rank_mask) {
    return (uint64_t)rank_mask * 0x0001000100010001ULL;
}

/* The lowest pip value among cards (11, above every card, for none). */
static inline int32_t cc_min_pip(uint64_t cards) {
    uint32_t ranks = (uint32_t)(cards | cards >> 16 | cards >> 32 | cards >> 48) & 0x1FFFu;
    return ranks ? cc_pip_of_rank(cc_ctz64(ranks)) : 11;
}

/* Lane of suit s (13 rank bits) of a 52-card set. */
static inline uint32_t cc_lane(uint64_t cards, int32_t s) {
    return (uint32_t)(cards >> (16 * s)) & 0x1FFFu;
}

static inline int32_t cc_card52_id_of_bit(int32_t bit) { return (bit >> 4) * 13 + (bit & 15); }

static inline void cc_mask_set(uint64_t *mask, int32_t a) {
    mask[a >> 6] |= (uint64_t)1 << (a & 63);
}

/* A muted log (cc_log_mute): the state is a search's private copy, whose
 * events nobody reads.  Unobserved as well: nothing samples from it,
 * observes it or reads its knowledge of hidden cards (random rollouts), so
 * a game may skip there what it keeps only for those. */
static inline int32_t cc_log_muted(const cc_log *log) { return log->muted != 0; }
static inline int32_t cc_log_unobserved(const cc_log *log) {
    return (log->muted & CC_LOG_UNOBSERVED) != 0;
}
/* Trusted as well: every action applied to the state is one its
 * legal_actions has just reported, so apply may skip verifying it. */
static inline int32_t cc_log_trusted(const cc_log *log) {
    return (log->muted & CC_LOG_TRUSTED) != 0;
}

/* The one walk over a log's kept events, oldest first (log.c): what every
 * reader of a log uses (cc_game_events, cc_log_at, the samplers' rewriting
 * of their copy's log).  cc_log_walk_from(log, i) starts at the i-th kept
 * event (none past the last; log not NULL); each cc_log_walk_next gives the
 * slot of the next one in the log's entries (cc_log_entries), or -1 at the
 * end, and leaves w.number at that event's number (0 for the first event
 * ever logged, as log.total counts them).  A slot walk serves a const log
 * and a state's copy (the same slots) alike. */
typedef struct cc_log_walk {
    int64_t number;   /* the event number of the slot last given */
    int32_t slot;     /* the slot the next step gives */
    int32_t left;     /* the steps left */
    int32_t capacity; /* the log's */
} cc_log_walk;

cc_log_walk cc_log_walk_from(const cc_log *log, int32_t i);

static inline int32_t cc_log_walk_next(cc_log_walk *w) {
    if (w->left <= 0) return -1;
    int32_t slot = w->slot;
    if (++w->slot >= w->capacity) w->slot = 0;
    w->left--;
    w->number++;
    return slot;
}

/* The entries of a log (its ring, CC_LOG_MEMBERS), by slot. */
static inline cc_log_entry *cc_log_entries(cc_log *log) {
    return (cc_log_entry *)(void *)(log + 1);
}
static inline const cc_log_entry *cc_log_entries_const(const cc_log *log) {
    return (const cc_log_entry *)(const void *)(log + 1);
}

/* cc_log_push, without a call when the log is muted: what games log with. */
static inline void cc_log_event(cc_log *log, int32_t kind, int32_t player, int32_t target,
                                int32_t value, int32_t extra, uint32_t seen_by) {
    if (!log->muted) cc_log_push(log, kind, player, target, value, extra, seen_by);
}

/* The last members of every game state: its event log, a cc_log header and
 * its entries (cardcore.h, "the event log").  Declare the state as
 *     typedef struct { ...; CC_LOG_MEMBERS(CAP); } my_state;
 * and check the layout with CC_LOG_LAYOUT(my_state), then fill the table's
 * log_offset = offsetof(my_state, log) and log_capacity = CAP. */
#define CC_LOG_MEMBERS(cap) \
    cc_log log;             \
    cc_log_entry log_entries[cap]
#define CC_LOG_LAYOUT(type)                                                                        \
    _Static_assert(offsetof(type, log_entries) == offsetof(type, log) + sizeof(cc_log),            \
                   #type ": log entries must follow the log header");                              \
    _Static_assert(sizeof(type) == offsetof(type, log_entries) + sizeof(((type *)0)->log_entries), \
                   #type ": the log must come last")

/* ---- shared by the games' files --------------------------------------------- */

/* 1 if deck[0 .. ndeck-1] is a permutation of the card ids 0 .. n-1
 * (n <= 128): what init_deck asks of a stacked deck.  0 for a NULL deck. */
static inline int32_t cc_deck_is_permutation(const uint8_t *deck, int32_t ndeck, int32_t n) {
    if (deck == NULL || ndeck != n) return 0;
    uint64_t seen[2] = {0, 0};
    for (int32_t i = 0; i < n; i++) {
        int32_t c = deck[i];
        if (c >= n || (seen[c >> 6] >> (c & 63) & 1)) return 0;
        seen[c >> 6] |= (uint64_t)1 << (c & 63);
    }
    return 1;
}

/* The one partial Fisher-Yates shuffle of the engine (rng.c): k steps over
 * a[0 .. n-1] (0 <= k <= n; rng and, for k > 0, a not NULL), step i drawing
 * r = cc_rng_below(n - i).  From the front (from_top 0), step i swaps a[i]
 * and a[i + r]: a[0 .. k-1] ends as a uniform k-subset in uniform order.
 * From the top (from_top 1), step i swaps a[n-1-i] and a[r], as a whole
 * shuffle (cc_rng_shuffle_u8, the first k of its steps) does: the subset is
 * a[n-k .. n-1], drawn from the top down.  The samplers, the deals and
 * cc_random_hands draw their subsets with it, each in its own direction
 * (the direction is part of every game's output). */
void cc_rng_partial_shuffle(cc_rng *rng, uint8_t *a, int32_t n, int32_t k, int32_t from_top);

/* The next card of a stock of n cards dealt from its end, deck[0 .. n-1-*top]
 * (*top counts the cards dealt): unless stacked, shuffled lazily, one
 * Fisher-Yates step a card. */
static inline int32_t cc_deal_next(uint8_t *deck, int32_t n, int32_t *top, int32_t stacked,
                                   cc_rng *rng) {
    int32_t left = n - *top;
    if (!stacked) cc_rng_partial_shuffle(rng, deck, left, 1, 1);
    (*top)++;
    return deck[left - 1];
}

/* 1.0f at out[id] for each card id of the 52-card set cards (the card
 * segments of an observation tensor). */
static inline void cc_one_hot_cards52(float *out, uint64_t cards) {
    while (cards) {
        out[cc_card52_id_of_bit(cc_ctz64(cards))] = 1.0f;
        cards &= cards - 1;
    }
}

/* Append the n segments segs to a table's segments answer out[0 .. cap-1]
 * (cardcore.h, "the game table"), which holds count so far: those past cap
 * (or all, for a NULL out) are counted, not written.  Returns count + n. */
static inline int32_t cc_segments_put(cc_segment *out, int32_t cap, int32_t count,
                                      const cc_segment *segs, int32_t n) {
    for (int32_t i = 0; i < n; i++, count++)
        if (out != NULL && count < cap) out[count] = segs[i];
    return count;
}

/* A heuristic's choice of the best candidate, ties broken by the generator
 * (each of k tied candidates kept with probability 1/k).  Start with
 * CC_CHOOSER_INIT, offer every candidate to cc_choose; pick stays -1 when
 * none was offered. */
typedef struct cc_chooser {
    int64_t best;
    int32_t pick;
    uint64_t ties;
} cc_chooser;
#define CC_CHOOSER_INIT {0, -1, 0}

/* Offer candidate c (>= 0) of value v: higher is better. */
static inline void cc_choose(cc_chooser *ch, int32_t c, int64_t v, cc_rng *rng) {
    if (ch->pick < 0 || v > ch->best) {
        ch->best = v;
        ch->pick = c;
        ch->ties = 1;
    } else if (v == ch->best && cc_rng_below(rng, ++ch->ties) == 0) {
        ch->pick = c;
    }
}

/* a if it is set in the action mask of nwords words, else the mask's first
 * action (a itself when none is set): a heuristic's last resort. */
static inline int32_t cc_mask_or_first(const uint64_t *mask, int32_t nwords, int32_t a) {
    if (a >= 0 && a < 64 * nwords && (mask[a >> 6] >> (a & 63) & 1)) return a;
    int32_t first = cc_mask_select(mask, nwords, 0);
    return first >= 0 ? first : a;
}

#endif
