/* SPDX-License-Identifier: MIT */
/*
 * ILDN, the debug name part (../shared/docs/dxcontainer.md §9): u16 flags, u16 name
 * length, the name and its NUL, zero padding. The terminator is required
 * exactly at the declared length, so the name is a C string of known
 * length without scanning past the record.
 */
#include "dxbc_private.h"

bool sb_dxbc_decode_ildn(struct sb_dxbc_decode_context *ctx, struct sb_cursor *data,
                         struct sb_dxbc_part *part)
{
    struct sb_dxbc_ildn *ildn = sb_reader_alloc(ctx->reader, 1, sizeof(*ildn));
    if (!ildn)
        return false;
    ildn->flags = sb_cursor_u16(data, "ILDN flags");
    size_t length_field = data->pos;
    ildn->name_length = sb_cursor_u16(data, "ILDN name length");
    if (!sb_cursor_ok(data))
        return false;
    if ((uint64_t)ildn->name_length + 1 > sb_cursor_left(data))
        return sb_reader_fail(ctx->reader, SB_ERROR_BAD_SIZE, length_field,
                              "ILDN name length %u (plus NUL) exceeds the %zu bytes left in "
                              "the part", ildn->name_length, sb_cursor_left(data));
    const uint8_t *name = sb_cursor_bytes(data, (uint64_t)ildn->name_length + 1, "ILDN name");
    if (!name)
        return false;
    if (name[ildn->name_length] != 0)
        return sb_reader_fail(ctx->reader, SB_ERROR_BAD_STRING, data->pos - 1,
                              "ILDN name of length %u is not followed by a NUL byte",
                              ildn->name_length);
    ildn->name = (const char *)name;
    part->decoded.ildn = ildn;
    return true;
}
