/* SPDX-License-Identifier: MIT */
/*
 * SYM0 and STR0, the proposed symbol and string tables (hlsl-specs PR
 * #110, closed unmerged; ../shared/docs/dxcontainer.md §14), decoded as proposed.
 *
 * SYM0 is an array of 20-byte PE/COFF-style symbols. A name of up to 8
 * characters is stored inline; a longer one is a zero word plus an offset
 * into STR0. Each part stays decodable on its own: SYM0 resolves long
 * names by reading the container's STR0 bytes directly (the parts may come
 * in any order), and without a STR0 part the offset is kept and the name
 * left NULL. STR0 is a u32 total size (counting itself) followed by
 * NUL-terminated strings; offsets count from the size field, and bytes
 * after the declared size are padding.
 */
#include "dxbc_private.h"

#include <string.h>

/* The STR0 window [0, declared size) of the container, or an empty cursor
 * with `found` false. Fails when the declared size is impossible. */
static bool str0_window(struct sb_dxbc_decode_context *ctx, struct sb_cursor *out, bool *found)
{
    const struct sb_dxbc_part *str0 = sb_dxbc_find_part(ctx->dxbc, SB_FOURCC('S', 'T', 'R', '0'));
    *found = str0 != NULL;
    if (!str0)
        return true;
    struct sb_cursor file = sb_cursor_whole(ctx->reader);
    struct sb_cursor part = sb_cursor_window(&file, str0->data_offset, str0->size, "STR0");
    uint32_t size = sb_cursor_u32(&part, "STR0 size");
    if (!sb_cursor_ok(&part))
        return false;
    if (size < 4 || size > str0->size)
        return sb_reader_fail(ctx->reader, SB_ERROR_BAD_SIZE, str0->data_offset,
                              "STR0 size %u is outside [4, %u], its size field and the part size",
                              size, str0->size);
    *out = sb_cursor_window(&part, 0, size, "STR0 strings");
    return sb_cursor_ok(out);
}

static bool read_symbol(struct sb_dxbc_decode_context *ctx, struct sb_cursor *data,
                        const struct sb_cursor *strings, bool have_strings,
                        struct sb_dxbc_sym0_symbol *sym)
{
    size_t at = data->pos;
    const uint8_t *name = sb_cursor_bytes(data, 8, "SYM0 name");
    sym->value = sb_cursor_u32(data, "SYM0 value");
    size_t section_field = data->pos;
    sym->section_index = sb_cursor_u32(data, "SYM0 section index");
    sym->base_type = sb_cursor_u8(data, "SYM0 base type");
    sym->complex_type = sb_cursor_u8(data, "SYM0 complex type");
    sym->storage_class = sb_cursor_u8(data, "SYM0 storage class");
    sym->unused = sb_cursor_u8(data, "SYM0 unused");
    if (!sb_cursor_ok(data))
        return false;
    if (sym->section_index >= ctx->dxbc->part_count)
        return sb_reader_fail(ctx->reader, SB_ERROR_BAD_VALUE, section_field,
                              "SYM0 section index %u is not below the part count %u",
                              sym->section_index, ctx->dxbc->part_count);
    sym->long_name = sb_load_u32(name) == 0;
    if (!sym->long_name) {
        memcpy(sym->short_name, name, 8);
        sym->name = sym->short_name;
        return true;
    }
    sym->string_offset = sb_load_u32(name + 4);
    if (!have_strings)
        return true;
    if (sym->string_offset < 4 || sym->string_offset >= sb_cursor_size(strings))
        return sb_reader_fail(ctx->reader, SB_ERROR_BAD_OFFSET, at + 4,
                              "SYM0 name offset %u is outside the STR0 strings [4, %zu)",
                              sym->string_offset, sb_cursor_size(strings));
    sym->name = sb_cursor_string_at(strings, sym->string_offset, "SYM0 long name");
    return sym->name != NULL;
}

bool sb_dxbc_decode_sym0(struct sb_dxbc_decode_context *ctx, struct sb_cursor *data,
                         struct sb_dxbc_part *part)
{
    if (part->size % SB_DXBC_SYM0_RECORD_SIZE)
        return sb_reader_fail(ctx->reader, SB_ERROR_BAD_SIZE, (uint64_t)part->header_offset + 4,
                              "SYM0 part size %u is not a multiple of the %u-byte symbol",
                              part->size, SB_DXBC_SYM0_RECORD_SIZE);
    struct sb_dxbc_sym0 *sym0 = sb_reader_alloc(ctx->reader, 1, sizeof(*sym0));
    struct sb_cursor strings = { 0 };
    bool have_strings = false;
    if (!sym0 || !str0_window(ctx, &strings, &have_strings))
        return false;
    sym0->symbol_count = part->size / SB_DXBC_SYM0_RECORD_SIZE;
    struct sb_dxbc_sym0_symbol *symbols =
        sb_reader_alloc(ctx->reader, sym0->symbol_count ? sym0->symbol_count : 1, sizeof(*symbols));
    if (!symbols)
        return false;
    for (uint32_t i = 0; i < sym0->symbol_count; i++)
        if (!read_symbol(ctx, data, &strings, have_strings, &symbols[i]))
            return false;
    sym0->symbols = symbols;
    part->decoded.sym0 = sym0;
    return true;
}

bool sb_dxbc_decode_str0(struct sb_dxbc_decode_context *ctx, struct sb_cursor *data,
                         struct sb_dxbc_part *part)
{
    struct sb_dxbc_str0 *str0 = sb_reader_alloc(ctx->reader, 1, sizeof(*str0));
    if (!str0)
        return false;
    str0->size = sb_cursor_u32(data, "STR0 size");
    if (!sb_cursor_ok(data))
        return false;
    if (str0->size < 4 || str0->size > part->size)
        return sb_reader_fail(ctx->reader, SB_ERROR_BAD_SIZE, data->begin,
                              "STR0 size %u is outside [4, %u], its size field and the part size",
                              str0->size, part->size);
    str0->trailing_bytes = part->size - str0->size;
    /* Count first (each string must end before the declared size), then fill. */
    struct sb_cursor strings = sb_cursor_window(data, 4, str0->size - 4u, "STR0 strings");
    while (sb_cursor_ok(&strings) && sb_cursor_left(&strings)) {
        sb_cursor_string(&strings, "STR0 string");
        str0->string_count++;
    }
    if (!sb_cursor_ok(&strings))
        return false;
    struct sb_dxbc_str0_string *list =
        sb_reader_alloc(ctx->reader, str0->string_count ? str0->string_count : 1, sizeof(*list));
    if (!list)
        return false;
    strings.pos = strings.begin;
    for (uint32_t i = 0; i < str0->string_count; i++) {
        list[i].offset = (uint32_t)(strings.pos - data->begin);
        list[i].text = sb_cursor_string(&strings, "STR0 string");
    }
    str0->strings = list;
    part->decoded.str0 = str0;
    return sb_cursor_ok(&strings);
}
