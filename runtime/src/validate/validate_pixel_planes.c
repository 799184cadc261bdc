/* SPDX-License-Identifier: MIT */
/*
 * The triangle draw of pixel programs that evaluate attributes (eval_centroid,
 * eval_sample_index, eval_snapped). On the points every other pixel program is
 * drawn with, every input is constant over the pixel, so an evaluation could only
 * give the fed value back (and lavapipe 22.3 does not even do that: tests/validate/
 * README.md, "Known device defects"). Here pixel p is drawn as one triangle of its
 * own, (X, Y), (X + 2, Y), (X, Y + 2) in window coordinates from its top-left
 * corner (partner.c), which holds all of the pixel, so the pixel is fully covered
 * by one primitive (its centroid is its centre) and its quad's helpers extrapolate
 * the same plane, exactly as the interpreter's per-pixel quads do. Each
 * interpolated float lane gets a plane
 *
 *     value(x, y) = v + (x - Xc) * ddx + (y - Yc) * ddy,   (Xc, Yc) the pixel centre
 *
 * with v a multiple of 1/8 in [-64, 64) and ddx, ddy integers in [-4, 4]: every
 * position the device or the interpreter evaluates at lies a multiple of 1/16
 * pixel from the centre (sample positions, snapped offsets), so every value is a
 * multiple of 1/16 below 2^7 in magnitude, as are the corner values, and a plane
 * equation a rasterizer sets up from them (corners 2 pixels apart: the divisions
 * are by powers of two) stays a multiple of 1/16 below 2^20 over a framebuffer of
 * up to 2^16 pixels a side: all exactly representable, so both sides compute them without
 * rounding. Perspective does not enter (every w is 1). The corners must land on the
 * pixel grid exactly: their NDC positions are multiples of 2 / side, exact only for a
 * power-of-two side, so the draw's framebuffer is the requested one with each side
 * rounded up to a power of two (sb_rt_pixel_planes_side), pixel p still at
 * (p % width, p / width), and the harness copies the requested rectangle out. Constant lanes, integer
 * lanes and system values carry the seeded word on all three corners.
 *
 * Later triangles overwrite what an earlier one left in their pixel (primitive
 * order). At one sample an earlier triangle reaches no other pixel's centre (the
 * neighbours' centres lie on its long edge, which no top-left rule covers); at
 * several samples it covers some samples of the pixels right and below, whose own
 * fragments then overwrite them: a program that may leave a sample unwritten
 * (discard, oMask) or writes UAVs would show those extra fragments, so it is not
 * drawn that way.
 */
#include "validate_private.h"
#include "error.h"

#include <stdlib.h>
#include <string.h>
#include "translator/ir.h"

/* Corner k's offset from its pixel's centre, in pixels (partner.c's corner order). */
static const float corner_offset[3][2] = { { -0.5f, -0.5f }, { 1.5f, -0.5f }, { -0.5f, 1.5f } };

/* Does lane `c` of v`reg` take a plane: an interpolated float input that is no system value
 * (the lanes the interpreter gives planes to, interp_graphics.c, less integer ones)? */
static bool plane_lane(const struct sb_ir_program *ps, uint32_t reg, uint32_t c)
{
    for (uint32_t e = 0; e < ps->signature_count; e++) {
        const struct sb_ir_signature_element *el = &ps->signature[e];
        if (el->kind == SB_IR_SIGNATURE_INPUT && el->file == SB_IR_FILE_INPUT && el->register_index == reg &&
            (el->mask & (1u << c)) && !el->system_value && el->component_type == SB_IR_TYPE_FLOAT &&
            el->interpolation != SB_IR_INTERP_CONSTANT && el->interpolation != SB_IR_INTERP_UNDEFINED)
            return true;
    }
    return false;
}

static bool has_op(const struct sb_ir_program *p, uint32_t op)
{
    for (uint32_t f = 0; f < p->function_count; f++)
        for (uint32_t n = 0; n < p->functions[f].instruction_count; n++)
            if (p->functions[f].instructions[n].op == op)
                return true;
    return false;
}

const char *sb_rt_pixel_triangles_refusal(const struct sb_ir_program *ps, uint32_t samples)
{
    if (samples <= 1)
        return NULL;
    for (uint32_t r = 0; r < ps->resource_count; r++)
        if (ps->resources[r].resource_class == SB_IR_RESOURCE_UAV)
            return "UAV writes of a program using eval_* at several samples (the triangles the harness draws "
                   "give some samples of a neighbouring pixel extra fragments)";
    for (uint32_t e = 0; e < ps->signature_count; e++)
        if (ps->signature[e].file == SB_IR_FILE_COVERAGE_OUT)
            return "oMask of a program using eval_* at several samples (a cleared sample would keep a "
                   "neighbouring triangle's fragment)";
    if (has_op(ps, SB_IR_OP_DISCARD))
        return "discard in a program using eval_* at several samples (a discarded sample would keep a "
               "neighbouring triangle's fragment)";
    return NULL;
}

uint32_t sb_rt_pixel_planes_side(uint32_t n)
{
    uint32_t side = 1;
    while (side < n && side < 0x80000000u)
        side <<= 1;
    return side;
}

/* Copies `rows` rows of `row_bytes` from `from` (rows `from_stride` bytes apart) to `to`. */
static void copy_rows(const void *from, size_t from_stride, void *to, size_t to_stride, uint32_t rows,
                      size_t row_bytes)
{
    for (uint32_t y = 0; y < rows; y++)
        memcpy((uint8_t *)to + (size_t)y * to_stride, (const uint8_t *)from + (size_t)y * from_stride, row_bytes);
}

enum sb_result sb_rt_pixel_planes_draw(struct sb_rt_context *context, const struct sb_rt_draw *draw,
                                       struct sb_rt_resource *resources, uint32_t resource_count,
                                       struct sb_rt_timing *timing, struct sb_error *error)
{
    uint32_t w = draw->width, h = draw->height, fw = sb_rt_pixel_planes_side(w), fh = sb_rt_pixel_planes_side(h);
    if (fw == w && fh == h)
        return sb_rt_draw_points(context, draw, resources, resource_count, timing, error);
    if (draw->target_count > 8 || (uint64_t)fw * fh > (1u << 24))
        return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR, "a %ux%u triangle draw of %u "
                            "targets needs a %ux%u framebuffer", w, h, draw->target_count, fw, fh);
    uint32_t samples = draw->samples ? draw->samples : 1;
    size_t pixels = (size_t)fw * fh, texel[8] = { 0 };
    struct sb_rt_color_target targets[8];
    struct sb_rt_draw padded = *draw;
    padded.width = fw;
    padded.height = fh;
    padded.targets = targets;
    padded.depth = draw->depth ? malloc(pixels * sizeof(float)) : NULL;
    padded.stencil = draw->stencil ? calloc(pixels, 1) : NULL;
    bool ok = (!draw->depth || padded.depth) && (!draw->stencil || padded.stencil);
    for (uint32_t t = 0; t < draw->target_count; t++) {
        targets[t] = draw->targets[t];
        texel[t] = (size_t)sb_rt_format_size(draw->targets[t].format) * samples; /* a pixel's samples in a row */
        targets[t].data = calloc(pixels, texel[t]);
        ok &= targets[t].data != NULL;
        if (targets[t].data)
            copy_rows(draw->targets[t].data, w * texel[t], targets[t].data, fw * texel[t], h, w * texel[t]);
    }
    for (size_t i = 0; padded.depth && i < pixels; i++)
        padded.depth[i] = 1.0f;
    if (padded.depth)
        copy_rows(draw->depth, w * sizeof(float), padded.depth, fw * sizeof(float), h, w * sizeof(float));
    if (padded.stencil)
        copy_rows(draw->stencil, w, padded.stencil, fw, h, w);
    enum sb_result r = ok ? sb_rt_draw_points(context, &padded, resources, resource_count, timing, error)
                          : sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory padding the framebuffer");
    for (uint32_t t = 0; t < draw->target_count; t++) {
        if (r == SB_SUCCESS)
            copy_rows(targets[t].data, fw * texel[t], draw->targets[t].data, w * texel[t], h, w * texel[t]);
        free(targets[t].data);
    }
    if (r == SB_SUCCESS && draw->depth)
        copy_rows(padded.depth, fw * sizeof(float), draw->depth, w * sizeof(float), h, w * sizeof(float));
    if (r == SB_SUCCESS && draw->stencil)
        copy_rows(padded.stencil, fw, draw->stencil, w, h, w);
    free(padded.depth);
    free(padded.stencil);
    return r;
}

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

bool sb_rt_pixel_planes_make(const struct sb_ir_program *ps, uint64_t seed, uint32_t count,
                             struct sb_rt_vertex_stream *streams, uint32_t stream_count,
                             struct sb_interp_registers *cpu_in, struct sb_interp_registers *ddx,
                             struct sb_interp_registers *ddy)
{
    size_t words = (size_t)count * cpu_in->registers * 4;
    ddx->registers = ddy->registers = cpu_in->registers;
    ddx->words = calloc(words, sizeof(uint32_t));
    ddy->words = calloc(words, sizeof(uint32_t));
    if (!ddx->words || !ddy->words)
        return false;
    for (uint32_t s = 0; s < stream_count; s++) {
        const uint32_t *point = streams[s].data;
        uint32_t *corners = malloc((size_t)count * 3 * 16);
        if (!corners)
            return false;
        uint32_t reg = streams[s].location;
        for (uint32_t i = 0; i < count; i++)
            for (uint32_t c = 0; c < 4; c++) {
                uint32_t word = point[i * 4 + c];
                bool plane = reg < cpu_in->registers && plane_lane(ps, reg, c);
                uint64_t random = sb_rt_mix64(seed ^ sb_rt_mix64(0x91A9E5ull << 40 ^ ((uint64_t)reg << 34) ^
                                                                 ((uint64_t)i << 2) ^ c));
                float v = (float)((int32_t)(random & 1023u) - 512) / 8.0f;
                float gx = (float)((int32_t)((random >> 10) % 9u) - 4);
                float gy = (float)((int32_t)((random >> 20) % 9u) - 4);
                for (uint32_t k = 0; k < 3; k++)
                    corners[(i * 3 + k) * 4 + c] =
                        plane ? float_bits(v + corner_offset[k][0] * gx + corner_offset[k][1] * gy) : word;
                if (!plane)
                    continue;
                size_t at = ((size_t)i * cpu_in->registers + reg) * 4 + c;
                cpu_in->words[at] = float_bits(v);
                ddx->words[at] = float_bits(gx);
                ddy->words[at] = float_bits(gy);
            }
        free((void *)streams[s].data);
        streams[s].data = corners;
    }
    return true;
}
