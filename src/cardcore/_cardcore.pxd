# Declarations of cardcore.h for Cython (declarations only; no code).
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t

cdef extern from "cardcore.h" nogil:
    int CC_OK
    int CC_E_ARG
    int CC_E_CARDS
    int CC_E_GAME_OVER
    int CC_E_ILLEGAL
    int CC_E_PLAYERS
    int CC_E_PARAMS
    int CC_E_CAPACITY
    int CC_E_STOPPED
    unsigned long long CC_DECK52_MASK
    unsigned long long CC_NANCY_LO_MASK
    unsigned long long CC_NANCY_HI_MASK
    int CC_MAX_PLAYERS
    int CC_MAX_ACTIONS
    int CC_MASK_WORDS
    int CC_ABI_VERSION
    int CC_PLAYER_CHANCE
    int CC_PLAYER_TERMINAL
    unsigned int CC_SEEN_ALL

    ctypedef struct cc_rng:
        uint64_t s[4]

    int CC_MAX_RNG_SEQUENCE
    int CC_MAX_SHUFFLE
    int32_t cc_rng_seed(cc_rng *rng, uint64_t seed)
    uint64_t cc_rng_next(cc_rng *rng)
    uint64_t cc_rng_below(cc_rng *rng, uint64_t n)
    int32_t cc_rng_shuffle_u8(cc_rng *rng, uint8_t *a, int32_t n)
    int32_t cc_shuffled_deck(uint64_t seed, uint8_t *out, int32_t n)
    int32_t cc_rng_sequence(uint64_t seed, int64_t n, uint64_t *out)

    uint64_t cc_card52_bit(int32_t card_id)
    int32_t cc_card52_count(uint64_t cards)
    int32_t cc_card52_ids(uint64_t cards, uint8_t *out)

    int64_t cc_count_fifteens(uint64_t cards, int32_t target)
    int32_t cc_count_pairs(uint64_t cards)
    int32_t cc_rank_counts(uint64_t cards, uint8_t *out)
    int32_t cc_suit_counts(uint64_t cards, uint8_t *out)
    int32_t cc_runs(uint64_t cards, uint8_t *out_len, uint32_t *out_mult, uint8_t *out_low)
    int32_t cc_longest_suit_run(uint64_t cards)
    int32_t cc_batch_count_fifteens(const uint64_t *cards, int64_t n, int32_t target,
                                    int64_t *out, int64_t *bad_index, uint64_t *bad_value)
    int32_t cc_batch_count_pairs(const uint64_t *cards, int64_t n, int32_t *out,
                                 int64_t *bad_index, uint64_t *bad_value)
    int32_t cc_batch_suit_counts(const uint64_t *cards, int64_t n, uint8_t *out,
                                 int64_t *bad_index, uint64_t *bad_value)
    int32_t cc_batch_run_score(const uint64_t *cards, int64_t n, int32_t *out,
                               int64_t *bad_index, uint64_t *bad_value)

    int CC_MAX_PARAMS
    int CC_MAX_SEGMENTS
    int CC_MAX_DECK
    int CC_PARAM_BOOL
    int CC_PARAM_INT
    int CC_PARAM_CHOICE
    int CC_PARAM_OPTIONAL
    int CC_VALUE_NUMBER
    int CC_VALUE_CARD
    int CC_VALUE_NONE
    int CC_ARG_NONE
    int CC_ARG_CARD
    int CC_ARG_NUMBER
    int CC_ARG_RANK
    int CC_ARG_SUIT
    int CC_SEG_CARDS
    int CC_SEG_CARD
    int CC_SEG_ONE_HOT
    int CC_SEG_NUMBER
    int CC_SEG_NUMBERS
    int CC_SEG_SEAT_NUMBERS
    int CC_SEG_SEAT_CARDS
    int CC_SEG_SEAT

    ctypedef struct cc_event:
        int32_t kind
        int32_t player
        int32_t target
        int32_t value
        int32_t extra
        uint32_t seen_by

    ctypedef struct cc_param:
        const char *name
        int32_t kind
        int32_t min
        int32_t max
        int32_t default_value
        int32_t none_value
        const char *choices
        const char *doc

    ctypedef struct cc_event_kind:
        const char *name
        int32_t value_kind
        const char *doc

    ctypedef struct cc_action_range:
        const char *name
        int32_t first
        int32_t count
        int32_t arg
        int32_t base
        int32_t stride

    ctypedef struct cc_segment:
        const char *name
        int32_t offset
        int32_t length
        int32_t kind
        int32_t scale
        int32_t seat0
        const char *doc

    ctypedef struct cc_game:
        size_t size
        int32_t abi
        const char *name
        int32_t min_players
        int32_t max_players
        int32_t deck_size
        size_t state_size
        size_t log_offset
        int32_t log_capacity
        int32_t num_params
        const cc_param *params
        int32_t (*check_params)(const int32_t *params, int32_t nplayers, int32_t *bad)
        int32_t (*num_actions)(const int32_t *params, int32_t nplayers)
        int32_t (*tensor_size)(const int32_t *params, int32_t nplayers)
        int32_t (*segments)(const int32_t *params, int32_t nplayers, cc_segment *out, int32_t cap)
        int32_t num_event_kinds
        const cc_event_kind *event_kinds
        int32_t num_action_ranges
        const cc_action_range *action_ranges
        int32_t (*init)(void *state, const int32_t *params, int32_t nplayers, uint64_t seed)
        int32_t (*init_deck)(void *state, const int32_t *params, int32_t nplayers,
                             uint64_t seed, const uint8_t *deck, int32_t ndeck)
        int32_t (*current_player)(const void *state)
        int32_t (*legal_actions)(const void *state, uint64_t *mask)
        int32_t (*verify)(const void *state, int32_t action)
        const char *(*reason_text)(int32_t reason)
        int32_t (*apply)(void *state, int32_t action)
        void (*returns)(const void *state, int32_t *out)
        int32_t (*observe_tensor)(const void *state, int32_t player, float *out)
        int32_t (*sample_infoset)(const void *state, int32_t player, uint64_t seed, void *out)
        int32_t (*heuristic)(const void *state, cc_rng *rng, int32_t *action)
        int32_t (*deal_index)(const void *state, int32_t *dealer)
        int32_t (*solve_depth)(const void *state)
        # stop: const volatile int32_t * in C (a flag another thread sets)
        int32_t (*solve)(const void *state, const double *win_table, int32_t win_target,
                         int64_t max_nodes, const int32_t *stop, double *values,
                         int64_t *nodes) noexcept nogil

    const cc_game *cc_game_by_index(int32_t i)
    const cc_game *cc_game_by_name(const char *name)
    int32_t cc_game_check_params(const cc_game *game, const int32_t *params, int32_t nplayers,
                                 int32_t *bad)
    size_t cc_game_used_size(const cc_game *game, const void *state)
    int32_t cc_game_events(const cc_game *game, const void *state, cc_event *out, int32_t cap,
                           int64_t *dropped)
    int32_t cc_random_playouts(const cc_game *game, const int32_t *params, int32_t nplayers,
                               uint64_t seed, int64_t ngames, void *scratch,
                               int64_t *steps_out, int64_t *points_out)
