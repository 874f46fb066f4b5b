/* nancy_sampler_relaxed.c: where the Nancy sampler puts each unknown card,
 * for tests/games/test_sampler_exact.py, which compiles it twice: with the
 * relaxed stage forced on every position (-DNANCY_RELAX_ABOVE=0, one merge
 * -DNANCY_RELAX_MERGES=1, a fixed -DNANCY_RELAX_TRIES) and with it off
 * (-DNANCY_RELAX_ABOVE=INT64_MAX), both without the plain rejection stage
 * (-DNANCY_NO_REJECT).  Random positions of 4 and 6 players without face-up
 * cards, sampled for a seat that is not the Taker; prints one line
 * "position card holder count" per (position, unknown card, holder) seen,
 * holder = seat, 6 the Hound, 7 the hidden discards.
 * Usage: nancy_sampler_relaxed POSITIONS SAMPLES */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nancy_internal.h"
#include "harness.h"

int main(int argc, char **argv) {
    long npos = argc > 1 ? atol(argv[1]) : 10, nsamples = argc > 2 ? atol(argv[2]) : 1000;
    const cc_game *g = &cc_game_nancy;
    cc_nancy_state *st = malloc(sizeof *st), *out = malloc(sizeof *out);
    static long counts[78][8];
    long pos = 0;
    for (uint64_t seed = 1; pos < npos; seed++) {
        int32_t n = (seed & 1) ? 6 : 4;
        int32_t params[CC_NANCY_NUM_PARAMS];
        for (int32_t i = 0; i < CC_NANCY_NUM_PARAMS; i++) params[i] = g->params[i].default_value;
        params[CC_NANCY_P_FACE_UP_COUNT] = 0;
        params[CC_NANCY_P_MATCH_ROUNDS] = 1;
        if (g->init(st, params, n, seed) != CC_OK) return 1;
        int32_t stop = 8 + (int32_t)(next_rand() % 30), ok = 1;
        for (int32_t k = 0; k < stop && ok; k++) {
            uint64_t mask[CC_MASK_WORDS] = {0};
            int32_t na = g->legal_actions(st, mask);
            if (na <= 0) {
                ok = 0;
                break;
            }
            int32_t pick = (int32_t)(next_rand() % (uint64_t)na), a = -1;
            for (int32_t i = 0; i < CC_MASK_WORDS * 64 && a < 0; i++)
                if ((mask[i / 64] >> (i % 64)) & 1 && pick-- == 0) a = i;
            if (g->apply(st, a) != 0) return 1;
        }
        if (!ok || st->phase != CC_NANCY_PH_PLAY || st->taker < 0) continue;
        int32_t p = (st->taker + 1) % n;
        memset(counts, 0, sizeof counts);
        for (long k = 0; k < nsamples; k++) {
            if (g->sample_infoset(st, p, (uint64_t)k, out) != CC_OK) {
                fprintf(stderr, "sample failed\n");
                return 1;
            }
            for (int32_t c = 0; c < 78; c++) {
                int32_t h = -1;
                for (int32_t q = 0; q < n; q++)
                    if (q != p && cs_has(out->hand[q], c)) h = q;
                if (cs_has(cs_andnot(out->discards, out->disc_public), c) && p != out->taker) h = 7;
                if (h >= 0) counts[c][h]++;
            }
        }
        for (int32_t c = 0; c < 78; c++)
            for (int32_t h = 0; h < 8; h++)
                if (counts[c][h]) printf("%ld %d %d %ld\n", pos, c, h, counts[c][h]);
        pos++;
    }
    free(st);
    free(out);
    return 0;
}
