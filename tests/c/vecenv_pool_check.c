/* vecenv_pool_check.c: a vector stepped by its worker threads gives the
 * games of one stepped on the calling thread (driven by
 * tests/envs/test_vecenv_pool.py; also the program to run under ThreadSanitizer).
 * For several games and vector sizes, a reference vector is stepped with
 * nthreads 1 and a twin of the same seed with an nthreads that changes at
 * every call (the pool grows, shrinks, is freed and starts again); every
 * call's status, observations, masks, rewards and terminations must be the
 * same bytes.  Usage: vecenv_pool_check STEPS NAME:PLAYERS... (the games to
 * step, each at a table size; the test passes every registered game).
 * Prints "calls C bad B threads T" (T: the most threads a call asked for). */
#if defined(__linux__)
#define _POSIX_C_SOURCE 200809L /* opendir */
#include <dirent.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cardcore.h"
#include "cc_vecenv.h"

typedef struct vec {
    void *mem;
    float *obs;
    int8_t *masks;
    float *rewards;
    uint8_t *terminated;
} vec;

/* A stop flag never set: the twin's calls read it, and must give the
 * results of calls without one. */
static const volatile int32_t never = 0;

static int make(vec *x, const cc_game *g, const int32_t *params, int32_t players, int64_t n,
                int32_t opponent, int32_t flags) {
    size_t nbytes = cc_vecenv_bytes(g, n, flags);
    x->mem = malloc(nbytes);
    if (x->mem == NULL) return -1;
    if (cc_vecenv_init(x->mem, nbytes, g, params, players, players - 1, opponent, flags, n,
                       (uint64_t)n * 1000 + (uint64_t)players) != CC_OK)
        return -1;
    int32_t T = cc_vecenv_tensor_size(x->mem), A = cc_vecenv_num_actions(x->mem);
    x->obs = calloc((size_t)n * (size_t)T + 1, sizeof(float));
    x->masks = calloc((size_t)n * (size_t)A + 1, 1);
    x->rewards = calloc((size_t)n, sizeof(float));
    x->terminated = calloc((size_t)n, 1);
    return (x->obs && x->masks && x->rewards && x->terminated) ? 0 : -1;
}

static void drop(vec *x) {
    cc_vecenv_free(x->mem);
    free(x->mem);
    free(x->obs);
    free(x->masks);
    free(x->rewards);
    free(x->terminated);
}

/* 1 if the outputs differ (all of them when step, else the views). */
static int differ(const vec *a, const vec *b, int step) {
    int64_t n = cc_vecenv_size(a->mem);
    size_t T = (size_t)cc_vecenv_tensor_size(a->mem), A = (size_t)cc_vecenv_num_actions(a->mem);
    if (memcmp(a->obs, b->obs, (size_t)n * T * sizeof(float)) != 0) return 1;
    if (memcmp(a->masks, b->masks, (size_t)n * A) != 0) return 1;
    if (!step) return 0;
    if (memcmp(a->rewards, b->rewards, (size_t)n * sizeof(float)) != 0) return 1;
    return memcmp(a->terminated, b->terminated, (size_t)n) != 0;
}

/* The threads of this process (Linux: /proc/self/task), -1 elsewhere. */
static int threads_now(void) {
#if !defined(__linux__)
    return -1;
#else
    DIR *d = opendir("/proc/self/task");
    if (d == NULL) return -1;
    int count = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) count += e->d_name[0] != '.';
    closedir(d);
    return count;
#endif
}

/* The workers live from the first call that needs them to cc_vecenv_free:
 * 1 + w threads after calls that asked for at most w + 1 (-1: cannot tell). */
static long lifecycle(const cc_game *g) {
    int32_t params[CC_MAX_PARAMS];
    for (int32_t i = 0; i < g->num_params; i++) params[i] = g->params[i].default_value;
    vec x;
    if (make(&x, g, params, g->min_players, 20, CC_VEC_RANDOM, 0) != 0) return 1;
    int32_t *actions = malloc(20 * sizeof(int32_t));
    if (actions == NULL) return 1;
    static const int32_t asked[] = {1, 2, 4, 3, 8, 2, 100, 1};
    static const int expect[] = {1, 2, 4, 4, 8, 8, 20, 20}; /* at most one per game */
    long bad = 0;
    int base = threads_now();
    for (int32_t k = 0; k < 8; k++) {
        int64_t b = -1;
        cc_vecenv_random_actions(x.mem, actions, asked[k]);
        if (cc_vecenv_step(x.mem, actions, x.obs, x.masks, x.rewards, x.terminated, asked[k], &b,
                           NULL) != CC_OK)
            bad++;
        int now = threads_now();
        if (base > 0 && now != base - 1 + expect[k]) {
            printf("lifecycle: %d threads after a call with %d, expected %d\n", now, asked[k],
                   base - 1 + expect[k]);
            bad++;
        }
    }
    cc_vecenv_free(x.mem);
    cc_vecenv_free(x.mem); /* twice: nothing */
    if (base > 0 && threads_now() != base) bad++;
    /* the vector is still valid: a call starts new workers, the free ends them */
    if (cc_vecenv_observe(x.mem, x.obs, x.masks, 2, NULL) != CC_OK) bad++;
    if (base > 0 && threads_now() != base + 1) bad++;
    free(actions);
    drop(&x);
    if (base > 0 && threads_now() != base) bad++;
    return bad;
}

/* A difference: counted, and told with the line that found it. */
#define BAD()                                                              \
    do {                                                                   \
        bad++;                                                             \
        printf("line %d: %s n=%lld\n", __LINE__, names[gi], (long long)n); \
    } while (0)

#define MAX_GAMES 32

int main(int argc, char **argv) {
    if (argc < 3 || argc - 2 > MAX_GAMES) {
        printf("usage: vecenv_pool_check STEPS NAME:PLAYERS...\n");
        return 2;
    }
    char names[MAX_GAMES][64];
    int32_t players[MAX_GAMES];
    const cc_game *games[MAX_GAMES];
    size_t ngames = (size_t)(argc - 2);
    for (size_t gi = 0; gi < ngames; gi++) {
        const char *arg = argv[gi + 2];
        const char *colon = strchr(arg, ':');
        size_t len = colon ? (size_t)(colon - arg) : 0;
        if (colon == NULL || len == 0 || len >= sizeof names[gi]) {
            printf("bad game %s (NAME:PLAYERS)\n", arg);
            return 2;
        }
        memcpy(names[gi], arg, len);
        names[gi][len] = '\0';
        players[gi] = atoi(colon + 1);
        games[gi] = cc_game_by_name(names[gi]);
        if (games[gi] == NULL) {
            printf("no game %s\n", names[gi]);
            return 1;
        }
    }
    static const int64_t sizes[] = {1, 5, 37, 300};
    static const int32_t pattern[] = {2, 3, 7, 1, 2, 64, 5, 2, 3, 1};
    int32_t steps = atoi(argv[1]);
    long calls = 0, bad = 0;
    int32_t most = 0;
    for (size_t gi = 0; gi < ngames; gi++) {
        const cc_game *g = games[gi];
        int32_t params[CC_MAX_PARAMS];
        for (int32_t i = 0; i < g->num_params; i++) params[i] = g->params[i].default_value;
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            int64_t n = sizes[si];
            int32_t opponent = si % 2 ? CC_VEC_HEURISTIC : CC_VEC_RANDOM;
            int32_t flags = gi % 2 ? CC_VEC_EVENTS : 0;
            vec ref, twin;
            if (make(&ref, g, params, players[gi], n, opponent, flags) != 0 ||
                make(&twin, g, params, players[gi], n, opponent, flags) != 0) {
                printf("setup failed: %s n=%lld\n", names[gi], (long long)n);
                return 1;
            }
            int32_t *actions = malloc((size_t)n * sizeof(int32_t));
            int32_t *twin_actions = malloc((size_t)n * sizeof(int32_t));
            if (actions == NULL || twin_actions == NULL) return 1;
            for (int32_t k = 0; k < steps; k++) {
                int32_t t =
                    pattern[(k + (int32_t)si) % (int32_t)(sizeof pattern / sizeof pattern[0])];
                if (t > most) most = t;
                if (k == steps / 2) cc_vecenv_free(twin.mem); /* the pool starts again */
                int32_t ra = cc_vecenv_random_actions(ref.mem, actions, 1);
                int32_t rb = cc_vecenv_random_actions(twin.mem, twin_actions, t);
                if (ra != rb || memcmp(actions, twin_actions, (size_t)n * sizeof(int32_t)) != 0)
                    BAD();
                int64_t bad_a = -1, bad_b = -1;
                if (k % 17 == 16) { /* a reset and an observe now and then */
                    ra = cc_vecenv_reset(ref.mem, ref.obs, ref.masks, 1, NULL);
                    rb = cc_vecenv_reset(twin.mem, twin.obs, twin.masks, t, &never);
                    if (ra != rb || differ(&ref, &twin, 0)) BAD();
                    memset(twin.obs, 0, 4);
                    rb = cc_vecenv_observe(twin.mem, twin.obs, twin.masks, t + 1, &never);
                    if (rb != CC_OK || differ(&ref, &twin, 0)) BAD();
                } else {
                    ra = cc_vecenv_step(ref.mem, actions, ref.obs, ref.masks, ref.rewards,
                                        ref.terminated, 1, &bad_a, NULL);
                    rb = cc_vecenv_step(twin.mem, actions, twin.obs, twin.masks, twin.rewards,
                                        twin.terminated, t, &bad_b, &never);
                    if (ra != CC_OK || rb != ra || bad_a != bad_b || differ(&ref, &twin, 1)) BAD();
                }
                calls++;
            }
            if (cc_vecenv_episodes(ref.mem) != cc_vecenv_episodes(twin.mem)) BAD();
            if (n > 1) { /* an illegal action: the same refusal whatever nthreads */
                if (cc_vecenv_random_actions(ref.mem, actions, 1) != CC_OK) BAD();
                int32_t A = cc_vecenv_num_actions(ref.mem);
                for (int32_t a = 0; a < A; a++) {
                    if (ref.masks[(size_t)(n - 1) * (size_t)A + (size_t)a] == 0) {
                        actions[n - 1] = a;
                        break;
                    }
                }
                int64_t bad_a = -1, bad_b = -1;
                int32_t ra = cc_vecenv_step(ref.mem, actions, ref.obs, ref.masks, ref.rewards,
                                            ref.terminated, 1, &bad_a, NULL);
                int32_t rb = cc_vecenv_step(twin.mem, actions, twin.obs, twin.masks, twin.rewards,
                                            twin.terminated, 3, &bad_b, &never);
                if (ra != CC_E_ILLEGAL || rb != ra || bad_a != n - 1 || bad_b != bad_a) BAD();
            }
            free(actions);
            free(twin_actions);
            drop(&ref);
            drop(&twin);
        }
    }
    cc_vecenv_free(NULL);
    bad += lifecycle(games[0]);
    printf("calls %ld bad %ld threads %d\n", calls, bad, most);
    return bad != 0;
}
