/* SPDX-License-Identifier: MIT */
/*
 * Resource handles and bindings (../shared/docs/dxil.md §5): the program's
 * resource declarations from the entry's resource list, and the handles the
 * dx.op calls create. A handle is no lane: it names one of the program's
 * resources, which the loads and stores use as their t#/u#/cb#/s# operand.
 * What a resource of each kind is declared as lives in
 * ir_from_dxil_resource_kinds.c (dxil_front_resource_kind).
 */
#include "ir_from_dxil_private.h"
#include "translator/dxil_opcodes.h"

/* The program resource a handle value names. */
bool dxil_front_handle_resource(struct dxil_front *f, const struct sb_bc_instruction *in,
                                uint32_t i, const struct sb_ir_resource **out)
{
    uint32_t value = 0;
    if (!dxil_front_arg(f, in, i, &value))
        return false;
    const struct sb_bc_function *fn = f->function;
    uint32_t index = value >= fn->first_value && value - fn->first_value < fn->value_count
                         ? f->value_resource[value - fn->first_value]
                         : DXIL_FRONT_NONE;
    if (index == DXIL_FRONT_NONE)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a handle that is not a createHandle result");
    *out = &f->program->resources[index];
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

static const uint32_t ir_class_of_dxil[4] = { SB_IR_RESOURCE_SRV, SB_IR_RESOURCE_UAV,
                                              SB_IR_RESOURCE_CBV, SB_IR_RESOURCE_SAMPLER };

/* createHandle(class, rangeId, index, nonUniform): the resource of that range; only
 * single-register ranges indexed by a constant for now. */
bool dxil_front_create_handle(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    uint64_t cls = 0, range = 0, index = 0;
    if (!dxil_front_const_arg(f, in, 1, &cls) || !dxil_front_const_arg(f, in, 2, &range) ||
        !dxil_front_const_arg(f, in, 3, &index))
        return false;
    const struct sb_bc_function *fn = f->function;
    if (cls > 3 || in->value < fn->first_value || in->value - fn->first_value >= fn->value_count)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "createHandle of class %llu",
                               (unsigned long long)cls);
    for (uint32_t i = 0; i < f->program->resource_count; i++) {
        const struct sb_dxil_resource *d = &f->entry->resources.resources[i];
        if (d->resource_class != cls || d->id != range)
            continue;
        if (index != d->lower_bound)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                                   "createHandle of element %llu of a resource array",
                                   (unsigned long long)(index - d->lower_bound));
        f->value_resource[in->value - fn->first_value] = i;
        return true;
    }
    return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                           "createHandle of class %llu range %llu: no such resource",
                           (unsigned long long)cls, (unsigned long long)range);
}

bool dxil_front_declare_resources(struct dxil_front *f)
{
    const struct sb_dxil_resource_list *list = &f->entry->resources;
    struct sb_ir_resource *out = dxil_front_alloc(f, list->count, sizeof(*out));
    if (!out)
        return false;
    for (uint32_t i = 0; i < list->count; i++) {
        const struct sb_dxil_resource *d = &list->resources[i];
        struct sb_ir_resource *r = &out[i];
        if (d->resource_class > 3)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "resource class %u",
                                   d->resource_class);
        /* The program is given SM5.0 operands (index[0] = register), so a binding must
         * be one register of space 0 until SM5.1-style ranges are lowered. */
        if (d->space != 0 || d->range_size != 1)
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                                   "resource '%s': space %u, %u registers (only single registers "
                                   "of space 0 are translated yet)", d->name, d->space,
                                   d->range_size);
        r->resource_class = ir_class_of_dxil[d->resource_class];
        r->id = r->lower_bound = d->lower_bound;
        r->count = 1;
        r->name = sb_ir_strdup(f->arena, d->name);
        if (!dxil_front_resource_kind(f, d, r))
            return false;
    }
    f->program->resource_count = list->count;
    f->program->resources = out;
    return true;
}
