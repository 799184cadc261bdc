/* SPDX-License-Identifier: MIT */
/*
 * sb_rt_program_load: one read of a shader file into what both execution
 * paths need — the IR for the interpreter, the SPIR-V translation of that same
 * IR for Vulkan, and the container for the reflection that input generation
 * and the translation read.
 */
#include "shaderbridge/validate.h"

#include <stdlib.h>
#include <string.h>

#include "shaderbridge/dxbc.h"
#include "shaderbridge/sm4.h"

struct program_state {
    struct sb_rt_program public;
    struct sb_dxbc *container;
    struct sb_sm4_program *sm4;
    struct sb_ir_program *ir;
    struct sb_translation *translation;
};

enum sb_result sb_rt_program_load(const void *data, size_t size,
                                  const struct sb_translate_options *options,
                                  struct sb_rt_program **out, struct sb_error *error)
{
    if (out)
        *out = NULL;
    if (!data || !out) {
        if (error) {
            memset(error, 0, sizeof(*error));
            error->code = SB_ERROR_INVALID_ARGUMENT;
            strcpy(error->message, "sb_rt_program_load: data and out are required");
        }
        return SB_ERROR_INVALID_ARGUMENT;
    }
    struct program_state *p = calloc(1, sizeof(*p));
    if (!p) {
        if (error) {
            memset(error, 0, sizeof(*error));
            error->code = SB_ERROR_OUT_OF_MEMORY;
            strcpy(error->message, "out of memory loading a program");
        }
        return SB_ERROR_OUT_OF_MEMORY;
    }
    struct sb_translate_options translate = { .target_env = SB_TARGET_VULKAN_1_1 };
    if (options)
        translate = *options;
    /* Running needs a fixed descriptor count for `t0[]`: the inputs create that many. */
    translate.unbounded_descriptor_count = SB_RT_UNBOUNDED_DESCRIPTORS;

    enum sb_result r = sb_dxbc_parse_ex(data, size, SB_DXBC_PARSE_SKIP_CHECKSUM, &p->container, error);
    if (r == SB_SUCCESS)
        r = sb_sm4_decode_container(p->container, &p->sm4, error);
    if (r == SB_SUCCESS)
        r = sb_ir_from_sm4(p->sm4, p->container, &p->ir, error);
    /* From the IR the interpreter runs, with the container (SFI0 decides typed-UAV load
     * formats, RDEF gives names): what sb_translate of the bytes would give. */
    if (r == SB_SUCCESS)
        r = sb_translate_ir_container(p->ir, p->container, &translate, &p->translation, error);
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
    sb_ir_program_destroy(p->ir);
    sb_sm4_program_destroy(p->sm4);
    sb_dxbc_destroy(p->container);
    free(p);
}
