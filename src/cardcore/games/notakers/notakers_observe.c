/* notakers_observe.c: the No Takers? observation tensor (docs/notakers.rst,
 * "Observation tensor"): its segments, its size and the encoding of a
 * player's view; and the observer's knowledge (cc_notakers.h). */
#include <string.h>

#include "notakers_internal.h"

/* The observation tensor, segment by segment (docs/notakers.rst,
 * "Observation tensor"); seat blocks are relative to the observer.  The
 * other seats' save piles are a segment only when saves are open. */
enum {
    SEG_HAND,
    SEG_SAVE,
    SEG_SELECTION,
    SEG_SAVE_PILES,
    SEG_HAND_SIZES,
    SEG_SAVE_SIZES,
    SEG_PILE_SIZE,
    SEG_TURNS,
    SEG_CURRENT_PLAYER,
    SEG_PHASE,
    SEG_ASKER,
    SEG_ASKED,
    SEG_DESCRIPTOR,
    SEG_GIVEN,
    SEG_RECEIVER,
    SEG_POINTS,
    NUM_SEGS
};

static const cc_segment SEGMENTS[NUM_SEGS] = {
    [SEG_HAND] = {.name = "hand", .kind = CC_SEG_CARDS, .doc = "the observer's hand"},
    [SEG_SAVE] = {.name = "save", .kind = CC_SEG_CARDS, .doc = "the observer's save pile"},
    [SEG_SELECTION] = {.name = "selection",
                       .kind = CC_SEG_CARDS,
                       .doc = "the cards the observer has chosen in a Save in progress"},
    [SEG_SAVE_PILES] = {.name = "save_piles",
                        .kind = CC_SEG_SEAT_CARDS,
                        .seat0 = 1,
                        .doc = "the other seats' save piles (open saves only)"},
    [SEG_HAND_SIZES] = {.name = "hand_sizes",
                        .kind = CC_SEG_SEAT_NUMBERS,
                        .scale = 1,
                        .doc = "cards in each seat's hand"},
    [SEG_SAVE_SIZES] = {.name = "save_sizes",
                        .kind = CC_SEG_SEAT_NUMBERS,
                        .scale = 1,
                        .doc = "cards in each seat's save pile"},
    [SEG_PILE_SIZE] = {.name = "pile_size",
                       .kind = CC_SEG_NUMBER,
                       .scale = 1,
                       .doc = "cards left in the draw pile"},
    [SEG_TURNS] = {.name = "turns", .kind = CC_SEG_NUMBER, .scale = 1, .doc = "completed turns"},
    [SEG_CURRENT_PLAYER] = {.name = "current_player",
                            .kind = CC_SEG_SEAT,
                            .doc = "the seat to act (None when the game is over)"},
    [SEG_PHASE] = {.name = "phase",
                   .kind = CC_SEG_ONE_HOT,
                   .doc = "turn, save, give, pass_fallback, no_takers, over"},
    [SEG_ASKER] = {.name = "asker", .kind = CC_SEG_SEAT, .doc = "the asking seat during an Ask"},
    [SEG_ASKED] = {.name = "asked", .kind = CC_SEG_SEAT, .doc = "the asked seat during an Ask"},
    [SEG_DESCRIPTOR] = {.name = "descriptor",
                        .kind = CC_SEG_ONE_HOT,
                        .doc = "what the Ask is for: 0..12 a rank, 13..16 a suit, 17 + card"},
    [SEG_GIVEN] = {.name = "given",
                   .kind = CC_SEG_NUMBER,
                   .scale = 1,
                   .doc = "cards given so far by the current giver"},
    [SEG_RECEIVER] = {.name = "receiver",
                      .kind = CC_SEG_SEAT,
                      .doc = "No Takers: the seat receiving the next card"},
    [SEG_POINTS] = {.name = "points",
                    .kind = CC_SEG_SEAT_NUMBERS,
                    .scale = 1,
                    .doc = "each seat's points once the game is over (0 before)"},
};

static int32_t seg_length(int32_t seg, int32_t n) {
    switch (seg) {
    case SEG_HAND:
    case SEG_SAVE:
    case SEG_SELECTION: return CC_NUM_CARDS52;
    case SEG_SAVE_PILES: return CC_NUM_CARDS52 * (n - 1);
    case SEG_PILE_SIZE:
    case SEG_TURNS:
    case SEG_GIVEN: return 1;
    case SEG_PHASE: return CC_NOTAKERS_NUM_PHASES;
    case SEG_DESCRIPTOR: return CC_NOTAKERS_NUM_DESCRIPTORS;
    default: return n; /* one value per seat */
    }
}

/* Offsets of the segments for these rules (-1: absent); returns the size. */
static int32_t layout(const int32_t *pr, int32_t n, int32_t *offset) {
    int32_t o = 0;
    int32_t open = pr != NULL && pr[CC_NOTAKERS_P_SAVE_VISIBILITY] == CC_NOTAKERS_SAVES_OPEN;
    for (int32_t seg = 0; seg < NUM_SEGS; seg++) {
        if (seg == SEG_SAVE_PILES && !open) {
            offset[seg] = -1;
            continue;
        }
        offset[seg] = o;
        o += seg_length(seg, n);
    }
    return o;
}

int32_t cc_notakers_tensor_size(const int32_t *pr, int32_t n) {
    int32_t offset[NUM_SEGS];
    if (n < 2 || n > CC_MAX_PLAYERS) return CC_E_PLAYERS;
    return layout(pr, n, offset);
}

void cc_notakers_tensor_places(const int32_t *pr, int32_t n, int32_t *phase, int32_t *turns) {
    int32_t offset[NUM_SEGS];
    layout(pr, n, offset);
    *phase = offset[SEG_PHASE];
    *turns = offset[SEG_TURNS];
}

int32_t cc_notakers_segments(const int32_t *pr, int32_t n, cc_segment *out, int32_t cap) {
    int32_t offset[NUM_SEGS], count = 0;
    if (n < 2 || n > CC_MAX_PLAYERS) return CC_E_PLAYERS;
    layout(pr, n, offset);
    for (int32_t seg = 0; seg < NUM_SEGS; seg++) {
        if (offset[seg] < 0) continue;
        if (out != NULL && count < cap) {
            out[count] = SEGMENTS[seg];
            out[count].offset = offset[seg];
            out[count].length = seg_length(seg, n);
        }
        count++;
    }
    return count;
}

int32_t cc_notakers_observe_tensor(const void *state, int32_t player, float *out) {
    const nt_state *st = (const nt_state *)state;
    if (st == NULL || out == NULL) return CC_E_ARG;
    int32_t n = st->n;
    if (player < 0 || player >= n) return CC_E_ARG;
    int32_t at[NUM_SEGS];
    int32_t size = layout(st->params, n, at);
    memset(out, 0, sizeof(float) * (size_t)size);
    int32_t over = st->phase == CC_NOTAKERS_PHASE_OVER;
    cc_one_hot_cards52(out + at[SEG_HAND], st->hand[player]);
    cc_one_hot_cards52(out + at[SEG_SAVE], st->save[player]);
    if (st->phase == CC_NOTAKERS_PHASE_SAVE && st->actor == player)
        cc_one_hot_cards52(out + at[SEG_SELECTION], st->selection);
    if (at[SEG_SAVE_PILES] >= 0)
        for (int32_t k = 1; k < n; k++)
            cc_one_hot_cards52(out + at[SEG_SAVE_PILES] + CC_NUM_CARDS52 * (k - 1),
                               st->save[(player + k) % n]);
    for (int32_t k = 0; k < n; k++) {
        int32_t q = (player + k) % n;
        out[at[SEG_HAND_SIZES] + k] = (float)cc_popcount64(st->hand[q]);
        out[at[SEG_SAVE_SIZES] + k] = (float)cc_popcount64(st->save[q]);
        if (over) out[at[SEG_POINTS] + k] = (float)st->points[q];
    }
    out[at[SEG_PILE_SIZE]] = (float)(CC_NUM_CARDS52 - st->top);
    out[at[SEG_TURNS]] = (float)st->turns;
    if (!over) out[at[SEG_CURRENT_PLAYER] + (st->actor - player + n) % n] = 1.0f;
    out[at[SEG_PHASE] + st->phase] = 1.0f;
    int32_t asking = st->phase == CC_NOTAKERS_PHASE_GIVE ||
                     st->phase == CC_NOTAKERS_PHASE_FALLBACK ||
                     st->phase == CC_NOTAKERS_PHASE_NO_TAKERS;
    if (asking) {
        out[at[SEG_ASKER] + (st->turn_player - player + n) % n] = 1.0f;
        out[at[SEG_ASKED] + (st->ask_target - player + n) % n] = 1.0f;
        out[at[SEG_DESCRIPTOR] + st->ask_desc] = 1.0f;
        out[at[SEG_GIVEN]] = (float)st->given;
    }
    if (st->phase == CC_NOTAKERS_PHASE_NO_TAKERS)
        out[at[SEG_RECEIVER] + (st->turn_player + st->nt_k - player + 2 * n) % n] = 1.0f;
    return CC_OK;
}

/* The observer's knowledge (cc_notakers.h). */
int32_t cc_notakers_knowledge(const void *state, int32_t player, uint64_t *out) {
    const nt_state *st = (const nt_state *)state;
    if (st == NULL || out == NULL || player < 0 || player >= st->n) return CC_E_ARG;
    for (int32_t q = 0; q < CC_MAX_PLAYERS; q++) {
        int32_t in = q < st->n;
        out[q] = in ? st->in_hand[player][q] : 0;
        out[CC_MAX_PLAYERS + q] = in ? st->held[player][q] : 0;
        out[2 * CC_MAX_PLAYERS + q] = in ? st->not_in_hand[player][q] : 0;
    }
    return CC_OK;
}
