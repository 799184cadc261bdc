/* SPDX-License-Identifier: MIT */
/*
 * Input/Output variables that the stage code owns (spirv_stage_private.h):
 * per-vertex inputs of GS/HS/DS, hull-shader control-point outputs and patch
 * constants, domain-shader patch-constant inputs, geometry outputs of
 * non-zero streams — and the copies between them and the register lanes.
 *
 * System values (../shared/docs/sm4-tokens.md §8.1): SV_Position -> Position (arrayed
 * where the variable is), SV_ClipDistance / SV_CullDistance -> one float
 * array per kind whose elements are the elements' lanes in signature order
 * (as spirv_io.c packs them for VS/GS/DS outputs, so the partner stages
 * agree), tess factors -> TessLevelOuter / TessLevelInner (table below);
 * anything else travels as a plain location.
 *
 * For a text target, arrayed inputs or outputs (GS/HS/DS per-vertex inputs, HS control
 * points) with a clip or cull distance put Position and the distances in one
 * Block-decorated gl_PerVertex struct array, glslang's form: SPIRV-Cross writes loose
 * arrayed float-array built-ins as gl_ClipDistance[vertex][k], which GLSL has no
 * declaration for (it is gl_in[vertex].gl_ClipDistance[k]).
 */
#include "spirv_stage_private.h"

#include <stdlib.h>
#include <string.h>

/*
 * Tess factors -> Vulkan tess levels. Both APIs number a domain's edges the
 * same way once Vulkan's default upper-left domain origin is used (D3D's
 * convention): quad outer[0..3] = edges u=0, v=0, u=1, v=1, inner[0] = u,
 * inner[1] = v; tri outer[0..2] = edges u=0, v=0, w=0, inner[0]. Isolines:
 * Vulkan's outer[0] is the number of lines (D3D's density) and outer[1] the
 * segments per line (D3D's detail).
 */
static const struct {
    uint32_t system_value;
    bool inner;
    uint32_t index;
} tess_factors[] = {
    { 11, false, 0 }, /* finalQuadUeq0EdgeTessFactor */
    { 12, false, 1 }, /* finalQuadVeq0EdgeTessFactor */
    { 13, false, 2 }, /* finalQuadUeq1EdgeTessFactor */
    { 14, false, 3 }, /* finalQuadVeq1EdgeTessFactor */
    { 15, true, 0 },  /* finalQuadUInsideTessFactor */
    { 16, true, 1 },  /* finalQuadVInsideTessFactor */
    { 17, false, 0 }, /* finalTriUeq0EdgeTessFactor */
    { 18, false, 1 }, /* finalTriVeq0EdgeTessFactor */
    { 19, false, 2 }, /* finalTriWeq0EdgeTessFactor */
    { 20, true, 0 },  /* finalTriInsideTessFactor */
    { 21, false, 1 }, /* finalLineDetailTessFactor */
    { 22, false, 0 }, /* finalLineDensityTessFactor */
};

/*
 * D3D's factor rules, applied to what a hull shader writes to a tess level so that
 * Vulkan's tessellator gets the factor D3D's would use (../shared/docs/sm4-tokens.md §8.6;
 * the interpreter's tessellator, runtime/src/interp/interp_tessellator.c, applies the
 * same): a factor above 0 is clamped to its partitioning's range (fractional_even
 * [2, 64], fractional_odd [1, 63], else [1, 64]) and to dcl_hs_max_tessfactor; pow2, which
 * Vulkan lacks (the translation asks for equal spacing), is rounded up to a power of two,
 * halved while above that maximum. Integer and fractional rounding are the same in both
 * APIs once clamped. An edge factor that is NaN or <= 0 stays as written, so the patch is
 * culled on both sides; such an inside factor becomes the range's minimum (D3D's
 * tessellator takes that; Vulkan leaves a NaN inner level undefined). Isoline density is
 * always integer partitioned.
 */
static uint32_t d3d_tess_factor(struct sb_spv_context *ctx, uint32_t system_value, bool inner, uint32_t value)
{
    const struct sb_ir_program *p = ctx->program;
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t partitioning = system_value == 22 ? 1 : p->tess_partitioning; /* density: integer */
    float lo = partitioning == 4 ? 2.0f : 1.0f, hi = partitioning == 3 ? 63.0f : 64.0f;
    if (p->max_tess_factor >= 1.0f && p->max_tess_factor < hi)
        hi = p->max_tess_factor;
    if (hi < lo)
        hi = lo;
    uint32_t f32 = sb_spv_t_f32(ctx);
    uint32_t clamped = sb_spv_glsl3(b, f32, GLSLstd450FClamp, value, sb_spv_const_f32(b, lo), sb_spv_const_f32(b, hi));
    if (partitioning == 2) {
        /* The next power of two of ceil(f) in [1, 64], exactly: a mantissa not zero carries
         * into the exponent. */
        uint32_t u32 = sb_spv_t_u32(ctx);
        uint32_t bits = sb_spv_bitcast(b, u32, f32, sb_spv_glsl1(b, f32, GLSLstd450Ceil, clamped));
        bits = sb_spv_op2(b, SpvOpIAdd, u32, bits, sb_spv_uint(ctx, 0x007FFFFFu));
        bits = sb_spv_op2(b, SpvOpBitwiseAnd, u32, bits, sb_spv_uint(ctx, 0xFF800000u));
        uint32_t rounded = sb_spv_bitcast(b, f32, u32, bits);
        uint32_t over = sb_spv_op2(b, SpvOpFOrdGreaterThan, sb_spv_t_bool(ctx), rounded, sb_spv_const_f32(b, hi));
        uint32_t half = sb_spv_op2(b, SpvOpFMul, f32, rounded, sb_spv_const_f32(b, 0.5f));
        clamped = sb_spv_op3(b, SpvOpSelect, f32, over, half, rounded);
    }
    uint32_t valid = sb_spv_op2(b, SpvOpFOrdGreaterThan, sb_spv_t_bool(ctx), value, sb_spv_const_f32(b, 0.0f));
    return sb_spv_op3(b, SpvOpSelect, f32, valid, clamped, inner ? sb_spv_const_f32(b, lo) : value);
}

static uint32_t first_lane(uint32_t mask)
{
    for (uint32_t i = 0; i < 4; i++)
        if (mask & (1u << i))
            return i;
    return 0;
}

static uint32_t last_lane(uint32_t mask)
{
    for (uint32_t i = 4; i-- > 0;)
        if (mask & (1u << i))
            return i;
    return 0;
}

/* The element's lanes: its container allocation when known (what the partner stage's signature
 * has too, so both sides declare the same variable), else the declared lanes. */
static uint32_t element_lanes(const struct sb_ir_signature_element *e)
{
    return (e->signature_mask ? e->signature_mask : e->mask) & 0xFu;
}

static bool role_matches(const struct sb_spv_context *ctx, uint32_t role,
                         const struct sb_ir_signature_element *e)
{
    switch (role) {
    case SB_SPV_ROLE_VERTEX_IN:
        return e->kind == SB_IR_SIGNATURE_INPUT && e->file == SB_IR_FILE_INPUT;
    case SB_SPV_ROLE_CP_OUT:
        return e->kind == SB_IR_SIGNATURE_OUTPUT && e->file == SB_IR_FILE_OUTPUT;
    case SB_SPV_ROLE_PATCH_OUT:
        return e->kind == SB_IR_SIGNATURE_PATCH && e->file == SB_IR_FILE_OUTPUT;
    case SB_SPV_ROLE_PATCH_IN:
        return e->kind == SB_IR_SIGNATURE_PATCH && e->file == SB_IR_FILE_INPUT_PATCH_CONSTANT;
    case SB_SPV_ROLE_STREAM_OUT:
        return sb_spv_stage_owns_element(ctx, e);
    default:
        return false;
    }
}

static bool role_is_output(uint32_t role)
{
    return role == SB_SPV_ROLE_CP_OUT || role == SB_SPV_ROLE_PATCH_OUT || role == SB_SPV_ROLE_STREAM_OUT;
}

static bool role_is_patch(uint32_t role)
{
    return role == SB_SPV_ROLE_PATCH_OUT || role == SB_SPV_ROLE_PATCH_IN;
}

static struct sb_spv_stage_var *add_var(struct sb_spv_context *ctx)
{
    struct sb_spv_stage_state *s = sb_spv_stage_state(ctx);
    if (!s)
        return NULL;
    struct sb_spv_stage_var *vars =
        sb_spv_grow(ctx, s->vars, s->var_count, &s->var_capacity, sizeof(*vars), 16);
    if (!vars)
        return NULL;
    s->vars = vars;
    struct sb_spv_stage_var *v = &s->vars[s->var_count++];
    memset(v, 0, sizeof(*v));
    return v;
}

/* Lanes of (role, stream, reg) already carried by an earlier variable. */
static uint32_t taken_lanes(struct sb_spv_context *ctx, uint32_t role, uint32_t stream, uint32_t reg)
{
    struct sb_spv_stage_state *s = ctx->stage_state;
    uint32_t mask = 0;
    for (uint32_t i = 0; s && i < s->var_count; i++)
        if (s->vars[i].role == role && s->vars[i].stream == stream && s->vars[i].reg == reg &&
            s->vars[i].shape == SB_SPV_SHAPE_VECTOR)
            mask |= s->vars[i].lane_mask;
    return mask;
}

static uint32_t make_variable(struct sb_spv_context *ctx, uint32_t type, uint32_t outer, bool output)
{
    struct sb_spv_builder *b = &ctx->builder;
    SpvStorageClass sc = output ? SpvStorageClassOutput : SpvStorageClassInput;
    if (outer)
        type = sb_spv_type_array(b, type, outer);
    return sb_spv_variable_global(b, sb_spv_type_pointer(b, sc, type), sc, 0);
}

static uint32_t make_builtin(struct sb_spv_context *ctx, SpvBuiltIn builtin, uint32_t type, uint32_t outer,
                             bool output, bool patch)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (outer)
        type = sb_spv_type_array(b, type, outer);
    uint32_t before = b->next_id;
    uint32_t var = sb_spv_io_builtin(ctx, output ? SpvStorageClassOutput : SpvStorageClassInput,
                                     builtin, type);
    /* Decorate only a variable made just now (tess levels are shared by several elements). */
    if (patch && var >= before)
        sb_spv_decorate(b, var, SpvDecorationPatch, NULL, 0);
    return var;
}

/* A user-semantic element: Location = register, Component = first lane. */
static void declare_location(struct sb_spv_context *ctx, struct sb_spv_stage_var *v, uint32_t role)
{
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_ir_signature_element *e = v->element;
    uint32_t location = e->register_index;
    const struct sb_spv_stage_state *s = ctx->stage_state;
    if (role_is_patch(role))
        location += s->patch_location_base;
    else if (role == SB_SPV_ROLE_STREAM_OUT)
        location += s->stream_location_stride * v->stream;
    v->var = make_variable(ctx, sb_spv_type_of(ctx, v->ir_type, v->lane_count), v->outer, v->output);
    sb_spv_decorate1(b, v->var, SpvDecorationLocation, location);
    if (v->first_lane)
        sb_spv_decorate1(b, v->var, SpvDecorationComponent, v->first_lane);
    if (role_is_patch(role))
        sb_spv_decorate(b, v->var, SpvDecorationPatch, NULL, 0);
    if (role == SB_SPV_ROLE_STREAM_OUT) {
        sb_spv_capability(b, SpvCapabilityGeometryStreams);
        sb_spv_decorate1(b, v->var, SpvDecorationStream, v->stream);
    }
    if (ctx->debug_info && e->semantic && e->semantic[0])
        sb_spv_debug_name(ctx, v->var, e->semantic);
    struct sb_translated_interface entry;
    memset(&entry, 0, sizeof(entry));
    entry.location = location;
    entry.component = v->first_lane;
    entry.component_count = v->lane_count;
    entry.component_type = v->ir_type;
    entry.array_size = v->outer;
    entry.patch = role_is_patch(role);
    entry.semantic = e->semantic;
    entry.semantic_index = e->semantic_index;
    sb_spv_io_report(ctx, v->output, &entry);
}

/* The tess-level built-in of a tess factor; false when `system_value` is not one. */
static bool declare_tess_factor(struct sb_spv_context *ctx, struct sb_spv_stage_var *v)
{
    for (size_t i = 0; i < sizeof(tess_factors) / sizeof(tess_factors[0]); i++) {
        if (tess_factors[i].system_value != v->element->system_value)
            continue;
        bool inner = tess_factors[i].inner;
        uint32_t size = inner ? 2 : 4;
        v->shape = SB_SPV_SHAPE_FLOAT_ARRAY;
        v->array_base = tess_factors[i].index;
        /* A tess factor is one lane; more would run past the array. */
        while (sb_spv_mask_count(v->lane_mask) > size - v->array_base)
            v->lane_mask &= ~(1u << last_lane(v->lane_mask));
        v->var = make_builtin(ctx, inner ? SpvBuiltInTessLevelInner : SpvBuiltInTessLevelOuter,
                              sb_spv_type_array(&ctx->builder, sb_spv_t_f32(ctx), size), 0, v->output, true);
        return true;
    }
    return false;
}

/* Clip/cull lanes of the matching elements of a role (the array length). */
static uint32_t distance_total(struct sb_spv_context *ctx, uint32_t role, uint32_t system_value)
{
    const struct sb_ir_program *p = ctx->program;
    uint32_t n = 0;
    for (uint32_t i = 0; i < p->signature_count; i++) {
        const struct sb_ir_signature_element *e = &p->signature[i];
        if (role_matches(ctx, role, e) && e->system_value == system_value)
            n += sb_spv_mask_count(element_lanes(e));
    }
    return n;
}

static bool role_has_position(const struct sb_spv_context *ctx, uint32_t role)
{
    const struct sb_ir_program *p = ctx->program;
    for (uint32_t i = 0; i < p->signature_count; i++)
        if (role_matches(ctx, role, &p->signature[i]) && p->signature[i].system_value == 1)
            return true;
    return false;
}

/* Text targets: whether an arrayed role's built-ins go into the gl_PerVertex block. */
static bool wants_per_vertex_block(struct sb_spv_context *ctx, uint32_t role, uint32_t outer)
{
    return sb_spv_for_text_target(ctx) && outer &&
           (distance_total(ctx, role, 2) || distance_total(ctx, role, 3));
}

/* The role's gl_PerVertex block array (made on first use: Position, then clip, then cull
 * distances, the members the role has), with v->member set to `builtin`'s member. */
static uint32_t per_vertex_block(struct sb_spv_context *ctx, struct sb_spv_stage_var *v, uint32_t role,
                                 SpvBuiltIn builtin)
{
    struct sb_spv_builder *b = &ctx->builder;
    struct sb_spv_stage_state *s = ctx->stage_state;
    bool out = v->output;
    SpvBuiltIn *builtins = s->per_vertex_members[out];
    if (!s->per_vertex_block[out]) {
        uint32_t members[3], n = 0;
        uint32_t clip = distance_total(ctx, role, 2), cull = distance_total(ctx, role, 3);
        if (role_has_position(ctx, role)) {
            builtins[n] = SpvBuiltInPosition;
            members[n++] = sb_spv_t_fvec(ctx, 4);
        }
        if (clip) {
            builtins[n] = SpvBuiltInClipDistance;
            members[n++] = sb_spv_type_array(b, sb_spv_t_f32(ctx), clip);
        }
        if (cull) {
            builtins[n] = SpvBuiltInCullDistance;
            members[n++] = sb_spv_type_array(b, sb_spv_t_f32(ctx), cull);
        }
        uint32_t block = sb_spv_type_struct_unique(b, members, n);
        sb_spv_decorate(b, block, SpvDecorationBlock, NULL, 0);
        for (uint32_t m = 0; m < n; m++) {
            uint32_t literal = (uint32_t)builtins[m];
            sb_spv_member_decorate(b, block, m, SpvDecorationBuiltIn, &literal, 1);
            sb_spv_io_report_builtin(ctx, out, literal);
        }
        SpvStorageClass sc = out ? SpvStorageClassOutput : SpvStorageClassInput;
        uint32_t type = sb_spv_type_array(b, block, v->outer);
        s->per_vertex_block[out] = sb_spv_variable_global(b, sb_spv_type_pointer(b, sc, type), sc, 0);
        s->per_vertex_member_count[out] = n;
    }
    v->in_block = true;
    for (uint32_t m = 0; m < s->per_vertex_member_count[out]; m++)
        if (builtins[m] == builtin)
            v->member = m;
    return s->per_vertex_block[out];
}

static void declare_distance(struct sb_spv_context *ctx, struct sb_spv_stage_var *v, uint32_t role)
{
    struct sb_spv_stage_state *s = ctx->stage_state;
    bool cull = v->element->system_value == 3;
    uint32_t total = distance_total(ctx, role, v->element->system_value);
    sb_spv_capability(&ctx->builder, cull ? SpvCapabilityCullDistance : SpvCapabilityClipDistance);
    v->shape = SB_SPV_SHAPE_FLOAT_ARRAY;
    v->array_base = s->distance_lanes[v->output][cull];
    s->distance_lanes[v->output][cull] += sb_spv_mask_count(v->lane_mask);
    SpvBuiltIn builtin = cull ? SpvBuiltInCullDistance : SpvBuiltInClipDistance;
    if (wants_per_vertex_block(ctx, role, v->outer))
        v->var = per_vertex_block(ctx, v, role, builtin);
    else
        v->var = make_builtin(ctx, builtin, sb_spv_type_array(&ctx->builder, sb_spv_t_f32(ctx), total ? total : 1),
                              v->outer, v->output, false);
}

uint32_t sb_spv_stage_patch_location_base(const struct sb_ir_program *p)
{
    uint32_t base = 0;
    for (uint32_t i = 0; i < p->signature_count; i++) {
        const struct sb_ir_signature_element *e = &p->signature[i];
        bool control_point = p->stage == SB_IR_STAGE_HULL
                                 ? e->kind == SB_IR_SIGNATURE_OUTPUT && e->file == SB_IR_FILE_OUTPUT
                                 : e->kind == SB_IR_SIGNATURE_INPUT && e->file == SB_IR_FILE_INPUT;
        if (control_point && e->register_index < 4096 && base < e->register_index + 1)
            base = e->register_index + 1;
    }
    return base;
}

/*
 * What D3D itself would refuse, refused here before it reaches a variable: a
 * register past the 32 that every GS/HS/DS input, control point, patch
 * constant and output file has (a damaged index would become a Location
 * that overflows the validator's location space and collides with real
 * ones), a geometry output on a stream past 3, and a position or clip/cull
 * distance among the patch constants (only tess factors are built-ins there; a Position with Patch would also
 * share its variable with the per-vertex Position of a different type).
 */
static enum sb_result check_element(struct sb_spv_context *ctx, uint32_t role,
                                    const struct sb_ir_signature_element *e)
{
    bool output = role_is_output(role);
    struct sb_ir_instruction at;
    memset(&at, 0, sizeof(at));
    at.offset = e->offset; /* the declaration's offset, for the error */
    if (e->register_index >= SB_SPV_STAGE_IO_REGISTERS)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, &at,
                           "%s%s register %u is past the %u registers of the file",
                           role_is_patch(role) ? "patch constant " : "",
                           output ? "output" : "input", e->register_index,
                           SB_SPV_STAGE_IO_REGISTERS);
    if (role == SB_SPV_ROLE_STREAM_OUT && e->stream > 3) /* Location = reg + stream * stride */
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, &at,
                           "output register %u is on stream %u (0-3 exist)", e->register_index,
                           e->stream);
    if (role_is_patch(role) && e->system_value >= 1 && e->system_value <= 3)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, &at,
                           "patch constant %s register %u cannot have system value %u "
                           "(position or clip/cull distance)", output ? "output" : "input",
                           e->register_index, e->system_value);
    return SB_SUCCESS;
}

/* One variable for the lanes `mask` of element `e` (a location spans first..last lane). */
static void declare_lanes(struct sb_spv_context *ctx, uint32_t role, uint32_t outer,
                          const struct sb_ir_signature_element *e, uint32_t stream, uint32_t mask)
{
    struct sb_spv_stage_var *v = add_var(ctx);
    if (!v)
        return;
    v->element = e;
    v->role = role;
    v->reg = e->register_index;
    v->first_lane = first_lane(mask);
    v->lane_count = last_lane(mask) - v->first_lane + 1;
    v->lane_mask = ((1u << v->lane_count) - 1u) << v->first_lane;
    v->ir_type = e->component_type == SB_IR_TYPE_INT || e->component_type == SB_IR_TYPE_UINT
                     ? e->component_type : SB_IR_TYPE_FLOAT;
    v->outer = outer;
    v->stream = stream;
    v->output = role_is_output(role);
    bool builtin_ok = role != SB_SPV_ROLE_STREAM_OUT;
    if (builtin_ok && e->system_value == 1) {
        v->first_lane = 0;
        v->lane_count = 4;
        v->lane_mask = 0xF;
        v->ir_type = SB_IR_TYPE_FLOAT;
        v->var = wants_per_vertex_block(ctx, role, outer)
                     ? per_vertex_block(ctx, v, role, SpvBuiltInPosition)
                     : make_builtin(ctx, SpvBuiltInPosition, sb_spv_t_fvec(ctx, 4), outer, v->output, false);
    } else if (builtin_ok && (e->system_value == 2 || e->system_value == 3)) {
        v->lane_mask = mask;
        declare_distance(ctx, v, role);
    } else if (!(role_is_patch(role) && declare_tess_factor(ctx, v))) {
        declare_location(ctx, v, role);
    }
}

enum sb_result sb_spv_stage_declare_role(struct sb_spv_context *ctx, uint32_t role, uint32_t outer)
{
    const struct sb_ir_program *p = ctx->program;
    if (!sb_spv_stage_state(ctx))
        return ctx->result;
    for (uint32_t i = 0; i < p->signature_count && ctx->result == SB_SUCCESS; i++) {
        const struct sb_ir_signature_element *e = &p->signature[i];
        if (!role_matches(ctx, role, e))
            continue;
        if (check_element(ctx, role, e) != SB_SUCCESS)
            break;
        uint32_t stream = role == SB_SPV_ROLE_STREAM_OUT ? e->stream : 0;
        uint32_t taken = taken_lanes(ctx, role, stream, e->register_index);
        uint32_t mask = element_lanes(e) & ~taken & 0xFu;
        if (!mask)
            continue;
        uint32_t span = ((2u << last_lane(mask)) - 1u) & ~((1u << first_lane(mask)) - 1u);
        if (!(span & taken)) {
            declare_lanes(ctx, role, outer, e, stream, mask);
            continue;
        }
        /* The span would cover lanes an earlier element of the register holds (one
         * location component in two variables): one variable per run of free lanes. */
        for (uint32_t lane = 0; lane < 4 && ctx->result == SB_SUCCESS;) {
            uint32_t run = 0;
            while (lane < 4 && (mask & (1u << lane)))
                run |= 1u << lane++;
            if (run)
                declare_lanes(ctx, role, outer, e, stream, run);
            else
                lane++;
        }
    }
    return ctx->result;
}

/* ---- copies ------------------------------------------------------------------------------------- */

static uint32_t var_pointer(struct sb_spv_context *ctx, const struct sb_spv_stage_var *sv, uint32_t vertex,
                            uint32_t element, uint32_t type)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t idx[3], n = 0;
    if (sv->outer)
        idx[n++] = vertex ? vertex : sb_spv_uint(ctx, 0);
    if (sv->in_block)
        idx[n++] = sb_spv_uint(ctx, sv->member);
    if (sv->shape == SB_SPV_SHAPE_FLOAT_ARRAY)
        idx[n++] = sb_spv_uint(ctx, element);
    SpvStorageClass sc = sv->output ? SpvStorageClassOutput : SpvStorageClassInput;
    if (!n)
        return sv->var;
    return sb_spv_access_chain(b, sb_spv_type_pointer(b, sc, type), sv->var, idx, n);
}

static uint32_t lane_pointer(struct sb_spv_context *ctx, uint32_t reg_ptr, uint32_t lane)
{
    uint32_t l = sb_spv_uint(ctx, lane);
    return sb_spv_access_chain(&ctx->builder, sb_spv_t_ptr_private_f32(ctx), reg_ptr, &l, 1);
}

void sb_spv_stage_copy_in(struct sb_spv_context *ctx, const struct sb_spv_stage_var *sv,
                          uint32_t vertex, uint32_t reg_ptr)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (!sv->var || !reg_ptr)
        return;
    if (sv->shape == SB_SPV_SHAPE_FLOAT_ARRAY) {
        uint32_t k = sv->array_base;
        for (uint32_t lane = 0; lane < 4; lane++) {
            if (!(sv->lane_mask & (1u << lane)))
                continue;
            uint32_t value = sb_spv_load(b, sb_spv_t_f32(ctx), var_pointer(ctx, sv, vertex, k++, sb_spv_t_f32(ctx)));
            sb_spv_store(b, lane_pointer(ctx, reg_ptr, lane), value);
        }
        return;
    }
    uint32_t n = sv->lane_count;
    uint32_t type = sb_spv_type_of(ctx, sv->ir_type, n);
    uint32_t value = sb_spv_load(b, type, var_pointer(ctx, sv, vertex, 0, type));
    value = sb_spv_bitcast(b, sb_spv_t_fvec(ctx, n), type, value);
    if (n == 4) {
        sb_spv_store(b, reg_ptr, value);
        return;
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t lane_value = n == 1 ? value : sb_spv_extract(b, sb_spv_t_f32(ctx), value, k);
        sb_spv_store(b, lane_pointer(ctx, reg_ptr, sv->first_lane + k), lane_value);
    }
}

void sb_spv_stage_copy_out(struct sb_spv_context *ctx, const struct sb_spv_stage_var *sv,
                           uint32_t vertex, uint32_t reg_ptr)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (!sv->var || !reg_ptr)
        return;
    if (sv->shape == SB_SPV_SHAPE_FLOAT_ARRAY) {
        /* A hull shader's tess levels take D3D's factor rules; other float arrays (distances)
         * are copied as they are. */
        bool factor = sv->role == SB_SPV_ROLE_PATCH_OUT && ctx->program->stage == SB_IR_STAGE_HULL;
        bool inner = false;
        for (size_t i = 0; factor && i < sizeof(tess_factors) / sizeof(tess_factors[0]); i++)
            if (tess_factors[i].system_value == sv->element->system_value)
                inner = tess_factors[i].inner;
        uint32_t k = sv->array_base;
        for (uint32_t lane = 0; lane < 4; lane++) {
            if (!(sv->lane_mask & (1u << lane)))
                continue;
            uint32_t value = sb_spv_load(b, sb_spv_t_f32(ctx), lane_pointer(ctx, reg_ptr, lane));
            if (factor)
                value = d3d_tess_factor(ctx, sv->element->system_value, inner, value);
            sb_spv_store(b, var_pointer(ctx, sv, vertex, k++, sb_spv_t_f32(ctx)), value);
        }
        return;
    }
    uint32_t n = sv->lane_count;
    uint32_t type = sb_spv_type_of(ctx, sv->ir_type, n);
    uint32_t value = sb_spv_load(b, sb_spv_t_fvec(ctx, 4), reg_ptr);
    if (n == 1) {
        value = sb_spv_extract(b, sb_spv_t_f32(ctx), value, sv->first_lane);
    } else if (n < 4) {
        uint32_t comps[4];
        for (uint32_t k = 0; k < n; k++)
            comps[k] = sv->first_lane + k;
        value = sb_spv_shuffle(b, sb_spv_t_fvec(ctx, n), value, value, comps, n);
    }
    value = sb_spv_bitcast(b, type, sb_spv_t_fvec(ctx, n), value);
    sb_spv_store(b, var_pointer(ctx, sv, vertex, 0, type), value);
}

void sb_spv_stage_copy_vertices_in(struct sb_spv_context *ctx)
{
    struct sb_spv_stage_state *s = ctx->stage_state;
    if (!s || !ctx->files[SB_IR_FILE_INPUT].var)
        return;
    for (uint32_t v = 0; v < s->vertices; v++) {
        uint32_t vid = sb_spv_uint(ctx, v);
        for (uint32_t i = 0; i < s->var_count; i++) {
            const struct sb_spv_stage_var *sv = &s->vars[i];
            if (sv->role != SB_SPV_ROLE_VERTEX_IN || sv->reg >= ctx->files[SB_IR_FILE_INPUT].count)
                continue;
            sb_spv_stage_copy_in(ctx, sv, vid, sb_spv_stage_register(ctx, SB_IR_FILE_INPUT, vid, sv->reg));
        }
    }
}
