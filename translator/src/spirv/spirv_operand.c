/* SPDX-License-Identifier: MIT */
/*
 * Source and destination operands of the SPIR-V back end (model: spirv_private.h):
 * source loads with swizzle, typed view and modifiers; destination stores with write
 * mask and saturate; pointers with relative indexing into every register file, the
 * constant buffers (cb#, SM5.1 ranges) and class linkage's this[] and relatively
 * chosen cb[r][v] (IR.md §Class linkage, spirv_linkage.c).
 *
 * A relative index is itself an operand (IR.md §Operands: r1.x + 2 inside c#[...]),
 * so loading an operand recurses through sb_spv_index_value -> sb_spv_load_scalar;
 * every kind of operand access is in this one file so the recursion stays inside it.
 * Declarations of what these functions address live above them: spirv_registers.c,
 * spirv_cbuffer.c, spirv_linkage.c.
 */
#include "spirv_linkage_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- values kept within a block ------------------------------------------------------------------ */

/*
 * Each IR instruction reads its operands afresh, so a block repeats the same pure work on
 * the same ids: r0.x extracted and bitcast to int for every instruction that reads it,
 * cb0[1] loaded again for each use, o0 addressed again for each lane written, x0[r1.x + 2]
 * added, clamped and addressed again. These places keep their results in ctx->kept, one
 * direct-mapped table keyed by what the value is built from (an id and a shape word), so
 * a repeat costs a hash and three compares instead of an instruction. A collision just
 * forgets the older entry.
 *
 * Every entry names its block, and only the open block's entries are used: an earlier
 * instruction of the same block dominates the repeat, so no control-flow analysis is
 * needed. Keys are ids, which are never reused, so a register written since (a new vector
 * id) can never hit an old view; the only loads kept read memory nothing writes (cb#, the
 * icb), and pointers do not depend on memory at all.
 */

/* The kind of a kept value, in the top four bits of its shape word so that keys of different
 * kinds never meet; the bits below (< KEPT_LIMIT) say which value of that kind. */
#define KEPT_VIEW (0u << 28)    /* lanes, count, type, modifiers (key: the vector id) */
#define KEPT_CB (1u << 28)      /* SM5.1 register << 12 | vector (key: cb id + 1) */
#define KEPT_CHAIN (2u << 28)   /* constant register (key: the file's array variable) */
#define KEPT_INDEX (3u << 28)   /* constant offset (key: the relative index value) */
#define KEPT_CLAMP (4u << 28)   /* bound (key: the index value) */
#define KEPT_ELEMENT (5u << 28) /* array variable (key: the index value, constant or not) */
#define KEPT_ICB (6u << 28)     /* nothing (key: the pointer to an icb row) */
#define KEPT_LIMIT (1u << 28)

static inline struct sb_spv_kept_value *kept_slot(struct sb_spv_context *ctx, uint32_t key,
                                                  uint32_t shape)
{
    return &ctx->kept[((key << 5) ^ shape) * 0x9E3779B1u >> (32u - SB_SPV_KEPT_BITS)];
}

/* The value slot `e` keeps for (key, shape) in the open block, or 0. */
static inline uint32_t kept_value(const struct sb_spv_context *ctx, const struct sb_spv_kept_value *e,
                                  uint32_t key, uint32_t shape)
{
    if ((e->key == key) & (e->shape == shape) & (e->block == ctx->builder.current_block) &
        ctx->builder.block_open)
        return e->value;
    return 0;
}

/* Fills slot `e` (NULL: nothing is kept) with `value`, just emitted into the open block
 * (emission opens one if needed); returns `value`. */
static inline uint32_t kept_put(const struct sb_spv_context *ctx, struct sb_spv_kept_value *e,
                                uint32_t key, uint32_t shape, uint32_t value)
{
    if (e && value && ctx->builder.block_open) {
        e->key = key;
        e->shape = shape;
        e->block = ctx->builder.current_block;
        e->value = value;
    }
    return value;
}

/* The value kept for (key, kind | detail) in the open block, or 0; `*slot`: where to keep a
 * new one, NULL when `detail` does not fit below the kind bits (then nothing is kept). */
static inline uint32_t kept_find(struct sb_spv_context *ctx, uint32_t key, uint32_t kind, uint32_t detail,
                                 struct sb_spv_kept_value **slot)
{
    *slot = NULL;
    if (detail >= KEPT_LIMIT)
        return 0;
    *slot = kept_slot(ctx, key, kind | detail);
    return kept_value(ctx, *slot, key, kind | detail);
}

/* ---- pointers ---------------------------------------------------------------------------------- */

uint32_t sb_spv_index_value(struct sb_spv_context *ctx, const struct sb_ir_index *index)
{
    uint32_t offset = sb_spv_uint(ctx, index->offset);
    if (!index->relative)
        return offset;
    uint32_t rel = sb_spv_load_scalar(ctx, index->relative, SB_IR_TYPE_UINT);
    if (!rel)
        return 0;
    if (!index->offset)
        return rel;
    /* Each read of c[r1.x + 2] in a block adds the same two values. */
    struct sb_spv_kept_value *e;
    uint32_t kept = kept_find(ctx, rel, KEPT_INDEX, index->offset, &e);
    if (kept)
        return kept;
    uint32_t sum = sb_spv_op2(&ctx->builder, SpvOpIAdd, sb_spv_t_u32(ctx), rel, offset);
    return kept_put(ctx, e, rel, KEPT_INDEX | index->offset, sum);
}

/* min(index, bound): a relative index kept inside its Private array, whose element `bound`
 * is the zero one that out-of-range reads get. */
static uint32_t clamp_index(struct sb_spv_context *ctx, uint32_t index, uint32_t bound)
{
    if (!index)
        return 0;
    struct sb_spv_kept_value *e;
    uint32_t kept = kept_find(ctx, index, KEPT_CLAMP, bound, &e);
    if (kept)
        return kept;
    uint32_t v = sb_spv_glsl2(&ctx->builder, sb_spv_t_u32(ctx), GLSLstd450UMin, index, sb_spv_uint(ctx, bound));
    return kept_put(ctx, e, index, KEPT_CLAMP | bound, v);
}

/* Pointer of type `pointer_type` to element `index` (an id) of the array variable `var`. */
static uint32_t element_pointer(struct sb_spv_context *ctx, uint32_t pointer_type, uint32_t var,
                                uint32_t index)
{
    if (!index)
        return 0;
    struct sb_spv_kept_value *e;
    uint32_t kept = kept_find(ctx, index, KEPT_ELEMENT, var, &e);
    if (kept)
        return kept;
    uint32_t ptr = sb_spv_access_chain(&ctx->builder, pointer_type, var, &index, 1);
    return kept_put(ctx, e, index, KEPT_ELEMENT | var, ptr);
}

/* A constant index must lie in [0, count). */
static bool check_static(struct sb_spv_context *ctx, const struct sb_ir_operand *op, uint32_t slot,
                         uint32_t count)
{
    if (op->index[slot].relative || op->index[slot].offset < count)
        return true;
    sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL,
                "register index %u of file %u is outside its declared %u registers",
                op->index[slot].offset, op->file, count);
    return false;
}

static uint32_t file_pointer(struct sb_spv_context *ctx, const struct sb_ir_operand *op)
{
    const struct sb_spv_register_file *f = &ctx->files[op->file];
    uint32_t idx[2];
    if (!f->var) {
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL, "register file %u is not declared",
                    op->file);
        return 0;
    }
    if (f->outer) {
        if (op->index_count < 2) {
            sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL,
                        "register of arrayed file %u needs two indices", op->file);
            return 0;
        }
        if (!check_static(ctx, op, 0, f->outer) || !check_static(ctx, op, 1, f->count))
            return 0;
        idx[0] = sb_spv_index_value(ctx, &op->index[0]);
        idx[1] = sb_spv_index_value(ctx, &op->index[1]);
        return sb_spv_access_chain(&ctx->builder, sb_spv_t_ptr_private_vec4(ctx), f->var, idx, 2);
    }
    if (op->index_count == 0 || !op->index[0].relative) {
        /* o0 written lane by lane, v1 read by several instructions: one pointer per block. */
        uint32_t at = op->index_count ? op->index[0].offset : 0;
        if (at >= f->count) {
            check_static(ctx, op, 0, f->count);
            return 0;
        }
        struct sb_spv_kept_value *e;
        uint32_t kept = kept_find(ctx, f->var, KEPT_CHAIN, at, &e);
        if (kept)
            return kept;
        idx[0] = sb_spv_uint(ctx, at);
        uint32_t ptr = sb_spv_access_chain(&ctx->builder, sb_spv_t_ptr_private_vec4(ctx), f->var, idx, 1);
        return kept_put(ctx, e, f->var, KEPT_CHAIN | at, ptr);
    }
    /* out of range: the zero element after the registers */
    return element_pointer(ctx, sb_spv_t_ptr_private_vec4(ctx), f->var,
                           clamp_index(ctx, sb_spv_index_value(ctx, &op->index[0]), f->count));
}

uint32_t sb_spv_register_pointer(struct sb_spv_context *ctx, const struct sb_ir_operand *op)
{
    uint32_t idx;
    switch (op->file) {
    case SB_IR_FILE_TEMP:
        if (op->index_count < 1 || op->index[0].relative || op->index[0].offset >= ctx->temp_count) {
            sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL, "r%u is not declared",
                        op->index_count ? op->index[0].offset : 0);
            return 0;
        }
        return ctx->temps[op->index[0].offset];
    case SB_IR_FILE_INDEXABLE_TEMP: {
        uint32_t id = op->index_count ? op->index[0].offset : 0;
        if (op->index_count < 2 || id >= ctx->indexable_count || !ctx->indexable[id].var) {
            sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL, "x%u is not declared", id);
            return 0;
        }
        if (!check_static(ctx, op, 1, ctx->indexable[id].count))
            return 0;
        idx = sb_spv_index_value(ctx, &op->index[1]);
        if (op->index[1].relative) /* out of range: the zero sink element after the array */
            idx = clamp_index(ctx, idx, ctx->indexable[id].count);
        return element_pointer(ctx, sb_spv_t_ptr_private_vec4(ctx), ctx->indexable[id].var, idx);
    }
    case SB_IR_FILE_IMMEDIATE_CONSTANT_BUFFER:
        /* A uvec4 pointer, unlike the other files. */
        if (!ctx->icb_var || op->index_count < 1) {
            sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL,
                        "immediate constant buffer read without a declared icb");
            return 0;
        }
        if (!check_static(ctx, op, 0, ctx->program->icb_vector_count))
            return 0;
        idx = sb_spv_index_value(ctx, &op->index[0]);
        if (op->index[0].relative) /* out of range: the zero row after the data */
            idx = clamp_index(ctx, idx, ctx->program->icb_vector_count);
        return element_pointer(
            ctx, sb_spv_type_pointer(&ctx->builder, SpvStorageClassPrivate, sb_spv_t_uvec(ctx, 4)), ctx->icb_var, idx);
    case SB_IR_FILE_THIS_POINTER: case SB_IR_FILE_INTERFACE: case SB_IR_FILE_FUNCTION_BODY:
    case SB_IR_FILE_FUNCTION_TABLE:
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, NULL,
                    "operand file %u (class linkage) is no register: only read as a value",
                    op->file);
        return 0;
    default:
        if (op->file < SB_IR_FILE_COUNT)
            return file_pointer(ctx, op);
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL, "operand file %u is not a register",
                    op->file);
        return 0;
    }
}

uint32_t sb_spv_lane_pointer(struct sb_spv_context *ctx, const struct sb_ir_operand *operand,
                             uint32_t lane)
{
    if (operand->file == SB_IR_FILE_CONSTANT_BUFFER)
        return sb_spv_cbuffer_lane_pointer(ctx, operand, lane);
    uint32_t reg = sb_spv_register_pointer(ctx, operand);
    if (!reg)
        return 0;
    uint32_t l = sb_spv_uint(ctx, lane & 3u);
    return sb_spv_access_chain(&ctx->builder, sb_spv_t_ptr_private_f32(ctx), reg, &l, 1);
}

/* ---- loads ---------------------------------------------------------------------------------------- */

void sb_spv_registers_forget(struct sb_spv_context *ctx)
{
    sb_spv_registers_flush(ctx);
    ctx->temp_generation++;
}

/* Out of line: only DXIL programs come here, and the SM4 path stays as compact as before. */
#define SB_SPV_NOINLINE __attribute__((noinline))

/* A memoryless r#'s value in the open stretch (sb_spv_temp_is_memoryless), or 0. */
static SB_SPV_NOINLINE uint32_t memoryless_cached(const struct sb_spv_context *ctx, uint32_t i)
{
    return sb_spv_temp_is_memoryless(ctx, i) && ctx->temp_block[i] == ctx->temp_region ? ctx->temp_value[i] : 0;
}

/* The cached value of r`i` in the open block, or 0. A memoryless r# keeps epoch 0, never a
 * generation, so only memoryless_cached finds it (DXIL programs: ctx->temp_shapes). */
static inline uint32_t temp_cached(const struct sb_spv_context *ctx, uint32_t i)
{
    const struct sb_spv_builder *b = &ctx->builder;
    if (ctx->temp_value && (b->block_open & (ctx->temp_block[i] == b->current_block) &
                            (ctx->temp_epoch[i] == ctx->temp_generation)))
        return ctx->temp_value[i];
    if (__builtin_expect(ctx->temp_shapes, 0))
        return memoryless_cached(ctx, i);
    return 0;
}

static inline void temp_remember(struct sb_spv_context *ctx, uint32_t i, uint32_t value)
{
    if (!ctx->temp_value)
        return;
    ctx->temp_value[i] = value;
    ctx->temp_block[i] = ctx->builder.current_block;
    ctx->temp_epoch[i] = ctx->temp_generation;
}

/* Stores r`i`'s whole value and lists the store for sb_spv_registers_discard. */
static inline void store_temp(struct sb_spv_context *ctx, uint32_t i, uint32_t value)
{
    struct sb_spv_builder *b = &ctx->builder;
    sb_spv_store(b, ctx->temps[i], value);
    if (ctx->temp_stores_block != b->current_block) {
        ctx->temp_stores_block = b->current_block;
        ctx->temp_store_count = 0;
    }
    ctx->temp_stores[ctx->temp_store_count++ % SB_SPV_TEMP_STORES] =
        (struct sb_spv_temp_store){ .offset = (uint32_t)b->fn_body.count - 3, .reg = i };
}

/* A load of r`i` from memory: the stores of it so far are read. */
static inline uint32_t load_temp(struct sb_spv_context *ctx, uint32_t i)
{
    uint32_t type = sb_spv_t_fvec(ctx, 4);
    if (__builtin_expect(ctx->temp_shapes, 0)) {
        if (sb_spv_temp_is_memoryless(ctx, i)) {
            /* The scan (spirv_registers.c) saw an ALU write before every read of the stretch. */
            sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL,
                        "internal: r%u has no variable and no value in this stretch", i);
            return 0;
        }
        if (sb_spv_temp_is_scalar(ctx, i))
            type = sb_spv_t_f32(ctx);
    }
    ctx->temp_read_upto[i] = ctx->temp_store_count;
    ctx->temp_read_block[i] = ctx->temp_stores_block;
    return sb_spv_load(&ctx->builder, type, ctx->temps[i]);
}

void sb_spv_registers_flush(struct sb_spv_context *ctx)
{
    for (uint32_t k = 0; k < ctx->temp_dirty_count; k++) {
        uint32_t i = ctx->temp_dirty[k], value = temp_cached(ctx, i);
        ctx->temp_is_dirty[i] = 0;
        /* Deferral happens only inside ALU instructions, which never leave their block, and
         * every way out of a block flushes first: the value is always still cached here. */
        if (value)
            store_temp(ctx, i, value);
        else
            sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL,
                        "internal: deferred write of r%u left its block", i);
    }
    ctx->temp_dirty_count = 0;
    sb_spv_io_direct_flush(ctx); /* output lanes held back the same way (spirv_io_direct.c) */
}

/*
 * Before a return: the deferred writes are dropped, and the listed stores of the open
 * block that nothing read are taken out of the body. A load of r# memory goes through
 * load_temp, which marks the stores before it; a store leaves the value cached for the
 * rest of its block, so an unmarked store was read, if at all, through the cache. Only
 * words of the open block move, after every position the flow code keeps (its
 * branches' words lie in earlier blocks).
 */
void sb_spv_registers_discard(struct sb_spv_context *ctx)
{
    sb_spv_io_direct_flush(ctx); /* held-back output lanes are the shader's result: stored */
    for (uint32_t k = 0; k < ctx->temp_dirty_count; k++)
        ctx->temp_is_dirty[ctx->temp_dirty[k]] = 0;
    ctx->temp_dirty_count = 0;
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t block = ctx->temp_stores_block, count = ctx->temp_store_count;
    ctx->temp_store_count = 0;
    if (!b->block_open || b->failed || block != b->current_block)
        return;
    const uint32_t store = (3u << SpvWordCountShift) | (uint32_t)SpvOpStore;
    uint32_t *words = b->fn_body.words;
    size_t to = 0, from = 0; /* words [from, next store) move down to `to` */
    bool moving = false;
    for (uint32_t k = count > SB_SPV_TEMP_STORES ? count - SB_SPV_TEMP_STORES : 0; k < count; k++) {
        const struct sb_spv_temp_store *s = &ctx->temp_stores[k % SB_SPV_TEMP_STORES];
        uint32_t r = s->reg;
        if ((ctx->temp_read_block[r] == block && k < ctx->temp_read_upto[r]) ||
            (size_t)s->offset + 3 > b->fn_body.count || words[s->offset] != store ||
            words[s->offset + 1] != ctx->temps[r])
            continue;
        if (moving) {
            memmove(words + to, words + from, (s->offset - from) * sizeof(*words));
            to += s->offset - from;
        } else {
            to = s->offset;
            moving = true;
        }
        from = (size_t)s->offset + 3;
    }
    if (!moving)
        return;
    memmove(words + to, words + from, (b->fn_body.count - from) * sizeof(*words));
    b->fn_body.count = to + (b->fn_body.count - from);
}

/* A direct r# operand (the only kind cached). */
static bool is_temp(const struct sb_spv_context *ctx, const struct sb_ir_operand *op)
{
    /* One branch for the four tests (every field is there whatever the file). */
    return (op->file == SB_IR_FILE_TEMP) & (op->index_count >= 1) & !op->index[0].relative &
           (op->index[0].offset < ctx->temp_count);
}

/* The register number of a direct file's operand (special files have no index), checked
 * against the file's size; UINT32_MAX (recorded) outside it. */
static uint32_t direct_register(struct sb_spv_context *ctx, const struct sb_ir_operand *op)
{
    if (op->index_count == 0)
        return 0;
    return check_static(ctx, op, 0, ctx->files[op->file].count) ? op->index[0].offset : UINT32_MAX;
}

/* A register of a direct input file: the vec4 the entry body computed at its start. */
static uint32_t direct_input(struct sb_spv_context *ctx, const struct sb_ir_operand *src)
{
    const struct sb_spv_register_file *f = &ctx->files[src->file];
    uint32_t reg = direct_register(ctx, src);
    if (reg == UINT32_MAX)
        return 0;
    if (f->values && f->values[reg])
        return f->values[reg];
    return sb_spv_const_null(&ctx->builder, sb_spv_t_fvec(ctx, 4)); /* no Input variable: 0, as the array held */
}

/*
 * A dynamically indexed x# read: the element loaded through the clamped index, or 0 when
 * the index lies outside the array (IR.md: what the interpreter returns, and reports as
 * undefined). Selected rather than read from a zeroed spare element: x# has no
 * initializer, because any zero store to the array makes lavapipe run loops over it up
 * to 4x slower (spirv_registers.c, declare_indexable).
 */
static uint32_t indexable_in_range(struct sb_spv_context *ctx, const struct sb_ir_operand *src,
                                   uint32_t loaded)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t index = sb_spv_index_value(ctx, &src->index[1]);
    if (!index || !loaded)
        return 0;
    uint32_t count = ctx->indexable[src->index[0].offset].count;
    uint32_t inside = sb_spv_op2(b, SpvOpULessThan, sb_spv_t_bool(ctx), index, sb_spv_uint(ctx, count));
    const uint32_t lanes[4] = { inside, inside, inside, inside };
    uint32_t mask = sb_spv_construct(b, sb_spv_t_bvec(ctx, 4), lanes, 4);
    return sb_spv_op3(b, SpvOpSelect, sb_spv_t_fvec(ctx, 4), mask, loaded,
                      sb_spv_const_null(b, sb_spv_t_fvec(ctx, 4)));
}

/* How a vector came to load_lanes: only those read again within the block keep views. */
enum vector_origin { VECTOR_ONCE, VECTOR_FIRST, VECTOR_AGAIN };

static uint32_t cb_vector(struct sb_spv_context *ctx, const struct sb_ir_operand *operand,
                          enum vector_origin *origin);

/* The whole register as vec4 float (a scalar r#: its float, load_lanes' own case); `origin`:
 * whether the same id comes again within the block (r# and constant cb# elements, both kept
 * per block) and whether it did now. */
static uint32_t load_vector(struct sb_spv_context *ctx, const struct sb_ir_operand *src,
                            enum vector_origin *origin)
{
    *origin = VECTOR_ONCE;
    if (is_temp(ctx, src)) {
        uint32_t i = src->index[0].offset, v = temp_cached(ctx, i);
        *origin = VECTOR_AGAIN;
        if (!v) {
            v = load_temp(ctx, i);
            temp_remember(ctx, i, v);
            *origin = VECTOR_FIRST;
        }
        return v;
    }
    if (src->file == SB_IR_FILE_CONSTANT_BUFFER)
        return cb_vector(ctx, src, origin);
    if (src->file == SB_IR_FILE_THIS_POINTER) /* class-instance spec constants (spirv_linkage.c) */
        return sb_spv_linkage_this_vector(ctx, src);
    if (src->file < SB_IR_FILE_COUNT && ctx->files[src->file].direct) {
        /* One SSA value per register for the whole body: its views are kept like r#'s. */
        *origin = VECTOR_AGAIN;
        return direct_input(ctx, src);
    }
    uint32_t ptr = sb_spv_register_pointer(ctx, src);
    if (ptr && src->file == SB_IR_FILE_IMMEDIATE_CONSTANT_BUFFER) {
        /* Never written: a row read again in the block (the same pointer) is the same value. */
        struct sb_spv_kept_value *e = kept_slot(ctx, ptr, KEPT_ICB);
        uint32_t kept = kept_value(ctx, e, ptr, KEPT_ICB);
        *origin = kept ? VECTOR_AGAIN : VECTOR_FIRST;
        if (kept)
            return kept;
        return kept_put(ctx, e, ptr, KEPT_ICB,
                        sb_spv_op1(&ctx->builder, SpvOpBitcast, sb_spv_t_fvec(ctx, 4),
                                   sb_spv_load(&ctx->builder, sb_spv_t_uvec(ctx, 4), ptr)));
    }
    if (ptr && src->file == SB_IR_FILE_INDEXABLE_TEMP && src->index[1].relative)
        return indexable_in_range(ctx, src, sb_spv_load(&ctx->builder, sb_spv_t_fvec(ctx, 4), ptr));
    return ptr ? sb_spv_load(&ctx->builder, sb_spv_t_fvec(ctx, 4), ptr) : 0;
}

/* Immediate lanes folded with the modifiers into a constant. */
static uint32_t immediate(struct sb_spv_context *ctx, const struct sb_ir_operand *src,
                          const uint32_t *lanes, uint32_t n, uint32_t ir_type)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t parts[4];
    uint32_t view = ir_type == SB_IR_TYPE_BOOL ? SB_IR_TYPE_UINT : ir_type;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t bits = src->imm[lanes[k] & 3u];
        if (view == SB_IR_TYPE_FLOAT) {
            if (src->modifiers & SB_IR_MOD_ABS)
                bits &= 0x7FFFFFFFu;
            if (src->modifiers & SB_IR_MOD_NEG)
                bits ^= 0x80000000u;
        } else {
            if ((src->modifiers & SB_IR_MOD_ABS) && (int32_t)bits < 0)
                bits = 0u - bits;
            if (src->modifiers & SB_IR_MOD_NEG)
                bits = 0u - bits;
        }
        if (ir_type == SB_IR_TYPE_BOOL)
            parts[k] = sb_spv_const_bool(b, bits != 0);
        else
            parts[k] = sb_spv_const32(b, sb_spv_type_of(ctx, view, 1), bits);
    }
    if (n == 1)
        return parts[0];
    return sb_spv_const_composite(b, sb_spv_type_of(ctx, ir_type, n), parts, n);
}

/* abs/neg in the operand's view. */
static uint32_t apply_modifiers(struct sb_spv_context *ctx, uint32_t value, uint32_t modifiers,
                                uint32_t ir_type, uint32_t n)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (!modifiers || !value)
        return value;
    uint32_t type = sb_spv_type_of(ctx, ir_type, n);
    if (ir_type == SB_IR_TYPE_FLOAT || ir_type == SB_IR_TYPE_DOUBLE) {
        if (modifiers & SB_IR_MOD_ABS)
            value = sb_spv_glsl1(b, type, GLSLstd450FAbs, value);
        if (modifiers & SB_IR_MOD_NEG)
            value = sb_spv_op1(b, SpvOpFNegate, type, value);
        return value;
    }
    if (ir_type != SB_IR_TYPE_INT && ir_type != SB_IR_TYPE_UINT)
        return value;
    uint32_t itype = sb_spv_t_ivec(ctx, n);
    uint32_t v = sb_spv_bitcast(b, itype, type, value);
    if (modifiers & SB_IR_MOD_ABS)
        v = sb_spv_glsl1(b, itype, GLSLstd450SAbs, v);
    if (modifiers & SB_IR_MOD_NEG)
        v = sb_spv_op1(b, SpvOpSNegate, itype, v);
    return sb_spv_bitcast(b, type, itype, v);
}

/* The shape word of a kept view: its lanes (`code`, two bits each), count, type and
 * modifiers (ir_type < 8: the enum's values). */
static inline uint32_t view_shape(uint32_t code, uint32_t n, uint32_t ir_type, uint32_t modifiers)
{
    return KEPT_VIEW | code | n << 8 | (ir_type & 7u) << 11 | (modifiers & 3u) << 14;
}

/* Loads the lanes `lanes[0..n)` of a source in `ir_type` (modifiers applied); `code` holds
 * them too, two bits each from bit 0 (the callers pack them as they gather them). */
static uint32_t load_lanes(struct sb_spv_context *ctx, const struct sb_ir_operand *src,
                           const uint32_t *lanes, uint32_t code, uint32_t n, uint32_t ir_type)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (n < 1 || n > 4)
        return 0;
    if (src->file == SB_IR_FILE_IMMEDIATE)
        return immediate(ctx, src, lanes, n, ir_type);
    enum vector_origin origin;
    uint32_t vec = load_vector(ctx, src, &origin);
    if (!vec)
        return 0;
    bool scalar = __builtin_expect(ctx->temp_shapes, 0) && is_temp(ctx, src) &&
                  sb_spv_temp_is_scalar(ctx, src->index[0].offset);
    /* A vector read again in this block keeps its views (kept_slot) under the swizzle,
     * count, type and modifiers (ir_type < 8: the enum's values). */
    struct sb_spv_kept_value *e = NULL;
    uint32_t shape = 0;
    if (origin != VECTOR_ONCE) {
        shape = view_shape(code, n, ir_type, src->modifiers);
        e = kept_slot(ctx, vec, shape);
        uint32_t kept = origin == VECTOR_AGAIN ? kept_value(ctx, e, vec, shape) : 0;
        if (kept)
            return kept;
    }
    uint32_t value;
    if (scalar) {
        /* x is the register; the lanes never written read 0 (spirv_registers.c, struct temp_scan). */
        uint32_t comps[4];
        for (uint32_t k = 0; k < n; k++)
            comps[k] = (lanes[k] & 3u) ? sb_spv_const_f32(b, 0.0f) : vec;
        value = n == 1 ? comps[0] : sb_spv_construct(b, sb_spv_t_fvec(ctx, n), comps, n);
    } else if (n == 1) {
        value = sb_spv_extract(b, sb_spv_t_f32(ctx), vec, lanes[0] & 3u);
    } else if (n == 4 && code == 0xE4u) { /* .xyzw */
        value = vec;
    } else {
        value = sb_spv_swizzle(b, sb_spv_t_fvec(ctx, n), vec, code, n);
    }
    uint32_t view = ir_type == SB_IR_TYPE_BOOL ? SB_IR_TYPE_UINT : ir_type;
    if (view != SB_IR_TYPE_FLOAT) /* most reads are float: skip the calls that would do nothing */
        value = sb_spv_convert_view(ctx, value, SB_IR_TYPE_FLOAT, view, n);
    if (src->modifiers)
        value = apply_modifiers(ctx, value, src->modifiers, view, n);
    if (ir_type == SB_IR_TYPE_BOOL)
        value = sb_spv_convert_view(ctx, value, SB_IR_TYPE_UINT, SB_IR_TYPE_BOOL, n);
    return kept_put(ctx, e, vec, shape, value);
}

/* For each write mask: its lanes lowest first, two bits each (lanes past the count repeat
 * the last), and the count in bits 8-10. */
static const uint16_t mask_lanes[16] = {
    0x000, 0x100, 0x155, 0x254, 0x1AA, 0x2A8, 0x2A9, 0x3A4,
    0x1FF, 0x2FC, 0x2FD, 0x3F4, 0x2FE, 0x3F8, 0x3F9, 0x4E4,
};

uint32_t sb_spv_load_src(struct sb_spv_context *ctx, const struct sb_ir_operand *src, uint32_t mask,
                         uint32_t ir_type)
{
    /* The hottest gathering of operand reads, without a branch: a loop over the set bits
     * ended at a different count from one operand to the next, a mispredicted exit each
     * time. All four lanes are read; load_lanes looks at the first n, and `code` is cut to
     * them. */
    uint32_t row = mask_lanes[mask & 0xFu], n = row >> 8;
    uint32_t lanes[4];
    for (uint32_t k = 0; k < 4; k++)
        lanes[k] = src->swizzle[(row >> 2 * k) & 3u];
    uint32_t code = ((lanes[0] & 3u) | (lanes[1] & 3u) << 2 | (lanes[2] & 3u) << 4 | (lanes[3] & 3u) << 6) &
                    (0xFFu >> (8 - 2 * n));
    return load_lanes(ctx, src, lanes, code, n, ir_type);
}

uint32_t sb_spv_load_src_n(struct sb_spv_context *ctx, const struct sb_ir_operand *src, uint32_t n,
                           uint32_t ir_type)
{
    uint32_t lanes[4], code = 0;
    if (n > 4)
        n = 4;
    for (uint32_t i = 0; i < n; i++) {
        lanes[i] = src->swizzle[i];
        code |= (lanes[i] & 3u) << 2 * i;
    }
    return load_lanes(ctx, src, lanes, code, n, ir_type);
}

uint32_t sb_spv_load_scalar(struct sb_spv_context *ctx, const struct sb_ir_operand *src,
                            uint32_t ir_type)
{
    return sb_spv_load_src_n(ctx, src, 1, ir_type);
}

/* `n` lane pairs of `src` (pair k starts at lane swizzle[k] & 2) as a 64-bit vector of
 * `type` whose scalar is `scalar`: the register lanes bitcast, or immediate constants. */
static uint32_t load_pairs(struct sb_spv_context *ctx, const struct sb_ir_operand *src, uint32_t n,
                           uint32_t type, uint32_t scalar)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t lanes[4], code = 0;
    for (uint32_t k = 0; k < n; k++) {
        lanes[2 * k] = src->swizzle[k] & 2u;
        lanes[2 * k + 1] = (src->swizzle[k] & 2u) + 1;
        code |= (lanes[2 * k] | lanes[2 * k + 1] << 2) << 4 * k;
    }
    if (src->file == SB_IR_FILE_IMMEDIATE) {
        uint32_t parts[2];
        for (uint32_t k = 0; k < n; k++) {
            uint64_t bits = src->imm[lanes[2 * k]] | ((uint64_t)src->imm[lanes[2 * k + 1]] << 32);
            parts[k] = sb_spv_const64(b, scalar, bits);
        }
        return n == 1 ? parts[0] : sb_spv_const_composite(b, type, parts, n);
    }
    struct sb_ir_operand plain = *src;
    plain.modifiers = 0;
    uint32_t u = load_lanes(ctx, &plain, lanes, code, 2 * n, SB_IR_TYPE_UINT);
    return u ? sb_spv_op1(b, SpvOpBitcast, type, u) : 0;
}

uint32_t sb_spv_load_src_double(struct sb_spv_context *ctx, const struct sb_ir_operand *src, uint32_t n)
{
    if (n < 1 || n > 2)
        return 0;
    uint32_t dtype = sb_spv_type_of(ctx, SB_IR_TYPE_DOUBLE, n);
    uint32_t value = load_pairs(ctx, src, n, dtype, ctx->t.f64);
    return value ? apply_modifiers(ctx, value, src->modifiers, SB_IR_TYPE_DOUBLE, n) : 0;
}

uint32_t sb_spv_load_src_int64(struct sb_spv_context *ctx, const struct sb_ir_operand *src, uint32_t n)
{
    if (n < 1 || n > 2)
        return 0;
    uint32_t type = sb_spv_t_u64vec(ctx, n);
    return load_pairs(ctx, src, n, type, ctx->t.u64);
}

/* ---- stores --------------------------------------------------------------------------------------- */

/* Writes `n` float lanes `value` to the lanes of `mask` of register pointer `reg`. */
static void write_lanes(struct sb_spv_context *ctx, uint32_t reg, uint32_t mask, uint32_t value,
                        uint32_t n)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (mask == 0xF && n == 4) {
        sb_spv_store(b, reg, value);
        return;
    }
    if (n == 1) {
        uint32_t l = sb_spv_uint(ctx, (uint32_t)__builtin_ctz(mask)); /* n == 1: one lane set */
        sb_spv_store(b, sb_spv_access_chain(b, sb_spv_t_ptr_private_f32(ctx), reg, &l, 1), value);
        return;
    }
    /* Merge into the old vector: components 0-3 = old, 4.. = new. */
    uint32_t old = sb_spv_load(b, sb_spv_t_fvec(ctx, 4), reg);
    uint32_t comps[4], k = 0;
    for (uint32_t i = 0; i < 4; i++)
        comps[i] = (mask & (1u << i)) ? 4 + k++ : i;
    sb_spv_store(b, reg, sb_spv_shuffle(b, sb_spv_t_fvec(ctx, 4), old, value, comps, 4));
}

/* The new whole value of r`i` is kept for later reads in this block and stored, now or
 * at the next flush (deferred during ALU instructions); false for a failed value. */
static bool keep_temp_write(struct sb_spv_context *ctx, uint32_t i, uint32_t full)
{
    temp_remember(ctx, i, full);
    if (!full) {
        sb_spv_store(&ctx->builder, ctx->temps[i], full); /* a failure, recorded: nothing to remember */
    } else if (!ctx->defer_temp_stores) {
        store_temp(ctx, i, full);
    } else if (!ctx->temp_is_dirty[i]) {
        ctx->temp_is_dirty[i] = 1;
        ctx->temp_dirty[ctx->temp_dirty_count++] = i;
    }
    return full != 0;
}

/* A scalar r# (only ever written in x, so `value` is its float): the value is the register.
 * A memoryless one is only kept, for its stretch: no store. */
static SB_SPV_NOINLINE bool write_scalar_temp(struct sb_spv_context *ctx, uint32_t i, uint32_t value)
{
    if (!sb_spv_temp_is_memoryless(ctx, i))
        return keep_temp_write(ctx, i, value);
    temp_remember(ctx, i, value);
    ctx->temp_block[i] = ctx->temp_region;
    ctx->temp_epoch[i] = 0;
    return value != 0;
}

/*
 * After a write of r# lanes `mask`: reading those lanes back in this block, in the order
 * written, gives the value written, so one view of the new vector `full` starts kept, in
 * the type the writer produced: an integer or bool writer's own value (`typed`, before its
 * conversion to float bits), else the float `value`. Such a read then costs no extract,
 * shuffle or bitcast of what was just built. One view, not both: keeping the float view
 * of an integer write as well doubled the cost in translation time for modules only 0.2%
 * smaller.
 */
static void keep_written_view(struct sb_spv_context *ctx, uint32_t full, uint32_t mask,
                              uint32_t value, uint32_t n, uint32_t typed, uint32_t ir_type)
{
    /* The lanes of each write mask in order, two bits each (as load_lanes' `code`). */
    static const uint8_t mask_code[16] = { 0, 0x0, 0x1, 0x4, 0x2, 0x8, 0x9, 0x24,
                                           0x3, 0xC, 0xD, 0x34, 0xE, 0x38, 0x39, 0xE4 };
    uint32_t code = mask_code[mask & 0xFu];
    if (typed && (ir_type == SB_IR_TYPE_INT || ir_type == SB_IR_TYPE_UINT || ir_type == SB_IR_TYPE_BOOL)) {
        uint32_t shape = view_shape(code, n, ir_type, 0);
        kept_put(ctx, kept_slot(ctx, full, shape), full, shape, typed);
    } else if (n != 4) { /* .xyzw float is `full` itself */
        uint32_t shape = view_shape(code, n, SB_IR_TYPE_FLOAT, 0);
        kept_put(ctx, kept_slot(ctx, full, shape), full, shape, value);
    }
}

/* r# write: the new whole vector is built from the cached (or loaded) old one,
 * stored, and remembered for later reads in this block. `typed` is `value` before its
 * conversion from `ir_type` to float bits. */
static bool write_temp(struct sb_spv_context *ctx, uint32_t i, uint32_t mask, uint32_t value, uint32_t n,
                       uint32_t typed, uint32_t ir_type)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t full;
    /* A whole constant written first thing in a function emits nothing itself: open the
     * block now, so the value is remembered for (and a deferred store lands in) that block. */
    if (!b->block_open)
        (void)sb_spv_body_words(b, 0);
    if (__builtin_expect(ctx->temp_shapes, 0) && sb_spv_temp_is_scalar(ctx, i))
        return write_scalar_temp(ctx, i, value);
    if (mask == 0xF && n == 4) {
        full = value;
    } else {
        uint32_t old = temp_cached(ctx, i);
        if (!old)
            old = load_temp(ctx, i);
        if (n == 1) {
            uint32_t lane = (uint32_t)__builtin_ctz(mask); /* n == 1: one lane set */
            full = sb_spv_op3(b, SpvOpCompositeInsert, sb_spv_t_fvec(ctx, 4), value, old, lane);
        } else {
            uint32_t comps[4], k = 0;
            for (uint32_t l = 0; l < 4; l++)
                comps[l] = (mask & (1u << l)) ? 4 + k++ : l;
            full = sb_spv_shuffle(b, sb_spv_t_fvec(ctx, 4), old, value, comps, 4);
        }
    }
    if (full && value)
        keep_written_view(ctx, full, mask, value, n, typed, ir_type);
    return keep_temp_write(ctx, i, full);
}

bool sb_spv_store_dst_mask(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                           const struct sb_ir_operand *dst, uint32_t mask, uint32_t value,
                           uint32_t ir_type)
{
    struct sb_spv_builder *b = &ctx->builder;
    mask &= 0xFu;
    uint32_t n = sb_spv_mask_count(mask);
    if (dst->file == SB_IR_FILE_NULL || !n)
        return true;
    if (!value)
        return false;
    if (inst && (inst->flags & SB_IR_FLAG_SATURATE) && ir_type == SB_IR_TYPE_FLOAT) {
        /* NClamp: NaN -> 0 as D3D's saturate. */
        value = sb_spv_glsl3(b, sb_spv_t_fvec(ctx, n), GLSLstd450NClamp, value,
                             sb_spv_const_of(ctx, SB_IR_TYPE_FLOAT, n, 0),
                             sb_spv_const_of(ctx, SB_IR_TYPE_FLOAT, n, 0x3F800000u));
    }
    if (dst->file < SB_IR_FILE_COUNT && ctx->files[dst->file].direct) {
        /* Straight into the Output variables, converted once to each one's type there. */
        uint32_t reg = direct_register(ctx, dst);
        if (reg == UINT32_MAX)
            return false;
        sb_spv_io_direct_store(ctx, dst->file, reg, mask, value, ir_type);
        return ctx->result == SB_SUCCESS;
    }
    uint32_t typed = value;
    value = sb_spv_convert_view(ctx, value, ir_type, SB_IR_TYPE_FLOAT, n);
    if (dst->file == SB_IR_FILE_CONSTANT_BUFFER || dst->file == SB_IR_FILE_IMMEDIATE ||
        dst->file == SB_IR_FILE_IMMEDIATE_CONSTANT_BUFFER) {
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst, "destination file %u is read-only",
                    dst->file);
        return false;
    }
    if (is_temp(ctx, dst))
        return write_temp(ctx, dst->index[0].offset, mask, value, n, typed, ir_type);
    uint32_t reg = sb_spv_register_pointer(ctx, dst);
    if (!reg)
        return false;
    write_lanes(ctx, reg, mask, value, n);
    return true;
}

bool sb_spv_store_dst(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                      const struct sb_ir_operand *dst, uint32_t value, uint32_t ir_type)
{
    return sb_spv_store_dst_mask(ctx, inst, dst, dst->mask, value, ir_type);
}

bool sb_spv_store_dst_double(struct sb_spv_context *ctx, const struct sb_ir_instruction *inst,
                             const struct sb_ir_operand *dst, uint32_t value, uint32_t n)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t mask = dst->mask & 0xFu;
    if (dst->file == SB_IR_FILE_NULL || !mask)
        return true;
    if (!value)
        return false;
    uint32_t lanes = sb_spv_mask_count(mask);
    if (lanes != 2 * n) {
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, inst,
                    "64-bit destination mask 0x%x does not hold %u double(s)", mask, n);
        return false;
    }
    uint32_t f = sb_spv_op1(b, SpvOpBitcast, sb_spv_t_fvec(ctx, lanes), value);
    if (dst->file < SB_IR_FILE_COUNT && ctx->files[dst->file].direct) {
        uint32_t reg = direct_register(ctx, dst);
        if (reg == UINT32_MAX)
            return false;
        sb_spv_io_direct_store(ctx, dst->file, reg, mask, f, SB_IR_TYPE_FLOAT);
        return ctx->result == SB_SUCCESS;
    }
    if (is_temp(ctx, dst))
        return write_temp(ctx, dst->index[0].offset, mask, f, lanes, f, SB_IR_TYPE_FLOAT);
    uint32_t reg = sb_spv_register_pointer(ctx, dst);
    if (!reg)
        return false;
    write_lanes(ctx, reg, mask, f, lanes);
    return true;
}

/* ---- constant buffers --------------------------------------------------------------------------- */

/* Pointer to the vec4 (lane == 4) or to one float lane of a cb operand. */
static uint32_t cb_pointer(struct sb_spv_context *ctx, const struct sb_ir_operand *op, uint32_t lane)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (op->index_count < 2)
        goto invalid;
    if (!sb_spv_cb_sm51_form(op) && op->index[0].relative) {
        /* Only whole-vector loads can choose the buffer at run time (spirv_linkage.c). */
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_UNSUPPORTED, NULL,
                    "relatively chosen constant buffer used as a pointer");
        return 0;
    }
    uint32_t r = sb_spv_find_resource(ctx, SB_IR_RESOURCE_CBV, op->index[0].offset);
    if (r == UINT32_MAX || !ctx->resources[r].var)
        goto invalid;
    uint32_t idx[4], n = 0;
    if (ctx->resources[r].arrayed) {
        /* The descriptor-array index: the front end already made SM5.1's absolute register
         * relative to the range's lower bound (IR.md, operand files). */
        uint32_t reg = sb_spv_cb_sm51_form(op) ? sb_spv_index_value(ctx, &op->index[1]) : sb_spv_uint(ctx, 0);
        if (op->non_uniform) {
            sb_spv_capability(b, SpvCapabilityShaderNonUniform);
            sb_spv_capability(b, SpvCapabilityUniformBufferArrayNonUniformIndexing);
            if (ctx->spirv_version < 0x00010500)
                sb_spv_extension(b, "SPV_EXT_descriptor_indexing");
            sb_spv_decorate(b, reg, SpvDecorationNonUniform, NULL, 0);
        }
        idx[n++] = reg;
    }
    const struct sb_ir_index *vec = &op->index[sb_spv_cb_sm51_form(op) ? 2 : 1];
    if (ctx->resources[r].members) {
        /* Struct form: the vector is a member; the scan guaranteed a constant index. */
        idx[n++] = sb_spv_uint(ctx, vec->offset);
    } else {
        idx[n++] = sb_spv_uint(ctx, 0);
        idx[n++] = sb_spv_index_value(ctx, vec);
    }
    if (lane < 4)
        idx[n++] = sb_spv_uint(ctx, lane);
    uint32_t ptr_type = sb_spv_type_pointer(b, SpvStorageClassUniform, lane < 4 ? sb_spv_t_f32(ctx) : sb_spv_t_fvec(ctx, 4));
    uint32_t ptr = sb_spv_access_chain(b, ptr_type, ctx->resources[r].var, idx, n);
    if (op->non_uniform && ctx->resources[r].arrayed)
        sb_spv_decorate(b, ptr, SpvDecorationNonUniform, NULL, 0);
    return ptr;
invalid:
    sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL, "constant buffer cb%u is not declared",
                op->index_count ? op->index[0].offset : 0);
    return 0;
}

uint32_t sb_spv_cbuffer_lane_pointer(struct sb_spv_context *ctx, const struct sb_ir_operand *operand,
                                     uint32_t lane)
{
    return cb_pointer(ctx, operand, lane & 3u);
}

/* sb_spv_cbuffer_load_vector; `origin` as load_vector's. */
static uint32_t cb_vector(struct sb_spv_context *ctx, const struct sb_ir_operand *operand,
                          enum vector_origin *origin)
{
    /* SM5.0 class linkage picks the buffer at run time: cb[r1.x + 0][...] (spirv_linkage.c). */
    if (operand->index_count == 2 && operand->index[0].relative)
        return sb_spv_linkage_cbuffer_load(ctx, operand);
    /* A constant element of a constant buffer (read-only memory) is loaded once per block,
     * kept under the buffer id (key) and the SM5.1 register and the vector (shape). */
    bool sm51 = sb_spv_cb_sm51_form(operand);
    const struct sb_ir_index *vec = &operand->index[sm51 ? 2 : 1];
    uint32_t reg = sm51 ? operand->index[1].offset : 0;
    if (operand->index_count < 2 || operand->index[0].relative || vec->relative ||
        (sm51 && operand->index[1].relative) || vec->offset >= 4096u || reg >= (1u << 14) ||
        operand->index[0].offset == UINT32_MAX) {
        uint32_t ptr = cb_pointer(ctx, operand, 4);
        return ptr ? sb_spv_load(&ctx->builder, sb_spv_t_fvec(ctx, 4), ptr) : 0;
    }
    uint32_t key = operand->index[0].offset + 1u, shape = KEPT_CB | reg << 12 | vec->offset;
    struct sb_spv_kept_value *e = kept_slot(ctx, key, shape);
    uint32_t value = kept_value(ctx, e, key, shape);
    *origin = VECTOR_AGAIN;
    if (value)
        return value;
    *origin = VECTOR_FIRST;
    uint32_t ptr = cb_pointer(ctx, operand, 4);
    return kept_put(ctx, e, key, shape, ptr ? sb_spv_load(&ctx->builder, sb_spv_t_fvec(ctx, 4), ptr) : 0);
}

uint32_t sb_spv_cbuffer_load_vector(struct sb_spv_context *ctx, const struct sb_ir_operand *operand)
{
    enum vector_origin origin = VECTOR_ONCE;
    return cb_vector(ctx, operand, &origin);
}

/* ---- class linkage: this[] and cb[r][v] ---------------------------------------------------------- */

/* OpSpecConstantComposite of `count` constituents (a global constant instruction). */
uint32_t sb_spv_spec_composite(struct sb_spv_context *ctx, uint32_t type, const uint32_t *parts,
                               uint32_t count)
{
    struct sb_spv_builder *b = &ctx->builder;
    const uint32_t head[2] = { type, sb_spv_id(b) };
    sb_spv_emit_joined(b, SB_SPV_SECTION_GLOBAL, SpvOpSpecConstantComposite, head, 2, parts, count);
    return head[1];
}

uint32_t sb_spv_spec_array(struct sb_spv_context *ctx, uint32_t array_type, const uint32_t *parts,
                           uint32_t count, uint32_t *cached)
{
    struct sb_spv_builder *b = &ctx->builder;
    if (sb_spv_for_text_target(ctx)) {
        uint32_t var = sb_spv_variable_local(b, sb_spv_type_pointer(b, SpvStorageClassFunction, array_type), 0);
        sb_spv_store(b, var, sb_spv_construct(b, array_type, parts, count));
        return var;
    }
    if (!*cached) {
        uint32_t init = sb_spv_spec_composite(ctx, array_type, parts, count);
        if (!init)
            return 0;
        *cached = sb_spv_variable_global(b, sb_spv_type_pointer(b, SpvStorageClassPrivate, array_type),
                                         SpvStorageClassPrivate, init);
    }
    return *cached;
}

/* A uint index clamped to [0, count - 1] (Private arrays must not be read out of bounds). */
uint32_t sb_spv_clamped_index(struct sb_spv_context *ctx, const struct sb_ir_index *index,
                              uint32_t count)
{
    return clamp_index(ctx, sb_spv_index_value(ctx, index), count - 1);
}

uint32_t sb_spv_linkage_this_vector(struct sb_spv_context *ctx, const struct sb_ir_operand *op)
{
    struct sb_spv_builder *b = &ctx->builder;
    struct linkage_state *st = sb_spv_linkage_state(ctx);
    if (!st || op->index_count < 1) {
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL,
                    "this[] read in a program without interface slots");
        return 0;
    }
    uint32_t value;
    if (!op->index[0].relative) {
        /* sb_spv_linkage_slot_count made every constant index a slot. */
        const uint32_t *f = &st->spec[op->index[0].offset * SB_CLASS_LINKAGE_FIELDS + 1];
        value = sb_spv_construct(b, sb_spv_t_uvec(ctx, 4), f, 4);
    } else {
        uint32_t array_type = sb_spv_type_array(b, sb_spv_t_uvec(ctx, 4), st->slot_count);
        uint32_t array = st->this_array;
        if (!array || sb_spv_for_text_target(ctx)) {
            uint32_t *parts = sb_arena_alloc_uninit(ctx->scratch, st->slot_count, sizeof(*parts));
            if (!parts) {
                sb_spv_fail(ctx, SB_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
                return 0;
            }
            /* A text target builds the array in the function: its slots too. */
            for (uint32_t s = 0; s < st->slot_count; s++) {
                const uint32_t *fields = &st->spec[s * SB_CLASS_LINKAGE_FIELDS + 1];
                parts[s] = sb_spv_for_text_target(ctx) ? sb_spv_construct(b, sb_spv_t_uvec(ctx, 4), fields, 4)
                                                       : sb_spv_spec_composite(ctx, sb_spv_t_uvec(ctx, 4), fields, 4);
            }
            array = sb_spv_spec_array(ctx, array_type, parts, st->slot_count, &st->this_array);
            if (!array)
                return 0;
        }
        uint32_t idx = sb_spv_clamped_index(ctx, &op->index[0], st->slot_count);
        if (!idx)
            return 0;
        uint32_t ptr = sb_spv_access_chain(
            b, sb_spv_type_pointer(b, sb_spv_spec_array_storage(ctx), sb_spv_t_uvec(ctx, 4)), array, &idx, 1);
        value = sb_spv_load(b, sb_spv_t_uvec(ctx, 4), ptr);
    }
    return sb_spv_op1(b, SpvOpBitcast, sb_spv_t_fvec(ctx, 4), value);
}

uint32_t sb_spv_linkage_cbuffer_load(struct sb_spv_context *ctx, const struct sb_ir_operand *op)
{
    struct sb_spv_builder *b = &ctx->builder;
    const struct sb_ir_program *p = ctx->program;
    if (op->index_count != 2) {
        sb_spv_fail(ctx, SB_ERROR_TRANSLATE_INVALID, NULL,
                    "relatively chosen constant buffer needs a buffer and a vector index");
        return 0;
    }
    uint32_t reg = sb_spv_index_value(ctx, &op->index[0]);
    uint32_t vec = sb_spv_index_value(ctx, &op->index[1]);
    if (!reg || !vec)
        return 0;
    uint32_t value = sb_spv_const_null(b, sb_spv_t_fvec(ctx, 4));
    uint32_t ptr_type = sb_spv_type_pointer(b, SpvStorageClassUniform, sb_spv_t_fvec(ctx, 4));
    for (uint32_t i = 0; i < p->resource_count; i++) {
        const struct sb_ir_resource *res = &p->resources[i];
        const struct sb_spv_resource *r = &ctx->resources[i];
        if (res->resource_class != SB_IR_RESOURCE_CBV || !r->var || r->arrayed)
            continue;
        uint32_t idx[2], n = 0;
        if (r->members) {
            /* -g struct form: members need constant indices. */
            if (op->index[1].relative)
                continue;
            idx[n++] = sb_spv_uint(ctx, op->index[1].offset);
        } else {
            idx[n++] = sb_spv_uint(ctx, 0);
            idx[n++] = vec;
        }
        uint32_t loaded = sb_spv_load(b, sb_spv_t_fvec(ctx, 4), sb_spv_access_chain(b, ptr_type, r->var, idx, n));
        uint32_t hit = sb_spv_op2(b, SpvOpIEqual, sb_spv_t_bool(ctx), reg, sb_spv_uint(ctx, res->id));
        uint32_t hits[4] = { hit, hit, hit, hit };
        uint32_t cond = sb_spv_construct(b, sb_spv_t_bvec(ctx, 4), hits, 4);
        value = sb_spv_op3(b, SpvOpSelect, sb_spv_t_fvec(ctx, 4), cond, loaded, value);
    }
    return value;
}
