/* SPDX-License-Identifier: MIT */
/*
 * Internals of sb_rt_vbc_draw (runtime.h): the objects of one VBC draw and
 * the helpers its files share. The attachments, vertex buffers, render pass,
 * pipeline state and the recorded draw are the graphics path sb_rt_draw_points
 * uses too (vk_graphics.c, vk_draw_target.c), reached through a point-draw
 * description that mirrors the VBC draw; what is VBC-specific — the engine's
 * descriptor tables, the uniform, the push constants, the modules from the
 * file's SPIR-V — is here.
 */
#ifndef SB_RUNTIME_VK_VBC_PRIVATE_H
#define SB_RUNTIME_VK_VBC_PRIVATE_H

#include "shaderbridge/vbc.h"
#include "vk_draw_private.h"

/* The engine's uniform descriptor range (../shared/docs/vbc.md §7): the compiler's largest struct. */
#define SB_VK_VBC_UNIFORM_RANGE 1024u

/* Component types of formats, vertex inputs and fragment outputs. */
enum sb_vk_vbc_kind { SB_VK_VBC_FLOAT, SB_VK_VBC_UINT, SB_VK_VBC_SINT, SB_VK_VBC_NONE };

/** The Vulkan object behind one table element: a bound resource or a table's default. */
struct sb_vk_vbc_object {
    struct sb_rt_resource *resource;   /* the caller's, or &default_resource */
    struct sb_vk_image image;          /* Sampler / Image */
    VkSampler sampler;                 /* Sampler */
    struct sb_vk_buffer buffer;        /* buffers and texel buffers (view) */
    bool writable;                     /* Image / RWBuffer / RWTexels: read back */
};

/** A bound slot: its binding record, the caller's binding and where its object went. */
struct sb_vk_vbc_slot {
    const struct sb_vbc_binding *record;
    const struct sb_rt_vbc_binding *bound;   /* NULL: unused slot left unbound */
    uint32_t element;                        /* its table index (the pushed u16) */
    struct sb_vk_vbc_object object;
};

/** Everything one sb_rt_vbc_draw creates; sb_vk_vbc_release frees it all. */
struct sb_vk_vbc {
    struct sb_rt_context *c;
    const struct sb_rt_vbc_draw *d;
    const struct sb_vbc *vbc;
    /* The point-draw mirror the shared target / render-pass code reads (no shaders). */
    struct sb_rt_draw mirror;
    struct sb_vk_draw draw;
    /* What draw.vertex_buffers / draw.targets point at (at most 16 streams, 8 targets). */
    struct sb_vk_buffer vertex_buffers[32];
    struct sb_vk_image targets[SB_VK_MAX_TARGETS];
    VkColorComponentFlags write_masks[SB_VK_MAX_TARGETS]; /* what draw.write_masks points at: RGBA */
    /* Slots by binding record (vbc->bindings order). */
    struct sb_vk_vbc_slot slots[SB_VBC_MAX_BINDINGS];
    /* Per table: the default object written into every element no slot takes. */
    struct sb_rt_resource default_resource[SB_VBC_TABLE_COUNT];
    struct sb_vk_vbc_object defaults[SB_VBC_TABLE_COUNT];
    struct sb_vk_buffer uniform;
    uint32_t push[SB_VBC_MAX_BINDINGS / 2];
    /* Layout decisions (vk_vbc_layout.c). */
    bool update_after_bind;                  /* UPDATE_AFTER_BIND_POOL on set 0 and the pool */
    VkDescriptorBindingFlags binding_flags;  /* set 0's per-binding flags */
    VkDescriptorSetLayout set_layouts[2];
    uint32_t set_count;
    VkDescriptorPool pool;
    VkDescriptorSet sets[2];
    VkPipelineLayout layout;
    VkShaderModule modules[2];               /* vertex, fragment */
    uint32_t *vertex_words;                  /* the PointSize copy for point lists, or NULL */
    size_t vertex_word_count;
    VkPipeline pipeline;
};

/* ---- vk_vbc_format.c ------------------------------------------------------------------------- */

/** The component type of an sb_rt_format (NONE for unknown values). */
enum sb_vk_vbc_kind sb_vk_vbc_format_kind(uint32_t format);
/** The component type of a VBC base type (Signed / Unsigned / Float; NONE otherwise). */
enum sb_vk_vbc_kind sb_vk_vbc_base_kind(enum sb_vbc_base_type type);
/** The component type of a texel type (Float, UNorm and SNorm read as float). */
enum sb_vk_vbc_kind sb_vk_vbc_texel_kind(enum sb_vbc_texel_type type);
/** The sb_rt_format of a texel format; SB_RT_FORMAT_UNDEFINED when it has none. */
uint32_t sb_vk_vbc_texel_format(const struct sb_vbc_texel_format *format);
/** The 4-component 32-bit sb_rt_format of a component type (default resources). */
uint32_t sb_vk_vbc_kind_format(enum sb_vk_vbc_kind kind);
/** The SM4 resource dimension of a texel rank (resources.h `dimension`); 0 for Buffer / unknown. */
uint32_t sb_vk_vbc_rank_dimension(enum sb_vbc_texel_rank rank);
/** "float" / "uint" / "int" / "none". */
const char *sb_vk_vbc_kind_name(enum sb_vk_vbc_kind kind);

/* ---- vk_vbc_check.c -------------------------------------------------------------------------- */

/** Every check that needs no Vulkan object: the VBC's shape, streams, targets, uniform, bindings. */
enum sb_result sb_vk_vbc_check(struct sb_vk_vbc *v, struct sb_error *error);

/* ---- vk_vbc_layout.c ------------------------------------------------------------------------- */

/** Set layouts (set 0 tables, set 1 uniform), the pipeline layout with its push-constant range. */
enum sb_result sb_vk_vbc_layouts(struct sb_vk_vbc *v, struct sb_error *error);
/** The descriptor pool and sets. */
enum sb_result sb_vk_vbc_sets(struct sb_vk_vbc *v, struct sb_error *error);

/* ---- vk_vbc_resource.c ----------------------------------------------------------------------- */

/** Objects of the bound slots and the tables' defaults, the uniform buffer, the push words. */
enum sb_result sb_vk_vbc_resources_create(struct sb_vk_vbc *v, struct sb_error *error);
/** Writes every table element, the bound resources and the uniform into the sets. */
enum sb_result sb_vk_vbc_resources_write(struct sb_vk_vbc *v, struct sb_error *error);
/** Records the staged image uploads (defaults and bound textures). */
void sb_vk_vbc_resources_record_upload(struct sb_vk_vbc *v, VkCommandBuffer cmd);
/** Records the read-back copies of the writable images. */
void sb_vk_vbc_resources_record_readback(struct sb_vk_vbc *v, VkCommandBuffer cmd);
/** Copies writable images, buffers and texel buffers back into the caller's resources. */
enum sb_result sb_vk_vbc_resources_readback(struct sb_vk_vbc *v, struct sb_error *error);
void sb_vk_vbc_resources_release(struct sb_vk_vbc *v);

/* ---- vk_vbc_pipeline.c ----------------------------------------------------------------------- */

/** Shader modules from the VBC's SPIR-V and the graphics pipeline (after layouts and render pass). */
enum sb_result sb_vk_vbc_pipeline(struct sb_vk_vbc *v, struct sb_error *error);

#endif
