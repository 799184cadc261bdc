/* SPDX-License-Identifier: MIT */
/*
 * Wave and quad ops of the IR (translator/IR.md §Waves; ../shared/docs/dxil.md §3.6 "Wave and
 * quad operations") as SPIR-V 1.3 group non-uniform instructions at Subgroup scope: a D3D
 * wave is a Vulkan subgroup, its active lanes the subgroup's active invocations. Each
 * capability is declared only when an op needs it: GroupNonUniform (every op, and the
 * SubgroupLocalInvocationId / SubgroupSize built-ins), Vote (any, all, all-equal), Ballot
 * (ballot, bit counts, read-first), Arithmetic (reductions and prefixes), Shuffle (read lane
 * at, and quad read with a lane chosen at run time), Quad (quad broadcast and swaps).
 * A target below Vulkan 1.1 (SPIR-V 1.0) has none of them: the op is refused there.
 *
 * Group operations take a scalar Boolean predicate, and the vote results are one Boolean, so
 * the vote ops run once per destination lane; the others take vectors whole.
 */
#include "spirv_alu_private.h"

/* The reduction opcode of a WAVE_ACTIVE_* / WAVE_PREFIX_* op, by lane view and wave_op. */
static SpvOp arithmetic_op(uint32_t op, uint32_t wave_op)
{
    static const SpvOp float_ops[4] = { SpvOpGroupNonUniformFAdd, SpvOpGroupNonUniformFMul,
                                        SpvOpGroupNonUniformFMin, SpvOpGroupNonUniformFMax };
    static const SpvOp int_ops[SB_IR_WAVE_OP_COUNT] = {
        SpvOpGroupNonUniformIAdd, SpvOpGroupNonUniformIMul, SpvOpGroupNonUniformSMin,
        SpvOpGroupNonUniformSMax, SpvOpGroupNonUniformBitwiseAnd, SpvOpGroupNonUniformBitwiseOr,
        SpvOpGroupNonUniformBitwiseXor,
    };
    if (op == SB_IR_OP_WAVE_ACTIVE_FLOAT || op == SB_IR_OP_WAVE_PREFIX_FLOAT)
        return float_ops[wave_op & 3u];
    if (op == SB_IR_OP_WAVE_ACTIVE_UINT && wave_op == SB_IR_WAVE_MIN)
        return SpvOpGroupNonUniformUMin;
    if (op == SB_IR_OP_WAVE_ACTIVE_UINT && wave_op == SB_IR_WAVE_MAX)
        return SpvOpGroupNonUniformUMax;
    return int_ops[wave_op];
}

/* WAVE_LANE_INDEX / WAVE_LANE_COUNT: a built-in input. Integer inputs of a fragment shader
 * must be Flat (Vulkan), decorated when the variable is first declared. */
static uint32_t builtin_value(struct sb_spv_context *ctx, SpvBuiltIn builtin)
{
    uint32_t *known = &ctx->subgroup_builtin[builtin == SpvBuiltInSubgroupSize];
    if (!*known) {
        *known = sb_spv_io_builtin(ctx, SpvStorageClassInput, builtin, sb_spv_t_u32(ctx));
        if (ctx->execution_model == SpvExecutionModelFragment)
            sb_spv_decorate(&ctx->builder, *known, SpvDecorationFlat, NULL, 0);
    }
    return sb_spv_load(&ctx->builder, sb_spv_t_u32(ctx), *known);
}

/* Any / all / all-equal: one group vote per destination lane. */
static uint32_t vote(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst, uint32_t scope)
{
    struct sb_spv_builder *b = &ctx->builder;
    SpvOp op = inst->op == SB_IR_OP_WAVE_ANY_TRUE   ? SpvOpGroupNonUniformAny
               : inst->op == SB_IR_OP_WAVE_ALL_TRUE ? SpvOpGroupNonUniformAll
                                                    : SpvOpGroupNonUniformAllEqual;
    uint32_t parts[4], n = 0;
    for (uint32_t c = 0; c < 4; c++) {
        if (!(inst->dst[0].mask & (1u << c)))
            continue;
        uint32_t v = sb_spv_load_src(ctx, &inst->src[0], 1u << c,
                                     op == SpvOpGroupNonUniformAllEqual ? SB_IR_TYPE_UINT : SB_IR_TYPE_BOOL);
        parts[n++] = sb_spv_op2(b, op, sb_spv_t_bool(ctx), scope, v);
    }
    return n == 1 ? parts[0] : sb_spv_construct(b, sb_spv_t_bvec(ctx, n), parts, n);
}

/* QUAD_READ_LANE_AT: a broadcast of an immediate quad lane; a lane known only at run time
 * (QuadBroadcast needs a constant before SPIR-V 1.5) shuffles from (own lane & ~3) | (b & 3). */
static uint32_t quad_read(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst, uint32_t scope,
                          uint32_t type, uint32_t value)
{
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_ir_operand *lane = &inst->src[1];
    if (lane->file == SB_IR_FILE_IMMEDIATE) {
        sb_spv_capability(b, SpvCapabilityGroupNonUniformQuad);
        return sb_spv_op3(b, SpvOpGroupNonUniformQuadBroadcast, type, scope, value,
                          sb_spv_const_u32(b, lane->imm[lane->swizzle[0] & 3u] & 3u));
    }
    sb_spv_capability(b, SpvCapabilityGroupNonUniformShuffle);
    uint32_t u32 = sb_spv_t_u32(ctx);
    uint32_t own = builtin_value(ctx, SpvBuiltInSubgroupLocalInvocationId);
    uint32_t base = sb_spv_op2(b, SpvOpBitwiseAnd, u32, own, sb_spv_const_u32(b, ~3u));
    uint32_t pick = sb_spv_op2(b, SpvOpBitwiseAnd, u32, sb_spv_load_scalar(ctx, lane, SB_IR_TYPE_UINT),
                               sb_spv_const_u32(b, 3u));
    return sb_spv_op3(b, SpvOpGroupNonUniformShuffle, type, scope, value,
                      sb_spv_op2(b, SpvOpBitwiseOr, u32, base, pick));
}

/* The ops with one value source taken whole (per lane of the destination). */
static uint32_t value_op(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst, uint32_t scope,
                         uint32_t ir_type, uint32_t n)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t type = sb_spv_type_of(ctx, ir_type, n);
    uint32_t value = sb_spv_load_src(ctx, &inst->src[0], inst->dst[0].mask, ir_type);
    switch (inst->op) {
    case SB_IR_OP_WAVE_READ_LANE_AT:
        sb_spv_capability(b, SpvCapabilityGroupNonUniformShuffle);
        return sb_spv_op3(b, SpvOpGroupNonUniformShuffle, type, scope, value,
                          sb_spv_load_scalar(ctx, &inst->src[1], SB_IR_TYPE_UINT));
    case SB_IR_OP_WAVE_READ_LANE_FIRST:
        sb_spv_capability(b, SpvCapabilityGroupNonUniformBallot);
        return sb_spv_op2(b, SpvOpGroupNonUniformBroadcastFirst, type, scope, value);
    case SB_IR_OP_QUAD_READ_LANE_AT:
        return quad_read(ctx, inst, scope, type, value);
    case SB_IR_OP_QUAD_READ_ACROSS_X: case SB_IR_OP_QUAD_READ_ACROSS_Y:
    case SB_IR_OP_QUAD_READ_ACROSS_DIAGONAL:
        sb_spv_capability(b, SpvCapabilityGroupNonUniformQuad);
        return sb_spv_op3(b, SpvOpGroupNonUniformQuadSwap, type, scope, value,
                          sb_spv_const_u32(b, inst->op - SB_IR_OP_QUAD_READ_ACROSS_X));
    default: { /* reductions and exclusive prefixes */
        sb_spv_capability(b, SpvCapabilityGroupNonUniformArithmetic);
        bool prefix = inst->op == SB_IR_OP_WAVE_PREFIX_FLOAT || inst->op == SB_IR_OP_WAVE_PREFIX_INT;
        uint32_t r = sb_spv_op3(b, arithmetic_op(inst->op, inst->wave_op), type, scope,
                                prefix ? SpvGroupOperationExclusiveScan : SpvGroupOperationReduce, value);
        if (ir_type == SB_IR_TYPE_FLOAT)
            sb_spv_alu_precise(ctx, inst, r);
        return r;
    }
    }
}

enum sb_result sb_spv_wave_instruction(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (!sb_ir_op_is_wave(inst->op))
        return SB_ERROR_TRANSLATE_UNSUPPORTED;
    const struct sb_ir_op_info *info = sb_ir_op_info(inst->op);
    if (!sb_spv_alu_check(ctx, inst, 1, info->src_min))
        return ctx->result;
    if (ctx->spirv_version < 0x00010300u)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, inst,
                           "'%s' needs SPIR-V 1.3 group operations: target Vulkan 1.1 or later, "
                           "not Vulkan 1.0", sb_ir_op_name(inst->op));
    if (!sb_ir_wave_op_allowed(inst->op, inst->wave_op))
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "'%s' with wave_op %u",
                           sb_ir_op_name(inst->op), inst->wave_op);
    const struct sb_ir_operand *dst = &inst->dst[0];
    uint32_t n = sb_spv_mask_count(dst->mask);
    if (dst->file == SB_IR_FILE_NULL || !n)
        return SB_SUCCESS;
    sb_spv_capability(b, SpvCapabilityGroupNonUniform);
    uint32_t scope = sb_spv_const_u32(b, SpvScopeSubgroup), r, ir_type = info->dst_type[0];
    switch (inst->op) {
    case SB_IR_OP_WAVE_IS_FIRST_LANE:
        r = sb_spv_alu_splat(ctx, sb_spv_op1(b, SpvOpGroupNonUniformElect, sb_spv_t_bool(ctx), scope),
                             SB_IR_TYPE_BOOL, n);
        break;
    case SB_IR_OP_WAVE_LANE_INDEX:
        r = sb_spv_alu_splat(ctx, builtin_value(ctx, SpvBuiltInSubgroupLocalInvocationId), SB_IR_TYPE_UINT, n);
        break;
    case SB_IR_OP_WAVE_LANE_COUNT:
        r = sb_spv_alu_splat(ctx, builtin_value(ctx, SpvBuiltInSubgroupSize), SB_IR_TYPE_UINT, n);
        break;
    case SB_IR_OP_WAVE_ANY_TRUE: case SB_IR_OP_WAVE_ALL_TRUE: case SB_IR_OP_WAVE_ALL_EQUAL:
        sb_spv_capability(b, SpvCapabilityGroupNonUniformVote);
        r = vote(ctx, inst, scope);
        break;
    case SB_IR_OP_WAVE_BALLOT: case SB_IR_OP_WAVE_ACTIVE_COUNT_BITS: case SB_IR_OP_WAVE_PREFIX_COUNT_BITS: {
        sb_spv_capability(b, SpvCapabilityGroupNonUniformBallot);
        uint32_t cond = sb_spv_load_scalar(ctx, &inst->src[0], SB_IR_TYPE_BOOL);
        uint32_t bits = sb_spv_op2(b, SpvOpGroupNonUniformBallot, sb_spv_t_uvec(ctx, 4), scope, cond);
        if (inst->op == SB_IR_OP_WAVE_BALLOT) {
            r = sb_spv_alu_pick(ctx, bits, 0xFu, dst->mask, SB_IR_TYPE_UINT);
            break;
        }
        uint32_t group_op = inst->op == SB_IR_OP_WAVE_ACTIVE_COUNT_BITS ? SpvGroupOperationReduce
                                                                        : SpvGroupOperationExclusiveScan;
        r = sb_spv_alu_splat(ctx, sb_spv_op3(b, SpvOpGroupNonUniformBallotBitCount, sb_spv_t_u32(ctx), scope,
                                             group_op, bits), SB_IR_TYPE_UINT, n);
        break;
    }
    default:
        r = value_op(ctx, inst, scope, ir_type, n);
        break;
    }
    sb_spv_store_dst(ctx, inst, dst, r, ir_type);
    return sb_spv_alu_done(ctx);
}
