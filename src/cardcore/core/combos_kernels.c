/* combos_kernels.c: the batch kernels of the combination primitives
 * (cc_combos.h) and their CPU-specific paths, chosen at run time.  The
 * formulas are those of combos.c (combos_internal.h). */
#include "cc_combos.h"
#include "combos_internal.h"
#include "guard_internal.h"

/* ---- batch kernels ----------------------------------------------------
 * One pass, reading each set once into a local: every result and every
 * check comes from that one value, so a set changed by another thread
 * during the call can give a wrong answer for that set but never a
 * success computed from one value and checked on another, and the bad
 * value reported is the one that was checked.  The fast formulas treat
 * every set as one of 5 cards or fewer (32 subsets, at most one run),
 * branch-free, keeping the value read of each set of a block in a local
 * buffer; a block with a set of more cards or with bits outside the deck
 * is then finished by fix_sets from those values.  The loop comes in
 * several paths, chosen at run time from the CPU on x86 with GCC or Clang
 * (the portable build would otherwise call a library routine for each
 * popcount), all giving the same results:
 *
 *   CC_PATH_PLAIN   the portable scalar loop;
 *   CC_PATH_POPCNT  the same, compiled with popcnt;
 *   CC_PATH_BMI2    with popcnt + BMI1 + BMI2 (x & (x - 1), tzcnt and
 *                   three-operand shifts in one instruction each);
 *   CC_PATH_AVX2    four sets per step in 256-bit vectors, see step_avx2;
 *   CC_PATH_AVX512  eight sets per step in 512-bit vectors (AVX-512 F, BW,
 *                   VL, CD, VPOPCNTDQ, BITALG), see step_avx512.
 *
 * stats_loop is always inline and computes whichever results have an
 * output array: each path is one function per combination of outputs, so
 * no test on the outputs is left in the loop.                          */

#if defined(__GNUC__) && defined(__x86_64__)
#define CC_X86_PATHS 1
#include <immintrin.h>
#endif

#if defined(__GNUC__)
#define CC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define CC_UNLIKELY(x) (x)
#endif

/* The first set found with bits outside the deck: its index (-1: none
 * yet) and the value that was read. */
typedef struct bad_set {
    int64_t index;
    uint64_t value;
} bad_set;

CC_AI void note_bad(bad_set *bad, int64_t i, uint64_t value) {
    if (bad->index < 0) {
        bad->index = i;
        bad->value = value;
    }
}

/* The status of a batch: CC_E_CARDS with the first bad set reported (each
 * pointer may be NULL), or CC_OK. */
static int32_t report(const bad_set *bad, int64_t *bad_index, uint64_t *bad_value) {
    if (bad->index < 0) return CC_OK;
    if (bad_index) *bad_index = bad->index;
    if (bad_value) *bad_value = bad->value;
    return CC_E_CARDS;
}

/* The loops go by blocks of BLOCK sets, keeping the value read of each set
 * of the block in a local buffer, vals; a block with a set of more than 5
 * cards or with bits outside the deck is then finished by fix_sets. */
#define BLOCK 256

/* The slow part of a block of sets from..from+count-1, whose values (as
 * read by the loop) are vals[0..count-1]: records the first bad set, and
 * redoes fifteens and run score of the sets of more than 5 cards.  Always
 * inline: it takes the CPU extensions of the path that calls it. */
CC_AI void fix_sets(const uint64_t *vals, int64_t from, int64_t count, int32_t target,
                    int64_t *fifteens, int32_t *run_score, bad_set *bad) {
    for (int64_t j = 0; j < count; j++) {
        uint64_t v = vals[j];
        if (v & ~CC_DECK52_MASK) note_bad(bad, from + j, v);
        uint64_t c = v & CC_DECK52_MASK;
        if (pc(c) <= 5) continue;
        if (fifteens) fifteens[from + j] = cc_combos_fifteens_dp(c, target);
        if (run_score) run_score[from + j] = run_score_of(rank_slices(c));
    }
}

/* Sets [from, n), scalar. */
CC_AI void pass_scalar(const uint64_t *cards, int64_t from, int64_t n, int32_t target,
                       int64_t *fifteens, int32_t *pairs, int32_t *run_score, uint8_t *suits,
                       bad_set *bad) {
    uint64_t tbytes = target_bytes(target), single_mask = single_mask_of(target);
    uint64_t vals[BLOCK];
    for (int64_t b = from; b < n; b += BLOCK) {
        int64_t count = n - b < BLOCK ? n - b : BLOCK;
        uint64_t slow = 0;
        for (int64_t j = 0; j < count; j++) {
            const int64_t i = b + j;
            const uint64_t v = cards[i]; /* the one read of set i */
            vals[j] = v;
            uint64_t c = v & CC_DECK52_MASK;
            slices s = rank_slices(c);
            int32_t ncards = pc(c);
            if (fifteens) fifteens[i] = fifteens_upto5(c, ncards & 7, tbytes, pc(c & single_mask));
            if (run_score) {
                /* one run at most, no rank four times in it: the product of
                 * its counts is 3^n3 2^n2 with n3 <= 1 */
                uint32_t cover = run_cover(s.present);
                uint32_t n2 = (uint32_t)pc(cover & s.twos & ~s.ones);
                uint32_t n3 = (uint32_t)pc(cover & s.twos & s.ones);
                run_score[i] = pc(cover) * (int32_t)((1u + 2u * n3) << (n2 & 15));
            }
            if (pairs) pairs[i] = pairs_of(s);
            if (suits) {
                suits[4 * i] = (uint8_t)pc(c & 0xFFFFu);
                suits[4 * i + 1] = (uint8_t)pc(c & 0xFFFF0000u);
                suits[4 * i + 2] = (uint8_t)pc(c & 0xFFFF00000000ULL);
                suits[4 * i + 3] = (uint8_t)pc(c >> 48);
            }
            slow |= (v & ~CC_DECK52_MASK) | (uint64_t)((fifteens || run_score) && ncards > 5);
        }
        if (CC_UNLIKELY(slow)) fix_sets(vals, b, count, target, fifteens, run_score, bad);
    }
}

CC_AI void stats_loop(const uint64_t *cards, int64_t n, int32_t target, int64_t *fifteens,
                      int32_t *pairs, int32_t *run_score, uint8_t *suits, bad_set *bad) {
    pass_scalar(cards, 0, n, target, fifteens, pairs, run_score, suits, bad);
}

/* One specialised copy of the loop per kernel (the NULL outputs are
 * constants after inlining). */
CC_AI void stats_switch(const uint64_t *cards, int64_t n, int32_t target, int64_t *fifteens,
                        int32_t *pairs, int32_t *run_score, uint8_t *suits, bad_set *bad) {
    if (fifteens && pairs && run_score && suits)
        stats_loop(cards, n, target, fifteens, pairs, run_score, suits, bad);
    else if (fifteens) stats_loop(cards, n, target, fifteens, NULL, NULL, NULL, bad);
    else if (pairs) stats_loop(cards, n, target, NULL, pairs, NULL, NULL, bad);
    else if (run_score) stats_loop(cards, n, target, NULL, NULL, run_score, NULL, bad);
    else stats_loop(cards, n, target, NULL, NULL, NULL, suits, bad);
}

typedef void (*stats_fn)(const uint64_t *cards, int64_t n, int32_t target, int64_t *fifteens,
                         int32_t *pairs, int32_t *run_score, uint8_t *suits, bad_set *bad);

static void stats_plain(const uint64_t *cards, int64_t n, int32_t target, int64_t *fifteens,
                        int32_t *pairs, int32_t *run_score, uint8_t *suits, bad_set *bad) {
    stats_switch(cards, n, target, fifteens, pairs, run_score, suits, bad);
}

#ifdef CC_X86_PATHS
__attribute__((target("popcnt"))) static void stats_popcnt(const uint64_t *cards, int64_t n,
                                                           int32_t target, int64_t *fifteens,
                                                           int32_t *pairs, int32_t *run_score,
                                                           uint8_t *suits, bad_set *bad) {
    stats_switch(cards, n, target, fifteens, pairs, run_score, suits, bad);
}

__attribute__((target("popcnt,bmi,bmi2"))) static void
stats_bmi2(const uint64_t *cards, int64_t n, int32_t target, int64_t *fifteens, int32_t *pairs,
           int32_t *run_score, uint8_t *suits, bad_set *bad) {
    stats_switch(cards, n, target, fifteens, pairs, run_score, suits, bad);
}

/* ---- AVX-512: eight sets per step ----------------------------------------
 * Each 64-bit element of a vector is one card set, and every result is the
 * scalar pass 1's formula computed element-wise:
 *   suits      popcount of each 16-bit lane (vpopcntw), narrowed to bytes;
 *   pairs      popcount(c & rol(c, 16)) + popcount(c & rol(c, 32) & 2^32-1):
 *              the pairs of suit lanes (0,1) (1,2) (2,3) (3,0), then (0,2)
 *              (1,3), each a same-rank pair once;
 *   run score  the bit slices and run cover as in the scalar code; the
 *              cover, cover & twos & ~ones and cover & twos & ones are packed
 *              into three 16-bit lanes and counted by one vpopcntw;
 *   fifteens   the five highest cards one by one (vplzcntq; 64 when the set
 *              is exhausted), the pip of each by a 16-byte table (vpshufb;
 *              the table repeats every 16 bits, 0 outside ranks 0..12),
 *              spread by one more vpshufb over the bytes of the subset-sum
 *              word that contain that card; then the 32 subset sums are
 *              compared with the target byte-wise and counted (vpsadbw).
 * A set of more than 5 cards gets defined but meaningless fifteens and run
 * score here, redone by fix_sets from the value loaded, as on every path. */
#define CC_AVX512 "avx512f,avx512bw,avx512vl,avx512cd,avx512vpopcntdq,avx512bitalg,popcnt,bmi,bmi2"
#define CC_AVX512_AI static inline __attribute__((always_inline, target(CC_AVX512)))
#define Z 0x80 /* vpshufb: a zero byte */

/* Byte j of a 16-byte group: the pip of the card at bit 63 - j (mod 16). */
static const uint8_t PIP_OF_LZ[16] = {0, 0, 0, 10, 10, 10, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
/* vpshufb indices copying byte 0 of each 64-bit element (byte 0 or 8 of
 * its 128-bit lane) into the bytes of SUBSET_BIT0/1/2 and into all 8. */
static const uint8_t SPREAD[4][16] = {
    {Z, 0, Z, 0, Z, 0, Z, 0, Z, 8, Z, 8, Z, 8, Z, 8},
    {Z, Z, 0, 0, Z, Z, 0, 0, Z, Z, 8, 8, Z, Z, 8, 8},
    {Z, Z, Z, Z, 0, 0, 0, 0, Z, Z, Z, Z, 8, 8, 8, 8},
    {0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8, 8},
};
#undef Z

typedef struct avx512_consts {
    __m512i deck, lane13, low32, word0, top, five, one_b, tbytes, pips, single;
    __m512i spread[4];
} avx512_consts;

CC_AVX512_AI avx512_consts avx512_setup(int32_t target) {
    avx512_consts k;
    k.deck = _mm512_set1_epi64((long long)CC_DECK52_MASK);
    k.lane13 = _mm512_set1_epi64(LANE13);
    k.low32 = _mm512_set1_epi64(0xFFFFFFFFLL);
    k.word0 = _mm512_set1_epi64(0xFFFF);
    k.top = _mm512_set1_epi64((long long)0x8000000000000000ULL);
    k.five = _mm512_set1_epi64(5);
    k.one_b = _mm512_set1_epi8(1);
    k.tbytes = _mm512_set1_epi64((long long)target_bytes(target));
    k.pips = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)PIP_OF_LZ));
    k.single = _mm512_set1_epi64((long long)single_mask_of(target));
    for (int32_t j = 0; j < 4; j++)
        k.spread[j] = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)SPREAD[j]));
    return k;
}

/* The card at the top of x: its pip spread by table `spread`; x loses it. */
CC_AVX512_AI __m512i take_top(__m512i *x, const avx512_consts *k, __m512i spread) {
    __m512i lz = _mm512_lzcnt_epi64(*x);
    __m512i pip = _mm512_shuffle_epi8(k->pips, lz); /* pip in byte 0, zeros above */
    *x = _mm512_andnot_si512(_mm512_srlv_epi64(k->top, lz), *x);
    return _mm512_shuffle_epi8(pip, spread);
}

/* Eight sets (those of mask m) at index i. */
CC_AVX512_AI void step_avx512(const uint64_t *cards, int64_t i, __mmask8 m, const avx512_consts *k,
                              int32_t singles, int64_t *fifteens, int32_t *pairs,
                              int32_t *run_score, uint8_t *suits, uint64_t *vals, __mmask8 *slow) {
    __m512i raw = _mm512_maskz_loadu_epi64(m, cards + i); /* the one read of these sets */
    _mm512_storeu_si512((void *)vals, raw);
    __m512i c = _mm512_and_si512(raw, k->deck);
    __m512i n = _mm512_popcnt_epi64(c);
    __m512i outside = _mm512_andnot_si512(k->deck, raw);
    *slow |= _mm512_test_epi64_mask(outside, outside);
    if (fifteens || run_score) *slow |= _mm512_cmpgt_epu64_mask(n, k->five);
    if (suits) {
        __m256i s = _mm512_cvtepi16_epi8(_mm512_popcnt_epi16(c));
        _mm256_mask_storeu_epi8(
            suits + 4 * i,
            (__mmask32)_cvtu32_mask32((uint32_t)((1ULL << (4 * _mm_popcnt_u32(m))) - 1)), s);
    }
    if (pairs) {
        __m512i a = _mm512_and_si512(c, _mm512_rol_epi64(c, 16));
        __m512i b = _mm512_ternarylogic_epi64(c, _mm512_rol_epi64(c, 32), k->low32, 0x80);
        __m512i p = _mm512_add_epi64(_mm512_popcnt_epi64(a), _mm512_popcnt_epi64(b));
        _mm256_mask_storeu_epi32(pairs + i, m, _mm512_cvtepi64_epi32(p));
    }
    if (run_score) {
        __m512i hi = _mm512_srli_epi64(c, 32);
        __m512i t = _mm512_or_si512(c, hi);
        __m512i present = _mm512_ternarylogic_epi64(t, _mm512_srli_epi64(t, 16), k->lane13, 0xA8);
        __m512i w3 = _mm512_ternarylogic_epi64(present, _mm512_srli_epi64(present, 1),
                                               _mm512_srli_epi64(present, 2), 0x80);
        __m512i cover =
            _mm512_ternarylogic_epi64(w3, _mm512_slli_epi64(w3, 1), _mm512_slli_epi64(w3, 2), 0xFE);
        __m512i a = _mm512_xor_si512(c, hi), b = _mm512_and_si512(c, hi);
        __m512i a16 = _mm512_srli_epi64(a, 16), b16 = _mm512_srli_epi64(b, 16);
        __m512i ones = _mm512_xor_si512(a, a16);
        __m512i twos = _mm512_ternarylogic_epi64(b, b16, _mm512_and_si512(a, a16), 0x96);
        __m512i n2 = _mm512_ternarylogic_epi64(cover, twos, ones, 0x40); /* A & B & ~C */
        __m512i n3 = _mm512_ternarylogic_epi64(cover, twos, ones, 0x80); /* A & B & C */
        __m512i packed = _mm512_ternarylogic_epi64(cover, _mm512_slli_epi64(n2, 16),
                                                   _mm512_slli_epi64(n3, 32), 0xFE);
        __m512i cnt = _mm512_popcnt_epi16(packed); /* len | n2 << 16 | n3 << 32 */
        __m512i len = _mm512_and_si512(cnt, k->word0);
        __m512i shift = _mm512_and_si512(_mm512_srli_epi64(cnt, 16), k->word0);
        __mmask8 triple = _mm512_test_epi64_mask(cnt, _mm512_set1_epi64(0xFFFF00000000LL));
        __m512i base = _mm512_mask_add_epi64(len, triple, len, _mm512_slli_epi64(len, 1));
        __m512i score = _mm512_sllv_epi64(base, shift);
        _mm256_mask_storeu_epi32(run_score + i, m, _mm512_cvtepi64_epi32(score));
    }
    if (fifteens) {
        __m512i x = c;
        __m512i w0 = take_top(&x, k, k->spread[0]);
        w0 = _mm512_add_epi8(w0, take_top(&x, k, k->spread[1]));
        w0 = _mm512_add_epi8(w0, take_top(&x, k, k->spread[2]));
        __m512i p3 = take_top(&x, k, k->spread[3]);
        __m512i p4 = take_top(&x, k, k->spread[3]);
        __m512i w1 = _mm512_add_epi8(w0, p3), w2 = _mm512_add_epi8(w0, p4);
        __m512i w3 = _mm512_add_epi8(w1, p4);
        __m512i hits = _mm512_maskz_mov_epi8(_mm512_cmpeq_epi8_mask(w0, k->tbytes), k->one_b);
        hits = _mm512_mask_add_epi8(hits, _mm512_cmpeq_epi8_mask(w1, k->tbytes), hits, k->one_b);
        hits = _mm512_mask_add_epi8(hits, _mm512_cmpeq_epi8_mask(w2, k->tbytes), hits, k->one_b);
        hits = _mm512_mask_add_epi8(hits, _mm512_cmpeq_epi8_mask(w3, k->tbytes), hits, k->one_b);
        __m512i total = _mm512_sad_epu8(hits, _mm512_setzero_si512());
        /* each absent card doubled every subset; n > 5 shifts by a huge count: 0 */
        __m512i f = _mm512_srlv_epi64(total, _mm512_sub_epi64(k->five, n));
        if (singles) f = _mm512_sub_epi64(f, _mm512_popcnt_epi64(_mm512_and_si512(c, k->single)));
        _mm512_mask_storeu_epi64(fifteens + i, m, f);
    }
}

CC_AVX512_AI void stats_loop_avx512(const uint64_t *cards, int64_t n, int32_t target,
                                    int32_t singles, int64_t *fifteens, int32_t *pairs,
                                    int32_t *run_score, uint8_t *suits, bad_set *bad) {
    avx512_consts k = avx512_setup(target);
    uint64_t vals[BLOCK]; /* BLOCK is a multiple of 8 */
    for (int64_t b = 0; b < n; b += BLOCK) {
        int64_t count = n - b < BLOCK ? n - b : BLOCK;
        __mmask8 slow = 0;
        for (int64_t j = 0; j < count; j += 8) {
            __mmask8 m = count - j >= 8 ? (__mmask8)0xFF : (__mmask8)((1u << (count - j)) - 1);
            step_avx512(cards, b + j, m, &k, singles, fifteens, pairs, run_score, suits, vals + j,
                        &slow);
        }
        if (CC_UNLIKELY(slow)) fix_sets(vals, b, count, target, fifteens, run_score, bad);
    }
}

CC_AVX512_AI void stats_singles_avx512(const uint64_t *cards, int64_t n, int32_t target,
                                       int64_t *fifteens, int32_t *pairs, int32_t *run_score,
                                       uint8_t *suits, bad_set *bad) {
    /* the single-card term is needed only for targets of 10 or less */
    if (target <= 10)
        stats_loop_avx512(cards, n, target, 1, fifteens, pairs, run_score, suits, bad);
    else stats_loop_avx512(cards, n, target, 0, fifteens, pairs, run_score, suits, bad);
}

__attribute__((target(CC_AVX512))) static void stats_avx512(const uint64_t *cards, int64_t n,
                                                            int32_t target, int64_t *fifteens,
                                                            int32_t *pairs, int32_t *run_score,
                                                            uint8_t *suits, bad_set *bad) {
    if (fifteens && pairs && run_score && suits)
        stats_singles_avx512(cards, n, target, fifteens, pairs, run_score, suits, bad);
    else if (fifteens) stats_singles_avx512(cards, n, target, fifteens, NULL, NULL, NULL, bad);
    else if (pairs) stats_singles_avx512(cards, n, target, NULL, pairs, NULL, NULL, bad);
    else if (run_score) stats_singles_avx512(cards, n, target, NULL, NULL, run_score, NULL, bad);
    else stats_singles_avx512(cards, n, target, NULL, NULL, NULL, suits, bad);
}
/* ---- AVX2: four sets per step ------------------------------------------
 * The AVX-512 formulas without its instructions: popcounts add nibble
 * counts looked up by vpshufb (vpsadbw sums the bytes of each set), the
 * ternary logic is spelled out, and the cards are taken from the bottom
 * (x & -x), the pip of each from the exponent of its rank bit converted to
 * float (rank bit 2^r gives exponent 127 + r; no card gives 0), looked up
 * by vpshufb.  The sets left over after the last full vector go through the
 * scalar pass 1.                                                        */
#define CC_AVX2 "avx2,popcnt,bmi,bmi2"
#define CC_AVX2_AI static inline __attribute__((always_inline, target(CC_AVX2)))

/* Byte j: the pip of rank j - 1 (index = float exponent - 110, mod 16). */
static const uint8_t PIP_OF_EXP[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 0, 0};
static const uint8_t NIBBLE_POP[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
/* vpshufb indices rotating each 64-bit element left by 16 bits */
static const uint8_t ROL16[16] = {6, 7, 0, 1, 2, 3, 4, 5, 14, 15, 8, 9, 10, 11, 12, 13};

typedef struct avx2_consts {
    __m256i deck, lane13, low32, word0, byte0, nibble, five, n3bit, tbytes, pips, single, rol16;
    __m256i exp_bias, even32, spread[4];
} avx2_consts;

CC_AVX2_AI __m256i lanes128(const uint8_t *t) {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)t));
}

CC_AVX2_AI avx2_consts avx2_setup(int32_t target) {
    avx2_consts k;
    k.deck = _mm256_set1_epi64x((long long)CC_DECK52_MASK);
    k.lane13 = _mm256_set1_epi64x(LANE13);
    k.low32 = _mm256_set1_epi64x(0xFFFFFFFFLL);
    k.word0 = _mm256_set1_epi64x(0xFFFF);
    k.byte0 = _mm256_set1_epi16(0xFF);
    k.nibble = _mm256_set1_epi8(0x0F);
    k.five = _mm256_set1_epi64x(5);
    k.n3bit = _mm256_set1_epi64x(1);
    k.tbytes = _mm256_set1_epi64x((long long)target_bytes(target));
    k.pips = lanes128(PIP_OF_EXP);
    k.single = _mm256_set1_epi64x((long long)single_mask_of(target));
    k.rol16 = lanes128(ROL16);
    k.exp_bias = _mm256_set1_epi32(110);
    k.even32 = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    for (int32_t j = 0; j < 4; j++) k.spread[j] = lanes128(SPREAD[j]);
    return k;
}

/* Per byte: the number of set bits. */
CC_AVX2_AI __m256i byte_pop(__m256i x, const avx2_consts *k) {
    __m256i nib = lanes128(NIBBLE_POP);
    __m256i lo = _mm256_shuffle_epi8(nib, _mm256_and_si256(x, k->nibble));
    __m256i hi = _mm256_shuffle_epi8(nib, _mm256_and_si256(_mm256_srli_epi16(x, 4), k->nibble));
    return _mm256_add_epi8(lo, hi);
}

/* Per 16-bit lane: the number of set bits. */
CC_AVX2_AI __m256i pop16(__m256i bytes, const avx2_consts *k) {
    return _mm256_and_si256(_mm256_add_epi8(bytes, _mm256_srli_epi16(bytes, 8)), k->byte0);
}

/* The card at the bottom of x: its pip spread by table `spread`; x loses it. */
CC_AVX2_AI __m256i take_bottom(__m256i *x, const avx2_consts *k, __m256i spread) {
    __m256i b = _mm256_and_si256(*x, _mm256_sub_epi64(_mm256_setzero_si256(), *x));
    *x = _mm256_xor_si256(*x, b);
    __m256i r = _mm256_or_si256(b, _mm256_srli_epi64(b, 32));
    r = _mm256_and_si256(_mm256_or_si256(r, _mm256_srli_epi64(r, 16)), k->lane13);
    __m256i e = _mm256_srli_epi32(_mm256_castps_si256(_mm256_cvtepi32_ps(r)), 23);
    /* a card: 17 + rank (byte 0; bytes 1-3 zero: pip 0); none: negative, all
     * bytes >= 0x80: pip 0 */
    __m256i pip = _mm256_shuffle_epi8(k->pips, _mm256_sub_epi32(e, k->exp_bias));
    return _mm256_shuffle_epi8(pip, spread);
}

/* The low 32 bits of the four 64-bit elements, stored as four int32. */
CC_AVX2_AI void store_low32(int32_t *out, __m256i v, const avx2_consts *k) {
    __m256i packed = _mm256_permutevar8x32_epi32(v, k->even32);
    _mm_storeu_si128((__m128i *)out, _mm256_castsi256_si128(packed));
}

CC_AVX2_AI void step_avx2(const uint64_t *cards, int64_t i, const avx2_consts *k, int32_t singles,
                          int64_t *fifteens, int32_t *pairs, int32_t *run_score, uint8_t *suits,
                          uint64_t *vals, __m256i *slow) {
    const __m256i zero = _mm256_setzero_si256();
    __m256i raw = _mm256_loadu_si256((const __m256i *)(cards + i)); /* the one read */
    _mm256_storeu_si256((__m256i *)vals, raw);
    *slow = _mm256_or_si256(*slow, _mm256_andnot_si256(k->deck, raw));
    __m256i c = _mm256_and_si256(raw, k->deck);
    __m256i bc = byte_pop(c, k);
    __m256i n = _mm256_sad_epu8(bc, zero);
    if (fifteens || run_score) *slow = _mm256_or_si256(*slow, _mm256_cmpgt_epi64(n, k->five));
    if (suits) {
        __m256i s16 = pop16(bc, k);
        __m256i s8 = _mm256_permute4x64_epi64(_mm256_packus_epi16(s16, s16), 0x08);
        _mm_storeu_si128((__m128i *)(suits + 4 * i), _mm256_castsi256_si128(s8));
    }
    if (pairs) {
        __m256i a = _mm256_and_si256(c, _mm256_shuffle_epi8(c, k->rol16));
        __m256i b = _mm256_and_si256(_mm256_and_si256(c, _mm256_shuffle_epi32(c, 0xB1)), k->low32);
        __m256i p = _mm256_sad_epu8(_mm256_add_epi8(byte_pop(a, k), byte_pop(b, k)), zero);
        store_low32(pairs + i, p, k);
    }
    if (run_score) {
        __m256i hi = _mm256_srli_epi64(c, 32);
        __m256i t = _mm256_or_si256(c, hi);
        __m256i present = _mm256_and_si256(_mm256_or_si256(t, _mm256_srli_epi64(t, 16)), k->lane13);
        __m256i w3 = _mm256_and_si256(_mm256_and_si256(present, _mm256_srli_epi64(present, 1)),
                                      _mm256_srli_epi64(present, 2));
        __m256i cover = _mm256_or_si256(_mm256_or_si256(w3, _mm256_slli_epi64(w3, 1)),
                                        _mm256_slli_epi64(w3, 2));
        __m256i a = _mm256_xor_si256(c, hi), b = _mm256_and_si256(c, hi);
        __m256i a16 = _mm256_srli_epi64(a, 16), b16 = _mm256_srli_epi64(b, 16);
        __m256i ones = _mm256_xor_si256(a, a16);
        __m256i twos = _mm256_xor_si256(_mm256_xor_si256(b, b16), _mm256_and_si256(a, a16));
        __m256i ct = _mm256_and_si256(cover, twos);
        __m256i n2 = _mm256_andnot_si256(ones, ct), n3 = _mm256_and_si256(ct, ones);
        __m256i packed = _mm256_or_si256(_mm256_or_si256(cover, _mm256_slli_epi64(n2, 16)),
                                         _mm256_slli_epi64(n3, 32));
        __m256i cnt = pop16(byte_pop(packed, k), k); /* len | n2 << 16 | n3 << 32 */
        __m256i len = _mm256_and_si256(cnt, k->word0);
        __m256i shift = _mm256_and_si256(_mm256_srli_epi64(cnt, 16), k->word0);
        __m256i triple = _mm256_sub_epi64(zero, _mm256_srli_epi64(cnt, 32)); /* 0 or -1 */
        __m256i base = _mm256_add_epi64(len, _mm256_and_si256(_mm256_slli_epi64(len, 1), triple));
        store_low32(run_score + i, _mm256_sllv_epi64(base, shift), k);
    }
    if (fifteens) {
        __m256i x = c;
        __m256i w0 = take_bottom(&x, k, k->spread[0]);
        w0 = _mm256_add_epi8(w0, take_bottom(&x, k, k->spread[1]));
        w0 = _mm256_add_epi8(w0, take_bottom(&x, k, k->spread[2]));
        __m256i p3 = take_bottom(&x, k, k->spread[3]);
        __m256i p4 = take_bottom(&x, k, k->spread[3]);
        __m256i w1 = _mm256_add_epi8(w0, p3), w2 = _mm256_add_epi8(w0, p4);
        __m256i w3 = _mm256_add_epi8(w1, p4);
        /* a match is -1: the sum of four compares is minus the hits per byte */
        __m256i hits =
            _mm256_add_epi8(_mm256_cmpeq_epi8(w0, k->tbytes), _mm256_cmpeq_epi8(w1, k->tbytes));
        hits = _mm256_add_epi8(hits, _mm256_cmpeq_epi8(w2, k->tbytes));
        hits = _mm256_add_epi8(hits, _mm256_cmpeq_epi8(w3, k->tbytes));
        __m256i total = _mm256_sad_epu8(_mm256_sub_epi8(zero, hits), zero);
        __m256i f = _mm256_srlv_epi64(total, _mm256_sub_epi64(k->five, n));
        if (singles) {
            __m256i on = _mm256_and_si256(c, k->single);
            f = _mm256_sub_epi64(f, _mm256_sad_epu8(byte_pop(on, k), zero));
        }
        _mm256_storeu_si256((__m256i *)(fifteens + i), f);
    }
}

CC_AVX2_AI void stats_loop_avx2(const uint64_t *cards, int64_t n, int32_t target, int32_t singles,
                                int64_t *fifteens, int32_t *pairs, int32_t *run_score,
                                uint8_t *suits, bad_set *bad) {
    avx2_consts k = avx2_setup(target);
    uint64_t vals[BLOCK];           /* BLOCK is a multiple of 4 */
    int64_t full = n & ~(int64_t)3; /* the sets of whole steps; the rest go scalar */
    for (int64_t b = 0; b < full; b += BLOCK) {
        int64_t count = full - b < BLOCK ? full - b : BLOCK;
        __m256i slow = _mm256_setzero_si256();
        for (int64_t j = 0; j < count; j += 4)
            step_avx2(cards, b + j, &k, singles, fifteens, pairs, run_score, suits, vals + j,
                      &slow);
        if (CC_UNLIKELY(!_mm256_testz_si256(slow, slow)))
            fix_sets(vals, b, count, target, fifteens, run_score, bad);
    }
    pass_scalar(cards, full, n, target, fifteens, pairs, run_score, suits, bad);
}

CC_AVX2_AI void stats_singles_avx2(const uint64_t *cards, int64_t n, int32_t target,
                                   int64_t *fifteens, int32_t *pairs, int32_t *run_score,
                                   uint8_t *suits, bad_set *bad) {
    if (target <= 10) stats_loop_avx2(cards, n, target, 1, fifteens, pairs, run_score, suits, bad);
    else stats_loop_avx2(cards, n, target, 0, fifteens, pairs, run_score, suits, bad);
}

__attribute__((target(CC_AVX2))) static void stats_avx2(const uint64_t *cards, int64_t n,
                                                        int32_t target, int64_t *fifteens,
                                                        int32_t *pairs, int32_t *run_score,
                                                        uint8_t *suits, bad_set *bad) {
    if (fifteens && pairs && run_score && suits)
        stats_singles_avx2(cards, n, target, fifteens, pairs, run_score, suits, bad);
    else if (fifteens) stats_singles_avx2(cards, n, target, fifteens, NULL, NULL, NULL, bad);
    else if (pairs) stats_singles_avx2(cards, n, target, NULL, pairs, NULL, NULL, bad);
    else if (run_score) stats_singles_avx2(cards, n, target, NULL, NULL, run_score, NULL, bad);
    else stats_singles_avx2(cards, n, target, NULL, NULL, NULL, suits, bad);
}
#endif /* CC_X86_PATHS */

uint32_t cc_combos_paths(void) {
    uint32_t paths = 1u << CC_PATH_PLAIN;
#ifdef CC_X86_PATHS
    __builtin_cpu_init();
    if (__builtin_cpu_supports("popcnt")) paths |= 1u << CC_PATH_POPCNT;
    if (__builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi") &&
        __builtin_cpu_supports("bmi2"))
        paths |= 1u << CC_PATH_BMI2;
    if (__builtin_cpu_supports("avx2") && (paths >> CC_PATH_BMI2 & 1)) paths |= 1u << CC_PATH_AVX2;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512cd") &&
        __builtin_cpu_supports("avx512vpopcntdq") && __builtin_cpu_supports("avx512bitalg") &&
        (paths >> CC_PATH_BMI2 & 1))
        paths |= 1u << CC_PATH_AVX512;
#endif
    return paths;
}

/* The function of a path (NULL if this build or CPU lacks it); CC_PATH_AUTO
 * is the best path the CPU has. */
static stats_fn path_fn(int32_t path) {
    uint32_t paths = cc_combos_paths();
    if (path == CC_PATH_AUTO) {
        for (path = CC_NUM_PATHS - 1; path > CC_PATH_PLAIN; path--)
            if (paths >> path & 1) break;
    }
    if (path < 0 || path >= CC_NUM_PATHS || !(paths >> path & 1)) return NULL;
#ifdef CC_X86_PATHS
    if (path == CC_PATH_AVX512) return stats_avx512;
    if (path == CC_PATH_AVX2) return stats_avx2;
    if (path == CC_PATH_BMI2) return stats_bmi2;
    if (path == CC_PATH_POPCNT) return stats_popcnt;
#endif
    return stats_plain;
}

/* Validate the arguments, run the loop on a path; on a set with bits
 * outside the deck, report the first one (index and the value read). */
static int32_t stats(int32_t path, const uint64_t *cards, int64_t n, int32_t target,
                     int64_t *fifteens, int32_t *pairs, int32_t *run_score, uint8_t *suits,
                     int64_t *bad_index, uint64_t *bad_value) {
    if (n < 0 || (n > 0 && cards == NULL)) return CC_E_ARG;
    if (target < 1 || target > CC_MAX_PIP_TOTAL) return CC_E_ARG;
    stats_fn fn = path_fn(path);
    if (fn == NULL) return CC_E_ARG;
    bad_set bad = {-1, 0};
    fn(cards, n, target, fifteens, pairs, run_score, suits, &bad);
    return report(&bad, bad_index, bad_value);
}

int32_t cc_batch_count_fifteens(const uint64_t *cards, int64_t n, int32_t target, int64_t *out,
                                int64_t *bad_index, uint64_t *bad_value) {
    if (n > 0 && out == NULL) return CC_E_ARG;
    return stats(CC_PATH_AUTO, cards, n, target, out, NULL, NULL, NULL, bad_index, bad_value);
}

int32_t cc_batch_count_pairs(const uint64_t *cards, int64_t n, int32_t *out, int64_t *bad_index,
                             uint64_t *bad_value) {
    if (n > 0 && out == NULL) return CC_E_ARG;
    return stats(CC_PATH_AUTO, cards, n, 15, NULL, out, NULL, NULL, bad_index, bad_value);
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CC_LITTLE_ENDIAN 1
#else
#define CC_LITTLE_ENDIAN 0
#endif

CC_AI void suits_of(uint64_t c, uint8_t *out) {
    /* popcount of each 16-bit lane, SWAR, stored as four bytes at once */
    c = c - ((c >> 1) & 0x5555555555555555ULL);
    c = (c & 0x3333333333333333ULL) + ((c >> 2) & 0x3333333333333333ULL);
    c = (c + (c >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    c = (c + (c >> 8)) & 0x00FF00FF00FF00FFULL;
    uint32_t w = (uint32_t)(c & 0xFF) | (uint32_t)((c >> 8) & 0xFF00) |
                 (uint32_t)((c >> 16) & 0xFF0000) | (uint32_t)((c >> 24) & 0xFF000000);
    if (CC_LITTLE_ENDIAN) {
        memcpy(out, &w, 4);
    } else {
        out[0] = (uint8_t)w;
        out[1] = (uint8_t)(w >> 8);
        out[2] = (uint8_t)(w >> 16);
        out[3] = (uint8_t)(w >> 24);
    }
}

/* The simple kernels copy each block of sets into a local buffer (the one
 * read of each set; a copy in one go is faster than storing each set to the
 * buffer in the loop) and compute and check from the copy; the first bad
 * set of a block is looked for in that copy. */

CC_AI void note_bad_in_block(const uint64_t *vals, int64_t from, int64_t n, bad_set *bad) {
    for (int64_t j = 0; j < n; j++)
        if (vals[j] & ~CC_DECK52_MASK) {
            note_bad(bad, from + j, vals[j]);
            return;
        }
}

int32_t cc_batch_suit_counts(const uint64_t *cards, int64_t n, uint8_t *out, int64_t *bad_index,
                             uint64_t *bad_value) {
    if (n < 0 || (n > 0 && (cards == NULL || out == NULL))) return CC_E_ARG;
    bad_set bad = {-1, 0};
    uint64_t vals[BLOCK];
    for (int64_t from = 0; from < n; from += BLOCK) {
        int64_t m = n - from < BLOCK ? n - from : BLOCK;
        memcpy(vals, cards + from, sizeof(uint64_t) * (size_t)m); /* the one read */
        uint64_t outside = 0;
        for (int64_t j = 0; j < m; j++) {
            const uint64_t v = vals[j];
            outside |= v & ~CC_DECK52_MASK;
            suits_of(v & CC_DECK52_MASK, out + 4 * (from + j));
        }
        if (CC_UNLIKELY(outside)) note_bad_in_block(vals, from, m, &bad);
    }
    return report(&bad, bad_index, bad_value);
}

int32_t cc_batch_run_score(const uint64_t *cards, int64_t n, int32_t *out, int64_t *bad_index,
                           uint64_t *bad_value) {
    if (n > 0 && out == NULL) return CC_E_ARG;
    return stats(CC_PATH_AUTO, cards, n, 15, NULL, NULL, out, NULL, bad_index, bad_value);
}

int32_t cc_batch_hand_stats_path(int32_t path, const uint64_t *cards, int64_t n, int32_t target,
                                 int64_t *fifteens, int32_t *pairs, int32_t *run_score,
                                 uint8_t *suits, int64_t *bad_index, uint64_t *bad_value) {
    CC_SLOW_SITE("batch_hand_stats", 40 * n); /* the guard's switch (guard_internal.h) */
    if (n > 0 && (fifteens == NULL || pairs == NULL || run_score == NULL || suits == NULL))
        return CC_E_ARG;
    return stats(path, cards, n, target, fifteens, pairs, run_score, suits, bad_index, bad_value);
}

int32_t cc_batch_hand_stats(const uint64_t *cards, int64_t n, int32_t target, int64_t *fifteens,
                            int32_t *pairs, int32_t *run_score, uint8_t *suits, int64_t *bad_index,
                            uint64_t *bad_value) {
    return cc_batch_hand_stats_path(CC_PATH_AUTO, cards, n, target, fifteens, pairs, run_score,
                                    suits, bad_index, bad_value);
}

int32_t cc_batch_longest_suit_run(const uint64_t *cards, int64_t n, int32_t *out,
                                  int64_t *bad_index, uint64_t *bad_value) {
    if (n < 0 || (n > 0 && (cards == NULL || out == NULL))) return CC_E_ARG;
    bad_set bad = {-1, 0};
    uint64_t vals[BLOCK];
    for (int64_t from = 0; from < n; from += BLOCK) {
        int64_t m = n - from < BLOCK ? n - from : BLOCK;
        memcpy(vals, cards + from, sizeof(uint64_t) * (size_t)m); /* the one read */
        uint64_t outside = 0;
        for (int64_t j = 0; j < m; j++) {
            const uint64_t v = vals[j];
            outside |= v & ~CC_DECK52_MASK;
            out[from + j] = longest_suit_run_of(v & CC_DECK52_MASK);
        }
        if (CC_UNLIKELY(outside)) note_bad_in_block(vals, from, m, &bad);
    }
    return report(&bad, bad_index, bad_value);
}
