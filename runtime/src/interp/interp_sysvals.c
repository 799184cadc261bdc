/* SPDX-License-Identifier: MIT */
/*
 * System values of the newer D3D features (../../../translator/IR.md §System values), as the
 * interpreter's runs model the harness's draws:
 *   - vViewID is 0: the runs have no views, and validate draws without multiview, where
 *     Vulkan's ViewIndex is 0 as well;
 *   - vHelperLane is 0xFFFFFFFF in the three helper lanes of each pixel's quad and in a lane
 *     that executed DISCARD (it goes on as a helper, D3D's demote semantics), 0 in a live
 *     pixel's lane; the SPIR-V twin of a discarded lane was killed by OpKill, so what such a
 *     lane reads is never seen on the device;
 *   - SV_Barycentrics is (1, 0, 0): pixel runs draw points, and Vulkan gives a point's
 *     fragments the barycentric coordinate of its only vertex
 *     (VK_KHR_fragment_shader_barycentric);
 *   - SV_ShadingRate as a pixel input is 0 (1x1): the draws set no coarse rate.
 * Leaf file: writes only into arrays its callers hand it.
 */
#include "interp_private.h"

/* D3D_NAME values of the elements (../shared/docs/sm4-tokens.md §8.1). */
enum { SV_BARYCENTRICS = 23, SV_SHADING_RATE = 24 };

bool sb_interp_sysval_lanes(const struct interp_state *s, uint32_t file, uint32_t *out)
{
    uint32_t n = s->lanes;
    if (file == SB_IR_FILE_VIEW_ID && s->io_in) {
        for (uint32_t l = 0; l < n; l++)
            out[l] = 0;
        return true;
    }
    if (file == SB_IR_FILE_HELPER_LANE && s->quad && s->helper) {
        for (uint32_t l = 0; l < n; l++)
            out[l] = s->helper[l] || (s->discarded && s->discarded[l]) ? 0xFFFFFFFFu : 0u;
        return true;
    }
    return false;
}

bool sb_interp_sysval_pixel_input(uint32_t system_value, uint32_t v[4])
{
    if (system_value != SV_BARYCENTRICS && system_value != SV_SHADING_RATE)
        return false;
    const float one = 1.0f;
    uint32_t one_bits;
    memcpy(&one_bits, &one, sizeof(one_bits));
    v[0] = system_value == SV_BARYCENTRICS ? one_bits : 0u;
    v[1] = v[2] = v[3] = 0;
    return true;
}
