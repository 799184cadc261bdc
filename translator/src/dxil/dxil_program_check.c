/* SPDX-License-Identifier: MIT */
/*
 * sb_dxil_program_info_check (translator/dxil_program_info.h): the program's
 * own reflection (dx.* metadata, ../shared/docs/dxil.md §4) against what dxc
 * wrote beside it in the container (../shared/docs/dxcontainer.md §5 for
 * ISG1/OSG1/PSG1, §6 for PSV0). The two are written from the same
 * DxilModule by dxc, so every difference is either a reader bug or a
 * tampered file; the corpus test holds the first at zero.
 *
 * The translation rules between the two vocabularies live here, each as a
 * small function: DXIL ComponentType -> signature component type
 * (D3D_REGISTER_COMPONENT_TYPE), SemanticKind -> D3D_NAME (tessellation
 * factors depend on the domain: an isoline's row 0 is the density, row 1
 * the detail), resource class/kind -> PSV ResType. PSV0 resources are
 * matched by class, space and register; signature parts hold one element per row of
 * each metadata element, sorted by stream and register (part_rows).
 */
#include "translator/dxil_program_info.h"
#include "dxil_program_private.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/dxbc_dxil.h"

struct checker {
    sb_dxil_mismatch_fn report;
    void *user;
    uint32_t count;
};

static void mismatch(struct checker *c, const char *field, const char *format, ...)
    __attribute__((format(printf, 3, 4))) SB_COLD;

static void mismatch(struct checker *c, const char *field, const char *format, ...)
{
    char detail[256];
    va_list args;
    va_start(args, format);
    vsnprintf(detail, sizeof(detail), format, args);
    va_end(args);
    c->count++;
    if (c->report)
        c->report(c->user, field, detail);
}

/* Compares two numbers; `field` names the pair. */
static void same(struct checker *c, const char *field, uint64_t metadata, uint64_t part)
{
    if (metadata != part)
        mismatch(c, field, "metadata %llu, part %llu", (unsigned long long)metadata,
                 (unsigned long long)part);
}

/* D3D_REGISTER_COMPONENT_TYPE that dxc writes for a DXIL ComponentType (dxcontainer.md §5). */
static uint32_t signature_component_type(uint32_t type)
{
    switch (type) {
    case SB_DXIL_COMPONENT_TYPE_I1:
    case SB_DXIL_COMPONENT_TYPE_U32: return 1;
    case SB_DXIL_COMPONENT_TYPE_I32: return 2;
    case SB_DXIL_COMPONENT_TYPE_F32:
    case SB_DXIL_COMPONENT_TYPE_SNORM_F32:
    case SB_DXIL_COMPONENT_TYPE_UNORM_F32: return 3;
    case SB_DXIL_COMPONENT_TYPE_U16: return 4;
    case SB_DXIL_COMPONENT_TYPE_I16: return 5;
    case SB_DXIL_COMPONENT_TYPE_F16:
    case SB_DXIL_COMPONENT_TYPE_SNORM_F16:
    case SB_DXIL_COMPONENT_TYPE_UNORM_F16: return 6;
    case SB_DXIL_COMPONENT_TYPE_U64: return 7;
    case SB_DXIL_COMPONENT_TYPE_I64: return 8;
    case SB_DXIL_COMPONENT_TYPE_F64:
    case SB_DXIL_COMPONENT_TYPE_SNORM_F64:
    case SB_DXIL_COMPONENT_TYPE_UNORM_F64: return 9;
    default: return 0;
    }
}

uint32_t sb_dxil_semantic_system_value(uint32_t kind, uint32_t row, uint32_t domain)
{
    switch (kind) {
    case SB_DXIL_SEMANTIC_POSITION: return 1;
    case SB_DXIL_SEMANTIC_CLIP_DISTANCE: return 2;
    case SB_DXIL_SEMANTIC_CULL_DISTANCE: return 3;
    case SB_DXIL_SEMANTIC_RENDER_TARGET_ARRAY_INDEX: return 4;
    case SB_DXIL_SEMANTIC_VIEWPORT_ARRAY_INDEX: return 5;
    case SB_DXIL_SEMANTIC_VERTEX_ID: return 6;
    case SB_DXIL_SEMANTIC_PRIMITIVE_ID: return 7;
    case SB_DXIL_SEMANTIC_INSTANCE_ID: return 8;
    case SB_DXIL_SEMANTIC_IS_FRONT_FACE: return 9;
    case SB_DXIL_SEMANTIC_SAMPLE_INDEX: return 10;
    case SB_DXIL_SEMANTIC_TESS_FACTOR:
        return domain == 3 ? 11 : domain == 2 ? 13 : domain == 1 ? 16 - (row & 1) : 0;
    case SB_DXIL_SEMANTIC_INSIDE_TESS_FACTOR: return domain == 3 ? 12 : domain == 2 ? 14 : 0;
    case SB_DXIL_SEMANTIC_BARYCENTRICS: return 23;
    case SB_DXIL_SEMANTIC_SHADING_RATE: return 24;
    case SB_DXIL_SEMANTIC_CULL_PRIMITIVE: return 25;
    case SB_DXIL_SEMANTIC_TARGET: return 64;
    case SB_DXIL_SEMANTIC_DEPTH: return 65;
    case SB_DXIL_SEMANTIC_COVERAGE: return 66;
    case SB_DXIL_SEMANTIC_DEPTH_GREATER_EQUAL: return 67;
    case SB_DXIL_SEMANTIC_DEPTH_LESS_EQUAL: return 68;
    case SB_DXIL_SEMANTIC_STENCIL_REF: return 69;
    case SB_DXIL_SEMANTIC_INNER_COVERAGE: return 70;
    default: return 0;
    }
}

/* PSV ResType of a resource (dxcontainer.md §6). */
static uint32_t psv_resource_type(const struct sb_dxil_resource *r)
{
    bool raw = r->kind == SB_DXIL_RESOURCE_KIND_RAW_BUFFER;
    bool structured = r->kind == SB_DXIL_RESOURCE_KIND_STRUCTURED_BUFFER;
    switch (r->resource_class) {
    case SB_DXIL_RESOURCE_CLASS_SAMPLER: return SB_DXBC_PSV0_RESOURCE_SAMPLER;
    case SB_DXIL_RESOURCE_CLASS_CBUFFER: return SB_DXBC_PSV0_RESOURCE_CBV;
    case SB_DXIL_RESOURCE_CLASS_SRV:
        return structured ? SB_DXBC_PSV0_RESOURCE_SRV_STRUCTURED
               : raw || r->kind == SB_DXIL_RESOURCE_KIND_RT_ACCELERATION_STRUCTURE
                   ? SB_DXBC_PSV0_RESOURCE_SRV_RAW
                   : SB_DXBC_PSV0_RESOURCE_SRV_TYPED;
    default:
        return structured ? (r->has_counter ? SB_DXBC_PSV0_RESOURCE_UAV_STRUCTURED_WITH_COUNTER
                                            : SB_DXBC_PSV0_RESOURCE_UAV_STRUCTURED)
               : raw ? SB_DXBC_PSV0_RESOURCE_UAV_RAW
                     : SB_DXBC_PSV0_RESOURCE_UAV_TYPED;
    }
}

/* The tessellator domain of an entry (HS or DS state), 0 when it has none. */
static uint32_t domain_of(const struct sb_dxil_entry_point *e)
{
    return e->has_hs_state ? e->hs.domain : e->has_ds_state ? e->ds.domain : 0;
}

/* The resource class of a PSV ResType (SRV for 3-5, UAV for 6-9); 4 (none) when unknown. */
static uint32_t psv_type_class(uint32_t type)
{
    if (type == SB_DXBC_PSV0_RESOURCE_SAMPLER)
        return SB_DXIL_RESOURCE_CLASS_SAMPLER;
    if (type == SB_DXBC_PSV0_RESOURCE_CBV)
        return SB_DXIL_RESOURCE_CLASS_CBUFFER;
    if (type >= SB_DXBC_PSV0_RESOURCE_SRV_TYPED && type <= SB_DXBC_PSV0_RESOURCE_SRV_STRUCTURED)
        return SB_DXIL_RESOURCE_CLASS_SRV;
    if (type >= SB_DXBC_PSV0_RESOURCE_UAV_TYPED &&
        type <= SB_DXBC_PSV0_RESOURCE_UAV_STRUCTURED_WITH_COUNTER)
        return SB_DXIL_RESOURCE_CLASS_UAV;
    return 4;
}

/*
 * Each metadata resource against the PSV0 record of its class, space and first
 * register (dxc lists CBVs, samplers, SRVs, UAVs; matching by binding does not depend
 * on that order), then the record's type, upper bound, kind and flags.
 */
static void check_resources(struct checker *c, const struct sb_dxil_resource_list *list,
                            const struct sb_dxbc_psv0 *psv)
{
    static const char *const CLASS_NAMES[4] = { "SRV", "UAV", "CBV", "sampler" };
    same(c, "psv0.resource_count", list->count, psv->resource_count);
    char field[64];
    for (uint32_t i = 0; i < list->count; i++) {
        const struct sb_dxil_resource *r = &list->resources[i];
        uint32_t n = 0;
        while (n < psv->resource_count &&
               (psv_type_class(psv->resources[n].type) != r->resource_class ||
                psv->resources[n].space != r->space ||
                psv->resources[n].lower_bound != r->lower_bound))
            n++;
        if (n == psv->resource_count) {
            mismatch(c, "psv0.resources", "no record for the %s at space %u register %u",
                     CLASS_NAMES[r->resource_class & 3], r->space, r->lower_bound);
            continue;
        }
        const struct sb_dxbc_psv0_resource *p = &psv->resources[n];
        uint32_t upper = r->range_size == UINT32_MAX ? UINT32_MAX
                                                     : r->lower_bound + r->range_size - 1;
#define RES_FIELD(name, a, b) \
    (snprintf(field, sizeof(field), "psv0.resources[%u]." name, n), same(c, field, a, b))
        RES_FIELD("type", psv_resource_type(r), p->type);
        RES_FIELD("upper_bound", upper, p->upper_bound);
        if (psv->resource_stride >= SB_DXBC_PSV0_RESOURCE_V2_SIZE) {
            RES_FIELD("kind", r->kind, p->kind);
            RES_FIELD("flags", r->atomic64_use ? SB_DXBC_PSV0_RESOURCE_FLAG_USED_BY_ATOMIC64 : 0,
                      p->flags);
        }
#undef RES_FIELD
    }
}

static void check_psv_element(struct checker *c, const char *list, uint32_t index,
                              const struct sb_dxil_signature_element *e,
                              const struct sb_dxbc_psv0_element *p)
{
    char field[80];
#define EL_FIELD(name, a, b) \
    (snprintf(field, sizeof(field), "psv0.%s[%u]." name, list, index), same(c, field, a, b))
    const char *name = e->semantic_kind == SB_DXIL_SEMANTIC_ARBITRARY ? e->semantic_name : "";
    if (strcmp(name, p->name ? p->name : "")) {
        snprintf(field, sizeof(field), "psv0.%s[%u].name", list, index);
        mismatch(c, field, "metadata \"%s\", part \"%s\"", name, p->name ? p->name : "");
    }
    EL_FIELD("rows", e->rows, p->rows);
    EL_FIELD("cols", e->cols, p->cols);
    EL_FIELD("allocated", e->start_row >= 0, p->allocated);
    if (e->start_row >= 0) {
        EL_FIELD("start_row", (uint32_t)e->start_row, p->start_row);
        EL_FIELD("start_col", (uint32_t)e->start_col, p->start_col);
    }
    EL_FIELD("semantic_kind", e->semantic_kind, p->semantic_kind);
    EL_FIELD("component_type", signature_component_type(e->component_type), p->component_type);
    EL_FIELD("interpolation_mode", e->interpolation, p->interpolation_mode);
    EL_FIELD("dynamic_index_mask", e->dynamic_index_mask, p->dynamic_index_mask);
    EL_FIELD("output_stream", e->output_stream, p->output_stream);
    for (uint32_t r = 0; r < e->rows && r < p->rows && r < e->semantic_index_count; r++)
        EL_FIELD("semantic_index", e->semantic_indices[r], p->semantic_indexes[r]);
#undef EL_FIELD
}

static void check_psv_signature(struct checker *c, const char *list,
                                const struct sb_dxil_signature *sig,
                                const struct sb_dxbc_psv0_element *elements, uint32_t count)
{
    char field[64];
    snprintf(field, sizeof(field), "psv0.%s.count", list);
    same(c, field, sig->element_count, count);
    for (uint32_t i = 0; i < sig->element_count && i < count; i++)
        check_psv_element(c, list, i, &sig->elements[i], &elements[i]);
}

static void check_stage(struct checker *c, const struct sb_dxil_entry_point *e,
                        const struct sb_dxbc_psv0_runtime_info *info)
{
    const union sb_dxbc_psv0_stage_info *s = &info->stage;
    switch (info->stage_layout) {
    case SB_DXBC_PSV0_STAGE_HULL:
        same(c, "psv0.hs.input_control_point_count", e->hs.input_control_points,
             s->hs.input_control_point_count);
        same(c, "psv0.hs.output_control_point_count", e->hs.output_control_points,
             s->hs.output_control_point_count);
        same(c, "psv0.hs.tessellator_domain", e->hs.domain, s->hs.tessellator_domain);
        same(c, "psv0.hs.tessellator_output_primitive", e->hs.output_primitive,
             s->hs.tessellator_output_primitive);
        break;
    case SB_DXBC_PSV0_STAGE_DOMAIN:
        same(c, "psv0.ds.input_control_point_count", e->ds.input_control_points,
             s->ds.input_control_point_count);
        same(c, "psv0.ds.tessellator_domain", e->ds.domain, s->ds.tessellator_domain);
        break;
    case SB_DXBC_PSV0_STAGE_GEOMETRY:
        same(c, "psv0.gs.input_primitive", e->gs.input_primitive, s->gs.input_primitive);
        same(c, "psv0.gs.output_topology", e->gs.output_topology, s->gs.output_topology);
        same(c, "psv0.gs.output_stream_mask", e->gs.active_stream_mask, s->gs.output_stream_mask);
        if (info->version >= 1)
            same(c, "psv0.gs.max_vertex_count", e->gs.max_vertex_count, info->max_vertex_count);
        break;
    case SB_DXBC_PSV0_STAGE_MESH:
        same(c, "psv0.ms.payload_size_in_bytes", e->ms.payload_size, s->ms.payload_size_in_bytes);
        same(c, "psv0.ms.max_output_vertices", e->ms.max_vertex_count, s->ms.max_output_vertices);
        same(c, "psv0.ms.max_output_primitives", e->ms.max_primitive_count,
             s->ms.max_output_primitives);
        if (info->version >= 1)
            same(c, "psv0.ms.output_topology", e->ms.output_topology, info->mesh_output_topology);
        break;
    case SB_DXBC_PSV0_STAGE_AMPLIFICATION:
        same(c, "psv0.as.payload_size_in_bytes", e->as.payload_size, s->as.payload_size_in_bytes);
        break;
    default:
        break;
    }
}

static void check_psv0(struct checker *c, const struct sb_dxil_program_info *program,
                       const struct sb_dxbc_psv0 *psv)
{
    const struct sb_dxil_entry_point *e = &program->entry_points[0];
    const struct sb_dxbc_psv0_runtime_info *info = &psv->info;
    check_stage(c, e, info);
    /* The entry's resource field is dx.resources itself; a null one leaves dx.resources. */
    check_resources(c, e->has_resources ? &e->resources : &program->resources, psv);
    if (info->version >= 1) {
        same(c, "psv0.shader_stage", e->shader_kind, info->shader_stage);
        check_psv_signature(c, "input_elements", &e->signatures[SB_DXIL_SIGNATURE_INPUT],
                            psv->input_elements, psv->input_element_count);
        check_psv_signature(c, "output_elements", &e->signatures[SB_DXIL_SIGNATURE_OUTPUT],
                            psv->output_elements, psv->output_element_count);
        check_psv_signature(c, "patch_const_or_prim_elements",
                            &e->signatures[SB_DXIL_SIGNATURE_PATCH_CONSTANT],
                            psv->patch_const_or_prim_elements,
                            psv->patch_const_or_prim_element_count);
    }
    if (info->version >= 2) {
        const uint32_t *threads = e->has_ms_state ? e->ms.num_threads
                                  : e->has_as_state ? e->as.num_threads
                                                    : e->num_threads;
        same(c, "psv0.num_threads_x", threads[0], info->num_threads_x);
        same(c, "psv0.num_threads_y", threads[1], info->num_threads_y);
        same(c, "psv0.num_threads_z", threads[2], info->num_threads_z);
    }
    if (info->version >= 3 && info->entry_function_name && strcmp(e->name, info->entry_function_name))
        mismatch(c, "psv0.entry_function_name", "metadata \"%s\", part \"%s\"", e->name,
                 info->entry_function_name);
}

/* One row of a metadata element as a signature part lists it. */
struct part_row {
    const struct sb_dxil_signature_element *element;
    uint32_t row;
    uint32_t register_index; /**< UINT32_MAX when not allocated */
    uint32_t sequence;       /**< position before sorting: keeps the sort stable */
};

/* Parts order rows by stream, then register, then metadata order. */
static int compare_rows(const void *a, const void *b)
{
    const struct part_row *x = a, *y = b;
    uint64_t kx = (uint64_t)x->element->output_stream << 32 | x->register_index;
    uint64_t ky = (uint64_t)y->element->output_stream << 32 | y->register_index;
    if (kx != ky)
        return kx < ky ? -1 : 1;
    return x->sequence < y->sequence ? -1 : x->sequence > y->sequence;
}

/*
 * The rows a signature part holds for `sig`, in its order: one per semantic index
 * (an element whose index list is longer than its rows, as dxc 1.7 writes arrayed mesh
 * outputs, repeats its last row), sorted by stream, then register, unallocated rows
 * last. NULL when out of memory.
 */
static struct part_row *part_rows(const struct sb_dxil_signature *sig, uint32_t *count)
{
    size_t total = 0;
    for (uint32_t i = 0; i < sig->element_count; i++) {
        const struct sb_dxil_signature_element *e = &sig->elements[i];
        total += e->semantic_index_count > e->rows ? e->semantic_index_count : e->rows;
    }
    if (total > UINT32_MAX)
        return NULL;
    struct part_row *rows = calloc(total ? total : 1, sizeof(*rows));
    if (!rows)
        return NULL;
    uint32_t n = 0;
    for (uint32_t i = 0; i < sig->element_count; i++) {
        const struct sb_dxil_signature_element *e = &sig->elements[i];
        uint32_t entries = e->semantic_index_count > e->rows ? e->semantic_index_count : e->rows;
        uint32_t last = e->rows ? e->rows - 1 : 0;
        for (uint32_t row = 0; row < entries; row++, n++)
            rows[n] = (struct part_row){
                .element = e, .row = row, .sequence = n,
                .register_index = e->start_row < 0 ? UINT32_MAX
                                                   : (uint32_t)e->start_row + (row < e->rows ? row : last),
            };
    }
    qsort(rows, total, sizeof(*rows), compare_rows);
    *count = (uint32_t)total;
    return rows;
}

static void check_signature_part(struct checker *c, const char *part_name, uint32_t domain,
                                 bool inputs, const struct sb_dxil_signature *sig,
                                 const struct sb_dxbc_signature *part)
{
    char field[64];
    uint32_t count = 0;
    struct part_row *rows = part_rows(sig, &count);
    if (!rows) {
        mismatch(c, part_name, "out of memory comparing the signature");
        return;
    }
    for (uint32_t n = 0; n < count && n < part->element_count; n++) {
        const struct sb_dxil_signature_element *e = rows[n].element;
        uint32_t row = rows[n].row;
        const struct sb_dxbc_signature_element *p = &part->elements[n];
        uint32_t start_col = e->start_col < 0 ? 0 : (uint32_t)e->start_col;
#define SIG_FIELD(name, a, b) \
    (snprintf(field, sizeof(field), "%s[%u]." name, part_name, n), same(c, field, a, b))
        if (strcmp(e->semantic_name, p->semantic_name)) {
            snprintf(field, sizeof(field), "%s[%u].semantic_name", part_name, n);
            mismatch(c, field, "metadata \"%s\", part \"%s\"", e->semantic_name,
                     p->semantic_name);
        }
        if (row < e->semantic_index_count)
            SIG_FIELD("semantic_index", e->semantic_indices[row], p->semantic_index);
        SIG_FIELD("system_value", sb_dxil_semantic_system_value(e->semantic_kind, row, domain), p->system_value);
        SIG_FIELD("component_type", signature_component_type(e->component_type),
                  p->component_type);
        SIG_FIELD("register", rows[n].register_index, p->register_index);
        SIG_FIELD("mask", ((1u << e->cols) - 1) << start_col, p->mask);
        SIG_FIELD("stream", e->output_stream, p->stream);
        /* An input's exclusive mask is the components it reads: UsageCompMask, shifted to
         * the element's column. Outputs' (never written) also reflect writes the metadata
         * does not record, so they are not compared. */
        if (inputs)
            SIG_FIELD("rw_mask", (e->usage_mask << start_col) & 0xf, p->rw_mask);
#undef SIG_FIELD
    }
    free(rows);
    snprintf(field, sizeof(field), "%s.count", part_name);
    same(c, field, count, part->element_count);
}

uint32_t sb_dxil_program_info_check(const struct sb_dxil_program_info *info,
                                    const struct sb_dxbc *dxbc, sb_dxil_mismatch_fn report,
                                    void *user)
{
    struct checker c = { .report = report, .user = user, .count = 0 };
    if (!info || !dxbc || info->entry_point_count == 0)
        return 0;
    const struct sb_dxil_entry_point *e = &info->entry_points[0];
    static const struct {
        uint32_t fourcc;
        const char *name;
        enum sb_dxil_signature_list list;
    } PARTS[3] = {
        { SB_FOURCC('I', 'S', 'G', '1'), "ISG1", SB_DXIL_SIGNATURE_INPUT },
        { SB_FOURCC('O', 'S', 'G', '1'), "OSG1", SB_DXIL_SIGNATURE_OUTPUT },
        { SB_FOURCC('P', 'S', 'G', '1'), "PSG1", SB_DXIL_SIGNATURE_PATCH_CONSTANT },
    };
    for (uint32_t i = 0; i < 3; i++) {
        const struct sb_dxbc_part *part = sb_dxbc_find_part(dxbc, PARTS[i].fourcc);
        if (part && part->decoded.signature)
            check_signature_part(&c, PARTS[i].name, domain_of(e),
                                 PARTS[i].list == SB_DXIL_SIGNATURE_INPUT, &e->signatures[PARTS[i].list],
                                 part->decoded.signature);
    }
    const struct sb_dxbc_part *psv = sb_dxbc_find_part(dxbc, SB_FOURCC('P', 'S', 'V', '0'));
    if (psv && psv->decoded.psv0)
        check_psv0(&c, info, psv->decoded.psv0);
    return c.count;
}
