/* SPDX-License-Identifier: MIT */
/*
 * The layer's pure helpers without a loader: the content hash (stable across
 * runs because cache file names depend on it: a fixed vector; every single-bit
 * flip and every length change moves it; seeds separate) and the entry-point
 * reader (the name of a hand-written module; NULL for a truncated instruction,
 * a zero word count, a missing name terminator, a module without OpEntryPoint,
 * and the wrong magic), and the device profile (features from a chained
 * VkPhysicalDeviceVulkan12Features, the per-stage limits from the device's limits,
 * both moving the cache key's parts; shaderResourceMinLod from pEnabledFeatures or a chained
 * VkPhysicalDeviceFeatures2, off when neither has it; the two extensions it reads:
 * interlock only with both the extension and the feature enabled, FullyCoveredEXT with its
 * extension, each its own cache-key bit).
 */
#include <stdio.h>
#include <string.h>

#include "layer_private.h"

static int failures;

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            failures++;                                                                    \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                    \
            printf(__VA_ARGS__);                                                           \
            printf("\n");                                                                  \
        }                                                                                  \
    } while (0)

static void test_hash(void)
{
    const char text[] = "shaderbridge layer hash";
    struct sb_layer_hash h = sb_layer_hash_bytes(text, sizeof(text) - 1, 0);
    char hex[33];
    sb_layer_hash_hex(h, hex);
    printf("hash(\"%s\") = %s\n", text, hex);
    CHECK(strlen(hex) == 32, "hex length %zu", strlen(hex));
    struct sb_layer_hash again = sb_layer_hash_bytes(text, sizeof(text) - 1, 0);
    CHECK(again.lo == h.lo && again.hi == h.hi, "not deterministic");
    struct sb_layer_hash seeded = sb_layer_hash_bytes(text, sizeof(text) - 1, 1);
    CHECK(seeded.lo != h.lo && seeded.hi != h.hi, "the seed does not change the hash");
    uint8_t buf[64];
    memset(buf, 0xa5, sizeof(buf));
    struct sb_layer_hash base = sb_layer_hash_bytes(buf, sizeof(buf), 0);
    int same = 0;
    for (size_t bit = 0; bit < sizeof(buf) * 8; bit++) {
        buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        struct sb_layer_hash f = sb_layer_hash_bytes(buf, sizeof(buf), 0);
        same += f.lo == base.lo || f.hi == base.hi;
        buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    }
    CHECK(same == 0, "%d single-bit flips leave a lane unchanged", same);
    for (size_t n = 0; n < sizeof(buf); n++) {
        struct sb_layer_hash a = sb_layer_hash_bytes(buf, n, 0), b = sb_layer_hash_bytes(buf, n + 1, 0);
        CHECK(a.lo != b.lo, "lengths %zu and %zu collide", n, n + 1);
    }
    /* Zero bytes of different lengths (the tail is zero-extended) differ too. */
    memset(buf, 0, sizeof(buf));
    struct sb_layer_hash z3 = sb_layer_hash_bytes(buf, 3, 0), z4 = sb_layer_hash_bytes(buf, 4, 0);
    CHECK(z3.lo != z4.lo, "3 and 4 zero bytes collide");
}

static void test_entry(void)
{
    /* header (5 words), OpCapability Shader, OpMemoryModel, OpEntryPoint GLCompute %1 "CSMain" */
    uint32_t words[] = {
        0x07230203u, 0x00010300u, 0, 10, 0,
        (2u << 16) | 17, 1,
        (3u << 16) | 14, 0, 1,
        (6u << 16) | 15, 5, 1, 0, 0, 0,
    };
    memcpy(&words[13], "CSMain\0\0", 8);
    words[15] = 0;
    const char *name = sb_layer_spirv_entry_name(words, 16);
    CHECK(name && !strcmp(name, "CSMain"), "entry name %s", name ? name : "(null)");
    CHECK(!sb_layer_spirv_entry_name(words, 14), "a truncated OpEntryPoint was read");
    words[13] = 0x41414141u;
    words[14] = 0x41414141u;
    words[15] = 0x41414141u;
    CHECK(!sb_layer_spirv_entry_name(words, 16), "an unterminated name was read");
    words[5] = 0; /* zero word count */
    CHECK(!sb_layer_spirv_entry_name(words, 16), "a zero word count was walked");
    words[5] = (2u << 16) | 17;
    words[10] = (6u << 16) | 54; /* OpFunction before any OpEntryPoint */
    CHECK(!sb_layer_spirv_entry_name(words, 16), "found an entry point in a module without one");
    words[0] = 0x44584243u;
    CHECK(!sb_layer_spirv_entry_name(words, 16), "read a module with the wrong magic");
    CHECK(!sb_layer_spirv_entry_name(NULL, 0), "NULL module");
}

static void test_profile(void)
{
    VkPhysicalDeviceVulkan12Features f12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                             .shaderStorageBufferArrayNonUniformIndexing = VK_TRUE };
    VkPhysicalDeviceFeatures core = { .shaderStorageImageReadWithoutFormat = VK_TRUE };
    VkDeviceCreateInfo info = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &f12,
                                .pEnabledFeatures = &core };
    struct sb_device_profile p;
    sb_layer_device_profile(&info, &p);
    CHECK(p.described && p.storage_image_read_without_format && p.storage_buffer_array_non_uniform_indexing &&
              !p.sampled_image_array_non_uniform_indexing && p.max_per_stage_storage_buffers == 0,
          "profile from the create info: described %d, read without format %d, storage-buffer indexing %d, "
          "sampled-image indexing %d, storage buffers %u", p.described, p.storage_image_read_without_format,
          p.storage_buffer_array_non_uniform_indexing, p.sampled_image_array_non_uniform_indexing,
          p.max_per_stage_storage_buffers);
    /* lavapipe 22.3's per-stage limits */
    VkPhysicalDeviceLimits limits = { .maxPerStageDescriptorStorageBuffers = 32,
                                      .maxPerStageDescriptorStorageImages = 64,
                                      .maxPerStageDescriptorSampledImages = 128 };
    sb_layer_device_limits(&limits, &p);
    CHECK(p.max_per_stage_storage_buffers == 32 && p.max_per_stage_storage_images == 64 &&
              p.max_per_stage_sampled_images == 128,
          "limits: %u storage buffers, %u storage images, %u sampled images; want 32, 64, 128",
          p.max_per_stage_storage_buffers, p.max_per_stage_storage_images, p.max_per_stage_sampled_images);
    CHECK(sb_layer_device_profile_bits(&p) == (1u | 2u | 64u), "profile bits %#llx, want 0x43",
          (unsigned long long)sb_layer_device_profile_bits(&p));
}

/* shaderResourceMinLod from either place the application may enable it, and in the cache key. */
static void test_profile_min_lod(void)
{
    VkPhysicalDeviceFeatures core = { .shaderResourceMinLod = VK_TRUE };
    VkDeviceCreateInfo info = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pEnabledFeatures = &core };
    struct sb_device_profile p;
    sb_layer_device_profile(&info, &p);
    CHECK(p.described && p.shader_resource_min_lod && !p.storage_image_read_without_format,
          "pEnabledFeatures: described %d, shaderResourceMinLod %d", p.described, p.shader_resource_min_lod);
    uint64_t with = sb_layer_device_profile_bits(&p);
    VkPhysicalDeviceFeatures2 chained = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2 };
    info.pEnabledFeatures = NULL;
    info.pNext = &chained;
    sb_layer_device_profile(&info, &p);
    CHECK(p.described && !p.shader_resource_min_lod, "features2 without it: shaderResourceMinLod %d",
          p.shader_resource_min_lod);
    CHECK(sb_layer_device_profile_bits(&p) != with, "the cache key does not tell shaderResourceMinLod apart");
    chained.features.shaderResourceMinLod = VK_TRUE;
    sb_layer_device_profile(&info, &p);
    CHECK(p.shader_resource_min_lod && sb_layer_device_profile_bits(&p) == with, "features2 with it: %d",
          p.shader_resource_min_lod);
    info.pNext = NULL;
    sb_layer_device_profile(&info, &p);
    CHECK(p.described && !p.shader_resource_min_lod, "no features: shaderResourceMinLod %d", p.shader_resource_min_lod);
}

static void test_profile_extensions(void)
{
    const char *both[] = { "VK_EXT_conservative_rasterization", VK_EXT_FRAGMENT_SHADER_INTERLOCK_EXTENSION_NAME };
    VkPhysicalDeviceFragmentShaderInterlockFeaturesEXT interlock = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADER_INTERLOCK_FEATURES_EXT,
        .fragmentShaderPixelInterlock = VK_TRUE,
    };
    VkDeviceCreateInfo info = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO };
    struct sb_device_profile p;
    sb_layer_device_profile(&info, &p);
    CHECK(p.described && !p.fragment_shader_pixel_interlock && !p.fragment_fully_covered,
          "nothing enabled: interlock %d, fully covered %d", p.fragment_shader_pixel_interlock,
          p.fragment_fully_covered);
    CHECK(sb_layer_device_profile_bits(&p) == 1, "bits 0x%llx", (unsigned long long)sb_layer_device_profile_bits(&p));
    info.pNext = &interlock; /* the feature without its extension */
    sb_layer_device_profile(&info, &p);
    CHECK(!p.fragment_shader_pixel_interlock, "interlock taken without its extension");
    info.enabledExtensionCount = 2;
    info.ppEnabledExtensionNames = both;
    sb_layer_device_profile(&info, &p);
    CHECK(p.fragment_shader_pixel_interlock && p.fragment_fully_covered, "both enabled: interlock %d, fully covered %d",
          p.fragment_shader_pixel_interlock, p.fragment_fully_covered);
    CHECK(sb_layer_device_profile_bits(&p) == (1u | 1u << 8 | 1u << 9), "bits 0x%llx",
          (unsigned long long)sb_layer_device_profile_bits(&p));
    interlock.fragmentShaderPixelInterlock = VK_FALSE; /* the extension, its feature off */
    sb_layer_device_profile(&info, &p);
    CHECK(!p.fragment_shader_pixel_interlock && p.fragment_fully_covered, "feature off: interlock %d",
          p.fragment_shader_pixel_interlock);
}

/* The features of the SM 6.1+ system values (translator/IR.md "System values"): multiview from
 * either struct, the shading-rate and barycentric features only with their extensions; each
 * its own cache-key bit (10, 11, 12). */
static void test_profile_system_values(void)
{
    const char *extensions[] = { VK_KHR_FRAGMENT_SHADING_RATE_EXTENSION_NAME,
                                 VK_KHR_FRAGMENT_SHADER_BARYCENTRIC_EXTENSION_NAME };
    VkPhysicalDeviceFragmentShaderBarycentricFeaturesKHR barycentric = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADER_BARYCENTRIC_FEATURES_KHR,
        .fragmentShaderBarycentric = VK_TRUE,
    };
    VkPhysicalDeviceFragmentShadingRateFeaturesKHR rate = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADING_RATE_FEATURES_KHR,
        .pNext = &barycentric, .primitiveFragmentShadingRate = VK_TRUE,
    };
    VkPhysicalDeviceMultiviewFeatures multiview = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES, .pNext = &rate, .multiview = VK_TRUE,
    };
    VkDeviceCreateInfo info = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &multiview };
    struct sb_device_profile p;
    sb_layer_device_profile(&info, &p);
    CHECK(p.multiview && !p.fragment_shading_rate && !p.fragment_shader_barycentric,
          "features without extensions: multiview %d, rate %d, barycentric %d", p.multiview,
          p.fragment_shading_rate, p.fragment_shader_barycentric);
    CHECK(sb_layer_device_profile_bits(&p) == (1u | 1u << 10), "bits 0x%llx",
          (unsigned long long)sb_layer_device_profile_bits(&p));
    info.enabledExtensionCount = 2;
    info.ppEnabledExtensionNames = extensions;
    sb_layer_device_profile(&info, &p);
    CHECK(p.fragment_shading_rate && p.fragment_shader_barycentric, "with extensions: rate %d, barycentric %d",
          p.fragment_shading_rate, p.fragment_shader_barycentric);
    CHECK(sb_layer_device_profile_bits(&p) == (1u | 1u << 10 | 1u << 11 | 1u << 12), "bits 0x%llx",
          (unsigned long long)sb_layer_device_profile_bits(&p));
    VkPhysicalDeviceVulkan11Features v11 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES };
    info.pNext = &v11; /* multiview off in the 1.1 struct, nothing else chained */
    sb_layer_device_profile(&info, &p);
    CHECK(!p.multiview && !p.fragment_shading_rate, "v11 without multiview: multiview %d, rate %d", p.multiview,
          p.fragment_shading_rate);
    v11.multiview = VK_TRUE;
    sb_layer_device_profile(&info, &p);
    CHECK(p.multiview, "v11 multiview not taken");
}

int main(void)
{
    test_hash();
    test_entry();
    test_profile();
    test_profile_min_lod();
    test_profile_extensions();
    test_profile_system_values();
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
