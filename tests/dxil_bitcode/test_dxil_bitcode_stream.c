/* SPDX-License-Identifier: MIT */
/*
 * The bitstream cursor (reflect/src/bitcode/bitstream.c) on streams written
 * bit by bit in the test (tests/common/dxil_bitcode_writer.h): every operand
 * encoding, abbreviations defined inline and in BLOCKINFO, their scoping,
 * nested and skipped blocks, skipped records, and each malformed case with its exact error
 * code and byte offset.
 *
 * Positions used below: the magic fills bits 0-31; a top-level ENTER_SUBBLOCK
 * (width 2) takes bits 32-45, aligns to 64, its length word is bits 64-95,
 * so the first entry of the first block is at bit 96 = byte 12. A nested
 * ENTER (width 3, block id < 128) likewise takes 64 bits.
 */
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "dxil_bitcode_writer.h"
#include "bitstream.h"
#include "check.h"

struct stream {
    struct bw w;
    struct sb_bitstream bs;
    struct sb_error error;
};

static void start(struct stream *s)
{
    memset(s, 0, sizeof(*s));
    bw_begin(&s->w);
    bw_fixed(&s->w, 0xdec04342u, 32); /* 'B' 'C' 0xC0DE */
}

static void open_stream(struct stream *s)
{
    CHECK(!s->w.failed, "writer failed");
    sb_bs_init(&s->bs, s->w.data, bw_size(&s->w), 4, 0, &s->error);
}

/* open_stream, then the module block (id 8) every stream here starts with. */
static void open_module_block(struct stream *s)
{
    open_stream(s);
    CHECK(sb_bs_next(&s->bs) == SB_BS_ENTER && s->bs.block_id == 8, "module block not entered");
}

static void finish(struct stream *s)
{
    sb_bs_release(&s->bs);
    bw_free(&s->w);
}

/* Reads entries until an error and checks its code, byte offset and bit. */
static void expect_error(struct stream *s, enum sb_result code, uint64_t offset, uint64_t bit,
                         const char *what)
{
    open_stream(s);
    enum sb_bs_entry entry;
    unsigned guard = 0;
    while ((entry = sb_bs_next(&s->bs)) != SB_BS_ERROR && entry != SB_BS_EOF && guard++ < 1000)
        ;
    char prefix[40];
    snprintf(prefix, sizeof(prefix), "bit %llu: ", (unsigned long long)bit);
    CHECK(entry == SB_BS_ERROR, "%s: no error", what);
    CHECK(s->error.code == code, "%s: code %d, expected %d (%s)", what, s->error.code, code,
          s->error.message);
    CHECK(s->error.offset == offset, "%s: offset %llu, expected %llu (%s)", what,
          (unsigned long long)s->error.offset, (unsigned long long)offset, s->error.message);
    CHECK(!strncmp(s->error.message, prefix, strlen(prefix)), "%s: message '%s' lacks '%s'", what,
          s->error.message, prefix);
    finish(s);
}

static void expect_record(struct sb_bitstream *bs, uint32_t code, const uint64_t *ops,
                          uint32_t count, const char *what)
{
    enum sb_bs_entry entry = sb_bs_next(bs);
    CHECK(entry == SB_BS_RECORD, "%s: entry %d", what, entry);
    if (entry != SB_BS_RECORD)
        return;
    CHECK(bs->code == code, "%s: code %u, expected %u", what, bs->code, code);
    CHECK(bs->op_count == count, "%s: %u operands, expected %u", what, bs->op_count, count);
    for (uint32_t i = 0; i < count && i < bs->op_count; i++)
        CHECK(bs->ops[i] == ops[i], "%s: operand %u = %llu, expected %llu", what, i,
              (unsigned long long)bs->ops[i], (unsigned long long)ops[i]);
}

/* Fixed, VBR (64-bit values included), char6, array, blob, literal, and
 * the zero-width Fixed(0)/VBR(0) operands, through one inline abbreviation each. */
static void test_operand_encodings(void)
{
    struct stream s;
    start(&s);
    bw_enter_block(&s.w, 8, 3);
    /* abbrev 4: [lit 5, fixed7, vbr4, char6, array fixed3] */
    bw_define_abbrev(&s.w, &(struct bw_abbrev){ 6, { { 0, 5 }, { 1, 7 }, { 2, 4 }, { 4, 0 },
                                                      { 3, 0 }, { 1, 3 } } });
    bw_fixed(&s.w, 4, s.w.width);
    bw_fixed(&s.w, 100, 7);
    bw_vbr(&s.w, 1000, 4);
    bw_char6(&s.w, 'Z');
    bw_vbr(&s.w, 3, 6);
    bw_fixed(&s.w, 1, 3);
    bw_fixed(&s.w, 5, 3);
    bw_fixed(&s.w, 7, 3);
    /* abbrev 5: [lit 6, blob] */
    bw_define_abbrev(&s.w, &(struct bw_abbrev){ 2, { { 0, 6 }, { 5, 0 } } });
    bw_fixed(&s.w, 5, s.w.width);
    bw_vbr(&s.w, 3, 6);
    bw_align32(&s.w);
    bw_fixed(&s.w, 'h', 8);
    bw_fixed(&s.w, 'i', 8);
    bw_fixed(&s.w, '!', 8);
    bw_align32(&s.w);
    /* abbrev 6: [vbr6 code, fixed0, vbr0, fixed64, array char6] */
    bw_define_abbrev(&s.w, &(struct bw_abbrev){ 6, { { 2, 6 }, { 1, 0 }, { 2, 0 }, { 1, 64 },
                                                      { 3, 0 }, { 4, 0 } } });
    bw_fixed(&s.w, 6, s.w.width);
    bw_vbr(&s.w, 77, 6);
    bw_fixed(&s.w, 0xfedcba9876543210ull, 64);
    bw_vbr(&s.w, 2, 6);
    bw_char6(&s.w, '.');
    bw_char6(&s.w, '_');
    uint64_t unabbrev[] = { 0, 31, 32, 1ull << 40, UINT64_MAX };
    bw_record(&s.w, 7, unabbrev, 5);
    bw_end_block(&s.w);
    open_module_block(&s);
    expect_record(&s.bs, 5, (uint64_t[]){ 100, 1000, 'Z', 1, 5, 7 }, 6, "fixed/vbr/char6/array");
    expect_record(&s.bs, 6, (uint64_t[]){ 'h', 'i', '!' }, 3, "blob");
    expect_record(&s.bs, 77, (uint64_t[]){ 0, 0, 0xfedcba9876543210ull, '.', '_' }, 5,
                  "zero widths, fixed64, char6 array");
    expect_record(&s.bs, 7, unabbrev, 5, "unabbreviated, UINT64_MAX as vbr6");
    CHECK(sb_bs_next(&s.bs) == SB_BS_END, "block end");
    CHECK(sb_bs_next(&s.bs) == SB_BS_EOF, "end of stream");
    finish(&s);
}

/* The reader's fast paths (64-bit windows, one- and two-chunk VBR6 operands) on the
 * shapes that bypass them: a block's first records with no operands at all (no operand
 * buffer exists yet: the fuzzer found a null-pointer offset there), an empty
 * abbreviated array, and a long unabbreviated record whose values of one, two, three and
 * eleven chunks straddle window boundaries, up to the block's last 64 bits. */
static void test_fast_path_edges(void)
{
    struct stream s;
    start(&s);
    bw_enter_block(&s.w, 8, 3);
    bw_record(&s.w, 9, NULL, 0);
    /* abbrev 4: [lit 3, array fixed5] with zero elements */
    bw_define_abbrev(&s.w, &(struct bw_abbrev){ 3, { { 0, 3 }, { 3, 0 }, { 1, 5 } } });
    bw_fixed(&s.w, 4, s.w.width);
    bw_vbr(&s.w, 0, 6);
    uint64_t values[61];
    for (unsigned i = 0; i < 61; i++)
        values[i] = i % 5 == 0 ? 31 : i % 5 == 1 ? 32 : i % 5 == 2 ? 1023 : i % 5 == 3 ? 1024
                                                                             : (1ull << 50) + i;
    bw_record(&s.w, 10, values, 61);
    /* Values of one to five chunks in a pseudo-random order, so three- and four-chunk
     * values start at every offset of a window (taken in it up to bit 33, else loaded
     * again) and five-chunk ones leave the fast loop. */
    static const uint64_t sizes[] = { 7, 31, 1023, 1024, 32767, 32768, 1048575, 1048576 };
    uint64_t mixed[199];
    uint32_t seed = 12345;
    for (unsigned i = 0; i < 199; i++) {
        seed = seed * 1103515245u + 12345u;
        mixed[i] = sizes[(seed >> 16) % 8] - (seed >> 28) % 2;
    }
    bw_record(&s.w, 11, mixed, 199);
    bw_end_block(&s.w);
    open_module_block(&s);
    expect_record(&s.bs, 9, NULL, 0, "no operands as the block's first record");
    expect_record(&s.bs, 3, NULL, 0, "empty abbreviated array");
    expect_record(&s.bs, 10, values, 61, "61 VBR6 operands of 1, 2, 3 and 11 chunks");
    expect_record(&s.bs, 11, mixed, 199, "199 VBR6 operands of 1 to 5 chunks");
    CHECK(sb_bs_next(&s.bs) == SB_BS_END, "block end");
    CHECK(sb_bs_next(&s.bs) == SB_BS_EOF, "end of stream");
    finish(&s);
}

/* The cursor's arrays from an arena (sb_bs_use_arena): abbreviations and operands taken
 * there while small, the operand buffer moved to malloc once a 3,000-operand record
 * outgrows SB_BS_ARENA_BYTES, and sb_bs_release freeing only that one (ASan checks the
 * frees), with every record read as without the arena. */
static void test_arrays_in_arena(void)
{
    struct stream s;
    start(&s);
    bw_enter_block(&s.w, 8, 3);
    /* abbrev 4: [lit 7, vbr6, fixed3] */
    bw_define_abbrev(&s.w, &(struct bw_abbrev){ 3, { { 0, 7 }, { 2, 6 }, { 1, 3 } } });
    bw_fixed(&s.w, 4, s.w.width);
    bw_vbr(&s.w, 40, 6);
    bw_fixed(&s.w, 5, 3);
    uint64_t small[10], *big = malloc(3000 * sizeof(*big));
    for (unsigned i = 0; i < 10; i++)
        small[i] = i * 37;
    for (unsigned i = 0; big && i < 3000; i++)
        big[i] = (i * 2654435761u) % 5000;
    bw_record(&s.w, 9, small, 10);
    if (big)
        bw_record(&s.w, 10, big, 3000);
    bw_record(&s.w, 11, small, 5);
    bw_end_block(&s.w);
    struct sb_arena *arena = sb_arena_create();
    CHECK(arena != NULL, "arena");
    open_stream(&s);
    sb_bs_use_arena(&s.bs, arena);
    CHECK(sb_bs_next(&s.bs) == SB_BS_ENTER && s.bs.block_id == 8, "module block not entered");
    expect_record(&s.bs, 7, (uint64_t[]){ 40, 5 }, 2, "abbreviated record, list in the arena");
    expect_record(&s.bs, 9, small, 10, "10 operands in the arena's buffer");
    CHECK(s.bs.op_capacity * sizeof(*s.bs.ops) <= SB_BS_ARENA_BYTES, "buffer of %u in the arena",
          s.bs.op_capacity);
    if (big) {
        expect_record(&s.bs, 10, big, 3000, "3,000 operands, the buffer moved to malloc");
        CHECK(s.bs.op_capacity * sizeof(*s.bs.ops) > SB_BS_ARENA_BYTES, "buffer of %u",
              s.bs.op_capacity);
    }
    expect_record(&s.bs, 11, small, 5, "5 operands after the move");
    CHECK(sb_bs_next(&s.bs) == SB_BS_END, "block end");
    CHECK(sb_bs_next(&s.bs) == SB_BS_EOF, "end of stream");
    finish(&s);
    sb_arena_destroy(arena);
    free(big);
}

/* Arrays of fixed and char6 elements are read several elements per 64-bit window:
 * a 40-character char6 name and 30 bytes of fixed 8 (windows of 57..64 bits, so
 * elements fall on both sides of window edges), then 9 bytes that run into the
 * block's last 64 bits, where the rest are read one at a time. */
static void test_array_runs(void)
{
    const char *name = "dx.types.ResRet.f32.abcdefghijklmnop_0123";
    const struct bw_abbrev chars = { 3, { { 0, 19 }, { 3, 0 }, { 4, 0 } } }; /* [lit 19, array char6] */
    const struct bw_abbrev bytes = { 3, { { 0, 1 }, { 3, 0 }, { 1, 8 } } };  /* [lit 1, array fixed8] */
    uint64_t name_fields[41] = { 19 }, byte_fields[31] = { 1 }, name_ops[40], byte_ops[30];
    for (unsigned i = 0; i < 40; i++)
        name_fields[i + 1] = name_ops[i] = (uint8_t)name[i];
    for (unsigned i = 0; i < 30; i++)
        byte_fields[i + 1] = byte_ops[i] = (i * 37 + 11) & 0xff;
    struct stream s;
    start(&s);
    bw_enter_block(&s.w, 8, 3);
    bw_define_abbrev(&s.w, &chars);
    bw_define_abbrev(&s.w, &bytes);
    bw_abbrev_record(&s.w, 4, &chars, name_fields, 41);
    bw_abbrev_record(&s.w, 5, &bytes, byte_fields, 31);
    bw_abbrev_record(&s.w, 5, &bytes, byte_fields, 10);
    bw_end_block(&s.w);
    open_module_block(&s);
    expect_record(&s.bs, 19, name_ops, 40, "40 char6 elements");
    expect_record(&s.bs, 1, byte_ops, 30, "30 fixed-8 elements");
    expect_record(&s.bs, 1, byte_ops, 9, "9 fixed-8 elements at the block end");
    CHECK(sb_bs_next(&s.bs) == SB_BS_END, "block end");
    finish(&s);
}

/* sb_bs_skip_records: unabbreviated records of the chosen codes in the innermost block
 * are passed over, however their VBR6 values (1 to 11 chunks) fall across 64-bit
 * windows, including in the block's last 64 bits (the checked path); the same code
 * abbreviated, or in a nested block, is still returned, and the next record starts
 * where the skipped one ended. */
static void test_skipped_records(void)
{
    uint64_t many[70], kept[2] = { 5, 1023 }, tail[2] = { 1, 2 }, three[3] = { 31, 32, 0 };
    for (unsigned i = 0; i < 70; i++)
        many[i] = i % 4 == 0 ? 7 : i % 4 == 1 ? 100 : i % 4 == 2 ? (1ull << 50) + i : 40000;
    const struct bw_abbrev code6 = { 2, { { 0, 6 }, { 1, 8 } } }; /* [lit 6, fixed 8] */
    struct stream s;
    start(&s);
    bw_enter_block(&s.w, 8, 3);
    bw_record(&s.w, 6, many, 70);
    bw_record(&s.w, 7, kept, 2);
    bw_record(&s.w, 6, three, 3);
    bw_define_abbrev(&s.w, &code6);
    bw_abbrev_record(&s.w, 4, &code6, (uint64_t[]){ 6, 200 }, 2);
    bw_enter_block(&s.w, 12, 3);
    bw_record(&s.w, 6, kept, 2);
    bw_end_block(&s.w);
    bw_record(&s.w, 9, tail, 2);
    /* Block 13's body is 64 bits: header 15 bits, the three values 24, the next record
     * 15, END_BLOCK 3, padding. The values start 49 bits before its end, where no
     * 64-bit window fits: each is read with every check. */
    bw_enter_block(&s.w, 13, 3);
    bw_record(&s.w, 6, three, 3);
    bw_record(&s.w, 9, NULL, 0);
    bw_end_block(&s.w);
    bw_end_block(&s.w);
    open_module_block(&s);
    sb_bs_skip_records(&s.bs, 1ull << 6 | 1ull << 60);
    expect_record(&s.bs, 7, kept, 2, "the record after 70 skipped operands");
    expect_record(&s.bs, 6, (uint64_t[]){ 200 }, 1, "code 6 abbreviated");
    CHECK(sb_bs_next(&s.bs) == SB_BS_ENTER && s.bs.block_id == 12, "block 12 not entered");
    expect_record(&s.bs, 6, kept, 2, "code 6 in a nested block");
    CHECK(sb_bs_next(&s.bs) == SB_BS_END, "block 12 end");
    expect_record(&s.bs, 9, tail, 2, "back in the skipping block");
    CHECK(sb_bs_next(&s.bs) == SB_BS_ENTER && s.bs.block_id == 13, "block 13 not entered");
    CHECK(s.bs.scopes[s.bs.depth - 1].end_bit - s.bs.bit == 64, "block 13 body: %llu bits",
          (unsigned long long)(s.bs.scopes[s.bs.depth - 1].end_bit - s.bs.bit));
    sb_bs_skip_records(&s.bs, 1ull << 6);
    expect_record(&s.bs, 9, NULL, 0, "the record after one skipped near the block end");
    CHECK(sb_bs_next(&s.bs) == SB_BS_END && sb_bs_next(&s.bs) == SB_BS_END, "block ends");
    CHECK(sb_bs_next(&s.bs) == SB_BS_EOF, "end of stream");
    finish(&s);

    /* A skipped record's operand count is still held to the block's bits: 1000
     * operands need 6000 bits, the block has 32 after the record's header. Its
     * first entry is at bit 96 (byte 12). */
    start(&s);
    bw_enter_block(&s.w, 8, 3);
    bw_fixed(&s.w, 3, s.w.width);
    bw_vbr(&s.w, 6, 6);
    bw_vbr(&s.w, 1000, 6);
    bw_end_block(&s.w);
    open_stream(&s);
    CHECK(sb_bs_next(&s.bs) == SB_BS_ENTER, "module block not entered");
    sb_bs_skip_records(&s.bs, 1ull << 6);
    CHECK(sb_bs_next(&s.bs) == SB_BS_ERROR, "skipped record with too many operands");
    CHECK(s.error.code == SB_ERROR_BAD_COUNT && s.error.offset == 12,
          "too many skipped operands: code %d offset %llu (%s)", s.error.code,
          (unsigned long long)s.error.offset, s.error.message);
    finish(&s);
}

/* BLOCKINFO abbreviations are ids 4.. in every later block of their target id;
 * the block's own follow them; a sub-block sees neither of its parent's own. */
static void test_blockinfo_and_scoping(void)
{
    struct stream s;
    start(&s);
    bw_enter_block(&s.w, 8, 3);
    bw_enter_block(&s.w, 0, 2);
    bw_record(&s.w, 1, (uint64_t[]){ 9 }, 1); /* SETBID 9 */
    bw_define_abbrev(&s.w, &(struct bw_abbrev){ 2, { { 0, 3 }, { 2, 6 } } });
    bw_record(&s.w, 2, (uint64_t[]){ 'n', 'a', 'm', 'e', 'd' }, 5); /* BLOCKNAME: ignored */
    bw_end_block(&s.w);
    bw_enter_block(&s.w, 9, 4);
    bw_fixed(&s.w, 4, s.w.width); /* BLOCKINFO's [3, vbr6] */
    bw_vbr(&s.w, 200, 6);
    bw_define_abbrev(&s.w, &(struct bw_abbrev){ 2, { { 0, 4 }, { 1, 9 } } });
    bw_fixed(&s.w, 5, s.w.width); /* the block's own [4, fixed9] */
    bw_fixed(&s.w, 300, 9);
    bw_enter_block(&s.w, 9, 4);
    bw_fixed(&s.w, 4, s.w.width); /* a new block 9 sees BLOCKINFO's again */
    bw_vbr(&s.w, 1, 6);
    bw_end_block(&s.w);
    bw_fixed(&s.w, 5, s.w.width); /* and the outer block 9 still its own */
    bw_fixed(&s.w, 511, 9);
    bw_end_block(&s.w);
    bw_end_block(&s.w);
    open_stream(&s);
    CHECK(sb_bs_next(&s.bs) == SB_BS_ENTER && s.bs.block_id == 8, "module");
    CHECK(sb_bs_next(&s.bs) == SB_BS_ENTER && s.bs.block_id == 9, "BLOCKINFO is not reported");
    expect_record(&s.bs, 3, (uint64_t[]){ 200 }, 1, "BLOCKINFO abbreviation");
    expect_record(&s.bs, 4, (uint64_t[]){ 300 }, 1, "local abbreviation after BLOCKINFO's");
    CHECK(sb_bs_next(&s.bs) == SB_BS_ENTER && sb_bs_current_block(&s.bs) == 9, "nested 9");
    expect_record(&s.bs, 3, (uint64_t[]){ 1 }, 1, "nested block uses BLOCKINFO");
    CHECK(sb_bs_next(&s.bs) == SB_BS_END, "nested end");
    expect_record(&s.bs, 4, (uint64_t[]){ 511 }, 1, "own abbreviation restored");
    CHECK(sb_bs_next(&s.bs) == SB_BS_END && sb_bs_next(&s.bs) == SB_BS_END, "ends");
    CHECK(sb_bs_next(&s.bs) == SB_BS_EOF, "eof");
    finish(&s);

    /* A sub-block cannot use its parent's inline abbreviation: the id is undefined.
     * Bits: block 8 body at 96; DEFINE_ABBREV = 3 + vbr5 (5) + literal (1+8) +
     * fixed (1+3+5) = 26 bits, so the ENTER of block 9 is at 122, its body at 192
     * (after align 160 and the length word); id 4 there = bit 192, byte 24. */
    start(&s);
    bw_enter_block(&s.w, 8, 3);
    bw_define_abbrev(&s.w, &(struct bw_abbrev){ 2, { { 0, 1 }, { 1, 5 } } });
    bw_enter_block(&s.w, 9, 3);
    bw_fixed(&s.w, 4, s.w.width);
    bw_fixed(&s.w, 0, 5);
    bw_end_block(&s.w);
    bw_end_block(&s.w);
    expect_error(&s, SB_ERROR_BC_BAD_ABBREV, 24, 192, "parent's abbreviation in a sub-block");
}

/* A stream whose BLOCKINFO (`blockinfo_count` copies of it) gives block 9 the
 * abbreviation [3, `element`], then block 9 with one record through it: `value` written
 * with `element`'s encoding. */
static void write_blockinfo_stream(struct stream *s, struct bw_abbrev_op element,
                                   unsigned blockinfo_count, uint64_t value)
{
    start(s);
    bw_enter_block(&s->w, 8, 3);
    for (unsigned i = 0; i < blockinfo_count; i++) {
        bw_enter_block(&s->w, 0, 2);
        bw_record(&s->w, 1, (uint64_t[]){ 9 }, 1); /* SETBID 9 */
        bw_define_abbrev(&s->w, &(struct bw_abbrev){ 2, { { 0, 3 }, element } });
        bw_end_block(&s->w);
    }
    bw_enter_block(&s->w, 9, 4);
    bw_fixed(&s->w, 4, s->w.width);
    if (element.kind == 1)
        bw_fixed(&s->w, value, (unsigned)element.value);
    else
        bw_vbr(&s->w, value, (unsigned)element.value);
    bw_end_block(&s->w);
    bw_end_block(&s->w);
}

/* Reads write_blockinfo_stream's stream: block 9's record through id 4 reads `value`. */
static void expect_blockinfo_stream(struct stream *s, uint64_t value, const char *what)
{
    open_stream(s);
    CHECK(sb_bs_next(&s->bs) == SB_BS_ENTER && s->bs.block_id == 8, "%s: module", what);
    CHECK(sb_bs_next(&s->bs) == SB_BS_ENTER && s->bs.block_id == 9, "%s: block 9", what);
    expect_record(&s->bs, 3, (uint64_t[]){ value }, 1, what);
    CHECK(sb_bs_next(&s->bs) == SB_BS_END && sb_bs_next(&s->bs) == SB_BS_END &&
              sb_bs_next(&s->bs) == SB_BS_EOF,
          "%s: ends", what);
    finish(s);
}

/* The reader keeps the BLOCKINFO blocks it read for later streams with the same bytes:
 * what a stream reads must not depend on what came before it. Two streams whose
 * BLOCKINFO blocks have the same length and differ in one operand's encoding read their
 * own values in any order; a second BLOCKINFO block in one stream adds its abbreviation
 * after the first's (id 5), recalled or not. */
static void test_blockinfo_kept(void)
{
    struct stream s;
    for (unsigned round = 0; round < 3; round++) {
        /* The first two BLOCKINFO blocks differ in one operand's encoding bits alone. */
        write_blockinfo_stream(&s, (struct bw_abbrev_op){ 2, 6 }, 1, 33);
        expect_blockinfo_stream(&s, 33, "BLOCKINFO with vbr6");
        write_blockinfo_stream(&s, (struct bw_abbrev_op){ 1, 6 }, 1, 33);
        expect_blockinfo_stream(&s, 33, "BLOCKINFO with fixed6");
        write_blockinfo_stream(&s, (struct bw_abbrev_op){ 1, 9 }, 1, 300);
        expect_blockinfo_stream(&s, 300, "BLOCKINFO with fixed9");
    }
    /* Two BLOCKINFO blocks, the first one kept above: block 9 has ids 4 and 5. */
    start(&s);
    bw_enter_block(&s.w, 8, 3);
    for (unsigned i = 0; i < 2; i++) {
        bw_enter_block(&s.w, 0, 2);
        bw_record(&s.w, 1, (uint64_t[]){ 9 }, 1);
        bw_define_abbrev(&s.w, &(struct bw_abbrev){ 2, { { 0, 3 }, { 1, 9 } } });
        bw_end_block(&s.w);
    }
    bw_enter_block(&s.w, 9, 4);
    bw_fixed(&s.w, 5, s.w.width);
    bw_fixed(&s.w, 301, 9);
    bw_fixed(&s.w, 6, s.w.width);
    bw_end_block(&s.w);
    bw_end_block(&s.w);
    open_stream(&s);
    CHECK(sb_bs_next(&s.bs) == SB_BS_ENTER && sb_bs_next(&s.bs) == SB_BS_ENTER,
          "two BLOCKINFO blocks: block 9");
    expect_record(&s.bs, 3, (uint64_t[]){ 301 }, 1, "the second BLOCKINFO block's id 5");
    CHECK(sb_bs_next(&s.bs) == SB_BS_ERROR && s.error.code == SB_ERROR_BC_BAD_ABBREV,
          "two BLOCKINFO blocks: id 6 is undefined (%s)", s.error.message);
    finish(&s);
}

/* A BLOCKINFO block whose length word claims a word more than its END_BLOCK uses: the
 * module block goes on right after the END_BLOCK (its record and its own END_BLOCK lie
 * inside the claimed length), the second time too, when the block is recalled. */
static void test_blockinfo_ending_early(void)
{
    for (unsigned round = 0; round < 2; round++) {
        struct stream s;
        start(&s);
        bw_enter_block(&s.w, 8, 3);
        bw_enter_block(&s.w, 0, 2);
        size_t length_word = s.w.blocks[s.w.depth - 1].length_word_bit / 8;
        bw_record(&s.w, 1, (uint64_t[]){ 9 }, 1);
        bw_define_abbrev(&s.w, &(struct bw_abbrev){ 2, { { 0, 3 }, { 1, 9 } } });
        bw_end_block(&s.w);
        bw_record(&s.w, 9, (uint64_t[]){ 5 }, 1);
        bw_end_block(&s.w);
        s.w.data[length_word] += 1; /* the claimed length, a word longer */
        open_module_block(&s);
        expect_record(&s.bs, 9, (uint64_t[]){ 5 }, 1, "record right after an early END_BLOCK");
        CHECK(sb_bs_next(&s.bs) == SB_BS_END && sb_bs_next(&s.bs) == SB_BS_EOF,
              "early END_BLOCK, round %u: ends", round);
        finish(&s);
    }
}

/* Inline DEFINE_ABBREVs are kept by their bits too. [3, fixed W] for W = 6, 9, 10 share
 * their first 16 bits (the width comes later), so they compete for the same kept slots:
 * read in turn, each stream still reads its own width. */
static void test_inline_abbrevs_kept(void)
{
    static const unsigned widths[] = { 6, 9, 10 };
    static const uint64_t values[] = { 45, 300, 1000 };
    for (unsigned round = 0; round < 9; round++) {
        unsigned k = round % 3;
        struct stream s;
        start(&s);
        bw_enter_block(&s.w, 8, 3);
        bw_enter_block(&s.w, 9, 4);
        bw_define_abbrev(&s.w, &(struct bw_abbrev){ 2, { { 0, 3 }, { 1, widths[k] } } });
        bw_fixed(&s.w, 4, s.w.width);
        bw_fixed(&s.w, values[k], widths[k]);
        bw_end_block(&s.w);
        bw_end_block(&s.w);
        open_stream(&s);
        CHECK(sb_bs_next(&s.bs) == SB_BS_ENTER && sb_bs_next(&s.bs) == SB_BS_ENTER,
              "inline fixed%u: block 9", widths[k]);
        expect_record(&s.bs, 3, (uint64_t[]){ values[k] }, 1, "inline abbreviation kept");
        CHECK(sb_bs_next(&s.bs) == SB_BS_END && sb_bs_next(&s.bs) == SB_BS_END &&
                  sb_bs_next(&s.bs) == SB_BS_EOF,
              "inline fixed%u: ends", widths[k]);
        finish(&s);
    }
}

/* A stream whose block 15 holds records of codes `codes` (0 ends the list; each with
 * operands 100, 7), then a record 9 [5] in the module block. */
static void write_passed_stream(struct stream *s, const unsigned *codes)
{
    start(s);
    bw_enter_block(&s->w, 8, 3);
    bw_enter_block(&s->w, 15, 3);
    for (unsigned i = 0; codes[i]; i++)
        bw_record(&s->w, codes[i], (uint64_t[]){ 100, 7 }, 2);
    bw_end_block(&s->w);
    bw_record(&s->w, 9, (uint64_t[]){ 5 }, 1);
    bw_end_block(&s->w);
}

/* Reads write_passed_stream's stream passing over code 6 in block 15: whether the block
 * was passed whole by sb_bs_pass_known_block, and the records of it returned (`code`, 0
 * for none), then the module's record. */
static void expect_passed_stream(struct stream *s, bool passed, unsigned code, const char *what)
{
    open_module_block(s);
    CHECK(sb_bs_next(&s->bs) == SB_BS_ENTER && s->bs.block_id == 15, "%s: block 15", what);
    sb_bs_skip_records(&s->bs, 1ull << 6);
    bool was_passed = sb_bs_pass_known_block(&s->bs);
    CHECK(was_passed == passed, "%s: passed whole %d, expected %d", what, was_passed, passed);
    if (!was_passed) {
        if (code)
            expect_record(&s->bs, code, (uint64_t[]){ 100, 7 }, 2, what);
        CHECK(sb_bs_next(&s->bs) == SB_BS_END, "%s: block 15 ends", what);
    }
    expect_record(&s->bs, 9, (uint64_t[]){ 5 }, 1, what);
    CHECK(sb_bs_next(&s->bs) == SB_BS_END && sb_bs_next(&s->bs) == SB_BS_EOF, "%s: ends", what);
    finish(s);
}

/* A block whose records were all passed over is passed whole the next time the same bits
 * come (sb_bs_pass_known_block), and only then: not one of the same length that differs
 * in a code, nor one in which a record was returned. */
static void test_passed_blocks(void)
{
    struct stream s;
    static const unsigned only6[] = { 6, 6, 6, 0 }, with7[] = { 6, 7, 6, 0 },
                          other[] = { 6, 6, 5, 0 };
    write_passed_stream(&s, only6);
    expect_passed_stream(&s, false, 0, "first block of code 6 alone");
    write_passed_stream(&s, only6);
    expect_passed_stream(&s, true, 0, "the same block again");
    write_passed_stream(&s, with7);
    expect_passed_stream(&s, false, 7, "a block with a record of code 7");
    write_passed_stream(&s, with7);
    expect_passed_stream(&s, false, 7, "that block again (it returned a record)");
    write_passed_stream(&s, other);
    expect_passed_stream(&s, false, 5, "a block of the same length, code 5 last");
    write_passed_stream(&s, only6);
    expect_passed_stream(&s, true, 0, "the first block, still kept");
}

/* Nested blocks: a skipped block leaves the cursor right after it. */
static void test_nested_and_skip(void)
{
    struct stream s;
    start(&s);
    bw_enter_block(&s.w, 8, 3);
    bw_enter_block(&s.w, 12, 4);
    bw_enter_block(&s.w, 11, 4);
    bw_record(&s.w, 4, (uint64_t[]){ 2 }, 1);
    bw_end_block(&s.w);
    bw_record(&s.w, 1, (uint64_t[]){ 1 }, 1);
    bw_end_block(&s.w);
    bw_record(&s.w, 2, (uint64_t[]){ 42, 43 }, 2);
    bw_end_block(&s.w);
    open_stream(&s);
    CHECK(sb_bs_next(&s.bs) == SB_BS_ENTER, "module");
    CHECK(sb_bs_next(&s.bs) == SB_BS_ENTER && s.bs.block_id == 12, "function block");
    CHECK(s.bs.depth == 2, "depth %u", s.bs.depth);
    CHECK(sb_bs_skip_block(&s.bs), "skip");
    CHECK(s.bs.depth == 1, "depth after skip %u", s.bs.depth);
    expect_record(&s.bs, 2, (uint64_t[]){ 42, 43 }, 2, "record after the skipped block");
    CHECK(sb_bs_next(&s.bs) == SB_BS_END && sb_bs_next(&s.bs) == SB_BS_EOF, "end");
    finish(&s);

    start(&s);
    bw_enter_block(&s.w, 8, 3);
    bw_enter_block(&s.w, 12, 4);
    bw_enter_block(&s.w, 11, 4);
    bw_record(&s.w, 4, (uint64_t[]){ 2 }, 1);
    bw_end_block(&s.w);
    bw_end_block(&s.w);
    bw_end_block(&s.w);
    open_stream(&s);
    CHECK(sb_bs_next(&s.bs) == SB_BS_ENTER && sb_bs_next(&s.bs) == SB_BS_ENTER &&
              sb_bs_next(&s.bs) == SB_BS_ENTER && s.bs.depth == 3,
          "three levels");
    expect_record(&s.bs, 4, (uint64_t[]){ 2 }, 1, "innermost record");
    CHECK(sb_bs_next(&s.bs) == SB_BS_END && sb_bs_current_block(&s.bs) == 12, "back in 12");
    CHECK(sb_bs_next(&s.bs) == SB_BS_END && sb_bs_current_block(&s.bs) == 8, "back in 8");
    CHECK(sb_bs_next(&s.bs) == SB_BS_END && sb_bs_current_block(&s.bs) == UINT32_MAX, "top");
    finish(&s);
}

static void test_malformed(void)
{
    struct stream s;

    /* Undefined abbreviation id 5 as the block's first entry (bit 96). */
    start(&s);
    bw_enter_block(&s.w, 8, 3);
    bw_fixed(&s.w, 5, s.w.width);
    bw_end_block(&s.w);
    expect_error(&s, SB_ERROR_BC_BAD_ABBREV, 12, 96, "undefined abbreviation id");

    /* A VBR6 record code of 13 chunks all saying "more": chunk 12 lands at value
     * bit 60 with payload 31, which overflows 64 bits. The field starts at bit 99. */
    start(&s);
    bw_enter_block(&s.w, 8, 3);
    bw_fixed(&s.w, 3, s.w.width);
    for (int i = 0; i < 13; i++)
        bw_fixed(&s.w, 0x3f, 6);
    bw_fixed(&s.w, 0, 6);
    bw_end_block(&s.w);
    expect_error(&s, SB_ERROR_BC_VBR_TOO_LONG, 12, 99, "VBR too long");

    /* A block whose length word claims 100 words in a file of 16 bytes: the
     * ENTER at bit 32 (byte 4) is refused. */
    start(&s);
    bw_enter_block(&s.w, 8, 3);
    bw_end_block(&s.w);
    s.w.data[8] = 100;
    expect_error(&s, SB_ERROR_BC_BAD_BLOCK, 4, 32, "block end past the data");

    /* Truncated: a one-word block holding [UNABBREV code 1, 1 operand] whose
     * operand's VBR chunks run on: header 3+6+6 = 15 bits (96..110), chunks at
     * 111 and 117, the third at 123 needs 6 bits with 5 left (block ends at 128). */
    start(&s);
    bw_enter_block(&s.w, 8, 3);
    bw_fixed(&s.w, 3, s.w.width);
    bw_vbr(&s.w, 1, 6);
    bw_vbr(&s.w, 1, 6);
    bw_fixed(&s.w, 0x3f, 6);
    bw_fixed(&s.w, 0x3f, 6);
    bw_fixed(&s.w, 0x1f, 5); /* the third chunk's first 5 bits */
    bw_align32(&s.w);
    s.w.data[8] = 1; /* length: 1 word */
    expect_error(&s, SB_ERROR_TRUNCATED, 15, 123, "truncated operand");

    /* Depth bomb: 17 nested blocks, written by hand (the writer nests 8). Block k's
     * ENTER fills word 1 + 2k, its length word 2 + 2k; the file has 35 words, so
     * block k claims the 32 - 2k words after its length word. The 17th ENTER is at
     * bit 32 + 16 * 64 = 1056. */
    start(&s);
    for (int k = 0; k < 17; k++) {
        bw_fixed(&s.w, 1, k ? 3 : 2); /* ENTER_SUBBLOCK in the enclosing width */
        bw_vbr(&s.w, 8, 8);
        bw_vbr(&s.w, 3, 4);
        bw_align32(&s.w);
        bw_fixed(&s.w, (uint64_t)(32 - 2 * k), 32);
    }
    expect_error(&s, SB_ERROR_BC_TOO_DEEP, 132, 1056, "depth bomb");

    /* Count bombs: an unabbreviated record claiming 1,000,000 operands, an array
     * of 1,000,000 elements and a DEFINE_ABBREV of 1,000 operands, each in a small
     * block: refused at the record's start (bit 96) before any allocation. */
    start(&s);
    bw_enter_block(&s.w, 8, 3);
    bw_fixed(&s.w, 3, s.w.width);
    bw_vbr(&s.w, 1, 6);
    bw_vbr(&s.w, 1000000, 6);
    bw_end_block(&s.w);
    expect_error(&s, SB_ERROR_BAD_COUNT, 12, 96, "operand count bomb");

    /* DEFINE_ABBREV (3 + 5 + 9 + 1 + 3 + 1 + 3 = 25 bits) at 96, record at 121. */
    start(&s);
    bw_enter_block(&s.w, 8, 3);
    bw_define_abbrev(&s.w, &(struct bw_abbrev){ 3, { { 0, 1 }, { 3, 0 }, { 4, 0 } } });
    bw_fixed(&s.w, 4, s.w.width);
    bw_vbr(&s.w, 1000000, 6);
    bw_end_block(&s.w);
    expect_error(&s, SB_ERROR_BAD_COUNT, 15, 121, "array count bomb");

    start(&s);
    bw_enter_block(&s.w, 8, 3);
    bw_fixed(&s.w, 2, s.w.width);
    bw_vbr(&s.w, 1000, 5);
    bw_end_block(&s.w);
    expect_error(&s, SB_ERROR_BAD_COUNT, 12, 96, "abbreviation operand count bomb");

    /* An array that is not followed by exactly one element operand. */
    start(&s);
    bw_enter_block(&s.w, 8, 3);
    bw_define_abbrev(&s.w, &(struct bw_abbrev){ 4, { { 0, 1 }, { 3, 0 }, { 4, 0 }, { 4, 0 } } });
    bw_end_block(&s.w);
    expect_error(&s, SB_ERROR_BC_BAD_ABBREV, 12, 96, "array not last");

    /* Encoding 6 does not exist. */
    start(&s);
    bw_enter_block(&s.w, 8, 3);
    bw_define_abbrev(&s.w, &(struct bw_abbrev){ 1, { { 6, 0 } } });
    bw_end_block(&s.w);
    expect_error(&s, SB_ERROR_BC_BAD_ABBREV, 12, 96, "unknown encoding");

    /* A record at the top level (abbreviation id 3 at bit 32). */
    start(&s);
    bw_fixed(&s.w, 3, s.w.width);
    bw_align32(&s.w);
    expect_error(&s, SB_ERROR_BC_BAD_BLOCK, 4, 32, "record at the top level");

    /* DEFINE_ABBREV in BLOCKINFO before SETBID: BLOCKINFO's body at bit 160 (byte 20). */
    start(&s);
    bw_enter_block(&s.w, 8, 3);
    bw_enter_block(&s.w, 0, 2);
    bw_define_abbrev(&s.w, &(struct bw_abbrev){ 1, { { 0, 1 } } });
    bw_end_block(&s.w);
    bw_end_block(&s.w);
    expect_error(&s, SB_ERROR_BC_BAD_RECORD, 20, 160, "BLOCKINFO without SETBID");

    /* The base offset moves every error offset (the bit stays relative). */
    start(&s);
    bw_enter_block(&s.w, 8, 3);
    bw_fixed(&s.w, 5, s.w.width);
    bw_end_block(&s.w);
    open_stream(&s);
    s.bs.base_offset = 1000;
    while (sb_bs_next(&s.bs) > SB_BS_EOF)
        ;
    CHECK(s.error.offset == 1012 && !strncmp(s.error.message, "bit 96:", 7),
          "base offset: %llu '%s'", (unsigned long long)s.error.offset, s.error.message);
    finish(&s);
}

int main(void)
{
    test_operand_encodings();
    test_fast_path_edges();
    test_arrays_in_arena();
    test_skipped_records();
    test_array_runs();
    test_blockinfo_and_scoping();
    test_blockinfo_kept();
    test_blockinfo_ending_early();
    test_inline_abbrevs_kept();
    test_passed_blocks();
    test_nested_and_skip();
    test_malformed();
    printf("dxil_bitcode_stream: %u checks, %u failed\n", checks, failures);
    return failures ? 1 : 0;
}
