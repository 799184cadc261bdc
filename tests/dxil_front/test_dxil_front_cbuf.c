/* SPDX-License-Identifier: MIT */
/*
 * Constant-buffer reads through 16- and 64-bit overloads (translator/src/dxil/
 * ir_from_dxil_cbuf.c) and structured buffers of strides that are not a multiple of 4
 * (ir_from_dxil_narrow_structured.c), 16-bit gathers (ir_from_dxil_gather16.c) and 64-bit
 * buffer elements (ir_from_dxil_buffers64.c) on the programs of tests/common/dxil_programs_cbuf.h: each is
 * translated and spirv-val'd (dxil_front_harness.h), then run through sb_validate with the
 * cbuffer below on the CPU interpreter and, when a Vulkan device is there (lavapipe), on
 * the GPU; both sides must hold the hand-computed words and the verdict must be agree.
 * `refusals`: what the file does not translate refuses with the instruction's offset.
 *
 * Usage: test_dxil_front_cbuf legacy16|legacy64|modern|narrow_structured|gather16|buffer64|
 *        refusals
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dxil_front_harness.h"
#include "dxil_program_writer.h"
#include "dxil_programs.h"
#include "dxil_programs_cbuf.h"
#include "shaderbridge/dxbc_dxil.h"
#include "shaderbridge/interp.h"
#include "shaderbridge/validate.h"

/*
 * cb0, 12 words: word i holds the halves 0x0100 + 2i (low) and 0x8001 + 2i (high; the set
 * top bit shows a sign extension), except word 8, whose high half is 1.5 as a half
 * (0x3E00), and words 10-11, the double 2.5 (0x4004000000000000).
 */
static const uint32_t CB0[DXIL_CBUF_BYTES / 4] = {
    0x80010100, 0x80030102, 0x80050104, 0x80070106, 0x80090108, 0x800B010A,
    0x800D010C, 0x800F010E, 0x3E000110, 0x80130112, 0x00000000, 0x40040000,
};

/* The words of u`reg` on one side of a report; NULL when it is missing or short. */
static const uint32_t *uav_words(const struct sb_rt_inputs *side, uint32_t reg, uint32_t count)
{
    for (uint32_t i = 0; side && i < side->count; i++) {
        const struct sb_rt_resource *r = &side->resources[i];
        if (r->resource_class == SB_IR_RESOURCE_UAV && r->register_index == reg &&
            r->size >= count * 4u)
            return r->data;
    }
    return NULL;
}

static void expect_words(const char *name, const char *side_name, uint32_t reg,
                         const uint32_t *got, const uint32_t *expected, uint32_t count)
{
    CHECK(got != NULL, "%s (%s): no u%u", name, side_name, reg);
    for (uint32_t i = 0; got && i < count; i++)
        CHECK(got[i] == expected[i], "%s (%s): u%u word %u = 0x%08x, expected 0x%08x", name,
              side_name, reg, i, got[i], expected[i]);
}

/* A buffer of class `cls` at register `reg` holding `size` bytes at `data`. */
static struct sb_rt_resource buffer_at(uint32_t cls, uint32_t reg, void *data, size_t size)
{
    return (struct sb_rt_resource){ .resource_class = cls, .register_index = reg, .data = data,
                                    .size = size, .layers = 1, .mip_levels = 1,
                                    .sample_count = 1 };
}

/* What a program is given besides a zeroed u0 (and cb0 = CB0 unless without_cb0), and the
 * words its u1 must end with (none when u1_count is 0). */
struct extra_buffers {
    bool without_cb0;
    struct sb_rt_resource provided[2];
    uint32_t provided_count;
    const uint32_t *u1;
    uint32_t u1_count;
};

/* What both sides' UAVs must hold: u0's `count` words, u1's `u1_count` (0: unchecked). */
struct expected_uavs {
    const uint32_t *u0;
    uint32_t count;
    const uint32_t *u1;
    uint32_t u1_count;
};

static void check_uavs(const char *name, const char *side_name, const struct sb_rt_inputs *side,
                       const void *expected)
{
    const struct expected_uavs *x = expected;
    expect_words(name, side_name, 0, uav_words(side, 0, x->count), x->u0, x->count);
    if (x->u1_count)
        expect_words(name, side_name, 1, uav_words(side, 1, x->u1_count), x->u1, x->u1_count);
}

/* Translates (spirv-val'd) and runs the program with cb0 = CB0, a zeroed u0 of `count`
 * words and `extra` on the interpreter and, with a device, the GPU (dxil_front_validate). */
static void run_with(const char *name, bool (*write)(struct tbuf *), const uint32_t *expected,
                     uint32_t count, const struct extra_buffers *extra)
{
    struct sb_error e = { 0 };
    struct sb_ir_program *ir = dxil_front_lower(write, &e);
    CHECK(ir != NULL, "%s: the front end refused: %s (byte %llu)", name, e.message,
          (unsigned long long)e.offset);
    sb_ir_program_destroy(ir);
    uint32_t cb0[DXIL_CBUF_BYTES / 4], u0[16] = { 0 };
    memcpy(cb0, CB0, sizeof(cb0));
    struct sb_rt_resource provided[4] = { buffer_at(SB_IR_RESOURCE_UAV, 0, u0, count * 4u) };
    uint32_t provided_count = 1;
    if (!extra || !extra->without_cb0)
        provided[provided_count++] = buffer_at(SB_IR_RESOURCE_CBV, 0, cb0, sizeof(cb0));
    for (uint32_t i = 0; extra && i < extra->provided_count; i++)
        provided[provided_count++] = extra->provided[i];
    const struct expected_uavs x = { expected, count, extra ? extra->u1 : NULL,
                                     extra ? extra->u1_count : 0 };
    dxil_front_validate(name, write, provided, provided_count, 0, false, check_uavs, &x);
}

static void run_program(const char *name, bool (*write)(struct tbuf *), const uint32_t *expected,
                        uint32_t count)
{
    run_with(name, write, expected, count, NULL);
}

/* Row 1 (dynamic: thread 0 + 1) as eight i16: member 1 = word 4 high (0x8009), member 3 =
 * word 5 high (0x800B), member 6 = word 7 low (0x010E), zero-extended; row 2 as f16:
 * member 1 = word 8 high = 1.5 -> 0x3FC00000. */
static void test_legacy16(void)
{
    static const uint32_t expected[4] = { 0x8009, 0x800B, 0x010E, 0x3FC00000 };
    run_program("legacy16", dxil_program_cbuf_legacy16, expected, 4);
}

/* Row 0 as two i64: 0x80030102_80010100 + 0x80070106_80050104: low words 0x80010100 +
 * 0x80050104 = 0x1_00060204 (carry 1), high 0x80030102 + 0x80070106 + 1 = 0x1_000A0209,
 * so s = 0x000A0209_00060204; row 2 member 1 (words 10-11) = 2.5, * 3 = 7.5 -> 0x40F00000. */
static void test_legacy64(void)
{
    static const uint32_t expected[3] = { 0x00060204, 0x000A0209, 0x40F00000 };
    run_program("legacy64", dxil_program_cbuf_legacy64, expected, 3);
}

/* Thread t's eight words (dxil_programs_cbuf.h): i32 at 20 = word 5; i16 at 26 = word 6
 * high (0x800D); i16 at 6 (t 0: word 1 high, 0x8003) / 12 (t 1: word 3 low, 0x0106); i64
 * at 12 (t 0: words 3 and 4, across rows 0 and 1) / 20 (t 1: words 5 and 6); i32 at 28
 * (word 7) / 32 (word 8, row 2); f16 at 34 = word 8 high = 1.5; f64 at 40 = 2.5. */
static void test_modern(void)
{
    static const uint32_t expected[16] = {
        0x800B010A, 0x800D, 0x8003, 0x80070106, 0x80090108, 0x800F010E, 0x3FC00000, 0x40200000,
        0x800B010A, 0x800D, 0x0106, 0x800B010A, 0x800D010C, 0x3E000110, 0x3FC00000, 0x40200000,
    };
    run_program("modern", dxil_program_cbuf_modern, expected, 16);
}

/* t0 (stride 2) halves h[i] = 0x1000 + i: thread 0 reads h[1] = 0x1001, thread 1 h[3] =
 * 0x1003 (u0 = 0x1001, 0x1003, zero-extended); u1 (stride 6, five words of 0xAAAAAAAA):
 * thread 0 writes 0x1002 to element 1's y = byte 8 (word 2's low half), thread 1 0x1004 to
 * element 2's y = byte 14 (word 3's high half); every other half keeps 0xAAAA. */
static void test_narrow_structured(void)
{
    uint32_t t0[4] = { 0x10011000, 0x10031002, 0x10051004, 0x10071006 };
    uint32_t u1[5] = { 0xAAAAAAAA, 0xAAAAAAAA, 0xAAAAAAAA, 0xAAAAAAAA, 0xAAAAAAAA };
    static const uint32_t expected0[2] = { 0x1001, 0x1003 };
    static const uint32_t expected1[5] = { 0xAAAAAAAA, 0xAAAAAAAA, 0xAAAA1002, 0x1004AAAA,
                                           0xAAAAAAAA };
    const struct extra_buffers extra = {
        .provided = { buffer_at(SB_IR_RESOURCE_SRV, 0, t0, sizeof(t0)),
                      buffer_at(SB_IR_RESOURCE_UAV, 1, u1, sizeof(u1)) },
        .without_cb0 = true, .provided_count = 2, .u1 = expected1, .u1_count = 5,
    };
    run_with("narrow_structured", dxil_program_cbuf_narrow_structured, expected0, 2, &extra);
}

/* A 2x2 one-level Texture2D of 32-bit texels at t`reg` in `format`. */
static struct sb_rt_resource texture_2x2(uint32_t reg, enum sb_rt_format format, void *texels)
{
    return (struct sb_rt_resource){ .resource_class = SB_IR_RESOURCE_SRV, .register_index = reg,
                                    .data = texels, .size = 16, .format = format,
                                    .dimension = 3, .width = 2, .height = 2, .depth = 1,
                                    .layers = 1, .mip_levels = 1, .sample_count = 1 };
}

/* GatherRed at the centre of 2x2 textures returns texels (0,1), (1,1), (1,0), (0,0).
 * t0 (int16_t, an R32_SINT view) rows (-2, 0x12345), (7, -32768): the i16 lanes are the
 * low 16 bits, zero-extended: 7, 0x8000, 0x2345, 0xFFFE. t1 (half, an R32_FLOAT view)
 * rows (1/3, 1.5), (-2, 65504): each rounded to a half: -2, 65504 (0x477FE000), 1.5 and
 * half(1/3) = 0x3555 = 0.333251953125 (0x3EAAA000). */
static void test_gather16(void)
{
    int32_t t0[4] = { -2, 0x12345, 7, -32768 };
    float t1[4] = { 1.0f / 3.0f, 1.5f, -2.0f, 65504.0f };
    static const uint32_t expected[8] = { 7, 0x8000, 0x2345, 0xFFFE,
                                          0xC0000000, 0x477FE000, 0x3FC00000, 0x3EAAA000 };
    const struct extra_buffers extra = {
        .without_cb0 = true,
        .provided = { texture_2x2(0, SB_RT_FORMAT_R32_SINT, t0),
                      texture_2x2(1, SB_RT_FORMAT_R32_FLOAT, t1) },
        .provided_count = 2,
    };
    run_with("gather16", dxil_program_cbuf_gather16, expected, 8, &extra);
}

/* t0 element 1 = (x, y) = (0x00000001_FFFFFFFF, 0x80000000_00000002) (element 0 is 0xEE
 * words): u0 = y; x + y = 0x80000002_00000001 (the low words carry: 0xFFFFFFFF + 2); x. */
static void test_buffer64(void)
{
    uint32_t t0[8] = { 0xEEEEEEEE, 0xEEEEEEEE, 0xEEEEEEEE, 0xEEEEEEEE,
                       0xFFFFFFFF, 0x00000001, 0x00000002, 0x80000000 };
    static const uint32_t expected[6] = { 0x00000002, 0x80000000, 0x00000001, 0x80000002,
                                          0xFFFFFFFF, 0x00000001 };
    const struct extra_buffers extra = {
        .without_cb0 = true,
        .provided = { buffer_at(SB_IR_RESOURCE_SRV, 0, t0, sizeof(t0)) },
        .provided_count = 1,
    };
    run_with("buffer64", dxil_program_cbuf_buffer64, expected, 6, &extra);
}

/* The refused programs: cs_6_2, one thread, u0 (raw) and a second resource `second`
 * (range 0, register 0) whose handle is made in the open entry block. */
struct refused_program {
    struct dxil_module *m;
    uint32_t entry, u0, second, i32;
};

static void refused_begin(struct refused_program *p, uint8_t second_class)
{
    p->m = dm_create();
    p->entry = dm_entry(p->m, "main");
    p->i32 = dm_type_int(p->m, 32);
    dm_at(p->m, dm_block(p->m));
    p->u0 = dxil_programs_create_handle(p->m, DXIL_CLASS_UAV, 0, 0);
    p->second = dxil_programs_create_handle(p->m, second_class, 0, 0);
}

/* u0[0] = value; ret; the container with u0, `second` and `third` (when not NULL). */
static bool refused_finish(struct refused_program *p, uint32_t value,
                           const struct dxil_resource *second, const struct dxil_resource *third,
                           uint64_t flags, struct tbuf *out)
{
    dxil_programs_store_u32(p->m, p->u0, dm_i32(p->m, 0), value);
    dm_ret_void(p->m);
    struct dxil_resource resources[3] = {
        { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_RAW_BUFFER,
          .type_name = "struct.RWByteAddressBuffer" },
        *second,
    };
    if (third)
        resources[2] = *third;
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_COMPUTE, .sm_minor = 2, .entry = p->entry,
        .entry_name = "main", .num_threads = { 1, 1, 1 }, .shader_flags = flags,
        .resources = resources, .resource_count = third ? 3 : 2,
    };
    bool ok = dxil_program_write(p->m, &d, out);
    dm_destroy(p->m);
    return ok;
}

/* A program reading cb0 with cbufferLoad of `type` at `offset` (UINT32_MAX: the thread id)
 * with `alignment`, storing its low 32 bits (i8 zero-extended) to u0[0]. */
static uint32_t refusal_type, refusal_offset, refusal_alignment;

static bool write_refused(struct tbuf *out)
{
    struct refused_program p;
    refused_begin(&p, DXIL_CLASS_CBV);
    struct dxil_module *m = p.m;
    uint32_t type = dm_type_int(m, refusal_type);
    uint32_t offset = refusal_offset == UINT32_MAX
                          ? dm_dxop(m, "dx.op.threadId.i32", p.i32, DM_ATTR_READNONE, 93,
                                    (uint32_t[1]){ dm_i32(m, 0) }, 1)
                          : dm_i32(m, (int32_t)refusal_offset);
    uint32_t args[3] = { p.second, offset, dm_i32(m, (int32_t)refusal_alignment) };
    char name[32];
    snprintf(name, sizeof(name), "dx.op.cbufferLoad.i%u", refusal_type);
    uint32_t v = dm_dxop(m, name, type, DM_ATTR_READONLY, 58, args, 3);
    static const struct dxil_resource cb0 = {
        .resource_class = DXIL_CLASS_CBV, .kind = DXIL_KIND_CBUFFER,
        .cbuffer_size = DXIL_CBUF_BYTES, .type_name = "cb0",
    };
    return refused_finish(&p, refusal_type == 32 ? v : dm_cast(m, DM_ZEXT, v, p.i32), &cb0,
                          NULL, DXIL_FLAG_RAW_BUFFERS | 0x20ull | 0x800000ull, out);
}

/* StructuredBuffer<S> t0 of stride 6 read as a 32-bit element (rawBufferLoad.i32 of t0[1]
 * at byte 2): raw addressing would be wrong for it and only 16-bit elements are lowered. */
static bool write_narrow_i32(struct tbuf *out)
{
    struct refused_program p;
    refused_begin(&p, DXIL_CLASS_SRV);
    struct dxil_module *m = p.m;
    uint32_t members[5] = { p.i32, p.i32, p.i32, p.i32, p.i32 };
    uint32_t resret = dm_type_struct(m, "dx.types.ResRet.i32", members, 5);
    uint32_t args[5] = { p.second, dm_i32(m, 1), dm_i32(m, 2), dm_i8(m, 1), dm_i32(m, 2) };
    uint32_t v = dm_dxop(m, "dx.op.rawBufferLoad.i32", resret, DM_ATTR_READONLY, 139, args, 5);
    static const struct dxil_resource t0 = {
        .resource_class = DXIL_CLASS_SRV, .kind = DXIL_KIND_STRUCTURED_BUFFER,
        .type_name = "class.StructuredBuffer<S>", .struct_stride = 6,
    };
    return refused_finish(&p, dm_extractvalue(m, v, 0), &t0, NULL, DXIL_FLAG_RAW_BUFFERS, out);
}

/* Texture2D<float> t0 gathered with the i16 overload (the texels' bits, which the IR's value
 * gather does not give): textureGather.i16 of t0 at (0.5, 0.5), member 0 stored. */
static bool write_gather_i16_of_float(struct tbuf *out)
{
    struct refused_program p;
    refused_begin(&p, DXIL_CLASS_SRV);
    struct dxil_module *m = p.m;
    uint32_t s0 = dxil_programs_create_handle(m, DXIL_CLASS_SAMPLER, 0, 0);
    uint32_t i16 = dm_type_int(m, 16), f32 = dm_type_float(m);
    uint32_t members[5] = { i16, i16, i16, i16, p.i32 };
    uint32_t resret = dm_type_struct(m, "dx.types.ResRet.i16", members, 5);
    uint32_t c = dm_f32(m, 0.5f), fu = dm_undef(m, f32), zero = dm_i32(m, 0);
    uint32_t args[9] = { p.second, s0, c, c, fu, fu, zero, zero, zero };
    uint32_t g = dm_dxop(m, "dx.op.textureGather.i16", resret, DM_ATTR_READONLY, 73, args, 9);
    static const struct dxil_resource t0 = {
        .resource_class = DXIL_CLASS_SRV, .kind = DXIL_KIND_TEXTURE2D,
        .type_name = "class.Texture2D<float>", .element_type = DXIL_COMP_F32,
    };
    static const struct dxil_resource sampler = {
        .resource_class = DXIL_CLASS_SAMPLER, .kind = DXIL_KIND_SAMPLER,
        .type_name = "struct.SamplerState",
    };
    return refused_finish(&p, dm_cast(m, DM_ZEXT, dm_extractvalue(m, g, 0), p.i32), &t0,
                          &sampler, DXIL_FLAG_RAW_BUFFERS | 0x20ull | 0x800000ull, out);
}

/* i8 (an overload the IR's 32-bit lanes could hold, but no corpus file uses), a 32-bit load
 * at byte 6 (straddles two words), a dynamic 32-bit load promised only 2-byte alignment:
 * each refused as unsupported, naming the instruction's offset, never translated; and a
 * 32-bit element of a structured buffer of stride 6, an i16 gather of a float texture. */
static void test_refusals(void)
{
    static const struct { uint32_t type, offset, alignment; const char *says; } cases[] = {
        { 8, 0, 1, "8-bit" },
        { 32, 6, 4, "alignment 6" },
        { 32, UINT32_MAX, 2, "alignment 2" },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        refusal_type = cases[i].type;
        refusal_offset = cases[i].offset;
        refusal_alignment = cases[i].alignment;
        struct sb_error e;
        struct sb_ir_program *ir = dxil_front_lower(write_refused, &e);
        CHECK(ir == NULL, "case %zu translated", i);
        sb_ir_program_destroy(ir);
        CHECK(e.code == SB_ERROR_TRANSLATE_UNSUPPORTED, "case %zu: code %d", i, (int)e.code);
        CHECK(e.offset > 0, "case %zu: no byte offset", i);
        CHECK(strstr(e.message, cases[i].says) != NULL, "case %zu: message '%s' lacks '%s'", i,
              e.message, cases[i].says);
    }
    static const struct { bool (*write)(struct tbuf *); const char *says; } programs[] = {
        { write_narrow_i32, "stride 6" },
        { write_gather_i16_of_float, "i16 gather of a texture of return type 5" },
    };
    for (size_t i = 0; i < sizeof(programs) / sizeof(programs[0]); i++) {
        struct sb_error e;
        struct sb_ir_program *ir = dxil_front_lower(programs[i].write, &e);
        CHECK(ir == NULL, "program %zu translated", i);
        sb_ir_program_destroy(ir);
        CHECK(e.code == SB_ERROR_TRANSLATE_UNSUPPORTED && e.offset > 0 &&
                  strstr(e.message, programs[i].says) != NULL,
              "program %zu: code %d, byte %llu, '%s'", i, (int)e.code,
              (unsigned long long)e.offset, e.message);
    }
}

int main(int argc, char **argv)
{
    static const struct { const char *name; void (*run)(void); } tests[] = {
        { "legacy16", test_legacy16 }, { "legacy64", test_legacy64 },
        { "modern", test_modern },     { "narrow_structured", test_narrow_structured },
        { "gather16", test_gather16 },   { "buffer64", test_buffer64 },
        { "refusals", test_refusals },
    };
    for (size_t i = 0; argc == 2 && i < sizeof(tests) / sizeof(tests[0]); i++) {
        if (strcmp(argv[1], tests[i].name) == 0) {
            tests[i].run();
            return failures ? 1 : 0;
        }
    }
    fprintf(stderr, "usage: test_dxil_front_cbuf legacy16|legacy64|modern|narrow_structured|"
                    "gather16|buffer64|refusals\n");
    return 2;
}
