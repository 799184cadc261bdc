/* SPDX-License-Identifier: MIT */
/*
 * The IR builder and the interpreter / Vulkan harness of the PICA IR tests
 * (pica_ir_harness.h). The GPU path translates with sb_translate_ir, checks the module
 * with sb_spirv_validate and dispatches with sb_rt_dispatch on one shared context.
 */
#include "pica_ir_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/interp.h"
#include "shaderbridge/runtime.h"
#include "shaderbridge/translate.h"

struct sb_ir_operand pb_reg(uint32_t file, uint32_t index, const char *sw)
{
    struct sb_ir_operand o = { .file = file, .index_count = 1 };
    o.index[0].offset = index;
    size_t len = sw ? strlen(sw) : 0;
    for (size_t i = 0; i < 4; i++) {
        char c = len ? sw[i < len ? i : len - 1] : "xyzw"[i];
        o.swizzle[i] = (uint8_t)(c == 'x' ? 0 : c == 'y' ? 1 : c == 'z' ? 2 : 3);
    }
    return o;
}

struct sb_ir_operand pb_dst(uint32_t file, uint32_t index, uint32_t mask)
{
    struct sb_ir_operand o = pb_reg(file, index, "xyzw");
    o.mask = (uint8_t)mask;
    return o;
}

struct sb_ir_operand pb_r(uint32_t index, const char *sw)
{
    return pb_reg(SB_IR_FILE_TEMP, index, sw);
}

struct sb_ir_operand pb_rd(uint32_t index, uint32_t mask)
{
    return pb_dst(SB_IR_FILE_TEMP, index, mask);
}

struct sb_ir_operand pb_imm4(uint32_t x, uint32_t y, uint32_t z, uint32_t w)
{
    struct sb_ir_operand o = { .file = SB_IR_FILE_IMMEDIATE, .imm = { x, y, z, w }, .swizzle = { 0, 1, 2, 3 } };
    return o;
}

struct sb_ir_operand pb_immf(float value)
{
    uint32_t u;
    memcpy(&u, &value, 4);
    return pb_imm4(u, u, u, u);
}

struct sb_ir_operand pb_neg(struct sb_ir_operand op)
{
    op.modifiers ^= SB_IR_MOD_NEG;
    return op;
}

static struct sb_ir_operand *pool(struct pb *b, uint32_t n)
{
    if (b->operand_count + n > PB_MAX_OPERANDS) {
        b->overflow = true;
        b->operand_count = 0;
    }
    struct sb_ir_operand *o = &b->operands[b->operand_count];
    b->operand_count += n;
    return o;
}

struct sb_ir_operand pb_crel(struct pb *b, uint32_t n, uint32_t lane, const char *sw)
{
    static const char *lanes[3] = { "x", "y", "z" };
    struct sb_ir_operand *rel = pool(b, 1);
    *rel = pb_reg(SB_IR_FILE_PICA_ADDRESS, 0, lanes[lane % 3]);
    struct sb_ir_operand o = pb_reg(SB_IR_FILE_PICA_FLOAT_UNIFORM, n, sw);
    o.index[0].relative = rel;
    return o;
}

struct sb_ir_instruction *pb_emit(struct pb *b, uint32_t op, uint32_t flags, const struct sb_ir_operand *dst,
                                  uint32_t src_count, const struct sb_ir_operand *s0,
                                  const struct sb_ir_operand *s1, const struct sb_ir_operand *s2)
{
    static struct sb_ir_instruction sink;
    uint32_t f = b->current;
    if (b->count[f] >= PB_MAX_INSTRUCTIONS) {
        b->overflow = true;
        return &sink;
    }
    uint32_t nd = dst ? 1 : 0;
    struct sb_ir_operand *ops = pool(b, nd + src_count + 1);
    const struct sb_ir_operand *srcs[3] = { s0, s1, s2 };
    if (dst)
        ops[0] = *dst;
    for (uint32_t i = 0; i < src_count; i++)
        ops[nd + i] = *srcs[i];
    struct sb_ir_instruction *inst = &b->instructions[f][b->count[f]++];
    memset(inst, 0, sizeof(*inst));
    inst->op = op;
    inst->flags = flags;
    inst->offset = 4u * b->count[f];
    inst->dst_count = nd;
    inst->src_count = src_count;
    inst->dst = nd ? ops : NULL;
    inst->src = ops + nd;
    return inst;
}

void pb_begin_compute(struct pb *b, uint32_t pica_flags)
{
    memset(b, 0, sizeof(*b));
    struct sb_ir_program *p = &b->program;
    p->source = SB_IR_SOURCE_PICA;
    p->stage = SB_IR_STAGE_COMPUTE;
    p->temp_count = PB_TEMPS;
    p->pica_flags = pica_flags;
    p->thread_group[0] = 64;
    p->thread_group[1] = p->thread_group[2] = 1;
    b->resources[0] = (struct sb_ir_resource){ .resource_class = SB_IR_RESOURCE_CBV, .id = SB_IR_PICA_UNIFORM_REGISTER,
                                               .count = 1, .cb_size = SB_IR_PICA_UNIFORM_VECTORS,
                                               .cb_dynamic_indexed = true };
    b->resources[1] = (struct sb_ir_resource){ .resource_class = SB_IR_RESOURCE_SRV, .id = 0, .count = 1,
                                               .kind = SB_IR_RESOURCE_KIND_RAW };
    b->resources[2] = (struct sb_ir_resource){ .resource_class = SB_IR_RESOURCE_UAV, .id = 0, .count = 1,
                                               .kind = SB_IR_RESOURCE_KIND_RAW };
    p->resources = b->resources;
    p->resource_count = 3;
    /* vThreadID is copied from the built-in only when declared, as dcl_input declares it */
    b->signature[0] = (struct sb_ir_signature_element){ .kind = SB_IR_SIGNATURE_INPUT, .semantic = "",
                                                        .file = SB_IR_FILE_THREAD_ID, .mask = 7, .used_mask = 7,
                                                        .component_type = SB_IR_TYPE_UINT };
    p->signature = b->signature;
    p->signature_count = 1;
    /* r7.x/y/z = byte offsets of this thread's three input vectors */
    struct sb_ir_operand tid = pb_reg(SB_IR_FILE_THREAD_ID, 0, "x");
    tid.index_count = 0;
    struct sb_ir_operand d = pb_rd(7, 1), k48 = pb_imm4(48, 48, 48, 48), k0 = pb_imm4(0, 0, 0, 0);
    pb_emit(b, SB_IR_OP_IMAD, 0, &d, 3, &tid, &k48, &k0);
    struct sb_ir_operand t0 = pb_reg(SB_IR_FILE_RESOURCE, 0, "xyzw");
    for (uint32_t k = 0; k < 3; k++) {
        struct sb_ir_operand off = pb_r(7, "x"), dk = pb_rd(7, 2), kk = pb_imm4(16 * k, 16 * k, 16 * k, 16 * k);
        pb_emit(b, SB_IR_OP_IADD, 0, &dk, 2, &off, &kk, NULL);
        struct sb_ir_operand dr = pb_rd(k, 0xF), o = pb_r(7, "y");
        pb_emit(b, SB_IR_OP_LD_RAW, 0, &dr, 2, &o, &t0, NULL);
    }
}

void pb_end_compute(struct pb *b)
{
    struct sb_ir_operand tid = pb_reg(SB_IR_FILE_THREAD_ID, 0, "x");
    tid.index_count = 0;
    struct sb_ir_operand d = pb_rd(7, 8), k4 = pb_imm4(4, 4, 4, 4);
    pb_emit(b, SB_IR_OP_ISHL, 0, &d, 2, &tid, &k4, NULL);
    struct sb_ir_operand u0 = pb_dst(SB_IR_FILE_UAV, 0, 0xF), off = pb_r(7, "w"), v = pb_r(3, "xyzw");
    pb_emit(b, SB_IR_OP_STORE_RAW, 0, &u0, 2, &off, &v, NULL);
    struct sb_ir_program *p = &b->program;
    uint32_t n = b->count[1] ? 2 : 1;
    for (uint32_t f = 0; f < n; f++) {
        b->functions[f].id = f ? 1 : 0xFFFFFFFFu;
        b->functions[f].instruction_count = b->count[f];
        b->functions[f].instructions = b->instructions[f];
        b->functions[f].temp_count = PB_TEMPS;
    }
    p->functions = b->functions;
    p->function_count = n;
}

static void table(const struct pb_uniforms *u, const uint32_t *in, uint32_t threads, uint32_t *out,
                  struct sb_rt_resource res[3])
{
    memset(res, 0, 3 * sizeof(*res));
    res[0] = (struct sb_rt_resource){ .resource_class = SB_IR_RESOURCE_CBV, .data = (void *)u->words,
                                      .size = sizeof(u->words), .layers = 1, .mip_levels = 1, .sample_count = 1 };
    res[1] = (struct sb_rt_resource){ .resource_class = SB_IR_RESOURCE_SRV, .data = (void *)in,
                                      .size = (size_t)threads * 48, .layers = 1, .mip_levels = 1, .sample_count = 1 };
    res[2] = (struct sb_rt_resource){ .resource_class = SB_IR_RESOURCE_UAV, .data = out,
                                      .size = (size_t)threads * 16, .layers = 1, .mip_levels = 1, .sample_count = 1 };
}

bool pb_run_interp(const struct pb *b, const struct pb_uniforms *u, const uint32_t *in, uint32_t threads,
                   uint32_t *out)
{
    return pb_run_interp_with(b, u, in, threads, out, NULL);
}

bool pb_run_interp_with(const struct pb *b, const struct pb_uniforms *u, const uint32_t *in, uint32_t threads,
                        uint32_t *out, const struct sb_interp_options *options)
{
    struct sb_rt_resource res[3];
    struct sb_error err = { 0 };
    if (b->overflow) {
        fprintf(stderr, "program builder overflow\n");
        return false;
    }
    memset(out, 0, (size_t)threads * 16);
    table(u, in, threads, out, res);
    const uint32_t groups[3] = { threads / 64, 1, 1 };
    enum sb_result r = sb_interp_dispatch(&b->program, res, 3, groups, options, NULL, &err);
    if (r != SB_SUCCESS)
        fprintf(stderr, "interpreter: %s (offset %llu)\n", err.message, (unsigned long long)err.offset);
    return r == SB_SUCCESS;
}

static struct sb_rt_context *gpu;
static bool gpu_tried;

void pb_gpu_shutdown(void)
{
    sb_rt_context_destroy(gpu);
    gpu = NULL;
}

bool pb_run_gpu(const struct pb *b, const struct pb_uniforms *u, const uint32_t *in, uint32_t threads,
                uint32_t *out, bool *skipped)
{
    struct sb_error err = { 0 };
    *skipped = false;
    if (!gpu_tried) {
        gpu_tried = true;
        struct sb_rt_context_options o = { .allow_cpu_only = true };
        if (sb_rt_context_create(&o, &gpu, &err) != SB_SUCCESS)
            gpu = NULL;
    }
    if (!gpu || !sb_rt_context_has_device(gpu)) {
        *skipped = true;
        return false;
    }
    /* PICA_IR_OPTIMIZE=1: through SPIRV-Tools' -O passes as well (they must keep the bits) */
    const char *o = getenv("PICA_IR_OPTIMIZE");
    struct sb_translate_options opt = { .target_env = SB_TARGET_VULKAN_1_1,
                                        .flags = o && *o == '1' ? SB_TRANSLATE_OPTIMIZE : 0 };
    struct sb_translation *t = NULL;
    if (sb_translate_ir(&b->program, &opt, &t, &err) != SB_SUCCESS) {
        fprintf(stderr, "translation: %s\n", err.message);
        return false;
    }
    bool ok = sb_spirv_validate(t->words, t->word_count, opt.target_env, &err) == SB_SUCCESS;
    if (!ok)
        fprintf(stderr, "spirv-val: %s\n", err.message);
    bool cb_reported = false;
    for (uint32_t i = 0; i < t->binding_count; i++)
        if (t->bindings[i].resource_class == SB_IR_RESOURCE_CBV && t->bindings[i].lower_bound == 0 &&
            t->bindings[i].set == 0 && t->bindings[i].binding == 0)
            cb_reported = true;
    if (!cb_reported) {
        fprintf(stderr, "the PICA uniform buffer is not reported at set 0 binding 0\n");
        ok = false;
    }
    struct sb_rt_resource res[3];
    memset(out, 0, (size_t)threads * 16);
    table(u, in, threads, out, res);
    const uint32_t groups[3] = { threads / 64, 1, 1 };
    if (ok && sb_rt_dispatch(gpu, t, res, 3, groups, NULL, &err) != SB_SUCCESS) {
        fprintf(stderr, "dispatch: %s\n", err.message);
        ok = false;
    }
    sb_translation_destroy(t);
    return ok;
}
