/* SPDX-License-Identifier: MIT */
/*
 * A tiny SM4/5 token assembler for the known-answer tests: operand and
 * instruction builders that write the encoding of ../shared/docs/sm4-tokens.md §2-§7
 * (operand token 0 with component selection, type, index dimension and
 * representations; relative indices as nested operands; custom-data ICBs),
 * and a wrapper that puts the program into a signed DXBC container with
 * empty ISGN/OSGN (tests/dxbc_fxc/fxc_builder.h). The tests check their
 * programs with the project's disassembler, so an encoding slip here shows
 * up as a wrong listing rather than as a wrong answer.
 */
#ifndef SB_TEST_SM4_ASM_H
#define SB_TEST_SM4_ASM_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxc_builder.h"

/* Operand types (§5.3). */
enum {
    T_TEMP = 0, T_INPUT = 1, T_OUTPUT = 2, T_XTEMP = 3, T_IMM32 = 4, T_IMM64 = 5,
    T_SAMPLER = 6, T_RESOURCE = 7, T_CB = 8, T_ICB = 9, T_LABEL = 10, T_NULL = 13,
    T_UAV = 30, T_TGSM = 31, T_THREAD_ID = 32, T_GROUP_ID = 33, T_THREAD_IN_GROUP = 34,
    T_THREAD_FLAT = 36,
};

/* Opcodes used by the tests (§3). */
enum {
    OP_ADD = 0, OP_AND = 1, OP_BREAK = 2, OP_BREAKC = 3, OP_CALL = 4, OP_CALLC = 5, OP_CASE = 6,
    OP_CONTINUE = 7, OP_CONTINUEC = 8, OP_DEFAULT = 10, OP_DISCARD = 13, OP_DIV = 14,
    OP_DP2 = 15, OP_DP3 = 16,
    OP_DP4 = 17, OP_ELSE = 18,
    OP_ENDIF = 21, OP_ENDLOOP = 22, OP_ENDSWITCH = 23, OP_EQ = 24, OP_EXP = 25, OP_FRC = 26,
    OP_FTOI = 27, OP_FTOU = 28, OP_GE = 29, OP_IADD = 30, OP_IF = 31, OP_IEQ = 32, OP_IGE = 33,
    OP_ILT = 34, OP_IMAD = 35, OP_IMAX = 36, OP_IMIN = 37, OP_IMUL = 38, OP_INE = 39,
    OP_INEG = 40, OP_ISHL = 41, OP_ISHR = 42, OP_ITOF = 43, OP_LABEL = 44, OP_LD = 45,
    OP_LOG = 47, OP_LOOP = 48, OP_LT = 49, OP_MAD = 50, OP_MIN = 51, OP_MAX = 52,
    OP_CUSTOMDATA = 53, OP_MOV = 54, OP_MOVC = 55, OP_MUL = 56, OP_NE = 57, OP_NOT = 59,
    OP_OR = 60, OP_RESINFO = 61, OP_RET = 62, OP_RETC = 63, OP_ROUND_NE = 64, OP_ROUND_NI = 65,
    OP_ROUND_PI = 66, OP_ROUND_Z = 67, OP_RSQ = 68, OP_SAMPLE = 69, OP_SAMPLE_L = 72,
    OP_SQRT = 75, OP_SWITCH = 76, OP_UDIV = 78, OP_ULT = 79, OP_UGE = 80, OP_UMUL = 81,
    OP_UMAD = 82, OP_UMAX = 83, OP_UMIN = 84, OP_USHR = 85, OP_UTOF = 86, OP_XOR = 87,
    OP_DCL_RESOURCE = 88, OP_DCL_CONSTANT_BUFFER = 89, OP_DCL_SAMPLER = 90,
    OP_DCL_TEMPS = 104, OP_GATHER4 = 109, OP_BUFINFO = 121, OP_DCL_RESOURCE_RAW = 161,
    OP_DCL_RESOURCE_STRUCTURED = 162, OP_DCL_INDEXABLE_TEMP = 105, OP_DCL_GLOBAL_FLAGS = 106,
    OP_RCP = 129, OP_F32TOF16 = 130, OP_F16TOF32 = 131, OP_UADDC = 132, OP_USUBB = 133,
    OP_COUNTBITS = 134, OP_FIRSTBIT_HI = 135, OP_FIRSTBIT_LO = 136, OP_FIRSTBIT_SHI = 137,
    OP_UBFE = 138, OP_IBFE = 139, OP_BFI = 140, OP_BFREV = 141, OP_SWAPC = 142,
    OP_DCL_THREAD_GROUP = 155, OP_DCL_UAV_TYPED = 156, OP_DCL_UAV_RAW = 157,
    OP_DCL_UAV_STRUCTURED = 158, OP_DCL_TGSM_RAW = 159, OP_DCL_TGSM_STRUCTURED = 160,
    OP_LD_UAV_TYPED = 163, OP_STORE_UAV_TYPED = 164, OP_LD_RAW = 165, OP_STORE_RAW = 166,
    OP_LD_STRUCTURED = 167, OP_STORE_STRUCTURED = 168, OP_ATOMIC_AND = 169,
    OP_ATOMIC_OR = 170, OP_ATOMIC_XOR = 171, OP_ATOMIC_CMP_STORE = 172, OP_ATOMIC_IADD = 173,
    OP_ATOMIC_IMAX = 174, OP_ATOMIC_IMIN = 175, OP_ATOMIC_UMAX = 176, OP_ATOMIC_UMIN = 177,
    OP_IMM_ATOMIC_ALLOC = 178, OP_IMM_ATOMIC_CONSUME = 179, OP_IMM_ATOMIC_IADD = 180, OP_IMM_ATOMIC_AND = 181, OP_IMM_ATOMIC_OR = 182,
    OP_IMM_ATOMIC_XOR = 183, OP_IMM_ATOMIC_EXCH = 184, OP_IMM_ATOMIC_CMP_EXCH = 185,
    OP_IMM_ATOMIC_IMAX = 186, OP_IMM_ATOMIC_IMIN = 187, OP_IMM_ATOMIC_UMAX = 188,
    OP_IMM_ATOMIC_UMIN = 189, OP_SYNC = 190, OP_DADD = 191, OP_DMAX = 192, OP_DMIN = 193,
    OP_DMUL = 194, OP_DEQ = 195, OP_DGE = 196, OP_DLT = 197, OP_DNE = 198, OP_DMOV = 199,
    OP_DMOVC = 200, OP_DTOF = 201, OP_FTOD = 202, OP_DDIV = 210, OP_DFMA = 211, OP_DRCP = 212,
    OP_MSAD = 213, OP_DTOI = 214, OP_DTOU = 215, OP_ITOD = 216, OP_UTOD = 217,
};

/* Opcode-token controls (§2.2). */
#define SM4_SAT (1u << 13)
#define SM4_NZ (1u << 18)
#define SM4_Z 0u
#define SM4_SYNC_T (1u << 11)
#define SM4_SYNC_G (1u << 12)
#define SM4_SYNC_UGLOBAL (1u << 14)

struct sm4_operand {
    uint32_t tok[16];
    uint32_t n;
};

struct sm4_program {
    uint32_t tok[2048];
    uint32_t n;
    int overflow;
};

static inline void sm4_put(struct sm4_program *p, uint32_t v)
{
    if (p->n < sizeof(p->tok) / sizeof(p->tok[0]))
        p->tok[p->n++] = v;
    else
        p->overflow = 1;
}

/* Component selection from text: 4 letters = swizzle (sources) or, with
 * `dst`, a mask of those letters; 1 letter = select-1 (sources); "" = 0-comp. */
static inline uint32_t sm4_select(const char *sel, int dst)
{
    uint32_t len = (uint32_t)strlen(sel);
    if (len == 0)
        return 0;
    uint32_t lanes[4], bits = 0;
    for (uint32_t i = 0; i < len && i < 4; i++) {
        lanes[i] = sel[i] == 'x' ? 0 : sel[i] == 'y' ? 1 : sel[i] == 'z' ? 2 : 3;
        bits |= 1u << lanes[i];
    }
    if (dst)
        return 2u | (0u << 2) | (bits << 4);
    if (len == 1)
        return 2u | (2u << 2) | (lanes[0] << 4);
    uint32_t swz = 0;
    for (uint32_t i = 0; i < 4; i++)
        swz |= lanes[i < len ? i : len - 1] << (2 * i);
    return 2u | (1u << 2) | (swz << 4);
}

static inline void sm4_append(struct sm4_operand *o, uint32_t v)
{
    if (o->n < 16)
        o->tok[o->n++] = v;
}

/* A register with up to 2 immediate indices; `rel[i]` non-NULL makes index i
 * "immediate + relative" (representation 3). */
static inline struct sm4_operand sm4_reg(uint32_t type, uint32_t dims, const uint32_t *idx,
                                         const struct sm4_operand *const *rel, const char *sel,
                                         int dst)
{
    struct sm4_operand o = { { 0 }, 0 };
    uint32_t t = sm4_select(sel, dst) | (type << 12) | (dims << 20);
    for (uint32_t i = 0; i < dims; i++)
        if (rel && rel[i])
            t |= 3u << (22 + 3 * i);
    sm4_append(&o, t);
    for (uint32_t i = 0; i < dims; i++) {
        sm4_append(&o, idx[i]);
        if (rel && rel[i])
            for (uint32_t j = 0; j < rel[i]->n; j++)
                sm4_append(&o, rel[i]->tok[j]);
    }
    return o;
}

/* Shorthands: d* destinations (mask), s* sources (swizzle / select-1). */
static inline struct sm4_operand dr(uint32_t r, const char *mask)
{
    return sm4_reg(T_TEMP, 1, &r, NULL, mask, 1);
}
static inline struct sm4_operand sr(uint32_t r, const char *swz)
{
    return sm4_reg(T_TEMP, 1, &r, NULL, swz, 0);
}
static inline struct sm4_operand du(uint32_t u, const char *mask)
{
    return sm4_reg(T_UAV, 1, &u, NULL, mask, 1);
}
static inline struct sm4_operand su(uint32_t u, const char *swz)
{
    return sm4_reg(T_UAV, 1, &u, NULL, swz, 0);
}
static inline struct sm4_operand sg(uint32_t g, const char *swz)
{
    return sm4_reg(T_TGSM, 1, &g, NULL, swz, 0);
}
static inline struct sm4_operand dg(uint32_t g, const char *mask)
{
    return sm4_reg(T_TGSM, 1, &g, NULL, mask, 1);
}
static inline struct sm4_operand st(uint32_t t, const char *swz)
{
    return sm4_reg(T_RESOURCE, 1, &t, NULL, swz, 0);
}
static inline struct sm4_operand ss(uint32_t s)
{
    return sm4_reg(T_SAMPLER, 1, &s, NULL, "", 0);
}
/* gather4's sampler operand selects the channel: s#.x ... s#.w */
static inline struct sm4_operand ss_channel(uint32_t s, const char *channel)
{
    return sm4_reg(T_SAMPLER, 1, &s, NULL, channel, 0);
}
static inline struct sm4_operand special(uint32_t type, const char *swz)
{
    return sm4_reg(type, 0, NULL, NULL, swz, 0);
}
static inline struct sm4_operand snull(void)
{
    return sm4_reg(T_NULL, 0, NULL, NULL, "", 1);
}
static inline struct sm4_operand label(uint32_t l)
{
    return sm4_reg(T_LABEL, 1, &l, NULL, "", 0);
}
/* cb#[vec] and cb#[rel + vec]. */
static inline struct sm4_operand scb(uint32_t slot, uint32_t vec, const struct sm4_operand *rel,
                                     const char *swz)
{
    uint32_t idx[2] = { slot, vec };
    const struct sm4_operand *rels[2] = { NULL, rel };
    return sm4_reg(T_CB, 2, idx, rels, swz, 0);
}
static inline struct sm4_operand sicb(uint32_t vec, const struct sm4_operand *rel, const char *swz)
{
    const struct sm4_operand *rels[1] = { rel };
    return sm4_reg(T_ICB, 1, &vec, rels, swz, 0);
}
/* x#[elem] and x#[rel + elem]. */
static inline struct sm4_operand sx(uint32_t arr, uint32_t elem, const struct sm4_operand *rel,
                                    const char *sel, int dst)
{
    uint32_t idx[2] = { arr, elem };
    const struct sm4_operand *rels[2] = { NULL, rel };
    return sm4_reg(T_XTEMP, 2, idx, rels, sel, dst);
}
static inline struct sm4_operand l1(uint32_t v)
{
    struct sm4_operand o = { { 1u | (T_IMM32 << 12), v }, 2 };
    return o;
}
static inline struct sm4_operand l4(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    struct sm4_operand o = { { 2u | (T_IMM32 << 12), a, b, c, d }, 5 };
    return o;
}
/* d(a, b): a 4-component 64-bit immediate holding two doubles as bits, low DWORD first (§5.1). */
static inline struct sm4_operand ld2(uint64_t a, uint64_t b)
{
    struct sm4_operand o = { { 2u | (T_IMM64 << 12), (uint32_t)a, (uint32_t)(a >> 32), (uint32_t)b,
                               (uint32_t)(b >> 32) }, 5 };
    return o;
}
static inline struct sm4_operand lf(float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    return l1(v);
}

/* One instruction: opcode | controls, then the operands. */
static inline void sm4_inst(struct sm4_program *p, uint32_t opcode, uint32_t controls,
                            uint32_t count, const struct sm4_operand *ops)
{
    uint32_t len = 1;
    for (uint32_t i = 0; i < count; i++)
        len += ops[i].n;
    sm4_put(p, opcode | controls | (len << 24));
    for (uint32_t i = 0; i < count; i++)
        for (uint32_t j = 0; j < ops[i].n; j++)
            sm4_put(p, ops[i].tok[j]);
}

#define I(p, opc, ...)                                                                     \
    sm4_inst((p), (opc), 0,                                                                \
             sizeof((struct sm4_operand[]){ __VA_ARGS__ }) / sizeof(struct sm4_operand),   \
             (struct sm4_operand[]){ __VA_ARGS__ })
#define IC(p, opc, ctl, ...)                                                               \
    sm4_inst((p), (opc), (ctl),                                                            \
             sizeof((struct sm4_operand[]){ __VA_ARGS__ }) / sizeof(struct sm4_operand),   \
             (struct sm4_operand[]){ __VA_ARGS__ })
#define I0(p, opc, ctl) sm4_inst((p), (opc), (ctl), 0, NULL)

/* An instruction with raw DWORDs after token 0 (declarations). */
static inline void sm4_raw(struct sm4_program *p, uint32_t opcode_and_controls, uint32_t count,
                           const uint32_t *dwords)
{
    sm4_put(p, opcode_and_controls | ((count + 1) << 24));
    for (uint32_t i = 0; i < count; i++)
        sm4_put(p, dwords[i]);
}

/* Declaration with one operand and extra DWORDs. */
static inline void sm4_decl(struct sm4_program *p, uint32_t opcode_and_controls,
                            struct sm4_operand o, uint32_t extra_count, const uint32_t *extra)
{
    sm4_put(p, opcode_and_controls | ((1 + o.n + extra_count) << 24));
    for (uint32_t j = 0; j < o.n; j++)
        sm4_put(p, o.tok[j]);
    for (uint32_t i = 0; i < extra_count; i++)
        sm4_put(p, extra[i]);
}

/* Starts a program of any stage (program type: 0 ps, 1 vs, ... 5 cs) with dcl_temps. */
static inline void sm4_begin(struct sm4_program *p, uint32_t type, uint32_t major, uint32_t minor,
                             uint32_t temps)
{
    memset(p, 0, sizeof(*p));
    sm4_put(p, (type << 16) | (major << 4) | minor);
    sm4_put(p, 0);
    if (temps)
        sm4_raw(p, OP_DCL_TEMPS, 1, &temps);
}

/* dcl_input / dcl_output (95 / 101), their _sgv/_siv forms with a system value
 * (96, 97, 102, 103), and dcl_input_ps* (98-100) with an interpolation mode. */
static inline void sm4_dcl_io(struct sm4_program *p, uint32_t opcode, uint32_t interpolation,
                              uint32_t file, uint32_t reg, const char *mask, int32_t system_value)
{
    uint32_t extra = (uint32_t)system_value;
    sm4_decl(p, opcode | (interpolation << 11), sm4_reg(file, 1, &reg, NULL, mask, 1),
             system_value >= 0 ? 1 : 0, &extra);
}

/* Starts a cs_5_0 program: version, length (patched), thread group, temps. */
static inline void sm4_begin_cs(struct sm4_program *p, uint32_t x, uint32_t y, uint32_t z,
                                uint32_t temps)
{
    memset(p, 0, sizeof(*p));
    sm4_put(p, (5u << 16) | (5u << 4) | 0u);
    sm4_put(p, 0);
    sm4_raw(p, OP_DCL_GLOBAL_FLAGS | (1u << 11) | (1u << 12), 0, NULL);
    if (temps)
        sm4_raw(p, OP_DCL_TEMPS, 1, &temps);
    sm4_raw(p, OP_DCL_THREAD_GROUP, 3, (uint32_t[]){ x, y, z });
}

/* Starts a cs_5_1 program (SM5.1 operand forms: ranges with an id, a register and a space). */
static inline void sm4_begin_cs51(struct sm4_program *p, uint32_t x, uint32_t temps)
{
    memset(p, 0, sizeof(*p));
    sm4_put(p, (5u << 16) | (5u << 4) | 1u);
    sm4_put(p, 0);
    sm4_raw(p, OP_DCL_GLOBAL_FLAGS | (1u << 11), 0, NULL);
    sm4_raw(p, OP_DCL_TEMPS, 1, &temps);
    sm4_raw(p, OP_DCL_THREAD_GROUP, 3, (uint32_t[]){ x, 1, 1 });
}

/* An SM5.1 declaration operand: range id, lower and upper register (§5). */
static inline struct sm4_operand sm4_range51(uint32_t type, uint32_t id, uint32_t lower, uint32_t upper)
{
    return sm4_reg(type, 3, (uint32_t[]){ id, lower, upper }, NULL, "xyzw", 0);
}

/* An SM5.1 range operand: range id, register `reg` (+ `rel` when given); `non_uniform` sets
 * NonUniformResourceIndex, bit 17 of an extended operand token of type 1 (§6), which bit 31 of
 * token 0 announces. cb ranges take a third index (the vector): use sm4_reg for those. */
static inline struct sm4_operand sm4_reg51(uint32_t type, uint32_t id, uint32_t reg, const struct sm4_operand *rel,
                                           const char *sel, int dst, int non_uniform)
{
    const struct sm4_operand *rels[2] = { NULL, rel };
    struct sm4_operand o = sm4_reg(type, 2, (uint32_t[]){ id, reg }, rels, sel, dst);
    if (!non_uniform)
        return o;
    struct sm4_operand x = { { 0 }, 0 };
    sm4_append(&x, o.tok[0] | 0x80000000u);
    sm4_append(&x, 1u | (1u << 17));
    for (uint32_t i = 1; i < o.n; i++)
        sm4_append(&x, o.tok[i]);
    return x;
}

static inline void sm4_dcl_uav_raw(struct sm4_program *p, uint32_t u)
{
    sm4_decl(p, OP_DCL_UAV_RAW, sm4_reg(T_UAV, 1, &u, NULL, "", 0), 0, NULL);
}
static inline void sm4_dcl_uav_structured(struct sm4_program *p, uint32_t u, uint32_t stride)
{
    sm4_decl(p, OP_DCL_UAV_STRUCTURED, sm4_reg(T_UAV, 1, &u, NULL, "", 0), 1, &stride);
}
/* Typed UAV / SRV: dimension (§8.3), return type token (§8.4). */
static inline void sm4_dcl_uav_typed(struct sm4_program *p, uint32_t u, uint32_t dim,
                                     uint32_t ret)
{
    sm4_decl(p, OP_DCL_UAV_TYPED | (dim << 11), sm4_reg(T_UAV, 1, &u, NULL, "", 0), 1, &ret);
}
static inline void sm4_dcl_resource(struct sm4_program *p, uint32_t t, uint32_t dim, uint32_t ret)
{
    sm4_decl(p, OP_DCL_RESOURCE | (dim << 11), sm4_reg(T_RESOURCE, 1, &t, NULL, "", 0), 1, &ret);
}
static inline void sm4_dcl_resource_raw(struct sm4_program *p, uint32_t t)
{
    sm4_decl(p, OP_DCL_RESOURCE_RAW, sm4_reg(T_RESOURCE, 1, &t, NULL, "", 0), 0, NULL);
}
static inline void sm4_dcl_resource_structured(struct sm4_program *p, uint32_t t, uint32_t stride)
{
    sm4_decl(p, OP_DCL_RESOURCE_STRUCTURED, sm4_reg(T_RESOURCE, 1, &t, NULL, "", 0), 1, &stride);
}
static inline void sm4_dcl_sampler(struct sm4_program *p, uint32_t s)
{
    sm4_decl(p, OP_DCL_SAMPLER, sm4_reg(T_SAMPLER, 1, &s, NULL, "", 0), 0, NULL);
}
static inline void sm4_dcl_cb(struct sm4_program *p, uint32_t slot, uint32_t vectors, int dynamic)
{
    uint32_t idx[2] = { slot, vectors };
    sm4_decl(p, OP_DCL_CONSTANT_BUFFER | (dynamic ? 1u << 11 : 0),
             sm4_reg(T_CB, 2, idx, NULL, "xyzw", 0), 0, NULL);
}
static inline void sm4_dcl_tgsm_raw(struct sm4_program *p, uint32_t g, uint32_t bytes)
{
    sm4_decl(p, OP_DCL_TGSM_RAW, sm4_reg(T_TGSM, 1, &g, NULL, "", 0), 1, &bytes);
}
static inline void sm4_dcl_indexable_temp(struct sm4_program *p, uint32_t x, uint32_t count,
                                          uint32_t comps)
{
    sm4_raw(p, OP_DCL_INDEXABLE_TEMP, 3, (uint32_t[]){ x, count, comps });
}
static inline void sm4_dcl_thread_id(struct sm4_program *p, uint32_t type, const char *mask)
{
    sm4_decl(p, 95 /* dcl_input */, sm4_reg(type, 0, NULL, NULL, mask, 1), 0, NULL);
}
static inline void sm4_icb(struct sm4_program *p, const uint32_t *dwords, uint32_t count)
{
    sm4_put(p, OP_CUSTOMDATA | (3u << 11));
    sm4_put(p, count + 2);
    for (uint32_t i = 0; i < count; i++)
        sm4_put(p, dwords[i]);
}

/* Ends the program (ret) and patches the length token. */
static inline void sm4_end(struct sm4_program *p)
{
    I0(p, OP_RET, 0);
    p->tok[1] = p->n;
}

/* Wraps a program with its signatures (24-byte elements) in a signed container;
 * `patch` (hull / domain shaders) adds a PCSG part when patch_count is not 0. */
static inline void sm4_container_sig(const struct sm4_program *p,
                                     const struct sig_element_spec *in, uint32_t in_count,
                                     const struct sig_element_spec *out_sig, uint32_t out_count,
                                     const struct sig_element_spec *patch, uint32_t patch_count,
                                     struct blob *out)
{
    static struct blob isgn, osgn, pcsg, shex;
    build_signature(24, in, in_count, &isgn);
    build_signature(24, out_sig, out_count, &osgn);
    build_signature(24, patch, patch_count, &pcsg);
    memset(&shex, 0, sizeof(shex));
    for (uint32_t i = 0; i < p->n; i++)
        blob_u32(&shex, p->tok[i]);
    struct part_spec parts[4] = {
        { SB_FOURCC('I', 'S', 'G', 'N'), &isgn },
        { SB_FOURCC('O', 'S', 'G', 'N'), &osgn },
        { ((p->tok[0] >> 4) & 0xf) >= 5 ? SB_FOURCC('S', 'H', 'E', 'X')
                                         : SB_FOURCC('S', 'H', 'D', 'R'), &shex },
        { SB_FOURCC('P', 'C', 'S', 'G'), &pcsg },
    };
    build_container(parts, patch_count ? 4 : 3, out, NULL);
}

/* Wraps the program in a signed container: ISGN, OSGN (empty), SHEX. */
static inline void sm4_container(const struct sm4_program *p, struct blob *out)
{
    static struct blob isgn, osgn, shex;
    build_signature(24, NULL, 0, &isgn);
    build_signature(24, NULL, 0, &osgn);
    memset(&shex, 0, sizeof(shex));
    for (uint32_t i = 0; i < p->n; i++)
        blob_u32(&shex, p->tok[i]);
    struct part_spec parts[3] = {
        { SB_FOURCC('I', 'S', 'G', 'N'), &isgn },
        { SB_FOURCC('O', 'S', 'G', 'N'), &osgn },
        { SB_FOURCC('S', 'H', 'E', 'X'), &shex },
    };
    build_container(parts, 3, out, NULL);
}

#endif
