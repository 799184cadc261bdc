/* SPDX-License-Identifier: MIT */
/*
 * Stage inputs and outputs of the SPIR-V back end: every signature element
 * of a core register array (v#, o#, the special one-register files) becomes
 * an Input/Output variable — a Location (+ Component) for user semantics, a
 * BuiltIn for system values — recorded as a "copy" that the prologue of
 * `main` runs from the variable into the register lanes, or the epilogue from
 * the lanes into the variable. The copy kind carries D3D's conventions:
 * SV_Position.w in a pixel shader is 1/FragCoord.w, SV_VertexID and
 * SV_InstanceID exclude the base vertex/instance, SV_IsFrontFace is
 * 0xFFFFFFFF/0, clip/cull distances packed in register lanes go to one
 * ClipDistance/CullDistance array (../shared/docs/sm4-tokens.md §8.1, IR.md §Signatures).
 *
 * Direct files (spirv_private.h) run the same copies without the arrays, in
 * spirv_io_direct.c (below spirv_operand.c, which stores through it).
 */
#include "spirv_io_private.h"

#include <stdlib.h>
#include <string.h>

static struct io_state *state(struct sb_spv_context *ctx)
{
    if (!ctx->io_state)
        ctx->io_state = sb_spv_zalloc(ctx, 1, sizeof(struct io_state));
    if (!ctx->io_state)
        sb_spv_fail(ctx, SB_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    return ctx->io_state;
}

static struct io_copy *add_copy(struct sb_spv_context *ctx)
{
    struct io_state *s = state(ctx);
    if (!s)
        return NULL;
    struct io_copy *copies = sb_spv_grow(ctx, s->copies, s->count, &s->capacity, sizeof(*copies), 16);
    if (!copies)
        return NULL;
    s->copies = copies;
    struct io_copy *c = &s->copies[s->count++];
    memset(c, 0, sizeof(*c));
    return c;
}

/* ---- reports ---------------------------------------------------------------------------- */

void sb_spv_io_report(struct sb_spv_context *ctx, bool output, const struct sb_translated_interface *entry)
{
    struct sb_spv_interface_list *l = output ? &ctx->outputs : &ctx->inputs;
    struct sb_translated_interface *items =
        sb_spv_grow(ctx, l->items, l->count, &l->capacity, sizeof(*items), 8);
    if (items) {
        l->items = items;
        l->items[l->count++] = *entry;
    }
}

void sb_spv_io_report_builtin(struct sb_spv_context *ctx, bool output, uint32_t builtin)
{
    struct sb_spv_u32_list *l = output ? &ctx->builtin_outputs : &ctx->builtin_inputs;
    for (uint32_t i = 0; i < l->count; i++)
        if (l->items[i] == builtin)
            return;
    uint32_t *items = sb_spv_grow(ctx, l->items, l->count, &l->capacity, sizeof(*items), 8);
    if (items) {
        l->items = items;
        l->items[l->count++] = builtin;
    }
}

uint32_t sb_spv_io_builtin(struct sb_spv_context *ctx, SpvStorageClass storage, SpvBuiltIn builtin,
                           uint32_t type)
{
    struct sb_spv_builder *b = &ctx->builder;
    struct io_state *s = state(ctx);
    bool output = storage == SpvStorageClassOutput;
    if (!s)
        return 0;
    for (uint32_t i = 0; i < s->builtin_count; i++)
        if (s->builtins[i].builtin == (uint32_t)builtin && s->builtins[i].output == output)
            return s->builtins[i].var;
    uint32_t var = sb_spv_variable_global(b, sb_spv_type_pointer(b, storage, type), storage, 0);
    sb_spv_decorate1(b, var, SpvDecorationBuiltIn, (uint32_t)builtin);
    if (s->builtin_count < 64) {
        s->builtins[s->builtin_count].builtin = (uint32_t)builtin;
        s->builtins[s->builtin_count].var = var;
        s->builtins[s->builtin_count].output = output;
        s->builtin_count++;
    }
    sb_spv_io_report_builtin(ctx, output, (uint32_t)builtin);
    return var;
}

/* ---- declaration ------------------------------------------------------------------------------ */

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

static uint32_t component_view(uint32_t component_type)
{
    return component_type == SB_IR_TYPE_INT || component_type == SB_IR_TYPE_UINT ? component_type
                                                                                  : SB_IR_TYPE_FLOAT;
}

static void decorate_interpolation(struct sb_spv_context *ctx, uint32_t var,
                                   const struct sb_ir_signature_element *e)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (ctx->program->stage != SB_IR_STAGE_PIXEL)
        return;
    if (component_view(e->component_type) != SB_IR_TYPE_FLOAT ||
        e->interpolation == SB_IR_INTERP_CONSTANT) {
        sb_spv_decorate(b, var, SpvDecorationFlat, NULL, 0);
        return;
    }
    switch (e->interpolation) {
    case SB_IR_INTERP_LINEAR_CENTROID:
        sb_spv_decorate(b, var, SpvDecorationCentroid, NULL, 0);
        break;
    case SB_IR_INTERP_LINEAR_NOPERSPECTIVE:
        sb_spv_decorate(b, var, SpvDecorationNoPerspective, NULL, 0);
        break;
    case SB_IR_INTERP_LINEAR_NOPERSPECTIVE_CENTROID:
        sb_spv_decorate(b, var, SpvDecorationNoPerspective, NULL, 0);
        sb_spv_decorate(b, var, SpvDecorationCentroid, NULL, 0);
        break;
    case SB_IR_INTERP_LINEAR_SAMPLE:
        sb_spv_capability(b, SpvCapabilitySampleRateShading);
        sb_spv_decorate(b, var, SpvDecorationSample, NULL, 0);
        break;
    case SB_IR_INTERP_LINEAR_NOPERSPECTIVE_SAMPLE:
        sb_spv_capability(b, SpvCapabilitySampleRateShading);
        sb_spv_decorate(b, var, SpvDecorationNoPerspective, NULL, 0);
        sb_spv_decorate(b, var, SpvDecorationSample, NULL, 0);
        break;
    default:
        break;
    }
}

/* A user-semantic element: Location = register, Component = first lane. */
static void declare_location(struct sb_spv_context *ctx, const struct sb_ir_signature_element *e,
                             bool output, uint32_t mask)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t first = first_lane(mask), n = last_lane(mask) - first + 1;
    uint32_t view = component_view(e->component_type);
    SpvStorageClass sc = output ? SpvStorageClassOutput : SpvStorageClassInput;
    uint32_t var = sb_spv_variable_global(b, sb_spv_type_pointer(b, sc, sb_spv_type_of(ctx, view, n)),
                                          sc, 0);
    sb_spv_decorate1(b, var, SpvDecorationLocation, e->register_index);
    if (first)
        sb_spv_decorate1(b, var, SpvDecorationComponent, first);
    if (!output)
        decorate_interpolation(ctx, var, e);
    if (ctx->debug_info && e->semantic && e->semantic[0])
        sb_spv_debug_name(ctx, var, e->semantic);
    struct io_copy *c = add_copy(ctx);
    if (c) {
        c->kind = IO_PLAIN;
        c->output = output;
        c->var = var;
        c->file = e->file;
        c->reg = e->register_index;
        c->first_lane = first;
        c->lane_count = n;
        c->lane_mask = ((1u << n) - 1u) << first;
        c->ir_type = view;
    }
    struct sb_translated_interface entry;
    memset(&entry, 0, sizeof(entry));
    entry.location = e->register_index;
    entry.component = first;
    entry.component_count = n;
    entry.component_type = view;
    entry.interpolation = output ? 0 : e->interpolation;
    entry.semantic = e->semantic;
    entry.semantic_index = e->semantic_index;
    sb_spv_io_report(ctx, output, &entry);
}

static struct io_copy *builtin_copy(struct sb_spv_context *ctx, const struct sb_ir_signature_element *e,
                                    bool output, uint32_t kind, uint32_t var, uint32_t ir_type)
{
    struct io_copy *c = add_copy(ctx);
    if (!c)
        return NULL;
    c->kind = kind;
    c->output = output;
    c->var = var;
    c->file = e->file;
    c->reg = e->file == SB_IR_FILE_INPUT || e->file == SB_IR_FILE_OUTPUT ? e->register_index : 0;
    c->lane_mask = e->mask ? e->mask : 1u;
    c->first_lane = first_lane(c->lane_mask);
    c->lane_count = last_lane(c->lane_mask) - c->first_lane + 1;
    c->ir_type = ir_type;
    return c;
}

/* A one-lane integer built-in (optionally minus a base built-in). */
/* An instruction that stands for the declaration of `e`, so a refusal points at its byte offset. */
static struct sb_ir_instruction declared_at(const struct sb_ir_signature_element *e)
{
    struct sb_ir_instruction at;
    memset(&at, 0, sizeof(at));
    at.offset = e->offset;
    return at;
}

static enum sb_result int_builtin(struct sb_spv_context *ctx, const struct sb_ir_signature_element *e,
                                  bool output, SpvBuiltIn builtin, SpvBuiltIn base, uint32_t ir_type)
{
    SpvStorageClass sc = output ? SpvStorageClassOutput : SpvStorageClassInput;
    uint32_t type = sb_spv_type_of(ctx, ir_type, 1);
    uint32_t var = sb_spv_io_builtin(ctx, sc, builtin, type);
    struct io_copy *c = builtin_copy(ctx, e, output, IO_INT_BUILTIN, var, ir_type);
    if (c) {
        c->lane_mask = 1u << c->first_lane;
        c->lane_count = 1;
        if (base != (SpvBuiltIn)0)
            c->base_var = sb_spv_io_builtin(ctx, sc, base, type);
    }
    /* Integer inputs of a fragment shader must be Flat (Vulkan). */
    if (!output && ctx->execution_model == SpvExecutionModelFragment)
        sb_spv_decorate(&ctx->builder, var, SpvDecorationFlat, NULL, 0);
    return ctx->result;
}

/* vViewID, vHelperLane, SV_Barycentrics, SV_ShadingRate: the built-in spirv_sysvals.c picks. */
static enum sb_result declare_sysval(struct sb_spv_context *ctx, const struct sb_ir_signature_element *e,
                                     bool output)
{
    struct sb_spv_sysval sv;
    if (!sb_spv_sysval_builtin(ctx, e, output, &sv))
        return ctx->result;
    if (sv.shape == SB_SPV_SYSVAL_UINT || sv.shape == SB_SPV_SYSVAL_INT)
        return int_builtin(ctx, e, output, sv.builtin, (SpvBuiltIn)0,
                           sv.shape == SB_SPV_SYSVAL_INT ? SB_IR_TYPE_INT : SB_IR_TYPE_UINT);
    bool boolean = sv.shape == SB_SPV_SYSVAL_BOOL;
    uint32_t var = sb_spv_io_builtin(ctx, SpvStorageClassInput, sv.builtin,
                                     boolean ? sb_spv_t_bool(ctx) : sb_spv_t_fvec(ctx, 3));
    if (sv.decorate_volatile)
        sb_spv_decorate(&ctx->builder, var, SpvDecorationVolatile, NULL, 0);
    struct io_copy *c = builtin_copy(ctx, e, false, boolean ? IO_FRONT_FACING : IO_PLAIN, var,
                                     boolean ? SB_IR_TYPE_BOOL : SB_IR_TYPE_FLOAT);
    if (c) { /* lane i of the built-in is lane i of the register, whatever the mask */
        c->first_lane = 0;
        c->lane_mask = boolean ? 0x1 : 0x7;
        c->lane_count = boolean ? 1 : 3;
    }
    return ctx->result;
}

static void draw_parameters(struct sb_spv_context *ctx)
{
    struct io_state *s = state(ctx);
    if (!s || s->draw_parameters)
        return;
    s->draw_parameters = true;
    sb_spv_capability(&ctx->builder, SpvCapabilityDrawParameters);
    if (ctx->spirv_version < 0x00010300)
        sb_spv_extension(&ctx->builder, "SPV_KHR_shader_draw_parameters");
}

/* Clip/cull distances: the element's lanes take the next entries of one array. */
static void distance_element(struct sb_spv_context *ctx, const struct sb_ir_signature_element *e,
                             bool output, bool cull)
{
    struct io_state *s = state(ctx);
    if (!s)
        return;
    uint32_t *lanes = cull ? &s->cull_lanes[output] : &s->clip_lanes[output];
    struct io_copy *c = builtin_copy(ctx, e, output, IO_DISTANCE, 0, SB_IR_TYPE_FLOAT);
    if (!c)
        return;
    c->array_base = *lanes;
    *lanes += sb_spv_mask_count(c->lane_mask);
    c->array_size = cull ? 1 : 0; /* marks which array until sizes are known */
}

/* After every element is known, the arrays get their final sizes. */
static void finish_distances(struct sb_spv_context *ctx)
{
    struct sb_spv_builder *b = &ctx->builder;
    struct io_state *s = ctx->io_state;
    if (!s)
        return;
    for (int output = 0; output < 2; output++)
        for (int cull = 0; cull < 2; cull++) {
            uint32_t lanes = cull ? s->cull_lanes[output] : s->clip_lanes[output];
            if (!lanes)
                continue;
            sb_spv_capability(b, cull ? SpvCapabilityCullDistance : SpvCapabilityClipDistance);
            SpvStorageClass sc = output ? SpvStorageClassOutput : SpvStorageClassInput;
            uint32_t var = sb_spv_io_builtin(ctx, sc,
                                             cull ? SpvBuiltInCullDistance : SpvBuiltInClipDistance,
                                             sb_spv_type_array(b, sb_spv_t_f32(ctx), lanes));
            for (uint32_t i = 0; i < s->count; i++) {
                struct io_copy *c = &s->copies[i];
                if (c->kind == IO_DISTANCE && c->output == (output != 0) && !c->var &&
                    (c->array_size != 0) == (cull != 0)) {
                    c->var = var;
                    c->array_size = lanes;
                }
            }
        }
}

/* A signature element with a D3D system value (§8.1). */
static enum sb_result declare_system_value(struct sb_spv_context *ctx,
                                           const struct sb_ir_signature_element *e, bool output)
{
    struct sb_spv_builder *b = &ctx->builder;
    bool pixel = ctx->execution_model == SpvExecutionModelFragment;
    SpvStorageClass sc = output ? SpvStorageClassOutput : SpvStorageClassInput;
    switch (e->system_value) {
    case 1: /* position */
        if (pixel && !output) {
            uint32_t var = sb_spv_io_builtin(ctx, sc, SpvBuiltInFragCoord, sb_spv_t_fvec(ctx, 4));
            /* D3D runs a shader whose SV_Position is sample-interpolated once per sample, with the
             * sample's position; say so on FragCoord (a runtime takes it as the request for
             * sample shading: drivers do not, unlike on user inputs). */
            if (e->interpolation == SB_IR_INTERP_LINEAR_SAMPLE ||
                e->interpolation == SB_IR_INTERP_LINEAR_NOPERSPECTIVE_SAMPLE) {
                sb_spv_capability(b, SpvCapabilitySampleRateShading);
                sb_spv_decorate(b, var, SpvDecorationSample, NULL, 0);
            }
            struct io_copy *c = builtin_copy(ctx, e, false, IO_FRAG_COORD, var, SB_IR_TYPE_FLOAT);
            if (c) { /* the whole vec4 (lane i of FragCoord is lane i of v#), whatever the mask */
                c->first_lane = 0;
                c->lane_count = 4;
            }
        } else {
            uint32_t var = sb_spv_io_builtin(ctx, sc, SpvBuiltInPosition, sb_spv_t_fvec(ctx, 4));
            struct io_copy *c = builtin_copy(ctx, e, output, IO_PLAIN, var, SB_IR_TYPE_FLOAT);
            if (c) {
                c->first_lane = 0;
                c->lane_count = 4;
            }
        }
        return ctx->result;
    case 2: case 3:
        distance_element(ctx, e, output, e->system_value == 3);
        return ctx->result;
    case 4: /* render-target array index */
        if (!pixel) {
            if (ctx->spirv_version >= 0x00010500) {
                sb_spv_capability(b, SpvCapabilityShaderLayer);
            } else {
                sb_spv_capability(b, SpvCapabilityShaderViewportIndexLayerEXT);
                sb_spv_extension(b, "SPV_EXT_shader_viewport_index_layer");
            }
        } else {
            sb_spv_capability(b, SpvCapabilityGeometry);
        }
        return int_builtin(ctx, e, output, SpvBuiltInLayer, (SpvBuiltIn)0, SB_IR_TYPE_UINT);
    case 5: /* viewport array index */
        if (!pixel) {
            if (ctx->spirv_version >= 0x00010500) {
                sb_spv_capability(b, SpvCapabilityShaderViewportIndex);
            } else {
                sb_spv_capability(b, SpvCapabilityShaderViewportIndexLayerEXT);
                sb_spv_extension(b, "SPV_EXT_shader_viewport_index_layer");
            }
        } else {
            sb_spv_capability(b, SpvCapabilityMultiViewport);
        }
        return int_builtin(ctx, e, output, SpvBuiltInViewportIndex, (SpvBuiltIn)0, SB_IR_TYPE_UINT);
    case 6: /* vertex id */
        draw_parameters(ctx);
        return int_builtin(ctx, e, output, SpvBuiltInVertexIndex, SpvBuiltInBaseVertex, SB_IR_TYPE_INT);
    case 8: /* instance id */
        draw_parameters(ctx);
        return int_builtin(ctx, e, output, SpvBuiltInInstanceIndex, SpvBuiltInBaseInstance,
                           SB_IR_TYPE_INT);
    case 7: /* primitive id */
        sb_spv_capability(b, SpvCapabilityGeometry);
        return int_builtin(ctx, e, output, SpvBuiltInPrimitiveId, (SpvBuiltIn)0, SB_IR_TYPE_INT);
    case 9: { /* is front face */
        uint32_t var = sb_spv_io_builtin(ctx, sc, SpvBuiltInFrontFacing, sb_spv_t_bool(ctx));
        struct io_copy *c = builtin_copy(ctx, e, output, IO_FRONT_FACING, var, SB_IR_TYPE_BOOL);
        if (c) {
            c->lane_mask = 1u << c->first_lane;
            c->lane_count = 1;
        }
        return ctx->result;
    }
    case 10: /* sample index */
        sb_spv_capability(b, SpvCapabilitySampleRateShading);
        return int_builtin(ctx, e, output, SpvBuiltInSampleId, (SpvBuiltIn)0, SB_IR_TYPE_INT);
    case 23: case 24: /* barycentrics, shading rate */
        return declare_sysval(ctx, e, output);
    default: {
        struct sb_ir_instruction at = declared_at(e);
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, &at,
                           "system value %u of %s register %u is not supported in this stage",
                           e->system_value, output ? "output" : "input", e->register_index);
    }
    }
}

/* An element of a special one-register file (vThreadID, oDepth, ...). */
static enum sb_result declare_special(struct sb_spv_context *ctx, const struct sb_ir_signature_element *e)
{
    struct sb_spv_builder *b = &ctx->builder;
    SpvBuiltIn uvec3_builtin;
    switch (e->file) {
    case SB_IR_FILE_THREAD_ID: uvec3_builtin = SpvBuiltInGlobalInvocationId; break;
    case SB_IR_FILE_THREAD_GROUP_ID: uvec3_builtin = SpvBuiltInWorkgroupId; break;
    case SB_IR_FILE_THREAD_ID_IN_GROUP: uvec3_builtin = SpvBuiltInLocalInvocationId; break;
    case SB_IR_FILE_THREAD_ID_IN_GROUP_FLATTENED:
        return int_builtin(ctx, e, false, SpvBuiltInLocalInvocationIndex, (SpvBuiltIn)0,
                           SB_IR_TYPE_UINT);
    case SB_IR_FILE_PRIMITIVE_ID:
        if (ctx->execution_model == SpvExecutionModelFragment ||
            ctx->execution_model == SpvExecutionModelGeometry)
            sb_spv_capability(b, SpvCapabilityGeometry);
        else
            sb_spv_capability(b, SpvCapabilityTessellation);
        return int_builtin(ctx, e, false, SpvBuiltInPrimitiveId, (SpvBuiltIn)0, SB_IR_TYPE_INT);
    case SB_IR_FILE_COVERAGE_IN:
    case SB_IR_FILE_COVERAGE_OUT: {
        bool output = e->file == SB_IR_FILE_COVERAGE_OUT;
        uint32_t var = sb_spv_io_builtin(ctx, output ? SpvStorageClassOutput : SpvStorageClassInput,
                                         SpvBuiltInSampleMask, sb_spv_type_array(b, sb_spv_t_u32(ctx), 1));
        if (!output)
            sb_spv_decorate(b, var, SpvDecorationFlat, NULL, 0);
        struct io_copy *c = builtin_copy(ctx, e, output, IO_SAMPLE_MASK, var, SB_IR_TYPE_UINT);
        if (c) {
            c->first_lane = 0;
            c->lane_mask = 1;
            c->lane_count = 1;
        }
        return ctx->result;
    }
    case SB_IR_FILE_DEPTH:
    case SB_IR_FILE_DEPTH_GREATER_EQUAL:
    case SB_IR_FILE_DEPTH_LESS_EQUAL: {
        uint32_t var = sb_spv_io_builtin(ctx, SpvStorageClassOutput, SpvBuiltInFragDepth, sb_spv_t_f32(ctx));
        struct io_copy *c = builtin_copy(ctx, e, true, IO_PLAIN, var, SB_IR_TYPE_FLOAT);
        if (c) {
            c->first_lane = 0;
            c->lane_mask = 1;
            c->lane_count = 1;
        }
        return ctx->result;
    }
    case SB_IR_FILE_INNER_COVERAGE: {
        /* Vulkan's FullyCoveredEXT (VK_EXT_conservative_rasterization): the runtime turns
         * conservative rasterization on for a module that reads it, and refuses the module on
         * a device without the extension (vk_capability.c) at this declaration (the
         * capability's origin). A described device without it is refused here already:
         * nothing else in Vulkan says whether a pixel is fully covered. */
        const struct sb_device_profile *d = &ctx->options->device;
        if (d->described && !d->fragment_fully_covered) {
            struct sb_ir_instruction at = declared_at(e);
            return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, &at,
                               "vInnerCoverage (SV_InnerCoverage) needs FullyCoveredEXT "
                               "(VK_EXT_conservative_rasterization fullyCoveredFragmentShaderInputVariable), "
                               "which the device lacks");
        }
        sb_spv_capability(b, SpvCapabilityFragmentFullyCoveredEXT);
        sb_spv_extension(b, "SPV_EXT_fragment_fully_covered");
        uint32_t var = sb_spv_io_builtin(ctx, SpvStorageClassInput, SpvBuiltInFullyCoveredEXT, sb_spv_t_bool(ctx));
        struct io_copy *c = builtin_copy(ctx, e, false, IO_FULLY_COVERED, var, SB_IR_TYPE_UINT);
        if (c) {
            c->first_lane = 0;
            c->lane_mask = 1;
            c->lane_count = 1;
        }
        return ctx->result;
    }
    case SB_IR_FILE_STENCIL_REF:
        sb_spv_capability(b, SpvCapabilityStencilExportEXT);
        sb_spv_extension(b, "SPV_EXT_shader_stencil_export");
        return int_builtin(ctx, e, true, SpvBuiltInFragStencilRefEXT, (SpvBuiltIn)0, SB_IR_TYPE_INT);
    case SB_IR_FILE_VIEW_ID: case SB_IR_FILE_HELPER_LANE:
    case SB_IR_FILE_BASE_VERTEX: case SB_IR_FILE_BASE_INSTANCE:
        return declare_sysval(ctx, e, false);
    case SB_IR_FILE_GS_INSTANCE_ID: case SB_IR_FILE_DOMAIN_POINT:
    case SB_IR_FILE_OUTPUT_CONTROL_POINT_ID: case SB_IR_FILE_FORK_INSTANCE_ID:
    case SB_IR_FILE_JOIN_INSTANCE_ID:
        return SB_SUCCESS; /* the stage hooks fill these */
    default: {
        struct sb_ir_instruction at = declared_at(e);
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, &at,
                           "special register %s is not supported", sb_ir_file_name(e->file));
    }
    }
    uint32_t var = sb_spv_io_builtin(ctx, SpvStorageClassInput, uvec3_builtin, sb_spv_t_uvec(ctx, 3));
    struct io_copy *c = builtin_copy(ctx, e, false, IO_UVEC3, var, SB_IR_TYPE_UINT);
    if (c) {
        c->first_lane = 0;
        c->lane_mask = 7;
        c->lane_count = 3;
    }
    return ctx->result;
}

enum element_role { ROLE_LOCATION, ROLE_BUILTIN, ROLE_INVALID };

/*
 * What a v#/o# element's system value (§8.1) means in this stage: vertex
 * inputs are attributes whatever their name (only vertex/instance id are
 * built-ins); pixel outputs are render targets; a value the stage cannot
 * have (a vertex id output, a pixel-shader position output, any v#/o# of a
 * compute shader) is invalid input.
 */
static enum element_role system_value_role(const struct sb_spv_context *ctx,
                                           const struct sb_ir_signature_element *e, bool output)
{
    uint32_t sv = e->system_value;
    bool pixel = ctx->execution_model == SpvExecutionModelFragment;
    if (ctx->execution_model == SpvExecutionModelGLCompute)
        return ROLE_INVALID; /* compute shaders have no v#/o# */
    if (sv == 0 || sv == 64 /* D3D_NAME_TARGET */)
        return ROLE_LOCATION;
    if (ctx->execution_model == SpvExecutionModelVertex && !output)
        return sv == 6 || sv == 8 ? ROLE_BUILTIN : ROLE_LOCATION;
    if (pixel && output)
        return ROLE_INVALID;
    if (output)
        return (sv >= 1 && sv <= 5) || (sv == 7 && ctx->execution_model == SpvExecutionModelGeometry) ||
                       sv == 24 /* shading rate */
                   ? ROLE_BUILTIN : ROLE_INVALID;
    if (pixel)
        return sv == 6 || sv == 8 ? ROLE_LOCATION : ROLE_BUILTIN; /* passed-through ids: flat */
    return ROLE_BUILTIN;
}

static bool is_depth_file(uint32_t file)
{
    return file == SB_IR_FILE_DEPTH || file == SB_IR_FILE_DEPTH_GREATER_EQUAL ||
           file == SB_IR_FILE_DEPTH_LESS_EQUAL;
}

/*
 * A pixel shader has one depth output: oDepth, oDepthGE or oDepthLE (D3D).
 * Two kinds (a damaged operand type) would give FragDepth both DepthGreater
 * and DepthLess, which SPIR-V forbids: refused at the declaration or write
 * that brings in the second kind.
 */
static enum sb_result check_depth_outputs(struct sb_spv_context *ctx)
{
    const struct sb_ir_program *p = ctx->program;
    uint32_t first = SB_IR_FILE_COUNT;
    struct sb_ir_instruction at;
    memset(&at, 0, sizeof(at));
    for (uint32_t i = 0; i < p->signature_count; i++) {
        const struct sb_ir_signature_element *e = &p->signature[i];
        if (!is_depth_file(e->file))
            continue;
        if (first == SB_IR_FILE_COUNT)
            first = e->file;
        at.offset = e->offset;
        if (e->file != first)
            return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, &at,
                               "a pixel shader declares two kinds of depth output");
    }
    /* Only an instruction that writes a depth file can bring in a second kind; the operand
     * scan of sb_spv_registers_declare (which runs first) knows whether any does. */
    const uint64_t depth_files = 1ull << SB_IR_FILE_DEPTH | 1ull << SB_IR_FILE_DEPTH_GREATER_EQUAL |
                                 1ull << SB_IR_FILE_DEPTH_LESS_EQUAL;
    if (!(ctx->files_written & depth_files))
        return SB_SUCCESS;
    for (uint32_t f = 0; f < p->function_count; f++)
        for (uint32_t i = 0; i < p->functions[f].instruction_count; i++) {
            const struct sb_ir_instruction *inst = &p->functions[f].instructions[i];
            for (uint32_t d = 0; d < inst->dst_count; d++) {
                if (!is_depth_file(inst->dst[d].file))
                    continue;
                if (first == SB_IR_FILE_COUNT)
                    first = inst->dst[d].file;
                if (inst->dst[d].file != first)
                    return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst,
                                       "a pixel shader writes two kinds of depth output");
            }
        }
    return SB_SUCCESS;
}

enum sb_result sb_spv_io_declare(struct sb_spv_context *ctx)
{
    const struct sb_ir_program *p = ctx->program;
    if (ctx->execution_model == SpvExecutionModelFragment && check_depth_outputs(ctx) != SB_SUCCESS)
        return ctx->result;
    /* Lanes already given a variable, per (input/output, register), so a register
     * declared twice (dcl_input and a packed signature) gets one variable per lane. */
    /* On the stack for the usual 64 registers or fewer: no allocation per module. */
    uint8_t taken_small[2][64];
    uint8_t *taken[2] = { NULL, NULL };
    uint32_t reg_count[2] = { ctx->files[SB_IR_FILE_INPUT].count, ctx->files[SB_IR_FILE_OUTPUT].count };
    for (int i = 0; i < 2; i++) {
        if (reg_count[i] <= 64) {
            memset(taken_small[i], 0, sizeof(taken_small[i]));
            taken[i] = taken_small[i];
            continue;
        }
        taken[i] = sb_spv_zalloc(ctx, reg_count[i], 1);
        if (!taken[i])
            return sb_spv_fail(ctx, SB_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    }
    for (uint32_t i = 0; i < p->signature_count && ctx->result == SB_SUCCESS; i++) {
        const struct sb_ir_signature_element *e = &p->signature[i];
        if (e->file >= SB_IR_FILE_COUNT || !sb_spv_file_declared(&ctx->files[e->file]) || ctx->files[e->file].outer ||
            e->kind == SB_IR_SIGNATURE_PATCH)
            continue;
        ctx->builder.origin = e->offset; /* what a built-in's capability is reported against */
        if (e->file != SB_IR_FILE_INPUT && e->file != SB_IR_FILE_OUTPUT) {
            declare_special(ctx, e);
            continue;
        }
        bool output = e->file == SB_IR_FILE_OUTPUT;
        if (e->register_index >= reg_count[output])
            continue;
        uint8_t *t = &taken[output][e->register_index];
        uint32_t mask = (e->mask ? e->mask : 0xFu) & ~*t & 0xFu;
        if (!mask)
            continue;
        *t |= (uint8_t)mask;
        switch (system_value_role(ctx, e, output)) {
        case ROLE_BUILTIN:
            declare_system_value(ctx, e, output);
            break;
        case ROLE_INVALID: {
            struct sb_ir_instruction at; /* the declaration's offset, for the error */
            memset(&at, 0, sizeof(at));
            at.offset = e->offset;
            sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, &at,
                        "%s register %u (system value %u) cannot be %s in this stage",
                        output ? "output" : "input", e->register_index, e->system_value,
                        output ? "written" : "read");
            break;
        }
        default:
            /* One variable per run of adjacent lanes: lanes taken by an earlier
             * element must not be covered again (Vulkan location/component rule). */
            for (uint32_t lane = 0; lane < 4;) {
                if (!(mask & (1u << lane))) {
                    lane++;
                    continue;
                }
                uint32_t run = 0;
                while (lane + run < 4 && (mask & (1u << (lane + run))))
                    run++;
                declare_location(ctx, e, output, ((1u << run) - 1u) << lane);
                lane += run;
            }
            break;
        }
    }
    ctx->builder.origin = SB_SPV_NO_ORIGIN;
    finish_distances(ctx);
    return ctx->result;
}

/* ---- prologue / epilogue ------------------------------------------------------------------------- */

/* Pointer to register `reg` of a core file (vec4). */
static uint32_t file_register(struct sb_spv_context *ctx, uint32_t file, uint32_t reg)
{
    uint32_t idx = sb_spv_uint(ctx, reg);
    return sb_spv_access_chain(&ctx->builder, sb_spv_t_ptr_private_vec4(ctx), ctx->files[file].var, &idx, 1);
}

static void store_lane(struct sb_spv_context *ctx, uint32_t reg_ptr, uint32_t lane, uint32_t f)
{
    uint32_t l = sb_spv_uint(ctx, lane);
    sb_spv_store(&ctx->builder,
                 sb_spv_access_chain(&ctx->builder, sb_spv_t_ptr_private_f32(ctx), reg_ptr, &l, 1), f);
}

static uint32_t load_lane(struct sb_spv_context *ctx, uint32_t reg_ptr, uint32_t lane)
{
    uint32_t l = sb_spv_uint(ctx, lane);
    return sb_spv_load(&ctx->builder, sb_spv_t_f32(ctx),
                       sb_spv_access_chain(&ctx->builder, sb_spv_t_ptr_private_f32(ctx), reg_ptr, &l, 1));
}

static void copy_in(struct sb_spv_context *ctx, const struct io_copy *c)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t reg = file_register(ctx, c->file, c->reg);
    uint32_t n;
    if (c->kind == IO_DISTANCE) {
        uint32_t k = c->array_base;
        for (uint32_t lane = 0; lane < 4; lane++)
            if (c->lane_mask & (1u << lane))
                store_lane(ctx, reg, lane, sb_spv_io_distance_input(ctx, c, k++));
        return;
    }
    uint32_t value = sb_spv_io_input_value(ctx, c, &n);
    if (n == 1) {
        store_lane(ctx, reg, c->first_lane, value);
        return;
    }
    uint32_t want = (c->lane_mask >> c->first_lane) & ((1u << n) - 1u);
    if (n == 4 && want == 0xF) {
        sb_spv_store(b, reg, value);
        return;
    }
    /* Merge the lanes into the register: one load, one shuffle, one store. */
    uint32_t old = sb_spv_load(b, sb_spv_t_fvec(ctx, 4), reg), comps[4];
    sb_spv_io_merge_components(c, n, comps);
    sb_spv_store(b, reg, sb_spv_op_result(b, SpvOpVectorShuffle, sb_spv_t_fvec(ctx, 4),
                                          (const uint32_t[]){ old, value, comps[0], comps[1], comps[2],
                                                              comps[3] }, 6));
}

static void copy_out(struct sb_spv_context *ctx, const struct io_copy *c)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t reg = file_register(ctx, c->file, c->reg);
    uint32_t n = c->lane_count;
    switch (c->kind) {
    case IO_DISTANCE: {
        uint32_t k = c->array_base;
        for (uint32_t lane = 0; lane < 4; lane++) {
            if (!(c->lane_mask & (1u << lane)))
                continue;
            uint32_t idx = sb_spv_uint(ctx, k++);
            uint32_t p = sb_spv_access_chain(
                b, sb_spv_type_pointer(b, SpvStorageClassOutput, sb_spv_t_f32(ctx)), c->var, &idx, 1);
            sb_spv_store(b, p, load_lane(ctx, reg, lane));
        }
        return;
    }
    case IO_SAMPLE_MASK: {
        uint32_t zero = sb_spv_uint(ctx, 0);
        uint32_t p = sb_spv_access_chain(b, sb_spv_type_pointer(b, SpvStorageClassOutput, sb_spv_t_u32(ctx)),
                                         c->var, &zero, 1);
        sb_spv_store(b, p, sb_spv_op1(b, SpvOpBitcast, sb_spv_t_u32(ctx), load_lane(ctx, reg, c->first_lane)));
        return;
    }
    case IO_INT_BUILTIN: {
        uint32_t type = sb_spv_type_of(ctx, c->ir_type, 1);
        sb_spv_store(b, c->var, sb_spv_op1(b, SpvOpBitcast, type, load_lane(ctx, reg, c->first_lane)));
        return;
    }
    default: {
        uint32_t value;
        if (n == 1) {
            value = load_lane(ctx, reg, c->first_lane);
        } else {
            uint32_t v = sb_spv_load(b, sb_spv_t_fvec(ctx, 4), reg);
            if (n == 4) {
                value = v;
            } else {
                uint32_t comps[4];
                for (uint32_t k = 0; k < n; k++)
                    comps[k] = c->first_lane + k;
                value = sb_spv_shuffle(b, sb_spv_t_fvec(ctx, n), v, v, comps, n);
            }
        }
        uint32_t type = sb_spv_type_of(ctx, c->ir_type, n);
        sb_spv_store(b, c->var, sb_spv_bitcast(b, type, sb_spv_t_fvec(ctx, n), value));
        return;
    }
    }
}

/* A copy the prologue or epilogue runs: its file has an array (direct files have none). */
static bool copied(const struct sb_spv_context *ctx, const struct io_copy *c)
{
    return c->var && !ctx->files[c->file].direct;
}

void sb_spv_io_prologue(struct sb_spv_context *ctx)
{
    struct io_state *s = ctx->io_state;
    for (uint32_t i = 0; s && i < s->count; i++)
        if (!s->copies[i].output && copied(ctx, &s->copies[i]))
            copy_in(ctx, &s->copies[i]);
}

void sb_spv_io_epilogue(struct sb_spv_context *ctx)
{
    struct io_state *s = ctx->io_state;
    for (uint32_t i = 0; s && i < s->count; i++)
        if (s->copies[i].output && copied(ctx, &s->copies[i]))
            copy_out(ctx, &s->copies[i]);
}

bool sb_spv_io_body_is_main(const struct sb_spv_context *ctx)
{
    const struct sb_ir_program *p = ctx->program;
    const struct io_state *s = ctx->io_state;
    if (ctx->pixel_interlock || p->function_count != 1 ||
        (p->stage != SB_IR_STAGE_VERTEX && p->stage != SB_IR_STAGE_PIXEL && p->stage != SB_IR_STAGE_COMPUTE))
        return false;
    for (uint32_t i = 0; s && i < s->count; i++)
        if (copied(ctx, &s->copies[i]))
            return false;
    return true;
}

/* ---- attribute evaluation --------------------------------------------------------------------------- */

/* The Input variable holding lane `lane` of v`reg` as a plain float element, or NULL. */
static const struct io_copy *find_input(struct sb_spv_context *ctx, uint32_t reg, uint32_t lane)
{
    struct io_state *s = ctx->io_state;
    for (uint32_t i = 0; s && i < s->count; i++) {
        const struct io_copy *c = &s->copies[i];
        if (!c->output && c->kind == IO_PLAIN && c->file == SB_IR_FILE_INPUT && c->reg == reg &&
            (c->lane_mask & (1u << lane)) && c->ir_type == SB_IR_TYPE_FLOAT)
            return c;
    }
    return NULL;
}

enum sb_result sb_spv_io_instruction(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t glsl_op;
    switch (inst->op) {
    case SB_IR_OP_EVAL_CENTROID: glsl_op = GLSLstd450InterpolateAtCentroid; break;
    case SB_IR_OP_EVAL_SAMPLE_INDEX: glsl_op = GLSLstd450InterpolateAtSample; break;
    case SB_IR_OP_EVAL_SNAPPED: glsl_op = GLSLstd450InterpolateAtOffset; break;
    default: return SB_ERROR_TRANSLATE_UNSUPPORTED;
    }
    /* The Interpolate* instructions exist only for Fragment (as eval_* only in ps_5_0). */
    if (ctx->execution_model != SpvExecutionModelFragment)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst,
                           "'%s' outside a pixel shader", sb_ir_op_name(inst->op));
    if (inst->dst_count < 1 || inst->src_count < 1 || inst->src[0].file != SB_IR_FILE_INPUT ||
        inst->src[0].index_count < 1 || inst->src[0].index[0].relative)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, inst,
                           "attribute evaluation needs a directly indexed v# source");
    sb_spv_capability(b, SpvCapabilityInterpolationFunction);
    const struct sb_ir_operand *dst = &inst->dst[0], *src = &inst->src[0];
    uint32_t extra = 0;
    if (inst->op == SB_IR_OP_EVAL_SAMPLE_INDEX && inst->src_count > 1) {
        extra = sb_spv_load_scalar(ctx, &inst->src[1], SB_IR_TYPE_INT);
    } else if (inst->op == SB_IR_OP_EVAL_SNAPPED && inst->src_count > 1) {
        /* Offsets are in 1/16 pixel, of which D3D reads the low 4 bits, signed ([-8, 7] / 16,
         * inside Vulkan's guaranteed offset range): convert those to pixels. */
        uint32_t i2 = sb_spv_load_src_n(ctx, &inst->src[1], 2, SB_IR_TYPE_INT);
        i2 = sb_spv_op3(b, SpvOpBitFieldSExtract, sb_spv_t_ivec(ctx, 2), i2, sb_spv_const_i32(b, 0),
                        sb_spv_const_i32(b, 4));
        uint32_t f2 = sb_spv_op1(b, SpvOpConvertSToF, sb_spv_t_fvec(ctx, 2), i2);
        extra = sb_spv_op2(b, SpvOpVectorTimesScalar, sb_spv_t_fvec(ctx, 2), f2, sb_spv_const_f32(b, 1.0f / 16.0f));
    }
    /* Each destination lane evaluates the variable that holds its source lane. */
    for (uint32_t lane = 0; lane < 4; lane++) {
        if (!(dst->mask & (1u << lane)))
            continue;
        uint32_t from = src->swizzle[lane] & 3u;
        const struct io_copy *c = find_input(ctx, src->index[0].offset, from);
        uint32_t value;
        if (!c) {
            value = sb_spv_load_src(ctx, src, 1u << lane, SB_IR_TYPE_FLOAT);
        } else {
            uint32_t args[3] = { c->var, extra };
            uint32_t type = sb_spv_t_fvec(ctx, c->lane_count);
            uint32_t v = sb_spv_glsl_op(b, type, glsl_op, args, extra ? 2 : 1);
            value = c->lane_count == 1 ? v : sb_spv_extract(b, sb_spv_t_f32(ctx), v, from - c->first_lane);
        }
        if (!sb_spv_store_dst_mask(ctx, inst, dst, 1u << lane, value, SB_IR_TYPE_FLOAT))
            return ctx->result ? ctx->result : SB_ERROR_TRANSLATE_INVALID;
    }
    return ctx->result;
}
