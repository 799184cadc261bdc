/* SPDX-License-Identifier: MIT */
/*
 * AMD AGS shader intrinsics (../shared/docs/dxil.md §5.4). AGS has no DXIL
 * operation of its own: the HLSL helpers write each intrinsic as
 * atomicCompareExchange calls on a raw UAV declared in register space
 * 0x7FFF0ADE, whose constant byte offset is a code word
 *
 *   bits 28-31 magic 5 | bits 24-25 phase | bits 8-23 immediate | bits 0-7 opcode
 *
 * and whose compare / new values carry the operands; the call's result is
 * the intrinsic's. This file decodes each such call and lowers what it
 * understands to plain IR; anything else refuses with the opcode's name, so
 * an intrinsic is never dropped. The magic UAV itself is no resource of the
 * translated program: dxil_front_ags_finish removes its declaration and
 * refuses a program that touched it any other way.
 *
 * Translated: Float8Conversion (opcode 0x36), one call, immediate bits 0-7 the
 * conversion (0 FP8->F32, 1 BF8->F32, 2 F32->FP8, 3 F32->BF8), bit 8 saturate,
 * compare value the input, new value 0. FP8 is OCP E4M3 (bias 7, no
 * infinity, S.1111.111 the only NaN, largest 448), BF8 is OCP E5M2 (bias 15,
 * IEEE infinities and NaNs, largest 57344), as SPV_EXT_float8's encodings that
 * AMD's own lowering (dxil-spirv) maps the intrinsic to. Narrowing rounds to
 * nearest even; out of range (after rounding) gives NaN (E4M3) or infinity
 * (E5M2), or with saturate the largest finite value of the sign, which is
 * also what saturate makes of an infinity; NaN stays NaN (E4M3 S.1111.111,
 * E5M2 S.11111.10). This agrees with vkd3d-proton's reference model of RDNA4
 * on the 512 inputs of its float8 test (F32 -> FP8 and -> BF8, both modes),
 * except that the model sends E4M3 inputs in (464, 465) to 448 where OCP
 * rounding overflows to NaN (the test samples none there). Widening is exact
 * (saturate changes nothing); an E5M2 NaN becomes the quiet f32 NaN with its
 * two payload bits on top. Only the low
 * byte of a float8 input counts. Everything is integer arithmetic on the bit
 * patterns (plus an exact UTOF of a 2-3 bit integer), so GPU and interpreter
 * agree bit for bit and no float8 type is needed.
 *
 * WaveMatrixLength (0x31, one call, immediate the matrix type): a constant of
 * the wave32 16x16 layout (wave_matrix_length), in [WaveSize(32)] programs.
 *
 * WaveMatrixFill, WaveMatrixElementFill, WaveMatrixElementExtract and
 * WaveMatrixCopy (0x33, 0x2f, 0x30, 0x32): per lane, in ir_from_dxil_wmma.c;
 * WaveMatrixUavLoad/UavStore/LdsLoad/LdsStore (0x29, 0x2a, 0x2d, 0x2e) in the
 * wave32 layout, in ir_from_dxil_wmma_memory.c; WaveMatrixMulAcc (0x28, F32
 * accumulator of F16 or FP8 products) in ir_from_dxil_wmma_mulacc.c.
 *
 * Not translated (refused by name): the other wave-matrix (WMMA) intrinsics
 * (0x2b/0x2c global-memory loads and stores) and the others AGS defines.
 */
#include "ir_from_dxil_private.h"
#include "translator/dxil_opcodes.h"

/* The AGS code word (§5.4). */
#define AGS_MAGIC_SPACE 0x7FFF0ADEu
#define AGS_MAGIC 0x5u
#define AGS_OPCODE(code) ((code) & 0xFFu)
#define AGS_PHASE(code) (((code) >> 24) & 0x3u)
#define AGS_IMMEDIATE(code) (((code) >> 8) & 0xFFFFu)
#define AGS_MAGIC_OF(code) ((code) >> 28)

enum { AGS_OP_WAVE_MATRIX_LENGTH = 0x31, AGS_OP_FLOAT8_CONVERSION = 0x36 };

/* A wave-matrix type code (WMMA_MakeType): format bits 0-3, matrix type bits 4-6,
 * transposed bit 7, shape bits 8-10, tile bit 11, index memory bits 14-15. */
#define WMMA_FORMAT(type) ((type) & 0xFu)
#define WMMA_MATRIX(type) (((type) >> 4) & 0x7u)
#define WMMA_REST(type) ((type) & ~0xFFu) /* shape, tile, index memory: 0 = 16x16 plain */
enum { WMMA_F16 = 4, WMMA_F32 = 6, WMMA_FP8 = 0xA };
enum { WMMA_A = 0, WMMA_B = 1, WMMA_ACCUMULATOR = 2 };
/* The wave size the wave-matrix layout is defined for (RDNA4's wave32). */
#define WMMA_WAVE_SIZE 32u
enum { CVT_FP8_TO_F32 = 0, CVT_BF8_TO_F32 = 1, CVT_F32_TO_FP8 = 2, CVT_F32_TO_BF8 = 3 };
#define CVT_SATURATE 0x100u

/* atomicCompareExchange(handle, offset0, offset1, offset2, compare, new) arguments. */
enum { ARG_HANDLE = 1, ARG_CODE = 2, ARG_COMPARE = 5, ARG_NEW = 6 };

static const char *const opcode_names[] = {
    [0x28] = "WaveMatrixMulAcc", [0x29] = "WaveMatrixUavLoad", [0x2a] = "WaveMatrixUavStore",
    [0x2b] = "WaveMatrixGlobalLoad", [0x2c] = "WaveMatrixGlobalStore",
    [0x2d] = "WaveMatrixLdsLoad", [0x2e] = "WaveMatrixLdsStore",
    [0x2f] = "WaveMatrixElementFill", [0x30] = "WaveMatrixElementExtract",
    [0x31] = "WaveMatrixLength", [0x32] = "WaveMatrixCopy", [0x33] = "WaveMatrixFill",
    [0x36] = "Float8Conversion",
};

static const char *opcode_name(uint32_t opcode)
{
    const char *name = opcode < sizeof(opcode_names) / sizeof(opcode_names[0])
                           ? opcode_names[opcode] : NULL;
    return name ? name : "an AGS intrinsic";
}

bool dxil_front_ags_space(uint32_t space)
{
    return space == AGS_MAGIC_SPACE;
}

/* The program resource of the handle value in argument i when it is a bound,
 * non-heap handle; DXIL_FRONT_NONE otherwise (without failing). */
static uint32_t handle_resource(struct dxil_front *f, const struct sb_bc_instruction *in,
                                uint32_t i)
{
    const struct sb_bc_function *fn = f->function;
    if (i + 1 >= in->operand_count || !f->handles)
        return DXIL_FRONT_NONE;
    uint32_t value = in->operands[i + 1];
    if (value < fn->first_value || value - fn->first_value >= fn->value_count)
        return DXIL_FRONT_NONE;
    const struct dxil_front_handle *h = &f->handles[value - fn->first_value];
    if (!h->defined || h->heap != DXIL_FRONT_NOT_HEAP ||
        h->resource >= f->program->resource_count)
        return DXIL_FRONT_NONE;
    return h->resource;
}

bool dxil_front_ags_claims(struct dxil_front *f, const struct sb_bc_instruction *in,
                           uint64_t opcode)
{
    if (opcode != SB_DXIL_OP_ATOMIC_COMPARE_EXCHANGE)
        return false;
    uint32_t r = handle_resource(f, in, ARG_HANDLE);
    return r != DXIL_FRONT_NONE && dxil_front_ags_space(f->program->resources[r].space);
}

static bool float8_conversion(struct dxil_front *f, const struct sb_bc_instruction *in,
                              uint32_t immediate)
{
    uint64_t new_value = 1;
    uint32_t input = 0, temp = 0;
    uint32_t conversion = immediate & 0xFFu;
    if (conversion > CVT_F32_TO_BF8 || (immediate & ~(CVT_SATURATE | 0xFFu)))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "AGS Float8Conversion with immediate 0x%x (conversions 0-3 and "
                               "the saturate bit 0x100 are known)", immediate);
    if (!dxil_front_const_arg(f, in, ARG_NEW, &new_value) || new_value != 0)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "AGS Float8Conversion whose second operand is not the constant 0");
    struct sb_ir_operand x;
    if (!dxil_front_arg(f, in, ARG_COMPARE, &input) || !dxil_front_src(f, input, 0, &x) ||
        !dxil_front_result_temp(f, in, 1, &temp))
        return false;
    bool saturate = (immediate & CVT_SATURATE) != 0;
    struct sb_ir_operand result;
    switch (conversion) {
    case CVT_FP8_TO_F32: result = dxil_front_float8_widen(f, x, DXIL_FLOAT8_E4M3); break;
    case CVT_BF8_TO_F32: result = dxil_front_float8_widen(f, x, DXIL_FLOAT8_E5M2); break;
    case CVT_F32_TO_FP8:
        result = dxil_front_float8_narrow(f, x, DXIL_FLOAT8_E4M3, saturate, false);
        break;
    default: result = dxil_front_float8_narrow(f, x, DXIL_FLOAT8_E5M2, saturate, false); break;
    }
    return !f->failed && dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(temp, 0x1),
                                          &result, 1);
}

/* WaveMatrixLength(type): the dwords one lane holds of a 16x16 matrix in the wave32 layout
 * (RDNA4: 256 elements over 32 lanes, f16/f32 one element per dword, FP8 four per dword),
 * so 8 for F16 A/B/accumulator and F32 accumulator, 2 for FP8; transposition does not
 * change it. The count is a property of the layout for the declared wave size, which
 * must be 32 ([WaveSize(32)]); other types and shapes refuse. */
static bool wave_matrix_length(struct dxil_front *f, const struct sb_bc_instruction *in,
                               uint32_t type)
{
    uint32_t format = WMMA_FORMAT(type), matrix = WMMA_MATRIX(type), temp = 0;
    const struct sb_dxil_entry_point *e = f->entry;
    if (e->wave_size_min != WMMA_WAVE_SIZE || e->wave_size_max != WMMA_WAVE_SIZE)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "AMD AGS WaveMatrixLength in a program without [WaveSize(32)] "
                               "(wave sizes %u..%u): the layout is wave32's", e->wave_size_min,
                               e->wave_size_max);
    uint32_t length = 0;
    if (WMMA_REST(type) == 0 && matrix <= WMMA_ACCUMULATOR) {
        if (format == WMMA_F16 || (format == WMMA_F32 && matrix == WMMA_ACCUMULATOR))
            length = 8;
        else if (format == WMMA_FP8)
            length = 2;
    }
    if (length == 0)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "AMD AGS WaveMatrixLength of matrix type 0x%x (16x16 F16 A/B/"
                               "accumulator, F32 accumulator and FP8 A/B/accumulator are known)",
                               type);
    if (!dxil_front_result_temp(f, in, 1, &temp))
        return false;
    struct sb_ir_operand value = dxil_front_imm(length);
    return dxil_front_emit1(f, SB_IR_OP_MOV, dxil_front_temp_dst(temp, 0x1), &value, 1);
}

bool dxil_front_ags_call(struct dxil_front *f, const struct sb_bc_instruction *in)
{
    uint64_t code = 0;
    uint32_t code_value = 0;
    if (!dxil_front_arg(f, in, ARG_CODE, &code_value))
        return false;
    if (!dxil_front_const_int(f, code_value, &code))
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "an access to the AMD AGS magic UAV at a computed offset");
    uint32_t word = (uint32_t)code;
    if (code > UINT32_MAX || AGS_MAGIC_OF(word) != AGS_MAGIC)
        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                               "an AMD AGS call with code 0x%llx (no magic 5 in bits 28-31)",
                               (unsigned long long)code);
    uint32_t opcode = AGS_OPCODE(word);
    if (opcode == AGS_OP_FLOAT8_CONVERSION && AGS_PHASE(word) == 0)
        return float8_conversion(f, in, AGS_IMMEDIATE(word));
    if (opcode == AGS_OP_WAVE_MATRIX_LENGTH && AGS_PHASE(word) == 0)
        return wave_matrix_length(f, in, AGS_IMMEDIATE(word));
    if (dxil_front_wmma_claims(opcode))
        return dxil_front_wmma_call(f, in, opcode, AGS_PHASE(word), AGS_IMMEDIATE(word));
    return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                           "AMD AGS intrinsic %s (opcode 0x%x, phase %u) is not translated",
                           opcode_name(opcode), opcode, AGS_PHASE(word));
}

/* Whether operand `op` names program resource `r` (its u#, either form). */
static bool names_resource(const struct sb_ir_operand *op, const struct sb_ir_resource *r)
{
    return op->file == SB_IR_FILE_UAV && op->index_count >= 1 && op->index[0].offset == r->id;
}

bool dxil_front_ags_finish(struct dxil_front *f)
{
    struct sb_ir_program *p = f->program;
    for (uint32_t i = 0; i < p->resource_count; i++) {
        const struct sb_ir_resource *r = &p->resources[i];
        if (r->resource_class != SB_IR_RESOURCE_UAV || !dxil_front_ags_space(r->space))
            continue;
        /* Every AGS call became plain IR: an instruction still naming the UAV used it as
         * a buffer, which the driver would have read as an intrinsic. */
        for (uint32_t fi = 0; fi < p->function_count; fi++) {
            const struct sb_ir_function *fn = &p->functions[fi];
            for (uint32_t k = 0; k < fn->instruction_count; k++) {
                const struct sb_ir_instruction *ins = &fn->instructions[k];
                for (uint32_t o = 0; o < ins->dst_count + ins->src_count; o++) {
                    const struct sb_ir_operand *op =
                        o < ins->dst_count ? &ins->dst[o] : &ins->src[o - ins->dst_count];
                    if (names_resource(op, r))
                        return dxil_front_fail(f, SB_ERROR_TRANSLATE_UNSUPPORTED,
                                               "the AMD AGS magic UAV '%s' used by an operation "
                                               "other than an AGS intrinsic", r->name);
                }
            }
        }
        /* The declarations live in the arena: the list without this one is a new copy. */
        struct sb_ir_resource *kept =
            dxil_front_alloc(f, p->resource_count > 1 ? p->resource_count - 1 : 1, sizeof(*kept));
        if (!kept)
            return false;
        memcpy(kept, p->resources, i * sizeof(*kept));
        memcpy(kept + i, p->resources + i + 1, (p->resource_count - i - 1) * sizeof(*kept));
        p->resources = kept;
        p->resource_count--;
        i--;
    }
    return true;
}
