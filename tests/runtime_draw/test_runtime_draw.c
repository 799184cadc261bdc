/* SPDX-License-Identifier: MIT */
/*
 * sb_rt_draw_points on lavapipe under the validation layer: small vs/ps/gs
 * programs assembled with tests/vulkan/sm4_asm.h, translated with
 * sb_translate, drawn as point lists, and their results compared exactly.
 *
 *  1. attributes: a VS (translated with -g, so the PointSize store the
 *     runtime adds must skip OpLine) places point i at the centre of pixel i
 *     from SV_VertexID and passes a float4 and a uint4 stream through; the
 *     PS writes them to a float and a uint target at locations 1 and 0 (the
 *     attachment order follows the location, not the array). The two pixels
 *     no point covers keep their loaded texels.
 *  2. depth: the PS reads SV_Position (pixel centre, z = the vertex's z,
 *     w = 1) into a float target and writes oDepth = z + 0.125 against a
 *     depth buffer of 0.5: points up to z = 0.375 pass (LESS_OR_EQUAL, the
 *     equal one included) and write both; the others leave both untouched.
 *  3. capture: rasterizer discard with a gs_5_0 that takes each point and
 *     emits nothing, storing its input vertex's three registers (what the
 *     VS computed) into a structured UAV at SV_PrimitiveID — the capture
 *     path of vertex-shader validation — and a vs_5_0 that stores into a
 *     UAV itself at SV_VertexID with no GS (discard plus the PointSize copy);
 *     then both stages writing one u1 (one merged binding, read back once),
 *     and the same pair with the GS translated with u1 moved to another
 *     binding, or u0 moved onto u1's binding (SB_ERROR_RUN_BINDING).
 *  Partial targets: a target at a location the PS does not write keeps its
 *     texels (R16G16B16A16_FLOAT), a PS output without a target goes nowhere.
 *  4. errors: a missing UAV (SB_ERROR_RUN_BINDING), an unsupported stream
 *     and target format (SB_ERROR_RUN_UNSUPPORTED), a missing stream and a
 *     stream / target whose type does not match the shader
 *     (SB_ERROR_RUN_BINDING), a wrong-stage translation, two targets at one
 *     location, a zero-sized framebuffer and a depth texel outside [0, 1]
 *     (SB_ERROR_INVALID_ARGUMENT), a CPU-only context
 *     (SB_ERROR_NO_DEVICE); after them, a good draw still works (into an
 *     R8G8B8A8_UNORM target).
 * Every case must leave zero validation-layer errors.
 *
 * Usage: test_runtime_draw. Exit 0 pass, 1 fail, 77 no Vulkan device.
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <stdbool.h>

#include "sm4_asm.h"
#include "shaderbridge/runtime.h"
#include "shaderbridge/translate.h"

#define W 4
#define H 4
#define POINTS 14 /* pixels 14 and 15 keep their loaded texels */
#define CAPTURED 5 /* points of the capture cases */

static int failures;
static int checks;

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        checks++;                                                                          \
        if (!(cond)) {                                                                     \
            failures++;                                                                    \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                           \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fputc('\n', stderr);                                                           \
        }                                                                                  \
    } while (0)

/* Keeps lavapipe loaded after the context is gone (see tests/runtime/test_runtime_dispatch.c). */
static void pin_driver(void)
{
    (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD);
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static struct sm4_operand in1(uint32_t r, const char *sel, int dst)
{
    return sm4_reg(T_INPUT, 1, &r, NULL, sel, dst);
}
static struct sm4_operand out1(uint32_t r, const char *mask)
{
    return sm4_reg(T_OUTPUT, 1, &r, NULL, mask, 1);
}

/* o0 = the centre of pixel (id % W, id / W) in clip space, z = r0.z (set by the caller), w = 1. */
static void emit_pixel_position(struct sm4_program *p, uint32_t id_reg)
{
    I(p, OP_UDIV, dr(0, "y"), dr(0, "x"), in1(id_reg, "x", 0), l1(W));
    I(p, OP_UTOF, dr(0, "xy"), sr(0, "xyxx"));
    I(p, OP_MAD, dr(0, "xy"), sr(0, "xyxx"), l4(fbits(2.0f / W), fbits(2.0f / H), 0, 0),
      l4(fbits(1.0f / W - 1.0f), fbits(1.0f / H - 1.0f), 0, 0));
    I(p, OP_MOV, dr(0, "w"), lf(1.0f));
    I(p, OP_MOV, out1(0, "xyzw"), sr(0, "xyzw"));
}

/* ---- case 1: attributes through to a float and a uint target ------------------------------- */

static void build_vs_attributes(struct blob *out)
{
    static struct sm4_program p;
    sm4_begin(&p, 1, 4, 0, 1);
    sm4_dcl_io(&p, 95, 0, T_INPUT, 0, "xyzw", -1);
    sm4_dcl_io(&p, 95, 0, T_INPUT, 1, "xyzw", -1);
    sm4_dcl_io(&p, 96, 0, T_INPUT, 2, "x", 6);           /* SV_VertexID */
    sm4_dcl_io(&p, 103, 0, T_OUTPUT, 0, "xyzw", 1);      /* SV_Position */
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 1, "xyzw", -1);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 2, "xyzw", -1);
    I(&p, OP_MOV, dr(0, "z"), lf(0.0f));
    emit_pixel_position(&p, 2);
    I(&p, OP_MOV, out1(1, "xyzw"), in1(0, "xyzw", 0));
    I(&p, OP_MOV, out1(2, "xyzw"), in1(1, "xyzw", 0));
    sm4_end(&p);
    const struct sig_element_spec in[] = {
        { 0, "ATTR", 0, 0, 3, 0, 0xf, 0xf, 0 },
        { 0, "ATTR", 1, 0, 1, 1, 0xf, 0xf, 0 },
        { 0, "SV_VertexID", 0, 6, 1, 2, 0x1, 0x1, 0 },
    };
    const struct sig_element_spec outs[] = {
        { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0x0, 0 },
        { 0, "TEXCOORD", 0, 0, 3, 1, 0xf, 0x0, 0 },
        { 0, "TEXCOORD", 1, 0, 1, 2, 0xf, 0x0, 0 },
    };
    sm4_container_sig(&p, in, 3, outs, 3, NULL, 0, out);
}

/* o0 (uint, SV_Target0) = the uint attribute, o1 (float, SV_Target1) = the float attribute. */
static void build_ps_attributes(struct blob *out)
{
    static struct sm4_program p;
    sm4_begin(&p, 0, 4, 0, 0);
    sm4_dcl_io(&p, 98, 2, T_INPUT, 1, "xyzw", -1);        /* linear: a point has nothing to blend */
    sm4_dcl_io(&p, 98, 1, T_INPUT, 2, "xyzw", -1);        /* constant */
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 0, "xyzw", -1);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 1, "xyzw", -1);
    I(&p, OP_MOV, out1(0, "xyzw"), in1(2, "xyzw", 0));
    I(&p, OP_MOV, out1(1, "xyzw"), in1(1, "xyzw", 0));
    sm4_end(&p);
    const struct sig_element_spec in[] = {
        { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0x0, 0 },
        { 0, "TEXCOORD", 0, 0, 3, 1, 0xf, 0xf, 0 },
        { 0, "TEXCOORD", 1, 0, 1, 2, 0xf, 0xf, 0 },
    };
    const struct sig_element_spec outs[] = {
        { 0, "SV_Target", 0, 64, 1, 0, 0xf, 0x0, 0 },
        { 0, "SV_Target", 1, 64, 3, 1, 0xf, 0x0, 0 },
    };
    sm4_container_sig(&p, in, 3, outs, 2, NULL, 0, out);
}

/* ---- case 2: SV_Position in, oDepth out -------------------------------------------------------- */

static void build_vs_depth(struct blob *out)
{
    static struct sm4_program p;
    sm4_begin(&p, 1, 4, 0, 1);
    sm4_dcl_io(&p, 95, 0, T_INPUT, 0, "x", -1);
    sm4_dcl_io(&p, 96, 0, T_INPUT, 1, "x", 6);
    sm4_dcl_io(&p, 103, 0, T_OUTPUT, 0, "xyzw", 1);
    I(&p, OP_MOV, dr(0, "z"), in1(0, "x", 0));
    emit_pixel_position(&p, 1);
    sm4_end(&p);
    const struct sig_element_spec in[] = {
        { 0, "DEPTH", 0, 0, 3, 0, 0x1, 0x1, 0 },
        { 0, "SV_VertexID", 0, 6, 1, 1, 0x1, 0x1, 0 },
    };
    const struct sig_element_spec outs[] = { { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0x0, 0 } };
    sm4_container_sig(&p, in, 2, outs, 1, NULL, 0, out);
}

static void build_ps_depth(struct blob *out)
{
    static struct sm4_program p;
    sm4_begin(&p, 0, 4, 0, 0);
    sm4_dcl_io(&p, 100, 4, T_INPUT, 0, "xyzw", 1);        /* linear noperspective, position */
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 0, "xyzw", -1);
    sm4_decl(&p, 101, (struct sm4_operand){ { 0x0000C001u }, 1 }, 0, NULL); /* dcl_output oDepth */
    I(&p, OP_MOV, out1(0, "xyzw"), in1(0, "xyzw", 0));
    I(&p, OP_ADD, (struct sm4_operand){ { 0x0000C001u }, 1 }, in1(0, "z", 0), lf(0.125f));
    sm4_end(&p);
    const struct sig_element_spec in[] = { { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0xf, 0 } };
    const struct sig_element_spec outs[] = {
        { 0, "SV_Target", 0, 64, 3, 0, 0xf, 0x0, 0 },
        { 0, "SV_Depth", 0, 65, 3, 0xFFFFFFFFu, 0x1, 0xe, 0 },
    };
    sm4_container_sig(&p, in, 1, outs, 2, NULL, 0, out);
}

/* ---- case 3: capture through UAVs with the rasterizer discarding ------------------------------ */

/* vs_5_0: o0 = ATTR0, o1 = ATTR0 * 2, o2 = ATTR1 + id; with `store`, u1[id] = o1 too. */
static void build_vs_capture(struct blob *out, bool store)
{
    static struct sm4_program p;
    sm4_begin(&p, 1, 5, 0, 1);
    if (store)
        sm4_dcl_uav_structured(&p, 1, 16);
    sm4_dcl_io(&p, 95, 0, T_INPUT, 0, "xyzw", -1);
    sm4_dcl_io(&p, 95, 0, T_INPUT, 1, "xyzw", -1);
    sm4_dcl_io(&p, 96, 0, T_INPUT, 2, "x", 6);
    sm4_dcl_io(&p, 103, 0, T_OUTPUT, 0, "xyzw", 1);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 1, "xyzw", -1);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 2, "xyzw", -1);
    I(&p, OP_MOV, out1(0, "xyzw"), in1(0, "xyzw", 0));
    I(&p, OP_MUL, dr(0, "xyzw"), in1(0, "xyzw", 0), lf(2.0f));
    I(&p, OP_MOV, out1(1, "xyzw"), sr(0, "xyzw"));
    I(&p, OP_IADD, out1(2, "xyzw"), in1(1, "xyzw", 0), in1(2, "xxxx", 0));
    if (store)
        I(&p, OP_STORE_STRUCTURED, du(1, "xyzw"), in1(2, "x", 0), l1(0), sr(0, "xyzw"));
    sm4_end(&p);
    const struct sig_element_spec in[] = {
        { 0, "ATTR", 0, 0, 3, 0, 0xf, 0xf, 0 },
        { 0, "ATTR", 1, 0, 1, 1, 0xf, 0xf, 0 },
        { 0, "SV_VertexID", 0, 6, 1, 2, 0x1, 0x1, 0 },
    };
    const struct sig_element_spec outs[] = {
        { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0x0, 0 },
        { 0, "TEXCOORD", 0, 0, 3, 1, 0xf, 0x0, 0 },
        { 0, "TEXCOORD", 1, 0, 1, 2, 0xf, 0x0, 0 },
    };
    sm4_container_sig(&p, in, 3, outs, 3, NULL, 0, out);
}

static void build_vs_capture_plain(struct blob *out)
{
    build_vs_capture(out, false);
}
static void build_vs_capture_store(struct blob *out)
{
    build_vs_capture(out, true);
}

/* gs_5_0, point in, nothing out: u0[vPrim] = { v[0][0], v[0][1], v[0][2] } (48 bytes); with
 * `share_u1` also u1[vPrim + CAPTURED] = v[0][1], u1 being the VS's UAV (one merged binding). */
static void build_gs(struct blob *out, bool share_u1)
{
    static struct sm4_program p;
    const struct sm4_operand prim = { { 0x0000B001u }, 1 }; /* vPrim */
    sm4_begin(&p, 2, 5, 0, 1);
    sm4_dcl_uav_structured(&p, 0, 48);
    if (share_u1)
        sm4_dcl_uav_structured(&p, 1, 16);
    sm4_decl(&p, 97, sm4_reg(T_INPUT, 2, (uint32_t[]){ 1, 0 }, NULL, "xyzw", 1), 1, (uint32_t[]){ 1 });
    sm4_decl(&p, 95, sm4_reg(T_INPUT, 2, (uint32_t[]){ 1, 1 }, NULL, "xyzw", 1), 0, NULL);
    sm4_decl(&p, 95, sm4_reg(T_INPUT, 2, (uint32_t[]){ 1, 2 }, NULL, "xyzw", 1), 0, NULL);
    sm4_decl(&p, 95, prim, 0, NULL);
    sm4_raw(&p, 93u | (1u << 11), 0, NULL);                /* dcl_inputprimitive point */
    sm4_raw(&p, 92u | (1u << 11), 0, NULL);                /* dcl_outputtopology pointlist */
    sm4_raw(&p, 94, 1, (uint32_t[]){ 1 });                 /* dcl_maxout 1 */
    I(&p, OP_MOV, dr(0, "x"), prim);
    for (uint32_t r = 0; r < 3; r++)
        I(&p, OP_STORE_STRUCTURED, du(0, "xyzw"), sr(0, "x"), l1(16 * r),
          sm4_reg(T_INPUT, 2, (uint32_t[]){ 0, r }, NULL, "xyzw", 0));
    if (share_u1) {
        I(&p, OP_IADD, dr(0, "y"), sr(0, "x"), l1(CAPTURED));
        I(&p, OP_STORE_STRUCTURED, du(1, "xyzw"), sr(0, "y"), l1(0),
          sm4_reg(T_INPUT, 2, (uint32_t[]){ 0, 1 }, NULL, "xyzw", 0));
    }
    sm4_end(&p);
    const struct sig_element_spec in[] = {
        { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0xf, 0 },
        { 0, "TEXCOORD", 0, 0, 3, 1, 0xf, 0xf, 0 },
        { 0, "TEXCOORD", 1, 0, 1, 2, 0xf, 0xf, 0 },
    };
    sm4_container_sig(&p, in, 3, NULL, 0, NULL, 0, out);
}

static void build_gs_capture(struct blob *out)
{
    build_gs(out, false);
}
static void build_gs_share(struct blob *out)
{
    build_gs(out, true);
}

/* ---- helpers ----------------------------------------------------------------------------------- */

/* `moved`: one UAV register moved to another binding of set 0 (NULL: the default scheme). */
static struct sb_translation *translate_moved(void (*build)(struct blob *), uint32_t flags,
                                              const struct sb_binding_override *moved, const char *what)
{
    static struct blob b;
    memset(&b, 0, sizeof(b));
    build(&b);
    struct sb_translate_options o = { .target_env = SB_TARGET_VULKAN_1_1, .flags = flags,
                                      .binding_override_count = moved ? 1 : 0, .binding_overrides = moved };
    struct sb_translation *t = NULL;
    struct sb_error err = { 0 };
    enum sb_result r = sb_translate(b.bytes, b.size, &o, &t, &err);
    CHECK(r == SB_SUCCESS, "%s: translate: %s at %llu: %s", what, sb_result_name(r),
          (unsigned long long)err.offset, err.message);
    return r == SB_SUCCESS ? t : NULL;
}

static struct sb_translation *translate(void (*build)(struct blob *), uint32_t flags, const char *what)
{
    return translate_moved(build, flags, NULL, what);
}

/* The location the translation gives the input with this semantic. */
static uint32_t input_location(const struct sb_translation *t, const char *semantic, uint32_t index)
{
    for (uint32_t i = 0; t && i < t->input_count; i++)
        if (t->inputs[i].semantic && strcmp(t->inputs[i].semantic, semantic) == 0 &&
            t->inputs[i].semantic_index == index)
            return t->inputs[i].location;
    CHECK(false, "no input %s%u in the translation", semantic, index);
    return 0;
}

static void check_validation(struct sb_rt_context *c, const char *what)
{
    CHECK(sb_rt_context_validation_errors(c) == 0, "%s: %u validation errors, first: %s", what,
          sb_rt_context_validation_errors(c), sb_rt_context_first_validation_error(c));
}

static bool draw_ok(struct sb_rt_context *c, const struct sb_rt_draw *d, struct sb_rt_resource *res, uint32_t n,
                    const char *what)
{
    struct sb_error err = { 0 };
    struct sb_rt_timing tm;
    enum sb_result r = sb_rt_draw_points(c, d, res, n, &tm, &err);
    CHECK(r == SB_SUCCESS, "%s: %s: %s", what, sb_result_name(r), err.message);
    if (r == SB_SUCCESS)
        printf("%s: pipeline %.3f ms, upload %.3f ms, run %.3f ms, readback %.3f ms\n", what,
               tm.pipeline_ns / 1e6, tm.upload_ns / 1e6, tm.run_ns / 1e6, tm.readback_ns / 1e6);
    check_validation(c, what);
    return r == SB_SUCCESS;
}

/* ---- the cases --------------------------------------------------------------------------------- */

struct shaders {
    struct sb_translation *vs_attr, *ps_attr, *vs_depth, *ps_depth, *vs_cap, *vs_store, *gs_cap, *gs_share;
    struct sb_translation *gs_u1_moved, *gs_u0_on_u1;   /* gs_share with u1 / u0 at other bindings */
};

static void case_attributes(struct sb_rt_context *c, const struct shaders *s)
{
    static float fin[POINTS][4];
    static uint32_t uin[POINTS][4];
    for (uint32_t i = 0; i < POINTS; i++)
        for (uint32_t k = 0; k < 4; k++) {
            fin[i][k] = (float)i * 1.25f - (float)k * 0.375f + 0.1f;
            uin[i][k] = 0x01000000u * k + i * 7u + 0xA0000000u;
        }
    static float ftarget[W * H][4];
    static uint32_t utarget[W * H][4];
    for (uint32_t p = 0; p < W * H; p++)
        for (uint32_t k = 0; k < 4; k++) {
            ftarget[p][k] = -7.5f;
            utarget[p][k] = 0xDEADBEEFu;
        }
    struct sb_rt_vertex_stream streams[2] = {
        { input_location(s->vs_attr, "ATTR", 1), SB_RT_FORMAT_R32G32B32A32_UINT, uin },
        { input_location(s->vs_attr, "ATTR", 0), SB_RT_FORMAT_R32G32B32A32_FLOAT, fin },
    };
    /* Listed float first although it is location 1: attachments follow locations. */
    struct sb_rt_color_target targets[2] = {
        { 1, SB_RT_FORMAT_R32G32B32A32_FLOAT, ftarget },
        { 0, SB_RT_FORMAT_R32G32B32A32_UINT, utarget },
    };
    struct sb_rt_draw d = {
        .vertex = s->vs_attr, .pixel = s->ps_attr, .vertex_count = POINTS, .stream_count = 2,
        .streams = streams, .width = W, .height = H, .target_count = 2, .targets = targets,
    };
    if (!draw_ok(c, &d, NULL, 0, "attributes"))
        return;
    for (uint32_t p = 0; p < W * H; p++)
        for (uint32_t k = 0; k < 4; k++) {
            float want_f = p < POINTS ? fin[p][k] : -7.5f;
            uint32_t want_u = p < POINTS ? uin[p][k] : 0xDEADBEEFu;
            CHECK(fbits(ftarget[p][k]) == fbits(want_f), "attributes: float pixel %u[%u] = %g, want %g", p, k,
                  (double)ftarget[p][k], (double)want_f);
            CHECK(utarget[p][k] == want_u, "attributes: uint pixel %u[%u] = 0x%08x, want 0x%08x", p, k,
                  utarget[p][k], want_u);
        }
}

static void case_depth(struct sb_rt_context *c, const struct shaders *s)
{
    static float z[POINTS], color[W * H][4], depth[W * H];
    for (uint32_t i = 0; i < POINTS; i++)
        z[i] = 0.0625f * (float)i;
    for (uint32_t p = 0; p < W * H; p++) {
        depth[p] = 0.5f;
        for (uint32_t k = 0; k < 4; k++)
            color[p][k] = 9.0f;
    }
    struct sb_rt_vertex_stream stream = { input_location(s->vs_depth, "DEPTH", 0), SB_RT_FORMAT_R32_FLOAT, z };
    struct sb_rt_color_target target = { 0, SB_RT_FORMAT_R32G32B32A32_FLOAT, color };
    struct sb_rt_draw d = {
        .vertex = s->vs_depth, .pixel = s->ps_depth, .vertex_count = POINTS, .stream_count = 1,
        .streams = &stream, .width = W, .height = H, .target_count = 1, .targets = &target, .depth = depth,
    };
    if (!draw_ok(c, &d, NULL, 0, "depth"))
        return;
    uint32_t passed = 0;
    for (uint32_t p = 0; p < W * H; p++) {
        bool pass = p < POINTS && z[p] + 0.125f <= 0.5f;
        passed += pass;
        float want[4] = { 9.0f, 9.0f, 9.0f, 9.0f };
        if (pass) {
            want[0] = (float)(p % W) + 0.5f;
            want[1] = (float)(p / W) + 0.5f;
            want[2] = z[p];
            want[3] = 1.0f;
        }
        float want_depth = pass ? z[p] + 0.125f : 0.5f;
        for (uint32_t k = 0; k < 4; k++)
            CHECK(fbits(color[p][k]) == fbits(want[k]), "depth: colour pixel %u[%u] = %g, want %g", p, k,
                  (double)color[p][k], (double)want[k]);
        CHECK(fbits(depth[p]) == fbits(want_depth), "depth: depth pixel %u = %g, want %g", p, (double)depth[p],
              (double)want_depth);
    }
    CHECK(passed == 7, "depth: %u points passed the test, want 7 (z = 0 ... 0.375)", passed);
}

static void capture_inputs(float fin[CAPTURED][4], uint32_t uin[CAPTURED][4])
{
    for (uint32_t i = 0; i < CAPTURED; i++)
        for (uint32_t k = 0; k < 4; k++) {
            fin[i][k] = (float)(i + 1) * 0.5f + (float)k;
            uin[i][k] = 100u * i + k;
        }
}

static void case_capture_gs(struct sb_rt_context *c, const struct shaders *s)
{
    static float fin[CAPTURED][4];
    static uint32_t uin[CAPTURED][4], uav[CAPTURED + 1][12];
    capture_inputs(fin, uin);
    memset(uav, 0xCD, sizeof(uav));
    struct sb_rt_vertex_stream streams[2] = {
        { input_location(s->vs_cap, "ATTR", 0), SB_RT_FORMAT_R32G32B32A32_FLOAT, fin },
        { input_location(s->vs_cap, "ATTR", 1), SB_RT_FORMAT_R32G32B32A32_UINT, uin },
    };
    struct sb_rt_resource r = { .resource_class = SB_IR_RESOURCE_UAV, .register_index = 0, .data = uav,
                                .size = sizeof(uav) };
    struct sb_rt_draw d = {
        .vertex = s->vs_cap, .geometry = s->gs_cap, .vertex_count = CAPTURED, .stream_count = 2,
        .streams = streams, .width = W, .height = H,
    };
    if (!draw_ok(c, &d, &r, 1, "capture gs"))
        return;
    for (uint32_t i = 0; i <= CAPTURED; i++)
        for (uint32_t k = 0; k < 4; k++) {
            bool drawn = i < CAPTURED;
            uint32_t want[3] = { drawn ? fbits(fin[i][k]) : 0xCDCDCDCDu,
                                 drawn ? fbits(fin[i][k] * 2.0f) : 0xCDCDCDCDu,
                                 drawn ? uin[i][k] + i : 0xCDCDCDCDu };
            for (uint32_t reg = 0; reg < 3; reg++)
                CHECK(uav[i][4 * reg + k] == want[reg], "capture gs: u0[%u] register %u .%c = 0x%08x, want 0x%08x",
                      i, reg, "xyzw"[k], uav[i][4 * reg + k], want[reg]);
        }
}

static void case_capture_vs(struct sb_rt_context *c, const struct shaders *s)
{
    static float fin[CAPTURED][4];
    static uint32_t uin[CAPTURED][4], uav[CAPTURED + 1][4];
    capture_inputs(fin, uin);
    memset(uav, 0xCD, sizeof(uav));
    struct sb_rt_vertex_stream streams[2] = {
        { input_location(s->vs_store, "ATTR", 0), SB_RT_FORMAT_R32G32B32A32_FLOAT, fin },
        { input_location(s->vs_store, "ATTR", 1), SB_RT_FORMAT_R32G32B32A32_UINT, uin },
    };
    struct sb_rt_resource r = { .resource_class = SB_IR_RESOURCE_UAV, .register_index = 1, .data = uav,
                                .size = sizeof(uav) };
    struct sb_rt_draw d = {
        .vertex = s->vs_store, .vertex_count = CAPTURED, .stream_count = 2, .streams = streams,
        .width = W, .height = H,
    };
    if (!draw_ok(c, &d, &r, 1, "capture vs"))
        return;
    for (uint32_t i = 0; i <= CAPTURED; i++)
        for (uint32_t k = 0; k < 4; k++) {
            uint32_t want = i < CAPTURED ? fbits(fin[i][k] * 2.0f) : 0xCDCDCDCDu;
            CHECK(uav[i][k] == want, "capture vs: u1[%u].%c = 0x%08x, want 0x%08x", i, "xyzw"[k], uav[i][k], want);
        }
}

static void expect_error(struct sb_rt_context *c, const struct sb_rt_draw *d, struct sb_rt_resource *res,
                         uint32_t n, enum sb_result want, const char *what);

/* The VS and the GS both write u1: one merged binding, visible to both stages, read back once. */
static void case_capture_shared(struct sb_rt_context *c, const struct shaders *s)
{
    static float fin[CAPTURED][4];
    static uint32_t uin[CAPTURED][4], u0[CAPTURED][12], u1[2 * CAPTURED + 1][4];
    capture_inputs(fin, uin);
    memset(u0, 0xCD, sizeof(u0));
    memset(u1, 0xCD, sizeof(u1));
    struct sb_rt_vertex_stream streams[2] = {
        { input_location(s->vs_store, "ATTR", 0), SB_RT_FORMAT_R32G32B32A32_FLOAT, fin },
        { input_location(s->vs_store, "ATTR", 1), SB_RT_FORMAT_R32G32B32A32_UINT, uin },
    };
    struct sb_rt_resource r[2] = {
        { .resource_class = SB_IR_RESOURCE_UAV, .register_index = 1, .data = u1, .size = sizeof(u1) },
        { .resource_class = SB_IR_RESOURCE_UAV, .register_index = 0, .data = u0, .size = sizeof(u0) },
    };
    struct sb_rt_draw d = {
        .vertex = s->vs_store, .geometry = s->gs_share, .vertex_count = CAPTURED, .stream_count = 2,
        .streams = streams, .width = W, .height = H,
    };
    if (!draw_ok(c, &d, r, 2, "capture shared uav"))
        return;
    for (uint32_t i = 0; i <= 2 * CAPTURED; i++)
        for (uint32_t k = 0; k < 4; k++) {
            uint32_t want = i < 2 * CAPTURED ? fbits(fin[i % CAPTURED][k] * 2.0f) : 0xCDCDCDCDu;
            CHECK(u1[i][k] == want, "capture shared uav: u1[%u].%c = 0x%08x, want 0x%08x (%s)", i, "xyzw"[k],
                  u1[i][k], want, i < CAPTURED ? "vs" : "gs");
        }
    for (uint32_t i = 0; i < CAPTURED; i++)
        CHECK(u0[i][8] == uin[i][0] + i, "capture shared uav: u0[%u] register 2 .x = %u, want %u", i, u0[i][8],
              uin[i][0] + i);
    d.geometry = s->gs_u1_moved;
    expect_error(c, &d, r, 2, SB_ERROR_RUN_BINDING, "u1 at two bindings");
    d.geometry = s->gs_u0_on_u1;
    expect_error(c, &d, r, 2, SB_ERROR_RUN_BINDING, "u0 and u1 at one binding");
}

/* Targets at locations 1 and 2 for a PS writing 0 and 1: location 0's writes go nowhere and
 * location 2 (not written) keeps its texels. */
static void case_partial_targets(struct sb_rt_context *c, const struct shaders *s)
{
    static float fin[POINTS][4], ftarget[W * H][4];
    static uint32_t uin[POINTS][4];
    static uint16_t half[W * H][4];
    for (uint32_t i = 0; i < POINTS; i++)
        for (uint32_t k = 0; k < 4; k++) {
            fin[i][k] = (float)(i * 4 + k);
            uin[i][k] = i;
        }
    for (uint32_t p = 0; p < W * H; p++)
        for (uint32_t k = 0; k < 4; k++) {
            ftarget[p][k] = -1.0f;
            half[p][k] = (uint16_t)(0x3C00u + p * 4 + k); /* 1.0 and a little more: distinct halves */
        }
    struct sb_rt_vertex_stream streams[2] = {
        { input_location(s->vs_attr, "ATTR", 0), SB_RT_FORMAT_R32G32B32A32_FLOAT, fin },
        { input_location(s->vs_attr, "ATTR", 1), SB_RT_FORMAT_R32G32B32A32_UINT, uin },
    };
    struct sb_rt_color_target targets[2] = {
        { 2, SB_RT_FORMAT_R16G16B16A16_FLOAT, half },
        { 1, SB_RT_FORMAT_R32G32B32A32_FLOAT, ftarget },
    };
    struct sb_rt_draw d = {
        .vertex = s->vs_attr, .pixel = s->ps_attr, .vertex_count = POINTS, .stream_count = 2, .streams = streams,
        .width = W, .height = H, .target_count = 2, .targets = targets,
    };
    if (!draw_ok(c, &d, NULL, 0, "partial targets"))
        return;
    for (uint32_t p = 0; p < W * H; p++)
        for (uint32_t k = 0; k < 4; k++) {
            float want = p < POINTS ? fin[p][k] : -1.0f;
            CHECK(fbits(ftarget[p][k]) == fbits(want), "partial targets: float pixel %u[%u] = %g, want %g", p, k,
                  (double)ftarget[p][k], (double)want);
            CHECK(half[p][k] == 0x3C00u + p * 4 + k, "partial targets: unwritten half pixel %u[%u] = 0x%04x", p, k,
                  half[p][k]);
        }
}

static void expect_error(struct sb_rt_context *c, const struct sb_rt_draw *d, struct sb_rt_resource *res,
                         uint32_t n, enum sb_result want, const char *what)
{
    struct sb_error err = { 0 };
    enum sb_result r = sb_rt_draw_points(c, d, res, n, NULL, &err);
    CHECK(r == want, "%s: got %s (%s), want %s", what, sb_result_name(r), err.message, sb_result_name(want));
    CHECK(err.code == want && err.message[0], "%s: the error is not filled in", what);
    if (r == want)
        printf("%s: %s: %s\n", what, sb_result_name(r), err.message);
    check_validation(c, what);
}

static void case_errors(struct sb_rt_context *c, const struct shaders *s)
{
    static float fin[CAPTURED][4], ftarget[W * H][4];
    static uint32_t uin[CAPTURED][4], utarget[W * H][4];
    capture_inputs(fin, uin);
    struct sb_rt_vertex_stream streams[2] = {
        { input_location(s->vs_cap, "ATTR", 0), SB_RT_FORMAT_R32G32B32A32_FLOAT, fin },
        { input_location(s->vs_cap, "ATTR", 1), SB_RT_FORMAT_R32G32B32A32_UINT, uin },
    };
    struct sb_rt_draw d = {
        .vertex = s->vs_cap, .geometry = s->gs_cap, .vertex_count = CAPTURED, .stream_count = 2,
        .streams = streams, .width = W, .height = H,
    };
    expect_error(c, &d, NULL, 0, SB_ERROR_RUN_BINDING, "missing uav");
    struct sb_rt_resource wrong = { .resource_class = SB_IR_RESOURCE_UAV, .register_index = 3 };
    expect_error(c, &d, &wrong, 1, SB_ERROR_RUN_BINDING, "uav at another register");
    d.geometry = NULL;
    streams[1].format = SB_RT_FORMAT_R16G16B16A16_FLOAT;
    expect_error(c, &d, NULL, 0, SB_ERROR_RUN_UNSUPPORTED, "half-float stream");
    streams[1].format = SB_RT_FORMAT_R32G32B32A32_FLOAT;
    expect_error(c, &d, NULL, 0, SB_ERROR_RUN_BINDING, "float stream for a uint input");
    d.stream_count = 1;
    expect_error(c, &d, NULL, 0, SB_ERROR_RUN_BINDING, "missing stream");
    streams[1].format = SB_RT_FORMAT_R32G32B32A32_UINT;
    d.stream_count = 2;

    struct sb_rt_vertex_stream attr[2] = {
        { input_location(s->vs_attr, "ATTR", 0), SB_RT_FORMAT_R32G32B32A32_FLOAT, fin },
        { input_location(s->vs_attr, "ATTR", 1), SB_RT_FORMAT_R32G32B32A32_UINT, uin },
    };
    struct sb_rt_color_target targets[2] = {
        { 0, SB_RT_FORMAT_R32G32B32A32_UINT, utarget },
        { 1, SB_RT_FORMAT_D16_UNORM, ftarget }, /* depth formats are never colour targets */
    };
    struct sb_rt_draw g = {
        .vertex = s->vs_attr, .pixel = s->ps_attr, .vertex_count = CAPTURED, .stream_count = 2, .streams = attr,
        .width = W, .height = H, .target_count = 2, .targets = targets,
    };
    expect_error(c, &g, NULL, 0, SB_ERROR_RUN_UNSUPPORTED, "d16_unorm target");
    targets[1].format = SB_RT_FORMAT_R32G32B32A32_UINT;
    expect_error(c, &g, NULL, 0, SB_ERROR_RUN_BINDING, "uint target for a float output");
    targets[1].format = SB_RT_FORMAT_R8G8B8A8_UNORM;
    targets[1].location = 0;
    expect_error(c, &g, NULL, 0, SB_ERROR_INVALID_ARGUMENT, "two targets at one location");
    targets[1].location = 1;
    g.pixel = s->vs_attr;
    expect_error(c, &g, NULL, 0, SB_ERROR_INVALID_ARGUMENT, "a vertex shader as the pixel stage");
    g.pixel = s->ps_attr;
    g.width = 0;
    expect_error(c, &g, NULL, 0, SB_ERROR_INVALID_ARGUMENT, "empty framebuffer");
    g.width = W;
    static float depth[W * H];
    for (uint32_t p = 0; p < W * H; p++)
        depth[p] = p == 5 ? 1.5f : 0.5f;
    g.depth = depth;
    expect_error(c, &g, NULL, 0, SB_ERROR_INVALID_ARGUMENT, "depth texel outside [0, 1]");
    g.depth = NULL;
    /* After all that the same draw works, into an unorm target this time. */
    memset(ftarget, 0, sizeof(ftarget));
    fin[0][0] = 0.2f; /* 0.2 * 255 = 51.0000008: no rounding tie */
    if (draw_ok(c, &g, NULL, 0, "after errors")) {
        const uint8_t *unorm = (const uint8_t *)ftarget;
        /* fin[0] = (0.2, 1.5, 2.5, 3.5): 51, then saturated to 255. */
        CHECK(unorm[0] == 51 && unorm[1] == 255 && unorm[2] == 255 && unorm[3] == 255,
              "after errors: unorm pixel 0 = %u %u %u %u, want 51 255 255 255", unorm[0], unorm[1], unorm[2],
              unorm[3]);
        CHECK(utarget[1][2] == uin[1][2], "after errors: uint pixel 1.z = %u, want %u", utarget[1][2], uin[1][2]);
    }

    struct sb_rt_context *cpu = NULL;
    struct sb_error err = { 0 };
    struct sb_rt_context_options o = { .cpu_only = true };
    if (sb_rt_context_create(&o, &cpu, &err) == SB_SUCCESS) {
        expect_error(cpu, &g, NULL, 0, SB_ERROR_NO_DEVICE, "cpu-only context");
        sb_rt_context_destroy(cpu);
    }
    expect_error(c, NULL, NULL, 0, SB_ERROR_INVALID_ARGUMENT, "no draw");
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    struct sb_error err = { 0 };
    struct sb_rt_context_options o = { .validation = true };
    struct sb_rt_context *c = NULL;
    enum sb_result r = sb_rt_context_create(&o, &c, &err);
    if (r == SB_ERROR_NO_DEVICE) {
        printf("SKIPPED: no Vulkan device (%s)\n", err.message);
        return 77;
    }
    if (r != SB_SUCCESS) {
        fprintf(stderr, "context: %s: %s\n", sb_result_name(r), err.message);
        return 1;
    }
    printf("device: %s\n", sb_rt_context_device_name(c));
    pin_driver();
    struct shaders s = {
        .vs_attr = translate(build_vs_attributes, SB_TRANSLATE_DEBUG_INFO, "vs attributes"),
        .ps_attr = translate(build_ps_attributes, 0, "ps attributes"),
        .vs_depth = translate(build_vs_depth, 0, "vs depth"),
        .ps_depth = translate(build_ps_depth, 0, "ps depth"),
        .vs_cap = translate(build_vs_capture_plain, 0, "vs capture"),
        .vs_store = translate(build_vs_capture_store, 0, "vs store"),
        .gs_cap = translate(build_gs_capture, 0, "gs capture"),
        .gs_share = translate(build_gs_share, 0, "gs share"),
        .gs_u1_moved = translate_moved(build_gs_share, 0, &(struct sb_binding_override){ SB_IR_RESOURCE_UAV, 0, 1,
                                                                                          0, 170, 234 }, "gs u1 moved"),
        .gs_u0_on_u1 = translate_moved(build_gs_share, 0, &(struct sb_binding_override){ SB_IR_RESOURCE_UAV, 0, 0,
                                                                                          0, 161, 225 }, "gs u0 on u1"),
    };
    if (s.vs_attr && s.ps_attr)
        case_attributes(c, &s);
    if (s.vs_depth && s.ps_depth)
        case_depth(c, &s);
    if (s.vs_cap && s.gs_cap)
        case_capture_gs(c, &s);
    if (s.vs_store)
        case_capture_vs(c, &s);
    if (s.vs_store && s.gs_share && s.gs_u1_moved && s.gs_u0_on_u1)
        case_capture_shared(c, &s);
    if (s.vs_attr && s.ps_attr)
        case_partial_targets(c, &s);
    if (s.vs_cap && s.gs_cap && s.vs_attr && s.ps_attr)
        case_errors(c, &s);
    printf("runtime draw: %d checks, %d failures, %u validation errors\n", checks, failures,
           sb_rt_context_validation_errors(c));
    struct sb_translation *all[] = { s.vs_attr, s.ps_attr, s.vs_depth, s.ps_depth, s.vs_cap, s.vs_store, s.gs_cap,
                                     s.gs_share, s.gs_u1_moved, s.gs_u0_on_u1 };
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        sb_translation_destroy(all[i]);
    sb_rt_context_destroy(c);
    return failures ? 1 : 0;
}
