/* SPDX-License-Identifier: MIT */
/*
 * The IR programs hull and domain validation draw with
 * (validate_tessellation.c), translated by our own back end like the
 * partners of validate_geometry_partner.c:
 *
 *   the hull capture copy: the hull program with its last patch-constant
 *   phase wrapped (or, when it has none, a join phase added that only
 *   captures). The wrapper calls the phase's own body (moved to the end
 *   of the function list as a subroutine, so a `ret` anywhere in it still
 *   reaches the capture) and then stores vocp[k][r] of every output control
 *   point and vpc[r] of every patch constant, tess factors included, at
 *   record vPrim of a structured UAV. It runs inside the TCS, before the
 *   tessellator, so a patch whose factors cull it is captured all the same;
 *   and it runs after every earlier phase and instance, so it sees the final
 *   values (instances of the last phase store in order; the last store wins);
 *
 *   the sink domain program: an empty DS of the hull program's domain (the
 *   tessellation stages come as a pair; nothing after the capture matters);
 *
 *   the feeder hull program of a domain program: D3D's pass-through
 *   control-point phase (the DS's control-point elements, fed by the
 *   geometry feeder VS) and one fork phase copying extra per-vertex input
 *   registers of control point 0 into the DS's patch constants, tess factors
 *   included, so the seeded words and factors arrive unchanged; point mode,
 *   so each domain point is evaluated once;
 *
 *   the domain capture copy: a new entry calls the original body as a
 *   subroutine, then takes a slot from a counter (an atomic add on a raw
 *   UAV) and stores (vDomain.xyz, vPrim) and o0..o(R-1) there.
 *
 * Every function index the copies keep is the original's, so CALL targets,
 * class-linkage tables and phase ranges need no rewriting.
 */
#include "validate_private.h"

#include <stdlib.h>
#include <string.h>
#include "translator/ir.h"
#include "validate_ir_build.h"

/* One generated or copied program; its arrays are freed with it (sb_rt_tess_program_destroy). */
struct tess_program {
    struct sb_ir_program program; /* first: the program pointer is the block's */
    struct sb_ir_function *functions;
    struct sb_ir_signature_element *signature;
    struct sb_ir_resource *resources;
    struct sb_ir_instruction *inst;
    struct sb_ir_operand *ops;
};

void sb_rt_tess_program_destroy(struct sb_ir_program *program)
{
    struct tess_program *t = (struct tess_program *)program;
    if (!t)
        return;
    free(t->functions);
    free(t->signature);
    free(t->resources);
    free(t->inst);
    free(t->ops);
    free(t);
}

static struct tess_program *tess_alloc(size_t functions, size_t signature, size_t resources, size_t inst,
                                       size_t ops)
{
    struct tess_program *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    t->functions = calloc(functions ? functions : 1, sizeof(*t->functions));
    t->signature = calloc(signature ? signature : 1, sizeof(*t->signature));
    t->resources = calloc(resources ? resources : 1, sizeof(*t->resources));
    t->inst = calloc(inst ? inst : 1, sizeof(*t->inst));
    t->ops = calloc(ops ? ops : 1, sizeof(*t->ops));
    if (!t->functions || !t->signature || !t->resources || !t->inst || !t->ops) {
        sb_rt_tess_program_destroy(&t->program);
        return NULL;
    }
    return t;
}

/* The largest r# count of any function (the back end's temps are program-wide). */
static uint32_t max_temps(const struct sb_ir_program *p)
{
    uint32_t t = p->temp_count;
    for (uint32_t f = 0; f < p->function_count; f++)
        if (p->functions[f].temp_count > t)
            t = p->functions[f].temp_count;
    return t;
}

/* A label id no function of `p` has, for the moved body. */
static uint32_t free_label(const struct sb_ir_program *p)
{
    uint32_t id = 0;
    for (uint32_t f = 0; f < p->function_count; f++)
        if (p->functions[f].id < 0x80000000u && p->functions[f].id >= id)
            id = p->functions[f].id + 1;
    return id;
}

static bool declares_uav(const struct sb_ir_program *p, uint32_t uav)
{
    for (uint32_t i = 0; i < p->resource_count; i++)
        if (p->resources[i].resource_class == SB_IR_RESOURCE_UAV &&
            (p->resources[i].id == uav || p->resources[i].lower_bound == uav))
            return true;
    return false;
}

static bool has_special(const struct sb_ir_program *p, uint32_t file)
{
    for (uint32_t i = 0; i < p->signature_count; i++)
        if (p->signature[i].file == file)
            return true;
    return false;
}

/* The program's signature, plus vPrim (and vDomain) input elements when it declares none. */
static void copy_signature(struct tess_program *t, const struct sb_ir_program *p, bool domain_point)
{
    uint32_t n = p->signature_count;
    if (n)
        memcpy(t->signature, p->signature, n * sizeof(*t->signature));
    if (!has_special(p, SB_IR_FILE_PRIMITIVE_ID))
        t->signature[n++] = (struct sb_ir_signature_element){
            .kind = SB_IR_SIGNATURE_INPUT, .semantic = "SV_PrimitiveID", .system_value = 7,
            .file = SB_IR_FILE_PRIMITIVE_ID, .mask = 1, .used_mask = 1, .component_type = SB_IR_TYPE_UINT,
        };
    if (domain_point && !has_special(p, SB_IR_FILE_DOMAIN_POINT))
        t->signature[n++] = (struct sb_ir_signature_element){
            .kind = SB_IR_SIGNATURE_INPUT, .semantic = "SV_DomainLocation", .file = SB_IR_FILE_DOMAIN_POINT,
            .mask = 7, .used_mask = 7, .component_type = SB_IR_TYPE_FLOAT,
        };
    t->program.signature = t->signature;
    t->program.signature_count = n;
}

/* The program's resources plus the UAVs of `extra`. */
static void copy_resources(struct tess_program *t, const struct sb_ir_program *p, const struct sb_ir_resource *extra,
                           uint32_t extra_count)
{
    if (p->resource_count)
        memcpy(t->resources, p->resources, p->resource_count * sizeof(*t->resources));
    memcpy(t->resources + p->resource_count, extra, extra_count * sizeof(*extra));
    t->program.resources = t->resources;
    t->program.resource_count = p->resource_count + extra_count;
}

static struct sb_ir_operand primitive_id(void)
{
    struct sb_ir_operand o = ir_lane(ir_reg(SB_IR_FILE_PRIMITIVE_ID, 0, 0), 0);
    o.index_count = 0;
    return o;
}

/* The functions of `p` plus its function `moved` again at the end as a subroutine; the caller
 * then fills the wrapper in place of function `moved`. */
static void copy_functions(struct tess_program *t, const struct sb_ir_program *p, uint32_t moved)
{
    memcpy(t->functions, p->functions, p->function_count * sizeof(*t->functions));
    struct sb_ir_function *body = &t->functions[p->function_count];
    *body = p->functions[moved];
    body->id = free_label(p);
    body->instance_count = 1;
    body->temp_count = max_temps(p);
    t->program.functions = t->functions;
    t->program.function_count = p->function_count + 1;
}

/* ---- hull capture ------------------------------------------------------------------------------ */

struct sb_ir_program *sb_rt_hull_capture_program(const struct sb_ir_program *hs, uint32_t uav,
                                                 uint32_t cp_registers, uint32_t pc_registers)
{
    uint32_t phases = hs->fork_phase_count + hs->join_phase_count;
    /* Without a fork or join phase the capture is a join phase of its own, appended after every
     * function (phases are found by index, so it need not precede the subroutines). */
    uint32_t last = phases ? hs->first_fork_phase + phases - 1 : hs->function_count;
    uint32_t ocp = hs->output_control_points;
    if ((phases && (!hs->first_fork_phase || last >= hs->function_count)) || declares_uav(hs, uav) ||
        (uint64_t)ocp * cp_registers + pc_registers > 4096)
        return NULL;
    size_t stores = (size_t)ocp * cp_registers + pc_registers;
    struct tess_program *t = tess_alloc(hs->function_count + 1, hs->signature_count + 1, hs->resource_count + 1,
                                        stores + 2, stores * 4 + 4);
    if (!t)
        return NULL;
    t->program = *hs;
    copy_signature(t, hs, false);
    struct sb_ir_resource records = {
        .resource_class = SB_IR_RESOURCE_UAV, .id = uav, .lower_bound = uav, .count = 1,
        .kind = SB_IR_RESOURCE_KIND_STRUCTURED, .stride = (uint32_t)(stores ? stores : 1) * 16,
    };
    copy_resources(t, hs, &records, 1);
    struct ir_builder b = { .inst = t->inst, .ops = t->ops, .inst_cap = (uint32_t)stores + 2,
                            .op_cap = (uint32_t)stores * 4 + 4 };
    if (phases) {
        copy_functions(t, hs, last);
        struct sb_ir_instruction *call = ir_add(&b, SB_IR_OP_CALL, 0, 0, NULL, 0, NULL);
        if (call)
            call->target = hs->function_count;
    } else {
        memcpy(t->functions, hs->functions, hs->function_count * sizeof(*t->functions));
        t->functions[last] = (struct sb_ir_function){ .id = 0xFFFFFFFFu, .instance_count = 1 };
        t->program.functions = t->functions;
        t->program.function_count = hs->function_count + 1;
        t->program.first_fork_phase = last;
        t->program.join_phase_count = 1;
    }
    struct sb_ir_operand u4 = ir_reg(SB_IR_FILE_UAV, uav, 0xF);
    for (uint32_t k = 0; k < ocp; k++)
        for (uint32_t r = 0; r < cp_registers; r++) {
            struct sb_ir_operand point = ir_reg(SB_IR_FILE_OUTPUT_CONTROL_POINT, k, 0);
            point.index_count = 2;
            point.index[1].offset = r;
            struct sb_ir_operand value[3] = { primitive_id(), ir_imm((k * cp_registers + r) * 16), point };
            ir_add1(&b, SB_IR_OP_STORE_STRUCTURED, 0, u4, 3, value);
        }
    for (uint32_t r = 0; r < pc_registers; r++) {
        struct sb_ir_operand value[3] = { primitive_id(), ir_imm((ocp * cp_registers + r) * 16),
                                          ir_reg(SB_IR_FILE_INPUT_PATCH_CONSTANT, r, 0) };
        ir_add1(&b, SB_IR_OP_STORE_STRUCTURED, 0, u4, 3, value);
    }
    ir_add(&b, SB_IR_OP_RET, 0, 0, NULL, 0, NULL);
    if (b.overflow) {
        sb_rt_tess_program_destroy(&t->program);
        return NULL;
    }
    struct sb_ir_function *wrapper = &t->functions[last];
    wrapper->instructions = t->inst;
    wrapper->instruction_count = b.inst_count;
    return &t->program;
}

struct sb_ir_program *sb_rt_domain_sink_program(const struct sb_ir_program *hs)
{
    struct tess_program *t = tess_alloc(1, 0, 0, 1, 0);
    if (!t)
        return NULL;
    t->inst[0].op = SB_IR_OP_RET;
    t->functions[0] = (struct sb_ir_function){ .id = 0xFFFFFFFFu, .instruction_count = 1, .instructions = t->inst,
                                               .instance_count = 1 };
    t->program.source = SB_IR_SOURCE_SM4;
    t->program.stage = SB_IR_STAGE_DOMAIN;
    t->program.major = 5;
    t->program.tess_domain = hs->tess_domain;
    t->program.input_control_points = hs->output_control_points;
    t->program.functions = t->functions;
    t->program.function_count = 1;
    t->program.first_fork_phase = 1;
    return &t->program;
}

/* ---- the feeder hull program of a domain program ------------------------------------------------ */

struct sb_ir_program *sb_rt_domain_feeder_hull(const struct sb_ir_program *ds,
                                              const struct sb_rt_tess_patch_feed *feeds, uint32_t feed_count,
                                              const struct sb_ir_signature_element *factors, uint32_t factor_count,
                                              uint32_t partitioning)
{
    uint32_t n = ds->input_control_points;
    size_t signature = (size_t)ds->signature_count * 2 + feed_count + factor_count;
    struct tess_program *t = tess_alloc(2, signature, 0, feed_count + 1, feed_count * 2 + 1);
    if (!t || !n) {
        sb_rt_tess_program_destroy(t ? &t->program : NULL);
        return NULL;
    }
    uint32_t s = 0;
    for (uint32_t i = 0; i < ds->signature_count; i++) {
        const struct sb_ir_signature_element *e = &ds->signature[i];
        if (e->kind == SB_IR_SIGNATURE_INPUT && e->file == SB_IR_FILE_INPUT) {
            /* The DS's control points: the HS reads them arrayed and passes them through. */
            t->signature[s] = *e;
            t->signature[s++].array_size = n;
            t->signature[s] = *e;
            t->signature[s].kind = SB_IR_SIGNATURE_OUTPUT;
            t->signature[s].file = SB_IR_FILE_OUTPUT;
            t->signature[s++].array_size = 0;
        } else if (e->kind == SB_IR_SIGNATURE_PATCH) {
            t->signature[s] = *e;
            t->signature[s].file = SB_IR_FILE_OUTPUT;
            t->signature[s++].array_size = 0;
        }
    }
    for (uint32_t i = 0; i < factor_count; i++)
        t->signature[s++] = factors[i];
    struct ir_builder b = { .inst = t->inst, .ops = t->ops, .inst_cap = feed_count + 1, .op_cap = feed_count * 2 + 1 };
    for (uint32_t i = 0; i < feed_count; i++) {
        t->signature[s++] = (struct sb_ir_signature_element){
            .kind = SB_IR_SIGNATURE_INPUT, .semantic = "PATCHDATA", .semantic_index = i,
            .register_index = feeds[i].source, .file = SB_IR_FILE_INPUT, .mask = 0xF, .used_mask = 0xF,
            .component_type = SB_IR_TYPE_UINT, .array_size = n,
        };
        struct sb_ir_operand point = ir_reg(SB_IR_FILE_INPUT_CONTROL_POINT, 0, 0);
        point.index_count = 2;
        point.index[1].offset = feeds[i].source;
        ir_add1(&b, SB_IR_OP_MOV, i, ir_reg(SB_IR_FILE_OUTPUT, feeds[i].reg, feeds[i].mask), 1, &point);
    }
    ir_add(&b, SB_IR_OP_RET, feed_count, 0, NULL, 0, NULL);
    if (b.overflow) {
        sb_rt_tess_program_destroy(&t->program);
        return NULL;
    }
    t->functions[0] = (struct sb_ir_function){ .id = 0xFFFFFFFFu, .instance_count = 1 }; /* pass-through */
    t->functions[1] = (struct sb_ir_function){ .id = 0xFFFFFFFFu, .instruction_count = b.inst_count,
                                               .instructions = t->inst, .instance_count = 1 };
    struct sb_ir_program *p = &t->program;
    p->source = SB_IR_SOURCE_SM4;
    p->stage = SB_IR_STAGE_HULL;
    p->major = 5;
    p->signature = t->signature;
    p->signature_count = s;
    p->input_control_points = p->output_control_points = n;
    p->tess_domain = ds->tess_domain;
    p->tess_partitioning = partitioning;
    p->tess_output_primitive = 1; /* points: every domain point evaluated once */
    p->max_tess_factor = 64.0f;
    p->functions = t->functions;
    p->function_count = 2;
    p->first_fork_phase = 1;
    p->fork_phase_count = 1;
    return p;
}

/* ---- domain capture ---------------------------------------------------------------------------- */

/* Instructions of the capture after the call: slot, test, header (2 movs), the stores, endif, ret. */
enum { DOMAIN_CAPTURE_FIXED = 8 };

struct sb_ir_program *sb_rt_domain_capture_program(const struct sb_ir_program *ds, uint32_t uav, uint32_t counter_uav,
                                                  uint32_t registers, uint32_t capacity)
{
    if (!ds->function_count || declares_uav(ds, uav) || declares_uav(ds, counter_uav) || registers > 4096)
        return NULL;
    size_t inst = DOMAIN_CAPTURE_FIXED + registers + 1;
    struct tess_program *t = tess_alloc(ds->function_count + 1, ds->signature_count + 2, ds->resource_count + 2,
                                        inst, inst * 4);
    if (!t)
        return NULL;
    t->program = *ds;
    copy_signature(t, ds, true);
    struct sb_ir_resource extra[2] = {
        { .resource_class = SB_IR_RESOURCE_UAV, .id = uav, .lower_bound = uav, .count = 1,
          .kind = SB_IR_RESOURCE_KIND_STRUCTURED, .stride = (1 + registers) * 16 },
        { .resource_class = SB_IR_RESOURCE_UAV, .id = counter_uav, .lower_bound = counter_uav, .count = 1,
          .kind = SB_IR_RESOURCE_KIND_RAW },
    };
    copy_resources(t, ds, extra, 2);
    copy_functions(t, ds, 0);
    uint32_t temp = max_temps(ds);
    struct ir_builder b = { .inst = t->inst, .ops = t->ops, .inst_cap = (uint32_t)inst, .op_cap = (uint32_t)inst * 4 };
    struct sb_ir_instruction *call = ir_add(&b, SB_IR_OP_CALL, 0, 0, NULL, 0, NULL);
    if (call)
        call->target = ds->function_count;
    /* r[temp].x = the slot (the counter before this invocation's add). */
    struct sb_ir_operand slot_dst[2] = { ir_reg(SB_IR_FILE_TEMP, temp, 0x1), ir_reg(SB_IR_FILE_UAV, counter_uav, 0x1) };
    struct sb_ir_operand slot_src[2] = { ir_imm(0), ir_imm(1) };
    ir_add(&b, SB_IR_OP_IMM_ATOMIC_IADD, 0, 2, slot_dst, 2, slot_src);
    struct sb_ir_operand slot = ir_lane(ir_reg(SB_IR_FILE_TEMP, temp, 0), 0);
    struct sb_ir_operand fits[2] = { slot, ir_imm(capacity) };
    ir_add1(&b, SB_IR_OP_ULT, 0, ir_reg(SB_IR_FILE_TEMP, temp, 0x2), 2, fits);
    struct sb_ir_operand cond = ir_lane(ir_reg(SB_IR_FILE_TEMP, temp, 0), 1);
    struct sb_ir_instruction *branch = ir_add(&b, SB_IR_OP_IF, 0, 0, NULL, 1, &cond);
    if (branch)
        branch->flags |= SB_IR_FLAG_TEST_NZ;
    struct sb_ir_operand where = ir_reg(SB_IR_FILE_DOMAIN_POINT, 0, 0);
    where.index_count = 0;
    ir_add1(&b, SB_IR_OP_MOV, 0, ir_reg(SB_IR_FILE_TEMP, temp + 1, 0x7), 1, &where);
    struct sb_ir_operand prim = primitive_id();
    ir_add1(&b, SB_IR_OP_MOV, 0, ir_reg(SB_IR_FILE_TEMP, temp + 1, 0x8), 1, &prim);
    struct sb_ir_operand u4 = ir_reg(SB_IR_FILE_UAV, uav, 0xF);
    struct sb_ir_operand header[3] = { slot, ir_imm(0), ir_reg(SB_IR_FILE_TEMP, temp + 1, 0) };
    ir_add1(&b, SB_IR_OP_STORE_STRUCTURED, 0, u4, 3, header);
    for (uint32_t r = 0; r < registers; r++) {
        struct sb_ir_operand value[3] = { slot, ir_imm(16 + 16 * r), ir_reg(SB_IR_FILE_OUTPUT, r, 0) };
        ir_add1(&b, SB_IR_OP_STORE_STRUCTURED, 0, u4, 3, value);
    }
    ir_add(&b, SB_IR_OP_ENDIF, 0, 0, NULL, 0, NULL);
    ir_add(&b, SB_IR_OP_RET, 0, 0, NULL, 0, NULL);
    if (b.overflow) {
        sb_rt_tess_program_destroy(&t->program);
        return NULL;
    }
    t->functions[0] = (struct sb_ir_function){ .id = 0xFFFFFFFFu, .instruction_count = b.inst_count,
                                               .instructions = t->inst, .instance_count = 1,
                                               .temp_count = temp + 2 };
    t->program.temp_count = temp + 2;
    return &t->program;
}
