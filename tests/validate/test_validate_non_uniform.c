/* SPDX-License-Identifier: MIT */
/*
 * validate_non_uniform: SB_INTERP_UNDEFINED_NON_UNIFORM_INDEX (runtime/src/interp/
 * interp_nonuniform.c) on hand-assembled cs_5_1 programs. Each thread loads texel (0, 0) of
 * T0[i] (a range of four 1x1 float textures, texture k holding 10 + k) and stores its x to
 * u0[thread id]; the programs differ in where i comes from:
 *
 *   thread:     i = vThreadID.x & 3, no flag; 2 groups of 4 threads. In each group the index
 *               differs: two events (invocations 0 and 1 with t0 / t1, then 4 and 5), at the
 *               ld's byte offset, and every u0 word marked undefined (all eight threads ran
 *               the ld, invocation 0 before the difference showed);
 *   flagged:    the same index marked NonUniformResourceIndex: no event, nothing marked;
 *   uniform:    i = CB0[0][0].x (cb0 holds 2), no flag: no event, every thread reads 12;
 *   per group:  i = vThreadGroupID.x, no flag, 2 groups of 2: uniform inside each group, which
 *               is all Vulkan asks: no event; values 10 10 11 11;
 *   cb range:   the index picks a constant buffer of CB0[0:1] (i = vThreadID.x & 1, no flag):
 *               one event per group naming the cb range, registers cb0 / cb1;
 *   loop:       i = 0, 1, 2, 3 in a loop, no flag, 2 groups of 4 (one batch): each iteration
 *               is uniform, which is all Vulkan asks (the rule is per dynamic instance): no
 *               event; every thread stores 10 + 11 + 12 + 13 = 46.
 * And a vs_5_1 drawing 1030 vertices (two batches of the interpreter) whose o1.x loads T0[i],
 * i = (SV_VertexID >= 1024): uniform inside each batch, but the group of a draw is the draw, so
 * one event (invocations 0 and 1024, t0 / t1) and every output of every vertex marked, those
 * of the first batch after the fact.
 * The values are the interpreter's (it binds each lane its own resource); the events, their
 * instruction offsets (the container's SHEX data + 4 x the instruction's token index) and the
 * marked words are asserted exactly.
 *
 * Then "thread" through sb_validate on the device (lavapipe): its first event must be the same
 * (seeded inputs, one dispatch of the program's group), and the verdict "undefined" with a reason
 * naming the range, the instruction, the invocations and the fix, or "agree" where the device
 * happened to bind each lane its own texture. Without a device only the interpreter part runs.
 * Exit 0 pass, 1 fail.
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "shaderbridge/interp.h"
#include "shaderbridge/validate.h"
#include "sm4_asm.h"
#include "check.h"

enum { TEXTURE2D = 3, FLOAT4_RETURN = 0x5555u, TEXTURES = 4 };
enum variant { THREAD, FLAGGED, UNIFORM, PER_GROUP, CB_RANGE, LOOP, SAMPLED };

/* One built program: its container and the file offset of the instruction that indexes. */
struct built {
    struct blob container;
    uint32_t indexing_offset;
    uint32_t group_size, groups;
};

/* File offset of token `token` of the SHEX part (the decoder reports offsets in the file). */
static uint32_t shex_offset(const struct blob *b, uint32_t token)
{
    for (uint32_t i = 0; i + 8 <= b->size; i += 4)
        if (!memcmp(b->bytes + i, "SHEX", 4))
            return i + 8 + 4 * token;
    return UINT32_MAX;
}

static void build(enum variant v, struct built *out)
{
    static struct sm4_program p;
    out->group_size = v == PER_GROUP ? 2 : 4;
    out->groups = 2;
    sm4_begin_cs51(&p, out->group_size, 2);
    uint32_t texture_extra[2] = { FLOAT4_RETURN, 0 }, space0 = 0, cb_extra[2] = { 1, 0 };
    sm4_decl(&p, OP_DCL_RESOURCE | (TEXTURE2D << 11), sm4_range51(T_RESOURCE, 0, 0, TEXTURES - 1), 2,
             texture_extra);
    sm4_decl(&p, OP_DCL_UAV_RAW, sm4_range51(T_UAV, 0, 0, 0), 1, &space0);
    if (v == SAMPLED)
        sm4_decl(&p, OP_DCL_SAMPLER, sm4_range51(T_SAMPLER, 0, 0, 0), 1, &space0);
    if (v == UNIFORM || v == CB_RANGE)
        sm4_decl(&p, OP_DCL_CONSTANT_BUFFER | (v == CB_RANGE ? 1u << 11 : 0),
                 sm4_range51(T_CB, 0, 0, v == CB_RANGE ? 1 : 0), 2, cb_extra);
    sm4_dcl_thread_id(&p, T_THREAD_ID, "x");
    if (v == PER_GROUP)
        sm4_dcl_thread_id(&p, T_GROUP_ID, "x");
    struct sm4_operand index = sr(0, "x");
    if (v == THREAD || v == FLAGGED || v == SAMPLED)
        I(&p, OP_AND, dr(0, "x"), special(T_THREAD_ID, "x"), l1(3));
    else if (v == UNIFORM)
        I(&p, OP_MOV, dr(0, "x"), sm4_reg(T_CB, 3, (uint32_t[]){ 0, 0, 0 }, NULL, "xxxx", 0));
    else if (v == PER_GROUP)
        I(&p, OP_MOV, dr(0, "x"), special(T_GROUP_ID, "x"));
    else if (v == CB_RANGE)
        I(&p, OP_AND, dr(0, "x"), special(T_THREAD_ID, "x"), l1(1));
    uint32_t token = p.n;
    if (v == CB_RANGE) {
        const struct sm4_operand *rels[3] = { NULL, &index, NULL };
        I(&p, OP_MOV, dr(1, "x"), sm4_reg(T_CB, 3, (uint32_t[]){ 0, 0, 0 }, rels, "xxxx", 0));
    } else if (v == LOOP) {
        I(&p, OP_MOV, dr(0, "x"), l1(0));
        I(&p, OP_MOV, dr(1, "y"), l1(0));
        I0(&p, OP_LOOP, 0);
        I(&p, OP_IGE, dr(0, "z"), sr(0, "x"), l1(4));
        IC(&p, OP_BREAKC, SM4_NZ, sr(0, "z"));
        token = p.n;
        I(&p, OP_LD, dr(1, "x"), l4(0, 0, 0, 0), sm4_reg51(T_RESOURCE, 0, 0, &index, "xyzw", 0, 0));
        I(&p, OP_ADD, dr(1, "y"), sr(1, "y"), sr(1, "x"));
        I(&p, OP_IADD, dr(0, "x"), sr(0, "x"), l1(1));
        I0(&p, OP_ENDLOOP, 0);
        I(&p, OP_MOV, dr(1, "x"), sr(1, "y"));
    } else if (v == SAMPLED) {
        uint32_t half = 0x3f000000u;
        I(&p, OP_SAMPLE_L, dr(1, "x"), l4(half, half, 0, 0), sm4_reg51(T_RESOURCE, 0, 0, &index, "xyzw", 0, 0),
          sm4_reg51(T_SAMPLER, 0, 0, NULL, "x", 0, 0), l1(0));
    } else {
        I(&p, OP_LD, dr(1, "x"), l4(0, 0, 0, 0), sm4_reg51(T_RESOURCE, 0, 0, &index, "xyzw", 0, v == FLAGGED));
    }
    I(&p, OP_ISHL, dr(0, "y"), special(T_THREAD_ID, "x"), l1(2));
    I(&p, OP_STORE_RAW, sm4_reg51(T_UAV, 0, 0, NULL, "x", 1, 0), sr(0, "y"), sr(1, "x"));
    sm4_end(&p);
    sm4_container(&p, &out->container);
    out->indexing_offset = shex_offset(&out->container, token);
}

static float as_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static struct sb_rt_resource entry(enum sb_ir_resource_class c, uint32_t reg, void *data, size_t size)
{
    struct sb_rt_resource r;
    memset(&r, 0, sizeof(r));
    r.resource_class = c;
    r.register_index = reg;
    r.data = data;
    r.size = size;
    r.layers = r.mip_levels = r.sample_count = 1;
    return r;
}

/* Runs variant `v` tracked on the interpreter and checks its events, values and marks. */
static void check_interpreter(enum variant v, const char *name)
{
    static struct built b;
    build(v, &b);
    struct sb_rt_program *program = NULL;
    struct sb_error e = { 0 };
    if (sb_rt_program_load(b.container.bytes, b.container.size, NULL, &program, &e) != SB_SUCCESS) {
        CHECK(false, "%s: does not load: %s", name, e.message);
        return;
    }
    float texels[TEXTURES][4];
    uint32_t cb[2][4] = { { 2, 0, 0, 0 }, { 7, 0, 0, 0 } }, out[8] = { 0 };
    struct sb_rt_resource table[TEXTURES + 3];
    uint32_t count = 0;
    for (uint32_t k = 0; k < TEXTURES; k++) {
        texels[k][0] = texels[k][1] = texels[k][2] = texels[k][3] = 10.0f + (float)k;
        table[count] = entry(SB_IR_RESOURCE_SRV, k, texels[k], sizeof(texels[k]));
        table[count].format = SB_RT_FORMAT_R32G32B32A32_FLOAT;
        table[count].dimension = TEXTURE2D;
        table[count].width = table[count].height = table[count].depth = 1;
        count++;
    }
    table[count++] = entry(SB_IR_RESOURCE_UAV, 0, out, sizeof(out));
    table[count++] = entry(SB_IR_RESOURCE_CBV, 0, cb[0], sizeof(cb[0]));
    table[count++] = entry(SB_IR_RESOURCE_CBV, 1, cb[1], sizeof(cb[1]));
    struct sb_interp_tracking t;
    memset(&t, 0, sizeof(t));
    t.undefined = true;
    struct sb_interp_options options = { .tracking = &t };
    const uint32_t groups[3] = { b.groups, 1, 1 };
    enum sb_result r = sb_interp_dispatch(program->ir, table, count, groups, &options, NULL, &e);
    CHECK(r == SB_SUCCESS, "%s: dispatch: %s", name, e.message);
    uint32_t threads = b.group_size * b.groups, uav = TEXTURES;
    const uint8_t *marks = r == SB_SUCCESS && t.undefined_word ? t.undefined_word[uav] : NULL;
    /* Expected values: what each thread's own resource holds. */
    for (uint32_t i = 0; r == SB_SUCCESS && i < threads; i++) {
        float want = v == THREAD || v == FLAGGED ? 10.0f + (float)(i & 3)
                     : v == UNIFORM              ? 12.0f
                     : v == PER_GROUP            ? 10.0f + (float)(i / 2)
                     : v == LOOP                 ? 46.0f
                                                 : 0.0f;
        uint32_t want_bits = v == CB_RANGE ? cb[i & 1][0] : 0;
        bool ok = v == CB_RANGE ? out[i] == want_bits : as_float(out[i]) == want;
        CHECK(ok, "%s: u0 word %u = %#x (%g), want %g / %#x", name, i, out[i], as_float(out[i]), want, want_bits);
    }
    if (v == THREAD || v == CB_RANGE) {
        uint32_t want_events = 2; /* one per group */
        CHECK(t.undefined_events == want_events && t.kept == want_events, "%s: %llu events (%u kept), want %u", name,
              (unsigned long long)t.undefined_events, t.kept, want_events);
        for (uint32_t k = 0; k < t.kept && k < want_events; k++) {
            const struct sb_interp_undefined_event *u = &t.events[k];
            uint32_t first = k * b.group_size;
            enum sb_ir_resource_class c = v == THREAD ? SB_IR_RESOURCE_SRV : SB_IR_RESOURCE_CBV;
            CHECK(u->kind == SB_INTERP_UNDEFINED_NON_UNIFORM_INDEX && u->resource == UINT32_MAX &&
                      u->byte_offset == 0 && u->invocation[0] == first && u->invocation[1] == first + 1 &&
                      u->instruction[0] == b.indexing_offset && u->instruction[1] == b.indexing_offset &&
                      u->range_class == c && u->range_space == 0 && u->range_lower_bound == 0 &&
                      u->range_register[0] == 0 && u->range_register[1] == 1,
                  "%s event %u: kind %d resource %u invocations %u %u instructions %u %u class %d space %u "
                  "lower %u registers %u %u; want invocations %u %u at %u, class %d, registers 0 1",
                  name, k, (int)u->kind, u->resource, u->invocation[0], u->invocation[1], u->instruction[0],
                  u->instruction[1], (int)u->range_class, u->range_space, u->range_lower_bound,
                  u->range_register[0], u->range_register[1], first, first + 1, b.indexing_offset, (int)c);
        }
        for (uint32_t i = 0; i < threads; i++)
            CHECK(marks && marks[i] == 1, "%s: u0 word %u not marked undefined", name, i);
    } else {
        CHECK(t.undefined_events == 0, "%s: %llu events, want none (first kind %d)", name,
              (unsigned long long)t.undefined_events, t.kept ? (int)t.events[0].kind : 0);
        for (uint32_t i = 0; i < threads; i++)
            CHECK(marks && marks[i] == 0, "%s: u0 word %u marked undefined", name, i);
    }
    printf("%s: %llu events\n", name, (unsigned long long)t.undefined_events);
    sb_interp_tracking_release(&t);
    sb_rt_program_destroy(program);
}

/* The vertex case above: one draw of VERTICES vertices, the index changing at vertex 1024. */
enum { VERTICES = 1030, OP_DCL_INPUT_SGV = 96, OP_DCL_OUTPUT = 101, OP_DCL_OUTPUT_SIV = 103, SV_POSITION = 1,
       SV_VERTEX_ID = 6, SIG_UINT = 1, SIG_FLOAT = 3 };

static void check_vertices(void)
{
    static struct sm4_program p;
    sm4_begin(&p, 1, 5, 1, 2);
    sm4_raw(&p, OP_DCL_GLOBAL_FLAGS | (1u << 11), 0, NULL);
    uint32_t texture_extra[2] = { FLOAT4_RETURN, 0 };
    sm4_decl(&p, OP_DCL_RESOURCE | (TEXTURE2D << 11), sm4_range51(T_RESOURCE, 0, 0, TEXTURES - 1), 2,
             texture_extra);
    sm4_dcl_io(&p, OP_DCL_INPUT_SGV, 0, T_INPUT, 0, "x", SV_VERTEX_ID);
    sm4_dcl_io(&p, OP_DCL_OUTPUT_SIV, 0, T_OUTPUT, 0, "xyzw", SV_POSITION);
    sm4_dcl_io(&p, OP_DCL_OUTPUT, 0, T_OUTPUT, 1, "x", -1);
    I(&p, OP_UGE, dr(0, "x"), sm4_reg(T_INPUT, 1, (uint32_t[]){ 0 }, NULL, "x", 0), l1(1024));
    I(&p, OP_AND, dr(0, "x"), sr(0, "x"), l1(1));
    struct sm4_operand index = sr(0, "x");
    uint32_t token = p.n;
    I(&p, OP_LD, dr(1, "x"), l4(0, 0, 0, 0), sm4_reg51(T_RESOURCE, 0, 0, &index, "xyzw", 0, 0));
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 0 }, NULL, "xyzw", 1), l4(0, 0, 0, 0x3f800000u));
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, (uint32_t[]){ 1 }, NULL, "x", 1), sr(1, "x"));
    sm4_end(&p);
    static const struct sig_element_spec in[] = { { 0, "SV_VertexID", 0, SV_VERTEX_ID, SIG_UINT, 0, 0x1, 0x1, 0 } };
    static const struct sig_element_spec outs[] = {
        { 0, "SV_Position", 0, SV_POSITION, SIG_FLOAT, 0, 0xF, 0x0, 0 },
        { 0, "TEXCOORD", 0, 0, SIG_FLOAT, 1, 0x1, 0xE, 0 },
    };
    static struct blob b;
    sm4_container_sig(&p, in, 1, outs, 2, NULL, 0, &b);
    uint32_t offset = shex_offset(&b, token);
    struct sb_rt_program *program = NULL;
    struct sb_error e = { 0 };
    if (sb_rt_program_load(b.bytes, b.size, NULL, &program, &e) != SB_SUCCESS) {
        CHECK(false, "vertices: does not load: %s", e.message);
        return;
    }
    float texels[TEXTURES][4];
    struct sb_rt_resource table[TEXTURES];
    for (uint32_t k = 0; k < TEXTURES; k++) {
        texels[k][0] = texels[k][1] = texels[k][2] = texels[k][3] = 10.0f + (float)k;
        table[k] = entry(SB_IR_RESOURCE_SRV, k, texels[k], sizeof(texels[k]));
        table[k].format = SB_RT_FORMAT_R32G32B32A32_FLOAT;
        table[k].dimension = TEXTURE2D;
        table[k].width = table[k].height = table[k].depth = 1;
    }
    static uint32_t in_words[VERTICES * 4], out_words[VERTICES * 2 * 4];
    for (uint32_t i = 0; i < VERTICES; i++)
        in_words[i * 4] = i;
    struct sb_interp_registers inputs = { 1, in_words }, outputs = { 2, out_words };
    struct sb_interp_tracking t;
    memset(&t, 0, sizeof(t));
    t.undefined = true;
    struct sb_interp_options options = { .tracking = &t };
    enum sb_result r = sb_interp_run_vertices(program->ir, table, TEXTURES, VERTICES, &inputs, &outputs, &options,
                                              NULL, &e);
    CHECK(r == SB_SUCCESS, "vertices: %s", e.message);
    const struct sb_interp_undefined_event *u = t.kept ? &t.events[0] : NULL;
    CHECK(r == SB_SUCCESS && t.undefined_events == 1 && u && u->kind == SB_INTERP_UNDEFINED_NON_UNIFORM_INDEX &&
              u->invocation[0] == 0 && u->invocation[1] == 1024 && u->instruction[1] == offset &&
              u->range_register[0] == 0 && u->range_register[1] == 1,
          "vertices: %llu events; first kind %d invocations %u %u at %u registers %u %u; want one, 0 and 1024 at "
          "%u, t0 and t1", (unsigned long long)t.undefined_events, u ? (int)u->kind : -1, u ? u->invocation[0] : 0,
          u ? u->invocation[1] : 0, u ? u->instruction[1] : 0, u ? u->range_register[0] : 0,
          u ? u->range_register[1] : 0, offset);
    uint32_t unmarked = 0, wrong = 0;
    for (uint32_t i = 0; r == SB_SUCCESS && i < VERTICES; i++) {
        wrong += as_float(out_words[(i * 2 + 1) * 4]) != (i < 1024 ? 10.0f : 11.0f);
        for (uint32_t w = 0; w < 8; w++)
            unmarked += !t.output_undefined || !t.output_undefined[i * 8 + w];
    }
    CHECK(r == SB_SUCCESS && !wrong && !unmarked, "vertices: %u o1.x values wrong, %u output words not marked",
          wrong, unmarked);
    printf("vertices: %llu events\n", (unsigned long long)t.undefined_events);
    sb_interp_tracking_release(&t);
    sb_rt_program_destroy(program);
}

/* `v` (thread or sampled) through sb_validate on seeded inputs: the interpreter's tracked run
 * (CPU side alone, with its evidence) must hold the event; both sides compared must give
 * "undefined" with the reason, or "agree". */
static void check_validate(struct sb_rt_context *context, enum variant v, const char *name)
{
    static struct built b;
    build(v, &b);
    struct sb_rt_program *program = NULL;
    struct sb_error e = { 0 };
    if (sb_rt_program_load(b.container.bytes, b.container.size, NULL, &program, &e) != SB_SUCCESS) {
        CHECK(false, "%s: does not load: %s", name, e.message);
        return;
    }
    struct sb_validate_options cpu = { .inputs = { .seed = 1 }, .sides = SB_VALIDATE_SIDE_CPU, .origins = true };
    struct sb_validate_report *r = NULL;
    enum sb_result res = sb_validate(context, program, &cpu, &r, &e);
    CHECK(res == SB_SUCCESS, "%s (interpreter): %s", name, e.message);
    const struct sb_interp_undefined_event *u = res == SB_SUCCESS && r->tracking.kept ? &r->tracking.events[0] : NULL;
    CHECK(u && u->kind == SB_INTERP_UNDEFINED_NON_UNIFORM_INDEX && u->instruction[1] == b.indexing_offset &&
              u->invocation[0] == 0 && u->invocation[1] == 1 && u->range_register[0] == 0 &&
              u->range_register[1] == 1,
          "%s: first event kind %d at %u invocations %u %u, want non-uniform index at %u, 0 and 1", name,
          u ? (int)u->kind : -1, u ? u->instruction[1] : 0, u ? u->invocation[0] : 0, u ? u->invocation[1] : 0,
          b.indexing_offset);
    sb_validate_report_destroy(r);
    r = NULL;
    struct sb_validate_options both = { .inputs = { .seed = 1 } };
    res = sb_validate(context, program, &both, &r, &e);
    CHECK(res == SB_SUCCESS, "%s: %s", name, e.message);
    if (res == SB_SUCCESS) {
        char want[160];
        snprintf(want, sizeof(want), "the t range from t0 (space 0) is indexed at instruction %u with t0 by "
                 "invocation 0 and t1 by invocation 1", b.indexing_offset);
        CHECK(r->verdict == SB_VALIDATE_AGREE ||
                  (r->verdict == SB_VALIDATE_UNDEFINED && strstr(r->reason, want) &&
                   strstr(r->reason, "mark the index NonUniformResourceIndex")),
              "%s: verdict %s (%s)", name, sb_validate_verdict_name(r->verdict), r->reason);
        printf("%s on the device: %s (%s)\n", name, sb_validate_verdict_name(r->verdict), r->reason);
    }
    sb_validate_report_destroy(r);
    sb_rt_program_destroy(program);
}

int main(void)
{
    check_interpreter(THREAD, "thread");
    check_interpreter(FLAGGED, "flagged");
    check_interpreter(UNIFORM, "uniform");
    check_interpreter(PER_GROUP, "per group");
    check_interpreter(CB_RANGE, "cb range");
    check_interpreter(LOOP, "loop");
    check_vertices();
    struct sb_rt_context *context = NULL;
    struct sb_error error = { 0 };
    struct sb_rt_context_options options = { .validation = true, .allow_cpu_only = true };
    if (sb_rt_context_create(&options, &context, &error) != SB_SUCCESS) {
        printf("FAIL: no context: %s\n", error.message);
        return 1;
    }
    /* Keep lavapipe loaded after the context goes (LeakSanitizer; tests/CMakeLists.txt). */
    (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD);
    if (sb_rt_context_has_device(context)) {
        printf("validate_non_uniform on %s\n", sb_rt_context_device_name(context));
        check_validate(context, THREAD, "thread");
        check_validate(context, SAMPLED, "sampled");
        uint32_t layer_errors = sb_rt_context_validation_errors(context);
        CHECK(layer_errors == 0, "%u validation-layer errors; first: %s", layer_errors,
              sb_rt_context_first_validation_error(context));
    } else {
        printf("no Vulkan device: the interpreter part only\n");
    }
    sb_rt_context_destroy(context);
    printf("%s: %u failures\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
