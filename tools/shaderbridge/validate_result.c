/* SPDX-License-Identifier: MIT */
/*
 * The names and the JSON of one `validate` outcome (validate_result.h). The
 * JSON mirrors struct sb_validate_report for scripts and CI: counts as
 * integers, word values as numbers beside their exact bits (a float's
 * decimal form alone would hide the last bit that made it differ), and null
 * wherever JSON has no spelling for the value (NaN and infinite floats, a
 * missing instruction or invocation, the counts of an input that never ran),
 * so each key always has one type or null. The schema is documented in the
 * top-level README ("validate --json").
 */
#include "validate_result.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "run_common.h"
#include "translator/ir.h"

const char *cli_validate_explanation(const struct sb_validate_mismatch *m)
{
    switch (m->explained) {
    case SB_VALIDATE_AGREE_WITHIN_PRECISION:
        return isinf(m->bound) ? "precision-sensitive" : "within-precision";
    case SB_VALIDATE_UNDEFINED:
        return "undefined";
    default:
        return "unexplained";
    }
}

const char *cli_validate_undefined_kind(enum sb_interp_undefined_kind kind)
{
    switch (kind) {
    case SB_INTERP_UNDEFINED_WRITE_WRITE: return "write-write";
    case SB_INTERP_UNDEFINED_READ_WRITE: return "read-write";
    case SB_INTERP_UNDEFINED_ATOMIC_ORDER: return "atomic-order";
    case SB_INTERP_UNDEFINED_UNINITIALIZED: return "uninitialized";
    case SB_INTERP_UNDEFINED_OUT_OF_BOUNDS: return "out-of-bounds";
    case SB_INTERP_UNDEFINED_NON_UNIFORM_INDEX: return "non-uniform-index";
    default: return "undefined";
    }
}

void cli_validate_location(const struct sb_validate_report *report, uint32_t resource,
                           uint32_t group_shared_id, char *buf, size_t size)
{
    if (resource == UINT32_MAX)
        snprintf(buf, size, "g%u", group_shared_id);
    else if (report->cpu && resource < report->cpu->count)
        cli_run_resource_name(&report->cpu->resources[resource], buf, size);
    else
        snprintf(buf, size, "resource %u", resource);
}

void cli_validate_event_location(const struct sb_validate_report *report, const struct sb_interp_undefined_event *u,
                                 char *buf, size_t size)
{
    static const char letter[4][3] = { "cb", "t", "s", "u" };
    if (u->kind == SB_INTERP_UNDEFINED_NON_UNIFORM_INDEX)
        snprintf(buf, size, "%s%u range (space %u)", (uint32_t)u->range_class < 4 ? letter[u->range_class] : "?",
                 u->range_lower_bound, u->range_space);
    else if (u->kind == SB_INTERP_UNDEFINED_OUT_OF_BOUNDS && u->resource == UINT32_MAX)
        snprintf(buf, size, "x%u", u->group_shared_id);
    else
        cli_validate_location(report, u->resource, u->group_shared_id, buf, size);
}

void cli_validate_op_at(const struct sb_rt_program *program, uint32_t offset, char *buf, size_t size)
{
    buf[0] = '\0';
    const struct sb_ir_program *ir = program ? program->ir : NULL;
    for (uint32_t f = 0; ir && offset != UINT32_MAX && f < ir->function_count; f++)
        for (uint32_t k = 0; k < ir->functions[f].instruction_count; k++)
            if (ir->functions[f].instructions[k].offset == offset) {
                snprintf(buf, size, "%s", sb_ir_op_name(ir->functions[f].instructions[k].op));
                return;
            }
}

static const char *stage_name(enum sb_ir_stage stage)
{
    switch (stage) {
    case SB_IR_STAGE_VERTEX: return "vs";
    case SB_IR_STAGE_PIXEL: return "ps";
    case SB_IR_STAGE_GEOMETRY: return "gs";
    case SB_IR_STAGE_HULL: return "hs";
    case SB_IR_STAGE_DOMAIN: return "ds";
    case SB_IR_STAGE_COMPUTE: return "cs";
    case SB_IR_STAGE_MESH: return "ms";
    case SB_IR_STAGE_AMPLIFICATION: return "as";
    default: return NULL;
    }
}

const char *cli_validate_word_kind(uint32_t kind)
{
    static const char *const names[] = { "unknown", "float", "int", "uint", "bool", "double.lo",
                                         "double.hi" };
    return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "?";
}

/* A finite double as a JSON number, else null (JSON has no NaN or infinity). `digits`
 * significant digits: 9 round-trip a float, 17 a double. */
static json_object *number_or_null(double value, int digits)
{
    if (!isfinite(value))
        return NULL;
    char text[40];
    snprintf(text, sizeof(text), "%.*g", digits, value);
    return json_object_new_double_s(value, text);
}

static json_object *u32_or_null(uint32_t value)
{
    return value == UINT32_MAX ? NULL : cli_json_u64(value);
}

static json_object *bits(uint32_t word)
{
    char text[12];
    snprintf(text, sizeof(text), "0x%08x", word);
    return json_object_new_string(text);
}

/* A word's value as its kind reads it: integers as integers, anything else as a float. */
static json_object *word_value(uint32_t kind, uint32_t word)
{
    if (kind == SB_RT_WORD_INT)
        return json_object_new_int64((int32_t)word);
    if (kind == SB_RT_WORD_UINT || kind == SB_RT_WORD_BOOL)
        return cli_json_u64(word);
    float f;
    memcpy(&f, &word, 4);
    return number_or_null(f, 9);
}

static void add_instruction(json_object *object, const struct sb_rt_program *program, uint32_t offset)
{
    char op[32];
    cli_validate_op_at(program, offset, op, sizeof(op));
    cli_json_add(object, "instruction", u32_or_null(offset));
    cli_json_add(object, "op", op[0] ? json_object_new_string(op) : NULL);
}

static json_object *difference_json(const struct cli_validate_result *r, const struct sb_validate_mismatch *m)
{
    json_object *o = json_object_new_object();
    char name[48];
    cli_validate_location(r->report, m->resource, 0, name, sizeof(name));
    cli_json_add_str(o, "resource", name);
    bool counter = m->byte_offset == UINT64_MAX;
    cli_json_add(o, "byte_offset", counter ? NULL : cli_json_u64(m->byte_offset));
    cli_json_add_bool(o, "counter", counter);
    json_object *texel = json_object_new_array();
    for (int k = 0; k < 4; k++)
        json_object_array_add(texel, cli_json_u64(m->texel[k]));
    cli_json_add(o, "texel", texel);
    cli_json_add_str(o, "kind", cli_validate_word_kind(m->kind));
    cli_json_add(o, "gpu", word_value(m->kind, m->gpu));
    cli_json_add(o, "cpu", word_value(m->kind, m->cpu));
    cli_json_add(o, "gpu_bits", bits(m->gpu));
    cli_json_add(o, "cpu_bits", bits(m->cpu));
    cli_json_add_str(o, "explained", cli_validate_explanation(m));
    cli_json_add(o, "bound", number_or_null(m->bound, 9));
    add_instruction(o, r->program, m->origin);
    return o;
}

static json_object *worst_json(const struct cli_validate_result *r)
{
    const struct sb_validate_worst *w = &r->report->worst;
    json_object *o = json_object_new_object();
    char name[48];
    cli_validate_location(r->report, w->resource, 0, name, sizeof(name));
    cli_json_add_str(o, "resource", name);
    cli_json_add_u64(o, "byte_offset", w->byte_offset);
    cli_json_add(o, "gpu", word_value(SB_RT_WORD_FLOAT, w->gpu));
    cli_json_add(o, "cpu", word_value(SB_RT_WORD_FLOAT, w->cpu));
    cli_json_add(o, "gpu_bits", bits(w->gpu));
    cli_json_add(o, "cpu_bits", bits(w->cpu));
    cli_json_add(o, "deviation", number_or_null(w->deviation, 17));
    cli_json_add(o, "bound", number_or_null(w->bound, 17));
    cli_json_add(o, "instruction", u32_or_null(w->origin));
    /* The library names the op; fall back to the program for a report that left it empty. */
    if (w->origin_op[0])
        cli_json_add_str(o, "op", w->origin_op);
    else
        add_instruction(o, r->program, w->origin);
    return o;
}

static json_object *undefined_json(const struct cli_validate_result *r)
{
    json_object *array = json_object_new_array();
    const struct sb_validate_report *report = r->report;
    for (uint32_t k = 0; report && k < report->undefined_kept && k < SB_VALIDATE_UNDEFINED_KEPT; k++) {
        const struct sb_interp_undefined_event *u = &report->undefined[k];
        json_object *o = json_object_new_object();
        char location[48];
        cli_validate_event_location(report, u, location, sizeof(location));
        cli_json_add_str(o, "kind", cli_validate_undefined_kind(u->kind));
        cli_json_add_str(o, "location", location);
        cli_json_add_u64(o, "byte_offset", u->byte_offset);
        json_object *invocations = json_object_new_array(), *instructions = json_object_new_array();
        for (int i = 0; i < 2; i++) {
            json_object_array_add(invocations, u32_or_null(u->invocation[i]));
            json_object_array_add(instructions, u32_or_null(u->instruction[i]));
        }
        cli_json_add(o, "invocations", invocations);
        cli_json_add(o, "instructions", instructions);
        if (u->kind == SB_INTERP_UNDEFINED_NON_UNIFORM_INDEX) {
            json_object *registers = json_object_new_array();
            for (int i = 0; i < 2; i++)
                json_object_array_add(registers, u32_or_null(u->range_register[i]));
            cli_json_add(o, "registers", registers);
        }
        json_object_array_add(array, o);
    }
    return array;
}

static json_object *timing_json(const struct sb_validate_report *report)
{
    json_object *o = json_object_new_object();
    cli_json_add(o, "gpu_pipeline_ms", number_or_null(report->gpu_timing.pipeline_ns / 1e6, 6));
    cli_json_add(o, "gpu_upload_ms", number_or_null(report->gpu_timing.upload_ns / 1e6, 6));
    cli_json_add(o, "gpu_run_ms", number_or_null(report->gpu_timing.run_ns / 1e6, 6));
    cli_json_add(o, "gpu_readback_ms", number_or_null(report->gpu_timing.readback_ns / 1e6, 6));
    cli_json_add(o, "cpu_ms", number_or_null(report->cpu_ns / 1e6, 6));
    cli_json_add(o, "evidence_ms", number_or_null(report->evidence_ns / 1e6, 6));
    cli_json_add_u64(o, "cpu_instructions", report->cpu_stats.instructions);
    return o;
}

/*
 * What the run bound, one object per resource (register, class, space, typed format and
 * shape), so a user can rebuild it: e.g. the typed u# view formats a translation for a
 * device without shaderStorageImageReadWithoutFormat needs (translate --device-profile).
 */
static json_object *resources_json(const struct sb_validate_report *report)
{
    static const char *const classes[] = { "cbv", "srv", "sampler", "uav" }; /* = enum sb_ir_resource_class */
    static const char prefixes[] = { 'b', 't', 's', 'u' };
    if (!report || !report->gpu)
        return NULL;
    json_object *array = json_object_new_array();
    for (uint32_t i = 0; i < report->gpu->count; i++) {
        const struct sb_rt_resource *r = &report->gpu->resources[i];
        if ((uint32_t)r->resource_class > SB_IR_RESOURCE_UAV)
            continue;
        json_object *o = json_object_new_object();
        char name[24];
        snprintf(name, sizeof(name), "%c%u", prefixes[r->resource_class], r->register_index);
        cli_json_add_str(o, "register", name);
        cli_json_add_str(o, "class", classes[r->resource_class]);
        cli_json_add_u64(o, "space", r->space);
        cli_json_add_u64(o, "index", r->register_index);
        bool typed = r->dimension != 0 && r->format != SB_RT_FORMAT_UNDEFINED;
        cli_json_add_str(o, "format", typed ? sb_rt_format_name(r->format) : NULL);
        cli_json_add(o, "vk_format", typed ? cli_json_u64(sb_rt_format_vk(r->format)) : NULL);
        cli_json_add(o, "dimension", r->dimension ? cli_json_u64(r->dimension) : NULL);
        cli_json_add_u64(o, "bytes", r->size);
        json_object_array_add(array, o);
    }
    return array;
}

/* A count of the report, or null for an input that was never compared. */
static json_object *count(const struct sb_validate_report *report, uint64_t value)
{
    return report ? cli_json_u64(value) : NULL;
}

json_object *cli_validate_json(const struct cli_validate_result *r)
{
    const struct sb_validate_report *report = r->report;
    json_object *o = json_object_new_object();
    cli_json_add_str(o, "file", r->file);
    cli_json_add_str(o, "stage", r->program ? stage_name(r->program->stage) : NULL);
    cli_json_add_str(o, "verdict", r->verdict);
    cli_json_add_str(o, "reason", r->reason);
    cli_json_add(o, "ulps_override", r->ulps ? cli_json_u64(r->ulps) : NULL);
    cli_json_add(o, "words_compared", count(report, report ? report->words_compared : 0));
    cli_json_add(o, "mismatches", count(report, report ? report->mismatch_count : 0));
    cli_json_add(o, "within_precision", count(report, report ? report->within_precision : 0));
    cli_json_add(o, "precision_sensitive", count(report, report ? report->precision_sensitive : 0));
    cli_json_add(o, "undefined_words", count(report, report ? report->undefined_words : 0));
    cli_json_add(o, "unexplained", count(report, report ? report->unexplained : 0));
    cli_json_add(o, "unconstrained", count(report, report ? report->unconstrained : 0));
    cli_json_add(o, "undefined_events", count(report, report ? report->undefined_events : 0));
    cli_json_add(o, "undefined", undefined_json(r));
    cli_json_add(o, "worst", report && report->has_worst ? worst_json(r) : NULL);
    json_object *differences = json_object_new_array();
    for (uint32_t k = 0; report && k < report->kept; k++)
        json_object_array_add(differences, difference_json(r, &report->mismatches[k]));
    cli_json_add(o, "differences", differences);
    if (r->explain_ulps) {
        json_object *e = NULL;
        if (r->explained) {
            e = json_object_new_object();
            cli_json_add_u64(e, "ulps", r->explain_ulps);
            cli_json_add_u64(e, "explained", r->precision.explained);
            cli_json_add_u64(e, "unexplained", r->precision.unexplained);
        }
        cli_json_add(o, "explain_precision", e);
    }
    json_object *points = NULL;
    if (report && r->program && r->program->stage == SB_IR_STAGE_DOMAIN) {
        /* The device's domain points against the CPU tessellator's (reported, not judged). */
        points = json_object_new_object();
        cli_json_add_u64(points, "gpu", report->domain_points_gpu);
        cli_json_add_u64(points, "cpu", report->domain_points_cpu);
        cli_json_add_u64(points, "matched", report->domain_points_matched);
    }
    cli_json_add(o, "domain_points", points);
    cli_json_add(o, "resources", resources_json(report));
    cli_json_add(o, "timing", report ? timing_json(report) : NULL);
    json_object *error = NULL;
    if (r->failed) {
        error = json_object_new_object();
        cli_json_add_str(error, "code", sb_result_name(r->error.code));
        cli_json_add_u64(error, "offset", r->error.offset);
        cli_json_add_str(error, "message", r->error.message);
    }
    cli_json_add(o, "error", error);
    return o;
}

const char *cli_validate_failure_verdict(enum sb_result code)
{
    switch (code) {
    case SB_ERROR_TRANSLATE_UNSUPPORTED: case SB_ERROR_RUN_UNSUPPORTED: case SB_ERROR_RUN_BUDGET:
    case SB_ERROR_RUN_BINDING: case SB_ERROR_NO_DEVICE: case SB_ERROR_VULKAN:
        return "not-run";
    default:
        return "error";
    }
}

int cli_validate_verdict_status(const char *verdict)
{
    if (!strcmp(verdict, "disagree") || !strcmp(verdict, "error"))
        return CLI_EXIT_INVALID_INPUT;
    if (!strcmp(verdict, "undefined"))
        return CLI_EXIT_UNDEFINED;
    if (!strcmp(verdict, "not-run"))
        return CLI_EXIT_NOT_RUN;
    return CLI_EXIT_OK;
}

int cli_validate_status_rank(int status)
{
    return status == CLI_EXIT_INVALID_INPUT ? 3 : status == CLI_EXIT_UNDEFINED ? 2 : status == CLI_EXIT_NOT_RUN ? 1 : 0;
}
