/* SPDX-License-Identifier: MIT */
/*
 * SM 6.6 derivatives outside pixel shaders (../shared/docs/dxil.md §3.6
 * "Derivatives"; D3D's compute-shader derivative rules): the derivative ops
 * and the implicit-LOD samples (sample, sampleBias, sampleCmp, calculateLOD)
 * of a compute shader difference the threads of a quad. D3D forms the quads
 * from the thread-group shape: 2x2 blocks of (x, y) when X and Y are both
 * even, else 4 consecutive flattened threads when the group size is a
 * multiple of 4; a group of any other shape has no quads, and derivatives
 * there are invalid. The choice goes to sb_ir_program::compute_derivatives,
 * which the SPIR-V back end declares (SPV_NV_compute_shader_derivatives) and
 * the interpreter follows. Mesh and amplification shaders refuse: the
 * extension this SPIR-V validator knows covers GLCompute only.
 */
#include "ir_from_dxil_private.h"

bool dxil_front_derivative_quads(struct dxil_front *f, const char *what)
{
    struct sb_ir_program *p = f->program;
    if (p->stage == SB_IR_STAGE_MESH || p->stage == SB_IR_STAGE_AMPLIFICATION)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "%s in a %s shader (derivatives are translated in pixel and "
                               "compute shaders)", what,
                               p->stage == SB_IR_STAGE_MESH ? "mesh" : "amplification");
    if (p->stage != SB_IR_STAGE_COMPUTE)
        return true;
    const uint32_t *g = p->thread_group;
    uint64_t threads = (uint64_t)g[0] * g[1] * g[2];
    if (g[0] % 2 == 0 && g[1] % 2 == 0)
        p->compute_derivatives = SB_IR_COMPUTE_DERIVATIVES_QUADS;
    else if (threads % 4 == 0)
        p->compute_derivatives = SB_IR_COMPUTE_DERIVATIVES_LINEAR;
    else
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID,
                               "%s in a compute shader of %ux%ux%u threads, which form no quads "
                               "(X and Y even, or a multiple of 4 threads)", what, g[0], g[1],
                               g[2]);
    return true;
}
