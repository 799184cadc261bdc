/* SPDX-License-Identifier: MIT */
/*
 * The PICA runtime test harness (pica_rt_harness.h): the GPU side draws one
 * point per vertex through the program and the runtime's capture geometry
 * stage (runtime/src/validate/validate_private.h), exactly as sb_validate does, but
 * with inputs and uniforms the test chooses, so known answers can be checked
 * on both sides.
 */
#include "pica_rt_harness.h"

#include <stdlib.h>
#include <string.h>

#include "validate/validate_pica.h"
#include "translator/pica.h"
#include "validate/validate_private.h"

enum { CAPTURE_UAV = 63 };

int g_failures;
struct sb_rt_context *g_context;

static char *read_text(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (text = malloc((size_t)n + 1)) != NULL) {
            *size = fread(text, 1, (size_t)n, f);
            text[*size] = 0;
        }
    }
    fclose(f);
    return text;
}

struct sb_rt_program *prt_load(const char *dir, const char *name, uint32_t dvle, uint32_t pica_flags)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    size_t size = 0;
    char *text = read_text(path, &size);
    CHECK(text != NULL, "cannot read %s", path);
    if (!text)
        return NULL;
    uint8_t *shbin = NULL;
    size_t shbin_size = 0;
    struct sb_pica_asm_error ae;
    memset(&ae, 0, sizeof(ae));
    enum sb_result r = sb_pica_assemble(text, size, &shbin, &shbin_size, &ae);
    free(text);
    CHECK(r == SB_SUCCESS, "%s:%u:%u: %s", path, ae.line, ae.column, ae.error.message);
    if (r != SB_SUCCESS)
        return NULL;
    struct sb_rt_program *program = NULL;
    struct sb_error e;
    memset(&e, 0, sizeof(e));
    r = sb_rt_program_load_shbin(shbin, shbin_size, dvle, pica_flags, NULL, &program, &e);
    sb_pica_free(shbin);
    CHECK(r == SB_SUCCESS, "%s: load: %s (offset %llu)", name, e.message, (unsigned long long)e.offset);
    return r == SB_SUCCESS ? program : NULL;
}

/* The uniform buffer of `in` (cb0) with `u` written into it and the DVLE constants on top. */
static void set_uniforms(const struct sb_rt_program *program, struct sb_rt_inputs *in, const struct prt_uniforms *u)
{
    for (uint32_t k = 0; k < in->count; k++) {
        struct sb_rt_resource *r = &in->resources[k];
        if (r->resource_class != SB_IR_RESOURCE_CBV || r->register_index != 0 ||
            r->size < SB_IR_PICA_UNIFORM_VECTORS * 16)
            continue;
        uint32_t *words = r->data;
        memcpy(words, u->c, sizeof(u->c));
        memcpy(&words[SB_IR_PICA_UNIFORM_INT_VECTOR * 4], u->i, sizeof(u->i));
        memset(&words[SB_IR_PICA_UNIFORM_BOOL_VECTOR * 4], 0, 16);
        words[SB_IR_PICA_UNIFORM_BOOL_VECTOR * 4] = u->b & 0xFFFFu;
        sb_rt_pica_apply_constants(program, words);
    }
}

static void output_masks(const struct sb_ir_program *ir, uint8_t mask[16])
{
    memset(mask, 0, 16);
    for (uint32_t i = 0; i < ir->signature_count; i++) {
        const struct sb_ir_signature_element *e = &ir->signature[i];
        if (e->kind == SB_IR_SIGNATURE_OUTPUT && e->file == SB_IR_FILE_OUTPUT && e->register_index < 16 &&
            sb_rt_capturable_output(e))
            mask[e->register_index] |= (uint8_t)e->mask;
    }
}

/* The GPU side: records of `registers` vectors per vertex into `records`. */
static bool gpu_run(const struct sb_rt_program *program, uint32_t count, const float (*in)[16][4],
                    struct sb_rt_inputs *inputs, uint32_t *records, uint32_t *registers)
{
    struct sb_ir_program *gs = sb_rt_capture_geometry_program(program->ir, CAPTURE_UAV, registers);
    struct sb_translation *gs_t = NULL;
    struct sb_translate_options topts = { .target_env = SB_TARGET_VULKAN_1_1 };
    struct sb_error e;
    memset(&e, 0, sizeof(e));
    enum sb_result r = gs ? sb_translate_ir(gs, &topts, &gs_t, &e) : SB_ERROR_OUT_OF_MEMORY;
    sb_rt_partner_destroy(gs);
    CHECK(r == SB_SUCCESS, "capture stage: %s", e.message);
    if (r != SB_SUCCESS)
        return false;
    const struct sb_translation *t = program->translation;
    struct sb_rt_vertex_stream streams[16];
    float *data[16] = { 0 };
    uint32_t stream_count = 0;
    for (uint32_t k = 0; k < t->input_count && stream_count < 16; k++) {
        uint32_t loc = t->inputs[k].location;
        if (loc >= 16 || !(data[stream_count] = calloc(count, 16)))
            continue;
        for (uint32_t v = 0; in && v < count; v++)
            memcpy(&data[stream_count][v * 4], in[v][loc], 16);
        streams[stream_count] = (struct sb_rt_vertex_stream){ loc, SB_RT_FORMAT_R32G32B32A32_FLOAT, data[stream_count] };
        stream_count++;
    }
    size_t capture_size = (size_t)count * *registers * 16;
    struct sb_rt_resource *all = calloc(inputs->count + 1, sizeof(*all));
    if (all) {
        memcpy(all, inputs->resources, inputs->count * sizeof(*all));
        all[inputs->count] = (struct sb_rt_resource){ .resource_class = SB_IR_RESOURCE_UAV,
                                                      .register_index = CAPTURE_UAV, .size = capture_size,
                                                      .data = records };
        struct sb_rt_draw draw = { .vertex = t, .geometry = gs_t, .vertex_count = count,
                                   .stream_count = stream_count, .streams = streams, .width = 1, .height = 1 };
        r = sb_rt_draw_points(g_context, &draw, all, inputs->count + 1, NULL, &e);
        CHECK(r == SB_SUCCESS, "draw: %s", e.message);
    }
    free(all);
    for (uint32_t k = 0; k < stream_count; k++)
        free(data[k]);
    sb_translation_destroy(gs_t);
    return all && r == SB_SUCCESS;
}

bool prt_run(const struct sb_rt_program *program, uint32_t count, const float (*in)[16][4],
             const struct prt_uniforms *u, struct prt_outputs *out)
{
    memset(out, 0, sizeof(*out));
    out->count = count;
    output_masks(program->ir, out->mask);
    struct sb_rt_input_options io = { .seed = 1 };
    struct sb_rt_inputs *inputs = NULL;
    struct sb_error e;
    memset(&e, 0, sizeof(e));
    if (count > PRT_MAX_VERTICES || sb_rt_inputs_create(program, &io, &inputs, &e) != SB_SUCCESS) {
        CHECK(false, "inputs: %s", e.message);
        return false;
    }
    if (u)
        set_uniforms(program, inputs, u);
    struct sb_interp_registers cpu_in = { .registers = 16, .words = calloc((size_t)count * 64, 4) };
    struct sb_interp_registers cpu_out = { .registers = 16, .words = calloc((size_t)count * 64, 4) };
    for (uint32_t v = 0; in && cpu_in.words && v < count; v++)
        memcpy(&cpu_in.words[v * 64], in[v], 256);
    enum sb_result r = cpu_in.words && cpu_out.words
                           ? sb_interp_run_vertices(program->ir, inputs->resources, inputs->count, count, &cpu_in,
                                                    &cpu_out, NULL, NULL, &e)
                           : SB_ERROR_OUT_OF_MEMORY;
    CHECK(r == SB_SUCCESS, "interpreter: %s", e.message);
    if (r == SB_SUCCESS)
        memcpy(out->words, cpu_out.words, (size_t)count * 256);
    if (r == SB_SUCCESS && g_context && sb_rt_context_has_device(g_context)) {
        uint32_t registers = 0;
        uint32_t *records = calloc((size_t)count * 16, 16);
        if (records && gpu_run(program, count, in, inputs, records, &registers)) {
            uint32_t mismatches = 0;
            for (uint32_t v = 0; v < count; v++)
                for (uint32_t reg = 0; reg < 16 && reg < registers; reg++)
                    for (uint32_t l = 0; l < 4; l++) {
                        uint32_t g = records[(v * registers + reg) * 4 + l], c = out->words[v][reg][l];
                        if ((out->mask[reg] >> l & 1) && g != c && mismatches++ < 8)
                            fprintf(stderr, "  vertex %u o%u.%c: gpu 0x%08x cpu 0x%08x\n", v, reg, "xyzw"[l], g, c);
                    }
            CHECK(mismatches == 0, "%u output words differ between the GPU and the interpreter", mismatches);
            out->gpu_ran = mismatches == 0;
        }
        free(records);
    }
    free(cpu_in.words);
    free(cpu_out.words);
    sb_rt_inputs_destroy(inputs);
    return r == SB_SUCCESS;
}

uint64_t prt_validate(const struct sb_rt_program *program, uint64_t seed, uint32_t draw_count)
{
    bool gpu = g_context && sb_rt_context_has_device(g_context);
    struct sb_validate_options o = { .inputs = { .seed = seed }, .draw_count = draw_count,
                                     .sides = gpu ? 0 : SB_VALIDATE_SIDE_CPU };
    struct sb_validate_report *report = NULL;
    struct sb_error e;
    memset(&e, 0, sizeof(e));
    enum sb_result r = sb_validate(g_context, program, &o, &report, &e);
    CHECK(r == SB_SUCCESS, "validate (seed %llu): %s", (unsigned long long)seed, e.message);
    uint64_t compared = 0;
    if (report) {
        for (uint32_t k = 0; k < report->kept && k < 4; k++)
            fprintf(stderr, "  mismatch at byte %llu: gpu 0x%08x cpu 0x%08x\n",
                    (unsigned long long)report->mismatches[k].byte_offset, report->mismatches[k].gpu,
                    report->mismatches[k].cpu);
        CHECK(report->mismatch_count == 0, "validate (seed %llu): %llu mismatches", (unsigned long long)seed,
              (unsigned long long)report->mismatch_count);
        CHECK(!gpu || report->words_compared > 0, "validate compared nothing");
        compared = report->words_compared;
    }
    sb_validate_report_destroy(report);
    return compared;
}

float prt_out(const struct prt_outputs *out, uint32_t v, uint32_t reg, uint32_t lane)
{
    float f;
    memcpy(&f, &out->words[v][reg][lane], 4);
    return f;
}

bool prt_is_dispatch(const struct sb_rt_program *program)
{
    const struct sb_ir_program *ir = program->ir;
    for (uint32_t f = 0; f < ir->function_count; f++)
        for (uint32_t n = 0; n < ir->functions[f].instruction_count; n++)
            if (ir->functions[f].instructions[n].op == SB_IR_OP_SWITCH)
                return true;
    return false;
}
