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
 *
 * NULL pointers: each function's comment names the pointers that may be
 * NULL (an optional output, or an array of n entries with n 0) and what a
 * NULL gives.  Every other pointer argument is required: a function that
 * returns a status answers a NULL there with CC_E_ARG (CC_E_PARAMS for a
 * NULL rules array of a scoring function), a function returning a count
 * or a value returns 0, one returning a pointer returns NULL, and a void
 * function does nothing.  Non-NULL pointers must point to the memory the
 * comment describes.
 */
#ifndef CARDCORE_H
#define CARDCORE_H

#include <stddef.h>
#include <stdint.h>

#define CC_VERSION_MAJOR 0
#define CC_VERSION_MINOR 1

/* ---- status codes: every CC_E_* of the engine, here only --------------- */
#define CC_OK 0
#define CC_E_ARG -1           /* an argument is out of range */
#define CC_E_CARDS -2         /* a card set has bits outside the deck */
#define CC_E_GAME_OVER -3     /* an action on a terminal state */
#define CC_E_ILLEGAL -4       /* an illegal action (see cc_game.reason_text) */
#define CC_E_PLAYERS -5       /* a player count the game does not support */
#define CC_E_PARAMS -6        /* an invalid rules parameter */
#define CC_E_CAPACITY -7      /* an output buffer is too small */
#define CC_E_HOOK -8          /* a bot's hook failed (an exception in the host language) */
#define CC_E_ROLLOUT_LIMIT -9 /* a rollout or a C match passed CC_BOT_ROLLOUT_LIMIT actions */
#define CC_E_STOPPED -10      /* stopped on request: the caller's stop flag was set */

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
 * The pure-Python reference implements exactly the same sequence.
 * A NULL generator: cc_rng_seed and cc_rng_shuffle_u8 return CC_E_ARG,
 * cc_rng_next and cc_rng_below return 0 (and touch nothing).  No other
 * pointer is taken by these four.                                       */
typedef struct cc_rng {
    uint64_t s[4];
} cc_rng;

/* The most outputs cc_rng_sequence gives in one call. */
#define CC_MAX_RNG_SEQUENCE 1048576
/* The largest deck cc_shuffled_deck shuffles. */
#define CC_MAX_SHUFFLE 255

int32_t cc_rng_seed(cc_rng *rng, uint64_t seed);
uint64_t cc_rng_next(cc_rng *rng);
uint64_t cc_rng_below(cc_rng *rng, uint64_t n);
/* CC_OK, or CC_E_ARG for a NULL rng, n < 0, or a NULL a with n > 0. */
int32_t cc_rng_shuffle_u8(cc_rng *rng, uint8_t *a, int32_t n);
/* Fill out[0..n-1] with a seeded permutation of 0..n-1 (0 <= n <= 255).
 * out may be NULL only for n 0 (else CC_E_ARG). */
int32_t cc_shuffled_deck(uint64_t seed, uint8_t *out, int32_t n);
/* out[0..n-1]: the first n outputs of the generator seeded with seed
 * (0 <= n <= CC_MAX_RNG_SEQUENCE).  CC_OK or CC_E_ARG.
 * out may be NULL only for n 0 (else CC_E_ARG). */
int32_t cc_rng_sequence(uint64_t seed, int64_t n, uint64_t *out);

/* ---- card sets -------------------------------------------------------- */
uint64_t cc_card52_bit(int32_t card_id); /* 0 for an invalid id */
/* The number of cards, or CC_E_CARDS for bits outside the deck. */
int32_t cc_card52_count(uint64_t cards);
/* Dense ids of the cards in ascending bit order into out (may be NULL:
 * count only; else room for 52); returns the count, or CC_E_CARDS for bits
 * outside the deck. */
int32_t cc_card52_ids(uint64_t cards, uint8_t *out);

/* ---- combination primitives over any subset of the 52-card deck ------
 * All take a card set; bits outside CC_DECK52_MASK give CC_E_CARDS.
 * Pip values: A = 1, 2..10 face value, J Q K = 10.                      */

/* Subsets of 2 or more cards whose pips total target (1..340); CC_E_ARG
 * for another target. */
int64_t cc_count_fifteens(uint64_t cards, int32_t target);
/* Same-rank pairs: sum over ranks of C(count, 2). */
int32_t cc_count_pairs(uint64_t cards);
/* Cards per rank, out[13]: CC_OK, CC_E_CARDS, or CC_E_ARG (out NULL). */
int32_t cc_rank_counts(uint64_t cards, uint8_t *out);
/* Cards per suit, out[4]: CC_OK, CC_E_CARDS, or CC_E_ARG (out NULL). */
int32_t cc_suit_counts(uint64_t cards, uint8_t *out);
/* Maximal runs of >= 3 consecutive ranks (Ace low, no wrap), ascending by
 * lowest rank.  For each run: out_len[i] = length, out_mult[i] = product of
 * the rank counts, out_low[i] = its lowest rank.  Returns the number of
 * runs (at most 4).  Any of the out arrays may be NULL.                  */
int32_t cc_runs(uint64_t cards, uint8_t *out_len, uint32_t *out_mult, uint8_t *out_low);
/* Longest run of consecutive ranks within one suit (0 for no cards). */
int32_t cc_longest_suit_run(uint64_t cards);

/* Batch kernels: n card sets in, one result each.  Each set is read once:
 * its check and its result come from that one value.  Return CC_OK,
 * CC_E_ARG (n < 0, a NULL array with n > 0, a bad target), or CC_E_CARDS
 * if a set has bits outside the deck, with *bad_index and *bad_value set
 * to the index of the first such set and the value read there (either
 * pointer may be NULL; the outputs are then unspecified). */
int32_t cc_batch_count_fifteens(const uint64_t *cards, int64_t n, int32_t target, int64_t *out,
                                int64_t *bad_index, uint64_t *bad_value);
int32_t cc_batch_count_pairs(const uint64_t *cards, int64_t n, int32_t *out, int64_t *bad_index,
                             uint64_t *bad_value);
/* out has n * 4 entries, row-major. */
int32_t cc_batch_suit_counts(const uint64_t *cards, int64_t n, uint8_t *out, int64_t *bad_index,
                             uint64_t *bad_value);
/* Total run points the cribbage way: sum over runs of length * mult. */
int32_t cc_batch_run_score(const uint64_t *cards, int64_t n, int32_t *out, int64_t *bad_index,
                           uint64_t *bad_value);

/* ---- the generic game table --------------------------------------------
 * Every game is one cc_game value, filled by field name (designated
 * initializers).  A state is a flat, fixed-size block of memory (no
 * pointers) that ends with the game's event log (a cc_log header and its
 * entries), so a clone copies the used bytes only (cc_game_used_size).
 * Chance events (deals) are resolved inside the state by its own seeded
 * cc_rng, so current_player never returns CC_PLAYER_CHANCE for the built-in
 * games; the constant is reserved for games with explicit chance nodes.
 * Rules are an int32 array of num_params values, described by params[]. */
#define CC_MAX_PLAYERS 8
#define CC_MAX_ACTIONS 1024
#define CC_MASK_WORDS 16
#define CC_MAX_PARAMS 32
#define CC_MAX_SEGMENTS 64
#define CC_MAX_DECK 78
#define CC_PLAYER_CHANCE -1
#define CC_PLAYER_TERMINAL -4
#define CC_SEEN_ALL 0xFFFFFFFFu

/* One entry of a state's event log, as copied out by cc_game_events.
 * value is visible to player p only if bit p of seen_by is set; the other
 * fields are public.  kind indexes the game's event_kinds table. */
typedef struct cc_event {
    int32_t kind;
    int32_t player;
    int32_t target;
    int32_t value;
    int32_t extra;
    uint32_t seen_by;
} cc_event;

/* ---- the event log (log.c): one module, one overflow policy ------------
 * A game's state ends with a cc_log header immediately followed by
 * log_capacity cc_log_entry values.  The log is a ring: it keeps the most
 * recent log_capacity events, total counts every event ever logged, and
 * cc_game_events reports how many were dropped.  No rule, legal-action
 * generator or sampler reads the log (what they need is kept in the state),
 * so a long game never changes because its log is full.
 * A muted log (cc_log_mute) keeps nothing and pushing to it costs a test:
 * the search bots mute their private copies of a state, whose events nobody
 * reads.  With CC_LOG_UNOBSERVED as well, no sampler, observation or
 * policy reads the copy's hidden-information bookkeeping either (the
 * searcher says so for random rollouts only), and a game may skip keeping
 * it (cc_log_unobserved in cc_internal.h).  With CC_LOG_TRUSTED, every
 * action applied to the copy is one its legal_actions has just reported
 * (the ISMCTS searcher with random rollouts says so), and a game's apply
 * may skip verifying it (cc_log_trusted in cc_internal.h). */
typedef struct cc_log_entry {
    int16_t kind;
    int8_t player;
    int8_t target;
    uint32_t seen_by;
    int32_t value;
    int32_t extra;
} cc_log_entry;

typedef struct cc_log {
    int64_t total;    /* events ever logged */
    int32_t capacity; /* entries after the header */
    int32_t next;     /* the entry the next event goes to (total % capacity) */
    int32_t muted;    /* 0, or CC_LOG_MUTED with CC_LOG_UNOBSERVED or not */
    int32_t reserved;
} cc_log;

#define CC_LOG_MUTED 1
#define CC_LOG_UNOBSERVED 2
#define CC_LOG_TRUSTED 4

/* An empty log of capacity entries (the memory after the header).  NULL
 * log: nothing. */
void cc_log_init(cc_log *log, int32_t capacity);
/* Append an event (the oldest is dropped from a full ring; nothing for a
 * muted log or capacity <= 0).  NULL log: nothing. */
void cc_log_push(cc_log *log, int32_t kind, int32_t player, int32_t target, int32_t value,
                 int32_t extra, uint32_t seen_by);
/* Events kept (min(total, capacity)); 0 for a NULL log. */
int32_t cc_log_kept(const cc_log *log);
/* Mute the log: it keeps no event from now on (cc_log_kept is 0, so a
 * clone copies the fixed part of the state only) and total stops.  how:
 * CC_LOG_MUTED, with CC_LOG_UNOBSERVED and CC_LOG_TRUSTED or not (see
 * above).  NULL log: nothing. */
void cc_log_mute(cc_log *log, int32_t how);
/* The i-th kept event, oldest first; NULL for a NULL log or i outside
 * 0 .. cc_log_kept - 1. */
cc_log_entry *cc_log_at(cc_log *log, int32_t i);
const cc_log_entry *cc_log_at_const(const cc_log *log, int32_t i);

/* ---- self-description -----------------------------------------------------
 * Each game describes its rules parameters, event kinds, actions and
 * observation tensor in tables, so that the Python side (rules validation,
 * action names, event names, observation decoding, stacked decks) is generic
 * code written once. */

/* Kinds of rules parameters (the Python type of the rules field). */
#define CC_PARAM_BOOL 0   /* 0 false, 1 true */
#define CC_PARAM_INT 1    /* an int in min..max */
#define CC_PARAM_CHOICE 2 /* 0..max, value i named by the i-th of choices */
/* An int in min..max, or None (Python) stored as none_value (outside
 * min..max).  A seat parameter has min 0, max CC_MAX_PLAYERS - 1: the game's
 * check_params refuses a seat >= nplayers. */
#define CC_PARAM_OPTIONAL 3

typedef struct cc_param {
    const char *name;      /* the rules field, e.g. "run_points" */
    int32_t kind;          /* CC_PARAM_* */
    int32_t min;           /* BOOL 0, CHOICE 0 */
    int32_t max;           /* BOOL 1, CHOICE (number of choices - 1) */
    int32_t default_value; /* the engine value of the default */
    int32_t none_value;    /* OPTIONAL: the engine value of None */
    const char *choices;   /* CHOICE: the names, '|'-separated; else NULL */
    const char *doc;       /* one line */
} cc_param;

/* What the value field of an event holds (for names: card names, bids). */
#define CC_VALUE_NUMBER 0 /* a number (points, a bid, a count) */
#define CC_VALUE_CARD 1   /* a card id of the game's deck */
#define CC_VALUE_NONE 2   /* nothing (always 0) */

typedef struct cc_event_kind {
    const char *name;   /* e.g. "play"; kinds are numbered from 0 */
    int32_t value_kind; /* CC_VALUE_* */
    const char *doc;    /* the fields: "player played value; extra ..." */
} cc_event_kind;

/* How the offset inside an action range names its argument. */
#define CC_ARG_NONE 0   /* a single action (count 1) */
#define CC_ARG_CARD 1   /* offset = card id of the game's deck: {card} */
#define CC_ARG_NUMBER 2 /* offset + base: {number} */
#define CC_ARG_RANK 3   /* offset = rank 0..12 (A 2 .. K): {rank} */
#define CC_ARG_SUIT 4   /* offset = suit 0..3 (C D H S): {suit} */

/* A range of action ids.  name is a template: the action's name is name
 * with {card}, {number}, {rank}, {suit} replaced by the argument's name and
 * {seat} by k, e.g. "play {card}", "bid {number}", "ask +{seat} rank {rank}".
 * With stride 0 the range is first .. first + count - 1.  With stride > 0
 * it repeats for each other seat k = 1 .. nplayers - 1 (k seats on from
 * the actor): block k covers first + (k - 1) * stride + 0 .. count - 1. */
typedef struct cc_action_range {
    const char *name;
    int32_t first;
    int32_t count;
    int32_t arg;    /* CC_ARG_* */
    int32_t base;   /* CC_ARG_NUMBER: the number of the first id */
    int32_t stride; /* 0, or the id distance between seat blocks */
} cc_action_range;

/* Kinds of observation tensor segments and what they decode to. */
#define CC_SEG_CARDS 0   /* deck_size values, 1 for each card in the set: a card set */
#define CC_SEG_CARD 1    /* one-hot over the deck: a card, or None if all 0 */
#define CC_SEG_ONE_HOT 2 /* one-hot over length values: an index, or None */
#define CC_SEG_NUMBER 3  /* length 1: the number value * scale */
#define CC_SEG_NUMBERS 4 /* length values: a tuple of numbers value * scale */
/* Per-seat segments are observer-relative: block r describes the seat
 * (observer + seat0 + r) mod nplayers; they decode to a tuple over the
 * absolute seats 0..nplayers-1, None for a seat without a block. */
#define CC_SEG_SEAT_NUMBERS 5 /* blocks of 1 value: a number (value * scale) */
#define CC_SEG_SEAT_CARDS 6   /* blocks of deck_size values: a card set */
#define CC_SEG_SEAT 7         /* one-hot over relative seats: an absolute seat, or None */

typedef struct cc_segment {
    const char *name; /* the observation field, e.g. "hand" */
    int32_t offset;   /* first index in the tensor */
    int32_t length;   /* number of values */
    int32_t kind;     /* CC_SEG_* */
    int32_t scale;    /* NUMBER(S): value = tensor value * scale (1: raw) */
    int32_t seat0;    /* SEAT_NUMBERS/SEAT_CARDS: relative seat of block 0 */
    const char *doc;  /* one line */
} cc_segment;

#define CC_DECK_52 52 /* the French deck: Card ids 0..51 */
#define CC_DECK_78 78 /* the Nancy tarot deck: NancyCard ids 0..77 */

/* The version of the game table's layout and of its functions' contracts:
 * raised whenever cc_game changes.  A table carries the version and the
 * size it was compiled with in its first two fields, so a program (or a
 * binding) checks them before it reads anything else. */
#define CC_ABI_VERSION 3

typedef struct cc_game {
    size_t size; /* sizeof(cc_game) of the table's build */
    int32_t abi; /* CC_ABI_VERSION of the table's build */
    const char *name;
    int32_t min_players;
    int32_t max_players;
    int32_t deck_size; /* CC_DECK_52 or CC_DECK_78: ids of cards in actions,
                          events, tensors and stacked decks */
    size_t state_size;
    size_t log_offset; /* offsetof(state, its cc_log): the log comes last */
    int32_t log_capacity;
    /* rules parameters */
    int32_t num_params;
    const cc_param *params;
    /* Constraints between parameters and the player count, checked after
     * cc_game_check_params has checked each value against params[]:
     * CC_OK, or CC_E_PARAMS with *bad set to the index of the parameter
     * at fault.  nplayers 0: the checks that do not involve the players. */
    int32_t (*check_params)(const int32_t *params, int32_t nplayers, int32_t *bad);
    int32_t (*num_actions)(const int32_t *params, int32_t nplayers);
    int32_t (*tensor_size)(const int32_t *params, int32_t nplayers);
    /* Named segments of the tensor, in tensor order, covering it exactly:
     * writes at most cap, returns their number. */
    int32_t (*segments)(const int32_t *params, int32_t nplayers, cc_segment *out, int32_t cap);
    int32_t num_event_kinds;
    const cc_event_kind *event_kinds;
    int32_t num_action_ranges;
    const cc_action_range *action_ranges;
    /* Deal the first deal from seed. */
    int32_t (*init)(void *state, const int32_t *params, int32_t nplayers, uint64_t seed);
    /* Like init, but the first deal takes its cards from deck[0..ndeck-1]
     * (dense card ids, top of the deck first: a permutation of the whole
     * deck) instead of shuffling, for replaying a real table or setting up
     * a position.  Later shuffles use the state's generator seeded from
     * seed.  CC_E_ARG if deck is not a permutation of the game's deck.
     * NULL for a game that cannot be dealt from a given deck. */
    int32_t (*init_deck)(void *state, const int32_t *params, int32_t nplayers, uint64_t seed,
                         const uint8_t *deck, int32_t ndeck);
    int32_t (*current_player)(const void *state);
    /* Set bit a of mask (CC_MASK_WORDS words) for each legal action a;
     * return the number of legal actions (0 when terminal). */
    int32_t (*legal_actions)(const void *state, uint64_t *mask);
    /* 0 if the action is legal now, else a positive reason code. */
    int32_t (*verify)(const void *state, int32_t action);
    const char *(*reason_text)(int32_t reason);
    /* Apply a legal action: returns CC_OK, or a negative status code with
     * the state unchanged: CC_E_ILLEGAL for an action verify() refuses with
     * a reason (ask verify() which), CC_E_GAME_OVER on a finished game,
     * CC_E_ARG for a NULL state.  Never a positive value. */
    int32_t (*apply)(void *state, int32_t action);
    /* Cumulative points per player (out has nplayers entries). */
    void (*returns)(const void *state, int32_t *out);
    /* Observation tensor of player p: what p may know, nothing else.  Writes
     * every one of the tensor_size floats of out (out need not be cleared). */
    int32_t (*observe_tensor)(const void *state, int32_t player, float *out);
    /* Write into out a state drawn uniformly among the deals consistent
     * with everything player p has observed in state; out's generator is
     * seeded from seed (future chance is drawn afresh) and out's log holds
     * only what p has seen (hidden values are the sampled ones). */
    int32_t (*sample_infoset)(const void *state, int32_t player, uint64_t seed, void *out);
    /* The game's rule-based heuristic (each game's docs page, "The
     * heuristic bot"): set *action to a legal action for the player to act,
     * chosen only from what that player may know (its own cards and the
     * public facts, never another hand or the stock), ties broken with rng.
     * CC_OK, CC_E_GAME_OVER, or CC_E_ARG for a NULL argument.  NULL for a
     * game without one: bots then fall back to a uniformly random action. */
    int32_t (*heuristic)(const void *state, cc_rng *rng, int32_t *action);
    /* Optional (both NULL, or both set): sample_infoset in two phases, for
     * a searcher that draws many samples of one position.
     * sample_prepare(state, p, scratch, cap) works out into scratch (cap
     * bytes, at least sample_scratch_size, aligned as malloc aligns) all a
     * sample of state for p needs before its first random number: CC_OK,
     * or sample_infoset's error for (state, p), or CC_E_CAPACITY if cap is
     * too small.  sample_draw(state, scratch, seed, out), with the same
     * state, unchanged since, and out not state, then writes into out
     * exactly what sample_infoset(state, p, seed, out) writes and returns
     * what it returns (the same random numbers in the same order), as many
     * times as asked. */
    int32_t (*sample_prepare)(const void *state, int32_t player, void *scratch, size_t cap);
    int32_t (*sample_draw)(const void *state, void *scratch, uint64_t seed, void *out);
    size_t sample_scratch_size;
    /* Optional (NULL for a game of one deal): the deals (rounds) finished
     * so far in state, and *dealer (may be NULL) the seat that deals the
     * current one (-1 if none).  The number only grows; a searcher with a
     * deal horizon (cc_bots.h) stops its rollouts when it changes. */
    int32_t (*deal_index)(const void *state, int32_t *dealer);
    /* Optional (both NULL, or both set): an exact solver of the card play
     * with every card known, the states of a sample_infoset included.
     * solve_depth(state) is the number of cards still to be played in the
     * current deal's play if the solver can take state (the play, with
     * nothing before the deal is scored but card play and what the solver
     * searches itself: a game's own small choices or draws within the play,
     * a draw valued as the mean over its outcomes), else -1.
     * solve(state, win_table, win_target, max_nodes, stop, values, nodes) writes
     * values[a] for each legal action a of the player to act (num_actions
     * doubles; the others are left alone): the value of a to that player
     * when every player then plays perfectly (a two-sided game: the player
     * to act's side against the other), valued where the deal is scored.
     * win_table NULL: the points margin of the deal (own points minus the
     * mean of the others', as CC_REWARD_MARGIN, cc_bots.h); else (two
     * players) the win_target * win_target table of the searcher's
     * win reward, [x * win_target + y] the probability that the dealer of
     * the next deal wins with x points to the other's y, read at the
     * scores the deal ends with (a score at or past the target ends the
     * game: 1 or 0).  max_nodes 0: no limit, else at most that many
     * positions are visited.  stop (may be NULL): a flag the solver reads
     * every few thousand positions, set (nonzero) by another thread to stop
     * it: it returns CC_E_STOPPED, values not written (the binding sets it
     * on a pending signal, so that Ctrl-C stops a solve of any depth).
     * *nodes (may be NULL) gets the positions visited.  CC_OK;
     * CC_E_GAME_OVER; CC_E_ARG (a NULL argument, a bad win table, or
     * solve_depth < 0); CC_E_CAPACITY (max_nodes reached: values are not
     * written, or no memory); CC_E_STOPPED.
     *
     * The convention with three or more sides (docs/search.rst, "The exact
     * solver"): the side of the player to act maximizes its value and every
     * other side minimizes that same value ("paranoid"), each seat its own
     * side but for partners.  The solvers of the cribbage family's play
     * (Nodde Knave, cribbage: core/play_solve.c) value the whole game's
     * scores: the mover's side's points minus the mean of the other seats'
     * (a partner counts among the others, so a partnership's value is two
     * thirds of the side margin), the points scored before the position and
     * the end of the play (cribbage's show) included, a peg past the target
     * counted whole.  The Game of Nancy's sides are the Taker's (with his
     * Partner) and the defenders' whoever moves, and the value is the
     * mover's points of the deal times n / (n - 1) (the deal is zero-sum:
     * own points minus the mean of the others' for the deal only). */
    int32_t (*solve_depth)(const void *state);
    int32_t (*solve)(const void *state, const double *win_table, int32_t win_target,
                     int64_t max_nodes, const volatile int32_t *stop, double *values,
                     int64_t *nodes);
} cc_game;

/* ---- generic functions over any game (game.c) ---------------------------- */
/* Check a rules array for nplayers (0: without the player count): each
 * value against params[] (kind, range, none_value), then the game's own
 * constraints.  CC_OK, CC_E_PLAYERS, or CC_E_PARAMS with *bad set to the
 * index of the parameter at fault.
 * bad may be NULL; a NULL game or params: CC_E_ARG. */
int32_t cc_game_check_params(const cc_game *game, const int32_t *params, int32_t nplayers,
                             int32_t *bad);
/* Bytes of a state in use (the fixed part and the kept log entries): a
 * clone copies these.  0 for a NULL game or state. */
size_t cc_game_used_size(const cc_game *game, const void *state);
/* Copy up to cap kept events, oldest first; *dropped (may be NULL) gets
 * the number of events the ring has dropped.  Returns the number kept, or
 * CC_E_ARG (a NULL game or state, cap < 0, or out NULL with cap > 0). */
int32_t cc_game_events(const cc_game *game, const void *state, cc_event *out, int32_t cap,
                       int64_t *dropped);

/* The registry: the built-in games, then the games defined from Python
 * (cc_defined.h) in the order they were registered.  NULL past the last
 * index, for an unknown name or a NULL name. */
const cc_game *cc_game_by_index(int32_t i);
const cc_game *cc_game_by_name(const char *name);

/* Play ngames games with uniformly random legal actions, game i seeded
 * with seed + i.  scratch must hold 2 states.  steps_out gets the total
 * number of actions applied; points_out (may be NULL) the sum of the
 * returns per player.  Returns CC_OK or an error code: CC_E_ARG for a NULL
 * game, scratch or steps_out, CC_E_ARG or CC_E_PARAMS for NULL params.
 * stop (may be NULL): the caller's stop flag, read before each game; once
 * it is set the call returns CC_E_STOPPED, nothing written to steps_out
 * (points_out partial). */
int32_t cc_random_playouts(const cc_game *game, const int32_t *params, int32_t nplayers,
                           uint64_t seed, int64_t ngames, void *scratch, int64_t *steps_out,
                           int64_t *points_out, const volatile int32_t *stop);

#endif /* CARDCORE_H */
