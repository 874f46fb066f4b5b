# The public headers' declarations for Cython, each header once (declarations
# only; no code): cardcore.h, then the other headers of include/ that the
# binding calls.  The .pxi files of _core.pyx hold conversions only.
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

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
                               int64_t *steps_out, int64_t *points_out, const int32_t *stop)


# Small networks evaluated in integers (cc_net.h).
cdef extern from "cc_net.h" nogil:
    int CC_NET_PATH_AUTO
    int CC_NET_PATH_PORTABLE
    int CC_NET_PATH_AVX2
    int CC_NET_MAX_LAYERS

    ctypedef struct cc_net_layer:
        const int16_t *weight
        const int32_t *bias
        int32_t outputs
        int32_t inputs
        int32_t shift
        int32_t reserved

    ctypedef struct cc_net_desc:
        int32_t input_size
        int32_t num_actions
        int32_t num_players
        int32_t num_hidden
        const cc_net_layer *layers

    ctypedef struct cc_net:
        pass

    cc_net *cc_net_new(const cc_net_desc *desc, int32_t *status, int32_t *bad_layer)
    void cc_net_free(cc_net *net)
    int32_t cc_net_input_size(const cc_net *net)
    int32_t cc_net_num_actions(const cc_net *net)
    int32_t cc_net_num_players(const cc_net *net)
    uint32_t cc_net_paths()
    int32_t cc_net_evaluate(const cc_net *net, int32_t path, int64_t n, const float *obs,
                            float *policy, float *value)

# The built-in bots (cc_bots.h), with the searcher's defaults: the one place
# they are written.
cdef extern from "cc_bots.h" nogil:
    int CC_BOT_RANDOM
    int CC_BOT_HEURISTIC
    int CC_BOT_PIMC
    int CC_BOT_ISMCTS
    int CC_BOT_NET
    int CC_ROLLOUT_RANDOM
    int CC_ROLLOUT_HEURISTIC
    long long CC_BOT_MAX_SIMULATIONS
    int CC_BOT_MAX_SECONDS
    int CC_BOT_MAX_EXPLORATION
    int CC_BOT_MAX_SAMPLES
    int CC_BOT_F_KIND
    int CC_BOT_F_ROLLOUT
    int CC_BOT_F_SIMULATIONS
    int CC_BOT_F_SECONDS
    int CC_BOT_F_EXPLORATION
    int CC_BOT_F_SAMPLES
    int CC_BOT_F_REWARD
    int CC_BOT_F_HORIZON
    int CC_BOT_F_THREADS
    int CC_BOT_F_SCALE
    int CC_BOT_F_WIN_TABLE
    int CC_BOT_F_SOLVE
    int CC_BOT_MAX_SOLVE
    int CC_E_ROLLOUT_LIMIT
    int CC_REWARD_WIN
    int CC_REWARD_MARGIN
    int CC_REWARD_POINTS
    int CC_HORIZON_GAME
    int CC_HORIZON_DEAL
    int CC_E_HOOK
    int CC_BOT_MAX_THREADS
    int CC_BOT_MAX_SCALE
    int CC_BOT_MAX_TARGET
    int CC_BOT_MAX_BATCH

    ctypedef struct cc_bot_spec:
        int32_t kind
        int32_t rollout
        int64_t simulations
        double seconds
        double exploration
        int32_t samples
        int32_t reward
        int32_t horizon
        int32_t threads
        double scale
        const double *win_table
        int32_t win_target
        int32_t solve

    ctypedef int32_t (*cc_policy_hook)(void *ctx, const float *obs, const uint64_t *mask,
                                       int32_t player, int32_t *action)
    ctypedef int32_t (*cc_evaluate_hook)(void *ctx, int32_t n, const float *obs,
                                         const uint64_t *masks, const int32_t *players,
                                         double *values)
    ctypedef int32_t (*cc_priors_hook)(void *ctx, const float *obs, const uint64_t *mask,
                                       int32_t player, double *priors)

    ctypedef struct cc_bot_hooks:
        cc_policy_hook policy
        void *policy_ctx
        cc_evaluate_hook evaluate
        void *evaluate_ctx
        int32_t batch
        int32_t reserved
        cc_priors_hook priors
        void *priors_ctx

    ctypedef struct cc_searcher:
        pass

    int32_t cc_bot_spec_check(const cc_game *game, const cc_bot_spec *spec, int32_t *bad)
    cc_searcher *cc_searcher_new(const cc_game *game, const int32_t *params, int32_t nplayers,
                                 const cc_bot_spec *spec, int32_t *status)
    void cc_searcher_free(cc_searcher *searcher)
    int32_t cc_searcher_act(cc_searcher *searcher, const cc_game *game, const void *state,
                            int32_t player, cc_rng *rng, int32_t *action, const int32_t *stop)
    int32_t cc_searcher_act_worlds(cc_searcher *searcher, const cc_game *game, const void *state,
                                   int32_t player, const void *const *worlds,
                                   const double *weights, int32_t nworlds, cc_rng *rng,
                                   int32_t *action, double *means, const int32_t *stop)
    int32_t cc_searcher_set_hooks(cc_searcher *searcher, const cc_bot_hooks *hooks)

    ctypedef struct cc_search_nets:
        const cc_net *value
        double value_weight
        const cc_net *priors
        const cc_net *rollout
        const cc_net *policy

    int32_t cc_searcher_set_nets(cc_searcher *searcher, const cc_search_nets *nets)
    int64_t cc_searcher_last_simulations(const cc_searcher *searcher)
    int64_t cc_searcher_last_nodes(const cc_searcher *searcher)
    int32_t cc_play_match(const cc_game *game, const int32_t *params, int32_t nplayers,
                          cc_searcher **seats, int64_t ngames, const uint64_t *deal_seeds,
                          const uint64_t *bot_seeds, void *state, int32_t *returns_out,
                          int64_t *moves_out, double *seconds_out, const int32_t *stop)
    int CC_BOT_DEFAULT_SIMULATIONS
    int CC_BOT_DEFAULT_SAMPLES
    int CC_BOT_DEFAULT_EXPLORATION_MILLI
    int CC_BOT_DEFAULT_ROLLOUT
    int CC_BOT_DEFAULT_REWARD
    int CC_BOT_DEFAULT_HORIZON
    int CC_BOT_DEFAULT_THREADS
    int CC_BOT_DEFAULT_SCALE
    int CC_BOT_DEFAULT_BATCH
    int CC_BOT_DEFAULT_SOLVE

# the combination primitives and their batch kernels
cdef extern from "cc_combos.h" nogil:
    int CC_MAX_PIP_TOTAL
    int CC_MAX_RUNS
    int CC_MAX_RANDOM_HANDS
    int32_t cc_batch_hand_stats(const uint64_t *cards, int64_t n, int32_t target,
                                int64_t *fifteens, int32_t *pairs, int32_t *run_score,
                                uint8_t *suits, int64_t *bad_index, uint64_t *bad_value)
    int32_t cc_batch_longest_suit_run(const uint64_t *cards, int64_t n, int32_t *out,
                                      int64_t *bad_index, uint64_t *bad_value)
    int32_t cc_random_hands(uint64_t seed, int32_t k, int64_t n, uint64_t *out)
    int CC_PATH_AUTO
    int CC_NUM_PATHS
    uint32_t cc_combos_paths()
    int32_t cc_batch_hand_stats_path(int32_t path, const uint64_t *cards, int64_t n,
                                     int32_t target, int64_t *fifteens, int32_t *pairs,
                                     int32_t *run_score, uint8_t *suits, int64_t *bad_index,
                                     uint64_t *bad_value)

# the batch functions' threads
cdef extern from "cc_threads.h" nogil:
    int CC_MAX_BATCH_THREADS
    int32_t cc_batch_threads_default()
    int32_t cc_batch_count_fifteens_threads(const uint64_t *cards, int64_t n, int32_t target,
                                            int64_t *out, int64_t *bad_index,
                                            uint64_t *bad_value, int32_t threads,
        const int32_t *stop)
    int32_t cc_batch_count_pairs_threads(const uint64_t *cards, int64_t n, int32_t *out,
                                         int64_t *bad_index, uint64_t *bad_value,
                                         int32_t threads,
        const int32_t *stop)
    int32_t cc_batch_suit_counts_threads(const uint64_t *cards, int64_t n, uint8_t *out,
                                         int64_t *bad_index, uint64_t *bad_value,
                                         int32_t threads,
        const int32_t *stop)
    int32_t cc_batch_run_score_threads(const uint64_t *cards, int64_t n, int32_t *out,
                                       int64_t *bad_index, uint64_t *bad_value, int32_t threads,
        const int32_t *stop)
    int32_t cc_batch_longest_suit_run_threads(const uint64_t *cards, int64_t n, int32_t *out,
                                              int64_t *bad_index, uint64_t *bad_value,
                                              int32_t threads,
        const int32_t *stop)
    int32_t cc_batch_hand_stats_threads(int32_t path, const uint64_t *cards, int64_t n,
                                        int32_t target, int64_t *fifteens, int32_t *pairs,
                                        int32_t *run_score, uint8_t *suits, int64_t *bad_index,
                                        uint64_t *bad_value, int32_t threads,
        const int32_t *stop)
    int32_t cc_notakers_batch_points_threads(const uint64_t *cards, int64_t n,
                                             int32_t ace_in_runs, int32_t *out,
                                             int64_t *bad_index, int32_t threads,
        const int32_t *stop)
    int32_t cc_cribbage_batch_score_show_threads(const uint64_t *hands, const uint8_t *starters,
                                                 int64_t n, int32_t is_crib,
                                                 const int32_t *params, int32_t *out,
                                                 int64_t *bad_index, int32_t threads,
        const int32_t *stop)
    int32_t cc_nodde_batch_score_hand_threads(const uint64_t *hands, const uint8_t *turnups,
                                              int64_t n, const int32_t *params, int32_t *out,
                                              int64_t *bad_index, int32_t threads,
        const int32_t *stop)

# the vector environment
cdef extern from "cc_vecenv.h" nogil:
    int CC_VEC_RANDOM
    int CC_VEC_HEURISTIC
    int CC_VEC_EVENTS
    int CC_VEC_MAX_THREADS
    int CC_VEC_MAX_GAMES
    size_t cc_vecenv_bytes(const cc_game *game, int64_t n, int32_t flags)
    int32_t cc_vecenv_init(void *mem, size_t nbytes, const cc_game *game,
                           const int32_t *params, int32_t nplayers, int32_t learner,
                           int32_t opponent, int32_t flags, int64_t n, uint64_t seed)
    int64_t cc_vecenv_size(const void *mem)
    int32_t cc_vecenv_observe(const void *mem, float *obs, int8_t *masks, int32_t nthreads,
                              const int32_t *stop)
    int32_t cc_vecenv_reset(void *mem, float *obs, int8_t *masks, int32_t nthreads,
                            const int32_t *stop)
    int32_t cc_vecenv_step(void *mem, const int32_t *actions, float *obs, int8_t *masks,
                           float *rewards, uint8_t *terminated, int32_t nthreads,
                           int64_t *bad_index, const int32_t *stop)
    int64_t cc_vecenv_episodes(const void *mem)
    int64_t cc_vecenv_skipped(const void *mem)
    int32_t cc_vecenv_final_returns(const void *mem, int32_t *out)
    const void *cc_vecenv_state(const void *mem, int64_t i)
    int32_t cc_vecenv_copy_state(const void *mem, int64_t i, void *out)
    int32_t cc_vecenv_random_actions(void *mem, int32_t *actions, int32_t nthreads)
    void cc_vecenv_free(void *mem)

# a game's own entry points beyond its table (scoring.pxi, rules.pxi)
cdef extern from "cc_cribbage.h" nogil:
    int CC_CRIBBAGE_NUM_PARAMS
    int CC_CRIBBAGE_MAX_PLAY
    int CC_CRIBBAGE_HIST_SIZE

    ctypedef struct cc_cribbage_item:
        int32_t kind
        int32_t points
        uint64_t cards

    const cc_game cc_game_cribbage
    int32_t cc_cribbage_show_items(uint64_t hand, int32_t starter, int32_t is_crib,
                                   const int32_t *params, cc_cribbage_item *out, int32_t cap)
    int32_t cc_cribbage_play_items(const uint8_t *seq, int32_t n, cc_cribbage_item *out,
                                   int32_t cap)
    int32_t cc_cribbage_batch_score_show(const uint64_t *hands, const uint8_t *starters,
                                         int64_t n, int32_t is_crib, const int32_t *params,
                                         int32_t *out, int64_t *bad_index)
    int32_t cc_cribbage_show_distribution(int32_t is_crib, const int32_t *params, int64_t *hist)
    int32_t cc_cribbage_batch_discards(const uint64_t *hands, int64_t n, const int32_t *params,
                                       int32_t *hand_sum, double *crib, int64_t *bad_index)
    int32_t cc_cribbage_crib_exact(uint64_t hand, const int32_t *params, double *out15)

cdef extern from "cc_defined.h" nogil:
    int CC_DEFINED_TABLE_LEN
    int CC_DEFINED_MAX_GAMES
    int CC_DEFINED_BREAK_NEVER
    int32_t cc_defined_check(const int32_t *table, int32_t len, int32_t *bad_field)
    int32_t cc_defined_register(const char *name, const int32_t *table, int32_t len,
                                int32_t *index, int32_t *bad_field)
    int32_t cc_defined_count()

cdef extern from "cc_nodde.h" nogil:
    int CC_NODDE_NUM_PARAMS
    int CC_NODDE_MAX_ITEMS
    int CC_NODDE_MAX_PLAY
    int CC_NODDE_HIST_SIZE

    ctypedef struct cc_nodde_item:
        int32_t kind
        int32_t points
        uint64_t cards

    const cc_game cc_game_nodde
    int32_t cc_nodde_hand_items(uint64_t hand, int32_t turnup, const int32_t *params,
                                cc_nodde_item *out, int32_t cap)
    int32_t cc_nodde_play_items(const uint8_t *seq, int32_t n, const int32_t *params,
                                cc_nodde_item *out, int32_t cap)
    int32_t cc_nodde_batch_score_hand(const uint64_t *hands, const uint8_t *turnups, int64_t n,
                                      const int32_t *params, int32_t *out, int64_t *bad_index)
    int32_t cc_nodde_hand_distribution(const int32_t *params, int64_t *hist)

cdef extern from "cc_notakers.h" nogil:
    int CC_NOTAKERS_MAX_SETS

    ctypedef struct cc_notakers_set:
        uint64_t cards
        int32_t kind
        int32_t points
        int32_t position
        int32_t top
        int32_t suit
        int32_t descriptor

    ctypedef struct cc_notakers_split:
        int32_t points
        int32_t nsets
        cc_notakers_set sets[26]

    int32_t cc_notakers_points(uint64_t cards, int32_t ace_in_runs)
    int32_t cc_notakers_splits_exactly(uint64_t cards, int32_t ace_in_runs)
    int32_t cc_notakers_best_split(uint64_t cards, int32_t ace_in_runs, int32_t tiebreak_ace,
                                   cc_notakers_split *out)
    int32_t cc_notakers_batch_points(const uint64_t *cards, int64_t n, int32_t ace_in_runs,
                                     int32_t *out, int64_t *bad_index)
    int32_t cc_notakers_knowledge(const void *state, int32_t player, uint64_t *out)
    int32_t cc_notakers_sample_history(const void *state, const int32_t *actions, int32_t nsteps,
                                       int32_t player, uint64_t seed, int32_t tries, void *out,
                                       double *log_q)
    int32_t cc_notakers_history_allow(const void *state, int32_t action, const void *sample,
                                      const float *record, int32_t t, int32_t nsteps,
                                      int32_t observer)
    const cc_game cc_game_notakers
    int CC_NOTAKERS_P_ACE_IN_RUNS
    int CC_NOTAKERS_P_TIEBREAK_ACE

cdef extern from "cc_nancy.h" nogil:
    const cc_game cc_game_nancy
    int32_t cc_nancy_legal_cards(uint64_t lo, uint64_t hi, const int8_t *trick, int32_t k,
                                 int32_t overtrump, uint64_t *out_lo, uint64_t *out_hi)
    int32_t cc_nancy_trick_winner(const int8_t *trick, int32_t k)
    int32_t cc_nancy_objectives(uint64_t lo, uint64_t hi, int32_t arcane_mode)
    int32_t cc_nancy_base_score(int32_t bid, int32_t completed, int32_t won)
    int32_t cc_nancy_deal_schedule(const int32_t *params, int32_t nplayers, int32_t dealer,
                                   int8_t *out)
    int32_t cc_nancy_settlement(int32_t nplayers, int32_t taker, int32_t partner, int32_t bid,
                                int32_t completed, int32_t won, int32_t *out)
    int32_t cc_nancy_batch_legal_cards(const uint64_t *holdings, const int8_t *tricks,
                                       int64_t n, int32_t k, int32_t overtrump, uint64_t *out,
                                       int64_t *bad_index)
    int32_t cc_nancy_batch_trick_winner(const int8_t *tricks, int64_t n, int32_t k,
                                        int8_t *out, int64_t *bad_index)
    int32_t cc_nancy_batch_objectives(const uint64_t *nancies, int64_t n, int32_t arcane_mode,
                                      uint16_t *out, int64_t *bad_index)

# the benchmark guard's slow-path switch (core/guard_internal.h: a debug
# build's; the guard's calibration loop is not part of the engine)
cdef extern from "guard_internal.h" nogil:
    int32_t cc_slow_switch_built()


# weights of sampled worlds (cc_infer.h)
cdef extern from "cc_infer.h" nogil:
    int32_t cc_infer_supported(const cc_game *game, const void *state)
    size_t cc_infer_scratch_size(const cc_game *game, const int32_t *params, int32_t nplayers,
                                 int32_t nsteps)
    int32_t cc_infer_world_deck(const cc_game *game, const int32_t *params, int32_t nplayers,
                                uint64_t seed, const void *sample, void *scratch, size_t cap,
                                uint8_t *deck)
    int32_t cc_infer_weight(const cc_game *game, const int32_t *params, int32_t nplayers,
                            uint64_t seed, const void *sample, int32_t observer,
                            const int32_t *actions, int32_t nsteps, const float *record,
                            double eps, int32_t ties, int64_t max_nodes, void *scratch,
                            size_t cap, double *weight, int64_t *nodes)
    int32_t cc_infer_weight_model(const cc_game *game, const int32_t *params, int32_t nplayers,
                                  uint64_t seed, const void *sample, int32_t observer,
                                  const int32_t *actions, int32_t nsteps, const float *record,
                                  const cc_net *model, double eps, int64_t max_nodes,
                                  void *scratch, size_t cap, double *weight, int64_t *nodes)
    ctypedef int32_t (*cc_infer_allow)(const void *state, int32_t action, const void *sample,
                                       const float *record, int32_t t, int32_t nsteps,
                                       int32_t observer) noexcept nogil
    int32_t cc_infer_weight_logged(const cc_game *game, const int32_t *params, int32_t nplayers,
                                   uint64_t seed, const void *sample, int32_t observer,
                                   const int32_t *actions, int32_t nsteps, const float *record,
                                   const cc_net *model, double eps, int32_t ties,
                                   int64_t max_nodes, void *scratch, size_t cap, double *weight,
                                   int64_t *nodes, cc_infer_allow allow)
