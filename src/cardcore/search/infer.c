/*
 * infer.c: weights of sampled worlds from the other players' actions
 * (cc_infer.h), over the generic game table.
 *
 * Scratch layout (cc_infer_scratch_size): two reference states for the
 * deck read-back, nsteps + 1 replay states (one per depth of the replay),
 * and two observation tensors.
 */
#include <math.h>
#include <string.h>

#include "cc_infer.h"
#include "cc_net.h"

#define ALIGN 64

static size_t round_up(size_t n) { return (n + ALIGN - 1) / ALIGN * ALIGN; }

/* The memo of a logged replay: the value of a position met before at the
 * same step, keyed by two independent 64-bit hashes of its bytes. */
#define MEMO_SIZE 16384
typedef struct memo_entry {
    uint64_t h1, h2;
    double value;
    int32_t t, used; /* used: 0 for a free entry */
} memo_entry;

static void hash_state(const void *state, size_t used, uint64_t *h1, uint64_t *h2) {
    const unsigned char *b = (const unsigned char *)state;
    uint64_t a = 0x9E3779B97F4A7C15ULL ^ used, c = 0xC2B2AE3D27D4EB4FULL + used;
    size_t i = 0;
    for (; i + 8 <= used; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        a = (a ^ w) * 0x100000001B3ULL;
        a ^= a >> 29;
        c = (c + w) * 0xFF51AFD7ED558CCDULL;
        c ^= c >> 32;
    }
    for (; i < used; i++) {
        a = (a ^ b[i]) * 0x100000001B3ULL;
        c = (c + b[i]) * 0xC4CEB9FE1A85EC53ULL;
    }
    *h1 = a ^ (a >> 31);
    *h2 = c ^ (c >> 29);
}

int32_t cc_infer_supported(const cc_game *game, const void *state) {
    if (game == NULL || state == NULL || game->init_deck == NULL) return 0;
    if (game->deal_index == NULL) return 1;
    return game->deal_index(state, NULL) == 0;
}

size_t cc_infer_scratch_size(const cc_game *game, const int32_t *params, int32_t nplayers,
                             int32_t nsteps) {
    if (game == NULL || params == NULL || nsteps < 0) return 0;
    int32_t t = game->tensor_size(params, nplayers);
    if (t < 0) return 0;
    /* (the states of the replay, two tensors, the memo of
     * cc_infer_weight_logged) */
    return round_up(game->state_size) * (size_t)(nsteps + 3) +
           2 * round_up((size_t)t * sizeof(float)) + sizeof(memo_entry) * MEMO_SIZE;
}

static cc_log *log_of(const cc_game *game, void *state) {
    return (cc_log *)((char *)state + game->log_offset);
}

static const cc_log *log_of_const(const cc_game *game, const void *state) {
    return (const cc_log *)((const char *)state + game->log_offset);
}

int32_t cc_infer_world_deck(const cc_game *game, const int32_t *params, int32_t nplayers,
                            uint64_t seed, const void *sample, void *scratch, size_t cap,
                            uint8_t *deck) {
    if (game == NULL || params == NULL || sample == NULL || scratch == NULL || deck == NULL)
        return CC_E_ARG;
    if (!cc_infer_supported(game, sample)) return CC_E_ARG;
    if (cap < cc_infer_scratch_size(game, params, nplayers, 0)) return CC_E_CAPACITY;
    const int32_t n = game->deck_size;
    size_t ss = round_up(game->state_size);
    void *a = scratch, *b = (char *)scratch + ss;
    uint8_t ida[CC_MAX_DECK], idb[CC_MAX_DECK];
    for (int32_t k = 0; k < n; k++) {
        ida[k] = (uint8_t)k;
        idb[k] = (uint8_t)(n - 1 - k);
    }
    memset(a, 0, game->state_size);
    memset(b, 0, game->state_size);
    int32_t rc = game->init_deck(a, params, nplayers, seed, ida, n);
    if (rc != CC_OK) return rc;
    rc = game->init_deck(b, params, nplayers, seed, idb, n);
    if (rc != CC_OK) return rc;
    const cc_log *la = log_of_const(game, a), *lb = log_of_const(game, b);
    const cc_log *ls = log_of_const(game, sample);
    if (la->total != cc_log_kept(la) || lb->total != cc_log_kept(lb)) return CC_E_ARG;
    /* the deal: the events up to its last card read from the deck (what
     * follows may depend on the cards, as a turned-up Knave's event does) */
    int32_t ka = 0, kab = cc_log_kept(la) < cc_log_kept(lb) ? cc_log_kept(la) : cc_log_kept(lb);
    for (int32_t i = 0; i < kab; i++) {
        const cc_log_entry *ea = cc_log_at_const(la, i), *eb = cc_log_at_const(lb, i);
        if (ea->kind != eb->kind || ea->player != eb->player || ea->target != eb->target) break;
        if (ea->kind < 0 || ea->kind >= game->num_event_kinds) continue;
        if (game->event_kinds[ea->kind].value_kind != CC_VALUE_CARD) continue;
        if (ea->value >= 0 && ea->value < n && eb->value == n - 1 - ea->value) ka = i + 1;
    }
    /* the sample's log must still hold its first events */
    if (ls->total != cc_log_kept(ls) || ls->total < ka) return CC_E_ARG;
    int32_t got[CC_MAX_DECK];
    uint8_t used[CC_MAX_DECK];
    for (int32_t k = 0; k < n; k++) got[k] = -1, used[k] = 0;
    for (int32_t i = 0; i < ka; i++) {
        const cc_log_entry *ea = cc_log_at_const(la, i), *eb = cc_log_at_const(lb, i);
        const cc_log_entry *es = cc_log_at_const(ls, i);
        if (es->kind != ea->kind || es->player != ea->player || es->target != ea->target)
            return CC_E_ARG;
        if (ea->kind < 0 || ea->kind >= game->num_event_kinds) continue;
        if (game->event_kinds[ea->kind].value_kind != CC_VALUE_CARD) continue;
        int32_t k = ea->value;
        if (k < 0 || k >= n || eb->value != n - 1 - k) continue; /* not read from the deck */
        int32_t c = es->value;
        /* a card the deal read that the sample does not name: no deck */
        if (c < 0 || c >= n || got[k] >= 0 || used[c]) return CC_E_ARG;
        got[k] = c;
        used[c] = 1;
    }
    /* The deck is read top first: a card the sample's log names after the
     * deal, not dealt by it, was drawn from the stock later (cribbage's
     * starter, a draw), from the next position not dealt, in the log's
     * order; the positions no event names get the cards left over,
     * ascending. */
    int32_t ks = cc_log_kept(ls), pos = 0;
    for (int32_t i = ka; i < ks; i++) {
        const cc_log_entry *es = cc_log_at_const(ls, i);
        if (es->kind < 0 || es->kind >= game->num_event_kinds) continue;
        if (game->event_kinds[es->kind].value_kind != CC_VALUE_CARD) continue;
        int32_t c = es->value;
        if (c < 0 || c >= n || used[c]) continue;
        while (pos < n && got[pos] >= 0) pos++;
        if (pos == n) return CC_E_ARG;
        got[pos] = c;
        used[c] = 1;
    }
    int32_t next = 0;
    for (int32_t k = 0; k < n; k++) {
        if (got[k] < 0) {
            while (used[next]) next++;
            got[k] = next;
            used[next] = 1;
        }
        deck[k] = (uint8_t)got[k];
    }
    return CC_OK;
}

typedef struct replay {
    const cc_game *game;
    int32_t nplayers;
    int32_t observer;
    const int32_t *actions;
    int32_t nsteps;
    const float *record;
    const void *sample;
    int32_t tsize;
    double eps;
    int32_t ties;
    const cc_net *net; /* the model of the other seats, or NULL: the heuristic */
    int64_t max_nodes;
    int64_t nodes;
    int32_t over;
    char *states;
    size_t ss;
    float *obs, *obs2;
    /* follow: a branch must log what the sample logged; memo: the values
     * of positions met (follow mode only) */
    int32_t follow;
    cc_infer_allow allow;
    memo_entry *memo;
} replay;

/* The events cur logged since it had `from` events are the sample's. */
static int32_t same_events(const replay *r, const void *cur, int32_t from) {
    const cc_log *lc = log_of_const(r->game, cur), *ls = log_of_const(r->game, r->sample);
    int32_t kc = cc_log_kept(lc);
    if (kc > cc_log_kept(ls)) return 0;
    for (int32_t i = from; i < kc; i++) {
        const cc_log_entry *a = cc_log_at_const(lc, i), *b = cc_log_at_const(ls, i);
        if (a->kind != b->kind || a->player != b->player || a->target != b->target ||
            a->value != b->value || a->extra != b->extra)
            return 0;
    }
    return 1;
}

/* P(action) of the model at state (actor to play), for each legal action:
 * writes prob[] for the actions of mask. */
static void model(const replay *r, const void *state, const uint64_t *mask, int32_t legal,
                  double *choice_p, double *other_p, uint64_t *choices) {
    memset(choices, 0, CC_MASK_WORDS * sizeof(uint64_t));
    if (r->game->heuristic == NULL) {
        *choice_p = *other_p = 1.0 / legal;
        return;
    }
    int32_t m = 0;
    for (int32_t k = 0; k < r->ties; k++) {
        cc_rng rng;
        int32_t a = -1;
        cc_rng_seed(&rng, (uint64_t)k);
        if (r->game->heuristic(state, &rng, &a) != CC_OK || a < 0 || a >= CC_MASK_WORDS * 64 ||
            !(mask[a >> 6] >> (a & 63) & 1))
            continue;
        if (!(choices[a >> 6] >> (a & 63) & 1)) m++;
        choices[a >> 6] |= 1ULL << (a & 63);
    }
    if (m == 0) {
        *choice_p = *other_p = 1.0 / legal;
    } else if (m == legal) {
        *choice_p = 1.0 / m;
        *other_p = 0.0;
    } else {
        *choice_p = (1.0 - r->eps) / m;
        *other_p = r->eps / (legal - m);
    }
}

/* e^x for x <= 0 from exactly rounded operations only (as in
 * search/nets_search.c: the same weights on every platform). */
static double exp_exact(double x) {
    if (!(x > -700.0)) return 0.0;
    double t = x * 1.44269504088896340736;
    double k = floor(t);
    double g = (t - k) * 0.69314718055994530942;
    double p = 1.0;
    for (int i = 13; i >= 1; i--) p = 1.0 + p * g / (double)i;
    return ldexp(p, (int)k);
}

/* P(a) of the network model at state (actor to play, legal actions in
 * mask): (1 - eps) times the softmax of its policy over the legal actions,
 * plus eps / legal.  -1 if the network cannot be evaluated. */
static double net_prob(replay *r, const void *state, int32_t actor, const uint64_t *mask,
                       int32_t legal, int32_t a) {
    float policy[CC_NET_MAX_OUTPUTS];
    if (r->game->observe_tensor(state, actor, r->obs2) != CC_OK) return -1.0;
    if (cc_net_evaluate(r->net, CC_NET_PATH_AUTO, 1, r->obs2, policy, NULL) != CC_OK) return -1.0;
    int32_t top = -1;
    for (int32_t w = 0; w < CC_MASK_WORDS; w++)
        for (uint64_t bits = mask[w]; bits; bits &= bits - 1) {
            int32_t b = w * 64 + __builtin_ctzll(bits);
            if (top < 0 || policy[b] > policy[top]) top = b;
        }
    double z = 0.0;
    for (int32_t w = 0; w < CC_MASK_WORDS; w++)
        for (uint64_t bits = mask[w]; bits; bits &= bits - 1) {
            int32_t b = w * 64 + __builtin_ctzll(bits);
            z += exp_exact((double)policy[b] - (double)policy[top]);
        }
    double soft = exp_exact((double)policy[a] - (double)policy[top]) / z;
    return (1.0 - r->eps) * soft + r->eps / (double)legal;
}

static double walk_step(replay *r, int32_t t, void *cur);

static double walk(replay *r, int32_t t) {
    const cc_game *g = r->game;
    void *cur = r->states + (size_t)t * r->ss;
    if (r->max_nodes > 0 && r->nodes >= r->max_nodes) {
        r->over = 1;
        return 0.0;
    }
    memo_entry *slot = NULL;
    uint64_t h1 = 0, h2 = 0;
    size_t used = cc_game_used_size(g, cur);
    if (r->follow) {
        hash_state(cur, used, &h1, &h2);
        h1 ^= (uint64_t)t * 0x9E3779B97F4A7C15ULL;
        for (size_t k = 0; k < MEMO_SIZE; k++) {
            memo_entry *e = &r->memo[(h1 + k) & (MEMO_SIZE - 1)];
            if (e->used == 0) {
                slot = e;
                break;
            }
            if (e->h1 == h1 && e->h2 == h2 && e->t == t && e->used == (int32_t)used)
                return e->value;
        }
    }
    r->nodes++;
    double v = walk_step(r, t, cur);
    if (slot && !r->over && slot->used == 0) {
        slot->h1 = h1;
        slot->h2 = h2;
        slot->t = t;
        slot->used = (int32_t)used;
        slot->value = v;
    }
    return v;
}

static double walk_step(replay *r, int32_t t, void *cur) {
    const cc_game *g = r->game;
    if (t == r->nsteps) {
        for (int32_t q = 0; q < r->nplayers; q++) {
            if (g->observe_tensor(cur, q, r->obs) != CC_OK) return 0.0;
            if (g->observe_tensor(r->sample, q, r->obs2) != CC_OK) return 0.0;
            if (memcmp(r->obs, r->obs2, (size_t)r->tsize * sizeof(float)) != 0) return 0.0;
        }
        if (r->follow &&
            cc_log_kept(log_of_const(g, cur)) != cc_log_kept(log_of_const(g, r->sample)))
            return 0.0;
        return 1.0;
    }
    void *next = r->states + (size_t)(t + 1) * r->ss;
    const float *want = r->record + (size_t)(t + 1) * (size_t)r->tsize;
    int32_t own = r->actions[t];
    if (own >= 0) {
        if (g->current_player(cur) != r->observer) return 0.0;
        memcpy(next, cur, cc_game_used_size(g, cur));
        if (g->apply(next, own) != 0) return 0.0;
        if (r->follow && !same_events(r, next, cc_log_kept(log_of_const(g, cur)))) return 0.0;
        if (g->observe_tensor(next, r->observer, r->obs) != CC_OK) return 0.0;
        if (memcmp(r->obs, want, (size_t)r->tsize * sizeof(float)) != 0) return 0.0;
        return walk(r, t + 1);
    }
    int32_t actor = g->current_player(cur);
    if (actor < 0 || actor == r->observer) return 0.0;
    uint64_t mask[CC_MASK_WORDS], choices[CC_MASK_WORDS];
    memset(mask, 0, sizeof mask);
    int32_t legal = g->legal_actions(cur, mask);
    if (legal <= 0) return 0.0;
    double pc = 0.0, po = 0.0;
    if (r->net == NULL) model(r, cur, mask, legal, &pc, &po, choices);
    double total = 0.0;
    for (int32_t w = 0; w < CC_MASK_WORDS; w++) {
        for (uint64_t bits = mask[w]; bits; bits &= bits - 1) {
            int32_t a = w * 64 + __builtin_ctzll(bits);
            double p = r->net != NULL ? 1.0 : (choices[w] >> (a & 63) & 1) ? pc : po;
            if (p == 0.0) continue;
            if (r->allow && !r->allow(cur, a, r->sample, r->record, t, r->nsteps, r->observer))
                continue;
            memcpy(next, cur, cc_game_used_size(g, cur));
            if (g->apply(next, a) != 0) continue;
            if (r->follow && !same_events(r, next, cc_log_kept(log_of_const(g, cur)))) continue;
            if (g->observe_tensor(next, r->observer, r->obs) != CC_OK) continue;
            if (memcmp(r->obs, want, (size_t)r->tsize * sizeof(float)) != 0) continue;
            /* the network's probability only for the actions that match:
             * evaluated here, its buffers free again before the recursion */
            if (r->net != NULL) p = net_prob(r, cur, actor, mask, legal, a);
            if (p < 0.0) {
                r->over = -1;
                return 0.0;
            }
            if (p == 0.0) continue;
            total += p * walk(r, t + 1);
            if (r->over) return 0.0;
        }
    }
    return total;
}

static int32_t weight_of(const cc_game *game, const int32_t *params, int32_t nplayers,
                         uint64_t seed, const void *sample, int32_t observer,
                         const int32_t *actions, int32_t nsteps, const float *record,
                         const cc_net *net, double eps, int32_t ties, int64_t max_nodes,
                         void *scratch, size_t cap, double *weight, int64_t *nodes, int32_t follow,
                         cc_infer_allow allow) {
    if (nodes) *nodes = 0;
    if (game == NULL || params == NULL || sample == NULL || scratch == NULL || weight == NULL ||
        record == NULL || (actions == NULL && nsteps > 0) || nsteps < 0)
        return CC_E_ARG;
    if (observer < 0 || observer >= nplayers || !(eps >= 0.0 && eps <= 1.0) || ties < 1 ||
        max_nodes < 0)
        return CC_E_ARG;
    if (cap < cc_infer_scratch_size(game, params, nplayers, nsteps)) return CC_E_CAPACITY;
    uint8_t deck[CC_MAX_DECK];
    int32_t rc = cc_infer_world_deck(game, params, nplayers, seed, sample, scratch, cap, deck);
    if (rc != CC_OK) return rc;
    replay r;
    r.game = game;
    r.nplayers = nplayers;
    r.observer = observer;
    r.actions = actions;
    r.nsteps = nsteps;
    r.record = record;
    r.sample = sample;
    r.tsize = game->tensor_size(params, nplayers);
    r.eps = eps;
    r.ties = ties;
    r.net = net;
    r.max_nodes = max_nodes;
    r.nodes = 0;
    r.over = 0;
    r.ss = round_up(game->state_size);
    r.states = (char *)scratch + 2 * r.ss;
    r.obs = (float *)(r.states + (size_t)(nsteps + 1) * r.ss);
    r.obs2 = (float *)((char *)r.obs + round_up((size_t)r.tsize * sizeof(float)));
    r.follow = follow;
    r.allow = follow ? allow : NULL;
    r.memo = (memo_entry *)((char *)r.obs2 + round_up((size_t)r.tsize * sizeof(float)));
    if (follow) memset(r.memo, 0, sizeof(memo_entry) * MEMO_SIZE);
    void *start = r.states;
    memset(start, 0, game->state_size);
    rc = game->init_deck(start, params, nplayers, seed, deck, game->deck_size);
    if (rc != CC_OK) return rc;
    if (!follow) cc_log_mute(log_of(game, start), CC_LOG_MUTED);
    if (game->observe_tensor(start, observer, r.obs) != CC_OK) return CC_E_ARG;
    double w = 0.0;
    if (memcmp(r.obs, record, (size_t)r.tsize * sizeof(float)) == 0) w = walk(&r, 0);
    if (nodes) *nodes = r.nodes;
    if (r.over < 0) return CC_E_ARG;
    if (r.over) return CC_E_CAPACITY;
    *weight = w;
    return CC_OK;
}

int32_t cc_infer_weight(const cc_game *game, const int32_t *params, int32_t nplayers, uint64_t seed,
                        const void *sample, int32_t observer, const int32_t *actions,
                        int32_t nsteps, const float *record, double eps, int32_t ties,
                        int64_t max_nodes, void *scratch, size_t cap, double *weight,
                        int64_t *nodes) {
    return weight_of(game, params, nplayers, seed, sample, observer, actions, nsteps, record, NULL,
                     eps, ties, max_nodes, scratch, cap, weight, nodes, 0, NULL);
}

/* A network model: made for this game, rules and players. */
static int32_t net_fits(const cc_game *game, const int32_t *params, int32_t nplayers,
                        const cc_net *model) {
    return cc_net_input_size(model) == game->tensor_size(params, nplayers) &&
           cc_net_num_actions(model) == game->num_actions(params, nplayers) &&
           cc_net_num_players(model) == nplayers;
}

int32_t cc_infer_weight_model(const cc_game *game, const int32_t *params, int32_t nplayers,
                              uint64_t seed, const void *sample, int32_t observer,
                              const int32_t *actions, int32_t nsteps, const float *record,
                              const struct cc_net *model, double eps, int64_t max_nodes,
                              void *scratch, size_t cap, double *weight, int64_t *nodes) {
    if (nodes) *nodes = 0;
    if (game == NULL || params == NULL || model == NULL) return CC_E_ARG;
    if (!net_fits(game, params, nplayers, model)) return CC_E_ARG;
    return weight_of(game, params, nplayers, seed, sample, observer, actions, nsteps, record, model,
                     eps, 1, max_nodes, scratch, cap, weight, nodes, 0, NULL);
}

int32_t cc_infer_weight_logged(const cc_game *game, const int32_t *params, int32_t nplayers,
                               uint64_t seed, const void *sample, int32_t observer,
                               const int32_t *actions, int32_t nsteps, const float *record,
                               const struct cc_net *model, double eps, int32_t ties,
                               int64_t max_nodes, void *scratch, size_t cap, double *weight,
                               int64_t *nodes, cc_infer_allow allow) {
    if (nodes) *nodes = 0;
    if (game == NULL || params == NULL) return CC_E_ARG;
    if (model != NULL && !net_fits(game, params, nplayers, model)) return CC_E_ARG;
    return weight_of(game, params, nplayers, seed, sample, observer, actions, nsteps, record, model,
                     eps, model != NULL ? 1 : ties, max_nodes, scratch, cap, weight, nodes, 1,
                     allow);
}
