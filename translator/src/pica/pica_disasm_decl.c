/* SPDX-License-Identifier: MIT */
/*
 * Directives of one disassembled DVLE (../shared/docs/pica200.md §12.3-§12.7): .gsh,
 * .entry, uniforms (.fvec/.ivec/.bool/.in), constants and outputs. picasso
 * allocates uniforms upward in declaration order and .constf downward from
 * c95, so declarations are written in register order with private `_pad`
 * uniforms filling gaps, and .constf is used only where the downward
 * allocation lands on the stored register (.setf/.seti otherwise); a
 * uniform picasso could not place where the file has it becomes an .alias.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pica_disasm_private.h"

/* Identifier for a uniform-table name: '.' -> '$', other invalid bytes -> '_'. */
static void sanitize(const char *name, uint32_t index, char *out, size_t size)
{
    size_t at = 0;
    if (!name || !*name || isdigit((unsigned char)name[0]) || name[0] == '_' || name[0] == '$')
        at = (size_t)snprintf(out, size, "u%u", (unsigned)index);
    for (const char *p = name ? name : ""; *p && at + 1 < size && at < 48; ++p) {
        char c = *p;
        out[at++] = c == '.' ? '$' : (isalnum((unsigned char)c) || c == '_' || c == '$') ? c : '_';
    }
    out[at] = '\0';
    /* a name that reads as a register (r0, c12 ...) would not be an alias */
    if (strlen(out) >= 2 && strchr("vorcib", out[0]) && isdigit((unsigned char)out[1]))
        snprintf(out, size, "u%u_%.40s", (unsigned)index, name ? name : "");
}

struct allocation {
    int cursor;
    int pad;
};

static void declare(struct dis_state *state, const char *directive, char prefix, int first,
                    int size, const char *name, struct allocation *alloc)
{
    if (first < alloc->cursor) {
        pica_text_append(&state->text, ".alias %s %c%d\n", name, prefix, first);
        return;
    }
    if (first > alloc->cursor)
        pica_text_append(&state->text, "%s _pad%c%d[%d]\n", directive, prefix, alloc->pad++,
                         first - alloc->cursor);
    if (size > 1)
        pica_text_append(&state->text, "%s %s[%d]\n", directive, name, size);
    else
        pica_text_append(&state->text, "%s %s\n", directive, name);
    alloc->cursor = first + size;
}

static void uniforms(struct dis_state *state, const struct sb_shbin_dvle *dvle, uint32_t index)
{
    struct allocation classes[4] = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
    for (uint32_t i = 0; i < dvle->uniform_count; ++i) {
        const struct sb_shbin_uniform *u = &dvle->uniforms[i];
        char name[64];
        sanitize(u->name, i, name, sizeof(name));
        int first = (int)u->first_index;
        int size = (int)(u->last_index - u->first_index) + 1;
        switch (u->register_class) {
        case SB_SHBIN_REGISTER_INPUT:
            pica_text_append(&state->text, ".in %s v%d\n", name, first);
            break;
        case SB_SHBIN_REGISTER_FLOAT:
            declare(state, ".fvec", 'c', first, size, name, &classes[1]);
            if (index == 0)
                for (int k = 0; k < size && first + k < 96; ++k)
                    snprintf(state->float_names[first + k], sizeof(state->float_names[0]),
                             size > 1 ? "%s[%d]" : "%s", name, k);
            break;
        case SB_SHBIN_REGISTER_INT:
            declare(state, ".ivec", 'i', first, size, name, &classes[2]);
            break;
        default:
            declare(state, ".bool", 'b', first, size, name, &classes[3]);
            break;
        }
    }
}

/* float24 bits written as a decimal that converts back to the same bits. */
static void float_text(uint32_t f24, char *buffer, size_t size)
{
    float value = sb_shbin_float24_to_float(f24);
    if (isnan(value))
        snprintf(buffer, size, "nan");
    else if (isinf(value))
        snprintf(buffer, size, value < 0 ? "-inf" : "inf");
    else
        snprintf(buffer, size, "%.9g", (double)value);
}

static void constants(struct dis_state *state, const struct sb_shbin_dvle *dvle, uint32_t index)
{
    int next_float = 95, next_int = 3, number = 0;
    for (uint32_t i = 0; i < dvle->constant_count; ++i) {
        const struct sb_shbin_constant *c = &dvle->constants[i];
        char v[4][32];
        switch (c->type) {
        case SB_SHBIN_CONSTANT_FLOAT:
            for (int k = 0; k < 4; ++k)
                float_text(c->float24[k], v[k], sizeof(v[k]));
            if (c->register_index == next_float) {
                if (index == 0 && !state->float_names[next_float][0])
                    snprintf(state->float_names[next_float], sizeof(state->float_names[0]),
                             "const%d", number);
                pica_text_append(&state->text, ".constf const%d(%s, %s, %s, %s)\n", number++, v[0],
                                 v[1], v[2], v[3]);
                next_float--;
            } else {
                pica_text_append(&state->text, ".setf c%u(%s, %s, %s, %s)\n",
                                 (unsigned)c->register_index, v[0], v[1], v[2], v[3]);
            }
            break;
        case SB_SHBIN_CONSTANT_INT:
            if (c->register_index == next_int) {
                pica_text_append(&state->text, ".consti iconst%d(%u, %u, %u, %u)\n", number++,
                                 c->int_value[0], c->int_value[1], c->int_value[2], c->int_value[3]);
                next_int--;
            } else {
                pica_text_append(&state->text, ".seti i%u(%u, %u, %u, %u)\n",
                                 (unsigned)c->register_index, c->int_value[0], c->int_value[1],
                                 c->int_value[2], c->int_value[3]);
            }
            break;
        default:
            pica_text_append(&state->text, ".setb b%u %s\n", (unsigned)c->register_index,
                             c->bool_value ? "true" : "false");
            break;
        }
    }
}

static void outputs(struct dis_state *state, const struct sb_shbin_dvle *dvle)
{
    static const char lanes[] = "xyzw";
    for (uint32_t i = 0; i < dvle->output_count; ++i) {
        const struct sb_shbin_output *o = &dvle->outputs[i];
        const char *type = sb_shbin_output_type_name(o->type);
        static const char *const picasso_names[] = {"position", "normalquat", "color",
                                                    "texcoord0", "texcoord0w", "texcoord1",
                                                    "texcoord2", NULL, "view", "dummy"};
        const char *name = (unsigned)o->type < 10 ? picasso_names[o->type] : NULL;
        char mask[6] = "";
        if ((o->mask & 0xFu) != 0xFu && (o->mask & 0xFu) != 0) {
            size_t at = 0;
            mask[at++] = '.';
            for (unsigned k = 0; k < 4; ++k)
                if (o->mask & (1u << k))
                    mask[at++] = lanes[k];
            mask[at] = '\0';
        }
        if (!name || (o->mask & 0xFu) == 0)
            pica_text_append(&state->text, "; output o%u of type %s cannot be written\n",
                             (unsigned)o->register_index, type ? type : "unknown");
        else
            pica_text_append(&state->text, ".out - %s o%u%s\n", name, (unsigned)o->register_index,
                             mask);
    }
}

void dis_declarations(struct dis_state *state, uint32_t index)
{
    const struct sb_shbin_dvle *dvle = &state->shbin->dvles[index];
    pica_text_append(&state->text, "; DVLE %u: %s shader\n", (unsigned)index,
                     sb_shbin_shader_type_name(dvle->type) ? sb_shbin_shader_type_name(dvle->type)
                                                           : "unknown");
    if (dvle->type == SB_SHBIN_SHADER_GEOMETRY) {
        switch (dvle->gs_mode) {
        case SB_SHBIN_GS_MODE_VARIABLE:
            pica_text_append(&state->text, ".gsh variable c0 %u\n",
                             (unsigned)dvle->gs_variable_vertex_count);
            break;
        case SB_SHBIN_GS_MODE_FIXED:
            pica_text_append(&state->text, ".gsh fixed c0 c%u %u\n",
                             (unsigned)dvle->gs_fixed_start_register,
                             (unsigned)dvle->gs_fixed_vertex_count);
            break;
        default:
            pica_text_append(&state->text, ".gsh point c0\n");
            break;
        }
    }
    const struct dis_proc *entry = index < DIS_MAX_DVLES ? state->entry[index] : NULL;
    if (entry && (entry->start != dvle->main_address || entry->end != dvle->end_address))
        pica_text_append(&state->text, "; entry point %u..%u cannot be a procedure\n",
                         (unsigned)dvle->main_address, (unsigned)dvle->end_address);
    if (entry)
        pica_text_append(&state->text, ".entry %s\n", entry->name);
    uniforms(state, dvle, index);
    constants(state, dvle, index);
    outputs(state, dvle);
}
