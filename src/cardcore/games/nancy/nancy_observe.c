/* nancy_observe.c: the Game of Nancy observation tensor (docs/nancy.rst,
 * "Observation tensor"): its segments, its size and the encoding of a
 * player's view. */
#include <string.h>

#include "nancy_internal.h"

/* The observation tensor (docs/nancy.rst, "Observation tensor"), in order.
 * Per-seat parts are relative to the observer: block r is seat
 * (observer + r) mod n, and a seat one-hot marks that relative seat. */
enum { U_ONE = 0, U_DECK, U_SEATS, U_SEAT_DECKS, U_PHASES };
static const struct {
    const char *name;
    int32_t kind, unit;
    const char *doc;
} SEGMENTS[] = {
    {"hand", CC_SEG_CARDS, U_DECK, "own face-down hand"},
    {"face_up", CC_SEG_SEAT_CARDS, U_SEAT_DECKS, "face-up cards of each seat"},
    {"table_down", CC_SEG_SEAT_NUMBERS, U_SEATS, "face-down table cards per seat (2 players)"},
    {"trick", CC_SEG_SEAT_CARDS, U_SEAT_DECKS, "each seat's card in the current trick"},
    {"leader", CC_SEG_SEAT, U_SEATS, "the seat that led the current trick"},
    {"played", CC_SEG_CARDS, U_DECK, "cards played to tricks this deal"},
    {"bids", CC_SEG_SEAT_NUMBERS, U_SEATS, "each seat's bid: -1 none yet, 0 pass, 1..9"},
    {"dealer", CC_SEG_SEAT, U_SEATS, "the dealer"},
    {"taker", CC_SEG_SEAT, U_SEATS, "the Taker, once bidding is over"},
    {"called", CC_SEG_CARD, U_DECK, "the called card (5 and 6 players)"},
    {"partner_revealed", CC_SEG_NUMBER, U_ONE, "1 once the called card's holder is known"},
    {"partner", CC_SEG_SEAT, U_SEATS, "the Partner, once revealed"},
    {"hound", CC_SEG_CARDS, U_DECK, "the Hound, once taken, if shown or to the Taker"},
    {"discards", CC_SEG_CARDS, U_DECK, "own discards (the Taker)"},
    {"shown_trumps", CC_SEG_CARDS, U_DECK, "trumps the Taker discarded (shown to all)"},
    {"nancy_pile", CC_SEG_CARDS, U_DECK, "the Nancy (Taker's pile) as far as visible"},
    {"opponents_pile", CC_SEG_CARDS, U_DECK, "the opponents' pile"},
    {"void_rats", CC_SEG_SEAT_NUMBERS, U_SEATS, "1 if the seat showed no Rats"},
    {"void_swords", CC_SEG_SEAT_NUMBERS, U_SEATS, "1 if the seat showed no Swords"},
    {"void_skulls", CC_SEG_SEAT_NUMBERS, U_SEATS, "1 if the seat showed no Skulls"},
    {"void_pistols", CC_SEG_SEAT_NUMBERS, U_SEATS, "1 if the seat showed no Pistols"},
    {"trump_ceiling", CC_SEG_SEAT_NUMBERS, U_SEATS, "the seat holds no trump above this"},
    {"phase", CC_SEG_ONE_HOT, U_PHASES, "bidding, call, discard, play, pick, over"},
    {"current_player", CC_SEG_SEAT, U_SEATS, "the player to act"},
    {"scores", CC_SEG_SEAT_NUMBERS, U_SEATS, "cumulative scores"},
    {"trick_index", CC_SEG_NUMBER, U_ONE, "tricks completed this deal"},
    {"rounds_done", CC_SEG_NUMBER, U_ONE, "deals completed"},
    {"outsider_debt", CC_SEG_NUMBER, U_ONE, "1 while an Outsider exchange is owed"},
    {"outsider_played", CC_SEG_NUMBER, U_ONE, "1 once the Outsider was played this deal"},
};
#define NUM_SEGMENTS ((int32_t)(sizeof SEGMENTS / sizeof SEGMENTS[0]))

static int32_t unit_len(int32_t unit, int32_t n) {
    switch (unit) {
    case U_ONE: return 1;
    case U_DECK: return 78;
    case U_SEATS: return n;
    case U_SEAT_DECKS: return n * 78;
    default: return CC_NANCY_NUM_PHASES;
    }
}

/* The tensor's length for n players: 8 card segments, 5 numbers and the
 * phase one-hot, then per seat 2 seat-card blocks and 13 seat values (the
 * segment table, unit by unit: the tests check that the segments cover
 * exactly this). */
static int32_t tensor_len(int32_t n) {
    return 8 * 78 + 5 + CC_NANCY_NUM_PHASES + (2 * 78 + 13) * n;
}

int32_t cc_nancy_tensor_size(const int32_t *params, int32_t nplayers) {
    (void)params;
    if (nplayers < 2 || nplayers > CC_NANCY_MAX_PLAYERS) return CC_E_PLAYERS;
    return tensor_len(nplayers);
}

int32_t cc_nancy_segments(const int32_t *params, int32_t nplayers, cc_segment *out, int32_t cap) {
    (void)params;
    if (nplayers < 2 || nplayers > CC_NANCY_MAX_PLAYERS) return CC_E_PLAYERS;
    if (out == NULL && cap > 0) return CC_E_ARG;
    int32_t offset = 0;
    for (int32_t i = 0; i < NUM_SEGMENTS; i++) {
        int32_t len = unit_len(SEGMENTS[i].unit, nplayers);
        if (i < cap) {
            cc_segment seg = {SEGMENTS[i].name, offset, len, SEGMENTS[i].kind, 1, 0,
                              SEGMENTS[i].doc};
            out[i] = seg;
        }
        offset += len;
    }
    return NUM_SEGMENTS;
}

/* BYTE_FLOATS[b]: the 8 floats of the 8 bits of b (float i is bit i). */
#define BF1(b)                                                                                   \
    {(float)((b) & 1),      (float)((b) >> 1 & 1), (float)((b) >> 2 & 1), (float)((b) >> 3 & 1), \
     (float)((b) >> 4 & 1), (float)((b) >> 5 & 1), (float)((b) >> 6 & 1), (float)((b) >> 7 & 1)}
#define BF4(b) BF1(b), BF1((b) + 1), BF1((b) + 2), BF1((b) + 3)
#define BF16(b) BF4(b), BF4((b) + 4), BF4((b) + 8), BF4((b) + 12)
#define BF64(b) BF16(b), BF16((b) + 16), BF16((b) + 32), BF16((b) + 48)
static const float BYTE_FLOATS[256][8] = {BF64(0), BF64(64), BF64(128), BF64(192)};
#undef BF1
#undef BF4
#undef BF16
#undef BF64

/* Write a card set as 78 floats, every one of them (0 or 1 by card id), with
 * no branch on the cards: the set as a 78-bit vector by card id (v0: cards
 * 0..63, v1: 64..77; suit s's lane, bits 16 s .., moves down by 2 s; hi bit
 * t, 1..21, is card 55 + t and hi bit 0 card 77), then 8 floats per byte
 * from a table.  Stepping through the set bit by bit cost a mispredicted
 * branch at the end of each loop, two a set: more time than the writes. */
#define PUT_BYTE(o, v, k) memcpy((o) + 8 * (k), BYTE_FLOATS[((v) >> (8 * (k))) & 0xFF], 32)
static void put_set(float *o, cc_nancy_cards set) {
    if ((set.lo | set.hi) == 0) { /* a segment that is empty most of the time */
        memset(o, 0, sizeof(float) * 78);
        return;
    }
    uint64_t lo = set.lo;
    uint64_t c56 = (lo & CC_NANCY_LANE) | ((lo >> 2) & (CC_NANCY_LANE << 14)) |
                   ((lo >> 4) & (CC_NANCY_LANE << 28)) | ((lo >> 6) & (CC_NANCY_LANE << 42));
    uint64_t t = (set.hi >> 1) & 0x1FFFFFull;
    uint64_t v0 = c56 | (t << 56), v1 = (t >> 8) | ((set.hi & 1) << 13);
    PUT_BYTE(o, v0, 0);
    PUT_BYTE(o, v0, 1);
    PUT_BYTE(o, v0, 2);
    PUT_BYTE(o, v0, 3);
    PUT_BYTE(o, v0, 4);
    PUT_BYTE(o, v0, 5);
    PUT_BYTE(o, v0, 6);
    PUT_BYTE(o, v0, 7);
    PUT_BYTE(o + 64, v1, 0);
    memcpy(o + 72, BYTE_FLOATS[(v1 >> 8) & 0xF], 16); /* cards 72..75 */
    o[76] = (float)((v1 >> 12) & 1);
    o[77] = (float)((v1 >> 13) & 1);
}
#undef PUT_BYTE

static const cc_nancy_cards NO_CARDS = {0, 0};

/* In the order of SEGMENTS; per-seat blocks are relative to `player`.  The
 * card segments are written whole (put_set); the runs of other segments
 * between them are cleared, then their values set. */
int32_t cc_nancy_observe_tensor(const void *state, int32_t player, float *out) {
    const cc_nancy_state *s = (const cc_nancy_state *)state;
    if (s == NULL || out == NULL) return CC_E_ARG;
    int32_t n = s->n;
    if (player < 0 || player >= n) return CC_E_ARG;
    int32_t rel[CC_NANCY_MAX_PLAYERS]; /* rel[q]: seat q relative to the player */
    for (int32_t q = 0, r = n - player; q < n; q++, r++) rel[q] = r >= n ? r - n : r;
    float *o = out;
    put_set(o, s->hand[player]); /* hand */
    o += 78;
    for (int32_t q = 0; q < n; q++) put_set(o + rel[q] * 78, s->up[q]); /* face_up */
    o += n * 78;
    memset(o, 0, sizeof(float) * (size_t)(n + n * 78 + n)); /* table_down .. leader */
    if (n == 2)
        for (int32_t q = 0; q < n; q++) { /* table_down */
            int32_t cnt = 0;
            for (int32_t i = 0; i < 8; i++) cnt += s->pbot[q][i] >= 0;
            o[rel[q]] = (float)cnt;
        }
    o += n;
    int32_t playing = s->phase == CC_NANCY_PH_PLAY;
    if (playing) /* trick */
        for (int32_t i = 0; i < s->trick_n; i++)
            o[rel[s->trick_player[i]] * 78 + s->trick_card[i]] = 1.0f;
    o += n * 78;
    if (playing) o[rel[s->leader]] = 1.0f; /* leader */
    o += n;
    put_set(o, s->played); /* played */
    o += 78;
    memset(o, 0, sizeof(float) * (size_t)(3 * n + 78 + 1 + n));   /* bids .. partner */
    for (int32_t q = 0; q < n; q++) o[rel[q]] = (float)s->bid[q]; /* bids */
    o += n;
    o[rel[s->dealer]] = 1.0f; /* dealer */
    o += n;
    if (s->taker >= 0) o[rel[s->taker]] = 1.0f; /* taker */
    o += n;
    if (s->called >= 0) o[s->called] = 1.0f; /* called */
    o += 78;
    o[0] = (float)(s->partner_revealed != 0); /* partner_revealed */
    o += 1;
    if (s->partner_revealed && s->partner >= 0) o[rel[s->partner]] = 1.0f; /* partner */
    o += n;
    int32_t after_hound =
        s->taker >= 0 && s->phase != CC_NANCY_PH_BID && s->phase != CC_NANCY_PH_CALL;
    int32_t hound_seen =
        after_hound && (s->params[CC_NANCY_P_REVEAL_HOUND] == 1 || player == s->taker);
    put_set(o, hound_seen ? s->hound : NO_CARDS); /* hound */
    o += 78;
    put_set(o, player == s->taker ? s->discards : NO_CARDS); /* discards */
    o += 78;
    put_set(o, s->shown); /* shown_trumps */
    o += 78;
    cc_nancy_cards hidden = cs_andnot(s->discards, s->disc_public); /* nancy_pile */
    put_set(o, player == s->taker ? s->pile[CC_NANCY_PILE_NANCY]
                                  : cs_andnot(s->pile[CC_NANCY_PILE_NANCY], hidden));
    o += 78;
    put_set(o, s->pile[CC_NANCY_PILE_OPP]); /* opponents_pile */
    o += 78;
    memset(o, 0,
           sizeof(float) * (size_t)(4 * n + n + CC_NANCY_NUM_PHASES + n + n + 4)); /* the rest */
    for (int32_t q = 0; q < n; q++) { /* void_rats .. void_pistols */
        uint32_t v = s->voids[q];
        if (v)
            for (int32_t su = 0; su < 4; su++) o[su * n + rel[q]] = (float)((v >> su) & 1);
    }
    o += 4 * n;
    for (int32_t q = 0; q < n; q++) o[rel[q]] = (float)s->ceil[q]; /* trump_ceiling */
    o += n;
    o[s->phase] = 1.0f; /* phase */
    o += CC_NANCY_NUM_PHASES;
    if (s->phase != CC_NANCY_PH_OVER) o[rel[s->cur]] = 1.0f; /* current_player */
    o += n;
    for (int32_t q = 0; q < n; q++) o[rel[q]] = (float)s->scores[q]; /* scores */
    o += n;
    o[0] = (float)s->trick_idx;
    o[1] = (float)s->rounds_done;
    o[2] = (float)s->debt;
    o[3] = (float)(s->out_player >= 0);
    return CC_OK;
}
