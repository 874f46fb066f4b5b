/* threads.c: the engine's thread start (threads_internal.h). */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* pthread_sigmask */
#endif
#include "threads_internal.h"

#include <signal.h>

int32_t cc_thread_start(pthread_t *tid, void *(*fn)(void *), void *arg) {
    sigset_t all, old;
    sigfillset(&all);
    int masked = pthread_sigmask(SIG_SETMASK, &all, &old) == 0; /* inherited */
    int started = pthread_create(tid, NULL, fn, arg) == 0;
    if (masked) pthread_sigmask(SIG_SETMASK, &old, NULL);
    return started;
}
