/* SPDX-License-Identifier: MIT */
/*
 * Typed resources in the CPU interpreter, after translator/src/
 * spirv_texture.c, spirv_uav.c and spirv_texture_query.c:
 *   * ld: integer coordinates (array layer after them), the mip level in
 *     the address's .w for every non-buffer dimension, `_aoffimmi` offsets
 *     added; ld_ms: the same on a 2DMS (array) texture, the sample index in
 *     src2 instead of a level (a sample past the count reads 0, as a texel
 *     outside does); ld_uav_typed / store_uav_typed on level 0; reads outside the
 *     resource give 0 and writes outside are dropped (the D3D rule IR.md
 *     states; a Vulkan device with robust image access may give alpha 1);
 *   * results go through the t#/u# operand's swizzle into the write mask,
 *     in the lane view of the declared return type;
 *   * resinfo: sizes of mip src0 (0 past the last level; array sizes count
 *     layers, cube arrays cubes), w = mip count; storage images, buffers
 *     and multisampled textures report level 0 and one level; rcpFloat
 *     inverts the extents only;
 *   * bufinfo: typed -> elements, raw -> bytes (whole DWORDs), structured
 *     -> structures; sampleinfo/samplepos use the resource's sample count
 *     (the rasterizer's: the pixel run's sample_count, 1 in compute); lod outside a pixel shader is 0
 *     (interp_sample.c computes it in pixel shaders);
 *   * the `_s` residency status is always 0 ("mapped"), so
 *     check_access_fully_mapped gives 0xFFFFFFFF for it;
 *   * class linkage's relatively chosen t[r]/s[r]/u[r] bind register r when
 *     every active lane agrees on it (interp_bind.c).
 */
#include "interp_private.h"

#include <string.h>
#include "translator/ir.h"

/* Coordinate lanes of each SM4 dimension (§8.3), array layer included. */
static const uint8_t coords_of[13] = { 0, 1, 1, 2, 2, 3, 3, 2, 3, 3, 4, 0, 0 };
/* Offset lanes (`_aoffimmi`) of each dimension. */
static const uint8_t offsets_of[13] = { 0, 0, 1, 2, 2, 3, 0, 1, 2, 2, 0, 0, 0 };

/* Splits coordinates by dimension into (x, y, z, layer); false for cubes and MS. */
static bool place(uint32_t dim, const int32_t c[4], int32_t xyzl[4])
{
    xyzl[0] = c[0];
    xyzl[1] = xyzl[2] = xyzl[3] = 0;
    switch (dim) {
    case 1: case 2: return true;
    case 3: xyzl[1] = c[1]; return true;
    case 5: xyzl[1] = c[1]; xyzl[2] = c[2]; return true;
    case 7: xyzl[3] = c[1]; return true;
    case 8: xyzl[1] = c[1]; xyzl[3] = c[2]; return true;
    default: return false;
    }
}

/* Writes texel lanes through the resource operand's swizzle into dst (+ status 0 in dst[1]). */
static void store_texels(struct interp_state *s, const struct sb_ir_instruction *in, uint32_t *const texel[4],
                         const struct sb_ir_operand *resource, uint32_t type)
{
    const uint32_t *v[4];
    for (uint32_t c = 0; c < 4; c++)
        v[c] = texel[resource->swizzle[c] & 3u];
    if (!sb_interp_store(s, &in->dst[0], in->dst[0].mask, v, type) || in->dst_count < 2)
        return;
    uint32_t *zero = sb_interp_scratch(s);
    if (zero) {
        memset(zero, 0, s->lanes * sizeof(uint32_t));
        sb_interp_store_replicated(s, &in->dst[1], zero, SB_IR_TYPE_UINT);
    }
}

static bool texel_arrays(struct interp_state *s, uint32_t *t[4])
{
    for (uint32_t c = 0; c < 4; c++)
        if (!(t[c] = sb_interp_scratch(s)))
            return false;
    return true;
}

/* ld and ld_uav_typed. */
/* Formats whose 32-bit words are their channels (a bound carries through unchanged). */
static bool words_hold_channels(uint32_t format)
{
    return sb_interp_format_words(format);
}

static enum sb_result typed_load(struct interp_state *s, const struct sb_ir_instruction *in)
{
    /* ld_uav_typed_ms (SM 6.7 RWTexture2DMS): a UAV read addressed like ldms. */
    bool uav = in->op == SB_IR_OP_LD_UAV_TYPED || in->op == SB_IR_OP_LD_UAV_TYPED_MS;
    bool ms = in->op == SB_IR_OP_LD_MS || in->op == SB_IR_OP_LD_UAV_TYPED_MS;
    if (in->dst_count < 1 || in->src_count < (ms ? 3u : 2u))
        return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s' has too few operands", sb_ir_op_name(in->op));
    const struct sb_ir_operand *res = &in->src[1];
    struct interp_binding b;
    if (!sb_interp_bind(s, res, 0, &b))
        return s->result;
    uint32_t dim = b.decl->dimension;
    bool ms_dim = dim == 4 || dim == 9;
    if (b.decl->kind != SB_IR_RESOURCE_KIND_TYPED || dim > 10 || !coords_of[dim] || ms_dim != ms ||
        dim == 6 || dim == 10)
        return sb_interp_unsupported(s, "this resource dimension");
    const uint32_t *a[4] = { NULL }, *sample = NULL;
    uint32_t *t[4];
    if (!sb_interp_load_n(s, &in->src[0], 4, SB_IR_TYPE_INT, a) || !texel_arrays(s, t))
        return s->result;
    if (ms && !(sample = sb_interp_load_scalar(s, &in->src[2], SB_IR_TYPE_INT)))
        return s->result;
    bool with_mip = !uav && !ms && dim != 1;
    for (uint32_t l = 0; l < s->lanes; l++) {
        uint32_t texel[4] = { 0, 0, 0, 0 };
        if (s->active[l]) {
            if (res->index_count >= 2 && res->index[1].relative && !sb_interp_bind(s, res, l, &b))
                return s->result;
            int32_t c[4] = { 0, 0, 0, 0 }, xyzl[4];
            for (uint32_t k = 0; k < coords_of[dim]; k++)
                c[k] = (int32_t)a[k][l];
            for (uint32_t k = 0; !uav && k < offsets_of[dim]; k++)
                c[k] = (int32_t)((uint32_t)c[k] + (uint32_t)(int32_t)in->texel_offset[k]); /* wraps, no UB */
            place(dim, c, xyzl);
            const uint8_t *p = ms ? sb_interp_sample_address(b.rt, c[0], c[1], dim == 9 ? c[2] : 0,
                                                             (int32_t)sample[l])
                                  : sb_interp_texel_address(b.rt, xyzl[0], xyzl[1], xyzl[2], xyzl[3],
                                                            with_mip ? (int32_t)a[3][l] : 0);
            if (p)
                sb_interp_texel_read(b.rt->format, p, xyzl[0], xyzl[1], texel);
            struct interp_companion mc;
            if (s->prec) {
                bool tracked = p && sb_interp_precision_memory(s, b.rt->data, &mc);
                uint32_t size = sb_rt_format_size((enum sb_rt_format)b.rt->format);
                sb_interp_precision_texel_loaded(s, t, l, &mc, tracked,
                                                 tracked ? (uint32_t)((p - (const uint8_t *)b.rt->data) / 4) : 0,
                                                 size / 4, words_hold_channels(b.rt->format), a);
            }
            if (p && uav && s->race)
                sb_interp_race_access(s, p, sb_rt_format_size((enum sb_rt_format)b.rt->format), l,
                                      INTERP_ACCESS_READ);
        }
        for (uint32_t c = 0; c < 4; c++)
            t[c][l] = texel[c];
    }
    store_texels(s, in, t, res, sb_interp_value_type(b.decl));
    return s->result;
}

/* store_uav_typed, and store_uav_typed_ms (one sample of an SM 6.7 RWTexture2DMS(Array),
 * addressed like ldms). */
static enum sb_result typed_store(struct interp_state *s, const struct sb_ir_instruction *in)
{
    bool ms = in->op == SB_IR_OP_STORE_UAV_TYPED_MS;
    if (in->dst_count < 1 || in->src_count < (ms ? 3u : 2u))
        return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s' has too few operands", sb_ir_op_name(in->op));
    const struct sb_ir_operand *res = &in->dst[0];
    struct interp_binding b;
    if (!sb_interp_bind(s, res, 0, &b))
        return s->result;
    uint32_t dim = b.decl->dimension;
    int32_t dummy[4] = { 0 }, xyzl[4];
    bool ms_dim = dim == 4 || dim == 9;
    if (b.decl->kind != SB_IR_RESOURCE_KIND_TYPED || dim > 10 || ms_dim != ms ||
        (!ms && !place(dim, dummy, xyzl)))
        return sb_interp_unsupported(s, "this UAV dimension");
    const uint32_t *a[4] = { NULL }, *v[4] = { NULL }, *sample = NULL;
    if (!sb_interp_load_n(s, &in->src[0], coords_of[dim], SB_IR_TYPE_INT, a) ||
        !sb_interp_load_n(s, &in->src[1], 4, sb_interp_value_type(b.decl), v) ||
        (ms && !(sample = sb_interp_load_scalar(s, &in->src[2], SB_IR_TYPE_INT))))
        return s->result;
    for (uint32_t l = 0; l < s->lanes; l++) {
        if (!s->active[l])
            continue;
        if (res->index_count >= 2 && res->index[1].relative && !sb_interp_bind(s, res, l, &b))
            return s->result;
        /* The binding check refuses BC UAVs; a dynamically indexed range is only bound here. */
        if (sb_interp_format_block(b.rt->format))
            return sb_interp_fail(s, SB_ERROR_RUN_BINDING, "u%u (space %u) has block-compressed format %s, "
                                  "which cannot be written", b.rt->register_index, b.rt->space,
                                  sb_rt_format_name((enum sb_rt_format)b.rt->format));
        int32_t c[4] = { 0, 0, 0, 0 };
        for (uint32_t k = 0; k < coords_of[dim]; k++)
            c[k] = (int32_t)a[k][l];
        place(dim, c, xyzl);
        uint8_t *p = ms ? sb_interp_sample_address(b.rt, c[0], c[1], dim == 9 ? c[2] : 0, (int32_t)sample[l])
                        : sb_interp_texel_address(b.rt, xyzl[0], xyzl[1], xyzl[2], xyzl[3], 0);
        uint32_t value[4] = { v[0][l], v[1][l], v[2][l], v[3][l] };
        if (p)
            sb_interp_texel_encode(b.rt->format, value, p);
        struct interp_companion mc;
        if (p && s->prec && sb_interp_precision_memory(s, b.rt->data, &mc))
            sb_interp_precision_texel_stored(s, &mc, (uint32_t)((p - (uint8_t *)b.rt->data) / 4),
                                             sb_rt_format_size((enum sb_rt_format)b.rt->format) / 4,
                                             words_hold_channels(b.rt->format), v, l, a);
        if (p && s->race)
            sb_interp_race_access(s, p, sb_rt_format_size((enum sb_rt_format)b.rt->format), l,
                                  INTERP_ACCESS_WRITE);
    }
    return s->result;
}

static uint32_t typed_elements(const struct sb_rt_resource *r)
{
    uint32_t size = sb_rt_format_size((enum sb_rt_format)r->format);
    if (r->width)
        return r->width;
    return size ? (uint32_t)(r->size / size) : 0;
}

/* resinfo: one instruction-wide answer unless the mip level differs per lane. */
static enum sb_result resinfo(struct interp_state *s, const struct sb_ir_instruction *in)
{
    if (in->dst_count < 1 || in->src_count < 2)
        return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "resinfo has too few operands");
    struct interp_binding b;
    if (!sb_interp_bind(s, &in->src[1], 0, &b))
        return s->result;
    uint32_t dim = b.decl->dimension;
    if (b.decl->kind != SB_IR_RESOURCE_KIND_TYPED || dim < 1 || dim > 10)
        return sb_interp_unsupported(s, "resinfo on an untyped resource");
    static const uint8_t size_lanes[11] = { 0, 1, 1, 2, 2, 3, 2, 2, 3, 3, 3 };
    bool arrayed = dim == 7 || dim == 8 || dim == 9 || dim == 10;
    bool single = in->src[1].file == SB_IR_FILE_UAV || dim == 1 || dim == 4 || dim == 9;
    const uint32_t *mip = sb_interp_load_scalar(s, &in->src[0], SB_IR_TYPE_UINT);
    uint32_t *t[4];
    if (!mip || !texel_arrays(s, t))
        return s->result;
    const struct sb_rt_resource *r = b.rt;
    uint32_t levels = single ? 1 : (r->mip_levels ? r->mip_levels : 1), n = size_lanes[dim];
    uint32_t layers = r->layers ? r->layers : 1;
    for (uint32_t l = 0; l < s->lanes; l++) {
        uint32_t m = single ? 0 : mip[l], v[4] = { 0, 0, 0, levels };
        if (m < levels) {
            v[0] = dim == 1 ? typed_elements(r) : sb_interp_level_extent(r, 0, m);
            if (n >= 2)
                v[1] = (dim == 7) ? layers : sb_interp_level_extent(r, 1, m);
            if (n >= 3)
                v[2] = dim == 5 ? sb_interp_level_extent(r, 2, m) : dim == 10 ? layers / 6 : layers;
        }
        for (uint32_t c = 0; c < 4; c++) {
            float f = (float)(int32_t)v[c];
            if (in->return_type == 1 && c < n - (arrayed ? 1u : 0u))
                f = 1.0f / f;
            if (in->return_type == 2)
                t[c][l] = v[c];
            else
                memcpy(&t[c][l], &f, 4);
        }
    }
    store_texels(s, in, t, &in->src[1], in->return_type == 2 ? SB_IR_TYPE_UINT : SB_IR_TYPE_FLOAT);
    return s->result;
}

static enum sb_result bufinfo(struct interp_state *s, const struct sb_ir_instruction *in)
{
    if (in->dst_count < 1 || in->src_count < 1)
        return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "bufinfo has too few operands");
    struct interp_binding b;
    uint32_t *r = sb_interp_scratch(s);
    if (!r || !sb_interp_bind(s, &in->src[0], 0, &b))
        return s->result;
    uint32_t value;
    uint64_t bytes = (uint64_t)(b.rt->size / 4) * 4;
    if (b.decl->kind == SB_IR_RESOURCE_KIND_TYPED) {
        if (b.decl->dimension != 1)
            return sb_interp_unsupported(s, "bufinfo on a texture");
        value = typed_elements(b.rt);
    } else if (b.decl->kind == SB_IR_RESOURCE_KIND_STRUCTURED) {
        value = b.decl->stride ? (uint32_t)(bytes / b.decl->stride) : 0;
    } else {
        value = bytes > UINT32_MAX ? 0xFFFFFFFCu : (uint32_t)bytes;
    }
    for (uint32_t l = 0; l < s->lanes; l++)
        r[l] = value;
    sb_interp_store_replicated(s, &in->dst[0], r, SB_IR_TYPE_UINT);
    return s->result;
}

/* sampleinfo, samplepos, lod (compute: 0) and check_access_fully_mapped. */
static enum sb_result small_queries(struct interp_state *s, const struct sb_ir_instruction *in)
{
    uint32_t need = in->op == SB_IR_OP_SAMPLE_INFO || in->op == SB_IR_OP_CHECK_ACCESS_FULLY_MAPPED ? 1 : 2;
    if (in->dst_count < 1 || in->src_count < need)
        return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s' has too few operands", sb_ir_op_name(in->op));
    uint32_t *t[4];
    if (!texel_arrays(s, t))
        return s->result;
    if (in->op == SB_IR_OP_CHECK_ACCESS_FULLY_MAPPED) {
        const uint32_t *st[4];
        if (!sb_interp_load(s, &in->src[0], in->dst[0].mask, SB_IR_TYPE_UINT, st))
            return s->result;
        for (uint32_t c = 0; c < 4; c++)
            for (uint32_t l = 0; (in->dst[0].mask & (1u << c)) && l < s->lanes; l++)
                t[c][l] = st[c][l] == 0 ? 0xFFFFFFFFu : 0;
        sb_interp_store(s, &in->dst[0], in->dst[0].mask, (const uint32_t *const *)t, SB_IR_TYPE_BOOL);
        return s->result;
    }
    const struct sb_ir_operand *res = &in->src[in->op == SB_IR_OP_LOD ? 1 : 0];
    uint32_t count = 1;
    struct interp_binding b;
    if (res->file == SB_IR_FILE_RASTERIZER)
        count = s->samples ? s->samples : 1; /* the render target's (compute: 1) */
    if (in->op != SB_IR_OP_LOD && res->file != SB_IR_FILE_RASTERIZER) {
        if (!sb_interp_bind(s, res, 0, &b))
            return s->result;
        if (b.decl->dimension == 4 || b.decl->dimension == 9)
            count = b.rt->sample_count ? b.rt->sample_count : 1;
    }
    const uint32_t *sample = in->op == SB_IR_OP_SAMPLE_POS ? sb_interp_load_scalar(s, &in->src[1], SB_IR_TYPE_UINT)
                                                           : NULL;
    if (in->op == SB_IR_OP_SAMPLE_POS && !sample)
        return s->result;
    uint32_t type = in->op == SB_IR_OP_SAMPLE_INFO && in->return_type == 1 ? SB_IR_TYPE_UINT : SB_IR_TYPE_FLOAT;
    for (uint32_t l = 0; l < s->lanes; l++) {
        float v[4] = { 0, 0, 0, 0 };
        if (in->op == SB_IR_OP_SAMPLE_INFO) {
            v[0] = (float)count;
        } else if (in->op == SB_IR_OP_SAMPLE_POS) {
            sb_interp_sample_position(count, sample[l], v); /* (0, 0) past the count */
        }
        for (uint32_t c = 0; c < 4; c++)
            memcpy(&t[c][l], &v[c], 4);
        if (type == SB_IR_TYPE_UINT)
            t[0][l] = count;
    }
    store_texels(s, in, t, res, type);
    return s->result;
}

enum sb_result sb_interp_texture(struct interp_state *s, const struct sb_ir_instruction *in)
{
    switch (in->op) {
    case SB_IR_OP_LD: case SB_IR_OP_LD_UAV_TYPED: case SB_IR_OP_LD_MS: case SB_IR_OP_LD_UAV_TYPED_MS:
        return typed_load(s, in);
    case SB_IR_OP_STORE_UAV_TYPED: case SB_IR_OP_STORE_UAV_TYPED_MS: return typed_store(s, in);
    case SB_IR_OP_RESINFO: return resinfo(s, in);
    case SB_IR_OP_BUFINFO: return bufinfo(s, in);
    case SB_IR_OP_LOD:
        return sb_interp_has_quads(s) ? sb_interp_sample(s, in) : small_queries(s, in);
    case SB_IR_OP_SAMPLE_INFO: case SB_IR_OP_SAMPLE_POS: case SB_IR_OP_CHECK_ACCESS_FULLY_MAPPED:
        return small_queries(s, in);
    default: return sb_interp_sample(s, in);
    }
}
