/* nancy_sampler_alloc.c: the allocation contract of the Nancy engine
 * (driven by tests/games/nancy/test_alloc.py, linked with -Wl,--wrap=malloc).
 *
 * Random games of 6 players with face_up_count = 0 (the largest count
 * tables), every state sampled for every seat:
 *   - init, legal_actions, verify, apply, current_player, returns,
 *     observe_tensor and events never call malloc;
 *   - when malloc fails inside sample_infoset, it returns an error code and
 *     leaves the output buffer untouched (the sampler's own table is freed:
 *     the run ends with no block outstanding);
 *   - with malloc working, sampling in place (out == state) gives the same
 *     bytes as sampling into a separate buffer.
 * Prints "samples S malloc_failed F outstanding O" and exits 0, or names the
 * first violation and exits 1.  Usage: nancy_sampler_alloc GAMES
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cardcore.h"
#include "cc_nancy.h"
#include "harness.h"

void *__real_malloc(size_t size);
void __real_free(void *p);

static int g_fail = 0;   /* make malloc return NULL */
static long g_calls = 0; /* malloc calls seen */
static long g_outstanding = 0;

void *__wrap_malloc(size_t size) {
    g_calls++;
    if (g_fail) return NULL;
    void *p = __real_malloc(size);
    if (p != NULL) g_outstanding++;
    return p;
}

void __wrap_free(void *p) {
    if (p != NULL) g_outstanding--;
    __real_free(p);
}

int main(int argc, char **argv) {
    long games = argc > 1 ? atol(argv[1]) : 20;
    const cc_game *g = &cc_game_nancy;
    const int32_t n = 6;
    int32_t params[CC_NANCY_NUM_PARAMS] = {0};
    params[CC_NANCY_P_FACE_UP_COUNT] = 0;
    params[CC_NANCY_P_MIN_BID] = 1;
    params[CC_NANCY_P_SELF_CALL_ALLOWED] = 1;
    params[CC_NANCY_P_REVEAL_HOUND] = 1;
    params[CC_NANCY_P_OVERTRUMP_ON_TRUMP_LEAD] = 1;
    params[CC_NANCY_P_MATCH_ROUNDS] = 1;
    params[CC_NANCY_P_FIRST_DEALER] = -1;
    size_t size = g->state_size;
    unsigned char *st = __real_malloc(size), *out = __real_malloc(size);
    unsigned char *ref = __real_malloc(size), *inplace = __real_malloc(size);
    float *tensor = __real_malloc(sizeof(float) * (size_t)g->tensor_size(params, n));
    cc_event *events = __real_malloc(sizeof(cc_event) * 400);
    if (!st || !out || !ref || !inplace || !tensor || !events) FAIL("harness: out of memory");
    long samples = 0, malloc_failed = 0;
    for (long game = 0; game < games; game++) {
        g_fail = 1; /* the playout path: any malloc call is a violation */
        g_calls = 0;
        if (g->init(st, params, n, (uint64_t)game) != CC_OK) FAIL("init failed");
        for (;;) {
            int32_t cur = g->current_player(st);
            int32_t ret[6];
            g->returns(st, ret);
            for (int32_t p = 0; p < n; p++) g->observe_tensor(st, p, tensor);
            cc_game_events(g, st, events, 400, NULL);
            if (g_calls != 0) FAIL("game %ld: malloc called on the playout path", game);
            if (cur == CC_PLAYER_TERMINAL) break;
            /* sample for every seat: first with malloc failing, then working */
            for (int32_t p = 0; p < n; p++) {
                uint64_t seed = next_rand();
                memset(out, 0xA5, size);
                g_fail = 1;
                g_calls = 0;
                int32_t rc = g->sample_infoset(st, p, seed, out);
                long calls = g_calls;
                g_fail = 0;
                samples++;
                if (calls > 0) {
                    malloc_failed++;
                    if (rc == CC_OK) FAIL("game %ld: sample succeeded without its table", game);
                    for (size_t i = 0; i < size; i++)
                        if (out[i] != 0xA5) FAIL("game %ld: partial output after a failure", game);
                } else if (rc != CC_OK) {
                    FAIL("game %ld: sample failed (%d) without a malloc failure", game, rc);
                }
                if (g->sample_infoset(st, p, seed, ref) != CC_OK) FAIL("sample failed");
                if (calls == 0 && memcmp(out, ref, size) != 0)
                    FAIL("game %ld: samples with the same seed differ", game);
                memcpy(inplace, st, size);
                if (g->sample_infoset(inplace, p, seed, inplace) != CC_OK)
                    FAIL("in-place sample failed");
                if (memcmp(inplace, ref, size) != 0)
                    FAIL("game %ld: an in-place sample differs", game);
                if (g_outstanding != 0) FAIL("game %ld: the sampler leaked its table", game);
            }
            g_fail = 1;
            g_calls = 0;
            uint64_t mask[CC_MASK_WORDS] = {0};
            int32_t nlegal = g->legal_actions(st, mask);
            if (nlegal <= 0) FAIL("game %ld: no legal action", game);
            int32_t k = (int32_t)(next_rand() % (uint64_t)nlegal), a = -1;
            for (int32_t i = 0; i < CC_MASK_WORDS * 64 && a < 0; i++)
                if ((mask[i / 64] >> (i % 64)) & 1 && k-- == 0) a = i;
            if (g->verify(st, a) != 0 || g->apply(st, a) != 0) FAIL("apply failed");
            if (g_calls != 0) FAIL("game %ld: malloc called on the playout path", game);
        }
    }
    printf("samples %ld malloc_failed %ld outstanding %ld\n", samples, malloc_failed,
           g_outstanding);
    __real_free(st);
    __real_free(out);
    __real_free(ref);
    __real_free(inplace);
    __real_free(tensor);
    __real_free(events);
    return 0;
}
