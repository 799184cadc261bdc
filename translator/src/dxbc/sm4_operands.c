/* SPDX-License-Identifier: MIT */
/*
 * SM4/5 operand decoding (../shared/docs/sm4-tokens.md §5, §6) and the bounded token
 * reader every decoder file uses.
 *
 * All DWORDs are read through sb_sm4_read(), whose window ends at the
 * current instruction's length: an operand that would run past it is the
 * "length shorter than the operands" error of §10.3, reported at the DWORD
 * that was missing. Relative indices nest operands; the nesting depth is
 * capped because the format allows unbounded recursion while fxc only ever
 * writes one level.
 */
#include "sm4_private.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "error.h"

/* fxc writes one level (a temp inside an index); a few more keep hand-written
 * streams legal while bounding the recursion on hostile input. */
#define SM4_MAX_INDEX_NESTING 4u

bool sb_sm4_fail(struct sb_sm4_reader *reader, enum sb_result code, uint32_t dword_index,
                 const char *format, ...)
{
    if (reader->failed)
        return false;
    reader->failed = true;
    va_list args;
    va_start(args, format);
    sb_error_setv(&reader->error, code, sb_sm4_offset(reader, dword_index), reader->instr, format,
                  args);
    va_end(args);
    return false;
}

uint32_t sb_sm4_read(struct sb_sm4_cursor *cur, const char *field)
{
    struct sb_sm4_reader *reader = cur->reader;
    if (reader->failed)
        return 0;
    if (cur->pos >= cur->end) {
        uint32_t start = reader->instr_start;
        sb_sm4_fail(reader, SB_ERROR_SM4_LENGTH_TOO_SHORT, cur->pos,
                    "instruction %u (opcode %u at offset %llu): %s needs DWORD %u, past the "
                    "instruction's end at DWORD %u",
                    reader->instr, start < reader->dword_count
                                       ? sb_sm4_load(reader, start) & 0x7ffu : 0u,
                    (unsigned long long)sb_sm4_offset(reader, start), field,
                    cur->pos - start, cur->end - start);
        return 0;
    }
    return sb_sm4_load(reader, cur->pos++);
}

/* sb_sm4_read() for the operand loops: the in-window case inline, the failure
 * (and an already failed reader) through the function that reports it. */
static inline uint32_t read_dword(struct sb_sm4_cursor *cur, const char *field)
{
    if (cur->pos < cur->end && !cur->reader->failed)
        return sb_sm4_load(cur->reader, cur->pos++);
    return sb_sm4_read(cur, field);
}

void sb_sm4_fail_oom(struct sb_sm4_reader *reader)
{
    sb_sm4_fail(reader, SB_ERROR_OUT_OF_MEMORY, reader->instr_start,
                "out of memory decoding instruction %u", reader->instr);
}

void *sb_sm4_alloc(struct sb_sm4_reader *reader, size_t count, size_t size)
{
    if (reader->failed)
        return NULL;
    void *p = sb_arena_alloc(reader->arena, count ? count : 1, size);
    if (!p)
        sb_sm4_fail_oom(reader);
    return p;
}

static bool read_operand_depth(struct sb_sm4_cursor *cur, struct sb_sm4_operand *out,
                               unsigned depth);

/* Operands start as a copy of this blank: every operand decoded clears 152 bytes, and a
 * copy of a constant blank measured far cheaper than clearing in place (a third of the
 * decode time, bench_sm4). */
static const struct sb_sm4_operand zero_operand;

/* Index DWORDs and nested operands of one index (§5.1 representations). */
static bool read_index(struct sb_sm4_cursor *cur, struct sb_sm4_index *index,
                       uint32_t representation, uint32_t token_pos, unsigned depth)
{
    struct sb_sm4_reader *reader = cur->reader;
    index->representation = representation;
    switch (representation) {
    case SB_SM4_INDEX_IMMEDIATE32:
    case SB_SM4_INDEX_IMMEDIATE32_RELATIVE:
        index->value = read_dword(cur, "an operand index");
        break;
    case SB_SM4_INDEX_IMMEDIATE64:
    case SB_SM4_INDEX_IMMEDIATE64_RELATIVE: {
        uint64_t high = read_dword(cur, "a 64-bit operand index");
        uint64_t low = read_dword(cur, "a 64-bit operand index");
        index->value = high << 32 | low;
        break;
    }
    case SB_SM4_INDEX_RELATIVE:
        break;
    default:
        return sb_sm4_fail(reader, SB_ERROR_SM4_BAD_INDEX, token_pos,
                           "instruction %u: operand index representation %u is not one of "
                           "0..4", reader->instr, representation);
    }
    if (representation >= SB_SM4_INDEX_RELATIVE && !reader->failed) {
        if (depth + 1 >= SM4_MAX_INDEX_NESTING)
            return sb_sm4_fail(reader, SB_ERROR_SM4_BAD_INDEX, cur->pos,
                               "instruction %u: relative operand indices nested deeper than "
                               "%u levels", reader->instr, SM4_MAX_INDEX_NESTING);
        struct sb_sm4_operand *nested = sb_sm4_alloc_uninit(reader, 1, sizeof(*nested));
        if (!nested || !read_operand_depth(cur, nested, depth + 1))
            return false;
        index->relative = nested;
    }
    return !reader->failed;
}

/* Extended operand tokens (§6): only type 1 (modifier / precision / non-uniform). */
static bool read_extended_operand(struct sb_sm4_cursor *cur, struct sb_sm4_operand *out)
{
    struct sb_sm4_reader *reader = cur->reader;
    uint32_t ext;
    do {
        uint32_t pos = cur->pos;
        ext = read_dword(cur, "an extended operand token");
        if (reader->failed)
            return false;
        uint32_t type = ext & 0x3fu;
        if (type == 0)
            continue;
        if (type != 1)
            return sb_sm4_fail(reader, SB_ERROR_SM4_BAD_EXTENDED, pos,
                               "instruction %u: extended operand token type %u is not 0 "
                               "(empty) or 1 (modifier)", reader->instr, type);
        uint32_t modifier = (ext >> 6) & 0xffu;
        if (modifier > SB_SM4_MODIFIER_ABS_NEG)
            return sb_sm4_fail(reader, SB_ERROR_SM4_BAD_EXTENDED, pos,
                               "instruction %u: operand modifier %u is not 0..3",
                               reader->instr, modifier);
        out->modifier = modifier;
        out->min_precision = (ext >> 14) & 0x7u;
        out->non_uniform = (ext >> 17) & 1u;
    } while (ext & 0x80000000u);
    return true;
}

static bool read_operand_depth(struct sb_sm4_cursor *cur, struct sb_sm4_operand *out,
                               unsigned depth)
{
    struct sb_sm4_reader *reader = cur->reader;
    *out = zero_operand;
    uint32_t pos = cur->pos;
    out->offset = sb_sm4_offset(reader, pos);
    uint32_t token = read_dword(cur, "an operand token");
    if (reader->failed)
        return false;
    out->token = token;
    out->type = (token >> 12) & 0xffu;
    out->index_dimension = (token >> 20) & 3u;
    for (unsigned i = 0; i < 4; i++)
        out->swizzle[i] = (uint8_t)i;
    switch (token & 3u) {
    case 0: out->component_count = 0; break;
    case 1: out->component_count = 1; break;
    case 2: out->component_count = 4; break;
    default:
        return sb_sm4_fail(reader, SB_ERROR_SM4_BAD_OPERAND, pos,
                           "instruction %u: operand token 0x%08x has component count 3 "
                           "(N-component), which is never valid", reader->instr, token);
    }
    if (out->type >= SB_SM4_OPERAND_TYPE_COUNT)
        return sb_sm4_fail(reader, SB_ERROR_SM4_BAD_OPERAND, pos,
                           "instruction %u: operand type %u is not one of 0..%u",
                           reader->instr, out->type, SB_SM4_OPERAND_TYPE_COUNT - 1);
    if (out->component_count == 4) {
        out->selection = (token >> 2) & 3u;
        uint32_t bits = (token >> 4) & 0xffu;
        if (out->selection == SB_SM4_SELECT_MASK) {
            out->mask = bits & 0xfu;
        } else if (out->selection == SB_SM4_SELECT_SWIZZLE) {
            for (unsigned i = 0; i < 4; i++)
                out->swizzle[i] = (uint8_t)((bits >> (2 * i)) & 3u);
        } else if (out->selection == SB_SM4_SELECT_ONE) {
            for (unsigned i = 0; i < 4; i++)
                out->swizzle[i] = (uint8_t)(bits & 3u);
        } else {
            return sb_sm4_fail(reader, SB_ERROR_SM4_BAD_OPERAND, pos,
                               "instruction %u: operand selection mode 3 is not mask, "
                               "swizzle or select-1", reader->instr);
        }
    }
    if (token & 0x80000000u) {
        out->extended = true;
        if (!read_extended_operand(cur, out))
            return false;
    }
    if (out->type == SB_SM4_OPERAND_IMMEDIATE32 || out->type == SB_SM4_OPERAND_IMMEDIATE64) {
        bool is64 = out->type == SB_SM4_OPERAND_IMMEDIATE64;
        if (out->index_dimension != 0 || out->component_count == 0)
            return sb_sm4_fail(reader, SB_ERROR_SM4_BAD_OPERAND, pos,
                               "instruction %u: immediate operand with %u indices and %u "
                               "components (needs 0 indices, 1 or 4 components)",
                               reader->instr, out->index_dimension, out->component_count);
        out->immediate_count = out->component_count == 1 ? (is64 ? 2u : 1u) : 4u;
        for (uint32_t i = 0; i < out->immediate_count; i++)
            out->immediate[i] = read_dword(cur, "an immediate value");
        return !reader->failed;
    }
    for (uint32_t i = 0; i < out->index_dimension; i++) {
        uint32_t representation = (token >> (22 + 3 * i)) & 7u;
        if (!read_index(cur, &out->index[i], representation, pos, depth))
            return false;
    }
    return !reader->failed;
}

/*
 * The forms fxc writes for almost every operand: no extended token, a valid
 * component encoding, and either a register whose indices are all 32-bit
 * immediates or an immediate value without indices; every DWORD inside the
 * window. Each check of the general path holds by construction, so the
 * struct is filled straight away; false, with nothing read or written, sends
 * any other form (and so every error) to read_operand_depth(), which decodes
 * it to the same fields. Always inlined into the operand loop: as a call of
 * its own it cost more than it saved.
 */
static inline SB_SM4_ALWAYS_INLINE bool read_plain_operand(struct sb_sm4_cursor *cur,
                                                           struct sb_sm4_operand *out)
{
    struct sb_sm4_reader *reader = cur->reader;
    uint32_t pos = cur->pos;
    if (pos >= cur->end || reader->failed)
        return false;
    uint32_t token = sb_sm4_load(reader, pos);
    const struct sb_sm4_operand_head h = sb_sm4_operand_head(token);
    const uint32_t type = h.type, dimension = h.dimension, encoded = h.encoded;
    const uint32_t selection = h.selection, representations = h.representations, payload = h.payload;
    const bool immediate = h.immediate;
    if ((token & 0x80000000u) || encoded == 3 || selection == 3 ||
        type >= SB_SM4_OPERAND_TYPE_COUNT || representations != 0 ||
        payload > cur->end - pos - 1)
        return false;
    *out = zero_operand;
    out->offset = sb_sm4_offset(reader, pos);
    out->token = token;
    out->type = type;
    out->index_dimension = dimension;
    out->component_count = encoded == 2 ? 4u : encoded;
    out->selection = selection;
    uint32_t bits = (token >> 4) & 0xffu;
    uint8_t *swizzle = out->swizzle;
    if (encoded == 2 && selection == SB_SM4_SELECT_SWIZZLE) {
        swizzle[0] = (uint8_t)(bits & 3u);
        swizzle[1] = (uint8_t)((bits >> 2) & 3u);
        swizzle[2] = (uint8_t)((bits >> 4) & 3u);
        swizzle[3] = (uint8_t)(bits >> 6);
    } else if (encoded == 2 && selection == SB_SM4_SELECT_ONE) {
        swizzle[0] = swizzle[1] = swizzle[2] = swizzle[3] = (uint8_t)(bits & 3u);
    } else {
        static const uint8_t identity[4] = { 0, 1, 2, 3 };
        memcpy(swizzle, identity, sizeof(identity));
        if (encoded == 2)
            out->mask = bits & 0xfu;
    }
    /* Every payload DWORD lies inside the window: checked above. */
    const uint8_t *at = reader->data + (size_t)(pos + 1) * 4u;
    if (immediate) {
        out->immediate_count = payload;
        for (uint32_t i = 0; i < payload; i++)
            out->immediate[i] = sb_load_u32_le(at + 4 * i);
    } else {
        switch (dimension) {
        case 3: out->index[2].value = sb_load_u32_le(at + 8); /* fall through */
        case 2: out->index[1].value = sb_load_u32_le(at + 4); /* fall through */
        case 1: out->index[0].value = sb_load_u32_le(at); break;
        default: break;
        }
    }
    cur->pos = pos + 1 + payload;
    return true;
}

bool sb_sm4_read_operand(struct sb_sm4_cursor *cur, struct sb_sm4_operand *out)
{
    return read_plain_operand(cur, out) || read_operand_depth(cur, out, 0);
}

bool sb_sm4_read_operands(struct sb_sm4_cursor *cur, struct sb_sm4_operand *ops, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++)
        if (!read_plain_operand(cur, &ops[i]) && !read_operand_depth(cur, &ops[i], 0))
            return false;
    return true;
}
