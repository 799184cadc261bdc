/* SPDX-License-Identifier: MIT */
/*
 * What a thread keeps for its next call (arena blocks, the SPIR-V builder's streams, a
 * translation's result block) is given back when the thread exits: each keeper registers
 * its release once per thread here, and one tss key runs them all. The main thread's
 * state is not released (its tss destructors do not run at process exit); it stays
 * reachable until the process ends.
 */
#ifndef SB_THREAD_EXIT_H
#define SB_THREAD_EXIT_H

#include <stdbool.h>

/** Calls `release(object)` when the calling thread exits (`object`: state of that
 *  thread's own). False when that cannot be arranged; the caller then keeps nothing. */
bool sb_at_thread_exit(void (*release)(void *object), void *object);

#endif
