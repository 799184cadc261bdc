/* SPDX-License-Identifier: MIT */
/*
 * RDEF decoder: FXC's resource definitions (../shared/docs/dxcontainer.md §12) --
 * header (28-byte SM4.x, 60-byte SM5 with its declared descriptor sizes),
 * creator string, constant buffers with their variables, the type tree
 * below every variable, and the bound resources.
 *
 * Everything in RDEF is located by offsets stored in RDEF itself, so the
 * structure is a graph, not a stream. Three things keep hostile graphs from
 * hurting us:
 *  - types are identified by their descriptor offset and decoded once
 *    (an offset -> index hash), so a DAG of shared types costs linear time
 *    and the JSON can print a flat type table instead of an exploding tree;
 *  - a type reached again while it is still being decoded is a cycle and
 *    fails (SB_ERROR_BAD_OFFSET), and nesting deeper than
 *    SB_DXBC_RDEF_MAX_TYPE_DEPTH fails (SB_ERROR_BAD_COUNT), bounding the
 *    recursion;
 *  - descriptors may share variable or member arrays, which would multiply
 *    work (cbuffers x variables); the number of variable and member records
 *    decoded is capped at a quarter of the part size, three times what a
 *    part of that size can hold without sharing.
 */
#include "dxbc_fxc_private.h"

#include <string.h>

enum type_state { TYPE_IN_PROGRESS = 1, TYPE_DONE = 2 };

struct rdef_decoder {
    struct sb_reader *reader;
    const struct sb_cursor *part;
    struct sb_dxbc_rdef *rdef;
    struct sb_dxbc_rdef_type *types; /* grows; referenced by index until the end */
    uint8_t *type_state;
    uint32_t type_count;
    uint32_t type_capacity;
    uint32_t *hash;                  /* type offset -> index + 1; 0 = empty slot */
    uint32_t hash_capacity;          /* power of two */
    uint64_t record_budget;          /* variable + member records still allowed */
};

/* Minimum descriptor sizes of the SM4.x layout and of the SM5 header (§12). */
enum {
    CBUFFER_DESC_SIZE = 24,
    BINDING_DESC_SIZE = 32,
    BINDING_DESC_SIZE_SPACE = 40,
    VARIABLE_DESC_SIZE_SM4 = 24,
    VARIABLE_DESC_SIZE_SM5 = 40,
    TYPE_DESC_SIZE_SM4 = 16,
    TYPE_DESC_SIZE_SM5 = 36,
    MEMBER_DESC_SIZE = 12,
};

static uint32_t hash_offset(uint32_t offset, uint32_t capacity)
{
    return (offset * 2654435761u) & (capacity - 1);
}

static uint32_t find_type(const struct rdef_decoder *d, uint32_t offset)
{
    if (!d->hash_capacity)
        return UINT32_MAX;
    for (uint32_t h = hash_offset(offset, d->hash_capacity);; h = (h + 1) & (d->hash_capacity - 1)) {
        uint32_t entry = d->hash[h];
        if (!entry)
            return UINT32_MAX;
        if (d->types[entry - 1].offset == offset)
            return entry - 1;
    }
}

static bool rehash(struct rdef_decoder *d, uint32_t capacity)
{
    uint32_t *hash = sb_reader_alloc(d->reader, capacity, sizeof(*hash));
    if (!hash)
        return false;
    for (uint32_t i = 0; i < d->type_count; i++) {
        uint32_t h = hash_offset(d->types[i].offset, capacity);
        while (hash[h])
            h = (h + 1) & (capacity - 1);
        hash[h] = i + 1;
    }
    d->hash = hash;
    d->hash_capacity = capacity;
    return true;
}

/* Appends a type slot for `offset` and indexes it; returns its index or UINT32_MAX. */
static uint32_t add_type(struct rdef_decoder *d, uint32_t offset)
{
    if (d->type_count == d->type_capacity) {
        uint32_t capacity = d->type_capacity ? d->type_capacity * 2 : 16;
        struct sb_dxbc_rdef_type *types = sb_arena_grow(d->reader->arena, d->types,
                                                        d->type_count, capacity,
                                                        sizeof(*types));
        uint8_t *state = sb_arena_grow(d->reader->arena, d->type_state, d->type_count,
                                       capacity, 1);
        if (!types || !state) {
            sb_reader_fail(d->reader, SB_ERROR_OUT_OF_MEMORY, sb_fxc_at(d->part, offset),
                           "out of memory growing the RDEF type table to %u entries",
                           capacity);
            return UINT32_MAX;
        }
        d->types = types;
        d->type_state = state;
        d->type_capacity = capacity;
    }
    uint32_t index = d->type_count++;
    memset(&d->types[index], 0, sizeof(d->types[index]));
    d->types[index].offset = offset;
    d->type_state[index] = TYPE_IN_PROGRESS;
    /* Keeping the load under one half keeps probe chains short; rehashing also
     * indexes the new entry. */
    if ((uint64_t)d->type_count * 2 > d->hash_capacity)
        return rehash(d, d->hash_capacity ? d->hash_capacity * 2 : 32) ? index : UINT32_MAX;
    uint32_t h = hash_offset(offset, d->hash_capacity);
    while (d->hash[h])
        h = (h + 1) & (d->hash_capacity - 1);
    d->hash[h] = index + 1;
    return index;
}

static bool spend_records(struct rdef_decoder *d, uint32_t count, uint64_t field,
                          const char *what)
{
    if (count > d->record_budget)
        return sb_reader_fail(d->reader, SB_ERROR_BAD_COUNT, sb_fxc_at(d->part, field),
                              "%s: %u more records exceed the limit of %llu variable and "
                              "member records for a %zu-byte RDEF (descriptors share arrays)",
                              what, count,
                              (unsigned long long)(sb_cursor_size(d->part) / 4),
                              sb_cursor_size(d->part));
    d->record_budget -= count;
    return true;
}

static uint32_t decode_type(struct rdef_decoder *d, uint32_t offset, uint64_t field,
                            uint32_t depth);

/* The first byte of a record table that sb_fxc_records() checked as a whole: its records'
 * fields are then loaded without a check each. NULL after a failure. */
static const uint8_t *table_bytes(struct sb_cursor *records, const char *what)
{
    return sb_cursor_bytes(records, sb_cursor_size(records), what);
}

static bool decode_members(struct rdef_decoder *d, uint32_t index, uint32_t depth)
{
    const struct sb_dxbc_rdef *rdef = d->rdef;
    uint32_t type_offset = d->types[index].offset;
    uint32_t count = d->types[index].member_count;
    uint32_t offset = d->types[index].member_offset;
    struct sb_cursor records;
    if (!sb_fxc_records(d->part, (uint64_t)type_offset + 10, count, (uint64_t)type_offset + 12,
                        offset, rdef->member_desc_size, "type members", &records) ||
        !spend_records(d, count, (uint64_t)type_offset + 10, "type members"))
        return false;
    if (!count)
        return true;
    struct sb_dxbc_rdef_member *members = sb_reader_alloc(d->reader, count, sizeof(*members));
    const uint8_t *table = table_bytes(&records, "type members");
    if (!members || !table)
        return false;
    for (uint32_t i = 0; i < count; i++) {
        uint64_t at = (uint64_t)offset + (uint64_t)i * rdef->member_desc_size;
        const uint8_t *rec = table + (size_t)i * rdef->member_desc_size;
        members[i].type_offset = sb_load_u32(rec + 4);
        members[i].byte_offset = sb_load_u32(rec + 8);
        members[i].name = sb_fxc_string(d->part, at, sb_load_u32(rec), "member name");
        if (!members[i].name)
            return false;
        members[i].type_index = decode_type(d, members[i].type_offset, at + 4, depth + 1);
        if (members[i].type_index == UINT32_MAX)
            return false;
    }
    d->types[index].members = members;
    return true;
}

/*
 * Decodes the type descriptor at `offset` (read from the field at `field`)
 * and, recursively, its members' types. Returns its index in d->types, or
 * UINT32_MAX after recording a failure.
 */
static uint32_t decode_type(struct rdef_decoder *d, uint32_t offset, uint64_t field,
                            uint32_t depth)
{
    const struct sb_dxbc_rdef *rdef = d->rdef;
    uint32_t known = find_type(d, offset);
    if (known != UINT32_MAX) {
        if (d->type_state[known] == TYPE_DONE)
            return known;
        sb_reader_fail(d->reader, SB_ERROR_BAD_OFFSET, sb_fxc_at(d->part, field),
                       "type offset %u refers back to a type that contains this field "
                       "(a cycle in the type tree)", offset);
        return UINT32_MAX;
    }
    if (depth >= SB_DXBC_RDEF_MAX_TYPE_DEPTH) {
        sb_reader_fail(d->reader, SB_ERROR_BAD_COUNT, sb_fxc_at(d->part, field),
                       "type at offset %u is nested %u levels deep, more than the limit of %u",
                       offset, depth + 1, SB_DXBC_RDEF_MAX_TYPE_DEPTH);
        return UINT32_MAX;
    }
    size_t size = sb_cursor_size(d->part);
    if (offset > size || rdef->type_desc_size > size - offset) {
        sb_reader_fail(d->reader, SB_ERROR_BAD_OFFSET, sb_fxc_at(d->part, field),
                       "type descriptor offset %u: its %u bytes do not fit in the %zu-byte "
                       "RDEF part", offset, rdef->type_desc_size, size);
        return UINT32_MAX;
    }
    uint32_t index = add_type(d, offset);
    if (index == UINT32_MAX)
        return UINT32_MAX;
    /* Its type_desc_size bytes were checked to fit just above. */
    const uint8_t *rec = d->reader->data + d->part->begin + offset;
    struct sb_dxbc_rdef_type *type = &d->types[index];
    type->variable_class = sb_load_u16(rec);
    type->variable_type = sb_load_u16(rec + 2);
    type->rows = sb_load_u16(rec + 4);
    type->columns = sb_load_u16(rec + 6);
    type->elements = sb_load_u16(rec + 8);
    type->member_count = sb_load_u16(rec + 10);
    type->member_offset = sb_load_u32(rec + 12);
    if (rdef->is_sm5) {
        for (unsigned i = 0; i < 4; i++)
            type->sm5_words[i] = sb_load_u32(rec + 16 + 4 * i);
        type->name_offset = sb_load_u32(rec + 32);
        if (type->name_offset &&
            !(type->name = sb_fxc_string(d->part, (uint64_t)offset + 32, type->name_offset,
                                         "type name")))
            return UINT32_MAX;
    }
    if (!decode_members(d, index, depth))
        return UINT32_MAX;
    d->type_state[index] = TYPE_DONE;
    return index;
}

/* Decodes the variable record `rec` (from a checked table), at offset `at` of the part. */
static bool decode_variable(struct rdef_decoder *d, const uint8_t *rec, uint32_t at,
                            struct sb_dxbc_rdef_variable *var)
{
    const struct sb_dxbc_rdef *rdef = d->rdef;
    var->start_offset = sb_load_u32(rec + 4);
    var->size = sb_load_u32(rec + 8);
    var->flags = sb_load_u32(rec + 12);
    var->type_offset = sb_load_u32(rec + 16);
    var->default_value_offset = sb_load_u32(rec + 20);
    if (rdef->is_sm5) {
        var->start_texture = sb_load_u32(rec + 24);
        var->texture_size = sb_load_u32(rec + 28);
        var->start_sampler = sb_load_u32(rec + 32);
        var->sampler_size = sb_load_u32(rec + 36);
    }
    var->name = sb_fxc_string(d->part, at, sb_load_u32(rec), "variable name");
    if (!var->name)
        return false;
    size_t part_size = sb_cursor_size(d->part);
    if (var->default_value_offset) {
        uint32_t off = var->default_value_offset;
        if (off > part_size || var->size > part_size - off)
            return sb_reader_fail(d->reader, off > part_size ? SB_ERROR_BAD_OFFSET
                                                             : SB_ERROR_BAD_SIZE,
                                  sb_fxc_at(d->part, (uint64_t)at + 20),
                                  "variable '%s': default value at offset %u of %u bytes "
                                  "leaves the %zu-byte RDEF part", var->name, off, var->size,
                                  part_size);
        struct sb_cursor value = sb_cursor_window(d->part, off, var->size, "default value");
        var->default_value = sb_cursor_bytes(&value, var->size, "default value");
    }
    var->type_index = decode_type(d, var->type_offset, (uint64_t)at + 16, 0);
    return var->type_index != UINT32_MAX;
}

static bool decode_cbuffers(struct rdef_decoder *d)
{
    struct sb_dxbc_rdef *rdef = d->rdef;
    struct sb_cursor records;
    if (!sb_fxc_records(d->part, 0, rdef->cbuffer_count, 4, rdef->cbuffer_offset,
                        rdef->cbuffer_desc_size, "constant buffers", &records))
        return false;
    if (!rdef->cbuffer_count)
        return true;
    struct sb_dxbc_rdef_cbuffer *cbs = sb_reader_alloc(d->reader, rdef->cbuffer_count,
                                                       sizeof(*cbs));
    if (!cbs)
        return false;
    rdef->cbuffers = cbs;
    const uint8_t *table = table_bytes(&records, "constant buffers");
    if (!table)
        return false;
    for (uint32_t i = 0; i < rdef->cbuffer_count; i++) {
        uint32_t at = rdef->cbuffer_offset + i * rdef->cbuffer_desc_size;
        const uint8_t *rec = table + (size_t)i * rdef->cbuffer_desc_size;
        struct sb_dxbc_rdef_cbuffer *cb = &cbs[i];
        cb->variable_count = sb_load_u32(rec + 4);
        cb->variable_offset = sb_load_u32(rec + 8);
        cb->size = sb_load_u32(rec + 12);
        cb->flags = sb_load_u32(rec + 16);
        cb->type = sb_load_u32(rec + 20);
        cb->name = sb_fxc_string(d->part, at, sb_load_u32(rec), "cbuffer name");
        struct sb_cursor vars;
        if (!cb->name ||
            !sb_fxc_records(d->part, (uint64_t)at + 4, cb->variable_count, (uint64_t)at + 8,
                            cb->variable_offset, rdef->variable_desc_size, "cbuffer variables",
                            &vars) ||
            !spend_records(d, cb->variable_count, (uint64_t)at + 4, "cbuffer variables"))
            return false;
        if (!cb->variable_count)
            continue;
        struct sb_dxbc_rdef_variable *v = sb_reader_alloc(d->reader, cb->variable_count,
                                                          sizeof(*v));
        const uint8_t *var_table = table_bytes(&vars, "cbuffer variables");
        if (!v || !var_table)
            return false;
        cb->variables = v;
        for (uint32_t j = 0; j < cb->variable_count; j++) {
            if (!decode_variable(d, var_table + (size_t)j * rdef->variable_desc_size,
                                 cb->variable_offset + j * rdef->variable_desc_size, &v[j]))
                return false;
        }
    }
    return true;
}

static bool decode_bindings(struct rdef_decoder *d)
{
    struct sb_dxbc_rdef *rdef = d->rdef;
    struct sb_cursor records;
    if (!sb_fxc_records(d->part, 8, rdef->binding_count, 12, rdef->binding_offset,
                        rdef->binding_desc_size, "bound resources", &records))
        return false;
    if (!rdef->binding_count)
        return true;
    struct sb_dxbc_rdef_binding *b = sb_reader_alloc(d->reader, rdef->binding_count,
                                                     sizeof(*b));
    const uint8_t *table = table_bytes(&records, "bound resources");
    if (!b || !table)
        return false;
    rdef->bindings = b;
    for (uint32_t i = 0; i < rdef->binding_count; i++) {
        uint32_t at = rdef->binding_offset + i * rdef->binding_desc_size;
        const uint8_t *rec = table + (size_t)i * rdef->binding_desc_size;
        b[i].input_type = sb_load_u32(rec + 4);
        b[i].return_type = sb_load_u32(rec + 8);
        b[i].dimension = sb_load_u32(rec + 12);
        b[i].sample_count = sb_load_u32(rec + 16);
        b[i].bind_point = sb_load_u32(rec + 20);
        b[i].bind_count = sb_load_u32(rec + 24);
        b[i].flags = sb_load_u32(rec + 28);
        if (rdef->has_space_and_id) {
            b[i].space = sb_load_u32(rec + 32);
            b[i].id = sb_load_u32(rec + 36);
        }
        b[i].name = sb_fxc_string(d->part, at, sb_load_u32(rec), "binding name");
        if (!b[i].name)
            return false;
    }
    return true;
}

/* Reads one declared SM5 descriptor size and checks it against the documented minimum. */
static uint32_t read_desc_size(struct rdef_decoder *d, struct sb_cursor *cur, uint32_t minimum,
                               const char *what)
{
    size_t at = sb_cursor_tell(cur);
    uint32_t value = sb_cursor_u32(cur, what);
    if (sb_cursor_ok(cur) && value < minimum)
        sb_reader_fail(d->reader, SB_ERROR_BAD_SIZE, sb_fxc_at(d->part, at),
                       "RDEF %s is %u bytes, smaller than the documented %u", what, value,
                       minimum);
    return value;
}

static bool decode_header(struct rdef_decoder *d, struct sb_cursor *cur)
{
    struct sb_dxbc_rdef *rdef = d->rdef;
    rdef->cbuffer_count = sb_cursor_u32(cur, "RDEF constant buffer count");
    rdef->cbuffer_offset = sb_cursor_u32(cur, "RDEF constant buffer offset");
    rdef->binding_count = sb_cursor_u32(cur, "RDEF bound resource count");
    rdef->binding_offset = sb_cursor_u32(cur, "RDEF bound resource offset");
    rdef->target = sb_cursor_u32(cur, "RDEF target");
    rdef->compile_flags = sb_cursor_u32(cur, "RDEF compile flags");
    rdef->creator_offset = sb_cursor_u32(cur, "RDEF creator offset");
    if (!sb_cursor_ok(cur))
        return false;
    rdef->major = (rdef->target >> 8) & 0xff;
    rdef->minor = rdef->target & 0xff;
    rdef->program_type_raw = rdef->target >> 16;
    rdef->program_type = sb_fxc_rdef_stage(rdef->program_type_raw);
    rdef->header_size = SB_DXBC_RDEF_SM4_HEADER_SIZE;
    rdef->cbuffer_desc_size = CBUFFER_DESC_SIZE;
    rdef->binding_desc_size = BINDING_DESC_SIZE;
    rdef->variable_desc_size = VARIABLE_DESC_SIZE_SM4;
    rdef->type_desc_size = TYPE_DESC_SIZE_SM4;
    rdef->member_desc_size = MEMBER_DESC_SIZE;
    if (rdef->major < 5)
        return true;

    rdef->is_sm5 = true;
    rdef->magic = sb_cursor_u32(cur, "RDEF SM5 magic");
    if (sb_cursor_ok(cur) && rdef->magic != SB_DXBC_RDEF_MAGIC_SM50 &&
        rdef->magic != SB_DXBC_RDEF_MAGIC_SM51)
        return sb_reader_fail(d->reader, SB_ERROR_BAD_MAGIC, sb_fxc_at(d->part, 28),
                              "RDEF of target %u.%u: magic 0x%08x is neither 'RD11' "
                              "(0x%08x) nor the SM 5.1 value 0x%08x", rdef->major, rdef->minor,
                              rdef->magic, SB_DXBC_RDEF_MAGIC_SM50, SB_DXBC_RDEF_MAGIC_SM51);
    rdef->header_size = read_desc_size(d, cur, SB_DXBC_RDEF_SM5_HEADER_SIZE, "header size");
    rdef->cbuffer_desc_size = read_desc_size(d, cur, CBUFFER_DESC_SIZE,
                                             "constant buffer descriptor size");
    rdef->binding_desc_size = read_desc_size(d, cur, BINDING_DESC_SIZE,
                                             "bound resource descriptor size");
    rdef->variable_desc_size = read_desc_size(d, cur, VARIABLE_DESC_SIZE_SM5,
                                              "variable descriptor size");
    rdef->type_desc_size = read_desc_size(d, cur, TYPE_DESC_SIZE_SM5, "type descriptor size");
    rdef->member_desc_size = read_desc_size(d, cur, MEMBER_DESC_SIZE,
                                            "member descriptor size");
    rdef->interface_slot_count = sb_cursor_u32(cur, "RDEF interface slot count");
    if (!sb_cursor_ok(cur))
        return false;
    if (rdef->header_size > sb_cursor_size(d->part))
        return sb_reader_fail(d->reader, SB_ERROR_BAD_SIZE, sb_fxc_at(d->part, 32),
                              "RDEF header size %u is larger than the %zu-byte part",
                              rdef->header_size, sb_cursor_size(d->part));
    rdef->has_space_and_id = rdef->binding_desc_size >= BINDING_DESC_SIZE_SPACE;
    return true;
}

/* Turns the type indices recorded while the table grew into pointers. */
static void link_types(struct rdef_decoder *d)
{
    struct sb_dxbc_rdef *rdef = d->rdef;
    for (uint32_t i = 0; i < d->type_count; i++) {
        struct sb_dxbc_rdef_member *members = (struct sb_dxbc_rdef_member *)d->types[i].members;
        for (uint32_t j = 0; members && j < d->types[i].member_count; j++)
            members[j].type = &d->types[members[j].type_index];
    }
    for (uint32_t i = 0; i < rdef->cbuffer_count; i++) {
        struct sb_dxbc_rdef_variable *vars =
            (struct sb_dxbc_rdef_variable *)rdef->cbuffers[i].variables;
        for (uint32_t j = 0; vars && j < rdef->cbuffers[i].variable_count; j++)
            vars[j].type = &d->types[vars[j].type_index];
    }
    rdef->type_count = d->type_count;
    rdef->types = d->types;
}

bool sb_dxbc_decode_rdef(struct sb_dxbc_decode_context *ctx, struct sb_cursor *data,
                         struct sb_dxbc_part *part)
{
    struct sb_dxbc_rdef *rdef = sb_reader_alloc(ctx->reader, 1, sizeof(*rdef));
    if (!rdef)
        return false;
    struct rdef_decoder d = { .reader = ctx->reader, .part = data, .rdef = rdef,
                              .record_budget = sb_cursor_size(data) / 4 };
    struct sb_cursor header = *data;
    if (!decode_header(&d, &header))
        return false;
    if (rdef->creator_offset) {
        rdef->creator = sb_fxc_string(data, 24, rdef->creator_offset, "RDEF creator");
        if (!rdef->creator)
            return false;
    }
    if (!decode_cbuffers(&d) || !decode_bindings(&d))
        return false;
    link_types(&d);
    part->decoded.rdef = rdef;
    return true;
}

/* ---- name tables (d3dcommon enumerations as listed in §12) ---- */

#define TABLE_NAME(table, value) \
    ((value) < sizeof(table) / sizeof((table)[0]) ? (table)[value] : NULL)

const char *sb_dxbc_shader_input_type_name(uint32_t input_type)
{
    static const char *const names[] = {
        "CBUFFER", "TBUFFER", "TEXTURE", "SAMPLER", "UAV_RWTYPED", "STRUCTURED",
        "UAV_RWSTRUCTURED", "BYTEADDRESS", "UAV_RWBYTEADDRESS", "UAV_APPEND_STRUCTURED",
        "UAV_CONSUME_STRUCTURED", "UAV_RWSTRUCTURED_WITH_COUNTER", "RTACCELERATIONSTRUCTURE",
        "UAV_FEEDBACKTEXTURE",
    };
    return TABLE_NAME(names, input_type);
}

const char *sb_dxbc_return_type_name(uint32_t return_type)
{
    static const char *const names[] = {
        NULL, "UNORM", "SNORM", "SINT", "UINT", "FLOAT", "MIXED", "DOUBLE", "CONTINUED",
    };
    return TABLE_NAME(names, return_type);
}

const char *sb_dxbc_srv_dimension_name(uint32_t dimension)
{
    static const char *const names[] = {
        "UNKNOWN", "BUFFER", "TEXTURE1D", "TEXTURE1DARRAY", "TEXTURE2D", "TEXTURE2DARRAY",
        "TEXTURE2DMS", "TEXTURE2DMSARRAY", "TEXTURE3D", "TEXTURECUBE", "TEXTURECUBEARRAY",
        "BUFFEREX",
    };
    return TABLE_NAME(names, dimension);
}

const char *sb_dxbc_variable_class_name(uint32_t variable_class)
{
    static const char *const names[] = {
        "scalar", "vector", "matrix_rows", "matrix_columns", "object", "struct",
        "interface_class", "interface_pointer",
    };
    return TABLE_NAME(names, variable_class);
}

const char *sb_dxbc_variable_type_name(uint32_t variable_type)
{
    static const char *const names[] = {
        "void", "bool", "int", "float", "string", "texture", "texture1d", "texture2d",
        "texture3d", "texturecube", "sampler", "sampler1d", "sampler2d", "sampler3d",
        "samplercube", "pixelshader", "vertexshader", "pixelfragment", "vertexfragment",
        "uint", "uint8", "geometryshader", "rasterizer", "depthstencil", "blend", "buffer",
        "cbuffer", "tbuffer", "texture1darray", "texture2darray", "rendertargetview",
        "depthstencilview", "texture2dms", "texture2dmsarray", "texturecubearray",
        "hullshader", "domainshader", "interface_pointer", "computeshader", "double",
        "rwtexture1d", "rwtexture1darray", "rwtexture2d", "rwtexture2darray", "rwtexture3d",
        "rwbuffer", "byteaddressbuffer", "rwbyteaddressbuffer", "structuredbuffer",
        "rwstructuredbuffer", "appendstructuredbuffer", "consumestructuredbuffer",
        "min8float", "min10float", "min16float", "min12int", "min16int", "min16uint",
        "int16", "uint16", "float16", "int64", "uint64",
    };
    return TABLE_NAME(names, variable_type);
}

const char *sb_dxbc_cbuffer_type_name(uint32_t cbuffer_type)
{
    static const char *const names[] = {
        "cbuffer", "tbuffer", "interface_pointers", "resource_bind_info",
    };
    return TABLE_NAME(names, cbuffer_type);
}

const char *sb_dxbc_compile_flag_name(unsigned bit)
{
    /* D3DCOMPILE_* bits; 16 and 17 are reserved and unnamed. */
    static const char *const names[] = {
        "DEBUG", "SKIP_VALIDATION", "SKIP_OPTIMIZATION", "PACK_MATRIX_ROW_MAJOR",
        "PACK_MATRIX_COLUMN_MAJOR", "PARTIAL_PRECISION", "FORCE_VS_SOFTWARE_NO_OPT",
        "FORCE_PS_SOFTWARE_NO_OPT", "NO_PRESHADER", "AVOID_FLOW_CONTROL",
        "PREFER_FLOW_CONTROL", "ENABLE_STRICTNESS", "ENABLE_BACKWARDS_COMPATIBILITY",
        "IEEE_STRICTNESS", "OPTIMIZATION_LEVEL0", "OPTIMIZATION_LEVEL3", NULL, NULL,
        "WARNINGS_ARE_ERRORS", "RESOURCES_MAY_ALIAS", "ENABLE_UNBOUNDED_DESCRIPTOR_TABLES",
        "ALL_RESOURCES_BOUND", "DEBUG_NAME_FOR_SOURCE", "DEBUG_NAME_FOR_BINARY",
    };
    return TABLE_NAME(names, bit);
}

const char *sb_dxbc_shader_input_flag_name(unsigned bit)
{
    static const char *const names[] = {
        "USERPACKED", "COMPARISON_SAMPLER", "TEXTURE_COMPONENT_0", "TEXTURE_COMPONENT_1",
        "UNUSED",
    };
    return TABLE_NAME(names, bit);
}

const char *sb_dxbc_variable_flag_name(unsigned bit)
{
    static const char *const names[] = {
        "USERPACKED", "USED", "INTERFACE_POINTER", "INTERFACE_PARAMETER",
    };
    return TABLE_NAME(names, bit);
}
