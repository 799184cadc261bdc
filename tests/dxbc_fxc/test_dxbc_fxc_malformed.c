/* SPDX-License-Identifier: MIT */
/*
 * Malformed FXC-era parts: each case corrupts one field of a container
 * built by fxc_builder.h (re-signing it, so only the corruption differs)
 * and asserts the exact result code and the exact byte offset the reader
 * blames -- normally the field holding the bad count, offset or size.
 * Also the non-fatal cases (long SFI0, odd-sized STAT) that must parse with
 * a warning.
 */
#include "fxc_builder.h"
#include "fxc_check.h"

#include "shaderbridge/dxbc_fxc.h"

#define RDEF_CC SB_FOURCC('R', 'D', 'E', 'F')

enum { P_RDEF, P_ISGN, P_OSGN, P_SHDR, P_STAT, P_COUNT };

struct fixture {
    struct blob rdef, isgn, osgn, shdr, stat;
    struct rdef_marks marks;
    struct blob container;
    uint32_t data[P_COUNT]; /* absolute data offset of each part */
};

static const struct sig_element_spec inputs[] = {
    { 0, "POSITION", 0, 0, 3, 0, 0xF, 0xF, 0 },
    { 0, "TEXCOORD", 0, 0, 3, 1, 0x3, 0x3, 0 },
};

/* Builds the parts of a vs container; tests may change a part before assemble(). */
static void make_parts(struct fixture *f, enum rdef_form form)
{
    memset(f, 0, sizeof(*f));
    build_rdef(form, true, &f->rdef, &f->marks);
    build_signature(24, inputs, 2, &f->isgn);
    build_signature(24, inputs, 2, &f->osgn);
    blob_u32(&f->shdr, form == RDEF_40 ? 0x00010040 : 0x00010050);
    blob_u32(&f->shdr, 3);
    blob_u32(&f->shdr, 0x0100003e);
    for (uint32_t i = 0; i < 29; i++)
        blob_u32(&f->stat, i);
}

static void assemble(struct fixture *f)
{
    const struct part_spec parts[P_COUNT] = {
        { RDEF_CC, &f->rdef },
        { SB_FOURCC('I', 'S', 'G', 'N'), &f->isgn },
        { SB_FOURCC('O', 'S', 'G', 'N'), &f->osgn },
        { SB_FOURCC('S', 'H', 'D', 'R'), &f->shdr },
        { SB_FOURCC('S', 'T', 'A', 'T'), &f->stat },
    };
    build_container(parts, P_COUNT, &f->container, f->data);
}

static void fixture(struct fixture *f, enum rdef_form form)
{
    make_parts(f, form);
    assemble(f);
}

/* Patches a u32 at part-relative `at` of part `p` and re-signs. */
static void patch(struct fixture *f, int p, uint32_t at, uint32_t value)
{
    blob_patch_u32(&f->container, f->data[p] + at, value);
    resign_container(&f->container);
}

static void expect(const char *what, const struct blob *c, enum sb_result code, uint64_t offset)
{
    struct sb_dxbc *dxbc = NULL;
    struct sb_error error = { 0 };
    enum sb_result r = sb_dxbc_parse(c->bytes, c->size, &dxbc, &error);
    if (r != code || error.offset != offset) {
        fprintf(stderr, "%s: expected %s at %llu, got %s at %llu (%s)\n", what,
                sb_result_name(code), (unsigned long long)offset, sb_result_name(r),
                (unsigned long long)error.offset, r ? error.message : "no error");
        check_failures++;
    } else {
        printf("ok %-44s %s at %llu: %s\n", what, sb_result_name(r),
               (unsigned long long)error.offset, error.message);
    }
    CHECK(r == SB_SUCCESS || dxbc == NULL);
    CHECK(r != SB_SUCCESS || error.code == SB_SUCCESS);
    sb_dxbc_destroy(dxbc);
}

static void test_rdef_header(void)
{
    struct fixture f;
    make_parts(&f, RDEF_40);
    f.rdef.size = 20;
    assemble(&f);
    expect("RDEF 4.0 header truncated to 20 bytes", &f.container, SB_ERROR_TRUNCATED,
           f.data[P_RDEF] + 20);

    make_parts(&f, RDEF_50);
    f.rdef.size = 40;
    assemble(&f);
    expect("RDEF 5.0 header truncated to 40 bytes", &f.container, SB_ERROR_TRUNCATED,
           f.data[P_RDEF] + 40);

    fixture(&f, RDEF_50);
    patch(&f, P_RDEF, 28, 0x12345678);
    expect("RDEF 5.0 wrong magic", &f.container, SB_ERROR_BAD_MAGIC, f.data[P_RDEF] + 28);

    fixture(&f, RDEF_50);
    patch(&f, P_RDEF, 44, 24);
    expect("RDEF 5.0 variable descriptor size 24", &f.container, SB_ERROR_BAD_SIZE,
           f.data[P_RDEF] + 44);

    fixture(&f, RDEF_51);
    patch(&f, P_RDEF, 40, 28);
    expect("RDEF 5.1 binding descriptor size 28", &f.container, SB_ERROR_BAD_SIZE,
           f.data[P_RDEF] + 40);

    fixture(&f, RDEF_50);
    patch(&f, P_RDEF, 48, 20);
    expect("RDEF 5.0 type descriptor size 20", &f.container, SB_ERROR_BAD_SIZE,
           f.data[P_RDEF] + 48);

    fixture(&f, RDEF_50);
    patch(&f, P_RDEF, 32, 0x10000);
    expect("RDEF 5.0 header size past the part", &f.container, SB_ERROR_BAD_SIZE,
           f.data[P_RDEF] + 32);

    make_parts(&f, RDEF_40);
    struct rdef_marks m;
    build_rdef(RDEF_40, false, &f.rdef, &m);
    assemble(&f);
    expect("RDEF unterminated creator string", &f.container, SB_ERROR_BAD_STRING,
           f.data[P_RDEF] + m.creator);

    fixture(&f, RDEF_40);
    patch(&f, P_RDEF, 24, f.rdef.size);
    expect("RDEF creator offset at the part end", &f.container, SB_ERROR_BAD_OFFSET,
           f.data[P_RDEF] + 24);
}

static void test_rdef_records(void)
{
    struct fixture f;
    fixture(&f, RDEF_40);
    patch(&f, P_RDEF, f.marks.cbuffer_desc + 4, 0x10000000);
    expect("cbuffer variable count too large", &f.container, SB_ERROR_BAD_COUNT,
           f.data[P_RDEF] + f.marks.cbuffer_desc + 4);

    fixture(&f, RDEF_40);
    patch(&f, P_RDEF, 0, 1000);
    expect("constant buffer count too large", &f.container, SB_ERROR_BAD_COUNT,
           f.data[P_RDEF] + 0);

    fixture(&f, RDEF_40);
    patch(&f, P_RDEF, 4, 0x7fffffff);
    expect("constant buffer offset past the part", &f.container, SB_ERROR_BAD_OFFSET,
           f.data[P_RDEF] + 4);

    fixture(&f, RDEF_51);
    patch(&f, P_RDEF, 8, 0x01000000);
    expect("bound resource count too large", &f.container, SB_ERROR_BAD_COUNT,
           f.data[P_RDEF] + 8);

    fixture(&f, RDEF_40);
    patch(&f, P_RDEF, f.marks.var_desc[1], 0xFFFF);
    expect("variable name offset out of range", &f.container, SB_ERROR_BAD_OFFSET,
           f.data[P_RDEF] + f.marks.var_desc[1]);

    fixture(&f, RDEF_40);
    patch(&f, P_RDEF, f.marks.binding_desc[2], f.rdef.size + 1);
    expect("binding name offset out of range", &f.container, SB_ERROR_BAD_OFFSET,
           f.data[P_RDEF] + f.marks.binding_desc[2]);

    fixture(&f, RDEF_40);
    patch(&f, P_RDEF, f.marks.var_desc[2] + 20, f.rdef.size - 8);
    expect("default value runs past the part", &f.container, SB_ERROR_BAD_SIZE,
           f.data[P_RDEF] + f.marks.var_desc[2] + 20);

    fixture(&f, RDEF_40);
    patch(&f, P_RDEF, f.marks.var_desc[2] + 20, f.rdef.size + 4);
    expect("default value offset past the part", &f.container, SB_ERROR_BAD_OFFSET,
           f.data[P_RDEF] + f.marks.var_desc[2] + 20);
}

static void test_rdef_types(void)
{
    struct fixture f;
    fixture(&f, RDEF_40);
    patch(&f, P_RDEF, f.marks.member_desc[0] + 4, f.marks.type_light);
    expect("type-offset cycle (struct contains itself)", &f.container, SB_ERROR_BAD_OFFSET,
           f.data[P_RDEF] + f.marks.member_desc[0] + 4);

    fixture(&f, RDEF_50);
    patch(&f, P_RDEF, f.marks.var_desc[0] + 16, 0xFFFFFFF0u);
    expect("variable type offset past the part", &f.container, SB_ERROR_BAD_OFFSET,
           f.data[P_RDEF] + f.marks.var_desc[0] + 16);

    fixture(&f, RDEF_50);
    patch(&f, P_RDEF, f.marks.var_desc[1] + 16, f.rdef.size - 20);
    expect("type descriptor straddles the part end", &f.container, SB_ERROR_BAD_OFFSET,
           f.data[P_RDEF] + f.marks.var_desc[1] + 16);

    fixture(&f, RDEF_40);
    blob_patch_u16(&f.container, f.data[P_RDEF] + f.marks.type_light + 10, 0xFFFF);
    resign_container(&f.container);
    expect("member count too large", &f.container, SB_ERROR_BAD_COUNT,
           f.data[P_RDEF] + f.marks.type_light + 10);

    fixture(&f, RDEF_50);
    patch(&f, P_RDEF, f.marks.type_world + 32, f.rdef.size);
    expect("SM5 type name offset out of range", &f.container, SB_ERROR_BAD_OFFSET,
           f.data[P_RDEF] + f.marks.type_world + 32);
}

/* A chain of struct types 70 deep: fails at the member that reaches level 65. */
static void test_rdef_depth(void)
{
    enum { DEPTH = 70 };
    struct fixture f;
    make_parts(&f, RDEF_40);
    struct blob *b = &f.rdef;
    memset(b, 0, sizeof(*b));
    blob_u32(b, 1);
    blob_u32(b, 28);
    blob_u32(b, 0);
    blob_u32(b, 0);
    blob_u32(b, 0xFFFE0400u);
    blob_u32(b, 0);
    blob_u32(b, 0);
    uint32_t cb = blob_u32(b, 0); /* name patched */
    blob_u32(b, 1);
    blob_u32(b, 28 + 24);
    blob_u32(b, 16);
    blob_u32(b, 0);
    blob_u32(b, 0);
    uint32_t var = blob_u32(b, 0);
    blob_u32(b, 0);
    blob_u32(b, 16);
    blob_u32(b, 0);
    uint32_t var_type = blob_u32(b, 0);
    blob_u32(b, 0);
    /* Each level: a 16-byte struct type and its one 12-byte member. */
    uint32_t member_field[DEPTH];
    uint32_t first = b->size;
    for (uint32_t i = 0; i < DEPTH; i++) {
        uint32_t type = b->size;
        blob_u16(b, 5);
        blob_u16(b, 0);
        blob_u16(b, 1);
        blob_u16(b, 1);
        blob_u16(b, 0);
        blob_u16(b, 1);
        blob_u32(b, type + 16);
        blob_u32(b, 0); /* name patched */
        member_field[i] = blob_u32(b, type + 28); /* the next level */
        blob_u32(b, 0);
    }
    uint32_t name = blob_str(b, "x", true);
    blob_align4(b);
    blob_patch_u32(b, cb, name);
    blob_patch_u32(b, var, name);
    blob_patch_u32(b, var_type, first);
    for (uint32_t i = 0; i < DEPTH; i++)
        blob_patch_u32(b, member_field[i] - 4, name);
    assemble(&f);
    expect("type nesting 70 levels deep", &f.container, SB_ERROR_BAD_COUNT,
           f.data[P_RDEF] + member_field[SB_DXBC_RDEF_MAX_TYPE_DEPTH - 1]);
}

/* 100 cbuffers all naming one 100-variable array: the record budget stops it. */
static void test_rdef_shared_arrays(void)
{
    enum { CBS = 100, VARS = 100 };
    struct fixture f;
    make_parts(&f, RDEF_40);
    struct blob *b = &f.rdef;
    memset(b, 0, sizeof(*b));
    blob_u32(b, CBS);
    blob_u32(b, 28);
    blob_u32(b, 0);
    blob_u32(b, 0);
    blob_u32(b, 0xFFFF0400u);
    blob_u32(b, 0);
    blob_u32(b, 0);
    uint32_t vars = 28 + CBS * 24;
    uint32_t type = vars + VARS * 24;
    uint32_t name = type + 16;
    for (uint32_t i = 0; i < CBS; i++) {
        blob_u32(b, name);
        blob_u32(b, VARS);
        blob_u32(b, vars);
        blob_u32(b, 16);
        blob_u32(b, 0);
        blob_u32(b, 0);
    }
    for (uint32_t i = 0; i < VARS; i++) {
        blob_u32(b, name);
        blob_u32(b, 0);
        blob_u32(b, 4);
        blob_u32(b, 0);
        blob_u32(b, type);
        blob_u32(b, 0);
    }
    blob_u16(b, 0);
    blob_u16(b, 3);
    blob_u16(b, 1);
    blob_u16(b, 1);
    blob_u16(b, 0);
    blob_u16(b, 0);
    blob_u32(b, 0);
    blob_str(b, "v", true);
    blob_align4(b);
    assemble(&f);
    uint32_t budget = b->size / 4;
    uint32_t failing = budget / VARS;
    expect("cbuffers sharing one variable array", &f.container, SB_ERROR_BAD_COUNT,
           f.data[P_RDEF] + 28 + failing * 24 + 4);
}

static void test_signatures_and_header(void)
{
    struct fixture f;
    fixture(&f, RDEF_40);
    patch(&f, P_ISGN, 0, 1000);
    expect("signature element count too large", &f.container, SB_ERROR_BAD_COUNT,
           f.data[P_ISGN] + 0);

    fixture(&f, RDEF_40);
    patch(&f, P_OSGN, 4, 4);
    expect("signature element offset inside its header", &f.container, SB_ERROR_BAD_OFFSET,
           f.data[P_OSGN] + 4);

    fixture(&f, RDEF_40);
    patch(&f, P_ISGN, 8 + 24, 8);
    expect("signature name inside the element table", &f.container, SB_ERROR_BAD_OFFSET,
           f.data[P_ISGN] + 8 + 24);

    fixture(&f, RDEF_40);
    patch(&f, P_OSGN, 8, f.osgn.size);
    expect("signature name offset at the part end", &f.container, SB_ERROR_BAD_OFFSET,
           f.data[P_OSGN] + 8);

    make_parts(&f, RDEF_40);
    f.isgn.size = 4;
    assemble(&f);
    expect("signature header truncated", &f.container, SB_ERROR_TRUNCATED, f.data[P_ISGN] + 4);

    fixture(&f, RDEF_40);
    patch(&f, P_SHDR, 4, 4);
    expect("SHDR length larger than its part", &f.container, SB_ERROR_BAD_SIZE,
           f.data[P_SHDR] + 4);

    fixture(&f, RDEF_40);
    patch(&f, P_SHDR, 4, 1);
    expect("SHDR length below the two header tokens", &f.container, SB_ERROR_BAD_SIZE,
           f.data[P_SHDR] + 4);

    fixture(&f, RDEF_40);
    patch(&f, P_SHDR, 0, 0x00070040);
    expect("SHDR program type 7", &f.container, SB_ERROR_BAD_VALUE, f.data[P_SHDR]);

    fixture(&f, RDEF_40);
    patch(&f, P_SHDR, 0, 0x00010030);
    expect("SHDR shader model 3.0", &f.container, SB_ERROR_BAD_VERSION, f.data[P_SHDR]);

    make_parts(&f, RDEF_40);
    f.shdr.size = 6;
    assemble(&f);
    expect("SHDR of 6 bytes", &f.container, SB_ERROR_TRUNCATED, f.data[P_SHDR] + 4);
}

/* SFI0, STAT and IFCE: errors and the tolerated odd sizes. */
static void test_small_parts(void)
{
    static struct blob sfi0, stat, ifce, c;
    uint32_t data[1];
    memset(&sfi0, 0, sizeof(sfi0));
    blob_u32(&sfi0, 1);
    const struct part_spec one_sfi0 = { SB_FOURCC('S', 'F', 'I', '0'), &sfi0 };
    build_container(&one_sfi0, 1, &c, data);
    expect("SFI0 of 4 bytes", &c, SB_ERROR_TRUNCATED, data[0]);

    blob_u32(&sfi0, 0x100);
    blob_u32(&sfi0, 0xdead);
    build_container(&one_sfi0, 1, &c, data);
    struct sb_dxbc *dxbc = NULL;
    CHECK_EQ(sb_dxbc_parse(c.bytes, c.size, &dxbc, NULL), SB_SUCCESS);
    if (dxbc) {
        CHECK_EQ(dxbc->parts[0].decoded.sfi0->flags, 0x0000010000000001ull);
        CHECK_EQ(dxbc->warning_count, 1);
        CHECK_EQ(dxbc->warnings[0].offset, data[0] + 8);
    }
    sb_dxbc_destroy(dxbc);

    memset(&stat, 0, sizeof(stat));
    for (uint32_t i = 0; i < 10; i++)
        blob_u32(&stat, 7 * i + 1);
    blob_u8(&stat, 0xee);
    const struct part_spec one_stat = { SB_FOURCC('S', 'T', 'A', 'T'), &stat };
    build_container(&one_stat, 1, &c, data);
    dxbc = NULL;
    CHECK_EQ(sb_dxbc_parse(c.bytes, c.size, &dxbc, NULL), SB_SUCCESS);
    if (dxbc) {
        const struct sb_dxbc_stat *s = dxbc->parts[0].decoded.stat;
        CHECK_EQ(s->version, SB_DXBC_STAT_UNKNOWN);
        CHECK_EQ(s->dword_count, 10);
        CHECK_EQ(s->instruction_count, 1);
        CHECK_EQ(s->macro_instruction_count, 64);
        CHECK_EQ(s->temp_array_count, 0);
        CHECK_EQ(s->dwords[9], 64);
        CHECK_EQ(dxbc->warning_count, 2); /* unknown size, trailing byte */
    }
    sb_dxbc_destroy(dxbc);

    memset(&ifce, 0, sizeof(ifce));
    blob_u32(&ifce, 0);
    blob_u32(&ifce, 0);
    blob_u32(&ifce, 1);          /* one slot record */
    blob_u32(&ifce, 1);
    blob_u32(&ifce, 28);
    blob_u32(&ifce, 28);
    blob_u32(&ifce, 28);
    blob_u32(&ifce, 1);          /* span */
    blob_u32(&ifce, 2);          /* count */
    blob_u32(&ifce, 44);         /* type IDs */
    blob_u32(&ifce, 48);         /* table IDs */
    blob_u16(&ifce, 0);
    blob_u16(&ifce, 0);
    blob_u32(&ifce, 0);
    blob_u32(&ifce, 0);
    const struct part_spec one_ifce = { SB_FOURCC('I', 'F', 'C', 'E'), &ifce };
    build_container(&one_ifce, 1, &c, data);
    dxbc = NULL;
    CHECK_EQ(sb_dxbc_parse(c.bytes, c.size, &dxbc, NULL), SB_SUCCESS);
    sb_dxbc_destroy(dxbc);
    blob_patch_u32(&c, data[0] + 28 + 4, 3);
    resign_container(&c);
    expect("IFCE slot table IDs past the part", &c, SB_ERROR_BAD_COUNT, data[0] + 28 + 4);
    blob_patch_u32(&c, data[0] + 28 + 4, 2);
    blob_patch_u32(&c, data[0] + 28 + 8, 0x1000);
    resign_container(&c);
    expect("IFCE slot type-ID offset past the part", &c, SB_ERROR_BAD_OFFSET,
           data[0] + 28 + 8);
    blob_patch_u32(&c, data[0] + 28 + 8, 44);
    blob_patch_u32(&c, data[0] + 8, 5);
    resign_container(&c);
    expect("IFCE slot record count too large", &c, SB_ERROR_BAD_COUNT, data[0] + 8);
    blob_patch_u32(&c, data[0] + 8, 1);
    blob_patch_u32(&c, data[0] + 4, 5);
    resign_container(&c);
    expect("IFCE class type count too large", &c, SB_ERROR_BAD_COUNT, data[0] + 4);
}

int main(void)
{
    test_rdef_header();
    test_rdef_records();
    test_rdef_types();
    test_rdef_depth();
    test_rdef_shared_arrays();
    test_signatures_and_header();
    test_small_parts();
    return check_report("test_dxbc_fxc_malformed");
}
