/* SPDX-License-Identifier: MIT */
/*
 * SM4/5 token-stream decoder: program header, opcode tokens, extended
 * opcode tokens, instruction operands and custom-data blocks
 * (../shared/docs/sm4-tokens.md §1, §2, §4, §5.6, §7, §10.3).
 *
 * Each instruction is read inside a window that ends at its encoded
 * length: the operands the opcode table defines are parsed, then decoding
 * continues at start + length whatever was left, because real encoders
 * write a trailing DWORD on some instructions (§10.3); operands that need
 * more than the length are an error. Declarations are decoded in
 * sm4_decode_decl.c, operands in sm4_operands.c. Everything decoded lives
 * in one arena owned by the returned program.
 */
#include "sm4_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "error.h"

/* The program is the first member so sb_sm4_program_destroy() can find the
 * arena that owns it (and everything else). */
struct sm4_program_owner {
    struct sb_sm4_program program;
    struct sb_arena *arena;
};

static bool store_operands(struct sb_sm4_reader *reader, struct sb_sm4_instruction *inst,
                           struct sb_sm4_operand *ops, uint32_t count)
{
    inst->operand_count = count;
    if (count == 0)
        return true;
    if (ops == reader->scratch_operands) {
        inst->operands = ops;
        return true;
    }
    struct sb_sm4_operand *copy = sb_sm4_alloc_uninit(reader, count, sizeof(*copy));
    if (!copy)
        return false;
    memcpy(copy, ops, count * sizeof(*copy));
    inst->operands = copy;
    return true;
}

/* Extended opcode tokens (§4); `pos` is the first one. */
static bool read_extended_opcode(struct sb_sm4_cursor *cur, struct sb_sm4_instruction *inst)
{
    struct sb_sm4_reader *reader = cur->reader;
    uint32_t ext;
    do {
        uint32_t pos = cur->pos;
        ext = sb_sm4_read(cur, "an extended opcode token");
        if (reader->failed)
            return false;
        inst->extended_count++;
        switch (ext & 0x3fu) {
        case 0:
            break;
        case 1:
            inst->has_sample_offsets = true;
            for (unsigned i = 0; i < 3; i++) {
                /* 4-bit two's complement: sign-extend by hand, no implementation-
                 * defined shifts of negative values. */
                int v = (int)((ext >> (9 + 4 * i)) & 0xfu);
                inst->sample_offsets[i] = (int8_t)(v >= 8 ? v - 16 : v);
            }
            break;
        case 2:
            inst->has_resource_dimension = true;
            inst->resource_dimension = (ext >> 6) & 0x1fu;
            inst->resource_stride = (ext >> 11) & 0xfffu;
            break;
        case 3:
            inst->has_resource_return_type = true;
            for (unsigned i = 0; i < 4; i++)
                inst->resource_return_type[i] = (ext >> (6 + 4 * i)) & 0xfu;
            break;
        default:
            return sb_sm4_fail(reader, SB_ERROR_SM4_BAD_EXTENDED, pos,
                               "instruction %u: extended opcode token type %u is not one of "
                               "0..3", reader->instr, ext & 0x3fu);
        }
    } while (ext & 0x80000000u);
    return true;
}

/* Token-0 controls that ordinary instructions define (§2.2, §2.3). */
static void read_controls(struct sb_sm4_instruction *inst, const struct sb_sm4_opcode_info *info)
{
    uint32_t token = inst->token;
    if (info->flags & SB_SM4_OPF_SYNC) {
        inst->sync_flags = (token >> 11) & 0xfu;
        return;
    }
    inst->saturate = (token >> 13) & 1u;
    inst->precise_mask = (token >> 19) & 0xfu;
    if (info->flags & SB_SM4_OPF_TEST)
        inst->test_nonzero = (token >> 18) & 1u;
    if (info->flags & SB_SM4_OPF_RESINFO)
        inst->return_type = (token >> 11) & 3u;
    if (info->flags & SB_SM4_OPF_SAMPLEINFO)
        inst->return_type = (token >> 11) & 1u;
}

/* Shader message payload (§7, class 4): operands, then the string. */
static bool read_message(struct sb_sm4_cursor *cur, struct sb_sm4_instruction *inst)
{
    struct sb_sm4_reader *reader = cur->reader;
    struct sb_sm4_custom_data *custom = &inst->custom;
    uint32_t header = cur->pos;
    custom->message_id = sb_sm4_read(cur, "the message id");
    custom->message_format = sb_sm4_read(cur, "the message format");
    uint32_t chars = sb_sm4_read(cur, "the message length");
    uint32_t count = sb_sm4_read(cur, "the message operand count");
    uint32_t dwords = sb_sm4_read(cur, "the message operand size");
    if (reader->failed)
        return false;
    uint32_t left = cur->end - cur->pos;
    if (dwords > left || count > dwords || (uint64_t)chars + 1 > (uint64_t)(left - dwords) * 4u)
        return sb_sm4_fail(reader, SB_ERROR_SM4_BAD_CUSTOM_DATA, header,
                           "instruction %u: shader message with %u operands in %u DWORDs and "
                           "%u characters does not fit the %u DWORDs left in its block",
                           reader->instr, count, dwords, chars, left);
    struct sb_sm4_cursor ops = { reader, cur->pos, cur->pos + dwords };
    struct sb_sm4_operand *operands = sb_sm4_alloc_uninit(reader, count, sizeof(*operands));
    for (uint32_t i = 0; operands && i < count; i++)
        if (!sb_sm4_read_operand(&ops, &operands[i]))
            return false;
    inst->operands = operands;
    inst->operand_count = count;
    char *string = sb_sm4_alloc(reader, (size_t)chars + 1, 1);
    if (!string)
        return false;
    memcpy(string, reader->data + (size_t)(cur->pos + dwords) * 4u, chars);
    custom->message = string;
    return true;
}

/* A custom-data block (§7): token 0, a DWORD length, the payload. */
static uint32_t read_custom_data(struct sb_sm4_reader *reader, struct sb_sm4_instruction *inst,
                                 uint32_t start)
{
    inst->is_custom_data = true;
    inst->custom.data_class = inst->token >> 11;
    if (start + 1 >= reader->dword_count) {
        sb_sm4_fail(reader, SB_ERROR_SM4_BAD_CUSTOM_DATA, start,
                    "instruction %u: custom-data block has no length DWORD before the "
                    "program's end", reader->instr);
        return 0;
    }
    uint32_t length = sb_sm4_load(reader, start + 1);
    if (length < 2 || length > reader->dword_count - start) {
        sb_sm4_fail(reader, SB_ERROR_SM4_BAD_CUSTOM_DATA, start + 1,
                    "instruction %u: custom-data length %u is not between 2 and the %u "
                    "DWORDs left in the program", reader->instr, length,
                    reader->dword_count - start);
        return 0;
    }
    inst->length = length;
    struct sb_sm4_custom_data *custom = &inst->custom;
    custom->dword_count = length - 2;
    uint32_t *dwords = sb_sm4_alloc_uninit(reader, custom->dword_count, sizeof(*dwords));
    if (!dwords)
        return 0;
    for (uint32_t i = 0; i < custom->dword_count; i++)
        dwords[i] = sb_sm4_load(reader, start + 2 + i);
    custom->dwords = dwords;
    if (custom->data_class == SB_SM4_CUSTOM_IMMEDIATE_CONSTANT_BUFFER &&
        custom->dword_count % 4 != 0) {
        sb_sm4_fail(reader, SB_ERROR_SM4_BAD_CUSTOM_DATA, start + 1,
                    "instruction %u: immediate constant buffer of %u DWORDs is not whole "
                    "rows of 4", reader->instr, custom->dword_count);
        return 0;
    }
    if (custom->data_class == SB_SM4_CUSTOM_SHADER_MESSAGE) {
        struct sb_sm4_cursor cur = { reader, start + 2, start + length };
        if (!read_message(&cur, inst))
            return 0;
    }
    return length;
}

/*
 * Records a long-form instruction with no length DWORD before the program's
 * end and returns 0. Out of line, as are fail_length() and fail_opcode(): with
 * the formatting calls inside, every instruction's decode paid for the
 * register saves they need.
 */
static SB_SM4_NOINLINE uint32_t fail_no_length(struct sb_sm4_reader *reader, uint32_t start)
{
    sb_sm4_fail(reader, SB_ERROR_SM4_BAD_LENGTH, start,
                "instruction %u (opcode %u): long-form length and no length DWORD "
                "before the program's end", reader->instr, sb_sm4_load(reader, start) & 0x7ffu);
    return 0;
}

/* Records a length outside [first - start, DWORDs left] and returns 0. */
static SB_SM4_NOINLINE uint32_t fail_length(struct sb_sm4_reader *reader, uint32_t start,
                                            uint32_t length, uint32_t first, bool long_form)
{
    uint32_t token = sb_sm4_load(reader, start);
    /* A zero length field is the fault to point at; a bad length DWORD otherwise. */
    bool field_zero = ((token >> 24) & 0x7fu) == 0;
    sb_sm4_fail(reader, SB_ERROR_SM4_BAD_LENGTH, long_form && !field_zero ? start + 1 : start,
                "instruction %u (opcode %u): length %u is not between %u and the %u "
                "DWORDs left in the program", reader->instr, token & 0x7ffu, length,
                first - start, reader->dword_count - start);
    return 0;
}

/* Records a reserved or unknown opcode at DWORD `start` and returns 0. */
static SB_SM4_NOINLINE uint32_t fail_opcode(struct sb_sm4_reader *reader, uint32_t start)
{
    uint32_t token = sb_sm4_load(reader, start);
    sb_sm4_fail(reader, SB_ERROR_SM4_UNKNOWN_OPCODE, start,
                "instruction %u: opcode %u (token 0x%08x) is reserved or unknown",
                reader->instr, token & 0x7ffu, token);
    return 0;
}

/* The instruction length and where its operands start (§2.1 long forms). */
static uint32_t read_length(struct sb_sm4_reader *reader, const struct sb_sm4_opcode_info *info,
                            uint32_t start, uint32_t *first, bool *long_form)
{
    uint32_t token = sb_sm4_load(reader, start);
    uint32_t length = (token >> 24) & 0x7fu;
    *first = start + 1;
    *long_form = (length == 0) || ((info->flags & SB_SM4_OPF_LONG) && (token & 0x80000000u));
    if (*long_form) {
        /* Microsoft's form (bit 31 on five opcodes) and vkd3d's (length 0 on any): the
         * next DWORD is the real length. */
        if (start + 1 >= reader->dword_count)
            return fail_no_length(reader, start);
        length = sb_sm4_load(reader, start + 1);
        *first = start + 2;
    }
    if (length < (uint32_t)(*first - start) || length > reader->dword_count - start)
        return fail_length(reader, start, length, *first, *long_form);
    return length;
}

/*
 * Zeroes every field of a list entry. The list is not zeroed in advance (that
 * large memset cost more than the whole decode of a short program), so each
 * entry is cleared as it is filled, in two halves of fixed size: clearing or
 * copying the whole 272-byte entry at once became a library call and measured
 * two fifths of the decode's time slower (bench_sm4). The halves are stores of
 * zero; they were copies of a static zero entry, whose loads missed the cache
 * on the first declaration of each program (perf: 4% of sb_ir_from_dxbc on the
 * last store; a corpus pass 1% faster without them).
 */
static void clear_instruction(struct sb_sm4_instruction *inst)
{
    enum { HALF = sizeof(*inst) / 2 };
    memset(inst, 0, HALF);
    memset((unsigned char *)inst + HALF, 0, sizeof(*inst) - HALF);
}

/* Decodes the instruction at DWORD `start`; returns its length (0 on failure). Inlined
 * into the decode loop; sb_sm4_read_instruction() is the same for the fused path. */
static inline SB_SM4_ALWAYS_INLINE uint32_t read_instruction(struct sb_sm4_reader *reader,
                                                             struct sb_sm4_instruction *inst,
                                                             uint32_t start)
{
    uint32_t token = sb_sm4_load(reader, start);
    clear_instruction(inst);
    inst->opcode = token & 0x7ffu;
    inst->index = reader->instr;
    inst->offset = sb_sm4_offset(reader, start);
    inst->token = token;
    if (inst->opcode == SB_SM4_OP_CUSTOMDATA)
        return read_custom_data(reader, inst, start);
    const struct sb_sm4_opcode_info *info = sb_sm4_opcode_info(inst->opcode);
    if (!info)
        return fail_opcode(reader, start);
    uint32_t first;
    bool long_form;
    uint32_t length = read_length(reader, info, start, &first, &long_form);
    if (!length)
        return 0;
    inst->length = length;
    struct sb_sm4_cursor cur = { reader, first, start + length };
    if (!long_form && (token & 0x80000000u) && !read_extended_opcode(&cur, inst))
        return 0;
    if (info->flags & SB_SM4_OPF_DECL) {
        struct sb_sm4_operand local[SB_SM4_MAX_OPERANDS];
        struct sb_sm4_operand *ops = reader->scratch_operands ? reader->scratch_operands : local;
        uint32_t count = 0;
        inst->is_declaration = true;
        if (!sb_sm4_read_declaration(&cur, inst, ops, &count))
            return 0;
        if (reader->failed || !store_operands(reader, inst, ops, count))
            return 0;
        return length;
    }
    read_controls(inst, info);
    if (info->flags & SB_SM4_OPF_FCALL)
        inst->call_site = sb_sm4_read(&cur, "the call-site index");
    inst->dst_count = info->dst_count;
    /* The table gives the operand count, so operands are decoded straight into their
     * final array (no stack copy to move afterwards). */
    uint32_t count = (uint32_t)info->dst_count + info->src_count;
    struct sb_sm4_operand *ops = count ? sb_sm4_alloc_uninit(reader, count, sizeof(*ops)) : NULL;
    if (count && !ops)
        return 0;
    if (!sb_sm4_read_operands(&cur, ops, count) || reader->failed)
        return 0;
    inst->operand_count = count;
    inst->operands = ops;
    return length;
}

uint32_t sb_sm4_read_instruction(struct sb_sm4_reader *reader, struct sb_sm4_instruction *inst,
                                 uint32_t start)
{
    return read_instruction(reader, inst, start);
}

bool sb_sm4_read_header(struct sb_sm4_reader *reader, size_t size, struct sb_sm4_program *prog)
{
    if (size < 8)
        return sb_sm4_fail(reader, SB_ERROR_SM4_BAD_HEADER, 0,
                           "program of %zu bytes is shorter than its 8-byte header", size);
    prog->version_token = sb_sm4_load(reader, 0);
    prog->program_type = prog->version_token >> 16;
    prog->major = (prog->version_token >> 4) & 0xfu;
    prog->minor = prog->version_token & 0xfu;
    if (prog->program_type > 5 || prog->major < 4 || prog->major > 5 || prog->minor > 1 ||
        (prog->version_token & 0xff00u))
        return sb_sm4_fail(reader, SB_ERROR_SM4_BAD_HEADER, 0,
                           "version token 0x%08x is not a vs/ps/gs/hs/ds/cs 4.0..5.1 program",
                           prog->version_token);
    prog->length_dwords = sb_sm4_load(reader, 1);
    if (prog->length_dwords < 2 || prog->length_dwords > size / 4)
        return sb_sm4_fail(reader, SB_ERROR_SM4_BAD_HEADER, 1,
                           "program length %u DWORDs is not between 2 and the %zu DWORDs of "
                           "the data", prog->length_dwords, size / 4);
    reader->dword_count = prog->length_dwords;
    reader->is_sm51 = prog->major > 5 || (prog->major == 5 && prog->minor >= 1);
    return true;
}

/*
 * How many instructions the stream holds, from the length fields alone, so
 * the list is allocated once at its final size (growing it zeroed and
 * copied 272-byte entries, the largest allocation cost of a decode). Stops
 * at the first length the decoder would reject: the decode reports that
 * instruction, and the list still grows if the count falls short.
 */
static uint32_t count_instructions(const struct sb_sm4_reader *reader)
{
    uint32_t count = 0;
    uint32_t pos = 2;
    while (pos < reader->dword_count) {
        uint32_t token = sb_sm4_load(reader, pos);
        uint32_t opcode = token & 0x7ffu;
        uint32_t length = (token >> 24) & 0x7fu;
        /* The row matters only when bit 31 is set (it may announce a length DWORD). */
        const struct sb_sm4_opcode_info *info =
            opcode == SB_SM4_OP_CUSTOMDATA || !(token & 0x80000000u) ? NULL
                                                                     : sb_sm4_opcode_info(opcode);
        bool long_form = opcode == SB_SM4_OP_CUSTOMDATA || length == 0 ||
                         (info && (info->flags & SB_SM4_OPF_LONG));
        if (long_form)
            length = pos + 1 < reader->dword_count ? sb_sm4_load(reader, pos + 1) : 0;
        count++;
        if (length == 0 || length > reader->dword_count - pos)
            break;
        pos += length;
    }
    return count;
}

static bool decode_stream(struct sb_sm4_reader *reader, struct sb_sm4_program *prog)
{
    uint32_t capacity = 0;
    struct sb_sm4_instruction *list = NULL;
    uint32_t pos = 2;
    uint32_t expected = count_instructions(reader);
    while (pos < reader->dword_count) {
        if (prog->instruction_count == capacity) {
            uint32_t grown = capacity ? capacity * 2 : expected > 0 ? expected : 64;
            list = capacity ? sb_arena_grow(reader->arena, list, capacity, grown, sizeof(*list))
                            : sb_arena_alloc_uninit(reader->arena, grown, sizeof(*list));
            if (!list)
                return sb_sm4_fail(reader, SB_ERROR_OUT_OF_MEMORY, pos,
                                   "out of memory growing the instruction list");
            capacity = grown;
        }
        struct sb_sm4_instruction *inst = &list[prog->instruction_count];
        reader->instr = prog->instruction_count;
        reader->instr_start = pos;
        uint32_t length = read_instruction(reader, inst, pos);
        if (!length)
            return false;
        pos += length;
        prog->instruction_count++;
    }
    prog->instructions = list;
    return true;
}

static void report(struct sb_error *error, const struct sb_error *from)
{
    if (error)
        *error = *from;
}

enum sb_result sb_sm4_decode(const void *data, size_t size, uint64_t base_offset,
                             struct sb_sm4_program **out, struct sb_error *error)
{
    if (out)
        *out = NULL;
    if (!out || (!data && size)) {
        struct sb_error e = { SB_ERROR_INVALID_ARGUMENT, 0, UINT32_MAX,
                              "sb_sm4_decode: NULL data or out pointer" };
        report(error, &e);
        return e.code;
    }
    struct sb_arena *arena = sb_arena_create();
    struct sm4_program_owner *owner = arena ? sb_arena_alloc(arena, 1, sizeof(*owner)) : NULL;
    if (!owner) {
        sb_arena_destroy(arena);
        struct sb_error e = { SB_ERROR_OUT_OF_MEMORY, 0, UINT32_MAX,
                              "out of memory creating the program" };
        report(error, &e);
        return e.code;
    }
    owner->arena = arena;
    struct sb_sm4_reader reader = { .data = data, .base_offset = base_offset, .arena = arena,
                                    .instr = SB_ERROR_NO_INSTR };
    owner->program.base_offset = base_offset;
    if (sb_sm4_read_header(&reader, size, &owner->program))
        decode_stream(&reader, &owner->program);
    if (reader.failed) {
        report(error, &reader.error);
        sb_arena_destroy(arena);
        return reader.error.code;
    }
    *out = &owner->program;
    return SB_SUCCESS;
}

enum sb_result sb_sm4_decode_container(const struct sb_dxbc *container,
                                       struct sb_sm4_program **out, struct sb_error *error)
{
    if (out)
        *out = NULL;
    const struct sb_dxbc_part *part = NULL;
    if (container) {
        part = sb_dxbc_find_part(container, SB_FOURCC('S', 'H', 'E', 'X'));
        if (!part)
            part = sb_dxbc_find_part(container, SB_FOURCC('S', 'H', 'D', 'R'));
    }
    if (!container || !out || !part) {
        struct sb_error e = { SB_ERROR_INVALID_ARGUMENT, 0, UINT32_MAX, "" };
        snprintf(e.message, sizeof(e.message), "%s",
                 !container || !out ? "sb_sm4_decode_container: NULL container or out pointer"
                                    : "the container has no SHEX or SHDR part");
        report(error, &e);
        return e.code;
    }
    return sb_sm4_decode(part->data, part->size, part->data_offset, out, error);
}

void sb_sm4_program_destroy(struct sb_sm4_program *program)
{
    if (!program)
        return;
    struct sm4_program_owner *owner = (struct sm4_program_owner *)program;
    sb_arena_destroy(owner->arena);
}
