/* Small helpers both compiled solver searches use (_pyramid_core.c, _tripeaks_core.c). */
#ifndef CAPSTONE_SEARCH_COMMON_H
#define CAPSTONE_SEARCH_COMMON_H

#include <stdint.h>
#include <time.h>

typedef uint64_t u64;

/* Seconds on the clock Python's time.monotonic() reads, for the callers' deadlines. */
static inline double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline int has(u64 mask, int i) { return (int)((mask >> i) & 1u); }

/* murmur3's 64-bit finalizer: spreads a position key over the bits of a hash-table index. */
static inline u64 mix64(u64 key) {
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    key *= 0xc4ceb9fe1a85ec53ULL;
    key ^= key >> 33;
    return key;
}

#endif
