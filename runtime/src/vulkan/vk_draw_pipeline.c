/* SPDX-License-Identifier: MIT */
/*
 * The shader modules of a point-list draw (runtime.h, sb_rt_draw_points): one
 * per given translation, the vertex stage taking the PointSize copy when there
 * is one (vk_draw_pointsize.c), the pixel stage told a multisampled draw's
 * sample count. The pipeline state around them is the shared graphics path's
 * (vk_graphics.c).
 */
#include "vk_draw_private.h"

/* Shader modules of the given stages; the vertex stage takes the PointSize copy when there is one. */
static enum sb_result create_modules(struct sb_vk_draw *dr, VkPipelineShaderStageCreateInfo *infos,
                                     uint32_t *count, struct sb_error *error)
{
    static const VkShaderStageFlagBits bits[SB_VK_DRAW_STAGES] = {
        VK_SHADER_STAGE_VERTEX_BIT, VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT,
        VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, VK_SHADER_STAGE_GEOMETRY_BIT, VK_SHADER_STAGE_FRAGMENT_BIT
    };
    *count = 0;
    for (int s = 0; s < SB_VK_DRAW_STAGES; s++) {
        const struct sb_translation *t = dr->stages[s];
        if (!t)
            continue;
        bool patched = s == SB_VK_DRAW_VS && dr->vertex_words;
        VkShaderModuleCreateInfo module = {
            .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
            .codeSize = (patched ? dr->vertex_word_count : t->word_count) * 4,
            .pCode = patched ? dr->vertex_words : t->words,
        };
        VkResult vr = dr->c->vk.vkCreateShaderModule(dr->c->device, &module, NULL, &dr->modules[s]);
        if (vr != VK_SUCCESS)
            return sb_vk_fail_call(error, "vkCreateShaderModule", vr);
        infos[(*count)++] = (VkPipelineShaderStageCreateInfo){
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = bits[s],
            .module = dr->modules[s],
            .pName = t->entry_point ? t->entry_point : "main",
        };
    }
    return SB_SUCCESS;
}

enum sb_result sb_vk_draw_pipeline(struct sb_vk_draw *dr, VkPipeline *out, struct sb_error *error)
{
    VkPipelineShaderStageCreateInfo stages[SB_VK_DRAW_STAGES];
    uint32_t stage_total;
    enum sb_result res = create_modules(dr, stages, &stage_total, error);
    if (res != SB_SUCCESS)
        return res;
    /* A multisampled draw tells the pixel stage its sample count: sampleinfo / samplepos of the
     * rasterizer read it from a specialisation constant (translate.h, SB_SPEC_ID_SAMPLE_COUNT). */
    uint32_t samples = dr->d->samples;
    const VkSpecializationMapEntry entry = { SB_SPEC_ID_SAMPLE_COUNT, 0, sizeof(samples) };
    const VkSpecializationInfo spec = { 1, &entry, sizeof(samples), &samples };
    for (uint32_t i = 0; samples > 1 && i < stage_total; i++)
        if (stages[i].stage == VK_SHADER_STAGE_FRAGMENT_BIT)
            stages[i].pSpecializationInfo = &spec;
    return sb_vk_graphics_pipeline(dr, stages, stage_total, dr->run.layout, out, error);
}
