/* SPDX-License-Identifier: MIT */
/*
 * Mesh and amplification programs (../../IR.md §Mesh and amplification) in SPIR-V
 * through SPV_EXT_mesh_shader: MeshEXT / TaskEXT execution models, capability
 * MeshShadingEXT, SPIR-V 1.4 or later (the extension requires it; a Vulkan 1.1
 * target gets 1.4, as with VK_KHR_spirv_1_4, spirv_module.c).
 *
 * A mesh program's outputs are arrays over its vertices or primitives, written by
 * any invocation at any index, so they are Output variables written in place
 * (no private o# copy: an epilogue would not know which elements an invocation
 * owns):
 *   - user attributes: one `vecN[max]` (or scalar) variable per element row,
 *     Location = the row's register (per-primitive rows after the last
 *     per-vertex location, so the two sets never overlap), Component = its
 *     first lane; per-primitive ones decorated PerPrimitiveEXT;
 *   - SV_Position -> BuiltIn Position `vec4[max]`, SV_ClipDistance /
 *     SV_CullDistance -> BuiltIn ClipDistance / CullDistance `float[n][max]`
 *     (lanes in register order), SV_PrimitiveID / SV_RenderTargetArrayIndex /
 *     SV_ViewportArrayIndex / SV_CullPrimitive -> PrimitiveId / Layer /
 *     ViewportIndex (int) / CullPrimitiveEXT (bool) `[max]`, PerPrimitiveEXT;
 *   - the indices: BuiltIn PrimitiveTriangleIndicesEXT `uvec3[max]`
 *     (PrimitiveLineIndicesEXT `uvec2`, PrimitivePointIndicesEXT `uint`).
 * An element index past the declared maximum is clamped to the last element: D3D
 * leaves such writes undefined, and Vulkan must not see an access out of bounds.
 * The task payload is the g# marked task_payload, declared TaskPayloadWorkgroupEXT
 * by spirv_uav_decl.c; DISPATCH_MESH is OpEmitMeshTasksEXT with it.
 */
#include "spirv_stage_private.h"

/* How a mesh output variable holds its lanes. */
enum mesh_shape {
    MESH_VECTOR = 0,      /* scalar / vector of `ir_type`: lane first_lane + k is component k */
    MESH_DISTANCE_ARRAY,  /* float[n] built-in: lane k of the element is entry array_base + k */
    MESH_BOOL,            /* CullPrimitiveEXT: uint != 0 */
};

struct mesh_output {
    uint32_t file;        /* SB_IR_FILE_MESH_VERTEX or _PRIMITIVE */
    uint32_t reg;
    uint32_t lane_mask, first_lane, lane_count;
    uint32_t ir_type;     /* FLOAT/INT/UINT of the components */
    uint32_t shape;       /* enum mesh_shape */
    uint32_t array_base;
    uint32_t var;
};

struct mesh_state {
    struct mesh_output *outputs;
    uint32_t output_count;
    uint32_t indices;     /* the PrimitiveXxxIndicesEXT variable */
    uint32_t distance_var[2], distance_lanes[2]; /* [cull]: ClipDistance, CullDistance */
};

static struct mesh_state *mesh(struct sb_spv_context *ctx)
{
    if (!ctx->mesh_state)
        ctx->mesh_state = sb_spv_zalloc(ctx, 1, sizeof(struct mesh_state));
    if (!ctx->mesh_state)
        sb_spv_fail(ctx, SB_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    return ctx->mesh_state;
}

static uint32_t array_length(uint32_t count)
{
    return count ? count : 1; /* a SPIR-V array has at least one element */
}

static uint32_t first_lane(uint32_t mask)
{
    uint32_t lane = 0;
    while (lane < 4 && !(mask & (1u << lane)))
        lane++;
    return lane;
}

static uint32_t lane_count(uint32_t mask)
{
    uint32_t n = 0;
    for (uint32_t lane = 0; lane < 4; lane++)
        n += (mask >> lane) & 1u;
    return n;
}

/* Location past the last per-vertex attribute row: where per-primitive rows start. */
static uint32_t primitive_location_base(const struct sb_ir_program *p)
{
    uint32_t base = 0;
    for (uint32_t i = 0; i < p->signature_count; i++) {
        const struct sb_ir_signature_element *e = &p->signature[i];
        if (e->file == SB_IR_FILE_MESH_VERTEX && e->system_value == 0 && e->register_index + 1 > base)
            base = e->register_index + 1;
    }
    return base;
}

/* The built-in of a system value (sm4-tokens.md §8.1) in a mesh output; false for none (the
 * built-in's number cannot say so: Position is 0). */
static bool mesh_builtin(uint32_t system_value, bool primitive, SpvBuiltIn *builtin, uint32_t *ir_type,
                         uint32_t *shape)
{
    *ir_type = SB_IR_TYPE_INT;
    *shape = MESH_VECTOR;
    switch (system_value) {
    case 1: *ir_type = SB_IR_TYPE_FLOAT; *builtin = SpvBuiltInPosition; return !primitive;
    case 2:
    case 3:
        *ir_type = SB_IR_TYPE_FLOAT;
        *shape = MESH_DISTANCE_ARRAY;
        *builtin = system_value == 2 ? SpvBuiltInClipDistance : SpvBuiltInCullDistance;
        return !primitive;
    case 4: *builtin = SpvBuiltInLayer; return primitive;
    case 5: *builtin = SpvBuiltInViewportIndex; return primitive;
    case 7: *builtin = SpvBuiltInPrimitiveId; return primitive;
    case 25: *shape = MESH_BOOL; *builtin = SpvBuiltInCullPrimitiveEXT; return primitive;
    default: return false;
    }
}

static struct mesh_output *add_output(struct sb_spv_context *ctx, const struct sb_ir_signature_element *e)
{
    struct mesh_state *s = mesh(ctx);
    if (!s)
        return NULL;
    struct mesh_output *o = &s->outputs[s->output_count++];
    o->file = e->file;
    o->reg = e->register_index;
    o->lane_mask = e->mask & 0xFu;
    o->first_lane = first_lane(o->lane_mask);
    o->lane_count = lane_count(o->lane_mask);
    return o;
}

/* All ClipDistance or CullDistance lanes of the program, in register order: one variable. */
static uint32_t distance_variable(struct sb_spv_context *ctx, bool cull, uint32_t max)
{
    struct sb_spv_builder *b = &ctx->builder;
    struct mesh_state *s = mesh(ctx);
    if (s->distance_var[cull])
        return s->distance_var[cull];
    uint32_t lanes = 0;
    for (uint32_t i = 0; i < ctx->program->signature_count; i++) {
        const struct sb_ir_signature_element *e = &ctx->program->signature[i];
        if (e->file == SB_IR_FILE_MESH_VERTEX && e->system_value == (cull ? 3u : 2u))
            lanes += lane_count(e->mask & 0xFu);
    }
    sb_spv_capability(b, cull ? SpvCapabilityCullDistance : SpvCapabilityClipDistance);
    uint32_t per_vertex = sb_spv_type_array(b, sb_spv_t_f32(ctx), lanes ? lanes : 1);
    s->distance_var[cull] = sb_spv_io_builtin(ctx, SpvStorageClassOutput,
                                              cull ? SpvBuiltInCullDistance : SpvBuiltInClipDistance,
                                              sb_spv_type_array(b, per_vertex, max));
    return s->distance_var[cull];
}

static enum sb_result declare_output(struct sb_spv_context *ctx, const struct sb_ir_signature_element *e,
                                     uint32_t location_base)
{
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_ir_program *p = ctx->program;
    bool primitive = e->file == SB_IR_FILE_MESH_PRIMITIVE;
    uint32_t max = array_length(primitive ? p->mesh_max_primitives : p->mesh_max_vertices);
    struct mesh_output *o = add_output(ctx, e);
    if (!o)
        return ctx->result;
    if (!o->lane_count) {
        struct sb_ir_instruction at = { .offset = e->offset }; /* the declaration's offset */
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, &at, "mesh output register %u without lanes",
                           e->register_index);
    }
    ctx->builder.origin = e->offset;
    if (e->system_value) {
        SpvBuiltIn builtin = SpvBuiltInPosition;
        if (!mesh_builtin(e->system_value, primitive, &builtin, &o->ir_type, &o->shape)) {
            struct sb_ir_instruction at = { .offset = e->offset }; /* the declaration's offset */
            return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, &at,
                               "system value %u is not a per-%s mesh output", e->system_value,
                               primitive ? "primitive" : "vertex");
        }
        if (o->shape == MESH_DISTANCE_ARRAY) {
            bool cull = builtin == SpvBuiltInCullDistance;
            o->var = distance_variable(ctx, cull, max);
            o->array_base = mesh(ctx)->distance_lanes[cull];
            mesh(ctx)->distance_lanes[cull] += o->lane_count;
            return ctx->result;
        }
        uint32_t element = o->shape == MESH_BOOL ? sb_spv_t_bool(ctx)
                           : builtin == SpvBuiltInPosition ? sb_spv_t_fvec(ctx, 4) : sb_spv_t_i32(ctx);
        if (builtin == SpvBuiltInPosition)
            o->first_lane = 0, o->lane_count = 4, o->lane_mask = 0xF;
        o->var = sb_spv_io_builtin(ctx, SpvStorageClassOutput, builtin, sb_spv_type_array(b, element, max));
        if (primitive)
            sb_spv_decorate(b, o->var, SpvDecorationPerPrimitiveEXT, NULL, 0);
        return ctx->result;
    }
    o->ir_type = e->component_type == SB_IR_TYPE_INT || e->component_type == SB_IR_TYPE_UINT
                     ? e->component_type : SB_IR_TYPE_FLOAT;
    uint32_t element = sb_spv_type_of(ctx, o->ir_type, o->lane_count);
    o->var = sb_spv_variable_global(b, sb_spv_type_pointer(b, SpvStorageClassOutput, sb_spv_type_array(b, element, max)),
                                    SpvStorageClassOutput, 0);
    uint32_t location = e->register_index + (primitive ? location_base : 0);
    sb_spv_decorate1(b, o->var, SpvDecorationLocation, location);
    if (o->first_lane)
        sb_spv_decorate1(b, o->var, SpvDecorationComponent, o->first_lane);
    if (primitive)
        sb_spv_decorate(b, o->var, SpvDecorationPerPrimitiveEXT, NULL, 0);
    /* Integers reach the pixel shader unmodified only flat. */
    if (o->ir_type != SB_IR_TYPE_FLOAT)
        sb_spv_decorate(b, o->var, SpvDecorationFlat, NULL, 0);
    struct sb_translated_interface entry = {
        .location = location, .component = o->first_lane, .component_count = o->lane_count,
        .component_type = (enum sb_ir_type)o->ir_type, .array_size = max,
        .semantic = e->semantic, .semantic_index = e->semantic_index,
    };
    sb_spv_io_report(ctx, true, &entry);
    return ctx->result;
}

static void declare_indices(struct sb_spv_context *ctx)
{
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_ir_program *p = ctx->program;
    uint32_t n = p->mesh_topology;
    SpvBuiltIn builtin = n == SB_IR_MESH_POINTS  ? SpvBuiltInPrimitivePointIndicesEXT
                         : n == SB_IR_MESH_LINES ? SpvBuiltInPrimitiveLineIndicesEXT
                                                 : SpvBuiltInPrimitiveTriangleIndicesEXT;
    uint32_t type = sb_spv_type_array(b, sb_spv_t_uvec(ctx, n), array_length(p->mesh_max_primitives));
    mesh(ctx)->indices = sb_spv_io_builtin(ctx, SpvStorageClassOutput, builtin, type);
}

static void execution_modes(struct sb_spv_context *ctx)
{
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_ir_program *p = ctx->program;
    uint32_t f = ctx->entry_function;
    uint32_t size[3];
    for (int i = 0; i < 3; i++)
        size[i] = p->thread_group[i] ? p->thread_group[i] : 1;
    sb_spv_execution_mode(b, f, SpvExecutionModeLocalSize, size, 3);
    if (p->stage != SB_IR_STAGE_MESH)
        return;
    uint32_t vertices = p->mesh_max_vertices, primitives = p->mesh_max_primitives;
    sb_spv_execution_mode(b, f, SpvExecutionModeOutputVertices, &vertices, 1);
    sb_spv_execution_mode(b, f, SpvExecutionModeOutputPrimitivesEXT, &primitives, 1);
    sb_spv_execution_mode(b, f,
                          p->mesh_topology == SB_IR_MESH_POINTS  ? SpvExecutionModeOutputPoints
                          : p->mesh_topology == SB_IR_MESH_LINES ? SpvExecutionModeOutputLinesEXT
                                                                 : SpvExecutionModeOutputTrianglesEXT,
                          NULL, 0);
}

enum sb_result sb_spv_mesh_declare(struct sb_spv_context *ctx)
{
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_ir_program *p = ctx->program;
    bool is_mesh = p->stage == SB_IR_STAGE_MESH;
    if (ctx->spirv_version < 0x00010400)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, NULL,
                           "%s shaders need SPIR-V 1.4 (SPV_EXT_mesh_shader): Vulkan 1.0 has no mesh "
                           "shaders; translate for Vulkan 1.1 or later", is_mesh ? "mesh" : "amplification");
    if (is_mesh && (p->mesh_topology < SB_IR_MESH_POINTS || p->mesh_topology > SB_IR_MESH_TRIANGLES))
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL, "mesh topology %u", p->mesh_topology);
    sb_spv_capability(b, SpvCapabilityMeshShadingEXT);
    sb_spv_extension(b, "SPV_EXT_mesh_shader");
    execution_modes(ctx);
    if (!is_mesh)
        return ctx->result;
    struct mesh_state *s = mesh(ctx);
    if (!s)
        return ctx->result;
    s->outputs = sb_spv_zalloc(ctx, p->signature_count ? p->signature_count : 1, sizeof(*s->outputs));
    if (!s->outputs)
        return sb_spv_fail(ctx, SB_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    uint32_t location_base = primitive_location_base(p);
    for (uint32_t i = 0; i < p->signature_count && ctx->result == SB_SUCCESS; i++) {
        const struct sb_ir_signature_element *e = &p->signature[i];
        if (e->file == SB_IR_FILE_MESH_VERTEX || e->file == SB_IR_FILE_MESH_PRIMITIVE)
            declare_output(ctx, e, location_base);
    }
    ctx->builder.origin = SB_SPV_NO_ORIGIN;
    if (ctx->result == SB_SUCCESS)
        declare_indices(ctx);
    return ctx->result;
}

/* ---- instructions ------------------------------------------------------------------------ */

/* An element index clamped to an array of `count`: a constant folded, else UMin. */
static uint32_t clamp_value(struct sb_spv_context *ctx, uint32_t index, uint32_t count)
{
    return sb_spv_glsl2(&ctx->builder, sb_spv_t_u32(ctx), GLSLstd450UMin, index,
                        sb_spv_uint(ctx, array_length(count) - 1));
}

static uint32_t clamped_index(struct sb_spv_context *ctx, const struct sb_ir_index *index, uint32_t count)
{
    uint32_t last = array_length(count) - 1;
    if (!index->relative)
        return sb_spv_uint(ctx, index->offset < last ? index->offset : last);
    return clamp_value(ctx, sb_spv_index_value(ctx, index), count);
}

static const struct mesh_output *find_output(struct sb_spv_context *ctx, uint32_t file, uint32_t reg,
                                             uint32_t lane)
{
    const struct mesh_state *s = ctx->mesh_state;
    for (uint32_t i = 0; s && i < s->output_count; i++) {
        const struct mesh_output *o = &s->outputs[i];
        if (o->file == file && o->reg == reg && (o->lane_mask & (1u << lane)))
            return o;
    }
    return NULL;
}

/* One lane of a store: the value's bits converted to the variable's component. */
static void store_lane(struct sb_spv_context *ctx, const struct mesh_output *o, uint32_t element,
                       uint32_t lane, uint32_t bits)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t chain[2] = { element, 0 }, count = 1, type, value;
    switch (o->shape) {
    case MESH_BOOL:
        type = sb_spv_t_bool(ctx);
        value = sb_spv_op2(b, SpvOpINotEqual, type, bits, sb_spv_uint(ctx, 0));
        break;
    case MESH_DISTANCE_ARRAY:
        chain[count++] = sb_spv_uint(ctx, o->array_base + lane_count(o->lane_mask & ((1u << lane) - 1u)));
        type = sb_spv_t_f32(ctx);
        value = sb_spv_bitcast(b, type, sb_spv_t_u32(ctx), bits);
        break;
    default:
        if (o->lane_count > 1)
            chain[count++] = sb_spv_uint(ctx, lane - o->first_lane);
        type = sb_spv_type_of(ctx, o->ir_type, 1);
        value = o->ir_type == SB_IR_TYPE_UINT ? bits : sb_spv_bitcast(b, type, sb_spv_t_u32(ctx), bits);
        break;
    }
    uint32_t ptr = sb_spv_access_chain(b, sb_spv_type_pointer(b, SpvStorageClassOutput, type), o->var,
                                       chain, count);
    sb_spv_store(b, ptr, value);
}

static enum sb_result store_output(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    const struct sb_ir_operand *dst = &inst->dst[0];
    const struct sb_ir_program *p = ctx->program;
    bool primitive = dst->file == SB_IR_FILE_MESH_PRIMITIVE;
    uint32_t reg = dst->index[1].offset;
    uint32_t element = clamped_index(ctx, &dst->index[0],
                                     primitive ? p->mesh_max_primitives : p->mesh_max_vertices);
    for (uint32_t lane = 0; lane < 4 && ctx->result == SB_SUCCESS; lane++) {
        if (!(dst->mask & (1u << lane)))
            continue;
        const struct mesh_output *o = find_output(ctx, dst->file, reg, lane);
        if (!o)
            return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "%s register %u lane %u is not declared",
                               sb_ir_file_name(dst->file), reg, lane);
        uint32_t bits = sb_spv_load_src(ctx, &inst->src[0], 1u << lane, SB_IR_TYPE_UINT);
        if (bits)
            store_lane(ctx, o, element, lane, bits);
    }
    return ctx->result;
}

/* Lane `lane` of a source (after its swizzle) as a uint. */
static uint32_t source_lane(struct sb_spv_context *ctx, const struct sb_ir_operand *src, uint32_t lane)
{
    return sb_spv_load_src(ctx, src, 1u << lane, SB_IR_TYPE_UINT);
}

static enum sb_result store_indices(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_ir_program *p = ctx->program;
    uint32_t n = p->mesh_topology;
    uint32_t primitive = clamp_value(ctx, sb_spv_load_scalar(ctx, &inst->src[0], SB_IR_TYPE_UINT),
                                     p->mesh_max_primitives);
    uint32_t value = sb_spv_load_src_n(ctx, &inst->src[1], n, SB_IR_TYPE_UINT);
    if (!primitive || !value)
        return ctx->result;
    uint32_t ptr = sb_spv_access_chain(b, sb_spv_type_pointer(b, SpvStorageClassOutput, sb_spv_t_uvec(ctx, n)),
                                       mesh(ctx)->indices, &primitive, 1);
    sb_spv_store(b, ptr, value);
    return ctx->result;
}

static enum sb_result set_counts(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    uint32_t counts[2] = { sb_spv_load_scalar(ctx, &inst->src[0], SB_IR_TYPE_UINT),
                           sb_spv_load_scalar(ctx, &inst->src[1], SB_IR_TYPE_UINT) };
    if (counts[0] && counts[1])
        sb_spv_op(&ctx->builder, SpvOpSetMeshOutputsEXT, counts, 2);
    return ctx->result;
}

/* OpEmitMeshTasksEXT ends the invocation: the r# writes deferred so far are stored first
 * (nothing reads them after, but the block's bookkeeping expects them flushed). */
static enum sb_result dispatch_mesh(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    uint32_t ops[4];
    uint32_t count = 3;
    for (uint32_t i = 0; i < 3; i++)
        if (!(ops[i] = source_lane(ctx, &inst->src[0], i)))
            return ctx->result;
    if (inst->src_count > 1) {
        const struct sb_ir_program *p = ctx->program;
        uint32_t id = inst->src[1].index_count ? inst->src[1].index[0].offset : UINT32_MAX;
        for (uint32_t g = 0; g < p->group_shared_count; g++)
            if (p->group_shared[g].id == id && p->group_shared[g].task_payload)
                ops[count++] = ctx->group_shared_vars[g];
        if (count != 4)
            return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst,
                               "dispatch_mesh of g%u, which is not the task payload", id);
    }
    sb_spv_registers_flush(ctx);
    sb_spv_op(&ctx->builder, SpvOpEmitMeshTasksEXT, ops, count);
    return ctx->result;
}

enum sb_result sb_spv_mesh_instruction(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    bool is_mesh = ctx->program->stage == SB_IR_STAGE_MESH;
    if (inst->op == SB_IR_OP_DISPATCH_MESH ? ctx->program->stage != SB_IR_STAGE_AMPLIFICATION : !is_mesh)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "'%s' outside a %s shader",
                           sb_ir_op_name(inst->op),
                           inst->op == SB_IR_OP_DISPATCH_MESH ? "amplification" : "mesh");
    switch (inst->op) {
    case SB_IR_OP_MESH_SET_COUNTS: return set_counts(ctx, inst);
    case SB_IR_OP_MESH_INDICES: return store_indices(ctx, inst);
    case SB_IR_OP_MESH_STORE_VERTEX:
    case SB_IR_OP_MESH_STORE_PRIMITIVE: return store_output(ctx, inst);
    case SB_IR_OP_DISPATCH_MESH: return dispatch_mesh(ctx, inst);
    default: return SB_ERROR_TRANSLATE_UNSUPPORTED;
    }
}
