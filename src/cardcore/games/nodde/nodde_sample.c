/* nodde_sample.c: the Nodde Knave information-set sampler (the table's
 * sample_infoset; docs/nodde.rst, "Information-set sampling"). */
#include <string.h>

#include "nodde_internal.h"

/* ---- information-set sampling -------------------------------------------------- */
/*
 * What player p does not know is which of the cards he has not seen since
 * the last shuffle each other seat holds (or held, unplayed, in an earlier
 * deal of the same shuffle); the rest of them is the stock, in unknown
 * order.  The public facts that constrain one seat's hidden cards in one
 * deal (a "slot") concern that slot alone: the hand score he pegged (with
 * his played cards and that deal's turn-up), the total at which he said go
 * (every hidden card is too high), and, for the seat to act, that he can
 * play (a hidden card fits).  So the consistent deals are the tuples of
 * pairwise disjoint slot fillings, each consistent on its own, and the
 * sampler draws each slot uniformly among its consistent fillings and
 * starts again if two slots share a card: exactly uniform over the tuples.
 * A slot is drawn by rejection (a uniform subset of the unseen cards until
 * one is consistent), and after SLOT_TRIES failures by one pass over all
 * its subsets keeping a uniform consistent one (by rank triples for three
 * hidden cards, scan_slot3): uniform either way.  The expected number of
 * tries is the number of distinct public outcomes of a slot (about 20 hand
 * scores), so a sample costs a few microseconds.
 */

#define SLOT_TRIES 1024
#define MAX_SLOTS (CC_NODDE_MAX_DEALS + CC_NODDE_MAX_PLAYERS)

typedef struct slot {
    int32_t seat, deal; /* deal: index into past[], or -1 for this deal */
    int32_t k;          /* hidden cards */
    uint64_t known;     /* his played cards of that deal */
    int32_t turnup;
    int32_t announced; /* the hand score he pegged, or -1 */
    int32_t go_room;   /* every hidden card is above it, or -1 */
    int32_t fit_room;  /* a hidden card is at most it, or -1 */
    const int32_t *params;
} slot;

static int32_t slot_ok(const slot *sl, uint64_t hidden) {
    int32_t low = cc_min_pip(hidden);
    if (sl->go_room >= 0 && low <= sl->go_room) return 0;
    if (sl->fit_room >= 0 && low > sl->fit_room) return 0;
    if (sl->announced >= 0 &&
        hand_points(sl->known | hidden, sl->turnup, sl->params) != sl->announced)
        return 0;
    return 1;
}

/* Sort three small ints and index them in base b. */
static inline int32_t sorted_index(int32_t a, int32_t b, int32_t c, int32_t base) {
    int32_t x;
    if (a > b) x = a, a = b, b = x;
    if (b > c) x = b, b = c, c = x;
    if (a > b) x = a, a = b, b = x;
    return (a * base + b) * base + c;
}

/* A uniform consistent k-subset of pool[0..m-1] by one pass over all of
 * them (reservoir sampling: the c-th consistent one replaces the pick with
 * probability 1/c).  The hand score is split as the batch tables split it
 * (build_tables): the rank kinds depend on the ranks of the three hand
 * cards only, the suit kinds on their suits and which are Jacks only, each
 * part scored once per pattern met by the rule itself.  CC_E_ARG if no
 * subset is consistent; *nfound (if not NULL) gets their number. */
static int32_t scan_slot(const slot *sl, const uint64_t *pool, int32_t m, cc_rng *rng,
                         uint64_t *pick, uint64_t *nfound) {
    static const int32_t plain[3] = {1, 2, 3};
    int32_t k = sl->k;
    uint64_t count = 0;
    int8_t rank_part[13 * 13 * 13], suit_part[8 * 8 * 8];
    memset(rank_part, -1, sizeof rank_part);
    memset(suit_part, -1, sizeof suit_part);
    int32_t tr = cc_rank_of(sl->turnup), ts = cc_suit_of(sl->turnup);
    int32_t idx[3] = {0, 1, 2};
    for (;;) {
        uint64_t h = 0;
        for (int32_t i = 0; i < k; i++) h |= pool[idx[i]];
        int32_t low = cc_min_pip(h), ok = 1;
        if (sl->go_room >= 0 && low <= sl->go_room) ok = 0;
        if (sl->fit_room >= 0 && low > sl->fit_room) ok = 0;
        if (ok && sl->announced >= 0) {
            int32_t c[4], rep[4];
            cc_show_ids(sl->known | h, 3, sl->turnup, c);
            int32_t ri = sorted_index(cc_rank_of(c[0]), cc_rank_of(c[1]), cc_rank_of(c[2]), 13);
            if (rank_part[ri] < 0) {
                for (int32_t i = 0; i < 3; i++) rep[i] = i * 13 + cc_rank_of(c[i]);
                rep[3] = 3 * 13 + tr;
                rank_part[ri] = (int8_t)kind_points(rep, sl->params, 1);
            }
            int32_t pat[3];
            for (int32_t i = 0; i < 3; i++)
                pat[i] = cc_suit_of(c[i]) * 2 + (cc_rank_of(c[i]) == JACK);
            int32_t si = sorted_index(pat[0], pat[1], pat[2], 8);
            if (suit_part[si] < 0) {
                int32_t q[3] = {si / 64, si / 8 % 8, si % 8};
                for (int32_t i = 0; i < 3; i++)
                    rep[i] = (q[i] >> 1) * 13 + ((q[i] & 1) ? JACK : plain[i]);
                rep[3] = ts * 13 + 6;
                suit_part[si] = (int8_t)kind_points(rep, sl->params, 0);
            }
            ok = rank_part[ri] + suit_part[si] == sl->announced;
        }
        if (ok && cc_rng_below(rng, ++count) == 0) *pick = h;
        int32_t i = k - 1;
        while (i >= 0 && idx[i] == m - k + i) i--;
        if (i < 0) break;
        idx[i]++;
        for (int32_t j = i + 1; j < k; j++) idx[j] = idx[j - 1] + 1;
    }
    if (nfound) *nfound = count;
    return count > 0 ? CC_OK : CC_E_ARG;
}

/* scan_slot for a slot of 3 hidden cards, by rank triples: the rank part of
 * the hand score and the lowest pip depend on the three ranks alone, and the
 * suit part lies between 0 and its largest value over the suit patterns, so
 * only the rank triples that can meet the pegged score and the go and fit
 * limits are expanded into cards (the rare slots that fall back to a scan
 * are those with a high score, which few rank triples reach). */
static int32_t scan_slot3(const slot *sl, const uint64_t *pool, int32_t m, cc_rng *rng,
                          uint64_t *pick, uint64_t *nfound) {
    static const int32_t plain[3] = {1, 2, 3};
    int32_t tr = cc_rank_of(sl->turnup), ts = cc_suit_of(sl->turnup);
    uint64_t byr[13][4];
    int32_t cnt[13] = {0};
    for (int32_t i = 0; i < m; i++) {
        int32_t r = cc_ctz64(pool[i]) & 15;
        if (cnt[r] < 4) byr[r][cnt[r]++] = pool[i];
    }
    int8_t suit_part[8 * 8 * 8];
    int32_t maxsp = 0;
    if (sl->announced >= 0)
        for (int32_t a = 0; a < 8; a++)
            for (int32_t b = a; b < 8; b++)
                for (int32_t c = b; c < 8; c++) {
                    int32_t q[3] = {a, b, c}, rep[4];
                    for (int32_t i = 0; i < 3; i++)
                        rep[i] = (q[i] >> 1) * 13 + ((q[i] & 1) ? JACK : plain[i]);
                    rep[3] = ts * 13 + 6;
                    int32_t v = kind_points(rep, sl->params, 0);
                    suit_part[(a * 8 + b) * 8 + c] = (int8_t)v;
                    if (v > maxsp) maxsp = v;
                }
    uint64_t count = 0;
    for (int32_t r1 = 0; r1 < 13; r1++)
        for (int32_t r2 = r1; r2 < 13; r2++)
            for (int32_t r3 = r2; r3 < 13; r3++) {
                if (r1 == r3   ? cnt[r1] < 3
                    : r1 == r2 ? cnt[r1] < 2 || cnt[r3] < 1
                    : r2 == r3 ? cnt[r1] < 1 || cnt[r2] < 2
                               : cnt[r1] < 1 || cnt[r2] < 1 || cnt[r3] < 1)
                    continue;
                int32_t low = cc_pip_of_rank(r1);
                if (sl->go_room >= 0 && low <= sl->go_room) continue;
                if (sl->fit_room >= 0 && low > sl->fit_room) continue;
                int32_t need = -1;
                if (sl->announced >= 0) {
                    int32_t rep[4] = {r1, 13 + r2, 26 + r3, 39 + tr};
                    need = sl->announced - kind_points(rep, sl->params, 1);
                    if (need < 0 || need > maxsp) continue;
                }
                /* the card triples of these ranks */
                const uint64_t *A = byr[r1], *B = byr[r2], *C = byr[r3];
                for (int32_t i = 0; i < cnt[r1]; i++)
                    for (int32_t j = (r2 == r1 ? i + 1 : 0); j < cnt[r2]; j++)
                        for (int32_t l = (r3 == r2 ? j + 1 : 0); l < cnt[r3]; l++) {
                            uint64_t h = A[i] | B[j] | C[l];
                            if (need >= 0) {
                                int32_t c[4];
                                cc_show_ids(h, 3, sl->turnup, c);
                                int32_t pat[3];
                                for (int32_t x = 0; x < 3; x++)
                                    pat[x] = cc_suit_of(c[x]) * 2 + (cc_rank_of(c[x]) == JACK);
                                if (suit_part[sorted_index(pat[0], pat[1], pat[2], 8)] != need)
                                    continue;
                            }
                            if (cc_rng_below(rng, ++count) == 0) *pick = h;
                        }
            }
    if (nfound) *nfound = count;
    return count > 0 ? CC_OK : CC_E_ARG;
}

/* Uniform indices below m (1 <= m <= 64) from 6-bit chunks of the
 * generator's words, a chunk >= m drawn again: exact, and one 64-bit draw
 * serves several indices. */
typedef struct chunks {
    cc_rng *rng;
    uint64_t bits;
    int32_t left; /* chunks left in bits */
} chunks;

static inline int32_t chunk_below(chunks *c, int32_t m) {
    for (;;) {
        if (c->left == 0) {
            c->bits = cc_rng_next(c->rng);
            c->left = 10;
        }
        int32_t x = (int32_t)(c->bits & 63);
        c->bits >>= 6;
        c->left--;
        if (x < m) return x;
    }
}

/* A uniform consistent filling of the slot (1 <= k <= 3) from pool. */
static int32_t draw_slot(const slot *sl, const uint64_t *pool, int32_t m, cc_rng *rng,
                         uint64_t *pick) {
    int32_t k = sl->k;
    if (k < 1 || k > 3 || k > m) return CC_E_ARG;
    chunks c = {rng, 0, 0};
    for (int32_t t = 0; t < SLOT_TRIES; t++) {
        uint64_t h = 0;
        for (int32_t i = 0; i < k;) {
            uint64_t b = pool[chunk_below(&c, m)];
            if (h & b) continue;
            h |= b;
            i++;
        }
        if (slot_ok(sl, h)) {
            *pick = h;
            return CC_OK;
        }
    }
    if (k == 3 && sl->known == 0) return scan_slot3(sl, pool, m, rng, pick, NULL);
    return scan_slot(sl, pool, m, rng, pick, NULL); /* CC_E_ARG: not a real state */
}

int32_t cc_nodde_sample_infoset(const void *state, int32_t player, uint64_t seed, void *outp) {
    const nodde_state *s = (const nodde_state *)state;
    if (s == NULL || outp == NULL || outp == state || player < 0 || player >= s->n) return CC_E_ARG;
    int32_t n = s->n;
    /* the slots */
    slot slots[MAX_SLOTS];
    int32_t nslots = 0;
    for (int32_t d = 0; d <= s->npast; d++) {
        const nodde_past *pd = d < s->npast ? &s->past[d] : NULL;
        for (int32_t q = 0; q < n; q++) {
            if (q == player) continue;
            slot *sl = &slots[nslots];
            uint64_t left = pd ? pd->left[q] : s->hand[q];
            uint64_t dealt = pd ? pd->dealt[q] : s->dealt[q];
            int32_t go = pd ? pd->go_total[q] : s->go_total[q];
            sl->seat = q;
            sl->deal = pd ? d : -1;
            sl->k = cc_popcount64(left);
            sl->known = dealt & ~left;
            sl->turnup = pd ? pd->turnup : s->turnup;
            sl->announced = pd ? pd->announced[q] : s->announced[q];
            sl->go_room = go >= 0 ? 31 - go : -1;
            sl->fit_room = (!pd && q == s->to_act) ? 31 - s->total : -1;
            sl->params = s->params;
            if (sl->k > 0) nslots++;
        }
    }
    /* the cards p has not seen since the shuffle */
    uint64_t pool[NUM_CARDS];
    int32_t m = 0;
    uint64_t unseen = CC_DECK52_MASK & ~s->seen[player];
    for (uint64_t u = unseen; u; u &= u - 1) pool[m++] = u & -u;
    uint64_t pick[MAX_SLOTS];
    cc_rng rng; /* out's generator: from the sample seed alone */
    cc_rng_seed(&rng, seed);
    for (;;) {
        uint64_t used = 0;
        int32_t i = 0;
        for (; i < nslots; i++) {
            int32_t rc = draw_slot(&slots[i], pool, m, &rng, &pick[i]);
            if (rc != CC_OK) return rc;
            if (pick[i] & used) break;
            used |= pick[i];
        }
        if (i == nslots) break;
    }
    /* out: the state with the sampled cards */
    nodde_state *o = (nodde_state *)outp;
    memcpy(o, s, cc_game_used_size(&cc_game_nodde, s));
    o->rng = rng;
    uint64_t hidden = 0;
    for (int32_t i = 0; i < nslots; i++) {
        const slot *sl = &slots[i];
        hidden |= pick[i];
        if (sl->deal < 0) {
            o->hand[sl->seat] = pick[i];
            o->dealt[sl->seat] = sl->known | pick[i];
        } else {
            o->past[sl->deal].left[sl->seat] = pick[i];
            o->past[sl->deal].dealt[sl->seat] = sl->known | pick[i];
        }
    }
    for (int32_t q = 0; q < n; q++) {
        if (q == player) continue;
        uint64_t own = o->dealt[q];
        for (int32_t d = 0; d < s->npast; d++) own |= o->past[d].dealt[q];
        o->seen[q] = (s->seen[q] & s->seen[player]) | own;
    }
    /* the stock: the unseen cards no seat holds, in any order (the state
     * shuffles it lazily as it deals); the dealt cards after it */
    int32_t stock = NUM_CARDS - s->top;
    uint64_t rest = unseen & ~hidden;
    if (cc_popcount64(rest) != stock) return CC_E_ARG;
    int32_t at = 0;
    for (uint64_t u = rest; u; u &= u - 1)
        o->deck[at++] = (uint8_t)cc_card52_id_of_bit(cc_ctz64(u));
    for (uint64_t u = CC_DECK52_MASK & ~rest; u; u &= u - 1)
        o->deck[at++] = (uint8_t)cc_card52_id_of_bit(cc_ctz64(u));
    o->stacked = 0;
    /* the log: p's unseen deal_card values become the sampled cards of this
     * shuffle's deals, and -1 for deals of earlier shuffles */
    uint64_t left[CC_NODDE_MAX_DEALS + 1][CC_NODDE_MAX_PLAYERS];
    for (int32_t d = 0; d <= s->npast; d++)
        for (int32_t q = 0; q < CC_NODDE_MAX_PLAYERS; q++)
            left[d][q] = d < s->npast ? o->past[d].dealt[q] : o->dealt[q];
    int32_t kept = cc_log_kept(&o->log);
    int64_t first = o->log.total - kept;
    int64_t shuffle_start = s->npast > 0 ? s->past[0].log_start : s->deal_log_start;
    int32_t slot_at = (int32_t)(first % CC_NODDE_LOG_CAP); /* ring position of event first */
    for (int32_t i = 0; i < kept; i++) {
        cc_log_entry *e = &o->log_entries[(slot_at + i) % CC_NODDE_LOG_CAP];
        if (e->seen_by >> player & 1) continue;
        int64_t g = first + i;
        int32_t q = e->player;
        if (e->kind != CC_NODDE_EV_DEAL_CARD || g < shuffle_start || q < 0 || q >= n) {
            e->value = -1;
            continue;
        }
        int32_t d = s->npast;
        while (d > 0 && g < (d < s->npast ? s->past[d].log_start : s->deal_log_start)) d--;
        if (left[d][q]) {
            e->value = cc_card52_id_of_bit(cc_ctz64(left[d][q]));
            left[d][q] &= left[d][q] - 1;
        } else {
            e->value = -1;
        }
    }
    return CC_OK;
}
