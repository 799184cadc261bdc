/* SPDX-License-Identifier: MIT */
/*
 * sb_rt_dispatch on lavapipe under the validation layer: every known-answer
 * case of tests/vulkan (ka_cases.c, ka_alu.c: raw / structured / typed
 * buffers, cbuffers, sampled textures with samplers, atomics, an append
 * counter ...) goes through sb_translate and the runtime, with its buffers
 * and images described as sb_rt_resource, and the UAVs the runtime writes
 * back are compared with the values D3D's rules give (exactly, within the
 * case's ULPs, or as a multiset). Cases listed in
 * tests/vulkan/known_answer_expected_failures.tsv may fail.
 *
 * Then cases of the runtime's own: a typed 2D UAV texture written per
 * thread, a counter with a non-zero initial value that the runtime reads
 * back, and the failures the runtime must report: a missing binding
 * (SB_ERROR_RUN_BINDING), a typed buffer without a format and a
 * multisampled texture (SB_ERROR_RUN_UNSUPPORTED); and one typed buffer of every sb_rt_format
 * read with ld, so every row of the runtime's format table is used. Every case must leave
 * zero validation errors. The timings of one small dispatch are printed.
 *
 * `--optimize` translates the known-answer cases with SB_TRANSLATE_OPTIMIZE (the
 * SPIRV-Tools -O path must keep D3D's answers too) and `--target-env vulkan1.X` for another
 * target: the ctest variants runtime_dispatch_optimized / _vulkan1.0 / _vulkan1.3.
 *
 * Usage: test_runtime_dispatch EXPECTED_TSV [--optimize] [--target-env vulkan1.X].
 * Exit 0 / 1, 77 without Vulkan.
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ka_cases.h"
#include "shaderbridge/runtime.h"

/*
 * Keeps lavapipe loaded after the context is destroyed: unloading it leaves the LLVM caches
 * it built reachable from nowhere, which LeakSanitizer (SB_SANITIZE builds) reports as leaks
 * of an "<unknown module>". A no-op when that driver is not the one loaded.
 */
static void pin_driver(void)
{
    (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD);
}

struct state {
    struct sb_rt_context *c;
    const struct sb_translate_options *options; /* of the known-answer cases; NULL: the defaults */
    char expected[64][48];
    unsigned expected_count;
    unsigned passed, failed, xfailed, unexpected;
    uint32_t validation_seen;
    bool timing_printed;
};

static bool is_expected(const struct state *s, const char *name)
{
    for (unsigned i = 0; i < s->expected_count; i++)
        if (strcmp(s->expected[i], name) == 0)
            return true;
    return false;
}

static bool load_expected(struct state *s, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return false;
    }
    char line[512];
    while (fgets(line, sizeof(line), f) && s->expected_count < 64) {
        char *tab = strchr(line, '\t');
        if (line[0] == '#' || line[0] == '\n' || !tab)
            continue;
        *tab = 0;
        snprintf(s->expected[s->expected_count++], sizeof(s->expected[0]), "%.47s", line);
    }
    fclose(f);
    return true;
}

/* VkFormat values the cases use -> sb_rt_format. */
static uint32_t rt_format(uint32_t vk_format, uint32_t fallback)
{
    static const struct {
        uint32_t vk, rt;
    } rows[] = {
        { 98, SB_RT_FORMAT_R32_UINT }, { 99, SB_RT_FORMAT_R32_SINT }, { 100, SB_RT_FORMAT_R32_FLOAT },
        { 101, SB_RT_FORMAT_R32G32_UINT }, { 102, SB_RT_FORMAT_R32G32_SINT },
        { 103, SB_RT_FORMAT_R32G32_FLOAT }, { 107, SB_RT_FORMAT_R32G32B32A32_UINT },
        { 108, SB_RT_FORMAT_R32G32B32A32_SINT }, { 109, SB_RT_FORMAT_R32G32B32A32_FLOAT },
        { 97, SB_RT_FORMAT_R16G16B16A16_FLOAT }, { 37, SB_RT_FORMAT_R8G8B8A8_UNORM },
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        if (rows[i].vk == vk_format)
            return rows[i].rt;
    return vk_format ? SB_RT_FORMAT_UNDEFINED : fallback;
}

/* VkImageViewType (0 1D .. 6 CUBE_ARRAY) -> SM4 resource dimension. */
static uint32_t sm4_dimension(uint32_t view_type)
{
    static const uint32_t dims[7] = { 2, 3, 5, 6, 7, 8, 10 };
    return view_type < 7 ? dims[view_type] : 0;
}

static uint32_t data[KA_MAX_RESOURCES][KA_MAX_DWORDS];

/* The case's resources as the runtime takes them (data copied: the runtime writes UAVs back). */
static uint32_t to_resources(const struct ka_case *c, struct sb_rt_resource *out)
{
    uint32_t mips = 1;
    for (uint32_t i = 0; i < c->resource_count; i++)
        if (c->res[i].kind == KA_IMAGE && c->res[i].mips)
            mips = c->res[i].mips;
    for (uint32_t i = 0; i < c->resource_count; i++) {
        const struct ka_resource *k = &c->res[i];
        struct sb_rt_resource *r = &out[i];
        memset(r, 0, sizeof(*r));
        memcpy(data[i], k->init, sizeof(data[i]));
        r->resource_class = k->resource_class;
        r->register_index = k->reg;
        r->data = data[i];
        r->size = (size_t)k->dwords * 4;
        r->width = r->height = r->depth = r->layers = r->mip_levels = r->sample_count = 1;
        if (k->kind == KA_TEXEL_BUFFER) {
            r->dimension = 1;
            r->format = rt_format(k->format, SB_RT_FORMAT_R32_UINT);
            r->width = (uint32_t)(r->size / sb_rt_format_size((enum sb_rt_format)r->format));
        } else if (k->kind == KA_IMAGE) {
            r->dimension = sm4_dimension(k->view_type);
            r->format = rt_format(k->format, SB_RT_FORMAT_R32G32B32A32_FLOAT);
            r->width = k->width;
            r->height = k->height;
            r->depth = k->depth ? k->depth : 1;
            r->layers = k->layers ? k->layers : 1;
            r->mip_levels = k->mips ? k->mips : 1;
        } else if (k->kind == KA_SAMPLER) {
            /* tests/vulkan's harness samples with nearest / clamp-to-edge over every mip. */
            r->sampler = (struct sb_rt_sampler){
                .address = { SB_RT_ADDRESS_CLAMP_TO_EDGE, SB_RT_ADDRESS_CLAMP_TO_EDGE,
                             SB_RT_ADDRESS_CLAMP_TO_EDGE },
                .max_lod = (float)mips,
            };
        }
    }
    return c->resource_count;
}

static bool is_nan(uint32_t u) { return (u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu); }

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static uint32_t ulps(uint32_t a, uint32_t b)
{
    if ((a ^ b) & 0x80000000u)
        return (a & 0x7fffffffu) == 0 && (b & 0x7fffffffu) == 0 ? 0 : UINT32_MAX;
    return a > b ? a - b : b - a;
}

/* Mismatching dwords of one checked resource (first few printed). */
static unsigned compare(const struct ka_case *c, const struct ka_resource *k, const uint32_t *got)
{
    static uint32_t a[KA_MAX_DWORDS], b[KA_MAX_DWORDS];
    uint32_t n = k->check_count;
    memcpy(a, got + k->check_from, n * 4);
    memcpy(b, k->expect + k->check_from, n * 4);
    if (k->compare == KA_MULTISET) {
        qsort(a, n, 4, cmp_u32);
        qsort(b, n, 4, cmp_u32);
    }
    unsigned bad = 0;
    for (uint32_t i = 0; i < n; i++) {
        bool ok = a[i] == b[i] || (is_nan(b[i]) && is_nan(a[i])) ||
                  (k->compare == KA_ULPS && ulps(a[i], b[i]) <= k->ulps);
        if (!ok && bad++ < 4)
            fprintf(stderr, "  %s: register %u dword %u = 0x%08x, want 0x%08x\n", c->name, k->reg,
                    k->check_from + i, a[i], b[i]);
    }
    return bad;
}

/* Translates and dispatches a case; false with `why` on any failure. */
static bool run_case(struct state *s, const struct ka_case *c, char *why, size_t why_size)
{
    static struct blob container;
    sm4_container(&c->program, &container);
    struct sb_translation *t = NULL;
    struct sb_error err = { 0 };
    if (sb_translate(container.bytes, container.size, s->options, &t, &err) != SB_SUCCESS) {
        snprintf(why, why_size, "translate: %s", err.message);
        return false;
    }
    struct sb_rt_resource res[KA_MAX_RESOURCES];
    uint32_t n = to_resources(c, res);
    struct sb_rt_timing timing;
    enum sb_result r = sb_rt_dispatch(s->c, t, res, n, (const uint32_t[3]){ c->groups, 1, 1 }, &timing, &err);
    sb_translation_destroy(t);
    if (r != SB_SUCCESS) {
        snprintf(why, why_size, "dispatch: %s: %s", sb_result_name(r), err.message);
        return false;
    }
    if (!s->timing_printed) {
        s->timing_printed = true;
        printf("timing of %s: pipeline_ns %llu upload_ns %llu run_ns %llu readback_ns %llu\n", c->name,
               (unsigned long long)timing.pipeline_ns, (unsigned long long)timing.upload_ns,
               (unsigned long long)timing.run_ns, (unsigned long long)timing.readback_ns);
    }
    unsigned bad = 0, checked = 0;
    for (uint32_t i = 0; i < c->resource_count; i++)
        if (c->res[i].check) {
            bad += compare(c, &c->res[i], data[i]);
            checked++;
        }
    snprintf(why, why_size, "%u dwords differ", bad);
    return checked > 0 && bad == 0;
}

/* Records a case outcome; validation errors since the last case fail it. */
static void outcome(struct state *s, const char *name, bool ok, const char *why)
{
    uint32_t errors = sb_rt_context_validation_errors(s->c);
    if (errors != s->validation_seen) {
        fprintf(stderr, "  %s: %u validation errors; first: %.300s\n", name, errors - s->validation_seen,
                sb_rt_context_first_validation_error(s->c));
        s->validation_seen = errors;
        ok = false;
    }
    bool expected = is_expected(s, name);
    if (ok && !expected) {
        s->passed++;
        printf("pass  %s\n", name);
    } else if (ok) {
        s->unexpected++;
        fprintf(stderr, "UNEXPECTED PASS %s\n", name);
    } else if (expected) {
        s->xfailed++;
        printf("xfail %s: %s\n", name, why);
    } else {
        s->failed++;
        fprintf(stderr, "FAIL  %s: %s\n", name, why);
    }
}


/* Translates a program of the runtime's own cases; NULL (reported) on failure. */
static struct sb_translation *translate(const struct sm4_program *p)
{
    static struct blob container;
    sm4_container(p, &container);
    struct sb_translation *t = NULL;
    struct sb_error err = { 0 };
    if (sb_translate(container.bytes, container.size, NULL, &t, &err) != SB_SUCCESS)
        fprintf(stderr, "  translate: %s\n", err.message);
    return t;
}

static struct sb_rt_resource plain(uint32_t cls, uint32_t reg, void *bytes, size_t size)
{
    return (struct sb_rt_resource){ .resource_class = cls, .register_index = reg, .data = bytes, .size = size,
                                    .width = 1, .height = 1, .depth = 1, .layers = 1, .mip_levels = 1,
                                    .sample_count = 1 };
}

/* A 4x4 group writes (x + 10y, 0.5, x, y) to texel (x, y) of a 5x4 RGBA32F u0; column 4 keeps its
 * initial texels, so upload and read-back are both checked. */
static void typed_uav_texture(struct state *s)
{
    static struct sm4_program prog;
    struct sm4_program *p = &prog;
    sm4_begin_cs(p, 4, 4, 1, 2);
    sm4_dcl_uav_typed(p, 0, 3, 0x5555);
    sm4_dcl_thread_id(p, T_THREAD_ID, "xy");
    I(p, OP_IMAD, dr(0, "x"), special(T_THREAD_ID, "y"), l1(10), special(T_THREAD_ID, "x"));
    I(p, OP_UTOF, dr(1, "x"), sr(0, "x"));
    I(p, OP_UTOF, dr(1, "zw"), special(T_THREAD_ID, "xxxy"));
    I(p, OP_MOV, dr(1, "y"), lf(0.5f));
    I(p, OP_STORE_UAV_TYPED, du(0, "xyzw"), special(T_THREAD_ID, "xyyy"), sr(1, "xyzw"));
    sm4_end(p);
    struct sb_translation *t = translate(p);
    static float texels[4][5][4];
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 5; x++)
            for (uint32_t k = 0; k < 4; k++)
                texels[y][x][k] = -1.0f - (float)k;
    struct sb_rt_resource r = plain(SB_IR_RESOURCE_UAV, 0, texels, sizeof(texels));
    r.dimension = 3;
    r.format = SB_RT_FORMAT_R32G32B32A32_FLOAT;
    r.width = 5;
    r.height = 4;
    struct sb_error err = { 0 };
    char why[300] = "translation failed";
    bool ok = false;
    if (t) {
        enum sb_result res = sb_rt_dispatch(s->c, t, &r, 1, (const uint32_t[3]){ 1, 1, 1 }, NULL, &err);
        snprintf(why, sizeof(why), "%s: %s", sb_result_name(res), err.message);
        ok = res == SB_SUCCESS;
        for (uint32_t y = 0; y < 4 && ok; y++)
            for (uint32_t x = 0; x < 5 && ok; x++) {
                const float *v = texels[y][x];
                bool good = x == 4 ? v[0] == -1.0f && v[1] == -2.0f && v[2] == -3.0f && v[3] == -4.0f
                                   : v[0] == (float)(x + 10 * y) && v[1] == 0.5f && v[2] == (float)x &&
                                         v[3] == (float)y;
                if (!good) {
                    snprintf(why, sizeof(why), "texel (%u, %u) = (%g, %g, %g, %g)", x, y, (double)v[0],
                             (double)v[1], (double)v[2], (double)v[3]);
                    ok = false;
                }
            }
    }
    sb_translation_destroy(t);
    outcome(s, "runtime_typed_uav_texture2d", ok, why);
}

/* imm_atomic_alloc on u1 whose counter starts at 5: threads get 5..12, the counter ends at 13. */
static void counter_program(struct sm4_program *p)
{
    sm4_begin_cs(p, 8, 1, 1, 8);
    sm4_dcl_uav_raw(p, 0);
    sm4_dcl_uav_structured(p, 1, 4);
    sm4_dcl_thread_id(p, T_THREAD_ID, "x");
    I(p, OP_IMM_ATOMIC_ALLOC, dr(0, "x"), du(1, ""));
    I(p, OP_STORE_STRUCTURED, du(1, "x"), sr(0, "x"), l1(0), special(T_THREAD_ID, "x"));
    I(p, OP_ISHL, dr(7, "x"), special(T_THREAD_ID, "x"), l1(2));
    I(p, OP_STORE_RAW, du(0, "x"), sr(7, "x"), sr(0, "x"));
    sm4_end(p);
}

static void counter_initial_value(struct state *s, const struct sb_translation *t)
{
    static uint32_t out[8], buf[16];
    memset(out, 0xff, sizeof(out));
    memset(buf, 0, sizeof(buf));
    struct sb_rt_resource r[2] = { plain(SB_IR_RESOURCE_UAV, 0, out, sizeof(out)),
                                   plain(SB_IR_RESOURCE_UAV, 1, buf, sizeof(buf)) };
    r[1].counter = 5;
    struct sb_error err = { 0 };
    char why[300];
    enum sb_result res = sb_rt_dispatch(s->c, t, r, 2, (const uint32_t[3]){ 1, 1, 1 }, NULL, &err);
    snprintf(why, sizeof(why), "%s: %s", sb_result_name(res), err.message);
    bool ok = res == SB_SUCCESS;
    if (ok) {
        qsort(out, 8, 4, cmp_u32);
        qsort(buf + 5, 8, 4, cmp_u32);
        for (uint32_t i = 0; i < 8; i++)
            ok = ok && out[i] == 5 + i && buf[5 + i] == i;
        ok = ok && r[1].counter == 13 && buf[0] == 0 && buf[13] == 0;
        snprintf(why, sizeof(why), "counter %u, outputs %u..%u", r[1].counter, out[0], out[7]);
    }
    outcome(s, "runtime_counter_initial_value", ok, why);
}

/* A failure the runtime must report with `code` and a message containing `needle`. */
static void expect_error(struct state *s, const char *name, const struct sb_translation *t,
                         struct sb_rt_resource *r, uint32_t n, enum sb_result code, const char *needle)
{
    struct sb_error err = { 0 };
    enum sb_result res = t ? sb_rt_dispatch(s->c, t, r, n, (const uint32_t[3]){ 1, 1, 1 }, NULL, &err)
                           : SB_ERROR_INVALID_ARGUMENT;
    char why[300];
    snprintf(why, sizeof(why), "got %s (%s), want %s with \"%s\"", sb_result_name(res), err.message,
             sb_result_name(code), needle);
    printf("  %s: %s: %s\n", name, sb_result_name(res), err.message);
    outcome(s, name, res == code && err.code == code && strstr(err.message, needle) != NULL, why);
}

static void error_cases(struct state *s, const struct sb_translation *counter)
{
    static uint32_t out[8];
    struct sb_rt_resource only_u0 = plain(SB_IR_RESOURCE_UAV, 0, out, sizeof(out));
    expect_error(s, "runtime_missing_binding", counter, &only_u0, 1, SB_ERROR_RUN_BINDING, "u1");

    static struct sm4_program prog;
    sm4_begin_cs(&prog, 1, 1, 1, 1);
    sm4_dcl_uav_typed(&prog, 0, 1, 0x4444);
    I(&prog, OP_STORE_UAV_TYPED, du(0, "xyzw"), l4(0, 0, 0, 0), l4(1, 2, 3, 4));
    sm4_end(&prog);
    struct sb_translation *t = translate(&prog);
    struct sb_rt_resource typed = plain(SB_IR_RESOURCE_UAV, 0, out, sizeof(out));
    typed.dimension = 1;
    typed.format = SB_RT_FORMAT_UNDEFINED;
    expect_error(s, "runtime_typed_buffer_without_format", t, &typed, 1, SB_ERROR_RUN_UNSUPPORTED, "format");
    sb_translation_destroy(t);

    sm4_begin_cs(&prog, 1, 1, 1, 2);
    sm4_dcl_uav_raw(&prog, 0);
    sm4_dcl_resource(&prog, 0, 4, 0x5555);
    IC(&prog, OP_RESINFO, 2u << 11, dr(0, "xyzw"), l1(0), st(0, "xyzw"));
    I(&prog, OP_STORE_RAW, du(0, "xyzw"), l1(0), sr(0, "xyzw"));
    sm4_end(&prog);
    t = translate(&prog);
    static float texels[16 * 4];
    struct sb_rt_resource ms[2] = { plain(SB_IR_RESOURCE_UAV, 0, out, sizeof(out)),
                                    plain(SB_IR_RESOURCE_SRV, 0, texels, sizeof(texels)) };
    ms[1].dimension = 4;
    ms[1].format = SB_RT_FORMAT_R32G32B32A32_FLOAT;
    ms[1].width = ms[1].height = 2;
    ms[1].sample_count = 3; /* Vulkan images have 1, 2, 4, ... 64 samples (vk_image_ms.c fills the others) */
    expect_error(s, "runtime_multisampled_texture", t, ms, 2, SB_ERROR_RUN_UNSUPPORTED, "texture2dms register 0 "
                 "has 3 samples");
    sb_translation_destroy(t);
}


/* Texel 1 of a typed t0 of every sb_rt_format (walks the runtime's format table): the
 * channels it stores, and what ld returns (missing channels read 0, alpha 1). */
struct format_case {
    uint32_t format, return_type; /* SM4 return type token of the declaration */
    uint32_t texel[4];            /* the bytes of texel 1, as dwords */
    uint32_t expect[4];
};

static void format_case(uint32_t format, struct format_case *fc)
{
    static const float f[4] = { 1.5f, -2.0f, 3.25f, 4.0f };
    uint32_t fb[4];
    memcpy(fb, f, 16);
    const uint32_t one = 0x3f800000u, u[4] = { 1, 2, 3, 0x80000004u };
    const uint32_t s[4] = { (uint32_t)-1, (uint32_t)-2, 3, (uint32_t)-4 };
    uint32_t channels = sb_rt_format_channels((enum sb_rt_format)format);
    memset(fc, 0, sizeof(*fc));
    fc->format = format;
    fc->return_type = 0x5555;
    const uint32_t *src = fb;
    uint32_t alpha = one;
    switch (format) {
    case SB_RT_FORMAT_R32_UINT: case SB_RT_FORMAT_R32G32_UINT: case SB_RT_FORMAT_R32G32B32A32_UINT:
        fc->return_type = 0x4444;
        src = u;
        alpha = 1;
        break;
    case SB_RT_FORMAT_R32_SINT: case SB_RT_FORMAT_R32G32_SINT: case SB_RT_FORMAT_R32G32B32A32_SINT:
        fc->return_type = 0x3333;
        src = s;
        alpha = 1;
        break;
    case SB_RT_FORMAT_R16G16B16A16_FLOAT:
        /* halves 1.5, -2, 3.25, 4 */
        fc->texel[0] = 0x3e00u | 0xc000u << 16;
        fc->texel[1] = 0x4280u | 0x4400u << 16;
        memcpy(fc->expect, fb, 16);
        return;
    case SB_RT_FORMAT_R8G8B8A8_UNORM:
        fc->texel[0] = 0xff00ff00u; /* bytes 0, 255, 0, 255 */
        fc->expect[1] = fc->expect[3] = one;
        return;
    default:
        break;
    }
    for (uint32_t k = 0; k < 4; k++) {
        fc->texel[k] = k < channels ? src[k] : 0;
        fc->expect[k] = k < channels ? src[k] : k == 3 ? alpha : 0;
    }
}

static void formats(struct state *s)
{
    /* The formats appended after D32_FLOAT (issue #15) have their own known answers and
     * device-vs-interpreter run, as textures and typed buffers: tests/interp/test_interp_formats.c. */
    for (uint32_t format = 1; format <= SB_RT_FORMAT_D32_FLOAT; format++) {
        if (format == SB_RT_FORMAT_D32_FLOAT)
            continue; /* a depth format: textures for comparison sampling, never a texel buffer */
        struct format_case fc;
        format_case(format, &fc);
        static struct sm4_program prog;
        struct sm4_program *p = &prog;
        sm4_begin_cs(p, 1, 1, 1, 1);
        sm4_dcl_uav_raw(p, 0);
        sm4_dcl_resource(p, 0, 1, fc.return_type);
        I(p, OP_LD, dr(0, "xyzw"), l4(1, 1, 1, 1), st(0, "xyzw"));
        I(p, OP_STORE_RAW, du(0, "xyzw"), l1(0), sr(0, "xyzw"));
        sm4_end(p);
        struct sb_translation *t = translate(p);
        uint32_t size = sb_rt_format_size((enum sb_rt_format)format);
        static uint8_t texels[64];
        static uint32_t out[4];
        memset(texels, 0xee, sizeof(texels));
        memcpy(texels + size, fc.texel, size);
        memset(out, 0, sizeof(out));
        struct sb_rt_resource r[2] = { plain(SB_IR_RESOURCE_UAV, 0, out, sizeof(out)),
                                       plain(SB_IR_RESOURCE_SRV, 0, texels, 4 * size) };
        r[1].dimension = 1;
        r[1].format = format;
        r[1].width = 4;
        struct sb_error err = { 0 };
        char name[64], why[300] = "translation failed";
        snprintf(name, sizeof(name), "runtime_format_%s", sb_rt_format_name((enum sb_rt_format)format));
        bool ok = false;
        if (t) {
            enum sb_result res = sb_rt_dispatch(s->c, t, r, 2, (const uint32_t[3]){ 1, 1, 1 }, NULL, &err);
            ok = res == SB_SUCCESS && memcmp(out, fc.expect, 16) == 0;
            snprintf(why, sizeof(why), "%s (%s): got %08x %08x %08x %08x, want %08x %08x %08x %08x",
                     sb_result_name(res), err.message, out[0], out[1], out[2], out[3], fc.expect[0],
                     fc.expect[1], fc.expect[2], fc.expect[3]);
        }
        sb_translation_destroy(t);
        outcome(s, name, ok, why);
    }
}

static void runtime_own_cases(struct state *s)
{
    typed_uav_texture(s);
    formats(s);
    static struct sm4_program prog;
    counter_program(&prog);
    struct sb_translation *t = translate(&prog);
    if (t)
        counter_initial_value(s, t);
    else
        outcome(s, "runtime_counter_initial_value", false, "translation failed");
    error_cases(s, t);
    sb_translation_destroy(t);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    static struct state s;
    if (argc < 2 || !load_expected(&s, argv[1])) {
        fprintf(stderr, "usage: %s EXPECTED_TSV [--optimize] [--target-env vulkan1.X]\n", argv[0]);
        return 1;
    }
    static struct sb_translate_options options = { .target_env = SB_TARGET_VULKAN_1_1 };
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--optimize") == 0) {
            options.flags |= SB_TRANSLATE_OPTIMIZE;
        } else if (strcmp(argv[i], "--target-env") == 0 && i + 1 < argc &&
                   sb_target_env_parse(argv[i + 1], &options.target_env)) {
            i++;
        } else {
            fprintf(stderr, "unknown argument %s\n", argv[i]);
            return 1;
        }
        s.options = &options;
    }
    struct sb_error err = { 0 };
    struct sb_rt_context_options o = { .validation = true };
    enum sb_result r = sb_rt_context_create(&o, &s.c, &err);
    if (r == SB_ERROR_NO_DEVICE) {
        printf("SKIPPED: no Vulkan device (%s)\n", err.message);
        return 77;
    }
    if (r != SB_SUCCESS) {
        fprintf(stderr, "context: %s: %s\n", sb_result_name(r), err.message);
        return 1;
    }
    printf("device: %s\n", sb_rt_context_device_name(s.c));
    pin_driver();
    static struct ka_case c;
    for (uint32_t i = 0; i < ka_case_count(); i++) {
        char why[400] = "";
        ka_case_build(i, &c);
        bool ok = run_case(&s, &c, why, sizeof(why));
        outcome(&s, c.name, ok, why);
    }
    runtime_own_cases(&s);
    printf("runtime dispatch: %u passed, %u failed, %u expected failures, %u unexpected passes, "
           "%u validation errors\n", s.passed, s.failed, s.xfailed, s.unexpected,
           sb_rt_context_validation_errors(s.c));
    sb_rt_context_destroy(s.c);
    return s.failed || s.unexpected ? 1 : 0;
}
