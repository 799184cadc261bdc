/* SPDX-License-Identifier: MIT */
/*
 * Builds the `struct sb_translation` report (stage, bindings, interface,
 * built-ins, control points) for a SPIR-V module that another translator
 * wrote, by reading the module's entry point, decorations, types and names
 * (vk_spirv_reflect.c). The pipeline and known-answer tests use it in their
 * --peer-dir modes, which run a peer's output (e.g. vkd3d-compiler) through
 * the same harness: a cross-check of the harness and of the expected values
 * that does not depend on our translator.
 */
#ifndef SB_TEST_VK_SPIRV_REFLECT_H
#define SB_TEST_VK_SPIRV_REFLECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shaderbridge/translate.h"

#define VKR_MAX_BINDINGS 128
#define VKR_MAX_VARS 64
#define VKR_MAX_BUILTINS 32

/** Arrays the filled translation points into. */
struct vkr_storage {
    struct sb_translated_binding bindings[VKR_MAX_BINDINGS];
    struct sb_translated_interface inputs[VKR_MAX_VARS], outputs[VKR_MAX_VARS];
    uint32_t builtin_inputs[VKR_MAX_BUILTINS], builtin_outputs[VKR_MAX_BUILTINS];
    char entry[64];
};

/**
 * Fills *t (pointing into *s and `words`) from the module. Bindings take
 * their register from OpName ("cb0", "t3_0", "u1", "s2"): class and
 * register; a binding whose name says neither is reported as class 0xFF.
 * Returns false when the module cannot be read.
 */
bool vkr_translation_from_spirv(const uint32_t *words, size_t count, struct vkr_storage *s,
                                struct sb_translation *t);

/**
 * Checks a translation's report against its own module: every binding
 * (set, binding, descriptor type), interface entry (location, component,
 * component count and type, per-vertex array size, patch) and built-in the
 * module declares must be reported, and nothing else. Returns true when they
 * agree; otherwise writes the first difference to `why`.
 */
bool vkr_check_report(const struct sb_translation *t, char *why, size_t why_size);

#endif
