/* SPDX-License-Identifier: MIT */
/*
 * What makes a pixel batch more than independent lanes (interp_graphics.c):
 * lanes 4q..4q+3 are one 2x2 quad, lane 4q + (x & 1) + 2 * (y & 1), so
 * derivatives are differences inside a quad, as OpDPdx/OpDPdy compute them
 * on a device (translator/src/spirv/spirv_alu.c):
 *   coarse (and plain deriv_rtx/rty, which lavapipe evaluates coarsely): one
 *   value for the whole quad, the top row's difference for x and the left
 *   column's for y;
 *   fine: each row (x) or column (y) its own difference.
 * DISCARD is OpKill on the GPU; here the lane is only marked, keeps running
 * as a helper (derivatives of its quad stay defined) and writes nothing —
 * the outputs that reach the caller are the same.
 * The implicit LOD of sample/sample_b/sample_c uses the coarse differences of
 * the coordinates, i.e. one LOD per quad, which is what lavapipe does.
 * Compute programs with derivatives (SM 6.6; sb_ir_program::compute_derivatives)
 * take the same differences over the group's quads: a batch holds whole groups,
 * each in flattened order (interp_dispatch.c), so quad position p of a thread is
 * found from its local id: 2x2 blocks of (x, y) (QUADS, p = (x & 1) + 2 (y & 1))
 * or 4 consecutive flattened threads (LINEAR, p = index & 3).
 */
#include "interp_private.h"

#include <math.h>
#include <string.h>
#include "translator/ir.h"

/* Quad positions whose difference lane p takes: value[to] - value[from], quad-relative. */
struct deriv_row {
    uint32_t op;
    uint8_t from[4], to[4];
};

bool sb_interp_has_quads(const struct interp_state *s)
{
    return s->quad || (s->program->stage == SB_IR_STAGE_COMPUTE &&
                       s->program->compute_derivatives != SB_IR_COMPUTE_DERIVATIVES_NONE);
}

/* Lane l's position (0-3, x + 2y) in its quad, and the lane at position p of that quad. */
static uint32_t quad_position(const struct interp_state *s, uint32_t l)
{
    if (s->quad || s->program->compute_derivatives != SB_IR_COMPUTE_DERIVATIVES_QUADS)
        return l & 3u; /* pixel quads; LINEAR: groups are multiples of 4 lanes */
    uint32_t i = l % s->group_size, width = s->program->thread_group[0];
    return (i % width & 1u) + 2u * (i / width & 1u);
}

static uint32_t quad_lane(const struct interp_state *s, uint32_t l, uint32_t p)
{
    if (s->quad || s->program->compute_derivatives != SB_IR_COMPUTE_DERIVATIVES_QUADS)
        return (l & ~3u) + p;
    uint32_t i = l % s->group_size, width = s->program->thread_group[0];
    uint32_t x = i % width, y = i / width; /* y counts rows of the whole group: z * Y + y */
    return l - i + ((y & ~1u) + (p >> 1)) * width + (x & ~1u) + (p & 1u);
}

static const struct deriv_row deriv_rows[] = {
    { SB_IR_OP_DERIV_RTX, { 0, 0, 0, 0 }, { 1, 1, 1, 1 } },
    { SB_IR_OP_DERIV_RTX_COARSE, { 0, 0, 0, 0 }, { 1, 1, 1, 1 } },
    { SB_IR_OP_DERIV_RTX_FINE, { 0, 0, 2, 2 }, { 1, 1, 3, 3 } },
    { SB_IR_OP_DERIV_RTY, { 0, 0, 0, 0 }, { 2, 2, 2, 2 } },
    { SB_IR_OP_DERIV_RTY_COARSE, { 0, 0, 0, 0 }, { 2, 2, 2, 2 } },
    { SB_IR_OP_DERIV_RTY_FINE, { 0, 1, 0, 1 }, { 2, 3, 2, 3 } },
};

enum sb_result sb_interp_derivative(struct interp_state *s, const struct sb_ir_instruction *in)
{
    const struct deriv_row *row = NULL;
    for (size_t i = 0; i < sizeof(deriv_rows) / sizeof(deriv_rows[0]); i++)
        if (deriv_rows[i].op == in->op)
            row = &deriv_rows[i];
    if (!row || in->dst_count < 1 || in->src_count < 1)
        return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s' has too few operands", sb_ir_op_name(in->op));
    uint32_t mask = in->dst[0].mask & 0xFu;
    if (!mask || in->dst[0].file == SB_IR_FILE_NULL)
        return SB_SUCCESS;
    const uint32_t *a[4] = { NULL, NULL, NULL, NULL };
    uint32_t *r[4] = { NULL, NULL, NULL, NULL };
    if (!sb_interp_load(s, &in->src[0], mask, SB_IR_TYPE_FLOAT, a))
        return s->result;
    for (uint32_t c = 0; c < 4; c++) {
        if (!(mask & (1u << c)))
            continue;
        if (!(r[c] = sb_interp_scratch(s)))
            return s->result;
        for (uint32_t l = 0; l < s->lanes; l++) {
            uint32_t p = quad_position(s, l);
            r[c][l] = U(F(a[c][quad_lane(s, l, row->to[p])]) - F(a[c][quad_lane(s, l, row->from[p])]));
        }
    }
    sb_interp_store(s, &in->dst[0], mask, (const uint32_t *const *)r, SB_IR_TYPE_FLOAT);
    return s->result;
}

enum sb_result sb_interp_discard(struct interp_state *s, const struct sb_ir_instruction *in)
{
    if (!s->quad || !s->discarded)
        return sb_interp_unsupported(s, "discard outside a pixel shader");
    if (in->src_count < 1)
        return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'discard' without a condition");
    const uint32_t *c = sb_interp_load_scalar(s, &in->src[0], SB_IR_TYPE_UINT);
    if (!c)
        return s->result;
    bool nz = (in->flags & SB_IR_FLAG_TEST_NZ) != 0;
    for (uint32_t l = 0; l < s->lanes; l++)
        if (s->active[l] && (c[l] != 0) == nz)
            s->discarded[l] = 1;
    return SB_SUCCESS;
}

void sb_interp_implicit_lod(const struct interp_state *s, const uint32_t *const coord[3], uint32_t axes,
                            const uint32_t size[3], const uint32_t *const ddx[3],
                            const uint32_t *const ddy[3], uint32_t *lod, uint32_t *anisotropic)
{
    for (uint32_t l = 0; l < s->lanes; l++) {
        uint32_t q0 = quad_lane(s, l, 0), q1 = quad_lane(s, l, 1), q2 = quad_lane(s, l, 2);
        float x2 = 0.0f, y2 = 0.0f;
        for (uint32_t a = 0; a < axes && a < 3; a++) {
            float dx, dy;
            if (ddx) {
                dx = F(ddx[a][l]);
                dy = F(ddy[a][l]);
            } else {
                dx = F(coord[a][q1]) - F(coord[a][q0]);
                dy = F(coord[a][q2]) - F(coord[a][q0]);
            }
            dx *= (float)size[a];
            dy *= (float)size[a];
            x2 += dx * dx;
            y2 += dy * dy;
        }
        float rho = sqrtf(x2 > y2 ? x2 : y2);
        lod[l] = U(log2f(rho));
        if (anisotropic) /* Vulkan's N = ceil(rho_max / rho_min) passes 1 exactly when they differ */
            anisotropic[l] = x2 != y2;
    }
}
