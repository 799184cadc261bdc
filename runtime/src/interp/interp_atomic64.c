/* SPDX-License-Identifier: MIT */
/*
 * 64-bit atomics of the CPU interpreter: imm_atomic64_* on raw and structured u#
 * (translator/IR.md §Resources), addressed as the SPIR-V back end addresses them
 * (translator/src/spirv/spirv_atomic64.c): the byte address (raw: src[0].x; structured:
 * index * stride + byte offset, 32-bit arithmetic) shifted right by 3 names the 64-bit
 * word, low DWORD first. A word not wholly inside the bound buffer is left alone and the
 * old value is 0, as for 32-bit atomics (robustBufferAccess drops the access).
 *
 * Lanes run in lane order, each operation whole (the interpreter has no other thread in
 * the batch). Tracked runs see each 64-bit atomic as one atomic on each of its two DWORDs
 * with that DWORD's half of the operands (interp_race.c): the same operation on both halves
 * keeps the race rules' meaning (commutative operations commute, exchanges of equal values
 * end equal).
 */
#include "interp_private.h"

#include <math.h>
#include <string.h>

#include "translator/ir.h"

/* The new value of the 64-bit word `old` under `op` with `value` (and `compare`). */
static uint64_t apply(uint32_t op, uint64_t old, uint64_t value, uint64_t compare)
{
    switch (op) {
    case SB_IR_OP_IMM_ATOMIC64_IADD: return old + value;
    case SB_IR_OP_IMM_ATOMIC64_AND: return old & value;
    case SB_IR_OP_IMM_ATOMIC64_OR: return old | value;
    case SB_IR_OP_IMM_ATOMIC64_XOR: return old ^ value;
    case SB_IR_OP_IMM_ATOMIC64_IMAX: return (int64_t)old > (int64_t)value ? old : value;
    case SB_IR_OP_IMM_ATOMIC64_IMIN: return (int64_t)old < (int64_t)value ? old : value;
    case SB_IR_OP_IMM_ATOMIC64_UMAX: return old > value ? old : value;
    case SB_IR_OP_IMM_ATOMIC64_UMIN: return old < value ? old : value;
    case SB_IR_OP_IMM_ATOMIC64_CMP_EXCH: return old == compare ? value : old;
    default: return value; /* exchange */
    }
}

/* Lane l's 64-bit operand from a double load (the bits, unchanged). */
static uint64_t bits_at(const double *values, uint32_t l)
{
    uint64_t bits;
    memcpy(&bits, &values[l], 8);
    return bits;
}

/* Marks the two DWORDs at `p` exact, or inexact when the lane or what they held was. */
static void note_precision(struct interp_state *s, const struct interp_binding *b, const uint8_t *p,
                           uint32_t l)
{
    struct interp_companion mc;
    if (!s->prec || !sb_interp_precision_memory(s, b->rt->data, &mc))
        return;
    for (uint32_t k = 0; k < 2; k++) {
        uint32_t w = (uint32_t)((p - (const uint8_t *)b->rt->data) / 4) + k;
        bool inexact = sb_interp_precision_inexact(s, l) || mc.bound[w] != 0.0f || s->prec->tainted[l];
        sb_interp_precision_set(s, &mc, w, inexact ? INFINITY : 0.0f,
                                inexact ? (mc.bound[w] != 0.0f ? mc.origin[w] : sb_interp_precision_hint(s))
                                        : UINT32_MAX);
    }
}

enum sb_result sb_interp_atomic64(struct interp_state *s, const struct sb_ir_instruction *in)
{
    if (!sb_ir_op_is_atomic64(in->op))
        return SB_ERROR_TRANSLATE_UNSUPPORTED;
    bool compare = in->op == SB_IR_OP_IMM_ATOMIC64_CMP_EXCH;
    if (in->dst_count < 2 || in->src_count < (compare ? 3u : 2u))
        return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s' has too few operands", sb_ir_op_name(in->op));
    const struct sb_ir_operand *mem_op = &in->dst[1];
    struct interp_binding b;
    if (!sb_interp_bind(s, mem_op, 0, &b))
        return s->result;
    bool structured = b.decl->kind == SB_IR_RESOURCE_KIND_STRUCTURED;
    if (!structured && b.decl->kind != SB_IR_RESOURCE_KIND_RAW)
        return sb_interp_unsupported(s, "a 64-bit atomic on a typed UAV");
    const uint32_t *addr[4] = { NULL };
    double *value[2] = { NULL }, *cmp[2] = { NULL };
    if (!sb_interp_load_n(s, &in->src[0], structured ? 2 : 1, SB_IR_TYPE_UINT, addr) ||
        !sb_interp_load_double(s, &in->src[compare ? 2 : 1], 1, value) ||
        (compare && !sb_interp_load_double(s, &in->src[1], 1, cmp)))
        return s->result;
    uint32_t *old_lo = sb_interp_scratch(s), *old_hi = sb_interp_scratch(s);
    if (!old_lo || !old_hi)
        return s->result;
    bool relative = mem_op->index_count >= 2 && mem_op->index[1].relative;
    for (uint32_t l = 0; l < s->lanes; l++) {
        old_lo[l] = old_hi[l] = 0;
        if (!s->active[l])
            continue;
        if (relative && !sb_interp_bind(s, mem_op, l, &b))
            return s->result;
        uint32_t bytes = structured ? addr[0][l] * b.decl->stride + addr[1][l] : addr[0][l];
        uint64_t at = (uint64_t)(bytes >> 3) * 8u;
        if (!b.rt->data || at + 8u > b.rt->size)
            continue;
        uint8_t *p = (uint8_t *)b.rt->data + at;
        uint64_t v = bits_at(value[0], l), c = compare ? bits_at(cmp[0], l) : 0, o;
        if (s->race) {
            sb_interp_race_atomic(s, p, l, (uint32_t)v, (uint32_t)c);
            sb_interp_race_atomic(s, p + 4, l, (uint32_t)(v >> 32), (uint32_t)(c >> 32));
        }
        memcpy(&o, p, 8);
        uint64_t n = apply(in->op, o, v, c);
        memcpy(p, &n, 8);
        note_precision(s, &b, p, l);
        old_lo[l] = (uint32_t)o;
        old_hi[l] = (uint32_t)(o >> 32);
    }
    const struct sb_ir_operand *d = &in->dst[0];
    if (d->file == SB_IR_FILE_NULL || !(d->mask & 0x3u))
        return s->result;
    const uint32_t *pair[4] = { old_lo, old_hi, NULL, NULL };
    sb_interp_store(s, d, 0x3, pair, SB_IR_TYPE_UINT);
    return s->result;
}
