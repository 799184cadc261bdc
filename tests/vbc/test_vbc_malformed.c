/* SPDX-License-Identifier: MIT */
/*
 * VBC reader, bad files: every check of ../shared/docs/vbc.md §9 and every compiler
 * limit of §8 the reader enforces is broken once, on an otherwise valid
 * file, and the exact result code and byte offset of the offending field
 * are asserted. A full file is also cut at every length and must report
 * SB_ERROR_TRUNCATED at the first field or record array that is not whole.
 * Last, the engine-only rules of §7 are shown NOT to be format errors.
 *
 * Usage: test_vbc_malformed [SPV_DIR]. Without SPV_DIR (no glslang) the
 * files carry 5-word stand-in modules; the reflection bytes under test are
 * the same either way.
 */
#include "vbc_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures, cases;
static struct vw_modules modules;

static void expect_result(const char *label, const uint8_t *bytes, size_t size,
                          enum sb_result code, size_t offset)
{
    cases++;
    struct sb_vbc *vbc = (struct sb_vbc *)(uintptr_t)1;
    struct sb_error error = { 0 };
    enum sb_result result = sb_vbc_parse(bytes, size, &vbc, &error);
    bool ok = result == code;
    if (code == SB_SUCCESS) {
        ok = ok && vbc != NULL;
    } else {
        ok = ok && vbc == NULL && error.code == code && error.offset == offset &&
             error.message[0] != 0;
    }
    if (!ok) {
        fprintf(stderr, "FAIL %s: got %s at %llu (%s), expected %s at %zu\n", label,
                sb_result_name(result), (unsigned long long)error.offset, error.message,
                sb_result_name(code), offset);
        failures++;
    }
    if (result == SB_SUCCESS)
        sb_vbc_destroy(vbc);
}

/* Writes `spec` and expects `code` at `*offset_field` of the layout it produced. */
static void expect_spec(const char *label, const struct vw_spec *spec, enum sb_result code,
                        size_t (*where)(const struct vw_layout *))
{
    static struct vw_layout layout;
    size_t size = 0;
    uint8_t *bytes = vw_write(spec, &size, &layout);
    if (!bytes) {
        failures++;
        return;
    }
    expect_result(label, bytes, size, code, where ? where(&layout) : 0);
    free(bytes);
}

/* A copy of `base` with `count` bytes at `at` replaced. */
static void expect_patch(const char *label, const uint8_t *base, size_t size, size_t at,
                         const void *patch, size_t count, enum sb_result code, size_t offset)
{
    uint8_t *bytes = malloc(size);
    if (!bytes) {
        failures++;
        return;
    }
    memcpy(bytes, base, size);
    memcpy(bytes + at, patch, count);
    expect_result(label, bytes, size, code, offset);
    free(bytes);
}

#define PATCH8(label, at, value, code, offset)                                                \
    do {                                                                                      \
        uint8_t v_ = (uint8_t)(value);                                                        \
        expect_patch(label, base, base_size, (at), &v_, 1, (code), (offset));                 \
    } while (0)
#define PATCH16(label, at, value, code, offset)                                               \
    do {                                                                                      \
        uint8_t v_[2] = { (uint8_t)(value), (uint8_t)((value) >> 8) };                       \
        expect_patch(label, base, base_size, (at), v_, 2, (code), (offset));                  \
    } while (0)
#define PATCH32(label, at, value, code, offset)                                               \
    do {                                                                                      \
        uint32_t w_ = (uint32_t)(value);                                                      \
        uint8_t v_[4] = { (uint8_t)w_, (uint8_t)(w_ >> 8), (uint8_t)(w_ >> 16),              \
                          (uint8_t)(w_ >> 24) };                                              \
        expect_patch(label, base, base_size, (at), v_, 4, (code), (offset));                  \
    } while (0)

/* Layout accessors for expect_spec (the offset exists only after writing). */
static size_t at_input_count(const struct vw_layout *l) { return l->input_count_at; }
static size_t at_output_count(const struct vw_layout *l) { return l->output_count_at; }
static size_t at_binding_count(const struct vw_layout *l) { return l->binding_count_at; }
static size_t at_subpass_count(const struct vw_layout *l) { return l->subpass_count_at; }
static size_t at_uniform(const struct vw_layout *l) { return l->uniform_at; }
static size_t at_uniform_stages(const struct vw_layout *l) { return l->uniform_at + 2; }
static size_t at_member_count(const struct vw_layout *l) { return l->uniform_at + 4; }
static size_t at_member_3(const struct vw_layout *l) { return l->member_at[3]; }
static size_t at_member_3_name_byte_2(const struct vw_layout *l) { return l->member_at[3] + 3; }
static size_t at_member_10(const struct vw_layout *l) { return l->member_at[10]; }
/* member 17 is "f" (1-byte name): its fields start 2 bytes in. */
static size_t at_member_17_offset(const struct vw_layout *l) { return l->member_at[17] + 2; }
static size_t at_member_0_offset(const struct vw_layout *l) { return l->member_at[0] + 4; }
static size_t at_first_subpass(const struct vw_layout *l) { return l->subpass_at[0]; }
static size_t at_binding_0_stages(const struct vw_layout *l) { return l->binding_at[0] + 2; }
static size_t at_binding_1(const struct vw_layout *l) { return l->binding_at[1]; }
static size_t at_binding_2(const struct vw_layout *l) { return l->binding_at[2]; }
static size_t at_input_1(const struct vw_layout *l) { return l->input_at[1]; }
static size_t at_output_1(const struct vw_layout *l) { return l->output_at[1]; }
static size_t at_nothing(const struct vw_layout *l) { (void)l; return 0; }

static void counts_over_limits(const struct vw_spec *full)
{
    static struct vw_spec spec;
    spec = *full;
    spec.input_count = 17;
    for (uint32_t i = 0; i < 17; i++)
        spec.inputs[i] = (struct vw_var){ (uint8_t)i, SB_VBC_BASE_TYPE_FLOAT, { 1, 1 }, 1, 1 };
    expect_spec("17 vertex inputs", &spec, SB_ERROR_BAD_COUNT, at_input_count);

    spec = *full;
    spec.output_count = 9;
    for (uint32_t i = 0; i < 9; i++)
        spec.outputs[i] = (struct vw_var){ (uint8_t)i, SB_VBC_BASE_TYPE_FLOAT, { 4, 1 }, 1, 1 };
    expect_spec("9 fragment outputs", &spec, SB_ERROR_BAD_COUNT, at_output_count);

    spec = *full;
    spec.binding_count = 33;
    for (uint32_t i = 0; i < 33; i++)
        spec.bindings[i] = (struct vw_binding){ (uint8_t)i, SB_VBC_BASE_TYPE_SAMPLER, 0x10, 1,
                                                SB_VBC_TEXEL_TYPE_FLOAT, 4, 4, 0,
                                                SB_VBC_BINDING_SAMPLER_2D };
    expect_spec("33 bindings", &spec, SB_ERROR_BAD_COUNT, at_binding_count);

    spec = *full;
    spec.subpass_count = 5;
    for (uint32_t i = 0; i < 5; i++)
        spec.subpasses[i] = (struct vw_subpass){ SB_VBC_TEXEL_TYPE_FLOAT, 4 };
    expect_spec("5 subpass inputs", &spec, SB_ERROR_BAD_COUNT, at_subpass_count);

    spec = *full;
    spec.members[3].name = "a_name_of_thirty_three_characters";
    expect_spec("member name of 33 bytes", &spec, SB_ERROR_BAD_STRING, at_member_3);
    spec.members[3].name = "a_name_of_thirty_two_characters_";
    expect_spec("member name of 32 bytes", &spec, SB_SUCCESS, at_nothing);
    spec.members[3].name = "";
    expect_spec("empty member name", &spec, SB_ERROR_BAD_STRING, at_member_3);
    spec.members[3].name = "m2-3";
    expect_spec("member name with '-'", &spec, SB_ERROR_BAD_STRING, at_member_3_name_byte_2);
    spec.members[3].name = "b2"; /* member 10's name */
    expect_spec("duplicate member name", &spec, SB_ERROR_DUPLICATE, at_member_10);
}

static void uniform_rules(const struct vw_spec *full, const struct vw_spec *basic)
{
    static struct vw_spec spec;
    spec = *full;
    spec.uniform_size = 1028;
    expect_spec("uniform of 1028 bytes", &spec, SB_ERROR_BAD_SIZE, at_uniform);
    spec.uniform_size = 466;
    expect_spec("uniform of 466 bytes", &spec, SB_ERROR_BAD_SIZE, at_uniform);
    spec.uniform_size = 1024;
    expect_spec("uniform of 1024 bytes", &spec, SB_SUCCESS, at_nothing);

    spec = *full;
    spec.member_count = 0;
    expect_spec("uniform without members", &spec, SB_ERROR_BAD_COUNT, at_member_count);
    spec = *full;
    spec.uniform_stage_mask = 0x3f;
    expect_spec("uniform stage mask 0x3f", &spec, SB_ERROR_BAD_VALUE, at_uniform_stages);
    spec = *basic;
    spec.uniform_stage_mask = 0x13; /* tesc: absent in basic */
    expect_spec("uniform stage mask names tesc", &spec, SB_ERROR_BAD_VALUE, at_uniform_stages);

    spec = *full;
    spec.members[17].offset = 464; /* "f", 4 bytes, past the 464-byte struct */
    expect_spec("member past the struct", &spec, SB_ERROR_BAD_OFFSET, at_member_17_offset);
    spec = *full;
    spec.members[0].offset = 2;
    expect_spec("misaligned member", &spec, SB_ERROR_BAD_OFFSET, at_member_0_offset);
}

static void subpass_rules(const struct vw_spec *full)
{
    static struct vw_spec spec;
    spec = *full;
    spec.subpass_record_size = 48;
    expect_spec("48-byte subpass records (vslc bug)", &spec, SB_ERROR_BAD_SIZE, at_first_subpass);
    spec.subpass_count = 1;
    expect_spec("one 48-byte subpass record", &spec, SB_ERROR_BAD_SIZE, at_first_subpass);
}

static void binding_rules(const struct vw_spec *full, const struct vw_spec *basic)
{
    static struct vw_spec spec;
    spec = *full;
    spec.bindings[1].slot = spec.bindings[0].slot;
    expect_spec("duplicate slot", &spec, SB_ERROR_DUPLICATE, at_binding_1);
    spec = *full;
    spec.bindings[2].slot = 32;
    expect_spec("slot 32", &spec, SB_ERROR_BAD_VALUE, at_binding_2);
    spec.bindings[2].slot = 31;
    expect_spec("slot 31", &spec, SB_SUCCESS, at_nothing);
    spec = *basic;
    spec.bindings[0].stage_mask = 0x18; /* geom: absent in basic */
    expect_spec("binding stage mask names geom", &spec, SB_ERROR_BAD_VALUE, at_binding_0_stages);
    spec = *full;
    spec.inputs[1].location = 5; /* inside the float4x4's 4..7 */
    expect_spec("overlapping vertex locations", &spec, SB_ERROR_DUPLICATE, at_input_1);
    spec = *full;
    spec.outputs[1].location = spec.outputs[0].location;
    expect_spec("duplicate output location", &spec, SB_ERROR_DUPLICATE, at_output_1);
}

/* Byte patches on the written "full" file, each at a field the layout names. */
static void patched_fields(const uint8_t *base, size_t base_size, const struct vw_layout *l)
{
    PATCH8("magic byte 1", 1, 'X', SB_ERROR_BAD_MAGIC, 0);
    PATCH8("magic byte 2", 2, 'D', SB_ERROR_BAD_MAGIC, 0);
    PATCH8("version 2", 3, 2, SB_ERROR_BAD_VERSION, 3);
    PATCH8("version 0", 3, 0, SB_ERROR_BAD_VERSION, 3);
    PATCH8("shader type 0", 4, 0, SB_ERROR_BAD_VALUE, 4);
    PATCH8("shader type 2 (compute)", 4, 2, SB_ERROR_BAD_VALUE, 4);
    PATCH16("tesc bytecode of 4 words", 7, 4, SB_ERROR_BAD_SIZE, 7);
    PATCH32("vertex input count 2^32-1", l->input_count_at, 0xffffffffu, SB_ERROR_BAD_COUNT,
            l->input_count_at);
    PATCH32("member count over size / 4", l->uniform_at + 4, 117, SB_ERROR_BAD_COUNT,
            l->uniform_at + 4);

    size_t in = l->input_at[2]; /* int2 at location 1 */
    PATCH8("vertex input base boolean", in + 1, 1, SB_ERROR_BAD_VALUE, in + 1);
    PATCH8("vertex input base sampler", in + 1, 5, SB_ERROR_BAD_VALUE, in + 1);
    PATCH8("vertex input base 200", in + 1, 200, SB_ERROR_BAD_VALUE, in + 1);
    PATCH8("vertex input dims[0] 5", in + 2, 5, SB_ERROR_BAD_VALUE, in + 2);
    PATCH8("vertex input dims[0] 0", in + 2, 0, SB_ERROR_BAD_VALUE, in + 2);
    PATCH8("vertex input dims[1] 5", in + 3, 5, SB_ERROR_BAD_VALUE, in + 3);
    PATCH8("int matrix", in + 3, 2, SB_ERROR_BAD_VALUE, in + 3);
    PATCH8("vertex input array 17", in + 4, 17, SB_ERROR_BAD_VALUE, in + 4);
    PATCH8("vertex input array 0", in + 4, 0, SB_ERROR_BAD_VALUE, in + 4);
    PATCH8("vertex input padding", in + 6, 1, SB_ERROR_BAD_VALUE, in + 6);
    PATCH8("vertex input location 16", in, 16, SB_ERROR_BAD_VALUE, in);
    size_t mat = l->input_at[0]; /* float4x4 at location 4 */
    PATCH8("float4x4 at location 13", mat, 13, SB_ERROR_BAD_VALUE, mat);
    PATCH8("matrix input array", mat + 4, 2, SB_ERROR_BAD_VALUE, mat + 4);
    size_t one_row = l->input_at[1]; /* float at location 0 */
    PATCH8("matrix of one row", one_row + 3, 2, SB_ERROR_BAD_VALUE, one_row + 3);

    size_t out = l->output_at[1]; /* float4 at location 0 */
    PATCH8("fragment output base boolean", out + 1, 1, SB_ERROR_BAD_VALUE, out + 1);
    PATCH8("fragment output base void", out + 1, 0, SB_ERROR_BAD_VALUE, out + 1);
    PATCH8("fragment output matrix", out + 3, 4, SB_ERROR_BAD_VALUE, out + 3);
    PATCH8("fragment output float3", out + 2, 3, SB_ERROR_BAD_VALUE, out + 2);
    PATCH8("fragment output array 2", out + 4, 2, SB_ERROR_BAD_VALUE, out + 4);
    PATCH8("fragment output location 8", out, 8, SB_ERROR_BAD_VALUE, out);
    PATCH8("fragment output padding", out + 7, 0x80, SB_ERROR_BAD_VALUE, out + 7);

    size_t sampler = l->binding_at[0]; /* SamplerCube float4 */
    PATCH8("binding base float", sampler + 1, 4, SB_ERROR_BAD_VALUE, sampler + 1);
    PATCH8("binding base sp_input", sampler + 1, 11, SB_ERROR_BAD_VALUE, sampler + 1);
    PATCH8("binding base void", sampler + 1, 0, SB_ERROR_BAD_VALUE, sampler + 1);
    PATCH16("binding stage mask 0x28", sampler + 2, 0x28, SB_ERROR_BAD_VALUE, sampler + 2);
    PATCH16("binding stage mask 0x8000", sampler + 2, 0x8000, SB_ERROR_BAD_VALUE, sampler + 2);
    PATCH8("texel rank 7", sampler + 4, 7, SB_ERROR_BAD_VALUE, sampler + 4);
    PATCH8("sampler of rank buffer", sampler + 4, 6, SB_ERROR_BAD_VALUE, sampler + 4);
    PATCH8("texel type 5", sampler + 5, 5, SB_ERROR_BAD_VALUE, sampler + 5);
    PATCH8("texel component size 3", sampler + 6, 3, SB_ERROR_BAD_VALUE, sampler + 6);
    PATCH8("texel component count 3", sampler + 7, 3, SB_ERROR_BAD_VALUE, sampler + 7);
    PATCH8("texel component count 0", sampler + 7, 0, SB_ERROR_BAD_VALUE, sampler + 7);
    PATCH8("float texels of 1 byte", sampler + 6, 1, SB_ERROR_BAD_VALUE, sampler + 6);
    PATCH8("sampler of float2", sampler + 7, 2, SB_ERROR_BAD_VALUE, sampler + 5);
    {
        uint8_t unorm4[3] = { SB_VBC_TEXEL_TYPE_UNORM, 1, 4 }; /* a real format, not sampled */
        expect_patch("sampler of u8norm4", base, base_size, sampler + 5, unorm4, 3,
                     SB_ERROR_BAD_VALUE, sampler + 5);
    }
    size_t image = l->binding_at[1]; /* Image2D u8norm4 */
    PATCH8("image of rank buffer", image + 4, 6, SB_ERROR_BAD_VALUE, image + 4);
    PATCH8("unorm texels of 4 bytes", image + 6, 4, SB_ERROR_BAD_VALUE, image + 6);
    size_t rwtex = l->binding_at[4]; /* RWTexels s16norm2 */
    PATCH8("rwtexels of rank 2d", rwtex + 4, 1, SB_ERROR_BAD_VALUE, rwtex + 4);
    size_t buffer = l->binding_at[2]; /* RWBuffer stride 32 */
    PATCH16("buffer stride 0", buffer + 4, 0, SB_ERROR_BAD_SIZE, buffer + 4);
    PATCH16("buffer stride 6", buffer + 4, 6, SB_ERROR_BAD_SIZE, buffer + 4);
    PATCH16("buffer stride 1028", buffer + 4, 1028, SB_ERROR_BAD_SIZE, buffer + 4);
    PATCH8("buffer padding", buffer + 6, 1, SB_ERROR_BAD_VALUE, buffer + 6);

    size_t member = l->member_at[13] + 1 + 2; /* "i3": fields after the 2-byte name */
    PATCH8("member base void", member + 2, 0, SB_ERROR_BAD_VALUE, member + 2);
    PATCH8("member base sampler", member + 2, 5, SB_ERROR_BAD_VALUE, member + 2);
    PATCH8("member base struct", member + 2, 13, SB_ERROR_BAD_VALUE, member + 2);
    PATCH8("member array 65", member + 5, 65, SB_ERROR_BAD_VALUE, member + 5);
    PATCH8("member name starting with a digit", l->member_at[13] + 1, '3', SB_ERROR_BAD_STRING,
           l->member_at[13] + 1);

    size_t sp = l->subpass_at[1];
    PATCH8("subpass texel type unorm", sp, 3, SB_ERROR_BAD_VALUE, sp);
    PATCH8("subpass component count 2", sp + 1, 2, SB_ERROR_BAD_VALUE, sp + 1);
    PATCH8("subpass padding", sp + 3, 1, SB_ERROR_BAD_VALUE, sp + 3);

    PATCH8("vertex SPIR-V magic", l->blob_at[0], 0x04, SB_ERROR_BAD_MAGIC, l->blob_at[0]);
    PATCH8("fragment SPIR-V magic", l->blob_at[4] + 3, 0x08, SB_ERROR_BAD_MAGIC, l->blob_at[4]);
    PATCH32("big-endian geometry SPIR-V", l->blob_at[3], 0x03022307u, SB_ERROR_BAD_MAGIC,
            l->blob_at[3]);
}

static void truncations_and_trailing(const uint8_t *base, size_t base_size,
                                     const struct vw_layout *l)
{
    size_t distinct = 0, previous = SIZE_MAX;
    for (size_t length = 0; length < base_size; length++) {
        size_t want = vw_truncation_offset(l, length);
        if (want != previous)
            distinct++;
        previous = want;
        char label[64];
        snprintf(label, sizeof(label), "truncated to %zu bytes", length);
        int before = failures;
        expect_result(label, base, length, SB_ERROR_TRUNCATED, want);
        if (failures - before && failures > 20)
            break; /* one bug would otherwise print thousands of lines */
    }
    /* Every field of the header and sections is its own step, not one big check. */
    if (distinct < 40) {
        fprintf(stderr, "FAIL truncation: only %zu distinct offsets\n", distinct);
        failures++;
    }
    uint8_t *longer = malloc(base_size + 4);
    if (!longer) {
        failures++;
        return;
    }
    memcpy(longer, base, base_size);
    memset(longer + base_size, 0, 4);
    expect_result("one trailing byte", longer, base_size + 1, SB_ERROR_TRAILING_DATA, base_size);
    expect_result("four trailing bytes", longer, base_size + 4, SB_ERROR_TRAILING_DATA, base_size);
    free(longer);
}

/* §7's engine rules are properties: files breaking them must parse. */
static void engine_rules_are_not_errors(const struct vw_spec *basic)
{
    static struct vw_spec spec;
    spec = *basic;
    spec.blobs[SB_VBC_STAGE_VERTEX] = (struct vw_blob){ 0 };
    spec.bindings[1].stage_mask = 0; /* it was vertex-only */
    spec.uniform_stage_mask = 0x10;
    size_t size = 0;
    uint8_t *bytes = vw_write(&spec, &size, NULL);
    struct sb_vbc *vbc = NULL;
    cases++;
    if (!bytes || sb_vbc_parse(bytes, size, &vbc, NULL) != SB_SUCCESS || vbc->spirv_count != 1 ||
        vbc->engine_stages || vbc->engine_loadable || !vbc->engine_default_tables) {
        fprintf(stderr, "FAIL fragment-only file should parse with engine_stages false\n");
        failures++;
    }
    sb_vbc_destroy(vbc);
    free(bytes);

    spec = *basic;
    spec.table_sizes[SB_VBC_TABLE_SAMPLERS] = 1;
    spec.table_sizes[SB_VBC_TABLE_RWTEXELS] = 65535;
    bytes = vw_write(&spec, &size, NULL);
    vbc = NULL;
    cases++;
    if (!bytes || sb_vbc_parse(bytes, size, &vbc, NULL) != SB_SUCCESS ||
        vbc->engine_default_tables || !vbc->engine_stages || vbc->header.table_sizes[4] != 65535) {
        fprintf(stderr, "FAIL -T table sizes should parse with engine_default_tables false\n");
        failures++;
    }
    sb_vbc_destroy(vbc);
    free(bytes);
}

static void argument_errors(void)
{
    struct sb_vbc *vbc = (struct sb_vbc *)(uintptr_t)1;
    struct sb_error error = { 0 };
    cases += 4;
    if (sb_vbc_parse(NULL, 10, &vbc, &error) != SB_ERROR_INVALID_ARGUMENT || vbc != NULL ||
        error.code != SB_ERROR_INVALID_ARGUMENT) {
        fprintf(stderr, "FAIL NULL data\n");
        failures++;
    }
    if (sb_vbc_parse("VBC", 3, NULL, NULL) != SB_ERROR_INVALID_ARGUMENT) {
        fprintf(stderr, "FAIL NULL out\n");
        failures++;
    }
    expect_result("empty input", (const uint8_t *)"", 0, SB_ERROR_TRUNCATED, 0);
    sb_vbc_destroy(NULL);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 && argv[1][0] ? argv[1] : NULL;
    if (!dir)
        printf("note: no SPIR-V directory (glslang missing): using 5-word stand-in modules\n");
    if (!vw_modules_load(&modules, dir))
        return 1;
    static struct vw_spec full, basic;
    vw_spec_full(&full, &modules);
    vw_spec_basic(&basic, &modules);

    static struct vw_layout layout;
    size_t size = 0;
    uint8_t *base = vw_write(&full, &size, &layout);
    if (!base)
        return 1;
    expect_result("the unmodified full file", base, size, SB_SUCCESS, 0);
    counts_over_limits(&full);
    uniform_rules(&full, &basic);
    subpass_rules(&full);
    binding_rules(&full, &basic);
    patched_fields(base, size, &layout);
    truncations_and_trailing(base, size, &layout);
    engine_rules_are_not_errors(&basic);
    argument_errors();
    free(base);
    vw_modules_free(&modules);
    if (failures) {
        fprintf(stderr, "%d of %d cases failed\n", failures, cases);
        return 1;
    }
    printf("test_vbc_malformed: %d cases (file of %zu bytes cut at every length)\n", cases, size);
    return 0;
}
