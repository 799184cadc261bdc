/* SPDX-License-Identifier: MIT */
/*
 * sb_ir_print(): a readable text form of an IR program (translator/IR.md
 * §Text form) for tests, bug reports and `shaderbridge translate --ir`. One
 * line per declaration group and per instruction; each instruction line
 * starts with the byte offset of its source instruction so a reader can
 * find it in the input file.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_private.h"

struct text {
    char *data;
    size_t length, capacity;
    bool failed;
};

static void appendf(struct text *t, const char *format, ...) SB_IR_PRINTF(2, 3);
static void appendf(struct text *t, const char *format, ...)
{
    if (t->failed)
        return;
    va_list args, copy;
    va_start(args, format);
    va_copy(copy, args);
    int n = vsnprintf(NULL, 0, format, copy);
    va_end(copy);
    if (n < 0) {
        t->failed = true;
    } else {
        if (t->length + (size_t)n + 1 > t->capacity) {
            size_t cap = t->capacity ? t->capacity : 1024;
            while (cap < t->length + (size_t)n + 1)
                cap *= 2;
            char *fresh = realloc(t->data, cap);
            if (!fresh)
                t->failed = true;
            else {
                t->data = fresh;
                t->capacity = cap;
            }
        }
        if (!t->failed) {
            vsnprintf(t->data + t->length, (size_t)n + 1, format, args);
            t->length += (size_t)n;
        }
    }
    va_end(args);
}

/* Register-file spellings, one row per file (SM4-like where one exists). */
static const char *const file_names[SB_IR_FILE_COUNT] = {
    [SB_IR_FILE_NULL] = "null", [SB_IR_FILE_IMMEDIATE] = "l", [SB_IR_FILE_TEMP] = "r",
    [SB_IR_FILE_INDEXABLE_TEMP] = "x", [SB_IR_FILE_INPUT] = "v", [SB_IR_FILE_OUTPUT] = "o",
    [SB_IR_FILE_CONSTANT_BUFFER] = "cb", [SB_IR_FILE_IMMEDIATE_CONSTANT_BUFFER] = "icb",
    [SB_IR_FILE_SAMPLER] = "s", [SB_IR_FILE_RESOURCE] = "t", [SB_IR_FILE_UAV] = "u",
    [SB_IR_FILE_GROUP_SHARED] = "g", [SB_IR_FILE_LABEL] = "fn", [SB_IR_FILE_STREAM] = "m",
    [SB_IR_FILE_PRIMITIVE_ID] = "vPrim", [SB_IR_FILE_THREAD_ID] = "vThreadID",
    [SB_IR_FILE_THREAD_GROUP_ID] = "vThreadGroupID",
    [SB_IR_FILE_THREAD_ID_IN_GROUP] = "vThreadIDInGroup",
    [SB_IR_FILE_THREAD_ID_IN_GROUP_FLATTENED] = "vThreadIDInGroupFlattened",
    [SB_IR_FILE_COVERAGE_IN] = "vCoverage", [SB_IR_FILE_INNER_COVERAGE] = "vInnerCoverage",
    [SB_IR_FILE_GS_INSTANCE_ID] = "vGSInstanceID", [SB_IR_FILE_DOMAIN_POINT] = "vDomain",
    [SB_IR_FILE_OUTPUT_CONTROL_POINT_ID] = "vOutputControlPointID",
    [SB_IR_FILE_FORK_INSTANCE_ID] = "vForkInstanceID",
    [SB_IR_FILE_JOIN_INSTANCE_ID] = "vJoinInstanceID", [SB_IR_FILE_CYCLE_COUNTER] = "vCycleCounter",
    [SB_IR_FILE_INPUT_CONTROL_POINT] = "vicp", [SB_IR_FILE_OUTPUT_CONTROL_POINT] = "vocp",
    [SB_IR_FILE_INPUT_PATCH_CONSTANT] = "vpc", [SB_IR_FILE_DEPTH] = "oDepth",
    [SB_IR_FILE_DEPTH_GREATER_EQUAL] = "oDepthGE", [SB_IR_FILE_DEPTH_LESS_EQUAL] = "oDepthLE",
    [SB_IR_FILE_COVERAGE_OUT] = "oMask", [SB_IR_FILE_STENCIL_REF] = "oStencilRef",
    [SB_IR_FILE_FUNCTION_BODY] = "fb", [SB_IR_FILE_FUNCTION_TABLE] = "ft",
    [SB_IR_FILE_INTERFACE] = "fp", [SB_IR_FILE_THIS_POINTER] = "this",
    [SB_IR_FILE_PICA_FLOAT_UNIFORM] = "c", [SB_IR_FILE_PICA_INT_UNIFORM] = "i",
    [SB_IR_FILE_PICA_BOOL_UNIFORM] = "b", [SB_IR_FILE_PICA_ADDRESS] = "a",
    [SB_IR_FILE_PICA_CONDITION] = "cmp", [SB_IR_FILE_RASTERIZER] = "rasterizer",
    [SB_IR_FILE_VIEW_ID] = "vViewID", [SB_IR_FILE_HELPER_LANE] = "vHelperLane",
    [SB_IR_FILE_BASE_VERTEX] = "vBaseVertex", [SB_IR_FILE_BASE_INSTANCE] = "vBaseInstance",
    [SB_IR_FILE_MESH_VERTEX] = "oMeshVertex", [SB_IR_FILE_MESH_PRIMITIVE] = "oMeshPrimitive",
};

const char *sb_ir_file_name(uint32_t file)
{
    return file < SB_IR_FILE_COUNT && file_names[file] ? file_names[file] : "?";
}


static const char lanes[] = "xyzw";

static void print_operand(struct text *t, const struct sb_ir_operand *op, bool is_dst);

static void print_index(struct text *t, const struct sb_ir_index *index, bool bracket)
{
    if (!index->relative) {
        appendf(t, bracket ? "[%u]" : "%u", index->offset);
        return;
    }
    /* A relative index reads one lane: print it as r0.x, not r0.xxxx. */
    struct sb_ir_operand lane = *index->relative;
    lane.mask = (uint8_t)(1u << (lane.swizzle[0] & 3));
    appendf(t, "[");
    print_operand(t, &lane, lane.file != SB_IR_FILE_IMMEDIATE);
    appendf(t, " + %u]", index->offset);
}

static void print_operand(struct text *t, const struct sb_ir_operand *op, bool is_dst)
{
    const char *name = op->file < SB_IR_FILE_COUNT && file_names[op->file] ? file_names[op->file]
                                                                            : "?";
    if (op->modifiers & SB_IR_MOD_NEG)
        appendf(t, "-");
    if (op->modifiers & SB_IR_MOD_ABS)
        appendf(t, "|");
    if (op->file == SB_IR_FILE_IMMEDIATE) {
        appendf(t, "l(0x%08x, 0x%08x, 0x%08x, 0x%08x)", op->imm[0], op->imm[1], op->imm[2],
                op->imm[3]);
    } else {
        appendf(t, "%s", name);
        /* 2-D vertex/control-point arrays print as v[2][0]; ids stay plain (cb0[3]). */
        bool arrayed = (op->index_count == 2 &&
                        (op->file == SB_IR_FILE_INPUT || op->file == SB_IR_FILE_INPUT_CONTROL_POINT ||
                         op->file == SB_IR_FILE_OUTPUT_CONTROL_POINT)) ||
                       op->file == SB_IR_FILE_THIS_POINTER;
        for (uint32_t i = 0; i < op->index_count && i < 3; i++)
            print_index(t, &op->index[i], i > 0 || arrayed || op->index[i].relative);
        if (is_dst && op->mask && op->mask != 0xf) {
            appendf(t, ".");
            for (int i = 0; i < 4; i++)
                if (op->mask & (1u << i))
                    appendf(t, "%c", lanes[i]);
        } else if (!is_dst && op->file != SB_IR_FILE_INTERFACE && op->file != SB_IR_FILE_LABEL &&
                   op->file != SB_IR_FILE_STREAM) {
            appendf(t, ".%c%c%c%c", lanes[op->swizzle[0] & 3], lanes[op->swizzle[1] & 3],
                    lanes[op->swizzle[2] & 3], lanes[op->swizzle[3] & 3]);
        }
    }
    if (op->modifiers & SB_IR_MOD_ABS)
        appendf(t, "|");
    if (op->non_uniform)
        appendf(t, " {nonuniform}");
    if (op->min_precision)
        appendf(t, " {minp%u}", op->min_precision);
}

static void print_instruction(struct text *t, const struct sb_ir_instruction *in, unsigned depth)
{
    appendf(t, "%08llx  %*s%s", (unsigned long long)in->offset, (int)(depth * 2), "",
            sb_ir_op_name(in->op));
    if (in->flags & SB_IR_FLAG_SATURATE)
        appendf(t, "_sat");
    bool tested = in->op == SB_IR_OP_IF || in->op == SB_IR_OP_BREAKC ||
                  in->op == SB_IR_OP_CONTINUEC || in->op == SB_IR_OP_RETC ||
                  in->op == SB_IR_OP_DISCARD || in->op == SB_IR_OP_CALLC;
    if (tested)
        appendf(t, (in->flags & SB_IR_FLAG_TEST_NZ) ? "_nz" : "_z");
    if (in->op == SB_IR_OP_CASE)
        appendf(t, " %u", in->case_value);
    if (in->op == SB_IR_OP_CALL || in->op == SB_IR_OP_CALLC)
        appendf(t, " fn%u", in->target);
    if (in->op == SB_IR_OP_INTERFACE_CALL)
        appendf(t, " site %u", in->target);
    if (in->op == SB_IR_OP_EMIT || in->op == SB_IR_OP_CUT || in->op == SB_IR_OP_EMIT_THEN_CUT)
        appendf(t, " stream %u", in->stream);
    if (in->op == SB_IR_OP_SYNC)
        appendf(t, " flags 0x%x", in->sync_flags);
    if (in->op == SB_IR_OP_RESINFO || in->op == SB_IR_OP_SAMPLE_INFO)
        appendf(t, " return_type %u", in->return_type);
    if ((in->op >= SB_IR_OP_WAVE_ACTIVE_FLOAT && in->op <= SB_IR_OP_WAVE_PREFIX_INT))
        appendf(t, "_%s", sb_ir_wave_op_name(in->wave_op));
    for (uint32_t i = 0; i < in->dst_count + in->src_count; i++) {
        appendf(t, i ? ", " : " ");
        bool is_dst = i < in->dst_count;
        print_operand(t, is_dst ? &in->dst[i] : &in->src[i - in->dst_count], is_dst);
    }
    if (in->texel_offset[0] || in->texel_offset[1] || in->texel_offset[2])
        appendf(t, " offset(%d, %d, %d)", in->texel_offset[0], in->texel_offset[1],
                in->texel_offset[2]);
    if (in->flags & SB_IR_FLAG_PRECISE)
        appendf(t, " precise(0x%x)", in->precise_mask);
    appendf(t, "\n");
}

static void print_function(struct text *t, const struct sb_ir_program *p, uint32_t f)
{
    const struct sb_ir_function *fn = &p->functions[f];
    const char *what = f == 0 ? "entry"
                       : f >= p->first_fork_phase && f < p->first_fork_phase + p->fork_phase_count
                           ? "fork phase"
                       : f >= p->first_fork_phase + p->fork_phase_count &&
                               f < p->first_fork_phase + p->fork_phase_count + p->join_phase_count
                           ? "join phase"
                           : "subroutine";
    appendf(t, "function %u (%s, id 0x%x, temps %u, instances %u)\n", f, what, fn->id,
            fn->temp_count, fn->instance_count);
    unsigned depth = 1;
    for (uint32_t i = 0; i < fn->instruction_count; i++) {
        uint32_t op = fn->instructions[i].op;
        bool closes = op == SB_IR_OP_ELSE || op == SB_IR_OP_ENDIF || op == SB_IR_OP_ENDLOOP ||
                      op == SB_IR_OP_ENDSWITCH;
        if (closes && depth > 1)
            depth--;
        print_instruction(t, &fn->instructions[i], depth);
        if (op == SB_IR_OP_IF || op == SB_IR_OP_ELSE || op == SB_IR_OP_LOOP ||
            op == SB_IR_OP_SWITCH)
            depth++;
    }
}

static void print_declarations(struct text *t, const struct sb_ir_program *p)
{
    static const char *const stages[] = { "vs", "ps", "gs", "hs", "ds", "cs", "ms", "as" };
    static const char *const kinds[] = { "input", "output", "patch" };
    static const char *const classes[] = { "cbv", "srv", "sampler", "uav" };
    appendf(t, "%s_%u_%u temps %u global_flags 0x%x\n", p->stage < 8 ? stages[p->stage] : "?",
            p->major, p->minor, p->temp_count, p->global_flags);
    for (uint32_t i = 0; i < p->signature_count; i++) {
        const struct sb_ir_signature_element *e = &p->signature[i];
        bool numbered = e->file == SB_IR_FILE_INPUT || e->file == SB_IR_FILE_OUTPUT ||
                        e->file == SB_IR_FILE_INPUT_PATCH_CONSTANT ||
                        e->file == SB_IR_FILE_MESH_VERTEX || e->file == SB_IR_FILE_MESH_PRIMITIVE;
        char reg[16] = "", semantic[80] = "-";
        if (numbered)
            snprintf(reg, sizeof(reg), "%u", e->register_index);
        if (e->semantic && e->semantic[0])
            snprintf(semantic, sizeof(semantic), "%.60s%u", e->semantic, e->semantic_index);
        appendf(t, "signature %s %s%s mask 0x%x sig 0x%x used 0x%x %s sv %u type %u interp %u "
                   "stream %u array %u\n",
                e->kind < 3 ? kinds[e->kind] : "?",
                e->file < SB_IR_FILE_COUNT && file_names[e->file] ? file_names[e->file] : "?",
                reg, e->mask, e->signature_mask, e->used_mask, semantic, e->system_value,
                e->component_type, e->interpolation, e->stream, e->array_size);
    }
    for (uint32_t i = 0; i < p->resource_count; i++) {
        const struct sb_ir_resource *r = &p->resources[i];
        appendf(t, "resource %s id %u space %u [%u +%u] kind %u dim %u stride %u cb_size %u%s "
                   "name %s\n",
                r->resource_class < 4 ? classes[r->resource_class] : "?", r->id, r->space,
                r->lower_bound, r->count, r->kind, r->dimension, r->stride, r->cb_size,
                r->has_counter ? " counter" : "", r->name ? r->name : "-");
    }
    for (uint32_t i = 0; i < p->group_shared_count; i++)
        appendf(t, "group_shared g%u stride %u count %u%s%s\n", p->group_shared[i].id,
                p->group_shared[i].stride, p->group_shared[i].count,
                p->group_shared[i].structured ? " structured" : "",
                p->group_shared[i].task_payload ? " task_payload" : "");
    for (uint32_t i = 0; i < p->indexable_temp_count; i++)
        appendf(t, "indexable_temp x%u[%u] components %u\n", p->indexable_temps[i].id,
                p->indexable_temps[i].count, p->indexable_temps[i].components);
    for (uint32_t i = 0; i < p->index_range_count; i++)
        appendf(t, "index_range %s%u count %u mask 0x%x\n",
                p->index_ranges[i].file < SB_IR_FILE_COUNT && file_names[p->index_ranges[i].file]
                    ? file_names[p->index_ranges[i].file]
                    : "?",
                p->index_ranges[i].first, p->index_ranges[i].count, p->index_ranges[i].mask);
    for (uint32_t i = 0; i < p->function_body_count; i++)
        appendf(t, "function_body fb%u -> fn%u\n", i, p->function_body_label[i]);
    for (uint32_t i = 0; i < p->function_table_count; i++) {
        appendf(t, "function_table ft%u = {", p->function_tables[i].id);
        for (uint32_t j = 0; j < p->function_tables[i].body_count; j++)
            appendf(t, j ? ", fb%u" : "fb%u", p->function_tables[i].bodies[j]);
        appendf(t, "}\n");
    }
    for (uint32_t i = 0; i < p->interface_count; i++) {
        const struct sb_ir_interface *f = &p->interfaces[i];
        appendf(t, "interface fp%u[%u] call_sites %u = {", f->id, f->array_length, f->call_sites);
        for (uint32_t j = 0; j < f->table_count; j++)
            appendf(t, j ? ", ft%u" : "ft%u", f->tables[j]);
        appendf(t, "}\n");
    }
    if (p->icb_vector_count)
        appendf(t, "icb %u vectors\n", p->icb_vector_count);
    if (p->stage == SB_IR_STAGE_GEOMETRY)
        appendf(t, "gs input %u output %u max_vertices %u instances %u streams 0x%x\n",
                p->gs_input_primitive, p->gs_output_topology, p->gs_max_output_vertices,
                p->gs_instance_count, p->gs_stream_mask);
    if (p->stage == SB_IR_STAGE_HULL || p->stage == SB_IR_STAGE_DOMAIN)
        appendf(t, "tess control_points %u/%u domain %u partitioning %u output %u max %g\n",
                p->input_control_points, p->output_control_points, p->tess_domain,
                p->tess_partitioning, p->tess_output_primitive, (double)p->max_tess_factor);
    if (p->stage == SB_IR_STAGE_MESH)
        appendf(t, "mesh topology %u max_vertices %u max_primitives %u\n", p->mesh_topology,
                p->mesh_max_vertices, p->mesh_max_primitives);
    if (p->stage == SB_IR_STAGE_MESH || p->stage == SB_IR_STAGE_AMPLIFICATION)
        appendf(t, "payload %u bytes\n", p->mesh_payload_size);
    if (p->stage >= SB_IR_STAGE_COMPUTE)
        appendf(t, "thread_group %u %u %u\n", p->thread_group[0], p->thread_group[1],
                p->thread_group[2]);
    if (p->wave_size_min)
        appendf(t, "wave_size %u %u preferred %u\n", p->wave_size_min, p->wave_size_max, p->wave_size_preferred);
    if (p->compute_derivatives)
        appendf(t, "compute_derivatives %s\n",
                p->compute_derivatives == SB_IR_COMPUTE_DERIVATIVES_QUADS ? "quads" : "linear");
}

char *sb_ir_print(const struct sb_ir_program *program)
{
    if (!program)
        return NULL;
    struct text t = { 0 };
    print_declarations(&t, program);
    for (uint32_t f = 0; f < program->function_count; f++)
        print_function(&t, program, f);
    if (!t.data && !t.failed)
        appendf(&t, "%s", "");
    if (t.failed) {
        free(t.data);
        return NULL;
    }
    return t.data;
}
