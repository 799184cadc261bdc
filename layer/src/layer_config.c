/* SPDX-License-Identifier: MIT */
/*
 * The layer's configuration, read from the environment at each
 * vkCreateInstance (layer/README.md §Environment), and its log, which goes to
 * stderr with a fixed prefix so a user can grep it out of an application's
 * output. Unknown or malformed values fall back to the default with a warning
 * rather than failing instance creation: the layer must never break an
 * application that runs without it.
 */
#define _GNU_SOURCE
#include "layer_private.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "shaderbridge/reflect.h"

#ifndef SB_LAYER_PROJECT_VERSION
#define SB_LAYER_PROJECT_VERSION "unknown"
#endif

static atomic_int log_level = SB_LAYER_LOG_WARN;

static const char *const level_names[] = {
    [SB_LAYER_LOG_ERROR] = "error",
    [SB_LAYER_LOG_WARN] = "warn",
    [SB_LAYER_LOG_INFO] = "info",
    [SB_LAYER_LOG_DEBUG] = "debug",
};

bool sb_layer_log_on(enum sb_layer_log_level level)
{
    return (int)level <= atomic_load_explicit(&log_level, memory_order_relaxed);
}

void sb_layer_log(enum sb_layer_log_level level, const char *format, ...)
{
    if ((int)level > atomic_load_explicit(&log_level, memory_order_relaxed))
        return;
    /* One fprintf per line, so lines of concurrent threads do not interleave. */
    char line[768];
    va_list args;
    va_start(args, format);
    vsnprintf(line, sizeof(line), format, args);
    va_end(args);
    fprintf(stderr, "shaderbridge-layer: %s: %s\n", level_names[level], line);
}

/* ---- the cache key's build identity ------------------------------------------------------------ */

static uint64_t version_hash;
static pthread_once_t version_once = PTHREAD_ONCE_INIT;

/* The translator changes without its version number changing between builds, so the
 * identity of this very shared object (size and modification time) joins the version:
 * any rebuild of the layer starts a fresh set of cache entries. */
static void compute_version_hash(void)
{
    char text[512];
    long long size = 0, mtime = 0, mtime_ns = 0;
    Dl_info info;
    struct stat st;
    if (dladdr((void *)&compute_version_hash, &info) && info.dli_fname && stat(info.dli_fname, &st) == 0) {
        size = (long long)st.st_size;
        mtime = (long long)st.st_mtim.tv_sec;
        mtime_ns = (long long)st.st_mtim.tv_nsec;
    }
    int n = snprintf(text, sizeof(text), "shaderbridge %d %s layer-cache 1 so %lld %lld.%09lld", SB_VERSION,
                     SB_LAYER_PROJECT_VERSION, size, mtime, mtime_ns);
    version_hash = sb_layer_hash_bytes(text, (size_t)n, 0).lo;
}

/* ---- environment -------------------------------------------------------------------------------- */

static bool env_uint(const char *name, uint32_t *out)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return false;
    char *end = NULL;
    unsigned long long n = strtoull(v, &end, 10);
    if (*end || n > 0xffffffffull) {
        sb_layer_log(SB_LAYER_LOG_WARN, "%s=%s is not a 32-bit number: ignored", name, v);
        return false;
    }
    *out = (uint32_t)n;
    return true;
}

static bool env_flag(const char *name, bool fallback)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return fallback;
    if (!strcmp(v, "1") || !strcmp(v, "on") || !strcmp(v, "yes") || !strcmp(v, "true"))
        return true;
    if (!strcmp(v, "0") || !strcmp(v, "off") || !strcmp(v, "no") || !strcmp(v, "false"))
        return false;
    sb_layer_log(SB_LAYER_LOG_WARN, "%s=%s is neither 0 nor 1: ignored", name, v);
    return fallback;
}

static char *env_dir(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? strdup(v) : NULL;
}

static void read_log_level(void)
{
    const char *v = getenv("SHADERBRIDGE_LAYER_LOG");
    int level = SB_LAYER_LOG_WARN;
    bool known = !v || !*v;
    for (int i = 0; v && i < (int)(sizeof(level_names) / sizeof(level_names[0])); i++)
        if (!strcmp(v, level_names[i])) {
            level = i;
            known = true;
        }
    atomic_store(&log_level, level);
    if (!known)
        sb_layer_log(SB_LAYER_LOG_WARN, "SHADERBRIDGE_LAYER_LOG=%s: use error, warn, info or debug", v);
}

void sb_layer_config_read(struct sb_layer_config *out)
{
    pthread_once(&version_once, compute_version_hash);
    read_log_level();
    memset(out, 0, sizeof(*out));
    out->dump_dir = env_dir("SHADERBRIDGE_LAYER_DUMP_DIR");
    out->cache_dir = env_dir("SHADERBRIDGE_LAYER_CACHE_DIR");
    out->memory_cache = env_flag("SHADERBRIDGE_LAYER_MEMORY_CACHE", true);
    out->share_modules = env_flag("SHADERBRIDGE_LAYER_SHARE_MODULES", true);
    const char *env = getenv("SHADERBRIDGE_LAYER_TARGET_ENV");
    if (env && *env) {
        out->target_env_set = sb_target_env_parse(env, &out->target_env);
        if (!out->target_env_set)
            sb_layer_log(SB_LAYER_LOG_WARN, "SHADERBRIDGE_LAYER_TARGET_ENV=%s: use vulkan1.0 .. vulkan1.3", env);
    }
    if (env_flag("SHADERBRIDGE_LAYER_OPTIMIZE", false))
        out->translate_flags |= SB_TRANSLATE_OPTIMIZE;
    if (env_flag("SHADERBRIDGE_LAYER_VALIDATE", false))
        out->translate_flags |= SB_TRANSLATE_VALIDATE;
    if (env_flag("SHADERBRIDGE_LAYER_DEBUG_INFO", false))
        out->translate_flags |= SB_TRANSLATE_DEBUG_INFO;
    env_uint("SHADERBRIDGE_LAYER_SET_BASE", &out->set_base);
    env_uint("SHADERBRIDGE_LAYER_UNBOUNDED_COUNT", &out->unbounded_count);
    const char *pica = getenv("SHADERBRIDGE_LAYER_PICA");
    if (pica && !strcmp(pica, "float24"))
        out->pica_flags = SB_IR_PICA_FLOAT24;
    else if (pica && *pica && strcmp(pica, "fast"))
        sb_layer_log(SB_LAYER_LOG_WARN, "SHADERBRIDGE_LAYER_PICA=%s: use fast or float24", pica);
    out->version_hash = version_hash;
    sb_layer_log(SB_LAYER_LOG_INFO, "config: dump %s, cache %s, memory cache %s, shared modules %s, set base %u, "
                 "flags 0x%x", out->dump_dir ? out->dump_dir : "off", out->cache_dir ? out->cache_dir : "off",
                 out->memory_cache ? "on" : "off", out->share_modules && out->memory_cache ? "on" : "off",
                 out->set_base, out->translate_flags);
}

void sb_layer_config_copy(struct sb_layer_config *dst, const struct sb_layer_config *src)
{
    *dst = *src;
    dst->dump_dir = src->dump_dir ? strdup(src->dump_dir) : NULL;
    dst->cache_dir = src->cache_dir ? strdup(src->cache_dir) : NULL;
}

void sb_layer_config_free(struct sb_layer_config *config)
{
    free((char *)config->dump_dir);
    free((char *)config->cache_dir);
    config->dump_dir = config->cache_dir = NULL;
}

void sb_layer_config_options(const struct sb_layer_config *config, enum sb_target_env env,
                             struct sb_translate_options *out)
{
    memset(out, 0, sizeof(*out));
    out->target_env = config->target_env_set ? config->target_env : env;
    out->flags = config->translate_flags;
    out->unbounded_descriptor_count = config->unbounded_count;
}
