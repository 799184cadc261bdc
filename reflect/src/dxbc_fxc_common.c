/* SPDX-License-Identifier: MIT */
/*
 * Checks shared by the FXC-era part decoders (see dxbc_fxc_private.h) and
 * the program-type name table used by both RDEF (../shared/docs/dxcontainer.md §12)
 * and SHDR/SHEX (../shared/docs/sm4-tokens.md §1).
 */
#include "dxbc_fxc_private.h"

#include <string.h>

const char *sb_fxc_string(const struct sb_cursor *part, uint64_t field, uint32_t offset,
                          const char *what)
{
    if (part->reader->failed)
        return NULL;
    size_t size = sb_cursor_size(part);
    if (offset >= size) {
        sb_reader_fail(part->reader, SB_ERROR_BAD_OFFSET, sb_fxc_at(part, field),
                       "%s: string offset %u is outside its %zu-byte part", what, offset,
                       size);
        return NULL;
    }
    /* Names are read for every signature element and RDEF record: the terminated string,
     * the common case, is found here; sb_cursor_string_at() reports the other. */
    const uint8_t *start = part->reader->data + part->begin + offset;
    if (memchr(start, 0, size - offset))
        return (const char *)start;
    return sb_cursor_string_at(part, offset, what);
}

bool sb_fxc_records(const struct sb_cursor *part, uint64_t count_field, uint32_t count,
                    uint64_t offset_field, uint32_t offset, uint32_t record_size,
                    const char *what, struct sb_cursor *out)
{
    size_t size = sb_cursor_size(part);
    *out = (struct sb_cursor){ .reader = part->reader, .begin = part->end, .end = part->end,
                               .pos = part->end };
    if (part->reader->failed)
        return false;
    if (count == 0)
        return true;
    if (offset > size)
        return sb_reader_fail(part->reader, SB_ERROR_BAD_OFFSET, sb_fxc_at(part, offset_field),
                              "%s: offset %u is past the end of its %zu-byte part", what,
                              offset, size);
    /* Divides rather than multiplies, so a huge count cannot overflow. */
    if (record_size && count > (size - offset) / record_size)
        return sb_reader_fail(part->reader, SB_ERROR_BAD_COUNT, sb_fxc_at(part, count_field),
                              "%s: count %u of %u-byte records at offset %u needs more than "
                              "the %zu bytes left in the part", what, count, record_size,
                              offset, size - offset);
    *out = sb_cursor_window(part, offset, (uint64_t)count * record_size, what);
    return sb_cursor_ok(out);
}

enum sb_dxbc_program_type sb_fxc_rdef_stage(uint32_t program_type_raw)
{
    static const struct {
        uint16_t raw;
        enum sb_dxbc_program_type type;
    } rows[] = {
        { 0xFFFF, SB_DXBC_PROGRAM_PIXEL },    { 0xFFFE, SB_DXBC_PROGRAM_VERTEX },
        { 0x4753, SB_DXBC_PROGRAM_GEOMETRY }, { 0x4853, SB_DXBC_PROGRAM_HULL },
        { 0x4453, SB_DXBC_PROGRAM_DOMAIN },   { 0x4353, SB_DXBC_PROGRAM_COMPUTE },
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        if (rows[i].raw == program_type_raw)
            return rows[i].type;
    return SB_DXBC_PROGRAM_UNKNOWN;
}

/* Peeks at one u32 of another part; the caller checked the part is big enough. */
static uint32_t peek_part_u32(struct sb_dxbc_decode_context *ctx, const struct sb_dxbc_part *part,
                              uint32_t at)
{
    struct sb_cursor file = sb_cursor_whole(ctx->reader);
    struct sb_cursor data = sb_cursor_window(&file, part->data_offset + (uint64_t)at, 4,
                                             part->name);
    return sb_cursor_u32(&data, part->name);
}

enum sb_dxbc_program_type sb_fxc_container_stage(struct sb_dxbc_decode_context *ctx)
{
    const struct sb_dxbc *dxbc = ctx->dxbc;
    for (uint32_t i = 0; i < dxbc->part_count; i++) {
        const struct sb_dxbc_part *part = &dxbc->parts[i];
        if ((part->kind == SB_DXBC_PART_SHDR || part->kind == SB_DXBC_PART_SHEX) &&
            part->size >= 4) {
            uint32_t type = peek_part_u32(ctx, part, 0) >> 16;
            if (type <= SB_DXBC_PROGRAM_COMPUTE)
                return (enum sb_dxbc_program_type)type;
        }
    }
    for (uint32_t i = 0; i < dxbc->part_count; i++) {
        const struct sb_dxbc_part *part = &dxbc->parts[i];
        if (part->kind == SB_DXBC_PART_RDEF && part->size >= 20)
            return sb_fxc_rdef_stage(peek_part_u32(ctx, part, 16) >> 16);
    }
    return SB_DXBC_PROGRAM_UNKNOWN;
}

const char *sb_dxbc_program_type_name(uint32_t program_type)
{
    static const char *const names[] = { "ps", "vs", "gs", "hs", "ds", "cs" };
    return program_type < sizeof(names) / sizeof(names[0]) ? names[program_type] : NULL;
}
