/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the SHBIN reader (../shared/docs/pica200.md §12, §2, §3.3, §9.2,
 * §11.2) on files built by the test-only writer: all three layouts (current
 * picasso, old picasso with the DVLE header before the code and no padding,
 * Nintendo with labels, filenames and a DVLP version), vertex and geometry
 * DVLEs in all three GS modes, several DVLEs per file, every constant type,
 * every output type and every register class. Also walks the format tables
 * row by row and checks float24 decoding against the §2 reference table.
 */
#include "shaderbridge/shbin.h"
#include "shbin_check.h"
#include "shbin_writer.h"

#include <math.h>
#include <stdlib.h>

/* The worked example's program (§12.10), reused as a realistic code blob. */
static const uint32_t example_code[11] = {
    0x4E000000, 0x4E024001, 0x08020802, 0x08021803, 0x08022804, 0x08023805,
    0x4E024006, 0x4E024001, 0x16010003, 0x4C210007, 0x88000000,
};
static const uint32_t example_descriptors[8] = {
    0x0000034E, 0x00000AA1, 0x0006C368, 0x0006C364,
    0x0006C362, 0x0006C361, 0x0000000E, 0x0000036F,
};

static struct sb_shbin *parse_built(const struct shbin_writer_file *file, int line)
{
    struct sb_shbin *shbin = NULL;
    struct sb_error error = { 0 };
    enum sb_result r = sb_shbin_parse(file->bytes, file->size, &shbin, &error);
    check_count++;
    if (r != SB_SUCCESS) {
        fprintf(stderr, "%s:%d: parse failed: %s at %llu: %s\n", __FILE__, line,
                sb_result_name(r), (unsigned long long)error.offset, error.message);
        check_failures++;
    }
    return shbin;
}

static void test_float24(void)
{
    /* Every row of the §2 reference table, compared bit for bit. */
    static const struct { uint32_t f24; uint32_t f32; } rows[] = {
        { 0x3F0000, 0x3F800000 }, /* +1 */
        { 0xBF0000, 0xBF800000 }, /* -1 */
        { 0x3E0000, 0x3F000000 }, /* +0.5 */
        { 0xBE0000, 0xBF000000 }, /* -0.5 */
        { 0x3D0000, 0x3E800000 }, /* +0.25 */
        { 0x408000, 0x40400000 }, /* +3 */
        { 0x000000, 0x00000000 }, /* +0 */
        { 0x800000, 0x80000000 }, /* -0 keeps its sign */
        { 0x010000, 0x20800000 }, /* smallest normal 2^-62 */
        { 0x7EFFFF, 0x5F7FFF80 }, /* largest normal */
        { 0x7F0000, 0x7F800000 }, /* +inf */
        { 0xFF0000, 0xFF800000 }, /* -inf */
        { 0x000001, 0x18800000 }, /* smallest subnormal 2^-78, not flushed */
        { 0x00FFFF, 0x207FFF00 }, /* largest subnormal */
        { 0x800001, 0x98800000 }, /* negative subnormal */
        { 0xC00000, 0xC0000000 }, /* -2 */
        { 0xC59000, 0xC2C80000 }, /* -100 */
        { 0x3B9999, 0x3DCCCC80 }, /* picasso's truncated 0.1 */
        { 0x7F8000, 0x7FC00000 }, /* NaN: payload shifted left by 7 */
        { 0xFF8000, 0xFFC00000 }, /* NaN keeps its sign */
        { 0x7F0001, 0x7F800080 }, /* NaN with the smallest payload */
        { 0xAB3F0000, 0x3F800000 }, /* bits above 23 are ignored */
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        CHECK_FLOAT_BITS(sb_shbin_float24_to_float(rows[i].f24), rows[i].f32);
    CHECK(isnan(sb_shbin_float24_to_float(0x7F0001)));
    CHECK(isnan(sb_shbin_float24_to_float(0x7FFFFF)));
    CHECK(isinf(sb_shbin_float24_to_float(0x7F0000)));
    CHECK(sb_shbin_float24_to_float(0x3B9999) < 0.1f);
    CHECK(sb_shbin_float24_to_float(0x000001) == ldexpf(1.0f, -78));
    CHECK(sb_shbin_float24_to_float(0x00FFFF) == ldexpf(65535.0f, -78));
    /* Every normal exponent maps to 2^(e-63) exactly. */
    for (uint32_t e = 1; e <= 126; e++)
        CHECK(sb_shbin_float24_to_float(e << 16) == ldexpf(1.0f, (int)e - 63));
}

static void test_tables(void)
{
    /* §3.3: each class's first and last register, and the gaps. */
    static const struct {
        uint32_t reg;
        bool valid;
        enum sb_shbin_register_class cls;
        uint32_t index;
    } regs[] = {
        { 0x00, true, SB_SHBIN_REGISTER_INPUT, 0 }, { 0x0F, true, SB_SHBIN_REGISTER_INPUT, 15 },
        { 0x10, true, SB_SHBIN_REGISTER_FLOAT, 0 }, { 0x6F, true, SB_SHBIN_REGISTER_FLOAT, 95 },
        { 0x70, true, SB_SHBIN_REGISTER_INT, 0 },   { 0x73, true, SB_SHBIN_REGISTER_INT, 3 },
        { 0x74, false, 0, 0 },                      { 0x77, false, 0, 0 },
        { 0x78, true, SB_SHBIN_REGISTER_BOOL, 0 },  { 0x87, true, SB_SHBIN_REGISTER_BOOL, 15 },
        { 0x88, false, 0, 0 },                      { 0xFFFF, false, 0, 0 },
    };
    for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
        enum sb_shbin_register_class cls = SB_SHBIN_REGISTER_CLASS_MAX_ENUM;
        uint32_t index = 999;
        CHECK_EQ(sb_shbin_decode_register(regs[i].reg, &cls, &index), regs[i].valid);
        if (regs[i].valid) {
            CHECK_EQ(cls, regs[i].cls);
            CHECK_EQ(index, regs[i].index);
        }
    }
    CHECK_STR(sb_shbin_register_class_name(SB_SHBIN_REGISTER_INPUT), "v");
    CHECK_STR(sb_shbin_register_class_name(SB_SHBIN_REGISTER_FLOAT), "c");
    CHECK_STR(sb_shbin_register_class_name(SB_SHBIN_REGISTER_INT), "i");
    CHECK_STR(sb_shbin_register_class_name(SB_SHBIN_REGISTER_BOOL), "b");
    CHECK(sb_shbin_register_class_name((enum sb_shbin_register_class)4) == NULL);

    /* §11.2, one row per output type: name. Type 7 and 10 are unassigned. */
    static const char *const output_names[] = {
        "position", "normal_quaternion", "color", "texcoord0", "texcoord0_w",
        "texcoord1", "texcoord2", NULL, "view", "dummy", NULL,
    };
    for (uint32_t t = 0; t < sizeof(output_names) / sizeof(output_names[0]); t++) {
        const char *name = sb_shbin_output_type_name((enum sb_shbin_output_type)t);
        if (output_names[t])
            CHECK_STR(name, output_names[t]);
        else
            CHECK(name == NULL);
    }
    /* §11.1, every code. */
    static const char *const semantics[32] = {
        "position.x", "position.y", "position.z", "position.w",
        "normal_quaternion.x", "normal_quaternion.y", "normal_quaternion.z",
        "normal_quaternion.w", "color.r", "color.g", "color.b", "color.a",
        "texcoord0.u", "texcoord0.v", "texcoord1.u", "texcoord1.v", "texcoord0.w", NULL,
        "view.x", "view.y", "view.z", NULL, "texcoord2.u", "texcoord2.v",
        NULL, NULL, NULL, NULL, NULL, NULL, NULL, "unused",
    };
    for (uint32_t code = 0; code < 32; code++) {
        if (semantics[code])
            CHECK_STR(sb_shbin_semantic_name(code), semantics[code]);
        else
            CHECK(sb_shbin_semantic_name(code) == NULL);
    }
    CHECK(sb_shbin_semantic_name(32) == NULL);
    CHECK_STR(sb_shbin_layout_name(SB_SHBIN_LAYOUT_PICASSO), "picasso");
    CHECK_STR(sb_shbin_layout_name(SB_SHBIN_LAYOUT_PICASSO_OLD), "picasso-old");
    CHECK_STR(sb_shbin_layout_name(SB_SHBIN_LAYOUT_NINTENDO), "nintendo");
    CHECK(sb_shbin_layout_name((enum sb_shbin_layout)3) == NULL);
    CHECK_STR(sb_shbin_shader_type_name(SB_SHBIN_SHADER_VERTEX), "vertex");
    CHECK_STR(sb_shbin_shader_type_name(SB_SHBIN_SHADER_GEOMETRY), "geometry");
    CHECK(sb_shbin_shader_type_name((enum sb_shbin_shader_type)2) == NULL);
    CHECK_STR(sb_shbin_gs_mode_name(SB_SHBIN_GS_MODE_POINT), "point");
    CHECK_STR(sb_shbin_gs_mode_name(SB_SHBIN_GS_MODE_VARIABLE), "variable");
    CHECK_STR(sb_shbin_gs_mode_name(SB_SHBIN_GS_MODE_FIXED), "fixed");
    CHECK(sb_shbin_gs_mode_name((enum sb_shbin_gs_mode)3) == NULL);
    CHECK_STR(sb_shbin_constant_type_name(SB_SHBIN_CONSTANT_BOOL), "bool");
    CHECK_STR(sb_shbin_constant_type_name(SB_SHBIN_CONSTANT_INT), "int");
    CHECK_STR(sb_shbin_constant_type_name(SB_SHBIN_CONSTANT_FLOAT), "float");
    CHECK(sb_shbin_constant_type_name((enum sb_shbin_constant_type)3) == NULL);
}

/* One of everything: all constant types, all output types, all register classes. */
static const struct shbin_writer_constant all_constants[] = {
    { 0, 3, { 1, 0, 0, 0 } },                               /* b3 = true */
    { 0, 15, { 0, 0, 0, 0 } },                              /* b15 = false */
    { 1, 2, { 0x00010004, 0, 0, 0 } },                      /* i2 = (4, 0, 1, 0) */
    { 2, 95, { 0x000000, 0x3F0000, 0xC00000, 0xC59000 } },  /* c95 = (0, 1, -2, -100) */
    { 2, 0, { 0x3E0000, 0x408000, 0xBE0000, 0x3D0000 } },  /* c0 = (0.5, 3, -0.5, 0.25) */
};
static const struct shbin_writer_output all_outputs[] = {
    { 0, 0, 0xF }, { 1, 1, 0xF }, { 2, 2, 0xF }, { 3, 3, 0x3 }, { 4, 3, 0x4 },
    { 5, 4, 0x3 }, { 6, 4, 0xC }, { 8, 5, 0x7 }, { 9, 6, 0xF },
};
/* The semantics libctru derives for all_outputs, lanes x..w (§11.2). */
static const uint8_t all_output_semantics[9][4] = {
    { 0x00, 0x01, 0x02, 0x03 }, { 0x04, 0x05, 0x06, 0x07 }, { 0x08, 0x09, 0x0A, 0x0B },
    { 0x0C, 0x0D, 0x1F, 0x1F }, { 0x1F, 0x1F, 0x10, 0x1F }, { 0x0E, 0x0F, 0x1F, 0x1F },
    { 0x1F, 0x1F, 0x16, 0x17 }, { 0x12, 0x13, 0x14, 0x1F }, { 0x1F, 0x1F, 0x1F, 0x1F },
};
static const struct shbin_writer_uniform all_uniforms[] = {
    { "position", 0x00, 0x00 }, { "projection", 0x10, 0x13 }, { "bones", 0x14, 0x6F },
    { "loops", 0x70, 0x73 },    { "flags", 0x78, 0x87 },
};

static void check_all_constants(const struct sb_shbin_dvle *d)
{
    CHECK_EQ(d->constant_count, 5);
    if (d->constant_count != 5)
        return;
    const struct sb_shbin_constant *c = d->constants;
    CHECK_EQ(c[0].type, SB_SHBIN_CONSTANT_BOOL);
    CHECK_EQ(c[0].register_index, 3);
    CHECK_EQ(c[0].bool_value, true);
    CHECK_EQ(c[1].type, SB_SHBIN_CONSTANT_BOOL);
    CHECK_EQ(c[1].register_index, 15);
    CHECK_EQ(c[1].bool_value, false);
    CHECK_EQ(c[2].type, SB_SHBIN_CONSTANT_INT);
    CHECK_EQ(c[2].register_index, 2);
    CHECK_EQ(c[2].raw[0], 0x00010004);
    CHECK_EQ(c[2].int_value[0], 4);
    CHECK_EQ(c[2].int_value[1], 0);
    CHECK_EQ(c[2].int_value[2], 1);
    CHECK_EQ(c[2].int_value[3], 0);
    CHECK_EQ(c[3].type, SB_SHBIN_CONSTANT_FLOAT);
    CHECK_EQ(c[3].register_index, 95);
    static const uint32_t c95[4] = { 0x000000, 0x3F0000, 0xC00000, 0xC59000 };
    static const float c95_values[4] = { 0.0f, 1.0f, -2.0f, -100.0f };
    static const uint32_t c0[4] = { 0x3E0000, 0x408000, 0xBE0000, 0x3D0000 };
    static const float c0_values[4] = { 0.5f, 3.0f, -0.5f, 0.25f };
    for (unsigned k = 0; k < 4; k++) {
        CHECK_EQ(c[3].raw[k], c95[k]);
        CHECK_EQ(c[3].float24[k], c95[k]);
        CHECK(c[3].float_value[k] == c95_values[k]);
        CHECK_EQ(c[4].float24[k], c0[k]);
        CHECK(c[4].float_value[k] == c0_values[k]);
    }
    CHECK_EQ(c[4].type, SB_SHBIN_CONSTANT_FLOAT);
    CHECK_EQ(c[4].register_index, 0);
}

static void check_all_outputs(const struct sb_shbin_dvle *d)
{
    CHECK_EQ(d->output_count, 9);
    if (d->output_count != 9)
        return;
    for (unsigned i = 0; i < 9; i++) {
        const struct sb_shbin_output *o = &d->outputs[i];
        CHECK_EQ(o->type, all_outputs[i].type);
        CHECK_EQ(o->register_index, all_outputs[i].register_index);
        CHECK_EQ(o->mask, all_outputs[i].mask);
        CHECK_EQ(o->mask_word, all_outputs[i].mask);
        for (unsigned lane = 0; lane < 4; lane++)
            CHECK_EQ(o->semantics[lane], all_output_semantics[i][lane]);
    }
}

static void check_all_uniforms(const struct sb_shbin_dvle *d)
{
    static const struct {
        enum sb_shbin_register_class cls;
        uint32_t first, last, name_offset;
    } expected[] = {
        { SB_SHBIN_REGISTER_INPUT, 0, 0, 0 }, { SB_SHBIN_REGISTER_FLOAT, 0, 3, 9 },
        { SB_SHBIN_REGISTER_FLOAT, 4, 95, 20 }, { SB_SHBIN_REGISTER_INT, 0, 3, 26 },
        { SB_SHBIN_REGISTER_BOOL, 0, 15, 32 },
    };
    CHECK_EQ(d->uniform_count, 5);
    CHECK_EQ(d->symbol_count, 5);
    CHECK_EQ(d->symbol_table_size, 38);
    if (d->uniform_count != 5 || d->symbol_count != 5)
        return;
    for (unsigned i = 0; i < 5; i++) {
        const struct sb_shbin_uniform *u = &d->uniforms[i];
        CHECK_STR(u->name, all_uniforms[i].name);
        CHECK_EQ(u->name_offset, expected[i].name_offset);
        CHECK_EQ(u->first_register, all_uniforms[i].first_register);
        CHECK_EQ(u->last_register, all_uniforms[i].last_register);
        CHECK_EQ(u->register_class, expected[i].cls);
        CHECK_EQ(u->first_index, expected[i].first);
        CHECK_EQ(u->last_index, expected[i].last);
        CHECK_EQ(d->symbols[i].offset, expected[i].name_offset);
        CHECK_STR(d->symbols[i].text, all_uniforms[i].name);
    }
}

static void check_example_program(const struct sb_shbin_program *p)
{
    CHECK_EQ(p->code_word_count, 11);
    CHECK_EQ(p->operand_descriptor_count, 8);
    if (p->code_word_count == 11)
        for (unsigned i = 0; i < 11; i++)
            CHECK_EQ(p->code[i], example_code[i]);
    if (p->operand_descriptor_count == 8)
        for (unsigned i = 0; i < 8; i++) {
            CHECK_EQ(p->operand_descriptors[i].word, example_descriptors[i]);
            CHECK_EQ(p->operand_descriptors[i].extra_word, 0);
        }
}

static void test_current_picasso(void)
{
    const struct shbin_writer_dvle dvle = {
        .version = 0x1002, .type = 0, .main_address = 0, .end_address = 11,
        .input_mask = 0x0001, .output_mask = 0x007F,
        .constants = all_constants, .constant_count = 5,
        .outputs = all_outputs, .output_count = 9,
        .uniforms = all_uniforms, .uniform_count = 5,
    };
    const struct shbin_writer_program prog = {
        .layout = SHBIN_WRITER_PICASSO, .code = example_code, .code_word_count = 11,
        .descriptors = example_descriptors, .descriptor_count = 8, .dvles = &dvle,
        .dvle_count = 1,
    };
    struct shbin_writer_file f;
    CHECK(shbin_writer_build(&prog, &f));
    struct sb_shbin *s = parse_built(&f, __LINE__);
    if (s) {
        CHECK_EQ(s->layout, SB_SHBIN_LAYOUT_PICASSO);
        CHECK_EQ(s->size, f.size);
        CHECK_EQ(s->warning_count, 0);
        CHECK_EQ(s->dvle_count, 1);
        CHECK_EQ(s->dvle_offsets[0], f.dvle[0].header);
        const struct sb_shbin_program *p = &s->program;
        CHECK_EQ(p->file_offset, 12);
        CHECK_EQ(p->version, 0);
        CHECK_EQ(p->header_size, 0x28);
        CHECK_EQ(p->unknown_word_count, 3);
        CHECK_EQ(p->code_offset, 0x28);
        CHECK_EQ(p->operand_descriptor_offset, 0x28 + 44);
        CHECK_EQ(p->filename_table_offset, 0x28 + 44 + 64);
        CHECK_EQ(p->filename_count, 0);
        check_example_program(p);
        /* §5 fields of descriptor 1 (0xAA1: mask w, SRC1 .yyyy) and 0 (mask xyz, .xyzz). */
        const struct sb_shbin_operand_descriptor *d = p->operand_descriptors;
        CHECK_EQ(d[1].dest_mask, 0x1);
        CHECK_EQ(d[1].selector[0], 0x55);
        CHECK_EQ(d[1].negate[0], false);
        CHECK_EQ(d[0].dest_mask, 0xE);
        CHECK_EQ(d[0].selector[0], 0x1A);
        const struct sb_shbin_dvle *v = &s->dvles[0];
        CHECK_EQ(v->file_offset, f.dvle[0].header);
        CHECK(v->file_offset > f.code);
        CHECK_EQ(v->version, 0x1002);
        CHECK_EQ(v->type, SB_SHBIN_SHADER_VERTEX);
        CHECK_EQ(v->merge_outmaps, false);
        CHECK_EQ(v->main_address, 0);
        CHECK_EQ(v->end_address, 11);
        CHECK_EQ(v->input_mask, 0x0001);
        CHECK_EQ(v->output_mask, 0x007F);
        CHECK_EQ(v->gs_mode, SB_SHBIN_GS_MODE_POINT);
        CHECK_EQ(v->constant_table_offset, 0x40);
        CHECK_EQ(v->label_count, 0);
        CHECK_EQ(v->label_table_offset, v->output_table_offset);
        check_all_constants(v);
        check_all_outputs(v);
        check_all_uniforms(v);
        CHECK_EQ(f.size % 4, 0);
    }
    sb_shbin_destroy(s);
    shbin_writer_free(&f);
}

static void test_old_picasso(void)
{
    static const struct shbin_writer_constant constant = {
        2, 4, { 0x000000, 0x3F0000, 0xC00000, 0xC59000 }
    };
    static const struct shbin_writer_output outputs[] = { { 0, 0, 0xF }, { 2, 1, 0xF } };
    static const struct shbin_writer_uniform uniform = { "projection", 0x10, 0x13 };
    const struct shbin_writer_dvle dvle = {
        .version = 0, .end_address = 11, .constants = &constant, .constant_count = 1,
        .outputs = outputs, .output_count = 2, .uniforms = &uniform, .uniform_count = 1,
    };
    const struct shbin_writer_program prog = {
        .layout = SHBIN_WRITER_PICASSO_OLD, .code = example_code, .code_word_count = 11,
        .descriptors = example_descriptors, .descriptor_count = 8, .dvles = &dvle,
        .dvle_count = 1,
    };
    struct shbin_writer_file f;
    CHECK(shbin_writer_build(&prog, &f));
    /* The same arrangement as the §12.10 example: 279 bytes, DVLE at 0x34, code at 0x74. */
    CHECK_EQ(f.size, 279);
    CHECK_EQ(f.dvle[0].header, 0x34);
    CHECK_EQ(f.code, 0x74);
    struct sb_shbin *s = parse_built(&f, __LINE__);
    if (s) {
        CHECK_EQ(s->layout, SB_SHBIN_LAYOUT_PICASSO_OLD);
        CHECK_EQ(s->program.header_size, 0x28);
        CHECK_EQ(s->program.code_offset, 0x68);
        CHECK_EQ(s->program.operand_descriptor_offset, 0x94);
        CHECK_EQ(s->program.filename_table_offset, 0xD4);
        check_example_program(&s->program);
        const struct sb_shbin_dvle *v = &s->dvles[0];
        CHECK_EQ(v->file_offset, 0x34);
        CHECK_EQ(v->version, 0);
        CHECK_EQ(v->constant_table_offset, 0xAC);
        CHECK_EQ(v->output_table_offset, 0xC0);
        CHECK_EQ(v->uniform_table_offset, 0xD0);
        CHECK_EQ(v->symbol_table_offset, 0xD8);
        CHECK_EQ(v->symbol_table_size, 11);
        CHECK_EQ(v->constant_count, 1);
        CHECK_EQ(v->constants[0].register_index, 4);
        CHECK(v->constants[0].float_value[3] == -100.0f);
        CHECK_EQ(v->output_count, 2);
        CHECK_EQ(v->outputs[1].type, SB_SHBIN_OUTPUT_COLOR);
        CHECK_EQ(v->outputs[1].register_index, 1);
        CHECK_EQ(v->uniform_count, 1);
        CHECK_STR(v->uniforms[0].name, "projection");
    }
    sb_shbin_destroy(s);
    shbin_writer_free(&f);
}

static void test_nintendo(void)
{
    static const struct shbin_writer_label vs_labels[] = {
        { 0x01, 0, 0, "main" }, { 0xAB02, 3, 0x77, "helper" }, { 0x03, 6, 0, "end" },
    };
    static const struct shbin_writer_label gs_labels[] = { { 0, 6, 0, "gmain" } };
    static const struct shbin_writer_uniform vs_uniforms[] = { { "mvp", 0x10, 0x13 } };
    static const struct shbin_writer_output gs_outputs[] = { { 9, 0, 0xF }, { 0, 1, 0xF } };
    const struct shbin_writer_dvle dvles[2] = {
        { .version = 0x0102, .type = 0, .main_address = 0, .end_address = 6,
          .labels = vs_labels, .label_count = 3, .uniforms = vs_uniforms, .uniform_count = 1 },
        { .version = 0x0102, .type = 1, .flags = 1, .main_address = 6, .end_address = 11,
          .gs_mode = 2, .gs_fixed_start = 0x20, .gs_fixed_count = 3,
          .labels = gs_labels, .label_count = 1, .outputs = gs_outputs, .output_count = 2 },
    };
    static const char *const filenames[] = { "shader.vsh", "shader.gsh" };
    const struct shbin_writer_program prog = {
        .layout = SHBIN_WRITER_NINTENDO, .dvlp_version = 0x0102, .code = example_code,
        .code_word_count = 11, .descriptors = example_descriptors, .descriptor_count = 8,
        .filenames = filenames, .filename_count = 2, .unknown_words = { 0x11, 0x22, 0x33 },
        .dvles = dvles, .dvle_count = 2,
    };
    struct shbin_writer_file f;
    CHECK(shbin_writer_build(&prog, &f));
    struct sb_shbin *s = parse_built(&f, __LINE__);
    if (s) {
        const struct sb_shbin_program *p = &s->program;
        CHECK_EQ(s->layout, SB_SHBIN_LAYOUT_NINTENDO);
        CHECK_EQ(p->file_offset, 16);
        CHECK_EQ(p->version, 0x0102);
        CHECK_EQ(p->unknown_word_count, 3);
        CHECK_EQ(p->unknown_words[0], 0x11);
        CHECK_EQ(p->unknown_words[1], 0x22);
        CHECK_EQ(p->unknown_words[2], 0x33);
        CHECK_EQ(p->filename_table_offset, f.filenames - f.dvlp);
        CHECK_EQ(p->filename_count, 2);
        if (p->filename_count == 2) {
            CHECK_STR(p->filenames[0].text, "shader.vsh");
            CHECK_EQ(p->filenames[0].offset, 0);
            CHECK_STR(p->filenames[1].text, "shader.gsh");
            CHECK_EQ(p->filenames[1].offset, 11);
        }
        check_example_program(p);
        CHECK_EQ(s->dvle_count, 2);
        const struct sb_shbin_dvle *v = &s->dvles[0], *g = &s->dvles[1];
        CHECK_EQ(v->version, 0x0102);
        CHECK_EQ(v->label_count, 3);
        if (v->label_count == 3) {
            CHECK_EQ(v->labels[0].id, 1);
            CHECK_EQ(v->labels[0].address, 0);
            CHECK_STR(v->labels[0].name, "main");
            CHECK_EQ(v->labels[0].name_offset, 4); /* after "mvp\0" */
            CHECK_EQ(v->labels[1].id_word, 0xAB02);
            CHECK_EQ(v->labels[1].id, 2);
            CHECK_EQ(v->labels[1].address, 3);
            CHECK_EQ(v->labels[1].unknown, 0x77);
            CHECK_STR(v->labels[1].name, "helper");
            CHECK_EQ(v->labels[2].address, 6);
            CHECK_STR(v->labels[2].name, "end");
            CHECK_EQ(v->labels[2].file_offset, f.dvle[0].labels + 32);
        }
        CHECK_EQ(v->symbol_count, 4);
        if (v->symbol_count == 4)
            CHECK_STR(v->symbols[3].text, "end");
        CHECK_STR(v->uniforms[0].name, "mvp");
        CHECK_EQ(g->type, SB_SHBIN_SHADER_GEOMETRY);
        CHECK_EQ(g->flags, 1);
        CHECK_EQ(g->merge_outmaps, true);
        CHECK_EQ(g->main_address, 6);
        CHECK_EQ(g->end_address, 11);
        CHECK_EQ(g->gs_mode, SB_SHBIN_GS_MODE_FIXED);
        CHECK_EQ(g->gs_fixed_start_register, 0x20);
        CHECK_EQ(g->gs_fixed_vertex_count, 3);
        CHECK_EQ(g->label_count, 1);
        CHECK_STR(g->labels[0].name, "gmain");
        CHECK_EQ(g->outputs[0].type, SB_SHBIN_OUTPUT_DUMMY);
        CHECK_EQ(g->outputs[0].semantics[0], SB_SHBIN_SEMANTIC_UNUSED);
        CHECK_EQ(g->outputs[1].semantics[3], 0x03);
    }
    sb_shbin_destroy(s);
    shbin_writer_free(&f);
}

/* A vertex DVLE and geometry DVLEs in all three §9.2 modes, in one file. */
static void test_geometry_modes(void)
{
    static const struct shbin_writer_output vs_out[] = { { 0, 0, 0xF }, { 9, 7, 0x3 } };
    const struct shbin_writer_dvle dvles[4] = {
        { .version = 0x1002, .type = 0, .main_address = 0, .end_address = 5,
          .outputs = vs_out, .output_count = 2 },
        { .version = 0x1002, .type = 1, .main_address = 5, .end_address = 7, .gs_mode = 0 },
        { .version = 0x1002, .type = 1, .main_address = 7, .end_address = 9, .gs_mode = 1,
          .gs_variable_count = 4, .flags = 1 },
        { .version = 0x1002, .type = 1, .main_address = 9, .end_address = 11, .gs_mode = 2,
          .gs_fixed_start = 0x0C, .gs_fixed_count = 3 },
    };
    const struct shbin_writer_program prog = {
        .layout = SHBIN_WRITER_PICASSO, .code = example_code, .code_word_count = 11,
        .descriptors = example_descriptors, .descriptor_count = 8, .dvles = dvles,
        .dvle_count = 4,
    };
    struct shbin_writer_file f;
    CHECK(shbin_writer_build(&prog, &f));
    struct sb_shbin *s = parse_built(&f, __LINE__);
    if (s) {
        CHECK_EQ(s->dvle_count, 4);
        CHECK_EQ(s->program.file_offset, 8 + 16);
        for (unsigned i = 0; i < 4; i++) {
            CHECK_EQ(s->dvle_offsets[i], f.dvle[i].header);
            CHECK_EQ(s->dvles[i].main_address, dvles[i].main_address);
            CHECK_EQ(s->dvles[i].end_address, dvles[i].end_address);
        }
        CHECK_EQ(s->dvles[0].type, SB_SHBIN_SHADER_VERTEX);
        CHECK_EQ(s->dvles[0].outputs[1].type, SB_SHBIN_OUTPUT_DUMMY);
        CHECK_EQ(s->dvles[0].outputs[1].register_index, 7);
        CHECK_EQ(s->dvles[1].type, SB_SHBIN_SHADER_GEOMETRY);
        CHECK_EQ(s->dvles[1].gs_mode, SB_SHBIN_GS_MODE_POINT);
        CHECK_EQ(s->dvles[2].gs_mode, SB_SHBIN_GS_MODE_VARIABLE);
        CHECK_EQ(s->dvles[2].gs_variable_vertex_count, 4);
        CHECK_EQ(s->dvles[2].merge_outmaps, true);
        CHECK_EQ(s->dvles[3].gs_mode, SB_SHBIN_GS_MODE_FIXED);
        CHECK_EQ(s->dvles[3].gs_mode_value, 2);
        CHECK_EQ(s->dvles[3].gs_fixed_start_register, 0x0C);
        CHECK_EQ(s->dvles[3].gs_fixed_vertex_count, 3);
        CHECK_EQ(s->warning_count, 0);
    }
    sb_shbin_destroy(s);
    shbin_writer_free(&f);
}

/* nihstro writes a 0x1C-byte DVLP header; 3dbrew lists words up to 0x24. */
static void test_header_sizes(void)
{
    static const uint32_t sizes[] = { 0x1C, 0x20, 0x24, 0x28 };
    const struct shbin_writer_dvle dvle = { .version = 0x1002, .end_address = 11 };
    for (unsigned i = 0; i < 4; i++) {
        const struct shbin_writer_program prog = {
            .layout = SHBIN_WRITER_PICASSO, .code = example_code, .code_word_count = 11,
            .descriptors = example_descriptors, .descriptor_count = 8, .dvles = &dvle,
            .dvle_count = 1, .dvlp_header_size = sizes[i], .unknown_words = { 7, 8, 9 },
        };
        struct shbin_writer_file f;
        CHECK(shbin_writer_build(&prog, &f));
        struct sb_shbin *s = parse_built(&f, __LINE__);
        if (s) {
            CHECK_EQ(s->program.header_size, sizes[i]);
            CHECK_EQ(s->program.code_offset, sizes[i]);
            CHECK_EQ(s->program.unknown_word_count, i);
            for (unsigned k = 0; k < 3; k++)
                CHECK_EQ(s->program.unknown_words[k], k < i ? 7 + k : 0);
            check_example_program(&s->program);
        }
        sb_shbin_destroy(s);
        shbin_writer_free(&f);
    }
}

/* Harmless oddities are kept and reported, never fatal. */
static void test_warnings(void)
{
    static const struct shbin_writer_constant constants[] = {
        { 0, 1, { 0x3, 0, 0, 0 } },          /* bool with bit 1 set */
        { 2, 5, { 0x013F0000, 0, 0, 0 } },   /* float with an upper byte */
    };
    static const struct shbin_writer_output outputs[] = { { 0, 0, 0x1F } };
    const struct shbin_writer_dvle dvle = {
        .version = 0x1002, .flags = 0x81, .main_address = 4, .end_address = 4,
        .constants = constants, .constant_count = 2, .outputs = outputs, .output_count = 1,
    };
    const struct shbin_writer_program prog = {
        .layout = SHBIN_WRITER_PICASSO, .code = example_code, .code_word_count = 11,
        .descriptors = example_descriptors, .descriptor_extras = example_code,
        .descriptor_count = 8, .dvles = &dvle, .dvle_count = 1,
    };
    struct shbin_writer_file f;
    CHECK(shbin_writer_build(&prog, &f));
    struct sb_shbin *s = parse_built(&f, __LINE__);
    if (s) {
        const struct sb_shbin_dvle *v = &s->dvles[0];
        CHECK_EQ(s->warning_count, 5);
        if (s->warning_count == 5) {
            CHECK_EQ(s->warnings[0].offset, f.dvle[0].header + 0x0C); /* empty main */
            CHECK_EQ(s->warnings[1].offset, f.dvle[0].header + 0x07); /* flags */
            CHECK_EQ(s->warnings[2].offset, f.dvle[0].constants + 4);
            CHECK_EQ(s->warnings[3].offset, f.dvle[0].constants + 24);
            CHECK_EQ(s->warnings[4].offset, f.dvle[0].outputs + 4);
        }
        CHECK_EQ(v->flags, 0x81);
        CHECK_EQ(v->merge_outmaps, true);
        CHECK_EQ(v->constants[0].raw[0], 3);
        CHECK_EQ(v->constants[0].bool_value, true);
        CHECK_EQ(v->constants[1].raw[0], 0x013F0000);
        CHECK_EQ(v->constants[1].float24[0], 0x3F0000);
        CHECK(v->constants[1].float_value[0] == 1.0f);
        CHECK_EQ(v->outputs[0].mask_word, 0x1F);
        CHECK_EQ(v->outputs[0].mask, 0xF);
        /* Nonzero descriptor extra words are kept as found, without a warning. */
        CHECK_EQ(s->program.operand_descriptors[2].extra_word, example_code[2]);
    }
    sb_shbin_destroy(s);
    shbin_writer_free(&f);
}

/* A vertex DVLE reaching past the 512 words a vertex unit loads (§1) is only a warning. */
static void test_long_vertex_code(void)
{
    uint32_t *big = calloc(600, sizeof(*big));
    CHECK(big != NULL);
    if (!big)
        return;
    big[599] = 0x88000000; /* END */
    const struct shbin_writer_dvle dvles[2] = {
        { .version = 0x1002, .type = 0, .main_address = 0, .end_address = 600 },
        { .version = 0x1002, .type = 1, .main_address = 0, .end_address = 600 },
    };
    const struct shbin_writer_program prog = {
        .layout = SHBIN_WRITER_PICASSO, .code = big, .code_word_count = 600,
        .descriptors = example_descriptors, .descriptor_count = 8, .dvles = dvles,
        .dvle_count = 2,
    };
    struct shbin_writer_file f;
    CHECK(shbin_writer_build(&prog, &f));
    struct sb_shbin *s = parse_built(&f, __LINE__);
    if (s) {
        CHECK_EQ(s->program.code_word_count, 600);
        CHECK_EQ(s->program.code[599], 0x88000000);
        CHECK_EQ(s->warning_count, 1); /* the geometry DVLE may use all 4096 words */
        if (s->warning_count == 1)
            CHECK_EQ(s->warnings[0].offset, f.dvle[0].header + 0x0C);
    }
    sb_shbin_destroy(s);
    shbin_writer_free(&f);
    free(big);
}

static void test_no_dvle(void)
{
    const struct shbin_writer_program prog = {
        .layout = SHBIN_WRITER_PICASSO, .code = example_code, .code_word_count = 11,
        .descriptors = example_descriptors, .descriptor_count = 8,
    };
    struct shbin_writer_file f;
    CHECK(shbin_writer_build(&prog, &f));
    struct sb_shbin *s = parse_built(&f, __LINE__);
    if (s) {
        CHECK_EQ(s->dvle_count, 0);
        CHECK(s->dvles == NULL);
        CHECK_EQ(s->warning_count, 1);
        CHECK_EQ(s->warnings[0].offset, 4);
        check_example_program(&s->program);
    }
    sb_shbin_destroy(s);
    shbin_writer_free(&f);
}

static void test_arguments(void)
{
    struct sb_shbin *s = (struct sb_shbin *)&s;
    struct sb_error error = { 0 };
    CHECK_EQ(sb_shbin_parse(NULL, 4, &s, &error), SB_ERROR_INVALID_ARGUMENT);
    CHECK(s == NULL);
    CHECK_EQ(error.code, SB_ERROR_INVALID_ARGUMENT);
    CHECK_EQ(sb_shbin_parse("DVLB", 4, NULL, NULL), SB_ERROR_INVALID_ARGUMENT);
    sb_shbin_destroy(NULL);
}

int main(void)
{
    test_float24();
    test_tables();
    test_current_picasso();
    test_old_picasso();
    test_nintendo();
    test_geometry_modes();
    test_header_sizes();
    test_warnings();
    test_long_vertex_code();
    test_no_dvle();
    test_arguments();
    return check_result("test_shbin_unit");
}
