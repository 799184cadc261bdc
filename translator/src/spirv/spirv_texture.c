/* SPDX-License-Identifier: MIT */
/*
 * Texture reads of the SPIR-V back end: sample, sample_b/_l/_d/_c/_c_lz
 * (with the SM5 `_cl` LOD clamp as MinLod, or, on a device without
 * shaderResourceMinLod, spirv_min_lod.c's per-lane choice), gather4 (+ _c, _po, _po_c) and
 * ld/ld_ms (OpImageFetch). Operand order is SM4's (translator/IR.md
 * §Resources). Conventions:
 *   * t# and s# are separate descriptors joined by OpSampledImage at the use;
 *   * `_aoffimmi` offsets are ConstOffset (not for cubes, where D3D ignores
 *     them); gather4_po's register offset is Offset + ImageGatherExtended,
 *     its low 6 bits sign-extended as D3D reads them;
 *   * implicit-LOD sampling exists only in fragment shaders in Vulkan (and
 *     compute shaders with derivative groups, spirv_compute_derivatives.c):
 *     elsewhere sample/sample_c read LOD 0 and sample_b LOD = bias, which is
 *     what D3D's implicit derivative of 0 gives outside pixel shaders;
 *   * the result goes through the t# operand's swizzle into the write mask;
 *     comparison results are one value replicated;
 *   * ld's mip level is the address's .w lane for every non-buffer,
 *     non-multisampled dimension (D3D: "srcAddress.a always provides the
 *     mip level"); out-of-range addresses and levels are left to the
 *     device's robust image access (D3D returns 0);
 *   * `_s` residency status: always "resident" (sb_spv_store_status);
 *   * for a text target, ld_ms's offset is added to the coordinates instead
 *     (D3D's meaning of it): GLSL has no fetch of a multisampled texture
 *     with an offset, and SPIRV-Cross would write texelFetchOffset.
 */
#include "spirv_private.h"

/* Image operands in SPIR-V order (the mask bits ascend). */
struct image_operands {
    uint32_t bias, lod, grad_x, grad_y, const_offset, offset, sample, min_lod;
};

/* Appends `mask, ids...` for the operands that are set; returns the words written. */
static uint32_t put_operands(const struct image_operands *o, uint32_t *words)
{
    uint32_t n = 1, mask = 0;
    const struct { uint32_t bit, a, b; } rows[] = {
        { SpvImageOperandsBiasMask, o->bias, 0 },
        { SpvImageOperandsLodMask, o->lod, 0 },
        { SpvImageOperandsGradMask, o->grad_x, o->grad_y },
        { SpvImageOperandsConstOffsetMask, o->const_offset, 0 },
        { SpvImageOperandsOffsetMask, o->offset, 0 },
        { SpvImageOperandsSampleMask, o->sample, 0 },
        { SpvImageOperandsMinLodMask, o->min_lod, 0 },
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        if (!rows[i].a)
            continue;
        mask |= rows[i].bit;
        words[n++] = rows[i].a;
        if (rows[i].b)
            words[n++] = rows[i].b;
    }
    words[0] = mask;
    return mask ? n : 0;
}

/* The typed t# of `op`: resource index and dimension row; false (recorded) otherwise. */
static bool texture_of(struct sb_spv_context *ctx, const struct sb_ir_operand *op, uint32_t *index,
                       const struct sb_spv_dimension_info **dim)
{
    *index = sb_spv_resource_index(ctx, op, SB_IR_RESOURCE_SRV);
    if (*index == UINT32_MAX)
        return false;
    *dim = sb_spv_dimension_info(ctx->program->resources[*index].dimension);
    if (!*dim || ctx->program->resources[*index].kind != SB_IR_RESOURCE_KIND_TYPED) {
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL, "t%u is not a typed texture",
                    ctx->program->resources[*index].id);
        return false;
    }
    return true;
}

/* The `_aoffimmi` offsets as a ConstOffset operand; 0 when absent or not allowed. */
static uint32_t const_offset(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                             const struct sb_spv_dimension_info *dim)
{
    uint32_t n = dim->offsets, parts[3];
    bool any = false;
    for (uint32_t i = 0; i < n; i++) {
        parts[i] = sb_spv_const_i32(&ctx->builder, inst->texel_offset[i]);
        any |= inst->texel_offset[i] != 0;
    }
    if (!any)
        return 0;
    return n == 1 ? parts[0] : sb_spv_const_composite(&ctx->builder, sb_spv_t_ivec(ctx, n), parts, n);
}

uint32_t sb_spv_texture_sampled_image(struct sb_spv_context *ctx, uint32_t index,
                                      const struct sb_ir_operand *tex,
                                      const struct sb_ir_operand *smp)
{
    uint32_t s = sb_spv_resource_index(ctx, smp, SB_IR_RESOURCE_SAMPLER);
    if (s == UINT32_MAX)
        return 0;
    uint32_t image = sb_spv_resource_load_handle(ctx, index, tex);
    uint32_t sampler = sb_spv_resource_load_handle(ctx, s, smp);
    if (!image || !sampler)
        return 0;
    uint32_t type = sb_spv_type_sampled_image(&ctx->builder, ctx->resources[index].element_type);
    uint32_t si = sb_spv_op2(&ctx->builder, SpvOpSampledImage, type, image, sampler);
    sb_spv_resource_non_uniform(ctx, tex->non_uniform ? tex : smp, si);
    return si;
}

/* Operand slots of one sampling op (IR.md §Resources). */
struct sample_form {
    uint32_t op;
    uint8_t tex, smp;        /* src index of t# and s# */
    uint8_t extra;           /* first op-specific source (bias/lod/ddx/ref) */
    uint8_t clamp;           /* src index of the _cl clamp when src_count > it; 0 = none */
    bool dref, gather, explicit_lod, programmable_offset;
};

static const struct sample_form sample_forms[] = {
    { SB_IR_OP_SAMPLE, 1, 2, 3, 3, false, false, false, false },
    { SB_IR_OP_SAMPLE_B, 1, 2, 3, 4, false, false, false, false },
    { SB_IR_OP_SAMPLE_L, 1, 2, 3, 0, false, false, true, false },
    { SB_IR_OP_SAMPLE_D, 1, 2, 3, 5, false, false, true, false },
    { SB_IR_OP_SAMPLE_C, 1, 2, 3, 4, true, false, false, false },
    { SB_IR_OP_SAMPLE_C_LZ, 1, 2, 3, 0, true, false, true, false },
    { SB_IR_OP_GATHER4, 1, 2, 3, 0, false, true, false, false },
    { SB_IR_OP_GATHER4_C, 1, 2, 3, 0, true, true, false, false },
    { SB_IR_OP_GATHER4_PO, 2, 3, 4, 0, false, true, false, true },
    { SB_IR_OP_GATHER4_PO_C, 2, 3, 4, 0, true, true, false, true },
    { SB_IR_OP_SAMPLE_C_L, 1, 2, 3, 0, true, false, true, false },
    { SB_IR_OP_SAMPLE_C_D, 1, 2, 3, 6, true, false, true, false },
    { SB_IR_OP_SAMPLE_C_B, 1, 2, 3, 5, true, false, false, false },
};

/* Fills LOD-related operands of the sample ops; returns false (recorded) on failure. A `_cl`
 * clamp becomes MinLod, or, on a device without shaderResourceMinLod, *emulated_clamp (for
 * spirv_min_lod.c) where the LOD is implicit or from gradients, and a max on the LOD where
 * the translation fixes it (implicit forms outside pixel shaders). */
static bool lod_operands(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                         const struct sample_form *f, const struct sb_spv_dimension_info *dim,
                         struct image_operands *o, uint32_t *emulated_clamp)
{
    struct sb_spv_builder *b = &ctx->builder;
    bool fragment = sb_spv_has_derivatives(ctx); /* implicit LODs: pixel and compute quads */
    const struct sb_ir_operand *extra = &inst->src[f->extra];
    switch (f->op) {
    case SB_IR_OP_SAMPLE_B:
        if (fragment)
            o->bias = sb_spv_load_scalar(ctx, extra, SB_IR_TYPE_FLOAT);
        else
            o->lod = sb_spv_load_scalar(ctx, extra, SB_IR_TYPE_FLOAT);
        break;
    case SB_IR_OP_SAMPLE_L:
        o->lod = sb_spv_load_scalar(ctx, extra, SB_IR_TYPE_FLOAT);
        break;
    case SB_IR_OP_SAMPLE_D: {
        uint32_t n = dim->coords - (dim->arrayed ? 1u : 0u);
        o->grad_x = sb_spv_load_src_n(ctx, extra, n, SB_IR_TYPE_FLOAT);
        o->grad_y = sb_spv_load_src_n(ctx, &inst->src[f->extra + 1], n, SB_IR_TYPE_FLOAT);
        if (!o->grad_x || !o->grad_y)
            return false;
        break;
    }
    case SB_IR_OP_SAMPLE_C_LZ:
        o->lod = sb_spv_const_f32(b, 0.0f);
        break;
    case SB_IR_OP_SAMPLE_C_L: /* the ref in `extra`, the LOD after it */
        o->lod = sb_spv_load_scalar(ctx, &inst->src[f->extra + 1], SB_IR_TYPE_FLOAT);
        break;
    case SB_IR_OP_SAMPLE_C_B: /* the ref in `extra`, the bias after it (as sample_b's) */
        if (fragment)
            o->bias = sb_spv_load_scalar(ctx, &inst->src[f->extra + 1], SB_IR_TYPE_FLOAT);
        else
            o->lod = sb_spv_load_scalar(ctx, &inst->src[f->extra + 1], SB_IR_TYPE_FLOAT);
        break;
    case SB_IR_OP_SAMPLE_C_D: { /* the ref in `extra`, ddx and ddy after it */
        uint32_t n = dim->coords - (dim->arrayed ? 1u : 0u);
        o->grad_x = sb_spv_load_src_n(ctx, &inst->src[f->extra + 1], n, SB_IR_TYPE_FLOAT);
        o->grad_y = sb_spv_load_src_n(ctx, &inst->src[f->extra + 2], n, SB_IR_TYPE_FLOAT);
        if (!o->grad_x || !o->grad_y)
            return false;
        break;
    }
    default:
        if (!fragment && !f->gather)
            o->lod = sb_spv_const_f32(b, 0.0f);
        break;
    }
    if (!f->clamp || inst->src_count <= f->clamp)
        return ctx->result == SB_SUCCESS;
    bool computed_lod = o->grad_x || (!o->lod && !f->gather);
    if (!sb_spv_min_lod_emulated(ctx)) {
        /* MinLod is allowed with implicit LOD and Grad only: a fixed LOD keeps no clamp. */
        if (computed_lod) {
            sb_spv_capability(b, SpvCapabilityMinLod);
            o->min_lod = sb_spv_load_scalar(ctx, &inst->src[f->clamp], SB_IR_TYPE_FLOAT);
        }
    } else if (computed_lod) {
        *emulated_clamp = sb_spv_load_scalar(ctx, &inst->src[f->clamp], SB_IR_TYPE_FLOAT);
    } else if (o->lod) {
        uint32_t clamp = sb_spv_load_scalar(ctx, &inst->src[f->clamp], SB_IR_TYPE_FLOAT);
        if (clamp)
            o->lod = sb_spv_glsl2(b, sb_spv_t_f32(ctx), GLSLstd450FMax, o->lod, clamp);
    }
    return ctx->result == SB_SUCCESS;
}

/* The SPIR-V opcode of a sampling form given whether the LOD is explicit. */
static SpvOp sample_opcode(const struct sample_form *f, bool explicit_lod)
{
    if (f->gather)
        return f->dref ? SpvOpImageDrefGather : SpvOpImageGather;
    if (f->dref)
        return explicit_lod ? SpvOpImageSampleDrefExplicitLod : SpvOpImageSampleDrefImplicitLod;
    return explicit_lod ? SpvOpImageSampleExplicitLod : SpvOpImageSampleImplicitLod;
}

static enum sb_result emit_sample(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                                  const struct sample_form *f)
{
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_ir_op_info *info = sb_ir_op_info(inst->op);
    if (inst->dst_count < 1 || inst->src_count < info->src_min)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "%s has too few operands",
                           info->name);
    uint32_t index;
    const struct sb_spv_dimension_info *dim;
    if (!texture_of(ctx, &inst->src[f->tex], &index, &dim))
        return ctx->result;
    uint32_t value_type = sb_spv_resource_state(ctx)->info[index].value_type;
    if (dim->dim == SpvDimBuffer || dim->ms ||
        (f->gather && dim->dim != SpvDim2D && dim->dim != SpvDimCube) ||
        (f->dref && value_type != SB_IR_TYPE_FLOAT))
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst,
                           "%s cannot read t%u of dimension %u", info->name,
                           ctx->program->resources[index].id, ctx->program->resources[index].dimension);
    struct image_operands o = { 0 };
    uint32_t emulated_clamp = 0;
    if (!lod_operands(ctx, inst, f, dim, &o, &emulated_clamp))
        return ctx->result;
    if (f->programmable_offset && dim->offsets) {
        sb_spv_capability(b, SpvCapabilityImageGatherExtended);
        /* D3D reads the low 6 bits of each offset, signed ([-32, 31]). */
        o.offset = sb_spv_load_src_n(ctx, &inst->src[1], dim->offsets, SB_IR_TYPE_INT);
        if (o.offset)
            o.offset = sb_spv_op3(b, SpvOpBitFieldSExtract, sb_spv_t_ivec(ctx, dim->offsets), o.offset,
                                  sb_spv_const_i32(b, 0), sb_spv_const_i32(b, 6));
    } else if (dim->offsets) {
        o.const_offset = const_offset(ctx, inst, dim);
    }
    uint32_t coord = sb_spv_load_src_n(ctx, &inst->src[0], dim->coords, SB_IR_TYPE_FLOAT);
    uint32_t si = sb_spv_texture_sampled_image(ctx, index, &inst->src[f->tex], &inst->src[f->smp]);
    if (!coord || !si)
        return ctx->result;
    uint32_t words[16], n = 0;
    words[n++] = si;
    words[n++] = coord;
    if (f->dref)
        words[n++] = sb_spv_load_scalar(ctx, &inst->src[f->extra], SB_IR_TYPE_FLOAT);
    else if (f->gather)
        words[n++] = sb_spv_uint(ctx, inst->src[f->smp].swizzle[0] & 3u);
    n += put_operands(&o, &words[n]);
    bool scalar = f->dref && !f->gather;
    uint32_t type = sb_spv_type_of(ctx, value_type, scalar ? 1 : 4);
    uint32_t texel = sb_spv_op_result(b, sample_opcode(f, o.lod || o.grad_x), type, words, n);
    if (emulated_clamp) {
        const struct sb_spv_min_lod_sample clamped = {
            .sampled_image = si, .coord = coord, .dref = f->dref ? words[2] : 0,
            .const_offset = o.const_offset, .bias = o.bias, .grad_x = o.grad_x, .grad_y = o.grad_y,
            .clamp = emulated_clamp, .result_type = type, .texture_index = index,
            .texture = &inst->src[f->tex], .dim = dim,
        };
        if (!(texel = sb_spv_min_lod_apply(ctx, inst, &clamped, texel)))
            return ctx->result;
    }
    bool ok = scalar ? sb_spv_store_replicated(ctx, inst, &inst->dst[0], texel, value_type)
                     : sb_spv_store_texel(ctx, inst, &inst->dst[0], texel, value_type,
                                          &inst->src[f->tex]);
    if (!ok || !sb_spv_store_status(ctx, inst))
        return ctx->result;
    return SB_SUCCESS;
}

enum sb_result sb_spv_texture_sample(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    for (size_t i = 0; i < sizeof(sample_forms) / sizeof(sample_forms[0]); i++)
        if (sample_forms[i].op == inst->op)
            return emit_sample(ctx, inst, &sample_forms[i]);
    return SB_ERROR_TRANSLATE_UNSUPPORTED;
}

/* coord + the `_aoffimmi` offsets (the array layer, past the offset lanes, unchanged). */
static uint32_t offset_coordinates(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                                   const struct sb_spv_dimension_info *dim, uint32_t coord)
{
    uint32_t parts[4];
    for (uint32_t i = 0; i < dim->coords; i++)
        parts[i] = sb_spv_const_i32(&ctx->builder, i < dim->offsets ? inst->texel_offset[i] : 0);
    uint32_t type = sb_spv_t_ivec(ctx, dim->coords);
    uint32_t offset = dim->coords == 1 ? parts[0]
                                       : sb_spv_const_composite(&ctx->builder, type, parts, dim->coords);
    return sb_spv_op2(&ctx->builder, SpvOpIAdd, type, coord, offset);
}

/* ld / ld_ms: OpImageFetch with the LOD (.w) or sample index and ConstOffset. */
enum sb_result sb_spv_texture_fetch(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (inst->op != SB_IR_OP_LD && inst->op != SB_IR_OP_LD_MS)
        return SB_ERROR_TRANSLATE_UNSUPPORTED;
    bool ms_op = inst->op == SB_IR_OP_LD_MS;
    if (inst->dst_count < 1 || inst->src_count < (ms_op ? 3u : 2u))
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "%s has too few operands",
                           sb_ir_op_name(inst->op));
    uint32_t index;
    const struct sb_spv_dimension_info *dim;
    if (!texture_of(ctx, &inst->src[1], &index, &dim))
        return ctx->result;
    struct image_operands o = { 0 };
    bool buffer = dim->dim == SpvDimBuffer;
    if (dim->ms)
        o.sample = ms_op ? sb_spv_load_scalar(ctx, &inst->src[2], SB_IR_TYPE_INT)
                         : sb_spv_const_i32(b, 0);
    else if (!buffer)
        o.lod = sb_spv_load_src(ctx, &inst->src[0], 0x8u, SB_IR_TYPE_INT);
    if (!buffer)
        o.const_offset = const_offset(ctx, inst, dim);
    uint32_t coord = sb_spv_load_src_n(ctx, &inst->src[0], dim->coords, SB_IR_TYPE_INT);
    if (dim->ms && o.const_offset && coord && sb_spv_for_text_target(ctx)) {
        coord = offset_coordinates(ctx, inst, dim, coord);
        o.const_offset = 0;
    }
    uint32_t image = sb_spv_resource_load_handle(ctx, index, &inst->src[1]);
    if (!coord || !image || ctx->result != SB_SUCCESS)
        return ctx->result;
    uint32_t value_type = sb_spv_resource_state(ctx)->info[index].value_type;
    uint32_t words[8] = { image, coord };
    uint32_t n = 2 + put_operands(&o, &words[2]);
    uint32_t texel = sb_spv_op_result(b, SpvOpImageFetch, sb_spv_type_of(ctx, value_type, 4), words, n);
    if (!sb_spv_store_texel(ctx, inst, &inst->dst[0], texel, value_type, &inst->src[1]) ||
        !sb_spv_store_status(ctx, inst))
        return ctx->result;
    return SB_SUCCESS;
}
