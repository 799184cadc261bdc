/* SPDX-License-Identifier: MIT */
/*
 * Facts of a DXBC container that consumers of the IR need and the token stream does not
 * carry (ir.h: sb_ir_program::container_flags, sb_ir_resource::cb_*): the SFI0 feature
 * flags (../shared/docs/dxcontainer.md) and the RDEF description of each constant buffer
 * (../shared/docs/dxcontainer.md §12: variable names and offsets, for -g member names). The SM4/5
 * front end records them in the program (ir_from_sm4_signature.c); ../translate.c reads
 * them for sb_translate_ir_container. Below both.
 */
#include <string.h>

#include "shaderbridge/dxbc.h"
#include "shaderbridge/dxbc_fxc.h"
#include "ir_from_sm4_private.h"

/* SFI0 bit 11: typed UAV loads from formats other than R32. */
#define SFI0_TYPED_UAV_LOAD_ADDITIONAL_FORMATS 0x800u

uint32_t sb_ir_container_flags(const struct sb_dxbc *container)
{
    if (!container)
        return 0;
    for (uint32_t i = 0; i < container->part_count; i++) {
        const struct sb_dxbc_part *part = &container->parts[i];
        if (part->kind == SB_DXBC_PART_SFI0 && part->decoded.sfi0)
            return SB_IR_CONTAINER_PRESENT |
                   (part->decoded.sfi0->flags & SFI0_TYPED_UAV_LOAD_ADDITIONAL_FORMATS
                        ? SB_IR_CONTAINER_TYPED_UAV_LOAD_ADDITIONAL_FORMATS
                        : 0u);
    }
    return SB_IR_CONTAINER_PRESENT;
}

const struct sb_dxbc_rdef_cbuffer *sb_ir_rdef_cbuffer(const struct sb_dxbc *container, const char *name)
{
    if (!container || !name)
        return NULL;
    for (uint32_t i = 0; i < container->part_count; i++) {
        const struct sb_dxbc_rdef *rdef = container->parts[i].decoded.rdef;
        if (container->parts[i].kind != SB_DXBC_PART_RDEF || !rdef)
            continue;
        for (uint32_t k = 0; k < rdef->cbuffer_count; k++)
            if (rdef->cbuffers[k].name && !strcmp(rdef->cbuffers[k].name, name))
                return &rdef->cbuffers[k];
    }
    return NULL;
}

uint32_t sb_ir_cb_variables(const struct sb_dxbc_rdef_cbuffer *cb, struct sb_ir_cb_variable *out)
{
    uint32_t n = 0;
    for (uint32_t v = 0; v < cb->variable_count; v++) {
        const struct sb_dxbc_rdef_variable *in = &cb->variables[v];
        if (!in->name)
            continue;
        if (out)
            out[n] = (struct sb_ir_cb_variable){ in->name, in->start_offset, in->size };
        n++;
    }
    return n;
}
