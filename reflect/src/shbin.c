/* SPDX-License-Identifier: MIT */
/*
 * SHBIN / DVLB reader (PICA200 shader binaries): the DVLB header, the DVLP
 * program (code words, operand descriptors, filename table, unknown header
 * words) and the dispatch of every DVLE to shbin_dvle.c
 * (../shared/docs/pica200.md §12.1, §12.2, §12.9; operand descriptors §5).
 *
 * Three writers are known and none is trusted for section order: current
 * picasso puts DVLEs after the program data, old picasso puts the DVLE
 * header before the code, and Nintendo's linker adds labels, a filename
 * table and a nonzero DVLP version. So every section is found through its
 * stored offset, and the DVLP header's length (0x1C to 0x28 bytes; the
 * writers differ) is taken to end where the first section the file points
 * at begins.
 *
 * Limits the reader enforces beyond "fits in the file": at most 4096 code
 * words and 128 operand descriptors (the widest address and DESC fields of
 * the instruction set, §1), one 64-byte header's worth of file per DVLE,
 * and DVLE tables that together fit in the file (see shbin_private.h), so a
 * small input can never make the reader allocate much more than its size.
 */
#include "shbin_private.h"

#define DVLB_MAGIC 0x424C5644u /* "DVLB" */
#define DVLP_MAGIC 0x504C5644u /* "DVLP" */
#define OPERAND_DESCRIPTOR_ENTRY_SIZE 8u

/* DVLP header field offsets (§12.2). */
enum {
    DVLP_CODE = 0x08,
    DVLP_OPDESCS = 0x10,
    DVLP_FILENAMES = 0x18,
};

static bool read_dvle_offsets(struct sb_reader *reader, struct sb_cursor *file,
                              struct sb_shbin *shbin)
{
    uint32_t magic = sb_cursor_u32(file, "DVLB magic");
    if (!sb_cursor_ok(file))
        return false;
    if (magic != DVLB_MAGIC)
        return sb_reader_fail(reader, SB_ERROR_BAD_MAGIC, 0,
                              "magic is 0x%08x, not 'DVLB' (0x424c5644)", magic);
    uint32_t count = sb_cursor_u32(file, "DVLE count");
    if (!sb_cursor_ok(file))
        return false;
    if (count > (reader->size - 8) / 4)
        return sb_reader_fail(reader, SB_ERROR_BAD_COUNT, 4,
                              "DVLE count %u needs a %llu-byte offset table but only %zu bytes "
                              "follow the DVLB header", count, (unsigned long long)count * 4,
                              reader->size - 8);
    if (count > reader->size / SB_SHBIN_DVLE_HEADER_SIZE)
        return sb_reader_fail(reader, SB_ERROR_BAD_COUNT, 4,
                              "DVLE count %u needs %u-byte DVLE headers that a %zu-byte file "
                              "cannot hold (at most %zu)", count, SB_SHBIN_DVLE_HEADER_SIZE,
                              reader->size, reader->size / SB_SHBIN_DVLE_HEADER_SIZE);
    shbin->dvle_count = count;
    if (count == 0) {
        sb_reader_warn(reader, 4, "the DVLB holds no DVLE (no entry point)");
        return true;
    }
    uint32_t *offsets = sb_reader_alloc(reader, count, sizeof(*offsets));
    if (!offsets)
        return false;
    uint64_t dvlp = 8 + (uint64_t)count * 4;
    for (uint32_t i = 0; i < count; i++) {
        uint64_t field = 8 + (uint64_t)i * 4;
        offsets[i] = sb_cursor_u32(file, "DVLE offset");
        if (!sb_cursor_ok(file))
            return false;
        if (offsets[i] > reader->size)
            return sb_reader_fail(reader, SB_ERROR_BAD_OFFSET, field,
                                  "DVLE %u: offset %u is past the end of the %zu-byte file", i,
                                  offsets[i], reader->size);
        if (offsets[i] < dvlp + SB_SHBIN_DVLP_MIN_HEADER_SIZE)
            return sb_reader_fail(reader, SB_ERROR_BAD_OFFSET, field,
                                  "DVLE %u: offset %u points into the DVLB/DVLP headers (which "
                                  "end at %llu)", i, offsets[i],
                                  (unsigned long long)(dvlp + SB_SHBIN_DVLP_MIN_HEADER_SIZE));
    }
    shbin->dvle_offsets = offsets;
    return true;
}

/*
 * Locates a DVLP section: `field` is the offset of its (offset, count) pair
 * in the DVLP header, `limit` the format's largest count.
 */
static bool program_section(struct sb_reader *reader, const struct sb_cursor *file,
                            uint32_t dvlp, uint32_t field, uint32_t offset, uint32_t count,
                            uint32_t record_size, uint32_t limit, enum sb_result count_code,
                            const char *name, struct sb_cursor *out)
{
    uint64_t field_at = (uint64_t)dvlp + field;
    uint64_t start = (uint64_t)dvlp + offset;
    if (count > limit)
        return sb_reader_fail(reader, count_code, field_at + 4,
                              "DVLP %s count %u exceeds the instruction set's limit of %u",
                              name, count, limit);
    if (start > reader->size)
        return sb_reader_fail(reader, SB_ERROR_BAD_OFFSET, field_at,
                              "DVLP %s offset %u (file offset %llu) is past the end of the "
                              "%zu-byte file", name, offset, (unsigned long long)start,
                              reader->size);
    if (count > 0 && offset < SB_SHBIN_DVLP_MIN_HEADER_SIZE)
        return sb_reader_fail(reader, SB_ERROR_BAD_OFFSET, field_at,
                              "DVLP %s offset %u points into the %u-byte DVLP header", name,
                              offset, SB_SHBIN_DVLP_MIN_HEADER_SIZE);
    if (count > (reader->size - start) / record_size)
        return sb_reader_fail(reader, count_code, field_at + 4,
                              "DVLP %s count %u (of %u-byte entries) needs more than the %llu "
                              "bytes left after file offset %llu", name, count, record_size,
                              (unsigned long long)(reader->size - start),
                              (unsigned long long)start);
    *out = sb_cursor_window(file, start, (uint64_t)count * record_size, name);
    return sb_cursor_ok(out);
}

/* The header ends where the first section the file points at begins (max 0x28). */
static uint32_t dvlp_header_size(const struct sb_reader *reader, const struct sb_shbin *shbin,
                                 uint32_t dvlp)
{
    const struct sb_shbin_program *p = &shbin->program;
    uint64_t end = SB_SHBIN_DVLP_MAX_HEADER_SIZE;
    uint64_t starts[3] = { p->code_offset, p->operand_descriptor_offset,
                           p->filename_table_offset };
    for (unsigned i = 0; i < 3; i++)
        if (starts[i] >= SB_SHBIN_DVLP_MIN_HEADER_SIZE && starts[i] < end)
            end = starts[i];
    for (uint32_t i = 0; i < shbin->dvle_count; i++) {
        uint64_t relative = (uint64_t)shbin->dvle_offsets[i] - dvlp;
        if (relative < end)
            end = relative;
    }
    if (end > reader->size - dvlp)
        end = reader->size - dvlp;
    return SB_SHBIN_DVLP_MIN_HEADER_SIZE +
           (uint32_t)((end - SB_SHBIN_DVLP_MIN_HEADER_SIZE) / 4 * 4);
}

static void decode_operand_descriptor(struct sb_shbin_operand_descriptor *d)
{
    d->dest_mask = (uint8_t)(d->word & 0xFu);
    d->negate[0] = (d->word >> 4) & 1u;
    d->selector[0] = (uint8_t)(d->word >> 5);
    d->negate[1] = (d->word >> 13) & 1u;
    d->selector[1] = (uint8_t)(d->word >> 14);
    d->negate[2] = (d->word >> 22) & 1u;
    d->selector[2] = (uint8_t)(d->word >> 23);
}

static bool read_code_and_descriptors(struct sb_reader *reader, const struct sb_cursor *file,
                                      struct sb_shbin_program *p)
{
    struct sb_cursor code, descriptors;
    if (!program_section(reader, file, p->file_offset, DVLP_CODE, p->code_offset,
                         p->code_word_count, 4, SB_SHBIN_MAX_CODE_WORDS, SB_ERROR_BAD_SIZE,
                         "code", &code) ||
        !program_section(reader, file, p->file_offset, DVLP_OPDESCS,
                         p->operand_descriptor_offset, p->operand_descriptor_count,
                         OPERAND_DESCRIPTOR_ENTRY_SIZE, SB_SHBIN_MAX_OPERAND_DESCRIPTORS,
                         SB_ERROR_BAD_COUNT, "operand descriptor", &descriptors))
        return false;
    if (p->code_word_count) {
        uint32_t *words = sb_reader_alloc(reader, p->code_word_count, sizeof(*words));
        if (!words)
            return false;
        for (uint32_t i = 0; i < p->code_word_count; i++)
            words[i] = sb_cursor_u32(&code, "code word");
        p->code = words;
    }
    if (p->operand_descriptor_count) {
        struct sb_shbin_operand_descriptor *table =
            sb_reader_alloc(reader, p->operand_descriptor_count, sizeof(*table));
        if (!table)
            return false;
        for (uint32_t i = 0; i < p->operand_descriptor_count; i++) {
            table[i].word = sb_cursor_u32(&descriptors, "operand descriptor");
            table[i].extra_word = sb_cursor_u32(&descriptors, "operand descriptor extra word");
            decode_operand_descriptor(&table[i]);
        }
        p->operand_descriptors = table;
    }
    return sb_cursor_ok(&code) && sb_cursor_ok(&descriptors);
}

/*
 * Nintendo files name their source files (one string per DVLE, as nihstro
 * reads them). picasso aims the offset at the end of its data and writes
 * nothing there, so the strings are only read when the DVLP version marks
 * a Nintendo file.
 */
static bool read_filenames(struct sb_reader *reader, const struct sb_cursor *file,
                           struct sb_shbin *shbin)
{
    struct sb_shbin_program *p = &shbin->program;
    if (p->version == 0 || shbin->dvle_count == 0)
        return true;
    uint64_t start = (uint64_t)p->file_offset + p->filename_table_offset;
    if (start >= reader->size)
        return sb_reader_fail(reader, SB_ERROR_BAD_OFFSET, (uint64_t)p->file_offset + DVLP_FILENAMES,
                              "DVLP filename table offset %u (file offset %llu) is not inside "
                              "the %zu-byte file", p->filename_table_offset,
                              (unsigned long long)start, reader->size);
    struct sb_cursor table = sb_cursor_tail(file, start, "filename table");
    struct sb_shbin_string *names = sb_reader_alloc(reader, shbin->dvle_count, sizeof(*names));
    if (!names)
        return false;
    for (uint32_t i = 0; i < shbin->dvle_count; i++) {
        names[i].offset = (uint32_t)sb_cursor_tell(&table);
        names[i].text = sb_cursor_string(&table, "DVLP filename");
        if (!names[i].text)
            return false;
    }
    p->filenames = names;
    p->filename_count = shbin->dvle_count;
    return true;
}

static bool read_program(struct sb_reader *reader, const struct sb_cursor *file,
                         struct sb_shbin *shbin)
{
    struct sb_shbin_program *p = &shbin->program;
    p->file_offset = 8 + shbin->dvle_count * 4;
    struct sb_cursor cur = sb_cursor_tail(file, p->file_offset, "DVLP");
    uint32_t magic = sb_cursor_u32(&cur, "DVLP magic");
    if (!sb_cursor_ok(&cur))
        return false;
    if (magic != DVLP_MAGIC)
        return sb_reader_fail(reader, SB_ERROR_BAD_MAGIC, p->file_offset,
                              "DVLP magic at offset %u is 0x%08x, not 'DVLP' (0x504c5644)",
                              p->file_offset, magic);
    p->version = sb_cursor_u32(&cur, "DVLP version");
    p->code_offset = sb_cursor_u32(&cur, "DVLP code offset");
    p->code_word_count = sb_cursor_u32(&cur, "DVLP code size");
    p->operand_descriptor_offset = sb_cursor_u32(&cur, "DVLP operand descriptor offset");
    p->operand_descriptor_count = sb_cursor_u32(&cur, "DVLP operand descriptor count");
    p->filename_table_offset = sb_cursor_u32(&cur, "DVLP filename table offset");
    if (!sb_cursor_ok(&cur))
        return false;
    p->header_size = dvlp_header_size(reader, shbin, p->file_offset);
    p->unknown_word_count = (p->header_size - SB_SHBIN_DVLP_MIN_HEADER_SIZE) / 4;
    for (uint32_t i = 0; i < p->unknown_word_count; i++)
        p->unknown_words[i] = sb_cursor_u32(&cur, "DVLP unknown word");
    return read_code_and_descriptors(reader, file, p) && read_filenames(reader, file, shbin);
}

static enum sb_shbin_layout guess_layout(const struct sb_shbin *shbin)
{
    const struct sb_shbin_program *p = &shbin->program;
    bool labels = false, dvle_before_code = false;
    uint64_t code_start = (uint64_t)p->file_offset + p->code_offset;
    for (uint32_t i = 0; i < shbin->dvle_count; i++) {
        labels |= shbin->dvles[i].label_count > 0;
        dvle_before_code |= p->code_word_count > 0 && shbin->dvles[i].file_offset < code_start;
    }
    if (p->version != 0 || labels)
        return SB_SHBIN_LAYOUT_NINTENDO;
    return dvle_before_code ? SB_SHBIN_LAYOUT_PICASSO_OLD : SB_SHBIN_LAYOUT_PICASSO;
}

static bool parse_file(struct sb_reader *reader, struct sb_shbin *shbin)
{
    struct sb_cursor file = sb_cursor_whole(reader);
    if (!read_dvle_offsets(reader, &file, shbin) || !read_program(reader, &file, shbin))
        return false;
    if (shbin->dvle_count == 0)
        return true;
    struct sb_shbin_dvle *dvles = sb_reader_alloc(reader, shbin->dvle_count, sizeof(*dvles));
    if (!dvles)
        return false;
    struct sb_shbin_dvle_context ctx = { .reader = reader, .file = file,
                                         .code_word_count = shbin->program.code_word_count };
    for (uint32_t i = 0; i < shbin->dvle_count; i++)
        if (!sb_shbin_decode_dvle(&ctx, shbin->dvle_offsets[i], &dvles[i]))
            return false;
    shbin->dvles = dvles;
    shbin->layout = guess_layout(shbin);
    return true;
}

enum sb_result sb_shbin_parse(const void *data, size_t size, struct sb_shbin **out,
                              struct sb_error *error)
{
    if (out)
        *out = NULL;
    if (!data || !out)
        return sb_report_argument_error(error, "sb_shbin_parse: data and out must not be NULL");
    if (size > UINT32_MAX)
        return sb_report_argument_error(error, "sb_shbin_parse: SHBIN offsets are 32-bit; "
                                               "inputs over 4 GiB cannot be valid");

    struct sb_reader reader;
    struct sb_shbin *shbin = sb_reader_begin(&reader, data, size, sizeof(*shbin));
    if (!shbin)
        return sb_reader_finish(&reader, error);
    shbin->size = reader.size;
    shbin->bytes = reader.data;
    if (parse_file(&reader, shbin)) {
        shbin->warnings = reader.warnings;
        shbin->warning_count = reader.warning_count;
    }
    enum sb_result result = sb_reader_finish(&reader, error);
    if (result == SB_SUCCESS)
        *out = shbin;
    return result;
}

void sb_shbin_destroy(struct sb_shbin *object)
{
    sb_object_destroy(object);
}
