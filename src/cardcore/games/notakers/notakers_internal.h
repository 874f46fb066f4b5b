/* notakers_internal.h: the No Takers? state, shared by notakers_game.c (the game),
 * notakers_observe.c (the observation tensor), notakers_sample.c (the sampler) and
 * notakers_bot.c (the heuristic).  Private: the public API is
 * cc_notakers.h; the rules are in docs/notakers.rst. */
#ifndef NOTAKERS_INTERNAL_H
#define NOTAKERS_INTERNAL_H

#include "cc_internal.h"
#include "cc_notakers.h"

typedef struct nt_state {
    int32_t params[CC_NOTAKERS_NUM_PARAMS];
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
    int32_t cancels;   /* Saves cancelled this turn (2: no more Save this turn) */
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
    CC_LOG_MEMBERS(CC_NOTAKERS_LOG_CAPACITY);
} nt_state;
CC_LOG_LAYOUT(nt_state);

/* The sampler (notakers_sample.c), the table's sample_infoset; the
 * heuristic is public (cc_notakers.h). */
int32_t cc_notakers_sample_infoset(const void *state, int32_t player, uint64_t seed, void *out);

/* The observation tensor (notakers_observe.c): the table's tensor_size,
 * segments and observe_tensor. */
int32_t cc_notakers_tensor_size(const int32_t *pr, int32_t n);
int32_t cc_notakers_segments(const int32_t *pr, int32_t n, cc_segment *out, int32_t cap);
int32_t cc_notakers_observe_tensor(const void *state, int32_t player, float *out);
/* Where the phase (one-hot) and the completed turns sit in the tensor. */
void cc_notakers_tensor_places(const int32_t *pr, int32_t n, int32_t *phase, int32_t *turns);

#endif /* NOTAKERS_INTERNAL_H */
