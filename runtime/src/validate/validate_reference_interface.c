/* SPDX-License-Identifier: MIT */
/*
 * Do two programs have one interface (validate.h, sb_validate_reference)? The reference
 * comparison gives both programs the same data by (class, register, space) and compares
 * their outputs; that is only meaningful when each register one program reads the other
 * declares with the same shape, and each output one writes the other writes too. The first
 * difference found is named here, in words a user porting a shader can act on ("u1 (space 0)
 * is declared by the program only"), instead of letting a run fail on a missing binding.
 *
 * Signature elements are matched by semantic and index, never by register: fxc and dxc pack
 * signatures by the same rules, but a port may move an element. Arbitrary vertex and pixel
 * inputs are seeded for the reference from the program's lanes of the same element
 * (sb_validate_options::input_seed_lanes). Register equality is still required where the
 * harnesses work by register alone: clip/cull distances, the interpolated planes of a pixel
 * program drawn as triangles, the inputs of geometry, hull and domain programs, a domain
 * program's patch constants, and geometry and domain records laid out by o# (hull records
 * are compared by semantic). An
 * element's lanes are those its signature allocates (the container's mask), not the ones a
 * program declares: fxc declares only the lanes it reads (dcl_input v0.x of a float4), dxc
 * the whole element.
 */
#include "validate_reference_private.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

const char *sb_validate_interface_name(enum sb_validate_interface difference)
{
    switch (difference) {
    case SB_VALIDATE_INTERFACE_SAME: return "same";
    case SB_VALIDATE_INTERFACE_STAGE: return "stage";
    case SB_VALIDATE_INTERFACE_THREAD_GROUP: return "thread-group";
    case SB_VALIDATE_INTERFACE_RESOURCE: return "resource";
    case SB_VALIDATE_INTERFACE_RESOURCE_SHAPE: return "resource-shape";
    case SB_VALIDATE_INTERFACE_SIGNATURE: return "signature";
    default: return "?";
    }
}

static const char *stage_name(enum sb_ir_stage stage)
{
    static const char *const names[] = { "vertex", "pixel", "geometry", "hull", "domain", "compute" };
    return (uint32_t)stage < 6 ? names[stage] : "unknown";
}

void sb_validate_reference_register_name(uint32_t resource_class, uint32_t space, uint32_t reg, char *out,
                                         size_t size)
{
    static const char *const prefixes[] = { "cb", "t", "s", "u" };
    snprintf(out, size, "%s%u (space %u)", resource_class < 4 ? prefixes[resource_class] : "?", reg, space);
}

int64_t sb_validate_reference_find(const struct sb_rt_inputs *in, uint32_t resource_class, uint32_t space,
                                   uint32_t reg)
{
    for (uint32_t i = 0; in && i < in->count; i++)
        if (in->resources[i].resource_class == resource_class && in->resources[i].space == space &&
            in->resources[i].register_index == reg)
            return i;
    return -1;
}

/* The declaration covering register `reg` of `resource_class` in `space`, or NULL. */
static const struct sb_ir_resource *declaration(const struct sb_ir_program *ir, uint32_t resource_class,
                                                uint32_t space, uint32_t reg)
{
    for (uint32_t i = 0; i < ir->resource_count; i++) {
        const struct sb_ir_resource *d = &ir->resources[i];
        if (d->resource_class == resource_class && d->space == space && reg >= d->lower_bound &&
            (d->count == UINT32_MAX || reg - d->lower_bound < d->count))
            return d;
    }
    return NULL;
}

static const char *kind_name(const struct sb_ir_resource *d)
{
    static const char *const dimensions[] = { "unknown", "buffer", "1D texture", "2D texture", "2DMS texture",
                                              "3D texture", "cube texture", "1D array", "2D array",
                                              "2DMS array", "cube array" };
    if (d->kind == SB_IR_RESOURCE_KIND_RAW)
        return "raw buffer";
    if (d->kind == SB_IR_RESOURCE_KIND_STRUCTURED)
        return "structured buffer";
    return d->dimension < 11 ? dimensions[d->dimension] : "typed resource";
}

/* Sets the difference (the first one found wins) and its sentence. */
static bool differ(struct sb_validate_reference_report *report, enum sb_validate_interface difference,
                   const char *text)
{
    report->difference = difference;
    snprintf(report->reason, sizeof(report->reason), "interfaces differ (%s): %s",
             sb_validate_interface_name(difference), text);
    return false;
}

/* Every register of `mine` in `theirs`, of the same kind and dimension. `who`: the program
 * that declares `mine`. */
static bool resources_covered(struct sb_validate_reference_report *report, const struct sb_rt_program *mine_program,
                              const struct sb_rt_inputs *mine, const struct sb_rt_program *their_program,
                              const struct sb_rt_inputs *theirs, const char *who)
{
    char name[48], text[256];
    for (uint32_t i = 0; i < mine->count; i++) {
        const struct sb_rt_resource *r = &mine->resources[i];
        if (r->resource_class > SB_IR_RESOURCE_UAV)
            continue; /* not a register (stage outputs appended by a harness) */
        sb_validate_reference_register_name(r->resource_class, r->space, r->register_index, name, sizeof(name));
        if (sb_validate_reference_find(theirs, r->resource_class, r->space, r->register_index) < 0) {
            snprintf(text, sizeof(text), "%s is declared by %s only", name, who);
            return differ(report, SB_VALIDATE_INTERFACE_RESOURCE, text);
        }
        const struct sb_ir_resource *a = declaration(mine_program->ir, r->resource_class, r->space, r->register_index);
        const struct sb_ir_resource *b = declaration(their_program->ir, r->resource_class, r->space, r->register_index);
        if (!a || !b || r->resource_class == SB_IR_RESOURCE_CBV || r->resource_class == SB_IR_RESOURCE_SAMPLER)
            continue;
        if (a->kind != b->kind || (a->kind == SB_IR_RESOURCE_KIND_TYPED && a->dimension != b->dimension)) {
            snprintf(text, sizeof(text), "%s is a %s in %s and a %s in the other", name, kind_name(a), who,
                     kind_name(b));
            return differ(report, SB_VALIDATE_INTERFACE_RESOURCE_SHAPE, text);
        }
    }
    return true;
}

static uint32_t lane_count(uint8_t mask)
{
    return (mask & 1u) + (mask >> 1 & 1u) + (mask >> 2 & 1u) + (mask >> 3 & 1u);
}

bool sb_validate_reference_seeded(const struct sb_ir_signature_element *e)
{
    return e->kind == SB_IR_SIGNATURE_INPUT && e->file == SB_IR_FILE_INPUT && e->system_value == 0 &&
           e->semantic && e->semantic[0];
}

/* Whether the harness feeds or records element `e` by its register (see the opening comment):
 * `planes`, a pixel program drawn as triangles, seeds its interpolated inputs by register. */
static bool placed_by_register(const struct sb_ir_signature_element *e, enum sb_ir_stage stage, bool planes)
{
    bool graphics = stage == SB_IR_STAGE_VERTEX || stage == SB_IR_STAGE_PIXEL;
    if (e->kind == SB_IR_SIGNATURE_INPUT && graphics) /* input_seed_lanes covers the rest */
        return e->file == SB_IR_FILE_INPUT &&
               (e->system_value == 2 || e->system_value == 3 || (planes && e->system_value == 0));
    if (e->kind == SB_IR_SIGNATURE_INPUT) /* control points and primitives: seeded per register */
        return e->file == SB_IR_FILE_INPUT;
    /* Hull outputs and patch constants are compared by semantic (validate_reference.c); a
     * domain program's patch constants come seeded per register, its and a geometry
     * program's outputs are recorded per register. */
    return !graphics && stage != SB_IR_STAGE_HULL;
}

const struct sb_ir_signature_element *sb_validate_reference_element(const struct sb_ir_program *ir, uint32_t kind,
                                                                    const char *semantic, uint32_t index)
{
    for (uint32_t i = 0; i < ir->signature_count; i++) {
        const struct sb_ir_signature_element *e = &ir->signature[i];
        if (e->kind == kind && e->semantic && !strcasecmp(e->semantic, semantic) && e->semantic_index == index)
            return e;
    }
    return NULL;
}

uint8_t sb_validate_reference_lanes(const struct sb_ir_signature_element *e)
{
    return e->signature_mask ? e->signature_mask : e->mask;
}

/* "v1.xy", "o0.w", "vpc0.x" (a domain program's patch constant): the element's register and lanes. */
static void element_text(const struct sb_ir_signature_element *e, enum sb_ir_stage stage, char *out, size_t size)
{
    char lanes[5] = { 0 };
    for (uint32_t c = 0, n = 0; c < 4; c++)
        if (sb_validate_reference_lanes(e) >> c & 1u)
            lanes[n++] = "xyzw"[c];
    const char *file = e->kind == SB_IR_SIGNATURE_INPUT                                   ? "v"
                       : e->kind == SB_IR_SIGNATURE_PATCH && stage == SB_IR_STAGE_DOMAIN ? "vpc"
                                                                                        : "o";
    snprintf(out, size, "%s%u.%s", file, e->register_index, lanes);
}

/* Every named element of `mine` in `theirs`, with as many lanes, at the same register where
 * the harness places it by register. */
static bool elements_covered(struct sb_validate_reference_report *report, const struct sb_ir_program *mine,
                             const struct sb_ir_program *theirs, enum sb_ir_stage stage, bool planes,
                             const char *who, const char *other)
{
    char text[256], at_a[24], at_b[24];
    for (uint32_t i = 0; i < mine->signature_count; i++) {
        const struct sb_ir_signature_element *e = &mine->signature[i];
        if (!e->semantic || !e->semantic[0])
            continue; /* a system value with no element (vThreadID): the stage decides it */
        const char *what = e->kind == SB_IR_SIGNATURE_INPUT ? "input" : e->kind == SB_IR_SIGNATURE_PATCH
                                                                             ? "patch constant" : "output";
        const struct sb_ir_signature_element *f = sb_validate_reference_element(theirs, e->kind, e->semantic,
                                                                                e->semantic_index);
        if (!f) {
            snprintf(text, sizeof(text), "%s %s%u is in %s's signature only", what, e->semantic, e->semantic_index,
                     who);
            return differ(report, SB_VALIDATE_INTERFACE_SIGNATURE, text);
        }
        element_text(e, stage, at_a, sizeof(at_a));
        element_text(f, stage, at_b, sizeof(at_b));
        /* An input's lanes may differ: a compiler declares only those it reads, and the
         * seeding gives each lane of a register the same value on both sides. */
        uint8_t lanes_e = sb_validate_reference_lanes(e), lanes_f = sb_validate_reference_lanes(f);
        if (e->kind != SB_IR_SIGNATURE_INPUT && lane_count(lanes_e) != lane_count(lanes_f)) {
            snprintf(text, sizeof(text), "%s %s%u is %s in %s and %s in %s", what, e->semantic, e->semantic_index,
                     at_a, who, at_b, other);
            return differ(report, SB_VALIDATE_INTERFACE_SIGNATURE, text);
        }
        if (placed_by_register(e, stage, planes) &&
            (e->register_index != f->register_index || (e->kind != SB_IR_SIGNATURE_INPUT && lanes_e != lanes_f))) {
            snprintf(text, sizeof(text), "%s %s%u is %s in %s and %s in %s (such %ss are %s by register)",
                     what, e->semantic, e->semantic_index, at_a, who, at_b, other, what,
                     e->kind == SB_IR_SIGNATURE_INPUT || (stage == SB_IR_STAGE_DOMAIN && e->kind == SB_IR_SIGNATURE_PATCH)
                         ? "seeded" : "recorded");
            return differ(report, SB_VALIDATE_INTERFACE_SIGNATURE, text);
        }
    }
    return true;
}

bool sb_validate_reference_interfaces(struct sb_validate_reference_report *report, const struct sb_rt_program *program,
                                      const struct sb_rt_inputs *program_inputs, const struct sb_rt_program *reference,
                                      const struct sb_rt_inputs *reference_inputs)
{
    char text[256];
    const struct sb_ir_program *a = program->ir, *b = reference->ir;
    if (program->stage != reference->stage) {
        snprintf(text, sizeof(text), "the program is a %s program, the reference a %s program", stage_name(program->stage),
                 stage_name(reference->stage));
        return differ(report, SB_VALIDATE_INTERFACE_STAGE, text);
    }
    if (program->stage == SB_IR_STAGE_COMPUTE && memcmp(a->thread_group, b->thread_group, sizeof(a->thread_group))) {
        snprintf(text, sizeof(text), "the program runs numthreads(%u, %u, %u), the reference numthreads(%u, %u, %u)",
                 a->thread_group[0], a->thread_group[1], a->thread_group[2], b->thread_group[0], b->thread_group[1],
                 b->thread_group[2]);
        return differ(report, SB_VALIDATE_INTERFACE_THREAD_GROUP, text);
    }
    bool planes = program->stage == SB_IR_STAGE_PIXEL &&
                  (sb_validate_pixel_draws_triangles(program) || sb_validate_pixel_draws_triangles(reference));
    return resources_covered(report, program, program_inputs, reference, reference_inputs, "the program") &&
           resources_covered(report, reference, reference_inputs, program, program_inputs, "the reference") &&
           elements_covered(report, a, b, program->stage, planes, "the program", "the reference") &&
           elements_covered(report, b, a, program->stage, planes, "the reference", "the program");
}
