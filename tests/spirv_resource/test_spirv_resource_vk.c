/* SPDX-License-Identifier: MIT */
/*
 * Known answers for resource ops the shared known-answer suite
 * (tests/vulkan) does not reach: gather4 channel selection and texel
 * offset, resinfo in its uint/float/rcpFloat forms on a 2-level texture
 * (and a mip level past the last), sampleinfo of the rasterizer, imm_atomic_consume on a counter,
 * ld_raw through the memory operand's swizzle and store_raw under a mask.
 * Hand-built IR compute shaders are translated, dispatched on lavapipe under
 * the Khronos validation layer (tests/vulkan's harness), and the buffers
 * compared with the values D3D defines. One ctest per case (argv[1]); exit 77
 * without a Vulkan device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../spirv/spirv_test_util.h"
#include "vk_harness.h"
#include "vk_pipeline_build.h"

static const VkBufferUsageFlags buffer_usage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT |
    VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT;

#define R(i, m) dst_reg(SB_IR_FILE_TEMP, i, m)
#define S(i, sw) src_reg(SB_IR_FILE_TEMP, i, sw)
#define OPS(...) ((const struct sb_ir_operand[]){ __VA_ARGS__ })
#define NOPS(...) ((uint32_t)(sizeof(OPS(__VA_ARGS__)) / sizeof(struct sb_ir_operand)))
#define INST(op, D, S_) emit(op, 0, NOPS D, OPS D, NOPS S_, OPS S_)

static struct vkh h;

static uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* What one descriptor of a case is bound to. */
struct binding_data {
    uint32_t resource_class, reg;
    bool counter;                 /* the UAV's counter binding instead */
    const struct vkh_buffer *buffer;
    const struct vkh_image *image;
};

/* Translates, builds the pipeline from the reported bindings, dispatches `groups`. */
static bool run(const struct sb_ir_program *p, const struct binding_data *data, uint32_t data_count,
                uint32_t groups, const char *what)
{
    struct sb_translation *t = translate_checked(p, SB_TARGET_VULKAN_1_1, 0, what);
    if (!t)
        return false;
    struct vkh_binding bindings[32];
    struct vkh_resource bound[32];
    uint32_t n = vkpb_layout_bindings(t, bindings, 32), nb = 0;
    for (uint32_t i = 0; i < t->binding_count; i++) {
        const struct sb_translated_binding *tb = &t->bindings[i];
        for (uint32_t k = 0; k < data_count; k++) {
            if (data[k].resource_class != tb->resource_class || data[k].reg != tb->lower_bound)
                continue;
            if (data[k].counter && tb->has_counter)
                bound[nb++] = (struct vkh_resource){ tb->set, tb->counter_binding,
                                                     VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                     data[k].buffer, NULL };
            else if (!data[k].counter)
                bound[nb++] = (struct vkh_resource){ tb->set, tb->binding,
                                                     (VkDescriptorType)tb->descriptor_type,
                                                     data[k].buffer, data[k].image };
        }
    }
    struct vkh_layout layout;
    VkShaderModule module = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    vkh_reset_messages(&h);
    VkResult vr = vkh_layout_create(&h, bindings, n, VK_SHADER_STAGE_COMPUTE_BIT, &layout);
    if (vr == VK_SUCCESS)
        vr = vkh_shader_module(&h, t->words, t->word_count, &module);
    if (vr == VK_SUCCESS)
        vr = vkh_compute_pipeline(&h, module, t->entry_point, layout.pipeline, &pipeline);
    if (vr == VK_SUCCESS)
        vr = vkh_dispatch(&h, pipeline, &layout, bound, nb, groups, 1, 1);
    bool ok = vr == VK_SUCCESS && h.messages.errors == 0;
    if (!ok) {
        fprintf(stderr, "%s: %s, %u validation error(s): %s\n", what, vkh_result_name(vr),
                h.messages.errors, h.messages.first_error);
        g_failures++;
    }
    if (pipeline)
        vkDestroyPipeline(h.device, pipeline, NULL);
    if (module)
        vkDestroyShaderModule(h.device, module, NULL);
    vkh_layout_destroy(&h, &layout);
    sb_translation_destroy(t);
    return ok;
}

static void expect_words(const char *what, const struct vkh_buffer *b, uint32_t first,
                         const uint32_t *want, uint32_t count)
{
    const uint32_t *got = (const uint32_t *)b->mapped + first;
    for (uint32_t i = 0; i < count; i++)
        if (got[i] != want[i]) {
            fprintf(stderr, "%s: dword %u = 0x%08x, want 0x%08x\n", what, first + i, got[i], want[i]);
            g_failures++;
        }
}

static struct sb_ir_resource *resource(uint32_t cls, uint32_t id, uint32_t kind, uint32_t dim,
                                       uint32_t ret)
{
    struct sb_ir_resource *r = add_resource(cls, id);
    r->kind = kind;
    r->dimension = dim;
    for (int i = 0; i < 4; i++)
        r->return_type[i] = ret;
    return r;
}

/* A 4x2 RGBA32F texture, texel (i, j) channel c = 10 i + 100 j + c. */
static float texel_value(uint32_t i, uint32_t j, uint32_t c)
{
    return (float)(10 * i + 100 * j + c);
}

static void case_gather_resinfo(void)
{
    ir_reset();
    resource(SB_IR_RESOURCE_SRV, 0, SB_IR_RESOURCE_KIND_TYPED, 3, 5);
    add_resource(SB_IR_RESOURCE_SAMPLER, 0);
    resource(SB_IR_RESOURCE_UAV, 0, SB_IR_RESOURCE_KIND_RAW, 11, 0);
    struct sb_ir_operand t0 = src_reg(SB_IR_FILE_RESOURCE, 0, "xyzw");
    struct sb_ir_operand u0 = dst_reg(SB_IR_FILE_UAV, 0, 0xF);
    /* resinfo forms (return type, mip): uint, float, rcpFloat of mip 0; uint of mips 1, 2. */
    static const uint32_t forms[5][2] = { { 2, 0 }, { 0, 0 }, { 1, 0 }, { 2, 1 }, { 2, 2 } };
    for (uint32_t k = 0; k < 5; k++) {
        INST(SB_IR_OP_RESINFO, (R(0, 0xF)), (imm(forms[k][1], 0, 0, 0), t0))->return_type = forms[k][0];
        INST(SB_IR_OP_STORE_RAW, (u0), (imm(16 * k, 0, 0, 0), S(0, "xyzw")));
    }
    struct sb_ir_operand uv = immf(0.5f, 0.5f, 0, 0);
    INST(SB_IR_OP_GATHER4, (R(1, 0xF)), (uv, t0, src_reg(SB_IR_FILE_SAMPLER, 0, "y")))->texel_offset[0] = -1;
    INST(SB_IR_OP_STORE_RAW, (u0), (imm(80, 0, 0, 0), S(1, "xyzw")));
    INST(SB_IR_OP_GATHER4, (R(1, 0xF)), (uv, src_reg(SB_IR_FILE_RESOURCE, 0, "wzyx"),
                                          src_reg(SB_IR_FILE_SAMPLER, 0, "x")));
    INST(SB_IR_OP_STORE_RAW, (u0), (imm(96, 0, 0, 0), S(1, "xyzw")));
    INST(SB_IR_OP_SAMPLE_INFO, (R(2, 0x3)), (special(SB_IR_FILE_RASTERIZER, 0, "xyzw")))->return_type = 1;
    INST(SB_IR_OP_STORE_RAW, (dst_reg(SB_IR_FILE_UAV, 0, 0x3)), (imm(112, 0, 0, 0), S(2, "xyzw")));
    struct sb_ir_program *p = ir_program(SB_IR_STAGE_COMPUTE, 3);
    p->thread_group[0] = p->thread_group[1] = p->thread_group[2] = 1;

    /* Mip 0 (4 x 2) then mip 1 (2 x 1, texels 900 + c). */
    float texels[(4 * 2 + 2) * 4];
    for (uint32_t j = 0; j < 2; j++)
        for (uint32_t i = 0; i < 4; i++)
            for (uint32_t c = 0; c < 4; c++)
                texels[(j * 4 + i) * 4 + c] = texel_value(i, j, c);
    for (uint32_t k = 32; k < 40; k++)
        texels[k] = (float)(900 + k % 4);
    const struct vkh_image_desc desc = { VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R32G32B32A32_SFLOAT,
                                         4, 2, 1, 1, 2 };
    struct vkh_image img;
    struct vkh_buffer out;
    memset(&img, 0, sizeof(img));
    memset(&out, 0, sizeof(out));
    if (vkh_image_bytes(&desc) != sizeof(texels) ||
        vkh_image_create(&h, &desc, texels, &img) != VK_SUCCESS ||
        vkh_buffer_create(&h, 512, buffer_usage, NULL, &out) != VK_SUCCESS) {
        fprintf(stderr, "gather_resinfo: resources could not be created\n");
        g_failures++;
        return;
    }
    const struct binding_data data[] = {
        { SB_IR_RESOURCE_SRV, 0, false, NULL, &img },
        { SB_IR_RESOURCE_SAMPLER, 0, false, NULL, &img },
        { SB_IR_RESOURCE_UAV, 0, false, &out, NULL },
    };
    if (run(p, data, 3, 1, "gather_resinfo")) {
        /* resinfo_uint: 4 x 2, no depth, 2 levels; float; rcpFloat inverts the extents only;
         * mip 1 is 2 x 1; mip 2 is past the last: sizes 0, the level count still 2. */
        const uint32_t want[] = {
            4, 2, 0, 2,
            f2u(4.0f), f2u(2.0f), 0, f2u(2.0f),
            f2u(0.25f), f2u(0.5f), 0, f2u(2.0f),
            2, 1, 0, 2,
            0, 0, 0, 2,
            /* gather4 green at (0.5, 0.5) with offset (-1, 0): footprint texels
             * (0..1, 0..1) in D3D order (i0,j1) (i1,j1) (i1,j0) (i0,j0). */
            f2u(texel_value(0, 1, 1)), f2u(texel_value(1, 1, 1)), f2u(texel_value(1, 0, 1)),
            f2u(texel_value(0, 0, 1)),
            /* gather4 red, no offset (texels 1..2), written through t0.wzyx. */
            f2u(texel_value(1, 0, 0)), f2u(texel_value(2, 0, 0)), f2u(texel_value(2, 1, 0)),
            f2u(texel_value(1, 1, 0)),
            /* sampleinfo_uint rasterizer: the specialisation default, 1 sample. */
            1, 0,
        };
        expect_words("gather_resinfo", &out, 0, want, sizeof(want) / sizeof(want[0]));
    }
    vkh_buffer_destroy(&h, &out);
    vkh_image_destroy(&h, &img);
}

static void case_consume(void)
{
    ir_reset();
    resource(SB_IR_RESOURCE_UAV, 0, SB_IR_RESOURCE_KIND_RAW, 11, 0);
    struct sb_ir_resource *s = resource(SB_IR_RESOURCE_UAV, 1, SB_IR_RESOURCE_KIND_STRUCTURED, 12, 0);
    s->stride = 4;
    s->has_counter = true;
    add_signature(SB_IR_SIGNATURE_INPUT, SB_IR_FILE_THREAD_ID, 0, 0x7, "", 0, 0, SB_IR_TYPE_UINT, 0);
    INST(SB_IR_OP_IMM_ATOMIC_CONSUME, (R(0, 0x1), dst_reg(SB_IR_FILE_UAV, 1, 0xF)), (imm(0, 0, 0, 0)))
        ->src_count = 0;
    INST(SB_IR_OP_ISHL, (R(1, 0x1)), (special(SB_IR_FILE_THREAD_ID, 0, "x"), imm(2, 0, 0, 0)));
    INST(SB_IR_OP_STORE_RAW, (dst_reg(SB_IR_FILE_UAV, 0, 0x1)), (S(1, "x"), S(0, "x")));
    struct sb_ir_program *p = ir_program(SB_IR_STAGE_COMPUTE, 2);
    p->thread_group[0] = 8;
    p->thread_group[1] = p->thread_group[2] = 1;
    static const uint32_t eight[4] = { 8, 0, 0, 0 };
    struct vkh_buffer out, items, counter;
    memset(&out, 0, sizeof(out));
    memset(&items, 0, sizeof(items));
    memset(&counter, 0, sizeof(counter));
    if (vkh_buffer_create(&h, 64, buffer_usage, NULL, &out) != VK_SUCCESS ||
        vkh_buffer_create(&h, 64, buffer_usage, NULL, &items) != VK_SUCCESS ||
        vkh_buffer_create(&h, 16, buffer_usage, eight, &counter) != VK_SUCCESS) {
        fprintf(stderr, "consume: buffers could not be created\n");
        g_failures++;
        return;
    }
    const struct binding_data data[] = {
        { SB_IR_RESOURCE_UAV, 0, false, &out, NULL },
        { SB_IR_RESOURCE_UAV, 1, false, &items, NULL },
        { SB_IR_RESOURCE_UAV, 1, true, &counter, NULL },
    };
    if (run(p, data, 3, 1, "consume")) {
        /* Each of 8 consumes returns the decremented count: 7..0 once each. */
        const uint32_t *got = out.mapped;
        uint32_t seen = 0;
        for (uint32_t i = 0; i < 8; i++)
            if (got[i] < 8)
                seen |= 1u << got[i];
        if (seen != 0xFFu) {
            fprintf(stderr, "consume: results are not 0..7 once each (mask 0x%x)\n", seen);
            g_failures++;
        }
        static const uint32_t zero = 0;
        expect_words("consume counter", &counter, 0, &zero, 1);
    }
    vkh_buffer_destroy(&h, &out);
    vkh_buffer_destroy(&h, &items);
    vkh_buffer_destroy(&h, &counter);
}

static void case_raw_swizzle_mask(void)
{
    ir_reset();
    resource(SB_IR_RESOURCE_UAV, 0, SB_IR_RESOURCE_KIND_RAW, 11, 0);
    resource(SB_IR_RESOURCE_UAV, 1, SB_IR_RESOURCE_KIND_RAW, 11, 0);
    struct sb_ir_resource *st = resource(SB_IR_RESOURCE_SRV, 0, SB_IR_RESOURCE_KIND_STRUCTURED, 12, 0);
    st->stride = 8;
    /* ld_raw r0.xy, 8, u0.zxyw: x <- DWORD 2 + 2, y <- DWORD 2 + 0. */
    INST(SB_IR_OP_LD_RAW, (R(0, 0x3)), (imm(8, 0, 0, 0), src_reg(SB_IR_FILE_UAV, 0, "zxyw")));
    /* store_raw u1.xyz, 4, r0.yxyw: DWORDs 1, 2, 3 <- r0.y, r0.x, r0.y. */
    INST(SB_IR_OP_STORE_RAW, (dst_reg(SB_IR_FILE_UAV, 1, 0x7)), (imm(4, 0, 0, 0), S(0, "yxyw")));
    /* ld_structured r1.xy, 2, 4, t0.yxzw from the same data viewed as 8-byte structures:
     * DWORD (2 * 8 + 4) / 4 = 5 and 6; x <- +1, y <- +0. */
    INST(SB_IR_OP_LD_STRUCTURED, (R(1, 0x3)),
         (imm(2, 0, 0, 0), imm(4, 0, 0, 0), src_reg(SB_IR_FILE_RESOURCE, 0, "yxzw")));
    /* store_raw u1.xy, 24, r1.xyxx: DWORDs 6, 7 <- 16, 15. */
    INST(SB_IR_OP_STORE_RAW, (dst_reg(SB_IR_FILE_UAV, 1, 0x3)), (imm(24, 0, 0, 0), S(1, "xyxx")));
    struct sb_ir_program *p = ir_program(SB_IR_STAGE_COMPUTE, 2);
    p->thread_group[0] = p->thread_group[1] = p->thread_group[2] = 1;
    static const uint32_t input[8] = { 10, 11, 12, 13, 14, 15, 16, 17 };
    struct vkh_buffer in, out;
    memset(&in, 0, sizeof(in));
    memset(&out, 0, sizeof(out));
    if (vkh_buffer_create(&h, 32, buffer_usage, input, &in) != VK_SUCCESS ||
        vkh_buffer_create(&h, 64, buffer_usage, NULL, &out) != VK_SUCCESS) {
        fprintf(stderr, "raw_swizzle_mask: buffers could not be created\n");
        g_failures++;
        return;
    }
    const struct binding_data data[] = {
        { SB_IR_RESOURCE_UAV, 0, false, &in, NULL },
        { SB_IR_RESOURCE_UAV, 1, false, &out, NULL },
        { SB_IR_RESOURCE_SRV, 0, false, &in, NULL },
    };
    if (run(p, data, 3, 1, "raw_swizzle_mask")) {
        static const uint32_t want[9] = { 0, 12, 14, 12, 0, 0, 16, 15, 0 };
        expect_words("raw_swizzle_mask", &out, 0, want, 9);
    }
    vkh_buffer_destroy(&h, &in);
    vkh_buffer_destroy(&h, &out);
}

int main(int argc, char **argv)
{
    static const struct { const char *name; void (*run)(void); } cases[] = {
        { "gather_resinfo", case_gather_resinfo },
        { "consume", case_consume },
        { "raw_swizzle_mask", case_raw_swizzle_mask },
    };
    if (argc != 2) {
        fprintf(stderr, "usage: %s CASE\n", argv[0]);
        return 2;
    }
    int status = vkh_init(&h);
    if (status != 0)
        return status;
    int found = 0;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        if (!strcmp(argv[1], cases[i].name)) {
            cases[i].run();
            found = 1;
        }
    vkh_destroy(&h);
    if (!found) {
        fprintf(stderr, "unknown case %s\n", argv[1]);
        return 2;
    }
    if (g_failures)
        fprintf(stderr, "%s: %d check(s) failed\n", argv[1], g_failures);
    return g_failures ? 1 : 0;
}
