/* SPDX-License-Identifier: MIT */
/*
 * Atomics of the SPIR-V back end: atomic_* and imm_atomic_* on u# and g#,
 * and the append/consume counter ops.
 *   * The pointer is a DWORD of a raw/structured buffer or of g#
 *     (address: byte offset, or structure index + byte offset in x, y; a buffer
 *     bound as a texel buffer: its texel through OpImageTexelPointer), or a
 *     texel of a typed UAV via OpImageTexelPointer (address: coordinates;
 *     the image is declared R32ui/R32i, spirv_texture_decl.c).
 *   * Scope: Workgroup for g#, Device for UAVs. Semantics: relaxed; D3D
 *     atomics order nothing, `sync` supplies the barriers.
 *   * imm_* forms write the value before the operation to dst[0];
 *     cmp_exch/cmp_store compare with src[1] and store src[2].
 *   * imm_atomic_alloc returns the counter before the increment;
 *     imm_atomic_consume decrements and returns the new value (the index of
 *     the element consumed), as D3D defines them.
 *   * For a text target, a signed min/max on uint storage (every raw,
 *     structured and g# DWORD, and R32ui typed UAVs) is a compare-exchange
 *     loop: the text languages pick signedness from the storage's type, so
 *     SPIRV-Cross would write OpAtomicSMin on a uint as an unsigned atomicMin.
 */
#include "spirv_private.h"

/* One row per atomic op: its SPIR-V opcode, whether it returns the old value
 * (dst[0]; memory in dst[1]) and whether it compares (src[1] compare, src[2] value). */
struct atomic_row {
    uint32_t op;
    SpvOp spv;
    bool imm, compare;
};

static const struct atomic_row atomic_rows[] = {
    { SB_IR_OP_ATOMIC_AND, SpvOpAtomicAnd, false, false },
    { SB_IR_OP_ATOMIC_OR, SpvOpAtomicOr, false, false },
    { SB_IR_OP_ATOMIC_XOR, SpvOpAtomicXor, false, false },
    { SB_IR_OP_ATOMIC_CMP_STORE, SpvOpAtomicCompareExchange, false, true },
    { SB_IR_OP_ATOMIC_IADD, SpvOpAtomicIAdd, false, false },
    { SB_IR_OP_ATOMIC_IMAX, SpvOpAtomicSMax, false, false },
    { SB_IR_OP_ATOMIC_IMIN, SpvOpAtomicSMin, false, false },
    { SB_IR_OP_ATOMIC_UMAX, SpvOpAtomicUMax, false, false },
    { SB_IR_OP_ATOMIC_UMIN, SpvOpAtomicUMin, false, false },
    { SB_IR_OP_IMM_ATOMIC_IADD, SpvOpAtomicIAdd, true, false },
    { SB_IR_OP_IMM_ATOMIC_AND, SpvOpAtomicAnd, true, false },
    { SB_IR_OP_IMM_ATOMIC_OR, SpvOpAtomicOr, true, false },
    { SB_IR_OP_IMM_ATOMIC_XOR, SpvOpAtomicXor, true, false },
    { SB_IR_OP_IMM_ATOMIC_EXCH, SpvOpAtomicExchange, true, false },
    { SB_IR_OP_IMM_ATOMIC_CMP_EXCH, SpvOpAtomicCompareExchange, true, true },
    { SB_IR_OP_IMM_ATOMIC_IMAX, SpvOpAtomicSMax, true, false },
    { SB_IR_OP_IMM_ATOMIC_IMIN, SpvOpAtomicSMin, true, false },
    { SB_IR_OP_IMM_ATOMIC_UMAX, SpvOpAtomicUMax, true, false },
    { SB_IR_OP_IMM_ATOMIC_UMIN, SpvOpAtomicUMin, true, false },
};

/* Texel pointer of a typed UAV (Image storage class); `type` gets the texel's integer type. */
static uint32_t texel_pointer(struct sb_spv_context *ctx, const struct sb_ir_operand *uav,
                              uint32_t index, const struct sb_ir_operand *address, uint32_t *type)
{
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_spv_dimension_info *dim =
        sb_spv_dimension_info(ctx->program->resources[index].dimension);
    if (!dim || dim->ms || !sb_spv_resource_state(ctx)->info[index].atomic_format) {
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL, "atomic on u%u of dimension %u",
                    ctx->program->resources[index].id, ctx->program->resources[index].dimension);
        return 0;
    }
    *type = ctx->resources[index].sampled_type;
    uint32_t coord = sb_spv_load_src_n(ctx, address, dim->coords, SB_IR_TYPE_INT);
    uint32_t image = sb_spv_resource_descriptor_pointer(ctx, index, uav);
    if (!coord || !image)
        return 0;
    uint32_t words[3] = { image, coord, sb_spv_uint(ctx, 0) };
    uint32_t ptr = sb_spv_op_result(b, SpvOpImageTexelPointer,
                                    sb_spv_type_pointer(b, SpvStorageClassImage, *type), words, 3);
    sb_spv_resource_non_uniform(ctx, uav, ptr);
    return ptr;
}

/* Pointer to the DWORD an atomic works on; `type` gets u32 or i32. */
static uint32_t atomic_pointer(struct sb_spv_context *ctx, const struct sb_ir_operand *memory,
                               const struct sb_ir_operand *address, uint32_t *type)
{
    struct sb_spv_builder *b = &ctx->builder;
    *type = sb_spv_t_u32(ctx);
    if (memory->file == SB_IR_FILE_UAV) {
        uint32_t index = sb_spv_resource_index(ctx, memory, SB_IR_RESOURCE_UAV);
        if (index == UINT32_MAX)
            return 0;
        if (ctx->program->resources[index].kind == SB_IR_RESOURCE_KIND_TYPED)
            return texel_pointer(ctx, memory, index, address, type);
    } else if (memory->file != SB_IR_FILE_GROUP_SHARED) {
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL, "atomic on register file %u",
                    memory->file);
        return 0;
    }
    bool structured = false;
    uint32_t stride = sb_spv_memory_stride(ctx, memory, &structured);
    if (!stride)
        return 0;
    uint32_t bytes;
    if (structured) {
        uint32_t xy = sb_spv_load_src_n(ctx, address, 2, SB_IR_TYPE_UINT);
        if (!xy)
            return 0;
        uint32_t element = sb_spv_extract(b, sb_spv_t_u32(ctx), xy, 0);
        bytes = sb_spv_op2(b, SpvOpIAdd, sb_spv_t_u32(ctx),
                           sb_spv_op2(b, SpvOpIMul, sb_spv_t_u32(ctx), element, sb_spv_uint(ctx, stride)),
                           sb_spv_extract(b, sb_spv_t_u32(ctx), xy, 1));
    } else {
        bytes = sb_spv_load_scalar(ctx, address, SB_IR_TYPE_UINT);
        if (!bytes)
            return 0;
    }
    uint32_t dword = sb_spv_op2(b, SpvOpShiftRightLogical, sb_spv_t_u32(ctx), bytes, sb_spv_uint(ctx, 2));
    uint32_t texels = sb_spv_texel_memory_index(ctx, memory);
    if (texels != UINT32_MAX)
        return sb_spv_texel_memory_pointer(ctx, texels, memory, dword);
    return sb_spv_memory_dword_pointer(ctx, memory, dword);
}

/*
 * The old value of an atomic signed min/max on the uint at `ptr`, as a loop that
 * SPIRV-Cross writes faithfully in every language:
 *   expected = atomic load;
 *   loop { old = expected; new = (int(value) < int(old)) ? value : old;   (max: >)
 *          expected = compare-exchange(ptr, new, if equal to old); } until expected == old
 * A store that loses a race sees the newer value and tries again; one that wins leaves the
 * signed minimum (maximum) in memory and returns what was there before, like the atomic.
 */
static uint32_t signed_min_max_loop(struct sb_spv_context *ctx, SpvOp op, uint32_t ptr, uint32_t scope,
                                    uint32_t value)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t u32 = sb_spv_t_u32(ctx), bool_type = sb_spv_type_bool(b);
    uint32_t relaxed = sb_spv_uint(ctx, 0);
    uint32_t expected = sb_spv_variable_local(b, sb_spv_type_pointer(b, SpvStorageClassFunction, u32), 0);
    sb_spv_store(b, expected, sb_spv_op3(b, SpvOpAtomicLoad, u32, ptr, scope, relaxed));
    uint32_t header = sb_spv_id(b), body = sb_spv_id(b), continue_block = sb_spv_id(b), merge = sb_spv_id(b);
    sb_spv_branch(b, header);
    sb_spv_label(b, header);
    sb_spv_loop_merge(b, merge, continue_block);
    sb_spv_branch(b, body);
    sb_spv_label(b, body);
    uint32_t old = sb_spv_load(b, u32, expected);
    uint32_t better = sb_spv_op2(b, op == SpvOpAtomicSMin ? SpvOpSLessThan : SpvOpSGreaterThan, bool_type,
                                 sb_spv_bitcast(b, sb_spv_t_i32(ctx), u32, value), sb_spv_bitcast(b, sb_spv_t_i32(ctx), u32, old));
    uint32_t desired = sb_spv_op3(b, SpvOpSelect, u32, better, value, old);
    uint32_t words[6] = { ptr, scope, relaxed, relaxed, desired, old };
    uint32_t seen = sb_spv_op_result(b, SpvOpAtomicCompareExchange, u32, words, 6);
    sb_spv_store(b, expected, seen);
    sb_spv_branch_conditional(b, sb_spv_op2(b, SpvOpIEqual, bool_type, seen, old), merge, continue_block);
    sb_spv_label(b, continue_block);
    sb_spv_branch(b, header);
    sb_spv_label(b, merge);
    return sb_spv_load(b, u32, expected);
}

static enum sb_result emit_atomic(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                                  const struct atomic_row *row)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t dsts = row->imm ? 2 : 1, srcs = row->compare ? 3 : 2;
    if (inst->dst_count < dsts || inst->src_count < srcs)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "%s has too few operands",
                           sb_ir_op_name(inst->op));
    const struct sb_ir_operand *memory = &inst->dst[dsts - 1];
    uint32_t type;
    uint32_t ptr = atomic_pointer(ctx, memory, &inst->src[0], &type);
    uint32_t value = sb_spv_load_scalar(ctx, &inst->src[srcs - 1], SB_IR_TYPE_UINT);
    if (!ptr || !value)
        return ctx->result;
    uint32_t scope = sb_spv_uint(ctx, memory->file == SB_IR_FILE_GROUP_SHARED ? SpvScopeWorkgroup
                                                                               : SpvScopeDevice);
    uint32_t relaxed = sb_spv_uint(ctx, 0);
    uint32_t words[6], n = 0;
    words[n++] = ptr;
    words[n++] = scope;
    words[n++] = relaxed;
    if (row->compare)
        words[n++] = relaxed;
    words[n++] = sb_spv_bitcast(b, type, sb_spv_t_u32(ctx), value);
    if (row->compare) {
        uint32_t cmp = sb_spv_load_scalar(ctx, &inst->src[1], SB_IR_TYPE_UINT);
        if (!cmp)
            return ctx->result;
        words[n++] = sb_spv_bitcast(b, type, sb_spv_t_u32(ctx), cmp);
    }
    bool signed_on_uint = (row->spv == SpvOpAtomicSMin || row->spv == SpvOpAtomicSMax) && type == sb_spv_t_u32(ctx);
    uint32_t old = signed_on_uint && sb_spv_for_text_target(ctx)
                       ? signed_min_max_loop(ctx, row->spv, ptr, scope, words[n - 1])
                       : sb_spv_op_result(b, row->spv, type, words, n);
    if (row->imm)
        sb_spv_store_replicated(ctx, inst, &inst->dst[0], sb_spv_bitcast(b, sb_spv_t_u32(ctx), type, old),
                                SB_IR_TYPE_UINT);
    return ctx->result;
}

/* imm_atomic_alloc / imm_atomic_consume on the UAV's counter buffer. */
static enum sb_result emit_counter(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (inst->dst_count < 2)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "%s has too few operands",
                           sb_ir_op_name(inst->op));
    uint32_t index = sb_spv_resource_index(ctx, &inst->dst[1], SB_IR_RESOURCE_UAV);
    if (index == UINT32_MAX)
        return ctx->result;
    const struct sb_spv_resource *r = &ctx->resources[index];
    if (!r->counter_var)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "u%u has no counter",
                           ctx->program->resources[index].id);
    uint32_t chain[2] = { sb_spv_uint(ctx, 0), sb_spv_uint(ctx, 0) }, n = 1;
    if (r->arrayed) {
        /* One counter block per descriptor of the range, indexed like the UAV. */
        chain[0] = sb_spv_resource_array_index(ctx, index, &inst->dst[1]);
        n = 2;
        if (!chain[0])
            return ctx->result;
    }
    uint32_t zero = sb_spv_uint(ctx, 0);
    uint32_t ptr = sb_spv_access_chain(b, sb_spv_type_pointer(b, SpvStorageClassStorageBuffer, sb_spv_t_u32(ctx)),
                                       r->counter_var, chain, n);
    if (r->arrayed) {
        if (inst->dst[1].non_uniform && !sb_spv_waterfall_index(ctx, &inst->dst[1]))
            sb_spv_resource_need_indexing(ctx, SpvCapabilityStorageBufferArrayNonUniformIndexing);
        sb_spv_resource_non_uniform(ctx, &inst->dst[1], ptr);
    }
    bool consume = inst->op == SB_IR_OP_IMM_ATOMIC_CONSUME;
    uint32_t value = sb_spv_op3(b, consume ? SpvOpAtomicIDecrement : SpvOpAtomicIIncrement, sb_spv_t_u32(ctx),
                                ptr, sb_spv_uint(ctx, SpvScopeDevice), zero);
    if (consume)
        value = sb_spv_op2(b, SpvOpISub, sb_spv_t_u32(ctx), value, sb_spv_uint(ctx, 1));
    sb_spv_store_replicated(ctx, inst, &inst->dst[0], value, SB_IR_TYPE_UINT);
    return ctx->result;
}

enum sb_result sb_spv_uav_atomic(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    if (inst->op == SB_IR_OP_IMM_ATOMIC_ALLOC || inst->op == SB_IR_OP_IMM_ATOMIC_CONSUME)
        return emit_counter(ctx, inst);
    for (size_t i = 0; i < sizeof(atomic_rows) / sizeof(atomic_rows[0]); i++)
        if (atomic_rows[i].op == inst->op)
            return emit_atomic(ctx, inst, &atomic_rows[i]);
    return SB_ERROR_TRANSLATE_UNSUPPORTED;
}
