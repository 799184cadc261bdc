/* SPDX-License-Identifier: MIT */
/*
 * Seeded inputs for every resource a program declares (validate.h): the
 * shapes come from the declarations, the values from a counter-based hash of
 * (seed, register, word), so a resource's contents do not depend on which
 * other resources exist or in which order they are declared.
 */
#include "validate_private.h"
#include "validate_pica.h"
#include "error.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "translator/ir.h"

/* SM4 resource return types (../shared/docs/sm4-tokens.md §8.4) and dimensions (§8.3). */
enum { RET_UNORM = 1, RET_SNORM = 2, RET_SINT = 3, RET_UINT = 4, RET_FLOAT = 5 };
enum {
    DIM_BUFFER = 1, DIM_1D = 2, DIM_2D = 3, DIM_2DMS = 4, DIM_3D = 5, DIM_CUBE = 6,
    DIM_1DARRAY = 7, DIM_2DARRAY = 8, DIM_2DMSARRAY = 9, DIM_CUBEARRAY = 10,
};
#define VK_COMPARE_OP_LESS_OR_EQUAL_VALUE 3u

static void fill(struct sb_rt_inputs *in, uint32_t i, uint64_t seed, uint32_t flags, bool typed_float)
{
    struct sb_rt_resource *r = &in->resources[i];
    uint32_t *words = r->data;
    uint64_t count = r->size / 4;
    uint64_t key = ((uint64_t)r->resource_class << 56) ^ ((uint64_t)r->space << 32) ^ r->register_index;
    uint64_t base = sb_rt_mix64(seed ^ sb_rt_mix64(key));
    for (uint64_t w = 0; w < count; w++) {
        uint8_t kind = sb_rt_word_kind_of(in, i, w);
        uint64_t random = sb_rt_mix64(base + w);
        if (kind == SB_RT_WORD_DOUBLE_LOW || kind == SB_RT_WORD_DOUBLE_HIGH) {
            uint64_t pair = sb_rt_mix64(base + (w & ~1ull));
            double d = (flags & SB_RT_INPUTS_SMALL) ? (double)(pair % 512 + 1) / 256.0
                                                    : (double)((int)(pair % 1025) - 512) / 256.0;
            uint64_t bits;
            memcpy(&bits, &d, 8);
            words[w] = kind == SB_RT_WORD_DOUBLE_LOW ? (uint32_t)bits : (uint32_t)(bits >> 32);
        } else {
            words[w] = sb_rt_seeded_word_as(flags, kind, random, typed_float);
        }
    }
}

static bool op_is_typed_atomic(uint32_t op)
{
    return (op >= SB_IR_OP_ATOMIC_AND && op <= SB_IR_OP_ATOMIC_UMIN) ||
           (op >= SB_IR_OP_IMM_ATOMIC_IADD && op <= SB_IR_OP_IMM_ATOMIC_UMIN);
}

/* Whether an instruction for which `op_test` holds has operand file#`id` among its
 * destinations (`in_dst`) or sources. */
static bool program_has_operand(const struct sb_ir_program *p, bool (*op_test)(uint32_t), bool in_dst,
                                uint32_t file, uint32_t id)
{
    for (uint32_t f = 0; f < p->function_count; f++) {
        const struct sb_ir_function *fn = &p->functions[f];
        for (uint32_t n = 0; n < fn->instruction_count; n++) {
            const struct sb_ir_instruction *inst = &fn->instructions[n];
            if (!op_test(inst->op))
                continue;
            const struct sb_ir_operand *ops = in_dst ? inst->dst : inst->src;
            uint32_t count = in_dst ? inst->dst_count : inst->src_count;
            for (uint32_t k = 0; k < count; k++)
                if (ops[k].file == file && ops[k].index_count && ops[k].index[0].offset == id)
                    return true;
        }
    }
    return false;
}

static bool op_is_typed_load(uint32_t op)
{
    return op == SB_IR_OP_LD_UAV_TYPED;
}

/* Typed UAVs that are loaded or used atomically get R32 views: the formats the translator
 * declares for them (D3D11's typed-UAV-load rule, Vulkan's image atomics). */
static bool uav_needs_r32(const struct sb_ir_program *p, uint32_t id)
{
    return program_has_operand(p, op_is_typed_atomic, true, SB_IR_FILE_UAV, id) ||
           program_has_operand(p, op_is_typed_load, false, SB_IR_FILE_UAV, id);
}

static bool op_compares(uint32_t op)
{
    return op == SB_IR_OP_SAMPLE_C || op == SB_IR_OP_SAMPLE_C_LZ || op == SB_IR_OP_GATHER4_C ||
           op == SB_IR_OP_GATHER4_PO_C || op == SB_IR_OP_SAMPLE_C_L || op == SB_IR_OP_SAMPLE_C_D ||
           op == SB_IR_OP_SAMPLE_C_B;
}

/* Whether t#`id` is read with a depth comparison: it then needs a depth format. */
static bool program_compares_texture(const struct sb_ir_program *p, uint32_t id)
{
    return program_has_operand(p, op_compares, false, SB_IR_FILE_RESOURCE, id);
}

static bool op_is_consume(uint32_t op)
{
    return op == SB_IR_OP_IMM_ATOMIC_CONSUME;
}

static uint32_t typed_format(uint32_t return_type, bool r32)
{
    switch (return_type) {
    case RET_UINT: return r32 ? SB_RT_FORMAT_R32_UINT : SB_RT_FORMAT_R32G32B32A32_UINT;
    case RET_SINT: return r32 ? SB_RT_FORMAT_R32_SINT : SB_RT_FORMAT_R32G32B32A32_SINT;
    default: return r32 ? SB_RT_FORMAT_R32_FLOAT : SB_RT_FORMAT_R32G32B32A32_FLOAT;
    }
}

static uint8_t format_kind(uint32_t format)
{
    switch (format) {
    case SB_RT_FORMAT_R32_UINT: case SB_RT_FORMAT_R32G32_UINT: case SB_RT_FORMAT_R32G32B32A32_UINT:
        return SB_RT_WORD_UINT;
    case SB_RT_FORMAT_R32_SINT: case SB_RT_FORMAT_R32G32_SINT: case SB_RT_FORMAT_R32G32B32A32_SINT:
        return SB_RT_WORD_INT;
    default:
        return SB_RT_WORD_FLOAT;
    }
}

static void texture_shape(struct sb_rt_resource *r, uint32_t dimension,
                          const struct sb_rt_input_options *o, uint32_t samples)
{
    r->width = r->height = o->texture_size;
    r->depth = 1;
    r->layers = 1;
    r->mip_levels = 1;
    r->sample_count = 1;
    switch (dimension) {
    case DIM_1D: r->height = 1; break;
    case DIM_1DARRAY: r->height = 1; r->layers = o->texture_layers; break;
    case DIM_2DARRAY: r->layers = o->texture_layers; break;
    case DIM_2DMS: r->sample_count = samples ? samples : 4; break;
    case DIM_2DMSARRAY: r->sample_count = samples ? samples : 4; r->layers = o->texture_layers; break;
    case DIM_3D: r->depth = o->texture_depth; break;
    case DIM_CUBE: r->layers = 6; break;
    case DIM_CUBEARRAY: r->layers = 12; break;
    default: break;
    }
}

static bool program_has_unfilterable_texture(const struct sb_rt_program *program)
{
    const struct sb_ir_program *ir = program->ir;
    for (uint32_t i = 0; i < ir->resource_count; i++) {
        const struct sb_ir_resource *d = &ir->resources[i];
        if (d->resource_class != SB_IR_RESOURCE_SRV || d->kind != SB_IR_RESOURCE_KIND_TYPED ||
            d->dimension == DIM_BUFFER)
            continue;
        if (d->return_type[0] == RET_UINT || d->return_type[0] == RET_SINT ||
            program_compares_texture(ir, d->id))
            return true;
    }
    return false;
}

/* Shapes resource `r` after declaration `d` (register `reg`); false when out of memory. */
static bool make_resource(struct sb_rt_inputs *in, uint32_t i, const struct sb_rt_program *program,
                          const struct sb_ir_resource *d, uint32_t reg,
                          const struct sb_rt_input_options *o)
{
    struct sb_rt_resource *r = &in->resources[i];
    r->resource_class = d->resource_class;
    r->space = d->space;
    r->register_index = reg;
    in->uniform_kind[i] = SB_RT_WORD_FLOAT;
    bool typed_float = false;
    if (d->resource_class == SB_IR_RESOURCE_SAMPLER) {
        /* Linear filtering needs a filterable format: integer and depth textures are not
         * (Vulkan), so a program that samples any of them gets nearest samplers. */
        uint32_t filter = program_has_unfilterable_texture(program) ? SB_RT_FILTER_NEAREST : SB_RT_FILTER_LINEAR;
        r->sampler = (struct sb_rt_sampler){
            .mag_filter = filter, .min_filter = filter,
            .mip_filter = SB_RT_FILTER_NEAREST, .max_lod = 1000.0f,
            .compare = d->sampler_mode == 1, .compare_op = VK_COMPARE_OP_LESS_OR_EQUAL_VALUE,
        };
        return true;
    }
    if (d->resource_class == SB_IR_RESOURCE_CBV) {
        r->size = (size_t)(d->cb_size ? d->cb_size : 1) * 16;
    } else if (d->kind == SB_IR_RESOURCE_KIND_RAW) {
        r->size = o->buffer_bytes;
        in->uniform_kind[i] = SB_RT_WORD_UINT;
    } else if (d->kind == SB_IR_RESOURCE_KIND_STRUCTURED) {
        uint32_t stride = d->stride && d->stride % 4 == 0 ? d->stride : 4;
        r->size = (size_t)(o->buffer_bytes / stride ? o->buffer_bytes / stride : 1) * stride;
    } else {
        bool uav = d->resource_class == SB_IR_RESOURCE_UAV;
        bool r32 = uav && uav_needs_r32(program->ir, d->id);
        r->format = typed_format(d->return_type[0], r32);
        if (d->resource_class == SB_IR_RESOURCE_SRV && d->dimension != DIM_BUFFER &&
            program_compares_texture(program->ir, d->id))
            r->format = SB_RT_FORMAT_D32_FLOAT; /* depth in [0, 1], as the typed-float values are */
        r->dimension = d->dimension;
        uint32_t texel = sb_rt_format_size(r->format);
        if (d->dimension == DIM_BUFFER) {
            r->width = o->buffer_bytes / texel;
            r->height = r->depth = r->layers = r->mip_levels = r->sample_count = 1;
            r->size = (size_t)r->width * texel;
        } else {
            texture_shape(r, d->dimension, o, d->sample_count);
            r->size = sb_rt_texture_bytes(r);
        }
        in->uniform_kind[i] = format_kind(r->format);
        typed_float = in->uniform_kind[i] == SB_RT_WORD_FLOAT && d->dimension != DIM_BUFFER;
    }
    if (d->resource_class == SB_IR_RESOURCE_UAV && d->has_counter)
        r->counter = program_has_operand(program->ir, op_is_consume, true, SB_IR_FILE_UAV, d->id)
                         ? (uint32_t)(r->size / (d->stride ? d->stride : 4) / 2) : 0;
    r->data = calloc(r->size ? r->size : 4, 1);
    if (!r->data)
        return false;
    if (d->resource_class == SB_IR_RESOURCE_CBV || d->kind == SB_IR_RESOURCE_KIND_STRUCTURED) {
        uint32_t words = (uint32_t)(r->size / 4);
        uint8_t *kinds = malloc(words ? words : 1);
        if (!kinds)
            return false;
        memset(kinds, SB_RT_WORD_FLOAT, words);
        if (sb_rt_kinds_from_rdef(program->container, d, kinds, words)) {
            in->word_kinds[i] = kinds;
        } else if (d->resource_class == SB_IR_RESOURCE_CBV) {
            sb_rt_kinds_from_usage(program->ir, d, kinds, words);
            in->word_kinds[i] = kinds;
        } else {
            free(kinds);
        }
    }
    fill(in, i, o->seed, o->flags, typed_float);
    if (sb_rt_pica_is_uniform_buffer(program, d))
        sb_rt_pica_fill_uniforms(program, in, i, o->seed); /* inputs_pica.c: its own layout */
    return true;
}

static uint32_t registers_of(const struct sb_ir_resource *d, const struct sb_rt_input_options *o)
{
    if (d->count == 0xFFFFFFFFu)
        return o->unbounded_descriptors;
    return d->count ? d->count : 1;
}

/* The shapes of one declaration's resources: an unbounded range given more than
 * SB_RT_UNBOUNDED_DESCRIPTORS descriptors gets smaller ones (validate.h), so thousands of
 * them (one per thread of a bindless shader) stay within what a few full ones take. */
static struct sb_rt_input_options shapes_of(const struct sb_ir_resource *d, const struct sb_rt_input_options *o)
{
    struct sb_rt_input_options shaped = *o;
    uint32_t scale = o->unbounded_descriptors / SB_RT_UNBOUNDED_DESCRIPTORS;
    if (d->count != 0xFFFFFFFFu || scale <= 1)
        return shaped;
    shaped.buffer_bytes = (o->buffer_bytes / scale) & ~15u;
    if (shaped.buffer_bytes < 256)
        shaped.buffer_bytes = o->buffer_bytes < 256 ? o->buffer_bytes : 256;
    shaped.texture_size = o->texture_size / scale;
    if (shaped.texture_size < 4)
        shaped.texture_size = o->texture_size < 4 ? o->texture_size : 4;
    return shaped;
}

static struct sb_rt_inputs *inputs_alloc(uint32_t count)
{
    struct sb_rt_inputs *in = calloc(1, sizeof(*in));
    if (!in)
        return NULL;
    in->count = count;
    in->resources = calloc(count ? count : 1, sizeof(*in->resources));
    in->word_kinds = calloc(count ? count : 1, sizeof(*in->word_kinds));
    in->uniform_kind = calloc(count ? count : 1, 1);
    if (!in->resources || !in->word_kinds || !in->uniform_kind) {
        sb_rt_inputs_destroy(in);
        return NULL;
    }
    return in;
}

enum sb_result sb_rt_inputs_create(const struct sb_rt_program *program,
                                   const struct sb_rt_input_options *options,
                                   struct sb_rt_inputs **out, struct sb_error *error)
{
    if (out)
        *out = NULL;
    if (!program || !out)
        return sb_validate_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_rt_inputs_create: program and out are required");
    struct sb_rt_input_options o = { 0 };
    if (options)
        o = *options;
    if (!o.buffer_bytes)
        o.buffer_bytes = 65536;
    o.buffer_bytes &= ~15u;
    if (!o.buffer_bytes)
        o.buffer_bytes = 16;
    if (!o.texture_size)
        o.texture_size = 16;
    if (!o.texture_layers)
        o.texture_layers = 4;
    if (!o.texture_depth)
        o.texture_depth = 8;
    if (!o.unbounded_descriptors)
        o.unbounded_descriptors = SB_RT_UNBOUNDED_DESCRIPTORS;

    const struct sb_ir_program *ir = program->ir;
    uint64_t total = 0;
    for (uint32_t d = 0; d < ir->resource_count; d++)
        total += registers_of(&ir->resources[d], &o);
    if (total > 4096)
        return sb_validate_fail(error, SB_ERROR_RUN_UNSUPPORTED, "the program declares more than 4096 resources");
    struct sb_rt_inputs *in = inputs_alloc((uint32_t)total);
    if (!in)
        return sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory creating inputs");
    uint32_t i = 0;
    for (uint32_t d = 0; d < ir->resource_count; d++) {
        const struct sb_ir_resource *decl = &ir->resources[d];
        struct sb_rt_input_options shaped = shapes_of(decl, &o);
        for (uint32_t k = 0; k < registers_of(decl, &o); k++, i++) {
            if (!make_resource(in, i, program, decl, decl->lower_bound + k, &shaped)) {
                sb_rt_inputs_destroy(in);
                return sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory creating inputs");
            }
        }
    }
    *out = in;
    return SB_SUCCESS;
}

enum sb_result sb_rt_inputs_clone(const struct sb_rt_inputs *inputs, struct sb_rt_inputs **out,
                                  struct sb_error *error)
{
    if (out)
        *out = NULL;
    if (!inputs || !out)
        return sb_validate_fail(error, SB_ERROR_INVALID_ARGUMENT, "sb_rt_inputs_clone: inputs and out are required");
    struct sb_rt_inputs *copy = inputs_alloc(inputs->count);
    if (!copy)
        return sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory copying inputs");
    memcpy(copy->uniform_kind, inputs->uniform_kind, inputs->count);
    for (uint32_t i = 0; i < inputs->count; i++) {
        copy->resources[i] = inputs->resources[i];
        copy->resources[i].data = NULL;
        const struct sb_rt_resource *r = &inputs->resources[i];
        if (r->data) {
            copy->resources[i].data = malloc(r->size ? r->size : 4);
            if (!copy->resources[i].data) {
                sb_rt_inputs_destroy(copy);
                return sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory copying inputs");
            }
            memcpy(copy->resources[i].data, r->data, r->size);
        }
        if (inputs->word_kinds[i]) {
            copy->word_kinds[i] = malloc(r->size / 4 ? r->size / 4 : 1);
            if (!copy->word_kinds[i]) {
                sb_rt_inputs_destroy(copy);
                return sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory copying inputs");
            }
            memcpy(copy->word_kinds[i], inputs->word_kinds[i], r->size / 4);
        }
    }
    *out = copy;
    return SB_SUCCESS;
}

bool sb_rt_inputs_append(struct sb_rt_inputs *in, uint32_t extra)
{
    uint32_t count = in->count + extra;
    struct sb_rt_resource *resources = realloc(in->resources, (size_t)count * sizeof(*resources));
    if (resources)
        in->resources = resources;
    uint8_t **kinds = resources ? realloc(in->word_kinds, (size_t)count * sizeof(*kinds)) : NULL;
    if (kinds)
        in->word_kinds = kinds;
    uint8_t *uniform = kinds ? realloc(in->uniform_kind, count) : NULL;
    if (!uniform)
        return false;
    in->uniform_kind = uniform;
    for (uint32_t i = in->count; i < count; i++) {
        memset(&in->resources[i], 0, sizeof(in->resources[i]));
        in->word_kinds[i] = NULL;
        in->uniform_kind[i] = SB_RT_WORD_UINT;
    }
    in->count = count;
    return true;
}

void sb_rt_inputs_destroy(struct sb_rt_inputs *inputs)
{
    if (!inputs)
        return;
    for (uint32_t i = 0; i < inputs->count; i++) {
        if (inputs->resources)
            free(inputs->resources[i].data);
        if (inputs->word_kinds)
            free(inputs->word_kinds[i]);
    }
    free(inputs->resources);
    free(inputs->word_kinds);
    free(inputs->uniform_kind);
    free(inputs);
}

/* The index of `in`'s resource for register (class, space, index), or -1. */
static int64_t find_register(const struct sb_rt_inputs *in, const struct sb_rt_resource *want)
{
    for (uint32_t i = 0; i < in->count; i++) {
        const struct sb_rt_resource *r = &in->resources[i];
        if (r->resource_class == want->resource_class && r->space == want->space &&
            r->register_index == want->register_index)
            return i;
    }
    return -1;
}

/* The bytes resource `r` keeps for `given` provided bytes, or 0 when its declaration takes no
 * such size (validate.h, sb_validate_options::provided). */
static size_t provided_size(const struct sb_rt_resource *r, size_t given)
{
    if (r->resource_class == SB_IR_RESOURCE_CBV)
        return given && given <= r->size ? r->size : 0; /* the binding keeps its declared range */
    if (r->dimension && r->dimension != 1) /* a texture: its texels and nothing else */
        return given == sb_rt_texture_bytes(r) ? given : 0;
    if (given > SIZE_MAX - 3)
        return 0;
    return given ? (given + 3) & ~(size_t)3 : 4;
}

/* How a shader reads `format`'s texels: as floats (unorm, snorm, float, BC, depth), or as
 * unsigned or signed integers, so a provided texture can be matched to its declaration's
 * return type. */
uint8_t sb_rt_format_read_kind(uint32_t format)
{
    switch (format) {
    case SB_RT_FORMAT_R32_UINT: case SB_RT_FORMAT_R32G32_UINT: case SB_RT_FORMAT_R32G32B32A32_UINT:
    case SB_RT_FORMAT_R10G10B10A2_UINT: case SB_RT_FORMAT_R8_UINT: case SB_RT_FORMAT_R8G8_UINT:
    case SB_RT_FORMAT_R8G8B8A8_UINT: case SB_RT_FORMAT_R16_UINT: case SB_RT_FORMAT_R16G16_UINT:
    case SB_RT_FORMAT_R16G16B16A16_UINT: case SB_RT_FORMAT_X24_TYPELESS_G8_UINT:
        return SB_RT_WORD_UINT;
    case SB_RT_FORMAT_R32_SINT: case SB_RT_FORMAT_R32G32_SINT: case SB_RT_FORMAT_R32G32B32A32_SINT:
    case SB_RT_FORMAT_R8_SINT: case SB_RT_FORMAT_R8G8_SINT: case SB_RT_FORMAT_R8G8B8A8_SINT:
    case SB_RT_FORMAT_R16_SINT: case SB_RT_FORMAT_R16G16_SINT: case SB_RT_FORMAT_R16G16B16A16_SINT:
        return SB_RT_WORD_INT;
    default:
        return SB_RT_WORD_FLOAT;
    }
}

static const char *dimension_name(uint32_t dimension)
{
    static const char *const names[] = {
        "untyped", "Buffer", "Texture1D", "Texture2D", "Texture2DMS", "Texture3D", "TextureCube",
        "Texture1DArray", "Texture2DArray", "Texture2DMSArray", "TextureCubeArray",
    };
    return dimension < sizeof(names) / sizeof(names[0]) ? names[dimension] : "unknown";
}

/* Whether texture data of dimension `given` with `layers` layers fits a declaration of
 * `declared`: the same dimension, or one layer (cube: one cube) of the arrayed form, since an
 * array of one is still an array. Multisampled textures take no shaped data (a file format
 * with samples does not exist here). */
static bool shape_fits(uint32_t declared, uint32_t given, uint32_t layers)
{
    if (declared == given)
        return declared != DIM_2DMS && declared != DIM_2DMSARRAY;
    return (declared == DIM_1DARRAY && given == DIM_1D) || (declared == DIM_2DARRAY && given == DIM_2D) ||
           (declared == DIM_CUBEARRAY && given == DIM_CUBE && layers == 6);
}

/* Checks a provided entry that carries its own shape (format != UNDEFINED) against the
 * declared texture `r`: its dimension, its return type and its byte count. */
static enum sb_result check_shaped(const struct sb_rt_resource *p, const struct sb_rt_resource *r, uint32_t k,
                                   const char *prefix, struct sb_error *error)
{
    if (!r->dimension || r->dimension == DIM_BUFFER)
        return sb_error_set(error, SB_ERROR_RUN_BINDING, k, SB_ERROR_NO_INSTR,
                            "provided input %u: %s%u (space %u) is a buffer, which takes no texture shape", k,
                            prefix, p->register_index, p->space);
    if (!shape_fits(r->dimension, p->dimension, p->layers))
        return sb_error_set(error, SB_ERROR_RUN_BINDING, k, SB_ERROR_NO_INSTR,
                            "provided input %u: %s%u (space %u) is declared %s, the data is a %s (%ux%ux%u, %u layers)",
                            k, prefix, p->register_index, p->space, dimension_name(r->dimension),
                            dimension_name(p->dimension), p->width, p->height, p->depth, p->layers);
    if (!sb_rt_format_size(p->format) || !p->width || !p->height || !p->depth || !p->layers || !p->mip_levels)
        return sb_error_set(error, SB_ERROR_BAD_SIZE, k, SB_ERROR_NO_INSTR,
                            "provided input %u: %s%u (space %u) has format %u or a zero extent", k, prefix,
                            p->register_index, p->space, (unsigned)p->format);
    static const char *const kinds[] = { "?", "float", "int", "uint" };
    uint8_t want = sb_rt_format_read_kind(r->format), have = sb_rt_format_read_kind(p->format);
    if (want != have)
        return sb_error_set(error, SB_ERROR_RUN_BINDING, k, SB_ERROR_NO_INSTR,
                            "provided input %u: %s%u (space %u) returns %s, format %s reads as %s", k, prefix,
                            p->register_index, p->space, kinds[want], sb_rt_format_name(p->format), kinds[have]);
    if (r->format == SB_RT_FORMAT_D32_FLOAT && p->format != SB_RT_FORMAT_D32_FLOAT)
        return sb_error_set(error, SB_ERROR_RUN_BINDING, k, SB_ERROR_NO_INSTR,
                            "provided input %u: %s%u (space %u) is read with a comparison, which needs d32_float, "
                            "not %s", k, prefix, p->register_index, p->space, sb_rt_format_name(p->format));
    if (p->size != sb_rt_texture_bytes(p) || !p->size || !p->data)
        return sb_error_set(error, SB_ERROR_BAD_SIZE, k, SB_ERROR_NO_INSTR,
                            "provided input %u: %s%u (space %u) of its shape takes exactly %zu bytes, %zu given", k,
                            prefix, p->register_index, p->space, sb_rt_texture_bytes(p), p->size);
    return SB_SUCCESS;
}

/* Whether `in` holds a texture Vulkan cannot filter linearly or give a float border colour:
 * an integer one, or a depth one (textures read with a comparison) — the rule by which
 * make_resource seeds nearest samplers. */
static bool has_unfilterable_texture(const struct sb_rt_inputs *in)
{
    for (uint32_t i = 0; i < in->count; i++) {
        const struct sb_rt_resource *r = &in->resources[i];
        if (r->resource_class == SB_IR_RESOURCE_SRV && r->dimension > DIM_BUFFER &&
            (sb_rt_format_read_kind(r->format) != SB_RT_WORD_FLOAT || r->format == SB_RT_FORMAT_D32_FLOAT))
            return true;
    }
    return false;
}

/* Checks a provided sampler state (validate.h: samplers carry `sampler`, no bytes). */
static enum sb_result check_sampler(const struct sb_rt_inputs *in, const struct sb_rt_resource *p, uint32_t k,
                                    struct sb_error *error)
{
    const struct sb_rt_sampler *s = &p->sampler;
    if (p->data || p->size)
        return sb_error_set(error, SB_ERROR_BAD_SIZE, k, SB_ERROR_NO_INSTR,
                            "provided input %u: s%u (space %u) is a sampler: it takes a sampler state, not %zu bytes",
                            k, p->register_index, p->space, p->size);
    bool in_range = s->mag_filter <= SB_RT_FILTER_LINEAR && s->min_filter <= SB_RT_FILTER_LINEAR &&
                    s->mip_filter <= SB_RT_FILTER_LINEAR && s->compare_op <= 7 /* VK_COMPARE_OP_ALWAYS */ &&
                    s->max_anisotropy == s->max_anisotropy && s->max_anisotropy <= 16.0f &&
                    !(s->min_lod > s->max_lod);
    for (uint32_t a = 0; a < 3; a++)
        in_range = in_range && s->address[a] <= SB_RT_ADDRESS_MIRROR_ONCE;
    if (!in_range)
        return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, k, SB_ERROR_NO_INSTR,
                            "provided input %u: s%u (space %u) has a filter, address mode, comparison, anisotropy "
                            "or LOD range out of range", k, p->register_index, p->space);
    bool linear = s->mag_filter == SB_RT_FILTER_LINEAR || s->min_filter == SB_RT_FILTER_LINEAR ||
                  s->mip_filter == SB_RT_FILTER_LINEAR || s->max_anisotropy > 1.0f;
    bool border = s->border_color[0] != 0.0f || s->border_color[1] != 0.0f || s->border_color[2] != 0.0f ||
                  s->border_color[3] != 0.0f;
    if ((linear || border) && has_unfilterable_texture(in))
        return sb_error_set(error, SB_ERROR_RUN_BINDING, k, SB_ERROR_NO_INSTR,
                            "provided input %u: s%u (space %u) %s, but the program reads an integer or depth "
                            "texture, which Vulkan filters only with nearest samplers and transparent black "
                            "borders", k, p->register_index, p->space,
                            linear ? "filters linearly or anisotropically" : "has a border colour");
    return SB_SUCCESS;
}

/* Whether entry `p` carries its own format and shape (validate.h). */
static bool is_shaped(const struct sb_rt_resource *p)
{
    return p->format != SB_RT_FORMAT_UNDEFINED;
}

/* Whether entry `p` replaces a resource's bytes (not a sampler state or a vertex stream). */
static bool carries_bytes(const struct sb_rt_resource *p)
{
    return p->resource_class != SB_IR_RESOURCE_SAMPLER && p->resource_class != SB_VALIDATE_CLASS_VERTEX_INPUT;
}

enum sb_result sb_rt_inputs_provide(struct sb_rt_inputs *in, const struct sb_rt_resource *provided, uint32_t count,
                                    struct sb_error *error)
{
    static const char *const prefixes[] = { "cb", "t", "s", "u" };
    /* Every entry checked before anything changes, so a refused one leaves the seeded set. */
    for (uint32_t k = 0; k < count; k++) {
        const struct sb_rt_resource *p = &provided[k];
        const char *prefix = (uint32_t)p->resource_class < 4 ? prefixes[p->resource_class] : "?";
        if (p->resource_class == SB_VALIDATE_CLASS_VERTEX_INPUT)
            continue; /* a vertex stream: sb_validate's vertex harness checks and draws it */
        int64_t at = find_register(in, p);
        if (at < 0)
            return sb_error_set(error, SB_ERROR_RUN_BINDING, k, SB_ERROR_NO_INSTR,
                                "provided input %u: %s%u (space %u) is not a register the program declares", k,
                                prefix, p->register_index, p->space);
        for (uint32_t j = 0; j < k; j++)
            if (find_register(in, &provided[j]) == at)
                return sb_error_set(error, SB_ERROR_RUN_BINDING, k, SB_ERROR_NO_INSTR,
                                    "provided inputs %u and %u both give %s%u (space %u)", j, k, prefix,
                                    p->register_index, p->space);
        const struct sb_rt_resource *r = &in->resources[at];
        if (p->resource_class == SB_IR_RESOURCE_SAMPLER) {
            enum sb_result sampler = check_sampler(in, p, k, error);
            if (sampler != SB_SUCCESS)
                return sampler;
            continue;
        }
        if (is_shaped(p)) {
            enum sb_result shaped = check_shaped(p, r, k, prefix, error);
            if (shaped != SB_SUCCESS)
                return shaped;
            continue;
        }
        if ((p->size && !p->data) || !provided_size(r, p->size)) {
            char wants[96];
            if (p->resource_class == SB_IR_RESOURCE_CBV)
                snprintf(wants, sizeof(wants), "1 to %zu bytes (its declared size)", r->size);
            else if (r->dimension && r->dimension != 1)
                snprintf(wants, sizeof(wants), "exactly %zu bytes (its texels)", sb_rt_texture_bytes(r));
            else
                snprintf(wants, sizeof(wants), "bytes (data given with no size)");
            return sb_error_set(error, SB_ERROR_BAD_SIZE, k, SB_ERROR_NO_INSTR,
                                "provided input %u: %s%u (space %u) takes %s, %zu given", k, prefix,
                                p->register_index, p->space, wants, p->size);
        }
    }
    void **copies = calloc(count ? count : 1, sizeof(*copies));
    if (!copies)
        return sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory providing inputs");
    for (uint32_t k = 0; k < count; k++) {
        if (!carries_bytes(&provided[k]))
            continue;
        size_t size = is_shaped(&provided[k]) ? provided[k].size
                                               : provided_size(&in->resources[find_register(in, &provided[k])],
                                                               provided[k].size);
        copies[k] = calloc(size, 1);
        if (!copies[k]) {
            for (uint32_t j = 0; j < k; j++)
                free(copies[j]);
            free(copies);
            return sb_validate_fail(error, SB_ERROR_OUT_OF_MEMORY, "out of memory providing inputs");
        }
        if (provided[k].size)
            memcpy(copies[k], provided[k].data, provided[k].size);
    }
    for (uint32_t k = 0; k < count; k++) {
        if (provided[k].resource_class == SB_VALIDATE_CLASS_VERTEX_INPUT)
            continue;
        int64_t at = find_register(in, &provided[k]);
        struct sb_rt_resource *r = &in->resources[at];
        if (r->resource_class == SB_IR_RESOURCE_SAMPLER) {
            /* The state, but the declaration's mode: D3D applies the comparison function only
             * to samplers declared for comparison (dcl_sampler ..., mode_comparison). */
            bool compare = r->sampler.compare;
            r->sampler = provided[k].sampler;
            r->sampler.compare = compare;
            continue;
        }
        size_t size = is_shaped(&provided[k]) ? provided[k].size : provided_size(r, provided[k].size);
        if (is_shaped(&provided[k])) { /* the data's own shape replaces the seeded one */
            r->format = provided[k].format;
            r->width = provided[k].width;
            r->height = provided[k].height;
            r->depth = provided[k].depth;
            r->layers = provided[k].layers;
            r->mip_levels = provided[k].mip_levels;
            r->sample_count = 1;
            free(in->word_kinds[at]);
            in->word_kinds[at] = NULL;
        } else if (size != r->size) { /* the seeded layout's kinds no longer cover the data */
            free(in->word_kinds[at]);
            in->word_kinds[at] = NULL;
        }
        free(r->data);
        r->data = copies[k];
        r->size = size;
        if (r->dimension == 1 && sb_rt_format_size(r->format))
            r->width = (uint32_t)(size / sb_rt_format_size(r->format));
    }
    free(copies);
    return SB_SUCCESS;
}
