/* SPDX-License-Identifier: MIT */
/*
 * The SPIR-V builder keeps its storage per thread
 * between translations (translator/src/spirv/spirv_builder_storage.c). Nothing of
 * one module may leak into the next: every shader translated on a thread that
 * has just translated other shaders, for other target environments and with
 * debug info, must give the same words, bindings and interface as on a fresh
 * thread (cold storage); and threads translating at the same time
 * must not disturb each other. Checked on the bundled samples (SAMPLES_DIR)
 * and, when present, on every corpus shader (CORPUS_DIR/dxbc/MANIFEST.tsv).
 * Exit 0 pass, 1 failure, 77 samples absent.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "shaderbridge/translate.h"
#include "test_file.h"

static int failures;

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);         \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

struct shader {
    char *name;
    uint8_t *bytes;
    size_t size;
};

struct shader_list {
    struct shader *items;
    size_t count, capacity;
};

/* One translation, flattened so two can be compared with memcmp. */
struct outcome {
    enum sb_result result;
    uint32_t *record; /* words, then bindings and interface fields */
    size_t record_count;
};

static const struct sb_translate_options option_sets[] = {
    { .target_env = SB_TARGET_VULKAN_1_1 },
    { .target_env = SB_TARGET_VULKAN_1_0, .flags = SB_TRANSLATE_DEBUG_INFO },
    { .target_env = SB_TARGET_VULKAN_1_3 },
};
#define OPTION_SETS (sizeof(option_sets) / sizeof(option_sets[0]))

static bool add_shader(struct shader_list *list, const char *path)
{
    struct shader s = { 0 };
    if (!(s.bytes = sb_test_read_file(path, &s.size)))
        return false;
    s.name = malloc(strlen(path) + 1);
    if (!s.name || (list->count == list->capacity &&
                    !(list->items = realloc(list->items,
                                            (list->capacity = list->capacity ? list->capacity * 2 : 64) *
                                                sizeof(*list->items))))) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    strcpy(s.name, path);
    list->items[list->count++] = s;
    return true;
}

static void push(uint32_t **record, size_t *count, size_t *capacity, uint32_t value)
{
    if (*count == *capacity) {
        *capacity = *capacity ? *capacity * 2 : 1024;
        if (!(*record = realloc(*record, *capacity * sizeof(**record)))) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
    }
    (*record)[(*count)++] = value;
}

static struct outcome translate_one(const struct shader *s, const struct sb_translate_options *options)
{
    struct outcome o = { 0 };
    struct sb_translation *t = NULL;
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    o.result = sb_translate(s->bytes, s->size, options, &t, &error);
    size_t capacity = 0;
    if (o.result != SB_SUCCESS) {
        push(&o.record, &o.record_count, &capacity, (uint32_t)error.offset);
        for (const char *c = error.message; *c; c++)
            push(&o.record, &o.record_count, &capacity, (uint8_t)*c);
        return o;
    }
    for (size_t i = 0; i < t->word_count; i++)
        push(&o.record, &o.record_count, &capacity, t->words[i]);
    for (uint32_t i = 0; i < t->binding_count; i++) {
        push(&o.record, &o.record_count, &capacity, t->bindings[i].set);
        push(&o.record, &o.record_count, &capacity, t->bindings[i].binding);
        push(&o.record, &o.record_count, &capacity, t->bindings[i].descriptor_type);
    }
    for (uint32_t i = 0; i < t->input_count; i++)
        push(&o.record, &o.record_count, &capacity, t->inputs[i].location);
    for (uint32_t i = 0; i < t->output_count; i++)
        push(&o.record, &o.record_count, &capacity, t->outputs[i].location);
    sb_translation_destroy(t);
    return o;
}

static bool same(const struct outcome *a, const struct outcome *b)
{
    return a->result == b->result && a->record_count == b->record_count &&
           !memcmp(a->record, b->record, a->record_count * sizeof(uint32_t));
}

/* A fresh thread: its builder storage is empty. */
struct fresh_job {
    const struct shader *shader;
    const struct sb_translate_options *options;
    struct outcome outcome;
};

static int fresh_thread(void *arg)
{
    struct fresh_job *job = arg;
    job->outcome = translate_one(job->shader, job->options);
    return 0;
}

static struct outcome translate_fresh(const struct shader *s, const struct sb_translate_options *options)
{
    struct fresh_job job = { s, options, { 0 } };
    thrd_t thread;
    if (thrd_create(&thread, fresh_thread, &job) != thrd_success || thrd_join(thread, NULL) != thrd_success) {
        fprintf(stderr, "cannot run a thread\n");
        exit(1);
    }
    return job.outcome;
}

/* Reference outcomes: [shader][option set], each from a fresh thread. */
static struct outcome *references(const struct shader_list *list)
{
    struct outcome *ref = calloc(list->count * OPTION_SETS, sizeof(*ref));
    if (!ref) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < list->count; i++)
        for (size_t o = 0; o < OPTION_SETS; o++)
            ref[i * OPTION_SETS + o] = translate_fresh(&list->items[i], &option_sets[o]);
    return ref;
}

/* Every shader and option set in turn on one warm thread, in the given order. */
static unsigned compare_warm(const struct shader_list *list, const struct outcome *ref, bool reverse)
{
    unsigned mismatches = 0;
    for (size_t n = 0; n < list->count; n++) {
        size_t i = reverse ? list->count - 1 - n : n;
        for (size_t o = 0; o < OPTION_SETS; o++) {
            struct outcome got = translate_one(&list->items[i], &option_sets[o]);
            if (!same(&got, &ref[i * OPTION_SETS + o])) {
                if (mismatches++ < 5)
                    fprintf(stderr, "%s (option set %zu): differs after earlier translations\n",
                            list->items[i].name, o);
            }
            free(got.record);
        }
    }
    return mismatches;
}

struct warm_job {
    const struct shader_list *list;
    const struct outcome *ref;
    bool reverse;
    unsigned mismatches;
};

static int warm_thread(void *arg)
{
    struct warm_job *job = arg;
    job->mismatches = compare_warm(job->list, job->ref, job->reverse);
    return 0;
}

static void check_list(const struct shader_list *list, const char *what)
{
    int failures_before = failures;
    struct outcome *ref = references(list);
    unsigned successes = 0;
    for (size_t i = 0; i < list->count * OPTION_SETS; i++)
        successes += ref[i].result == SB_SUCCESS;
    CHECK(successes > 0);
    /* The main thread, twice in both orders: every module follows a different one. */
    CHECK(compare_warm(list, ref, false) == 0);
    CHECK(compare_warm(list, ref, true) == 0);
    /* Three threads at once, each with its own storage. */
    struct warm_job jobs[3];
    thrd_t threads[3];
    for (int k = 0; k < 3; k++) {
        jobs[k] = (struct warm_job){ list, ref, k == 1, 0 };
        CHECK(thrd_create(&threads[k], warm_thread, &jobs[k]) == thrd_success);
    }
    for (int k = 0; k < 3; k++) {
        CHECK(thrd_join(threads[k], NULL) == thrd_success);
        CHECK(jobs[k].mismatches == 0);
    }
    printf("%s: %zu shaders x %zu option sets (%u translated): %s\n", what, list->count, OPTION_SETS,
           successes, failures == failures_before ? "identical on fresh, warm and concurrent threads"
                                                  : "DIFFERENCES (above)");
    for (size_t i = 0; i < list->count * OPTION_SETS; i++)
        free(ref[i].record);
    free(ref);
}

static void free_list(struct shader_list *list)
{
    for (size_t i = 0; i < list->count; i++) {
        free(list->items[i].name);
        free(list->items[i].bytes);
    }
    free(list->items);
}

/* Corpus shaders of the manifest's program types vs..cs; false without a manifest. */
static bool load_corpus(const char *corpus, struct shader_list *list)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/dxbc/MANIFEST.tsv", corpus);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char line[8192];
    int file_col = -1, type_col = -1;
    while (fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\r\n")] = 0;
        char *cells[32];
        int n = 0;
        cells[n++] = line;
        for (char *p = line; *p && n < 32; p++)
            if (*p == '\t') {
                *p = 0;
                cells[n++] = p + 1;
            }
        if (file_col < 0) {
            for (int i = 0; i < n; i++) {
                if (!strcmp(cells[i], "file"))
                    file_col = i;
                if (!strcmp(cells[i], "program_type"))
                    type_col = i;
            }
            if (file_col < 0 || type_col < 0)
                break;
            continue;
        }
        if (n <= file_col || n <= type_col || strlen(cells[type_col]) != 2 ||
            !strstr("vs ps gs hs ds cs", cells[type_col]))
            continue;
        snprintf(path, sizeof(path), "%s/dxbc/%s", corpus, cells[file_col]);
        if (!add_shader(list, path))
            fprintf(stderr, "cannot read %s\n", path);
    }
    fclose(f);
    return list->count > 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_translate_reuse SAMPLES_DIR [CORPUS_DIR]\n");
        return 1;
    }
    static const char *const samples[] = { "saxpy_cs_5_0.dxbc", "gradient_cs_5_0.dxbc",
                                           "group_sum_cs_5_0.dxbc", "passthrough_vs_4_0.dxbc",
                                           "simple_tri.shbin" };
    struct shader_list list = { 0 };
    for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", argv[1], samples[i]);
        if (!add_shader(&list, path)) {
            printf("SKIPPED: sample %s not found\n", path);
            free_list(&list);
            return 77;
        }
    }
    check_list(&list, "samples");
    free_list(&list);

    if (argc > 2) {
        struct shader_list corpus = { 0 };
        if (load_corpus(argv[2], &corpus))
            check_list(&corpus, "corpus");
        else
            printf("SKIPPED (corpus part): corpus not found at %s\n", argv[2]);
        free_list(&corpus);
    }
    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
