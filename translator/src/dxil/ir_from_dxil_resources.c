/* SPDX-License-Identifier: MIT */
/*
 * Resource handles and bindings (../shared/docs/dxil.md §4.5, §5.1): the
 * program's resource declarations from the entry's resource list, createHandle,
 * and the operand a handle gives the loads and stores.
 *
 * Declarations follow SM5.1 (translator/IR.md "Resources"): a record becomes
 * one range with id = its rangeId (dense per class, so unique like an SM5.1
 * `T3`), its lower bound, its size (0xFFFFFFFF unbounded) and its space; the
 * binding step maps ranges and spaces to sets and bindings as it does for
 * SM5.1 DXBC. A handle is no lane: it names a resource and an element of its
 * range, recorded per handle value (struct dxil_front_handle). DXIL's index
 * is the register number (lower bound + element); the IR's SM5.1 operand
 * counts from the range's first register, so a dynamic index becomes
 * `index[1] = relative - lower_bound` (mod 2^32), exactly what the SM4 front
 * end makes of `t[r0.x + 2]`. A one-register resource keeps the SM5.0 form
 * (index[0] only), which both consumers read as its lower bound.
 * What a resource of each kind is declared as lives in
 * ir_from_dxil_resource_kinds.c (dxil_front_resource_kind).
 */
#include "ir_from_dxil_private.h"
#include "shaderbridge/translate.h"
#include "translator/dxil_opcodes.h"

bool dxil_front_handle(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t i,
                       const struct dxil_front_handle **out)
{
    uint32_t value = 0;
    if (!dxil_front_arg(f, in, i, &value))
        return false;
    const struct sb_bc_function *fn = f->function;
    bool local = value >= fn->first_value && value - fn->first_value < fn->value_count;
    if (!local || !f->handles || !f->handles[value - fn->first_value].defined)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a handle that is not the result of createHandle, "
                               "createHandleFromBinding, createHandleFromHeap or annotateHandle "
                               "(phi, select)");
    *out = &f->handles[value - fn->first_value];
    return true;
}

/* A handle an operation may use: not a heap handle still waiting for its annotateHandle. */
static bool usable_handle(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t i,
                          const struct dxil_front_handle **out)
{
    if (!dxil_front_handle(f, in, i, out))
        return false;
    if ((*out)->heap != DXIL_FRONT_NOT_HEAP)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "a descriptor-heap handle used without annotateHandle");
    return true;
}

bool dxil_front_handle_operand(struct dxil_front *f, const struct sb_bc_instruction *in,
                               uint32_t i, const struct sb_ir_resource **resource,
                               struct sb_ir_operand *operand)
{
    const struct dxil_front_handle *h = NULL;
    if (!usable_handle(f, in, i, &h))
        return false;
    const struct sb_ir_resource *r = &f->program->resources[h->resource];
    struct sb_ir_operand op = dxil_front_resource_operand(r);
    if (r->count != 1) {
        op.index_count = 2;
        op.index[1].offset = h->element;
        op.non_uniform = h->non_uniform;
        if (h->index_value != DXIL_FRONT_NONE) {
            struct sb_ir_operand *relative = dxil_front_alloc(f, 1, sizeof(*relative));
            if (!relative || !dxil_front_src(f, h->index_value, 0, relative))
                return false;
            op.index[1].offset = 0u - r->lower_bound;
            op.index[1].relative = relative;
        }
    }
    *resource = r;
    *operand = op;
    return true;
}

bool dxil_front_handle_resource(struct dxil_front *f, const struct sb_bc_instruction *in,
                                uint32_t i, const struct sb_ir_resource **out)
{
    const struct dxil_front_handle *h = NULL;
    if (!usable_handle(f, in, i, &h))
        return false;
    const struct sb_ir_resource *r = &f->program->resources[h->resource];
    if (r->count != 1)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "this operation on an element of the resource array '%s' "
                               "is not translated yet", r->name ? r->name : "");
    *out = r;
    return true;
}

struct sb_ir_operand dxil_front_resource_operand(const struct sb_ir_resource *r)
{
    static const uint32_t files[4] = { SB_IR_FILE_CONSTANT_BUFFER, SB_IR_FILE_RESOURCE,
                                       SB_IR_FILE_SAMPLER, SB_IR_FILE_UAV };
    struct sb_ir_operand op = dxil_front_temp_src(0, 0);
    op.file = files[r->resource_class & 3];
    op.index[0].offset = r->id;
    for (unsigned i = 0; i < 4; i++)
        op.swizzle[i] = (uint8_t)i;
    return op;
}

uint32_t dxil_front_ir_resource_class(uint32_t dxil_class)
{
    static const uint32_t classes[4] = { SB_IR_RESOURCE_SRV, SB_IR_RESOURCE_UAV,
                                         SB_IR_RESOURCE_CBV, SB_IR_RESOURCE_SAMPLER };
    return classes[dxil_class & 3];
}

bool dxil_front_bind_handle(struct dxil_front *f, const struct sb_bc_instruction *in,
                            uint32_t resource, uint32_t index, uint32_t first, uint32_t last,
                            bool non_uniform)
{
    const struct sb_bc_function *fn = f->function;
    if (in->value < fn->first_value || in->value - fn->first_value >= fn->value_count)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "a handle call without a result");
    if (!f->handles &&
        !(f->handles = dxil_front_alloc(f, fn->value_count, sizeof(*f->handles))))
        return false;
    const struct sb_ir_resource *r = &f->program->resources[resource];
    struct dxil_front_handle h = { .resource = resource, .index_value = DXIL_FRONT_NONE,
                                   .non_uniform = non_uniform, .defined = true,
                                   .heap = DXIL_FRONT_NOT_HEAP };
    uint64_t constant = 0;
    if (dxil_front_const_int(f, index, &constant)) {
        if (constant < first || constant > last)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                                   "a handle of register %llu outside the range %u..%u",
                                   (unsigned long long)constant, first, last);
        h.element = (uint32_t)constant - r->lower_bound;
    } else {
        h.index_value = index;
    }
    f->handles[in->value - fn->first_value] = h;
    f->value_resource[in->value - fn->first_value] = resource;
    return true;
}

/* The last register of a declared range (UINT32_MAX when unbounded or past 2^32). */
static uint32_t range_last(const struct sb_ir_resource *r)
{
    return r->count == UINT32_MAX || r->count > UINT32_MAX - r->lower_bound
               ? UINT32_MAX
               : r->lower_bound + r->count - 1;
}

/* createHandle(class, rangeId, index, nonUniform): element `index - lower bound` of the
 * range with that record ID. */
bool dxil_front_create_handle(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    uint64_t cls = 0, range = 0, non_uniform = 0;
    uint32_t index = 0;
    if (!dxil_front_const_arg(f, in, 1, &cls) || !dxil_front_const_arg(f, in, 2, &range) ||
        !dxil_front_arg(f, in, 3, &index) || !dxil_front_const_arg(f, in, 4, &non_uniform))
        return false;
    if (cls > 3)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "createHandle of class %llu",
                               (unsigned long long)cls);
    for (uint32_t i = 0; i < f->program->resource_count; i++) {
        const struct sb_ir_resource *r = &f->program->resources[i];
        if (r->resource_class != dxil_front_ir_resource_class((uint32_t)cls) || r->id != range)
            continue;
        return dxil_front_bind_handle(f, in, i, index, r->lower_bound, range_last(r),
                                      non_uniform != 0);
    }
    return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                           "createHandle of class %llu range %llu: no such resource",
                           (unsigned long long)cls, (unsigned long long)range);
}

bool dxil_front_declare_bindings(struct dxil_front *f, struct sb_ir_resource *out)
{
    const struct sb_dxil_resource_list *list = &f->entry->resources;
    for (uint32_t i = 0; i < list->count; i++) {
        const struct sb_dxil_resource *d = &list->resources[i];
        struct sb_ir_resource *r = &out[i];
        if (d->resource_class > 3)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "resource class %u",
                                   d->resource_class);
        /* An empty range, or one past register 2^32 - 1, names no register D3D can bind. */
        if (d->range_size == 0 ||
            (d->range_size != UINT32_MAX && d->range_size - 1 > UINT32_MAX - d->lower_bound))
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                                   "resource '%s': %u registers from %u", d->name,
                                   d->range_size, d->lower_bound);
        /* AMD AGS's magic UAV (docs §5.4) is declared like the others so its handles bind;
         * ir_from_dxil_ags.c lowers the intrinsics and then removes the declaration. */
        /* Heap views own these spaces and IDs (ir_from_dxil_heap.c): a record there would
         * alias them. */
        if (d->space == SB_DESCRIPTOR_HEAP_SPACE || d->space == SB_SAMPLER_HEAP_SPACE ||
            d->id >= DXIL_FRONT_HEAP_VIEW_ID_BASE)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                                   "resource '%s' with record ID %u in space 0x%x: IDs from 0x%x "
                                   "and the descriptor-heap spaces are the heap views'",
                                   d->name, d->id, d->space, DXIL_FRONT_HEAP_VIEW_ID_BASE);
        for (uint32_t k = 0; k < i; k++)
            if (out[k].resource_class == dxil_front_ir_resource_class(d->resource_class) &&
                out[k].id == d->id)
                return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                                       "two resources of class %u with record ID %u",
                                       d->resource_class, d->id);
        r->resource_class = dxil_front_ir_resource_class(d->resource_class);
        r->id = d->id;
        r->lower_bound = d->lower_bound;
        r->count = d->range_size;
        r->space = d->space;
        r->name = sb_ir_strdup(f->arena, d->name);
    }
    return true;
}

bool dxil_front_declare_resources(struct dxil_front *f)
{
    const struct sb_dxil_resource_list *list = &f->entry->resources;
    struct sb_ir_resource *out = dxil_front_alloc(f, list->count, sizeof(*out));
    if (!out || !dxil_front_declare_bindings(f, out))
        return false;
    for (uint32_t i = 0; i < list->count; i++)
        if (!dxil_front_resource_kind(f, &list->resources[i], &out[i]))
            return false;
    f->program->resource_count = list->count;
    f->program->resources = out;
    return true;
}
