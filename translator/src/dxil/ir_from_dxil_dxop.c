/* SPDX-License-Identifier: MIT */
/*
 * dx.op calls -> IR (../shared/docs/dxil.md §3): the dispatch to the files
 * of each concern (resources, buffers, I/O, math), the compute system
 * values and their declarations; any other dx.op refuses with its name.
 */
#include "ir_from_dxil_private.h"
#include "translator/dxil_opcodes.h"
#include "translator/dxil_ops.h"

/* threadId & co: lane `component` of the system-value register. */
static bool system_value(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t file,
                         bool has_component)
{
    uint64_t component = 0;
    uint32_t temp = 0;
    if ((has_component && !dxil_front_const_arg(f, in, 1, &component)) ||
        !dxil_front_result_temp(f, in, 1, &temp))
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

enum callee_kind { CALLEE_UNSEEN, CALLEE_LIFETIME, CALLEE_DX_OP, CALLEE_OTHER };

/* What a call of `callee` is, by its name: kept per function, as a body calls the same
 * few dx.op functions over and over. */
static enum callee_kind callee_kind(struct dxil_front *f, const struct sb_bc_function *callee)
{
    if (!callee || !callee->name)
        return CALLEE_OTHER;
    size_t index = (size_t)(callee - f->module->functions);
    if (index < DXIL_FRONT_KEPT_CALLEES && f->callee_kind[index] != CALLEE_UNSEEN)
        return (enum callee_kind)f->callee_kind[index];
    enum callee_kind kind = strncmp(callee->name, "llvm.lifetime.", 14) == 0 ? CALLEE_LIFETIME
                            : strncmp(callee->name, "dx.op.", 6) == 0        ? CALLEE_DX_OP
                                                                             : CALLEE_OTHER;
    if (index < DXIL_FRONT_KEPT_CALLEES)
        f->callee_kind[index] = (uint8_t)kind;
    return kind;
}

bool dxil_front_call(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    const struct sb_bc_function *callee = sb_bc_callee(f->module, f->function, in);
    uint64_t opcode = 0;
    enum callee_kind kind = callee_kind(f, callee);
    /* Lifetime markers of allocas: no-ops (ir_from_dxil_memory.c). */
    if (kind == CALLEE_LIFETIME)
        return true;
    if (kind != CALLEE_DX_OP)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "a call of %s (only dx.op calls are translated)",
                               callee && callee->name ? callee->name : "an unknown function");
    if (!dxil_front_const_arg(f, in, 0, &opcode))
        return false;
    if (dxil_front_ags_claims(f, in, opcode))
        return dxil_front_ags_call(f, in);
    if (dxil_front_is_tessellation_op(f, opcode))
        return dxil_front_tessellation_op(f, in, opcode);
    switch (opcode) {
    case SB_DXIL_OP_THREAD_ID: return system_value(f, in, SB_IR_FILE_THREAD_ID, true);
    case SB_DXIL_OP_GROUP_ID: return system_value(f, in, SB_IR_FILE_THREAD_GROUP_ID, true);
    case SB_DXIL_OP_THREAD_ID_IN_GROUP:
        return system_value(f, in, SB_IR_FILE_THREAD_ID_IN_GROUP, true);
    case SB_DXIL_OP_FLATTENED_THREAD_ID_IN_GROUP:
        return system_value(f, in, SB_IR_FILE_THREAD_ID_IN_GROUP_FLATTENED, false);
    case SB_DXIL_OP_LOAD_INPUT: return dxil_front_load_input(f, in);
    case SB_DXIL_OP_STORE_OUTPUT: return dxil_front_store_output(f, in);
    case SB_DXIL_OP_CREATE_HANDLE: return dxil_front_create_handle(f, in);
    case SB_DXIL_OP_CREATE_HANDLE_FROM_BINDING:
        return dxil_front_create_handle_from_binding(f, in);
    case SB_DXIL_OP_ANNOTATE_HANDLE: return dxil_front_annotate_handle(f, in);
    case SB_DXIL_OP_CREATE_HANDLE_FROM_HEAP: return dxil_front_create_handle_from_heap(f, in);
    case SB_DXIL_OP_CBUFFER_LOAD_LEGACY: return dxil_front_cbuffer_load_legacy(f, in);
    case SB_DXIL_OP_CBUFFER_LOAD: return dxil_front_cbuffer_load(f, in);
    case SB_DXIL_OP_BUFFER_STORE:
    case SB_DXIL_OP_RAW_BUFFER_STORE: return dxil_front_buffer_store(f, in);
    case SB_DXIL_OP_BUFFER_LOAD:
    case SB_DXIL_OP_RAW_BUFFER_LOAD: return dxil_front_buffer_load(f, in);
    case SB_DXIL_OP_BUFFER_UPDATE_COUNTER: return dxil_front_buffer_update_counter(f, in);
    case SB_DXIL_OP_CHECK_ACCESS_FULLY_MAPPED: return dxil_front_check_access_fully_mapped(f, in);
    case SB_DXIL_OP_SET_MESH_OUTPUT_COUNTS:
    case SB_DXIL_OP_EMIT_INDICES:
    case SB_DXIL_OP_GET_MESH_PAYLOAD:
    case SB_DXIL_OP_STORE_VERTEX_OUTPUT:
    case SB_DXIL_OP_STORE_PRIMITIVE_OUTPUT:
    case SB_DXIL_OP_DISPATCH_MESH: return dxil_front_mesh_op(f, in, opcode);
    default: {
        if (dxil_front_is_math(opcode))
            return dxil_front_math(f, in, opcode);
        if (dxil_front_is_texture_op(opcode))
            return dxil_front_texture_op(f, in, opcode);
        if (dxil_front_is_feedback_op(opcode))
            return dxil_front_feedback_op(f, in, opcode);
        if (dxil_front_is_geometry_op(opcode))
            return dxil_front_geometry_op(f, in, opcode);
        if (dxil_front_is_pixel_op(opcode))
            return dxil_front_pixel_op(f, in, opcode);
        if (dxil_front_is_wave(opcode))
            return dxil_front_wave(f, in, opcode);
        if (dxil_front_is_atomic_or_barrier(opcode))
            return dxil_front_atomic_or_barrier(f, in, opcode);
        const struct sb_dxil_op_info *info = sb_dxil_op_lookup((uint32_t)opcode);
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "dx.op %s (%llu) is not translated yet",
                               info && info->name ? info->name : "?", (unsigned long long)opcode);
    }
    }
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
