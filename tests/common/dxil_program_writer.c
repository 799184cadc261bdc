/* SPDX-License-Identifier: MIT */
/*
 * The container side of dxil_program_writer.h: dx.* metadata and the SFI0,
 * ISG1/OSG1, PSV0 and DXIL parts from one program description
 * (../shared/docs/dxil.md §1, §4; ../shared/docs/dxcontainer.md §2, §4-§6).
 */
#include "dxil_program_writer.h"

#include <stdio.h>
#include <string.h>

#include "shaderbridge/dxbc_dxil.h"

/* dx.shaderModel's stage names, by shader kind (docs/dxil.md §4.1). */
static const char *const STAGE_NAMES[] = {
    [SB_DXIL_SHADER_KIND_PIXEL] = "ps", [SB_DXIL_SHADER_KIND_VERTEX] = "vs",
    [SB_DXIL_SHADER_KIND_GEOMETRY] = "gs", [SB_DXIL_SHADER_KIND_HULL] = "hs",
    [SB_DXIL_SHADER_KIND_DOMAIN] = "ds", [SB_DXIL_SHADER_KIND_COMPUTE] = "cs",
    [SB_DXIL_SHADER_KIND_MESH] = "ms", [SB_DXIL_SHADER_KIND_AMPLIFICATION] = "as",
};
/* Signature rows a description may use (D3D's 32 input/output registers). */
enum { MAX_ROWS = 32, MAX_ELEMENTS = 16, MAX_RESOURCES = 16 };
/* Input->output table: MaskDwords(32 rows) * 32 rows * 4 components (container §6.1). */
enum { MAX_IO_TABLE_DWORDS = ((MAX_ROWS + 7) >> 3) * MAX_ROWS * 4 };

/* ---- metadata (docs/dxil.md §4) ------------------------------------------ */

static uint32_t md_i8(struct dxil_module *m, int8_t v) { return dm_md_value(m, dm_i8(m, v)); }

/* The elements of list `list` (DXIL_LIST_*). */
static const struct dxil_sig_element *list_elements(const struct dxil_program_desc *d,
                                                    unsigned list, unsigned *count)
{
    *count = list == DXIL_LIST_INPUT    ? d->input_count
             : list == DXIL_LIST_OUTPUT ? d->output_count
                                        : d->patch_constant_count;
    return list == DXIL_LIST_INPUT    ? d->inputs
           : list == DXIL_LIST_OUTPUT ? d->outputs
                                      : d->patch_constants;
}

/* Rows and start column of element `i` of `list`: its dxil_sig_shape, else 1 and 0. */
static struct dxil_sig_shape shape_of(const struct dxil_program_desc *d, unsigned list,
                                      unsigned i)
{
    for (unsigned k = 0; k < d->shape_count; k++)
        if (d->shapes[k].list == list && d->shapes[k].element == i)
            return d->shapes[k];
    return (struct dxil_sig_shape){ .list = (uint8_t)list, .element = (uint8_t)i, .rows = 1,
                                    .start_col = 0, .unallocated = false };
}

/* One element record, 11 fields (docs/dxil.md §4.4). Field 10 is the tag list
 * {3 UsageCompMask, mask}: every column is used (the programs read and write whole
 * elements, as ISG1/OSG1 say too). */
static uint32_t md_element(struct dxil_module *m, uint32_t id, const struct dxil_sig_element *e,
                           struct dxil_sig_shape shape)
{
    uint32_t index[MAX_ROWS];
    for (unsigned r = 0; r < shape.rows; r++)
        index[r] = dm_md_i32(m, (int32_t)(e->semantic_index + r));
    uint32_t usage[2] = { dm_md_i32(m, 3), dm_md_i32(m, (1 << e->cols) - 1) };
    uint32_t ops[11] = {
        dm_md_i32(m, (int32_t)id), dm_md_string(m, e->semantic),
        md_i8(m, (int8_t)e->component_type),
        md_i8(m, (int8_t)e->semantic_kind), dm_md_node(m, index, shape.rows),
        md_i8(m, (int8_t)e->interpolation), dm_md_i32(m, shape.rows), md_i8(m, (int8_t)e->cols),
        dm_md_i32(m, shape.unallocated ? -1 : e->start_row),
        md_i8(m, shape.unallocated ? -1 : (int8_t)shape.start_col), dm_md_node(m, usage, 2),
    };
    return dm_md_node(m, ops, 11);
}

static uint32_t md_signature(struct dxil_module *m, const struct dxil_program_desc *d,
                             unsigned list)
{
    unsigned count;
    const struct dxil_sig_element *e = list_elements(d, list, &count);
    if (count == 0)
        return DM_NONE;
    uint32_t ops[MAX_ELEMENTS];
    for (unsigned i = 0; i < count; i++)
        ops[i] = md_element(m, i, &e[i], shape_of(d, list, i));
    return dm_md_node(m, ops, count);
}

/* Field 5 of a resource record: a description's 0 means one register. */
static uint32_t range_size(const struct dxil_resource *r)
{
    return r->range_size ? r->range_size : 1;
}

/* The tag list of an SRV or UAV (docs/dxil.md §4.5): element type, structure stride,
 * sampler-feedback type; DM_NONE (null) when it has none. */
static uint32_t md_view_tags(struct dxil_module *m, const struct dxil_resource *r)
{
    uint32_t tags[6];
    unsigned n = 0;
    if (r->element_type) {
        tags[n++] = dm_md_i32(m, 0);
        tags[n++] = dm_md_i32(m, (int32_t)r->element_type);
    }
    if (r->struct_stride) {
        tags[n++] = dm_md_i32(m, 1);
        tags[n++] = dm_md_i32(m, (int32_t)r->struct_stride);
    }
    /* Feedback textures always carry tag 2, whose 0 (MinMip) is a value, not absence. */
    if (r->kind == DXIL_KIND_FEEDBACK_TEXTURE2D || r->kind == DXIL_KIND_FEEDBACK_TEXTURE2D_ARRAY) {
        tags[n++] = dm_md_i32(m, 2);
        tags[n++] = dm_md_i32(m, (int32_t)r->sampler_feedback_type);
    }
    return n ? dm_md_node(m, tags, n) : DM_NONE;
}

/* PSV ResType (dxcontainer.md §6) of a resource. */
static uint32_t psv_resource_type(const struct dxil_resource *r)
{
    bool raw = r->kind == DXIL_KIND_RAW_BUFFER, structured = r->kind == DXIL_KIND_STRUCTURED_BUFFER;
    switch (r->resource_class) {
    case DXIL_CLASS_SAMPLER: return 1;
    case DXIL_CLASS_CBV: return 2;
    case DXIL_CLASS_SRV: return structured ? 5 : raw ? 4 : 3;
    default: return structured ? (r->has_counter ? 9 : 8) : raw ? 7 : 6;
    }
}

/* dx.resources: !{SRVs, UAVs, CBVs, Samplers} (docs/dxil.md §4.5); DM_NONE when empty. */
static uint32_t md_resources(struct dxil_module *m, const struct dxil_program_desc *d)
{
    if (d->resource_count == 0)
        return DM_NONE;
    uint32_t lists[4];
    for (uint8_t cls = 0; cls < 4; cls++) {
        uint32_t records[MAX_RESOURCES];
        unsigned n = 0;
        for (unsigned i = 0; i < d->resource_count; i++) {
            const struct dxil_resource *r = &d->resources[i];
            if (r->resource_class != cls)
                continue;
            uint32_t i32 = dm_type_int(m, 32);
            uint32_t handle_type = dm_type_struct(m, r->type_name, &i32, 1);
            uint32_t variable = dm_undef(m, dm_type_ptr(m, handle_type, 0));
            uint32_t ops[11] = {
                dm_md_i32(m, (int32_t)n), dm_md_value(m, variable),
                dm_md_string(m, ""), dm_md_i32(m, (int32_t)r->space),
                dm_md_i32(m, (int32_t)r->lower_bound), dm_md_i32(m, (int32_t)range_size(r)),
            };
            unsigned count;
            if (cls == DXIL_CLASS_UAV) {
                uint32_t no = dm_md_value(m, dm_i1(m, false));
                ops[6] = dm_md_i32(m, (int32_t)r->kind);
                ops[7] = no; /* globally coherent */
                ops[8] = dm_md_value(m, dm_i1(m, r->has_counter));
                ops[9] = no; /* rasterizer ordered */
                ops[10] = md_view_tags(m, r);
                count = 11;
            } else if (cls == DXIL_CLASS_SRV) {
                ops[6] = dm_md_i32(m, (int32_t)r->kind);
                ops[7] = dm_md_i32(m, (int32_t)r->sample_count);
                ops[8] = md_view_tags(m, r);
                count = 9;
            } else if (cls == DXIL_CLASS_SAMPLER) {
                ops[6] = dm_md_i32(m, (int32_t)r->sampler_kind);
                ops[7] = DM_NONE;
                count = 8;
            } else { /* DXIL_CLASS_CBV */
                ops[6] = dm_md_i32(m, (int32_t)r->cbuffer_size);
                ops[7] = DM_NONE;
                count = 8;
            }
            records[n++] = dm_md_node(m, ops, count);
        }
        lists[cls] = n ? dm_md_node(m, records, n) : DM_NONE;
    }
    return dm_md_node(m, lists, 4);
}

static void add_metadata(struct dxil_module *m, const struct dxil_program_desc *d)
{
    uint32_t ident = dm_md_string(m, "shaderbridge tests/common DXIL writer");
    uint32_t ident_node = dm_md_node(m, &ident, 1);
    uint32_t version_ops[2] = { dm_md_i32(m, 1), dm_md_i32(m, d->sm_minor) };
    uint32_t version = dm_md_node(m, version_ops, 2);
    uint32_t valver_ops[2] = { dm_md_i32(m, 1), dm_md_i32(m, 8) };
    uint32_t valver = dm_md_node(m, valver_ops, 2);
    uint32_t sm_ops[3] = { dm_md_string(m, STAGE_NAMES[d->shader_kind]), dm_md_i32(m, 6),
                           dm_md_i32(m, d->sm_minor) };
    uint32_t shader_model = dm_md_node(m, sm_ops, 3);
    uint32_t resources = md_resources(m, d);

    uint32_t in = md_signature(m, d, DXIL_LIST_INPUT);
    uint32_t out = md_signature(m, d, DXIL_LIST_OUTPUT);
    uint32_t patch = md_signature(m, d, DXIL_LIST_PATCH_CONSTANT);
    uint32_t sigs = DM_NONE;
    if (in != DM_NONE || out != DM_NONE || patch != DM_NONE) {
        uint32_t sig_ops[3] = { in, out, patch };
        sigs = dm_md_node(m, sig_ops, 3);
    }
    /* Properties: tag 0 shader flags (i64), tag 4 thread-group size, tag 2 DSState,
     * tag 3 HSState (docs §4.2). */
    uint32_t props_ops[6];
    unsigned props_count = 0;
    if (d->shader_flags) {
        props_ops[props_count++] = dm_md_i32(m, 0);
        props_ops[props_count++] = dm_md_value(m, dm_const_int(m, dm_type_int(m, 64),
                                                               (int64_t)d->shader_flags));
    }
    if (d->shader_kind == SB_DXIL_SHADER_KIND_GEOMETRY) {
        const uint32_t fields[5] = { d->gs->input_primitive, d->gs->max_vertex_count,
                                     d->gs->stream_mask, d->gs->output_topology,
                                     d->gs->instance_count };
        uint32_t state[5];
        for (unsigned i = 0; i < 5; i++)
            state[i] = dm_md_i32(m, (int32_t)fields[i]);
        props_ops[props_count++] = dm_md_i32(m, 1);
        props_ops[props_count++] = dm_md_node(m, state, 5);
    }
    if (d->shader_kind == SB_DXIL_SHADER_KIND_COMPUTE) {
        uint32_t threads[3];
        for (unsigned i = 0; i < 3; i++)
            threads[i] = dm_md_i32(m, (int32_t)d->num_threads[i]);
        props_ops[props_count++] = dm_md_i32(m, 4);
        props_ops[props_count++] = dm_md_node(m, threads, 3);
        /* Tag 11 WaveSize !{i32 N} ([WaveSize(N)], SM 6.6). */
        if (d->wave_size) {
            uint32_t size = dm_md_i32(m, (int32_t)d->wave_size);
            props_ops[props_count++] = dm_md_i32(m, 11);
            props_ops[props_count++] = dm_md_node(m, &size, 1);
        }
    }
    const struct dxil_tess_desc *t = &d->tess;
    if (d->shader_kind == SB_DXIL_SHADER_KIND_DOMAIN) {
        uint32_t state[2] = { dm_md_i32(m, (int32_t)t->domain),
                              dm_md_i32(m, (int32_t)t->input_control_points) };
        props_ops[props_count++] = dm_md_i32(m, 2);
        props_ops[props_count++] = dm_md_node(m, state, 2);
    }
    if (d->shader_kind == SB_DXIL_SHADER_KIND_HULL) {
        uint32_t state[7] = {
            dm_md_value(m, t->patch_function), dm_md_i32(m, (int32_t)t->input_control_points),
            dm_md_i32(m, (int32_t)t->output_control_points), dm_md_i32(m, (int32_t)t->domain),
            dm_md_i32(m, (int32_t)t->partitioning), dm_md_i32(m, (int32_t)t->output_primitive),
            dm_md_value(m, dm_f32(m, t->max_tess_factor)),
        };
        props_ops[props_count++] = dm_md_i32(m, 3);
        props_ops[props_count++] = dm_md_node(m, state, 7);
    }
    if (d->shader_kind == SB_DXIL_SHADER_KIND_MESH ||
        d->shader_kind == SB_DXIL_SHADER_KIND_AMPLIFICATION) {
        /* Tag 9 MSState !{!{x,y,z}, maxVertices, maxPrimitives, topology, payload bytes};
         * tag 10 ASState !{!{x,y,z}, payload bytes} (docs/dxil.md §4.2). */
        bool is_mesh = d->shader_kind == SB_DXIL_SHADER_KIND_MESH;
        uint32_t threads[3];
        for (unsigned i = 0; i < 3; i++)
            threads[i] = dm_md_i32(m, (int32_t)d->num_threads[i]);
        uint32_t state[5] = { dm_md_node(m, threads, 3) };
        unsigned n = 1;
        if (is_mesh) {
            state[n++] = dm_md_i32(m, (int32_t)d->max_vertices);
            state[n++] = dm_md_i32(m, (int32_t)d->max_primitives);
            state[n++] = dm_md_i32(m, d->mesh_topology);
        }
        state[n++] = dm_md_i32(m, (int32_t)d->payload_size);
        props_ops[props_count++] = dm_md_i32(m, is_mesh ? 9 : 10);
        props_ops[props_count++] = dm_md_node(m, state, n);
    }
    uint32_t props = props_count ? dm_md_node(m, props_ops, props_count) : DM_NONE;
    /* A null entry function: a hull shader's pass-through control-point phase. */
    uint32_t entry_ops[5] = { d->entry == DM_NONE ? DM_NONE : dm_md_value(m, d->entry),
                              dm_md_string(m, d->entry_name), sigs, resources, props };
    uint32_t entry = dm_md_node(m, entry_ops, 5);

    dm_md_named(m, "llvm.ident", &ident_node, 1);
    dm_md_named(m, "dx.version", &version, 1);
    dm_md_named(m, "dx.valver", &valver, 1);
    dm_md_named(m, "dx.shaderModel", &shader_model, 1);
    if (resources != DM_NONE)
        dm_md_named(m, "dx.resources", &resources, 1);
    dm_md_named(m, "dx.entryPoints", &entry, 1);
}

/* ---- container parts ------------------------------------------------------ */

/* Signature component type: DXIL's ComponentType -> container §5.2. */
static uint32_t container_component_type(uint8_t dxil)
{
    switch (dxil) {
    case DXIL_COMP_F32:
    case DXIL_COMP_F16: return 3; /* a 16-bit float element is a float32 register */
    case DXIL_COMP_U32: return 1;
    case DXIL_COMP_I32: return 2;
    default: return 0;
    }
}

/* D3D_NAME (container §5.1) of row `row` of an element of a DXIL semantic kind; tess
 * factors are named by domain (11/12 quad edge/inside, 13/14 tri, 15/16 isoline
 * detail/density: row 0 of an isoline's SV_TessFactor is the density). */
static uint32_t d3d_system_value(uint8_t kind, uint32_t domain, unsigned row)
{
    switch (kind) {
    case DXIL_SEM_POSITION: return 1;
    case DXIL_SEM_VERTEX_ID: return 6;
    case DXIL_SEM_IS_FRONT_FACE: return 9;
    case DXIL_SEM_DEPTH: return 65;
    case DXIL_SEM_TARGET: return 64;
    case DXIL_SEM_TESS_FACTOR: return domain == 3 ? 11 : domain == 2 ? 13 : 16 - (row & 1);
    case DXIL_SEM_INSIDE_TESS_FACTOR: return domain == 3 ? 12 : 14;
    case DXIL_SEM_BARYCENTRICS: return 23;
    case DXIL_SEM_SHADING_RATE: return 24;
    default: return 0;
    }
}

/* ISG1 / OSG1 / PSG1 (container §5): one entry per element row. Inputs: every
 * component is read; outputs: none is left unwritten (the test programs use whole
 * elements). */
static struct tbuf signature_part(const struct dxil_program_desc *d, unsigned list, bool input)
{
    unsigned count, entries = 0;
    const struct dxil_sig_element *e = list_elements(d, list, &count);
    for (unsigned i = 0; i < count; i++)
        entries += shape_of(d, list, i).rows;
    struct tbuf b = { 0 };
    tb_u32(&b, entries);
    tb_u32(&b, 8);
    uint32_t name_offset = 8 + 32 * entries;
    for (unsigned i = 0; i < count; i++) {
        struct dxil_sig_shape shape = shape_of(d, list, i);
        uint8_t mask = (uint8_t)(((1u << e[i].cols) - 1) << shape.start_col);
        for (unsigned r = 0; r < shape.rows; r++) {
            tb_u32(&b, 0); /* stream */
            tb_u32(&b, name_offset);
            tb_u32(&b, e[i].semantic_index + r);
            tb_u32(&b, d3d_system_value(e[i].semantic_kind, d->tess.domain, r));
            tb_u32(&b, container_component_type(e[i].component_type));
            tb_u32(&b, shape.unallocated ? 0xFFFFFFFFu : e[i].start_row + r);
            tb_u8(&b, mask);
            tb_u8(&b, input ? mask : 0);
            tb_u16(&b, 0);
            tb_u32(&b, 0); /* default precision */
        }
        name_offset += (uint32_t)strlen(e[i].semantic) + 1;
    }
    for (unsigned i = 0; i < count; i++)
        tb_str(&b, e[i].semantic);
    tb_align4(&b);
    return b;
}

/* PSV0's SigInputVectors / SigOutputVectors / SigPatchConstOrPrimVectors: the rows
 * the elements reach. */
static uint8_t vectors(const struct dxil_program_desc *d, unsigned list)
{
    unsigned count;
    const struct dxil_sig_element *e = list_elements(d, list, &count);
    uint8_t rows = 0;
    for (unsigned i = 0; i < count; i++) {
        struct dxil_sig_shape shape = shape_of(d, list, i);
        if (!shape.unallocated && e[i].start_row + (unsigned)shape.rows > rows)
            rows = (uint8_t)(e[i].start_row + shape.rows);
    }
    return rows;
}

/* PSV0 elements (container §6.4) of `list`; their semantic indices are consecutive
 * entries of the semantic-index table from *next_index on. */
static void psv_elements(struct tbuf *b, const struct dxil_program_desc *d, unsigned list,
                         const uint32_t *name_offsets, uint32_t *next_index)
{
    unsigned count;
    const struct dxil_sig_element *e = list_elements(d, list, &count);
    for (unsigned i = 0; i < count; i++) {
        struct dxil_sig_shape shape = shape_of(d, list, i);
        /* Unallocated: start row and column read as -1 (0xFF, 3 in the two bits). */
        uint8_t start_col = shape.unallocated ? 3u : shape.start_col;
        tb_u32(b, name_offsets[i]);
        tb_u32(b, *next_index);
        *next_index += shape.rows;
        tb_u8(b, shape.rows);
        tb_u8(b, shape.unallocated ? 0xFFu : e[i].start_row);
        tb_u8(b, (uint8_t)(e[i].cols | start_col << 4 | (shape.unallocated ? 0u : 1u << 6)));
        tb_u8(b, e[i].semantic_kind);
        tb_u8(b, (uint8_t)container_component_type(e[i].component_type));
        tb_u8(b, e[i].interpolation);
        tb_u8(b, 0);                         /* no dynamic indexing, stream 0 */
        tb_u8(b, 0);
    }
}

/* The semantic indices of `list`'s element rows (PSV0 semantic-index table). */
static void psv_semantic_indices(struct tbuf *b, const struct dxil_program_desc *d,
                                 unsigned list)
{
    unsigned count;
    const struct dxil_sig_element *e = list_elements(d, list, &count);
    for (unsigned i = 0; i < count; i++)
        for (unsigned r = 0; r < shape_of(d, list, i).rows; r++)
            tb_u32(b, e[i].semantic_index + r);
}

/* An all-zero PSV0 dependency table of `in` to `out` vectors (container §6.1): the
 * test programs state none beyond the input->output one. */
static void psv_empty_table(struct tbuf *b, uint8_t in, uint8_t out)
{
    for (uint32_t i = 0; i < ((out + 7u) >> 3) * in * 4u; i++)
        tb_u32(b, 0);
}

/* Offset of `s` in the PSV string table, appended unless already there (names repeat
 * across the input and output signatures). */
static uint32_t psv_string(struct tbuf *strings, const char *s)
{
    size_t at = 0;
    while (at < strings->size) {
        const char *present = (const char *)strings->data + at;
        if (strcmp(present, s) == 0)
            return (uint32_t)at;
        at += strlen(present) + 1;
    }
    uint32_t offset = (uint32_t)strings->size;
    tb_str(strings, s);
    return offset;
}

/* PSV0 at RuntimeInfo v3 (container §6), resources in the 24-byte form. */
static struct tbuf psv0_part(const struct dxil_program_desc *d)
{
    struct tbuf b = { 0 }, strings = { 0 };
    uint8_t in_vectors = vectors(d, DXIL_LIST_INPUT);
    uint8_t out_vectors = vectors(d, DXIL_LIST_OUTPUT);
    uint8_t patch_vectors = vectors(d, DXIL_LIST_PATCH_CONSTANT);
    tb_u8(&strings, 0); /* offset 0: the empty name of system values */
    uint32_t names[3][MAX_ELEMENTS] = { { 0 } };
    unsigned counts[3];
    for (unsigned list = 0; list < 3; list++) {
        const struct dxil_sig_element *e = list_elements(d, list, &counts[list]);
        for (unsigned i = 0; i < counts[list]; i++)
            if (e[i].semantic_kind == DXIL_SEM_ARBITRARY)
                names[list][i] = psv_string(&strings, e[i].semantic);
    }
    uint32_t entry_name = psv_string(&strings, d->entry_name);
    tb_align4(&strings);

    tb_u32(&b, 52);
    uint8_t stage[16] = { 0 };
    bool position = false;
    for (unsigned i = 0; i < d->output_count; i++)
        position |= d->outputs[i].semantic_kind == DXIL_SEM_POSITION;
    const struct dxil_tess_desc *t = &d->tess;
    if (d->shader_kind == SB_DXIL_SHADER_KIND_VERTEX)
        stage[0] = position;
    if (d->shader_kind == SB_DXIL_SHADER_KIND_HULL) {
        const uint32_t fields[4] = { t->input_control_points, t->output_control_points,
                                     t->domain, t->output_primitive };
        memcpy(stage, fields, sizeof(fields)); /* little-endian host (the writer's tbuf too) */
    }
    if (d->shader_kind == SB_DXIL_SHADER_KIND_DOMAIN) {
        memcpy(stage, &t->input_control_points, 4);
        stage[4] = position;
        memcpy(stage + 8, &t->domain, 4);
    }
    if (d->shader_kind == SB_DXIL_SHADER_KIND_GEOMETRY) {
        /* GS info: InputPrimitive, OutputTopology, OutputStreamMask (u32 each),
         * OutputPositionPresent (container §6). */
        const uint32_t gs[3] = { d->gs->input_primitive, d->gs->output_topology,
                                 d->gs->stream_mask };
        for (unsigned i = 0; i < 12; i++)
            stage[i] = (uint8_t)(gs[i / 4] >> (8 * (i % 4)));
        stage[12] = position;
    }
    tb_bytes(&b, stage, 16);
    tb_u32(&b, 0);           /* min wave lanes: unused */
    tb_u32(&b, 0xFFFFFFFFu); /* max wave lanes: unused */
    tb_u8(&b, (uint8_t)d->shader_kind);
    tb_u8(&b, 0);            /* no ViewID */
    /* The union at 26: a GS's MaxVertexCount (u16), else SigPatchConstOrPrimVectors. */
    if (d->gs) {
        tb_u16(&b, (uint16_t)d->gs->max_vertex_count);
    } else {
        tb_u8(&b, patch_vectors);
        tb_u8(&b, 0);
    }
    tb_u8(&b, (uint8_t)d->input_count);
    tb_u8(&b, (uint8_t)d->output_count);
    tb_u8(&b, (uint8_t)d->patch_constant_count);
    tb_u8(&b, in_vectors);
    tb_u8(&b, out_vectors);
    tb_u8(&b, 0);
    tb_u8(&b, 0);
    tb_u8(&b, 0);
    for (unsigned i = 0; i < 3; i++)
        tb_u32(&b, d->num_threads[i]);
    tb_u32(&b, entry_name);

    tb_u32(&b, d->resource_count);
    if (d->resource_count)
        tb_u32(&b, 24);
    for (unsigned i = 0; i < d->resource_count; i++) {
        const struct dxil_resource *r = &d->resources[i];
        tb_u32(&b, psv_resource_type(r));
        tb_u32(&b, r->space);
        tb_u32(&b, r->lower_bound);
        tb_u32(&b, range_size(r) == UINT32_MAX ? UINT32_MAX : r->lower_bound + range_size(r) - 1);
        tb_u32(&b, r->kind);
        tb_u32(&b, 0);
    }

    tb_u32(&b, (uint32_t)strings.size);
    tb_bytes(&b, strings.data, strings.size);
    uint32_t index_count = 0; /* one semantic index per element row */
    for (unsigned list = 0; list < 3; list++)
        for (unsigned i = 0; i < counts[list]; i++)
            index_count += shape_of(d, list, i).rows;
    tb_u32(&b, index_count);
    for (unsigned list = 0; list < 3; list++)
        psv_semantic_indices(&b, d, list);
    if (d->input_count || d->output_count || d->patch_constant_count) {
        uint32_t next_index = 0;
        tb_u32(&b, 16);
        for (unsigned list = 0; list < 3; list++)
            psv_elements(&b, d, list, names[list], &next_index);
    }
    /* Input -> output table: one mask of the output components per input component. */
    if (in_vectors && out_vectors) {
        uint32_t mask_dwords = (out_vectors + 7u) >> 3;
        uint32_t dwords = mask_dwords * in_vectors * 4u;
        uint32_t table[MAX_IO_TABLE_DWORDS] = { 0 };
        for (unsigned i = 0; i < d->dependency_count; i++) {
            const struct dxil_io_dependency *dep = &d->dependencies[i];
            uint32_t word = dep->input * mask_dwords + dep->output / 32u;
            if (word < dwords)
                table[word] |= 1u << (dep->output % 32u);
        }
        for (uint32_t i = 0; i < dwords; i++)
            tb_u32(&b, table[i]);
    }
    /* Hull: input -> patch constant; domain: patch constant -> output (container §6.1). */
    if (d->shader_kind == SB_DXIL_SHADER_KIND_HULL && patch_vectors && in_vectors)
        psv_empty_table(&b, in_vectors, patch_vectors);
    if (d->shader_kind == SB_DXIL_SHADER_KIND_DOMAIN && out_vectors && patch_vectors)
        psv_empty_table(&b, patch_vectors, out_vectors);
    tb_free(&strings);
    return b;
}

/* The DXIL part: 24-byte program header, then the bitcode (docs/dxil.md §1.1). */
static struct tbuf dxil_part(const struct dxil_program_desc *d, const struct tbuf *bitcode)
{
    struct tbuf b = { 0 };
    tb_u8(&b, (uint8_t)(0x60 | d->sm_minor));
    tb_u8(&b, 0);
    tb_u16(&b, d->shader_kind);
    tb_u32(&b, (uint32_t)(6 + (bitcode->size + 3) / 4));
    tb_bytes(&b, "DXIL", 4);
    tb_u8(&b, d->sm_minor); /* DXIL 1.minor */
    tb_u8(&b, 1);
    tb_u16(&b, 0);
    tb_u32(&b, 16);
    tb_u32(&b, (uint32_t)bitcode->size);
    tb_bytes(&b, bitcode->data, bitcode->size);
    tb_align4(&b);
    return b;
}

/* What the writer covers: vertex, pixel, geometry (with their GS state), hull, domain and
 * compute programs, element rows below 32, at most 16 elements per signature and 16
 * resources of the four classes, ranges that end by register 2^32 - 1. */
static bool description_ok(const struct dxil_program_desc *d)
{
    if (d->shader_kind != SB_DXIL_SHADER_KIND_PIXEL &&
        d->shader_kind != SB_DXIL_SHADER_KIND_VERTEX &&
        d->shader_kind != SB_DXIL_SHADER_KIND_GEOMETRY &&
        d->shader_kind != SB_DXIL_SHADER_KIND_COMPUTE &&
        d->shader_kind != SB_DXIL_SHADER_KIND_HULL &&
        d->shader_kind != SB_DXIL_SHADER_KIND_DOMAIN &&
        d->shader_kind != SB_DXIL_SHADER_KIND_MESH &&
        d->shader_kind != SB_DXIL_SHADER_KIND_AMPLIFICATION)
        return false;
    if ((d->shader_kind == SB_DXIL_SHADER_KIND_GEOMETRY) != (d->gs != NULL))
        return false;
    if (d->input_count > MAX_ELEMENTS || d->output_count > MAX_ELEMENTS ||
        d->patch_constant_count > MAX_ELEMENTS || d->resource_count > MAX_RESOURCES)
        return false;
    for (unsigned k = 0; k < d->shape_count; k++) {
        unsigned count;
        const struct dxil_sig_shape *shape = &d->shapes[k];
        const struct dxil_sig_element *e = shape->list <= DXIL_LIST_PATCH_CONSTANT
                                               ? list_elements(d, shape->list, &count)
                                               : NULL;
        if (!e || shape->element >= count || shape->rows < 1 ||
            e[shape->element].start_row + shape->rows > MAX_ROWS ||
            shape->start_col + e[shape->element].cols > 4)
            return false;
    }
    for (unsigned i = 0; i < d->patch_constant_count; i++)
        if (d->patch_constants[i].start_row >= MAX_ROWS || d->patch_constants[i].cols < 1 ||
            d->patch_constants[i].cols > 4)
            return false;
    for (unsigned i = 0; i < d->input_count; i++)
        if (d->inputs[i].start_row >= MAX_ROWS || d->inputs[i].cols < 1 || d->inputs[i].cols > 4)
            return false;
    for (unsigned i = 0; i < d->output_count; i++)
        if (d->outputs[i].start_row >= MAX_ROWS || d->outputs[i].cols < 1 ||
            d->outputs[i].cols > 4)
            return false;
    for (unsigned i = 0; i < d->resource_count; i++) {
        const struct dxil_resource *r = &d->resources[i];
        if (r->resource_class > DXIL_CLASS_SAMPLER)
            return false;
        if (range_size(r) != UINT32_MAX && range_size(r) - 1 > UINT32_MAX - r->lower_bound)
            return false; /* a range past register 2^32 - 1 */
    }
    return true;
}

bool dxil_program_write(struct dxil_module *m, const struct dxil_program_desc *d,
                        struct tbuf *out)
{
    if (!description_ok(d)) {
        fprintf(stderr, "dxil program writer: unsupported description\n");
        return false;
    }
    add_metadata(m, d);
    struct tbuf bitcode = { 0 };
    if (!dm_write(m, &bitcode)) {
        tb_free(&bitcode);
        return false;
    }
    struct tbuf sfi0 = { 0 };
    for (unsigned i = 0; i < 8; i++)
        tb_u8(&sfi0, 0); /* no optional feature needed */
    struct tbuf isg1 = signature_part(d, DXIL_LIST_INPUT, true);
    struct tbuf osg1 = signature_part(d, DXIL_LIST_OUTPUT, false);
    /* The domain shader reads its patch constants; the hull shader writes them. */
    struct tbuf psg1 = signature_part(d, DXIL_LIST_PATCH_CONSTANT,
                                      d->shader_kind == SB_DXIL_SHADER_KIND_DOMAIN);
    struct tbuf psv0 = psv0_part(d);
    struct tbuf dxil = dxil_part(d, &bitcode);
    /* dxc's order; PSG1 only where there are patch constants. */
    struct tpart parts[6] = {
        { DXIL_FOURCC("SFI0"), &sfi0 }, { DXIL_FOURCC("ISG1"), &isg1 },
        { DXIL_FOURCC("OSG1"), &osg1 }, { DXIL_FOURCC("PSG1"), &psg1 },
        { DXIL_FOURCC("PSV0"), &psv0 }, { DXIL_FOURCC("DXIL"), &dxil },
    };
    unsigned part_count = 6;
    if (d->shader_kind == SB_DXIL_SHADER_KIND_MESH ||
        d->shader_kind == SB_DXIL_SHADER_KIND_AMPLIFICATION) {
        /* SFI0 and DXIL only: the PSV0 written here is the vs/ps/cs/hs/ds RuntimeInfo, and
         * the DXIL front end reads the metadata. */
        parts[1] = parts[5];
        part_count = 2;
    } else if (!d->patch_constant_count) {
        memmove(&parts[3], &parts[4], 2 * sizeof(parts[0]));
        part_count = 5;
    }
    struct tbuf container = make_container(parts, part_count);
    tb_bytes(out, container.data, container.size);
    tb_free(&container);
    tb_free(&sfi0);
    tb_free(&isg1);
    tb_free(&osg1);
    tb_free(&psg1);
    tb_free(&psv0);
    tb_free(&dxil);
    tb_free(&bitcode);
    return true;
}
