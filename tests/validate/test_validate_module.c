/* SPDX-License-Identifier: MIT */
/*
 * sb_validate_options::gpu_spirv and gpu_bindings (runtime/src/validate/validate_module.c):
 * a caller's SPIR-V module in place of the translation. Without a device: every malformed
 * module and binding map gives its code, byte offset and instruction index through
 * sb_validate_gpu_module_check (a short header, a wrong magic or version, a 0-word or
 * overlong instruction, an unterminated entry point name, no or a wrongly named entry
 * point, a module spirv-val rejects, a map naming an undeclared register, moving one twice
 * or putting two on one binding, a module whose variable sits where the layout has
 * nothing). With lavapipe: the translation's own words agree word for word with a plain
 * run, an FAdd->FSub mutant disagrees, and a module translated with moved bindings agrees
 * once the map says where they went.
 *
 * Usage: test_validate_module SAMPLES_DIR (saxpy_cs_5_0.dxbc, passthrough_vs_4_0.dxbc).
 * Exit 0 pass, 1 fail; the device part is skipped (and said so) without Vulkan.
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <spirv/unified1/spirv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_file.h"
#include "shaderbridge/validate.h"

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            printf("FAIL line %d: ", __LINE__);                                                    \
            printf(__VA_ARGS__);                                                                   \
            putchar('\n');                                                                         \
        }                                                                                          \
    } while (0)

/* The word index of the first instruction with opcode `op` at or after word 5 (0: none). */
static size_t find_op(const uint32_t *w, size_t count, uint32_t op)
{
    for (size_t i = 5; i < count && (w[i] >> 16); i += w[i] >> 16)
        if ((w[i] & 0xffffu) == op)
            return i;
    return 0;
}

static uint32_t instruction_index(const uint32_t *w, size_t word)
{
    uint32_t index = 0;
    for (size_t i = 5; i < word && (w[i] >> 16); i += w[i] >> 16)
        index++;
    return index;
}

/* Checks `words` as the module of `program` (with `map` of `map_count` entries). */
static enum sb_result check(const struct sb_rt_program *program, const uint32_t *words, size_t count,
                            const char *entry, const struct sb_binding_override *map, uint32_t map_count,
                            struct sb_error *error)
{
    struct sb_validate_options o = { .gpu_spirv = words, .gpu_spirv_words = count, .gpu_entry_point = entry,
                                     .gpu_bindings = map, .gpu_binding_count = map_count };
    memset(error, 0, sizeof(*error));
    return sb_validate_gpu_module_check(program, &o, error);
}

static uint32_t *copy_words(const struct sb_translation *t)
{
    uint32_t *w = malloc(t->word_count * 4);
    if (w)
        memcpy(w, t->words, t->word_count * 4);
    return w;
}

/* Header and stream: codes, offsets, instruction indices. */
static void malformed_modules(const struct sb_rt_program *program)
{
    const struct sb_translation *t = program->translation;
    size_t n = t->word_count;
    uint32_t *w = copy_words(t);
    struct sb_error e;
    if (!w)
        return;
    CHECK(sb_validate_gpu_module_check(program, NULL, &e) == SB_SUCCESS, "no options: nothing to check");
    CHECK(check(program, w, n, NULL, NULL, 0, &e) == SB_SUCCESS, "own module: %s", e.message);
    CHECK(check(program, w, 4, NULL, NULL, 0, &e) == SB_ERROR_TRUNCATED && e.offset == 0, "4 words: %s", e.message);

    w[0] = 0x12345678u;
    CHECK(check(program, w, n, NULL, NULL, 0, &e) == SB_ERROR_BAD_MAGIC && e.offset == 0 &&
              strstr(e.message, "0x12345678"), "bad magic: %s", e.message);
    w[0] = 0x03022307u;
    CHECK(check(program, w, n, NULL, NULL, 0, &e) == SB_ERROR_BAD_MAGIC && strstr(e.message, "byte order"),
          "swapped magic: %s", e.message);
    w[0] = SpvMagicNumber;

    w[1] = 0x00020000u;
    CHECK(check(program, w, n, NULL, NULL, 0, &e) == SB_ERROR_BAD_VERSION && e.offset == 4, "version 2.0: %s",
          e.message);
    w[1] = t->words[1];

    w[5] &= 0xffffu; /* a 0-word first instruction */
    CHECK(check(program, w, n, NULL, NULL, 0, &e) == SB_ERROR_BAD_SIZE && e.offset == 20 && e.instr == 0,
          "0-word instruction: %s (offset %llu instr %u)", e.message, (unsigned long long)e.offset, e.instr);
    w[5] = t->words[5];

    size_t last = 5;
    for (size_t i = 5; i < n; i += w[i] >> 16)
        last = i;
    w[last] += 1u << 16; /* one word longer than the module */
    CHECK(check(program, w, n, NULL, NULL, 0, &e) == SB_ERROR_TRUNCATED && e.offset == last * 4 &&
              e.instr == instruction_index(w, last), "overlong last instruction: %s", e.message);
    w[last] = t->words[last];

    size_t ep = find_op(w, n, SpvOpEntryPoint);
    CHECK(ep != 0, "the translation has an OpEntryPoint");
    w[ep] = (4u << 16) | SpvOpEntryPoint; /* ends inside "main": no NUL */
    CHECK(check(program, w, n, NULL, NULL, 0, &e) == SB_ERROR_BAD_STRING && e.offset == (ep + 3) * 4,
          "unterminated name: %s (offset %llu)", e.message, (unsigned long long)e.offset);
    w[ep] = t->words[ep];
    w[ep + 1] = SpvExecutionModelVertex;
    CHECK(check(program, w, n, NULL, NULL, 0, &e) == SB_ERROR_INVALID_ARGUMENT && strstr(e.message, "GLCompute"),
          "no compute entry point: %s", e.message);
    w[ep + 1] = t->words[ep + 1];
    CHECK(check(program, w, n, "other", NULL, 0, &e) == SB_ERROR_INVALID_ARGUMENT && strstr(e.message, "'other'"),
          "entry point 'other': %s", e.message);
    CHECK(check(program, w, n, "main", NULL, 0, &e) == SB_SUCCESS, "entry point 'main': %s", e.message);

    size_t fadd = find_op(w, n, SpvOpFAdd);
    CHECK(fadd != 0, "saxpy's module has an OpFAdd");
    w[fadd] = (w[fadd] & 0xffff0000u) | SpvOpIAdd; /* integer add of floats */
    CHECK(check(program, w, n, NULL, NULL, 0, &e) == SB_ERROR_SPIRV_INVALID, "IAdd of floats: %s", e.message);
    free(w);
}

/* Maps against the default scheme (cb0 0, t0 32, u0 160). */
static void malformed_maps(const struct sb_rt_program *program)
{
    const struct sb_translation *t = program->translation;
    struct sb_error e;
    struct sb_binding_override map[2] = {
        { .resource_class = SB_IR_RESOURCE_UAV, .register_index = 5, .set = 0, .binding = 3 },
        { .resource_class = SB_IR_RESOURCE_UAV, .register_index = 0, .set = 0, .binding = 160 },
    };
    CHECK(check(program, t->words, t->word_count, NULL, map, 1, &e) == SB_ERROR_RUN_BINDING &&
              strstr(e.message, "entry 0") && strstr(e.message, "u5"), "undeclared u5: %s", e.message);
    map[0] = map[1];
    CHECK(check(program, t->words, t->word_count, NULL, map, 2, &e) == SB_ERROR_RUN_BINDING &&
              strstr(e.message, "twice"), "u0 twice: %s", e.message);
    CHECK(check(program, t->words, t->word_count, NULL, map, 1, &e) == SB_SUCCESS, "u0 where it is: %s", e.message);
    map[0].binding = 32; /* t0's */
    CHECK(check(program, t->words, t->word_count, NULL, map, 1, &e) == SB_ERROR_RUN_BINDING &&
              strstr(e.message, "share set 0 binding 32"), "u0 onto t0: %s", e.message);
    CHECK(check(program, t->words, t->word_count, NULL, NULL, 1, &e) == SB_ERROR_INVALID_ARGUMENT,
          "a count without a map: %s", e.message);
}

/* saxpy translated with u0 at set 1 binding 7: *out (free with sb_translation_destroy). */
static struct sb_translation *moved_translation(const uint8_t *bytes, size_t size)
{
    static const struct sb_binding_override moved = { .resource_class = SB_IR_RESOURCE_UAV, .set = 1,
                                                      .binding = 7 };
    const struct sb_translate_options options = { .target_env = SB_TARGET_VULKAN_1_1, .binding_override_count = 1,
                                                  .binding_overrides = &moved };
    struct sb_translation *t = NULL;
    struct sb_error e = { 0 };
    CHECK(sb_translate(bytes, size, &options, &t, &e) == SB_SUCCESS, "translate with u0 moved: %s", e.message);
    return t;
}

static void moved_without_map(const struct sb_rt_program *program, const struct sb_translation *moved)
{
    struct sb_error e;
    const struct sb_binding_override map = { .resource_class = SB_IR_RESOURCE_UAV, .set = 1, .binding = 7 };
    CHECK(check(program, moved->words, moved->word_count, NULL, NULL, 0, &e) == SB_ERROR_RUN_BINDING &&
              strstr(e.message, "set 1 binding 7"), "moved module, no map: %s", e.message);
    size_t at = e.offset / 4;
    CHECK(at > 5 && at < moved->word_count && (moved->words[at] & 0xffffu) == SpvOpVariable,
          "the offset %llu is the variable's OpVariable", (unsigned long long)e.offset);
    CHECK(check(program, moved->words, moved->word_count, NULL, &map, 1, &e) == SB_SUCCESS,
          "moved module with its map: %s", e.message);
}

static bool same_words(const struct sb_rt_inputs *a, const struct sb_rt_inputs *b)
{
    if (a->count != b->count)
        return false;
    for (uint32_t i = 0; i < a->count; i++)
        if (a->resources[i].size != b->resources[i].size ||
            memcmp(a->resources[i].data, b->resources[i].data, a->resources[i].size))
            return false;
    return true;
}

static void on_device(struct sb_rt_context *c, const struct sb_rt_program *program,
                      const struct sb_rt_program *vs, const struct sb_translation *moved)
{
    const struct sb_translation *t = program->translation;
    struct sb_validate_options o = { .inputs = { .seed = 1 } };
    struct sb_validate_report *plain = NULL, *own = NULL, *mutant = NULL, *remapped = NULL, *bad = NULL;
    struct sb_error e = { 0 };
    CHECK(sb_validate(c, program, &o, &plain, &e) == SB_SUCCESS, "plain validate: %s", e.message);
    o.gpu_spirv = t->words;
    o.gpu_spirv_words = t->word_count;
    CHECK(sb_validate(c, program, &o, &own, &e) == SB_SUCCESS, "own words: %s", e.message);
    if (plain && own) {
        CHECK(own->verdict == SB_VALIDATE_AGREE && own->words_compared == plain->words_compared &&
                  own->words_compared == 16385, "own words agree on %llu words (plain %llu)",
              (unsigned long long)own->words_compared, (unsigned long long)plain->words_compared);
        CHECK(same_words(own->gpu, plain->gpu), "own words: the device wrote what the plain run did");
    }

    uint32_t *w = copy_words(t);
    size_t fadd = w ? find_op(w, t->word_count, SpvOpFAdd) : 0;
    if (fadd)
        w[fadd] = (w[fadd] & 0xffff0000u) | SpvOpFSub;
    o.gpu_spirv = w;
    CHECK(fadd && sb_validate(c, program, &o, &mutant, &e) == SB_SUCCESS, "FAdd->FSub mutant: %s", e.message);
    /* saxpy: u0[i] = a * x[i] + y[i] for 64 threads: every written float moves. */
    if (mutant)
        CHECK(mutant->verdict == SB_VALIDATE_DISAGREE && mutant->unexplained == 64 && mutant->mismatch_count == 64,
              "mutant: %s with %llu unexplained of %llu", sb_validate_verdict_name(mutant->verdict),
              (unsigned long long)mutant->unexplained, (unsigned long long)mutant->mismatch_count);

    const struct sb_binding_override map = { .resource_class = SB_IR_RESOURCE_UAV, .set = 1, .binding = 7 };
    o.gpu_spirv = moved ? moved->words : NULL;
    o.gpu_spirv_words = moved ? moved->word_count : 0;
    o.gpu_bindings = &map;
    o.gpu_binding_count = 1;
    CHECK(moved && sb_validate(c, program, &o, &remapped, &e) == SB_SUCCESS, "moved with map: %s", e.message);
    if (remapped && plain)
        CHECK(remapped->verdict == SB_VALIDATE_AGREE && same_words(remapped->gpu, plain->gpu),
              "moved with map: %s", remapped->reason);

    o.gpu_bindings = NULL;
    o.gpu_binding_count = 0;
    CHECK(moved && sb_validate(c, program, &o, &bad, &e) == SB_ERROR_RUN_BINDING && !bad,
          "moved without map fails before running: %s", e.message);
    o.gpu_spirv = t->words;
    o.gpu_spirv_words = t->word_count;
    CHECK(vs && sb_validate(c, vs, &o, &bad, &e) == SB_ERROR_INVALID_ARGUMENT && !bad &&
              strstr(e.message, "Vertex"), "a compute module for a vertex program: %s", e.message);
    free(w);
    sb_validate_report_destroy(plain);
    sb_validate_report_destroy(own);
    sb_validate_report_destroy(mutant);
    sb_validate_report_destroy(remapped);
}

static struct sb_rt_program *load(const char *dir, const char *name, uint8_t **bytes, size_t *size)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    *bytes = sb_test_read_file(path, size);
    struct sb_rt_program *p = NULL;
    struct sb_error e = { 0 };
    CHECK(*bytes && sb_rt_program_load(*bytes, *size, NULL, &p, &e) == SB_SUCCESS, "load %s: %s", path, e.message);
    return p;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_validate_module SAMPLES_DIR\n");
        return 2;
    }
    uint8_t *cs_bytes = NULL, *vs_bytes = NULL;
    size_t cs_size = 0, vs_size = 0;
    struct sb_rt_program *cs = load(argv[1], "saxpy_cs_5_0.dxbc", &cs_bytes, &cs_size);
    struct sb_rt_program *vs = load(argv[1], "passthrough_vs_4_0.dxbc", &vs_bytes, &vs_size);
    struct sb_translation *moved = cs_bytes ? moved_translation(cs_bytes, cs_size) : NULL;
    if (cs) {
        malformed_modules(cs);
        malformed_maps(cs);
        if (moved)
            moved_without_map(cs, moved);
    }
    struct sb_rt_context *c = NULL;
    struct sb_error e = { 0 };
    struct sb_rt_context_options context_options = { .validation = true };
    if (sb_rt_context_create(&context_options, &c, &e) != SB_SUCCESS) {
        printf("device part SKIPPED: no Vulkan device: %s\n", e.message);
    } else {
        (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD); /* LeakSanitizer: see test_runtime_dispatch.c */
        if (cs)
            on_device(c, cs, vs, moved);
        CHECK(sb_rt_context_validation_errors(c) == 0, "validation-layer errors: %s",
              sb_rt_context_first_validation_error(c));
        sb_rt_context_destroy(c);
    }
    sb_translation_destroy(moved);
    sb_rt_program_destroy(cs);
    sb_rt_program_destroy(vs);
    free(cs_bytes);
    free(vs_bytes);
    printf("validate_module: %d failures\n", failures);
    return failures ? 1 : 0;
}
