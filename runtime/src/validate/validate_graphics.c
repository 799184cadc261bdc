/* SPDX-License-Identifier: MIT */
/*
 * Validation of vertex and pixel programs (validate.h). Both draw points so
 * that rasterisation adds nothing the interpreter would have to imitate:
 *
 *   vertex: N points through the program under test and the capture GS of
 *   partner.c (rasterizer discard); every output register of every vertex
 *   comes back through a UAV and is compared with sb_interp_run_vertices.
 *
 *   pixel: the feeder VS of partner.c puts point i on the centre of pixel
 *   (i % width, i / width) carrying seeded attributes; the render targets
 *   (and depth, when the program writes it) are compared with
 *   sb_interp_run_pixels, a discarded pixel keeping the clear value.
 *
 * Outputs join the report as extra resources after the program's own (class
 * SB_VALIDATE_CLASS_OUTPUT / _DEPTH), each word with the kind its signature
 * element gives (components no element declares are not compared). A pixel
 * disagreement that a known device defect explains says so in its reason
 * (sb_validate_pixel_explain; tests/validate/README.md "Known device defects").
 * A program using eval_* is drawn as one triangle per pixel instead, its inputs exact
 * planes the interpreter is given too (validate_pixel_planes.c).
 */
#include "validate_private.h"
#include "error.h"

#include <math.h>
#include "error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "translator/ir.h"

enum { CAPTURE_UAV = 63, PIXEL_WIDTH = 8 };

static uint32_t word_kind_of_type(uint32_t type)
{
    return type == SB_IR_TYPE_UINT ? SB_RT_WORD_UINT : type == SB_IR_TYPE_INT ? SB_RT_WORD_INT : SB_RT_WORD_FLOAT;
}

static uint32_t rgba_format(uint32_t type)
{
    return type == SB_IR_TYPE_UINT ? SB_RT_FORMAT_R32G32B32A32_UINT
           : type == SB_IR_TYPE_INT ? SB_RT_FORMAT_R32G32B32A32_SINT : SB_RT_FORMAT_R32G32B32A32_FLOAT;
}

/* Per register of one signature kind/file: the union of masks and the component type
 * (the last element's), and per declared component its own element's type (a pixel
 * program may read float and integer components in one register). */
struct register_map {
    uint32_t count;            /* highest register + 1 */
    uint8_t mask[256];
    uint8_t type[256];
    uint8_t component_type[256][4]; /* where mask has the component */
};

static void map_element(struct register_map *m, uint32_t reg, uint32_t mask, uint32_t type)
{
    m->mask[reg] |= (uint8_t)mask;
    m->type[reg] = (uint8_t)type;
    for (uint32_t c = 0; c < 4; c++)
        if (mask >> c & 1u)
            m->component_type[reg][c] = (uint8_t)type;
    if (reg + 1 > m->count)
        m->count = reg + 1;
}

/* The type a register's component is seeded with: its element's, else the register's. */
static uint32_t type_of_component(const struct register_map *m, uint32_t reg, uint32_t c)
{
    return m->mask[reg] >> c & 1u ? m->component_type[reg][c] : m->type[reg];
}

static void map_registers(const struct sb_ir_program *p, uint32_t kind, uint32_t file, bool skip_system,
                          struct register_map *m)
{
    memset(m, 0, sizeof(*m));
    for (uint32_t i = 0; i < p->signature_count; i++) {
        const struct sb_ir_signature_element *e = &p->signature[i];
        if (e->kind != kind || e->file != file || e->register_index >= 256)
            continue;
        if ((skip_system && e->system_value) || (kind == SB_IR_SIGNATURE_OUTPUT && !sb_rt_capturable_output(e)))
            continue;
        map_element(m, e->register_index, e->mask & 0xFu, e->component_type);
    }
}

/* The locations and components the translated module reads (its interface report): an
 * element only the container signature names still takes a location there. */
static void map_module_inputs(const struct sb_translation *t, struct register_map *m)
{
    memset(m, 0, sizeof(*m));
    for (uint32_t i = 0; i < t->input_count; i++) {
        const struct sb_translated_interface *f = &t->inputs[i];
        if (f->array_size || f->patch || f->location >= 64 || !f->component_count)
            continue;
        map_element(m, f->location, ((1u << f->component_count) - 1u) << f->component, f->component_type);
    }
}

/* The format of render target o#`reg` in *format: the caller's
 * (sb_validate_options::target_formats), else R32G32B32A32 of the output's type. */
static enum sb_result target_format(const struct sb_validate_options *o, const struct register_map *map, uint32_t reg,
                                    uint32_t *format, struct sb_error *error)
{
    uint32_t wanted = reg < 8 ? (uint32_t)o->target_formats[reg] : 0;
    *format = wanted ? wanted : rgba_format(map->type[reg]);
    if (!wanted)
        return SB_SUCCESS;
    uint32_t zero[4] = { 0, 0, 0, 0 }, kind = word_kind_of_type(map->type[reg]);
    uint8_t scratch[16];
    if (wanted >= SB_RT_FORMAT_COUNT || !sb_interp_texel_pack((enum sb_rt_format)wanted, zero, scratch))
        return sb_error_set(error, SB_ERROR_RUN_BINDING, 0, SB_ERROR_NO_INSTR, "render target o%u: format %s is "
                            "not a colour format a target can have (no depth, no BC)", reg,
                            sb_rt_format_name((enum sb_rt_format)wanted));
    if (sb_rt_format_read_kind(wanted) != kind) {
        static const char *const kinds[] = { "?", "float", "int", "uint" };
        return sb_error_set(error, SB_ERROR_RUN_BINDING, 0, SB_ERROR_NO_INSTR, "render target o%u: the program "
                            "writes %s, format %s takes %s", reg, kinds[kind < 4 ? kind : 0],
                            sb_rt_format_name((enum sb_rt_format)wanted), kinds[sb_rt_format_read_kind(wanted)]);
    }
    return SB_SUCCESS;
}

/* D3D11 lets a float -> sRGB conversion land within 0.6 ULP of the exact value, so of two
 * neighbouring 8-bit codes around a value near a half both are right: where the device's
 * code (`gpu`) for an rgb channel of an sRGB target lies within that allowance of the exact
 * value of the interpreter's lane, the interpreter's code (`cpu`) is taken to be the device's
 * (the two then agree; a code outside it still differs). `lanes` holds each pixel's o#
 * registers, `location` the target's. */
static void accept_srgb_allowance(uint32_t format, const uint8_t *gpu, uint8_t *cpu, const uint32_t *lanes,
                                  uint32_t registers, uint32_t location, uint32_t count, const uint8_t *discarded)
{
    bool bgra = format == SB_RT_FORMAT_B8G8R8A8_UNORM_SRGB;
    if (format != SB_RT_FORMAT_R8G8B8A8_UNORM_SRGB && !bgra)
        return;
    for (uint32_t i = 0; i < count; i++) {
        if (discarded[i])
            continue;
        for (uint32_t c = 0; c < 3; c++) {
            uint32_t byte = i * 4 + (bgra ? 2 - c : c);
            float f;
            memcpy(&f, &lanes[((size_t)i * registers + location) * 4 + c], 4);
            if (gpu[byte] == cpu[byte] || f != f)
                continue;
            double x = f < 0.0f ? 0.0 : f > 1.0f ? 1.0 : (double)f;
            double exact = 255.0 * (x <= 0.0031308 ? 12.92 * x : 1.055 * pow(x, 1.0 / 2.4) - 0.055);
            if (fabs((double)gpu[byte] - exact) <= 0.6)
                cpu[byte] = gpu[byte];
        }
    }
}

/* Appends the output resource of a render target of `count` texels of a caller's `format`
 * (target_format): one compared word kind per 32-bit word, floats where the format's channels
 * are 32-bit floats, else exact (packed channels). */
static bool add_packed_target(struct sb_rt_inputs *in, uint32_t reg, uint32_t count, uint32_t format)
{
    if (!sb_rt_inputs_append(in, 1))
        return false;
    uint32_t i = in->count - 1, texel = sb_rt_format_size((enum sb_rt_format)format);
    struct sb_rt_resource *r = &in->resources[i];
    r->resource_class = SB_VALIDATE_CLASS_OUTPUT;
    r->register_index = reg;
    r->size = ((size_t)count * texel + 3) & ~(size_t)3;
    r->data = calloc(r->size, 1);
    if (!r->data)
        return false;
    bool words = texel == 4 * sb_rt_format_channels((enum sb_rt_format)format);
    in->uniform_kind[i] = words ? sb_rt_format_read_kind(format) : SB_RT_WORD_UINT;
    return true;
}

/* Appends an output resource of `records` x `registers` vectors with kinds from `map`. */
static bool add_output(struct sb_rt_inputs *in, uint32_t resource_class, uint32_t reg, uint32_t records,
                       uint32_t registers, const struct register_map *map, uint32_t only_register)
{
    if (!sb_rt_inputs_append(in, 1))
        return false;
    uint32_t i = in->count - 1;
    struct sb_rt_resource *r = &in->resources[i];
    r->resource_class = resource_class;
    r->register_index = reg;
    r->size = (size_t)records * registers * 16;
    r->data = calloc(r->size ? r->size : 4, 1);
    uint8_t *kinds = malloc(r->size / 4 ? r->size / 4 : 1);
    if (!r->data || !kinds) {
        free(kinds);
        return false;
    }
    for (uint32_t n = 0; n < records; n++)
        for (uint32_t g = 0; g < registers; g++) {
            uint32_t source = only_register == UINT32_MAX ? g : only_register;
            for (uint32_t c = 0; c < 4; c++)
                kinds[((size_t)n * registers + g) * 4 + c] =
                    source < map->count && (map->mask[source] >> c & 1) ? (uint8_t)word_kind_of_type(map->type[source])
                                                                        : SB_RT_WORD_IGNORED;
        }
    in->word_kinds[i] = kinds;
    return true;
}

/* Seeded vertex streams for registers of `map` (one R32G32B32A32 stream each; `raw`: of
 * format UINT, read as words by the pixel feeder, else of the register's type) and the same
 * values as interpreter input registers. Each word is seeded by its component's type, as the
 * input options say (sb_rt_input_options::flags: SB_RT_INPUTS_SMALL after a retry); a stream
 * the caller provides (`user`, vertex programs; NULL: none) replaces the seeded words of its
 * register. A lane takes the seeded values of the lane `lanes` names (sb_validate_options::
 * input_seed_lanes), in its own type. */
static enum sb_result make_streams(const struct register_map *map, uint32_t count,
                                   const struct sb_rt_input_options *seeding, const struct sb_validate_options *user,
                                   const struct sb_validate_options *lanes, bool raw, struct sb_rt_vertex_stream *streams,
                                   uint32_t *stream_count, struct sb_interp_registers *cpu, struct sb_error *error)
{
    *stream_count = 0;
    enum sb_result r = user ? sb_validate_vertex_inputs_read(user, map->mask, error) : SB_SUCCESS;
    for (uint32_t reg = 0; r == SB_SUCCESS && reg < map->count; reg++) {
        if (!map->mask[reg])
            continue;
        uint32_t *data = malloc((size_t)count * 16);
        if (!data)
            return sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory making vertex inputs");
        for (uint32_t v = 0; v < count; v++)
            for (uint32_t c = 0; c < 4; c++) {
                uint32_t from = reg * 4 + c;
                if (lanes->input_seed_lanes && from < lanes->input_seed_lane_count &&
                    lanes->input_seed_lanes[from] != UINT32_MAX)
                    from = lanes->input_seed_lanes[from];
                uint64_t random = sb_rt_mix64(seeding->seed ^ sb_rt_mix64(((uint64_t)(from / 4) << 40) |
                                                                          ((uint64_t)v << 2) | (from % 4)));
                uint32_t kind = word_kind_of_type(type_of_component(map, reg, c));
                data[v * 4 + c] = sb_rt_seeded_word_as(seeding->flags, (uint8_t)kind, random, false);
            }
        if (user)
            r = sb_validate_vertex_input_fill(user, reg, map->mask[reg], count, data, error);
        for (uint32_t v = 0; v < count; v++)
            memcpy(&cpu->words[((size_t)v * cpu->registers + reg) * 4], &data[v * 4], 16);
        uint32_t format = rgba_format(raw ? SB_IR_TYPE_UINT : map->type[reg]);
        streams[*stream_count] = (struct sb_rt_vertex_stream){ .location = reg, .format = format, .data = data };
        (*stream_count)++;
    }
    return r;
}

static void free_streams(struct sb_rt_vertex_stream *streams, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++)
        free((void *)streams[i].data);
}

/* The draw's resources: the program's own, plus `extra` (may be NULL). */
static struct sb_rt_resource *draw_resources(const struct sb_rt_inputs *in, uint32_t own,
                                             const struct sb_rt_resource *extra)
{
    struct sb_rt_resource *all = calloc(own + 1, sizeof(*all));
    if (!all)
        return NULL;
    memcpy(all, in->resources, own * sizeof(*all));
    if (extra)
        all[own] = *extra;
    return all;
}

/* The interpreter's evidence for the vertex records (laid out as its outputs). */
static enum sb_result track_vertex_outputs(struct sb_validate_report *report, size_t words, struct sb_error *error)
{
    const struct sb_interp_tracking *t = &report->tracking;
    float *bound;
    uint32_t *origin;
    uint8_t *undefined;
    if (!t->output_bound && !t->output_undefined)
        return SB_SUCCESS;
    if (!sb_validate_track_resource(report, report->cpu->count - 1, words, &bound, &origin, &undefined))
        return sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    if (bound && t->output_bound) {
        memcpy(bound, t->output_bound, words * sizeof(float));
        memcpy(origin, t->output_origin, words * sizeof(uint32_t));
    }
    if (undefined && t->output_undefined)
        memcpy(undefined, t->output_undefined, words);
    return SB_SUCCESS;
}

/* The same for render target `index` (pixel i's four words from o#`location`). */
static enum sb_result track_target(struct sb_validate_report *report, uint32_t index, uint32_t location,
                                   uint32_t registers, uint32_t count, uint32_t per, const uint8_t *discarded,
                                   struct sb_error *error)
{
    /* `per` target records share one interpreter record (a per-pixel run on a multisampled target). */
    const struct sb_interp_tracking *t = &report->tracking;
    float *bound;
    uint32_t *origin;
    uint8_t *undefined;
    if (!t->output_bound && !t->output_undefined)
        return SB_SUCCESS;
    if (!sb_validate_track_resource(report, index, (size_t)count * 4, &bound, &origin, &undefined))
        return sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t i = 0; bound && i < count; i++)
        for (uint32_t c = 0; c < 4 && !discarded[i]; c++) {
            size_t from = ((size_t)(i / per) * registers + location) * 4 + c;
            if (t->output_bound) {
                bound[i * 4 + c] = t->output_bound[from];
                origin[i * 4 + c] = t->output_origin[from];
            }
            if (t->output_undefined)
                undefined[i * 4 + c] = t->output_undefined[from];
        }
    return SB_SUCCESS;
}

enum sb_result sb_validate_vertex(struct sb_rt_context *context, const struct sb_rt_program *program,
                                  const struct sb_validate_options *o, struct sb_validate_report *report,
                                  struct sb_error *error)
{
    const struct sb_ir_program *vs = program->ir;
    uint32_t count = o->draw_count ? o->draw_count : 64 * (o->group_count[0] ? o->group_count[0] : 1);
    struct register_map in_map, out_map;
    map_module_inputs(program->translation, &in_map);
    map_registers(vs, SB_IR_SIGNATURE_OUTPUT, SB_IR_FILE_OUTPUT, false, &out_map);
    uint32_t record_registers = 0;
    struct sb_ir_program *gs = sb_rt_capture_geometry_program(vs, CAPTURE_UAV, &record_registers);
    struct sb_translation *gs_t = NULL;
    struct sb_translate_options topts = { .target_env = SB_TARGET_VULKAN_1_1 };
    enum sb_result r = gs ? sb_translate_ir(gs, &topts, &gs_t, error)
                          : sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory building the capture stage");
    sb_rt_partner_destroy(gs);
    /* interp.h: registers up to the highest the signature declares (system values such as
     * SV_VertexID may sit above every location the module reads). */
    struct sb_interp_registers cpu_in = { .registers = in_map.count ? in_map.count : 1 };
    for (uint32_t i = 0; i < vs->signature_count; i++)
        if (vs->signature[i].kind == SB_IR_SIGNATURE_INPUT && vs->signature[i].file == SB_IR_FILE_INPUT &&
            vs->signature[i].register_index < 256 && vs->signature[i].register_index >= cpu_in.registers)
            cpu_in.registers = vs->signature[i].register_index + 1;
    struct sb_interp_registers cpu_out = { .registers = record_registers };
    cpu_in.words = calloc((size_t)count * cpu_in.registers * 4, 4);
    cpu_out.words = calloc((size_t)count * cpu_out.registers * 4, 4);
    struct sb_rt_vertex_stream streams[256];
    uint32_t stream_count = 0;
    if (r == SB_SUCCESS && (!cpu_in.words || !cpu_out.words))
        r = sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory making vertex inputs");
    if (r == SB_SUCCESS)
        r = make_streams(&in_map, count, &o->inputs, o, o, false, streams, &stream_count, &cpu_in, error);
    if (r == SB_SUCCESS) {
        uint32_t own = report->gpu->count;
        size_t capture_size = (size_t)count * record_registers * 16;
        struct sb_rt_resource capture = { .resource_class = SB_IR_RESOURCE_UAV, .register_index = CAPTURE_UAV,
                                          .size = capture_size, .data = calloc(capture_size, 1) };
        struct sb_rt_resource *all = capture.data ? draw_resources(report->gpu, own, &capture) : NULL;
        struct sb_rt_draw draw = { .vertex = program->translation, .geometry = gs_t, .vertex_count = count,
                                   .stream_count = stream_count, .streams = streams, .width = 1, .height = 1 };
        if (!all)
            r = sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        else if (o->sides & SB_VALIDATE_SIDE_GPU)
            r = sb_rt_draw_points(context, &draw, all, own + 1, &report->gpu_timing, error);
        for (uint32_t i = 0; all && i < own; i++)
            report->gpu->resources[i].counter = all[i].counter;
        free(all);
        if (r == SB_SUCCESS && (!add_output(report->gpu, SB_VALIDATE_CLASS_OUTPUT, 0, count, record_registers,
                                            &out_map, UINT32_MAX) ||
                                !add_output(report->cpu, SB_VALIDATE_CLASS_OUTPUT, 0, count, record_registers,
                                            &out_map, UINT32_MAX)))
            r = sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        if (r == SB_SUCCESS)
            memcpy(report->gpu->resources[report->gpu->count - 1].data, capture.data, capture_size);
        free(capture.data);
    }
    if (r == SB_SUCCESS && (o->sides & SB_VALIDATE_SIDE_CPU)) {
        uint64_t start = sb_validate_now_ns();
        r = sb_interp_run_vertices(vs, report->cpu->resources, report->cpu->count - 1, count, &cpu_in, &cpu_out,
                                   &o->interp, &report->cpu_stats, error);
        report->cpu_ns = sb_validate_now_ns() - start;
        if (r == SB_SUCCESS)
            memcpy(report->cpu->resources[report->cpu->count - 1].data, cpu_out.words,
                   (size_t)count * record_registers * 16);
        r = r == SB_SUCCESS ? track_vertex_outputs(report, (size_t)count * record_registers * 4, error) : r;
    }
    free_streams(streams, stream_count);
    free(cpu_in.words);
    free(cpu_out.words);
    sb_translation_destroy(gs_t);
    return r;
}

/* Does the program run once per sample on a multisampled target (an SV_SampleIndex input or an
 * input interpolated at the sample)? */
static bool runs_per_sample(const struct sb_ir_program *p)
{
    for (uint32_t e = 0; e < p->signature_count; e++) {
        const struct sb_ir_signature_element *el = &p->signature[e];
        if (el->kind == SB_IR_SIGNATURE_INPUT &&
            (el->system_value == 10 /* SV_SampleIndex */ || el->interpolation == SB_IR_INTERP_LINEAR_SAMPLE ||
             el->interpolation == SB_IR_INTERP_LINEAR_NOPERSPECTIVE_SAMPLE))
            return true;
    }
    return false;
}

/* Does the program read or write coverage (vCoverage, oMask), which a multisampled target shows? */
static bool uses_coverage(const struct sb_ir_program *p)
{
    for (uint32_t e = 0; e < p->signature_count; e++)
        if (p->signature[e].file == SB_IR_FILE_COVERAGE_IN || p->signature[e].file == SB_IR_FILE_COVERAGE_OUT)
            return true;
    return false;
}

/* A per-pixel run's results spread to every sample of a multisampled target: record i of
 * `count` becomes records i * samples .. i * samples + samples - 1 (the arrays hold that many). */
static void spread_to_samples(struct sb_interp_registers *out, uint8_t *discarded, uint32_t *coverage,
                              uint32_t count, uint32_t samples)
{
    size_t record = (size_t)out->registers * 4;
    for (uint32_t i = count; i-- > 0;) /* backwards: a record never lands on one still to be read */
        for (uint32_t k = samples; k-- > 0;) {
            size_t to = (size_t)i * samples + k;
            memmove(&out->words[to * record], &out->words[i * record], record * sizeof(uint32_t));
            discarded[to] = discarded[i];
            if (coverage)
                coverage[to] = coverage[i];
        }
}

/* Are all the outputs floats (targets a device has multisampled: lavapipe has no integer ones)? */
static bool float_outputs(const struct register_map *out)
{
    for (uint32_t reg = 0; reg < out->count; reg++)
        if (out->mask[reg] && out->type[reg] != SB_IR_TYPE_FLOAT)
            return false;
    return true;
}

bool sb_validate_pixel_draws_triangles(const struct sb_rt_program *program)
{
    const struct sb_ir_program *p = program ? program->ir : NULL;
    if (!p || p->stage != SB_IR_STAGE_PIXEL)
        return false;
    for (uint32_t f = 0; f < p->function_count; f++)
        for (uint32_t n = 0; n < p->functions[f].instruction_count; n++) {
            uint32_t op = p->functions[f].instructions[n].op;
            if (op == SB_IR_OP_EVAL_CENTROID || op == SB_IR_OP_EVAL_SAMPLE_INDEX || op == SB_IR_OP_EVAL_SNAPPED)
                return true;
        }
    return false;
}

enum sb_result sb_validate_pixel(struct sb_rt_context *context, const struct sb_rt_program *program,
                                 const struct sb_validate_options *o, struct sb_validate_report *report,
                                 struct sb_error *error)
{
    const struct sb_ir_program *ps = program->ir;
    uint32_t width = o->draw_width ? o->draw_width : PIXEL_WIDTH;
    uint32_t height = o->draw_height ? o->draw_height : 8 * (o->group_count[0] ? o->group_count[0] : 1);
    if ((uint64_t)width * height > (1u << 22))
        return sb_validate_fail(error, SB_ERROR_INVALID_ARGUMENT, "pixel draws cover at most 2^22 pixels");
    uint32_t count = width * height;
    struct register_map in_map, feed_map, out_map;
    map_registers(ps, SB_IR_SIGNATURE_INPUT, SB_IR_FILE_INPUT, false, &in_map);
    map_registers(ps, SB_IR_SIGNATURE_OUTPUT, SB_IR_FILE_OUTPUT, false, &out_map);
    bool writes_depth = false;
    for (uint32_t i = 0; i < ps->signature_count; i++) {
        uint32_t f = ps->signature[i].file;
        writes_depth |= ps->signature[i].kind == SB_IR_SIGNATURE_OUTPUT &&
                        (f == SB_IR_FILE_DEPTH || f == SB_IR_FILE_DEPTH_GREATER_EQUAL || f == SB_IR_FILE_DEPTH_LESS_EQUAL);
    }
    /* The feeder carries what the pixel module reads at locations (the rasterizer makes the rest). */
    const struct sb_translation *pt = program->translation;
    map_module_inputs(pt, &feed_map);
    if (feed_map.count > in_map.count)
        in_map.count = feed_map.count;
    uint32_t position_register = 0;
    /* eval_* needs inputs that vary over the pixel: such a program is drawn as a triangle per pixel
     * whose attributes make exact planes (validate_pixel_planes.c), every other as points. */
    bool triangles = sb_validate_pixel_draws_triangles(program);
    struct sb_ir_program *feeder = sb_rt_feeder_vertex_program(
        pt, ps, width, triangles ? sb_rt_pixel_planes_side(width) : width,
        triangles ? sb_rt_pixel_planes_side(height) : height, triangles, &position_register);
    struct sb_translation *feeder_t = NULL;
    struct sb_translate_options topts = { .target_env = SB_TARGET_VULKAN_1_1 };
    enum sb_result r = feeder ? sb_translate_ir(feeder, &topts, &feeder_t, error)
                              : sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory building the feeder stage");
    sb_rt_partner_destroy(feeder);

    bool writes_coverage = false;
    for (uint32_t i = 0; i < ps->signature_count; i++)
        writes_coverage |= ps->signature[i].kind == SB_IR_SIGNATURE_OUTPUT &&
                           ps->signature[i].file == SB_IR_FILE_COVERAGE_OUT;
    /* oStencilRef lands in a stencil attachment (cleared to 0, ALWAYS / REPLACE). */
    bool writes_stencil = false;
    for (uint32_t i = 0; i < ps->signature_count; i++)
        writes_stencil |= ps->signature[i].kind == SB_IR_SIGNATURE_OUTPUT &&
                          ps->signature[i].file == SB_IR_FILE_STENCIL_REF;
    /* A program that runs per sample or reads or writes coverage draws on a 4-sample target (every
     * Vulkan device has 4-sample float colour attachments) and is compared sample by sample, the
     * interpreter running it per sample too, or per pixel with each pixel's results spread to the
     * samples its oMask keeps; integer outputs (lavapipe has no multisampled integer attachments)
     * depth or stencil writes and a caller's target formats keep one sample. `records`: outputs per target, each pixel's
     * samples in a row. */
    bool packed_targets = false; /* a caller's target formats: drawn at one sample */
    for (uint32_t t = 0; t < 8; t++)
        packed_targets |= o->target_formats[t] != 0;
    uint32_t samples = (runs_per_sample(ps) || uses_coverage(ps)) && float_outputs(&out_map) && !writes_depth &&
                       !writes_stencil && !packed_targets ? 4 : 1;
    uint32_t per = samples > 1 && !runs_per_sample(ps) ? samples : 1;
    uint32_t records = count * samples;
    struct sb_interp_registers cpu_in = { .registers = in_map.count ? in_map.count : 1 };
    struct sb_interp_registers planes_x = { 0 }, planes_y = { 0 };
    struct sb_interp_registers cpu_out = { .registers = out_map.count ? out_map.count : 1 };
    cpu_in.words = calloc((size_t)count * cpu_in.registers * 4, 4);
    cpu_out.words = calloc((size_t)records * cpu_out.registers * 4, 4);
    float *positions = malloc((size_t)count * 4 * sizeof(float));
    float *gpu_depth = writes_depth ? malloc((size_t)count * sizeof(float)) : NULL;
    float *cpu_depth = writes_depth ? calloc(count, sizeof(float)) : NULL;
    uint8_t *discarded = calloc(records, 1);
    uint8_t *gpu_stencil = writes_stencil ? calloc(count, 1) : NULL;
    uint32_t *cpu_stencil = writes_stencil ? calloc(count, sizeof(uint32_t)) : NULL;
    uint32_t *coverage = NULL;
    if (writes_coverage) {
        coverage = malloc((size_t)records * sizeof(*coverage));
        for (uint32_t i = 0; coverage && i < records; i++)
            coverage[i] = 0xFFFFFFFFu; /* a pixel that never writes oMask keeps its sample */
    }
    struct sb_rt_vertex_stream streams[256];
    struct sb_rt_color_target targets[8];
    uint32_t stream_count = 0, target_count = 0;
    if (r == SB_SUCCESS && (!cpu_in.words || !cpu_out.words || !positions || !discarded ||
                            (writes_depth && (!gpu_depth || !cpu_depth)) || (writes_coverage && !coverage) ||
                            (writes_stencil && (!gpu_stencil || !cpu_stencil)) ||
                            make_streams(&feed_map, count, &o->inputs, NULL, o, true, streams, &stream_count, &cpu_in,
                                         error) != SB_SUCCESS ||
                            (triangles && !sb_rt_pixel_planes_make(ps, o->inputs.seed, count, streams, stream_count,
                                                                   &cpu_in, &planes_x, &planes_y))))
        r = sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory making pixel inputs");
    for (uint32_t e = 0; r == SB_SUCCESS && e < ps->signature_count; e++) {
        const struct sb_ir_signature_element *el = &ps->signature[e];
        if (!sb_rt_feeder_writes_distance(el) || el->register_index >= cpu_in.registers)
            continue;
        for (uint32_t i = 0; i < count; i++)
            for (uint32_t c = 0; c < 4; c++)
                if (el->mask & (1u << c)) {
                    float d = sb_rt_feeder_distance(i, el->register_index, c);
                    memcpy(&cpu_in.words[((size_t)i * cpu_in.registers + el->register_index) * 4 + c], &d, 4);
                }
    }
    for (uint32_t i = 0; r == SB_SUCCESS && i < count; i++) {
        positions[i * 4 + 0] = (float)(i % width) + 0.5f;
        positions[i * 4 + 1] = (float)(i / width) + 0.5f;
        positions[i * 4 + 2] = 0.5f;
        positions[i * 4 + 3] = 1.0f;
        if (gpu_depth)
            gpu_depth[i] = 1.0f;
    }
    uint32_t formats[8] = { 0 };
    for (uint32_t reg = 0; r == SB_SUCCESS && reg < out_map.count && target_count < 8; reg++) {
        if (!out_map.mask[reg])
            continue;
        uint32_t format = 0;
        r = target_format(o, &out_map, reg, &format, error);
        if (r != SB_SUCCESS)
            break;
        bool packed = reg < 8 && o->target_formats[reg];
        formats[target_count] = packed ? format : 0;
        bool added = packed ? add_packed_target(report->gpu, reg, records, format) &&
                                  add_packed_target(report->cpu, reg, records, format)
                            : add_output(report->gpu, SB_VALIDATE_CLASS_OUTPUT, reg, records, 1, &out_map, reg) &&
                                  add_output(report->cpu, SB_VALIDATE_CLASS_OUTPUT, reg, records, 1, &out_map, reg);
        if (!added) {
            r = sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
            break;
        }
        struct sb_rt_resource *g = &report->gpu->resources[report->gpu->count - 1];
        g->format = format;
        g->dimension = 3; /* a 2D image, for the report's texel coordinates */
        g->width = width;
        g->height = height;
        g->depth = g->layers = g->mip_levels = 1;
        g->sample_count = samples;
        report->cpu->resources[report->cpu->count - 1].sample_count = samples;
        report->cpu->resources[report->cpu->count - 1].format = g->format;
        report->cpu->resources[report->cpu->count - 1].dimension = 3;
        report->cpu->resources[report->cpu->count - 1].width = width;
        report->cpu->resources[report->cpu->count - 1].height = height;
        targets[target_count++] = (struct sb_rt_color_target){ .location = reg, .format = g->format, .data = g->data };
    }
    uint32_t own = report->gpu->count - target_count;
    if (r == SB_SUCCESS) {
        struct sb_rt_resource *all = draw_resources(report->gpu, own, NULL);
        struct sb_rt_draw draw = { .vertex = feeder_t, .pixel = program->translation,
                                   .vertex_count = triangles ? 3 * count : count,
                                   .stream_count = stream_count, .streams = streams, .width = width,
                                   .height = height, .target_count = target_count, .targets = targets,
                                   .depth = gpu_depth, .stencil = gpu_stencil,
                                   .topology = triangles ? SB_RT_TOPOLOGY_TRIANGLE_LIST : SB_RT_TOPOLOGY_POINT_LIST,
                                   .samples = samples };
        const char *refusal = triangles ? sb_rt_pixel_triangles_refusal(ps, samples) : NULL;
        if (!all)
            r = sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
        else if (refusal && (o->sides & SB_VALIDATE_SIDE_GPU))
            r = sb_error_set(error, SB_ERROR_RUN_UNSUPPORTED, 0, SB_ERROR_NO_INSTR, "%s", refusal);
        else if ((o->sides & SB_VALIDATE_SIDE_GPU) && triangles)
            r = sb_rt_pixel_planes_draw(context, &draw, all, own, &report->gpu_timing, error);
        else if (o->sides & SB_VALIDATE_SIDE_GPU)
            r = sb_rt_draw_points(context, &draw, all, own, &report->gpu_timing, error);
        for (uint32_t i = 0; all && i < own; i++)
            report->gpu->resources[i].counter = all[i].counter;
        free(all);
    }
    if (r == SB_SUCCESS && (o->sides & SB_VALIDATE_SIDE_CPU)) {
        struct sb_interp_pixel_results results = { .depth = cpu_depth, .discarded = discarded,
                                                   .coverage = coverage, .stencil_ref = cpu_stencil };
        struct sb_interp_options interp = o->interp;
        interp.sample_count = samples;
        if (triangles) {
            interp.input_ddx = &planes_x;
            interp.input_ddy = &planes_y;
        }
        uint64_t start = sb_validate_now_ns();
        r = sb_interp_run_pixels(ps, report->cpu->resources, own, count, positions, &cpu_in, &cpu_out, &results,
                                 &interp, &report->cpu_stats, error);
        report->cpu_ns = sb_validate_now_ns() - start;
    }
    if (r == SB_SUCCESS && per > 1)
        spread_to_samples(&cpu_out, discarded, coverage, count, samples);
    /* A sample keeps nothing of an invocation whose coverage output clears its bit (one sample: bit 0;
     * per-sample runs: record i is sample i % samples). */
    for (uint32_t i = 0; r == SB_SUCCESS && coverage && i < records; i++)
        if (!(coverage[i] >> (i % samples) & 1))
            discarded[i] = 1;
    if (r == SB_SUCCESS) {
        /* Interpreter targets: the registers of pixels that were not discarded (clear value 0 else). */
        for (uint32_t t = 0; t < target_count; t++) {
            uint8_t *bytes = report->cpu->resources[own + t].data;
            uint32_t texel = sb_rt_format_size(targets[t].format);
            /* A caller's format: the lanes as a render-target write converts them. */
            for (uint32_t i = 0; i < records; i++)
                if (!discarded[i] && formats[t])
                    sb_interp_texel_pack(targets[t].format,
                                         &cpu_out.words[((size_t)i * cpu_out.registers + targets[t].location) * 4],
                                         bytes + (size_t)i * texel);
                else if (!discarded[i])
                    memcpy(bytes + (size_t)i * 16,
                           &cpu_out.words[((size_t)i * cpu_out.registers + targets[t].location) * 4], 16);
            if (formats[t] && o->sides == (SB_VALIDATE_SIDE_GPU | SB_VALIDATE_SIDE_CPU))
                accept_srgb_allowance(formats[t], report->gpu->resources[own + t].data, bytes, cpu_out.words,
                                      cpu_out.registers, targets[t].location, count, discarded);
            /* The evidence is per output lane: it describes the default R32G32B32A32 targets only. */
            if (r == SB_SUCCESS && !formats[t])
                r = track_target(report, own + t, targets[t].location, cpu_out.registers, records, per, discarded,
                                 error);
        }
        if (writes_depth) {
            struct register_map depth_map = { .count = 1, .mask = { 1 }, .type = { SB_IR_TYPE_FLOAT } };
            if (!add_output(report->gpu, SB_VALIDATE_CLASS_DEPTH, 0, count, 1, &depth_map, 0) ||
                !add_output(report->cpu, SB_VALIDATE_CLASS_DEPTH, 0, count, 1, &depth_map, 0)) {
                r = sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
            } else {
                uint32_t *g = report->gpu->resources[report->gpu->count - 1].data;
                uint32_t *c = report->cpu->resources[report->cpu->count - 1].data;
                for (uint32_t i = 0; i < count; i++) {
                    /* Vulkan clamps the written depth to the viewport's [0, 1]. */
                    float d = discarded[i] ? 1.0f : cpu_depth[i] < 0.0f ? 0.0f : cpu_depth[i] > 1.0f ? 1.0f : cpu_depth[i];
                    if (d != d)
                        d = 0.0f;
                    memcpy(&c[i * 4], &d, 4);
                    memcpy(&g[i * 4], &gpu_depth[i], 4);
                }
            }
        }
        if (r == SB_SUCCESS && writes_stencil) {
            struct register_map stencil_map = { .count = 1, .mask = { 1 }, .type = { SB_IR_TYPE_UINT } };
            if (!add_output(report->gpu, SB_VALIDATE_CLASS_STENCIL, 0, count, 1, &stencil_map, 0) ||
                !add_output(report->cpu, SB_VALIDATE_CLASS_STENCIL, 0, count, 1, &stencil_map, 0)) {
                r = sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory");
            } else {
                uint32_t *g = report->gpu->resources[report->gpu->count - 1].data;
                uint32_t *c = report->cpu->resources[report->cpu->count - 1].data;
                for (uint32_t i = 0; i < count; i++) {
                    /* An 8-bit attachment keeps the reference's low 8 bits (D3D and Vulkan alike). */
                    c[i * 4] = discarded[i] ? 0 : cpu_stencil[i] & 0xFFu;
                    g[i * 4] = gpu_stencil[i];
                }
            }
        }
    }
    (void)position_register;
    free_streams(streams, stream_count);
    free(cpu_in.words);
    free(planes_x.words);
    free(planes_y.words);
    free(cpu_out.words);
    free(positions);
    free(gpu_depth);
    free(cpu_depth);
    free(gpu_stencil);
    free(cpu_stencil);
    free(discarded);
    free(coverage);
    sb_translation_destroy(feeder_t);
    return r;
}

/* Whether every word of the report's render targets (on `side`) is 0, the clear value. */
static bool targets_clear(const struct sb_rt_inputs *side)
{
    for (uint32_t i = 0; i < side->count; i++) {
        const struct sb_rt_resource *r = &side->resources[i];
        if (r->resource_class != SB_VALIDATE_CLASS_OUTPUT)
            continue;
        for (size_t w = 0; w < r->size / 4; w++)
            if (((const uint32_t *)r->data)[w])
                return false;
    }
    return true;
}

void sb_validate_pixel_explain(const struct sb_rt_program *program, struct sb_validate_report *report)
{
    uint32_t clip, cull;
    sb_rt_feeder_distance_lanes(program->ir, &clip, &cull);
    bool straddles = clip && clip < 4 && clip + cull > 4;
    if (report->verdict != SB_VALIDATE_DISAGREE || !straddles || !program->translation->input_count ||
        !targets_clear(report->gpu) || targets_clear(report->cpu))
        return;
    size_t used = strlen(report->reason);
    snprintf(report->reason + used, sizeof(report->reason) - used,
             "; the device drew no pixel: lavapipe 22.3 drops every primitive whose vertex stage writes "
             "ClipDistance[%u] and CullDistance[%u] beside other outputs (tests/validate/test_lavapipe_clip_cull)",
             clip, cull);
}
