/* nancy_sample_prepared.c: the prepared sampler (sample_prepare once, then
 * sample_draw for each sample) writes exactly what sample_infoset writes and
 * returns what it returns, for the same seed (driven by
 * tests/games/nancy/test_sampler_prepared.py, built with the sanitizers when the
 * compiler has them).
 *
 * Random games of every player count (2-6) under every combination of
 * reveal_hound, self_call_allowed and face_up_count in {0, default}; at each
 * state, for every seat, one prepare and then several draws from the same
 * scratch, each compared byte for byte (the whole state buffer, filled with
 * the same junk first) with sample_infoset's output for the same seed.
 * Prints "states S draws D" and exits 0, or names the first difference and
 * exits 1.  Usage: nancy_sample_prepared GAMES_PER_SETUP DRAWS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cardcore.h"
#include "cc_nancy.h"
#include "harness.h"

int main(int argc, char **argv) {
    long games = argc > 1 ? atol(argv[1]) : 2;
    int draws = argc > 2 ? atoi(argv[2]) : 3;
    const cc_game *g = &cc_game_nancy;
    if (g->sample_prepare == NULL || g->sample_draw == NULL || g->sample_scratch_size == 0)
        FAIL("no prepared sampler");
    size_t size = g->state_size;
    unsigned char *st = malloc(size), *a = malloc(size), *b = malloc(size);
    void *scratch = malloc(g->sample_scratch_size);
    if (!st || !a || !b || !scratch) FAIL("harness: out of memory");
    long states = 0, ndraws = 0, errors = 0;
    for (int32_t n = 2; n <= 6; n++)
        for (int32_t combo = 0; combo < 8; combo++) {
            int32_t params[CC_NANCY_NUM_PARAMS];
            for (int32_t i = 0; i < g->num_params; i++) params[i] = g->params[i].default_value;
            params[CC_NANCY_P_REVEAL_HOUND] = combo & 1;
            params[CC_NANCY_P_SELF_CALL_ALLOWED] = (combo >> 1) & 1;
            if (combo & 4) params[CC_NANCY_P_FACE_UP_COUNT] = 0;
            params[CC_NANCY_P_MATCH_ROUNDS] = 1;
            if (cc_game_check_params(g, params, n, NULL) != CC_OK) continue;
            for (long game = 0; game < games; game++) {
                if (g->init(st, params, n, next_rand()) != CC_OK) FAIL("init failed");
                /* a too small scratch, a bad seat: the errors sample_infoset gives */
                if (g->sample_prepare(st, 0, scratch, g->sample_scratch_size - 1) != CC_E_CAPACITY)
                    FAIL("a small scratch was accepted");
                if (g->sample_prepare(st, n, scratch, g->sample_scratch_size) !=
                    g->sample_infoset(st, n, 1, a))
                    FAIL("a bad seat: different errors");
                while (g->current_player(st) != CC_PLAYER_TERMINAL) {
                    states++;
                    for (int32_t p = 0; p < n; p++) {
                        int32_t rc = g->sample_prepare(st, p, scratch, g->sample_scratch_size);
                        for (int d = 0; d < draws; d++) {
                            uint64_t seed = next_rand();
                            memset(a, d & 0xFF, size);
                            memset(b, d & 0xFF, size);
                            int32_t ra = g->sample_infoset(st, p, seed, a);
                            int32_t rb = rc == CC_OK ? g->sample_draw(st, scratch, seed, b) : rc;
                            ndraws++;
                            if (ra != rb)
                                FAIL("n %d combo %d seat %d: rc %d vs %d", n, combo, p, ra, rb);
                            if (ra != CC_OK) {
                                errors++;
                                continue;
                            }
                            if (memcmp(a, b, size) != 0)
                                FAIL("n %d combo %d game %ld seat %d draw %d: outputs differ", n,
                                     combo, game, p, d);
                        }
                    }
                    uint64_t mask[CC_MASK_WORDS] = {0};
                    int32_t nlegal = g->legal_actions(st, mask);
                    if (nlegal <= 0) FAIL("no legal action");
                    int32_t k = (int32_t)(next_rand() % (uint64_t)nlegal), act = -1;
                    for (int32_t i = 0; i < CC_MASK_WORDS * 64 && act < 0; i++)
                        if ((mask[i / 64] >> (i % 64)) & 1 && k-- == 0) act = i;
                    if (g->apply(st, act) != 0) FAIL("apply failed");
                }
            }
        }
    printf("states %ld draws %ld errors %ld\n", states, ndraws, errors);
    free(st);
    free(a);
    free(b);
    free(scratch);
    return 0;
}
