/* SPDX-License-Identifier: MIT */
/*
 * Cube maps in the CPU interpreter (interp_filter.c samples them): Vulkan's
 * "Cube Map Face Selection" and "Cube Map Edge Handling".
 *   * The major axis is the direction component of largest magnitude; ties
 *     go to z, then y (lavapipe's order; Vulkan leaves ties open), and its
 *     sign bit picks the face (+X -X +Y -Y +Z -Z = layers 0..5 of a cube,
 *     resources.h). s = sc / |ma| / 2 + 1/2, t likewise, sc/tc from the
 *     spec's table (one row per face below).
 *   * Linear filtering is seamless (Vulkan ignores a cube sampler's address
 *     modes): a footprint texel one step off the face is the texel of the
 *     neighbouring face that the direction through that texel's centre
 *     selects. Working in integers scaled by the face size N makes this exact:
 *     the texel centre (i, j) of a face is the direction with
 *     ma = N, sc = 2i + 1 - N, tc = 2j + 1 - N; one step off the face gives a
 *     component of magnitude N + 1, the new major axis, and projecting on that
 *     face lands in the texel the spec's edge table names. A texel off both
 *     edges (a corner) has no face: the caller replaces it by the mean of the
 *     three others of its footprint (the three texels meeting at the corner).
 *   * Nearest filtering clamps to the face's edge.
 */
#include "interp_private.h"

#include <math.h>

/* The face table: major axis, and the axis and sign giving sc and tc. */
struct face_row {
    uint8_t major, s_axis, t_axis;
    int8_t s_sign, t_sign;
};

static const struct face_row faces[6] = {
    { 0, 2, 1, -1, -1 }, /* +X: sc = -rz, tc = -ry */
    { 0, 2, 1, +1, -1 }, /* -X: sc = +rz, tc = -ry */
    { 1, 0, 2, +1, +1 }, /* +Y: sc = +rx, tc = +rz */
    { 1, 0, 2, +1, -1 }, /* -Y: sc = +rx, tc = -rz */
    { 2, 0, 1, +1, -1 }, /* +Z: sc = +rx, tc = -ry */
    { 2, 0, 1, -1, -1 }, /* -Z: sc = -rx, tc = -ry */
};

uint32_t sb_interp_cube_face(const float dir[3])
{
    float ax = fabsf(dir[0]), ay = fabsf(dir[1]), az = fabsf(dir[2]);
    uint32_t axis = ax > ay ? 0u : 1u;
    if (az >= (ax > ay ? ax : ay))
        axis = 2u;
    return axis * 2u + (signbit(dir[axis]) ? 1u : 0u);
}

/* sc, tc and |ma| of `dir` on `face`; and the same of a derivative `d` (ma's sign kept). */
static void face_parts(uint32_t face, const float dir[3], float out[3])
{
    const struct face_row *f = &faces[face % 6u];
    out[0] = (float)f->s_sign * dir[f->s_axis];
    out[1] = (float)f->t_sign * dir[f->t_axis];
    out[2] = (face & 1u) ? -dir[f->major] : dir[f->major];
}

void sb_interp_cube_coords(uint32_t face, const float dir[3], float st[2])
{
    float p[3];
    face_parts(face, dir, p);
    float half = 0.5f / p[2];
    st[0] = p[0] * half + 0.5f;
    st[1] = p[1] * half + 0.5f;
}

void sb_interp_cube_derivatives(uint32_t face, const float dir[3], const float d[3], float dst[2])
{
    float p[3], dp[3];
    face_parts(face, dir, p);
    face_parts(face, d, dp);
    /* d(sc / ma) / 2 = (dsc * ma - sc * dma) / (2 ma^2) */
    float inv = 0.5f / (p[2] * p[2]);
    dst[0] = (dp[0] * p[2] - p[0] * dp[2]) * inv;
    dst[1] = (dp[1] * p[2] - p[1] * dp[2]) * inv;
}

bool sb_interp_cube_texel(uint32_t *face, int32_t size, int32_t *i, int32_t *j)
{
    int32_t n = size, x = *i < -1 ? -1 : *i > n ? n : *i, y = *j < -1 ? -1 : *j > n ? n : *j;
    bool x_in = x >= 0 && x < n, y_in = y >= 0 && y < n;
    if (x_in && y_in) {
        *i = x;
        *j = y;
        return true;
    }
    if (!x_in && !y_in)
        return false;
    /* The direction through the texel centre, scaled by N (exact in integers). */
    const struct face_row *f = &faces[*face % 6u];
    int64_t d[3];
    d[f->major] = (*face & 1u) ? -(int64_t)n : (int64_t)n;
    d[f->s_axis] = (int64_t)f->s_sign * (2 * (int64_t)x + 1 - n);
    d[f->t_axis] = (int64_t)f->t_sign * (2 * (int64_t)y + 1 - n);
    uint32_t axis = x_in ? f->t_axis : f->s_axis; /* the component now of magnitude N + 1 */
    uint32_t to = axis * 2u + (d[axis] < 0 ? 1u : 0u);
    const struct face_row *g = &faces[to];
    int64_t ma = d[axis] < 0 ? -d[axis] : d[axis];
    int64_t sc = g->s_sign * d[g->s_axis], tc = g->t_sign * d[g->t_axis];
    int64_t u = (int64_t)n * (sc + ma) / (2 * ma), v = (int64_t)n * (tc + ma) / (2 * ma);
    *i = (int32_t)(u < 0 ? 0 : u >= n ? n - 1 : u);
    *j = (int32_t)(v < 0 ? 0 : v >= n ? n - 1 : v);
    *face = to;
    return true;
}
