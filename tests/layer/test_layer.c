/* SPDX-License-Identifier: MIT */
/*
 * The layer through the real loader (issue #7 §4): VK_INSTANCE_LAYERS and
 * VK_ADD_LAYER_PATH (set by ctest) put VK_LAYER_SHADERBRIDGE_translate above
 * the Khronos validation layer the test harness enables, on lavapipe. The
 * test never opens the layer itself. It checks:
 *  1. DXBC compute: saxpy_cs_5_0.dxbc given to vkCreateShaderModule runs with
 *     pName "CSMain" (the layer points the stage at the module's one entry)
 *     and gives a*x+y exactly; the same bytes chained into the pipeline's
 *     stage (module VK_NULL_HANDLE, maintenance5 style) give the same result.
 *  2. The disk cache: a second creation is a disk-cache hit; a corrupted entry
 *     is reported, ignored and rewritten (the next creation hits again); a new
 *     instance with the in-process cache on hits memory the second time.
 *  3. Dumps: the input and its SPIR-V are written under the content hash.
 *  4. SPIR-V pass-through: a glslang module runs unchanged and nothing of it
 *     is dumped or cached.
 *  5. VBC: one module from a VBC file serves the vertex and the fragment stage
 *     (entries "VSMain"/"PSMain" accepted) and draws the image that the
 *     runtime's native path (sb_rt_vbc_draw) draws, which is also computed here;
 *     using it for a stage it lacks fails pipeline creation.
 *  6. SHBIN: simple_tri.shbin becomes a vertex module whose SPIR-V is sb_translate_shbin's,
 *     in fast mode and (second instance, SHADERBRIDGE_LAYER_PICA=float24) in float24 mode.
 *  7. DXIL: samples/dxil/store_index_cs_6_0.dxil (a dxc-shaped container, issue #18)
 *     given to vkCreateShaderModule runs and writes u0[i] = 2i + 1 for its 8 threads.
 *  8. Failures: truncated DXBC and
 *     400 truncated / mutated DXBC, VBC and SHBIN inputs return
 *     VK_SUCCESS or VK_ERROR_INVALID_SHADER_NV and never crash; each failure
 *     logs a "translation failed" line with code and byte offset.
 * Zero validation errors outside the mutants (whose translations are the
 * translator's concern, not the layer's, and are reported but not counted).
 *
 * Usage: test_layer SAMPLES_DIR SPV_DIR WORK_DIR. Exit 0 pass, 1 fail, 77 skip.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>

#include "layer_test_util.h"
#include "shaderbridge/runtime.h"
#include "shaderbridge/translate.h"
#include "shaderbridge/vbc.h"
#include "vbc_writer.h"
#include "vk_harness.h"

#define FAILURE VK_ERROR_INVALID_SHADER_NV

static const char *samples, *spv_dir, *work;
static char cache_dir[4096], dump_dir[4096];

struct blob {
    uint8_t *bytes;
    size_t size;
};

static struct blob load(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    struct blob b = { 0 };
    b.bytes = lt_read_file(path, &b.size);
    CHECK(b.bytes != NULL, "cannot read %s", path);
    return b;
}

static VkResult module_from(struct vkh *h, const void *bytes, size_t size, VkShaderModule *out)
{
    VkShaderModuleCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size, .pCode = bytes,
    };
    *out = VK_NULL_HANDLE;
    return vkCreateShaderModule(h->device, &info, NULL, out);
}

/* ---- 1. saxpy ---------------------------------------------------------------------------------- */

#define N 256

/* Runs saxpy with `pipeline` over x = i, y = 1000 - 2i, a = 0.5 and checks y' exactly. */
static void run_saxpy(struct vkh *h, VkPipeline pipeline, const struct vkh_layout *layout, const char *what)
{
    float a[4] = { 0.5f, 0, 0, 0 }, x[N], y[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 1000.0f - 2.0f * (float)i;
    }
    struct vkh_buffer cb = { 0 }, xb = { 0 }, yb = { 0 };
    VkResult r = vkh_buffer_create(h, sizeof(a), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, a, &cb);
    if (r == VK_SUCCESS)
        r = vkh_buffer_create(h, sizeof(x), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, x, &xb);
    if (r == VK_SUCCESS)
        r = vkh_buffer_create(h, sizeof(y), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, y, &yb);
    /* translate.h's default bindings: cb0 -> 0, t0 -> 32, u0 -> 160, all in set 0 */
    const struct vkh_resource res[] = {
        { 0, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &cb, NULL },
        { 0, 32, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &xb, NULL },
        { 0, 160, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &yb, NULL },
    };
    if (r == VK_SUCCESS)
        r = vkh_dispatch(h, pipeline, layout, res, 3, N / 64, 1, 1);
    CHECK(r == VK_SUCCESS, "%s: dispatch: %s", what, vkh_result_name(r));
    int bad = 0;
    const float *out = yb.mapped;
    for (int i = 0; r == VK_SUCCESS && i < N; i++)
        bad += out[i] != 0.5f * (float)i + 1000.0f - 2.0f * (float)i;
    CHECK(r == VK_SUCCESS && bad == 0, "%s: %d of %d results differ (y'[3] = %g, want %g)", what, bad, N,
          out ? out[3] : -1.0, 1000.0 - 6.0 + 1.5);
    vkh_buffer_destroy(h, &cb);
    vkh_buffer_destroy(h, &xb);
    vkh_buffer_destroy(h, &yb);
}

static void case_saxpy(struct vkh *h, const struct blob *saxpy)
{
    const struct vkh_binding bindings[] = {
        { 0, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1 },
        { 0, 32, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
        { 0, 160, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
    };
    struct vkh_layout layout;
    VkResult r = vkh_layout_create(h, bindings, 3, VK_SHADER_STAGE_COMPUTE_BIT, &layout);
    CHECK(r == VK_SUCCESS, "saxpy layout: %s", vkh_result_name(r));
    if (r != VK_SUCCESS)
        return;
    VkShaderModule module;
    r = module_from(h, saxpy->bytes, saxpy->size, &module);
    CHECK(r == VK_SUCCESS, "DXBC module through the layer: %s", vkh_result_name(r));
    CHECK(lt_log_count("dxbc ") >= 1 && lt_log_count(": translated (") == 1,
          "the layer logged no translation (is it loaded?)");
    VkPipeline pipeline = VK_NULL_HANDLE;
    if (r == VK_SUCCESS) {
        r = vkh_compute_pipeline(h, module, "CSMain", layout.pipeline, &pipeline);
        CHECK(r == VK_SUCCESS, "saxpy pipeline (pName CSMain): %s", vkh_result_name(r));
    }
    if (r == VK_SUCCESS)
        run_saxpy(h, pipeline, &layout, "saxpy module");
    vkDestroyPipeline(h->device, pipeline, NULL);
    vkDestroyShaderModule(h->device, module, NULL);

    /* The same bytes chained into the stage, no module. */
    VkShaderModuleCreateInfo code = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = saxpy->size,
        .pCode = (const uint32_t *)saxpy->bytes,
    };
    VkComputePipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .pNext = &code,
                   .stage = VK_SHADER_STAGE_COMPUTE_BIT, .pName = "main" },
        .layout = layout.pipeline,
    };
    pipeline = VK_NULL_HANDLE;
    r = vkCreateComputePipelines(h->device, VK_NULL_HANDLE, 1, &info, NULL, &pipeline);
    CHECK(r == VK_SUCCESS, "saxpy chained into the stage: %s", vkh_result_name(r));
    if (r == VK_SUCCESS)
        run_saxpy(h, pipeline, &layout, "saxpy chained");
    vkDestroyPipeline(h->device, pipeline, NULL);
    vkh_layout_destroy(h, &layout);
}

/* ---- 2, 3. cache and dumps ------------------------------------------------------------------------ */

static void case_cache(struct vkh *h, const struct blob *saxpy)
{
    CHECK(lt_dir_count(cache_dir, ".sblc") == 1, "one cache entry after saxpy, found %d",
          lt_dir_count(cache_dir, ".sblc"));
    CHECK(lt_dir_count(dump_dir, ".dxbc") == 1 && lt_dir_count(dump_dir, ".spv") == 1,
          "dump: %d .dxbc and %d .spv files, want 1 each", lt_dir_count(dump_dir, ".dxbc"),
          lt_dir_count(dump_dir, ".spv"));
    char path[4096];
    size_t size = 0;
    uint8_t *dumped = lt_dir_first(dump_dir, ".dxbc", path, sizeof(path)) ? lt_read_file(path, &size) : NULL;
    CHECK(dumped && size == saxpy->size && !memcmp(dumped, saxpy->bytes, size), "the dumped input differs");
    free(dumped);
    uint8_t *spv = lt_dir_first(dump_dir, ".spv", path, sizeof(path)) ? lt_read_file(path, &size) : NULL;
    CHECK(spv && size >= 20 && spv[0] == 0x03 && spv[3] == 0x07, "the dumped SPIR-V has no SPIR-V magic");
    free(spv);

    int hits = lt_log_count("disk cache hit");
    VkShaderModule m;
    VkResult r = module_from(h, saxpy->bytes, saxpy->size, &m);
    CHECK(r == VK_SUCCESS && lt_log_count("disk cache hit") == hits + 1, "second creation: %s, %d disk hits",
          vkh_result_name(r), lt_log_count("disk cache hit") - hits);
    vkDestroyShaderModule(h->device, m, NULL);

    /* A corrupt entry: ignored, translated again, rewritten. */
    CHECK(lt_dir_first(cache_dir, ".sblc", path, sizeof(path)), "no cache entry");
    uint8_t *entry = lt_read_file(path, &size);
    if (entry && size > 80) {
        entry[70] ^= 0x5a;
        lt_write_file(path, entry, size);
    }
    int translated = lt_log_count(": translated (");
    r = module_from(h, saxpy->bytes, saxpy->size, &m);
    CHECK(r == VK_SUCCESS && lt_log_count("is corrupt") == 1 && lt_log_count(": translated (") == translated + 1,
          "corrupt entry: %s, %d corrupt lines, %d translations", vkh_result_name(r), lt_log_count("is corrupt"),
          lt_log_count(": translated (") - translated);
    vkDestroyShaderModule(h->device, m, NULL);
    size_t size2 = 0;
    uint8_t *rewritten = lt_read_file(path, &size2);
    CHECK(rewritten && entry && size2 == size && rewritten[70] == (uint8_t)(entry[70] ^ 0x5a),
          "the corrupt entry was not rewritten");
    free(entry);
    free(rewritten);
    r = module_from(h, saxpy->bytes, saxpy->size, &m);
    CHECK(r == VK_SUCCESS && lt_log_count("disk cache hit") == hits + 2, "after the rewrite: %s, %d disk hits",
          vkh_result_name(r), lt_log_count("disk cache hit") - hits);
    vkDestroyShaderModule(h->device, m, NULL);
}

/* ---- 4. SPIR-V pass-through -------------------------------------------------------------------------- */

static void case_spirv(struct vkh *h)
{
    struct blob spv = load(spv_dir, "double.comp.spv");
    if (!spv.bytes)
        return;
    int dumps = lt_dir_count(dump_dir, ""), entries = lt_dir_count(cache_dir, "");
    const struct vkh_binding binding = { 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 };
    struct vkh_layout layout;
    VkShaderModule module = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkResult r = vkh_layout_create(h, &binding, 1, VK_SHADER_STAGE_COMPUTE_BIT, &layout);
    if (r == VK_SUCCESS)
        r = module_from(h, spv.bytes, spv.size, &module);
    if (r == VK_SUCCESS)
        r = vkh_compute_pipeline(h, module, "main", layout.pipeline, &pipeline);
    uint32_t values[N];
    for (int i = 0; i < N; i++)
        values[i] = (uint32_t)i * 7u;
    struct vkh_buffer buf = { 0 };
    if (r == VK_SUCCESS)
        r = vkh_buffer_create(h, sizeof(values), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, values, &buf);
    const struct vkh_resource res = { 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &buf, NULL };
    if (r == VK_SUCCESS)
        r = vkh_dispatch(h, pipeline, &layout, &res, 1, N / 64, 1, 1);
    CHECK(r == VK_SUCCESS, "SPIR-V pass-through: %s", vkh_result_name(r));
    int bad = 0;
    for (int i = 0; r == VK_SUCCESS && i < N; i++)
        bad += ((const uint32_t *)buf.mapped)[i] != 14u * (uint32_t)i + 1u;
    CHECK(bad == 0, "SPIR-V pass-through: %d of %d values differ", bad, N);
    CHECK(lt_dir_count(dump_dir, "") == dumps && lt_dir_count(cache_dir, "") == entries,
          "SPIR-V was dumped or cached (%d -> %d dumps, %d -> %d entries)", dumps, lt_dir_count(dump_dir, ""),
          entries, lt_dir_count(cache_dir, ""));
    vkh_buffer_destroy(h, &buf);
    vkDestroyPipeline(h->device, pipeline, NULL);
    vkDestroyShaderModule(h->device, module, NULL);
    vkh_layout_destroy(h, &layout);
    free(spv.bytes);
}

/* ---- 7. DXIL ------------------------------------------------------------------------------------------ */

/* A DXIL container through the layer: sb_translate's DXIL front end behind vkCreateShaderModule. */
static void case_dxil(struct vkh *h)
{
    struct blob dxil = load(samples, "dxil/store_index_cs_6_0.dxil");
    if (!dxil.bytes)
        return;
    const struct vkh_binding binding = { 0, 160, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 };
    struct vkh_layout layout;
    VkShaderModule module = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    int translated = lt_log_count(": translated (");
    VkResult r = vkh_layout_create(h, &binding, 1, VK_SHADER_STAGE_COMPUTE_BIT, &layout);
    if (r == VK_SUCCESS)
        r = module_from(h, dxil.bytes, dxil.size, &module);
    CHECK(r == VK_SUCCESS && lt_log_count(": translated (") == translated + 1,
          "DXIL module through the layer: %s", vkh_result_name(r));
    if (r == VK_SUCCESS)
        r = vkh_compute_pipeline(h, module, "main", layout.pipeline, &pipeline);
    uint32_t words[8];
    memset(words, 0xAB, sizeof(words));
    struct vkh_buffer buf = { 0 };
    if (r == VK_SUCCESS)
        r = vkh_buffer_create(h, sizeof(words), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, words, &buf);
    const struct vkh_resource res = { 0, 160, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &buf, NULL };
    if (r == VK_SUCCESS)
        r = vkh_dispatch(h, pipeline, &layout, &res, 1, 1, 1, 1);
    CHECK(r == VK_SUCCESS, "DXIL compute: %s", vkh_result_name(r));
    int bad = 0;
    for (uint32_t i = 0; r == VK_SUCCESS && i < 8; i++)
        bad += ((const uint32_t *)buf.mapped)[i] != 2u * i + 1u;
    CHECK(bad == 0, "DXIL compute: %d of 8 words differ (u0[3] = %u, want 7)", bad,
          r == VK_SUCCESS ? ((const uint32_t *)buf.mapped)[3] : 0u);
    vkh_buffer_destroy(h, &buf);
    vkDestroyPipeline(h->device, pipeline, NULL);
    vkDestroyShaderModule(h->device, module, NULL);
    vkh_layout_destroy(h, &layout);
    free(dxil.bytes);
}

/* ---- 5. VBC ------------------------------------------------------------------------------------------ */

#define W 8
#define H 8

/* The test's VBC: the gradient shaders, one float4 output, small tables (lavapipe limits). */
static uint8_t *make_vbc(const struct blob *vert, const struct blob *frag, size_t *size)
{
    struct vw_spec s;
    vw_spec_init(&s, "layer-gradient");
    const uint16_t tables[SB_VBC_TABLE_COUNT] = { 16, 8, 8, 8, 8 };
    memcpy(s.table_sizes, tables, sizeof(tables));
    s.blobs[SB_VBC_STAGE_VERTEX] = (struct vw_blob){ vert->bytes, vert->size };
    s.blobs[SB_VBC_STAGE_FRAGMENT] = (struct vw_blob){ frag->bytes, frag->size };
    s.output_count = 1;
    s.outputs[0] = (struct vw_var){ 0, SB_VBC_BASE_TYPE_FLOAT, { 4, 1 }, 1, 1 };
    return vw_write(&s, size, NULL);
}

/* The runtime's context stays open to the end of the test: closing it first would
 * unload lavapipe under the sanitizers (the harness keeps its instances then). */
static struct sb_rt_context *ctx;

/* The runtime's native VBC path draws the reference image. */
static bool runtime_image(const uint8_t *bytes, size_t size, float image[W * H][4])
{
    struct sb_vbc *vbc = NULL;
    struct sb_error err = { 0 };
    struct sb_rt_context_options opts = { 0 };
    enum sb_result r = sb_vbc_parse(bytes, size, &vbc, &err);
    if (r == SB_SUCCESS)
        r = sb_rt_context_create(&opts, &ctx, &err);
    memset(image, 0, sizeof(float) * W * H * 4);
    struct sb_rt_color_target target = { 0, SB_RT_FORMAT_R32G32B32A32_FLOAT, image };
    struct sb_rt_vbc_draw d = { .vbc = vbc, .topology = 3, .vertex_count = 3, .width = W, .height = H,
                                .target_count = 1, .targets = &target };
    struct sb_rt_timing t;
    if (r == SB_SUCCESS)
        r = sb_rt_vbc_draw(ctx, &d, &t, &err);
    CHECK(r == SB_SUCCESS, "sb_rt_vbc_draw: %s: %s", sb_result_name(r), err.message);
    sb_vbc_destroy(vbc);
    return r == SB_SUCCESS;
}

/* The VBC and the runtime's image of it, made before the harness starts: the runtime and
 * the harness share volk's global function pointers, which a runtime context reloads. */
static uint8_t *vbc;
static size_t vbc_size;
static float reference[W * H][4];
static bool have_reference;

static void prepare_vbc(void)
{
    struct blob vert = load(spv_dir, "gradient.vert.spv"), frag = load(spv_dir, "gradient.frag.spv");
    vbc = vert.bytes && frag.bytes ? make_vbc(&vert, &frag, &vbc_size) : NULL;
    CHECK(vbc != NULL, "VBC writer failed");
    have_reference = vbc && runtime_image(vbc, vbc_size, reference);
    free(vert.bytes);
    free(frag.bytes);
}

static void case_vbc(struct vkh *h)
{
    /* codeSize must be a multiple of 4: pad with zeros (the layer drops them) */
    size_t padded = (vbc_size + 3) & ~(size_t)3;
    uint8_t *code = vbc ? calloc(1, padded) : NULL;
    if (code)
        memcpy(code, vbc, vbc_size);
    VkShaderModule module = VK_NULL_HANDLE;
    VkResult r = code ? module_from(h, code, padded, &module) : VK_ERROR_UNKNOWN;
    CHECK(r == VK_SUCCESS, "VBC module (%zu bytes padded to %zu): %s", vbc_size, padded, vkh_result_name(r));

    struct vkh_graphics_desc desc = { .vs = module, .fs = module, .entry = { "VSMain", NULL, NULL, NULL, "PSMain" },
                                      .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .color_count = 1,
                                      .color_formats = { VK_FORMAT_R32G32B32A32_SFLOAT } };
    struct vkh_layout layout = { 0 };
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkRenderPass pass = VK_NULL_HANDLE;
    if (r == VK_SUCCESS)
        r = vkh_layout_create(h, NULL, 0, VK_SHADER_STAGE_ALL_GRAPHICS, &layout);
    desc.layout = layout.pipeline;
    if (r == VK_SUCCESS)
        r = vkh_graphics_pipeline(h, &desc, &pipeline, &pass);
    CHECK(r == VK_SUCCESS, "VBC graphics pipeline: %s", vkh_result_name(r));
    struct vkh_buffer out = { 0 };
    const uint32_t clear[4] = { 0, 0, 0, 0 };
    if (r == VK_SUCCESS)
        r = vkh_draw(h, &desc, pipeline, pass, W, H, clear, 3, &out);
    CHECK(r == VK_SUCCESS, "VBC draw: %s", vkh_result_name(r));
    if (r == VK_SUCCESS && have_reference) {
        const float (*img)[4] = out.mapped;
        int bad_runtime = 0, bad_known = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                const float want[4] = { (x + 0.5f) / 8.0f, (y + 0.5f) / 8.0f, 0.5f, 1.0f };
                bad_runtime += memcmp(img[y * W + x], reference[y * W + x], 16) != 0;
                bad_known += memcmp(img[y * W + x], want, 16) != 0;
            }
        CHECK(bad_runtime == 0 && bad_known == 0,
              "VBC image: %d pixels differ from sb_rt_vbc_draw, %d from the gradient (pixel 0: %g %g %g %g)",
              bad_runtime, bad_known, img[0][0], img[0][1], img[0][2], img[0][3]);
    }
    vkh_buffer_destroy(h, &out);
    vkDestroyPipeline(h->device, pipeline, NULL);
    vkDestroyRenderPass(h->device, pass, NULL);

    /* The VBC has no compute stage: pipeline creation fails with a log line. */
    if (module) {
        VkPipeline p = (VkPipeline)(uintptr_t)1;
        int lines = lt_log_count("has no compute stage");
        VkResult cr = vkh_compute_pipeline(h, module, "main", layout.pipeline, &p);
        CHECK(cr == FAILURE && p == VK_NULL_HANDLE && lt_log_count("has no compute stage") == lines + 1,
              "VBC as compute: %s", vkh_result_name(cr));
    }
    vkh_layout_destroy(h, &layout);
    vkDestroyShaderModule(h->device, module, NULL);
    CHECK(lt_dir_count(dump_dir, ".vbc") == 1 && lt_dir_count(dump_dir, ".vert.spv") == 1 &&
          lt_dir_count(dump_dir, ".frag.spv") == 1, "VBC dumps: %d .vbc, %d .vert.spv, %d .frag.spv",
          lt_dir_count(dump_dir, ".vbc"), lt_dir_count(dump_dir, ".vert.spv"), lt_dir_count(dump_dir, ".frag.spv"));

    /* The bundled sample too (two stages; lavapipe cannot draw its 8192-sampler table). */
    struct blob quad = load(samples, "textured_quad.vbc");
    size_t qpad = (quad.size + 3) & ~(size_t)3;
    r = quad.bytes ? module_from(h, quad.bytes, qpad, &module) : VK_ERROR_UNKNOWN;
    CHECK(r == VK_SUCCESS, "textured_quad.vbc module: %s", vkh_result_name(r));
    vkDestroyShaderModule(h->device, module, NULL);
    free(quad.bytes);
    free(code);
}

/* ---- 6. failures and mutants ----------------------------------------------------------------------- */

/* The layer's SPIR-V for simple_tri.shbin (its dump, named by the input's hash) must be word for
 * word what sb_translate_shbin gives in `pica_flags` for the target the layer chose (the SPIR-V
 * version word tells it): the translation tests/pica_runtime checks bit for bit against the
 * interpreter on this device. Returns the dumped words (caller frees) or NULL. */
static uint32_t *check_shbin_spirv(const struct blob *shbin, uint32_t pica_flags, size_t *size, const char *what)
{
    char path[4096] = "";
    uint32_t *dumped = NULL;
    *size = 0;
    if (lt_dir_first(dump_dir, ".shbin", path, sizeof(path))) {
        strcpy(path + strlen(path) - strlen(".shbin"), ".spv");
        dumped = (uint32_t *)lt_read_file(path, size);
    }
    CHECK(dumped && *size >= 20, "%s: no SPIR-V dump at %s", what, path);
    if (!dumped || *size < 20)
        return dumped;
    const uint32_t versions[4] = { 0x10000, 0x10300, 0x10500, 0x10600 };
    struct sb_translate_options options = { .target_env = SB_TARGET_VULKAN_1_0 };
    for (uint32_t e = 0; e < 4; e++)
        if (dumped[1] == versions[e])
            options.target_env = (enum sb_target_env)e;
    struct sb_translation *tr = NULL;
    struct sb_error err = { 0 };
    enum sb_result want = sb_translate_shbin(shbin->bytes, shbin->size, 0, pica_flags, &options, &tr, &err);
    CHECK(want == SB_SUCCESS && tr->stage == SB_IR_STAGE_VERTEX, "%s: sb_translate_shbin: %s: %s", what,
          sb_result_name(want), err.message);
    CHECK(want == SB_SUCCESS && tr->word_count * 4 == *size && !memcmp(tr->words, dumped, *size),
          "%s: the layer's SPIR-V (%zu bytes) differs from sb_translate_shbin's (%zu bytes)", what, *size,
          want == SB_SUCCESS ? tr->word_count * 4 : 0);
    sb_translation_destroy(tr);
    return dumped;
}

/* SHBIN goes through the translator like DXBC: a vertex module, fast mode by default. */
static void case_shbin(struct vkh *h)
{
    struct blob shbin = load(samples, "simple_tri.shbin");
    if (!shbin.bytes)
        return;
    VkShaderModule m = VK_NULL_HANDLE;
    int dumps = lt_dir_count(dump_dir, ".shbin");
    size_t pad = (shbin.size + 3) & ~(size_t)3, size = 0;
    VkResult r = module_from(h, shbin.bytes, pad, &m);
    CHECK(r == VK_SUCCESS && lt_log_count("shbin ") >= 1 && lt_dir_count(dump_dir, ".shbin") == dumps + 1,
          "SHBIN: %s, want a module and one dump", vkh_result_name(r));
    free(check_shbin_spirv(&shbin, 0, &size, "SHBIN (fast)"));
    vkDestroyShaderModule(h->device, m, NULL);
    free(shbin.bytes);
}

/* SHADERBRIDGE_LAYER_PICA=float24 (set before this instance): the float24-exact translation,
 * which differs from the fast one, and no disk-cache entry of the fast mode is taken for it. */
static void case_shbin_float24(struct vkh *h)
{
    struct blob shbin = load(samples, "simple_tri.shbin");
    if (!shbin.bytes)
        return;
    VkShaderModule m = VK_NULL_HANDLE;
    size_t pad = (shbin.size + 3) & ~(size_t)3, size = 0;
    lt_dir_reset(dump_dir); /* the mutants of case_failures left .shbin dumps of their own */
    int hits = lt_log_count("disk cache hit");
    VkResult r = module_from(h, shbin.bytes, pad, &m);
    CHECK(r == VK_SUCCESS && lt_log_count("disk cache hit") == hits,
          "SHBIN float24: %s, %d disk cache hits (want none: the mode is part of the key)", vkh_result_name(r),
          lt_log_count("disk cache hit") - hits);
    uint32_t *dumped = check_shbin_spirv(&shbin, SB_IR_PICA_FLOAT24, &size, "SHBIN (float24)");
    struct sb_translation *fast = NULL;
    struct sb_error err = { 0 };
    if (dumped && sb_translate(shbin.bytes, shbin.size, NULL, &fast, &err) == SB_SUCCESS)
        CHECK(fast->word_count * 4 != size || memcmp(fast->words, dumped, size),
              "SHBIN float24: the layer's module is the fast one");
    sb_translation_destroy(fast);
    free(dumped);
    vkDestroyShaderModule(h->device, m, NULL);
    free(shbin.bytes);
}

static void case_failures(struct vkh *h, const struct blob *saxpy)
{
    VkShaderModule m = VK_NULL_HANDLE;
    int lines;
    VkResult r;
    lines = lt_log_count("translation failed");
    r = module_from(h, saxpy->bytes, 64, &m);
    CHECK(r == FAILURE && lt_log_count("translation failed") == lines + 1 && lt_log_count("at byte offset") > 0,
          "truncated DXBC: %s", vkh_result_name(r));
}

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint32_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

/* Truncations and byte flips of each input; results must be success or the layer's failure. */
static void case_mutants(struct vkh *h, const struct blob *inputs, int input_count, int per_input)
{
    h->messages.quiet = true;
    uint32_t before = h->messages.errors;
    int ok = 0, failed = 0, other = 0;
    int lines = lt_log_count("translation failed");
    for (int k = 0; k < input_count; k++) {
        const struct blob *in = &inputs[k];
        uint8_t *m = malloc(in->size + 4);
        for (int i = 0; m && i < per_input; i++) {
            size_t size = (in->size + 3) & ~(size_t)3;
            memset(m, 0, in->size + 4);
            memcpy(m, in->bytes, in->size);
            if (i % 3 == 0) {
                size = 4 + 4 * (next_random() % (size / 4)); /* keep the magic: truncated */
            } else {
                for (int f = 0, flips = 1 + (int)(next_random() % 4); f < flips; f++)
                    m[4 + next_random() % (in->size - 4)] ^= (uint8_t)(1u << (next_random() % 8));
            }
            VkShaderModule mod = VK_NULL_HANDLE;
            VkResult r = module_from(h, m, size, &mod);
            ok += r == VK_SUCCESS;
            failed += r == FAILURE;
            other += r != VK_SUCCESS && r != FAILURE;
            if (r == VK_SUCCESS)
                vkDestroyShaderModule(h->device, mod, NULL);
        }
        free(m);
    }
    printf("mutants: %d created, %d VK_ERROR_INVALID_SHADER_NV, %d other; %u validation messages "
           "about created mutants (not counted)\n", ok, failed, other, h->messages.errors - before);
    CHECK(other == 0 && failed > 0 && ok + failed == input_count * per_input, "mutants: %d other results", other);
    CHECK(lt_log_count("translation failed") - lines == failed, "mutants: %d failures but %d log lines", failed,
          lt_log_count("translation failed") - lines);
    h->messages.errors = before;
    h->messages.quiet = false;
}

/* ---- main ------------------------------------------------------------------------------------------ */

static int run_instance_one(const struct blob *saxpy)
{
    struct vkh h;
    int rc = vkh_init(&h);
    if (rc)
        return rc;
    case_saxpy(&h, saxpy);
    case_cache(&h, saxpy);
    case_spirv(&h);
    case_vbc(&h);
    case_shbin(&h);
    case_dxil(&h);
    case_failures(&h, saxpy);
    CHECK(h.messages.errors == 0, "%u validation errors (first: %s)", h.messages.errors, h.messages.first_error);

    struct blob inputs[5] = { *saxpy, load(samples, "group_sum_cs_5_0.dxbc"),
                              load(samples, "passthrough_vs_4_0.dxbc"), load(samples, "textured_quad.vbc"),
                              load(samples, "simple_tri.shbin") };
    bool loaded = inputs[1].bytes && inputs[2].bytes && inputs[3].bytes && inputs[4].bytes;
    if (loaded)
        case_mutants(&h, inputs, 5, 80);
    for (int i = 1; i < 5; i++)
        free(inputs[i].bytes);
    vkh_destroy(&h);
    return 0;
}

/* A second instance with the in-process cache: the repeat creation is a memory hit. */
static int run_instance_two(const struct blob *saxpy)
{
    setenv("SHADERBRIDGE_LAYER_MEMORY_CACHE", "1", 1);
    setenv("SHADERBRIDGE_LAYER_PICA", "float24", 1);
    struct vkh h;
    int rc = vkh_init(&h);
    if (rc)
        return rc;
    int disk = lt_log_count("disk cache hit"), memory = lt_log_count("memory cache hit");
    VkShaderModule a, b;
    VkResult ra = module_from(&h, saxpy->bytes, saxpy->size, &a);
    VkResult rb = module_from(&h, saxpy->bytes, saxpy->size, &b);
    CHECK(ra == VK_SUCCESS && rb == VK_SUCCESS && lt_log_count("disk cache hit") == disk + 1 &&
          lt_log_count("memory cache hit") == memory + 1,
          "new instance: %s/%s, %d disk hits, %d memory hits (want 1 and 1)", vkh_result_name(ra),
          vkh_result_name(rb), lt_log_count("disk cache hit") - disk, lt_log_count("memory cache hit") - memory);
    vkDestroyShaderModule(h.device, a, NULL);
    vkDestroyShaderModule(h.device, b, NULL);
    case_shbin_float24(&h);
    CHECK(h.messages.errors == 0, "%u validation errors (first: %s)", h.messages.errors, h.messages.first_error);
    vkh_destroy(&h);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: test_layer SAMPLES_DIR SPV_DIR WORK_DIR\n");
        return 2;
    }
    samples = argv[1];
    spv_dir = argv[2];
    work = argv[3];
    if (!getenv("VK_INSTANCE_LAYERS") || !strstr(getenv("VK_INSTANCE_LAYERS"), "SHADERBRIDGE")) {
        printf("SKIPPED: VK_INSTANCE_LAYERS does not name VK_LAYER_SHADERBRIDGE_translate (run through ctest)\n");
        return VKH_SKIP;
    }
    snprintf(cache_dir, sizeof(cache_dir), "%s/cache", work);
    snprintf(dump_dir, sizeof(dump_dir), "%s/dump", work);
    lt_dir_reset(work);
    lt_dir_reset(cache_dir);
    lt_dir_reset(dump_dir);
    setenv("SHADERBRIDGE_LAYER_LOG", "info", 1);
    setenv("SHADERBRIDGE_LAYER_CACHE_DIR", cache_dir, 1);
    setenv("SHADERBRIDGE_LAYER_DUMP_DIR", dump_dir, 1);
    setenv("SHADERBRIDGE_LAYER_MEMORY_CACHE", "0", 1);
    setenv("SHADERBRIDGE_LAYER_VALIDATE", "1", 1);

    struct blob saxpy = load(samples, "saxpy_cs_5_0.dxbc");
    char log[4200];
    snprintf(log, sizeof(log), "%s/layer.log", work);
    if (!saxpy.bytes || !lt_log_start(log))
        return 1;
    prepare_vbc();
    int rc = run_instance_one(&saxpy);
    if (!rc)
        rc = run_instance_two(&saxpy);
    lt_log_stop();
    sb_rt_context_destroy(ctx);
    free(saxpy.bytes);
    free(vbc);
    if (rc == VKH_SKIP) {
        printf("SKIPPED: no Vulkan device (log: %s)\n", log);
        return VKH_SKIP;
    }
    if (rc || lt_failures) {
        printf("layer log (%s):\n", log);
        fflush(stdout);
        size_t size = 0;
        char *text = (char *)lt_read_file(log, &size);
        if (text)
            fwrite(text, 1, size > 20000 ? 20000 : size, stdout);
        free(text);
    }
    printf("%d checks, %d failures\n", lt_checks, lt_failures);
    return rc || lt_failures ? 1 : 0;
}
