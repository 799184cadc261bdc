/* SPDX-License-Identifier: MIT */
/*
 * bp_measure_compute (bench_pipeline.h): one compute module on a device of its
 * own, through the runtime's Vulkan internals (runtime/src/vulkan/vk_private.h)
 * rather than sb_rt_dispatch, because the public call builds and destroys its
 * pipeline in one go: a second dispatch on the same pipeline (the run time after
 * first use) and a clock around module + pipeline creation alone need the pieces.
 * The pieces are the ones sb_rt_dispatch runs, in its order (resolve, layouts,
 * module, pipeline, resources, descriptor sets, image uploads, dispatch), so the
 * measured module sees exactly what a dispatch gives it.
 *
 * Vertex and pixel programs go through sb_validate's device side instead
 * (bp_measure_graphics): the partner stage it generates, and its timing phases, are
 * what a draw needs, and the same for every engine.
 *
 * Why a device per measurement: lavapipe compiles at the first dispatch, and a
 * driver may keep compiled code per device; a fresh device (and the Mesa shader
 * disk cache off, bench_pipeline.c) makes every measurement a cold compile.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench_pipeline.h"
#include "shaderbridge/runtime.h"
#include "shaderbridge/validate.h"
#include "vulkan/vk_private.h"

/* Bind, dispatch, submit and wait: what a first use costs beyond its resources. */
static enum sb_result dispatch(struct sb_vk_run *run, const uint32_t groups[3], struct sb_error *error)
{
    struct sb_rt_context *c = run->c;
    VkCommandBuffer cmd;
    enum sb_result res = sb_vk_command_begin(c, &cmd, error);
    if (res != SB_SUCCESS)
        return res;
    c->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, run->pipeline);
    if (run->set_count)
        c->vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, run->layout, 0, run->set_count,
                                      run->sets, 0, NULL);
    c->vk.vkCmdDispatch(cmd, groups[0], groups[1], groups[2]);
    return sb_vk_command_submit(c, cmd, error);
}

/* Staging -> image copies of every texture in one submission, as sb_rt_dispatch does. */
static enum sb_result upload_images(struct sb_vk_run *run, struct sb_error *error)
{
    if (!run->has_images)
        return SB_SUCCESS;
    VkCommandBuffer cmd;
    enum sb_result res = sb_vk_command_begin(run->c, &cmd, error);
    if (res != SB_SUCCESS)
        return res;
    for (uint32_t i = 0; i < run->slot_count; i++)
        if (run->slots[i].image.image)
            sb_vk_image_record_upload(run->c, cmd, &run->slots[i].image, run->slots[i].resource);
    return sb_vk_command_submit(run->c, cmd, error);
}

/* CPU time of the whole process (every thread); 0 when the clock is missing. */
static uint64_t process_cpu_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static enum sb_result measure(struct sb_rt_context *c, const struct sb_translation *t,
                              struct sb_rt_resource *resources, uint32_t resource_count,
                              const uint32_t *large_groups, struct bp_sample *out, struct sb_error *error)
{
    struct sb_vk_run run = { .c = c, .t = t };
    enum sb_result res = sb_vk_check_module(c, t->words, t->word_count, t, error);
    if (res == SB_SUCCESS)
        res = sb_vk_bind_resolve(&run, resources, resource_count, error);
    if (res == SB_SUCCESS)
        res = sb_vk_layouts_create(&run, error);
    uint64_t start = sb_vk_now_ns();
    if (res == SB_SUCCESS)
        res = sb_vk_shader_module(c, t->words, t->word_count, &run.module, error);
    if (res == SB_SUCCESS)
        res = sb_vk_compute_pipeline(c, run.module, t->entry_point ? t->entry_point : "main", run.layout,
                                     &run.pipeline, error);
    out->create_ns = sb_vk_now_ns() - start;
    if (res == SB_SUCCESS)
        res = sb_vk_bind_create(&run, error);
    if (res == SB_SUCCESS)
        res = sb_vk_bind_write(&run, error);
    if (res == SB_SUCCESS)
        res = upload_images(&run, error);
    static const uint32_t one[3] = { 1, 1, 1 };
    start = sb_vk_now_ns();
    if (res == SB_SUCCESS)
        res = dispatch(&run, one, error);
    out->first_ns = sb_vk_now_ns() - start;
    if (res == SB_SUCCESS && large_groups) {
        uint64_t cpu_start = process_cpu_ns();
        start = sb_vk_now_ns();
        res = dispatch(&run, large_groups, error);
        out->large_ns = sb_vk_now_ns() - start;
        out->large_cpu_ns = process_cpu_ns() - cpu_start;
    }
    sb_vk_run_release(&run);
    return res;
}

void bp_measure_compute(const struct sb_translation *t, struct sb_rt_resource *resources, uint32_t resource_count,
                        const uint32_t *large_groups, struct bp_sample *out)
{
    memset(out, 0, sizeof(*out));
    struct sb_rt_context *c = NULL;
    struct sb_error error = { 0 };
    const struct sb_rt_context_options options = { .device = NULL };
    enum sb_result res = sb_rt_context_create(&options, &c, &error);
    if (res == SB_SUCCESS) {
        snprintf(out->device, sizeof(out->device), "%s", sb_rt_context_device_name(c));
        res = measure(c, t, resources, resource_count, large_groups, out, &error);
    }
    out->ran = res == SB_SUCCESS;
    if (!out->ran)
        snprintf(out->message, sizeof(out->message), "%s: %s", sb_result_name(error.code), error.message);
    sb_rt_context_destroy(c);
}

void bp_measure_graphics(const struct sb_rt_program *program, const uint32_t *spirv, size_t spirv_words,
                         struct bp_sample *out)
{
    memset(out, 0, sizeof(*out));
    struct sb_rt_context *c = NULL;
    struct sb_error error = { 0 };
    struct sb_validate_report *report = NULL;
    const struct sb_rt_context_options options = { .device = NULL };
    const struct sb_validate_options validate = {
        .inputs = { .seed = 1 },
        .sides = SB_VALIDATE_SIDE_GPU,
        .gpu_spirv = spirv,
        .gpu_spirv_words = spirv_words,
    };
    enum sb_result res = sb_rt_context_create(&options, &c, &error);
    if (res == SB_SUCCESS) {
        snprintf(out->device, sizeof(out->device), "%s", sb_rt_context_device_name(c));
        res = sb_validate(c, program, &validate, &report, &error);
    }
    if (res == SB_SUCCESS) {
        out->create_ns = report->gpu_timing.pipeline_ns;
        out->first_ns = report->gpu_timing.run_ns;
    }
    out->ran = res == SB_SUCCESS;
    if (!out->ran)
        snprintf(out->message, sizeof(out->message), "%s: %s", sb_result_name(error.code), error.message);
    sb_validate_report_destroy(report);
    sb_rt_context_destroy(c);
}
