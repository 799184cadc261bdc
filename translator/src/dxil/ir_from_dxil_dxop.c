/* SPDX-License-Identifier: MIT */
/*
 * dx.op calls -> IR (../shared/docs/dxil.md §3, §5) and the resource
 * declarations they address. A handle (createHandle) is no lane: it names
 * one of the program's resources, which the loads and stores use as their
 * t#/u#/cb# operand. This slice lowers the compute system values,
 * createHandle of a single-register binding, cbufferLoadLegacy and raw
 * buffer loads/stores; any other dx.op refuses with its name.
 */
#include "ir_from_dxil_private.h"
#include "translator/dxil_opcodes.h"
#include "translator/dxil_ops.h"

/* Argument i of a dx.op call; 0 is the opcode itself (operands[0] is the callee). */
static bool arg(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t i,
                uint32_t *value)
{
    if (1 + i >= in->operand_count)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "dx.op call lacks argument %u", i);
    *value = in->operands[1 + i];
    return true;
}

static bool const_arg(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t i,
                      uint64_t *out)
{
    uint32_t value = 0;
    if (!arg(f, in, i, &value))
        return false;
    if (!dxil_front_const_int(f, value, out))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "dx.op argument %u must be a constant here", i);
    return true;
}

/* The program resource a handle value names. */
static bool handle_resource(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t i,
                            const struct sb_ir_resource **out)
{
    uint32_t value = 0;
    if (!arg(f, in, i, &value))
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

static struct sb_ir_operand resource_operand(const struct sb_ir_resource *r)
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
static bool create_handle(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    uint64_t cls = 0, range = 0, index = 0;
    if (!const_arg(f, in, 1, &cls) || !const_arg(f, in, 2, &range) || !const_arg(f, in, 3, &index))
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

static bool result_temp(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t lanes,
                        uint32_t *temp)
{
    if (dxil_front_type_lanes(f, in->type) != lanes)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a dx.op overload without %u 32-bit result lanes", lanes);
    *temp = dxil_front_value_temp(f, in->value);
    return *temp != DXIL_FRONT_NONE;
}

/* threadId & co: lane `component` of the system-value register. */
static bool system_value(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t file,
                         bool has_component)
{
    uint64_t component = 0;
    uint32_t temp = 0;
    if ((has_component && !const_arg(f, in, 1, &component)) || !result_temp(f, in, 1, &temp))
        return false;
    if (component > 2)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "component %llu of a thread id",
                               (unsigned long long)component);
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0x1);
    struct sb_ir_operand src = dxil_front_temp_src(0, (uint32_t)component);
    f->system_values |= 1u << (file - SB_IR_FILE_THREAD_ID);
    src.file = file;
    src.index_count = 0;
    return dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, &src, 1) != NULL;
}

/* cbufferLoadLegacy(handle, row): the 16-byte row as four lanes. */
static bool cbuffer_load_legacy(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    const struct sb_ir_resource *r = NULL;
    uint32_t row = 0, temp = 0;
    if (!handle_resource(f, in, 1, &r) || !arg(f, in, 2, &row) || !result_temp(f, in, 4, &temp))
        return false;
    if (r->resource_class != SB_IR_RESOURCE_CBV)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "cbufferLoadLegacy on a non-CBV");
    struct sb_ir_operand src = resource_operand(r);
    src.index_count = 2;
    uint64_t constant_row;
    if (dxil_front_const_int(f, row, &constant_row)) {
        src.index[1].offset = (uint32_t)constant_row;
    } else {
        struct sb_ir_operand *relative = dxil_front_alloc(f, 1, sizeof(*relative));
        if (!relative || !dxil_front_src(f, row, 0, relative))
            return false;
        src.index[1].relative = relative;
    }
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0xF);
    return dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, &src, 1) != NULL;
}

static bool require_raw(struct dxil_front *f, const struct sb_ir_resource *r, const char *what)
{
    if (r->kind != SB_IR_RESOURCE_KIND_RAW ||
        (r->resource_class != SB_IR_RESOURCE_UAV && r->resource_class != SB_IR_RESOURCE_SRV))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "%s on a typed or structured buffer is not translated yet", what);
    return true;
}

/* Stores of a raw buffer: bufferStore(handle, offset, undef, v0..v3, mask) and
 * rawBufferStore(handle, offset, undef, v0..v3, mask, alignment). The written lanes
 * must be x, xy, xyz or xyzw: the IR writes the mask's lanes from the value's in order. */
static bool raw_store(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    const struct sb_ir_resource *r = NULL;
    uint32_t offset = 0;
    uint64_t mask = 0;
    if (!handle_resource(f, in, 1, &r) || !require_raw(f, r, "a store") ||
        !arg(f, in, 2, &offset) || !const_arg(f, in, 8, &mask))
        return false;
    if (r->resource_class != SB_IR_RESOURCE_UAV)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "a store to a read-only buffer");
    if (mask != 1 && mask != 3 && mask != 7 && mask != 15)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "store write mask 0x%llx",
                               (unsigned long long)mask);
    uint32_t value_temp = dxil_front_new_temp(f);
    for (uint32_t lane = 0; lane < 4; lane++) {
        uint32_t value = 0;
        struct sb_ir_operand src;
        if (!(mask & (1u << lane)))
            continue;
        if (!arg(f, in, 4 + lane, &value) || !dxil_front_src(f, value, 0, &src))
            return false;
        struct sb_ir_operand dst = dxil_front_temp_dst(value_temp, (uint8_t)(1u << lane));
        if (!dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, &src, 1))
            return false;
    }
    struct sb_ir_operand dst = resource_operand(r), src[2];
    dst.mask = (uint8_t)mask;
    if (!dxil_front_src(f, offset, 0, &src[0]))
        return false;
    src[1] = dxil_front_temp_src(value_temp, 0);
    for (unsigned i = 0; i < 4; i++)
        src[1].swizzle[i] = (uint8_t)i;
    return dxil_front_emit(f, SB_IR_OP_STORE_RAW, &dst, 1, src, 2) != NULL;
}

/* Loads of a raw buffer: bufferLoad(handle, offset, undef) / rawBufferLoad(handle,
 * offset, undef, mask, alignment) -> a ResRet whose four value lanes are read. */
static bool raw_load(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    const struct sb_ir_resource *r = NULL;
    uint32_t offset = 0, temp = 0;
    if (!handle_resource(f, in, 1, &r) || !require_raw(f, r, "a load") ||
        !arg(f, in, 2, &offset) || !result_temp(f, in, 4, &temp))
        return false;
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0xF), src[2];
    if (!dxil_front_src(f, offset, 0, &src[0]))
        return false;
    src[1] = resource_operand(r);
    return dxil_front_emit(f, SB_IR_OP_LD_RAW, &dst, 1, src, 2) != NULL;
}

bool dxil_front_call(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    const struct sb_bc_function *callee = sb_bc_callee(f->module, f->function, in);
    uint64_t opcode = 0;
    if (!callee || !callee->name || strncmp(callee->name, "dx.op.", 6) != 0)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a call of %s (only dx.op calls are translated)",
                               callee && callee->name ? callee->name : "an unknown function");
    if (!const_arg(f, in, 0, &opcode))
        return false;
    switch (opcode) {
    case SB_DXIL_OP_THREAD_ID: return system_value(f, in, SB_IR_FILE_THREAD_ID, true);
    case SB_DXIL_OP_GROUP_ID: return system_value(f, in, SB_IR_FILE_THREAD_GROUP_ID, true);
    case SB_DXIL_OP_THREAD_ID_IN_GROUP:
        return system_value(f, in, SB_IR_FILE_THREAD_ID_IN_GROUP, true);
    case SB_DXIL_OP_FLATTENED_THREAD_ID_IN_GROUP:
        return system_value(f, in, SB_IR_FILE_THREAD_ID_IN_GROUP_FLATTENED, false);
    case SB_DXIL_OP_LOAD_INPUT: return dxil_front_load_input(f, in);
    case SB_DXIL_OP_STORE_OUTPUT: return dxil_front_store_output(f, in);
    case SB_DXIL_OP_CREATE_HANDLE: return create_handle(f, in);
    case SB_DXIL_OP_CBUFFER_LOAD_LEGACY: return cbuffer_load_legacy(f, in);
    case SB_DXIL_OP_BUFFER_STORE:
    case SB_DXIL_OP_RAW_BUFFER_STORE: return raw_store(f, in);
    case SB_DXIL_OP_BUFFER_LOAD:
    case SB_DXIL_OP_RAW_BUFFER_LOAD: return raw_load(f, in);
    default: {
        if (dxil_front_is_math(opcode))
            return dxil_front_math(f, in, opcode);
        const struct sb_dxil_op_info *info = sb_dxil_op_lookup((uint32_t)opcode);
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "dx.op %s (%llu) is not translated yet",
                               info && info->name ? info->name : "?", (unsigned long long)opcode);
    }
    }
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
        if (d->resource_class == SB_DXIL_RESOURCE_CLASS_CBUFFER) {
            r->cb_size = (d->cbuffer_size + 15) / 16;
        } else if (d->resource_class == SB_DXIL_RESOURCE_CLASS_SAMPLER) {
            r->sampler_mode = d->sampler_kind;
        } else if (d->kind == SB_DXIL_RESOURCE_KIND_RAW_BUFFER) {
            r->kind = SB_IR_RESOURCE_KIND_RAW;
        } else {
            const char *kind = sb_dxil_enum_value_name(SB_DXIL_ENUM_RESOURCE_KIND, d->kind);
            return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                                   "resource '%s' is a %s (kind %u): only raw buffers, cbuffers "
                                   "and samplers are translated yet", d->name,
                                   kind ? kind : "resource of unknown kind", d->kind);
        }
    }
    f->program->resource_count = list->count;
    f->program->resources = out;
    return true;
}

bool dxil_front_declare_system_values(struct dxil_front *f)
{
    static const uint32_t files[4] = { SB_IR_FILE_THREAD_ID, SB_IR_FILE_THREAD_GROUP_ID,
                                       SB_IR_FILE_THREAD_ID_IN_GROUP,
                                       SB_IR_FILE_THREAD_ID_IN_GROUP_FLATTENED };
    if (!f->system_values)
        return true;
    /* After the vs/ps signature elements, when there are any. */
    uint32_t n = f->program->signature_count;
    struct sb_ir_signature_element *out = dxil_front_alloc(f, n + 4, sizeof(*out));
    if (out && n)
        memcpy(out, f->program->signature, n * sizeof(*out));
    for (uint32_t i = 0; out && i < 4; i++) {
        if (!(f->system_values & (1u << (files[i] - SB_IR_FILE_THREAD_ID))))
            continue;
        struct sb_ir_signature_element *e = &out[n++];
        e->kind = SB_IR_SIGNATURE_INPUT;
        e->semantic = "";
        e->file = files[i];
        e->mask = e->used_mask = files[i] == SB_IR_FILE_THREAD_ID_IN_GROUP_FLATTENED ? 0x1 : 0x7;
        e->component_type = SB_IR_TYPE_UINT;
    }
    f->program->signature = out;
    f->program->signature_count = n;
    return out != NULL;
}
