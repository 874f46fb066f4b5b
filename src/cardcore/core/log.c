/* log.c: the event log every game state ends with (see cardcore.h, "the event
 * log"): a ring of the most recent events, one overflow policy for all games. */
#include "cc_internal.h"

void cc_log_init(cc_log *log, int32_t capacity) {
    if (log == NULL) return;
    log->total = 0;
    log->capacity = capacity;
    log->next = 0;
    log->muted = 0;
    log->reserved = 0;
}

void cc_log_push(cc_log *log, int32_t kind, int32_t player, int32_t target, int32_t value,
                 int32_t extra, uint32_t seen_by) {
    if (log == NULL || log->muted || log->capacity <= 0) return;
    if ((uint32_t)log->next >= (uint32_t)log->capacity) log->next = 0;
    cc_log_entry *e = &cc_log_entries(log)[log->next];
    e->kind = (int16_t)kind;
    e->player = (int8_t)player;
    e->target = (int8_t)target;
    e->seen_by = seen_by;
    e->value = value;
    e->extra = extra;
    log->total++;
    if (++log->next >= log->capacity) log->next = 0;
}

void cc_log_mute(cc_log *log, int32_t how) {
    if (log == NULL) return;
    log->muted = CC_LOG_MUTED | (how & (CC_LOG_UNOBSERVED | CC_LOG_TRUSTED));
}

int32_t cc_log_kept(const cc_log *log) {
    if (log == NULL || log->muted || log->capacity <= 0) return 0;
    return log->total < log->capacity ? (int32_t)log->total : log->capacity;
}

cc_log_walk cc_log_walk_from(const cc_log *log, int32_t i) {
    int32_t kept = cc_log_kept(log);
    int64_t first = log->total - kept; /* the oldest kept event's number */
    cc_log_walk w = {.number = first - 1, .slot = 0, .left = 0, .capacity = log->capacity};
    if (i < 0 || i >= kept) return w;
    w.number += i;
    w.slot = (int32_t)((first + i) % log->capacity);
    w.left = kept - i;
    return w;
}

cc_log_entry *cc_log_at(cc_log *log, int32_t i) {
    if (log == NULL) return NULL;
    cc_log_walk w = cc_log_walk_from(log, i);
    int32_t slot = cc_log_walk_next(&w);
    return slot < 0 ? NULL : &cc_log_entries(log)[slot];
}

const cc_log_entry *cc_log_at_const(const cc_log *log, int32_t i) {
    if (log == NULL) return NULL;
    cc_log_walk w = cc_log_walk_from(log, i);
    int32_t slot = cc_log_walk_next(&w);
    return slot < 0 ? NULL : &cc_log_entries_const(log)[slot];
}
