/* SPDX-License-Identifier: MIT */
/*
 * Tests of the dx.op table (translator/dxil_ops.h, generated from
 * ../shared/docs/dxil.md §3.4/§3.6 by tools/gen_dxil_ops.py) and its lookups.
 * Every expected value below was read off the doc by hand, not from the
 * generated file, so a generator that misreads a column fails here.
 *
 *   test_dxil_ops spot       62 opcodes across every section of §3.6
 *   test_dxil_ops counts     opcodes per minimum shader model (§3.3's version ranges)
 *   test_dxil_ops classes    every class and every opcode's overloads through the name parser
 *   test_dxil_ops overloads  every overload suffix, scalar and vector
 *   test_dxil_ops negative   names and numbers that must be refused, with code and offset
 *   test_dxil_ops available  minimum SM and stages per shader kind
 *   test_dxil_ops corpus     the corpus's dx.op calls, listed on stdin by corpus_dx_op_calls.py
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "translator/dxil_ops.h"

/* The §3.6 legend's overload letters, decoded independently of the generator. */
static uint32_t letters(const char *text)
{
    static const char legend[] = "hfd18wiluo";
    uint32_t mask = 0;
    for (; *text; text++) {
        const char *at = strchr(legend, *text);
        if (!at) {
            fprintf(stderr, "bad overload letter %c in the test\n", *text);
            exit(2);
        }
        mask |= 1u << (at - legend);
    }
    return mask;
}

#define S(x) SB_DXIL_STAGE_##x
#define COMPUTE_LIKE (S(CS) | S(MS) | S(AS) | S(NODE))
#define DERIVATIVES (S(PS) | S(CS) | S(AS) | S(MS) | S(NODE))
#define RAY_SER (S(RG) | S(CH) | S(MI))

struct spot {
    uint32_t opcode;
    const char *name, *op_class;
    uint8_t operands;
    enum sb_dxil_type returns;
    const char *scalar, *vector; /* legend letters */
    uint8_t sm_minor;            /* all are 6.x */
    bool vector_only;
    enum sb_dxil_early early;
    uint32_t stages;
    uint32_t immediates;         /* bit i: operand i (after the opcode) has `!` */
};

#define T(x) SB_DXIL_TYPE_##x
#define E(x) SB_DXIL_EARLY_##x
static const struct spot spots[] = {
    { 4, "LoadInput", "loadInput", 4, T(OVERLOAD), "hfwi", "", 0, false, E(REQUIRED), S(ALL), 0 },
    { 5, "StoreOutput", "storeOutput", 4, T(VOID), "hfwi", "", 0, false, E(REQUIRED), S(ALL), 0 },
    { 137, "AttributeAtVertex", "attributeAtVertex", 4, T(OVERLOAD), "hfiw", "", 1, false, E(REQUIRED), S(PS), 0 },
    { 171, "StoreVertexOutput", "storeVertexOutput", 5, T(VOID), "hfwi", "", 5, false, E(NONE), S(MS), 0 },
    { 93, "ThreadId", "threadId", 1, T(OVERLOAD), "i", "", 0, false, E(REQUIRED), COMPUTE_LIKE, 0 },
    { 105, "DomainLocation", "domainLocation", 1, T(OVERLOAD), "f", "", 0, false, E(REQUIRED), S(DS), 0x1 },
    { 221, "IsHelperLane", "isHelperLane", 0, T(OVERLOAD), "1", "", 6, false, E(NONE), S(ALL), 0 },
    { 257, "StartInstanceLocation", "startInstanceLocation", 0, T(OVERLOAD), "i", "", 8, false, E(NONE), S(VS), 0 },
    { 6, "FAbs", "unary", 1, T(OVERLOAD), "hfd", "hfd", 0, false, E(REQUIRED), S(ALL), 0 },
    { 8, "IsNaN", "isSpecialFloat", 1, T(I1_OR_VECTOR), "hf", "hf", 0, false, E(REQUIRED), S(ALL), 0 },
    { 47, "Fma", "tertiary", 3, T(OVERLOAD), "d", "d", 0, false, E(REQUIRED), S(ALL), 0 },
    { 56, "Dot4", "dot4", 8, T(OVERLOAD), "hf", "", 0, false, E(REQUIRED), S(ALL), 0 },
    { 162, "Dot2AddHalf", "dot2AddHalf", 5, T(OVERLOAD), "f", "", 4, false, E(NONE), S(ALL), 0 },
    { 311, "FDot", "dot", 2, T(ELEMENT), "", "hf", 9, true, E(NONE), S(ALL), 0 },
    { 31, "Countbits", "unaryBits", 1, T(I32_OR_VECTOR), "wil", "wil", 0, false, E(REQUIRED), S(ALL), 0 },
    { 41, "IMul", "binaryWithTwoOuts", 2, T(TWO_I32), "i", "", 0, false, E(CONVERTER), S(ALL), 0 },
    { 44, "UAddc", "binaryWithCarryOrBorrow", 2, T(I32_WITH_CARRY), "i", "", 0, false, E(REQUIRED), S(ALL), 0 },
    { 53, "Bfi", "quaternary", 4, T(OVERLOAD), "i", "", 0, false, E(REQUIRED), S(ALL), 0 },
    { 219, "Unpack4x8", "unpack4x8", 2, T(FOUR_I32_OR_I16), "iw", "", 6, false, E(NONE), S(ALL), 0 },
    { 309, "VectorReduceAnd", "vectorReduce", 1, T(ELEMENT), "", "18wil", 9, true, E(NONE), S(ALL), 0 },
    { 101, "MakeDouble", "makeDouble", 2, T(OVERLOAD), "d", "", 0, false, E(REQUIRED), S(ALL), 0 },
    { 124, "BitcastI16toF16", "bitcastI16toF16", 1, T(F16), "", "", 0, false, E(CONVERTER), S(ALL), 0 },
    { 131, "LegacyF16ToF32", "legacyF16ToF32", 1, T(F32), "", "", 0, false, E(REQUIRED), S(ALL), 0 },
    { 57, "CreateHandle", "createHandle", 4, T(HANDLE), "", "", 0, false, E(REQUIRED), S(ALL), 0xB },
    { 160, "CreateHandleForLib", "createHandleForLib", 1, T(HANDLE), "o", "", 3, false, E(NONE), S(ALL), 0 },
    { 216, "AnnotateHandle", "annotateHandle", 2, T(HANDLE), "", "", 6, false, E(NONE), S(ALL), 0x2 },
    { 217, "CreateHandleFromBinding", "createHandleFromBinding", 3, T(HANDLE), "", "", 6, false, E(NONE), S(ALL), 0x5 },
    { 218, "CreateHandleFromHeap", "createHandleFromHeap", 3, T(HANDLE), "", "", 6, false, E(NONE), S(ALL), 0x6 },
    { 58, "CBufferLoad", "cbufferLoad", 3, T(OVERLOAD), "hfd8wil", "", 0, false, E(FLAG), S(ALL), 0x4 },
    { 59, "CBufferLoadLegacy", "cbufferLoadLegacy", 2, T(CBUF_RET), "hfdwil", "", 0, false, E(REQUIRED), S(ALL), 0 },
    { 60, "Sample", "sample", 10, T(RES_RET), "hfwi", "", 0, false, E(REQUIRED), DERIVATIVES, 0 },
    { 63, "SampleGrad", "sampleGrad", 16, T(RES_RET), "hfwi", "", 0, false, E(REQUIRED), S(ALL), 0 },
    { 254, "SampleCmpGrad", "sampleCmpGrad", 17, T(RES_RET), "hf", "", 8, false, E(NONE), S(ALL), 0 },
    { 73, "TextureGather", "textureGather", 9, T(RES_RET), "hfwi", "", 0, false, E(REQUIRED), S(ALL), 0 },
    { 223, "TextureGatherRaw", "textureGatherRaw", 8, T(RES_RET), "wil", "", 7, false, E(NONE), S(ALL), 0 },
    { 81, "CalculateLOD", "calculateLOD", 6, T(F32), "f", "", 0, false, E(REQUIRED), DERIVATIVES, 0 },
    { 66, "TextureLoad", "textureLoad", 8, T(RES_RET), "hfwi", "", 0, false, E(REQUIRED), S(ALL), 0 },
    { 225, "TextureStoreSample", "textureStoreSample", 10, T(VOID), "hfwi", "", 7, false, E(NONE), S(ALL), 0x100 },
    { 139, "RawBufferLoad", "rawBufferLoad", 5, T(RES_RET), "hfwidl", "", 2, false, E(REQUIRED), S(ALL), 0x18 },
    { 304, "RawBufferVectorStore", "rawBufferVectorStore", 5, T(VOID), "hfwidl", "hfwidl", 9, false, E(NONE), S(ALL), 0x10 },
    { 70, "BufferUpdateCounter", "bufferUpdateCounter", 2, T(I32), "", "", 0, false, E(REQUIRED), S(ALL), 0 },
    { 72, "GetDimensions", "getDimensions", 2, T(DIMENSIONS), "", "", 0, false, E(REQUIRED), S(ALL), 0 },
    { 78, "AtomicBinOp", "atomicBinOp", 6, T(OVERLOAD), "li", "", 0, false, E(REQUIRED), S(ALL), 0 },
    { 80, "Barrier", "barrier", 1, T(VOID), "", "", 0, false, E(REQUIRED), S(ALL), 0x1 },
    { 244, "BarrierByMemoryType", "barrierByMemoryType", 2, T(VOID), "", "", 8, false, E(NONE), S(ALL), 0x3 },
    { 82, "Discard", "discard", 1, T(VOID), "", "", 0, false, E(REQUIRED), S(PS), 0 },
    { 84, "DerivCoarseY", "unary", 1, T(OVERLOAD), "hf", "hf", 0, false, E(REQUIRED), DERIVATIVES, 0 },
    { 97, "EmitStream", "emitStream", 1, T(VOID), "", "", 0, false, E(REQUIRED), S(GS), 0 },
    { 119, "WaveActiveOp", "waveActiveOp", 3, T(OVERLOAD), "hfd18wil", "hfd18wil", 0, false, E(REQUIRED), S(ALL), 0x6 },
    { 136, "WavePrefixBitCount", "wavePrefixOp", 1, T(I32), "", "", 0, false, E(REQUIRED), S(ALL), 0 },
    { 166, "WaveMultiPrefixOp", "waveMultiPrefixOp", 7, T(OVERLOAD), "hfd8wil", "hfd8wil", 5, false, E(NONE), S(ALL), 0x60 },
    { 222, "QuadVote", "quadVote", 2, T(I1_OR_VECTOR), "1", "", 7, false, E(NONE), DERIVATIVES, 0x2 },
    { 157, "TraceRay", "traceRay", 15, T(VOID), "u", "", 3, false, E(NONE), RAY_SER, 0 },
    { 178, "AllocateRayQuery", "allocateRayQuery", 1, T(I32), "", "", 5, false, E(NONE), S(ALL), 0x1 },
    { 186, "RayQuery_CandidateObjectToWorld3x4", "rayQuery_StateMatrix", 3, T(OVERLOAD), "f", "", 5, false, E(NONE), S(ALL), 0 },
    { 170, "GetMeshPayload", "getMeshPayload", 0, T(OVERLOAD), "u", "", 5, false, E(NONE), S(MS), 0 },
    { 238, "AllocateNodeOutputRecords", "allocateNodeOutputRecords", 3, T(RECORD_HANDLE), "", "", 8, false, E(NONE), S(NODE), 0x4 },
    { 279, "HitObject_ObjectToWorld3x4", "hitObject_StateMatrix", 3, T(OVERLOAD), "f", "", 9, false, E(NONE), RAY_SER, 0x6 },
    { 0, "TempRegLoad", "tempRegLoad", 1, T(OVERLOAD), "hfwi", "", 0, false, E(CONVERTER), S(ALL), 0 },
    { 109, "CycleCounterLegacy", "cycleCounterLegacy", 0, T(TWO_I32), "", "", 0, false, E(CONVERTER), S(ALL), 0 },
    { 0x80000007u, "TriangleObjectPosition", "triangleObjectPosition", 0, T(VEC9_OVERLOAD), "f", "", 10, false, E(NONE), S(AH) | S(CH), 0 },
    { 0x80000022u, "IsDebuggingEnabled", "isDebuggingEnabled", 0, T(I1), "", "", 10, false, E(NONE), S(ALL), 0 },
};

/* Operand names and types at a few positions, as the doc spells them. */
static const struct {
    uint32_t opcode, index;
    const char *name;
    enum sb_dxil_type type;
} operand_spots[] = {
    { 57, 0, "resourceClass", T(I8) },   { 57, 3, "nonUniformIndex", T(I1) },
    { 60, 9, "clamp", T(F32) },          { 139, 3, "mask", T(I8) },
    { 2, 0, "regIndex", T(F32_PTR) },    { 157, 14, "payload", T(UDT_PTR) },
    { 217, 0, "bind", T(RES_BIND) },     { 216, 1, "props", T(RES_PROPS) },
    { 249, 1, "props", T(NODE_INFO) },   { 267, 0, "hitObject", T(HIT_OBJECT) },
    { 4, 3, "gsVertexAxis", T(I32) },    { 162, 1, "ax", T(F16) },
};

/* Bit i set when operand i of `op` must be an immediate (`!`). */
static uint32_t immediate_mask(const struct sb_dxil_op_info *op)
{
    uint32_t mask = 0;
    for (uint32_t i = 0; i < op->operand_count && i < 32; i++)
        mask |= sb_dxil_op_operand(op, i)->immediate ? 1u << i : 0;
    return mask;
}

static int run_spot(void)
{
    for (size_t i = 0; i < sizeof spots / sizeof spots[0]; i++) {
        const struct spot *want = &spots[i];
        const struct sb_dxil_op_info *op = sb_dxil_op_lookup(want->opcode);
        CHECK(op != NULL, "opcode %#x has no row", want->opcode);
        if (!op)
            continue;
        CHECK(op->opcode == want->opcode, "%s: opcode %#x", want->name, op->opcode);
        CHECK(strcmp(op->name, want->name) == 0, "%#x: name %s, want %s", want->opcode, op->name,
              want->name);
        CHECK(strcmp(sb_dxil_op_classes[op->op_class].name, want->op_class) == 0,
              "%s: class %s, want %s", want->name, sb_dxil_op_classes[op->op_class].name,
              want->op_class);
        CHECK(op->operand_count == want->operands, "%s: %u operands, want %u", want->name,
              op->operand_count, want->operands);
        CHECK(op->returns == want->returns, "%s: returns %d, want %d", want->name, op->returns,
              want->returns);
        CHECK(op->overloads == letters(want->scalar), "%s: overloads %#x, want %#x (%s)",
              want->name, op->overloads, letters(want->scalar), want->scalar);
        CHECK(op->vector_overloads == letters(want->vector), "%s: vector overloads %#x, want %s",
              want->name, op->vector_overloads, want->vector);
        CHECK(op->sm_major == 6 && op->sm_minor == want->sm_minor, "%s: SM %u.%u, want 6.%u",
              want->name, op->sm_major, op->sm_minor, want->sm_minor);
        CHECK(op->sm_vector_only == want->vector_only, "%s: vector-only flag", want->name);
        CHECK(op->early == want->early, "%s: 6.0-6.2 column %d, want %d", want->name, op->early,
              want->early);
        CHECK(op->stages == want->stages, "%s: stages %#x, want %#x", want->name, op->stages,
              want->stages);
        uint32_t immediates = immediate_mask(op);
        CHECK(immediates == want->immediates, "%s: immediate operands %#x, want %#x", want->name,
              immediates, want->immediates);
        CHECK(sb_dxil_op_operand(op, op->operand_count) == NULL, "%s: operand past the end",
              want->name);
    }
    for (size_t i = 0; i < sizeof operand_spots / sizeof operand_spots[0]; i++) {
        const struct sb_dxil_op_operand *operand =
            sb_dxil_op_operand(sb_dxil_op_lookup(operand_spots[i].opcode), operand_spots[i].index);
        CHECK(operand && strcmp(operand->name, operand_spots[i].name) == 0 &&
                  operand->type == operand_spots[i].type,
              "opcode %u operand %u: want %s", operand_spots[i].opcode, operand_spots[i].index,
              operand_spots[i].name);
    }
    /* Type names: every type has one, spelled as the legend. */
    for (int t = 0; t < SB_DXIL_TYPE_COUNT; t++)
        CHECK(sb_dxil_type_name((enum sb_dxil_type)t) != NULL, "type %d has no name", t);
    CHECK(strcmp(sb_dxil_type_name(T(RES_RET)), "ResRet(T)") == 0 &&
              strcmp(sb_dxil_type_name(T(I8)), "i8") == 0 &&
              strcmp(sb_dxil_type_name(T(I1_OR_VECTOR)), "i1\u2020") == 0 &&
              strcmp(sb_dxil_type_name(T(FOUR_I32_OR_I16)), "fouri32/fouri16") == 0 &&
              sb_dxil_type_name(SB_DXIL_TYPE_COUNT) == NULL,
          "type names");
    /* The enum constants name the same numbers. */
    CHECK(SB_DXIL_OP_THREAD_ID == 93 && SB_DXIL_OP_CREATE_HANDLE_FROM_HEAP == 218 &&
              SB_DXIL_OP_GS_INSTANCE_ID == 100 && SB_DXIL_OP_TEXTURE2DMS_GET_SAMPLE_POSITION == 75 &&
              SB_DXIL_OP_IS_DEBUGGING_ENABLED == 0x80000022u,
          "opcode enum constants");
    printf("dxil_ops spot: %zu opcodes, %u checks, %u failures\n", sizeof spots / sizeof spots[0],
           checks, failures);
    return failures ? 1 : 0;
}

static int run_counts(void)
{
    /* §3.3: ops per DXIL version 1.0 -> 0-136, 1.1 -> 138, 1.2 -> 140, 1.3 -> 161, 1.4 -> 164,
     * 1.5 -> 215, 1.6 -> 221, 1.7 -> 225, 1.8 -> 257 (226-237 reserved), 1.9 -> 311
     * (259-261, 290-302, 305-308 reserved); DXIL 1.x is SM 6.x. The three ‡ rows (FDot,
     * VectorReduceAnd/Or) count at 6.9. 13 experimental rows are SM 6.10. */
    static const uint32_t want[11] = { 137, 2, 2, 21, 3, 51, 6, 4, 32 - 12, 54 - 3 - 13 - 4, 13 };
    uint32_t got[11] = { 0 }, listed = 0, reserved = 0;
    for (uint32_t opcode = 0; opcode < SB_DXIL_CORE_OP_COUNT; opcode++) {
        const struct sb_dxil_op_info *op = sb_dxil_op_lookup(opcode);
        if (!op) {
            reserved++;
            continue;
        }
        listed++;
        CHECK(op->sm_major == 6 && op->sm_minor <= 10, "%s: SM %u.%u", op->name, op->sm_major,
              op->sm_minor);
        if (op->sm_major == 6 && op->sm_minor <= 10)
            got[op->sm_minor]++;
    }
    for (uint32_t index = 0; index < SB_DXIL_EXPERIMENTAL_OP_COUNT; index++) {
        const struct sb_dxil_op_info *op = sb_dxil_op_lookup(0x80000000u | index);
        if (op) {
            listed++;
            CHECK(op->sm_major == 6 && op->sm_minor == 10, "%s: experimental SM", op->name);
            got[10]++;
        }
    }
    for (int minor = 0; minor <= 10; minor++)
        CHECK(got[minor] == want[minor], "SM 6.%d: %u opcodes, want %u", minor, got[minor],
              want[minor]);
    CHECK(SB_DXIL_CORE_OP_COUNT == 312, "core table size %u, want 312", SB_DXIL_CORE_OP_COUNT);
    CHECK(reserved == 12 + 3 + 13 + 4, "reserved core numbers %u, want 32", reserved);
    CHECK(listed == SB_DXIL_LISTED_OP_COUNT && listed == 280 + 13, "listed %u, want 293", listed);
    /* 0x8000000B-0x8000001F and 0x80000020 are left out by the doc. */
    CHECK(sb_dxil_op_lookup(0x8000000Au) != NULL && sb_dxil_op_lookup(0x8000000Bu) == NULL &&
              sb_dxil_op_lookup(0x80000020u) == NULL && sb_dxil_op_lookup(0x80000021u) != NULL,
          "experimental gaps");
    printf("dxil_ops counts: %u listed, %u reserved, %u failures\n", listed, reserved, failures);
    return failures ? 1 : 0;
}

/* Parses `name` and expects success with class `op_class`. */
static void expect_parse(const char *name, enum sb_dxil_op_class op_class,
                         struct sb_dxil_op_name *out)
{
    struct sb_error error = { 0 };
    enum sb_result result = sb_dxil_op_name_parse(name, strlen(name), out, &error);
    CHECK(result == SB_SUCCESS, "%s: %s", name, error.message);
    CHECK(result != SB_SUCCESS || out->op_class == op_class, "%s: class %d, want %d", name,
          out->op_class, op_class);
}

static int run_classes(void)
{
    char name[160];
    struct sb_dxil_op_name parsed;
    /* Every class: through sb_dxil_op_class_find and, with one suffix it has, the parser. */
    for (int c = 0; c < SB_DXIL_CLASS_COUNT; c++) {
        const struct sb_dxil_op_class_info *info = &sb_dxil_op_classes[c];
        enum sb_dxil_op_class found = SB_DXIL_CLASS_COUNT;
        CHECK(sb_dxil_op_class_find(info->name, strlen(info->name), &found) && (int)found == c,
              "class %s not found", info->name);
        CHECK(c == 0 || strcmp(sb_dxil_op_classes[c - 1].name, info->name) < 0,
              "classes not sorted at %s", info->name);
        uint32_t scalar = info->overloads & ~(SB_DXIL_OVERLOAD_UDT | SB_DXIL_OVERLOAD_OBJECT);
        if (info->has_void)
            snprintf(name, sizeof name, "dx.op.%s", info->name);
        else if (scalar)
            snprintf(name, sizeof name, "dx.op.%s.%s", info->name,
                     sb_dxil_overload_name(scalar & -scalar));
        else if (info->vector_overloads)
            snprintf(name, sizeof name, "dx.op.%s.v3%s", info->name,
                     sb_dxil_overload_name(info->vector_overloads & -info->vector_overloads));
        else
            snprintf(name, sizeof name, "dx.op.%s.struct.Payload.0", info->name);
        expect_parse(name, (enum sb_dxil_op_class)c, &parsed);
    }
    /* Every opcode with every overload it has: parsed, and accepted by the opcode's row. */
    unsigned names = 0;
    for (uint32_t raw = 0; raw < 0x80000000u + SB_DXIL_EXPERIMENTAL_OP_COUNT;
         raw = raw + 1 == SB_DXIL_CORE_OP_COUNT ? 0x80000000u : raw + 1) {
        const struct sb_dxil_op_info *op = sb_dxil_op_lookup(raw);
        if (!op)
            continue;
        const char *cls = sb_dxil_op_classes[op->op_class].name;
        if (!op->overloads && !op->vector_overloads) {
            snprintf(name, sizeof name, "dx.op.%s", cls);
            expect_parse(name, op->op_class, &parsed);
            CHECK(sb_dxil_op_accepts(op, &parsed), "%s refused for %s", name, op->name);
            names++;
        }
        for (uint32_t bit = 1; bit <= SB_DXIL_OVERLOAD_OBJECT; bit <<= 1) {
            if (op->overloads & bit) {
                const char *suffix = sb_dxil_overload_name(bit);
                snprintf(name, sizeof name, "dx.op.%s.%s", cls,
                         suffix ? suffix : "dx.types.Handle");
                expect_parse(name, op->op_class, &parsed);
                CHECK(sb_dxil_op_accepts(op, &parsed), "%s refused for %s", name, op->name);
                names++;
            }
            if (op->vector_overloads & bit) {
                snprintf(name, sizeof name, "dx.op.%s.v4%s", cls, sb_dxil_overload_name(bit));
                expect_parse(name, op->op_class, &parsed);
                CHECK(sb_dxil_op_accepts(op, &parsed), "%s refused for %s", name, op->name);
                names++;
            }
        }
    }
    /* Names the doc quotes (§3.3). */
    expect_parse("dx.op.threadId.i32", SB_DXIL_CLASS_THREAD_ID, &parsed);
    CHECK(parsed.overload.kind == SB_DXIL_OVERLOAD_KIND_SCALAR &&
              parsed.overload.scalar == SB_DXIL_OVERLOAD_I32, "threadId.i32 overload");
    expect_parse("dx.op.traceRay.struct.RayPayload", SB_DXIL_CLASS_TRACE_RAY, &parsed);
    CHECK(parsed.overload.kind == SB_DXIL_OVERLOAD_KIND_STRUCT &&
              parsed.overload.type_name_length == strlen("struct.RayPayload") &&
              memcmp(parsed.overload.type_name, "struct.RayPayload", 17) == 0,
          "traceRay struct name");
    expect_parse("dx.op.getMeshPayload.struct.Payload.0", SB_DXIL_CLASS_GET_MESH_PAYLOAD, &parsed);
    expect_parse("dx.op.createHandle", SB_DXIL_CLASS_CREATE_HANDLE, &parsed);
    CHECK(parsed.overload.kind == SB_DXIL_OVERLOAD_KIND_NONE, "createHandle has no overload");
    /* One declaration serves many opcodes; the row decides. */
    expect_parse("dx.op.unary.f32", SB_DXIL_CLASS_UNARY, &parsed);
    CHECK(sb_dxil_op_accepts(sb_dxil_op_lookup(SB_DXIL_OP_COS), &parsed), "Cos takes unary.f32");
    CHECK(!sb_dxil_op_accepts(sb_dxil_op_lookup(SB_DXIL_OP_BFREV), &parsed),
          "Bfrev (w i l) must not take unary.f32");
    CHECK(!sb_dxil_op_accepts(sb_dxil_op_lookup(SB_DXIL_OP_THREAD_ID), &parsed),
          "ThreadId is not of class unary");
    expect_parse("dx.op.wavePrefixOp", SB_DXIL_CLASS_WAVE_PREFIX_OP, &parsed);
    CHECK(sb_dxil_op_accepts(sb_dxil_op_lookup(SB_DXIL_OP_WAVE_PREFIX_BIT_COUNT), &parsed) &&
              !sb_dxil_op_accepts(sb_dxil_op_lookup(SB_DXIL_OP_WAVE_PREFIX_OP), &parsed),
          "wavePrefixOp without suffix is WavePrefixBitCount's");
    /* The name need not be NUL-terminated: only `length` bytes are read. */
    const char padded[] = "dx.op.barrierXYZ";
    CHECK(sb_dxil_op_name_parse(padded, strlen("dx.op.barrier"), &parsed, NULL) == SB_SUCCESS &&
              parsed.op_class == SB_DXIL_CLASS_BARRIER, "length-bounded name");
    printf("dxil_ops classes: %d classes, %u opcode names, %u failures\n", SB_DXIL_CLASS_COUNT,
           names, failures);
    return failures ? 1 : 0;
}

static int run_overloads(void)
{
    static const struct {
        const char *suffix;
        uint32_t scalar, length;
    } good[] = {
        { "f16", SB_DXIL_OVERLOAD_F16, 0 }, { "f32", SB_DXIL_OVERLOAD_F32, 0 },
        { "f64", SB_DXIL_OVERLOAD_F64, 0 }, { "i1", SB_DXIL_OVERLOAD_I1, 0 },
        { "i8", SB_DXIL_OVERLOAD_I8, 0 },   { "i16", SB_DXIL_OVERLOAD_I16, 0 },
        { "i32", SB_DXIL_OVERLOAD_I32, 0 }, { "i64", SB_DXIL_OVERLOAD_I64, 0 },
        { "v4f32", SB_DXIL_OVERLOAD_F32, 4 }, { "v1i1", SB_DXIL_OVERLOAD_I1, 1 },
        { "v16f16", SB_DXIL_OVERLOAD_F16, 16 }, { "v1024i64", SB_DXIL_OVERLOAD_I64, 1024 },
        { "v3i8", SB_DXIL_OVERLOAD_I8, 3 },
    };
    static const char *const bad[] = {
        "", "f", "f8", "f33", "i128", "i", "F32", "f32 ", "v", "v4", "v0f32", "v04f32",
        "v1025f32", "v99999999999f32", "v4f32.x", "vf32", "v4x32", "struct.S", "u32",
    };
    struct sb_dxil_overload_suffix parsed;
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        memset(&parsed, 0xAB, sizeof parsed);
        bool ok = sb_dxil_overload_suffix_parse(good[i].suffix, strlen(good[i].suffix), &parsed);
        CHECK(ok && parsed.scalar == good[i].scalar &&
                  parsed.kind == (good[i].length ? SB_DXIL_OVERLOAD_KIND_VECTOR
                                                 : SB_DXIL_OVERLOAD_KIND_SCALAR) &&
                  (!good[i].length || parsed.vector_length == good[i].length),
              "suffix %s", good[i].suffix);
        if (!good[i].length)
            CHECK(strcmp(sb_dxil_overload_name(good[i].scalar), good[i].suffix) == 0,
                  "name of %s", good[i].suffix);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(!sb_dxil_overload_suffix_parse(bad[i], strlen(bad[i]), &parsed), "suffix '%s' accepted",
              bad[i]);
    CHECK(sb_dxil_overload_name(SB_DXIL_OVERLOAD_UDT) == NULL &&
              sb_dxil_overload_name(SB_DXIL_OVERLOAD_F16 | SB_DXIL_OVERLOAD_F32) == NULL,
          "no suffix name for struct or for two bits");
    printf("dxil_ops overloads: %zu good, %zu bad, %u failures\n", sizeof good / sizeof good[0],
           sizeof bad / sizeof bad[0], failures);
    return failures ? 1 : 0;
}

static int run_negative(void)
{
    static const struct {
        const char *name;
        uint64_t offset;      /* where the bad part starts */
        const char *message;  /* a piece the message must hold */
    } bad[] = {
        { "llvm.dbg.value", 0, "not a dx.op name" },
        { "dx.op", 0, "not a dx.op name" },
        { "dx.op.", 6, "unknown class ''" },
        { "dx.op.noSuchClass.f32", 6, "unknown class 'noSuchClass'" },
        { "dx.op.ThreadId.i32", 6, "unknown class 'ThreadId'" },
        { "dx.op.threadId.f32", 15, "overload 'f32' is not one class threadId has" },
        { "dx.op.threadId", 14, "class threadId needs an overload suffix" },
        { "dx.op.threadId.", 15, "empty overload suffix" },
        { "dx.op.unary.f33", 12, "'f33' is not an overload" },
        { "dx.op.unary.v0f32", 12, "'v0f32' is not an overload" },
        { "dx.op.unary.v4i1", 12, "overload 'v4i1' is not one class unary has" },
        { "dx.op.unary.i1", 12, "overload 'i1' is not one class unary has" },
        { "dx.op.createHandle.i32", 19, "overload 'i32' is not one class createHandle has" },
        { "dx.op.threadId.i32.i32", 15, "'i32.i32' is not an overload" },
        { "dx.op.dot.f32", 10, "overload 'f32' is not one class dot has" },
        { "dx.op.traceRay", 14, "class traceRay needs an overload suffix" },
        { "dx.op.traceRay.struct.P\x01", 23, "byte 0x01 at 23 of the overload suffix" },
        { "dx.op.getMeshPayload.st ruct", 23, "byte 0x20 at 23" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct sb_error error = { 0 };
        struct sb_dxil_op_name parsed = { .op_class = SB_DXIL_CLASS_COUNT };
        enum sb_result result = sb_dxil_op_name_parse(bad[i].name, strlen(bad[i].name), &parsed,
                                                      &error);
        CHECK(result == SB_ERROR_BAD_VALUE && error.code == SB_ERROR_BAD_VALUE,
              "%s: result %d", bad[i].name, result);
        CHECK(error.offset == bad[i].offset, "%s: offset %llu, want %llu (%s)", bad[i].name,
              (unsigned long long)error.offset, (unsigned long long)bad[i].offset, error.message);
        CHECK(strstr(error.message, bad[i].message) != NULL, "%s: message '%s' lacks '%s'",
              bad[i].name, error.message, bad[i].message);
        CHECK(parsed.op_class == SB_DXIL_CLASS_COUNT, "%s: output written on failure", bad[i].name);
    }
    struct sb_dxil_op_name parsed;
    CHECK(sb_dxil_op_name_parse(NULL, 0, &parsed, NULL) == SB_ERROR_INVALID_ARGUMENT, "NULL name");
    CHECK(!sb_dxil_op_class_find("unar", 4, NULL) && !sb_dxil_op_class_find("unaryX", 6, NULL) &&
              !sb_dxil_op_class_find("", 0, NULL) && sb_dxil_op_class_find("unaryX", 5, NULL),
          "class prefixes and extensions");
    /* Numbers: reserved, past the tables, tables other than 0 and 0x8000. */
    static const uint32_t no_row[] = { 226, 237, 259, 261, 290, 302, 305, 308, 312, 0xFFFF,
                                       0x10000, 0x00010004, 0x7FFFFFFF, 0x80000023u,
                                       0x8000FFFFu, 0x80010000u, 0xFFFFFFFFu };
    for (size_t i = 0; i < sizeof no_row / sizeof no_row[0]; i++)
        CHECK(sb_dxil_op_lookup(no_row[i]) == NULL, "opcode %#x has a row", no_row[i]);
    CHECK(sb_dxil_op_lookup(225) && sb_dxil_op_lookup(238) && sb_dxil_op_lookup(258) &&
              sb_dxil_op_lookup(262) && sb_dxil_op_lookup(289) && sb_dxil_op_lookup(303) &&
              sb_dxil_op_lookup(309),
          "rows beside the reserved ranges");
    CHECK(sb_dxil_op_operand(NULL, 0) == NULL, "operand of NULL");
    printf("dxil_ops negative: %zu names, %zu numbers, %u failures\n", sizeof bad / sizeof bad[0],
           sizeof no_row / sizeof no_row[0], failures);
    return failures ? 1 : 0;
}

static int run_available(void)
{
    /* DXIL::ShaderKind numbers (container doc, dxbc_dxil.h): 0 pixel, 1 vertex, 5 compute,
     * 6 library, 7 raygen, 13 mesh, 15 node. */
    const uint32_t ps = sb_dxil_stage_of_shader_kind(0), vs = sb_dxil_stage_of_shader_kind(1),
                   cs = sb_dxil_stage_of_shader_kind(5), lib = sb_dxil_stage_of_shader_kind(6),
                   rg = sb_dxil_stage_of_shader_kind(7), ms = sb_dxil_stage_of_shader_kind(13),
                   node = sb_dxil_stage_of_shader_kind(15);
    CHECK(ps == SB_DXIL_STAGE_PS && vs == SB_DXIL_STAGE_VS && cs == SB_DXIL_STAGE_CS &&
              lib == SB_DXIL_STAGE_ALL && rg == SB_DXIL_STAGE_RG && ms == SB_DXIL_STAGE_MS &&
              node == SB_DXIL_STAGE_NODE && sb_dxil_stage_of_shader_kind(16) == 0,
          "shader kinds to stages");
    static const struct {
        uint32_t opcode;
        uint32_t stage, minor;
        bool available;
    } cases[] = {
        { SB_DXIL_OP_DISCARD, SB_DXIL_STAGE_PS, 0, true },          /* [PS] */
        { SB_DXIL_OP_DISCARD, SB_DXIL_STAGE_VS, 6, false },
        { SB_DXIL_OP_SAMPLE, SB_DXIL_STAGE_CS, 0, true },           /* [PS/CS/AS/MS/node] */
        { SB_DXIL_OP_SAMPLE, SB_DXIL_STAGE_VS, 0, false },
        { SB_DXIL_OP_SAMPLE_LEVEL, SB_DXIL_STAGE_VS, 0, true },     /* any stage */
        { SB_DXIL_OP_THREAD_ID, SB_DXIL_STAGE_NODE, 8, true },      /* [CS/MS/AS/node] */
        { SB_DXIL_OP_THREAD_ID, SB_DXIL_STAGE_PS, 8, false },
        { SB_DXIL_OP_IS_HELPER_LANE, SB_DXIL_STAGE_PS, 5, false },  /* 6.6 */
        { SB_DXIL_OP_IS_HELPER_LANE, SB_DXIL_STAGE_PS, 6, true },
        { SB_DXIL_OP_QUAD_VOTE, SB_DXIL_STAGE_CS, 6, false },       /* 6.7 */
        { SB_DXIL_OP_QUAD_VOTE, SB_DXIL_STAGE_CS, 7, true },
        { SB_DXIL_OP_FDOT, SB_DXIL_STAGE_CS, 8, false },            /* 6.9‡ */
        { SB_DXIL_OP_FDOT, SB_DXIL_STAGE_CS, 9, true },
        { SB_DXIL_OP_VECTOR_REDUCE_OR, SB_DXIL_STAGE_PS, 0, false }, /* hctdb 6.0, vector-only */
        { SB_DXIL_OP_TRACE_RAY, SB_DXIL_STAGE_RG, 3, true },        /* 6.3 [RG/CH/MI] */
        { SB_DXIL_OP_TRACE_RAY, SB_DXIL_STAGE_AH, 3, false },
        { SB_DXIL_OP_TRACE_RAY, SB_DXIL_STAGE_ALL, 3, true },       /* libraries */
        { SB_DXIL_OP_TRACE_RAY, SB_DXIL_STAGE_ALL, 2, false },
        { SB_DXIL_OP_SET_MESH_OUTPUT_COUNTS, SB_DXIL_STAGE_MS, 5, true },
        { SB_DXIL_OP_SET_MESH_OUTPUT_COUNTS, SB_DXIL_STAGE_AS, 5, false },
        { SB_DXIL_OP_RAW_BUFFER_LOAD, SB_DXIL_STAGE_CS, 1, false }, /* 6.2 */
        { SB_DXIL_OP_RAW_BUFFER_LOAD, SB_DXIL_STAGE_CS, 2, true },
        { SB_DXIL_OP_DEBUG_BREAK, SB_DXIL_STAGE_CS, 9, false },     /* 6.10 */
        { SB_DXIL_OP_DEBUG_BREAK, SB_DXIL_STAGE_CS, 10, true },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct sb_dxil_op_info *op = sb_dxil_op_lookup(cases[i].opcode);
        CHECK(op && sb_dxil_op_available(op, cases[i].stage, 6, cases[i].minor) ==
                        cases[i].available,
              "%s in stage %#x at 6.%u: want %s", op ? op->name : "?", cases[i].stage,
              cases[i].minor, cases[i].available ? "available" : "refused");
    }
    const struct sb_dxil_op_info *sample = sb_dxil_op_lookup(SB_DXIL_OP_SAMPLE);
    CHECK(sb_dxil_op_available(sample, SB_DXIL_STAGE_PS, 7, 0) &&
              !sb_dxil_op_available(sample, SB_DXIL_STAGE_PS, 5, 1) &&
              !sb_dxil_op_available(sample, 0, 6, 0) && !sb_dxil_op_available(NULL, SB_DXIL_STAGE_PS, 6, 0),
          "major versions, no stage, no op");
    printf("dxil_ops available: %zu cases, %u failures\n", sizeof cases / sizeof cases[0], failures);
    return failures ? 1 : 0;
}

/* The shader kind (DXIL::ShaderKind) of a manifest program_type; -1 when unknown. */
static int shader_kind_of(const char *program_type)
{
    static const char *const kinds[] = { "ps", "vs", "gs", "hs", "ds", "cs", "lib", "", "",
                                         "", "", "", "", "ms", "as" };
    for (int i = 0; i < (int)(sizeof kinds / sizeof kinds[0]); i++)
        if (kinds[i][0] && strcmp(kinds[i], program_type) == 0)
            return i;
    return -1;
}

/*
 * Lines `NAME OPCODE ARGS VALUES TYPE SM FILE` on stdin, one per dx.op call of
 * the corpus (corpus_dx_op_calls.py): the name parses, the opcode has a row,
 * the row accepts the declaration's overload, the call passes the row's operand
 * count, no `!` operand is an SSA value (VALUES: hex mask of the operands that
 * are), and the op is available in the program's stage and shader model
 * (the validator dxc ran accepted every file, so the minimum SM and stage
 * columns must allow what the corpus holds).
 */
static int run_corpus(void)
{
    char line[1024], name[256], type[16], file[512];
    unsigned long opcode;
    unsigned arguments, values, sm_major, sm_minor, calls = 0, bad = 0;
    bool seen[SB_DXIL_CORE_OP_COUNT] = { false };
    while (fgets(line, sizeof line, stdin)) {
        if (sscanf(line, "%255s %lu %u %x %15s %u.%u %511s", name, &opcode, &arguments, &values,
                   type, &sm_major, &sm_minor, file) != 8 || shader_kind_of(type) < 0) {
            CHECK(false, "unreadable line: %s", line);
            bad++;
            continue;
        }
        calls++;
        struct sb_dxil_op_name parsed;
        struct sb_error error = { 0 };
        const struct sb_dxil_op_info *op = sb_dxil_op_lookup((uint32_t)opcode);
        uint32_t stage = sb_dxil_stage_of_shader_kind((uint32_t)shader_kind_of(type));
        if (sb_dxil_op_name_parse(name, strlen(name), &parsed, &error) != SB_SUCCESS || !op ||
            !sb_dxil_op_accepts(op, &parsed) || op->operand_count != arguments) {
            bad++;
            CHECK(false, "%s: %s opcode %lu (%s), %u operands (table: %d): %s", file, name, opcode,
                  op ? op->name : "no row", arguments, op ? op->operand_count : -1, error.message);
        } else if (values & immediate_mask(op)) {
            bad++;
            CHECK(false, "%s: %s passes an SSA value for an immediate operand (mask %#x, "
                  "immediates %#x)", file, op->name, values, immediate_mask(op));
        } else if (!sb_dxil_op_available(op, stage, sm_major, sm_minor)) {
            bad++;
            CHECK(false, "%s: %s (SM %u.%u, stages %#x) in a %s_%u_%u program", file, op->name,
                  op->sm_major, op->sm_minor, op->stages, type, sm_major, sm_minor);
        } else if (opcode < SB_DXIL_CORE_OP_COUNT) {
            seen[opcode] = true;
        }
    }
    unsigned distinct = 0;
    for (uint32_t i = 0; i < SB_DXIL_CORE_OP_COUNT; i++)
        distinct += seen[i];
    /* An empty list means the extraction found nothing: that is a failure, not a pass. */
    CHECK(calls > 0, "no dx.op calls read");
    printf("dxil_ops corpus: %u dx.op calls, %u distinct opcodes, %u refused\n", calls, distinct,
           bad);
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(void);
    } modes[] = {
        { "spot", run_spot },           { "counts", run_counts },
        { "classes", run_classes },     { "overloads", run_overloads },
        { "negative", run_negative },   { "available", run_available },
        { "corpus", run_corpus },
    };
    for (size_t i = 0; argc == 2 && i < sizeof modes / sizeof modes[0]; i++)
        if (strcmp(argv[1], modes[i].name) == 0)
            return modes[i].run();
    fprintf(stderr, "usage: test_dxil_ops spot|counts|classes|overloads|negative|available|corpus\n");
    return 2;
}
