/* SPDX-License-Identifier: MIT */
/*
 * The SPIR-V back end's driver: sets up the context (function
 * ids), runs the declaration steps of every part (IO, cbuffers, resources,
 * registers, stage plumbing), emits each IR function, builds `main` (the entry
 * body itself when every input and output is direct; else prologue, call the
 * entry body, epilogue; inside the fragment shader interlock for
 * rasterizer-ordered views), and writes the module-level facts:
 * capabilities, memory model, execution modes, entry point.
 * The model is described at the top of spirv_private.h.
 */
#include "spirv_private.h"

#include "error.h"
#include "translator/sm4.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t sb_spv_version_for_env(enum sb_target_env env)
{
    switch (env) {
    case SB_TARGET_VULKAN_1_0: return 0x00010000;
    case SB_TARGET_VULKAN_1_2: return 0x00010500;
    case SB_TARGET_VULKAN_1_3: return 0x00010600;
    case SB_TARGET_VULKAN_1_1:
    default: return 0x00010300;
    }
}

static const uint32_t execution_models[] = {
    [SB_IR_STAGE_VERTEX] = SpvExecutionModelVertex,
    [SB_IR_STAGE_PIXEL] = SpvExecutionModelFragment,
    [SB_IR_STAGE_GEOMETRY] = SpvExecutionModelGeometry,
    [SB_IR_STAGE_HULL] = SpvExecutionModelTessellationControl,
    [SB_IR_STAGE_DOMAIN] = SpvExecutionModelTessellationEvaluation,
    [SB_IR_STAGE_COMPUTE] = SpvExecutionModelGLCompute,
    [SB_IR_STAGE_MESH] = SpvExecutionModelMeshEXT,
    [SB_IR_STAGE_AMPLIFICATION] = SpvExecutionModelTaskEXT,
};

/* Execution modes of the stages this file owns (the stage hooks add theirs). */
static void execution_modes(struct sb_spv_context *ctx)
{
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_ir_program *p = ctx->program;
    uint32_t f = ctx->entry_function;
    if (p->stage == SB_IR_STAGE_PIXEL) {
        sb_spv_execution_mode(b, f, SpvExecutionModeOriginUpperLeft, NULL, 0);
        /* The register arrays exist when the signature declares or an instruction
         * writes the file (sb_spv_registers_declare): either way FragDepth exists. */
        bool depth = false;
        if (sb_spv_file_declared(&ctx->files[SB_IR_FILE_DEPTH]))
            depth = true;
        if (sb_spv_file_declared(&ctx->files[SB_IR_FILE_DEPTH_GREATER_EQUAL])) {
            depth = true;
            sb_spv_execution_mode(b, f, SpvExecutionModeDepthGreater, NULL, 0);
        }
        if (sb_spv_file_declared(&ctx->files[SB_IR_FILE_DEPTH_LESS_EQUAL])) {
            depth = true;
            sb_spv_execution_mode(b, f, SpvExecutionModeDepthLess, NULL, 0);
        }
        if (depth)
            sb_spv_execution_mode(b, f, SpvExecutionModeDepthReplacing, NULL, 0);
        if (ctx->pixel_interlock)
            sb_spv_execution_mode(b, f, SpvExecutionModePixelInterlockOrderedEXT, NULL, 0);
        /* dcl_globalFlags forceEarlyDepthStencil (§8.12: bit 2). */
        if (p->global_flags & 0x4u)
            sb_spv_execution_mode(b, f, SpvExecutionModeEarlyFragmentTests, NULL, 0);
    } else if (p->stage == SB_IR_STAGE_COMPUTE) {
        uint32_t size[3];
        for (int i = 0; i < 3; i++)
            size[i] = p->thread_group[i] ? p->thread_group[i] : 1;
        sb_spv_execution_mode(b, f, SpvExecutionModeLocalSize, size, 3);
        sb_spv_declare_compute_derivatives(ctx, f);
    }
}

/* main, when the entry body cannot be it: { copy inputs in; call the entry body; copy
 * outputs out }. With rasterizer-ordered views the call sits inside the interlock:
 * begin and end run once each, in main's uniform control flow, as
 * SPV_EXT_fragment_shader_interlock requires. (A discard in the body is OpKill, which
 * ends the invocation before the end instruction; the extension does not spell out that
 * case, and no device here has the feature to check it on.) */
static void default_main(struct sb_spv_context *ctx)
{
    struct sb_spv_builder *b = &ctx->builder;
    sb_spv_function_begin(b, ctx->entry_function, sb_spv_t_void(ctx), sb_spv_t_void_function(ctx));
    sb_spv_io_prologue(ctx);
    if (ctx->pixel_interlock)
        sb_spv_op(b, SpvOpBeginInvocationInterlockEXT, NULL, 0);
    if (ctx->program->function_count)
        sb_spv_op1(b, SpvOpFunctionCall, sb_spv_t_void(ctx), ctx->function_ids[0]);
    if (ctx->pixel_interlock)
        sb_spv_op(b, SpvOpEndInvocationInterlockEXT, NULL, 0);
    sb_spv_io_epilogue(ctx);
    sb_spv_function_end(b);
}

/* Rasterizer-ordered UAVs of a pixel shader: ordered through fragment shader interlock unless
 * the options say the target lacks it (the flag, or a described device profile without
 * fragmentShaderPixelInterlock); then refused at the first such declaration (never
 * silently unordered). */
static enum sb_result rasterizer_order(struct sb_spv_context *ctx)
{
    const struct sb_ir_program *p = ctx->program;
    if (p->stage != SB_IR_STAGE_PIXEL)
        return SB_SUCCESS;
    const struct sb_device_profile *d = &ctx->options->device;
    bool lacking = (ctx->options->flags & SB_TRANSLATE_NO_FRAGMENT_SHADER_INTERLOCK) ||
                   (d->described && !d->fragment_shader_pixel_interlock);
    for (uint32_t i = 0; i < p->resource_count; i++) {
        const struct sb_ir_resource *r = &p->resources[i];
        if (r->resource_class != SB_IR_RESOURCE_UAV || !(r->uav_flags & SB_SM4_UAV_RASTERIZER_ORDERED))
            continue;
        if (lacking) {
            struct sb_ir_instruction at;
            memset(&at, 0, sizeof(at));
            at.offset = r->offset;
            return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, &at,
                               "u%u is a rasterizer-ordered view; ordering it needs fragment shader interlock "
                               "(VK_EXT_fragment_shader_interlock fragmentShaderPixelInterlock), which the target "
                               "lacks", r->id);
        }
        if (!ctx->pixel_interlock) {
            ctx->pixel_interlock = true;
            ctx->builder.origin = r->offset; /* the capability's origin: this declaration */
            sb_spv_capability(&ctx->builder, SpvCapabilityFragmentShaderPixelInterlockEXT);
            sb_spv_extension(&ctx->builder, "SPV_EXT_fragment_shader_interlock");
            ctx->builder.origin = SB_SPV_NO_ORIGIN;
        }
    }
    return SB_SUCCESS;
}

static enum sb_result declare_all(struct sb_spv_context *ctx)
{
    enum sb_result r;
    if ((r = sb_spv_registers_declare(ctx)) != SB_SUCCESS)
        return r;
    if ((r = sb_spv_io_declare(ctx)) != SB_SUCCESS)
        return r;
    if ((r = sb_spv_cbuffer_declare(ctx)) != SB_SUCCESS)
        return r;
    if ((r = sb_spv_resource_declare(ctx)) != SB_SUCCESS)
        return r;
    /* Class-linkage spec constants (spirv_linkage.c). */
    if ((r = sb_spv_linkage_declare(ctx)) != SB_SUCCESS)
        return r;
    return sb_spv_stage_declare(ctx);
}

static enum sb_result build(struct sb_spv_context *ctx)
{
    const struct sb_ir_program *p = ctx->program;
    struct sb_spv_builder *b = &ctx->builder;
    if (p->stage > SB_IR_STAGE_AMPLIFICATION)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL, "unknown shader stage %u",
                           p->stage);
    ctx->execution_model = execution_models[p->stage];
    sb_spv_capability(b, SpvCapabilityShader);
    sb_spv_memory_model(b);
    sb_spv_debug_begin(ctx);
    ctx->entry_function = sb_spv_id(b);
    ctx->function_ids = sb_spv_zalloc(ctx, p->function_count ? p->function_count : 1, sizeof(uint32_t));
    ctx->resources = sb_spv_zalloc(ctx, p->resource_count ? p->resource_count : 1, sizeof(*ctx->resources));
    ctx->group_shared_vars = sb_spv_zalloc(ctx, p->group_shared_count ? p->group_shared_count : 1,
                                    sizeof(uint32_t));
    if (!ctx->function_ids || !ctx->resources || !ctx->group_shared_vars)
        return sb_spv_fail(ctx, SB_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    sb_spv_debug_name(ctx, ctx->entry_function, "main");

    enum sb_result r = rasterizer_order(ctx);
    if (r != SB_SUCCESS)
        return r;
    r = declare_all(ctx);
    if (r != SB_SUCCESS)
        return r;
    /* With nothing to copy around it, the entry body is main itself (spirv_private.h). */
    bool body_is_main = sb_spv_io_body_is_main(ctx);
    for (uint32_t i = 0; i < p->function_count; i++) {
        if (i == 0 && body_is_main) {
            ctx->function_ids[0] = ctx->entry_function;
            continue;
        }
        ctx->function_ids[i] = sb_spv_id(b);
        if (ctx->debug_info) {
            char name[32];
            if (i == 0)
                snprintf(name, sizeof(name), "shader_body");
            else if (p->functions[i].id != 0xFFFFFFFFu)
                snprintf(name, sizeof(name), "label%u", p->functions[i].id);
            else
                snprintf(name, sizeof(name), "phase%u", i);
            sb_spv_debug_name(ctx, ctx->function_ids[i], name);
        }
    }
    for (uint32_t i = 0; i < p->function_count; i++)
        if ((r = sb_spv_emit_function(ctx, i)) != SB_SUCCESS)
            return r;
    ctx->inst = NULL;
    r = body_is_main ? SB_SUCCESS : sb_spv_stage_finish(ctx);
    if (r == SB_ERROR_TRANSLATE_UNSUPPORTED && ctx->result == SB_SUCCESS)
        default_main(ctx);
    else if (r != SB_SUCCESS)
        return r;
    execution_modes(ctx);
    sb_spv_entry_point(b, (SpvExecutionModel)ctx->execution_model, ctx->entry_function, "main");
    return ctx->result;
}

/* Bytes of the strings the back end copies into the translation: the interface's
 * semantics (they point into the IR until then). */
static size_t semantic_bytes(const struct sb_spv_interface_list *l)
{
    size_t bytes = 0;
    for (uint32_t i = 0; i < l->count; i++)
        bytes += sb_translation_string_bytes(l->items[i].semantic);
    return bytes;
}

/* An interface list as the translation keeps it, semantics in its own string area. */
static void copy_interface(struct sb_translation *t, struct sb_translated_interface *to,
                           const struct sb_spv_interface_list *l)
{
    for (uint32_t i = 0; i < l->count; i++) {
        to[i] = l->items[i];
        to[i].semantic = sb_translation_block_string(t, l->items[i].semantic);
    }
}

/*
 * The result block of a built module (translation_block.h), sized now that every part
 * is known, so the words are written once, where the user gets them: the module, the
 * interface lists, the capabilities' origins (the builder's record of what needed each),
 * and the caller's part left for it to fill.
 */
static enum sb_result deliver(struct sb_spv_context *ctx, const struct sb_translation_layout *caller_part,
                              struct sb_translation **out)
{
    const struct sb_spv_builder *b = &ctx->builder;
    struct sb_translation_layout layout = *caller_part;
    layout.word_count = sb_spv_builder_word_count(b);
    if (!layout.word_count)
        return sb_spv_fail(ctx, SB_ERROR_OUT_OF_MEMORY, NULL,
                           "the SPIR-V module could not be built (out of memory, or an instruction "
                           "over 65535 words)");
    layout.input_count = ctx->inputs.count;
    layout.output_count = ctx->outputs.count;
    layout.builtin_input_count = ctx->builtin_inputs.count;
    layout.builtin_output_count = ctx->builtin_outputs.count;
    layout.origin_count = b->origin_count;
    layout.string_bytes += semantic_bytes(&ctx->inputs) + semantic_bytes(&ctx->outputs);
    struct sb_translation *t = sb_translation_block_create(&layout);
    if (!t)
        return sb_spv_fail(ctx, SB_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    sb_spv_builder_finish(b, (uint32_t *)t->words);
    copy_interface(t, (struct sb_translated_interface *)t->inputs, &ctx->inputs);
    copy_interface(t, (struct sb_translated_interface *)t->outputs, &ctx->outputs);
    if (ctx->builtin_inputs.count)
        memcpy((uint32_t *)t->builtin_inputs, ctx->builtin_inputs.items,
               ctx->builtin_inputs.count * sizeof(uint32_t));
    if (ctx->builtin_outputs.count)
        memcpy((uint32_t *)t->builtin_outputs, ctx->builtin_outputs.items,
               ctx->builtin_outputs.count * sizeof(uint32_t));
    struct sb_capability_origin *origins = (struct sb_capability_origin *)t->capability_origins;
    for (uint32_t i = 0; i < b->origin_count; i++)
        origins[i] = (struct sb_capability_origin){ .capability = b->origin_capability[i],
                                                    .offset = b->origin_offset[i] };
    t->interface_slot_count = ctx->interface_slot_count; /* build() declared linkage */
    *out = t;
    return SB_SUCCESS;
}

static enum sb_result generate(const struct sb_ir_program *program,
                               const struct sb_translate_options *options, const char *source_name,
                               struct sb_arena *scratch, const struct sb_translation_layout *caller_part,
                               struct sb_translation **out, struct sb_error *error)
{
    /* On the stack: a few KiB, and no allocation per module. */
    struct sb_spv_context context;
    /* Zeroed around the builder (two thirds of it), which sb_spv_builder_init clears below. */
    const size_t builder_at = offsetof(struct sb_spv_context, builder),
                 builder_end = builder_at + sizeof(context.builder);
    memset(&context, 0, builder_at);
    memset((char *)&context + builder_end, 0, sizeof(context) - builder_end);
    struct sb_spv_context *ctx = &context;
    ctx->program = program;
    ctx->options = options;
    ctx->error = error;
    ctx->scratch = scratch;
    ctx->spirv_version = sb_spv_version_for_env(options->target_env);
    /* SPV_EXT_mesh_shader needs SPIR-V 1.4, which Vulkan 1.1 takes with VK_KHR_spirv_1_4 (as
     * VK_EXT_mesh_shader requires); Vulkan 1.0 has no mesh shaders (refused by the stage). */
    if ((program->stage == SB_IR_STAGE_MESH || program->stage == SB_IR_STAGE_AMPLIFICATION) &&
        options->target_env == SB_TARGET_VULKAN_1_1)
        ctx->spirv_version = 0x00010400;
    ctx->debug_info = (options->flags & SB_TRANSLATE_DEBUG_INFO) != 0;
    ctx->source_name = source_name ? source_name : "shader.dxbc";
    sb_spv_builder_init(&ctx->builder, ctx->spirv_version);

    enum sb_result r = build(ctx);
    if (r == SB_SUCCESS)
        r = deliver(ctx, caller_part, out);
    /* Everything else the module needed is in `scratch`, which the caller releases. */
    sb_spv_builder_release(&ctx->builder);
    return r;
}

/* The back end reads core IR only: a PICA program must have been through the passes
 * (sb_ir_run_passes, which ../translate.c runs), so the interpreter and the SPIR-V
 * agree on the one lowering. */
enum sb_result sb_spv_generate(const struct sb_ir_program *program,
                               const struct sb_translate_options *options, const char *source_name,
                               struct sb_arena *scratch, const struct sb_translation_layout *caller_part,
                               struct sb_translation **out, struct sb_error *error)
{
    *out = NULL;
    if (program->source == SB_IR_SOURCE_PICA && !(program->pica_flags & SB_IR_PICA_LOWERED))
        return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                            "the SPIR-V back end takes core IR: run sb_ir_run_passes on a "
                            "PICA program first");
    return generate(program, options, source_name, scratch, caller_part, out, error);
}
