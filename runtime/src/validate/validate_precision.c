/* SPDX-License-Identifier: MIT */
/*
 * sb_validate_explain_precision (validate.h): is a float mismatch within the
 * precision Vulkan allows a device for its approximated operations?
 *
 * Vulkan lets exp2, log2, inversesqrt, division, sqrt, sin and cos differ
 * from the correctly rounded result by a few ULPs (more for derived ones
 * such as pow), and a shader can amplify that into hundreds of ULPs of its
 * output. The interpreter uses libm. Rerunning the interpreter with every
 * such result moved by +N and by -N ULPs (sb_interp_options::approx_ulps)
 * shows how far an allowed error moves each output word: a mismatch is
 * explained when the device's word is no further from the interpreter's than
 * the farther of the two moved runs, or lies between them. This is evidence,
 * not a proof (real errors vary per call and per lane), which is why
 * sb_validate never applies it by itself.
 */
#include "inputs_private.h"
#include "validate_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double as_double(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return (double)f;
}

static bool is_finite(uint32_t u)
{
    return (u & 0x7f800000u) != 0x7f800000u;
}

/* Is `gpu` within the spread the moved runs give around `cpu`? */
static bool within(uint32_t gpu, uint32_t cpu, uint32_t up, uint32_t down)
{
    if (!is_finite(gpu) || !is_finite(cpu) || !is_finite(up) || !is_finite(down))
        return false;
    double g = as_double(gpu), c = as_double(cpu), u = as_double(up), d = as_double(down);
    double lo = fmin(c, fmin(u, d)), hi = fmax(c, fmax(u, d));
    if (g >= lo && g <= hi)
        return true;
    double reach = fmax(fabs(u - c), fabs(d - c));
    return reach > 0 && fabs(g - c) <= reach;
}

enum sb_result sb_validate_explain_precision(const struct sb_rt_program *program,
                                             const struct sb_validate_options *options,
                                             const struct sb_validate_report *report, int32_t ulps,
                                             struct sb_validate_precision *out, struct sb_error *error)
{
    if (!program || !report || !out || ulps <= 0)
        return sb_validate_fail(error, SB_ERROR_INVALID_ARGUMENT,
                                "sb_validate_explain_precision: program, report, out and ulps > 0 are required");
    memset(out, 0, sizeof(*out));
    struct sb_validate_options o = { 0 };
    if (options)
        o = *options;
    o.sides = SB_VALIDATE_SIDE_CPU;
    struct sb_validate_report *moved[2] = { NULL, NULL };
    enum sb_result r = SB_SUCCESS;
    for (int k = 0; k < 2 && r == SB_SUCCESS; k++) {
        o.interp.approx_ulps = k ? -ulps : ulps;
        r = sb_validate(NULL, program, &o, &moved[k], error);
    }
    /* The words the report counts as differing: D3D's rules, widened only by an explicit
     * override (sb_validate no longer defaults to 64 ULPs). */
    uint32_t float_ulps = options ? options->float_ulps : 0;
    const struct sb_rt_inputs *gpu = report->gpu, *cpu = report->cpu;
    for (uint32_t i = 0; r == SB_SUCCESS && i < gpu->count && i < moved[0]->cpu->count &&
                         i < moved[1]->cpu->count; i++) {
        const struct sb_rt_resource *g = &gpu->resources[i], *c = &cpu->resources[i];
        const struct sb_rt_resource *up = &moved[0]->cpu->resources[i], *down = &moved[1]->cpu->resources[i];
        uint32_t cls = g->resource_class;
        if ((cls != SB_IR_RESOURCE_UAV && cls != SB_VALIDATE_CLASS_OUTPUT && cls != SB_VALIDATE_CLASS_DEPTH &&
             cls != SB_VALIDATE_CLASS_GEOMETRY && cls != SB_VALIDATE_CLASS_STENCIL) || c->size != g->size || up->size != g->size || down->size != g->size)
            continue;
        const uint32_t *gw = g->data, *cw = c->data, *uw = up->data, *dw = down->data;
        for (uint64_t w = 0; w < g->size / 4; w++) {
            uint8_t kind = sb_rt_word_kind_of(gpu, i, w);
            bool as_float = kind == SB_RT_WORD_FLOAT || kind == SB_RT_WORD_UNKNOWN;
            if (kind == SB_RT_WORD_IGNORED || sb_validate_words_agree(kind, gw[w], cw[w], float_ulps))
                continue;
            if (!is_finite(cw[w]) && as_float)
                continue; /* counted as unconstrained by sb_validate */
            if (as_float && within(gw[w], cw[w], uw[w], dw[w]))
                out->explained++;
            else
                out->unexplained++;
        }
    }
    sb_validate_report_destroy(moved[0]);
    sb_validate_report_destroy(moved[1]);
    return r;
}
