/* SPDX-License-Identifier: MIT */
/*
 * Builds a DXIL module in memory and writes it as LLVM 3.7 bitcode in the
 * order dxc writes it (../shared/docs/dxil.md §2.5-§2.13): VERSION, BLOCKINFO,
 * attribute groups, types, triple "dxil-ms-dx", the legacy data layout,
 * globals, function records, module constants, metadata, metadata kinds,
 * the module value symbol table, then the function bodies (their constants,
 * then their instructions with relative operand IDs; phis with signed ones).
 *
 * A test describes a program with builder calls; every handle is a plain
 * index: types (dm_type_*), values (globals, functions, constants,
 * instruction results) and metadata. Value numbering, module-versus-function
 * constants and forward references are worked out by dm_write(): a constant
 * that metadata names goes to the module's CONSTANTS block, every other one
 * to the function's. Blocks may be filled in any order; they are written in
 * the order dm_block() created them, which is also the value-numbering order.
 *
 * Misuse (a handle out of range, a wrong operand type, more operands than an
 * instruction holds) makes dm_write() fail with a message on stderr, so a
 * test cannot pass with a broken program. Out of memory ends the program.
 *
 * dxil_module_builder.c records (every function below but dm_write) and
 * dxil_module_writer.c numbers and emits (dm_write).
 */
#ifndef SB_TEST_DXIL_MODULE_WRITER_H
#define SB_TEST_DXIL_MODULE_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "dxc_container_writer.h"

/** "no value": the result of a call to a void function, a null metadata operand. */
#define DM_NONE 0xFFFFFFFFu

/** Function attributes of a declaration (all dx.op declarations are nounwind). */
enum dm_attr {
    DM_ATTR_NONE = 0,        /**< the entry function */
    DM_ATTR_NOUNWIND,        /**< stores (bufferStore, storeOutput) */
    DM_ATTR_READNONE,        /**< nounwind readnone: pure ops (threadId, loadInput) */
    DM_ATTR_READONLY,        /**< nounwind readonly: createHandle, loads */
    DM_ATTR_NODUPLICATE,     /**< nounwind noduplicate: barrier */
    DM_ATTR_COUNT
};

/** LLVM BINOP opcodes (docs §2.12); the FP forms follow from the operand type. */
enum dm_binop { DM_ADD = 0, DM_SUB = 1, DM_MUL = 2, DM_UDIV = 3, DM_SDIV = 4, DM_UREM = 5,
                DM_SREM = 6, DM_SHL = 7, DM_LSHR = 8, DM_ASHR = 9, DM_AND = 10, DM_OR = 11,
                DM_XOR = 12 };
/** CMP2 predicates used by the test programs (docs §2.12). */
enum dm_pred { DM_FCMP_OLT = 4, DM_FCMP_ONE = 6, DM_FCMP_ORD = 7, DM_FCMP_UNO = 8,
               DM_FCMP_UEQ = 9, DM_FCMP_ULT = 12, DM_ICMP_EQ = 32, DM_ICMP_NE = 33,
               DM_ICMP_ULT = 36, DM_ICMP_SLT = 40 };
/** CAST opcodes (docs §2.12). */
enum dm_castop { DM_TRUNC = 0, DM_ZEXT = 1, DM_SEXT = 2, DM_FPTOUI = 3, DM_FPTOSI = 4,
                 DM_UITOFP = 5, DM_SITOFP = 6,
                 DM_FPTRUNC = 7, DM_FPEXT = 8, DM_BITCAST = 11 };
/** ATOMICRMW operations (docs §2.12). */
enum dm_rmw { DM_RMW_XCHG = 0, DM_RMW_ADD = 1, DM_RMW_SUB = 2, DM_RMW_AND = 3, DM_RMW_OR = 5,
              DM_RMW_UMAX = 9 };
/** BINOP flags: none, and dxc's fast-math mask (fast + ninf + nsz + arcp, no nnan). */
#define DM_FLAGS_NONE (-1)
#define DM_FAST_MATH 29

struct dxil_module;

struct dxil_module *dm_create(void);
void dm_destroy(struct dxil_module *m);

/* Types: interned, so asking twice gives the same ID. */
uint32_t dm_type_void(struct dxil_module *m);
uint32_t dm_type_int(struct dxil_module *m, unsigned bits);
uint32_t dm_type_float(struct dxil_module *m);
/** half and double (IEEE 16 and 64 bits). */
uint32_t dm_type_half(struct dxil_module *m);
uint32_t dm_type_double(struct dxil_module *m);
uint32_t dm_type_ptr(struct dxil_module *m, uint32_t pointee, unsigned addrspace);
uint32_t dm_type_array(struct dxil_module *m, uint32_t count, uint32_t element);
/** A named (identified) struct such as "dx.types.Handle". */
uint32_t dm_type_struct(struct dxil_module *m, const char *name, const uint32_t *members,
                        unsigned count);
uint32_t dm_type_function(struct dxil_module *m, uint32_t ret, const uint32_t *params,
                          unsigned count);

/* Module values. */
/** An external global of `element` type in `addrspace` (3 = groupshared), align 4. */
uint32_t dm_global(struct dxil_module *m, const char *name, uint32_t element, unsigned addrspace);
/** An internal constant global of address space 0 (dxc's static const arrays), initialised
 *  by a dm_const_data constant (its type is the global's). */
uint32_t dm_global_constant(struct dxil_module *m, const char *name, uint32_t initializer);
/** The same, not constant: a static variable (per thread in HLSL) that dxc kept in memory. */
uint32_t dm_global_static(struct dxil_module *m, const char *name, uint32_t initializer);
/** The entry function `void name()`, whose body the instruction builders fill. */
uint32_t dm_entry(struct dxil_module *m, const char *name);
/**
 * A further function `void name()` with a body (a hull shader's patch-constant
 * function; a module may have it without dm_entry(), as a pass-through hull shader
 * has no entry function): the blocks made from now on (dm_block) are its own,
 * until the next dm_function(). Bodies are written in the order their functions were
 * made; with several bodies every constant goes to the module's CONSTANTS block.
 */
uint32_t dm_function(struct dxil_module *m, const char *name);
/** A declaration; the same name twice returns the first. */
uint32_t dm_declare(struct dxil_module *m, const char *name, uint32_t fn_type, enum dm_attr attr);

/* Constants (interned by type and bits). */
uint32_t dm_const_int(struct dxil_module *m, uint32_t type, int64_t value);
uint32_t dm_i1(struct dxil_module *m, bool value);
uint32_t dm_i8(struct dxil_module *m, int8_t value);
uint32_t dm_i32(struct dxil_module *m, int32_t value);
uint32_t dm_f32(struct dxil_module *m, float value);
uint32_t dm_f64(struct dxil_module *m, double value);
/** A half constant from its IEEE bits (C has no half type). */
uint32_t dm_f16_bits(struct dxil_module *m, uint16_t bits);
uint32_t dm_undef(struct dxil_module *m, uint32_t type);
/** An array constant of `count` (<= 16) 32-bit words (CST_CODE_DATA; a module constant, for
 *  global initializers); `array_type` must be [count x i32] or [count x float]. */
uint32_t dm_const_data(struct dxil_module *m, uint32_t array_type, const uint32_t *words,
                       unsigned count);
/** A constant of struct `type` whose members are the constants `members` (CST_AGGREGATE),
 *  such as a dx.types.ResBind operand. */
uint32_t dm_const_struct(struct dxil_module *m, uint32_t type, const uint32_t *members,
                         unsigned count);

/** The type of any value handle (a pointer type for globals and functions). */
uint32_t dm_value_type(const struct dxil_module *m, uint32_t value);

/* The entry's body. */
/** A new basic block; the first one is the entry block. */
uint32_t dm_block(struct dxil_module *m);
/** Where the following instructions go. */
void dm_at(struct dxil_module *m, uint32_t block);
uint32_t dm_binop(struct dxil_module *m, enum dm_binop op, uint32_t a, uint32_t b, int flags);
uint32_t dm_cast(struct dxil_module *m, enum dm_castop op, uint32_t value, uint32_t type);
uint32_t dm_cmp(struct dxil_module *m, enum dm_pred pred, uint32_t a, uint32_t b);
uint32_t dm_extractvalue(struct dxil_module *m, uint32_t aggregate, unsigned index);
/** getelementptr over an array global: base, then `count` index values. */
uint32_t dm_gep(struct dxil_module *m, bool inbounds, uint32_t base, const uint32_t *indices,
                unsigned count);
/** A constant-expression GEP over a global (CST_CODE_CE_[INBOUNDS_]GEP, a function
 *  constant), which dxc writes for constant indices into groupshared and constant arrays. */
uint32_t dm_const_gep(struct dxil_module *m, bool inbounds, uint32_t base,
                      const uint32_t *indices, unsigned count);
uint32_t dm_load(struct dxil_module *m, uint32_t ptr, unsigned align);
void dm_store(struct dxil_module *m, uint32_t ptr, uint32_t value, unsigned align);
/** alloca of one `type` (an array for a local array), align in bytes. */
uint32_t dm_alloca(struct dxil_module *m, uint32_t type, unsigned align);
/** atomicrmw `op` ptr, value seq_cst (docs §2.12); the result is the old value. */
uint32_t dm_atomicrmw(struct dxil_module *m, enum dm_rmw op, uint32_t ptr, uint32_t value);
/** cmpxchg ptr, compare, value seq_cst seq_cst (docs §2.12): a literal {T, i1} of the old
 *  value and whether it equalled `compare` (dm_extractvalue 0 / 1). */
uint32_t dm_cmpxchg(struct dxil_module *m, uint32_t ptr, uint32_t compare, uint32_t value);
/** A call; DM_NONE when the callee returns void. */
uint32_t dm_call(struct dxil_module *m, uint32_t callee, const uint32_t *args, unsigned count);
/**
 * A dx.op call: declares `name` (`ret name(i32, <types of args>)`) on first use
 * and calls it with the i32 `opcode` constant, then `args`.
 */
uint32_t dm_dxop(struct dxil_module *m, const char *name, uint32_t ret, enum dm_attr attr,
                 int32_t opcode, const uint32_t *args, unsigned count);
/** An empty phi of `type`; dm_phi_incoming adds (value, predecessor block) pairs. */
uint32_t dm_phi(struct dxil_module *m, uint32_t type);
void dm_phi_incoming(struct dxil_module *m, uint32_t phi, uint32_t value, uint32_t block);
void dm_br(struct dxil_module *m, uint32_t block);
void dm_br_cond(struct dxil_module *m, uint32_t cond, uint32_t if_true, uint32_t if_false);
void dm_ret_void(struct dxil_module *m);

/* Metadata: strings, values and nodes share one index space (docs §2.13). Equal
 * items are made once and shared, as LLVM uniques them, so asking again for the
 * same string, value or node returns the first one. */
uint32_t dm_md_string(struct dxil_module *m, const char *s);
/** Metadata naming a value (the constant moves to the module's CONSTANTS block). */
uint32_t dm_md_value(struct dxil_module *m, uint32_t value);
/** dm_md_value of an i32 constant. */
uint32_t dm_md_i32(struct dxil_module *m, int32_t v);
/** A node; DM_NONE operands are null. */
uint32_t dm_md_node(struct dxil_module *m, const uint32_t *ops, unsigned count);
void dm_md_named(struct dxil_module *m, const char *name, const uint32_t *nodes, unsigned count);

/**
 * Appends the bitcode (magic 'B' 'C' 0xC0 0xDE first, whole 32-bit words) to
 * `out`. False, with a message on stderr, when the program was built wrong.
 */
bool dm_write(struct dxil_module *m, struct tbuf *out);

#endif
