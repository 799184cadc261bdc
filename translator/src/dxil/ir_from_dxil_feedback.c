/* SPDX-License-Identifier: MIT */
/*
 * D3D12 sampler feedback (SM 6.5; ../shared/docs/dxil.md §3.6, opcodes
 * 174-177): WriteSamplerFeedback(Bias/Level/Grad) on a FeedbackTexture2D(Array)
 * paired with a Texture2D(Array) and a sampler. Vulkan has no sampler feedback,
 * so the feedback map is emulated with what the IR already has: the feedback
 * resource is declared as a RWTexture2D<uint> / RWTexture2DArray<uint> (an
 * R32_UINT storage image at the resource's own u# binding) and each write is a
 * typed-UAV atomic, so the SPIR-V back end, the interpreter and `validate` need
 * nothing new. The representation (translator/README.md "Sampler feedback"):
 *
 *  - The mip region size is a property of the D3D resource the shader cannot
 *    see. The map's own size carries it: the low 4 bits of the storage image's
 *    width and height are log2 of the region's width and height (kx, ky); the
 *    image must be at least ceil(W0 / 2^kx) x ceil(H0 / 2^ky) texels, W0 x H0
 *    the paired texture's level 0. (vkd3d-proton keeps the same fact in the
 *    feedback image's size; no side-band binding is needed.)
 *  - Region of normalized coordinate u in a level of width W: floor(u * W) >> kx,
 *    clamped to the level's last region (clamp addressing; the sampler's
 *    addressing mode is not visible). floor(floor(a) / 2^k) = floor(a / 2^k)
 *    for a >= 0, so the shift is exact.
 *  - MIN_MIP: texel (region of level 0) = atomic umin with floor(LOD), the most
 *    detailed level the sample reads; the caller clears the map to 0xFF, the
 *    spec's "not sampled", so a texel below 0xFF is the decoded MinMip value.
 *  - MIP_REGION_USED: for each level the sample reads (floor(LOD) and
 *    ceil(LOD): a fractional LOD reads both under a linear mip filter, which
 *    the shader cannot rule out), atomic or of bit `level` into the texel at
 *    that level's region, all levels sharing the one image (level l's region
 *    grid is never larger than level 0's). Decoded: region (x, y) of level l is
 *    used when bit l of texel (x, y) is set; the caller clears the map to 0.
 *  - Arrays: the slice is round-to-nearest-even of c2 clamped to the map's
 *    slices, as a Texture2DArray sample selects it; slice s of the map records
 *    slice s of the paired texture.
 *  - LOD: WriteSamplerFeedback: the IR's `lod` (x, clamped by the sampler and
 *    view) of the coordinates; Bias: `lod` of the coordinates times exp2(bias),
 *    whose derivatives give LOD + bias before the sampler's clamps, as a biased
 *    sample's; Level: the given LOD; Grad: log2 of the longer gradient in texels
 *    of level 0 (0.5 * log2 of the larger squared length; the isotropic LOD).
 *    Then max with the MinMipClamp argument where given and clamped to
 *    [0, levels - 1] of the paired view. Level and Grad do not apply the
 *    sampler's MinLOD/MaxLOD/MipLODBias (the shader cannot read a sampler's
 *    state).
 *  - One region per write: the filter footprint's neighbouring regions are not
 *    marked (bilinear or anisotropic taps across a region border go unrecorded).
 *
 * The implicit-LOD forms need derivatives: refused outside pixel shaders.
 */
#include "ir_from_dxil_private.h"
#include "translator/dxil_opcodes.h"
#include "translator/dxil_ops.h"

/* SM4 resource dimensions (sm4-tokens.md §8.3) the feedback ops accept. */
enum { DIMENSION_TEXTURE2D = 3, DIMENSION_TEXTURE2D_ARRAY = 8 };
/* DXIL SamplerFeedbackType (dxil.md §4.5 tag 2). */
enum { FEEDBACK_MIN_MIP = 0, FEEDBACK_MIP_REGION_USED = 1 };

bool dxil_front_is_feedback_op(uint64_t opcode)
{
    return opcode >= SB_DXIL_OP_WRITE_SAMPLER_FEEDBACK &&
           opcode <= SB_DXIL_OP_WRITE_SAMPLER_FEEDBACK_GRAD;
}

/* One instruction into lane x of a fresh temp; *out reads it. */
static bool calc(struct dxil_front *f, uint32_t op, struct sb_ir_operand *out,
                 struct sb_ir_operand a, struct sb_ir_operand b, uint32_t count)
{
    struct sb_ir_operand src[2] = { a, b };
    return dxil_front_emit1(f, op, dxil_front_fresh(f, out), src, count);
}

static bool calc_imm(struct dxil_front *f, uint32_t op, struct sb_ir_operand *out,
                     struct sb_ir_operand a, uint32_t imm)
{
    return calc(f, op, out, a, dxil_front_imm(imm), 2);
}

static struct sb_ir_operand no_operand(void)
{
    return dxil_front_imm(0);
}

/* Argument i as one source lane. */
static bool arg_src(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t i,
                    struct sb_ir_operand *out)
{
    uint32_t value = 0;
    return dxil_front_arg(f, in, i, &value) && dxil_front_src(f, value, 0, out);
}

/* Whether argument i is undef (an optional argument the program leaves out). */
static bool arg_is_undef(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t i,
                         bool *undef)
{
    uint32_t value = 0;
    if (!dxil_front_arg(f, in, i, &value))
        return false;
    const struct sb_bc_constant *c = sb_bc_constant_get(f->module, f->function, value);
    *undef = c && c->kind == SB_BC_CONST_UNDEF;
    return true;
}

/* What one feedback write works on. */
struct feedback_write {
    const struct sb_ir_resource *map;
    struct sb_ir_operand map_operand;     /**< the u# (an element of a range included) */
    const struct sb_ir_resource *texture;
    struct sb_ir_operand texture_operand;
    struct sb_ir_operand sampler;
    bool array;
    uint32_t feedback_type;               /**< FEEDBACK_MIN_MIP / FEEDBACK_MIP_REGION_USED */
    uint32_t texture_info;                /**< temp: level 0 width, height, -, level count */
    uint32_t map_info;                    /**< temp: map width, height, slices */
};

/* resinfo_uint of `resource` at level 0 into a fresh temp. */
static bool resource_info(struct dxil_front *f, struct sb_ir_operand resource, uint32_t *temp)
{
    *temp = dxil_front_new_temp(f);
    struct sb_ir_operand dst = dxil_front_temp_dst(*temp, 0xF);
    struct sb_ir_operand src[2] = { dxil_front_imm(0), resource };
    struct sb_ir_instruction *info = dxil_front_emit(f, SB_IR_OP_RESINFO, &dst, 1, src, 2);
    if (info)
        info->return_type = 2; /* uint */
    return info != NULL;
}

/* The three handles, their kinds checked, and the two resinfo queries. */
static bool feedback_operands(struct dxil_front *f, const struct sb_bc_instruction *in,
                              struct feedback_write *w)
{
    const struct dxil_front_handle *h = NULL;
    const struct sb_ir_resource *sampler = NULL;
    if (!dxil_front_handle_operand(f, in, 1, &w->map, &w->map_operand) ||
        !dxil_front_handle_operand(f, in, 2, &w->texture, &w->texture_operand) ||
        !dxil_front_handle_operand(f, in, 3, &sampler, &w->sampler) ||
        !dxil_front_handle(f, in, 1, &h))
        return false;
    if (h->resource >= f->entry->resources.count)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a feedback texture from the descriptor heap");
    const struct sb_dxil_resource *d = &f->entry->resources.resources[h->resource];
    if (d->kind != SB_DXIL_RESOURCE_KIND_FEEDBACK_TEXTURE2D &&
        d->kind != SB_DXIL_RESOURCE_KIND_FEEDBACK_TEXTURE2D_ARRAY)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "a sampler-feedback write to resource '%s' of kind %u", d->name,
                               d->kind);
    w->feedback_type = d->sampler_feedback_type;
    w->array = d->kind == SB_DXIL_RESOURCE_KIND_FEEDBACK_TEXTURE2D_ARRAY;
    uint32_t want = w->array ? DIMENSION_TEXTURE2D_ARRAY : DIMENSION_TEXTURE2D;
    if (w->texture->resource_class != SB_IR_RESOURCE_SRV ||
        w->texture->kind != SB_IR_RESOURCE_KIND_TYPED || w->texture->dimension != want)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "a sampler-feedback write paired with a resource that is no "
                               "Texture2D%s", w->array ? "Array" : "");
    if (sampler->resource_class != SB_IR_RESOURCE_SAMPLER)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "a sampler-feedback write with a sampler handle that is no sampler");
    w->map_operand.mask = 0x1;
    return resource_info(f, w->texture_operand, &w->texture_info) &&
           resource_info(f, w->map_operand, &w->map_info);
}

/* The LOD the sample would use, before the clamp to the view's levels. */
static bool sample_lod(struct dxil_front *f, const struct sb_bc_instruction *in, uint64_t opcode,
                       const struct feedback_write *w, struct sb_ir_operand *lod)
{
    if (opcode == SB_DXIL_OP_WRITE_SAMPLER_FEEDBACK_LEVEL)
        return arg_src(f, in, 8, lod);
    if (opcode == SB_DXIL_OP_WRITE_SAMPLER_FEEDBACK_GRAD) {
        /* rho^2 per direction: (ddx0 * W0)^2 + (ddx1 * H0)^2. */
        struct sb_ir_operand size[2], rho2[2];
        for (uint32_t axis = 0; axis < 2; axis++)
            if (!calc(f, SB_IR_OP_UTOF, &size[axis],
                      dxil_front_temp_src(w->texture_info, axis), no_operand(), 1))
                return false;
        for (uint32_t dir = 0; dir < 2; dir++) {
            struct sb_ir_operand g[2], sq[2];
            for (uint32_t axis = 0; axis < 2; axis++)
                if (!arg_src(f, in, 8 + 3 * dir + axis, &g[axis]) ||
                    !calc(f, SB_IR_OP_MUL, &g[axis], g[axis], size[axis], 2) ||
                    !calc(f, SB_IR_OP_MUL, &sq[axis], g[axis], g[axis], 2))
                    return false;
            if (!calc(f, SB_IR_OP_ADD, &rho2[dir], sq[0], sq[1], 2))
                return false;
        }
        struct sb_ir_operand longest, log2;
        return calc(f, SB_IR_OP_MAX, &longest, rho2[0], rho2[1], 2) &&
               calc(f, SB_IR_OP_LOG, &log2, longest, no_operand(), 1) &&
               calc_imm(f, SB_IR_OP_MUL, lod, log2, 0x3F000000u /* 0.5 */);
    }
    if (f->program->stage != SB_IR_STAGE_PIXEL)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "%s outside a pixel shader (implicit LOD needs derivatives)",
                               opcode == SB_DXIL_OP_WRITE_SAMPLER_FEEDBACK
                                   ? "WriteSamplerFeedback" : "WriteSamplerFeedbackBias");
    uint32_t coord = dxil_front_new_temp(f);
    for (uint32_t axis = 0; axis < 2; axis++) {
        struct sb_ir_operand c, dst = dxil_front_temp_dst(coord, (uint8_t)(1u << axis));
        if (!arg_src(f, in, 4 + axis, &c) || !dxil_front_emit1(f, SB_IR_OP_MOV, dst, &c, 1))
            return false;
    }
    struct sb_ir_operand coords = dxil_front_temp_src(coord, 0);
    coords.swizzle[1] = 1;
    if (opcode == SB_DXIL_OP_WRITE_SAMPLER_FEEDBACK_BIAS) {
        struct sb_ir_operand bias, scale, dst = dxil_front_temp_dst(coord, 0x3);
        if (!arg_src(f, in, 8, &bias) ||
            !calc(f, SB_IR_OP_EXP, &scale, bias, no_operand(), 1))
            return false;
        struct sb_ir_operand src[2] = { coords, scale };
        if (!dxil_front_emit1(f, SB_IR_OP_MUL, dst, src, 2))
            return false;
    }
    uint32_t lods = dxil_front_new_temp(f);
    struct sb_ir_operand dst = dxil_front_temp_dst(lods, 0x3);
    struct sb_ir_operand src[3] = { coords, w->texture_operand, w->sampler };
    if (!dxil_front_emit1(f, SB_IR_OP_LOD, dst, src, 3))
        return false;
    *lod = dxil_front_temp_src(lods, 0); /* clamped by the sampler and the view */
    return true;
}

/* The clamp argument's slot, or 0 for the Level form, which has none. */
static uint32_t clamp_slot(uint64_t opcode)
{
    switch (opcode) {
    case SB_DXIL_OP_WRITE_SAMPLER_FEEDBACK: return 8;
    case SB_DXIL_OP_WRITE_SAMPLER_FEEDBACK_BIAS: return 9;
    case SB_DXIL_OP_WRITE_SAMPLER_FEEDBACK_GRAD: return 14;
    default: return 0;
    }
}

/* lod = min(max(lod, clamp, 0), levels - 1) as a float. */
static bool clamp_lod(struct dxil_front *f, const struct sb_bc_instruction *in, uint64_t opcode,
                      const struct feedback_write *w, struct sb_ir_operand *lod)
{
    uint32_t slot = clamp_slot(opcode);
    bool undef = true;
    if (slot != 0 && !arg_is_undef(f, in, slot, &undef))
        return false;
    if (!undef) {
        struct sb_ir_operand clamp;
        if (!arg_src(f, in, slot, &clamp) || !calc(f, SB_IR_OP_MAX, lod, *lod, clamp, 2))
            return false;
    }
    struct sb_ir_operand last, last_float;
    return calc_imm(f, SB_IR_OP_MAX, lod, *lod, 0) &&
           calc_imm(f, SB_IR_OP_IADD, &last, dxil_front_temp_src(w->texture_info, 3),
                    UINT32_MAX) &&
           calc(f, SB_IR_OP_UTOF, &last_float, last, no_operand(), 1) &&
           calc(f, SB_IR_OP_MIN, lod, *lod, last_float, 2);
}

/* The map texel of normalized coordinate `coord` along one axis of a level `size` texels
 * wide, regions 2^k wide: min(floor(coord * size) >> k, ceil(size / 2^k) - 1). */
static bool region(struct dxil_front *f, struct sb_ir_operand coord, struct sb_ir_operand size,
                   struct sb_ir_operand k, struct sb_ir_operand *out)
{
    struct sb_ir_operand size_float, texel, one, rounding, regions, last;
    return calc(f, SB_IR_OP_UTOF, &size_float, size, no_operand(), 1) &&
           calc(f, SB_IR_OP_MUL, &texel, coord, size_float, 2) &&
           calc(f, SB_IR_OP_FTOU, &texel, texel, no_operand(), 1) &&
           calc(f, SB_IR_OP_USHR, &texel, texel, k, 2) &&
           calc(f, SB_IR_OP_ISHL, &one, dxil_front_imm(1), k, 2) &&
           calc_imm(f, SB_IR_OP_IADD, &rounding, one, UINT32_MAX) &&
           calc(f, SB_IR_OP_IADD, &regions, size, rounding, 2) &&
           calc(f, SB_IR_OP_USHR, &regions, regions, k, 2) &&
           calc_imm(f, SB_IR_OP_IADD, &last, regions, UINT32_MAX) &&
           calc(f, SB_IR_OP_UMIN, out, texel, last, 2);
}

/* One atomic on the map at the regions of `level` (NONE: level 0) with `value`. */
static bool record(struct dxil_front *f, const struct sb_bc_instruction *in,
                   const struct feedback_write *w, const struct sb_ir_operand *level,
                   uint32_t op, struct sb_ir_operand value)
{
    uint32_t address = dxil_front_new_temp(f);
    for (uint32_t axis = 0; axis < 2; axis++) {
        struct sb_ir_operand coord, k, size = dxil_front_temp_src(w->texture_info, axis), at;
        if (!arg_src(f, in, 4 + axis, &coord) ||
            !calc_imm(f, SB_IR_OP_AND, &k, dxil_front_temp_src(w->map_info, axis), 15))
            return false;
        if (level && (!calc(f, SB_IR_OP_USHR, &size, size, *level, 2) ||
                      !calc_imm(f, SB_IR_OP_UMAX, &size, size, 1)))
            return false;
        if (!region(f, coord, size, k, &at) ||
            !dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(address, (uint8_t)(1u << axis)),
                              &at, 1))
            return false;
    }
    if (w->array) {
        struct sb_ir_operand c2, slice, last;
        if (!arg_src(f, in, 6, &c2) || !calc(f, SB_IR_OP_ROUND_NE, &slice, c2, no_operand(), 1) ||
            !calc(f, SB_IR_OP_FTOU, &slice, slice, no_operand(), 1) ||
            !calc_imm(f, SB_IR_OP_IADD, &last, dxil_front_temp_src(w->map_info, 2), UINT32_MAX) ||
            !calc(f, SB_IR_OP_UMIN, &slice, slice, last, 2) ||
            !dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(address, 0x4), &slice, 1))
            return false;
    }
    struct sb_ir_operand src[2] = { dxil_front_temp_src(address, 0), value };
    for (unsigned i = 0; i < 4; i++)
        src[0].swizzle[i] = (uint8_t)i;
    return dxil_front_emit(f, op, &w->map_operand, 1, src, 2) != NULL;
}

/* WriteSamplerFeedback / Bias / Level / Grad (the file's comment). */
bool dxil_front_feedback_op(struct dxil_front *f, const struct sb_bc_instruction *in,
                            uint64_t opcode)
{
    struct feedback_write w;
    struct sb_ir_operand lod, lower;
    memset(&w, 0, sizeof(w));
    if (!feedback_operands(f, in, &w) || !sample_lod(f, in, opcode, &w, &lod) ||
        !clamp_lod(f, in, opcode, &w, &lod) ||
        !calc(f, SB_IR_OP_FTOU, &lower, lod, no_operand(), 1))
        return false;
    if (w.feedback_type == FEEDBACK_MIN_MIP)
        return record(f, in, &w, NULL, SB_IR_OP_ATOMIC_UMIN, lower);
    struct sb_ir_operand upper, bit;
    return calc(f, SB_IR_OP_ROUND_PI, &upper, lod, no_operand(), 1) &&
           calc(f, SB_IR_OP_FTOU, &upper, upper, no_operand(), 1) &&
           calc(f, SB_IR_OP_ISHL, &bit, dxil_front_imm(1), lower, 2) &&
           record(f, in, &w, &lower, SB_IR_OP_ATOMIC_OR, bit) &&
           calc(f, SB_IR_OP_ISHL, &bit, dxil_front_imm(1), upper, 2) &&
           record(f, in, &w, &upper, SB_IR_OP_ATOMIC_OR, bit);
}
