/* SPDX-License-Identifier: MIT */
/*
 * Coverage of ../shared/docs/sm4-tokens.md (issue #16): one hand-assembled
 * program per operand type of §5.3 (the special registers included), per
 * opcode number of §3 and per system value of §8.1, each in a stage where D3D
 * allows it, plus rasterizer-ordered views with and without interlock. The row
 * says what translation must give: valid SPIR-V (SPIRV-Tools validation clean)
 * or an exact refusal, i.e. result code, byte offset and message, where the
 * offset is that of the instruction or declaration that needs it (the token
 * the builder marks, plus the SHEX part's position in the container).
 * translator/README.md "Coverage of the SM4/5 token set" is the same table in
 * words.
 *
 * Usage: test_translate_coverage [--print]   (--print lists every outcome)
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "shaderbridge/translate.h"
#include "sm4_asm.h"

/* Program types of the version token (§1). */
enum { PS = 0, VS = 1, GS = 2, HS = 3, DS = 4, CS = 5 };

/* Operand types not named in sm4_asm.h (§5.3). */
enum {
    T_PRIM = 11, T_DEPTH = 12, T_RASTERIZER = 14, T_OMASK = 15, T_STREAM = 16, T_FUNCTION_INPUT = 20,
    T_FUNCTION_OUTPUT = 21, T_OCP_ID = 22, T_FORK_ID = 23, T_JOIN_ID = 24, T_ICP = 25, T_OCP = 26,
    T_PATCH_CONSTANT = 27, T_DOMAIN = 28, T_COVERAGE = 35, T_GS_INSTANCE = 37, T_DEPTH_GE = 38,
    T_DEPTH_LE = 39, T_CYCLE = 40, T_STENCIL_REF = 41, T_INNER_COVERAGE = 42,
};
enum { DCL_INPUT = 95, DCL_INPUT_PS = 98, DCL_OUTPUT = 101, DCL_OUTPUT_SIV = 103 };

static struct sm4_program prog;
static struct blob container;
static uint32_t mark; /* token index of the instruction or declaration a refusal must name */

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* A 0-D operand of a special register: 1-component (select none) or 4-component with `sel`. */
static struct sm4_operand scalar_special(uint32_t type)
{
    struct sm4_operand o = { { 1u | (type << 12) }, 1 };
    return o;
}

static const struct sig_element_spec target0[] = { { 0, "SV_Target", 0, 0, 3, 0, 0xf, 0x0, 0 } };
static const struct sig_element_spec control_point[] = { { 0, "POS", 0, 0, 3, 0, 0xf, 0xf, 0 } };
static const struct sig_element_spec tri_factors[] = {
    { 0, "SV_TessFactor", 0, 17, 3, 0, 0x1, 0xe, 0 },
    { 0, "SV_TessFactor", 1, 18, 3, 1, 0x1, 0xe, 0 },
    { 0, "SV_TessFactor", 2, 19, 3, 2, 0x1, 0xe, 0 },
    { 0, "SV_InsideTessFactor", 0, 20, 3, 3, 0x1, 0xe, 0 },
};

/* ---- stage frames ------------------------------------------------------------ */

static void cs_begin(void)
{
    sm4_begin_cs(&prog, 1, 1, 1, 4);
}

static void cs_end(void)
{
    sm4_end(&prog);
    sm4_container(&prog, &container);
}

/* ps_5_0 (or ps_4_1 for `rasterizer`) with o0 = SV_Target0. */
static void ps_begin(uint32_t major, uint32_t minor)
{
    sm4_begin(&prog, PS, major, minor, 4);
    sm4_dcl_io(&prog, DCL_OUTPUT, 0, T_OUTPUT, 0, "xyzw", -1);
}

static void ps_end(void)
{
    I(&prog, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "xyzw", 1), l4(0, 0, 0, 0));
    sm4_end(&prog);
    sm4_container_sig(&prog, NULL, 0, target0, 1, NULL, 0, &container);
}

/* gs_5_0: one point in, a point list of one vertex out (position o0). */
static void gs_begin(void)
{
    sm4_begin(&prog, GS, 5, 0, 4);
    sm4_raw(&prog, 93u | (1u << 11), 0, NULL);  /* dcl_inputprimitive point */
    sm4_raw(&prog, 92u | (1u << 11), 0, NULL);  /* dcl_outputtopology pointlist */
    sm4_dcl_io(&prog, DCL_OUTPUT_SIV, 0, T_OUTPUT, 0, "xyzw", 1);
    sm4_raw(&prog, 94, 1, (uint32_t[]){ 1 });   /* dcl_maxout 1 */
}

static void gs_end(void)
{
    sm4_end(&prog);
    const struct sig_element_spec outs[] = { { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0x0, 0 } };
    sm4_container_sig(&prog, NULL, 0, outs, 1, NULL, 0, &container);
}

/* hs_5_0 with a tri domain: the control-point phase copies POS; `fork` adds a
 * fork phase reading vForkInstanceID, `join` a join phase reading vJoinInstanceID;
 * the factors are written by a fork phase before it. */
static void hs_build(bool fork, bool join, bool read_ocp)
{
    sm4_begin(&prog, HS, 5, 0, 0);
    sm4_raw(&prog, 113, 0, NULL);                           /* hs_decls */
    sm4_raw(&prog, 147u | (3u << 11), 0, NULL);             /* input control points 3 */
    sm4_raw(&prog, 148u | (3u << 11), 0, NULL);             /* output control points 3 */
    sm4_raw(&prog, 149u | (2u << 11), 0, NULL);             /* domain_tri */
    sm4_raw(&prog, 150u | (1u << 11), 0, NULL);             /* partitioning_integer */
    sm4_raw(&prog, 151u | (3u << 11), 0, NULL);             /* output_triangle_cw */
    sm4_raw(&prog, 152, 1, (uint32_t[]){ fbits(1.0f) });    /* dcl_hs_max_tessfactor 1.0 */
    sm4_raw(&prog, 114, 0, NULL);                           /* hs_control_point_phase */
    sm4_decl(&prog, DCL_INPUT, sm4_reg(T_ICP, 2, (uint32_t[]){ 3, 0 }, NULL, "xyzw", 1), 0, NULL);
    mark = prog.n;
    sm4_decl(&prog, DCL_INPUT, sm4_reg(T_OCP_ID, 0, NULL, NULL, "", 0), 0, NULL);
    sm4_dcl_io(&prog, DCL_OUTPUT, 0, T_OUTPUT, 0, "xyzw", -1);
    sm4_raw(&prog, OP_DCL_TEMPS, 1, (uint32_t[]){ 1 });
    I(&prog, OP_MOV, dr(0, "x"), scalar_special(T_OCP_ID));
    struct sm4_operand cp = sr(0, "x");
    const struct sm4_operand *rel[2] = { &cp, NULL };
    I(&prog, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "xyzw", 1),
      sm4_reg(T_ICP, 2, (uint32_t[]){ 0, 0 }, rel, "xyzw", 0));
    I0(&prog, OP_RET, 0);
    if (fork) {
        sm4_raw(&prog, 115, 0, NULL);                       /* hs_fork_phase */
        sm4_raw(&prog, 153, 1, (uint32_t[]){ 2 });          /* dcl_hs_fork_phase_instance_count 2 */
        mark = prog.n;
        sm4_decl(&prog, DCL_INPUT, sm4_reg(T_FORK_ID, 0, NULL, NULL, "", 0), 0, NULL);
        sm4_raw(&prog, OP_DCL_TEMPS, 1, (uint32_t[]){ 1 });
        I(&prog, OP_MOV, dr(0, "x"), scalar_special(T_FORK_ID));
        I0(&prog, OP_RET, 0);
    }
    sm4_raw(&prog, 115, 0, NULL);                           /* hs_fork_phase: the factors */
    if (read_ocp) {
        mark = prog.n;
        sm4_decl(&prog, DCL_INPUT, sm4_reg(T_OCP, 2, (uint32_t[]){ 3, 0 }, NULL, "xyzw", 1), 0, NULL);
    }
    for (uint32_t f = 0; f < 4; f++)
        sm4_dcl_io(&prog, DCL_OUTPUT_SIV, 0, T_OUTPUT, f, "x", (int32_t)(17 + f));
    if (read_ocp)
        I(&prog, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "x", 1),
          sm4_reg(T_OCP, 2, (uint32_t[]){ 1, 0 }, NULL, "x", 0));
    else
        I(&prog, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "x", 1), lf(1.0f));
    for (uint32_t f = 1; f < 4; f++)
        I(&prog, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ f }, NULL, "x", 1), lf(1.0f));
    if (join) { /* a join phase comes after every fork phase */
        I0(&prog, OP_RET, 0);
        sm4_raw(&prog, 116, 0, NULL);                       /* hs_join_phase */
        sm4_raw(&prog, 154, 1, (uint32_t[]){ 1 });          /* dcl_hs_join_phase_instance_count 1 */
        mark = prog.n;
        sm4_decl(&prog, DCL_INPUT, sm4_reg(T_JOIN_ID, 0, NULL, NULL, "", 0), 0, NULL);
        sm4_raw(&prog, OP_DCL_TEMPS, 1, (uint32_t[]){ 1 });
        I(&prog, OP_MOV, dr(0, "x"), scalar_special(T_JOIN_ID));
    }
    sm4_end(&prog);
    sm4_container_sig(&prog, control_point, 1, control_point, 1, tri_factors, 4, &container);
}

/* ds_5_0, tri domain: position from vDomain (and vicp / vpc when asked). */
static void ds_build(bool read_icp, bool read_patch)
{
    sm4_begin(&prog, DS, 5, 0, 1);
    sm4_raw(&prog, 147u | (3u << 11), 0, NULL);
    sm4_raw(&prog, 149u | (2u << 11), 0, NULL);
    mark = prog.n;
    sm4_decl(&prog, DCL_INPUT, sm4_reg(T_DOMAIN, 0, NULL, NULL, "xyz", 1), 0, NULL);
    if (read_icp) {
        mark = prog.n;
        sm4_decl(&prog, DCL_INPUT, sm4_reg(T_ICP, 2, (uint32_t[]){ 3, 0 }, NULL, "xyzw", 1), 0, NULL);
    }
    if (read_patch) {
        mark = prog.n;
        sm4_decl(&prog, 97, sm4_reg(T_PATCH_CONSTANT, 1, (uint32_t[]){ 0 }, NULL, "x", 1), 1,
                 (uint32_t[]){ 17 });                       /* dcl_input_siv vpc0.x, finalTriUeq0EdgeTessFactor */
    }
    sm4_dcl_io(&prog, DCL_OUTPUT_SIV, 0, T_OUTPUT, 0, "xyzw", 1);
    I(&prog, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "xyzw", 1),
      sm4_reg(T_DOMAIN, 0, NULL, NULL, "xyzx", 0));
    if (read_icp)
        I(&prog, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "x", 1),
          sm4_reg(T_ICP, 2, (uint32_t[]){ 2, 0 }, NULL, "x", 0));
    if (read_patch)
        I(&prog, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "y", 1),
          sm4_reg(T_PATCH_CONSTANT, 1, (uint32_t[]){ 0 }, NULL, "x", 0));
    sm4_end(&prog);
    const struct sig_element_spec outs[] = { { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0x0, 0 } };
    sm4_container_sig(&prog, control_point, 1, outs, 1, tri_factors, 4, &container);
}

/* ---- one builder per operand type ------------------------------------------- */

static void b_temp(void)
{
    cs_begin();
    I(&prog, OP_MOV, dr(0, "xyzw"), l4(1, 2, 3, 4));
    I(&prog, OP_IADD, dr(1, "xyzw"), sr(0, "wzyx"), sr(0, "xyzw"));
    cs_end();
}

static void b_input(void)
{
    sm4_begin(&prog, VS, 5, 0, 0);
    sm4_dcl_io(&prog, DCL_INPUT, 0, T_INPUT, 0, "xyzw", -1);
    sm4_dcl_io(&prog, DCL_OUTPUT_SIV, 0, T_OUTPUT, 0, "xyzw", 1);
    I(&prog, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "xyzw", 1),
      sm4_reg(T_INPUT, 1, (uint32_t[]){ 0 }, NULL, "xyzw", 0));
    sm4_end(&prog);
    const struct sig_element_spec outs[] = { { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0x0, 0 } };
    sm4_container_sig(&prog, control_point, 1, outs, 1, NULL, 0, &container);
}

static void b_output(void)
{
    ps_begin(5, 0);
    ps_end();
}

static void b_indexable_temp(void)
{
    cs_begin();
    sm4_dcl_indexable_temp(&prog, 0, 4, 4);
    struct sm4_operand i = sr(0, "x");
    I(&prog, OP_MOV, dr(0, "x"), l1(2));
    I(&prog, OP_MOV, sx(0, 0, &i, "xyzw", 1), l4(1, 2, 3, 4));
    I(&prog, OP_MOV, dr(1, "xyzw"), sx(0, 1, NULL, "xyzw", 0));
    cs_end();
}

static void b_immediate32(void)
{
    cs_begin();
    I(&prog, OP_MOV, dr(0, "xyzw"), l4(fbits(1.0f), 2, 3, 4));
    I(&prog, OP_ADD, dr(1, "x"), sr(0, "x"), lf(0.5f));
    cs_end();
}

static void b_immediate64(void)
{
    cs_begin();
    I(&prog, OP_DMOV, dr(0, "xyzw"), ld2(0x3FF0000000000000ull, 0x4000000000000000ull));
    cs_end();
}

static void b_sampler_resource(void)
{
    cs_begin();
    sm4_dcl_resource(&prog, 0, 3, 0x5555);  /* texture2d, float */
    sm4_dcl_sampler(&prog, 0);
    I(&prog, OP_SAMPLE_L, dr(0, "xyzw"), l4(fbits(0.5f), fbits(0.5f), 0, 0), st(0, "xyzw"), ss(0), lf(0.0f));
    cs_end();
}

static void b_constant_buffer(void)
{
    cs_begin();
    sm4_dcl_cb(&prog, 0, 2, 0);
    I(&prog, OP_MOV, dr(0, "xyzw"), scb(0, 1, NULL, "xyzw"));
    cs_end();
}

static void b_icb(void)
{
    cs_begin();
    static const uint32_t data[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    sm4_icb(&prog, data, 8);
    I(&prog, OP_MOV, dr(0, "x"), l1(1));
    struct sm4_operand i = sr(0, "x");
    I(&prog, OP_MOV, dr(1, "xyzw"), sicb(0, &i, "xyzw"));
    cs_end();
}

static void b_label(void)
{
    cs_begin();
    I(&prog, OP_CALL, label(0));
    I0(&prog, OP_RET, 0);
    I(&prog, OP_LABEL, label(0));
    I(&prog, OP_MOV, dr(0, "x"), l1(1));
    cs_end();
}

static void b_primitive_id(void)
{
    gs_begin();
    sm4_decl(&prog, DCL_INPUT, scalar_special(T_PRIM), 0, NULL);
    I(&prog, OP_UTOF, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "xyzw", 1), scalar_special(T_PRIM));
    I0(&prog, 19 /* emit */, 0);
    gs_end();
}

/* A pixel shader writing a 1-component output register of `type` (oDepth, oMask, ...). */
static void ps_scalar_output(uint32_t type, uint32_t value)
{
    ps_begin(5, 0);
    sm4_decl(&prog, DCL_OUTPUT, scalar_special(type), 0, NULL);
    I(&prog, OP_MOV, scalar_special(type), l1(value));
    ps_end();
}

static void b_depth(void) { ps_scalar_output(T_DEPTH, fbits(0.5f)); }
static void b_omask(void) { ps_scalar_output(T_OMASK, 1); }
static void b_depth_ge(void) { ps_scalar_output(T_DEPTH_GE, fbits(0.5f)); }
static void b_depth_le(void) { ps_scalar_output(T_DEPTH_LE, fbits(0.5f)); }
static void b_stencil_ref(void) { ps_scalar_output(T_STENCIL_REF, 3); }

static void b_null(void)
{
    cs_begin();
    I(&prog, OP_IMUL, snull(), dr(0, "x"), l1(3), l1(5));
    cs_end();
}

static void b_rasterizer(void)
{
    ps_begin(4, 1);
    I(&prog, 111 /* sampleinfo */, dr(0, "x"), special(T_RASTERIZER, "x"));
    ps_end();
}

static void b_stream(void)
{
    gs_begin();
    sm4_decl(&prog, 143 /* dcl_stream */, sm4_reg(T_STREAM, 1, (uint32_t[]){ 0 }, NULL, "", 0), 0, NULL);
    I(&prog, 117 /* emit_stream */, sm4_reg(T_STREAM, 1, (uint32_t[]){ 0 }, NULL, "", 1));
    gs_end();
}

/* Class linkage (§2.4 144-146, §9.10): bodies, tables, an interface, fcall, this[]. */
static void b_linkage(void)
{
    static const uint32_t tokens[] = {
        0x02000090, 0x00000000,                                   /* dcl_function_body fb0 */
        0x04000091, 0x00000000, 0x00000001, 0x00000000,           /* dcl_function_table ft0 = {fb0} */
        0x05000092, 0x00000000, 0x00000001, 0x00010001, 0x00000000, /* dcl_interface fp0[1][1] = {ft0} */
        0x02000068, 0x00000001,                                   /* dcl_temps 1 */
        0x05000078, 0x00000000, 0x00213000, 0x00000000, 0x00000000, /* fcall fp0[0][0] */
        0x0100003e,                                               /* ret */
        0x0300002c, 0x00111000, 0x00000000,                       /* label fb0 */
        0x05000036, 0x00102012, 0x00000000, 0x0011d00a, 0x00000000, /* mov o0.x, this[0].x */
    };
    sm4_begin(&prog, PS, 5, 0, 0);
    sm4_dcl_io(&prog, DCL_OUTPUT, 0, T_OUTPUT, 0, "xyzw", -1);
    for (size_t i = 0; i < sizeof(tokens) / sizeof(tokens[0]); i++)
        sm4_put(&prog, tokens[i]);
    sm4_end(&prog);
    sm4_container_sig(&prog, NULL, 0, target0, 1, NULL, 0, &container);
}

static void function_parameter(uint32_t type)
{
    cs_begin();
    mark = prog.n;
    I(&prog, OP_MOV, dr(0, "xyzw"), sm4_reg(type, 1, (uint32_t[]){ 0 }, NULL, "xyzw", 0));
    cs_end();
}
static void b_function_input(void) { function_parameter(T_FUNCTION_INPUT); }
static void b_function_output(void) { function_parameter(T_FUNCTION_OUTPUT); }

static void b_hs_control_point(void) { hs_build(false, false, false); }
static void b_hs_fork(void) { hs_build(true, false, false); }
static void b_hs_join(void) { hs_build(false, true, false); }
static void b_hs_output_control_point(void) { hs_build(false, false, true); }
static void b_ds_domain(void) { ds_build(false, false); }
static void b_ds_control_point(void) { ds_build(true, false); }
static void b_ds_patch_constant(void) { ds_build(false, true); }

static void b_uav(void)
{
    cs_begin();
    sm4_dcl_uav_raw(&prog, 0);
    I(&prog, OP_STORE_RAW, du(0, "x"), l1(0), l1(7));
    cs_end();
}

static void b_group_shared(void)
{
    cs_begin();
    sm4_dcl_tgsm_raw(&prog, 0, 16);
    I(&prog, OP_STORE_RAW, dg(0, "x"), l1(4), l1(7));
    I(&prog, OP_LD_RAW, dr(0, "x"), l1(4), sg(0, "x"));
    cs_end();
}

static void cs_thread_register(uint32_t type, const char *swizzle)
{
    cs_begin();
    sm4_dcl_thread_id(&prog, type, strlen(swizzle) == 1 ? "x" : "xyz");
    I(&prog, OP_MOV, dr(0, "xyzw"), special(type, swizzle));
    cs_end();
}
static void b_thread_id(void) { cs_thread_register(T_THREAD_ID, "xyzx"); }
static void b_group_id(void) { cs_thread_register(T_GROUP_ID, "xyzx"); }
static void b_thread_in_group(void) { cs_thread_register(T_THREAD_IN_GROUP, "xyzx"); }
static void b_thread_flat(void)
{
    cs_begin();
    sm4_decl(&prog, DCL_INPUT, scalar_special(T_THREAD_FLAT), 0, NULL);
    I(&prog, OP_MOV, dr(0, "x"), scalar_special(T_THREAD_FLAT));
    cs_end();
}

/* A pixel shader reading a 1-component input register of `type` (vCoverage, vInnerCoverage). */
static void ps_scalar_input(uint32_t type)
{
    ps_begin(5, 0);
    mark = prog.n;
    sm4_decl(&prog, DCL_INPUT, scalar_special(type), 0, NULL);
    I(&prog, OP_MOV, dr(0, "x"), scalar_special(type));
    ps_end();
}
static void b_coverage(void) { ps_scalar_input(T_COVERAGE); }
static void b_inner_coverage(void) { ps_scalar_input(T_INNER_COVERAGE); }

static void b_gs_instance(void)
{
    gs_begin();
    sm4_raw(&prog, 206, 1, (uint32_t[]){ 2 });  /* dcl_gsinstances 2 */
    sm4_decl(&prog, DCL_INPUT, scalar_special(T_GS_INSTANCE), 0, NULL);
    I(&prog, OP_UTOF, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "xyzw", 1), scalar_special(T_GS_INSTANCE));
    I0(&prog, 19 /* emit */, 0);
    gs_end();
}

static void b_cycle_counter(void)
{
    cs_begin();
    mark = prog.n;
    I(&prog, OP_MOV, dr(0, "xy"), special(T_CYCLE, "xyxx"));
    cs_end();
}

/* Special registers outside their stage: vThreadID read by a pixel shader, oDepth written by a
 * compute shader. The refusal names the instruction. */
static void b_thread_id_in_ps(void)
{
    ps_begin(5, 0);
    mark = prog.n;
    I(&prog, OP_MOV, dr(0, "xyzw"), special(T_THREAD_ID, "xyzx"));
    ps_end();
}

static void b_depth_in_cs(void)
{
    cs_begin();
    mark = prog.n;
    I(&prog, OP_MOV, scalar_special(T_DEPTH), lf(0.5f));
    cs_end();
}

/* A pixel shader storing to rasterizer-ordered u1 (dcl_uav_raw_rov, §2.4 bit 17); `stage` CS
 * gives the same declaration in a compute shader, where D3D has no rasterizer order. */
static void rov_program(uint32_t stage)
{
    if (stage == PS)
        ps_begin(5, 0);
    else
        cs_begin();
    mark = prog.n;
    sm4_decl(&prog, OP_DCL_UAV_RAW | (1u << 17), sm4_reg(T_UAV, 1, (uint32_t[]){ 1 }, NULL, "", 0), 0, NULL);
    I(&prog, OP_LD_RAW, dr(0, "x"), l1(0), su(1, "xxxx"));
    I(&prog, OP_IADD, dr(0, "x"), sr(0, "x"), l1(1));
    I(&prog, OP_STORE_RAW, du(1, "x"), l1(0), sr(0, "x"));
    if (stage == PS)
        ps_end();
    else
        cs_end();
}

/* ---- the table ---------------------------------------------------------------- */

struct row {
    uint32_t type;          /* §5.3 operand type */
    const char *name;
    void (*build)(void);
    enum sb_result code;    /* SB_SUCCESS: valid SPIR-V */
    const char *message;    /* the exact refusal */
};

static const struct row rows[] = {
    { 0, "r# temp", b_temp, SB_SUCCESS, NULL },
    { 1, "v# input", b_input, SB_SUCCESS, NULL },
    { 2, "o# output", b_output, SB_SUCCESS, NULL },
    { 3, "x# indexable temp", b_indexable_temp, SB_SUCCESS, NULL },
    { 4, "l() 32-bit immediate", b_immediate32, SB_SUCCESS, NULL },
    { 5, "d() 64-bit immediate", b_immediate64, SB_SUCCESS, NULL },
    { 6, "s# sampler (with t#)", b_sampler_resource, SB_SUCCESS, NULL },
    { 7, "t# resource", b_sampler_resource, SB_SUCCESS, NULL },
    { 8, "cb# constant buffer", b_constant_buffer, SB_SUCCESS, NULL },
    { 9, "icb immediate constant buffer", b_icb, SB_SUCCESS, NULL },
    { 10, "l# label", b_label, SB_SUCCESS, NULL },
    { 11, "vPrim (gs)", b_primitive_id, SB_SUCCESS, NULL },
    { 12, "oDepth", b_depth, SB_SUCCESS, NULL },
    { 13, "null", b_null, SB_SUCCESS, NULL },
    { 14, "rasterizer (ps_4_1 sampleinfo)", b_rasterizer, SB_SUCCESS, NULL },
    { 15, "oMask", b_omask, SB_SUCCESS, NULL },
    { 16, "m# stream (gs_5_0)", b_stream, SB_SUCCESS, NULL },
    { 17, "fb# function body", b_linkage, SB_SUCCESS, NULL },
    { 18, "ft# function table", b_linkage, SB_SUCCESS, NULL },
    { 19, "fp# interface", b_linkage, SB_SUCCESS, NULL },
    { 20, "function input parameter", b_function_input, SB_ERROR_TRANSLATE_UNSUPPORTED,
      "instruction 3 (mov): operand type 20 (function input/output parameter) is not supported" },
    { 21, "function output parameter", b_function_output, SB_ERROR_TRANSLATE_UNSUPPORTED,
      "instruction 3 (mov): operand type 21 (function input/output parameter) is not supported" },
    { 22, "vOutputControlPointID (hs)", b_hs_control_point, SB_SUCCESS, NULL },
    { 23, "vForkInstanceID (hs)", b_hs_fork, SB_SUCCESS, NULL },
    { 24, "vJoinInstanceID (hs)", b_hs_join, SB_SUCCESS, NULL },
    { 25, "vicp input control point (ds)", b_ds_control_point, SB_SUCCESS, NULL },
    { 26, "vocp output control point (hs fork phase)", b_hs_output_control_point, SB_SUCCESS, NULL },
    { 27, "vpc input patch constant (ds)", b_ds_patch_constant, SB_SUCCESS, NULL },
    { 28, "vDomain (ds)", b_ds_domain, SB_SUCCESS, NULL },
    { 29, "this[] (class linkage)", b_linkage, SB_SUCCESS, NULL },
    { 30, "u# UAV", b_uav, SB_SUCCESS, NULL },
    { 31, "g# group-shared memory", b_group_shared, SB_SUCCESS, NULL },
    { 32, "vThreadID", b_thread_id, SB_SUCCESS, NULL },
    { 33, "vThreadGroupID", b_group_id, SB_SUCCESS, NULL },
    { 34, "vThreadIDInGroup", b_thread_in_group, SB_SUCCESS, NULL },
    { 35, "vCoverage", b_coverage, SB_SUCCESS, NULL },
    { 36, "vThreadIDInGroupFlattened", b_thread_flat, SB_SUCCESS, NULL },
    { 37, "vGSInstanceID", b_gs_instance, SB_SUCCESS, NULL },
    { 38, "oDepthGE", b_depth_ge, SB_SUCCESS, NULL },
    { 39, "oDepthLE", b_depth_le, SB_SUCCESS, NULL },
    { 40, "vCycleCounter", b_cycle_counter, SB_SUCCESS, NULL },
    { 41, "oStencilRef", b_stencil_ref, SB_SUCCESS, NULL },
    { 42, "vInnerCoverage", b_inner_coverage, SB_SUCCESS, NULL },
    { 32, "vThreadID in a pixel shader", b_thread_id_in_ps, SB_ERROR_TRANSLATE_INVALID,
      "special register vThreadID does not exist in this shader stage" },
    { 12, "oDepth in a compute shader", b_depth_in_cs, SB_ERROR_TRANSLATE_INVALID,
      "special register oDepth does not exist in this shader stage" },
};

/* ---- opcodes (§3) ----------------------------------------------------------------- */

struct oprow;
typedef void (*op_builder)(const struct oprow *);

struct oprow {
    uint32_t opcode;
    const char *name;
    uint32_t stage;         /* CS, PS or GS for the generic builder */
    const char *spec;       /* generic builder: one letter per operand, see operand_of() */
    op_builder build;       /* NULL: generic; else a program that holds the opcode */
    enum sb_result code;
    const char *message;
};

/* The resources every generic program declares (unused ones cost nothing). */
static void declare_resources(uint32_t stage)
{
    sm4_dcl_resource(&prog, 0, 3, 0x5555);                   /* t0 texture2d float */
    sm4_dcl_resource(&prog, 1, 4, 0x5555);                   /* t1 texture2dms float */
    sm4_dcl_resource_raw(&prog, 2);                          /* t2 ByteAddressBuffer */
    sm4_dcl_sampler(&prog, 0);                               /* s0 */
    sm4_decl(&prog, OP_DCL_SAMPLER | (1u << 11), sm4_reg(T_SAMPLER, 1, (uint32_t[]){ 1 }, NULL, "", 0), 0,
             NULL);                                          /* s1 comparison */
    sm4_dcl_uav_typed(&prog, 0, 3, 0x4444);                  /* u0 RWTexture2D<uint> */
    sm4_dcl_uav_raw(&prog, 1);                               /* u1 RWByteAddressBuffer */
    sm4_decl(&prog, OP_DCL_UAV_STRUCTURED | (1u << 23), sm4_reg(T_UAV, 1, (uint32_t[]){ 2 }, NULL, "", 0), 1,
             (uint32_t[]){ 4 });                             /* u2 structured, stride 4, counter */
    if (stage == CS)
        sm4_dcl_tgsm_raw(&prog, 0, 16);                      /* g0 */
}

/* The operand a spec letter stands for; `dsts` counts destinations so far. */
static struct sm4_operand operand_of(char letter, uint32_t *dsts)
{
    switch (letter) {
    case 'r': return dr((*dsts)++, "xyzw");                  /* a 32-bit result */
    case 'n': return dr((*dsts)++, "xy");                    /* 32-bit results of two doubles */
    case 'd': return dr((*dsts)++, "xyzw");                  /* two doubles */
    case 's': return sr(2, "xyzw");
    case 'c': return sr(2, "x");
    case 'i': return l4(0, 0, 0, 0);
    case 'f': return l4(fbits(0.5f), fbits(0.5f), 0, 0);
    case 't': return st(0, "xyzw");
    case 'T': return st(1, "xyzw");
    case 'b': return st(2, "xyzw");
    case 'S': return ss(0);
    case 'C': return ss(1);
    case 'u': return su(0, "xyzw");
    case 'B': return su(1, "xyzw");
    case 'V': return su(2, "xyzw");
    case 'x': return du(0, "xyzw");
    case 'U': return du(1, "xyzw");
    case 'W': return du(2, "xyzw");
    case 'A': return du(1, "");
    case 'Z': return du(2, "");
    case 'g': return sg(0, "xyzw");
    case 'v': return sm4_reg(T_INPUT, 1, (uint32_t[]){ 0 }, NULL, "xyzw", 0);
    case 'm': return sm4_reg(T_STREAM, 1, (uint32_t[]){ 0 }, NULL, "", 1);
    default: return snull();
    }
}

/* One instruction of `spec` in a program of `stage` (ps: v0 a linear input; gs: one point out). */
static void generic(const struct oprow *r)
{
    if (r->stage == PS) {
        ps_begin(5, 0);
        sm4_dcl_io(&prog, DCL_INPUT_PS, 2, T_INPUT, 0, "xyzw", -1);
    } else if (r->stage == GS) {
        gs_begin();
        if (strchr(r->spec, 'm'))
            sm4_decl(&prog, 143, sm4_reg(T_STREAM, 1, (uint32_t[]){ 0 }, NULL, "", 0), 0, NULL);
        I(&prog, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "xyzw", 1), l4(0, 0, 0, 0));
    } else {
        cs_begin();
    }
    if (r->stage != GS)
        declare_resources(r->stage);
    I(&prog, OP_MOV, dr(2, "xyzw"), l4(1, 0, 0, 0));
    struct sm4_operand ops[8];
    uint32_t n = 0, dsts = 0;
    for (const char *c = r->spec; *c && n < 8; c++)
        ops[n++] = operand_of(*c, &dsts);
    mark = prog.n;
    sm4_inst(&prog, r->opcode, r->opcode == OP_SYNC ? SM4_SYNC_T | SM4_SYNC_G : 0, n, ops);
    if (r->stage == PS)
        ps_end();
    else if (r->stage == GS)
        gs_end();
    else
        cs_end();
}

/* A declaration row: the generic program of an instruction that needs the declaration. */
static void o_declared(const struct oprow *r)
{
    struct oprow use = *r;
    switch (r->opcode) {
    case OP_DCL_UAV_TYPED: use.opcode = OP_LD_UAV_TYPED; use.spec = "riu"; break;
    case OP_DCL_UAV_RAW: use.opcode = OP_LD_RAW; use.spec = "riB"; break;
    case OP_DCL_UAV_STRUCTURED: use.opcode = OP_LD_STRUCTURED; use.spec = "riiV"; break;
    case OP_DCL_TGSM_RAW: use.opcode = OP_LD_RAW; use.spec = "rig"; break;
    default: use.opcode = OP_LD_RAW; use.spec = "rib"; break; /* dcl_resource_raw */
    }
    generic(&use);
}

/* Builders of the operand-type table, for the opcodes they hold. */
static void o_temp(const struct oprow *r) { (void)r; b_temp(); }
static void o_input(const struct oprow *r) { (void)r; b_input(); }
static void o_output(const struct oprow *r) { (void)r; b_output(); }
static void o_sampler_resource(const struct oprow *r) { (void)r; b_sampler_resource(); }
static void o_constant_buffer(const struct oprow *r) { (void)r; b_constant_buffer(); }
static void o_icb(const struct oprow *r) { (void)r; b_icb(); }
static void o_indexable_temp(const struct oprow *r) { (void)r; b_indexable_temp(); }
static void o_label(const struct oprow *r) { (void)r; b_label(); }
static void o_primitive_id(const struct oprow *r) { (void)r; b_primitive_id(); }
static void o_stream(const struct oprow *r) { (void)r; b_stream(); }
static void o_linkage(const struct oprow *r) { (void)r; b_linkage(); }
static void o_hs_fork(const struct oprow *r) { (void)r; b_hs_fork(); }
static void o_hs_join(const struct oprow *r) { (void)r; b_hs_join(); }
static void o_ds_patch_constant(const struct oprow *r) { (void)r; b_ds_patch_constant(); }
static void o_gs_instance(const struct oprow *r) { (void)r; b_gs_instance(); }
static void o_thread_id(const struct oprow *r) { (void)r; b_thread_id(); }

/* if_nz / else / endif. */
static void o_if(const struct oprow *r)
{
    (void)r;
    cs_begin();
    I(&prog, OP_MOV, dr(0, "x"), l1(1));
    IC(&prog, OP_IF, SM4_NZ, sr(0, "x"));
    I(&prog, OP_MOV, dr(1, "x"), l1(2));
    I0(&prog, OP_ELSE, 0);
    I(&prog, OP_MOV, dr(1, "x"), l1(3));
    I0(&prog, OP_ENDIF, 0);
    cs_end();
}

/* loop with breakc, continue inside an if, continuec, break, endloop. */
static void o_loop(const struct oprow *r)
{
    (void)r;
    cs_begin();
    I(&prog, OP_MOV, dr(0, "xyzw"), l4(0, 0, 0, 0));
    I0(&prog, OP_LOOP, 0);
    IC(&prog, OP_BREAKC, SM4_NZ, sr(0, "x"));
    I(&prog, OP_IADD, dr(0, "x"), sr(0, "x"), l1(1));
    IC(&prog, OP_IF, SM4_Z, sr(0, "y"));
    I0(&prog, OP_CONTINUE, 0);
    I0(&prog, OP_ENDIF, 0);
    IC(&prog, OP_CONTINUEC, SM4_NZ, sr(0, "z"));
    I0(&prog, OP_BREAK, 0);
    I0(&prog, OP_ENDLOOP, 0);
    cs_end();
}

/* switch / case / default / endswitch. */
static void o_switch(const struct oprow *r)
{
    (void)r;
    cs_begin();
    I(&prog, OP_MOV, dr(0, "x"), l1(1));
    I(&prog, OP_SWITCH, sr(0, "x"));
    I(&prog, OP_CASE, l1(1));
    I(&prog, OP_MOV, dr(1, "x"), l1(2));
    I0(&prog, OP_BREAK, 0);
    I0(&prog, OP_DEFAULT, 0);
    I(&prog, OP_MOV, dr(1, "x"), l1(3));
    I0(&prog, OP_BREAK, 0);
    I0(&prog, OP_ENDSWITCH, 0);
    cs_end();
}

/* retc_nz, callc_nz, nop, discard (ps), abort/debug_break: one 0+0 / 0+1 instruction. */
static void o_control(const struct oprow *r)
{
    if (r->stage == PS)
        ps_begin(5, 0);
    else
        cs_begin();
    I(&prog, OP_MOV, dr(0, "x"), l1(1));
    mark = prog.n;
    if (r->opcode == OP_RETC || r->opcode == OP_DISCARD)
        IC(&prog, r->opcode, SM4_NZ, sr(0, "x"));
    else if (r->opcode == OP_CALLC)
        IC(&prog, OP_CALLC, SM4_NZ, sr(0, "x"), label(0));
    else
        I0(&prog, r->opcode, 0);
    if (r->opcode == OP_CALLC) {
        I0(&prog, OP_RET, 0);
        I(&prog, OP_LABEL, label(0));
        I(&prog, OP_MOV, dr(1, "x"), l1(2));
    }
    if (r->stage == PS)
        ps_end();
    else
        cs_end();
}

/* dcl_indexrange v0..v1, read as v[r0.x + 0] in a vertex shader. */
static void o_indexrange(const struct oprow *r)
{
    (void)r;
    sm4_begin(&prog, VS, 5, 0, 1);
    sm4_dcl_io(&prog, DCL_INPUT, 0, T_INPUT, 0, "xyzw", -1);
    sm4_dcl_io(&prog, DCL_INPUT, 0, T_INPUT, 1, "xyzw", -1);
    sm4_decl(&prog, 91, sm4_reg(T_INPUT, 1, (uint32_t[]){ 0 }, NULL, "xyzw", 1), 1, (uint32_t[]){ 2 });
    sm4_dcl_io(&prog, DCL_OUTPUT_SIV, 0, T_OUTPUT, 0, "xyzw", 1);
    I(&prog, OP_FTOU, dr(0, "x"), sm4_reg(T_INPUT, 1, (uint32_t[]){ 0 }, NULL, "x", 0));
    struct sm4_operand i = sr(0, "x");
    I(&prog, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "xyzw", 1),
      sm4_reg(T_INPUT, 1, (uint32_t[]){ 0 }, (const struct sm4_operand *const[]){ &i }, "xyzw", 0));
    sm4_end(&prog);
    const struct sig_element_spec ins[] = { { 0, "A", 0, 0, 3, 0, 0xf, 0xf, 0 }, { 0, "A", 1, 0, 3, 1, 0xf, 0xf, 0 } };
    const struct sig_element_spec outs[] = { { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0x0, 0 } };
    sm4_container_sig(&prog, ins, 2, outs, 1, NULL, 0, &container);
}

/* dcl_input_sgv v0.x, vertex_id (vs). */
static void o_input_sgv(const struct oprow *r)
{
    (void)r;
    sm4_begin(&prog, VS, 5, 0, 0);
    sm4_dcl_io(&prog, 96, 0, T_INPUT, 0, "x", 6);
    sm4_dcl_io(&prog, DCL_OUTPUT_SIV, 0, T_OUTPUT, 0, "xyzw", 1);
    I(&prog, OP_UTOF, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "xyzw", 1),
      sm4_reg(T_INPUT, 1, (uint32_t[]){ 0 }, NULL, "xxxx", 0));
    sm4_end(&prog);
    const struct sig_element_spec ins[] = { { 0, "SV_VertexID", 0, 6, 1, 0, 0x1, 0x1, 0 } };
    const struct sig_element_spec outs[] = { { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0x0, 0 } };
    sm4_container_sig(&prog, ins, 1, outs, 1, NULL, 0, &container);
}

/* dcl_input_ps_sgv v1.x, primitive_id and dcl_input_ps_siv v0.xy, position (ps). */
static void o_input_ps_system(const struct oprow *r)
{
    (void)r;
    ps_begin(5, 0);
    sm4_dcl_io(&prog, 100, 4, T_INPUT, 0, "xy", 1);
    sm4_dcl_io(&prog, 99, 1, T_INPUT, 1, "x", 7);
    I(&prog, OP_UTOF, dr(0, "x"), sm4_reg(T_INPUT, 1, (uint32_t[]){ 1 }, NULL, "x", 0));
    I(&prog, OP_ADD, dr(0, "x"), sr(0, "x"), sm4_reg(T_INPUT, 1, (uint32_t[]){ 0 }, NULL, "x", 0));
    I(&prog, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "x", 1), sr(0, "x"));
    sm4_end(&prog);
    const struct sig_element_spec ins[] = { { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0x3, 0 },
                                            { 0, "SV_PrimitiveID", 0, 7, 1, 1, 0x1, 0x1, 0 } };
    sm4_container_sig(&prog, ins, 2, target0, 1, NULL, 0, &container);
}

/* dcl_output_sgv o1.x, primitive_id (gs). */
static void o_output_sgv(const struct oprow *r)
{
    (void)r;
    gs_begin();
    sm4_dcl_io(&prog, 102, 0, T_OUTPUT, 1, "x", 7);
    I(&prog, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "xyzw", 1), l4(0, 0, 0, 0));
    I(&prog, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 1 }, NULL, "x", 1), l1(5));
    I0(&prog, 19 /* emit */, 0);
    sm4_end(&prog);
    const struct sig_element_spec outs[] = { { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0x0, 0 },
                                             { 0, "SV_PrimitiveID", 0, 7, 1, 1, 0x1, 0xe, 0 } };
    sm4_container_sig(&prog, NULL, 0, outs, 2, NULL, 0, &container);
}

/* dcl_tgsm_structured g1 and dcl_resource_structured t3, read back. */
static void o_structured(const struct oprow *r)
{
    (void)r;
    cs_begin();
    sm4_decl(&prog, OP_DCL_TGSM_STRUCTURED, sm4_reg(T_TGSM, 1, (uint32_t[]){ 1 }, NULL, "", 0), 2,
             (uint32_t[]){ 4, 4 });
    sm4_dcl_resource_structured(&prog, 3, 4);
    I(&prog, OP_LD_STRUCTURED, dr(0, "x"), l1(0), l1(0), st(3, "xxxx"));
    I(&prog, OP_STORE_STRUCTURED, dg(1, "x"), l1(1), l1(0), sr(0, "x"));
    cs_end();
}

#define G(op, name, stage, spec) { op, name, stage, spec, NULL, SB_SUCCESS, NULL }
#define B(op, name, builder) { op, name, CS, "", builder, SB_SUCCESS, NULL }
#define C(op, name, stage) { op, name, stage, "", o_control, SB_SUCCESS, NULL }

static const struct oprow op_rows[] = {
    G(0, "add", CS, "rss"), G(1, "and", CS, "rss"), B(2, "break", o_loop), B(3, "breakc", o_loop),
    B(4, "call", o_label), C(5, "callc", CS), B(6, "case", o_switch), B(7, "continue", o_loop),
    B(8, "continuec", o_loop), G(9, "cut", GS, ""), B(10, "default", o_switch), G(11, "deriv_rtx", PS, "rs"),
    G(12, "deriv_rty", PS, "rs"), C(13, "discard", PS), G(14, "div", CS, "rss"), G(15, "dp2", CS, "rss"),
    G(16, "dp3", CS, "rss"), G(17, "dp4", CS, "rss"), B(18, "else", o_if), G(19, "emit", GS, ""),
    G(20, "emit_then_cut", GS, ""), B(21, "endif", o_if), B(22, "endloop", o_loop), B(23, "endswitch", o_switch),
    G(24, "eq", CS, "rss"), G(25, "exp", CS, "rs"), G(26, "frc", CS, "rs"), G(27, "ftoi", CS, "rs"),
    G(28, "ftou", CS, "rs"), G(29, "ge", CS, "rss"), G(30, "iadd", CS, "rss"), B(31, "if", o_if),
    G(32, "ieq", CS, "rss"), G(33, "ige", CS, "rss"), G(34, "ilt", CS, "rss"), G(35, "imad", CS, "rsss"),
    G(36, "imax", CS, "rss"), G(37, "imin", CS, "rss"), G(38, "imul", CS, "rrss"), G(39, "ine", CS, "rss"),
    G(40, "ineg", CS, "rs"), G(41, "ishl", CS, "rss"), G(42, "ishr", CS, "rss"), G(43, "itof", CS, "rs"),
    B(44, "label", o_label), G(45, "ld", CS, "rit"), G(46, "ldms", CS, "riTi"), G(47, "log", CS, "rs"),
    B(48, "loop", o_loop), G(49, "lt", CS, "rss"), G(50, "mad", CS, "rsss"), G(51, "min", CS, "rss"),
    G(52, "max", CS, "rss"), B(53, "customdata (icb)", o_icb), G(54, "mov", CS, "rs"), G(55, "movc", CS, "rsss"),
    G(56, "mul", CS, "rss"), G(57, "ne", CS, "rss"), C(58, "nop", CS), G(59, "not", CS, "rs"),
    G(60, "or", CS, "rss"), G(61, "resinfo", CS, "rit"), B(62, "ret", o_temp), C(63, "retc", CS),
    G(64, "round_ne", CS, "rs"), G(65, "round_ni", CS, "rs"), G(66, "round_pi", CS, "rs"),
    G(67, "round_z", CS, "rs"), G(68, "rsq", CS, "rs"), G(69, "sample", PS, "rftS"),
    G(70, "sample_c", PS, "rftCc"), G(71, "sample_c_lz", CS, "rftCc"), G(72, "sample_l", CS, "rftSc"),
    G(73, "sample_d", CS, "rftSff"), G(74, "sample_b", PS, "rftSc"), G(75, "sqrt", CS, "rs"),
    B(76, "switch", o_switch), G(77, "sincos", CS, "rrs"), G(78, "udiv", CS, "rrss"), G(79, "ult", CS, "rss"),
    G(80, "uge", CS, "rss"), G(81, "umul", CS, "rrss"), G(82, "umad", CS, "rsss"), G(83, "umax", CS, "rss"),
    G(84, "umin", CS, "rss"), G(85, "ushr", CS, "rss"), G(86, "utof", CS, "rs"), G(87, "xor", CS, "rss"),
    B(88, "dcl_resource", o_sampler_resource), B(89, "dcl_constantbuffer", o_constant_buffer),
    B(90, "dcl_sampler", o_sampler_resource), B(91, "dcl_indexrange", o_indexrange),
    B(92, "dcl_outputtopology", o_primitive_id), B(93, "dcl_inputprimitive", o_primitive_id),
    B(94, "dcl_maxout", o_primitive_id), B(95, "dcl_input", o_input), B(96, "dcl_input_sgv", o_input_sgv),
    B(97, "dcl_input_siv", o_ds_patch_constant), B(98, "dcl_input_ps", o_input_ps_system),
    B(99, "dcl_input_ps_sgv", o_input_ps_system), B(100, "dcl_input_ps_siv", o_input_ps_system),
    B(101, "dcl_output", o_output), B(102, "dcl_output_sgv", o_output_sgv), B(103, "dcl_output_siv", o_input),
    B(104, "dcl_temps", o_temp), B(105, "dcl_indexableTemp", o_indexable_temp),
    B(106, "dcl_globalFlags", o_temp), { 107, "(reserved 107)", CS, "", o_control, SB_ERROR_SM4_UNKNOWN_OPCODE,
      "instruction 4: opcode 107 (token 0x0100006b) is reserved or unknown" }, G(108, "lod", PS, "rftS"),
    G(109, "gather4", CS, "rftS"), G(110, "samplepos", CS, "rTc"), G(111, "sampleinfo", CS, "rT"),
    { 112, "(reserved 112)", CS, "", o_control, SB_ERROR_SM4_UNKNOWN_OPCODE,
      "instruction 4: opcode 112 (token 0x01000070) is reserved or unknown" },
    B(113, "hs_decls", o_hs_fork), B(114, "hs_control_point_phase", o_hs_fork),
    B(115, "hs_fork_phase", o_hs_fork), B(116, "hs_join_phase", o_hs_join), B(117, "emit_stream", o_stream),
    G(118, "cut_stream", GS, "m"), G(119, "emit_then_cut_stream", GS, "m"), B(120, "fcall", o_linkage),
    G(121, "bufinfo", CS, "rb"), G(122, "deriv_rtx_coarse", PS, "rs"), G(123, "deriv_rtx_fine", PS, "rs"),
    G(124, "deriv_rty_coarse", PS, "rs"), G(125, "deriv_rty_fine", PS, "rs"), G(126, "gather4_c", CS, "rftCc"),
    G(127, "gather4_po", CS, "rfitS"), G(128, "gather4_po_c", CS, "rfitCc"), G(129, "rcp", CS, "rs"),
    G(130, "f32tof16", CS, "rs"), G(131, "f16tof32", CS, "rs"), G(132, "uaddc", CS, "rrss"),
    G(133, "usubb", CS, "rrss"), G(134, "countbits", CS, "rs"), G(135, "firstbit_hi", CS, "rs"),
    G(136, "firstbit_lo", CS, "rs"), G(137, "firstbit_shi", CS, "rs"), G(138, "ubfe", CS, "rsss"),
    G(139, "ibfe", CS, "rsss"), G(140, "bfi", CS, "rssss"), G(141, "bfrev", CS, "rs"), G(142, "swapc", CS, "rrsss"),
    B(143, "dcl_stream", o_stream), B(144, "dcl_function_body", o_linkage), B(145, "dcl_function_table", o_linkage),
    B(146, "dcl_interface", o_linkage), B(147, "dcl_input_control_point_count", o_hs_fork),
    B(148, "dcl_output_control_point_count", o_hs_fork), B(149, "dcl_tessellator_domain", o_hs_fork),
    B(150, "dcl_tessellator_partitioning", o_hs_fork), B(151, "dcl_tessellator_output_primitive", o_hs_fork),
    B(152, "dcl_hs_max_tessfactor", o_hs_fork), B(153, "dcl_hs_fork_phase_instance_count", o_hs_fork),
    B(154, "dcl_hs_join_phase_instance_count", o_hs_join), B(155, "dcl_thread_group", o_thread_id),
    B(156, "dcl_uav_typed", o_declared), B(157, "dcl_uav_raw", o_declared), B(158, "dcl_uav_structured", o_declared),
    B(159, "dcl_tgsm_raw", o_declared), B(160, "dcl_tgsm_structured", o_structured),
    B(161, "dcl_resource_raw", o_declared),
    B(162, "dcl_resource_structured", o_structured), G(163, "ld_uav_typed", CS, "riu"),
    G(164, "store_uav_typed", CS, "xis"), G(165, "ld_raw", CS, "riB"), G(166, "store_raw", CS, "Uis"),
    G(167, "ld_structured", CS, "riiV"), G(168, "store_structured", CS, "Wiis"), G(169, "atomic_and", CS, "Aii"),
    G(170, "atomic_or", CS, "Aii"), G(171, "atomic_xor", CS, "Aii"), G(172, "atomic_cmp_store", CS, "Aiii"),
    G(173, "atomic_iadd", CS, "Aii"), G(174, "atomic_imax", CS, "Aii"), G(175, "atomic_imin", CS, "Aii"),
    G(176, "atomic_umax", CS, "Aii"), G(177, "atomic_umin", CS, "Aii"), G(178, "imm_atomic_alloc", CS, "rZ"),
    G(179, "imm_atomic_consume", CS, "rZ"), G(180, "imm_atomic_iadd", CS, "rAii"),
    G(181, "imm_atomic_and", CS, "rAii"), G(182, "imm_atomic_or", CS, "rAii"), G(183, "imm_atomic_xor", CS, "rAii"),
    G(184, "imm_atomic_exch", CS, "rAii"), G(185, "imm_atomic_cmp_exch", CS, "rAiii"),
    G(186, "imm_atomic_imax", CS, "rAii"), G(187, "imm_atomic_imin", CS, "rAii"),
    G(188, "imm_atomic_umax", CS, "rAii"), G(189, "imm_atomic_umin", CS, "rAii"), G(190, "sync_g_t", CS, ""),
    G(191, "dadd", CS, "dss"), G(192, "dmax", CS, "dss"), G(193, "dmin", CS, "dss"), G(194, "dmul", CS, "dss"),
    G(195, "deq", CS, "nss"), G(196, "dge", CS, "nss"), G(197, "dlt", CS, "nss"), G(198, "dne", CS, "nss"),
    G(199, "dmov", CS, "ds"), G(200, "dmovc", CS, "dsss"), G(201, "dtof", CS, "ns"), G(202, "ftod", CS, "ds"),
    G(203, "eval_snapped", PS, "rvi"), G(204, "eval_sample_index", PS, "rvi"), G(205, "eval_centroid", PS, "rv"),
    B(206, "dcl_gsinstances", o_gs_instance), C(207, "abort", CS), C(208, "debug_break", CS),
    { 209, "(reserved 209)", CS, "", o_control, SB_ERROR_SM4_UNKNOWN_OPCODE,
      "instruction 4: opcode 209 (token 0x010000d1) is reserved or unknown" },
    G(210, "ddiv", CS, "dss"), G(211, "dfma", CS, "dsss"), G(212, "drcp", CS, "ds"),
    G(213, "msad", CS, "rsss"), G(214, "dtoi", CS, "ns"), G(215, "dtou", CS, "ns"), G(216, "itod", CS, "ds"),
    G(217, "utod", CS, "ds"), { 218, "(reserved 218)", CS, "", o_control, SB_ERROR_SM4_UNKNOWN_OPCODE,
      "instruction 4: opcode 218 (token 0x010000da) is reserved or unknown" }, G(219, "gather4_s", CS, "rrftS"),
    G(220, "gather4_c_s", CS, "rrftCc"), G(221, "gather4_po_s", CS, "rrfitS"), G(222, "gather4_po_c_s", CS, "rrfitCc"),
    G(223, "ld_s", CS, "rrit"), G(224, "ldms_s", CS, "rriTi"), G(225, "ld_uav_typed_s", CS, "rriu"),
    G(226, "ld_raw_s", CS, "rriB"), G(227, "ld_structured_s", CS, "rriiV"), G(228, "sample_l_s", CS, "rrftSc"),
    G(229, "sample_c_lz_s", CS, "rrftCc"), G(230, "sample_cl_s", PS, "rrftSc"), G(231, "sample_b_cl_s", PS, "rrftScc"),
    G(232, "sample_d_cl_s", CS, "rrftSffc"), G(233, "sample_c_cl_s", PS, "rrftCcc"),
    G(234, "check_access_fully_mapped", CS, "rs"),
};

/* ---- system values (§8.1) ---------------------------------------------------------- */

struct sysrow {
    uint32_t value;
    const char *name;      /* the signature's semantic */
    char where;            /* 'p' ps input, 'v' vs input, 'o' vs output, 'q' hs quad, 'l' hs isoline, 't' hs tri */
    uint32_t component_type; /* signature: 1 uint, 3 float */
};

/* A pixel shader reading system value `r` from v1.x. */
static void sys_ps_input(const struct sysrow *r)
{
    ps_begin(5, 0);
    bool position = r->value == 1, clip = r->value == 2 || r->value == 3;
    uint32_t opcode = position || clip ? 100 : 99, mode = position ? 4 : clip ? 2 : 1;
    sm4_dcl_io(&prog, opcode, mode, T_INPUT, 1, "x", (int32_t)r->value);
    I(&prog, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "x", 1),
      sm4_reg(T_INPUT, 1, (uint32_t[]){ 1 }, NULL, "x", 0));
    sm4_end(&prog);
    const struct sig_element_spec ins[] = { { 0, r->name, 0, r->value, r->component_type, 1, 0x1, 0x1, 0 } };
    sm4_container_sig(&prog, ins, 1, target0, 1, NULL, 0, &container);
}

/* A vertex shader reading system value `r` (dcl_input_sgv v0.x). */
static void sys_vs_input(const struct sysrow *r)
{
    sm4_begin(&prog, VS, 5, 0, 0);
    sm4_dcl_io(&prog, 96, 0, T_INPUT, 0, "x", (int32_t)r->value);
    sm4_dcl_io(&prog, DCL_OUTPUT_SIV, 0, T_OUTPUT, 0, "xyzw", 1);
    I(&prog, OP_UTOF, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "xyzw", 1),
      sm4_reg(T_INPUT, 1, (uint32_t[]){ 0 }, NULL, "xxxx", 0));
    sm4_end(&prog);
    const struct sig_element_spec ins[] = { { 0, r->name, 0, r->value, 1, 0, 0x1, 0x1, 0 } };
    const struct sig_element_spec outs[] = { { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0x0, 0 } };
    sm4_container_sig(&prog, ins, 1, outs, 1, NULL, 0, &container);
}

/* A vertex shader writing system value `r` to o1.x beside the position in o0. */
static void sys_vs_output(const struct sysrow *r)
{
    sm4_begin(&prog, VS, 5, 0, 0);
    sm4_dcl_io(&prog, DCL_OUTPUT_SIV, 0, T_OUTPUT, 0, "xyzw", 1);
    mark = prog.n;
    sm4_dcl_io(&prog, DCL_OUTPUT_SIV, 0, T_OUTPUT, 1, "x", (int32_t)r->value);
    I(&prog, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "xyzw", 1), l4(0, 0, 0, fbits(1.0f)));
    I(&prog, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 1 }, NULL, "x", 1), l1(0));
    sm4_end(&prog);
    const struct sig_element_spec outs[] = { { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0x0, 0 },
                                             { 0, r->name, 0, r->value, r->component_type, 1, 0x1, 0xe, 0 } };
    sm4_container_sig(&prog, NULL, 0, outs, 2, NULL, 0, &container);
}

/* A hull shader of the quad (11-16) or isoline (21, 22) domain writing every factor of it;
 * the tri factors (17-20) are hs_build's. */
static void sys_hs_factors(const struct sysrow *r)
{
    bool quad = r->where == 'q';
    uint32_t first = quad ? 11 : 21, count = quad ? 6 : 2;
    static const char *const names[12] = { "SV_TessFactor", "SV_TessFactor", "SV_TessFactor", "SV_TessFactor",
                                           "SV_InsideTessFactor", "SV_InsideTessFactor" };
    sm4_begin(&prog, HS, 5, 0, 0);
    sm4_raw(&prog, 113, 0, NULL);
    sm4_raw(&prog, 147u | (4u << 11), 0, NULL);
    sm4_raw(&prog, 148u | (4u << 11), 0, NULL);
    sm4_raw(&prog, 149u | ((quad ? 3u : 1u) << 11), 0, NULL);  /* domain quad / isoline */
    sm4_raw(&prog, 150u | (1u << 11), 0, NULL);
    sm4_raw(&prog, 151u | ((quad ? 3u : 1u) << 11), 0, NULL);  /* triangle_cw / line */
    sm4_raw(&prog, 152, 1, (uint32_t[]){ fbits(1.0f) });
    sm4_raw(&prog, 115, 0, NULL);
    for (uint32_t f = 0; f < count; f++)
        sm4_dcl_io(&prog, DCL_OUTPUT_SIV, 0, T_OUTPUT, f, "x", (int32_t)(first + f));
    for (uint32_t f = 0; f < count; f++)
        I(&prog, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ f }, NULL, "x", 1), lf(1.0f));
    sm4_end(&prog);
    struct sig_element_spec patch[6];
    for (uint32_t f = 0; f < count; f++) {
        struct sig_element_spec e = { 0, quad ? names[f] : (f ? "SV_TessFactor" : "SV_TessFactor"),
                                      quad ? (f < 4 ? f : f - 4) : f, first + f, 3, f, 0x1, 0xe, 0 };
        patch[f] = e;
    }
    sm4_container_sig(&prog, control_point, 1, control_point, 1, patch, count, &container);
}

static const struct sysrow sys_rows[] = {
    { 1, "SV_Position", 'p', 3 }, { 1, "SV_Position", 'o', 3 }, { 2, "SV_ClipDistance", 'p', 3 },
    { 2, "SV_ClipDistance", 'o', 3 }, { 3, "SV_CullDistance", 'p', 3 }, { 3, "SV_CullDistance", 'o', 3 },
    { 4, "SV_RenderTargetArrayIndex", 'p', 1 }, { 4, "SV_RenderTargetArrayIndex", 'o', 1 },
    { 5, "SV_ViewportArrayIndex", 'p', 1 }, { 5, "SV_ViewportArrayIndex", 'o', 1 },
    { 6, "SV_VertexID", 'v', 1 }, { 7, "SV_PrimitiveID", 'p', 1 }, { 8, "SV_InstanceID", 'v', 1 },
    { 9, "SV_IsFrontFace", 'p', 1 }, { 10, "SV_SampleIndex", 'p', 1 },
    { 11, "SV_TessFactor", 'q', 3 }, { 12, "SV_TessFactor", 'q', 3 }, { 13, "SV_TessFactor", 'q', 3 },
    { 14, "SV_TessFactor", 'q', 3 }, { 15, "SV_InsideTessFactor", 'q', 3 }, { 16, "SV_InsideTessFactor", 'q', 3 },
    { 17, "SV_TessFactor", 't', 3 }, { 18, "SV_TessFactor", 't', 3 }, { 19, "SV_TessFactor", 't', 3 },
    { 20, "SV_InsideTessFactor", 't', 3 }, { 21, "SV_TessFactor", 'l', 3 }, { 22, "SV_TessFactor", 'l', 3 },
};

static void sys_build(const struct sysrow *r)
{
    switch (r->where) {
    case 'p': sys_ps_input(r); break;
    case 'v': sys_vs_input(r); break;
    case 'o': sys_vs_output(r); break;
    case 't': hs_build(false, false, false); break;
    default: sys_hs_factors(r); break;
    }
}

/* Byte offset of the shader-code part's data in `container` (the offsets errors carry start there). */
static uint32_t code_offset(const struct blob *b)
{
    uint32_t count;
    memcpy(&count, b->bytes + 28, 4);
    for (uint32_t i = 0; i < count && 32 + 4 * i + 4 <= b->size; i++) {
        uint32_t at;
        memcpy(&at, b->bytes + 32 + 4 * i, 4);
        if (at + 8 <= b->size && (!memcmp(b->bytes + at, "SHEX", 4) || !memcmp(b->bytes + at, "SHDR", 4)))
            return at + 8;
    }
    return 0;
}

/* How many instructions of `opcode` the module holds (with `second`: whose second operand word is `operand`). */
static uint32_t count_opcode(const struct sb_translation *t, uint32_t opcode, bool second, uint32_t operand)
{
    uint32_t n = 0;
    for (size_t i = 5; t && i < t->word_count;) {
        uint32_t len = t->words[i] >> 16;
        if (!len || i + len > t->word_count)
            break;
        if ((t->words[i] & 0xFFFFu) == opcode && (!second || (len > 2 && t->words[i + 2] == operand)))
            n++;
        i += len;
    }
    return n;
}

/* Translates `container` with `flags` and compares with the expectation; prints the outcome when
 * asked or wrong. With `interlock` a translation must also hold one begin and one end of the
 * fragment shader interlock and the PixelInterlockOrderedEXT mode; without, none of them. */
static bool check_flags(const char *kind, uint32_t number, const char *name, enum sb_result code,
                        const char *message, bool print, uint32_t flags, bool interlock)
{
    struct sb_translate_options options = { .target_env = SB_TARGET_VULKAN_1_1,
                                            .flags = SB_TRANSLATE_VALIDATE | flags };
    struct sb_translation *t = NULL;
    struct sb_error error = { 0 };
    enum sb_result res = sb_translate(container.bytes, container.size, &options, &t, &error);
    uint64_t want_offset = code_offset(&container) + 4ull * mark;
    bool ok;
    if (code == SB_SUCCESS) {
        uint32_t want = interlock ? 1 : 0;
        /* OpBeginInvocationInterlockEXT 5364, OpEndInvocationInterlockEXT 5365, OpExecutionMode (16)
         * %main PixelInterlockOrderedEXT (5366, its second operand). */
        ok = res == SB_SUCCESS && count_opcode(t, 5364, false, 0) == want && count_opcode(t, 5365, false, 0) == want &&
             count_opcode(t, 16, true, 5366) == want;
    } else
        ok = res == code && error.offset == want_offset && !strcmp(error.message, message);
    if (print || !ok)
        printf("%s %s %3u %-36s %s (%llu: %s)\n", ok ? "ok  " : "FAIL", kind, number, name, sb_result_name(res),
               (unsigned long long)error.offset, res ? error.message : "-");
    if (!ok && code != SB_SUCCESS)
        printf("     wanted %s at %llu: %s\n", sb_result_name(code), (unsigned long long)want_offset, message);
    sb_translation_destroy(t);
    return ok;
}

static bool check(const char *kind, uint32_t number, const char *name, enum sb_result code, const char *message,
                  bool print)
{
    return check_flags(kind, number, name, code, message, print, 0, false);
}

int main(int argc, char **argv)
{
    bool print = argc > 1 && !strcmp(argv[1], "--print");
    int failures = 0;
    uint32_t seen[43] = { 0 }, seen_ops[235] = { 0 };
    size_t type_rows = sizeof(rows) / sizeof(rows[0]), opcode_rows = sizeof(op_rows) / sizeof(op_rows[0]);
    for (size_t r = 0; r < type_rows; r++) {
        mark = 0;
        rows[r].build();
        if (rows[r].type < 43)
            seen[rows[r].type]++;
        failures += !check("type", rows[r].type, rows[r].name, rows[r].code, rows[r].message, print);
    }
    for (size_t r = 0; r < opcode_rows; r++) {
        const struct oprow *row = &op_rows[r];
        mark = 0;
        if (row->build)
            row->build(row);
        else
            generic(row);
        if (row->opcode < 235)
            seen_ops[row->opcode]++;
        failures += !check("op  ", row->opcode, row->name, row->code, row->message, print);
    }
    uint32_t seen_values[23] = { 0 };
    size_t system_rows = sizeof(sys_rows) / sizeof(sys_rows[0]);
    for (size_t r = 0; r < system_rows; r++) {
        mark = 0;
        sys_build(&sys_rows[r]);
        seen_values[sys_rows[r].value]++;
        char name[64];
        snprintf(name, sizeof(name), "%s (%c)", sys_rows[r].name, sys_rows[r].where);
        failures += !check("sv  ", sys_rows[r].value, name, SB_SUCCESS, NULL, print);
    }
    /* A system value the stage cannot write: the refusal names the declaration. */
    static const struct sysrow front_face_out = { 9, "SV_IsFrontFace", 'o', 1 };
    sys_vs_output(&front_face_out);
    failures += !check("sv  ", 9, "SV_IsFrontFace written by a vs", SB_ERROR_TRANSLATE_INVALID,
                       "output register 1 (system value 9) cannot be written in this stage", print);
    for (uint32_t v = 1; v < 23; v++)
        if (!seen_values[v]) {
            printf("FAIL system value %u has no row\n", v);
            failures++;
        }
    /* Rasterizer-ordered views: refused without interlock, ordered with it; no effect in a cs. */
    rov_program(PS);
    failures += !check_flags("rov ", 157, "ps dcl_uav_raw_rov, no interlock", SB_ERROR_TRANSLATE_UNSUPPORTED,
                             "u1 is a rasterizer-ordered view; ordering it needs fragment shader interlock "
                             "(VK_EXT_fragment_shader_interlock fragmentShaderPixelInterlock), which the target lacks",
                             print, SB_TRANSLATE_NO_FRAGMENT_SHADER_INTERLOCK, false);
    failures += !check_flags("rov ", 157, "ps dcl_uav_raw_rov, interlock", SB_SUCCESS, NULL, print, 0, true);
    rov_program(CS);
    failures += !check_flags("rov ", 157, "cs dcl_uav_raw_rov", SB_SUCCESS, NULL, print, 0, false);
    for (uint32_t type = 0; type < 43; type++)
        if (!seen[type]) {
            printf("FAIL operand type %u has no row\n", type);
            failures++;
        }
    for (uint32_t op = 0; op < 235; op++)
        if (!seen_ops[op]) {
            printf("FAIL opcode %u has no row\n", op);
            failures++;
        }
    printf("operand types: %zu rows, opcodes: %zu rows, system values: %zu rows; %d failures\n", type_rows,
           opcode_rows, system_rows, failures);
    return failures ? 1 : 0;
}
