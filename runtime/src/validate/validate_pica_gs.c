/* SPDX-License-Identifier: MIT */
/*
 * Inputs and validation of PICA200 geometry-shader programs (the compute expansion of
 * pica_gs.c; runtime/README.md "PICA200"). The expansion reads its primitives from t0 and
 * writes its vertices to u0, so the seeded inputs are the uniform buffer of a vertex
 * shader plus those two buffers sized for the draw; validation runs the one thread on the
 * interpreter and on the device and compares u0 bit for bit (validate.c: PICA programs).
 */
#include "inputs_private.h"
#include "validate_pica.h"
#include "validate_private.h"

#include <stdlib.h>
#include <string.h>

#include "shaderbridge/shbin.h"
#include "translator/ir.h"

#define MAX_BUFFER_BYTES (32u << 20)

static enum sb_result run_fail(struct sb_error *error, enum sb_result code, const char *message)
{
    return sb_validate_fail(error, code, message);
}

/* Replaces resource `i`'s data by `size` zeroed bytes with per-word kinds. */
static bool resize(struct sb_rt_inputs *in, uint32_t i, size_t size)
{
    void *data = calloc(size, 1);
    uint8_t *kinds = calloc(size / 4, 1);
    if (!data || !kinds) {
        free(data);
        free(kinds);
        return false;
    }
    free(in->resources[i].data);
    free(in->word_kinds[i]);
    in->resources[i].data = data;
    in->resources[i].size = size;
    in->resources[i].width = (uint32_t)(size / 4);
    in->word_kinds[i] = kinds;
    return true;
}

static int find(const struct sb_rt_inputs *in, uint32_t resource_class, uint32_t reg)
{
    for (uint32_t i = 0; i < in->count; i++)
        if (in->resources[i].resource_class == resource_class && in->resources[i].register_index == reg)
            return (int)i;
    return -1;
}

/* t0: header + seeded records (variable mode: vector 0 = the vertex count, 1-8). */
static void fill_records(struct sb_rt_inputs *in, uint32_t i, const struct sb_rt_pica_gs *gs, uint32_t primitives,
                         uint32_t vectors, uint32_t capacity, uint64_t seed)
{
    uint32_t *words = in->resources[i].data;
    uint8_t *kinds = in->word_kinds[i];
    words[0] = primitives;
    words[1] = capacity;
    words[2] = vectors;
    memset(kinds, SB_RT_WORD_UINT, 4);
    uint64_t base = sb_rt_mix64(seed ^ 0x47534850ull /* "PHSG" */);
    for (uint32_t p = 0; p < primitives; p++) {
        uint32_t *record = &words[4 + (size_t)p * vectors * 4];
        uint8_t *record_kinds = &kinds[4 + (size_t)p * vectors * 4];
        for (uint32_t w = 0; w < vectors * 4; w++) {
            record_kinds[w] = SB_RT_WORD_FLOAT;
            record[w] = sb_rt_seeded_word(SB_RT_WORD_FLOAT, sb_rt_mix64(base + (uint64_t)p * 4096 + w), false);
        }
        if (gs->mode == SB_SHBIN_GS_MODE_VARIABLE) {
            float count = (float)(1 + sb_rt_mix64(base ^ p) % 8);
            for (uint32_t l = 0; l < 4; l++)
                memcpy(&record[l], &count, 4);
        }
    }
}

enum sb_result sb_rt_pica_gs_inputs(const struct sb_rt_program *program, uint32_t primitive_count,
                                    uint32_t record_vectors, uint32_t capacity, uint64_t seed,
                                    struct sb_rt_inputs **out, struct sb_error *error)
{
    const struct sb_rt_pica_gs *gs = sb_rt_program_pica_gs(program);
    if (out)
        *out = NULL;
    if (!gs || !out)
        return run_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_rt_pica_gs_inputs: a PICA geometry program is required");
    uint32_t primitives = primitive_count ? primitive_count : 16;
    uint32_t vectors = record_vectors ? record_vectors : gs->mode == SB_SHBIN_GS_MODE_POINT ? 16 : 32;
    if (vectors > gs->max_record_vectors)
        vectors = gs->max_record_vectors;
    uint64_t limit = (MAX_BUFFER_BYTES - 16) / ((uint64_t)vectors * 16);
    if (primitives > limit)
        primitives = (uint32_t)limit;
    if (primitives > 65536)
        primitives = 65536;
    uint64_t records = capacity ? capacity : (uint64_t)primitives * 32;
    uint64_t record_limit = (MAX_BUFFER_BYTES - 16) / ((uint64_t)gs->record_vectors * 16);
    if (records > record_limit)
        records = record_limit;
    struct sb_rt_input_options options = { .seed = seed, .buffer_bytes = 16 };
    struct sb_rt_inputs *in = NULL;
    enum sb_result r = sb_rt_inputs_create(program, &options, &in, error);
    if (r != SB_SUCCESS)
        return r;
    int t0 = find(in, SB_IR_RESOURCE_SRV, SB_RT_PICA_GS_INPUT_REGISTER);
    int u0 = find(in, SB_IR_RESOURCE_UAV, SB_RT_PICA_GS_OUTPUT_REGISTER);
    int u1 = find(in, SB_IR_RESOURCE_UAV, SB_RT_PICA_GS_UNIFORM_REGISTER);
    int cb = find(in, SB_IR_RESOURCE_CBV, SB_IR_PICA_UNIFORM_REGISTER);
    if (t0 < 0 || u0 < 0 || u1 < 0 || !resize(in, (uint32_t)u1, SB_IR_PICA_UNIFORM_VECTORS * 16) || !resize(in, (uint32_t)t0, 16 + (size_t)primitives * vectors * 16) ||
        !resize(in, (uint32_t)u0, 16 + (size_t)records * gs->record_vectors * 16)) {
        sb_rt_inputs_destroy(in);
        return run_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory creating geometry-shader inputs");
    }
    fill_records(in, (uint32_t)t0, gs, primitives, vectors, (uint32_t)records, seed);
    uint8_t *kinds = in->word_kinds[u0];
    for (size_t w = 0; w < in->resources[u0].size / 4; w++)
        kinds[w] = w < 4 || (w - 4) / 4 % gs->record_vectors == 0 ? SB_RT_WORD_UINT : SB_RT_WORD_FLOAT;
    /* Drivers clear the bool uniforms a program does not set, so the first invocation sees
     * b15 false (../shared/docs/pica200.md §9.1); the expansion sets it after each invocation. */
    if (cb >= 0 && in->resources[cb].size >= SB_IR_PICA_UNIFORM_VECTORS * 16)
        ((uint32_t *)in->resources[cb].data)[SB_IR_PICA_UNIFORM_BOOL_VECTOR * 4] &= ~(1u << 15);
    *out = in;
    return SB_SUCCESS;
}

enum sb_result sb_rt_pica_gs_validate(struct sb_rt_context *context, const struct sb_rt_program *program,
                                      const struct sb_validate_options *o, struct sb_validate_report *report,
                                      struct sb_error *error)
{
    struct sb_rt_inputs *base = NULL;
    enum sb_result r = sb_rt_pica_gs_inputs(program, o->draw_count, 0, 0, o->inputs.seed, &base, error);
    if (r == SB_SUCCESS)
        r = sb_rt_inputs_clone(base, &report->cpu, error);
    if (r == SB_SUCCESS)
        r = sb_rt_inputs_clone(base, &report->gpu, error);
    sb_rt_inputs_destroy(base);
    static const uint32_t one[3] = { 1, 1, 1 }; /* one thread walks every primitive in order */
    uint64_t start = sb_validate_now_ns();
    if (r == SB_SUCCESS && (o->sides & SB_VALIDATE_SIDE_CPU))
        r = sb_interp_dispatch(program->ir, report->cpu->resources, report->cpu->count, one, &o->interp,
                               &report->cpu_stats, error);
    report->cpu_ns = sb_validate_now_ns() - start;
    if (r == SB_SUCCESS && (o->sides & SB_VALIDATE_SIDE_GPU))
        r = sb_rt_dispatch(context, program->translation, report->gpu->resources, report->gpu->count, one,
                           &report->gpu_timing, error);
    return r;
}
