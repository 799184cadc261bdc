/* SPDX-License-Identifier: MIT */
/*
 * The public translation entry points (translate.h): container bytes ->
 * sb_dxbc_parse_ex (no checksum) -> sb_ir_from_dxbc (SM4 decode and IR lowering, fused
 * for ordinary instructions) (or SHBIN bytes -> sb_shbin_parse -> sb_ir_from_pica) ->
 * the IR passes (sb_ir_run_passes, once) -> binding assignment -> SPIR-V back end
 * (sb_spv_generate, which reads only the IR) -> optional validation and
 * optimisation, the text targets (src/targets: SPIRV-Cross from the final words),
 * and the result object that owns every array and string it reports. The default binding scheme is the one documented in translate.h
 * (IR.md §Bindings); the descriptor type of each binding is decided here
 * once (sb_spv_descriptor_type, spirv/spirv_resource_util.c) and the back end declares
 * matching variables.
 */
#include "shaderbridge/translate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/dxbc.h"
#include "shaderbridge/dxbc_fxc.h"
#include "shaderbridge/shbin.h"
#include "spirv/spirv_private.h"
#include "targets/targets.h"
#include "translate_fit.h"
#include "error.h"

static const char *const env_names[] = {
    [SB_TARGET_VULKAN_1_0] = "vulkan1.0",
    [SB_TARGET_VULKAN_1_1] = "vulkan1.1",
    [SB_TARGET_VULKAN_1_2] = "vulkan1.2",
    [SB_TARGET_VULKAN_1_3] = "vulkan1.3",
};

bool sb_target_env_parse(const char *name, enum sb_target_env *out)
{
    if (!name || !out)
        return false;
    for (size_t i = 0; i < sizeof(env_names) / sizeof(env_names[0]); i++)
        if (!strcmp(name, env_names[i])) {
            *out = (enum sb_target_env)i;
            return true;
        }
    return false;
}

const char *sb_target_env_name(enum sb_target_env env)
{
    return (unsigned)env < sizeof(env_names) / sizeof(env_names[0]) ? env_names[env] : NULL;
}

/* A failure of the call as a whole: no byte of the input and no instruction to point at. */
static enum sb_result fail(struct sb_error *error, enum sb_result code, const char *message)
{
    return sb_error_set(error, code, 0, SB_ERROR_NO_INSTR, "%s", message);
}

/* ---- bindings ------------------------------------------------------------------------------------ */

/* The default window of a class: first binding and registers it covers. */
static void window(uint32_t resource_class, uint32_t *base, uint32_t *size)
{
    static const uint32_t bases[4] = { 0, 32, 16, 160 }, sizes[4] = { 16, 128, 16, 64 };
    *base = bases[resource_class & 3u];
    *size = sizes[resource_class & 3u];
}

static bool is_heap_space(uint32_t space)
{
    return space == SB_DESCRIPTOR_HEAP_SPACE || space == SB_SAMPLER_HEAP_SPACE;
}

/* The set of the SM 6.6 descriptor-heap views (translate.h, SB_DESCRIPTOR_HEAP_SPACE): the
 * one after the highest register space the other resources use. */
static uint32_t heap_descriptor_set(const struct sb_ir_resource *res, uint32_t count)
{
    uint32_t set = 0;
    for (uint32_t i = 0; i < count; i++)
        if (!is_heap_space(res[i].space) && res[i].space != UINT32_MAX && res[i].space >= set)
            set = res[i].space + 1;
    return set;
}

static void assign_bindings(struct sb_ir_resource *res, uint32_t count,
                            const struct sb_translate_options *options)
{
    uint32_t next = 288, heap_set = heap_descriptor_set(res, count);
    for (uint32_t i = 0; i < count; i++) {
        struct sb_ir_resource *r = &res[i];
        uint32_t base, size;
        window(r->resource_class, &base, &size);
        r->set = is_heap_space(r->space) ? heap_set : r->space;
        /* Sized here, before the window test, so declarations, index checks and the
         * report all see one fixed count (translate.h). */
        if (r->count == UINT32_MAX && options->unbounded_descriptor_count)
            r->count = options->unbounded_descriptor_count;
        if (r->count == 1 && r->lower_bound < size) {
            r->binding = base + r->lower_bound;
            r->counter_binding = 224 + r->lower_bound;
        } else {
            r->binding = next++;
            r->counter_binding = r->has_counter ? next++ : 0;
        }
        for (uint32_t k = 0; k < options->binding_override_count; k++) {
            const struct sb_binding_override *o = &options->binding_overrides[k];
            if (o->resource_class == r->resource_class && o->space == r->space &&
                o->register_index == r->lower_bound) {
                r->set = o->set;
                r->binding = o->binding;
                r->counter_binding = o->counter_binding;
            }
        }
    }
}

/*
 * A described device that binds fewer descriptor sets than the register spaces ask for
 * (sb_device_profile::max_bound_descriptor_sets): the sets in use keep their order and move
 * onto 0, 1, ... (bindings unchanged: each old set becomes one new set, so no two bindings
 * meet). With more distinct sets than the device binds, every resource goes to set 0 with
 * bindings numbered 0, 1, ... in declaration order (a counter right after its UAV).
 */
static enum sb_result fit_sets(struct sb_ir_resource *res, uint32_t count, const struct sb_translate_options *options,
                               struct sb_error *error)
{
    uint32_t max = options->device.described ? options->device.max_bound_descriptor_sets : 0;
    bool beyond = false;
    for (uint32_t i = 0; max && i < count; i++)
        beyond |= res[i].set >= max;
    if (!beyond)
        return SB_SUCCESS;
    uint32_t *sets = malloc(count * sizeof(*sets)), used = 0;
    if (!sets)
        return fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t i = 0; i < count; i++) {
        uint32_t at = 0;
        while (at < used && sets[at] < res[i].set)
            at++;
        if (at < used && sets[at] == res[i].set)
            continue;
        memmove(&sets[at + 1], &sets[at], (used - at) * sizeof(*sets));
        sets[at] = res[i].set;
        used++;
    }
    if (used > max) {
        uint32_t next = 0;
        for (uint32_t i = 0; i < count; i++) {
            res[i].set = 0;
            res[i].binding = next++;
            res[i].counter_binding = res[i].has_counter ? next++ : 0;
        }
    } else {
        for (uint32_t i = 0; i < count; i++) {
            uint32_t k = 0;
            while (sets[k] != res[i].set)
                k++;
            res[i].set = k;
        }
    }
    free(sets);
    return SB_SUCCESS;
}

/* ---- the result object ---------------------------------------------------------------------------- */

/* What the back end leaves in the translation's block for this file to fill: the
 * bindings and their names. */
static struct sb_translation_layout binding_part(const struct sb_ir_program *program)
{
    struct sb_translation_layout part = { .binding_count = program->resource_count };
    for (uint32_t i = 0; i < program->resource_count; i++)
        part.string_bytes += sb_translation_string_bytes(program->resources[i].name);
    return part;
}

/* Fills the bindings the back end left room for (binding_part). */
static void finish_bindings(struct sb_translation *t, const struct sb_ir_program *program)
{
    struct sb_translated_binding *bindings = (struct sb_translated_binding *)t->bindings;
    for (uint32_t i = 0; i < program->resource_count; i++) {
        const struct sb_ir_resource *r = &program->resources[i];
        struct sb_translated_binding *bd = &bindings[i];
        bd->resource_class = r->resource_class;
        bd->space = r->space;
        bd->lower_bound = r->lower_bound;
        bd->count = r->count;
        bd->set = r->set;
        bd->binding = r->binding;
        bd->has_counter = r->has_counter;
        bd->counter_binding = r->has_counter ? r->counter_binding : 0;
        bd->descriptor_type = sb_spv_descriptor_type(r);
        bd->view_format = r->texel_memory ? 98u : 0u; /* VK_FORMAT_R32_UINT: one element per DWORD */
        bd->name = sb_translation_block_string(t, r->name);
    }
}

void sb_translation_destroy(struct sb_translation *translation)
{
    sb_translation_block_destroy(translation);
}

/*
 * SPIRV-Tools reports positions in the generated words; a caller of
 * sb_translate expects offsets into the bytes it passed. The input offset
 * becomes 0 (the module as a whole) and the word position moves into the
 * message, so the offset contract of struct sb_error holds.
 */
static enum sb_result rebase_spirv_error(enum sb_result r, struct sb_error *error)
{
    if (!error)
        return r;
    char message[sizeof(error->message)];
    int prefix = snprintf(message, sizeof(message), "generated SPIR-V, word %llu: ",
                          (unsigned long long)(error->offset / 4));
    size_t used = prefix > 0 && (size_t)prefix < sizeof(message) ? (size_t)prefix : 0;
    const char *end = memchr(error->message, 0, sizeof(error->message));
    size_t length = end ? (size_t)(end - error->message) : sizeof(error->message) - 1;
    if (length > sizeof(message) - 1 - used)
        length = sizeof(message) - 1 - used;
    memcpy(message + used, error->message, length);
    message[used + length] = 0;
    memcpy(error->message, message, sizeof(message));
    error->offset = 0;
    return r;
}

/* Runs the optional SPIRV-Tools steps on the finished words. */
static enum sb_result post_process(struct sb_translation *pub, const struct sb_translate_options *options,
                                   struct sb_error *error)
{
    enum sb_result r;
    if (options->flags & SB_TRANSLATE_VALIDATE) {
        r = sb_spirv_validate(pub->words, pub->word_count, options->target_env, error);
        if (r != SB_SUCCESS)
            return rebase_spirv_error(r, error);
    }
    if (options->flags & SB_TRANSLATE_OPTIMIZE) {
        uint32_t *words = NULL;
        size_t count = 0;
        r = sb_spirv_optimize(pub->words, pub->word_count, options->target_env, &words, &count, error);
        if (r != SB_SUCCESS)
            return rebase_spirv_error(r, error);
        sb_translation_block_replace_words(pub, words, count);
        r = sb_translation_prune_interface(pub);
        if (r != SB_SUCCESS)
            return r == SB_ERROR_OUT_OF_MEMORY ? fail(error, r, "out of memory")
                                               : fail(error, r, "optimised module is malformed");
    }
    return SB_SUCCESS;
}

/*
 * sb_translate_ir_container: the container's facts replace those the program carries
 * (sb_ir_program::container_flags, sb_ir_resource::cb_*), as if its front end had read
 * them. `res` is the translation's own copy of the resources; the variables borrow the
 * container's strings (it outlives the call) and live in `scratch`.
 */
static enum sb_result apply_container(struct sb_ir_program *copy, struct sb_ir_resource *res,
                                      const struct sb_dxbc *container, struct sb_arena *scratch,
                                      struct sb_error *error)
{
    copy->container_flags = sb_ir_container_flags(container);
    size_t total = 0;
    for (uint32_t i = 0; i < copy->resource_count; i++) {
        const struct sb_dxbc_rdef_cbuffer *cb =
            res[i].resource_class == SB_IR_RESOURCE_CBV ? sb_ir_rdef_cbuffer(container, res[i].name) : NULL;
        res[i].cb_described = cb != NULL;
        res[i].cb_variables = NULL;
        res[i].cb_variable_count = cb ? sb_ir_cb_variables(cb, NULL) : 0;
        total += res[i].cb_variable_count;
    }
    if (!total)
        return SB_SUCCESS;
    struct sb_ir_cb_variable *v = sb_arena_alloc_uninit(scratch, total, sizeof(*v));
    if (!v)
        return fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t i = 0; i < copy->resource_count; i++) {
        if (!res[i].cb_variable_count)
            continue;
        res[i].cb_variables = v;
        v += sb_ir_cb_variables(sb_ir_rdef_cbuffer(container, res[i].name), v);
    }
    return SB_SUCCESS;
}

/*
 * One translation: the IR passes (sb_ir_run_passes: PICA programs are lowered here,
 * once), binding assignment on a copy, the back end, the result object, SPIRV-Tools.
 * `container` (sb_translate_ir_container only) supplies the container facts.
 */
static enum sb_result translate_program(const struct sb_ir_program *program,
                                        const struct sb_translate_options *options,
                                        const struct sb_dxbc *container,
                                        struct sb_translation **out, struct sb_error *error)
{
    static const struct sb_translate_options defaults = { .target_env = SB_TARGET_VULKAN_1_1 };
    if (out)
        *out = NULL;
    if (!program || !out)
        return fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_translate_ir: program and out are required");
    if (!options)
        options = &defaults;
    if ((unsigned)options->target_env > SB_TARGET_VULKAN_1_3)
        return fail(error, SB_ERROR_INVALID_ARGUMENT, "unknown target environment");
    if ((unsigned)options->target > SB_TRANSLATE_TARGET_HLSL)
        return fail(error, SB_ERROR_INVALID_ARGUMENT, "unknown translation target");
    if (options->binding_override_count && !options->binding_overrides)
        return fail(error, SB_ERROR_INVALID_ARGUMENT, "binding overrides missing");
    if (options->storage_format_count && !options->storage_formats)
        return fail(error, SB_ERROR_INVALID_ARGUMENT, "storage formats missing");

    struct sb_ir_program *passed = NULL;
    enum sb_result r = sb_ir_run_passes(program, 0, &passed, error);
    if (r != SB_SUCCESS)
        return r;
    /* A lowered PICA program names its -g source file after its format. */
    const char *source_name = passed ? "shader.shbin" : NULL;
    if (passed)
        program = passed;

    /* The translation's working memory, released at once below; an arena's blocks stay
     * with the thread, so a thread that translated before allocates nothing here. */
    struct sb_arena *scratch = sb_arena_create();
    struct sb_translation *t = NULL;
    if (!scratch) {
        r = fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    /* Bindings are assigned on a copy: the caller's program is not touched. */
    struct sb_ir_program copy = *program;
    if (program->resource_count) {
        struct sb_ir_resource *res = sb_arena_alloc_uninit(scratch, program->resource_count, sizeof(*res));
        if (!res) {
            r = fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
            goto done;
        }
        memcpy(res, program->resources, program->resource_count * sizeof(*res));
        assign_bindings(res, program->resource_count, options);
        copy.resources = res;
        if ((r = fit_sets(res, program->resource_count, options, error)) != SB_SUCCESS ||
            (r = sb_translate_fit_storage_buffers(res, program->resource_count, options, error)) != SB_SUCCESS)
            goto done;
    }
    if (container && (r = apply_container(&copy, (struct sb_ir_resource *)copy.resources, container,
                                          scratch, error)) != SB_SUCCESS)
        goto done;
    const struct sb_translation_layout bindings = binding_part(&copy);
    r = sb_spv_generate(&copy, options, source_name, scratch, &bindings, &t, error);
    if (r == SB_SUCCESS) {
        t->stage = program->stage;
        t->entry_point = "main";
        t->wave_size_min = program->wave_size_min;
        t->wave_size_max = program->wave_size_max;
        t->wave_size_preferred = program->wave_size_preferred;
        if (program->stage == SB_IR_STAGE_HULL || program->stage == SB_IR_STAGE_DOMAIN) {
            t->patch_control_points = program->input_control_points;
            t->tess_domain = program->tess_domain;
        }
        finish_bindings(t, &copy);
        r = post_process(t, options, error);
    }
    if (r == SB_SUCCESS && options->target != SB_TRANSLATE_TARGET_SPIRV)
        r = sb_target_write(t, options, error); /* SPIRV-Cross, from the final words */
    if (r == SB_SUCCESS) {
        *out = t;
        t = NULL;
    }
done:
    sb_translation_destroy(t);
    sb_arena_destroy(scratch);
    sb_ir_program_destroy(passed);
    return r;
}

enum sb_result sb_translate_ir(const struct sb_ir_program *program,
                               const struct sb_translate_options *options,
                               struct sb_translation **out, struct sb_error *error)
{
    return translate_program(program, options, NULL, out, error);
}

enum sb_result sb_translate_ir_container(const struct sb_ir_program *program,
                                         const struct sb_dxbc *container,
                                         const struct sb_translate_options *options,
                                         struct sb_translation **out, struct sb_error *error)
{
    return translate_program(program, options, container, out, error);
}

/* SHBIN bytes: parse, lower the chosen DVLE (sb_ir_from_pica), translate. */
enum sb_result sb_translate_shbin(const void *data, size_t size, uint32_t dvle,
                                  uint32_t pica_flags, const struct sb_translate_options *options,
                                  struct sb_translation **out, struct sb_error *error)
{
    if (out)
        *out = NULL;
    if (!data || !out)
        return fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_translate_shbin: data and out are required");
    if (size < 4 || memcmp(data, "DVLB", 4))
        return fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_translate_shbin: not a SHBIN (DVLB) file");
    struct sb_shbin *shbin = NULL;
    struct sb_ir_program *ir = NULL;
    enum sb_result r = sb_shbin_parse(data, size, &shbin, error);
    if (r == SB_SUCCESS && dvle >= shbin->dvle_count)
        r = fail(error, SB_ERROR_INVALID_ARGUMENT, "the SHBIN has no DVLE of that index");
    if (r == SB_SUCCESS)
        r = sb_ir_from_pica(shbin, dvle, pica_flags, &ir, error);
    if (r == SB_SUCCESS)
        r = translate_program(ir, options, NULL, out, error);
    sb_ir_program_destroy(ir);
    sb_shbin_destroy(shbin);
    return r;
}

/* Bytes of the input prefetched before parsing: see prefetch_input. */
#define PREFETCH_LIMIT 4096u

/*
 * Asks for every cache line of the input's first PREFETCH_LIMIT bytes at once. The input is
 * usually cold (an application's bytes, or the next file of a batch), and the parse reads it
 * through offsets it finds there: the magic, then the part table, then each part, each miss
 * waiting on the one before (perf: the magic test alone held 4% of a DXBC corpus pass, the
 * part headers and the program's first tokens as much again). Requested together, the misses
 * overlap. Past the limit the program is read straight through, which the hardware prefetches.
 */
static void prefetch_input(const void *data, size_t size)
{
    const char *bytes = data;
    size_t n = size < PREFETCH_LIMIT ? size : PREFETCH_LIMIT;
    for (size_t at = 0; at < n; at += 64)
        __builtin_prefetch(bytes + at, 0, 3);
}

enum sb_result sb_translate(const void *data, size_t size, const struct sb_translate_options *options,
                            struct sb_translation **out, struct sb_error *error)
{
    if (out)
        *out = NULL;
    if (!data || !out)
        return fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_translate: data and out are required");
    prefetch_input(data, size);
    if (size >= 4 && !memcmp(data, "DVLB", 4))
        return sb_translate_shbin(data, size, 0, 0, options, out, error);
    struct sb_dxbc *container = NULL;
    struct sb_ir_program *ir = NULL;
    /* The checksum verdict and the parts only `reflect` shows (FXC STAT, IFCE...)
     * are never read by translation: skip their MD5 pass and decoding. The
     * container is destroyed before returning, so it may read `data` in place. */
    enum sb_result r = sb_dxbc_parse_ex(data, size,
                                        SB_DXBC_PARSE_SKIP_CHECKSUM | SB_DXBC_PARSE_BORROW_INPUT |
                                            SB_DXBC_PARSE_TRANSLATION_PARTS,
                                        &container, error);
    if (r == SB_SUCCESS && sb_dxbc_is_dxil_only(container))
        r = sb_ir_from_dxil(container, &ir, error); /* dxc output: the DXIL front end */
    else if (r == SB_SUCCESS)
        r = sb_ir_from_dxbc(container, &ir, error); /* decode + lower, fused where it can */
    if (r == SB_SUCCESS)
        r = translate_program(ir, options, NULL, out, error); /* the IR carries the container's facts */
    sb_ir_program_destroy(ir);
    sb_dxbc_destroy(container);
    return r;
}
