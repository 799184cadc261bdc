/* SPDX-License-Identifier: MIT */
/*
 * Arithmetic instructions of the picasso-syntax assembler (../shared/docs/pica200.md
 * §4-§5, picasso Manual "Supported Instructions"): operand checks, the
 * choice between normal and inverted formats, and the word layouts.
 * Descriptors come from pica_opdesc.c (picasso's first-use deduplication);
 * when a MAD forces two entries to swap, earlier words are renumbered here.
 */
#include <string.h>

#include "pica_asm_private.h"

static uint32_t allocate_descriptor(struct asm_state *state, enum sb_pica_opcode op, uint32_t desc,
                                    uint32_t mask, uint32_t column)
{
    (void)mask;
    uint32_t a = 0, b = 0;
    int index = pica_opdesc_allocate(&state->opdescs, op, desc, &a, &b);
    switch (index) {
    case PICA_OPDESC_FULL:
        asm_fail(state, column, "too many operand descriptors (limit %u)",
                 SB_SHBIN_MAX_OPERAND_DESCRIPTORS);
    case PICA_OPDESC_NO_MAD_SLOT:
        asm_fail(state, column, "more than 32 operand descriptors used by mad");
    case PICA_OPDESC_NO_MATCH:
        asm_fail(state, column, "no entry of the .opdesc table matches this instruction");
    default:
        break;
    }
    if (a != b) {
        /* a MAD needed a low index: rewrite earlier non-MAD words naming either entry */
        for (uint32_t i = 0; i < state->code_count; ++i) {
            uint32_t word = state->code[i];
            uint32_t opcode = word >> 26;
            if (opcode < 0x20 || opcode == SB_PICA_OP_CMP || opcode == SB_PICA_OP_CMP_LAST) {
                uint32_t d = word & 0x7Fu;
                d = d == a ? b : d == b ? a : d;
                state->code[i] = (word & ~0x7Fu) | d;
            }
        }
    }
    return (uint32_t)index;
}

static uint32_t source_bits(const struct asm_operand *operand, unsigned n)
{
    return ((uint32_t)operand->negate | ((uint32_t)operand->swizzle << 1))
           << pica_desc_source_shift(n);
}

/* Field value (§3.2) of a source; `wide` admits float uniforms. */
static uint32_t source_field(struct asm_state *state, const struct asm_operand *op, bool wide,
                             bool relative_ok)
{
    if (!relative_ok && op->relative != SB_PICA_RELATIVE_NONE)
        asm_fail(state, op->column, "relative addressing is only possible on the wide operand");
    switch (op->file) {
    case ASM_V: return (uint32_t)op->index;
    case ASM_R: return 0x10u + (uint32_t)op->index;
    case ASM_C:
        if (!wide)
            asm_fail(state, op->column, "a float uniform cannot be used in this operand");
        return 0x20u + (uint32_t)op->index;
    default:
        asm_fail(state, op->column, "invalid source register (expected v, r or c)");
    }
}

static uint32_t destination_field(struct asm_state *state, const struct asm_operand *op)
{
    if (op->negate || op->relative != SB_PICA_RELATIVE_NONE)
        asm_fail(state, op->column, "invalid destination");
    if (op->file == ASM_O)
        return (uint32_t)op->index;
    if (op->file == ASM_R)
        return 0x10u + (uint32_t)op->index;
    asm_fail(state, op->column, "invalid destination register (expected o or r)");
}

static void expect_args(struct asm_state *state, struct asm_span mnemonic, uint32_t got,
                        uint32_t want)
{
    if (got != want)
        asm_fail(state, mnemonic.column, "'%.*s' takes %u operand%s, got %u",
                 (int)mnemonic.length, mnemonic.text, want, want == 1 ? "" : "s", got);
}

static bool is_wide(const struct asm_operand *op)
{
    return op->file == ASM_C;
}

static enum sb_pica_opcode inverted_of(enum sb_pica_opcode op)
{
    switch (op) {
    case SB_PICA_OP_DPH: return SB_PICA_OP_DPHI;
    case SB_PICA_OP_DST: return SB_PICA_OP_DSTI;
    case SB_PICA_OP_SGE: return SB_PICA_OP_SGEI;
    case SB_PICA_OP_SLT: return SB_PICA_OP_SLTI;
    default: return op;
    }
}

/* Formats 1 / 1i: dest, src1, src2. */
static void two_sources(struct asm_state *state, enum sb_pica_opcode op, struct asm_span *args)
{
    struct asm_operand d, s1, s2;
    asm_parse_operand(state, args[0], &d);
    asm_parse_operand(state, args[1], &s1);
    asm_parse_operand(state, args[2], &s2);
    enum sb_pica_opcode inverted = inverted_of(op);
    bool forced = op == inverted && (op == SB_PICA_OP_DPHI || op == SB_PICA_OP_DSTI ||
                                     op == SB_PICA_OP_SGEI || op == SB_PICA_OP_SLTI);
    bool commutative = op == SB_PICA_OP_ADD || op == SB_PICA_OP_MUL || op == SB_PICA_OP_DP3 ||
                       op == SB_PICA_OP_DP4;
    bool use_inverted = forced || (inverted != op && !is_wide(&s1) && is_wide(&s2));
    if (!use_inverted && commutative && !is_wide(&s1) && is_wide(&s2)) {
        struct asm_operand t = s1;
        s1 = s2;
        s2 = t;
    }
    if (use_inverted)
        op = inverted;
    uint32_t dst = destination_field(state, &d);
    uint32_t desc = asm_swizzle_mask(d.swizzle) | source_bits(&s1, 0) | source_bits(&s2, 1);
    uint32_t word;
    if (use_inverted) {
        uint32_t f1 = source_field(state, &s1, false, false);
        uint32_t f2 = source_field(state, &s2, true, true);
        word = ((uint32_t)op << 26) | (dst << 21) | ((uint32_t)s2.relative << 19) | (f1 << 14) |
               (f2 << 7);
    } else {
        uint32_t f1 = source_field(state, &s1, true, true);
        uint32_t f2 = source_field(state, &s2, false, false);
        word = ((uint32_t)op << 26) | (dst << 21) | ((uint32_t)s1.relative << 19) | (f1 << 12) |
               (f2 << 7);
    }
    uint32_t index = allocate_descriptor(state, op, desc,
                                         PICA_DESC_MASK_DST | PICA_DESC_MASK_SRC1 |
                                             PICA_DESC_MASK_SRC2,
                                         args[0].column);
    asm_emit(state, word | index, args[0].column);
}

/* Format 1u: dest, src1 (MOVA: a0/a1/a01, src1). */
static void one_source(struct asm_state *state, enum sb_pica_opcode op, struct asm_span *args)
{
    struct asm_operand s1;
    uint32_t dst = 0, mask;
    if (op == SB_PICA_OP_MOVA) {
        struct asm_span t = args[0];
        uint8_t swizzle;
        if (asm_span_equals(t, "a0") || asm_span_equals(t, "a0.x"))
            mask = 8;
        else if (asm_span_equals(t, "a1") || asm_span_equals(t, "a0.y"))
            mask = 4;
        else if (asm_span_equals(t, "a01") || asm_span_equals(t, "a0.xy"))
            mask = 12;
        else if (asm_span_equals(t, "a0.none"))
            mask = 0;
        else if (t.length > 3 && strncmp(t.text, "a0.", 3) == 0 &&
                 asm_parse_swizzle((struct asm_span){t.text + 3, t.length - 3, t.column + 3},
                                   &swizzle))
            mask = asm_swizzle_mask(swizzle);
        else
            asm_fail(state, t.column, "invalid mova target (expected a0, a1 or a01)");
    } else {
        struct asm_operand d;
        asm_parse_operand(state, args[0], &d);
        dst = destination_field(state, &d);
        mask = asm_swizzle_mask(d.swizzle);
    }
    asm_parse_operand(state, args[1], &s1);
    uint32_t f1 = source_field(state, &s1, true, true);
    uint32_t index = allocate_descriptor(state, op, mask | source_bits(&s1, 0),
                                         PICA_DESC_MASK_DST | PICA_DESC_MASK_SRC1, args[0].column);
    asm_emit(state,
             ((uint32_t)op << 26) | (dst << 21) | ((uint32_t)s1.relative << 19) | (f1 << 12) | index,
             args[0].column);
}

static int compare_op(struct asm_state *state, struct asm_span span)
{
    static const char *const names[] = {"eq", "ne", "lt", "le", "gt", "ge", "6", "7"};
    for (int i = 0; i < 8; ++i)
        if (asm_span_equals(span, names[i]))
            return i;
    asm_fail(state, span.column, "invalid comparison '%.*s' (eq, ne, lt, le, gt, ge)",
             (int)(span.length > 16 ? 16 : span.length), span.text);
}

/* CMP src1, opx, opy, src2; a wide src2 is swapped to src1 with mirrored ops (nihstro). */
static void compare(struct asm_state *state, struct asm_span *args)
{
    static const int mirror[8] = {0, 1, 4, 5, 2, 3, 6, 7};
    struct asm_operand s1, s2;
    asm_parse_operand(state, args[0], &s1);
    int cx = compare_op(state, args[1]);
    int cy = compare_op(state, args[2]);
    asm_parse_operand(state, args[3], &s2);
    if (!is_wide(&s1) && is_wide(&s2)) {
        struct asm_operand t = s1;
        s1 = s2;
        s2 = t;
        cx = mirror[cx];
        cy = mirror[cy];
    }
    uint32_t f1 = source_field(state, &s1, true, true);
    uint32_t f2 = source_field(state, &s2, false, false);
    uint32_t index = allocate_descriptor(state, SB_PICA_OP_CMP,
                                         source_bits(&s1, 0) | source_bits(&s2, 1),
                                         PICA_DESC_MASK_SRC1 | PICA_DESC_MASK_SRC2, args[0].column);
    asm_emit(state,
             ((uint32_t)SB_PICA_OP_CMP << 26) | ((uint32_t)cx << 24) | ((uint32_t)cy << 21) |
                 ((uint32_t)s1.relative << 19) | (f1 << 12) | (f2 << 7) | index,
             args[0].column);
}

/* MAD dest, src1, src2, src3 (normal: src2 wide; inverted MADI: src3 wide). */
static void multiply_add(struct asm_state *state, bool force_inverted, struct asm_span *args)
{
    struct asm_operand d, s1, s2, s3;
    asm_parse_operand(state, args[0], &d);
    asm_parse_operand(state, args[1], &s1);
    asm_parse_operand(state, args[2], &s2);
    asm_parse_operand(state, args[3], &s3);
    bool inverted = force_inverted ||
                    (!is_wide(&s2) && (is_wide(&s3) || (s3.relative && !s2.relative)));
    uint32_t dst = destination_field(state, &d);
    uint32_t f1 = source_field(state, &s1, false, false);
    uint32_t f2 = source_field(state, &s2, !inverted, !inverted);
    uint32_t f3 = source_field(state, &s3, inverted, inverted);
    enum sb_pica_opcode op = inverted ? SB_PICA_OP_MADI : SB_PICA_OP_MAD;
    uint32_t desc = asm_swizzle_mask(d.swizzle) | source_bits(&s1, 0) | source_bits(&s2, 1) |
                    source_bits(&s3, 2);
    uint32_t index = allocate_descriptor(state, op, desc,
                                         PICA_DESC_MASK_DST | PICA_DESC_MASK_SRC1 |
                                             PICA_DESC_MASK_SRC2 | PICA_DESC_MASK_SRC3,
                                         args[0].column);
    uint32_t word = (inverted ? 0xC0000000u : 0xE0000000u) | (dst << 24) | (f1 << 17) | (f3 << 5) |
                    index;
    if (inverted)
        word |= ((uint32_t)s3.relative << 22) | (f2 << 12);
    else
        word |= ((uint32_t)s2.relative << 22) | (f2 << 10);
    asm_emit(state, word, args[0].column);
}

/* setemit vtx[, prim inv] (flags space-separated; also accepted comma-separated). */
static void set_emit(struct asm_state *state, struct asm_span *args, uint32_t count)
{
    uint32_t vtx = (uint32_t)asm_parse_int(state, args[0], 0, 3);
    bool prim = false, inv = false;
    for (uint32_t a = 1; a < count; ++a) {
        struct asm_span rest = args[a];
        size_t at = 0;
        while (at < rest.length) {
            while (at < rest.length && (rest.text[at] == ' ' || rest.text[at] == '\t'))
                at++;
            size_t begin = at;
            while (at < rest.length && rest.text[at] != ' ' && rest.text[at] != '\t')
                at++;
            struct asm_span flag = {rest.text + begin, at - begin, rest.column + (uint32_t)begin};
            if (flag.length == 0)
                break;
            if (asm_span_equals(flag, "prim") || asm_span_equals(flag, "primitive"))
                prim = true;
            else if (asm_span_equals(flag, "inv") || asm_span_equals(flag, "invert"))
                inv = true;
            else
                asm_fail(state, flag.column, "unknown setemit flag '%.*s'",
                         (int)(flag.length > 16 ? 16 : flag.length), flag.text);
        }
    }
    asm_current_dvle(state)->geometry = true;
    asm_emit(state,
             ((uint32_t)SB_PICA_OP_SETEMIT << 26) | (vtx << 24) | ((uint32_t)prim << 23) |
                 ((uint32_t)inv << 22),
             args[0].column);
}

bool asm_instruction(struct asm_state *state, struct asm_span mnemonic, struct asm_span rest)
{
    struct asm_span args[ASM_MAX_ARGS];
    uint32_t count = asm_split_args(rest, args, ASM_MAX_ARGS);
    bool madi = asm_span_equals(mnemonic, "madi");
    const struct pica_opcode_info *info =
        madi ? pica_opcode_info(SB_PICA_OP_MADI) : pica_opcode_by_name(mnemonic.text, mnemonic.length);
    if (!info)
        return asm_flow_instruction(state, mnemonic, rest);
    switch (info->format) {
    case SB_PICA_FORMAT_0:
        expect_args(state, mnemonic, count, 0);
        asm_emit(state, (uint32_t)info->opcode << 26, mnemonic.column);
        return true;
    case SB_PICA_FORMAT_1:
    case SB_PICA_FORMAT_1I:
        expect_args(state, mnemonic, count, 3);
        two_sources(state, info->opcode, args);
        return true;
    case SB_PICA_FORMAT_1U:
        expect_args(state, mnemonic, count, 2);
        one_source(state, info->opcode, args);
        return true;
    case SB_PICA_FORMAT_1C:
        expect_args(state, mnemonic, count, 4);
        compare(state, args);
        return true;
    case SB_PICA_FORMAT_5:
    case SB_PICA_FORMAT_5I:
        expect_args(state, mnemonic, count, 4);
        multiply_add(state, madi, args);
        return true;
    case SB_PICA_FORMAT_4:
        if (count < 1 || count > 3)
            expect_args(state, mnemonic, count, 2);
        set_emit(state, args, count);
        return true;
    default:
        return asm_flow_instruction(state, mnemonic, rest);
    }
}
