/* SPDX-License-Identifier: MIT */
/*
 * Known-answer cases: small cs_5_0 token programs (sm4_asm.h), the buffers
 * and images they read and write, and the values D3D's rules give, computed
 * in C (ka_cases.c, ka_alu.c, ka_double.c). The runner (test_vk_known_answer.c)
 * translates, dispatches on lavapipe and compares; the listing test
 * (test_ka_listing.c) only decodes and disassembles every case, so the
 * assembler is checked even where no Vulkan device or translator exists.
 */
#ifndef SB_TEST_KA_CASES_H
#define SB_TEST_KA_CASES_H

#include <stdbool.h>
#include <stdint.h>

#include "sm4_asm.h"
#include "translator/ir.h"

#define KA_MAX_DWORDS 1024
#define KA_MAX_RESOURCES 4

/* What a register is backed by. */
enum ka_kind {
    KA_BUFFER,        /**< raw/structured UAV or SRV, cbuffer: a plain buffer */
    KA_TEXEL_BUFFER,  /**< typed buffer: a buffer view of `format` */
    KA_IMAGE,         /**< 2D RGBA32F texture (width x height texels in `init`) */
    KA_SAMPLER,       /**< the sampler of the case's image */
};

/* How the read-back is compared. */
enum ka_compare {
    KA_EXACT,         /**< bit-exact dwords; an expected NaN matches any NaN */
    KA_ULPS,          /**< floats within `ulps` units in the last place */
    KA_MULTISET,      /**< the same dwords in any order (atomics' return values) */
};

struct ka_resource {
    uint32_t resource_class;   /**< enum sb_ir_resource_class */
    uint32_t reg;
    enum ka_kind kind;
    uint32_t format;           /**< VkFormat of texel buffers and images (0: R32_UINT / RGBA32F) */
    uint32_t width, height;    /**< images */
    uint32_t depth, layers, mips; /**< images (0 = 1) */
    uint32_t view_type;        /**< images: VkImageViewType (0 = 1D, so set it) */
    uint32_t dwords;           /**< size */
    uint32_t init[KA_MAX_DWORDS];
    bool check;                /**< compare after the dispatch */
    enum ka_compare compare;
    uint32_t ulps;
    uint32_t check_from, check_count; /**< the dword range compared */
    uint32_t expect[KA_MAX_DWORDS];
};

struct ka_case {
    char name[48];
    struct sm4_program program;
    uint32_t groups;           /**< dispatch (groups, 1, 1) */
    uint32_t resource_count;
    struct ka_resource res[KA_MAX_RESOURCES];
};

/** Number of cases. */
uint32_t ka_case_count(void);
/** Builds case `index` into *c (large: keep it static). */
void ka_case_build(uint32_t index, struct ka_case *c);

/* Helpers shared by the case files. */
struct ka_resource *ka_add(struct ka_case *c, uint32_t cls, uint32_t reg, enum ka_kind kind,
                           uint32_t dwords);
uint32_t ka_f(float f);
float ka_asf(uint32_t u);
uint64_t ka_d(double d);
double ka_asd(uint64_t u);

/* ALU cases (ka_alu.c): count and builder. */
uint32_t ka_alu_count(void);
void ka_alu_build(uint32_t index, struct ka_case *c);

/* Double-rule cases (ka_double.c: _sat, lane mapping per write mask): count and builder. */
uint32_t ka_double_count(void);
void ka_double_build(uint32_t index, struct ka_case *c);

#endif
