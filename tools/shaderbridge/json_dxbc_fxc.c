/* SPDX-License-Identifier: MIT */
/*
 * JSON for the FXC-era parts of a DirectX Container (RDEF, the signatures,
 * SHDR/SHEX header, STAT, SFI0, IFCE; ../shared/docs/dxcontainer.md §4, §5, §10-§13).
 *
 * Signature, SFI0 and shader-header keys are fixed because the obj2yaml
 * comparison reads them. RDEF types are printed as one flat table that
 * variables and members refer to by index: types form a DAG, and printing
 * each use in place could grow exponentially with the nesting depth.
 */
#include "cli.h"

#include <string.h>

static json_object *name_or_null(const char *name)
{
    return name ? json_object_new_string(name) : NULL;
}

/* Flag names from a name function (bits past `bits` or unnamed print as "bitN"). */
static json_object *flag_names(uint64_t flags, const char *(*name)(unsigned), unsigned bits)
{
    const char *names[64] = { 0 };
    for (unsigned bit = 0; bit < bits && bit < 64; bit++)
        names[bit] = name(bit);
    return cli_json_flag_names(flags, names, bits);
}

static json_object *u32_array(const uint32_t *values, uint32_t count)
{
    json_object *array = json_object_new_array();
    for (uint32_t i = 0; i < count; i++)
        json_object_array_add(array, cli_json_u64(values[i]));
    return array;
}

/* ---- RDEF ---- */

static json_object *rdef_type_json(const struct sb_dxbc_rdef *rdef, const struct sb_dxbc_rdef_type *t)
{
    json_object *o = json_object_new_object();
    cli_json_add_u64(o, "offset", t->offset);
    cli_json_add_u64(o, "class", t->variable_class);
    cli_json_add(o, "class_name", name_or_null(sb_dxbc_variable_class_name(t->variable_class)));
    cli_json_add_u64(o, "type", t->variable_type);
    cli_json_add(o, "type_name", name_or_null(sb_dxbc_variable_type_name(t->variable_type)));
    cli_json_add_u64(o, "rows", t->rows);
    cli_json_add_u64(o, "columns", t->columns);
    cli_json_add_u64(o, "elements", t->elements);
    cli_json_add_u64(o, "member_offset", t->member_offset);
    if (rdef->is_sm5) {
        cli_json_add(o, "sm5_words", u32_array(t->sm5_words, 4));
        cli_json_add_u64(o, "name_offset", t->name_offset);
        cli_json_add(o, "name", cli_json_string_or_null(t->name));
    }
    json_object *members = json_object_new_array();
    for (uint32_t i = 0; i < t->member_count; i++) {
        const struct sb_dxbc_rdef_member *m = &t->members[i];
        json_object *mo = json_object_new_object();
        cli_json_add_str(mo, "name", m->name);
        cli_json_add_u64(mo, "byte_offset", m->byte_offset);
        cli_json_add_u64(mo, "type_offset", m->type_offset);
        cli_json_add_u64(mo, "type_index", m->type_index);
        json_object_array_add(members, mo);
    }
    cli_json_add(o, "members", members);
    return o;
}

static json_object *rdef_variable_json(const struct sb_dxbc_rdef *rdef,
                                       const struct sb_dxbc_rdef_variable *v)
{
    json_object *o = json_object_new_object();
    cli_json_add_str(o, "name", v->name);
    cli_json_add_u64(o, "start_offset", v->start_offset);
    cli_json_add_u64(o, "size", v->size);
    cli_json_add_u64(o, "flags", v->flags);
    cli_json_add(o, "flag_names", flag_names(v->flags, sb_dxbc_variable_flag_name, 32));
    cli_json_add_u64(o, "type_offset", v->type_offset);
    cli_json_add_u64(o, "type_index", v->type_index);
    cli_json_add_u64(o, "default_value_offset", v->default_value_offset);
    cli_json_add(o, "default_value",
                 v->default_value ? cli_json_hex_bytes(v->default_value, v->size) : NULL);
    if (rdef->is_sm5) {
        cli_json_add_u64(o, "start_texture", v->start_texture);
        cli_json_add_u64(o, "texture_size", v->texture_size);
        cli_json_add_u64(o, "start_sampler", v->start_sampler);
        cli_json_add_u64(o, "sampler_size", v->sampler_size);
    }
    return o;
}

static json_object *rdef_cbuffer_json(const struct sb_dxbc_rdef *rdef,
                                      const struct sb_dxbc_rdef_cbuffer *cb)
{
    json_object *o = json_object_new_object();
    cli_json_add_str(o, "name", cb->name);
    cli_json_add_u64(o, "type", cb->type);
    cli_json_add(o, "type_name", name_or_null(sb_dxbc_cbuffer_type_name(cb->type)));
    cli_json_add_u64(o, "size", cb->size);
    cli_json_add_u64(o, "flags", cb->flags);
    cli_json_add_u64(o, "variable_offset", cb->variable_offset);
    json_object *vars = json_object_new_array();
    for (uint32_t i = 0; i < cb->variable_count; i++)
        json_object_array_add(vars, rdef_variable_json(rdef, &cb->variables[i]));
    cli_json_add(o, "variables", vars);
    return o;
}

static json_object *rdef_binding_json(const struct sb_dxbc_rdef *rdef,
                                      const struct sb_dxbc_rdef_binding *b)
{
    json_object *o = json_object_new_object();
    cli_json_add_str(o, "name", b->name);
    cli_json_add_u64(o, "input_type", b->input_type);
    cli_json_add(o, "input_type_name", name_or_null(sb_dxbc_shader_input_type_name(b->input_type)));
    cli_json_add_u64(o, "return_type", b->return_type);
    cli_json_add(o, "return_type_name", name_or_null(sb_dxbc_return_type_name(b->return_type)));
    cli_json_add_u64(o, "dimension", b->dimension);
    cli_json_add(o, "dimension_name", name_or_null(sb_dxbc_srv_dimension_name(b->dimension)));
    cli_json_add_u64(o, "sample_count", b->sample_count);
    cli_json_add_u64(o, "bind_point", b->bind_point);
    cli_json_add_u64(o, "bind_count", b->bind_count);
    cli_json_add_u64(o, "flags", b->flags);
    cli_json_add(o, "flag_names", flag_names(b->flags, sb_dxbc_shader_input_flag_name, 32));
    if (rdef->has_space_and_id) {
        cli_json_add_u64(o, "space", b->space);
        cli_json_add_u64(o, "id", b->id);
    }
    return o;
}

static json_object *rdef_json(const struct sb_dxbc_rdef *rdef)
{
    json_object *o = json_object_new_object();
    cli_json_add_u64(o, "target", rdef->target);
    cli_json_add_u64(o, "major", rdef->major);
    cli_json_add_u64(o, "minor", rdef->minor);
    cli_json_add_u64(o, "program_type_raw", rdef->program_type_raw);
    cli_json_add(o, "program_type_name", name_or_null(sb_dxbc_program_type_name(rdef->program_type)));
    cli_json_add_u64(o, "compile_flags", rdef->compile_flags);
    cli_json_add(o, "compile_flag_names",
                 flag_names(rdef->compile_flags, sb_dxbc_compile_flag_name, 32));
    cli_json_add_u64(o, "creator_offset", rdef->creator_offset);
    cli_json_add(o, "creator", cli_json_string_or_null(rdef->creator));
    cli_json_add_bool(o, "is_sm5", rdef->is_sm5);
    if (rdef->is_sm5) {
        cli_json_add_u64(o, "magic", rdef->magic);
        cli_json_add_u64(o, "interface_slot_count", rdef->interface_slot_count);
    }
    cli_json_add_u64(o, "header_size", rdef->header_size);
    cli_json_add_u64(o, "cbuffer_desc_size", rdef->cbuffer_desc_size);
    cli_json_add_u64(o, "binding_desc_size", rdef->binding_desc_size);
    cli_json_add_u64(o, "variable_desc_size", rdef->variable_desc_size);
    cli_json_add_u64(o, "type_desc_size", rdef->type_desc_size);
    cli_json_add_u64(o, "member_desc_size", rdef->member_desc_size);
    cli_json_add_u64(o, "cbuffer_offset", rdef->cbuffer_offset);
    cli_json_add_u64(o, "binding_offset", rdef->binding_offset);

    json_object *cbs = json_object_new_array();
    for (uint32_t i = 0; i < rdef->cbuffer_count; i++)
        json_object_array_add(cbs, rdef_cbuffer_json(rdef, &rdef->cbuffers[i]));
    cli_json_add(o, "constant_buffers", cbs);
    json_object *bindings = json_object_new_array();
    for (uint32_t i = 0; i < rdef->binding_count; i++)
        json_object_array_add(bindings, rdef_binding_json(rdef, &rdef->bindings[i]));
    cli_json_add(o, "bound_resources", bindings);
    json_object *types = json_object_new_array();
    for (uint32_t i = 0; i < rdef->type_count; i++)
        json_object_array_add(types, rdef_type_json(rdef, &rdef->types[i]));
    cli_json_add(o, "types", types);
    return o;
}

/* ---- signatures, shader header, STAT, SFI0, IFCE ---- */

static json_object *signature_json(const struct sb_dxbc_signature *sig)
{
    json_object *o = json_object_new_object();
    cli_json_add_u64(o, "element_size", sig->element_size);
    cli_json_add_u64(o, "element_offset", sig->element_offset);
    json_object *elements = json_object_new_array();
    for (uint32_t i = 0; i < sig->element_count; i++) {
        const struct sb_dxbc_signature_element *e = &sig->elements[i];
        json_object *eo = json_object_new_object();
        cli_json_add_u64(eo, "stream", e->stream);
        cli_json_add_str(eo, "name", e->semantic_name);
        cli_json_add_u64(eo, "semantic_index", e->semantic_index);
        cli_json_add_u64(eo, "system_value", e->system_value);
        cli_json_add(eo, "system_value_name", name_or_null(sb_dxbc_system_value_name(e->system_value)));
        cli_json_add_u64(eo, "component_type", e->component_type);
        cli_json_add(eo, "component_type_name",
                     name_or_null(sb_dxbc_component_type_name(e->component_type)));
        cli_json_add_u64(eo, "register", e->register_index);
        cli_json_add_u64(eo, "mask", e->mask);
        cli_json_add_u64(eo, "rw_mask", e->rw_mask);
        if (sig->derives_used_mask)
            cli_json_add_u64(eo, "used_mask", e->used_mask);
        cli_json_add_u64(eo, "min_precision", e->min_precision);
        cli_json_add(eo, "min_precision_name",
                     name_or_null(sb_dxbc_min_precision_name(e->min_precision)));
        json_object_array_add(elements, eo);
    }
    cli_json_add(o, "elements", elements);
    return o;
}

static json_object *shader_header_json(const struct sb_dxbc_shader_header *hdr)
{
    json_object *o = json_object_new_object();
    char profile[16];
    cli_json_add_u64(o, "program_type", hdr->program_type);
    cli_json_add(o, "program_type_name", name_or_null(sb_dxbc_program_type_name(hdr->program_type)));
    cli_json_add_u64(o, "major", hdr->major);
    cli_json_add_u64(o, "minor", hdr->minor);
    cli_json_add_u64(o, "length_dwords", hdr->length_dwords);
    cli_json_add(o, "profile",
                 sb_dxbc_shader_header_profile(hdr, profile, sizeof(profile)) == SB_SUCCESS
                     ? json_object_new_string(profile) : NULL);
    cli_json_add_u64(o, "version_token", hdr->version_token);
    cli_json_add_u64(o, "part_dwords", hdr->part_dwords);
    return o;
}

static json_object *stat_json(const struct sb_dxbc_stat *stat)
{
    json_object *o = json_object_new_object();
    cli_json_add_str(o, "version", sb_dxbc_stat_version_name(stat->version));
    cli_json_add_u64(o, "dword_count", stat->dword_count);
    json_object *fields = json_object_new_object();
    for (uint32_t i = 0; i < stat->dword_count && sb_dxbc_stat_field_name(i); i++)
        cli_json_add_u64(fields, sb_dxbc_stat_field_name(i), stat->dwords[i]);
    cli_json_add(o, "fields", fields);
    cli_json_add(o, "dwords", u32_array(stat->dwords, stat->dword_count));
    return o;
}

static json_object *sfi0_json(const struct sb_dxbc_sfi0 *sfi0)
{
    json_object *o = json_object_new_object();
    cli_json_add_u64(o, "flags", sfi0->flags);
    cli_json_add(o, "flag_names", flag_names(sfi0->flags, sb_dxbc_sfi0_flag_name, 64));
    return o;
}

static json_object *ifce_json(const struct sb_dxbc_ifce *ifce)
{
    json_object *o = json_object_new_object();
    cli_json_add_u64(o, "interface_slot_count", ifce->interface_slot_count);
    cli_json_add_u64(o, "class_type_offset", ifce->class_type_offset);
    cli_json_add_u64(o, "class_instance_offset", ifce->class_instance_offset);
    cli_json_add_u64(o, "slot_offset", ifce->slot_offset);
    json_object *types = json_object_new_array();
    for (uint32_t i = 0; i < ifce->class_type_count; i++) {
        const struct sb_dxbc_ifce_class_type *t = &ifce->class_types[i];
        json_object *to = json_object_new_object();
        cli_json_add_str(to, "name", t->name);
        cli_json_add_u64(to, "id", t->id);
        cli_json_add_u64(to, "cbuffer_stride", t->cbuffer_stride);
        cli_json_add_u64(to, "texture", t->texture);
        cli_json_add_u64(to, "sampler", t->sampler);
        json_object_array_add(types, to);
    }
    cli_json_add(o, "class_types", types);
    json_object *instances = json_object_new_array();
    for (uint32_t i = 0; i < ifce->class_instance_count; i++) {
        const struct sb_dxbc_ifce_class_instance *c = &ifce->class_instances[i];
        json_object *co = json_object_new_object();
        cli_json_add_str(co, "name", c->name);
        cli_json_add_u64(co, "type", c->type);
        cli_json_add_u64(co, "unknown", c->unknown);
        cli_json_add_u64(co, "cbuffer", c->cbuffer);
        cli_json_add_u64(co, "cbuffer_offset", c->cbuffer_offset);
        cli_json_add_u64(co, "texture", c->texture);
        cli_json_add_u64(co, "sampler", c->sampler);
        json_object_array_add(instances, co);
    }
    cli_json_add(o, "class_instances", instances);
    json_object *slots = json_object_new_array();
    for (uint32_t i = 0; i < ifce->slot_record_count; i++) {
        const struct sb_dxbc_ifce_slot *s = &ifce->slots[i];
        json_object *so = json_object_new_object();
        cli_json_add_u64(so, "first_slot", s->first_slot);
        cli_json_add_u64(so, "slot_span", s->slot_span);
        json_object *type_ids = json_object_new_array();
        for (uint32_t j = 0; j < s->count; j++)
            json_object_array_add(type_ids, cli_json_u64(s->type_ids[j]));
        cli_json_add(so, "type_ids", type_ids);
        cli_json_add(so, "table_ids", u32_array(s->table_ids, s->count));
        json_object_array_add(slots, so);
    }
    cli_json_add(o, "slots", slots);
    return o;
}

json_object *cli_json_dxbc_fxc_part(const struct sb_dxbc *dxbc, const struct sb_dxbc_part *part)
{
    (void)dxbc;
    if (!part->decoded.any)
        return NULL;
    switch (part->kind) {
    case SB_DXBC_PART_RDEF: return rdef_json(part->decoded.rdef);
    case SB_DXBC_PART_ISGN:
    case SB_DXBC_PART_OSGN:
    case SB_DXBC_PART_OSG5:
    case SB_DXBC_PART_PCSG:
    case SB_DXBC_PART_ISG1:
    case SB_DXBC_PART_OSG1:
    case SB_DXBC_PART_PSG1: return signature_json(part->decoded.signature);
    case SB_DXBC_PART_SHDR:
    case SB_DXBC_PART_SHEX: return shader_header_json(part->decoded.shader);
    case SB_DXBC_PART_STAT:
        /* The reader's routing rule: a STAT with the DXIL magic at byte 8 holds a
         * program, decoded (and printed) by the DXIL side. */
        if (part->size >= 12 && memcmp(part->data + 8, "DXIL", 4) == 0)
            return NULL;
        return stat_json(part->decoded.stat);
    case SB_DXBC_PART_SFI0: return sfi0_json(part->decoded.sfi0);
    case SB_DXBC_PART_IFCE: return ifce_json(part->decoded.ifce);
    default: return NULL;
    }
}
