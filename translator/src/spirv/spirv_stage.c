/* SPDX-License-Identifier: MIT */
/*
 * Stage hooks of the SPIR-V back end (spirv_private.h): dispatch to the
 * geometry (spirv_stage_gs.c), hull (spirv_stage_hs.c), domain
 * (spirv_stage_ds.c) and mesh / amplification (spirv_stage_mesh.c) plumbing; what they share sits below them in
 * spirv_stage_util.c. VS, PS and CS need nothing here: spirv_io.c and
 * spirv_module.c cover their inputs, outputs and execution modes.
 */
#include "spirv_stage_private.h"

#include <stdlib.h>
#include <string.h>

/* ---- register files ------------------------------------------------------------------------ */

/* ---- hooks ------------------------------------------------------------------------------------------ */

enum sb_result sb_spv_stage_declare(struct sb_spv_context *ctx)
{
    switch (ctx->program->stage) {
    case SB_IR_STAGE_VERTEX:
    case SB_IR_STAGE_PIXEL:
    case SB_IR_STAGE_COMPUTE:
        return SB_SUCCESS;
    case SB_IR_STAGE_GEOMETRY:
        return sb_spv_gs_declare(ctx);
    case SB_IR_STAGE_HULL:
        return sb_spv_hs_declare(ctx);
    case SB_IR_STAGE_DOMAIN:
        return sb_spv_ds_declare(ctx);
    case SB_IR_STAGE_MESH:
    case SB_IR_STAGE_AMPLIFICATION:
        return sb_spv_mesh_declare(ctx);
    default:
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL, "unknown shader stage %u",
                           ctx->program->stage);
    }
}

enum sb_result sb_spv_stage_instruction(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    switch (inst->op) {
    case SB_IR_OP_EMIT:
    case SB_IR_OP_CUT:
    case SB_IR_OP_EMIT_THEN_CUT:
        if (ctx->program->stage != SB_IR_STAGE_GEOMETRY)
            return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst,
                               "'%s' outside a geometry shader", sb_ir_op_name(inst->op));
        return sb_spv_gs_instruction(ctx, inst);
    case SB_IR_OP_MESH_SET_COUNTS:
    case SB_IR_OP_MESH_INDICES:
    case SB_IR_OP_MESH_STORE_VERTEX:
    case SB_IR_OP_MESH_STORE_PRIMITIVE:
    case SB_IR_OP_DISPATCH_MESH:
        return sb_spv_mesh_instruction(ctx, inst);
    default:
        return SB_ERROR_TRANSLATE_UNSUPPORTED;
    }
}

enum sb_result sb_spv_stage_finish(struct sb_spv_context *ctx)
{
    if (ctx->result != SB_SUCCESS)
        return ctx->result;
    switch (ctx->program->stage) {
    case SB_IR_STAGE_GEOMETRY:
        sb_spv_gs_main(ctx);
        break;
    case SB_IR_STAGE_HULL:
        sb_spv_hs_main(ctx);
        break;
    case SB_IR_STAGE_DOMAIN:
        sb_spv_ds_main(ctx);
        break;
    default:
        return SB_ERROR_TRANSLATE_UNSUPPORTED;
    }
    return ctx->result;
}
