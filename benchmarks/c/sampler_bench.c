/* sampler_bench.c: per-sample cost of each game's sample_infoset, in C
 * (no Python, no allocation per sample), over random positions of random
 * games, each sampled for the player to act (the seat a search samples for).
 * Prints, per case, mean / median / worst-decile mean microseconds per
 * sample (each position timed as the minimum over REPEATS runs of SAMPLES
 * samples with fresh seeds) next to the target.
 *
 * Usage: sampler_bench [POSITIONS [SAMPLES [CASE ...]]], a CASE being
 * GAME/PLAYERS/TARGET/LABEL/PARAMS (PARAMS: every rules value, comma-separated,
 * or empty for the defaults); without cases, every game of the engine's table
 * at its fewest players with its default rules, with no target.
 * benchmarks/compare/compare_samplers.py builds it and runs it on the cases
 * of the games' profiles.  A position is up to MAX_STEPS random actions into
 * a random game, as the binding's figures there. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cardcore.h"

#define REPEATS 3
#define MAX_STEPS 250

static uint64_t g_x = 88172645463325252ull;
static uint64_t next_rand(void) {
    g_x ^= g_x << 13;
    g_x ^= g_x >> 7;
    g_x ^= g_x << 17;
    return g_x;
}

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A random position: a random game played for a random number of actions
 * (0..max_steps), kept if not terminal. */
static int random_position(const cc_game *g, const int32_t *params, int32_t n, uint64_t seed,
                           int32_t max_steps, void *st) {
    if (g->init(st, params, n, seed) != CC_OK) return 0;
    int32_t stop = (int32_t)(next_rand() % (uint64_t)(max_steps + 1));
    uint64_t mask[CC_MASK_WORDS];
    for (int32_t k = 0; k < stop; k++) {
        if (g->current_player(st) < 0) return 0;
        memset(mask, 0, sizeof mask);
        int32_t na = g->legal_actions(st, mask);
        if (na <= 0) return 0;
        int32_t pick = (int32_t)(next_rand() % (uint64_t)na), a = -1;
        for (int32_t w = 0; w < CC_MASK_WORDS && a < 0; w++)
            for (uint64_t b = mask[w]; b; b &= b - 1)
                if (pick-- == 0) {
                    a = w * 64 + __builtin_ctzll(b);
                    break;
                }
        if (g->apply(st, a) != 0) return 0;
    }
    return g->current_player(st) >= 0;
}

static void run_case(const cc_game *g, const char *label, const int32_t *params, int32_t n,
                     int32_t max_steps, int32_t npos, int32_t nsamples, double target) {
    const char *name = g->name;
    void *st = malloc(g->state_size), *out = malloc(g->state_size);
    double *per = malloc(sizeof(double) * (size_t)npos);
    int32_t got = 0;
    uint64_t seed = 1, sseed = 1000;
    while (got < npos) {
        if (!random_position(g, params, n, seed++, max_steps, st)) continue;
        int32_t p = g->current_player(st);
        double best = 1e300;
        for (int32_t r = 0; r < REPEATS; r++) {
            double t0 = now_us();
            for (int32_t k = 0; k < nsamples; k++) {
                int32_t rc = g->sample_infoset(st, p, sseed++, out);
                if (rc != CC_OK) {
                    fprintf(stderr, "%s: sample_infoset failed (%d)\n", name, rc);
                    exit(1);
                }
            }
            double t = (now_us() - t0) / nsamples;
            if (t < best) best = t;
        }
        per[got++] = best;
    }
    qsort(per, (size_t)npos, sizeof(double), cmp_double);
    double mean = 0, tail = 0;
    int32_t d = npos / 10 > 0 ? npos / 10 : 1;
    for (int32_t i = 0; i < npos; i++) mean += per[i];
    for (int32_t i = npos - d; i < npos; i++) tail += per[i];
    printf("%-8s %-18s %2d  %9.2f %9.2f %9.2f %9.2f %9.1f\n", name, label, n, mean / npos,
           per[npos / 2], tail / d, per[npos - 1], target);
    fflush(stdout);
    free(st);
    free(out);
    free(per);
}

/* Run one CASE argument (see the usage above); 0, or 2 for a bad one. */
static int run_arg(char *arg, int32_t npos, int32_t ns) {
    char *fields[5] = {0};
    int32_t k = 0;
    for (char *f = arg; k < 5; k++) {
        fields[k] = f;
        char *slash = strchr(f, '/');
        if (!slash) break;
        *slash = '\0';
        f = slash + 1;
    }
    const cc_game *g = k == 4 ? cc_game_by_name(fields[0]) : NULL;
    if (!g) {
        fprintf(stderr, "a case is GAME/PLAYERS/TARGET/LABEL/PARAMS (known game)\n");
        return 2;
    }
    int32_t params[CC_MAX_PARAMS];
    for (int32_t i = 0; i < g->num_params; i++) params[i] = g->params[i].default_value;
    char *p = fields[4];
    for (int32_t i = 0; *p && i < g->num_params; i++) {
        params[i] = (int32_t)strtol(p, &p, 10);
        if (*p == ',') p++;
    }
    run_case(g, fields[3], params, atoi(fields[1]), MAX_STEPS, npos, ns, atof(fields[2]));
    return 0;
}

int main(int argc, char **argv) {
    int32_t npos = argc > 1 ? atoi(argv[1]) : 200;
    int32_t ns = argc > 2 ? atoi(argv[2]) : 20;
    printf("%-8s %-18s %2s  %9s %9s %9s %9s %9s\n", "game", "rules", "n", "mean us", "median",
           "worst10%", "max", "target");
    for (int i = 3; i < argc; i++)
        if (run_arg(argv[i], npos, ns)) return 2;
    if (argc > 3) return 0;
    for (int32_t i = 0; cc_game_by_index(i); i++) {
        const cc_game *g = cc_game_by_index(i);
        int32_t params[CC_MAX_PARAMS];
        for (int32_t j = 0; j < g->num_params; j++) params[j] = g->params[j].default_value;
        run_case(g, "defaults", params, g->min_players, MAX_STEPS, npos, ns, 0.0);
    }
    return 0;
}
