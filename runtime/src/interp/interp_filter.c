/* SPDX-License-Identifier: MIT */
/*
 * Texel filtering of the CPU interpreter's sampling ops (interp_sample.c
 * decodes the operands): Vulkan's rules as lavapipe applies them.
 *   * Texel space u = s * size; nearest takes floor(u), linear blends
 *     floor(u - 0.5) and the next texel by frac(u - 0.5); `_aoffimmi`
 *     offsets are added to the integer texel coordinates; addressing modes
 *     repeat, mirrored repeat, clamp to edge, clamp to border (the
 *     sampler's border colour; transparent black unless a caller set one)
 *     and mirror once (mirror clamp to edge).
 *   * LOD: the sampler's mip_lod_bias is added and the result clamped to
 *     [min_lod, max_lod]; LOD <= 0 uses mag_filter, else min_filter, with
 *     the mip filter picking one level (nearest: ceil(lod + 0.5) - 1) or
 *     blending two.
 *   * Cubes sample their face with seamless edges (interp_cube.c); a
 *     footprint texel in a cube's corner is the mean of the other three.
 *   * Comparison (sample_c, gather4_c...): each texel becomes 1.0 or 0.0 by
 *     `ref OP red` (VkCompareOp of the sampler; border texels compare the
 *     border colour's red) before filtering, so linear filtering gives percentage-closer
 *     results. The reference is not clamped: the textures are colour
 *     formats, and Vulkan/lavapipe clamp only for fixed-point depth formats.
 *   * gather takes the 2x2 footprint of level 0 in the order (i0, j1),
 *     (i1, j1), (i1, j0), (i0, j0), one channel of each.
 * Filtering is computed in float; a device's fixed-point sub-texel weights
 * may differ in the last bits, so compare linear results with a tolerance.
 */
#include "interp_private.h"

#include <math.h>
#include <string.h>

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
    case SB_RT_ADDRESS_MIRROR_ONCE: {
        int32_t m = i >= 0 ? i : -(1 + i);
        return m >= size ? size - 1 : m;
    }
    default: return i < 0 ? 0 : i >= size ? size - 1 : i;
    }
}

/* VkCompareOp: 1.0 when `ref OP texel` holds. */
static float compare(uint32_t op, float ref, float texel)
{
    bool r;
    switch (op) {
    case 0: r = false; break;            /* NEVER */
    case 1: r = ref < texel; break;      /* LESS */
    case 2: r = ref == texel; break;     /* EQUAL */
    case 3: r = ref <= texel; break;     /* LESS_OR_EQUAL */
    case 4: r = ref > texel; break;      /* GREATER */
    case 5: r = ref != texel; break;     /* NOT_EQUAL */
    case 6: r = ref >= texel; break;     /* GREATER_OR_EQUAL */
    default: r = true; break;            /* ALWAYS */
    }
    return r ? 1.0f : 0.0f;
}

/* One texel of level `mip` (after addressing); false for a cube corner, which has none. */
static bool fetch(const struct interp_lookup *k, const int32_t *ijk, int32_t mip, float out[4])
{
    int32_t at[3] = { 0, 0, 0 }, layer = k->layer;
    bool border = false;
    if (k->face >= 0) {
        uint32_t face = (uint32_t)k->face;
        at[0] = ijk[0];
        at[1] = ijk[1];
        if (!sb_interp_cube_texel(&face, (int32_t)sb_interp_level_extent(k->r, 0, (uint32_t)mip), &at[0], &at[1]))
            return false;
        layer += (int32_t)face;
    } else {
        for (uint32_t a = 0; a < k->axes; a++) {
            at[a] = wrap(ijk[a], (int32_t)sb_interp_level_extent(k->r, a, (uint32_t)mip), k->smp->address[a]);
            border |= at[a] < 0;
        }
    }
    const uint8_t *p = border ? NULL : sb_interp_texel_address(k->r, at[0], at[1], at[2], layer, mip);
    uint32_t bits[4] = { 0, 0, 0, 0 };
    if (p)
        sb_interp_texel_read(k->r->format, p, at[0], at[1], bits);
    memcpy(out, bits, 16);
    if (border) /* the sampler's border colour, as floats (resources.h: float formats only) */
        memcpy(out, k->smp->border_color, 16);
    if (k->compare)
        out[0] = out[1] = out[2] = out[3] = compare(k->smp->compare_op, k->ref, out[0]);
    return true;
}

/* The 2^axes texels of a linear footprint from `base`; corner i of texel bit a = base[a] + 1. */
static void footprint(const struct interp_lookup *k, const int32_t *base, int32_t mip, float t[8][4])
{
    uint32_t n = 1u << k->axes, missing = UINT32_MAX;
    for (uint32_t corner = 0; corner < n; corner++) {
        int32_t at[3];
        for (uint32_t a = 0; a < k->axes; a++)
            at[a] = base[a] + (int32_t)((corner >> a) & 1u);
        if (!fetch(k, at, mip, t[corner]))
            missing = corner;
    }
    if (missing == UINT32_MAX)
        return;
    if (k->corner)
        *k->corner = true;
    for (uint32_t c = 0; c < 4; c++) {
        float sum = 0.0f;
        for (uint32_t corner = 0; corner < n; corner++)
            if (corner != missing)
                sum += t[corner][c];
        t[missing][c] = sum / (float)(n - 1);
    }
}

/* One level, nearest or linear. */
static void filter_level(const struct interp_lookup *k, const float *coord, const int32_t *offset, int32_t mip,
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
            if (k->face >= 0) { /* cubes: nearest clamps to the face */
                int32_t n = (int32_t)sb_interp_level_extent(k->r, a, (uint32_t)mip);
                base[a] = base[a] < 0 ? 0 : base[a] >= n ? n - 1 : base[a];
            }
        }
    }
    if (!linear) {
        fetch(k, base, mip, out);
        return;
    }
    float t[8][4];
    footprint(k, base, mip, t);
    memset(out, 0, 16);
    for (uint32_t corner = 0; corner < (1u << k->axes); corner++) {
        float w = 1.0f;
        for (uint32_t a = 0; a < k->axes; a++)
            w *= ((corner >> a) & 1u) ? frac[a] : 1.0f - frac[a];
        for (uint32_t c = 0; c < 4; c++)
            out[c] += w * t[corner][c];
    }
}

void sb_interp_filter_sample(const struct interp_lookup *k, const float *coord, const int32_t *offset, float lod,
                             float out[4])
{
    const struct sb_rt_sampler *smp = k->smp;
    uint32_t q = (k->r->mip_levels ? k->r->mip_levels : 1) - 1;
    /* The `_cl` clamp bounds the biased LOD from below as the sampler's minimum does
     * (Vulkan's MinLod: the larger of the two is the floor). */
    float floor_lod = k->min_lod > smp->min_lod ? k->min_lod : smp->min_lod;
    lod += smp->mip_lod_bias;
    if (lod > smp->max_lod)
        lod = smp->max_lod;
    if (lod < floor_lod)
        lod = floor_lod;
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

void sb_interp_filter_gather(const struct interp_lookup *k, const float *coord, const int32_t *offset, uint32_t ch,
                             uint32_t out[4])
{
    int32_t base[2];
    for (uint32_t a = 0; a < 2; a++)
        base[a] = floor_int(coord[a] * (float)sb_interp_level_extent(k->r, a, 0) - 0.5f) + offset[a];
    float t[8][4];
    footprint(k, base, 0, t);
    /* footprint order: (i0, j0), (i1, j0), (i0, j1), (i1, j1) */
    static const uint8_t order[4] = { 2, 3, 1, 0 };
    for (uint32_t g = 0; g < 4; g++)
        memcpy(&out[g], &t[order[g]][ch & 3u], 4);
}
