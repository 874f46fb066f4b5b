/* cribbage_sample.c: the cribbage information-set sampler (the table's
 * sample_infoset; docs/cribbage.rst). */
#include <string.h>

#include "cribbage_internal.h"

/*
 * Every decision falls in the discard, the play or (muggins) the show of
 * the current deal (every deal is shuffled afresh), so what player p
 * does not know is which of the cards he has not seen this deal each other
 * seat holds, which it discarded, the card dealt to the crib (3 players)
 * and the order of the stock.  The public facts that constrain a seat's
 * held cards: he said go with room r (every held card is above r), and, for
 * the seat to play a card (not one claiming points), that he can play (a
 * held card fits).  The consistent
 * deals are the assignments of the unseen cards to the hidden places with
 * each seat's held cards consistent.  The sampler draws each seat's held
 * cards uniformly among the cards above its go room (one uniform subset per
 * seat, independently) until they are disjoint and the seat to play holds a
 * card that fits: every consistent tuple of held cards then has the same
 * probability.  The discards and the crib card are a uniform draw from the
 * rest, whose size does not depend on the tuple, so the whole assignment is
 * exactly uniform over the consistent deals.
 */

#define SAMPLE_TRIES 1000000

int32_t cc_cribbage_sample_infoset(const void *state, int32_t player, uint64_t seed, void *outp) {
    const cribbage_state *s = (const cribbage_state *)state;
    if (s == NULL || outp == NULL || outp == state || player < 0 || player >= s->n) return CC_E_ARG;
    int32_t n = s->n;
    int32_t seat = player; /* the log speaks in seats, the state in positions */
    player = s->pos_of[seat];
    /* what p has seen this deal (the crib, once turned up in a muggins show) */
    int32_t crib_known = s->crib_shown;
    uint64_t seen = s->dealt[player];
    if (s->starter >= 0) seen |= cc_bit_of(s->starter);
    for (int32_t k = 0; k < s->nplay; k++) seen |= cc_bit_of(s->play[k]);
    if (crib_known) seen |= crib_of(s);
    uint8_t pool[NUM_CARDS];
    int32_t m = 0;
    for (int32_t x = 0; x < NUM_CARDS; x++)
        if (!(seen & cc_bit_of(x))) pool[m++] = (uint8_t)x;
    /* hidden places: per other seat its held cards then its discards, then the crib card */
    int32_t held_k[CC_CRIBBAGE_MAX_PLAYERS] = {0}, disc_k[CC_CRIBBAGE_MAX_PLAYERS] = {0};
    int32_t need = 0;
    for (int32_t q = 0; q < n; q++) {
        if (q == player) continue;
        held_k[q] = cc_popcount64(s->hand[q]);
        disc_k[q] = crib_known ? 0 : cc_popcount64(s->disc[q]);
        need += held_k[q] + disc_k[q];
    }
    int32_t crib_k = s->crib_dealt >= 0 && !crib_known ? 1 : 0;
    need += crib_k;
    int32_t stock = NUM_CARDS - s->top;
    if (need + stock != m) return CC_E_ARG;
    cc_rng rng;
    cc_rng_seed(&rng, seed);
    /* each seat's held cards come from its eligible cards (above its go room) */
    uint8_t elig[CC_CRIBBAGE_MAX_PLAYERS][NUM_CARDS];
    int32_t ne[CC_CRIBBAGE_MAX_PLAYERS] = {0};
    for (int32_t q = 0; q < n; q++) {
        if (q == player) continue;
        for (int32_t i = 0; i < m; i++)
            if (cc_pip_of(pool[i]) > s->go_room[q]) elig[q][ne[q]++] = pool[i];
        if (ne[q] < held_k[q]) return CC_E_ARG; /* not a real state */
    }
    uint64_t held[CC_CRIBBAGE_MAX_PLAYERS] = {0}, disc[CC_CRIBBAGE_MAX_PLAYERS] = {0};
    uint64_t used = 0;
    int32_t ok = 0;
    for (int32_t t = 0; t < SAMPLE_TRIES && !ok; t++) {
        used = 0;
        ok = 1;
        for (int32_t q = 0; q < n && ok; q++) {
            held[q] = 0;
            if (q == player) continue;
            /* a uniform held_k-subset of the eligible cards: partial Fisher-Yates */
            cc_rng_partial_shuffle(&rng, elig[q], ne[q], held_k[q], 1);
            for (int32_t i = 0; i < held_k[q]; i++) held[q] |= cc_bit_of(elig[q][ne[q] - 1 - i]);
            if (held[q] & used) ok = 0;
            used |= held[q];
            if (s->phase == PHASE_PLAY && !s->pclaim && q == s->to_act &&
                cc_min_pip(held[q]) > 31 - s->total)
                ok = 0;
        }
    }
    if (!ok) return CC_E_ARG; /* not a real state */
    /* the other hidden places from the rest, uniformly: discards, the crib card */
    uint8_t rest[NUM_CARDS];
    int32_t r = 0;
    for (int32_t i = 0; i < m; i++)
        if (!(used & cc_bit_of(pool[i]))) rest[r++] = pool[i];
    int32_t at = r;
    for (int32_t q = 0; q < n; q++) {
        disc[q] = crib_known ? s->disc[q] : 0;
        if (q == player) continue;
        cc_rng_partial_shuffle(&rng, rest, at, disc_k[q], 1);
        for (int32_t i = 0; i < disc_k[q]; i++) disc[q] |= cc_bit_of(rest[--at]);
    }
    int32_t crib_card = s->crib_dealt;
    if (crib_k) {
        cc_rng_partial_shuffle(&rng, rest, at, 1, 1);
        crib_card = rest[--at];
    }
    /* rest[0 .. at - 1]: the stock (at == stock, checked above) */
    cribbage_state *o = (cribbage_state *)outp;
    memcpy(o, s, cc_game_used_size(&cc_game_cribbage, s));
    o->rng = rng;
    for (int32_t q = 0; q < n; q++) {
        if (q == player) continue;
        o->hand[q] = held[q];
        o->disc[q] = disc[q];
        o->dealt[q] = held[q] | disc[q] | (s->dealt[q] & ~s->hand[q] & ~s->disc[q]);
    }
    if (crib_k) o->crib_dealt = crib_card;
    /* the stock: the unseen cards nobody holds, shuffled lazily as dealt */
    uint64_t stock_set = 0;
    for (int32_t i = 0; i < stock; i++) {
        o->deck[i] = rest[i];
        stock_set |= cc_bit_of(rest[i]);
    }
    int32_t fill = stock;
    for (int32_t x = 0; x < NUM_CARDS && fill < NUM_CARDS; x++)
        if (!(stock_set & cc_bit_of(x))) o->deck[fill++] = (uint8_t)x;
    o->stacked = 0;
    /* the log: hidden values of this deal become the sampled cards; those of
     * earlier deals -1 */
    uint64_t left_dealt[CC_CRIBBAGE_MAX_PLAYERS], left_disc[CC_CRIBBAGE_MAX_PLAYERS];
    for (int32_t q = 0; q < CC_CRIBBAGE_MAX_PLAYERS; q++) {
        left_dealt[q] = q < n ? o->dealt[q] : 0;
        left_disc[q] = q < n ? o->disc[q] : 0;
    }
    cc_log_entry *ev = cc_log_entries(&o->log);
    int64_t deal_start = -1; /* the number of the last new deal's event */
    cc_log_walk w = cc_log_walk_from(&o->log, 0);
    for (int32_t i; (i = cc_log_walk_next(&w)) >= 0;)
        if (ev[i].kind == CC_CRIBBAGE_EV_NEW_DEAL) deal_start = w.number;
    w = cc_log_walk_from(&o->log, 0);
    for (int32_t i; (i = cc_log_walk_next(&w)) >= 0;) {
        cc_log_entry *e = &ev[i];
        if (e->seen_by >> seat & 1) continue;
        int32_t q = e->player >= 0 && e->player < n ? s->pos_of[e->player] : -1;
        if (w.number < deal_start || q < 0 || q >= n) {
            e->value = -1;
        } else if (e->kind == CC_CRIBBAGE_EV_DEAL_CARD && left_dealt[q]) {
            e->value = cc_card52_id_of_bit(cc_ctz64(left_dealt[q]));
            left_dealt[q] &= left_dealt[q] - 1;
        } else if (e->kind == CC_CRIBBAGE_EV_DISCARD && left_disc[q]) {
            e->value = cc_card52_id_of_bit(cc_ctz64(left_disc[q]));
            left_disc[q] &= left_disc[q] - 1;
        } else if (e->kind == CC_CRIBBAGE_EV_CRIB_DEALT) {
            e->value = crib_card;
        } else {
            e->value = -1;
        }
    }
    return CC_OK;
}
