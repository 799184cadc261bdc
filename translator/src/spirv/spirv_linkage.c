/* SPDX-License-Identifier: MIT */
/*
 * SM5.0 class linkage in the SPIR-V back end (IR.md §Class linkage): the
 * interfaces, fcall, `this` and the resources that class code picks through
 * its instance data.
 *
 * WHY SPECIALISATION CONSTANTS. In D3D11 the application binds a class
 * instance to every interface slot when it sets the shader; the instance
 * chooses the function table the slot's fcalls run and supplies four DWORDs
 * of "this" data (constant-buffer id, vector offset in it, texture slot,
 * sampler slot: the listings read them as this[i].x/.y/.z/.w and use them as
 * cb[this.x][this.y + n], t[this.z], s[this.w]). Vulkan has no such binding
 * point, but the instances are fixed per pipeline, which is exactly what
 * specialisation constants are: the application fills VkSpecializationInfo
 * and the driver folds the dispatch away.
 *
 * THE LOWERING
 *   Interface slots. Interface fp#n declared `fp n[len]` covers slots
 *   n .. n+len-1 (fxc numbers interfaces by their first slot, so the ids of an
 *   array's successors are skipped). slot_count = the largest n + len, raised
 *   to cover every constant this[i]; at most 253 (D3D11's interface slots).
 *   Every slot s gets five OpSpecConstant uint, default 0:
 *       SpecId SB_SPEC_ID_CLASS_LINKAGE + 5 * s + 0   table selector: index into
 *                                                     the interface's table list
 *       SpecId SB_SPEC_ID_CLASS_LINKAGE + 5 * s + 1..4 this data x, y, z, w
 *   so the defaults are "first table, zero instance data" (what fxc's own
 *   default binding does). translate.h reports slot_count
 *   (sb_translation::interface_slot_count).
 *   fcall fp n[e][site]. The selector of slot n+e (a relative e reads a Private
 *   uint[len] array initialised with the slot selectors, the index clamped to
 *   len-1) drives OpSelectionMerge + OpSwitch: case k calls the function of
 *   body tables[k].bodies[site]; the default is table 0, so a selector out of
 *   range behaves as the default instance. One table: a plain OpFunctionCall.
 *   this[i]. The four this-data constants of slot i as a uvec4 bitcast to the
 *   float lanes of the register model; a relative i reads a Private
 *   uvec4[slot_count] array initialised from them (index clamped).
 *   cb[r][v] (relatively chosen buffer). Every declared single cb# is read at
 *   vector v and the one whose register equals r is selected (OpSelect);
 *   no match reads 0, as an unbound D3D buffer does.
 *   t[r] / s[r] / u[r] (SM5.0 form, relatively chosen register). The whole
 *   instruction is emitted once per declared register of that class whose
 *   kind and dimension fit the instruction, under an OpSwitch on r; the
 *   default writes 0 to the value destination (and the residency status), the
 *   D3D result of an unbound resource. Two dynamic operands nest.
 */
#include "spirv_linkage_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "error.h"

/** D3D11_SHADER_MAX_INTERFACES: interface slots a shader may have. */
#define MAX_SLOTS 253u

/* Raises *count to cover the constant this[] indices of a function's operands; returns the
 * instruction whose index passes the slot limit, or NULL. */
static const struct sb_ir_instruction *scan_this(const struct sb_ir_function *fn, uint32_t *count)
{
    for (uint32_t i = 0; i < fn->instruction_count; i++) {
        const struct sb_ir_instruction *in = &fn->instructions[i];
        for (uint32_t k = 0; k < in->src_count; k++) {
            const struct sb_ir_operand *op = &in->src[k];
            if (op->file != SB_IR_FILE_THIS_POINTER || op->index_count < 1 || op->index[0].relative)
                continue;
            if (op->index[0].offset >= MAX_SLOTS)
                return in;
            if (op->index[0].offset + 1 > *count)
                *count = op->index[0].offset + 1;
        }
    }
    return NULL;
}

enum sb_result sb_spv_linkage_interface_slot_count(const struct sb_ir_program *program, uint32_t *count,
                                                   struct sb_error *error)
{
    uint32_t n = 0;
    *count = 0;
    for (uint32_t i = 0; i < program->interface_count; i++) {
        const struct sb_ir_interface *fp = &program->interfaces[i];
        if (fp->id >= MAX_SLOTS || fp->array_length > MAX_SLOTS - fp->id) {
            return sb_error_set(error, SB_ERROR_TRANSLATE_INVALID, 0, SB_ERROR_NO_INSTR,
                                "interface fp%u[%u] lies beyond the %u interface slots", fp->id,
                                fp->array_length, MAX_SLOTS);
        }
        if (fp->id + fp->array_length > n)
            n = fp->id + fp->array_length;
    }
    *count = n;
    return SB_SUCCESS;
}

enum sb_result sb_spv_linkage_slot_count(const struct sb_ir_program *program, uint32_t *count,
                                         struct sb_error *error)
{
    uint32_t n;
    *count = 0;
    enum sb_result r = sb_spv_linkage_interface_slot_count(program, &n, error);
    if (r != SB_SUCCESS)
        return r;
    for (uint32_t f = 0; f < program->function_count; f++) {
        const struct sb_ir_instruction *bad = scan_this(&program->functions[f], &n);
        if (bad) {
            return sb_error_set(error, SB_ERROR_TRANSLATE_INVALID, bad->offset, SB_ERROR_NO_INSTR,
                                "this[] index beyond the %u interface slots", MAX_SLOTS);
        }
    }
    *count = n;
    return SB_SUCCESS;
}

static const char *const field_names[SB_CLASS_LINKAGE_FIELDS] = {
    "table", "this_x", "this_y", "this_z", "this_w",
};

enum sb_result sb_spv_linkage_declare(struct sb_spv_context *ctx)
{
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_ir_program *p = ctx->program;
    uint32_t slots;
    struct sb_error local;
    /* The operand scan of sb_spv_registers_declare (run before) saw whether this[] occurs. */
    enum sb_result r = ctx->this_pointer_used ? sb_spv_linkage_slot_count(p, &slots, &local)
                                              : sb_spv_linkage_interface_slot_count(p, &slots, &local);
    if (r != SB_SUCCESS) {
        /* The offending instruction's offset (0 for a declaration) must survive. */
        struct sb_ir_instruction at = { .offset = local.offset };
        return sb_spv_fail(ctx, local.code, &at, "%s", local.message);
    }
    ctx->interface_slot_count = slots;
    if (!slots)
        return SB_SUCCESS;
    struct linkage_state *st = sb_spv_zalloc(ctx, 1, sizeof(*st));
    if (st) {
        st->spec = sb_spv_zalloc(ctx, (size_t)slots * SB_CLASS_LINKAGE_FIELDS, sizeof(uint32_t));
        st->selector_arrays = sb_spv_zalloc(ctx, p->interface_count ? p->interface_count : 1, sizeof(uint32_t));
    }
    ctx->linkage_state = st;
    if (!st || !st->spec || !st->selector_arrays)
        return sb_spv_fail(ctx, SB_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    st->slot_count = slots;
    for (uint32_t s = 0; s < slots; s++)
        for (uint32_t f = 0; f < SB_CLASS_LINKAGE_FIELDS; f++) {
            uint32_t words[3] = { sb_spv_t_u32(ctx), sb_spv_id(b), 0 };
            sb_spv_emit(b, SB_SPV_SECTION_GLOBAL, SpvOpSpecConstant, words, 3);
            sb_spv_decorate1(b, words[1], SpvDecorationSpecId,
                             SB_SPEC_ID_CLASS_LINKAGE + SB_CLASS_LINKAGE_FIELDS * s + f);
            st->spec[s * SB_CLASS_LINKAGE_FIELDS + f] = words[1];
            if (ctx->debug_info) {
                char name[32];
                snprintf(name, sizeof(name), "slot%u_%s", s, field_names[f]);
                sb_spv_debug_name(ctx, words[1], name);
            }
        }
    return ctx->result;
}

static const struct sb_ir_interface *find_interface(const struct sb_ir_program *p, uint32_t id,
                                                    uint32_t *index)
{
    for (uint32_t i = 0; i < p->interface_count; i++)
        if (p->interfaces[i].id == id) {
            *index = i;
            return &p->interfaces[i];
        }
    return NULL;
}

static const struct sb_ir_function_table *find_table(const struct sb_ir_program *p, uint32_t id)
{
    for (uint32_t i = 0; i < p->function_table_count; i++)
        if (p->function_tables[i].id == id)
            return &p->function_tables[i];
    return NULL;
}

/* The table selector (uint) of interface operand fp n[e]. */
static uint32_t selector(struct sb_spv_context *ctx, const struct sb_ir_operand *op, uint32_t which,
                         const struct sb_ir_interface *fp)
{
    struct linkage_state *st = sb_spv_linkage_state(ctx);
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_ir_index *e = &op->index[1];
    if (!e->relative) {
        if (e->offset >= fp->array_length) {
            sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL,
                        "fcall fp%u[%u] is outside the interface's %u elements", fp->id, e->offset,
                        fp->array_length);
            return 0;
        }
        return st->spec[(fp->id + e->offset) * SB_CLASS_LINKAGE_FIELDS];
    }
    uint32_t array_type = sb_spv_type_array(b, sb_spv_t_u32(ctx), fp->array_length);
    uint32_t ptr_elem = sb_spv_type_pointer(b, sb_spv_spec_array_storage(ctx), sb_spv_t_u32(ctx));
    uint32_t *parts = sb_arena_alloc_uninit(ctx->scratch, fp->array_length, sizeof(*parts));
    if (!parts) {
        sb_spv_fail(ctx, SB_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
        return 0;
    }
    for (uint32_t k = 0; k < fp->array_length; k++)
        parts[k] = st->spec[(fp->id + k) * SB_CLASS_LINKAGE_FIELDS];
    uint32_t array = sb_spv_spec_array(ctx, array_type, parts, fp->array_length, &st->selector_arrays[which]);
    if (!array)
        return 0;
    uint32_t idx = sb_spv_clamped_index(ctx, e, fp->array_length);
    if (!idx)
        return 0;
    uint32_t ptr = sb_spv_access_chain(b, ptr_elem, array, &idx, 1);
    return sb_spv_load(b, sb_spv_t_u32(ctx), ptr);
}

/* The function index that table `table_id` runs for call site `site`; UINT32_MAX (recorded) if none. */
static uint32_t body_function(struct sb_spv_context *ctx, uint32_t table_id, uint32_t site)
{
    const struct sb_ir_program *p = ctx->program;
    const struct sb_ir_function_table *t = find_table(p, table_id);
    if (!t) {
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL, "function table ft%u is not declared",
                    table_id);
        return UINT32_MAX;
    }
    if (site >= t->body_count) {
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL,
                    "call site %u is outside the %u bodies of ft%u", site, t->body_count, table_id);
        return UINT32_MAX;
    }
    uint32_t body = t->bodies[site];
    if (body >= p->function_body_count || p->function_body_label[body] >= p->function_count ||
        p->function_body_label[body] == 0) {
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL, "function body fb%u has no label", body);
        return UINT32_MAX;
    }
    return p->function_body_label[body];
}

enum sb_result sb_spv_linkage_call(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_ir_program *p = ctx->program;
    struct linkage_state *st = sb_spv_linkage_state(ctx);
    const struct sb_ir_operand *op = inst->src_count ? &inst->src[0] : NULL;
    uint32_t which = 0;
    const struct sb_ir_interface *fp = NULL;
    if (!op || op->file != SB_IR_FILE_INTERFACE || op->index_count < 2)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "fcall without an interface operand");
    if (!st || !(fp = find_interface(p, op->index[0].offset, &which)))
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "fcall through fp%u, which is not declared",
                           op->index[0].offset);
    if (!fp->table_count)
        return sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "interface fp%u has no function table",
                           fp->id);
    uint32_t *functions = sb_arena_alloc_uninit(ctx->scratch, fp->table_count, sizeof(*functions));
    if (!functions)
        return sb_spv_fail(ctx, SB_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    for (uint32_t k = 0; k < fp->table_count; k++)
        if ((functions[k] = body_function(ctx, fp->tables[k], inst->target)) == UINT32_MAX)
            return ctx->result;
    uint32_t sel = selector(ctx, op, which, fp);
    if (!sel)
        return ctx->result;
    if (fp->table_count == 1) {
        sb_spv_op1(b, SpvOpFunctionCall, sb_spv_t_void(ctx), ctx->function_ids[functions[0]]);
        return ctx->result;
    }
    /* OpSwitch selector default(table 0) k -> table k; one block per table. */
    uint32_t merge = sb_spv_id(b);
    uint32_t *ops = sb_arena_alloc_uninit(ctx->scratch, 2 + 2 * (size_t)fp->table_count, sizeof(*ops));
    uint32_t *labels = sb_arena_alloc_uninit(ctx->scratch, fp->table_count, sizeof(*labels));
    if (!ops || !labels)
        return sb_spv_fail(ctx, SB_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    for (uint32_t k = 0; k < fp->table_count; k++)
        labels[k] = sb_spv_id(b);
    ops[0] = sel;
    ops[1] = labels[0];
    for (uint32_t k = 1; k < fp->table_count; k++) {
        ops[2 * k] = k;
        ops[2 * k + 1] = labels[k];
    }
    sb_spv_selection_merge(b, merge);
    sb_spv_op(b, SpvOpSwitch, ops, 2 * fp->table_count);
    for (uint32_t k = 0; k < fp->table_count; k++) {
        sb_spv_label(b, labels[k]);
        sb_spv_op1(b, SpvOpFunctionCall, sb_spv_t_void(ctx), ctx->function_ids[functions[k]]);
        sb_spv_branch(b, merge);
    }
    sb_spv_label(b, merge);
    return ctx->result;
}

/* ---- t[r] / s[r] / u[r]: one copy of the instruction per fitting register -------------------- */

/* An SM5.0 resource operand whose register is chosen at run time. */
static bool is_dynamic(const struct sb_ir_operand *op)
{
    return sb_spv_resource_class_of_file(op->file) != UINT32_MAX && op->index_count == 1 && op->index[0].relative;
}

/* Where the first dynamic operand is: dst[k] is k, src[k] is dst_count + k; UINT32_MAX when
 * there is none. */
static uint32_t first_dynamic(const struct sb_ir_operand *dst, uint32_t dst_count,
                              const struct sb_ir_operand *src, uint32_t src_count)
{
    for (uint32_t k = 0; k < dst_count; k++)
        if (is_dynamic(&dst[k]))
            return k;
    for (uint32_t k = 0; k < src_count; k++)
        if (is_dynamic(&src[k]))
            return dst_count + k;
    return UINT32_MAX;
}

/* Multisampled and buffer dimensions (../shared/docs/sm4-tokens.md §8.3) cannot be sampled. */
static bool samplable(uint32_t dimension)
{
    return dimension != 1 && dimension != 4 && dimension != 9 && dimension < 11;
}

/* May resource `res` stand in for the dynamic operand of `inst`? */
static bool fits_kind(const struct sb_ir_instruction *inst, const struct sb_ir_resource *res,
                      uint32_t cls)
{
    if (res->resource_class != cls || res->count != 1)
        return false;
    if (cls == SB_IR_RESOURCE_SAMPLER)
        return true;
    switch (inst->op) {
    case SB_IR_OP_LD_RAW: case SB_IR_OP_STORE_RAW:
        return res->kind == SB_IR_RESOURCE_KIND_RAW;
    case SB_IR_OP_LD_STRUCTURED: case SB_IR_OP_STORE_STRUCTURED:
        return res->kind == SB_IR_RESOURCE_KIND_STRUCTURED;
    default:
        break;
    }
    if (inst->op >= SB_IR_OP_ATOMIC_AND && inst->op <= SB_IR_OP_IMM_ATOMIC_UMIN)
        return res->kind != SB_IR_RESOURCE_KIND_TYPED || res->dimension == inst->resource_dimension ||
               !inst->resource_dimension;
    if (res->kind != SB_IR_RESOURCE_KIND_TYPED)
        return inst->op == SB_IR_OP_BUFINFO;
    if (inst->resource_dimension)
        return res->dimension == inst->resource_dimension;
    bool sampling = sb_ir_op_is_sample(inst->op) || inst->op == SB_IR_OP_LOD ||
                    (inst->op >= SB_IR_OP_GATHER4 && inst->op <= SB_IR_OP_GATHER4_PO_C);
    return !sampling || samplable(res->dimension);
}

/* fits_kind, for a resource with a variable whose register no earlier one repeats (OpSwitch
 * literals must differ). */
static bool fits(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst, uint32_t index,
                 uint32_t cls)
{
    const struct sb_ir_resource *all = ctx->program->resources;
    if (!ctx->resources[index].var || !fits_kind(inst, &all[index], cls))
        return false;
    for (uint32_t i = 0; i < index; i++)
        if (all[i].resource_class == cls && all[i].id == all[index].id && ctx->resources[i].var &&
            fits_kind(inst, &all[i], cls))
            return false;
    return true;
}

/* What an unbound resource gives: 0 in the value destinations (and residency status). */
static void store_unbound(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    const struct sb_ir_op_info *info = sb_ir_op_info(inst->op);
    for (uint32_t k = 0; k < inst->dst_count && k < 2; k++) {
        const struct sb_ir_operand *d = &inst->dst[k];
        if (!info || info->dst_kind[k] != SB_IR_KIND_VALUE || d->file == SB_IR_FILE_NULL)
            continue;
        uint32_t n = sb_spv_mask_count(d->mask);
        if (n)
            sb_spv_store_dst(ctx, inst, d, sb_spv_const_of(ctx, SB_IR_TYPE_UINT, n, 0),
                             SB_IR_TYPE_UINT);
    }
}

/* Emits `inst` (operands in dst/src, which it may rewrite) with every dynamic operand resolved. */
static enum sb_result emit_resolved(struct sb_spv_context *ctx, struct sb_ir_instruction *inst,
                                    struct sb_ir_operand *dst, struct sb_ir_operand *src)
{
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_ir_program *p = ctx->program;
    uint32_t at = first_dynamic(dst, inst->dst_count, src, inst->src_count);
    if (at == UINT32_MAX) {
        enum sb_result r = sb_spv_resource_instruction(ctx, inst);
        if (r == SB_ERROR_TRANSLATE_UNSUPPORTED && ctx->result == SB_SUCCESS)
            return sb_spv_unsupported(ctx, inst);
        return ctx->result;
    }
    struct sb_ir_operand *dyn = at < inst->dst_count ? &dst[at] : &src[at - inst->dst_count];
    uint32_t cls = sb_spv_resource_class_of_file(dyn->file);
    uint32_t count = 0;
    for (uint32_t i = 0; i < p->resource_count; i++)
        count += fits(ctx, inst, i, cls);
    if (!count) {
        store_unbound(ctx, inst);
        return ctx->result;
    }
    uint32_t reg = sb_spv_index_value(ctx, &dyn->index[0]);
    if (!reg)
        return ctx->result;
    uint32_t *ops = sb_arena_alloc_uninit(ctx->scratch, 2 + 2 * (size_t)count, sizeof(*ops));
    uint32_t *which = sb_arena_alloc_uninit(ctx->scratch, count, sizeof(*which));
    if (!ops || !which)
        return sb_spv_fail(ctx, SB_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
    uint32_t merge = sb_spv_id(b), fallback = sb_spv_id(b), n = 0;
    ops[0] = reg;
    ops[1] = fallback;
    for (uint32_t i = 0; i < p->resource_count; i++)
        if (fits(ctx, inst, i, cls)) {
            which[n] = i;
            ops[2 + 2 * n] = p->resources[i].id;
            ops[3 + 2 * n] = sb_spv_id(b);
            n++;
        }
    sb_spv_selection_merge(b, merge);
    sb_spv_op(b, SpvOpSwitch, ops, 2 + 2 * n);
    struct sb_ir_operand saved = *dyn;
    for (uint32_t k = 0; k < n && ctx->result == SB_SUCCESS; k++) {
        sb_spv_label(b, ops[3 + 2 * k]);
        dyn->index[0].offset = p->resources[which[k]].id;
        dyn->index[0].relative = NULL;
        emit_resolved(ctx, inst, dst, src);
        *dyn = saved;
        sb_spv_branch(b, merge);
    }
    sb_spv_label(b, fallback);
    store_unbound(ctx, inst);
    sb_spv_branch(b, merge);
    sb_spv_label(b, merge);
    return ctx->result;
}

enum sb_result sb_spv_linkage_resource_instruction(struct sb_spv_context *ctx,
                                                   const struct sb_ir_instruction *inst)
{
    struct sb_ir_operand dst[2], src[6];
    /* Nearly every resource instruction names its registers directly: asked of its own
     * operands, before they are copied (up to 640 bytes, every resource instruction). */
    if (inst->dst_count > 2 || inst->src_count > 6 ||
        first_dynamic(inst->dst, inst->dst_count, inst->src, inst->src_count) == UINT32_MAX)
        return SB_ERROR_TRANSLATE_UNSUPPORTED;
    if (inst->dst_count)
        memcpy(dst, inst->dst, inst->dst_count * sizeof(*dst));
    if (inst->src_count)
        memcpy(src, inst->src, inst->src_count * sizeof(*src));
    struct sb_ir_instruction copy = *inst;
    copy.dst = dst;
    copy.src = src;
    return emit_resolved(ctx, &copy, dst, src);
}
