/* SPDX-License-Identifier: MIT */
/*
 * `shaderbridge validate --reference OTHER FILE`: FILE and OTHER run on the same inputs and
 * their results are compared (sb_validate_reference; a DXIL port against its fxc original,
 * two versions of one shader). One line with the verdict first, as validate prints it, then
 * the run's shape, the counts and every kept differing word with both values; --json writes
 * the same as one document. With a device each program also gets its own GPU-vs-interpreter
 * verdict (the device leg), printed under the comparison.
 *
 * Exit status as validate's: 1 when the programs disagree (interfaces that differ included) or
 * a file is invalid, 4 when differences come from undefined behaviour, 3 when either could not
 * be run, else 0; the device leg's verdicts count as validate's would.
 */
#include "commands.h"
#include "run_common.h"
#include "validate_result.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void print_value(uint32_t kind, uint32_t bits)
{
    float f;
    memcpy(&f, &bits, 4);
    if (kind == SB_RT_WORD_INT)
        printf("0x%08x (%d)", bits, (int32_t)bits);
    else if (kind == SB_RT_WORD_FLOAT || kind == SB_RT_WORD_UNKNOWN)
        printf("0x%08x (%.9g)", bits, (double)f);
    else
        printf("0x%08x (%u)", bits, bits);
}

static const char *explanation(enum sb_validate_verdict v, float bound)
{
    if (v == SB_VALIDATE_UNDEFINED)
        return "undefined";
    if (v == SB_VALIDATE_AGREE_WITHIN_PRECISION)
        return isinf(bound) ? "precision-sensitive" : "within precision";
    return "unexplained";
}

/* Where a differing word is, in the shader's names: "u0 dword 1", "TEXCOORD0 (o1) vertex 3 lane 1". */
static void place(const struct sb_validate_reference_mismatch *m, enum sb_ir_stage stage, char *out, size_t size)
{
    if (m->resource_class == SB_IR_RESOURCE_UAV && m->element == UINT64_MAX)
        snprintf(out, size, "u%u%s counter", m->register_index, m->space ? " (space != 0)" : "");
    else if (m->resource_class == SB_IR_RESOURCE_UAV)
        snprintf(out, size, "u%u@space%u dword %llu", m->register_index, m->space, (unsigned long long)m->element);
    else if (m->resource_class == SB_VALIDATE_CLASS_OUTPUT)
        snprintf(out, size, "%s%u (o%u) %s %llu lane %u", m->semantic, m->semantic_index, m->register_index,
                 stage == SB_IR_STAGE_VERTEX ? "vertex" : "pixel", (unsigned long long)m->element, m->component);
    else
        snprintf(out, size, "output records (class %u) word %llu", m->resource_class, (unsigned long long)m->element);
}

static const char *verdict_of(const struct sb_validate_reference_report *report)
{
    return sb_validate_verdict_name(report->verdict);
}

static void print_text(const char *file, const char *other, const struct sb_rt_program *program,
                       const struct sb_validate_reference_report *report)
{
    printf("%-22s  %s against %s: %s\n", verdict_of(report), file, other, report->reason);
    printf("  program %s, reference %s\n", file, other);
    if (report->difference != SB_VALIDATE_INTERFACE_SAME)
        return;
    printf("  %llu words compared, %llu differ: %llu within precision, %llu precision-sensitive, %llu undefined, "
           "%llu unexplained\n", (unsigned long long)report->words_compared,
           (unsigned long long)report->mismatch_count, (unsigned long long)report->within_precision,
           (unsigned long long)report->precision_sensitive, (unsigned long long)report->undefined_words,
           (unsigned long long)report->unexplained);
    for (uint32_t k = 0; k < report->kept; k++) {
        const struct sb_validate_reference_mismatch *m = &report->mismatches[k];
        char where[96];
        place(m, program->stage, where, sizeof(where));
        printf("  %s: program ", where);
        print_value(m->kind, m->value);
        printf(", reference ");
        print_value(m->kind, m->reference);
        printf(": %s (bound %g)\n", explanation(m->explained, m->bound), (double)m->bound);
    }
    if (report->mismatch_count > report->kept)
        printf("  ... %llu more differing words\n", (unsigned long long)(report->mismatch_count - report->kept));
    if (report->device_leg)
        printf("  device leg: %s %s (%s); %s %s (%s)\n", file, sb_validate_verdict_name(report->program_run->verdict),
               report->program_run->reason, other, sb_validate_verdict_name(report->reference_run->verdict),
               report->reference_run->reason);
    else if (report->device_failure.code != SB_SUCCESS)
        printf("  interpreter only: the device leg could not run: %s [%s]\n", report->device_failure.message,
               sb_result_name(report->device_failure.code));
    else
        printf("  interpreter only (no device: each program's GPU-vs-interpreter leg did not run)\n");
}

static void print_json(const char *file, const char *other, const struct sb_rt_program *program,
                       const struct sb_validate_reference_report *report, const struct sb_error *failure,
                       const char *failed, const char *verdict)
{
    json_object *root = json_object_new_object();
    cli_json_add_str(root, "file", file);
    cli_json_add_str(root, "reference", other);
    cli_json_add_str(root, "verdict", verdict);
    if (!report) {
        cli_json_add_str(root, "failed", failed);
        cli_json_add_str(root, "reason", failure->message);
        cli_json_add_str(root, "code", sb_result_name(failure->code));
    } else {
        cli_json_add_str(root, "reason", report->reason);
        cli_json_add_str(root, "interface", sb_validate_interface_name(report->difference));
        cli_json_add_u64(root, "words_compared", report->words_compared);
        cli_json_add_u64(root, "differ", report->mismatch_count);
        cli_json_add_u64(root, "within_precision", report->within_precision);
        cli_json_add_u64(root, "precision_sensitive", report->precision_sensitive);
        cli_json_add_u64(root, "undefined", report->undefined_words);
        cli_json_add_u64(root, "unexplained", report->unexplained);
        json_object *words = json_object_new_array();
        for (uint32_t k = 0; k < report->kept; k++) {
            const struct sb_validate_reference_mismatch *m = &report->mismatches[k];
            char where[96];
            place(m, program->stage, where, sizeof(where));
            json_object *w = json_object_new_object();
            cli_json_add_str(w, "where", where);
            cli_json_add_u64(w, "value", m->value);
            cli_json_add_u64(w, "reference", m->reference);
            cli_json_add_str(w, "explained", explanation(m->explained, m->bound));
            json_object_array_add(words, w);
        }
        cli_json_add(root, "mismatches", words);
        if (report->device_leg) {
            cli_json_add_str(root, "device_verdict", sb_validate_verdict_name(report->program_run->verdict));
            cli_json_add_str(root, "reference_device_verdict",
                             sb_validate_verdict_name(report->reference_run->verdict));
        }
    }
    puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                  JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(root);
}

int cli_validate_reference(const struct cli_run_options *options, const char *other, bool json)
{
    struct cli_run_options o = *options;
    struct sb_rt_program *program = NULL, *reference = NULL;
    struct sb_error error = { 0 };
    int status = cli_run_load(&o, &program, &error);
    const char *failed = options->file; /* the file a failure belongs to */
    if (status == CLI_EXIT_OK) {
        o.file = other;
        status = cli_run_load(&o, &reference, &error);
        failed = other;
    }
    struct sb_rt_context *context = NULL;
    struct sb_rt_context_options context_options = { .device = o.device };
    /* No device: the comparison still runs (on the interpreters), only the device leg is lost. */
    if (status == CLI_EXIT_OK && sb_rt_context_create(&context_options, &context, &error) != SB_SUCCESS) {
        fprintf(stderr, "shaderbridge: note: %s [%s]; comparing on the interpreter only\n", error.message,
                sb_result_name(error.code));
        context = NULL;
    }
    struct sb_validate_reference_report *report = NULL;
    if (status == CLI_EXIT_OK) {
        struct sb_validate_options vo = { .inputs = { .seed = o.seed }, .float_ulps = o.ulps,
                                          .draw_count = o.draw_count, .draw_width = o.draw_width,
                                          .draw_height = o.draw_height };
        memcpy(vo.group_count, o.groups, sizeof(o.groups));
        if (sb_validate_reference(context, program, reference, &vo, &report, &error) != SB_SUCCESS) {
            failed = strncmp(error.message, "reference: ", 11) ? options->file : other;
            cli_report_error(failed, &error);
        }
    }
    const char *verdict = report ? verdict_of(report) : cli_validate_failure_verdict(error.code);
    if (json)
        print_json(options->file, other, program, report, &error, failed, verdict);
    else if (report)
        print_text(options->file, other, program, report);
    else
        printf("%-22s  %s against %s: %s: %s [%s]\n", verdict, options->file, other, failed, error.message,
               sb_result_name(error.code));
    status = cli_validate_verdict_status(verdict);
    for (int side = 0; report && report->device_leg && side < 2; side++) {
        const struct sb_validate_report *leg = side ? report->reference_run : report->program_run;
        int own = cli_validate_verdict_status(sb_validate_verdict_name(leg->verdict));
        if (cli_validate_status_rank(own) > cli_validate_status_rank(status))
            status = own;
    }
    sb_validate_reference_report_destroy(report);
    sb_rt_context_destroy(context);
    sb_rt_program_destroy(program);
    sb_rt_program_destroy(reference);
    return status;
}
