/* SPDX-License-Identifier: MIT */
/*
 * sb_dxil_numeric_census (translator/dxil_numeric_census.h): each numeric
 * instruction of every function body lowered on its own through the front
 * end's own entry (dxil_front_instruction), with a fresh sticky error each
 * time, so the count is what the translation would do with it, not a second
 * list of what is supported.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ir_from_dxil_private.h"
#include "shaderbridge/dxbc_dxil.h"
#include "translator/dxil_numeric_census.h"
#include "translator/dxil_opcodes.h"

/* The group of a dx.op opcode; GROUP_COUNT when it is not a numeric one. */
static enum sb_dxil_numeric_group dxop_group(uint64_t opcode)
{
    if (dxil_front_is_wave(opcode))
        return SB_DXIL_NUMERIC_WAVE;
    if ((opcode >= SB_DXIL_OP_FABS && opcode <= SB_DXIL_OP_DOT4) ||
        opcode == SB_DXIL_OP_MAKE_DOUBLE || opcode == SB_DXIL_OP_SPLIT_DOUBLE ||
        (opcode >= SB_DXIL_OP_BITCAST_I16TO_F16 && opcode <= SB_DXIL_OP_LEGACY_DOUBLE_TO_UINT32) ||
        (opcode >= SB_DXIL_OP_DOT2_ADD_HALF && opcode <= SB_DXIL_OP_DOT4_ADD_U8_PACKED) ||
        opcode == SB_DXIL_OP_UNPACK4X8 || opcode == SB_DXIL_OP_PACK4X8)
        return SB_DXIL_NUMERIC_MATH;
    return SB_DXIL_NUMERIC_GROUP_COUNT;
}

static enum sb_dxil_numeric_group group_of(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    if (dxil_front_wide_claims(f, in))
        return SB_DXIL_NUMERIC_LLVM;
    if (in->opcode != SB_BC_OP_CALL)
        return SB_DXIL_NUMERIC_GROUP_COUNT;
    const struct sb_bc_function *callee = sb_bc_callee(f->module, f->function, in);
    uint64_t opcode = 0;
    if (!callee || !callee->name || strncmp(callee->name, "dx.op.", 6) != 0 ||
        in->operand_count < 2 || !dxil_front_const_int(f, in->operands[1], &opcode))
        return SB_DXIL_NUMERIC_GROUP_COUNT;
    return dxop_group(opcode);
}

/* Every numeric instruction of one body, each lowered alone. */
static void count_function(struct dxil_front *f, struct sb_dxil_numeric_counts *counts)
{
    uint32_t values = f->function->value_count;
    f->value_temp = malloc((size_t)(values ? values : 1) * sizeof(uint32_t));
    f->value_resource = malloc((size_t)(values ? values : 1) * sizeof(uint32_t));
    for (uint32_t i = 0; f->value_temp && f->value_resource && i < values; i++)
        f->value_temp[i] = f->value_resource[i] = DXIL_FRONT_NONE;
    for (uint32_t i = 0; f->value_temp && f->value_resource && i < f->function->instruction_count;
         i++) {
        const struct sb_bc_instruction *in = &f->function->instructions[i];
        enum sb_dxil_numeric_group g = group_of(f, in);
        if (g == SB_DXIL_NUMERIC_GROUP_COUNT)
            continue;
        counts->uses[g]++;
        f->failed = false;
        f->code_count = 0;
        if (dxil_front_instruction(f, in))
            counts->translated[g]++;
        else if (!counts->first_refusal[0])
            snprintf(counts->first_refusal, sizeof(counts->first_refusal), "%s", f->error.message);
    }
    free(f->value_temp);
    free(f->value_resource);
    f->value_temp = f->value_resource = NULL;
}

enum sb_result sb_dxil_numeric_census(const struct sb_dxbc *container,
                                      struct sb_dxil_numeric_counts *counts,
                                      struct sb_error *error)
{
    const struct sb_dxbc_part *part =
        container ? sb_dxbc_find_part(container, SB_FOURCC('D', 'X', 'I', 'L')) : NULL;
    if (!counts || !part || !part->decoded.program)
        return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                            "sb_dxil_numeric_census: a container with a decoded DXIL part");
    struct sb_bc_module *module = NULL;
    struct sb_dxil_program_info *info = NULL;
    enum sb_result r = sb_bc_read_dxil_part(part->data, part->size, part->data_offset, &module,
                                            error);
    if (r == SB_SUCCESS)
        r = sb_dxil_program_info_read(module, part->decoded.program->bitcode_file_offset, &info,
                                      error);
    struct dxil_front f;
    memset(&f, 0, sizeof(f));
    static const struct sb_dxil_entry_point no_entry; /* flags 0: min precision */
    if (r == SB_SUCCESS && !(f.program = sb_ir_program_create(&f.arena)))
        r = sb_error_set(error, SB_ERROR_OUT_OF_MEMORY, 0, SB_ERROR_NO_INSTR, "out of memory");
    if (r == SB_SUCCESS) {
        f.module = module;
        /* Flags (native 16-bit types) from the first entry; resources are not declared,
         * so resource operations do not count here. */
        f.entry = info->entry_point_count ? &info->entry_points[0] : &no_entry;
        for (uint32_t i = 0; i < module->function_count; i++) {
            f.function = &module->functions[i];
            if (!f.function->is_declaration && f.function->instruction_count)
                count_function(&f, counts);
        }
    }
    sb_ir_program_destroy(f.program);
    sb_dxil_program_info_destroy(info);
    sb_bc_module_destroy(module);
    return r;
}
