/* SPDX-License-Identifier: MIT */
/*
 * Shared driver modules (layer/README.md §Shared modules) through the real
 * loader, the Khronos validation layer beneath the layer, on lavapipe. With
 * sharing on (the default), creating the same DXBC bytes twice must give the
 * same handle, both creations must work in pipelines, a module destroyed
 * before or after its pipelines must leave the other creation and those
 * pipelines working with exact results, a create after every destroy must get
 * the driver module the layer kept (no translation, no driver call), and
 * other bytes, SPIR-V pass-through and chained stage bytes must not share.
 * Evicting the in-process cache (1100 more translations of variants of the
 * same shader) must release the layer's hold on what it kept, and leave a
 * module the application still holds usable; threads creating and destroying
 * the same bytes while fresh translations evict them must all succeed, every
 * driver module destroyed exactly once. vkDestroyDevice must leave zero
 * validation errors when the application destroyed everything, and report
 * exactly one undestroyed module (the application's leak, as without the
 * layer) when it leaked a shared one. With SHADERBRIDGE_LAYER_SHARE_MODULES=0,
 * and on a device with the privateData feature on (handles must then be
 * unique), the two creations get distinct handles. The harness's device turns
 * on every feature (privateData too, on Vulkan 1.3), so the sharing cases run
 * on a plain device of their own on the harness's instance.
 *
 * Usage: test_layer_share SAMPLES_DIR SPV_DIR WORK_DIR. Exit 0 pass, 1 fail, 77 skip.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "layer_test_util.h"
#include "vk_harness.h"

#define N 256
#define VARIANTS 1100 /* more than the in-process cache holds (1024) */

struct blob {
    uint8_t *bytes;
    size_t size;
};

static struct blob saxpy, group_sum, spirv;

static struct blob load(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    struct blob b = { 0 };
    b.bytes = lt_read_file(path, &b.size);
    CHECK(b.bytes != NULL, "cannot read %s", path);
    return b;
}

static VkShaderModule create(struct vkh *h, const void *bytes, size_t size)
{
    VkShaderModuleCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size, .pCode = bytes,
    };
    VkShaderModule m = VK_NULL_HANDLE;
    VkResult r = vkCreateShaderModule(h->device, &info, NULL, &m);
    CHECK(r == VK_SUCCESS && m, "vkCreateShaderModule (%zu bytes): %s", size, vkh_result_name(r));
    return r == VK_SUCCESS ? m : VK_NULL_HANDLE;
}

/* saxpy: y' = a*x + y over x = i, y = 1000 - 2i, a = 0.5 (bindings: translate.h's default). */
static const struct vkh_binding saxpy_bindings[] = {
    { 0, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1 },
    { 0, 32, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
    { 0, 160, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
};

static VkPipeline pipeline_of(struct vkh *h, VkShaderModule module, const char *entry, const struct vkh_layout *l)
{
    VkPipeline p = VK_NULL_HANDLE;
    VkResult r = vkh_compute_pipeline(h, module, entry, l->pipeline, &p);
    CHECK(r == VK_SUCCESS, "compute pipeline (%s): %s", entry, vkh_result_name(r));
    return p;
}

static void check_saxpy(struct vkh *h, VkPipeline pipeline, const struct vkh_layout *layout, const char *what)
{
    float a[4] = { 0.5f, 0, 0, 0 }, x[N], y[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 1000.0f - 2.0f * (float)i;
    }
    struct vkh_buffer cb = { 0 }, xb = { 0 }, yb = { 0 };
    VkResult r = pipeline ? VK_SUCCESS : VK_ERROR_UNKNOWN;
    if (r == VK_SUCCESS)
        r = vkh_buffer_create(h, sizeof(a), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, a, &cb);
    if (r == VK_SUCCESS)
        r = vkh_buffer_create(h, sizeof(x), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, x, &xb);
    if (r == VK_SUCCESS)
        r = vkh_buffer_create(h, sizeof(y), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, y, &yb);
    const struct vkh_resource res[] = {
        { 0, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &cb, NULL },
        { 0, 32, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &xb, NULL },
        { 0, 160, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &yb, NULL },
    };
    if (r == VK_SUCCESS)
        r = vkh_dispatch(h, pipeline, layout, res, 3, N / 64, 1, 1);
    int bad = 0;
    const float *out = yb.mapped;
    for (int i = 0; r == VK_SUCCESS && i < N; i++)
        bad += out[i] != 0.5f * (float)i + 1000.0f - 2.0f * (float)i;
    CHECK(r == VK_SUCCESS && bad == 0, "%s: %s, %d of %d results differ", what, vkh_result_name(r), bad, N);
    vkh_buffer_destroy(h, &cb);
    vkh_buffer_destroy(h, &xb);
    vkh_buffer_destroy(h, &yb);
}

/* The same bytes twice: one handle, both usable, destroyed before and after their pipelines. */
static VkShaderModule case_same_bytes(struct vkh *h, const struct vkh_layout *layout)
{
    VkShaderModule a = create(h, saxpy.bytes, saxpy.size);
    int translated = lt_log_count(": translated ("), hits = lt_log_count("memory cache hit");
    VkShaderModule b = create(h, saxpy.bytes, saxpy.size);
    CHECK(a && a == b, "the same bytes twice: handles 0x%llx and 0x%llx, want one", (unsigned long long)a,
          (unsigned long long)b);
    CHECK(lt_log_count(": translated (") == translated && lt_log_count("memory cache hit") == hits + 1,
          "the second creation: %d translations, %d memory hits (want 0, 1)",
          lt_log_count(": translated (") - translated, lt_log_count("memory cache hit") - hits);
    VkShaderModule g = create(h, group_sum.bytes, group_sum.size);
    CHECK(g && g != a, "other bytes share the handle 0x%llx", (unsigned long long)g);
    vkDestroyShaderModule(h->device, g, NULL);

    /* both creations in pipelines (two entry names: the layer rewrites pName either way) */
    VkPipeline pa = pipeline_of(h, a, "CSMain", layout), pb = pipeline_of(h, b, "main", layout);
    vkDestroyShaderModule(h->device, a, NULL); /* the first creation goes before its pipeline */
    check_saxpy(h, pa, layout, "pipeline of the first creation, after its destroy");
    check_saxpy(h, pb, layout, "pipeline of the second creation, after the first destroy");
    VkPipeline pc = pipeline_of(h, b, "CSMain", layout); /* b is still a live creation */
    check_saxpy(h, pc, layout, "pipeline made after the first destroy");
    vkDestroyPipeline(h->device, pa, NULL);
    vkDestroyPipeline(h->device, pb, NULL);
    vkDestroyPipeline(h->device, pc, NULL);
    vkDestroyShaderModule(h->device, b, NULL); /* the second creation goes after its pipelines */

    /* Every creation destroyed: the layer kept the driver module, a new creation gets it. */
    hits = lt_log_count("memory cache hit");
    translated = lt_log_count(": translated (");
    VkShaderModule c = create(h, saxpy.bytes, saxpy.size);
    CHECK(c == a && lt_log_count("memory cache hit") == hits + 1 && lt_log_count(": translated (") == translated,
          "after every destroy: handle 0x%llx (first 0x%llx), %d memory hits, %d translations",
          (unsigned long long)c, (unsigned long long)a, lt_log_count("memory cache hit") - hits,
          lt_log_count(": translated (") - translated);
    return c;
}

/* Chained bytes (a temporary module) and SPIR-V pass-through never share. */
static void case_not_shared(struct vkh *h, const struct vkh_layout *layout, VkShaderModule live)
{
    VkShaderModuleCreateInfo code = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = saxpy.size,
        .pCode = (const uint32_t *)saxpy.bytes,
    };
    VkComputePipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .pNext = &code,
                   .stage = VK_SHADER_STAGE_COMPUTE_BIT, .pName = "main" },
        .layout = layout->pipeline,
    };
    VkPipeline chained = VK_NULL_HANDLE;
    VkResult r = vkCreateComputePipelines(h->device, VK_NULL_HANDLE, 1, &info, NULL, &chained);
    CHECK(r == VK_SUCCESS, "saxpy chained into the stage: %s", vkh_result_name(r));
    check_saxpy(h, chained, layout, "chained stage while a shared module lives");
    vkDestroyPipeline(h->device, chained, NULL);
    /* the temporary module's destroy left the shared one alone */
    VkPipeline p = pipeline_of(h, live, "main", layout);
    check_saxpy(h, p, layout, "the shared module after a chained stage");
    vkDestroyPipeline(h->device, p, NULL);

    if (spirv.bytes) {
        VkShaderModule s1 = create(h, spirv.bytes, spirv.size), s2 = create(h, spirv.bytes, spirv.size);
        CHECK(s1 && s2 && s1 != s2, "SPIR-V pass-through shared a handle (0x%llx)", (unsigned long long)s1);
        vkDestroyShaderModule(h->device, s1, NULL);
        vkDestroyShaderModule(h->device, s2, NULL);
    }
}

/* VARIANTS translations of saxpy with other digests (the translator skips the checksum)
 * evict `live`'s entry and one whose module the application still holds. */
static void case_eviction(struct vkh *h, const struct vkh_layout *layout, VkShaderModule live)
{
    uint8_t *variant = malloc(saxpy.size);
    if (!variant)
        return;
    memcpy(variant, saxpy.bytes, saxpy.size);
    uint32_t id = 0xfeed0000u;
    memcpy(variant + 4, &id, 4);
    VkShaderModule kept = create(h, variant, saxpy.size);
    vkDestroyShaderModule(h->device, live, NULL); /* only the layer holds saxpy's module now */
    int translated = lt_log_count(": translated (");
    for (uint32_t i = 0; i < VARIANTS; i++) {
        id = i;
        memcpy(variant + 4, &id, 4);
        VkShaderModule m = create(h, variant, saxpy.size);
        vkDestroyShaderModule(h->device, m, NULL);
    }
    CHECK(lt_log_count(": translated (") == translated + VARIANTS, "%d variant translations, want %d",
          lt_log_count(": translated (") - translated, VARIANTS);
    VkPipeline p = pipeline_of(h, kept, "CSMain", layout);
    check_saxpy(h, p, layout, "a held module after its entry's eviction");
    vkDestroyPipeline(h->device, p, NULL);
    vkDestroyShaderModule(h->device, kept, NULL); /* its last reference: destroyed now */
    translated = lt_log_count(": translated (");
    VkShaderModule again = create(h, saxpy.bytes, saxpy.size);
    CHECK(lt_log_count(": translated (") == translated + 1, "saxpy after the eviction was not translated again");
    p = pipeline_of(h, again, "main", layout);
    check_saxpy(h, p, layout, "saxpy translated again after the eviction");
    vkDestroyPipeline(h->device, p, NULL);
    vkDestroyShaderModule(h->device, again, NULL);
    free(variant);
}

#define THREADS 4
#define THREAD_ROUNDS 1500

struct worker {
    struct vkh *h;
    int index, failed;
};

/* saxpy again and again (joins), every 5th round a variant of its own (a miss whose store
 * may evict saxpy's entry while the other threads join its module). */
static void *worker_main(void *arg)
{
    struct worker *w = arg;
    uint8_t *variant = malloc(saxpy.size);
    w->failed = !variant;
    for (int i = 0; variant && i < THREAD_ROUNDS; i++) {
        const uint8_t *bytes = saxpy.bytes;
        if (i % 5 == 0) {
            memcpy(variant, saxpy.bytes, saxpy.size);
            uint32_t id = 0x10000000u | (uint32_t)w->index << 20 | (uint32_t)i;
            memcpy(variant + 4, &id, 4);
            bytes = variant;
        }
        VkShaderModuleCreateInfo info = {
            .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = saxpy.size, .pCode = (const void *)bytes,
        };
        VkShaderModule m = VK_NULL_HANDLE;
        VkResult r = vkCreateShaderModule(w->h->device, &info, NULL, &m);
        w->failed += r != VK_SUCCESS || !m;
        if (r == VK_SUCCESS)
            vkDestroyShaderModule(w->h->device, m, NULL);
    }
    free(variant);
    return NULL;
}

static void case_threads(struct vkh *h)
{
    pthread_t th[THREADS];
    struct worker w[THREADS];
    int started = 0, failed = 0;
    for (int t = 0; t < THREADS; t++) {
        w[t] = (struct worker){ h, t, 0 };
        started += pthread_create(&th[started], NULL, worker_main, &w[t]) == 0;
    }
    for (int t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    for (int t = 0; t < started; t++)
        failed += w[t].failed;
    CHECK(started == THREADS && failed == 0, "threads: %d of %d started, %d creations failed", started, THREADS,
          failed);
}

/* Two creations on the harness's device: distinct handles when it enabled privateData. */
static void case_private_data(struct vkh *h)
{
    VkPhysicalDeviceVulkan13Features v13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES };
    VkPhysicalDeviceFeatures2 f = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &v13 };
    if (h->properties.apiVersion < VK_API_VERSION_1_3)
        return;
    vkGetPhysicalDeviceFeatures2(h->physical, &f);
    if (!v13.privateData) {
        printf("privateData: not supported, case skipped\n");
        return;
    }
    VkShaderModule a = create(h, saxpy.bytes, saxpy.size), b = create(h, saxpy.bytes, saxpy.size);
    CHECK(a && b && a != b && lt_log_count("shared modules off (privateData enabled") == 1,
          "privateData on: handles 0x%llx and 0x%llx, want two", (unsigned long long)a, (unsigned long long)b);
    vkDestroyShaderModule(h->device, a, NULL);
    vkDestroyShaderModule(h->device, b, NULL);
}

/* Replaces the harness's device by one with no features enabled (no privateData). */
static bool plain_device(struct vkh *h)
{
    vkDestroyCommandPool(h->device, h->command_pool, NULL);
    vkDestroyDevice(h->device, NULL);
    h->command_pool = VK_NULL_HANDLE;
    h->device = VK_NULL_HANDLE;
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue = { .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                      .queueFamilyIndex = h->queue_family, .queueCount = 1,
                                      .pQueuePriorities = &priority };
    VkDeviceCreateInfo info = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = 1,
                                .pQueueCreateInfos = &queue };
    VkResult r = vkCreateDevice(h->physical, &info, NULL, &h->device);
    if (r == VK_SUCCESS) {
        volkLoadDevice(h->device);
        vkGetDeviceQueue(h->device, h->queue_family, 0, &h->queue);
        VkCommandPoolCreateInfo pool = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                         .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                         .queueFamilyIndex = h->queue_family };
        r = vkCreateCommandPool(h->device, &pool, NULL, &h->command_pool);
    }
    CHECK(r == VK_SUCCESS && lt_log_count("shared modules on") >= 1, "plain device: %s", vkh_result_name(r));
    return r == VK_SUCCESS;
}

static int instance_shared(void)
{
    struct vkh h;
    int rc = vkh_init(&h);
    if (rc)
        return rc;
    case_private_data(&h);
    if (!plain_device(&h)) {
        vkh_destroy(&h);
        return 1;
    }
    struct vkh_layout layout;
    VkResult r = vkh_layout_create(&h, saxpy_bindings, 3, VK_SHADER_STAGE_COMPUTE_BIT, &layout);
    CHECK(r == VK_SUCCESS, "layout: %s", vkh_result_name(r));
    if (r == VK_SUCCESS) {
        VkShaderModule live = case_same_bytes(&h, &layout);
        case_not_shared(&h, &layout, live);
        case_eviction(&h, &layout, live);
        case_threads(&h);
        vkh_layout_destroy(&h, &layout);
    }
    CHECK(h.messages.errors == 0, "%u validation errors (first: %s)", h.messages.errors, h.messages.first_error);
    /* Every cache entry is this device's, every creation destroyed: the layer holds exactly
     * one driver module per entry (1024) and destroys them before the device. */
    vkh_destroy(&h);
    CHECK(lt_log_count("vkDestroyDevice: 1024 shared modules held by the layer destroyed; 0 modules") == 1,
          "the layer did not destroy exactly the 1024 modules it held at vkDestroyDevice");
    CHECK(h.messages.errors == 0, "%u validation errors at vkDestroyDevice (first: %s)", h.messages.errors,
          h.messages.first_error);
    return 0;
}

/* The application leaks a shared module: validation reports it, once, as without the layer. */
static int instance_leak(void)
{
    struct vkh h;
    int rc = vkh_init(&h);
    if (rc)
        return rc;
    if (!plain_device(&h)) {
        vkh_destroy(&h);
        return 1;
    }
    VkShaderModule a = create(&h, saxpy.bytes, saxpy.size), b = create(&h, saxpy.bytes, saxpy.size);
    CHECK(a && a == b, "leak instance: handles 0x%llx and 0x%llx", (unsigned long long)a, (unsigned long long)b);
    vkDestroyShaderModule(h.device, a, NULL); /* b is leaked */
    CHECK(h.messages.errors == 0, "%u validation errors (first: %s)", h.messages.errors, h.messages.first_error);
    h.messages.quiet = true;
    vkh_destroy(&h);
    CHECK(h.messages.errors == 1 && strstr(h.messages.first_error, "VkShaderModule"),
          "a leaked shared module: %u validation errors at vkDestroyDevice, want 1 about a VkShaderModule "
          "(first: %s)", h.messages.errors, h.messages.first_error);
    CHECK(lt_log_count("0 shared modules held by the layer destroyed; 1 modules the application did not destroy") == 1,
          "the leaked module was not left to the driver");
    return 0;
}

/* SHADERBRIDGE_LAYER_SHARE_MODULES=0: a driver module per creation. */
static int instance_disabled(void)
{
    setenv("SHADERBRIDGE_LAYER_SHARE_MODULES", "0", 1);
    struct vkh h;
    int rc = vkh_init(&h);
    unsetenv("SHADERBRIDGE_LAYER_SHARE_MODULES");
    if (rc)
        return rc;
    if (!plain_device(&h)) {
        vkh_destroy(&h);
        return 1;
    }
    struct vkh_layout layout;
    VkResult r = vkh_layout_create(&h, saxpy_bindings, 3, VK_SHADER_STAGE_COMPUTE_BIT, &layout);
    CHECK(r == VK_SUCCESS, "layout: %s", vkh_result_name(r));
    int hits = lt_log_count("memory cache hit");
    VkShaderModule a = create(&h, saxpy.bytes, saxpy.size), b = create(&h, saxpy.bytes, saxpy.size);
    CHECK(a && b && a != b && lt_log_count("memory cache hit") == hits + 2,
          "sharing off: handles 0x%llx and 0x%llx (want two), %d memory hits (want 2)", (unsigned long long)a,
          (unsigned long long)b, lt_log_count("memory cache hit") - hits);
    if (r == VK_SUCCESS) {
        VkPipeline pa = pipeline_of(&h, a, "CSMain", &layout);
        vkDestroyShaderModule(h.device, a, NULL);
        VkPipeline pb = pipeline_of(&h, b, "CSMain", &layout);
        check_saxpy(&h, pa, &layout, "sharing off, first creation");
        check_saxpy(&h, pb, &layout, "sharing off, second creation");
        vkDestroyPipeline(h.device, pa, NULL);
        vkDestroyPipeline(h.device, pb, NULL);
        vkh_layout_destroy(&h, &layout);
    } else {
        vkDestroyShaderModule(h.device, a, NULL);
    }
    vkDestroyShaderModule(h.device, b, NULL);
    int lines = lt_log_count("vkDestroyDevice:");
    vkh_destroy(&h);
    CHECK(lt_log_count("vkDestroyDevice:") == lines, "sharing off: the layer held modules at vkDestroyDevice");
    CHECK(h.messages.errors == 0, "%u validation errors (first: %s)", h.messages.errors, h.messages.first_error);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: test_layer_share SAMPLES_DIR SPV_DIR WORK_DIR\n");
        return 2;
    }
    if (!getenv("VK_INSTANCE_LAYERS") || !strstr(getenv("VK_INSTANCE_LAYERS"), "SHADERBRIDGE")) {
        printf("SKIPPED: VK_INSTANCE_LAYERS does not name VK_LAYER_SHADERBRIDGE_translate (run through ctest)\n");
        return VKH_SKIP;
    }
    lt_dir_reset(argv[3]);
    setenv("SHADERBRIDGE_LAYER_LOG", "info", 1);
    unsetenv("SHADERBRIDGE_LAYER_CACHE_DIR");
    unsetenv("SHADERBRIDGE_LAYER_DUMP_DIR");
    unsetenv("SHADERBRIDGE_LAYER_MEMORY_CACHE");
    unsetenv("SHADERBRIDGE_LAYER_SHARE_MODULES");
    saxpy = load(argv[1], "saxpy_cs_5_0.dxbc");
    group_sum = load(argv[1], "group_sum_cs_5_0.dxbc");
    spirv = load(argv[2], "double.comp.spv");
    char log[4200];
    snprintf(log, sizeof(log), "%s/layer.log", argv[3]);
    if (!saxpy.bytes || !group_sum.bytes || !lt_log_start(log))
        return 1;
    int rc = instance_shared();
    if (!rc)
        rc = instance_disabled();
    if (!rc)
        rc = instance_leak();
    lt_log_stop();
    free(saxpy.bytes);
    free(group_sum.bytes);
    free(spirv.bytes);
    if (rc == VKH_SKIP) {
        printf("SKIPPED: no Vulkan device\n");
        return VKH_SKIP;
    }
    if (rc || lt_failures) {
        size_t size = 0;
        char *text = (char *)lt_read_file(log, &size);
        printf("layer log (%s), last part:\n", log);
        if (text)
            fwrite(size > 8000 ? text + size - 8000 : text, 1, size > 8000 ? 8000 : size, stdout);
        free(text);
    }
    printf("%d checks, %d failures\n", lt_checks, lt_failures);
    return rc || lt_failures ? 1 : 0;
}
