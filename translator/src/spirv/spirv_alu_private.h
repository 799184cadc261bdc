/* SPDX-License-Identifier: MIT */
/*
 * Internals of the ALU files of the SPIR-V back end, callers above helpers:
 * spirv_alu.c (float ops, dispatch of every ALU op) -> spirv_alu_double.c,
 * spirv_alu_int64.c -> spirv_alu_int.c -> spirv_alu_util.c (checks, splat, pick, NoContraction).
 */
#ifndef SHADERBRIDGE_SPIRV_ALU_PRIVATE_H
#define SHADERBRIDGE_SPIRV_ALU_PRIVATE_H

#include "spirv_private.h"

/** Records INVALID unless `inst` has at least `dsts` destinations and `srcs` sources. */
bool sb_spv_alu_check(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                      uint32_t dsts, uint32_t srcs);
/**
 * The start of an op on 64-bit values (doubles, 64-bit integers): checks for one destination
 * and `srcs` sources and counts the values it writes: lane pairs of the mask (`pairs`, 64-bit
 * results) or its lanes (32-bit results, one per 64-bit source value: more than two records
 * INVALID). 0 when there is nothing to write or on failure (ctx->result says which).
 */
uint32_t sb_spv_alu_wide_count(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst, uint32_t srcs,
                               bool pairs);
/** ctx->result, turning a builder allocation failure into OUT_OF_MEMORY. */
enum sb_result sb_spv_alu_done(struct sb_spv_context *ctx);
/** NoContraction on `id` when `inst` is precise. */
void sb_spv_alu_precise(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst, uint32_t id);
/** A vector of `n` copies of `scalar` (the scalar itself for n = 1). */
uint32_t sb_spv_alu_splat(struct sb_spv_context *ctx, uint32_t scalar, uint32_t ir_type, uint32_t n);
/**
 * From a value holding the lanes of `have_mask` (in lane order), the lanes of
 * `want_mask` (a subset), as a vector or scalar of `ir_type`.
 */
uint32_t sb_spv_alu_pick(struct sb_spv_context *ctx, uint32_t value, uint32_t have_mask,
                         uint32_t want_mask, uint32_t ir_type);
/**
 * Saturating float/double -> int/uint conversion (D3D ftoi/ftou/dtoi/dtou):
 * `value` is `n` lanes of `float_type` (FLOAT or DOUBLE); NaN -> 0.
 */
uint32_t sb_spv_alu_float_to_int(struct sb_spv_context *ctx, uint32_t value, uint32_t float_type,
                                 uint32_t n, bool is_signed);
/** Integer/bit/conversion specials; UNSUPPORTED-unrecorded for other ops. */
enum sb_result sb_spv_alu_int_instruction(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst);
/** 64-bit ops; UNSUPPORTED-unrecorded for other ops. */
enum sb_result sb_spv_alu_double_instruction(struct sb_spv_context *ctx,
                                             const struct sb_ir_instruction *inst);

/** 64-bit integer ops (I64ADD ... DTOU64); UNSUPPORTED-unrecorded for other ops. */
enum sb_result sb_spv_alu_int64_instruction(struct sb_spv_context *ctx,
                                            const struct sb_ir_instruction *inst);

#endif
