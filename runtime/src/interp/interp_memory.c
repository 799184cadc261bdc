/* SPDX-License-Identifier: MIT */
/*
 * Untyped memory of the CPU interpreter, addressed as the SPIR-V back end
 * addresses it (translator/src/spirv/spirv_uav.c, spirv_uav_atomic.c,
 * spirv_resource_util.c):
 *   * raw and structured t#/u# are arrays of DWORDs; the first DWORD is
 *     byte offset >> 2 (raw) or (index * stride + byte offset) >> 2
 *     (structured), computed in 32-bit arithmetic; a load reads DWORD
 *     base + swizzle[c] for each written lane c, a store writes lane c of
 *     the mask to DWORD base + c. Each DWORD is bounds-checked on its own
 *     against the bound size (robustBufferAccess): reads outside give 0,
 *     writes and atomics outside are dropped (an atomic's old value is 0);
 *   * g# indices are clamped to the last DWORD (the back end's UMin);
 *   * atomics run lane by lane in lane order and return the old value;
 *     typed u# atomics work on 32-bit texels;
 *   * imm_atomic_alloc returns the counter and increments it;
 *     imm_atomic_consume decrements it and returns the new value, wrapping
 *     below 0 like the GPU's uint counter (0 -> 0xFFFFFFFF).
 */
#include "interp_private.h"

#include <math.h>
#include <string.h>
#include "translator/ir.h"

/* One memory operand resolved: DWORD storage, its length, and how it is addressed. */
struct memory {
    uint8_t *bytes;
    uint32_t dwords;
    uint32_t stride;         /* structured: bytes per structure; raw: 4 */
    bool clamp;              /* g#: clamp instead of bounds-check */
    bool typed;              /* typed u# (atomics only) */
    struct interp_binding binding;
};

static bool resolve(struct interp_state *s, const struct sb_ir_operand *op, uint32_t lane, struct memory *m)
{
    memset(m, 0, sizeof(*m));
    if (op->file == SB_IR_FILE_GROUP_SHARED) {
        const struct sb_ir_program *p = s->program;
        for (uint32_t i = 0; op->index_count && i < p->group_shared_count; i++)
            if (p->group_shared[i].id == op->index[0].offset) {
                m->bytes = (uint8_t *)s->gsm[i];
                m->dwords = s->gsm_dwords[i];
                m->stride = p->group_shared[i].structured ? p->group_shared[i].stride : 4;
                m->clamp = true;
                return true;
            }
        sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s': g%u is not declared", sb_ir_op_name(s->inst->op),
                       op->index_count ? op->index[0].offset : 0);
        return false;
    }
    if (!sb_interp_bind(s, op, lane, &m->binding))
        return false;
    const struct sb_ir_resource *d = m->binding.decl;
    m->bytes = m->binding.rt->data;
    m->dwords = (uint32_t)(m->binding.rt->size / 4 > UINT32_MAX ? UINT32_MAX : m->binding.rt->size / 4);
    m->stride = d->kind == SB_IR_RESOURCE_KIND_STRUCTURED ? d->stride : 4;
    m->typed = d->kind == SB_IR_RESOURCE_KIND_TYPED;
    if (!m->bytes)
        m->dwords = 0;
    return true;
}

/* The address of DWORD `d`, or NULL when outside (g#: clamped). */
static uint8_t *dword(const struct memory *m, uint32_t d)
{
    if (m->clamp)
        return m->bytes + 4 * (size_t)(d < m->dwords ? d : m->dwords - 1);
    return d < m->dwords ? m->bytes + 4 * (size_t)d : NULL;
}

/* Does the operand pick its register per lane (SM5.1 dynamic range index)? */
static bool per_lane(const struct sb_ir_operand *op)
{
    return op->file != SB_IR_FILE_GROUP_SHARED && op->index_count >= 2 && op->index[1].relative;
}

/* First DWORD of each lane's access: raw `first` = byte offset; structured `first` = index, `second` = offset. */
static const uint32_t *bases(struct interp_state *s, const struct sb_ir_operand *first,
                             const struct sb_ir_operand *second, uint32_t stride)
{
    const uint32_t *a = sb_interp_load_scalar(s, first, SB_IR_TYPE_UINT);
    const uint32_t *b = second && a ? sb_interp_load_scalar(s, second, SB_IR_TYPE_UINT) : NULL;
    uint32_t *out = a && (b || !second) ? sb_interp_scratch(s) : NULL;
    if (out)
        for (uint32_t l = 0; l < s->lanes; l++)
            out[l] = (second ? a[l] * stride + b[l] : a[l]) >> 2;
    if (out && s->prec)
        sb_interp_precision_address(s, out, a, b);
    return out;
}

static enum sb_result load(struct interp_state *s, const struct sb_ir_instruction *in)
{
    bool structured = in->op == SB_IR_OP_LD_STRUCTURED;
    if (in->dst_count < 1 || in->src_count < (structured ? 3u : 2u))
        return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s' has too few operands", sb_ir_op_name(in->op));
    const struct sb_ir_operand *mem_op = &in->src[structured ? 2 : 1], *d = &in->dst[0];
    struct memory m;
    if (!resolve(s, mem_op, 0, &m))
        return s->result;
    if (m.typed)
        return sb_interp_unsupported(s, "a typed resource as raw memory");
    const uint32_t *base = bases(s, &in->src[0], structured ? &in->src[1] : NULL, m.stride);
    uint32_t *r[4] = { NULL }, mask = d->mask & 0xFu;
    for (uint32_t c = 0; c < 4; c++)
        if ((mask & (1u << c)) && !(r[c] = sb_interp_scratch(s)))
            return s->result;
    if (!base)
        return s->result;
    struct interp_access_track t;
    if (s->prec) {
        sb_interp_precision_access_begin(s, &t, (const uint32_t *const *)r, base, false);
        t.have_memory = sb_interp_precision_memory(s, m.bytes, &t.memory);
    }
    for (uint32_t l = 0; l < s->lanes; l++) {
        if (!s->active[l])
            continue;
        if (per_lane(mem_op) && !resolve(s, mem_op, l, &m))
            return s->result;
        if (s->prec && per_lane(mem_op))
            t.have_memory = sb_interp_precision_memory(s, m.bytes, &t.memory);
        for (uint32_t c = 0; c < 4; c++) {
            if (!(mask & (1u << c)))
                continue;
            const uint8_t *p = dword(&m, base[l] + (mem_op->swizzle[c] & 3u));
            uint32_t v = 0;
            if (p)
                memcpy(&v, p, 4);
            if (p && s->race)
                sb_interp_race_access(s, p, 4, l, INTERP_ACCESS_READ);
            r[c][l] = v;
            if (s->prec)
                sb_interp_precision_load_lane(s, &t, c, l, p != NULL, p ? (uint32_t)((p - m.bytes) / 4) : 0);
        }
    }
    if (sb_interp_store(s, d, mask, (const uint32_t *const *)r, SB_IR_TYPE_UINT) && in->dst_count >= 2) {
        uint32_t *zero = sb_interp_scratch(s);
        if (zero) {
            memset(zero, 0, s->lanes * sizeof(uint32_t));
            sb_interp_store_replicated(s, &in->dst[1], zero, SB_IR_TYPE_UINT);
        }
    }
    return s->result;
}

static enum sb_result store(struct interp_state *s, const struct sb_ir_instruction *in)
{
    bool structured = in->op == SB_IR_OP_STORE_STRUCTURED;
    if (in->dst_count < 1 || in->src_count < (structured ? 3u : 2u))
        return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s' has too few operands", sb_ir_op_name(in->op));
    const struct sb_ir_operand *mem_op = &in->dst[0];
    uint32_t mask = mem_op->mask & 0xFu;
    if (!mask)
        return SB_SUCCESS;
    if (mem_op->file == SB_IR_FILE_RESOURCE)
        return sb_interp_unsupported(s, "a store to a read-only t#");
    struct memory m;
    if (!resolve(s, mem_op, 0, &m))
        return s->result;
    if (m.typed)
        return sb_interp_unsupported(s, "a typed resource as raw memory");
    const uint32_t *base = bases(s, &in->src[0], structured ? &in->src[1] : NULL, m.stride);
    const uint32_t *v[4];
    if (!base || !sb_interp_load(s, &in->src[structured ? 2 : 1], mask, SB_IR_TYPE_UINT, v))
        return s->result;
    struct interp_access_track t;
    if (s->prec) {
        sb_interp_precision_access_begin(s, &t, v, base, true);
        t.have_memory = sb_interp_precision_memory(s, m.bytes, &t.memory);
    }
    for (uint32_t l = 0; l < s->lanes; l++) {
        if (!s->active[l])
            continue;
        if (per_lane(mem_op) && !resolve(s, mem_op, l, &m))
            return s->result;
        if (s->prec && per_lane(mem_op))
            t.have_memory = sb_interp_precision_memory(s, m.bytes, &t.memory);
        for (uint32_t c = 0; c < 4; c++) {
            uint8_t *p = (mask & (1u << c)) ? dword(&m, base[l] + c) : NULL;
            if (p)
                memcpy(p, &v[c][l], 4);
            if (p && s->prec && t.have_memory)
                sb_interp_precision_store_lane(s, &t, c, l, (uint32_t)((p - m.bytes) / 4));
            if (p && s->race)
                sb_interp_race_access(s, p, 4, l, INTERP_ACCESS_WRITE);
        }
    }
    return s->result;
}

/* One row per atomic op: returns the old value (dst[0]; memory dst[1]), compares (src[1]). */
struct atomic_row {
    uint32_t op, kind; /* kind: the operation, as an IR op of the plain form */
    bool imm, compare;
};

static const struct atomic_row atomic_rows[] = {
    { SB_IR_OP_ATOMIC_AND, SB_IR_OP_ATOMIC_AND, false, false },
    { SB_IR_OP_ATOMIC_OR, SB_IR_OP_ATOMIC_OR, false, false },
    { SB_IR_OP_ATOMIC_XOR, SB_IR_OP_ATOMIC_XOR, false, false },
    { SB_IR_OP_ATOMIC_CMP_STORE, SB_IR_OP_ATOMIC_CMP_STORE, false, true },
    { SB_IR_OP_ATOMIC_IADD, SB_IR_OP_ATOMIC_IADD, false, false },
    { SB_IR_OP_ATOMIC_IMAX, SB_IR_OP_ATOMIC_IMAX, false, false },
    { SB_IR_OP_ATOMIC_IMIN, SB_IR_OP_ATOMIC_IMIN, false, false },
    { SB_IR_OP_ATOMIC_UMAX, SB_IR_OP_ATOMIC_UMAX, false, false },
    { SB_IR_OP_ATOMIC_UMIN, SB_IR_OP_ATOMIC_UMIN, false, false },
    { SB_IR_OP_IMM_ATOMIC_IADD, SB_IR_OP_ATOMIC_IADD, true, false },
    { SB_IR_OP_IMM_ATOMIC_AND, SB_IR_OP_ATOMIC_AND, true, false },
    { SB_IR_OP_IMM_ATOMIC_OR, SB_IR_OP_ATOMIC_OR, true, false },
    { SB_IR_OP_IMM_ATOMIC_XOR, SB_IR_OP_ATOMIC_XOR, true, false },
    { SB_IR_OP_IMM_ATOMIC_EXCH, SB_IR_OP_IMM_ATOMIC_EXCH, true, false },
    { SB_IR_OP_IMM_ATOMIC_CMP_EXCH, SB_IR_OP_ATOMIC_CMP_STORE, true, true },
    { SB_IR_OP_IMM_ATOMIC_IMAX, SB_IR_OP_ATOMIC_IMAX, true, false },
    { SB_IR_OP_IMM_ATOMIC_IMIN, SB_IR_OP_ATOMIC_IMIN, true, false },
    { SB_IR_OP_IMM_ATOMIC_UMAX, SB_IR_OP_ATOMIC_UMAX, true, false },
    { SB_IR_OP_IMM_ATOMIC_UMIN, SB_IR_OP_ATOMIC_UMIN, true, false },
};

static uint32_t apply(uint32_t kind, uint32_t old, uint32_t value, uint32_t compare)
{
    switch (kind) {
    case SB_IR_OP_ATOMIC_AND: return old & value;
    case SB_IR_OP_ATOMIC_OR: return old | value;
    case SB_IR_OP_ATOMIC_XOR: return old ^ value;
    case SB_IR_OP_ATOMIC_CMP_STORE: return old == compare ? value : old;
    case SB_IR_OP_ATOMIC_IADD: return old + value;
    case SB_IR_OP_ATOMIC_IMAX: return (int32_t)old > (int32_t)value ? old : value;
    case SB_IR_OP_ATOMIC_IMIN: return (int32_t)old < (int32_t)value ? old : value;
    case SB_IR_OP_ATOMIC_UMAX: return old > value ? old : value;
    case SB_IR_OP_ATOMIC_UMIN: return old < value ? old : value;
    default: return value; /* exchange */
    }
}

/* The 32-bit word one lane's atomic works on, or NULL when outside. */
static uint8_t *atomic_word(struct interp_state *s, const struct memory *m, const uint32_t *addr[4], uint32_t l)
{
    if (m->typed) {
        const struct sb_rt_resource *r = m->binding.rt;
        uint32_t dim = m->binding.decl->dimension;
        int32_t c[4] = { (int32_t)addr[0][l], 0, 0, 0 };
        for (uint32_t k = 1; k < 4 && addr[k]; k++)
            c[k] = (int32_t)addr[k][l];
        /* Coordinates per dimension: array layers follow the used axes. */
        switch (dim) {
        case 1: case 2: return sb_interp_texel_address(r, c[0], 0, 0, 0, 0);
        case 7: return sb_interp_texel_address(r, c[0], 0, 0, c[1], 0);
        case 3: return sb_interp_texel_address(r, c[0], c[1], 0, 0, 0);
        case 8: return sb_interp_texel_address(r, c[0], c[1], 0, c[2], 0);
        case 5: return sb_interp_texel_address(r, c[0], c[1], c[2], 0, 0);
        default: sb_interp_unsupported(s, "an atomic on this texture dimension"); return NULL;
        }
    }
    uint32_t bytes = addr[1] ? addr[0][l] * m->stride + addr[1][l] : addr[0][l];
    return dword(m, bytes >> 2);
}

static enum sb_result atomic(struct interp_state *s, const struct sb_ir_instruction *in, const struct atomic_row *row)
{
    uint32_t dsts = row->imm ? 2 : 1, srcs = row->compare ? 3 : 2;
    if (in->dst_count < dsts || in->src_count < srcs)
        return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s' has too few operands", sb_ir_op_name(in->op));
    const struct sb_ir_operand *mem_op = &in->dst[dsts - 1];
    struct memory m;
    if (!resolve(s, mem_op, 0, &m))
        return s->result;
    if (m.typed && sb_rt_format_size((enum sb_rt_format)m.binding.rt->format) != 4)
        return sb_interp_unsupported(s, "an atomic on a texel format other than R32");
    bool structured = false;
    if (mem_op->file == SB_IR_FILE_GROUP_SHARED) {
        for (uint32_t i = 0; i < s->program->group_shared_count; i++)
            if (s->program->group_shared[i].id == mem_op->index[0].offset)
                structured = s->program->group_shared[i].structured;
    } else if (!m.typed) {
        structured = m.binding.decl->kind == SB_IR_RESOURCE_KIND_STRUCTURED;
    }
    uint32_t coords = 1;
    if (m.typed) {
        static const uint8_t coords_of[11] = { 0, 1, 1, 2, 2, 3, 3, 2, 3, 3, 4 };
        coords = m.binding.decl->dimension < 11 ? coords_of[m.binding.decl->dimension] : 1;
    } else if (structured) {
        coords = 2;
    }
    const uint32_t *addr[4] = { NULL }, *value = NULL, *cmp = NULL;
    if (!sb_interp_load_n(s, &in->src[0], coords, SB_IR_TYPE_UINT, addr) ||
        !(value = sb_interp_load_scalar(s, &in->src[srcs - 1], SB_IR_TYPE_UINT)) ||
        (row->compare && !(cmp = sb_interp_load_scalar(s, &in->src[1], SB_IR_TYPE_UINT))))
        return s->result;
    if (!structured && !m.typed)
        addr[1] = NULL;
    uint32_t *old = sb_interp_scratch(s);
    if (!old)
        return s->result;
    for (uint32_t l = 0; l < s->lanes; l++) {
        old[l] = 0;
        if (!s->active[l])
            continue;
        if (per_lane(mem_op) && !resolve(s, mem_op, l, &m))
            return s->result;
        uint8_t *p = atomic_word(s, &m, addr, l);
        if (s->result != SB_SUCCESS)
            return s->result;
        if (!p)
            continue;
        if (s->race)
            sb_interp_race_atomic(s, p, l, value[l], cmp ? cmp[l] : 0);
        uint32_t o;
        memcpy(&o, p, 4);
        uint32_t nv = apply(row->kind, o, value[l], cmp ? cmp[l] : 0);
        memcpy(p, &nv, 4);
        struct interp_companion mc;
        if (s->prec && sb_interp_precision_memory(s, m.bytes, &mc)) {
            /* An integer operation: exact unless what it combines may differ. */
            uint32_t w = (uint32_t)((p - m.bytes) / 4);
            bool inexact = sb_interp_precision_inexact(s, l) || mc.bound[w] != 0.0f || s->prec->tainted[l];
            sb_interp_precision_set(s, &mc, w, inexact ? INFINITY : 0.0f,
                                    inexact ? (mc.bound[w] != 0.0f ? mc.origin[w] : sb_interp_precision_hint(s))
                                            : UINT32_MAX);
        }
        old[l] = o;
    }
    if (row->imm)
        sb_interp_store_replicated(s, &in->dst[0], old, SB_IR_TYPE_UINT);
    return s->result;
}

static enum sb_result counter(struct interp_state *s, const struct sb_ir_instruction *in)
{
    if (in->dst_count < 2)
        return sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s' has too few operands", sb_ir_op_name(in->op));
    struct interp_binding b = { NULL, NULL };
    uint32_t *r = sb_interp_scratch(s);
    if (!r)
        return s->result;
    bool consume = in->op == SB_IR_OP_IMM_ATOMIC_CONSUME;
    for (uint32_t l = 0; l < s->lanes; l++) {
        r[l] = 0;
        if (!s->active[l])
            continue;
        if ((per_lane(&in->dst[1]) || !b.rt) && !sb_interp_bind(s, &in->dst[1], l, &b))
            return s->result;
        if (s->race)
            sb_interp_race_counter(s, b.rt, l);
        if (consume)
            r[l] = --b.rt->counter;
        else
            r[l] = b.rt->counter++;
    }
    sb_interp_store_replicated(s, &in->dst[0], r, SB_IR_TYPE_UINT);
    return s->result;
}

enum sb_result sb_interp_memory(struct interp_state *s, const struct sb_ir_instruction *in)
{
    switch (in->op) {
    case SB_IR_OP_LD_RAW: case SB_IR_OP_LD_STRUCTURED: return load(s, in);
    case SB_IR_OP_STORE_RAW: case SB_IR_OP_STORE_STRUCTURED: return store(s, in);
    case SB_IR_OP_IMM_ATOMIC_ALLOC: case SB_IR_OP_IMM_ATOMIC_CONSUME: return counter(s, in);
    default: break;
    }
    for (size_t i = 0; i < sizeof(atomic_rows) / sizeof(atomic_rows[0]); i++)
        if (atomic_rows[i].op == in->op)
            return atomic(s, in, &atomic_rows[i]);
    return SB_ERROR_TRANSLATE_UNSUPPORTED;
}
