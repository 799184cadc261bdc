/* SPDX-License-Identifier: MIT */
/*
 * UAV and memory reads/writes of the SPIR-V back end:
 *   ld_uav_typed / store_uav_typed -> OpImageRead / OpImageWrite on the
 *       storage image or texel buffer (Unknown format: the ...WithoutFormat
 *       capabilities, declared on first use);
 *   ld_raw / store_raw / ld_structured / store_structured on raw or
 *       structured t#/u# and on g# -> uint loads/stores of single DWORDs.
 *       The DWORD index is byte offset >> 2 (raw) or
 *       (index * stride + byte offset) >> 2 (structured), IR.md §Resources.
 *       A read gathers DWORD `base + c` for each written lane, c being the
 *       memory operand's swizzle of that lane; a store writes lane i of the
 *       mask to DWORD `base + i`.
 *       When those DWORDs are one unbroken run of 2-4 and the stride and the
 *       immediate offset (or index) put its start on an 8-byte (2 DWORDs) or
 *       16-byte (3 or 4) boundary, the run is one vector load or store through
 *       a view of the same binding (spirv_uav_vector.c): lavapipe loops over
 *       its SIMD lanes once per StorageBuffer access, not once per DWORD.
 *       A register bound as a texel buffer (device fallback) reads and writes
 *       the same DWORDs through spirv_texel_memory.c.
 * Out-of-range buffer accesses are left to robustBufferAccess (D3D: reads 0,
 * writes dropped); g# indices are clamped (sb_spv_memory_dword_pointer).
 */
#include "spirv_private.h"

/* The typed u# of `op`: index, dimension row and loaded image; 0 (recorded) otherwise. */
static uint32_t storage_image(struct sb_spv_context *ctx, const struct sb_ir_operand *op,
                              uint32_t *index, const struct sb_spv_dimension_info **dim)
{
    *index = sb_spv_resource_index(ctx, op, SB_IR_RESOURCE_UAV);
    if (*index == UINT32_MAX)
        return 0;
    const struct sb_ir_resource *r = &ctx->program->resources[*index];
    *dim = sb_spv_dimension_info(r->dimension);
    if (!*dim || r->kind != SB_IR_RESOURCE_KIND_TYPED || (*dim)->ms) {
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL, "u%u is not a typed UAV", r->id);
        return 0;
    }
    return sb_spv_resource_load_handle(ctx, *index, op);
}

static enum sb_result emit_typed(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    bool store = inst->op == SB_IR_OP_STORE_UAV_TYPED;
    if (inst->dst_count < 1 || inst->src_count < 2)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "%s has too few operands",
                           sb_ir_op_name(inst->op));
    const struct sb_ir_operand *uav = store ? &inst->dst[0] : &inst->src[1];
    uint32_t index;
    const struct sb_spv_dimension_info *dim;
    uint32_t image = storage_image(ctx, uav, &index, &dim);
    if (!image)
        return ctx->result;
    const struct sb_spv_resource_info *info = &sb_spv_resource_state(ctx)->info[index];
    uint32_t coord = sb_spv_load_src_n(ctx, &inst->src[0], dim->coords, SB_IR_TYPE_INT);
    if (!coord)
        return ctx->result;
    if (store) {
        uint32_t value = sb_spv_load_src_n(ctx, &inst->src[1], 4, info->value_type);
        if (!value)
            return ctx->result;
        if (!info->atomic_format)
            sb_spv_capability(b, SpvCapabilityStorageImageWriteWithoutFormat);
        uint32_t words[3] = { image, coord, value };
        sb_spv_op(b, SpvOpImageWrite, words, 3);
        return ctx->result;
    }
    if (!info->atomic_format)
        sb_spv_capability(b, SpvCapabilityStorageImageReadWithoutFormat);
    uint32_t texel = sb_spv_op2(b, SpvOpImageRead, sb_spv_type_of(ctx, info->value_type, 4), image,
                                coord);
    if (sb_spv_store_texel(ctx, inst, &inst->dst[0], texel, info->value_type, uav))
        sb_spv_store_status(ctx, inst);
    return ctx->result;
}

/* Byte address of a raw (byte offset) or structured (index, byte offset) access; the
 * structure stride (4 for raw) in *stride. */
static uint32_t byte_address(struct sb_spv_context *ctx, const struct sb_ir_operand *memory,
                             const struct sb_ir_operand *first, const struct sb_ir_operand *second,
                             uint32_t *stride)
{
    struct sb_spv_builder *b = &ctx->builder;
    bool structured = false;
    *stride = sb_spv_memory_stride(ctx, memory, &structured);
    if (!*stride)
        return 0;
    uint32_t bytes = sb_spv_load_scalar(ctx, second ? second : first, SB_IR_TYPE_UINT);
    if (second) {
        uint32_t element = sb_spv_load_scalar(ctx, first, SB_IR_TYPE_UINT);
        if (!element || !bytes)
            return 0;
        bytes = sb_spv_op2(b, SpvOpIAdd, sb_spv_t_u32(ctx),
                           sb_spv_op2(b, SpvOpIMul, sb_spv_t_u32(ctx), element, sb_spv_uint(ctx, *stride)),
                           bytes);
    }
    return bytes;
}

/* First DWORD of the access at byte address `bytes`. */
static uint32_t base_dword(struct sb_spv_context *ctx, uint32_t bytes)
{
    return sb_spv_op2(&ctx->builder, SpvOpShiftRightLogical, sb_spv_t_u32(ctx), bytes, sb_spv_uint(ctx, 2));
}

/* DWORD `base + lane` (lane 0 is `base` itself). */
static uint32_t dword_at(struct sb_spv_context *ctx, uint32_t base, uint32_t lane)
{
    if (!lane)
        return base;
    return sb_spv_op2(&ctx->builder, SpvOpIAdd, sb_spv_t_u32(ctx), base, sb_spv_uint(ctx, lane));
}

/* What translation knows of a byte address: it equals `residue` modulo `modulus` (4, 8 or
 * 16; 4 says nothing beyond D3D's DWORD addressing). */
struct address_alignment {
    uint32_t modulus, residue;
};

/* An immediate scalar operand's value in *value; false for anything read at run time. */
static bool immediate_scalar(const struct sb_ir_operand *op, uint32_t *value)
{
    if (op->file != SB_IR_FILE_IMMEDIATE || op->modifiers)
        return false;
    *value = op->imm[op->swizzle[0] & 3u];
    return true;
}

/* Immediate offsets and indices are exact; an index read at run time still moves the
 * address in whole structures, so the stride's power of two stays known. */
static struct address_alignment address_alignment(const struct sb_ir_operand *first,
                                                  const struct sb_ir_operand *second, uint32_t stride)
{
    struct address_alignment al = { 16, 0 };
    uint32_t offset, index;
    if (!immediate_scalar(second ? second : first, &offset))
        return (struct address_alignment){ 4, 0 };
    al.residue = offset;
    if (second) {
        if (immediate_scalar(first, &index))
            al.residue += index * stride;
        else if ((stride & (0u - stride)) < al.modulus)
            al.modulus = stride & (0u - stride);
    }
    al.residue %= al.modulus;
    return al;
}

/* Can DWORDs first .. first + lanes - 1 of an access be one load or store of a vector view? */
static bool vector_run(struct sb_spv_context *ctx, const struct sb_ir_operand *memory,
                       struct address_alignment al, uint32_t first, uint32_t lanes)
{
    if (lanes < 2 || lanes > 4)
        return false;
    uint32_t view_stride = sb_spv_memory_vector_stride(lanes);
    return view_stride <= al.modulus && (al.residue + 4u * first) % view_stride == 0 &&
           sb_spv_memory_vector_allowed(ctx, memory);
}

/* Pointer to the view element that starts at DWORD `first` of byte address `bytes`. */
static uint32_t vector_pointer(struct sb_spv_context *ctx, const struct sb_ir_operand *memory,
                               uint32_t bytes, uint32_t first, uint32_t lanes)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (first)
        bytes = sb_spv_op2(b, SpvOpIAdd, sb_spv_t_u32(ctx), bytes, sb_spv_uint(ctx, 4u * first));
    uint32_t element = sb_spv_op2(b, SpvOpShiftRightLogical, sb_spv_t_u32(ctx), bytes,
                                  sb_spv_uint(ctx, lanes == 2 ? 3u : 4u));
    return sb_spv_memory_vector_pointer(ctx, memory, lanes, element);
}

/* The lowest set bit of a non-zero nibble and how many bits span it to the highest; true
 * when every bit between is set too. */
static bool contiguous_run(uint32_t bits, uint32_t *first, uint32_t *lanes)
{
    uint32_t lo = 0, hi = 3;
    while (!(bits & (1u << lo)))
        lo++;
    while (!(bits & (1u << hi)))
        hi--;
    *first = lo;
    *lanes = hi - lo + 1;
    return bits == ((1u << *lanes) - 1u) << lo;
}

/* ld_raw / ld_structured of a run of DWORDs as one vector load through a view; false when
 * the run is not one (nothing emitted then). */
static bool load_vector(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                        const struct sb_ir_operand *memory, uint32_t bytes, struct address_alignment al)
{
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_ir_operand *dst = &inst->dst[0];
    uint32_t read = 0, first, lanes;
    for (uint32_t i = 0; i < 4; i++)
        if (dst->mask & (1u << i))
            read |= 1u << (memory->swizzle[i] & 3u);
    if (!read || !contiguous_run(read, &first, &lanes) || !vector_run(ctx, memory, al, first, lanes))
        return false;
    uint32_t ptr = vector_pointer(ctx, memory, bytes, first, lanes);
    if (!ptr)
        return true; /* recorded */
    uint32_t run = sb_spv_load(b, sb_spv_t_uvec(ctx, lanes), ptr);
    uint32_t comps[4], n = 0;
    bool identity = true;
    for (uint32_t i = 0; i < 4; i++)
        if (dst->mask & (1u << i)) {
            comps[n] = (memory->swizzle[i] & 3u) - first;
            identity = identity && comps[n] == n;
            n++;
        }
    uint32_t value = run;
    if (n == 1)
        value = sb_spv_extract(b, sb_spv_t_u32(ctx), run, comps[0]);
    else if (!identity || n != lanes)
        value = sb_spv_shuffle(b, sb_spv_t_uvec(ctx, n), run, run, comps, n);
    if (dst->file != SB_IR_FILE_NULL)
        sb_spv_store_dst(ctx, inst, dst, value, SB_IR_TYPE_UINT);
    return true;
}

static enum sb_result emit_memory_load(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    bool structured = inst->op == SB_IR_OP_LD_STRUCTURED;
    if (inst->dst_count < 1 || inst->src_count < (structured ? 3u : 2u))
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "%s has too few operands",
                           sb_ir_op_name(inst->op));
    const struct sb_ir_operand *memory = &inst->src[structured ? 2 : 1];
    const struct sb_ir_operand *dst = &inst->dst[0];
    const struct sb_ir_operand *second = structured ? &inst->src[1] : NULL;
    uint32_t stride;
    uint32_t bytes = byte_address(ctx, memory, &inst->src[0], second, &stride);
    if (!bytes)
        return ctx->result;
    if (load_vector(ctx, inst, memory, bytes, address_alignment(&inst->src[0], second, stride))) {
        sb_spv_store_status(ctx, inst);
        return ctx->result;
    }
    uint32_t base = base_dword(ctx, bytes);
    uint32_t parts[4], n = 0;
    uint32_t texels = sb_spv_texel_memory_index(ctx, memory);
    for (uint32_t i = 0; i < 4; i++) {
        if (!(dst->mask & (1u << i)))
            continue;
        uint32_t dword = dword_at(ctx, base, memory->swizzle[i] & 3u);
        if (texels != UINT32_MAX) {
            if (!(parts[n++] = sb_spv_texel_memory_load(ctx, texels, memory, dword)))
                return ctx->result;
            continue;
        }
        uint32_t ptr = sb_spv_memory_dword_pointer(ctx, memory, dword);
        if (!ptr)
            return ctx->result;
        parts[n++] = sb_spv_load(b, sb_spv_t_u32(ctx), ptr);
    }
    if (n && dst->file != SB_IR_FILE_NULL) {
        uint32_t value = n == 1 ? parts[0] : sb_spv_construct(b, sb_spv_t_uvec(ctx, n), parts, n);
        sb_spv_store_dst(ctx, inst, dst, value, SB_IR_TYPE_UINT);
    }
    sb_spv_store_status(ctx, inst);
    return ctx->result;
}

static enum sb_result emit_memory_store(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    bool structured = inst->op == SB_IR_OP_STORE_STRUCTURED;
    if (inst->dst_count < 1 || inst->src_count < (structured ? 3u : 2u))
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "%s has too few operands",
                           sb_ir_op_name(inst->op));
    const struct sb_ir_operand *memory = &inst->dst[0];
    if (memory->file == SB_IR_FILE_RESOURCE)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "%s to a read-only t#",
                           sb_ir_op_name(inst->op));
    uint32_t mask = memory->mask & 0xFu;
    if (!mask)
        return SB_SUCCESS;
    const struct sb_ir_operand *second = structured ? &inst->src[1] : NULL;
    uint32_t stride;
    uint32_t bytes = byte_address(ctx, memory, &inst->src[0], second, &stride);
    uint32_t first, lanes;
    bool vector = contiguous_run(mask, &first, &lanes) &&
                  vector_run(ctx, memory, address_alignment(&inst->src[0], second, stride), first, lanes);
    uint32_t base = bytes && !vector ? base_dword(ctx, bytes) : 0;
    uint32_t value = sb_spv_load_src(ctx, &inst->src[structured ? 2 : 1], mask, SB_IR_TYPE_UINT);
    if (!bytes || !value)
        return ctx->result;
    if (vector) {
        /* The value's lanes are the mask's, in order: DWORDs first .. first + lanes - 1. */
        uint32_t ptr = vector_pointer(ctx, memory, bytes, first, lanes);
        if (ptr)
            sb_spv_store(b, ptr, value);
        return ctx->result;
    }
    uint32_t n = sb_spv_mask_count(mask), k = 0;
    uint32_t texels = sb_spv_texel_memory_index(ctx, memory);
    for (uint32_t i = 0; i < 4; i++) {
        if (!(mask & (1u << i)))
            continue;
        uint32_t lane = n == 1 ? value : sb_spv_extract(b, sb_spv_t_u32(ctx), value, k);
        k++;
        if (texels != UINT32_MAX) {
            if (!sb_spv_texel_memory_store(ctx, texels, memory, dword_at(ctx, base, i), lane))
                return ctx->result;
            continue;
        }
        uint32_t ptr = sb_spv_memory_dword_pointer(ctx, memory, dword_at(ctx, base, i));
        if (!ptr)
            return ctx->result;
        sb_spv_store(b, ptr, lane);
    }
    return ctx->result;
}

enum sb_result sb_spv_uav_access(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    switch (inst->op) {
    case SB_IR_OP_LD_UAV_TYPED:
    case SB_IR_OP_STORE_UAV_TYPED: return emit_typed(ctx, inst);
    case SB_IR_OP_LD_RAW:
    case SB_IR_OP_LD_STRUCTURED: return emit_memory_load(ctx, inst);
    case SB_IR_OP_STORE_RAW:
    case SB_IR_OP_STORE_STRUCTURED: return emit_memory_store(ctx, inst);
    default: return SB_ERROR_TRANSLATE_UNSUPPORTED;
    }
}
