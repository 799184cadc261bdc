/* SPDX-License-Identifier: MIT */
/*
 * The in-memory DXIL module that the builder (dxil_module_builder.c) fills and
 * the bitcode emitter (dxil_module_writer.c) writes. Tests never include it:
 * they use dxil_module_writer.h.
 */
#ifndef SB_TEST_DXIL_MODULE_INTERNAL_H
#define SB_TEST_DXIL_MODULE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "dxil_module_writer.h"

/* MAX_MEMBERS bounds struct members and function parameters: 20 holds the longest dx.op the
 * tests write (sampleGrad: the opcode and 16 arguments). */
enum { MAX_MEMBERS = 20, MAX_OPERANDS = 24, NAME_MAX_LEN = 64, MAX_DATA_WORDS = 16 };

/* FUNCTION_BLOCK record codes the builder stores in each instruction (docs §2.12). */
enum { INST_BINOP = 2, INST_CAST = 3, INST_RET = 10, INST_BR = 11, INST_PHI = 16,
       INST_ALLOCA = 19, INST_LOAD = 20, INST_EXTRACTVAL = 26, INST_CMP2 = 28, INST_CALL = 34,
       INST_ATOMICRMW = 38, INST_GEP = 43, INST_STORE = 44, INST_CMPXCHG = 46 };

enum type_kind { T_VOID, T_FLOAT, T_INT, T_POINTER, T_ARRAY, T_STRUCT, T_FUNCTION };
struct type {
    enum type_kind kind;
    uint32_t size;     /* int width, array count, pointer addrspace */
    uint32_t element;  /* pointee, array element, function return */
    unsigned member_count;
    uint32_t members[MAX_MEMBERS];
    char name[NAME_MAX_LEN];
};

enum value_kind { V_GLOBAL, V_FUNCTION, V_CONST, V_INST };
enum const_kind { C_INT, C_FLOAT, C_UNDEF, C_DATA, C_GEP, C_AGGREGATE };
struct value {
    enum value_kind kind;
    uint32_t type;         /* the value's own type (pointers for globals/functions) */
    uint32_t content_type; /* global element / function type */
    unsigned addrspace;
    bool is_definition;
    enum dm_attr attr;
    enum const_kind const_kind;
    uint64_t bits;          /* integer (sign-extended) or float bits */
    bool in_metadata;       /* a constant metadata names: module level */
    unsigned data_count;    /* C_DATA: the array's 32-bit elements (module level); */
    uint32_t data[MAX_DATA_WORDS]; /* C_GEP: the base, then the index constants (handles) */
    bool inbounds;          /* C_GEP */
    bool is_constant;       /* V_GLOBAL: `constant` */
    bool has_initializer;   /* V_GLOBAL: internal, initialised with value `initializer` */
    uint32_t initializer;
    unsigned member_count;  /* C_AGGREGATE: its member constants (value handles) */
    uint32_t members[MAX_MEMBERS];
    char name[NAME_MAX_LEN];
    uint32_t id;            /* absolute value ID, set by dm_write */
};

/* How an operand is written (docs §2.10): a relative value ID; the same followed by
 * the value's type when it is a forward reference; a signed relative ID (phi); a
 * literal (opcodes, flags, alignments); a type ID; an absolute value ID (ALLOCA's size);
 * a block handle, written as its number inside its function. */
enum operand_kind { O_REL, O_REL_TYPED, O_PHI, O_LIT, O_TYPE, O_ABS, O_BLOCK };
struct operand {
    enum operand_kind kind;
    uint32_t v;
};
struct inst {
    unsigned code;
    uint32_t block;
    uint32_t value;    /* result value handle or DM_NONE */
    unsigned count;
    struct operand ops[MAX_OPERANDS];
};

enum md_kind { M_STRING, M_VALUE, M_NODE };
struct md {
    enum md_kind kind;
    char *string;
    uint32_t value;
    unsigned count;
    uint32_t *ops;
};
struct named_md {
    char name[NAME_MAX_LEN];
    unsigned count;
    uint32_t *nodes;
};

struct dxil_module {
    struct type *types;
    unsigned type_count, type_cap;
    struct value *values;
    unsigned value_count, value_cap;
    struct inst *insts;
    unsigned inst_count, inst_cap;
    struct md *mds;
    unsigned md_count, md_cap;
    struct named_md *named;
    unsigned named_count, named_cap;
    uint32_t block_count;
    uint32_t current_block;
    uint32_t entry;
    /** The function each block belongs to (dm_entry / dm_function in force at dm_block);
     *  a function's blocks are consecutive handles. */
    uint32_t *block_owner;
    unsigned block_owner_cap;
    uint32_t body_function; /**< the function new blocks go to; DM_NONE before dm_entry */
    bool failed;
};

/** Records a misuse (the first one's message goes to stderr); dm_write() then fails. */
void dm_fail(struct dxil_module *m, const char *what);

#endif
