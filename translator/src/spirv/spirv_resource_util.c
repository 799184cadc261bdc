/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the resource files of the SPIR-V back end
 * (spirv_private.h, "resource files' shared helpers"): finding the resource
 * an operand names, the descriptor pointer of an SM5.1 range element with
 * the NonUniform rules of Vulkan (the decoration goes on the value the
 * image/memory instruction consumes), DWORD pointers into raw/structured
 * buffers and group-shared memory, and the ways typed results are written
 * (through the resource's swizzle, or one value replicated). Also the
 * VkDescriptorType of each binding, which ../translate.c reports and the
 * declarations here match.
 */
#include "spirv_private.h"

/* The descriptor-indexing features became core in SPIR-V 1.5. */
#define SPIRV_1_5 0x00010500u

/* VkDescriptorType values (the Vulkan headers are not a translator dependency). */
enum {
    SB_VK_DESCRIPTOR_SAMPLER = 0,
    SB_VK_DESCRIPTOR_SAMPLED_IMAGE = 2,
    SB_VK_DESCRIPTOR_STORAGE_IMAGE = 3,
    SB_VK_DESCRIPTOR_UNIFORM_TEXEL_BUFFER = 4,
    SB_VK_DESCRIPTOR_STORAGE_TEXEL_BUFFER = 5,
    SB_VK_DESCRIPTOR_UNIFORM_BUFFER = 6,
    SB_VK_DESCRIPTOR_STORAGE_BUFFER = 7,
};

uint32_t sb_spv_descriptor_type(const struct sb_ir_resource *res)
{
    switch (res->resource_class) {
    case SB_IR_RESOURCE_CBV: return SB_VK_DESCRIPTOR_UNIFORM_BUFFER;
    case SB_IR_RESOURCE_SAMPLER: return SB_VK_DESCRIPTOR_SAMPLER;
    case SB_IR_RESOURCE_SRV:
        if (res->kind != SB_IR_RESOURCE_KIND_TYPED)
            return res->texel_memory ? SB_VK_DESCRIPTOR_UNIFORM_TEXEL_BUFFER : SB_VK_DESCRIPTOR_STORAGE_BUFFER;
        return res->dimension == 1 ? SB_VK_DESCRIPTOR_UNIFORM_TEXEL_BUFFER : SB_VK_DESCRIPTOR_SAMPLED_IMAGE;
    case SB_IR_RESOURCE_UAV:
    default:
        if (res->kind != SB_IR_RESOURCE_KIND_TYPED)
            return res->texel_memory ? SB_VK_DESCRIPTOR_STORAGE_TEXEL_BUFFER : SB_VK_DESCRIPTOR_STORAGE_BUFFER;
        return res->dimension == 1 ? SB_VK_DESCRIPTOR_STORAGE_TEXEL_BUFFER : SB_VK_DESCRIPTOR_STORAGE_IMAGE;
    }
}

void sb_spv_resource_need_storage_buffer(struct sb_spv_context *ctx)
{
    if (ctx->spirv_version < 0x00010300u)
        sb_spv_extension(&ctx->builder, "SPV_KHR_storage_buffer_storage_class");
}

void sb_spv_resource_need_indexing(struct sb_spv_context *ctx, SpvCapability cap)
{
    if (ctx->spirv_version < SPIRV_1_5)
        sb_spv_extension(&ctx->builder, "SPV_EXT_descriptor_indexing");
    sb_spv_capability(&ctx->builder, cap);
}

/* The loop's uniform index, kept in the context by spirv_waterfall.c (which calls down here). */
uint32_t sb_spv_waterfall_index(const struct sb_spv_context *ctx, const struct sb_ir_operand *op)
{
    for (uint32_t k = 0; k < ctx->waterfall.count; k++)
        if (ctx->waterfall.levels[k].file == op->file && ctx->waterfall.levels[k].range == op->index[0].offset)
            return ctx->waterfall.levels[k].index;
    return 0;
}

void sb_spv_resource_non_uniform(struct sb_spv_context *ctx, const struct sb_ir_operand *op,
                                 uint32_t id)
{
    if (!op->non_uniform || !id || sb_spv_waterfall_index(ctx, op))
        return;
    sb_spv_resource_need_indexing(ctx, SpvCapabilityShaderNonUniform);
    sb_spv_decorate(&ctx->builder, id, SpvDecorationNonUniform, NULL, 0);
}

uint32_t sb_spv_resource_class_of_file(uint32_t file)
{
    switch (file) {
    case SB_IR_FILE_SAMPLER: return SB_IR_RESOURCE_SAMPLER;
    case SB_IR_FILE_RESOURCE: return SB_IR_RESOURCE_SRV;
    case SB_IR_FILE_UAV: return SB_IR_RESOURCE_UAV;
    default: return UINT32_MAX;
    }
}

uint32_t sb_spv_resource_index(struct sb_spv_context *ctx, const struct sb_ir_operand *op,
                               uint32_t resource_class)
{
    const struct sb_ir_program *p = ctx->program;
    if (sb_spv_resource_class_of_file(op->file) != resource_class || op->index_count < 1) {
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL,
                    "operand of file %u where a resource of class %u is expected", op->file,
                    resource_class);
        return UINT32_MAX;
    }
    if (op->index[0].relative) {
        /* SM5.0 class linkage indexes across separately declared registers
         * (t[r0.w + 0]); they are no array in SPIR-V. */
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, NULL,
                    "relatively indexed resource register of class %u (class linkage) is not "
                    "supported", resource_class);
        return UINT32_MAX;
    }
    uint32_t id = op->index[0].offset;
    for (uint32_t i = 0; i < p->resource_count; i++)
        if (p->resources[i].resource_class == resource_class && p->resources[i].id == id) {
            if (!ctx->resources[i].var) {
                sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL,
                            "resource %u of class %u has no variable", id, resource_class);
                return UINT32_MAX;
            }
            return i;
        }
    sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL, "resource %u of class %u is not declared",
                id, resource_class);
    return UINT32_MAX;
}

/* The capability that lets a shader index descriptors of this type non-uniformly. */
static SpvCapability non_uniform_capability(const struct sb_ir_resource *r)
{
    /* Indexed by VkDescriptorType (sb_spv_descriptor_type). */
    static const SpvCapability caps[8] = {
        SpvCapabilitySampledImageArrayNonUniformIndexing,       /* SAMPLER */
        SpvCapabilitySampledImageArrayNonUniformIndexing,       /* COMBINED_IMAGE_SAMPLER */
        SpvCapabilitySampledImageArrayNonUniformIndexing,       /* SAMPLED_IMAGE */
        SpvCapabilityStorageImageArrayNonUniformIndexing,       /* STORAGE_IMAGE */
        SpvCapabilityUniformTexelBufferArrayNonUniformIndexing, /* UNIFORM_TEXEL_BUFFER */
        SpvCapabilityStorageTexelBufferArrayNonUniformIndexing, /* STORAGE_TEXEL_BUFFER */
        SpvCapabilityUniformBufferArrayNonUniformIndexing,      /* UNIFORM_BUFFER */
        SpvCapabilityStorageBufferArrayNonUniformIndexing,      /* STORAGE_BUFFER */
    };
    return caps[sb_spv_descriptor_type(r) & 7u];
}

uint32_t sb_spv_resource_array_index(struct sb_spv_context *ctx, uint32_t index,
                                     const struct sb_ir_operand *op)
{
    const struct sb_ir_resource *decl = &ctx->program->resources[index];
    /* SM5.1: index[1] already counts from the range's first register (IR.md). */
    const struct sb_ir_index *ix = &op->index[op->index_count >= 2 ? 1 : 0];
    uint32_t uniform = sb_spv_waterfall_index(ctx, op); /* inside a waterfall loop */
    if (uniform)
        return uniform;
    if (!ix->relative && decl->count != UINT32_MAX && ix->offset >= decl->count) {
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL,
                    "index %u is outside the %u descriptors of range %u", ix->offset, decl->count,
                    decl->id);
        return 0;
    }
    return sb_spv_index_value(ctx, ix);
}

uint32_t sb_spv_resource_descriptor_pointer(struct sb_spv_context *ctx, uint32_t index,
                                            const struct sb_ir_operand *op)
{
    const struct sb_spv_resource *r = &ctx->resources[index];
    const struct sb_ir_resource *decl = &ctx->program->resources[index];
    if (!r->arrayed)
        return r->var;
    uint32_t element = sb_spv_resource_array_index(ctx, index, op);
    if (!element)
        return 0;
    struct sb_spv_resource_state *st = sb_spv_resource_state(ctx);
    uint32_t ptr = sb_spv_access_chain(&ctx->builder, st->info[index].element_pointer, r->var,
                                       &element, 1);
    if (op->non_uniform && !sb_spv_waterfall_index(ctx, op))
        sb_spv_resource_need_indexing(ctx, non_uniform_capability(decl));
    sb_spv_resource_non_uniform(ctx, op, ptr);
    return ptr;
}

uint32_t sb_spv_resource_load_handle(struct sb_spv_context *ctx, uint32_t index,
                                     const struct sb_ir_operand *op)
{
    uint32_t ptr = sb_spv_resource_descriptor_pointer(ctx, index, op);
    if (!ptr)
        return 0;
    uint32_t handle = sb_spv_load(&ctx->builder, ctx->resources[index].element_type, ptr);
    sb_spv_resource_non_uniform(ctx, op, handle);
    return handle;
}

/* The g# entry of an operand; UINT32_MAX (recorded) when not declared. */
static uint32_t group_shared_index(struct sb_spv_context *ctx, const struct sb_ir_operand *op)
{
    const struct sb_ir_program *p = ctx->program;
    uint32_t id = op->index_count ? op->index[0].offset : UINT32_MAX;
    for (uint32_t i = 0; i < p->group_shared_count; i++)
        if (p->group_shared[i].id == id && ctx->group_shared_vars[i])
            return i;
    sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL, "g%u is not declared", id);
    return UINT32_MAX;
}

uint32_t sb_spv_memory_stride(struct sb_spv_context *ctx, const struct sb_ir_operand *op,
                              bool *structured)
{
    if (op->file == SB_IR_FILE_GROUP_SHARED) {
        uint32_t g = group_shared_index(ctx, op);
        if (g == UINT32_MAX)
            return 0;
        const struct sb_ir_group_shared *gs = &ctx->program->group_shared[g];
        *structured = gs->structured;
        return gs->structured ? gs->stride : 4;
    }
    uint32_t cls = op->file == SB_IR_FILE_UAV ? SB_IR_RESOURCE_UAV : SB_IR_RESOURCE_SRV;
    uint32_t i = sb_spv_resource_index(ctx, op, cls);
    if (i == UINT32_MAX)
        return 0;
    const struct sb_ir_resource *r = &ctx->program->resources[i];
    if (r->kind == SB_IR_RESOURCE_KIND_TYPED) {
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL,
                    "typed resource %u used as raw or structured memory", r->id);
        return 0;
    }
    *structured = r->kind == SB_IR_RESOURCE_KIND_STRUCTURED;
    return *structured ? r->stride : 4;
}

uint32_t sb_spv_memory_dword_pointer(struct sb_spv_context *ctx, const struct sb_ir_operand *op,
                                     uint32_t dword)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (!dword)
        return 0;
    if (op->file == SB_IR_FILE_GROUP_SHARED) {
        uint32_t g = group_shared_index(ctx, op);
        if (g == UINT32_MAX)
            return 0;
        uint32_t last = sb_spv_resource_state(ctx)->group_shared_dwords[g] - 1;
        uint32_t clamped = sb_spv_glsl2(b, sb_spv_t_u32(ctx), GLSLstd450UMin, dword, sb_spv_uint(ctx, last));
        SpvStorageClass sc = sb_spv_group_shared_class(&ctx->program->group_shared[g]);
        return sb_spv_access_chain(b, sb_spv_type_pointer(b, sc, sb_spv_t_u32(ctx)),
                                   ctx->group_shared_vars[g], &clamped, 1);
    }
    uint32_t cls = op->file == SB_IR_FILE_UAV ? SB_IR_RESOURCE_UAV : SB_IR_RESOURCE_SRV;
    uint32_t i = sb_spv_resource_index(ctx, op, cls);
    if (i == UINT32_MAX)
        return 0;
    if (ctx->program->resources[i].kind == SB_IR_RESOURCE_KIND_TYPED) {
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL,
                    "typed resource %u used as raw or structured memory",
                    ctx->program->resources[i].id);
        return 0;
    }
    uint32_t block = sb_spv_resource_descriptor_pointer(ctx, i, op);
    if (!block)
        return 0;
    uint32_t idx[2] = { sb_spv_uint(ctx, 0), dword };
    uint32_t ptr = sb_spv_access_chain(
        b, sb_spv_type_pointer(b, SpvStorageClassStorageBuffer, sb_spv_t_u32(ctx)), block, idx, 2);
    sb_spv_resource_non_uniform(ctx, op, ptr);
    return ptr;
}

bool sb_spv_store_replicated(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                             const struct sb_ir_operand *dst, uint32_t scalar, uint32_t ir_type)
{
    uint32_t n = sb_spv_mask_count(dst->mask);
    if (!n || dst->file == SB_IR_FILE_NULL)
        return true;
    if (!scalar)
        return false;
    uint32_t value = scalar;
    if (n > 1) {
        uint32_t parts[4] = { scalar, scalar, scalar, scalar };
        value = sb_spv_construct(&ctx->builder, sb_spv_type_of(ctx, ir_type, n), parts, n);
    }
    return sb_spv_store_dst(ctx, inst, dst, value, ir_type);
}

bool sb_spv_store_texel(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                        const struct sb_ir_operand *dst, uint32_t texel, uint32_t ir_type,
                        const struct sb_ir_operand *resource)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t comps[4], n = 0;
    if (dst->file == SB_IR_FILE_NULL)
        return true;
    if (!texel)
        return false;
    for (uint32_t i = 0; i < 4; i++)
        if (dst->mask & (1u << i))
            comps[n++] = resource->swizzle[i] & 3u;
    if (!n)
        return true;
    bool identity = n == 4 && comps[0] == 0 && comps[1] == 1 && comps[2] == 2 && comps[3] == 3;
    uint32_t value = texel;
    if (n == 1)
        value = sb_spv_extract(b, sb_spv_type_of(ctx, ir_type, 1), texel, comps[0]);
    else if (!identity)
        value = sb_spv_shuffle(b, sb_spv_type_of(ctx, ir_type, n), texel, texel, comps, n);
    return sb_spv_store_dst(ctx, inst, dst, value, ir_type);
}

bool sb_spv_store_status(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst)
{
    if (inst->dst_count < 2)
        return true;
    return sb_spv_store_replicated(ctx, inst, &inst->dst[1], sb_spv_uint(ctx, 0), SB_IR_TYPE_UINT);
}

struct sb_spv_resource_state *sb_spv_resource_state(struct sb_spv_context *ctx)
{
    return ctx->resource_state;
}
