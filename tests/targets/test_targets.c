/* SPDX-License-Identifier: MIT */
/*
 * The text targets of sb_translate (translator/src/targets): two hand-assembled
 * programs translated to GLSL, ESSL, MSL and HLSL, with the binding report checked entry
 * by entry against the values worked out by hand from the default binding scheme
 * (translate.h: cb# 0+n, s# 16+n, t# 32+n, u# 160+n) and each language's rules, and each
 * reported name and slot looked up in the text; then the error contract (bad version,
 * unknown target, a module SPIRV-Cross refuses).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sm4_asm.h"
#include "shaderbridge/translate.h"

enum { SIG_FLOAT = 3 };

/* ps_5_0: o0 = t2.Sample(s3, v1.xy) * cb1[0] (v1: TEXCOORD0, linear). */
static void build_pixel(struct blob *out)
{
    struct sm4_program p;
    sm4_begin(&p, 0, 5, 0, 1);
    sm4_dcl_cb(&p, 1, 1, 0);
    sm4_dcl_sampler(&p, 3);
    sm4_dcl_resource(&p, 2, 3 /* texture2d */, 0x5555 /* float x4 */);
    sm4_dcl_io(&p, 98 /* dcl_input_ps */, 2 /* linear */, T_INPUT, 1, "xy", -1);
    sm4_dcl_io(&p, 101 /* dcl_output */, 0, T_OUTPUT, 0, "xyzw", -1);
    uint32_t v1 = 1, o0 = 0;
    I(&p, OP_SAMPLE, dr(0, "xyzw"), sm4_reg(T_INPUT, 1, &v1, NULL, "xyxx", 0), st(2, "xyzw"), ss(3));
    I(&p, OP_MUL, sm4_reg(T_OUTPUT, 1, &o0, NULL, "xyzw", 1), sr(0, "xyzw"), scb(1, 0, NULL, "xyzw"));
    sm4_end(&p);
    const struct sig_element_spec ins[] = { { 0, "TEXCOORD", 0, 0, SIG_FLOAT, 1, 0x3, 0x3, 0 } };
    const struct sig_element_spec outs[] = { { 0, "SV_Target", 0, 0, SIG_FLOAT, 0, 0xf, 0x0, 0 } };
    memset(out, 0, sizeof(*out));
    sm4_container_sig(&p, ins, 1, outs, 1, NULL, 0, out);
}

/* cs_5_0 [8,1,1]: u0[tid * 4] = t1 (structured, stride 4)[tid] + cb0[0].x (raw u0). */
static void build_compute(struct blob *out)
{
    struct sm4_program p;
    sm4_begin_cs(&p, 8, 1, 1, 1);
    sm4_dcl_cb(&p, 0, 1, 0);
    sm4_dcl_resource_structured(&p, 1, 4);
    sm4_dcl_uav_raw(&p, 0);
    sm4_dcl_thread_id(&p, T_THREAD_ID, "x");
    I(&p, OP_LD_STRUCTURED, dr(0, "x"), special(T_THREAD_ID, "xxxx"), l1(0), st(1, "xxxx"));
    I(&p, OP_IADD, dr(0, "x"), sr(0, "xxxx"), scb(0, 0, NULL, "xxxx"));
    I(&p, OP_ISHL, dr(0, "y"), special(T_THREAD_ID, "xxxx"), l1(2));
    I(&p, OP_STORE_RAW, du(0, "x"), sr(0, "yyyy"), sr(0, "xxxx"));
    sm4_end(&p);
    memset(out, 0, sizeof(*out));
    sm4_container(&p, out);
}

/* What one report entry must say. */
struct expect {
    enum sb_target_binding_kind kind;
    uint32_t set, binding, location;
    const char *name_prefix; /* SPIRV-Cross may add _1 when a block takes the name */
    const char *slot;
    uint32_t slot_index;
};

static struct sb_translation *translate(const struct blob *shader, enum sb_translate_target target,
                                        uint32_t version)
{
    struct sb_translate_options options = { .target_env = SB_TARGET_VULKAN_1_1, .target = target,
                                            .target_version = version };
    struct sb_translation *t = NULL;
    struct sb_error error = { 0 };
    enum sb_result r = sb_translate(shader->bytes, shader->size, &options, &t, &error);
    CHECK(r == SB_SUCCESS, "%s %u: %s %s", sb_translate_target_name(target), version, sb_result_name(r),
          error.message);
    return t;
}

static void check_report(const char *what, const struct sb_translation *t, const struct expect *want,
                         uint32_t count)
{
    CHECK(t->text && t->text_size == strlen(t->text), "%s: text of %zu bytes", what, t->text_size);
    CHECK(t->target_binding_count == count, "%s: %u report entries, want %u", what, t->target_binding_count,
          count);
    for (uint32_t i = 0; i < count && i < t->target_binding_count; i++) {
        const struct sb_target_binding *b = &t->target_bindings[i];
        const struct expect *e = &want[i];
        CHECK(b->kind == e->kind && b->set == e->set && b->binding == e->binding &&
                  b->location == e->location && b->slot_index == e->slot_index,
              "%s[%u]: kind %d set %u binding %u location %u slot_index %u; want %d %u %u %u %u", what, i,
              (int)b->kind, b->set, b->binding, b->location, b->slot_index, (int)e->kind, e->set,
              e->binding, e->location, e->slot_index);
        CHECK(!strncmp(b->name, e->name_prefix, strlen(e->name_prefix)), "%s[%u]: name %s, want %s...",
              what, i, b->name, e->name_prefix);
        CHECK(!strcmp(b->slot, e->slot), "%s[%u]: slot '%s', want '%s'", what, i, b->slot, e->slot);
        /* The report is what the text says: both strings appear in it. */
        CHECK(t->text && strstr(t->text, b->name) && strstr(t->text, b->slot), "%s[%u]: '%s' / '%s' not in the text",
              what, i, b->name, b->slot);
    }
}

static void test_pixel(void)
{
    struct blob ps;
    build_pixel(&ps);
    const enum sb_target_binding_kind UBO = SB_TARGET_BINDING_UNIFORM_BUFFER,
                                      TEX = SB_TARGET_BINDING_SAMPLED_IMAGE, SMP = SB_TARGET_BINDING_SAMPLER,
                                      IN = SB_TARGET_BINDING_STAGE_INPUT, OUT = SB_TARGET_BINDING_STAGE_OUTPUT,
                                      COMB = SB_TARGET_BINDING_COMBINED_IMAGE_SAMPLER;

    struct sb_translation *t = translate(&ps, SB_TRANSLATE_TARGET_GLSL, 0);
    if (t) {
        const struct expect want[] = {
            { UBO, 0, 1, 0, "cb1", "set = 0, binding = 1", 1 },
            { TEX, 0, 34, 0, "t2", "set = 0, binding = 34", 34 },
            { SMP, 0, 19, 0, "s3", "set = 0, binding = 19", 19 },
            { IN, 0, 0, 1, "", "location = 1", 1 },
            { OUT, 0, 0, 0, "", "location = 0", 0 },
        };
        check_report("glsl", t, want, 5);
        CHECK(!strncmp(t->text, "#version 450\n", 13), "glsl starts '%.20s'", t->text);
        CHECK(t->words && t->word_count > 5, "the SPIR-V module is still reported");
    }
    sb_translation_destroy(t);

    t = translate(&ps, SB_TRANSLATE_TARGET_ESSL, 0);
    if (t) {
        /* ES: each kind numbered from 0; the texture and sampler combined, named after both. */
        const struct expect want[] = {
            { UBO, 0, 1, 0, "cb1", "binding = 0", 0 },
            { COMB, 0, 34, 0, "t2_s3", "binding = 0", 0 },
            { IN, 0, 0, 1, "", "location = 1", 1 },
            { OUT, 0, 0, 0, "", "location = 0", 0 },
        };
        check_report("essl", t, want, 4);
        CHECK(!strncmp(t->text, "#version 310 es\n", 16), "essl starts '%.20s'", t->text);
    }
    sb_translation_destroy(t);

    t = translate(&ps, SB_TRANSLATE_TARGET_MSL, 0);
    if (t) {
        const struct expect want[] = {
            { UBO, 0, 1, 0, "cb1", "[[buffer(0)]]", 0 },
            { TEX, 0, 34, 0, "t2", "[[texture(0)]]", 0 },
            { SMP, 0, 19, 0, "s3", "[[sampler(0)]]", 0 },
            { IN, 0, 0, 1, "", "[[user(locn1)]]", 1 },
            { OUT, 0, 0, 0, "", "[[color(0)]]", 0 },
        };
        check_report("msl", t, want, 5);
        CHECK(strstr(t->text, "fragment ") != NULL, "msl has a fragment function");
    }
    sb_translation_destroy(t);

    t = translate(&ps, SB_TRANSLATE_TARGET_HLSL, 0);
    if (t) {
        /* Back at the D3D registers; SM5.0 has no spaces. */
        const struct expect want[] = {
            { UBO, 0, 1, 0, "cb1", "register(b1)", 1 },
            { TEX, 0, 34, 0, "t2", "register(t2)", 2 },
            { SMP, 0, 19, 0, "s3", "register(s3)", 3 },
            { IN, 0, 0, 1, "", "TEXCOORD1", 1 },
            { OUT, 0, 0, 0, "", "SV_Target0", 0 },
        };
        check_report("hlsl", t, want, 5);
    }
    sb_translation_destroy(t);

    t = translate(&ps, SB_TRANSLATE_TARGET_HLSL, 51);
    if (t) {
        const struct expect want[] = {
            { UBO, 0, 1, 0, "cb1", "register(b1, space0)", 1 },
            { TEX, 0, 34, 0, "t2", "register(t2, space0)", 2 },
            { SMP, 0, 19, 0, "s3", "register(s3, space0)", 3 },
            { IN, 0, 0, 1, "", "TEXCOORD1", 1 },
            { OUT, 0, 0, 0, "", "SV_Target0", 0 },
        };
        check_report("hlsl 5.1", t, want, 5);
    }
    sb_translation_destroy(t);
}

static void test_compute(void)
{
    struct blob cs;
    build_compute(&cs);
    const enum sb_target_binding_kind UBO = SB_TARGET_BINDING_UNIFORM_BUFFER,
                                      SSBO = SB_TARGET_BINDING_STORAGE_BUFFER;
    struct sb_translation *t = translate(&cs, SB_TRANSLATE_TARGET_HLSL, 50);
    if (t) {
        /* The structured SRV is read-only: t1 again; the raw UAV u0. */
        const struct expect want[] = {
            { UBO, 0, 0, 0, "cb0", "register(b0)", 0 },
            { SSBO, 0, 33, 0, "t1", "register(t1)", 1 },
            { SSBO, 0, 160, 0, "u0", "register(u0)", 0 },
        };
        check_report("hlsl cs", t, want, 3);
        CHECK(strstr(t->text, "[numthreads(8, 1, 1)]") != NULL, "hlsl cs keeps its thread group");
    }
    sb_translation_destroy(t);

    t = translate(&cs, SB_TRANSLATE_TARGET_ESSL, 320);
    if (t) {
        const struct expect want[] = {
            { UBO, 0, 0, 0, "cb0", "binding = 0", 0 },
            { SSBO, 0, 33, 0, "t1", "binding = 0", 0 },
            { SSBO, 0, 160, 0, "u0", "binding = 1", 1 },
        };
        check_report("essl cs", t, want, 3);
        CHECK(!strncmp(t->text, "#version 320 es\n", 16), "essl 320 starts '%.20s'", t->text);
    }
    sb_translation_destroy(t);

    t = translate(&cs, SB_TRANSLATE_TARGET_MSL, 20300);
    if (t) {
        const struct expect want[] = {
            { UBO, 0, 0, 0, "cb0", "[[buffer(0)]]", 0 },
            { SSBO, 0, 33, 0, "t1", "[[buffer(1)]]", 1 },
            { SSBO, 0, 160, 0, "u0", "[[buffer(2)]]", 2 },
        };
        check_report("msl cs", t, want, 3);
        CHECK(strstr(t->text, "kernel void") != NULL, "msl cs is a kernel");
    }
    sb_translation_destroy(t);

    /* The SPIR-V target has neither text nor report. */
    t = translate(&cs, SB_TRANSLATE_TARGET_SPIRV, 0);
    if (t)
        CHECK(!t->text && !t->text_size && !t->target_bindings && !t->target_binding_count,
              "spirv: no text, no report");
    sb_translation_destroy(t);
}

/* cs_5_0: r0.xy = ftod(cb0[0].x); r0.xy = dadd(r0.xy, r0.xy); u0[0..7] = r0.xy. Every
 * double in the SPIR-V comes from, and goes back to, two 32-bit lanes by OpBitcast, which
 * this SPIRV-Cross would drop: the text must spell them as pack/unpackDouble2x32. */
static void test_doubles(struct blob *out)
{
    struct sm4_program p;
    sm4_begin_cs(&p, 1, 1, 1, 1);
    sm4_dcl_cb(&p, 0, 1, 0);
    sm4_dcl_uav_raw(&p, 0);
    I(&p, OP_FTOD, dr(0, "xy"), scb(0, 0, NULL, "xxxx"));
    I(&p, OP_DADD, dr(0, "xy"), sr(0, "xyxy"), sr(0, "xyxy"));
    I(&p, OP_STORE_RAW, du(0, "xy"), l1(0), sr(0, "xyxx"));
    sm4_end(&p);
    static struct blob cs;
    memset(&cs, 0, sizeof(cs));
    sm4_container(&p, &cs);
    struct sb_translation *t = translate(&cs, SB_TRANSLATE_TARGET_GLSL, 0);
    if (t)
        CHECK(strstr(t->text, "packDouble2x32(") && strstr(t->text, "unpackDouble2x32("),
              "glsl: doubles made and split with pack/unpackDouble2x32");
    sb_translation_destroy(t);
    t = translate(&cs, SB_TRANSLATE_TARGET_MSL, 0);
    if (t)
        CHECK(strstr(t->text, "as_type<double>(") && strstr(t->text, "as_type<uint2>("),
              "msl: doubles made and split with as_type");
    sb_translation_destroy(t);
    /* HLSL: refused, not written wrong (see expect_failure in test_errors). */
    *out = cs;
}

/* How many instructions of `opcode` the translation's SPIR-V module has; with `operand` > 0,
 * only those whose word `operand` has a bit of `mask` set (an image operand mask). */
static uint32_t spirv_ops(const struct sb_translation *t, uint32_t opcode, uint32_t operand, uint32_t mask)
{
    uint32_t n = 0;
    for (size_t at = 5; at < t->word_count;) {
        uint32_t length = t->words[at] >> 16;
        if (length == 0 || at + length > t->word_count)
            break;
        if ((t->words[at] & 0xffffu) == opcode && (!operand || (operand < length && (t->words[at + operand] & mask))))
            n++;
        at += length;
    }
    return n;
}

static bool text_has(const struct sb_translation *t, const char *part)
{
    return t && t->text && strstr(t->text, part);
}

/*
 * D3D's atomic_imin / atomic_imax compare as signed on a UAV's uint words. cs_5_0:
 *   atomic_imin u0 (raw), l(8), l(-2); imm_atomic_imax r0.x, u0, l(12), l(5);
 *   atomic_imax u1 (typed buffer of uint: R32ui), l(3), l(-7)
 * The SPIR-V target keeps OpAtomicSMin / SMax (one and two); every text target gets a
 * compare-exchange loop instead, because its uint atomics would compare unsigned (an
 * atomicMin on a uint leaves 6, not -2, from 6 and -2).
 */
static void test_signed_atomics(void)
{
    struct sm4_program p;
    sm4_begin_cs(&p, 1, 1, 1, 1);
    sm4_dcl_uav_raw(&p, 0);
    sm4_dcl_uav_typed(&p, 1, 1 /* buffer */, 0x4444 /* uint x4 */);
    I(&p, OP_ATOMIC_IMIN, du(0, "x"), l1(8), l1(0xfffffffeu));
    I(&p, OP_IMM_ATOMIC_IMAX, dr(0, "x"), du(0, "x"), l1(12), l1(5));
    I(&p, OP_ATOMIC_IMAX, du(1, "x"), l1(3), l1(0xfffffff9u));
    I(&p, OP_STORE_RAW, du(0, "x"), l1(16), sr(0, "xxxx"));
    sm4_end(&p);
    static struct blob cs;
    memset(&cs, 0, sizeof(cs));
    sm4_container(&p, &cs);

    struct sb_translation *t = translate(&cs, SB_TRANSLATE_TARGET_SPIRV, 0);
    if (t)
        CHECK(spirv_ops(t, 236 /* OpAtomicSMin */, 0, 0) == 1 && spirv_ops(t, 238 /* OpAtomicSMax */, 0, 0) == 2 &&
                  spirv_ops(t, 230 /* OpAtomicCompareExchange */, 0, 0) == 0,
              "spirv: signed atomics as OpAtomicSMin / SMax");
    sb_translation_destroy(t);
    static const struct {
        enum sb_translate_target target;
        const char *exchange, *image_exchange, *wrong[3];
    } forms[] = {
        { SB_TRANSLATE_TARGET_GLSL, "atomicCompSwap(", "imageAtomicCompSwap(", { "atomicMin(", "atomicMax(", "imageAtomicMax(" } },
        { SB_TRANSLATE_TARGET_ESSL, "atomicCompSwap(", "imageAtomicCompSwap(", { "atomicMin(", "atomicMax(", "imageAtomicMax(" } },
        { SB_TRANSLATE_TARGET_MSL, "atomic_compare_exchange_weak_explicit(", "atomic_compare_exchange_weak_explicit(",
          { "atomic_fetch_min_explicit(", "atomic_fetch_max_explicit(", "atomic_fetch_max_explicit(" } },
        { SB_TRANSLATE_TARGET_HLSL, "InterlockedCompareExchange(", "InterlockedCompareExchange(",
          { "InterlockedMin(", "InterlockedMax(", "InterlockedMax(" } },
    };
    for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
        t = translate(&cs, forms[i].target, 0);
        const char *name = sb_translate_target_name(forms[i].target);
        if (t) {
            CHECK(text_has(t, forms[i].exchange) && text_has(t, forms[i].image_exchange),
                  "%s: signed min/max as a compare-exchange loop", name);
            for (int w = 0; w < 3; w++)
                CHECK(!text_has(t, forms[i].wrong[w]), "%s: '%s' would compare unsigned", name, forms[i].wrong[w]);
            CHECK(spirv_ops(t, 236, 0, 0) == 0 && spirv_ops(t, 238, 0, 0) == 0 && spirv_ops(t, 230, 0, 0) == 3,
                  "%s: the module SPIRV-Cross read has three compare-exchanges", name);
        }
        sb_translation_destroy(t);
    }
}

/*
 * ps_5_0: o0 = ld_ms_aoffimmi(1,-2,0) t0 (texture2dms, float x4), address l(3, 4), sample l(1).
 * SPIR-V: an OpImageFetch with ConstOffset. GLSL has no fetch from a multisampled texture
 * with an offset (SPIRV-Cross wrote texelFetchOffset, which glslang rejects): the text
 * targets fetch at address + offset, D3D's meaning, so GLSL reads texelFetch(t0, ivec2(3,
 * 4) + ivec2(1, -2), 1).
 */
static void test_multisampled_offset(void)
{
    struct sm4_program p;
    sm4_begin(&p, 0, 5, 0, 0);
    sm4_dcl_resource(&p, 0, 4 /* texture2dms */, 0x5555 /* float x4 */);
    sm4_dcl_io(&p, 101 /* dcl_output */, 0, T_OUTPUT, 0, "xyzw", -1);
    uint32_t o0 = 0;
    const struct sm4_operand ops[4] = { sm4_reg(T_OUTPUT, 1, &o0, NULL, "xyzw", 1), l4(3, 4, 0, 0), st(0, "xyzw"),
                                        l1(1) };
    uint32_t length = 2;
    for (int i = 0; i < 4; i++)
        length += ops[i].n;
    /* ld_ms (46) with an extended opcode token of type 1: U = 1, V = -2 (4-bit two's complement). */
    sm4_put(&p, 46u | (1u << 31) | (length << 24));
    sm4_put(&p, 1u | (1u << 9) | (0xeu << 13));
    for (int i = 0; i < 4; i++)
        for (uint32_t j = 0; j < ops[i].n; j++)
            sm4_put(&p, ops[i].tok[j]);
    sm4_end(&p);
    const struct sig_element_spec outs[] = { { 0, "SV_Target", 0, 0, SIG_FLOAT, 0, 0xf, 0x0, 0 } };
    static struct blob ps;
    memset(&ps, 0, sizeof(ps));
    sm4_container_sig(&p, NULL, 0, outs, 1, NULL, 0, &ps);

    struct sb_translation *t = translate(&ps, SB_TRANSLATE_TARGET_SPIRV, 0);
    if (t)
        CHECK(spirv_ops(t, 95 /* OpImageFetch */, 5, 0x8 /* ConstOffset */) == 1, "spirv: fetch with ConstOffset");
    sb_translation_destroy(t);
    t = translate(&ps, SB_TRANSLATE_TARGET_GLSL, 0);
    if (t) {
        CHECK(spirv_ops(t, 95, 5, 0x8) == 0 && spirv_ops(t, 95, 0, 0) == 1, "glsl: the fetch has no ConstOffset");
        CHECK(text_has(t, "ivec2(3, 4) + ivec2(1, -2)") && !text_has(t, "texelFetchOffset"),
              "glsl: the offset added to the address:\n%s", t->text);
    }
    sb_translation_destroy(t);
}

/* ps_4_0 with 17 inputs (v0-v16.x): 18 report entries, more than the report's first
 * allocation holds, every unnamed one named _ID as in the text (the entries move as the
 * array grows; a name must not point into the old array). */
static void test_many_entries(void)
{
    struct sm4_program p;
    sm4_begin(&p, 0, 4, 0, 0);
    struct sig_element_spec ins[17];
    static char names[17][16];
    for (uint32_t v = 0; v < 17; v++) {
        sm4_dcl_io(&p, 98 /* dcl_input_ps */, 2 /* linear */, T_INPUT, v, "x", -1);
        snprintf(names[v], sizeof(names[v]), "ATTR");
        ins[v] = (struct sig_element_spec){ 0, names[v], v, 0, SIG_FLOAT, v, 0x1, 0x1, 0 };
    }
    sm4_dcl_io(&p, 101 /* dcl_output */, 0, T_OUTPUT, 0, "xyzw", -1);
    uint32_t v16 = 16, o0 = 0;
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, &o0, NULL, "xyzw", 1), sm4_reg(T_INPUT, 1, &v16, NULL, "xxxx", 0));
    sm4_end(&p);
    const struct sig_element_spec outs[] = { { 0, "SV_Target", 0, 0, SIG_FLOAT, 0, 0xf, 0x0, 0 } };
    static struct blob ps;
    memset(&ps, 0, sizeof(ps));
    sm4_container_sig(&p, ins, 17, outs, 1, NULL, 0, &ps);
    struct sb_translation *t = translate(&ps, SB_TRANSLATE_TARGET_GLSL, 0);
    if (t) {
        CHECK(t->target_binding_count == 18, "%u entries, want 17 inputs and 1 output", t->target_binding_count);
        for (uint32_t i = 0; i < t->target_binding_count; i++) {
            const struct sb_target_binding *b = &t->target_bindings[i];
            char slot[32];
            snprintf(slot, sizeof(slot), "location = %u", i < 17 ? i : 0);
            CHECK(b->kind == (i < 17 ? SB_TARGET_BINDING_STAGE_INPUT : SB_TARGET_BINDING_STAGE_OUTPUT) &&
                      b->location == (i < 17 ? i : 0) && !strcmp(b->slot, slot),
                  "entry %u: kind %d location %u slot '%s'", i, (int)b->kind, b->location, b->slot);
            CHECK(b->name[0] == '_' && strstr(t->text, b->name), "entry %u: name '%s' not in the text", i, b->name);
        }
    }
    sb_translation_destroy(t);
}

static void expect_failure(const struct blob *shader, enum sb_translate_target target, uint32_t version,
                           enum sb_result code, const char *message_part)
{
    struct sb_translate_options options = { .target_env = SB_TARGET_VULKAN_1_1, .target = target,
                                            .target_version = version };
    struct sb_translation *t = (struct sb_translation *)&options; /* must be reset to NULL */
    struct sb_error error = { 0 };
    enum sb_result r = sb_translate(shader->bytes, shader->size, &options, &t, &error);
    CHECK(r == code && error.code == code && t == NULL, "target %d version %u: %s (%s), want %s", (int)target,
          version, sb_result_name(r), error.message, sb_result_name(code));
    CHECK(error.offset == 0 && strstr(error.message, message_part), "target %d version %u: offset %llu '%s', want '%s'",
          (int)target, version, (unsigned long long)error.offset, error.message, message_part);
}

static void test_errors(const struct blob *doubles)
{
    static struct blob cs;
    build_compute(&cs);
    expect_failure(&cs, SB_TRANSLATE_TARGET_GLSL, 451, SB_ERROR_INVALID_ARGUMENT, "glsl cannot be version 451");
    expect_failure(&cs, SB_TRANSLATE_TARGET_MSL, 40000, SB_ERROR_INVALID_ARGUMENT, "msl cannot be version 40000");
    expect_failure(&cs, (enum sb_translate_target)7, 0, SB_ERROR_INVALID_ARGUMENT, "unknown translation target");
    /* ES 3.0 has no compute shaders: SPIRV-Cross refuses, and says so. */
    expect_failure(&cs, SB_TRANSLATE_TARGET_ESSL, 300, SB_ERROR_TARGET_CROSS, "SPIRV-Cross");
    expect_failure(doubles, SB_TRANSLATE_TARGET_HLSL, 0, SB_ERROR_TARGET_CROSS, "asdouble");

    enum sb_translate_target parsed = SB_TRANSLATE_TARGET_SPIRV;
    CHECK(sb_translate_target_parse("msl", &parsed) && parsed == SB_TRANSLATE_TARGET_MSL, "parse msl");
    CHECK(!sb_translate_target_parse("metal", &parsed), "metal is not a target name");
    CHECK(!strcmp(sb_translate_target_name(SB_TRANSLATE_TARGET_ESSL), "essl") &&
              sb_translate_target_name((enum sb_translate_target)9) == NULL, "target names");
    CHECK(!strcmp(sb_result_name(SB_ERROR_TARGET_CROSS), "SB_ERROR_TARGET_CROSS"), "result name");
}

int main(void)
{
    test_pixel();
    test_compute();
    test_many_entries();
    test_signed_atomics();
    test_multisampled_offset();
    static struct blob doubles;
    test_doubles(&doubles);
    test_errors(&doubles);
    if (failures)
        fprintf(stderr, "test_targets: %u checks failed\n", failures);
    else
        printf("test_targets: all checks passed\n");
    return failures ? 1 : 0;
}
