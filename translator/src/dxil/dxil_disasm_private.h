/* SPDX-License-Identifier: MIT */
/*
 * Shared state of the DXIL disassembler (dxil_disasm*.c): the output text
 * (the SM4 disassembler's growable string), the module, the slot numbers
 * LLVM's printer gives unnamed values, metadata nodes and attribute sets.
 */
#ifndef SB_DXIL_DISASM_PRIVATE_H
#define SB_DXIL_DISASM_PRIVATE_H

#include "dxbc/sm4_private.h"
#include "reflect/bitcode.h"

/** Deepest type or constant nesting printed; deeper (only hostile input) prints "?". */
#define SB_DXIL_DISASM_MAX_DEPTH 64u

/** A function's attachments sorted by instruction, then kind (LLVM's order), one per
 * (instruction, kind); function attachments (SB_BC_NONE) last. items NULL when there are none. */
struct sb_dxil_attachments {
    struct sb_bc_attachment *items;
    uint32_t count;
};

struct sb_dxil_printer {
    struct sb_sm4_text *text;
    const struct sb_bc_module *module;
    uint32_t *global_slots;       /**< module value id -> @N of an unnamed global/function */
    uint32_t *metadata_slots;     /**< module metadata id -> !N, SB_BC_NONE until numbered */
    uint32_t *metadata_order;     /**< !N -> module metadata id */
    uint32_t next_metadata_slot;
    uint32_t *attribute_slots;    /**< attribute list (0-based) -> #N of its function set */
    char **attribute_texts;       /**< #N -> its attributes as printed (sets are equal by text) */
    uint32_t next_attribute_slot;
    /* The function being printed: */
    const struct sb_bc_function *function;
    uint32_t *local_slots;        /**< its value index -> %N, SB_BC_NONE when named */
    uint32_t *block_slots;        /**< block -> %N, SB_BC_NONE when named */
    struct sb_dxil_attachments attachments; /**< its attachments, sorted */
};

/* Files call downwards in this order: dxil_disasm.c (entry points, module layout) ->
 * dxil_disasm_function.c (bodies) -> dxil_disasm_types.c (struct order) ->
 * dxil_disasm_attributes.c, dxil_disasm_metadata.c -> dxil_disasm_value.c (spelling). */

/* dxil_disasm_function.c */
void sb_dxil_print_function(struct sb_dxil_printer *p, const struct sb_bc_function *function);

/* dxil_disasm_types.c: the named struct types LLVM's TypeFinder reaches, in its order, into
 * `out` (room for type_count ids); returns how many. */
uint32_t sb_dxil_find_struct_types(const struct sb_bc_module *module, uint32_t *out);

/* dxil_disasm_attributes.c */
/** The attributes of list `list` (1-based, 0 none) at `index` (0xFFFFFFFF: the function) as
 * LLVM prints them (string attributes only `with_strings`); malloc'd, NULL when none. */
char *sb_dxil_render_attributes(const struct sb_bc_module *m, uint32_t list, uint32_t index,
                                bool with_strings);
/** `#N` of the function attributes of `list`, numbering on first use; SB_BC_NONE when none. */
uint32_t sb_dxil_attribute_slot(struct sb_dxil_printer *p, uint32_t list);
/** " attrs" of parameter `index` (1-based), or "attrs " of the return value (index 0). */
void sb_dxil_print_param_attributes(struct sb_dxil_printer *p, uint32_t list, uint32_t index);

/* dxil_disasm_metadata.c */
/** Fills `out` (free out->items); false when out of memory. */
bool sb_dxil_sort_attachments(const struct sb_bc_function *f, struct sb_dxil_attachments *out);
/** Index of the first of `a` on `instruction`, or a->count. */
uint32_t sb_dxil_first_attachment(const struct sb_dxil_attachments *a, uint32_t instruction);
/** Numbers node `id` and the nodes below it (LLVM's depth-first order). */
void sb_dxil_number_metadata(struct sb_dxil_printer *p, uint32_t id);
/** `!N`, an inline string or value, or a marker for what has no number. */
void sb_dxil_print_metadata_ref(struct sb_dxil_printer *p, uint32_t id);
/** The named metadata and the numbered nodes closing the listing. */
void sb_dxil_print_metadata(struct sb_dxil_printer *p);

/* dxil_disasm_value.c */
/** `length` bytes as LLVM writes them inside quotes: printable ones but '\\' and '"' as they
 * are, others as \XX. */
void sb_dxil_print_escaped(struct sb_sm4_text *t, const char *s, size_t length);
void sb_dxil_print_name(struct sb_sm4_text *t, char sigil, const char *name);
void sb_dxil_print_type(struct sb_dxil_printer *p, uint32_t type);
void sb_dxil_print_value(struct sb_dxil_printer *p, uint32_t id, unsigned depth);
void sb_dxil_print_typed_value(struct sb_dxil_printer *p, uint32_t id);
uint32_t sb_dxil_value_type(const struct sb_dxil_printer *p, uint32_t id);
const struct sb_bc_type *sb_dxil_type(const struct sb_dxil_printer *p, uint32_t type);
/** LLVM 3.7 linkage code -> its keyword and a space ("" for external). */
const char *sb_dxil_linkage_name(uint32_t linkage);

#endif
