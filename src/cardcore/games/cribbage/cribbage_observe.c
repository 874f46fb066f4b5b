/* cribbage_observe.c: the cribbage observation tensor (docs/cribbage.rst,
 * "Observation tensor"): its size, its named segments and the encoding of
 * a player's view. */
#include <string.h>

#include "cribbage_internal.h"

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

int32_t cc_cribbage_tensor_size(const int32_t *params, int32_t nplayers) {
    if (!valid_players(nplayers)) return CC_E_PLAYERS;
    return layout(params, nplayers).size;
}

int32_t cc_cribbage_segments(const int32_t *params, int32_t nplayers, cc_segment *out,
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
        {"scores", T_SCORES(n), n, CC_SEG_SEAT_NUMBERS, 1, 0, "the points of each seat's side"},
        {"held", T_HELD(n), n, CC_SEG_SEAT_NUMBERS, 1, 0, "the number of cards each seat holds"},
        {"to_act", T_TO_ACT(n), n, CC_SEG_SEAT, 1, 0, "the seat to act, None when over"},
        {"dealer", T_DEALER(n), n, CC_SEG_SEAT, 1, 0, "the dealer of this deal"},
        {"gone", T_GONE(n), n, CC_SEG_SEAT_NUMBERS, 1, 0, "1 if the seat said go this count"},
        {"phase", T_PHASE(n), 2, CC_SEG_ONE_HOT, 1, 0, "0 discarding, 1 the play; None when over"},
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
    int32_t count = cc_segments_put(out, cap, 0, segs, (int32_t)(sizeof segs / sizeof segs[0]));
    if (lay.partner >= 0) count = cc_segments_put(out, cap, count, partner, 1);
    if (lay.mug >= 0)
        count = cc_segments_put(out, cap, count, mug, (int32_t)(sizeof mug / sizeof mug[0]));
    return count;
}

int32_t cc_cribbage_observe_tensor(const void *state, int32_t player, float *out) {
    const cribbage_state *s = (const cribbage_state *)state;
    if (s == NULL || out == NULL || player < 0 || player >= s->n) return CC_E_ARG;
    int32_t n = s->n;
    tlayout lay = layout(s->params, n);
    memset(out, 0, sizeof(float) * (size_t)lay.size);
    int32_t me = s->pos_of[player];
    cc_one_hot_cards52(out + T_HAND, s->hand[me]);
    cc_one_hot_cards52(out + T_DISCARDS, s->disc[me]);
    if (s->starter >= 0) out[T_STARTER + s->starter] = 1.0f;
    /* block i: the seat i places after the observer's (seats, not positions) */
    for (int32_t i = 0; i < n; i++) {
        int32_t q = s->pos_of[(player + i) % n];
        cc_one_hot_cards52(out + T_PLAYED + 52 * i, s->dealt[q] & ~s->hand[q] & ~s->disc[q]);
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
    if (lay.partner >= 0) out[lay.partner + (s->seat_of[(me + 2) % n] - player + n) % n] = 1.0f;
    if (lay.mug >= 0) {
        if (s->crib_shown) cc_one_hot_cards52(out + lay.mug, crib_of(s));
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
