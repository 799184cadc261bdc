/* SPDX-License-Identifier: MIT */
/*
 * vkd3d_differential (issue #5 §5): corpus compute shaders translated by an
 * independent implementation, vkd3d-shader, and by us; both SPIR-V modules
 * run on the Vulkan device (lavapipe) with the same seeded inputs, and their
 * UAV words are compared with each other and with our CPU interpreter.
 *
 * vkd3d-shader is given our binding of every register (its interface info),
 * so one set of resources serves both modules. vkd3d-shader translates, and
 * its module runs, in a forked child with a Vulkan context of its own:
 * vkd3d-shader aborts on a few shaders, and lavapipe's compiler crashes on
 * some of its modules. vkd3d-shader 1.2 declares
 * raw and structured buffers as texel buffers of 32-bit uints (SRVs uniform,
 * UAVs storage) where we use storage buffers, so its module runs with those
 * descriptor types over the same bytes. Shaders vkd3d 1.2 cannot take are
 * left out and counted: descriptor arrays (it supports none), UAV counters
 * (its counters are separate texel buffers), class linkage.
 *
 * Outcomes per shader: agree (vkd3d = ours = interpreter), vkd3d-differs
 * (vkd3d's module disagrees with ours and the interpreter, which agree),
 * ours-differs (vkd3d and the interpreter agree, our GPU module does not),
 * all-differ, vkd3d-failed (vkd3d-shader rejects or crashes on it), not-run
 * (either side cannot run it), skipped (the cases above). vkd3d-failed
 * includes modules that fail SPIRV-Tools' validator: they are never run
 * (lavapipe's compiler crashes on some of them). The acceptance
 * measure is agree / (shaders vkd3d translates and both run). Disagreements
 * are listed in an expected-outcome list (path, outcome, cause) written by
 *   build/tests/validate/test_vkd3d_differential ../shared/corpus \
 *       tests/validate/vkd3d_expected.tsv --write-expected tests/validate/vkd3d_expected.tsv
 *
 * --every N runs every Nth shader (the sanitizer build uses it to stay within CI time).
 * Exit: 0 as listed, 1 otherwise, 77 without corpus, Vulkan or vkd3d-shader.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dlfcn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vkd3d_shader.h>

#include "corpus_list.h"
#include "test_file.h"
#include "shaderbridge/validate.h"
#include "translator/ir.h"

/* VkDescriptorType values (the runtime keeps Vulkan out of its public headers). */
enum { VK_UNIFORM_TEXEL_BUFFER = 4, VK_STORAGE_TEXEL_BUFFER = 5 };

enum outcome { AGREE, VKD3D_DIFFERS, OURS_DIFFERS, ALL_DIFFER, VKD3D_FAILED, NOT_RUN, SKIPPED, OUTCOME_COUNT };
static const char *const outcome_names[OUTCOME_COUNT] = {
    "agree", "vkd3d-differs", "ours-differs", "all-differ", "vkd3d-failed", "not-run", "skipped",
};

struct entry {
    char *path;
    enum outcome outcome;
    char cause[400];
};

static const struct sb_ir_resource *declaration_of(const struct sb_ir_program *ir,
                                                   const struct sb_translated_binding *b)
{
    for (uint32_t i = 0; i < ir->resource_count; i++) {
        const struct sb_ir_resource *r = &ir->resources[i];
        if (r->resource_class == b->resource_class && r->space == b->space && r->lower_bound == b->lower_bound)
            return r;
    }
    return NULL;
}

static bool is_buffer(const struct sb_ir_resource *r)
{
    return r->resource_class == SB_IR_RESOURCE_CBV || r->kind != SB_IR_RESOURCE_KIND_TYPED ||
           r->dimension == 1;
}

/* Why vkd3d-shader 1.2 cannot take this program with our bindings, or NULL. */
static const char *skip_reason(const struct sb_rt_program *p)
{
    if (p->ir->interface_count)
        return "class linkage";
    for (uint32_t i = 0; i < p->translation->binding_count; i++) {
        const struct sb_translated_binding *b = &p->translation->bindings[i];
        if (b->count != 1)
            return "a descriptor array";
        if (b->has_counter)
            return "a UAV counter";
        if (!declaration_of(p->ir, b))
            return "a binding without declaration";
    }
    return NULL;
}

/* What the child reports before any result bytes. */
struct child_header {
    int32_t status;            /* 0 ran; else an outcome (VKD3D_FAILED, NOT_RUN) */
    uint32_t validation_errors;
    char message[320];
};

/* vkd3d-shader's module for `p` with our bindings; false with `why` filled. */
static bool vkd3d_translate(const struct sb_rt_program *p, const void *dxbc, size_t size,
                            struct vkd3d_shader_code *code, char *why, size_t why_size)
{
    const struct sb_translation *t = p->translation;
    struct vkd3d_shader_resource_binding *bindings = calloc(t->binding_count + 1, sizeof(*bindings));
    if (!bindings)
        return snprintf(why, why_size, "out of memory"), false;
    static const enum vkd3d_shader_descriptor_type types[] = {
        [SB_IR_RESOURCE_CBV] = VKD3D_SHADER_DESCRIPTOR_TYPE_CBV,
        [SB_IR_RESOURCE_SRV] = VKD3D_SHADER_DESCRIPTOR_TYPE_SRV,
        [SB_IR_RESOURCE_SAMPLER] = VKD3D_SHADER_DESCRIPTOR_TYPE_SAMPLER,
        [SB_IR_RESOURCE_UAV] = VKD3D_SHADER_DESCRIPTOR_TYPE_UAV,
    };
    for (uint32_t i = 0; i < t->binding_count; i++) {
        const struct sb_translated_binding *b = &t->bindings[i];
        bindings[i] = (struct vkd3d_shader_resource_binding){
            .type = types[b->resource_class & 3], .register_space = b->space,
            .register_index = b->lower_bound, .shader_visibility = VKD3D_SHADER_VISIBILITY_ALL,
            .flags = is_buffer(declaration_of(p->ir, b)) ? VKD3D_SHADER_BINDING_FLAG_BUFFER
                                                         : VKD3D_SHADER_BINDING_FLAG_IMAGE,
            .binding = { .set = b->set, .binding = b->binding, .count = 1 },
        };
    }
    struct vkd3d_shader_spirv_target_info target = {
        .type = VKD3D_SHADER_STRUCTURE_TYPE_SPIRV_TARGET_INFO,
        .entry_point = "main",
        .environment = VKD3D_SHADER_SPIRV_ENVIRONMENT_VULKAN_1_0,
    };
    struct vkd3d_shader_interface_info interface = {
        .type = VKD3D_SHADER_STRUCTURE_TYPE_INTERFACE_INFO, .next = &target,
        .bindings = bindings, .binding_count = t->binding_count,
    };
    struct vkd3d_shader_compile_info info = {
        .type = VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO, .next = &interface,
        .source = { dxbc, size }, .source_type = VKD3D_SHADER_SOURCE_DXBC_TPF,
        .target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY, .log_level = VKD3D_SHADER_LOG_NONE,
    };
    char *messages = NULL;
    int result = vkd3d_shader_compile(&info, code, &messages);
    vkd3d_shader_free_messages(messages);
    free(bindings);
    if (result < 0 || code->size % 4 || !code->size)
        return snprintf(why, why_size, "vkd3d-shader failed to translate (%d)", result), false;
    return true;
}

/*
 * The child: vkd3d-shader translates (it aborts on some inputs), SPIRV-Tools checks its
 * module (lavapipe's compiler crashes on some invalid ones), and a context of its own runs
 * it on `inputs` (lavapipe may still crash on a valid module). The header, then each
 * UAV's counter and data, go back through `fd`.
 */
static void child_run(int fd, const struct sb_rt_program *p, const void *dxbc, size_t size,
                      struct sb_rt_inputs *inputs)
{
    struct child_header header = { .status = 0 };
    struct vkd3d_shader_code code = { 0 };
    struct sb_error error = { 0 };
    struct sb_rt_context *context = NULL;
    struct sb_rt_context_options options = { .validation = true };
    if (!vkd3d_translate(p, dxbc, size, &code, header.message, sizeof(header.message))) {
        header.status = VKD3D_FAILED;
    } else if (sb_spirv_validate(code.code, code.size / 4, SB_TARGET_VULKAN_1_0, &error) != SB_SUCCESS) {
        header.status = VKD3D_FAILED;
        snprintf(header.message, sizeof(header.message), "vkd3d-shader's SPIR-V is invalid: %s", error.message);
    }
    /* A marker first: 'T' translated and valid, so a crash from here on is the device's. */
    if (!sb_test_write_all(fd, header.status ? "F" : "T", 1))
        _exit(1);
    if (header.status) {
        /* nothing to run */
    } else if (sb_rt_context_create(&options, &context, &error) != SB_SUCCESS) {
        header.status = NOT_RUN;
        snprintf(header.message, sizeof(header.message), "%s", error.message);
    } else {
        /* vkd3d's module with our bindings, its descriptor types for raw/structured buffers. */
        struct sb_translation theirs = *p->translation;
        struct sb_translated_binding *bindings = calloc(theirs.binding_count + 1, sizeof(*bindings));
        for (uint32_t i = 0; bindings && i < theirs.binding_count; i++) {
            bindings[i] = theirs.bindings[i];
            const struct sb_ir_resource *r = declaration_of(p->ir, &bindings[i]);
            if (r && r->resource_class != SB_IR_RESOURCE_CBV && r->kind != SB_IR_RESOURCE_KIND_TYPED)
                bindings[i].descriptor_type = r->resource_class == SB_IR_RESOURCE_UAV ? VK_STORAGE_TEXEL_BUFFER
                                                                                      : VK_UNIFORM_TEXEL_BUFFER;
        }
        theirs.bindings = bindings;
        theirs.words = code.code;
        theirs.word_count = code.size / 4;
        theirs.capability_origin_count = 0; /* our module's origins, not vkd3d's */
        theirs.capability_origins = NULL;
        /* Raw and structured buffers behind texel-buffer descriptors: uint texels. */
        for (uint32_t i = 0; i < inputs->count; i++) {
            struct sb_rt_resource *res = &inputs->resources[i];
            if ((res->resource_class == SB_IR_RESOURCE_SRV || res->resource_class == SB_IR_RESOURCE_UAV) &&
                !res->dimension) {
                res->format = SB_RT_FORMAT_R32_UINT;
                res->width = (uint32_t)(res->size / 4);
            }
        }
        const uint32_t groups[3] = { 1, 1, 1 };
        if (!bindings || sb_rt_dispatch(context, &theirs, inputs->resources, inputs->count, groups, NULL,
                                        &error) != SB_SUCCESS) {
            header.status = NOT_RUN;
            snprintf(header.message, sizeof(header.message), "vkd3d's module: %s: %s",
                     sb_result_name(error.code), error.message);
        }
        header.validation_errors = sb_rt_context_validation_errors(context);
    }
    bool ok = sb_test_write_all(fd, &header, sizeof(header));
    for (uint32_t i = 0; ok && header.status == 0 && i < inputs->count; i++) {
        const struct sb_rt_resource *res = &inputs->resources[i];
        if (res->resource_class == SB_IR_RESOURCE_UAV)
            ok = sb_test_write_all(fd, &res->counter, 4) && sb_test_write_all(fd, res->data, res->size);
    }
    _exit(ok ? 0 : 1);
}

/* Runs vkd3d's module in a child on `inputs` (results written back); the outcome, or -1 when it ran. */
static int vkd3d_run(const struct sb_rt_program *p, const void *dxbc, size_t size, struct sb_rt_inputs *inputs,
                     uint32_t *validation_errors, char *why, size_t why_size)
{
    int fds[2];
    if (pipe(fds) != 0)
        return snprintf(why, why_size, "pipe failed"), NOT_RUN;
    fflush(stdout);
    pid_t child = fork();
    if (child < 0)
        return snprintf(why, why_size, "fork failed"), NOT_RUN;
    if (child == 0) {
        close(fds[0]);
        child_run(fds[1], p, dxbc, size, inputs);
    }
    close(fds[1]);
    struct child_header header;
    char marker = 0;
    bool got = sb_test_read_all(fds[0], &marker, 1) && sb_test_read_all(fds[0], &header, sizeof(header));
    bool translated = marker == 'T';
    for (uint32_t i = 0; got && header.status == 0 && i < inputs->count; i++) {
        struct sb_rt_resource *res = &inputs->resources[i];
        if (res->resource_class == SB_IR_RESOURCE_UAV)
            got = sb_test_read_all(fds[0], &res->counter, 4) && sb_test_read_all(fds[0], res->data, res->size);
    }
    close(fds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    if (WIFSIGNALED(status))
        return snprintf(why, why_size, "%s crashed (signal %d)",
                        translated ? "lavapipe running vkd3d-shader's (valid) module" : "vkd3d-shader",
                        WTERMSIG(status)),
               translated ? NOT_RUN : VKD3D_FAILED;
    if (!got)
        return snprintf(why, why_size, "the vkd3d child ended without a result"), NOT_RUN;
    *validation_errors += header.validation_errors;
    if (header.status)
        return snprintf(why, why_size, "%s", header.message), header.status;
    return -1;
}

/* The tolerance between any two of the three results: the one validation used before its
 * verdicts (issue #14), kept explicitly because no interpreter bounds exist between two device
 * modules, and vkd3d_expected.tsv was measured with it. */
#define DIFFERENTIAL_FLOAT_ULPS 64u

static uint64_t differing_words(const struct sb_rt_inputs *a, const struct sb_rt_inputs *b,
                                char *first, size_t first_size)
{
    uint64_t differ = 0;
    for (uint32_t i = 0; i < a->count; i++) {
        const struct sb_rt_resource *ra = &a->resources[i], *rb = &b->resources[i];
        if (ra->resource_class != SB_IR_RESOURCE_UAV)
            continue;
        const uint32_t *wa = ra->data, *wb = rb->data;
        for (uint64_t w = 0; w < ra->size / 4; w++) {
            uint32_t kind = a->word_kinds[i] ? a->word_kinds[i][w] : a->uniform_kind[i];
            if (kind == SB_RT_WORD_DOUBLE_LOW || kind == SB_RT_WORD_DOUBLE_HIGH)
                kind = SB_RT_WORD_UINT;
            if (!sb_validate_words_agree(kind, wa[w], wb[w], DIFFERENTIAL_FLOAT_ULPS)) {
                if (!differ)
                    snprintf(first, first_size, "u%u byte %llu: 0x%08x vs 0x%08x", ra->register_index,
                             (unsigned long long)w * 4, wa[w], wb[w]);
                differ++;
            }
        }
    }
    return differ;
}

static uint32_t vkd3d_validation_errors;

static void run_one(struct sb_rt_context *context, const char *corpus, struct entry *e)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/dxbc/%s", corpus, e->path);
    size_t size = 0;
    char *bytes = read_file(path, &size);
    struct sb_rt_program *program = NULL;
    struct sb_error error = { 0 };
    if (!bytes || sb_rt_program_load(bytes, size, NULL, &program, &error) != SB_SUCCESS) {
        e->outcome = NOT_RUN;
        snprintf(e->cause, sizeof(e->cause), "ours does not load it: %s", error.message);
        free(bytes);
        return;
    }
    const char *skip = skip_reason(program);
    struct sb_rt_inputs *base = NULL, *ours = NULL, *vkd3d = NULL, *cpu = NULL;
    const uint32_t groups[3] = { 1, 1, 1 };
    struct sb_rt_input_options options = { .seed = 1 };
    enum sb_result r = SB_SUCCESS;
    if (skip) {
        e->outcome = SKIPPED;
        snprintf(e->cause, sizeof(e->cause), "%s", skip);
        goto done;
    }
    if ((r = sb_rt_inputs_create(program, &options, &base, &error)) == SB_SUCCESS &&
        (r = sb_rt_inputs_clone(base, &ours, &error)) == SB_SUCCESS &&
        (r = sb_rt_inputs_clone(base, &vkd3d, &error)) == SB_SUCCESS)
        r = sb_rt_inputs_clone(base, &cpu, &error);
    if (r == SB_SUCCESS) {
        int outcome = vkd3d_run(program, bytes, size, vkd3d, &vkd3d_validation_errors, e->cause,
                                sizeof(e->cause));
        if (outcome >= 0) {
            e->outcome = (enum outcome)outcome;
            goto done;
        }
    }
    if (r == SB_SUCCESS)
        r = sb_interp_dispatch(program->ir, cpu->resources, cpu->count, groups, NULL, NULL, &error);
    if (r == SB_SUCCESS)
        r = sb_rt_dispatch(context, program->translation, ours->resources, ours->count, groups, NULL, &error);
    if (r != SB_SUCCESS) {
        e->outcome = NOT_RUN;
        snprintf(e->cause, sizeof(e->cause), "%s: %s", sb_result_name(error.code), error.message);
        goto done;
    }
    char first_vo[96] = "", first_vc[96] = "", first_oc[96] = "";
    uint64_t vo = differing_words(vkd3d, ours, first_vo, sizeof(first_vo));
    uint64_t vc = differing_words(vkd3d, cpu, first_vc, sizeof(first_vc));
    uint64_t oc = differing_words(ours, cpu, first_oc, sizeof(first_oc));
    if (!vo && !vc && !oc)
        e->outcome = AGREE;
    else if (!oc)
        e->outcome = VKD3D_DIFFERS;
    else if (!vc)
        e->outcome = OURS_DIFFERS;
    else
        e->outcome = ALL_DIFFER;
    if (e->outcome != AGREE)
        snprintf(e->cause, sizeof(e->cause), "vkd3d/ours %llu words (%s), vkd3d/cpu %llu, ours/cpu %llu",
                 (unsigned long long)vo, first_vo, (unsigned long long)vc, (unsigned long long)oc);
done:
    e->cause[strcspn(e->cause, "\t\r\n")] = 0;
    sb_rt_inputs_destroy(base);
    sb_rt_inputs_destroy(ours);
    sb_rt_inputs_destroy(vkd3d);
    sb_rt_inputs_destroy(cpu);
    free(bytes);
    sb_rt_program_destroy(program);
}

static int compare_expected(const struct entry *entries, uint32_t n, const char *expected_path)
{
    size_t size = 0;
    char *text = read_file(expected_path, &size);
    bool *listed = calloc(n ? n : 1, 1);
    int failures = 0;
    char *save = NULL;
    for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line && listed;
         line = strtok_r(NULL, "\n", &save)) {
        char *tab = line[0] == '#' ? NULL : strchr(line, '\t');
        if (!tab)
            continue;
        *tab = 0;
        char *outcome = tab + 1;
        outcome[strcspn(outcome, "\t")] = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (strcmp(entries[i].path, line))
                continue;
            listed[i] = true;
            if (strcmp(outcome_names[entries[i].outcome], outcome)) {
                printf("UNEXPECTED: %s is %s, listed as %s (%s)\n", entries[i].path,
                       outcome_names[entries[i].outcome], outcome, entries[i].cause);
                failures++;
            }
        }
    }
    for (uint32_t i = 0; i < n && listed; i++)
        if (!listed[i] && entries[i].outcome != AGREE) {
            printf("UNEXPECTED: %s is %s: %s\n", entries[i].path, outcome_names[entries[i].outcome],
                   entries[i].cause);
            failures++;
        }
    free(listed);
    free(text);
    return failures;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_vkd3d_differential CORPUS_DIR EXPECTED_TSV [--write-expected OUT] [--verbose]\n");
        return 2;
    }
    const char *corpus = argv[1], *expected = argv[2], *write_to = NULL;
    bool verbose = false;
    uint32_t every = 1; /* --every N: every Nth shader (the sanitizer build, for CI time) */
    setenv("VKD3D_SHADER_DEBUG", "none", 0); /* its FIXME lines would drown the report */
    for (int i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "--write-expected") && i + 1 < argc)
            write_to = argv[++i];
        else if (!strcmp(argv[i], "--verbose"))
            verbose = true;
        else if (!strcmp(argv[i], "--every") && i + 1 < argc)
            every = (uint32_t)strtoul(argv[++i], NULL, 10);
    }
    if (write_to && every > 1) {
        fprintf(stderr, "test_vkd3d_differential: --write-expected needs every shader (no --every)\n");
        return 2;
    }
    struct stat st;
    if (stat(corpus, &st) != 0) {
        printf("SKIPPED: corpus not found at %s\n", corpus);
        return 77;
    }
    struct sb_rt_context *context = NULL;
    struct sb_error error = { 0 };
    struct sb_rt_context_options context_options = { .validation = true };
    if (sb_rt_context_create(&context_options, &context, &error) != SB_SUCCESS) {
        printf("SKIPPED: no Vulkan device: %s\n", error.message);
        return 77;
    }
    /* Keep lavapipe loaded after the context goes: unloading it leaves the LLVM caches it
     * built reachable from nowhere, which LeakSanitizer reports (SB_SANITIZE builds). */
    (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD);
    static char *paths[MAX_SHADERS];
    static char types[MAX_SHADERS][3];
    uint32_t n = corpus_shaders(corpus, "cs", every, paths, types);
    struct entry *entries = calloc(n ? n : 1, sizeof(*entries));
    uint32_t counts[OUTCOME_COUNT] = { 0 };
    for (uint32_t i = 0; entries && i < n; i++) {
        entries[i].path = paths[i];
        run_one(context, corpus, &entries[i]);
        counts[entries[i].outcome]++;
        if (verbose)
            printf("%-13s %s %s\n", outcome_names[entries[i].outcome], entries[i].path, entries[i].cause);
    }
    uint32_t compared = counts[AGREE] + counts[VKD3D_DIFFERS] + counts[OURS_DIFFERS] + counts[ALL_DIFFER];
    printf("vkd3d_differential (%s, %s): %u compute shaders: %u compared, %u agree (%.1f%% of compared), "
           "%u vkd3d-differs, %u ours-differs, %u all-differ; %u vkd3d-failed, %u not-run, %u skipped; "
           "%u validation-layer errors\n",
           vkd3d_shader_get_version(NULL, NULL), sb_rt_context_device_name(context), n, compared,
           counts[AGREE], compared ? 100.0 * counts[AGREE] / compared : 0.0, counts[VKD3D_DIFFERS],
           counts[OURS_DIFFERS], counts[ALL_DIFFER], counts[VKD3D_FAILED], counts[NOT_RUN], counts[SKIPPED],
           sb_rt_context_validation_errors(context) + vkd3d_validation_errors);
    int status = 0;
    if (write_to) {
        FILE *f = fopen(write_to, "w");
        if (f) {
            fprintf(f, "# vkd3d_differential: corpus compute shaders where vkd3d-shader's module, ours and the\n"
                       "# interpreter do not all agree (seed 1). Generated by --write-expected; do not edit.\n"
                       "# path\toutcome\tcause\n");
            for (uint32_t i = 0; i < n; i++)
                if (entries[i].outcome != AGREE)
                    fprintf(f, "%s\t%s\t%s\n", entries[i].path, outcome_names[entries[i].outcome], entries[i].cause);
        }
        status = f && fclose(f) == 0 ? 0 : 1;
        printf("wrote %s\n", write_to);
    } else {
        int failures = entries ? compare_expected(entries, n, expected) : 1;
        printf("%d unexpected outcomes\n", failures);
        status = failures ? 1 : 0;
    }
    sb_rt_context_destroy(context);
    for (uint32_t i = 0; i < n; i++)
        free(paths[i]);
    free(entries);
    return status;
}
