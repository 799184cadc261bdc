/* SPDX-License-Identifier: MIT */
/*
 * The graphics pipeline of a VBC draw: shader modules made straight from the
 * file's SPIR-V blobs (copied to aligned memory: blobs start at any byte,
 * ../shared/docs/vbc.md §4) after the same version and capability checks the compute
 * path makes; the pipeline state around them (vertex input from the streams
 * the checks matched to the VBC's vertex inputs, colour blend state for the
 * fragment outputs' targets, counter-clockwise front faces) and the render
 * pass are the shared graphics path's (vk_graphics.c).
 */
#include <stdlib.h>
#include <string.h>

#include "vk_vbc_private.h"

#define NAME "sb_rt_vbc_draw"

/* A 4-byte-aligned copy of a stage's SPIR-V (malloc'd), checked against the device. */
static enum sb_result load_words(struct sb_vk_vbc *v, enum sb_vbc_stage stage, uint32_t **out, size_t *count,
                                 struct sb_error *error)
{
    const struct sb_vbc_spirv *blob = sb_vbc_find_spirv(v->vbc, stage);
    *out = NULL;
    if (!blob || blob->word_count < 5)
        return sb_vk_fail(error, SB_ERROR_RUN_UNSUPPORTED, NAME ": the VBC has no %s module",
                          sb_vbc_stage_name(stage));
    *out = malloc(blob->size);
    if (!*out)
        return sb_vk_fail(error, SB_ERROR_OUT_OF_MEMORY, NAME ": out of memory");
    memcpy(*out, blob->bytes, blob->size);
    *count = blob->word_count;
    return sb_vk_check_module(v->c, *out, *count, NULL, error);
}

static enum sb_result create_module(struct sb_vk_vbc *v, const uint32_t *words, size_t count,
                                    VkShaderModule *out, struct sb_error *error)
{
    VkShaderModuleCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = count * 4,
        .pCode = words,
    };
    VkResult vr = v->c->vk.vkCreateShaderModule(v->c->device, &info, NULL, out);
    return vr == VK_SUCCESS ? SB_SUCCESS : sb_vk_fail_call(error, "vkCreateShaderModule", vr);
}

/* The vertex and fragment modules; a point list draws the vertex module with PointSize added. */
static enum sb_result create_modules(struct sb_vk_vbc *v, struct sb_error *error)
{
    static const enum sb_vbc_stage stages[2] = { SB_VBC_STAGE_VERTEX, SB_VBC_STAGE_FRAGMENT };
    enum sb_result res = SB_SUCCESS;
    for (int s = 0; s < 2 && res == SB_SUCCESS; s++) {
        uint32_t *words = NULL;
        size_t count = 0;
        res = load_words(v, stages[s], &words, &count, error);
        if (res == SB_SUCCESS && s == 0 && v->d->topology == VK_PRIMITIVE_TOPOLOGY_POINT_LIST)
            res = sb_vk_add_point_size(words, count, &v->vertex_words, &v->vertex_word_count, error);
        bool patched = s == 0 && v->vertex_words;
        if (res == SB_SUCCESS)
            res = create_module(v, patched ? v->vertex_words : words, patched ? v->vertex_word_count : count,
                                &v->modules[s], error);
        free(words);
    }
    return res;
}

enum sb_result sb_vk_vbc_pipeline(struct sb_vk_vbc *v, struct sb_error *error)
{
    enum sb_result res = create_modules(v, error);
    if (res != SB_SUCCESS)
        return res;
    static const VkShaderStageFlagBits bits[2] = { VK_SHADER_STAGE_VERTEX_BIT, VK_SHADER_STAGE_FRAGMENT_BIT };
    VkPipelineShaderStageCreateInfo stages[2];
    for (int s = 0; s < 2; s++)
        stages[s] = (VkPipelineShaderStageCreateInfo){
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = bits[s],
            .module = v->modules[s],
            .pName = "main",
        };
    return sb_vk_graphics_pipeline(&v->draw, stages, 2, v->layout, &v->pipeline, error);
}
