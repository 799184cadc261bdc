/* SPDX-License-Identifier: MIT */
/*
 * `shaderbridge run FILE [--dispatch X,Y,Z | --draw N|WxH] [--input REG=FILE ...]
 * [--output DIR] [--cpu] [--seed N] [--device D]`: other stages draw
 * (run_draw.c); this file runs a compute shader on
 * the GPU (or, with --cpu, on the interpreter) and writes every UAV to
 * DIR/<reg>.bin (u0.bin, u1@space2.bin), its counter to <reg>.counter as
 * decimal text, and a 2D texture also as <reg>.png (8-bit RGBA, floats
 * clamped to [0, 1]). Resources not given by --input are filled
 * from the seed as `validate` fills them; an --input file replaces the
 * resource's contents (a buffer takes the file's size, rounded up to 4 bytes;
 * a texture must be given exactly its size; a t# named *.dds or *.png brings its own
 * format and shape, dds_input.c, png_image.c; an s# file describes the sampler,
 * sampler_text.c).
 */
#define _POSIX_C_SOURCE 200809L
#include "commands.h"
#include "run_common.h"
#include "dds_input.h"
#include "input_files.h"
#include "png_image.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static int find_resource(const struct sb_rt_inputs *inputs, const char *reg)
{
    char name[48];
    for (uint32_t i = 0; i < inputs->count; i++) {
        cli_run_resource_name(&inputs->resources[i], name, sizeof(name));
        if (!strcmp(name, reg))
            return (int)i;
    }
    return -1;
}

static bool apply_input(struct sb_rt_inputs *inputs, const char *spec)
{
    const char *eq = strchr(spec, '=');
    char reg[48];
    size_t len = (size_t)(eq - spec);
    if (len == 0 || len >= sizeof(reg)) {
        cli_usage_error("run: --input '%s': no register name before '='", spec);
        return false;
    }
    memcpy(reg, spec, len);
    reg[len] = 0;
    int index = find_resource(inputs, reg);
    if (index < 0) {
        cli_usage_error("run: --input '%s': the shader declares no %s", spec, reg);
        return false;
    }
    struct sb_rt_resource *r = &inputs->resources[index];
    bool shaped = r->resource_class == SB_IR_RESOURCE_SAMPLER ||
                  ((r->resource_class == SB_IR_RESOURCE_SRV || r->resource_class == SB_IR_RESOURCE_UAV) &&
                   (cli_dds_input_named(eq + 1) || cli_png_input_named(eq + 1)));
    struct cli_file file;
    if (shaped) {
        /* A DDS or PNG texture, or a sampler's text: read as draws read them, checked against
         * the declaration by the library. */
        struct sb_rt_resource entry;
        if (cli_input_load("run", spec, &entry, &file) != CLI_EXIT_OK)
            return false;
        struct sb_error error = { 0 };
        bool ok = sb_rt_inputs_provide(inputs, &entry, 1, &error) == SB_SUCCESS;
        if (!ok) {
            const char *why = strchr(error.message, ':'); /* past "provided input 0" */
            fprintf(stderr, "shaderbridge: error: run: --input %s: %s [%s]\n", spec,
                    why && why[1] ? why + 2 : error.message, sb_result_name(error.code));
        }
        cli_file_free(&file);
        return ok;
    }
    if (!cli_file_load(eq + 1, &file))
        return false;
    bool ok = true;
    if (r->dimension && r->dimension != 1 && file.size != r->size) {
        cli_usage_error("run: --input %s: the texture takes exactly %zu bytes, '%s' has %zu", reg,
                        r->size, eq + 1, file.size);
        ok = false;
    } else {
        size_t size = (file.size + 3) & ~(size_t)3;
        void *data = calloc(size ? size : 4, 1);
        if (!data) {
            fprintf(stderr, "shaderbridge: error: out of memory\n");
            ok = false;
        } else {
            memcpy(data, file.bytes, file.size);
            free(r->data);
            r->data = data;
            r->size = size;
            if (r->dimension == 1 && sb_rt_format_size((enum sb_rt_format)r->format))
                r->width = (uint32_t)(size / sb_rt_format_size((enum sb_rt_format)r->format));
            free(inputs->word_kinds[index]); /* kinds no longer describe the data */
            inputs->word_kinds[index] = NULL;
        }
    }
    cli_file_free(&file);
    return ok;
}

static bool write_outputs(const struct cli_run_options *o, const struct sb_rt_inputs *inputs)
{
    if (mkdir(o->output_dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "shaderbridge: error: cannot create %s: %s\n", o->output_dir, strerror(errno));
        return false;
    }
    for (uint32_t i = 0; i < inputs->count; i++) {
        const struct sb_rt_resource *r = &inputs->resources[i];
        if (r->resource_class != SB_IR_RESOURCE_UAV)
            continue;
        char name[48], path[4096];
        cli_run_resource_name(r, name, sizeof(name));
        snprintf(path, sizeof(path), "%s/%s.bin", o->output_dir, name);
        FILE *f = fopen(path, "wb");
        bool ok = f && fwrite(r->data, 1, r->size, f) == r->size;
        if (f && fclose(f) != 0)
            ok = false;
        if (!ok) {
            fprintf(stderr, "shaderbridge: error: cannot write %s: %s\n", path, strerror(errno));
            return false;
        }
        printf("  %s -> %s (%zu bytes)\n", name, path, r->size);
        if (r->dimension == 3 || r->dimension == 8) { /* 2D (array layer 0): also an image */
            snprintf(path, sizeof(path), "%s/%s.png", o->output_dir, name);
            if (!cli_png_write_texture(path, r, 0)) {
                fprintf(stderr, "shaderbridge: error: cannot write %s: %s\n", path, strerror(errno));
                return false;
            }
            printf("  %s -> %s (%ux%u RGBA8)\n", name, path, r->width, r->height);
        }
        snprintf(path, sizeof(path), "%s/%s.counter", o->output_dir, name);
        f = fopen(path, "w");
        if (!f || fprintf(f, "%u\n", r->counter) < 0 || fclose(f) != 0) {
            fprintf(stderr, "shaderbridge: error: cannot write %s\n", path);
            return false;
        }
    }
    return true;
}

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int run(const struct cli_run_options *o, struct sb_rt_program *program)
{
    struct sb_rt_inputs *inputs = NULL;
    struct sb_error error = { 0 };
    struct sb_rt_input_options input_options = { .seed = o->seed };
    if (sb_rt_inputs_create(program, &input_options, &inputs, &error) != SB_SUCCESS) {
        cli_report_error(o->file, &error);
        return cli_run_exit_for(error.code);
    }
    for (uint32_t k = 0; k < o->input_count; k++) {
        if (!apply_input(inputs, o->inputs[k])) {
            sb_rt_inputs_destroy(inputs);
            return CLI_EXIT_USAGE;
        }
    }
    struct sb_rt_context *context = NULL;
    enum sb_result r = SB_SUCCESS;
    uint64_t start = now_ns();
    struct sb_interp_stats stats = { 0 };
    struct sb_rt_timing timing = { 0 };
    if (o->cpu) {
        /* One worker per CPU: `run` reports results, it does not compare runs (validate does). */
        const struct sb_interp_options interp = { .threads = SB_INTERP_THREADS_AUTO };
        r = sb_interp_dispatch(program->ir, inputs->resources, inputs->count, o->groups, &interp,
                               &stats, &error);
    } else if (cli_run_context(o, &context)) {
        r = sb_rt_dispatch(context, program->translation, inputs->resources, inputs->count,
                           o->groups, &timing, &error);
    } else {
        sb_rt_inputs_destroy(inputs);
        return CLI_EXIT_NOT_RUN;
    }
    uint64_t elapsed = now_ns() - start;
    int status = CLI_EXIT_OK;
    if (r != SB_SUCCESS) {
        cli_report_error(o->file, &error);
        status = cli_run_exit_for(r);
    } else {
        printf("%s: ran %ux%ux%u groups on %s in %.3f ms\n", o->file, o->groups[0], o->groups[1],
               o->groups[2], o->cpu ? "the CPU interpreter" : sb_rt_context_device_name(context),
               elapsed / 1e6);
        if (o->output_dir && !write_outputs(o, inputs))
            status = CLI_EXIT_INVALID_INPUT;
    }
    sb_rt_context_destroy(context);
    sb_rt_inputs_destroy(inputs);
    return status;
}

int cli_cmd_run(int argc, char **argv)
{
    struct cli_run_options o = { .groups = { 1, 1, 1 }, .seed = 1 };
    for (int i = 1; i < argc; i++) {
        int parsed = cli_run_parse_option("run", argc, argv, &i, &o);
        if (parsed < 0)
            return CLI_EXIT_USAGE;
        if (parsed)
            continue;
        if (argv[i][0] == '-' && argv[i][1]) {
            cli_usage_error("run: unknown option '%s'", argv[i]);
            return CLI_EXIT_USAGE;
        }
        if (o.file) {
            cli_usage_error("run: takes one file ('%s' and '%s' given)", o.file, argv[i]);
            return CLI_EXIT_USAGE;
        }
        o.file = argv[i];
    }
    if (!o.file) {
        cli_usage_error("run: no input file");
        return CLI_EXIT_USAGE;
    }
    if (o.ulps || o.spirv || o.bindings) {
        cli_usage_error("run: %s belongs to 'validate'", o.ulps ? "--ulps" : o.spirv ? "--spirv" : "--bindings");
        return CLI_EXIT_USAGE;
    }
    struct sb_rt_program *program = NULL;
    int loaded = cli_run_load(&o, &program, NULL);
    if (loaded != CLI_EXIT_OK)
        return loaded;
    int status;
    /* sb_rt_program_load refuses these already ("not run: ..."); a program made otherwise
     * must not reach the draw path either. */
    if (program->stage == SB_IR_STAGE_MESH || program->stage == SB_IR_STAGE_AMPLIFICATION) {
        fprintf(stderr, "shaderbridge: error: run: not run: %s shaders have no runtime stage\n",
                program->stage == SB_IR_STAGE_MESH ? "mesh" : "amplification");
        status = CLI_EXIT_NOT_RUN;
    } else if (program->stage != SB_IR_STAGE_COMPUTE) {
        status = cli_run_draw(&o, program);
    } else if (o.draw) {
        cli_usage_error("run: --draw is for vertex, pixel and geometry shaders; compute shaders take --dispatch");
        status = CLI_EXIT_USAGE;
    } else {
        status = run(&o, program);
    }
    sb_rt_program_destroy(program);
    return status;
}
