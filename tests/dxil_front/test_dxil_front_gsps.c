/* SPDX-License-Identifier: MIT */
/*
 * The DXIL front end's geometry shaders, pixel-only dx.ops and vertex/pixel
 * system values (translator/src/dxil/ir_from_dxil_{io,geometry,pixel}.c) on the
 * programs of tests/common/dxil_programs_gsps.h. Cases (argv[1]):
 *   gs_triangle   translate + spirv-val; the IR's GS state; the interpreter's
 *                 emitted vertices, strip cuts and SV_PrimitiveID, exactly;
 *   ps_discard_ddx  translate + spirv-val; discard and ddx_fine / ddy_coarse of
 *                 x^2 / y^2 at hand-picked pixel centres on the interpreter;
 *   ps_rows       translate + spirv-val; an input array read at a dynamic row (relative
 *                 index + index range), packed columns, SV_IsFrontFace, SV_Depth;
 *   ps_eval       translate + spirv-val; evalSnapped with a constant and a computed
 *                 offset and evalCentroid against attribute planes on the interpreter;
 *   vs_vertex_id  translate + spirv-val; SV_VertexID -> outputs on the interpreter;
 *   refusals      GS states with 0 output vertices or 33 instances (INVALID) or a patch3
 *                 input (UNSUPPORTED) refuse;
 *   validate      the five through sb_validate on Vulkan (lavapipe): the GPU and
 *                 the interpreter must agree (exit 77 without a device);
 *   census CORPUS per-concern counts over CORPUS/dxil: files and uses of each dx.op of
 *                 this concern and of each system-value semantic, how many of them
 *                 are in files that now translate (spirv-val clean), and the refusals
 *                 that name this concern; fails on an invalid module or on a refusal
 *                 at an op this concern translates (exit 77 without the corpus).
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "corpus_list.h"
#include "dxc_container_writer.h"
#include "dxil_programs_gsps.h"
#include "reflect/bitcode.h"
#include "shaderbridge/dxbc.h"
#include "shaderbridge/dxbc_dxil.h"
#include "shaderbridge/interp.h"
#include "shaderbridge/translate.h"
#include "shaderbridge/validate.h"
#include "translator/dxil_opcodes.h"
#include "translator/dxil_ops.h"
#include "translator/dxil_program_info.h"
#include "translator/ir.h"

static uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static void print_mismatch(void *user, const char *field, const char *detail)
{
    fprintf(stderr, "%s: container and metadata disagree on %s: %s\n", (const char *)user, field,
            detail);
}

/* The writer's parts (PSV0, ISG1/OSG1) must say what its metadata says: multi-row, packed
 * and unallocated elements and the GS state are written twice. */
static void check_container(const struct sb_dxbc *container, const char *name)
{
    struct sb_dxil_program_info *info = NULL;
    struct sb_error err;
    enum sb_result r = sb_dxil_program_info_from_container(container, &info, &err);
    CHECK(r == SB_SUCCESS, "%s: reflection: %s", name, err.message);
    if (r == SB_SUCCESS)
        CHECK(sb_dxil_program_info_check(info, container, print_mismatch, (void *)name) == 0,
              "%s: the container disagrees with the metadata", name);
    sb_dxil_program_info_destroy(info);
}

/* Writes the program, checks its SPIR-V and returns its IR (NULL on failure). */
static struct sb_ir_program *lower(bool (*write)(struct tbuf *), const char *name)
{
    struct tbuf b = { 0 };
    struct sb_dxbc *container = NULL;
    struct sb_ir_program *ir = NULL;
    struct sb_translation *t = NULL;
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    if (!write(&b)) {
        CHECK(false, "%s: the writer failed", name);
    } else if (sb_dxbc_parse(b.data, b.size, &container, &err) != SB_SUCCESS ||
               sb_ir_from_dxil(container, &ir, &err) != SB_SUCCESS) {
        CHECK(false, "%s: %s", name, err.message);
    } else {
        check_container(container, name);
        enum sb_result r = sb_translate(b.data, b.size, NULL, &t, &err);
        CHECK(r == SB_SUCCESS, "%s: sb_translate: %s", name, err.message);
        if (r == SB_SUCCESS) {
            r = sb_spirv_validate(t->words, t->word_count, SB_TARGET_VULKAN_1_1, &err);
            CHECK(r == SB_SUCCESS, "%s: spirv-val: %s", name, err.message);
        }
    }
    sb_translation_destroy(t);
    sb_dxbc_destroy(container);
    tb_free(&b);
    return ir;
}

/* Two points, primitives 0 and 1, two instances each (invocation = primitive * 2 +
 * instance): each becomes the strip p, p + (1,0), p + (0,1) with COLOR (c.xy, instance,
 * primitive), then one cut after the third vertex. */
static void test_gs_triangle(void)
{
    struct sb_ir_program *ir = lower(dxil_program_gs_triangle, "gs_triangle");
    if (!ir)
        return;
    CHECK(ir->stage == SB_IR_STAGE_GEOMETRY && ir->gs_input_primitive == 1 &&
              ir->gs_output_topology == 5 && ir->gs_max_output_vertices == 3 &&
              ir->gs_stream_mask == 1 && ir->gs_instance_count == 2,
          "GS state: stage %u input %u topology %u max %u streams 0x%x", ir->stage,
          ir->gs_input_primitive, ir->gs_output_topology, ir->gs_max_output_vertices,
          ir->gs_stream_mask);
    enum { PRIMS = 2, INSTANCES = 2, RUNS = PRIMS * INSTANCES, REGS = 2, MAXV = 3 };
    static const float in[PRIMS][REGS][4] = {
        { { 1, 2, 0.5f, 1 }, { 0.25f, 0.5f, 0.75f, 9 } },
        { { -4, 8, 0, 2 }, { 1, 0, 1, 9 } },
    };
    uint32_t in_words[PRIMS * REGS * 4];
    for (unsigned i = 0; i < PRIMS * REGS * 4; i++)
        in_words[i] = f2u(in[i / 8][(i / 4) % 2][i % 4]);
    uint32_t words[RUNS * MAXV * REGS * 4] = { 0 }, counts[RUNS] = { 0 };
    uint8_t streams[RUNS * MAXV] = { 0 }, cuts[RUNS * (MAXV + 1)] = { 0 };
    struct sb_interp_registers inputs = { REGS, in_words };
    struct sb_interp_geometry_results results = { .registers = REGS, .max_vertices = MAXV,
                                                   .words = words, .vertex_count = counts,
                                                   .stream = streams, .cut_before = cuts };
    struct sb_error err;
    enum sb_result r = sb_interp_run_geometry(ir, NULL, 0, PRIMS, &inputs, &results, NULL, NULL,
                                              &err);
    CHECK(r == SB_SUCCESS, "run: %s", err.message);
    static const float offset[MAXV][2] = { { 0, 0 }, { 1, 0 }, { 0, 1 } };
    for (unsigned j = 0; r == SB_SUCCESS && j < RUNS; j++) {
        unsigned p = j / INSTANCES, instance = j % INSTANCES;
        CHECK(counts[j] == 3, "invocation %u: %u vertices", j, counts[j]);
        for (unsigned k = 0; k < MAXV; k++) {
            const uint32_t *v = &words[(j * MAXV + k) * REGS * 4];
            const float expected[8] = {
                in[p][0][0] + offset[k][0], in[p][0][1] + offset[k][1], in[p][0][2], in[p][0][3],
                in[p][1][0], in[p][1][1], (float)instance, (float)p,
            };
            for (unsigned c = 0; c < 8; c++)
                CHECK(v[c] == f2u(expected[c]), "invocation %u vertex %u word %u: 0x%08x, "
                      "expected %g", j, k, c, v[c], (double)expected[c]);
            CHECK(streams[j * MAXV + k] == 0 && cuts[j * (MAXV + 1) + k] == 0,
                  "invocation %u vertex %u: stream %u cut 0x%x", j, k, streams[j * MAXV + k],
                  cuts[j * (MAXV + 1) + k]);
        }
        CHECK(cuts[j * (MAXV + 1) + MAXV] == 1, "invocation %u: cut after the strip 0x%x", j,
              cuts[j * (MAXV + 1) + MAXV]);
    }
    sb_ir_program_destroy(ir);
}

/* Three pixels: (2.5, 4.5) with u = 0.5: ddx_fine(x^2) = 3.5^2 - 2.5^2 = 6 (its quad spans
 * x 2.5..3.5), ddy_coarse(y^2) = 5.5^2 - 4.5^2 = 10; (1.5, 0.5) with u = 2: 1.5^2 - 0.5^2 = 2
 * and 1.5^2 - 0.5^2 = 2; (0.5, 0.5) with u = -1: discarded, its outputs untouched. */
static void test_ps_discard_ddx(void)
{
    struct sb_ir_program *ir = lower(dxil_program_ps_discard_ddx, "ps_discard_ddx");
    if (!ir)
        return;
    enum { PIXELS = 3 };
    const float positions[PIXELS * 4] = { 2.5f, 4.5f, 0, 1, 1.5f, 0.5f, 0, 1, 0.5f, 0.5f, 0, 1 };
    static const float u[PIXELS] = { 0.5f, 2.0f, -1.0f };
    uint32_t in_words[PIXELS * 8] = { 0 }, out_words[PIXELS * 4];
    for (unsigned i = 0; i < PIXELS; i++) {
        memcpy(&in_words[i * 8], &positions[i * 4], 16); /* v0 = SV_Position, as drawn */
        in_words[i * 8 + 4] = f2u(u[i]);
    }
    for (unsigned i = 0; i < PIXELS * 4; i++)
        out_words[i] = 0xAAAAAAAAu;
    uint8_t discarded[PIXELS] = { 0 };
    struct sb_interp_pixel_results results = { .discarded = discarded };
    struct sb_interp_registers inputs = { 2, in_words }, outputs = { 1, out_words };
    struct sb_error err;
    enum sb_result r = sb_interp_run_pixels(ir, NULL, 0, PIXELS, positions, &inputs, &outputs,
                                            &results, NULL, NULL, &err);
    CHECK(r == SB_SUCCESS, "run: %s", err.message);
    static const float expected[2][4] = { { 6, 10, 0.5f, 1 }, { 2, 2, 2, 1 } };
    for (unsigned i = 0; r == SB_SUCCESS && i < 2; i++) {
        CHECK(!discarded[i], "pixel %u discarded", i);
        for (unsigned c = 0; c < 4; c++)
            CHECK(out_words[i * 4 + c] == f2u(expected[i][c]), "pixel %u lane %u: 0x%08x, "
                  "expected %g", i, c, out_words[i * 4 + c], (double)expected[i][c]);
    }
    CHECK(r != SB_SUCCESS || (discarded[2] && out_words[8] == 0xAAAAAAAAu),
          "pixel 2: discarded %u, o0.x 0x%08x", discarded[2], out_words[8]);
    sb_ir_program_destroy(ir);
}

/* Three pixels, v1 = (sel, -, pair.x, pair.y), v2..v4.x = COLORS = (10, 20, 30):
 * sel 1, pair (0.25, -1.5): SV_Target0 = (20, 0.25, -1.5, 1) (front facing), SV_Depth 10;
 * sel 0, pair (4, 8): (10, 4, 8, 1), SV_Depth 5; sel 9 (clamped to 2), pair (0, 1):
 * (30, 0, 1, 1), SV_Depth 15. */
static void test_ps_rows(void)
{
    struct sb_ir_program *ir = lower(dxil_program_ps_rows, "ps_rows");
    if (!ir)
        return;
    enum { PIXELS = 3, REGS = 6 };
    const float positions[PIXELS * 4] = { 0.5f, 0.5f, 0.25f, 1, 3.5f, 1.5f, 0.75f, 1,
                                          6.5f, 2.5f, 0.5f, 1 };
    static const uint32_t sel[PIXELS] = { 1, 0, 9 };
    static const float pair[PIXELS][2] = { { 0.25f, -1.5f }, { 4, 8 }, { 0, 1 } };
    uint32_t in_words[PIXELS * REGS * 4] = { 0 }, out_words[PIXELS * 4] = { 0 };
    for (unsigned i = 0; i < PIXELS; i++) {
        uint32_t *v = &in_words[i * REGS * 4];
        memcpy(v, &positions[i * 4], 16);
        v[4] = sel[i];
        v[6] = f2u(pair[i][0]);
        v[7] = f2u(pair[i][1]);
        for (unsigned k = 0; k < 3; k++)
            v[8 + 4 * k] = f2u(10.0f * (float)(k + 1));
    }
    float depth[PIXELS] = { 0 };
    struct sb_interp_pixel_results results = { .depth = depth };
    struct sb_interp_registers inputs = { REGS, in_words }, outputs = { 1, out_words };
    struct sb_error err;
    enum sb_result r = sb_interp_run_pixels(ir, NULL, 0, PIXELS, positions, &inputs, &outputs,
                                            &results, NULL, NULL, &err);
    CHECK(r == SB_SUCCESS, "run: %s", err.message);
    static const float expected[PIXELS][5] = {
        { 20, 0.25f, -1.5f, 1, 10 }, { 10, 4, 8, 1, 5 }, { 30, 0, 1, 1, 15 },
    };
    for (unsigned i = 0; r == SB_SUCCESS && i < PIXELS; i++) {
        for (unsigned c = 0; c < 4; c++)
            CHECK(out_words[i * 4 + c] == f2u(expected[i][c]), "pixel %u lane %u: 0x%08x, "
                  "expected %g", i, c, out_words[i * 4 + c], (double)expected[i][c]);
        CHECK(depth[i] == expected[i][4], "pixel %u depth %g, expected %g", i, (double)depth[i],
              (double)expected[i][4]);
    }
    /* The dynamic row is a relative index over COLORS' rows, declared as an index range. */
    CHECK(ir->index_range_count == 1 && ir->index_ranges[0].file == SB_IR_FILE_INPUT &&
              ir->index_ranges[0].first == 2 && ir->index_ranges[0].count == 3,
          "index ranges: %u", ir->index_range_count);
    sb_ir_program_destroy(ir);
}

/* One pixel, UV = (0.25, 0.5) changing by (1, 0) per pixel right and (0, 2) per pixel down,
 * OFF = -4: UV.x 7/16 pixel right = 0.6875; UV.y 4/16 pixel up = 0.5 - 0.25 * 2 = 0;
 * at the centroid (the centre: full coverage) 0.25; UV.y 0.5. (Offsets are signed 4-bit:
 * 8 would be -8.) */
static void test_ps_eval(void)
{
    struct sb_ir_program *ir = lower(dxil_program_ps_eval, "ps_eval");
    if (!ir)
        return;
    enum { REGS = 3 };
    const float position[4] = { 4.5f, 2.5f, 0.5f, 1 };
    uint32_t in_words[REGS * 4] = { 0 }, ddx[REGS * 4] = { 0 }, ddy[REGS * 4] = { 0 };
    uint32_t out_words[4] = { 0 };
    memcpy(in_words, position, 16);
    in_words[4] = f2u(0.25f);
    in_words[5] = f2u(0.5f);
    in_words[8] = (uint32_t)-4;
    ddx[4] = f2u(1.0f);
    ddy[5] = f2u(2.0f);
    struct sb_interp_registers inputs = { REGS, in_words }, outputs = { 1, out_words };
    struct sb_interp_registers planes_x = { REGS, ddx }, planes_y = { REGS, ddy };
    struct sb_interp_options options = { .input_ddx = &planes_x, .input_ddy = &planes_y };
    struct sb_error err;
    enum sb_result r = sb_interp_run_pixels(ir, NULL, 0, 1, position, &inputs, &outputs, NULL,
                                            &options, NULL, &err);
    CHECK(r == SB_SUCCESS, "run: %s", err.message);
    static const float expected[4] = { 0.6875f, 0.0f, 0.25f, 0.5f };
    for (unsigned c = 0; r == SB_SUCCESS && c < 4; c++)
        CHECK(out_words[c] == f2u(expected[c]), "lane %u: 0x%08x, expected %g", c, out_words[c],
              (double)expected[c]);
    sb_ir_program_destroy(ir);
}

/* Vertices 0..4: SV_Position = (id, 0.5, 0, 1), TEXCOORD0 = 3 id + 1, ARR[id & 1] = id + 100
 * (a relative o# index), the other ARR row 0. */
static void test_vs_vertex_id(void)
{
    struct sb_ir_program *ir = lower(dxil_program_vs_vertex_id, "vs_vertex_id");
    if (!ir)
        return;
    enum { VERTICES = 5, REGS = 4 };
    uint32_t in_words[VERTICES * 4] = { 0 }, out_words[VERTICES * REGS * 4] = { 0 };
    struct sb_interp_registers inputs = { 1, in_words }, outputs = { REGS, out_words };
    struct sb_error err;
    enum sb_result r = sb_interp_run_vertices(ir, NULL, 0, VERTICES, &inputs, &outputs, NULL,
                                              NULL, &err);
    CHECK(r == SB_SUCCESS, "run: %s", err.message);
    for (unsigned v = 0; r == SB_SUCCESS && v < VERTICES; v++) {
        const uint32_t *o = &out_words[v * REGS * 4];
        const uint32_t expected[5] = { f2u((float)v), f2u(0.5f), f2u(0.0f), f2u(1.0f), 3 * v + 1 };
        for (unsigned c = 0; c < 5; c++)
            CHECK(o[c] == expected[c], "vertex %u word %u: 0x%08x, expected 0x%08x", v, c, o[c],
                  expected[c]);
        /* o2.x / o3.x: the row id & 1 holds id + 100, the other stays 0. */
        CHECK(o[8 + 4 * (v & 1)] == v + 100 && o[8 + 4 * (~v & 1)] == 0,
              "vertex %u: ARR = (%u, %u)", v, o[8], o[12]);
    }
    sb_ir_program_destroy(ir);
}

/* The written container `b` must refuse with `code`, a message holding `words` and a byte
 * offset inside the file. */
static void expect_refusal(struct tbuf *b, bool written, enum sb_result code, const char *words,
                           const char *name)
{
    struct sb_dxbc *container = NULL;
    struct sb_ir_program *ir = NULL;
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    CHECK(written, "%s: the writer failed", name);
    CHECK(sb_dxbc_parse(b->data, b->size, &container, &err) == SB_SUCCESS, "%s: parse: %s",
          name, err.message);
    enum sb_result r =
        container ? sb_ir_from_dxil(container, &ir, &err) : SB_ERROR_INVALID_ARGUMENT;
    CHECK(r == code && ir == NULL, "%s: result %d, expected %d", name, (int)r, (int)code);
    CHECK(strstr(err.message, words) != NULL, "%s: message '%s'", name, err.message);
    CHECK(err.offset > 0 && err.offset < b->size, "%s: offset %llu of %zu bytes", name,
          (unsigned long long)err.offset, b->size);
    sb_ir_program_destroy(ir);
    sb_dxbc_destroy(container);
    tb_free(b);
}

/* GS states outside D3D's limits are malformed; a patch-list input primitive has no Vulkan
 * GS form. (SV_ViewID translates since vViewID: test_dxil_front_sysvals.c.) */
static void test_refusals(void)
{
    struct tbuf b = { 0 };
    static const struct {
        struct dxil_gs_state gs;
        enum sb_result code;
        const char *words;
    } states[] = {
        { { .input_primitive = 1, .max_vertex_count = 0, .stream_mask = 1, .output_topology = 5,
            .instance_count = 1 }, SB_ERROR_TRANSLATE_INVALID, "0 output vertices" },
        { { .input_primitive = 1, .max_vertex_count = 3, .stream_mask = 1, .output_topology = 5,
            .instance_count = 33 }, SB_ERROR_TRANSLATE_INVALID, "33 instances" },
        { { .input_primitive = 10, .max_vertex_count = 3, .stream_mask = 1, .output_topology = 5,
            .instance_count = 1 }, SB_ERROR_TRANSLATE_UNSUPPORTED, "input primitive 10" },
    };
    for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
        memset(&b, 0, sizeof(b));
        expect_refusal(&b, dxil_program_gs_triangle_state(&states[i].gs, &b), states[i].code,
                       states[i].words, states[i].words);
    }
}

/* ---- GPU against interpreter ---------------------------------------------------------- */

static int test_validate(void)
{
    struct sb_rt_context *ctx = NULL;
    struct sb_error e = { 0 };
    struct sb_rt_context_options co = { .validation = true };
    if (sb_rt_context_create(&co, &ctx, &e) != SB_SUCCESS) {
        printf("SKIPPED: no Vulkan device: %s\n", e.message);
        return 77;
    }
    /* Keep lavapipe loaded after the context goes (LeakSanitizer, as tests/interp_gs). */
    (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD);
    static const struct {
        const char *name;
        bool (*write)(struct tbuf *);
    } cases[] = {
        { "gs_triangle", dxil_program_gs_triangle },
        { "ps_discard_ddx", dxil_program_ps_discard_ddx },
        { "ps_rows", dxil_program_ps_rows },
        { "ps_eval", dxil_program_ps_eval },
        { "vs_vertex_id", dxil_program_vs_vertex_id },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct tbuf b = { 0 };
        struct sb_rt_program *program = NULL;
        if (!cases[i].write(&b) ||
            sb_rt_program_load(b.data, b.size, NULL, &program, &e) != SB_SUCCESS) {
            CHECK(false, "%s: load: %s", cases[i].name, e.message);
            tb_free(&b);
            continue;
        }
        struct sb_validate_options o = { .inputs = { .seed = 7 } };
        struct sb_validate_report *report = NULL;
        enum sb_result r = sb_validate(ctx, program, &o, &report, &e);
        CHECK(r == SB_SUCCESS, "%s: sb_validate: %s", cases[i].name, e.message);
        if (r == SB_SUCCESS) {
            printf("%s: %s, %llu words compared, %llu mismatches\n", cases[i].name,
                   sb_validate_verdict_name(report->verdict),
                   (unsigned long long)report->words_compared,
                   (unsigned long long)report->mismatch_count);
            CHECK(report->verdict == SB_VALIDATE_AGREE && report->words_compared > 0,
                  "%s: %s (%s)", cases[i].name, sb_validate_verdict_name(report->verdict),
                  report->reason);
        }
        sb_validate_report_destroy(report);
        sb_rt_program_destroy(program);
        tb_free(&b);
    }
    CHECK(sb_rt_context_validation_errors(ctx) == 0, "validation-layer errors: %s",
          sb_rt_context_first_validation_error(ctx));
    sb_rt_context_destroy(ctx);
    return failures ? 1 : 0;
}

/* ---- corpus census of this concern ----------------------------------------------------- */

/* The dx.ops of this concern; `translated` = the front end lowers them (the rest refuse by
 * name: no IR operation). */
static const struct {
    uint32_t opcode;
    bool translated;
} concern_ops[] = {
    { SB_DXIL_OP_DISCARD, true },         { SB_DXIL_OP_DERIV_COARSE_X, true },
    { SB_DXIL_OP_DERIV_COARSE_Y, true },  { SB_DXIL_OP_DERIV_FINE_X, true },
    { SB_DXIL_OP_DERIV_FINE_Y, true },    { SB_DXIL_OP_EVAL_SNAPPED, true },
    { SB_DXIL_OP_EVAL_SAMPLE_INDEX, true }, { SB_DXIL_OP_EVAL_CENTROID, true },
    { SB_DXIL_OP_SAMPLE_INDEX, true },    { SB_DXIL_OP_COVERAGE, true },
    { SB_DXIL_OP_INNER_COVERAGE, true },  { SB_DXIL_OP_EMIT_STREAM, true },
    { SB_DXIL_OP_CUT_STREAM, true },      { SB_DXIL_OP_EMIT_THEN_CUT_STREAM, true },
    { SB_DXIL_OP_GS_INSTANCE_ID, true },  { SB_DXIL_OP_PRIMITIVE_ID, true },
    { SB_DXIL_OP_IS_HELPER_LANE, true },  { SB_DXIL_OP_ATTRIBUTE_AT_VERTEX, false },
    { SB_DXIL_OP_VIEW_ID, true },
};
#define CONCERN_OPS (sizeof(concern_ops) / sizeof(concern_ops[0]))
/* System-value semantic kinds of this concern (docs §4.4), counted per element. */
static const uint32_t concern_semantics[] = {
    SB_DXIL_SEMANTIC_VERTEX_ID, SB_DXIL_SEMANTIC_INSTANCE_ID, SB_DXIL_SEMANTIC_POSITION,
    SB_DXIL_SEMANTIC_RENDER_TARGET_ARRAY_INDEX, SB_DXIL_SEMANTIC_VIEWPORT_ARRAY_INDEX,
    SB_DXIL_SEMANTIC_CLIP_DISTANCE, SB_DXIL_SEMANTIC_CULL_DISTANCE, SB_DXIL_SEMANTIC_PRIMITIVE_ID,
    SB_DXIL_SEMANTIC_SAMPLE_INDEX, SB_DXIL_SEMANTIC_IS_FRONT_FACE, SB_DXIL_SEMANTIC_COVERAGE,
    SB_DXIL_SEMANTIC_TARGET, SB_DXIL_SEMANTIC_DEPTH, SB_DXIL_SEMANTIC_DEPTH_LESS_EQUAL,
    SB_DXIL_SEMANTIC_DEPTH_GREATER_EQUAL, SB_DXIL_SEMANTIC_STENCIL_REF,
};
#define CONCERN_SEMANTICS (sizeof(concern_semantics) / sizeof(concern_semantics[0]))

static const char *semantic_name(uint32_t kind)
{
    switch (kind) {
    case SB_DXIL_SEMANTIC_VERTEX_ID: return "SV_VertexID";
    case SB_DXIL_SEMANTIC_INSTANCE_ID: return "SV_InstanceID";
    case SB_DXIL_SEMANTIC_POSITION: return "SV_Position";
    case SB_DXIL_SEMANTIC_RENDER_TARGET_ARRAY_INDEX: return "SV_RenderTargetArrayIndex";
    case SB_DXIL_SEMANTIC_VIEWPORT_ARRAY_INDEX: return "SV_ViewportArrayIndex";
    case SB_DXIL_SEMANTIC_CLIP_DISTANCE: return "SV_ClipDistance";
    case SB_DXIL_SEMANTIC_CULL_DISTANCE: return "SV_CullDistance";
    case SB_DXIL_SEMANTIC_PRIMITIVE_ID: return "SV_PrimitiveID";
    case SB_DXIL_SEMANTIC_SAMPLE_INDEX: return "SV_SampleIndex";
    case SB_DXIL_SEMANTIC_IS_FRONT_FACE: return "SV_IsFrontFace";
    case SB_DXIL_SEMANTIC_COVERAGE: return "SV_Coverage";
    case SB_DXIL_SEMANTIC_TARGET: return "SV_Target";
    case SB_DXIL_SEMANTIC_DEPTH: return "SV_Depth";
    case SB_DXIL_SEMANTIC_DEPTH_LESS_EQUAL: return "SV_DepthLessEqual";
    case SB_DXIL_SEMANTIC_DEPTH_GREATER_EQUAL: return "SV_DepthGreaterEqual";
    case SB_DXIL_SEMANTIC_STENCIL_REF: return "SV_StencilRef";
    default: return "?";
    }
}

enum { MAX_REFUSALS_KEPT = 12 };

struct tally {
    uint32_t files, uses, translated_files, translated_uses;
};

struct gsps_census {
    uint32_t files, concern_files, concern_translated, gs_files, gs_translated;
    uint32_t invalid_spirv, concern_refusals, wrong_refusals;
    struct tally ops[CONCERN_OPS];
    struct tally semantics[CONCERN_SEMANTICS];
    uint32_t refusals_kept;
    char refusals[MAX_REFUSALS_KEPT][320]; /**< the first refusals naming this concern */
};

/* Uses of each concern op in every function body of `module`. */
static void count_ops(const struct sb_bc_module *module, uint32_t uses[CONCERN_OPS])
{
    for (uint32_t fi = 0; fi < module->function_count; fi++) {
        const struct sb_bc_function *fn = &module->functions[fi];
        for (uint32_t i = 0; i < fn->instruction_count; i++) {
            const struct sb_bc_instruction *in = &fn->instructions[i];
            const struct sb_bc_function *callee =
                in->opcode == SB_BC_OP_CALL ? sb_bc_callee(module, fn, in) : NULL;
            if (!callee || !callee->name || strncmp(callee->name, "dx.op.", 6) != 0 ||
                in->operand_count < 2)
                continue;
            const struct sb_bc_constant *c = sb_bc_constant_get(module, fn, in->operands[1]);
            for (uint32_t k = 0; c && c->kind == SB_BC_CONST_INTEGER && k < CONCERN_OPS; k++)
                uses[k] += c->bits == concern_ops[k].opcode;
        }
    }
}

/* Elements of each concern semantic in the entry points' input and output signatures. */
static void count_semantics(const struct sb_dxil_program_info *info,
                            uint32_t uses[CONCERN_SEMANTICS])
{
    for (uint32_t e = 0; e < info->entry_point_count; e++)
        for (uint32_t s = 0; s < 2; s++) {
            const struct sb_dxil_signature *sig = &info->entry_points[e].signatures[s];
            for (uint32_t i = 0; i < sig->element_count; i++)
                for (uint32_t k = 0; k < CONCERN_SEMANTICS; k++)
                    uses[k] += sig->elements[i].semantic_kind == concern_semantics[k];
        }
}

/* Whether a refusal names this concern: an op of it, or the signature / GS / pixel code. */
static bool names_concern(const char *message, bool *at_translated_op)
{
    static const char *const phrases[] = { "signature element", "geometry shader",
                                           "pixel dx.op", "SV_SampleIndex", "loadInput",
                                           "storeOutput", "signature access", "eval of" };
    *at_translated_op = false;
    for (uint32_t k = 0; k < CONCERN_OPS; k++) {
        const struct sb_dxil_op_info *op = sb_dxil_op_lookup(concern_ops[k].opcode);
        char name[64];
        snprintf(name, sizeof(name), "dx.op %s ", op && op->name ? op->name : "?");
        if (strstr(message, name)) {
            *at_translated_op = concern_ops[k].translated;
            return true;
        }
    }
    for (size_t i = 0; i < sizeof(phrases) / sizeof(phrases[0]); i++)
        if (strstr(message, phrases[i]))
            return true;
    return false;
}

static void census_one(const char *path, const char *relative, void *user)
{
    struct gsps_census *c = user;
    size_t size = 0;
    char *bytes = read_file(path, &size);
    struct sb_dxbc *container = NULL;
    struct sb_bc_module *module = NULL;
    struct sb_dxil_program_info *info = NULL;
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    c->files++;
    uint32_t op_uses[CONCERN_OPS] = { 0 }, sem_uses[CONCERN_SEMANTICS] = { 0 };
    const struct sb_dxbc_part *part = NULL;
    if (bytes && sb_dxbc_parse(bytes, size, &container, &err) == SB_SUCCESS)
        part = sb_dxbc_find_part(container, SB_FOURCC('D', 'X', 'I', 'L'));
    if (part && part->decoded.program &&
        sb_bc_read_dxil_part(part->data, part->size, part->data_offset, &module, &err) ==
            SB_SUCCESS) {
        count_ops(module, op_uses);
        if (sb_dxil_program_info_read(module, part->decoded.program->bitcode_file_offset, &info,
                                      &err) == SB_SUCCESS)
            count_semantics(info, sem_uses);
    }
    bool uses = false;
    for (uint32_t k = 0; k < CONCERN_OPS; k++)
        uses |= op_uses[k] != 0;
    for (uint32_t k = 0; k < CONCERN_SEMANTICS; k++)
        uses |= sem_uses[k] != 0;
    bool gs = info && info->shader_kind == SB_DXIL_SHADER_KIND_GEOMETRY;
    struct sb_translation *t = NULL;
    bool translated = false;
    if (bytes && sb_translate(bytes, size, NULL, &t, &err) == SB_SUCCESS) {
        translated = sb_spirv_validate(t->words, t->word_count, SB_TARGET_VULKAN_1_1, &err) ==
                     SB_SUCCESS;
        if (!translated) {
            fprintf(stderr, "%s: invalid SPIR-V: %s\n", relative, err.message);
            c->invalid_spirv++;
        }
    } else {
        bool wrong = false;
        if (names_concern(err.message, &wrong)) {
            c->concern_refusals++;
            if (c->refusals_kept < MAX_REFUSALS_KEPT)
                snprintf(c->refusals[c->refusals_kept++], sizeof(c->refusals[0]),
                         "%.100s: %.200s", relative, err.message);
        }
        if (wrong) {
            fprintf(stderr, "%s: refused at an op this concern translates: %s\n", relative,
                    err.message);
            c->wrong_refusals++;
        }
    }
    c->concern_files += uses;
    c->concern_translated += uses && translated;
    c->gs_files += gs;
    c->gs_translated += gs && translated;
    for (uint32_t k = 0; k < CONCERN_OPS; k++) {
        c->ops[k].files += op_uses[k] != 0;
        c->ops[k].uses += op_uses[k];
        c->ops[k].translated_files += op_uses[k] && translated;
        c->ops[k].translated_uses += translated ? op_uses[k] : 0;
    }
    for (uint32_t k = 0; k < CONCERN_SEMANTICS; k++) {
        c->semantics[k].files += sem_uses[k] != 0;
        c->semantics[k].uses += sem_uses[k];
        c->semantics[k].translated_files += sem_uses[k] && translated;
        c->semantics[k].translated_uses += translated ? sem_uses[k] : 0;
    }
    sb_translation_destroy(t);
    sb_dxil_program_info_destroy(info);
    sb_bc_module_destroy(module);
    sb_dxbc_destroy(container);
    free(bytes);
}

static int test_census(const char *corpus)
{
    static struct gsps_census c;
    if (!corpus || corpus_manifest_each(corpus, "dxil", census_one, &c) < 0) {
        printf("SKIPPED: %s/dxil/MANIFEST.tsv not found\n", corpus ? corpus : "(none)");
        return 77;
    }
    printf("dxil_front_gsps census: %u files; %u use a gs/ps/system-value construct, %u of "
           "them translate (spirv-val clean); geometry shaders %u/%u; %u refusals name this "
           "concern\n", c.files, c.concern_files, c.concern_translated, c.gs_translated,
           c.gs_files, c.concern_refusals);
    for (uint32_t i = 0; i < c.refusals_kept; i++)
        printf("  refused: %s\n", c.refusals[i]);
    printf("  %-22s %5s %5s %16s %15s\n", "dx.op", "files", "uses", "files translated",
           "uses translated");
    for (uint32_t k = 0; k < CONCERN_OPS; k++) {
        const struct sb_dxil_op_info *op = sb_dxil_op_lookup(concern_ops[k].opcode);
        if (c.ops[k].files)
            printf("  %-22s %5u %5u %16u %15u%s\n", op && op->name ? op->name : "?",
                   c.ops[k].files, c.ops[k].uses, c.ops[k].translated_files,
                   c.ops[k].translated_uses,
                   concern_ops[k].translated ? "" : "  (refused: no IR op)");
    }
    printf("  %-22s %5s %5s %16s %15s\n", "semantic kind", "files", "elems", "files translated",
           "elems translated");
    for (uint32_t k = 0; k < CONCERN_SEMANTICS; k++)
        if (c.semantics[k].files)
            printf("  %-22s %5u %5u %16u %15u\n", semantic_name(concern_semantics[k]),
                   c.semantics[k].files,
                   c.semantics[k].uses, c.semantics[k].translated_files,
                   c.semantics[k].translated_uses);
    CHECK(c.invalid_spirv == 0, "%u translations are not valid SPIR-V", c.invalid_spirv);
    CHECK(c.wrong_refusals == 0, "%u files refused at an op this concern translates",
          c.wrong_refusals);
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "";
    if (!strcmp(which, "gs_triangle"))
        test_gs_triangle();
    else if (!strcmp(which, "ps_discard_ddx"))
        test_ps_discard_ddx();
    else if (!strcmp(which, "ps_rows"))
        test_ps_rows();
    else if (!strcmp(which, "ps_eval"))
        test_ps_eval();
    else if (!strcmp(which, "vs_vertex_id"))
        test_vs_vertex_id();
    else if (!strcmp(which, "refusals"))
        test_refusals();
    else if (!strcmp(which, "validate"))
        return test_validate();
    else if (!strcmp(which, "census"))
        return test_census(argc > 2 ? argv[2] : NULL);
    else {
        fprintf(stderr, "usage: %s gs_triangle|ps_discard_ddx|ps_rows|ps_eval|vs_vertex_id|"
                "refusals|validate|census CORPUS\n", argv[0]);
        return 2;
    }
    if (failures)
        fprintf(stderr, "%u check(s) failed\n", failures);
    return failures ? 1 : 0;
}
