/* SPDX-License-Identifier: MIT */
/*
 * JSON and the one-line `info` summary of a VBC file (../shared/docs/vbc.md): every
 * decoded field of shaderbridge/vbc.h under snake_case keys, enums as their
 * names next to the raw numbers a runtime needs. SPIR-V blobs appear as
 * slices {stage, offset, word_count}; the words themselves are left to
 * `shaderbridge reflect` on an extracted module.
 */
#include "cli.h"

#include <string.h>

static json_object *stage_mask_json(uint32_t mask)
{
    json_object *array = json_object_new_array();
    for (uint32_t s = 0; s < 32; s++)
        if (mask & (1u << s))
            json_object_array_add(array, json_object_new_string(sb_vbc_stage_bit_name(1u << s)));
    return array;
}

/* VSL's spelling: float, int3, bool2, float4x3 (floatCxR: columns x rows). */
static json_object *numeric_name_json(enum sb_vbc_base_type base, const uint8_t dims[2])
{
    static const char *const scalar[] = { [SB_VBC_BASE_TYPE_BOOLEAN] = "bool",
                                          [SB_VBC_BASE_TYPE_SIGNED] = "int",
                                          [SB_VBC_BASE_TYPE_UNSIGNED] = "uint",
                                          [SB_VBC_BASE_TYPE_FLOAT] = "float" };
    char text[32];
    const char *name = (unsigned)base < 5 && scalar[base] ? scalar[base] : "?";
    if (dims[1] > 1)
        snprintf(text, sizeof(text), "%s%ux%u", name, dims[1], dims[0]);
    else if (dims[0] > 1)
        snprintf(text, sizeof(text), "%s%u", name, dims[0]);
    else
        snprintf(text, sizeof(text), "%s", name);
    return json_object_new_string(text);
}

static void add_numeric(json_object *o, enum sb_vbc_base_type base, const uint8_t dims[2],
                        uint8_t array_size)
{
    cli_json_add(o, "type", numeric_name_json(base, dims));
    cli_json_add_str(o, "base_type", sb_vbc_base_type_name(base));
    json_object *d = json_object_new_array();
    json_object_array_add(d, json_object_new_int(dims[0]));
    json_object_array_add(d, json_object_new_int(dims[1]));
    cli_json_add(o, "dims", d);
    cli_json_add_u64(o, "array_size", array_size);
}

static json_object *interface_json(const struct sb_vbc_interface_var *vars, uint32_t count)
{
    json_object *array = json_object_new_array();
    for (uint32_t i = 0; i < count; i++) {
        json_object *o = json_object_new_object();
        cli_json_add_u64(o, "location", vars[i].location);
        add_numeric(o, vars[i].base_type, vars[i].dims, vars[i].array_size);
        cli_json_add_u64(o, "location_count", vars[i].location_count);
        cli_json_add_u64(o, "record_offset", vars[i].record_offset);
        json_object_array_add(array, o);
    }
    return array;
}

static json_object *texel_format_json(const struct sb_vbc_texel_format *f)
{
    json_object *o = json_object_new_object();
    cli_json_add_str(o, "name", sb_vbc_texel_format_name(f));
    cli_json_add_str(o, "type", sb_vbc_texel_type_name(f->type));
    cli_json_add_u64(o, "component_size", f->component_size);
    cli_json_add_u64(o, "component_count", f->component_count);
    return o;
}

static json_object *bindings_json(const struct sb_vbc *vbc)
{
    json_object *array = json_object_new_array();
    for (uint32_t i = 0; i < vbc->binding_count; i++) {
        const struct sb_vbc_binding *b = &vbc->bindings[i];
        json_object *o = json_object_new_object();
        cli_json_add_u64(o, "slot", b->slot);
        cli_json_add_str(o, "base_type", sb_vbc_base_type_name(b->base_type));
        cli_json_add(o, "stage_mask", stage_mask_json(b->stage_mask));
        cli_json_add_u64(o, "stage_mask_value", b->stage_mask);
        if (b->is_buffer) {
            cli_json_add_u64(o, "buffer_stride", b->buffer_stride);
        } else {
            cli_json_add_str(o, "rank", sb_vbc_texel_rank_name(b->rank));
            cli_json_add(o, "format", texel_format_json(&b->format));
        }
        cli_json_add_str(o, "table", sb_vbc_binding_table_name(b->table));
        cli_json_add_u64(o, "set0_binding", b->table);
        cli_json_add_str(o, "descriptor_type", sb_vbc_descriptor_type_name(b->descriptor_type));
        cli_json_add_str(o, "binding_type", sb_vbc_binding_type_name(b->binding_type));
        cli_json_add_u64(o, "record_offset", b->record_offset);
        json_object_array_add(array, o);
    }
    return array;
}

static json_object *uniform_json(const struct sb_vbc *vbc)
{
    if (!vbc->has_uniform)
        return NULL;
    const struct sb_vbc_uniform *u = &vbc->uniform;
    json_object *o = json_object_new_object();
    cli_json_add_u64(o, "size", u->size);
    cli_json_add(o, "stage_mask", stage_mask_json(u->stage_mask));
    cli_json_add_u64(o, "stage_mask_value", u->stage_mask);
    cli_json_add_u64(o, "record_offset", u->record_offset);
    json_object *members = json_object_new_array();
    for (uint32_t i = 0; i < u->member_count; i++) {
        const struct sb_vbc_uniform_member *m = &u->members[i];
        json_object *mo = json_object_new_object();
        cli_json_add_str(mo, "name", m->name);
        cli_json_add_u64(mo, "offset", m->offset);
        cli_json_add_u64(mo, "size", m->size);
        add_numeric(mo, m->base_type, m->dims, m->array_size);
        cli_json_add_u64(mo, "record_offset", m->record_offset);
        json_object_array_add(members, mo);
    }
    cli_json_add(o, "members", members);
    return o;
}

static json_object *subpass_inputs_json(const struct sb_vbc *vbc)
{
    json_object *array = json_object_new_array();
    for (uint32_t i = 0; i < vbc->subpass_input_count; i++) {
        const struct sb_vbc_subpass_input *s = &vbc->subpass_inputs[i];
        json_object *o = json_object_new_object();
        cli_json_add_u64(o, "index", s->index);
        cli_json_add_str(o, "texel_type", sb_vbc_texel_type_name(s->texel_type));
        cli_json_add_u64(o, "component_count", s->component_count);
        cli_json_add_u64(o, "record_offset", s->record_offset);
        json_object_array_add(array, o);
    }
    return array;
}

static json_object *header_json(const struct sb_vbc *vbc)
{
    const struct sb_vbc_header *h = &vbc->header;
    json_object *o = json_object_new_object();
    char magic[4] = { (char)h->magic[0], (char)h->magic[1], (char)h->magic[2], 0 };
    cli_json_add_str(o, "magic", magic);
    cli_json_add_u64(o, "version", h->version);
    cli_json_add_str(o, "shader_type",
                     sb_vbc_shader_type_name((enum sb_vbc_shader_type)h->shader_type));
    json_object *words = json_object_new_object();
    for (uint32_t s = 0; s < SB_VBC_STAGE_COUNT; s++)
        cli_json_add_u64(words, sb_vbc_stage_name((enum sb_vbc_stage)s), h->bytecode_words[s]);
    cli_json_add(o, "bytecode_words", words);
    json_object *tables = json_object_new_object();
    for (uint32_t t = 0; t < SB_VBC_TABLE_COUNT; t++)
        cli_json_add_u64(tables, sb_vbc_binding_table_name((enum sb_vbc_binding_table)t),
                         h->table_sizes[t]);
    cli_json_add(o, "table_sizes", tables);
    return o;
}

json_object *cli_json_vbc(const struct sb_vbc *vbc)
{
    json_object *o = json_object_new_object();
    cli_json_add(o, "header", header_json(vbc));
    cli_json_add(o, "stages", stage_mask_json(vbc->stage_mask));
    cli_json_add_u64(o, "stage_mask_value", vbc->stage_mask);
    cli_json_add(o, "vertex_inputs", interface_json(vbc->vertex_inputs, vbc->vertex_input_count));
    cli_json_add(o, "fragment_outputs",
                 interface_json(vbc->fragment_outputs, vbc->fragment_output_count));
    cli_json_add(o, "bindings", bindings_json(vbc));
    cli_json_add(o, "uniform", uniform_json(vbc));
    cli_json_add(o, "subpass_inputs", subpass_inputs_json(vbc));
    json_object *spirv = json_object_new_array();
    for (uint32_t i = 0; i < vbc->spirv_count; i++) {
        json_object *s = json_object_new_object();
        cli_json_add_str(s, "stage", sb_vbc_stage_name(vbc->spirv[i].stage));
        cli_json_add_u64(s, "offset", vbc->spirv[i].offset);
        cli_json_add_u64(s, "word_count", vbc->spirv[i].word_count);
        json_object_array_add(spirv, s);
    }
    cli_json_add(o, "spirv", spirv);
    cli_json_add_u64(o, "binding_slot_mask", vbc->binding_slot_mask);
    cli_json_add_u64(o, "vertex_location_mask", vbc->vertex_location_mask);
    cli_json_add_u64(o, "push_constant_size", vbc->push_constant_size);
    json_object *engine = json_object_new_object();
    cli_json_add_bool(engine, "stages", vbc->engine_stages);
    cli_json_add_bool(engine, "default_tables", vbc->engine_default_tables);
    cli_json_add_bool(engine, "binding_types", vbc->engine_binding_types);
    cli_json_add_bool(engine, "loadable", vbc->engine_loadable);
    cli_json_add(o, "engine", engine);
    return o;
}

/* "2 inputs" / "1 output": the noun in singular only for exactly one. */
static size_t append_count(char *buf, size_t size, size_t used, uint32_t n, const char *noun)
{
    if (used >= size)
        return used;
    return used + (size_t)snprintf(buf + used, size - used, ", %u %s%s", n, noun,
                                   n == 1 ? "" : "s");
}

void cli_describe_vbc(const struct sb_vbc *vbc, char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, "VBC v%u %s, stages ", vbc->header.version,
                                   sb_vbc_shader_type_name(
                                       (enum sb_vbc_shader_type)vbc->header.shader_type));
    for (uint32_t i = 0; i < vbc->spirv_count && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? "+" : "",
                                 sb_vbc_stage_name(vbc->spirv[i].stage));
    for (uint32_t i = 0; i < vbc->spirv_count && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%u", i ? "+" : " (",
                                 vbc->spirv[i].word_count);
    if (vbc->spirv_count && used < size)
        used += (size_t)snprintf(buf + used, size - used, " words)");
    else if (!vbc->spirv_count && used < size)
        used += (size_t)snprintf(buf + used, size - used, "none");
    used = append_count(buf, size, used, vbc->vertex_input_count, "input");
    used = append_count(buf, size, used, vbc->fragment_output_count, "output");
    used = append_count(buf, size, used, vbc->binding_count, "binding");
    if (used < size && vbc->has_uniform)
        used += (size_t)snprintf(buf + used, size - used, ", uniform %u bytes (%u member%s)",
                                 vbc->uniform.size, vbc->uniform.member_count,
                                 vbc->uniform.member_count == 1 ? "" : "s");
    else if (used < size)
        used += (size_t)snprintf(buf + used, size - used, ", no uniform");
    used = append_count(buf, size, used, vbc->subpass_input_count, "subpass input");
    if (used < size && !vbc->engine_default_tables)
        used += (size_t)snprintf(buf + used, size - used, ", table sizes %u/%u/%u/%u/%u",
                                 vbc->header.table_sizes[0], vbc->header.table_sizes[1],
                                 vbc->header.table_sizes[2], vbc->header.table_sizes[3],
                                 vbc->header.table_sizes[4]);
    if (used < size && !vbc->engine_loadable)
        snprintf(buf + used, size - used, ", not loadable by the Vega engine");
}
