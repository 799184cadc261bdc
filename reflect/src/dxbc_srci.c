/* SPDX-License-Identifier: MIT */
/*
 * SRCI, source info (../shared/docs/dxcontainer.md §9): a header, then sections that
 * each start with their own aligned size and type. Each section is read
 * through a window of its declared size, so a bad size inside one section
 * cannot reach into the next. SourceNames, SourceContents and Args are
 * decoded; unknown section types are listed and skipped. Compressed
 * contents (zlib) are kept raw with their compression type: this module
 * depends on libc only, and the names and sizes stay usable without them.
 */
#include "dxbc_private.h"

#define NAME_AT(table, value) \
    ((value) < sizeof(table) / sizeof((table)[0]) ? (table)[value] : NULL)

/* One row per value (§9). */
static const char *const section_type_names[] = { "SourceContents", "SourceNames", "Args" };
static const char *const compression_names[] = { "None", "Zlib" };

const char *sb_dxbc_srci_section_type_name(uint32_t type) { return NAME_AT(section_type_names, type); }
const char *sb_dxbc_srci_compression_name(uint32_t c) { return NAME_AT(compression_names, c); }

/* A sized window nested in `parent` at its position; `size_field` is where
 * the size was read, for the error. Advances the parent past it. */
static bool sub_window(struct sb_reader *reader, struct sb_cursor *parent, uint64_t size,
                       size_t size_field, const char *what, struct sb_cursor *out)
{
    if (size > sb_cursor_left(parent))
        return sb_reader_fail(reader, SB_ERROR_BAD_SIZE, size_field,
                              "SRCI %s size %llu exceeds the %zu bytes that remain", what,
                              (unsigned long long)size, sb_cursor_left(parent));
    *out = sb_cursor_window(parent, sb_cursor_tell(parent), size, what);
    return sb_cursor_skip(parent, size, what);
}

/* `size` bytes holding a NUL-terminated string that ends at the last byte. */
static const char *sized_string(struct sb_reader *reader, struct sb_cursor *c, uint32_t size,
                                const char *what)
{
    size_t at = c->pos;
    const uint8_t *bytes = sb_cursor_bytes(c, size, what);
    if (!bytes)
        return NULL;
    if (size == 0 || bytes[size - 1] != 0) {
        sb_reader_fail(reader, SB_ERROR_BAD_STRING, at,
                       "SRCI %s of %u bytes does not end with a NUL byte", what, size);
        return NULL;
    }
    return (const char *)bytes;
}

static bool read_names(struct sb_reader *reader, struct sb_cursor *sec, struct sb_dxbc_srci *srci)
{
    srci->names_flags = sb_cursor_u32(sec, "SRCI names flags");
    srci->name_count = sb_cursor_u32(sec, "SRCI name count");
    size_t size_field = sec->pos;
    srci->names_entries_size = sb_cursor_u16(sec, "SRCI names entries size");
    struct sb_cursor entries;
    if (!sb_cursor_ok(sec) ||
        !sub_window(reader, sec, srci->names_entries_size, size_field, "names entries", &entries) ||
        !sb_cursor_fits(&entries, srci->name_count, 16, "SRCI name entries"))
        return false;
    struct sb_dxbc_srci_name *names = sb_reader_alloc(reader, srci->name_count ? srci->name_count : 1,
                                                      sizeof(*names));
    if (!names)
        return false;
    for (uint32_t i = 0; i < srci->name_count; i++) {
        struct sb_dxbc_srci_name *n = &names[i];
        size_t entry_field = entries.pos;
        n->aligned_size = sb_cursor_u32(&entries, "SRCI name entry size");
        struct sb_cursor entry;
        if (!sb_cursor_ok(&entries) || !sb_cursor_seek(&entries, entry_field - entries.begin, "SRCI name entry") ||
            !sub_window(reader, &entries, n->aligned_size, entry_field, "name entry", &entry))
            return false;
        sb_cursor_skip(&entry, 4, "SRCI name entry size");
        n->flags = sb_cursor_u32(&entry, "SRCI name flags");
        n->name_size = sb_cursor_u32(&entry, "SRCI name size");
        n->content_size = sb_cursor_u32(&entry, "SRCI content size");
        if (!sb_cursor_ok(&entry) || !(n->name = sized_string(reader, &entry, n->name_size, "file name")))
            return false;
    }
    srci->names = names;
    return true;
}

static bool read_contents(struct sb_reader *reader, struct sb_cursor *sec, struct sb_dxbc_srci *srci)
{
    srci->contents_aligned_size = sb_cursor_u32(sec, "SRCI contents size");
    srci->contents_flags = sb_cursor_u16(sec, "SRCI contents flags");
    srci->compression = sb_cursor_u16(sec, "SRCI contents compression");
    size_t size_field = sec->pos;
    srci->contents_entries_size = sb_cursor_u32(sec, "SRCI contents entries size");
    srci->contents_uncompressed_size = sb_cursor_u32(sec, "SRCI contents uncompressed size");
    srci->content_count = sb_cursor_u32(sec, "SRCI content count");
    struct sb_cursor entries;
    if (!sb_cursor_ok(sec) ||
        !sub_window(reader, sec, srci->contents_entries_size, size_field, "contents entries", &entries))
        return false;
    srci->contents_raw = reader->data + entries.begin;
    if (srci->compression != SB_DXBC_SRCI_COMPRESSION_NONE)
        return true;
    if (!sb_cursor_fits(&entries, srci->content_count, 12, "SRCI content entries"))
        return false;
    struct sb_dxbc_srci_content *list = sb_reader_alloc(reader, srci->content_count ? srci->content_count : 1,
                                                        sizeof(*list));
    if (!list)
        return false;
    for (uint32_t i = 0; i < srci->content_count; i++) {
        struct sb_dxbc_srci_content *c = &list[i];
        size_t entry_field = entries.pos;
        c->aligned_size = sb_cursor_u32(&entries, "SRCI content entry size");
        struct sb_cursor entry;
        if (!sb_cursor_ok(&entries) || !sb_cursor_seek(&entries, entry_field - entries.begin, "SRCI content entry") ||
            !sub_window(reader, &entries, c->aligned_size, entry_field, "content entry", &entry))
            return false;
        sb_cursor_skip(&entry, 4, "SRCI content entry size");
        c->flags = sb_cursor_u32(&entry, "SRCI content flags");
        c->content_size = sb_cursor_u32(&entry, "SRCI content size");
        if (!sb_cursor_ok(&entry) || !(c->content = sized_string(reader, &entry, c->content_size, "file content")))
            return false;
    }
    srci->contents = list;
    srci->content_entry_count = srci->content_count;
    return true;
}

static bool read_args(struct sb_reader *reader, struct sb_cursor *sec, struct sb_dxbc_srci *srci)
{
    srci->args_flags = sb_cursor_u32(sec, "SRCI args flags");
    size_t size_field = sec->pos;
    srci->args_size = sb_cursor_u32(sec, "SRCI args size");
    srci->arg_count = sb_cursor_u32(sec, "SRCI arg count");
    struct sb_cursor pairs;
    if (!sb_cursor_ok(sec) || !sub_window(reader, sec, srci->args_size, size_field, "args", &pairs) ||
        !sb_cursor_fits(&pairs, srci->arg_count, 2, "SRCI args"))
        return false;
    struct sb_dxbc_srci_arg *args = sb_reader_alloc(reader, srci->arg_count ? srci->arg_count : 1,
                                                    sizeof(*args));
    if (!args)
        return false;
    for (uint32_t i = 0; i < srci->arg_count; i++) {
        args[i].name = sb_cursor_string(&pairs, "SRCI argument name");
        args[i].value = sb_cursor_string(&pairs, "SRCI argument value");
    }
    srci->args = args;
    return sb_cursor_ok(&pairs);
}

static bool read_section(struct sb_reader *reader, struct sb_cursor *body, struct sb_dxbc_srci *srci,
                         struct sb_dxbc_srci_section *section)
{
    size_t header_pos = body->pos;
    section->offset = (uint32_t)(header_pos - body->begin) + 8;
    section->aligned_size = sb_cursor_u32(body, "SRCI section size");
    section->flags = sb_cursor_u16(body, "SRCI section flags");
    section->type = sb_cursor_u16(body, "SRCI section type");
    if (!sb_cursor_ok(body))
        return false;
    if (section->aligned_size < 8)
        return sb_reader_fail(reader, SB_ERROR_BAD_SIZE, header_pos,
                              "SRCI section size %u is smaller than its 8-byte header",
                              section->aligned_size);
    struct sb_cursor sec;
    if (!sub_window(reader, body, section->aligned_size - 8u, header_pos, "section", &sec))
        return false;
    bool *seen = section->type == SB_DXBC_SRCI_SOURCE_NAMES      ? &srci->has_names
                 : section->type == SB_DXBC_SRCI_SOURCE_CONTENTS ? &srci->has_contents
                 : section->type == SB_DXBC_SRCI_ARGS            ? &srci->has_args : NULL;
    if (!seen)
        return true;
    if (*seen)
        return sb_reader_fail(reader, SB_ERROR_DUPLICATE, header_pos,
                              "SRCI has a second %s section",
                              sb_dxbc_srci_section_type_name(section->type));
    *seen = true;
    switch (section->type) {
    case SB_DXBC_SRCI_SOURCE_NAMES: return read_names(reader, &sec, srci);
    case SB_DXBC_SRCI_SOURCE_CONTENTS: return read_contents(reader, &sec, srci);
    default: return read_args(reader, &sec, srci);
    }
}

bool sb_dxbc_decode_srci(struct sb_dxbc_decode_context *ctx, struct sb_cursor *data,
                         struct sb_dxbc_part *part)
{
    struct sb_reader *reader = ctx->reader;
    struct sb_dxbc_srci *srci = sb_reader_alloc(reader, 1, sizeof(*srci));
    if (!srci)
        return false;
    srci->aligned_size = sb_cursor_u32(data, "SRCI size");
    srci->flags = sb_cursor_u16(data, "SRCI flags");
    srci->section_count = sb_cursor_u16(data, "SRCI section count");
    if (!sb_cursor_ok(data))
        return false;
    if (srci->aligned_size < 8 || srci->aligned_size > sb_cursor_size(data))
        return sb_reader_fail(reader, SB_ERROR_BAD_SIZE, data->begin,
                              "SRCI size %u is outside [8, %zu], its header and the part size",
                              srci->aligned_size, sb_cursor_size(data));
    struct sb_cursor body = sb_cursor_window(data, 8, srci->aligned_size - 8u, "SRCI sections");
    if (!sb_cursor_fits(&body, srci->section_count, 8, "SRCI sections"))
        return false;
    struct sb_dxbc_srci_section *sections =
        sb_reader_alloc(reader, srci->section_count ? srci->section_count : 1, sizeof(*sections));
    if (!sections)
        return false;
    for (uint32_t i = 0; i < srci->section_count; i++)
        if (!read_section(reader, &body, srci, &sections[i]))
            return false;
    srci->sections = sections;
    part->decoded.srci = srci;
    return true;
}
