/* SPDX-License-Identifier: MIT */
/*
 * What dxil_program_info.c calls in dxil_program_resources.c: the
 * dx.resources 4-list (§4.5), dx.typeAnnotations (§4.6) and the link from
 * each CBV to its annotated layout. Private to src/dxil.
 */
#ifndef SB_DXIL_PROGRAM_PRIVATE_H
#define SB_DXIL_PROGRAM_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "dxil_md_reader.h"
#include "translator/dxil_program_info.h"

/** Node `id` = !{SRVs, UAVs, CBVs, samplers} (each null or a list of records) into `out`. */
bool sb_dxil_read_resource_lists(struct sb_dxil_md_reader *r, uint32_t id,
                                 struct sb_dxil_resource_list *out);

/** dx.typeAnnotations, when present, into info->structs / function_annotation_count. */
bool sb_dxil_read_type_annotations(struct sb_dxil_md_reader *r, struct sb_dxil_program_info *info);

/** Sets each CBV's `layout` (entry points' and dx.resources') to its struct annotation. */
void sb_dxil_link_cbuffer_layouts(struct sb_dxil_program_info *info);

/** D3D_NAME of row `row` of a signature element of SemanticKind `kind` (§4.4); `domain` is
 *  the tessellator domain (tessellation factors). 0 for kinds with no D3D_NAME. Shared
 *  by the PSV0/ISG1 cross-check and the DXIL front end's signature declarations. */
uint32_t sb_dxil_semantic_system_value(uint32_t kind, uint32_t row, uint32_t domain);

#endif
