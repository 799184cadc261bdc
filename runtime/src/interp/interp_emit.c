/* SPDX-License-Identifier: MIT */
/*
 * EMIT / CUT / EMIT_THEN_CUT of a geometry batch (interp_geometry.c runs the
 * batches): EMIT appends the lane's o# registers and the stream to its
 * invocation's list while fewer than gs_max_output_vertices are kept (D3D drops
 * the rest; they are counted); CUT sets the stream's bit in the cut mask of the
 * invocation's next slot, so "cuts since the previous vertex" is exact per
 * vertex and the cuts after the last vertex are kept too.
 */
#include "interp_private.h"

enum sb_result sb_interp_geometry_emit(struct interp_state *s, const struct sb_ir_instruction *inst)
{
    struct interp_geometry *g = s->geometry;
    if (!g)
        return sb_interp_unsupported(s, "emit/cut outside a geometry shader");
    if (inst->stream > 3)
        return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s' on stream %u (0-3 exist)",
                              sb_ir_op_name(inst->op), inst->stream);
    struct sb_interp_geometry_results *res = g->results;
    bool emit = inst->op != SB_IR_OP_CUT, cut = inst->op != SB_IR_OP_EMIT;
    uint32_t n = s->lanes, slots = res->max_vertices, regs = res->registers < s->out_regs ? res->registers
                                                                                          : s->out_regs;
    for (uint32_t l = 0; l < s->invocations; l++) {
        if (!s->active[l])
            continue;
        size_t j = (size_t)g->first + l;
        uint32_t k = res->vertex_count[j];
        if (emit && k < g->max) {
            uint32_t *words = res->words + (j * slots + k) * res->registers * 4;
            for (uint32_t r = 0; r < regs; r++)
                for (uint32_t c = 0; c < 4; c++)
                    words[r * 4 + c] = s->io_out[((size_t)r * 4 + c) * n + l];
            res->stream[j * slots + k] = (uint8_t)inst->stream;
            res->vertex_count[j] = ++k;
        } else if (emit && res->dropped) {
            res->dropped[j]++;
        }
        if (cut)
            res->cut_before[j * (slots + 1) + k] |= (uint8_t)(1u << inst->stream);
    }
    return SB_SUCCESS;
}
