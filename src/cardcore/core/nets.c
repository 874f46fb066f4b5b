/* nets.c: small networks evaluated in integers (cc_net.h, docs/networks.rst).
 *
 * Each layer is kept transposed, two inputs at a time: w[(p * out_pad + o)
 * * 2 + t] is the weight of input 2p + t to output o, outputs padded to a
 * multiple of 8 with zero weights.  A layer then adds, for each pair of
 * inputs that is not all zero (the observation tensors are sparse, and so
 * are the clipped ReLU's outputs), x0 * w0 + x1 * w1 to every output: one
 * vpmaddwd per 8 outputs on AVX2, or the same sums in the portable loop.
 * The sums are exact in int32 (the loader checked that no sum can pass
 * 2^31 - 1), so the order of the additions does not change the result and
 * every path gives the same bits. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"
#include "cc_net.h"

#if defined(__GNUC__) && defined(__x86_64__)
#define CC_NET_X86 1
#include <immintrin.h>
#endif

#define OUT_ALIGN 8

typedef struct net_layer {
    int16_t *w; /* pairs * out_pad * 2 */
    int32_t *b; /* out_pad */
    int32_t outputs;
    int32_t out_pad;
    int32_t inputs;
    int32_t pairs; /* (inputs + 1) / 2 */
    int32_t down;  /* hidden: the right shift of acc (e + shift - ACT_BITS) */
    float scale;   /* head: 2^-(e + shift) */
} net_layer;

struct cc_net {
    int32_t input_size;
    int32_t num_actions;
    int32_t num_players;
    int32_t num_hidden;
    int32_t max_width; /* the widest layer's out_pad */
    uint32_t paths;    /* cc_net_paths() when it was made */
    net_layer layers[CC_NET_MAX_LAYERS + 2];
};

int32_t cc_net_input_size(const cc_net *net) { return net ? net->input_size : 0; }
int32_t cc_net_num_actions(const cc_net *net) { return net ? net->num_actions : 0; }
int32_t cc_net_num_players(const cc_net *net) { return net ? net->num_players : 0; }

void cc_net_free(cc_net *net) {
    if (net == NULL) return;
    for (int32_t i = 0; i < net->num_hidden + 2; i++) {
        free(net->layers[i].w);
        free(net->layers[i].b);
    }
    free(net);
}

/* CC_OK if layer (at depth `depth`, reading `inputs` values, the input if
 * depth is 0) is valid with `outputs` outputs, else CC_E_ARG. */
static int32_t check_layer(const cc_net_layer *l, int32_t depth, int32_t inputs, int32_t outputs) {
    if (l->weight == NULL || l->bias == NULL || l->reserved != 0) return CC_E_ARG;
    if (l->inputs != inputs || l->outputs != outputs) return CC_E_ARG;
    int32_t e = depth == 0 ? CC_NET_INPUT_BITS : CC_NET_ACT_BITS;
    int32_t min_shift = CC_NET_ACT_BITS > e ? CC_NET_ACT_BITS - e : 0;
    if (l->shift < min_shift || l->shift > CC_NET_MAX_SHIFT) return CC_E_ARG;
    int64_t in_max = depth == 0 ? CC_NET_INPUT_MAX : (int64_t)1 << CC_NET_ACT_BITS;
    for (int32_t o = 0; o < outputs; o++) {
        const int16_t *row = l->weight + (size_t)o * (size_t)inputs;
        int64_t sum = 0;
        for (int32_t i = 0; i < inputs; i++) {
            if (row[i] == INT16_MIN) return CC_E_ARG;
            sum += row[i] < 0 ? -(int64_t)row[i] : (int64_t)row[i];
        }
        int64_t b = l->bias[o];
        if (sum * in_max + (b < 0 ? -b : b) > INT32_MAX) return CC_E_ARG;
    }
    return CC_OK;
}

static int32_t copy_layer(net_layer *dst, const cc_net_layer *l, int32_t depth, int32_t hidden) {
    int32_t out_pad = (l->outputs + OUT_ALIGN - 1) / OUT_ALIGN * OUT_ALIGN;
    int32_t pairs = (l->inputs + 1) / 2;
    dst->outputs = l->outputs;
    dst->out_pad = out_pad;
    dst->inputs = l->inputs;
    dst->pairs = pairs;
    dst->w = calloc((size_t)pairs * (size_t)out_pad * 2, sizeof(int16_t));
    dst->b = calloc((size_t)out_pad, sizeof(int32_t));
    if (dst->w == NULL || dst->b == NULL) return CC_E_CAPACITY;
    for (int32_t o = 0; o < l->outputs; o++) {
        dst->b[o] = l->bias[o];
        for (int32_t i = 0; i < l->inputs; i++)
            dst->w[((size_t)(i / 2) * (size_t)out_pad + (size_t)o) * 2 + (size_t)(i % 2)] =
                l->weight[(size_t)o * (size_t)l->inputs + (size_t)i];
    }
    int32_t e = depth == 0 ? CC_NET_INPUT_BITS : CC_NET_ACT_BITS;
    dst->down = hidden ? e + l->shift - CC_NET_ACT_BITS : 0;
    dst->scale = ldexpf(1.0f, -(e + l->shift));
    return CC_OK;
}

cc_net *cc_net_new(const cc_net_desc *d, int32_t *status, int32_t *bad_layer) {
    int32_t ignored, ignored2;
    if (status == NULL) status = &ignored;
    if (bad_layer == NULL) bad_layer = &ignored2;
    *status = CC_E_ARG;
    *bad_layer = -1;
    if (d == NULL || d->layers == NULL) return NULL;
    if (d->input_size < 1 || d->input_size > CC_NET_MAX_INPUT || d->num_actions < 1 ||
        d->num_actions > CC_NET_MAX_OUTPUTS || d->num_players < 1 ||
        d->num_players > CC_NET_MAX_PLAYERS || d->num_hidden < 0 ||
        d->num_hidden > CC_NET_MAX_LAYERS)
        return NULL;
    int32_t width = d->input_size;
    for (int32_t i = 0; i < d->num_hidden + 2; i++) {
        const cc_net_layer *l = &d->layers[i];
        int32_t outputs = i < d->num_hidden    ? l->outputs
                          : i == d->num_hidden ? d->num_actions
                                               : d->num_players;
        int32_t depth = i < d->num_hidden ? i : d->num_hidden;
        int32_t inputs = i <= d->num_hidden ? width : d->layers[d->num_hidden].inputs;
        if ((i < d->num_hidden && (outputs < 1 || outputs > CC_NET_MAX_HIDDEN)) ||
            check_layer(l, depth, inputs, outputs) != CC_OK) {
            *bad_layer = i;
            return NULL;
        }
        if (i < d->num_hidden) width = outputs;
    }
    cc_net *net = calloc(1, sizeof *net);
    *status = CC_E_CAPACITY;
    if (net == NULL) return NULL;
    net->input_size = d->input_size;
    net->num_actions = d->num_actions;
    net->num_players = d->num_players;
    net->num_hidden = d->num_hidden; /* cc_net_free frees the layers made (the others NULL) */
    net->paths = cc_net_paths();
    for (int32_t i = 0; i < d->num_hidden + 2; i++) {
        int32_t depth = i < d->num_hidden ? i : d->num_hidden;
        if (copy_layer(&net->layers[i], &d->layers[i], depth, i < d->num_hidden) != CC_OK) {
            cc_net_free(net);
            return NULL;
        }
        if (net->layers[i].out_pad > net->max_width) net->max_width = net->layers[i].out_pad;
    }
    *status = CC_OK;
    return net;
}

uint32_t cc_net_paths(void) {
    uint32_t paths = 1u << CC_NET_PATH_PORTABLE;
#ifdef CC_NET_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) paths |= 1u << CC_NET_PATH_AVX2;
#endif
    return paths;
}

/* ---- kernels ----------------------------------------------------------- */

/* The pairs of x (2 * pairs int16) that are not both zero: their indices
 * in idx and their two values packed in one 32-bit word in packed[p]. */
static int32_t nonzero_pairs(const int16_t *x, int32_t pairs, int32_t *idx, uint32_t *packed) {
    int32_t n = 0;
    for (int32_t p = 0; p < pairs; p++) {
        uint32_t v = (uint32_t)(uint16_t)x[2 * p] | (uint32_t)(uint16_t)x[2 * p + 1] << 16;
        packed[p] = v;
        if (v != 0) idx[n++] = p;
    }
    return n;
}

static void accumulate_portable(const net_layer *l, const int32_t *idx, int32_t n,
                                const uint32_t *packed, int32_t *acc) {
    const int32_t op = l->out_pad;
    memcpy(acc, l->b, sizeof(int32_t) * (size_t)op);
    for (int32_t k = 0; k < n; k++) {
        int32_t p = idx[k];
        int32_t x0 = (int16_t)(uint16_t)(packed[p] & 0xffffu);
        int32_t x1 = (int16_t)(uint16_t)(packed[p] >> 16);
        const int16_t *w = l->w + (size_t)p * (size_t)op * 2;
        for (int32_t o = 0; o < op; o++) acc[o] += w[2 * o] * x0 + w[2 * o + 1] * x1;
    }
}

#ifdef CC_NET_X86
__attribute__((target("avx2"))) static void accumulate_avx2(const net_layer *l, const int32_t *idx,
                                                            int32_t n, const uint32_t *packed,
                                                            int32_t *acc) {
    const int32_t op = l->out_pad;
    int32_t ob = 0;
    for (; ob + 32 <= op; ob += 32) {
        __m256i a0 = _mm256_loadu_si256((const __m256i *)(const void *)(l->b + ob));
        __m256i a1 = _mm256_loadu_si256((const __m256i *)(const void *)(l->b + ob + 8));
        __m256i a2 = _mm256_loadu_si256((const __m256i *)(const void *)(l->b + ob + 16));
        __m256i a3 = _mm256_loadu_si256((const __m256i *)(const void *)(l->b + ob + 24));
        for (int32_t k = 0; k < n; k++) {
            int32_t p = idx[k];
            __m256i x = _mm256_set1_epi32((int32_t)packed[p]);
            const int16_t *w = l->w + ((size_t)p * (size_t)op + (size_t)ob) * 2;
            const __m256i *wv = (const __m256i *)(const void *)w;
            a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(_mm256_loadu_si256(wv), x));
            a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(_mm256_loadu_si256(wv + 1), x));
            a2 = _mm256_add_epi32(a2, _mm256_madd_epi16(_mm256_loadu_si256(wv + 2), x));
            a3 = _mm256_add_epi32(a3, _mm256_madd_epi16(_mm256_loadu_si256(wv + 3), x));
        }
        _mm256_storeu_si256((__m256i *)(void *)(acc + ob), a0);
        _mm256_storeu_si256((__m256i *)(void *)(acc + ob + 8), a1);
        _mm256_storeu_si256((__m256i *)(void *)(acc + ob + 16), a2);
        _mm256_storeu_si256((__m256i *)(void *)(acc + ob + 24), a3);
    }
    for (; ob < op; ob += 8) {
        __m256i a0 = _mm256_loadu_si256((const __m256i *)(const void *)(l->b + ob));
        for (int32_t k = 0; k < n; k++) {
            int32_t p = idx[k];
            __m256i x = _mm256_set1_epi32((int32_t)packed[p]);
            const int16_t *w = l->w + ((size_t)p * (size_t)op + (size_t)ob) * 2;
            a0 = _mm256_add_epi32(
                a0, _mm256_madd_epi16(_mm256_loadu_si256((const __m256i *)(const void *)w), x));
        }
        _mm256_storeu_si256((__m256i *)(void *)(acc + ob), a0);
    }
}
#endif

#ifdef CC_NET_X86
/* quantize_input then nonzero_pairs on the input, sixteen values and eight
 * pairs at a time: the same results (cvtps rounds to nearest, ties to even,
 * as lrintf does in the default rounding mode); the count of pairs. */
__attribute__((target("avx2"))) static int32_t
input_pairs_avx2(const float *obs, int32_t n, int16_t *x, int32_t *idx, uint32_t *packed) {
    const __m256 scale = _mm256_set1_ps((float)(1 << CC_NET_INPUT_BITS));
    const __m256 hi = _mm256_set1_ps((float)CC_NET_INPUT_MAX);
    const __m256 lo = _mm256_set1_ps(-(float)CC_NET_INPUT_MAX);
    int32_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256 a = _mm256_mul_ps(_mm256_loadu_ps(obs + i), scale);
        __m256 b = _mm256_mul_ps(_mm256_loadu_ps(obs + i + 8), scale);
        a = _mm256_and_ps(a, _mm256_cmp_ps(a, a, _CMP_ORD_Q)); /* NaN -> 0 */
        b = _mm256_and_ps(b, _mm256_cmp_ps(b, b, _CMP_ORD_Q));
        a = _mm256_min_ps(_mm256_max_ps(a, lo), hi);
        b = _mm256_min_ps(_mm256_max_ps(b, lo), hi);
        __m256i q = _mm256_packs_epi32(_mm256_cvtps_epi32(a), _mm256_cvtps_epi32(b));
        q = _mm256_permute4x64_epi64(q, 0xd8); /* packs works within 128-bit lanes */
        _mm256_storeu_si256((__m256i *)(void *)(x + i), q);
    }
    for (; i < n; i++) {
        float v = obs[i] * (float)(1 << CC_NET_INPUT_BITS);
        if (v != v) x[i] = 0;
        else if (v >= (float)CC_NET_INPUT_MAX) x[i] = CC_NET_INPUT_MAX;
        else if (v <= -(float)CC_NET_INPUT_MAX) x[i] = -CC_NET_INPUT_MAX;
        else x[i] = (int16_t)lrintf(v);
    }
    x[n] = 0;
    int32_t pairs = (n + 1) / 2, count = 0, p = 0;
    for (; p + 8 <= pairs; p += 8) {
        __m256i w = _mm256_loadu_si256((const __m256i *)(const void *)(x + 2 * p));
        _mm256_storeu_si256((__m256i *)(void *)(packed + p), w);
        uint32_t nz = ~(uint32_t)_mm256_movemask_ps(
                          _mm256_castsi256_ps(_mm256_cmpeq_epi32(w, _mm256_setzero_si256()))) &
                      0xffu;
        for (; nz; nz &= nz - 1) idx[count++] = p + __builtin_ctz(nz);
    }
    for (; p < pairs; p++) {
        uint32_t v = (uint32_t)(uint16_t)x[2 * p] | (uint32_t)(uint16_t)x[2 * p + 1] << 16;
        packed[p] = v;
        if (v != 0) idx[count++] = p;
    }
    return count;
}
#endif

/* The input quantized: clamp(rint(x * 16), -32767, 32767), NaN -> 0. */
static void quantize_input(const float *obs, int32_t n, int16_t *x) {
    const float scale = (float)(1 << CC_NET_INPUT_BITS);
    for (int32_t i = 0; i < n; i++) {
        float v = obs[i];
        if (v == 0.0f) {
            x[i] = 0;
            continue;
        }
        v *= scale;
        if (v != v) x[i] = 0;
        else if (v >= (float)CC_NET_INPUT_MAX) x[i] = CC_NET_INPUT_MAX;
        else if (v <= -(float)CC_NET_INPUT_MAX) x[i] = -CC_NET_INPUT_MAX;
        else x[i] = (int16_t)lrintf(v);
    }
}

static void evaluate_one(const cc_net *net, int32_t path, const float *obs, float *policy,
                         float *value) {
    int16_t x[CC_NET_MAX_INPUT + 2];
    int16_t h[CC_NET_MAX_HIDDEN + 2];
    int32_t acc[CC_NET_MAX_OUTPUTS + OUT_ALIGN];
    int32_t idx[CC_NET_MAX_INPUT / 2 + 1];
    uint32_t packed[CC_NET_MAX_INPUT / 2 + 1];
    int32_t n_in = -1; /* the input's nonzero pairs, once found */
#ifdef CC_NET_X86
    if (path == CC_NET_PATH_AVX2) n_in = input_pairs_avx2(obs, net->input_size, x, idx, packed);
#endif
    if (n_in < 0) {
        quantize_input(obs, net->input_size, x);
        x[net->input_size] = 0; /* the pad of an odd size */
    }
    const int16_t *in = x;
    for (int32_t li = 0; li < net->num_hidden + 2; li++) {
        const net_layer *l = &net->layers[li];
        float *head = li == net->num_hidden ? policy : li > net->num_hidden ? value : NULL;
        if (li >= net->num_hidden && head == NULL) continue;
        int32_t n = in == x && n_in >= 0 ? n_in : nonzero_pairs(in, l->pairs, idx, packed);
#ifdef CC_NET_X86
        if (path == CC_NET_PATH_AVX2) accumulate_avx2(l, idx, n, packed, acc);
        else accumulate_portable(l, idx, n, packed, acc);
#else
        (void)path;
        accumulate_portable(l, idx, n, packed, acc);
#endif
        if (li < net->num_hidden) {
            const int32_t top = 1 << CC_NET_ACT_BITS;
            for (int32_t o = 0; o < l->outputs; o++) {
                int32_t a = acc[o];
                int32_t v = a <= 0 ? 0 : a >> l->down;
                h[o] = (int16_t)(v > top ? top : v);
            }
            h[l->outputs] = 0;
            in = h;
        } else {
            for (int32_t o = 0; o < l->outputs; o++) head[o] = (float)acc[o] * l->scale;
        }
    }
}

int32_t cc_net_evaluate(const cc_net *net, int32_t path, int64_t n, const float *obs, float *policy,
                        float *value) {
    if (net == NULL || n < 0 || (n > 0 && obs == NULL)) return CC_E_ARG;
    uint32_t paths = net->paths;
    if (path == CC_NET_PATH_AUTO)
        path = (paths >> CC_NET_PATH_AVX2 & 1) ? CC_NET_PATH_AVX2 : CC_NET_PATH_PORTABLE;
    if (path < CC_NET_PATH_PORTABLE || path > CC_NET_PATH_AVX2 || !(paths >> path & 1))
        return CC_E_ARG;
    for (int64_t i = 0; i < n; i++)
        evaluate_one(net, path, obs + (size_t)i * (size_t)net->input_size,
                     policy ? policy + (size_t)i * (size_t)net->num_actions : NULL,
                     value ? value + (size_t)i * (size_t)net->num_players : NULL);
    return CC_OK;
}
