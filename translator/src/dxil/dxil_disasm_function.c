/* SPDX-License-Identifier: MIT */
/*
 * Function bodies in LLVM assembly: LLVM's numbering of unnamed arguments,
 * blocks and results, block labels with their predecessors, every
 * instruction the reader keeps (operand order per reflect/bitcode.h),
 * metadata attachments, and dxc's trailing comment on dx.op calls.
 */
#include "dxil_disasm_private.h"

#include <stdlib.h>
#include <string.h>

#include "translator/dxil_ops.h"

static const char *const int_binops[] = { "add", "sub", "mul", "udiv", "sdiv", "urem", "srem",
                                          "shl", "lshr", "ashr", "and", "or", "xor" };
/* The float forms of the same codes (LLVM 3.7 FUNC_CODE_INST_BINOP); NULL: integer only. */
static const char *const float_binops[] = { "fadd", "fsub", "fmul", NULL, "fdiv", NULL, "frem" };
static const char *const cast_names[] = { "trunc", "zext", "sext", "fptoui", "fptosi", "uitofp",
                                          "sitofp", "fptrunc", "fpext", "ptrtoint", "inttoptr",
                                          "bitcast", "addrspacecast" };
static const char *const fcmp_names[] = { "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
                                          "uno", "ueq", "ugt", "uge", "ult", "ule", "une", "true" };
static const char *const icmp_names[] = { "eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge",
                                          "slt", "sle" };
static const char *const rmw_names[] = { "xchg", "add", "sub", "and", "nand", "or", "xor",
                                         "max", "min", "umax", "umin" };
static const char *const orderings[] = { "", "unordered", "monotonic", "acquire", "release",
                                         "acq_rel", "seq_cst" };

#define PICK(table, i) ((i) < sizeof(table) / sizeof((table)[0]) && (table)[i] ? (table)[i] : "?")

static bool is_float_type(const struct sb_bc_type *type)
{
    return type && (type->kind == SB_BC_TYPE_HALF || type->kind == SB_BC_TYPE_FLOAT ||
                    type->kind == SB_BC_TYPE_DOUBLE);
}

/* Scalar or vector element type of a value's type. */
static const struct sb_bc_type *scalar_type(const struct sb_dxil_printer *p, uint32_t value)
{
    const struct sb_bc_type *type = sb_dxil_type(p, sb_dxil_value_type(p, value));
    if (type && type->kind == SB_BC_TYPE_VECTOR)
        type = sb_dxil_type(p, type->element);
    return type;
}

/* Fast-math flags of 3.7 bitcode: bit 0 unsafe-algebra (printed `fast`), then nnan ninf nsz arcp. */
static void print_fast_math(struct sb_sm4_text *t, uint32_t flags)
{
    if (flags & 1) {
        sb_sm4_text_append(t, " fast");
        return;
    }
    static const char *const names[] = { " nnan", " ninf", " nsz", " arcp" };
    for (unsigned i = 0; i < 4; i++)
        if (flags & (2u << i))
            sb_sm4_text_append(t, names[i]);
}

static void print_operand(struct sb_dxil_printer *p, const struct sb_bc_instruction *inst,
                          uint32_t index, bool typed)
{
    uint32_t id = index < inst->operand_count ? inst->operands[index] : SB_BC_NONE;
    if (typed)
        sb_dxil_print_typed_value(p, id);
    else
        sb_dxil_print_value(p, id, 0);
}

static void print_label(struct sb_dxil_printer *p, uint32_t block)
{
    struct sb_sm4_text *t = p->text;
    sb_sm4_text_append(t, "label ");
    if (block >= p->function->block_count)
        sb_sm4_text_append(t, "%<badref>");
    else if (p->function->blocks[block].name)
        sb_dxil_print_name(t, '%', p->function->blocks[block].name);
    else
        sb_sm4_text_appendf(t, "%%%u", p->block_slots[block]);
}

static void print_block_ref(struct sb_dxil_printer *p, uint32_t block)
{
    if (p->function->blocks[block].name)
        sb_dxil_print_name(p->text, '%', p->function->blocks[block].name);
    else
        sb_sm4_text_appendf(p->text, "%%%u", p->block_slots[block]);
}

static void print_binop(struct sb_dxil_printer *p, const struct sb_bc_instruction *inst)
{
    struct sb_sm4_text *t = p->text;
    bool is_float = is_float_type(scalar_type(p, inst->operand_count ? inst->operands[0] : SB_BC_NONE));
    if (is_float && inst->op < 7 && float_binops[inst->op]) {
        sb_sm4_text_append(t, float_binops[inst->op]);
        print_fast_math(t, inst->flags);
    } else {
        sb_sm4_text_append(t, PICK(int_binops, inst->op));
        bool wraps = inst->op <= 2 || inst->op == 7; /* add sub mul shl: nuw (bit 0), nsw (bit 1) */
        bool exact = inst->op == 3 || inst->op == 4 || inst->op == 8 || inst->op == 9;
        if (wraps && (inst->flags & 1))
            sb_sm4_text_append(t, " nuw");
        if (wraps && (inst->flags & 2))
            sb_sm4_text_append(t, " nsw");
        if (exact && (inst->flags & 1))
            sb_sm4_text_append(t, " exact");
    }
    sb_sm4_text_append(t, " ");
    print_operand(p, inst, 0, true);
    sb_sm4_text_append(t, ", ");
    print_operand(p, inst, 1, false);
}

static void print_ordering(struct sb_sm4_text *t, uint32_t ordering)
{
    if (((ordering >> 8) & 0xFF) == 0)
        sb_sm4_text_append(t, " singlethread");
    sb_sm4_text_appendf(t, " %s", PICK(orderings, ordering & 0xFF));
}

/* dxc's comment after a dx.op call: the opcode's name and its operand names. */
static void print_dx_op_comment(struct sb_dxil_printer *p, const struct sb_bc_instruction *inst)
{
    const struct sb_bc_function *callee = sb_bc_callee(p->module, p->function, inst);
    if (!callee || !callee->name || strncmp(callee->name, "dx.op.", 6) || inst->operand_count < 2)
        return;
    const struct sb_bc_constant *opcode = sb_bc_constant_get(p->module, p->function, inst->operands[1]);
    if (!opcode || opcode->kind != SB_BC_CONST_INTEGER || opcode->bits > UINT32_MAX)
        return;
    const struct sb_dxil_op_info *info = sb_dxil_op_lookup((uint32_t)opcode->bits);
    if (!info)
        return;
    sb_sm4_text_appendf(p->text, "  ; %s(", info->name);
    for (uint32_t i = 0; i < info->operand_count; i++)
        sb_sm4_text_appendf(p->text, "%s%s", i ? "," : "", sb_dxil_op_operand(info, i)->name);
    sb_sm4_text_append(p->text, ")");
}

static void print_call(struct sb_dxil_printer *p, const struct sb_bc_instruction *inst)
{
    struct sb_sm4_text *t = p->text;
    const struct sb_bc_type *fn = sb_dxil_type(p, inst->aux_type);
    sb_sm4_text_append(t, inst->flags & 1 ? "tail call " : "call ");
    if (fn && fn->kind == SB_BC_TYPE_FUNCTION && fn->vararg)
        sb_dxil_print_type(p, inst->aux_type);
    else
        sb_dxil_print_type(p, inst->type == SB_BC_NONE && fn ? fn->element : inst->type);
    sb_sm4_text_append(t, " ");
    print_operand(p, inst, 0, false);
    sb_sm4_text_append(t, "(");
    for (uint32_t i = 1; i < inst->operand_count; i++) {
        if (i > 1)
            sb_sm4_text_append(t, ", ");
        sb_dxil_print_type(p, sb_dxil_value_type(p, inst->operands[i]));
        sb_dxil_print_param_attributes(p, inst->paramattr, i);
        sb_sm4_text_append(t, " ");
        sb_dxil_print_value(p, inst->operands[i], 0);
    }
    sb_sm4_text_append(t, ")");
    uint32_t slot = sb_dxil_attribute_slot(p, inst->paramattr);
    if (slot != SB_BC_NONE)
        sb_sm4_text_appendf(t, " #%u", slot);
}

static void print_memory(struct sb_dxil_printer *p, const struct sb_bc_instruction *inst)
{
    struct sb_sm4_text *t = p->text;
    if (inst->opcode == SB_BC_OP_LOAD) {
        sb_sm4_text_append(t, inst->flags & 1 ? "load volatile " : "load ");
        sb_dxil_print_type(p, inst->type);
        sb_sm4_text_append(t, ", ");
        print_operand(p, inst, 0, true);
    } else {
        sb_sm4_text_append(t, inst->flags & 1 ? "store volatile " : "store ");
        print_operand(p, inst, 1, true);
        sb_sm4_text_append(t, ", ");
        print_operand(p, inst, 0, true);
    }
    if (inst->align)
        sb_sm4_text_appendf(t, ", align %u", 1u << ((inst->align - 1) & 31));
}

static void print_phi_and_switch(struct sb_dxil_printer *p, const struct sb_bc_instruction *inst)
{
    struct sb_sm4_text *t = p->text;
    if (inst->opcode == SB_BC_OP_PHI) {
        sb_sm4_text_append(t, "phi ");
        sb_dxil_print_type(p, inst->type);
        for (uint32_t i = 0; i < inst->operand_count && i < inst->block_count; i++) {
            sb_sm4_text_append(t, i ? ", [ " : " [ ");
            print_operand(p, inst, i, false);
            sb_sm4_text_append(t, ", ");
            if (inst->blocks[i] < p->function->block_count)
                print_block_ref(p, inst->blocks[i]);
            else
                sb_sm4_text_append(t, "%<badref>");
            sb_sm4_text_append(t, " ]");
        }
        return;
    }
    sb_sm4_text_append(t, "switch ");
    print_operand(p, inst, 0, true);
    sb_sm4_text_append(t, ", ");
    print_label(p, inst->block_count ? inst->blocks[0] : SB_BC_NONE);
    sb_sm4_text_append(t, " [\n");
    for (uint32_t i = 1; i < inst->operand_count && i < inst->block_count; i++) {
        sb_sm4_text_append(t, "    ");
        print_operand(p, inst, i, true);
        sb_sm4_text_append(t, ", ");
        print_label(p, inst->blocks[i]);
        sb_sm4_text_append(t, "\n");
    }
    sb_sm4_text_append(t, "  ]");
}

static void print_aggregate_access(struct sb_dxil_printer *p, const struct sb_bc_instruction *inst)
{
    struct sb_sm4_text *t = p->text;
    bool insert = inst->opcode == SB_BC_OP_INSERTVAL;
    sb_sm4_text_append(t, insert ? "insertvalue " : "extractvalue ");
    print_operand(p, inst, 0, true);
    if (insert) {
        sb_sm4_text_append(t, ", ");
        print_operand(p, inst, 1, true);
    }
    for (uint32_t i = 0; i < inst->index_count; i++)
        sb_sm4_text_appendf(t, ", %u", inst->indices[i]);
}

static void print_atomic(struct sb_dxil_printer *p, const struct sb_bc_instruction *inst)
{
    struct sb_sm4_text *t = p->text;
    bool cmpxchg = inst->opcode == SB_BC_OP_CMPXCHG;
    sb_sm4_text_append(t, cmpxchg ? "cmpxchg " : "atomicrmw ");
    if (cmpxchg && (inst->ordering >> 24) & 1)
        sb_sm4_text_append(t, "weak ");
    if (inst->flags & 1)
        sb_sm4_text_append(t, "volatile ");
    if (!cmpxchg)
        sb_sm4_text_appendf(t, "%s ", PICK(rmw_names, inst->op));
    for (uint32_t i = 0; i < (cmpxchg ? 3u : 2u); i++) {
        if (i)
            sb_sm4_text_append(t, ", ");
        print_operand(p, inst, i, true);
    }
    print_ordering(t, inst->ordering);
    if (cmpxchg)
        sb_sm4_text_appendf(t, " %s", PICK(orderings, (inst->ordering >> 16) & 0xFF));
}

static void print_instruction_body(struct sb_dxil_printer *p, const struct sb_bc_instruction *inst)
{
    struct sb_sm4_text *t = p->text;
    switch (inst->opcode) {
    case SB_BC_OP_BINOP: print_binop(p, inst); return;
    case SB_BC_OP_CAST:
        sb_sm4_text_appendf(t, "%s ", PICK(cast_names, inst->op));
        print_operand(p, inst, 0, true);
        sb_sm4_text_append(t, " to ");
        sb_dxil_print_type(p, inst->type);
        return;
    case SB_BC_OP_CMP2: {
        bool is_float = is_float_type(scalar_type(p, inst->operand_count ? inst->operands[0] : SB_BC_NONE));
        sb_sm4_text_append(t, is_float ? "fcmp" : "icmp");
        if (is_float)
            print_fast_math(t, inst->flags);
        sb_sm4_text_appendf(t, " %s ", is_float ? PICK(fcmp_names, inst->op)
                                                : inst->op >= 32 ? PICK(icmp_names, inst->op - 32) : "?");
        print_operand(p, inst, 0, true);
        sb_sm4_text_append(t, ", ");
        print_operand(p, inst, 1, false);
        return;
    }
    case SB_BC_OP_VSELECT:
        sb_sm4_text_append(t, "select ");
        for (uint32_t i = 0; i < 3; i++) {
            sb_sm4_text_append(t, i ? ", " : "");
            print_operand(p, inst, i, true);
        }
        return;
    case SB_BC_OP_EXTRACTELT:
    case SB_BC_OP_INSERTELT:
    case SB_BC_OP_SHUFFLEVEC: {
        uint32_t count = inst->opcode == SB_BC_OP_EXTRACTELT ? 2 : 3;
        sb_sm4_text_append(t, inst->opcode == SB_BC_OP_EXTRACTELT ? "extractelement "
                              : inst->opcode == SB_BC_OP_INSERTELT ? "insertelement "
                                                                   : "shufflevector ");
        for (uint32_t i = 0; i < count; i++) {
            sb_sm4_text_append(t, i ? ", " : "");
            print_operand(p, inst, i, true);
        }
        return;
    }
    case SB_BC_OP_RET:
        sb_sm4_text_append(t, "ret ");
        if (inst->operand_count)
            print_operand(p, inst, 0, true);
        else
            sb_sm4_text_append(t, "void");
        return;
    case SB_BC_OP_BR:
        sb_sm4_text_append(t, "br ");
        if (inst->operand_count) {
            print_operand(p, inst, 0, true);
            sb_sm4_text_append(t, ", ");
        }
        for (uint32_t i = 0; i < inst->block_count; i++) {
            sb_sm4_text_append(t, i ? ", " : "");
            print_label(p, inst->blocks[i]);
        }
        return;
    case SB_BC_OP_SWITCH:
    case SB_BC_OP_PHI: print_phi_and_switch(p, inst); return;
    case SB_BC_OP_UNREACHABLE: sb_sm4_text_append(t, "unreachable"); return;
    case SB_BC_OP_ALLOCA: {
        sb_sm4_text_append(t, "alloca ");
        sb_dxil_print_type(p, inst->aux_type);
        const struct sb_bc_constant *size =
            sb_bc_constant_get(p->module, p->function, inst->operand_count ? inst->operands[0] : SB_BC_NONE);
        if (!size || size->kind != SB_BC_CONST_INTEGER || size->bits != 1) {
            sb_sm4_text_append(t, ", ");
            print_operand(p, inst, 0, true);
        }
        if (inst->align)
            sb_sm4_text_appendf(t, ", align %u", 1u << ((inst->align - 1) & 31));
        return;
    }
    case SB_BC_OP_LOAD:
    case SB_BC_OP_STORE: print_memory(p, inst); return;
    case SB_BC_OP_EXTRACTVAL:
    case SB_BC_OP_INSERTVAL: print_aggregate_access(p, inst); return;
    case SB_BC_OP_CALL: print_call(p, inst); return;
    case SB_BC_OP_ATOMICRMW:
    case SB_BC_OP_CMPXCHG: print_atomic(p, inst); return;
    case SB_BC_OP_GEP:
        sb_sm4_text_append(t, inst->flags & 1 ? "getelementptr inbounds " : "getelementptr ");
        sb_dxil_print_type(p, inst->aux_type);
        for (uint32_t i = 0; i < inst->operand_count; i++) {
            sb_sm4_text_append(t, ", ");
            print_operand(p, inst, i, true);
        }
        return;
    default:
        sb_sm4_text_appendf(t, "<unprinted instruction code %u>", (unsigned)inst->opcode);
    }
}

/* ", !kind !N" per attachment of an instruction, in kind order (LLVM's getAllMetadata); the
 * function's own (instruction SB_BC_NONE) are " !kind !N" before its body. */
static void print_attachments(struct sb_dxil_printer *p, uint32_t instruction)
{
    const struct sb_dxil_attachments *a = &p->attachments;
    for (uint32_t i = sb_dxil_first_attachment(a, instruction);
         i < a->count && a->items[i].instruction == instruction; i++) {
        const char *name = NULL;
        for (uint32_t k = 0; k < p->module->metadata_kind_count; k++)
            if (p->module->metadata_kinds[k].id == a->items[i].kind)
                name = p->module->metadata_kinds[k].name;
        sb_sm4_text_append(p->text, instruction == SB_BC_NONE ? " " : ", ");
        if (name)
            sb_dxil_print_name(p->text, '!', name);
        else
            sb_sm4_text_appendf(p->text, "!<unknown kind #%u>", a->items[i].kind);
        sb_sm4_text_append(p->text, " ");
        sb_dxil_print_metadata_ref(p, a->items[i].node);
    }
}

/* Numbers for every unnamed argument, block and non-void result, in LLVM's order. */
static bool number_locals(struct sb_dxil_printer *p, const struct sb_bc_function *f)
{
    p->local_slots = malloc(((size_t)f->value_count + 1) * sizeof(uint32_t));
    p->block_slots = malloc(((size_t)f->block_count + 1) * sizeof(uint32_t));
    if (!p->local_slots || !p->block_slots)
        return false;
    uint32_t next = 0;
    for (uint32_t i = 0; i < f->value_count; i++) {
        p->local_slots[i] = SB_BC_NONE;
        if (f->values[i].kind == SB_BC_VALUE_ARGUMENT && !f->values[i].name)
            p->local_slots[i] = next++;
    }
    for (uint32_t b = 0; b < f->block_count; b++) {
        const struct sb_bc_basic_block *block = &f->blocks[b];
        p->block_slots[b] = block->name ? SB_BC_NONE : next++;
        for (uint32_t i = 0; i < block->instruction_count; i++) {
            const struct sb_bc_instruction *inst = &f->instructions[block->first_instruction + i];
            if (inst->value == SB_BC_NONE || inst->value < f->first_value ||
                inst->value - f->first_value >= f->value_count)
                continue;
            const struct sb_bc_type *type = sb_dxil_type(p, inst->type);
            uint32_t local = inst->value - f->first_value;
            if (!f->values[local].name && type && type->kind != SB_BC_TYPE_VOID)
                p->local_slots[local] = next++;
        }
    }
    return true;
}

/* "; preds = ..." lists the blocks whose terminators name this one, latest use first (the
 * order of LLVM's use list when the bitcode carries no use-list order). */
static void print_predecessors(struct sb_dxil_printer *p, uint32_t block)
{
    const struct sb_bc_function *f = p->function;
    bool any = false;
    for (uint32_t b = f->block_count; b-- > 0;) {
        const struct sb_bc_basic_block *from = &f->blocks[b];
        if (!from->instruction_count)
            continue;
        const struct sb_bc_instruction *term =
            &f->instructions[from->first_instruction + from->instruction_count - 1];
        if (term->opcode != SB_BC_OP_BR && term->opcode != SB_BC_OP_SWITCH)
            continue;
        for (uint32_t i = term->block_count; i-- > 0;) {
            if (term->blocks[i] != block)
                continue;
            sb_sm4_text_append(p->text, any ? ", " : " preds = ");
            print_block_ref(p, b);
            any = true;
        }
    }
    if (!any)
        sb_sm4_text_append(p->text, " No predecessors!");
}

static void print_block_label(struct sb_dxil_printer *p, uint32_t b)
{
    struct sb_sm4_text *t = p->text;
    size_t line_start = t->length + 1;
    if (p->function->blocks[b].name) {
        sb_sm4_text_append(t, "\n");
        sb_dxil_print_name(t, 0, p->function->blocks[b].name);
        sb_sm4_text_append(t, ":");
    } else if (b != 0) {
        sb_sm4_text_appendf(t, "\n; <label>:%u", p->block_slots[b]);
    }
    if (b != 0) {
        size_t column = t->length - line_start;
        sb_sm4_text_spaces(t, column < 50 ? (unsigned)(50 - column) : 1);
        sb_sm4_text_append(t, ";");
        print_predecessors(p, b);
    }
    sb_sm4_text_append(t, "\n");
}

static void print_signature(struct sb_dxil_printer *p, const struct sb_bc_function *f)
{
    struct sb_sm4_text *t = p->text;
    const struct sb_bc_type *type = sb_dxil_type(p, f->type);
    sb_dxil_print_param_attributes(p, f->paramattr, 0);
    sb_dxil_print_type(p, type && type->kind == SB_BC_TYPE_FUNCTION ? type->element : SB_BC_NONE);
    sb_sm4_text_append(t, " ");
    sb_dxil_print_value(p, f->value, 0);
    sb_sm4_text_append(t, "(");
    uint32_t params = type && type->kind == SB_BC_TYPE_FUNCTION ? type->member_count : 0;
    for (uint32_t i = 0; i < params; i++) {
        if (i)
            sb_sm4_text_append(t, ", ");
        sb_dxil_print_type(p, type->members[i]);
        sb_dxil_print_param_attributes(p, f->paramattr, i + 1);
        if (!f->is_declaration && i < f->value_count) {
            sb_sm4_text_append(t, " ");
            sb_dxil_print_value(p, f->first_value + i, 0);
        }
    }
    if (type && type->kind == SB_BC_TYPE_FUNCTION && type->vararg)
        sb_sm4_text_append(t, params ? ", ..." : "...");
    sb_sm4_text_append(t, ")");
    uint32_t slot = sb_dxil_attribute_slot(p, f->paramattr);
    if (slot != SB_BC_NONE)
        sb_sm4_text_appendf(t, " #%u", slot);
}


void sb_dxil_print_function(struct sb_dxil_printer *p, const struct sb_bc_function *f)
{
    struct sb_sm4_text *t = p->text;
    p->function = f->is_declaration ? NULL : f;
    if (!f->is_declaration && (!number_locals(p, f) || !sb_dxil_sort_attachments(f, &p->attachments))) {
        t->failed = true;
        goto done;
    }
    sb_sm4_text_append(t, f->is_declaration ? "declare " : "define ");
    sb_sm4_text_append(t, sb_dxil_linkage_name(f->linkage));
    print_signature(p, f);
    if (f->is_declaration) {
        sb_sm4_text_append(t, "\n");
        goto done;
    }
    print_attachments(p, SB_BC_NONE);
    sb_sm4_text_append(t, " {");
    for (uint32_t b = 0; b < f->block_count; b++) {
        print_block_label(p, b);
        const struct sb_bc_basic_block *block = &f->blocks[b];
        for (uint32_t i = 0; i < block->instruction_count; i++) {
            uint32_t index = block->first_instruction + i;
            if (index >= f->instruction_count)
                break;
            const struct sb_bc_instruction *inst = &f->instructions[index];
            sb_sm4_text_append(t, "  ");
            if (inst->value != SB_BC_NONE && inst->opcode != SB_BC_OP_STORE &&
                sb_dxil_type(p, inst->type) && sb_dxil_type(p, inst->type)->kind != SB_BC_TYPE_VOID) {
                sb_dxil_print_value(p, inst->value, 0);
                sb_sm4_text_append(t, " = ");
            }
            print_instruction_body(p, inst);
            print_attachments(p, index);
            if (inst->opcode == SB_BC_OP_CALL)
                print_dx_op_comment(p, inst);
            sb_sm4_text_append(t, "\n");
        }
    }
    sb_sm4_text_append(t, "}\n");
done:
    free(p->local_slots);
    free(p->block_slots);
    free(p->attachments.items);
    p->local_slots = NULL;
    p->block_slots = NULL;
    p->attachments = (struct sb_dxil_attachments){ 0 };
    p->function = NULL;
}
