/* SPDX-License-Identifier: MIT */
/*
 * Mutation test of every reader: each input file is truncated at many
 * lengths, has bits flipped, and has 32-bit fields overwritten with lying
 * sizes and offsets; every mutant goes through its reader and, when it
 * parses, through the JSON builder (fuzz_exercise.c). A mutant must give
 * success or a well-formed structured error: a crash, a sanitizer report,
 * a malformed error or an input that takes longer than the watchdog (a
 * hang) fails the test.
 *
 * Mutants are a pure function of (file contents, seed, mutant index), so a
 * failure printed as `FILE #N` reproduces with `mutate --only FILE --id N`.
 *
 * usage: mutate [--per-file N] [--seed S] [--min-total N] [--only FILE --id N]
 *               [--dxil-bitcode] PATH...
 * PATH: files or directories (recursive); `--optional=PATH` may be absent.
 * --dxil-bitcode: DXContainers go to the DXIL bitcode reader (their DXIL part)
 * instead of the container reader.
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fuzz_exercise.h"

enum { WATCHDOG_SECONDS = 10 };

struct options {
    unsigned per_file;
    uint64_t seed;
    unsigned long min_total;
    const char *only;
    long only_id;
    bool dxil_bitcode;
};

struct totals {
    unsigned long files;
    unsigned long mutants;
    unsigned long parsed;
    unsigned long rejected;
    unsigned long by_reader[FUZZ_READER_COUNT];
    double slowest_ms;
};

static const char *current_file;
static unsigned current_id;

static void on_watchdog(int sig)
{
    (void)sig;
    static const char text[] = "mutate: watchdog expired: a reader hangs on ";
    if (write(2, text, sizeof(text) - 1) < 0 || write(2, current_file, strlen(current_file)) < 0)
        _exit(3);
    _exit(3);
}

/* splitmix64: a small deterministic generator, seeded per mutant. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t hash_bytes(const uint8_t *bytes, size_t size)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < size; i++)
        h = (h ^ bytes[i]) * 0x100000001b3ull;
    return h;
}

static void store_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static uint32_t load_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * Builds mutant `id` of `original` into `out` (same capacity) and returns its
 * size. A third of the mutants are truncations (the first ones cover every
 * length below 16, then lengths spread over the file), a third flip 1-8 bits,
 * a third overwrite an aligned u32 (headers, sizes, offsets, counts) with a
 * value chosen to lie: 0, all ones, the file size and its neighbours,
 * the old value nudged, or a random value.
 */
static size_t make_mutant(const uint8_t *original, size_t size, uint64_t seed, unsigned id,
                          uint8_t *out)
{
    uint64_t rng = seed ^ ((uint64_t)id * 0x2545f4914f6cdd1dull);
    memcpy(out, original, size);
    unsigned kind = id % 3;
    unsigned serial = id / 3;
    if (kind == 0 || size < 4) {
        if (serial < 16)
            return serial < size ? serial : size - 1;
        return (size_t)(next_random(&rng) % size);
    }
    if (kind == 1) {
        unsigned flips = 1 + (unsigned)(next_random(&rng) % 8);
        for (unsigned i = 0; i < flips; i++) {
            size_t at = (size_t)(next_random(&rng) % size);
            out[at] ^= (uint8_t)(1u << (next_random(&rng) % 8));
        }
        return size;
    }
    /* Favour the first 256 bytes, where headers and tables live. */
    size_t words = size / 4;
    size_t header_words = words < 64 ? words : 64;
    size_t word = (next_random(&rng) & 1) ? (size_t)(next_random(&rng) % header_words)
                                          : (size_t)(next_random(&rng) % words);
    uint32_t old = load_u32(out + 4 * word);
    uint32_t lies[] = { 0, 1, 0xffffffffu, 0x7fffffffu, 0x80000000u, (uint32_t)size,
                        (uint32_t)size - 1, (uint32_t)size + 1, old + 4, old - 4, old * 2,
                        old + 0x10000, (uint32_t)next_random(&rng) };
    store_u32(out + 4 * word, lies[next_random(&rng) % (sizeof(lies) / sizeof(lies[0]))]);
    return size;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void mutate_file(const char *path, const struct options *opt, struct totals *totals)
{
    size_t size = 0;
    uint8_t *original = fuzz_read_file(path, &size);
    if (!original)
        return;
    enum fuzz_reader reader = fuzz_reader_for_format(sb_format_detect(original, size));
    if (opt->dxil_bitcode && reader == FUZZ_READER_DXBC)
        reader = FUZZ_READER_DXIL_BITCODE;
    if (reader == FUZZ_READER_COUNT || size == 0) {
        free(original);
        return;
    }
    uint8_t *mutant = malloc(size);
    if (!mutant) {
        free(original);
        return;
    }
    current_file = path;
    totals->files++;
    uint64_t seed = opt->seed ^ hash_bytes(original, size);
    for (unsigned id = 0; id < opt->per_file; id++) {
        if (opt->only && (long)id != opt->only_id)
            continue;
        current_id = id;
        unsigned long invalid_before = fuzz_translate_counts.invalid_spirv;
        size_t mutant_size = make_mutant(original, size, seed, id, mutant);
        alarm(WATCHDOG_SECONDS);
        double start = now_ms();
        enum sb_result result = fuzz_exercise(reader, mutant, mutant_size);
        double elapsed = now_ms() - start;
        alarm(0);
        if (elapsed > totals->slowest_ms)
            totals->slowest_ms = elapsed;
        totals->mutants++;
        totals->by_reader[reader]++;
        if (result == SB_SUCCESS)
            totals->parsed++;
        else
            totals->rejected++;
        if (opt->only)
            printf("%s #%u: %zu bytes, %s\n", path, id, mutant_size, sb_result_name(result));
        if (fuzz_translate_counts.invalid_spirv != invalid_before)
            printf("invalid SPIR-V from %s #%u (reproduce: mutate --only %s --per-file %u)\n", path,
                   id, path, opt->per_file);
    }
    free(mutant);
    free(original);
}

static void walk(const char *path, const struct options *opt, struct totals *totals)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return;
    if (!S_ISDIR(st.st_mode)) {
        mutate_file(path, opt, totals);
        return;
    }
    DIR *dir = opendir(path);
    if (!dir)
        return;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.')
            continue;
        size_t length = strlen(path) + strlen(entry->d_name) + 2;
        char *child = malloc(length);
        if (!child)
            break;
        snprintf(child, length, "%s/%s", path, entry->d_name);
        walk(child, opt, totals);
        free(child);
    }
    closedir(dir);
}

int main(int argc, char **argv)
{
    struct options opt = { .per_file = 120, .seed = 1, .min_total = 0, .only_id = -1 };
    struct totals totals = { 0 };
    signal(SIGALRM, on_watchdog);
    double start = now_ms();
    int paths = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--per-file") && i + 1 < argc) {
            opt.per_file = (unsigned)strtoul(argv[++i], NULL, 0);
        } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            opt.seed = strtoull(argv[++i], NULL, 0);
        } else if (!strcmp(argv[i], "--min-total") && i + 1 < argc) {
            opt.min_total = strtoul(argv[++i], NULL, 0);
        } else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            opt.only = argv[++i];
        } else if (!strcmp(argv[i], "--dxil-bitcode")) {
            opt.dxil_bitcode = true;
        } else if (!strcmp(argv[i], "--id") && i + 1 < argc) {
            opt.only_id = strtol(argv[++i], NULL, 0);
        } else if (!strncmp(argv[i], "--optional=", 11)) {
            struct stat st;
            if (stat(argv[i] + 11, &st) != 0)
                printf("SKIPPED: %s not found (its files are not mutated)\n", argv[i] + 11);
            else
                walk(argv[i] + 11, &opt, &totals), paths++;
        } else {
            walk(argv[i], &opt, &totals);
            paths++;
        }
    }
    if (opt.only) {
        walk(opt.only, &opt, &totals);
        return 0;
    }
    printf("mutate: %lu files, %lu mutants (dxbc %lu, shbin %lu, vbc %lu, dds %lu, dxil bitcode "
           "%lu): %lu parsed, %lu rejected with a structured error; slowest input %.2f ms; %.1f s "
           "in all\n",
           totals.files, totals.mutants, totals.by_reader[FUZZ_READER_DXBC],
           totals.by_reader[FUZZ_READER_SHBIN], totals.by_reader[FUZZ_READER_VBC],
           totals.by_reader[FUZZ_READER_DDS], totals.by_reader[FUZZ_READER_DXIL_BITCODE],
           totals.parsed, totals.rejected, totals.slowest_ms, (now_ms() - start) / 1e3);
    printf("mutate: DXBC containers that parsed, translated: %lu valid SPIR-V, %lu rejected with "
           "a structured error, %lu produced SPIR-V the validator rejects\n",
           fuzz_translate_counts.translated, fuzz_translate_counts.rejected,
           fuzz_translate_counts.invalid_spirv);
    if (totals.mutants < opt.min_total) {
        printf("SKIPPED: only %lu mutants (fewer than --min-total %lu): corpus absent?\n",
               totals.mutants, opt.min_total);
        return 77;
    }
    return paths ? 0 : 2;
}
