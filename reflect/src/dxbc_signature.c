/* SPDX-License-Identifier: MIT */
/*
 * Signature decoder for all seven signature parts (../shared/docs/dxcontainer.md §5
 * and §10): ISGN/OSGN/PCSG (24-byte elements), OSG5 (28: a stream first)
 * and ISG1/OSG1/PSG1 (32: stream first, minimum precision last). One
 * element struct serves all three record sizes, the size being decided by
 * the FourCC as Wine and vkd3d do.
 *
 * Byte 21 of the 24/28-byte records means "components read" in an input
 * signature but "components never written" in an output one, so the used
 * mask of an output is derived here. PCSG is an output of a hull shader but
 * an input of a domain shader (the corpus confirms both readings), so its
 * direction comes from the container's stage.
 */
#include "dxbc_fxc_private.h"

enum { SIGNATURE_HEADER_SIZE = 8 };

/* The fields of the `size`-byte (24, 28 or 32) element record at `p`, inside a record
 * table whose bounds the caller checked as a whole. */
static void read_element(const uint8_t *p, uint32_t size, struct sb_dxbc_signature_element *e)
{
    if (size != 24) {
        e->stream = sb_load_u32(p);
        p += 4;
    }
    e->name_offset = sb_load_u32(p);
    e->semantic_index = sb_load_u32(p + 4);
    e->system_value = sb_load_u32(p + 8);
    e->component_type = sb_load_u32(p + 12);
    e->register_index = sb_load_u32(p + 16);
    e->mask = p[20];
    e->rw_mask = p[21];
    if (size == 32)
        e->min_precision = sb_load_u32(p + 24); /* after two bytes of padding */
}

static uint32_t element_size_of(enum sb_dxbc_part_kind kind)
{
    switch (kind) {
    case SB_DXBC_PART_OSG5: return 28;
    case SB_DXBC_PART_ISG1:
    case SB_DXBC_PART_OSG1:
    case SB_DXBC_PART_PSG1: return 32;
    default: return 24;
    }
}

static bool derives_used_mask(struct sb_dxbc_decode_context *ctx, enum sb_dxbc_part_kind kind)
{
    switch (kind) {
    case SB_DXBC_PART_OSGN:
    case SB_DXBC_PART_OSG5: return true;
    case SB_DXBC_PART_PCSG: return sb_fxc_container_stage(ctx) != SB_DXBC_PROGRAM_DOMAIN;
    default: return false;
    }
}

/* A signature and its elements, allocated together. */
struct signature_block {
    struct sb_dxbc_signature sig;
    struct sb_dxbc_signature_element elements[];
};

bool sb_dxbc_decode_signature(struct sb_dxbc_decode_context *ctx, struct sb_cursor *data,
                              struct sb_dxbc_part *part)
{
    uint32_t element_size = element_size_of(part->kind);
    struct sb_cursor header = *data;
    uint32_t element_count = sb_cursor_u32(&header, "signature element count");
    uint32_t element_offset = sb_cursor_u32(&header, "signature element offset");
    if (!sb_cursor_ok(&header))
        return false;
    if (element_count && element_offset < SIGNATURE_HEADER_SIZE)
        return sb_reader_fail(ctx->reader, SB_ERROR_BAD_OFFSET, sb_fxc_at(data, 4),
                              "%s: first element offset %u points into the %u-byte signature "
                              "header", part->name, element_offset, SIGNATURE_HEADER_SIZE);
    struct sb_cursor records;
    if (!sb_fxc_records(data, 0, element_count, 4, element_offset, element_size,
                        "signature elements", &records))
        return false;
    /* The records fit in the part, so the element count is small enough not to overflow. */
    struct signature_block *block = sb_reader_alloc(
        ctx->reader, 1,
        sizeof(*block) + (size_t)element_count * sizeof(struct sb_dxbc_signature_element));
    if (!block)
        return false;
    struct sb_dxbc_signature *sig = &block->sig;
    sig->element_size = element_size;
    sig->element_offset = element_offset;
    sig->element_count = element_count;
    sig->derives_used_mask = derives_used_mask(ctx, part->kind);
    struct sb_dxbc_signature_element *elements = block->elements;
    const uint8_t *record = sb_cursor_bytes(&records, sb_cursor_size(&records),
                                            "signature elements");
    /* Names live after the element table (LLVM rejects names elsewhere). */
    uint64_t strings_begin = (uint64_t)sig->element_offset +
                             (uint64_t)sig->element_count * sig->element_size;
    for (uint32_t i = 0; i < sig->element_count; i++, record += sig->element_size) {
        struct sb_dxbc_signature_element *e = &elements[i];
        read_element(record, sig->element_size, e);
        if (i && e->name_offset == elements[i - 1].name_offset) {
            /* FXC writes a name once for all its indices: checked already. */
            e->semantic_name = elements[i - 1].semantic_name;
        } else if (e->name_offset == 0) {
            e->semantic_name = "";
        } else {
            uint64_t at = (uint64_t)sig->element_offset + (uint64_t)i * sig->element_size;
            uint64_t name_field = at + (sig->element_size == 24 ? 0 : 4);
            if (e->name_offset < strings_begin)
                return sb_reader_fail(ctx->reader, SB_ERROR_BAD_OFFSET,
                                      sb_fxc_at(data, name_field),
                                      "%s element %u: name offset %u points into the header or "
                                      "element table (names start at %llu)", part->name, i,
                                      e->name_offset, (unsigned long long)strings_begin);
            e->semantic_name = sb_fxc_string(data, name_field, e->name_offset,
                                             "signature element name");
            if (!e->semantic_name)
                return false;
        }
        if (sig->derives_used_mask)
            e->used_mask = (uint8_t)(e->mask & ~e->rw_mask);
    }
    sig->elements = sig->element_count ? elements : NULL;
    part->decoded.signature = sig;
    return true;
}

/* ---- name tables (LLVM's spellings, ../shared/docs/dxcontainer.md §5.1-§5.3) ---- */

struct value_name {
    uint32_t value;
    const char *name;
};

static const char *lookup(const struct value_name *rows, size_t count, uint32_t value)
{
    for (size_t i = 0; i < count; i++)
        if (rows[i].value == value)
            return rows[i].name;
    return NULL;
}

static const struct value_name system_values[] = {
    { 0, "Undefined" },
    { 1, "Position" },
    { 2, "ClipDistance" },
    { 3, "CullDistance" },
    { 4, "RenderTargetArrayIndex" },
    { 5, "ViewPortArrayIndex" },
    { 6, "VertexID" },
    { 7, "PrimitiveID" },
    { 8, "InstanceID" },
    { 9, "IsFrontFace" },
    { 10, "SampleIndex" },
    { 11, "FinalQuadEdgeTessfactor" },
    { 12, "FinalQuadInsideTessfactor" },
    { 13, "FinalTriEdgeTessfactor" },
    { 14, "FinalTriInsideTessfactor" },
    { 15, "FinalLineDetailTessfactor" },
    { 16, "FinalLineDensityTessfactor" },
    { 23, "Barycentrics" },
    { 24, "ShadingRate" },
    { 25, "CullPrimitive" },
    { 64, "Target" },
    { 65, "Depth" },
    { 66, "Coverage" },
    { 67, "DepthGE" },
    { 68, "DepthLE" },
    { 69, "StencilRef" },
    { 70, "InnerCoverage" },
};

static const struct value_name component_types[] = {
    { 0, "Unknown" }, { 1, "UInt32" }, { 2, "SInt32" }, { 3, "Float32" }, { 4, "UInt16" },
    { 5, "SInt16" },  { 6, "Float16" }, { 7, "UInt64" }, { 8, "SInt64" }, { 9, "Float64" },
};

static const struct value_name min_precisions[] = {
    { 0, "Default" }, { 1, "Float16" }, { 2, "Float2_8" }, { 3, "Reserved" },
    { 4, "SInt16" },  { 5, "UInt16" },  { 0xF0, "Any16" }, { 0xF1, "Any10" },
};

#define LOOKUP(rows, value) lookup(rows, sizeof(rows) / sizeof(rows[0]), value)

const char *sb_dxbc_system_value_name(uint32_t system_value)
{
    return LOOKUP(system_values, system_value);
}

const char *sb_dxbc_component_type_name(uint32_t component_type)
{
    return LOOKUP(component_types, component_type);
}

const char *sb_dxbc_min_precision_name(uint32_t min_precision)
{
    return LOOKUP(min_precisions, min_precision);
}
