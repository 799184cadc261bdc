/* SPDX-License-Identifier: MIT */
/*
 * The entry function of the PICA200 geometry-shader expansion (pica_gs.c): everything
 * the hardware does around the GS program, in the hardware's order. Registers are zeroed
 * once; the uniform buffer is copied into the image (u1) the body reads; then for each input
 * primitive its record is loaded (point mode: v0.. ; variable/fixed mode: the float
 * uniforms from the mode's first register, ../shared/docs/pica200.md §9.2), the front end's own
 * bookkeeping temps are reset (they describe one run of the program, not unit state), the
 * body runs, and b15 becomes true (§9.1). Last, the u0 header says how many vertices were
 * emitted (also those that did not fit) and how many primitives ran.
 */
#include "pica_gs_private.h"

#include "shaderbridge/shbin.h"

static void mov(struct pgs *g, struct sb_ir_operand d, struct sb_ir_operand s)
{
    pgs_emit(g, SB_IR_OP_MOV, &d, 1, &s, NULL, NULL);
}

static void op2(struct pgs *g, uint32_t op, struct sb_ir_operand d, struct sb_ir_operand a, struct sb_ir_operand b)
{
    pgs_emit(g, op, &d, 2, &a, &b, NULL);
}

static void marker(struct pgs *g, uint32_t op)
{
    pgs_emit(g, op, NULL, 0, NULL, NULL, NULL);
}

/* Zeroed registers (both output banks among them), the uniform image u1 = cb0, and the
 * t0 header in the state temps. */
static void start(struct pgs *g)
{
    uint32_t s = g->state_temp, k = g->loop_temp, w = g->scratch_temp;
    for (uint32_t t = 0; t < g->scratch_temp + PGS_SCRATCH_TEMPS; t++)
        mov(g, pgs_dst(t, 0xF), pgs_imm(0));
    if (g->has_uniforms) { /* r(loop).x counts the vectors; a loop, as in load_uniforms */
        marker(g, SB_IR_OP_LOOP);
        op2(g, SB_IR_OP_UGE, pgs_dst(w, 1), pgs_lane(k, 0), pgs_imm(SB_IR_PICA_UNIFORM_VECTORS));
        pgs_test(g, SB_IR_OP_BREAKC, w, 0);
        struct sb_ir_operand vector = pgs_uniform(0);
        vector.index[1].relative = pgs_keep(g, pgs_lane(k, 0));
        mov(g, pgs_dst(w + 1, 0xF), vector);
        op2(g, SB_IR_OP_ISHL, pgs_dst(w, 2), pgs_lane(k, 0), pgs_imm(4));
        struct sb_ir_operand u1 = pgs_uav(SB_RT_PICA_GS_UNIFORM_REGISTER, 0xF), at = pgs_lane(w, 1),
                             value = pgs_src(w + 1);
        pgs_emit(g, SB_IR_OP_STORE_RAW, &u1, 2, &at, &value, NULL);
        op2(g, SB_IR_OP_IADD, pgs_dst(k, 1), pgs_lane(k, 0), pgs_imm(1));
        marker(g, SB_IR_OP_ENDLOOP);
    }
    struct sb_ir_operand t0 = pgs_inputs(), zero = pgs_imm(0), header = pgs_dst(w, 0xF);
    pgs_emit(g, SB_IR_OP_LD_RAW, &header, 2, &zero, &t0, NULL);
    op2(g, SB_IR_OP_UMIN, pgs_dst(s, 8), pgs_lane(w, 0), pgs_imm(PGS_MAX_PRIMITIVES));
    mov(g, pgs_dst(k, 2), pgs_lane(w, 1));
    op2(g, SB_IR_OP_UMIN, pgs_dst(k, 4), pgs_lane(w, 2), pgs_imm(g->info.max_record_vectors));
}

/* Point mode: v0-v15 from the record at byte r(scratch).y, the first `vectors` of them. */
static void load_registers(struct pgs *g)
{
    uint32_t k = g->loop_temp, w = g->scratch_temp;
    for (uint32_t n = 0; n < 16; n++) {
        struct sb_ir_operand t0 = pgs_inputs(), in = pgs_dst(g->in_temp + n, 0xF);
        op2(g, SB_IR_OP_ULT, pgs_dst(w, 4), pgs_imm(n), pgs_lane(k, 2));
        pgs_test(g, SB_IR_OP_IF, w, 2);
        op2(g, SB_IR_OP_IADD, pgs_dst(w, 8), pgs_lane(w, 1), pgs_imm(16 * n));
        struct sb_ir_operand at = pgs_lane(w, 3);
        pgs_emit(g, SB_IR_OP_LD_RAW, &in, 2, &at, &t0, NULL);
        marker(g, SB_IR_OP_ENDIF);
    }
}

/* Uniform modes: c[first + i] of the image u1 for i < vectors, from the record at byte
 * r(scratch).y. A loop, not unrolled: lavapipe's compile time grows fast with code size. */
static void load_uniforms(struct pgs *g)
{
    uint32_t k = g->loop_temp, w = g->scratch_temp, v = g->scratch_temp + 1;
    if (!g->has_uniforms)
        return;
    mov(g, pgs_dst(k, 1), pgs_imm(0));
    marker(g, SB_IR_OP_LOOP);
    op2(g, SB_IR_OP_UGE, pgs_dst(w, 4), pgs_lane(k, 0), pgs_lane(k, 2));
    pgs_test(g, SB_IR_OP_BREAKC, w, 2);
    op2(g, SB_IR_OP_ISHL, pgs_dst(w, 8), pgs_lane(k, 0), pgs_imm(4));
    op2(g, SB_IR_OP_IADD, pgs_dst(w, 4), pgs_lane(w, 3), pgs_lane(w, 1));   /* from t0 */
    op2(g, SB_IR_OP_IADD, pgs_dst(w, 8), pgs_lane(w, 3), pgs_imm(g->info.first_uniform * 16)); /* to u1 */
    struct sb_ir_operand t0 = pgs_inputs(), value = pgs_dst(v, 0xF), from = pgs_lane(w, 2), to = pgs_lane(w, 3),
                         u1 = pgs_uav(SB_RT_PICA_GS_UNIFORM_REGISTER, 0xF), kept = pgs_src(v);
    pgs_emit(g, SB_IR_OP_LD_RAW, &value, 2, &from, &t0, NULL);
    pgs_emit(g, SB_IR_OP_STORE_RAW, &u1, 2, &to, &kept, NULL);
    op2(g, SB_IR_OP_IADD, pgs_dst(k, 1), pgs_lane(k, 0), pgs_imm(1));
    marker(g, SB_IR_OP_ENDLOOP);
}

/* One pass of the primitive loop: input, fresh bookkeeping, the body, b15. */
static void primitive(struct pgs *g)
{
    uint32_t s = g->state_temp, k = g->loop_temp, w = g->scratch_temp;
    op2(g, SB_IR_OP_UGE, pgs_dst(w, 1), pgs_lane(s, 2), pgs_lane(s, 3));
    pgs_test(g, SB_IR_OP_BREAKC, w, 0);
    /* record byte offset = 16 + primitive * vectors * 16 */
    struct sb_ir_operand prim = pgs_lane(s, 2), vectors = pgs_lane(k, 2), zero = pgs_imm(0), y = pgs_dst(w, 2);
    pgs_emit(g, SB_IR_OP_UMAD, &y, 3, &prim, &vectors, &zero);
    op2(g, SB_IR_OP_ISHL, pgs_dst(w, 2), pgs_lane(w, 1), pgs_imm(4));
    op2(g, SB_IR_OP_IADD, pgs_dst(w, 2), pgs_lane(w, 1), pgs_imm(16));
    if (g->info.mode == SB_SHBIN_GS_MODE_POINT)
        load_registers(g);
    else
        load_uniforms(g);
    for (uint32_t t = 16; t < g->base; t++)
        mov(g, pgs_dst(t, 0xF), pgs_imm(0));
    struct sb_ir_instruction *call = pgs_emit(g, SB_IR_OP_CALL, NULL, 0, NULL, NULL, NULL);
    if (call)
        call->target = 1;
    if (g->has_uniforms) {
        struct sb_ir_operand u1 = pgs_uav(SB_RT_PICA_GS_UNIFORM_REGISTER, 1), mask = pgs_dst(w, 1),
                             at = pgs_imm(SB_IR_PICA_UNIFORM_BOOL_VECTOR * 16), bits = pgs_lane(w, 0);
        pgs_emit(g, SB_IR_OP_LD_RAW, &mask, 2, &at, &u1, NULL);
        op2(g, SB_IR_OP_OR, mask, bits, pgs_imm(1u << 15));
        pgs_emit(g, SB_IR_OP_STORE_RAW, &u1, 2, &at, &bits, NULL);
    }
    op2(g, SB_IR_OP_IADD, pgs_dst(s, 4), pgs_lane(s, 2), pgs_imm(1));
}

bool pgs_entry(struct pgs *g, struct sb_ir_function *out)
{
    g->code_count = 0;
    start(g);
    marker(g, SB_IR_OP_LOOP);
    primitive(g);
    marker(g, SB_IR_OP_ENDLOOP);
    uint32_t s = g->state_temp, v = g->scratch_temp + 1;
    mov(g, pgs_dst(v, 1), pgs_lane(s, 1));
    mov(g, pgs_dst(v, 2), pgs_lane(s, 2));
    mov(g, pgs_dst(v, 4), pgs_imm(g->info.record_vectors));
    mov(g, pgs_dst(v, 8), pgs_imm(0));
    struct sb_ir_operand u0 = pgs_uav(SB_RT_PICA_GS_OUTPUT_REGISTER, 0xF), zero = pgs_imm(0), value = pgs_src(v);
    pgs_emit(g, SB_IR_OP_STORE_RAW, &u0, 2, &zero, &value, NULL);
    marker(g, SB_IR_OP_RET);
    return !g->failed && pgs_finish(g, out, 0xFFFFFFFFu);
}
