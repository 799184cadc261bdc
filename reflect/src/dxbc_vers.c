/* SPDX-License-Identifier: MIT */
/*
 * VERS, the compiler version part (../shared/docs/dxcontainer.md §8): a 16-byte
 * header and up to two NUL-terminated strings (commit SHA, then a custom
 * version string) inside the declared content size. The content size is
 * checked against the part before the strings are read, and each string
 * must end inside the content, so no scan can run into the padding or the
 * next part.
 */
#include "dxbc_private.h"

bool sb_dxbc_decode_vers(struct sb_dxbc_decode_context *ctx, struct sb_cursor *data,
                         struct sb_dxbc_part *part)
{
    struct sb_dxbc_vers *vers = sb_reader_alloc(ctx->reader, 1, sizeof(*vers));
    if (!vers)
        return false;
    vers->major = sb_cursor_u16(data, "VERS major");
    vers->minor = sb_cursor_u16(data, "VERS minor");
    vers->flags = sb_cursor_u32(data, "VERS flags");
    vers->commit_count = sb_cursor_u32(data, "VERS commit count");
    size_t size_field = data->pos;
    vers->content_size = sb_cursor_u32(data, "VERS content size");
    if (!sb_cursor_ok(data))
        return false;
    if (vers->content_size > sb_cursor_left(data))
        return sb_reader_fail(ctx->reader, SB_ERROR_BAD_SIZE, size_field,
                              "VERS content size %u exceeds the %zu bytes after the header",
                              vers->content_size, sb_cursor_left(data));
    struct sb_cursor content = sb_cursor_window(data, sb_cursor_tell(data), vers->content_size,
                                                "VERS content");
    if (sb_cursor_left(&content))
        vers->commit_sha = sb_cursor_string(&content, "VERS commit SHA");
    if (sb_cursor_ok(&content) && sb_cursor_left(&content))
        vers->custom_version = sb_cursor_string(&content, "VERS custom version string");
    if (!sb_cursor_ok(&content))
        return false;
    part->decoded.vers = vers;
    return true;
}
