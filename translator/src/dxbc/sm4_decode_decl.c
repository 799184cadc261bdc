/* SPDX-License-Identifier: MIT */
/*
 * Declaration payloads of SM4/5 programs (../shared/docs/sm4-tokens.md §2.4, SM5.1
 * forms §5.5).
 *
 * Declarations keep their facts in token 0's control bits as well as in
 * trailing DWORDs, and the control fields overlap between opcodes
 * (§10.3: "decode controls per opcode, never generically"), so each
 * declaration is decoded by its own case here rather than by the table.
 */
#include "sm4_private.h"

/* Reads `count` DWORD ids after checking they fit in the instruction, so a
 * hostile count never sizes an allocation beyond the data. */
static const uint32_t *read_ids(struct sb_sm4_cursor *cur, uint32_t count, const char *field)
{
    struct sb_sm4_reader *reader = cur->reader;
    if (count > cur->end - cur->pos) {
        sb_sm4_fail(reader, SB_ERROR_SM4_LENGTH_TOO_SHORT, cur->pos,
                    "instruction %u: %s count %u needs more DWORDs than the %u left in the "
                    "instruction", reader->instr, field, count, cur->end - cur->pos);
        return NULL;
    }
    uint32_t *ids = sb_sm4_alloc(reader, count, sizeof(*ids));
    for (uint32_t i = 0; ids && i < count; i++)
        ids[i] = sb_sm4_read(cur, field);
    return ids;
}

static void read_return_type(struct sb_sm4_cursor *cur, struct sb_sm4_declaration *decl)
{
    uint32_t token = sb_sm4_read(cur, "the resource return-type token");
    for (unsigned i = 0; i < 4; i++)
        decl->return_type[i] = (token >> (4 * i)) & 0xfu;
}

static void read_space(struct sb_sm4_cursor *cur, struct sb_sm4_declaration *decl)
{
    if (cur->reader->is_sm51)
        decl->space = sb_sm4_read(cur, "the register space");
}

/* Resource-like declarations: t#, s#, u#, cb# (and their SM5.1 range forms). */
static void read_resource_decl(struct sb_sm4_cursor *cur, struct sb_sm4_instruction *inst,
                               struct sb_sm4_operand *ops, uint32_t *op_count)
{
    struct sb_sm4_declaration *decl = &inst->decl;
    uint32_t token = inst->token;
    switch (inst->opcode) {
    case SB_SM4_OP_DCL_RESOURCE:
        decl->resource_dimension = (token >> 11) & 0x1fu;
        decl->sample_count = (token >> 16) & 0x7fu;
        break;
    case SB_SM4_OP_DCL_CONSTANT_BUFFER:
        decl->cb_dynamic_indexed = (token >> 11) & 1u;
        break;
    case SB_SM4_OP_DCL_SAMPLER:
        decl->sampler_mode = (token >> 11) & 0xfu;
        break;
    case SB_SM4_OP_DCL_UAV_TYPED:
        decl->resource_dimension = (token >> 11) & 0x1fu;
        decl->uav_flags = token & (SB_SM4_UAV_GLOBALLY_COHERENT | SB_SM4_UAV_RASTERIZER_ORDERED);
        break;
    case SB_SM4_OP_DCL_UAV_RAW:
        decl->uav_flags = token & (SB_SM4_UAV_GLOBALLY_COHERENT | SB_SM4_UAV_RASTERIZER_ORDERED);
        break;
    case SB_SM4_OP_DCL_UAV_STRUCTURED:
        decl->uav_flags = token & (SB_SM4_UAV_GLOBALLY_COHERENT | SB_SM4_UAV_RASTERIZER_ORDERED |
                                   SB_SM4_UAV_ORDER_PRESERVING_COUNTER);
        break;
    default:
        break;
    }
    sb_sm4_read_operand(cur, &ops[0]);
    *op_count = 1;
    switch (inst->opcode) {
    case SB_SM4_OP_DCL_RESOURCE:
    case SB_SM4_OP_DCL_UAV_TYPED:
        read_return_type(cur, decl);
        break;
    case SB_SM4_OP_DCL_CONSTANT_BUFFER:
        if (cur->reader->is_sm51)
            decl->cb_size = sb_sm4_read(cur, "the constant-buffer size");
        break;
    case SB_SM4_OP_DCL_UAV_STRUCTURED:
    case SB_SM4_OP_DCL_RESOURCE_STRUCTURED:
        decl->stride = sb_sm4_read(cur, "the structure stride");
        break;
    default:
        break;
    }
    read_space(cur, decl);
}

/* Inputs, outputs and their system values (opcodes 95..103). */
static void read_io_decl(struct sb_sm4_cursor *cur, struct sb_sm4_instruction *inst,
                         struct sb_sm4_operand *ops, uint32_t *op_count)
{
    uint32_t op = inst->opcode;
    if (op >= SB_SM4_OP_DCL_INPUT_PS && op <= SB_SM4_OP_DCL_INPUT_PS_SIV)
        inst->decl.interpolation = (inst->token >> 11) & 0xfu;
    sb_sm4_read_operand(cur, &ops[0]);
    *op_count = 1;
    switch (op) {
    case SB_SM4_OP_DCL_INPUT_SGV:
    case SB_SM4_OP_DCL_INPUT_SIV:
    case SB_SM4_OP_DCL_INPUT_PS_SGV:
    case SB_SM4_OP_DCL_INPUT_PS_SIV:
    case SB_SM4_OP_DCL_OUTPUT_SGV:
    case SB_SM4_OP_DCL_OUTPUT_SIV:
        inst->decl.system_value = sb_sm4_read(cur, "the system-value name token") & 0xffffu;
        break;
    default:
        break;
    }
}

/* Class linkage: function bodies, tables and interfaces (§2.4, §9.10). */
static void read_linkage_decl(struct sb_sm4_cursor *cur, struct sb_sm4_instruction *inst)
{
    struct sb_sm4_declaration *decl = &inst->decl;
    switch (inst->opcode) {
    case SB_SM4_OP_DCL_FUNCTION_BODY:
        decl->count = sb_sm4_read(cur, "the function-body id");
        break;
    case SB_SM4_OP_DCL_FUNCTION_TABLE:
        decl->table_id = sb_sm4_read(cur, "the function-table id");
        decl->id_count = sb_sm4_read(cur, "the function-body count");
        decl->ids = read_ids(cur, decl->id_count, "function-body id");
        break;
    case SB_SM4_OP_DCL_INTERFACE: {
        decl->interface_dynamic = (inst->token >> 11) & 1u;
        decl->table_id = sb_sm4_read(cur, "the interface id");
        decl->interface_table_length = sb_sm4_read(cur, "the expected table length");
        uint32_t packed = sb_sm4_read(cur, "the table count and array length");
        decl->id_count = packed & 0xffffu;
        decl->interface_array_length = packed >> 16;
        decl->ids = read_ids(cur, decl->id_count, "function-table id");
        break;
    }
    default:
        break;
    }
}

bool sb_sm4_read_declaration(struct sb_sm4_cursor *cur, struct sb_sm4_instruction *inst,
                             struct sb_sm4_operand *ops, uint32_t *op_count)
{
    struct sb_sm4_declaration *decl = &inst->decl;
    uint32_t token = inst->token;
    *op_count = 0;
    switch (inst->opcode) {
    case SB_SM4_OP_DCL_RESOURCE:
    case SB_SM4_OP_DCL_CONSTANT_BUFFER:
    case SB_SM4_OP_DCL_SAMPLER:
    case SB_SM4_OP_DCL_UAV_TYPED:
    case SB_SM4_OP_DCL_UAV_RAW:
    case SB_SM4_OP_DCL_UAV_STRUCTURED:
    case SB_SM4_OP_DCL_RESOURCE_RAW:
    case SB_SM4_OP_DCL_RESOURCE_STRUCTURED:
        read_resource_decl(cur, inst, ops, op_count);
        break;
    case SB_SM4_OP_DCL_INPUT:
    case SB_SM4_OP_DCL_INPUT_SGV:
    case SB_SM4_OP_DCL_INPUT_SIV:
    case SB_SM4_OP_DCL_INPUT_PS:
    case SB_SM4_OP_DCL_INPUT_PS_SGV:
    case SB_SM4_OP_DCL_INPUT_PS_SIV:
    case SB_SM4_OP_DCL_OUTPUT:
    case SB_SM4_OP_DCL_OUTPUT_SGV:
    case SB_SM4_OP_DCL_OUTPUT_SIV:
        read_io_decl(cur, inst, ops, op_count);
        break;
    case SB_SM4_OP_DCL_INDEX_RANGE:
        sb_sm4_read_operand(cur, &ops[0]);
        *op_count = 1;
        decl->count = sb_sm4_read(cur, "the index-range register count");
        break;
    case SB_SM4_OP_DCL_STREAM:
        sb_sm4_read_operand(cur, &ops[0]);
        *op_count = 1;
        break;
    case SB_SM4_OP_DCL_TGSM_RAW:
        sb_sm4_read_operand(cur, &ops[0]);
        *op_count = 1;
        decl->count = sb_sm4_read(cur, "the shared-memory byte count");
        break;
    case SB_SM4_OP_DCL_TGSM_STRUCTURED:
        sb_sm4_read_operand(cur, &ops[0]);
        *op_count = 1;
        decl->stride = sb_sm4_read(cur, "the structure stride");
        decl->count = sb_sm4_read(cur, "the structure count");
        break;
    case SB_SM4_OP_DCL_OUTPUT_TOPOLOGY:
        decl->primitive = (token >> 11) & 0x7fu;
        break;
    case SB_SM4_OP_DCL_INPUT_PRIMITIVE:
        decl->primitive = (token >> 11) & 0x3fu;
        break;
    case SB_SM4_OP_DCL_MAX_OUTPUT_VERTEX_COUNT:
    case SB_SM4_OP_DCL_TEMPS:
    case SB_SM4_OP_DCL_HS_FORK_PHASE_INSTANCE_COUNT:
    case SB_SM4_OP_DCL_HS_JOIN_PHASE_INSTANCE_COUNT:
    case SB_SM4_OP_DCL_GS_INSTANCE_COUNT:
        decl->count = sb_sm4_read(cur, "the declared count");
        break;
    case SB_SM4_OP_DCL_INDEXABLE_TEMP:
        decl->indexable_register = sb_sm4_read(cur, "the indexable-temp register");
        decl->indexable_count = sb_sm4_read(cur, "the indexable-temp size");
        decl->indexable_components = sb_sm4_read(cur, "the indexable-temp component count");
        break;
    case SB_SM4_OP_DCL_GLOBAL_FLAGS:
        decl->global_flags = (token >> 11) & 0x1fffu;
        break;
    case SB_SM4_OP_DCL_INPUT_CONTROL_POINT_COUNT:
    case SB_SM4_OP_DCL_OUTPUT_CONTROL_POINT_COUNT:
        decl->count = (token >> 11) & 0x3fu;
        break;
    case SB_SM4_OP_DCL_TESS_DOMAIN:
        decl->tessellator = (token >> 11) & 3u;
        break;
    case SB_SM4_OP_DCL_TESS_PARTITIONING:
    case SB_SM4_OP_DCL_TESS_OUTPUT_PRIMITIVE:
        decl->tessellator = (token >> 11) & 7u;
        break;
    case SB_SM4_OP_DCL_HS_MAX_TESSFACTOR: {
        uint32_t bits = sb_sm4_read(cur, "the maximum tessellation factor");
        union { uint32_t u; float f; } pun = { .u = bits };
        decl->max_tessfactor = pun.f;
        break;
    }
    case SB_SM4_OP_DCL_THREAD_GROUP:
        for (unsigned i = 0; i < 3; i++)
            decl->thread_group[i] = sb_sm4_read(cur, "a thread-group size");
        break;
    case SB_SM4_OP_DCL_FUNCTION_BODY:
    case SB_SM4_OP_DCL_FUNCTION_TABLE:
    case SB_SM4_OP_DCL_INTERFACE:
        read_linkage_decl(cur, inst);
        break;
    default: /* hs_decls and the phase markers: nothing beyond token 0 */
        break;
    }
    return !cur->reader->failed;
}
