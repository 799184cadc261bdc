/* SPDX-License-Identifier: MIT */
/*
 * The programs of dxil_programs_numeric.h, laid out as dxc writes them
 * (handles first, cbuffer row then extractvalue, dx.op calls with the opcode
 * constant first); opcodes and operand lists from ../shared/docs/dxil.md §3.6.
 */
#include "dxil_programs_numeric.h"

#include "dxil_program_writer.h"
#include "dxil_programs.h"
#include "shaderbridge/dxbc_dxil.h"

enum { OP_CBUFFER_LOAD_LEGACY = 59, OP_COUNTBITS = 31, OP_FIRSTBIT_LO = 32, OP_FIRSTBIT_HI = 33,
       OP_FMA = 47, OP_IBFE = 51, OP_BFI = 53, OP_FLATTENED_THREAD_ID = 96,
       OP_SPLIT_DOUBLE = 102, OP_WAVE_ACTIVE_OP = 119, OP_WAVE_PREFIX_OP = 121, OP_QUAD_OP = 123,
       OP_DOT2_ADD_HALF = 162, OP_DOT4_ADD_I8 = 163, OP_DOT4_ADD_U8 = 164, OP_UNPACK4X8 = 219,
       OP_PACK4X8 = 220, OP_RAW_BUFFER_LOAD = 139, OP_RAW_BUFFER_STORE = 140, OP_WAVE_MATCH = 165,
       OP_WAVE_MULTI_PREFIX_OP = 166, OP_WAVE_MULTI_PREFIX_BIT_COUNT = 167, OP_ACOS = 15,
       OP_ASIN = 16, OP_ATAN = 17, OP_BFREV = 30, OP_FIRSTBIT_SHI = 34, OP_IMAD = 48, OP_UMAD = 49,
       OP_IMAX = 37, OP_IMIN = 38, OP_UMAX = 39, OP_UMIN = 40,
       OP_LOAD_INPUT = 4, OP_STORE_OUTPUT = 5 };
/* Shader flags (docs §4.3): raw buffers (4), low precision present (5), native (23). */
#define FLAGS_NATIVE_16BIT (DXIL_FLAG_RAW_BUFFERS | 0x20ull | 0x800000ull)

static const struct dxil_resource U0_CB0[2] = {
    { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_RAW_BUFFER,
      .type_name = "struct.RWByteAddressBuffer" },
    { .resource_class = DXIL_CLASS_CBV, .kind = DXIL_KIND_CBUFFER, .cbuffer_size = 16,
      .type_name = "cb0" },
};

/* u0 a structured buffer of 8-byte elements ({ half a; half3 b; }), and cb0. */
static const struct dxil_resource STRUCTURED8_U0_CB0[2] = {
    { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_STRUCTURED_BUFFER,
      .type_name = "class.RWStructuredBuffer<S>", .struct_stride = 8 },
    { .resource_class = DXIL_CLASS_CBV, .kind = DXIL_KIND_CBUFFER, .cbuffer_size = 16,
      .type_name = "cb0" },
};

static bool finish_with(struct dxil_module *m, uint32_t entry, uint8_t sm_minor,
                        uint32_t threads, uint64_t flags, const struct dxil_resource *resources,
                        struct tbuf *out)
{
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_COMPUTE, .sm_minor = sm_minor, .entry = entry,
        .entry_name = "main", .num_threads = { threads, 1, 1 }, .shader_flags = flags,
        .resources = resources, .resource_count = 2,
    };
    bool ok = dxil_program_write(m, &d, out);
    dm_destroy(m);
    return ok;
}

static bool finish(struct dxil_module *m, uint32_t entry, uint8_t sm_minor, uint32_t threads,
                   uint64_t flags, struct tbuf *out)
{
    return finish_with(m, entry, sm_minor, threads, flags, U0_CB0, out);
}

/* A module with the entry `main` open at its first block and the u0 handle made in it. */
static struct dxil_module *begin(uint32_t *entry, uint32_t *u0)
{
    struct dxil_module *m = dm_create();
    *entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    *u0 = dxil_programs_create_handle(m, DXIL_CLASS_UAV, 0, 0);
    return m;
}

/* cb0[0] as four values of `element` (i32 or float): createHandle, cbufferLoadLegacy. */
static void load_cb0(struct dxil_module *m, uint32_t element, const char *name, uint32_t v[4])
{
    uint32_t members[4] = { element, element, element, element };
    uint32_t row_type = dm_type_struct(m, element == dm_type_float(m) ? "dx.types.CBufRet.f32"
                                                                      : "dx.types.CBufRet.i32",
                                       members, 4);
    uint32_t cb0 = dxil_programs_create_handle(m, DXIL_CLASS_CBV, 0, 0);
    uint32_t args[2] = { cb0, dm_i32(m, 0) };
    uint32_t row = dm_dxop(m, name, row_type, DM_ATTR_READONLY, OP_CBUFFER_LOAD_LEGACY, args, 2);
    for (unsigned c = 0; c < 4; c++)
        v[c] = dm_extractvalue(m, row, c);
}

/* The end of a one-thread program: words[0..n-1] stored at u0 bytes 0, 4, ...; ret. */
static bool store_and_finish(struct dxil_module *m, uint32_t entry, uint32_t u0,
                             const uint32_t *words, unsigned n, uint8_t sm_minor, uint64_t flags,
                             struct tbuf *out)
{
    for (unsigned i = 0; i < n; i++)
        dxil_programs_store_u32(m, u0, dm_i32(m, (int32_t)i * 4), words[i]);
    dm_ret_void(m);
    return finish(m, entry, sm_minor, 1, flags, out);
}

/*
 * cbuffer cb0 { int a, b, c, d; };  RWByteAddressBuffer u0;
 * [numthreads(1,1,1)] void main() {
 *     int16_t a16 = (int16_t)a, b16 = (int16_t)b;
 *     u0.Store(0, a / b); u0.Store(4, a % b); u0.Store(8, countbits(a));
 *     u0.Store(12, FirstbitHi(a)); u0.Store(16, firstbitlow(a)); u0.Store(20, Bfi(c, d, a, b));
 *     u0.Store(24, Ibfe(c, d, a)); u0.Store(28, (uint16_t)(a16 * a16));
 *     u0.Store(32, (int)(int16_t)(a16 + a16)); u0.Store(36, a16 < b16); }
 */
bool dxil_program_numeric_int(struct tbuf *out)
{
    uint32_t entry = 0, u0 = 0;
    struct dxil_module *m = begin(&entry, &u0);
    uint32_t i32 = dm_type_int(m, 32), i16 = dm_type_int(m, 16);
    uint32_t v[4];
    load_cb0(m, i32, "dx.op.cbufferLoadLegacy.i32", v);
    uint32_t bfi_args[4] = { v[2], v[3], v[0], v[1] }, ibfe_args[3] = { v[2], v[3], v[0] };
    uint32_t a16 = dm_cast(m, DM_TRUNC, v[0], i16), b16 = dm_cast(m, DM_TRUNC, v[1], i16);
    uint32_t words[10] = {
        dm_binop(m, DM_SDIV, v[0], v[1], DM_FLAGS_NONE),
        dm_binop(m, DM_SREM, v[0], v[1], DM_FLAGS_NONE),
        dm_dxop(m, "dx.op.unaryBits.i32", i32, DM_ATTR_READNONE, OP_COUNTBITS, &v[0], 1),
        dm_dxop(m, "dx.op.unaryBits.i32", i32, DM_ATTR_READNONE, OP_FIRSTBIT_HI, &v[0], 1),
        dm_dxop(m, "dx.op.unaryBits.i32", i32, DM_ATTR_READNONE, OP_FIRSTBIT_LO, &v[0], 1),
        dm_dxop(m, "dx.op.quaternary.i32", i32, DM_ATTR_READNONE, OP_BFI, bfi_args, 4),
        dm_dxop(m, "dx.op.tertiary.i32", i32, DM_ATTR_READNONE, OP_IBFE, ibfe_args, 3),
        dm_cast(m, DM_ZEXT, dm_binop(m, DM_MUL, a16, a16, DM_FLAGS_NONE), i32),
        dm_cast(m, DM_SEXT, dm_binop(m, DM_ADD, a16, a16, DM_FLAGS_NONE), i32),
        dm_cast(m, DM_ZEXT, dm_cmp(m, DM_ICMP_SLT, a16, b16), i32),
    };
    return store_and_finish(m, entry, u0, words, 10, 2, FLAGS_NATIVE_16BIT, out);
}

/* (low, high) words of a 64-bit value: trunc, and trunc of lshr 32. */
static void split64(struct dxil_module *m, uint32_t value, uint32_t *words)
{
    uint32_t i32 = dm_type_int(m, 32), i64 = dm_type_int(m, 64);
    words[0] = dm_cast(m, DM_TRUNC, value, i32);
    words[1] = dm_cast(m, DM_TRUNC, dm_binop(m, DM_LSHR, value, dm_const_int(m, i64, 32),
                                              DM_FLAGS_NONE), i32);
}

/* (uint64)hi << 32 | lo. */
static uint32_t join64(struct dxil_module *m, uint32_t lo, uint32_t hi)
{
    uint32_t i64 = dm_type_int(m, 64);
    uint32_t high = dm_binop(m, DM_SHL, dm_cast(m, DM_ZEXT, hi, i64), dm_const_int(m, i64, 32),
                             DM_FLAGS_NONE);
    return dm_binop(m, DM_OR, high, dm_cast(m, DM_ZEXT, lo, i64), DM_FLAGS_NONE);
}

/*
 * cbuffer cb0 { uint x, y, z, w; };  RWByteAddressBuffer u0;
 * [numthreads(1,1,1)] void main() {
 *     uint64_t A = (uint64_t)y << 32 | x, B = (uint64_t)w << 32 | z;
 *     u0.Store2(0, split(A * B)); u0.Store2(8, split(A / B));
 *     u0.Store2(16, split(A << B)); u0.Store2(24, split((int64_t)A >> B)); }
 */
bool dxil_program_numeric_int64(struct tbuf *out)
{
    uint32_t entry = 0, u0 = 0;
    struct dxil_module *m = begin(&entry, &u0);
    uint32_t i32 = dm_type_int(m, 32);
    uint32_t v[4], words[8];
    load_cb0(m, i32, "dx.op.cbufferLoadLegacy.i32", v);
    uint32_t a = join64(m, v[0], v[1]), b = join64(m, v[2], v[3]);
    static const enum dm_binop ops[4] = { DM_MUL, DM_UDIV, DM_SHL, DM_ASHR };
    for (unsigned i = 0; i < 4; i++)
        split64(m, dm_binop(m, ops[i], a, b, DM_FLAGS_NONE), &words[2 * i]);
    return store_and_finish(m, entry, u0, words, 8, 2, DXIL_FLAG_RAW_BUFFERS, out);
}

/*
 * cbuffer cb0 { float x, y, z, w; };  RWByteAddressBuffer u0;   (-enable-16bit-types)
 * [numthreads(1,1,1)] void main() {
 *     u0.Store(0, isnan(x) || isnan(y)); u0.Store(4, !(x < y || x > y));
 *     u0.Store(8, x < y || x > y); u0.Store(12, asuint16((half)x));
 *     u0.Store(16, asuint((float)((half)x + (half)z)));
 *     u0.Store2(20, splitDouble(fma((double)x, (double)z, (double)w)));
 *     u0.Store(28, asuint(dot2add(half2(x, z), half2(z, x), w))); }
 */
bool dxil_program_numeric_float(struct tbuf *out)
{
    uint32_t entry = 0, u0 = 0;
    struct dxil_module *m = begin(&entry, &u0);
    uint32_t i32 = dm_type_int(m, 32), i16 = dm_type_int(m, 16), f32 = dm_type_float(m);
    uint32_t f16 = dm_type_half(m), f64 = dm_type_double(m);
    uint32_t two[2] = { i32, i32 };
    uint32_t split_type = dm_type_struct(m, "dx.types.splitdouble", two, 2);
    uint32_t v[4];
    load_cb0(m, f32, "dx.op.cbufferLoadLegacy.f32", v);
    uint32_t hx = dm_cast(m, DM_FPTRUNC, v[0], f16), hz = dm_cast(m, DM_FPTRUNC, v[2], f16);
    uint32_t sum = dm_cast(m, DM_FPEXT, dm_binop(m, DM_ADD, hx, hz, DM_FLAGS_NONE), f32);
    uint32_t fma_args[3] = { dm_cast(m, DM_FPEXT, v[0], f64), dm_cast(m, DM_FPEXT, v[2], f64),
                             dm_cast(m, DM_FPEXT, v[3], f64) };
    uint32_t fma = dm_dxop(m, "dx.op.tertiary.f64", f64, DM_ATTR_READNONE, OP_FMA, fma_args, 3);
    uint32_t halves = dm_dxop(m, "dx.op.splitDouble.f64", split_type, DM_ATTR_READNONE,
                              OP_SPLIT_DOUBLE, &fma, 1);
    uint32_t dot_args[5] = { v[3], hx, hz, hz, hx };
    uint32_t dot = dm_dxop(m, "dx.op.dot2AddHalf.f32", f32, DM_ATTR_READNONE, OP_DOT2_ADD_HALF,
                           dot_args, 5);
    uint32_t words[8] = {
        dm_cast(m, DM_ZEXT, dm_cmp(m, DM_FCMP_UNO, v[0], v[1]), i32),
        dm_cast(m, DM_ZEXT, dm_cmp(m, DM_FCMP_UEQ, v[0], v[1]), i32),
        dm_cast(m, DM_ZEXT, dm_cmp(m, DM_FCMP_ONE, v[0], v[1]), i32),
        dm_cast(m, DM_ZEXT, dm_cast(m, DM_BITCAST, hx, i16), i32),
        dm_cast(m, DM_BITCAST, sum, i32),
        dm_extractvalue(m, halves, 0),
        dm_extractvalue(m, halves, 1),
        dm_cast(m, DM_BITCAST, dot, i32),
    };
    return store_and_finish(m, entry, u0, words, 8, 2, FLAGS_NATIVE_16BIT, out);
}

/*
 * cbuffer cb0 { float x, y, z, w; };  RWByteAddressBuffer u0;   (-enable-16bit-types)
 * [numthreads(1,1,1)] void main() {
 *     u0.Store(0, asuint(fmod(x, y))); u0.Store(4, asuint(fmod(z, w)));
 *     u0.Store(8, asuint16(fmod((half)x, (half)y)));
 *     u0.Store2(12, asuint(float2((double)x % (double)y, (double)z % (double)w))); }
 * dxc writes fmod() (and the % of floats and doubles) as LLVM frem.
 */
bool dxil_program_numeric_frem(struct tbuf *out)
{
    uint32_t entry = 0, u0 = 0;
    struct dxil_module *m = begin(&entry, &u0);
    uint32_t i32 = dm_type_int(m, 32), i16 = dm_type_int(m, 16), f32 = dm_type_float(m);
    uint32_t f16 = dm_type_half(m);
    uint32_t v[4];
    load_cb0(m, f32, "dx.op.cbufferLoadLegacy.f32", v);
    uint32_t hx = dm_cast(m, DM_FPTRUNC, v[0], f16), hy = dm_cast(m, DM_FPTRUNC, v[1], f16);
    uint32_t half_rem = dm_binop(m, DM_SREM, hx, hy, DM_FLAGS_NONE); /* frem shares srem's code */
    uint32_t f64 = dm_type_double(m), d[4];
    for (unsigned c = 0; c < 4; c++)
        d[c] = dm_cast(m, DM_FPEXT, v[c], f64);
    uint32_t words[5] = {
        dm_cast(m, DM_BITCAST, dm_binop(m, DM_SREM, v[0], v[1], DM_FLAGS_NONE), i32),
        dm_cast(m, DM_BITCAST, dm_binop(m, DM_SREM, v[2], v[3], DM_FLAGS_NONE), i32),
        dm_cast(m, DM_ZEXT, dm_cast(m, DM_BITCAST, half_rem, i16), i32),
        dm_cast(m, DM_BITCAST, dm_cast(m, DM_FPTRUNC, dm_binop(m, DM_SREM, d[0], d[1], DM_FLAGS_NONE), f32), i32),
        dm_cast(m, DM_BITCAST, dm_cast(m, DM_FPTRUNC, dm_binop(m, DM_SREM, d[2], d[3], DM_FLAGS_NONE), f32), i32),
    };
    return store_and_finish(m, entry, u0, words, 5, 2, FLAGS_NATIVE_16BIT, out);
}

/*
 * cbuffer cb0 { float x, y, z, w; };  RWByteAddressBuffer u0;   (-enable-16bit-types)
 * [numthreads(1,1,1)] void main() {
 *     u0.Store4(0, asuint(float4(acos(x), asin(x), atan(x), atan(y))));
 *     u0.Store2(16, asuint(float2(acos(z), asin(z))));
 *     u0.Store(24, asuint16(atan((half)w))); }
 */
bool dxil_program_numeric_inverse_trig(struct tbuf *out)
{
    uint32_t entry = 0, u0 = 0;
    struct dxil_module *m = begin(&entry, &u0);
    uint32_t i32 = dm_type_int(m, 32), i16 = dm_type_int(m, 16), f32 = dm_type_float(m);
    uint32_t f16 = dm_type_half(m);
    uint32_t v[4];
    load_cb0(m, f32, "dx.op.cbufferLoadLegacy.f32", v);
    static const struct { unsigned op, input; } calls[6] = {
        { OP_ACOS, 0 }, { OP_ASIN, 0 }, { OP_ATAN, 0 }, { OP_ATAN, 1 }, { OP_ACOS, 2 }, { OP_ASIN, 2 },
    };
    uint32_t words[7];
    for (unsigned i = 0; i < 6; i++)
        words[i] = dm_cast(m, DM_BITCAST,
                           dm_dxop(m, "dx.op.unary.f32", f32, DM_ATTR_READNONE, calls[i].op,
                                   &v[calls[i].input], 1),
                           i32);
    uint32_t hw = dm_cast(m, DM_FPTRUNC, v[3], f16);
    uint32_t half_atan = dm_dxop(m, "dx.op.unary.f16", f16, DM_ATTR_READNONE, OP_ATAN, &hw, 1);
    words[6] = dm_cast(m, DM_ZEXT, dm_cast(m, DM_BITCAST, half_atan, i16), i32);
    return store_and_finish(m, entry, u0, words, 7, 2, FLAGS_NATIVE_16BIT, out);
}

/*
 * cbuffer cb0 { uint a, b, c, d; };  RWByteAddressBuffer u0;   (-enable-16bit-types)
 * [numthreads(1,1,1)] void main() {
 *     uint16_t s = (uint16_t)a;  uint64_t L = (uint64_t)d << 32 | c;
 *     u0.Store4(0, uint4(countbits(s), FirstbitLo(s), FirstbitHi(s), FirstbitSHi(s)));
 *     u0.Store(16, reversebits(s));
 *     u0.Store4(20, uint4(countbits(L), FirstbitLo(L), FirstbitHi(L), FirstbitSHi(L)));
 *     u0.Store2(36, split(reversebits(L))); }
 * FirstbitHi/SHi are the dx.ops (counted from the top bit), not HLSL's firstbithigh.
 */
bool dxil_program_numeric_bits_wide(struct tbuf *out)
{
    uint32_t entry = 0, u0 = 0;
    struct dxil_module *m = begin(&entry, &u0);
    uint32_t i32 = dm_type_int(m, 32), i16 = dm_type_int(m, 16), i64 = dm_type_int(m, 64);
    uint32_t v[4], words[11];
    load_cb0(m, i32, "dx.op.cbufferLoadLegacy.i32", v);
    uint32_t s16 = dm_cast(m, DM_TRUNC, v[0], i16), l64 = join64(m, v[2], v[3]);
    static const unsigned scans[4] = { OP_COUNTBITS, OP_FIRSTBIT_LO, OP_FIRSTBIT_HI, OP_FIRSTBIT_SHI };
    for (unsigned i = 0; i < 4; i++) {
        words[i] = dm_dxop(m, "dx.op.unaryBits.i16", i32, DM_ATTR_READNONE, scans[i], &s16, 1);
        words[5 + i] = dm_dxop(m, "dx.op.unaryBits.i64", i32, DM_ATTR_READNONE, scans[i], &l64, 1);
    }
    words[4] = dm_cast(m, DM_ZEXT, dm_dxop(m, "dx.op.unary.i16", i16, DM_ATTR_READNONE, OP_BFREV, &s16, 1),
                       i32);
    split64(m, dm_dxop(m, "dx.op.unary.i64", i64, DM_ATTR_READNONE, OP_BFREV, &l64, 1), &words[9]);
    return store_and_finish(m, entry, u0, words, 11, 2, FLAGS_NATIVE_16BIT, out);
}

/*
 * cbuffer cb0 { uint a, b, c, d; };  RWByteAddressBuffer u0;   (-enable-16bit-types)
 * [numthreads(1,1,1)] void main() {
 *     int16_t s = (int16_t)a, t = (int16_t)c;  int64_t A = b:a, B = d:c;
 *     u0.Store4(0, uint4(uint16_t(max(s, t)), uint16_t(min(s, t)),
 *                        max((uint16_t)s, (uint16_t)t), min((uint16_t)s, (uint16_t)t)));
 *     u0.Store4(16, split(max(A, B)), split(min(A, B)));
 *     u0.Store4(32, split(max((uint64_t)A, (uint64_t)B)), split(min((uint64_t)A, (uint64_t)B)));
 *     u0.Store(48, uint16_t(mad(s, t, s))); u0.Store(52, mad((uint16_t)s, (uint16_t)t, (uint16_t)t));
 *     u0.Store2(56, split(mad(A, B, A))); u0.Store2(64, split(mad((uint64_t)A, (uint64_t)B, (uint64_t)B))); }
 */
bool dxil_program_numeric_int_wide(struct tbuf *out)
{
    uint32_t entry = 0, u0 = 0;
    struct dxil_module *m = begin(&entry, &u0);
    uint32_t i32 = dm_type_int(m, 32), i16 = dm_type_int(m, 16), i64 = dm_type_int(m, 64);
    uint32_t v[4], words[18];
    load_cb0(m, i32, "dx.op.cbufferLoadLegacy.i32", v);
    uint32_t narrow[3] = { dm_cast(m, DM_TRUNC, v[0], i16), dm_cast(m, DM_TRUNC, v[2], i16), 0 };
    uint32_t wide[3] = { join64(m, v[0], v[1]), join64(m, v[2], v[3]), 0 };
    static const unsigned ops[4] = { OP_IMAX, OP_IMIN, OP_UMAX, OP_UMIN };
    for (unsigned i = 0; i < 4; i++) {
        words[i] = dm_cast(m, DM_ZEXT,
                           dm_dxop(m, "dx.op.binary.i16", i16, DM_ATTR_READNONE, ops[i], narrow, 2), i32);
        split64(m, dm_dxop(m, "dx.op.binary.i64", i64, DM_ATTR_READNONE, ops[i], wide, 2),
                &words[4 + 2 * i]);
    }
    /* IMad with the first operand added, UMad with the second */
    static const unsigned mads[2] = { OP_IMAD, OP_UMAD };
    for (unsigned k = 0; k < 2; k++) {
        narrow[2] = narrow[k];
        wide[2] = wide[k];
        words[12 + k] = dm_cast(m, DM_ZEXT, dm_dxop(m, "dx.op.tertiary.i16", i16, DM_ATTR_READNONE,
                                                    mads[k], narrow, 3), i32);
        split64(m, dm_dxop(m, "dx.op.tertiary.i64", i64, DM_ATTR_READNONE, mads[k], wide, 3),
                &words[14 + 2 * k]);
    }
    return store_and_finish(m, entry, u0, words, 18, 2, FLAGS_NATIVE_16BIT, out);
}

/*
 * RWByteAddressBuffer u0;
 * [numthreads(64,1,1)] void main(uint t : SV_GroupIndex) {
 *     uint4 m = WaveMatch(t & 3);  uint4 parity = uint4(0x55555555 << (t & 1), 0, 0, 0);
 *     u0.Store4(t * 32, uint4(WaveActiveSum(t), WavePrefixSum(t), QuadReadAcrossX(t), m.x));
 *     u0.Store4(t * 32 + 16, uint4(m.y, WaveMultiPrefixSum(t, parity),
 *                                  WaveMultiPrefixBitOr(t, parity),
 *                                  WaveMultiPrefixCountBits(t % 3 == 0, parity))); }
 */
bool dxil_program_numeric_wave(struct tbuf *out)
{
    uint32_t entry = 0, u0 = 0;
    struct dxil_module *m = begin(&entry, &u0);
    uint32_t i32 = dm_type_int(m, 32);
    uint32_t four[4] = { i32, i32, i32, i32 };
    uint32_t t4 = dm_type_struct(m, "dx.types.fouri32", four, 4);
    uint32_t t = dm_dxop(m, "dx.op.flattenedThreadIdInGroup.i32", i32, DM_ATTR_READNONE,
                         OP_FLATTENED_THREAD_ID, NULL, 0);
    /* op 0 = sum, sop 1 = unsigned; quad op 0 = ReadAcrossX; multi-prefix op 2 = or */
    uint32_t sum_args[3] = { t, dm_i8(m, 0), dm_i8(m, 1) }, quad_args[2] = { t, dm_i8(m, 0) };
    uint32_t low2 = dm_binop(m, DM_AND, t, dm_i32(m, 3), DM_FLAGS_NONE);
    uint32_t match = dm_dxop(m, "dx.op.waveMatch.i32", t4, DM_ATTR_NONE, OP_WAVE_MATCH, &low2, 1);
    uint32_t parity = dm_binop(m, DM_SHL, dm_i32(m, 0x55555555),
                               dm_binop(m, DM_AND, t, dm_i32(m, 1), DM_FLAGS_NONE), DM_FLAGS_NONE);
    uint32_t zero = dm_i32(m, 0);
    uint32_t psum_args[7] = { t, parity, zero, zero, zero, dm_i8(m, 0), dm_i8(m, 1) };
    uint32_t por_args[7] = { t, parity, zero, zero, zero, dm_i8(m, 2), dm_i8(m, 0) };
    uint32_t third = dm_cmp(m, DM_ICMP_EQ, dm_binop(m, DM_UREM, t, dm_i32(m, 3), DM_FLAGS_NONE),
                            zero);
    uint32_t count_args[5] = { third, parity, zero, zero, zero };
    uint32_t results[8] = {
        dm_dxop(m, "dx.op.waveActiveOp.i32", i32, DM_ATTR_NONE, OP_WAVE_ACTIVE_OP, sum_args, 3),
        dm_dxop(m, "dx.op.wavePrefixOp.i32", i32, DM_ATTR_NONE, OP_WAVE_PREFIX_OP, sum_args, 3),
        dm_dxop(m, "dx.op.quadOp.i32", i32, DM_ATTR_NONE, OP_QUAD_OP, quad_args, 2),
        dm_extractvalue(m, match, 0),
        dm_extractvalue(m, match, 1),
        dm_dxop(m, "dx.op.waveMultiPrefixOp.i32", i32, DM_ATTR_NONE, OP_WAVE_MULTI_PREFIX_OP,
                psum_args, 7),
        dm_dxop(m, "dx.op.waveMultiPrefixOp.i32", i32, DM_ATTR_NONE, OP_WAVE_MULTI_PREFIX_OP,
                por_args, 7),
        dm_dxop(m, "dx.op.waveMultiPrefixBitCount", i32, DM_ATTR_NONE,
                OP_WAVE_MULTI_PREFIX_BIT_COUNT, count_args, 5),
    };
    uint32_t base = dm_binop(m, DM_MUL, t, dm_i32(m, 32), DM_FLAGS_NONE);
    for (unsigned i = 0; i < 8; i++)
        dxil_programs_store_u32(m, u0, dm_binop(m, DM_ADD, base, dm_i32(m, (int32_t)i * 4),
                                                DM_FLAGS_NONE), results[i]);
    dm_ret_void(m);
    return finish(m, entry, 5, 64, DXIL_FLAG_RAW_BUFFERS, out);
}

/*
 * cbuffer cb0 { int a, b, c, d; };  RWByteAddressBuffer u0;   (SM 6.6, -enable-16bit-types)
 * [numthreads(1,1,1)] void main() {
 *     u0.Store4(0, unpack_s8s32(a)); u0.Store(16, pack_clamp_s8(int4(a, b, c, d)));
 *     u0.Store(20, pack_clamp_u8(int4(a, b, c, d))); u0.Store(24, dot4add_i8packed(a, c, d));
 *     u0.Store(28, dot4add_u8packed(a, c, d));
 *     u0.Store(32, pack_clamp_s8((int16_t4)int4(a, b, c, d)));
 *     u0.Store4(36, (uint4)(uint16_t4)unpack_s8s16(a)); }
 */
bool dxil_program_numeric_packed(struct tbuf *out)
{
    uint32_t entry = 0, u0 = 0;
    struct dxil_module *m = begin(&entry, &u0);
    uint32_t i32 = dm_type_int(m, 32), i16 = dm_type_int(m, 16);
    uint32_t four32[4] = { i32, i32, i32, i32 }, four16[4] = { i16, i16, i16, i16 };
    uint32_t t32 = dm_type_struct(m, "dx.types.fouri32", four32, 4);
    uint32_t t16 = dm_type_struct(m, "dx.types.fouri16", four16, 4);
    uint32_t v[4], words[13], n[4];
    load_cb0(m, i32, "dx.op.cbufferLoadLegacy.i32", v);
    uint32_t unpack_args[2] = { dm_i8(m, 1), v[0] };
    uint32_t unpacked = dm_dxop(m, "dx.op.unpack4x8.i32", t32, DM_ATTR_READNONE, OP_UNPACK4X8,
                                unpack_args, 2);
    uint32_t unpacked16 = dm_dxop(m, "dx.op.unpack4x8.i16", t16, DM_ATTR_READNONE, OP_UNPACK4X8,
                                  unpack_args, 2);
    for (unsigned c = 0; c < 4; c++) {
        words[c] = dm_extractvalue(m, unpacked, c);
        words[9 + c] = dm_cast(m, DM_ZEXT, dm_extractvalue(m, unpacked16, c), i32);
        n[c] = dm_cast(m, DM_TRUNC, v[c], i16);
    }
    uint32_t signed_args[5] = { dm_i8(m, 2), v[0], v[1], v[2], v[3] };
    uint32_t unsigned_args[5] = { dm_i8(m, 1), v[0], v[1], v[2], v[3] };
    uint32_t narrow_args[5] = { dm_i8(m, 2), n[0], n[1], n[2], n[3] };
    uint32_t dot_args[3] = { v[3], v[0], v[2] };
    words[4] = dm_dxop(m, "dx.op.pack4x8.i32", i32, DM_ATTR_READNONE, OP_PACK4X8, signed_args, 5);
    words[5] = dm_dxop(m, "dx.op.pack4x8.i32", i32, DM_ATTR_READNONE, OP_PACK4X8, unsigned_args, 5);
    words[6] = dm_dxop(m, "dx.op.dot4AddPacked.i32", i32, DM_ATTR_READNONE, OP_DOT4_ADD_I8,
                       dot_args, 3);
    words[7] = dm_dxop(m, "dx.op.dot4AddPacked.i32", i32, DM_ATTR_READNONE, OP_DOT4_ADD_U8,
                       dot_args, 3);
    words[8] = dm_dxop(m, "dx.op.pack4x8.i16", i32, DM_ATTR_READNONE, OP_PACK4X8, narrow_args, 5);
    return store_and_finish(m, entry, u0, words, 13, 6, FLAGS_NATIVE_16BIT, out);
}

/* rawBufferLoad.<overload>(handle, offset, undef, mask, alignment 2) -> ResRet (the
 * alignment is 2 whatever the element: the front end does not read it). */
static uint32_t load16(struct dxil_module *m, uint32_t u0, uint32_t offset, uint32_t element,
                       const char *ret_name, const char *name, int8_t mask)
{
    uint32_t i32 = dm_type_int(m, 32);
    uint32_t members[5] = { element, element, element, element, i32 };
    uint32_t ret = dm_type_struct(m, ret_name, members, 5);
    uint32_t args[5] = { u0, offset, dm_undef(m, i32), dm_i8(m, mask), dm_i32(m, 2) };
    return dm_dxop(m, name, ret, DM_ATTR_READONLY, OP_RAW_BUFFER_LOAD, args, 5);
}

/*
 * cbuffer cb0 { uint o; };  RWByteAddressBuffer u0;   (-enable-16bit-types)
 * [numthreads(1,1,1)] void main() {
 *     uint16_t4 e = u0.Load<uint16_t4>(o);  u0.Store<uint16_t4>(32 + o, e);
 *     u0.Store(64, e.x); u0.Store(68, e.w); u0.Store(72, asuint((float)u0.Load<half>(16 + o))); }
 */
bool dxil_program_numeric_buffer16(struct tbuf *out)
{
    uint32_t entry = 0, u0 = 0;
    struct dxil_module *m = begin(&entry, &u0);
    uint32_t i32 = dm_type_int(m, 32), i16 = dm_type_int(m, 16), f32 = dm_type_float(m);
    uint32_t f16 = dm_type_half(m);
    uint32_t v[4], e[4];
    load_cb0(m, i32, "dx.op.cbufferLoadLegacy.i32", v);
    uint32_t elements = load16(m, u0, v[0], i16, "dx.types.ResRet.i16", "dx.op.rawBufferLoad.i16",
                               15);
    for (unsigned c = 0; c < 4; c++)
        e[c] = dm_extractvalue(m, elements, c);
    uint32_t store_args[9] = { u0, dm_binop(m, DM_ADD, v[0], dm_i32(m, 32), DM_FLAGS_NONE),
                               dm_undef(m, i32), e[0], e[1], e[2], e[3], dm_i8(m, 15),
                               dm_i32(m, 2) };
    dm_dxop(m, "dx.op.rawBufferStore.i16", dm_type_void(m), DM_ATTR_NOUNWIND, OP_RAW_BUFFER_STORE,
            store_args, 9);
    uint32_t half_at = dm_binop(m, DM_ADD, v[0], dm_i32(m, 16), DM_FLAGS_NONE);
    uint32_t h = dm_extractvalue(m, load16(m, u0, half_at, f16, "dx.types.ResRet.f16",
                                           "dx.op.rawBufferLoad.f16", 1), 0);
    uint32_t words[3] = { dm_cast(m, DM_ZEXT, e[0], i32), dm_cast(m, DM_ZEXT, e[3], i32),
                          dm_cast(m, DM_BITCAST, dm_cast(m, DM_FPEXT, h, f32), i32) };
    for (unsigned i = 0; i < 3; i++)
        dxil_programs_store_u32(m, u0, dm_i32(m, 64 + 4 * (int32_t)i), words[i]);
    dm_ret_void(m);
    return finish(m, entry, 2, 1, FLAGS_NATIVE_16BIT, out);
}

/*
 * cbuffer cb0 { uint n; };  RWByteAddressBuffer u0;
 * [numthreads(1,1,1)] void main() {
 *     uint64_t acc = 1; double d = 0; uint i = 0;
 *     do { acc = acc * 3 + i; d = d * 0.5 + 1; } while (++i < n);
 *     u0.Store2(0, split(acc)); u0.Store2(8, splitDouble(d)); }
 * The loop's phis carry an i64 and a double.
 */
bool dxil_program_numeric_loop64(struct tbuf *out)
{
    uint32_t entry = 0, u0 = 0;
    struct dxil_module *m = begin(&entry, &u0);
    uint32_t i32 = dm_type_int(m, 32), i64 = dm_type_int(m, 64), f64 = dm_type_double(m);
    uint32_t two[2] = { i32, i32 };
    uint32_t split_type = dm_type_struct(m, "dx.types.splitdouble", two, 2);
    uint32_t v[4], words[4];
    uint32_t header = dm_block(m), exit = dm_block(m); /* after begin()'s entry block 0 */
    load_cb0(m, i32, "dx.op.cbufferLoadLegacy.i32", v);
    dm_br(m, header);
    dm_at(m, header);
    uint32_t i = dm_phi(m, i32), acc = dm_phi(m, i64), d = dm_phi(m, f64);
    uint32_t acc_next = dm_binop(m, DM_ADD, dm_binop(m, DM_MUL, acc, dm_const_int(m, i64, 3),
                                                     DM_FLAGS_NONE),
                                 dm_cast(m, DM_ZEXT, i, i64), DM_FLAGS_NONE);
    uint32_t d_next = dm_binop(m, DM_ADD, dm_binop(m, DM_MUL, d, dm_f64(m, 0.5), DM_FLAGS_NONE),
                               dm_f64(m, 1.0), DM_FLAGS_NONE);
    uint32_t i_next = dm_binop(m, DM_ADD, i, dm_i32(m, 1), DM_FLAGS_NONE);
    dm_br_cond(m, dm_cmp(m, DM_ICMP_ULT, i_next, v[0]), header, exit);
    dm_phi_incoming(m, i, dm_i32(m, 0), 0);
    dm_phi_incoming(m, i, i_next, header);
    dm_phi_incoming(m, acc, dm_const_int(m, i64, 1), 0);
    dm_phi_incoming(m, acc, acc_next, header);
    dm_phi_incoming(m, d, dm_f64(m, 0.0), 0);
    dm_phi_incoming(m, d, d_next, header);
    dm_at(m, exit);
    split64(m, acc_next, words);
    uint32_t halves = dm_dxop(m, "dx.op.splitDouble.f64", split_type, DM_ATTR_READNONE,
                              OP_SPLIT_DOUBLE, &d_next, 1);
    words[2] = dm_extractvalue(m, halves, 0);
    words[3] = dm_extractvalue(m, halves, 1);
    return store_and_finish(m, entry, u0, words, 4, 0, DXIL_FLAG_RAW_BUFFERS, out);
}

/*
 * What the numeric lowering refuses, one construct per program (cbuffer cb0 { float x; uint o; };
 * RWByteAddressBuffer u0): 0: u0.Store(0, (uint)ibfe(4, 2, X)) with X = (uint64_t)asuint(x)
 * (a 64-bit Ibfe overload); 1: an LLVM `add i1` of (x < x) and ordered(x, x), which dxc never
 * writes (an i1 sum); 2: u0.Store(0, (uint)u0.Load<uint64_t3>(o).x)
 * (three 64-bit buffer elements).
 */
bool dxil_program_numeric_refused(struct tbuf *out, unsigned which)
{
    uint32_t entry = 0, u0 = 0;
    struct dxil_module *m = begin(&entry, &u0);
    uint32_t i32 = dm_type_int(m, 32), f32 = dm_type_float(m), i64 = dm_type_int(m, 64);
    uint32_t v[4], word;
    load_cb0(m, f32, "dx.op.cbufferLoadLegacy.f32", v);
    if (which == 0) {
        uint32_t x64 = dm_cast(m, DM_ZEXT, dm_cast(m, DM_BITCAST, v[0], i32), i64);
        uint32_t args[3] = { dm_const_int(m, i64, 4), dm_const_int(m, i64, 2), x64 }; /* width, offset, value */
        word = dm_cast(m, DM_TRUNC, dm_dxop(m, "dx.op.tertiary.i64", i64, DM_ATTR_READNONE, OP_IBFE,
                                            args, 3), i32);
    } else if (which == 1) {
        uint32_t sum = dm_binop(m, DM_ADD, dm_cmp(m, DM_FCMP_OLT, v[0], v[0]),
                                dm_cmp(m, DM_FCMP_ORD, v[0], v[0]), DM_FLAGS_NONE);
        word = dm_cast(m, DM_ZEXT, sum, i32);
    } else {
        uint32_t wide = dm_extractvalue(m, load16(m, u0, dm_cast(m, DM_BITCAST, v[1], i32), i64,
                                                  "dx.types.ResRet.i64", "dx.op.rawBufferLoad.i64",
                                                  7), 0); /* 3 elements: 6 words */
        word = dm_cast(m, DM_TRUNC, wide, i32);
    }
    return store_and_finish(m, entry, u0, &word, 1, 2, FLAGS_NATIVE_16BIT, out);
}

/*
 * vs_6_2 with -enable-16bit-types:
 * half2 main(half2 v : TEXCOORD0) : TEXCOORD0 { return v * (half)2 + (half)1; }
 * One 16-bit float element in, one out (v0.xy -> o0.xy).
 */
bool dxil_program_numeric_vs_half(struct tbuf *out)
{
    struct dxil_module *m = dm_create();
    uint32_t f16 = dm_type_half(m), i32 = dm_type_int(m, 32);
    uint32_t entry = dm_entry(m, "main");
    dm_at(m, dm_block(m));
    uint32_t undef = dm_undef(m, i32), results[2];
    /* half constants 2 and 1: their IEEE half bits, as the bitcode stores them */
    uint32_t two = dm_f16_bits(m, 0x4000), one = dm_f16_bits(m, 0x3C00);
    for (int8_t c = 0; c < 2; c++) {
        uint32_t args[4] = { dm_i32(m, 0), dm_i32(m, 0), dm_i8(m, c), undef };
        uint32_t v = dm_dxop(m, "dx.op.loadInput.f16", f16, DM_ATTR_READNONE, OP_LOAD_INPUT,
                             args, 4);
        results[c] = dm_binop(m, DM_ADD, dm_binop(m, DM_MUL, v, two, DM_FLAGS_NONE), one,
                              DM_FLAGS_NONE);
    }
    for (int8_t c = 0; c < 2; c++) {
        uint32_t args[4] = { dm_i32(m, 0), dm_i32(m, 0), dm_i8(m, c), results[c] };
        dm_dxop(m, "dx.op.storeOutput.f16", dm_type_void(m), DM_ATTR_NOUNWIND, OP_STORE_OUTPUT,
                args, 4);
    }
    dm_ret_void(m);
    static const struct dxil_sig_element inputs[1] = {
        { "TEXCOORD", 0, DXIL_SEM_ARBITRARY, DXIL_COMP_F16, DXIL_INTERP_UNDEFINED, 2, 0 },
    };
    static const struct dxil_sig_element outputs[1] = {
        { "TEXCOORD", 0, DXIL_SEM_ARBITRARY, DXIL_COMP_F16, DXIL_INTERP_LINEAR, 2, 0 },
    };
    static const struct dxil_io_dependency deps[2] = { { 0, 0 }, { 1, 1 } };
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_VERTEX, .sm_minor = 2, .entry = entry,
        .entry_name = "main", .shader_flags = 0x20ull | 0x800000ull, .inputs = inputs,
        .input_count = 1, .outputs = outputs, .output_count = 1, .dependencies = deps,
        .dependency_count = 2,
    };
    bool ok = dxil_program_write(m, &d, out);
    dm_destroy(m);
    return ok;
}

/* rawBufferStore.<overload>(handle, index, element offset, v0..v3, mask, alignment 2). */
static void store16(struct dxil_module *m, uint32_t u0, uint32_t index, uint32_t offset,
                    const char *name, const uint32_t v[4], int8_t mask)
{
    uint32_t args[9] = { u0, index, offset, v[0], v[1], v[2], v[3], dm_i8(m, mask),
                         dm_i32(m, 2) };
    dm_dxop(m, name, dm_type_void(m), DM_ATTR_NOUNWIND, OP_RAW_BUFFER_STORE, args, 9);
}

/*
 * struct S { int16_t a; half3 b; };  RWStructuredBuffer<S> u0;  cbuffer cb0 { uint i; };
 * [numthreads(1,1,1)] void main() {   (-enable-16bit-types)
 *     u0[i + 1].b = u0[i].b * (half)2;  u0[i + 1].a = u0[i].a + 1; }
 * b starts 2 bytes into the element: its halves straddle the element's two words.
 */
bool dxil_program_numeric_structured16(struct tbuf *out)
{
    uint32_t entry = 0, u0 = 0;
    struct dxil_module *m = begin(&entry, &u0);
    uint32_t i32 = dm_type_int(m, 32), i16 = dm_type_int(m, 16), f16 = dm_type_half(m);
    uint32_t v[4], b[4], a[4];
    load_cb0(m, i32, "dx.op.cbufferLoadLegacy.i32", v);
    uint32_t next = dm_binop(m, DM_ADD, v[0], dm_i32(m, 1), DM_FLAGS_NONE);
    uint32_t members[5] = { f16, f16, f16, f16, i32 };
    uint32_t ret16 = dm_type_struct(m, "dx.types.ResRet.f16", members, 5);
    uint32_t args[5] = { u0, v[0], dm_i32(m, 2), dm_i8(m, 7), dm_i32(m, 2) };
    uint32_t loaded = dm_dxop(m, "dx.op.rawBufferLoad.f16", ret16, DM_ATTR_READONLY,
                              OP_RAW_BUFFER_LOAD, args, 5);
    uint32_t imembers[5] = { i16, i16, i16, i16, i32 };
    uint32_t reti16 = dm_type_struct(m, "dx.types.ResRet.i16", imembers, 5);
    uint32_t iargs[5] = { u0, v[0], dm_i32(m, 0), dm_i8(m, 1), dm_i32(m, 2) };
    uint32_t first = dm_dxop(m, "dx.op.rawBufferLoad.i16", reti16, DM_ATTR_READONLY,
                             OP_RAW_BUFFER_LOAD, iargs, 5);
    for (unsigned c = 0; c < 3; c++)
        b[c] = dm_binop(m, DM_MUL, dm_extractvalue(m, loaded, c), dm_f16_bits(m, 0x4000),
                        DM_FLAGS_NONE);
    b[3] = dm_undef(m, f16);
    a[0] = dm_binop(m, DM_ADD, dm_extractvalue(m, first, 0), dm_const_int(m, i16, 1),
                    DM_FLAGS_NONE);
    a[1] = a[2] = a[3] = dm_undef(m, i16);
    store16(m, u0, next, dm_i32(m, 2), "dx.op.rawBufferStore.f16", b, 7);
    store16(m, u0, next, dm_i32(m, 0), "dx.op.rawBufferStore.i16", a, 1);
    dm_ret_void(m);
    return finish_with(m, entry, 2, 1, FLAGS_NATIVE_16BIT, STRUCTURED8_U0_CB0, out);
}
