/* SPDX-License-Identifier: MIT */
/* Shared by the validation files: partner stages and the graphics paths. */
#ifndef SB_RUNTIME_VALIDATE_PRIVATE_H
#define SB_RUNTIME_VALIDATE_PRIVATE_H

#include "inputs_private.h"

/** Kind of a word that is not compared (a component no signature element declares). */
#define SB_RT_WORD_IGNORED 7u

/**
 * The feeder vertex program of pixel module `ps` (partner.c): an attribute per input
 * location/component range the module declares, copied through, the point of vertex i
 * at the centre of pixel (i % width, i / width), and the clip/cull-distance input
 * elements of `ps_ir` (sb_rt_feeder_writes_distance) written with sb_rt_feeder_distance()
 * (a fragment reading a distance the previous stage does not write reads an undefined
 * value); *position_register
 * receives the register of its SV_VertexID input and SV_Position output. Free with
 * sb_rt_partner_destroy().
 */
struct sb_ir_program *sb_rt_feeder_vertex_program(const struct sb_translation *ps, const struct sb_ir_program *ps_ir,
                                                  uint32_t width, uint32_t height, uint32_t *position_register);

/** The clip/cull distance the feeder writes for vertex `vertex` (every distance element,
 *  every component): vertex / 4, exact in float and never negative (nothing is clipped). */
float sb_rt_feeder_distance(uint32_t vertex);

/** Whether input element `e` of pixel program `ps_ir` is a clip or cull distance the
 *  feeder writes (cull distances only when `ps_ir` reads no clip distance: lavapipe 22.3
 *  drops every point whose vertex stage writes both). */
bool sb_rt_feeder_writes_distance(const struct sb_ir_program *ps_ir, const struct sb_ir_signature_element *e);

/**
 * The capture geometry program of vertex program `vs`: stores o0..o(n-1) of each
 * point into structured UAV u`uav` at SV_PrimitiveID, records of n * 16 bytes
 * (*record_registers = n). Free with sb_rt_partner_destroy().
 */
struct sb_ir_program *sb_rt_capture_geometry_program(const struct sb_ir_program *vs, uint32_t uav,
                                                     uint32_t *record_registers);

void sb_rt_partner_destroy(struct sb_ir_program *program);

/** Whether a vertex output element reaches the capture stage (else it is not compared). */
bool sb_rt_capturable_output(const struct sb_ir_signature_element *e);

/** sb_validate for vertex and pixel programs (validate_graphics.c). */
enum sb_result sb_validate_vertex(struct sb_rt_context *context, const struct sb_rt_program *program,
                                  const struct sb_validate_options *options,
                                  struct sb_validate_report *report, struct sb_error *error);
enum sb_result sb_validate_pixel(struct sb_rt_context *context, const struct sb_rt_program *program,
                                 const struct sb_validate_options *options,
                                 struct sb_validate_report *report, struct sb_error *error);

/** CLOCK_MONOTONIC in nanoseconds. */
uint64_t sb_validate_now_ns(void);

/** Fills `error` and returns `code`. */
enum sb_result sb_validate_fail(struct sb_error *error, enum sb_result code, const char *message);

/** Appends `extra` empty resources to `inputs` (for outputs compared like UAVs); false on OOM. */
bool sb_rt_inputs_append(struct sb_rt_inputs *inputs, uint32_t extra);

#endif
