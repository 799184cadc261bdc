/* SPDX-License-Identifier: MIT */
/*
 * Known-answer tests on lavapipe (issue #4 §8): every case of ka_cases.c is
 * wrapped in a DXBC container, translated with sb_translate, run as a
 * compute shader under the validation layer with the buffers / images its
 * bindings ask for, and its outputs are compared with the values computed
 * in C from D3D's rules. A case passes when translation, pipeline and
 * dispatch succeed with zero validation errors and every checked dword
 * matches (exactly, within the case's ULPs, or as a multiset for atomics'
 * return values).
 *
 * Cases that must currently fail are listed in the expected-failure TSV
 * (case name, reason); a listed case that passes fails the run, so the list
 * only shrinks. A failing case prints its listing (test_ka_listing --print)
 * and the first mismatching dwords.
 *
 * `--peer-dir DIR` runs DIR/<case>.spv, another translator's output for the
 * same containers (test_ka_listing --dump), in place of sb_translate, to
 * cross-check the expectations themselves (vk_spirv_reflect.c).
 *
 * `--optimize` translates with SB_TRANSLATE_OPTIMIZE (the SPIRV-Tools -O path
 * must keep D3D's answers too) and `--target-env vulkan1.X` for another target.
 *
 * Usage: test_vk_known_answer EXPECTED_TSV [--only NAME] [--peer-dir DIR]
 *                             [--optimize] [--target-env vulkan1.X]
 * Exit: 0 as expected, 1 otherwise, 77 no Vulkan device.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ka_cases.h"
#include "shaderbridge/translate.h"
#include "vk_pipeline_build.h"
#include "vk_spirv_reflect.h"

#define MAX_EXPECTED 128

struct run {
    struct vkh h;
    char expected[MAX_EXPECTED][48];
    bool seen[MAX_EXPECTED];
    unsigned expected_count;
    unsigned passed, failed, expected_failed, unexpected;
    const char *peer_dir;
    struct sb_translate_options options;
};

static bool load_expected(struct run *r, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return false;
    }
    char line[512];
    while (fgets(line, sizeof(line), f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *tab = strchr(line, '\t');
        if (!tab || r->expected_count == MAX_EXPECTED) {
            fprintf(stderr, "%s: bad line (want name<TAB>reason): %s", path, line);
            fclose(f);
            return false;
        }
        *tab = 0;
        snprintf(r->expected[r->expected_count++], sizeof(r->expected[0]), "%.47s", line);
    }
    fclose(f);
    return true;
}

static int find_expected(const struct run *r, const char *name)
{
    for (unsigned i = 0; i < r->expected_count; i++)
        if (strcmp(r->expected[i], name) == 0)
            return (int)i;
    return -1;
}

/* Distance in float ULPs (same sign assumed; different signs give a large number). */
static uint32_t ulp_distance(uint32_t a, uint32_t b)
{
    if ((a ^ b) & 0x80000000u)
        return (a & 0x7fffffffu) == 0 && (b & 0x7fffffffu) == 0 ? 0 : 0xFFFFFFFFu;
    return a > b ? a - b : b - a;
}

static bool is_nan_bits(uint32_t u) { return (u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu); }

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Compares one resource; prints up to 8 mismatches; returns the mismatch count. */
static unsigned compare(const struct ka_case *c, const struct ka_resource *res, const uint32_t *got)
{
    uint32_t n = res->check_count, from = res->check_from;
    static uint32_t a[KA_MAX_DWORDS], b[KA_MAX_DWORDS];
    memcpy(a, got + from, n * 4);
    memcpy(b, res->expect + from, n * 4);
    if (res->compare == KA_MULTISET) {
        qsort(a, n, 4, compare_u32);
        qsort(b, n, 4, compare_u32);
    }
    unsigned bad = 0;
    for (uint32_t i = 0; i < n; i++) {
        bool ok = a[i] == b[i];
        if (!ok && is_nan_bits(b[i]))
            ok = is_nan_bits(a[i]);
        if (!ok && res->compare == KA_ULPS)
            ok = ulp_distance(a[i], b[i]) <= res->ulps;
        if (!ok && bad++ < 8)
            fprintf(stderr, "  %s: %s%u[%u] = 0x%08x (%g), want 0x%08x (%g)\n", c->name,
                    res->resource_class == SB_IR_RESOURCE_UAV ? "u" : "?", res->reg, from + i,
                    a[i], (double)ka_asf(a[i]), b[i], (double)ka_asf(b[i]));
    }
    return bad;
}

/* The case's resource behind one translated binding, or NULL. */
static const struct ka_resource *resource_for(const struct ka_case *c,
                                              const struct sb_translated_binding *b)
{
    for (uint32_t i = 0; i < c->resource_count; i++)
        if (c->res[i].resource_class == b->resource_class && c->res[i].reg == b->lower_bound &&
            b->space == 0)
            return &c->res[i];
    return NULL;
}

/* GPU objects of one case. */
struct objects {
    struct vkh_buffer buffers[KA_MAX_RESOURCES + 4];
    struct vkh_image image;
    struct vkh_resource bound[KA_MAX_RESOURCES * 2 + 4];
    uint32_t bound_count, buffer_count;
    const struct ka_resource *buffer_of[KA_MAX_RESOURCES + 4];
};

static const VkBufferUsageFlags all_buffer_usage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
    VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT;

/* Creates the buffer or image for one binding; false with a message on failure. */
static bool bind_one(struct run *r, const struct ka_case *c, const struct sb_translated_binding *b,
                     struct objects *o, char *why, size_t why_size)
{
    const struct ka_resource *res = resource_for(c, b);
    VkDescriptorType type = (VkDescriptorType)b->descriptor_type;
    if (!res) {
        snprintf(why, why_size, "translation has a binding (class %u, register %u) the case "
                 "does not declare", b->resource_class, b->lower_bound);
        return false;
    }
    struct vkh_resource *slot = &o->bound[o->bound_count++];
    *slot = (struct vkh_resource){ b->set, b->binding, type, NULL, NULL };
    if (res->kind == KA_IMAGE || res->kind == KA_SAMPLER) {
        if (!o->image.image) {
            const struct ka_resource *img = res;
            for (uint32_t i = 0; i < c->resource_count; i++)
                if (c->res[i].kind == KA_IMAGE)
                    img = &c->res[i];
            struct vkh_image_desc desc = {
                .view_type = (VkImageViewType)img->view_type,
                .format = img->format ? (VkFormat)img->format : VK_FORMAT_R32G32B32A32_SFLOAT,
                .width = img->width, .height = img->height,
                .depth = img->depth ? img->depth : 1,
                .layers = img->layers ? img->layers : 1,
                .mips = img->mips ? img->mips : 1,
            };
            VkResult vr = vkh_image_bytes(&desc) <= sizeof(img->init)
                              ? vkh_image_create(&r->h, &desc, img->init, &o->image)
                              : VK_ERROR_OUT_OF_HOST_MEMORY;
            if (vr != VK_SUCCESS) {
                snprintf(why, why_size, "image: %s", vkh_result_name(vr));
                return false;
            }
        }
        slot->image = &o->image;
        return true;
    }
    struct vkh_buffer *buf = &o->buffers[o->buffer_count];
    o->buffer_of[o->buffer_count++] = res;
    /* Uniform buffers are read in 16-byte vectors: round up. */
    VkResult vr = vkh_buffer_create(&r->h, ((VkDeviceSize)res->dwords * 4 + 15) & ~15ull,
                                    all_buffer_usage, NULL, buf);
    if (vr == VK_SUCCESS)
        memcpy(buf->mapped, res->init, res->dwords * 4);
    if (vr == VK_SUCCESS && (type == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER ||
                             type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER))
        vr = vkh_buffer_view(&r->h, buf, res->format ? (VkFormat)res->format : VK_FORMAT_R32_UINT);
    if (vr != VK_SUCCESS) {
        snprintf(why, why_size, "buffer: %s", vkh_result_name(vr));
        return false;
    }
    slot->buffer = buf;
    if (b->has_counter) {
        struct vkh_buffer *counter = &o->buffers[o->buffer_count];
        o->buffer_of[o->buffer_count++] = NULL;
        if (vkh_buffer_create(&r->h, 16, all_buffer_usage, NULL, counter) != VK_SUCCESS)
            return false;
        o->bound[o->bound_count++] = (struct vkh_resource){
            b->set, b->counter_binding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, counter, NULL };
    }
    return true;
}

/* Runs a translated case; returns true when the outputs match. */
static bool run_translated(struct run *r, const struct ka_case *c, const struct sb_translation *t,
                           char *why, size_t why_size)
{
    static struct vkh_binding bindings[64];
    uint32_t n = vkpb_layout_bindings(t, bindings, 64);
    struct vkh_layout layout;
    VkShaderModule module = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    static struct objects o;
    memset(&o, 0, sizeof(o));
    bool ok = false;
    VkResult vr = vkh_layout_create(&r->h, bindings, n, VK_SHADER_STAGE_COMPUTE_BIT, &layout);
    if (vr == VK_SUCCESS)
        vr = vkh_shader_module(&r->h, t->words, t->word_count, &module);
    if (vr == VK_SUCCESS)
        vr = vkh_compute_pipeline(&r->h, module, t->entry_point, layout.pipeline, &pipeline);
    if (vr != VK_SUCCESS) {
        snprintf(why, why_size, "pipeline: %s", vkh_result_name(vr));
        goto done;
    }
    for (uint32_t i = 0; i < t->binding_count; i++)
        if (!bind_one(r, c, &t->bindings[i], &o, why, why_size))
            goto done;
    vr = vkh_dispatch(&r->h, pipeline, &layout, o.bound, o.bound_count, c->groups, 1, 1);
    if (vr != VK_SUCCESS) {
        snprintf(why, why_size, "dispatch: %s", vkh_result_name(vr));
        goto done;
    }
    unsigned bad = 0, checked = 0;
    for (uint32_t i = 0; i < o.buffer_count; i++)
        if (o.buffer_of[i] && o.buffer_of[i]->check) {
            bad += compare(c, o.buffer_of[i], o.buffers[i].mapped);
            checked++;
        }
    for (uint32_t i = 0; i < c->resource_count; i++) {
        bool found = false;
        for (uint32_t j = 0; j < o.buffer_count; j++)
            found |= o.buffer_of[j] == &c->res[i];
        if (c->res[i].check && !found) {
            snprintf(why, why_size, "no binding for checked register %u", c->res[i].reg);
            goto done;
        }
    }
    if (bad)
        snprintf(why, why_size, "%u dwords differ", bad);
    ok = bad == 0 && checked > 0;
done:
    for (uint32_t i = 0; i < o.buffer_count; i++)
        vkh_buffer_destroy(&r->h, &o.buffers[i]);
    vkh_image_destroy(&r->h, &o.image);
    if (pipeline)
        vkDestroyPipeline(r->h.device, pipeline, NULL);
    if (module)
        vkDestroyShaderModule(r->h.device, module, NULL);
    vkh_layout_destroy(&r->h, &layout);
    return ok;
}

/* --peer-dir: the module another translator wrote for this case. */
static bool run_peer(struct run *r, const struct ka_case *c, char *why, size_t why_size)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s.spv", r->peer_dir, c->name);
    FILE *f = fopen(path, "rb");
    static uint32_t words[65536];
    size_t n = f ? fread(words, 4, 65536, f) : 0;
    if (f)
        fclose(f);
    if (n == 0) {
        snprintf(why, why_size, "no peer module %.200s", path);
        return false;
    }
    static struct vkr_storage storage;
    struct sb_translation t;
    if (!vkr_translation_from_spirv(words, n, &storage, &t)) {
        snprintf(why, why_size, "cannot read peer module %.200s", path);
        return false;
    }
    return run_translated(r, c, &t, why, why_size);
}

static void run_case(struct run *r, const struct ka_case *c)
{
    char why[300] = "";
    static struct blob container;
    sm4_container(&c->program, &container);
    struct sb_translation *t = NULL;
    struct sb_error err = { 0 };
    bool ok = false;
    vkh_reset_messages(&r->h);
    if (r->peer_dir) {
        ok = run_peer(r, c, why, sizeof(why));
    } else {
        enum sb_result res = sb_translate(container.bytes, container.size, &r->options, &t, &err);
        if (res != SB_SUCCESS)
            snprintf(why, sizeof(why), "translate: %s at %llu: %s", sb_result_name(res),
                     (unsigned long long)err.offset, err.message);
        else
            ok = run_translated(r, c, t, why, sizeof(why));
    }
    sb_translation_destroy(t);
    if (r->h.messages.errors) {
        ok = false;
        snprintf(why, sizeof(why), "%u validation errors: %.200s", r->h.messages.errors,
                 r->h.messages.first_error);
    }
    int e = find_expected(r, c->name);
    if (e >= 0)
        r->seen[e] = true;
    if (ok && e < 0) {
        r->passed++;
        printf("pass  %s\n", c->name);
    } else if (ok) {
        r->unexpected++;
        fprintf(stderr, "UNEXPECTED PASS %s: remove it from the expected-failure list\n", c->name);
    } else if (e >= 0) {
        r->expected_failed++;
        printf("xfail %s: %s\n", c->name, why);
    } else {
        r->failed++;
        fprintf(stderr, "FAIL  %s: %s (listing: test_ka_listing --print %s)\n", c->name, why,
                c->name);
    }
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 2) {
        fprintf(stderr, "usage: %s EXPECTED_TSV [--only NAME] [--peer-dir DIR] [--optimize] "
                        "[--target-env ENV]\n", argv[0]);
        return 2;
    }
    static struct run r;
    const char *only = NULL;
    r.options.target_env = SB_TARGET_VULKAN_1_1;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "--peer-dir") == 0 && i + 1 < argc)
            r.peer_dir = argv[++i];
        else if (strcmp(argv[i], "--optimize") == 0)
            r.options.flags |= SB_TRANSLATE_OPTIMIZE;
        else if (strcmp(argv[i], "--target-env") == 0 && i + 1 < argc &&
                 !sb_target_env_parse(argv[++i], &r.options.target_env)) {
            fprintf(stderr, "unknown target env %s\n", argv[i]);
            return 2;
        }
    }
    if (!load_expected(&r, argv[1]))
        return 1;
    int status = vkh_init(&r.h);
    if (status != 0)
        return status;
    static struct ka_case c;
    for (uint32_t i = 0; i < ka_case_count(); i++) {
        ka_case_build(i, &c);
        if (!only || strcmp(only, c.name) == 0)
            run_case(&r, &c);
    }
    vkh_destroy(&r.h);
    for (unsigned i = 0; i < r.expected_count && !only; i++)
        if (!r.seen[i]) {
            fprintf(stderr, "UNEXPECTED: listed case %s does not exist\n", r.expected[i]);
            r.unexpected++;
        }
    printf("known-answer: %u passed, %u failed, %u expected failures, %u unexpected\n", r.passed,
           r.failed, r.expected_failed, r.unexpected);
    return r.failed || r.unexpected ? 1 : 0;
}
