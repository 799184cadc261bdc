/* SPDX-License-Identifier: MIT */
/*
 * Geometry shaders in the CPU interpreter (sb_interp_run_geometry) and in
 * GPU-vs-CPU validation (sb_validate). Five small gs_4_0 / gs_5_0 programs
 * are assembled from tokens (tests/vulkan/sm4_asm.h) into signed
 * containers:
 *   point_quad     a point expanded to a 4-vertex triangle strip, then cut;
 *   triangle_cut   a triangle passed through with a relative vertex index
 *                  (v[r0.x][n]) and vPrim, then cut;
 *   instanced      3 instances, instance i emitting i + 1 points that carry
 *                  vGSInstanceID, the loop counter and vPrim;
 *   streams        emit / cut / emit_then_cut on streams 0 and 1;
 *   overflow       5 emits against dcl_maxout 2 (the last 3 dropped), a cut;
 *   triangle_adj   the 6 vertices of a triangle with adjacency emitted in
 *                  order as points (the GPU's vertex order against ours).
 * Mode "known": each runs on the interpreter with hand-picked vertex records
 * and every emitted word, count, stream and cut is asserted exactly.
 * Mode "validate": each runs through sb_validate on the Vulkan device
 * (lavapipe in the suite) and must agree with the interpreter on every
 * compared word, with vertices actually emitted on both sides.
 * Usage: test_interp_gs known|validate. Exit 77 (validate) without Vulkan.
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/interp.h"
#include "shaderbridge/validate.h"
#include "sm4_asm.h"

enum {
    OP_CUT = 9, OP_EMIT = 19, OP_EMIT_THEN_CUT = 20, OP_DCL_OUTPUT_TOPOLOGY = 92, OP_DCL_INPUT_PRIMITIVE = 93,
    OP_DCL_MAX_OUTPUT = 94, OP_DCL_INPUT = 95, OP_DCL_INPUT_SIV = 97, OP_DCL_OUTPUT = 101, OP_DCL_OUTPUT_SIV = 103,
    OP_EMIT_STREAM = 117, OP_CUT_STREAM = 118, OP_EMIT_THEN_CUT_STREAM = 119, OP_DCL_STREAM = 143,
    OP_DCL_GS_INSTANCES = 206,
    T_PRIMITIVE_ID = 11, T_STREAM = 16, T_GS_INSTANCE_ID = 37,
    PRIM_POINT = 1, PRIM_TRIANGLE = 3, PRIM_TRIANGLE_ADJ = 7, TOPO_POINTS = 1, TOPO_TRIANGLE_STRIP = 5,
    SIG_UINT = 1, SIG_FLOAT = 3,
};

static int failures;

#define CHECK(cond, ...)                                                                                    \
    do {                                                                                                    \
        if (!(cond)) {                                                                                      \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                     \
            printf(__VA_ARGS__);                                                                            \
            putchar('\n');                                                                                  \
            failures++;                                                                                     \
        }                                                                                                   \
    } while (0)

/* ---- assembling ------------------------------------------------------------------------------ */

/* v[vertex][reg] (vertex relative to `rel` when given). */
static struct sm4_operand sv(uint32_t vertex, uint32_t reg, const struct sm4_operand *rel, const char *swz)
{
    uint32_t idx[2] = { vertex, reg };
    const struct sm4_operand *rels[2] = { rel, NULL };
    return sm4_reg(T_INPUT, 2, idx, rels, swz, 0);
}

static struct sm4_operand dout(uint32_t reg, const char *mask)
{
    return sm4_reg(T_OUTPUT, 1, &reg, NULL, mask, 1);
}

/* vPrim / vGSInstanceID: one-component operands. */
static struct sm4_operand one(uint32_t type)
{
    struct sm4_operand o = { { 1u | (type << 12) }, 1 };
    return o;
}

static struct sm4_operand stream(uint32_t m)
{
    return sm4_reg(T_STREAM, 1, &m, NULL, "", 1);
}

static void dcl_gs_input(struct sm4_program *p, uint32_t vertices, uint32_t reg, const char *mask, bool position)
{
    uint32_t idx[2] = { vertices, reg }, sv_position = 1;
    sm4_decl(p, position ? OP_DCL_INPUT_SIV : OP_DCL_INPUT, sm4_reg(T_INPUT, 2, idx, NULL, mask, 1),
             position ? 1 : 0, &sv_position);
}

static void gs_header(struct sm4_program *p, uint32_t major, uint32_t temps, uint32_t primitive, uint32_t topology,
                      uint32_t max)
{
    sm4_begin(p, 2, major, 0, temps);
    sm4_raw(p, OP_DCL_INPUT_PRIMITIVE | (primitive << 11), 0, NULL);
    sm4_raw(p, OP_DCL_OUTPUT_TOPOLOGY | (topology << 11), 0, NULL);
    sm4_raw(p, OP_DCL_MAX_OUTPUT, 1, &max);
}

static const struct sig_element_spec pos_in[] = {
    { 0, "SV_Position", 0, 1, SIG_FLOAT, 0, 0xF, 0xF, 0 },
    { 0, "TEXCOORD", 0, 0, SIG_FLOAT, 1, 0xF, 0xF, 0 },
};

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* point_quad: corners (-1,-1) (1,-1) (-1,1) (1,1) * v[0][1].x around v[0][0].xy, uv in o1. */
static void point_quad(struct sm4_program *p, struct blob *out)
{
    gs_header(p, 4, 0, PRIM_POINT, TOPO_TRIANGLE_STRIP, 4);
    dcl_gs_input(p, 1, 0, "xyzw", true);
    dcl_gs_input(p, 1, 1, "x", false);
    uint32_t pos = 1;
    sm4_decl(p, OP_DCL_OUTPUT_SIV, dout(0, "xyzw"), 1, &pos);
    sm4_decl(p, OP_DCL_OUTPUT, dout(1, "xy"), 0, NULL);
    static const float corner[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
    for (int k = 0; k < 4; k++) {
        I(p, OP_MAD, dout(0, "xy"), l4(fbits(corner[k][0]), fbits(corner[k][1]), 0, 0), sv(0, 1, NULL, "xxxx"),
          sv(0, 0, NULL, "xyxx"));
        I(p, OP_MOV, dout(0, "zw"), sv(0, 0, NULL, "xyzw"));
        I(p, OP_MOV, dout(1, "xy"), l4(fbits(corner[k][0] * 0.5f + 0.5f), fbits(corner[k][1] * 0.5f + 0.5f), 0, 0));
        I0(p, OP_EMIT, 0);
    }
    I0(p, OP_CUT, 0);
    sm4_end(p);
    static const struct sig_element_spec outs[] = {
        { 0, "SV_Position", 0, 1, SIG_FLOAT, 0, 0xF, 0x0, 0 },
        { 0, "TEXCOORD", 0, 0, SIG_FLOAT, 1, 0x3, 0xC, 0 },
    };
    sm4_container_sig(p, pos_in, 2, outs, 2, NULL, 0, out);
}

/* triangle_cut: for r0.x in 0..2: o0 = v[r0.x][0], o1 = v[r0.x][1], o2.x = vPrim; emit. Cut. */
static void triangle_cut(struct sm4_program *p, struct blob *out)
{
    gs_header(p, 4, 1, PRIM_TRIANGLE, TOPO_TRIANGLE_STRIP, 3);
    dcl_gs_input(p, 3, 0, "xyzw", true);
    dcl_gs_input(p, 3, 1, "xyzw", false);
    sm4_decl(p, OP_DCL_INPUT, one(T_PRIMITIVE_ID), 0, NULL);
    uint32_t pos = 1;
    sm4_decl(p, OP_DCL_OUTPUT_SIV, dout(0, "xyzw"), 1, &pos);
    sm4_decl(p, OP_DCL_OUTPUT, dout(1, "xyzw"), 0, NULL);
    sm4_decl(p, OP_DCL_OUTPUT, dout(2, "x"), 0, NULL);
    struct sm4_operand r0x = sr(0, "x");
    I(p, OP_MOV, dr(0, "x"), l1(0));
    I0(p, OP_LOOP, 0);
    I(p, OP_UGE, dr(0, "y"), sr(0, "x"), l1(3));
    IC(p, OP_BREAKC, SM4_NZ, sr(0, "y"));
    I(p, OP_MOV, dout(0, "xyzw"), sv(0, 0, &r0x, "xyzw"));
    I(p, OP_MOV, dout(1, "xyzw"), sv(0, 1, &r0x, "xyzw"));
    I(p, OP_MOV, dout(2, "x"), one(T_PRIMITIVE_ID));
    I0(p, OP_EMIT, 0);
    I(p, OP_IADD, dr(0, "x"), sr(0, "x"), l1(1));
    I0(p, OP_ENDLOOP, 0);
    I0(p, OP_CUT, 0);
    sm4_end(p);
    static const struct sig_element_spec outs[] = {
        { 0, "SV_Position", 0, 1, SIG_FLOAT, 0, 0xF, 0x0, 0 },
        { 0, "COLOR", 0, 0, SIG_FLOAT, 1, 0xF, 0x0, 0 },
        { 0, "PRIM", 0, 0, SIG_UINT, 2, 0x1, 0xE, 0 },
    };
    sm4_container_sig(p, pos_in, 2, outs, 3, NULL, 0, out);
}

/* instanced: instance i emits i + 1 points: o0 = v[0][0], o1.xyz = (vGSInstanceID, k, vPrim). */
static void instanced(struct sm4_program *p, struct blob *out)
{
    gs_header(p, 5, 1, PRIM_POINT, TOPO_POINTS, 3);
    uint32_t instances = 3;
    sm4_raw(p, OP_DCL_GS_INSTANCES, 1, &instances);
    dcl_gs_input(p, 1, 0, "xyzw", true);
    sm4_decl(p, OP_DCL_INPUT, one(T_PRIMITIVE_ID), 0, NULL);
    sm4_decl(p, OP_DCL_INPUT, one(T_GS_INSTANCE_ID), 0, NULL);
    uint32_t pos = 1;
    sm4_decl(p, OP_DCL_OUTPUT_SIV, dout(0, "xyzw"), 1, &pos);
    sm4_decl(p, OP_DCL_OUTPUT, dout(1, "xyz"), 0, NULL);
    I(p, OP_MOV, dr(0, "x"), l1(0));
    I0(p, OP_LOOP, 0);
    I(p, OP_ULT, dr(0, "y"), one(T_GS_INSTANCE_ID), sr(0, "x"));
    IC(p, OP_BREAKC, SM4_NZ, sr(0, "y"));
    I(p, OP_MOV, dout(0, "xyzw"), sv(0, 0, NULL, "xyzw"));
    I(p, OP_MOV, dout(1, "x"), one(T_GS_INSTANCE_ID));
    I(p, OP_MOV, dout(1, "y"), sr(0, "x"));
    I(p, OP_MOV, dout(1, "z"), one(T_PRIMITIVE_ID));
    I0(p, OP_EMIT, 0);
    I(p, OP_IADD, dr(0, "x"), sr(0, "x"), l1(1));
    I0(p, OP_ENDLOOP, 0);
    sm4_end(p);
    static const struct sig_element_spec outs[] = {
        { 0, "SV_Position", 0, 1, SIG_FLOAT, 0, 0xF, 0x0, 0 },
        { 0, "IDS", 0, 0, SIG_UINT, 1, 0x7, 0x8, 0 },
    };
    sm4_container_sig(p, pos_in, 1, outs, 2, NULL, 0, out);
}

/* streams: emit m0; cut m1; emit m1 (o1 = 1,2,3,4); emit_then_cut m0 (o0 = v.yxwz); cut m0. */
static void streams(struct sm4_program *p, struct blob *out)
{
    gs_header(p, 5, 0, PRIM_POINT, TOPO_POINTS, 4);
    dcl_gs_input(p, 1, 0, "xyzw", true);
    uint32_t pos = 1;
    sm4_decl(p, OP_DCL_STREAM, stream(0), 0, NULL);
    sm4_decl(p, OP_DCL_OUTPUT_SIV, dout(0, "xyzw"), 1, &pos);
    sm4_decl(p, OP_DCL_STREAM, stream(1), 0, NULL);
    sm4_decl(p, OP_DCL_OUTPUT, dout(1, "xyzw"), 0, NULL);
    I(p, OP_MOV, dout(0, "xyzw"), sv(0, 0, NULL, "xyzw"));
    I(p, OP_EMIT_STREAM, stream(0));
    I(p, OP_CUT_STREAM, stream(1));
    I(p, OP_MOV, dout(1, "xyzw"), l4(fbits(1), fbits(2), fbits(3), fbits(4)));
    I(p, OP_EMIT_STREAM, stream(1));
    I(p, OP_MOV, dout(0, "xyzw"), sv(0, 0, NULL, "yxwz"));
    I(p, OP_EMIT_THEN_CUT_STREAM, stream(0));
    I(p, OP_CUT_STREAM, stream(0));
    sm4_end(p);
    sm4_container_sig(p, pos_in, 1, NULL, 0, NULL, 0, out);
}

/* overflow: 5 emits of (v[0][0], o1.x = k) against dcl_maxout 2, then a cut. */
static void overflow(struct sm4_program *p, struct blob *out)
{
    gs_header(p, 4, 1, PRIM_POINT, TOPO_POINTS, 2);
    dcl_gs_input(p, 1, 0, "xyzw", true);
    uint32_t pos = 1;
    sm4_decl(p, OP_DCL_OUTPUT_SIV, dout(0, "xyzw"), 1, &pos);
    sm4_decl(p, OP_DCL_OUTPUT, dout(1, "x"), 0, NULL);
    I(p, OP_MOV, dout(0, "xyzw"), sv(0, 0, NULL, "xyzw"));
    I(p, OP_MOV, dr(0, "x"), l1(0));
    I0(p, OP_LOOP, 0);
    I(p, OP_UGE, dr(0, "y"), sr(0, "x"), l1(5));
    IC(p, OP_BREAKC, SM4_NZ, sr(0, "y"));
    I(p, OP_MOV, dout(1, "x"), sr(0, "x"));
    I0(p, OP_EMIT, 0);
    I(p, OP_IADD, dr(0, "x"), sr(0, "x"), l1(1));
    I0(p, OP_ENDLOOP, 0);
    I0(p, OP_CUT, 0);
    sm4_end(p);
    static const struct sig_element_spec outs[] = {
        { 0, "SV_Position", 0, 1, SIG_FLOAT, 0, 0xF, 0x0, 0 },
        { 0, "INDEX", 0, 0, SIG_UINT, 1, 0x1, 0xE, 0 },
    };
    sm4_container_sig(p, pos_in, 1, outs, 2, NULL, 0, out);
}

/* triangle_adj: o0 = v[k][0], o1.x = k for k = 0..5, one point each. */
static void triangle_adj(struct sm4_program *p, struct blob *out)
{
    gs_header(p, 4, 1, PRIM_TRIANGLE_ADJ, TOPO_POINTS, 6);
    dcl_gs_input(p, 6, 0, "xyzw", true);
    uint32_t pos = 1;
    sm4_decl(p, OP_DCL_OUTPUT_SIV, dout(0, "xyzw"), 1, &pos);
    sm4_decl(p, OP_DCL_OUTPUT, dout(1, "x"), 0, NULL);
    for (uint32_t k = 0; k < 6; k++) {
        I(p, OP_MOV, dout(0, "xyzw"), sv(k, 0, NULL, "xyzw"));
        I(p, OP_MOV, dout(1, "x"), l1(k));
        I0(p, OP_EMIT, 0);
    }
    sm4_end(p);
    static const struct sig_element_spec outs[] = {
        { 0, "SV_Position", 0, 1, SIG_FLOAT, 0, 0xF, 0x0, 0 },
        { 0, "INDEX", 0, 0, SIG_UINT, 1, 0x1, 0xE, 0 },
    };
    sm4_container_sig(p, pos_in, 1, outs, 2, NULL, 0, out);
}

/* ---- running on the interpreter ------------------------------------------------------------- */

enum { PRIMS = 5, REGS = 2, MAXV = 8 };

struct run {
    struct sb_rt_program *program;
    struct sb_interp_geometry_results res;
    uint32_t words[PRIMS * 3 * MAXV * 4 * 4];
    uint32_t count[PRIMS * 3], dropped[PRIMS * 3];
    uint8_t stream[PRIMS * 3 * MAXV], cut[PRIMS * 3 * (MAXV + 1)];
};

/* Input vertex record (vertex index `v` overall): v0 = (v, 2v, 3v, 1) / 4, v1 = (1 + v, -v, v / 2, 8). */
static float input(uint32_t v, uint32_t reg, uint32_t c)
{
    static const float scale[2][4] = { { 0.25f, 0.5f, 0.75f, 0 }, { 1, -1, 0.5f, 0 } };
    if (c == 3)
        return reg ? 8.0f : 1.0f;
    return (reg && c == 0 ? 1.0f : 0.0f) + scale[reg][c] * (float)v;
}

static bool load(const struct blob *dxbc, struct sb_rt_program **out)
{
    struct sb_error e = { 0 };
    if (sb_rt_program_load(dxbc->bytes, dxbc->size, NULL, out, &e) != SB_SUCCESS) {
        printf("FAIL: load: %s\n", e.message);
        failures++;
        return false;
    }
    return true;
}

static bool run_cpu(const struct blob *dxbc, uint32_t vertices, struct run *r)
{
    memset(r, 0, sizeof(*r));
    if (!load(dxbc, &r->program))
        return false;
    static uint32_t in_words[PRIMS * 6 * REGS * 4];
    for (uint32_t v = 0; v < PRIMS * vertices; v++)
        for (uint32_t g = 0; g < REGS; g++)
            for (uint32_t c = 0; c < 4; c++)
                in_words[(v * REGS + g) * 4 + c] = fbits(input(v, g, c));
    struct sb_interp_registers in = { .registers = REGS, .words = in_words };
    r->res = (struct sb_interp_geometry_results){ .registers = 3, .max_vertices = MAXV, .words = r->words,
                                                   .vertex_count = r->count, .stream = r->stream,
                                                   .cut_before = r->cut, .dropped = r->dropped };
    struct sb_error e = { 0 };
    enum sb_result res = sb_interp_run_geometry(r->program->ir, NULL, 0, PRIMS, &in, &r->res, NULL, NULL, &e);
    CHECK(res == SB_SUCCESS, "sb_interp_run_geometry: %s", e.message);
    return res == SB_SUCCESS;
}

/* Word of o#reg.c of vertex k of invocation j. */
static uint32_t out_word(const struct run *r, uint32_t j, uint32_t k, uint32_t reg, uint32_t c)
{
    return r->words[((j * MAXV + k) * 3 + reg) * 4 + c];
}

static void known_point_quad(void)
{
    struct sm4_program p;
    struct blob dxbc;
    static struct run r;
    point_quad(&p, &dxbc);
    if (!run_cpu(&dxbc, 1, &r))
        return;
    static const float corner[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
    for (uint32_t j = 0; j < PRIMS; j++) {
        CHECK(r.count[j] == 4, "point_quad prim %u: %u vertices", j, r.count[j]);
        for (uint32_t k = 0; k < 4; k++) {
            float size = input(j, 1, 0);
            CHECK(out_word(&r, j, k, 0, 0) == fbits(input(j, 0, 0) + corner[k][0] * size) &&
                      out_word(&r, j, k, 0, 1) == fbits(input(j, 0, 1) + corner[k][1] * size) &&
                      out_word(&r, j, k, 0, 2) == fbits(input(j, 0, 2)) && out_word(&r, j, k, 0, 3) == fbits(1.0f),
                  "point_quad prim %u vertex %u position", j, k);
            CHECK(out_word(&r, j, k, 1, 0) == fbits(corner[k][0] * 0.5f + 0.5f), "point_quad uv");
            CHECK(r.cut[j * (MAXV + 1) + k] == 0 && r.stream[j * MAXV + k] == 0, "point_quad cut/stream");
        }
        CHECK(r.cut[j * (MAXV + 1) + 4] == 1, "point_quad prim %u: no cut after the strip", j);
    }
    sb_rt_program_destroy(r.program);
}

static void known_triangle_cut(void)
{
    struct sm4_program p;
    struct blob dxbc;
    static struct run r;
    triangle_cut(&p, &dxbc);
    if (!run_cpu(&dxbc, 3, &r))
        return;
    for (uint32_t j = 0; j < PRIMS; j++) {
        CHECK(r.count[j] == 3, "triangle_cut prim %u: %u vertices", j, r.count[j]);
        for (uint32_t k = 0; k < 3; k++)
            for (uint32_t c = 0; c < 4; c++) {
                CHECK(out_word(&r, j, k, 0, c) == fbits(input(j * 3 + k, 0, c)), "triangle_cut %u/%u o0.%u", j, k, c);
                CHECK(out_word(&r, j, k, 1, c) == fbits(input(j * 3 + k, 1, c)), "triangle_cut %u/%u o1.%u", j, k, c);
            }
        CHECK(out_word(&r, j, 2, 2, 0) == j, "triangle_cut prim %u: vPrim %u", j, out_word(&r, j, 2, 2, 0));
        CHECK(r.cut[j * (MAXV + 1) + 3] == 1 && r.cut[j * (MAXV + 1)] == 0, "triangle_cut cuts");
    }
    sb_rt_program_destroy(r.program);
}

static void known_instanced(void)
{
    struct sm4_program p;
    struct blob dxbc;
    static struct run r;
    instanced(&p, &dxbc);
    if (!run_cpu(&dxbc, 1, &r))
        return;
    for (uint32_t prim = 0; prim < PRIMS; prim++)
        for (uint32_t i = 0; i < 3; i++) {
            uint32_t j = prim * 3 + i;
            CHECK(r.count[j] == i + 1, "instanced prim %u instance %u: %u vertices", prim, i, r.count[j]);
            for (uint32_t k = 0; k < r.count[j] && k < MAXV; k++)
                CHECK(out_word(&r, j, k, 1, 0) == i && out_word(&r, j, k, 1, 1) == k && out_word(&r, j, k, 1, 2) == prim,
                      "instanced %u/%u vertex %u ids %u %u %u", prim, i, k, out_word(&r, j, k, 1, 0),
                      out_word(&r, j, k, 1, 1), out_word(&r, j, k, 1, 2));
        }
    sb_rt_program_destroy(r.program);
}

static void known_streams(void)
{
    struct sm4_program p;
    struct blob dxbc;
    static struct run r;
    streams(&p, &dxbc);
    if (!run_cpu(&dxbc, 1, &r))
        return;
    for (uint32_t j = 0; j < PRIMS; j++) {
        const uint8_t *s = &r.stream[j * MAXV], *cut = &r.cut[j * (MAXV + 1)];
        CHECK(r.count[j] == 3 && s[0] == 0 && s[1] == 1 && s[2] == 0, "streams prim %u: %u vertices, streams %u %u %u",
              j, r.count[j], s[0], s[1], s[2]);
        CHECK(cut[0] == 0 && cut[1] == 2 && cut[2] == 0 && cut[3] == 1, "streams prim %u: cuts %u %u %u %u", j, cut[0],
              cut[1], cut[2], cut[3]);
        CHECK(out_word(&r, j, 1, 1, 3) == fbits(4) && out_word(&r, j, 0, 1, 0) == 0, "streams: o1 at the emits");
        CHECK(out_word(&r, j, 2, 0, 0) == fbits(input(j, 0, 1)) && out_word(&r, j, 2, 0, 2) == fbits(1.0f),
              "streams: o0 swizzled");
        CHECK(out_word(&r, j, 2, 1, 1) == fbits(2), "streams: o1 keeps its value after an emit");
    }
    sb_rt_program_destroy(r.program);
}

static void known_overflow(void)
{
    struct sm4_program p;
    struct blob dxbc;
    static struct run r;
    overflow(&p, &dxbc);
    if (!run_cpu(&dxbc, 1, &r))
        return;
    for (uint32_t j = 0; j < PRIMS; j++) {
        CHECK(r.count[j] == 2 && r.dropped[j] == 3, "overflow prim %u: %u kept, %u dropped", j, r.count[j],
              r.dropped[j]);
        CHECK(out_word(&r, j, 0, 1, 0) == 0 && out_word(&r, j, 1, 1, 0) == 1, "overflow: the first two emits kept");
        CHECK(r.cut[j * (MAXV + 1) + 2] == 1, "overflow: the cut after the last kept vertex");
        CHECK(out_word(&r, j, 2, 1, 0) == 0, "overflow: nothing past the maximum");
    }
    sb_rt_program_destroy(r.program);
}

static void known_triangle_adj(void)
{
    struct sm4_program p;
    struct blob dxbc;
    static struct run r;
    triangle_adj(&p, &dxbc);
    if (!run_cpu(&dxbc, 6, &r))
        return;
    for (uint32_t j = 0; j < PRIMS; j++) {
        CHECK(r.count[j] == 6, "triangle_adj prim %u: %u vertices", j, r.count[j]);
        for (uint32_t k = 0; k < 6; k++)
            CHECK(out_word(&r, j, k, 0, 0) == fbits(input(j * 6 + k, 0, 0)) && out_word(&r, j, k, 1, 0) == k,
                  "triangle_adj prim %u vertex %u", j, k);
    }
    sb_rt_program_destroy(r.program);
}

/* The instanced program over 400 points (1200 invocations: two batches of lanes). */
static void known_instanced_batches(void)
{
    struct sm4_program p;
    struct blob dxbc;
    instanced(&p, &dxbc);
    struct sb_rt_program *program = NULL;
    if (!load(&dxbc, &program))
        return;
    enum { N = 400, J = N * 3 };
    uint32_t *in_words = calloc(N * 4, 4), *words = calloc(J * 3 * 2 * 4, 4), *count = calloc(J, 4);
    uint8_t *stream = calloc(J * 3, 1), *cut = calloc(J * 4, 1);
    struct sb_interp_registers in = { .registers = 1, .words = in_words };
    struct sb_interp_geometry_results res = { .registers = 2, .max_vertices = 3, .words = words,
                                               .vertex_count = count, .stream = stream, .cut_before = cut };
    struct sb_error e = { 0 };
    CHECK(in_words && words && count && stream && cut &&
              sb_interp_run_geometry(program->ir, NULL, 0, N, &in, &res, NULL, NULL, &e) == SB_SUCCESS,
          "instanced over 400 points: %s", e.message);
    for (uint32_t j = 0; count && words && j < J; j++) {
        uint32_t last = count[j] ? count[j] - 1 : 0;
        CHECK(count[j] == j % 3 + 1 && words[((j * 3 + last) * 2 + 1) * 4 + 2] == j / 3,
              "instanced invocation %u of 1200: %u vertices", j, count[j]);
    }
    free(in_words);
    free(words);
    free(count);
    free(stream);
    free(cut);
    sb_rt_program_destroy(program);
}

/* Argument checks: too few slots, the budget. */
static void known_errors(void)
{
    struct sm4_program p;
    struct blob dxbc;
    static struct run r;
    overflow(&p, &dxbc);
    if (!run_cpu(&dxbc, 1, &r))
        return;
    struct sb_interp_registers in = { .registers = 0 };
    struct sb_interp_geometry_results small = r.res;
    small.max_vertices = 1;
    struct sb_error e = { 0 };
    CHECK(sb_interp_run_geometry(r.program->ir, NULL, 0, 1, &in, &small, NULL, NULL, &e) == SB_ERROR_INVALID_ARGUMENT,
          "fewer slots than dcl_maxout accepted");
    struct sb_interp_options tiny = { .instruction_budget = 10 };
    CHECK(sb_interp_run_geometry(r.program->ir, NULL, 0, 1, &in, &r.res, &tiny, NULL, &e) == SB_ERROR_RUN_BUDGET,
          "budget not enforced");
    sb_rt_program_destroy(r.program);
}

/* ---- GPU vs CPU ------------------------------------------------------------------------------ */

static int validate_all(void)
{
    struct sb_rt_context *ctx = NULL;
    struct sb_error e = { 0 };
    struct sb_rt_context_options co = { .validation = true };
    if (sb_rt_context_create(&co, &ctx, &e) != SB_SUCCESS) {
        printf("SKIPPED: no Vulkan device: %s\n", e.message);
        return 77;
    }
    /* Keep lavapipe loaded after the context goes: unloading it leaves the LLVM caches it
     * built reachable from nowhere, which LeakSanitizer reports (SB_SANITIZE builds). */
    (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD);
    static const struct {
        const char *name;
        void (*build)(struct sm4_program *, struct blob *);
    } cases[] = {
        { "point_quad", point_quad }, { "triangle_cut", triangle_cut }, { "instanced", instanced },
        { "streams", streams },       { "overflow", overflow },         { "triangle_adj", triangle_adj },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        static struct sm4_program p;
        static struct blob dxbc;
        cases[i].build(&p, &dxbc);
        struct sb_rt_program *program = NULL;
        if (!load(&dxbc, &program))
            continue;
        struct sb_validate_options o = { .inputs = { .seed = 7 } };
        struct sb_validate_report *report = NULL;
        enum sb_result res = sb_validate(ctx, program, &o, &report, &e);
        CHECK(res == SB_SUCCESS, "%s: sb_validate: %s", cases[i].name, e.message);
        if (res == SB_SUCCESS) {
            const struct sb_rt_resource *g = &report->gpu->resources[report->gpu->count - 1];
            uint32_t emitted = 0, record = g->width * 4;
            for (size_t w = 0; g->resource_class == SB_VALIDATE_CLASS_GEOMETRY && w < g->size / 4; w += record)
                emitted += ((const uint32_t *)g->data)[w] != 0;
            printf("%s: %llu words compared, %llu mismatches, %u vertices emitted\n", cases[i].name,
                   (unsigned long long)report->words_compared, (unsigned long long)report->mismatch_count, emitted);
            CHECK(report->mismatch_count == 0 && emitted >= 16, "%s: GPU and CPU disagree or nothing was emitted",
                  cases[i].name);
            for (uint32_t k = 0; k < report->kept && k < 4; k++) {
                const struct sb_validate_mismatch *m = &report->mismatches[k];
                printf("  primitive %u instance %u vertex %u word %u: gpu 0x%08x cpu 0x%08x\n", m->texel[0],
                       m->texel[1], m->texel[2], m->texel[3], m->gpu, m->cpu);
            }
        }
        sb_validate_report_destroy(report);
        sb_rt_program_destroy(program);
    }
    CHECK(sb_rt_context_validation_errors(ctx) == 0, "validation-layer errors: %s",
          sb_rt_context_first_validation_error(ctx));
    sb_rt_context_destroy(ctx);
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "validate"))
        return validate_all();
    if (argc != 2 || strcmp(argv[1], "known")) {
        fprintf(stderr, "usage: test_interp_gs known|validate\n");
        return 2;
    }
    known_point_quad();
    known_triangle_cut();
    known_instanced();
    known_streams();
    known_overflow();
    known_triangle_adj();
    known_instanced_batches();
    known_errors();
    printf("%s\n", failures ? "FAILED" : "all geometry known-answer tests pass");
    return failures ? 1 : 0;
}
