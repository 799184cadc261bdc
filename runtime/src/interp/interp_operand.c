/* SPDX-License-Identifier: MIT */
/*
 * Operand access of the CPU interpreter (translator/IR.md §Operands): a
 * source becomes one lane array per component it feeds — a pointer straight
 * into r#/x#/thread-id storage when no gather or modifier is needed, else a
 * scratch array — and a destination write goes to the active lanes of the
 * masked components. Modifiers act in the slot's view (float: sign-bit
 * operations, as FAbs/FNegate; int/uint: two's-complement abs/negate), as
 * spirv_registers.c applies them. Reads outside cb# (beyond `size`), icb
 * or x# give 0 and writes outside x# are dropped (IR.md §Semantics).
 */
#include "interp_private.h"

#include <math.h>
#include <string.h>
#include "translator/ir.h"

uint32_t *sb_interp_scratch(struct interp_state *s)
{
    if (s->scratch_used >= SB_INTERP_SCRATCH_ARRAYS) {
        sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s' needs more scratch than the interpreter has",
                       s->inst ? sb_ir_op_name(s->inst->op) : "?");
        return NULL;
    }
    uint32_t *a = s->scratch[s->scratch_used++];
    if (s->prec)
        sb_interp_precision_fresh(s, a);
    return a;
}

double *sb_interp_scratch_double(struct interp_state *s)
{
    if (s->double_used >= SB_INTERP_DOUBLE_ARRAYS) {
        sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s' needs more scratch than the interpreter has",
                       s->inst ? sb_ir_op_name(s->inst->op) : "?");
        return NULL;
    }
    return s->double_pool + (size_t)s->lanes * s->double_used++;
}

static uint32_t *filled(struct interp_state *s, uint32_t value)
{
    uint32_t *restrict a = sb_interp_scratch(s), n = s->lanes;
    if (a)
        for (uint32_t l = 0; l < n; l++)
            a[l] = value;
    return a;
}

/* An immediate lane as a filled array: kept across instructions in a direct-mapped cache,
 * since loops read the same literals again and again. A slot already used by this instruction
 * for another value is not reused (its array may still be read). */
static const uint32_t *immediate(struct interp_state *s, uint32_t value)
{
    uint32_t h = value ^ (value >> 15) ^ (value >> 23); /* float literals differ in their top bits */
    uint32_t slot = (h * 2654435761u) >> 24;           /* SB_INTERP_IMM_SLOTS = 256 */
    uint64_t now = s->executed;
    uint32_t n = s->lanes, *restrict a = s->imm_arrays + (size_t)slot * n;
    if (s->imm_stamp[slot] && s->imm_value[slot] == value) {
        s->imm_stamp[slot] = now;
        return a;
    }
    if (s->imm_stamp[slot] == now)
        return filled(s, value);
    for (uint32_t l = 0; l < n; l++)
        a[l] = value;
    s->imm_value[slot] = value;
    s->imm_stamp[slot] = now;
    return a;
}

const uint32_t *sb_interp_index(struct interp_state *s, const struct sb_ir_index *index)
{
    if (!index->relative)
        return filled(s, index->offset);
    const uint32_t *rel = sb_interp_load_scalar(s, index->relative, SB_IR_TYPE_INT);
    uint32_t *out = rel ? sb_interp_scratch(s) : NULL;
    if (out)
        for (uint32_t l = 0; l < s->lanes; l++)
            out[l] = rel[l] + index->offset;
    return out;
}

/* cb#: the bound buffer of the operand (uniform register); NULL (recorded) when missing. */
static const struct sb_rt_resource *cbuffer(struct interp_state *s, const struct sb_ir_operand *op)
{
    if (op->index_count < 2 || op->index[0].relative) {
        sb_interp_unsupported(s, "a constant buffer chosen at run time");
        return NULL;
    }
    const struct sb_ir_resource *d = sb_interp_decl(s, op->file, op->index[0].offset);
    uint32_t reg = d ? d->lower_bound + (op->index_count >= 3 ? op->index[1].offset : 0) : 0;
    const struct sb_rt_resource *r = d ? sb_interp_find(s, SB_IR_RESOURCE_CBV, d->space, reg) : NULL;
    if (!r)
        sb_interp_fail(s, SB_ERROR_RUN_BINDING, "cb%u is not bound", d ? reg : op->index[0].offset);
    return r;
}

static uint32_t cb_dword(const struct sb_rt_resource *r, uint32_t vector, uint32_t c)
{
    uint64_t byte = (uint64_t)vector * 16 + c * 4;
    uint32_t v = 0;
    if (byte + 4 <= r->size)
        memcpy(&v, (const uint8_t *)r->data + byte, 4);
    return v;
}

/* Class linkage's cb[r][v] (SM5.0; r usually from this[] data): each lane reads the declared
 * buffer whose register is r, and 0 when none is, as the back end's OpSelect over the declared
 * buffers does (IR.md §Class linkage). */
static const uint32_t *cb_linkage(struct interp_state *s, const struct sb_ir_operand *op, uint32_t c)
{
    const struct sb_ir_program *p = s->program;
    const uint32_t *reg = sb_interp_index(s, &op->index[0]);
    const uint32_t *vec = reg ? sb_interp_index(s, &op->index[1]) : NULL;
    uint32_t *out = vec ? sb_interp_scratch(s) : NULL;
    if (!out)
        return NULL;
    for (uint32_t l = 0; l < s->lanes; l++) {
        out[l] = 0;
        for (uint32_t i = 0; s->active[l] && i < p->resource_count; i++) {
            const struct sb_ir_resource *d = &p->resources[i];
            if (d->resource_class != SB_IR_RESOURCE_CBV || d->id != reg[l] || d->count > 1)
                continue;
            const struct sb_rt_resource *r = sb_interp_find(s, SB_IR_RESOURCE_CBV, d->space, d->lower_bound);
            if (!r) {
                sb_interp_fail(s, SB_ERROR_RUN_BINDING, "cb%u is not bound", d->lower_bound);
                return NULL;
            }
            out[l] = cb_dword(r, vec[l], c);
            break;
        }
    }
    return out;
}

/* An SM5.1 cb range indexed per lane (CB0[r0.x][v]): each lane finds its own buffer. */
static const uint32_t *cb_gather(struct interp_state *s, const struct sb_ir_operand *op, uint32_t c)
{
    const struct sb_ir_resource *d = sb_interp_decl(s, op->file, op->index[0].offset);
    const uint32_t *reg = d ? sb_interp_index(s, &op->index[1]) : NULL;
    const uint32_t *vec = reg ? sb_interp_index(s, &op->index[2]) : NULL;
    uint32_t *out = vec ? sb_interp_scratch(s) : NULL;
    if (!d)
        sb_interp_fail(s, SB_ERROR_RUN_BINDING, "cb%u is not declared", op->index[0].offset);
    if (!out)
        return NULL;
    if (s->nonuniform)
        sb_interp_nonuniform_check(s, op, reg);
    const struct sb_rt_resource *r = NULL;
    uint32_t have = UINT32_MAX;
    for (uint32_t l = 0; l < s->lanes; l++) {
        out[l] = 0;
        if (!s->active[l])
            continue;
        if (reg[l] != have) {
            have = reg[l];
            r = d->count == UINT32_MAX || reg[l] < (d->count ? d->count : 1) /* as sb_interp_bind */
                    ? sb_interp_find(s, SB_IR_RESOURCE_CBV, d->space, d->lower_bound + reg[l])
                    : NULL;
            if (!r) {
                sb_interp_fail(s, SB_ERROR_RUN_BINDING, "cb%u (space %u) is not bound", d->lower_bound + reg[l],
                               d->space);
                return NULL;
            }
        }
        out[l] = cb_dword(r, vec[l], c);
    }
    return out;
}

/* Component c of an arrayed source [point][register] (v[n][r] of a geometry, hull or domain
 * batch; vicp, vocp): `base` holds [(point * regs + reg) * 4 + c][lanes]; either index may be
 * relative; reads outside the points or registers give 0. */
static const uint32_t *arrayed_component(struct interp_state *s, const struct sb_ir_operand *op, uint32_t c,
                                         const uint32_t *base, uint32_t points, uint32_t regs)
{
    if (op->index_count != 2 || !base) {
        sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s': arrayed input of file %u is not readable here by the "
                       "interpreter", s->inst ? sb_ir_op_name(s->inst->op) : "?", op->file);
        return NULL;
    }
    const uint32_t *vx = op->index[0].relative ? sb_interp_index(s, &op->index[0]) : NULL;
    const uint32_t *rx = op->index[1].relative ? sb_interp_index(s, &op->index[1]) : NULL;
    if ((op->index[0].relative && !vx) || (op->index[1].relative && !rx))
        return NULL;
    uint32_t n = s->lanes;
    if (!vx && !rx)
        return op->index[0].offset < points && op->index[1].offset < regs
                   ? base + (((size_t)op->index[0].offset * regs + op->index[1].offset) * 4 + c) * n
                   : filled(s, 0);
    uint32_t *out = sb_interp_scratch(s);
    if (!out)
        return NULL;
    for (uint32_t l = 0; l < n; l++) {
        uint32_t v = vx ? vx[l] : op->index[0].offset, r = rx ? rx[l] : op->index[1].offset;
        const uint32_t *word = v < points && r < regs ? base + (((size_t)v * regs + r) * 4 + c) * n + l : NULL;
        out[l] = word ? *word : 0;
        if (s->prec) /* a hull shader's vocp carries the control-point phase's bounds */
            sb_interp_precision_read_word(s, out, l, word, vx ? vx : rx);
    }
    return out;
}

/* v#/o# of a vertex or pixel batch, vpc# of a hull or domain batch: [0] register, relative
 * allowed (reads outside give 0). */
static const uint32_t *io_component(struct interp_state *s, const struct sb_ir_operand *op, uint32_t c)
{
    bool out = op->file == SB_IR_FILE_OUTPUT, patch = op->file == SB_IR_FILE_INPUT_PATCH_CONSTANT;
    const uint32_t *base = patch ? s->io_patch : out ? s->io_out : s->io_in;
    uint32_t count = patch ? s->patch_regs : out ? s->out_regs : s->in_regs, n = s->lanes;
    if (!out && !patch && s->in_vertices && op->index_count == 2)
        return arrayed_component(s, op, c, s->io_in, s->in_vertices, s->in_regs);
    if (!base || op->index_count != 1) {
        sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s': %s registers are not readable here by the "
                       "interpreter", s->inst ? sb_ir_op_name(s->inst->op) : "?", patch ? "vpc#" : out ? "o#" : "v#");
        return NULL;
    }
    if (!op->index[0].relative)
        return op->index[0].offset < count ? base + ((size_t)op->index[0].offset * 4 + c) * n : filled(s, 0);
    const uint32_t *ix = sb_interp_index(s, &op->index[0]);
    uint32_t *r = ix ? sb_interp_scratch(s) : NULL;
    if (r)
        for (uint32_t l = 0; l < n; l++)
            r[l] = ix[l] < count ? base[((size_t)ix[l] * 4 + c) * n + l] : 0;
    if (r && s->prec)
        for (uint32_t l = 0; l < n; l++)
            sb_interp_precision_read_word(s, r, l, ix[l] < count ? base + ((size_t)ix[l] * 4 + c) * n + l : NULL, ix);
    return r;
}

/* The lane array of register component c of a source (no swizzle, no modifiers). */
static const uint32_t *component(struct interp_state *s, const struct sb_ir_operand *op, uint32_t c)
{
    const struct sb_ir_program *p = s->program;
    uint32_t n = s->lanes;
    c &= 3u;
    switch (op->file) {
    case SB_IR_FILE_TEMP:
        if (op->index_count < 1 || op->index[0].relative || op->index[0].offset >= s->temp_count)
            break;
        return s->temp[(size_t)op->index[0].offset * 4 + c];
    case SB_IR_FILE_IMMEDIATE:
        return immediate(s, op->imm[c]);
    case SB_IR_FILE_THREAD_ID: case SB_IR_FILE_THREAD_GROUP_ID: case SB_IR_FILE_THREAD_ID_IN_GROUP:
    case SB_IR_FILE_THREAD_ID_IN_GROUP_FLATTENED:
        return s->special + ((size_t)(op->file - SB_IR_FILE_THREAD_ID) * 4 + c) * n;
    case SB_IR_FILE_INPUT: case SB_IR_FILE_OUTPUT:
        return io_component(s, op, c);
    case SB_IR_FILE_PRIMITIVE_ID: case SB_IR_FILE_COVERAGE_IN:
        if (!s->io_in)
            break; /* graphics only: vPrim in x of special[0], vCoverage in x of special[1] */
        return s->special + (size_t)(op->file == SB_IR_FILE_COVERAGE_IN ? 4 : 0) * n;
    case SB_IR_FILE_INNER_COVERAGE:
        if (!s->quad)
            break;
        /* A pixel batch models the harness's draw: a program that reads vInnerCoverage is drawn
         * with conservative rasterization (vk_graphics.c), and a one-pixel point centred on
         * its pixel covers the pixel's whole square, so every pixel is fully covered. */
        return filled(s, 1);
    case SB_IR_FILE_VIEW_ID: case SB_IR_FILE_HELPER_LANE:
    case SB_IR_FILE_BASE_VERTEX: case SB_IR_FILE_BASE_INSTANCE: {
        uint32_t *a = sb_interp_scratch(s);
        if (a && !sb_interp_sysval_lanes(s, op->file, a))
            break;
        return a;
    }
    case SB_IR_FILE_GS_INSTANCE_ID:
        if (!s->geometry)
            break; /* geometry batches: vGSInstanceID in x of special[2] */
        return s->special + (size_t)8 * n;
    case SB_IR_FILE_OUTPUT_CONTROL_POINT_ID: case SB_IR_FILE_FORK_INSTANCE_ID: case SB_IR_FILE_JOIN_INSTANCE_ID:
        if (op->file != s->phase_id_file)
            break; /* hull phases: the running phase's id in x of special[2] */
        return s->special + ((size_t)8 + c) * n;
    case SB_IR_FILE_DOMAIN_POINT:
        if (!s->domain_point)
            break; /* domain batches: vDomain in special[3] */
        return s->special + ((size_t)12 + c) * n;
    case SB_IR_FILE_INPUT_CONTROL_POINT:
        if (!s->in_vertices || s->geometry)
            break;
        return arrayed_component(s, op, c, s->io_in, s->in_vertices, s->in_regs);
    case SB_IR_FILE_OUTPUT_CONTROL_POINT:
        if (!s->io_ocp)
            break;
        return arrayed_component(s, op, c, s->io_ocp, s->ocp_points, s->ocp_regs);
    case SB_IR_FILE_INPUT_PATCH_CONSTANT:
        if (!s->io_patch)
            break;
        return io_component(s, op, c);
    case SB_IR_FILE_DEPTH: case SB_IR_FILE_DEPTH_GREATER_EQUAL: case SB_IR_FILE_DEPTH_LESS_EQUAL:
        if (!s->depth)
            break;
        return s->depth;
    case SB_IR_FILE_INDEXABLE_TEMP: {
        uint32_t id = op->index_count >= 2 ? op->index[0].offset : UINT32_MAX;
        if (id >= s->xtemp_ids || !s->xtemps[id])
            break;
        const uint32_t *base = s->xtemps[id], count = s->xtemp_count[id];
        if (!op->index[1].relative && op->index[1].offset >= count && s->race)
            for (uint32_t l = 0; l < n; l++)
                if (s->active[l])
                    sb_interp_race_out_of_bounds(s, l, id, op->index[1].offset);
        if (!op->index[1].relative)
            return op->index[1].offset < count ? base + ((size_t)op->index[1].offset * 4 + c) * n : filled(s, 0);
        const uint32_t *ix = sb_interp_index(s, &op->index[1]);
        for (uint32_t l = 0; ix && s->race && l < n; l++)
            if (s->active[l] && ix[l] >= count)
                sb_interp_race_out_of_bounds(s, l, id, ix[l]);
        uint32_t *out = ix ? sb_interp_scratch(s) : NULL;
        if (out)
            for (uint32_t l = 0; l < n; l++)
                out[l] = ix[l] < count ? base[((size_t)ix[l] * 4 + c) * n + l] : 0;
        if (out && s->prec)
            for (uint32_t l = 0; l < n; l++)
                sb_interp_precision_read_word(s, out, l, ix[l] < count ? base + ((size_t)ix[l] * 4 + c) * n + l : NULL,
                                              ix);
        return out;
    }
    case SB_IR_FILE_IMMEDIATE_CONSTANT_BUFFER: {
        if (op->index_count < 1 || !p->icb)
            break;
        if (!op->index[0].relative)
            return filled(s, op->index[0].offset < p->icb_vector_count ? p->icb[op->index[0].offset * 4 + c] : 0);
        const uint32_t *ix = sb_interp_index(s, &op->index[0]);
        uint32_t *out = ix ? sb_interp_scratch(s) : NULL;
        if (out)
            for (uint32_t l = 0; l < n; l++)
                out[l] = ix[l] < p->icb_vector_count ? p->icb[(size_t)ix[l] * 4 + c] : 0;
        return out;
    }
    case SB_IR_FILE_THIS_POINTER:
        /* Class linkage under the default instances (IR.md §Class linkage): this data is zero. */
        return filled(s, 0);
    case SB_IR_FILE_CONSTANT_BUFFER: {
        if (op->index_count >= 3 && op->index[1].relative)
            return cb_gather(s, op, c);
        if (op->index_count == 2 && op->index[0].relative)
            return cb_linkage(s, op, c);
        const struct sb_rt_resource *r = cbuffer(s, op);
        if (!r)
            return NULL;
        const struct sb_ir_index *vec = &op->index[op->index_count >= 3 ? 2 : 1];
        if (!vec->relative)
            return filled(s, cb_dword(r, vec->offset, c));
        const uint32_t *ix = sb_interp_index(s, vec);
        uint32_t *out = ix ? sb_interp_scratch(s) : NULL;
        if (out)
            for (uint32_t l = 0; l < n; l++)
                out[l] = cb_dword(r, ix[l], c);
        return out;
    }
    default:
        if (s->result == SB_SUCCESS)
            sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s': operand file %u is not readable "
                           "by the interpreter", s->inst ? sb_ir_op_name(s->inst->op) : "?", op->file);
        return NULL;
    }
    if (s->result == SB_SUCCESS)
        sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s': source register of file %u is not declared",
                       s->inst ? sb_ir_op_name(s->inst->op) : "?", op->file);
    return NULL;
}

/* abs/neg in the slot's view into a new array. */
static const uint32_t *modify(struct interp_state *s, const uint32_t *v, uint32_t modifiers, uint32_t type)
{
    uint32_t *out = sb_interp_scratch(s);
    if (!out)
        return NULL;
    uint32_t n = s->lanes;
    if (type == SB_IR_TYPE_FLOAT) {
        uint32_t and_mask = (modifiers & SB_IR_MOD_ABS) ? 0x7FFFFFFFu : 0xFFFFFFFFu;
        uint32_t xor_mask = (modifiers & SB_IR_MOD_NEG) ? 0x80000000u : 0;
        for (uint32_t l = 0; l < n; l++)
            out[l] = (v[l] & and_mask) ^ xor_mask;
    } else {
        bool abs_ = (modifiers & SB_IR_MOD_ABS) != 0, neg = (modifiers & SB_IR_MOD_NEG) != 0;
        for (uint32_t l = 0; l < n; l++) {
            uint32_t x = v[l];
            if (abs_ && (int32_t)x < 0)
                x = 0u - x;
            out[l] = neg ? 0u - x : x;
        }
    }
    if (s->prec)
        sb_interp_precision_copy(s, v, out);
    return out;
}

static bool load_lanes(struct interp_state *s, const struct sb_ir_operand *op, const uint8_t *lanes, uint32_t count,
                       uint32_t type, const uint32_t *out[4])
{
    const uint32_t *reg[4] = { NULL, NULL, NULL, NULL };
    uint32_t mods = (type == SB_IR_TYPE_NONE || type == SB_IR_TYPE_DOUBLE) ? 0 : op->modifiers & 3u;
    for (uint32_t k = 0; k < count; k++) {
        uint32_t c = lanes[k] & 3u;
        if (!reg[c]) {
            reg[c] = component(s, op, c);
            if (!reg[c])
                return false;
            if (mods && !(reg[c] = modify(s, reg[c], mods, type)))
                return false;
            if (s->prec)
                sb_interp_precision_note_source(s, reg[c]);
        }
        out[k] = reg[c];
    }
    return true;
}

bool sb_interp_load(struct interp_state *s, const struct sb_ir_operand *op, uint32_t mask, uint32_t type,
                    const uint32_t *out[4])
{
    uint8_t lanes[4];
    uint32_t count = 0, where[4];
    for (uint32_t c = 0; c < 4; c++)
        if (mask & (1u << c)) {
            where[count] = c;
            lanes[count++] = op->swizzle[c];
        }
    const uint32_t *got[4];
    if (!load_lanes(s, op, lanes, count, type, got))
        return false;
    for (uint32_t k = 0; k < count; k++)
        out[where[k]] = got[k];
    return true;
}

bool sb_interp_load_n(struct interp_state *s, const struct sb_ir_operand *op, uint32_t n, uint32_t type,
                      const uint32_t *out[4])
{
    return load_lanes(s, op, op->swizzle, n > 4 ? 4 : n, type, out);
}

const uint32_t *sb_interp_load_scalar(struct interp_state *s, const struct sb_ir_operand *op, uint32_t type)
{
    const uint32_t *out[4];
    return load_lanes(s, op, op->swizzle, 1, type, out) ? out[0] : NULL;
}

bool sb_interp_load_double(struct interp_state *s, const struct sb_ir_operand *op, uint32_t n, double *out[2])
{
    for (uint32_t k = 0; k < n && k < 2; k++) {
        uint32_t pair = op->swizzle[k] & 2u;
        const uint32_t *lo = component(s, op, pair), *hi = lo ? component(s, op, pair + 1) : NULL;
        double *d = hi ? sb_interp_scratch_double(s) : NULL;
        if (!d)
            return false;
        uint64_t and_mask = (op->modifiers & SB_IR_MOD_ABS) ? ~(1ull << 63) : ~0ull;
        uint64_t xor_mask = (op->modifiers & SB_IR_MOD_NEG) ? 1ull << 63 : 0;
        for (uint32_t l = 0; l < s->lanes; l++) {
            uint64_t bits = (((uint64_t)hi[l] << 32 | lo[l]) & and_mask) ^ xor_mask;
            memcpy(&d[l], &bits, 8);
        }
        out[k] = d;
    }
    return true;
}

/* NClamp(x, 0, 1): NaN -> 0 (D3D saturate). */
static const uint32_t *saturate(struct interp_state *s, const uint32_t *v)
{
    uint32_t *out = sb_interp_scratch(s);
    if (!out)
        return NULL;
    for (uint32_t l = 0; l < s->lanes; l++) {
        float f;
        memcpy(&f, &v[l], 4);
        f = f > 0.0f ? (f < 1.0f ? f : 1.0f) : 0.0f; /* NaN fails both tests: 0 */
        memcpy(&out[l], &f, 4);
    }
    if (s->prec) /* clamping moves nothing further apart */
        sb_interp_precision_write(s, out, v, true);
    return out;
}

static void write_lanes(struct interp_state *s, uint32_t *to, const uint32_t *from)
{
    uint32_t n = s->lanes;
    if (s->prec)
        sb_interp_precision_write(s, to, from, s->active_count == s->invocations);
    if (s->active_count == s->invocations) { /* the padding lanes may take anything */
        if (to != from)
            memcpy(to, from, n * sizeof(uint32_t));
        return;
    }
    const uint8_t *restrict active = s->active;
    for (uint32_t l = 0; l < n; l++)
        to[l] = active[l] ? from[l] : to[l];
}

/* An r# component write: a scratch result written by every invocation trades places with the
 * register's old array (no copy); anything else is copied lane by lane. */
static void write_temp(struct interp_state *s, uint32_t **slot, const uint32_t *value)
{
    if (s->active_count == s->invocations)
        for (uint32_t k = 0; k < s->scratch_used; k++)
            if (s->scratch[k] == value) {
                uint32_t *old = *slot;
                if (s->prec) /* the companion goes with the array: settle it first */
                    sb_interp_precision_write(s, value, value, true);
                *slot = s->scratch[k];
                s->scratch[k] = old; /* handed out already: nothing reuses it in this instruction */
                return;
            }
    write_lanes(s, *slot, value);
}

static bool store_indexable(struct interp_state *s, const struct sb_ir_operand *dst, uint32_t mask,
                            const uint32_t *const value[4])
{
    uint32_t id = dst->index_count >= 2 ? dst->index[0].offset : UINT32_MAX, n = s->lanes;
    if (id >= s->xtemp_ids || !s->xtemps[id]) {
        sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s': x%u is not declared", sb_ir_op_name(s->inst->op), id);
        return false;
    }
    uint32_t *base = s->xtemps[id], count = s->xtemp_count[id];
    if (!dst->index[1].relative) {
        for (uint32_t l = 0; s->race && dst->index[1].offset >= count && l < n; l++)
            if (s->active[l])
                sb_interp_race_out_of_bounds(s, l, id, dst->index[1].offset);
        if (dst->index[1].offset >= count)
            return true; /* dropped */
        for (uint32_t c = 0; c < 4; c++)
            if (mask & (1u << c))
                write_lanes(s, base + ((size_t)dst->index[1].offset * 4 + c) * n, value[c]);
        return true;
    }
    const uint32_t *ix = sb_interp_index(s, &dst->index[1]);
    if (!ix)
        return false;
    for (uint32_t l = 0; l < n; l++) {
        if (s->race && s->active[l] && ix[l] >= count)
            sb_interp_race_out_of_bounds(s, l, id, ix[l]);
        if (!s->active[l] || ix[l] >= count)
            continue;
        uint32_t lane[4]; /* read every component before writing: a source may be this element */
        for (uint32_t c = 0; c < 4; c++)
            lane[c] = (mask & (1u << c)) ? value[c][l] : 0;
        for (uint32_t c = 0; c < 4; c++)
            if (mask & (1u << c)) {
                base[((size_t)ix[l] * 4 + c) * n + l] = lane[c];
                if (s->prec)
                    sb_interp_precision_write_word(s, base + ((size_t)ix[l] * 4 + c) * n + l, value[c], l);
            }
    }
    return true;
}

/* o# (index[0], relative allowed; outside the registers: dropped), oDepth, oMask and
 * oStencilRef (lane x). */
static bool store_output(struct interp_state *s, const struct sb_ir_operand *dst, uint32_t mask,
                         const uint32_t *const value[4])
{
    uint32_t n = s->lanes;
    if (dst->file == SB_IR_FILE_COVERAGE_OUT) {
        if (!s->coverage) {
            sb_interp_unsupported(s, "writing oMask outside a pixel shader");
            return false;
        }
        if (mask & 1u)
            write_lanes(s, s->coverage, value[0]);
        return true;
    }
    if (dst->file == SB_IR_FILE_STENCIL_REF) {
        if (!s->stencil_ref) {
            sb_interp_unsupported(s, "writing oStencilRef outside a pixel shader");
            return false;
        }
        /* The whole 32-bit word is kept; the output merger's 8-bit truncation is the
         * comparer's business (D3D and Vulkan both take the low bits). */
        if (mask & 1u)
            write_lanes(s, s->stencil_ref, value[0]);
        return true;
    }
    if (dst->file != SB_IR_FILE_OUTPUT) {
        if (!s->depth) {
            sb_interp_unsupported(s, "writing oDepth outside a pixel shader");
            return false;
        }
        if (mask & 1u)
            write_lanes(s, s->depth, value[0]);
        return true;
    }
    if (!s->io_out || dst->index_count != 1) {
        sb_interp_unsupported(s, "this o# destination");
        return false;
    }
    if (!dst->index[0].relative) {
        if (dst->index[0].offset >= s->out_regs)
            return true;
        for (uint32_t c = 0; c < 4; c++)
            if (mask & (1u << c))
                write_lanes(s, s->io_out + ((size_t)dst->index[0].offset * 4 + c) * n, value[c]);
        return true;
    }
    const uint32_t *ix = sb_interp_index(s, &dst->index[0]);
    if (!ix)
        return false;
    for (uint32_t l = 0; l < n; l++) {
        if (!s->active[l] || ix[l] >= s->out_regs)
            continue;
        uint32_t lane[4]; /* every component read before any is written */
        for (uint32_t c = 0; c < 4; c++)
            lane[c] = (mask & (1u << c)) ? value[c][l] : 0;
        for (uint32_t c = 0; c < 4; c++)
            if (mask & (1u << c)) {
                s->io_out[((size_t)ix[l] * 4 + c) * n + l] = lane[c];
                if (s->prec)
                    sb_interp_precision_write_word(s, s->io_out + ((size_t)ix[l] * 4 + c) * n + l, value[c], l);
            }
    }
    return true;
}

/* The lane array component c of a directly addressed r#/x#/o# destination, or NULL (o# is a
 * source too in a hull shader's patch-constant phases, where vpc# reads it). */
static const uint32_t *destination_array(const struct interp_state *s, const struct sb_ir_operand *dst, uint32_t c)
{
    if (dst->file == SB_IR_FILE_TEMP && dst->index_count >= 1 && !dst->index[0].relative &&
        dst->index[0].offset < s->temp_count)
        return s->temp[(size_t)dst->index[0].offset * 4 + c];
    if (dst->file == SB_IR_FILE_INDEXABLE_TEMP && dst->index_count >= 2 && !dst->index[1].relative &&
        dst->index[0].offset < s->xtemp_ids && s->xtemps[dst->index[0].offset] &&
        dst->index[1].offset < s->xtemp_count[dst->index[0].offset])
        return s->xtemps[dst->index[0].offset] + ((size_t)dst->index[1].offset * 4 + c) * s->lanes;
    if (dst->file == SB_IR_FILE_OUTPUT && s->io_out && dst->index_count == 1 && !dst->index[0].relative &&
        dst->index[0].offset < s->out_regs)
        return s->io_out + ((size_t)dst->index[0].offset * 4 + c) * s->lanes;
    return NULL;
}

/* A value that is another written component of the destination itself (mov r0.xy, r0.yx) is
 * copied first, so that writing one component cannot change what the next one stores. */
static bool unalias(struct interp_state *s, const struct sb_ir_operand *dst, uint32_t mask, const uint32_t *v[4])
{
    const uint32_t *d[4] = { NULL, NULL, NULL, NULL };
    for (uint32_t c = 0; c < 4; c++)
        if (mask & (1u << c))
            d[c] = destination_array(s, dst, c);
    for (uint32_t c = 0; c < 4; c++) {
        if (!(mask & (1u << c)))
            continue;
        for (uint32_t o = 0; o < 4; o++) {
            if (o == c || !d[o] || d[o] != v[c])
                continue;
            uint32_t *copy = sb_interp_scratch(s);
            if (!copy)
                return false;
            memcpy(copy, v[c], s->lanes * sizeof(uint32_t));
            if (s->prec)
                sb_interp_precision_write(s, copy, v[c], true);
            for (uint32_t k = c; k < 4; k++) /* every later use of the same array */
                if (v[k] == d[o])
                    v[k] = copy;
            break;
        }
    }
    return true;
}

bool sb_interp_store(struct interp_state *s, const struct sb_ir_operand *dst, uint32_t mask,
                     const uint32_t *const value[4], uint32_t type)
{
    mask &= 0xFu;
    if (dst->file == SB_IR_FILE_NULL || !mask)
        return true;
    const uint32_t *v[4] = { value[0], value[1], value[2], value[3] };
    if (type == SB_IR_TYPE_FLOAT && s->inst && (s->inst->flags & SB_IR_FLAG_SATURATE))
        for (uint32_t c = 0; c < 4; c++)
            if ((mask & (1u << c)) && !(v[c] = saturate(s, v[c])))
                return false;
    if (!unalias(s, dst, mask, v))
        return false;
    if (dst->file == SB_IR_FILE_TEMP && dst->index_count >= 1 && !dst->index[0].relative &&
        dst->index[0].offset < s->temp_count) {
        for (uint32_t c = 0; c < 4; c++)
            if (mask & (1u << c))
                write_temp(s, &s->temp[(size_t)dst->index[0].offset * 4 + c], v[c]);
        return true;
    }
    if (dst->file == SB_IR_FILE_INDEXABLE_TEMP)
        return store_indexable(s, dst, mask, v);
    if (dst->file == SB_IR_FILE_OUTPUT || dst->file == SB_IR_FILE_DEPTH || dst->file == SB_IR_FILE_COVERAGE_OUT ||
        dst->file == SB_IR_FILE_STENCIL_REF || dst->file == SB_IR_FILE_DEPTH_GREATER_EQUAL || dst->file == SB_IR_FILE_DEPTH_LESS_EQUAL)
        return store_output(s, dst, mask, v);
    sb_interp_fail(s, SB_ERROR_RUN_UNSUPPORTED, "'%s': destination file %u is not writable "
                   "by the interpreter", s->inst ? sb_ir_op_name(s->inst->op) : "?", dst->file);
    return false;
}

bool sb_interp_store_replicated(struct interp_state *s, const struct sb_ir_operand *dst, const uint32_t *value,
                                uint32_t type)
{
    const uint32_t *v[4] = { value, value, value, value };
    return sb_interp_store(s, dst, dst->mask, v, type);
}

bool sb_interp_store_double(struct interp_state *s, const struct sb_ir_operand *dst, double *const value[2],
                            uint32_t n)
{
    const uint32_t *v[4] = { NULL, NULL, NULL, NULL };
    uint32_t k = 0, mask = dst->mask & 0xFu;
    for (uint32_t pair = 0; pair < 4; pair += 2) {
        if (!(mask & (3u << pair)))
            continue;
        if (k >= n)
            break;
        uint32_t *lo = sb_interp_scratch(s), *hi = sb_interp_scratch(s);
        if (!lo || !hi)
            return false;
        for (uint32_t l = 0; l < s->lanes; l++) {
            uint64_t bits;
            memcpy(&bits, &value[k][l], 8);
            lo[l] = (uint32_t)bits;
            hi[l] = (uint32_t)(bits >> 32);
        }
        v[pair] = lo;
        v[pair + 1] = hi;
        if (s->prec)
            sb_interp_precision_double(s, s->inst ? s->inst->op : 0, lo, hi);
        k++;
    }
    uint32_t written = (v[0] ? 3u : 0u) | (v[2] ? 12u : 0u);
    return sb_interp_store(s, dst, mask & written, v, SB_IR_TYPE_UINT);
}
