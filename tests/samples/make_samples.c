/* SPDX-License-Identifier: MIT */
/*
 * Writes the bundled sample shaders of samples/ (the README's main job runs
 * on them): one file per format, assembled here from the documented
 * encodings so that nothing in samples/ comes from anyone else's build.
 *
 *   passthrough_vs_4_0.dxbc  vs_4_0: RDEF (cbuffer Transform { float4x4 }),
 *                            ISGN, OSGN, SHDR (transform + colour pass-through),
 *                            29-dword STAT; ../shared/docs/dxcontainer.md, sm4-tokens.md
 *   simple_tri.shbin         PICA200 vertex shader in the current picasso
 *                            layout: 4x4 transform + constant colour;
 *                            ../shared/docs/pica200.md §12
 *   textured_quad.vbc        VBC with glslang-compiled vertex and fragment
 *                            SPIR-V, one sampler slot and a uniform block;
 *                            ../shared/docs/vbc.md
 *
 * usage: make_samples OUT_DIR VERTEX.spv FRAGMENT.spv
 * The sample_files test runs it and compares the output with samples/.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaderbridge/dxbc.h"

struct buf {
    uint8_t *bytes;
    size_t size;
    size_t capacity;
};

static void put_bytes(struct buf *b, const void *data, size_t size)
{
    if (b->size + size > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 256;
        while (capacity < b->size + size)
            capacity *= 2;
        b->bytes = realloc(b->bytes, capacity);
        if (!b->bytes) {
            perror("make_samples");
            exit(1);
        }
        b->capacity = capacity;
    }
    if (data)
        memcpy(b->bytes + b->size, data, size);
    else
        memset(b->bytes + b->size, 0, size);
    b->size += size;
}

static void put_u8(struct buf *b, uint8_t v)
{
    put_bytes(b, &v, 1);
}

static void put_u16(struct buf *b, uint16_t v)
{
    uint8_t p[2] = { (uint8_t)v, (uint8_t)(v >> 8) };
    put_bytes(b, p, 2);
}

static void put_u32(struct buf *b, uint32_t v)
{
    uint8_t p[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
    put_bytes(b, p, 4);
}

static void put_str(struct buf *b, const char *s)
{
    put_bytes(b, s, strlen(s) + 1);
}

static void pad4(struct buf *b)
{
    while (b->size % 4)
        put_u8(b, 0);
}

static void set_u32(struct buf *b, size_t at, uint32_t v)
{
    b->bytes[at] = (uint8_t)v;
    b->bytes[at + 1] = (uint8_t)(v >> 8);
    b->bytes[at + 2] = (uint8_t)(v >> 16);
    b->bytes[at + 3] = (uint8_t)(v >> 24);
}

static void put_words(struct buf *b, const uint32_t *words, size_t count)
{
    for (size_t i = 0; i < count; i++)
        put_u32(b, words[i]);
}

/* ---- DXBC ------------------------------------------------------------ */

static struct buf dxbc_rdef(void)
{
    struct buf b = { 0 };
    put_u32(&b, 1);          /* constant buffers */
    put_u32(&b, 28);         /* at */
    put_u32(&b, 1);          /* bound resources */
    put_u32(&b, 52);         /* at */
    put_u32(&b, 0xFFFE0400); /* vs_4_0 */
    put_u32(&b, 0x100);      /* compile flags */
    size_t creator_at = b.size;
    put_u32(&b, 0);
    /* 28: constant buffer descriptor */
    size_t cb_name_at = b.size;
    put_u32(&b, 0);
    put_u32(&b, 1);  /* variables */
    put_u32(&b, 84); /* variable descriptors at */
    put_u32(&b, 64); /* size */
    put_u32(&b, 0);  /* flags */
    put_u32(&b, 0);  /* cbuffer */
    /* 52: bound resource */
    size_t res_name_at = b.size;
    put_u32(&b, 0);
    put_u32(&b, 0); /* D3D_SIT_CBUFFER */
    put_u32(&b, 0);
    put_u32(&b, 0);
    put_u32(&b, 0);
    put_u32(&b, 0); /* bind point */
    put_u32(&b, 1); /* bind count */
    put_u32(&b, 0);
    /* 84: variable */
    size_t var_name_at = b.size;
    put_u32(&b, 0);
    put_u32(&b, 0);   /* offset */
    put_u32(&b, 64);  /* size */
    put_u32(&b, 2);   /* used */
    put_u32(&b, 108); /* type at */
    put_u32(&b, 0);   /* no default */
    /* 108: type: matrix columns, float, 4x4 */
    put_u16(&b, 3);
    put_u16(&b, 3);
    put_u16(&b, 4);
    put_u16(&b, 4);
    put_u16(&b, 0);
    put_u16(&b, 0);
    put_u32(&b, 0);
    set_u32(&b, cb_name_at, (uint32_t)b.size);
    set_u32(&b, res_name_at, (uint32_t)b.size);
    put_str(&b, "Transform");
    set_u32(&b, var_name_at, (uint32_t)b.size);
    put_str(&b, "world_view_proj");
    set_u32(&b, creator_at, (uint32_t)b.size);
    put_str(&b, "shaderbridge sample generator");
    pad4(&b);
    return b;
}

struct sig_element {
    const char *name;
    uint32_t system_value, reg, mask, rw_mask;
};

static struct buf dxbc_signature(const struct sig_element *elements, uint32_t count)
{
    struct buf b = { 0 };
    put_u32(&b, count);
    put_u32(&b, 8);
    size_t names_at = 8 + 24 * (size_t)count;
    size_t name_offset = names_at;
    for (uint32_t i = 0; i < count; i++) {
        put_u32(&b, (uint32_t)name_offset);
        put_u32(&b, 0);
        put_u32(&b, elements[i].system_value);
        put_u32(&b, 3); /* float32 */
        put_u32(&b, elements[i].reg);
        put_u8(&b, (uint8_t)elements[i].mask);
        put_u8(&b, (uint8_t)elements[i].rw_mask);
        put_u16(&b, 0);
        name_offset += strlen(elements[i].name) + 1;
    }
    for (uint32_t i = 0; i < count; i++)
        put_str(&b, elements[i].name);
    pad4(&b);
    return b;
}

/* vs_4_0 tokens: o0 = mul(float4(v0.xyz, 1), cb0[0..3]) by dp4 rows; o1 = v1. */
static const uint32_t passthrough_shdr[] = {
    0x00010040, 0,                         /* vs_4_0, length patched */
    0x0100086a,                            /* dcl_globalFlags refactoringAllowed */
    0x04000059, 0x00208e46, 0, 4,          /* dcl_constantbuffer cb0[4], immediateIndexed */
    0x0300005f, 0x00101072, 0,             /* dcl_input v0.xyz */
    0x0300005f, 0x001010f2, 1,             /* dcl_input v1.xyzw */
    0x04000067, 0x001020f2, 0, 1,          /* dcl_output_siv o0.xyzw, position */
    0x03000065, 0x001020f2, 1,             /* dcl_output o1.xyzw */
    0x02000068, 1,                         /* dcl_temps 1 */
    0x05000036, 0x00100072, 0, 0x00101246, 0,       /* mov r0.xyz, v0.xyzx */
    0x05000036, 0x00100082, 0, 0x00004001, 0x3f800000, /* mov r0.w, l(1.0) */
    0x08000011, 0x00102012, 0, 0x00100e46, 0, 0x00208e46, 0, 0, /* dp4 o0.x, r0, cb0[0] */
    0x08000011, 0x00102022, 0, 0x00100e46, 0, 0x00208e46, 0, 1, /* dp4 o0.y, r0, cb0[1] */
    0x08000011, 0x00102042, 0, 0x00100e46, 0, 0x00208e46, 0, 2, /* dp4 o0.z, r0, cb0[2] */
    0x08000011, 0x00102082, 0, 0x00100e46, 0, 0x00208e46, 0, 3, /* dp4 o0.w, r0, cb0[3] */
    0x05000036, 0x001020f2, 1, 0x00101e46, 1,       /* mov o1.xyzw, v1.xyzw */
    0x0100003e,                            /* ret */
};

static struct buf dxbc_stat(void)
{
    /* 29 dwords (SM4.x): instructions, temps, defs, dcls, float, int, uint, ... */
    uint32_t stat[29] = { 0 };
    stat[0] = 8;  /* instructions */
    stat[1] = 1;  /* temp registers */
    stat[3] = 6;  /* declarations */
    stat[4] = 4;  /* float instructions (dp4) */
    stat[19] = 3; /* mov instructions */
    struct buf b = { 0 };
    put_words(&b, stat, 29);
    return b;
}

static struct buf make_dxbc(void)
{
    static const struct sig_element inputs[] = {
        { "POSITION", 0, 0, 0x7, 0x7 },
        { "COLOR", 0, 1, 0xF, 0xF },
    };
    static const struct sig_element outputs[] = {
        { "SV_Position", 1, 0, 0xF, 0x0 },
        { "COLOR", 0, 1, 0xF, 0x0 },
    };
    uint32_t shdr[sizeof(passthrough_shdr) / 4];
    memcpy(shdr, passthrough_shdr, sizeof(shdr));
    shdr[1] = (uint32_t)(sizeof(shdr) / 4);

    struct buf parts[5] = { dxbc_rdef(), dxbc_signature(inputs, 2),
                            dxbc_signature(outputs, 2), { 0 }, dxbc_stat() };
    put_words(&parts[3], shdr, sizeof(shdr) / 4);
    static const char *names[5] = { "RDEF", "ISGN", "OSGN", "SHDR", "STAT" };

    struct buf b = { 0 };
    put_bytes(&b, "DXBC", 4);
    put_bytes(&b, NULL, 16);
    put_u16(&b, 1);
    put_u16(&b, 0);
    size_t size_at = b.size;
    put_u32(&b, 0);
    put_u32(&b, 5);
    size_t offset = 32 + 5 * 4;
    for (int i = 0; i < 5; i++) {
        put_u32(&b, (uint32_t)offset);
        offset += 8 + parts[i].size;
    }
    for (int i = 0; i < 5; i++) {
        put_bytes(&b, names[i], 4);
        put_u32(&b, (uint32_t)parts[i].size);
        put_bytes(&b, parts[i].bytes, parts[i].size);
        free(parts[i].bytes);
    }
    set_u32(&b, size_at, (uint32_t)b.size);
    sb_dxbc_compute_checksum(b.bytes, b.size, b.bytes + 4);
    return b;
}

/* ---- SHBIN ----------------------------------------------------------- */

static struct buf make_shbin(void)
{
    /* MOV r0.xyz, v0; MOV r0.w, c4.y; DP4 o0.x..w, c0..c3, r0; MOV r0.xyz, c4.x;
     * MOV r0.w, c4.y; EX2 r0.y, r0.x; MOV o1, r0; END (../shared/docs/pica200.md §12.10). */
    static const uint32_t code[] = { 0x4E000000, 0x4E024001, 0x08020802, 0x08021803,
                                     0x08022804, 0x08023805, 0x4E024006, 0x4E024001,
                                     0x16010003, 0x4C210007, 0x88000000 };
    static const uint32_t descriptors[] = { 0x0000034E, 0x00000AA1, 0x0006C368, 0x0006C364,
                                            0x0006C362, 0x0006C361, 0x0000000E, 0x0000036F };
    const uint32_t code_words = sizeof(code) / 4, desc_count = sizeof(descriptors) / 4;
    const uint32_t dvlp_at = 12, dvlp_header = 0x28;
    const uint32_t code_at = dvlp_header, desc_at = code_at + 4 * code_words;
    const uint32_t dvlp_size = desc_at + 8 * desc_count;
    const uint32_t dvle_at = dvlp_at + dvlp_size;

    struct buf b = { 0 };
    put_bytes(&b, "DVLB", 4);
    put_u32(&b, 1);
    put_u32(&b, dvle_at);
    /* DVLP */
    put_bytes(&b, "DVLP", 4);
    put_u32(&b, 0);
    put_u32(&b, code_at);
    put_u32(&b, code_words);
    put_u32(&b, desc_at);
    put_u32(&b, desc_count);
    put_u32(&b, dvlp_size); /* filename table: empty, at the end */
    put_u32(&b, 0);
    put_u32(&b, 0);
    put_u32(&b, 0);
    put_words(&b, code, code_words);
    for (uint32_t i = 0; i < desc_count; i++) {
        put_u32(&b, descriptors[i]);
        put_u32(&b, 0);
    }
    /* DVLE */
    const uint32_t const_at = 0x40, label_at = const_at + 20, out_at = label_at;
    const uint32_t uniform_at = out_at + 2 * 8, symbol_at = uniform_at + 8;
    put_bytes(&b, "DVLE", 4);
    put_u16(&b, 0x1002);
    put_u8(&b, 0); /* vertex */
    put_u8(&b, 0);
    put_u32(&b, 0);          /* main */
    put_u32(&b, code_words); /* end */
    put_u16(&b, 0x0001);     /* inputs used: v0 */
    put_u16(&b, 0x0003);     /* outputs used: o0, o1 */
    put_u32(&b, 0);          /* GS fields */
    put_u32(&b, const_at);
    put_u32(&b, 1);
    put_u32(&b, label_at);
    put_u32(&b, 0);
    put_u32(&b, out_at);
    put_u32(&b, 2);
    put_u32(&b, uniform_at);
    put_u32(&b, 1);
    put_u32(&b, symbol_at);
    put_u32(&b, 12);
    /* constant c4 = (0, 1, -2, -100) as float24 */
    put_u16(&b, 2);
    put_u16(&b, 4);
    put_u32(&b, 0x000000);
    put_u32(&b, 0x3F0000);
    put_u32(&b, 0xC00000);
    put_u32(&b, 0xC59000);
    /* outputs: position -> o0, color -> o1 */
    put_u16(&b, 0);
    put_u16(&b, 0);
    put_u32(&b, 0xF);
    put_u16(&b, 2);
    put_u16(&b, 1);
    put_u32(&b, 0xF);
    /* uniform "projection" = c0..c3 (registers 0x10..0x13) */
    put_u32(&b, 0);
    put_u16(&b, 0x10);
    put_u16(&b, 0x13);
    put_str(&b, "projection");
    pad4(&b);
    return b;
}

/* ---- VBC ------------------------------------------------------------- */

static struct buf read_file(const char *path)
{
    struct buf b = { 0 };
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    uint8_t chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0)
        put_bytes(&b, chunk, got);
    fclose(f);
    if (b.size == 0 || b.size % 4) {
        fprintf(stderr, "%s: not a SPIR-V module\n", path);
        exit(1);
    }
    return b;
}

static void put_interface(struct buf *b, uint8_t location, uint8_t base, uint8_t dim0,
                          uint8_t dim1, uint8_t array)
{
    put_u8(b, location);
    put_u8(b, base);
    put_u8(b, dim0);
    put_u8(b, dim1);
    put_u8(b, array);
    put_bytes(b, NULL, 3);
}

static struct buf make_vbc(const char *vertex_path, const char *fragment_path)
{
    struct buf vs = read_file(vertex_path), fs = read_file(fragment_path);
    struct buf b = { 0 };
    put_bytes(&b, "VBC", 3);
    put_u8(&b, 1); /* version */
    put_u8(&b, 1); /* graphics */
    const uint16_t words[5] = { (uint16_t)(vs.size / 4), 0, 0, 0, (uint16_t)(fs.size / 4) };
    for (int i = 0; i < 5; i++)
        put_u16(&b, words[i]);
    const uint16_t tables[5] = { 8192, 128, 512, 128, 128 };
    for (int i = 0; i < 5; i++)
        put_u16(&b, tables[i]);
    /* vertex inputs: float3 position @0, float2 uv @1 */
    put_u32(&b, 2);
    put_interface(&b, 0, 4, 3, 1, 1);
    put_interface(&b, 1, 4, 2, 1, 1);
    /* fragment outputs: float4 color @0 */
    put_u32(&b, 1);
    put_interface(&b, 0, 4, 4, 1, 1);
    /* bindings: slot 0, Sampler, fragment, rank 2D, float x4 of 4 bytes */
    put_u32(&b, 1);
    put_u8(&b, 0);
    put_u8(&b, 5);
    put_u16(&b, 0x10);
    put_u8(&b, 1);
    put_u8(&b, 2);
    put_u8(&b, 4);
    put_u8(&b, 4);
    /* uniform: 64 bytes, vertex, one member mvp (float4x4 at 0) */
    put_u16(&b, 64);
    put_u16(&b, 0x01);
    put_u32(&b, 1);
    put_u8(&b, 3);
    put_bytes(&b, "mvp", 3);
    put_u16(&b, 0);
    put_u8(&b, 4);
    put_u8(&b, 4);
    put_u8(&b, 4);
    put_u8(&b, 1);
    /* subpass inputs: none */
    put_u32(&b, 0);
    put_bytes(&b, vs.bytes, vs.size);
    put_bytes(&b, fs.bytes, fs.size);
    free(vs.bytes);
    free(fs.bytes);
    return b;
}

static void write_file(const char *dir, const char *name, struct buf *b)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b->bytes, 1, b->size, f) != b->size || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
    free(b->bytes);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: make_samples OUT_DIR VERTEX.spv FRAGMENT.spv\n");
        return 2;
    }
    struct buf dxbc = make_dxbc(), shbin = make_shbin(), vbc = make_vbc(argv[2], argv[3]);
    write_file(argv[1], "passthrough_vs_4_0.dxbc", &dxbc);
    write_file(argv[1], "simple_tri.shbin", &shbin);
    write_file(argv[1], "textured_quad.vbc", &vbc);
    return 0;
}
