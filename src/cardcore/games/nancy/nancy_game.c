/* nancy_game.c: the game table of the Game of Nancy (docs/nancy.rst).
 *
 * One flat state per game (no pointers, clone = memcpy).  A match is a
 * sequence of deals; everything automatic (deal, Hound, flips, scoring,
 * redeal, random exchange draws) happens inside apply(), so every decision
 * is an action of the deciding player.  What is legal is nancy_legal.c.
 */
#include "nancy_internal.h"

/* ---- self-description (docs/nancy.rst) ---------------------------------- */

/* Indexed by CC_NANCY_P_*: names and defaults are NancyRules' fields. */
static const cc_param PARAMS[CC_NANCY_NUM_PARAMS] = {
    [CC_NANCY_P_FACE_UP_COUNT] = {"face_up_count", CC_PARAM_INT, 0, 12, 6, 0, NULL,
                                  "cards of each player's deal dealt face-up (3 to 6 players)"},
    [CC_NANCY_P_HOUND_POSITION_RULE] = {"hound_position_rule", CC_PARAM_CHOICE, 0, 1, 0, 0,
                                        "ignore|enforce",
                                        "enforce: the Hound is dealt singly between packets"},
    [CC_NANCY_P_BIDDING_STYLE] = {"bidding_style", CC_PARAM_CHOICE, 0, 1, 0, 0,
                                  "single_round|open_auction", "one bid each, or an auction"},
    [CC_NANCY_P_MIN_BID] = {"min_bid", CC_PARAM_INT, 1, 9, 1, 0, NULL, "the lowest bid"},
    [CC_NANCY_P_ALL_PASS] = {"all_pass", CC_PARAM_CHOICE, 0, 1, 0, 0, "redeal|dealer_forced",
                             "when all pass: a new deal, or the last player must bid"},
    [CC_NANCY_P_SELF_CALL_ALLOWED] = {"self_call_allowed", CC_PARAM_BOOL, 0, 1, 1, 0, NULL,
                                      "the Taker may call a card he holds"},
    [CC_NANCY_P_REVEAL_HOUND] = {"reveal_hound", CC_PARAM_BOOL, 0, 1, 1, 0, NULL,
                                 "the Hound is shown to all before the Taker takes it"},
    [CC_NANCY_P_OVERTRUMP_ON_TRUMP_LEAD] = {"overtrump_on_trump_lead", CC_PARAM_BOOL, 0, 1, 1, 0,
                                            NULL, "on a trump lead, play a higher trump"},
    [CC_NANCY_P_PARTNER_TRICKS_TO] = {"partner_tricks_to", CC_PARAM_CHOICE, 0, 1, 0, 0,
                                      "opponents|nancy", "the pile the Partner's tricks go to"},
    [CC_NANCY_P_OUTSIDER_EXCHANGE_MODE] = {"outsider_exchange_mode", CC_PARAM_CHOICE, 0, 1, 0, 0,
                                           "random|owner_choice",
                                           "how the Outsider's exchange card is chosen"},
    [CC_NANCY_P_EXCHANGE_FROM_DISCARD] = {"exchange_from_discard", CC_PARAM_BOOL, 0, 1, 0, 0, NULL,
                                          "the exchange card may come from the discards"},
    [CC_NANCY_P_DEFERRED_EXCHANGE_PICK] = {"deferred_exchange_pick", CC_PARAM_CHOICE, 0, 2, 0, 0,
                                           "winner_choice|random|owner_choice",
                                           "who picks a deferred exchange card"},
    [CC_NANCY_P_OUTSIDER_LAST_TRICK] = {"outsider_last_trick", CC_PARAM_CHOICE, 0, 1, 0, 0,
                                        "decides_round|changes_side",
                                        "the Outsider played to the last trick"},
    [CC_NANCY_P_ARCANE_SUM_MODE] = {"arcane_sum_mode", CC_PARAM_CHOICE, 0, 2, 0, 0,
                                    "exact_total|subset_sum|at_least",
                                    "Master of the Arcane: how the trumps make 22"},
    [CC_NANCY_P_FAT_NANCY_OUTSIDER_EXCEPTION] = {"fat_nancy_outsider_exception", CC_PARAM_CHOICE, 0,
                                                 1, 0, 0, "none|slam",
                                                 "slam: the Outsider led last wins a slam"},
    [CC_NANCY_P_MATCH_ROUNDS] = {"match_rounds", CC_PARAM_OPTIONAL, 1, 1000, 0, 0, NULL,
                                 "deals in a match; None: each player deals once"},
    [CC_NANCY_P_FIRST_DEALER] = {"first_dealer", CC_PARAM_OPTIONAL, 0, CC_NANCY_MAX_PLAYERS - 1, -1,
                                 -1, NULL,
                                 "the first dealer's seat; None: drawn from the game seed"},
};

static int32_t cc_nancy_check_params(const int32_t *params, int32_t nplayers, int32_t *bad) {
    int32_t ignored;
    if (bad == NULL) bad = &ignored;
    if (params == NULL) return CC_E_ARG;
    if (nplayers != 0 && params[CC_NANCY_P_FIRST_DEALER] >= nplayers) { /* not a seat */
        *bad = CC_NANCY_P_FIRST_DEALER;
        return CC_E_PARAMS;
    }
    return CC_OK;
}

static const cc_event_kind EVENT_KINDS[CC_NANCY_NUM_EVENT_KINDS] = {
    [CC_NANCY_EV_DEALER] = {"dealer", CC_VALUE_NUMBER,
                            "player deals; value deals done, extra thrown-in deals"},
    [CC_NANCY_EV_DEAL] = {"deal", CC_VALUE_CARD,
                          "player (-1 the Hound) is dealt value to place target "
                          "(0 hand, 1 face-up, 2 table face-down, 3 Hound); extra pile"},
    [CC_NANCY_EV_BID] = {"bid", CC_VALUE_NUMBER, "player bids value (0: pass)"},
    [CC_NANCY_EV_TAKER] = {"taker", CC_VALUE_NUMBER, "player takes with bid value"},
    [CC_NANCY_EV_CALL] = {"call", CC_VALUE_CARD, "the Taker player calls value"},
    [CC_NANCY_EV_HOUND] = {"hound", CC_VALUE_CARD,
                           "the Taker player takes value from the Hound; extra 1 if shown"},
    [CC_NANCY_EV_DISCARD] = {"discard", CC_VALUE_CARD,
                             "the Taker player discards value; extra 1 shown trump, 2 face-up"},
    [CC_NANCY_EV_PLAY] = {"play", CC_VALUE_CARD, "player plays value; extra trick index"},
    [CC_NANCY_EV_PARTNER] = {"partner", CC_VALUE_CARD,
                             "player holds the called card value; extra 1 if a Partner"},
    [CC_NANCY_EV_FLIP] = {"flip", CC_VALUE_CARD,
                          "value is turned up on player's table pile extra (2 players)"},
    [CC_NANCY_EV_TRICK] = {"trick", CC_VALUE_NUMBER,
                           "player wins trick value; extra pile (0 Nancy, 1 opponents)"},
    [CC_NANCY_EV_DEBT] = {"debt", CC_VALUE_NONE,
                          "player, the Outsider's owner, owes trick winner target a card"},
    [CC_NANCY_EV_EXCHANGE] = {"exchange", CC_VALUE_CARD,
                              "player (-1 a random draw) gives value to pile target "
                              "(0 Nancy); extra 1 if a deferred payment"},
    [CC_NANCY_EV_RESULT] = {"result", CC_VALUE_NUMBER,
                            "the Taker player completed target objectives, mask value; "
                            "extra won | Outsider-decided << 1"},
    [CC_NANCY_EV_SCORE] = {"score", CC_VALUE_NUMBER,
                           "player scores value; extra the cumulative score"},
    [CC_NANCY_EV_GAME_OVER] = {"game_over", CC_VALUE_NONE, "the match is over"},
};

static const cc_action_range ACTION_RANGES[] = {
    {"pass", CC_NANCY_A_PASS, 1, CC_ARG_NONE, 0, 0},
    {"bid {number}", CC_NANCY_A_BID, 9, CC_ARG_NUMBER, 1, 0},
    {"call {card}", CC_NANCY_A_CALL, 78, CC_ARG_CARD, 0, 0},
    {"discard {card}", CC_NANCY_A_DISCARD, 78, CC_ARG_CARD, 0, 0},
    {"play {card}", CC_NANCY_A_PLAY, 78, CC_ARG_CARD, 0, 0},
    {"pick {card}", CC_NANCY_A_PICK, 78, CC_ARG_CARD, 0, 0},
};

static int32_t cc_nancy_num_actions(const int32_t *params, int32_t nplayers) {
    (void)params;
    (void)nplayers;
    return CC_NANCY_NUM_ACTIONS;
}

static const int32_t EACH[7] = {0, 0, 36, 24, 18, 15, 12};

static inline void ev_push(cc_nancy_state *s, int32_t kind, int32_t player, int32_t target,
                           int32_t value, int32_t extra, uint32_t seen) {
    cc_log_event(&s->log, kind, player, target, value, extra, seen);
    if (seen != CC_SEEN_ALL) s->hidden_end = s->log.total;
}

/* the seat after p (0 <= p < n), without a division */
/* The deal's shape (docs/nancy.rst, "The deal"): the Hound's size and the
 * packet's, by player count. */
static inline int32_t hound_size(int32_t nplayers) { return nplayers == 5 ? 3 : 6; }
static inline int32_t packet_size(int32_t nplayers) { return nplayers == 2 ? 4 : 3; }

/* The Hound's places in a stacked deck, the fixed schedule of docs/nancy.rst:
 * the j-th Hound card goes before packet floor(j * npk / (H + 1)). */
static void stacked_hound(int32_t npk, int32_t H, uint8_t *chosen) {
    for (int32_t j = 1; j <= H; j++) chosen[j * npk / (H + 1)] = 1;
}

/* The one deal schedule: to[i] is who receives the deck's i-th card, top
 * first: the seat, or -1 for the Hound.  The npk packets go to the seats in
 * turn from the dealer's left (packet k to seat (dealer + 1 + k) mod n), a
 * Hound card before each packet k with chosen[k], the cards left to the Hound
 * (cc_nancy_deal_schedule gives it to the bindings). */
static void deal_receivers(int32_t n, int32_t dealer, int32_t packet, int32_t npk,
                           const uint8_t *chosen, int8_t *to) {
    int32_t pos = 0;
    for (int32_t k = 0, q = dealer; k < npk; k++) {
        if (chosen[k]) to[pos++] = -1;
        q = q + 1 < n ? q + 1 : 0;
        for (int32_t j = 0; j < packet; j++) to[pos++] = (int8_t)q;
    }
    while (pos < 78) to[pos++] = -1;
}

static inline int32_t nxt(const cc_nancy_state *s, int32_t p) { return p + 1 < s->n ? p + 1 : 0; }

static inline int32_t pile_of(const cc_nancy_state *s, int32_t p) {
    if (p == s->taker) return CC_NANCY_PILE_NANCY;
    if (p == s->partner && s->params[CC_NANCY_P_PARTNER_TRICKS_TO] == 1) return CC_NANCY_PILE_NANCY;
    return CC_NANCY_PILE_OPP;
}

static void place(cc_nancy_state *s, int32_t q, int32_t c, int32_t idx) {
    if (s->n == 2) {
        if (idx < 8) {
            s->pbot[q][idx] = (int8_t)c;
            ev_push(s, CC_NANCY_EV_DEAL, q, CC_NANCY_PLACE_TABLE_DOWN, c, idx, 0);
        } else if (idx < 16) {
            s->ptop[q][idx - 8] = (int8_t)c;
            cs_add(&s->up[q], c);
            ev_push(s, CC_NANCY_EV_DEAL, q, CC_NANCY_PLACE_FACE_UP, c, idx - 8, CC_SEEN_ALL);
        } else {
            cs_add(&s->hand[q], c);
            ev_push(s, CC_NANCY_EV_DEAL, q, CC_NANCY_PLACE_HAND, c, -1, 1u << q);
        }
        return;
    }
    if (idx < s->params[CC_NANCY_P_FACE_UP_COUNT]) {
        cs_add(&s->up[q], c);
        ev_push(s, CC_NANCY_EV_DEAL, q, CC_NANCY_PLACE_FACE_UP, c, -1, CC_SEEN_ALL);
    } else {
        cs_add(&s->hand[q], c);
        ev_push(s, CC_NANCY_EV_DEAL, q, CC_NANCY_PLACE_HAND, c, -1, 1u << q);
    }
}

static void add_hound(cc_nancy_state *s, int32_t c) {
    cs_add(&s->hound, c);
    ev_push(s, CC_NANCY_EV_DEAL, -1, CC_NANCY_PLACE_HOUND, c, -1, 0);
}

static void deal(cc_nancy_state *s, const uint8_t *given) {
    for (int32_t p = 0; p < CC_NANCY_MAX_PLAYERS; p++) {
        s->hand[p].lo = s->hand[p].hi = 0;
        s->up[p].lo = s->up[p].hi = 0;
        s->bid[p] = -1;
        s->voids[p] = 0;
        s->ceil[p] = 21;
    }
    memset(s->ptop, -1, sizeof s->ptop);
    memset(s->pbot, -1, sizeof s->pbot);
    s->flip_pending[0] = s->flip_pending[1] = 0;
    s->hound.lo = s->hound.hi = 0;
    s->high_bid = 0;
    s->high_bidder = -1;
    s->nacted = 0;
    s->passed = 0;
    s->taker = s->partner = s->called = -1;
    s->partner_revealed = 0;
    s->required_taker_ranks = 0;
    s->call_free = 0;
    s->discards.lo = s->discards.hi = s->shown.lo = s->shown.hi = 0;
    s->disc_public.lo = s->disc_public.hi = 0;
    s->took.lo = s->took.hi = 0;
    s->ndisc = 0;
    s->pile[0].lo = s->pile[0].hi = s->pile[1].lo = s->pile[1].hi = 0;
    s->played.lo = s->played.hi = 0;
    s->leader = s->trick_n = s->trick_idx = 0;
    s->trick_led = -1;
    s->trick_high = 0;
    s->last_winner = -1;
    memset(s->trick_card, -1, sizeof s->trick_card);
    memset(s->trick_player, -1, sizeof s->trick_player);
    s->taker_won_all = 1;
    s->out_player = -1;
    s->debt = 0;
    s->debt_from = s->debt_to = s->debt_winner = s->debt_owner = -1;
    s->pick_set.lo = s->pick_set.hi = 0;
    s->pick_from = s->pick_to = -1;
    s->pick_deferred = 0;
    s->chosen_pending = s->chosen = 0;
    s->rule13 = -1;

    s->deal_event = s->log.total;
    ev_push(s, CC_NANCY_EV_DEALER, s->dealer, -1, s->rounds_done, s->thrown_in, CC_SEEN_ALL);
    uint8_t deck[78];
    if (given != NULL) {
        memcpy(deck, given, sizeof deck);
    } else {
        for (int32_t i = 0; i < 78; i++) deck[i] = (uint8_t)i;
        cc_rng_shuffle_u8(&s->rng, deck, 78);
    }
    int32_t packet = s->packet, H = s->hsize;
    int32_t npk = (78 - H) / packet;
    uint8_t chosen[32];
    memset(chosen, 0, sizeof chosen);
    int32_t enforce = s->params[CC_NANCY_P_HOUND_POSITION_RULE] == 1;
    if (enforce && given != NULL) {
        stacked_hound(npk, H, chosen);
    } else if (enforce) {
        uint8_t b[32];
        int32_t m = npk - 1;
        for (int32_t i = 0; i < m; i++) b[i] = (uint8_t)(i + 1);
        cc_rng_partial_shuffle(&s->rng, b, m, H, 0);
        for (int32_t i = 0; i < H; i++) chosen[b[i]] = 1;
    }
    int8_t to[78];
    deal_receivers(s->n, s->dealer, packet, npk, chosen, to);
    int32_t cnt[CC_NANCY_MAX_PLAYERS] = {0};
    for (int32_t pos = 0; pos < 78; pos++) {
        if (to[pos] < 0) add_hound(s, deck[pos]);
        else place(s, to[pos], deck[pos], cnt[to[pos]]++);
    }
    s->phase = CC_NANCY_PH_BID;
    s->cur = nxt(s, s->dealer);
}

int32_t cc_nancy_deal_schedule(const int32_t *params, int32_t nplayers, int32_t dealer,
                               int8_t *out) {
    if (nplayers < 2 || nplayers > CC_NANCY_MAX_PLAYERS) return CC_E_PLAYERS;
    int32_t rc = cc_game_check_params(&cc_game_nancy, params, nplayers, NULL);
    if (rc != CC_OK) return rc;
    if (dealer < 0 || dealer >= nplayers || out == NULL) return CC_E_ARG;
    int32_t H = hound_size(nplayers), packet = packet_size(nplayers);
    int32_t npk = (78 - H) / packet;
    uint8_t chosen[32];
    memset(chosen, 0, sizeof chosen);
    if (params[CC_NANCY_P_HOUND_POSITION_RULE] == 1) stacked_hound(npk, H, chosen);
    deal_receivers(nplayers, dealer, packet, npk, chosen, out);
    return CC_OK;
}

/* init and init_deck: deal the first deal from the shuffled deck, or from
 * `given` (78 distinct card ids, top first). */
static int32_t start_match(void *state, const int32_t *params, int32_t nplayers, uint64_t seed,
                           const uint8_t *given) {
    if (state == NULL) return CC_E_ARG;
    if (nplayers < 2 || nplayers > CC_NANCY_MAX_PLAYERS) return CC_E_PLAYERS;
    int32_t rc = cc_game_check_params(&cc_game_nancy, params, nplayers, NULL);
    if (rc != CC_OK) return rc;
    cc_nancy_state *s = (cc_nancy_state *)state;
    memset(s, 0, offsetof(cc_nancy_state, log));
    memcpy(s->params, params, sizeof s->params);
    s->n = nplayers;
    s->each = EACH[nplayers];
    s->hsize = hound_size(nplayers);
    s->packet = packet_size(nplayers);
    s->rounds_total = params[CC_NANCY_P_MATCH_ROUNDS] ? params[CC_NANCY_P_MATCH_ROUNDS] : nplayers;
    cc_rng_seed(&s->rng, seed);
    /* the first draw is made even when first_dealer fixes the seat */
    s->dealer = (int32_t)cc_rng_below_inline(&s->rng, (uint64_t)nplayers);
    if (params[CC_NANCY_P_FIRST_DEALER] >= 0) s->dealer = params[CC_NANCY_P_FIRST_DEALER];
    cc_log_init(&s->log, CC_NANCY_LOG_CAP);
    deal(s, given);
    return CC_OK;
}

static int32_t cc_nancy_init(void *state, const int32_t *params, int32_t nplayers, uint64_t seed) {
    return start_match(state, params, nplayers, seed, NULL);
}

static int32_t cc_nancy_init_deck(void *state, const int32_t *params, int32_t nplayers,
                                  uint64_t seed, const uint8_t *deck, int32_t ndeck) {
    if (state == NULL) return CC_E_ARG;
    if (nplayers < 2 || nplayers > CC_NANCY_MAX_PLAYERS) return CC_E_PLAYERS;
    int32_t rc = cc_game_check_params(&cc_game_nancy, params, nplayers, NULL);
    if (rc != CC_OK) return rc;
    if (!cc_deck_is_permutation(deck, ndeck, 78)) return CC_E_ARG;
    return start_match(state, params, nplayers, seed, deck);
}

static int32_t cc_nancy_current_player(const void *state) {
    const cc_nancy_state *s = (const cc_nancy_state *)state;
    return s->phase == CC_NANCY_PH_OVER ? CC_PLAYER_TERMINAL : s->cur;
}

/* ---- transitions -------------------------------------------------------- */

/* 2 players: turn up the card beneath each pile top that left the table
 * (played to a trick or discarded); it is public from now on. */
static void flip_uncovered(cc_nancy_state *s) {
    if (s->n != 2) return;
    for (int32_t q = 0; q < 2; q++) {
        for (int32_t i = 0; i < 8; i++) {
            if (!(s->flip_pending[q] & (1u << i))) continue;
            int32_t c = s->pbot[q][i];
            s->ptop[q][i] = (int8_t)c;
            s->pbot[q][i] = -1;
            if (c >= 0) {
                cs_add(&s->up[q], c);
                ev_push(s, CC_NANCY_EV_FLIP, q, -1, c, i, CC_SEEN_ALL);
            }
        }
        s->flip_pending[q] = 0;
    }
}

static void start_play(cc_nancy_state *s) {
    flip_uncovered(s); /* a discarded pile top uncovers its card now */
    s->phase = CC_NANCY_PH_PLAY;
    s->leader = s->cur = nxt(s, s->dealer);
    s->trick_n = 0;
    s->trick_led = -1;
    s->trick_high = 0;
    s->trick_idx = 0;
}

static void take_hound(cc_nancy_state *s) {
    int32_t shown = s->params[CC_NANCY_P_REVEAL_HOUND] == 1;
    for (int32_t k = 0; k < s->hsize; k++) {
        int32_t c = cs_nth(s->hound, k);
        ev_push(s, CC_NANCY_EV_HOUND, s->taker, -1, c, shown, shown ? CC_SEEN_ALL : 1u << s->taker);
    }
    s->hand[s->taker] = cs_or(s->hand[s->taker], s->hound);
    s->took = s->hand[s->taker];
    s->phase = CC_NANCY_PH_DISCARD;
    s->cur = s->taker;
    s->ndisc = 0;
}

static void end_round(cc_nancy_state *s);
static void deal(cc_nancy_state *s, const uint8_t *given);

static void finish_bidding(cc_nancy_state *s) {
    if (s->high_bid == 0) { /* all passed: thrown-in deal */
        s->thrown_in++;
        s->dealer = nxt(s, s->dealer);
        deal(s, NULL);
        return;
    }
    s->taker = s->high_bidder;
    ev_push(s, CC_NANCY_EV_TAKER, s->taker, -1, s->high_bid, 0, CC_SEEN_ALL);
    if (s->n >= 5) {
        s->phase = CC_NANCY_PH_CALL;
        s->cur = s->taker;
    } else {
        take_hound(s);
    }
}

static void remove_from_holding(cc_nancy_state *s, int32_t p, int32_t c) {
    if (cs_has(s->up[p], c)) {
        cs_del(&s->up[p], c);
        if (s->n == 2)
            for (int32_t i = 0; i < 8; i++)
                if (s->ptop[p][i] == c) s->flip_pending[p] |= (uint8_t)(1u << i);
    } else {
        cs_del(&s->hand[p], c);
    }
}

static void do_exchange(cc_nancy_state *s, int32_t c, int32_t chooser) {
    cs_del(&s->pile[s->pick_from], c);
    cs_add(&s->pile[s->pick_to], c);
    ev_push(s, CC_NANCY_EV_EXCHANGE, chooser, s->pick_to, c, s->pick_deferred, CC_SEEN_ALL);
    if (s->pick_to == CC_NANCY_PILE_NANCY && s->chosen_pending) {
        s->chosen = is_face(c);
        s->chosen_pending = 0;
    }
    s->pick_set.lo = s->pick_set.hi = 0;
}

static inline int32_t side_chooser(const cc_nancy_state *s, int32_t pile, int32_t player) {
    return pile == CC_NANCY_PILE_NANCY ? s->taker : player;
}

/* Start an exchange: random draw now, or a PICK decision.  1 if pending. */
static int start_exchange(cc_nancy_state *s, int32_t from, int32_t to, cc_nancy_cards elig,
                          int32_t deferred, int32_t random, int32_t chooser) {
    s->pick_from = from;
    s->pick_to = to;
    s->pick_deferred = deferred;
    if (random) {
        int32_t k = (int32_t)cc_rng_below_inline(&s->rng, (uint64_t)cs_count(elig));
        do_exchange(s, cs_nth(elig, k), -1);
        return 0;
    }
    s->pick_set = elig;
    s->phase = CC_NANCY_PH_PICK;
    s->cur = chooser;
    return 1;
}

static void next_trick(cc_nancy_state *s) {
    s->trick_idx++;
    s->trick_n = 0;
    s->trick_led = -1;
    s->trick_high = 0;
    memset(s->trick_card, -1, sizeof s->trick_card);
    memset(s->trick_player, -1, sizeof s->trick_player);
    if (s->trick_idx == s->each) {
        end_round(s);
        return;
    }
    s->phase = CC_NANCY_PH_PLAY;
    s->leader = s->cur = s->last_winner;
}

static void finish_trick(cc_nancy_state *s) {
    int32_t n = s->n;
    int32_t last = s->trick_idx == s->each - 1;
    int32_t slam = last && s->params[CC_NANCY_P_FAT_NANCY_OUTSIDER_EXCEPTION] == 1 &&
                   s->trick_card[0] == CC_NANCY_OUTSIDER && s->trick_player[0] == s->taker &&
                   s->taker_won_all;
    int32_t w = slam ? s->taker : s->trick_player[winner_pos(s->trick_card, n)];
    int32_t wp = pile_of(s, w);
    cc_nancy_cards cards = {0, 0};
    int32_t has_out = 0;
    for (int32_t i = 0; i < n; i++) {
        if (s->trick_card[i] == CC_NANCY_OUTSIDER) has_out = 1;
        else cs_add(&cards, s->trick_card[i]);
    }
    s->pile[wp] = cs_or(s->pile[wp], cards);
    if (w != s->taker) s->taker_won_all = 0;
    s->last_winner = w;
    ev_push(s, CC_NANCY_EV_TRICK, w, -1, s->trick_idx, wp, CC_SEEN_ALL);
    flip_uncovered(s); /* the cards beneath played pile tops */
    int pending = 0;
    if (has_out && !last) {
        int32_t o = s->out_player, op = pile_of(s, o);
        cs_add(&s->pile[op], CC_NANCY_OUTSIDER);
        if (op != wp) {
            s->chosen_pending = (o != s->taker && w == s->taker);
            cc_nancy_cards elig = s->pile[op];
            cs_del(&elig, CC_NANCY_OUTSIDER);
            if (!(op == CC_NANCY_PILE_NANCY && s->params[CC_NANCY_P_EXCHANGE_FROM_DISCARD] == 1))
                elig = cs_andnot(elig, s->discards);
            if (cs_empty(elig)) {
                s->debt = 1;
                s->debt_from = op;
                s->debt_to = wp;
                s->debt_winner = w;
                s->debt_owner = o;
                ev_push(s, CC_NANCY_EV_DEBT, o, w, 0, 0, CC_SEEN_ALL);
            } else {
                int32_t random = s->params[CC_NANCY_P_OUTSIDER_EXCHANGE_MODE] == 0;
                pending = start_exchange(s, op, wp, elig, 0, random, side_chooser(s, op, o));
            }
        }
    } else if (has_out) {
        cs_add(&s->pile[wp], CC_NANCY_OUTSIDER);
        if (s->params[CC_NANCY_P_OUTSIDER_LAST_TRICK] == 0 && !slam) {
            int32_t o = s->out_player;
            int32_t side = (o == s->taker || o == s->partner);
            s->rule13 = side ? 0 : (w == s->taker || w == s->partner);
        }
    } else if (s->debt && wp == s->debt_from) {
        int32_t mode = s->params[CC_NANCY_P_DEFERRED_EXCHANGE_PICK];
        int32_t chooser = mode == 0 ? side_chooser(s, s->debt_to, s->debt_winner)
                                    : side_chooser(s, s->debt_from, s->debt_owner);
        s->debt = 0;
        pending = start_exchange(s, s->debt_from, s->debt_to, cards, 1, mode == 1, chooser);
    }
    if (!pending) next_trick(s);
}

static void end_round(cc_nancy_state *s) {
    int32_t obj =
        cc_nancy_objectives_of(s->pile[CC_NANCY_PILE_NANCY], s->params[CC_NANCY_P_ARCANE_SUM_MODE]);
    if (s->taker_won_all) obj |= CC_NANCY_OBJ_FAT_NANCY;
    if (s->chosen) obj |= CC_NANCY_OBJ_CHOSEN_BY_THE_OUTSIDER;
    int32_t completed = cc_popcount64((uint64_t)obj);
    int32_t won = s->rule13 >= 0 ? s->rule13 : (completed > 0 && completed >= s->high_bid);
    int32_t delta[CC_NANCY_MAX_PLAYERS];
    cc_nancy_settlement(s->n, s->taker, s->partner, s->high_bid, completed, won, delta);
    if (s->partner >= 0 && !s->partner_revealed) {
        s->partner_revealed = 1;
        ev_push(s, CC_NANCY_EV_PARTNER, s->partner, -1, s->called, 1, CC_SEEN_ALL);
    }
    ev_push(s, CC_NANCY_EV_RESULT, s->taker, completed, obj, won | ((s->rule13 >= 0) << 1),
            CC_SEEN_ALL);
    for (int32_t p = 0; p < s->n; p++) {
        s->scores[p] += delta[p];
        ev_push(s, CC_NANCY_EV_SCORE, p, -1, delta[p], s->scores[p], CC_SEEN_ALL);
    }
    s->rounds_done++;
    s->thrown_in = 0;
    s->dealer = nxt(s, s->dealer);
    if (s->rounds_done >= s->rounds_total) {
        s->phase = CC_NANCY_PH_OVER;
        s->cur = CC_PLAYER_TERMINAL;
        ev_push(s, CC_NANCY_EV_GAME_OVER, -1, -1, 0, 0, CC_SEEN_ALL);
        return;
    }
    deal(s, NULL);
}

static void play_card(cc_nancy_state *s, int32_t c) {
    int32_t p = s->cur;
    if (c != CC_NANCY_OUTSIDER && s->trick_n > 0) {
        int32_t led = s->trick_led, high = s->trick_high;
        if (led >= 0 && led < 4) {
            if (c >= 56 || c / 14 != led) {
                s->voids[p] |= (uint8_t)(1u << led);
                if (!is_trump(c)) s->ceil[p] = 0;
                else if (c - 55 < high && high < s->ceil[p]) s->ceil[p] = (int8_t)high;
            }
        } else if (led == 4) {
            if (!is_trump(c)) s->ceil[p] = 0;
            else if (s->params[CC_NANCY_P_OVERTRUMP_ON_TRUMP_LEAD] && c - 55 < high &&
                     high < s->ceil[p])
                s->ceil[p] = (int8_t)high;
        }
    }
    remove_from_holding(s, p, c);
    cs_add(&s->played, c);
    s->trick_card[s->trick_n] = (int8_t)c;
    s->trick_player[s->trick_n] = (int8_t)p;
    s->trick_n++;
    if (c != CC_NANCY_OUTSIDER) { /* trick_summary, kept up to date */
        if (s->trick_led < 0) s->trick_led = c < 56 ? c / 14 : 4;
        if (c >= 56 && c - 55 > s->trick_high) s->trick_high = c - 55;
    }
    ev_push(s, CC_NANCY_EV_PLAY, p, -1, c, s->trick_idx, CC_SEEN_ALL);
    if (c == s->called && !s->partner_revealed) {
        s->partner_revealed = 1;
        ev_push(s, CC_NANCY_EV_PARTNER, p, -1, c, p != s->taker, CC_SEEN_ALL);
    }
    if (c == CC_NANCY_OUTSIDER) s->out_player = p;
    if (s->trick_n < s->n) s->cur = nxt(s, p);
    else finish_trick(s);
}

static int32_t cc_nancy_apply(void *state, int32_t a) {
    cc_nancy_state *s = (cc_nancy_state *)state;
    if (!cc_log_trusted(&s->log)) { /* (a search's copy: a from its legal mask) */
        int32_t r = cc_nancy_verify(s, a);
        if (r != 0) return cc_status_error(r, CC_E_ILLEGAL);
    }
    switch (s->phase) {
    case CC_NANCY_PH_BID: {
        int32_t p = s->cur;
        s->bid[p] = (int8_t)a;
        if (a == CC_NANCY_A_PASS) {
            s->passed |= 1u << p;
        } else {
            s->high_bid = a;
            s->high_bidder = p;
        }
        s->nacted++;
        ev_push(s, CC_NANCY_EV_BID, p, -1, a, 0, CC_SEEN_ALL);
        uint32_t all = (1u << s->n) - 1;
        if (s->params[CC_NANCY_P_BIDDING_STYLE] == 0) {
            if (s->nacted == s->n) finish_bidding(s);
            else s->cur = nxt(s, p);
        } else {
            int32_t active = s->n - cc_popcount64(s->passed);
            if (s->passed == all || (s->high_bid > 0 && active == 1)) {
                finish_bidding(s);
            } else {
                int32_t q = nxt(s, p);
                while (s->passed & (1u << q)) q = nxt(s, q);
                s->cur = q;
            }
        }
        return CC_OK;
    }
    case CC_NANCY_PH_CALL: {
        int32_t c = a - CC_NANCY_A_CALL;
        s->called = c;
        cc_nancy_callable(s, &s->required_taker_ranks);
        cc_nancy_cards req = {0, 0};
        for (int32_t r = 0; r < 14; r++)
            if (s->required_taker_ranks & (1u << r)) req = cs_or(req, rank_set(r));
        cc_nancy_cards held_req = {s->hand[s->taker].lo & req.lo, s->hand[s->taker].hi & req.hi};
        s->call_free = cs_count(s->hand[s->taker]) + s->hsize - cs_count(held_req);
        s->partner = -1;
        for (int32_t q = 0; q < s->n; q++)
            if (q != s->taker && cs_has(cs_or(s->hand[q], s->up[q]), c)) s->partner = q;
        ev_push(s, CC_NANCY_EV_CALL, s->taker, -1, c, 0, CC_SEEN_ALL);
        take_hound(s);
        return CC_OK;
    }
    case CC_NANCY_PH_DISCARD: {
        int32_t c = a - CC_NANCY_A_DISCARD;
        int32_t t = s->taker;
        int32_t faceup = cs_has(s->up[t], c);
        remove_from_holding(s, t, c);
        cs_add(&s->discards, c);
        cs_add(&s->pile[CC_NANCY_PILE_NANCY], c);
        int32_t shown = is_trump(c);
        if (shown) cs_add(&s->shown, c);
        if (shown || faceup) cs_add(&s->disc_public, c);
        ev_push(s, CC_NANCY_EV_DISCARD, t, -1, c, shown | (faceup << 1),
                (shown || faceup) ? CC_SEEN_ALL : 1u << t);
        if (++s->ndisc == s->hsize) start_play(s);
        return CC_OK;
    }
    case CC_NANCY_PH_PLAY: play_card(s, a - CC_NANCY_A_PLAY); return CC_OK;
    case CC_NANCY_PH_PICK:
        do_exchange(s, a - CC_NANCY_A_PICK, s->cur);
        next_trick(s);
        return CC_OK;
    default: return CC_E_GAME_OVER;
    }
}

static void cc_nancy_returns(const void *state, int32_t *out) {
    const cc_nancy_state *s = (const cc_nancy_state *)state;
    for (int32_t p = 0; p < s->n; p++) out[p] = s->scores[p];
}

/* Rounds finished (a thrown-in deal is not one). */
static int32_t cc_nancy_deal_index(const void *state, int32_t *dealer) {
    const cc_nancy_state *s = (const cc_nancy_state *)state;
    if (dealer != NULL) *dealer = s->dealer;
    return s->rounds_done;
}

const cc_game cc_game_nancy = {
    CC_GAME_HEADER,
    .name = "nancy",
    .min_players = 2,
    .max_players = CC_NANCY_MAX_PLAYERS,
    .deck_size = CC_DECK_78,
    .state_size = sizeof(cc_nancy_state),
    .log_offset = offsetof(cc_nancy_state, log),
    .log_capacity = CC_NANCY_LOG_CAP,
    .num_params = CC_NANCY_NUM_PARAMS,
    .params = PARAMS,
    .check_params = cc_nancy_check_params,
    .num_actions = cc_nancy_num_actions,
    .tensor_size = cc_nancy_tensor_size,
    .segments = cc_nancy_segments,
    .num_event_kinds = CC_NANCY_NUM_EVENT_KINDS,
    .event_kinds = EVENT_KINDS,
    .num_action_ranges = (int32_t)(sizeof ACTION_RANGES / sizeof ACTION_RANGES[0]),
    .action_ranges = ACTION_RANGES,
    .init = cc_nancy_init,
    .init_deck = cc_nancy_init_deck,
    .current_player = cc_nancy_current_player,
    .legal_actions = cc_nancy_legal_actions,
    .verify = cc_nancy_verify,
    .reason_text = cc_nancy_reason_text,
    .apply = cc_nancy_apply,
    .returns = cc_nancy_returns,
    .observe_tensor = cc_nancy_observe_tensor,
    .sample_infoset = cc_nancy_sample_infoset,
    .heuristic = cc_nancy_heuristic,
    .sample_prepare = cc_nancy_sample_prepare,
    .sample_draw = cc_nancy_sample_draw,
    .sample_scratch_size = CC_NANCY_SAMPLE_SCRATCH,
    .deal_index = cc_nancy_deal_index,
    .solve_depth = cc_nancy_solve_depth,
    .solve = cc_nancy_solve,
};
