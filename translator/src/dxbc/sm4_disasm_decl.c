/* SPDX-License-Identifier: MIT */
/*
 * fxc-syntax printing of declarations and custom-data blocks
 * (../shared/docs/sm4-tokens.md §8 spellings, §9.10 declarations, §9.11 immediate
 * constant buffer and shader messages, §5.5 SM5.1 range forms).
 *
 * Declarations print their register without components for descriptors
 * and with the mask for inputs and outputs; each form's spelling is a
 * table or a case here so unverified spellings (§11) stay easy to find.
 */
#include "sm4_private.h"

#include <stdio.h>
#include <string.h>

static const char *const system_value_names[] = {
    "undefined", "position", "clip_distance", "cull_distance", "rendertarget_array_index",
    "viewport_array_index", "vertex_id", "primitive_id", "instance_id", "is_front_face",
    "sampleIndex", "finalQuadUeq0EdgeTessFactor", "finalQuadVeq0EdgeTessFactor",
    "finalQuadUeq1EdgeTessFactor", "finalQuadVeq1EdgeTessFactor",
    "finalQuadUInsideTessFactor", "finalQuadVInsideTessFactor", "finalTriUeq0EdgeTessFactor",
    "finalTriVeq0EdgeTessFactor", "finalTriWeq0EdgeTessFactor", "finalTriInsideTessFactor",
    "finalLineDetailTessFactor", "finalLineDensityTessFactor",
};

static const char *const interpolation_names[] = {
    "", "constant", "linear", "linear centroid", "linear noperspective",
    "linear noperspective centroid", "linear sample", "linear noperspective sample",
};

static const char *const global_flag_names[] = {
    "refactoringAllowed", "enableDoublePrecisionFloatOps", "forceEarlyDepthStencil",
    "enableRawAndStructuredBuffers", "skipOptimization", "enableMinimumPrecision",
    "enable11_1DoubleExtensions", "enable11_1ShaderExtensions", "allResourcesBound",
};

static const char *const primitive_names[] = {
    "undefined", "point", "line", "triangle", "undefined4", "undefined5", "lineadj",
    "triangleadj",
};

static const char *const topology_names[] = {
    "undefined", "pointlist", "linelist", "linestrip", "trianglelist", "trianglestrip",
    "undefined6", "undefined7", "undefined8", "undefined9", "linelistadj", "linestripadj",
    "trianglelistadj", "trianglestripadj",
};

static const char *const domain_names[] = { "domain_undefined", "domain_isoline", "domain_tri",
                                            "domain_quad" };
static const char *const partitioning_names[] = {
    "partitioning_undefined", "partitioning_integer", "partitioning_pow2",
    "partitioning_fractional_odd", "partitioning_fractional_even",
};
static const char *const output_primitive_names[] = {
    "output_undefined", "output_point", "output_line", "output_triangle_cw",
    "output_triangle_ccw",
};
static const char *const sampler_mode_names[] = { "mode_default", "mode_comparison",
                                                  "mode_mono" };

#define NAME_OR(table, index, fallback)                                                    \
    ((index) < sizeof(table) / sizeof((table)[0]) ? (table)[index] : (fallback))

static void print_return_type(struct sb_sm4_text *t, const uint32_t types[4])
{
    sb_sm4_text_appendf(t, "(%s,%s,%s,%s)", sb_sm4_return_type_name(types[0]),
                        sb_sm4_return_type_name(types[1]), sb_sm4_return_type_name(types[2]),
                        sb_sm4_return_type_name(types[3]));
}

/*
 * The register of a descriptor declaration: `t0`, `cb0[8]` (SM4-5.0) or the
 * SM5.1 range form `T0[lo:hi]` (`*` for an unbounded upper end).
 */
static void print_descriptor(struct sb_sm4_printer *p, const struct sb_sm4_operand *op,
                             bool upper_cb)
{
    struct sb_sm4_text *t = p->text;
    if (p->is_sm51 && op->index_dimension == 3 && !op->index[0].relative &&
        !op->index[1].relative && !op->index[2].relative) {
        sb_sm4_print_register(p, &(struct sb_sm4_operand){ .type = op->type,
                                                           .index_dimension = 1,
                                                           .index[0] = op->index[0] });
        sb_sm4_text_appendf(t, "[%llu:", (unsigned long long)op->index[1].value);
        if (op->index[2].value == 0xffffffffu)
            sb_sm4_text_append(t, "*]");
        else
            sb_sm4_text_appendf(t, "%llu]", (unsigned long long)op->index[2].value);
        return;
    }
    if (upper_cb && op->type == SB_SM4_OPERAND_CONSTANT_BUFFER) {
        sb_sm4_text_append(t, "CB");
        for (uint32_t i = 0; i < op->index_dimension; i++)
            sb_sm4_text_appendf(t, i ? "[%llu]" : "%llu", (unsigned long long)op->index[i].value);
        return;
    }
    sb_sm4_print_register(p, op);
}

static void print_space(struct sb_sm4_printer *p, const struct sb_sm4_instruction *inst)
{
    if (p->is_sm51)
        sb_sm4_text_appendf(p->text, ", space=%u", inst->decl.space);
}

static void print_uav_flags(struct sb_sm4_text *t, uint32_t flags)
{
    if (flags & SB_SM4_UAV_GLOBALLY_COHERENT)
        sb_sm4_text_append(t, "_glc");
    if (flags & SB_SM4_UAV_ORDER_PRESERVING_COUNTER)
        sb_sm4_text_append(t, "_opc");
    if (flags & SB_SM4_UAV_RASTERIZER_ORDERED)
        sb_sm4_text_append(t, "_rov");
}

/* A declared register with its mask and precision (inputs, outputs, ranges). */
static void print_declared(struct sb_sm4_printer *p, const struct sb_sm4_operand *op)
{
    sb_sm4_print_register(p, op);
    sb_sm4_print_components(p, op);
    if (op->min_precision)
        sb_sm4_text_appendf(p->text, " {%s}", sb_sm4_precision_name(op->min_precision));
}

/* t#, s#, u#, cb# declarations (§9.10 first rows). */
static bool print_resource_decl(struct sb_sm4_printer *p, const struct sb_sm4_instruction *inst)
{
    struct sb_sm4_text *t = p->text;
    const struct sb_sm4_declaration *d = &inst->decl;
    const struct sb_sm4_operand *op = inst->operands;
    switch (inst->opcode) {
    case SB_SM4_OP_DCL_RESOURCE:
        sb_sm4_text_appendf(t, "dcl_resource_%s", sb_sm4_dimension_name(d->resource_dimension));
        if (d->resource_dimension == 4 || d->resource_dimension == 9)
            sb_sm4_text_appendf(t, "(%u)", d->sample_count);
        sb_sm4_text_append(t, " ");
        print_return_type(t, d->return_type);
        sb_sm4_text_append(t, " ");
        print_descriptor(p, op, false);
        break;
    case SB_SM4_OP_DCL_UAV_TYPED:
        sb_sm4_text_appendf(t, "dcl_uav_typed_%s", sb_sm4_dimension_name(d->resource_dimension));
        print_uav_flags(t, d->uav_flags);
        sb_sm4_text_append(t, " ");
        print_return_type(t, d->return_type);
        sb_sm4_text_append(t, " ");
        print_descriptor(p, op, false);
        break;
    case SB_SM4_OP_DCL_CONSTANT_BUFFER:
        sb_sm4_text_append(t, "dcl_constantbuffer ");
        print_descriptor(p, op, p->style.upper_cb_decl);
        if (p->is_sm51)
            sb_sm4_text_appendf(t, "[%u]", d->cb_size);
        sb_sm4_text_append(t, d->cb_dynamic_indexed ? ", dynamicIndexed" : ", immediateIndexed");
        break;
    case SB_SM4_OP_DCL_SAMPLER:
        sb_sm4_text_append(t, "dcl_sampler ");
        print_descriptor(p, op, false);
        sb_sm4_text_appendf(t, ", %s", NAME_OR(sampler_mode_names, d->sampler_mode, "mode_unknown"));
        break;
    case SB_SM4_OP_DCL_UAV_RAW:
    case SB_SM4_OP_DCL_UAV_STRUCTURED:
        sb_sm4_text_append(t, inst->opcode == SB_SM4_OP_DCL_UAV_RAW ? "dcl_uav_raw"
                                                                     : "dcl_uav_structured");
        print_uav_flags(t, d->uav_flags);
        sb_sm4_text_append(t, " ");
        print_descriptor(p, op, false);
        if (inst->opcode == SB_SM4_OP_DCL_UAV_STRUCTURED)
            sb_sm4_text_appendf(t, ", %u", d->stride);
        break;
    case SB_SM4_OP_DCL_RESOURCE_RAW:
        sb_sm4_text_append(t, "dcl_resource_raw ");
        print_descriptor(p, op, false);
        break;
    case SB_SM4_OP_DCL_RESOURCE_STRUCTURED:
        sb_sm4_text_append(t, "dcl_resource_structured ");
        print_descriptor(p, op, false);
        sb_sm4_text_appendf(t, ", %u", d->stride);
        print_space(p, inst);
        if (p->style.structured_space && !p->is_sm51)
            sb_sm4_text_append(t, " ");
        return true;
    default:
        return false;
    }
    if (inst->opcode != SB_SM4_OP_DCL_CONSTANT_BUFFER || p->is_sm51)
        print_space(p, inst);
    return true;
}

/* Inputs, outputs and system values (§9.10 "inputs" / "outputs" rows). */
static bool print_io_decl(struct sb_sm4_printer *p, const struct sb_sm4_instruction *inst)
{
    struct sb_sm4_text *t = p->text;
    const struct sb_sm4_declaration *d = &inst->decl;
    uint32_t op = inst->opcode;
    if (op < SB_SM4_OP_DCL_INPUT || op > SB_SM4_OP_DCL_OUTPUT_SIV)
        return false;
    sb_sm4_text_append(t, sb_sm4_opcode_name(op));
    sb_sm4_text_append(t, " ");
    bool interpolated = op == SB_SM4_OP_DCL_INPUT_PS || op == SB_SM4_OP_DCL_INPUT_PS_SIV ||
                        (op == SB_SM4_OP_DCL_INPUT_PS_SGV && p->style.sgv_interpolation);
    if (interpolated && d->interpolation != 0)
        sb_sm4_text_appendf(t, "%s ", NAME_OR(interpolation_names, d->interpolation,
                                              "interpolation_unknown"));
    print_declared(p, &inst->operands[0]);
    bool has_name = op == SB_SM4_OP_DCL_INPUT_SGV || op == SB_SM4_OP_DCL_INPUT_SIV ||
                    op == SB_SM4_OP_DCL_INPUT_PS_SGV || op == SB_SM4_OP_DCL_INPUT_PS_SIV ||
                    op == SB_SM4_OP_DCL_OUTPUT_SGV || op == SB_SM4_OP_DCL_OUTPUT_SIV;
    if (has_name)
        sb_sm4_text_appendf(t, ", %s", NAME_OR(system_value_names, d->system_value,
                                               "unknown_system_value"));
    return true;
}

static void print_id_list(struct sb_sm4_text *t, const char *prefix, const uint32_t *ids,
                          uint32_t count)
{
    sb_sm4_text_append(t, " = {");
    for (uint32_t i = 0; i < count; i++)
        sb_sm4_text_appendf(t, "%s%s%u", i ? ", " : "", prefix, ids[i]);
    sb_sm4_text_append(t, "}");
}

/* Declarations with no register or one plain register (§9.10 remaining rows). */
static void print_other_decl(struct sb_sm4_printer *p, const struct sb_sm4_instruction *inst)
{
    struct sb_sm4_text *t = p->text;
    const struct sb_sm4_declaration *d = &inst->decl;
    const char *name = sb_sm4_opcode_name(inst->opcode);
    switch (inst->opcode) {
    case SB_SM4_OP_DCL_GLOBAL_FLAGS: {
        sb_sm4_text_append(t, "dcl_globalFlags ");
        bool first = true;
        for (unsigned i = 0; i < 13; i++) {
            if (!(d->global_flags & (1u << i)))
                continue;
            if (!first)
                sb_sm4_text_append(t, " | ");
            first = false;
            if (i < sizeof(global_flag_names) / sizeof(global_flag_names[0]))
                sb_sm4_text_append(t, global_flag_names[i]);
            else
                sb_sm4_text_appendf(t, "unknown_flag_0x%x", 0x800u << i);
        }
        break;
    }
    case SB_SM4_OP_DCL_INDEX_RANGE:
        sb_sm4_text_append(t, "dcl_indexrange ");
        print_declared(p, &inst->operands[0]);
        sb_sm4_text_appendf(t, " %u", d->count);
        break;
    case SB_SM4_OP_DCL_STREAM:
    case SB_SM4_OP_DCL_TGSM_RAW:
    case SB_SM4_OP_DCL_TGSM_STRUCTURED:
        sb_sm4_text_appendf(t, "%s ", name);
        sb_sm4_print_register(p, &inst->operands[0]);
        if (inst->opcode == SB_SM4_OP_DCL_TGSM_RAW)
            sb_sm4_text_appendf(t, ", %u", d->count);
        else if (inst->opcode == SB_SM4_OP_DCL_TGSM_STRUCTURED)
            sb_sm4_text_appendf(t, ", %u, %u", d->stride, d->count);
        break;
    case SB_SM4_OP_DCL_OUTPUT_TOPOLOGY:
        sb_sm4_text_appendf(t, "dcl_outputtopology %s ",
                            NAME_OR(topology_names, d->primitive, "undefined"));
        break;
    case SB_SM4_OP_DCL_INPUT_PRIMITIVE:
        if (d->primitive >= 8 && d->primitive <= 39)
            sb_sm4_text_appendf(t, "dcl_inputprimitive patch%u ", d->primitive - 7);
        else
            sb_sm4_text_appendf(t, "dcl_inputprimitive %s ",
                                NAME_OR(primitive_names, d->primitive, "undefined"));
        break;
    case SB_SM4_OP_DCL_INDEXABLE_TEMP:
        sb_sm4_text_appendf(t, "dcl_indexableTemp x%u[%u], %u", d->indexable_register,
                            d->indexable_count, d->indexable_components);
        break;
    case SB_SM4_OP_DCL_TESS_DOMAIN:
        sb_sm4_text_appendf(t, "%s %s", name, NAME_OR(domain_names, d->tessellator, "?"));
        break;
    case SB_SM4_OP_DCL_TESS_PARTITIONING:
        sb_sm4_text_appendf(t, "%s %s", name, NAME_OR(partitioning_names, d->tessellator, "?"));
        break;
    case SB_SM4_OP_DCL_TESS_OUTPUT_PRIMITIVE:
        sb_sm4_text_appendf(t, "%s %s", name,
                            NAME_OR(output_primitive_names, d->tessellator, "?"));
        break;
    case SB_SM4_OP_DCL_HS_MAX_TESSFACTOR: {
        union { float f; uint32_t u; } pun = { .f = d->max_tessfactor };
        sb_sm4_text_appendf(t, "%s l(", name);
        sb_sm4_format_float(t, pun.u, p->style.old_rounding);
        sb_sm4_text_append(t, ")");
        break;
    }
    case SB_SM4_OP_DCL_THREAD_GROUP:
        sb_sm4_text_appendf(t, "%s %u, %u, %u", name, d->thread_group[0], d->thread_group[1],
                            d->thread_group[2]);
        break;
    case SB_SM4_OP_DCL_FUNCTION_BODY:
        sb_sm4_text_appendf(t, "%s fb%u", name, d->count);
        break;
    case SB_SM4_OP_DCL_FUNCTION_TABLE:
        sb_sm4_text_appendf(t, "%s ft%u", name, d->table_id);
        print_id_list(t, "fb", d->ids, d->id_count);
        break;
    case SB_SM4_OP_DCL_INTERFACE:
        sb_sm4_text_appendf(t, "%s fp%u[%u][%u]",
                            d->interface_dynamic ? "dcl_interface_dynamicindexed" : name,
                            d->table_id, d->interface_array_length, d->interface_table_length);
        print_id_list(t, "ft", d->ids, d->id_count);
        break;
    case SB_SM4_OP_HS_DECLS:
    case SB_SM4_OP_HS_CONTROL_POINT_PHASE:
    case SB_SM4_OP_HS_FORK_PHASE:
    case SB_SM4_OP_HS_JOIN_PHASE:
        sb_sm4_text_appendf(t, "%s ", name);
        break;
    default: /* the single-count declarations */
        sb_sm4_text_appendf(t, "%s %u", name, d->count);
        break;
    }
}

void sb_sm4_print_declaration(struct sb_sm4_printer *p, const struct sb_sm4_instruction *inst)
{
    if (print_resource_decl(p, inst) || print_io_decl(p, inst))
        return;
    print_other_decl(p, inst);
}

/* The immediate constant buffer: one `{ a, b, c, d}` row per line (§9.11). */
static void print_icb(struct sb_sm4_printer *p, const struct sb_sm4_custom_data *custom,
                      unsigned indent)
{
    static const char opening[] = "dcl_immediateConstantBuffer { ";
    struct sb_sm4_text *t = p->text;
    sb_sm4_text_append(t, opening);
    uint32_t rows = custom->dword_count / 4;
    for (uint32_t r = 0; r < rows; r++) {
        if (r) {
            sb_sm4_text_append(t, ",\n");
            sb_sm4_text_spaces(t, indent + (unsigned)(sizeof(opening) - 1));
        }
        sb_sm4_text_append(t, "{ ");
        for (unsigned c = 0; c < 4; c++) {
            if (c)
                sb_sm4_text_append(t, ", ");
            sb_sm4_format_value(t, custom->dwords[r * 4 + c], 'a', p->style.old_rounding);
        }
        sb_sm4_text_append(t, "}");
    }
    sb_sm4_text_append(t, rows ? " }" : "}");
}

/* printf / errorf with C escapes for \b \n \r \t and backslash, '.' for other
 * control characters (§9.11). */
static void print_message(struct sb_sm4_printer *p, const struct sb_sm4_instruction *inst)
{
    struct sb_sm4_text *t = p->text;
    const struct sb_sm4_custom_data *custom = &inst->custom;
    const char *verb = custom->message_id == SB_SM4_MESSAGE_ID_ERRORF ? "errorf" : "printf";
    if (custom->message_format == 0)
        verb = custom->message_id == SB_SM4_MESSAGE_ID_ERRORF ? "error" : "message";
    sb_sm4_text_appendf(t, "%s \"", verb);
    for (const unsigned char *s = (const unsigned char *)custom->message; *s; s++) {
        switch (*s) {
        case '\b': sb_sm4_text_append(t, "\\b"); break;
        case '\n': sb_sm4_text_append(t, "\\n"); break;
        case '\r': sb_sm4_text_append(t, "\\r"); break;
        case '\t': sb_sm4_text_append(t, "\\t"); break;
        case '\\': sb_sm4_text_append(t, "\\\\"); break;
        default:
            sb_sm4_text_appendf(t, "%c", *s < 0x20 || *s == 0x7f ? '.' : (char)*s);
            break;
        }
    }
    sb_sm4_text_append(t, "\"");
    for (uint32_t i = 0; i < inst->operand_count; i++) {
        sb_sm4_text_append(t, ", ");
        sb_sm4_print_operand(p, &inst->operands[i], 'a');
    }
}

void sb_sm4_print_custom_data(struct sb_sm4_printer *p, const struct sb_sm4_instruction *inst,
                              unsigned indent)
{
    const struct sb_sm4_custom_data *custom = &inst->custom;
    switch (custom->data_class) {
    case SB_SM4_CUSTOM_IMMEDIATE_CONSTANT_BUFFER:
        print_icb(p, custom, indent);
        break;
    case SB_SM4_CUSTOM_SHADER_MESSAGE:
        print_message(p, inst);
        break;
    default:
        /* fxc prints nothing we know of for comments, debug and opaque data and the
         * 10level9 clip-plane mappings (§11 item 9); a comment keeps the listing honest. */
        sb_sm4_text_appendf(p->text, "// custom data block, class %u, %u DWORDs",
                            custom->data_class, custom->dword_count);
        break;
    }
}
