/* SPDX-License-Identifier: MIT */
/*
 * DirectX Container reader: header, part-offset table, checksum verdict and
 * dispatch of every part to its decoder (../shared/docs/dxcontainer.md §1).
 *
 * The offset table is checked as a whole (the count must fit in the bytes
 * after the header) before anything is allocated by it. Parts are then
 * decoded in two rounds: program parts (DXIL, ILDB) first, because PSV0
 * needs the program's shader kind to interpret its stage-specific fields,
 * then everything else in table order.
 */
#include "dxbc_private.h"
#include "reflect_private.h"

#include <stdlib.h>
#include <string.h>

struct part_kind_row {
    sb_dxbc_part_decoder decode; /* NULL: kept raw */
    const char *description;
};

/* One row per known FourCC (../shared/docs/dxcontainer.md §1.4): X(four characters, kind,
 * decoder or NULL, description). */
#define PART_KINDS(X) \
    X('R', 'D', 'E', 'F', RDEF, sb_dxbc_decode_rdef, "resource definitions")                       \
    X('I', 'S', 'G', 'N', ISGN, sb_dxbc_decode_signature, "input signature")                       \
    X('O', 'S', 'G', 'N', OSGN, sb_dxbc_decode_signature, "output signature")                      \
    X('O', 'S', 'G', '5', OSG5, sb_dxbc_decode_signature, "output signature with streams")         \
    X('P', 'C', 'S', 'G', PCSG, sb_dxbc_decode_signature, "patch-constant signature")              \
    X('I', 'S', 'G', '1', ISG1, sb_dxbc_decode_signature, "input signature (SM5.1/DXIL)")          \
    X('O', 'S', 'G', '1', OSG1, sb_dxbc_decode_signature, "output signature (SM5.1/DXIL)")         \
    X('P', 'S', 'G', '1', PSG1, sb_dxbc_decode_signature, "patch-constant signature (SM5.1/DXIL)") \
    X('S', 'H', 'D', 'R', SHDR, sb_dxbc_decode_shader_header, "SM4 program")                       \
    X('S', 'H', 'E', 'X', SHEX, sb_dxbc_decode_shader_header, "SM5 program")                       \
    X('S', 'T', 'A', 'T', STAT, sb_dxbc_decode_stat, "statistics")                                 \
    X('S', 'F', 'I', '0', SFI0, sb_dxbc_decode_sfi0, "shader feature flags")                       \
    X('I', 'F', 'C', 'E', IFCE, sb_dxbc_decode_ifce, "class-linkage interfaces")                   \
    X('H', 'A', 'S', 'H', HASH, sb_dxbc_decode_hash, "shader hash")                                \
    X('P', 'S', 'V', '0', PSV0, sb_dxbc_decode_psv0, "pipeline state validation")                  \
    X('R', 'T', 'S', '0', RTS0, sb_dxbc_decode_rts0, "root signature")                             \
    X('D', 'X', 'I', 'L', DXIL, sb_dxbc_decode_program, "DXIL program")                            \
    X('I', 'L', 'D', 'B', ILDB, sb_dxbc_decode_program, "DXIL program with debug info")            \
    X('V', 'E', 'R', 'S', VERS, sb_dxbc_decode_vers, "compiler version")                           \
    X('I', 'L', 'D', 'N', ILDN, sb_dxbc_decode_ildn, "debug name")                                 \
    X('S', 'R', 'C', 'I', SRCI, sb_dxbc_decode_srci, "source info")                                \
    X('S', 'Y', 'M', '0', SYM0, sb_dxbc_decode_sym0, "symbol table (proposed)")                    \
    X('S', 'T', 'R', '0', STR0, sb_dxbc_decode_str0, "string table (proposed)")                    \
    X('R', 'D', 'A', 'T', RDAT, NULL, "runtime data")                                              \
    X('P', 'D', 'B', 'I', PDBI, NULL, "PDB info")                                                  \
    X('P', 'R', 'I', 'V', PRIV, NULL, "private data")                                              \
    X('A', 'o', 'n', '9', AON9, NULL, "Direct3D 9 shader (level 9)")                               \
    X('X', 'N', 'A', 'S', XNAS, NULL, "Xbox 360 shader")                                           \
    X('X', 'N', 'A', 'P', XNAP, NULL, "Xbox 360 shader")                                           \
    X('F', 'X', '1', '0', FX10, NULL, "Direct3D 10 effect")                                        \
    X('C', 'T', 'A', 'B', CTAB, NULL, "Direct3D 9 constant table")                                 \
    X('C', 'L', 'I', '4', CLI4, NULL, "effect expression literals")                                \
    X('F', 'X', 'L', 'C', FXLC, NULL, "effect expression code")                                    \
    X('S', 'D', 'B', 'G', SDBG, NULL, "debug info")                                                \
    X('S', 'P', 'D', 'B', SPDB, NULL, "PDB debug info")                                            \
    X('T', 'E', 'X', 'T', TEXT, NULL, "source text")

static const struct part_kind_row part_kinds[] = {
/* Indexed by kind - 1 (a designated initializer per row, so the order above is free). */
#define ROW(a, b, c, d, kind, decode, description) \
    [SB_DXBC_PART_##kind - 1] = { decode, description },
    PART_KINDS(ROW)
#undef ROW
};

#define PART_KIND_COUNT (sizeof(part_kinds) / sizeof(part_kinds[0]))
_Static_assert(PART_KIND_COUNT == SB_DXBC_PART_TEXT, "a row for every known part kind");

/* A switch rather than a walk of the table: the compiler searches the FourCCs as a
 * tree, and every part of every container is looked up. */
enum sb_dxbc_part_kind sb_dxbc_part_kind_from_fourcc(uint32_t fourcc)
{
    switch (fourcc) {
#define CASE(a, b, c, d, kind, decode, description) \
    case SB_FOURCC(a, b, c, d): return SB_DXBC_PART_##kind;
    PART_KINDS(CASE)
#undef CASE
    default: return SB_DXBC_PART_UNKNOWN;
    }
}

/* The row of a kind, by index (NULL for UNKNOWN, anything past the table and a kind the
 * table left out, whose row has no description). */
static const struct part_kind_row *row_of_kind(enum sb_dxbc_part_kind kind)
{
    size_t at = (size_t)kind - 1;
    return kind != SB_DXBC_PART_UNKNOWN && at < PART_KIND_COUNT && part_kinds[at].description
               ? &part_kinds[at]
               : NULL;
}

const char *sb_dxbc_part_kind_description(enum sb_dxbc_part_kind kind)
{
    const struct part_kind_row *row = row_of_kind(kind);
    return row ? row->description : "unknown part";
}

const char *sb_dxbc_digest_status_name(enum sb_dxbc_digest_status status)
{
    switch (status) {
    case SB_DXBC_DIGEST_VALID: return "valid";
    case SB_DXBC_DIGEST_MISMATCH: return "mismatch";
    case SB_DXBC_DIGEST_UNSIGNED: return "unsigned";
    case SB_DXBC_DIGEST_PREVIEW_BYPASS: return "preview-bypass";
    case SB_DXBC_DIGEST_UNCHECKED: return "unchecked";
    default: return "unknown";
    }
}

static void fourcc_to_name(uint32_t fourcc, char name[5])
{
    for (unsigned i = 0; i < 4; i++) {
        uint8_t c = (uint8_t)(fourcc >> (8 * i));
        name[i] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    name[4] = 0;
}

static void judge_digest(struct sb_reader *reader, struct sb_dxbc *dxbc)
{
    static const uint8_t zero[16];
    uint8_t bypass[16];
    memset(bypass, 0x02, sizeof(bypass));
    sb_dxbc_compute_checksum(reader->data, reader->size, dxbc->computed_digest);
    dxbc->checksum_ok = memcmp(dxbc->digest, dxbc->computed_digest, 16) == 0;
    if (dxbc->checksum_ok)
        dxbc->digest_status = SB_DXBC_DIGEST_VALID;
    else if (memcmp(dxbc->digest, zero, 16) == 0)
        dxbc->digest_status = SB_DXBC_DIGEST_UNSIGNED;
    else if (memcmp(dxbc->digest, bypass, 16) == 0)
        dxbc->digest_status = SB_DXBC_DIGEST_PREVIEW_BYPASS;
    else
        dxbc->digest_status = SB_DXBC_DIGEST_MISMATCH;
    if (dxbc->digest_status == SB_DXBC_DIGEST_MISMATCH)
        sb_reader_warn(reader, 4, "container digest does not match the computed checksum");
}

/* Reads the offset table and the 8-byte header of every part. */
static bool read_part_table(struct sb_reader *reader, struct sb_cursor *file, struct sb_dxbc *dxbc)
{
    uint32_t count = dxbc->part_count;
    if (!sb_cursor_fits(file, count, 4, "part offset table"))
        return false;
    struct sb_dxbc_part *parts = sb_reader_alloc(reader, count ? count : 1, sizeof(*parts));
    if (!parts)
        return false;
    size_t table_end = SB_DXBC_HEADER_SIZE + (size_t)count * 4;
    size_t previous_end = table_end;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t offset = sb_cursor_u32(file, "part offset");
        size_t field = SB_DXBC_HEADER_SIZE + (size_t)i * 4;
        if (!sb_cursor_ok(file))
            return false;
        if (offset < table_end)
            return sb_reader_fail(reader, SB_ERROR_BAD_OFFSET, field,
                                  "part %u: offset %u points into the container header "
                                  "(which ends at %zu)", i, offset, table_end);
        if (offset < previous_end)
            return sb_reader_fail(reader, SB_ERROR_BAD_OFFSET, field,
                                  "part %u: offset %u begins before the previous part ends "
                                  "at %zu", i, offset, previous_end);
        if ((uint64_t)offset + 8 > reader->size)
            return sb_reader_fail(reader, SB_ERROR_BAD_OFFSET, field,
                                  "part %u: offset %u leaves no room for the 8-byte part "
                                  "header in the %zu-byte container", i, offset, reader->size);
        const uint8_t *header = reader->data + offset; /* its 8 bytes checked just above */
        uint32_t fourcc = sb_load_u32(header);
        uint32_t size = sb_load_u32(header + 4);
        if ((uint64_t)offset + 8 + size > reader->size)
            return sb_reader_fail(reader, SB_ERROR_BAD_SIZE, (uint64_t)offset + 4,
                                  "part %u: size %u runs past the end of the %zu-byte "
                                  "container (data starts at %u)", i, size, reader->size,
                                  offset + 8);
        struct sb_dxbc_part *part = &parts[i];
        part->fourcc = fourcc;
        part->kind = sb_dxbc_part_kind_from_fourcc(fourcc);
        if (part->kind != SB_DXBC_PART_UNKNOWN) /* a known FourCC is printable as it is */
            memcpy(part->name, header, 4);
        else
            fourcc_to_name(fourcc, part->name);
        part->header_offset = offset;
        part->data_offset = offset + 8;
        part->size = size;
        part->data = reader->data + offset + 8;
        previous_end = (size_t)offset + 8 + size;
    }
    dxbc->parts = parts;
    return true;
}

static bool is_program_part(const struct sb_dxbc_part *part)
{
    return part->kind == SB_DXBC_PART_DXIL || part->kind == SB_DXBC_PART_ILDB;
}

/* DXC's STAT holds a program (reflection module) rather than FXC statistics. */
static bool stat_holds_program(const struct sb_dxbc_part *part)
{
    return part->size >= 12 && sb_load_u32(part->data + 8) == SB_FOURCC('D', 'X', 'I', 'L');
}

/*
 * Runs a decoder whose failure must not reject the container: its error becomes a
 * warning and the part stays raw. Used for the debug module (ILDB), which nothing
 * downstream needs and which LLVM's tools never decode.
 */
static bool decode_part_softly(struct sb_dxbc_decode_context *ctx, sb_dxbc_part_decoder decode,
                               struct sb_cursor *data, struct sb_dxbc_part *part)
{
    struct sb_reader *reader = ctx->reader;
    if (decode(ctx, data, part) && !reader->failed)
        return true;
    if (reader->error.code == SB_ERROR_OUT_OF_MEMORY)
        return false;
    struct sb_error error = reader->error;
    reader->failed = false;
    memset(&reader->error, 0, sizeof(reader->error));
    part->decoded.any = NULL;
    sb_reader_warn(reader, error.offset, "%s left undecoded: %s", part->name, error.message);
    return !reader->failed;
}

static bool decode_part(struct sb_dxbc_decode_context *ctx, struct sb_cursor *file,
                        struct sb_dxbc_part *part)
{
    const struct part_kind_row *row = row_of_kind(part->kind);
    if (!row || !row->decode)
        return true;
    if (part->size == 0) {
        sb_reader_warn(ctx->reader, part->header_offset,
                       "%s part is empty: nothing to decode", part->name);
        return true;
    }
    sb_dxbc_part_decoder decode = row->decode;
    if (part->kind == SB_DXBC_PART_STAT && stat_holds_program(part))
        decode = sb_dxbc_decode_program;
    struct sb_cursor data = sb_cursor_window(file, part->data_offset, part->size, part->name);
    if (part->kind == SB_DXBC_PART_ILDB)
        return decode_part_softly(ctx, decode, &data, part);
    return decode(ctx, &data, part) && sb_cursor_ok(&data);
}

/*
 * The parts sb_translate reads (SB_DXBC_PARSE_TRANSLATION_PARTS): the SM4/5 program
 * header, the signatures, RDEF (bindings, cbuffer sizes), SFI0 (typed-UAV flags) and
 * the DXIL programs whose presence is what makes a container rejected as DXIL (a DXC
 * STAT holds one). FXC statistics, interfaces, hashes, root signatures and debug
 * parts only feed `reflect`/`info`, so their decoding is skipped; so is every part
 * but the programs of a DXIL container without SHDR/SHEX (parse_container).
 */
static bool translation_reads(const struct sb_dxbc_part *part)
{
    switch (part->kind) {
    case SB_DXBC_PART_STAT:
        return stat_holds_program(part);
    case SB_DXBC_PART_RDEF:
    case SB_DXBC_PART_ISGN:
    case SB_DXBC_PART_OSGN:
    case SB_DXBC_PART_OSG5:
    case SB_DXBC_PART_PCSG:
    case SB_DXBC_PART_ISG1:
    case SB_DXBC_PART_OSG1:
    case SB_DXBC_PART_PSG1:
    case SB_DXBC_PART_SHDR:
    case SB_DXBC_PART_SHEX:
    case SB_DXBC_PART_SFI0:
    case SB_DXBC_PART_DXIL:
    case SB_DXBC_PART_ILDB:
        return true;
    default:
        return false;
    }
}

/* LLVM's reader allows at most one of these (../shared/docs/dxcontainer.md §1.2). */
static bool check_unique_parts(struct sb_reader *reader, const struct sb_dxbc *dxbc)
{
    static const enum sb_dxbc_part_kind unique[] = { SB_DXBC_PART_DXIL, SB_DXBC_PART_HASH,
                                                     SB_DXBC_PART_PSV0 };
    for (size_t u = 0; u < sizeof(unique) / sizeof(unique[0]); u++) {
        const struct sb_dxbc_part *first = NULL;
        for (uint32_t i = 0; i < dxbc->part_count; i++) {
            const struct sb_dxbc_part *part = &dxbc->parts[i];
            if (part->kind != unique[u])
                continue;
            if (first)
                return sb_reader_fail(reader, SB_ERROR_DUPLICATE, part->header_offset,
                                      "more than one %s part (the first is at offset %u)",
                                      part->name, first->header_offset);
            first = part;
        }
    }
    return true;
}

static bool parse_container(struct sb_reader *reader, struct sb_dxbc *dxbc, uint32_t flags)
{
    struct sb_cursor file = sb_cursor_whole(reader);
    uint32_t magic = sb_cursor_u32(&file, "magic");
    if (!sb_cursor_ok(&file))
        return false;
    if (magic != SB_FOURCC('D', 'X', 'B', 'C'))
        return sb_reader_fail(reader, SB_ERROR_BAD_MAGIC, 0,
                              "magic is 0x%08x, not 'DXBC' (0x43425844)", magic);
    const uint8_t *digest = sb_cursor_bytes(&file, 16, "digest");
    dxbc->major_version = sb_cursor_u16(&file, "major version");
    dxbc->minor_version = sb_cursor_u16(&file, "minor version");
    dxbc->file_size = sb_cursor_u32(&file, "file size");
    dxbc->part_count = sb_cursor_u32(&file, "part count");
    if (!sb_cursor_ok(&file))
        return false;
    memcpy(dxbc->digest, digest, 16);
    /* LLVM's reader ignores this field and yaml2obj writes whatever the YAML says, so a
     * mismatch is reported, not fatal: parts are bounded by the real input size. */
    if (dxbc->file_size != reader->size)
        sb_reader_warn(reader, 24, "header file size %u differs from the %zu bytes of input",
                       dxbc->file_size, reader->size);
    if (dxbc->major_version != 1)
        return sb_reader_fail(reader, SB_ERROR_BAD_VERSION, 20,
                              "container version %u.%u is not 1.x", dxbc->major_version,
                              dxbc->minor_version);
    if (!read_part_table(reader, &file, dxbc) || !check_unique_parts(reader, dxbc))
        return false;
    if (flags & SB_DXBC_PARSE_SKIP_CHECKSUM)
        dxbc->digest_status = SB_DXBC_DIGEST_UNCHECKED;
    else
        judge_digest(reader, dxbc);

    struct sb_dxbc_decode_context ctx = { .reader = reader, .dxbc = dxbc };
    struct sb_dxbc_part *parts = (struct sb_dxbc_part *)dxbc->parts;
    for (uint32_t i = 0; i < dxbc->part_count; i++) {
        if (!is_program_part(&parts[i]))
            continue;
        if (!decode_part(&ctx, &file, &parts[i]))
            return false;
        if (parts[i].kind == SB_DXBC_PART_DXIL) {
            dxbc->is_dxil = true;
            ctx.dxil_program = parts[i].decoded.program;
        } else if (!ctx.dxil_program && parts[i].decoded.program) {
            ctx.dxil_program = parts[i].decoded.program;
        }
    }
    bool translation_only = flags & SB_DXBC_PARSE_TRANSLATION_PARTS;
    /* A DXIL container without an SM4/5 program is translated from its DXIL part alone:
     * the signatures, resources and flags come from the module's metadata. */
    if (translation_only && sb_dxbc_is_dxil_only(dxbc))
        return true;
    for (uint32_t i = 0; i < dxbc->part_count; i++) {
        if (is_program_part(&parts[i]) || (translation_only && !translation_reads(&parts[i])))
            continue;
        if (!decode_part(&ctx, &file, &parts[i]))
            return false;
    }
    return true;
}

enum sb_result sb_dxbc_parse(const void *data, size_t size, struct sb_dxbc **out,
                             struct sb_error *error)
{
    if (out)
        *out = NULL;
    if (!data || !out)
        return sb_report_argument_error(error, "sb_dxbc_parse: data and out must not be NULL");
    return sb_dxbc_parse_ex(data, size, 0, out, error);
}

enum sb_result sb_dxbc_parse_ex(const void *data, size_t size, uint32_t flags,
                                struct sb_dxbc **out, struct sb_error *error)
{
    if (out)
        *out = NULL;
    if (!data || !out)
        return sb_report_argument_error(error, "sb_dxbc_parse_ex: data and out must not be NULL");
    if (flags & ~(uint32_t)(SB_DXBC_PARSE_SKIP_CHECKSUM | SB_DXBC_PARSE_BORROW_INPUT |
                            SB_DXBC_PARSE_TRANSLATION_PARTS))
        return sb_report_argument_error(error, "sb_dxbc_parse_ex: unknown flag bits");

    struct sb_reader reader;
    struct sb_dxbc *dxbc = flags & SB_DXBC_PARSE_BORROW_INPUT
                               ? sb_reader_begin_borrowed(&reader, data, size, sizeof(*dxbc))
                               : sb_reader_begin(&reader, data, size, sizeof(*dxbc));
    if (!dxbc)
        return sb_reader_finish(&reader, error);
    dxbc->size = reader.size;
    dxbc->bytes = reader.data;
    if (parse_container(&reader, dxbc, flags)) {
        dxbc->warnings = reader.warnings;
        dxbc->warning_count = reader.warning_count;
    }
    enum sb_result result = sb_reader_finish(&reader, error);
    if (result == SB_SUCCESS)
        *out = dxbc;
    return result;
}

void sb_dxbc_destroy(struct sb_dxbc *dxbc)
{
    sb_object_destroy(dxbc);
}
