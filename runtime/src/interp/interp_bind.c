/* SPDX-License-Identifier: MIT */
/*
 * The typed-resource binding of a t#/s#/u# operand (sb_interp_bind), shared by
 * typed loads and stores (interp_texture.c), sampling (interp_sample.c) and
 * raw/structured access (interp_memory.c): the declaration, a relatively
 * indexed SM5.1 range (an index past a bounded range is an error, as one past
 * the registers bound for an unbounded one), and class linkage's relatively
 * chosen t[r]/s[r]/u[r], which bind register r when every active lane agrees on
 * it (the default instances give r = 0).
 */
#include "interp_private.h"

static const char class_letter[4][3] = { "cb", "t", "s", "u" };

static uint32_t class_of(uint32_t file)
{
    return file == SB_IR_FILE_UAV ? SB_IR_RESOURCE_UAV : file == SB_IR_FILE_SAMPLER ? SB_IR_RESOURCE_SAMPLER
                                                                                    : SB_IR_RESOURCE_SRV;
}

/* Class linkage's t[r] / s[r] / u[r] (SM5.0; r usually from this[] data, zero under the default
 * instances): the declaration of register r, which must be the same in every active lane. */
static const struct sb_ir_resource *linkage_decl(struct interp_state *s, const struct sb_ir_operand *op)
{
    const uint32_t *r = sb_interp_index(s, &op->index[0]);
    uint32_t reg = UINT32_MAX;
    for (uint32_t l = 0; r && l < s->lanes; l++) {
        if (!s->active[l])
            continue;
        if (reg != UINT32_MAX && r[l] != reg) {
            sb_interp_unsupported(s, "a class-linkage resource register that differs between invocations");
            return NULL;
        }
        reg = r[l];
    }
    const struct sb_ir_resource *d = r ? sb_interp_decl(s, op->file, reg) : NULL;
    if (r && !d)
        sb_interp_unsupported(s, "a class-linkage resource register that names no declared resource");
    return d;
}

bool sb_interp_bind(struct interp_state *s, const struct sb_ir_operand *op, uint32_t lane, struct interp_binding *out)
{
    /* Callers bind lane 0 for what every lane shares (declaration, stride, format) before their
     * per-lane loop. With a per-lane range index that lane may be inactive, its index anything
     * (a branch guarding the index, as dxc emits `if (t >= 4) u[t - 4]`): take an active lane's. */
    if (lane < s->lanes && !s->active[lane] && op->index_count >= 2 && op->index[1].relative)
        for (uint32_t l = 0; l < s->lanes; l++)
            if (s->active[l]) {
                lane = l;
                break;
            }
    return sb_interp_bind_indexed(s, op, NULL, lane, out);
}

bool sb_interp_bind_indexed(struct interp_state *s, const struct sb_ir_operand *op, const uint32_t *index,
                            uint32_t lane, struct interp_binding *out)
{
    if (op->index_count < 1) {
        sb_interp_unsupported(s, "a resource operand without a register");
        return false;
    }
    const struct sb_ir_resource *d = op->index[0].relative ? linkage_decl(s, op)
                                                           : sb_interp_decl(s, op->file, op->index[0].offset);
    uint32_t cls = class_of(op->file);
    if (op->index[0].relative && !d)
        return false;
    if (!d) {
        sb_interp_fail(s, SB_ERROR_RUN_BINDING, "%s%u is not declared", class_letter[cls], op->index[0].offset);
        return false;
    }
    uint32_t reg = d->lower_bound;
    if (op->index_count >= 2) {
        if (op->index[1].relative && index) {
            reg += index[lane];
        } else if (op->index[1].relative) {
            if (s->bind_op != op) {
                s->bind_index = sb_interp_index(s, &op->index[1]);
                s->bind_op = s->bind_index ? op : NULL;
                if (!s->bind_index)
                    return false;
                if (s->nonuniform)
                    sb_interp_nonuniform_check(s, op, s->bind_index);
            }
            reg += s->bind_index[lane];
        } else {
            reg += op->index[1].offset;
        }
    }
    /* Past a bounded range lies another range's register or nothing: D3D leaves the access
     * undefined and the module indexes an array of `count`, so it is not bound either. */
    uint32_t count = d->count ? d->count : 1;
    if (d->count != UINT32_MAX && reg - d->lower_bound >= count) {
        sb_interp_fail(s, SB_ERROR_RUN_BINDING, "%s%u (space %u) is outside the range %s%u..%u", class_letter[cls],
                       reg, d->space, class_letter[cls], d->lower_bound, d->lower_bound + count - 1);
        return false;
    }
    out->decl = d;
    out->rt = sb_interp_find(s, cls, d->space, reg);
    if (!out->rt) {
        sb_interp_fail(s, SB_ERROR_RUN_BINDING, "%s%u (space %u) is not bound", class_letter[cls], reg, d->space);
        return false;
    }
    return true;
}
