/* SPDX-License-Identifier: MIT */
/*
 * The module layer of the bitcode reader (reflect/bitcode.h) on a module
 * written record by record in the test (tests/common/dxil_bitcode_writer.h):
 * types, functions, constants, metadata, names, a function body with a
 * forward reference, relative operands, a call, a compare and a branch; then
 * the DXIL program header checks and malformed modules, each with its exact
 * error code and byte offset (the offset of the record the writer was at).
 *
 * The module, in LLVM assembly (value ids in brackets):
 *   types: 0 i32, 1 void, 2 void(i32), 3 void(i32)*, 4 i1, 5 label,
 *          6 i32(i32), 7 i32(i32)*
 *   [0] define void @main(i32 [5])     [1] declare i32 @dx.op.foo(i32)
 *   [2] i32 1   [3] i32 -2   [4] i32 0 (NULL)
 *   !0 = "hi"  !1 = i32 1  !2 = !{!0, !1, null}   !dx.test = !{!2}   kind 14 dx.precise
 *   bb0: [6] = add i32 [5], [7]       ; [7] is a forward reference
 *        [7] = call i32 @dx.op.foo(i32 [6]), !dx.precise !2
 *        [8] = icmp eq i32 [7], [2]
 *        br i1 [8], label bb1, label bb1
 *   bb1 ("exit"): ret void
 * llvm-dis-14 disassembles this module and the loop module below exactly as
 * their comments show (checked when the test was written: the records are
 * LLVM 3.7's, NUMENTRY and eight-field FUNCTION records included).
 */
#include <stdlib.h>
#include <string.h>

#include "dxil_bitcode_writer.h"
#include "check.h"
#include "reflect/bitcode.h"

enum fault {
    FAULT_NONE,
    FAULT_UNDEFINED_FORWARD, /* the add's rhs names [20], never defined */
    FAULT_FUNCTION_TYPE,     /* @main's FUNCTION record names type 99 */
    FAULT_TYPE_CYCLE,        /* type 9: a struct holding itself by value */
    FAULT_TYPE_FORWARD,      /* type 8: a pointer to type 9, an array (not a named struct) */
    FAULT_BLOCK_BOMB,        /* DECLAREBLOCKS of 1,000,000 blocks */
    FAULT_EXTRA_INSTRUCTION, /* one ret more than there are blocks */
    FAULT_BAD_CALLEE_TYPE,   /* the call's explicit function type is i32 */
    FAULT_MD_NODE_PAST,      /* node !2 names !3, one past the block's three items */
    FAULT_MD_NAMED_PAST,     /* !dx.test names !3 */
    FAULT_MD_NODE_WIDE,      /* node !2's second operand takes 33 bits */
};

static uint64_t fault_bit; /* where the faulty record starts */
static uint64_t add_bit;   /* where the add instruction's record starts */

static void mark(struct bw *w, enum fault fault, enum fault here)
{
    if (fault == here)
        fault_bit = w->bit;
}

static void write_types(struct bw *w, enum fault fault)
{
    bw_enter_block(w, 17, 4);
    bw_record(w, 1, (uint64_t[]){ 8 }, 1);        /* NUMENTRY */
    bw_record(w, 7, (uint64_t[]){ 32 }, 1);       /* 0 i32 */
    bw_record(w, 2, NULL, 0);                     /* 1 void */
    bw_record(w, 21, (uint64_t[]){ 0, 1, 0 }, 3); /* 2 void(i32) */
    bw_record(w, 8, (uint64_t[]){ 2, 0 }, 2);     /* 3 pointer to 2 */
    bw_record(w, 7, (uint64_t[]){ 1 }, 1);        /* 4 i1 */
    bw_record(w, 5, NULL, 0);                     /* 5 label */
    bw_record(w, 21, (uint64_t[]){ 0, 0, 0 }, 3); /* 6 i32(i32) */
    bw_record(w, 8, (uint64_t[]){ 6, 0 }, 2);     /* 7 pointer to 6 */
    if (fault == FAULT_TYPE_CYCLE) {
        /* Every reference is one LLVM allows (the array names a later named struct),
         * but %loop holds itself by value. */
        bw_record(w, 11, (uint64_t[]){ 1, 9 }, 2);    /* 8 [1 x %loop] */
        bw_record(w, 19, (uint64_t[]){ 'l', 'o', 'o', 'p' }, 4);
        bw_record(w, 20, (uint64_t[]){ 0, 0, 8 }, 3); /* 9 %loop = { i32, [1 x %loop] } */
    }
    if (fault == FAULT_TYPE_FORWARD) {
        bw_record(w, 8, (uint64_t[]){ 9, 0 }, 2);  /* 8 pointer to 9 */
        bw_record(w, 11, (uint64_t[]){ 2, 0 }, 2); /* 9 [2 x i32] */
    }
    /* Both are found when the block ends: at its END_BLOCK. */
    mark(w, fault, FAULT_TYPE_CYCLE);
    mark(w, fault, FAULT_TYPE_FORWARD);
    bw_end_block(w);
}

static void write_module_level(struct bw *w, enum fault fault)
{
    bw_record(w, 2, (uint64_t[]){ 'd', 'x', 'i', 'l', '-', 'm', 's', '-', 'd', 'x' }, 10);
    mark(w, fault, FAULT_FUNCTION_TYPE);
    /* FUNCTION: type, cc, isproto, linkage, paramattr, align, section, visibility */
    bw_record(w, 8, (uint64_t[]){ fault == FAULT_FUNCTION_TYPE ? 99 : 2, 0, 0, 0, 1, 0, 0, 0 }, 8);
    bw_record(w, 8, (uint64_t[]){ 6, 0, 1, 0, 0, 0, 0, 0 }, 8);
    bw_enter_block(w, 11, 4);
    bw_record(w, 1, (uint64_t[]){ 0 }, 1); /* SETTYPE i32 */
    bw_record(w, 4, (uint64_t[]){ 2 }, 1); /* [2] 1 */
    bw_record(w, 4, (uint64_t[]){ 5 }, 1); /* [3] -2 (signed VBR: 2 << 1 | 1) */
    bw_record(w, 2, NULL, 0);              /* [4] NULL */
    bw_end_block(w);
    bw_enter_block(w, 15, 3);
    bw_record(w, 1, (uint64_t[]){ 'h', 'i' }, 2);
    bw_record(w, 2, (uint64_t[]){ 0, 2 }, 2);
    mark(w, fault, FAULT_MD_NODE_WIDE);
    bw_record(w, 3,
              (uint64_t[]){ 1,
                            fault == FAULT_MD_NODE_PAST   ? 4
                            : fault == FAULT_MD_NODE_WIDE ? (1ull << 32) + 2
                                                          : 2,
                            0 },
              3);
    bw_record(w, 4, (uint64_t[]){ 'd', 'x', '.', 't', 'e', 's', 't' }, 7);
    bw_record(w, 10, (uint64_t[]){ fault == FAULT_MD_NAMED_PAST ? 3 : 2 }, 1);
    /* Both are found when the block ends: at its END_BLOCK. */
    mark(w, fault, FAULT_MD_NODE_PAST);
    mark(w, fault, FAULT_MD_NAMED_PAST);
    bw_end_block(w);
    bw_enter_block(w, 15, 3);
    bw_record(w, 6, (uint64_t[]){ 14, 'd', 'x', '.', 'p', 'r', 'e', 'c', 'i', 's', 'e' }, 11);
    bw_end_block(w);
    bw_enter_block(w, 14, 4);
    bw_record(w, 1, (uint64_t[]){ 0, 'm', 'a', 'i', 'n' }, 5);
    bw_record(w, 1, (uint64_t[]){ 1, 'd', 'x', '.', 'o', 'p', '.', 'f', 'o', 'o' }, 10);
    bw_end_block(w);
}

static void write_body(struct bw *w, enum fault fault)
{
    bw_enter_block(w, 12, 4);
    mark(w, fault, FAULT_BLOCK_BOMB);
    bw_record(w, 1, (uint64_t[]){ fault == FAULT_BLOCK_BOMB ? 1000000 : 2 }, 1);
    /* [6] = add [5], [7]: lhs rel 6-5 = 1, rhs rel 6-7 wraps to 2^32 - 1. */
    mark(w, fault, FAULT_UNDEFINED_FORWARD);
    add_bit = w->bit;
    uint64_t rhs = fault == FAULT_UNDEFINED_FORWARD ? (uint64_t)(uint32_t)(6 - 20) : 0xffffffffu;
    bw_record(w, 2, (uint64_t[]){ 1, rhs, 0 }, 3);
    /* [7] = call: attrs 0, ccinfo explicit type, type 6, callee rel 7-1, arg rel 7-6. */
    mark(w, fault, FAULT_BAD_CALLEE_TYPE);
    bw_record(w, 34, (uint64_t[]){ 0, 0x8000, fault == FAULT_BAD_CALLEE_TYPE ? 0 : 6, 6, 1 }, 5);
    bw_record(w, 28, (uint64_t[]){ 1, 6, 32 }, 3); /* [8] = icmp eq [7], [2] */
    bw_record(w, 11, (uint64_t[]){ 1, 1, 1 }, 3);  /* br [8], bb1, bb1 */
    bw_record(w, 10, NULL, 0);                      /* ret void */
    mark(w, fault, FAULT_EXTRA_INSTRUCTION);
    if (fault == FAULT_EXTRA_INSTRUCTION)
        bw_record(w, 10, NULL, 0);
    bw_enter_block(w, 16, 3);
    bw_record(w, 11, (uint64_t[]){ 1, 14, 2 }, 3);
    bw_end_block(w);
    bw_enter_block(w, 14, 4);
    bw_record(w, 2, (uint64_t[]){ 1, 'e', 'x', 'i', 't' }, 5);
    bw_record(w, 1, (uint64_t[]){ 6, 's', 'u', 'm' }, 4);
    bw_end_block(w);
    bw_end_block(w);
}

static void write_module(struct bw *w, enum fault fault)
{
    bw_begin(w);
    bw_fixed(w, 0xdec04342u, 32); /* 'B' 'C' 0xC0DE */
    bw_enter_block(w, 8, 3);
    bw_record(w, 1, (uint64_t[]){ 1 }, 1); /* VERSION 1 */
    /* Group 1 for the function (index 0xFFFFFFFF): nounwind (enum kind 18); list 1 = [1]. */
    bw_enter_block(w, 10, 3);
    bw_record(w, 3, (uint64_t[]){ 1, 0xffffffffu, 0, 18 }, 4);
    bw_end_block(w);
    bw_enter_block(w, 9, 3);
    bw_record(w, 2, (uint64_t[]){ 1 }, 1);
    bw_end_block(w);
    write_types(w, fault);
    write_module_level(w, fault);
    write_body(w, fault);
    bw_end_block(w);
}

static void test_module(void)
{
    struct bw w;
    write_module(&w, FAULT_NONE);
    struct sb_bc_module *m = NULL;
    struct sb_error error = { 0 };
    enum sb_result result = sb_bc_read(w.data, bw_size(&w), 50, &m, &error);
    CHECK(result == SB_SUCCESS, "read: %s", error.message);
    bw_free(&w);
    if (!m)
        return;
    CHECK(m->version == 1 && !strcmp(m->triple, "dxil-ms-dx"), "version %u triple '%s'",
          m->version, m->triple);
    CHECK(m->type_count == 8 && m->types[6].kind == SB_BC_TYPE_FUNCTION &&
              m->types[6].element == 0 && m->types[6].member_count == 1 &&
              m->types[7].kind == SB_BC_TYPE_POINTER && m->types[7].element == 6,
          "types: %u", m->type_count);
    CHECK(m->function_count == 2 && m->value_count == 5 && m->constant_count == 3,
          "functions %u values %u constants %u", m->function_count, m->value_count,
          m->constant_count);
    CHECK(m->functions[0].name && !strcmp(m->functions[0].name, "main") &&
              !m->functions[0].is_declaration && m->values[0].type == 3,
          "@main");
    CHECK(m->functions[1].name && !strcmp(m->functions[1].name, "dx.op.foo") &&
              m->functions[1].is_declaration && m->values[1].type == 7,
          "@dx.op.foo");
    CHECK(m->constants[0].kind == SB_BC_CONST_INTEGER && m->constants[0].bits == 1 &&
              m->constants[1].bits == 0xfffffffeu && m->constants[2].kind == SB_BC_CONST_NULL,
          "constants %llu %llu", (unsigned long long)m->constants[0].bits,
          (unsigned long long)m->constants[1].bits);
    CHECK(m->metadata_count == 3 && m->metadata[0].kind == SB_BC_MD_STRING &&
              !strcmp(m->metadata[0].string, "hi") && m->metadata[1].kind == SB_BC_MD_VALUE &&
              m->metadata[1].value == 2 && m->metadata[2].operand_count == 3 &&
              m->metadata[2].operands[0] == 0 && m->metadata[2].operands[1] == 1 &&
              m->metadata[2].operands[2] == SB_BC_NONE,
          "metadata");
    const struct sb_bc_named_metadata *named = sb_bc_named_metadata_find(m, "dx.test");
    CHECK(named && named->operand_count == 1 && named->operands[0] == 2, "!dx.test");
    CHECK(named && named->name_length == 7, "!dx.test name length %u", named ? named->name_length : 0);
    /* Found by the whole name: neither a prefix nor a longer name matches. */
    CHECK(!sb_bc_named_metadata_find(m, "dx.tes") && !sb_bc_named_metadata_find(m, "dx.tests") &&
              !sb_bc_named_metadata_find(m, ""),
          "a name that is not !dx.test");
    CHECK(m->metadata_kind_count == 1 && m->metadata_kinds[0].id == 14 &&
              !strcmp(m->metadata_kinds[0].name, "dx.precise"),
          "kinds");
    CHECK(m->attribute_group_count == 1 && m->attribute_groups[0].id == 1 &&
              m->attribute_groups[0].attribute_count == 1 &&
              m->attribute_groups[0].attributes[0].key == 18 && m->attribute_list_count == 1 &&
              m->attribute_lists[0].group_count == 1 && m->attribute_lists[0].groups[0] == 1,
          "attributes: %u groups, %u lists", m->attribute_group_count, m->attribute_list_count);
    CHECK(m->functions[0].paramattr == 1, "@main's attribute list %u", m->functions[0].paramattr);

    const struct sb_bc_function *f = &m->functions[0];
    CHECK(f->block_count == 2 && f->instruction_count == 5 && f->first_value == 5 &&
              f->value_count == 4,
          "body: %u blocks %u instructions first value %u, %u values", f->block_count,
          f->instruction_count, f->first_value, f->value_count);
    if (f->instruction_count == 5 && f->block_count == 2) {
        const struct sb_bc_instruction *in = f->instructions;
        CHECK(f->blocks[0].first_instruction == 0 && f->blocks[0].instruction_count == 4 &&
                  f->blocks[1].first_instruction == 4 && f->blocks[1].instruction_count == 1 &&
                  f->blocks[1].name && !strcmp(f->blocks[1].name, "exit"),
              "blocks");
        CHECK(in[0].opcode == SB_BC_OP_BINOP && in[0].operand_count == 2 &&
                  in[0].operands[0] == 5 && in[0].operands[1] == 7 && in[0].value == 6 &&
                  in[0].type == 0 && in[0].op == 0 && in[0].offset == 50 + add_bit / 8,
              "add with a forward reference: operands %u %u value %u", in[0].operands[0],
              in[0].operands[1], in[0].value);
        CHECK(in[1].opcode == SB_BC_OP_CALL && in[1].operands[0] == 1 && in[1].operands[1] == 6 &&
                  in[1].value == 7 && in[1].aux_type == 6 && in[1].flags == 0x8000,
              "call");
        CHECK(sb_bc_callee(m, f, &in[1]) == &m->functions[1], "callee lookup");
        CHECK(in[2].opcode == SB_BC_OP_CMP2 && in[2].operands[0] == 7 && in[2].operands[1] == 2 &&
                  in[2].op == 32 && in[2].type == 4 && in[2].value == 8,
              "icmp");
        CHECK(in[3].opcode == SB_BC_OP_BR && in[3].block_count == 2 && in[3].blocks[0] == 1 &&
                  in[3].operand_count == 1 && in[3].operands[0] == 8 && in[3].value == SB_BC_NONE,
              "br");
        CHECK(in[4].opcode == SB_BC_OP_RET && in[4].operand_count == 0 && in[4].type == SB_BC_NONE,
              "ret void");
    }
    CHECK(f->attachment_count == 1 && f->attachments[0].instruction == 1 &&
              f->attachments[0].kind == 14 && f->attachments[0].node == 2,
          "attachment");
    const struct sb_bc_value *sum = sb_bc_value_get(m, f, 6);
    CHECK(sum && sum->kind == SB_BC_VALUE_INSTRUCTION && sum->index == 0 && sum->name &&
              !strcmp(sum->name, "sum"),
          "value 6");
    const struct sb_bc_constant *minus_two = sb_bc_constant_get(m, f, 3);
    CHECK(minus_two && minus_two->bits == 0xfffffffeu, "constant lookup");
    CHECK(!sb_bc_value_get(m, f, 9) && !sb_bc_constant_get(m, f, 6), "lookups past the end");
    sb_bc_module_destroy(m);
}

/* SB_BC_READ_SKIP_KINDS_AND_LAYOUT: the same module without its kind names and triple,
 * everything else as sb_bc_read gives it (the attachment keeps its kind id 14). */
static void test_module_skipping(void)
{
    struct bw w;
    write_module(&w, FAULT_NONE);
    struct sb_bc_module *m = NULL;
    struct sb_error error = { 0 };
    enum sb_result result =
        sb_bc_read_ex(w.data, bw_size(&w), 50, SB_BC_READ_SKIP_KINDS_AND_LAYOUT, &m, &error);
    CHECK(result == SB_SUCCESS, "read without kinds: %s", error.message);
    bw_free(&w);
    if (!m)
        return;
    CHECK(!strcmp(m->triple, "") && !strcmp(m->datalayout, "") && m->metadata_kind_count == 0,
          "skipped: triple '%s' kinds %u", m->triple, m->metadata_kind_count);
    CHECK(m->type_count == 8 && m->function_count == 2 && m->value_count == 5 &&
              m->constant_count == 3 && m->metadata_count == 3 &&
              sb_bc_named_metadata_find(m, "dx.test"),
          "kept: types %u functions %u values %u constants %u metadata %u", m->type_count,
          m->function_count, m->value_count, m->constant_count, m->metadata_count);
    const struct sb_bc_function *f = &m->functions[0];
    CHECK(f->instruction_count == 5 && f->attachment_count == 1 && f->attachments[0].kind == 14 &&
              f->attachments[0].node == 2,
          "body: %u instructions, %u attachments", f->instruction_count, f->attachment_count);
    CHECK(m->attribute_group_count == 1 && m->attribute_list_count == 1,
          "attributes kept: %u groups, %u lists", m->attribute_group_count,
          m->attribute_list_count);
    sb_bc_module_destroy(m);
}

/* SB_BC_READ_SKIP_ATTRIBUTES_AND_ATTACHMENTS: no attribute groups, lists or attachments,
 * everything else (values after the skipped blocks, the body, names) as before. */
static void test_module_skipping_attributes(void)
{
    struct bw w;
    write_module(&w, FAULT_NONE);
    struct sb_bc_module *m = NULL;
    struct sb_error error = { 0 };
    enum sb_result result = sb_bc_read_ex(w.data, bw_size(&w), 50,
                                          SB_BC_READ_SKIP_ATTRIBUTES_AND_ATTACHMENTS, &m, &error);
    CHECK(result == SB_SUCCESS, "read without attributes: %s", error.message);
    bw_free(&w);
    if (!m)
        return;
    CHECK(m->attribute_group_count == 0 && m->attribute_list_count == 0 &&
              m->function_count && m->functions[0].paramattr == 1,
          "skipped: %u groups, %u lists", m->attribute_group_count, m->attribute_list_count);
    CHECK(!strcmp(m->triple, "dxil-ms-dx") && m->metadata_kind_count == 1 &&
              m->type_count == 8 && m->function_count == 2 && m->value_count == 5 &&
              m->constant_count == 3 && m->metadata_count == 3 &&
              sb_bc_named_metadata_find(m, "dx.test"),
          "kept: triple '%s' types %u functions %u values %u constants %u metadata %u",
          m->triple, m->type_count, m->function_count, m->value_count, m->constant_count,
          m->metadata_count);
    const struct sb_bc_function *f = &m->functions[0];
    const struct sb_bc_value *sum = sb_bc_value_get(m, f, 6);
    CHECK(f->instruction_count == 5 && f->attachment_count == 0 && sum && sum->name &&
              !strcmp(sum->name, "sum"),
          "body: %u instructions, %u attachments", f->instruction_count, f->attachment_count);
    sb_bc_module_destroy(m);
}

/*
 * A second module for the memory, loop and switch records, with a phi whose
 * incoming value is a forward reference (signed VBR, negative delta):
 *   types: 0 i32, 1 i1, 2 void, 3 void(), 4 void()*, 5 [4 x i32], 6 [4 x i32]*, 7 i32*, 8 label,
 *          9 %node* (names type 10 before it exists), 10 %node = { i32, %node* }
 *   [0] define void @loop()   [1] i32 0 (NULL)  [2] i32 1  [3] i32 4
 *   [4] [4 x i32] [1, 2, 3, 4] (DATA)   [5] [4 x i32] {1, 1, 4, 0} (AGGREGATE of [2] [2] [3] [1])
 *   bb0: [6] = alloca [4 x i32], i32 1, align 4
 *        [7] = getelementptr inbounds [4 x i32], [6], i32 0, i32 1
 *        store i32 1, [7], align 4
 *        [8] = load i32, [7], align 4
 *        br bb1
 *   bb1: [9] = phi i32 [0, bb0], [[10], bb1]      ; [10] not yet defined
 *        [10] = add i32 [9], [8]
 *        [11] = icmp slt i32 [10], 4
 *        br i1 [11], bb1, bb2
 *   bb2: switch i32 [10], label bb3 [i32 1, label bb3]
 *   bb3: ret void
 */
static void write_loop_module(struct bw *w)
{
    bw_begin(w);
    bw_fixed(w, 0xdec04342u, 32); /* 'B' 'C' 0xC0DE */
    bw_enter_block(w, 8, 3);
    bw_record(w, 1, (uint64_t[]){ 1 }, 1);
    bw_enter_block(w, 17, 4);
    bw_record(w, 1, (uint64_t[]){ 11 }, 1);    /* NUMENTRY */
    bw_record(w, 7, (uint64_t[]){ 32 }, 1);    /* 0 i32 */
    bw_record(w, 7, (uint64_t[]){ 1 }, 1);     /* 1 i1 */
    bw_record(w, 2, NULL, 0);                  /* 2 void */
    bw_record(w, 21, (uint64_t[]){ 0, 2 }, 2); /* 3 void() */
    bw_record(w, 8, (uint64_t[]){ 3, 0 }, 2);  /* 4 void()* */
    bw_record(w, 11, (uint64_t[]){ 4, 0 }, 2); /* 5 [4 x i32] */
    bw_record(w, 8, (uint64_t[]){ 5, 0 }, 2);  /* 6 [4 x i32]* */
    bw_record(w, 8, (uint64_t[]){ 0, 0 }, 2);  /* 7 i32* */
    bw_record(w, 5, NULL, 0);                  /* 8 label */
    bw_record(w, 8, (uint64_t[]){ 10, 0 }, 2);     /* 9 %node*: %node comes later */
    bw_record(w, 19, (uint64_t[]){ 'n', 'o', 'd', 'e' }, 4);
    bw_record(w, 20, (uint64_t[]){ 0, 0, 9 }, 3);  /* 10 %node = { i32, %node* } */
    bw_end_block(w);
    bw_record(w, 8, (uint64_t[]){ 3, 0, 0, 0, 0, 0, 0, 0 }, 8);
    bw_enter_block(w, 11, 4);
    bw_record(w, 1, (uint64_t[]){ 0 }, 1);
    bw_record(w, 2, NULL, 0);              /* [1] 0 */
    bw_record(w, 4, (uint64_t[]){ 2 }, 1); /* [2] 1 */
    bw_record(w, 4, (uint64_t[]){ 8 }, 1); /* [3] 4 */
    bw_record(w, 1, (uint64_t[]){ 5 }, 1);
    bw_record(w, 22, (uint64_t[]){ 1, 2, 3, 4 }, 4); /* [4] DATA */
    bw_record(w, 7, (uint64_t[]){ 2, 2, 3, 1 }, 4);  /* [5] AGGREGATE */
    bw_end_block(w);
    bw_enter_block(w, 12, 4);
    bw_record(w, 1, (uint64_t[]){ 4 }, 1);
    bw_record(w, 19, (uint64_t[]){ 5, 0, 2, 64 | 3 }, 4); /* alloca, explicit type, align 4 */
    bw_record(w, 43, (uint64_t[]){ 1, 5, 1, 6, 5 }, 5);   /* gep: base 7-6, indices 7-1, 7-2 */
    bw_record(w, 44, (uint64_t[]){ 1, 6, 3, 0 }, 4);      /* store: ptr 8-7, value 8-2 */
    bw_record(w, 20, (uint64_t[]){ 1, 0, 3, 0 }, 4);      /* load: ptr 8-7, type i32 */
    bw_record(w, 11, (uint64_t[]){ 1 }, 1);
    /* phi at id 9: [1] is delta 8 -> 16; [10] is delta -1 -> 3 */
    bw_record(w, 16, (uint64_t[]){ 0, 16, 0, 3, 1 }, 5);
    bw_record(w, 2, (uint64_t[]){ 1, 2, 0 }, 3);   /* add: 10-9, 10-8 */
    bw_record(w, 28, (uint64_t[]){ 1, 8, 40 }, 3); /* icmp slt: 11-10, 11-3 */
    bw_record(w, 11, (uint64_t[]){ 1, 2, 1 }, 3);  /* br: 12-11 */
    bw_record(w, 12, (uint64_t[]){ 0, 2, 3, 2, 3 }, 5); /* switch: cond 12-10, case value id 2 */
    bw_record(w, 10, NULL, 0);
    bw_end_block(w);
    bw_end_block(w);
}

static void test_loop_module(void)
{
    struct bw w;
    write_loop_module(&w);
    struct sb_bc_module *m = NULL;
    struct sb_error error = { 0 };
    CHECK(sb_bc_read(w.data, bw_size(&w), 0, &m, &error) == SB_SUCCESS, "loop module: %s",
          error.message);
    bw_free(&w);
    if (!m)
        return;
    CHECK(m->type_count == 11 && m->types[10].name && !strcmp(m->types[10].name, "node") &&
              m->types[10].member_count == 2 && m->types[10].members[1] == 9 &&
              m->types[9].kind == SB_BC_TYPE_POINTER && m->types[9].element == 10,
          "forward-referenced named struct");
    CHECK(m->constant_count == 5 && m->constants[3].kind == SB_BC_CONST_DATA &&
              m->constants[3].element_count == 4 && m->constants[3].elements[3] == 4 &&
              m->constants[4].kind == SB_BC_CONST_AGGREGATE && m->constants[4].elements[2] == 3 &&
              m->constants[4].type == 5,
          "DATA and AGGREGATE constants");
    const struct sb_bc_function *f = &m->functions[0];
    CHECK(f->block_count == 4 && f->instruction_count == 11 && f->value_count == 6,
          "loop body: %u blocks %u instructions %u values", f->block_count, f->instruction_count,
          f->value_count);
    if (f->instruction_count != 11 || f->block_count != 4) {
        sb_bc_module_destroy(m);
        return;
    }
    const struct sb_bc_instruction *in = f->instructions;
    CHECK(f->blocks[1].first_instruction == 5 && f->blocks[1].instruction_count == 4 &&
              f->blocks[3].first_instruction == 10,
          "block ranges");
    CHECK(in[0].opcode == SB_BC_OP_ALLOCA && in[0].type == 6 && in[0].aux_type == 5 &&
              in[0].operands[0] == 2 && in[0].align == 3 && in[0].value == 6,
          "alloca");
    CHECK(in[1].opcode == SB_BC_OP_GEP && in[1].type == 7 && in[1].flags == 1 &&
              in[1].operand_count == 3 && in[1].operands[0] == 6 && in[1].operands[1] == 1 &&
              in[1].operands[2] == 2 && in[1].value == 7,
          "gep: type %u", in[1].type);
    CHECK(in[2].opcode == SB_BC_OP_STORE && in[2].operands[0] == 7 && in[2].operands[1] == 2 &&
              in[2].value == SB_BC_NONE && in[2].align == 3,
          "store");
    CHECK(in[3].opcode == SB_BC_OP_LOAD && in[3].type == 0 && in[3].operands[0] == 7 &&
              in[3].value == 8,
          "load");
    CHECK(in[5].opcode == SB_BC_OP_PHI && in[5].operand_count == 2 && in[5].operands[0] == 1 &&
              in[5].operands[1] == 10 && in[5].blocks[0] == 0 && in[5].blocks[1] == 1 &&
              in[5].value == 9,
          "phi with a forward reference: %u %u", in[5].operands[0], in[5].operands[1]);
    CHECK(in[6].operands[0] == 9 && in[6].operands[1] == 8 && in[6].value == 10, "add");
    CHECK(in[7].op == 40 && in[7].type == 1 && in[7].operands[1] == 3 && in[7].value == 11,
          "icmp slt");
    CHECK(in[8].block_count == 2 && in[8].blocks[0] == 1 && in[8].blocks[1] == 2 &&
              in[8].operands[0] == 11,
          "conditional br");
    CHECK(in[9].opcode == SB_BC_OP_SWITCH && in[9].operand_count == 2 && in[9].operands[0] == 10 &&
              in[9].operands[1] == 2 && in[9].block_count == 2 && in[9].blocks[0] == 3 &&
              in[9].blocks[1] == 3,
          "switch");
    sb_bc_module_destroy(m);
}

static void expect_fault(enum fault fault, enum sb_result code, const char *what)
{
    struct bw w;
    fault_bit = 0;
    write_module(&w, fault);
    struct sb_bc_module *m = NULL;
    struct sb_error error = { 0 };
    enum sb_result result = sb_bc_read(w.data, bw_size(&w), 100, &m, &error);
    char prefix[40];
    snprintf(prefix, sizeof(prefix), "bit %llu: ", (unsigned long long)fault_bit);
    CHECK(result == code && error.code == code, "%s: %s (%s)", what, sb_result_name(result),
          error.message);
    CHECK(error.offset == 100 + fault_bit / 8, "%s: offset %llu, expected %llu (%s)", what,
          (unsigned long long)error.offset, (unsigned long long)(100 + fault_bit / 8),
          error.message);
    CHECK(!strncmp(error.message, prefix, strlen(prefix)), "%s: '%s' lacks '%s'", what,
          error.message, prefix);
    CHECK(m == NULL, "%s: a module despite the error", what);
    bw_free(&w);
}

/* The test module behind a header of `count` little-endian words (a new malloc'd
 * buffer of *size bytes); the header's words may use the bitcode size given. */
static uint8_t *module_behind_header(const uint32_t *header, int count, size_t *size)
{
    struct bw w;
    write_module(&w, FAULT_NONE);
    *size = 4 * (size_t)count + bw_size(&w);
    uint8_t *bytes = calloc(1, *size);
    for (int i = 0; i < count; i++)
        for (int b = 0; b < 4; b++)
            bytes[4 * i + b] = (uint8_t)(header[i] >> (8 * b));
    memcpy(bytes + 4 * count, w.data, bw_size(&w));
    bw_free(&w);
    return bytes;
}

/* The size in bytes of the test module's bitcode. */
static size_t module_size(void)
{
    struct bw w;
    write_module(&w, FAULT_NONE);
    size_t size = bw_size(&w);
    bw_free(&w);
    return size;
}

/* The bitcode wrapper (docs §1.2): five u32 {0x0B17C0DE, 0, offset, size, cputype}. */
static void test_wrapper(void)
{
    size_t size;
    uint32_t header[5] = { 0x0B17C0DE, 0, 20, (uint32_t)module_size(), 0 };
    uint8_t *wrapped = module_behind_header(header, 5, &size);
    struct sb_bc_module *m = NULL;
    struct sb_error error = { 0 };
    CHECK(sb_bc_read(wrapped, size, 0, &m, &error) == SB_SUCCESS && m && m->function_count == 2,
          "wrapped bitcode: %s", error.message);
    sb_bc_module_destroy(m);
    wrapped[8] = 200; /* offset 200: offset + size now pass the end */
    m = NULL;
    enum sb_result result = sb_bc_read(wrapped, size, 7, &m, &error);
    CHECK(result == SB_ERROR_BAD_OFFSET && error.offset == 15 && !m,
          "wrapper offset: %s at %llu", sb_result_name(result), (unsigned long long)error.offset);
    free(wrapped);
}

/* A DXIL part around the test module: program header + bitcode (docs §1.1). */
static void test_dxil_part(void)
{
    size_t size, bitcode_size = module_size();
    uint32_t header[6] = { 0x50066, (uint32_t)((24 + bitcode_size) / 4), 0x4C495844, 0x106, 16,
                           (uint32_t)bitcode_size };
    uint8_t *part = module_behind_header(header, 6, &size);
    struct sb_bc_module *m = NULL;
    struct sb_error error = { 0 };
    CHECK(sb_bc_read_dxil_part(part, size, 1000, &m, &error) == SB_SUCCESS, "part: %s",
          error.message);
    CHECK(m && m->program_version == 0x50066 && m->dxil_version == 0x106 && m->function_count == 2,
          "program header kept");
    sb_bc_module_destroy(m);

    struct { size_t at; uint32_t value; size_t size; enum sb_result code; uint64_t offset; } cases[] = {
        { 0, 0x50066, 23, SB_ERROR_TRUNCATED, 1000 },              /* header cut */
        { 4, 0x7fffffff, 0, SB_ERROR_BAD_SIZE, 1004 },             /* SizeInUint32 */
        { 8, 0x4C495845, 0, SB_ERROR_BAD_MAGIC, 1008 },            /* 'EXIL' */
        { 16, 8, 0, SB_ERROR_BAD_OFFSET, 1016 },                   /* offset inside the header */
        { 20, (uint32_t)bitcode_size + 4, 0, SB_ERROR_BAD_OFFSET, 1016 }, /* size past the part */
        { 24, 0x12345678, 0, SB_ERROR_BAD_MAGIC, 1024 },           /* bitcode magic */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint8_t *copy = malloc(size);
        memcpy(copy, part, size);
        for (int b = 0; b < 4; b++)
            copy[cases[i].at + (size_t)b] = (uint8_t)(cases[i].value >> (8 * b));
        m = NULL;
        memset(&error, 0, sizeof(error));
        enum sb_result result =
            sb_bc_read_dxil_part(copy, cases[i].size ? cases[i].size : size, 1000, &m, &error);
        CHECK(result == cases[i].code && error.offset == cases[i].offset && !m,
              "header case %zu: %s at %llu (%s)", i, sb_result_name(result),
              (unsigned long long)error.offset, error.message);
        free(copy);
    }
    free(part);
}

int main(void)
{
    test_module();
    test_module_skipping();
    test_module_skipping_attributes();
    test_loop_module();
    expect_fault(FAULT_UNDEFINED_FORWARD, SB_ERROR_BC_BAD_REFERENCE, "undefined forward reference");
    expect_fault(FAULT_FUNCTION_TYPE, SB_ERROR_BC_BAD_TYPE, "FUNCTION type out of range");
    expect_fault(FAULT_TYPE_CYCLE, SB_ERROR_BC_BAD_TYPE, "struct containing itself");
    expect_fault(FAULT_TYPE_FORWARD, SB_ERROR_BC_BAD_TYPE, "forward reference to an array type");
    expect_fault(FAULT_BLOCK_BOMB, SB_ERROR_BAD_COUNT, "DECLAREBLOCKS bomb");
    expect_fault(FAULT_EXTRA_INSTRUCTION, SB_ERROR_BC_BAD_RECORD, "instruction past the blocks");
    expect_fault(FAULT_BAD_CALLEE_TYPE, SB_ERROR_BC_BAD_TYPE, "call through a non-function type");
    expect_fault(FAULT_MD_NODE_PAST, SB_ERROR_BC_BAD_REFERENCE, "node naming metadata past the end");
    expect_fault(FAULT_MD_NAMED_PAST, SB_ERROR_BC_BAD_REFERENCE,
                 "named node naming metadata past the end");
    expect_fault(FAULT_MD_NODE_WIDE, SB_ERROR_BC_BAD_RECORD, "node operand of 33 bits");
    test_dxil_part();
    test_wrapper();
    printf("dxil_bitcode_module: %u checks, %u failed\n", checks, failures);
    return failures ? 1 : 0;
}
