/* SPDX-License-Identifier: MIT */
/*
 * VBC reader: the 25-byte header, the five reflection sections and the
 * per-stage SPIR-V blobs (../shared/docs/vbc.md §2-§4), validated by the checklist
 * of §9 and the compiler limits of §8.
 *
 * The format has no offsets or section sizes: every section starts at the
 * byte after the previous one, so the file is read strictly in order and
 * must be consumed exactly. Each count is first held to its compiler limit
 * (so a count can never size anything large) and then the whole record
 * array is required to be present before a record is decoded; a short file
 * therefore fails with SB_ERROR_TRUNCATED at the first field or record
 * array that does not fit.
 *
 * Validation is about the format and the compiler, not about the Vega
 * engine: its stricter load rules (§7) are computed as properties in
 * derive_properties() so a translation layer can accept `vslc -T` files.
 */
#include "reflect_private.h"
#include "vbc_private.h"

#include <string.h>

struct vbc_parse {
    struct sb_reader *reader;
    struct sb_cursor file;
    struct sb_vbc *vbc;
};

/* Which section a numeric record belongs to, and what it may hold there. */
struct numeric_rules {
    const char *section;
    uint32_t base_type_mask; /* bit per allowed enum sb_vbc_base_type */
    uint8_t max_array_size;
};

/* Records the first failure of the parse `p` in scope; evaluates to false. */
#define FAIL(code, at, ...) sb_reader_fail(p->reader, (code), (at), __VA_ARGS__)

#define BASE_BIT(t) (1u << (t))
#define INTERFACE_BASE_TYPES                                                                  \
    (BASE_BIT(SB_VBC_BASE_TYPE_SIGNED) | BASE_BIT(SB_VBC_BASE_TYPE_UNSIGNED) |                  \
     BASE_BIT(SB_VBC_BASE_TYPE_FLOAT))

/* GLSL forbids boolean vertex inputs and fragment outputs; struct fields allow them. */
static const struct numeric_rules vertex_input_rules = {
    "vertex input", INTERFACE_BASE_TYPES, SB_VBC_MAX_VERTEX_ARRAY_SIZE
};
static const struct numeric_rules fragment_output_rules = {
    "fragment output", INTERFACE_BASE_TYPES, 1
};
static const struct numeric_rules member_rules = {
    "uniform member", INTERFACE_BASE_TYPES | BASE_BIT(SB_VBC_BASE_TYPE_BOOLEAN),
    SB_VBC_MAX_ARRAY_SIZE
};

static size_t position(const struct vbc_parse *p)
{
    return p->file.pos;
}

/*
 * Checks (base type, dims[0], dims[1], array size) of a numeric record;
 * `at` is the file offset of the base-type byte, which both record layouts
 * follow with dims[0], dims[1] and the array size.
 */
static bool check_numeric(struct vbc_parse *p, const struct numeric_rules *rules, uint32_t index,
                          size_t at, const uint8_t *fields)
{
    uint8_t base = fields[0], rows = fields[1], columns = fields[2], array = fields[3];
    if (base >= 32 || !(rules->base_type_mask & BASE_BIT(base)))
        return FAIL(SB_ERROR_BAD_VALUE, at,
                    "%s %u: base type %u (%s) is not allowed in this section", rules->section,
                    index, base, sb_vbc_base_type_name((enum sb_vbc_base_type)base));
    if (rows < 1 || rows > 4)
        return FAIL(SB_ERROR_BAD_VALUE, at + 1,
                    "%s %u: dims[0] (vector length) %u is outside 1..4", rules->section, index,
                    rows);
    if (columns < 1 || columns > 4)
        return FAIL(SB_ERROR_BAD_VALUE, at + 2,
                    "%s %u: dims[1] (matrix columns) %u is outside 1..4", rules->section, index,
                    columns);
    if (columns > 1 && (base != SB_VBC_BASE_TYPE_FLOAT || rows < 2))
        return FAIL(SB_ERROR_BAD_VALUE, at + 2,
                    "%s %u: a %ux%u matrix needs base type float and at least 2 rows "
                    "(base type %u)", rules->section, index, columns, rows, base);
    if (array < 1 || array > rules->max_array_size)
        return FAIL(SB_ERROR_BAD_VALUE, at + 3,
                    "%s %u: array size %u is outside 1..%u", rules->section, index, array,
                    rules->max_array_size);
    return true;
}

/* Explicit pad bytes are written as zero (§1); anything else is not a vslc record. */
static bool check_zero(struct vbc_parse *p, const char *what, uint32_t index, size_t at,
                       const uint8_t *bytes, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (bytes[i])
            return FAIL(SB_ERROR_BAD_VALUE, at + i,
                        "%s %u: padding byte %zu is 0x%02x, not zero", what, index, i, bytes[i]);
    return true;
}

static bool check_stage_mask(struct vbc_parse *p, const char *what, uint32_t index, size_t at,
                             uint32_t mask)
{
    if (mask & ~(uint32_t)SB_VBC_STAGE_ALL_BITS)
        return FAIL(SB_ERROR_BAD_VALUE, at,
                    "%s %u: stage mask 0x%x uses bits outside 0x1f", what, index, mask);
    uint32_t absent = mask & ~p->vbc->stage_mask;
    if (absent)
        return FAIL(SB_ERROR_BAD_VALUE, at,
                    "%s %u: stage mask 0x%x names the %s stage, which has no bytecode "
                    "(present stages 0x%x)", what, index, mask,
                    sb_vbc_stage_bit_name(absent & (0u - absent)), p->vbc->stage_mask);
    return true;
}

/*
 * Reads a u32 record count, holds it to its compiler limit and requires
 * the whole array of `record_size`-byte records to be present. Returns the
 * count (0 on failure, with the failure recorded).
 */
static uint32_t read_count(struct vbc_parse *p, const char *what, uint32_t limit,
                           uint32_t record_size)
{
    size_t at = position(p);
    uint32_t count = sb_cursor_u32(&p->file, what);
    if (!sb_cursor_ok(&p->file))
        return 0;
    if (count > limit) {
        FAIL(SB_ERROR_BAD_COUNT, at,
             "%s count %u exceeds the compiler limit of %u", what, count, limit);
        return 0;
    }
    sb_cursor_need(&p->file, (uint64_t)count * record_size, what);
    return count;
}

static bool read_header(struct vbc_parse *p)
{
    struct sb_vbc_header *h = &p->vbc->header;
    const uint8_t *magic = sb_cursor_bytes(&p->file, 3, "magic");
    if (!magic)
        return false;
    memcpy(h->magic, magic, 3);
    if (memcmp(magic, "VBC", 3) != 0)
        return FAIL(SB_ERROR_BAD_MAGIC, 0,
                    "magic is %02x %02x %02x, not 'VBC' (56 42 43)", magic[0], magic[1], magic[2]);
    h->version = sb_cursor_u8(&p->file, "version");
    if (sb_cursor_ok(&p->file) && h->version != SB_VBC_VERSION)
        return FAIL(SB_ERROR_BAD_VERSION, 3, "version %u is not %u",
                    h->version, SB_VBC_VERSION);
    h->shader_type = sb_cursor_u8(&p->file, "shader type");
    if (sb_cursor_ok(&p->file) && h->shader_type != SB_VBC_SHADER_TYPE_GRAPHICS)
        return FAIL(SB_ERROR_BAD_VALUE, 4,
                    "shader type %u is not 1 (graphics)", h->shader_type);
    for (uint32_t s = 0; s < SB_VBC_STAGE_COUNT; s++) {
        h->bytecode_words[s] = sb_cursor_u16(&p->file, "bytecode size");
        if (!sb_cursor_ok(&p->file))
            return false;
        /* A SPIR-V module cannot be shorter than its 5-word header. */
        if (h->bytecode_words[s] > 0 && h->bytecode_words[s] < 5)
            return FAIL(SB_ERROR_BAD_SIZE, 5 + 2 * s,
                        "%s bytecode size %u words is less than a SPIR-V header (5 words)",
                        sb_vbc_stage_name((enum sb_vbc_stage)s), h->bytecode_words[s]);
        if (h->bytecode_words[s])
            p->vbc->stage_mask |= 1u << s;
    }
    for (uint32_t t = 0; t < SB_VBC_TABLE_COUNT; t++)
        h->table_sizes[t] = sb_cursor_u16(&p->file, "binding table size");
    return sb_cursor_ok(&p->file);
}

/* Vertex inputs (§3.1) and fragment outputs (§3.2) share the 8-byte record. */
static bool read_interface(struct vbc_parse *p, bool outputs)
{
    const struct numeric_rules *rules = outputs ? &fragment_output_rules : &vertex_input_rules;
    uint32_t limit = outputs ? SB_VBC_MAX_FRAGMENT_OUTPUTS : SB_VBC_MAX_VERTEX_INPUTS;
    uint32_t count = read_count(p, rules->section, limit, 8);
    struct sb_vbc_interface_var *vars = sb_reader_alloc(p->reader, count ? count : 1,
                                                        sizeof(*vars));
    if (!vars)
        return false;
    uint32_t used_locations = 0;
    for (uint32_t i = 0; i < count; i++) {
        size_t at = position(p);
        const uint8_t *r = sb_cursor_bytes(&p->file, 8, rules->section);
        if (!r || !check_numeric(p, rules, i, at + 1, r + 1) ||
            !check_zero(p, rules->section, i, at + 5, r + 5, 3))
            return false;
        struct sb_vbc_interface_var *v = &vars[i];
        v->record_offset = (uint32_t)at;
        v->location = r[0];
        v->base_type = (enum sb_vbc_base_type)r[1];
        v->dims[0] = r[2];
        v->dims[1] = r[3];
        v->array_size = r[4];
        v->location_count = (4u * v->dims[0] > 16 ? 2u : 1u) * v->dims[1] * v->array_size;
        if (outputs && v->dims[1] > 1)
            return FAIL(SB_ERROR_BAD_VALUE, at + 3,
                        "fragment output %u: matrix outputs are not allowed", i);
        if (outputs && v->dims[0] == 3)
            return FAIL(SB_ERROR_BAD_VALUE, at + 2,
                        "fragment output %u: 3-component outputs are not allowed", i);
        if (!outputs && v->dims[1] > 1 && v->array_size > 1)
            return FAIL(SB_ERROR_BAD_VALUE, at + 4,
                        "vertex input %u: a matrix input cannot be an array (array size %u)", i,
                        v->array_size);
        if ((uint32_t)v->location + v->location_count > limit)
            return FAIL(SB_ERROR_BAD_VALUE, at,
                        "%s %u: locations %u..%u pass the last location %u", rules->section, i,
                        v->location, v->location + v->location_count - 1, limit - 1);
        uint32_t span = ((1u << v->location_count) - 1u) << v->location;
        if (used_locations & span)
            return FAIL(SB_ERROR_DUPLICATE, at,
                        "%s %u: location range %u..%u overlaps an earlier record",
                        rules->section, i, v->location, v->location + v->location_count - 1);
        used_locations |= span;
    }
    if (outputs) {
        p->vbc->fragment_outputs = vars;
        p->vbc->fragment_output_count = count;
    } else {
        p->vbc->vertex_inputs = vars;
        p->vbc->vertex_input_count = count;
        p->vbc->vertex_location_mask = used_locations;
    }
    return sb_cursor_ok(&p->file);
}

/* The texel payload of Sampler/Image/ROTexels/RWTexels (§3.3). */
static bool read_texel_payload(struct vbc_parse *p, const struct sb_vbc_resource_row *row,
                               uint32_t index, size_t at, const uint8_t *r,
                               struct sb_vbc_binding *b)
{
    uint8_t rank = r[4], type = r[5], size = r[6], count = r[7];
    if (rank > SB_VBC_TEXEL_RANK_BUFFER || !(row->rank_mask & (1u << rank)))
        return FAIL(SB_ERROR_BAD_VALUE, at + 4,
                    "binding %u: texel rank %u (%s) is not allowed for base type %s", index,
                    rank, sb_vbc_texel_rank_name((enum sb_vbc_texel_rank)rank),
                    sb_vbc_base_type_name(row->base_type));
    if (type > SB_VBC_TEXEL_TYPE_SNORM)
        return FAIL(SB_ERROR_BAD_VALUE, at + 5,
                    "binding %u: texel type %u is outside 0..4", index, type);
    if (size != 1 && size != 2 && size != 4)
        return FAIL(SB_ERROR_BAD_VALUE, at + 6,
                    "binding %u: texel component size %u is not 1, 2 or 4", index, size);
    if (count != 1 && count != 2 && count != 4)
        return FAIL(SB_ERROR_BAD_VALUE, at + 7,
                    "binding %u: texel component count %u is not 1, 2 or 4", index, count);
    if (!sb_vbc_texel_format_known(type, size, count))
        return FAIL(SB_ERROR_BAD_VALUE, at + 6,
                    "binding %u: %s texels of %u-byte components are not a compiler format",
                    index, sb_vbc_texel_type_name((enum sb_vbc_texel_type)type), size);
    /* Built-in sampled types are always float4, int4 or uint4 (§5.4). */
    if (row->sampled_format && (type > SB_VBC_TEXEL_TYPE_FLOAT || count != 4))
        return FAIL(SB_ERROR_BAD_VALUE, at + 5,
                    "binding %u: %s bindings sample float4, int4 or uint4, not %s x%u", index,
                    sb_vbc_base_type_name(row->base_type),
                    sb_vbc_texel_type_name((enum sb_vbc_texel_type)type), count);
    b->rank = (enum sb_vbc_texel_rank)rank;
    b->format.type = (enum sb_vbc_texel_type)type;
    b->format.component_size = size;
    b->format.component_count = count;
    if (!(row->engine_rank_mask & (1u << rank)))
        b->binding_type = SB_VBC_BINDING_UNMAPPED;
    else if (row->binding_type_by_rank)
        b->binding_type = (enum sb_vbc_binding_type)(row->binding_type + rank);
    return true;
}

static bool read_bindings(struct vbc_parse *p)
{
    uint32_t count = read_count(p, "binding", SB_VBC_MAX_BINDINGS, 8);
    struct sb_vbc_binding *bindings = sb_reader_alloc(p->reader, count ? count : 1,
                                                      sizeof(*bindings));
    if (!bindings)
        return false;
    uint32_t slots = 0, max_slot = 0;
    for (uint32_t i = 0; i < count; i++) {
        size_t at = position(p);
        const uint8_t *r = sb_cursor_bytes(&p->file, 8, "binding");
        if (!r)
            return false;
        struct sb_vbc_binding *b = &bindings[i];
        b->record_offset = (uint32_t)at;
        b->slot = r[0];
        if (b->slot >= SB_VBC_MAX_BINDINGS)
            return FAIL(SB_ERROR_BAD_VALUE, at,
                        "binding %u: slot %u is not below %u", i, b->slot,
                        SB_VBC_MAX_BINDINGS);
        if (slots & (1u << b->slot))
            return FAIL(SB_ERROR_DUPLICATE, at,
                        "binding %u: slot %u is already used by an earlier binding", i, b->slot);
        const struct sb_vbc_resource_row *row = sb_vbc_resource_row(r[1]);
        if (!row)
            return FAIL(SB_ERROR_BAD_VALUE, at + 1,
                        "binding %u: base type %u (%s) is not a resource type (5..10)", i, r[1],
                        sb_vbc_base_type_name((enum sb_vbc_base_type)r[1]));
        b->base_type = row->base_type;
        b->stage_mask = sb_load_u16(r + 2);
        if (!check_stage_mask(p, "binding", i, at + 2, b->stage_mask))
            return false;
        b->is_buffer = row->is_buffer;
        b->table = row->table;
        b->descriptor_type = row->descriptor_type;
        b->binding_type = row->binding_type;
        if (row->is_buffer) {
            b->buffer_stride = sb_load_u16(r + 4);
            /* The element is a non-empty scalar-layout struct (§8). */
            if (b->buffer_stride == 0 || b->buffer_stride % 4 ||
                b->buffer_stride > SB_VBC_MAX_STRUCT_SIZE)
                return FAIL(SB_ERROR_BAD_SIZE, at + 4,
                            "binding %u: buffer stride %u is not a multiple of 4 in 4..%u", i,
                            b->buffer_stride, SB_VBC_MAX_STRUCT_SIZE);
            if (!check_zero(p, "binding", i, at + 6, r + 6, 2))
                return false;
        } else if (!read_texel_payload(p, row, i, at, r, b)) {
            return false;
        }
        slots |= 1u << b->slot;
        if (b->slot > max_slot)
            max_slot = b->slot;
    }
    p->vbc->bindings = bindings;
    p->vbc->binding_count = count;
    p->vbc->binding_slot_mask = slots;
    p->vbc->push_constant_size = count ? ((max_slot + 2) / 2) * 4 : 0;
    return sb_cursor_ok(&p->file);
}

static bool is_identifier_byte(uint8_t c, bool first)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           (!first && c >= '0' && c <= '9');
}

static bool read_member(struct vbc_parse *p, uint32_t index, struct sb_vbc_uniform_member *m)
{
    size_t at = position(p);
    m->record_offset = (uint32_t)at;
    m->name_length = sb_cursor_u8(&p->file, "uniform member name length");
    if (!sb_cursor_ok(&p->file))
        return false;
    if (m->name_length == 0 || m->name_length > SB_VBC_MAX_NAME_LENGTH)
        return FAIL(SB_ERROR_BAD_STRING, at,
                    "uniform member %u: name length %u is outside 1..%u", index, m->name_length,
                    SB_VBC_MAX_NAME_LENGTH);
    const uint8_t *name = sb_cursor_bytes(&p->file, m->name_length, "uniform member name");
    if (!name)
        return false;
    for (uint32_t c = 0; c < m->name_length; c++)
        if (!is_identifier_byte(name[c], c == 0))
            return FAIL(SB_ERROR_BAD_STRING, at + 1 + c,
                        "uniform member %u: name byte %u (0x%02x) is not an identifier "
                        "character", index, c, name[c]);
    char *copy = sb_reader_alloc(p->reader, (size_t)m->name_length + 1, 1);
    if (!copy)
        return false;
    memcpy(copy, name, m->name_length);
    m->name = copy;

    size_t fields_at = position(p);
    const uint8_t *r = sb_cursor_bytes(&p->file, 6, "uniform member");
    if (!r || !check_numeric(p, &member_rules, index, fields_at + 2, r + 2))
        return false;
    m->offset = sb_load_u16(r);
    m->base_type = (enum sb_vbc_base_type)r[2];
    m->dims[0] = r[3];
    m->dims[1] = r[4];
    m->array_size = r[5];
    m->size = 4u * m->dims[0] * m->dims[1] * m->array_size;
    uint32_t struct_size = p->vbc->uniform.size;
    /* Scalar layout: 4-byte aligned members inside the struct (§8). */
    if (m->offset % 4 || (uint32_t)m->offset + m->size > struct_size)
        return FAIL(SB_ERROR_BAD_OFFSET, fields_at,
                    "uniform member %u: %u bytes at offset %u are not 4-byte aligned inside "
                    "the %u-byte struct", index, m->size, m->offset, struct_size);
    return true;
}

static bool read_uniform(struct vbc_parse *p)
{
    struct sb_vbc_uniform *u = &p->vbc->uniform;
    size_t at = position(p);
    u->record_offset = (uint32_t)at;
    u->size = sb_cursor_u16(&p->file, "uniform size");
    if (!sb_cursor_ok(&p->file) || u->size == 0)
        return sb_cursor_ok(&p->file);
    p->vbc->has_uniform = true;
    if (u->size > SB_VBC_MAX_STRUCT_SIZE || u->size % 4)
        return FAIL(SB_ERROR_BAD_SIZE, at,
                    "uniform size %u is not a multiple of 4 in 4..%u", u->size,
                    SB_VBC_MAX_STRUCT_SIZE);
    u->stage_mask = sb_cursor_u16(&p->file, "uniform stage mask");
    if (!sb_cursor_ok(&p->file) || !check_stage_mask(p, "uniform", 0, at + 2, u->stage_mask))
        return false;
    /* Every member holds at least 4 bytes of the struct, none is empty (§8). */
    uint32_t limit = u->size / 4;
    u->member_count = sb_cursor_u32(&p->file, "uniform member count");
    if (!sb_cursor_ok(&p->file))
        return false;
    if (u->member_count == 0 || u->member_count > limit)
        return FAIL(SB_ERROR_BAD_COUNT, at + 4,
                    "uniform member count %u is outside 1..%u (a %u-byte struct)",
                    u->member_count, limit, u->size);
    /* A member record is at least 7 bytes (length, one name byte, 6 bytes). */
    if (!sb_cursor_need(&p->file, (uint64_t)u->member_count * 7, "uniform members"))
        return false;
    struct sb_vbc_uniform_member *members =
        sb_reader_alloc(p->reader, u->member_count, sizeof(*members));
    if (!members)
        return false;
    for (uint32_t i = 0; i < u->member_count; i++) {
        if (!read_member(p, i, &members[i]))
            return false;
        for (uint32_t j = 0; j < i; j++)
            if (!strcmp(members[j].name, members[i].name))
                return FAIL(SB_ERROR_DUPLICATE, members[i].record_offset,
                            "uniform member %u: name '%s' is already used by member %u", i,
                            members[i].name, j);
    }
    u->members = members;
    return true;
}

static uint64_t total_bytecode_bytes(const struct sb_vbc *vbc)
{
    uint64_t words = 0;
    for (uint32_t s = 0; s < SB_VBC_STAGE_COUNT; s++)
        words += vbc->header.bytecode_words[s];
    return words * 4;
}

static bool read_subpass_inputs(struct vbc_parse *p)
{
    size_t at = position(p);
    uint32_t count = sb_cursor_u32(&p->file, "subpass input count");
    if (!sb_cursor_ok(&p->file))
        return false;
    if (count > SB_VBC_MAX_SUBPASS_INPUTS)
        return FAIL(SB_ERROR_BAD_COUNT, at,
                    "subpass input count %u exceeds the compiler limit of %u", count,
                    SB_VBC_MAX_SUBPASS_INPUTS);
    /*
     * vslc c110b1b8 writes a 48-byte in-memory object per subpass input
     * instead of the 4-byte record (§3.5). Such a file is exactly 44 bytes
     * per input too long, which is worth naming rather than failing later
     * on whatever the object's first bytes happen to hold.
     */
    uint64_t left = sb_cursor_left(&p->file);
    if (count && left == (uint64_t)count * 48 + total_bytecode_bytes(p->vbc))
        return FAIL(SB_ERROR_BAD_SIZE, at + 4,
                    "%u subpass input records are 48 bytes each (the vslc c110b1b8 writer bug), "
                    "not the 4-byte record", count);
    if (!sb_cursor_need(&p->file, (uint64_t)count * 4, "subpass inputs"))
        return false;
    struct sb_vbc_subpass_input *inputs = sb_reader_alloc(p->reader, count ? count : 1,
                                                          sizeof(*inputs));
    if (!inputs)
        return false;
    for (uint32_t i = 0; i < count; i++) {
        size_t rec = position(p);
        const uint8_t *r = sb_cursor_bytes(&p->file, 4, "subpass input");
        if (!r)
            return false;
        if (r[0] > SB_VBC_TEXEL_TYPE_FLOAT)
            return FAIL(SB_ERROR_BAD_VALUE, rec,
                        "subpass input %u: texel type %u is not signed, unsigned or float "
                        "(0..2)", i, r[0]);
        if (r[1] != 4)
            return FAIL(SB_ERROR_BAD_VALUE, rec + 1,
                        "subpass input %u: component count %u is not 4", i, r[1]);
        if (!check_zero(p, "subpass input", i, rec + 2, r + 2, 2))
            return false;
        inputs[i] = (struct sb_vbc_subpass_input){ .record_offset = (uint32_t)rec,
                                                   .index = i,
                                                   .texel_type = (enum sb_vbc_texel_type)r[0],
                                                   .component_count = r[1] };
    }
    p->vbc->subpass_inputs = inputs;
    p->vbc->subpass_input_count = count;
    return true;
}

static bool read_bytecode(struct vbc_parse *p)
{
    struct sb_vbc_spirv *slices = sb_reader_alloc(p->reader, SB_VBC_STAGE_COUNT,
                                                  sizeof(*slices));
    if (!slices)
        return false;
    uint32_t n = 0;
    for (uint32_t s = 0; s < SB_VBC_STAGE_COUNT; s++) {
        uint32_t words = p->vbc->header.bytecode_words[s];
        if (!words)
            continue;
        size_t at = position(p);
        const uint8_t *blob = sb_cursor_bytes(&p->file, (uint64_t)words * 4, "SPIR-V blob");
        if (!blob)
            return false;
        uint32_t magic = sb_load_u32(blob);
        if (magic != SB_VBC_SPIRV_MAGIC)
            return FAIL(SB_ERROR_BAD_MAGIC, at,
                        "%s SPIR-V blob starts with 0x%08x, not the SPIR-V magic 0x07230203",
                        sb_vbc_stage_name((enum sb_vbc_stage)s), magic);
        slices[n++] = (struct sb_vbc_spirv){ .stage = (enum sb_vbc_stage)s,
                                             .offset = (uint32_t)at,
                                             .word_count = words,
                                             .size = words * 4,
                                             .bytes = blob };
    }
    p->vbc->spirv = slices;
    p->vbc->spirv_count = n;
    if (sb_cursor_left(&p->file))
        return FAIL(SB_ERROR_TRAILING_DATA, position(p),
                    "%zu bytes follow the last SPIR-V blob, which should end the file",
                    sb_cursor_left(&p->file));
    return true;
}

/* The Vega engine's load-time rules (§7), kept apart from format validity. */
static void derive_properties(struct sb_vbc *vbc)
{
    vbc->engine_stages = vbc->stage_mask == (SB_VBC_STAGE_VERTEX_BIT | SB_VBC_STAGE_FRAGMENT_BIT);
    vbc->engine_default_tables = true;
    for (uint32_t t = 0; t < SB_VBC_TABLE_COUNT; t++)
        if (vbc->header.table_sizes[t] != sb_vbc_table_default_size((enum sb_vbc_binding_table)t))
            vbc->engine_default_tables = false;
    vbc->engine_binding_types = true;
    for (uint32_t i = 0; i < vbc->binding_count; i++)
        if (vbc->bindings[i].binding_type == SB_VBC_BINDING_UNMAPPED)
            vbc->engine_binding_types = false;
    vbc->engine_loadable =
        vbc->engine_stages && vbc->engine_default_tables && vbc->engine_binding_types;
}

enum sb_result sb_vbc_parse(const void *data, size_t size, struct sb_vbc **out,
                            struct sb_error *error)
{
    if (out)
        *out = NULL;
    if (!data || !out)
        return sb_report_argument_error(error, "sb_vbc_parse: data and out must not be NULL");

    struct sb_reader reader;
    struct sb_vbc *vbc = sb_reader_begin(&reader, data, size, sizeof(*vbc));
    if (!vbc)
        return sb_reader_finish(&reader, error);
    vbc->size = reader.size;
    vbc->bytes = reader.data;
    struct vbc_parse p = { .reader = &reader, .file = sb_cursor_whole(&reader), .vbc = vbc };
    if (read_header(&p) && read_interface(&p, false) && read_interface(&p, true) &&
        read_bindings(&p) && read_uniform(&p) && read_subpass_inputs(&p) && read_bytecode(&p))
        derive_properties(vbc);
    enum sb_result result = sb_reader_finish(&reader, error);
    if (result == SB_SUCCESS)
        *out = vbc;
    return result;
}

void sb_vbc_destroy(struct sb_vbc *object)
{
    sb_object_destroy(object);
}
