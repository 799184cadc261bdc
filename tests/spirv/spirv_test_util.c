/* SPDX-License-Identifier: MIT */
/*
 * Test helpers: hand-built IR programs from static pools (no frees needed in
 * a test), and queries over the SPIR-V words a translation produced.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "spirv_test_util.h"

int g_failures;

#define MAX_INST 4096
#define MAX_OPERANDS 16384
#define MAX_FUNCS 16

static struct sb_ir_instruction insts[MAX_INST];
static uint32_t inst_count;
static struct sb_ir_operand operands[MAX_OPERANDS];
static uint32_t operand_count;
static struct sb_ir_function funcs[MAX_FUNCS];
static uint32_t func_count;
static struct sb_ir_signature_element sig[64];
static uint32_t sig_count;
static struct sb_ir_resource res[64];
static uint32_t res_count;
static struct sb_ir_program program;

void ir_reset(void)
{
    inst_count = operand_count = func_count = sig_count = res_count = 0;
    memset(&program, 0, sizeof(program));
    memset(funcs, 0, sizeof(funcs));
}

static void parse_swizzle(const char *s, uint8_t *out)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < 4; i++) {
        char c = s[i < n ? i : n - 1];
        out[i] = c == 'x' ? 0 : c == 'y' ? 1 : c == 'z' ? 2 : 3;
    }
}

struct sb_ir_operand dst_reg(uint32_t file, uint32_t index, uint32_t mask)
{
    struct sb_ir_operand o;
    memset(&o, 0, sizeof(o));
    o.file = file;
    o.index_count = 1;
    o.index[0].offset = index;
    o.mask = (uint8_t)mask;
    parse_swizzle("xyzw", o.swizzle);
    return o;
}

struct sb_ir_operand src_reg(uint32_t file, uint32_t index, const char *swizzle)
{
    struct sb_ir_operand o = dst_reg(file, index, 0);
    parse_swizzle(swizzle, o.swizzle);
    return o;
}

struct sb_ir_operand reg2(uint32_t file, uint32_t i0, uint32_t i1, uint32_t mask, const char *swizzle)
{
    struct sb_ir_operand o = dst_reg(file, i0, mask);
    o.index_count = 2;
    o.index[1].offset = i1;
    parse_swizzle(swizzle, o.swizzle);
    return o;
}

struct sb_ir_operand imm(uint32_t x, uint32_t y, uint32_t z, uint32_t w)
{
    struct sb_ir_operand o;
    memset(&o, 0, sizeof(o));
    o.file = SB_IR_FILE_IMMEDIATE;
    o.imm[0] = x;
    o.imm[1] = y;
    o.imm[2] = z;
    o.imm[3] = w;
    parse_swizzle("xyzw", o.swizzle);
    return o;
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

struct sb_ir_operand immf(float x, float y, float z, float w)
{
    return imm(fbits(x), fbits(y), fbits(z), fbits(w));
}

struct sb_ir_operand special(uint32_t file, uint32_t mask, const char *swizzle)
{
    struct sb_ir_operand o = src_reg(file, 0, swizzle);
    o.index_count = 0;
    o.mask = (uint8_t)mask;
    return o;
}

void set_relative(struct sb_ir_operand *op, uint32_t slot, struct sb_ir_operand relative)
{
    operands[operand_count] = relative;
    op->index[slot].relative = &operands[operand_count++];
}

static void ensure_function(void)
{
    if (!func_count)
        begin_function(0xFFFFFFFFu);
}

void begin_function(uint32_t label)
{
    funcs[func_count].id = label;
    funcs[func_count].instructions = &insts[inst_count];
    funcs[func_count].instruction_count = 0;
    func_count++;
}

struct sb_ir_instruction *emit(uint32_t op, uint32_t flags, uint32_t dst_count,
                               const struct sb_ir_operand *dst, uint32_t src_count,
                               const struct sb_ir_operand *src)
{
    ensure_function();
    struct sb_ir_instruction *i = &insts[inst_count++];
    memset(i, 0, sizeof(*i));
    i->op = op;
    i->flags = flags;
    i->offset = 0x100 + 4u * (inst_count - 1);
    i->dst_count = dst_count;
    i->src_count = src_count;
    struct sb_ir_operand *d = &operands[operand_count];
    if (dst_count)
        memcpy(d, dst, dst_count * sizeof(*d));
    operand_count += dst_count;
    struct sb_ir_operand *s = &operands[operand_count];
    if (src_count)
        memcpy(s, src, src_count * sizeof(*s));
    operand_count += src_count;
    i->dst = d;
    i->src = s;
    funcs[func_count - 1].instruction_count++;
    return i;
}

struct sb_ir_instruction *emit0(uint32_t op)
{
    return emit(op, 0, 0, NULL, 0, NULL);
}

struct sb_ir_instruction *emit1(uint32_t op, struct sb_ir_operand d, struct sb_ir_operand a)
{
    return emit(op, 0, 1, &d, 1, &a);
}

struct sb_ir_instruction *emit2(uint32_t op, struct sb_ir_operand d, struct sb_ir_operand a,
                                struct sb_ir_operand b)
{
    struct sb_ir_operand s[2] = { a, b };
    return emit(op, 0, 1, &d, 2, s);
}

struct sb_ir_instruction *emit3(uint32_t op, struct sb_ir_operand d, struct sb_ir_operand a,
                                struct sb_ir_operand b, struct sb_ir_operand c)
{
    struct sb_ir_operand s[3] = { a, b, c };
    return emit(op, 0, 1, &d, 3, s);
}

struct sb_ir_instruction *emit_cond(uint32_t op, bool nz, struct sb_ir_operand c)
{
    return emit(op, nz ? SB_IR_FLAG_TEST_NZ : 0, 0, NULL, 1, &c);
}

void add_signature(uint32_t kind, uint32_t file, uint32_t reg, uint32_t mask, const char *semantic,
                   uint32_t semantic_index, uint32_t system_value, uint32_t component_type,
                   uint32_t interpolation)
{
    struct sb_ir_signature_element *e = &sig[sig_count++];
    memset(e, 0, sizeof(*e));
    e->kind = kind;
    e->file = file;
    e->register_index = reg;
    e->mask = (uint8_t)mask;
    e->used_mask = (uint8_t)mask;
    e->semantic = semantic;
    e->semantic_index = semantic_index;
    e->system_value = system_value;
    e->component_type = component_type;
    e->interpolation = interpolation;
}

struct sb_ir_resource *add_resource(uint32_t resource_class, uint32_t id)
{
    struct sb_ir_resource *r = &res[res_count++];
    memset(r, 0, sizeof(*r));
    r->resource_class = resource_class;
    r->id = id;
    r->lower_bound = id;
    r->count = 1;
    return r;
}

struct sb_ir_program *ir_program(uint32_t stage, uint32_t temps)
{
    ensure_function();
    program.source = SB_IR_SOURCE_SM4;
    program.stage = stage;
    program.major = 5;
    program.temp_count = temps;
    program.signature_count = sig_count;
    program.signature = sig;
    program.resource_count = res_count;
    program.resources = res;
    program.function_count = func_count;
    program.functions = funcs;
    funcs[0].temp_count = temps;
    return &program;
}

/* ---- inspection ---- */

/* Instructions after the 5-word header: `at` is the word index, op/len decoded. */
#define FOR_EACH_INST(t, at, op, len)                                                            \
    for (size_t at = 5, op = 0, len = 0;                                                         \
         at < (t)->word_count && ((len = (t)->words[at] >> 16) != 0) &&                          \
         ((op = (t)->words[at] & 0xFFFFu), 1);                                                   \
         at += len)

uint32_t count_op(const struct sb_translation *t, uint32_t opcode, const uint32_t *ops, uint32_t count)
{
    uint32_t n = 0;
    FOR_EACH_INST(t, at, op, len) {
        if (op != opcode || len < count + 1)
            continue;
        if (!count || !memcmp(&t->words[at + 1], ops, count * 4))
            n++;
    }
    return n;
}

bool id_has_decoration(const struct sb_translation *t, uint32_t id, uint32_t decoration,
                       const uint32_t *literal)
{
    FOR_EACH_INST(t, at, op, len) {
        if (op == SpvOpDecorate && t->words[at + 1] == id && t->words[at + 2] == decoration &&
            (!literal || (len > 3 && t->words[at + 3] == *literal)))
            return true;
    }
    return false;
}

bool has_decoration(const struct sb_translation *t, uint32_t decoration, const uint32_t *literal)
{
    FOR_EACH_INST(t, at, op, len) {
        if (op == SpvOpDecorate && t->words[at + 2] == decoration &&
            (!literal || (len > 3 && t->words[at + 3] == *literal)))
            return true;
    }
    return false;
}

uint32_t builtin_var(const struct sb_translation *t, uint32_t builtin)
{
    FOR_EACH_INST(t, at, op, len) {
        if (op == SpvOpDecorate && len == 4 && t->words[at + 2] == SpvDecorationBuiltIn &&
            t->words[at + 3] == builtin)
            return t->words[at + 1];
    }
    return 0;
}

uint32_t count_variables(const struct sb_translation *t, uint32_t storage_class)
{
    uint32_t n = 0;
    FOR_EACH_INST(t, at, op, len) {
        if (op == SpvOpVariable && len >= 4 && t->words[at + 3] == storage_class)
            n++;
    }
    return n;
}

uint32_t location_var(const struct sb_translation *t, uint32_t storage_class, uint32_t location)
{
    FOR_EACH_INST(t, at, op, len) {
        if (op == SpvOpVariable && len >= 4 && t->words[at + 3] == storage_class &&
            id_has_decoration(t, t->words[at + 2], SpvDecorationLocation, &location))
            return t->words[at + 2];
    }
    return 0;
}

uint32_t count_stores(const struct sb_translation *t, uint32_t pointer, bool null_value)
{
    uint32_t n = 0;
    FOR_EACH_INST(t, at, op, len) {
        if (op != SpvOpStore || len < 3 || t->words[at + 1] != pointer)
            continue;
        bool is_null = false;
        FOR_EACH_INST(t, at2, op2, len2) {
            if (op2 == SpvOpConstantNull && len2 == 3 && t->words[at2 + 2] == t->words[at + 2])
                is_null = true;
        }
        n += is_null == null_value;
    }
    return n;
}

uint32_t entry_model(const struct sb_translation *t)
{
    FOR_EACH_INST(t, at, op, len) {
        if (op == SpvOpEntryPoint)
            return t->words[at + 1];
    }
    return 0xFFFFFFFFu;
}

uint32_t entry_interface_count(const struct sb_translation *t)
{
    FOR_EACH_INST(t, at, op, len) {
        if (op != SpvOpEntryPoint)
            continue;
        /* model, function, name (NUL-terminated, padded), then ids */
        const char *name = (const char *)&t->words[at + 3];
        uint32_t name_words = (uint32_t)(strlen(name) / 4 + 1);
        return len - 3 - name_words;
    }
    return 0;
}

struct sb_translation *translate_checked(const struct sb_ir_program *p, enum sb_target_env env,
                                         uint32_t flags, const char *what)
{
    struct sb_translate_options options = { .target_env = env, .flags = flags };
    struct sb_translation *t = NULL;
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    enum sb_result r = sb_translate_ir(p, &options, &t, &error);
    if (r != SB_SUCCESS) {
        fprintf(stderr, "%s (%s): translation failed: %s at 0x%llx: %s\n", what, sb_target_env_name(env),
                sb_result_name(r), (unsigned long long)error.offset, error.message);
        g_failures++;
        return NULL;
    }
    r = sb_spirv_validate(t->words, t->word_count, env, &error);
    if (r != SB_SUCCESS) {
        char *text = sb_spirv_disassemble(t->words, t->word_count, env);
        fprintf(stderr, "%s (%s): spirv-val: %s\n%s\n", what, sb_target_env_name(env), error.message,
                text ? text : "");
        free(text);
        g_failures++;
        sb_translation_destroy(t);
        return NULL;
    }
    return t;
}

int run_test_cases(int argc, char **argv, const struct test_case *cases, size_t count)
{
    int ran = 0;
    for (size_t i = 0; i < count; i++)
        if (argc < 2 || !strcmp(argv[1], cases[i].name)) {
            cases[i].run();
            ran++;
        }
    if (!ran) {
        fprintf(stderr, "unknown case %s\n", argc >= 2 ? argv[1] : "");
        return 2;
    }
    if (g_failures)
        fprintf(stderr, "%d check(s) failed\n", g_failures);
    return g_failures ? 1 : 0;
}
