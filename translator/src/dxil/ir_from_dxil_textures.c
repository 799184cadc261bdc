/* SPDX-License-Identifier: MIT */
/*
 * Texture reads, writes and queries (../shared/docs/dxil.md §3.5, §3.6
 * "Sampling, gather, LOD" and "Loads, stores, queries"), each lowered to the
 * SM4 instruction fxc writes for the same HLSL (IR.md "Resources: operand
 * order"): sample* -> sample/_b/_l/_d/_c/_c_lz, textureGather(Cmp/Raw) ->
 * gather4(_c) or, with non-constant offsets, gather4_po(_c), calculateLOD ->
 * lod, textureLoad -> ld / ldms / ld_uav_typed, textureStore ->
 * store_uav_typed, getDimensions -> resinfo_uint (+ sampleinfo for the
 * sample count) or bufinfo, the sample positions and count -> samplepos /
 * sampleinfo on the texture or the rasterizer.
 *
 * DXIL passes every coordinate and offset slot, undef where the resource
 * kind has none: only the slots the kind uses are read (the shape table),
 * the others become 0. Texel offsets are immediates, as D3D requires
 * (INSTR.TEXTUREOFFSET), except a gather's, which may be programmable.
 */
#include "ir_from_dxil_private.h"
#include "translator/dxil_opcodes.h"
#include "translator/dxil_ops.h"

/* Which argument slots a resource kind uses, by IR (SM4) dimension (sm4-tokens.md §8.3). */
struct texture_shape {
    uint8_t sample_coords; /**< sample/gather coordinates, array slice included; 0: none */
    uint8_t offsets;       /**< texel offsets */
    uint8_t load_coords;   /**< textureLoad/Store coordinates, array slice included; 0: none */
    uint8_t gradients;     /**< ddx/ddy and calculateLOD coordinates (no slice) */
};
static const struct texture_shape shapes[11] = {
    [2] = { 1, 1, 1, 1 },  /* texture1d */
    [3] = { 2, 2, 2, 2 },  /* texture2d */
    [4] = { 0, 2, 2, 0 },  /* texture2dms */
    [5] = { 3, 3, 3, 3 },  /* texture3d */
    [6] = { 3, 0, 0, 3 },  /* texturecube */
    [7] = { 2, 1, 2, 1 },  /* texture1darray */
    [8] = { 3, 2, 3, 2 },  /* texture2darray */
    [9] = { 0, 2, 3, 0 },  /* texture2dmsarray */
    [10] = { 4, 0, 0, 3 }, /* texturecubearray */
};

static bool is_multisampled(const struct sb_ir_resource *r)
{
    return r->dimension == 4 || r->dimension == 9;
}

/* The typed texture (not a buffer) in argument i, of class `cls`; its shape and operand (an
 * element of a range included). */
static bool texture_arg(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t i,
                        uint32_t cls, const char *what, const struct sb_ir_resource **r,
                        const struct texture_shape **shape, struct sb_ir_operand *operand)
{
    if (!dxil_front_handle_operand(f, in, i, r, operand))
        return false;
    if ((*r)->resource_class != cls || (*r)->kind != SB_IR_RESOURCE_KIND_TYPED ||
        (*r)->dimension < 2 || (*r)->dimension > 10)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "%s on a resource that is no %s "
                               "texture", what, cls == SB_IR_RESOURCE_UAV ? "writable" : "readable");
    *shape = &shapes[(*r)->dimension];
    return true;
}

static bool sampler_arg(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t i,
                        struct sb_ir_operand *out)
{
    const struct sb_ir_resource *s = NULL;
    if (!dxil_front_handle_operand(f, in, i, &s, out))
        return false;
    if (s->resource_class != SB_IR_RESOURCE_SAMPLER)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "a sampler handle that is no sampler");
    return true;
}

/* The constant texel offsets in arguments first..first+count-1 (undef = 0) into `out`;
 * false (refusing) when one is not a constant, or outside D3D's -8..7. */
static bool constant_offsets(struct dxil_front *f, const struct sb_bc_instruction *in,
                             uint32_t first, uint32_t count, int8_t out[3], bool refuse)
{
    for (uint32_t i = 0; i < count; i++) {
        uint32_t value = 0;
        if (!dxil_front_arg(f, in, first + i, &value))
            return false;
        const struct sb_bc_constant *c = sb_bc_constant_get(f->module, f->function, value);
        int32_t offset = 0;
        if (c && c->kind == SB_BC_CONST_INTEGER)
            offset = (int32_t)(uint32_t)c->bits;
        else if (!c || (c->kind != SB_BC_CONST_UNDEF && c->kind != SB_BC_CONST_NULL))
            return refuse ? dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                                            "texel offset %u is not a constant", i)
                          : false;
        if (offset < -8 || offset > 7)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                                   "texel offset %d outside -8..7", (int)offset);
        out[i] = (int8_t)offset;
    }
    return true;
}

/* Emits a texture read with its immediate texel offsets (u, v, w). */
static bool emit_with_offsets(struct dxil_front *f, uint32_t op, const struct sb_ir_operand *dst,
                              uint32_t dst_count, const struct sb_ir_operand *src, uint32_t n,
                              const int8_t offsets[3])
{
    struct sb_ir_instruction *out = dxil_front_emit(f, op, dst, dst_count, src, n);
    if (out)
        memcpy(out->texel_offset, offsets, 3);
    return out != NULL;
}

/* Argument i as one source lane. */
static bool arg_src(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t i,
                    struct sb_ir_operand *out)
{
    uint32_t value = 0;
    return dxil_front_arg(f, in, i, &value) && dxil_front_src(f, value, 0, out);
}

/* A whole-register source of a temp built by dxil_front_gather_args. */
static struct sb_ir_operand vector_src(uint32_t temp)
{
    struct sb_ir_operand op = dxil_front_temp_src(temp, 0);
    for (unsigned i = 0; i < 4; i++)
        op.swizzle[i] = (uint8_t)i;
    return op;
}

/* The optional LOD clamp of sample/sampleBias/sampleGrad/sampleCmp: a trailing source unless
 * it is the constant 0.0 (or undef) dxc writes when there is none. */
static bool lod_clamp(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t i,
                      struct sb_ir_operand *src, uint32_t *n)
{
    uint32_t value = 0;
    if (!dxil_front_arg(f, in, i, &value))
        return false;
    const struct sb_bc_constant *c = sb_bc_constant_get(f->module, f->function, value);
    if (c && (c->kind == SB_BC_CONST_UNDEF || c->kind == SB_BC_CONST_NULL ||
              (c->kind == SB_BC_CONST_FLOAT && c->bits == 0)))
        return true;
    return dxil_front_src(f, value, 0, &src[(*n)++]);
}

/* sample, sampleBias, sampleLevel, sampleGrad, sampleCmp, sampleCmpLevelZero, SM 6.7's
 * sampleCmpLevel and SM 6.8's sampleCmpGrad and sampleCmpBias: (srv, sampler, c0..c3,
 * o0..o2, extras...) -> SAMPLE* (coord, t#, s#, extras); the last three have no SM4 form
 * and become SAMPLE_C_L (compare, lod), SAMPLE_C_D (compare, ddx, ddy, clamp) and
 * SAMPLE_C_B (compare, bias, clamp). */
static bool sample(struct dxil_front *f, const struct sb_bc_instruction *in, uint64_t opcode)
{
    static const uint32_t ops[6] = { SB_IR_OP_SAMPLE, SB_IR_OP_SAMPLE_B, SB_IR_OP_SAMPLE_L,
                                     SB_IR_OP_SAMPLE_D, SB_IR_OP_SAMPLE_C, SB_IR_OP_SAMPLE_C_LZ };
    const struct sb_ir_resource *r = NULL;
    const struct texture_shape *shape = NULL;
    struct sb_ir_operand dst[2], src[SB_IR_OP_MAX_SOURCES];
    uint32_t dst_count = 0, coord = 0, n = 3;
    int8_t offsets[3] = { 0, 0, 0 };
    if (!texture_arg(f, in, 1, SB_IR_RESOURCE_SRV, "a sample", &r, &shape, &src[1]) ||
        !sampler_arg(f, in, 2, &src[2]))
        return false;
    if (shape->sample_coords == 0)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "a sample of a multisampled texture");
    bool implicit_lod = opcode == SB_DXIL_OP_SAMPLE || opcode == SB_DXIL_OP_SAMPLE_BIAS ||
                        opcode == SB_DXIL_OP_SAMPLE_CMP || opcode == SB_DXIL_OP_SAMPLE_CMP_BIAS;
    if ((implicit_lod && !dxil_front_derivative_quads(f, "an implicit-LOD sample")) ||
        !constant_offsets(f, in, 7, shape->offsets, offsets, true) ||
        !dxil_front_gather_args(f, in, 3, shape->sample_coords, &coord) ||
        !dxil_front_resret_dst(f, in, "a sample", dst, &dst_count))
        return false;
    src[0] = vector_src(coord);
    switch (opcode) {
    case SB_DXIL_OP_SAMPLE:
        if (!lod_clamp(f, in, 10, src, &n))
            return false;
        break;
    case SB_DXIL_OP_SAMPLE_BIAS:
    case SB_DXIL_OP_SAMPLE_CMP:
        if (!arg_src(f, in, 10, &src[n++]) || !lod_clamp(f, in, 11, src, &n))
            return false;
        break;
    case SB_DXIL_OP_SAMPLE_LEVEL:
    case SB_DXIL_OP_SAMPLE_CMP_LEVEL_ZERO:
        if (!arg_src(f, in, 10, &src[n++]))
            return false;
        break;
    case SB_DXIL_OP_SAMPLE_CMP_LEVEL:
    case SB_DXIL_OP_SAMPLE_CMP_BIAS:
        if (!arg_src(f, in, 10, &src[n++]) || !arg_src(f, in, 11, &src[n++]) ||
            (opcode == SB_DXIL_OP_SAMPLE_CMP_BIAS && !lod_clamp(f, in, 12, src, &n)))
            return false;
        break;
    default: { /* sampleGrad: ddx0..2, ddy0..2, clamp; sampleCmpGrad: compare first */
        uint32_t ddx = 0, ddy = 0, first = 10;
        if (opcode == SB_DXIL_OP_SAMPLE_CMP_GRAD && !arg_src(f, in, first++, &src[n++]))
            return false;
        if (!dxil_front_gather_args(f, in, first, shape->gradients, &ddx) ||
            !dxil_front_gather_args(f, in, first + 3, shape->gradients, &ddy))
            return false;
        src[n++] = vector_src(ddx);
        src[n++] = vector_src(ddy);
        if (!lod_clamp(f, in, first + 6, src, &n))
            return false;
        break;
    }
    }
    uint32_t op = opcode == SB_DXIL_OP_SAMPLE_CMP_LEVEL  ? (uint32_t)SB_IR_OP_SAMPLE_C_L
                  : opcode == SB_DXIL_OP_SAMPLE_CMP_GRAD ? (uint32_t)SB_IR_OP_SAMPLE_C_D
                  : opcode == SB_DXIL_OP_SAMPLE_CMP_BIAS ? (uint32_t)SB_IR_OP_SAMPLE_C_B
                                                         : ops[opcode - SB_DXIL_OP_SAMPLE];
    return emit_with_offsets(f, op, dst, dst_count, src, n, offsets);
}

/* textureGather(srv, sampler, c0..c3, o0, o1, channel) and textureGatherCmp(..., compare):
 * gather4(_c) with immediate offsets, gather4_po(_c) with programmable ones; the channel is
 * the sampler operand's swizzle. textureGatherRaw(srv, sampler, c0..c3, o0, o1) of a 32-bit
 * integer texture is the gather of its only channel, whose texels are their raw bits (the
 * 16/64-bit overloads refuse in the overload check). */
static bool gather(struct dxil_front *f, const struct sb_bc_instruction *in, bool compare,
                   bool raw)
{
    const struct sb_ir_resource *r = NULL;
    const struct texture_shape *shape = NULL;
    struct sb_ir_operand dst[2], src[5], sampler, view;
    uint32_t dst_count = 0, coord = 0, n = 0;
    uint64_t channel = 0;
    int8_t offsets[3] = { 0, 0, 0 };
    if (!texture_arg(f, in, 1, SB_IR_RESOURCE_SRV, "a gather", &r, &shape, &view) ||
        !sampler_arg(f, in, 2, &sampler) || (!raw && !dxil_front_const_arg(f, in, 9, &channel)))
        return false;
    if (raw && r->return_type[0] != 3 && r->return_type[0] != 4)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "textureGatherRaw of a texture whose elements are no 32-bit "
                               "integers (return type %u)", r->return_type[0]);
    if (shape->sample_coords == 0 || channel > 3)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "a gather of channel %llu of a texture of dimension %u",
                               (unsigned long long)channel, r->dimension);
    uint32_t offset_count = shape->offsets > 2 ? 2 : shape->offsets;
    bool immediate = constant_offsets(f, in, 7, offset_count, offsets, false);
    bool narrow = dxil_front_gather16_claims(f, in); /* ir_from_dxil_gather16.c */
    if (f->failed || (narrow && !dxil_front_gather16_check(f, in, r)) ||
        !dxil_front_gather_args(f, in, 3, shape->sample_coords, &coord) ||
        !(narrow ? dxil_front_resret_dst_any(f, in, dst, &dst_count)
                 : dxil_front_resret_dst(f, in, "a gather", dst, &dst_count)))
        return false;
    for (unsigned i = 0; i < 4; i++)
        sampler.swizzle[i] = (uint8_t)channel;
    src[n++] = vector_src(coord);
    if (!immediate) {
        uint32_t offset = 0;
        if (!dxil_front_gather_args(f, in, 7, offset_count, &offset))
            return false;
        src[n++] = vector_src(offset);
    }
    src[n++] = view;
    src[n++] = sampler;
    if (compare && !arg_src(f, in, 10, &src[n++]))
        return false;
    uint32_t op = immediate ? (compare ? SB_IR_OP_GATHER4_C : SB_IR_OP_GATHER4)
                            : (compare ? SB_IR_OP_GATHER4_PO_C : SB_IR_OP_GATHER4_PO);
    return emit_with_offsets(f, op, dst, dst_count, src, n, offsets) &&
           (!narrow || dxil_front_gather16_finish(f, in, dst[0]));
}

/* calculateLOD(srv, sampler, c0..c2, clamped): lod's x is the clamped LOD, y the
 * unclamped one. */
static bool calculate_lod(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    const struct sb_ir_resource *r = NULL;
    const struct texture_shape *shape = NULL;
    struct sb_ir_operand src[3];
    uint32_t coord = 0, temp = 0;
    uint64_t clamped = 0;
    if (!texture_arg(f, in, 1, SB_IR_RESOURCE_SRV, "calculateLOD", &r, &shape, &src[1]) ||
        !dxil_front_derivative_quads(f, "calculateLOD") ||
        !sampler_arg(f, in, 2, &src[2]) || !dxil_front_const_arg(f, in, 6, &clamped) ||
        !dxil_front_result_temp(f, in, 1, &temp))
        return false;
    if (shape->gradients == 0)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "calculateLOD of an MS texture");
    if (!dxil_front_gather_args(f, in, 3, shape->gradients, &coord))
        return false;
    uint32_t lod = dxil_front_new_temp(f);
    struct sb_ir_operand dst = dxil_front_temp_dst(lod, 0x3);
    src[0] = vector_src(coord);
    if (!dxil_front_emit(f, SB_IR_OP_LOD, &dst, 1, src, 3))
        return false;
    dst = dxil_front_temp_dst(temp, 0x1);
    src[0] = dxil_front_temp_src(lod, (clamped & 1) ? 0 : 1);
    return dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, src, 1) != NULL;
}

/* textureLoad(res, mipOrSample, c0..c2, o0..o2): ld (address: coordinates, mip in w),
 * ldms (sample index apart), or ld_uav_typed on a UAV (no mip, no offsets). */
static bool texture_load(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    const struct sb_ir_resource *r = NULL;
    struct sb_ir_operand dst[2], src[3], view;
    uint32_t dst_count = 0, address = 0, n = 0;
    int8_t offsets[3] = { 0, 0, 0 };
    if (!dxil_front_handle_operand(f, in, 1, &r, &view))
        return false;
    bool uav = r->resource_class == SB_IR_RESOURCE_UAV;
    const struct texture_shape *shape = NULL;
    if (!texture_arg(f, in, 1, uav ? SB_IR_RESOURCE_UAV : SB_IR_RESOURCE_SRV, "textureLoad", &r,
                     &shape, &view))
        return false;
    if (shape->load_coords == 0)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "textureLoad of a cube texture");
    if (!constant_offsets(f, in, 6, uav ? 0 : shape->offsets, offsets, true) ||
        !dxil_front_gather_args(f, in, 3, shape->load_coords, &address) ||
        !dxil_front_resret_dst(f, in, "textureLoad", dst, &dst_count))
        return false;
    uint32_t op = uav ? (is_multisampled(r) ? SB_IR_OP_LD_UAV_TYPED_MS : SB_IR_OP_LD_UAV_TYPED)
                      : is_multisampled(r) ? SB_IR_OP_LD_MS : SB_IR_OP_LD;
    if (op == SB_IR_OP_LD) {
        struct sb_ir_operand mip, w = dxil_front_temp_dst(address, 0x8);
        if (!arg_src(f, in, 2, &mip) || !dxil_front_emit(f, SB_IR_OP_MOV, &w, 1, &mip, 1))
            return false;
    }
    src[n++] = vector_src(address);
    src[n++] = view;
    if ((op == SB_IR_OP_LD_MS || op == SB_IR_OP_LD_UAV_TYPED_MS) && !arg_src(f, in, 2, &src[n++]))
        return false;
    return emit_with_offsets(f, op, dst, dst_count, src, n, offsets);
}

/* textureStore(uav, c0..c2, v0..v3, mask): store_uav_typed of the whole texel; the mask
 * must cover the format's components (INSTR.WRITEMASKFORTYPEDUAVSTORE), lanes past it
 * are undef in DXIL and given 0. SM 6.7's textureStoreSample(..., mask, sampleIdx) writes
 * one sample of a RWTexture2DMS(Array): STORE_UAV_TYPED_MS. */
static bool texture_store(struct dxil_front *f, const struct sb_bc_instruction *in, bool sample)
{
    const struct sb_ir_resource *r = NULL;
    const struct texture_shape *shape = NULL;
    struct sb_ir_operand dst;
    uint32_t address = 0, value = 0, value0 = 0;
    uint64_t mask = 0;
    if (!texture_arg(f, in, 1, SB_IR_RESOURCE_UAV, "textureStore", &r, &shape, &dst) ||
        !dxil_front_const_arg(f, in, 9, &mask) || !dxil_front_arg(f, in, 5, &value0))
        return false;
    const struct sb_bc_value *v = sb_bc_value_get(f->module, f->function, value0);
    if (!v || !dxil_front_overload_32(f, v->type, "textureStore"))
        return false;
    if (shape->load_coords == 0 || (mask != 1 && mask != 3 && mask != 7 && mask != 15))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "textureStore with mask 0x%llx to a texture of dimension %u",
                               (unsigned long long)mask, r->dimension);
    if (sample != is_multisampled(r))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "%s on a %smultisampled texture",
                               sample ? "textureStoreSample" : "textureStore",
                               sample ? "single-sampled" : "");
    uint32_t lanes = mask == 1 ? 1 : mask == 3 ? 2 : mask == 7 ? 3 : 4;
    if (!dxil_front_gather_args(f, in, 2, shape->load_coords, &address) ||
        !dxil_front_gather_args(f, in, 5, lanes, &value))
        return false;
    struct sb_ir_operand src[3] = { vector_src(address), vector_src(value) };
    if (sample && !arg_src(f, in, 10, &src[2]))
        return false;
    dst.mask = 0xF;
    return dxil_front_emit(f, sample ? SB_IR_OP_STORE_UAV_TYPED_MS : SB_IR_OP_STORE_UAV_TYPED,
                           &dst, 1, src, sample ? 3 : 2) != NULL;
}

/* getDimensions(res, mip) -> {c0..c3}: bufinfo for buffers (elements; bytes for raw),
 * resinfo_uint for textures (width, height, depth or slices, mip count), whose lane w
 * sampleinfo replaces with the sample count for MS textures. The mip argument is undef for
 * UAVs, buffers and MS textures (INSTR.MIPLEVELFORGETDIMENSION): level 0 there. */
static bool get_dimensions(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    const struct sb_ir_resource *r = NULL;
    struct sb_ir_operand res;
    uint32_t temp = 0;
    if (!dxil_front_handle_operand(f, in, 1, &r, &res) || !dxil_front_result_temp(f, in, 4, &temp))
        return false;
    if (r->resource_class != SB_IR_RESOURCE_SRV && r->resource_class != SB_IR_RESOURCE_UAV)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "getDimensions of a %s",
                               r->resource_class == SB_IR_RESOURCE_CBV ? "cbuffer" : "sampler");
    if (!dxil_front_refuse_narrow_structured(f, r, "getDimensions"))
        return false;
    if (r->kind != SB_IR_RESOURCE_KIND_TYPED || r->dimension == 1) {
        struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0x1);
        return dxil_front_emit(f, SB_IR_OP_BUFINFO, &dst, 1, &res, 1) != NULL;
    }
    bool ms = is_multisampled(r);
    struct sb_ir_operand src[2] = { dxil_front_imm(0), res };
    if (r->resource_class == SB_IR_RESOURCE_SRV && !ms && !arg_src(f, in, 2, &src[0]))
        return false;
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, ms ? 0x7 : 0xF);
    struct sb_ir_instruction *info = dxil_front_emit(f, SB_IR_OP_RESINFO, &dst, 1, src, 2);
    if (!info)
        return false;
    info->return_type = 2; /* uint */
    if (!ms)
        return true;
    dst = dxil_front_temp_dst(temp, 0x8);
    res.swizzle[3] = 0; /* sampleinfo's count is in x */
    info = dxil_front_emit(f, SB_IR_OP_SAMPLE_INFO, &dst, 1, &res, 1);
    if (info)
        info->return_type = 1; /* uint */
    return info != NULL;
}

/* The render target's sample pattern, as SM4.1's `rasterizer` operand. */
static struct sb_ir_operand rasterizer(void)
{
    struct sb_ir_operand op = dxil_front_imm(0);
    op.file = SB_IR_FILE_RASTERIZER;
    op.imm[0] = op.imm[1] = op.imm[2] = op.imm[3] = 0;
    return op;
}

/* texture2DMSGetSamplePosition(srv, index) / renderTargetGetSamplePosition(index):
 * samplepos -> SamplePos {x, y}; renderTargetGetSampleCount: sampleinfo_uint rasterizer. */
static bool sample_position(struct dxil_front *f, const struct sb_bc_instruction *in,
                            bool render_target)
{
    uint32_t temp = 0;
    struct sb_ir_operand src[2];
    if (render_target) {
        src[0] = rasterizer();
    } else {
        const struct sb_ir_resource *r = NULL;
        const struct texture_shape *shape = NULL;
        if (!texture_arg(f, in, 1, SB_IR_RESOURCE_SRV, "texture2DMSGetSamplePosition", &r,
                         &shape, &src[0]))
            return false;
        if (!is_multisampled(r))
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                                   "texture2DMSGetSamplePosition of a single-sampled texture");
    }
    if (!arg_src(f, in, render_target ? 1 : 2, &src[1]) ||
        !dxil_front_result_temp(f, in, 2, &temp))
        return false;
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0x3);
    return dxil_front_emit(f, SB_IR_OP_SAMPLE_POS, &dst, 1, src, 2) != NULL;
}

static bool sample_count(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    uint32_t temp = 0;
    if (!dxil_front_result_temp(f, in, 1, &temp))
        return false;
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0x1), src = rasterizer();
    struct sb_ir_instruction *info = dxil_front_emit(f, SB_IR_OP_SAMPLE_INFO, &dst, 1, &src, 1);
    if (info)
        info->return_type = 1; /* uint */
    return info != NULL;
}

bool dxil_front_is_texture_op(uint64_t opcode)
{
    return (opcode >= SB_DXIL_OP_SAMPLE && opcode <= SB_DXIL_OP_TEXTURE_STORE) ||
           (opcode >= SB_DXIL_OP_GET_DIMENSIONS &&
            opcode <= SB_DXIL_OP_RENDER_TARGET_GET_SAMPLE_COUNT) ||
           opcode == SB_DXIL_OP_CALCULATE_LOD || opcode == SB_DXIL_OP_TEXTURE_GATHER_RAW ||
           opcode == SB_DXIL_OP_SAMPLE_CMP_LEVEL || opcode == SB_DXIL_OP_TEXTURE_STORE_SAMPLE ||
           opcode == SB_DXIL_OP_SAMPLE_CMP_GRAD || opcode == SB_DXIL_OP_SAMPLE_CMP_BIAS;
}

bool dxil_front_texture_op(struct dxil_front *f, const struct sb_bc_instruction *in,
                           uint64_t opcode)
{
    switch (opcode) {
    case SB_DXIL_OP_TEXTURE_LOAD: return texture_load(f, in);
    case SB_DXIL_OP_TEXTURE_STORE: return texture_store(f, in, false);
    case SB_DXIL_OP_TEXTURE_STORE_SAMPLE: return texture_store(f, in, true);
    case SB_DXIL_OP_GET_DIMENSIONS: return get_dimensions(f, in);
    case SB_DXIL_OP_TEXTURE_GATHER: return gather(f, in, false, false);
    case SB_DXIL_OP_TEXTURE_GATHER_CMP: return gather(f, in, true, false);
    case SB_DXIL_OP_TEXTURE_GATHER_RAW: return gather(f, in, false, true);
    case SB_DXIL_OP_TEXTURE2DMS_GET_SAMPLE_POSITION: return sample_position(f, in, false);
    case SB_DXIL_OP_RENDER_TARGET_GET_SAMPLE_POSITION: return sample_position(f, in, true);
    case SB_DXIL_OP_RENDER_TARGET_GET_SAMPLE_COUNT: return sample_count(f, in);
    case SB_DXIL_OP_CALCULATE_LOD: return calculate_lod(f, in);
    default: return sample(f, in, opcode);
    }
}
