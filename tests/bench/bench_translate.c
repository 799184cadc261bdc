/* SPDX-License-Identifier: MIT */
/*
 * Translation speed over the whole corpus in one process, shaderbridge
 * against vkd3d-shader releases side by side (issue #17: the current release,
 * 1.17, and Debian's 1.2 in one run).
 *
 * Usage: bench_translate CORPUS_DIR [--reps N] [--target-env vulkan1.x]
 *                        [--target spirv|glsl|essl|msl|hlsl] [--dxil]
 *                        [--limit N] [--peer LIB]... [--no-vkd3d] [--no-check]
 *                        [--list-failures] [--passes N] [--cpu N|any]
 *   --reps N      timed rounds (default 5); min and median over them
 *   --target-env  shaderbridge's target (default vulkan1.1)
 *   --target      shaderbridge's output (default spirv): a text target adds SPIRV-Cross's
 *                 work to each translation (sb_translate_options::target, default
 *                 version); a shader SPIRV-Cross refuses counts as failed
 *   --limit N     only the first N shaders (the ctest smoke run)
 *   --peer LIB    a vkd3d-shader library to time, loaded with dlopen: a name the
 *                 loader searches (default "libvkd3d-shader.so.1": Debian's, or a newer
 *                 build through LD_LIBRARY_PATH) or a path; up to 4, each its own row
 *   --no-vkd3d    time shaderbridge alone
 *   --no-check    skip the untimed check pass (for profilers: only timed work)
 *   --dxil        the DXIL corpus (corpus/dxil/MANIFEST.tsv, every program but
 *                 libraries) instead of DXBC; peers compile it as DXBC_DXIL
 *                 (vkd3d-shader 1.9+; older ones fail every file and are left
 *                 out of the timing); only the files every remaining engine
 *                 translates are timed, so no engine is timed on refusals
 *   --passes N    timed passes per sample (default 1), reported per pass: the
 *                 DXIL corpus's common set takes about a millisecond, short
 *                 enough for one preemption to swamp a sample
 *   --list-failures  in the check pass, one line per file an engine fails or
 *                 translates to invalid SPIR-V, with the engine's first message
 *   --cpu N|any   the CPU every timed child runs on (default: the one this process is on
 *                 when timing starts); `any` leaves them to the scheduler. A ratio compares
 *                 two engines only when both ran on the same CPU: on a VM one virtual CPU
 *                 can run 1.5x slower than the other for minutes (the host's load), and an
 *                 unpinned run then times each child wherever it landed
 *
 * Every row of corpus/dxbc/MANIFEST.tsv with program_type vs/ps/gs/hs/ds/cs
 * (--dxil: corpus/dxil/MANIFEST.tsv, also ms/as) is read into memory before
 * anything is timed. Then, per engine:
 *   1. one untimed pass, each shader in a forked process (vkd3d-shader 1.2
 *      aborts on an assertion for some corpus shaders), that also validates
 *      every module with sb_spirv_validate (SPIRV-Tools, the rules of spirv-val): how many
 *      translate, how many are spirv-val clean. vkd3d-shader is checked for
 *      its own target, Vulkan 1.0 (vkd3d_shader_spirv_target_info's default);
 *   2. --reps rounds over the shaders no engine crashed on (the same set
 *      for all); in each round every engine in turn gets a forked child
 *      process that makes one untimed warm-up pass and one timed pass.
 *      Alternating spreads the load of other processes over the engines;
 *      each engine's peak RSS (getrusage ru_maxrss of its child: the
 *      loaded corpus, inherited, plus what the engine allocated) is its own.
 * shaderbridge: sb_translate() + sb_translation_destroy() with default
 * options. vkd3d-shader: vkd3d_shader_compile() DXBC_TPF -> SPIRV_BINARY
 * with no messages (LOG_NONE, its cheapest setting) +
 * vkd3d_shader_free_shader_code(). All work single-threaded on the same
 * bytes; failures count in the time like successes.
 *
 * Printed: the corpus size, each peer's version and the file it came from,
 * the clean rates, then per engine the min and median time of one pass over
 * the corpus, µs per shader, MB/s of container bytes, peak RSS, the median
 * CPU time (user + system: less disturbed by other processes than the wall
 * time) and minor page faults (malloc trimming and mapping the heap) of the
 * timed pass, and each peer's median over ours; then the same ratio paired by round (each
 * round's peer time over ours from that round, whose children run seconds apart: the
 * median of those ratios and their range), which a change in the host's speed between
 * rounds moves less than it moves the two medians. Nothing asserts a time. Built without
 * vkd3d_shader.h (no libvkd3d-dev at configure time) it measures shaderbridge
 * alone. Exit: 0, 1 usage/IO error or a peer that does not load, 77 corpus absent.
 */
#define _GNU_SOURCE /* sched_setaffinity, sched_getcpu */

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "shaderbridge/translate.h"
#include "test_file.h"

#ifdef SB_BENCH_HAVE_VKD3D
#include "vkd3d_peer.h"
#endif

#define LINE_BYTES 8192
#define MAX_REPS 101
#define MAX_PEERS 4 /* vkd3d-shader libraries timed in one run */

struct shader {
    uint8_t *bytes;
    size_t size;
    char *name; /* the manifest's file column */
};

struct corpus {
    struct shader *items;
    size_t count, cap;
    uint64_t bytes;
};

/* What a timed child sends back: one pass over the timed set. */
struct sample {
    double seconds;
    double cpu_seconds; /* CPU time (user + system) of the timed pass */
    long minor_faults;  /* of the timed pass */
    long peak_rss_kb;
    unsigned failures;
};

/* Min and median over an engine's samples. */
struct timing {
    double min, median;
    double cpu_median;
    long faults_median;
    long peak_rss_kb;
    unsigned failures;
};

/* One engine under test and the target env its output is validated for. */
struct engine {
    const char *name;
    /* Translates; words and count receive the module (owned by handle) on success.
     * With `why` (the check pass's --list-failures), a failure's first message goes there. */
    bool (*translate)(const void *context, const struct shader *s, void **handle,
                      const uint32_t **words, size_t *count, char *why, size_t why_size);
    void (*release)(const void *context, void *handle);
    const void *context;    /* the engine's own state (a loaded peer library) */
    enum sb_target_env validate_env;
};

static enum sb_target_env target_env = SB_TARGET_VULKAN_1_1;
static enum sb_translate_target text_target = SB_TRANSLATE_TARGET_SPIRV;
static bool dxil_corpus; /* --dxil */
static long passes_per_sample = 1; /* --passes */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The process's CPU time (user + system; its one thread in a timed child). */
static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool is_shader_type(const char *type)
{
    /* Mesh and amplification exist only as DXIL; libraries (lib) are no one program. */
    static const char *const types[] = { "vs", "ps", "gs", "hs", "ds", "cs", "ms", "as" };
    size_t count = sizeof(types) / sizeof(types[0]) - (dxil_corpus ? 0 : 2);
    for (size_t i = 0; i < count; i++)
        if (!strcmp(type, types[i]))
            return true;
    return false;
}

static int split_tabs(char *line, char **cells, int max)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = 0;
    cells[n++] = line;
    for (char *p = line; *p && n < max; p++)
        if (*p == '\t') {
            *p = 0;
            cells[n++] = p + 1;
        }
    return n;
}

/* -1: no manifest (skip); 1: error; 0: loaded. */
static int load_corpus(const char *corpus_dir, size_t limit, struct corpus *c)
{
    char manifest[4200];
    const char *subdir = dxil_corpus ? "dxil" : "dxbc";
    snprintf(manifest, sizeof(manifest), "%s/%s/MANIFEST.tsv", corpus_dir, subdir);
    FILE *f = fopen(manifest, "r");
    if (!f)
        return -1;
    static char line[LINE_BYTES];
    char *cells[32];
    int file_col = -1, type_col = -1, status = 0;
    if (fgets(line, sizeof(line), f)) {
        int n = split_tabs(line, cells, 32);
        for (int i = 0; i < n; i++) {
            if (!strcmp(cells[i], "file"))
                file_col = i;
            else if (!strcmp(cells[i], "program_type"))
                type_col = i;
        }
    }
    while (file_col >= 0 && type_col >= 0 && c->count < limit && fgets(line, sizeof(line), f)) {
        int n = split_tabs(line, cells, 32);
        if (n <= file_col || n <= type_col || !is_shader_type(cells[type_col]))
            continue;
        char path[8192];
        snprintf(path, sizeof(path), "%s/%s/%s", corpus_dir, subdir, cells[file_col]);
        struct shader s = { 0 };
        if (!(s.name = strdup(cells[file_col])) || !(s.bytes = sb_test_read_file(path, &s.size))) {
            free(s.name);
            fprintf(stderr, "cannot read %s\n", path);
            status = 1;
            break;
        }
        if (c->count == c->cap) {
            c->cap = c->cap ? c->cap * 2 : 2048;
            struct shader *grown = realloc(c->items, c->cap * sizeof(*grown));
            if (!grown) {
                free(s.bytes);
                free(s.name);
                status = 1;
                break;
            }
            c->items = grown;
        }
        c->items[c->count++] = s;
        c->bytes += s.size;
    }
    fclose(f);
    return file_col < 0 || type_col < 0 ? 1 : status;
}

static bool sb_engine_translate(const void *context, const struct shader *s, void **handle,
                                const uint32_t **words, size_t *count, char *why, size_t why_size)
{
    (void)context;
    const struct sb_translate_options options = { .target_env = target_env, .target = text_target };
    struct sb_translation *t = NULL;
    struct sb_error error = { 0 };
    if (sb_translate(s->bytes, s->size, &options, &t, why ? &error : NULL) != SB_SUCCESS) {
        if (why)
            snprintf(why, why_size, "%s (%s, byte %llu)", error.message,
                     sb_result_name(error.code), (unsigned long long)error.offset);
        sb_translation_destroy(t);
        return false;
    }
    *handle = t;
    *words = t->words;
    *count = t->word_count;
    return true;
}

static void sb_engine_release(const void *context, void *handle)
{
    (void)context;
    sb_translation_destroy(handle);
}

#ifdef SB_BENCH_HAVE_VKD3D
static struct vkd3d_peer peers[MAX_PEERS]; /* vkd3d_peer.h: loaded with dlopen */

/* VKD3D_SHADER_SOURCE_DXBC_DXIL of vkd3d_shader.h 1.9+: Debian's 1.2 header lacks the name,
 * and its library rejects the value like any unknown source type. */
#define PEER_SOURCE_DXBC_DXIL ((enum vkd3d_shader_source_type)4)

/* The first line of vkd3d-shader's messages, without the "E0000: " style prefix noise. */
static void first_message_line(const char *messages, char *why, size_t why_size)
{
    if (!messages || !*messages) {
        snprintf(why, why_size, "failed without a message");
        return;
    }
    size_t length = strcspn(messages, "\n");
    snprintf(why, why_size, "%.*s", (int)(length < 400 ? length : 400), messages);
}

static bool peer_translate(const void *context, const struct shader *s, void **handle,
                           const uint32_t **words, size_t *count, char *why, size_t why_size)
{
    const struct vkd3d_peer *peer = context;
    const struct vkd3d_shader_compile_info info = {
        .type = VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO,
        .source = { s->bytes, s->size },
        .source_type = dxil_corpus ? PEER_SOURCE_DXBC_DXIL : VKD3D_SHADER_SOURCE_DXBC_TPF,
        .target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY,
        .log_level = why ? VKD3D_SHADER_LOG_ERROR : VKD3D_SHADER_LOG_NONE,
    };
    struct vkd3d_shader_code *code = calloc(1, sizeof(*code));
    if (!code)
        return false;
    char *messages = NULL;
    int result = peer->compile(&info, code, &messages);
    if (result < 0 && why)
        first_message_line(messages, why, why_size);
    peer->free_messages(messages);
    if (result < 0) {
        free(code);
        return false;
    }
    *handle = code;
    *words = code->code;
    *count = code->size / 4;
    return true;
}

static void peer_release(const void *context, void *handle)
{
    const struct vkd3d_peer *peer = context;
    peer->free_shader_code(handle);
    free(handle);
}

#endif

enum verdict { VERDICT_CLEAN, VERDICT_INVALID, VERDICT_FAILED, VERDICT_CRASHED, VERDICT_COUNT };

/*
 * One shader, untimed, in a forked child: an engine that aborts or crashes on
 * a shader (vkd3d-shader 1.2 asserts on some corpus shaders) must not end the
 * benchmark; the child's exit status is the verdict.
 */
static enum verdict check_shader(const struct engine *e, const struct shader *s, bool list)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        void *handle = NULL;
        const uint32_t *words = NULL;
        size_t count = 0;
        char why[512] = "";
        struct sb_error error = { 0 };
        if (!e->translate(e->context, s, &handle, &words, &count, list ? why : NULL, sizeof(why))) {
            if (list)
                printf("    %s failed: %s: %s\n", e->name, s->name, why);
            fflush(stdout); /* _exit does not flush stdio */
            _exit(VERDICT_FAILED);
        }
        if (sb_spirv_validate(words, count, e->validate_env, list ? &error : NULL) == SB_SUCCESS)
            _exit(VERDICT_CLEAN);
        if (list)
            printf("    %s invalid: %s: %s\n", e->name, s->name, error.message);
        fflush(stdout);
        _exit(VERDICT_INVALID);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) >= VERDICT_COUNT) {
        if (list)
            printf("    %s crashed: %s\n", e->name, s->name);
        return VERDICT_CRASHED;
    }
    return (enum verdict)WEXITSTATUS(status);
}

/*
 * Untimed: how many translate and validate; marks the shaders the engine crashes on
 * (--dxil: every shader it does not translate, when it translates any). Returns how
 * many it translated.
 */
static size_t check_pass(const struct engine *e, const struct corpus *c, bool list, bool *skip)
{
    size_t counts[VERDICT_COUNT] = { 0 };
    enum verdict *verdicts = calloc(c->count ? c->count : 1, sizeof(*verdicts));
    if (!verdicts)
        return 0;
    for (size_t i = 0; i < c->count; i++) {
        enum verdict v = verdicts[i] = check_shader(e, &c->items[i], list);
        counts[v]++;
        if (v == VERDICT_CRASHED)
            skip[i] = true;
    }
    size_t translated = counts[VERDICT_CLEAN] + counts[VERDICT_INVALID];
    printf("  %-14s %4zu/%zu translated, %4zu spirv-val clean for %s (%.2f%%), %zu failed "
           "cleanly, %zu crashed/aborted, %zu invalid\n", e->name, translated, c->count,
           counts[VERDICT_CLEAN], sb_target_env_name(e->validate_env),
           c->count ? 100.0 * (double)counts[VERDICT_CLEAN] / (double)c->count : 0.0,
           counts[VERDICT_FAILED], counts[VERDICT_CRASHED], counts[VERDICT_INVALID]);
    size_t translated_or_crashed = translated + counts[VERDICT_CRASHED];
    for (size_t i = 0; i < c->count && dxil_corpus && translated; i++)
        if (verdicts[i] == VERDICT_FAILED)
            skip[i] = true;
    free(verdicts);
    return translated_or_crashed ? translated : 0;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One pass over the shaders not skipped; returns the failures. */
static unsigned one_pass(const struct engine *e, const struct corpus *c, const bool *skip)
{
    unsigned failures = 0;
    for (size_t i = 0; i < c->count; i++) {
        void *handle = NULL;
        const uint32_t *words = NULL;
        size_t count = 0;
        if (skip[i])
            continue;
        if (e->translate(e->context, &c->items[i], &handle, &words, &count, NULL, 0))
            e->release(e->context, handle);
        else
            failures++;
    }
    return failures;
}

/*
 * One sample in a child process: an untimed warm-up pass (the allocator's
 * first growth, cold caches), then a timed one. False when the child died.
 */
static bool measure(const struct engine *e, const struct corpus *c, const bool *skip,
                    struct sample *out)
{
    int fds[2];
    if (pipe(fds) != 0)
        return false;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return false;
    if (pid == 0) {
        close(fds[0]);
        struct sample sample = { .failures = one_pass(e, c, skip) };
        struct rusage before, usage;
        getrusage(RUSAGE_SELF, &before);
        double start = now_seconds(), cpu_start = cpu_seconds();
        for (long p = 0; p < passes_per_sample; p++)
            one_pass(e, c, skip);
        sample.seconds = (now_seconds() - start) / (double)passes_per_sample;
        sample.cpu_seconds = (cpu_seconds() - cpu_start) / (double)passes_per_sample;
        getrusage(RUSAGE_SELF, &usage);
        sample.minor_faults = (usage.ru_minflt - before.ru_minflt) / passes_per_sample;
        sample.peak_rss_kb = usage.ru_maxrss;
        ssize_t written = write(fds[1], &sample, sizeof(sample));
        _exit(written == (ssize_t)sizeof(sample) ? 0 : 1);
    }
    close(fds[1]);
    ssize_t got = read(fds[0], out, sizeof(*out));
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return got == (ssize_t)sizeof(*out) && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* The best of `tries` in-process translations of one shader by `e` (after two untimed
 * ones), in seconds; a negative value when it failed. */
static double best_single(const struct engine *e, const struct shader *s, int tries)
{
    double best = -1.0;
    for (int t = -2; t < tries; t++) {
        void *handle = NULL;
        const uint32_t *words = NULL;
        size_t count = 0;
        double start = now_seconds();
        bool ok = e->translate(e->context, s, &handle, &words, &count, NULL, 0);
        double took = now_seconds() - start;
        if (!ok)
            return -1.0;
        e->release(e->context, handle);
        if (t >= 0 && (best < 0 || took < best))
            best = took;
    }
    return best;
}

/*
 * --per-shader FILE: every timed shader translated alone by each engine (best of 9, the
 * shader hot in the cache, unlike the passes) and one TSV row written per shader: where the
 * engines' times differ most. Runs in the parent after the check pass has left out the
 * shaders an engine crashes on.
 */
static bool write_per_shader(const char *path, const struct engine *engines, size_t engine_count,
                             const struct corpus *c, const bool *skip)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fprintf(f, "file\tbytes");
    for (size_t e = 0; e < engine_count; e++)
        fprintf(f, "\t%s_us", engines[e].name);
    fprintf(f, "\n");
    for (size_t i = 0; i < c->count; i++) {
        if (skip[i])
            continue;
        fprintf(f, "%s\t%zu", c->items[i].name, c->items[i].size);
        for (size_t e = 0; e < engine_count; e++) {
            double t = best_single(&engines[e], &c->items[i], 9);
            if (t < 0)
                fprintf(f, "\tfailed");
            else
                fprintf(f, "\t%.2f", t * 1e6);
        }
        fprintf(f, "\n");
    }
    return fclose(f) == 0;
}

/* The median of `count` values (sorted in place). */
static double median(double *values, long count)
{
    qsort(values, (size_t)count, sizeof(values[0]), compare_doubles);
    return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

static struct timing summarise(const struct sample *samples, long count)
{
    double times[MAX_REPS], cpu[MAX_REPS], faults[MAX_REPS];
    struct timing t = { .failures = samples[0].failures };
    for (long i = 0; i < count; i++) {
        times[i] = samples[i].seconds;
        cpu[i] = samples[i].cpu_seconds;
        faults[i] = (double)samples[i].minor_faults;
        if (samples[i].peak_rss_kb > t.peak_rss_kb)
            t.peak_rss_kb = samples[i].peak_rss_kb;
    }
    t.median = median(times, count);
    t.min = times[0];
    t.cpu_median = median(cpu, count);
    t.faults_median = (long)median(faults, count);
    return t;
}

static void print_timing(const char *name, const struct timing *t, size_t shaders, uint64_t bytes)
{
    double n = shaders ? (double)shaders : 1.0;
    printf("%-14s %9.1f %9.1f %10.2f %10.2f %8.2f %10.1f %7u %10.1f %10ld\n", name, t->min * 1e3,
           t->median * 1e3, t->min * 1e6 / n, t->median * 1e6 / n,
           (double)bytes / t->median / 1e6, (double)t->peak_rss_kb / 1024.0, t->failures,
           t->cpu_median * 1e3, t->faults_median);
}

static long parse_count(const char *text, long max)
{
    char *end = NULL;
    long value = strtol(text, &end, 10);
    return (end && *end == 0 && value >= 1 && value <= max) ? value : -1;
}

/* --cpu's value: a CPU number, -2 for "any", -3 when it is neither. */
static long parse_cpu(const char *text)
{
    if (!strcmp(text, "any"))
        return -2;
    char *end = NULL;
    long value = strtol(text, &end, 10);
    return (end != text && *end == 0 && value >= 0 && value < CPU_SETSIZE) ? value : -3;
}

/*
 * Pins this process, and so every child it forks from now on, to one CPU: `wanted`, or
 * the CPU it is on now when `wanted` is negative. The CPU, or -1 where it cannot pin.
 */
static int pin_to_one_cpu(long wanted)
{
    int cpu = wanted >= 0 ? (int)wanted : sched_getcpu();
    if (cpu < 0 || cpu >= CPU_SETSIZE)
        return -1;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof(set), &set) == 0 ? cpu : -1;
}

int main(int argc, char **argv)
{
    const char *corpus_dir = NULL;
    long reps = 5, limit = 1000000;
    long timing_cpu = -1; /* --cpu: -1 the current one, -2 any */
    bool use_vkd3d = true, check = true, usage = false, list_failures = false;
    const char *per_shader_path = NULL;
    const char *peer_names[MAX_PEERS];
    size_t peer_name_count = 0;
    for (int i = 1; i < argc && !usage; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            usage = (reps = parse_count(argv[++i], MAX_REPS)) < 0;
        else if (!strcmp(argv[i], "--limit") && i + 1 < argc)
            usage = (limit = parse_count(argv[++i], 1000000)) < 0;
        else if (!strcmp(argv[i], "--target-env") && i + 1 < argc)
            usage = !sb_target_env_parse(argv[++i], &target_env);
        else if (!strcmp(argv[i], "--target") && i + 1 < argc)
            usage = !sb_translate_target_parse(argv[++i], &text_target);
        else if (!strcmp(argv[i], "--peer") && i + 1 < argc)
            usage = peer_name_count == MAX_PEERS || !(peer_names[peer_name_count++] = argv[++i]);
        else if (!strcmp(argv[i], "--no-vkd3d"))
            use_vkd3d = false;
        else if (!strcmp(argv[i], "--no-check"))
            check = false;
        else if (!strcmp(argv[i], "--dxil"))
            dxil_corpus = true;
        else if (!strcmp(argv[i], "--list-failures"))
            list_failures = true;
        else if (!strcmp(argv[i], "--passes") && i + 1 < argc)
            usage = (passes_per_sample = parse_count(argv[++i], 1000)) < 0;
        else if (!strcmp(argv[i], "--per-shader") && i + 1 < argc)
            per_shader_path = argv[++i];
        else if (!strcmp(argv[i], "--cpu") && i + 1 < argc)
            usage = (timing_cpu = parse_cpu(argv[++i])) == -3;
        else if (argv[i][0] != '-' && !corpus_dir)
            corpus_dir = argv[i];
        else
            usage = true;
    }
    if (usage || !corpus_dir) {
        fprintf(stderr, "usage: bench_translate CORPUS_DIR [--reps 1..%d] [--target-env "
                        "vulkan1.x] [--target spirv|glsl|essl|msl|hlsl] [--dxil] [--limit N] [--peer LIB]... "
                        "[--no-vkd3d] [--no-check] [--list-failures] [--passes N] [--cpu N|any] "
                        "[--per-shader FILE]\n",
                MAX_REPS);
        return 1;
    }
    /* vkd3d-shader prints FIXME lines to stderr by default: off, for readable output and timing. */
    setenv("VKD3D_SHADER_DEBUG", "none", 0);
    struct corpus c = { 0 };
    int loaded = load_corpus(corpus_dir, (size_t)limit, &c);
    if (loaded < 0) {
        printf("SKIPPED: corpus not found at %s\n", corpus_dir);
        return 77;
    }
    if (loaded > 0 || c.count == 0) {
        fprintf(stderr, "no shader to measure\n");
        return 1;
    }
    struct engine engines[1 + MAX_PEERS] = {
        { "shaderbridge", sb_engine_translate, sb_engine_release, NULL, target_env },
    };
    size_t engine_count = 1;
    printf("bench_translate: %zu shaders from %s/MANIFEST.tsv, %.3f MB of containers, loaded "
           "before timing; shaderbridge target %s\n", c.count, dxil_corpus ? "dxil" : "dxbc",
           (double)c.bytes / 1e6, sb_target_env_name(target_env));
#ifdef SB_BENCH_HAVE_VKD3D
    if (peer_name_count == 0)
        peer_names[peer_name_count++] = "libvkd3d-shader.so.1";
    for (size_t p = 0; p < peer_name_count && use_vkd3d; p++) {
        char why[512];
        if (!vkd3d_peer_load(peer_names[p], &peers[p], why, sizeof(why))) {
            fprintf(stderr, "bench_translate: %s\n", why);
            return 1;
        }
        printf("peer %zu: %s (%s), loaded from %s\n", p + 1, peers[p].label, peers[p].version, peers[p].file);
        engines[engine_count++] = (struct engine){ peers[p].label, peer_translate, peer_release,
                                                   &peers[p], SB_TARGET_VULKAN_1_0 };
    }
    if (!use_vkd3d)
        printf("peers: skipped (--no-vkd3d)\n");
#else
    printf("peers: none (built without vkd3d_shader.h: libvkd3d-dev absent at configure time)\n");
    (void)use_vkd3d;
    (void)peer_names;
#endif
    printf("\nuntimed check pass, each shader in a forked process (validated in-process with "
           "SPIRV-Tools):\n");
    bool *skip = calloc(c.count, sizeof(*skip));
    if (!skip)
        return 1;
    /* A peer with no DXIL path (vkd3d-shader before 1.9) translates nothing: it is not timed. */
    size_t kept = 0;
    for (size_t e = 0; e < engine_count && check; e++) {
        if (check_pass(&engines[e], &c, list_failures, skip) || !dxil_corpus || e == 0)
            engines[kept++] = engines[e];
        else
            printf("  %s translates no DXIL here: not timed\n", engines[e].name);
    }
    if (check)
        engine_count = kept;
    if (!check)
        printf("  skipped (--no-check): nothing is left out of the timing\n");
    else if (dxil_corpus)
        printf("  --dxil: only the files every timed engine translates are timed\n");
    size_t timed_count = 0;
    uint64_t timed_bytes = 0;
    for (size_t i = 0; i < c.count; i++)
        if (!skip[i]) {
            timed_count++;
            timed_bytes += c.items[i].size;
        }

    /* After the check pass (its thousands of children may run anywhere): the timed
     * children all inherit one CPU. */
    int pinned = timing_cpu == -2 ? -1 : pin_to_one_cpu(timing_cpu);
    if (timing_cpu >= 0 && pinned < 0) {
        fprintf(stderr, "bench_translate: cannot run on CPU %ld\n", timing_cpu);
        return 1;
    }
    struct rusage usage_now;
    getrusage(RUSAGE_SELF, &usage_now);
    printf("\ntimed: %ld round(s), each engine in turn: a forked process, one warm-up pass and %ld "
           "timed pass(es) (times per pass) over %zu shaders (%zu left out: an engine crashes on "
           "them%s), %.3f MB; single thread; corpus loaded: peak RSS %.1f MB before forking\n",
           reps, passes_per_sample, timed_count, c.count - timed_count,
           dxil_corpus ? " or does not translate them" : "", (double)timed_bytes / 1e6,
           (double)usage_now.ru_maxrss / 1024.0);
    if (pinned >= 0)
        printf("every timed child on CPU %d (--cpu any: wherever the scheduler puts it)\n", pinned);
    else
        printf("timed children on any CPU (--cpu any, or pinning failed): a ratio may compare CPUs\n");
    printf("%-14s %9s %9s %10s %10s %8s %10s %7s %10s %10s\n", "engine", "min ms", "median ms",
           "us/sh@min", "us/sh@med", "MB/s@med", "peakRSS MB", "failed", "cpu ms@med", "faults@med");
    /* Rounds alternate the engines, so load from other processes hits both alike. */
    static struct sample samples[1 + MAX_PEERS][MAX_REPS];
    struct timing timings[1 + MAX_PEERS] = { 0 };
    bool measured[1 + MAX_PEERS] = { true, true, true, true, true };
    for (long r = 0; r < reps; r++)
        for (size_t e = 0; e < engine_count; e++)
            if (measured[e])
                measured[e] = measure(&engines[e], &c, skip, &samples[e][r]);
    for (size_t e = 0; e < engine_count; e++) {
        if (measured[e]) {
            timings[e] = summarise(samples[e], reps);
            print_timing(engines[e].name, &timings[e], timed_count, timed_bytes);
        } else {
            printf("%-14s died while timing (crash in the engine?)\n", engines[e].name);
        }
    }
    printf("\n");
    for (size_t e = 1; e < engine_count; e++)
        if (measured[0] && measured[e] && timings[0].median > 0 && timings[0].min > 0)
            printf("%s median / shaderbridge median = %.2fx (min/min %.2fx); total %.1f ms vs "
                   "%.1f ms per corpus pass; peak RSS %.1f MB vs %.1f MB\n", engines[e].name,
                   timings[e].median / timings[0].median, timings[e].min / timings[0].min,
                   timings[0].median * 1e3, timings[e].median * 1e3,
                   (double)timings[0].peak_rss_kb / 1024.0, (double)timings[e].peak_rss_kb / 1024.0);
    for (size_t e = 1; e < engine_count; e++) {
        if (!measured[0] || !measured[e])
            continue;
        double ratios[MAX_REPS];
        long paired = 0;
        for (long r = 0; r < reps; r++)
            if (samples[0][r].seconds > 0 && samples[e][r].seconds > 0)
                ratios[paired++] = samples[e][r].seconds / samples[0][r].seconds;
        if (paired) {
            double middle = median(ratios, paired); /* sorts: [0] and [paired - 1] are the range */
            printf("%s / shaderbridge paired by round: median %.2fx over %ld rounds (%.2f-%.2fx)\n",
                   engines[e].name, middle, paired, ratios[0], ratios[paired - 1]);
        }
    }
    if (per_shader_path) {
        if (!write_per_shader(per_shader_path, engines, engine_count, &c, skip)) {
            fprintf(stderr, "bench_translate: cannot write %s\n", per_shader_path);
            return 1;
        }
        printf("per-shader times (best of 9 in-process translations each): %s\n", per_shader_path);
    }
    free(skip);
    for (size_t i = 0; i < c.count; i++) {
        free(c.items[i].bytes);
        free(c.items[i].name);
    }
    free(c.items);
    return measured[0] ? 0 : 1;
}
