/* SPDX-License-Identifier: MIT */
/*
 * `shaderbridge validate [--json] [--seed N] [--dispatch X,Y,Z] [--draw N|WxH]
 * [--ulps N] [--explain-precision N] [--device D] [--output DIR] [--input REG=FILE ...]
 * [--spirv MODULE.spv [--bindings MAP.json]] FILE...`
 * (or `validate [--json] [--seed N] [--dispatch X,Y,Z] [--draw N|WxH] [--ulps N] [--device D]
 * --reference OTHER FILE`: FILE against OTHER on the same inputs, validate_reference.c):
 * runs compute, vertex, pixel and geometry shaders on the GPU and on the CPU
 * interpreter with the same seeded inputs (those --input gives replaced by the user's
 * data, read as `run` reads them: input_files.c), compares every UAV word and stage
 * output (sb_validate says how they are drawn) and prints the verdict of each
 * input: agree, agree-within-precision, undefined, not-run, disagree, or
 * error for an input that is not a valid shader.
 *
 * Text: one line per file, verdict first, then the details (run shape,
 * timings, resources, the counts, the worst deviation, undefined accesses;
 * for disagree and undefined every kept differing word with its explanation
 * and bound); several files end with a summary table. --json writes one
 * document, {"device", "seed", "results": [one object per input]}, whose
 * schema the top-level README documents; not-run and error inputs get an
 * object too, so a script sees every input it named.
 *
 * Exit status, the worst input deciding: 1 when one disagrees or is invalid
 * (a verdict a script must not accept), else 4 when one is undefined (the
 * device may be right; the shader is racy), else 3 when one could not be
 * run, else 0; 2 on a usage error. --ulps N is an explicit tolerance
 * (reported as such), not needed: bounds decide. With --spirv the GPU runs that
 * module instead of our translation (gpu_module.c reads it and the binding
 * map; one FILE), which makes validate an oracle for any DXBC-to-SPIR-V
 * translator's output.
 */
#include "commands.h"
#include "run_common.h"
#include "gpu_module.h"
#include "input_files.h"
#include "png_image.h"
#include "validate_result.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "translator/ir.h"

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

/* How the word is explained, with the evidence: the bound and the instruction behind it. */
static void print_explanation(const struct sb_rt_program *program, const struct sb_validate_mismatch *m)
{
    const char *how = cli_validate_explanation(m);
    char op[32];
    cli_validate_op_at(program, m->origin, op, sizeof(op));
    if (!strcmp(how, "precision-sensitive")) {
        printf(": precision-sensitive (a comparison, branch or conversion its bounds straddle");
    } else if (!strcmp(how, "undefined")) {
        printf(": undefined (a race or an undefined read decides it");
    } else {
        printf(": %s (bound %g", how, (double)m->bound);
    }
    if (m->origin != UINT32_MAX)
        printf(", mostly from '%s' at byte %u", op[0] ? op : "?", m->origin);
    printf(")\n");
}

static void print_mismatch(const struct sb_rt_program *program, const struct sb_validate_report *report,
                           const struct sb_validate_mismatch *m)
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
    printf(" %s: gpu ", cli_validate_word_kind(m->kind));
    print_word(stdout, m->kind, m->gpu);
    printf(" cpu ");
    print_word(stdout, m->kind, m->cpu);
    print_explanation(program, m);
}

/* With --output DIR: each mismatching 2D image as gpu, cpu and difference PNGs. `log` gets the
 * names written (stderr under --json, whose stdout is the document alone). */
static void write_images(const struct cli_run_options *o, const struct sb_validate_report *report, FILE *log)
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
                fprintf(log, "  wrote %s\n", path);
            else
                fprintf(stderr, "shaderbridge: error: cannot write %s: %s\n", path, strerror(errno));
        }
    }
}

static void print_shape(const struct cli_run_options *o, const struct sb_rt_context *context,
                        const struct sb_rt_program *program)
{
    const struct sb_ir_program *ir = program->ir;
    const char *device = sb_rt_context_device_name(context);
    unsigned long long seed = (unsigned long long)o->seed;
    if (program->stage == SB_IR_STAGE_VERTEX)
        printf("  vs, %u vertices drawn as points, seed %llu, device %s\n",
               o->draw_count ? o->draw_count : 64 * o->groups[0], seed, device);
    else if (program->stage == SB_IR_STAGE_GEOMETRY)
        printf("  gs, up to %u input primitives x %u instances, seed %llu, device %s\n", 16 * o->groups[0],
               ir->gs_instance_count ? ir->gs_instance_count : 1, seed, device);
    else if (program->stage == SB_IR_STAGE_PIXEL)
        printf("  ps, 8x%u pixels drawn as %s, seed %llu, device %s\n", 8 * o->groups[0],
               sb_validate_pixel_draws_triangles(program) ? "a triangle each" : "points", seed, device);
    else if (program->stage == SB_IR_STAGE_HULL)
        printf("  hs, %u patches of %u control points, seed %llu, device %s\n",
               o->draw_count ? o->draw_count : 16 * o->groups[0], ir->input_control_points, seed, device);
    else if (program->stage == SB_IR_STAGE_DOMAIN)
        printf("  ds, %u patches for each of integer, pow2, fractional_odd and fractional_even partitioning, "
               "seed %llu, device %s\n", o->draw_count ? o->draw_count : 8 * o->groups[0], seed, device);
    else
        printf("  cs %ux%ux%u threads, %ux%ux%u groups, seed %llu, device %s\n", ir->thread_group[0],
               ir->thread_group[1], ir->thread_group[2], o->groups[0], o->groups[1], o->groups[2], seed, device);
}

/* "invocations 3 and 7", "instruction at byte 120": the pair's members that exist (an
 * uninitialised read has no writer). */
static void print_pair(const char *noun, const char *prefix, const uint32_t pair[2])
{
    int count = (pair[0] != UINT32_MAX) + (pair[1] != UINT32_MAX);
    if (!count)
        return;
    printf(" %s%s", noun, count == 2 ? "s" : "");
    for (int k = 0, printed = 0; k < 2; k++)
        if (pair[k] != UINT32_MAX)
            printf("%s%s%u", printed++ ? " and " : " ", prefix, pair[k]);
}

static void print_undefined(const struct sb_validate_report *report)
{
    for (uint32_t k = 0; k < report->undefined_kept && k < SB_VALIDATE_UNDEFINED_KEPT; k++) {
        const struct sb_interp_undefined_event *u = &report->undefined[k];
        char location[48];
        cli_validate_event_location(report, u, location, sizeof(location));
        if (u->kind == SB_INTERP_UNDEFINED_NON_UNIFORM_INDEX) /* a range, not a word: no byte */
            printf("  undefined: %s on %s,", cli_validate_undefined_kind(u->kind), location);
        else
            printf("  undefined: %s on %s byte %llu,", cli_validate_undefined_kind(u->kind), location,
                   (unsigned long long)u->byte_offset);
        print_pair("invocation", "", u->invocation);
        print_pair("; instruction", "at byte ", u->instruction);
        if (u->kind == SB_INTERP_UNDEFINED_NON_UNIFORM_INDEX)
            printf("; registers %u and %u (mark the index NonUniformResourceIndex)", u->range_register[0],
                   u->range_register[1]);
        putchar('\n');
    }
    if (report->undefined_events > report->undefined_kept)
        printf("  ... %llu more undefined accesses\n",
               (unsigned long long)(report->undefined_events - report->undefined_kept));
}

/* The details under the verdict line of an input that ran on both sides. */
static void print_report(const struct cli_run_options *o, const struct sb_rt_context *context,
                         const struct cli_validate_result *result)
{
    const struct sb_rt_program *program = result->program;
    const struct sb_validate_report *report = result->report;
    print_shape(o, context, program);
    printf("  gpu: pipeline %.3f ms, run %.3f ms; cpu: %.3f ms, %llu instructions\n",
           report->gpu_timing.pipeline_ns / 1e6, report->gpu_timing.run_ns / 1e6, report->cpu_ns / 1e6,
           (unsigned long long)report->cpu_stats.instructions);
    if (report->input_retries)
        printf("  inputs changed: %s\n", report->input_note);
    if (program->stage == SB_IR_STAGE_DOMAIN)
        printf("  domain points: %u from the device, %u from the CPU tessellator, %u of the device's among them\n",
               report->domain_points_gpu, report->domain_points_cpu, report->domain_points_matched);
    for (uint32_t i = 0; i < report->gpu->count; i++) {
        const struct sb_rt_resource *r = &report->gpu->resources[i];
        if (r->resource_class != SB_IR_RESOURCE_UAV && r->resource_class != SB_VALIDATE_CLASS_OUTPUT &&
            r->resource_class != SB_VALIDATE_CLASS_DEPTH && r->resource_class != SB_VALIDATE_CLASS_GEOMETRY &&
            r->resource_class != SB_VALIDATE_CLASS_STENCIL && r->resource_class != SB_VALIDATE_CLASS_HULL &&
            r->resource_class != SB_VALIDATE_CLASS_DOMAIN)
            continue;
        char name[48];
        cli_run_resource_name(r, name, sizeof(name));
        uint64_t differing = 0;
        for (uint32_t k = 0; k < report->kept; k++)
            differing += report->mismatches[k].resource == i;
        printf("  %-12s %8zu bytes %s%s\n", name, r->size,
               r->format ? sb_rt_format_name((enum sb_rt_format)r->format) : "",
               differing ? "  DIFFERS" : "");
    }
    printf("  %llu words compared, %llu differ: %llu within precision, %llu precision-sensitive, "
           "%llu undefined, %llu unexplained\n", (unsigned long long)report->words_compared,
           (unsigned long long)report->mismatch_count, (unsigned long long)report->within_precision,
           (unsigned long long)report->precision_sensitive, (unsigned long long)report->undefined_words,
           (unsigned long long)report->unexplained);
    if (report->has_worst) {
        const struct sb_validate_worst *w = &report->worst;
        char name[48];
        cli_validate_location(report, w->resource, 0, name, sizeof(name));
        printf("  worst: %s byte %llu gpu ", name, (unsigned long long)w->byte_offset);
        print_word(stdout, SB_RT_WORD_FLOAT, w->gpu);
        printf(" cpu ");
        print_word(stdout, SB_RT_WORD_FLOAT, w->cpu);
        printf(", off by %g of an allowed %g", w->deviation, w->bound);
        if (w->origin != UINT32_MAX)
            printf(", mostly from '%s' at byte %u", w->origin_op[0] ? w->origin_op : "?", w->origin);
        printf("\n");
    }
    print_undefined(report);
    /* Word by word where someone has to look: a disagreement, or the words a race decided. */
    if (report->verdict == SB_VALIDATE_DISAGREE || report->verdict == SB_VALIDATE_UNDEFINED) {
        for (uint32_t k = 0; k < report->kept; k++)
            print_mismatch(program, report, &report->mismatches[k]);
        if (report->mismatch_count > report->kept)
            printf("  ... %llu more differing words\n", (unsigned long long)(report->mismatch_count - report->kept));
    }
    if (report->unconstrained)
        printf("  %llu words the interpreter computed as NaN/infinity differ on the device: not compared "
               "(undefined in Vulkan without float controls)\n", (unsigned long long)report->unconstrained);
    if (result->explained)
        printf("  --explain-precision %u: %llu of %llu differing words lie within what +-%u ULPs in the "
               "operations Vulkan computes approximately (exp, log, rsq, rcp, sqrt, div; sin/cos: units of "
               "2^-23) move the interpreter's result\n", result->explain_ulps,
               (unsigned long long)result->precision.explained,
               (unsigned long long)(result->precision.explained + result->precision.unexplained), result->explain_ulps);
}

/* The verdict line: verdict first so that `grep '^disagree'` finds what needs a look. */
static void print_verdict_line(const struct cli_validate_result *result)
{
    printf("%-22s  %s: %s", result->verdict, result->file, result->reason);
    if (result->ulps && result->report)
        printf(" (--ulps %u: an explicit override, floats within %u ULPs or 2^-20 count as equal)", result->ulps,
               result->ulps);
    putchar('\n');
}

/* Why an input was not compared, as one line: the message names the feature or operation,
 * then where in the shader (unless the failure has no place there: no device, a Vulkan call,
 * an unreadable file) and the code. */
static void failure_reason(struct cli_validate_result *result)
{
    const struct sb_error *e = &result->error;
    if (e->code == SB_ERROR_NO_DEVICE || e->code == SB_ERROR_VULKAN || e->code == SB_ERROR_IO)
        snprintf(result->reason, sizeof(result->reason), "%s [%s]", e->message, sb_result_name(e->code));
    else
        snprintf(result->reason, sizeof(result->reason), "%s (byte %llu) [%s]", e->message,
                 (unsigned long long)e->offset, sb_result_name(e->code));
}

struct summary_row {
    const char *file;
    const char *verdict;
    bool compared;
    uint64_t words, mismatches, unexplained;
    double gpu_ms, cpu_ms;
};

/* Everything one run of the command shares across its inputs. */
struct validate_session {
    struct cli_run_options *o;
    uint32_t provided_count;        /**< --input REG=FILE entries (input_files.c) */
    const struct sb_rt_resource *provided;
    bool json;
    struct sb_rt_context *context;  /**< NULL when no device could be opened */
    struct sb_error context_error;  /**< why, then: every input is not-run */
    json_object *results;           /**< --json: the "results" array */
};

/* Validates o->file; prints its text or adds its JSON object; fills `row`; returns the exit
 * status its verdict asks for. */
static int validate_file(struct validate_session *session, struct summary_row *row)
{
    const struct cli_run_options *o = session->o;
    struct cli_validate_result result = { .file = o->file, .verdict = "error", .ulps = o->ulps };
    struct sb_rt_program *program = NULL;
    struct sb_validate_report *report = NULL;
    *row = (struct summary_row){ .file = o->file };
    if (cli_run_load(o, &program, &result.error) != CLI_EXIT_OK) {
        result.failed = true;
        result.verdict = cli_validate_failure_verdict(result.error.code);
        failure_reason(&result);
    } else if (!session->context) {
        result.program = program;
        result.failed = true;
        result.error = session->context_error;
        result.verdict = "not-run";
        failure_reason(&result);
    } else {
        result.program = program;
        struct sb_validate_options options = { .inputs = { .seed = o->seed }, .float_ulps = o->ulps,
                                               .draw_count = o->draw_count, .draw_width = o->draw_width,
                                               .draw_height = o->draw_height,
                                               .provided_count = session->provided_count,
                                               .provided = session->provided };
        memcpy(options.group_count, o->groups, sizeof(o->groups));
        for (uint32_t t = 0; t < 8; t++)
            options.target_formats[t] = (enum sb_rt_format)o->target_formats[t];
        cli_gpu_module_apply(o->gpu_module, &options);
        struct sb_error error = { 0 };
        /* A --spirv module that does not fit the program: its error is printed against the
         * module's or the map's file name. */
        enum sb_result checked = cli_gpu_module_check(o->gpu_module, program, &options);
        if (checked != SB_SUCCESS) {
            result.failed = true;
            error.code = checked;
            snprintf(error.message, sizeof(error.message), "the --spirv module does not fit %s", o->file);
            result.error = error;
            result.verdict = "error"; /* the user's module is invalid input, whatever the code */
            failure_reason(&result);
        } else if (sb_validate(session->context, program, &options, &report, &error) != SB_SUCCESS) {
            report = NULL;
            /* An --input this shader does not take is the user's error, whatever the code. */
            bool refused = cli_input_report_refusal("validate", error.code, &error, o->inputs, o->input_count);
            if (!refused)
                cli_report_error(o->file, &error);
            result.failed = true;
            result.error = error;
            result.verdict = refused ? "error" : cli_validate_failure_verdict(error.code);
            failure_reason(&result);
            if (refused) /* the offset is the entry's index, not a byte: name the --input instead */
                snprintf(result.reason, sizeof(result.reason), "--input %s: %s [%s]", o->inputs[error.offset],
                         error.message, sb_result_name(error.code));
        } else {
            result.report = report;
            result.verdict = sb_validate_verdict_name(report->verdict);
            snprintf(result.reason, sizeof(result.reason), "%s", report->reason);
            if (o->explain_ulps && report->mismatch_count) {
                result.explain_ulps = o->explain_ulps;
                result.explained = sb_validate_explain_precision(program, &options, report, (int32_t)o->explain_ulps,
                                                                 &result.precision, &error) == SB_SUCCESS;
            }
            write_images(o, report, session->json ? stderr : stdout);
            row->compared = true;
            row->words = report->words_compared;
            row->mismatches = report->mismatch_count;
            row->unexplained = report->unexplained;
            row->gpu_ms = (report->gpu_timing.pipeline_ns + report->gpu_timing.upload_ns +
                           report->gpu_timing.run_ns + report->gpu_timing.readback_ns) / 1e6;
            row->cpu_ms = report->cpu_ns / 1e6;
        }
    }
    row->verdict = result.verdict;
    if (session->json) {
        json_object_array_add(session->results, cli_validate_json(&result));
    } else {
        print_verdict_line(&result);
        if (report)
            print_report(o, session->context, &result);
        fflush(stdout); /* keep the next input's stderr messages after this one's lines */
    }
    sb_validate_report_destroy(report);
    sb_rt_program_destroy(program);
    return cli_validate_verdict_status(row->verdict);
}

static void print_summary(const struct summary_row *rows, int count)
{
    printf("\n%-40s %-22s %10s %10s %11s %10s %10s\n", "shader", "verdict", "words", "differ", "unexplained",
           "gpu ms", "cpu ms");
    for (int i = 0; i < count; i++) {
        const struct summary_row *r = &rows[i];
        const char *base = strrchr(r->file, '/');
        printf("%-40s %-22s", base ? base + 1 : r->file, r->verdict);
        if (r->compared)
            printf(" %10llu %10llu %11llu %10.2f %10.2f\n", (unsigned long long)r->words,
                   (unsigned long long)r->mismatches, (unsigned long long)r->unexplained, r->gpu_ms, r->cpu_ms);
        else
            printf(" %10s %10s %11s %10s %10s\n", "-", "-", "-", "-", "-");
    }
}

int cli_cmd_validate(int argc, char **argv)
{
    struct cli_run_options o = { .groups = { 1, 1, 1 }, .seed = 1 };
    const char *files[256];
    int file_count = 0;
    bool json = false;
    const char *reference = NULL;
    for (int i = 1; i < argc; i++) {
        int parsed = cli_run_parse_option("validate", argc, argv, &i, &o);
        if (parsed < 0)
            return CLI_EXIT_USAGE;
        if (parsed)
            continue;
        if (!strcmp(argv[i], "--json")) {
            json = true;
            continue;
        }
        if (!strcmp(argv[i], "--reference")) { /* validate_reference.c */
            if (i + 1 >= argc) {
                cli_usage_error("validate: --reference needs the other program's file");
                return CLI_EXIT_USAGE;
            }
            reference = argv[++i];
            continue;
        }
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
    if (o.cpu) {
        cli_usage_error("validate: --cpu belongs to 'run'");
        return CLI_EXIT_USAGE;
    }
    if (reference && (file_count > 1 || o.spirv || o.input_count || o.output_dir || o.explain_ulps)) {
        cli_usage_error("validate: --reference compares one FILE with OTHER on generated inputs (no --spirv, "
                        "--input, --output or --explain-precision)");
        return CLI_EXIT_USAGE;
    }
    if (reference) {
        o.file = files[0];
        return cli_validate_reference(&o, reference, json);
    }
    if (o.spirv && file_count > 1) {
        cli_usage_error("validate: --spirv runs one module against one FILE (%d given)", file_count);
        return CLI_EXIT_USAGE;
    }
    if (o.bindings && !o.spirv) {
        cli_usage_error("validate: --bindings places the registers of a --spirv module");
        return CLI_EXIT_USAGE;
    }
    /* The user's data, read once for every FILE (each is checked against its declarations). */
    struct sb_rt_resource provided[64];
    struct cli_file input_files[64];
    uint32_t loaded = 0;
    for (; loaded < o.input_count; loaded++)
        if (cli_input_load("validate", o.inputs[loaded], &provided[loaded], &input_files[loaded]) != CLI_EXIT_OK) {
            cli_input_free(input_files, loaded);
            return CLI_EXIT_USAGE;
        }
    struct cli_gpu_module module = { 0 };
    if (o.spirv && !cli_gpu_module_load(o.spirv, o.bindings, &module)) {
        cli_input_free(input_files, loaded);
        return CLI_EXIT_INVALID_INPUT;
    }
    o.gpu_module = o.spirv ? &module : NULL;
    struct validate_session session = { .o = &o, .json = json, .provided_count = loaded, .provided = provided };
    struct sb_rt_context_options context_options = { .device = o.device };
    /* Without a device every input is still loaded and reported (not-run, or error when it is
     * not a valid shader), so a script gets one verdict per input it named. */
    if (sb_rt_context_create(&context_options, &session.context, &session.context_error) != SB_SUCCESS) {
        fprintf(stderr, "shaderbridge: error: %s [%s]\n", session.context_error.message,
                sb_result_name(session.context_error.code));
        session.context = NULL;
    }
    if (json)
        session.results = json_object_new_array();
    static struct summary_row rows[256];
    int status = CLI_EXIT_OK;
    for (int f = 0; f < file_count; f++) {
        o.file = files[f];
        int one = validate_file(&session, &rows[f]);
        if (cli_validate_status_rank(one) > cli_validate_status_rank(status))
            status = one;
    }
    if (json) {
        json_object *root = json_object_new_object();
        cli_json_add_str(root, "device", session.context ? sb_rt_context_device_name(session.context) : NULL);
        cli_json_add_u64(root, "seed", o.seed);
        cli_json_add(root, "results", session.results);
        puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                      JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(root);
    } else if (file_count > 1) {
        print_summary(rows, file_count);
    }
    sb_rt_context_destroy(session.context);
    cli_gpu_module_free(&module);
    cli_input_free(input_files, loaded);
    return status;
}
