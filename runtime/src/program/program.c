/* SPDX-License-Identifier: MIT */
/*
 * sb_rt_program_load: one read of a shader file into what both execution
 * paths need — the IR for the interpreter, the SPIR-V translation of that same
 * IR for Vulkan, and the container for the reflection that input generation
 * and the translation read. SHBIN bytes ("DVLB") take the PICA200 path at the
 * end of this file: one DVLE read by sb_ir_from_pica and lowered once
 * (sb_ir_pica_lower), the parsed file kept for the DVLE constants the uniform
 * buffer must carry (validate/inputs_pica.c).
 */
#include "shaderbridge/validate.h"

#include <stdlib.h>
#include <string.h>

#include "shaderbridge/dxbc.h"
#include "shaderbridge/shbin.h"
#include "translator/sm4.h"
#include "translator/ir.h"
#include "program_private.h"
#include "error.h"

struct program_state {
    struct sb_rt_program public;
    struct sb_dxbc *container;
    struct sb_sm4_program *sm4;
    struct sb_ir_program *ir;     /* what both sides run (SHBIN: the lowered DVLE) */
    struct sb_ir_program *front;  /* SHBIN programs: the front end's program, before lowering */
    struct sb_translation *translation;
    struct sb_shbin *shbin;       /* SHBIN programs: the parsed file */
    uint32_t dvle_index;          /* SHBIN programs: the DVLE that was lowered */
    struct sb_ir_program *gs;     /* geometry DVLEs: the compute expansion (pica_gs.c) */
    /* The options `translation` was made with (overrides copied), for another descriptor
     * count of unbounded ranges (sb_rt_program_translate_unbounded). */
    struct sb_translate_options translate;
    struct sb_binding_override *overrides;
};

static enum sb_result load_fail(struct sb_error *error, enum sb_result code, const char *message)
{
    return sb_error_set(error, code, 0, SB_ERROR_NO_INSTR, "%s", message);
}

/* The caller's translation options (default: Vulkan 1.1) as a run needs them: a fixed descriptor
 * count for `t0[]`, since the inputs create that many. */
static struct sb_translate_options run_options(const struct sb_translate_options *options)
{
    struct sb_translate_options translate = { .target_env = SB_TARGET_VULKAN_1_1 };
    if (options)
        translate = *options;
    translate.unbounded_descriptor_count = SB_RT_UNBOUNDED_DESCRIPTORS;
    return translate;
}

/* Keeps `translate` with its overrides copied: the caller's array need not outlive the load. */
static bool keep_options(struct program_state *p, const struct sb_translate_options *translate)
{
    p->translate = *translate;
    uint32_t n = translate->binding_override_count;
    if (!n || !translate->binding_overrides) {
        p->translate.binding_override_count = 0;
        p->translate.binding_overrides = NULL;
        return true;
    }
    p->overrides = malloc((size_t)n * sizeof(*p->overrides));
    if (!p->overrides)
        return false;
    memcpy(p->overrides, translate->binding_overrides, (size_t)n * sizeof(*p->overrides));
    p->translate.binding_overrides = p->overrides;
    return true;
}

static bool is_shbin(const void *data, size_t size)
{
    return size >= 4 && memcmp(data, "DVLB", 4) == 0;
}

/* A DXIL container without an SM4/5 token stream (dxc output; a container with both is
 * run from its tokens, as sb_translate does). */
static bool is_dxil_only(const struct sb_dxbc *container)
{
    return container->is_dxil && !sb_dxbc_find_part(container, SB_FOURCC('S', 'H', 'E', 'X')) &&
           !sb_dxbc_find_part(container, SB_FOURCC('S', 'H', 'D', 'R'));
}

enum sb_result sb_rt_program_load(const void *data, size_t size,
                                  const struct sb_translate_options *options,
                                  struct sb_rt_program **out, struct sb_error *error)
{
    if (out)
        *out = NULL;
    if (!data || !out)
        return load_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_rt_program_load: data and out are required");
    if (is_shbin(data, size))
        return sb_rt_program_load_shbin(data, size, 0, SB_IR_PICA_FLOAT24, options, out, error);
    struct program_state *p = calloc(1, sizeof(*p));
    if (!p)
        return load_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory loading a program");
    struct sb_translate_options translate = run_options(options);

    enum sb_result r = keep_options(p, &translate) ? SB_SUCCESS
                       : load_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory loading a program");
    if (r == SB_SUCCESS)
        r = sb_dxbc_parse_ex(data, size, SB_DXBC_PARSE_SKIP_CHECKSUM, &p->container, error);
    if (r == SB_SUCCESS && is_dxil_only(p->container)) {
        r = sb_ir_from_dxil(p->container, &p->ir, error); /* dxc output: the DXIL front end */
    } else {
        if (r == SB_SUCCESS)
            r = sb_sm4_decode_container(p->container, &p->sm4, error);
        if (r == SB_SUCCESS)
            r = sb_ir_from_sm4(p->sm4, p->container, &p->ir, error);
    }
    /* Neither the interpreter nor the Vulkan paths have a mesh or amplification stage: refused
     * here, before translation, so run and validate say why in one place. */
    if (r == SB_SUCCESS && (p->ir->stage == SB_IR_STAGE_MESH || p->ir->stage == SB_IR_STAGE_AMPLIFICATION))
        r = load_fail(error, SB_ERROR_RUN_UNSUPPORTED,
                      p->ir->stage == SB_IR_STAGE_MESH
                          ? "not run: a mesh shader (the interpreter and the runtime have no mesh "
                            "stage; `translate` gives its SPIR-V)"
                          : "not run: an amplification shader (the interpreter and the runtime have "
                            "no amplification stage; `translate` gives its SPIR-V)");
    /* From the IR the interpreter runs; the front end recorded the container's facts in it
     * (SFI0's typed-UAV load formats, RDEF names), so this is what sb_translate of the
     * bytes gives. */
    if (r == SB_SUCCESS)
        r = sb_translate_ir(p->ir, &translate, &p->translation, error);
    if (r != SB_SUCCESS) {
        sb_rt_program_destroy(&p->public);
        return r;
    }
    p->public.stage = p->ir->stage;
    p->public.ir = p->ir;
    p->public.translation = p->translation;
    p->public.container = p->container;
    p->public.internal = p;
    *out = &p->public;
    return SB_SUCCESS;
}

void sb_rt_program_destroy(struct sb_rt_program *program)
{
    if (!program)
        return;
    struct program_state *p = (struct program_state *)program;
    sb_translation_destroy(p->translation);
    sb_rt_pica_gs_destroy(p->gs);
    sb_ir_program_destroy(p->ir);
    sb_ir_program_destroy(p->front);
    sb_sm4_program_destroy(p->sm4);
    sb_dxbc_destroy(p->container);
    sb_shbin_destroy(p->shbin);
    free(p->overrides);
    free(p);
}

/* ---- SHBIN (PICA200) ----------------------------------------------------------------- */

enum sb_result sb_rt_program_load_shbin(const void *data, size_t size, uint32_t dvle_index,
                                        uint32_t pica_flags, const struct sb_translate_options *options,
                                        struct sb_rt_program **out, struct sb_error *error)
{
    if (out)
        *out = NULL;
    if (!data || !out)
        return load_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_rt_program_load_shbin: data and out are required");
    if (pica_flags & SB_IR_PICA_LOWERED)
        return load_fail(error, SB_ERROR_INVALID_ARGUMENT,
                         "sb_rt_program_load_shbin: SB_IR_PICA_LOWERED is not a mode");
    struct program_state *p = calloc(1, sizeof(*p));
    if (!p)
        return load_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory loading a program");
    struct sb_translate_options translate = run_options(options);
    enum sb_result r = keep_options(p, &translate) ? SB_SUCCESS
                       : load_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory loading a program");
    if (r == SB_SUCCESS)
        r = sb_shbin_parse(data, size, &p->shbin, error);
    if (r == SB_SUCCESS && dvle_index >= p->shbin->dvle_count)
        r = sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                         "the file has %u DVLE(s); DVLE %u does not exist", p->shbin->dvle_count, dvle_index);
    if (r == SB_SUCCESS)
        r = sb_ir_from_pica(p->shbin, dvle_index, pica_flags, &p->front, error);
    /* The IR passes (sb_ir_run_passes) run here, once: PICA semantics are the rewrite into
     * core IR (IR.md §PICA200), and that one program is what the translation, the GS
     * expansion and the interpreter get (the translation and the interpreter skip a
     * lowered program). */
    if (r == SB_SUCCESS)
        r = sb_ir_run_passes(p->front, 0, &p->ir, error);
    /* A geometry DVLE runs as its compute expansion (registers persist between invocations,
     * which a Vulkan geometry shader cannot do; runtime/README.md "PICA200"): both sides run
     * that program, the stage stays GEOMETRY so that run/validate take the GS path. */
    bool geometry = r == SB_SUCCESS && p->ir->stage == SB_IR_STAGE_GEOMETRY;
    if (geometry)
        r = sb_rt_pica_gs_expand(p->shbin, dvle_index, p->front, p->ir, &p->gs, error);
    if (r == SB_SUCCESS)
        r = sb_translate_ir(geometry ? p->gs : p->ir, &translate, &p->translation, error);
    if (r != SB_SUCCESS) {
        sb_rt_program_destroy(&p->public);
        return r;
    }
    p->dvle_index = dvle_index;
    p->public.stage = p->ir->stage;
    p->public.ir = geometry ? p->gs : p->ir;
    p->public.translation = p->translation;
    p->public.internal = p;
    *out = &p->public;
    return SB_SUCCESS;
}

const struct sb_shbin *sb_rt_program_shbin(const struct sb_rt_program *program, uint32_t *dvle_index)
{
    const struct program_state *p = program ? program->internal : NULL; /* NULL: not ours */
    if (dvle_index)
        *dvle_index = p ? p->dvle_index : 0;
    return p ? p->shbin : NULL;
}

const struct sb_rt_pica_gs *sb_rt_program_pica_gs(const struct sb_rt_program *program)
{
    const struct program_state *p = program ? program->internal : NULL;
    return p && p->gs ? sb_rt_pica_gs_info(p->gs) : NULL;
}

enum sb_result sb_rt_program_translate_unbounded(const struct sb_rt_program *program, uint32_t unbounded,
                                                 struct sb_translation **out, struct sb_error *error)
{
    return sb_rt_program_translate_fitted(program, unbounded, NULL, out, error);
}

enum sb_result sb_rt_program_translate_fitted(const struct sb_rt_program *program, uint32_t unbounded,
                                              const struct sb_translate_options *device,
                                              struct sb_translation **out, struct sb_error *error)
{
    const struct program_state *p = program ? program->internal : NULL;
    if (out)
        *out = NULL;
    if (!p || !out || !unbounded)
        return load_fail(error, SB_ERROR_INVALID_ARGUMENT,
                         "sb_rt_program_translate_fitted: a loaded program, out and a count are required");
    struct sb_translate_options translate = p->translate;
    translate.unbounded_descriptor_count = unbounded;
    if (device) {
        translate.device = device->device;
        translate.storage_format_count = device->storage_format_count;
        translate.storage_formats = device->storage_formats;
    }
    return sb_translate_ir(program->ir, &translate, out, error);
}
