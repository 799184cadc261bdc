/* SPDX-License-Identifier: MIT */
/*
 * Sampling in the CPU interpreter: sample, sample_b, sample_l, gather4 and
 * gather4_po on 1D/2D/3D textures and 1D/2D arrays, computed with Vulkan's
 * rules for a compute shader (translator/src/spirv_texture.c):
 *   * outside pixel shaders sample reads LOD 0 and sample_b LOD = bias
 *     (D3D's derivative is 0 there); sample_l takes its LOD; the sampler's
 *     mip_lod_bias is added and the result clamped to [min_lod, max_lod];
 *     LOD <= 0 uses mag_filter, else min_filter, with the mip filter picking
 *     one level (nearest: ceil(lod + 0.5) - 1) or blending two;
 *   * texel space u = s * size; nearest takes floor(u), linear blends
 *     floor(u - 0.5) and the next texel by frac(u - 0.5); `_aoffimmi`
 *     offsets are added to the integer texel coordinates; addressing modes
 *     repeat, mirrored repeat, clamp to edge and clamp to (transparent
 *     black) border; the array layer is round-to-nearest-even of the last
 *     coordinate, clamped;
 *   * gather4 takes the 2x2 footprint of level 0 in the order (i0, j1),
 *     (i1, j1), (i1, j0), (i0, j0) with the channel of the s# operand's
 *     swizzle; gather4_po's offsets are the low 6 bits, sign-extended.
 * Filtering is computed in float; a device's fixed-point sub-texel weights
 * may differ in the last bits, so compare linear results with a tolerance.
 * Cubes, sample_d and the comparison forms are reported as unsupported.
 */
#include "interp_private.h"

#include <math.h>
#include <string.h>

/* Operand slots of one sampling op (IR.md §Resources). */
struct form {
    uint32_t op;
    uint8_t tex, smp, extra; /* extra: bias/lod source, 0 = none */
    bool gather, offsets;    /* offsets: gather4_po's register offsets in src[1] */
};

static const struct form forms[] = {
    { SB_IR_OP_SAMPLE, 1, 2, 0, false, false },
    { SB_IR_OP_SAMPLE_B, 1, 2, 3, false, false },
    { SB_IR_OP_SAMPLE_L, 1, 2, 3, false, false },
    { SB_IR_OP_GATHER4, 1, 2, 0, true, false },
    { SB_IR_OP_GATHER4_PO, 2, 3, 0, true, true },
};

/* floor() as an int; NaN and values beyond +-2^30 (all far outside any texture) are pinned. */
static int32_t floor_int(float f)
{
    f = floorf(f);
    if (!(f > -1073741824.0f))
        return f != f ? 0 : -1073741824;
    return f < 1073741824.0f ? (int32_t)f : 1073741824;
}

/* Where texel i of an axis of `size` texels lands; -1 = the border. */
static int32_t wrap(int32_t i, int32_t size, uint32_t mode)
{
    switch (mode) {
    case SB_RT_ADDRESS_REPEAT: return ((i % size) + size) % size;
    case SB_RT_ADDRESS_MIRRORED_REPEAT: {
        int32_t t = ((i % (2 * size)) + 2 * size) % (2 * size) - size;
        int32_t m = t >= 0 ? t : -(1 + t);
        return size - 1 - m;
    }
    case SB_RT_ADDRESS_CLAMP_TO_BORDER: return i < 0 || i >= size ? -1 : i;
    default: return i < 0 ? 0 : i >= size ? size - 1 : i;
    }
}

struct lookup {
    const struct sb_rt_resource *r;
    const struct sb_rt_sampler *smp;
    uint32_t axes;   /* 1, 2 or 3 */
    int32_t layer;
};

static void fetch(const struct lookup *k, const int32_t *ijk, int32_t mip, float out[4])
{
    int32_t at[3] = { 0, 0, 0 };
    for (uint32_t a = 0; a < k->axes; a++) {
        at[a] = wrap(ijk[a], (int32_t)sb_interp_level_extent(k->r, a, (uint32_t)mip), k->smp->address[a]);
        if (at[a] < 0) {
            out[0] = out[1] = out[2] = out[3] = 0.0f;
            return;
        }
    }
    const uint8_t *p = sb_interp_texel_address(k->r, at[0], at[1], at[2], k->layer, mip);
    uint32_t bits[4] = { 0, 0, 0, 0 };
    if (p)
        sb_interp_texel_decode(k->r->format, p, bits);
    memcpy(out, bits, 16);
}

/* One level, nearest or linear. */
static void filter_level(const struct lookup *k, const float *coord, const int32_t *offset, int32_t mip,
                         bool linear, float out[4])
{
    int32_t base[3] = { 0, 0, 0 };
    float frac[3] = { 0, 0, 0 };
    for (uint32_t a = 0; a < k->axes; a++) {
        float u = coord[a] * (float)sb_interp_level_extent(k->r, a, (uint32_t)mip);
        if (linear) {
            float f = floorf(u - 0.5f);
            frac[a] = (u - 0.5f) - f;
            base[a] = floor_int(f) + offset[a];
        } else {
            base[a] = floor_int(u) + offset[a];
        }
    }
    if (!linear) {
        fetch(k, base, mip, out);
        return;
    }
    memset(out, 0, 16);
    for (uint32_t corner = 0; corner < (1u << k->axes); corner++) {
        int32_t at[3];
        float w = 1.0f, t[4];
        for (uint32_t a = 0; a < k->axes; a++) {
            bool hi = (corner >> a) & 1u;
            at[a] = base[a] + (hi ? 1 : 0);
            w *= hi ? frac[a] : 1.0f - frac[a];
        }
        fetch(k, at, mip, t);
        for (uint32_t c = 0; c < 4; c++)
            out[c] += w * t[c];
    }
}

static void sample_lod(const struct lookup *k, const float *coord, const int32_t *offset, float lod, float out[4])
{
    const struct sb_rt_sampler *smp = k->smp;
    uint32_t q = (k->r->mip_levels ? k->r->mip_levels : 1) - 1;
    lod += smp->mip_lod_bias;
    if (lod > smp->max_lod)
        lod = smp->max_lod;
    if (lod < smp->min_lod)
        lod = smp->min_lod;
    if (!(lod > 0.0f)) {
        filter_level(k, coord, offset, 0, smp->mag_filter == SB_RT_FILTER_LINEAR, out);
        return;
    }
    bool linear = smp->min_filter == SB_RT_FILTER_LINEAR;
    float d = lod < (float)q ? lod : (float)q;
    if (smp->mip_filter != SB_RT_FILTER_LINEAR) {
        filter_level(k, coord, offset, (int32_t)(ceilf(d + 0.5f) - 1.0f), linear, out);
        return;
    }
    int32_t lo = (int32_t)floorf(d), hi = lo + 1 <= (int32_t)q ? lo + 1 : (int32_t)q;
    float delta = d - (float)lo, a[4], b[4];
    filter_level(k, coord, offset, lo, linear, a);
    filter_level(k, coord, offset, hi, linear, b);
    for (uint32_t c = 0; c < 4; c++)
        out[c] = a[c] + delta * (b[c] - a[c]);
}

/* gather: channel `ch` of the 2x2 footprint of level 0, as raw lanes. */
static void gather(const struct lookup *k, const float *coord, const int32_t *offset, uint32_t ch, uint32_t out[4])
{
    int32_t i0 = floor_int(coord[0] * (float)sb_interp_level_extent(k->r, 0, 0) - 0.5f) + offset[0];
    int32_t j0 = floor_int(coord[1] * (float)sb_interp_level_extent(k->r, 1, 0) - 0.5f) + offset[1];
    const int32_t at[4][2] = { { i0, j0 + 1 }, { i0 + 1, j0 + 1 }, { i0 + 1, j0 }, { i0, j0 } };
    for (uint32_t t = 0; t < 4; t++) {
        float texel[4];
        fetch(k, at[t], 0, texel);
        memcpy(&out[t], &texel[ch & 3u], 4);
    }
}

static enum sb_result run(struct interp_state *s, const struct sb_ir_instruction *in, const struct form *f)
{
    const struct sb_ir_op_info *info = sb_ir_op_info(in->op);
    if (in->dst_count < 1 || in->src_count < info->src_min)
        return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s' has too few operands", info->name);
    const struct sb_ir_operand *tex = &in->src[f->tex], *smp_op = &in->src[f->smp];
    struct interp_binding t, sb;
    if (!sb_interp_bind(s, tex, 0, &t) || !sb_interp_bind(s, smp_op, 0, &sb))
        return s->result;
    uint32_t dim = t.decl->dimension, axes = dim == 2 || dim == 7 ? 1 : dim == 3 || dim == 8 ? 2 : dim == 5 ? 3 : 0;
    bool arrayed = dim == 7 || dim == 8;
    if (t.decl->kind != SB_IR_RESOURCE_KIND_TYPED || !axes || (f->gather && axes != 2))
        return sb_interp_unsupported(s, "sampling this texture dimension (cubes, buffers, MS)");
    const uint32_t *coord[4] = { NULL }, *extra = NULL, *po[4] = { NULL };
    uint32_t *out[4];
    if (!sb_interp_load_n(s, &in->src[0], axes + (arrayed ? 1 : 0), SB_IR_TYPE_FLOAT, coord) ||
        (f->extra && !(extra = sb_interp_load_scalar(s, &in->src[f->extra], SB_IR_TYPE_FLOAT))) ||
        (f->offsets && !sb_interp_load_n(s, &in->src[1], 2, SB_IR_TYPE_INT, po)))
        return s->result;
    for (uint32_t c = 0; c < 4; c++)
        if (!(out[c] = sb_interp_scratch(s)))
            return s->result;
    struct lookup k = { t.rt, &sb.rt->sampler, axes, 0 };
    uint32_t layers = t.rt->layers ? t.rt->layers : 1;
    for (uint32_t l = 0; l < s->lanes; l++) {
        uint32_t v[4] = { 0, 0, 0, 0 };
        if (s->active[l]) {
            float c[4];
            int32_t off[3] = { 0, 0, 0 };
            for (uint32_t a = 0; a < axes + (arrayed ? 1u : 0u); a++)
                memcpy(&c[a], &coord[a][l], 4);
            for (uint32_t a = 0; a < axes; a++)
                off[a] = f->offsets ? (int32_t)(po[a][l] << 26) >> 26 : in->texel_offset[a];
            if (arrayed) {
                float layer = nearbyintf(c[axes]);
                k.layer = !(layer > 0.0f) ? 0 : layer >= (float)layers ? (int32_t)layers - 1 : (int32_t)layer;
            }
            if (f->gather) {
                gather(&k, c, off, smp_op->swizzle[0], v);
            } else {
                float lod = 0.0f, r[4];
                if (extra)
                    memcpy(&lod, &extra[l], 4);
                sample_lod(&k, c, off, lod, r);
                memcpy(v, r, 16);
            }
        }
        for (uint32_t c = 0; c < 4; c++)
            out[c][l] = v[c];
    }
    const uint32_t *value[4];
    for (uint32_t c = 0; c < 4; c++)
        value[c] = out[tex->swizzle[c] & 3u];
    if (sb_interp_store(s, &in->dst[0], in->dst[0].mask, value, sb_interp_value_type(t.decl)) && in->dst_count >= 2) {
        uint32_t *zero = sb_interp_scratch(s);
        if (zero) {
            memset(zero, 0, s->lanes * sizeof(uint32_t));
            sb_interp_store_replicated(s, &in->dst[1], zero, SB_IR_TYPE_UINT);
        }
    }
    return s->result;
}

enum sb_result sb_interp_sample(struct interp_state *s, const struct sb_ir_instruction *in)
{
    for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
        if (forms[i].op == in->op)
            return run(s, in, &forms[i]);
    switch (in->op) {
    case SB_IR_OP_SAMPLE_D: case SB_IR_OP_SAMPLE_C: case SB_IR_OP_SAMPLE_C_LZ: case SB_IR_OP_GATHER4_C:
    case SB_IR_OP_GATHER4_PO_C: case SB_IR_OP_LD_MS:
        return sb_interp_unsupported(s, "this sampling form");
    default: return SB_ERROR_TRANSLATE_UNSUPPORTED;
    }
}
