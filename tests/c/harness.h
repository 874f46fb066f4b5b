/* harness.h: what the C test drivers in tests/c share: a fixed stream of
 * pseudo-random numbers (xorshift64, the same seed in every driver) and
 * FAIL, which reports a failed check on stderr and returns 1 from main. */
#ifndef PYCARDS_TEST_HARNESS_H
#define PYCARDS_TEST_HARNESS_H

#include <stdint.h>
#include <stdio.h>

static uint64_t harness_state = 88172645463325252ull;

static inline uint64_t next_rand(void) {
    harness_state ^= harness_state << 13;
    harness_state ^= harness_state >> 7;
    harness_state ^= harness_state << 17;
    return harness_state;
}

#define FAIL(...)                     \
    do {                              \
        fprintf(stderr, __VA_ARGS__); \
        fputc('\n', stderr);          \
        return 1;                     \
    } while (0)

#endif /* PYCARDS_TEST_HARNESS_H */
