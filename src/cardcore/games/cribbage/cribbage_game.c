/* cribbage_game.c: Cribbage, the American Cribbage Congress rules
 * (docs/cribbage.rst): the rules parameters, the state and its transitions,
 * and the game table.
 *
 * The show and play scoring is the family's scorer (score_internal.h,
 * core/show_score.c), shared with Nodde Knave, given the cribbage rules
 * (cribbage_internal.h); the scoring API, the rank table and the discard
 * analysis are cribbage_score.c, the observation tensor cribbage_observe.c,
 * the sampler cribbage_sample.c, the heuristic cribbage_bot.c. */
#include "cribbage_internal.h"

/* ---- rules parameters ---------------------------------------------------- */

/* docs/cribbage.rst, "Rules parameters": the fields of the Python
 * CribbageRules, in the same order, with the same defaults. */
static const cc_param cribbage_params[NP] = {
    [CC_CRIBBAGE_P_GAME_TARGET] = {.name = "game_target",
                                   .kind = CC_PARAM_INT,
                                   .min = 1,
                                   .max = CC_CRIBBAGE_MAX_TARGET,
                                   .default_value = 121,
                                   .doc = "points to win (121; 61 is the short game)"},
    [CC_CRIBBAGE_P_CRIB_FOUR_FLUSH] = {.name = "crib_four_flush",
                                       .kind = CC_PARAM_BOOL,
                                       .min = 0,
                                       .max = 1,
                                       .default_value = 0,
                                       .doc = "a crib flush of the four crib cards counts 4 "
                                              "(not the ACC rule: only a five-card crib flush)"},
    [CC_CRIBBAGE_P_FIRST_DEALER] = {.name = "first_dealer",
                                    .kind = CC_PARAM_OPTIONAL,
                                    .min = 0,
                                    .max = CC_CRIBBAGE_MAX_PLAYERS - 1,
                                    .default_value = -1,
                                    .none_value = -1,
                                    .doc = "the first dealer's seat, or None: cut for deal"},
    [CC_CRIBBAGE_P_MUGGINS] = {.name = "muggins",
                               .kind = CC_PARAM_BOOL,
                               .min = 0,
                               .max = 1,
                               .default_value = 0,
                               .doc = "players claim their own show; an opponent may take "
                                      "points overlooked (ACC rule 10)"},
    [CC_CRIBBAGE_P_OVERCLAIM] = {.name = "overclaim",
                                 .kind = CC_PARAM_CHOICE,
                                 .min = 0,
                                 .max = 1,
                                 .default_value = CC_CRIBBAGE_OVERCLAIM_CORRECT,
                                 .choices = "correct|penalty",
                                 .doc = "with muggins, a claim over the true score: corrected "
                                        "(ACC), or corrected and the excess to the opponent"},
    [CC_CRIBBAGE_P_PARTNERSHIP] = {.name = "partnership",
                                   .kind = CC_PARAM_CHOICE,
                                   .min = 0,
                                   .max = 1,
                                   .default_value = CC_CRIBBAGE_PARTNERS_CUT,
                                   .choices = "cut|seats",
                                   .doc = "4 players: partners by the cut (ACC), or seats 0+2 "
                                          "against 1+3"},
};

static int32_t cc_cribbage_check_params(const int32_t *params, int32_t nplayers, int32_t *bad) {
    int32_t ignored;
    if (bad == NULL) bad = &ignored;
    if (params == NULL) return CC_E_ARG;
    if (nplayers == 0) return CC_OK;
    if (params[CC_CRIBBAGE_P_FIRST_DEALER] >= nplayers) {
        *bad = CC_CRIBBAGE_P_FIRST_DEALER;
        return CC_E_PARAMS;
    }
    return CC_OK;
}

/* ---- the game ------------------------------------------------------------------ */

/* player: a position (logged as its seat); seen_by: positions' bits. */
static void log_ev(cribbage_state *s, int32_t kind, int32_t player, int32_t target, int32_t value,
                   int32_t extra, uint32_t seen_by) {
    if (cc_log_muted(&s->log)) return; /* a search's copy: nothing to map */
    if (player >= 0 && player < s->n) player = s->seat_of[player];
    if (seen_by != CC_SEEN_ALL) {
        uint32_t b = 0;
        for (int32_t q = 0; q < s->n; q++)
            if (seen_by >> q & 1) b |= 1u << s->seat_of[q];
        seen_by = b;
    }
    cc_log_push(&s->log, kind, player, target, value, extra, seen_by);
}

/* docs/cribbage.rst, "Game end and skunks": a loser short of target - 30
 * (91 of 121) is skunked, short of target - 60 (61 of 121) double skunked. */
static void finish(cribbage_state *s, int32_t seat) {
    int32_t side = side_of(s, seat);
    s->winner = side;
    s->to_act = TERMINAL;
    int32_t worst = 0;
    for (int32_t q = 0; q < s->n; q++) {
        int32_t sc = s->score[side_of(s, q)];
        int32_t k = side_of(s, q) == side  ? 0
                    : sc <= s->target - 61 ? 2
                    : sc <= s->target - 31 ? 1
                                           : 0;
        s->skunk[q] = k;
        if (k) log_ev(s, CC_CRIBBAGE_EV_SKUNK, q, -1, k, sc, CC_SEEN_ALL);
        if (k > worst) worst = k;
    }
    log_ev(s, CC_CRIBBAGE_EV_GAME_OVER, seat, side, s->score[side], worst, CC_SEEN_ALL);
}

/* Peg points to seat's side; 1 if that ends the game. */
static int32_t peg(cribbage_state *s, int32_t seat, int32_t pts) {
    if (pts <= 0) return 0;
    int32_t side = side_of(s, seat);
    s->score[side] += pts;
    if (s->score[side] >= s->target) {
        finish(s, seat);
        return 1;
    }
    return 0;
}

static int32_t deal_card(cribbage_state *s) {
    return cc_deal_next(s->deck, NUM_CARDS, &s->top, s->stacked, &s->rng);
}

static void start_deal(cribbage_state *s);

/* docs/cribbage.rst, "The show": pone(s) from the dealer's left, the
 * dealer, then the crib; the game ends as soon as a side reaches the target. */
/* The true points of show item k (1..n: the hands from the dealer's left,
 * n + 1: the crib). */
static int32_t item_points(const cribbage_state *s, int32_t k) {
    int32_t four = s->params[CC_CRIBBAGE_P_CRIB_FOUR_FLUSH];
    if (k <= s->n) {
        int32_t q = (s->dealer + k) % s->n;
        return show_points(s->dealt[q] & ~s->disc[q], s->starter, 0, four);
    }
    return show_points(crib_of(s), s->starter, 1, four);
}

static void log_crib(cribbage_state *s) {
    for (uint64_t u = crib_of(s); u; u &= u - 1)
        log_ev(s, CC_CRIBBAGE_EV_CRIB_CARD, s->dealer, -1, cc_card52_id_of_bit(cc_ctz64(u)), 0,
               CC_SEEN_ALL);
}

/* Muggins: on to the next item of the show (its owner claims), or the next
 * deal. */
static void next_show(cribbage_state *s) {
    s->show_k++;
    s->claim = -1;
    s->calling = 0;
    if (s->show_k > s->n + 1) {
        s->dealer = (s->dealer + 1) % s->n;
        start_deal(s);
        return;
    }
    if (s->show_k == s->n + 1) {
        log_crib(s);
        s->crib_shown = 1;
        s->to_act = s->dealer;
    } else {
        s->to_act = (s->dealer + s->show_k) % s->n;
    }
}

static void show(cribbage_state *s) {
    int32_t four = s->params[CC_CRIBBAGE_P_CRIB_FOUR_FLUSH];
    if (s->params[CC_CRIBBAGE_P_MUGGINS]) {
        s->phase = PHASE_SHOW;
        s->show_k = 0;
        next_show(s);
        return;
    }
    for (int32_t i = 1; i <= s->n; i++) {
        int32_t q = (s->dealer + i) % s->n;
        int32_t pts = show_points(s->dealt[q] & ~s->disc[q], s->starter, 0, four);
        log_ev(s, CC_CRIBBAGE_EV_SHOW_HAND, q, -1, pts, 0, CC_SEEN_ALL);
        if (peg(s, q, pts)) return;
    }
    uint64_t crib = crib_of(s);
    log_crib(s);
    int32_t pts = show_points(crib, s->starter, 1, four);
    log_ev(s, CC_CRIBBAGE_EV_SHOW_CRIB, s->dealer, -1, pts, 0, CC_SEEN_ALL);
    if (peg(s, s->dealer, pts)) return;
    s->dealer = (s->dealer + 1) % s->n;
    start_deal(s);
}

/* What is being claimed (the target of a claim event, the extra of a
 * muggins call): 0 a hand, 1 the crib, 2 a card of the play, 3 a go or
 * last card. */
static int32_t claim_what(const cribbage_state *s) {
    if (s->phase == PHASE_SHOW) return s->show_k == s->n + 1;
    return s->pclaim == CLAIM_PLAY ? 2 : 3;
}

/* The true points of what is being claimed. */
int32_t cc_cribbage_claim_truth(const cribbage_state *s) {
    return s->phase == PHASE_SHOW ? item_points(s, s->show_k) : s->ptruth;
}

static void after_card(cribbage_state *s, int32_t seat);
static void after_go(cribbage_state *s);

/* A claim (and its call) is settled: on with the show, or the play where it
 * stopped. */
static void settle(cribbage_state *s) {
    if (s->phase == PHASE_SHOW) {
        next_show(s);
        return;
    }
    int32_t kind = s->pclaim;
    s->pclaim = 0;
    s->ptruth = 0;
    s->claim = -1;
    s->calling = 0;
    if (kind == CLAIM_PLAY) after_card(s, s->last_player);
    else after_go(s);
}

/* docs/cribbage.rst, "The muggins rule": the owner of the points claims
 * pts of them.  The seat on his left (an opponent) answers an underclaim. */
static void apply_claim(cribbage_state *s, int32_t pts) {
    int32_t owner = s->to_act, n = s->n;
    int32_t what = claim_what(s);
    int32_t in_show = s->phase == PHASE_SHOW;
    int32_t truth = cc_cribbage_claim_truth(s);
    int32_t caller = (owner + 1) % n;
    int32_t kind = what == 1 ? CC_CRIBBAGE_EV_SHOW_CRIB : CC_CRIBBAGE_EV_SHOW_HAND;
    log_ev(s, CC_CRIBBAGE_EV_CLAIM, owner, what, pts, truth, CC_SEEN_ALL);
    if (pts > truth) {
        int32_t side = side_of(s, owner);
        int32_t before = s->score[side];
        int32_t over = pts - truth;
        int32_t mode = s->params[CC_CRIBBAGE_P_OVERCLAIM];
        int32_t false_game = before + pts >= s->target && before + truth < s->target;
        int32_t how = mode == CC_CRIBBAGE_OVERCLAIM_PENALTY ? 2 : false_game ? 1 : 0;
        log_ev(s, CC_CRIBBAGE_EV_OVERCLAIM, owner, s->seat_of[caller], over, how, CC_SEEN_ALL);
        if (in_show) log_ev(s, kind, owner, -1, truth, 0, CC_SEEN_ALL);
        if (peg(s, owner, truth)) return;
        if (how == 1) {
            /* ACC 8.4 b: a false claim of game: 15 holes back, and the
             * opponent pegs the points overclaimed up to the game hole */
            int32_t back = s->score[side] < 15 ? s->score[side] : 15;
            s->score[side] -= back;
            log_ev(s, CC_CRIBBAGE_EV_PENALTY, owner, s->seat_of[owner], -back, 0, CC_SEEN_ALL);
            int32_t award = s->target - before - truth;
            log_ev(s, CC_CRIBBAGE_EV_PENALTY, caller, s->seat_of[owner], award, 0, CC_SEEN_ALL);
            if (peg(s, caller, award)) return;
        } else if (how == 2) {
            log_ev(s, CC_CRIBBAGE_EV_PENALTY, caller, s->seat_of[owner], over, 0, CC_SEEN_ALL);
            if (peg(s, caller, over)) return;
        }
        settle(s);
        return;
    }
    if (in_show) log_ev(s, kind, owner, -1, pts, 0, CC_SEEN_ALL);
    if (peg(s, owner, pts)) return;
    if (pts < truth) {
        s->claim = pts;
        s->calling = 1;
        s->to_act = caller;
        return;
    }
    settle(s);
}

/* The seat on the claimant's left calls muggins (takes the points
 * overlooked) or passes. */
static void apply_call(cribbage_state *s, int32_t muggins) {
    int32_t caller = s->to_act, n = s->n;
    int32_t owner = (caller + n - 1) % n;
    int32_t missed = cc_cribbage_claim_truth(s) - s->claim;
    if (muggins) {
        log_ev(s, CC_CRIBBAGE_EV_MUGGINS, caller, s->seat_of[owner], missed, claim_what(s),
               CC_SEEN_ALL);
        if (peg(s, caller, missed)) return;
    } else {
        log_ev(s, CC_CRIBBAGE_EV_NO_MUGGINS, caller, s->seat_of[owner], missed, claim_what(s),
               CC_SEEN_ALL);
    }
    settle(s);
}

static int32_t all_played(const cribbage_state *s) {
    for (int32_t q = 0; q < s->n; q++)
        if (s->hand[q]) return 0;
    return 1;
}

static void new_count(cribbage_state *s) {
    s->count_start = s->nplay;
    s->total = 0;
    s->gone = 0;
}

/* Muggins in the play: the owner of points the play made claims them. */
static void begin_play_claim(cribbage_state *s, int32_t kind, int32_t truth, int32_t owner) {
    s->pclaim = kind;
    s->ptruth = truth;
    s->claim = -1;
    s->calling = 0;
    s->to_act = owner;
}

/* A seat says go (cc_play_next): the largest room it could not play in. */
static void on_go(void *ctx, int32_t q) {
    cribbage_state *s = (cribbage_state *)ctx;
    if (31 - s->total > s->go_room[q]) s->go_room[q] = 31 - s->total;
    log_ev(s, CC_CRIBBAGE_EV_GO, q, s->total, 0, 0, CC_SEEN_ALL);
}

/* docs/cribbage.rst, "The play": the next player after seat `from` who can
 * play is to act; one who holds cards but cannot play says go (one without
 * cards is passed over); when nobody can play, the last to play pegs 1
 * (go, or last card; with muggins he claims it), and a new count starts
 * with the player after him (core/play_internal.h). */
static void next_turn(cribbage_state *s, int32_t from) {
    for (;;) {
        int32_t q = cc_play_next(s->hand, s->n, s->total, &s->gone, from, 0, on_go, s);
        if (q >= 0) {
            s->to_act = q;
            return;
        }
        int32_t done = all_played(s);
        if (s->params[CC_CRIBBAGE_P_MUGGINS]) {
            log_ev(s, CC_CRIBBAGE_EV_LAST_CARD, s->last_player, s->total, 0, done, CC_SEEN_ALL);
            begin_play_claim(s, CLAIM_GO, 1, s->last_player);
            return;
        }
        log_ev(s, CC_CRIBBAGE_EV_LAST_CARD, s->last_player, s->total, 1, done, CC_SEEN_ALL);
        if (peg(s, s->last_player, 1)) return;
        if (done) {
            show(s);
            return;
        }
        new_count(s);
        from = s->last_player;
    }
}

/* The go or last-card point is settled: the show, or a new count. */
static void after_go(cribbage_state *s) {
    if (all_played(s)) {
        show(s);
        return;
    }
    new_count(s);
    next_turn(s, s->last_player);
}

/* A card's points are settled: a count of 31 starts the next (or the show). */
static void after_card(cribbage_state *s, int32_t seat) {
    if (s->total == 31) {
        if (all_played(s)) {
            show(s);
            return;
        }
        new_count(s);
    }
    next_turn(s, seat);
}

/* docs/cribbage.rst, "The deal". */
static void start_deal(cribbage_state *s) {
    int32_t n = s->n;
    if (s->deal_no > 0) {
        for (int32_t i = 0; i < NUM_CARDS; i++) s->deck[i] = (uint8_t)i;
        s->top = 0;
        s->stacked = 0;
    }
    s->deal_no++;
    s->phase = PHASE_DISCARD;
    s->nplay = 0;
    s->count_start = 0;
    s->total = 0;
    s->gone = 0;
    s->last_player = -1;
    s->starter = -1;
    s->crib_dealt = -1;
    s->show_k = 0;
    s->claim = -1;
    s->calling = 0;
    s->crib_shown = 0;
    s->pclaim = 0;
    s->ptruth = 0;
    for (int32_t q = 0; q < CC_CRIBBAGE_MAX_PLAYERS; q++) {
        s->hand[q] = 0;
        s->dealt[q] = 0;
        s->disc[q] = 0;
        s->go_room[q] = -1;
    }
    log_ev(s, CC_CRIBBAGE_EV_NEW_DEAL, s->dealer, -1, s->deal_no, 0, CC_SEEN_ALL);
    for (int32_t k = 0; k < s->hand_size; k++)
        for (int32_t i = 1; i <= n; i++) {
            int32_t q = (s->dealer + i) % n;
            int32_t c = deal_card(s);
            s->hand[q] |= cc_bit_of(c);
            log_ev(s, CC_CRIBBAGE_EV_DEAL_CARD, q, -1, c, 0, 1u << q);
        }
    if (n == 3) {
        s->crib_dealt = deal_card(s);
        log_ev(s, CC_CRIBBAGE_EV_CRIB_DEALT, s->dealer, -1, s->crib_dealt, 0, 0);
    }
    for (int32_t q = 0; q < n; q++) s->dealt[q] = s->hand[q];
    s->to_act = (s->dealer + 1) % n;
}

/* All discards are made: cut the starter, his heels, then the play. */
static void start_play(cribbage_state *s) {
    s->starter = deal_card(s);
    log_ev(s, CC_CRIBBAGE_EV_STARTER, s->dealer, -1, s->starter, 0, CC_SEEN_ALL);
    s->phase = PHASE_PLAY;
    if (cc_rank_of(s->starter) == JACK) {
        log_ev(s, CC_CRIBBAGE_EV_HEELS, s->dealer, -1, 2, 0, CC_SEEN_ALL);
        if (peg(s, s->dealer, 2)) return;
    }
    s->to_act = (s->dealer + 1) % s->n; /* everyone holds 4 cards: the pone can play */
}

/* One fixed action space: the claims, muggins and pass are legal only with
 * muggins, while a claim or a call is awaited. */
static int32_t cc_cribbage_num_actions(const int32_t *params, int32_t nplayers) {
    (void)params;
    (void)nplayers;
    return CC_CRIBBAGE_NUM_ACTIONS;
}

/* ---- init and the actions ------------------------------------------------------ */

/* docs/cribbage.rst, "Cutting for deal": each seat in turn cuts a card; the
 * lowest rank deals; a tie for lowest cuts again.  With partners chosen by
 * the cut (4 players), the two lowest play against the two highest, and a
 * tie between the second and third lowest also cuts again; *second gets
 * the second lowest.  Logged unless the rules fix the first dealer and the
 * cut chooses no partners (the cut is made either way).  The seats are the
 * positions while the cut is made. */
static int32_t cut_for_deal(cribbage_state *s, int32_t log_it, int32_t partners, int32_t *second) {
    for (int32_t round = 1;; round++) {
        uint64_t used = 0;
        int32_t rk[CC_CRIBBAGE_MAX_PLAYERS];
        for (int32_t q = 0; q < s->n; q++) {
            int32_t c;
            do c = (int32_t)cc_rng_below_inline(&s->rng, NUM_CARDS);
            while (used & cc_bit_of(c));
            used |= cc_bit_of(c);
            if (log_it) log_ev(s, CC_CRIBBAGE_EV_CUT, q, -1, c, round, CC_SEEN_ALL);
            rk[q] = cc_rank_of(c);
        }
        /* who: the lowest; *second: the second lowest (ties by seat) */
        int32_t who = 0;
        for (int32_t q = 1; q < s->n; q++)
            if (rk[q] < rk[who]) who = q;
        int32_t sec = who == 0 ? 1 : 0;
        for (int32_t q = 0; q < s->n; q++)
            if (q != who && rk[q] < rk[sec]) sec = q;
        int32_t ok = 1;
        for (int32_t q = 0; q < s->n; q++) {
            if (q != who && rk[q] == rk[who]) ok = 0;
            if (partners && q != who && q != sec && rk[q] == rk[sec]) ok = 0;
        }
        if (ok) {
            *second = sec;
            return who;
        }
    }
}

/* With 4 players: the table's order (positions) from the partners. */
static void seat_partners(cribbage_state *s, int32_t a, int32_t b) {
    /* mate: seat 0's partner */
    int32_t mate = a == 0 ? b : b == 0 ? a : -1;
    int32_t other[2], k = 0;
    if (mate < 0) { /* seat 0 is of the other side: its partner is the third seat */
        for (int32_t q = 1; q < 4; q++)
            if (q != a && q != b) mate = q;
    }
    for (int32_t q = 1; q < 4; q++)
        if (q != mate) other[k++] = q;
    int32_t order[4] = {0, other[0], mate, other[1]};
    for (int32_t i = 0; i < 4; i++) {
        s->seat_of[i] = order[i];
        s->pos_of[order[i]] = i;
    }
    /* one event per side: its lower seat, the partner (target), the side */
    log_ev(s, CC_CRIBBAGE_EV_PARTNERS, 0, order[2], 0, 0, CC_SEEN_ALL);
    log_ev(s, CC_CRIBBAGE_EV_PARTNERS, 1, order[3], 1, 0, CC_SEEN_ALL);
}

static void init_state(cribbage_state *s, const int32_t *params, int32_t nplayers, uint64_t seed,
                       const uint8_t *deck) {
    memset(s, 0, offsetof(cribbage_state, log));
    cc_log_init(&s->log, CC_CRIBBAGE_LOG_CAP);
    for (int32_t i = 0; i < NP; i++) s->params[i] = params[i];
    s->n = nplayers;
    s->partners = nplayers == 4;
    s->target = params[CC_CRIBBAGE_P_GAME_TARGET];
    s->hand_size = nplayers == 2 ? 6 : 5;
    s->discards = nplayers == 2 ? 2 : 1;
    cc_rng_seed(&s->rng, seed);
    s->winner = -1;
    s->num_actions = cc_cribbage_num_actions(params, nplayers);
    for (int32_t q = 0; q < CC_CRIBBAGE_MAX_PLAYERS; q++) {
        s->seat_of[q] = q;
        s->pos_of[q] = q;
    }
    for (int32_t i = 0; i < NUM_CARDS; i++)
        s->deck[i] = deck ? deck[NUM_CARDS - 1 - i] : (uint8_t)i;
    s->stacked = deck != NULL;
    int32_t fixed = params[CC_CRIBBAGE_P_FIRST_DEALER];
    int32_t by_cut = nplayers == 4 && params[CC_CRIBBAGE_P_PARTNERSHIP] == CC_CRIBBAGE_PARTNERS_CUT;
    int32_t second = -1;
    int32_t cut = cut_for_deal(s, fixed < 0 || by_cut, by_cut, &second);
    if (nplayers == 4) seat_partners(s, by_cut ? cut : 0, by_cut ? second : 2);
    s->dealer = s->pos_of[fixed >= 0 ? fixed : cut];
    start_deal(s);
}

static int32_t check_init(const int32_t *params, int32_t nplayers) {
    if (params == NULL) return CC_E_ARG;
    if (nplayers < cc_game_cribbage.min_players || nplayers > cc_game_cribbage.max_players)
        return CC_E_PLAYERS;
    return cc_game_check_params(&cc_game_cribbage, params, nplayers, NULL);
}

static int32_t cc_cribbage_init(void *state, const int32_t *params, int32_t nplayers,
                                uint64_t seed) {
    if (state == NULL) return CC_E_ARG;
    int32_t rc = check_init(params, nplayers);
    if (rc != CC_OK) return rc;
    init_state((cribbage_state *)state, params, nplayers, seed, NULL);
    return CC_OK;
}

static int32_t cc_cribbage_init_deck(void *state, const int32_t *params, int32_t nplayers,
                                     uint64_t seed, const uint8_t *deck, int32_t ndeck) {
    if (state == NULL) return CC_E_ARG;
    int32_t rc = check_init(params, nplayers);
    if (rc != CC_OK) return rc;
    if (!cc_deck_is_permutation(deck, ndeck, NUM_CARDS)) return CC_E_ARG;
    init_state((cribbage_state *)state, params, nplayers, seed, deck);
    return CC_OK;
}

static int32_t cc_cribbage_current_player(const void *state) {
    const cribbage_state *s = (const cribbage_state *)state;
    return s->to_act == TERMINAL ? TERMINAL : s->seat_of[s->to_act];
}

static int32_t cc_cribbage_legal_actions(const void *state, uint64_t *mask) {
    const cribbage_state *s = (const cribbage_state *)state;
    if (s == NULL || mask == NULL) return CC_E_ARG;
    if (s->to_act == TERMINAL) return 0;
    if (s->calling) {
        cc_mask_set(mask, CC_CRIBBAGE_A_MUGGINS);
        cc_mask_set(mask, CC_CRIBBAGE_A_PASS);
        return 2;
    }
    if (s->phase == PHASE_SHOW || s->pclaim) {
        int32_t top = s->pclaim ? CC_CRIBBAGE_MAX_PLAY_CLAIM : CC_CRIBBAGE_MAX_CLAIM;
        for (int32_t c = 0; c <= top; c++) cc_mask_set(mask, CC_CRIBBAGE_A_CLAIM + c);
        return top + 1;
    }
    int32_t base = s->phase == PHASE_DISCARD ? CC_CRIBBAGE_A_DISCARD : CC_CRIBBAGE_A_PLAY;
    uint64_t b = legal_bits(s);
    int32_t k = 0;
    while (b) {
        cc_mask_set(mask, base + cc_card52_id_of_bit(cc_ctz64(b)));
        b &= b - 1;
        k++;
    }
    return k;
}

/* cc_cribbage_verify of a claim, muggins or pass, and of a card while claiming. */
static int32_t verify_muggins(const cribbage_state *s, int32_t action) {
    if (action >= CC_CRIBBAGE_A_CLAIM && !s->params[CC_CRIBBAGE_P_MUGGINS])
        return CC_CRIBBAGE_R_NO_MUGGINS;
    if (action >= CC_CRIBBAGE_A_MUGGINS) return s->calling ? 0 : CC_CRIBBAGE_R_NOT_CALL;
    if (action >= CC_CRIBBAGE_A_CLAIM) {
        if (s->calling || (s->phase != PHASE_SHOW && !s->pclaim)) return CC_CRIBBAGE_R_NOT_CLAIM;
        if (s->pclaim && action - CC_CRIBBAGE_A_CLAIM > CC_CRIBBAGE_MAX_PLAY_CLAIM)
            return CC_CRIBBAGE_R_CLAIM_RANGE;
        return 0;
    }
    return s->phase == PHASE_SHOW ? CC_CRIBBAGE_R_IN_SHOW : CC_CRIBBAGE_R_CLAIM_FIRST;
}

static int32_t cc_cribbage_verify(const void *state, int32_t action) {
    const cribbage_state *s = (const cribbage_state *)state;
    if (s == NULL) return CC_E_ARG;
    if (s->to_act == TERMINAL) return CC_E_GAME_OVER;
    if (action < 0 || action >= s->num_actions) return CC_CRIBBAGE_R_INVALID;
    if (action >= CC_CRIBBAGE_A_CLAIM || s->phase == PHASE_SHOW || s->pclaim)
        return verify_muggins(s, action);
    int32_t discard = action < CC_CRIBBAGE_A_PLAY;
    int32_t card = discard ? action : action - CC_CRIBBAGE_A_PLAY;
    if (discard && s->phase != PHASE_DISCARD) return CC_CRIBBAGE_R_NOT_DISCARD;
    if (!discard && s->phase != PHASE_PLAY) return CC_CRIBBAGE_R_NOT_PLAY;
    if (!(s->hand[s->to_act] & cc_bit_of(card))) return CC_CRIBBAGE_R_NOT_HELD;
    if (!discard && cc_pip_of(card) > 31 - s->total) return CC_CRIBBAGE_R_OVER_31;
    return 0;
}

static const char *cc_cribbage_reason_text(int32_t reason) {
    switch (reason) {
    case CC_CRIBBAGE_R_INVALID: return "not an action id of this game";
    case CC_CRIBBAGE_R_IN_SHOW: return "the show: claim the points of the hand or crib";
    case CC_CRIBBAGE_R_NOT_CLAIM: return "nothing is being claimed";
    case CC_CRIBBAGE_R_CLAIM_FIRST: return "claim the points of the play first";
    case CC_CRIBBAGE_R_CLAIM_RANGE: return "more points than a card of the play can make";
    case CC_CRIBBAGE_R_NOT_CALL: return "no claim to call muggins on";
    case CC_CRIBBAGE_R_NO_MUGGINS: return "the muggins rule is not in play";
    case CC_CRIBBAGE_R_NOT_DISCARD: return "not the discard: the play has begun";
    case CC_CRIBBAGE_R_NOT_PLAY: return "not the play: discard to the crib first";
    case CC_CRIBBAGE_R_NOT_HELD: return "card not held";
    case CC_CRIBBAGE_R_OVER_31: return "over 31";
    case CC_E_GAME_OVER: return "game over";
    default: return "unknown reason";
    }
}

static int32_t cc_cribbage_apply(void *state, int32_t action) {
    cribbage_state *s = (cribbage_state *)state;
    int32_t v = cc_cribbage_verify(s, action);
    if (v != 0) return cc_status_error(v, CC_E_ILLEGAL);
    int32_t seat = s->to_act;
    if (action >= CC_CRIBBAGE_A_CLAIM) {
        if (action >= CC_CRIBBAGE_A_MUGGINS) apply_call(s, action == CC_CRIBBAGE_A_MUGGINS);
        else apply_claim(s, action - CC_CRIBBAGE_A_CLAIM);
        return 0;
    }
    if (s->phase == PHASE_DISCARD) {
        uint64_t b = cc_bit_of(action);
        s->hand[seat] &= ~b;
        s->disc[seat] |= b;
        log_ev(s, CC_CRIBBAGE_EV_DISCARD, seat, -1, action, 0, 1u << seat);
        if (cc_popcount64(s->disc[seat]) < s->discards) return 0;
        if (seat != s->dealer) s->to_act = (seat + 1) % s->n;
        else start_play(s);
        return 0;
    }
    int32_t card = action - CC_CRIBBAGE_A_PLAY;
    s->hand[seat] &= ~cc_bit_of(card);
    s->play[s->nplay++] = (uint8_t)card;
    s->total += cc_pip_of(card);
    s->last_player = seat;
    int32_t pts =
        cc_play_points(s->play + s->count_start, s->nplay - s->count_start, s->total, &play_rules);
    if (s->params[CC_CRIBBAGE_P_MUGGINS]) {
        log_ev(s, CC_CRIBBAGE_EV_PLAY, seat, s->total, card, 0, CC_SEEN_ALL);
        if (pts > 0) {
            begin_play_claim(s, CLAIM_PLAY, pts, seat);
            return 0;
        }
    } else {
        log_ev(s, CC_CRIBBAGE_EV_PLAY, seat, s->total, card, pts, CC_SEEN_ALL);
        if (peg(s, seat, pts)) return 0;
    }
    after_card(s, seat);
    return 0;
}

static void cc_cribbage_returns(const void *state, int32_t *out) {
    const cribbage_state *s = (const cribbage_state *)state;
    if (s == NULL || out == NULL) return;
    for (int32_t q = 0; q < s->n; q++) out[q] = s->score[side_of(s, s->pos_of[q])];
}

/* Deals finished: deal_no counts the deals started, the current one too;
 * the dealer is a position, its seat seat_of[dealer]. */
static int32_t cc_cribbage_deal_index(const void *state, int32_t *dealer) {
    const cribbage_state *s = (const cribbage_state *)state;
    if (dealer != NULL) *dealer = s->dealer >= 0 ? s->seat_of[s->dealer] : -1;
    return s->deal_no - 1;
}

/* ---- the table ------------------------------------------------------------------- */

static const cc_event_kind cribbage_event_kinds[] = {
    [CC_CRIBBAGE_EV_CUT] = {"cut", CC_VALUE_CARD,
                            "player cuts value for the deal; extra: the round (ties cut again)"},
    [CC_CRIBBAGE_EV_NEW_DEAL] = {"new_deal", CC_VALUE_NUMBER,
                                 "player deals; value: the deal number from 1"},
    [CC_CRIBBAGE_EV_DEAL_CARD] = {"deal_card", CC_VALUE_CARD,
                                  "player is dealt value (seen by him only)"},
    [CC_CRIBBAGE_EV_CRIB_DEALT] = {"crib_dealt", CC_VALUE_CARD,
                                   "player (the dealer) deals value to the crib (seen by no one)"},
    [CC_CRIBBAGE_EV_DISCARD] = {"discard", CC_VALUE_CARD,
                                "player lays value away to the crib (seen by him only)"},
    [CC_CRIBBAGE_EV_STARTER] = {"starter", CC_VALUE_CARD, "player (the dealer) turns value"},
    [CC_CRIBBAGE_EV_HEELS] = {"his_heels", CC_VALUE_NUMBER,
                              "player (the dealer) pegs value (2) for a Jack starter"},
    [CC_CRIBBAGE_EV_PLAY] = {"play", CC_VALUE_CARD,
                             "player plays value; target: the count; extra: points pegged (with "
                             "muggins 0: he claims them)"},
    [CC_CRIBBAGE_EV_GO] = {"go", CC_VALUE_NONE, "player says go; target: the count"},
    [CC_CRIBBAGE_EV_LAST_CARD] = {"last_card", CC_VALUE_NUMBER,
                                  "player pegs value (1; with muggins 0: he claims it) for go "
                                  "or last card; target: the count; extra: 1 for the last card "
                                  "of the play"},
    [CC_CRIBBAGE_EV_SHOW_HAND] = {"show_hand", CC_VALUE_NUMBER,
                                  "player pegs value for his hand with the starter"},
    [CC_CRIBBAGE_EV_CRIB_CARD] = {"crib_card", CC_VALUE_CARD,
                                  "player (the dealer) shows value, a card of the crib"},
    [CC_CRIBBAGE_EV_SHOW_CRIB] = {"show_crib", CC_VALUE_NUMBER,
                                  "player (the dealer) pegs value for the crib"},
    [CC_CRIBBAGE_EV_SKUNK] = {"skunk", CC_VALUE_NUMBER,
                              "player lost skunked (value 1) or double skunked (2); extra: "
                              "his points"},
    [CC_CRIBBAGE_EV_GAME_OVER] = {"game_over", CC_VALUE_NUMBER,
                                  "player's side (target) wins with value points; extra: the "
                                  "worst skunk among the losers (0, 1, 2)"},
    [CC_CRIBBAGE_EV_PARTNERS] = {"partners", CC_VALUE_NUMBER,
                                 "4 players: player and target are partners, side value"},
    [CC_CRIBBAGE_EV_CLAIM] = {"claim", CC_VALUE_NUMBER,
                              "muggins: player claims value points for his hand (target 0), "
                              "crib (1), a card of the play (2) or go (3); extra: the true "
                              "points"},
    [CC_CRIBBAGE_EV_MUGGINS] = {"muggins", CC_VALUE_NUMBER,
                                "player calls muggins on target and pegs the value points "
                                "overlooked; extra: what was claimed (as a claim's target)"},
    [CC_CRIBBAGE_EV_NO_MUGGINS] = {"no_muggins", CC_VALUE_NUMBER,
                                   "player lets target's value overlooked points go; extra: "
                                   "what was claimed (as a claim's target)"},
    [CC_CRIBBAGE_EV_OVERCLAIM] = {"overclaim", CC_VALUE_NUMBER,
                                  "player claimed value points too many, corrected; target: the "
                                  "opponent on his left; extra: 0 corrected, 1 false claim of "
                                  "game, 2 the excess to the opponent"},
    [CC_CRIBBAGE_EV_PENALTY] = {"penalty", CC_VALUE_NUMBER,
                                "player's side pegs value (negative: back) for target's "
                                "overclaim"},
};

static const cc_action_range cribbage_actions[] = {
    {.name = "discard {card}",
     .first = CC_CRIBBAGE_A_DISCARD,
     .count = NUM_CARDS,
     .arg = CC_ARG_CARD},
    {.name = "play {card}", .first = CC_CRIBBAGE_A_PLAY, .count = NUM_CARDS, .arg = CC_ARG_CARD},
    {.name = "claim {number}",
     .first = CC_CRIBBAGE_A_CLAIM,
     .count = CC_CRIBBAGE_MAX_CLAIM + 1,
     .arg = CC_ARG_NUMBER,
     .base = 0},
    {.name = "muggins", .first = CC_CRIBBAGE_A_MUGGINS, .count = 1, .arg = CC_ARG_NONE},
    {.name = "pass", .first = CC_CRIBBAGE_A_PASS, .count = 1, .arg = CC_ARG_NONE},
};

const cc_game cc_game_cribbage = {
    CC_GAME_HEADER,
    .name = "cribbage",
    .min_players = 2,
    .max_players = CC_CRIBBAGE_MAX_PLAYERS,
    .deck_size = CC_DECK_52,
    .state_size = sizeof(cribbage_state),
    .log_offset = offsetof(cribbage_state, log),
    .log_capacity = CC_CRIBBAGE_LOG_CAP,
    .num_params = NP,
    .params = cribbage_params,
    .check_params = cc_cribbage_check_params,
    .num_actions = cc_cribbage_num_actions,
    .tensor_size = cc_cribbage_tensor_size,
    .segments = cc_cribbage_segments,
    .num_event_kinds = (int32_t)(sizeof cribbage_event_kinds / sizeof cribbage_event_kinds[0]),
    .event_kinds = cribbage_event_kinds,
    .num_action_ranges = (int32_t)(sizeof cribbage_actions / sizeof cribbage_actions[0]),
    .action_ranges = cribbage_actions,
    .init = cc_cribbage_init,
    .init_deck = cc_cribbage_init_deck,
    .current_player = cc_cribbage_current_player,
    .legal_actions = cc_cribbage_legal_actions,
    .verify = cc_cribbage_verify,
    .reason_text = cc_cribbage_reason_text,
    .apply = cc_cribbage_apply,
    .returns = cc_cribbage_returns,
    .observe_tensor = cc_cribbage_observe_tensor,
    .sample_infoset = cc_cribbage_sample_infoset,
    .heuristic = cc_cribbage_heuristic,
    .deal_index = cc_cribbage_deal_index,
    .solve_depth = cc_cribbage_solve_depth,
    .solve = cc_cribbage_solve,
};
