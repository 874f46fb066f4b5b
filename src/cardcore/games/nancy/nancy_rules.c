/* nancy_rules.c: the card-play and scoring rules of the Game of Nancy
 * (docs/nancy.rst): legal cards, the trick winner, the objectives, the base
 * score and the settlement, and their batch kernels.  Shared by the game
 * (nancy_game.c) and the public scalar and batch functions of cc_nancy.h.
 */
#include "nancy_internal.h"

static int check_trick(const int8_t *trick, int32_t k) {
    int32_t seen_end = 0;
    uint64_t used[2] = {0, 0};
    for (int32_t i = 0; i < k; i++) {
        int32_t c = trick[i];
        if (c == -1) {
            seen_end = 1;
            continue;
        }
        if (seen_end || c < 0 || c > 77) return 0;
        if (used[c >> 6] & (1ull << (c & 63))) return 0;
        used[c >> 6] |= 1ull << (c & 63);
    }
    return 1;
}

static inline int32_t trick_len(const int8_t *trick, int32_t k) {
    int32_t m = 0;
    while (m < k && trick[m] >= 0) m++;
    return m;
}

int32_t cc_nancy_legal_cards(uint64_t lo, uint64_t hi, const int8_t *trick, int32_t k,
                             int32_t overtrump, uint64_t *out_lo, uint64_t *out_hi) {
    if ((lo & ~CC_NANCY_LO_MASK) || (hi & ~CC_NANCY_HI_MASK)) return CC_E_CARDS;
    if (k < 0 || k > 5 || (k > 0 && trick == NULL) || out_lo == NULL || out_hi == NULL ||
        (overtrump != 0 && overtrump != 1))
        return CC_E_ARG;
    if (!check_trick(trick, k)) return CC_E_ARG;
    int32_t led, high;
    trick_summary(trick, trick_len(trick, k), &led, &high);
    cc_nancy_cards p = {lo, hi};
    cc_nancy_cards r = legal_from(p, led, high, overtrump != 0);
    *out_lo = r.lo;
    *out_hi = r.hi;
    return CC_OK;
}

int32_t cc_nancy_trick_winner(const int8_t *trick, int32_t k) {
    if (k < 0 || k > 6 || (k > 0 && trick == NULL) || !check_trick(trick, k)) return CC_E_ARG;
    return winner_pos(trick, trick_len(trick, k));
}

int32_t cc_nancy_objectives_of(cc_nancy_cards nc, int32_t arcane_mode) {
    int32_t m = 0;
    if ((nc.hi & (1ull << 21)) && (nc.hi & (1ull << 1))) m |= CC_NANCY_OBJ_HEIRS_BODYGUARD;
    for (int32_t s = 0; s < 4; s++)
        if (((nc.lo >> (16 * s)) & CC_NANCY_LANE) == CC_NANCY_LANE)
            m |= CC_NANCY_OBJ_EMPIRE_RATS << s;
    if (cc_popcount64(nc.lo & CC_NANCY_FACES_LO) >= 8) m |= CC_NANCY_OBJ_ROYAL_EXECUTIONER;
    uint64_t t = nc.hi & CC_NANCY_TRUMPS_HI;
    int32_t sum = 0;
    uint32_t reach = 1; /* bit v: some subset sums to v (v <= 22) */
    while (t) {
        int32_t num = cc_ctz64(t);
        sum += num;
        reach |= (reach << num) & 0x7FFFFFu;
        t &= t - 1;
    }
    int ok = arcane_mode == 0 ? sum == 22 : arcane_mode == 1 ? (reach >> 22) & 1 : sum >= 22;
    if (ok) m |= CC_NANCY_OBJ_MASTER_OF_THE_ARCANE;
    return m;
}

int32_t cc_nancy_objectives(uint64_t lo, uint64_t hi, int32_t arcane_mode) {
    if ((lo & ~CC_NANCY_LO_MASK) || (hi & ~CC_NANCY_HI_MASK)) return CC_E_CARDS;
    if (arcane_mode < 0 || arcane_mode > 2) return CC_E_ARG;
    cc_nancy_cards s = {lo, hi};
    return cc_nancy_objectives_of(s, arcane_mode);
}

int32_t cc_nancy_base_score(int32_t bid, int32_t completed, int32_t won) {
    int32_t short_by = bid > completed ? bid - completed : 0;
    return 2 * completed - 3 * short_by + (won ? 5 : -5) - (completed == 0 ? 10 : 0);
}

int32_t cc_nancy_settlement(int32_t nplayers, int32_t taker, int32_t partner, int32_t bid,
                            int32_t completed, int32_t won, int32_t *out) {
    if (nplayers < 2 || nplayers > CC_NANCY_MAX_PLAYERS || out == NULL) return CC_E_ARG;
    if (taker < 0 || taker >= nplayers || partner < -1 || partner >= nplayers) return CC_E_ARG;
    if (bid < 1 || bid > 9 || completed < 0 || completed > 9 || (won != 0 && won != 1))
        return CC_E_ARG;
    int32_t base = cc_nancy_base_score(bid, completed, won);
    int32_t alone = partner < 0 || partner == taker;
    int32_t opps = nplayers - (alone ? 1 : 2);
    for (int32_t p = 0; p < nplayers; p++) {
        if (p == taker || (!alone && p == partner)) out[p] = base * opps;
        else out[p] = -base * (alone ? 1 : 2);
    }
    return CC_OK;
}

/* ---- batch kernels ----------------------------------------------------- */

/* Per card id + 1 (index 0 is the -1 padding): led suit (0..3, 4 trumps,
 * -1 none for the Outsider and padding) and trump number (0 if none). */
static const int8_t LED_OF[79] = {-1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1,
                                  1,  1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
                                  2,  2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4,
                                  4,  4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, -1};
static const int8_t TRUMP_OF[79] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 0, 0,
    0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 0};

/* 0 if row i is a valid holding and trick (distinct ids 0..77, -1 padding
 * at the end), else CC_E_CARDS / CC_E_ARG. */
static int32_t batch_row_error(const uint64_t *holdings, const int8_t *t, int32_t k, int64_t i) {
    if ((holdings[2 * i] & ~CC_NANCY_LO_MASK) | (holdings[2 * i + 1] & ~CC_NANCY_HI_MASK))
        return CC_E_CARDS;
    return check_trick(t, k) ? CC_OK : CC_E_ARG;
}

int32_t cc_nancy_batch_legal_cards(const uint64_t *holdings, const int8_t *tricks, int64_t n,
                                   int32_t k, int32_t overtrump, uint64_t *out,
                                   int64_t *bad_index) {
    if (n < 0 || k < 0 || k > 5 || (overtrump != 0 && overtrump != 1) ||
        (n > 0 && (holdings == NULL || out == NULL)) || (n > 0 && k > 0 && tricks == NULL))
        return CC_E_ARG;
    uint64_t bad = 0;
    for (int64_t i = 0; i < n; i++) {
        cc_nancy_cards p = {holdings[2 * i], holdings[2 * i + 1]};
        bad |= (p.lo & ~CC_NANCY_LO_MASK) | (p.hi & ~CC_NANCY_HI_MASK);
        const int8_t *t = tricks + i * k;
        int32_t led = -1, high = 0, end = 0;
        uint64_t used0 = 0, used1 = 0; /* ids 0..63, 64..77 seen in this trick */
        for (int32_t j = 0; j < k; j++) {
            int32_t c = t[j];
            /* valid: -1 padding at the end, else distinct ids 0..77 */
            bad |= (uint64_t)((c < -1) | (c > 77) | (end & (c != -1)));
            end |= c == -1;
            int32_t x = (c < -1 || c > 77) ? 0 : c + 1;
            uint64_t bit = x ? 1ull << ((x - 1) & 63) : 0;
            uint64_t upper = (uint64_t)0 - (uint64_t)(x > 64); /* all ones for ids 64..77 */
            uint64_t b1 = bit & upper, b0 = bit & ~upper;
            bad |= (used0 & b0) | (used1 & b1);
            used0 |= b0;
            used1 |= b1;
            if (led < 0) led = LED_OF[x];
            int32_t tn = TRUMP_OF[x];
            high = tn > high ? tn : high;
        }
        cc_nancy_cards r = legal_from(p, led, high, overtrump != 0);
        out[2 * i] = r.lo;
        out[2 * i + 1] = r.hi;
    }
    /* locate the first bad row only when there is one */
    for (int64_t i = 0; bad && i < n; i++) {
        int32_t rc = batch_row_error(holdings, tricks + i * k, k, i);
        if (rc != CC_OK) {
            if (bad_index) *bad_index = i;
            return rc;
        }
    }
    return CC_OK;
}

int32_t cc_nancy_batch_trick_winner(const int8_t *tricks, int64_t n, int32_t k, int8_t *out,
                                    int64_t *bad_index) {
    if (n < 0 || k < 0 || k > 6 || (n > 0 && (out == NULL || (k > 0 && tricks == NULL))))
        return CC_E_ARG;
    for (int64_t i = 0; i < n; i++) {
        const int8_t *t = tricks + i * k;
        if (!check_trick(t, k)) {
            if (bad_index) *bad_index = i;
            return CC_E_ARG;
        }
        out[i] = (int8_t)winner_pos(t, trick_len(t, k));
    }
    return CC_OK;
}

int32_t cc_nancy_batch_objectives(const uint64_t *nancies, int64_t n, int32_t arcane_mode,
                                  uint16_t *out, int64_t *bad_index) {
    if (n < 0 || arcane_mode < 0 || arcane_mode > 2 || (n > 0 && (nancies == NULL || out == NULL)))
        return CC_E_ARG;
    for (int64_t i = 0; i < n; i++) {
        cc_nancy_cards s = {nancies[2 * i], nancies[2 * i + 1]};
        if ((s.lo & ~CC_NANCY_LO_MASK) | (s.hi & ~CC_NANCY_HI_MASK)) {
            if (bad_index) *bad_index = i;
            return CC_E_CARDS;
        }
        out[i] = (uint16_t)cc_nancy_objectives_of(s, arcane_mode);
    }
    return CC_OK;
}
