/* SPDX-License-Identifier: MIT */
/* One tss key whose destructor runs every release this thread registered (thread_exit.h). */
#include "thread_exit.h"

#include <stddef.h>
#include <threads.h>

enum { MAX_RELEASES = 8 }; /* the library has three keepers */

struct release {
    void (*release)(void *object);
    void *object;
};

struct thread_releases {
    struct release entries[MAX_RELEASES];
    unsigned count;
};

static _Thread_local struct thread_releases thread_releases;
static tss_t releases_key;
static bool releases_key_ok;
static once_flag releases_key_once = ONCE_FLAG_INIT;

/* At thread exit: the releases in the reverse order of their registration. */
static void run_releases(void *pointer)
{
    struct thread_releases *r = pointer;
    while (r->count) {
        struct release e = r->entries[--r->count];
        e.release(e.object);
    }
}

static void create_releases_key(void)
{
    releases_key_ok = tss_create(&releases_key, run_releases) == thrd_success;
}

bool sb_at_thread_exit(void (*release)(void *object), void *object)
{
    struct thread_releases *r = &thread_releases;
    call_once(&releases_key_once, create_releases_key);
    if (!releases_key_ok || r->count == MAX_RELEASES)
        return false;
    if (!r->count && tss_set(releases_key, r) != thrd_success)
        return false;
    r->entries[r->count++] = (struct release){ release, object };
    return true;
}
