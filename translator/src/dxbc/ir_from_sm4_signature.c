/* SPDX-License-Identifier: MIT */
/*
 * Signature merge and resource names for SM4/5 lowering (translator/IR.md
 * §Signatures, ../shared/docs/dxcontainer.md §5, §12). A program's inputs and outputs
 * are known twice: from its dcl_input and dcl_output declarations (registers,
 * masks, system values, interpolation) and from the container's
 * ISGN/OSGN/OSG5/PCSG (or ISG1/OSG1/PSG1) parts (semantic names and indices,
 * component types, streams, the lanes each element allocates). One
 * sb_ir_signature_element is made per container element, carrying the lanes
 * the declarations cover; lanes declared but named by no container element
 * (or every declaration, without a container) become elements of their own
 * with an empty semantic. RDEF binding names go into resources[].name, and the
 * facts consumers need from the container (SFI0 flags, each cbuffer's RDEF
 * variables) into the program (sb_ir_record_container, ir_from_sm4_container.c).
 */
#include <string.h>

#include "shaderbridge/dxbc.h"
#include "shaderbridge/dxbc_fxc.h"
#include "ir_from_sm4_private.h"

/* D3D_NAME values of the special-register files (sm4-tokens.md §8.1). */
static const struct {
    uint32_t file;
    uint32_t system_value;
} special_names[] = {
    { SB_IR_FILE_PRIMITIVE_ID, 7 },   { SB_IR_FILE_DEPTH, 65 },
    { SB_IR_FILE_COVERAGE_OUT, 66 },  { SB_IR_FILE_COVERAGE_IN, 66 },
    { SB_IR_FILE_DEPTH_GREATER_EQUAL, 67 }, { SB_IR_FILE_DEPTH_LESS_EQUAL, 68 },
    { SB_IR_FILE_STENCIL_REF, 69 },   { SB_IR_FILE_INNER_COVERAGE, 70 },
};

static uint32_t special_system_value(uint32_t file)
{
    for (size_t i = 0; i < sizeof(special_names) / sizeof(special_names[0]); i++)
        if (special_names[i].file == file)
            return special_names[i].system_value;
    return 0;
}

/* The special file a register-less container element stands for. */
static uint32_t special_file(uint32_t kind, uint32_t system_value)
{
    for (size_t i = 0; i < sizeof(special_names) / sizeof(special_names[0]); i++) {
        uint32_t f = special_names[i].file;
        bool output_file = f != SB_IR_FILE_PRIMITIVE_ID && f != SB_IR_FILE_COVERAGE_IN &&
                           f != SB_IR_FILE_INNER_COVERAGE;
        if (special_names[i].system_value == system_value &&
            output_file == (kind == SB_IR_SIGNATURE_OUTPUT))
            return f;
    }
    return SB_IR_FILE_NULL;
}

/* One container part and the kind/file its elements get. */
struct part_use {
    const struct sb_dxbc_signature *sig;
    uint32_t kind;
    uint32_t file;
};

static uint32_t component_type(uint32_t dxbc_type)
{
    switch (dxbc_type) {
    case 1: return SB_IR_TYPE_UINT;
    case 2: return SB_IR_TYPE_INT;
    default: return SB_IR_TYPE_FLOAT;
    }
}

/*
 * Where a signature part ranks: its kind (input, output, patch) and its
 * preference within the kind, newest form first. False for other parts.
 */
static bool signature_rank(enum sb_dxbc_part_kind part_kind, uint32_t *kind, uint32_t *rank)
{
    switch (part_kind) {
    case SB_DXBC_PART_ISG1: *kind = SB_IR_SIGNATURE_INPUT; *rank = 0; return true;
    case SB_DXBC_PART_ISGN: *kind = SB_IR_SIGNATURE_INPUT; *rank = 1; return true;
    case SB_DXBC_PART_OSG1: *kind = SB_IR_SIGNATURE_OUTPUT; *rank = 0; return true;
    case SB_DXBC_PART_OSG5: *kind = SB_IR_SIGNATURE_OUTPUT; *rank = 1; return true;
    case SB_DXBC_PART_OSGN: *kind = SB_IR_SIGNATURE_OUTPUT; *rank = 2; return true;
    case SB_DXBC_PART_PSG1: *kind = SB_IR_SIGNATURE_PATCH; *rank = 0; return true;
    case SB_DXBC_PART_PCSG: *kind = SB_IR_SIGNATURE_PATCH; *rank = 1; return true;
    default: return false;
    }
}

/*
 * Finds the container parts, preferring the newer forms (OSG5 over OSGN, *SG1).
 * One walk of the part table records the first part of each form (what
 * sb_dxbc_find_part would return) instead of searching it once per FourCC.
 */
static uint32_t find_parts(const struct sb_ir_sm4_context *ctx, struct part_use parts[3])
{
    const struct sb_dxbc_part *first[3][3] = { { NULL } };
    const struct sb_dxbc *container = ctx->container;
    for (uint32_t i = 0; container && i < container->part_count; i++) {
        uint32_t k, f;
        if (signature_rank(container->parts[i].kind, &k, &f) && !first[k][f])
            first[k][f] = &container->parts[i];
    }
    uint32_t stage = ctx->program->stage, n = 0;
    for (uint32_t k = 0; k < 3; k++) {
        for (uint32_t f = 0; f < 3; f++) {
            const struct sb_dxbc_part *part = first[k][f];
            if (!part || !part->decoded.signature)
                continue;
            parts[n].sig = part->decoded.signature;
            parts[n].kind = k;
            parts[n].file = k == SB_IR_SIGNATURE_INPUT ? SB_IR_FILE_INPUT
                            : k == SB_IR_SIGNATURE_OUTPUT ? SB_IR_FILE_OUTPUT
                            : stage == SB_IR_STAGE_DOMAIN ? SB_IR_FILE_INPUT_PATCH_CONSTANT
                                                          : SB_IR_FILE_OUTPUT;
            n++;
            break;
        }
    }
    return n;
}

/* Folds repeated declarations of one register (hull phases redeclare). */
static void merge_declarations(struct sb_ir_sm4_context *ctx)
{
    struct sb_ir_decl_io *io = ctx->decl_io.data;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < ctx->decl_io.count; i++) {
        uint32_t j = 0;
        /* One branch per candidate: the register alone matches often (v0 and o0), and a
         * chain of tests mispredicted there. */
        while (j < kept && !((io[j].register_index == io[i].register_index) & (io[j].kind == io[i].kind) &
                             (io[j].file == io[i].file) & (io[j].stream == io[i].stream) &
                             ((io[j].mask & io[i].mask) != 0)))
            j++;
        if (j == kept) {
            io[kept++] = io[i];
            continue;
        }
        io[j].mask |= io[i].mask;
        if (!io[j].system_value)
            io[j].system_value = io[i].system_value;
        if (!io[j].interpolation)
            io[j].interpolation = io[i].interpolation;
        if (io[j].array_size < io[i].array_size)
            io[j].array_size = io[i].array_size;
    }
    ctx->decl_io.count = kept;
}

static struct sb_ir_signature_element *new_element(struct sb_ir_sm4_context *ctx,
                                                   struct sb_ir_vec *out)
{
    struct sb_ir_signature_element *e = sb_ir_push(ctx, out, sizeof(*e));
    if (e) {
        e->semantic = "";
        e->component_type = SB_IR_TYPE_FLOAT;
    }
    return e;
}

/* Elements from one container part, taking the declared lanes of each. */
static bool add_container_elements(struct sb_ir_sm4_context *ctx, const struct part_use *use,
                                   uint8_t *claimed, struct sb_ir_vec *out)
{
    const struct sb_ir_decl_io *io = ctx->decl_io.data;
    for (uint32_t i = 0; i < use->sig->element_count; i++) {
        const struct sb_dxbc_signature_element *se = &use->sig->elements[i];
        struct sb_ir_signature_element *e = new_element(ctx, out);
        if (!e)
            return false;
        e->kind = use->kind;
        /* Elements that share a name in the container (TEXCOORD0..n) share its copy. */
        if (i && se->semantic_name == se[-1].semantic_name)
            e->semantic = e[-1].semantic;
        else if (!(e->semantic = sb_ir_strdup(ctx->arena, se->semantic_name)))
            return sb_ir_fail(ctx, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        e->semantic_index = se->semantic_index;
        e->system_value = se->system_value;
        e->file = use->file;
        e->register_index = se->register_index;
        if (se->register_index == UINT32_MAX) {
            e->file = special_file(use->kind, se->system_value);
            e->register_index = 0;
        }
        e->signature_mask = se->mask & 0xfu;
        e->used_mask = (use->sig->derives_used_mask ? se->used_mask : se->rw_mask) & 0xfu;
        e->component_type = component_type(se->component_type);
        e->stream = se->stream;
        e->min_precision = se->min_precision;
        for (uint32_t d = 0; d < ctx->decl_io.count; d++) {
            /* One branch for the four tests, as merge_declarations. */
            if (!((io[d].register_index == e->register_index) & (io[d].kind == e->kind) &
                  (io[d].file == e->file) &
                  ((e->kind != SB_IR_SIGNATURE_OUTPUT) | (io[d].stream == e->stream))))
                continue;
            uint8_t lanes = (uint8_t)(io[d].mask & (e->file == use->file ? se->mask : 0xfu));
            if (!lanes)
                continue;
            if (!e->mask)
                e->offset = io[d].offset; /* errors about the element point at its dcl */
            e->mask |= lanes;
            claimed[d] |= lanes;
            if (io[d].system_value)
                e->system_value = io[d].system_value;
            e->interpolation = io[d].interpolation;
            e->array_size = io[d].array_size;
            if (io[d].min_precision && !e->min_precision)
                e->min_precision = io[d].min_precision;
        }
    }
    return true;
}

bool sb_ir_build_signature(struct sb_ir_sm4_context *ctx)
{
    merge_declarations(ctx);
    const struct sb_ir_decl_io *io = ctx->decl_io.data;
    uint8_t *claimed = sb_ir_alloc(ctx, ctx->decl_io.count + 1, 1);
    if (!claimed)
        return false;
    struct sb_ir_vec out = { 0 };
    struct part_use parts[3];
    uint32_t part_count = find_parts(ctx, parts);
    /* At most one element per container element plus one per declaration: sized
     * once, the array never grows (each push still zeroes its item). */
    uint64_t most = ctx->decl_io.count;
    for (uint32_t p = 0; p < part_count; p++)
        most += parts[p].sig->element_count;
    if (most && most < UINT32_MAX / 2) {
        out.data = sb_ir_alloc_uninit(ctx, (size_t)most, sizeof(struct sb_ir_signature_element));
        if (!out.data)
            return false;
        out.capacity = (uint32_t)most;
    }
    for (uint32_t p = 0; p < part_count; p++)
        if (!add_container_elements(ctx, &parts[p], claimed, &out))
            return false;
    for (uint32_t d = 0; d < ctx->decl_io.count; d++) {
        uint8_t rest = (uint8_t)(io[d].mask & ~claimed[d]);
        /* A special register fully named by a container element needs nothing more. */
        if (!rest || (claimed[d] && io[d].register_index == 0 &&
                      io[d].file != SB_IR_FILE_INPUT && io[d].file != SB_IR_FILE_OUTPUT &&
                      io[d].file != SB_IR_FILE_INPUT_PATCH_CONSTANT))
            continue;
        struct sb_ir_signature_element *e = new_element(ctx, &out);
        if (!e)
            return false;
        e->kind = io[d].kind;
        e->file = io[d].file;
        e->register_index = io[d].register_index;
        e->mask = rest;
        e->system_value = io[d].system_value ? io[d].system_value
                                             : special_system_value(io[d].file);
        e->interpolation = io[d].interpolation;
        e->array_size = io[d].array_size;
        e->min_precision = io[d].min_precision;
        e->stream = io[d].stream;
        e->offset = io[d].offset;
    }
    ctx->program->signature_count = out.count;
    ctx->program->signature = out.count ? out.data : NULL; /* as before the presizing */
    return true;
}

/* D3D_SHADER_INPUT_TYPE -> resource class (../shared/docs/dxcontainer.md §12). */
static uint32_t class_of_input_type(uint32_t input_type)
{
    switch (input_type) {
    case 0: return SB_IR_RESOURCE_CBV;
    case 1: case 2: case 5: case 7: case 12: return SB_IR_RESOURCE_SRV;
    case 3: return SB_IR_RESOURCE_SAMPLER;
    default: return SB_IR_RESOURCE_UAV;
    }
}

void sb_ir_name_resources(struct sb_ir_sm4_context *ctx)
{
    if (!ctx->container)
        return;
    const struct sb_dxbc_part *part = sb_dxbc_find_part(ctx->container, SB_FOURCC('R', 'D', 'E', 'F'));
    const struct sb_dxbc_rdef *rdef = part ? part->decoded.rdef : NULL;
    if (!rdef)
        return;
    struct sb_ir_resource *res = ctx->resources.data;
    bool by_id = ctx->is_sm51 && rdef->has_space_and_id;
    for (uint32_t r = 0; r < ctx->resources.count; r++) {
        for (uint32_t b = 0; b < rdef->binding_count; b++) {
            const struct sb_dxbc_rdef_binding *bind = &rdef->bindings[b];
            if (class_of_input_type(bind->input_type) != res[r].resource_class)
                continue;
            bool match = by_id ? bind->id == res[r].id && bind->space == res[r].space
                               : bind->bind_point == res[r].id;
            if (!match)
                continue;
            res[r].name = sb_ir_strdup(ctx->arena, bind->name);
            break;
        }
    }
}

bool sb_ir_record_container(struct sb_ir_sm4_context *ctx)
{
    if (!ctx->container)
        return true;
    ctx->program->container_flags = sb_ir_container_flags(ctx->container);
    struct sb_ir_resource *res = ctx->resources.data;
    for (uint32_t r = 0; r < ctx->resources.count; r++) {
        if (res[r].resource_class != SB_IR_RESOURCE_CBV)
            continue;
        const struct sb_dxbc_rdef_cbuffer *cb = sb_ir_rdef_cbuffer(ctx->container, res[r].name);
        if (!cb)
            continue;
        res[r].cb_described = true;
        uint32_t n = sb_ir_cb_variables(cb, NULL);
        if (!n)
            continue;
        struct sb_ir_cb_variable *vars = sb_ir_alloc_uninit(ctx, n, sizeof(*vars));
        if (!vars)
            return false;
        sb_ir_cb_variables(cb, vars);
        /* The program owns its strings: the container may go before it does. */
        for (uint32_t v = 0; v < n; v++)
            if (!(vars[v].name = sb_ir_strdup(ctx->arena, vars[v].name)))
                return sb_ir_fail_oom(ctx) != NULL;
        res[r].cb_variables = vars;
        res[r].cb_variable_count = n;
    }
    return true;
}
