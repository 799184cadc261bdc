/* SPDX-License-Identifier: MIT */
/*
 * Seeded contents of the PICA200 uniform buffer (cb0 of a SHBIN program,
 * layout in translator/IR.md): float uniforms in a range that keeps
 * transforms finite, integer uniforms whose LOOP counts, starts and steps
 * keep loops short (../shared/docs/pica200.md §6.6: a LOOP runs i.x + 1 times, so
 * even four nested loops stay below 4096 passes), random bools, then the
 * DVLE constants, which a program relies on exactly as libctru sets them.
 */
#include "inputs_private.h"
#include "validate_pica.h"

#include <string.h>

#include "translator/pica_float24.h"
#include "shaderbridge/shbin.h"
#include "translator/ir.h"

enum { FLOAT_VECTORS = 96, INT_VECTORS = 4 };

bool sb_rt_pica_is_uniform_buffer(const struct sb_rt_program *program, const struct sb_ir_resource *d)
{
    return program->ir->source == SB_IR_SOURCE_PICA && d->resource_class == SB_IR_RESOURCE_CBV &&
           d->lower_bound == SB_IR_PICA_UNIFORM_REGISTER && d->space == 0;
}

void sb_rt_pica_apply_constants(const struct sb_rt_program *program, uint32_t *words)
{
    uint32_t dvle_index = 0;
    const struct sb_shbin *shbin = sb_rt_program_shbin(program, &dvle_index);
    if (!shbin || dvle_index >= shbin->dvle_count)
        return;
    const struct sb_shbin_dvle *dvle = &shbin->dvles[dvle_index];
    for (uint32_t k = 0; k < dvle->constant_count; k++) {
        const struct sb_shbin_constant *c = &dvle->constants[k];
        uint32_t reg = c->register_index;
        if (c->type == SB_SHBIN_CONSTANT_FLOAT && reg < FLOAT_VECTORS) {
            for (uint32_t l = 0; l < 4; l++)
                words[reg * 4 + l] = sb_pica_f24_to_f32(c->float24[l]);
        } else if (c->type == SB_SHBIN_CONSTANT_INT && reg < INT_VECTORS) {
            for (uint32_t l = 0; l < 4; l++)
                words[(SB_IR_PICA_UNIFORM_INT_VECTOR + reg) * 4 + l] = c->int_value[l];
        } else if (c->type == SB_SHBIN_CONSTANT_BOOL && reg < 16) {
            uint32_t *mask = &words[SB_IR_PICA_UNIFORM_BOOL_VECTOR * 4];
            *mask = c->bool_value ? *mask | (1u << reg) : *mask & ~(1u << reg);
        }
    }
}

void sb_rt_pica_fill_uniforms(const struct sb_rt_program *program, struct sb_rt_inputs *in, uint32_t i,
                              uint64_t seed)
{
    struct sb_rt_resource *r = &in->resources[i];
    uint32_t *words = r->data;
    uint8_t *kinds = in->word_kinds[i];
    uint32_t count = (uint32_t)(r->size / 4);
    if (count < SB_IR_PICA_UNIFORM_VECTORS * 4 || !kinds)
        return; /* not the buffer IR.md describes: leave the generic fill */
    uint64_t base = sb_rt_mix64(seed ^ 0x50494341ull /* "PICA" */);
    for (uint32_t w = 0; w < FLOAT_VECTORS * 4; w++) {
        kinds[w] = SB_RT_WORD_FLOAT;
        words[w] = sb_rt_seeded_word(SB_RT_WORD_FLOAT, sb_rt_mix64(base + w), false);
    }
    static const uint32_t ranges[4] = { 8, 16, 4, 1 }; /* count - 1, start, step, (unused) */
    for (uint32_t v = 0; v < INT_VECTORS; v++)
        for (uint32_t l = 0; l < 4; l++) {
            uint32_t w = (SB_IR_PICA_UNIFORM_INT_VECTOR + v) * 4 + l;
            kinds[w] = SB_RT_WORD_UINT;
            words[w] = (uint32_t)(sb_rt_mix64(base + w) % ranges[l]);
        }
    for (uint32_t l = 0; l < 4; l++) {
        uint32_t w = SB_IR_PICA_UNIFORM_BOOL_VECTOR * 4 + l;
        kinds[w] = SB_RT_WORD_UINT;
        words[w] = l == 0 ? (uint32_t)(sb_rt_mix64(base + w) & 0xFFFFu) : 0;
    }
    sb_rt_pica_apply_constants(program, words);
}
