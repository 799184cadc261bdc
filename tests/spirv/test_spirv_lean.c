/* SPDX-License-Identifier: MIT */
/*
 * What the SPIR-V back end leaves out of a module: types no instruction uses (the
 * common types are declared on first use, translator/src/spirv/spirv_context.c), on a
 * hand-built program and on every corpus shader; r# stores nothing can read, before the
 * return of a program's only function (translator/src/spirv/spirv_flow.c), while a
 * subroutine's stores stay; a DXIL program's one-lane r#: three lanes, and often the
 * variable. One ctest per case:
 *   test_spirv_lean <case> [corpus dir]
 * Exit 0 pass, 1 failure, 77 corpus absent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "corpus_list.h"
#include "spirv_test_util.h"

#define F SB_IR_TYPE_FLOAT
#define R(i, m) dst_reg(SB_IR_FILE_TEMP, i, m)
#define RS(i, s) src_reg(SB_IR_FILE_TEMP, i, s)
#define V(s) src_reg(SB_IR_FILE_INPUT, 0, s)
#define O dst_reg(SB_IR_FILE_OUTPUT, 0, 0xF)
#define SIG_IN SB_IR_SIGNATURE_INPUT
#define SIG_OUT SB_IR_SIGNATURE_OUTPUT

/* ---- module inspection --------------------------------------------------------------- */

/* OpTypeVoid .. OpTypePipe: the type declarations whose first operand is their id. */
static bool is_type_op(uint32_t op)
{
    return op >= SpvOpTypeVoid && op <= SpvOpTypePipe;
}

/* Names, decorations and debug lines do not make a type used. */
static bool is_annotation(uint32_t op)
{
    return op == SpvOpName || op == SpvOpMemberName || op == SpvOpString || op == SpvOpSource ||
           op == SpvOpLine || op == SpvOpDecorate || op == SpvOpMemberDecorate;
}

/* The largest id bound this test reads (the header's bound is checked against it). */
#define MAX_BOUND 65536u

/**
 * Types declared in `words` that no other instruction names: every word after the
 * opcode of every instruction but annotations counts as a use of the id it equals
 * (a literal that happens to equal a type id hides that type: the count can only be
 * too low, never name a used type). The first unused type's id goes to *first.
 */
static uint32_t unused_types(const uint32_t *words, size_t count, uint32_t *first)
{
    *first = 0;
    if (count < 5 || words[3] > MAX_BOUND)
        return 0xFFFFFFFFu;
    static unsigned char declared[MAX_BOUND], used[MAX_BOUND];
    memset(declared, 0, sizeof(declared));
    memset(used, 0, sizeof(used));
    for (size_t at = 5; at < count;) {
        uint32_t n = words[at] >> 16, op = words[at] & 0xFFFFu;
        if (!n || at + n > count)
            return 0xFFFFFFFFu;
        size_t from = 1;
        if (is_type_op(op) && n > 1 && words[at + 1] < MAX_BOUND) {
            declared[words[at + 1]] = 1;
            from = 2; /* its own id is no use */
        }
        if (!is_annotation(op))
            for (size_t k = from; k < n; k++)
                if (words[at + k] < MAX_BOUND)
                    used[words[at + k]] = 1;
        at += n;
    }
    uint32_t unused = 0;
    for (uint32_t id = 1; id < words[3]; id++)
        if (declared[id] && !used[id]) {
            if (!unused)
                *first = id;
            unused++;
        }
    return unused;
}

/* Instructions `op` in the module; with `literal` set, only those whose word 2 equals it. */
static uint32_t count_ops(const struct sb_translation *t, uint32_t op, int64_t word2)
{
    uint32_t n = 0;
    for (size_t at = 5; at < t->word_count && (t->words[at] >> 16); at += t->words[at] >> 16)
        if ((t->words[at] & 0xFFFFu) == op && (word2 < 0 || t->words[at + 2] == (uint32_t)word2))
            n++;
    return n;
}

/* The id OpName calls `name` (the module was translated with debug info), or 0. */
static uint32_t named(const struct sb_translation *t, const char *name)
{
    for (size_t at = 5; at < t->word_count && (t->words[at] >> 16); at += t->words[at] >> 16)
        if ((t->words[at] & 0xFFFFu) == SpvOpName && (t->words[at] >> 16) > 2 &&
            !strcmp((const char *)&t->words[at + 2], name))
            return t->words[at + 1];
    return 0;
}

/* OpStore instructions whose pointer is `pointer`. */
static uint32_t stores_to(const struct sb_translation *t, uint32_t pointer)
{
    uint32_t n = 0;
    for (size_t at = 5; at < t->word_count && (t->words[at] >> 16); at += t->words[at] >> 16)
        n += (t->words[at] & 0xFFFFu) == SpvOpStore && t->words[at + 1] == pointer;
    return n;
}

/* ---- cases ------------------------------------------------------------------------------ */

/*
 * A vertex shader that copies its position: float data only, so no bool, no signed
 * int (direct I/O: no register array to index, so no uint either) and one vector type
 * (vec4) may be in the module. Before the common types were
 * lazy every module carried 2- and 3-lane vectors of each kind, bool and int among them.
 */
static void case_types_small(void)
{
    ir_reset();
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 0, 0xF, "POSITION", 0, 0, F, 0);
    add_signature(SIG_OUT, SB_IR_FILE_OUTPUT, 0, 0xF, "SV_Position", 0, 1, F, 0);
    emit1(SB_IR_OP_MOV, dst_reg(SB_IR_FILE_OUTPUT, 0, 0xF), src_reg(SB_IR_FILE_INPUT, 0, "xyzw"));
    emit0(SB_IR_OP_RET);
    struct sb_translation *t = translate_checked(ir_program(SB_IR_STAGE_VERTEX, 0), SB_TARGET_VULKAN_1_1, 0,
                                                 "types_small");
    if (!t)
        return;
    uint32_t first = 0;
    CHECK(unused_types(t->words, t->word_count, &first) == 0);
    CHECK(count_ops(t, SpvOpTypeBool, -1) == 0);
    CHECK(count_ops(t, SpvOpTypeInt, -1) == 0);      /* direct I/O: no array, no index */
    CHECK(count_ops(t, SpvOpTypeVector, -1) == 1);   /* vec4 */
    CHECK(count_ops(t, SpvOpTypeFloat, -1) == 1);
    CHECK(count_ops(t, SpvOpTypeFunction, -1) == 1); /* void(void) */
    sb_translation_destroy(t);
}

/* The OpStores to r0 of the program built so far (a vertex shader with one temp). */
static uint32_t r0_stores(const char *what)
{
    struct sb_translation *t = translate_checked(ir_program(SB_IR_STAGE_VERTEX, 1), SB_TARGET_VULKAN_1_1,
                                                 SB_TRANSLATE_DEBUG_INFO, what);
    if (!t)
        return 0xFFFFFFFFu;
    uint32_t r0 = named(t, "r0");
    CHECK(r0 != 0);
    uint32_t n = stores_to(t, r0);
    sb_translation_destroy(t);
    return n;
}

static void signature(void)
{
    add_signature(SIG_IN, SB_IR_FILE_INPUT, 0, 0xF, "A", 0, 0, F, 0);
    add_signature(SIG_OUT, SB_IR_FILE_OUTPUT, 0, 0xF, "SV_Position", 0, 1, F, 0);
}

/*
 * r# writes of the last ALU run are stored before the next non-ALU instruction; when
 * that is the `ret` of a program's only function, nothing can read them (main reads o#)
 * and no store is written. A `ret` inside an if drops only its own block's writes: the
 * write before the if still reaches the code after it. Stores written earlier in the
 * return's block are taken back unless r# memory was loaded after them (`abort` stores
 * the deferred writes and forgets the values kept for the block, so a later read loads).
 * A subroutine's writes before its `ret` are what its caller reads: they stay.
 */
static void case_dead_stores(void)
{
    ir_reset();
    signature();
    emit2(SB_IR_OP_ADD, R(0, 0xF), V("xyzw"), V("wzyx"));
    emit2(SB_IR_OP_MUL, O, RS(0, "xyzw"), RS(0, "yxwz"));
    emit0(SB_IR_OP_RET);
    CHECK(r0_stores("dead_stores straight") == 0); /* main: 1 */

    ir_reset();
    signature();
    emit1(SB_IR_OP_MOV, R(0, 0xF), V("xyzw"));
    emit_cond(SB_IR_OP_IF, true, V("x"));
    emit2(SB_IR_OP_ADD, R(0, 0xF), RS(0, "xyzw"), RS(0, "wzyx"));
    emit0(SB_IR_OP_RET);
    emit0(SB_IR_OP_ENDIF);
    emit2(SB_IR_OP_MUL, O, RS(0, "xyzw"), RS(0, "yxwz"));
    emit0(SB_IR_OP_RET);
    CHECK(r0_stores("dead_stores nested ret") == 1); /* the mov's; main: 2 */

    ir_reset();
    signature();
    emit2(SB_IR_OP_ADD, R(0, 0xF), V("xyzw"), V("wzyx"));
    emit0(SB_IR_OP_ABORT);
    emit1(SB_IR_OP_MOV, O, V("xyzw"));
    emit0(SB_IR_OP_RET);
    CHECK(r0_stores("dead_stores taken back") == 0); /* main: 1 */

    ir_reset();
    signature();
    emit2(SB_IR_OP_ADD, R(0, 0xF), V("xyzw"), V("wzyx"));
    emit0(SB_IR_OP_ABORT);
    emit2(SB_IR_OP_MUL, O, RS(0, "xyzw"), RS(0, "yxwz")); /* loads r0 */
    emit0(SB_IR_OP_RET);
    CHECK(r0_stores("dead_stores read") == 1);

    ir_reset();
    signature();
    emit0(SB_IR_OP_CALL)->target = 1;
    emit2(SB_IR_OP_MUL, O, RS(0, "xyzw"), RS(0, "yxwz"));
    emit0(SB_IR_OP_RET);
    begin_function(0);
    emit1(SB_IR_OP_MOV, R(0, 0xF), V("xyzw"));
    emit0(SB_IR_OP_RET);
    CHECK(r0_stores("dead_stores subroutine") == 1); /* the callee's mov */
}

/* The instruction `op` (0: any type declaration) whose result id (word `slot`) is `id`, or NULL. */
static const uint32_t *defining(const struct sb_translation *t, uint32_t op, uint32_t id, uint32_t slot)
{
    for (size_t at = 5; at < t->word_count && (t->words[at] >> 16); at += t->words[at] >> 16) {
        uint32_t this_op = t->words[at] & 0xFFFFu;
        if ((op ? this_op == op : is_type_op(this_op)) && (t->words[at] >> 16) > slot && t->words[at + slot] == id)
            return &t->words[at];
    }
    return NULL;
}

/* What the Private variable `var` points to: its pointee's opcode (OpTypeFloat, OpTypeVector). */
static uint32_t pointee_op(const struct sb_translation *t, uint32_t var)
{
    const uint32_t *v = var ? defining(t, SpvOpVariable, var, 2) : NULL;
    const uint32_t *ptr = v ? defining(t, SpvOpTypePointer, v[1], 1) : NULL;
    const uint32_t *pointee = ptr ? defining(t, 0, ptr[3], 1) : NULL;
    return pointee ? pointee[0] & 0xFFFFu : 0;
}

/* The program built so far as the DXIL front end's (the only source whose r# the back end
 * shapes, translator/src/spirv/spirv_registers.c), translated with debug names. */
static struct sb_translation *translate_as_dxil(uint32_t temps, const char *what)
{
    struct sb_ir_program *p = ir_program(SB_IR_STAGE_VERTEX, temps);
    p->source = SB_IR_SOURCE_DXIL;
    return translate_checked(p, SB_TARGET_VULKAN_1_1, SB_TRANSLATE_DEBUG_INFO, what);
}

/* The program built so far (`temps` r#) as DXIL's: r0's variable holds `pointee` (an opcode). */
static void expect_r0_as_dxil(uint32_t temps, uint32_t pointee, const char *what)
{
    struct sb_translation *t = translate_as_dxil(temps, what);
    if (t) {
        CHECK(pointee_op(t, named(t, "r0")) == pointee);
        sb_translation_destroy(t);
    }
}

/*
 * The DXIL front end gives each value its own r# and writes only its x lane. Such an r# is
 * a Private float, not a vec4: its writes insert nothing and its reads extract nothing; its
 * never-written lanes read 0 (a constant in the vector built for the read). One that ALU
 * instructions write before every read of the same stretch between flow instructions has no
 * variable at all. A read in a later stretch (after an if) or before any write keeps the
 * variable; a register written in y, even by a subroutine, stays a vec4; an SM4 program's
 * r# are left as they were.
 */
static void case_scalar_temps(void)
{
    ir_reset();
    signature();
    emit1(SB_IR_OP_MOV, R(0, 0x1), V("y"));
    emit2(SB_IR_OP_ADD, R(0, 0x1), RS(0, "x"), V("x"));
    emit2(SB_IR_OP_MUL, R(1, 0x1), RS(0, "x"), RS(0, "x"));
    emit_cond(SB_IR_OP_IF, true, V("z"));
    emit2(SB_IR_OP_ADD, R(1, 0x1), RS(1, "x"), V("w")); /* read across blocks: r1 from memory */
    emit0(SB_IR_OP_ENDIF);
    emit1(SB_IR_OP_MOV, O, RS(1, "xxxx"));
    emit0(SB_IR_OP_RET);
    struct sb_translation *t = translate_as_dxil(2, "scalar_temps");
    if (t) {
        CHECK(named(t, "r0") == 0);                                /* memoryless: no variable */
        CHECK(pointee_op(t, named(t, "r1")) == SpvOpTypeFloat);
        CHECK(stores_to(t, named(t, "r1")) == 2);                  /* the mul's, the if's add */
        CHECK(count_ops(t, SpvOpCompositeInsert, -1) == 0);
        CHECK(count_ops(t, SpvOpCompositeExtract, -1) == 4); /* v0.y, v0.x, v0.z, v0.w: not r# */
        sb_translation_destroy(t);
    }

    /* r0.y read where only x is written: 0 in lane y. */
    ir_reset();
    signature();
    emit1(SB_IR_OP_MOV, R(0, 0x1), V("y"));
    emit1(SB_IR_OP_MOV, O, RS(0, "xyxy"));
    emit0(SB_IR_OP_RET);
    t = translate_as_dxil(1, "scalar_temps unwritten lane");
    if (t) {
        CHECK(named(t, "r0") == 0);
        uint32_t zero = 0;
        for (size_t at = 5; at < t->word_count && (t->words[at] >> 16); at += t->words[at] >> 16)
            if ((t->words[at] & 0xFFFFu) == SpvOpConstant && (t->words[at] >> 16) == 4 && t->words[at + 3] == 0)
                zero = t->words[at + 2];
        const uint32_t *construct = NULL;
        for (size_t at = 5; at < t->word_count && (t->words[at] >> 16); at += t->words[at] >> 16)
            if ((t->words[at] & 0xFFFFu) == SpvOpCompositeConstruct && (t->words[at] >> 16) == 7)
                construct = &t->words[at];
        CHECK(zero != 0 && construct != NULL);
        if (construct && zero) {
            CHECK(construct[3] == construct[5] && construct[3] != zero); /* x, x: the value */
            CHECK(construct[4] == zero && construct[6] == zero);        /* y, y: 0 */
        }
        sb_translation_destroy(t);
    }

    /* Read before its first write: the variable stays (its initial value is read). */
    ir_reset();
    signature();
    emit2(SB_IR_OP_ADD, R(0, 0x1), RS(0, "x"), V("x"));
    emit1(SB_IR_OP_MOV, O, RS(0, "xxxx"));
    emit0(SB_IR_OP_RET);
    expect_r0_as_dxil(1, SpvOpTypeFloat, "scalar_temps read first");

    /* Written in y by a subroutine: a vec4 for every function. */
    ir_reset();
    signature();
    emit1(SB_IR_OP_MOV, R(0, 0x1), V("y"));
    emit0(SB_IR_OP_CALL)->target = 1;
    emit1(SB_IR_OP_MOV, O, RS(0, "xyxy"));
    emit0(SB_IR_OP_RET);
    begin_function(0);
    emit1(SB_IR_OP_MOV, R(0, 0x2), V("x"));
    emit0(SB_IR_OP_RET);
    expect_r0_as_dxil(1, SpvOpTypeVector, "scalar_temps vec4");

    /* The first program as SM4's: r0 and r1 are vec4 variables, as ever. */
    ir_reset();
    signature();
    emit1(SB_IR_OP_MOV, R(0, 0x1), V("y"));
    emit2(SB_IR_OP_MUL, R(1, 0x1), RS(0, "x"), RS(0, "x"));
    emit1(SB_IR_OP_MOV, O, RS(1, "xxxx"));
    emit0(SB_IR_OP_RET);
    t = translate_checked(ir_program(SB_IR_STAGE_VERTEX, 2), SB_TARGET_VULKAN_1_1, SB_TRANSLATE_DEBUG_INFO,
                          "scalar_temps sm4");
    if (t) {
        CHECK(pointee_op(t, named(t, "r0")) == SpvOpTypeVector);
        CHECK(pointee_op(t, named(t, "r1")) == SpvOpTypeVector);
        sb_translation_destroy(t);
    }
}

/* Every corpus shader's module, default options: not one unused type. */
static int case_types_corpus(const char *corpus)
{
    static char *paths[MAX_SHADERS];
    static char types[MAX_SHADERS][3];
    uint32_t n = corpus_shaders(corpus, "vs,ps,gs,hs,ds,cs", 1, paths, types);
    if (!n) {
        fprintf(stderr, "no corpus manifest under %s: skipped\n", corpus);
        return 77;
    }
    uint32_t translated = 0, lean = 0, reported = 0;
    for (uint32_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/dxbc/%s", corpus, paths[i]);
        size_t size = 0;
        char *bytes = read_file(path, &size);
        struct sb_translate_options options = { .target_env = SB_TARGET_VULKAN_1_1 };
        struct sb_translation *t = NULL;
        struct sb_error error;
        memset(&error, 0, sizeof(error));
        if (bytes && sb_translate(bytes, size, &options, &t, &error) == SB_SUCCESS) {
            translated++;
            uint32_t first = 0, unused = unused_types(t->words, t->word_count, &first);
            if (unused == 0)
                lean++;
            else if (reported++ < 10)
                fprintf(stderr, "%s: %u unused type(s), the first %%%u\n", paths[i], unused, first);
            sb_translation_destroy(t);
        }
        free(bytes);
        free(paths[i]);
    }
    printf("%u shaders, %u translated, %u without an unused type\n", n, translated, lean);
    CHECK(translated > 0);
    CHECK(lean == translated);
    return g_failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "types_corpus"))
        return case_types_corpus(argv[2]);
    static const struct test_case cases[] = {
        { "types_small", case_types_small },
        { "dead_stores", case_dead_stores },
        { "scalar_temps", case_scalar_temps },
    };
    return run_test_cases(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
