/* SPDX-License-Identifier: MIT */
/*
 * The LLVM bitstream cursor (bitstream.h; ../shared/docs/dxil.md §2.1 primitive
 * encodings, §2.2 abbreviation ids, §2.3 BLOCKINFO).
 *
 * Why a flat entry stream with an explicit block stack rather than the tree
 * other readers build: a tree costs a node per record and invites a recursive
 * walk whose depth the input chooses. Here nesting is an array of at most
 * SB_BS_MAX_DEPTH scopes, and every count read from the stream (operands,
 * array elements, blob bytes, abbreviation operands) is checked against the
 * bits left in the innermost block before it sizes a buffer or a loop: each
 * item costs at least one bit, so no count can ask for more items than there
 * are bits to hold them.
 *
 * Abbreviations live in malloc'd lists owned by the cursor: the ones defined
 * inside open blocks on one stack (an END_BLOCK truncates it back), the
 * BLOCKINFO ones in one list per target block id. A block sees the BLOCKINFO
 * abbreviations defined before it opened (ids 4, 5, ...), then its own.
 */
#include "bitstream.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "error.h"

enum {
    ABBREV_END_BLOCK = 0,
    ABBREV_ENTER_SUBBLOCK = 1,
    ABBREV_DEFINE = 2,
    ABBREV_UNABBREV_RECORD = 3,
    BLOCKINFO_BLOCK_ID = 0,
    BLOCKINFO_SETBID = 1,
    TOP_LEVEL_WIDTH = 2,
};

void sb_bs_init(struct sb_bitstream *bs, const uint8_t *data, size_t size, size_t start,
                uint64_t base_offset, struct sb_error *error)
{
    memset(bs, 0, sizeof(*bs));
    bs->data = data;
    bs->bit_size = (uint64_t)size * 8;
    bs->limit = bs->bit_size;
    bs->width = TOP_LEVEL_WIDTH;
    bs->bit = (uint64_t)start * 8;
    bs->base_offset = base_offset;
    bs->error = error;
}

void sb_bs_use_arena(struct sb_bitstream *bs, struct sb_arena *arena)
{
    bs->arena = arena;
}

/* Whether an array of `capacity` items of `size` bytes lives in the arena (grow()). */
static bool in_arena(const struct sb_bitstream *bs, uint32_t capacity, size_t size)
{
    return bs->arena && (size_t)capacity * size <= SB_BS_ARENA_BYTES;
}

static void release_array(const struct sb_bitstream *bs, void *array, uint32_t capacity,
                          size_t size)
{
    if (!in_arena(bs, capacity, size))
        free(array);
}

static void list_release(const struct sb_bitstream *bs, struct sb_bs_abbrev_list *list)
{
    release_array(bs, list->ops, list->op_capacity, sizeof(*list->ops));
    release_array(bs, list->abbrevs, list->capacity, sizeof(*list->abbrevs));
    memset(list, 0, sizeof(*list));
}

void sb_bs_release(struct sb_bitstream *bs)
{
    list_release(bs, &bs->local);
    for (uint32_t i = 0; i < bs->info_count; i++)
        list_release(bs, &bs->infos[i].list);
    release_array(bs, bs->infos, bs->info_capacity, sizeof(*bs->infos));
    release_array(bs, bs->ops, bs->op_capacity, sizeof(*bs->ops));
    bs->infos = NULL;
    bs->ops = NULL;
    bs->info_capacity = bs->op_capacity = 0;
}

bool sb_bs_fail(struct sb_bitstream *bs, enum sb_result code, uint64_t bit, const char *format, ...)
{
    if (bs->failed)
        return false;
    bs->failed = true;
    char text[SB_ERROR_MESSAGE_SIZE];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof(text), format, args);
    va_end(args);
    sb_error_set(bs->error, code, bs->base_offset + bit / 8, SB_ERROR_NO_INSTR, "bit %llu: %s",
                 (unsigned long long)bit, text);
    return false;
}

static uint64_t limit_bit(const struct sb_bitstream *bs)
{
    return bs->limit;
}

uint64_t sb_bs_bits_left(const struct sb_bitstream *bs)
{
    uint64_t limit = limit_bit(bs);
    return bs->bit < limit ? limit - bs->bit : 0;
}

uint32_t sb_bs_current_block(const struct sb_bitstream *bs)
{
    return bs->depth ? bs->scopes[bs->depth - 1].block_id : UINT32_MAX;
}

/* The 8 bytes at `p` as a little-endian number (the bitstream's order). */
static inline uint64_t load_le64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof(v));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

/* At least 57 bits from the position on, bit 0 first, when the block has 64
 * bits left (window_fits; the caller checks); `valid` receives how many. Reading
 * a word at a time instead of a byte at a time is what makes the reader fast:
 * DXIL modules are mostly 6-bit VBR fields. */
static inline uint64_t peek_window(const struct sb_bitstream *bs, uint32_t *valid)
{
    uint32_t shift = (uint32_t)(bs->bit & 7);
    *valid = 64 - shift;
    return load_le64(bs->data + (bs->bit >> 3)) >> shift;
}

/* The block has 64 bits left from the position: then the 8 bytes a window
 * loads are in the input too (the block ends inside it), and no field of at
 * most 64 bits read from the window can cross the block's end. */
static inline bool window_fits(const struct sb_bitstream *bs)
{
    return bs->bit + 64 <= bs->limit;
}

/* peek_window where the block has less than 64 bits left, `valid` set to the
 * bits of the window that lie in the block (0 at or past its end): a word load
 * where the data has 8 bytes left (the bits past the block's end are loaded but
 * never used), else the bytes up to the block's end gathered little-endian (it
 * ends on a byte boundary inside the data). */
static inline uint64_t peek_tail_window(const struct sb_bitstream *bs, uint32_t *valid)
{
    uint32_t shift = (uint32_t)(bs->bit & 7);
    uint64_t left = sb_bs_bits_left(bs), room = 64 - shift;
    uint32_t bits = (uint32_t)(left < room ? left : room);
    *valid = bits;
    const uint8_t *p = bs->data + (bs->bit >> 3);
    if (bs->bit + 64 <= bs->bit_size)
        return load_le64(p) >> shift;
    uint32_t bytes = (shift + bits + 7) / 8;
    uint64_t window = 0;
    for (uint32_t i = 0; i < bytes; i++)
        window |= (uint64_t)p[i] << (8 * i);
    return window >> shift;
}

/* The window at the position, however near the block's end: `valid` of its
 * bits (at most 64 - (bit & 7)) lie in the block. */
static inline uint64_t peek_block_window(const struct sb_bitstream *bs, uint32_t *valid)
{
    return window_fits(bs) ? peek_window(bs, valid) : peek_tail_window(bs, valid);
}

/* Up to 32 bits at the position, already known to be in range. */
static inline uint32_t take_bits(struct sb_bitstream *bs, uint32_t width)
{
    uint64_t mask = (width == 32) ? 0xffffffffull : ((1ull << width) - 1);
    uint32_t valid;
    uint64_t window = peek_block_window(bs, &valid);
    bs->bit += width;
    return (uint32_t)(window & mask);
}

/* sb_bs_read_fixed's common case inline (this file's hot loops): up to 32 bits
 * that lie inside the block; anything else takes the checked path. */
static inline uint64_t read_bits(struct sb_bitstream *bs, uint32_t width, const char *field)
{
    if (!bs->failed && width - 1 < 32 && bs->bit + width <= limit_bit(bs))
        return take_bits(bs, width);
    return sb_bs_read_fixed(bs, width, field);
}

uint64_t sb_bs_read_fixed(struct sb_bitstream *bs, uint32_t width, const char *field)
{
    if (bs->failed)
        return 0;
    if (width > 64) {
        sb_bs_fail(bs, SB_ERROR_BC_BAD_ABBREV, bs->bit, "%s: fixed width %u exceeds 64", field,
                   width);
        return 0;
    }
    if (width > sb_bs_bits_left(bs)) {
        sb_bs_fail(bs, SB_ERROR_TRUNCATED, bs->bit,
                   "%s needs %u bits, %llu left before the block end at bit %llu", field, width,
                   (unsigned long long)sb_bs_bits_left(bs), (unsigned long long)limit_bit(bs));
        return 0;
    }
    if (width <= 32)
        return width ? take_bits(bs, width) : 0;
    uint64_t low = take_bits(bs, 32);
    return low | ((uint64_t)take_bits(bs, width - 32) << 32);
}

/* VBR fields chunk by chunk, every check made: the reader of last resort
 * (and of values the window path below does not finish). */
static uint64_t read_vbr_checked(struct sb_bitstream *bs, uint32_t width, const char *field)
{
    if (width == 0 || bs->failed)
        return 0;
    if (width < 2 || width > 32) {
        sb_bs_fail(bs, SB_ERROR_BC_BAD_ABBREV, bs->bit, "%s: VBR width %u outside 2..32", field,
                   width);
        return 0;
    }
    uint64_t start = bs->bit;
    uint32_t payload_bits = width - 1;
    uint64_t more = 1ull << payload_bits;
    uint64_t value = 0;
    for (uint32_t shift = 0;; shift += payload_bits) {
        uint64_t chunk = sb_bs_read_fixed(bs, width, field);
        if (bs->failed)
            return 0;
        uint64_t payload = chunk & (more - 1);
        /* A chunk that starts at bit 64 of the value, or payload bits shifted out of
         * 64, cannot be represented: LLVM's reader refuses such fields as well. */
        if (shift >= 64 || (shift && (payload >> (64 - shift)) != 0)) {
            sb_bs_fail(bs, SB_ERROR_BC_VBR_TOO_LONG, start,
                       "%s: VBR%u value needs more than 64 bits", field, width);
            return 0;
        }
        value |= payload << shift;
        if (!(chunk & more))
            return value;
    }
}

/*
 * VBR fields, fast: the chunks that lie in one window of the block's bits (so
 * none of them can cross its end). Chunks of 2..32 bits fill at most 57 + 7
 * window bits, so a value finished here has at most 62 payload bits and cannot
 * overflow. A value of one chunk (most) is taken at once. A value the window
 * does not finish is read again from its start by read_vbr_checked.
 */
static inline uint64_t read_vbr(struct sb_bitstream *bs, uint32_t width, const char *field)
{
    if (!bs->failed && width - 2 < 31) {
        uint32_t valid, used = 0, shift = 0;
        uint64_t window = peek_block_window(bs, &valid), value = 0;
        uint64_t mask = (1ull << width) - 1, more = 1ull << (width - 1);
        if (width <= valid && !(window & more)) {
            bs->bit += width;
            return window & (more - 1);
        }
        while (used + width <= valid) {
            uint64_t chunk = window & mask;
            window >>= width;
            used += width;
            value |= (chunk & (more - 1)) << shift;
            shift += width - 1;
            if (!(chunk & more)) {
                bs->bit += used;
                return value;
            }
        }
    }
    return read_vbr_checked(bs, width, field);
}

uint64_t sb_bs_read_vbr(struct sb_bitstream *bs, uint32_t width, const char *field)
{
    return read_vbr(bs, width, field);
}

bool sb_bs_align32(struct sb_bitstream *bs, const char *field)
{
    uint64_t aligned = (bs->bit + 31) & ~(uint64_t)31;
    if (aligned > limit_bit(bs))
        return sb_bs_fail(bs, SB_ERROR_TRUNCATED, bs->bit,
                          "%s: 32-bit alignment passes the block end at bit %llu", field,
                          (unsigned long long)limit_bit(bs));
    bs->bit = aligned;
    return !bs->failed;
}

/* ---- abbreviations ---------------------------------------------------- */

static bool grow(struct sb_bitstream *bs, void **array, uint32_t *capacity, uint32_t needed,
                 size_t size)
{
    if (needed <= *capacity)
        return true;
    uint32_t capacity_new = *capacity ? *capacity : 64; /* records of dozens of operands are common */
    while (capacity_new < needed) {
        if (capacity_new > UINT32_MAX / 2)
            return sb_bs_fail(bs, SB_ERROR_OUT_OF_MEMORY, bs->bit, "abbreviation table too big");
        capacity_new *= 2;
    }
    /* In the arena while small (nothing to free); moved to malloc once it outgrows it. */
    void *bigger;
    if (in_arena(bs, capacity_new, size)) {
        bigger = sb_arena_alloc_uninit(bs->arena, capacity_new, size);
        if (bigger && *capacity)
            memcpy(bigger, *array, (size_t)*capacity * size);
    } else if (*capacity && in_arena(bs, *capacity, size)) {
        bigger = malloc((size_t)capacity_new * size);
        if (bigger)
            memcpy(bigger, *array, (size_t)*capacity * size);
    } else {
        bigger = realloc(*array, (size_t)capacity_new * size);
    }
    if (!bigger)
        return sb_bs_fail(bs, SB_ERROR_OUT_OF_MEMORY, bs->bit, "out of memory");
    *array = bigger;
    *capacity = capacity_new;
    return true;
}

static uint64_t op_min_bits(const struct sb_bs_abbrev_op *op)
{
    if (op->encoding == SB_BS_CHAR6)
        return 6;
    return op->value ? op->value : 1;
}

/* Checks the shape LLVM's reader relies on: an Array is followed by exactly one
 * scalar element operand and nothing else; a Blob is last; widths are in range. */
static bool check_abbrev(struct sb_bitstream *bs, const struct sb_bs_abbrev_op *ops, uint32_t count,
                         uint64_t start)
{
    for (uint32_t i = 0; i < count; i++) {
        const struct sb_bs_abbrev_op *op = &ops[i];
        if (op->encoding == SB_BS_FIXED && op->value > 64)
            return sb_bs_fail(bs, SB_ERROR_BC_BAD_ABBREV, start,
                              "DEFINE_ABBREV operand %u: fixed width %llu exceeds 64", i,
                              (unsigned long long)op->value);
        if (op->encoding == SB_BS_VBR && (op->value == 1 || op->value > 32))
            return sb_bs_fail(bs, SB_ERROR_BC_BAD_ABBREV, start,
                              "DEFINE_ABBREV operand %u: VBR width %llu outside 2..32", i,
                              (unsigned long long)op->value);
        if (op->encoding == SB_BS_ARRAY) {
            const struct sb_bs_abbrev_op *element = i + 1 < count ? &ops[i + 1] : NULL;
            if (i + 2 != count || !element || element->encoding == SB_BS_LITERAL ||
                element->encoding == SB_BS_ARRAY || element->encoding == SB_BS_BLOB)
                return sb_bs_fail(bs, SB_ERROR_BC_BAD_ABBREV, start,
                                  "DEFINE_ABBREV operand %u: an array must be followed by one "
                                  "scalar element operand and end the abbreviation", i);
            return true;
        }
        if (op->encoding == SB_BS_BLOB && i + 1 != count)
            return sb_bs_fail(bs, SB_ERROR_BC_BAD_ABBREV, start,
                              "DEFINE_ABBREV operand %u: a blob must be the last operand", i);
    }
    if (count && (ops[0].encoding == SB_BS_ARRAY || ops[0].encoding == SB_BS_BLOB))
        return sb_bs_fail(bs, SB_ERROR_BC_BAD_ABBREV, start,
                          "DEFINE_ABBREV: the record code cannot be an array or a blob");
    return true;
}

/* Room in `list` for one more abbreviation of `count` operands. Room is there for all but
 * the first definitions of a list: it grows only when not. */
static bool reserve_abbrev(struct sb_bitstream *bs, struct sb_bs_abbrev_list *list,
                           uint64_t count)
{
    return (list->op_count + count <= list->op_capacity ||
            grow(bs, (void **)&list->ops, &list->op_capacity, list->op_count + (uint32_t)count,
                 sizeof(*list->ops))) &&
           (list->count < list->capacity ||
            grow(bs, (void **)&list->abbrevs, &list->capacity, list->count + 1,
                 sizeof(*list->abbrevs)));
}

/* Appends the abbreviation whose `count` operands were written at list->ops + op_count. */
static void append_abbrev(struct sb_bs_abbrev_list *list, uint32_t count)
{
    list->abbrevs[list->count++] = (struct sb_bs_abbrev){ .first_op = list->op_count,
                                                          .op_count = count };
    list->op_count += count;
}

/* DEFINE_ABBREV (after its id): appends the abbreviation to `list`. */
static bool read_define_abbrev(struct sb_bitstream *bs, struct sb_bs_abbrev_list *list)
{
    uint64_t start = bs->entry_bit;
    uint64_t count = read_vbr(bs, 5, "DEFINE_ABBREV operand count");
    if (bs->failed)
        return false;
    /* Each operand takes at least its literal flag and a 3-bit encoding or an 8-bit value. */
    if (count == 0 || count > sb_bs_bits_left(bs) / 4)
        return sb_bs_fail(bs, SB_ERROR_BAD_COUNT, start,
                          "DEFINE_ABBREV operand count %llu: 1..%llu fit in the block's bits",
                          (unsigned long long)count, (unsigned long long)(sb_bs_bits_left(bs) / 4));
    if (!reserve_abbrev(bs, list, count))
        return false;
    struct sb_bs_abbrev_op *ops = list->ops + list->op_count;
    for (uint32_t i = 0; i < count; i++) {
        if (!bs->failed && window_fits(bs)) {
            /* The common operands from one window: a literal below 128 (9 bits), an
             * array / char6 / blob (4 bits), a fixed or VBR width below 256 (at most
             * 14 bits). Anything longer is read field by field below. */
            uint32_t valid;
            uint64_t w = peek_window(bs, &valid);
            if ((w & 1) && !(w & (0x80u << 1))) {
                ops[i] = (struct sb_bs_abbrev_op){ .encoding = SB_BS_LITERAL, .value = (w >> 1) & 0x7f };
                bs->bit += 9;
                continue;
            }
            uint32_t encoding = (uint32_t)(w >> 1) & 7;
            if (!(w & 1) && encoding >= SB_BS_ARRAY && encoding <= SB_BS_BLOB) {
                ops[i] = (struct sb_bs_abbrev_op){ .encoding = (uint8_t)encoding, .value = 0 };
                bs->bit += 4;
                continue;
            }
            if (!(w & 1) && (encoding == SB_BS_FIXED || encoding == SB_BS_VBR) &&
                (!(w & (0x10u << 4)) || !(w & (0x10u << 9)))) {
                uint64_t width = (w >> 4) & 15, used = 9;
                if (w & (0x10u << 4)) {
                    width |= ((w >> 9) & 15) << 4;
                    used = 14;
                }
                ops[i] = (struct sb_bs_abbrev_op){ .encoding = (uint8_t)encoding, .value = width };
                bs->bit += used;
                continue;
            }
        }
        bool literal = read_bits(bs, 1, "DEFINE_ABBREV literal flag");
        if (literal) {
            ops[i] = (struct sb_bs_abbrev_op){ .encoding = SB_BS_LITERAL,
                                               .value = read_vbr(bs, 8, "abbreviation literal") };
            continue;
        }
        uint64_t encoding = read_bits(bs, 3, "abbreviation operand encoding");
        ops[i] = (struct sb_bs_abbrev_op){ .encoding = (uint8_t)encoding, .value = 0 };
        if (encoding == SB_BS_FIXED || encoding == SB_BS_VBR)
            ops[i].value = read_vbr(bs, 5, "abbreviation operand width");
        else if (encoding < SB_BS_ARRAY || encoding > SB_BS_BLOB)
            return bs->failed ? false
                              : sb_bs_fail(bs, SB_ERROR_BC_BAD_ABBREV, start,
                                           "DEFINE_ABBREV operand %u: encoding %llu is not 1..5",
                                           i, (unsigned long long)encoding);
    }
    if (bs->failed || !check_abbrev(bs, ops, (uint32_t)count, start))
        return false;
    append_abbrev(list, (uint32_t)count);
    return true;
}

/*
 * The DEFINE_ABBREV records this thread read inside blocks, kept by their bits: a
 * compiler writes the same few at the head of the same blocks of every module (dxc: a
 * dozen per module, in the type, constants and metadata blocks), and each was read
 * operand by operand. A definition whose bits (after the id) start with a kept one's,
 * all of them inside the block, gets the kept operands. Reading a definition depends on
 * its bits alone, and those in the block leave room for its count; only definitions read
 * without error, of at most 8 operands and 57 bits, are kept: in 32 pairs of slots
 * picked by their first 16 bits, the one of a pair filled longer ago replaced.
 */
enum { ABBREV_MEMO_SLOTS = 64, ABBREV_MEMO_OPS = 8, ABBREV_MEMO_BITS = 57 };

struct abbrev_memo {
    uint64_t bits;   /* the definition's bits after its id, `length` of them */
    uint8_t length;  /* 0: the slot is empty */
    uint8_t count;
    uint32_t stamp;  /* when it was filled */
    struct sb_bs_abbrev_op ops[ABBREV_MEMO_OPS];
};

static _Thread_local struct abbrev_memo abbrev_memos[ABBREV_MEMO_SLOTS];
static _Thread_local uint32_t abbrev_memo_clock;

static inline struct abbrev_memo *abbrev_memo_slot(uint64_t window)
{
    return &abbrev_memos[(((uint32_t)(window & 0xFFFFu) * 0x9E3779B1u) >> 26) & ~1u];
}

/* Whether kept definition `m` is the one whose bits start `window` (a whole window: a
 * kept definition is at most 57 bits, within any window's 57 or more). */
static inline bool abbrev_memo_matches(const struct abbrev_memo *m, uint64_t window)
{
    return m->length && (window & ((1ull << m->length) - 1)) == m->bits;
}

/* A DEFINE_ABBREV (after its id) inside a block: from the kept ones when its bits are
 * one of theirs, else read (and kept). */
static bool define_abbrev(struct sb_bitstream *bs, struct sb_bs_abbrev_list *list)
{
    if (bs->failed || !window_fits(bs))
        return read_define_abbrev(bs, list);
    uint32_t valid;
    uint64_t window = peek_window(bs, &valid);
    struct abbrev_memo *pair = abbrev_memo_slot(window), *m = pair;
    if (!abbrev_memo_matches(m, window))
        m = pair + 1;
    if (abbrev_memo_matches(m, window)) {
        if (!reserve_abbrev(bs, list, m->count))
            return false;
        memcpy(list->ops + list->op_count, m->ops, m->count * sizeof(*m->ops));
        append_abbrev(list, m->count);
        bs->bit += m->length;
        return true;
    }
    uint64_t start = bs->bit;
    if (!read_define_abbrev(bs, list))
        return false;
    uint64_t length = bs->bit - start;
    const struct sb_bs_abbrev *made = &list->abbrevs[list->count - 1];
    if (length <= ABBREV_MEMO_BITS && made->op_count <= ABBREV_MEMO_OPS) {
        /* An empty slot of the pair, else the one filled longer ago. */
        m = pair[0].length && pair[0].stamp >= pair[1].stamp ? pair + 1 : pair;
        m->stamp = ++abbrev_memo_clock;
        m->bits = window & ((1ull << length) - 1);
        m->length = (uint8_t)length;
        m->count = (uint8_t)made->op_count;
        memcpy(m->ops, list->ops + made->first_op, made->op_count * sizeof(*m->ops));
    }
    return true;
}

/* The BLOCKINFO list of `block_id`, created on first use (UINT32_MAX on failure). */
static uint32_t blockinfo_for(struct sb_bitstream *bs, uint32_t block_id, bool create)
{
    for (uint32_t i = 0; i < bs->info_count; i++)
        if (bs->infos[i].block_id == block_id)
            return i;
    if (!create || !grow(bs, (void **)&bs->infos, &bs->info_capacity, bs->info_count + 1,
                         sizeof(*bs->infos)))
        return UINT32_MAX;
    memset(&bs->infos[bs->info_count], 0, sizeof(bs->infos[0]));
    bs->infos[bs->info_count].block_id = block_id;
    return bs->info_count++;
}

/* ---- records ---------------------------------------------------------- */

/* The 64 characters a char6 operand names, by value. */
static const char char6[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._";

/* Whether `count` items of at least `min_bits` (1..64) bits each cannot fit in the
 * block's bits. The same test as count > left / min_bits, without a division per
 * record: count <= left bounds count * min_bits by 64 times the input's bits. */
static inline bool exceeds_bits(const struct sb_bitstream *bs, uint64_t count, uint64_t min_bits)
{
    uint64_t left = sb_bs_bits_left(bs);
    return count > left || count * min_bits > left;
}

/* Room for `count` more operands, checked against the bits that must hold them. */
static inline bool reserve_ops(struct sb_bitstream *bs, uint64_t count, uint64_t min_bits,
                               const char *what)
{
    if (exceeds_bits(bs, count, min_bits))
        return sb_bs_fail(bs, SB_ERROR_BAD_COUNT, bs->entry_bit,
                          "%s count %llu: only %llu bits left in the block", what,
                          (unsigned long long)count, (unsigned long long)sb_bs_bits_left(bs));
    if (bs->op_count + count <= bs->op_capacity)
        return true;
    return grow(bs, (void **)&bs->ops, &bs->op_capacity, bs->op_count + (uint32_t)count,
                sizeof(*bs->ops));
}

static uint64_t read_scalar(struct sb_bitstream *bs, const struct sb_bs_abbrev_op *op)
{
    switch (op->encoding) {
    case SB_BS_LITERAL: return op->value;
    case SB_BS_FIXED: return read_bits(bs, (uint32_t)op->value, "abbreviated fixed operand");
    case SB_BS_VBR: return read_vbr(bs, (uint32_t)op->value, "abbreviated VBR operand");
    default: return (uint8_t)char6[read_bits(bs, 6, "char6 operand")];
    }
}

/* Bit 5 of each of the ten whole 6-bit chunks of a window: the VBR6 "more" flags. */
#define VBR6_MORE_FLAGS 0x0820820820820820ull

/* The payloads of `n` (1..9) one-chunk VBR6 values at the bottom of `window`,
 * unrolled: a record's small operands cost a shift, a mask and a store each. */
static inline void store_single_chunks(uint64_t *out, uint64_t window, uint64_t n)
{
    switch (n) {
    case 9: out[8] = (window >> 48) & 31; /* fall through */
    case 8: out[7] = (window >> 42) & 31; /* fall through */
    case 7: out[6] = (window >> 36) & 31; /* fall through */
    case 6: out[5] = (window >> 30) & 31; /* fall through */
    case 5: out[4] = (window >> 24) & 31; /* fall through */
    case 4: out[3] = (window >> 18) & 31; /* fall through */
    case 3: out[2] = (window >> 12) & 31; /* fall through */
    case 2: out[1] = (window >> 6) & 31; /* fall through */
    default: out[0] = window & 31;
    }
}

/*
 * The operand loop of an unabbreviated record, fast: VBR6 values decoded from
 * 64-bit windows while the block has 64 bits left (so no value read here can
 * cross its end), nine whole chunks a window. When none of the next (up to)
 * nine values continues past its chunk, they are stored at once; else value by
 * value, of one to four chunks (names are stored a character per operand, <
 * 1024; a CALL's calling-convention word has its explicit-type flag at bit 15,
 * four chunks). No value here has more than twenty payload bits, so none can
 * overflow. Stops at `end`, at the block's last 64 bits and at a value of five
 * chunks or more, which the caller reads with every check; returns where it
 * stopped. Room for the values is reserved.
 */
static inline __attribute__((always_inline)) uint64_t *read_vbr6_run(struct sb_bitstream *bs, uint64_t *out, const uint64_t *end)
{
    const uint8_t *data = bs->data;
    uint64_t bit = bs->bit, limit = bs->limit;
    while (out < end && bit + 64 <= limit) {
        uint64_t window = load_le64(data + (bit >> 3)) >> (bit & 7);
        uint64_t n = (uint64_t)(end - out) < 9 ? (uint64_t)(end - out) : 9;
        if (!(window & VBR6_MORE_FLAGS & ((1ull << (6 * n)) - 1))) {
            store_single_chunks(out, window, n);
            out += n;
            bit += 6 * n;
            continue;
        }
        /* At most 42 before a value: its two chunks lie in the window's 57 bits; a value of
         * three or four chunks is taken here when used <= 33, else the window is loaded
         * again at it. */
        uint32_t used = 0;
        do {
            if (!(window & 32)) {
                *out++ = window & 31;
                window >>= 6;
                used += 6;
            } else if (!(window & (32 << 6))) {
                *out++ = (window & 31) | ((window >> 1) & (31 << 5));
                window >>= 12;
                used += 12;
            } else if (used > 33) {
                break;
            } else if (!(window & (32 << 12))) {
                *out++ = (window & 31) | ((window >> 1) & (31 << 5)) | ((window >> 2) & (31 << 10));
                window >>= 18;
                used += 18;
            } else if (!(window & (32 << 18))) {
                *out++ = (window & 31) | ((window >> 1) & (31 << 5)) |
                         ((window >> 2) & (31 << 10)) | ((window >> 3) & (31 << 15));
                window >>= 24;
                used += 24;
            } else {
                bs->bit = bit + used;
                return out;
            }
        } while (out < end && used <= 42);
        bit += used;
    }
    bs->bit = bit;
    return out;
}

/* How many of the ten flag bits (VBR6_MORE_FLAGS) are set in `flags`: a multiply
 * gathers them, where __builtin_popcountll is a libgcc call on baseline x86-64. */
static inline uint64_t count_flags(uint64_t flags)
{
    /* Bit 5 + 6k moved to bit k: each flag lands alone in one 6-bit field... */
    uint64_t ones = flags >> 5; /* flags at bits 6k, k = 0..9 */
    /* ...and the sum of the fields, at most 10, is read from the top field of the product. */
    return ((ones * 0x0041041041041041ull) >> 54) & 63;
}

/*
 * Passes over `count` VBR6 values without decoding them (sb_bs_skip_records):
 * a value ends at each chunk whose "more" flag is clear, so a window's clear
 * flags, counted with one popcount, say how many values end in it. Where the
 * block has less than 64 bits left, the values are read with every check.
 */
static void skip_vbr6(struct sb_bitstream *bs, uint64_t count)
{
    uint64_t bit = bs->bit;
    while (count && bit + 64 <= bs->limit) {
        /* A window has at least 57 valid bits: nine whole chunks, or ten from bit 0. */
        uint64_t window = load_le64(bs->data + (bit >> 3)) >> (bit & 7);
        uint32_t chunks = (64 - (uint32_t)(bit & 7)) / 6;
        uint64_t ends = ~window & VBR6_MORE_FLAGS & ((1ull << (6 * chunks)) - 1);
        uint64_t ending = count_flags(ends);
        if (ending < count) {
            count -= ending;
            bit += 6 * chunks;
            continue;
        }
        for (; count > 1; count--)
            ends &= ends - 1; /* drop the values that end before the last one */
        bit += (uint64_t)__builtin_ctzll(ends) + 1;
        count = 0;
    }
    bs->bit = bit;
    for (; count && !bs->failed; count--)
        read_vbr(bs, 6, "record operand");
}

/*
 * Blocks read to their end with every record passed over (sb_bs_skip_records), kept per
 * thread for sb_bs_pass_known_block: the bits up to the END_BLOCK's alignment, the
 * declared length, the width and the codes passed over, which are all that reading such
 * a block depends on. Four are kept (the oldest replaced), of up to 2 KB.
 */
enum { PASSED_ENTRIES = 4, PASSED_BYTES = 2048 };

static void leave_block(struct sb_bitstream *bs);

struct passed_block {
    bool valid;
    uint32_t width;
    uint64_t skip_codes, declared_bits;
    uint32_t size; /* bytes up to the END_BLOCK's alignment */
    uint8_t bytes[PASSED_BYTES];
};

static _Thread_local struct passed_blocks {
    struct passed_block entry[PASSED_ENTRIES];
    uint32_t next;
} passed_blocks;

/* At the END_BLOCK of the innermost block, aligned (bs->bit is past it): kept when every
 * record in it was passed over. */
static void keep_passed_block(const struct sb_bitstream *bs)
{
    const struct sb_bs_scope *scope = &bs->scopes[bs->depth - 1];
    if (!scope->passed_all || !scope->skip_codes || scope->body_bit % 8 ||
        bs->bit - scope->body_bit > (uint64_t)PASSED_BYTES * 8)
        return;
    struct passed_block *kept = &passed_blocks.entry[passed_blocks.next];
    passed_blocks.next = (passed_blocks.next + 1) % PASSED_ENTRIES;
    kept->width = scope->width;
    kept->skip_codes = scope->skip_codes;
    kept->declared_bits = scope->end_bit - scope->body_bit;
    kept->size = (uint32_t)((bs->bit - scope->body_bit) / 8);
    memcpy(kept->bytes, bs->data + scope->body_bit / 8, kept->size);
    kept->valid = true;
}

bool sb_bs_pass_known_block(struct sb_bitstream *bs)
{
    if (bs->failed || !bs->depth)
        return false;
    const struct sb_bs_scope *scope = &bs->scopes[bs->depth - 1];
    if (bs->bit != scope->body_bit || !scope->skip_codes)
        return false;
    for (uint32_t e = 0; e < PASSED_ENTRIES; e++) {
        const struct passed_block *kept = &passed_blocks.entry[e];
        if (kept->valid && kept->width == scope->width && kept->skip_codes == scope->skip_codes &&
            kept->declared_bits == scope->end_bit - scope->body_bit &&
            memcmp(kept->bytes, bs->data + bs->bit / 8, kept->size) == 0) {
            bs->bit += (uint64_t)kept->size * 8;
            leave_block(bs);
            return true;
        }
    }
    return false;
}

void sb_bs_skip_records(struct sb_bitstream *bs, uint64_t codes)
{
    if (bs->depth) {
        struct sb_bs_scope *scope = &bs->scopes[bs->depth - 1];
        /* A block kept for sb_bs_pass_known_block passed over the same codes throughout. */
        if (bs->bit != scope->body_bit)
            scope->passed_all = false;
        scope->skip_codes = bs->skip_codes = codes;
    }
}

/* Whether the innermost block passes over unabbreviated records of `code`. */
static bool skipped_code(const struct sb_bitstream *bs, uint64_t code)
{
    return code < 64 && ((bs->skip_codes >> code) & 1);
}

/* A VBR6 value of one or two chunks at the bottom of `window` (its length in
 * `bits`), or UINT64_MAX for a longer one. */
static inline uint64_t take_short_vbr6(uint64_t window, uint32_t *bits)
{
    if (!(window & 32)) {
        *bits = 6;
        return window & 31;
    }
    if (window & (32 << 6))
        return UINT64_MAX;
    *bits = 12;
    return (window & 31) | ((window >> 1) & (31 << 5));
}

/* The operands of an unabbreviated record whose code and operand count are
 * read; false also for a record passed over (`skipped` set then). Inlined in
 * the entry reader: a call per record cost as much as a short record's operands. */
static inline __attribute__((always_inline)) bool read_unabbrev_operands(struct sb_bitstream *bs, uint64_t count, bool *skipped)
{
    if (skipped_code(bs, bs->code)) {
        /* Each operand takes at least one chunk: a count the block cannot hold fails. */
        if (exceeds_bits(bs, count, 6))
            return sb_bs_fail(bs, SB_ERROR_BAD_COUNT, bs->entry_bit,
                              "record operand count %llu: only %llu bits left in the block",
                              (unsigned long long)count, (unsigned long long)sb_bs_bits_left(bs));
        skip_vbr6(bs, count);
        *skipped = !bs->failed;
        return false;
    }
    if (count == 0)
        return true; /* no operand buffer may exist yet (ops NULL) */
    if (!reserve_ops(bs, count, 6, "record operand"))
        return false;
    uint64_t *out = bs->ops + bs->op_count, *end = out + count;
    for (;;) {
        out = read_vbr6_run(bs, out, end);
        if (out == end)
            break;
        *out++ = read_vbr(bs, 6, "record operand");
        if (bs->failed)
            return false;
    }
    bs->op_count += (uint32_t)count;
    return true;
}

/* An unabbreviated record, all of it; false also for a record passed over. */
static bool read_unabbrev_record(struct sb_bitstream *bs, bool *skipped)
{
    uint64_t code = read_vbr(bs, 6, "record code");
    if (code > UINT32_MAX)
        return sb_bs_fail(bs, SB_ERROR_BC_BAD_RECORD, bs->entry_bit,
                          "record code %llu exceeds 32 bits", (unsigned long long)code);
    uint64_t count = read_vbr(bs, 6, "record operand count");
    if (bs->failed)
        return false;
    bs->code = (uint32_t)code;
    return read_unabbrev_operands(bs, count, skipped);
}

static bool read_blob(struct sb_bitstream *bs)
{
    uint64_t length = read_vbr(bs, 6, "blob length");
    if (!sb_bs_align32(bs, "blob") || !reserve_ops(bs, length, 8, "blob byte"))
        return false;
    /* Aligned and known to fit (reserve_ops checked the bits): the bytes themselves. */
    const uint8_t *bytes = bs->data + (bs->bit >> 3);
    for (uint64_t i = 0; i < length; i++)
        bs->ops[bs->op_count++] = bytes[i];
    bs->bit += length * 8;
    return sb_bs_align32(bs, "blob end");
}

/*
 * `count` fixed fields of `width` (1..32) bits, known to lie in the block: as
 * many as a window holds (at least 57 bits, so 7 bytes of a string) per load.
 * `char6` maps each to its character (names are char6 or 8-bit arrays).
 * Inlined per caller, so the character map and the char6 width are constants
 * in the loop that stores a name's characters.
 */
static inline __attribute__((always_inline)) void read_fixed_run(struct sb_bitstream *bs,
                                                                 uint64_t *restrict out,
                                                                 uint64_t count, uint32_t width,
                                                                 bool char6_map)
{
    uint64_t mask = (1ull << width) - 1;
    const uint64_t *end = out + count;
    while (out < end) {
        uint32_t valid;
        uint64_t window = peek_block_window(bs, &valid);
        /* reserve_ops checked that the fields fit in the block, so a window holds one */
        uint64_t n = valid / width;
        if (n == 0) {
            sb_bs_fail(bs, SB_ERROR_TRUNCATED, bs->bit, "array element past the block end");
            return;
        }
        if (n > (uint64_t)(end - out))
            n = (uint64_t)(end - out);
        bs->bit += n * width;
        for (const uint64_t *stop = out + n; out < stop; out++, window >>= width)
            *out = char6_map ? (uint8_t)char6[window & mask] : (window & mask);
    }
}

/*
 * The elements of an abbreviated array (room reserved). Fixed and char6
 * elements (type and metadata names are char6 arrays) are taken straight from
 * the input: reserve_ops has checked that `count` elements of their width fit
 * in the block, so no per-element check is left to make.
 */
static void read_array(struct sb_bitstream *bs, const struct sb_bs_abbrev_op *element,
                       uint64_t count)
{
    if (count == 0)
        return; /* no operand buffer may exist yet (ops NULL) */
    uint64_t *out = bs->ops + bs->op_count;
    if (element->encoding == SB_BS_CHAR6) {
        read_fixed_run(bs, out, count, 6, true);
    } else if (element->encoding == SB_BS_FIXED && element->value - 1 < 32) {
        read_fixed_run(bs, out, count, (uint32_t)element->value, false);
    } else {
        for (uint64_t e = 0; e < count && !bs->failed; e++)
            out[e] = read_scalar(bs, element);
    }
    bs->op_count += (uint32_t)count;
}

static bool read_abbreviated_record(struct sb_bitstream *bs, const struct sb_bs_abbrev_op *ops,
                                    uint32_t count)
{
    uint64_t code = ops[0].encoding == SB_BS_LITERAL ? ops[0].value : read_scalar(bs, &ops[0]);
    if (code > UINT32_MAX)
        return sb_bs_fail(bs, SB_ERROR_BC_BAD_RECORD, bs->entry_bit,
                          "record code %llu exceeds 32 bits", (unsigned long long)code);
    bs->code = (uint32_t)code;
    /* Room for the scalar operands at once: at most one per abbreviation operand. */
    if (bs->op_count + count > bs->op_capacity &&
        !grow(bs, (void **)&bs->ops, &bs->op_capacity, bs->op_count + count, sizeof(*bs->ops)))
        return false;
    /* Operands go through a local pointer the compiler knows aliases no cursor
     * field, so the position stays in a register between them. A failure is
     * sticky (every later read returns 0 and moves nothing): checked once. */
    uint64_t *restrict out = bs->ops + bs->op_count;
    for (uint32_t i = 1; i < count; i++) {
        const struct sb_bs_abbrev_op *op = &ops[i];
        switch (op->encoding) {
        case SB_BS_LITERAL:
            *out++ = op->value;
            continue;
        case SB_BS_FIXED:
            if (op->value - 1 < 32 && window_fits(bs)) {
                /* The common operand (type ids, flags), taken from a window in place. */
                uint32_t valid;
                *out++ = peek_window(bs, &valid) & ((1ull << op->value) - 1);
                bs->bit += op->value;
                continue;
            }
            break;
        case SB_BS_VBR:
            *out++ = read_vbr(bs, (uint32_t)op->value, "abbreviated VBR operand");
            continue;
        case SB_BS_ARRAY: {
            bs->op_count = (uint32_t)(out - bs->ops);
            uint64_t elements = read_vbr(bs, 6, "array length");
            if (bs->failed || !reserve_ops(bs, elements, op_min_bits(&ops[i + 1]), "array element"))
                return false;
            read_array(bs, &ops[i + 1], elements);
            return !bs->failed;
        }
        case SB_BS_BLOB:
            bs->op_count = (uint32_t)(out - bs->ops);
            return read_blob(bs);
        }
        *out++ = read_scalar(bs, op);
    }
    bs->op_count = (uint32_t)(out - bs->ops);
    return !bs->failed;
}

/* The abbreviation `id` (>= 4) as the innermost block sees it, or NULL. */
static const struct sb_bs_abbrev_op *find_abbrev(struct sb_bitstream *bs, uint32_t id,
                                                 uint32_t *count)
{
    if (!bs->depth)
        return NULL;
    const struct sb_bs_scope *scope = &bs->scopes[bs->depth - 1];
    uint32_t index = id - 4;
    if (index < scope->info_count) {
        const struct sb_bs_abbrev_list *info = &bs->infos[scope->info].list;
        *count = info->abbrevs[index].op_count;
        return info->ops + info->abbrevs[index].first_op;
    }
    index -= scope->info_count;
    if (index >= bs->local.count - scope->local_base)
        return NULL;
    const struct sb_bs_abbrev *abbrev = &bs->local.abbrevs[scope->local_base + index];
    *count = abbrev->op_count;
    return bs->local.ops + abbrev->first_op;
}

/* ---- blocks ----------------------------------------------------------- */

static bool enter_block(struct sb_bitstream *bs)
{
    uint64_t start = bs->entry_bit;
    uint64_t block_id = read_vbr(bs, 8, "ENTER_SUBBLOCK block id");
    uint64_t width = read_vbr(bs, 4, "ENTER_SUBBLOCK abbreviation width");
    sb_bs_align32(bs, "ENTER_SUBBLOCK");
    uint64_t words = read_bits(bs, 32, "ENTER_SUBBLOCK length");
    if (bs->failed)
        return false;
    if (block_id > UINT32_MAX)
        return sb_bs_fail(bs, SB_ERROR_BC_BAD_BLOCK, start, "block id %llu exceeds 32 bits",
                          (unsigned long long)block_id);
    if (width < 1 || width > 32)
        return sb_bs_fail(bs, SB_ERROR_BC_BAD_ABBREV, start,
                          "block %llu: abbreviation width %llu outside 1..32",
                          (unsigned long long)block_id, (unsigned long long)width);
    if (words * 32 > sb_bs_bits_left(bs))
        return sb_bs_fail(bs, SB_ERROR_BC_BAD_BLOCK, start,
                          "block %llu: length %llu words ends past its parent's end at bit %llu",
                          (unsigned long long)block_id, (unsigned long long)words,
                          (unsigned long long)limit_bit(bs));
    if (bs->depth == SB_BS_MAX_DEPTH)
        return sb_bs_fail(bs, SB_ERROR_BC_TOO_DEEP, start,
                          "block %llu: nesting deeper than %u blocks", (unsigned long long)block_id,
                          SB_BS_MAX_DEPTH);
    uint32_t info = blockinfo_for(bs, (uint32_t)block_id, false);
    if (bs->depth)
        bs->scopes[bs->depth - 1].passed_all = false;
    bs->scopes[bs->depth++] = (struct sb_bs_scope){
        .body_bit = bs->bit,
        .passed_all = true,
        .block_id = (uint32_t)block_id,
        .width = (uint32_t)width,
        .end_bit = bs->bit + words * 32,
        .local_base = bs->local.count,
        .local_op_base = bs->local.op_count,
        .info = info,
        .info_count = info == UINT32_MAX ? 0 : bs->infos[info].list.count,
    };
    bs->block_id = (uint32_t)block_id;
    bs->limit = bs->scopes[bs->depth - 1].end_bit;
    bs->width = (uint32_t)width;
    bs->skip_codes = 0;
    return true;
}

static void leave_block(struct sb_bitstream *bs)
{
    const struct sb_bs_scope *scope = &bs->scopes[--bs->depth];
    const struct sb_bs_scope *parent = bs->depth ? &bs->scopes[bs->depth - 1] : NULL;
    bs->limit = parent ? parent->end_bit : bs->bit_size;
    bs->width = parent ? parent->width : TOP_LEVEL_WIDTH;
    bs->skip_codes = parent ? parent->skip_codes : 0;
    bs->local.count = scope->local_base;
    bs->local.op_count = scope->local_op_base;
}

bool sb_bs_skip_block(struct sb_bitstream *bs)
{
    if (bs->failed || !bs->depth)
        return false;
    bs->bit = bs->scopes[bs->depth - 1].end_bit;
    leave_block(bs);
    return true;
}

/* Reads the ids and fields common to every block; `entry` says what came. Inlined in
 * sb_bs_next, its only caller (LTO otherwise kept a call per record).
 * `consumed` is set for an entry the cursor used up itself (a DEFINE_ABBREV,
 * a record passed over by sb_bs_skip_records): the caller reads the next. */
static inline __attribute__((always_inline)) enum sb_bs_entry read_entry(struct sb_bitstream *bs, bool *consumed)
{
    bs->entry_bit = bs->bit;
    bs->op_count = 0;
    uint32_t width = bs->width, id;
    if (window_fits(bs)) {
        uint32_t valid;
        uint64_t window = peek_window(bs, &valid);
        id = (uint32_t)(window & ((1ull << width) - 1));
        window >>= width;
        uint32_t code_bits, count_bits;
        uint64_t code, count;
        if (id == ABBREV_UNABBREV_RECORD && bs->depth &&
            (code = take_short_vbr6(window, &code_bits)) != UINT64_MAX &&
            (count = take_short_vbr6(window >> code_bits, &count_bits)) != UINT64_MAX) {
            /* Code and count below 1024 (all but odd records), from the window
             * that held the id: at most 32 + 24 of its 57 bits. */
            bs->abbrev_id = id;
            bs->code = (uint32_t)code;
            bs->bit += width + code_bits + count_bits;
            if (read_unabbrev_operands(bs, count, consumed))
                return SB_BS_RECORD;
            return *consumed ? SB_BS_RECORD : SB_BS_ERROR;
        }
        bs->bit += width;
    } else {
        id = (uint32_t)read_bits(bs, width, "abbreviation id");
        if (bs->failed)
            return SB_BS_ERROR;
    }
    bs->abbrev_id = id;
    if (!bs->depth && id != ABBREV_ENTER_SUBBLOCK) {
        sb_bs_fail(bs, SB_ERROR_BC_BAD_BLOCK, bs->entry_bit,
                   "abbreviation id %u at the top level, where only blocks may stand", id);
        return SB_BS_ERROR;
    }
    switch (id) {
    case ABBREV_END_BLOCK:
        if (!sb_bs_align32(bs, "END_BLOCK"))
            return SB_BS_ERROR;
        keep_passed_block(bs);
        leave_block(bs);
        return SB_BS_END;
    case ABBREV_ENTER_SUBBLOCK:
        return enter_block(bs) ? SB_BS_ENTER : SB_BS_ERROR;
    case ABBREV_DEFINE:
        *consumed = true;
        bs->scopes[bs->depth - 1].passed_all = false;
        return define_abbrev(bs, &bs->local) ? SB_BS_RECORD : SB_BS_ERROR;
    case ABBREV_UNABBREV_RECORD:
        if (read_unabbrev_record(bs, consumed))
            return SB_BS_RECORD;
        return *consumed ? SB_BS_RECORD : SB_BS_ERROR;
    default: {
        uint32_t count = 0;
        const struct sb_bs_abbrev_op *ops = find_abbrev(bs, id, &count);
        if (!ops) {
            sb_bs_fail(bs, SB_ERROR_BC_BAD_ABBREV, bs->entry_bit,
                       "abbreviation id %u is not defined in block %u", id,
                       bs->scopes[bs->depth - 1].block_id);
            return SB_BS_ERROR;
        }
        return read_abbreviated_record(bs, ops, count) ? SB_BS_RECORD : SB_BS_ERROR;
    }
    }
}

/* The body of a BLOCKINFO block (just entered): SETBID picks the target list,
 * DEFINE_ABBREV appends to it, names are ignored; nothing else may appear. */
static bool read_blockinfo(struct sb_bitstream *bs)
{
    uint32_t target = UINT32_MAX;
    for (;;) {
        uint64_t start = bs->bit;
        bs->entry_bit = start;
        uint32_t id = (uint32_t)read_bits(bs, bs->width, "abbreviation id");
        if (bs->failed)
            return false;
        if (id == ABBREV_END_BLOCK) {
            if (!sb_bs_align32(bs, "END_BLOCK"))
                return false;
            leave_block(bs);
            return true;
        }
        if (id == ABBREV_DEFINE) {
            if (target == UINT32_MAX)
                return sb_bs_fail(bs, SB_ERROR_BC_BAD_RECORD, start,
                                  "BLOCKINFO: DEFINE_ABBREV before any SETBID");
            if (!read_define_abbrev(bs, &bs->infos[target].list))
                return false;
            continue;
        }
        if (id != ABBREV_UNABBREV_RECORD)
            return sb_bs_fail(bs, SB_ERROR_BC_BAD_BLOCK, start,
                              "BLOCKINFO: abbreviation id %u (only unabbreviated records, "
                              "DEFINE_ABBREV and END_BLOCK may appear)", id);
        bs->op_count = 0;
        bool skipped = false; /* never: a BLOCKINFO block's scope skips nothing */
        if (!read_unabbrev_record(bs, &skipped))
            return false;
        if (bs->code == BLOCKINFO_SETBID) {
            if (bs->op_count < 1 || bs->ops[0] > UINT32_MAX)
                return sb_bs_fail(bs, SB_ERROR_BC_BAD_RECORD, start,
                                  "BLOCKINFO SETBID: needs one block id of 32 bits");
            target = blockinfo_for(bs, (uint32_t)bs->ops[0], true);
            if (target == UINT32_MAX)
                return false;
        }
    }
}

/*
 * The last few BLOCKINFO blocks this thread read, kept for the next bitstreams: every
 * module a compiler version writes carries the same one (dxc's: 16 abbreviations for
 * three blocks), and reading it was a sixth of the reader's time on a small module. A
 * block whose bytes and abbreviation width equal a kept one's, met before any other
 * BLOCKINFO block, gets the kept lists without being read again: reading it depends on
 * nothing else (every read stays inside the block), and only a block read without error
 * is kept. Four are kept (a corpus mixes compiler versions), the oldest replaced; one
 * that does not fit the fixed tables is read every time.
 */
enum { MEMO_ENTRIES = 4, MEMO_BYTES = 512, MEMO_INFOS = 8, MEMO_ABBREVS = 32, MEMO_OPS = 128 };

struct blockinfo_memo {
    bool valid;
    uint32_t width, size, info_count;
    uint64_t read_bits; /* where its END_BLOCK left the cursor, from the body's start */
    uint8_t bytes[MEMO_BYTES];
    struct {
        uint32_t block_id, count, op_count;
    } infos[MEMO_INFOS];
    struct sb_bs_abbrev abbrevs[MEMO_ABBREVS];
    struct sb_bs_abbrev_op ops[MEMO_OPS];
};

static _Thread_local struct blockinfo_memos {
    struct blockinfo_memo entry[MEMO_ENTRIES];
    uint32_t next; /* the one to replace */
} blockinfo_memos;

/* Whether the BLOCKINFO block just entered is the kept one (it has then been applied). */
static bool blockinfo_recalled(struct sb_bitstream *bs, uint64_t bytes)
{
    const struct blockinfo_memo *m = NULL;
    for (uint32_t e = 0; e < MEMO_ENTRIES && !m; e++) {
        const struct blockinfo_memo *kept = &blockinfo_memos.entry[e];
        if (kept->valid && kept->width == bs->width && kept->size == bytes &&
            memcmp(kept->bytes, bs->data + bs->bit / 8, bytes) == 0)
            m = kept;
    }
    if (!m)
        return false;
    const struct sb_bs_abbrev *abbrev = m->abbrevs;
    const struct sb_bs_abbrev_op *op = m->ops;
    for (uint32_t i = 0; i < m->info_count; i++) {
        uint32_t target = blockinfo_for(bs, m->infos[i].block_id, true);
        if (target == UINT32_MAX)
            return true; /* failed (out of memory): the caller sees bs->failed */
        struct sb_bs_abbrev_list *list = &bs->infos[target].list;
        uint32_t count = m->infos[i].count, op_count = m->infos[i].op_count;
        if (!grow(bs, (void **)&list->abbrevs, &list->capacity, count, sizeof(*abbrev)) ||
            !grow(bs, (void **)&list->ops, &list->op_capacity, op_count, sizeof(*op)))
            return true;
        if (count) /* a SETBID with no definitions after it leaves an empty list */
            memcpy(list->abbrevs, abbrev, count * sizeof(*abbrev));
        if (op_count)
            memcpy(list->ops, op, op_count * sizeof(*op));
        list->count = count;
        list->op_count = op_count;
        abbrev += count;
        op += op_count;
    }
    bs->bit += m->read_bits;
    leave_block(bs);
    return true;
}

/* Keeps the BLOCKINFO block of `bytes` bytes at `start` (width `width`), just read into the
 * cursor's lists up to `read_bits` from its start, when it fits the tables. */
static void blockinfo_keep(const struct sb_bitstream *bs, const uint8_t *start, uint32_t width,
                           uint64_t bytes, uint64_t read_bits)
{
    uint32_t abbrevs = 0, ops = 0;
    for (uint32_t i = 0; i < bs->info_count; i++) {
        abbrevs += bs->infos[i].list.count;
        ops += bs->infos[i].list.op_count;
    }
    if (bytes > MEMO_BYTES || bs->info_count > MEMO_INFOS || abbrevs > MEMO_ABBREVS ||
        ops > MEMO_OPS)
        return;
    struct blockinfo_memo *m = &blockinfo_memos.entry[blockinfo_memos.next];
    blockinfo_memos.next = (blockinfo_memos.next + 1) % MEMO_ENTRIES;
    struct sb_bs_abbrev *abbrev = m->abbrevs;
    struct sb_bs_abbrev_op *op = m->ops;
    for (uint32_t i = 0; i < bs->info_count; i++) {
        const struct sb_bs_abbrev_list *list = &bs->infos[i].list;
        m->infos[i].block_id = bs->infos[i].block_id;
        m->infos[i].count = list->count;
        m->infos[i].op_count = list->op_count;
        if (list->count)
            memcpy(abbrev, list->abbrevs, list->count * sizeof(*abbrev));
        if (list->op_count)
            memcpy(op, list->ops, list->op_count * sizeof(*op));
        abbrev += list->count;
        op += list->op_count;
    }
    memcpy(m->bytes, start, bytes);
    m->width = width;
    m->size = (uint32_t)bytes;
    m->info_count = bs->info_count;
    m->read_bits = read_bits;
    m->valid = true;
}

/* A BLOCKINFO block just entered: recalled when it is the kept one, else read (and kept
 * when it is the first). */
static bool enter_blockinfo(struct sb_bitstream *bs)
{
    /* The body starts 32-bit aligned, after the length word: whole bytes. */
    uint64_t bytes = (bs->scopes[bs->depth - 1].end_bit - bs->bit) / 8;
    bool first = bs->info_count == 0;
    if (first && blockinfo_recalled(bs, bytes))
        return !bs->failed;
    uint64_t body = bs->bit;
    uint32_t width = bs->width;
    if (!read_blockinfo(bs))
        return false;
    /* Its END_BLOCK may come before the length word's end: the cursor goes on from there. */
    if (first)
        blockinfo_keep(bs, bs->data + body / 8, width, bytes, bs->bit - body);
    return true;
}

enum sb_bs_entry sb_bs_next(struct sb_bitstream *bs)
{
    for (;;) {
        if (bs->failed)
            return SB_BS_ERROR;
        if (!bs->depth && bs->bit >= bs->bit_size)
            return SB_BS_EOF;
        bool consumed = false;
        enum sb_bs_entry entry = read_entry(bs, &consumed);
        if (entry == SB_BS_ENTER && bs->block_id == BLOCKINFO_BLOCK_ID) {
            if (!enter_blockinfo(bs))
                return SB_BS_ERROR;
            continue;
        }
        if (entry == SB_BS_RECORD) {
            if (consumed)
                continue;
            /* Only a block passing records over can be kept (keep_passed_block), and
             * sb_bs_skip_records clears the flag of one that starts to mid-block: most
             * records leave it alone. */
            if (bs->skip_codes)
                bs->scopes[bs->depth - 1].passed_all = false;
        }
        return entry;
    }
}
