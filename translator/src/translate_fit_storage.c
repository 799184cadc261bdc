/* SPDX-License-Identifier: MIT */
/*
 * More raw/structured t#/u# than the device has storage-buffer descriptors per stage
 * (sb_device_profile::max_per_stage_storage_buffers; lavapipe 22.3 has 32, and some
 * vkd3d-proton tests declare 64 or more): some of them become texel buffers of R32_UINT
 * elements, which count against other per-stage limits (a t# against sampled images, a u#
 * against storage images). The SPIR-V back end then reads a DWORD with OpImageFetch /
 * OpImageRead at the DWORD index instead of a load from a uint[] block
 * (spirv/spirv_texel_memory.c); the memory and its meaning do not change.
 *
 * The rule, deterministic and documented in translate.h: t# first (read-only, so their
 * uniform texel buffers lose nothing), then u#; inside each class from the highest
 * (space, register) down, since low registers are the ones every D3D shader uses and keep
 * their usual form. A whole register or range moves at once (one binding has one type);
 * one whose descriptors would pass the limit of its new type is skipped and the walk goes
 * on. UAV counters stay storage buffers (they count, but cannot move: an atomic counter
 * block has no texel form the runtime binds). Why not the lowest first, or the largest
 * range: any fixed order works, and this one leaves the common small shader untouched
 * until the limit is really passed.
 */
#include "translate_fit.h"

#include <stdbool.h>
#include <stdlib.h>

#include "error.h"
#include "spirv/spirv_private.h"

/* VkDescriptorType values counted here (sb_spv_descriptor_type's). */
enum {
    SAMPLED_IMAGE = 2,
    STORAGE_IMAGE = 3,
    UNIFORM_TEXEL_BUFFER = 4,
    STORAGE_TEXEL_BUFFER = 5,
    STORAGE_BUFFER = 7,
};

/* Descriptors a binding takes: an unbounded range left as a runtime array counts none
 * (translate.h: it is bound under the device's update-after-bind limits). */
static uint64_t descriptors(const struct sb_ir_resource *r)
{
    return r->count == UINT32_MAX ? 0 : r->count;
}

static bool is_memory(const struct sb_ir_resource *r)
{
    return (r->resource_class == SB_IR_RESOURCE_SRV || r->resource_class == SB_IR_RESOURCE_UAV) &&
           r->kind != SB_IR_RESOURCE_KIND_TYPED;
}

/* Is a (space, register) above b's? */
static bool above(const struct sb_ir_resource *a, const struct sb_ir_resource *b)
{
    return a->space != b->space ? a->space > b->space : a->lower_bound > b->lower_bound;
}

/* The next resource of `cls` to move: the highest one not yet tried; UINT32_MAX when none. */
static uint32_t next_candidate(const struct sb_ir_resource *res, uint32_t count, uint32_t cls,
                               const bool *tried)
{
    uint32_t best = UINT32_MAX;
    for (uint32_t i = 0; i < count; i++)
        if (!tried[i] && res[i].resource_class == cls && is_memory(&res[i]) && descriptors(&res[i]) &&
            (best == UINT32_MAX || above(&res[i], &res[best])))
            best = i;
    return best;
}

/* A limit of 0 is "no limit". */
static bool fits(uint64_t used, uint32_t limit)
{
    return limit == 0 || used <= limit;
}

enum sb_result sb_translate_fit_storage_buffers(struct sb_ir_resource *res, uint32_t count,
                                                const struct sb_translate_options *options,
                                                struct sb_error *error)
{
    const struct sb_device_profile *d = &options->device;
    if (!d->described || !d->max_per_stage_storage_buffers)
        return SB_SUCCESS;
    uint64_t storage = 0, sampled = 0, images = 0;
    for (uint32_t i = 0; i < count; i++) {
        uint64_t n = descriptors(&res[i]);
        switch (sb_spv_descriptor_type(&res[i])) {
        case STORAGE_BUFFER: storage += n; break;
        case SAMPLED_IMAGE: case UNIFORM_TEXEL_BUFFER: sampled += n; break;
        case STORAGE_IMAGE: case STORAGE_TEXEL_BUFFER: images += n; break;
        default: break;
        }
        if (res[i].resource_class == SB_IR_RESOURCE_UAV && res[i].has_counter)
            storage += n;
    }
    uint64_t needed = storage;
    if (fits(storage, d->max_per_stage_storage_buffers))
        return SB_SUCCESS;
    bool *tried = calloc(count ? count : 1, sizeof(*tried));
    if (!tried)
        return sb_error_set(error, SB_ERROR_OUT_OF_MEMORY, 0, SB_ERROR_NO_INSTR, "out of memory");
    static const uint32_t classes[2] = { SB_IR_RESOURCE_SRV, SB_IR_RESOURCE_UAV };
    for (uint32_t c = 0; c < 2 && !fits(storage, d->max_per_stage_storage_buffers); c++) {
        bool srv = classes[c] == SB_IR_RESOURCE_SRV;
        uint32_t i;
        while (!fits(storage, d->max_per_stage_storage_buffers) &&
               (i = next_candidate(res, count, classes[c], tried)) != UINT32_MAX) {
            tried[i] = true;
            uint64_t n = descriptors(&res[i]);
            uint64_t *target = srv ? &sampled : &images;
            if (!fits(*target + n, srv ? d->max_per_stage_sampled_images : d->max_per_stage_storage_images))
                continue;
            *target += n;
            storage -= n;
            res[i].texel_memory = true;
        }
    }
    free(tried);
    if (fits(storage, d->max_per_stage_storage_buffers))
        return SB_SUCCESS;
    /* Limits first: messages are cut at 192 bytes (struct sb_error). */
    return sb_error_set(error, SB_ERROR_TRANSLATE_UNSUPPORTED, 0, SB_ERROR_NO_INSTR,
                        "%llu storage buffers (raw/structured t#/u#, UAV counters) pass "
                        "maxPerStageDescriptorStorageBuffers (%u); %llu remain when texel buffers fill "
                        "the sampled (%u) and storage (%u) image limits",
                        (unsigned long long)needed, d->max_per_stage_storage_buffers,
                        (unsigned long long)storage, d->max_per_stage_sampled_images,
                        d->max_per_stage_storage_images);
}
