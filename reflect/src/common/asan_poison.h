/* SPDX-License-Identifier: MIT */
/*
 * Memory the library keeps for reuse instead of freeing (arena blocks, a translation's
 * result block) is poisoned under AddressSanitizer while it waits, so a use after the
 * object that held it was destroyed is still reported; unpoisoned when it is taken again.
 * Without ASan the calls compile to nothing.
 */
#ifndef SB_ASAN_POISON_H
#define SB_ASAN_POISON_H

#if defined(__SANITIZE_ADDRESS__)
#define SB_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SB_ASAN 1
#endif
#endif

#ifdef SB_ASAN
#include <sanitizer/asan_interface.h>
#define sb_poison(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define sb_unpoison(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define sb_poison(p, n) ((void)(p), (void)(n))
#define sb_unpoison(p, n) ((void)(p), (void)(n))
#endif

#endif
