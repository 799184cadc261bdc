/* SPDX-License-Identifier: MIT */
/*
 * What the DXIL front end's known-answer tests share: a writer program
 * (tests/common/dxil_programs*.h) lowered to IR, with its translation checked
 * by SPIRV-Tools on the way; a written program run through sb_validate; the
 * refusal check of a written program.
 * Header-only, as check.h: its CHECKs count into the including test's
 * `failures`; inline, so a test may use either.
 */
#ifndef SB_TEST_DXIL_FRONT_HARNESS_H
#define SB_TEST_DXIL_FRONT_HARNESS_H

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "dxc_container_writer.h"
#include "shaderbridge/dxbc.h"
#include "shaderbridge/interp.h"
#include "shaderbridge/translate.h"
#include "shaderbridge/validate.h"
#include "translator/ir.h"

/**
 * Writes the program, lowers it with sb_ir_from_dxil and, when that succeeds, translates
 * it with sb_translate and validates the SPIR-V (a failure there is a failed CHECK).
 * Returns the IR (the caller destroys it), or NULL with the front end's error in *err.
 */
static inline struct sb_ir_program *dxil_front_lower(bool (*write)(struct tbuf *),
                                                     struct sb_error *err)
{
    struct tbuf b = { 0 };
    struct sb_dxbc *container = NULL;
    struct sb_ir_program *ir = NULL;
    struct sb_translation *t = NULL;
    memset(err, 0, sizeof(*err));
    if (!write(&b)) {
        CHECK(false, "the writer failed");
    } else if (sb_dxbc_parse(b.data, b.size, &container, err) == SB_SUCCESS &&
               sb_ir_from_dxil(container, &ir, err) == SB_SUCCESS) {
        struct sb_error verr;
        enum sb_result r = sb_translate(b.data, b.size, NULL, &t, &verr);
        CHECK(r == SB_SUCCESS, "sb_translate: %s", verr.message);
        if (r == SB_SUCCESS) {
            r = sb_spirv_validate(t->words, t->word_count, SB_TARGET_VULKAN_1_1, &verr);
            CHECK(r == SB_SUCCESS, "spirv-val: %s", verr.message);
        }
    }
    sb_translation_destroy(t);
    sb_dxbc_destroy(container);
    tb_free(&b);
    return ir;
}

/**
 * Checks that the container in `b` (its writer returned `written`) parses and that
 * sb_ir_from_dxil refuses it with SB_ERROR_TRANSLATE_UNSUPPORTED at a byte offset, the
 * message containing `needle`; frees `b`.
 */
static inline void dxil_front_expect_refusal(const char *name, bool written, struct tbuf *b,
                                      const char *needle)
{
    struct sb_dxbc *container = NULL;
    struct sb_ir_program *ir = NULL;
    struct sb_error err = { 0 };
    CHECK(written, "%s: the writer failed", name);
    enum sb_result r = sb_dxbc_parse(b->data, b->size, &container, &err);
    CHECK(r == SB_SUCCESS, "%s: parse: %s", name, err.message);
    if (r == SB_SUCCESS)
        r = sb_ir_from_dxil(container, &ir, &err);
    CHECK(r == SB_ERROR_TRANSLATE_UNSUPPORTED && strstr(err.message, needle) && err.offset > 0,
          "%s: %d at %llu '%s'", name, (int)r, (unsigned long long)err.offset, err.message);
    sb_ir_program_destroy(ir);
    sb_dxbc_destroy(container);
    tb_free(b);
}

/** Checks one side of a dxil_front_validate run: `side` is the report's cpu or gpu inputs
 *  after the run, `side_name` "interpreter" or "device". */
typedef void (*dxil_front_side_check)(const char *name, const char *side_name,
                                      const struct sb_rt_inputs *side, const void *expected);

/**
 * Writes the program, runs it through sb_validate with `provided` (the GPU side too when the
 * context has a device; seed 1, textures texture_size texels wide and high, 0: the default)
 * and hands each side to `check`; with a device the verdict must be agree (or agree within
 * precision when `within_precision`), and the validation layers must stay silent.
 */
static inline void dxil_front_validate(const char *name, bool (*write)(struct tbuf *),
                                       const struct sb_rt_resource *provided,
                                       uint32_t provided_count, uint32_t texture_size,
                                       bool within_precision, dxil_front_side_check check,
                                       const void *expected)
{
    struct sb_error e = { 0 };
    struct sb_rt_context *context = NULL;
    struct sb_rt_context_options options = { .validation = true, .allow_cpu_only = true };
    if (sb_rt_context_create(&options, &context, &e) != SB_SUCCESS) {
        CHECK(false, "no context: %s", e.message);
        return;
    }
    /* Keep lavapipe loaded after the context goes (LeakSanitizer; tests/CMakeLists.txt). */
    (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NOLOAD);
    bool gpu = sb_rt_context_has_device(context);
    struct tbuf b = { 0 };
    struct sb_rt_program *program = NULL;
    struct sb_validate_report *r = NULL;
    if (!write(&b)) {
        CHECK(false, "%s: the writer failed", name);
    } else if (sb_rt_program_load(b.data, b.size, NULL, &program, &e) != SB_SUCCESS) {
        CHECK(false, "%s: does not load: %s", name, e.message);
    } else {
        struct sb_validate_options o = { .inputs = { .seed = 1, .texture_size = texture_size },
                                         .sides = gpu ? 0 : SB_VALIDATE_SIDE_CPU,
                                         .provided_count = provided_count, .provided = provided };
        enum sb_result res = sb_validate(context, program, &o, &r, &e);
        CHECK(res == SB_SUCCESS, "%s: sb_validate: %s", name, e.message);
        if (res == SB_SUCCESS) {
            check(name, "interpreter", r->cpu, expected);
            if (gpu) {
                check(name, "device", r->gpu, expected);
                CHECK(r->verdict == SB_VALIDATE_AGREE ||
                          (within_precision && r->verdict == SB_VALIDATE_AGREE_WITHIN_PRECISION),
                      "%s: verdict %s (%s)", name,
                      sb_validate_verdict_name(r->verdict), r->reason);
            }
            printf("%s: %s\n", name, gpu ? sb_validate_verdict_name(r->verdict)
                                         : "interpreter only (no device)");
        }
    }
    uint32_t layer_errors = sb_rt_context_validation_errors(context);
    CHECK(layer_errors == 0, "%s: %u validation-layer errors; first: %s", name, layer_errors,
          sb_rt_context_first_validation_error(context));
    sb_validate_report_destroy(r);
    sb_rt_program_destroy(program);
    tb_free(&b);
    sb_rt_context_destroy(context);
}

#endif
