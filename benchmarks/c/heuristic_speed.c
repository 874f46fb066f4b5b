/* heuristic_speed.c: calls per second of each game's heuristic (the
 * cc_game.heuristic slot), in C, without Python.
 *
 * For each game of the engine's table that has a heuristic, at its fewest
 * and its most players (or only for GAME PLAYERS given as arguments), it
 * plays seeded random games, keeps up to 512 positions (every player to
 * act), then times one heuristic call on each, repeated; it prints the best
 * of 7 repeats (min time) as calls per second.  Build and run
 * from the repository root:
 *
 *   cc -O3 -std=c11 $(python src/cardcore/sources.py --include) -o /tmp/heuristic_speed \
 *      benchmarks/c/heuristic_speed.c $(python src/cardcore/sources.py) -lm -pthread && \
 *   /tmp/heuristic_speed
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cardcore.h"

#define POSITIONS 512
#define REPEATS 7
#define ROUNDS 20 /* calls per position per repeat */

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int32_t random_legal(const cc_game *g, const void *s, cc_rng *rng) {
    uint64_t mask[CC_MASK_WORDS] = {0};
    int32_t k = g->legal_actions(s, mask);
    if (k <= 0) return -1;
    int32_t pick = (int32_t)cc_rng_below(rng, (uint64_t)k);
    for (int32_t a = 0; a < CC_MAX_ACTIONS; a++)
        if ((mask[a >> 6] >> (a & 63) & 1) && pick-- == 0) return a;
    return -1;
}

static void bench(const cc_game *g, int32_t n) {
    const char *name = g->name;
    int32_t params[CC_MAX_PARAMS];
    for (int32_t i = 0; i < g->num_params; i++) params[i] = g->params[i].default_value;
    size_t sz = g->state_size;
    char *pos = malloc(sz * POSITIONS), *s = malloc(sz);
    int32_t npos = 0;
    cc_rng rng;
    cc_rng_seed(&rng, 1);
    for (uint64_t seed = 0; npos < POSITIONS; seed++) {
        g->init(s, params, n, seed);
        for (int32_t step = 0; step < 400 && g->current_player(s) >= 0 && npos < POSITIONS;
             step++) {
            if (cc_rng_below(&rng, 3) == 0) memcpy(pos + sz * (size_t)npos++, s, sz);
            int32_t a = random_legal(g, s, &rng);
            if (a < 0 || g->apply(s, a) != 0) break;
        }
    }
    double best = 1e30;
    int64_t check = 0;
    for (int32_t r = 0; r < REPEATS; r++) {
        cc_rng t;
        cc_rng_seed(&t, (uint64_t)r);
        double t0 = now();
        for (int32_t k = 0; k < ROUNDS; k++)
            for (int32_t i = 0; i < npos; i++) {
                int32_t a = -1;
                if (g->heuristic(pos + sz * (size_t)i, &t, &a) != CC_OK) {
                    fprintf(stderr, "%s: heuristic failed\n", name);
                    exit(1);
                }
                check += a;
            }
        double dt = now() - t0;
        if (dt < best) best = dt;
    }
    printf("%-9s %d players: %10.0f calls/s (%.3f us a call; best of %d x %d calls)  [%lld]\n",
           name, n, (double)npos * ROUNDS / best, 1e6 * best / ((double)npos * ROUNDS), REPEATS,
           npos * ROUNDS, (long long)(check & 0xFF));
    free(pos);
    free(s);
}

int main(int argc, char **argv) {
    if (argc == 3) { /* one game: NAME PLAYERS */
        const cc_game *g = cc_game_by_name(argv[1]);
        if (!g || !g->heuristic) {
            fprintf(stderr, "%s: no such game with a heuristic\n", argv[1]);
            return 2;
        }
        bench(g, atoi(argv[2]));
        return 0;
    }
    for (int32_t i = 0; cc_game_by_index(i); i++) {
        const cc_game *g = cc_game_by_index(i);
        if (!g->heuristic) continue;
        bench(g, g->min_players);
        if (g->max_players != g->min_players) bench(g, g->max_players);
    }
    return 0;
}
