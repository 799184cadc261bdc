/* SPDX-License-Identifier: MIT */
/*
 * validate_mutants: does `validate` call a wrong module wrong? Every corpus compute
 * shader that validates today (verdict agree or agree-within-precision) is translated,
 * and one-instruction mutants of its SPIR-V (spirv_mutate.c: FAdd<->FSub, IAdd<->ISub,
 * FMul->FAdd, swapped comparisons, a constant moved by one, a dropped OpStore, ...)
 * run on the device in its place through sb_validate_options::gpu_spirv, with the
 * same seeded inputs, while the interpreter runs the DXBC as always. Sites whose change
 * could stall or crash the device are left out (spirv_slice.c).
 *
 * Counted: mutants spirv-val rejects (skipped); mutants that could not run (one that
 * stalled the device, which the guard should have prevented, is named, and the test
 * goes on with a new device); and of those that ran, the ones whose device output is
 * identical to the unmutated module's, changed within the interpreter's bound, or
 * changed beyond it, with the verdict `validate` gave each group.
 *
 * The rule for "changed beyond the bound" compares the mutant's device words M with the
 * unmutated module's device words G (both runs: same inputs, same interpreter words C
 * and bounds b), so it does not lean on validate's own comparison. G agreed with C
 * (the shader validates), so |G - C| <= t = max(b, 2^-20) for a float word, where
 * 2^-20 is the absolute slack D3D's rules grant (validate_words.c; 2^-40 for doubles),
 * and G == C for exact words. A word counts only where validate can judge it: not
 * undefined for the interpreter, a finite bound, a finite C. Then the word changed
 * beyond the bound when
 *   - exact words (int, uint, bool; untyped words unless M, G and C are all normal
 *     floats): M != G, since then M != C;
 *   - floats: exactly one of M and G is NaN, or |M - G| > 2 t, since then
 *     |M - C| >= |M - G| - |G - C| > t: outside both the bound and the slack;
 *   - doubles (a low/high pair): the same on the pair's value, t = max(b, 2^-40);
 *   - a UAV counter: M != G, when the interpreter saw no undefined behaviour.
 * Every mutant with such a word must be called `disagree` (the test fails otherwise).
 * A mutant that changed only within 2 t may legitimately be called either way (with the
 * interpreter's bounds still 0, that is a float moved by at most 2^-19, or a word the
 * interpreter calls undefined or precision-sensitive); it is counted apart, never a failure.
 *
 * Usage: test_validate_mutants CORPUS_DIR [--per-shader N] [--every N] [--shader TEXT] [--seed S]
 *        [--all] [--min-ran N] [--verbose]
 * --per-shader N mutants per shader (default 3), chosen from its sites by --seed S
 * (default 1) and the shader's path; --all every site of every shader (the full
 * figure); --every N every Nth shader, --shader TEXT those whose path contains TEXT;
 * --min-ran N fails below N mutants run (default 200 over the whole corpus).
 * Exit: 0 pass, 1 fail, 77 corpus or device absent.
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "corpus_list.h"
#include "spirv_mutate.h"
#include "shaderbridge/validate.h"

enum change { CHANGE_NONE, CHANGE_WITHIN, CHANGE_BEYOND, CHANGE_COUNT };
static const char *const change_names[CHANGE_COUNT] = { "identical output", "changed within the bound",
                                                        "changed beyond the bound" };

struct figures {
    uint64_t shaders, validating, sites, guarded, chosen, rejected, not_run, ran;
    uint64_t by_change[CHANGE_COUNT], disagree[CHANGE_COUNT];
    uint64_t kind_ran[SPIRV_MUTATE_KIND_COUNT], kind_beyond[SPIRV_MUTATE_KIND_COUNT];
    uint64_t missed; /* beyond the bound and not called disagree: failures */
    uint64_t stalled; /* mutants after which the device had to be replaced */
};

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t path_hash(const char *path)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (; *path; path++)
        h = (h ^ (uint8_t)*path) * 0x100000001b3ull;
    return h;
}

static uint8_t word_kind(const struct sb_rt_inputs *in, uint32_t i, uint64_t w)
{
    return in->word_kinds && in->word_kinds[i] ? in->word_kinds[i][w] : in->uniform_kind[i];
}

static float as_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static bool normal(uint32_t u)
{
    uint32_t e = u & 0x7f800000u;
    return e && e != 0x7f800000u;
}

/* Float words m (mutant) and g (unmutated), interpreter word c, bound b: the rule above. */
static bool float_beyond(uint32_t m, uint32_t g, uint32_t c, float b)
{
    if (isnan(as_float(c)) || isinf(as_float(c)))
        return false; /* validate does not compare these (report->unconstrained) */
    bool mn = isnan(as_float(m)), gn = isnan(as_float(g));
    if (mn || gn)
        return mn != gn;
    double t = fmax((double)b, 0x1p-20);
    return fabs((double)as_float(m) - (double)as_float(g)) > 2.0 * t;
}

static bool double_beyond(uint64_t m, uint64_t g, float b)
{
    double dm, dg;
    memcpy(&dm, &m, 8);
    memcpy(&dg, &g, 8);
    if (isnan(dm) || isnan(dg))
        return isnan(dm) != isnan(dg);
    return fabs(dm - dg) > 2.0 * fmax((double)b, 0x1p-40);
}

/* How the mutant's device output differs from the unmutated module's (same inputs). */
static enum change classify(const struct sb_validate_report *orig, const struct sb_validate_report *mut,
                            char *where, size_t size)
{
    enum change worst = CHANGE_NONE;
    const struct sb_rt_inputs *G = orig->gpu, *M = mut->gpu, *C = mut->cpu;
    const struct sb_interp_tracking *t = &mut->tracking;
    for (uint32_t i = 0; i < G->count && i < M->count; i++) {
        const struct sb_rt_resource *g = &G->resources[i], *m = &M->resources[i], *c = &C->resources[i];
        if (g->resource_class != SB_IR_RESOURCE_UAV)
            continue;
        const uint32_t *gw = g->data, *mw = m->data, *cw = c->data;
        uint64_t words = g->size / 4;
        for (uint64_t w = 0; w < words; w++) {
            uint8_t kind = word_kind(G, i, w);
            bool pair = kind == SB_RT_WORD_DOUBLE_LOW && w + 1 < words;
            bool same = mw[w] == gw[w] && (!pair || mw[w + 1] == gw[w + 1]);
            if (kind > SB_RT_WORD_DOUBLE_HIGH || same) {
                w += pair;
                continue;
            }
            float b = i < t->resource_count && t->bound && t->bound[i] ? t->bound[i][w] : 0.0f;
            bool undefined = i < t->resource_count && t->undefined_word && t->undefined_word[i] &&
                             (t->undefined_word[i][w] || (pair && t->undefined_word[i][w + 1]));
            bool beyond = false;
            if (undefined || isinf(b) || isnan(b))
                beyond = false;
            else if (kind == SB_RT_WORD_UNKNOWN && (cw[w] & 0x7f800000u) == 0x7f800000u)
                beyond = false; /* an untyped NaN/inf the interpreter made: not compared either */
            else if (pair)
                beyond = double_beyond(mw[w] | (uint64_t)mw[w + 1] << 32, gw[w] | (uint64_t)gw[w + 1] << 32, b);
            else if (kind == SB_RT_WORD_FLOAT ||
                     (kind == SB_RT_WORD_UNKNOWN && normal(mw[w]) && normal(gw[w]) && normal(cw[w])))
                beyond = float_beyond(mw[w], gw[w], cw[w], b);
            else
                beyond = true; /* exact words: G == C, so M != C */
            if (beyond && worst != CHANGE_BEYOND)
                snprintf(where, size, "u%u word %llu: unmutated 0x%08x, mutant 0x%08x, interpreter 0x%08x, bound %g",
                         g->register_index, (unsigned long long)w, gw[w], mw[w], cw[w], (double)b);
            worst = beyond ? CHANGE_BEYOND : worst == CHANGE_NONE ? CHANGE_WITHIN : worst;
            w += pair;
        }
        if (m->counter != g->counter) {
            bool beyond = t->undefined_events == 0;
            if (beyond && worst != CHANGE_BEYOND)
                snprintf(where, size, "u%u counter: unmutated %u, mutant %u", g->register_index, g->counter,
                         m->counter);
            worst = beyond ? CHANGE_BEYOND : worst == CHANGE_NONE ? CHANGE_WITHIN : worst;
        }
    }
    return worst;
}

struct run_settings {
    uint32_t per_shader;
    bool all;
    const char *only;         /* --shader: paths containing this, or NULL */
    uint64_t seed;
    bool verbose;
};

static void run_mutant(struct sb_rt_context **context, const struct sb_rt_program *program, const char *path,
                       const struct sb_validate_report *orig, const struct spirv_mutation *mu,
                       const struct run_settings *s, struct figures *f)
{
    const struct sb_translation *t = program->translation;
    size_t count = 0;
    uint32_t *words = spirv_mutation_apply(t->words, t->word_count, mu, &count);
    char name[96];
    spirv_mutation_describe(mu, name, sizeof(name));
    struct sb_error error = { 0 };
    f->chosen++;
    if (!words || sb_spirv_validate(words, count, SB_TARGET_VULKAN_1_1, &error) != SB_SUCCESS) {
        f->rejected++;
        if (s->verbose)
            printf("  %s: rejected by spirv-val\n", name);
        free(words);
        return;
    }
    struct sb_validate_options options = { .inputs = { .seed = 1 }, .gpu_spirv = words, .gpu_spirv_words = count };
    struct sb_validate_report *report = NULL;
    if (s->verbose) { /* before the run, so a mutant that stalls the device is named */
        printf("  %s: ", name);
        fflush(stdout);
    }
    enum sb_result r = sb_validate(*context, program, &options, &report, &error);
    if (r == SB_ERROR_NO_DEVICE || (r == SB_ERROR_VULKAN && (strstr(error.message, "VK_TIMEOUT") ||
                                                            strstr(error.message, "VK_ERROR_DEVICE_LOST")))) {
        /* The guard missed a way to stall the device (spirv_slice.c): name the mutant, and go
         * on with a new device, since the runtime refuses a device it gave up on. The old
         * context is left alone: destroying it would wait for the run that never ends. */
        f->stalled++;
        printf("%sSTALLED THE DEVICE: %s %s: %s\n", s->verbose ? "\n" : "", path, name, error.message);
        struct sb_rt_context_options context_options = { 0 };
        if (sb_rt_context_create(&context_options, context, &error) != SB_SUCCESS)
            *context = NULL;
    }
    if (r != SB_SUCCESS) {
        f->not_run++;
        printf("%s%s %s: not run: %s\n", s->verbose ? "" : "  ", s->verbose ? "" : path, s->verbose ? "" : name,
               error.message);
        free(words);
        return;
    }
    char where[192] = "";
    enum change change = classify(orig, report, where, sizeof(where));
    bool disagree = report->verdict == SB_VALIDATE_DISAGREE;
    f->ran++;
    f->by_change[change]++;
    f->disagree[change] += disagree;
    f->kind_ran[mu->kind]++;
    f->kind_beyond[mu->kind] += change == CHANGE_BEYOND;
    if (change == CHANGE_BEYOND && !disagree) {
        f->missed++;
        printf("MISSED: %s %s: output changed beyond the bound (%s) but validate says %s: %s\n", path, name, where,
               sb_validate_verdict_name(report->verdict), report->reason);
    } else if (s->verbose) {
        printf("%s, validate %s\n", change_names[change], sb_validate_verdict_name(report->verdict));
    }
    sb_validate_report_destroy(report);
    free(words);
}

static void run_shader(struct sb_rt_context **context, const char *corpus, const char *path,
                       const struct run_settings *s, struct figures *f)
{
    char full[4096];
    snprintf(full, sizeof(full), "%s/dxbc/%s", corpus, path);
    size_t size = 0;
    char *bytes = read_file(full, &size);
    struct sb_rt_program *program = NULL;
    struct sb_error error = { 0 };
    f->shaders++;
    if (!bytes || sb_rt_program_load(bytes, size, NULL, &program, &error) != SB_SUCCESS ||
        program->stage != SB_IR_STAGE_COMPUTE) {
        free(bytes);
        sb_rt_program_destroy(program);
        return;
    }
    free(bytes);
    /* The unmutated module through the same path as its mutants. */
    const struct sb_translation *t = program->translation;
    struct sb_validate_options options = { .inputs = { .seed = 1 }, .gpu_spirv = t->words,
                                           .gpu_spirv_words = t->word_count };
    struct sb_validate_report *orig = NULL;
    struct spirv_mutation_sites sites = { 0 };
    if (sb_validate(*context, program, &options, &orig, &error) != SB_SUCCESS ||
        (orig->verdict != SB_VALIDATE_AGREE && orig->verdict != SB_VALIDATE_AGREE_WITHIN_PRECISION) ||
        !spirv_mutation_sites_find(t->words, t->word_count, &sites)) {
        sb_validate_report_destroy(orig);
        sb_rt_program_destroy(program);
        return;
    }
    f->validating++;
    f->sites += sites.count;
    f->guarded += sites.guarded;
    uint32_t n = s->all || s->per_shader > sites.count ? sites.count : s->per_shader;
    uint64_t state = s->seed ^ path_hash(path);
    /* A partial Fisher-Yates shuffle: the first n sites of a seeded permutation. */
    for (uint32_t k = 0; k < n; k++) {
        uint32_t pick = k + (uint32_t)(splitmix64(&state) % (sites.count - k));
        struct spirv_mutation chosen = sites.sites[pick];
        sites.sites[pick] = sites.sites[k];
        sites.sites[k] = chosen;
    }
    if (s->verbose)
        printf("%s: %u sites (%u guarded), %u mutants\n", path, sites.count, sites.guarded, n);
    for (uint32_t k = 0; k < n && *context; k++)
        run_mutant(context, program, path, orig, &sites.sites[k], s, f);
    spirv_mutation_sites_free(&sites);
    sb_validate_report_destroy(orig);
    sb_rt_program_destroy(program);
}

static void print_figures(const struct figures *f, const char *device)
{
    printf("validate_mutants on %s, seed 1 inputs: %llu compute shaders, %llu validate today\n", device,
           (unsigned long long)f->shaders, (unsigned long long)f->validating);
    printf("  sites: %llu mutable, %llu guarded (loop/barrier/index/divisor slice)\n", (unsigned long long)f->sites,
           (unsigned long long)f->guarded);
    printf("  mutants: %llu chosen, %llu rejected by spirv-val, %llu not run (%llu stalled the device), %llu ran\n",
           (unsigned long long)f->chosen, (unsigned long long)f->rejected, (unsigned long long)f->not_run,
           (unsigned long long)f->stalled, (unsigned long long)f->ran);
    for (int c = 0; c < CHANGE_COUNT; c++)
        printf("  %-26s %6llu, validate called %llu of them disagree\n", change_names[c],
               (unsigned long long)f->by_change[c], (unsigned long long)f->disagree[c]);
    printf("  by operator (ran / changed beyond the bound):");
    for (int k = 0; k < SPIRV_MUTATE_KIND_COUNT; k++)
        printf(" %s %llu/%llu", spirv_mutation_kind_name((enum spirv_mutation_kind)k),
               (unsigned long long)f->kind_ran[k], (unsigned long long)f->kind_beyond[k]);
    printf("\n  beyond the bound but not called disagree: %llu\n", (unsigned long long)f->missed);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_validate_mutants CORPUS_DIR [--per-shader N] [--every N] [--shader TEXT] "
                        "[--seed S] [--all] [--min-ran N] [--verbose]\n");
        return 2;
    }
    struct run_settings s = { .per_shader = 3, .seed = 1 };
    uint32_t every = 1;
    uint64_t min_ran = 200;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--per-shader") && i + 1 < argc)
            s.per_shader = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--every") && i + 1 < argc)
            every = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            s.seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--min-ran") && i + 1 < argc)
            min_ran = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--shader") && i + 1 < argc)
            s.only = argv[++i];
        else if (!strcmp(argv[i], "--all"))
            s.all = true;
        else if (!strcmp(argv[i], "--verbose"))
            s.verbose = true;
        else {
            fprintf(stderr, "test_validate_mutants: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    }
    if (every > 1 || s.only)
        min_ran = 0; /* a sample of the shaders: no floor on the count */
    struct stat st;
    if (stat(argv[1], &st) != 0) {
        printf("SKIPPED: corpus not found at %s\n", argv[1]);
        return 77;
    }
    struct sb_rt_context *context = NULL;
    struct sb_error error = { 0 };
    struct sb_rt_context_options context_options = { 0 };
    if (sb_rt_context_create(&context_options, &context, &error) != SB_SUCCESS) {
        printf("SKIPPED: no Vulkan device: %s\n", error.message);
        return 77;
    }
    /* Keep lavapipe loaded after the context goes (LeakSanitizer: tests/validate/CMakeLists.txt). */
    (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD);
    static char *paths[MAX_SHADERS];
    static char types[MAX_SHADERS][3];
    uint32_t n = corpus_shaders(argv[1], "cs", every, paths, types);
    struct figures f = { 0 };
    char device[128]; /* the context may be replaced (run_mutant) */
    snprintf(device, sizeof(device), "%s", sb_rt_context_device_name(context));
    for (uint32_t i = 0; i < n && context; i++)
        if (!s.only || strstr(paths[i], s.only))
            run_shader(&context, argv[1], paths[i], &s, &f);
    print_figures(&f, device);
    int status = 0;
    if (f.missed) {
        printf("FAIL: %llu mutants changed the output beyond the bound and were not called disagree\n",
               (unsigned long long)f.missed);
        status = 1;
    }
    if (f.ran < min_ran) {
        printf("FAIL: %llu mutants ran, fewer than the %llu wanted\n", (unsigned long long)f.ran,
               (unsigned long long)min_ran);
        status = 1;
    }
    sb_rt_context_destroy(context);
    for (uint32_t i = 0; i < n; i++)
        free(paths[i]);
    return status;
}
