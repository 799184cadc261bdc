/* SPDX-License-Identifier: MIT */
/*
 * The DXIL front end's hull and domain shaders (translator/src/dxil/
 * ir_from_dxil_tessellation.c) on the programs of tests/common/dxil_programs_tess.h:
 * each translated through sb_translate + SPIRV-Tools validation, its IR checked
 * for the shape the SM4 front end gives hs_5_0/ds_5_0 (phases, tessellator state,
 * patch-constant elements with fxc's tess-factor names), and run on the CPU
 * interpreter's hull and domain stages against hand-computed answers; then the two
 * chained through the interpreter's tessellator; `validate` runs the three through
 * sb_validate on the Vulkan device (lavapipe), which must agree word for word with the
 * interpreter (77 without a device). `corpus CORPUS_DIR` counts the
 * corpus's hull and domain programs, their tessellation dx.op uses and how many of
 * them translate (spirv-val clean), naming each refusal.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dxil_front_harness.h"
#include "corpus_dxil.h"
#include "corpus_list.h"
#include "dxil_programs_tess.h"
#include "reflect/bitcode.h"
#include "shaderbridge/dxbc.h"
#include "shaderbridge/dxbc_dxil.h"
#include "shaderbridge/interp.h"
#include "shaderbridge/translate.h"
#include "shaderbridge/validate.h"
#include "translator/dxil_opcodes.h"
#include "translator/ir.h"

static uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Writes the program, checks its SPIR-V and returns its IR (NULL on failure). */
static struct sb_ir_program *lower(bool (*write)(struct tbuf *))
{
    struct sb_error err;
    struct sb_ir_program *ir = dxil_front_lower(write, &err); /* dxil_front_harness.h */
    CHECK(ir != NULL, "front end: %s (offset %llu)", err.message, (unsigned long long)err.offset);
    return ir;
}

/* The signature element of `kind` in `file` at register `reg` with lane mask `mask`. */
static const struct sb_ir_signature_element *element(const struct sb_ir_program *ir,
                                                     uint32_t kind, uint32_t file, uint32_t reg,
                                                     uint8_t mask)
{
    for (uint32_t i = 0; i < ir->signature_count; i++) {
        const struct sb_ir_signature_element *e = &ir->signature[i];
        if (e->kind == kind && e->file == file && e->register_index == reg && e->mask == mask)
            return e;
    }
    return NULL;
}

/* The patch constants both programs share (dxil_programs_tess.h): the tess factors with
 * fxc's dcl_output_siv names (finalTriUeq0/Veq0/Weq0EdgeTessFactor 17-19 in o0.w-o2.w,
 * finalTriInsideTessFactor 20 in o3.x) and CORNER in o0.xy, all in `file`. */
static void check_patch_elements(const struct sb_ir_program *ir, uint32_t file)
{
    static const struct { uint32_t reg; uint8_t mask; uint32_t system_value; } want[5] = {
        { 0, 0x8, 17 }, { 1, 0x8, 18 }, { 2, 0x8, 19 }, { 3, 0x1, 20 }, { 0, 0x3, 0 },
    };
    for (unsigned i = 0; i < 5; i++) {
        const struct sb_ir_signature_element *e =
            element(ir, SB_IR_SIGNATURE_PATCH, file, want[i].reg, want[i].mask);
        CHECK(e && e->system_value == want[i].system_value,
              "patch element %u (register %u mask 0x%x): %s, system value %u", i, want[i].reg,
              want[i].mask, e ? "found" : "missing", e ? e->system_value : 0);
    }
}

/* Input control point k of the test patch: POSITION = (4, 8, 0, 1), (8, 0, 4, 1),
 * (0, 4, 8, 1). */
static const float POSITIONS[3][4] = { { 4, 8, 0, 1 }, { 8, 0, 4, 1 }, { 0, 4, 8, 1 } };

/* Runs the hull program on the test patch with cb0[0] = `factors`; the results hold
 * 3 control points of 1 register and 4 registers of patch constants. */
static bool run_hull(const struct sb_ir_program *hs, const float factors[4], uint32_t cp_out[12],
                     uint32_t patch_out[16], struct sb_interp_tess_factors *processed)
{
    uint32_t cb[4], in_words[12];
    for (unsigned i = 0; i < 4; i++)
        cb[i] = f2u(factors[i]);
    for (unsigned i = 0; i < 12; i++)
        in_words[i] = f2u(POSITIONS[i / 4][i % 4]);
    struct sb_rt_resource cb0 = { .resource_class = SB_IR_RESOURCE_CBV, .register_index = 0,
                                  .data = cb, .size = sizeof(cb), .layers = 1, .mip_levels = 1,
                                  .sample_count = 1 };
    struct sb_interp_registers inputs = { 1, in_words };
    struct sb_interp_hull_results results = {
        .control_points = { 1, cp_out }, .patch_constants = { 4, patch_out },
        .factors = processed,
    };
    struct sb_error err;
    enum sb_result r = sb_interp_run_hull(hs, &cb0, 1, 1, &inputs, &results, NULL, NULL, &err);
    CHECK(r == SB_SUCCESS, "run_hull: %s", err.message);
    return r == SB_SUCCESS;
}

static void check_hull_run(const struct sb_ir_program *hs);

/* The hull shader: two functions (control-point phase, one fork phase of one instance),
 * HSState as the tessellator declarations, and on the interpreter: control points copied
 * through, the factors 2, 3, 4 / 5 from cb0, CORNER = (ocp[2].y, icp[1].x) = (4, 8)
 * (check_hull_run). */
static void test_hs_tri(void)
{
    struct sb_ir_program *hs = lower(dxil_program_hs_tri);
    if (!hs)
        return;
    CHECK(hs->stage == SB_IR_STAGE_HULL && hs->function_count == 2 &&
              hs->first_fork_phase == 1 && hs->fork_phase_count == 1 &&
              hs->join_phase_count == 0 && hs->functions[1].instance_count == 1,
          "stage %u, %u functions, fork phases %u from %u, join phases %u", hs->stage,
          hs->function_count, hs->fork_phase_count, hs->first_fork_phase,
          hs->join_phase_count);
    CHECK(hs->input_control_points == 3 && hs->output_control_points == 3 &&
              hs->tess_domain == 2 && hs->tess_partitioning == 1 &&
              hs->tess_output_primitive == 3 && hs->max_tess_factor == 16.0f,
          "control points %u/%u, domain %u, partitioning %u, primitive %u, max %g",
          hs->input_control_points, hs->output_control_points, hs->tess_domain,
          hs->tess_partitioning, hs->tess_output_primitive, (double)hs->max_tess_factor);
    check_patch_elements(hs, SB_IR_FILE_OUTPUT);
    const struct sb_ir_signature_element *in =
        element(hs, SB_IR_SIGNATURE_INPUT, SB_IR_FILE_INPUT, 0, 0xF);
    CHECK(in && in->array_size == 3, "POSITION input: %s, array %u", in ? "found" : "missing",
          in ? in->array_size : 0);
    CHECK(element(hs, SB_IR_SIGNATURE_INPUT, SB_IR_FILE_OUTPUT_CONTROL_POINT_ID, 0, 0x1) != NULL,
          "vOutputControlPointID is not declared");
    check_hull_run(hs);
    sb_ir_program_destroy(hs);
}

/* The null entry function: an empty control-point phase (D3D's pass-through, which the
 * interpreter and the back end run as such), the fork phase as in hs_tri, and the same
 * results on the interpreter. */
static void test_hs_pass_through(void)
{
    struct sb_ir_program *hs = lower(dxil_program_hs_pass_through);
    if (!hs)
        return;
    CHECK(hs->function_count == 2 && hs->functions[0].instruction_count == 0 &&
              hs->functions[1].instruction_count > 0 && hs->fork_phase_count == 1,
          "%u functions, %u and %u instructions", hs->function_count,
          hs->function_count ? hs->functions[0].instruction_count : 0,
          hs->function_count > 1 ? hs->functions[1].instruction_count : 0);
    check_hull_run(hs);
    sb_ir_program_destroy(hs);
}

/* hs_tri's results with cb0 = (2, 3, 4, 5): control points copied, o0 = (CORNER.x,
 * CORNER.y, 0, edge 0) = (ocp[2].y, icp[1].x, 0, 2) = (4, 8, 0, 2), o1.w = 3, o2.w = 4,
 * o3.x = 5; segments 2, 3, 4 / 5. */
static void check_hull_run(const struct sb_ir_program *hs)
{
    static const float factors[4] = { 2, 3, 4, 5 };
    uint32_t cp[12], patch[16];
    struct sb_interp_tess_factors processed;
    if (run_hull(hs, factors, cp, patch, &processed)) {
        for (unsigned i = 0; i < 12; i++)
            CHECK(cp[i] == f2u(POSITIONS[i / 4][i % 4]), "control point %u lane %u: 0x%08x",
                  i / 4, i % 4, cp[i]);
        static const float expected[16] = { 4, 8, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 5, 0, 0, 0 };
        for (unsigned i = 0; i < 16; i++)
            CHECK(patch[i] == f2u(expected[i]), "patch constant o%u lane %u: 0x%08x", i / 4,
                  i % 4, patch[i]);
        CHECK(!processed.culled && processed.edge_segments[0] == 2 &&
                  processed.edge_segments[1] == 3 && processed.edge_segments[2] == 4 &&
                  processed.inside_segments[0] == 5,
              "processed factors: culled %d, edges %u %u %u, inside %u", processed.culled,
              processed.edge_segments[0], processed.edge_segments[1],
              processed.edge_segments[2], processed.inside_segments[0]);
    }
}

/* The domain shader: DSState, vpc# patch elements, vDomain.xyz, vPrim; at (u, v, w) =
 * (0.25, 0.5, 0.25) of patch 0 the position is 0.25*(4,8,0,1) + 0.5*(8,0,4,1) +
 * 0.25*(0,4,8,1) = (5, 3, 4, 1), at (0, 0, 1) of patch 1 its p2 (the patches are alike);
 * TEXCOORD0 = (inside, CORNER.y) = (7, 0.5); PRIM = the patch, 0 and 1. */
static void test_ds_tri(void)
{
    struct sb_ir_program *ds = lower(dxil_program_ds_tri);
    if (!ds)
        return;
    CHECK(ds->stage == SB_IR_STAGE_DOMAIN && ds->function_count == 1 &&
              ds->input_control_points == 3 && ds->tess_domain == 2,
          "stage %u, %u functions, %u control points, domain %u", ds->stage,
          ds->function_count, ds->input_control_points, ds->tess_domain);
    check_patch_elements(ds, SB_IR_FILE_INPUT_PATCH_CONSTANT);
    CHECK(element(ds, SB_IR_SIGNATURE_INPUT, SB_IR_FILE_DOMAIN_POINT, 0, 0x7) != NULL &&
              element(ds, SB_IR_SIGNATURE_INPUT, SB_IR_FILE_PRIMITIVE_ID, 0, 0x1) != NULL,
          "vDomain.xyz or vPrim is not declared");

    uint32_t cp[2 * 12], patch[2 * 16] = { 0 }, out[2 * 12];
    for (unsigned i = 0; i < 2 * 12; i++)
        cp[i] = f2u(POSITIONS[i % 12 / 4][i % 4]);
    for (unsigned p = 0; p < 2; p++) {
        patch[p * 16 + 1] = f2u(0.5f);  /* CORNER.y in o0.y */
        patch[p * 16 + 12] = f2u(7.0f); /* SV_InsideTessFactor in o3.x */
    }
    for (unsigned i = 0; i < 2 * 12; i++)
        out[i] = 0xAAAAAAAAu;
    static const float points[6] = { 0.25f, 0.5f, 0.25f, 0, 0, 1 };
    static const uint32_t patch_of[2] = { 0, 1 };
    struct sb_interp_registers control_points = { 1, cp }, patch_constants = { 4, patch };
    struct sb_interp_registers outputs = { 3, out };
    struct sb_error err;
    enum sb_result r = sb_interp_run_domain(ds, NULL, 0, 2, patch_of, points, 2, &control_points,
                                            &patch_constants, &outputs, NULL, NULL, &err);
    CHECK(r == SB_SUCCESS, "run_domain: %s", err.message);
    static const float expected[2][6] = { { 5, 3, 4, 1, 7, 0.5f }, { 0, 4, 8, 1, 7, 0.5f } };
    for (unsigned p = 0; r == SB_SUCCESS && p < 2; p++) {
        const uint32_t *o = &out[p * 12];
        for (unsigned c = 0; c < 6; c++)
            CHECK(o[c] == f2u(expected[p][c]), "point %u output lane %u: 0x%08x", p, c, o[c]);
        CHECK(o[6] == 0xAAAAAAAAu && o[7] == 0xAAAAAAAAu, "point %u: o1.zw written", p);
        CHECK(o[8] == p, "point %u: PRIM %u", p, o[8]);
    }
    sb_ir_program_destroy(ds);
}

/* Hull -> tessellator -> domain on the interpreter: all factors 1 tessellate the tri
 * into itself (3 points, the corners), where the domain shader returns the three
 * control points and TEXCOORD0 (inside 1, CORNER.y 8). */
static void test_pipeline(void)
{
    struct sb_ir_program *hs = lower(dxil_program_hs_tri), *ds = lower(dxil_program_ds_tri);
    static const float ones[4] = { 1, 1, 1, 1 };
    uint32_t cp[12], patch[16];
    struct sb_interp_tess_factors processed;
    if (hs && ds && run_hull(hs, ones, cp, patch, &processed)) {
        struct sb_interp_tess_input tess = {
            .domain = SB_INTERP_TESS_TRI, .partitioning = SB_INTERP_TESS_INTEGER,
            .output_primitive = SB_INTERP_TESS_TRIANGLE_CW, .max_factor = 16.0f,
        };
        for (unsigned e = 0; e < 3; e++)
            memcpy(&tess.edge[e], &patch[e * 4 + 3], 4);
        memcpy(&tess.inside[0], &patch[12], 4);
        struct sb_interp_tess_output points;
        memset(&points, 0, sizeof(points));
        struct sb_error err;
        enum sb_result r = sb_interp_tessellate_patch(&tess, &points, &err);
        CHECK(r == SB_SUCCESS && points.point_count == 3 && points.components == 3,
              "tessellation: %d, %u points", (int)r, points.point_count);
        if (r == SB_SUCCESS && points.point_count == 3) {
            uint32_t out[3 * 12] = { 0 }, patch_of[3] = { 0, 0, 0 };
            struct sb_interp_registers control_points = { 1, cp }, patch_constants = { 4, patch };
            struct sb_interp_registers outputs = { 3, out };
            r = sb_interp_run_domain(ds, NULL, 0, 3, patch_of, points.points, 1, &control_points,
                                     &patch_constants, &outputs, NULL, NULL, &err);
            CHECK(r == SB_SUCCESS, "run_domain: %s", err.message);
            /* Each corner (one of u, v, w is 1) lands on its control point. */
            for (unsigned p = 0; r == SB_SUCCESS && p < 3; p++) {
                const float *uvw = &points.points[p * 3];
                unsigned k = uvw[0] == 1.0f ? 0 : uvw[1] == 1.0f ? 1 : 2;
                for (unsigned c = 0; c < 4; c++)
                    CHECK(out[p * 12 + c] == f2u(POSITIONS[k][c]), "point %u lane %u: 0x%08x", p,
                          c, out[p * 12 + c]);
                CHECK(out[p * 12 + 4] == f2u(1.0f) && out[p * 12 + 5] == f2u(8.0f),
                      "point %u: TEXCOORD0 = (0x%08x, 0x%08x), expected (1, CORNER.y 8)", p,
                      out[p * 12 + 4], out[p * 12 + 5]);
            }
        }
        sb_interp_tess_release(&points);
    }
    sb_ir_program_destroy(hs);
    sb_ir_program_destroy(ds);
}

/* A patch-constant store in the control-point function is an invalid program: refused
 * with SB_ERROR_TRANSLATE_INVALID at the call's byte offset, naming the phase. */
static void test_refusal(void)
{
    struct tbuf b = { 0 };
    struct sb_dxbc *container = NULL;
    struct sb_ir_program *ir = NULL;
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    CHECK(dxil_program_hs_misplaced_store(&b), "the writer failed");
    enum sb_result r = sb_dxbc_parse(b.data, b.size, &container, &err);
    CHECK(r == SB_SUCCESS, "parse: %s", err.message);
    if (r == SB_SUCCESS)
        r = sb_ir_from_dxil(container, &ir, &err);
    CHECK(r == SB_ERROR_TRANSLATE_INVALID && ir == NULL, "result %d", (int)r);
    CHECK(strstr(err.message, "dx.op StorePatchConstant (106) in a control-point function") != NULL,
          "message '%s'", err.message);
    CHECK(err.offset > 0 && err.offset < b.size, "offset %llu of %zu bytes",
          (unsigned long long)err.offset, b.size);
    sb_ir_program_destroy(ir);
    sb_dxbc_destroy(container);
    tb_free(&b);
}

/* ---- GPU against the interpreter ------------------------------------------------------ */

static int validate_programs(void)
{
    struct sb_rt_context *ctx = NULL;
    struct sb_error e;
    memset(&e, 0, sizeof(e));
    struct sb_rt_context_options co = { .validation = true };
    if (sb_rt_context_create(&co, &ctx, &e) != SB_SUCCESS) {
        printf("SKIPPED: no Vulkan device: %s\n", e.message);
        return 77;
    }
    /* One more reference to the already loaded driver, so it outlives the context: its
     * compiler caches then stay mapped until LeakSanitizer looks (sanitizer builds). */
    (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD);
    static const struct {
        const char *name;
        bool (*write)(struct tbuf *);
    } programs[3] = {
        { "hs_tri", dxil_program_hs_tri },
        { "hs_pass_through", dxil_program_hs_pass_through },
        { "ds_tri", dxil_program_ds_tri },
    };
    for (unsigned i = 0; i < 3; i++) {
        struct tbuf b = { 0 };
        struct sb_rt_program *program = NULL;
        struct sb_validate_report *report = NULL;
        struct sb_validate_options o = { .inputs = { .seed = 1 } };
        enum sb_result r = programs[i].write(&b) ? sb_rt_program_load(b.data, b.size, NULL,
                                                                      &program, &e)
                                                 : SB_ERROR_INVALID_ARGUMENT;
        if (r == SB_SUCCESS)
            r = sb_validate(ctx, program, &o, &report, &e);
        CHECK(r == SB_SUCCESS, "%s: %s", programs[i].name, e.message);
        if (r == SB_SUCCESS) {
            printf("%s: verdict %d, %llu words compared, %llu differ\n", programs[i].name,
                   (int)report->verdict, (unsigned long long)report->words_compared,
                   (unsigned long long)report->mismatch_count);
            CHECK(report->verdict == SB_VALIDATE_AGREE && report->mismatch_count == 0 &&
                      report->words_compared > 0,
                  "%s: the device and the interpreter disagree", programs[i].name);
        }
        sb_validate_report_destroy(report);
        sb_rt_program_destroy(program);
        tb_free(&b);
    }
    CHECK(sb_rt_context_validation_errors(ctx) == 0, "validation-layer errors: %s",
          sb_rt_context_first_validation_error(ctx));
    sb_rt_context_destroy(ctx);
    return failures ? 1 : 0;
}

/* ---- corpus census ----------------------------------------------------------------- */

struct census {
    uint32_t files[2], translated[2];   /* [0] hull, [1] domain */
    uint32_t uses[2], translated_uses[2];
    uint32_t invalid_spirv;
};

/* The dx.ops of the concern, listed here on their own so the count does not take the
 * front end's word for what it covers. */
static bool tessellation_op(uint64_t opcode)
{
    static const uint32_t ops[8] = {
        SB_DXIL_OP_LOAD_INPUT, SB_DXIL_OP_STORE_OUTPUT, SB_DXIL_OP_LOAD_OUTPUT_CONTROL_POINT,
        SB_DXIL_OP_LOAD_PATCH_CONSTANT, SB_DXIL_OP_STORE_PATCH_CONSTANT,
        SB_DXIL_OP_DOMAIN_LOCATION, SB_DXIL_OP_OUTPUT_CONTROL_POINT_ID, SB_DXIL_OP_PRIMITIVE_ID,
    };
    for (unsigned i = 0; i < 8; i++)
        if (opcode == ops[i])
            return true;
    return false;
}

/* The hull/domain signature and system-value dx.op calls in every function body. */
static uint32_t count_uses(const struct sb_bc_module *m)
{
    uint32_t uses = 0;
    for (uint32_t f = 0; f < m->function_count; f++) {
        const struct sb_bc_function *fn = &m->functions[f];
        for (uint32_t i = 0; i < fn->instruction_count; i++) {
            const struct sb_bc_instruction *in = &fn->instructions[i];
            const struct sb_bc_function *callee =
                in->opcode == SB_BC_OP_CALL ? sb_bc_callee(m, fn, in) : NULL;
            const struct sb_bc_constant *c =
                callee && callee->name && !strncmp(callee->name, "dx.op.", 6) &&
                        in->operand_count > 1
                    ? sb_bc_constant_get(m, fn, in->operands[1])
                    : NULL;
            uses += c && c->kind == SB_BC_CONST_INTEGER && tessellation_op(c->bits);
        }
    }
    return uses;
}

static void census_one(const char *path, const char *relative, void *user)
{
    struct census *c = user;
    struct corpus_dxil d;
    struct sb_error err;
    memset(&err, 0, sizeof(err));
    bool read = corpus_dxil_open(path, &d);
    uint32_t kind = read && d.part->decoded.program ? d.part->decoded.program->shader_kind : 0;
    if (kind == SB_DXIL_SHADER_KIND_HULL || kind == SB_DXIL_SHADER_KIND_DOMAIN) {
        unsigned s = kind == SB_DXIL_SHADER_KIND_DOMAIN;
        uint32_t uses = count_uses(d.module);
        c->files[s]++;
        c->uses[s] += uses;
        struct sb_translation *t = NULL;
        if (sb_translate(d.bytes, d.size, NULL, &t, &err) != SB_SUCCESS) {
            printf("  refused %s: %s (offset %llu)\n", relative, err.message,
                   (unsigned long long)err.offset);
        } else if (sb_spirv_validate(t->words, t->word_count, SB_TARGET_VULKAN_1_1, &err) !=
                   SB_SUCCESS) {
            printf("  INVALID SPIR-V %s: %s\n", relative, err.message);
            c->invalid_spirv++;
        } else {
            c->translated[s]++;
            c->translated_uses[s] += uses;
        }
        sb_translation_destroy(t);
    }
    corpus_dxil_close(&d);
}

static int corpus(const char *dir)
{
    struct census c;
    memset(&c, 0, sizeof(c));
    if (corpus_manifest_each(dir, "dxil", census_one, &c) < 0) {
        printf("SKIPPED: %s/dxil/MANIFEST.tsv not found\n", dir);
        return 77;
    }
    static const char *const names[2] = { "hull", "domain" };
    for (unsigned s = 0; s < 2; s++)
        printf("dxil_front_tess_corpus: %s: %u of %u files translated (spirv-val clean); "
               "%u of %u tessellation dx.op uses in translated files\n",
               names[s], c.translated[s], c.files[s], c.translated_uses[s], c.uses[s]);
    CHECK(c.invalid_spirv == 0, "%u translations are not valid SPIR-V", c.invalid_spirv);
    CHECK(c.files[0] + c.files[1] > 0, "no hull or domain program in the corpus");
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "all";
    bool all = !strcmp(which, "all");
    if (!strcmp(which, "corpus"))
        return argc > 2 ? corpus(argv[2]) : 2;
    if (!strcmp(which, "validate"))
        return validate_programs();
    if (all || !strcmp(which, "hs_tri"))
        test_hs_tri();
    if (all || !strcmp(which, "hs_pass_through"))
        test_hs_pass_through();
    if (all || !strcmp(which, "ds_tri"))
        test_ds_tri();
    if (all || !strcmp(which, "pipeline"))
        test_pipeline();
    if (all || !strcmp(which, "refusal"))
        test_refusal();
    if (failures)
        fprintf(stderr, "%u check(s) failed\n", failures);
    return failures ? 1 : 0;
}
