/* SPDX-License-Identifier: MIT */
/*
 * Resource queries of the SPIR-V back end: resinfo, sampleinfo, samplepos,
 * bufinfo and lod (ImageQuery capability). D3D rules kept here:
 *   * resinfo: x/y/z = width, height, depth or array size of mip `src0`
 *     (cube arrays count cubes), w = mip count; a mip level past the last
 *     gives 0 sizes (the query runs on the last valid level and is then
 *     replaced, Vulkan leaves larger levels undefined); `_rcpFloat` inverts
 *     the sizes but not the array size; storage images and multisampled
 *     textures have one level;
 *   * sampleinfo: x = sample count (1 for single-sampled textures), yzw = 0;
 *     for `rasterizer` the count is a specialization constant
 *     (SpecId SB_SPEC_ID_SAMPLE_COUNT, translate.h; default 1) that the
 *     pipeline sets to its rasterizationSamples, as SPIR-V cannot read it;
 *   * samplepos: D3D's standard sample pattern for 1/2/4/8/16 samples, in
 *     pixels from the centre; other counts or an index >= count give 0;
 *   * bufinfo: typed -> elements, raw -> bytes, structured -> structures (a
 *     raw/structured register bound as a texel buffer: its texels are DWORDs);
 *     one value replicated into the mask;
 *   * lod: x = clamped, y = unclamped LOD (OpImageQueryLod), zw = 0; Vulkan
 *     has it only in fragment shaders, elsewhere the result is 0.
 */
#include "spirv_private.h"

/* The texel-resource handle of a t#/u# query operand with its dimension row. */
static uint32_t query_handle(struct sb_spv_context *ctx, const struct sb_ir_operand *op,
                             uint32_t *index, const struct sb_spv_dimension_info **dim)
{
    uint32_t cls = op->file == SB_IR_FILE_UAV ? SB_IR_RESOURCE_UAV : SB_IR_RESOURCE_SRV;
    *index = sb_spv_resource_index(ctx, op, cls);
    if (*index == UINT32_MAX)
        return 0;
    *dim = sb_spv_dimension_info(ctx->program->resources[*index].dimension);
    if (!*dim || ctx->program->resources[*index].kind != SB_IR_RESOURCE_KIND_TYPED) {
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL, "register %u is not a typed resource",
                    ctx->program->resources[*index].id);
        return 0;
    }
    sb_spv_capability(&ctx->builder, SpvCapabilityImageQuery);
    return sb_spv_resource_load_handle(ctx, *index, op);
}

/* ivec of `n` lanes -> ivec4 (zero-filled) with `last` in w. */
static uint32_t widen(struct sb_spv_context *ctx, uint32_t v, uint32_t n, uint32_t w)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t parts[4], zero = sb_spv_const_i32(b, 0);
    for (uint32_t i = 0; i < 3; i++)
        parts[i] = i < n ? (n == 1 ? v : sb_spv_extract(b, sb_spv_t_i32(ctx), v, i)) : zero;
    parts[3] = w;
    return sb_spv_construct(b, sb_spv_t_ivec(ctx, 4), parts, 4);
}

static enum sb_result emit_resinfo(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t index;
    const struct sb_spv_dimension_info *dim;
    if (inst->dst_count < 1 || inst->src_count < 2)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "resinfo has too few operands");
    uint32_t image = query_handle(ctx, &inst->src[1], &index, &dim);
    if (!image)
        return ctx->result;
    uint32_t n = dim->size_lanes, itype = sb_spv_t_ivec(ctx, n), size, levels;
    bool storage = inst->src[1].file == SB_IR_FILE_UAV;
    if (storage || dim->ms || dim->dim == SpvDimBuffer) {
        size = sb_spv_op1(b, SpvOpImageQuerySize, itype, image);
        levels = sb_spv_const_i32(b, 1);
    } else {
        uint32_t lod = sb_spv_load_scalar(ctx, &inst->src[0], SB_IR_TYPE_UINT);
        if (!lod)
            return ctx->result;
        levels = sb_spv_op1(b, SpvOpImageQueryLevels, sb_spv_t_i32(ctx), image);
        uint32_t ulevels = sb_spv_bitcast(b, sb_spv_t_u32(ctx), sb_spv_t_i32(ctx), levels);
        uint32_t last = sb_spv_op2(b, SpvOpISub, sb_spv_t_u32(ctx), ulevels, sb_spv_uint(ctx, 1));
        uint32_t safe = sb_spv_glsl2(b, sb_spv_t_u32(ctx), GLSLstd450UMin, lod, last);
        size = sb_spv_op2(b, SpvOpImageQuerySizeLod, itype, image,
                          sb_spv_bitcast(b, sb_spv_t_i32(ctx), sb_spv_t_u32(ctx), safe));
        uint32_t in_range = sb_spv_op2(b, SpvOpULessThan, sb_spv_t_bool(ctx), lod, ulevels);
        uint32_t cond = in_range;
        if (n > 1) {
            uint32_t parts[3] = { in_range, in_range, in_range };
            cond = sb_spv_construct(b, sb_spv_t_bvec(ctx, n), parts, n);
        }
        size = sb_spv_op3(b, SpvOpSelect, itype, cond, size, sb_spv_const_of(ctx, SB_IR_TYPE_INT, n, 0));
    }
    uint32_t all = widen(ctx, size, n, levels);
    if (inst->return_type == 2) {
        uint32_t u = sb_spv_bitcast(b, sb_spv_t_uvec(ctx, 4), sb_spv_t_ivec(ctx, 4), all);
        sb_spv_store_texel(ctx, inst, &inst->dst[0], u, SB_IR_TYPE_UINT, &inst->src[1]);
        return ctx->result;
    }
    uint32_t f = sb_spv_op1(b, SpvOpConvertSToF, sb_spv_t_fvec(ctx, 4), all);
    if (inst->return_type == 1) {
        /* rcpFloat: 1/size for the extents, not for the array size or the mip count. */
        uint32_t extents = n - (dim->arrayed ? 1u : 0u), comps[4];
        uint32_t r = sb_spv_op2(b, SpvOpFDiv, sb_spv_t_fvec(ctx, 4),
                                sb_spv_const_of(ctx, SB_IR_TYPE_FLOAT, 4, 0x3F800000u), f);
        for (uint32_t i = 0; i < 4; i++)
            comps[i] = i < extents ? 4 + i : i;
        f = sb_spv_shuffle(b, sb_spv_t_fvec(ctx, 4), f, r, comps, 4);
    }
    sb_spv_store_texel(ctx, inst, &inst->dst[0], f, SB_IR_TYPE_FLOAT, &inst->src[1]);
    return ctx->result;
}

/* The sample count of a t# or the rasterizer (uint). */
static uint32_t sample_count(struct sb_spv_context *ctx, const struct sb_ir_operand *op)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (op->file == SB_IR_FILE_RASTERIZER) {
        struct sb_spv_resource_state *st = sb_spv_resource_state(ctx);
        if (!st->sample_count_spec) {
            uint32_t words[3] = { sb_spv_t_u32(ctx), sb_spv_id(b), 1 };
            sb_spv_emit(b, SB_SPV_SECTION_GLOBAL, SpvOpSpecConstant, words, 3);
            sb_spv_decorate1(b, words[1], SpvDecorationSpecId, SB_SPEC_ID_SAMPLE_COUNT);
            st->sample_count_spec = words[1];
        }
        return st->sample_count_spec;
    }
    uint32_t index;
    const struct sb_spv_dimension_info *dim;
    uint32_t image = query_handle(ctx, op, &index, &dim);
    if (!image)
        return 0;
    if (!dim->ms)
        return sb_spv_uint(ctx, 1);
    uint32_t count = sb_spv_op1(b, SpvOpImageQuerySamples, sb_spv_t_i32(ctx), image);
    return sb_spv_bitcast(b, sb_spv_t_u32(ctx), sb_spv_t_i32(ctx), count);
}

static enum sb_result emit_sampleinfo(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (inst->dst_count < 1 || inst->src_count < 1)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "sampleinfo has too few operands");
    uint32_t count = sample_count(ctx, &inst->src[0]);
    if (!count)
        return ctx->result;
    bool as_uint = inst->return_type == 1;
    uint32_t type = as_uint ? SB_IR_TYPE_UINT : SB_IR_TYPE_FLOAT;
    uint32_t x = as_uint ? count : sb_spv_op1(b, SpvOpConvertUToF, sb_spv_t_f32(ctx), count);
    uint32_t zero = sb_spv_const_of(ctx, type, 1, 0);
    uint32_t parts[4] = { x, zero, zero, zero };
    uint32_t v = sb_spv_construct(b, sb_spv_type_of(ctx, type, 4), parts, 4);
    sb_spv_store_texel(ctx, inst, &inst->dst[0], v, type, &inst->src[0]);
    return ctx->result;
}

/* The Private vec2[32] table (entry 31 = the 0 of invalid queries). */
static uint32_t position_table(struct sb_spv_context *ctx)
{
    struct sb_spv_builder *b = &ctx->builder;
    struct sb_spv_resource_state *st = sb_spv_resource_state(ctx);
    if (st->sample_position_var)
        return st->sample_position_var;
    /* Row count - 1 + index holds sample `index` of the count-sample pattern (count 1, 2, 4,
     * 8, 16: 31 rows); row 31 the 0 of invalid queries. */
    uint32_t rows[32];
    for (uint32_t i = 0; i < 32; i++) {
        uint32_t count = 1;
        while (count <= 16 && i >= 2 * count - 1)
            count *= 2;
        float pos[2];
        sb_ir_standard_sample_position(count, i - (count - 1), pos);
        uint32_t xy[2] = { sb_spv_const_f32(b, pos[0]), sb_spv_const_f32(b, pos[1]) };
        rows[i] = sb_spv_const_composite(b, sb_spv_t_fvec(ctx, 2), xy, 2);
    }
    uint32_t type = sb_spv_type_array(b, sb_spv_t_fvec(ctx, 2), 32);
    uint32_t init = sb_spv_const_composite(b, type, rows, 32);
    st->sample_position_var = sb_spv_variable_global(
        b, sb_spv_type_pointer(b, SpvStorageClassPrivate, type), SpvStorageClassPrivate, init);
    sb_spv_debug_name(ctx, st->sample_position_var, "sample_positions");
    return st->sample_position_var;
}

static enum sb_result emit_samplepos(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (inst->dst_count < 1 || inst->src_count < 2)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "samplepos has too few operands");
    uint32_t count = sample_count(ctx, &inst->src[0]);
    uint32_t sample = sb_spv_load_scalar(ctx, &inst->src[1], SB_IR_TYPE_UINT);
    if (!count || !sample)
        return ctx->result;
    /* First table row of the pattern: 2^k samples start at 2^k - 1. */
    uint32_t base = sb_spv_uint(ctx, 31);
    static const uint32_t counts[5] = { 1, 2, 4, 8, 16 };
    for (uint32_t i = 0; i < 5; i++) {
        uint32_t is = sb_spv_op2(b, SpvOpIEqual, sb_spv_t_bool(ctx), count, sb_spv_uint(ctx, counts[i]));
        base = sb_spv_op3(b, SpvOpSelect, sb_spv_t_u32(ctx), is, sb_spv_uint(ctx, counts[i] - 1), base);
    }
    uint32_t valid = sb_spv_op2(b, SpvOpLogicalAnd, sb_spv_t_bool(ctx),
                                sb_spv_op2(b, SpvOpULessThan, sb_spv_t_bool(ctx), sample, count),
                                sb_spv_op2(b, SpvOpINotEqual, sb_spv_t_bool(ctx), base,
                                           sb_spv_uint(ctx, 31)));
    uint32_t row = sb_spv_op3(b, SpvOpSelect, sb_spv_t_u32(ctx), valid,
                              sb_spv_op2(b, SpvOpIAdd, sb_spv_t_u32(ctx), base, sample), sb_spv_uint(ctx, 31));
    uint32_t ptr = sb_spv_access_chain(b, sb_spv_type_pointer(b, SpvStorageClassPrivate, sb_spv_t_fvec(ctx, 2)),
                                       position_table(ctx), &row, 1);
    uint32_t xy = sb_spv_load(b, sb_spv_t_fvec(ctx, 2), ptr);
    static const uint32_t comps[4] = { 0, 1, 2, 3 };
    uint32_t v = sb_spv_shuffle(b, sb_spv_t_fvec(ctx, 4), xy, sb_spv_const_of(ctx, SB_IR_TYPE_FLOAT, 2, 0),
                                comps, 4);
    sb_spv_store_texel(ctx, inst, &inst->dst[0], v, SB_IR_TYPE_FLOAT, &inst->src[0]);
    return ctx->result;
}

static enum sb_result emit_bufinfo(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (inst->dst_count < 1 || inst->src_count < 1)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "bufinfo has too few operands");
    const struct sb_ir_operand *op = &inst->src[0];
    uint32_t cls = op->file == SB_IR_FILE_UAV ? SB_IR_RESOURCE_UAV : SB_IR_RESOURCE_SRV;
    uint32_t index = sb_spv_resource_index(ctx, op, cls);
    if (index == UINT32_MAX)
        return ctx->result;
    const struct sb_ir_resource *r = &ctx->program->resources[index];
    uint32_t value;
    if (r->kind == SB_IR_RESOURCE_KIND_TYPED) {
        const struct sb_spv_dimension_info *dim;
        uint32_t image = query_handle(ctx, op, &index, &dim);
        if (!image)
            return ctx->result;
        if (dim->dim != SpvDimBuffer)
            return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "bufinfo on texture %u", r->id);
        value = sb_spv_bitcast(b, sb_spv_t_u32(ctx), sb_spv_t_i32(ctx),
                               sb_spv_op1(b, SpvOpImageQuerySize, sb_spv_t_i32(ctx), image));
    } else {
        uint32_t dwords;
        if (r->texel_memory) {
            dwords = sb_spv_texel_memory_dwords(ctx, index, op);
        } else {
            uint32_t block = sb_spv_resource_descriptor_pointer(ctx, index, op);
            uint32_t words[2] = { block, 0 };
            dwords = block ? sb_spv_op_result(b, SpvOpArrayLength, sb_spv_t_u32(ctx), words, 2) : 0;
        }
        if (!dwords)
            return ctx->result;
        value = sb_spv_op2(b, SpvOpIMul, sb_spv_t_u32(ctx), dwords, sb_spv_uint(ctx, 4));
        if (r->kind == SB_IR_RESOURCE_KIND_STRUCTURED)
            value = sb_spv_op2(b, SpvOpUDiv, sb_spv_t_u32(ctx), value, sb_spv_uint(ctx, r->stride));
    }
    sb_spv_store_replicated(ctx, inst, &inst->dst[0], value, SB_IR_TYPE_UINT);
    return ctx->result;
}

static enum sb_result emit_lod(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (inst->dst_count < 1 || inst->src_count < 3)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "lod has too few operands");
    uint32_t index;
    const struct sb_spv_dimension_info *dim;
    if (!query_handle(ctx, &inst->src[1], &index, &dim))
        return ctx->result;
    if (dim->dim == SpvDimBuffer || dim->ms)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "lod on a buffer or MS texture");
    uint32_t v = sb_spv_const_of(ctx, SB_IR_TYPE_FLOAT, 4, 0);
    if (sb_spv_has_derivatives(ctx)) {
        uint32_t n = dim->coords - (dim->arrayed ? 1u : 0u);
        uint32_t coord = sb_spv_load_src_n(ctx, &inst->src[0], n, SB_IR_TYPE_FLOAT);
        uint32_t si = sb_spv_texture_sampled_image(ctx, index, &inst->src[1], &inst->src[2]);
        if (!coord || !si)
            return ctx->result;
        uint32_t lod = sb_spv_op2(b, SpvOpImageQueryLod, sb_spv_t_fvec(ctx, 2), si, coord);
        static const uint32_t comps[4] = { 0, 1, 2, 3 };
        v = sb_spv_shuffle(b, sb_spv_t_fvec(ctx, 4), lod, sb_spv_const_of(ctx, SB_IR_TYPE_FLOAT, 2, 0),
                           comps, 4);
    }
    sb_spv_store_texel(ctx, inst, &inst->dst[0], v, SB_IR_TYPE_FLOAT, &inst->src[1]);
    return ctx->result;
}

enum sb_result sb_spv_texture_query(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    switch (inst->op) {
    case SB_IR_OP_RESINFO: return emit_resinfo(ctx, inst);
    case SB_IR_OP_SAMPLE_INFO: return emit_sampleinfo(ctx, inst);
    case SB_IR_OP_SAMPLE_POS: return emit_samplepos(ctx, inst);
    case SB_IR_OP_BUFINFO: return emit_bufinfo(ctx, inst);
    case SB_IR_OP_LOD: return emit_lod(ctx, inst);
    default: return SB_ERROR_TRANSLATE_UNSUPPORTED;
    }
}
