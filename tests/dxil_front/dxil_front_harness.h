/* SPDX-License-Identifier: MIT */
/*
 * What the DXIL front end's known-answer tests share: a writer program
 * (tests/common/dxil_programs*.h) lowered to IR, with its translation checked
 * by SPIRV-Tools on the way. Header-only, as check.h: its CHECKs count into the
 * including test's `failures`.
 */
#ifndef SB_TEST_DXIL_FRONT_HARNESS_H
#define SB_TEST_DXIL_FRONT_HARNESS_H

#include <stdbool.h>
#include <string.h>

#include "check.h"
#include "dxc_container_writer.h"
#include "shaderbridge/dxbc.h"
#include "shaderbridge/translate.h"
#include "translator/ir.h"

/**
 * Writes the program, lowers it with sb_ir_from_dxil and, when that succeeds, translates
 * it with sb_translate and validates the SPIR-V (a failure there is a failed CHECK).
 * Returns the IR (the caller destroys it), or NULL with the front end's error in *err.
 */
static struct sb_ir_program *dxil_front_lower(bool (*write)(struct tbuf *), struct sb_error *err)
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

#endif
