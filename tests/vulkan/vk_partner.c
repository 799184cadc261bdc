/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V writer for the minimal partner stages of vk_partner.h. Writing the
 * words directly keeps the corpus pipeline test fast (about 1,600 shaders,
 * many with distinct interfaces: a glslangValidator process per interface
 * would cost more than the pipelines) and free of temporary files.
 *
 * The module is assembled in the section order the SPIR-V specification
 * fixes (capabilities, imports, memory model, entry point, execution modes,
 * decorations, types/constants/globals, function), each section its own
 * word stream, concatenated at the end. Types and constants are made once
 * through a small lookup table keyed by their instruction words, because
 * SPIR-V forbids two identical non-aggregate type declarations.
 */
#include "vk_partner.h"

#include <spirv/unified1/spirv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum section { S_CAPS, S_MODEL, S_ENTRY, S_MODES, S_DECOR, S_GLOBAL, S_CODE, S_COUNT };

struct words {
    uint32_t *w;
    size_t n, cap;
};

#define MAX_CACHED 256

struct writer {
    struct words s[S_COUNT];
    uint32_t next_id;
    bool failed;
    /* type/constant cache: opcode + up to 6 operand words -> id */
    struct {
        uint32_t key[8];
        uint32_t id;
    } cache[MAX_CACHED];
    uint32_t cached;
    uint32_t interface_ids[80];
    uint32_t interface_count;
};

static void put(struct writer *w, enum section sec, uint32_t word)
{
    struct words *s = &w->s[sec];
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        uint32_t *grown = realloc(s->w, cap * sizeof(*grown));
        if (!grown) {
            w->failed = true;
            return;
        }
        s->w = grown;
        s->cap = cap;
    }
    s->w[s->n++] = word;
}

static void inst(struct writer *w, enum section sec, SpvOp op, const uint32_t *ops, uint32_t n)
{
    put(w, sec, ((n + 1) << 16) | (uint32_t)op);
    for (uint32_t i = 0; i < n; i++)
        put(w, sec, ops[i]);
}

/* A type or constant: `ops` excludes the result id, which goes at `id_slot`
 * (0 for types, 1 for constants whose first operand is the result type). */
static uint32_t cached(struct writer *w, SpvOp op, const uint32_t *ops, uint32_t n,
                       uint32_t id_slot)
{
    uint32_t key[8] = { (uint32_t)op };
    for (uint32_t i = 0; i < n && i < 7; i++)
        key[i + 1] = ops[i];
    for (uint32_t i = 0; i < w->cached; i++)
        if (memcmp(w->cache[i].key, key, sizeof(key)) == 0)
            return w->cache[i].id;
    uint32_t id = w->next_id++;
    uint32_t full[8];
    for (uint32_t i = 0, j = 0; i <= n; i++)
        full[i] = i == id_slot ? id : ops[j++];
    inst(w, S_GLOBAL, op, full, n + 1);
    if (w->cached < MAX_CACHED) {
        memcpy(w->cache[w->cached].key, key, sizeof(key));
        w->cache[w->cached++].id = id;
    } else {
        w->failed = true;
    }
    return id;
}

static uint32_t t_void(struct writer *w) { return cached(w, SpvOpTypeVoid, NULL, 0, 0); }

static uint32_t t_scalar(struct writer *w, uint32_t type)
{
    if (type == VKP_FLOAT)
        return cached(w, SpvOpTypeFloat, (uint32_t[]){ 32 }, 1, 0);
    return cached(w, SpvOpTypeInt, (uint32_t[]){ 32, type == VKP_INT ? 1u : 0u }, 2, 0);
}

static uint32_t t_vec(struct writer *w, uint32_t type, uint32_t count)
{
    uint32_t scalar = t_scalar(w, type);
    return count <= 1 ? scalar : cached(w, SpvOpTypeVector, (uint32_t[]){ scalar, count }, 2, 0);
}

static uint32_t c_uint(struct writer *w, uint32_t value)
{
    return cached(w, SpvOpConstant, (uint32_t[]){ t_scalar(w, VKP_UINT), value }, 2, 1);
}

static uint32_t t_array(struct writer *w, uint32_t elem, uint32_t length)
{
    return cached(w, SpvOpTypeArray, (uint32_t[]){ elem, c_uint(w, length) }, 2, 0);
}

static uint32_t t_ptr(struct writer *w, SpvStorageClass sc, uint32_t type)
{
    return cached(w, SpvOpTypePointer, (uint32_t[]){ (uint32_t)sc, type }, 2, 0);
}

static uint32_t c_null(struct writer *w, uint32_t type)
{
    return cached(w, SpvOpConstantNull, (uint32_t[]){ type }, 1, 1);
}

static uint32_t c_float(struct writer *w, float value)
{
    uint32_t bits;
    memcpy(&bits, &value, 4);
    return cached(w, SpvOpConstant, (uint32_t[]){ t_scalar(w, VKP_FLOAT), bits }, 2, 1);
}

static uint32_t variable(struct writer *w, SpvStorageClass sc, uint32_t type)
{
    uint32_t id = w->next_id++;
    inst(w, S_GLOBAL, SpvOpVariable, (uint32_t[]){ t_ptr(w, sc, type), id, (uint32_t)sc }, 3);
    if (w->interface_count < sizeof(w->interface_ids) / sizeof(w->interface_ids[0]))
        w->interface_ids[w->interface_count++] = id;
    else
        w->failed = true;
    return id;
}

static void decorate(struct writer *w, uint32_t id, SpvDecoration d, int64_t operand)
{
    if (operand < 0)
        inst(w, S_DECOR, SpvOpDecorate, (uint32_t[]){ id, (uint32_t)d }, 2);
    else
        inst(w, S_DECOR, SpvOpDecorate, (uint32_t[]){ id, (uint32_t)d, (uint32_t)operand }, 3);
}

static uint32_t builtin(struct writer *w, SpvStorageClass sc, uint32_t type, SpvBuiltIn b)
{
    uint32_t id = variable(w, sc, type);
    decorate(w, id, SpvDecorationBuiltIn, b);
    return id;
}

/* Declares one interface variable and returns it; `array` wraps its type. */
static uint32_t interface_var(struct writer *w, SpvStorageClass sc, const struct vkp_var *v,
                              uint32_t array, bool flat, uint32_t *type_out)
{
    uint32_t type = t_vec(w, v->type, v->count ? v->count : 4);
    if (array)
        type = t_array(w, type, array);
    uint32_t id = variable(w, sc, type);
    decorate(w, id, SpvDecorationLocation, v->location);
    if (v->component)
        decorate(w, id, SpvDecorationComponent, v->component);
    if (v->patch)
        decorate(w, id, SpvDecorationPatch, -1);
    if (flat && v->type != VKP_FLOAT)
        decorate(w, id, SpvDecorationFlat, -1);
    if (type_out)
        *type_out = type;
    return id;
}

static void store(struct writer *w, uint32_t pointer, uint32_t value)
{
    inst(w, S_CODE, SpvOpStore, (uint32_t[]){ pointer, value }, 2);
}

/* Stores zero to each output; TCS per-vertex outputs at [InvocationId] only. */
static void write_outputs(struct writer *w, const struct vkp_stage_desc *d, uint32_t invocation)
{
    for (uint32_t i = 0; i < d->output_count; i++) {
        const struct vkp_var *v = &d->outputs[i];
        bool per_vertex = d->stage == VKP_TESS_CONTROL && !v->patch;
        uint32_t type = 0;
        uint32_t array = per_vertex ? d->output_vertices : 0;
        uint32_t id = interface_var(w, SpvStorageClassOutput, v, array, false, &type);
        if (!per_vertex) {
            store(w, id, c_null(w, type));
            continue;
        }
        uint32_t elem = t_vec(w, v->type, v->count ? v->count : 4);
        uint32_t chain = w->next_id++;
        inst(w, S_CODE, SpvOpAccessChain,
             (uint32_t[]){ t_ptr(w, SpvStorageClassOutput, elem), chain, id, invocation }, 4);
        store(w, chain, c_null(w, elem));
    }
}

static void stage_body(struct writer *w, const struct vkp_stage_desc *d)
{
    uint32_t vec4 = t_vec(w, VKP_FLOAT, 4);
    uint32_t invocation = 0;
    if (d->stage == VKP_TESS_CONTROL) {
        uint32_t int_t = t_scalar(w, VKP_INT);
        uint32_t var = builtin(w, SpvStorageClassInput, int_t, SpvBuiltInInvocationId);
        invocation = w->next_id++;
        inst(w, S_CODE, SpvOpLoad, (uint32_t[]){ int_t, invocation, var }, 3);
        uint32_t f = t_scalar(w, VKP_FLOAT);
        uint32_t one = c_float(w, 1.0f);
        uint32_t outer_t = t_array(w, f, 4), inner_t = t_array(w, f, 2);
        uint32_t outer = builtin(w, SpvStorageClassOutput, outer_t, SpvBuiltInTessLevelOuter);
        uint32_t inner = builtin(w, SpvStorageClassOutput, inner_t, SpvBuiltInTessLevelInner);
        decorate(w, outer, SpvDecorationPatch, -1);
        decorate(w, inner, SpvDecorationPatch, -1);
        store(w, outer, cached(w, SpvOpConstantComposite,
                               (uint32_t[]){ outer_t, one, one, one, one }, 5, 1));
        store(w, inner, cached(w, SpvOpConstantComposite, (uint32_t[]){ inner_t, one, one }, 3, 1));
    }
    for (uint32_t i = 0; i < d->input_count; i++) {
        const struct vkp_var *v = &d->inputs[i];
        /* Per-vertex inputs of TCS/TES/GS are arrays; 32 = gl_MaxPatchVertices when unsized. */
        uint32_t array = 0;
        if (d->stage == VKP_TESS_CONTROL || d->stage == VKP_GEOMETRY ||
            (d->stage == VKP_TESS_EVAL && !v->patch))
            array = v->array_size ? v->array_size : 32;
        interface_var(w, SpvStorageClassInput, v, array, d->stage == VKP_FRAGMENT, NULL);
    }
    write_outputs(w, d, invocation);
    if (d->stage == VKP_VERTEX || d->stage == VKP_TESS_EVAL) {
        uint32_t pos = builtin(w, SpvStorageClassOutput, vec4, SpvBuiltInPosition);
        store(w, pos, c_null(w, vec4));
    }
}

static const SpvExecutionModel models[] = {
    [VKP_VERTEX] = SpvExecutionModelVertex,
    [VKP_TESS_CONTROL] = SpvExecutionModelTessellationControl,
    [VKP_TESS_EVAL] = SpvExecutionModelTessellationEvaluation,
    [VKP_GEOMETRY] = SpvExecutionModelGeometry,
    [VKP_FRAGMENT] = SpvExecutionModelFragment,
};

static void header_sections(struct writer *w, const struct vkp_stage_desc *d, uint32_t main_id)
{
    inst(w, S_CAPS, SpvOpCapability, (uint32_t[]){ SpvCapabilityShader }, 1);
    if (d->stage == VKP_TESS_CONTROL || d->stage == VKP_TESS_EVAL)
        inst(w, S_CAPS, SpvOpCapability, (uint32_t[]){ SpvCapabilityTessellation }, 1);
    if (d->stage == VKP_GEOMETRY)
        inst(w, S_CAPS, SpvOpCapability, (uint32_t[]){ SpvCapabilityGeometry }, 1);
    inst(w, S_MODEL, SpvOpMemoryModel,
         (uint32_t[]){ SpvAddressingModelLogical, SpvMemoryModelGLSL450 }, 2);
    /* OpEntryPoint model id "main" interface... ("main\0" is two words). */
    put(w, S_ENTRY, ((5 + w->interface_count) << 16) | SpvOpEntryPoint);
    put(w, S_ENTRY, models[d->stage]);
    put(w, S_ENTRY, main_id);
    put(w, S_ENTRY, 0x6e69616d); /* "main" */
    put(w, S_ENTRY, 0);
    for (uint32_t i = 0; i < w->interface_count; i++)
        put(w, S_ENTRY, w->interface_ids[i]);
    if (d->stage == VKP_FRAGMENT)
        inst(w, S_MODES, SpvOpExecutionMode,
             (uint32_t[]){ main_id, SpvExecutionModeOriginUpperLeft }, 2);
    if (d->stage == VKP_TESS_CONTROL)
        inst(w, S_MODES, SpvOpExecutionMode,
             (uint32_t[]){ main_id, SpvExecutionModeOutputVertices, d->output_vertices }, 3);
    for (uint32_t i = 0; i < d->mode_count && i < 8; i++)
        inst(w, S_MODES, SpvOpExecutionMode, (uint32_t[]){ main_id, d->modes[i] }, 2);
}

bool vkp_build(const struct vkp_stage_desc *d, struct vkp_module *m)
{
    memset(m, 0, sizeof(*m));
    if (d->stage > VKP_FRAGMENT || (d->stage == VKP_TESS_CONTROL && d->output_vertices == 0)) {
        snprintf(m->error, sizeof(m->error), "bad partner description (stage %d)", (int)d->stage);
        return false;
    }
    struct writer *w = calloc(1, sizeof(*w));
    if (!w) {
        snprintf(m->error, sizeof(m->error), "out of memory");
        return false;
    }
    w->next_id = 1;
    uint32_t main_id = w->next_id++, label = w->next_id++;
    uint32_t fn_type = cached(w, SpvOpTypeFunction, (uint32_t[]){ t_void(w) }, 1, 0);
    stage_body(w, d);
    header_sections(w, d, main_id);

    size_t total = 5;
    for (int s = 0; s < S_COUNT; s++)
        total += w->s[s].n;
    total += 5 + 2 + 1 + 1; /* OpFunction, OpLabel, OpReturn, OpFunctionEnd */
    uint32_t *out = w->failed ? NULL : malloc(total * sizeof(*out));
    if (out) {
        size_t n = 0;
        out[n++] = SpvMagicNumber;
        out[n++] = 0x00010000; /* SPIR-V 1.0: valid for every Vulkan target env */
        out[n++] = 0;
        out[n++] = w->next_id;
        out[n++] = 0;
        for (int s = 0; s < S_CODE; s++) {
            if (w->s[s].n)
                memcpy(out + n, w->s[s].w, w->s[s].n * sizeof(*out));
            n += w->s[s].n;
        }
        const uint32_t fn[] = { (5u << 16) | SpvOpFunction, t_void(w), main_id,
                                SpvFunctionControlMaskNone, fn_type,
                                (2u << 16) | SpvOpLabel, label };
        memcpy(out + n, fn, sizeof(fn));
        n += 7;
        if (w->s[S_CODE].n)
            memcpy(out + n, w->s[S_CODE].w, w->s[S_CODE].n * sizeof(*out));
        n += w->s[S_CODE].n;
        out[n++] = (1u << 16) | SpvOpReturn;
        out[n++] = (1u << 16) | SpvOpFunctionEnd;
        m->words = out;
        m->word_count = n;
    } else {
        snprintf(m->error, sizeof(m->error), "out of memory or too many types");
    }
    for (int s = 0; s < S_COUNT; s++)
        free(w->s[s].w);
    free(w);
    return m->words != NULL;
}

void vkp_free(struct vkp_module *m)
{
    free(m->words);
    memset(m, 0, sizeof(*m));
}
