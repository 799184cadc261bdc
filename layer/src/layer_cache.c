/* SPDX-License-Identifier: MIT */
/*
 * Where translations are kept and shown (layer/README.md §Cache, §Dumps)
 * besides the in-process cache (layer_memory.c), and the request counters:
 *  - an on-disk cache, one file per (content hash, configuration hash):
 *    a fixed header (magic, format version, key, stage, word count, hash of
 *    the words) and the words. Files are written to a temporary name and
 *    renamed, so a reader sees either nothing or a whole entry; an entry
 *    whose header, size or word hash does not match is ignored (and the
 *    translation that follows rewrites it);
 *  - the dump directory: each input as <hash>.<format> and its SPIR-V as
 *    <hash>.spv (<hash>.<stage>.spv for each VBC stage).
 * File errors are logged as warnings and never fail shader creation.
 */
#define _GNU_SOURCE
#include "layer_private.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

/* ---- statistics ------------------------------------------------------------------------------- */

static atomic_ullong stats[SB_LAYER_STAT_COUNT];

void sb_layer_stat_add(enum sb_layer_stat stat)
{
    atomic_fetch_add_explicit(&stats[stat], 1, memory_order_relaxed);
}

void sb_layer_stats_log(void)
{
    sb_layer_log(SB_LAYER_LOG_INFO,
                 "stats: %llu translated, %llu memory cache hits, %llu disk cache hits, %llu corrupt cache "
                 "entries, %llu failures, %llu creations given a shared driver module",
                 (unsigned long long)stats[SB_LAYER_STAT_TRANSLATIONS],
                 (unsigned long long)stats[SB_LAYER_STAT_MEMORY_HITS],
                 (unsigned long long)stats[SB_LAYER_STAT_DISK_HITS],
                 (unsigned long long)stats[SB_LAYER_STAT_DISK_CORRUPT],
                 (unsigned long long)stats[SB_LAYER_STAT_FAILURES],
                 (unsigned long long)stats[SB_LAYER_STAT_SHARED]);
}

/* ---- the disk cache --------------------------------------------------------------------------- */

#define CACHE_MAGIC 0x434c4253u /* "SBLC" */
#define CACHE_FORMAT 1u
#define CACHE_MAX_WORDS (64u << 20) /* 256 MiB: larger is a corrupt header */

/* The on-disk header, little-endian, 56 bytes (layer/README.md §Cache). */
struct cache_header {
    uint32_t magic, format;
    uint64_t content_lo, content_hi, config;
    uint32_t vk_stage, word_count;
    uint64_t words_hash_lo, words_hash_hi;
};
_Static_assert(sizeof(struct cache_header) == 56, "cache header layout");

static void cache_path(char *path, size_t size, const char *dir, const struct sb_layer_cache_key *key)
{
    char hex[33];
    sb_layer_hash_hex(key->content, hex);
    snprintf(path, size, "%s/%s-%016llx.sblc", dir, hex, (unsigned long long)key->config);
}

/* The file's size gives the word count, so the module is allocated first and one readv
 * fills the header and, straight into the module, the words (no second buffer); then the
 * header is checked against the key and the size, and the words against their hash. */
static struct sb_layer_spirv *read_entry(int fd, const struct sb_layer_cache_key *key)
{
    struct stat st;
    struct cache_header h;
    if (fstat(fd, &st) != 0 || (uint64_t)st.st_size <= sizeof(h) ||
        (uint64_t)st.st_size > sizeof(h) + 4ull * CACHE_MAX_WORDS || (st.st_size - sizeof(h)) % 4)
        return NULL;
    size_t words = ((size_t)st.st_size - sizeof(h)) / 4;
    struct sb_layer_spirv *spirv = sb_layer_spirv_new(0, NULL, words);
    if (!spirv)
        return NULL;
    struct iovec parts[2] = { { &h, sizeof(h) }, { spirv->words, words * 4 } };
    ssize_t got = readv(fd, parts, 2);
    bool ok = got == st.st_size && h.magic == CACHE_MAGIC && h.format == CACHE_FORMAT &&
              h.content_lo == key->content.lo && h.content_hi == key->content.hi && h.config == key->config &&
              h.word_count == words && sb_layer_stage_index(h.vk_stage) >= 0;
    if (ok) {
        struct sb_layer_hash wh = sb_layer_hash_bytes(spirv->words, words * 4, 2);
        ok = wh.lo == h.words_hash_lo && wh.hi == h.words_hash_hi;
    }
    if (!ok) {
        sb_layer_spirv_unref(spirv);
        return NULL;
    }
    spirv->vk_stage = h.vk_stage;
    sb_layer_spirv_seal(spirv);
    return spirv;
}

struct sb_layer_spirv *sb_layer_cache_load(const char *dir, const struct sb_layer_cache_key *key)
{
    char path[4096];
    cache_path(path, sizeof(path), dir, key);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL; /* absent: the usual miss */
    struct sb_layer_spirv *spirv = read_entry(fd, key);
    close(fd);
    if (!spirv) {
        sb_layer_stat_add(SB_LAYER_STAT_DISK_CORRUPT);
        sb_layer_log(SB_LAYER_LOG_WARN, "cache entry %s is corrupt: ignored (it is rewritten)", path);
    }
    return spirv;
}

/* Writes `parts` to a temporary file beside `path` and renames it over `path`. */
static void write_atomic(const char *path, const void *const *parts, const size_t *sizes, int count)
{
    char tmp[4200];
    snprintf(tmp, sizeof(tmp), "%s.tmp.%ld.%lx", path, (long)getpid(), (unsigned long)pthread_self());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    bool ok = fd >= 0;
    for (int i = 0; ok && i < count; i++) {
        const uint8_t *p = parts[i];
        size_t left = sizes[i];
        while (ok && left) {
            ssize_t n = write(fd, p, left);
            ok = n > 0;
            if (ok) {
                p += n;
                left -= (size_t)n;
            }
        }
    }
    if (fd >= 0 && close(fd) != 0)
        ok = false;
    if (ok && rename(tmp, path) != 0)
        ok = false;
    if (!ok) {
        sb_layer_log(SB_LAYER_LOG_WARN, "cannot write %s: %s", path, strerror(errno));
        if (fd >= 0)
            unlink(tmp);
    }
}

void sb_layer_cache_store(const char *dir, const struct sb_layer_cache_key *key, const struct sb_layer_spirv *spirv)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        sb_layer_log(SB_LAYER_LOG_WARN, "cannot create cache directory %s: %s", dir, strerror(errno));
        return;
    }
    char path[4096];
    cache_path(path, sizeof(path), dir, key);
    struct sb_layer_hash wh = sb_layer_hash_bytes(spirv->words, spirv->word_count * 4, 2);
    struct cache_header h = { CACHE_MAGIC, CACHE_FORMAT, key->content.lo, key->content.hi, key->config,
                              spirv->vk_stage, (uint32_t)spirv->word_count, wh.lo, wh.hi };
    const void *parts[] = { &h, spirv->words };
    const size_t sizes[] = { sizeof(h), spirv->word_count * 4 };
    write_atomic(path, parts, sizes, 2);
}

/* ---- dumps ------------------------------------------------------------------------------------- */

static const char *const stage_names[SB_LAYER_STAGES] = { "vert", "tesc", "tese", "geom", "frag", "comp" };

void sb_layer_dump(const char *dir, const struct sb_layer_hash *content, const char *input_ext, const void *input,
                   size_t size, const struct sb_layer_output *out)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        sb_layer_log(SB_LAYER_LOG_WARN, "cannot create dump directory %s: %s", dir, strerror(errno));
        return;
    }
    char hex[33], path[4096];
    sb_layer_hash_hex(*content, hex);
    snprintf(path, sizeof(path), "%s/%s.%s", dir, hex, input_ext);
    write_atomic(path, &input, &size, 1);
    for (uint32_t i = 0; out && i < out->count; i++) {
        const struct sb_layer_spirv *s = out->stages[i];
        int stage = sb_layer_stage_index(s->vk_stage);
        if (out->kind == SB_LAYER_KIND_VBC)
            snprintf(path, sizeof(path), "%s/%s.%s.spv", dir, hex, stage >= 0 ? stage_names[stage] : "stage");
        else
            snprintf(path, sizeof(path), "%s/%s.spv", dir, hex);
        const void *words = s->words;
        size_t bytes = s->word_count * 4;
        write_atomic(path, &words, &bytes, 1);
    }
    sb_layer_log(SB_LAYER_LOG_DEBUG, "dumped %s/%s.*", dir, hex);
}
