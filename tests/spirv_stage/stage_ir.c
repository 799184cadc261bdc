/* SPDX-License-Identifier: MIT */
/*
 * Builder and translation checks for the stage tests: programs live in
 * static pools (a test builds one at a time), translation runs for three
 * target envs with sb_spirv_validate, and facts are asserted on the
 * vulkan1.1 disassembly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stage_ir.h"

int st_failures;

#define ST_MAX_INST 512
#define ST_MAX_OPERANDS 2048
#define ST_MAX_FUNCS 8
#define ST_MAX_SIG 32

static struct sb_ir_instruction insts[ST_MAX_INST];
static uint32_t inst_count;
static struct sb_ir_operand operands[ST_MAX_OPERANDS];
static uint32_t operand_count;
static struct sb_ir_function funcs[ST_MAX_FUNCS];
static uint32_t func_count;
static uint32_t func_first[ST_MAX_FUNCS];
static struct sb_ir_signature_element sig[ST_MAX_SIG];
static uint32_t sig_count;
static struct sb_ir_program program;

struct sb_ir_program *st_begin(uint32_t stage)
{
    inst_count = operand_count = func_count = sig_count = 0;
    memset(&program, 0, sizeof(program));
    memset(funcs, 0, sizeof(funcs));
    program.stage = stage;
    program.major = 5;
    program.first_fork_phase = 1;
    return &program;
}

void st_function(uint32_t instance_count, uint32_t temps)
{
    if (func_count == ST_MAX_FUNCS)
        abort();
    func_first[func_count] = inst_count;
    funcs[func_count].id = 0xFFFFFFFFu;
    funcs[func_count].instance_count = instance_count;
    funcs[func_count].temp_count = temps;
    func_count++;
}

struct sb_ir_operand st_reg(uint32_t file, uint32_t index, uint32_t mask)
{
    struct sb_ir_operand o;
    memset(&o, 0, sizeof(o));
    o.file = file;
    o.index_count = 1;
    o.index[0].offset = index;
    o.mask = (uint8_t)mask;
    for (uint8_t i = 0; i < 4; i++)
        o.swizzle[i] = i;
    return o;
}

struct sb_ir_operand st_reg2(uint32_t file, uint32_t i0, uint32_t i1, uint32_t mask)
{
    struct sb_ir_operand o = st_reg(file, i0, mask);
    o.index_count = 2;
    o.index[1].offset = i1;
    return o;
}

struct sb_ir_operand st_special(uint32_t file)
{
    struct sb_ir_operand o = st_reg(file, 0, 1);
    o.index_count = 0;
    memset(o.swizzle, 0, sizeof(o.swizzle));
    return o;
}

struct sb_ir_operand st_immf(float x)
{
    struct sb_ir_operand o;
    memset(&o, 0, sizeof(o));
    o.file = SB_IR_FILE_IMMEDIATE;
    uint32_t bits;
    memcpy(&bits, &x, 4);
    for (int i = 0; i < 4; i++) {
        o.imm[i] = bits;
        o.swizzle[i] = (uint8_t)i;
    }
    return o;
}

void st_relative(struct sb_ir_operand *op, uint32_t slot, uint32_t file)
{
    if (operand_count == ST_MAX_OPERANDS)
        abort();
    operands[operand_count] = st_special(file);
    op->index[slot].relative = &operands[operand_count++];
}

void st_relative_temp(struct sb_ir_operand *op, uint32_t slot, uint32_t temp, uint8_t lane)
{
    if (operand_count == ST_MAX_OPERANDS)
        abort();
    struct sb_ir_operand r = st_reg(SB_IR_FILE_TEMP, temp, 0);
    memset(r.swizzle, lane, sizeof(r.swizzle));
    operands[operand_count] = r;
    op->index[slot].relative = &operands[operand_count++];
}

static struct sb_ir_instruction *add(uint32_t op, uint32_t dst_count, const struct sb_ir_operand *dst,
                                     uint32_t src_count, const struct sb_ir_operand *src)
{
    if (inst_count == ST_MAX_INST || operand_count + dst_count + src_count > ST_MAX_OPERANDS)
        abort();
    struct sb_ir_instruction *inst = &insts[inst_count++];
    memset(inst, 0, sizeof(*inst));
    inst->op = op;
    inst->offset = 0x100 + 4u * inst_count;
    inst->dst_count = dst_count;
    inst->src_count = src_count;
    inst->dst = &operands[operand_count];
    for (uint32_t i = 0; i < dst_count; i++)
        operands[operand_count++] = dst[i];
    inst->src = &operands[operand_count];
    for (uint32_t i = 0; i < src_count; i++)
        operands[operand_count++] = src[i];
    return inst;
}

void st_mov(struct sb_ir_operand dst, struct sb_ir_operand src)
{
    add(SB_IR_OP_MOV, 1, &dst, 1, &src);
}

void st_inst(uint32_t op, uint32_t dst_count, const struct sb_ir_operand *dst, uint32_t src_count,
             const struct sb_ir_operand *src)
{
    add(op, dst_count, dst, src_count, src);
}

void st_op(uint32_t op, uint32_t stream)
{
    add(op, 0, NULL, 0, NULL)->stream = stream;
}

void st_sig(uint32_t kind, uint32_t file, uint32_t reg, uint32_t mask, const char *semantic,
            uint32_t system_value, uint32_t stream)
{
    if (sig_count == ST_MAX_SIG)
        abort();
    struct sb_ir_signature_element *e = &sig[sig_count++];
    memset(e, 0, sizeof(*e));
    e->kind = kind;
    e->file = file;
    e->register_index = reg;
    e->mask = e->used_mask = e->signature_mask = (uint8_t)mask;
    e->semantic = semantic;
    e->system_value = system_value;
    e->component_type = SB_IR_TYPE_FLOAT;
    e->stream = stream;
}

struct sb_ir_program *st_end(void)
{
    for (uint32_t f = 0; f < func_count; f++) {
        uint32_t end = f + 1 < func_count ? func_first[f + 1] : inst_count;
        funcs[f].instructions = &insts[func_first[f]];
        funcs[f].instruction_count = end - func_first[f];
    }
    program.function_count = func_count;
    program.functions = funcs;
    program.temp_count = func_count ? funcs[0].temp_count : 0;
    program.signature_count = sig_count;
    program.signature = sig;
    return &program;
}

char *st_translate(const struct sb_ir_program *p, const char *what)
{
    static const enum sb_target_env envs[] = { SB_TARGET_VULKAN_1_0, SB_TARGET_VULKAN_1_3,
                                               SB_TARGET_VULKAN_1_1 };
    char *text = NULL;
    for (size_t i = 0; i < sizeof(envs) / sizeof(envs[0]); i++) {
        struct sb_translate_options options = { .target_env = envs[i] };
        struct sb_translation *t = NULL;
        struct sb_error error;
        memset(&error, 0, sizeof(error));
        enum sb_result r = sb_translate_ir(p, &options, &t, &error);
        if (r != SB_SUCCESS) {
            fprintf(stderr, "%s (%s): translation failed (%d): %s\n", what,
                    sb_target_env_name(envs[i]), (int)r, error.message);
            st_failures++;
            return NULL;
        }
        r = sb_spirv_validate(t->words, t->word_count, envs[i], &error);
        char *dis = sb_spirv_disassemble(t->words, t->word_count, envs[i]);
        sb_translation_destroy(t);
        if (r != SB_SUCCESS) {
            fprintf(stderr, "%s (%s): spirv-val: %s\n%s\n", what, sb_target_env_name(envs[i]),
                    error.message, dis ? dis : "");
            st_failures++;
            free(dis);
            return NULL;
        }
        if (envs[i] == SB_TARGET_VULKAN_1_1 && getenv("ST_DUMP"))
            printf("%s:\n%s\n", what, dis ? dis : "");
        if (envs[i] == SB_TARGET_VULKAN_1_1)
            text = dis;
        else
            free(dis);
    }
    return text;
}

unsigned st_count(const char *text, const char *needle)
{
    unsigned n = 0;
    size_t len = strlen(needle);
    for (const char *s = text; s && (s = strstr(s, needle)) != NULL; s += len)
        n++;
    return n;
}
