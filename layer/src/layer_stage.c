/* SPDX-License-Identifier: MIT */
/*
 * Rewriting one VkPipelineShaderStageCreateInfo for the layer's modules
 * (layer/README.md §Stages, §Entry points), shared by the graphics and
 * compute pipeline intercepts:
 *  - a module the layer made (registry): the stage gets the module of its own
 *    stage (VBC: one module per stage) and pName becomes that module's entry
 *    point, so any name the application passes selects the one entry;
 *  - module VK_NULL_HANDLE with a VkShaderModuleCreateInfo first in pNext
 *    (maintenance5 / graphics-pipeline-library style) holding foreign bytes:
 *    the bytes are translated, a temporary module is created and put in the
 *    stage, and the create info leaves the chain (the driver then needs no
 *    maintenance5); the temporary module is destroyed after the pipeline call.
 * Anything else is left alone. Storage the rewritten infos point to lives in a
 * scratch list the caller releases after calling down.
 */
#include "layer_stage.h"

#include <stdlib.h>
#include <string.h>

void *sb_layer_scratch_alloc(struct sb_layer_scratch *s, size_t size)
{
    if (s->alloc_count == s->alloc_capacity) {
        size_t cap = s->alloc_capacity ? 2 * s->alloc_capacity : 8;
        void **p = realloc(s->allocs, cap * sizeof(*p));
        if (!p)
            return NULL;
        s->allocs = p;
        s->alloc_capacity = cap;
    }
    void *block = calloc(1, size ? size : 1);
    if (block)
        s->allocs[s->alloc_count++] = block;
    return block;
}

static bool scratch_module(struct sb_layer_scratch *s, VkShaderModule module)
{
    if (s->module_count == s->module_capacity) {
        size_t cap = s->module_capacity ? 2 * s->module_capacity : 8;
        VkShaderModule *p = realloc(s->modules, cap * sizeof(*p));
        if (!p)
            return false;
        s->modules = p;
        s->module_capacity = cap;
    }
    s->modules[s->module_count++] = module;
    return true;
}

void sb_layer_scratch_release(struct sb_layer_scratch *s, const struct sb_layer_device *dev,
                              const VkAllocationCallbacks *alloc)
{
    for (size_t i = 0; i < s->module_count; i++)
        dev->destroy_shader_module(dev->device, s->modules[i], alloc);
    for (size_t i = 0; i < s->alloc_count; i++)
        free(s->allocs[i]);
    free(s->modules);
    free(s->allocs);
    memset(s, 0, sizeof(*s));
}

static const char *stage_name(uint32_t vk_stage)
{
    static const char *const names[SB_LAYER_STAGES] = { "vertex", "tessellation control",
                                                        "tessellation evaluation", "geometry", "fragment",
                                                        "compute" };
    int i = sb_layer_stage_index(vk_stage);
    return i >= 0 ? names[i] : "unsupported";
}

static const char *scratch_string(struct sb_layer_scratch *s, const char *text)
{
    char *copy = sb_layer_scratch_alloc(s, strlen(text) + 1);
    if (copy)
        strcpy(copy, text);
    return copy;
}

/* A module from the registry: the stage's own module and entry point. */
static VkResult fix_registered(const struct sb_layer_module_info *info, VkPipelineShaderStageCreateInfo *stage,
                               struct sb_layer_scratch *s)
{
    int idx = sb_layer_stage_index(stage->stage);
    if (idx < 0 || !(info->stage_mask & stage->stage)) {
        sb_layer_log(SB_LAYER_LOG_ERROR, "pipeline: the module used for the %s stage has no %s stage "
                     "(stages 0x%x): VK_ERROR_INVALID_SHADER_NV", stage_name(stage->stage),
                     stage_name(stage->stage), info->stage_mask);
        return SB_LAYER_FAILURE;
    }
    stage->module = info->stage_modules[idx];
    if (info->entry[idx][0] && (!stage->pName || strcmp(stage->pName, info->entry[idx]))) {
        stage->pName = scratch_string(s, info->entry[idx]);
        if (!stage->pName)
            return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    return VK_SUCCESS;
}

/* module == VK_NULL_HANDLE with foreign bytes chained: a temporary module replaces them. */
static VkResult fix_chained(const struct sb_layer_device *dev, const VkShaderModuleCreateInfo *smci,
                            VkPipelineShaderStageCreateInfo *stage, const VkAllocationCallbacks *alloc,
                            enum sb_layer_kind kind, struct sb_layer_scratch *s)
{
    if ((const void *)smci != stage->pNext) {
        sb_layer_log(SB_LAYER_LOG_ERROR, "pipeline: a chained VkShaderModuleCreateInfo with %s bytes must come "
                     "first in the stage's pNext chain: VK_ERROR_INVALID_SHADER_NV", sb_layer_kind_name(kind));
        return SB_LAYER_FAILURE;
    }
    struct sb_layer_output out;
    if (!sb_layer_translate(dev, smci->pCode, smci->codeSize, kind, &out))
        return SB_LAYER_FAILURE;
    const struct sb_layer_spirv *spirv = sb_layer_output_stage(&out, stage->stage);
    VkResult r = VK_SUCCESS;
    if (!spirv) {
        sb_layer_log(SB_LAYER_LOG_ERROR, "pipeline: the chained %s bytes have no %s stage: "
                     "VK_ERROR_INVALID_SHADER_NV", sb_layer_kind_name(kind), stage_name(stage->stage));
        r = SB_LAYER_FAILURE;
    }
    VkShaderModule module = VK_NULL_HANDLE;
    if (r == VK_SUCCESS) {
        VkShaderModuleCreateInfo ci = *smci;
        ci.codeSize = spirv->word_count * 4;
        ci.pCode = spirv->words;
        r = dev->create_shader_module(dev->device, &ci, alloc, &module);
    }
    if (r == VK_SUCCESS && !scratch_module(s, module)) {
        dev->destroy_shader_module(dev->device, module, alloc);
        r = VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    if (r == VK_SUCCESS) {
        stage->module = module;
        stage->pNext = smci->pNext;
        const char *entry = spirv->entry;
        if (entry && (!stage->pName || strcmp(stage->pName, entry))) {
            stage->pName = scratch_string(s, entry);
            r = stage->pName ? VK_SUCCESS : VK_ERROR_OUT_OF_HOST_MEMORY;
        }
    }
    sb_layer_output_free(&out);
    return r;
}

static const VkShaderModuleCreateInfo *chained_code(const VkPipelineShaderStageCreateInfo *stage)
{
    for (const VkBaseInStructure *p = stage->pNext; p; p = p->pNext)
        if (p->sType == VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO)
            return (const VkShaderModuleCreateInfo *)p;
    return NULL;
}

bool sb_layer_stage_needs_fix(const VkPipelineShaderStageCreateInfo *stage)
{
    struct sb_layer_module_info info;
    if (stage->module)
        return sb_layer_module_lookup(stage->module, &info);
    const VkShaderModuleCreateInfo *smci = chained_code(stage);
    return smci && smci->pCode && sb_layer_detect(smci->pCode, smci->codeSize) != SB_LAYER_KIND_PASS;
}

VkResult sb_layer_stage_fix(const struct sb_layer_device *dev, VkPipelineShaderStageCreateInfo *stage,
                            const VkAllocationCallbacks *alloc, struct sb_layer_scratch *s)
{
    struct sb_layer_module_info info;
    if (stage->module)
        return sb_layer_module_lookup(stage->module, &info) ? fix_registered(&info, stage, s) : VK_SUCCESS;
    const VkShaderModuleCreateInfo *smci = chained_code(stage);
    enum sb_layer_kind kind = smci && smci->pCode ? sb_layer_detect(smci->pCode, smci->codeSize) : SB_LAYER_KIND_PASS;
    return kind == SB_LAYER_KIND_PASS ? VK_SUCCESS : fix_chained(dev, smci, stage, alloc, kind, s);
}
