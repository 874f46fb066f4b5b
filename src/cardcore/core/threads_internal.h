/* threads_internal.h: how the engine starts its POSIX threads (threads.c),
 * for the batch kernels' threads (batch_threads.c) and the vector
 * environment's workers (vec/vecenv.c).  Private. */
#ifndef CC_THREADS_INTERNAL_H
#define CC_THREADS_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

/* Start a thread running fn(arg) in *tid with every signal blocked in it
 * (a new thread inherits the mask it is started under; the caller's own
 * mask is put back), so that the process's signals go to its own threads:
 * Python's handlers, for one, run on the main thread.  1 if the thread
 * started, else 0 (the caller runs the work itself). */
int32_t cc_thread_start(pthread_t *tid, void *(*fn)(void *), void *arg);

#endif /* CC_THREADS_INTERNAL_H */
