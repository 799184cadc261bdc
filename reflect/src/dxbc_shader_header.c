/* SPDX-License-Identifier: MIT */
/*
 * SHDR/SHEX program header (../shared/docs/sm4-tokens.md §1): the version token and
 * the length token. Instructions are decoded by the translator, not here;
 * this reader only establishes the stage, the shader model and how many
 * tokens belong to the program, so later stages can trust that the length
 * never runs past the part.
 */
#include "dxbc_fxc_private.h"

#include <stdio.h>

enum { MIN_LENGTH_DWORDS = 2 };

/*
 * The program's tokens in host order. On a little-endian host the part data
 * already is that array when it sits at a 4-byte boundary (every container
 * fxc writes, in a malloc'd or arena buffer), so it is used in place: a copy
 * cost as much as decoding all other parts of a typical container, for an
 * array sb_translate never reads. Unaligned data, or a big-endian host, gets
 * a converted copy. The caller checked that `count` tokens lie inside the part.
 */
static const uint32_t *program_tokens(struct sb_reader *reader, const uint8_t *at, uint32_t count)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (((uintptr_t)at & 3u) == 0)
        return (const uint32_t *)(const void *)at;
#endif
    uint32_t *tokens = sb_reader_alloc(reader, count, sizeof(*tokens));
    for (uint32_t i = 0; tokens && i < count; i++)
        tokens[i] = sb_load_u32(at + (size_t)i * 4);
    return tokens;
}

bool sb_dxbc_decode_shader_header(struct sb_dxbc_decode_context *ctx, struct sb_cursor *data,
                                  struct sb_dxbc_part *part)
{
    struct sb_dxbc_shader_header *hdr = sb_reader_alloc(ctx->reader, 1, sizeof(*hdr));
    if (!hdr)
        return false;
    struct sb_cursor cur = *data;
    hdr->version_token = sb_cursor_u32(&cur, "program version token");
    hdr->length_dwords = sb_cursor_u32(&cur, "program length token");
    if (!sb_cursor_ok(&cur))
        return false;
    hdr->program_type = hdr->version_token >> 16;
    hdr->major = (hdr->version_token >> 4) & 0xf;
    hdr->minor = hdr->version_token & 0xf;
    hdr->part_dwords = (uint32_t)(sb_cursor_size(data) / 4);
    if (hdr->program_type > SB_DXBC_PROGRAM_COMPUTE)
        return sb_reader_fail(ctx->reader, SB_ERROR_BAD_VALUE, sb_fxc_at(data, 0),
                              "%s: program type %u in version token 0x%08x is not one of "
                              "0..5 (ps vs gs hs ds cs)", part->name, hdr->program_type,
                              hdr->version_token);
    if (hdr->major < 4 || hdr->major > 5 || (hdr->version_token & 0xff00) != 0)
        return sb_reader_fail(ctx->reader, SB_ERROR_BAD_VERSION, sb_fxc_at(data, 0),
                              "%s: version token 0x%08x names shader model %u.%u; only 4.x "
                              "and 5.x with bits 15..8 clear are SM4/5 programs", part->name,
                              hdr->version_token, hdr->major, hdr->minor);
    if (hdr->length_dwords < MIN_LENGTH_DWORDS)
        return sb_reader_fail(ctx->reader, SB_ERROR_BAD_SIZE, sb_fxc_at(data, 4),
                              "%s: length token %u is less than the %u header tokens",
                              part->name, hdr->length_dwords, MIN_LENGTH_DWORDS);
    if (hdr->length_dwords > hdr->part_dwords)
        return sb_reader_fail(ctx->reader, SB_ERROR_BAD_SIZE, sb_fxc_at(data, 4),
                              "%s: length token %u dwords is larger than the part's %u "
                              "dwords (%zu bytes)", part->name, hdr->length_dwords,
                              hdr->part_dwords, sb_cursor_size(data));
    if ((uint64_t)hdr->length_dwords * 4 != sb_cursor_size(data))
        sb_reader_warn(ctx->reader, sb_fxc_at(data, 4),
                       "%s: length token %u dwords covers less than the %zu-byte part",
                       part->name, hdr->length_dwords, sb_cursor_size(data));
    hdr->tokens = program_tokens(ctx->reader, data->reader->data + data->begin,
                                 hdr->length_dwords);
    part->decoded.shader = hdr;
    return hdr->tokens != NULL;
}

enum sb_result sb_dxbc_shader_header_profile(const struct sb_dxbc_shader_header *header,
                                             char *buf, size_t size)
{
    if (buf && size)
        buf[0] = 0;
    if (!header || !buf)
        return SB_ERROR_INVALID_ARGUMENT;
    const char *stage = sb_dxbc_program_type_name(header->program_type);
    if (!stage)
        return SB_ERROR_INVALID_ARGUMENT;
    int n = snprintf(buf, size, "%s_%u_%u", stage, header->major, header->minor);
    if (n < 0 || (size_t)n >= size) {
        if (size)
            buf[0] = 0;
        return SB_ERROR_INVALID_ARGUMENT;
    }
    return SB_SUCCESS;
}
