/* SPDX-License-Identifier: MIT */
/*
 * IFCE decoder: FXC class-linkage interfaces (../shared/docs/dxcontainer.md §13).
 * The layout is reverse-engineered, so this is best effort -- but every
 * count and offset is checked like any other, and a failure is an error.
 *
 * Header (28 bytes): class-instance count, class-type count, slot-record
 * count, interface slot count, class-instance offset, class-type offset,
 * slot-record offset. The doc calls word 4 "unknown (apparently an
 * offset)" and places the instances right after the class types; in every
 * corpus file word 4 equals exactly that position, so it is read as the
 * instance offset. Slot type-ID arrays (u16) need only 2-byte alignment and
 * are read through the cursor. The total of type/table IDs decoded is
 * capped at half the part size, so slot records sharing one big array
 * cannot multiply the work.
 */
#include "dxbc_fxc_private.h"

enum { CLASS_TYPE_SIZE = 12, CLASS_INSTANCE_SIZE = 16, SLOT_SIZE = 16 };

static bool decode_class_types(struct sb_reader *reader, const struct sb_cursor *part,
                               struct sb_dxbc_ifce *ifce)
{
    struct sb_cursor rec;
    if (!sb_fxc_records(part, 4, ifce->class_type_count, 20, ifce->class_type_offset,
                        CLASS_TYPE_SIZE, "IFCE class types", &rec) ||
        !ifce->class_type_count)
        return sb_cursor_ok(&rec);
    struct sb_dxbc_ifce_class_type *t = sb_reader_alloc(reader, ifce->class_type_count,
                                                        sizeof(*t));
    if (!t)
        return false;
    for (uint32_t i = 0; i < ifce->class_type_count; i++) {
        uint64_t at = (uint64_t)ifce->class_type_offset + (uint64_t)i * CLASS_TYPE_SIZE;
        uint32_t name_offset = sb_cursor_u32(&rec, "class type name offset");
        t[i].id = sb_cursor_u16(&rec, "class type id");
        t[i].cbuffer_stride = sb_cursor_u16(&rec, "class type cbuffer stride");
        t[i].texture = sb_cursor_u16(&rec, "class type texture");
        t[i].sampler = sb_cursor_u16(&rec, "class type sampler");
        t[i].name = sb_fxc_string(part, at, name_offset, "class type name");
        if (!sb_cursor_ok(&rec))
            return false;
    }
    ifce->class_types = t;
    return true;
}

static bool decode_class_instances(struct sb_reader *reader, const struct sb_cursor *part,
                                   struct sb_dxbc_ifce *ifce)
{
    struct sb_cursor rec;
    if (!sb_fxc_records(part, 0, ifce->class_instance_count, 16, ifce->class_instance_offset,
                        CLASS_INSTANCE_SIZE, "IFCE class instances", &rec) ||
        !ifce->class_instance_count)
        return sb_cursor_ok(&rec);
    struct sb_dxbc_ifce_class_instance *c = sb_reader_alloc(reader, ifce->class_instance_count,
                                                            sizeof(*c));
    if (!c)
        return false;
    for (uint32_t i = 0; i < ifce->class_instance_count; i++) {
        uint64_t at = (uint64_t)ifce->class_instance_offset + (uint64_t)i * CLASS_INSTANCE_SIZE;
        uint32_t name_offset = sb_cursor_u32(&rec, "class instance name offset");
        c[i].type = sb_cursor_u16(&rec, "class instance type");
        c[i].unknown = sb_cursor_u16(&rec, "class instance unknown");
        c[i].cbuffer = sb_cursor_u16(&rec, "class instance cbuffer");
        c[i].cbuffer_offset = sb_cursor_u16(&rec, "class instance cbuffer offset");
        c[i].texture = sb_cursor_u16(&rec, "class instance texture");
        c[i].sampler = sb_cursor_u16(&rec, "class instance sampler");
        c[i].name = sb_fxc_string(part, at, name_offset, "class instance name");
        if (!sb_cursor_ok(&rec))
            return false;
    }
    ifce->class_instances = c;
    return true;
}

/* Reads one slot record's two arrays. */
static bool decode_slot_arrays(struct sb_reader *reader, const struct sb_cursor *part,
                               uint64_t at, struct sb_dxbc_ifce_slot *slot)
{
    struct sb_cursor types, tables;
    if (!sb_fxc_records(part, at + 4, slot->count, at + 8, slot->type_ids_offset, 2,
                        "IFCE slot type IDs", &types) ||
        !sb_fxc_records(part, at + 4, slot->count, at + 12, slot->table_ids_offset, 4,
                        "IFCE slot table IDs", &tables))
        return false;
    if (!slot->count)
        return true;
    uint16_t *type_ids = sb_reader_alloc(reader, slot->count, sizeof(*type_ids));
    uint32_t *table_ids = sb_reader_alloc(reader, slot->count, sizeof(*table_ids));
    if (!type_ids || !table_ids)
        return false;
    for (uint32_t j = 0; j < slot->count; j++) {
        type_ids[j] = sb_cursor_u16(&types, "IFCE slot type ID");
        table_ids[j] = sb_cursor_u32(&tables, "IFCE slot table ID");
    }
    slot->type_ids = type_ids;
    slot->table_ids = table_ids;
    return sb_cursor_ok(&types);
}

static bool decode_slots(struct sb_reader *reader, const struct sb_cursor *part,
                         struct sb_dxbc_ifce *ifce)
{
    struct sb_cursor rec;
    if (!sb_fxc_records(part, 8, ifce->slot_record_count, 24, ifce->slot_offset, SLOT_SIZE,
                        "IFCE interface slots", &rec) ||
        !ifce->slot_record_count)
        return sb_cursor_ok(&rec);
    struct sb_dxbc_ifce_slot *s = sb_reader_alloc(reader, ifce->slot_record_count, sizeof(*s));
    if (!s)
        return false;
    uint64_t budget = sb_cursor_size(part) / 2;
    uint64_t next_slot = 0;
    for (uint32_t i = 0; i < ifce->slot_record_count; i++) {
        uint64_t at = (uint64_t)ifce->slot_offset + (uint64_t)i * SLOT_SIZE;
        s[i].first_slot = (uint32_t)next_slot;
        s[i].slot_span = sb_cursor_u32(&rec, "IFCE slot span");
        s[i].count = sb_cursor_u32(&rec, "IFCE slot count");
        s[i].type_ids_offset = sb_cursor_u32(&rec, "IFCE slot type ID offset");
        s[i].table_ids_offset = sb_cursor_u32(&rec, "IFCE slot table ID offset");
        if (!sb_cursor_ok(&rec))
            return false;
        next_slot += s[i].slot_span;
        if (next_slot > UINT32_MAX)
            return sb_reader_fail(reader, SB_ERROR_BAD_COUNT, sb_fxc_at(part, at),
                                  "IFCE slot record %u: span %u takes the slot total past "
                                  "2^32", i, s[i].slot_span);
        if (s[i].count > budget)
            return sb_reader_fail(reader, SB_ERROR_BAD_COUNT, sb_fxc_at(part, at + 4),
                                  "IFCE slot record %u: %u more IDs exceed the limit of %zu "
                                  "for a %zu-byte part (records share arrays)", i, s[i].count,
                                  sb_cursor_size(part) / 2, sb_cursor_size(part));
        budget -= s[i].count;
        if (!decode_slot_arrays(reader, part, at, &s[i]))
            return false;
    }
    ifce->slots = s;
    return true;
}

bool sb_dxbc_decode_ifce(struct sb_dxbc_decode_context *ctx, struct sb_cursor *data,
                         struct sb_dxbc_part *part)
{
    struct sb_dxbc_ifce *ifce = sb_reader_alloc(ctx->reader, 1, sizeof(*ifce));
    if (!ifce)
        return false;
    struct sb_cursor header = *data;
    ifce->class_instance_count = sb_cursor_u32(&header, "IFCE class instance count");
    ifce->class_type_count = sb_cursor_u32(&header, "IFCE class type count");
    ifce->slot_record_count = sb_cursor_u32(&header, "IFCE slot record count");
    ifce->interface_slot_count = sb_cursor_u32(&header, "IFCE interface slot count");
    ifce->class_instance_offset = sb_cursor_u32(&header, "IFCE class instance offset");
    ifce->class_type_offset = sb_cursor_u32(&header, "IFCE class type offset");
    ifce->slot_offset = sb_cursor_u32(&header, "IFCE slot offset");
    if (!sb_cursor_ok(&header) || !decode_class_types(ctx->reader, data, ifce) ||
        !decode_class_instances(ctx->reader, data, ifce) || !decode_slots(ctx->reader, data, ifce))
        return false;
    part->decoded.ifce = ifce;
    return true;
}
