/*
 * cardcore.h: the public C API of the pycards engine.
 *
 * Portable C11, no Python dependency.  This header is parsed by cffi's
 * cdef() as well as by C compilers, so it keeps to what cffi accepts:
 * fixed-width types, integer #define constants, no function-like macros,
 * no inline code.  Inline helpers live in cc_internal.h (private).
 *
 * Card layout (52-card French deck)
 * ---------------------------------
 *   rank r: 0..12 = A 2 3 4 5 6 7 8 9 T J Q K (Ace low)
 *   suit s: 0..3  = C D H S (clubs, diamonds, hearts, spades)
 *   card id (dense, for actions and tensors): s * 13 + r   (0..51)
 *   bitset bit: s * 16 + r  (a 16-bit lane per suit; bits 13..15 of each
 *   lane are never set).  A card set is a uint64_t.
 *
 * Card layout (78-card Nancy deck)
 * --------------------------------
 *   suits 0..3 = Rats Swords Skulls Pistols; ranks 0..13 = 1..10 J C Q K
 *   card id: s * 14 + r (0..55); trump n (1..21): 55 + n (56..76);
 *   the Outsider: 77.
 *   bitset: two words.  lo: bit s * 16 + r for suit cards.  hi: bit n for
 *   trump n (1..21), bit 0 for the Outsider.  As one integer: lo | hi << 64.
 *
 * Status codes: functions that can fail return int32_t, CC_OK (0) on
 * success, a negative CC_E_* code on bad input, and never abort.
 */
#ifndef CARDCORE_H
#define CARDCORE_H

#include <stddef.h>
#include <stdint.h>

#define CC_VERSION_MAJOR 0
#define CC_VERSION_MINOR 1

/* ---- status codes ---------------------------------------------------- */
#define CC_OK 0
#define CC_E_ARG -1        /* an argument is out of range */
#define CC_E_CARDS -2      /* a card set has bits outside the deck */
#define CC_E_GAME_OVER -3  /* an action on a terminal state */
#define CC_E_ILLEGAL -4    /* an illegal action (see cc_game.reason_text) */
#define CC_E_PLAYERS -5    /* a player count the game does not support */
#define CC_E_PARAMS -6     /* an invalid rules parameter */
#define CC_E_CAPACITY -7   /* an output buffer is too small */

/* ---- decks ----------------------------------------------------------- */
#define CC_NUM_RANKS 13
#define CC_NUM_SUITS 4
#define CC_NUM_CARDS52 52
#define CC_DECK52_MASK 0x1FFF1FFF1FFF1FFFULL
#define CC_NUM_CARDS78 78
#define CC_NANCY_LO_MASK 0x3FFF3FFF3FFF3FFFULL
#define CC_NANCY_HI_MASK 0x3FFFFFULL

/* ---- random numbers: xoshiro256** seeded by splitmix64 ----------------
 * cc_rng_seed: x = seed; s[i] = splitmix64(&x) for i = 0..3.
 * cc_rng_below(n), n >= 1: t = (2^64 - n) mod n; draw x until x >= t;
 *   return x mod n.  Unbiased; n == 0 returns 0.
 * cc_rng_shuffle: Fisher-Yates, for i = n-1 down to 1: j = below(i+1),
 *   swap a[i], a[j].
 * The pure-Python reference implements exactly the same sequence.      */
typedef struct cc_rng {
    uint64_t s[4];
} cc_rng;

void cc_rng_seed(cc_rng *rng, uint64_t seed);
uint64_t cc_rng_next(cc_rng *rng);
uint64_t cc_rng_below(cc_rng *rng, uint64_t n);
void cc_rng_shuffle_u8(cc_rng *rng, uint8_t *a, int32_t n);
/* Fill out[0..n-1] with a seeded permutation of 0..n-1 (n <= 255). */
int32_t cc_shuffled_deck(uint64_t seed, uint8_t *out, int32_t n);

/* ---- card sets -------------------------------------------------------- */
uint64_t cc_card52_bit(int32_t card_id);       /* 0 for an invalid id */
int32_t cc_card52_count(uint64_t cards);       /* popcount */
/* Dense ids of the cards in ascending bit order; returns the count. */
int32_t cc_card52_ids(uint64_t cards, uint8_t *out);

/* ---- combination primitives over any subset of the 52-card deck ------
 * All take a card set; bits outside CC_DECK52_MASK give CC_E_CARDS from
 * the checked functions and are ignored by the unchecked batch kernels.
 * Pip values: A = 1, 2..10 face value, J Q K = 10.                      */

/* Subsets of 2 or more cards whose pips total target (1..340). */
int64_t cc_count_fifteens(uint64_t cards, int32_t target);
/* Same-rank pairs: sum over ranks of C(count, 2). */
int32_t cc_count_pairs(uint64_t cards);
/* Cards per rank, out[13]. */
void cc_rank_counts(uint64_t cards, uint8_t *out);
/* Cards per suit, out[4]. */
void cc_suit_counts(uint64_t cards, uint8_t *out);
/* Maximal runs of >= 3 consecutive ranks (Ace low, no wrap), ascending by
 * lowest rank.  For each run: out_len[i] = length, out_mult[i] = product of
 * the rank counts, out_low[i] = its lowest rank.  Returns the number of
 * runs (at most 4).  Any of the out arrays may be NULL.                  */
int32_t cc_runs(uint64_t cards, uint8_t *out_len, uint32_t *out_mult,
                uint8_t *out_low);
/* Longest run of consecutive ranks within one suit (0 for no cards). */
int32_t cc_longest_suit_run(uint64_t cards);

/* Batch kernels: n card sets in, one result each.  Return CC_OK, or
 * CC_E_CARDS (with *bad_index set) if a set has bits outside the deck. */
int32_t cc_batch_count_fifteens(const uint64_t *cards, int64_t n,
                                int32_t target, int64_t *out,
                                int64_t *bad_index);
int32_t cc_batch_count_pairs(const uint64_t *cards, int64_t n, int32_t *out,
                             int64_t *bad_index);
/* out has n * 4 entries, row-major. */
int32_t cc_batch_suit_counts(const uint64_t *cards, int64_t n, uint8_t *out,
                             int64_t *bad_index);
/* Total run points the cribbage way: sum over runs of length * mult. */
int32_t cc_batch_run_score(const uint64_t *cards, int64_t n, int32_t *out,
                           int64_t *bad_index);

/* ---- the generic game table --------------------------------------------
 * Every game is one cc_game value.  A state is a flat, fixed-size block of
 * memory (no pointers), so clone is memcpy and states can live in arrays.
 * Chance events (deals) are resolved inside the state by its own seeded
 * cc_rng, so current_player never returns CC_PLAYER_CHANCE for the built-in
 * games; the constant is reserved for games with explicit chance nodes.
 * Rules are an int32 array of num_params values (each game documents the
 * order; the Python rules dataclass builds it).                         */
#define CC_MAX_PLAYERS 8
#define CC_MAX_ACTIONS 1024
#define CC_MASK_WORDS 16
#define CC_PLAYER_CHANCE -1
#define CC_PLAYER_TERMINAL -4
#define CC_SEEN_ALL 0xFFFFFFFFu

/* One entry of a state's event log.  value is visible to player p only if
 * bit p of seen_by is set; extra is always public.  kind is game-specific. */
typedef struct cc_event {
    int32_t kind;
    int32_t player;
    int32_t target;
    int32_t value;
    int32_t extra;
    uint32_t seen_by;
} cc_event;

typedef struct cc_game {
    const char *name;
    int32_t min_players;
    int32_t max_players;
    int32_t num_params;
    size_t state_size;
    /* Validate params for nplayers: CC_OK or CC_E_PARAMS / CC_E_PLAYERS. */
    int32_t (*check_params)(const int32_t *params, int32_t nplayers);
    int32_t (*num_actions)(const int32_t *params, int32_t nplayers);
    int32_t (*tensor_size)(const int32_t *params, int32_t nplayers);
    /* Deal the first deal from seed. */
    int32_t (*init)(void *state, const int32_t *params, int32_t nplayers,
                    uint64_t seed);
    int32_t (*current_player)(const void *state);
    /* Set bit a of mask (CC_MASK_WORDS words) for each legal action a;
     * return the number of legal actions (0 when terminal). */
    int32_t (*legal_actions)(const void *state, uint64_t *mask);
    /* 0 if the action is legal now, else a positive reason code. */
    int32_t (*verify)(const void *state, int32_t action);
    const char *(*reason_text)(int32_t reason);
    /* Apply a legal action: returns 0, or the verify() reason code / a
     * negative CC_E_* code, leaving the state unchanged. */
    int32_t (*apply)(void *state, int32_t action);
    /* Cumulative points per player (out has nplayers entries). */
    void (*returns)(const void *state, int32_t *out);
    /* Observation tensor of player p: what p may know, nothing else. */
    int32_t (*observe_tensor)(const void *state, int32_t player,
                              float *out);
    /* Copy up to cap events; return the total number in the log. */
    int32_t (*events)(const void *state, cc_event *out, int32_t cap);
    /* Write into out a state drawn uniformly among the deals consistent
     * with everything player p has observed in state. */
    int32_t (*sample_infoset)(const void *state, int32_t player,
                              uint64_t seed, void *out);
    /* Like init, but the first deal takes its cards from deck[0..ndeck-1]
     * (dense card ids, top of the deck first: a permutation of the whole
     * deck) instead of shuffling, for replaying a real table or setting up
     * a position.  Later shuffles use the state's generator seeded from
     * seed.  CC_E_ARG if deck is not a permutation of the game's deck.
     * NULL for a game that cannot be dealt from a given deck. */
    int32_t (*init_deck)(void *state, const int32_t *params, int32_t nplayers,
                         uint64_t seed, const uint8_t *deck, int32_t ndeck);
} cc_game;

/* The registry of built-in games (NULL-terminated). */
const cc_game *cc_game_by_index(int32_t i);
const cc_game *cc_game_by_name(const char *name);

/* Play ngames games with uniformly random legal actions, game i seeded
 * with seed + i.  scratch must hold 2 states.  steps_out gets the total
 * number of actions applied; points_out (may be NULL) the sum of the
 * returns per player.  Returns CC_OK or an error code. */
int32_t cc_random_playouts(const cc_game *game, const int32_t *params,
                           int32_t nplayers, uint64_t seed, int64_t ngames,
                           void *scratch, int64_t *steps_out,
                           int64_t *points_out);

#endif /* CARDCORE_H */
