/* SPDX-License-Identifier: MIT */
/*
 * The bitcode reader's entry points (reflect/bitcode.h): the DXIL program
 * header (../shared/docs/dxil.md §1.1), the bitcode magic and optional wrapper
 * (§1.2), and MODULE_BLOCK (§2.5, §2.6): VERSION, TRIPLE, DATALAYOUT,
 * GLOBALVAR and FUNCTION records, with every sub-block handed to its reader
 * (types, attributes, constants, metadata, value names, function bodies).
 *
 * Module values are numbered globals and functions in record order, then
 * the module constants; GLOBALVAR initialisers name constants that come
 * later, so they are checked when the module block ends, as is the rule
 * that every function definition received a body.
 */
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "bitcode_private.h"
#include "cursor.h"
#include "error.h"

enum {
    MODULE_VERSION = 1,
    MODULE_TRIPLE = 2,
    MODULE_DATALAYOUT = 3,
    MODULE_GLOBALVAR = 7,
    MODULE_FUNCTION = 8,
    MODULE_ALIAS_OLD = 9,
    MODULE_ALIAS = 14,
    GLOBALVAR_EXPLICIT_TYPE = 2,
    BITCODE_WRAPPER_MAGIC = 0x0B17C0DE,
    DXIL_HEADER_SIZE = 24,
    DXIL_MAGIC = 0x4C495844, /* 'DXIL' */
};

/* [type, flags (constant | explicit type << 1 | address space << 2), initid, linkage, align, ...] */
static bool read_globalvar(struct sb_bc_reader *r)
{
    struct sb_bc_module *m = r->module;
    const uint64_t *ops = r->bs.ops;
    if (!bc_need_ops(r, 5, "GLOBALVAR") || !bc_check_type(r, ops[0], "GLOBALVAR type"))
        return false;
    if (ops[2] > UINT32_MAX || ops[1] > UINT32_MAX)
        return bc_fail(r, SB_ERROR_BC_BAD_RECORD, "GLOBALVAR: flags or initializer exceed 32 bits");
    struct sb_bc_global g = {
        .value_type = (uint32_t)ops[0], .constant = ops[1] & 1,
        .initializer = ops[2] ? (uint32_t)ops[2] - 1 : SB_BC_NONE,
        .linkage = (uint32_t)(ops[3] & 0xffffffffu), .align = (uint32_t)(ops[4] & 0xffffffffu),
        .value = m->value_count,
    };
    uint32_t pointer;
    if (ops[1] & GLOBALVAR_EXPLICIT_TYPE) {
        g.address_space = (uint32_t)(ops[1] >> 2);
        pointer = bc_find_pointer(r, g.value_type, g.address_space);
    } else {
        /* The older form gives the pointer type itself. */
        pointer = g.value_type;
        if (m->types[pointer].kind != SB_BC_TYPE_POINTER)
            return bc_fail(r, SB_ERROR_BC_BAD_TYPE, "GLOBALVAR: type %u is not a pointer", pointer);
        g.value_type = m->types[pointer].element;
        g.address_space = m->types[pointer].address_space;
    }
    if (pointer == SB_BC_NONE)
        return bc_fail(r, SB_ERROR_BC_BAD_TYPE, "GLOBALVAR: no pointer type to type %u in "
                                                "address space %u", g.value_type, g.address_space);
    if (!bc_reserve(r, (void **)&m->globals, &r->global_capacity, m->global_count + 1,
                    sizeof(*m->globals)))
        return false;
    m->globals[m->global_count] = g;
    return bc_push_value(r, SB_BC_VALUE_GLOBAL, pointer, m->global_count++);
}

/* [type, cc, isproto, linkage, paramattr, align, section, visibility, gc, ...] */
static bool read_function(struct sb_bc_reader *r)
{
    struct sb_bc_module *m = r->module;
    const uint64_t *ops = r->bs.ops;
    if (!bc_need_ops(r, 5, "FUNCTION") || !bc_check_type(r, ops[0], "FUNCTION type"))
        return false;
    uint32_t type = (uint32_t)ops[0];
    /* Older writers give the pointer-to-function type. */
    if (m->types[type].kind == SB_BC_TYPE_POINTER)
        type = m->types[type].element;
    if (m->types[type].kind != SB_BC_TYPE_FUNCTION)
        return bc_fail(r, SB_ERROR_BC_BAD_TYPE, "FUNCTION: type %u is not a function type", type);
    /* Attribute lists passed over (SB_BC_READ_SKIP_ATTRIBUTES_AND_ATTACHMENTS) cannot be
     * counted: the number is then only kept within its field. */
    if ((r->flags & SB_BC_READ_SKIP_ATTRIBUTES_AND_ATTACHMENTS) ? ops[4] > UINT32_MAX
                                                                : ops[4] > m->attribute_list_count)
        return bc_fail(r, SB_ERROR_BC_BAD_REFERENCE, "FUNCTION: attribute list %llu, %u exist",
                       (unsigned long long)ops[4], m->attribute_list_count);
    uint32_t pointer = bc_find_pointer(r, type, 0);
    if (pointer == SB_BC_NONE)
        return bc_fail(r, SB_ERROR_BC_BAD_TYPE, "FUNCTION: no pointer type to function type %u",
                       type);
    if (!bc_reserve(r, (void **)&m->functions, &r->function_capacity, m->function_count + 1,
                    sizeof(*m->functions)))
        return false;
    m->functions[m->function_count] = (struct sb_bc_function){
        .type = type, .value = m->value_count, .is_declaration = ops[2] != 0,
        .calling_convention = (uint32_t)(ops[1] & 0xffffffffu),
        .linkage = (uint32_t)(ops[3] & 0xffffffffu), .paramattr = (uint32_t)ops[4],
    };
    return bc_push_value(r, SB_BC_VALUE_FUNCTION, pointer, m->function_count++);
}

static bool read_module_record(struct sb_bc_reader *r)
{
    struct sb_bc_module *m = r->module;
    switch (r->bs.code) {
    case MODULE_VERSION:
        if (!bc_need_ops(r, 1, "VERSION"))
            return false;
        if (r->bs.ops[0] > 1)
            return bc_fail(r, SB_ERROR_BAD_VERSION, "VERSION %llu: only 0 and 1 (LLVM 3.7, DXIL) "
                                                    "are read", (unsigned long long)r->bs.ops[0]);
        m->version = (uint32_t)r->bs.ops[0];
        return true;
    case MODULE_TRIPLE:
        m->triple = bc_ops_string(r, 0, r->bs.op_count, "TRIPLE");
        return m->triple != NULL;
    case MODULE_DATALAYOUT:
        m->datalayout = bc_ops_string(r, 0, r->bs.op_count, "DATALAYOUT");
        return m->datalayout != NULL;
    case MODULE_GLOBALVAR: return read_globalvar(r);
    case MODULE_FUNCTION: return read_function(r);
    case MODULE_ALIAS:
    case MODULE_ALIAS_OLD:
        /* An alias takes a value id; DXIL has none, so refuse rather than misnumber. */
        return bc_fail(r, SB_ERROR_BC_BAD_RECORD, "ALIAS records are not DXIL");
    default:
        return true; /* section names, gc names, comdats, VSTOFFSET: nothing DXIL needs */
    }
}

static bool read_module_sub_block(struct sb_bc_reader *r)
{
    switch (r->bs.block_id) {
    case BC_BLOCK_PARAMATTR:
    case BC_BLOCK_PARAMATTR_GROUP:
        if (r->flags & SB_BC_READ_SKIP_ATTRIBUTES_AND_ATTACHMENTS)
            return bc_skip_block(r);
        return bc_read_attribute_block(r);
    case BC_BLOCK_TYPE: return bc_read_type_block(r);
    case BC_BLOCK_CONSTANTS: return bc_read_constants_block(r);
    case BC_BLOCK_METADATA: return bc_read_metadata_block(r);
    case BC_BLOCK_VALUE_SYMTAB: return bc_read_symtab_block(r);
    case BC_BLOCK_FUNCTION: return bc_read_function_block(r);
    default: return bc_skip_block(r);
    }
}

static bool finish_module(struct sb_bc_reader *r)
{
    struct sb_bc_module *m = r->module;
    for (uint32_t i = 0; i < m->global_count; i++)
        if (m->globals[i].initializer != SB_BC_NONE &&
            m->globals[i].initializer >= m->value_count)
            return bc_fail(r, SB_ERROR_BC_BAD_REFERENCE,
                           "GLOBALVAR %u: initializer value %u, the module has %u values", i,
                           m->globals[i].initializer, m->value_count);
    uint32_t definitions = 0;
    for (uint32_t i = 0; i < m->function_count; i++)
        definitions += !m->functions[i].is_declaration;
    if (definitions != r->bodies_read)
        return bc_fail(r, SB_ERROR_BC_BAD_BLOCK,
                       "MODULE_BLOCK: %u function definitions but %u bodies", definitions,
                       r->bodies_read);
    return true;
}

static bool read_module_block(struct sb_bc_reader *r)
{
    for (;;) {
        switch (sb_bs_next(&r->bs)) {
        case SB_BS_RECORD:
            if (!read_module_record(r))
                return false;
            continue;
        case SB_BS_ENTER:
            if (!read_module_sub_block(r))
                return false;
            continue;
        case SB_BS_END:
            return finish_module(r);
        default:
            return false;
        }
    }
}

/* The top level: exactly one MODULE_BLOCK (other top-level blocks are skipped). */
static bool read_top_level(struct sb_bc_reader *r)
{
    bool have_module = false;
    for (;;) {
        enum sb_bs_entry entry = sb_bs_next(&r->bs);
        if (entry == SB_BS_EOF)
            break;
        if (entry != SB_BS_ENTER)
            return false; /* the cursor allows only blocks here, so this is its failure */
        if (r->bs.block_id != BC_BLOCK_MODULE) {
            if (!bc_skip_block(r))
                return false;
            continue;
        }
        if (have_module)
            return bc_fail(r, SB_ERROR_DUPLICATE, "a second MODULE_BLOCK");
        have_module = true;
        if (r->flags & SB_BC_READ_SKIP_KINDS_AND_LAYOUT)
            sb_bs_skip_records(&r->bs, 1ull << MODULE_TRIPLE | 1ull << MODULE_DATALAYOUT);
        if (!read_module_block(r))
            return false;
    }
    if (!have_module)
        return sb_bs_fail(&r->bs, SB_ERROR_BC_BAD_BLOCK, r->bs.bit, "no MODULE_BLOCK in the bitcode");
    return true;
}

/* The wrapper (magic, version, offset, size, cputype) around the bitcode, if any. */
static enum sb_result unwrap(const uint8_t *bitcode, size_t size, uint64_t base_offset,
                             size_t *start, size_t *end, struct sb_error *error)
{
    *start = 0;
    *end = size;
    if (size < 4 || sb_load_u32(bitcode) != BITCODE_WRAPPER_MAGIC)
        return SB_SUCCESS;
    if (size < 20)
        return sb_error_set(error, SB_ERROR_TRUNCATED, base_offset, SB_ERROR_NO_INSTR,
                            "bitcode wrapper: 20 bytes needed, %zu present", size);
    uint32_t offset = sb_load_u32(bitcode + 8), length = sb_load_u32(bitcode + 12);
    if (offset < 20 || offset > size || length > size - offset)
        return sb_error_set(error, SB_ERROR_BAD_OFFSET, base_offset + 8, SB_ERROR_NO_INSTR,
                            "bitcode wrapper: offset %u size %u leave the %zu bytes", offset,
                            length, size);
    *start = offset;
    *end = (size_t)offset + length;
    return SB_SUCCESS;
}

enum sb_result sb_bc_read(const uint8_t *bitcode, size_t size, uint64_t base_offset,
                          struct sb_bc_module **out, struct sb_error *error)
{
    return sb_bc_read_ex(bitcode, size, base_offset, 0, out, error);
}

enum sb_result sb_bc_read_ex(const uint8_t *bitcode, size_t size, uint64_t base_offset,
                             uint32_t flags, struct sb_bc_module **out, struct sb_error *error)
{
    if (!out || (!bitcode && size))
        return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                            "sb_bc_read: NULL output or data");
    *out = NULL;
    size_t start, end;
    enum sb_result result = unwrap(bitcode, size, base_offset, &start, &end, error);
    if (result != SB_SUCCESS)
        return result;
    if (end - start < 4 || memcmp(bitcode + start, "BC\xc0\xde", 4) != 0)
        return sb_error_set(error, SB_ERROR_BAD_MAGIC, base_offset + start, SB_ERROR_NO_INSTR,
                            "bitcode magic: 'BC' 0xC0DE expected");
    if ((end - start) % 4)
        return sb_error_set(error, SB_ERROR_BAD_SIZE, base_offset + start, SB_ERROR_NO_INSTR,
                            "bitcode size %zu is not a multiple of 4", end - start);
    struct sb_arena *arena = sb_arena_create();
    struct sb_bc_module *module = arena ? sb_arena_alloc(arena, 1, sizeof(*module)) : NULL;
    if (!module) {
        sb_arena_destroy(arena);
        return sb_error_set(error, SB_ERROR_OUT_OF_MEMORY, 0, SB_ERROR_NO_INSTR,
                            "out of memory for the bitcode module");
    }
    module->arena = arena;
    module->triple = module->datalayout = "";
    struct sb_bc_reader r = { .module = module, .arena = arena, .flags = flags };
    struct sb_error local;
    sb_bs_init(&r.bs, bitcode + start, end - start, 4, base_offset + start, error ? error : &local);
    sb_bs_use_arena(&r.bs, arena);
    bool ok = read_top_level(&r);
    sb_bs_release(&r.bs);
    free(r.fixups);
    if (!ok) {
        if (!r.bs.failed) /* every failing path records its error; this keeps the promise */
            sb_bs_fail(&r.bs, SB_ERROR_BC_BAD_BLOCK, r.bs.bit, "the module could not be read");
        enum sb_result code = r.bs.error->code;
        sb_arena_destroy(arena);
        return code;
    }
    *out = module;
    return SB_SUCCESS;
}

enum sb_result sb_bc_read_dxil_part(const uint8_t *part, size_t size, uint64_t base_offset,
                                    struct sb_bc_module **out, struct sb_error *error)
{
    return sb_bc_read_dxil_part_ex(part, size, base_offset, 0, out, error);
}

enum sb_result sb_bc_read_dxil_part_ex(const uint8_t *part, size_t size, uint64_t base_offset,
                                       uint32_t flags, struct sb_bc_module **out,
                                       struct sb_error *error)
{
    if (!out || (!part && size))
        return sb_error_set(error, SB_ERROR_INVALID_ARGUMENT, 0, SB_ERROR_NO_INSTR,
                            "sb_bc_read_dxil_part: NULL output or data");
    *out = NULL;
    if (size < DXIL_HEADER_SIZE)
        return sb_error_set(error, SB_ERROR_TRUNCATED, base_offset, SB_ERROR_NO_INSTR,
                            "DXIL program header: %d bytes needed, the part has %zu",
                            DXIL_HEADER_SIZE, size);
    uint32_t version = sb_load_u32(part), words = sb_load_u32(part + 4);
    uint32_t magic = sb_load_u32(part + 8), dxil_version = sb_load_u32(part + 12);
    uint32_t offset = sb_load_u32(part + 16), length = sb_load_u32(part + 20);
    if ((uint64_t)words * 4 > size)
        return sb_error_set(error, SB_ERROR_BAD_SIZE, base_offset + 4, SB_ERROR_NO_INSTR,
                            "DXIL program header: SizeInUint32 %u (%llu bytes) exceeds the part's "
                            "%zu", words, (unsigned long long)words * 4, size);
    if (magic != DXIL_MAGIC)
        return sb_error_set(error, SB_ERROR_BAD_MAGIC, base_offset + 8, SB_ERROR_NO_INSTR,
                            "DXIL program header: magic 0x%08x, 'DXIL' expected", magic);
    /* The bitcode offset counts from the magic (byte 8) and must pass the header's 16 bytes. */
    if (offset < 16 || offset > size - 8 || length > size - 8 - offset)
        return sb_error_set(error, SB_ERROR_BAD_OFFSET, base_offset + 16, SB_ERROR_NO_INSTR,
                            "DXIL program header: bitcode offset %u size %u leave the part of "
                            "%zu bytes", offset, length, size);
    enum sb_result result =
        sb_bc_read_ex(part + 8 + offset, length, base_offset + 8 + offset, flags, out, error);
    if (result == SB_SUCCESS) {
        (*out)->program_version = version;
        (*out)->dxil_version = dxil_version;
    }
    return result;
}

void sb_bc_module_destroy(struct sb_bc_module *module)
{
    if (module)
        sb_arena_destroy(module->arena);
}
