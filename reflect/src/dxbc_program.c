/* SPDX-License-Identifier: MIT */
/*
 * Program parts: DXIL, ILDB and DXC's STAT reflection module share one
 * 24-byte header in front of LLVM bitcode (../shared/docs/dxcontainer.md §2).
 *
 * The header holds two sizes that can disagree with the part: the program
 * size in words and the bitcode offset/size pair (relative to the 'DXIL'
 * magic at +8, not to the part start). Both are checked against the part
 * before the bitcode pointer is handed out, so a consumer may read
 * bitcode_size bytes without further checks.
 */
#include "dxbc_private.h"

#include <string.h>

/* One row per DXIL::ShaderKind value, 0..16 (§2). */
static const char *const shader_kind_names[] = {
    "Pixel", "Vertex", "Geometry", "Hull", "Domain", "Compute", "Library",
    "RayGeneration", "Intersection", "AnyHit", "ClosestHit", "Miss", "Callable",
    "Mesh", "Amplification", "Node", "Invalid",
};

const char *sb_dxil_shader_kind_name(uint32_t kind)
{
    return kind < sizeof(shader_kind_names) / sizeof(shader_kind_names[0])
               ? shader_kind_names[kind] : NULL;
}

/* Newer LLVM rejects an ILDB whose kind differs from DXIL's; we only warn,
 * because the debug module is not needed to use the program. */
static void check_ildb_kind(struct sb_dxbc_decode_context *ctx, const struct sb_dxbc_part *part,
                            const struct sb_dxbc_program *program)
{
    const struct sb_dxbc_part *dxil = sb_dxbc_find_part(ctx->dxbc, SB_FOURCC('D', 'X', 'I', 'L'));
    if (!dxil || dxil->size < 4)
        return;
    struct sb_cursor file = sb_cursor_whole(ctx->reader);
    struct sb_cursor dxil_data = sb_cursor_window(&file, dxil->data_offset, dxil->size, "DXIL");
    if (!sb_cursor_skip(&dxil_data, 2, "DXIL version"))
        return;
    uint16_t dxil_kind = sb_cursor_u16(&dxil_data, "DXIL shader kind");
    if (sb_cursor_ok(&dxil_data) && dxil_kind != program->shader_kind)
        sb_reader_warn(ctx->reader, (uint64_t)part->data_offset + 2,
                       "ILDB shader kind %u differs from the DXIL part's kind %u",
                       program->shader_kind, dxil_kind);
}

bool sb_dxbc_decode_program(struct sb_dxbc_decode_context *ctx, struct sb_cursor *data,
                            struct sb_dxbc_part *part)
{
    struct sb_reader *reader = ctx->reader;
    size_t base = data->begin;
    struct sb_dxbc_program *program = sb_reader_alloc(reader, 1, sizeof(*program));
    if (!program)
        return false;
    uint8_t version = sb_cursor_u8(data, "program version");
    sb_cursor_skip(data, 1, "program header padding");
    program->shader_kind = sb_cursor_u16(data, "shader kind");
    program->size_in_words = sb_cursor_u32(data, "program size");
    program->dxil_magic = sb_cursor_u32(data, "DXIL magic");
    program->dxil_minor_version = sb_cursor_u8(data, "DXIL minor version");
    program->dxil_major_version = sb_cursor_u8(data, "DXIL major version");
    sb_cursor_skip(data, 2, "DXIL version padding");
    program->bitcode_offset = sb_cursor_u32(data, "bitcode offset");
    program->bitcode_size = sb_cursor_u32(data, "bitcode size");
    if (!sb_cursor_ok(data))
        return false;
    program->major_version = version >> 4;
    program->minor_version = version & 0xf;

    if (program->dxil_magic != SB_FOURCC('D', 'X', 'I', 'L'))
        return sb_reader_fail(reader, SB_ERROR_BAD_MAGIC, base + 8,
                              "%s: program magic is 0x%08x, not 'DXIL' (0x4c495844)", part->name,
                              program->dxil_magic);
    uint64_t program_bytes = (uint64_t)program->size_in_words * 4;
    if (program_bytes < SB_DXBC_PROGRAM_HEADER_SIZE)
        return sb_reader_fail(reader, SB_ERROR_BAD_SIZE, base + 4,
                              "%s: program size %u words (%llu bytes) is below the %u-byte "
                              "header", part->name, program->size_in_words,
                              (unsigned long long)program_bytes, SB_DXBC_PROGRAM_HEADER_SIZE);
    /* LLVM does not check the word count against the part (yaml2obj test inputs keep
     * the count of the shader they were cut from), so an oversized count is reported
     * and the bitcode is bounded by the part instead. */
    if (program_bytes > part->size) {
        sb_reader_warn(reader, base + 4,
                       "%s: program size %u words (%llu bytes) exceeds the %u-byte part",
                       part->name, program->size_in_words, (unsigned long long)program_bytes,
                       part->size);
        program_bytes = part->size;
    }
    /* The bitcode must start after the 16 header bytes that follow the magic
     * and end inside the declared program. */
    if (program->bitcode_offset < 16 || (uint64_t)program->bitcode_offset + 8 > program_bytes)
        return sb_reader_fail(reader, SB_ERROR_BAD_OFFSET, base + 16,
                              "%s: bitcode offset %u (from the magic) is outside [16, %llu]",
                              part->name, program->bitcode_offset,
                              (unsigned long long)(program_bytes - 8));
    if ((uint64_t)program->bitcode_offset + 8 + program->bitcode_size > program_bytes)
        return sb_reader_fail(reader, SB_ERROR_BAD_SIZE, base + 20,
                              "%s: bitcode size %u at offset %u runs past the %llu-byte program",
                              part->name, program->bitcode_size, program->bitcode_offset,
                              (unsigned long long)program_bytes);
    struct sb_cursor bitcode = sb_cursor_window(data, (uint64_t)program->bitcode_offset + 8,
                                                program->bitcode_size, "bitcode");
    program->bitcode_file_offset = (uint32_t)bitcode.begin;
    program->bitcode = sb_cursor_bytes(&bitcode, program->bitcode_size, "bitcode");
    if (!sb_cursor_ok(data))
        return false;
    static const uint8_t wrapper_magic[4] = { 'B', 'C', 0xC0, 0xDE };
    program->bitcode_is_wrapped = program->bitcode_size >= 4 &&
                                  memcmp(program->bitcode, wrapper_magic, 4) == 0;
    if (part->kind == SB_DXBC_PART_ILDB)
        check_ildb_kind(ctx, part, program);
    part->decoded.program = program;
    return true;
}
