/* SPDX-License-Identifier: MIT */
/*
 * Sampling in the CPU interpreter: sample, sample_b, sample_l, sample_d,
 * sample_c, sample_c_lz, gather4, gather4_c, gather4_po, gather4_po_c (and lod
 * in pixel shaders) on
 * 1D/2D/3D textures, 1D/2D arrays, cubes and cube arrays, decoded as
 * translator/src/spirv/spirv_texture.c emits them (interp_filter.c filters):
 *   * outside pixel shaders sample and sample_c read LOD 0 and sample_b
 *     LOD = bias (D3D's derivative is 0 there); sample_l and sample_c_l
 *     take their LOD, sample_c_lz LOD 0; in pixel shaders sample/sample_b/sample_c take the
 *     implicit LOD of their quad (interp_quad.c), as do compute programs
 *     with derivative quads (IR.md "Compute derivatives"); sample_d's LOD
 *     comes from its ddx/ddy anywhere;
 *   * the array layer is round-to-nearest-even of the coordinate after the
 *     texel axes, clamped (cube arrays: the cube, layer = 6 x cube + face);
 *   * `_aoffimmi` offsets apply to the texel coordinates, never to cubes
 *     (D3D ignores them there, the translator emits none); gather4_po's
 *     register offsets are their low 6 bits, sign-extended;
 *   * gather reads the channel of the s# operand's swizzle[0]; the comparison
 *     forms compare against the red channel (interp_filter.c) with the
 *     reference from their ref source; sample_c/_c_lz results are one value
 *     replicated into the write mask (OpImageSampleDref* returns a scalar),
 *     gathers go through the t# swizzle. A comparison form on a sampler that
 *     is not a comparison sampler (undefined in Vulkan) returns the texels
 *     unchanged, as lavapipe does without compareEnable;
 *   * cube LODs use the derivatives of the face coordinates of each lane's own
 *     face (the implicit LOD differences the quad's face coordinates), which
 *     differs from a device only when a quad straddles two faces.
 * The `_cl` LOD clamp (the trailing source of sample, sample_b, sample_d and sample_c
 * with `_cl_s`) is D3D's: a floor on the LOD after both biases, beside the sampler's
 * min_lod (interp_filter.c), in every stage (outside pixel shaders on the fixed LOD).
 * Linear filtering of unorm/snorm textures carries a precision bound (filter_allowance):
 * devices filter them in fixed point.
 * An anisotropic sampler (max_anisotropy > 1) gives what a plain one does
 * where the footprint is isotropic (then Vulkan takes one sample); a lane
 * with an anisotropic footprint stops the run as unsupported.
 */
#include "interp_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "translator/ir.h"

/* Operand slots of one sampling op (IR.md §Resources). */
struct form {
    uint32_t op;
    uint8_t tex, smp, extra; /* extra: bias/lod/ref source, 0 = none */
    bool gather, offsets;    /* offsets: gather4_po's register offsets in src[1] */
    bool implicit, grad;     /* LOD from the quad (pixel shaders) / from ddx, ddy at grad_at */
    bool dref;               /* comparison against the ref in src[extra] */
    uint8_t clamp;           /* src index of the `_cl` clamp when src_count > it; 0 = none */
    uint8_t grad_at;         /* grad: src index of ddx (ddy follows) */
    uint8_t bias_at;         /* src index of a bias besides the ref (sample_c_b); 0 = none */
};

static const struct form forms[] = {
    { SB_IR_OP_SAMPLE, 1, 2, 0, false, false, true, false, false, 3, 0, 0 },
    { SB_IR_OP_SAMPLE_B, 1, 2, 3, false, false, true, false, false, 4, 0, 0 },
    { SB_IR_OP_SAMPLE_L, 1, 2, 3, false, false, false, false, false, 0, 0, 0 },
    { SB_IR_OP_SAMPLE_D, 1, 2, 0, false, false, false, true, false, 5, 3, 0 },
    { SB_IR_OP_SAMPLE_C, 1, 2, 3, false, false, true, false, true, 4, 0, 0 },
    { SB_IR_OP_SAMPLE_C_LZ, 1, 2, 3, false, false, false, false, true, 0, 0, 0 },
    { SB_IR_OP_GATHER4, 1, 2, 0, true, false, false, false, false, 0, 0, 0 },
    { SB_IR_OP_GATHER4_C, 1, 2, 3, true, false, false, false, true, 0, 0, 0 },
    { SB_IR_OP_GATHER4_PO, 2, 3, 0, true, true, false, false, false, 0, 0, 0 },
    { SB_IR_OP_GATHER4_PO_C, 2, 3, 4, true, true, false, false, true, 0, 0, 0 },
    { SB_IR_OP_SAMPLE_C_L, 1, 2, 3, false, false, false, false, true, 0, 0, 0 },
    { SB_IR_OP_SAMPLE_C_D, 1, 2, 3, false, false, false, true, true, 6, 4, 0 },
    { SB_IR_OP_SAMPLE_C_B, 1, 2, 3, false, false, true, false, true, 5, 0, 4 },
};

/* Sampling shape of each SM4 dimension (§8.3): texel axes, array layer, cube; axes 0 = not sampled. */
struct shape {
    uint8_t axes;
    bool arrayed, cube;
};

static const struct shape shapes[11] = {
    [2] = { 1, false, false }, [3] = { 2, false, false }, [5] = { 3, false, false },
    [6] = { 2, false, true },  [7] = { 1, true, false },  [8] = { 2, true, false },
    [10] = { 2, true, true },
};

/* The loaded operands of one instruction. */
struct operands {
    const struct form *f;
    struct interp_binding t, sb;
    struct shape sh;
    uint32_t dir;                /* direction lanes: cubes 3, else the texel axes */
    const uint32_t *coord[4], *extra, *po[4];
    const uint32_t *bias;        /* sample_c_b's bias (the ref is in `extra`), or NULL */
    const uint32_t *lod;         /* per-lane LOD bits, or NULL */
    const uint32_t *clamp;       /* per-lane `_cl` clamp bits, or NULL */
    uint32_t *st[2], *face;      /* cubes: per-lane face coordinates and face */
    /* NonUniformResourceIndex into a range: each lane's own texture / sampler; NULL: t / sb */
    const struct sb_rt_resource **t_lane, **sb_lane;
};

static const struct sb_rt_resource *texture_of(const struct operands *o, uint32_t l)
{
    return o->t_lane ? o->t_lane[l] : o->t.rt;
}

static const struct sb_rt_resource *sampler_of(const struct operands *o, uint32_t l)
{
    return o->sb_lane ? o->sb_lane[l] : o->sb.rt;
}

/* Cubes: the face and face coordinates of every lane. */
static bool cube_faces(struct interp_state *s, struct operands *o)
{
    if (!(o->st[0] = sb_interp_scratch(s)) || !(o->st[1] = sb_interp_scratch(s)) ||
        !(o->face = sb_interp_scratch(s)))
        return false;
    for (uint32_t l = 0; l < s->lanes; l++) {
        float dir[3] = { F(o->coord[0][l]), F(o->coord[1][l]), F(o->coord[2][l]) }, st[2];
        o->face[l] = sb_interp_cube_face(dir);
        sb_interp_cube_coords(o->face[l], dir, st);
        o->st[0][l] = U(st[0]);
        o->st[1][l] = U(st[1]);
    }
    return true;
}

/* sample_d on a cube: the direction derivatives become face-coordinate derivatives. */
static bool cube_gradients(struct interp_state *s, const struct operands *o, const uint32_t *const d[3],
                           uint32_t *out[2])
{
    if (!(out[0] = sb_interp_scratch(s)) || !(out[1] = sb_interp_scratch(s)))
        return false;
    for (uint32_t l = 0; l < s->lanes; l++) {
        float dir[3] = { F(o->coord[0][l]), F(o->coord[1][l]), F(o->coord[2][l]) };
        float dd[3] = { F(d[0][l]), F(d[1][l]), F(d[2][l]) }, r[2];
        sb_interp_cube_derivatives(o->face[l], dir, dd, r);
        out[0][l] = U(r[0]);
        out[1][l] = U(r[1]);
    }
    return true;
}

/* Per-lane LOD where it comes from the quad or from ddx/ddy; o->lod stays NULL otherwise. */
static bool lane_lod(struct interp_state *s, const struct sb_ir_instruction *in, struct operands *o)
{
    if (!((o->f->implicit && sb_interp_has_quads(s)) || o->f->grad))
        return true;
    const uint32_t *ddx[4] = { NULL }, *ddy[4] = { NULL };
    uint32_t size[3] = { o->t.rt->width, o->t.rt->height, o->t.rt->depth }, *l = sb_interp_scratch(s);
    uint32_t at = o->f->grad_at;
    if (!l || (o->f->grad && (!sb_interp_load_n(s, &in->src[at], o->dir, SB_IR_TYPE_FLOAT, ddx) ||
                              !sb_interp_load_n(s, &in->src[at + 1], o->dir, SB_IR_TYPE_FLOAT, ddy))))
        return false;
    const uint32_t *coord[3] = { o->coord[0], o->coord[1], o->coord[2] };
    if (o->sh.cube) {
        uint32_t *fx[2], *fy[2];
        coord[0] = o->st[0];
        coord[1] = o->st[1];
        size[1] = size[0];
        if (o->f->grad) {
            if (!cube_gradients(s, o, ddx, fx) || !cube_gradients(s, o, ddy, fy))
                return false;
            ddx[0] = fx[0], ddx[1] = fx[1], ddy[0] = fy[0], ddy[1] = fy[1];
        }
    }
    /* An anisotropic sampler: its samples along the major axis follow the device's own pattern
     * (Vulkan leaves it to the implementation), so only an isotropic footprint, where it takes
     * the one sample a plain sampler takes, has a known answer. */
    bool aniso = o->sb.rt && o->sb.rt->sampler.max_anisotropy > 1.0f;
    uint32_t *uneven = aniso ? sb_interp_scratch(s) : NULL;
    if (aniso && !uneven)
        return false;
    sb_interp_implicit_lod(s, coord, o->sh.axes, size, o->f->grad ? ddx : NULL, o->f->grad ? ddy : NULL, l,
                           uneven);
    for (uint32_t lane = 0; uneven && lane < s->lanes; lane++)
        if (s->active[lane] && uneven[lane]) {
            sb_interp_unsupported(s, "anisotropic filtering of an anisotropic footprint (a sampler with "
                                     "max_anisotropy > 1: where the device samples is its own choice)");
            return false;
        }
    o->lod = l;
    return true;
}

static bool load_operands(struct interp_state *s, const struct sb_ir_instruction *in, struct operands *o)
{
    const struct form *f = o->f;
    o->dir = o->sh.cube ? 3u : o->sh.axes;
    if (!sb_interp_load_n(s, &in->src[0], o->dir + (o->sh.arrayed ? 1u : 0u), SB_IR_TYPE_FLOAT, o->coord) ||
        (f->extra && !(o->extra = sb_interp_load_scalar(s, &in->src[f->extra], SB_IR_TYPE_FLOAT))) ||
        (f->bias_at && !(o->bias = sb_interp_load_scalar(s, &in->src[f->bias_at], SB_IR_TYPE_FLOAT))) ||
        (f->offsets && !sb_interp_load_n(s, &in->src[1], 2, SB_IR_TYPE_INT, o->po)) ||
        (f->clamp && in->src_count > f->clamp &&
         !(o->clamp = sb_interp_load_scalar(s, &in->src[f->clamp], SB_IR_TYPE_FLOAT))) ||
        (f->op == SB_IR_OP_SAMPLE_C_L && /* its LOD follows the ref */
         !(o->lod = sb_interp_load_scalar(s, &in->src[f->extra + 1], SB_IR_TYPE_FLOAT))))
        return false;
    if (o->sh.cube && !cube_faces(s, o))
        return false;
    return lane_lod(s, in, o);
}

/* The result texel of lane l (at coordinates `at` instead of the lane's own when given). */
static void lane_value(const struct sb_ir_instruction *in, const struct operands *o, uint32_t l, const float *at,
                       uint32_t v[4], bool *corner)
{
    const struct form *f = o->f;
    const struct sb_rt_resource *t = texture_of(o, l);
    struct interp_lookup k = { t, &sampler_of(o, l)->sampler, o->sh.axes, 0, -1, false, 0.0f, corner,
                               o->clamp ? F(o->clamp[l]) : -INFINITY };
    float c[3];
    int32_t off[3] = { 0, 0, 0 };
    uint32_t layers = t->layers ? t->layers : 1, axes = o->sh.axes;
    for (uint32_t a = 0; a < axes; a++) {
        c[a] = at ? at[a] : o->sh.cube ? F(o->st[a][l]) : F(o->coord[a][l]);
        if (!o->sh.cube)
            off[a] = f->offsets ? (int32_t)(o->po[a][l] << 26) >> 26 : in->texel_offset[a];
    }
    if (o->sh.arrayed) {
        uint32_t count = o->sh.cube ? (layers / 6u ? layers / 6u : 1u) : layers;
        float layer = nearbyintf(F(o->coord[o->dir][l]));
        k.layer = !(layer > 0.0f) ? 0 : layer >= (float)count ? (int32_t)count - 1 : (int32_t)layer;
    }
    if (o->sh.cube) {
        k.layer *= 6;
        k.face = (int32_t)o->face[l];
    }
    if (f->dref) {
        k.compare = k.smp->compare;
        k.ref = F(o->extra[l]);
    }
    if (f->gather) {
        sb_interp_filter_gather(&k, c, off, in->src[f->smp].swizzle[0], v);
        return;
    }
    float lambda = o->lod ? F(o->lod[l]) : 0.0f, bias = 0.0f, r[4];
    if (o->extra && !f->dref) {
        if (f->op == SB_IR_OP_SAMPLE_L)
            lambda = F(o->extra[l]);
        else
            bias = F(o->extra[l]);
    }
    if (o->bias)
        bias = F(o->bias[l]);
    sb_interp_filter_sample(&k, c, off, lambda + bias, r);
    memcpy(v, r, 16);
}

/* Bound of an operand lane (0 when it carries none). */
static float operand_bound(const struct interp_state *s, const uint32_t *array, uint32_t l, uint32_t *origin)
{
    struct interp_companion c;
    if (!array || !sb_interp_companion(s, array, &c) || c.bound[l] == 0.0f)
        return 0.0f;
    if (*origin == UINT32_MAX)
        *origin = c.origin[l];
    return c.bound[l];
}

/* What Vulkan lets a device's linear filtering of a normalized fixed-point texture (unorm,
 * snorm, sRGB) differ from the exact filter by, per channel of lane l, into dev: the weights
 * may carry as few as 4 fractional bits (subTexelPrecisionBits' minimum), so each
 * interpolated axis may move the result by 1/16 of the spread of the texels it blends, and the
 * result may be rounded to the format's step (lavapipe filters 8-bit formats in 8-bit
 * arithmetic: a 50/50 blend of 0 and 255 gives 128). An sRGB texel's rgb may also be decoded
 * half an 8-bit step off the exact curve (1/512: devices approximate it, lavapipe by up to
 * 0.0012; the bound tests/interp/test_interp_formats.c holds the device to), nearest
 * filtering included. Zero for nearest filtering of the other formats and for every other
 * format. Magnified lookups only, whose footprint is level 0's 2^axes texels around the
 * coordinate, read at their centres; a linearly filtered minification (levels blended by
 * weights of their own precision) returns false: precision-sensitive. */
static bool filter_allowance(const struct sb_ir_instruction *in, const struct operands *o, uint32_t l, float dev[4])
{
    const struct form *f = o->f;
    const struct sb_rt_sampler *smp = &o->sb.rt->sampler;
    float step = sb_interp_format_step(o->t.rt->format);
    float decode = sb_interp_format_srgb(o->t.rt->format) ? 1.0f / 512.0f : 0.0f;
    dev[0] = dev[1] = dev[2] = decode;
    dev[3] = 0.0f;
    if (step == 0.0f || f->gather || f->dref || o->sh.cube)
        return true;
    float lambda = o->lod ? F(o->lod[l]) : 0.0f, bias = 0.0f;
    if (o->extra && f->op == SB_IR_OP_SAMPLE_L)
        lambda = F(o->extra[l]);
    else if (o->extra)
        bias = F(o->extra[l]);
    float floor_lod = o->clamp && F(o->clamp[l]) > smp->min_lod ? F(o->clamp[l]) : smp->min_lod;
    lambda += bias + smp->mip_lod_bias;
    lambda = lambda > smp->max_lod ? smp->max_lod : lambda;
    lambda = lambda < floor_lod ? floor_lod : lambda;
    if (lambda > 0.0f) /* minification */
        return smp->min_filter == SB_RT_FILTER_NEAREST && smp->mip_filter == SB_RT_FILTER_NEAREST;
    if (smp->mag_filter == SB_RT_FILTER_NEAREST)
        return true; /* the texel itself: its decoding is all that may differ */
    uint32_t axes = o->sh.axes, corners = 1u << axes;
    float lo[4] = { INFINITY, INFINITY, INFINITY, INFINITY }, hi[4] = { -INFINITY, -INFINITY, -INFINITY, -INFINITY };
    for (uint32_t corner = 0; corner < corners; corner++) {
        float at[3] = { 0.0f, 0.0f, 0.0f };
        for (uint32_t a = 0; a < axes; a++) {
            float size = (float)sb_interp_level_extent(o->t.rt, a, 0);
            at[a] = (floorf(F(o->coord[a][l]) * size - 0.5f) + 0.5f + (float)((corner >> a) & 1u)) / size;
        }
        uint32_t v[4];
        lane_value(in, o, l, at, v, NULL);
        for (uint32_t c = 0; c < 4; c++) {
            lo[c] = fminf(lo[c], F(v[c]));
            hi[c] = fmaxf(hi[c], F(v[c]));
        }
    }
    for (uint32_t c = 0; c < 4; c++)
        dev[c] += step + (hi[c] - lo[c]) * (float)axes / 16.0f;
    return true;
}

/* Precision companions of a sampling result: filtering is continuous in its coordinates
 * (within a texel), so the result can move as far as the texels it blends differ over the
 * box the coordinates' bounds span; the box's corners and the texel centres inside it are
 * where a piecewise-multilinear filter takes its extremes. Gathers, comparisons, cubes,
 * array layers and LOD/bias operands that may differ: precision-sensitive. */
static void sample_bounds(struct interp_state *s, const struct sb_ir_instruction *in, const struct operands *o,
                          uint32_t *const out[4])
{
    s->prec->bounds_set = true;
    struct interp_companion oc[4];
    bool written = false;
    uint32_t axes = o->sh.axes;
    for (uint32_t l = 0; l < s->lanes; l++) {
        if (!s->active[l])
            continue;
        uint32_t origin = UINT32_MAX;
        float e[3] = { 0.0f, 0.0f, 0.0f }, other = 0.0f;
        for (uint32_t a = 0; a < o->dir; a++)
            e[a < 3 ? a : 2] += operand_bound(s, o->coord[a], l, &origin);
        if (o->sh.arrayed)
            other += operand_bound(s, o->coord[o->dir], l, &origin);
        other += operand_bound(s, o->extra, l, &origin) + operand_bound(s, o->bias, l, &origin);
        float filtering[4];
        bool filtered = filter_allowance(in, o, l, filtering);
        bool exact_filter = filtered && filtering[0] == 0.0f && filtering[1] == 0.0f && filtering[2] == 0.0f &&
                            filtering[3] == 0.0f;
        if (e[0] == 0.0f && e[1] == 0.0f && e[2] == 0.0f && other == 0.0f && exact_filter)
            continue; /* exact: what the results start as */
        for (uint32_t c = 0; c < 4 && !written; c++)
            if (!sb_interp_companion_write(s, out[c], &oc[c], false))
                return;
        written = true;
        if (origin == UINT32_MAX)
            origin = (uint32_t)in->offset; /* the filter itself is the origin */
        bool sensitive = other != 0.0f || o->sh.cube || o->f->gather || o->f->dref || !filtered;
        float center[3] = { 0.0f, 0.0f, 0.0f }, candidates[3][3];
        uint32_t count[3] = { 1, 1, 1 };
        for (uint32_t a = 0; !sensitive && a < axes; a++) {
            float size = (float)sb_interp_level_extent(o->t.rt, a, 0);
            center[a] = F(o->coord[a][l]);
            if (!(e[a] * size < 1.0f)) {
                sensitive = true; /* the box spans texels: no simple bound */
                break;
            }
            candidates[a][0] = center[a] - e[a];
            candidates[a][1] = center[a] + e[a];
            count[a] = 2;
            /* A texel centre inside the box: (i + 0.5) / size. */
            float t = floorf(center[a] * size - 0.5f) + 0.5f;
            for (int k = 0; k < 2; k++, t += 1.0f)
                if (t / size > candidates[a][0] && t / size < candidates[a][1] && count[a] < 3)
                    candidates[a][count[a]++] = t / size;
        }
        float dev[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
        for (uint32_t i = 0; !sensitive && i < count[0]; i++)
            for (uint32_t j = 0; j < count[1]; j++)
                for (uint32_t k = 0; k < count[2]; k++) {
                    float at[3] = { candidates[0][i], axes > 1 ? candidates[1][j] : 0.0f,
                                    axes > 2 ? candidates[2][k] : 0.0f };
                    uint32_t v[4];
                    lane_value(in, o, l, at, v, NULL);
                    for (uint32_t c = 0; c < 4; c++) {
                        float d = fabsf(F(v[c]) - F(out[c][l]));
                        dev[c] = d == d ? fmaxf(dev[c], d) : INFINITY;
                    }
                }
        for (uint32_t c = 0; c < 4; c++) {
            oc[c].bound[l] = sensitive ? INFINITY : dev[c] * 1.001f + filtering[c];
            oc[c].origin[l] = origin;
        }
    }
}

/*
 * NonUniformResourceIndex (a relative index into a t#/s# range): every active lane binds its
 * own texture and sampler (o->t_lane / sb_lane), as the device does; lane 0's binding in o->t
 * and o->sb stays for what all lanes share (the declaration). False (recorded) when a lane's
 * index is outside what is bound.
 */
static bool bind_lanes(struct interp_state *s, const struct sb_ir_instruction *in, struct operands *o)
{
    const struct sb_ir_operand *ops[2] = { &in->src[o->f->tex], &in->src[o->f->smp] };
    const struct sb_rt_resource ***lanes[2] = { &o->t_lane, &o->sb_lane };
    for (int k = 0; k < 2; k++) {
        const struct sb_ir_operand *op = ops[k];
        if (op->index_count < 2 || !op->index[1].relative)
            continue;
        const uint32_t *index = sb_interp_index(s, &op->index[1]);
        if (!index)
            return false;
        *lanes[k] = calloc(s->lanes, sizeof(**lanes[k]));
        if (!*lanes[k]) {
            sb_interp_fail(s, SB_ERROR_OUT_OF_MEMORY, "out of memory binding per-lane resources");
            return false;
        }
        for (uint32_t l = 0; l < s->lanes; l++) {
            struct interp_binding b;
            if (!s->active[l])
                (*lanes[k])[l] = k ? o->sb.rt : o->t.rt;
            else if (sb_interp_bind_indexed(s, op, index, l, &b))
                (*lanes[k])[l] = b.rt;
            else
                return false;
        }
    }
    return true;
}

static enum sb_result run(struct interp_state *s, const struct sb_ir_instruction *in, const struct form *f)
{
    const struct sb_ir_op_info *info = sb_ir_op_info(in->op);
    if (in->dst_count < 1 || in->src_count < info->src_min)
        return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s' has too few operands", info->name);
    const struct sb_ir_operand *tex = &in->src[f->tex];
    struct operands o;
    memset(&o, 0, sizeof(o));
    o.f = f;
    if (!sb_interp_bind(s, tex, 0, &o.t) || !sb_interp_bind(s, &in->src[f->smp], 0, &o.sb))
        return s->result;
    uint32_t dim = o.t.decl->dimension;
    o.sh = dim < 11 ? shapes[dim] : shapes[0];
    if (o.t.decl->kind != SB_IR_RESOURCE_KIND_TYPED || !o.sh.axes || (f->gather && o.sh.axes != 2))
        return sb_interp_unsupported(s, "sampling this texture dimension (buffers, MS)");
    if (f->dref && sb_interp_value_type(o.t.decl) != SB_IR_TYPE_FLOAT)
        return sb_interp_unsupported(s, "comparison sampling of an integer texture");
    uint32_t *out[4];
    for (uint32_t c = 0; c < 4; c++)
        if (!(out[c] = sb_interp_scratch(s)))
            return s->result;
    if (!load_operands(s, in, &o))
        return s->result;
    if (!bind_lanes(s, in, &o)) {
        free(o.t_lane);
        free(o.sb_lane);
        return s->result;
    }
    bool corners = false;
    for (uint32_t l = 0; l < s->lanes; l++) {
        uint32_t v[4] = { 0, 0, 0, 0 };
        if (s->active[l])
            lane_value(in, &o, l, NULL, v, s->prec ? &corners : NULL);
        for (uint32_t c = 0; c < 4; c++)
            out[c][l] = v[c];
    }
    if (s->prec)
        sample_bounds(s, in, &o, out);
    if (corners) /* redo the lanes one by one: which read a made-up corner texel */
        for (uint32_t l = 0; l < s->lanes; l++) {
            bool corner = false;
            uint32_t v[4];
            if (s->active[l])
                lane_value(in, &o, l, NULL, v, &corner);
            for (uint32_t c = 0; corner && c < 4; c++) {
                struct interp_companion oc;
                if (sb_interp_companion_write(s, out[c], &oc, false)) {
                    oc.bound[l] = INFINITY; /* Vulkan: a corner texel of seamless filtering is the device's choice */
                    oc.origin[l] = (uint32_t)in->offset;
                }
            }
        }
    const uint32_t *value[4];
    for (uint32_t c = 0; c < 4; c++)
        value[c] = f->dref && !f->gather ? out[0] : out[tex->swizzle[c] & 3u];
    if (sb_interp_store(s, &in->dst[0], in->dst[0].mask, value, sb_interp_value_type(o.t.decl)) &&
        in->dst_count >= 2) {
        uint32_t *zero = sb_interp_scratch(s);
        if (zero) {
            memset(zero, 0, s->lanes * sizeof(uint32_t));
            sb_interp_store_replicated(s, &in->dst[1], zero, SB_IR_TYPE_UINT);
        }
    }
    free(o.t_lane);
    free(o.sb_lane);
    return s->result;
}

/* lod in a pixel shader (OpImageQueryLod, spirv_texture_query.c): x = the LOD sampling
 * would use (sampler bias and [min_lod, max_lod] applied, then [0, last level]), y = the
 * quad's LOD before any clamp, zw = 0. Points give zero derivatives, so y is -inf here
 * (Vulkan leaves log2(0) to the implementation: lavapipe gives about -64). */
static enum sb_result lod_query(struct interp_state *s, const struct sb_ir_instruction *in)
{
    static const struct form lod_form = { SB_IR_OP_LOD, 1, 2, 0, false, false, true, false, false, 0, 0, 0 };
    if (in->dst_count < 1 || in->src_count < 3)
        return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'lod' has too few operands");
    struct operands o;
    memset(&o, 0, sizeof(o));
    o.f = &lod_form;
    if (!sb_interp_bind(s, &in->src[1], 0, &o.t) || !sb_interp_bind(s, &in->src[2], 0, &o.sb))
        return s->result;
    uint32_t dim = o.t.decl->dimension;
    o.sh = dim < 11 ? shapes[dim] : shapes[0];
    if (o.t.decl->kind != SB_IR_RESOURCE_KIND_TYPED || !o.sh.axes)
        return sb_interp_unsupported(s, "lod on this texture dimension (buffers, MS)");
    uint32_t *out[4];
    for (uint32_t c = 0; c < 4; c++)
        if (!(out[c] = sb_interp_scratch(s)))
            return s->result;
    if (!load_operands(s, in, &o) || !o.lod)
        return s->result;
    const struct sb_rt_sampler *smp = &o.sb.rt->sampler;
    float last = (float)((o.t.rt->mip_levels ? o.t.rt->mip_levels : 1) - 1);
    for (uint32_t l = 0; l < s->lanes; l++) {
        float base = F(o.lod[l]), x = base + smp->mip_lod_bias;
        x = x > smp->max_lod ? smp->max_lod : x;
        x = x < smp->min_lod ? smp->min_lod : x;
        x = x > last ? last : !(x > 0.0f) ? 0.0f : x;
        out[0][l] = U(x);
        out[1][l] = U(base);
        out[2][l] = out[3][l] = 0;
    }
    const uint32_t *value[4];
    for (uint32_t c = 0; c < 4; c++)
        value[c] = out[in->src[1].swizzle[c] & 3u];
    sb_interp_store(s, &in->dst[0], in->dst[0].mask, value, SB_IR_TYPE_FLOAT);
    return s->result;
}

enum sb_result sb_interp_sample(struct interp_state *s, const struct sb_ir_instruction *in)
{
    if (in->op == SB_IR_OP_LOD)
        return lod_query(s, in);
    for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
        if (forms[i].op == in->op)
            return run(s, in, &forms[i]);
    return SB_ERROR_TRANSLATE_UNSUPPORTED;
}
