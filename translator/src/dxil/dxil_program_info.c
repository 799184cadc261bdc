/* SPDX-License-Identifier: MIT */
/*
 * sb_dxil_program_info_read (translator/dxil_program_info.h): the dx.*
 * named metadata of a DXIL module (../shared/docs/dxil.md §4.1) decoded
 * into plain structs: versions and shader model, then each dx.entryPoints
 * record (§4.2) with its signature element records (§4.4) and its property
 * pairs; resources and type annotations are dxil_program_resources.c's.
 *
 * The records have a fixed depth (entry -> signatures -> list -> element ->
 * indices), so the decoder walks them with nested loops, never recursion,
 * and cycles in the metadata graph cannot make it loop. Every field is read
 * through dxil_md_reader.h, which fails on a null, a wrong kind or count.
 */
#include "translator/dxil_program_info.h"

#include <string.h>

#include "arena.h"
#include "dxil_md_reader.h"
#include "dxil_program_private.h"
#include "error.h"
#include "shaderbridge/dxbc_dxil.h"

/* dx.shaderModel's stage names (§4.1) with their ShaderKind. */
static const struct {
    const char *name;
    uint32_t kind;
} STAGE_NAMES[] = {
    { "ps", SB_DXIL_SHADER_KIND_PIXEL },     { "vs", SB_DXIL_SHADER_KIND_VERTEX },
    { "gs", SB_DXIL_SHADER_KIND_GEOMETRY },  { "hs", SB_DXIL_SHADER_KIND_HULL },
    { "ds", SB_DXIL_SHADER_KIND_DOMAIN },    { "cs", SB_DXIL_SHADER_KIND_COMPUTE },
    { "lib", SB_DXIL_SHADER_KIND_LIBRARY },  { "ms", SB_DXIL_SHADER_KIND_MESH },
    { "as", SB_DXIL_SHADER_KIND_AMPLIFICATION },
};

/* The one node of the named metadata `named` (`name`, found by the caller), which must hold
 * exactly one (dx.version, ...). */
static const struct sb_bc_metadata *single_node(struct sb_dxil_md_reader *r,
                                                const struct sb_bc_named_metadata *named,
                                                const char *name, uint32_t fields)
{
    if (named->operand_count != 1) {
        sb_dxil_md_fail(r, SB_ERROR_BAD_COUNT, "%s has %u nodes, not 1", name,
                        named->operand_count);
        return NULL;
    }
    return sb_dxil_md_node(r, named->operands[0], fields, fields, name);
}

/* single_node of the named metadata `name`, which the module must have. */
static const struct sb_bc_metadata *single_named(struct sb_dxil_md_reader *r, const char *name,
                                                 uint32_t fields)
{
    const struct sb_bc_named_metadata *named = sb_bc_named_metadata_find(r->module, name);
    if (!named) {
        sb_dxil_md_fail(r, SB_ERROR_BAD_VALUE, "the module has no %s metadata", name);
        return NULL;
    }
    return single_node(r, named, name, fields);
}

static bool read_versions(struct sb_dxil_md_reader *r, struct sb_dxil_program_info *info)
{
    const struct sb_bc_metadata *version = single_named(r, SB_DXIL_MD_VERSION, 2);
    if (!version || !sb_dxil_md_field_u32(r, version, 0, "dx.version major", &info->dxil_major) ||
        !sb_dxil_md_field_u32(r, version, 1, "dx.version minor", &info->dxil_minor))
        return false;
    info->validator_major = 1;
    const struct sb_bc_named_metadata *named_valver =
        sb_bc_named_metadata_find(r->module, SB_DXIL_MD_VALIDATOR_VERSION);
    if (named_valver) {
        const struct sb_bc_metadata *valver =
            single_node(r, named_valver, SB_DXIL_MD_VALIDATOR_VERSION, 2);
        if (!valver ||
            !sb_dxil_md_field_u32(r, valver, 0, "dx.valver major", &info->validator_major) ||
            !sb_dxil_md_field_u32(r, valver, 1, "dx.valver minor", &info->validator_minor))
            return false;
    }
    const struct sb_bc_metadata *model = single_named(r, SB_DXIL_MD_SHADER_MODEL, 3);
    if (!model || !sb_dxil_md_string(r, model->operands[0], "dx.shaderModel stage", &info->stage_name) ||
        !sb_dxil_md_field_u32(r, model, 1, "dx.shaderModel major", &info->shader_model_major) ||
        !sb_dxil_md_field_u32(r, model, 2, "dx.shaderModel minor", &info->shader_model_minor))
        return false;
    info->shader_kind = SB_DXIL_SHADER_KIND_INVALID;
    for (size_t i = 0; i < sizeof(STAGE_NAMES) / sizeof(STAGE_NAMES[0]); i++)
        if (!strcmp(info->stage_name, STAGE_NAMES[i].name))
            info->shader_kind = STAGE_NAMES[i].kind;
    if (info->shader_kind == SB_DXIL_SHADER_KIND_INVALID)
        return sb_dxil_md_fail(r, SB_ERROR_BAD_VALUE, "dx.shaderModel stage \"%s\" is unknown",
                               info->stage_name);
    return true;
}

/* Field 10 of an element: `i32 tag, value` pairs. */
static bool read_element_tags(struct sb_dxil_md_reader *r, uint32_t id,
                              struct sb_dxil_signature_element *e)
{
    const struct sb_bc_metadata *tags = sb_dxil_md_pairs(r, id, "signature element tags");
    if (!tags)
        return r->result == SB_SUCCESS;
    for (uint32_t i = 0; i < tags->operand_count / 2; i++) {
        uint32_t tag, value;
        if (!sb_dxil_md_pair_u32(r, tags, i, "signature element tag", &tag, &value))
            return false;
        if (tag == SB_DXIL_SIG_TAG_OUTPUT_STREAM) {
            e->output_stream = value;
        } else if (tag == SB_DXIL_SIG_TAG_DYN_IDX_COMP_MASK) {
            e->dynamic_index_mask = value;
        } else if (tag == SB_DXIL_SIG_TAG_USAGE_COMP_MASK) {
            e->usage_mask = value;
            e->has_usage_mask = true;
        }
    }
    return true;
}

static bool read_element(struct sb_dxil_md_reader *r, uint32_t id,
                         struct sb_dxil_signature_element *e)
{
    const struct sb_bc_metadata *node = sb_dxil_md_node(r, id, SB_DXIL_SIG_FIELD_COUNT,
                                                        SB_DXIL_SIG_FIELD_COUNT,
                                                        "signature element");
    uint32_t start_row, start_col;
    if (!node || !sb_dxil_md_field_u32(r, node, SB_DXIL_SIG_ELEMENT_ID, "element id", &e->id) ||
        !sb_dxil_md_string(r, node->operands[SB_DXIL_SIG_SEMANTIC_NAME], "semantic name",
                           &e->semantic_name) ||
        !sb_dxil_md_field_u32(r, node, SB_DXIL_SIG_COMPONENT_TYPE, "element component type",
                              &e->component_type) ||
        !sb_dxil_md_field_u32(r, node, SB_DXIL_SIG_SEMANTIC_KIND, "semantic kind",
                              &e->semantic_kind) ||
        !sb_dxil_md_field_u32(r, node, SB_DXIL_SIG_INTERPOLATION, "interpolation mode",
                              &e->interpolation) ||
        !sb_dxil_md_field_u32(r, node, SB_DXIL_SIG_ROWS, "element rows", &e->rows) ||
        !sb_dxil_md_field_u32(r, node, SB_DXIL_SIG_COLUMNS, "element columns", &e->cols) ||
        !sb_dxil_md_field_u32(r, node, SB_DXIL_SIG_START_ROW, "element start row", &start_row) ||
        !sb_dxil_md_field_u32(r, node, SB_DXIL_SIG_START_COLUMN, "element start column",
                              &start_col))
        return false;
    e->start_row = (int32_t)start_row;
    e->start_col = (int32_t)start_col;
    if (e->semantic_kind > SB_DXIL_SEMANTIC_INVALID)
        return sb_dxil_md_fail(r, SB_ERROR_BAD_VALUE, "signature element !%u: semantic kind %u is "
                               "past Invalid (%u)", id, e->semantic_kind, SB_DXIL_SEMANTIC_INVALID);
    if (e->cols < 1 || e->cols > 4 || e->start_col < -1 ||
        (e->start_col > 0 ? (uint32_t)e->start_col : 0) + e->cols > 4)
        return sb_dxil_md_fail(r, SB_ERROR_BAD_VALUE, "signature element !%u: %u columns from "
                               "column %d do not fit 4", id, e->cols, e->start_col);
    const struct sb_bc_metadata *indices = sb_dxil_md_node(
        r, node->operands[SB_DXIL_SIG_SEMANTIC_INDICES], 0, UINT32_MAX, "semantic indices");
    if (!indices)
        return false;
    uint32_t *index_array = sb_dxil_md_alloc(r, indices->operand_count, sizeof(uint32_t));
    if (indices->operand_count && !index_array)
        return false;
    for (uint32_t i = 0; i < indices->operand_count; i++)
        if (!sb_dxil_md_u32(r, indices->operands[i], "semantic index", &index_array[i]))
            return false;
    e->semantic_index_count = indices->operand_count;
    e->semantic_indices = index_array;
    return read_element_tags(r, node->operands[SB_DXIL_SIG_EXTRA_TAGS], e);
}

static bool read_signatures(struct sb_dxil_md_reader *r, uint32_t id,
                            struct sb_dxil_entry_point *entry)
{
    const struct sb_bc_metadata *lists = sb_dxil_md_node_or_null(
        r, id, SB_DXIL_SIGNATURE_LIST_COUNT, SB_DXIL_SIGNATURE_LIST_COUNT, "entry signatures");
    if (!lists)
        return r->result == SB_SUCCESS;
    for (uint32_t s = 0; s < SB_DXIL_SIGNATURE_LIST_COUNT; s++) {
        const struct sb_bc_metadata *list =
            sb_dxil_md_node_or_null(r, lists->operands[s], 0, UINT32_MAX, "signature");
        if (!list) {
            if (r->result != SB_SUCCESS)
                return false;
            continue;
        }
        struct sb_dxil_signature_element *elements =
            sb_dxil_md_alloc(r, list->operand_count, sizeof(*elements));
        if (list->operand_count && !elements)
            return false;
        for (uint32_t i = 0; i < list->operand_count; i++)
            if (!read_element(r, list->operands[i], &elements[i]))
                return false;
        entry->signatures[s].element_count = list->operand_count;
        entry->signatures[s].elements = elements;
    }
    return true;
}

/* Node `id` of exactly `count` integers into `out`. */
static bool read_u32_tuple(struct sb_dxil_md_reader *r, uint32_t id, uint32_t count,
                           const char *what, uint32_t *out)
{
    const struct sb_bc_metadata *node = sb_dxil_md_node(r, id, count, count, what);
    if (!node)
        return false;
    for (uint32_t i = 0; i < count; i++)
        if (!sb_dxil_md_u32(r, node->operands[i], what, &out[i]))
            return false;
    return true;
}

static bool read_hs_state(struct sb_dxil_md_reader *r, uint32_t id, struct sb_dxil_hs_state *hs)
{
    const struct sb_bc_metadata *node = sb_dxil_md_node(r, id, 7, 7, "HSState");
    return node &&
           sb_dxil_md_function(r, node->operands[0], "HSState patch constant function",
                               &hs->patch_constant_function) &&
           sb_dxil_md_field_u32(r, node, 1, "HSState input control points",
                                &hs->input_control_points) &&
           sb_dxil_md_field_u32(r, node, 2, "HSState output control points",
                                &hs->output_control_points) &&
           sb_dxil_md_field_u32(r, node, 3, "HSState domain", &hs->domain) &&
           sb_dxil_md_field_u32(r, node, 4, "HSState partitioning", &hs->partitioning) &&
           sb_dxil_md_field_u32(r, node, 5, "HSState output primitive", &hs->output_primitive) &&
           sb_dxil_md_float(r, node->operands[6], "HSState max tessellation factor",
                            &hs->max_tess_factor);
}

/* MSState !{!{x,y,z}, verts, prims, topology, payload} and ASState !{!{x,y,z}, payload}. */
static bool read_mesh_state(struct sb_dxil_md_reader *r, uint32_t id, bool mesh,
                            struct sb_dxil_mesh_state *ms)
{
    const char *what = mesh ? "MSState" : "ASState";
    uint32_t fields = mesh ? 5 : 2;
    const struct sb_bc_metadata *node = sb_dxil_md_node(r, id, fields, fields, what);
    if (!node || !read_u32_tuple(r, node->operands[0], 3, what, ms->num_threads))
        return false;
    if (!mesh)
        return sb_dxil_md_field_u32(r, node, 1, "ASState payload size", &ms->payload_size);
    return sb_dxil_md_field_u32(r, node, 1, "MSState max vertex count", &ms->max_vertex_count) &&
           sb_dxil_md_field_u32(r, node, 2, "MSState max primitive count",
                                &ms->max_primitive_count) &&
           sb_dxil_md_field_u32(r, node, 3, "MSState output topology", &ms->output_topology) &&
           sb_dxil_md_field_u32(r, node, 4, "MSState payload size", &ms->payload_size);
}

static bool read_property(struct sb_dxil_md_reader *r, uint32_t tag, uint32_t value,
                          struct sb_dxil_entry_point *e)
{
    uint32_t fields[5];
    int64_t flags;
    switch (tag) {
    case SB_DXIL_PROPERTY_SHADER_FLAGS:
        if (!sb_dxil_md_int(r, value, "ShaderFlags", &flags))
            return false;
        e->shader_flags = (uint64_t)flags;
        return true;
    case SB_DXIL_PROPERTY_GS_STATE:
        if (!read_u32_tuple(r, value, 5, "GSState", fields))
            return false;
        e->gs = (struct sb_dxil_gs_state){ .input_primitive = fields[0],
                                          .max_vertex_count = fields[1],
                                          .active_stream_mask = fields[2],
                                          .output_topology = fields[3],
                                          .instance_count = fields[4] };
        return e->has_gs_state = true;
    case SB_DXIL_PROPERTY_DS_STATE:
        if (!read_u32_tuple(r, value, 2, "DSState", fields))
            return false;
        e->ds = (struct sb_dxil_ds_state){ .domain = fields[0], .input_control_points = fields[1] };
        return e->has_ds_state = true;
    case SB_DXIL_PROPERTY_HS_STATE:
        return e->has_hs_state = read_hs_state(r, value, &e->hs);
    case SB_DXIL_PROPERTY_NUM_THREADS:
        return e->has_num_threads = read_u32_tuple(r, value, 3, "NumThreads", e->num_threads);
    case SB_DXIL_PROPERTY_AUTO_BINDING_SPACE:
        return e->has_auto_binding_space =
                   read_u32_tuple(r, value, 1, "AutoBindingSpace", &e->auto_binding_space);
    case SB_DXIL_PROPERTY_SHADER_KIND:
        if (!sb_dxil_md_u32(r, value, "ShaderKind", &e->shader_kind))
            return false;
        if (e->shader_kind >= SB_DXIL_SHADER_KIND_INVALID)
            return sb_dxil_md_fail(r, SB_ERROR_BAD_VALUE, "ShaderKind %u is past Node (15)",
                                   e->shader_kind);
        return true;
    case SB_DXIL_PROPERTY_MS_STATE:
        return e->has_ms_state = read_mesh_state(r, value, true, &e->ms);
    case SB_DXIL_PROPERTY_AS_STATE:
        return e->has_as_state = read_mesh_state(r, value, false, &e->as);
    case SB_DXIL_PROPERTY_WAVE_SIZE:
        if (!read_u32_tuple(r, value, 1, "WaveSize", fields))
            return false;
        e->wave_size_min = e->wave_size_max = e->wave_size_preferred = fields[0];
        return true;
    case SB_DXIL_PROPERTY_RANGED_WAVE_SIZE:
        if (!read_u32_tuple(r, value, 3, "RangedWaveSize", fields))
            return false;
        e->wave_size_min = fields[0];
        e->wave_size_max = fields[1];
        e->wave_size_preferred = fields[2];
        return true;
    default:
        e->other_property_count++;
        return true;
    }
}

static bool read_properties(struct sb_dxil_md_reader *r, uint32_t id,
                            struct sb_dxil_entry_point *entry)
{
    const struct sb_bc_metadata *props = sb_dxil_md_pairs(r, id, "entry properties");
    if (!props)
        return r->result == SB_SUCCESS;
    for (uint32_t i = 0; i < props->operand_count; i += 2) {
        uint32_t tag;
        if (!sb_dxil_md_u32(r, props->operands[i], "entry property tag", &tag) ||
            !read_property(r, tag, props->operands[i + 1], entry))
            return false;
    }
    return true;
}

static bool read_entry(struct sb_dxil_md_reader *r, const struct sb_dxil_program_info *info,
                       uint32_t id, struct sb_dxil_entry_point *entry)
{
    const struct sb_bc_metadata *node = sb_dxil_md_node(r, id, SB_DXIL_ENTRY_FIELD_COUNT,
                                                        SB_DXIL_ENTRY_FIELD_COUNT,
                                                        "dx.entryPoints record");
    entry->shader_kind = info->shader_kind;
    if (!node ||
        !sb_dxil_md_function(r, node->operands[SB_DXIL_ENTRY_FUNCTION], "entry function",
                             &entry->function) ||
        !sb_dxil_md_string(r, node->operands[SB_DXIL_ENTRY_NAME], "entry name", &entry->name) ||
        !read_signatures(r, node->operands[SB_DXIL_ENTRY_SIGNATURES], entry))
        return false;
    uint32_t resources = node->operands[SB_DXIL_ENTRY_RESOURCES];
    if (resources != SB_BC_NONE) {
        entry->has_resources = true;
        if (!sb_dxil_read_resource_lists(r, resources, &entry->resources))
            return false;
    }
    return read_properties(r, node->operands[SB_DXIL_ENTRY_PROPERTIES], entry);
}

static bool read_program(struct sb_dxil_md_reader *r, struct sb_dxil_program_info *info)
{
    if (!read_versions(r, info))
        return false;
    const struct sb_bc_named_metadata *entries =
        sb_bc_named_metadata_find(r->module, SB_DXIL_MD_ENTRY_POINTS);
    if (!entries)
        return sb_dxil_md_fail(r, SB_ERROR_BAD_VALUE, "the module has no dx.entryPoints metadata");
    if (entries->operand_count == 0 ||
        (info->shader_kind != SB_DXIL_SHADER_KIND_LIBRARY && entries->operand_count != 1))
        return sb_dxil_md_fail(r, SB_ERROR_BAD_COUNT, "dx.entryPoints has %u records, a %s "
                               "program has %s", entries->operand_count, info->stage_name,
                               info->shader_kind == SB_DXIL_SHADER_KIND_LIBRARY ? "at least 1" : "1");
    struct sb_dxil_entry_point *list = sb_dxil_md_alloc(r, entries->operand_count, sizeof(*list));
    if (!list)
        return false;
    for (uint32_t i = 0; i < entries->operand_count; i++)
        if (!read_entry(r, info, entries->operands[i], &list[i]))
            return false;
    info->entry_points = list;
    info->entry_point_count = entries->operand_count;
    const struct sb_bc_named_metadata *named_resources =
        sb_bc_named_metadata_find(r->module, SB_DXIL_MD_RESOURCES);
    if (named_resources && single_node(r, named_resources, SB_DXIL_MD_RESOURCES, 4)) {
        info->has_resources = true;
        if (!sb_dxil_read_resource_lists(r, named_resources->operands[0], &info->resources))
            return false;
    }
    return r->result == SB_SUCCESS && sb_dxil_read_type_annotations(r, info);
}

enum sb_result sb_dxil_program_info_read(const struct sb_bc_module *module, uint64_t offset,
                                         struct sb_dxil_program_info **out,
                                         struct sb_error *error)
{
    if (!out || !module)
        return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                            "sb_dxil_program_info_read: module and out are required");
    *out = NULL;
    struct sb_arena *arena = sb_arena_create();
    struct sb_dxil_program_info *info = arena ? sb_arena_alloc(arena, 1, sizeof(*info)) : NULL;
    if (!info) {
        sb_arena_destroy(arena);
        return sb_error_set(error, SB_ERROR_OUT_OF_MEMORY, offset, SB_ERROR_NO_INSTR,
                            "out of memory for the DXIL program info");
    }
    info->arena = arena;
    struct sb_dxil_md_reader r = { .module = module, .arena = arena, .offset = offset,
                                   .error = error, .result = SB_SUCCESS };
    if (!read_program(&r, info) || r.result != SB_SUCCESS) {
        sb_arena_destroy(arena);
        return r.result;
    }
    sb_dxil_link_cbuffer_layouts(info);
    *out = info;
    return SB_SUCCESS;
}

enum sb_result sb_dxil_program_info_from_container(const struct sb_dxbc *dxbc,
                                                   struct sb_dxil_program_info **out,
                                                   struct sb_error *error)
{
    if (out)
        *out = NULL;
    const struct sb_dxbc_part *part =
        dxbc ? sb_dxbc_find_part(dxbc, SB_FOURCC('D', 'X', 'I', 'L')) : NULL;
    if (!part || !part->decoded.program)
        return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                            "the container has no DXIL program part");
    struct sb_bc_module *module = NULL;
    enum sb_result result = sb_bc_read_dxil_part(part->data, part->size, part->data_offset,
                                                 &module, error);
    if (result == SB_SUCCESS)
        result = sb_dxil_program_info_read(module, part->decoded.program->bitcode_file_offset,
                                           out, error);
    sb_bc_module_destroy(module);
    return result;
}

void sb_dxil_program_info_destroy(struct sb_dxil_program_info *info)
{
    if (info)
        sb_arena_destroy(info->arena);
}
