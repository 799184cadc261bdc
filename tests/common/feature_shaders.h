/* SPDX-License-Identifier: MIT */
/*
 * Hand-assembled shaders whose only interest is one device feature they need, with the
 * byte offset (in the container) of the declaration that needs it, so a test can check
 * that a refusal names exactly that declaration:
 *
 *   rov:            ps_5_0, dcl_uav_raw_rov u1 (../shared/docs/sm4-tokens.md §2.4 bit 17),
 *                   u1[0] += 1, o0 = 0: fragment shader interlock;
 *   inner_coverage: ps_5_0, dcl_input vInnerCoverage (operand type 42, §5.3),
 *                   o0 = utof(vInnerCoverage): FullyCoveredEXT
 *                   (VK_EXT_conservative_rasterization);
 *   position_vs:    vs_5_0, o0 (SV_Position) = (0, 0, 0, 1): a vertex stage to draw them with.
 *
 * Each builder writes a signed container into `out` and returns the declaration's byte
 * offset (0 for position_vs, which needs nothing).
 */
#ifndef SB_TEST_FEATURE_SHADERS_H
#define SB_TEST_FEATURE_SHADERS_H

#include "sm4_asm.h"

/* Program types of the version token (§1) and operand / opcode numbers sm4_asm.h lacks. */
enum { FS_PS = 0, FS_VS = 1, FS_T_INNER_COVERAGE = 42, FS_DCL_INPUT = 95, FS_DCL_OUTPUT = 101,
       FS_DCL_OUTPUT_SIV = 103 };

/* The byte offset of token `index` of the container's SHEX/SHDR code. */
static inline uint64_t fs_token_offset(const struct blob *b, uint32_t index)
{
    uint32_t count = 0;
    if (b->size >= 32)
        memcpy(&count, b->bytes + 28, 4);
    for (uint32_t i = 0; i < count && 32 + 4 * i + 4 <= b->size; i++) {
        uint32_t at;
        memcpy(&at, b->bytes + 32 + 4 * i, 4);
        if (at + 8 <= b->size && (!memcmp(b->bytes + at, "SHEX", 4) || !memcmp(b->bytes + at, "SHDR", 4)))
            return at + 8 + 4ull * index;
    }
    return 0;
}

static const struct sig_element_spec fs_target0[] = { { 0, "SV_Target", 0, 0, 3, 0, 0xf, 0x0, 0 } };
static const struct sig_element_spec fs_position[] = { { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0x0, 0 } };

static inline struct sm4_operand fs_o0(void)
{
    return sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "xyzw", 1);
}

/* vInnerCoverage as a one-component operand (§5.1: 1 component, no selection). */
static inline struct sm4_operand fs_inner_coverage(void)
{
    struct sm4_operand o = { { 1u | (FS_T_INNER_COVERAGE << 12) }, 1 };
    return o;
}

static inline uint64_t fs_rov(struct blob *out)
{
    static struct sm4_program p;
    sm4_begin(&p, FS_PS, 5, 0, 1);
    sm4_dcl_io(&p, FS_DCL_OUTPUT, 0, T_OUTPUT, 0, "xyzw", -1);
    uint32_t mark = p.n;
    sm4_decl(&p, OP_DCL_UAV_RAW | (1u << 17), sm4_reg(T_UAV, 1, (uint32_t[]){ 1 }, NULL, "", 0), 0, NULL);
    I(&p, OP_LD_RAW, dr(0, "x"), l1(0), su(1, "xxxx"));
    I(&p, OP_IADD, dr(0, "x"), sr(0, "x"), l1(1));
    I(&p, OP_STORE_RAW, du(1, "x"), l1(0), sr(0, "x"));
    I(&p, OP_MOV, fs_o0(), l4(0, 0, 0, 0));
    sm4_end(&p);
    sm4_container_sig(&p, NULL, 0, fs_target0, 1, NULL, 0, out);
    return fs_token_offset(out, mark);
}

static inline uint64_t fs_inner_coverage_ps(struct blob *out)
{
    static struct sm4_program p;
    sm4_begin(&p, FS_PS, 5, 0, 1);
    uint32_t mark = p.n;
    sm4_decl(&p, FS_DCL_INPUT, fs_inner_coverage(), 0, NULL);
    sm4_dcl_io(&p, FS_DCL_OUTPUT, 0, T_OUTPUT, 0, "xyzw", -1);
    I(&p, OP_MOV, dr(0, "x"), fs_inner_coverage());
    I(&p, OP_UTOF, fs_o0(), sr(0, "xxxx"));
    sm4_end(&p);
    sm4_container_sig(&p, NULL, 0, fs_target0, 1, NULL, 0, out);
    return fs_token_offset(out, mark);
}

static inline uint64_t fs_position_vs(struct blob *out)
{
    static struct sm4_program p;
    sm4_begin(&p, FS_VS, 5, 0, 0);
    sm4_dcl_io(&p, FS_DCL_OUTPUT_SIV, 0, T_OUTPUT, 0, "xyzw", 1);
    I(&p, OP_MOV, fs_o0(), l4(0, 0, 0, 0x3f800000u));
    sm4_end(&p);
    sm4_container_sig(&p, NULL, 0, fs_position, 1, NULL, 0, out);
    return 0;
}

#endif
