/* SPDX-License-Identifier: MIT */
/*
 * `shaderbridge validate [--seed N] [--dispatch X,Y,Z] [--ulps N]
 * [--device D] [--output DIR] [--spirv MODULE.spv [--bindings MAP.json]] FILE...`:
 * runs compute, vertex and pixel
 * shaders on the GPU and on the CPU interpreter with the same seeded inputs
 * and compares every UAV word and stage output (vertex outputs, render
 * targets, depth; sb_validate says how they are drawn); several files end
 * with a summary table. With --spirv the GPU runs that module instead of our
 * translation (gpu_module.c reads it and the binding map; one FILE).
 * Exit 0 when they agree, 1 when they do not (each mismatch listed: resource,
 * byte offset, texel or element, both values; with --output DIR a mismatching
 * 2D image is also written as FILE.REG.gpu.png, .cpu.png and .diff.png) or the
 * input is invalid, 2 on a
 * usage error, 3 when the shader could not be run (unsupported, no device,
 * instruction budget exhausted).
 */
#include "commands.h"
#include "run_common.h"
#include "gpu_module.h"
#include "png_image.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "translator/ir.h"

static const char *kind_name(uint32_t kind)
{
    static const char *const names[] = { "unknown", "float", "int", "uint", "bool", "double.lo",
                                         "double.hi" };
    return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "?";
}

static void print_word(FILE *out, uint32_t kind, uint32_t bits)
{
    float f;
    memcpy(&f, &bits, 4);
    if (kind == SB_RT_WORD_INT)
        fprintf(out, "0x%08x (%d)", bits, (int32_t)bits);
    else if (kind == SB_RT_WORD_UINT || kind == SB_RT_WORD_BOOL)
        fprintf(out, "0x%08x (%u)", bits, bits);
    else
        fprintf(out, "0x%08x (%.9g)", bits, (double)f);
}

static void print_mismatch(const struct sb_validate_report *report, const struct sb_validate_mismatch *m)
{
    const struct sb_rt_resource *r = &report->gpu->resources[m->resource];
    char name[48];
    cli_run_resource_name(r, name, sizeof(name));
    if (m->byte_offset == UINT64_MAX)
        printf("  %s counter", name);
    else if (r->resource_class == SB_VALIDATE_CLASS_GEOMETRY && m->texel[3] < 4)
        printf("  %s primitive %u instance %u vertex %u %s", name, m->texel[0], m->texel[1], m->texel[2],
               m->texel[3] == 0 ? "stream+1 (0: not emitted)" : m->texel[3] == 1 ? "cut mask before it" : "header");
    else if (r->resource_class == SB_VALIDATE_CLASS_GEOMETRY)
        printf("  %s primitive %u instance %u vertex %u o%u.%c", name, m->texel[0], m->texel[1], m->texel[2],
               (m->texel[3] - 4) / 4, "xyzw"[(m->texel[3] - 4) % 4]);
    else if (r->dimension && r->dimension != 1 /* buffer */)
        printf("  %s byte %llu (texel %u,%u,%u mip %u)", name, (unsigned long long)m->byte_offset,
               m->texel[0], m->texel[1], m->texel[2], m->texel[3]);
    else
        printf("  %s byte %llu (dword %u)", name, (unsigned long long)m->byte_offset, m->texel[0]);
    printf(" %s: gpu ", kind_name(m->kind));
    print_word(stdout, m->kind, m->gpu);
    printf(" cpu ");
    print_word(stdout, m->kind, m->cpu);
    putchar('\n');
}

/* With --output DIR: each mismatching 2D image as gpu, cpu and difference PNGs. */
static void write_images(const struct cli_run_options *o, const struct sb_validate_report *report)
{
    if (!o->output_dir || !report->mismatch_count)
        return;
    if (mkdir(o->output_dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "shaderbridge: error: cannot create %s: %s\n", o->output_dir, strerror(errno));
        return;
    }
    const char *base = strrchr(o->file, '/');
    base = base ? base + 1 : o->file;
    for (uint32_t i = 0; i < report->gpu->count; i++) {
        const struct sb_rt_resource *g = &report->gpu->resources[i], *c = &report->cpu->resources[i];
        bool mismatching = false;
        for (uint32_t k = 0; k < report->kept; k++)
            mismatching |= report->mismatches[k].resource == i;
        if (!mismatching || (g->resource_class != SB_IR_RESOURCE_UAV && g->resource_class != SB_VALIDATE_CLASS_OUTPUT) ||
            (g->dimension != 3 && g->dimension != 8))
            continue;
        char name[48], path[4096];
        cli_run_resource_name(g, name, sizeof(name));
        static const char *const sides[] = { "gpu", "cpu", "diff" };
        for (int side = 0; side < 3; side++) {
            snprintf(path, sizeof(path), "%s/%s.%s.%s.png", o->output_dir, base, name, sides[side]);
            bool ok = side == 2 ? cli_png_write_difference(path, g, c, 0)
                                : cli_png_write_texture(path, side ? c : g, 0);
            if (ok)
                printf("  wrote %s\n", path);
            else
                fprintf(stderr, "shaderbridge: error: cannot write %s: %s\n", path, strerror(errno));
        }
    }
}

static void print_report(const struct cli_run_options *o, const struct sb_rt_context *context,
                         const struct sb_rt_program *program, const struct sb_validate_report *report)
{
    const struct sb_ir_program *ir = program->ir;
    if (program->stage == SB_IR_STAGE_VERTEX)
        printf("%s: vs, %u vertices drawn as points, seed %llu, device %s\n", o->file, 64 * o->groups[0],
               (unsigned long long)o->seed, sb_rt_context_device_name(context));
    else if (program->stage == SB_IR_STAGE_GEOMETRY)
        printf("%s: gs, up to %u input primitives x %u instances, seed %llu, device %s\n", o->file, 16 * o->groups[0],
               ir->gs_instance_count ? ir->gs_instance_count : 1, (unsigned long long)o->seed,
               sb_rt_context_device_name(context));
    else if (program->stage == SB_IR_STAGE_PIXEL)
        printf("%s: ps, 8x%u pixels drawn as points, seed %llu, device %s\n", o->file, 8 * o->groups[0],
               (unsigned long long)o->seed, sb_rt_context_device_name(context));
    else
        printf("%s: cs %ux%ux%u threads, %ux%ux%u groups, seed %llu, device %s\n", o->file,
               ir->thread_group[0], ir->thread_group[1], ir->thread_group[2], o->groups[0], o->groups[1],
               o->groups[2], (unsigned long long)o->seed, sb_rt_context_device_name(context));
    printf("  gpu: pipeline %.3f ms, run %.3f ms; cpu: %.3f ms, %llu instructions\n",
           report->gpu_timing.pipeline_ns / 1e6, report->gpu_timing.run_ns / 1e6, report->cpu_ns / 1e6,
           (unsigned long long)report->cpu_stats.instructions);
    for (uint32_t i = 0; i < report->gpu->count; i++) {
        const struct sb_rt_resource *r = &report->gpu->resources[i];
        if (r->resource_class != SB_IR_RESOURCE_UAV && r->resource_class != SB_VALIDATE_CLASS_OUTPUT &&
            r->resource_class != SB_VALIDATE_CLASS_DEPTH && r->resource_class != SB_VALIDATE_CLASS_GEOMETRY)
            continue;
        char name[48];
        cli_run_resource_name(r, name, sizeof(name));
        uint64_t mismatches = 0;
        for (uint32_t k = 0; k < report->kept; k++)
            mismatches += report->mismatches[k].resource == i;
        printf("  %-12s %8zu bytes %s%s\n", name, r->size,
               r->format ? sb_rt_format_name((enum sb_rt_format)r->format) : "",
               mismatches ? "  MISMATCH" : "");
    }
    for (uint32_t k = 0; k < report->kept; k++)
        print_mismatch(report, &report->mismatches[k]);
    if (report->mismatch_count > report->kept)
        printf("  ... %llu more mismatches\n",
               (unsigned long long)(report->mismatch_count - report->kept));
    if (report->unconstrained)
        printf("  %llu words the interpreter computed as NaN/infinity differ on the device: not compared "
               "(undefined in Vulkan without float controls)\n", (unsigned long long)report->unconstrained);
    printf("%s: %llu words compared, %llu mismatches: %s\n", o->file,
           (unsigned long long)report->words_compared, (unsigned long long)report->mismatch_count,
           report->mismatch_count ? "GPU and CPU DISAGREE" : "GPU and CPU agree");
}

struct summary_row {
    const char *file;
    const char *verdict;
    uint64_t words, mismatches;
    double gpu_ms, cpu_ms;
};

/* Validates one file with an open context; fills `row`; returns its exit status. */
static int validate_file(const struct cli_run_options *o, struct sb_rt_context *context,
                         struct summary_row *row)
{
    row->file = o->file;
    row->verdict = "error";
    struct sb_rt_program *program = NULL;
    int loaded = cli_run_load(o, &program);
    if (loaded != CLI_EXIT_OK) {
        row->verdict = loaded == CLI_EXIT_NOT_RUN ? "not run" : "error";
        return loaded;
    }
    struct sb_validate_options options = { .inputs = { .seed = o->seed }, .float_ulps = o->ulps,
                                           .draw_count = o->draw_count, .draw_width = o->draw_width,
                                           .draw_height = o->draw_height };
    memcpy(options.group_count, o->groups, sizeof(o->groups));
    cli_gpu_module_apply(o->gpu_module, &options);
    struct sb_validate_report *report = NULL;
    struct sb_error error = { 0 };
    enum sb_result checked = cli_gpu_module_check(o->gpu_module, program, &options); /* printed */
    enum sb_result r = checked == SB_SUCCESS ? sb_validate(context, program, &options, &report, &error) : checked;
    int status;
    if (r != SB_SUCCESS) {
        if (checked == SB_SUCCESS)
            cli_report_error(o->file, &error);
        status = cli_run_exit_for(r);
        row->verdict = status == CLI_EXIT_NOT_RUN ? "not run" : "error";
    } else {
        print_report(o, context, program, report);
        write_images(o, report);
        struct sb_validate_precision precision;
        if (o->explain_ulps && report->mismatch_count &&
            sb_validate_explain_precision(program, &options, report, (int32_t)o->explain_ulps, &precision,
                                          &error) == SB_SUCCESS)
            printf("%s: %llu of %llu mismatching words lie within what +-%u ULPs in the operations Vulkan "
                   "computes approximately (exp, log, rsq, rcp, sqrt, div; sin/cos: units of 2^-23) "
                   "move the interpreter's result\n",
                   o->file, (unsigned long long)precision.explained,
                   (unsigned long long)(precision.explained + precision.unexplained), o->explain_ulps);
        status = report->mismatch_count ? CLI_EXIT_INVALID_INPUT : CLI_EXIT_OK;
        row->verdict = report->mismatch_count ? "DISAGREE" : "agree";
        row->words = report->words_compared;
        row->mismatches = report->mismatch_count;
        row->gpu_ms = (report->gpu_timing.pipeline_ns + report->gpu_timing.upload_ns +
                       report->gpu_timing.run_ns + report->gpu_timing.readback_ns) / 1e6;
        row->cpu_ms = report->cpu_ns / 1e6;
    }
    sb_validate_report_destroy(report);
    sb_rt_program_destroy(program);
    return status;
}

static void print_summary(const struct summary_row *rows, int count)
{
    printf("\n%-40s %-9s %10s %10s %10s %10s\n", "shader", "result", "words", "mismatch", "gpu ms",
           "cpu ms");
    for (int i = 0; i < count; i++) {
        const char *base = strrchr(rows[i].file, '/');
        printf("%-40s %-9s %10llu %10llu %10.2f %10.2f\n", base ? base + 1 : rows[i].file,
               rows[i].verdict, (unsigned long long)rows[i].words,
               (unsigned long long)rows[i].mismatches, rows[i].gpu_ms, rows[i].cpu_ms);
    }
}

int cli_cmd_validate(int argc, char **argv)
{
    struct cli_run_options o = { .groups = { 1, 1, 1 }, .seed = 1 };
    const char *files[256];
    int file_count = 0;
    for (int i = 1; i < argc; i++) {
        int parsed = cli_run_parse_option("validate", argc, argv, &i, &o);
        if (parsed < 0)
            return CLI_EXIT_USAGE;
        if (parsed)
            continue;
        if (argv[i][0] == '-' && argv[i][1]) {
            cli_usage_error("validate: unknown option '%s'", argv[i]);
            return CLI_EXIT_USAGE;
        }
        if (file_count == (int)(sizeof(files) / sizeof(files[0]))) {
            cli_usage_error("validate: at most 256 files");
            return CLI_EXIT_USAGE;
        }
        files[file_count++] = argv[i];
    }
    if (!file_count) {
        cli_usage_error("validate: no input file");
        return CLI_EXIT_USAGE;
    }
    if (o.cpu || o.input_count) {
        cli_usage_error("validate: --cpu and --input belong to 'run'");
        return CLI_EXIT_USAGE;
    }
    if (o.spirv && file_count > 1) {
        cli_usage_error("validate: --spirv runs one module against one FILE (%d given)", file_count);
        return CLI_EXIT_USAGE;
    }
    if (o.bindings && !o.spirv) {
        cli_usage_error("validate: --bindings places the registers of a --spirv module");
        return CLI_EXIT_USAGE;
    }
    struct cli_gpu_module module = { 0 };
    if (o.spirv && !cli_gpu_module_load(o.spirv, o.bindings, &module))
        return CLI_EXIT_INVALID_INPUT;
    o.gpu_module = o.spirv ? &module : NULL;
    struct sb_rt_context *context = NULL;
    if (!cli_run_context(&o, &context)) {
        cli_gpu_module_free(&module);
        return CLI_EXIT_NOT_RUN;
    }
    static struct summary_row rows[256];
    int status = CLI_EXIT_OK;
    for (int f = 0; f < file_count; f++) {
        o.file = files[f];
        int one = validate_file(&o, context, &rows[f]);
        /* The worst outcome wins: not run (3) over disagree/invalid (1) over agree (0). */
        if (one == CLI_EXIT_NOT_RUN || (one && status != CLI_EXIT_NOT_RUN))
            status = one;
    }
    if (file_count > 1)
        print_summary(rows, file_count);
    sb_rt_context_destroy(context);
    cli_gpu_module_free(&module);
    return status;
}
