/* SPDX-License-Identifier: MIT */
/*
 * The bottom of the DXIL front end (ir_from_dxil_private.h): the sticky
 * error, arena allocation, the SSA value -> temp map, operand builders and
 * the growing instruction buffer every other ir_from_dxil*.c file writes to.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "ir_from_dxil_private.h"

bool dxil_front_fail(struct dxil_front *f, enum sb_result code, const char *format, ...)
{
    if (f->failed)
        return false;
    f->failed = true;
    va_list args;
    va_start(args, format);
    sb_error_setv(&f->error, code, f->offset, SB_ERROR_NO_INSTR, format, args);
    va_end(args);
    return false;
}

void *dxil_front_alloc(struct dxil_front *f, size_t count, size_t size)
{
    if (f->failed)
        return NULL;
    void *p = sb_arena_alloc(f->arena, count ? count : 1, size);
    if (!p)
        dxil_front_fail(f, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    return p;
}

uint32_t dxil_front_new_temp(struct dxil_front *f)
{
    return f->temp_count++;
}

bool dxil_front_alias(struct dxil_front *f, uint32_t value, uint32_t file, uint32_t reg,
                      uint32_t lane)
{
    const struct sb_bc_function *fn = f->function;
    if (f->failed || !f->block_first_plus1 || reg >= (1u << 28) - 1 || lane > 3 ||
        (file != SB_IR_FILE_TEMP && file != SB_IR_FILE_INPUT) || value < fn->first_value ||
        value - fn->first_value >= fn->value_count ||
        f->value_temp[value - fn->first_value] != DXIL_FRONT_NONE)
        return false;
    f->value_temp[value - fn->first_value] =
        DXIL_FRONT_ALIAS | reg << 3 | (uint32_t)(file == SB_IR_FILE_INPUT) << 2 | lane;
    return true;
}

uint32_t dxil_front_value_temp(struct dxil_front *f, uint32_t value)
{
    const struct sb_bc_function *fn = f->function;
    if (value < fn->first_value || value - fn->first_value >= fn->value_count) {
        dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "value %u is not an instruction result", value);
        return DXIL_FRONT_NONE;
    }
    uint32_t *slot = &f->value_temp[value - fn->first_value];
    if (*slot == DXIL_FRONT_NONE)
        *slot = dxil_front_new_temp(f);
    /* An aliased value has no register: only dxil_front_src reads it. Anything else asking
     * for one would get a register nothing writes, so it fails. */
    if (*slot & DXIL_FRONT_ALIAS) {
        dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                        "value %u is read from another register's lane, not a temp", value);
        return DXIL_FRONT_NONE;
    }
    return *slot;
}

const struct sb_bc_type *dxil_front_type(const struct dxil_front *f, uint32_t type)
{
    return type < f->module->type_count ? &f->module->types[type] : NULL;
}

/* 32-bit lanes only: i1 (as a D3D bool), i8/i16/i32, half (as its f32 value) and float
 * (ir_from_dxil_wide.c keeps 8/16-bit values exact). */
static bool is_lane_type(const struct sb_bc_type *t)
{
    return t && ((t->kind == SB_BC_TYPE_INTEGER && t->width <= 32) || t->kind == SB_BC_TYPE_FLOAT ||
                 t->kind == SB_BC_TYPE_HALF);
}

uint32_t dxil_front_type_lanes(const struct dxil_front *f, uint32_t type)
{
    const struct sb_bc_type *t = dxil_front_type(f, type);
    if (is_lane_type(t))
        return 1;
    if (!t || t->kind != SB_BC_TYPE_STRUCT || t->member_count == 0)
        return 0;
    /* ResRet has a fifth member, the status: it is never given a lane (reading it refuses).
     * Wider structs (CBufRet.f16.8: eight packed halves) are not four lanes. */
    if (t->member_count > 5)
        return 0;
    uint32_t lanes = t->member_count > 4 ? 4 : t->member_count;
    for (uint32_t i = 0; i < lanes; i++)
        if (!is_lane_type(dxil_front_type(f, t->members[i])))
            return 0;
    return lanes;
}

bool dxil_front_const_int(const struct dxil_front *f, uint32_t value, uint64_t *out)
{
    const struct sb_bc_constant *c = sb_bc_constant_get(f->module, f->function, value);
    if (!c || (c->kind != SB_BC_CONST_INTEGER && c->kind != SB_BC_CONST_NULL))
        return false;
    *out = c->kind == SB_BC_CONST_INTEGER ? c->bits : 0;
    return true;
}

/* A constant's 32 lane bits: i1 true is the D3D bool 0xFFFFFFFF; undef reads as 0. */
static bool constant_bits(struct dxil_front *f, const struct sb_bc_constant *c, uint32_t *bits)
{
    const struct sb_bc_type *t = dxil_front_type(f, c->type);
    if (!is_lane_type(t))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a constant that is not a 32-bit scalar");
    switch (c->kind) {
    case SB_BC_CONST_NULL:
    case SB_BC_CONST_UNDEF:
        *bits = 0;
        return true;
    case SB_BC_CONST_INTEGER:
        *bits = t->width == 1 ? ((c->bits & 1) ? 0xFFFFFFFFu : 0) : (uint32_t)c->bits;
        return true;
    case SB_BC_CONST_FLOAT:
        if (t->kind == SB_BC_TYPE_HALF) {
            *bits = dxil_front_float_bits_of_half((uint16_t)c->bits);
            return true;
        }
        if (t->kind != SB_BC_TYPE_FLOAT)
            break;
        *bits = (uint32_t)c->bits;
        return true;
    default:
        break;
    }
    return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "constant expression (kind %u)",
                           (unsigned)c->kind);
}

bool dxil_front_src(struct dxil_front *f, uint32_t value, uint32_t lane, struct sb_ir_operand *out)
{
    const struct sb_bc_value *v = sb_bc_value_get(f->module, f->function, value);
    if (!v)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "value %u does not exist", value);
    if (v->kind == SB_BC_VALUE_CONSTANT) {
        const struct sb_bc_constant *c = sb_bc_constant_get(f->module, f->function, value);
        uint32_t bits = 0;
        if (!c || !constant_bits(f, c, &bits))
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "constant %u unreadable", value);
        *out = dxil_front_imm(bits);
        return true;
    }
    if (v->kind != SB_BC_VALUE_INSTRUCTION)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "value %u is a global, function or argument", value);
    if (dxil_front_is_wide_type(f, v->type)) /* a lane pair: dxil_front_src64 reads it */
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a 64-bit value where a 32-bit one is read");
    const struct sb_bc_function *fn = f->function;
    uint32_t local = value - fn->first_value;
    if (value >= fn->first_value && local < fn->value_count &&
        (f->value_temp[local] & DXIL_FRONT_ALIAS) && f->value_temp[local] != DXIL_FRONT_NONE) {
        /* An aliased value reads the register lane it names (dxil_front_alias). */
        uint32_t alias = f->value_temp[local] & ~DXIL_FRONT_ALIAS;
        *out = dxil_front_operand(alias & 4u ? SB_IR_FILE_INPUT : SB_IR_FILE_TEMP, 1, alias >> 3,
                                  0, (((alias & 3u) + lane) & 0xFFu) * 0x01010101u, 0);
        return true;
    }
    uint32_t temp = dxil_front_value_temp(f, value);
    if (temp == DXIL_FRONT_NONE)
        return false;
    *out = dxil_front_temp_src(temp, lane);
    return true;
}

/* Most instructions have one destination and one or two sources: those are copied inline,
 * a few stores each, where a memcpy of a run-time size is a call of its own. */
static inline void copy_operands(struct sb_ir_operand *to, const struct sb_ir_operand *from,
                                 uint32_t count)
{
    switch (count) {
    case 0:
        break;
    case 2:
        to[1] = from[1];
        /* fall through */
    case 1:
        to[0] = from[0];
        break;
    default:
        memcpy(to, from, count * sizeof(*to));
        break;
    }
}

struct sb_ir_instruction *dxil_front_emit(struct dxil_front *f, uint32_t op,
                                          const struct sb_ir_operand *dst, uint32_t dst_count,
                                          const struct sb_ir_operand *src, uint32_t src_count)
{
    if (f->failed)
        return NULL;
    if (f->code_count == f->code_capacity) {
        /* In the program's arena, where the function keeps it (lower_function sizes it so
         * that this is rare; the old array is abandoned to the arena). */
        uint32_t capacity = f->code_capacity ? f->code_capacity * 2 : 64;
        struct sb_ir_instruction *grown =
            f->code_capacity <= UINT32_MAX / 2
                ? sb_arena_alloc_uninit(f->arena, capacity, sizeof(*grown))
                : NULL;
        if (!grown) {
            dxil_front_fail(f, SB_ERROR_OUT_OF_MEMORY, "out of memory");
            return NULL;
        }
        if (f->code_count)
            memcpy(grown, f->code, (size_t)f->code_count * sizeof(*grown));
        f->code = grown;
        f->code_capacity = capacity;
    }
    /* Not zeroed: every operand is copied in below (an instruction without operands
     * keeps one zero slot, as before). */
    uint32_t operands = dst_count + src_count;
    struct sb_ir_operand *ops = operands
                                    ? sb_arena_alloc_uninit(f->arena, operands, sizeof(*ops))
                                    : sb_arena_alloc(f->arena, 1, sizeof(*ops));
    if (!ops) {
        dxil_front_fail(f, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    copy_operands(ops, dst, dst_count);
    copy_operands(ops + dst_count, src, src_count);
    /* Copied from a zeroed template, not memset or a compound literal: gcc made both a
     * `rep stos` for this 104-byte struct, whose start-up cost was 2% of a DXIL
     * translation (perf); the copy is six 16-byte moves. */
    static const struct sb_ir_instruction blank;
    struct sb_ir_instruction *in = &f->code[f->code_count++];
    *in = blank;
    in->op = op;
    in->offset = f->offset;
    in->dst_count = dst_count;
    in->src_count = src_count;
    in->dst = ops;
    in->src = ops + dst_count;
    return in;
}

/* Argument i of a dx.op call; 0 is the opcode itself (operands[0] is the callee). */
bool dxil_front_arg(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t i,
                    uint32_t *value)
{
    if (1 + i >= in->operand_count)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "dx.op call lacks argument %u", i);
    *value = in->operands[1 + i];
    return true;
}

bool dxil_front_const_arg(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t i,
                          uint64_t *out)
{
    uint32_t value = 0;
    if (!dxil_front_arg(f, in, i, &value))
        return false;
    if (!dxil_front_const_int(f, value, out))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "dx.op argument %u must be a constant here", i);
    return true;
}

bool dxil_front_result_temp(struct dxil_front *f, const struct sb_bc_instruction *in,
                            uint32_t lanes, uint32_t *temp)
{
    if (dxil_front_type_lanes(f, in->type) != lanes)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a dx.op overload without %u 32-bit result lanes", lanes);
    *temp = dxil_front_value_temp(f, in->value);
    return *temp != DXIL_FRONT_NONE;
}

/* i64 and double values take a lane pair (ir_from_dxil_wide.c). */
bool dxil_front_is_wide_type(const struct dxil_front *f, uint32_t type)
{
    const struct sb_bc_type *t = dxil_front_type(f, type);
    return t && ((t->kind == SB_BC_TYPE_INTEGER && t->width == 64) ||
                 t->kind == SB_BC_TYPE_DOUBLE);
}

/* The f32 bits of the half `h` (exact: every half is a float). */
uint32_t dxil_front_float_bits_of_half(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
    if (e == 0x1F)
        return sign | 0x7F800000u | (m << 13);
    if (e == 0) {
        if (m == 0)
            return sign;
        /* a subnormal half is a normal float: shift the leading one into place */
        e = 1;
        while (!(m & 0x400u)) {
            m <<= 1;
            e--;
        }
        m &= 0x3FFu;
        return sign | ((e + 112u) << 23) | (m << 13);
    }
    return sign | ((e + 112u) << 23) | (m << 13);
}
