/* SPDX-License-Identifier: MIT */
/*
 * The AGS programs of dxil_programs_ags.h, laid out as dxc compiles AGS's
 * helpers: the magic UAV's handle feeds one atomicCompareExchange per
 * intrinsic call, offset0 the code word, offset1/2 undef, compare and new
 * value the operands (docs/dxil.md §3.6 AtomicCompareExchange, §5.4).
 */
#include "dxil_programs_ags.h"

#include "dxil_program_writer.h"
#include "shaderbridge/dxbc_dxil.h"

enum { OP_CREATE_HANDLE = 57, OP_BUFFER_LOAD = 68, OP_BUFFER_STORE = 69,
       OP_ATOMIC_COMPARE_EXCHANGE = 79, OP_THREAD_ID = 93 };

/* The AGS code word and the Float8Conversion immediates (§5.4). */
#define AGS_CODE(opcode, phase, immediate) \
    (int32_t)(0x50000000u | (uint32_t)(phase) << 24 | (uint32_t)(immediate) << 8 | (opcode))
enum { AGS_FLOAT8_CONVERSION = 0x36, AGS_WAVE_MATRIX_LENGTH = 0x31, AGS_WAVE_MATRIX_FILL = 0x33,
       AGS_WAVE_MATRIX_COPY = 0x32, AGS_WAVE_MATRIX_ELEMENT_EXTRACT = 0x30, AGS_WAVE_MATRIX_MUL_ACC = 0x28,
       AGS_WAVE_MATRIX_ELEMENT_FILL = 0x2F, AGS_WAVE_MATRIX_UAV_LOAD = 0x29,
       AGS_WAVE_MATRIX_UAV_STORE = 0x2A, WMMA_F32_F16 = 5, WMMA_F32_FP8_FP8 = 7, WMMA_I32_I8 = 0xC,
       AGS_SATURATE = 0x100 };
/* Matrix type codes (WMMA_MakeType): format | kind << 4 | transposed << 7. */
enum { TYPE_F16_A = 0x04, TYPE_F16_A_TRANSPOSED = 0x84, TYPE_F32_ACC_TRANSPOSED = 0xA6,
       TYPE_FP8_B = 0x1A, TYPE_F16_B = 0x14, TYPE_FP8_A = 0x0A, TYPE_F16_ACC_TRANSPOSED = 0xA4, TYPE_F16_ACC = 0x24, TYPE_F32_ACC = 0x26,
       TYPE_FP8_ACC = 0x2A };
/* MatrixIO(channel, register): the immediate naming a dword (pair) of a matrix. */
#define MATRIX_IO(channel, reg) ((channel) | (reg) << 4)

/* Register space of the magic UAV: 0x7FFF0ADE (2147420894). */
static const struct dxil_resource resources[2] = {
    { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_RAW_BUFFER,
      .type_name = "struct.RWByteAddressBuffer" },
    { .resource_class = DXIL_CLASS_UAV, .kind = DXIL_KIND_RAW_BUFFER, .space = 0x7FFF0ADEu,
      .type_name = "struct.RWByteAddressBuffer" },
};

struct ags_program {
    struct dxil_module *m;
    uint32_t entry, i32, u0, magic, thread;
};

static struct ags_program begin(void)
{
    struct ags_program p;
    p.m = dm_create();
    p.i32 = dm_type_int(p.m, 32);
    p.entry = dm_entry(p.m, "main");
    dm_at(p.m, dm_block(p.m));
    uint32_t i8ptr = dm_type_ptr(p.m, dm_type_int(p.m, 8), 0);
    uint32_t handle = dm_type_struct(p.m, "dx.types.Handle", &i8ptr, 1);
    for (int32_t range = 0; range < 2; range++) {
        uint32_t args[4] = { dm_i8(p.m, DXIL_CLASS_UAV), dm_i32(p.m, range), dm_i32(p.m, 0),
                             dm_i1(p.m, false) };
        uint32_t h = dm_dxop(p.m, "dx.op.createHandle", handle, DM_ATTR_READONLY,
                             OP_CREATE_HANDLE, args, 4);
        *(range == 0 ? &p.u0 : &p.magic) = h;
    }
    uint32_t zero = dm_i32(p.m, 0);
    p.thread = dm_dxop(p.m, "dx.op.threadId.i32", p.i32, DM_ATTR_READNONE, OP_THREAD_ID, &zero, 1);
    return p;
}

/* Ends the body and writes the program: `threads` x 1 x 1, [WaveSize(wave_size)] unless 0
 * (an SM 6.6 property). */
static bool finish_sized(struct ags_program *p, uint32_t threads, uint32_t wave_size,
                         struct tbuf *out)
{
    dm_ret_void(p->m);
    const struct dxil_program_desc d = {
        .shader_kind = SB_DXIL_SHADER_KIND_COMPUTE, .sm_minor = wave_size ? 6 : 0,
        .entry = p->entry, .entry_name = "main", .num_threads = { threads, 1, 1 },
        .shader_flags = DXIL_FLAG_RAW_BUFFERS, .resources = resources, .resource_count = 2,
        .wave_size = wave_size,
    };
    bool ok = dxil_program_write(p->m, &d, out);
    dm_destroy(p->m);
    return ok;
}

static bool finish(struct ags_program *p, struct tbuf *out)
{
    return finish_sized(p, DXIL_AGS_FLOAT8_THREADS, 0, out);
}

/* One AGS intrinsic call: atomicCompareExchange(magic, code, undef, undef, a, b). */
static uint32_t ags_call(struct ags_program *p, uint32_t code, uint32_t a, uint32_t b)
{
    uint32_t u = dm_undef(p->m, p->i32);
    uint32_t args[6] = { p->magic, code, u, u, a, b };
    return dm_dxop(p->m, "dx.op.atomicCompareExchange.i32", p->i32, DM_ATTR_NOUNWIND,
                   OP_ATOMIC_COMPARE_EXCHANGE, args, 6);
}

/* u0.Load(offset) as SM 6.0 writes it: bufferLoad.i32(handle, byte offset, undef).x. */
static uint32_t load(struct ags_program *p, uint32_t handle, uint32_t offset)
{
    uint32_t members[5] = { p->i32, p->i32, p->i32, p->i32, p->i32 };
    uint32_t resret = dm_type_struct(p->m, "dx.types.ResRet.i32", members, 5);
    uint32_t args[3] = { handle, offset, dm_undef(p->m, p->i32) };
    return dm_extractvalue(p->m, dm_dxop(p->m, "dx.op.bufferLoad.i32", resret, DM_ATTR_READONLY,
                                         OP_BUFFER_LOAD, args, 3), 0);
}

/* u0.Store(offset, value): bufferStore.i32(handle, byte offset, undef, value, undef x3, x). */
static void store(struct ags_program *p, uint32_t handle, uint32_t offset, uint32_t value)
{
    uint32_t u = dm_undef(p->m, p->i32);
    uint32_t args[8] = { handle, offset, u, value, u, u, u, dm_i8(p->m, 1) };
    dm_dxop(p->m, "dx.op.bufferStore.i32", dm_type_void(p->m), DM_ATTR_NOUNWIND, OP_BUFFER_STORE,
            args, 8);
}

static uint32_t add(struct ags_program *p, uint32_t a, uint32_t b)
{
    return dm_binop(p->m, DM_ADD, a, b, DM_FLAGS_NONE);
}

static uint32_t mul(struct ags_program *p, uint32_t a, uint32_t b)
{
    return dm_binop(p->m, DM_MUL, a, b, DM_FLAGS_NONE);
}

bool dxil_program_ags_float8(struct tbuf *out)
{
    struct ags_program p = begin();
    struct dxil_module *m = p.m;
    uint32_t in = mul(&p, p.thread, dm_i32(m, 8));
    uint32_t a = load(&p, p.u0, in), b = load(&p, p.u0, add(&p, in, dm_i32(m, 4)));
    uint32_t base = add(&p, mul(&p, p.thread, dm_i32(m, 32)), dm_i32(m, DXIL_AGS_FLOAT8_OUT));
    for (uint32_t k = 0; k < 8; k++) {
        uint32_t conversion = k & 3;
        uint32_t immediate = conversion | (k >= 4 ? AGS_SATURATE : 0);
        uint32_t input = conversion < 2 ? b : a;
        uint32_t r = ags_call(&p, dm_i32(m, AGS_CODE(AGS_FLOAT8_CONVERSION, 0, immediate)), input,
                              dm_i32(m, 0));
        store(&p, p.u0, add(&p, base, dm_i32(m, (int32_t)(4 * k))), r);
    }
    return finish(&p, out);
}

/* WMMA_MatrixFill(type, value): phase 0, then the eight dwords from phase-1 calls. */
static void matrix_fill(struct ags_program *p, uint32_t type, uint32_t value, uint32_t m8[8])
{
    struct dxil_module *m = p->m;
    uint32_t zero = dm_i32(m, 0);
    ags_call(p, dm_i32(m, AGS_CODE(AGS_WAVE_MATRIX_FILL, 0, type)), value, zero);
    for (uint32_t k = 0; k < 8; k++)
        m8[k] = ags_call(p, dm_i32(m, AGS_CODE(AGS_WAVE_MATRIX_FILL, 1, MATRIX_IO(k % 4, k / 4))),
                         zero, zero);
}

/* The four phase-0 calls that send a matrix operand, two dwords each. */
static void matrix_inputs(struct ags_program *p, uint32_t opcode, const uint32_t m8[8])
{
    for (uint32_t c = 0; c < 4; c++) {
        uint32_t channel = c % 2, reg = c / 2, first = 2 * channel + 4 * reg;
        ags_call(p, dm_i32(p->m, AGS_CODE(opcode, 0, MATRIX_IO(channel, reg))), m8[first],
                 m8[first + 1]);
    }
}

/* WMMA_Convert / WMMA_ConvertSaturate(in_type, out_type, m). */
static void matrix_copy(struct ags_program *p, uint32_t in_type, uint32_t out_type, bool saturate,
                        const uint32_t m8[8], uint32_t out8[8])
{
    struct dxil_module *m = p->m;
    uint32_t zero = dm_i32(m, 0);
    matrix_inputs(p, AGS_WAVE_MATRIX_COPY, m8);
    ags_call(p, dm_i32(m, AGS_CODE(AGS_WAVE_MATRIX_COPY, 1, in_type)),
             dm_i32(m, (int32_t)out_type), dm_i32(m, saturate));
    for (uint32_t k = 0; k < 8; k++)
        out8[k] = ags_call(p, dm_i32(m, AGS_CODE(AGS_WAVE_MATRIX_COPY, 2, MATRIX_IO(k % 4, k / 4))),
                           zero, zero);
}

/* WMMA_MatrixElementFill(type, m, index, data). */
static void matrix_element_fill(struct ags_program *p, uint32_t type, const uint32_t m8[8],
                                uint32_t index, uint32_t data, uint32_t out8[8])
{
    struct dxil_module *m = p->m;
    uint32_t zero = dm_i32(m, 0);
    matrix_inputs(p, AGS_WAVE_MATRIX_ELEMENT_FILL, m8);
    ags_call(p, dm_i32(m, AGS_CODE(AGS_WAVE_MATRIX_ELEMENT_FILL, 1, type)), index, data);
    for (uint32_t k = 0; k < 8; k++)
        out8[k] = ags_call(p, dm_i32(m, AGS_CODE(AGS_WAVE_MATRIX_ELEMENT_FILL, 2,
                                                 MATRIX_IO(k % 4, k / 4))), zero, zero);
}

/* WMMA_MatrixElementExtract(type, m, index). */
static uint32_t matrix_extract(struct ags_program *p, uint32_t type, const uint32_t m8[8],
                               uint32_t index)
{
    matrix_inputs(p, AGS_WAVE_MATRIX_ELEMENT_EXTRACT, m8);
    return ags_call(p, dm_i32(p->m, AGS_CODE(AGS_WAVE_MATRIX_ELEMENT_EXTRACT, 1, type)), index,
                    dm_i32(p->m, 0));
}

bool dxil_program_ags_wmma(struct tbuf *out)
{
    struct ags_program p = begin();
    struct dxil_module *m = p.m;
    uint32_t v = load(&p, p.u0, mul(&p, p.thread, dm_i32(m, 16)));
    uint32_t filled[8], unsat[8], sat[8], back[8], halves[8], poked[8], results[7];
    matrix_fill(&p, TYPE_F32_ACC, v, filled);
    matrix_copy(&p, TYPE_F32_ACC, TYPE_FP8_ACC, false, filled, unsat);
    matrix_copy(&p, TYPE_F32_ACC, TYPE_FP8_ACC, true, filled, sat);
    results[0] = matrix_extract(&p, TYPE_FP8_ACC, unsat, dm_i32(m, 0));
    results[1] = matrix_extract(&p, TYPE_FP8_ACC, sat, dm_i32(m, 1));
    matrix_copy(&p, TYPE_FP8_ACC, TYPE_F32_ACC, false, sat, back);
    results[2] = matrix_extract(&p, TYPE_F32_ACC, back, dm_i32(m, 5));
    matrix_fill(&p, TYPE_F16_ACC, dm_i32(m, 0x12345678), halves);
    results[3] = matrix_extract(&p, TYPE_F16_ACC, halves, p.thread);
    results[4] = matrix_extract(&p, TYPE_FP8_ACC, unsat, add(&p, p.thread, dm_i32(m, 1)));
    matrix_element_fill(&p, TYPE_F32_ACC, filled, dm_i32(m, 5), p.thread, poked);
    results[5] = matrix_extract(&p, TYPE_F32_ACC, poked, dm_i32(m, 5));
    results[6] = matrix_extract(&p, TYPE_F32_ACC, poked, dm_i32(m, 4));
    uint32_t base = add(&p, mul(&p, p.thread, dm_i32(m, 28)), dm_i32(m, 4 * DXIL_AGS_WMMA_OUT));
    for (uint32_t k = 0; k < 7; k++)
        store(&p, p.u0, add(&p, base, dm_i32(m, (int32_t)(4 * k))), results[k]);
    return finish_sized(&p, DXIL_AGS_WMMA_THREADS, 0, out);
}

/* WMMA_Load(type, u0, offset, stride): the doorbell (phase 0) addresses one u0.Load whose
 * result, the hook, tells phase 1 the buffer; phase 2 returns the eight dwords. */
static void matrix_load(struct ags_program *p, uint32_t type, int32_t offset, int32_t stride,
                        uint32_t out8[8])
{
    struct dxil_module *m = p->m;
    uint32_t zero = dm_i32(m, 0);
    uint32_t doorbell = ags_call(p, dm_i32(m, AGS_CODE(AGS_WAVE_MATRIX_UAV_LOAD, 0, 0)),
                                 dm_i32(m, offset), dm_i32(m, stride));
    uint32_t hook = load(p, p->u0, doorbell);
    ags_call(p, dm_i32(m, AGS_CODE(AGS_WAVE_MATRIX_UAV_LOAD, 1, type)), hook, zero);
    for (uint32_t k = 0; k < 8; k++)
        out8[k] = ags_call(p, dm_i32(m, AGS_CODE(AGS_WAVE_MATRIX_UAV_LOAD, 2,
                                                 MATRIX_IO(k % 4, k / 4))), zero, zero);
}

/* WMMA_Store(type, u0, offset, stride, m): phase 0, the four input calls (phase 1), phase 2
 * with the hook. */
static void matrix_store(struct ags_program *p, uint32_t type, int32_t offset, int32_t stride,
                         const uint32_t m8[8])
{
    struct dxil_module *m = p->m;
    uint32_t doorbell = ags_call(p, dm_i32(m, AGS_CODE(AGS_WAVE_MATRIX_UAV_STORE, 0, 0)),
                                 dm_i32(m, offset), dm_i32(m, stride));
    uint32_t hook = load(p, p->u0, doorbell);
    for (uint32_t c = 0; c < 4; c++) {
        uint32_t channel = c % 2, reg = c / 2, first = 2 * channel + 4 * reg;
        ags_call(p, dm_i32(m, AGS_CODE(AGS_WAVE_MATRIX_UAV_STORE, 1, MATRIX_IO(channel, reg))),
                 m8[first], m8[first + 1]);
    }
    ags_call(p, dm_i32(m, AGS_CODE(AGS_WAVE_MATRIX_UAV_STORE, 2, type)), hook, dm_i32(m, 0));
}

bool dxil_program_ags_memory(struct tbuf *out)
{
    struct ags_program p = begin();
    struct dxil_module *m = p.m;
    uint32_t c[8], a[8], b[8];
    matrix_load(&p, TYPE_F32_ACC, DXIL_AGS_MEMORY_F32_IN, 64, c);
    matrix_store(&p, TYPE_F32_ACC_TRANSPOSED, DXIL_AGS_MEMORY_F32_OUT, 64, c);
    matrix_load(&p, TYPE_F16_A, DXIL_AGS_MEMORY_F16_IN, 32, a);
    matrix_store(&p, TYPE_F16_A_TRANSPOSED, DXIL_AGS_MEMORY_F16_OUT, 32, a);
    matrix_load(&p, TYPE_FP8_B, DXIL_AGS_MEMORY_FP8_IN, 16, b);
    matrix_store(&p, TYPE_FP8_B | 0x80, DXIL_AGS_MEMORY_FP8_OUT, 16, b);
    uint32_t first = matrix_extract(&p, TYPE_F32_ACC, c, dm_i32(m, 0));
    store(&p, p.u0, add(&p, mul(&p, p.thread, dm_i32(m, 4)), dm_i32(m, DXIL_AGS_MEMORY_LANES)),
          first);
    return finish_sized(&p, 32, 32, out);
}

/* WMMA_MatMulAcc(op, a, b, c): the twelve operand calls (register types 1 A, 2 B, 3
 * accumulator in MatrixIO bits 8-15), the opcode (phase 1), the eight results (phase 2). */
static void matrix_mul_acc(struct ags_program *p, uint32_t op, const uint32_t *const abc[3],
                           uint32_t out8[8])
{
    struct dxil_module *m = p->m;
    uint32_t zero = dm_i32(m, 0);
    for (uint32_t r = 0; r < 3; r++)
        for (uint32_t c = 0; c < 4; c++) {
            uint32_t channel = c % 2, reg = c / 2, first = 2 * channel + 4 * reg;
            ags_call(p, dm_i32(m, AGS_CODE(AGS_WAVE_MATRIX_MUL_ACC, 0,
                                           MATRIX_IO(channel, reg) | (r + 1) << 8)),
                     abc[r][first], abc[r][first + 1]);
        }
    ags_call(p, dm_i32(m, AGS_CODE(AGS_WAVE_MATRIX_MUL_ACC, 1, op)), zero, zero);
    for (uint32_t k = 0; k < 8; k++)
        out8[k] = ags_call(p, dm_i32(m, AGS_CODE(AGS_WAVE_MATRIX_MUL_ACC, 2,
                                                 MATRIX_IO(k % 4, k / 4))), zero, zero);
}

bool dxil_program_ags_mul_acc(struct tbuf *out)
{
    struct ags_program p = begin();
    uint32_t a[8], b[8], c[8], a8[8], b8[8], d[8], d8[8];
    matrix_load(&p, TYPE_F16_A, DXIL_AGS_MULACC_A16, 32, a);
    matrix_load(&p, TYPE_F16_B, DXIL_AGS_MULACC_B16, 32, b);
    matrix_load(&p, TYPE_F32_ACC, DXIL_AGS_MULACC_C, 64, c);
    matrix_load(&p, TYPE_FP8_A, DXIL_AGS_MULACC_A8, 16, a8);
    matrix_load(&p, TYPE_FP8_B, DXIL_AGS_MULACC_B8, 16, b8);
    const uint32_t *const f16_operands[3] = { a, b, c }, *const fp8_operands[3] = { a8, b8, c };
    matrix_mul_acc(&p, WMMA_F32_F16, f16_operands, d);
    matrix_mul_acc(&p, WMMA_F32_FP8_FP8, fp8_operands, d8);
    matrix_store(&p, TYPE_F32_ACC, DXIL_AGS_MULACC_D16, 64, d);
    matrix_store(&p, TYPE_F32_ACC, DXIL_AGS_MULACC_D8, 64, d8);
    uint32_t halves[8];
    matrix_copy(&p, TYPE_F32_ACC, TYPE_F16_ACC_TRANSPOSED, false, d, halves);
    matrix_store(&p, TYPE_F16_ACC_TRANSPOSED, DXIL_AGS_MULACC_D16_HALF, 32, halves);
    return finish_sized(&p, 32, 32, out);
}

bool dxil_program_ags_length(struct tbuf *out)
{
    static const uint32_t types[DXIL_AGS_LENGTH_COUNT] = DXIL_AGS_LENGTH_TYPES;
    struct ags_program p = begin();
    struct dxil_module *m = p.m;
    uint32_t zero = dm_i32(m, 0);
    for (uint32_t k = 0; k < DXIL_AGS_LENGTH_COUNT; k++) {
        uint32_t n = ags_call(&p, dm_i32(m, AGS_CODE(AGS_WAVE_MATRIX_LENGTH, 0, types[k])), zero,
                              zero);
        store(&p, p.u0, dm_i32(m, (int32_t)(4 * k)), n);
    }
    return finish_sized(&p, 32, 32, out);
}

bool dxil_program_ags_refusal(struct tbuf *out, enum ags_refusal which)
{
    struct ags_program p = begin();
    struct dxil_module *m = p.m;
    uint32_t zero = dm_i32(m, 0), r = zero;
    switch (which) {
    case AGS_REFUSE_WMMA:
    case AGS_REFUSE_MULACC_OPCODE: {
        /* A whole WMMA_MatMulAcc: F16 x F16 + F32 without [WaveSize(32)], or an I8 one. */
        uint32_t filled[8], product[8];
        matrix_fill(&p, TYPE_F32_ACC, p.thread, filled);
        const uint32_t *const operands[3] = { filled, filled, filled };
        matrix_mul_acc(&p, which == AGS_REFUSE_WMMA ? WMMA_F32_F16 : WMMA_I32_I8, operands,
                       product);
        r = product[0];
        break;
    }
    case AGS_REFUSE_LENGTH_WAVE:
        /* WMMA_MatrixLength(F32 accumulator) in a program without [WaveSize(32)]. */
        r = ags_call(&p, dm_i32(m, AGS_CODE(AGS_WAVE_MATRIX_LENGTH, 0, 0x26)), zero, zero);
        break;
    case AGS_REFUSE_LENGTH_TYPE:
        r = ags_call(&p, dm_i32(m, AGS_CODE(AGS_WAVE_MATRIX_LENGTH, 0, 0x02)), zero, zero);
        store(&p, p.u0, mul(&p, p.thread, dm_i32(m, 4)), r);
        return finish_sized(&p, 32, 32, out);
    case AGS_REFUSE_BAD_MAGIC:
        r = ags_call(&p, dm_i32(m, 0x40000036), p.thread, zero);
        break;
    case AGS_REFUSE_DYNAMIC_CODE:
        r = ags_call(&p, add(&p, p.thread, dm_i32(m, AGS_CODE(AGS_FLOAT8_CONVERSION, 0, 0))),
                     p.thread, zero);
        break;
    case AGS_REFUSE_BUFFER_USE:
        store(&p, p.magic, zero, p.thread);
        break;
    case AGS_REFUSE_WMMA_SEQUENCE:
        r = ags_call(&p, dm_i32(m, AGS_CODE(AGS_WAVE_MATRIX_COPY, 2, MATRIX_IO(0, 0))), zero, zero);
        break;
    case AGS_REFUSE_WMMA_KIND: {
        uint32_t filled[8], copied[8];
        matrix_fill(&p, TYPE_F16_ACC, p.thread, filled);
        matrix_copy(&p, TYPE_F16_ACC, TYPE_F16_A, false, filled, copied);
        r = copied[0];
        break;
    }
    case AGS_REFUSE_BAD_CONVERSION:
        r = ags_call(&p, dm_i32(m, AGS_CODE(AGS_FLOAT8_CONVERSION, 0, 4)), p.thread, zero);
        break;
    }
    store(&p, p.u0, mul(&p, p.thread, dm_i32(m, 4)), r);
    return finish(&p, out);
}
