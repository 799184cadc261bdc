/* SPDX-License-Identifier: MIT */
/*
 * DVLE decoding for the SHBIN reader: the 64-byte header and the constant,
 * label, output, uniform and symbol tables of one entry point
 * (../shared/docs/pica200.md §12.3-§12.8, with §2 for float24 constants, §3.3 for
 * uniform registers, §9.2 for the geometry-shader fields and §11.2 for the
 * semantics an output implies).
 *
 * Every table is located by its own offset from the DVLE start; its offset
 * and count are checked against the file before anything is allocated, and
 * a failure names the header field (offset or count) that is wrong rather
 * than the place where reading stopped. Names are looked up in the DVLE's
 * symbol table with the scan bounded by that table's size, so a name cannot
 * run into whatever follows the table.
 *
 * Errors versus warnings: a value that makes the entry point unusable or
 * ambiguous (unknown type, register outside its class, an address outside
 * the code) fails the parse; reserved bits that are set but change nothing
 * are kept as found and reported as warnings.
 */
#include "shbin_private.h"

/* Header field offsets inside a DVLE (§12.3). */
enum {
    DVLE_TYPE = 0x06,
    DVLE_MAIN = 0x08,
    DVLE_END = 0x0C,
    DVLE_GS_MODE = 0x14,
    DVLE_CONSTANTS = 0x18,
    DVLE_LABELS = 0x20,
    DVLE_OUTPUTS = 0x28,
    DVLE_UNIFORMS = 0x30,
    DVLE_SYMBOLS = 0x38,
};

#define CONSTANT_ENTRY_SIZE 20u
#define LABEL_ENTRY_SIZE 16u
#define OUTPUT_ENTRY_SIZE 8u
#define UNIFORM_ENTRY_SIZE 8u

/* Registers per constant type (§12.4): bool 0-15, int 0-3, float 0-95. */
static const uint32_t constant_register_limit[] = {
    [SB_SHBIN_CONSTANT_BOOL] = 16,
    [SB_SHBIN_CONSTANT_INT] = 4,
    [SB_SHBIN_CONSTANT_FLOAT] = 96,
};

static bool read_header(struct sb_shbin_dvle_context *ctx, uint32_t offset,
                        struct sb_shbin_dvle *dvle)
{
    struct sb_cursor cur = sb_cursor_tail(&ctx->file, offset, "DVLE");
    uint32_t magic = sb_cursor_u32(&cur, "DVLE magic");
    if (!sb_cursor_ok(&cur))
        return false;
    if (magic != 0x454C5644u)
        return sb_reader_fail(ctx->reader, SB_ERROR_BAD_MAGIC, offset,
                              "DVLE magic at offset %u is 0x%08x, not 'DVLE' (0x454c5644)",
                              offset, magic);
    dvle->file_offset = offset;
    dvle->version = sb_cursor_u16(&cur, "DVLE version");
    uint8_t type = sb_cursor_u8(&cur, "DVLE shader type");
    dvle->flags = sb_cursor_u8(&cur, "DVLE flags");
    dvle->main_address = sb_cursor_u32(&cur, "DVLE main address");
    dvle->end_address = sb_cursor_u32(&cur, "DVLE end address");
    dvle->input_mask = sb_cursor_u16(&cur, "DVLE input mask");
    dvle->output_mask = sb_cursor_u16(&cur, "DVLE output mask");
    dvle->gs_mode_value = sb_cursor_u8(&cur, "DVLE geometry mode");
    dvle->gs_fixed_start_register = sb_cursor_u8(&cur, "DVLE geometry fixed start");
    dvle->gs_variable_vertex_count = sb_cursor_u8(&cur, "DVLE geometry variable count");
    dvle->gs_fixed_vertex_count = sb_cursor_u8(&cur, "DVLE geometry fixed count");
    dvle->constant_table_offset = sb_cursor_u32(&cur, "DVLE constant table offset");
    dvle->constant_count = sb_cursor_u32(&cur, "DVLE constant count");
    dvle->label_table_offset = sb_cursor_u32(&cur, "DVLE label table offset");
    dvle->label_count = sb_cursor_u32(&cur, "DVLE label count");
    dvle->output_table_offset = sb_cursor_u32(&cur, "DVLE output table offset");
    dvle->output_count = sb_cursor_u32(&cur, "DVLE output count");
    dvle->uniform_table_offset = sb_cursor_u32(&cur, "DVLE uniform table offset");
    dvle->uniform_count = sb_cursor_u32(&cur, "DVLE uniform count");
    dvle->symbol_table_offset = sb_cursor_u32(&cur, "DVLE symbol table offset");
    dvle->symbol_table_size = sb_cursor_u32(&cur, "DVLE symbol table size");
    if (!sb_cursor_ok(&cur))
        return false;
    if (type > SB_SHBIN_SHADER_GEOMETRY)
        return sb_reader_fail(ctx->reader, SB_ERROR_BAD_VALUE, (uint64_t)offset + DVLE_TYPE,
                              "DVLE shader type %u is neither vertex (0) nor geometry (1)",
                              type);
    dvle->type = (enum sb_shbin_shader_type)type;
    dvle->merge_outmaps = (dvle->flags & 1u) != 0;
    return true;
}

/* Checks the entry range and the geometry fields of a decoded header. */
static bool check_header(struct sb_shbin_dvle_context *ctx, struct sb_shbin_dvle *dvle)
{
    uint64_t at = dvle->file_offset;
    uint32_t words = ctx->code_word_count;
    if (dvle->main_address >= words)
        return sb_reader_fail(ctx->reader, SB_ERROR_BAD_OFFSET, at + DVLE_MAIN,
                              "DVLE main address %u is outside the %u-word code",
                              dvle->main_address, words);
    if (dvle->end_address > words)
        return sb_reader_fail(ctx->reader, SB_ERROR_BAD_OFFSET, at + DVLE_END,
                              "DVLE end address %u is past the end of the %u-word code",
                              dvle->end_address, words);
    if (dvle->end_address < dvle->main_address)
        return sb_reader_fail(ctx->reader, SB_ERROR_BAD_VALUE, at + DVLE_END,
                              "DVLE end address %u lies before its main address %u",
                              dvle->end_address, dvle->main_address);
    if (dvle->end_address == dvle->main_address)
        sb_reader_warn(ctx->reader, at + DVLE_END,
                       "DVLE main procedure is empty (main = end = %u)", dvle->main_address);
    if (dvle->type == SB_SHBIN_SHADER_VERTEX && dvle->end_address > SB_SHBIN_VERTEX_CODE_WORDS)
        sb_reader_warn(ctx->reader, at + DVLE_END,
                       "vertex DVLE ends at word %u, beyond the %u words a vertex unit loads",
                       dvle->end_address, SB_SHBIN_VERTEX_CODE_WORDS);
    if (dvle->flags & ~1u)
        sb_reader_warn(ctx->reader, at + 7, "DVLE flags 0x%02x set reserved bits (only bit 0 "
                       "is known)", dvle->flags);
    dvle->gs_mode = SB_SHBIN_GS_MODE_POINT;
    if (dvle->type == SB_SHBIN_SHADER_GEOMETRY) {
        if (dvle->gs_mode_value > SB_SHBIN_GS_MODE_FIXED)
            return sb_reader_fail(ctx->reader, SB_ERROR_BAD_VALUE, at + DVLE_GS_MODE,
                                  "geometry DVLE mode %u is not point (0), variable (1) or "
                                  "fixed (2)", dvle->gs_mode_value);
        dvle->gs_mode = (enum sb_shbin_gs_mode)dvle->gs_mode_value;
    }
    return true;
}

/*
 * Locates one table: `field` is the offset of its (offset, count) pair in
 * the DVLE header. The count check divides, so it cannot overflow.
 */
static bool table_window(struct sb_shbin_dvle_context *ctx, const struct sb_shbin_dvle *dvle,
                         uint32_t field, uint32_t table_offset, uint32_t count,
                         uint32_t record_size, enum sb_result count_code, const char *name,
                         struct sb_cursor *out)
{
    uint64_t size = ctx->reader->size;
    uint64_t field_at = (uint64_t)dvle->file_offset + field;
    uint64_t start = (uint64_t)dvle->file_offset + table_offset;
    if (start > size)
        return sb_reader_fail(ctx->reader, SB_ERROR_BAD_OFFSET, field_at,
                              "DVLE %s offset %u (file offset %llu) is past the end of the "
                              "%llu-byte file", name, table_offset, (unsigned long long)start,
                              (unsigned long long)size);
    if (count > (size - start) / record_size)
        return sb_reader_fail(ctx->reader, count_code, field_at + 4,
                              "DVLE %s %s %u (of %u-byte entries) needs more than the %llu "
                              "bytes left after file offset %llu", name,
                              record_size == 1 ? "size" : "count", count, record_size,
                              (unsigned long long)(size - start), (unsigned long long)start);
    uint64_t bytes = (uint64_t)count * record_size;
    if (bytes > size - ctx->table_bytes)
        return sb_reader_fail(ctx->reader, SB_ERROR_BAD_COUNT, field_at + 4,
                              "DVLE %s of %llu bytes brings the DVLE tables to more than the "
                              "%llu-byte file (tables overlap)", name,
                              (unsigned long long)bytes, (unsigned long long)size);
    ctx->table_bytes += bytes;
    *out = sb_cursor_window(&ctx->file, start, bytes, name);
    return sb_cursor_ok(out);
}

/* Splits the symbol table at its terminators (two passes: count, then fill). */
static bool decode_symbols(struct sb_shbin_dvle_context *ctx, struct sb_shbin_dvle *dvle,
                           const struct sb_cursor *table)
{
    const uint8_t *bytes = ctx->reader->data + table->begin;
    size_t size = sb_cursor_size(table);
    dvle->symbol_table = bytes;
    uint32_t count = 0;
    size_t start = 0;
    for (size_t i = 0; i < size; i++) {
        if (bytes[i] == 0) {
            count += i > start;
            start = i + 1;
        }
    }
    if (start < size)
        sb_reader_warn(ctx->reader, table->begin + start,
                       "DVLE symbol table ends with %zu bytes that have no terminator",
                       size - start);
    if (count == 0)
        return true;
    struct sb_shbin_string *symbols = sb_reader_alloc(ctx->reader, count, sizeof(*symbols));
    if (!symbols)
        return false;
    uint32_t n = 0;
    start = 0;
    for (size_t i = 0; i < size; i++) {
        if (bytes[i] == 0) {
            if (i > start)
                symbols[n++] = (struct sb_shbin_string){ (uint32_t)start,
                                                         (const char *)bytes + start };
            start = i + 1;
        }
    }
    dvle->symbols = symbols;
    dvle->symbol_count = count;
    return true;
}

/* A name from the symbol table; `field_at` is where the entry stores its offset. */
static const char *symbol_at(struct sb_shbin_dvle_context *ctx, const struct sb_cursor *table,
                             uint32_t name_offset, uint64_t field_at, const char *what,
                             uint32_t index)
{
    if (name_offset >= sb_cursor_size(table)) {
        sb_reader_fail(ctx->reader, SB_ERROR_BAD_OFFSET, field_at,
                       "%s %u: name offset %u is outside the %zu-byte symbol table", what,
                       index, name_offset, sb_cursor_size(table));
        return NULL;
    }
    return sb_cursor_string_at(table, name_offset, what);
}

static void decode_constant_value(struct sb_shbin_dvle_context *ctx,
                                  struct sb_shbin_constant *c, uint32_t index)
{
    uint32_t unused = 0;
    switch (c->type) {
    case SB_SHBIN_CONSTANT_BOOL:
        c->bool_value = (c->raw[0] & 1u) != 0;
        unused = (c->raw[0] & ~1u) | c->raw[1] | c->raw[2] | c->raw[3];
        break;
    case SB_SHBIN_CONSTANT_INT:
        for (unsigned k = 0; k < 4; k++)
            c->int_value[k] = (uint8_t)(c->raw[0] >> (8 * k));
        unused = c->raw[1] | c->raw[2] | c->raw[3];
        break;
    default:
        for (unsigned k = 0; k < 4; k++) {
            c->float24[k] = c->raw[k] & 0xFFFFFFu;
            c->float_value[k] = sb_shbin_float24_to_float(c->float24[k]);
            unused |= c->raw[k] & 0xFF000000u;
        }
        break;
    }
    if (unused)
        sb_reader_warn(ctx->reader, (uint64_t)c->file_offset + 4,
                       "constant %u: bits outside its %s value are set (kept as found)", index,
                       sb_shbin_constant_type_name(c->type));
}

static bool decode_constants(struct sb_shbin_dvle_context *ctx, struct sb_shbin_dvle *dvle)
{
    struct sb_cursor cur;
    if (!table_window(ctx, dvle, DVLE_CONSTANTS, dvle->constant_table_offset,
                      dvle->constant_count, CONSTANT_ENTRY_SIZE, SB_ERROR_BAD_COUNT,
                      "constant table", &cur))
        return false;
    if (dvle->constant_count == 0)
        return true;
    struct sb_shbin_constant *constants =
        sb_reader_alloc(ctx->reader, dvle->constant_count, sizeof(*constants));
    if (!constants)
        return false;
    for (uint32_t i = 0; i < dvle->constant_count; i++) {
        struct sb_shbin_constant *c = &constants[i];
        c->file_offset = (uint32_t)cur.pos;
        uint16_t type = sb_cursor_u16(&cur, "constant type");
        c->register_index = sb_cursor_u16(&cur, "constant register");
        for (unsigned k = 0; k < 4; k++)
            c->raw[k] = sb_cursor_u32(&cur, "constant value");
        if (!sb_cursor_ok(&cur))
            return false;
        if (type > SB_SHBIN_CONSTANT_FLOAT)
            return sb_reader_fail(ctx->reader, SB_ERROR_BAD_VALUE, c->file_offset,
                                  "constant %u: type %u is not bool (0), int (1) or float (2)",
                                  i, type);
        c->type = (enum sb_shbin_constant_type)type;
        if (c->register_index >= constant_register_limit[type])
            return sb_reader_fail(ctx->reader, SB_ERROR_BAD_VALUE, (uint64_t)c->file_offset + 2,
                                  "constant %u: %s register %u is out of range (0-%u)", i,
                                  sb_shbin_constant_type_name(c->type), c->register_index,
                                  constant_register_limit[type] - 1);
        decode_constant_value(ctx, c, i);
    }
    dvle->constants = constants;
    return true;
}

static bool decode_labels(struct sb_shbin_dvle_context *ctx, struct sb_shbin_dvle *dvle,
                          const struct sb_cursor *symbols)
{
    struct sb_cursor cur;
    if (!table_window(ctx, dvle, DVLE_LABELS, dvle->label_table_offset, dvle->label_count,
                      LABEL_ENTRY_SIZE, SB_ERROR_BAD_COUNT, "label table", &cur))
        return false;
    if (dvle->label_count == 0)
        return true;
    struct sb_shbin_label *labels = sb_reader_alloc(ctx->reader, dvle->label_count,
                                                    sizeof(*labels));
    if (!labels)
        return false;
    for (uint32_t i = 0; i < dvle->label_count; i++) {
        struct sb_shbin_label *l = &labels[i];
        l->file_offset = (uint32_t)cur.pos;
        l->id_word = sb_cursor_u32(&cur, "label id");
        l->address = sb_cursor_u32(&cur, "label address");
        l->unknown = sb_cursor_u32(&cur, "label unknown word");
        l->name_offset = sb_cursor_u32(&cur, "label name offset");
        if (!sb_cursor_ok(&cur))
            return false;
        l->id = (uint8_t)l->id_word;
        if (l->address > ctx->code_word_count)
            return sb_reader_fail(ctx->reader, SB_ERROR_BAD_OFFSET, (uint64_t)l->file_offset + 4,
                                  "label %u: address %u is past the end of the %u-word code", i,
                                  l->address, ctx->code_word_count);
        l->name = symbol_at(ctx, symbols, l->name_offset, (uint64_t)l->file_offset + 12,
                            "label", i);
        if (!l->name)
            return false;
    }
    dvle->labels = labels;
    return true;
}

static bool decode_outputs(struct sb_shbin_dvle_context *ctx, struct sb_shbin_dvle *dvle)
{
    struct sb_cursor cur;
    if (!table_window(ctx, dvle, DVLE_OUTPUTS, dvle->output_table_offset, dvle->output_count,
                      OUTPUT_ENTRY_SIZE, SB_ERROR_BAD_COUNT, "output table", &cur))
        return false;
    if (dvle->output_count == 0)
        return true;
    struct sb_shbin_output *outputs = sb_reader_alloc(ctx->reader, dvle->output_count,
                                                      sizeof(*outputs));
    if (!outputs)
        return false;
    for (uint32_t i = 0; i < dvle->output_count; i++) {
        struct sb_shbin_output *o = &outputs[i];
        o->file_offset = (uint32_t)cur.pos;
        uint16_t type = sb_cursor_u16(&cur, "output type");
        o->register_index = sb_cursor_u16(&cur, "output register");
        o->mask_word = sb_cursor_u32(&cur, "output mask");
        if (!sb_cursor_ok(&cur))
            return false;
        const struct sb_shbin_output_type_row *row = sb_shbin_output_type_row(type);
        if (!row)
            return sb_reader_fail(ctx->reader, SB_ERROR_BAD_VALUE, o->file_offset,
                                  "output %u: type %u is not a known output type (0-6, 8, 9)",
                                  i, type);
        if (o->register_index > 15)
            return sb_reader_fail(ctx->reader, SB_ERROR_BAD_VALUE, (uint64_t)o->file_offset + 2,
                                  "output %u: register o%u is out of range (o0-o15)", i,
                                  o->register_index);
        if (o->mask_word & ~0xFu)
            sb_reader_warn(ctx->reader, (uint64_t)o->file_offset + 4,
                           "output %u: mask 0x%08x sets bits above the four lanes", i,
                           o->mask_word);
        o->type = row->type;
        o->mask = (uint8_t)(o->mask_word & 0xFu);
        sb_shbin_output_semantics(row, o->mask, o->semantics);
    }
    dvle->outputs = outputs;
    return true;
}

static bool decode_uniform_registers(struct sb_shbin_dvle_context *ctx,
                                     struct sb_shbin_uniform *u, uint32_t index)
{
    enum sb_shbin_register_class last_class;
    uint64_t at = u->file_offset;
    if (!sb_shbin_decode_register(u->first_register, &u->register_class, &u->first_index))
        return sb_reader_fail(ctx->reader, SB_ERROR_BAD_VALUE, at + 4,
                              "uniform %u: first register 0x%x is in no register class "
                              "(0x00-0x73, 0x78-0x87)", index, u->first_register);
    if (!sb_shbin_decode_register(u->last_register, &last_class, &u->last_index))
        return sb_reader_fail(ctx->reader, SB_ERROR_BAD_VALUE, at + 6,
                              "uniform %u: last register 0x%x is in no register class "
                              "(0x00-0x73, 0x78-0x87)", index, u->last_register);
    if (last_class != u->register_class || u->last_register < u->first_register)
        return sb_reader_fail(ctx->reader, SB_ERROR_BAD_VALUE, at + 6,
                              "uniform %u: last register 0x%x does not follow first register "
                              "0x%x in the same class", index, u->last_register,
                              u->first_register);
    return true;
}

static bool decode_uniforms(struct sb_shbin_dvle_context *ctx, struct sb_shbin_dvle *dvle,
                            const struct sb_cursor *symbols)
{
    struct sb_cursor cur;
    if (!table_window(ctx, dvle, DVLE_UNIFORMS, dvle->uniform_table_offset,
                      dvle->uniform_count, UNIFORM_ENTRY_SIZE, SB_ERROR_BAD_COUNT,
                      "uniform table", &cur))
        return false;
    if (dvle->uniform_count == 0)
        return true;
    struct sb_shbin_uniform *uniforms = sb_reader_alloc(ctx->reader, dvle->uniform_count,
                                                        sizeof(*uniforms));
    if (!uniforms)
        return false;
    for (uint32_t i = 0; i < dvle->uniform_count; i++) {
        struct sb_shbin_uniform *u = &uniforms[i];
        u->file_offset = (uint32_t)cur.pos;
        u->name_offset = sb_cursor_u32(&cur, "uniform name offset");
        u->first_register = sb_cursor_u16(&cur, "uniform first register");
        u->last_register = sb_cursor_u16(&cur, "uniform last register");
        if (!sb_cursor_ok(&cur) || !decode_uniform_registers(ctx, u, i))
            return false;
        u->name = symbol_at(ctx, symbols, u->name_offset, u->file_offset, "uniform", i);
        if (!u->name)
            return false;
    }
    dvle->uniforms = uniforms;
    return true;
}

bool sb_shbin_decode_dvle(struct sb_shbin_dvle_context *ctx, uint32_t offset,
                          struct sb_shbin_dvle *dvle)
{
    if (!read_header(ctx, offset, dvle) || !check_header(ctx, dvle))
        return false;
    struct sb_cursor symbols;
    if (!table_window(ctx, dvle, DVLE_SYMBOLS, dvle->symbol_table_offset,
                      dvle->symbol_table_size, 1, SB_ERROR_BAD_SIZE, "symbol table", &symbols))
        return false;
    return decode_symbols(ctx, dvle, &symbols) && decode_constants(ctx, dvle) &&
           decode_labels(ctx, dvle, &symbols) && decode_outputs(ctx, dvle) &&
           decode_uniforms(ctx, dvle, &symbols);
}
