/* SPDX-License-Identifier: MIT */
/*
 * The resource and type-annotation halves of the dx.* decoder
 * (dxil_program_private.h): dx.resources records of the four classes with
 * their exact field counts and tag lists (../shared/docs/dxil.md §4.5), and
 * dx.typeAnnotations struct annotations (§4.6), which give a cbuffer's
 * members their names, offsets and types. A CBV is tied to its layout by
 * type: the record's variable points to the HLSL struct, the annotation's key
 * is an undef of the same struct type. Reflection-stripped programs (most of
 * the corpus) keep no struct annotations; their CBVs then have no layout.
 */
#include "dxil_program_private.h"

#include <string.h>

#include "arena.h"

static const char *const CLASS_NAMES[4] = { "SRV", "UAV", "CBV", "sampler" };
/* What an error names a resource's node by (constants: no formatting per resource). */
static const char *const RECORD_NAMES[4] = { "SRV record", "UAV record", "CBV record", "sampler record" };

/* The struct a resource variable's type points to, through pointers and arrays. */
static uint32_t struct_behind(const struct sb_bc_module *m, uint32_t type)
{
    /* A type chain is at most as long as the type table: bound the walk by it, since a
     * malformed module may make it cycle. */
    for (uint32_t steps = 0; type < m->type_count && steps < m->type_count; steps++) {
        const struct sb_bc_type *t = &m->types[type];
        if (t->kind == SB_BC_TYPE_STRUCT)
            return type;
        if (t->kind != SB_BC_TYPE_POINTER && t->kind != SB_BC_TYPE_ARRAY)
            break;
        type = t->element;
    }
    return SB_BC_NONE;
}

/* The `i32 tag, value` list closing an SRV/UAV/CBV/sampler record. */
static bool read_tags(struct sb_dxil_md_reader *r, uint32_t id, struct sb_dxil_resource *res)
{
    const struct sb_bc_metadata *tags = sb_dxil_md_pairs(r, id, "resource tags");
    if (!tags)
        return r->result == SB_SUCCESS;
    for (uint32_t i = 0; i < tags->operand_count / 2; i++) {
        uint32_t tag, value;
        if (!sb_dxil_md_pair_u32(r, tags, i, "resource tag", &tag, &value))
            return false;
        if (tag == SB_DXIL_RES_TAG_ELEMENT_TYPE)
            res->element_type = value;
        else if (tag == SB_DXIL_RES_TAG_STRUCT_STRIDE)
            res->struct_stride = value;
        else if (tag == SB_DXIL_RES_TAG_SAMPLER_FEEDBACK_TYPE)
            res->sampler_feedback_type = value;
        else if (tag == SB_DXIL_RES_TAG_ATOMIC64_USE)
            res->atomic64_use = value != 0;
    }
    return true;
}

static bool read_flag(struct sb_dxil_md_reader *r, const struct sb_bc_metadata *node,
                      uint32_t field, const char *what, bool *out)
{
    uint32_t value;
    if (!sb_dxil_md_field_u32(r, node, field, what, &value))
        return false;
    *out = value != 0;
    return true;
}

/* The class-specific fields 6.. of a record. */
static bool read_class_fields(struct sb_dxil_md_reader *r, const struct sb_bc_metadata *node,
                              struct sb_dxil_resource *res)
{
    switch (res->resource_class) {
    case SB_DXIL_RESOURCE_CLASS_SRV:
        return sb_dxil_md_field_u32(r, node, SB_DXIL_RES_SRV_SHAPE, "SRV shape", &res->kind) &&
               sb_dxil_md_field_u32(r, node, SB_DXIL_RES_SRV_SAMPLE_COUNT, "SRV sample count",
                                    &res->sample_count) &&
               read_tags(r, node->operands[SB_DXIL_RES_SRV_TAGS], res);
    case SB_DXIL_RESOURCE_CLASS_UAV:
        return sb_dxil_md_field_u32(r, node, SB_DXIL_RES_UAV_SHAPE, "UAV shape", &res->kind) &&
               read_flag(r, node, SB_DXIL_RES_UAV_GLOBALLY_COHERENT, "UAV globally coherent",
                         &res->globally_coherent) &&
               read_flag(r, node, SB_DXIL_RES_UAV_HAS_COUNTER, "UAV has counter",
                         &res->has_counter) &&
               read_flag(r, node, SB_DXIL_RES_UAV_RASTERIZER_ORDERED, "UAV rasterizer ordered",
                         &res->rasterizer_ordered) &&
               read_tags(r, node->operands[SB_DXIL_RES_UAV_TAGS], res);
    case SB_DXIL_RESOURCE_CLASS_CBUFFER:
        res->kind = SB_DXIL_RESOURCE_KIND_CBUFFER;
        return sb_dxil_md_field_u32(r, node, SB_DXIL_RES_CBV_SIZE, "CBV size",
                                    &res->cbuffer_size) &&
               read_tags(r, node->operands[SB_DXIL_RES_CBV_TAGS], res);
    default:
        res->kind = SB_DXIL_RESOURCE_KIND_SAMPLER;
        return sb_dxil_md_field_u32(r, node, SB_DXIL_RES_SAMPLER_KIND, "sampler kind",
                                    &res->sampler_kind) &&
               read_tags(r, node->operands[SB_DXIL_RES_SAMPLER_TAGS], res);
    }
}

static bool read_resource(struct sb_dxil_md_reader *r, uint32_t resource_class, uint32_t id,
                          struct sb_dxil_resource *res)
{
    uint32_t fields = sb_dxil_resource_field_count(resource_class);
    const char *what = RECORD_NAMES[resource_class & 3u];
    const struct sb_bc_metadata *node = sb_dxil_md_node(r, id, fields, fields, what);
    res->resource_class = resource_class;
    res->struct_type = SB_BC_NONE;
    res->layout = SB_BC_NONE;
    if (!node || !sb_dxil_md_field_u32(r, node, SB_DXIL_RES_ID, "resource id", &res->id) ||
        !sb_dxil_md_string(r, node->operands[SB_DXIL_RES_NAME], "resource name", &res->name) ||
        !sb_dxil_md_field_u32(r, node, SB_DXIL_RES_SPACE, "resource space", &res->space) ||
        !sb_dxil_md_field_u32(r, node, SB_DXIL_RES_LOWER_BOUND, "resource lower bound",
                              &res->lower_bound) ||
        !sb_dxil_md_field_u32(r, node, SB_DXIL_RES_RANGE_SIZE, "resource range size",
                              &res->range_size))
        return false;
    if (res->range_size == 0)
        return sb_dxil_md_fail(r, SB_ERROR_BAD_VALUE, "%s !%u: range size 0", what, id);
    const struct sb_bc_metadata *variable = sb_bc_metadata_get(r->module, NULL,
                                                               node->operands[SB_DXIL_RES_VARIABLE]);
    if (variable && variable->kind == SB_BC_MD_VALUE)
        res->struct_type = struct_behind(r->module, variable->type);
    return read_class_fields(r, node, res);
}

bool sb_dxil_read_resource_lists(struct sb_dxil_md_reader *r, uint32_t id,
                                 struct sb_dxil_resource_list *out)
{
    const struct sb_bc_metadata *lists = sb_dxil_md_node(r, id, 4, 4, "resource lists");
    if (!lists)
        return false;
    const struct sb_bc_metadata *classes[4];
    uint32_t total = 0;
    for (uint32_t c = 0; c < 4; c++) {
        classes[c] = sb_dxil_md_node_or_null(r, lists->operands[c], 0, UINT32_MAX,
                                             CLASS_NAMES[c]);
        if (r->result != SB_SUCCESS)
            return false;
        total += classes[c] ? classes[c]->operand_count : 0;
    }
    struct sb_dxil_resource *resources = sb_dxil_md_alloc(r, total, sizeof(*resources));
    if (total && !resources)
        return false;
    uint32_t n = 0;
    for (uint32_t c = 0; c < 4; c++)
        for (uint32_t i = 0; classes[c] && i < classes[c]->operand_count; i++)
            if (!read_resource(r, c, classes[c]->operands[i], &resources[n++]))
                return false;
    out->count = total;
    out->resources = resources;
    return true;
}

/* One field annotation: `i32 tag, value` pairs. */
static bool read_field(struct sb_dxil_md_reader *r, uint32_t id, struct sb_dxil_field_annotation *f)
{
    if (id == SB_BC_NONE)
        return sb_dxil_md_fail(r, SB_ERROR_BAD_VALUE, "field annotation is null");
    const struct sb_bc_metadata *node = sb_dxil_md_pairs(r, id, "field annotation");
    if (!node)
        return false;
    f->name = "";
    for (uint32_t i = 0; i < node->operand_count; i += 2) {
        uint32_t tag, value = 0, v = node->operands[i + 1];
        if (!sb_dxil_md_u32(r, node->operands[i], "field annotation tag", &tag))
            return false;
        bool ok = true;
        switch (tag) {
        case SB_DXIL_FIELD_MATRIX: {
            const struct sb_bc_metadata *m = sb_dxil_md_node(r, v, 3, 3, "field matrix annotation");
            ok = m && sb_dxil_md_field_u32(r, m, 0, "matrix rows", &f->matrix_rows) &&
                 sb_dxil_md_field_u32(r, m, 1, "matrix columns", &f->matrix_cols) &&
                 sb_dxil_md_field_u32(r, m, 2, "matrix orientation", &f->matrix_orientation);
            break;
        }
        case SB_DXIL_FIELD_SEMANTIC:
            ok = sb_dxil_md_string(r, v, "field semantic", &f->semantic);
            break;
        case SB_DXIL_FIELD_NAME:
            ok = sb_dxil_md_string(r, v, "field name", &f->name);
            break;
        case SB_DXIL_FIELD_RESOURCE_PROPERTIES:
        case SB_DXIL_FIELD_BIT_FIELDS:
            break; /* nodes a layout does not need */
        default:
            if (tag >= SB_DXIL_FIELD_TAG_COUNT)
                break; /* a later validator's tag: its value's shape is unknown, skip it */
            ok = sb_dxil_md_u32(r, v, sb_dxil_field_tag_name(tag), &value);
            if (tag == SB_DXIL_FIELD_SNORM)
                f->snorm = value != 0;
            else if (tag == SB_DXIL_FIELD_UNORM)
                f->unorm = value != 0;
            else if (tag == SB_DXIL_FIELD_CBUFFER_OFFSET)
                f->has_cbuffer_offset = true, f->cbuffer_offset = value;
            else if (tag == SB_DXIL_FIELD_COMPONENT_TYPE)
                f->component_type = value;
            else if (tag == SB_DXIL_FIELD_PRECISE)
                f->precise = value != 0;
            else if (tag == SB_DXIL_FIELD_CBUFFER_VARIABLE_USED)
                f->cbuffer_variable_used = value != 0;
            else if (tag == SB_DXIL_FIELD_VECTOR_SIZE)
                f->vector_size = value;
            break;
        }
        if (!ok)
            return false;
    }
    return true;
}

/* A struct annotation: key = undef of the struct type, value = !{size, field...[, args]}. */
static bool read_struct(struct sb_dxil_md_reader *r, uint32_t key, uint32_t id,
                        struct sb_dxil_struct_annotation *s)
{
    const struct sb_bc_metadata *k = sb_bc_metadata_get(r->module, NULL, key);
    if (!k || k->kind != SB_BC_MD_VALUE || k->type >= r->module->type_count ||
        r->module->types[k->type].kind != SB_BC_TYPE_STRUCT)
        return sb_dxil_md_fail(r, SB_ERROR_BAD_VALUE,
                               "struct annotation key !%u is not a value of a struct type", key);
    const struct sb_bc_type *type = &r->module->types[k->type];
    const struct sb_bc_metadata *node = sb_dxil_md_node(r, id, 1, UINT32_MAX, "struct annotation");
    if (!node || !sb_dxil_md_field_u32(r, node, 0, "struct size", &s->size))
        return false;
    /* Operands past one per member are the template-argument list (§4.6). */
    uint32_t count = node->operand_count - 1;
    if (count > type->member_count)
        count = type->member_count;
    struct sb_dxil_field_annotation *fields = sb_dxil_md_alloc(r, count, sizeof(*fields));
    if (count && !fields)
        return false;
    for (uint32_t i = 0; i < count; i++) {
        fields[i].type = type->members[i];
        if (!read_field(r, node->operands[1 + i], &fields[i]))
            return false;
    }
    const char *name = type->name ? type->name : "";
    size_t length = strlen(name);
    char *copy = sb_arena_alloc_uninit(r->arena, length + 1, 1);
    if (!copy)
        return sb_dxil_md_fail(r, SB_ERROR_OUT_OF_MEMORY, "out of memory for a struct name");
    for (size_t i = 0; i <= length; i++) /* printable ASCII, as the metadata strings */
        copy[i] = i == length || (name[i] >= 0x20 && name[i] < 0x7f) ? name[i] : '?';
    s->type = k->type;
    s->type_name = copy;
    s->field_count = count;
    s->fields = fields;
    return true;
}

bool sb_dxil_read_type_annotations(struct sb_dxil_md_reader *r, struct sb_dxil_program_info *info)
{
    const struct sb_bc_named_metadata *named =
        sb_bc_named_metadata_find(r->module, SB_DXIL_MD_TYPE_ANNOTATIONS);
    if (!named)
        return true;
    const struct sb_bc_metadata *nodes[2] = { NULL, NULL };
    uint32_t struct_count = 0;
    for (uint32_t n = 0; n < named->operand_count && n < 2; n++) {
        nodes[n] = sb_dxil_md_node(r, named->operands[n], 1, UINT32_MAX, "dx.typeAnnotations node");
        uint32_t tag;
        if (!nodes[n] || !sb_dxil_md_field_u32(r, nodes[n], 0, "type annotation tag", &tag))
            return false;
        if (nodes[n]->operand_count % 2 == 0)
            return sb_dxil_md_fail(r, SB_ERROR_BAD_COUNT, "dx.typeAnnotations node !%u holds %u "
                                   "operands, not a tag and key/annotation pairs",
                                   named->operands[n], nodes[n]->operand_count);
        uint32_t pairs = (nodes[n]->operand_count - 1) / 2;
        if (tag == SB_DXIL_TYPE_ANNOTATION_STRUCT)
            struct_count += pairs;
        else if (tag == SB_DXIL_TYPE_ANNOTATION_FUNCTION)
            info->function_annotation_count += pairs;
        else
            return sb_dxil_md_fail(r, SB_ERROR_BAD_VALUE, "dx.typeAnnotations tag %u is neither "
                                   "struct (0) nor function (1)", tag);
        if (tag != SB_DXIL_TYPE_ANNOTATION_STRUCT)
            nodes[n] = NULL;
    }
    if (named->operand_count > 2)
        return sb_dxil_md_fail(r, SB_ERROR_BAD_COUNT, "dx.typeAnnotations has %u nodes, not 1 or 2",
                               named->operand_count);
    struct sb_dxil_struct_annotation *structs = sb_dxil_md_alloc(r, struct_count, sizeof(*structs));
    if (struct_count && !structs)
        return false;
    uint32_t s = 0;
    for (uint32_t n = 0; n < 2; n++)
        for (uint32_t i = 1; nodes[n] && i < nodes[n]->operand_count; i += 2)
            if (!read_struct(r, nodes[n]->operands[i], nodes[n]->operands[i + 1], &structs[s++]))
                return false;
    info->structs = structs;
    info->struct_count = struct_count;
    return true;
}

static void link_list(const struct sb_dxil_program_info *info, struct sb_dxil_resource_list *list)
{
    struct sb_dxil_resource *resources = (struct sb_dxil_resource *)list->resources;
    for (uint32_t i = 0; i < list->count; i++) {
        if (resources[i].resource_class != SB_DXIL_RESOURCE_CLASS_CBUFFER)
            continue;
        for (uint32_t s = 0; s < info->struct_count; s++)
            if (resources[i].struct_type != SB_BC_NONE &&
                info->structs[s].type == resources[i].struct_type)
                resources[i].layout = s;
    }
}

void sb_dxil_link_cbuffer_layouts(struct sb_dxil_program_info *info)
{
    link_list(info, &info->resources);
    for (uint32_t e = 0; e < info->entry_point_count; e++)
        link_list(info, (struct sb_dxil_resource_list *)&info->entry_points[e].resources);
}
