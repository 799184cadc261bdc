/* SPDX-License-Identifier: MIT */
/*
 * sb_dxil_program_info_read on modules assembled in memory, metadata node by
 * node, so each case holds exactly the malformation it names: a missing or
 * misshapen dx.* record must give the exact code, offset and message; a
 * well-formed module with a cbuffer annotation must give the layout. The
 * metadata ids in the messages are this builder's (one per md_* call, from 0;
 * the order of calls in one argument list is unspecified, so ids are kept in
 * variables where a message names them).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "translator/dxil_program_info.h"

#define ERROR_OFFSET 0x1234u
enum { T_I32, T_I8, T_FLOAT, T_STRUCT, T_PTR, T_VOID_FN, T_FN_PTR, TYPE_COUNT };

/* A module whose tables live in this struct: values are constants, metadata is built in order. */
struct fake {
    struct sb_bc_module m;
    struct sb_bc_type types[TYPE_COUNT];
    uint32_t struct_members[2];
    struct sb_bc_value values[160];
    struct sb_bc_constant constants[160];
    struct sb_bc_function function;
    struct sb_bc_metadata md[192];
    uint32_t operands[512];
    uint32_t operand_count;
    struct sb_bc_named_metadata named[8];
};

static void fake_init(struct fake *f)
{
    memset(f, 0, sizeof(*f));
    f->types[T_I32] = (struct sb_bc_type){ .kind = SB_BC_TYPE_INTEGER, .width = 32 };
    f->types[T_I8] = (struct sb_bc_type){ .kind = SB_BC_TYPE_INTEGER, .width = 8 };
    f->types[T_FLOAT] = (struct sb_bc_type){ .kind = SB_BC_TYPE_FLOAT };
    f->struct_members[0] = T_FLOAT;
    f->struct_members[1] = T_I32;
    f->types[T_STRUCT] = (struct sb_bc_type){ .kind = SB_BC_TYPE_STRUCT, .member_count = 2,
                                              .members = f->struct_members, .name = "$Globals" };
    f->types[T_PTR] = (struct sb_bc_type){ .kind = SB_BC_TYPE_POINTER, .element = T_STRUCT };
    f->types[T_VOID_FN] = (struct sb_bc_type){ .kind = SB_BC_TYPE_FUNCTION, .element = T_I32 };
    f->types[T_FN_PTR] = (struct sb_bc_type){ .kind = SB_BC_TYPE_POINTER, .element = T_VOID_FN };
    f->m.types = f->types;
    f->m.type_count = TYPE_COUNT;
    f->function = (struct sb_bc_function){ .type = T_VOID_FN, .value = 0, .name = "main" };
    f->m.functions = &f->function;
    f->m.function_count = 1;
    f->values[0] = (struct sb_bc_value){ .kind = SB_BC_VALUE_FUNCTION, .type = T_FN_PTR, .index = 0 };
    f->m.values = f->values;
    f->m.value_count = 1;
    f->m.constants = f->constants;
    f->m.metadata = f->md;
    f->m.named_metadata = f->named;
}

static uint32_t add_md(struct fake *f, struct sb_bc_metadata md)
{
    f->md[f->m.metadata_count] = md;
    return f->m.metadata_count++;
}

/* Value metadata of a new constant. */
static uint32_t md_const(struct fake *f, uint32_t type, enum sb_bc_constant_kind kind, uint64_t bits)
{
    f->constants[f->m.constant_count] = (struct sb_bc_constant){ .kind = kind, .type = type,
                                                                 .bits = bits, .aux_type = SB_BC_NONE };
    f->values[f->m.value_count] = (struct sb_bc_value){ .kind = SB_BC_VALUE_CONSTANT, .type = type,
                                                        .index = f->m.constant_count++ };
    return add_md(f, (struct sb_bc_metadata){ .kind = SB_BC_MD_VALUE, .type = type,
                                              .value = f->m.value_count++ });
}

static uint32_t md_i32(struct fake *f, int32_t v) { return md_const(f, T_I32, SB_BC_CONST_INTEGER, (uint32_t)v); }
static uint32_t md_i8(struct fake *f, int8_t v) { return md_const(f, T_I8, SB_BC_CONST_INTEGER, (uint8_t)v); }

static uint32_t md_str(struct fake *f, const char *s)
{
    return add_md(f, (struct sb_bc_metadata){ .kind = SB_BC_MD_STRING, .string = s,
                                              .length = (uint32_t)strlen(s) });
}

/* Value metadata of the function `main` (value 0), or of `type` with no constant. */
static uint32_t md_function(struct fake *f)
{
    return add_md(f, (struct sb_bc_metadata){ .kind = SB_BC_MD_VALUE, .type = T_FN_PTR, .value = 0 });
}

static uint32_t md_undef_of(struct fake *f, uint32_t type)
{
    return md_const(f, type, SB_BC_CONST_UNDEF, 0);
}

/* A node of `count` operands given as uint32_t varargs (SB_BC_NONE for null). */
static uint32_t md_node(struct fake *f, uint32_t count, ...)
{
    uint32_t *ops = &f->operands[f->operand_count];
    va_list args;
    va_start(args, count);
    for (uint32_t i = 0; i < count; i++)
        ops[i] = va_arg(args, uint32_t);
    va_end(args);
    f->operand_count += count;
    return add_md(f, (struct sb_bc_metadata){ .kind = SB_BC_MD_NODE, .operand_count = count,
                                              .operands = ops });
}

static void named(struct fake *f, const char *name, uint32_t node)
{
    uint32_t *ops = &f->operands[f->operand_count++];
    *ops = node;
    f->named[f->m.named_metadata_count++] =
        (struct sb_bc_named_metadata){ .name = name, .operand_count = 1,
                                       .name_length = (uint32_t)strlen(name), .operands = ops };
}

/* dx.version 1.0, dx.valver 1.8, dx.shaderModel `stage` 6.0. */
static void versions(struct fake *f, const char *stage)
{
    named(f, "dx.version", md_node(f, 2, md_i32(f, 1), md_i32(f, 0)));
    named(f, "dx.valver", md_node(f, 2, md_i32(f, 1), md_i32(f, 8)));
    named(f, "dx.shaderModel", md_node(f, 3, md_str(f, stage), md_i32(f, 6), md_i32(f, 0)));
}

/* An 11-field element: `name` at row 0, `cols` columns from `start_col`. */
static uint32_t element(struct fake *f, const char *name, int8_t cols, int8_t start_col)
{
    return md_node(f, 11, md_i32(f, 0), md_str(f, name), md_i8(f, 9), md_i8(f, 0),
                   md_node(f, 1, md_i32(f, 0)), md_i8(f, 2), md_i32(f, 1), md_i8(f, cols),
                   md_i32(f, 0), md_i8(f, start_col), SB_BC_NONE);
}

static void expect(struct fake *f, enum sb_result code, const char *message)
{
    struct sb_dxil_program_info *info = (struct sb_dxil_program_info *)1;
    struct sb_error error = { 0 };
    enum sb_result result = sb_dxil_program_info_read(&f->m, ERROR_OFFSET, &info, &error);
    CHECK(result == code, "%s, expected %s (%s)", sb_result_name(result), sb_result_name(code),
          error.message);
    CHECK(info == NULL, "info set on failure");
    CHECK(error.offset == ERROR_OFFSET, "offset %llu", (unsigned long long)error.offset);
    CHECK(!strcmp(error.message, message), "message \"%s\", expected \"%s\"", error.message, message);
    sb_dxil_program_info_destroy(info == (struct sb_dxil_program_info *)1 ? NULL : info);
}

static void test_errors(void)
{
    struct fake *f = malloc(sizeof(*f));
    fake_init(f);
    expect(f, SB_ERROR_BAD_VALUE, "the module has no dx.version metadata");

    fake_init(f);
    named(f, "dx.version", md_node(f, 1, md_i32(f, 1))); /* !0 = 1, !1 = the node */
    expect(f, SB_ERROR_BAD_COUNT, "dx.version (!1) has 1 operands, not 2");

    fake_init(f);
    versions(f, "xs");
    expect(f, SB_ERROR_BAD_VALUE, "dx.shaderModel stage \"xs\" is unknown");

    fake_init(f);
    versions(f, "cs"); /* !0-!9 */
    named(f, "dx.entryPoints", md_node(f, 4, md_function(f), md_str(f, "main"), SB_BC_NONE,
                                       SB_BC_NONE)); /* !10, !11, !12 */
    expect(f, SB_ERROR_BAD_COUNT, "dx.entryPoints record (!12) has 4 operands, not 5");

    fake_init(f);
    versions(f, "cs");
    uint32_t number = md_i32(f, 7);
    named(f, "dx.entryPoints", md_node(f, 5, md_function(f), number, SB_BC_NONE, SB_BC_NONE,
                                       SB_BC_NONE));
    char message[192];
    snprintf(message, sizeof(message), "entry name (!%u) is a value, not a string", number);
    expect(f, SB_ERROR_BAD_VALUE, message);

    fake_init(f);
    versions(f, "cs");
    uint32_t e1 = md_node(f, 5, md_function(f), md_str(f, "a"), SB_BC_NONE, SB_BC_NONE, SB_BC_NONE);
    uint32_t e2 = md_node(f, 5, md_function(f), md_str(f, "b"), SB_BC_NONE, SB_BC_NONE, SB_BC_NONE);
    uint32_t *two = &f->operands[f->operand_count];
    two[0] = e1;
    two[1] = e2;
    f->operand_count += 2;
    f->named[f->m.named_metadata_count++] =
        (struct sb_bc_named_metadata){ .name = "dx.entryPoints", .operand_count = 2,
                                       .name_length = 14, .operands = two };
    expect(f, SB_ERROR_BAD_COUNT, "dx.entryPoints has 2 records, a cs program has 1");

    /* Three columns from column 2 run past the register. */
    fake_init(f);
    versions(f, "vs");
    uint32_t bad = element(f, "TEXCOORD", 3, 2);
    uint32_t sigs = md_node(f, 3, md_node(f, 1, bad), SB_BC_NONE, SB_BC_NONE);
    named(f, "dx.entryPoints", md_node(f, 5, md_function(f), md_str(f, "main"), sigs, SB_BC_NONE,
                                       SB_BC_NONE));
    snprintf(message, sizeof(message),
             "signature element !%u: 3 columns from column 2 do not fit 4", bad);
    expect(f, SB_ERROR_BAD_VALUE, message);

    /* A signatures node listing itself: the cycle ends in a shape error, not a loop. */
    fake_init(f);
    versions(f, "vs");
    uint32_t self = md_node(f, 3, SB_BC_NONE, SB_BC_NONE, SB_BC_NONE);
    f->md[self].operands = &f->operands[f->operand_count];
    f->operands[f->operand_count++] = self;
    f->operands[f->operand_count++] = SB_BC_NONE;
    f->operands[f->operand_count++] = SB_BC_NONE;
    named(f, "dx.entryPoints", md_node(f, 5, md_function(f), md_str(f, "main"), self,
                                       SB_BC_NONE, SB_BC_NONE));
    snprintf(message, sizeof(message), "signature element (!%u) has 3 operands, not 11", self);
    expect(f, SB_ERROR_BAD_COUNT, message);

    /* A UAV record of 9 fields (an SRV's count). */
    fake_init(f);
    versions(f, "cs");
    uint32_t uav = md_node(f, 9, md_i32(f, 0), md_undef_of(f, T_PTR), md_str(f, ""), md_i32(f, 0),
                           md_i32(f, 0), md_i32(f, 1), md_i32(f, 11), md_i32(f, 0), SB_BC_NONE);
    uint32_t lists = md_node(f, 4, SB_BC_NONE, md_node(f, 1, uav), SB_BC_NONE, SB_BC_NONE);
    named(f, "dx.entryPoints", md_node(f, 5, md_function(f), md_str(f, "main"), SB_BC_NONE,
                                       lists, SB_BC_NONE));
    snprintf(message, sizeof(message), "UAV record (!%u) has 9 operands, not 11", uav);
    expect(f, SB_ERROR_BAD_COUNT, message);

    /* Properties must be tag/value pairs. */
    fake_init(f);
    versions(f, "cs");
    uint32_t props = md_node(f, 3, md_i32(f, 4), md_node(f, 3, md_i32(f, 8), md_i32(f, 1),
                                                         md_i32(f, 1)), md_i32(f, 0));
    named(f, "dx.entryPoints", md_node(f, 5, md_function(f), md_str(f, "main"), SB_BC_NONE,
                                       SB_BC_NONE, props));
    snprintf(message, sizeof(message),
             "entry properties (!%u) has 3 operands, not tag/value pairs", props);
    expect(f, SB_ERROR_BAD_COUNT, message);

    /* NumThreads of two fields. */
    fake_init(f);
    versions(f, "cs");
    uint32_t threads = md_node(f, 2, md_i32(f, 8), md_i32(f, 1));
    named(f, "dx.entryPoints", md_node(f, 5, md_function(f), md_str(f, "main"), SB_BC_NONE,
                                       SB_BC_NONE, md_node(f, 2, md_i32(f, 4), threads)));
    snprintf(message, sizeof(message), "NumThreads (!%u) has 2 operands, not 3", threads);
    expect(f, SB_ERROR_BAD_COUNT, message);

    /* A metadata id past the table. */
    fake_init(f);
    versions(f, "cs");
    named(f, "dx.entryPoints", 77);
    expect(f, SB_ERROR_BAD_VALUE, "dx.entryPoints record: metadata id 77 is out of range (10 ids)");
    free(f);
}

/* A well-formed ps with one CBV whose struct is annotated: the layout and its fields; a
 * byte outside printable ASCII in its name reads as '?'. */
static void test_cbuffer_layout(void)
{
    struct fake *f = malloc(sizeof(*f));
    fake_init(f);
    versions(f, "ps");
    uint32_t cbv = md_node(f, 8, md_i32(f, 0), md_undef_of(f, T_PTR), md_str(f, "Glob\xe9ls"),
                           md_i32(f, 2), md_i32(f, 5), md_i32(f, 1), md_i32(f, 16), SB_BC_NONE);
    uint32_t lists = md_node(f, 4, SB_BC_NONE, SB_BC_NONE, md_node(f, 1, cbv), SB_BC_NONE);
    named(f, "dx.resources", lists);
    uint32_t color = md_node(f, 6, md_i32(f, 6), md_str(f, "color"), md_i32(f, 3), md_i32(f, 0),
                             md_i32(f, 7), md_i32(f, 9));
    uint32_t count = md_node(f, 6, md_i32(f, 6), md_str(f, "count"), md_i32(f, 3), md_i32(f, 4),
                             md_i32(f, 7), md_i32(f, 5));
    named(f, "dx.typeAnnotations",
          md_node(f, 3, md_i32(f, 0), md_undef_of(f, T_STRUCT), md_node(f, 3, md_i32(f, 8), color, count)));
    named(f, "dx.entryPoints", md_node(f, 5, md_function(f), md_str(f, "main"), SB_BC_NONE, lists,
                                       SB_BC_NONE));
    struct sb_dxil_program_info *info = NULL;
    struct sb_error error = { 0 };
    enum sb_result result = sb_dxil_program_info_read(&f->m, ERROR_OFFSET, &info, &error);
    CHECK(result == SB_SUCCESS, "%s: %s", sb_result_name(result), error.message);
    if (info) {
        CHECK(info->shader_kind == 0 && info->entry_point_count == 1, "ps with one entry");
        const struct sb_dxil_entry_point *e = &info->entry_points[0];
        CHECK(e->function == 0 && !strcmp(e->name, "main"), "entry");
        CHECK(e->resources.count == 1 && info->resources.count == 1, "one CBV");
        const struct sb_dxil_resource *r = &e->resources.resources[0];
        CHECK(r->resource_class == SB_DXIL_RESOURCE_CLASS_CBUFFER && r->space == 2 &&
              r->lower_bound == 5 && r->cbuffer_size == 16 && !strcmp(r->name, "Glob?ls"),
              "CBV space %u register %u size %u name %s", r->space, r->lower_bound,
              r->cbuffer_size, r->name);
        CHECK(r->struct_type == T_STRUCT && r->layout == 0, "layout %u of type %u", r->layout,
              r->struct_type);
        CHECK(info->struct_count == 1, "%u structs", info->struct_count);
        const struct sb_dxil_struct_annotation *s = &info->structs[0];
        CHECK(s->type == T_STRUCT && s->size == 8 && !strcmp(s->type_name, "$Globals") &&
              s->field_count == 2, "struct %s size %u fields %u", s->type_name, s->size,
              s->field_count);
        if (s->field_count == 2) {
            CHECK(!strcmp(s->fields[0].name, "color") && s->fields[0].has_cbuffer_offset &&
                  s->fields[0].cbuffer_offset == 0 && s->fields[0].component_type == 9 &&
                  s->fields[0].type == T_FLOAT, "field 0");
            CHECK(!strcmp(s->fields[1].name, "count") && s->fields[1].cbuffer_offset == 4 &&
                  s->fields[1].component_type == 5 && s->fields[1].type == T_I32, "field 1");
        }
        sb_dxil_program_info_destroy(info);
    }
    free(f);
}

/* Twelve CBVs whose fields are all distinct metadata ids, more than the reader keeps
 * integers for (SB_DXIL_MD_KEPT_INTS), so ids that share a slot carry different numbers:
 * each field must still read as its own. */
static void test_kept_integers(void)
{
    struct fake *f = malloc(sizeof(*f));
    fake_init(f);
    versions(f, "ps");
    enum { CBVS = 12 };
    uint32_t cbv[CBVS];
    static const char *const names[CBVS] = { "a", "b", "c", "d", "e", "f",
                                             "g", "h", "i", "j", "k", "l" };
    for (int32_t i = 0; i < CBVS; i++)
        cbv[i] = md_node(f, 8, md_i32(f, i), md_undef_of(f, T_PTR), md_str(f, names[i]),
                         md_i32(f, i % 3), md_i32(f, 10 + i), md_i32(f, 1), md_i32(f, 16 * (i + 1)),
                         SB_BC_NONE);
    uint32_t list = md_node(f, CBVS, cbv[0], cbv[1], cbv[2], cbv[3], cbv[4], cbv[5], cbv[6],
                            cbv[7], cbv[8], cbv[9], cbv[10], cbv[11]);
    uint32_t lists = md_node(f, 4, SB_BC_NONE, SB_BC_NONE, list, SB_BC_NONE);
    named(f, "dx.resources", lists);
    named(f, "dx.entryPoints", md_node(f, 5, md_function(f), md_str(f, "main"), SB_BC_NONE, lists,
                                       SB_BC_NONE));
    CHECK(f->m.metadata_count > 64, "%u metadata ids", f->m.metadata_count);
    struct sb_dxil_program_info *info = NULL;
    struct sb_error error = { 0 };
    enum sb_result result = sb_dxil_program_info_read(&f->m, ERROR_OFFSET, &info, &error);
    CHECK(result == SB_SUCCESS, "%s: %s", sb_result_name(result), error.message);
    if (info) {
        CHECK(info->resources.count == CBVS, "%u resources", info->resources.count);
        for (uint32_t i = 0; i < info->resources.count && i < CBVS; i++) {
            const struct sb_dxil_resource *r = &info->resources.resources[i];
            CHECK(r->id == i && r->space == i % 3 && r->lower_bound == 10 + i &&
                      r->cbuffer_size == 16 * (i + 1) && !strcmp(r->name, names[i]),
                  "CBV %u: id %u space %u register %u size %u", i, r->id, r->space,
                  r->lower_bound, r->cbuffer_size);
        }
        sb_dxil_program_info_destroy(info);
    }
    free(f);
}

int main(void)
{
    test_errors();
    test_cbuffer_layout();
    test_kept_integers();
    printf("dxil_reflect_errors: %u checks, %u failed\n", checks, failures);
    return failures ? 1 : 0;
}
