/* defined_sample.c: the exact information-set sampler of the defined games
 * (docs/define.rst, "The sampler").
 *
 * What player p knows: his hand, the cards played, the turn-up, the cards
 * he passed (in their receiver's hand until played) and the dealer's shown
 * trump card (in the dealer's hand until played).  Every other card is
 * unknown; each other seat holds a known number of them, and a seat that
 * has failed to follow a suit holds none of that suit.  The sampler deals
 * the unknown cards uniformly among the hidden places (the other hands and
 * the undealt rest) by rejection: a uniform shuffle, kept only if no seat
 * gets a suit it has shown it lacks.  A kept deal is uniform among the
 * consistent deals; the expected number of shuffles is the inverse of the
 * share of consistent deals (1 with no void). */
#include "defined_internal.h"

/* The most shuffles one sample tries before answering CC_E_CAPACITY. */
#define DEF_SAMPLE_TRIES 1000000

static int32_t pass_target(const defined_state *s, const int32_t *T, int32_t q) {
    if (!T[CC_DEFINED_F_PASS_COUNT] || !T[CC_DEFINED_F_PASS_DIRS_LEN]) return q;
    return (q + T[CC_DEFINED_F_PASS_DIRS + s->deal_no % T[CC_DEFINED_F_PASS_DIRS_LEN]]) % s->n;
}

int32_t cc_defined_sample_infoset(const void *state, int32_t p, uint64_t seed, void *out) {
    const defined_state *s = (const defined_state *)state;
    if (s == NULL || out == NULL || out == state || p < 0 || p >= s->n) return CC_E_ARG;
    if (s->phase == DEF_PH_OVER) return CC_E_GAME_OVER;
    const int32_t *T = def_table(s);
    int32_t n = s->n;
    int32_t passing = s->phase == DEF_PH_PASS;
    int32_t target = pass_target(s, T, p);
    uint64_t fixed[DEF_MAXP] = {0}, known = s->hand[p] | s->passed[p] | s->gone;
    if (s->turnup >= 0) known |= def_bit(s->turnup);
    if (!passing && target != p) fixed[target] = s->passed[p] & s->hand[target];
    if (T[CC_DEFINED_F_TRUMP] == CC_DEFINED_TRUMP_DEALER && s->turnup >= 0 && s->dealer != p)
        fixed[s->dealer] |= def_bit(s->turnup) & s->hand[s->dealer];
    int32_t need[DEF_MAXP] = {0}, total = 0;
    for (int32_t q = 0; q < n; q++) {
        if (q == p) continue;
        uint64_t held = s->hand[q] | (passing ? s->passed[q] : 0);
        need[q] = cc_popcount64(held & ~fixed[q]);
        total += need[q];
    }
    uint8_t pool[52];
    int32_t m = 0;
    for (uint64_t u = def_deck(T) & ~known; u; u &= u - 1) pool[m++] = (uint8_t)cc_ctz64(u);
    if (total > m) return CC_E_ARG; /* not a reachable state */
    defined_state *o = (defined_state *)out;
    memcpy(o, s,
           offsetof(defined_state, log_entries) +
               (size_t)cc_log_kept(&s->log) * sizeof(cc_log_entry));
    cc_rng_seed(&o->rng, seed);
    uint64_t got[DEF_MAXP];
    int32_t tries = 0;
    for (;;) {
        if (++tries > DEF_SAMPLE_TRIES) return CC_E_CAPACITY;
        cc_rng_shuffle_u8(&o->rng, pool, m);
        int32_t k = 0, ok = 1;
        for (int32_t q = 0; q < n && ok; q++) {
            got[q] = 0;
            if (q == p) continue;
            for (int32_t i = 0; i < need[q]; i++, k++) {
                int32_t c = pool[k];
                if (s->voids[q] >> def_suit(c) & 1) {
                    ok = 0;
                    break;
                }
                got[q] |= def_bit(c);
            }
        }
        if (ok) break;
    }
    for (int32_t q = 0; q < n; q++) {
        if (q == p) continue;
        if (passing) {
            /* the cards q has put aside: the first ones drawn for him */
            uint64_t aside = 0, g = got[q];
            for (int32_t i = cc_popcount64(s->passed[q]); i > 0; i--, g &= g - 1)
                aside |= g & (~g + 1);
            o->passed[q] = aside;
            o->hand[q] = (got[q] & ~aside) | fixed[q];
        } else {
            o->hand[q] = got[q] | fixed[q];
        }
    }
    if (!passing && T[CC_DEFINED_F_PASS_COUNT] > 0) {
        /* the passes p did not see: each from cards its receiver got or played */
        for (int32_t q = 0; q < n; q++) {
            int32_t t = pass_target(s, T, q);
            if (q == p || t == p || t == q) continue;
            uint64_t from = got[t] | (s->played_by[t] & ~s->passed[p]), take = 0;
            for (int32_t i = cc_popcount64(s->passed[q]); i > 0 && from; i--) {
                uint64_t low = from & (~from + 1);
                take |= low;
                from &= from - 1;
            }
            o->passed[q] = o->received[t] = take;
        }
    }
    /* the log: what p has not seen told from the sample (each seat's dealt,
     * passed and received cards, in the order of the sample's sets) */
    uint64_t dealt[DEF_MAXP], pass[DEF_MAXP], recv[DEF_MAXP];
    for (int32_t q = 0; q < n; q++) {
        dealt[q] = (o->hand[q] | o->played_by[q] | o->passed[q]) & ~o->received[q];
        pass[q] = o->passed[q];
        recv[q] = o->received[q];
    }
    int32_t order[CC_DEFINED_LOG_CAP], kept = 0, current = 1;
    cc_log_walk w = cc_log_walk_from(&o->log, 0);
    for (int32_t slot; (slot = cc_log_walk_next(&w)) >= 0;) order[kept++] = slot;
    for (int32_t i = kept - 1; i >= 0; i--) { /* newest first: this deal, then older ones */
        cc_log_entry *e = &cc_log_entries(&o->log)[order[i]];
        int32_t q = e->player;
        uint64_t *from = e->kind == CC_DEFINED_EV_DEAL_CARD ? &dealt[q]
                         : e->kind == CC_DEFINED_EV_PASS    ? &pass[q]
                         : e->kind == CC_DEFINED_EV_RECEIVE ? &recv[q]
                                                            : NULL;
        if (!(e->seen_by >> p & 1) && from != NULL) {
            /* an older deal's hidden card: the sample does not say it (-1) */
            e->value = current && *from ? cc_ctz64(*from) : -1;
            if (current && *from) *from &= ~def_bit(e->value);
        }
        if (e->kind == CC_DEFINED_EV_NEW_DEAL) current = 0;
    }
    return CC_OK;
}
