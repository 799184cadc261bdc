/* SPDX-License-Identifier: MIT */
/*
 * What random_cs.c (the generator) and random_cs_check.c (the abstract values and
 * the range check) share: the program tree, the generator's state and the abstract
 * value of a temp component. random_cs.c explains the method.
 */
#ifndef SB_TEST_RANDOM_CS_PRIVATE_H
#define SB_TEST_RANDOM_CS_PRIVATE_H

#include "random_cs.h"

#define MAX_DATA 6
#define MAX_NODES 1400
#define MAX_XFER 24

/* ---- abstract values -------------------------------------------------- */

/* A component holds an integer, an exact float, or something nothing may read as a number
 * (not written yet, or an int on one path and a float on another): it can only be copied
 * and stored. */
enum { K_INT = 1, K_FLOAT = 2, K_POISON = 3 };

struct aval {
    uint8_t kind;
    bool canon;              /* float: cannot be -0 */
    int64_t lo, hi;          /* int: signed range */
    uint32_t zeros, ones;    /* int: bits known 0 / known 1 */
    double flo, fhi;         /* float: range */
    int g;                   /* float: every value is a multiple of 2^-g */
};

/* The abstract state of the data temps at one point; `live` false: no thread gets there
 * (the join's neutral element). */
struct astate {
    bool live;
    struct aval r[MAX_DATA][4];
};

#define I32_MIN (-2147483648LL)
#define I32_MAX 2147483647LL

/* ---- the program as a tree -------------------------------------------- */

/* Operand files: none (null), a data temp, a reserved temp (addresses, conditions, loop
 * counters: in range by construction, never tracked), an immediate, vThreadID,
 * vThreadGroupID, vThreadIDInGroup, vThreadIDInGroupFlattened, t#, u#, g#. */
enum { F_NONE, F_TEMP, F_RESERVED, F_IMM, F_TID, F_TGID, F_TIG, F_TFLAT, F_T, F_U, F_G };

/* A source operand; `mod` is the extended token's modifier (1 neg, 2 abs, 3 both; iadd's
 * neg is the integer negation). */
struct gsrc {
    uint8_t file, reg, mod;
    uint8_t sel;             /* 1: select-1 (swz[0]); 4: swizzle */
    uint8_t swz[4];
    uint8_t imm_count;       /* 1 or 4 */
    uint8_t imm_fmask;       /* lanes of the immediate that are floats */
    uint32_t imm[4];
};

struct gdst {
    uint8_t file, reg, mask;
};

/* How the range check reads an instruction. */
enum {
    SEM_ALU,    /* per-lane arithmetic (lane_op); a reserved destination is only checked */
    SEM_LOAD,   /* data from a seeded buffer, of the kind `load_kind` */
    SEM_XSTORE, /* group-shared exchange: records the stored register's values */
    SEM_XLOAD,  /* ... and gives them to the loaded register */
    SEM_ATOMIC, /* the value must have fixed bits */
    SEM_FIXED,  /* structure the generator owns (addresses from thread ids, barriers) */
};
enum { LOAD_SMALL_UINT, LOAD_FLOAT, LOAD_ANY };

/* One instruction as generated: what is emitted and what the range check reads. */
struct ginst {
    uint16_t opcode;
    uint32_t controls;
    uint8_t sem, ndst, nsrc, load_kind;
    uint16_t xfer;
    struct gdst dst[2];
    struct gsrc src[4];
};

enum { N_INST = 1, N_IF, N_LOOP, N_SWITCH, N_CASE, N_BREAKC, N_CONTC };

struct list {
    uint32_t head, tail;
};

/* A node of the tree: an instruction or a structured block, linked to its next sibling. */
struct node {
    uint8_t type;
    bool dead;
    bool nz;                 /* if / breakc / continuec: _nz (else _z) */
    bool has_else, is_default;
    uint8_t trips;           /* loop: the most iterations it can run */
    uint8_t loop_depth;      /* loop: which counter register */
    uint8_t label_count;
    uint32_t labels[4];
    uint32_t next;
    uint32_t requires;       /* an instruction this one is dropped with (its address) */
    struct ginst inst;       /* the instruction; if/breakc/continuec/switch: src[0] */
    struct list kid[2];      /* if: then, else; loop: body; switch: cases; case: body */
};

/* The generator: the tree (node 0 unused), the program's shape and resources, and where
 * generation stands. */
struct gen {
    uint64_t rng;
    struct node nodes[MAX_NODES];
    uint32_t count;
    bool full;
    struct astate st;        /* during generation: the state after the last node */
    uint32_t data;           /* data temps r0..r(data-1) */
    uint32_t reg_a, reg_c, reg_l; /* reserved: addresses, conditions, loop counters (2) */
    uint32_t x, y, groups;
    bool t0, t1, t2, u1, u2, g0, g1, g0_structured;
    uint32_t t1_stride, u2_regions;
    uint16_t u2_op[8], g1_op[4];
    uint32_t depth, loops;
    bool in_switch;          /* a switch is nearer than the innermost loop */
    uint32_t budget;
    uint32_t xfers;
    struct aval xfer[MAX_XFER][4];
    uint32_t deaths;
};

/* Where a loop's breaks and continues take their states (the range check). */
struct flow {
    struct astate brk, cont;
};

/* random_cs_check.c */
struct aval rcs_poison(void);
struct aval rcs_as_int(struct aval v);
bool rcs_inst_apply(struct gen *g, const struct ginst *in, struct astate *st);
void rcs_run_node(struct gen *g, uint32_t n, struct astate *st, struct flow *f);
void rcs_run_list(struct gen *g, uint32_t head, struct astate *st, struct flow *f);

#endif
