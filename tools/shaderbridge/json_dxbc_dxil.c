/* SPDX-License-Identifier: MIT */
/*
 * JSON for the DXC-era DirectX Container parts (../shared/docs/dxcontainer.md §2, §3,
 * §6-§9, §14): every decoded field under snake_case keys, raw numbers next
 * to their names, so the obj2yaml agreement test (tests/dxbc_dxil) can
 * compare each field LLVM prints and a reader can see unknown values.
 */
#include "cli.h"

#include "shaderbridge/dxbc_dxil.h"

#include <stdio.h>

typedef const char *(*bit_name_fn)(unsigned bit);
typedef const char *(*value_name_fn)(uint32_t value);

static void add_value(json_object *o, const char *key, uint32_t value, value_name_fn name)
{
    char name_key[64];
    cli_json_add_u64(o, key, value);
    snprintf(name_key, sizeof(name_key), "%s_name", key);
    cli_json_add_str(o, name_key, name(value));
}

static void add_flags(json_object *o, uint32_t flags, bit_name_fn name)
{
    const char *names[32];
    for (unsigned bit = 0; bit < 32; bit++)
        names[bit] = name(bit);
    cli_json_add_u64(o, "flags", flags);
    cli_json_add(o, "flag_names", cli_json_flag_names(flags, names, 32));
}

static json_object *u32_array(const uint32_t *values, uint32_t count)
{
    json_object *a = json_object_new_array();
    for (uint32_t i = 0; i < count; i++)
        json_object_array_add(a, cli_json_u64(values[i]));
    return a;
}

static json_object *program_json(const struct sb_dxbc_program *p)
{
    json_object *o = json_object_new_object();
    char model[16];
    snprintf(model, sizeof(model), "%u.%u", p->major_version, p->minor_version);
    cli_json_add_u64(o, "major_version", p->major_version);
    cli_json_add_u64(o, "minor_version", p->minor_version);
    cli_json_add_str(o, "shader_model", model);
    add_value(o, "shader_kind", p->shader_kind, sb_dxil_shader_kind_name);
    cli_json_add_u64(o, "size_in_words", p->size_in_words);
    cli_json_add_u64(o, "dxil_magic", p->dxil_magic);
    cli_json_add_u64(o, "dxil_major_version", p->dxil_major_version);
    cli_json_add_u64(o, "dxil_minor_version", p->dxil_minor_version);
    cli_json_add_u64(o, "bitcode_offset", p->bitcode_offset);
    cli_json_add_u64(o, "bitcode_size", p->bitcode_size);
    cli_json_add_u64(o, "bitcode_file_offset", p->bitcode_file_offset);
    cli_json_add_bool(o, "bitcode_is_wrapped", p->bitcode_is_wrapped);
    return o;
}

static json_object *hash_json(const struct sb_dxbc_hash *h)
{
    json_object *o = json_object_new_object();
    cli_json_add_u64(o, "flags", h->flags);
    cli_json_add_bool(o, "includes_source", h->includes_source);
    cli_json_add(o, "digest", cli_json_hex_bytes(h->digest, 16));
    return o;
}

static json_object *stage_json(const struct sb_dxbc_psv0_runtime_info *info)
{
    json_object *o = json_object_new_object();
    const union sb_dxbc_psv0_stage_info *s = &info->stage;
    switch (info->stage_layout) {
    case SB_DXBC_PSV0_STAGE_VERTEX:
        cli_json_add_u64(o, "output_position_present", s->vs.output_position_present);
        break;
    case SB_DXBC_PSV0_STAGE_HULL:
        cli_json_add_u64(o, "input_control_point_count", s->hs.input_control_point_count);
        cli_json_add_u64(o, "output_control_point_count", s->hs.output_control_point_count);
        cli_json_add_u64(o, "tessellator_domain", s->hs.tessellator_domain);
        cli_json_add_u64(o, "tessellator_output_primitive", s->hs.tessellator_output_primitive);
        break;
    case SB_DXBC_PSV0_STAGE_DOMAIN:
        cli_json_add_u64(o, "input_control_point_count", s->ds.input_control_point_count);
        cli_json_add_u64(o, "output_position_present", s->ds.output_position_present);
        cli_json_add_u64(o, "tessellator_domain", s->ds.tessellator_domain);
        break;
    case SB_DXBC_PSV0_STAGE_GEOMETRY:
        cli_json_add_u64(o, "input_primitive", s->gs.input_primitive);
        cli_json_add_u64(o, "output_topology", s->gs.output_topology);
        cli_json_add_u64(o, "output_stream_mask", s->gs.output_stream_mask);
        cli_json_add_u64(o, "output_position_present", s->gs.output_position_present);
        break;
    case SB_DXBC_PSV0_STAGE_PIXEL:
        cli_json_add_u64(o, "depth_output", s->ps.depth_output);
        cli_json_add_u64(o, "sample_frequency", s->ps.sample_frequency);
        break;
    case SB_DXBC_PSV0_STAGE_MESH:
        cli_json_add_u64(o, "group_shared_bytes_used", s->ms.group_shared_bytes_used);
        cli_json_add_u64(o, "group_shared_bytes_dependent_on_view_id",
                         s->ms.group_shared_bytes_dependent_on_view_id);
        cli_json_add_u64(o, "payload_size_in_bytes", s->ms.payload_size_in_bytes);
        cli_json_add_u64(o, "max_output_vertices", s->ms.max_output_vertices);
        cli_json_add_u64(o, "max_output_primitives", s->ms.max_output_primitives);
        break;
    case SB_DXBC_PSV0_STAGE_AMPLIFICATION:
        cli_json_add_u64(o, "payload_size_in_bytes", s->as.payload_size_in_bytes);
        break;
    default:
        break;
    }
    return o;
}

static json_object *runtime_info_json(const struct sb_dxbc_psv0_runtime_info *info)
{
    json_object *o = json_object_new_object();
    cli_json_add_u64(o, "size", info->size);
    cli_json_add_u64(o, "version", info->version);
    add_value(o, "stage_kind", info->stage_kind, sb_dxil_shader_kind_name);
    cli_json_add_str(o, "stage_layout", sb_dxbc_psv0_stage_layout_name(info->stage_layout));
    cli_json_add(o, "stage_raw", cli_json_hex_bytes(info->stage_raw, 16));
    cli_json_add(o, "stage", stage_json(info));
    cli_json_add_u64(o, "min_wave_lane_count", info->min_wave_lane_count);
    cli_json_add_u64(o, "max_wave_lane_count", info->max_wave_lane_count);
    if (info->version >= 1) {
        add_value(o, "shader_stage", info->shader_stage, sb_dxil_shader_kind_name);
        cli_json_add_u64(o, "uses_view_id", info->uses_view_id);
        cli_json_add_u64(o, "stage_union1_raw", info->stage_union1_raw);
        if (info->stage_kind == SB_DXIL_SHADER_KIND_GEOMETRY)
            cli_json_add_u64(o, "max_vertex_count", info->max_vertex_count);
        if (info->stage_kind == SB_DXIL_SHADER_KIND_HULL ||
            info->stage_kind == SB_DXIL_SHADER_KIND_DOMAIN ||
            info->stage_kind == SB_DXIL_SHADER_KIND_MESH)
            cli_json_add_u64(o, "sig_patch_const_or_prim_vectors",
                             info->sig_patch_const_or_prim_vectors);
        if (info->stage_kind == SB_DXIL_SHADER_KIND_MESH)
            cli_json_add_u64(o, "mesh_output_topology", info->mesh_output_topology);
        cli_json_add_u64(o, "sig_input_elements", info->sig_input_elements);
        cli_json_add_u64(o, "sig_output_elements", info->sig_output_elements);
        cli_json_add_u64(o, "sig_patch_const_or_prim_elements",
                         info->sig_patch_const_or_prim_elements);
        cli_json_add_u64(o, "sig_input_vectors", info->sig_input_vectors);
        json_object *vectors = json_object_new_array();
        for (unsigned i = 0; i < 4; i++)
            json_object_array_add(vectors, cli_json_u64(info->sig_output_vectors[i]));
        cli_json_add(o, "sig_output_vectors", vectors);
    }
    if (info->version >= 2) {
        cli_json_add_u64(o, "num_threads_x", info->num_threads_x);
        cli_json_add_u64(o, "num_threads_y", info->num_threads_y);
        cli_json_add_u64(o, "num_threads_z", info->num_threads_z);
    }
    if (info->version >= 3) {
        cli_json_add_u64(o, "entry_function_name_offset", info->entry_function_name_offset);
        cli_json_add_str(o, "entry_function_name", info->entry_function_name);
    }
    if (info->version >= 4)
        cli_json_add_u64(o, "num_bytes_group_shared_memory", info->num_bytes_group_shared_memory);
    return o;
}

static const char *resource_flag_name(unsigned bit)
{
    return bit == 0 ? "UsedByAtomic64" : NULL;
}

static json_object *resource_json(const struct sb_dxbc_psv0_resource *r)
{
    json_object *o = json_object_new_object();
    add_value(o, "type", r->type, sb_dxbc_psv0_resource_type_name);
    cli_json_add_u64(o, "space", r->space);
    cli_json_add_u64(o, "lower_bound", r->lower_bound);
    cli_json_add_u64(o, "upper_bound", r->upper_bound);
    add_value(o, "kind", r->kind, sb_dxbc_psv0_resource_kind_name);
    add_flags(o, r->flags, resource_flag_name);
    return o;
}

static json_object *elements_json(const struct sb_dxbc_psv0_element *list, uint32_t count)
{
    json_object *a = json_object_new_array();
    for (uint32_t i = 0; i < count; i++) {
        const struct sb_dxbc_psv0_element *e = &list[i];
        json_object *o = json_object_new_object();
        cli_json_add_str(o, "name", e->name);
        cli_json_add_u64(o, "name_offset", e->name_offset);
        cli_json_add_u64(o, "semantic_indexes_offset", e->semantic_indexes_offset);
        cli_json_add(o, "semantic_indexes", u32_array(e->semantic_indexes, e->rows));
        cli_json_add_u64(o, "rows", e->rows);
        cli_json_add_u64(o, "start_row", e->start_row);
        cli_json_add_u64(o, "cols", e->cols);
        cli_json_add_u64(o, "start_col", e->start_col);
        cli_json_add_bool(o, "allocated", e->allocated);
        add_value(o, "semantic_kind", e->semantic_kind, sb_dxbc_psv0_semantic_kind_name);
        add_value(o, "component_type", e->component_type, sb_dxbc_component_type_name);
        add_value(o, "interpolation_mode", e->interpolation_mode,
                  sb_dxbc_psv0_interpolation_mode_name);
        cli_json_add_u64(o, "dynamic_index_mask", e->dynamic_index_mask);
        cli_json_add_u64(o, "output_stream", e->output_stream);
        json_object_array_add(a, o);
    }
    return a;
}

/* An absent table is null; a present one its dwords. */
static json_object *bitset_json(const struct sb_dxbc_psv0_bitset *set)
{
    return set->present ? u32_array(set->dwords, set->dword_count) : NULL;
}

/* Four per-stream tables; an absent one is an empty list. */
static json_object *stream_bitsets_json(const struct sb_dxbc_psv0_bitset sets[4])
{
    json_object *a = json_object_new_array();
    for (unsigned i = 0; i < 4; i++)
        json_object_array_add(a, u32_array(sets[i].dwords, sets[i].present ? sets[i].dword_count : 0));
    return a;
}

static json_object *psv0_json(const struct sb_dxbc_psv0 *psv)
{
    json_object *o = json_object_new_object();
    cli_json_add(o, "runtime_info", runtime_info_json(&psv->info));
    cli_json_add_u64(o, "resource_count", psv->resource_count);
    cli_json_add_u64(o, "resource_stride", psv->resource_stride);
    cli_json_add_bool(o, "resource_stride_stored", psv->resource_stride_stored);
    json_object *res = json_object_new_array();
    for (uint32_t i = 0; i < psv->resource_count; i++)
        json_object_array_add(res, resource_json(&psv->resources[i]));
    cli_json_add(o, "resources", res);
    cli_json_add_u64(o, "string_table_size", psv->string_table_size);
    cli_json_add(o, "semantic_index_table",
                 u32_array(psv->semantic_index_table, psv->semantic_index_count));
    cli_json_add_u64(o, "element_size", psv->element_size);
    cli_json_add(o, "input_elements", elements_json(psv->input_elements, psv->input_element_count));
    cli_json_add(o, "output_elements",
                 elements_json(psv->output_elements, psv->output_element_count));
    cli_json_add(o, "patch_const_or_prim_elements",
                 elements_json(psv->patch_const_or_prim_elements,
                               psv->patch_const_or_prim_element_count));
    cli_json_add(o, "view_id_output_masks", stream_bitsets_json(psv->view_id_output_masks));
    cli_json_add(o, "view_id_patch_const_or_prim_mask",
                 bitset_json(&psv->view_id_patch_const_or_prim_mask));
    cli_json_add(o, "input_to_output", stream_bitsets_json(psv->input_to_output));
    cli_json_add(o, "input_to_patch_const", bitset_json(&psv->input_to_patch_const));
    cli_json_add(o, "patch_const_to_output", bitset_json(&psv->patch_const_to_output));
    cli_json_add_u64(o, "trailing_bytes", psv->trailing_bytes);
    return o;
}

static json_object *range_json(const struct sb_dxbc_rts0_range *r)
{
    json_object *o = json_object_new_object();
    add_value(o, "range_type", r->range_type, sb_dxbc_rts0_range_type_name);
    cli_json_add_u64(o, "num_descriptors", r->num_descriptors);
    cli_json_add_u64(o, "base_shader_register", r->base_shader_register);
    cli_json_add_u64(o, "register_space", r->register_space);
    add_flags(o, r->flags, sb_dxbc_rts0_range_flag_name);
    cli_json_add_u64(o, "offset_in_descriptors_from_table_start",
                     r->offset_in_descriptors_from_table_start);
    return o;
}

static json_object *parameter_json(const struct sb_dxbc_rts0_parameter *p)
{
    json_object *o = json_object_new_object();
    add_value(o, "parameter_type", p->parameter_type, sb_dxbc_rts0_parameter_type_name);
    add_value(o, "shader_visibility", p->shader_visibility, sb_dxbc_rts0_shader_visibility_name);
    cli_json_add_u64(o, "payload_offset", p->payload_offset);
    json_object *payload = json_object_new_object();
    switch (p->parameter_type) {
    case SB_DXBC_RTS0_PARAMETER_DESCRIPTOR_TABLE: {
        cli_json_add_u64(payload, "range_count", p->table.range_count);
        cli_json_add_u64(payload, "ranges_offset", p->table.ranges_offset);
        json_object *ranges = json_object_new_array();
        for (uint32_t i = 0; i < p->table.range_count; i++)
            json_object_array_add(ranges, range_json(&p->table.ranges[i]));
        cli_json_add(payload, "ranges", ranges);
        cli_json_add(o, "table", payload);
        break;
    }
    case SB_DXBC_RTS0_PARAMETER_CONSTANTS_32BIT:
        cli_json_add_u64(payload, "shader_register", p->constants.shader_register);
        cli_json_add_u64(payload, "register_space", p->constants.register_space);
        cli_json_add_u64(payload, "num_32bit_values", p->constants.num_32bit_values);
        cli_json_add(o, "constants", payload);
        break;
    default:
        cli_json_add_u64(payload, "shader_register", p->descriptor.shader_register);
        cli_json_add_u64(payload, "register_space", p->descriptor.register_space);
        add_flags(payload, p->descriptor.flags, sb_dxbc_rts0_descriptor_flag_name);
        cli_json_add(o, "descriptor", payload);
        break;
    }
    return o;
}

static json_object *sampler_json(const struct sb_dxbc_rts0_static_sampler *s)
{
    json_object *o = json_object_new_object();
    add_value(o, "filter", s->filter, sb_dxbc_rts0_filter_name);
    add_value(o, "address_u", s->address_u, sb_dxbc_rts0_address_mode_name);
    add_value(o, "address_v", s->address_v, sb_dxbc_rts0_address_mode_name);
    add_value(o, "address_w", s->address_w, sb_dxbc_rts0_address_mode_name);
    cli_json_add(o, "mip_lod_bias", json_object_new_double(s->mip_lod_bias));
    cli_json_add_u64(o, "max_anisotropy", s->max_anisotropy);
    add_value(o, "comparison_func", s->comparison_func, sb_dxbc_rts0_comparison_func_name);
    add_value(o, "border_color", s->border_color, sb_dxbc_rts0_border_color_name);
    cli_json_add(o, "min_lod", json_object_new_double(s->min_lod));
    cli_json_add(o, "max_lod", json_object_new_double(s->max_lod));
    cli_json_add_u64(o, "shader_register", s->shader_register);
    cli_json_add_u64(o, "register_space", s->register_space);
    add_value(o, "shader_visibility", s->shader_visibility, sb_dxbc_rts0_shader_visibility_name);
    add_flags(o, s->flags, sb_dxbc_rts0_sampler_flag_name);
    return o;
}

static json_object *rts0_json(const struct sb_dxbc_rts0 *rts)
{
    json_object *o = json_object_new_object();
    char version[8];
    snprintf(version, sizeof(version), "1.%u", rts->version - 1);
    cli_json_add_u64(o, "version", rts->version);
    cli_json_add_str(o, "version_name", version);
    cli_json_add_u64(o, "parameter_count", rts->parameter_count);
    cli_json_add_u64(o, "parameters_offset", rts->parameters_offset);
    cli_json_add_u64(o, "static_sampler_count", rts->static_sampler_count);
    cli_json_add_u64(o, "static_samplers_offset", rts->static_samplers_offset);
    add_flags(o, rts->flags, sb_dxbc_rts0_root_flag_name);
    json_object *params = json_object_new_array();
    for (uint32_t i = 0; i < rts->parameter_count; i++)
        json_object_array_add(params, parameter_json(&rts->parameters[i]));
    cli_json_add(o, "parameters", params);
    json_object *samplers = json_object_new_array();
    for (uint32_t i = 0; i < rts->static_sampler_count; i++)
        json_object_array_add(samplers, sampler_json(&rts->static_samplers[i]));
    cli_json_add(o, "static_samplers", samplers);
    return o;
}

static json_object *vers_json(const struct sb_dxbc_vers *v)
{
    json_object *o = json_object_new_object();
    cli_json_add_u64(o, "major", v->major);
    cli_json_add_u64(o, "minor", v->minor);
    cli_json_add_u64(o, "flags", v->flags);
    cli_json_add_bool(o, "is_debug_build", v->flags & SB_DXBC_VERS_FLAG_DEBUG);
    cli_json_add_bool(o, "is_internal", v->flags & SB_DXBC_VERS_FLAG_INTERNAL);
    cli_json_add_u64(o, "commit_count", v->commit_count);
    cli_json_add_u64(o, "content_size", v->content_size);
    cli_json_add_str(o, "commit_sha", v->commit_sha);
    cli_json_add_str(o, "custom_version", v->custom_version);
    return o;
}

static json_object *ildn_json(const struct sb_dxbc_ildn *d)
{
    json_object *o = json_object_new_object();
    cli_json_add_u64(o, "flags", d->flags);
    cli_json_add_u64(o, "name_length", d->name_length);
    cli_json_add_str(o, "name", d->name);
    return o;
}

static json_object *srci_names_json(const struct sb_dxbc_srci *s)
{
    json_object *o = json_object_new_object();
    cli_json_add_u64(o, "flags", s->names_flags);
    cli_json_add_u64(o, "count", s->name_count);
    cli_json_add_u64(o, "entries_size", s->names_entries_size);
    json_object *a = json_object_new_array();
    for (uint32_t i = 0; i < s->name_count; i++) {
        json_object *e = json_object_new_object();
        cli_json_add_u64(e, "aligned_size", s->names[i].aligned_size);
        cli_json_add_u64(e, "flags", s->names[i].flags);
        cli_json_add_u64(e, "name_size", s->names[i].name_size);
        cli_json_add_u64(e, "content_size", s->names[i].content_size);
        cli_json_add_str(e, "name", s->names[i].name);
        json_object_array_add(a, e);
    }
    cli_json_add(o, "entries", a);
    return o;
}

static json_object *srci_contents_json(const struct sb_dxbc_srci *s)
{
    json_object *o = json_object_new_object();
    cli_json_add_u64(o, "aligned_size", s->contents_aligned_size);
    cli_json_add_u64(o, "flags", s->contents_flags);
    add_value(o, "compression", s->compression, sb_dxbc_srci_compression_name);
    cli_json_add_u64(o, "entries_size", s->contents_entries_size);
    cli_json_add_u64(o, "uncompressed_entries_size", s->contents_uncompressed_size);
    cli_json_add_u64(o, "count", s->content_count);
    json_object *a = json_object_new_array();
    for (uint32_t i = 0; i < s->content_entry_count; i++) {
        json_object *e = json_object_new_object();
        cli_json_add_u64(e, "aligned_size", s->contents[i].aligned_size);
        cli_json_add_u64(e, "flags", s->contents[i].flags);
        cli_json_add_u64(e, "content_size", s->contents[i].content_size);
        cli_json_add_str(e, "content", s->contents[i].content);
        json_object_array_add(a, e);
    }
    cli_json_add(o, "entries", a);
    if (s->compression != SB_DXBC_SRCI_COMPRESSION_NONE)
        cli_json_add(o, "entries_raw", cli_json_hex_bytes(s->contents_raw, s->contents_entries_size));
    return o;
}

static json_object *srci_args_json(const struct sb_dxbc_srci *s)
{
    json_object *o = json_object_new_object();
    cli_json_add_u64(o, "flags", s->args_flags);
    cli_json_add_u64(o, "size", s->args_size);
    cli_json_add_u64(o, "count", s->arg_count);
    json_object *a = json_object_new_array();
    for (uint32_t i = 0; i < s->arg_count; i++) {
        json_object *e = json_object_new_object();
        cli_json_add_str(e, "name", s->args[i].name);
        cli_json_add_str(e, "value", s->args[i].value);
        json_object_array_add(a, e);
    }
    cli_json_add(o, "args", a);
    return o;
}

static json_object *srci_json(const struct sb_dxbc_srci *s)
{
    json_object *o = json_object_new_object();
    cli_json_add_u64(o, "aligned_size", s->aligned_size);
    cli_json_add_u64(o, "flags", s->flags);
    cli_json_add_u64(o, "section_count", s->section_count);
    json_object *sections = json_object_new_array();
    for (uint32_t i = 0; i < s->section_count; i++) {
        json_object *e = json_object_new_object();
        cli_json_add_u64(e, "offset", s->sections[i].offset);
        cli_json_add_u64(e, "aligned_size", s->sections[i].aligned_size);
        cli_json_add_u64(e, "flags", s->sections[i].flags);
        add_value(e, "type", s->sections[i].type, sb_dxbc_srci_section_type_name);
        json_object_array_add(sections, e);
    }
    cli_json_add(o, "sections", sections);
    cli_json_add(o, "names", s->has_names ? srci_names_json(s) : NULL);
    cli_json_add(o, "contents", s->has_contents ? srci_contents_json(s) : NULL);
    cli_json_add(o, "args", s->has_args ? srci_args_json(s) : NULL);
    return o;
}

static json_object *sym0_json(const struct sb_dxbc_sym0 *s)
{
    json_object *o = json_object_new_object();
    cli_json_add_u64(o, "symbol_count", s->symbol_count);
    json_object *a = json_object_new_array();
    for (uint32_t i = 0; i < s->symbol_count; i++) {
        const struct sb_dxbc_sym0_symbol *sym = &s->symbols[i];
        json_object *e = json_object_new_object();
        cli_json_add_str(e, "name", sym->name);
        cli_json_add_bool(e, "long_name", sym->long_name);
        if (sym->long_name)
            cli_json_add_u64(e, "string_offset", sym->string_offset);
        cli_json_add_u64(e, "value", sym->value);
        cli_json_add_u64(e, "section_index", sym->section_index);
        cli_json_add_u64(e, "base_type", sym->base_type);
        cli_json_add_u64(e, "complex_type", sym->complex_type);
        cli_json_add_u64(e, "storage_class", sym->storage_class);
        cli_json_add_u64(e, "unused", sym->unused);
        json_object_array_add(a, e);
    }
    cli_json_add(o, "symbols", a);
    return o;
}

static json_object *str0_json(const struct sb_dxbc_str0 *s)
{
    json_object *o = json_object_new_object();
    cli_json_add_u64(o, "size", s->size);
    cli_json_add_u64(o, "string_count", s->string_count);
    json_object *a = json_object_new_array();
    for (uint32_t i = 0; i < s->string_count; i++) {
        json_object *e = json_object_new_object();
        cli_json_add_u64(e, "offset", s->strings[i].offset);
        cli_json_add_str(e, "text", s->strings[i].text);
        json_object_array_add(a, e);
    }
    cli_json_add(o, "strings", a);
    cli_json_add_u64(o, "trailing_bytes", s->trailing_bytes);
    return o;
}

/* Same test as the container reader: DXC's STAT holds a program. */
static bool stat_is_program(const struct sb_dxbc_part *part)
{
    return part->size >= 12 && part->data[8] == 'D' && part->data[9] == 'X' &&
           part->data[10] == 'I' && part->data[11] == 'L';
}

json_object *cli_json_dxbc_dxil_part(const struct sb_dxbc *dxbc, const struct sb_dxbc_part *part)
{
    (void)dxbc;
    if (!part->decoded.any)
        return NULL;
    switch (part->kind) {
    case SB_DXBC_PART_DXIL:
    case SB_DXBC_PART_ILDB: return program_json(part->decoded.program);
    case SB_DXBC_PART_STAT: return stat_is_program(part) ? program_json(part->decoded.program) : NULL;
    case SB_DXBC_PART_HASH: return hash_json(part->decoded.hash);
    case SB_DXBC_PART_PSV0: return psv0_json(part->decoded.psv0);
    case SB_DXBC_PART_RTS0: return rts0_json(part->decoded.rts0);
    case SB_DXBC_PART_VERS: return vers_json(part->decoded.vers);
    case SB_DXBC_PART_ILDN: return ildn_json(part->decoded.ildn);
    case SB_DXBC_PART_SRCI: return srci_json(part->decoded.srci);
    case SB_DXBC_PART_SYM0: return sym0_json(part->decoded.sym0);
    case SB_DXBC_PART_STR0: return str0_json(part->decoded.str0);
    default: return NULL;
    }
}
