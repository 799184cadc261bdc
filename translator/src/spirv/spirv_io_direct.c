/* SPDX-License-Identifier: MIT */
/*
 * Direct inputs and outputs (model in spirv_private.h): the copies of spirv_io.c run
 * without the v#/o# register arrays. An input copy builds its register's vec4 as an SSA
 * value once, at the start of the entry body, only for registers some operand reads; an
 * output write (from spirv_operand.c) stores its lanes straight into the variables that
 * hold them, with the copy's conversion (lanes a run of ALU instructions writes one by one
 * wait until the run fills their variable, then go in one store; sb_spv_io_direct_flush
 * stores what is left when the run ends). Copying o# out at the end instead would need
 * the array again; storing at each write is the same to the pipeline, which sees Output
 * variables only when the invocation ends, and whatever a `ret` in nested control flow
 * leaves there is final. Outputs a path may leave unwritten are zeroed first, as the
 * zero-initialised arrays of the general path gave (the interpreter reads them as 0).
 * Also here: the input values both paths compute (D3D's conventions:
 * ../shared/docs/sm4-tokens.md §8.1, IR.md §Signatures).
 */
#include "spirv_io_private.h"

#include <stdlib.h>

/* ---- input values ---------------------------------------------------------------------------- */

/*
 * The value an input copy puts into its register: `*n` float lanes for lanes first_lane.. of
 * the register, D3D's conventions applied. Not for IO_DISTANCE (one array element per lane).
 */
uint32_t sb_spv_io_input_value(struct sb_spv_context *ctx, const struct io_copy *c, uint32_t *n)
{
    struct sb_spv_builder *b = &ctx->builder;
    *n = c->lane_count;
    switch (c->kind) {
    case IO_FRAG_COORD: {
        uint32_t v = sb_spv_load(b, sb_spv_t_fvec(ctx, 4), c->var);
        uint32_t w = sb_spv_extract(b, sb_spv_t_f32(ctx), v, 3);
        w = sb_spv_op2(b, SpvOpFDiv, sb_spv_t_f32(ctx), sb_spv_const_f32(b, 1.0f), w);
        *n = 4;
        return sb_spv_op3(b, SpvOpCompositeInsert, sb_spv_t_fvec(ctx, 4), w, v, 3);
    }
    case IO_FRONT_FACING: {
        uint32_t v = sb_spv_load(b, sb_spv_t_bool(ctx), c->var);
        return sb_spv_convert_view(ctx, v, SB_IR_TYPE_BOOL, SB_IR_TYPE_FLOAT, 1);
    }
    case IO_FULLY_COVERED: {
        uint32_t v = sb_spv_load(b, sb_spv_t_bool(ctx), c->var);
        uint32_t bit = sb_spv_op3(b, SpvOpSelect, sb_spv_t_u32(ctx), v, sb_spv_uint(ctx, 1), sb_spv_uint(ctx, 0));
        return sb_spv_op1(b, SpvOpBitcast, sb_spv_t_f32(ctx), bit);
    }
    case IO_INT_BUILTIN: {
        uint32_t type = sb_spv_type_of(ctx, c->ir_type, 1);
        uint32_t v = sb_spv_load(b, type, c->var);
        if (c->base_var)
            v = sb_spv_op2(b, SpvOpISub, type, v, sb_spv_load(b, type, c->base_var));
        return sb_spv_bitcast(b, sb_spv_t_f32(ctx), type, v);
    }
    case IO_UVEC3:
        return sb_spv_op1(b, SpvOpBitcast, sb_spv_t_fvec(ctx, 3), sb_spv_load(b, sb_spv_t_uvec(ctx, 3), c->var));
    case IO_SAMPLE_MASK: {
        uint32_t zero = sb_spv_uint(ctx, 0);
        uint32_t p = sb_spv_access_chain(b, sb_spv_type_pointer(b, SpvStorageClassInput, sb_spv_t_u32(ctx)),
                                         c->var, &zero, 1);
        return sb_spv_op1(b, SpvOpBitcast, sb_spv_t_f32(ctx), sb_spv_load(b, sb_spv_t_u32(ctx), p));
    }
    case IO_PLAIN:
    default: {
        uint32_t type = sb_spv_type_of(ctx, c->ir_type, *n);
        return sb_spv_bitcast(b, sb_spv_t_fvec(ctx, *n), type, sb_spv_load(b, type, c->var));
    }
    }
}

/* Element `index` of a ClipDistance/CullDistance Input array. */
uint32_t sb_spv_io_distance_input(struct sb_spv_context *ctx, const struct io_copy *c, uint32_t index)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t idx = sb_spv_uint(ctx, index);
    uint32_t p = sb_spv_access_chain(b, sb_spv_type_pointer(b, SpvStorageClassInput, sb_spv_t_f32(ctx)), c->var,
                                     &idx, 1);
    return sb_spv_load(b, sb_spv_t_f32(ctx), p);
}

/* Shuffle components putting the copy's `n` lanes over `old` (components 0-3 = old, 4.. = new). */
void sb_spv_io_merge_components(const struct io_copy *c, uint32_t n, uint32_t comps[4])
{
    uint32_t want = (c->lane_mask >> c->first_lane) & ((1u << n) - 1u);
    for (uint32_t i = 0; i < 4; i++) {
        uint32_t k = i - c->first_lane;
        comps[i] = (i >= c->first_lane && k < n && (want & (1u << k))) ? 4 + k : i;
    }
}

/* ---- direct files ------------------------------------------------------------------------------ */

/* The same copy into the SSA vec4 of a direct register: `*reg` (0 = still all zero). Lanes
 * outside `read` are never read: a FragCoord whose w is unread needs no 1/w. */
static void copy_in_direct(struct sb_spv_context *ctx, const struct io_copy *c, uint32_t read, uint32_t *reg)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t old = *reg, n;
    struct io_copy plain;
    if (c->kind == IO_FRAG_COORD && !(read & 8u)) {
        plain = *c;
        plain.kind = IO_PLAIN; /* FragCoord as it is: its xyz are SV_Position's */
        c = &plain;
    }
    if (c->kind == IO_DISTANCE) {
        uint32_t k = c->array_base;
        if (!old)
            old = sb_spv_const_null(b, sb_spv_t_fvec(ctx, 4));
        for (uint32_t lane = 0; lane < 4; lane++)
            if (c->lane_mask & (1u << lane))
                old = sb_spv_op3(b, SpvOpCompositeInsert, sb_spv_t_fvec(ctx, 4), sb_spv_io_distance_input(ctx, c, k++),
                                 old, lane);
        *reg = old;
        return;
    }
    uint32_t value = sb_spv_io_input_value(ctx, c, &n);
    uint32_t want = (c->lane_mask >> c->first_lane) & ((1u << n) - 1u);
    if (n == 4 && want == 0xF) {
        *reg = value;
        return;
    }
    if (!old) /* lanes no variable fills read as 0, as in the zeroed array */
        old = sb_spv_const_null(b, sb_spv_t_fvec(ctx, 4));
    if (n == 1) {
        *reg = sb_spv_op3(b, SpvOpCompositeInsert, sb_spv_t_fvec(ctx, 4), value, old, c->first_lane);
    } else {
        uint32_t comps[4];
        sb_spv_io_merge_components(c, n, comps);
        *reg = sb_spv_shuffle(b, sb_spv_t_fvec(ctx, 4), old, value, comps, 4);
    }
}

/* Lanes of the register a copy's variable holds (the variable's span; for IO_DISTANCE its
 * possibly sparse lanes). */
static uint32_t copy_lanes(const struct io_copy *c)
{
    if (c->kind == IO_DISTANCE)
        return c->lane_mask;
    return ((1u << c->lane_count) - 1u) << c->first_lane;
}

/* Zero stores for the lanes of direct output copy `c` outside `sure`. */
static void zero_output(struct sb_spv_context *ctx, const struct io_copy *c, uint32_t sure)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t open = copy_lanes(c) & ~sure;
    if (!open)
        return;
    if (c->kind == IO_DISTANCE) {
        uint32_t k = c->array_base, ptr_type = sb_spv_type_pointer(b, SpvStorageClassOutput, sb_spv_t_f32(ctx));
        for (uint32_t lane = 0; lane < 4; lane++) {
            if (!(c->lane_mask & (1u << lane)))
                continue;
            uint32_t idx = sb_spv_uint(ctx, k++);
            if (open & (1u << lane))
                sb_spv_store(b, sb_spv_access_chain(b, ptr_type, c->var, &idx, 1), sb_spv_const_f32(b, 0.0f));
        }
        return;
    }
    uint32_t type = c->kind == IO_SAMPLE_MASK ? sb_spv_type_array(b, sb_spv_t_u32(ctx), 1)
                                              : sb_spv_type_of(ctx, c->ir_type, c->lane_count);
    sb_spv_store(b, c->var, sb_spv_const_null(b, type));
}

/* Lanes of an input copy's register that some instruction may read. */
static uint32_t input_lanes_read(const struct sb_spv_context *ctx, const struct io_copy *c)
{
    if (c->file != SB_IR_FILE_INPUT)
        return 0xF; /* a special register is read whole or not at all (then it has no value) */
    if (c->reg >= 64)
        return ctx->input_read_high ? 0xF : 0;
    return ctx->input_lanes_read[c->reg];
}

void sb_spv_io_direct_begin(struct sb_spv_context *ctx)
{
    struct io_state *s = ctx->io_state;
    if (!s)
        return; /* no Input/Output variable: every direct register reads 0, nothing to zero */
    /* One block for the register values of every direct input file: the state's own
     * storage, enough for nearly every shader (no allocation per module). */
    uint32_t total = 0;
    for (uint32_t file = 0; file < SB_IR_FILE_COUNT; file++)
        if (ctx->files[file].direct && !sb_spv_is_output_file(file))
            total += ctx->files[file].count;
    uint32_t *values = s->value_storage;
    if (total > sizeof(s->value_storage) / sizeof(s->value_storage[0])) {
        values = s->direct_values = sb_spv_zalloc(ctx, total, sizeof(uint32_t));
        if (!values) {
            sb_spv_fail(ctx, SB_ERROR_OUT_OF_MEMORY, NULL, "out of memory");
            return;
        }
    }
    total = 0;
    for (uint32_t file = 0; file < SB_IR_FILE_COUNT; file++)
        if (ctx->files[file].direct && !sb_spv_is_output_file(file)) {
            ctx->files[file].values = values + total;
            total += ctx->files[file].count;
        }
    for (uint32_t i = 0; i < s->count; i++) {
        const struct io_copy *c = &s->copies[i];
        if (!c->var || !ctx->files[c->file].direct || c->reg >= ctx->files[c->file].count)
            continue;
        if (c->output)
            zero_output(ctx, c, c->file != SB_IR_FILE_OUTPUT ? ctx->special_lanes_sure[c->file]
                                : c->reg < 64                ? ctx->output_lanes_sure[c->reg]
                                                             : 0);
        else if (copy_lanes(c) & input_lanes_read(ctx, c))
            copy_in_direct(ctx, c, input_lanes_read(ctx, c), &ctx->files[c->file].values[c->reg]);
    }
}

/* Component of `value` (`n` components for the lanes of `mask`, ascending) holding `lane`. */
static uint32_t lane_component(struct sb_spv_context *ctx, uint32_t value, uint32_t n, uint32_t mask,
                               uint32_t lane, uint32_t scalar_type)
{
    if (n == 1)
        return value;
    return sb_spv_extract(&ctx->builder, scalar_type, value, sb_spv_mask_count(mask & ((1u << lane) - 1u)));
}

/* One store per pending lane of direct output copy `c`, through its component. */
static void store_pending(struct sb_spv_context *ctx, struct io_copy *c)
{
    struct sb_spv_builder *b = &ctx->builder;
    uint32_t ptr_type = sb_spv_type_pointer(b, SpvStorageClassOutput, sb_spv_type_of(ctx, c->ir_type, 1));
    for (uint32_t k = 0; k < c->lane_count; k++) {
        if (!(c->pending_lanes & (1u << (c->first_lane + k))))
            continue;
        uint32_t idx = sb_spv_uint(ctx, k);
        sb_spv_store(b, sb_spv_access_chain(b, ptr_type, c->var, &idx, 1), c->pending[k]);
    }
    c->pending_lanes = 0;
}

void sb_spv_io_direct_store(struct sb_spv_context *ctx, uint32_t file, uint32_t reg, uint32_t mask,
                            uint32_t value, uint32_t ir_type)
{
    struct sb_spv_builder *b = &ctx->builder;
    struct io_state *s = ctx->io_state;
    uint32_t n = sb_spv_mask_count(mask);
    if (ir_type == SB_IR_TYPE_BOOL) { /* lanes hold 0xFFFFFFFF/0 */
        value = sb_spv_convert_view(ctx, value, SB_IR_TYPE_BOOL, SB_IR_TYPE_UINT, n);
        ir_type = SB_IR_TYPE_UINT;
    }
    uint32_t typed = 0, typed_view = UINT32_MAX;
    for (uint32_t i = 0; s && i < s->count; i++) {
        struct io_copy *c = &s->copies[i];
        uint32_t lanes = copy_lanes(c), hit = mask & lanes;
        if (!c->output || c->file != file || c->reg != reg || !c->var || !hit)
            continue;
        /* The copy's own view: bits kept (a float o# lane written by an integer op is stored
         * as those bits, as the array held them). */
        uint32_t view = c->kind == IO_DISTANCE ? SB_IR_TYPE_FLOAT : c->ir_type;
        if (view != typed_view) { /* one conversion per view, whatever the number of variables */
            typed = sb_spv_convert_view(ctx, value, ir_type, view, n);
            typed_view = view;
        }
        uint32_t scalar = sb_spv_type_of(ctx, view, 1);
        if (c->kind == IO_DISTANCE || c->kind == IO_SAMPLE_MASK) {
            /* One array element per lane. */
            uint32_t k = c->array_base, ptr_type = sb_spv_type_pointer(b, SpvStorageClassOutput, scalar);
            for (uint32_t lane = 0; lane < 4; lane++) {
                if (!(lanes & (1u << lane)))
                    continue;
                uint32_t idx = sb_spv_uint(ctx, c->kind == IO_DISTANCE ? k++ : 0);
                if (hit & (1u << lane))
                    sb_spv_store(b, sb_spv_access_chain(b, ptr_type, c->var, &idx, 1),
                                 lane_component(ctx, typed, n, mask, lane, scalar));
            }
            continue;
        }
        uint32_t count = c->lane_count;
        c->pending_lanes &= ~hit; /* this write is newer than what a run held back */
        if (hit == lanes) {
            /* The whole variable: the written vector itself, or its lanes picked out. */
            uint32_t whole;
            if (count == 1) {
                whole = lane_component(ctx, typed, n, mask, c->first_lane, scalar);
            } else if (count == n) {
                whole = typed;
            } else {
                uint32_t comps[4];
                for (uint32_t k = 0; k < count; k++)
                    comps[k] = sb_spv_mask_count(mask & ((1u << (c->first_lane + k)) - 1u));
                whole = sb_spv_shuffle(b, sb_spv_type_of(ctx, view, count), typed, typed, comps, count);
            }
            sb_spv_store(b, c->var, whole);
            continue;
        }
        /* Some lanes of a vector variable. Inside a run of ALU instructions (one block, ended
         * by sb_spv_registers_flush) they wait, so a variable the run fills lane by lane
         * (dp4 o0.x, dp4 o0.y, ...) is stored once, whole; otherwise one store per lane. */
        for (uint32_t lane = c->first_lane; lane < c->first_lane + count; lane++)
            if (hit & (1u << lane))
                c->pending[lane - c->first_lane] = lane_component(ctx, typed, n, mask, lane, scalar);
        c->pending_lanes |= hit;
        if (c->pending_lanes == lanes) {
            sb_spv_store(b, c->var, sb_spv_construct(b, sb_spv_type_of(ctx, view, count), c->pending, count));
            c->pending_lanes = 0;
        } else if (ctx->defer_temp_stores) {
            s->pending = true;
        } else {
            store_pending(ctx, c);
        }
    }
}

void sb_spv_io_direct_flush(struct sb_spv_context *ctx)
{
    struct io_state *s = ctx->io_state;
    if (!s || !s->pending)
        return;
    s->pending = false;
    for (uint32_t i = 0; i < s->count; i++)
        if (s->copies[i].pending_lanes)
            store_pending(ctx, &s->copies[i]);
}
