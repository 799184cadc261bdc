/* SPDX-License-Identifier: MIT */
/*
 * SM5.0 class linkage in the SPIR-V back end (translator/src/spirv/spirv_linkage.c):
 * every interface slot becomes five specialisation constants (SpecId 4096 +
 * 5 * slot + field), fcall an OpSwitch over the slot's table selector,
 * this[] the slot's this-data constants, cb[r][v] / t[r] / s[r] a choice
 * among the declared registers. Checked on a hand-built IR program (exact
 * counts of the constructs), on malformed linkage tables (structured
 * errors with the instruction's offset), and on the corpus shaders that use
 * interfaces (translate + validate for vulkan1.0/1.1/1.3, -g and -O); for a text
 * target, the relatively indexed arrays built in the function instead.
 * One ctest per case (argv[1]).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "../spirv/spirv_test_util.h"

static const enum sb_target_env envs[3] = { SB_TARGET_VULKAN_1_0, SB_TARGET_VULKAN_1_1,
                                            SB_TARGET_VULKAN_1_3 };

#define R(i, m) dst_reg(SB_IR_FILE_TEMP, i, m)
#define S(i, sw) src_reg(SB_IR_FILE_TEMP, i, sw)
#define OPS(...) ((const struct sb_ir_operand[]){ __VA_ARGS__ })
#define NOPS(...) ((uint32_t)(sizeof(OPS(__VA_ARGS__)) / sizeof(struct sb_ir_operand)))
#define INST(op, D, S_) emit(op, 0, NOPS D, OPS D, NOPS S_, OPS S_)

/* Linkage tables of the hand-built programs: ft0 = {fb0}, ft1 = {fb1}. */
static const uint32_t ft0_bodies[] = { 0 }, ft1_bodies[] = { 1 };
static const struct sb_ir_function_table tables[] = {
    { 0, 1, ft0_bodies },
    { 1, 1, ft1_bodies },
};
static const uint32_t both_tables[] = { 0, 1 };
static const uint32_t body_labels[] = { 1, 2 };

/* fcall fp`id`[element][site] (element relative to r0.x when `relative`). */
static struct sb_ir_instruction *fcall(uint32_t id, uint32_t element, bool relative, uint32_t site)
{
    struct sb_ir_operand fp = src_reg(SB_IR_FILE_INTERFACE, id, "xyzw");
    fp.index_count = 2;
    fp.index[1].offset = element;
    if (relative)
        set_relative(&fp, 1, S(0, "x"));
    struct sb_ir_instruction *i = emit(SB_IR_OP_INTERFACE_CALL, 0, 0, NULL, 1, &fp);
    i->target = site;
    return i;
}

/* Two label bodies fb0, fb1 after the entry; sets the linkage tables on `p`. */
static void add_bodies(void)
{
    begin_function(0x80000000u);
    INST(SB_IR_OP_MOV, (R(0, 0xF)), (immf(1, 2, 3, 4)));
    emit0(SB_IR_OP_RET);
    begin_function(0x80000001u);
    INST(SB_IR_OP_MOV, (R(0, 0xF)), (immf(5, 6, 7, 8)));
    emit0(SB_IR_OP_RET);
}

static struct sb_ir_program *finish(const struct sb_ir_interface *fps, uint32_t fp_count)
{
    struct sb_ir_program *p = ir_program(SB_IR_STAGE_PIXEL, 2);
    for (uint32_t i = 0; i < p->function_count; i++)
        ((struct sb_ir_function *)&p->functions[i])->temp_count = 2;
    p->interface_count = fp_count;
    p->interfaces = fps;
    p->function_table_count = 2;
    p->function_tables = tables;
    p->function_body_count = 2;
    p->function_body_label = body_labels;
    return p;
}

static uint32_t ops_of(const struct sb_translation *t, uint32_t op)
{
    return count_op(t, op, NULL, 0);
}

/* SpecIds first .. first + count - 1 are decorated, first + count is not. */
static bool spec_ids(const struct sb_translation *t, uint32_t count)
{
    for (uint32_t k = 0; k < count; k++) {
        const uint32_t id = SB_SPEC_ID_CLASS_LINKAGE + k;
        if (!has_decoration(t, SpvDecorationSpecId, &id))
            return false;
    }
    const uint32_t beyond = SB_SPEC_ID_CLASS_LINKAGE + count;
    return !has_decoration(t, SpvDecorationSpecId, &beyond);
}

/*
 * fp0[1] and fp1[2] (slots 0, 1-2), both with tables {ft0, ft1}; a static and
 * a relative fcall, this[1] and this[r0.y], cb[r0.z][r0.w] over cb0/cb1, a
 * sample through t[r0.x]/s[r0.y] (one fitting 2D texture, one sampler) and a
 * ld through t[r0.x] (the 2D texture and a buffer fit).
 */
static void case_handbuilt(void)
{
    static const struct sb_ir_interface fps[] = {
        { 0, 1, 2, both_tables, 1 },
        { 1, 2, 2, both_tables, 1 },
    };
    ir_reset();
    add_resource(SB_IR_RESOURCE_CBV, 0)->cb_size = 4;
    add_resource(SB_IR_RESOURCE_CBV, 1)->cb_size = 2;
    struct sb_ir_resource *t0 = add_resource(SB_IR_RESOURCE_SRV, 0);
    t0->dimension = 3;
    struct sb_ir_resource *t1 = add_resource(SB_IR_RESOURCE_SRV, 1);
    t1->dimension = 1;
    for (int i = 0; i < 4; i++)
        t0->return_type[i] = t1->return_type[i] = 5; /* float */
    add_resource(SB_IR_RESOURCE_SAMPLER, 0);

    fcall(0, 0, false, 0)->offset = 0x100;
    fcall(1, 0, true, 0);
    INST(SB_IR_OP_MOV, (R(1, 0xF)), (src_reg(SB_IR_FILE_THIS_POINTER, 1, "xyzw")));
    struct sb_ir_operand th = src_reg(SB_IR_FILE_THIS_POINTER, 0, "zzzz");
    set_relative(&th, 0, S(0, "y"));
    INST(SB_IR_OP_MOV, (R(1, 0x1)), (th));
    struct sb_ir_operand cb = reg2(SB_IR_FILE_CONSTANT_BUFFER, 0, 0, 0, "xyzw");
    set_relative(&cb, 0, S(0, "z"));
    set_relative(&cb, 1, S(0, "w"));
    INST(SB_IR_OP_ADD, (R(1, 0xF)), (cb, S(1, "xyzw")));
    struct sb_ir_operand tex = src_reg(SB_IR_FILE_RESOURCE, 0, "xyzw");
    set_relative(&tex, 0, S(0, "x"));
    struct sb_ir_operand smp = src_reg(SB_IR_FILE_SAMPLER, 0, "x");
    set_relative(&smp, 0, S(0, "y"));
    INST(SB_IR_OP_SAMPLE, (R(1, 0xF)), (immf(0.5f, 0.5f, 0, 0), tex, smp))->resource_dimension = 3;
    INST(SB_IR_OP_LD, (R(1, 0x3)), (imm(0, 0, 0, 0), tex));
    emit0(SB_IR_OP_RET);
    add_bodies();
    struct sb_ir_program *p = finish(fps, 2);
    for (int e = 0; e < 3; e++) {
        struct sb_translation *t = translate_checked(p, envs[e], 0, "handbuilt");
        if (!t)
            continue;
        CHECK(t->interface_slot_count == 3);
        CHECK(spec_ids(t, 15));
        CHECK(ops_of(t, SpvOpSpecConstant) == 15);
        /* fp1's selector array, this[]'s three uvec4 and their array. */
        CHECK(ops_of(t, SpvOpSpecConstantComposite) == 5);
        /* 2 fcalls; sample: t (one candidate) with s nested; ld: t (two candidates). */
        CHECK(ops_of(t, SpvOpSwitch) == 5);
        /* Two tables per fcall, plus main calling the entry body. */
        CHECK(ops_of(t, SpvOpFunctionCall) == 5);
        CHECK(ops_of(t, SpvOpSelect) == 2); /* cb[r]: one per declared cb# */
        CHECK(ops_of(t, SpvOpImageSampleImplicitLod) == 1);
        CHECK(ops_of(t, SpvOpImageFetch) == 2);
        sb_translation_destroy(t);
    }
    /* GLSL: glslang refuses the spec-constant array initialisers SPIRV-Cross writes for
     * the selector and this[] arrays, so a text target builds both arrays in the function
     * from the same 15 constants (uint[](...), uvec4[](...)) and reads them there. */
    struct sb_translate_options glsl = { .target_env = SB_TARGET_VULKAN_1_1, .target = SB_TRANSLATE_TARGET_GLSL };
    struct sb_translation *g = NULL;
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    CHECK(sb_translate_ir(p, &glsl, &g, &error) == SB_SUCCESS);
    if (g) {
        CHECK(ops_of(g, SpvOpSpecConstant) == 15 && ops_of(g, SpvOpSpecConstantComposite) == 0);
        CHECK(g->text && strstr(g->text, "uint[](") && strstr(g->text, "uvec4[]("));
        CHECK(sb_spirv_validate(g->words, g->word_count, SB_TARGET_VULKAN_1_1, &error) == SB_SUCCESS);
    }
    sb_translation_destroy(g);

    /* The default instance: with -O the module still validates. */
    struct sb_translation *t = translate_checked(p, SB_TARGET_VULKAN_1_1,
                                                 SB_TRANSLATE_OPTIMIZE | SB_TRANSLATE_DEBUG_INFO,
                                                 "handbuilt -O -g");
    CHECK(t && t->interface_slot_count == 3);
    sb_translation_destroy(t);

    /* No interfaces: nothing reported, no spec constants. */
    ir_reset();
    INST(SB_IR_OP_MOV, (R(0, 0xF)), (immf(1, 1, 1, 1)));
    emit0(SB_IR_OP_RET);
    t = translate_checked(ir_program(SB_IR_STAGE_PIXEL, 1), SB_TARGET_VULKAN_1_1, 0, "plain");
    CHECK(t && t->interface_slot_count == 0 && ops_of(t, SpvOpSpecConstant) == 0);
    sb_translation_destroy(t);
}

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
    static const struct sb_ir_interface one[] = { { 0, 1, 2, both_tables, 1 } };
    static const struct sb_ir_interface far[] = { { 250, 8, 2, both_tables, 1 } };
    static const uint32_t missing_table[] = { 0, 7 };
    static const struct sb_ir_interface bad_table[] = { { 0, 1, 2, missing_table, 1 } };

    /* fcall through an interface that is not declared. */
    ir_reset();
    fcall(3, 0, false, 0)->offset = 0x40;
    emit0(SB_IR_OP_RET);
    add_bodies();
    expect_error(finish(one, 1), SB_ERROR_TRANSLATE_INVALID, 0x40, "undeclared fp");

    /* Call site beyond the tables' bodies. */
    ir_reset();
    fcall(0, 0, false, 1)->offset = 0x44;
    emit0(SB_IR_OP_RET);
    add_bodies();
    expect_error(finish(one, 1), SB_ERROR_TRANSLATE_INVALID, 0x44, "call site");

    /* Element beyond the interface array. */
    ir_reset();
    fcall(0, 1, false, 0)->offset = 0x48;
    emit0(SB_IR_OP_RET);
    add_bodies();
    expect_error(finish(one, 1), SB_ERROR_TRANSLATE_INVALID, 0x48, "element");

    /* An interface naming an undeclared table. */
    ir_reset();
    fcall(0, 0, false, 0)->offset = 0x4C;
    emit0(SB_IR_OP_RET);
    add_bodies();
    expect_error(finish(bad_table, 1), SB_ERROR_TRANSLATE_INVALID, 0x4C, "table");

    /* Slots beyond D3D11's 253. */
    ir_reset();
    emit0(SB_IR_OP_RET);
    add_bodies();
    expect_error(finish(far, 1), SB_ERROR_TRANSLATE_INVALID, UINT64_MAX, "253 slots");

    /* A this[] index beyond them. */
    ir_reset();
    INST(SB_IR_OP_MOV, (R(1, 0xF)), (src_reg(SB_IR_FILE_THIS_POINTER, 300, "xyzw")))->offset = 0x50;
    emit0(SB_IR_OP_RET);
    add_bodies();
    expect_error(finish(one, 1), SB_ERROR_TRANSLATE_INVALID, 0x50, "this[300]");
}

/* ---- corpus ---- */

struct corpus_case {
    const char *path;
    uint32_t slots;          /* expected interface_slot_count */
    bool has_switch;         /* an fcall with several tables */
};

static const struct corpus_case corpus_cases[] = {
    { "dxbc/hlslcc/apps_shaders_SubroutinesPS.dxbc", 1, true },
    { "dxbc/hlslcc/ps5_interface_arrays.dxbc", 6, true },
    { "dxbc/hlslcc/ps5_interfaces.dxbc", 3, true },
    { "dxbc/hlslcc/ps5_interfaces_multifunc.dxbc", 1, true },
    { "dxbc/hlslcc/ps5_retc.dxbc", 2, true },
    { "dxbc/hlslcc/quarantined_ps5_this.dxbc", 2, true },
    { "dxbc/slimshader/HlslCrossCompiler_ps5_interfaces.dxbc", 3, true },
    { "dxbc/slimshader/Sdk_Direct3D11_DynamicShaderLinkage11_DynamicShaderLinkage11_PS.dxbc", 4, true },
    { "dxbc/wine/reflection__test_reflection_constant_buffer_blob.dxbc", 1, false },
    { "dxcontainer/real/dxc_dxbc2dxil/interface1.dxbc", 253, true },
};

static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *data = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0)
        data = malloc(n ? (size_t)n : 1);
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return data;
}

static void corpus_one(const struct corpus_case *c, const unsigned char *data, size_t size,
                       enum sb_target_env env, uint32_t flags)
{
    struct sb_translate_options options = { .target_env = env,
                                            .flags = flags | SB_TRANSLATE_VALIDATE };
    struct sb_translation *t = NULL;
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    enum sb_result r = sb_translate(data, size, &options, &t, &error);
    if (r != SB_SUCCESS) {
        fprintf(stderr, "%s (%s, flags %u): %s @0x%llx: %s\n", c->path, sb_target_env_name(env),
                flags, sb_result_name(r), (unsigned long long)error.offset, error.message);
        g_failures++;
        return;
    }
    CHECK(t->interface_slot_count == c->slots);
    if (!(flags & SB_TRANSLATE_OPTIMIZE)) {
        CHECK(spec_ids(t, SB_CLASS_LINKAGE_FIELDS * c->slots));
        CHECK(ops_of(t, SpvOpSpecConstant) == SB_CLASS_LINKAGE_FIELDS * c->slots);
        CHECK((ops_of(t, SpvOpSwitch) > 0) == c->has_switch);
    }
    if (g_failures)
        fprintf(stderr, "  in %s (%s, flags %u)\n", c->path, sb_target_env_name(env), flags);
    sb_translation_destroy(t);
}

static int case_corpus(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir ? dir : "", corpus_cases[0].path);
    FILE *probe = dir ? fopen(path, "rb") : NULL;
    if (!probe) {
        printf("SKIPPED: corpus not found at %s\n", dir ? dir : "(none)");
        return 77;
    }
    fclose(probe);
    for (size_t i = 0; i < sizeof(corpus_cases) / sizeof(corpus_cases[0]); i++) {
        const struct corpus_case *c = &corpus_cases[i];
        size_t size = 0;
        snprintf(path, sizeof(path), "%s/%s", dir, c->path);
        unsigned char *data = read_file(path, &size);
        if (!data) {
            fprintf(stderr, "%s: cannot read\n", path);
            g_failures++;
            continue;
        }
        for (int e = 0; e < 3; e++)
            corpus_one(c, data, size, envs[e], 0);
        corpus_one(c, data, size, SB_TARGET_VULKAN_1_1, SB_TRANSLATE_DEBUG_INFO);
        corpus_one(c, data, size, SB_TARGET_VULKAN_1_1, SB_TRANSLATE_OPTIMIZE);
        free(data);
    }
    return g_failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    static const struct { const char *name; void (*run)(void); } cases[] = {
        { "handbuilt", case_handbuilt },
        { "errors", case_errors },
    };
    if (argc < 2) {
        fprintf(stderr, "usage: %s CASE [CORPUS_DIR]\n", argv[0]);
        return 2;
    }
    if (!strcmp(argv[1], "corpus"))
        return case_corpus(argc > 2 ? argv[2] : NULL);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        if (!strcmp(argv[1], cases[i].name)) {
            cases[i].run();
            if (g_failures)
                fprintf(stderr, "%s: %d check(s) failed\n", argv[1], g_failures);
            return g_failures ? 1 : 0;
        }
    fprintf(stderr, "unknown case %s\n", argv[1]);
    return 2;
}
