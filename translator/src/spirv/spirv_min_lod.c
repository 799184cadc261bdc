/* SPDX-License-Identifier: MIT */
/*
 * The `_cl` LOD clamp of sample / sample_b / sample_d / sample_c (and their `_s` forms) on
 * devices without shaderResourceMinLod (sb_device_profile, translate.h; translator/README.md
 * "Device fallbacks"), where SPIR-V's MinLod image operand may not be used.
 *
 * D3D's clamp is a lower bound on the LOD the sample computes (after the instruction's and
 * the sampler's bias): the sample reads at max(LOD, clamp). So a lane whose LOD is at or
 * above the clamp gets what the unclamped instruction returns, and a lane below it gets what
 * a sample at exactly LOD = clamp returns. This file computes that LOD and picks between the
 * two samples per lane:
 *
 *     unclamped = <the instruction without MinLod>           (spirv_texture.c)
 *     lod       = implicit forms: OpImageQueryLod(...).y (+ sample_b's bias)
 *                 sample_d: log2(max(|ddx * size|, |ddy * size|)), size = level 0's extent
 *     clamped   = OpImageSample[Dref]ExplicitLod(..., Lod clamp)
 *     result    = lod < clamp ? clamped : unclamped          (OpSelect, per lane)
 *
 * Why both samples and a select rather than a branch: an implicit-LOD sample takes
 * derivatives across its quad, which Vulkan leaves undefined in non-uniform control flow,
 * and the lanes of one quad may fall on either side of the clamp. Both samples run in the
 * instruction's own control flow.
 *
 * OpImageQueryLod's y is the LOD the sample computes relative to the base level, bias of the
 * sampler included but not clamped to the sampler's range or the levels (the `lod`
 * instruction's "unclamped" lane, spirv_texture_query.c); it has no bias operand, so
 * sample_b's bias is added here. The gradient LOD follows Vulkan's scale factor: rho on each
 * axis is the length of the gradient scaled by the texture's size (a cube's: of the gradient
 * carried onto the lane's face), rho_max the larger, and LOD = log2(rho_max). What this does
 * not reproduce is left to translator/README.md.
 *
 * Residency status (`_s`) is always "resident" here (sb_spv_store_status), which both
 * samples agree on.
 */
#include "spirv_private.h"

bool sb_spv_min_lod_emulated(const struct sb_spv_context *ctx)
{
    const struct sb_device_profile *d = &ctx->options->device;
    return d->described && !d->shader_resource_min_lod;
}

/* The texture's level-0 extent on its first `axes` size lanes, as floats (scalar for one):
 * arrays drop the layer count, cubes (axes 1) keep the face width. */
static uint32_t level0_size(struct sb_spv_context *ctx, const struct sb_spv_min_lod_sample *s, uint32_t axes)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t image_type = ctx->resources[s->texture_index].element_type;
    uint32_t image = sb_spv_op1(b, SpvOpImage, image_type, s->sampled_image);
    if (s->texture->non_uniform)
        sb_spv_resource_non_uniform(ctx, s->texture, image);
    uint32_t lanes = s->dim->size_lanes;
    uint32_t size = sb_spv_op2(b, SpvOpImageQuerySizeLod, sb_spv_t_ivec(ctx, lanes), image, sb_spv_const_i32(b, 0));
    if (lanes != axes) {
        static const uint32_t first[3] = { 0, 1, 2 };
        size = axes == 1 ? sb_spv_extract(b, sb_spv_t_i32(ctx), size, 0)
                         : sb_spv_shuffle(b, sb_spv_t_ivec(ctx, axes), size, size, first, axes);
    }
    return sb_spv_op1(b, SpvOpConvertSToF, sb_spv_t_fvec(ctx, axes), size);
}

/*
 * The length, in face coordinates, of a cube direction r's derivative d (Vulkan's cube
 * derivative transformation): on the face of major axis m, s = sc / (2 |r_m|) + 1/2, so
 * ds = (r_m dsc - sc dr_m) / (2 r_m^2) up to sign, and likewise dt. Both numerators are lanes
 * of the vector r_m d - dr_m r, whose m lane is 0: |(ds, dt)| = |r_m d - dr_m r| / (2 r_m^2).
 * The major axis is chosen as the interpreter's sb_interp_cube_face does (z wins ties, then y).
 */
static uint32_t cube_gradient_length(struct sb_spv_context *ctx, uint32_t r, uint32_t d)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t f = sb_spv_t_f32(ctx), v3 = sb_spv_t_fvec(ctx, 3), bool_type = sb_spv_t_bool(ctx);
    uint32_t magnitude = sb_spv_glsl1(b, v3, GLSLstd450FAbs, r);
    uint32_t ax = sb_spv_extract(b, f, magnitude, 0), ay = sb_spv_extract(b, f, magnitude, 1);
    uint32_t az = sb_spv_extract(b, f, magnitude, 2);
    uint32_t x_over_y = sb_spv_op2(b, SpvOpFOrdGreaterThan, bool_type, ax, ay);
    uint32_t z_major = sb_spv_op2(b, SpvOpFOrdGreaterThanEqual, bool_type, az,
                                  sb_spv_glsl2(b, f, GLSLstd450FMax, ax, ay));
    uint32_t major[2];
    const uint32_t vectors[2] = { r, d };
    for (int i = 0; i < 2; i++) {
        uint32_t xy = sb_spv_op3(b, SpvOpSelect, f, x_over_y, sb_spv_extract(b, f, vectors[i], 0),
                                 sb_spv_extract(b, f, vectors[i], 1));
        major[i] = sb_spv_op3(b, SpvOpSelect, f, z_major, sb_spv_extract(b, f, vectors[i], 2), xy);
    }
    uint32_t w = sb_spv_op2(b, SpvOpFSub, v3, sb_spv_op2(b, SpvOpVectorTimesScalar, v3, d, major[0]),
                            sb_spv_op2(b, SpvOpVectorTimesScalar, v3, r, major[1]));
    uint32_t twice_square = sb_spv_op2(b, SpvOpFMul, f, sb_spv_const_f32(b, 2.0f),
                                       sb_spv_op2(b, SpvOpFMul, f, major[0], major[0]));
    return sb_spv_op2(b, SpvOpFDiv, f, sb_spv_glsl1(b, f, GLSLstd450Length, w), twice_square);
}

/* A cube's sample_d LOD: each gradient measured on the face, scaled by the face's size. */
static uint32_t cube_gradient_lod(struct sb_spv_context *ctx, const struct sb_spv_min_lod_sample *s)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t size = level0_size(ctx, s, 1); /* faces are square: the width */
    uint32_t r = s->coord;
    if (s->dim->arrayed) { /* cube arrays: the direction without the cube index */
        static const uint32_t xyz[3] = { 0, 1, 2 };
        r = sb_spv_shuffle(b, sb_spv_t_fvec(ctx, 3), r, r, xyz, 3);
    }
    uint32_t rho_x = cube_gradient_length(ctx, r, s->grad_x);
    uint32_t rho_y = cube_gradient_length(ctx, r, s->grad_y);
    uint32_t rho = sb_spv_op2(b, SpvOpFMul, sb_spv_t_f32(ctx), sb_spv_glsl2(b, sb_spv_t_f32(ctx), GLSLstd450FMax, rho_x, rho_y),
                              size);
    return sb_spv_glsl1(b, sb_spv_t_f32(ctx), GLSLstd450Log2, rho);
}

/* sample_d's LOD: log2 of the longer of the two gradients measured in level-0 texels. */
static uint32_t gradient_lod(struct sb_spv_context *ctx, const struct sb_spv_min_lod_sample *s)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (s->dim->dim == SpvDimCube)
        return cube_gradient_lod(ctx, s);
    uint32_t axes = s->dim->coords - (s->dim->arrayed ? 1u : 0u);
    uint32_t size = level0_size(ctx, s, axes);
    uint32_t type = sb_spv_t_fvec(ctx, axes);
    uint32_t rho_x = sb_spv_glsl1(b, sb_spv_t_f32(ctx), GLSLstd450Length, sb_spv_op2(b, SpvOpFMul, type, s->grad_x, size));
    uint32_t rho_y = sb_spv_glsl1(b, sb_spv_t_f32(ctx), GLSLstd450Length, sb_spv_op2(b, SpvOpFMul, type, s->grad_y, size));
    uint32_t rho = sb_spv_glsl2(b, sb_spv_t_f32(ctx), GLSLstd450FMax, rho_x, rho_y);
    return sb_spv_glsl1(b, sb_spv_t_f32(ctx), GLSLstd450Log2, rho);
}

/* Implicit forms: the quad's LOD (OpImageQueryLod's unclamped lane) plus sample_b's bias. */
static uint32_t implicit_lod(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                             const struct sb_spv_min_lod_sample *s)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t axes = s->dim->coords - (s->dim->arrayed ? 1u : 0u);
    /* OpImageQueryLod takes the coordinate without the array layer. */
    uint32_t coord = sb_spv_load_src_n(ctx, &inst->src[0], axes, SB_IR_TYPE_FLOAT);
    if (!coord)
        return 0;
    uint32_t query = sb_spv_op2(b, SpvOpImageQueryLod, sb_spv_t_fvec(ctx, 2), s->sampled_image, coord);
    uint32_t lod = sb_spv_extract(b, sb_spv_t_f32(ctx), query, 1);
    return s->bias ? sb_spv_op2(b, SpvOpFAdd, sb_spv_t_f32(ctx), lod, s->bias) : lod;
}

uint32_t sb_spv_min_lod_apply(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                              const struct sb_spv_min_lod_sample *s, uint32_t unclamped)
{
    struct sb_spv_builder *b = &ctx->builder;
    sb_spv_capability(b, SpvCapabilityImageQuery);
    uint32_t lod = s->grad_x ? gradient_lod(ctx, s) : implicit_lod(ctx, inst, s);
    if (!lod)
        return 0;
    uint32_t words[8], n = 0;
    words[n++] = s->sampled_image;
    words[n++] = s->coord;
    if (s->dref)
        words[n++] = s->dref;
    words[n++] = SpvImageOperandsLodMask | (s->const_offset ? SpvImageOperandsConstOffsetMask : 0u);
    words[n++] = s->clamp;
    if (s->const_offset)
        words[n++] = s->const_offset;
    SpvOp op = s->dref ? SpvOpImageSampleDrefExplicitLod : SpvOpImageSampleExplicitLod;
    uint32_t clamped = sb_spv_op_result(b, op, s->result_type, words, n);
    uint32_t below = sb_spv_op2(b, SpvOpFOrdLessThan, sb_spv_t_bool(ctx), lod, s->clamp);
    uint32_t lanes = s->dref ? 1u : 4u;
    if (lanes > 1) { /* OpSelect wants one condition per lane before SPIR-V 1.4 */
        uint32_t parts[4] = { below, below, below, below };
        below = sb_spv_construct(b, sb_spv_t_bvec(ctx, lanes), parts, lanes);
    }
    return sb_spv_op3(b, SpvOpSelect, s->result_type, below, clamped, unclamped);
}
