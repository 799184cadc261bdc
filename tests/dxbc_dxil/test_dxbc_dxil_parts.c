/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the program header (DXIL/ILDB/STAT), HASH, VERS, ILDN, SRCI
 * and SYM0/STR0 decoders (../shared/docs/dxcontainer.md §2, §3, §8, §9, §14): parts
 * built in memory, wrapped in a signed container, decoded values asserted,
 * and malformed variants asserting the exact error code and byte offset.
 */
#include "dxil_test_util.h"

#include <string.h>

#define FOURCC(s) SB_FOURCC((s)[0], (s)[1], (s)[2], (s)[3])

static void test_program(void)
{
    struct tbuf dxil = program_part(SB_DXIL_SHADER_KIND_HULL, 8);
    struct tbuf ildb = program_part(SB_DXIL_SHADER_KIND_DOMAIN, 4);
    struct tbuf stat = program_part(SB_DXIL_SHADER_KIND_HULL, 0);
    struct tpart parts[] = { { FOURCC("STAT"), &stat }, { FOURCC("ILDB"), &ildb },
                             { FOURCC("DXIL"), &dxil } };
    struct tbuf file = make_container(parts, 3);
    struct sb_dxbc *dxbc = parse_ok(&file, __LINE__);
    if (dxbc) {
        const struct sb_dxbc_program *p = dxbc->parts[2].decoded.program;
        CHECK_EQ(p->major_version, 6);
        CHECK_EQ(p->minor_version, 5);
        CHECK_EQ(p->shader_kind, SB_DXIL_SHADER_KIND_HULL);
        CHECK_STR(sb_dxil_shader_kind_name(p->shader_kind), "Hull");
        CHECK_EQ(p->size_in_words, 8);
        CHECK_EQ(p->dxil_magic, FOURCC("DXIL"));
        CHECK_EQ(p->dxil_major_version, 1);
        CHECK_EQ(p->dxil_minor_version, 7);
        CHECK_EQ(p->bitcode_offset, 16);
        CHECK_EQ(p->bitcode_size, 8);
        CHECK_EQ(p->bitcode_file_offset, part_data_offset(parts, 3, 2) + 24);
        CHECK(p->bitcode == dxbc->bytes + p->bitcode_file_offset);
        CHECK(p->bitcode_is_wrapped);
        CHECK(dxbc->is_dxil);
        const struct sb_dxbc_program *s = dxbc->parts[0].decoded.program;
        CHECK_EQ(s->shader_kind, SB_DXIL_SHADER_KIND_HULL);
        CHECK_EQ(s->bitcode_size, 0);
        CHECK(!s->bitcode_is_wrapped);
        CHECK_EQ(dxbc->parts[1].decoded.program->shader_kind, SB_DXIL_SHADER_KIND_DOMAIN);
        /* ILDB's kind differs from DXIL's: a warning, not an error. */
        CHECK_EQ(dxbc->warning_count, 1);
        if (dxbc->warning_count)
            CHECK_EQ(dxbc->warnings[0].offset, part_data_offset(parts, 3, 1) + 2);
    }
    sb_dxbc_destroy(dxbc);
    tb_free(&file);

    struct tpart one[] = { { FOURCC("DXIL"), &dxil } };
    tb_set_u32(&dxil, 8, 0x4c495843); /* 'CXIL' */
    parts_fail(one, 1, 0, 8, SB_ERROR_BAD_MAGIC, __LINE__);
    tb_set_u32(&dxil, 8, FOURCC("DXIL"));
    tb_set_u32(&dxil, 4, 9); /* 36 bytes > 32-byte part: LLVM accepts it, we warn */
    {
        struct tbuf oversized = make_container(one, 1);
        struct sb_dxbc *d = parse_ok(&oversized, __LINE__);
        if (d) {
            CHECK_EQ(d->parts[0].decoded.program->size_in_words, 9);
            CHECK_EQ(d->warning_count, 1);
            if (d->warning_count)
                CHECK_EQ(d->warnings[0].offset, d->parts[0].data_offset + 4);
        }
        sb_dxbc_destroy(d);
        tb_free(&oversized);
    }
    tb_set_u32(&dxil, 4, 5); /* smaller than the header */
    parts_fail(one, 1, 0, 4, SB_ERROR_BAD_SIZE, __LINE__);
    tb_set_u32(&dxil, 4, 8);
    tb_set_u32(&dxil, 16, 12); /* bitcode inside the header */
    parts_fail(one, 1, 0, 16, SB_ERROR_BAD_OFFSET, __LINE__);
    tb_set_u32(&dxil, 16, 16);
    tb_set_u32(&dxil, 20, 9); /* one byte past the program */
    parts_fail(one, 1, 0, 20, SB_ERROR_BAD_SIZE, __LINE__);
    struct tbuf short_part = { 0 };
    tb_bytes(&short_part, dxil.data, 20);
    struct tpart truncated[] = { { FOURCC("DXIL"), &short_part } };
    parts_fail(truncated, 1, 0, 20, SB_ERROR_TRUNCATED, __LINE__);
    tb_free(&short_part);
    tb_free(&dxil);
    tb_free(&ildb);
    tb_free(&stat);

    for (uint32_t k = 0; k <= SB_DXIL_SHADER_KIND_INVALID; k++)
        CHECK(sb_dxil_shader_kind_name(k) != NULL);
    CHECK_STR(sb_dxil_shader_kind_name(SB_DXIL_SHADER_KIND_NODE), "Node");
    CHECK(sb_dxil_shader_kind_name(SB_DXIL_SHADER_KIND_INVALID + 1) == NULL);
}

static void test_hash(void)
{
    struct tbuf hash = { 0 };
    tb_u32(&hash, 1);
    for (uint8_t i = 0; i < 16; i++)
        tb_u8(&hash, (uint8_t)(i * 17));
    struct tpart parts[] = { { FOURCC("HASH"), &hash } };
    struct tbuf file = make_container(parts, 1);
    struct sb_dxbc *dxbc = parse_ok(&file, __LINE__);
    if (dxbc) {
        const struct sb_dxbc_hash *h = dxbc->parts[0].decoded.hash;
        CHECK_EQ(h->flags, 1);
        CHECK(h->includes_source);
        CHECK_EQ(h->digest[0], 0);
        CHECK_EQ(h->digest[15], 255);
    }
    sb_dxbc_destroy(dxbc);
    tb_free(&file);
    hash.size = 12;
    parts_fail(parts, 1, 0, 4, SB_ERROR_TRUNCATED, __LINE__);
    tb_free(&hash);
}

static struct tbuf vers_part(const char *sha, const char *custom)
{
    struct tbuf b = { 0 };
    tb_u16(&b, 1);
    tb_u16(&b, 10);
    tb_u32(&b, SB_DXBC_VERS_FLAG_DEBUG);
    tb_u32(&b, 5267);
    uint32_t content = (uint32_t)((sha ? strlen(sha) + 1 : 0) + (custom ? strlen(custom) + 1 : 0));
    tb_u32(&b, content);
    if (sha)
        tb_str(&b, sha);
    if (custom)
        tb_str(&b, custom);
    tb_align4(&b);
    return b;
}

static void test_vers_ildn(void)
{
    struct tbuf vers = vers_part("21f060b7", "1.9.0.1526");
    struct tbuf ildn = { 0 };
    const char *pdb = "0b40fc8650d90fa2e9fd5cadc8eaaace.pdb";
    tb_u16(&ildn, 0);
    tb_u16(&ildn, (uint16_t)strlen(pdb));
    tb_str(&ildn, pdb);
    tb_align4(&ildn);
    CHECK_EQ(vers.size, 36);
    CHECK_EQ(ildn.size, 44);
    struct tpart parts[] = { { FOURCC("ILDN"), &ildn }, { FOURCC("VERS"), &vers } };
    struct tbuf file = make_container(parts, 2);
    struct sb_dxbc *dxbc = parse_ok(&file, __LINE__);
    if (dxbc) {
        const struct sb_dxbc_ildn *d = dxbc->parts[0].decoded.ildn;
        CHECK_EQ(d->flags, 0);
        CHECK_EQ(d->name_length, 36);
        CHECK_STR(d->name, pdb);
        const struct sb_dxbc_vers *v = dxbc->parts[1].decoded.vers;
        CHECK_EQ(v->major, 1);
        CHECK_EQ(v->minor, 10);
        CHECK_EQ(v->flags, SB_DXBC_VERS_FLAG_DEBUG);
        CHECK_EQ(v->commit_count, 5267);
        CHECK_EQ(v->content_size, 20);
        CHECK_STR(v->commit_sha, "21f060b7");
        CHECK_STR(v->custom_version, "1.9.0.1526");
    }
    sb_dxbc_destroy(dxbc);
    tb_free(&file);

    struct tbuf sha_only = vers_part("abc", NULL);
    struct tpart one[] = { { FOURCC("VERS"), &sha_only } };
    file = make_container(one, 1);
    dxbc = parse_ok(&file, __LINE__);
    if (dxbc) {
        CHECK_STR(dxbc->parts[0].decoded.vers->commit_sha, "abc");
        CHECK(dxbc->parts[0].decoded.vers->custom_version == NULL);
    }
    sb_dxbc_destroy(dxbc);
    tb_free(&file);
    tb_free(&sha_only);

    tb_set_u32(&vers, 12, 21); /* one byte past the part */
    parts_fail(parts, 2, 1, 12, SB_ERROR_BAD_SIZE, __LINE__);
    tb_set_u32(&vers, 12, 19); /* custom string loses its NUL */
    parts_fail(parts, 2, 1, 16 + 9, SB_ERROR_BAD_STRING, __LINE__);
    tb_set_u32(&vers, 12, 20);
    ildn.data[2] = 44; /* 44 + NUL > 40 bytes left */
    parts_fail(parts, 2, 0, 2, SB_ERROR_BAD_SIZE, __LINE__);
    ildn.data[2] = 35; /* the byte after 35 name bytes is 'b', not NUL */
    parts_fail(parts, 2, 0, 4 + 35, SB_ERROR_BAD_STRING, __LINE__);
    tb_free(&vers);
    tb_free(&ildn);
}

/* The SRCI part of LLVM's SRCIPart.yaml test, rebuilt field by field. */
static struct tbuf srci_part(uint16_t compression, bool duplicate_args)
{
    const char *content = "float4 main() : SV_Target { return 0; }";
    struct tbuf b = { 0 };
    tb_u32(&b, 0); /* size, set below */
    tb_u16(&b, 0);
    tb_u16(&b, duplicate_args ? 4 : 3);
    /* SourceNames */
    size_t names = b.size;
    tb_u32(&b, 0);
    tb_u16(&b, 0);
    tb_u16(&b, SB_DXBC_SRCI_SOURCE_NAMES);
    tb_u32(&b, 0);
    tb_u32(&b, 1);
    tb_u16(&b, 28);
    tb_u32(&b, 28);
    tb_u32(&b, 0);
    tb_u32(&b, 11);
    tb_u32(&b, 40);
    tb_str(&b, "fd_zs.hlsl");
    tb_align4(&b);
    tb_set_u32(&b, names, (uint32_t)(b.size - names));
    /* SourceContents */
    size_t contents = b.size;
    tb_u32(&b, 80);
    tb_u16(&b, 0);
    tb_u16(&b, SB_DXBC_SRCI_SOURCE_CONTENTS);
    tb_u32(&b, 72);
    tb_u16(&b, 0);
    tb_u16(&b, compression);
    tb_u32(&b, 52);
    tb_u32(&b, 52);
    tb_u32(&b, 1);
    tb_u32(&b, 52);
    tb_u32(&b, 0);
    tb_u32(&b, 40);
    tb_str(&b, content);
    CHECK_EQ(b.size - contents, 80);
    for (int copy = 0; copy < (duplicate_args ? 2 : 1); copy++) {
        tb_u32(&b, 40);
        tb_u16(&b, 0);
        tb_u16(&b, SB_DXBC_SRCI_ARGS);
        tb_u32(&b, 0);
        tb_u32(&b, 18);
        tb_u32(&b, 2);
        tb_str(&b, "-T");
        tb_str(&b, "ps_6_0");
        tb_str(&b, "-E");
        tb_str(&b, "main");
        tb_align4(&b);
    }
    tb_set_u32(&b, 0, (uint32_t)b.size);
    return b;
}

static void test_srci(void)
{
    struct tbuf srci = srci_part(SB_DXBC_SRCI_COMPRESSION_NONE, false);
    CHECK_EQ(srci.size, 176);
    struct tpart parts[] = { { FOURCC("SRCI"), &srci } };
    struct tbuf file = make_container(parts, 1);
    struct sb_dxbc *dxbc = parse_ok(&file, __LINE__);
    if (dxbc) {
        const struct sb_dxbc_srci *s = dxbc->parts[0].decoded.srci;
        CHECK_EQ(s->aligned_size, 176);
        CHECK_EQ(s->section_count, 3);
        CHECK_EQ(s->sections[0].type, SB_DXBC_SRCI_SOURCE_NAMES);
        CHECK_EQ(s->sections[0].aligned_size, 48);
        CHECK_EQ(s->sections[1].offset, 56);
        CHECK_EQ(s->sections[2].offset, 136);
        CHECK(s->has_names && s->has_contents && s->has_args);
        CHECK_EQ(s->name_count, 1);
        CHECK_EQ(s->names_entries_size, 28);
        CHECK_EQ(s->names[0].aligned_size, 28);
        CHECK_EQ(s->names[0].name_size, 11);
        CHECK_EQ(s->names[0].content_size, 40);
        CHECK_STR(s->names[0].name, "fd_zs.hlsl");
        CHECK_EQ(s->compression, SB_DXBC_SRCI_COMPRESSION_NONE);
        CHECK_EQ(s->contents_aligned_size, 72);
        CHECK_EQ(s->contents_entries_size, 52);
        CHECK_EQ(s->contents_uncompressed_size, 52);
        CHECK_EQ(s->content_entry_count, 1);
        CHECK_EQ(s->contents[0].content_size, 40);
        CHECK_STR(s->contents[0].content, "float4 main() : SV_Target { return 0; }");
        CHECK_EQ(s->args_size, 18);
        CHECK_EQ(s->arg_count, 2);
        CHECK_STR(s->args[0].name, "-T");
        CHECK_STR(s->args[0].value, "ps_6_0");
        CHECK_STR(s->args[1].name, "-E");
        CHECK_STR(s->args[1].value, "main");
    }
    sb_dxbc_destroy(dxbc);
    tb_free(&file);

    /* Compressed contents are kept raw. */
    struct tbuf zipped = srci_part(SB_DXBC_SRCI_COMPRESSION_ZLIB, false);
    struct tpart zparts[] = { { FOURCC("SRCI"), &zipped } };
    file = make_container(zparts, 1);
    dxbc = parse_ok(&file, __LINE__);
    if (dxbc) {
        const struct sb_dxbc_srci *s = dxbc->parts[0].decoded.srci;
        CHECK_EQ(s->compression, SB_DXBC_SRCI_COMPRESSION_ZLIB);
        CHECK_STR(sb_dxbc_srci_compression_name(s->compression), "Zlib");
        CHECK_EQ(s->content_count, 1);
        CHECK_EQ(s->content_entry_count, 0);
        CHECK(s->contents_raw == dxbc->bytes + part_data_offset(zparts, 1, 0) + 56 + 8 + 20);
        CHECK_EQ(s->contents_raw[0], 52);
    }
    sb_dxbc_destroy(dxbc);
    tb_free(&file);
    tb_free(&zipped);

    struct tbuf dup = srci_part(SB_DXBC_SRCI_COMPRESSION_NONE, true);
    struct tpart dparts[] = { { FOURCC("SRCI"), &dup } };
    parts_fail(dparts, 1, 0, 176, SB_ERROR_DUPLICATE, __LINE__);
    tb_free(&dup);

    tb_set_u32(&srci, 8 + 48, 200); /* contents section larger than what remains */
    parts_fail(parts, 1, 0, 56, SB_ERROR_BAD_SIZE, __LINE__);
    tb_set_u32(&srci, 8 + 48, 80);
    srci.data[42 + 10] = 'x'; /* the file name at 42 loses its NUL */
    parts_fail(parts, 1, 0, 42, SB_ERROR_BAD_STRING, __LINE__);
    srci.data[42 + 10] = 0;
    tb_set_u32(&srci, 0, 180); /* header size beyond the part */
    parts_fail(parts, 1, 0, 0, SB_ERROR_BAD_SIZE, __LINE__);
    tb_free(&srci);
}

static void put_symbol(struct tbuf *b, const char *short_name, uint32_t long_offset,
                       uint32_t section)
{
    char name[8] = { 0 };
    if (short_name) {
        memcpy(name, short_name, strlen(short_name));
        tb_bytes(b, name, 8);
    } else {
        tb_u32(b, 0);
        tb_u32(b, long_offset);
    }
    tb_u32(b, 0x40);
    tb_u32(b, section);
    tb_u8(b, 0);
    tb_u8(b, 2);
    tb_u8(b, 2);
    tb_u8(b, 0);
}

static void test_sym0_str0(void)
{
    struct tbuf str0 = { 0 };
    tb_u32(&str0, 0);
    tb_str(&str0, "a_rather_long_entry_point");
    tb_str(&str0, "second_long_function");
    tb_set_u32(&str0, 0, (uint32_t)str0.size);
    uint32_t declared = (uint32_t)str0.size;
    tb_align4(&str0);
    struct tbuf sym0 = { 0 };
    put_symbol(&sym0, "main", 0, 2);
    put_symbol(&sym0, NULL, 4, 2);
    put_symbol(&sym0, "exactly8", 0, 2);
    put_symbol(&sym0, NULL, 6, 2); /* suffix sharing: "rather_long_entry_point" */
    struct tbuf dxil = program_part(SB_DXIL_SHADER_KIND_LIBRARY, 4);
    struct tpart parts[] = { { FOURCC("SYM0"), &sym0 }, { FOURCC("STR0"), &str0 },
                             { FOURCC("DXIL"), &dxil } };
    struct tbuf file = make_container(parts, 3);
    struct sb_dxbc *dxbc = parse_ok(&file, __LINE__);
    if (dxbc) {
        const struct sb_dxbc_sym0 *s = dxbc->parts[0].decoded.sym0;
        CHECK_EQ(s->symbol_count, 4);
        CHECK_STR(s->symbols[0].name, "main");
        CHECK(!s->symbols[0].long_name);
        CHECK_EQ(s->symbols[0].value, 0x40);
        CHECK_EQ(s->symbols[0].section_index, 2);
        CHECK_EQ(s->symbols[0].complex_type, 2);
        CHECK_EQ(s->symbols[0].storage_class, 2);
        CHECK(s->symbols[1].long_name);
        CHECK_EQ(s->symbols[1].string_offset, 4);
        CHECK_STR(s->symbols[1].name, "a_rather_long_entry_point");
        CHECK_STR(s->symbols[2].name, "exactly8");
        CHECK_STR(s->symbols[3].name, "rather_long_entry_point");
        const struct sb_dxbc_str0 *t = dxbc->parts[1].decoded.str0;
        CHECK_EQ(t->size, declared);
        CHECK_EQ(t->string_count, 2);
        CHECK_EQ(t->strings[0].offset, 4);
        CHECK_EQ(t->strings[1].offset, 30);
        CHECK_STR(t->strings[1].text, "second_long_function");
        CHECK_EQ(t->trailing_bytes, str0.size - declared);
    }
    sb_dxbc_destroy(dxbc);
    tb_free(&file);

    /* Without STR0, SYM0 still decodes; long names keep their offset only. */
    struct tpart alone[] = { { FOURCC("SYM0"), &sym0 }, { FOURCC("DXIL"), &dxil },
                             { FOURCC("DXIL"), &dxil } };
    alone[2].fourcc = FOURCC("ILDB");
    file = make_container(alone, 3);
    dxbc = parse_ok(&file, __LINE__);
    if (dxbc) {
        const struct sb_dxbc_sym0 *s = dxbc->parts[0].decoded.sym0;
        CHECK(s->symbols[1].name == NULL);
        CHECK_EQ(s->symbols[1].string_offset, 4);
        CHECK_STR(s->symbols[0].name, "main");
    }
    sb_dxbc_destroy(dxbc);
    tb_free(&file);

    tb_set_u32(&sym0, 20 + 4, (uint32_t)declared); /* long name at the end of STR0 */
    parts_fail(parts, 3, 0, 20 + 4, SB_ERROR_BAD_OFFSET, __LINE__);
    tb_set_u32(&sym0, 20 + 4, 4);
    tb_set_u32(&sym0, 12, 3); /* section index = part count */
    parts_fail(parts, 3, 0, 12, SB_ERROR_BAD_VALUE, __LINE__);
    tb_set_u32(&sym0, 12, 2);
    tb_set_u32(&str0, 0, (uint32_t)str0.size + 4);
    parts_fail(parts, 3, 1, 0, SB_ERROR_BAD_SIZE, __LINE__);
    tb_set_u32(&str0, 0, declared - 1); /* last string loses its NUL */
    parts_fail(parts, 3, 1, 30, SB_ERROR_BAD_STRING, __LINE__);
    tb_set_u32(&str0, 0, declared);
    sym0.size -= 4;
    struct tbuf file2 = make_container(parts, 3);
    parse_fails(&file2, SB_ERROR_BAD_SIZE, part_data_offset(parts, 3, 0) - 4, __LINE__);
    tb_free(&file2);
    tb_free(&sym0);
    tb_free(&str0);
    tb_free(&dxil);
}

int main(void)
{
    test_program();
    test_hash();
    test_vers_ildn();
    test_srci();
    test_sym0_str0();
    return test_finish("test_dxbc_dxil_parts");
}
