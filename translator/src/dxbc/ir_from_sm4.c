/* SPDX-License-Identifier: MIT */
/*
 * sb_ir_from_sm4(): the SM4/5 front end's driver (translator/IR.md
 * §Functions, ../shared/docs/sm4-tokens.md §3 "hull shader", §7). It walks the decoded
 * token stream once, splitting it into functions — the entry body, the hull
 * phases (hs_control_point_phase, hs_fork_phase, hs_join_phase), and the
 * label bodies that follow the main `ret` — and hands declarations and
 * instructions to ir_from_sm4_decl.c / ir_from_sm4_ops.c. Custom data: the
 * immediate constant buffer becomes program->icb; comments, debug info,
 * opaque blocks, shader messages and 10level9 clip-plane mappings only
 * matter to the debug layer or Direct3D 9 and are dropped. At the end the
 * signature is merged (ir_from_sm4_signature.c) and control flow checked
 * (ir_from_sm4_flow.c).
 */
#include <stdio.h>
#include <string.h>

#include "shaderbridge/dxbc.h"
#include "ir_from_sm4_private.h"

static struct sb_ir_function_builder *new_function(struct sb_ir_sm4_context *ctx, uint32_t section)
{
    struct sb_ir_function_builder *fn = sb_ir_push(ctx, &ctx->functions, sizeof(*fn));
    if (!fn)
        return NULL;
    fn->section = section;
    fn->id = UINT32_MAX;
    fn->instance_count = 1;
    fn->offset = ctx->inst ? ctx->inst->offset : 0;
    fn->first = ctx->pool_used;
    ctx->current = ctx->functions.count - 1;
    ctx->current_fn = fn;
    return fn;
}

/* hs_decls / hs_control_point_phase / hs_fork_phase / hs_join_phase. */
static bool enter_phase(struct sb_ir_sm4_context *ctx, const struct sb_sm4_instruction *inst)
{
    if (ctx->program->stage != SB_IR_STAGE_HULL)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "hull-shader phase marker in a %s",
                          "non-hull program");
    if (ctx->seen_label)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "hull phase after a subroutine");
    uint32_t section = sb_ir_current_function(ctx)->section;
    switch (inst->opcode) {
    case SB_SM4_OP_HS_DECLS:
        if (ctx->seen_phase)
            return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "hs_decls after a phase");
        return true;
    case SB_SM4_OP_HS_CONTROL_POINT_PHASE: {
        if (section != SB_IR_SECTION_MAIN)
            return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                              "control-point phase after another phase");
        struct sb_ir_function_builder *fn = sb_ir_current_function(ctx);
        fn->section = SB_IR_SECTION_CONTROL_POINT;
        fn->offset = inst->offset;
        ctx->seen_phase = true;
        return true;
    }
    case SB_SM4_OP_HS_FORK_PHASE:
        if (section == SB_IR_SECTION_JOIN)
            return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "fork phase after a join phase");
        ctx->seen_phase = true;
        return new_function(ctx, SB_IR_SECTION_FORK) != NULL;
    default:
        ctx->seen_phase = true;
        return new_function(ctx, SB_IR_SECTION_JOIN) != NULL;
    }
}

/* `label l#` / `label fb#` opens a subroutine. */
static bool enter_label(struct sb_ir_sm4_context *ctx, const struct sb_sm4_instruction *inst)
{
    const struct sb_sm4_operand *op = inst->operand_count ? &inst->operands[0] : NULL;
    if (!op || (op->type != SB_SM4_OPERAND_LABEL && op->type != SB_SM4_OPERAND_FUNCTION_BODY) ||
        op->index_dimension != 1 || op->index[0].relative || op->index[0].value >= 0x80000000u)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "label operand is not l# or fb#");
    bool is_body = op->type == SB_SM4_OPERAND_FUNCTION_BODY;
    uint32_t id = (uint32_t)op->index[0].value;
    const struct sb_ir_function_builder *fns = ctx->functions.data;
    for (uint32_t i = 0; i < ctx->functions.count; i++)
        if (fns[i].section == SB_IR_SECTION_SUBROUTINE && fns[i].is_body == is_body &&
            fns[i].id == id)
            return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "%s%u defined twice",
                              is_body ? "fb" : "l", id);
    struct sb_ir_function_builder *fn = new_function(ctx, SB_IR_SECTION_SUBROUTINE);
    if (!fn)
        return false;
    fn->id = id;
    fn->is_body = is_body;
    ctx->seen_label = true;
    return true;
}

static bool take_custom_data(struct sb_ir_sm4_context *ctx, const struct sb_sm4_instruction *inst)
{
    if (inst->custom.data_class != SB_SM4_CUSTOM_IMMEDIATE_CONSTANT_BUFFER)
        return true;
    if (ctx->icb_seen)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "second immediate constant buffer");
    if (inst->custom.dword_count % 4u)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                          "immediate constant buffer of %u DWORDs is not whole rows",
                          inst->custom.dword_count);
    ctx->icb_seen = true;
    uint32_t *icb = sb_ir_alloc(ctx, inst->custom.dword_count ? inst->custom.dword_count : 1,
                                sizeof(uint32_t));
    if (!icb)
        return false;
    if (inst->custom.dword_count)
        memcpy(icb, inst->custom.dwords, (size_t)inst->custom.dword_count * sizeof(uint32_t));
    ctx->program->icb = icb;
    ctx->program->icb_vector_count = inst->custom.dword_count / 4u;
    return true;
}

bool sb_ir_sm4_lower_one(struct sb_ir_sm4_context *ctx, const struct sb_sm4_instruction *inst)
{
    if (inst->is_custom_data)
        return take_custom_data(ctx, inst);
    switch (inst->opcode) {
    case SB_SM4_OP_HS_DECLS:
    case SB_SM4_OP_HS_CONTROL_POINT_PHASE:
    case SB_SM4_OP_HS_FORK_PHASE:
    case SB_SM4_OP_HS_JOIN_PHASE:
        return enter_phase(ctx, inst);
    case SB_SM4_OP_LABEL:
        return enter_label(ctx, inst);
    default:
        break;
    }
    if (inst->is_declaration)
        return sb_ir_lower_declaration(ctx, inst);
    if (ctx->program->stage == SB_IR_STAGE_HULL &&
        sb_ir_current_function(ctx)->section == SB_IR_SECTION_MAIN)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                          "hull-shader instruction outside a phase");
    return sb_ir_lower_instruction(ctx, inst);
}

/* UAVs that imm_atomic_alloc/consume touch need a counter. */
static void mark_counters(struct sb_ir_sm4_context *ctx)
{
    const struct sb_ir_function_builder *fns = ctx->functions.data;
    struct sb_ir_resource *res = ctx->resources.data;
    for (uint32_t f = 0; f < ctx->functions.count; f++) {
        const struct sb_ir_instruction *in = ctx->pool + fns[f].first;
        for (uint32_t i = 0; i < fns[f].count; i++) {
            if (in[i].op != SB_IR_OP_IMM_ATOMIC_ALLOC && in[i].op != SB_IR_OP_IMM_ATOMIC_CONSUME)
                continue;
            uint32_t id = in[i].dst[1].index[0].offset;
            for (uint32_t r = 0; r < ctx->resources.count; r++)
                if (res[r].resource_class == SB_IR_RESOURCE_UAV && res[r].id == id)
                    res[r].has_counter = true;
        }
    }
}

/* Fails at the instruction that starts at `offset` (found in the decoded program). */
static bool fail_at_offset(struct sb_ir_sm4_context *ctx, uint64_t offset, const char *format,
                           uint32_t value)
{
    ctx->inst = NULL;
    for (uint32_t i = 0; i < ctx->sm4->instruction_count; i++)
        if (ctx->sm4->instructions[i].offset == offset)
            ctx->inst = &ctx->sm4->instructions[i];
    return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, format, value);
}

/* fb# -> function index; every declared body needs its label. */
static bool map_function_bodies(struct sb_ir_sm4_context *ctx)
{
    struct sb_ir_program *p = ctx->program;
    uint32_t count = ctx->max_function_body;
    if (!count) {
        const struct sb_ir_function_builder *fns = ctx->functions.data;
        for (uint32_t f = 0; f < ctx->functions.count; f++)
            if (fns[f].is_body)
                return fail_at_offset(ctx, fns[f].offset, "label fb%u has no dcl_function_body",
                                      fns[f].id);
        return true;
    }
    uint32_t *map = sb_ir_alloc(ctx, count, sizeof(*map));
    if (!map)
        return false;
    memset(map, 0xff, (size_t)count * sizeof(*map));
    const struct sb_ir_function_builder *fns = ctx->functions.data;
    const struct sb_ir_declared_body *bodies = ctx->function_bodies.data;
    uint8_t *declared = sb_ir_alloc(ctx, count, 1); /* ids are < 0x10000 */
    if (!declared)
        return false;
    for (uint32_t i = 0; i < ctx->function_bodies.count; i++)
        declared[bodies[i].id] = 1;
    for (uint32_t f = 0; f < ctx->functions.count; f++) {
        if (!fns[f].is_body)
            continue;
        if (fns[f].id >= count || !declared[fns[f].id])
            return fail_at_offset(ctx, fns[f].offset, "label fb%u has no dcl_function_body",
                                  fns[f].id);
        map[fns[f].id] = f;
    }
    for (uint32_t i = 0; i < ctx->function_bodies.count; i++) {
        if (map[bodies[i].id] != UINT32_MAX)
            continue;
        ctx->inst = NULL;
        return sb_ir_fail_at(ctx, bodies[i].offset, bodies[i].instr, SB_ERROR_TRANSLATE_INVALID,
                             "fb%u is declared but has no label", bodies[i].id);
    }
    /* Bodies are numbered 0..count-1 (IR.md): a gap is a body nobody declared. */
    for (uint32_t id = 0; id < count; id++) {
        if (map[id] != UINT32_MAX)
            continue;
        ctx->inst = NULL;
        const struct sb_ir_declared_body *last = &bodies[ctx->function_bodies.count - 1];
        return sb_ir_fail_at(ctx, last->offset, last->instr, SB_ERROR_TRANSLATE_INVALID,
                             "fb%u is missing between the declared function bodies", id);
    }
    p->function_body_count = count;
    p->function_body_label = map;
    return true;
}

/* Copies the builders into the program's function array. */
static bool emit_functions(struct sb_ir_sm4_context *ctx)
{
    struct sb_ir_program *p = ctx->program;
    const struct sb_ir_function_builder *fns = ctx->functions.data;
    struct sb_ir_function *out = sb_ir_alloc(ctx, ctx->functions.count, sizeof(*out));
    if (!out)
        return false;
    p->first_fork_phase = 1;
    for (uint32_t f = 0; f < ctx->functions.count; f++) {
        const struct sb_ir_function_builder *b = &fns[f];
        out[f].id = b->section != SB_IR_SECTION_SUBROUTINE ? UINT32_MAX
                    : b->is_body                           ? (b->id | 0x80000000u)
                                                           : b->id;
        out[f].instruction_count = b->count;
        out[f].instructions = b->count ? ctx->pool + b->first : NULL;
        out[f].instance_count = b->instance_count ? b->instance_count : 1;
        out[f].temp_count = b->temp_count;
        if (b->section == SB_IR_SECTION_SUBROUTINE && out[f].temp_count < ctx->max_temps)
            out[f].temp_count = ctx->max_temps;
        if (b->section == SB_IR_SECTION_FORK)
            p->fork_phase_count++;
        if (b->section == SB_IR_SECTION_JOIN)
            p->join_phase_count++;
    }
    p->function_count = ctx->functions.count;
    p->functions = out;
    p->temp_count = out[0].temp_count;
    return true;
}

bool sb_ir_sm4_finish(struct sb_ir_sm4_context *ctx)
{
    struct sb_ir_program *p = ctx->program;
    ctx->inst = NULL;
    if (ctx->icb_used && !ctx->icb_seen) {
        return sb_ir_fail_at(ctx, ctx->icb_use_offset, ctx->icb_use_instr, SB_ERROR_TRANSLATE_INVALID,
                             "icb[] is read but the program has no immediate constant buffer");
    }
    if (ctx->uses_counters) /* a walk over every instruction, for a rare pair of ops */
        mark_counters(ctx);
    if (!emit_functions(ctx) || !map_function_bodies(ctx) || !sb_ir_check_flow(ctx))
        return false;
    p->resource_count = ctx->resources.count;
    p->resources = ctx->resources.data;
    p->group_shared_count = ctx->group_shared.count;
    p->group_shared = ctx->group_shared.data;
    p->indexable_temp_count = ctx->indexable_temps.count;
    p->indexable_temps = ctx->indexable_temps.data;
    p->index_range_count = ctx->index_ranges.count;
    p->index_ranges = ctx->index_ranges.data;
    p->interface_count = ctx->interfaces.count;
    p->interfaces = ctx->interfaces.data;
    p->function_table_count = ctx->function_tables.count;
    p->function_tables = ctx->function_tables.data;
    sb_ir_name_resources(ctx);
    if (!sb_ir_record_container(ctx))
        return false;
    return sb_ir_build_signature(ctx);
}

bool sb_ir_sm4_open(struct sb_ir_sm4_context *ctx, uint32_t instructions, uint32_t operands)
{
    ctx->pool = sb_ir_alloc_uninit(ctx, instructions ? instructions : 1, sizeof(*ctx->pool));
    ctx->pool_size = instructions;
    ctx->operands = sb_ir_alloc_uninit(ctx, operands ? operands : 1, sizeof(*ctx->operands));
    ctx->operands_size = operands;
    new_function(ctx, SB_IR_SECTION_MAIN);
    return !ctx->failed;
}

/* One pass over the program sizes the instruction and operand pools. They are
 * not zeroed: sb_ir_lower_instruction() and sb_ir_convert_operand() set every
 * field of each slot they hand out, and no slot is read before that. */
static void size_pools(struct sb_ir_sm4_context *ctx)
{
    uint32_t instructions = 0, operands = 0;
    for (uint32_t i = 0; i < ctx->sm4->instruction_count; i++) {
        const struct sb_sm4_instruction *in = &ctx->sm4->instructions[i];
        if (in->is_declaration || in->is_custom_data || in->opcode == SB_SM4_OP_LABEL)
            continue;
        instructions++;
        operands += in->operand_count;
    }
    sb_ir_sm4_open(ctx, instructions, operands);
}

/* SM4 program types in version-token order -> IR stages. */
static const uint32_t stage_of_type[6] = {
    SB_IR_STAGE_PIXEL, SB_IR_STAGE_VERTEX, SB_IR_STAGE_GEOMETRY,
    SB_IR_STAGE_HULL,  SB_IR_STAGE_DOMAIN, SB_IR_STAGE_COMPUTE,
};

bool sb_ir_sm4_start(struct sb_ir_sm4_context *ctx, const struct sb_sm4_program *program,
                     const struct sb_dxbc *container, bool have_out)
{
    memset(ctx, 0, sizeof(*ctx));
    ctx->sm4 = program;
    ctx->container = container;
    if (!program || !have_out) {
        sb_ir_fail(ctx, SB_ERROR_INVALID_ARGUMENT, "program and out must not be NULL");
    } else if (program->program_type > 5) {
        sb_ir_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, "program type %u is not an SM4/5 stage",
                   program->program_type);
    } else if (program->major < 4 || program->major > 5 || program->minor > 1) {
        sb_ir_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, "shader model %u.%u is not SM4.0-5.1",
                   program->major, program->minor);
    } else if (!(ctx->program = sb_ir_program_create(&ctx->arena))) {
        sb_ir_fail(ctx, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    if (ctx->failed)
        return false;
    struct sb_ir_program *p = ctx->program;
    p->source = SB_IR_SOURCE_SM4;
    p->stage = stage_of_type[program->program_type];
    p->major = program->major;
    p->minor = program->minor;
    ctx->is_sm51 = program->major == 5 && program->minor >= 1;
    return true;
}

enum sb_result sb_ir_from_sm4(const struct sb_sm4_program *program,
                              const struct sb_dxbc *container, struct sb_ir_program **out,
                              struct sb_error *error)
{
    struct sb_ir_sm4_context ctx;
    if (out)
        *out = NULL;
    if (!sb_ir_sm4_start(&ctx, program, container, out != NULL)) {
        if (error)
            *error = ctx.error;
        return ctx.error.code;
    }
    struct sb_ir_program *p = ctx.program;
    size_pools(&ctx);
    for (uint32_t i = 0; i < program->instruction_count && !ctx.failed; i++) {
        ctx.inst = &program->instructions[i];
        sb_ir_sm4_lower_one(&ctx, ctx.inst);
    }
    if (!ctx.failed)
        sb_ir_sm4_finish(&ctx);
    if (ctx.failed) {
        sb_ir_program_destroy(p);
        if (error)
            *error = ctx.error;
        return ctx.error.code;
    }
    *out = p;
    return SB_SUCCESS;
}
