/* SPDX-License-Identifier: MIT */
/*
 * LLVM binop, cmp, cast and select on the widths other than i32/float, plus
 * signed division and every fcmp predicate (../shared/docs/dxil.md §2.12,
 * §7.4, §7.6), lowered onto 32-bit lanes and the IR's 64-bit ops:
 *
 * - i64 and double values take lanes x (low word) and y (high word) of their
 *   temp and run on the I64* / D* ops (IR.md "Operands": DOUBLE slots).
 * - i8/i16 values take one lane holding the value zero-extended; the ops
 *   whose upper bits could differ (add, sub, mul, shl, ashr, division) mask
 *   their result back to the width, and the signed ones sign-extend their
 *   inputs first, so every result is the exact 16-bit (8-bit) one.
 * - half values take one lane holding the f32 of the same value. With native
 *   16-bit types (shader flag bit 23) every result that is a half is rounded
 *   to the nearest half (F32TOF16 then F16TOF32): f32 keeps 24 >= 2*11+2
 *   significand bits, so computing +,-,*,/ in f32 and rounding once more is
 *   the correctly rounded half result. Min precision (no bit 23) may run at
 *   32 bits (D3D), so it keeps the f32 value.
 * - i1 values are D3D bools (0 / 0xFFFFFFFF), as everywhere in the front end.
 *
 * Integer division by 0 gives all ones (quotient and remainder) for every
 * width, the rule of the IR's UDIV and I64*DIV (IR.md "Semantics"); LLVM
 * leaves it undefined, so any result is a right translation, and this one is
 * D3D's. INT_MIN / -1 wraps to INT_MIN, remainder 0.
 */
#include "ir_from_dxil_private.h"
#include "translator/dxil_metadata.h"

/* LLVM 3.7 codes (dxil.md §2.12). */
enum { BIN_ADD, BIN_SUB, BIN_MUL, BIN_UDIV, BIN_SDIV, BIN_UREM, BIN_SREM, BIN_SHL, BIN_LSHR,
       BIN_ASHR, BIN_AND, BIN_OR, BIN_XOR };
enum { CAST_TRUNC, CAST_ZEXT, CAST_SEXT, CAST_FPTOUI, CAST_FPTOSI, CAST_UITOFP, CAST_SITOFP,
       CAST_FPTRUNC, CAST_FPEXT, CAST_PTRTOINT, CAST_INTTOPTR, CAST_BITCAST };
enum { FCMP_FALSE, FCMP_OEQ, FCMP_OGT, FCMP_OGE, FCMP_OLT, FCMP_OLE, FCMP_ONE, FCMP_ORD,
       FCMP_UNO, FCMP_UEQ, FCMP_UGT, FCMP_UGE, FCMP_ULT, FCMP_ULE, FCMP_UNE, FCMP_TRUE,
       ICMP_EQ = 32, ICMP_NE, ICMP_UGT, ICMP_UGE, ICMP_ULT, ICMP_ULE, ICMP_SGT, ICMP_SGE,
       ICMP_SLT, ICMP_SLE };

/* What a value's lane(s) hold. */
enum wide_kind { WIDE_OTHER, WIDE_BOOL, WIDE_INT, WIDE_FLOAT, WIDE_INT64, WIDE_DOUBLE };

struct wide_type {
    enum wide_kind kind;
    uint32_t bits; /* WIDE_INT: 8, 16 or 32; WIDE_FLOAT: 16 or 32 */
};

static struct wide_type classify(const struct dxil_front *f, uint32_t type)
{
    const struct sb_bc_type *t = dxil_front_type(f, type);
    struct wide_type w = { WIDE_OTHER, 0 };
    if (!t)
        return w;
    if (t->kind == SB_BC_TYPE_INTEGER) {
        if (t->width == 1)
            w.kind = WIDE_BOOL;
        else if (t->width == 8 || t->width == 16 || t->width == 32)
            w.kind = WIDE_INT;
        else if (t->width == 64)
            w.kind = WIDE_INT64;
        w.bits = t->width;
    } else if (t->kind == SB_BC_TYPE_HALF || t->kind == SB_BC_TYPE_FLOAT) {
        w.kind = WIDE_FLOAT;
        w.bits = t->kind == SB_BC_TYPE_HALF ? 16 : 32;
    } else if (t->kind == SB_BC_TYPE_DOUBLE) {
        w.kind = WIDE_DOUBLE;
        w.bits = 64;
    }
    return w;
}

static uint32_t value_type(const struct dxil_front *f, uint32_t id)
{
    const struct sb_bc_value *v = sb_bc_value_get(f->module, f->function, id);
    return v ? v->type : SB_BC_NONE;
}

static bool is_wide(struct wide_type w)
{
    return w.kind == WIDE_INT64 || w.kind == WIDE_DOUBLE;
}

/* The 32-bit lane types the first slice translates itself (i1, i32, float). */
static bool is_plain(struct wide_type w)
{
    return w.kind == WIDE_BOOL || (w.kind == WIDE_INT && w.bits == 32) ||
           (w.kind == WIDE_FLOAT && w.bits == 32);
}

bool dxil_front_native_16bit(const struct dxil_front *f)
{
    return (f->entry->shader_flags >> SB_DXIL_SHADER_FLAG_USE_NATIVE_LOW_PRECISION) & 1;
}

/* A 64-bit immediate (a DOUBLE slot: the pair xy, for both doubles). */
static struct sb_ir_operand imm64(uint64_t bits)
{
    struct sb_ir_operand op = dxil_front_imm((uint32_t)bits);
    op.imm[1] = op.imm[3] = (uint32_t)(bits >> 32);
    for (unsigned i = 0; i < 4; i++)
        op.swizzle[i] = 0;
    return op;
}

bool dxil_front_src64(struct dxil_front *f, uint32_t value, struct sb_ir_operand *out)
{
    const struct sb_bc_value *v = sb_bc_value_get(f->module, f->function, value);
    if (!v)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "value %u does not exist", value);
    if (!is_wide(classify(f, v->type)))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "value %u is not 64-bit", value);
    if (v->kind == SB_BC_VALUE_CONSTANT) {
        const struct sb_bc_constant *c = sb_bc_constant_get(f->module, f->function, value);
        if (!c || (c->kind != SB_BC_CONST_INTEGER && c->kind != SB_BC_CONST_FLOAT &&
                   c->kind != SB_BC_CONST_NULL && c->kind != SB_BC_CONST_UNDEF))
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                                   "a 64-bit constant expression");
        *out = imm64(c->kind == SB_BC_CONST_INTEGER || c->kind == SB_BC_CONST_FLOAT ? c->bits : 0);
        return true;
    }
    if (v->kind != SB_BC_VALUE_INSTRUCTION)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "value %u is a global, function or argument", value);
    uint32_t temp = dxil_front_value_temp(f, value);
    if (temp == DXIL_FRONT_NONE)
        return false;
    *out = dxil_front_temp_src(temp, 0);
    return true;
}

/* A 64-bit source read as its two 32-bit lanes (x = low, y = high) for MOV/MOVC. */
static struct sb_ir_operand lanes_of(struct sb_ir_operand op)
{
    static const uint8_t pair[4] = { 0, 1, 0, 1 };
    memcpy(op.swizzle, pair, 4);
    return op;
}

bool dxil_front_src64_lanes(struct dxil_front *f, uint32_t value, struct sb_ir_operand *out)
{
    if (!dxil_front_src64(f, value, out))
        return false;
    *out = lanes_of(*out);
    return true;
}

bool dxil_front_emit1(struct dxil_front *f, uint32_t op, struct sb_ir_operand dst,
                      const struct sb_ir_operand *src, uint32_t count)
{
    return dxil_front_emit(f, op, &dst, 1, src, count) != NULL;
}

struct sb_ir_operand dxil_front_fresh(struct dxil_front *f, struct sb_ir_operand *src)
{
    uint32_t t = dxil_front_new_temp(f);
    *src = dxil_front_temp_src(t, 0);
    return dxil_front_temp_dst(t, 0x1);
}

const struct sb_bc_type *dxil_front_arg_type(struct dxil_front *f,
                                             const struct sb_bc_instruction *in, uint32_t i)
{
    uint32_t value = 0;
    if (!dxil_front_arg(f, in, i, &value))
        return NULL;
    const struct sb_bc_value *v = sb_bc_value_get(f->module, f->function, value);
    return v ? dxil_front_type(f, v->type) : NULL;
}

bool dxil_front_call_args(struct dxil_front *f, const struct sb_bc_instruction *in,
                          uint32_t first, uint32_t count, struct sb_ir_operand *src)
{
    for (uint32_t i = 0; i < count; i++) {
        uint32_t value = 0;
        if (!dxil_front_arg(f, in, first + i, &value) || !dxil_front_src(f, value, 0, &src[i]))
            return false;
    }
    return true;
}

/* op into a fresh one-lane temp; its source operand in *out. */
static bool emit_temp(struct dxil_front *f, uint32_t op, const struct sb_ir_operand *src,
                      uint32_t count, struct sb_ir_operand *out)
{
    return dxil_front_emit1(f, op, dxil_front_fresh(f, out), src, count);
}

/* a op imm, into a fresh temp. */
static bool emit_imm(struct dxil_front *f, uint32_t op, struct sb_ir_operand a, uint32_t imm,
                     struct sb_ir_operand *out)
{
    struct sb_ir_operand src[2] = { a, dxil_front_imm(imm) };
    return emit_temp(f, op, src, 2, out);
}

bool dxil_front_round_half(struct dxil_front *f, struct sb_ir_operand dst, struct sb_ir_operand src)
{
    struct sb_ir_operand h;
    return emit_temp(f, SB_IR_OP_F32TOF16, &src, 1, &h) && dxil_front_emit1(f, SB_IR_OP_F16TOF32, dst, &h, 1);
}

bool dxil_front_move_is_plain(const struct dxil_front *f, uint32_t type)
{
    struct wide_type w = classify(f, type);
    return !(w.kind == WIDE_FLOAT && w.bits == 16 && dxil_front_native_16bit(f));
}

bool dxil_front_move_typed(struct dxil_front *f, uint32_t type, struct sb_ir_operand dst,
                           struct sb_ir_operand src)
{
    if (!dxil_front_move_is_plain(f, type))
        return dxil_front_round_half(f, dst, src);
    return dxil_front_emit1(f, SB_IR_OP_MOV, dst, &src, 1);
}

/* A `bits`-wide integer result in `src` written to dst with its upper bits cleared. */
static bool wrap(struct dxil_front *f, struct sb_ir_operand dst, struct sb_ir_operand src,
                 uint32_t bits)
{
    if (bits >= 32)
        return dxil_front_emit1(f, SB_IR_OP_MOV, dst, &src, 1);
    struct sb_ir_operand s[2] = { src, dxil_front_imm((1u << bits) - 1) };
    return dxil_front_emit1(f, SB_IR_OP_AND, dst, s, 2);
}

/* The unsigned value of a `bits`-wide lane. Results of this file are already, but a
 * min-precision value from outside (an input, a cbuffer) may carry a 32-bit value. */
static bool zero_extend(struct dxil_front *f, struct sb_ir_operand *a, uint32_t bits)
{
    return bits >= 32 || emit_imm(f, SB_IR_OP_AND, *a, (1u << bits) - 1, a);
}

/* The signed value of a `bits`-wide lane (IBFE bits, 0). */
static bool sign_extend(struct dxil_front *f, struct sb_ir_operand *a, uint32_t bits)
{
    if (bits >= 32)
        return true;
    struct sb_ir_operand s[3] = { dxil_front_imm(bits), dxil_front_imm(0), *a };
    return emit_temp(f, SB_IR_OP_IBFE, s, 3, a);
}

/* A float result (a half one rounded when the program uses native 16-bit types). */
static bool float_result(struct dxil_front *f, struct sb_ir_operand dst, uint32_t bits,
                         uint32_t op, const struct sb_ir_operand *src, uint32_t count)
{
    if (bits == 32 || !dxil_front_native_16bit(f))
        return dxil_front_emit1(f, op, dst, src, count);
    struct sb_ir_operand full;
    return emit_temp(f, op, src, count, &full) && dxil_front_round_half(f, dst, full);
}

/* Signed 32-bit a / b or a % b (LLVM sdiv/srem) from UDIV on magnitudes, as DXBC code does
 * it (SM4 has no signed division): the quotient is negative when the signs differ, the
 * remainder takes a's sign; b = 0 gives all ones. */
static bool signed_divide(struct dxil_front *f, bool remainder, struct sb_ir_operand a,
                          struct sb_ir_operand b, struct sb_ir_operand *out)
{
    struct sb_ir_operand na = a, nb = b, ua, ub, q, sign, negative, flipped, chosen, zero;
    na.modifiers ^= SB_IR_MOD_NEG;
    nb.modifiers ^= SB_IR_MOD_NEG;
    struct sb_ir_operand abs_a[2] = { a, na }, abs_b[2] = { b, nb }; /* -INT_MIN = 2^31 unsigned */
    if (!emit_temp(f, SB_IR_OP_IMAX, abs_a, 2, &ua) || !emit_temp(f, SB_IR_OP_IMAX, abs_b, 2, &ub))
        return false;
    uint32_t t = dxil_front_new_temp(f);
    struct sb_ir_operand none, d[2] = { dxil_front_temp_dst(t, 0x1), dxil_front_temp_dst(t, 0x1) };
    memset(&none, 0, sizeof(none));
    d[remainder ? 0 : 1] = none;
    struct sb_ir_operand mags[2] = { ua, ub };
    if (!dxil_front_emit(f, SB_IR_OP_UDIV, d, 2, mags, 2))
        return false;
    q = dxil_front_temp_src(t, 0);
    if (remainder) {
        sign = a;
    } else {
        struct sb_ir_operand x[2] = { a, b };
        if (!emit_temp(f, SB_IR_OP_XOR, x, 2, &sign))
            return false;
    }
    if (!emit_imm(f, SB_IR_OP_ILT, sign, 0, &negative) ||
        !emit_temp(f, SB_IR_OP_INEG, &q, 1, &flipped))
        return false;
    struct sb_ir_operand pick[3] = { negative, flipped, q };
    if (!emit_temp(f, SB_IR_OP_MOVC, pick, 3, &chosen) || !emit_imm(f, SB_IR_OP_IEQ, b, 0, &zero))
        return false;
    struct sb_ir_operand all_ones[2] = { chosen, zero };
    return emit_temp(f, SB_IR_OP_OR, all_ones, 2, out);
}

/* Integer binops of i8/i16/i32 lanes (i32 only reaches here for sdiv/srem). */
static bool narrow_int_binop(struct dxil_front *f, uint32_t code, uint32_t bits,
                             struct sb_ir_operand dst, struct sb_ir_operand *src)
{
    struct sb_ir_operand r, none;
    memset(&none, 0, sizeof(none));
    switch (code) {
    case BIN_AND: return dxil_front_emit1(f, SB_IR_OP_AND, dst, src, 2);
    case BIN_OR: return dxil_front_emit1(f, SB_IR_OP_OR, dst, src, 2);
    case BIN_XOR: return dxil_front_emit1(f, SB_IR_OP_XOR, dst, src, 2);
    case BIN_LSHR:
        return zero_extend(f, &src[0], bits) && dxil_front_emit1(f, SB_IR_OP_USHR, dst, src, 2);
    case BIN_ADD:
        return emit_temp(f, SB_IR_OP_IADD, src, 2, &r) && wrap(f, dst, r, bits);
    case BIN_SUB:
        src[1].modifiers ^= SB_IR_MOD_NEG;
        return emit_temp(f, SB_IR_OP_IADD, src, 2, &r) && wrap(f, dst, r, bits);
    case BIN_SHL:
        return emit_temp(f, SB_IR_OP_ISHL, src, 2, &r) && wrap(f, dst, r, bits);
    case BIN_ASHR:
        return sign_extend(f, &src[0], bits) && emit_temp(f, SB_IR_OP_ISHR, src, 2, &r) &&
               wrap(f, dst, r, bits);
    case BIN_MUL: {
        uint32_t t = dxil_front_new_temp(f);
        struct sb_ir_operand d[2] = { none, dxil_front_temp_dst(t, 0x1) };
        return dxil_front_emit(f, SB_IR_OP_IMUL, d, 2, src, 2) &&
               wrap(f, dst, dxil_front_temp_src(t, 0), bits);
    }
    case BIN_UDIV:
    case BIN_UREM: {
        uint32_t t = dxil_front_new_temp(f);
        struct sb_ir_operand d[2] = { none, none };
        d[code == BIN_UDIV ? 0 : 1] = dxil_front_temp_dst(t, 0x1);
        return zero_extend(f, &src[0], bits) && zero_extend(f, &src[1], bits) &&
               dxil_front_emit(f, SB_IR_OP_UDIV, d, 2, src, 2) &&
               wrap(f, dst, dxil_front_temp_src(t, 0), bits);
    }
    case BIN_SDIV:
    case BIN_SREM:
        return sign_extend(f, &src[0], bits) && sign_extend(f, &src[1], bits) &&
               signed_divide(f, code == BIN_SREM, src[0], src[1], &r) && wrap(f, dst, r, bits);
    default:
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "i%u binop %u", bits, code);
    }
}

static bool int64_binop(struct dxil_front *f, uint32_t code, struct sb_ir_operand dst,
                        const struct sb_ir_operand *src)
{
    static const uint32_t ops[13] = {
        [BIN_ADD] = SB_IR_OP_I64ADD, [BIN_SUB] = SB_IR_OP_I64SUB, [BIN_MUL] = SB_IR_OP_I64MUL,
        [BIN_UDIV] = SB_IR_OP_I64UDIV, [BIN_SDIV] = SB_IR_OP_I64IDIV,
        [BIN_UREM] = SB_IR_OP_I64UREM, [BIN_SREM] = SB_IR_OP_I64IREM, [BIN_SHL] = SB_IR_OP_I64SHL,
        [BIN_LSHR] = SB_IR_OP_I64USHR, [BIN_ASHR] = SB_IR_OP_I64ISHR, [BIN_AND] = SB_IR_OP_I64AND,
        [BIN_OR] = SB_IR_OP_I64OR, [BIN_XOR] = SB_IR_OP_I64XOR,
    };
    if (code >= 13)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "i64 binop %u", code);
    return dxil_front_emit1(f, ops[code], dst, src, 2);
}

/*
 * frem on half or float, which dxc emits for HLSL's fmod() and the % of floats:
 * a - b * trunc(a / b), so the result takes a's sign (LLVM frem, C fmod); b = 0 or an
 * infinite a give NaN. The product and the difference are separate, unfused ops, as
 * dxil-spirv lowers it too. A half's f32 lanes are rounded to half once, at the end.
 */
static bool float_remainder(struct dxil_front *f, uint32_t bits, struct sb_ir_operand dst,
                            const struct sb_ir_operand *src)
{
    struct sb_ir_operand quotient, whole, product;
    if (!emit_temp(f, SB_IR_OP_DIV, src, 2, &quotient) ||
        !emit_temp(f, SB_IR_OP_ROUND_Z, &quotient, 1, &whole))
        return false;
    struct sb_ir_operand factors[2] = { whole, src[1] };
    if (!emit_temp(f, SB_IR_OP_MUL, factors, 2, &product))
        return false;
    product.modifiers ^= SB_IR_MOD_NEG;
    struct sb_ir_operand terms[2] = { src[0], product };
    return float_result(f, dst, bits, SB_IR_OP_ADD, terms, 2);
}

/* A fresh temp's lane pair xy as a destination; *src reads it (a DOUBLE slot). */
static struct sb_ir_operand fresh_pair(struct dxil_front *f, struct sb_ir_operand *src)
{
    uint32_t t = dxil_front_new_temp(f);
    *src = dxil_front_temp_src(t, 0);
    return dxil_front_temp_dst(t, 0x3);
}

/*
 * trunc() of a double on its bits (the IR has no double rounding op): with e the unbiased
 * exponent, |q| < 1 (e < 0) gives q's signed zero, e >= 52 leaves q as it is (no fraction,
 * or an infinity or NaN), and otherwise the 52 - e fraction bits are cleared.
 */
static bool double_trunc(struct dxil_front *f, struct sb_ir_operand q, struct sb_ir_operand *out)
{
    struct sb_ir_operand high = q, exponent, unbiased, fraction_bits, count, mask, kept, sign, small, big,
                         whole;
    for (unsigned i = 0; i < 4; i++)
        high.swizzle[i] = (uint8_t)(q.swizzle[0] + 1);
    struct sb_ir_operand field[3] = { dxil_front_imm(11), dxil_front_imm(20), high };
    if (!emit_temp(f, SB_IR_OP_UBFE, field, 3, &exponent) ||
        !emit_imm(f, SB_IR_OP_IADD, exponent, (uint32_t)-1023, &unbiased))
        return false;
    struct sb_ir_operand minus_exponent = exponent; /* 1075 - exponent = 52 - e */
    minus_exponent.modifiers ^= SB_IR_MOD_NEG;
    if (!emit_imm(f, SB_IR_OP_IADD, minus_exponent, 1075, &fraction_bits))
        return false;
    /* the shift count as a 64-bit value: (52 - e, 0) */
    struct sb_ir_operand count_dst = fresh_pair(f, &count);
    count_dst.mask = 0x1;
    if (!dxil_front_emit1(f, SB_IR_OP_MOV, count_dst, &fraction_bits, 1))
        return false;
    count_dst.mask = 0x2;
    struct sb_ir_operand zero = dxil_front_imm(0);
    if (!dxil_front_emit1(f, SB_IR_OP_MOV, count_dst, &zero, 1))
        return false;
    struct sb_ir_operand shift[2] = { imm64(~0ull), count }, sign_of[2] = { q, imm64(1ull << 63) };
    if (!dxil_front_emit1(f, SB_IR_OP_I64SHL, fresh_pair(f, &mask), shift, 2))
        return false;
    struct sb_ir_operand keep[2] = { q, mask };
    if (!dxil_front_emit1(f, SB_IR_OP_I64AND, fresh_pair(f, &kept), keep, 2) ||
        !dxil_front_emit1(f, SB_IR_OP_I64AND, fresh_pair(f, &sign), sign_of, 2))
        return false;
    struct sb_ir_operand below[2] = { unbiased, dxil_front_imm(0) }, above[2] = { unbiased, dxil_front_imm(52) };
    if (!emit_temp(f, SB_IR_OP_ILT, below, 2, &small) || !emit_temp(f, SB_IR_OP_IGE, above, 2, &big))
        return false;
    struct sb_ir_operand integral[3] = { big, lanes_of(q), lanes_of(kept) };
    if (!dxil_front_emit1(f, SB_IR_OP_MOVC, fresh_pair(f, &whole), integral, 3))
        return false;
    struct sb_ir_operand pick[3] = { small, lanes_of(sign), lanes_of(whole) };
    return dxil_front_emit1(f, SB_IR_OP_MOVC, fresh_pair(f, out), pick, 3);
}

/* frem on doubles: a - b * trunc(a / b) with DDIV, the truncation above, DMUL and DADD. */
static bool double_remainder(struct dxil_front *f, struct sb_ir_operand dst,
                             const struct sb_ir_operand *src)
{
    struct sb_ir_operand quotient, whole, product;
    if (!dxil_front_emit1(f, SB_IR_OP_DDIV, fresh_pair(f, &quotient), src, 2) ||
        !double_trunc(f, quotient, &whole))
        return false;
    struct sb_ir_operand factors[2] = { whole, src[1] };
    if (!dxil_front_emit1(f, SB_IR_OP_DMUL, fresh_pair(f, &product), factors, 2))
        return false;
    product.modifiers ^= SB_IR_MOD_NEG;
    struct sb_ir_operand terms[2] = { src[0], product };
    return dxil_front_emit1(f, SB_IR_OP_DADD, dst, terms, 2);
}

/* fadd/fsub/fmul/fdiv/frem on half, float or double (fsub: add of the negated operand). */
static bool float_binop(struct dxil_front *f, uint32_t code, struct wide_type w,
                        struct sb_ir_operand dst, struct sb_ir_operand *src)
{
    bool d = w.kind == WIDE_DOUBLE;
    uint32_t op;
    switch (code) {
    case BIN_SREM: /* frem shares srem's code */
        return d ? double_remainder(f, dst, src) : float_remainder(f, w.bits, dst, src);
    case BIN_SUB:
        src[1].modifiers ^= SB_IR_MOD_NEG;
        /* fall through */
    case BIN_ADD: op = d ? SB_IR_OP_DADD : SB_IR_OP_ADD; break;
    case BIN_MUL: op = d ? SB_IR_OP_DMUL : SB_IR_OP_MUL; break;
    case BIN_SDIV: op = d ? SB_IR_OP_DDIV : SB_IR_OP_DIV; break; /* fdiv shares sdiv's code */
    default:
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "float binop %u", code);
    }
    return d ? dxil_front_emit1(f, op, dst, src, 2) : float_result(f, dst, w.bits, op, src, 2);
}

/* Sources of a 32-bit or 64-bit operand list. */
static bool read_sources(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t first,
                         uint32_t count, bool wide, struct sb_ir_operand *src)
{
    if (in->operand_count < first + count)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "%u operands, %u expected",
                               in->operand_count, first + count);
    for (uint32_t i = 0; i < count; i++)
        if (!(wide ? dxil_front_src64(f, in->operands[first + i], &src[i])
                   : dxil_front_src(f, in->operands[first + i], 0, &src[i])))
            return false;
    return true;
}

/* The result's destination: xy for a 64-bit result, x otherwise. */
static bool result(struct dxil_front *f, const struct sb_bc_instruction *in, struct wide_type w,
                   struct sb_ir_operand *dst)
{
    if (w.kind == WIDE_OTHER)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "a result of this type");
    uint32_t temp = dxil_front_value_temp(f, in->value);
    if (temp == DXIL_FRONT_NONE)
        return false;
    *dst = dxil_front_temp_dst(temp, is_wide(w) ? 0x3 : 0x1);
    return true;
}

static bool binop(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    struct wide_type w = classify(f, in->type);
    struct sb_ir_operand dst, src[2];
    if (!result(f, in, w, &dst) || !read_sources(f, in, 0, 2, is_wide(w), src))
        return false;
    if (w.kind == WIDE_FLOAT || w.kind == WIDE_DOUBLE)
        return float_binop(f, in->op, w, dst, src);
    if (w.kind == WIDE_INT64)
        return int64_binop(f, in->op, dst, src);
    if (w.kind == WIDE_INT)
        return narrow_int_binop(f, in->op, w.bits, dst, src);
    return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "i1 binop %u", in->op);
}

/* The compare ops of one operand kind: equal, not equal, less than, greater or equal. */
struct compare_ops {
    uint32_t eq, ne, lt, ge;
};

static const struct compare_ops FLOAT_CMP = { SB_IR_OP_EQ, SB_IR_OP_NE, SB_IR_OP_LT, SB_IR_OP_GE };
static const struct compare_ops DOUBLE_CMP = { SB_IR_OP_DEQ, SB_IR_OP_DNE, SB_IR_OP_DLT,
                                               SB_IR_OP_DGE };

/* An ordered predicate (oeq ... ord): false when either operand is NaN. */
static bool ordered_compare(struct dxil_front *f, uint32_t pred, const struct compare_ops *ops,
                            struct sb_ir_operand dst, const struct sb_ir_operand *s)
{
    struct sb_ir_operand ab[2] = { s[0], s[1] }, ba[2] = { s[1], s[0] }, x[2];
    switch (pred) {
    case FCMP_OEQ: return dxil_front_emit1(f, ops->eq, dst, ab, 2);
    case FCMP_OGT: return dxil_front_emit1(f, ops->lt, dst, ba, 2);
    case FCMP_OGE: return dxil_front_emit1(f, ops->ge, dst, ab, 2);
    case FCMP_OLT: return dxil_front_emit1(f, ops->lt, dst, ab, 2);
    case FCMP_OLE: return dxil_front_emit1(f, ops->ge, dst, ba, 2);
    case FCMP_ONE: /* a < b or b < a */
        return emit_temp(f, ops->lt, ab, 2, &x[0]) && emit_temp(f, ops->lt, ba, 2, &x[1]) &&
               dxil_front_emit1(f, SB_IR_OP_OR, dst, x, 2);
    case FCMP_ORD: { /* a == a and b == b */
        struct sb_ir_operand aa[2] = { s[0], s[0] }, bb[2] = { s[1], s[1] };
        return emit_temp(f, ops->eq, aa, 2, &x[0]) && emit_temp(f, ops->eq, bb, 2, &x[1]) &&
               dxil_front_emit1(f, SB_IR_OP_AND, dst, x, 2);
    }
    default:
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "fcmp predicate %u", pred);
    }
}

/* fcmp: the unordered predicates (uno ... ule) are the negations of the ordered ones
 * (LLVM numbers them so that pred and 15 - pred are complements); une is NE itself. */
static bool float_compare(struct dxil_front *f, uint32_t pred, const struct compare_ops *ops,
                          struct sb_ir_operand dst, const struct sb_ir_operand *s)
{
    if (pred == FCMP_FALSE || pred == FCMP_TRUE) {
        struct sb_ir_operand k = dxil_front_imm(pred == FCMP_TRUE ? 0xFFFFFFFFu : 0);
        return dxil_front_emit1(f, SB_IR_OP_MOV, dst, &k, 1);
    }
    if (pred == FCMP_UNE)
        return dxil_front_emit1(f, ops->ne, dst, s, 2);
    if (pred < FCMP_UNO)
        return ordered_compare(f, pred, ops, dst, s);
    uint32_t t = dxil_front_new_temp(f);
    struct sb_ir_operand complement = dxil_front_temp_src(t, 0);
    return ordered_compare(f, 15 - pred, ops, dxil_front_temp_dst(t, 0x1), s) &&
           dxil_front_emit1(f, SB_IR_OP_NOT, dst, &complement, 1);
}

/* icmp on i1/i8/i16 lanes (zero-extended; signed predicates sign-extend first) and i64. */
static bool int_compare(struct dxil_front *f, uint32_t pred, struct wide_type w,
                        struct sb_ir_operand dst, struct sb_ir_operand *s)
{
    bool wide = w.kind == WIDE_INT64;
    bool is_signed = pred >= ICMP_SGT;
    if (w.kind == WIDE_INT &&
        !(is_signed ? sign_extend(f, &s[0], w.bits) && sign_extend(f, &s[1], w.bits)
                    : zero_extend(f, &s[0], w.bits) && zero_extend(f, &s[1], w.bits)))
        return false;
    uint32_t eq = wide ? SB_IR_OP_I64EQ : SB_IR_OP_IEQ, ne = wide ? SB_IR_OP_I64NE : SB_IR_OP_INE;
    uint32_t lt = is_signed ? (wide ? SB_IR_OP_I64ILT : SB_IR_OP_ILT)
                            : (wide ? SB_IR_OP_I64ULT : SB_IR_OP_ULT);
    uint32_t ge = is_signed ? (wide ? SB_IR_OP_I64IGE : SB_IR_OP_IGE)
                            : (wide ? SB_IR_OP_I64UGE : SB_IR_OP_UGE);
    struct sb_ir_operand ba[2] = { s[1], s[0] };
    switch (pred) {
    case ICMP_EQ: return dxil_front_emit1(f, eq, dst, s, 2);
    case ICMP_NE: return dxil_front_emit1(f, ne, dst, s, 2);
    case ICMP_ULT: case ICMP_SLT: return dxil_front_emit1(f, lt, dst, s, 2);
    case ICMP_UGE: case ICMP_SGE: return dxil_front_emit1(f, ge, dst, s, 2);
    case ICMP_UGT: case ICMP_SGT: return dxil_front_emit1(f, lt, dst, ba, 2);
    case ICMP_ULE: case ICMP_SLE: return dxil_front_emit1(f, ge, dst, ba, 2);
    default:
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "cmp predicate %u", pred);
    }
}

static bool cmp(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    struct wide_type w = classify(f, value_type(f, in->operands[0]));
    struct sb_ir_operand dst = { 0 }, src[2]; /* zeroed: see binop in ir_from_dxil_instructions.c */
    if (!result(f, in, classify(f, in->type), &dst) || !read_sources(f, in, 0, 2, is_wide(w), src))
        return false;
    if (in->op >= ICMP_EQ) {
        if (w.kind != WIDE_BOOL && w.kind != WIDE_INT && w.kind != WIDE_INT64)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "icmp of a non-integer");
        return int_compare(f, in->op, w, dst, src);
    }
    if (w.kind != WIDE_FLOAT && w.kind != WIDE_DOUBLE)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "fcmp of a non-float");
    return float_compare(f, in->op, w.kind == WIDE_DOUBLE ? &DOUBLE_CMP : &FLOAT_CMP, dst, src);
}

/* Integer -> integer: trunc, zext, sext between i1 (bool), i8/i16/i32 lanes and i64. */
static bool int_resize(struct dxil_front *f, uint32_t code, struct wide_type from,
                       struct wide_type to, struct sb_ir_operand dst, struct sb_ir_operand src)
{
    struct sb_ir_operand low = src;
    if (is_wide(from)) { /* trunc i64 -> the low word first */
        uint32_t t = dxil_front_new_temp(f);
        low = dxil_front_temp_src(t, 0);
        if (!dxil_front_emit1(f, SB_IR_OP_I64TOI, dxil_front_temp_dst(t, 0x1), &src, 1))
            return false;
    }
    if (to.kind == WIDE_BOOL) { /* the low bit as a D3D bool */
        struct sb_ir_operand test[2];
        return emit_imm(f, SB_IR_OP_AND, low, 1, &test[0]) &&
               (test[1] = dxil_front_imm(0), dxil_front_emit1(f, SB_IR_OP_INE, dst, test, 2));
    }
    if (code == CAST_TRUNC)
        return wrap(f, dst, low, to.bits);
    /* Extensions: the 32-bit value of the source, then widen to 64 bits when asked. */
    struct sb_ir_operand value = low;
    bool sign = code == CAST_SEXT;
    if (from.kind == WIDE_BOOL) {
        if (!sign && !emit_imm(f, SB_IR_OP_AND, low, 1, &value))
            return false;
    } else if (!(sign ? sign_extend(f, &value, from.bits) : zero_extend(f, &value, from.bits))) {
        return false;
    }
    if (to.kind == WIDE_INT64)
        return dxil_front_emit1(f, sign ? SB_IR_OP_ITOI64 : SB_IR_OP_UTOU64, dst, &value, 1);
    if (sign && to.bits < 32) /* sext i1/i8 -> i16 keeps the width's bits only */
        return wrap(f, dst, value, to.bits);
    return dxil_front_emit1(f, SB_IR_OP_MOV, dst, &value, 1);
}

/* The float value of a source of kind `from`, in a 32-bit lane or a pair (double). */
static bool float_convert(struct dxil_front *f, uint32_t code, struct wide_type from,
                          struct wide_type to, struct sb_ir_operand dst, struct sb_ir_operand src)
{
    bool to_double = to.kind == WIDE_DOUBLE, is_signed = code == CAST_SITOFP || code == CAST_FPTOSI;
    struct sb_ir_operand value = src;
    uint32_t op;
    switch (code) {
    case CAST_FPTRUNC:
    case CAST_FPEXT:
        if (from.kind == WIDE_DOUBLE && !to_double)
            op = SB_IR_OP_DTOF;
        else if (to_double && from.kind != WIDE_DOUBLE)
            op = SB_IR_OP_FTOD;
        else /* half <-> float: the lane already holds the value; fptrunc rounds it */
            op = SB_IR_OP_MOV;
        break;
    case CAST_SITOFP:
    case CAST_UITOFP:
        if (from.kind == WIDE_BOOL) { /* true = -1 signed, 1 unsigned */
            if (!is_signed && !emit_imm(f, SB_IR_OP_AND, src, 1, &value))
                return false;
        } else if (from.kind == WIDE_INT &&
                   !(is_signed ? sign_extend(f, &value, from.bits)
                               : zero_extend(f, &value, from.bits))) {
            return false;
        }
        if (from.kind == WIDE_INT64)
            op = to_double ? (is_signed ? SB_IR_OP_I64TOD : SB_IR_OP_U64TOD)
                           : (is_signed ? SB_IR_OP_I64TOF : SB_IR_OP_U64TOF);
        else
            op = to_double ? (is_signed ? SB_IR_OP_ITOD : SB_IR_OP_UTOD)
                           : (is_signed ? SB_IR_OP_ITOF : SB_IR_OP_UTOF);
        break;
    default:
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "cast %u", code);
    }
    if (to_double)
        return dxil_front_emit1(f, op, dst, &value, 1);
    bool narrows = code != CAST_FPEXT && to.bits == 16;
    return narrows ? float_result(f, dst, 16, op, &value, 1) : dxil_front_emit1(f, op, dst, &value, 1);
}

/* fptosi/fptoui of half, float or double to i8/i16/i32/i64 (LLVM leaves out-of-range
 * results undefined; the IR's saturating conversion, wrapped to the width, is one). */
static bool float_to_int(struct dxil_front *f, uint32_t code, struct wide_type from,
                         struct wide_type to, struct sb_ir_operand dst, struct sb_ir_operand src)
{
    bool s = code == CAST_FPTOSI, d = from.kind == WIDE_DOUBLE;
    if (to.kind == WIDE_INT64) {
        uint32_t op = d ? (s ? SB_IR_OP_DTOI64 : SB_IR_OP_DTOU64) : (s ? SB_IR_OP_FTOI64 : SB_IR_OP_FTOU64);
        return dxil_front_emit1(f, op, dst, &src, 1);
    }
    if (to.kind != WIDE_INT)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "a float -> i%u cast", to.bits);
    uint32_t op = d ? (s ? SB_IR_OP_DTOI : SB_IR_OP_DTOU) : (s ? SB_IR_OP_FTOI : SB_IR_OP_FTOU);
    struct sb_ir_operand r;
    if (to.bits == 32)
        return dxil_front_emit1(f, op, dst, &src, 1);
    return emit_temp(f, op, &src, 1, &r) && wrap(f, dst, r, to.bits);
}

/* bitcast: i64 <-> double copies the pair; i16 <-> half goes through the half's bits. */
static bool bit_cast(struct dxil_front *f, struct wide_type from, struct wide_type to,
                     struct sb_ir_operand dst, struct sb_ir_operand src)
{
    if (is_wide(from) && is_wide(to)) {
        struct sb_ir_operand pair = lanes_of(src);
        return dxil_front_emit1(f, SB_IR_OP_MOV, dst, &pair, 1);
    }
    if (from.bits == 16 && to.bits == 16)
        return dxil_front_emit1(f, from.kind == WIDE_FLOAT ? SB_IR_OP_F32TOF16 : SB_IR_OP_F16TOF32, dst, &src, 1);
    if (from.bits == to.bits && !is_wide(from))
        return dxil_front_emit1(f, SB_IR_OP_MOV, dst, &src, 1);
    return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "bitcast of %u to %u bits",
                           from.bits, to.bits);
}

static bool cast(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    struct wide_type from = classify(f, value_type(f, in->operands[0])), to = classify(f, in->type);
    struct sb_ir_operand dst = { 0 }, src; /* zeroed: see binop in ir_from_dxil_instructions.c */
    if (from.kind == WIDE_OTHER)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "cast %u of this type", in->op);
    if (!result(f, in, to, &dst) || !read_sources(f, in, 0, 1, is_wide(from), &src))
        return false;
    switch (in->op) {
    case CAST_TRUNC:
    case CAST_ZEXT:
    case CAST_SEXT: return int_resize(f, in->op, from, to, dst, src);
    case CAST_FPTOUI:
    case CAST_FPTOSI: return float_to_int(f, in->op, from, to, dst, src);
    case CAST_UITOFP:
    case CAST_SITOFP:
    case CAST_FPTRUNC:
    case CAST_FPEXT: return float_convert(f, in->op, from, to, dst, src);
    case CAST_BITCAST: return bit_cast(f, from, to, dst, src);
    default:
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "cast %u", in->op);
    }
}

/* select of a 64-bit value: MOVC of both lanes (a bit copy; the condition read twice). */
static bool select_wide(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    struct sb_ir_operand dst, src[3];
    if (!result(f, in, classify(f, in->type), &dst) || in->operand_count < 3 ||
        !dxil_front_src(f, in->operands[0], 0, &src[0]) || !read_sources(f, in, 1, 2, true, &src[1]))
        return false;
    src[1] = lanes_of(src[1]);
    src[2] = lanes_of(src[2]);
    return dxil_front_emit1(f, SB_IR_OP_MOVC, dst, src, 3);
}

bool dxil_front_minmax_wide(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t op)
{
    struct wide_type w = classify(f, in->type);
    struct sb_ir_operand dst, src[2];
    uint32_t a = 0, b = 0;
    bool is_signed = op == SB_IR_OP_IMAX || op == SB_IR_OP_IMIN;
    bool is_max = op == SB_IR_OP_IMAX || op == SB_IR_OP_UMAX;
    if (!result(f, in, w, &dst) || !dxil_front_arg(f, in, 1, &a) || !dxil_front_arg(f, in, 2, &b))
        return false;
    if (w.kind == WIDE_INT64) {
        /* a < b on the pair, then both lanes of the winner (a bit copy) */
        struct sb_ir_operand below;
        if (!dxil_front_src64(f, a, &src[0]) || !dxil_front_src64(f, b, &src[1]) ||
            !emit_temp(f, is_signed ? SB_IR_OP_I64ILT : SB_IR_OP_I64ULT, src, 2, &below))
            return false;
        struct sb_ir_operand pick[3] = { below, lanes_of(src[is_max ? 1 : 0]), lanes_of(src[is_max ? 0 : 1]) };
        return dxil_front_emit1(f, SB_IR_OP_MOVC, dst, pick, 3);
    }
    if (w.kind != WIDE_INT || w.bits != 16)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "a %u-bit min/max overload", w.bits);
    /* the 32-bit op on the i16s extended the way it compares them, the result masked back */
    struct sb_ir_operand r;
    if (!dxil_front_src(f, a, 0, &src[0]) || !dxil_front_src(f, b, 0, &src[1]))
        return false;
    for (unsigned i = 0; i < 2; i++)
        if (!(is_signed ? sign_extend(f, &src[i], 16) : zero_extend(f, &src[i], 16)))
            return false;
    return emit_temp(f, op, src, 2, &r) && wrap(f, dst, r, 16);
}

bool dxil_front_mad_wide(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    struct wide_type w = classify(f, in->type);
    struct sb_ir_operand dst, src[3], product;
    uint32_t value[3] = { 0, 0, 0 };
    if (!result(f, in, w, &dst))
        return false;
    for (uint32_t i = 0; i < 3; i++)
        if (!dxil_front_arg(f, in, 1 + i, &value[i]))
            return false;
    if (w.kind == WIDE_INT64) { /* the low 64 bits of a * b + c, signed or not alike */
        for (uint32_t i = 0; i < 3; i++)
            if (!dxil_front_src64(f, value[i], &src[i]))
                return false;
        if (!dxil_front_emit1(f, SB_IR_OP_I64MUL, fresh_pair(f, &product), src, 2))
            return false;
        struct sb_ir_operand sum[2] = { product, src[2] };
        return dxil_front_emit1(f, SB_IR_OP_I64ADD, dst, sum, 2);
    }
    if (w.kind != WIDE_INT || w.bits != 16)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "a %u-bit IMad/UMad overload", w.bits);
    /* the low 16 bits of the 32-bit a * b + c, whatever the lanes hold above them */
    for (uint32_t i = 0; i < 3; i++)
        if (!dxil_front_src(f, value[i], 0, &src[i]))
            return false;
    struct sb_ir_operand r;
    return emit_temp(f, SB_IR_OP_IMAD, src, 3, &r) && wrap(f, dst, r, 16);
}

bool dxil_front_wide_claims(const struct dxil_front *f, const struct sb_bc_instruction *in)
{
    if (in->opcode != SB_BC_OP_BINOP && in->opcode != SB_BC_OP_CAST &&
        in->opcode != SB_BC_OP_CMP2 && in->opcode != SB_BC_OP_VSELECT)
        return false;
    struct wide_type result_type = classify(f, in->type);
    struct wide_type first = in->operand_count ? classify(f, value_type(f, in->operands[0]))
                                               : result_type;
    /* Pointers, vectors and structs are other files' (memory, resources). */
    if (result_type.kind == WIDE_OTHER && in->opcode != SB_BC_OP_CMP2)
        return false;
    if (first.kind == WIDE_OTHER)
        return false;
    switch (in->opcode) {
    case SB_BC_OP_BINOP:
        return !is_plain(result_type) || in->op == BIN_SREM ||
               (in->op == BIN_SDIV && result_type.kind == WIDE_INT);
    case SB_BC_OP_CMP2:
        return !is_plain(first) || (in->op >= ICMP_EQ && first.kind == WIDE_BOOL) ||
               (in->op < ICMP_EQ && (in->op == FCMP_FALSE || (in->op >= FCMP_ONE && in->op <= FCMP_ULE) ||
                                     in->op == FCMP_TRUE));
    case SB_BC_OP_CAST:
        return !is_plain(first) || !is_plain(result_type) ||
               (first.kind == WIDE_BOOL && (in->op == CAST_UITOFP || in->op == CAST_SITOFP));
    default: /* select: the condition is operand 0 */
        return is_wide(result_type);
    }
}

bool dxil_front_wide_instruction(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    switch (in->opcode) {
    case SB_BC_OP_BINOP: return binop(f, in);
    case SB_BC_OP_CMP2: return cmp(f, in);
    case SB_BC_OP_CAST: return cast(f, in);
    default: return select_wide(f, in);
    }
}
