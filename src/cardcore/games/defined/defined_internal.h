/* defined_internal.h: the state of a defined game and the registry's
 * tables, shared by defined_game.c (the interpreter and the registry),
 * defined_sample.c (the sampler) and defined_bot.c (the heuristic).
 * Private: the public API is cc_defined.h; the rules are in docs/define.rst. */
#ifndef DEFINED_INTERNAL_H
#define DEFINED_INTERNAL_H

#include "cc_defined.h"
#include "cc_internal.h"

#define DEF_MAXP CC_DEFINED_MAX_PLAYERS
#define DEF_PH_PASS 0
#define DEF_PH_BID 1
#define DEF_PH_PLAY 2
#define DEF_PH_OVER 3

typedef struct defined_state {
    int32_t slot; /* the definition's index in the registry */
    int32_t n;
    int32_t first_dealer; /* the rules parameter */
    int32_t phase;
    cc_rng rng;
    int32_t dealer, deal_no, to_act, hand_size;
    int32_t trump, turnup;        /* -1: none */
    uint64_t hand[DEF_MAXP];      /* unplayed cards (bit = card id) */
    uint64_t passed[DEF_MAXP];    /* cards each seat passed this deal */
    uint64_t received[DEF_MAXP];  /* cards each seat received this deal */
    uint64_t played_by[DEF_MAXP]; /* cards each seat played this deal */
    uint64_t gone;                /* cards played this deal (the trick's too) */
    uint32_t voids[DEF_MAXP];     /* suits a seat has shown it lacks (bit s) */
    int32_t passers_done;         /* seats done passing */
    int32_t bid[DEF_MAXP];        /* -1: not yet */
    int32_t nbids;
    int32_t trick[DEF_MAXP]; /* card of each seat on the trick, -1 */
    int32_t leader, ntrick, lead_suit, trick_no;
    int32_t broken;
    int32_t tricks[DEF_MAXP], points[DEF_MAXP], point_cards[DEF_MAXP]; /* this deal */
    int32_t score[DEF_MAXP], bags[DEF_MAXP];
    int32_t nstack; /* cards of a stacked first deal (0: shuffled) */
    uint8_t stack[CC_NUM_CARDS52];
    CC_LOG_MEMBERS(CC_DEFINED_LOG_CAP);
} defined_state;

CC_LOG_LAYOUT(defined_state);

/* The definition of a registered slot (registry, defined_game.c). */
const int32_t *cc_defined_table(int32_t slot);

static inline const int32_t *def_table(const defined_state *s) { return cc_defined_table(s->slot); }
static inline int32_t def_suit(int32_t c) { return c / 13; }
static inline int32_t def_rank(int32_t c) { return c % 13; }
static inline uint64_t def_bit(int32_t c) { return (uint64_t)1 << c; }
static inline uint64_t def_suit_mask(int32_t s) { return (uint64_t)0x1FFF << (13 * s); }
/* The cards of the definition's deck. */
static inline uint64_t def_deck(const int32_t *T) {
    uint64_t lane = (uint64_t)(uint32_t)T[CC_DEFINED_F_RANKS] & 0x1FFF;
    return lane | lane << 13 | lane << 26 | lane << 39;
}
/* The cards that carry points. */
static inline uint64_t def_point_cards(const int32_t *T) {
    uint64_t m = 0;
    for (int32_t c = 0; c < 52; c++)
        if (T[CC_DEFINED_F_CARD_POINTS + c] != 0) m |= def_bit(c);
    return m & def_deck(T);
}
static inline int32_t def_side(const int32_t *T, int32_t seat) {
    return T[CC_DEFINED_F_PARTNERS] ? (seat & 1) : seat;
}
/* Trick strength of card c with led suit led and trump suit trump (-1 none):
 * 0 for a card that cannot win. */
static inline int32_t def_strength(const int32_t *T, int32_t c, int32_t led, int32_t trump) {
    int32_t s = def_suit(c), r = T[CC_DEFINED_F_RANK_ORDER + def_rank(c)];
    if (s == trump) return 100 + r;
    if (s == led) return 1 + r;
    return 0;
}
/* The seat winning the current trick so far (ntrick >= 1). */
static inline int32_t def_trick_winner(const defined_state *s, const int32_t *T) {
    int32_t best = -1, who = s->leader;
    for (int32_t k = 0; k < s->ntrick; k++) {
        int32_t q = (s->leader + k) % s->n;
        int32_t v = def_strength(T, s->trick[q], s->lead_suit, s->trump);
        if (v > best) best = v, who = q;
    }
    return who;
}

/* The legal cards of the player to act in the play phase (a bitset). */
uint64_t cc_defined_legal_cards(const defined_state *s);
int32_t cc_defined_sample_infoset(const void *state, int32_t player, uint64_t seed, void *out);
/* The sampler in two phases (cardcore.h) and the scratch it needs. */
int32_t cc_defined_sample_prepare(const void *state, int32_t player, void *scratch, size_t cap);
int32_t cc_defined_sample_draw(const void *state, void *scratch, uint64_t seed, void *out);
extern const size_t cc_defined_sample_scratch;

#endif /* DEFINED_INTERNAL_H */
