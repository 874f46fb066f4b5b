/* nodde_scan_check.c: the Nodde sampler's two exhaustive slot scans agree
 * (driven by tests/games/test_sampler_exact.py).  scan_slot3 (three hidden cards,
 * by rank triples) must find as many consistent fillings as scan_slot (every
 * subset), and pick a consistent one, on the opponents' slots of random
 * positions of 2 to 4 players.  It includes nodde_sample.c to reach its
 * static functions (link it with the other engine sources, not
 * nodde_sample.c).
 * Prints "slots S bad B". */
#include <stdio.h>

#include "nodde_sample.c"

int main(void) {
    uint64_t x = 12345;
    long slots = 0, bad = 0;
    for (uint64_t seed = 0; seed < 3000; seed++) {
        nodde_state st;
        int32_t params[CC_NODDE_NUM_PARAMS];
        for (int32_t i = 0; i < CC_NODDE_NUM_PARAMS; i++)
            params[i] = cc_game_nodde.params[i].default_value;
        int32_t n = 2 + (int32_t)(seed % 3);
        if (cc_game_nodde.init(&st, params, n, seed) != CC_OK) continue;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        for (int32_t k = 0, stop = (int32_t)(x % 6); k < stop && st.to_act >= 0; k++) {
            uint64_t mask[CC_MASK_WORDS] = {0};
            if (cc_game_nodde.legal_actions(&st, mask) <= 0) break;
            cc_game_nodde.apply(&st, cc_ctz64(mask[0]));
        }
        if (st.to_act < 0) continue;
        int32_t p = st.to_act, m = 0;
        uint64_t pool[52];
        for (uint64_t u = CC_DECK52_MASK & ~st.seen[p]; u; u &= u - 1) pool[m++] = u & -u;
        for (int32_t q = 0; q < n; q++) {
            if (q == p || cc_popcount64(st.hand[q]) != 3) continue;
            slot sl = {q,
                       -1,
                       3,
                       0,
                       st.turnup,
                       st.announced[q],
                       st.go_total[q] >= 0 ? 31 - st.go_total[q] : -1,
                       -1,
                       st.params};
            cc_rng r;
            cc_rng_seed(&r, seed);
            uint64_t pick = 0, all = 0, by_rank = 0;
            scan_slot(&sl, pool, m, &r, &pick, &all);
            scan_slot3(&sl, pool, m, &r, &pick, &by_rank);
            slots++;
            if (all != by_rank || !slot_ok(&sl, pick)) bad++;
        }
    }
    printf("slots %ld bad %ld\n", slots, bad);
    return 0;
}
