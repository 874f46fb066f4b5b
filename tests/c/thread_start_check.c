/* thread_start_check.c: cc_thread_start (core/threads.c) starts its thread
 * with every signal blocked and gives the caller its own mask back.
 * Prints what failed and exits 1, or exits 0. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>

#include "threads_internal.h"

static const int probes[] = {SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM, SIGCHLD};
#define NPROBES ((int)(sizeof probes / sizeof probes[0]))

/* The probes the calling thread blocks, as bits. */
static unsigned blocked_now(void) {
    sigset_t cur;
    if (pthread_sigmask(SIG_BLOCK, NULL, &cur) != 0) return ~0u;
    unsigned bits = 0;
    for (int i = 0; i < NPROBES; i++)
        if (sigismember(&cur, probes[i]) == 1) bits |= 1u << i;
    return bits;
}

static void *worker(void *arg) {
    *(unsigned *)arg = blocked_now();
    return NULL;
}

/* Start a thread under the caller's current mask: 0 if the thread blocked
 * every probe and the caller's mask is as it was. */
static int check(const char *what) {
    unsigned before = blocked_now(), seen = 0;
    pthread_t tid;
    if (!cc_thread_start(&tid, worker, &seen)) {
        printf("%s: the thread did not start\n", what);
        return 1;
    }
    pthread_join(tid, NULL);
    int bad = 0;
    if (seen != (1u << NPROBES) - 1) {
        printf("%s: the thread blocks probes %#x, not all\n", what, seen);
        bad = 1;
    }
    if (blocked_now() != before) {
        printf("%s: the caller's mask %#x became %#x\n", what, before, blocked_now());
        bad = 1;
    }
    return bad;
}

int main(void) {
    int bad = check("nothing blocked");
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &one, NULL);
    bad |= check("SIGUSR1 blocked");
    if (blocked_now() != 1u << 3) {
        printf("the caller no longer blocks SIGUSR1 alone\n");
        bad = 1;
    }
    return bad;
}
