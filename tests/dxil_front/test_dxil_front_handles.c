/* SPDX-License-Identifier: MIT */
/*
 * Resource handles and bindings in the DXIL front end (ir_from_dxil_resources.c,
 * ir_from_dxil_handles66.c) on the programs of tests/common/dxil_programs_handles.h:
 * each is translated (sb_translate + SPIRV-Tools), its bindings and IR operands
 * checked against SM5.1's (ranges, spaces, index within the range, NonUniform),
 * and run on the CPU interpreter against hand-computed answers; the bad handles
 * refuse with a structured error. `validate` runs each through sb_validate
 * (lavapipe against the interpreter, seeded inputs): the verdict must be agree;
 * without a device only the interpreter runs. `write DIR` writes the programs
 * as .dxil files for `shaderbridge validate`.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dxc_container_writer.h"
#include "dxil_programs_handles.h"
#include "shaderbridge/dxbc.h"
#include "shaderbridge/interp.h"
#include "shaderbridge/translate.h"
#include "shaderbridge/validate.h"
#include "translator/ir.h"

/* The program's IR (NULL on failure, `err` says why); its translation must be spirv-val
 * clean and is returned in `*out` when `out` is given. */
static struct sb_ir_program *lower(const struct tbuf *b, struct sb_translation **out,
                                   struct sb_error *err)
{
    struct sb_dxbc *container = NULL;
    struct sb_ir_program *ir = NULL;
    struct sb_translation *t = NULL;
    memset(err, 0, sizeof(*err));
    if (sb_dxbc_parse(b->data, b->size, &container, err) == SB_SUCCESS &&
        sb_ir_from_dxil(container, &ir, err) == SB_SUCCESS) {
        struct sb_error verr;
        enum sb_result r = sb_translate(b->data, b->size, NULL, &t, &verr);
        CHECK(r == SB_SUCCESS, "sb_translate: %s", verr.message);
        if (r == SB_SUCCESS) {
            r = sb_spirv_validate(t->words, t->word_count, SB_TARGET_VULKAN_1_1, &verr);
            CHECK(r == SB_SUCCESS, "spirv-val: %s", verr.message);
        }
    }
    sb_dxbc_destroy(container);
    if (out)
        *out = t;
    else
        sb_translation_destroy(t);
    return ir;
}

static struct sb_ir_program *lower_written(bool (*write)(struct tbuf *),
                                           struct sb_translation **out, struct sb_error *err)
{
    struct tbuf b = { 0 };
    struct sb_ir_program *ir = NULL;
    if (write(&b))
        ir = lower(&b, out, err);
    else
        CHECK(false, "the writer failed");
    tb_free(&b);
    CHECK(ir != NULL, "%s", err->message);
    return ir;
}

/* A raw or constant buffer at register `reg` of space `space`. */
static struct sb_rt_resource buffer(uint32_t cls, uint32_t space, uint32_t reg, void *data,
                                    size_t size)
{
    return (struct sb_rt_resource){ .resource_class = cls, .space = space, .register_index = reg,
                                    .data = data, .size = size, .layers = 1, .mip_levels = 1,
                                    .sample_count = 1 };
}

/* The resource operand of the first instruction of `op` that has one of `file` (NULL if none);
 * `nth` skips that many earlier ones. */
static const struct sb_ir_operand *resource_operand(const struct sb_ir_program *ir, uint32_t op,
                                                    uint32_t file, unsigned nth)
{
    const struct sb_ir_function *fn = &ir->functions[0];
    for (uint32_t i = 0; i < fn->instruction_count; i++) {
        const struct sb_ir_instruction *in = &fn->instructions[i];
        if (in->op != op)
            continue;
        for (uint32_t k = 0; k < in->dst_count + in->src_count; k++) {
            const struct sb_ir_operand *o = k < in->dst_count ? &in->dst[k]
                                                              : &in->src[k - in->dst_count];
            if (o->file == file && nth-- == 0)
                return o;
        }
    }
    return NULL;
}

/* bufs[4] : register(u2), cb0.x = k, 4 threads: bufs[1][t] = t + 100; j = (t + k) & 3:
 * bufs[j][4 + t] = bufs[j][8] + t, where bufs[i][8] = 1000 + i. */
static void test_array(void)
{
    struct sb_error err;
    struct sb_translation *t = NULL;
    struct sb_ir_program *ir = lower_written(dxil_program_cs_handle_array, &t, &err);
    if (!ir)
        return;
    /* The range as SM5.1 declares it: id 0, u2..u5, and its descriptor array. */
    const struct sb_ir_resource *r = &ir->resources[0];
    CHECK(ir->resource_count == 2 && r->resource_class == SB_IR_RESOURCE_UAV && r->id == 0 &&
          r->lower_bound == 2 && r->count == 4 && r->space == 0,
          "u range: class %u id %u lower %u count %u", r->resource_class, r->id, r->lower_bound,
          r->count);
    CHECK(t && t->binding_count == 2 && t->bindings[0].count == 4 &&
          t->bindings[0].lower_bound == 2 && t->bindings[0].set == 0 &&
          t->bindings[0].binding == 288,
          "u range binding: count %u set %u binding %u", t ? t->bindings[0].count : 0,
          t ? t->bindings[0].set : 0, t ? t->bindings[0].binding : 0);
    /* bufs[1]: element 1 of the range; bufs[j]: (j + 2) - 2 and non-uniform. */
    const struct sb_ir_operand *constant = resource_operand(ir, SB_IR_OP_STORE_RAW,
                                                            SB_IR_FILE_UAV, 0);
    const struct sb_ir_operand *dynamic = resource_operand(ir, SB_IR_OP_STORE_RAW,
                                                           SB_IR_FILE_UAV, 1);
    CHECK(constant && constant->index_count == 2 && constant->index[1].offset == 1 &&
          !constant->index[1].relative && !constant->non_uniform, "bufs[1] operand");
    CHECK(dynamic && dynamic->index_count == 2 && dynamic->index[1].offset == 0xFFFFFFFEu &&
          dynamic->index[1].relative && dynamic->non_uniform, "bufs[j] operand");
    static const uint32_t expected_j[2][4] = { { 1, 2, 3, 0 }, { 2, 3, 0, 1 } };
    for (uint32_t k = 1; k <= 2; k++) {
        uint32_t words[4][9] = { { 0 } }, cb[4] = { k, 0, 0, 0 };
        for (uint32_t i = 0; i < 4; i++)
            words[i][8] = 1000 + i;
        struct sb_rt_resource table[5] = { buffer(SB_IR_RESOURCE_CBV, 0, 0, cb, sizeof(cb)) };
        for (uint32_t i = 0; i < 4; i++)
            table[1 + i] = buffer(SB_IR_RESOURCE_UAV, 0, 2 + i, words[i], sizeof(words[i]));
        const uint32_t groups[3] = { 1, 1, 1 };
        enum sb_result res = sb_interp_dispatch(ir, table, 5, groups, NULL, NULL, &err);
        CHECK(res == SB_SUCCESS, "k = %u: dispatch: %s", k, err.message);
        uint32_t expected[4][9] = { { 0 } };
        for (uint32_t i = 0; i < 4; i++) {
            expected[i][8] = 1000 + i;
            expected[1][i] = i + 100;
            uint32_t j = expected_j[k - 1][i];
            expected[j][4 + i] = 1000 + j + i;
        }
        for (uint32_t i = 0; i < 4; i++)
            for (uint32_t w = 0; w < 9; w++)
                CHECK(words[i][w] == expected[i][w], "k = %u: bufs[%u][%u] = %u, expected %u",
                      k, i, w, words[i][w], expected[i][w]);
    }
    sb_translation_destroy(t);
    sb_ir_program_destroy(ir);
}

/* cbs[2] : register(b1, space1) = (1, 2, 3, 4), (10, 20, 30, 40); o : register(u5, space1);
 * two groups of two: o[2i] = 1 + 20, o[2i + 1] = cbs[group].z: { 21, 3, 21, 3, 21, 30, 21, 30 }. */
static void test_space1(void)
{
    struct sb_error err;
    struct sb_translation *t = NULL;
    struct sb_ir_program *ir = lower_written(dxil_program_cs_handle_space1, &t, &err);
    if (!ir)
        return;
    for (uint32_t i = 0; t && i < t->binding_count; i++)
        CHECK(t->bindings[i].space == 1 && t->bindings[i].set == 1, "binding %u: set %u", i,
              t->bindings[i].set);
    /* The cbuffer range's SM5.1 operands: range id, element (constant or relative - 1), row. */
    const struct sb_ir_operand *cb = resource_operand(ir, SB_IR_OP_MOV,
                                                      SB_IR_FILE_CONSTANT_BUFFER, 1);
    CHECK(cb && cb->index_count == 3 && cb->index[1].offset == 1 && cb->index[2].offset == 0,
          "cbs[1] operand");
    const struct sb_ir_operand *chosen = resource_operand(ir, SB_IR_OP_MOV,
                                                          SB_IR_FILE_CONSTANT_BUFFER, 2);
    CHECK(chosen && chosen->index_count == 3 && chosen->index[1].offset == 0xFFFFFFFFu &&
          chosen->index[1].relative && !chosen->non_uniform && chosen->index[2].offset == 0,
          "cbs[g] operand");
    uint32_t cbs[2][4] = { { 1, 2, 3, 4 }, { 10, 20, 30, 40 } }, o[8] = { 0 };
    struct sb_rt_resource table[3] = {
        buffer(SB_IR_RESOURCE_CBV, 1, 1, cbs[0], sizeof(cbs[0])),
        buffer(SB_IR_RESOURCE_CBV, 1, 2, cbs[1], sizeof(cbs[1])),
        buffer(SB_IR_RESOURCE_UAV, 1, 5, o, sizeof(o)),
    };
    const uint32_t groups[3] = { 2, 1, 1 };
    enum sb_result res = sb_interp_dispatch(ir, table, 3, groups, NULL, NULL, &err);
    CHECK(res == SB_SUCCESS, "dispatch: %s", err.message);
    static const uint32_t expected[8] = { 21, 3, 21, 3, 21, 30, 21, 30 };
    for (unsigned i = 0; i < 8; i++)
        CHECK(o[i] == expected[i], "o[%u] = %u, expected %u", i, o[i], expected[i]);
    sb_translation_destroy(t);
    sb_ir_program_destroy(ir);
}

/* cs_6_6: bufs[3] : register(u1, space2), cb0.x = k: bufs[k][0] = k + 7, bufs[2][1] = 99. */
static void test_sm66(void)
{
    struct sb_error err;
    struct sb_ir_program *ir = lower_written(dxil_program_cs_handle_sm66, NULL, &err);
    if (!ir)
        return;
    for (uint32_t k = 0; k < 3; k++) {
        uint32_t words[3][2] = { { 0 } }, cb[4] = { k, 0, 0, 0 };
        struct sb_rt_resource table[4] = { buffer(SB_IR_RESOURCE_CBV, 0, 0, cb, sizeof(cb)) };
        for (uint32_t i = 0; i < 3; i++)
            table[1 + i] = buffer(SB_IR_RESOURCE_UAV, 2, 1 + i, words[i], sizeof(words[i]));
        const uint32_t groups[3] = { 1, 1, 1 };
        enum sb_result res = sb_interp_dispatch(ir, table, 4, groups, NULL, NULL, &err);
        CHECK(res == SB_SUCCESS, "k = %u: dispatch: %s", k, err.message);
        uint32_t expected[3][2] = { { 0 } };
        expected[k][0] = k + 7;
        expected[2][1] = 99;
        for (uint32_t i = 0; i < 3; i++)
            for (uint32_t w = 0; w < 2; w++)
                CHECK(words[i][w] == expected[i][w], "k = %u: bufs[%u][%u] = %u, expected %u",
                      k, i, w, words[i][w], expected[i][w]);
    }
    sb_ir_program_destroy(ir);
}

/* bufs[2] : register(u4), 2 threads: only thread 1 stores, bufs[0][0] = 6, through a
 * non-uniform index that thread 0 (inactive there) holds as register 3: the interpreter binds
 * the range through an active lane's index. */
static void test_guarded(void)
{
    struct sb_error err;
    struct sb_ir_program *ir = lower_written(dxil_program_cs_handle_guarded, NULL, &err);
    if (!ir)
        return;
    uint32_t words[2][2] = { { 0 } };
    struct sb_rt_resource table[2] = {
        buffer(SB_IR_RESOURCE_UAV, 0, 4, words[0], sizeof(words[0])),
        buffer(SB_IR_RESOURCE_UAV, 0, 5, words[1], sizeof(words[1])),
    };
    const uint32_t groups[3] = { 1, 1, 1 };
    enum sb_result res = sb_interp_dispatch(ir, table, 2, groups, NULL, NULL, &err);
    CHECK(res == SB_SUCCESS, "dispatch: %s", err.message);
    CHECK(words[0][0] == 6 && words[0][1] == 0 && words[1][0] == 0 && words[1][1] == 0,
          "bufs = { %u, %u }, { %u, %u }, expected { 6, 0 }, { 0, 0 }", words[0][0], words[0][1],
          words[1][0], words[1][1]);
    sb_ir_program_destroy(ir);
}

/* cs_6_6 heap: src = heap SRV 0 = { 7, 9 }; dst = heap UAV k + t: k = 1 -> u1[0] = 57,
 * u2[1] = 59; k = 3 -> u3[0] = 57, u4[1] = 59; every other word stays 0. The views are
 * unbounded ranges of SB_DESCRIPTOR_HEAP_SPACE in the set after space 0 (translate.h). */
static void test_heap(void)
{
    struct sb_error err;
    struct sb_translation *t = NULL;
    struct sb_ir_program *ir = lower_written(dxil_program_cs_handle_heap, &t, &err);
    if (!ir)
        return;
    CHECK(ir->resource_count == 3, "%u resources, expected cb0 and two heap views",
          ir->resource_count);
    for (uint32_t i = 1; i < ir->resource_count && i < 3; i++) {
        const struct sb_ir_resource *r = &ir->resources[i];
        CHECK(r->space == SB_DESCRIPTOR_HEAP_SPACE && r->lower_bound == 0 &&
              r->count == UINT32_MAX && r->kind == SB_IR_RESOURCE_KIND_RAW &&
              r->resource_class == (i == 1 ? SB_IR_RESOURCE_SRV : SB_IR_RESOURCE_UAV),
              "heap view %u: class %u space 0x%x count %u", i, r->resource_class, r->space,
              r->count);
        CHECK(t && t->bindings[i].set == 1 && t->bindings[i].binding == 288 + i - 1,
              "heap view %u: set %u binding %u", i, t ? t->bindings[i].set : 0,
              t ? t->bindings[i].binding : 0);
    }
    for (uint32_t k = 1; k <= 3; k += 2) {
        uint32_t cb[4] = { k, 0, 0, 0 }, src[2] = { 7, 9 }, dst[5][2] = { { 0 } };
        struct sb_rt_resource table[7] = {
            buffer(SB_IR_RESOURCE_CBV, 0, 0, cb, sizeof(cb)),
            buffer(SB_IR_RESOURCE_SRV, SB_DESCRIPTOR_HEAP_SPACE, 0, src, sizeof(src)),
        };
        for (uint32_t i = 0; i < 5; i++)
            table[2 + i] = buffer(SB_IR_RESOURCE_UAV, SB_DESCRIPTOR_HEAP_SPACE, i, dst[i],
                                  sizeof(dst[i]));
        const uint32_t groups[3] = { 1, 1, 1 };
        enum sb_result res = sb_interp_dispatch(ir, table, 7, groups, NULL, NULL, &err);
        CHECK(res == SB_SUCCESS, "k = %u: dispatch: %s", k, err.message);
        uint32_t expected[5][2] = { { 0 } };
        expected[k][0] = 57;
        expected[k + 1][1] = 59;
        for (uint32_t i = 0; i < 5; i++)
            for (uint32_t w = 0; w < 2; w++)
                CHECK(dst[i][w] == expected[i][w], "k = %u: heap u%u[%u] = %u, expected %u", k,
                      i, w, dst[i][w], expected[i][w]);
    }
    sb_translation_destroy(t);
    sb_ir_program_destroy(ir);
}

/* Each bad handle refuses with its code, a message naming it and the call's byte offset. */
static void test_refusals(void)
{
    static const struct {
        enum sb_result code;
        const char *words;
    } expected[DXIL_BAD_HANDLE_COUNT] = {
        [DXIL_BAD_HANDLE_OUT_OF_RANGE] = { SB_ERROR_TRANSLATE_INVALID, "register 6 outside the range 2..5" },
        [DXIL_BAD_HANDLE_SELECT] = { SB_ERROR_TRANSLATE_UNSUPPORTED, "phi" },
        [DXIL_BAD_HANDLE_HEAP] = { SB_ERROR_TRANSLATE_INVALID, "without annotateHandle" },
        [DXIL_BAD_HANDLE_PROPERTIES] = { SB_ERROR_TRANSLATE_INVALID, "disagree" },
        [DXIL_BAD_HANDLE_SAMPLER_HEAP] = { SB_ERROR_TRANSLATE_INVALID,
                                           "sampler heap handle annotated as resource kind 11" },
    };
    for (unsigned which = 0; which < DXIL_BAD_HANDLE_COUNT; which++) {
        struct tbuf b = { 0 };
        struct sb_error err;
        memset(&err, 0, sizeof(err));
        struct sb_ir_program *ir = NULL;
        if (dxil_program_cs_bad_handle((enum dxil_bad_handle)which, &b))
            ir = lower(&b, NULL, &err);
        else
            CHECK(false, "bad handle %u: the writer failed", which);
        CHECK(ir == NULL && err.code == expected[which].code, "bad handle %u: code %d", which,
              (int)err.code);
        CHECK(strstr(err.message, expected[which].words) != NULL,
              "bad handle %u: message '%s' lacks '%s'", which, err.message,
              expected[which].words);
        CHECK(err.offset > 0, "bad handle %u: no offset", which);
        sb_ir_program_destroy(ir);
        tb_free(&b);
    }
}

/* The programs sb_validate runs: name, writer, thread groups, and the cbuffer k when the
 * seeded one would index past what the run binds (the heap program's views get the 8
 * descriptors validate gives an unbounded range). */
static const struct {
    const char *name;
    bool (*write)(struct tbuf *);
    uint32_t groups_x;
    bool fixed_k;
} validated[5] = {
    { "handle_array_cs_6_0", dxil_program_cs_handle_array, 1, false },
    { "handle_guarded_cs_6_0", dxil_program_cs_handle_guarded, 1, false },
    { "handle_space1_cs_6_0", dxil_program_cs_handle_space1, 2, false },
    { "handle_sm66_cs_6_6", dxil_program_cs_handle_sm66, 1, false },
    { "handle_heap_cs_6_6", dxil_program_cs_handle_heap, 1, true },
};

/* Each program on lavapipe and the interpreter with the same seeded inputs: agree. */
static void test_validate(void)
{
    struct sb_rt_context *context = NULL;
    struct sb_error e = { 0 };
    struct sb_rt_context_options options = { .validation = true, .allow_cpu_only = true };
    if (sb_rt_context_create(&options, &context, &e) != SB_SUCCESS) {
        CHECK(false, "no context: %s", e.message);
        return;
    }
    /* Keep lavapipe loaded after the context goes (LeakSanitizer; tests/CMakeLists.txt). */
    (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD);
    bool gpu = sb_rt_context_has_device(context);
    for (unsigned i = 0; i < 5; i++) {
        struct tbuf b = { 0 };
        struct sb_rt_program *program = NULL;
        struct sb_validate_report *r = NULL;
        if (!validated[i].write(&b) ||
            sb_rt_program_load(b.data, b.size, NULL, &program, &e) != SB_SUCCESS) {
            CHECK(false, "%s: does not load: %s", validated[i].name, e.message);
            tb_free(&b);
            continue;
        }
        uint32_t k[4] = { 1, 0, 0, 0 };
        struct sb_rt_resource cb0 = buffer(SB_IR_RESOURCE_CBV, 0, 0, k, sizeof(k));
        struct sb_validate_options o = {
            .inputs = { .seed = 1 }, .group_count = { validated[i].groups_x, 1, 1 },
            .sides = gpu ? 0 : SB_VALIDATE_SIDE_CPU,
            .provided_count = validated[i].fixed_k ? 1 : 0, .provided = &cb0,
        };
        enum sb_result res = sb_validate(context, program, &o, &r, &e);
        CHECK(res == SB_SUCCESS, "%s: sb_validate: %s", validated[i].name, e.message);
        if (res == SB_SUCCESS && gpu)
            CHECK(r->verdict == SB_VALIDATE_AGREE && r->mismatch_count == 0,
                  "%s: verdict %s (%s)", validated[i].name, sb_validate_verdict_name(r->verdict),
                  r->reason);
        if (res == SB_SUCCESS)
            printf("%s: %s\n", validated[i].name,
                   gpu ? sb_validate_verdict_name(r->verdict) : "interpreter only");
        sb_validate_report_destroy(r);
        sb_rt_program_destroy(program);
        tb_free(&b);
    }
    sb_rt_context_destroy(context);
}

/* Writes the translatable programs as DIR/<name>.dxil for `shaderbridge validate`. */
static int write_programs(const char *dir)
{
    for (unsigned i = 0; i < 5; i++) {
        struct tbuf b = { 0 };
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s.dxil", dir, validated[i].name);
        FILE *file = validated[i].write(&b) ? fopen(path, "wb") : NULL;
        bool ok = file && fwrite(b.data, 1, b.size, file) == b.size;
        if (file)
            ok = fclose(file) == 0 && ok;
        tb_free(&b);
        if (!ok) {
            fprintf(stderr, "%s: not written\n", path);
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "all";
    bool all = !strcmp(which, "all");
    if (!strcmp(which, "write") && argc > 2)
        return write_programs(argv[2]);
    if (all || !strcmp(which, "array"))
        test_array();
    if (all || !strcmp(which, "space1"))
        test_space1();
    if (all || !strcmp(which, "sm66"))
        test_sm66();
    if (all || !strcmp(which, "heap"))
        test_heap();
    if (all || !strcmp(which, "guarded"))
        test_guarded();
    if (all || !strcmp(which, "refusals"))
        test_refusals();
    if (!strcmp(which, "validate"))
        test_validate();
    if (failures)
        fprintf(stderr, "%u check(s) failed\n", failures);
    return failures ? 1 : 0;
}
