/* game.c: the registry of built-in games and the generic random-playout loop. */
#include "cc_cribbage.h"
#include "cc_defined.h"
#include "cc_internal.h"
#include "cc_nancy.h"
#include "cc_nodde.h"
#include "cc_notakers.h"
#include "guard_internal.h"

/* One line per game (adding a game = one line here, see docs/internals.rst). */
static const cc_game *const registry[] = {
    &cc_game_cribbage, &cc_game_nancy, &cc_game_nodde, &cc_game_notakers, NULL,
};

/* The built-in games, then the games defined from Python (cc_defined.h),
 * in the order they were registered. */
const cc_game *cc_game_by_index(int32_t i) {
    int32_t n = (int32_t)(sizeof registry / sizeof registry[0]) - 1;
    if (i < 0) return NULL;
    return i < n ? registry[i] : cc_defined_game(i - n);
}

const cc_game *cc_game_by_name(const char *name) {
    if (name == NULL) return NULL;
    for (int32_t i = 0; registry[i] != NULL; i++) {
        if (strcmp(registry[i]->name, name) == 0) return registry[i];
    }
    for (int32_t i = 0, n = cc_defined_count(); i < n; i++) {
        const cc_game *g = cc_defined_game(i);
        if (strcmp(g->name, name) == 0) return g;
    }
    return NULL;
}

int32_t cc_game_check_params(const cc_game *game, const int32_t *params, int32_t nplayers,
                             int32_t *bad) {
    int32_t ignored;
    if (bad == NULL) bad = &ignored;
    *bad = -1;
    if (game == NULL || params == NULL) return CC_E_ARG;
    if (nplayers != 0 && (nplayers < game->min_players || nplayers > game->max_players))
        return CC_E_PLAYERS;
    for (int32_t i = 0; i < game->num_params; i++) {
        const cc_param *d = &game->params[i];
        int32_t v = params[i];
        if (d->kind == CC_PARAM_OPTIONAL && v == d->none_value) continue;
        if (v < d->min || v > d->max) {
            *bad = i;
            return CC_E_PARAMS;
        }
    }
    return game->check_params ? game->check_params(params, nplayers, bad) : CC_OK;
}

static const cc_log *log_of(const cc_game *game, const void *state) {
    return (const cc_log *)(const void *)((const char *)state + game->log_offset);
}

size_t cc_game_used_size(const cc_game *game, const void *state) {
    if (game == NULL || state == NULL) return 0;
    return game->log_offset + sizeof(cc_log) +
           (size_t)cc_log_kept(log_of(game, state)) * sizeof(cc_log_entry);
}

int32_t cc_game_events(const cc_game *game, const void *state, cc_event *out, int32_t cap,
                       int64_t *dropped) {
    if (game == NULL || state == NULL || cap < 0 || (out == NULL && cap > 0)) return CC_E_ARG;
    const cc_log *log = log_of(game, state);
    int32_t kept = cc_log_kept(log);
    if (dropped) *dropped = log->total - kept;
    cc_log_walk w = cc_log_walk_from(log, 0);
    for (int32_t i = 0, slot; i < cap && (slot = cc_log_walk_next(&w)) >= 0; i++) {
        const cc_log_entry *e = &cc_log_entries_const(log)[slot];
        out[i].kind = e->kind;
        out[i].player = e->player;
        out[i].target = e->target;
        out[i].value = e->value;
        out[i].extra = e->extra;
        out[i].seen_by = e->seen_by;
    }
    return kept;
}

/* The k-th (0-based) set bit of a CC_MASK_WORDS mask. */
/* A guard against a game that never ends under random play. */
#define CC_PLAYOUT_STEP_LIMIT 1000000

int32_t cc_random_playouts(const cc_game *game, const int32_t *params, int32_t nplayers,
                           uint64_t seed, int64_t ngames, void *scratch, int64_t *steps_out,
                           int64_t *points_out, const volatile int32_t *stop) {
    if (game == NULL || scratch == NULL || steps_out == NULL || ngames < 0) return CC_E_ARG;
    if (nplayers < game->min_players || nplayers > game->max_players) return CC_E_PLAYERS;
    int32_t rc = cc_game_check_params(game, params, nplayers, NULL);
    if (rc != CC_OK) return rc;
    cc_rng rng;
    cc_rng_seed(&rng, seed ^ 0xA5A5A5A5A5A5A5A5ULL);
    uint64_t mask[CC_MASK_WORDS];
    int32_t ret[CC_MAX_PLAYERS];
    int64_t steps = 0;
    if (points_out) memset(points_out, 0, sizeof(int64_t) * (size_t)nplayers);
    for (int64_t g = 0; g < ngames; g++) {
        if (stop != NULL && *stop != 0) return CC_E_STOPPED;
        rc = game->init(scratch, params, nplayers, seed + (uint64_t)g);
        if (rc != CC_OK) return rc;
        int64_t local = 0;
        while (game->current_player(scratch) != CC_PLAYER_TERMINAL) {
            memset(mask, 0, sizeof mask);
            int32_t n = game->legal_actions(scratch, mask);
            if (n <= 0) return CC_E_ARG;
            int32_t a = cc_mask_select(mask, CC_MASK_WORDS,
                                       (int32_t)cc_rng_below_inline(&rng, (uint64_t)n));
            rc = game->apply(scratch, a);
            if (rc != CC_OK) return cc_status_error(rc, CC_E_ILLEGAL);
            if (++local > CC_PLAYOUT_STEP_LIMIT) return CC_E_CAPACITY;
        }
        steps += local;
        if (points_out) {
            game->returns(scratch, ret);
            for (int32_t p = 0; p < nplayers; p++) points_out[p] += ret[p];
        }
    }
    CC_SLOW_SITE("random_playouts", 100 * steps); /* the guard's switch (guard_internal.h) */
    *steps_out = steps;
    return CC_OK;
}
