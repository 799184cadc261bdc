/* SPDX-License-Identifier: MIT */
/*
 * HASH part: flags and the 16-byte shader hash (../shared/docs/dxcontainer.md §3).
 * The shader hash identifies the shader (and its PDB); it is unrelated to
 * the container checksum in the file header. Bigger parts are accepted
 * (only the first 20 bytes have a meaning), as LLVM's reader does.
 */
#include "dxbc_private.h"

#include <string.h>

bool sb_dxbc_decode_hash(struct sb_dxbc_decode_context *ctx, struct sb_cursor *data,
                         struct sb_dxbc_part *part)
{
    struct sb_dxbc_hash *hash = sb_reader_alloc(ctx->reader, 1, sizeof(*hash));
    if (!hash)
        return false;
    hash->flags = sb_cursor_u32(data, "HASH flags");
    const uint8_t *digest = sb_cursor_bytes(data, 16, "HASH digest");
    if (!digest)
        return false;
    memcpy(hash->digest, digest, 16);
    hash->includes_source = (hash->flags & SB_DXBC_HASH_FLAG_INCLUDES_SOURCE) != 0;
    part->decoded.hash = hash;
    return true;
}
