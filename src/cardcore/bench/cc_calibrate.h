/*
 * cc_calibrate.h: a fixed C workload for the benchmark guard
 * (benchmarks/guard.py, docs/benchmarks.rst).
 *
 * The guard divides the time of each C-bound hot path by the time of this
 * loop, measured in the same run, so that its figures do not depend on how
 * fast or how busy the machine is.  The loop never changes: changing it
 * moves every baseline at once.  cffi-friendly: fixed-width types only.
 */
#ifndef CC_CALIBRATE_H
#define CC_CALIBRATE_H

#include <stdint.h>

/* n rounds (n >= 0; n < 0 counts as 0) of integer work of the engine's
 * kind: a xorshift generator, a SWAR popcount, a trailing-zero count, a
 * lookup in a 64-entry table and a data-dependent branch.  Returns a
 * checksum (so that the work cannot be optimized away). */
uint64_t cc_calibrate(int64_t n);

/* 1 if this build honours the slow-path switch (PYCARDS_SLOW_PATH, a
 * debug build only: see guard_internal.h), else 0. */
int32_t cc_slow_switch_built(void);

#endif /* CC_CALIBRATE_H */
