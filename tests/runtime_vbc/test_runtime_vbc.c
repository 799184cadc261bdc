/* SPDX-License-Identifier: MIT */
/*
 * sb_rt_vbc_draw on lavapipe under the validation layer: VBC files made by
 * the project's test writer (tests/vbc/vbc_writer.h) from GLSL written the
 * way vslc generates it (glsl/, compiled by glslang at build time), drawn
 * through the engine's layout, and their targets compared exactly.
 *
 *  1. solid: a full-screen triangle whose position offset, float4 colour and
 *     uint4 tag all come from the scalar-layout uniform block (colour at byte
 *     8, where std140 would not put it): every pixel of an 8x8 float target
 *     equals the colour and every pixel of the uint target the tag.
 *  2. quad: a triangle strip covering a 4x4 framebuffer samples two 4x4
 *     textures (nearest) through slots 0 and 3 (low half of push word 0, high
 *     half of word 1) into two targets: an R8G8B8A8_UNORM texture into an
 *     UNORM target and a float texture into a float target, each exactly
 *     equal; a declared but unused slot (stage mask 0) stays unbound.
 *  3. flat: three flat-shaded triangles on an 8x8 framebuffer whose edges run
 *     through pixel centres; the expected coverage is computed here from
 *     Vulkan's rules (sample at the pixel centre, top-left rule for samples
 *     on an edge) and both targets (float colour, R32_UINT tag) must match it
 *     exactly, the uncovered pixels keeping their loaded texels.
 *  4. samples/textured_quad.vbc: drawn with an identity mvp over a 4x4
 *     texture: a non-empty image equal to the texture on a device with
 *     descriptor indexing; on one without (lavapipe 22.3) its default tables
 *     (8192 samplers) exceed the core limits: SB_ERROR_RUN_UNSUPPORTED saying
 *     so, and nothing else goes wrong.
 *  5. errors: a used slot without a binding, a binding for an undeclared
 *     slot, the wrong target count, a target of the wrong type, a missing
 *     stream, a stream of the wrong type, a uniform of the wrong size, a
 *     texture of the wrong dimension (SB_ERROR_RUN_BINDING); a bad topology
 *     (SB_ERROR_INVALID_ARGUMENT); subpass inputs and tessellation/geometry
 *     stages (SB_ERROR_RUN_UNSUPPORTED); a CPU-only context
 *     (SB_ERROR_NO_DEVICE); then a good draw still works.
 * Every case must leave zero validation-layer errors.
 *
 * Usage: test_runtime_vbc SPV_DIR VBC_TEST_SPV_DIR TEXTURED_QUAD_VBC.
 * Exit 0 pass, 1 fail, 77 no Vulkan device or no compiled shaders.
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/runtime.h"
#include "shaderbridge/vbc.h"
#include "vbc_writer.h"

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

enum { F = SB_VBC_BASE_TYPE_FLOAT, U = SB_VBC_BASE_TYPE_UNSIGNED, VERT = 0x01, FRAG = 0x10 };

/* Keeps lavapipe loaded after the context is gone (see tests/runtime/test_runtime_dispatch.c). */
static void pin_driver(void)
{
    (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD);
}

static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *bytes = NULL;
    long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (n > 0 && fseek(f, 0, SEEK_SET) == 0 && (bytes = malloc((size_t)n)) &&
        fread(bytes, 1, (size_t)n, f) != (size_t)n) {
        free(bytes);
        bytes = NULL;
    }
    fclose(f);
    *size = n > 0 ? (size_t)n : 0;
    return bytes;
}

/* The compiled shaders of glsl/, by name. */
enum module { SOLID_VERT, SOLID_FRAG, QUAD_VERT, QUAD_FRAG, FLAT_VERT, FLAT_FRAG, MODULES };
static const char *const module_names[MODULES] = {
    "solid.vert", "solid.frag", "quad.vert", "quad.frag", "flat.vert", "flat.frag"
};
static struct vw_blob modules[MODULES];

static bool load_modules(const char *dir)
{
    for (int i = 0; i < MODULES; i++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s.spv", dir, module_names[i]);
        size_t size = 0;
        uint8_t *bytes = read_file(path, &size);
        if (!bytes || size % 4) {
            fprintf(stderr, "cannot read %s\n", path);
            free(bytes);
            return false;
        }
        modules[i] = (struct vw_blob){ bytes, size };
    }
    return true;
}

/*
 * The table sizes of this test's files, as `vslc -Tsamplers=16 -Timages=8 ...` writes them
 * (glsl/quad.frag declares the sampler table with 16 elements to match): within every
 * device's core per-stage limits, so they run on lavapipe, which lacks the descriptor
 * indexing the engine's default 8192-sampler tables need (case 4).
 */
static const uint16_t small_tables[SB_VBC_TABLE_COUNT] = { 16, 8, 8, 8, 8 };

/* Writes a spec with the test writer and parses it back. */
static struct sb_vbc *make_vbc(const struct vw_spec *spec)
{
    size_t size = 0;
    uint8_t *bytes = vw_write(spec, &size, NULL);
    struct sb_vbc *vbc = NULL;
    struct sb_error err = { 0 };
    enum sb_result r = bytes ? sb_vbc_parse(bytes, size, &vbc, &err) : SB_ERROR_OUT_OF_MEMORY;
    CHECK(r == SB_SUCCESS, "%s: parse: %s: %s", spec->name, sb_result_name(r), err.message);
    free(bytes);
    return vbc;
}

static struct sb_vbc *make_solid(void)
{
    struct vw_spec s;
    vw_spec_init(&s, "solid");
    memcpy(s.table_sizes, small_tables, sizeof(small_tables));
    s.blobs[SB_VBC_STAGE_VERTEX] = modules[SOLID_VERT];
    s.blobs[SB_VBC_STAGE_FRAGMENT] = modules[SOLID_FRAG];
    s.input_count = 1;
    s.inputs[0] = (struct vw_var){ 0, F, { 2, 1 }, 1, 1 };
    s.output_count = 2;
    s.outputs[0] = (struct vw_var){ 0, F, { 4, 1 }, 1, 1 };
    s.outputs[1] = (struct vw_var){ 1, U, { 4, 1 }, 1, 1 };
    s.uniform_size = 40;
    s.uniform_stage_mask = VERT | FRAG;
    s.member_count = 3;
    s.members[0] = (struct vw_member){ "offset", 0, F, { 2, 1 }, 1 };
    s.members[1] = (struct vw_member){ "color", 8, F, { 4, 1 }, 1 };
    s.members[2] = (struct vw_member){ "tag", 24, U, { 4, 1 }, 1 };
    return make_vbc(&s);
}

static struct sb_vbc *make_quad(void)
{
    struct vw_spec s;
    vw_spec_init(&s, "quad");
    memcpy(s.table_sizes, small_tables, sizeof(small_tables));
    s.blobs[SB_VBC_STAGE_VERTEX] = modules[QUAD_VERT];
    s.blobs[SB_VBC_STAGE_FRAGMENT] = modules[QUAD_FRAG];
    s.input_count = 2;
    s.inputs[0] = (struct vw_var){ 0, F, { 2, 1 }, 1, 1 };
    s.inputs[1] = (struct vw_var){ 1, F, { 2, 1 }, 1, 1 };
    s.output_count = 2;
    s.outputs[0] = (struct vw_var){ 0, F, { 4, 1 }, 1, 1 };
    s.outputs[1] = (struct vw_var){ 1, F, { 4, 1 }, 1, 1 };
    s.binding_count = 3;
    /* slot, base type, stages, rank 2D, texel float, 4 bytes, 4 components */
    s.bindings[0] = (struct vw_binding){ 0, SB_VBC_BASE_TYPE_SAMPLER, FRAG, 1, 2, 4, 4, 0,
                                         SB_VBC_BINDING_SAMPLER_2D };
    s.bindings[1] = (struct vw_binding){ 3, SB_VBC_BASE_TYPE_SAMPLER, FRAG, 1, 2, 4, 4, 0,
                                         SB_VBC_BINDING_SAMPLER_2D };
    /* declared, never used: its table (buffers) is filled with defaults, the slot unbound */
    s.bindings[2] = (struct vw_binding){ 1, SB_VBC_BASE_TYPE_RO_BUFFER, 0, 0, 0, 0, 0, 16,
                                         SB_VBC_BINDING_RO_BUFFER };
    return make_vbc(&s);
}

static struct sb_vbc *make_flat(void)
{
    struct vw_spec s;
    vw_spec_init(&s, "flat");
    memcpy(s.table_sizes, small_tables, sizeof(small_tables));
    s.blobs[SB_VBC_STAGE_VERTEX] = modules[FLAT_VERT];
    s.blobs[SB_VBC_STAGE_FRAGMENT] = modules[FLAT_FRAG];
    s.input_count = 3;
    s.inputs[0] = (struct vw_var){ 0, F, { 2, 1 }, 1, 1 };
    s.inputs[1] = (struct vw_var){ 1, F, { 4, 1 }, 1, 1 };
    s.inputs[2] = (struct vw_var){ 2, U, { 1, 1 }, 1, 1 };
    s.output_count = 2;
    s.outputs[0] = (struct vw_var){ 0, F, { 4, 1 }, 1, 1 };
    s.outputs[1] = (struct vw_var){ 1, U, { 1, 1 }, 1, 1 };
    return make_vbc(&s);
}

static bool draw_ok(struct sb_rt_context *c, const struct sb_rt_vbc_draw *d, const char *what)
{
    struct sb_error err = { 0 };
    struct sb_rt_timing t;
    enum sb_result r = sb_rt_vbc_draw(c, d, &t, &err);
    CHECK(r == SB_SUCCESS, "%s: %s: %s", what, sb_result_name(r), err.message);
    return r == SB_SUCCESS;
}

/* ---- 1. solid ---------------------------------------------------------------------------------- */

#define SW 8
#define SH 8

struct solid_uniform {
    float offset[2], color[4];
    uint32_t tag[4];
};

/* The draw of case 1 over caller-owned targets (also the base of several error cases). */
struct solid_draw {
    struct solid_uniform uniform;
    float pos[3][2];
    struct sb_rt_vertex_stream stream;
    float color[SW * SH][4];
    uint32_t tag[SW * SH][4];
    struct sb_rt_color_target targets[2];
    struct sb_rt_vbc_draw d;
};

static void solid_setup(struct solid_draw *s, const struct sb_vbc *vbc)
{
    memset(s, 0, sizeof(*s));
    s->uniform = (struct solid_uniform){ { 0.25f, -0.5f }, { 0.25f, 0.5f, 0.75f, 1.0f },
                                         { 1, 0xdeadbeefu, 7, 0x80000000u } };
    /* A triangle covering the whole framebuffer once the uniform offset is added. */
    const float corners[3][2] = { { -1.0f, -1.0f }, { 3.0f, -1.0f }, { -1.0f, 3.0f } };
    for (int i = 0; i < 3; i++) {
        s->pos[i][0] = corners[i][0] - s->uniform.offset[0];
        s->pos[i][1] = corners[i][1] - s->uniform.offset[1];
    }
    for (int p = 0; p < SW * SH; p++)
        for (int k = 0; k < 4; k++) {
            s->color[p][k] = -1.0f;
            s->tag[p][k] = 0x55555555u;
        }
    s->stream = (struct sb_rt_vertex_stream){ 0, SB_RT_FORMAT_R32G32_FLOAT, s->pos };
    s->targets[0] = (struct sb_rt_color_target){ 0, SB_RT_FORMAT_R32G32B32A32_FLOAT, s->color };
    s->targets[1] = (struct sb_rt_color_target){ 1, SB_RT_FORMAT_R32G32B32A32_UINT, s->tag };
    s->d = (struct sb_rt_vbc_draw){
        .vbc = vbc, .topology = 3 /* TRIANGLE_LIST */, .vertex_count = 3, .stream_count = 1,
        .streams = &s->stream, .width = SW, .height = SH, .target_count = 2, .targets = s->targets,
        .uniform = &s->uniform, .uniform_size = sizeof(s->uniform),
    };
}

static void case_solid(struct sb_rt_context *c, const struct sb_vbc *vbc)
{
    static struct solid_draw s;
    solid_setup(&s, vbc);
    if (!draw_ok(c, &s.d, "solid"))
        return;
    int bad = 0;
    for (int p = 0; p < SW * SH; p++)
        bad += memcmp(s.color[p], s.uniform.color, 16) != 0 || memcmp(s.tag[p], s.uniform.tag, 16) != 0;
    CHECK(bad == 0, "solid: %d of %d pixels differ from the uniform (pixel 0: %g %g %g %g / %x %x %x %x)", bad,
          SW * SH, s.color[0][0], s.color[0][1], s.color[0][2], s.color[0][3], s.tag[0][0], s.tag[0][1],
          s.tag[0][2], s.tag[0][3]);
}

/* ---- 2. quad ----------------------------------------------------------------------------------- */

#define QW 4
#define QH 4

static struct sb_rt_resource texture_2d(uint32_t format, void *data, size_t size)
{
    struct sb_rt_resource r = {
        .resource_class = 1, .data = data, .size = size, .format = format, .dimension = 3 /* texture2d */,
        .width = QW, .height = QH, .depth = 1, .layers = 1, .mip_levels = 1, .sample_count = 1,
    };
    r.sampler.address[0] = r.sampler.address[1] = r.sampler.address[2] = SB_RT_ADDRESS_CLAMP_TO_EDGE;
    return r; /* filters 0: nearest */
}

/* A full-screen strip: float2 position and float2 uv (v = 0 at the top row). */
static const float quad_pos[4][2] = { { -1, -1 }, { 1, -1 }, { -1, 1 }, { 1, 1 } };
static const float quad_uv[4][2] = { { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 } };

struct quad_draw {
    uint8_t unorm[QW * QH][4];
    float floats[QW * QH][4];
    struct sb_rt_resource tex[2];
    struct sb_rt_vbc_binding bindings[2];
    struct sb_rt_vertex_stream streams[2];
    uint8_t out0[QW * QH][4];
    float out1[QW * QH][4];
    struct sb_rt_color_target targets[2];
    struct sb_rt_vbc_draw d;
};

static void quad_setup(struct quad_draw *q, const struct sb_vbc *vbc)
{
    memset(q, 0, sizeof(*q));
    for (int p = 0; p < QW * QH; p++)
        for (int k = 0; k < 4; k++) {
            q->unorm[p][k] = (uint8_t)(p * 16 + k * 5 + 3);
            q->floats[p][k] = (float)(p * 4 + k) * 0.125f - 3.0f;
            q->out0[p][k] = 0xAA;
            q->out1[p][k] = 42.0f;
        }
    q->tex[0] = texture_2d(SB_RT_FORMAT_R8G8B8A8_UNORM, q->unorm, sizeof(q->unorm));
    q->tex[1] = texture_2d(SB_RT_FORMAT_R32G32B32A32_FLOAT, q->floats, sizeof(q->floats));
    q->bindings[0] = (struct sb_rt_vbc_binding){ 3, &q->tex[1] };
    q->bindings[1] = (struct sb_rt_vbc_binding){ 0, &q->tex[0] };
    q->streams[0] = (struct sb_rt_vertex_stream){ 1, SB_RT_FORMAT_R32G32_FLOAT, quad_uv };
    q->streams[1] = (struct sb_rt_vertex_stream){ 0, SB_RT_FORMAT_R32G32_FLOAT, quad_pos };
    q->targets[0] = (struct sb_rt_color_target){ 0, SB_RT_FORMAT_R8G8B8A8_UNORM, q->out0 };
    q->targets[1] = (struct sb_rt_color_target){ 1, SB_RT_FORMAT_R32G32B32A32_FLOAT, q->out1 };
    q->d = (struct sb_rt_vbc_draw){
        .vbc = vbc, .topology = 4 /* TRIANGLE_STRIP */, .vertex_count = 4, .stream_count = 2,
        .streams = q->streams, .width = QW, .height = QH, .target_count = 2, .targets = q->targets,
        .binding_count = 2, .bindings = q->bindings,
    };
}

static void case_quad(struct sb_rt_context *c, const struct sb_vbc *vbc)
{
    static struct quad_draw q;
    quad_setup(&q, vbc);
    if (!draw_ok(c, &q.d, "quad"))
        return;
    CHECK(memcmp(q.out0, q.unorm, sizeof(q.unorm)) == 0, "quad: slot 0 target differs from its texture "
          "(texel 5: %u %u %u %u, want %u %u %u %u)", q.out0[5][0], q.out0[5][1], q.out0[5][2], q.out0[5][3],
          q.unorm[5][0], q.unorm[5][1], q.unorm[5][2], q.unorm[5][3]);
    CHECK(memcmp(q.out1, q.floats, sizeof(q.floats)) == 0, "quad: slot 3 target differs from its texture "
          "(texel 5: %g %g %g %g, want %g %g %g %g)", q.out1[5][0], q.out1[5][1], q.out1[5][2], q.out1[5][3],
          q.floats[5][0], q.floats[5][1], q.floats[5][2], q.floats[5][3]);
}

/* ---- 3. flat triangles and the rasterisation rules ------------------------------------------ */

#define FW 8
#define FH 8
#define TRIS 3

/* Vertices in framebuffer pixels (multiples of 0.5: exact everywhere), with a colour and tag per triangle. */
static const float tri_fb[TRIS][3][2] = {
    { { 1.5f, 0.5f }, { 7.5f, 0.5f }, { 1.5f, 6.5f } }, /* top and left edges through centres */
    { { 7.5f, 0.5f }, { 7.5f, 6.5f }, { 1.5f, 6.5f } }, /* shares the diagonal; right and bottom edges */
    { { 0.0f, 6.0f }, { 1.0f, 8.0f }, { 0.0f, 8.0f } }, /* a slanted edge between centres */
};
static const float tri_color[TRIS][4] = { { 1, 0, 0, 1 }, { 0, 0.5f, 1, 0.25f }, { 0.125f, 0.75f, 0, 1 } };
static const uint32_t tri_tag[TRIS] = { 0x11, 0x2222, 0x333333 };

static int64_t cross2(int64_t ax, int64_t ay, int64_t bx, int64_t by)
{
    return ax * by - ay * bx;
}

/*
 * Whether the centre of pixel (x, y) is in triangle t: every edge function has the sign of
 * the area, or is zero on a top edge (horizontal, the interior below it: y grows downwards)
 * or a left edge (the interior to its right). In half-pixel units everything is an integer.
 */
static bool covers(int t, int x, int y)
{
    int64_t v[3][2];
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 2; k++)
            v[i][k] = (int64_t)(tri_fb[t][i][k] * 2.0f);
    int64_t px = 2 * x + 1, py = 2 * y + 1;
    int64_t area = cross2(v[1][0] - v[0][0], v[1][1] - v[0][1], v[2][0] - v[0][0], v[2][1] - v[0][1]);
    if (area == 0)
        return false;
    for (int e = 0; e < 3; e++) {
        const int64_t *u = v[e], *w = v[(e + 1) % 3], *o = v[(e + 2) % 3];
        int64_t ep = cross2(w[0] - u[0], w[1] - u[1], px - u[0], py - u[1]);
        int64_t eo = cross2(w[0] - u[0], w[1] - u[1], o[0] - u[0], o[1] - u[1]);
        if (ep != 0 && (ep > 0) != (area > 0))
            return false;
        if (ep == 0) {
            bool top = u[1] == w[1] && o[1] > u[1];
            bool left = u[1] != w[1] && eo * (w[1] - u[1]) < 0;
            if (!top && !left)
                return false;
        }
    }
    return true;
}

static void case_flat(struct sb_rt_context *c, const struct sb_vbc *vbc)
{
    static float pos[TRIS * 3][2], color[TRIS * 3][4], out_color[FW * FH][4], want_color[FW * FH][4];
    static uint32_t tag[TRIS * 3], out_tag[FW * FH], want_tag[FW * FH];
    for (int t = 0; t < TRIS; t++)
        for (int i = 0; i < 3; i++) {
            pos[t * 3 + i][0] = tri_fb[t][i][0] * 2.0f / FW - 1.0f;
            pos[t * 3 + i][1] = tri_fb[t][i][1] * 2.0f / FH - 1.0f;
            memcpy(color[t * 3 + i], tri_color[t], 16);
            tag[t * 3 + i] = tri_tag[t];
        }
    int covered = 0;
    for (int p = 0; p < FW * FH; p++) {
        for (int k = 0; k < 4; k++)
            out_color[p][k] = want_color[p][k] = 0.5f;
        out_tag[p] = want_tag[p] = 0xC1EA2u;
        for (int t = 0; t < TRIS; t++)
            if (covers(t, p % FW, p / FW)) {
                memcpy(want_color[p], tri_color[t], 16);
                want_tag[p] = tri_tag[t];
                covered++;
            }
    }
    CHECK(covered > 20 && covered < FW * FH, "flat: the expected image covers %d pixels", covered);
    struct sb_rt_vertex_stream streams[3] = {
        { 2, SB_RT_FORMAT_R32_UINT, tag },
        { 0, SB_RT_FORMAT_R32G32_FLOAT, pos },
        { 1, SB_RT_FORMAT_R32G32B32A32_FLOAT, color },
    };
    struct sb_rt_color_target targets[2] = {
        { 0, SB_RT_FORMAT_R32G32B32A32_FLOAT, out_color },
        { 1, SB_RT_FORMAT_R32_UINT, out_tag },
    };
    struct sb_rt_vbc_draw d = {
        .vbc = vbc, .topology = 3, .vertex_count = TRIS * 3, .stream_count = 3, .streams = streams,
        .width = FW, .height = FH, .target_count = 2, .targets = targets,
    };
    if (!draw_ok(c, &d, "flat"))
        return;
    char got[FH][FW + 1], want[FH][FW + 1];
    int bad = 0;
    for (int p = 0; p < FW * FH; p++) {
        bool same = memcmp(out_color[p], want_color[p], 16) == 0 && out_tag[p] == want_tag[p];
        bad += !same;
        char g = '.', w = '.';
        for (int t = 0; t < TRIS; t++) {
            g = out_tag[p] == tri_tag[t] ? (char)('A' + t) : g;
            w = want_tag[p] == tri_tag[t] ? (char)('A' + t) : w;
        }
        got[p / FW][p % FW] = same ? g : '#';
        want[p / FW][p % FW] = w;
    }
    CHECK(bad == 0, "flat: %d pixels differ from Vulkan's rules", bad);
    if (bad)
        for (int y = 0; y < FH; y++) {
            got[y][FW] = want[y][FW] = 0;
            fprintf(stderr, "  got %s   want %s\n", got[y], want[y]);
        }
}

/* ---- 4. the bundled sample --------------------------------------------------------------------- */

static void case_sample(struct sb_rt_context *c, const char *path)
{
    size_t size = 0;
    uint8_t *bytes = read_file(path, &size);
    CHECK(bytes != NULL, "cannot read %s", path);
    struct sb_vbc *vbc = NULL;
    struct sb_error err = { 0 };
    enum sb_result r = bytes ? sb_vbc_parse(bytes, size, &vbc, &err) : SB_ERROR_INVALID_ARGUMENT;
    free(bytes);
    CHECK(r == SB_SUCCESS, "sample: parse: %s: %s", sb_result_name(r), err.message);
    if (r != SB_SUCCESS)
        return;
    /* float3 position (w of the float4 stream ignored), float2 uv, mvp = identity. */
    static const float pos[4][4] = { { -1, -1, 0, 9 }, { 1, -1, 0, 9 }, { -1, 1, 0, 9 }, { 1, 1, 0, 9 } };
    static const float mvp[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
    static uint8_t texels[QW * QH][4], out[QW * QH][4];
    for (int p = 0; p < QW * QH; p++)
        for (int k = 0; k < 4; k++) {
            texels[p][k] = (uint8_t)(255 - p * 9 - k * 31);
            out[p][k] = 0;
        }
    struct sb_rt_resource tex = texture_2d(SB_RT_FORMAT_R8G8B8A8_UNORM, texels, sizeof(texels));
    struct sb_rt_vbc_binding binding = { 0, &tex };
    struct sb_rt_vertex_stream streams[2] = {
        { 0, SB_RT_FORMAT_R32G32B32A32_FLOAT, pos },
        { 1, SB_RT_FORMAT_R32G32_FLOAT, quad_uv },
    };
    struct sb_rt_color_target target = { 0, SB_RT_FORMAT_R8G8B8A8_UNORM, out };
    struct sb_rt_vbc_draw d = {
        .vbc = vbc, .topology = 4, .vertex_count = 4, .stream_count = 2, .streams = streams, .width = QW,
        .height = QH, .target_count = 1, .targets = &target, .uniform = mvp, .uniform_size = sizeof(mvp),
        .binding_count = 1, .bindings = &binding,
    };
    r = sb_rt_vbc_draw(c, &d, NULL, &err);
    if (r == SB_ERROR_RUN_UNSUPPORTED) {
        /* The engine's default tables: only a device with descriptor indexing takes them. */
        CHECK(strstr(err.message, "8192 samplers per stage") != NULL, "sample: %s", err.message);
        printf("  sample: %s: %s\n", sb_result_name(r), err.message);
    } else {
        CHECK(r == SB_SUCCESS, "sample: %s: %s", sb_result_name(r), err.message);
    }
    if (r == SB_SUCCESS) {
        int lit = 0;
        for (int p = 0; p < QW * QH; p++)
            lit += out[p][0] || out[p][1] || out[p][2] || out[p][3];
        CHECK(lit == QW * QH, "sample: %d of %d pixels written", lit, QW * QH);
        CHECK(memcmp(out, texels, sizeof(out)) == 0, "sample: the image differs from the texture "
              "(texel 0: %u %u %u %u)", out[0][0], out[0][1], out[0][2], out[0][3]);
    }
    sb_vbc_destroy(vbc);
}

/* ---- 5. errors --------------------------------------------------------------------------------- */

static void expect(struct sb_rt_context *c, const struct sb_rt_vbc_draw *d, enum sb_result want, const char *what)
{
    struct sb_error err = { 0 };
    enum sb_result r = sb_rt_vbc_draw(c, d, NULL, &err);
    CHECK(r == want && err.code == want && err.message[0], "%s: got %s (%s), want %s", what, sb_result_name(r),
          err.message, sb_result_name(want));
    if (r == want)
        printf("  %-28s %s: %s\n", what, sb_result_name(r), err.message);
}

static void case_errors(struct sb_rt_context *c, const struct sb_vbc *solid, const struct sb_vbc *quad)
{
    static struct solid_draw s;
    static struct quad_draw q;
    quad_setup(&q, quad);
    q.d.binding_count = 1; /* slot 3 only */
    expect(c, &q.d, SB_ERROR_RUN_BINDING, "missing slot 0");
    quad_setup(&q, quad);
    q.bindings[0].slot = 5;
    expect(c, &q.d, SB_ERROR_RUN_BINDING, "undeclared slot 5");
    quad_setup(&q, quad);
    q.bindings[0].slot = 0;
    expect(c, &q.d, SB_ERROR_INVALID_ARGUMENT, "slot 0 twice");
    quad_setup(&q, quad);
    q.tex[0].dimension = 8; /* texture2darray for a Sampler2D */
    expect(c, &q.d, SB_ERROR_RUN_BINDING, "wrong texture dimension");
    quad_setup(&q, quad);
    q.tex[1].format = SB_RT_FORMAT_R32G32B32A32_UINT;
    expect(c, &q.d, SB_ERROR_RUN_BINDING, "uint texture for float");

    solid_setup(&s, solid);
    s.d.target_count = 1;
    expect(c, &s.d, SB_ERROR_RUN_BINDING, "one target for two");
    solid_setup(&s, solid);
    s.targets[1].format = SB_RT_FORMAT_R32G32B32A32_FLOAT;
    expect(c, &s.d, SB_ERROR_RUN_BINDING, "float target for uint");
    solid_setup(&s, solid);
    s.targets[1].location = 2;
    expect(c, &s.d, SB_ERROR_RUN_BINDING, "target location");
    solid_setup(&s, solid);
    s.d.stream_count = 0;
    expect(c, &s.d, SB_ERROR_RUN_BINDING, "missing stream");
    solid_setup(&s, solid);
    s.stream.format = SB_RT_FORMAT_R32G32_UINT;
    expect(c, &s.d, SB_ERROR_RUN_BINDING, "uint stream for float");
    solid_setup(&s, solid);
    s.stream.format = SB_RT_FORMAT_R32_FLOAT;
    expect(c, &s.d, SB_ERROR_RUN_BINDING, "1-component stream for float2");
    solid_setup(&s, solid);
    s.d.uniform_size = 32;
    expect(c, &s.d, SB_ERROR_RUN_BINDING, "uniform size");
    solid_setup(&s, solid);
    s.d.uniform = NULL;
    expect(c, &s.d, SB_ERROR_RUN_BINDING, "uniform NULL");
    solid_setup(&s, solid);
    s.d.topology = 9;
    expect(c, &s.d, SB_ERROR_INVALID_ARGUMENT, "topology 9");
    solid_setup(&s, solid);
    s.d.width = 0;
    expect(c, &s.d, SB_ERROR_INVALID_ARGUMENT, "width 0");
    solid_setup(&s, solid);
    s.d.vbc = NULL;
    expect(c, &s.d, SB_ERROR_INVALID_ARGUMENT, "no vbc");
}

/* Subpass inputs and tessellation / geometry stages, from tests/vbc's own shaders. */
static void case_unsupported(struct sb_rt_context *c, const char *vbc_spv_dir)
{
    struct vw_modules m;
    if (!vw_modules_load(&m, vbc_spv_dir)) {
        CHECK(false, "cannot load tests/vbc's modules from %s", vbc_spv_dir);
        return;
    }
    struct vw_spec spec;
    vw_spec_subpass(&spec, &m, 1);
    struct sb_vbc *subpass = make_vbc(&spec);
    vw_spec_full(&spec, &m);
    struct sb_vbc *full = make_vbc(&spec);
    struct sb_rt_vbc_draw d = { .vbc = subpass, .topology = 3, .vertex_count = 3, .width = 4, .height = 4 };
    if (subpass)
        expect(c, &d, SB_ERROR_RUN_UNSUPPORTED, "subpass inputs");
    d.vbc = full;
    if (full)
        expect(c, &d, SB_ERROR_RUN_UNSUPPORTED, "tessellation + geometry");
    sb_vbc_destroy(subpass);
    sb_vbc_destroy(full);
    vw_modules_free(&m);
}

static void case_cpu_only(const struct sb_vbc *solid)
{
    struct sb_rt_context_options o = { .cpu_only = true };
    struct sb_rt_context *cpu = NULL;
    struct sb_error err = { 0 };
    enum sb_result r = sb_rt_context_create(&o, &cpu, &err);
    CHECK(r == SB_SUCCESS, "cpu-only context: %s", sb_result_name(r));
    static struct solid_draw s;
    solid_setup(&s, solid);
    if (r == SB_SUCCESS)
        expect(cpu, &s.d, SB_ERROR_NO_DEVICE, "cpu-only context");
    sb_rt_context_destroy(cpu);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc != 4) {
        fprintf(stderr, "usage: test_runtime_vbc SPV_DIR VBC_TEST_SPV_DIR TEXTURED_QUAD_VBC\n");
        return 1;
    }
    if (!argv[1][0]) {
        printf("SKIPPED: glslangValidator was not found at configure time\n");
        return 77;
    }
    if (!load_modules(argv[1]))
        return 1;
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
    struct sb_vbc *solid = make_solid(), *quad = make_quad(), *flat = make_flat();
    if (solid && quad && flat) {
        case_solid(c, solid);
        case_quad(c, quad);
        case_flat(c, flat);
        case_sample(c, argv[3]);
        case_errors(c, solid, quad);
        case_unsupported(c, argv[2]);
        case_cpu_only(solid);
        case_solid(c, solid); /* still works after the errors */
    }
    uint32_t validation = sb_rt_context_validation_errors(c);
    CHECK(validation == 0, "%u validation error(s), first: %s", validation, sb_rt_context_first_validation_error(c));
    printf("validation errors: %u\n", validation);
    sb_vbc_destroy(solid);
    sb_vbc_destroy(quad);
    sb_vbc_destroy(flat);
    sb_rt_context_destroy(c);
    for (int i = 0; i < MODULES; i++)
        free((void *)modules[i].bytes);
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
