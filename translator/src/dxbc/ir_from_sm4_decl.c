/* SPDX-License-Identifier: MIT */
/*
 * SM4/5 declarations -> IR program-level facts (translator/IR.md
 * §Declarations, ../shared/docs/sm4-tokens.md §2.4, §5.5): resources (SM5.1 ranges and
 * spaces), group-shared memory, indexable temps, index ranges, class
 * linkage tables, stage state, per-function temps and instance counts. The
 * dcl_input and dcl_output records are kept for the signature merge in
 * ir_from_sm4_signature.c. A declaration that contradicts itself or another
 * (a duplicate register, a zero count) is SB_ERROR_TRANSLATE_INVALID.
 */
#include <string.h>

#include "ir_from_sm4_private.h"

/* The plain value of index `i` of a declaration operand, or fail. */
static bool decl_index(struct sb_ir_sm4_context *ctx, const struct sb_sm4_operand *op, uint32_t i,
                       uint32_t *value)
{
    if (i >= op->index_dimension || op->index[i].relative || op->index[i].value > UINT32_MAX)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                          "declaration operand index %u is missing, relative or too large", i);
    *value = (uint32_t)op->index[i].value;
    return true;
}

/* The operand of a declaration that must have one. */
static const struct sb_sm4_operand *decl_operand(struct sb_ir_sm4_context *ctx,
                                                 const struct sb_sm4_instruction *inst)
{
    if (!inst->operand_count) {
        sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "declaration without its register operand");
        return NULL;
    }
    return &inst->operands[0];
}

/* One row per resource declaration opcode: class, operand type, kind. */
struct resource_decl_row {
    uint16_t opcode;
    uint8_t resource_class;
    uint8_t operand_type;
    uint8_t kind;
};

static const struct resource_decl_row resource_decls[] = {
    { SB_SM4_OP_DCL_CONSTANT_BUFFER, SB_IR_RESOURCE_CBV, SB_SM4_OPERAND_CONSTANT_BUFFER, 0 },
    { SB_SM4_OP_DCL_SAMPLER, SB_IR_RESOURCE_SAMPLER, SB_SM4_OPERAND_SAMPLER, 0 },
    { SB_SM4_OP_DCL_RESOURCE, SB_IR_RESOURCE_SRV, SB_SM4_OPERAND_RESOURCE,
      SB_IR_RESOURCE_KIND_TYPED },
    { SB_SM4_OP_DCL_RESOURCE_RAW, SB_IR_RESOURCE_SRV, SB_SM4_OPERAND_RESOURCE,
      SB_IR_RESOURCE_KIND_RAW },
    { SB_SM4_OP_DCL_RESOURCE_STRUCTURED, SB_IR_RESOURCE_SRV, SB_SM4_OPERAND_RESOURCE,
      SB_IR_RESOURCE_KIND_STRUCTURED },
    { SB_SM4_OP_DCL_UAV_TYPED, SB_IR_RESOURCE_UAV, SB_SM4_OPERAND_UAV,
      SB_IR_RESOURCE_KIND_TYPED },
    { SB_SM4_OP_DCL_UAV_RAW, SB_IR_RESOURCE_UAV, SB_SM4_OPERAND_UAV, SB_IR_RESOURCE_KIND_RAW },
    { SB_SM4_OP_DCL_UAV_STRUCTURED, SB_IR_RESOURCE_UAV, SB_SM4_OPERAND_UAV,
      SB_IR_RESOURCE_KIND_STRUCTURED },
};

static bool lower_resource(struct sb_ir_sm4_context *ctx, const struct sb_sm4_instruction *inst,
                           const struct resource_decl_row *row)
{
    const struct sb_sm4_operand *op = decl_operand(ctx, inst);
    if (!op)
        return false;
    const struct sb_sm4_declaration *d = &inst->decl;
    if (op->type != row->operand_type)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                          "resource declaration of operand type %u", op->type);
    uint32_t id = 0, lower = 0, upper = 0;
    if (!decl_index(ctx, op, 0, &id))
        return false;
    struct sb_ir_resource r;
    memset(&r, 0, sizeof(r));
    r.resource_class = row->resource_class;
    r.id = id;
    r.kind = row->kind;
    if (ctx->is_sm51) {
        if (op->index_dimension != 3 || !decl_index(ctx, op, 1, &lower) ||
            !decl_index(ctx, op, 2, &upper))
            return ctx->failed ? false
                               : sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                                            "SM5.1 declaration needs id, lower and upper bound");
        if (upper != UINT32_MAX && upper < lower)
            return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                              "register range [%u:%u] ends before it starts", lower, upper);
        r.lower_bound = lower;
        r.count = upper == UINT32_MAX ? UINT32_MAX : upper - lower + 1;
        r.space = d->space;
        r.cb_size = d->cb_size;
    } else {
        uint32_t want = row->resource_class == SB_IR_RESOURCE_CBV ? 2 : 1;
        if (op->index_dimension != want)
            return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                              "resource declaration operand has %u indices, not %u",
                              op->index_dimension, want);
        r.lower_bound = id;
        r.count = 1;
        if (want == 2 && !decl_index(ctx, op, 1, &r.cb_size))
            return false;
    }
    if (sb_ir_find_resource(ctx, r.resource_class, id))
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "register %u of class %u declared twice",
                          id, r.resource_class);
    r.cb_dynamic_indexed = d->cb_dynamic_indexed != 0;
    r.sampler_mode = d->sampler_mode;
    r.uav_flags = d->uav_flags;
    r.offset = inst->offset;
    r.stride = d->stride;
    r.sample_count = d->sample_count;
    bool view = row->resource_class == SB_IR_RESOURCE_SRV ||
                row->resource_class == SB_IR_RESOURCE_UAV;
    if (!view) {
        /* cb# and s# have no kind or dimension. */
    } else if (row->kind == SB_IR_RESOURCE_KIND_TYPED) {
        r.dimension = d->resource_dimension;
        memcpy(r.return_type, d->return_type, sizeof(r.return_type));
        if (r.dimension == 0 || r.dimension > 10)
            return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                              "typed resource of dimension %u", r.dimension);
    } else if (row->kind == SB_IR_RESOURCE_KIND_RAW) {
        r.dimension = 11;
    } else if (row->kind == SB_IR_RESOURCE_KIND_STRUCTURED) {
        r.dimension = 12;
        if (r.stride == 0 || r.stride % 4u)
            return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                              "structure stride %u is not a positive multiple of 4", r.stride);
    }
    struct sb_ir_resource *slot = sb_ir_push(ctx, &ctx->resources, sizeof(*slot));
    if (slot)
        *slot = r;
    return slot != NULL;
}

/* dcl_input / dcl_output: a record for the signature merge. */
static bool lower_io(struct sb_ir_sm4_context *ctx, const struct sb_sm4_instruction *inst,
                     bool output)
{
    const struct sb_sm4_operand *op = decl_operand(ctx, inst);
    if (!op)
        return false;
    struct sb_ir_decl_io io;
    memset(&io, 0, sizeof(io));
    uint32_t file = sb_ir_file_from_sm4(op->type);
    uint32_t section = sb_ir_current_function(ctx)->section;
    bool two_d = op->index_dimension == 2;
    io.kind = output ? SB_IR_SIGNATURE_OUTPUT : SB_IR_SIGNATURE_INPUT;
    switch (op->type) {
    case SB_SM4_OPERAND_INPUT:
    case SB_SM4_OPERAND_INPUT_CONTROL_POINT:
    case SB_SM4_OPERAND_OUTPUT_CONTROL_POINT:
        if (op->index_dimension < 1 || op->index_dimension > 2 ||
            !decl_index(ctx, op, op->index_dimension - 1, &io.register_index) ||
            (two_d && !decl_index(ctx, op, 0, &io.array_size)))
            return ctx->failed ? false
                               : sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                                            "input declaration with %u indices",
                                            op->index_dimension);
        io.kind = op->type == SB_SM4_OPERAND_OUTPUT_CONTROL_POINT ? SB_IR_SIGNATURE_OUTPUT
                                                                  : SB_IR_SIGNATURE_INPUT;
        io.file = io.kind == SB_IR_SIGNATURE_OUTPUT ? SB_IR_FILE_OUTPUT : SB_IR_FILE_INPUT;
        break;
    case SB_SM4_OPERAND_OUTPUT:
    case SB_SM4_OPERAND_INPUT_PATCH_CONSTANT:
        if (op->index_dimension != 1 || !decl_index(ctx, op, 0, &io.register_index))
            return ctx->failed ? false
                               : sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                                            "register declaration with %u indices",
                                            op->index_dimension);
        io.file = file;
        if (op->type == SB_SM4_OPERAND_INPUT_PATCH_CONSTANT ||
            section == SB_IR_SECTION_FORK || section == SB_IR_SECTION_JOIN)
            io.kind = SB_IR_SIGNATURE_PATCH;
        break;
    default:
        if (file == SB_IR_FILE_COUNT || op->index_dimension != 0 ||
            (file < SB_IR_FILE_PRIMITIVE_ID || file > SB_IR_FILE_STENCIL_REF) ||
            file == SB_IR_FILE_INPUT_CONTROL_POINT || file == SB_IR_FILE_OUTPUT_CONTROL_POINT ||
            file == SB_IR_FILE_INPUT_PATCH_CONSTANT)
            return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                              "operand type %u cannot be declared as an input or output",
                              op->type);
        if (output != (sb_ir_sm4_type_writable(op->type) != 0))
            return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                              "operand type %u declared as an %s", op->type,
                              output ? "output" : "input");
        io.file = file;
        break;
    }
    bool input_register = op->type == SB_SM4_OPERAND_INPUT ||
                          op->type == SB_SM4_OPERAND_INPUT_CONTROL_POINT ||
                          op->type == SB_SM4_OPERAND_OUTPUT_CONTROL_POINT ||
                          op->type == SB_SM4_OPERAND_INPUT_PATCH_CONSTANT;
    if (output && input_register)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "output declaration of an input");
    if (op->type == SB_SM4_OPERAND_OUTPUT && !output)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "input declaration of an output");
    if (op->component_count == 4 && op->selection == SB_SM4_SELECT_MASK)
        io.mask = (uint8_t)(op->mask & 0xfu);
    else
        io.mask = op->component_count == 4 ? 0xf : 1;
    io.system_value = inst->decl.system_value;
    io.interpolation = inst->decl.interpolation;
    io.min_precision = op->min_precision;
    io.stream = output ? ctx->current_stream : 0;
    io.offset = inst->offset;
    struct sb_ir_decl_io *slot = sb_ir_push(ctx, &ctx->decl_io, sizeof(*slot));
    if (slot)
        *slot = io;
    return slot != NULL;
}

static bool lower_indexable_temp(struct sb_ir_sm4_context *ctx, const struct sb_sm4_declaration *d)
{
    if (d->indexable_components < 1 || d->indexable_components > 4)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                          "indexable temp with %u components", d->indexable_components);
    struct sb_ir_indexable_temp *x = ctx->indexable_temps.data;
    for (uint32_t i = 0; i < ctx->indexable_temps.count; i++) {
        if (x[i].id != d->indexable_register)
            continue;
        /* Hull phases may each declare x#; one array of the largest shape serves all. */
        if (x[i].count < d->indexable_count)
            x[i].count = d->indexable_count;
        if (x[i].components < d->indexable_components)
            x[i].components = d->indexable_components;
        return true;
    }
    struct sb_ir_indexable_temp *slot = sb_ir_push(ctx, &ctx->indexable_temps, sizeof(*slot));
    if (!slot)
        return false;
    slot->id = d->indexable_register;
    slot->count = d->indexable_count;
    slot->components = d->indexable_components;
    return true;
}

static bool lower_index_range(struct sb_ir_sm4_context *ctx, const struct sb_sm4_instruction *inst)
{
    const struct sb_sm4_operand *op = decl_operand(ctx, inst);
    if (!op)
        return false;
    uint32_t file = sb_ir_file_from_sm4(op->type);
    if (file != SB_IR_FILE_INPUT && file != SB_IR_FILE_OUTPUT &&
        file != SB_IR_FILE_INPUT_CONTROL_POINT && file != SB_IR_FILE_OUTPUT_CONTROL_POINT &&
        file != SB_IR_FILE_INPUT_PATCH_CONSTANT)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "index range over operand type %u",
                          op->type);
    struct sb_ir_index_range range;
    memset(&range, 0, sizeof(range));
    if (op->index_dimension < 1 ||
        !decl_index(ctx, op, op->index_dimension - 1, &range.first))
        return ctx->failed ? false
                           : sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                                        "index range without a register");
    if (inst->decl.count == 0 || inst->decl.count > UINT32_MAX - range.first)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "index range of %u registers",
                          inst->decl.count);
    range.file = file;
    range.count = inst->decl.count;
    range.mask = (uint8_t)(op->component_count == 4 ? op->mask & 0xfu : 1u);
    struct sb_ir_index_range *slot = sb_ir_push(ctx, &ctx->index_ranges, sizeof(*slot));
    if (slot)
        *slot = range;
    return slot != NULL;
}

static bool lower_group_shared(struct sb_ir_sm4_context *ctx, const struct sb_sm4_instruction *inst)
{
    const struct sb_sm4_operand *op = decl_operand(ctx, inst);
    uint32_t id = 0;
    if (!op)
        return false;
    if (op->type != SB_SM4_OPERAND_THREAD_GROUP_SHARED_MEMORY || !decl_index(ctx, op, 0, &id))
        return ctx->failed ? false
                           : sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                                        "group-shared declaration of operand type %u", op->type);
    const struct sb_ir_group_shared *g = ctx->group_shared.data;
    for (uint32_t i = 0; i < ctx->group_shared.count; i++)
        if (g[i].id == id)
            return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "g%u declared twice", id);
    struct sb_ir_group_shared gs = { .id = id };
    if (inst->opcode == SB_SM4_OP_DCL_TGSM_RAW) {
        if (inst->decl.count == 0 || inst->decl.count % 4u)
            return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                              "raw group-shared size %u is not a positive multiple of 4",
                              inst->decl.count);
        gs.stride = 4;
        gs.count = inst->decl.count / 4u;
    } else {
        if (inst->decl.stride == 0 || inst->decl.stride % 4u || inst->decl.count == 0)
            return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                              "structured group-shared stride %u, count %u", inst->decl.stride,
                              inst->decl.count);
        gs.structured = true;
        gs.stride = inst->decl.stride;
        gs.count = inst->decl.count;
    }
    struct sb_ir_group_shared *slot = sb_ir_push(ctx, &ctx->group_shared, sizeof(*slot));
    if (slot)
        *slot = gs;
    return slot != NULL;
}

/* A copy of a declaration's id list in the program's arena. */
static const uint32_t *copy_ids(struct sb_ir_sm4_context *ctx, const struct sb_sm4_declaration *d)
{
    uint32_t *ids = sb_ir_alloc(ctx, d->id_count ? d->id_count : 1, sizeof(*ids));
    if (ids && d->id_count)
        memcpy(ids, d->ids, (size_t)d->id_count * sizeof(*ids));
    return ids;
}

static bool lower_linkage(struct sb_ir_sm4_context *ctx, const struct sb_sm4_instruction *inst)
{
    const struct sb_sm4_declaration *d = &inst->decl;
    if (inst->opcode == SB_SM4_OP_DCL_FUNCTION_BODY) {
        if (d->count >= 0x10000u)
            return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "function body fb%u", d->count);
        struct sb_ir_declared_body *slot = sb_ir_push(ctx, &ctx->function_bodies, sizeof(*slot));
        if (!slot)
            return false;
        slot->id = d->count;
        slot->offset = inst->offset;
        slot->instr = inst->index;
        if (d->count + 1 > ctx->max_function_body)
            ctx->max_function_body = d->count + 1;
        return true;
    }
    if (inst->opcode == SB_SM4_OP_DCL_FUNCTION_TABLE) {
        /* fxc declares bodies, then tables, then interfaces; each names earlier ones. */
        const struct sb_ir_declared_body *bodies = ctx->function_bodies.data;
        for (uint32_t i = 0; i < d->id_count; i++) {
            bool found = false;
            for (uint32_t b = 0; b < ctx->function_bodies.count && !found; b++)
                found = bodies[b].id == d->ids[i];
            if (!found)
                return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                                  "function table ft%u names undeclared fb%u", d->table_id,
                                  d->ids[i]);
        }
        struct sb_ir_function_table *t = sb_ir_push(ctx, &ctx->function_tables, sizeof(*t));
        if (!t)
            return false;
        t->id = d->table_id;
        t->body_count = d->id_count;
        t->bodies = copy_ids(ctx, d);
        return t->bodies != NULL;
    }
    const struct sb_ir_function_table *tables = ctx->function_tables.data;
    for (uint32_t i = 0; i < d->id_count; i++) {
        bool found = false;
        for (uint32_t t = 0; t < ctx->function_tables.count && !found; t++)
            found = tables[t].id == d->ids[i];
        if (!found)
            return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "interface fp%u names undeclared ft%u",
                              d->table_id, d->ids[i]);
    }
    struct sb_ir_interface *f = sb_ir_push(ctx, &ctx->interfaces, sizeof(*f));
    if (!f)
        return false;
    f->id = d->table_id;
    f->array_length = d->interface_array_length;
    f->table_count = d->id_count;
    f->tables = copy_ids(ctx, d);
    f->call_sites = d->interface_table_length;
    return f->tables != NULL;
}

/* dcl_temps and the hull-phase instance counts belong to the current function. */
static bool lower_function_state(struct sb_ir_sm4_context *ctx,
                                 const struct sb_sm4_instruction *inst)
{
    struct sb_ir_function_builder *fn = sb_ir_current_function(ctx);
    if (inst->opcode == SB_SM4_OP_DCL_TEMPS) {
        if (fn->has_temps)
            return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "second dcl_temps in one function");
        if (inst->decl.count > 0x10000u)
            return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "dcl_temps %u", inst->decl.count);
        fn->has_temps = true;
        fn->temp_count = inst->decl.count;
        if (inst->decl.count > ctx->max_temps)
            ctx->max_temps = inst->decl.count;
        return true;
    }
    uint32_t want = inst->opcode == SB_SM4_OP_DCL_HS_FORK_PHASE_INSTANCE_COUNT
                        ? SB_IR_SECTION_FORK
                        : SB_IR_SECTION_JOIN;
    if (fn->section != want)
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                          "phase instance count outside its hull phase");
    fn->instance_count = inst->decl.count;
    return true;
}

/* Stage-wide state: one field each. */
static bool lower_stage_state(struct sb_ir_sm4_context *ctx, const struct sb_sm4_instruction *inst)
{
    struct sb_ir_program *p = ctx->program;
    const struct sb_sm4_declaration *d = &inst->decl;
    switch (inst->opcode) {
    case SB_SM4_OP_DCL_GLOBAL_FLAGS: p->global_flags |= d->global_flags; return true;
    case SB_SM4_OP_DCL_OUTPUT_TOPOLOGY: p->gs_output_topology = d->primitive; return true;
    case SB_SM4_OP_DCL_INPUT_PRIMITIVE: p->gs_input_primitive = d->primitive; return true;
    case SB_SM4_OP_DCL_MAX_OUTPUT_VERTEX_COUNT: p->gs_max_output_vertices = d->count; return true;
    case SB_SM4_OP_DCL_GS_INSTANCE_COUNT: p->gs_instance_count = d->count; return true;
    case SB_SM4_OP_DCL_INPUT_CONTROL_POINT_COUNT: p->input_control_points = d->count; return true;
    case SB_SM4_OP_DCL_OUTPUT_CONTROL_POINT_COUNT: p->output_control_points = d->count; return true;
    case SB_SM4_OP_DCL_TESS_DOMAIN: p->tess_domain = d->tessellator; return true;
    case SB_SM4_OP_DCL_TESS_PARTITIONING: p->tess_partitioning = d->tessellator; return true;
    case SB_SM4_OP_DCL_TESS_OUTPUT_PRIMITIVE: p->tess_output_primitive = d->tessellator; return true;
    case SB_SM4_OP_DCL_HS_MAX_TESSFACTOR: p->max_tess_factor = d->max_tessfactor; return true;
    case SB_SM4_OP_DCL_THREAD_GROUP:
        memcpy(p->thread_group, d->thread_group, sizeof(p->thread_group));
        return true;
    case SB_SM4_OP_DCL_STREAM: {
        const struct sb_sm4_operand *op = decl_operand(ctx, inst);
        uint32_t m = 0;
        if (!op)
            return false;
        if (op->type != SB_SM4_OPERAND_STREAM || !decl_index(ctx, op, 0, &m) || m > 3)
            return ctx->failed ? false
                               : sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID,
                                            "dcl_stream operand is not m0-m3");
        p->gs_stream_mask |= 1u << m;
        ctx->current_stream = m;
        return true;
    }
    default:
        return sb_ir_fail(ctx, SB_ERROR_TRANSLATE_INVALID, "declaration opcode %u is unknown",
                          inst->opcode);
    }
}

bool sb_ir_lower_declaration(struct sb_ir_sm4_context *ctx, const struct sb_sm4_instruction *inst)
{
    /* The common declarations (inputs, outputs, temps) first; the resource table is
     * searched only for the rest. The opcode sets are disjoint, so the order does not
     * change what any declaration lowers to. */
    switch (inst->opcode) {
    case SB_SM4_OP_DCL_INPUT:
    case SB_SM4_OP_DCL_INPUT_SGV:
    case SB_SM4_OP_DCL_INPUT_SIV:
    case SB_SM4_OP_DCL_INPUT_PS:
    case SB_SM4_OP_DCL_INPUT_PS_SGV:
    case SB_SM4_OP_DCL_INPUT_PS_SIV:
        return lower_io(ctx, inst, false);
    case SB_SM4_OP_DCL_OUTPUT:
    case SB_SM4_OP_DCL_OUTPUT_SGV:
    case SB_SM4_OP_DCL_OUTPUT_SIV:
        return lower_io(ctx, inst, true);
    case SB_SM4_OP_DCL_INDEXABLE_TEMP: return lower_indexable_temp(ctx, &inst->decl);
    case SB_SM4_OP_DCL_INDEX_RANGE: return lower_index_range(ctx, inst);
    case SB_SM4_OP_DCL_TGSM_RAW:
    case SB_SM4_OP_DCL_TGSM_STRUCTURED: return lower_group_shared(ctx, inst);
    case SB_SM4_OP_DCL_FUNCTION_BODY:
    case SB_SM4_OP_DCL_FUNCTION_TABLE:
    case SB_SM4_OP_DCL_INTERFACE: return lower_linkage(ctx, inst);
    case SB_SM4_OP_DCL_TEMPS:
    case SB_SM4_OP_DCL_HS_FORK_PHASE_INSTANCE_COUNT:
    case SB_SM4_OP_DCL_HS_JOIN_PHASE_INSTANCE_COUNT: return lower_function_state(ctx, inst);
    default: break;
    }
    for (size_t i = 0; i < sizeof(resource_decls) / sizeof(resource_decls[0]); i++)
        if (resource_decls[i].opcode == inst->opcode)
            return lower_resource(ctx, inst, &resource_decls[i]);
    return lower_stage_state(ctx, inst);
}
