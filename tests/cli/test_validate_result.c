/* SPDX-License-Identifier: MIT */
/*
 * cli_validate_json (tools/shaderbridge/validate_result.c) on reports built
 * here, covering what a lavapipe run cannot reach yet: a worst deviation, the
 * undefined accesses on a UAV and on group-shared memory, a precision-sensitive
 * word (infinite bound), a counter, NaN words, and an input that was not run.
 * Each value in the JSON is checked against the report it came from, and the
 * document must be strict JSON (no nan or inf tokens). The live end-to-end
 * checks are in run_validate_cli.py.
 */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate_result.h"

static int failures, checks;

#define CHECK(cond, ...)                                                                            \
    do {                                                                                            \
        checks++;                                                                                   \
        if (!(cond)) {                                                                              \
            failures++;                                                                             \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                             \
            printf(__VA_ARGS__);                                                                    \
            putchar('\n');                                                                          \
        }                                                                                           \
    } while (0)

static json_object *get(json_object *o, const char *key)
{
    json_object *v = NULL;
    return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static bool has_null(json_object *o, const char *key)
{
    json_object *v = NULL;
    return json_object_object_get_ex(o, key, &v) && v == NULL;
}

static const char *str(json_object *o, const char *key)
{
    json_object *v = get(o, key);
    return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
}

static int64_t integer(json_object *o, const char *key)
{
    json_object *v = get(o, key);
    return v && json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : INT64_MIN;
}

static double number(json_object *o, const char *key)
{
    json_object *v = get(o, key);
    return v && (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int))
               ? json_object_get_double(v) : NAN;
}

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* The document must parse back as JSON and carry no token JSON lacks. */
static void check_strict(json_object *o, const char *what)
{
    const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
    CHECK(!strstr(text, "nan") && !strstr(text, "inf") && !strstr(text, "NaN") && !strstr(text, "Infinity"),
          "%s: no NaN or infinity tokens: %s", what, text);
    json_object *back = json_tokener_parse(text);
    CHECK(back != NULL, "%s: the serialised document parses back", what);
    json_object_put(back);
}

/* A report of a disagreement with every kind of evidence in it. */
static void test_compared(void)
{
    struct sb_rt_resource resources[2] = {
        { .resource_class = SB_IR_RESOURCE_UAV, .register_index = 1 },
        { .resource_class = SB_VALIDATE_CLASS_OUTPUT, .register_index = 0 },
    };
    struct sb_rt_inputs inputs = { .count = 2, .resources = resources };
    struct sb_validate_mismatch kept[4] = {
        { .resource = 0, .byte_offset = 16, .texel = { 4 }, .kind = SB_RT_WORD_FLOAT, .gpu = 0x3f800001u,
          .cpu = 0x3f800000u, .explained = SB_VALIDATE_AGREE_WITHIN_PRECISION, .bound = 1e-6f, .origin = 64 },
        { .resource = 1, .byte_offset = 32, .texel = { 2, 1, 0, 0 }, .kind = SB_RT_WORD_FLOAT, .gpu = float_bits(1.0f),
          .cpu = float_bits(2.0f), .explained = SB_VALIDATE_AGREE_WITHIN_PRECISION, .bound = INFINITY,
          .origin = UINT32_MAX },
        { .resource = 0, .byte_offset = UINT64_MAX, .kind = SB_RT_WORD_UINT, .gpu = 5, .cpu = 3,
          .explained = SB_VALIDATE_UNDEFINED, .origin = UINT32_MAX },
        { .resource = 0, .byte_offset = 20, .texel = { 5 }, .kind = SB_RT_WORD_INT, .gpu = 0xFFFFFFFFu, .cpu = 7,
          .explained = SB_VALIDATE_DISAGREE, .origin = UINT32_MAX },
    };
    struct sb_validate_report report = {
        .verdict = SB_VALIDATE_DISAGREE, .words_compared = 100, .mismatch_count = 4, .within_precision = 1,
        .precision_sensitive = 1, .undefined_words = 1, .unexplained = 1, .unconstrained = 2,
        .has_worst = true,
        .worst = { .resource = 0, .byte_offset = 16, .gpu = 0x3f800001u, .cpu = 0x3f800000u,
                   .deviation = 0x1p-23, .bound = 1e-6, .origin = 64, .origin_op = "rcp" },
        .undefined_events = 9, .undefined_kept = 2,
        .undefined = {
            { .kind = SB_INTERP_UNDEFINED_WRITE_WRITE, .resource = 0, .byte_offset = 8, .invocation = { 3, 7 },
              .instruction = { 100, 104 } },
            { .kind = SB_INTERP_UNDEFINED_UNINITIALIZED, .resource = UINT32_MAX, .group_shared_id = 2,
              .byte_offset = 12, .invocation = { 5, UINT32_MAX }, .instruction = { UINT32_MAX, 200 } },
        },
        .kept = 4, .mismatches = kept, .gpu = &inputs, .cpu = &inputs,
        .gpu_timing = { .pipeline_ns = 1500000, .upload_ns = 250000, .run_ns = 3000000, .readback_ns = 1000 },
        .cpu_ns = 42000, .cpu_stats = { .instructions = 31 },
    };
    struct cli_validate_result result = { .file = "x.dxbc", .report = &report, .verdict = "disagree",
                                          .reason = "one line" };
    json_object *o = cli_validate_json(&result);
    check_strict(o, "compared");

    CHECK(!strcmp(str(o, "file"), "x.dxbc") && !strcmp(str(o, "verdict"), "disagree") &&
          !strcmp(str(o, "reason"), "one line"), "file, verdict, reason");
    CHECK(has_null(o, "stage") && has_null(o, "ulps_override") && has_null(o, "error"),
          "no program: stage null; no --ulps: ulps_override null; compared: error null");
    CHECK(integer(o, "words_compared") == 100 && integer(o, "mismatches") == 4 &&
          integer(o, "within_precision") == 1 && integer(o, "precision_sensitive") == 1 &&
          integer(o, "undefined_words") == 1 && integer(o, "unexplained") == 1 && integer(o, "unconstrained") == 2 &&
          integer(o, "undefined_events") == 9, "the counts are the report's");

    json_object *w = get(o, "worst");
    CHECK(w && !strcmp(str(w, "resource"), "u1") && integer(w, "byte_offset") == 16 &&
          number(w, "gpu") == (double)0x1.000002p0f && number(w, "cpu") == 1.0 &&
          !strcmp(str(w, "gpu_bits"), "0x3f800001") && !strcmp(str(w, "cpu_bits"), "0x3f800000") &&
          number(w, "deviation") == 0x1p-23 && number(w, "bound") == 1e-6 && integer(w, "instruction") == 64 &&
          !strcmp(str(w, "op"), "rcp"), "worst: %s", w ? json_object_to_json_string(w) : "missing");

    json_object *u = get(o, "undefined");
    CHECK(u && json_object_array_length(u) == 2, "two undefined events kept");
    if (u && json_object_array_length(u) == 2) {
        json_object *e0 = json_object_array_get_idx(u, 0), *e1 = json_object_array_get_idx(u, 1);
        json_object *inv0 = get(e0, "invocations"), *ins0 = get(e0, "instructions");
        CHECK(!strcmp(str(e0, "kind"), "write-write") && !strcmp(str(e0, "location"), "u1") &&
              integer(e0, "byte_offset") == 8 && json_object_get_int(json_object_array_get_idx(inv0, 1)) == 7 &&
              json_object_get_int(json_object_array_get_idx(ins0, 1)) == 104,
              "a UAV race: %s", json_object_to_json_string(e0));
        json_object *inv1 = get(e1, "invocations"), *ins1 = get(e1, "instructions");
        CHECK(!strcmp(str(e1, "kind"), "uninitialized") && !strcmp(str(e1, "location"), "g2") &&
              json_object_array_length(inv1) == 2 && json_object_get_int(json_object_array_get_idx(inv1, 0)) == 5 &&
              json_object_array_get_idx(inv1, 1) == NULL && json_object_array_get_idx(ins1, 0) == NULL &&
              json_object_get_int(json_object_array_get_idx(ins1, 1)) == 200,
              "an uninitialised g# read, missing members null: %s", json_object_to_json_string(e1));
    }

    json_object *d = get(o, "differences");
    CHECK(d && json_object_array_length(d) == 4, "every kept word listed");
    if (d && json_object_array_length(d) == 4) {
        json_object *d0 = json_object_array_get_idx(d, 0), *d1 = json_object_array_get_idx(d, 1);
        json_object *d2 = json_object_array_get_idx(d, 2), *d3 = json_object_array_get_idx(d, 3);
        CHECK(!strcmp(str(d0, "explained"), "within-precision") && fabs(number(d0, "bound") - 1e-6) < 1e-12 &&
              integer(d0, "instruction") == 64 && has_null(d0, "op") && !strcmp(str(d0, "kind"), "float") &&
              json_object_get_int(json_object_array_get_idx(get(d0, "texel"), 0)) == 4,
              "within precision, bound and instruction (no program: op null): %s", json_object_to_json_string(d0));
        CHECK(!strcmp(str(d1, "explained"), "precision-sensitive") && has_null(d1, "bound") &&
              !strcmp(str(d1, "resource"), "o0") && has_null(d1, "instruction") && number(d1, "cpu") == 2.0,
              "an infinite bound is precision-sensitive, bound null: %s", json_object_to_json_string(d1));
        CHECK(!strcmp(str(d2, "explained"), "undefined") && has_null(d2, "byte_offset") &&
              json_object_get_boolean(get(d2, "counter")) && integer(d2, "gpu") == 5 && integer(d2, "cpu") == 3,
              "a counter: byte_offset null, counter true: %s", json_object_to_json_string(d2));
        CHECK(!strcmp(str(d3, "explained"), "unexplained") && integer(d3, "gpu") == -1 && integer(d3, "cpu") == 7 &&
              !strcmp(str(d3, "gpu_bits"), "0xffffffff"),
              "an int word reads signed: %s", json_object_to_json_string(d3));
    }
    json_object *t = get(o, "timing");
    CHECK(t && number(t, "gpu_pipeline_ms") == 1.5 && number(t, "gpu_upload_ms") == 0.25 &&
          number(t, "gpu_run_ms") == 3.0 && number(t, "gpu_readback_ms") == 0.001 && number(t, "cpu_ms") == 0.042 &&
          integer(t, "cpu_instructions") == 31, "timing in milliseconds: %s", t ? json_object_to_json_string(t) : "");
    CHECK(!get(o, "explain_precision") && !json_object_object_get_ex(o, "explain_precision", NULL),
          "explain_precision only with --explain-precision");
    json_object_put(o);

    /* NaN words are null, their bits kept; --ulps is reported. */
    kept[0].cpu = 0x7fc00000u;
    result.ulps = 64;
    o = cli_validate_json(&result);
    check_strict(o, "a NaN word");
    json_object *first = json_object_array_get_idx(get(o, "differences"), 0);
    CHECK(has_null(first, "cpu") && !strcmp(str(first, "cpu_bits"), "0x7fc00000") && integer(o, "ulps_override") == 64,
          "a NaN word is null beside its bits; ulps_override 64: %s", json_object_to_json_string(o));
    json_object_put(o);

    char buf[48];
    cli_validate_location(&report, UINT32_MAX, 7, buf, sizeof(buf));
    CHECK(!strcmp(buf, "g7"), "group-shared location: %s", buf);
    cli_validate_location(&report, 1, 0, buf, sizeof(buf));
    CHECK(!strcmp(buf, "o0"), "output location: %s", buf);
    cli_validate_op_at(NULL, 64, buf, sizeof(buf));
    CHECK(buf[0] == '\0', "no program, no op name");
    CHECK(!strcmp(cli_validate_undefined_kind(SB_INTERP_UNDEFINED_ATOMIC_ORDER), "atomic-order") &&
          !strcmp(cli_validate_undefined_kind(SB_INTERP_UNDEFINED_READ_WRITE), "read-write"), "undefined kind names");
}

/* An input that was not run: every count null, the error object, empty arrays. */
static void test_not_run(void)
{
    struct cli_validate_result result = { .file = "-", .verdict = "not-run", .failed = true,
                                          .error = { .code = SB_ERROR_RUN_UNSUPPORTED, .offset = 296,
                                                     .message = "'eval_centroid': not supported" },
                                          .explain_ulps = 3 };
    snprintf(result.reason, sizeof(result.reason),
             "'eval_centroid': not supported (byte 296) [SB_ERROR_RUN_UNSUPPORTED]");
    json_object *o = cli_validate_json(&result);
    check_strict(o, "not run");
    static const char *const counts[] = { "words_compared", "mismatches", "within_precision", "precision_sensitive",
                                          "undefined_words", "unexplained", "unconstrained", "undefined_events" };
    for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++)
        CHECK(has_null(o, counts[k]), "not run: %s null", counts[k]);
    json_object *e = get(o, "error");
    CHECK(e && !strcmp(str(e, "code"), "SB_ERROR_RUN_UNSUPPORTED") && integer(e, "offset") == 296 &&
          !strcmp(str(e, "message"), "'eval_centroid': not supported"), "the error object");
    CHECK(has_null(o, "worst") && has_null(o, "timing") && has_null(o, "stage") && has_null(o, "explain_precision") &&
          json_object_array_length(get(o, "undefined")) == 0 && json_object_array_length(get(o, "differences")) == 0,
          "not run: worst, timing, stage, explain_precision null; empty arrays: %s", json_object_to_json_string(o));
    json_object_put(o);
}

int main(void)
{
    test_compared();
    test_not_run();
    printf("validate_result: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
