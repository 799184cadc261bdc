/* SPDX-License-Identifier: MIT */
/*
 * System values of the newer D3D features (../../../translator/IR.md §System values), as the
 * interpreter's runs model the harness's draws:
 *   - vViewID is the run's view index (sb_interp_options::view_index), 0 by default:
 *     validate draws without multiview, where Vulkan's ViewIndex is 0 as well;
 *   - vHelperLane is 0xFFFFFFFF in the three helper lanes of each pixel's quad and in a lane
 *     that executed DISCARD (it goes on as a helper, D3D's demote semantics), 0 in a live
 *     pixel's lane; the SPIR-V twin of a discarded lane was killed by OpKill, so what such a
 *     lane reads is never seen on the device;
 *   - SV_Barycentrics is (1, 0, 0): pixel runs draw points, and Vulkan gives a point's
 *     fragments the barycentric coordinate of its only vertex
 *     (VK_KHR_fragment_shader_barycentric);
 *   - SV_ShadingRate as a pixel input is the run's rate (sb_interp_options::shading_rate,
 *     D3D12_SHADING_RATE bits), 0 (1x1) by default: validate's draws set no coarse rate.
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
            out[l] = s->view_index;
        return true;
    }
    if ((file == SB_IR_FILE_BASE_VERTEX || file == SB_IR_FILE_BASE_INSTANCE) && s->io_in) {
        /* The draws this interpreter models start at vertex 0 and instance 0 (vk_graphics.c
         * records vkCmdDraw(count, 1, 0, 0)). */
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

bool sb_interp_sysval_pixel_input(const struct interp_state *s, uint32_t system_value, uint32_t v[4])
{
    if (system_value != SV_BARYCENTRICS && system_value != SV_SHADING_RATE)
        return false;
    const float one = 1.0f;
    uint32_t one_bits;
    memcpy(&one_bits, &one, sizeof(one_bits));
    v[0] = system_value == SV_BARYCENTRICS ? one_bits : s->shading_rate;
    v[1] = v[2] = v[3] = 0;
    return true;
}

bool sb_interp_sysval_rate_valid(uint32_t rate)
{
    /* D3D12_SHADING_RATE: 1X1, 1X2, 2X1, 2X2, 2X4, 4X2, 4X4 (no 1X4 / 4X1). */
    switch (rate) {
    case 0x0: case 0x1: case 0x4: case 0x5: case 0x6: case 0x9: case 0xA:
        return true;
    default:
        return false;
    }
}
