/* SPDX-License-Identifier: MIT */
/*
 * Signatures of a vertex or pixel shader (../shared/docs/dxil.md §4.4) ->
 * IR signature elements, and the dx.ops that address them (loadInput,
 * storeOutput). An element of `rows` rows takes the registers
 * start_row..start_row+rows-1 and the lanes start_col..start_col+cols-1, as
 * the SM4 front end's v#/o# do, so the back end, interpreter and validate
 * see the same interface they see for fxc output.
 */
#include "ir_from_dxil_private.h"
#include "dxil_program_private.h"
#include "translator/dxil_opcodes.h"

static uint32_t component_type(uint32_t dxil_type)
{
    switch (dxil_type) {
    case SB_DXIL_COMPONENT_TYPE_I1:
    case SB_DXIL_COMPONENT_TYPE_U32: return SB_IR_TYPE_UINT;
    case SB_DXIL_COMPONENT_TYPE_I32: return SB_IR_TYPE_INT;
    case SB_DXIL_COMPONENT_TYPE_F32: return SB_IR_TYPE_FLOAT;
    default: return SB_IR_TYPE_NONE;
    }
}

uint32_t dxil_front_component_type(uint32_t dxil_type)
{
    return component_type(dxil_type);
}

/* The semantics that are plain v#/o# registers in the vertex and pixel stages. */
static bool register_semantic(uint32_t kind)
{
    switch (kind) {
    case SB_DXIL_SEMANTIC_ARBITRARY:
    case SB_DXIL_SEMANTIC_VERTEX_ID:
    case SB_DXIL_SEMANTIC_INSTANCE_ID:
    case SB_DXIL_SEMANTIC_POSITION:
    case SB_DXIL_SEMANTIC_TARGET:
        return true;
    default:
        return false;
    }
}

static bool check_element(struct dxil_front *f, const struct sb_dxil_signature_element *d)
{
    if (!register_semantic(d->semantic_kind))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "signature element %s (semantic kind %u) is not translated yet",
                               d->semantic_name, d->semantic_kind);
    if (component_type(d->component_type) == SB_IR_TYPE_NONE)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "signature element %s of component type %u (16/64-bit) is not "
                               "translated yet", d->semantic_name, d->component_type);
    if (d->start_row < 0 || d->start_col < 0 || d->cols == 0 || d->start_col + d->cols > 4 ||
        d->rows == 0 || d->rows > 32 || d->start_row + d->rows > 32)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "signature element %s at row %d col %d (%ux%u) is not allocated "
                               "in registers", d->semantic_name, d->start_row, d->start_col,
                               d->rows, d->cols);
    return true;
}

bool dxil_front_declare_signatures(struct dxil_front *f)
{
    uint32_t total = 0;
    for (uint32_t s = 0; s < 2; s++) {
        const struct sb_dxil_signature *sig = &f->entry->signatures[s];
        for (uint32_t i = 0; i < sig->element_count; i++) {
            if (!check_element(f, &sig->elements[i]))
                return false;
            total += sig->elements[i].rows;
        }
    }
    /* Hull and domain shaders declare theirs (ir_from_dxil_tessellation.c). */
    if (f->entry->signatures[SB_DXIL_SIGNATURE_PATCH_CONSTANT].element_count &&
        f->program->stage != SB_IR_STAGE_HULL && f->program->stage != SB_IR_STAGE_DOMAIN)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "a patch-constant signature in a vertex or pixel shader");
    struct sb_ir_signature_element *out = dxil_front_alloc(f, total, sizeof(*out));
    if (!out)
        return false;
    uint32_t n = 0;
    for (uint32_t s = 0; s < 2; s++) {
        const struct sb_dxil_signature *sig = &f->entry->signatures[s];
        for (uint32_t i = 0; i < sig->element_count; i++) {
            const struct sb_dxil_signature_element *d = &sig->elements[i];
            uint8_t mask = (uint8_t)(((1u << d->cols) - 1u) << d->start_col);
            for (uint32_t row = 0; row < d->rows; row++) {
                struct sb_ir_signature_element *e = &out[n++];
                e->kind = s == SB_DXIL_SIGNATURE_INPUT ? SB_IR_SIGNATURE_INPUT
                                                       : SB_IR_SIGNATURE_OUTPUT;
                e->file = s == SB_DXIL_SIGNATURE_INPUT ? SB_IR_FILE_INPUT : SB_IR_FILE_OUTPUT;
                e->semantic = sb_ir_strdup(f->arena, d->semantic_name);
                e->semantic_index = row < d->semantic_index_count ? d->semantic_indices[row] : row;
                /* SV_Target is a plain o# in the IR, as fxc's dcl_output declares it (no
                 * D3D_NAME): validate and the back end read render targets that way. */
                e->system_value = d->semantic_kind == SB_DXIL_SEMANTIC_TARGET
                                      ? 0
                                      : sb_dxil_semantic_system_value(d->semantic_kind, row, 0);
                e->register_index = (uint32_t)d->start_row + row;
                e->mask = e->used_mask = e->signature_mask = mask;
                e->component_type = component_type(d->component_type);
                /* DXIL's interpolation modes are numbered as the SM4 tokens' (§4.4). */
                e->interpolation = s == SB_DXIL_SIGNATURE_INPUT && f->program->stage == SB_IR_STAGE_PIXEL
                                       ? d->interpolation
                                       : 0;
            }
        }
    }
    f->program->signature = out;
    f->program->signature_count = n;
    return true;
}

static const struct sb_dxil_signature_element *element(struct dxil_front *f, uint32_t list,
                                                        uint64_t id)
{
    const struct sb_dxil_signature *sig = &f->entry->signatures[list];
    for (uint32_t i = 0; i < sig->element_count; i++)
        if (sig->elements[i].id == id)
            return &sig->elements[i];
    dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "no %s signature element %llu",
                    list == SB_DXIL_SIGNATURE_INPUT ? "input" : "output", (unsigned long long)id);
    return NULL;
}

/* loadInput(id, row, col, vertex) / storeOutput(id, row, col, value): the v#/o# operand of
 * the element's register and lane; a row or column that is not a constant refuses. */
static bool io_operand(struct dxil_front *f, const struct sb_bc_instruction *in, uint32_t list,
                       struct sb_ir_operand *out)
{
    uint64_t id = 0, row = 0, col = 0;
    if (in->operand_count < 5 || !dxil_front_const_int(f, in->operands[2], &id) ||
        !dxil_front_const_int(f, in->operands[3], &row) ||
        !dxil_front_const_int(f, in->operands[4], &col))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "%s with a row or column that is not a constant",
                               list == SB_DXIL_SIGNATURE_INPUT ? "loadInput" : "storeOutput");
    const struct sb_dxil_signature_element *e = element(f, list, id);
    if (!e)
        return false;
    if (row >= e->rows || col >= e->cols)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "row %llu col %llu outside signature element %s",
                               (unsigned long long)row, (unsigned long long)col, e->semantic_name);
    uint32_t lane = (uint32_t)e->start_col + (uint32_t)col;
    *out = dxil_front_temp_src((uint32_t)e->start_row + (uint32_t)row, lane);
    out->file = list == SB_DXIL_SIGNATURE_INPUT ? SB_IR_FILE_INPUT : SB_IR_FILE_OUTPUT;
    out->mask = (uint8_t)(1u << lane);
    return true;
}

bool dxil_front_load_input(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    struct sb_ir_operand src;
    if (!io_operand(f, in, SB_DXIL_SIGNATURE_INPUT, &src))
        return false;
    if (dxil_front_type_lanes(f, in->type) != 1)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED, "loadInput of a 16/64-bit type");
    uint32_t temp = dxil_front_value_temp(f, in->value);
    if (temp == DXIL_FRONT_NONE)
        return false;
    src.mask = 0;
    struct sb_ir_operand dst = dxil_front_temp_dst(temp, 0x1);
    return dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, &src, 1) != NULL;
}

bool dxil_front_store_output(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    struct sb_ir_operand dst, src;
    if (!io_operand(f, in, SB_DXIL_SIGNATURE_OUTPUT, &dst))
        return false;
    if (in->operand_count < 6 || !dxil_front_src(f, in->operands[5], 0, &src))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "storeOutput without a value");
    return dxil_front_emit(f, SB_IR_OP_MOV, &dst, 1, &src, 1) != NULL;
}
