/* SPDX-License-Identifier: MIT */
/*
 * The resource part of the SPIR-V back end (translator/src/spirv/spirv_resource*.c,
 * spirv_texture*.c, spirv_uav*.c): hand-built IR programs per op class,
 * translated for vulkan1.0, 1.1 and 1.3, validated with SPIRV-Tools, and
 * checked for the facts that matter to a Vulkan pipeline: descriptor
 * set/binding per the default scheme (translate.h), the image type's
 * Dim/Arrayed/MS/Sampled/format, the opcode used, the capabilities, and the
 * reported descriptor types. One ctest per case (argv[1]).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "../spirv/spirv_test_util.h"

/* VkDescriptorType values. */
enum { VK_SAMPLER = 0, VK_SAMPLED_IMAGE = 2, VK_STORAGE_IMAGE = 3, VK_UNIFORM_TEXEL_BUFFER = 4,
       VK_STORAGE_TEXEL_BUFFER = 5, VK_STORAGE_BUFFER = 7 };

static const enum sb_target_env envs[3] = { SB_TARGET_VULKAN_1_0, SB_TARGET_VULKAN_1_1,
                                            SB_TARGET_VULKAN_1_3 };

/* Translated text for each env (index as envs), filled by translate_all. */
static char *texts[3];
static struct sb_translation *tr[3];

static void release_all(void)
{
    for (int i = 0; i < 3; i++) {
        free(texts[i]);
        sb_translation_destroy(tr[i]);
        texts[i] = NULL;
        tr[i] = NULL;
    }
}

/* Translates and validates for all envs; false when any failed (already counted). */
static bool translate_all(const struct sb_ir_program *p, const char *what)
{
    release_all();
    bool ok = true;
    for (int i = 0; i < 3; i++) {
        tr[i] = translate_checked(p, envs[i], 0, what);
        if (!tr[i]) {
            ok = false;
            continue;
        }
        texts[i] = sb_spirv_disassemble(tr[i]->words, tr[i]->word_count, envs[i]);
        /* SB_RES_DUMP=1 prints the vulkan1.1 module of every case (for writing checks). */
        if (getenv("SB_RES_DUMP") && texts[i] && i == 1)
            fprintf(stderr, "%s\n", texts[i]);
    }
    return ok;
}

static bool has_text(int env, const char *needle)
{
    return texts[env] && strstr(texts[env], needle) != NULL;
}

static uint32_t count_text(int env, const char *needle)
{
    uint32_t n = 0;
    for (const char *at = texts[env]; at && (at = strstr(at, needle)) != NULL; at++)
        n++;
    return n;
}

/* Does the first line holding `needle` end with `tail`? */
static bool line_ends(int env, const char *needle, const char *tail)
{
    const char *at = texts[env] ? strstr(texts[env], needle) : NULL;
    if (!at)
        return false;
    const char *end = strchr(at, '\n');
    size_t len = end ? (size_t)(end - at) : strlen(at), n = strlen(tail);
    return len >= n && !strncmp(at + len - n, tail, n);
}

static uint32_t ops_of(int env, uint32_t op)
{
    return tr[env] ? count_op(tr[env], op, NULL, 0) : 0;
}

/* The reported binding of (class, register). */
static const struct sb_translated_binding *binding_of(int env, uint32_t cls, uint32_t reg)
{
    if (!tr[env])
        return NULL;
    for (uint32_t i = 0; i < tr[env]->binding_count; i++)
        if (tr[env]->bindings[i].resource_class == cls && tr[env]->bindings[i].lower_bound == reg)
            return &tr[env]->bindings[i];
    return NULL;
}

/* A variable (OpVariable result) decorated Binding b also carries DescriptorSet s. */
static bool bound_at(int env, uint32_t set, uint32_t b)
{
    if (!tr[env])
        return false;
    const uint32_t *w = tr[env]->words;
    for (size_t at = 5; at < tr[env]->word_count;) {
        uint32_t len = w[at] >> 16, op = w[at] & 0xFFFFu;
        if (!len)
            break;
        if (op == SpvOpDecorate && len == 4 && w[at + 2] == SpvDecorationBinding && w[at + 3] == b)
            return id_has_decoration(tr[env], w[at + 1], SpvDecorationDescriptorSet, &set);
        at += len;
    }
    return false;
}

static struct sb_ir_operand res_op(uint32_t file, uint32_t id, const char *swizzle)
{
    return src_reg(file, id, swizzle);
}

static struct sb_ir_operand mem_dst(uint32_t file, uint32_t id, uint32_t mask)
{
    return dst_reg(file, id, mask);
}

static struct sb_ir_resource *texture(uint32_t id, uint32_t dimension, uint32_t ret)
{
    struct sb_ir_resource *r = add_resource(SB_IR_RESOURCE_SRV, id);
    r->kind = SB_IR_RESOURCE_KIND_TYPED;
    r->dimension = dimension;
    for (int i = 0; i < 4; i++)
        r->return_type[i] = ret;
    return r;
}

#define R(i, m) dst_reg(SB_IR_FILE_TEMP, i, m)
#define S(i, sw) src_reg(SB_IR_FILE_TEMP, i, sw)
#define T(i, sw) res_op(SB_IR_FILE_RESOURCE, i, sw)
#define U(i, sw) res_op(SB_IR_FILE_UAV, i, sw)
#define G(i, sw) res_op(SB_IR_FILE_GROUP_SHARED, i, sw)
#define SMP(i, sw) res_op(SB_IR_FILE_SAMPLER, i, sw)
#define OPS(...) ((const struct sb_ir_operand[]){ __VA_ARGS__ })
#define NOPS(...) ((uint32_t)(sizeof(OPS(__VA_ARGS__)) / sizeof(struct sb_ir_operand)))
/* INST(op, (dst...), (src...)). */
#define INST(op, D, S_) emit(op, 0, NOPS D, OPS D, NOPS S_, OPS S_)


static struct sb_ir_resource *uav(uint32_t id, uint32_t kind, uint32_t dimension, uint32_t ret)
{
    struct sb_ir_resource *r = add_resource(SB_IR_RESOURCE_UAV, id);
    r->kind = kind;
    r->dimension = dimension;
    for (int i = 0; i < 4; i++)
        r->return_type[i] = ret;
    return r;
}

/* ---- cases ------------------------------------------------------------------------------------ */

/* sample, _b, _l, _d, _c, _c_lz, _cl_s + check_access_fully_mapped in a pixel shader. */
static void case_sample(void)
{
    ir_reset();
    texture(0, 3, 5);
    add_resource(SB_IR_RESOURCE_SAMPLER, 0);
    add_resource(SB_IR_RESOURCE_SAMPLER, 1)->sampler_mode = 1;
    struct sb_ir_operand uv = immf(0.25f, 0.75f, 0, 0);
    struct sb_ir_instruction *in = INST(SB_IR_OP_SAMPLE, (R(0, 0xF)), (uv, T(0, "xyzw"), SMP(0, "x")));
    in->texel_offset[0] = 1;
    in->texel_offset[1] = -2;
    INST(SB_IR_OP_SAMPLE_B, (R(1, 0x3)), (uv, T(0, "wzyx"), SMP(0, "x"), immf(1, 0, 0, 0)));
    INST(SB_IR_OP_SAMPLE_L, (R(1, 0xF)), (uv, T(0, "xyzw"), SMP(0, "x"), immf(2, 0, 0, 0)));
    INST(SB_IR_OP_SAMPLE_D, (R(1, 0xF)),
         (uv, T(0, "xyzw"), SMP(0, "x"), immf(0.01f, 0, 0, 0), immf(0, 0.01f, 0, 0)));
    INST(SB_IR_OP_SAMPLE_C, (R(2, 0x1)), (uv, T(0, "xxxx"), SMP(1, "x"), immf(0.5f, 0, 0, 0)));
    INST(SB_IR_OP_SAMPLE_C_LZ, (R(2, 0x2)), (uv, T(0, "xxxx"), SMP(1, "x"), immf(0.5f, 0, 0, 0)));
    /* sample_cl_s: a clamp source and a status destination, read back. */
    INST(SB_IR_OP_SAMPLE, (R(3, 0xF), R(4, 0x1)), (uv, T(0, "xyzw"), SMP(0, "x"), immf(1.5f, 0, 0, 0)));
    INST(SB_IR_OP_CHECK_ACCESS_FULLY_MAPPED, (R(4, 0x2)), (S(4, "x")));
    if (!translate_all(ir_program(SB_IR_STAGE_PIXEL, 5), "sample"))
        return;
    for (int e = 0; e < 3; e++) {
        CHECK(has_text(e, "OpTypeImage %float 2D 0 0 0 1 Unknown"));
        CHECK(bound_at(e, 0, 32)); /* t0 */
        CHECK(bound_at(e, 0, 16)); /* s0 */
        CHECK(bound_at(e, 0, 17)); /* s1 */
        CHECK(ops_of(e, SpvOpSampledImage) == 7);
        CHECK(ops_of(e, SpvOpImageSampleImplicitLod) == 3); /* sample (offset), _b, _cl */
        CHECK(ops_of(e, SpvOpImageSampleExplicitLod) == 2); /* _l, _d */
        CHECK(ops_of(e, SpvOpImageSampleDrefImplicitLod) == 1);
        CHECK(ops_of(e, SpvOpImageSampleDrefExplicitLod) == 1);
        CHECK(has_text(e, "ConstOffset"));
        CHECK(has_text(e, " Bias "));
        CHECK(has_text(e, " Grad "));
        CHECK(has_text(e, " MinLod "));
        CHECK(has_text(e, "OpCapability MinLod"));
        CHECK(!has_text(e, "Sparse"));
    }
    const struct sb_translated_binding *b = binding_of(1, SB_IR_RESOURCE_SRV, 0);
    CHECK(b && b->descriptor_type == VK_SAMPLED_IMAGE && b->binding == 32 && b->set == 0);
    b = binding_of(1, SB_IR_RESOURCE_SAMPLER, 1);
    CHECK(b && b->descriptor_type == VK_SAMPLER && b->binding == 17);
}

/* Outside pixel shaders implicit-LOD sampling becomes explicit LOD 0. */
static void case_sample_vs(void)
{
    ir_reset();
    texture(2, 8, 5);
    add_resource(SB_IR_RESOURCE_SAMPLER, 3);
    struct sb_ir_operand uvw = immf(0.25f, 0.75f, 2, 0);
    INST(SB_IR_OP_SAMPLE, (R(0, 0xF)), (uvw, T(2, "xyzw"), SMP(3, "x")));
    INST(SB_IR_OP_SAMPLE_C, (R(1, 0x1)), (uvw, T(2, "xxxx"), SMP(3, "x"), immf(0.5f, 0, 0, 0)));
    INST(SB_IR_OP_SAMPLE_B, (R(1, 0xF)), (uvw, T(2, "xyzw"), SMP(3, "x"), immf(1, 0, 0, 0)));
    if (!translate_all(ir_program(SB_IR_STAGE_VERTEX, 2), "sample_vs"))
        return;
    for (int e = 0; e < 3; e++) {
        CHECK(has_text(e, "OpTypeImage %float 2D 0 1 0 1 Unknown"));
        CHECK(bound_at(e, 0, 34) && bound_at(e, 0, 19));
        CHECK(ops_of(e, SpvOpImageSampleImplicitLod) == 0);
        CHECK(ops_of(e, SpvOpImageSampleExplicitLod) == 2);
        CHECK(ops_of(e, SpvOpImageSampleDrefExplicitLod) == 1);
    }
}

/* Every dimension and return type: image types, ld/ld_ms, resinfo forms, capabilities. */
static void case_dimensions(void)
{
    ir_reset();
    for (uint32_t d = 1; d <= 10; d++)
        texture(d - 1, d, 5)->sample_count = (d == 4 || d == 9) ? 4 : 0;
    texture(10, 3, 3); /* sint */
    texture(11, 5, 4); /* uint */
    texture(12, 3, 1); /* unorm reads as float */
    add_resource(SB_IR_RESOURCE_SAMPLER, 0);
    struct sb_ir_operand a = imm(1, 2, 0, 0);
    static const uint32_t fetchable[] = { 0, 1, 2, 4, 6, 7, 10, 11, 12 };
    for (size_t i = 0; i < sizeof(fetchable) / sizeof(fetchable[0]); i++)
        INST(SB_IR_OP_LD, (R(0, 0xF)), (a, T(fetchable[i], "xyzw")))->texel_offset[0] =
            (int8_t)(fetchable[i] == 2 ? 1 : 0);
    INST(SB_IR_OP_LD_MS, (R(0, 0xF)), (a, T(3, "xyzw"), imm(2, 0, 0, 0)));
    INST(SB_IR_OP_LD_MS, (R(0, 0xF)), (a, T(8, "xyzw"), imm(3, 0, 0, 0)));
    for (uint32_t t = 1; t < 10; t++) {
        struct sb_ir_instruction *in = INST(SB_IR_OP_RESINFO, (R(1, 0xF)), (imm(0, 0, 0, 0), T(t, "xyzw")));
        in->return_type = t % 3; /* float, rcpfloat, uint */
    }
    INST(SB_IR_OP_SAMPLE_L, (R(2, 0xF)), (immf(1, 0, 0, 0), T(5, "xyzw"), SMP(0, "x"), immf(0, 0, 0, 0)));
    INST(SB_IR_OP_SAMPLE_L, (R(2, 0xF)), (immf(1, 0, 0, 1), T(9, "xyzw"), SMP(0, "x"), immf(0, 0, 0, 0)));
    if (!translate_all(ir_program(SB_IR_STAGE_PIXEL, 3), "dimensions"))
        return;
    static const char *const types[] = {
        "OpTypeImage %float Buffer 0 0 0 1 Unknown", "OpTypeImage %float 1D 0 0 0 1 Unknown",
        "OpTypeImage %float 2D 0 0 0 1 Unknown",     "OpTypeImage %float 2D 0 0 1 1 Unknown",
        "OpTypeImage %float 3D 0 0 0 1 Unknown",     "OpTypeImage %float Cube 0 0 0 1 Unknown",
        "OpTypeImage %float 1D 0 1 0 1 Unknown",     "OpTypeImage %float 2D 0 1 0 1 Unknown",
        "OpTypeImage %float 2D 0 1 1 1 Unknown",     "OpTypeImage %float Cube 0 1 0 1 Unknown",
        "OpTypeImage %int 2D 0 0 0 1 Unknown",       "OpTypeImage %uint 3D 0 0 0 1 Unknown",
    };
    for (int e = 0; e < 3; e++) {
        for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
            if (!has_text(e, types[i])) {
                fprintf(stderr, "missing: %s\n", types[i]);
                g_failures++;
            }
        CHECK(has_text(e, "OpCapability Sampled1D"));
        CHECK(has_text(e, "OpCapability SampledBuffer"));
        CHECK(has_text(e, "OpCapability SampledCubeArray"));
        CHECK(has_text(e, "OpCapability ImageQuery"));
        CHECK(ops_of(e, SpvOpImageFetch) == 11);
        CHECK(ops_of(e, SpvOpImageQuerySizeLod) == 7); /* not for the two MS textures */
        CHECK(ops_of(e, SpvOpImageQuerySize) == 2);
        CHECK(ops_of(e, SpvOpImageQueryLevels) == 7);
        CHECK(has_text(e, " Lod "));
        CHECK(has_text(e, " Sample "));
        for (uint32_t t = 0; t < 13; t++)
            CHECK(bound_at(e, 0, 32 + t));
    }
    const struct sb_translated_binding *b = binding_of(1, SB_IR_RESOURCE_SRV, 0);
    CHECK(b && b->descriptor_type == VK_UNIFORM_TEXEL_BUFFER);
    b = binding_of(1, SB_IR_RESOURCE_SRV, 9);
    CHECK(b && b->descriptor_type == VK_SAMPLED_IMAGE && b->binding == 41);
}

/* gather4, _c, _po, _po_c; channel from the sampler swizzle. */
static void case_gather(void)
{
    ir_reset();
    texture(0, 3, 5);
    texture(1, 6, 5);
    texture(2, 8, 5);
    add_resource(SB_IR_RESOURCE_SAMPLER, 0);
    add_resource(SB_IR_RESOURCE_SAMPLER, 1)->sampler_mode = 1;
    struct sb_ir_operand uv = immf(0.5f, 0.5f, 1, 0);
    INST(SB_IR_OP_GATHER4, (R(0, 0xF)), (uv, T(0, "xyzw"), SMP(0, "y")))->texel_offset[1] = 3;
    INST(SB_IR_OP_GATHER4_C, (R(1, 0xF)), (uv, T(1, "xyzw"), SMP(1, "x"), immf(0.5f, 0, 0, 0)));
    INST(SB_IR_OP_GATHER4_PO, (R(2, 0xF)), (uv, imm(1, 2, 0, 0), T(2, "xyzw"), SMP(0, "w")));
    INST(SB_IR_OP_GATHER4_PO_C, (R(3, 0xF)),
         (uv, S(0, "xy"), T(2, "xyzw"), SMP(1, "x"), immf(0.5f, 0, 0, 0)));
    if (!translate_all(ir_program(SB_IR_STAGE_PIXEL, 4), "gather"))
        return;
    for (int e = 0; e < 3; e++) {
        CHECK(ops_of(e, SpvOpImageGather) == 2);
        CHECK(ops_of(e, SpvOpImageDrefGather) == 2);
        CHECK(has_text(e, "%uint_1 ConstOffset"));
        CHECK(has_text(e, "%uint_3 Offset"));
        CHECK(has_text(e, "OpCapability ImageGatherExtended"));
        CHECK(ops_of(e, SpvOpBitFieldSExtract) == 2); /* po offsets: low 6 bits, signed */
        CHECK(has_text(e, "OpTypeImage %float Cube 0 0 0 1 Unknown"));
    }
}

/* ld_ms, sampleinfo, samplepos (texture and rasterizer), lod, bufinfo of each buffer kind. */
static void case_queries(void)
{
    ir_reset();
    texture(0, 4, 5)->sample_count = 4;
    texture(1, 3, 5);
    struct sb_ir_resource *raw = add_resource(SB_IR_RESOURCE_SRV, 2);
    raw->kind = SB_IR_RESOURCE_KIND_RAW;
    raw->dimension = 11;
    texture(3, 1, 4);
    struct sb_ir_resource *st = add_resource(SB_IR_RESOURCE_SRV, 4);
    st->kind = SB_IR_RESOURCE_KIND_STRUCTURED;
    st->dimension = 12;
    st->stride = 12;
    add_resource(SB_IR_RESOURCE_SAMPLER, 0);
    struct sb_ir_operand rast = special(SB_IR_FILE_RASTERIZER, 0, "xyzw");
    INST(SB_IR_OP_SAMPLE_INFO, (R(0, 0x1)), (T(0, "xxxx")))->return_type = 1;
    INST(SB_IR_OP_SAMPLE_INFO, (R(0, 0x2)), (rast));
    INST(SB_IR_OP_SAMPLE_POS, (R(1, 0x3)), (rast, imm(1, 0, 0, 0)));
    INST(SB_IR_OP_SAMPLE_POS, (R(1, 0xC)), (T(0, "xyxy"), S(0, "x")));
    INST(SB_IR_OP_LOD, (R(2, 0x3)), (immf(0.5f, 0.5f, 0, 0), T(1, "xyzw"), SMP(0, "x")));
    INST(SB_IR_OP_BUFINFO, (R(3, 0x1)), (T(3, "xxxx")));
    INST(SB_IR_OP_BUFINFO, (R(3, 0x2)), (T(2, "xxxx")));
    INST(SB_IR_OP_BUFINFO, (R(3, 0x4)), (T(4, "xxxx")));
    if (!translate_all(ir_program(SB_IR_STAGE_PIXEL, 4), "queries"))
        return;
    uint32_t spec = SB_SPEC_ID_SAMPLE_COUNT;
    for (int e = 0; e < 3; e++) {
        CHECK(ops_of(e, SpvOpImageQuerySamples) == 2);
        CHECK(ops_of(e, SpvOpSpecConstant) == 1);
        CHECK(has_decoration(tr[e], SpvDecorationSpecId, &spec));
        CHECK(ops_of(e, SpvOpImageQueryLod) == 1);
        CHECK(ops_of(e, SpvOpArrayLength) == 2);
        CHECK(ops_of(e, SpvOpUDiv) == 1);
        CHECK(ops_of(e, SpvOpImageQuerySize) == 1);
        CHECK(has_decoration(tr[e], SpvDecorationNonWritable, NULL));
        CHECK(has_text(e, "%float_0_25 %float_0_25")); /* the 2-sample pattern (4/16, 4/16) */
    }
    const struct sb_translated_binding *b = binding_of(1, SB_IR_RESOURCE_SRV, 2);
    CHECK(b && b->descriptor_type == VK_STORAGE_BUFFER && b->binding == 34);
    CHECK(has_text(0, "OpExtension \"SPV_KHR_storage_buffer_storage_class\""));
    CHECK(!has_text(1, "SPV_KHR_storage_buffer_storage_class"));
}

/* Typed UAVs: storage images/texel buffers, formats for atomics, read/write capabilities. */
static void case_uav_typed(void)
{
    ir_reset();
    uav(0, SB_IR_RESOURCE_KIND_TYPED, 3, 5);
    uav(1, SB_IR_RESOURCE_KIND_TYPED, 1, 4);
    uav(2, SB_IR_RESOURCE_KIND_TYPED, 8, 3);
    uav(3, SB_IR_RESOURCE_KIND_TYPED, 5, 5)->uav_flags = 0x00010000u; /* globallycoherent */
    struct sb_ir_operand a = imm(1, 2, 3, 0);
    INST(SB_IR_OP_STORE_UAV_TYPED, (mem_dst(SB_IR_FILE_UAV, 0, 0xF)), (a, immf(1, 2, 3, 4)));
    INST(SB_IR_OP_LD_UAV_TYPED, (R(0, 0xF)), (a, U(0, "xyzw")));
    INST(SB_IR_OP_ATOMIC_IADD, (mem_dst(SB_IR_FILE_UAV, 1, 0xF)), (a, imm(5, 0, 0, 0)));
    INST(SB_IR_OP_IMM_ATOMIC_CMP_EXCH, (R(1, 0x1), mem_dst(SB_IR_FILE_UAV, 1, 0xF)),
         (a, imm(0, 0, 0, 0), imm(9, 0, 0, 0)));
    INST(SB_IR_OP_IMM_ATOMIC_IMAX, (R(1, 0x2), mem_dst(SB_IR_FILE_UAV, 2, 0xF)), (a, imm(7, 0, 0, 0)));
    INST(SB_IR_OP_RESINFO, (R(2, 0xF)), (imm(0, 0, 0, 0), U(0, "xyzw")))->return_type = 2;
    INST(SB_IR_OP_BUFINFO, (R(3, 0x1)), (U(1, "xxxx")));
    INST(SB_IR_OP_STORE_UAV_TYPED, (mem_dst(SB_IR_FILE_UAV, 3, 0xF)), (a, immf(1, 2, 3, 4)));
    struct sb_ir_program *p = ir_program(SB_IR_STAGE_COMPUTE, 4);
    p->thread_group[0] = p->thread_group[1] = p->thread_group[2] = 1;
    if (!translate_all(p, "uav_typed"))
        return;
    for (int e = 0; e < 3; e++) {
        CHECK(has_text(e, "OpTypeImage %float 2D 0 0 0 2 Unknown"));
        CHECK(has_text(e, "OpTypeImage %uint Buffer 0 0 0 2 R32ui"));
        CHECK(has_text(e, "OpTypeImage %int 2D 0 1 0 2 R32i"));
        CHECK(has_text(e, "OpTypeImage %float 3D 0 0 0 2 Unknown"));
        CHECK(has_text(e, "OpCapability StorageImageReadWithoutFormat"));
        CHECK(has_text(e, "OpCapability StorageImageWriteWithoutFormat"));
        CHECK(has_text(e, "OpCapability ImageBuffer"));
        CHECK(ops_of(e, SpvOpImageTexelPointer) == 3);
        CHECK(ops_of(e, SpvOpAtomicIAdd) == 1);
        CHECK(ops_of(e, SpvOpAtomicCompareExchange) == 1);
        CHECK(ops_of(e, SpvOpAtomicSMax) == 1);
        CHECK(ops_of(e, SpvOpImageRead) == 1);
        CHECK(ops_of(e, SpvOpImageWrite) == 2);
        CHECK(has_decoration(tr[e], SpvDecorationCoherent, NULL));
        for (uint32_t u = 0; u < 4; u++)
            CHECK(bound_at(e, 0, 160 + u));
    }
    const struct sb_translated_binding *b = binding_of(1, SB_IR_RESOURCE_UAV, 0);
    CHECK(b && b->descriptor_type == VK_STORAGE_IMAGE);
    b = binding_of(1, SB_IR_RESOURCE_UAV, 1);
    CHECK(b && b->descriptor_type == VK_STORAGE_TEXEL_BUFFER);
}

/* Raw/structured UAVs and SRVs, append/consume counter, buffer atomics. */
static void case_uav_memory(void)
{
    ir_reset();
    uav(0, SB_IR_RESOURCE_KIND_RAW, 11, 0);
    struct sb_ir_resource *su = uav(1, SB_IR_RESOURCE_KIND_STRUCTURED, 12, 0);
    su->stride = 16;
    su->has_counter = true;
    struct sb_ir_resource *st = add_resource(SB_IR_RESOURCE_SRV, 0);
    st->kind = SB_IR_RESOURCE_KIND_STRUCTURED;
    st->dimension = 12;
    st->stride = 8;
    struct sb_ir_resource *raw = add_resource(SB_IR_RESOURCE_SRV, 1);
    raw->kind = SB_IR_RESOURCE_KIND_RAW;
    raw->dimension = 11;
    INST(SB_IR_OP_LD_RAW, (R(0, 0x3)), (imm(16, 0, 0, 0), U(0, "yxzw")));
    INST(SB_IR_OP_STORE_RAW, (mem_dst(SB_IR_FILE_UAV, 0, 0x7)), (imm(4, 0, 0, 0), S(0, "xyzw")));
    INST(SB_IR_OP_LD_STRUCTURED, (R(1, 0xF)), (imm(3, 0, 0, 0), imm(4, 0, 0, 0), T(0, "xyzw")));
    INST(SB_IR_OP_STORE_STRUCTURED, (mem_dst(SB_IR_FILE_UAV, 1, 0x3)),
         (imm(2, 0, 0, 0), imm(8, 0, 0, 0), S(1, "zwxy")));
    INST(SB_IR_OP_IMM_ATOMIC_ALLOC, (R(2, 0x1), mem_dst(SB_IR_FILE_UAV, 1, 0xF)), (imm(0, 0, 0, 0)))
        ->src_count = 0;
    INST(SB_IR_OP_IMM_ATOMIC_CONSUME, (R(2, 0x2), mem_dst(SB_IR_FILE_UAV, 1, 0xF)), (imm(0, 0, 0, 0)))
        ->src_count = 0;
    INST(SB_IR_OP_ATOMIC_OR, (mem_dst(SB_IR_FILE_UAV, 0, 0xF)), (imm(8, 0, 0, 0), imm(0x10, 0, 0, 0)));
    INST(SB_IR_OP_IMM_ATOMIC_IADD, (R(3, 0x1), mem_dst(SB_IR_FILE_UAV, 1, 0xF)),
         (imm(1, 4, 0, 0), imm(1, 0, 0, 0)));
    INST(SB_IR_OP_LD_RAW, (R(3, 0xE)), (imm(0, 0, 0, 0), T(1, "xyzw")));
    INST(SB_IR_OP_BUFINFO, (R(3, 0x1)), (U(1, "xxxx")));
    struct sb_ir_program *p = ir_program(SB_IR_STAGE_COMPUTE, 4);
    p->thread_group[0] = 64;
    if (!translate_all(p, "uav_memory"))
        return;
    for (int e = 0; e < 3; e++) {
        CHECK(bound_at(e, 0, 160) && bound_at(e, 0, 161));
        CHECK(bound_at(e, 0, 225)); /* u1's counter */
        CHECK(bound_at(e, 0, 32) && bound_at(e, 0, 33));
        CHECK(ops_of(e, SpvOpAtomicIIncrement) == 1);
        CHECK(ops_of(e, SpvOpAtomicIDecrement) == 1);
        CHECK(ops_of(e, SpvOpAtomicOr) == 1);
        CHECK(ops_of(e, SpvOpAtomicIAdd) == 1);
        CHECK(ops_of(e, SpvOpArrayLength) == 1);
        CHECK(has_decoration(tr[e], SpvDecorationNonWritable, NULL));
        CHECK(has_text(e, "OpTypeRuntimeArray %uint"));
        CHECK(has_text(e, "ArrayStride 4"));
        CHECK(has_text(e, "StorageBuffer"));
    }
    const struct sb_translated_binding *b = binding_of(1, SB_IR_RESOURCE_UAV, 1);
    CHECK(b && b->descriptor_type == VK_STORAGE_BUFFER && b->has_counter && b->counter_binding == 225);
    b = binding_of(1, SB_IR_RESOURCE_SRV, 0);
    CHECK(b && b->descriptor_type == VK_STORAGE_BUFFER && b->binding == 32);
    CHECK(has_text(0, "OpExtension \"SPV_KHR_storage_buffer_storage_class\""));
}

/* The Aliased variable of `lanes`-lane vectors with ArrayStride `stride` on binding `b`:
 * the vector view of a raw/structured register (spirv_uav_vector.c). */
static bool vector_view_at(int env, uint32_t b, uint32_t lanes, uint32_t stride)
{
    char type[48], decor[64];
    snprintf(type, sizeof(type), "OpTypeRuntimeArray %%v%uuint", lanes);
    snprintf(decor, sizeof(decor), "OpDecorate %%_runtimearr_v%uuint ArrayStride %u", lanes, stride);
    return bound_at(env, 0, b) && has_text(env, type) && has_text(env, decor);
}

/*
 * Runs of DWORDs at an address known to sit on a vector boundary are one load or store
 * through a uvec2/uvec3/uvec4 view of the same binding (lavapipe pays a loop over its SIMD
 * lanes per StorageBuffer access). Where the address is known from the stride and the
 * immediate offset:
 *   u0 (stride 16) .xyzw at r1.x, offset 0: one uvec4 load;  .xyz stored at offset 0: one
 *   uvec3 store;  .yx (DWORDs 0-1) at offset 0: one uvec2 load, lanes swapped;
 *   t0 (stride 24: 8-byte aligned) .xy at offset 8: one uvec2 load;  .xyz at offset 0
 *   would need 16-byte alignment: three uint loads;
 *   u1 raw at a register address (alignment unknown): four uint loads;
 *   u0 .xz (not a run of DWORDs) stored: two uint stores.
 */
static void case_uav_vectors(void)
{
    ir_reset();
    struct sb_ir_resource *u0 = uav(0, SB_IR_RESOURCE_KIND_STRUCTURED, 12, 0);
    u0->stride = 16;
    uav(1, SB_IR_RESOURCE_KIND_RAW, 11, 0);
    struct sb_ir_resource *t0 = add_resource(SB_IR_RESOURCE_SRV, 0);
    t0->kind = SB_IR_RESOURCE_KIND_STRUCTURED;
    t0->dimension = 12;
    t0->stride = 24;
    INST(SB_IR_OP_LD_STRUCTURED, (R(0, 0xF)), (S(1, "xxxx"), imm(0, 0, 0, 0), U(0, "xyzw")));
    INST(SB_IR_OP_STORE_STRUCTURED, (mem_dst(SB_IR_FILE_UAV, 0, 0x7)),
         (S(1, "yyyy"), imm(0, 0, 0, 0), S(0, "xyzw")));
    INST(SB_IR_OP_LD_STRUCTURED, (R(2, 0x3)), (S(1, "xxxx"), imm(0, 0, 0, 0), U(0, "yxzw")));
    INST(SB_IR_OP_LD_STRUCTURED, (R(3, 0x3)), (S(1, "zzzz"), imm(8, 0, 0, 0), T(0, "xyzw")));
    INST(SB_IR_OP_LD_STRUCTURED, (R(4, 0x7)), (S(1, "zzzz"), imm(0, 0, 0, 0), T(0, "xyzw")));
    INST(SB_IR_OP_LD_RAW, (R(5, 0xF)), (S(1, "wwww"), U(1, "xyzw")));
    INST(SB_IR_OP_STORE_STRUCTURED, (mem_dst(SB_IR_FILE_UAV, 0, 0x5)),
         (S(1, "yyyy"), imm(0, 0, 0, 0), S(3, "xyzw")));
    struct sb_ir_program *p = ir_program(SB_IR_STAGE_COMPUTE, 6);
    p->thread_group[0] = 64;
    if (!translate_all(p, "uav_vectors"))
        return;
    for (int e = 0; e < 3; e++) {
        CHECK(vector_view_at(e, 160, 4, 16) && vector_view_at(e, 160, 3, 16));
        CHECK(vector_view_at(e, 160, 2, 8) && vector_view_at(e, 32, 2, 8));
        CHECK(!has_text(e, "ArrayStride 12") && !has_text(e, "ArrayStride 24"));
        /* u0's and t0's own variables and their four views; u1 has none. */
        uint32_t n_aliased = 0;
        const uint32_t *w = tr[e]->words;
        for (size_t at = 5; at < tr[e]->word_count && w[at] >> 16; at += w[at] >> 16)
            n_aliased += (w[at] & 0xFFFFu) == SpvOpDecorate && w[at + 2] == SpvDecorationAliased;
        CHECK(n_aliased == 6);
        CHECK(count_text(e, "OpLoad %v4uint") == 1 && count_text(e, "OpLoad %v2uint") == 2);
        CHECK(count_text(e, "OpAccessChain %_ptr_StorageBuffer_v3uint") == 1);
        CHECK(count_text(e, "OpVectorShuffle %v2uint") == 1 && line_ends(e, "OpVectorShuffle %v2uint", " 1 0"));
        /* Scalar: t0.xyz and u1's four DWORDs loaded, u0.x and .z stored. */
        CHECK(count_text(e, "OpLoad %uint") == 3 + 4);
        CHECK(count_text(e, "OpAccessChain %_ptr_StorageBuffer_uint ") == 3 + 4 + 2);
    }
}

/* g# raw and structured, group-shared atomics and every sync form. */
static void case_group_shared(void)
{
    ir_reset();
    static const struct sb_ir_group_shared gs[2] = {
        { .id = 0, .structured = false, .stride = 4, .count = 64 },
        { .id = 1, .structured = true, .stride = 8, .count = 16 },
    };
    INST(SB_IR_OP_STORE_RAW, (mem_dst(SB_IR_FILE_GROUP_SHARED, 0, 0x1)), (imm(4, 0, 0, 0), imm(7, 0, 0, 0)));
    INST(SB_IR_OP_LD_RAW, (R(0, 0x1)), (imm(4, 0, 0, 0), G(0, "xxxx")));
    INST(SB_IR_OP_STORE_STRUCTURED, (mem_dst(SB_IR_FILE_GROUP_SHARED, 1, 0x3)),
         (imm(3, 0, 0, 0), imm(4, 0, 0, 0), S(0, "xxxx")));
    INST(SB_IR_OP_LD_STRUCTURED, (R(1, 0x3)), (imm(3, 0, 0, 0), imm(0, 0, 0, 0), G(1, "xyxx")));
    INST(SB_IR_OP_ATOMIC_IADD, (mem_dst(SB_IR_FILE_GROUP_SHARED, 0, 0xF)), (imm(8, 0, 0, 0), imm(1, 0, 0, 0)));
    INST(SB_IR_OP_IMM_ATOMIC_UMAX, (R(2, 0x1), mem_dst(SB_IR_FILE_GROUP_SHARED, 1, 0xF)),
         (imm(1, 4, 0, 0), imm(7, 0, 0, 0)));
    static const uint32_t syncs[] = { 0x3, 0x2, 0xB, 0x8, 0x5 };
    for (size_t i = 0; i < 5; i++)
        emit0(SB_IR_OP_SYNC)->sync_flags = syncs[i];
    struct sb_ir_program *p = ir_program(SB_IR_STAGE_COMPUTE, 3);
    p->group_shared = gs;
    p->group_shared_count = 2;
    p->thread_group[0] = 8;
    p->thread_group[1] = 8;
    if (!translate_all(p, "group_shared"))
        return;
    for (int e = 0; e < 3; e++) {
        CHECK(has_text(e, "_arr_uint_uint_64"));
        CHECK(has_text(e, "_arr_uint_uint_32")); /* 16 structures of 8 bytes */
        CHECK(ops_of(e, SpvOpControlBarrier) == 3);
        CHECK(ops_of(e, SpvOpMemoryBarrier) == 2);
        /* Workgroup = 2, Device = 1; AcquireRelease|WorkgroupMemory = 264;
         * AcquireRelease|UniformMemory|ImageMemory = 2120 (+ WorkgroupMemory = 2376). */
        CHECK(has_text(e, "OpControlBarrier %uint_2 %uint_2 %uint_264"));
        CHECK(has_text(e, "OpMemoryBarrier %uint_2 %uint_264"));
        CHECK(has_text(e, "OpControlBarrier %uint_2 %uint_1 %uint_2376"));
        CHECK(has_text(e, "OpMemoryBarrier %uint_1 %uint_2120"));
        CHECK(has_text(e, "OpControlBarrier %uint_2 %uint_2 %uint_2120"));
        CHECK(ops_of(e, SpvOpAtomicIAdd) == 1 && ops_of(e, SpvOpAtomicUMax) == 1);
        CHECK(has_text(e, "OpAtomicIAdd %uint %") && has_text(e, "%uint_2 %uint_0 %uint_1"));
        CHECK(has_text(e, "UMin")); /* the g# index clamp */
    }
}

/* SM5.1: descriptor arrays in spaces, unbounded ranges, NonUniform indexing. */
static void case_ranges(void)
{
    ir_reset();
    struct sb_ir_resource *t = texture(0, 3, 5);
    t->lower_bound = 4;
    t->count = 8;
    t->space = 1;
    add_resource(SB_IR_RESOURCE_SAMPLER, 0);
    struct sb_ir_resource *u = uav(1, SB_IR_RESOURCE_KIND_RAW, 11, 0);
    u->lower_bound = 2;
    u->count = UINT32_MAX;
    u->space = 2;
    struct sb_ir_resource *c = uav(2, SB_IR_RESOURCE_KIND_STRUCTURED, 12, 0);
    c->stride = 4;
    c->lower_bound = 0;
    c->count = 4;
    c->has_counter = true;
    /* SM5.1 operands: [0] range id, [1] index within the range (IR.md). */
    struct sb_ir_operand tex = reg2(SB_IR_FILE_RESOURCE, 0, 0, 0, "xyzw");
    set_relative(&tex, 1, S(0, "x"));
    tex.non_uniform = true;
    struct sb_ir_operand smp = reg2(SB_IR_FILE_SAMPLER, 0, 0, 0, "x");
    INST(SB_IR_OP_SAMPLE, (R(1, 0xF)), (immf(0.5f, 0.5f, 0, 0), tex, smp));
    INST(SB_IR_OP_LD, (R(1, 0xF)), (imm(0, 0, 0, 0), reg2(SB_IR_FILE_RESOURCE, 0, 7, 0, "xyzw")));
    struct sb_ir_operand mem = reg2(SB_IR_FILE_UAV, 1, 3, 0x1, "xyzw");
    INST(SB_IR_OP_LD_RAW, (R(2, 0x1)), (imm(0, 0, 0, 0), mem));
    set_relative(&mem, 1, S(0, "y"));
    mem.non_uniform = true;
    INST(SB_IR_OP_STORE_RAW, (mem), (imm(0, 0, 0, 0), S(2, "x")));
    INST(SB_IR_OP_IMM_ATOMIC_ALLOC, (R(2, 0x2), reg2(SB_IR_FILE_UAV, 2, 2, 0xF, "xyzw")),
         (imm(0, 0, 0, 0)))->src_count = 0;
    struct sb_ir_program *p = ir_program(SB_IR_STAGE_PIXEL, 3);
    p->minor = 1;
    if (!translate_all(p, "ranges"))
        return;
    for (int e = 0; e < 3; e++) {
        CHECK(bound_at(e, 1, 288)); /* the t range: outside the default window */
        CHECK(bound_at(e, 2, 289)); /* the unbounded u range */
        CHECK(bound_at(e, 0, 16));
        CHECK(has_text(e, "OpCapability RuntimeDescriptorArray"));
        CHECK(has_text(e, "OpCapability ShaderNonUniform"));
        CHECK(has_decoration(tr[e], SpvDecorationNonUniform, NULL));
        CHECK(has_text(e, "_uint_8 = OpTypeArray %"));         /* t: 8 images */
        CHECK(has_text(e, "OpTypeRuntimeArray %_struct_"));     /* u: unbounded blocks */
        CHECK(has_text(e, "OpCapability SampledImageArrayNonUniformIndexing"));
        CHECK(has_text(e, "OpCapability StorageBufferArrayNonUniformIndexing"));
    }
    CHECK(has_text(0, "SPV_EXT_descriptor_indexing") && has_text(1, "SPV_EXT_descriptor_indexing"));
    CHECK(!has_text(2, "SPV_EXT_descriptor_indexing"));
    const struct sb_translated_binding *b = binding_of(1, SB_IR_RESOURCE_SRV, 4);
    CHECK(b && b->count == 8 && b->set == 1 && b->binding == 288);
    b = binding_of(1, SB_IR_RESOURCE_UAV, 0);
    CHECK(b && b->count == 4 && b->has_counter && b->binding == 290 && b->counter_binding == 291);
    for (int e = 0; e < 3; e++) {
        CHECK(bound_at(e, 0, 291));
        CHECK(ops_of(e, SpvOpAtomicIIncrement) == 1);
        CHECK(has_text(e, "%uint_7\n")); /* ld's constant descriptor index */
    }
}

/* sb_translate_options::unbounded_descriptor_count: unbounded t#, u# (with a counter)
 * and cb# ranges become fixed arrays of N, with no RuntimeDescriptorArray, for devices
 * without that feature; the report gives count N; a literal index >= N is refused. */
static void case_ranges_fixed(void)
{
    enum { N = 5 };
    ir_reset();
    struct sb_ir_resource *t = texture(0, 3, 5);
    t->lower_bound = 10;
    t->count = UINT32_MAX;
    t->space = 3;
    add_resource(SB_IR_RESOURCE_SAMPLER, 0);
    struct sb_ir_resource *u = uav(1, SB_IR_RESOURCE_KIND_STRUCTURED, 12, 0);
    u->stride = 4;
    u->count = UINT32_MAX;
    u->has_counter = true;
    struct sb_ir_resource *c = add_resource(SB_IR_RESOURCE_CBV, 2);
    c->count = UINT32_MAX;
    c->cb_size = 1;
    struct sb_ir_operand tex = reg2(SB_IR_FILE_RESOURCE, 0, 0, 0, "xyzw");
    set_relative(&tex, 1, S(0, "x"));
    tex.non_uniform = true;
    struct sb_ir_operand smp = reg2(SB_IR_FILE_SAMPLER, 0, 0, 0, "x");
    INST(SB_IR_OP_SAMPLE, (R(1, 0xF)), (immf(0.5f, 0.5f, 0, 0), tex, smp));
    INST(SB_IR_OP_IMM_ATOMIC_ALLOC, (R(2, 0x2), reg2(SB_IR_FILE_UAV, 1, 4, 0xF, "xyzw")),
         (imm(0, 0, 0, 0)))->src_count = 0;
    struct sb_ir_operand cb = src_reg(SB_IR_FILE_CONSTANT_BUFFER, 2, "xyzw");
    cb.index_count = 3; /* SM5.1: range id, index in the range, vector */
    cb.index[1].offset = 3;
    cb.index[2].offset = 0;
    INST(SB_IR_OP_MOV, (R(3, 0xF)), (cb));
    struct sb_ir_program *p = ir_program(SB_IR_STAGE_PIXEL, 4);
    p->minor = 1;
    const struct sb_translate_options options = { .target_env = SB_TARGET_VULKAN_1_1,
                                                  .flags = SB_TRANSLATE_VALIDATE,
                                                  .unbounded_descriptor_count = N };
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    release_all();
    enum sb_result r = sb_translate_ir(p, &options, &tr[1], &error);
    if (r != SB_SUCCESS) {
        fprintf(stderr, "ranges_fixed: %s: %s\n", sb_result_name(r), error.message);
        g_failures++;
        return;
    }
    texts[1] = sb_spirv_disassemble(tr[1]->words, tr[1]->word_count, SB_TARGET_VULKAN_1_1);
    if (getenv("SB_RES_DUMP") && texts[1])
        fprintf(stderr, "%s\n", texts[1]);
    CHECK(!has_text(1, "RuntimeDescriptorArray"));
    CHECK(!has_text(1, "OpTypeRuntimeArray %_struct_")); /* only the uint[] inside the blocks */
    CHECK(!has_text(1, "OpTypeRuntimeArray %type_image")
          && !has_text(1, "OpTypeRuntimeArray %_ptr"));
    CHECK(has_text(1, "%uint_5 = OpConstant %uint 5"));
    /* images, structured blocks, counter blocks and cbuffer blocks: four arrays of 5 */
    CHECK(count_op(tr[1], SpvOpTypeArray, NULL, 0) >= 4);
    unsigned arrays_of_5 = 0;
    for (const char *line = texts[1]; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t length = end ? (size_t)(end - line) : strlen(line);
        char copy[256];
        snprintf(copy, sizeof(copy), "%.*s", (int)(length < 255 ? length : 255), line);
        if (strstr(copy, "OpTypeArray %") && length > 8 && length < 255 &&
            !strcmp(copy + length - 8, " %uint_5"))
            arrays_of_5++;
        line = end ? end + 1 : NULL;
    }
    CHECK(arrays_of_5 == 4);
    CHECK(sb_spirv_validate(tr[1]->words, tr[1]->word_count, SB_TARGET_VULKAN_1_1, &error) ==
          SB_SUCCESS);
    const struct sb_translated_binding *b = binding_of(1, SB_IR_RESOURCE_SRV, 10);
    CHECK(b && b->count == N && b->set == 3 && b->binding == 288);
    b = binding_of(1, SB_IR_RESOURCE_UAV, 1);
    CHECK(b && b->count == N && b->has_counter && b->binding == 289 && b->counter_binding == 290);
    b = binding_of(1, SB_IR_RESOURCE_CBV, 2);
    CHECK(b && b->count == N && b->binding == 291);
    /* Without the option the same program keeps its runtime arrays. */
    struct sb_translation *runtime = NULL;
    CHECK(sb_translate_ir(p, NULL, &runtime, &error) == SB_SUCCESS && runtime &&
          runtime->bindings[0].count == UINT32_MAX);
    char *text = runtime ? sb_spirv_disassemble(runtime->words, runtime->word_count,
                                                SB_TARGET_VULKAN_1_1) : NULL;
    CHECK(text && strstr(text, "OpCapability RuntimeDescriptorArray"));
    free(text);
    sb_translation_destroy(runtime);
    /* A literal element past the fixed size is an error, not an out-of-bounds access. */
    INST(SB_IR_OP_IMM_ATOMIC_ALLOC, (R(2, 0x2), reg2(SB_IR_FILE_UAV, 1, N, 0xF, "xyzw")),
         (imm(0, 0, 0, 0)))->src_count = 0;
    p = ir_program(SB_IR_STAGE_PIXEL, 4);
    p->minor = 1;
    struct sb_translation *bad = NULL;
    CHECK(sb_translate_ir(p, &options, &bad, &error) == SB_ERROR_TRANSLATE_INVALID && !bad &&
          strstr(error.message, "outside the 5 descriptors"));
    sb_translation_destroy(bad);
}

/* Every atomic op on a raw u# and on g#: the SPIR-V opcode each one becomes. */
static void case_atomics_all(void)
{
    static const struct { uint32_t op; uint32_t spv; bool imm, compare; } rows[] = {
        { SB_IR_OP_ATOMIC_AND, SpvOpAtomicAnd, false, false },
        { SB_IR_OP_ATOMIC_OR, SpvOpAtomicOr, false, false },
        { SB_IR_OP_ATOMIC_XOR, SpvOpAtomicXor, false, false },
        { SB_IR_OP_ATOMIC_CMP_STORE, SpvOpAtomicCompareExchange, false, true },
        { SB_IR_OP_ATOMIC_IADD, SpvOpAtomicIAdd, false, false },
        { SB_IR_OP_ATOMIC_IMAX, SpvOpAtomicSMax, false, false },
        { SB_IR_OP_ATOMIC_IMIN, SpvOpAtomicSMin, false, false },
        { SB_IR_OP_ATOMIC_UMAX, SpvOpAtomicUMax, false, false },
        { SB_IR_OP_ATOMIC_UMIN, SpvOpAtomicUMin, false, false },
        { SB_IR_OP_IMM_ATOMIC_IADD, SpvOpAtomicIAdd, true, false },
        { SB_IR_OP_IMM_ATOMIC_AND, SpvOpAtomicAnd, true, false },
        { SB_IR_OP_IMM_ATOMIC_OR, SpvOpAtomicOr, true, false },
        { SB_IR_OP_IMM_ATOMIC_XOR, SpvOpAtomicXor, true, false },
        { SB_IR_OP_IMM_ATOMIC_EXCH, SpvOpAtomicExchange, true, false },
        { SB_IR_OP_IMM_ATOMIC_CMP_EXCH, SpvOpAtomicCompareExchange, true, true },
        { SB_IR_OP_IMM_ATOMIC_IMAX, SpvOpAtomicSMax, true, false },
        { SB_IR_OP_IMM_ATOMIC_IMIN, SpvOpAtomicSMin, true, false },
        { SB_IR_OP_IMM_ATOMIC_UMAX, SpvOpAtomicUMax, true, false },
        { SB_IR_OP_IMM_ATOMIC_UMIN, SpvOpAtomicUMin, true, false },
    };
    enum { N = sizeof(rows) / sizeof(rows[0]) };
    static const struct sb_ir_group_shared g = { .id = 0, .stride = 4, .count = 16 };
    ir_reset();
    uav(0, SB_IR_RESOURCE_KIND_RAW, 11, 0);
    for (uint32_t m = 0; m < 2; m++) {
        uint32_t file = m ? SB_IR_FILE_GROUP_SHARED : SB_IR_FILE_UAV;
        for (uint32_t i = 0; i < N; i++) {
            struct sb_ir_operand mem = mem_dst(file, 0, 0xF);
            struct sb_ir_operand d[2] = { R(0, 0x1), mem };
            struct sb_ir_operand s3[3] = { imm(4 * i, 0, 0, 0), imm(i, 0, 0, 0), imm(i + 1, 0, 0, 0) };
            emit(rows[i].op, 0, rows[i].imm ? 2 : 1, rows[i].imm ? d : &d[1], rows[i].compare ? 3 : 2,
                 s3);
        }
    }
    struct sb_ir_program *p = ir_program(SB_IR_STAGE_COMPUTE, 1);
    p->group_shared = &g;
    p->group_shared_count = 1;
    p->thread_group[0] = 4;
    if (!translate_all(p, "atomics_all"))
        return;
    for (int e = 0; e < 3; e++)
        for (uint32_t i = 0; i < N; i++) {
            uint32_t want = 0;
            for (uint32_t k = 0; k < N; k++)
                want += rows[k].spv == rows[i].spv ? 2 : 0; /* once on u0, once on g0 */
            if (ops_of(e, rows[i].spv) != want) {
                fprintf(stderr, "atomics_all: %s: SPIR-V op %u appears %u times, want %u\n",
                        sb_ir_op_name(rows[i].op), rows[i].spv, ops_of(e, rows[i].spv), want);
                g_failures++;
            }
        }
    /* Device scope (1) for the UAV, Workgroup (2) for g#, relaxed semantics. */
    CHECK(has_text(1, "OpAtomicUMin %uint %") && has_text(1, " %uint_1 %uint_0 ") &&
          has_text(1, " %uint_2 %uint_0 "));
}

/* Failures are structured errors with the offending instruction's offset. */
static void expect_error(const struct sb_ir_program *p, enum sb_result code, uint64_t offset,
                         const char *what)
{
    struct sb_translation *t = NULL;
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    enum sb_result r = sb_translate_ir(p, NULL, &t, &error);
    if (r != code || (offset != UINT64_MAX && error.offset != offset)) {
        fprintf(stderr, "%s: got %s at 0x%llx (%s), want %s at 0x%llx\n", what, sb_result_name(r),
                (unsigned long long)error.offset, error.message, sb_result_name(code),
                (unsigned long long)offset);
        g_failures++;
    }
    sb_translation_destroy(t);
}

static void case_errors(void)
{
    /* Instructions sit at 0x100 + 4 * index (spirv_test_util.c). */
    ir_reset();
    texture(0, 3, 5);
    add_resource(SB_IR_RESOURCE_SAMPLER, 0);
    INST(SB_IR_OP_MOV, (R(0, 0xF)), (immf(0, 0, 0, 0)));
    INST(SB_IR_OP_SAMPLE, (R(0, 0xF)), (immf(0, 0, 0, 0), T(5, "xyzw"), SMP(0, "x")));
    expect_error(ir_program(SB_IR_STAGE_PIXEL, 1), SB_ERROR_TRANSLATE_INVALID, 0x104, "undeclared t5");

    ir_reset();
    texture(0, 5, 5);
    add_resource(SB_IR_RESOURCE_SAMPLER, 0);
    INST(SB_IR_OP_GATHER4, (R(0, 0xF)), (immf(0, 0, 0, 0), T(0, "xyzw"), SMP(0, "x")));
    expect_error(ir_program(SB_IR_STAGE_PIXEL, 1), SB_ERROR_TRANSLATE_INVALID, 0x100, "gather4 on 3D");

    ir_reset();
    uav(0, SB_IR_RESOURCE_KIND_STRUCTURED, 12, 0)->stride = 4;
    INST(SB_IR_OP_IMM_ATOMIC_ALLOC, (R(0, 0x1), mem_dst(SB_IR_FILE_UAV, 0, 0xF)), (imm(0, 0, 0, 0)))
        ->src_count = 0;
    struct sb_ir_program *p = ir_program(SB_IR_STAGE_COMPUTE, 1);
    expect_error(p, SB_ERROR_TRANSLATE_INVALID, UINT64_MAX, "alloc without a counter");

    ir_reset();
    struct sb_ir_resource *raw = add_resource(SB_IR_RESOURCE_SRV, 0);
    raw->kind = SB_IR_RESOURCE_KIND_RAW;
    raw->dimension = 11;
    add_resource(SB_IR_RESOURCE_SAMPLER, 0);
    INST(SB_IR_OP_MOV, (R(0, 0xF)), (immf(0, 0, 0, 0)));
    INST(SB_IR_OP_MOV, (R(0, 0xF)), (immf(0, 0, 0, 0)));
    INST(SB_IR_OP_SAMPLE_L, (R(0, 0xF)), (immf(0, 0, 0, 0), T(0, "xyzw"), SMP(0, "x"), immf(0, 0, 0, 0)));
    expect_error(ir_program(SB_IR_STAGE_PIXEL, 1), SB_ERROR_TRANSLATE_INVALID, 0x108,
                 "sample_l on a raw buffer");

    ir_reset();
    static const struct sb_ir_group_shared g = { .id = 0, .stride = 4, .count = 4 };
    INST(SB_IR_OP_LD_RAW, (R(0, 0x1)), (imm(0, 0, 0, 0), G(0, "xxxx")));
    p = ir_program(SB_IR_STAGE_PIXEL, 1);
    p->group_shared = &g;
    p->group_shared_count = 1;
    expect_error(p, SB_ERROR_TRANSLATE_INVALID, UINT64_MAX, "g# in a pixel shader");

    ir_reset();
    uav(0, SB_IR_RESOURCE_KIND_RAW, 11, 0);
    INST(SB_IR_OP_STORE_RAW, (mem_dst(SB_IR_FILE_RESOURCE, 0, 0x1)), (imm(0, 0, 0, 0), imm(1, 0, 0, 0)));
    expect_error(ir_program(SB_IR_STAGE_COMPUTE, 1), SB_ERROR_TRANSLATE_INVALID, 0x100,
                 "store_raw to a t#");
}

/* Reads a whole file (malloc'd) or returns NULL. */
static void *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    void *data = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n > 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)n)) != NULL &&
            fread(data, 1, (size_t)n, f) != (size_t)n) {
            free(data);
            data = NULL;
        }
        *size = n > 0 ? (size_t)n : 0;
    }
    fclose(f);
    return data;
}

static const char *corpus_dir;

/*
 * Typed UAV loads in a container without SFI0's TypedUAVLoadAdditionalFormats
 * bit can only read R32 views (D3D11), so the storage image is declared R32ui
 * and needs no StorageImageReadWithoutFormat. A real corpus shader (bgfx
 * terrain LOD: `ld_uav_typed ... u4` of a uint buffer, no SFI0 part).
 */
static int case_corpus_uav_format(void)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/dxbc/bgfx/cs_terrain_lod.dxbc", corpus_dir ? corpus_dir : "");
    size_t size = 0;
    void *data = corpus_dir ? read_file(path, &size) : NULL;
    if (!data) {
        printf("SKIPPED: corpus not found at %s\n", corpus_dir ? corpus_dir : "(none)");
        return 77;
    }
    struct sb_translation *t = NULL;
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    enum sb_result r = sb_translate(data, size, NULL, &t, &error);
    CHECK(r == SB_SUCCESS);
    if (r == SB_SUCCESS) {
        r = sb_spirv_validate(t->words, t->word_count, SB_TARGET_VULKAN_1_1, &error);
        if (r != SB_SUCCESS)
            fprintf(stderr, "spirv-val: %s\n", error.message);
        CHECK(r == SB_SUCCESS);
        char *text = sb_spirv_disassemble(t->words, t->word_count, SB_TARGET_VULKAN_1_1);
        CHECK(text && strstr(text, "OpTypeImage %uint Buffer 0 0 0 2 R32ui"));
        CHECK(text && !strstr(text, "StorageImageReadWithoutFormat"));
        free(text);
    }
    sb_translation_destroy(t);
    free(data);
    return g_failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    static const struct { const char *name; void (*run)(void); } cases[] = {
        { "sample", case_sample },       { "sample_vs", case_sample_vs },
        { "dimensions", case_dimensions }, { "gather", case_gather },
        { "queries", case_queries },     { "uav_typed", case_uav_typed },
        { "uav_memory", case_uav_memory }, { "uav_vectors", case_uav_vectors },
        { "group_shared", case_group_shared },
        { "ranges", case_ranges },       { "errors", case_errors },
        { "atomics_all", case_atomics_all }, { "ranges_fixed", case_ranges_fixed },
    };
    if (argc < 2) {
        fprintf(stderr, "usage: %s CASE [CORPUS_DIR]\n", argv[0]);
        return 2;
    }
    corpus_dir = argc > 2 ? argv[2] : NULL;
    if (!strcmp(argv[1], "corpus_uav_format"))
        return case_corpus_uav_format();
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        if (!strcmp(argv[1], cases[i].name)) {
            cases[i].run();
            release_all();
            if (g_failures)
                fprintf(stderr, "%s: %d check(s) failed\n", argv[1], g_failures);
            return g_failures ? 1 : 0;
        }
    fprintf(stderr, "unknown case %s\n", argv[1]);
    return 2;
}
