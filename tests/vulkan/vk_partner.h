/* SPDX-License-Identifier: MIT */
/*
 * Minimal partner stages for pipeline tests: SPIR-V written directly in C
 * (no GLSL compiler at test time) for a vertex, tessellation control,
 * tessellation evaluation or fragment shader whose interface is given as a
 * list of variables. A partner only declares what its neighbour reads or
 * writes and stores zeros; it exists so a translated stage can be put in a
 * complete graphics pipeline and the validation layer can check the
 * interface between them.
 */
#ifndef SB_TEST_VK_PARTNER_H
#define SB_TEST_VK_PARTNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "translator/ir.h"

/** Component types; the numbers are enum sb_ir_type's FLOAT, INT, UINT. */
enum vkp_type { VKP_FLOAT = 1, VKP_INT = 2, VKP_UINT = 3 };

/** Stages, in pipeline order. */
enum vkp_stage { VKP_VERTEX, VKP_TESS_CONTROL, VKP_TESS_EVAL, VKP_GEOMETRY, VKP_FRAGMENT };

/** One Input or Output variable of the partner. */
struct vkp_var {
    uint32_t location;
    uint32_t component;   /**< Component decoration (0 = none) */
    uint32_t count;       /**< 1-4 */
    uint32_t type;        /**< enum vkp_type */
    uint32_t array_size;  /**< per-vertex array (TCS outputs, TES inputs); 0 = none */
    bool patch;           /**< Patch decoration (TCS outputs, TES inputs) */
};

/** What to generate. */
struct vkp_stage_desc {
    enum vkp_stage stage;
    uint32_t input_count;
    const struct vkp_var *inputs;
    uint32_t output_count;
    const struct vkp_var *outputs;
    uint32_t output_vertices;  /**< TCS: OutputVertices (and per-vertex output array size) */
    uint32_t mode_count;       /**< extra operand-less execution modes (SpvExecutionMode) */
    uint32_t modes[8];
};

/** A generated module: malloc'd words, or error text. */
struct vkp_module {
    uint32_t *words;
    size_t word_count;
    char error[128];
};

/** Generates the module; false with m->error set on a bad description or OOM. */
bool vkp_build(const struct vkp_stage_desc *desc, struct vkp_module *m);
void vkp_free(struct vkp_module *m);

#endif
