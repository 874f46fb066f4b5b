/* cards.c: card ids and 52-card bitsets. */
#include "cc_internal.h"

uint64_t cc_card52_bit(int32_t card_id) {
    if (card_id < 0 || card_id >= CC_NUM_CARDS52) return 0;
    return (uint64_t)1 << (16 * (card_id / 13) + card_id % 13);
}

int32_t cc_card52_count(uint64_t cards) {
    if (cards & ~CC_DECK52_MASK) return CC_E_CARDS;
    return cc_popcount64(cards);
}

int32_t cc_card52_ids(uint64_t cards, uint8_t *out) {
    if (cards & ~CC_DECK52_MASK) return CC_E_CARDS;
    int32_t n = 0;
    while (cards) {
        int32_t bit = cc_ctz64(cards);
        cards &= cards - 1;
        if (out) out[n] = (uint8_t)cc_card52_id_of_bit(bit);
        n++;
    }
    return n;
}
