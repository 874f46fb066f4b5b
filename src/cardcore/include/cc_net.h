/*
 * cc_net.h: small networks evaluated in integers (docs/networks.rst).
 *
 * A network reads the observation tensor of the player to move (the game's
 * observe_tensor, tensor_size floats) through a trunk of hidden layers with
 * the clipped ReLU clamp(x, 0, 1), then two heads: the policy (one output
 * per action id) and the value (one output per seat, the expected final
 * points of each, seat order relative to the mover: 0 is the mover).
 *
 * Everything is integer arithmetic, exact, so every path (the portable
 * loop, AVX2) gives the same bits, and so does pycards.nets.evaluate:
 *
 *   input     xq = clamp(rint(x * 2^CC_NET_INPUT_BITS), -32767, 32767),
 *             0 for a NaN (scale exponent e = CC_NET_INPUT_BITS);
 *   layer     acc = bias + sum_i weight[o][i] * in[i], in int32: the
 *             loader refuses a layer where sum_i |weight[o][i]| * max|in|
 *             + |bias[o]| could pass 2^31 - 1 (max|in|: 32767 for the
 *             input, 2^CC_NET_ACT_BITS for a hidden layer's output);
 *   hidden    0 if acc <= 0, else min(acc >> (e + shift - ACT_BITS),
 *             2^ACT_BITS), then e = CC_NET_ACT_BITS;
 *   head      (float)acc * 2^-(e + shift), both steps exact in float.
 *
 * A network is made once from a description (the arrays are copied into
 * the layout the kernels read) and is read only afterwards: any number of
 * threads may evaluate it at once.  cffi-friendly: fixed-width types and
 * integer constants only.  Functions return CC_OK or a CC_E_* status and
 * never abort.
 */
#ifndef CC_NET_H
#define CC_NET_H

#include <stdint.h>

#include "cardcore.h"

#define CC_NET_INPUT_BITS 4
#define CC_NET_ACT_BITS 7
#define CC_NET_INPUT_MAX 32767
#define CC_NET_MAX_SHIFT 24
#define CC_NET_MAX_INPUT 4096
#define CC_NET_MAX_HIDDEN 1024
#define CC_NET_MAX_LAYERS 4
#define CC_NET_MAX_OUTPUTS 4096
#define CC_NET_MAX_PLAYERS 16

/* The evaluation paths: the same results by the portable loop or by the
 * AVX2 kernel (x86-64 with GCC or Clang, when the CPU has it).
 * CC_NET_PATH_AUTO is the best this CPU has. */
#define CC_NET_PATH_AUTO 0
#define CC_NET_PATH_PORTABLE 1
#define CC_NET_PATH_AVX2 2

/* One layer as a file holds it: weight[o * inputs + i] (int16, never
 * -32768), bias[o] (int32) and its shift (0..CC_NET_MAX_SHIFT; at least
 * CC_NET_ACT_BITS - CC_NET_INPUT_BITS for a layer that reads the input). */
typedef struct cc_net_layer {
    const int16_t *weight;
    const int32_t *bias;
    int32_t outputs;
    int32_t inputs;
    int32_t shift;
    int32_t reserved; /* 0 */
} cc_net_layer;

/* A network: num_hidden trunk layers, then the policy head, then the value
 * head (layers[num_hidden + 2]). */
typedef struct cc_net_desc {
    int32_t input_size;  /* 1..CC_NET_MAX_INPUT */
    int32_t num_actions; /* 1..CC_NET_MAX_OUTPUTS */
    int32_t num_players; /* 1..CC_NET_MAX_PLAYERS */
    int32_t num_hidden;  /* 0..CC_NET_MAX_LAYERS */
    const cc_net_layer *layers;
} cc_net_desc;

typedef struct cc_net cc_net;

/* A network from desc (its arrays copied).  NULL on a bad description or
 * no memory: *status (may be NULL) gets CC_E_ARG or CC_E_CAPACITY, and
 * *bad_layer (may be NULL) the index of the layer at fault (-1: the
 * description's sizes). */
cc_net *cc_net_new(const cc_net_desc *desc, int32_t *status, int32_t *bad_layer);
void cc_net_free(cc_net *net);

/* The sizes of net: input_size, num_actions, num_players (0 for NULL). */
int32_t cc_net_input_size(const cc_net *net);
int32_t cc_net_num_actions(const cc_net *net);
int32_t cc_net_num_players(const cc_net *net);

/* The paths this build and CPU have, as bits 1 << CC_NET_PATH_*. */
uint32_t cc_net_paths(void);

/* Evaluate n observations obs[i * input_size ..] by path: policy[i *
 * num_actions ..] and value[i * num_players ..] (either may be NULL: that
 * head is not computed).  CC_OK, or CC_E_ARG (a NULL net or obs, n < 0, a
 * path this build or CPU lacks). */
int32_t cc_net_evaluate(const cc_net *net, int32_t path, int64_t n, const float *obs, float *policy,
                        float *value);

#endif /* CC_NET_H */
