/* SPDX-License-Identifier: MIT */
/*
 * The sampler-feedback programs of dxil_programs_feedback.h, laid out as dxc
 * writes them (handles first, the dx.op opcode constant first, undef in the
 * coordinate slots a Texture2D has no use for and in an absent clamp);
 * opcodes and operand lists from ../shared/docs/dxil.md §3.6.
 */
#include "dxil_programs_feedback.h"

#include <math.h>

#include "dxil_program_writer.h"
#include "shaderbridge/dxbc_dxil.h"

enum { OP_LOAD_INPUT = 4, OP_CREATE_HANDLE = 57, OP_WRITE_SAMPLER_FEEDBACK = 174,
       OP_WRITE_SAMPLER_FEEDBACK_BIAS = 175, OP_WRITE_SAMPLER_FEEDBACK_LEVEL = 176,
       OP_WRITE_SAMPLER_FEEDBACK_GRAD = 177 };

/* t0 (Texture2D or Texture2DArray of float), s0, then the feedback maps u0 (MinMip) and u1
 * (MipRegionUsed; not in the array program). */
static const struct dxil_resource plain_resources[4] = {
    { .resource_class = DXIL_CLASS_SRV, .kind = DXIL_KIND_TEXTURE2D,
      .type_name = "class.Texture2D<float>", .element_type = DXIL_COMP_F32 },
    { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_FEEDBACK_TEXTURE2D,
      .type_name = "class.FeedbackTexture2D<0>", .sampler_feedback_type = 0 },
    { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_FEEDBACK_TEXTURE2D, .lower_bound = 1,
      .type_name = "class.FeedbackTexture2D<1>", .sampler_feedback_type = 1 },
    { .resource_class = DXIL_CLASS_SAMPLER, .kind = DXIL_KIND_SAMPLER,
      .type_name = "struct.SamplerState" },
};
static const struct dxil_resource array_resources[3] = {
    { .resource_class = DXIL_CLASS_SRV, .kind = 7 /* Texture2DArray */,
      .type_name = "class.Texture2DArray<float>", .element_type = DXIL_COMP_F32 },
    { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_FEEDBACK_TEXTURE2D_ARRAY,
      .type_name = "class.FeedbackTexture2DArray<0>", .sampler_feedback_type = 0 },
    { .resource_class = DXIL_CLASS_SAMPLER, .kind = DXIL_KIND_SAMPLER,
      .type_name = "struct.SamplerState" },
};

/* The handles every program uses: t0, s0, u0 and (with_u1) u1. */
struct feedback_handles {
    uint32_t f32, t0, s0, u0, u1;
};

static uint32_t create_handle(struct dxil_module *m, uint32_t handle_type, uint8_t cls,
                              int32_t range, int32_t reg)
{
    uint32_t args[4] = { dm_i8(m, (int8_t)cls), dm_i32(m, range), dm_i32(m, reg),
                         dm_i1(m, false) };
    return dm_dxop(m, "dx.op.createHandle", handle_type, DM_ATTR_READONLY, OP_CREATE_HANDLE,
                   args, 4);
}

static struct feedback_handles handles(struct dxil_module *m, bool with_u1)
{
    struct feedback_handles h;
    h.f32 = dm_type_float(m);
    uint32_t i8ptr = dm_type_ptr(m, dm_type_int(m, 8), 0);
    uint32_t handle = dm_type_struct(m, "dx.types.Handle", &i8ptr, 1);
    h.u0 = create_handle(m, handle, DXIL_CLASS_UAV, 0, 0);
    h.u1 = with_u1 ? create_handle(m, handle, DXIL_CLASS_UAV, 1, 1) : 0;
    h.t0 = create_handle(m, handle, DXIL_CLASS_SRV, 0, 0);
    h.s0 = create_handle(m, handle, DXIL_CLASS_SAMPLER, 0, 0);
    return h;
}

/* A float constant, or undef for NaN (an argument the call leaves out). */
static uint32_t float_or_undef(struct dxil_module *m, uint32_t f32, float value)
{
    return isnan(value) ? dm_undef(m, f32) : dm_f32(m, value);
}

/* One feedback write: (map, t0, s0, c0..c3, extra[0..extra_count)). c2 NaN = undef. */
static void write_feedback(struct dxil_module *m, const struct feedback_handles *h, uint32_t map,
                           uint32_t opcode, float u, float v, float slice, const uint32_t *extra,
                           unsigned extra_count)
{
    static const char *const names[4] = { "dx.op.writeSamplerFeedback",
                                          "dx.op.writeSamplerFeedbackBias",
                                          "dx.op.writeSamplerFeedbackLevel",
                                          "dx.op.writeSamplerFeedbackGrad" };
    uint32_t args[16] = { map, h->t0, h->s0, dm_f32(m, u), dm_f32(m, v),
                          float_or_undef(m, h->f32, slice), dm_undef(m, h->f32) };
    for (unsigned i = 0; i < extra_count; i++)
        args[7 + i] = extra[i];
    dm_dxop(m, names[opcode - OP_WRITE_SAMPLER_FEEDBACK], dm_type_void(m), DM_ATTR_NOUNWIND,
            opcode, args, 7 + extra_count);
}

static bool finish(struct dxil_module *m, const struct dxil_program_desc *d, struct tbuf *out)
{
    bool ok = dxil_program_write(m, d, out);
    dm_destroy(m);
    return ok;
}

static bool finish_compute(struct dxil_module *m, uint32_t entry,
                           const struct dxil_resource *resources, unsigned count,
                           struct tbuf *out)
{
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_COMPUTE, .sm_minor = 5, .entry = entry,
        .entry_name = "main", .num_threads = { 1, 1, 1 }, .resources = resources,
        .resource_count = count,
    };
    return finish(m, &d, out);
}

/*
 * Texture2D<float> t0 : register(t0); SamplerState s0 : register(s0);
 * FeedbackTexture2D<SAMPLER_FEEDBACK_MIN_MIP> u0 : register(u0);
 * FeedbackTexture2D<SAMPLER_FEEDBACK_MIP_REGION_USED> u1 : register(u1);
 * [numthreads(1, 1, 1)]
 * void main() {
 *     u0.WriteSamplerFeedbackLevel(t0, s0, float2(0.1, 0.1), 2.0);  // then 1.5, and
 *     // (0.9, 0.3) 3.7, (0.6, 0.6) -1.0, (1.5, 0.55) 9.0; the same five on u1
 * }
 */
bool dxil_program_feedback_level(struct tbuf *out)
{
    static const float writes[5][3] = { { 0.1f, 0.1f, 2.0f }, { 0.1f, 0.1f, 1.5f },
                                        { 0.9f, 0.3f, 3.7f }, { 0.6f, 0.6f, -1.0f },
                                        { 1.5f, 0.55f, 9.0f } };
    struct dxil_module *m = dm_create();
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    struct feedback_handles h = handles(m, true);
    for (unsigned map = 0; map < 2; map++)
        for (unsigned i = 0; i < 5; i++) {
            uint32_t lod = dm_f32(m, writes[i][2]);
            write_feedback(m, &h, map ? h.u1 : h.u0, OP_WRITE_SAMPLER_FEEDBACK_LEVEL,
                           writes[i][0], writes[i][1], NAN, &lod, 1);
        }
    dm_ret_void(m);
    return finish_compute(m, entry, plain_resources, 4, out);
}

/*
 * Texture2DArray<float> t0 : register(t0); SamplerState s0 : register(s0);
 * FeedbackTexture2DArray<SAMPLER_FEEDBACK_MIN_MIP> u0 : register(u0);
 * [numthreads(1, 1, 1)]
 * void main() {
 *     u0.WriteSamplerFeedbackGrad(t0, s0, float3(0.3, 0.7, 1.4), float2(0.3, 0), float2(0, 0.0625));
 *     u0.WriteSamplerFeedbackGrad(t0, s0, float3(0.3, 0.7, 0.5), float2(0.5, 0.5), float2(0, 0), 1.0);
 *     u0.WriteSamplerFeedbackGrad(t0, s0, float3(0.05, 0.05, 7), float2(0.01, 0), float2(0, 0.01), 2.5);
 *     u0.WriteSamplerFeedbackLevel(t0, s0, float3(0.99, 0.99, 0), 0.0);
 * }
 */
bool dxil_program_feedback_grad_array(struct tbuf *out)
{
    /* u, v, slice, ddx0, ddx1, ddy0, ddy1, clamp (NaN: none) */
    static const float grads[3][8] = {
        { 0.3f, 0.7f, 1.4f, 0.3f, 0.0f, 0.0f, 0.0625f, NAN },
        { 0.3f, 0.7f, 0.5f, 0.5f, 0.5f, 0.0f, 0.0f, 1.0f },
        { 0.05f, 0.05f, 7.0f, 0.01f, 0.0f, 0.0f, 0.01f, 2.5f },
    };
    struct dxil_module *m = dm_create();
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    struct feedback_handles h = handles(m, false);
    for (unsigned i = 0; i < 3; i++) {
        const float *g = grads[i];
        uint32_t u = dm_undef(m, h.f32);
        uint32_t extra[7] = { dm_f32(m, g[3]), dm_f32(m, g[4]), u, dm_f32(m, g[5]),
                              dm_f32(m, g[6]), u, float_or_undef(m, h.f32, g[7]) };
        write_feedback(m, &h, h.u0, OP_WRITE_SAMPLER_FEEDBACK_GRAD, g[0], g[1], g[2], extra, 7);
    }
    uint32_t lod = dm_f32(m, 0.0f);
    write_feedback(m, &h, h.u0, OP_WRITE_SAMPLER_FEEDBACK_LEVEL, 0.99f, 0.99f, 0.0f, &lod, 1);
    dm_ret_void(m);
    return finish_compute(m, entry, array_resources, 3, out);
}

/* u0.WriteSamplerFeedback(t0, s0, uv); u1.WriteSamplerFeedbackBias(t0, s0, uv, 1.0). */
static void implicit_writes(struct dxil_module *m, const struct feedback_handles *h,
                            const uint32_t uv[2])
{
    uint32_t u = dm_undef(m, h->f32);
    uint32_t args[9] = { h->u0, h->t0, h->s0, uv[0], uv[1], u, u, u /* no clamp */, u };
    dm_dxop(m, "dx.op.writeSamplerFeedback", dm_type_void(m), DM_ATTR_NOUNWIND,
            OP_WRITE_SAMPLER_FEEDBACK, args, 8);
    args[0] = h->u1;
    args[7] = dm_f32(m, 1.0f);
    dm_dxop(m, "dx.op.writeSamplerFeedbackBias", dm_type_void(m), DM_ATTR_NOUNWIND,
            OP_WRITE_SAMPLER_FEEDBACK_BIAS, args, 9);
}

/*
 * (resources as dxil_program_feedback_level)
 * void main(float2 uv : TEXCOORD0) {
 *     u0.WriteSamplerFeedback(t0, s0, uv);
 *     u1.WriteSamplerFeedbackBias(t0, s0, uv, 1.0);
 * }
 */
bool dxil_program_feedback_implicit(struct tbuf *out)
{
    struct dxil_module *m = dm_create();
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    struct feedback_handles h = handles(m, true);
    uint32_t uv[2];
    for (int8_t c = 0; c < 2; c++) {
        uint32_t args[4] = { dm_i32(m, 0), dm_i32(m, 0), dm_i8(m, c),
                             dm_undef(m, dm_type_int(m, 32)) };
        uv[c] = dm_dxop(m, "dx.op.loadInput.f32", h.f32, DM_ATTR_READNONE, OP_LOAD_INPUT, args,
                        4);
    }
    implicit_writes(m, &h, uv);
    dm_ret_void(m);
    static const struct dxil_sig_element inputs[1] = {
        { "TEXCOORD", 0, DXIL_SEM_ARBITRARY, DXIL_COMP_F32, DXIL_INTERP_LINEAR, 2, 0 },
    };
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_PIXEL, .sm_minor = 5, .entry = entry,
        .entry_name = "main", .inputs = inputs, .input_count = 1,
        .resources = plain_resources, .resource_count = 4,
    };
    return finish(m, &d, out);
}

/* The implicit-LOD writes of dxil_program_feedback_implicit in a compute shader at
 * uv = (0.5, 0.5): no derivatives there (the front end refuses them). */
bool dxil_program_feedback_implicit_cs(struct tbuf *out)
{
    struct dxil_module *m = dm_create();
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    struct feedback_handles h = handles(m, true);
    const uint32_t uv[2] = { dm_f32(m, 0.5f), dm_f32(m, 0.5f) };
    implicit_writes(m, &h, uv);
    dm_ret_void(m);
    return finish_compute(m, entry, plain_resources, 4, out);
}
