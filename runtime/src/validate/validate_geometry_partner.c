/* SPDX-License-Identifier: MIT */
/*
 * The IR programs geometry validation draws with (validate_geometry.c),
 * translated by our own back end like the partners of partner.c:
 *
 *   the feeder VS: copies one seeded vertex stream per feed to the o#
 *   register and components the geometry module reads (SV_Position and
 *   clip/cull distances as the same system values, so the back end routes
 *   them through the built-ins on both sides);
 *
 *   the capture GS: a copy of the program under test whose EMIT/CUT become
 *   structured-UAV stores (sb_rt_geometry_capture_program has the record
 *   layout). The copy emits nothing and declares no outputs, so what is
 *   compared never depends on rasterisation, stream-output support or what
 *   a device does with emits past the declared maximum; the o# registers it
 *   stores are the back end's own o# array at each emit, which is exactly
 *   what its real emit copies out.
 */
#include "validate_private.h"

#include <stdlib.h>
#include <string.h>
#include "translator/ir.h"
#include "validate_ir_build.h"

/* ---- the feeder VS ----------------------------------------------------------------------------- */

struct feeder {
    struct sb_ir_program program;
    struct sb_ir_function function;
    struct sb_ir_instruction inst[SB_RT_GS_MAX_FEEDS + 1];
    struct sb_ir_operand ops[2 * SB_RT_GS_MAX_FEEDS + 2];
    struct sb_ir_signature_element signature[2 * SB_RT_GS_MAX_FEEDS];
};

struct sb_ir_program *sb_rt_geometry_feeder_program(const struct sb_rt_gs_feed *feeds, uint32_t feed_count)
{
    if (feed_count > SB_RT_GS_MAX_FEEDS)
        return NULL;
    struct feeder *f = calloc(1, sizeof(*f));
    if (!f)
        return NULL;
    struct ir_builder b = { .inst = f->inst, .ops = f->ops, .inst_cap = SB_RT_GS_MAX_FEEDS + 1,
                         .op_cap = 2 * SB_RT_GS_MAX_FEEDS + 2 };
    uint32_t n = 0;
    for (uint32_t i = 0; i < feed_count; i++) {
        const struct sb_rt_gs_feed *fd = &feeds[i];
        struct sb_ir_signature_element *in = &f->signature[n++], *out = &f->signature[n++];
        *in = (struct sb_ir_signature_element){
            .kind = SB_IR_SIGNATURE_INPUT, .semantic = "ATTRIBUTE", .semantic_index = fd->location,
            .register_index = fd->location, .file = SB_IR_FILE_INPUT, .mask = fd->mask, .used_mask = fd->mask,
            .component_type = fd->type,
        };
        *out = (struct sb_ir_signature_element){
            .kind = SB_IR_SIGNATURE_OUTPUT, .semantic = fd->semantic ? fd->semantic : "ATTRIBUTE",
            .semantic_index = fd->semantic_index, .system_value = fd->system_value, .register_index = fd->reg,
            .file = SB_IR_FILE_OUTPUT, .mask = fd->mask, .used_mask = fd->mask, .component_type = fd->type,
        };
        struct sb_ir_operand src = ir_reg(SB_IR_FILE_INPUT, fd->location, 0);
        ir_add1(&b, SB_IR_OP_MOV, i, ir_reg(SB_IR_FILE_OUTPUT, fd->reg, fd->mask), 1, &src);
    }
    ir_add(&b, SB_IR_OP_RET, feed_count, 0, NULL, 0, NULL);
    f->function = (struct sb_ir_function){ .id = 0xFFFFFFFFu, .instruction_count = b.inst_count,
                                           .instructions = f->inst, .instance_count = 1 };
    f->program.source = SB_IR_SOURCE_SM4;
    f->program.stage = SB_IR_STAGE_VERTEX;
    f->program.major = 5;
    f->program.signature_count = n;
    f->program.signature = f->signature;
    f->program.function_count = 1;
    f->program.functions = &f->function;
    f->program.first_fork_phase = 1;
    return &f->program; /* the first member: sb_rt_partner_destroy frees it */
}

/* ---- the capture GS ---------------------------------------------------------------------------- */

/* Instructions added per EMIT (besides the stores of the registers), per CUT, and at entry. */
enum { EMIT_EXTRA = 8, CUT_EXTRA = 3, PROLOGUE = 3 };

struct capture {
    struct sb_ir_program program;  /* first: freed as one block by sb_rt_partner_destroy */
    struct sb_ir_function *functions;
    struct sb_ir_resource *resources;
    struct sb_ir_signature_element *signature;
    struct sb_ir_instruction *inst;
    struct sb_ir_operand *ops;
};

uint32_t sb_rt_geometry_output_registers(const struct sb_ir_program *gs)
{
    uint32_t need = 0;
    for (uint32_t i = 0; i < gs->signature_count; i++) {
        const struct sb_ir_signature_element *e = &gs->signature[i];
        if (e->kind == SB_IR_SIGNATURE_OUTPUT && e->file == SB_IR_FILE_OUTPUT && e->register_index < 256 &&
            need < e->register_index + 1)
            need = e->register_index + 1;
    }
    for (uint32_t i = 0; i < gs->index_range_count; i++) {
        const struct sb_ir_index_range *r = &gs->index_ranges[i];
        uint64_t end = (uint64_t)r->first + r->count;
        if (r->file == SB_IR_FILE_OUTPUT && end <= 256 && need < end)
            need = (uint32_t)end;
    }
    for (uint32_t f = 0; f < gs->function_count; f++)
        for (uint32_t i = 0; i < gs->functions[f].instruction_count; i++) {
            const struct sb_ir_instruction *in = &gs->functions[f].instructions[i];
            for (uint32_t d = 0; d < in->dst_count; d++)
                if (in->dst[d].file == SB_IR_FILE_OUTPUT && in->dst[d].index_count == 1 &&
                    in->dst[d].index[0].offset < 256 && need < in->dst[d].index[0].offset + 1)
                    need = in->dst[d].index[0].offset + 1;
        }
    return need;
}

/* The instrumented copy of EMIT/CUT `in` (stream s): see sb_rt_geometry_capture_program. */
static void instrument(struct ir_builder *b, const struct sb_ir_instruction *in, uint32_t t, uint32_t uav,
                       uint32_t max, uint32_t registers)
{
    uint32_t s = in->stream;
    uint64_t at = in->offset;
    struct sb_ir_operand u1 = ir_reg(SB_IR_FILE_UAV, uav, 0x1), u4 = ir_reg(SB_IR_FILE_UAV, uav, 0xF);
    struct sb_ir_operand count = ir_lane(ir_reg(SB_IR_FILE_TEMP, t, 0), 0);
    struct sb_ir_operand pending = ir_lane(ir_reg(SB_IR_FILE_TEMP, t, 0), 1);
    struct sb_ir_operand base = ir_lane(ir_reg(SB_IR_FILE_TEMP, t, 0), 2);
    struct sb_ir_operand slot = ir_lane(ir_reg(SB_IR_FILE_TEMP, t + 2, 0), 1);
    if (in->op != SB_IR_OP_CUT) {
        struct sb_ir_operand cmp[2] = { count, ir_imm(max) };
        ir_add1(b, SB_IR_OP_ULT, at, ir_reg(SB_IR_FILE_TEMP, t + 2, 0x1), 2, cmp);
        struct sb_ir_operand cond = ir_lane(ir_reg(SB_IR_FILE_TEMP, t + 2, 0), 0);
        struct sb_ir_instruction *branch = ir_add(b, SB_IR_OP_IF, at, 0, NULL, 1, &cond);
        if (branch)
            branch->flags |= SB_IR_FLAG_TEST_NZ;
        struct sb_ir_operand sum[2] = { base, count };
        ir_add1(b, SB_IR_OP_IADD, at, ir_reg(SB_IR_FILE_TEMP, t + 2, 0x2), 2, sum);
        struct sb_ir_operand head = ir_imm(s + 1);
        ir_add1(b, SB_IR_OP_MOV, at, ir_reg(SB_IR_FILE_TEMP, t + 1, 0x1), 1, &head);
        ir_add1(b, SB_IR_OP_MOV, at, ir_reg(SB_IR_FILE_TEMP, t + 1, 0x2), 1, &pending);
        struct sb_ir_operand header[3] = { slot, ir_imm(0), ir_reg(SB_IR_FILE_TEMP, t + 1, 0) };
        ir_add1(b, SB_IR_OP_STORE_STRUCTURED, at, u4, 3, header);
        for (uint32_t r = 0; r < registers; r++) {
            struct sb_ir_operand value[3] = { slot, ir_imm(16 + 16 * r), ir_reg(SB_IR_FILE_OUTPUT, r, 0) };
            ir_add1(b, SB_IR_OP_STORE_STRUCTURED, at, u4, 3, value);
        }
        struct sb_ir_operand inc[2] = { count, ir_imm(1) };
        ir_add1(b, SB_IR_OP_IADD, at, ir_reg(SB_IR_FILE_TEMP, t, 0x1), 2, inc);
        struct sb_ir_operand zero = ir_imm(0);
        ir_add1(b, SB_IR_OP_MOV, at, ir_reg(SB_IR_FILE_TEMP, t, 0x2), 1, &zero);
        ir_add(b, SB_IR_OP_ENDIF, at, 0, NULL, 0, NULL);
    }
    if (in->op != SB_IR_OP_EMIT) {
        struct sb_ir_operand bit[2] = { pending, ir_imm(1u << s) };
        ir_add1(b, SB_IR_OP_OR, at, ir_reg(SB_IR_FILE_TEMP, t, 0x2), 2, bit);
        struct sb_ir_operand sum[2] = { base, count };
        ir_add1(b, SB_IR_OP_IADD, at, ir_reg(SB_IR_FILE_TEMP, t + 2, 0x2), 2, sum);
        struct sb_ir_operand word[3] = { slot, ir_imm(4), pending };
        ir_add1(b, SB_IR_OP_STORE_STRUCTURED, at, u1, 3, word);
    }
}

/* r[t] = (0 emitted, 0 pending cuts, first slot of this invocation, 0). */
static void prologue(struct ir_builder *b, uint32_t t, uint32_t instances, uint32_t slots)
{
    struct sb_ir_operand zero = ir_imm(0);
    ir_add1(b, SB_IR_OP_MOV, 0, ir_reg(SB_IR_FILE_TEMP, t, 0xF), 1, &zero);
    struct sb_ir_operand prim = ir_lane(ir_reg(SB_IR_FILE_PRIMITIVE_ID, 0, 0), 0);
    prim.index_count = 0;
    struct sb_ir_operand instance = ir_lane(ir_reg(SB_IR_FILE_GS_INSTANCE_ID, 0, 0), 0);
    instance.index_count = 0;
    struct sb_ir_operand invocation[3] = { prim, ir_imm(instances), instances > 1 ? instance : ir_imm(0) };
    ir_add1(b, SB_IR_OP_UMAD, 0, ir_reg(SB_IR_FILE_TEMP, t, 0x4), 3, invocation);
    struct sb_ir_operand first[3] = { ir_lane(ir_reg(SB_IR_FILE_TEMP, t, 0), 2), ir_imm(slots), ir_imm(0) };
    ir_add1(b, SB_IR_OP_UMAD, 0, ir_reg(SB_IR_FILE_TEMP, t, 0x4), 3, first);
}

static bool is_gs_flow(uint32_t op)
{
    return op == SB_IR_OP_EMIT || op == SB_IR_OP_CUT || op == SB_IR_OP_EMIT_THEN_CUT;
}

/* Instructions and operands the copy needs. */
static void count_capture(const struct sb_ir_program *gs, uint32_t registers, size_t *inst, size_t *ops)
{
    *inst = PROLOGUE;
    *ops = PROLOGUE * 4;
    for (uint32_t f = 0; f < gs->function_count; f++)
        for (uint32_t i = 0; i < gs->functions[f].instruction_count; i++) {
            const struct sb_ir_instruction *in = &gs->functions[f].instructions[i];
            if (is_gs_flow(in->op)) {
                *inst += EMIT_EXTRA + CUT_EXTRA + registers;
                *ops += (EMIT_EXTRA + CUT_EXTRA + registers) * 4;
            } else {
                *inst += 1;
            }
        }
}

static bool copy_signature(struct capture *c, const struct sb_ir_program *gs)
{
    c->signature = calloc(gs->signature_count + 1, sizeof(*c->signature));
    if (!c->signature)
        return false;
    uint32_t n = 0;
    bool prim = false;
    for (uint32_t i = 0; i < gs->signature_count; i++) {
        const struct sb_ir_signature_element *e = &gs->signature[i];
        if (e->kind == SB_IR_SIGNATURE_OUTPUT)
            continue; /* the copy emits nothing */
        prim |= e->file == SB_IR_FILE_PRIMITIVE_ID;
        c->signature[n++] = *e;
    }
    if (!prim)
        c->signature[n++] = (struct sb_ir_signature_element){
            .kind = SB_IR_SIGNATURE_INPUT, .semantic = "SV_PrimitiveID", .system_value = 7,
            .file = SB_IR_FILE_PRIMITIVE_ID, .mask = 1, .used_mask = 1, .component_type = SB_IR_TYPE_UINT,
        };
    c->program.signature = c->signature;
    c->program.signature_count = n;
    return true;
}

static bool copy_resources(struct capture *c, const struct sb_ir_program *gs, uint32_t uav, uint32_t registers)
{
    c->resources = calloc(gs->resource_count + 1, sizeof(*c->resources));
    if (!c->resources)
        return false;
    if (gs->resource_count)
        memcpy(c->resources, gs->resources, gs->resource_count * sizeof(*c->resources));
    c->resources[gs->resource_count] = (struct sb_ir_resource){
        .resource_class = SB_IR_RESOURCE_UAV, .id = uav, .lower_bound = uav, .count = 1,
        .kind = SB_IR_RESOURCE_KIND_STRUCTURED, .stride = (1 + registers) * 16,
    };
    c->program.resources = c->resources;
    c->program.resource_count = gs->resource_count + 1;
    return true;
}

struct sb_ir_program *sb_rt_geometry_capture_program(const struct sb_ir_program *gs, uint32_t uav,
                                                     uint32_t registers)
{
    for (uint32_t i = 0; i < gs->resource_count; i++)
        if (gs->resources[i].resource_class == SB_IR_RESOURCE_UAV &&
            (gs->resources[i].id == uav || gs->resources[i].lower_bound == uav))
            return NULL;
    size_t inst_cap, op_cap;
    count_capture(gs, registers, &inst_cap, &op_cap);
    struct capture *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->program = *gs;
    c->functions = calloc(gs->function_count ? gs->function_count : 1, sizeof(*c->functions));
    c->inst = calloc(inst_cap, sizeof(*c->inst));
    c->ops = calloc(op_cap, sizeof(*c->ops));
    struct ir_builder b = { .inst = c->inst, .ops = c->ops, .inst_cap = (uint32_t)inst_cap,
                            .op_cap = (uint32_t)op_cap };
    bool ok = c->functions && c->inst && c->ops && inst_cap < UINT32_MAX && op_cap < UINT32_MAX &&
              copy_signature(c, gs) && copy_resources(c, gs, uav, registers);
    uint32_t t = gs->temp_count, max = gs->gs_max_output_vertices;
    for (uint32_t f = 0; ok && f < gs->function_count; f++)
        if (gs->functions[f].temp_count > t)
            t = gs->functions[f].temp_count;
    uint32_t instances = gs->gs_instance_count ? gs->gs_instance_count : 1;
    for (uint32_t f = 0; ok && f < gs->function_count; f++) {
        const struct sb_ir_function *src = &gs->functions[f];
        struct sb_ir_function *dst = &c->functions[f];
        *dst = *src;
        dst->temp_count = t + 3;
        dst->instructions = &c->inst[b.inst_count];
        uint32_t first = b.inst_count;
        if (f == 0)
            prologue(&b, t, instances, max + 1);
        for (uint32_t i = 0; i < src->instruction_count && !b.overflow; i++) {
            const struct sb_ir_instruction *in = &src->instructions[i];
            if (is_gs_flow(in->op))
                instrument(&b, in, t, uav, max, registers);
            else if (b.inst_count < b.inst_cap)
                c->inst[b.inst_count++] = *in; /* operands stay the program's own */
            else
                b.overflow = true;
        }
        dst->instruction_count = b.inst_count - first;
    }
    if (!ok || b.overflow) {
        sb_rt_geometry_capture_destroy(&c->program);
        return NULL;
    }
    c->program.functions = c->functions;
    c->program.temp_count = t + 3;
    c->program.gs_output_topology = 1; /* point list */
    c->program.gs_max_output_vertices = 1;
    c->program.gs_stream_mask = 1;
    return &c->program;
}

void sb_rt_geometry_capture_destroy(struct sb_ir_program *program)
{
    struct capture *c = (struct capture *)program;
    if (!c)
        return;
    free(c->functions);
    free(c->resources);
    free(c->signature);
    free(c->inst);
    free(c->ops);
    free(c);
}
