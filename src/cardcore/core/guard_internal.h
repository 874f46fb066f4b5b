/*
 * guard_internal.h: the slow-path switch of the benchmark guard (private;
 * docs/benchmarks.rst, "Proving the guard can fail").
 *
 * A build compiled with -DCC_SLOW_SWITCH (setup.py adds it to the debug
 * build, PYCARDS_DEBUG=1, and to no other) reads the environment variable
 * PYCARDS_SLOW_PATH at each marked site; when it names the site, the site
 * adds a busy loop of `work` calibration rounds per call.  Every other
 * build compiles the marks to nothing.
 */
#ifndef CC_GUARD_INTERNAL_H
#define CC_GUARD_INTERNAL_H

#include <stdint.h>

/* 1 if this build honours the slow-path switch (built with CC_SLOW_SWITCH),
 * else 0: the binding's _slow_switch_built, which the guard prints. */
int32_t cc_slow_switch_built(void);

/* Spin `work` rounds of a busy loop (each round the cost of a round of the
 * guard's calibration, benchmarks/c/calibrate.c) when PYCARDS_SLOW_PATH
 * equals `site` (a no-op unless built with CC_SLOW_SWITCH). */
void cc_slow_site(const char *site, int64_t work);

#ifdef CC_SLOW_SWITCH
#define CC_SLOW_SITE(site, work) cc_slow_site((site), (work))
#else
#define CC_SLOW_SITE(site, work) ((void)0)
#endif

#endif /* CC_GUARD_INTERNAL_H */
