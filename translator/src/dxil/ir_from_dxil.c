/* SPDX-License-Identifier: MIT */
/*
 * sb_ir_from_dxil (translator/ir.h): a DXIL container -> an IR program. The
 * driver of the DXIL front end (README.md): reads the bitcode and the dx.*
 * reflection, picks the entry point and its stage, declares its resources
 * and thread-group size, lowers the body (ir_from_dxil_flow.c) and checks
 * the result with sb_ir_validate, so a front-end gap is an error and never
 * a program the back end trips over. The IR is written in its SM5.0
 * dialect with SM5.1 resource ranges (ir_from_dxil_resources.c), which the
 * back end, interpreter and validate already take.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ir_from_dxil_private.h"
#include "shaderbridge/dxbc.h"
#include "shaderbridge/dxbc_dxil.h"

static const char *const kind_names[] = {
    "pixel", "vertex", "geometry", "hull", "domain", "compute", "library", "ray generation",
    "intersection", "any hit", "closest hit", "miss", "callable", "mesh", "amplification", "node",
};

static const char *shader_kind_name(uint32_t kind)
{
    return kind < sizeof(kind_names) / sizeof(kind_names[0]) ? kind_names[kind] : "unknown";
}

/* A library (lib_6_x: ray tracing, work-graph nodes, exported functions) is refused,
 * naming the kinds of its entry points, so a user sees what the program is. */
static bool refuse_library(struct dxil_front *f, const struct sb_dxil_program_info *info)
{
    char kinds[160] = "";
    size_t used = 0;
    uint32_t seen = 0; /* bit per shader kind already named */
    for (uint32_t i = 0; i < info->entry_point_count && used < sizeof(kinds); i++) {
        uint32_t kind = info->entry_points[i].shader_kind;
        /* The library's own record (kind library) names no shader. */
        if (kind >= 32 || kind == SB_DXIL_SHADER_KIND_LIBRARY || (seen & (1u << kind)))
            continue;
        seen |= 1u << kind;
        int n = snprintf(kinds + used, sizeof(kinds) - used, "%s%s", used ? ", " : "",
                         shader_kind_name(kind));
        used += n > 0 ? (size_t)n : 0;
    }
    return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                           "a DXIL library with %u entry point(s)%s%s%s: libraries and "
                           "ray-tracing shaders are not translated", info->entry_point_count,
                           used ? " (" : "", kinds, used ? ")" : "");
}

/* The entry point, its stage and the declarations that do not need the body. */
static bool declare(struct dxil_front *f, const struct sb_dxil_program_info *info)
{
    if (info->shader_kind == SB_DXIL_SHADER_KIND_LIBRARY)
        return refuse_library(f, info);
    const struct sb_dxil_entry_point *e =
        info->entry_point_count == 1 ? &info->entry_points[0] : NULL;
    /* A hull shader's null entry function is D3D's pass-through control-point phase. */
    bool pass_through = e && e->function == SB_BC_NONE &&
                        e->shader_kind == SB_DXIL_SHADER_KIND_HULL;
    if (!e || (!pass_through && (e->function == SB_BC_NONE ||
                                 e->function >= f->module->function_count)))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "%s program with %u entry points: one entry function is translated",
                               shader_kind_name(info->shader_kind), info->entry_point_count);
    f->entry = e;
    f->function = pass_through ? NULL : &f->module->functions[e->function];
    uint32_t kind = f->entry->shader_kind;
    struct sb_ir_program *p = f->program;
    switch (kind) {
    case SB_DXIL_SHADER_KIND_COMPUTE:
        p->stage = SB_IR_STAGE_COMPUTE;
        break;
    case SB_DXIL_SHADER_KIND_VERTEX:
    case SB_DXIL_SHADER_KIND_PIXEL:
        p->stage = kind == SB_DXIL_SHADER_KIND_VERTEX ? SB_IR_STAGE_VERTEX : SB_IR_STAGE_PIXEL;
        if (!dxil_front_declare_signatures(f))
            return false;
        break;
    case SB_DXIL_SHADER_KIND_GEOMETRY:
        p->stage = SB_IR_STAGE_GEOMETRY;
        if (!dxil_front_declare_geometry(f) || !dxil_front_declare_signatures(f))
            return false;
        break;
    case SB_DXIL_SHADER_KIND_HULL:
    case SB_DXIL_SHADER_KIND_DOMAIN:
        if (!dxil_front_declare_tessellation(f))
            return false;
        break;
    case SB_DXIL_SHADER_KIND_MESH:
    case SB_DXIL_SHADER_KIND_AMPLIFICATION:
        if (!dxil_front_declare_mesh(f))
            return false;
        break;
    default:
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "DXIL %s shaders are not translated (vertex, pixel, geometry, "
                               "hull, domain and compute are)",
                               shader_kind_name(kind));
    }
    if (f->function && f->function->is_declaration)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_INVALID, "the entry function has no body");
    if (f->entry->has_num_threads)
        for (unsigned i = 0; i < 3; i++)
            p->thread_group[i] = f->entry->num_threads[i];
    if (!dxil_front_wave_size(f, p))
        return false;
    p->source = SB_IR_SOURCE_DXIL;
    p->major = 5;
    p->minor = 0;
    return dxil_front_declare_resources(f);
}

/* Lowers function `fn` into `out` with temps and value map of its own (one instance). */
static bool lower_function(struct dxil_front *f, const struct sb_bc_function *fn,
                           struct sb_ir_function *out)
{
    /* Value ids and temps are the function's own (hull phases keep no temps). */
    uint32_t values = fn->value_count;
    free(f->value_temp);
    free(f->value_resource);
    f->function = fn;
    /* The function's instructions are written in place in the program's arena: dxc's
     * bodies lower to about one IR instruction per bitcode one, so twice that (and
     * room for the declarations' moves) seldom has to grow. */
    uint64_t guess = 2ull * fn->instruction_count + 64;
    f->code_count = 0;
    f->code_capacity = guess <= UINT32_MAX / 2 ? (uint32_t)guess : 0;
    f->code = f->code_capacity
                  ? sb_arena_alloc_uninit(f->arena, f->code_capacity, sizeof(*f->code))
                  : NULL;
    if (f->code_capacity && !f->code)
        return dxil_front_fail(f, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    f->temp_count = 0;
    /* ResRet facts are per function too (ir_from_dxil_resret.c makes them again, in the
     * arena, on the function's first resource read). */
    f->extracted_members = NULL;
    f->value_status = NULL;
    f->handles = NULL; /* per function-local value (ir_from_dxil_resources.c allocates again) */
    f->value_temp = malloc((size_t)(values ? values : 1) * sizeof(uint32_t));
    f->value_resource = malloc((size_t)(values ? values : 1) * sizeof(uint32_t));
    if (!f->value_temp || !f->value_resource)
        return dxil_front_fail(f, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t i = 0; i < values; i++)
        f->value_temp[i] = f->value_resource[i] = DXIL_FRONT_NONE;
    if (!dxil_front_body(f) || !dxil_front_memory_end_function(f))
        return false;
    /* The function keeps the array (an empty body keeps one zero slot); the next
     * function starts its own. */
    struct sb_ir_instruction *code =
        f->code_count ? f->code : dxil_front_alloc(f, 1, sizeof(*code));
    if (!code)
        return f->failed ? false : dxil_front_fail(f, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    f->code = NULL;
    f->code_capacity = 0;
    out->id = 0xFFFFFFFFu;
    out->instructions = code;
    out->instruction_count = f->code_count;
    out->instance_count = 1;
    out->temp_count = f->temp_count;
    return true;
}

/* A hull shader's phases (ir_from_dxil_tessellation.c): the entry function is the
 * control-point phase, the patch-constant function HSState names the one fork phase. */
static bool lower_hull_functions(struct dxil_front *f)
{
    struct sb_ir_program *p = f->program;
    struct sb_ir_function *fns = dxil_front_alloc(f, 2, sizeof(*fns));
    if (!fns)
        return false;
    /* No entry function: an empty control-point phase, D3D's pass-through (IR.md). */
    fns[0] = (struct sb_ir_function){ .id = 0xFFFFFFFFu, .instance_count = 1 };
    if (f->function && !lower_function(f, f->function, &fns[0]))
        return false;
    f->patch_phase = true;
    if (!lower_function(f, &f->module->functions[f->entry->hs.patch_constant_function],
                                   &fns[1]))
        return false;
    p->functions = fns;
    p->function_count = 2;
    p->first_fork_phase = 1;
    p->fork_phase_count = 1;
    p->temp_count = fns[0].temp_count;
    return true;
}

/* The entry body into functions[0] (a hull shader's phases: ir_from_dxil_tessellation.c),
 * then the special inputs the bodies read. */
static bool lower_body(struct dxil_front *f)
{
    if (f->program->stage == SB_IR_STAGE_HULL) {
        if (!lower_hull_functions(f))
            return false;
    } else {
        struct sb_ir_function *fn = dxil_front_alloc(f, 1, sizeof(*fn));
        if (!fn || !lower_function(f, f->function, fn))
            return false;
        f->program->temp_count = fn->temp_count;
        f->program->functions = fn;
        f->program->function_count = 1;
    }
    return dxil_front_declare_system_values(f) && dxil_front_declare_special_inputs(f) &&
           dxil_front_declare_tessellation_inputs(f) && dxil_front_declare_memory(f) &&
           dxil_front_declare_mesh_payload(f) && dxil_front_ags_finish(f);
}

enum sb_result sb_ir_from_dxil(const struct sb_dxbc *container, struct sb_ir_program **out,
                               struct sb_error *error)
{
    if (out)
        *out = NULL;
    const struct sb_dxbc_part *part =
        container ? sb_dxbc_find_part(container, SB_FOURCC('D', 'X', 'I', 'L')) : NULL;
    if (!out || !part || !part->decoded.program)
        return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                            "sb_ir_from_dxil: a container with a decoded DXIL part is required");
    struct dxil_front f;
    memset(&f, 0, sizeof(f));
    struct sb_bc_module *module = NULL;
    struct sb_dxil_program_info *info = NULL;
    /* Kind names, the data layout, attributes and metadata attachments are never read
     * here (bitcode.h). */
    enum sb_result r = sb_bc_read_dxil_part_ex(
        part->data, part->size, part->data_offset,
        SB_BC_READ_SKIP_KINDS_AND_LAYOUT | SB_BC_READ_SKIP_ATTRIBUTES_AND_ATTACHMENTS, &module,
        error);
    if (r == SB_SUCCESS)
        r = sb_dxil_program_info_read(module, part->decoded.program->bitcode_file_offset, &info,
                                      error);
    if (r != SB_SUCCESS) {
        sb_bc_module_destroy(module);
        return r;
    }
    f.module = module;
    f.offset = part->decoded.program->bitcode_file_offset;
    if (!(f.program = sb_ir_program_create(&f.arena)))
        dxil_front_fail(&f, SB_ERROR_OUT_OF_MEMORY, "out of memory");
    else if (declare(&f, info) && lower_body(&f) &&
             sb_ir_validate(f.program, &f.error) != SB_SUCCESS)
        f.failed = true;
    free(f.value_temp);
    free(f.value_resource);
    dxil_front_memory_free(&f);
    sb_dxil_program_info_destroy(info);
    sb_bc_module_destroy(module);
    if (f.failed) {
        sb_ir_program_destroy(f.program);
        if (error)
            *error = f.error;
        return f.error.code;
    }
    *out = f.program;
    return SB_SUCCESS;
}
