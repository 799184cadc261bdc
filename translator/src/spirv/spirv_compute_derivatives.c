/* SPDX-License-Identifier: MIT */
/*
 * SM 6.6 derivatives in compute shaders (IR.md §Compute derivatives): a
 * program whose sb_ir_program::compute_derivatives names D3D's quads gets
 * SPV_NV_compute_shader_derivatives, the capability and execution mode of its
 * grouping (DerivativeGroupQuadsNV: 2x2 blocks of LocalInvocationId.xy;
 * DerivativeGroupLinearNV: 4 consecutive LocalInvocationIndex values, the
 * same quads D3D forms), after which OpDPdx/OpDPdy, implicit-LOD sampling and
 * OpImageQueryLod are valid in GLCompute. The capabilities are device
 * features: the runtime refuses a module declaring them on a device without
 * VK_NV_compute_shader_derivatives (runtime/src/vulkan/vk_capability.c).
 */
#include "spirv_private.h"

bool sb_spv_has_derivatives(const struct sb_spv_context *ctx)
{
    return ctx->execution_model == SpvExecutionModelFragment ||
           (ctx->execution_model == SpvExecutionModelGLCompute &&
            ctx->program->compute_derivatives != SB_IR_COMPUTE_DERIVATIVES_NONE);
}

/* The byte offset of the first instruction that differences a quad (a derivative, an
 * implicit-LOD sample or lod): where the capability comes from, for a runtime's refusal. */
static uint64_t first_quad_use(const struct sb_ir_program *p)
{
    for (uint32_t f = 0; f < p->function_count; f++)
        for (uint32_t i = 0; i < p->functions[f].instruction_count; i++) {
            const struct sb_ir_instruction *in = &p->functions[f].instructions[i];
            if ((in->op >= SB_IR_OP_DERIV_RTX && in->op <= SB_IR_OP_DERIV_RTY_FINE) ||
                in->op == SB_IR_OP_SAMPLE || in->op == SB_IR_OP_SAMPLE_B ||
                in->op == SB_IR_OP_SAMPLE_C || in->op == SB_IR_OP_SAMPLE_C_B || in->op == SB_IR_OP_LOD)
                return in->offset;
        }
    return SB_SPV_NO_ORIGIN;
}

void sb_spv_declare_compute_derivatives(struct sb_spv_context *ctx, uint32_t entry)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t grouping = ctx->program->compute_derivatives;
    if (grouping == SB_IR_COMPUTE_DERIVATIVES_NONE)
        return;
    bool quads = grouping == SB_IR_COMPUTE_DERIVATIVES_QUADS;
    sb_spv_extension(b, "SPV_NV_compute_shader_derivatives");
    uint64_t origin = b->origin;
    b->origin = first_quad_use(ctx->program);
    sb_spv_capability(b, quads ? SpvCapabilityComputeDerivativeGroupQuadsNV
                               : SpvCapabilityComputeDerivativeGroupLinearNV);
    b->origin = origin;
    sb_spv_execution_mode(b, entry, quads ? SpvExecutionModeDerivativeGroupQuadsNV
                                          : SpvExecutionModeDerivativeGroupLinearNV, NULL, 0);
}
