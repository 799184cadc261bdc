/* SPDX-License-Identifier: MIT */
/*
 * The per-op table of the IR (translator/IR.md §Instructions): name, operand
 * counts, the lane view of every operand slot and what each slot may hold.
 * One row per op, indexed by the op value, so the front end (validation),
 * the printer, the SPIR-V back end and the interpreter read one source of
 * truth. A test walks every row. Beside it the one lane rule of 64-bit
 * results (sb_ir_double_source), shared the same way.
 */
#include "ir_private.h"

/* Short spellings for the rows below. */
#define N_ SB_IR_TYPE_NONE
#define F_ SB_IR_TYPE_FLOAT
#define I_ SB_IR_TYPE_INT
#define U_ SB_IR_TYPE_UINT
#define B_ SB_IR_TYPE_BOOL
#define D_ SB_IR_TYPE_DOUBLE
#define KV SB_IR_KIND_VALUE
#define KR SB_IR_KIND_RESOURCE
#define KS SB_IR_KIND_SAMPLER
#define KU SB_IR_KIND_UAV
#define KT SB_IR_KIND_TEXTURE_OR_UAV
#define KM SB_IR_KIND_MEMORY
#define KP SB_IR_KIND_INTERFACE
#define KO SB_IR_KIND_MESH_OUTPUT

/* Row shapes: name, dst range, src range, dst types, src types, dst kinds, src kinds. */
#define ROW(op, nm, d0, d1, s0, s1, dt, st, dk, sk, cf, fm)                                \
    [SB_IR_OP_##op] = { nm, d0, d1, s0, s1, dt, st, dk, sk, cf, fm }
#define T(...) { __VA_ARGS__ }

/* Plain ALU rows: one destination of view d, sources all of view s. */
#define ALU1(op, nm, d, s) ROW(op, nm, 1, 1, 1, 1, T(d), T(s), T(KV), T(KV), false, false)
#define ALU2(op, nm, d, s) ROW(op, nm, 1, 1, 2, 2, T(d), T(s, s), T(KV), T(KV, KV), false, false)
#define ALU3(op, nm, d, s)                                                                   \
    ROW(op, nm, 1, 1, 3, 3, T(d), T(s, s, s), T(KV), T(KV, KV, KV), false, false)
/* Flow rows: no destination, 0 or 1 condition source. */
#define FLOW0(op, nm) ROW(op, nm, 0, 0, 0, 0, T(N_), T(N_), T(0), T(0), true, false)
#define FLOW1(op, nm, s) ROW(op, nm, 0, 0, 1, 1, T(N_), T(s), T(0), T(KV), true, false)
#define NONE0(op, nm) ROW(op, nm, 0, 0, 0, 0, T(N_), T(N_), T(0), T(0), false, false)
/* Atomics: u#/g# destination, address and values. */
#define ATOM(op, nm, s) ROW(op, nm, 1, 1, 2, 2, T(N_), T(U_, s), T(KM), T(KV, KV), false, false)
#define IMM_ATOM(op, nm, s)                                                                  \
    ROW(op, nm, 2, 2, 2, 2, T(s, N_), T(U_, s), T(KV, KM), T(KV, KV), false, false)
/* 64-bit atomics: old value pair (or null) and u#, address and 64-bit value(s). */
#define ATOM64(op, nm) ROW(op, nm, 2, 2, 2, 2, T(D_, N_), T(U_, D_), T(KV, KU), T(KV, KV), false, false)

static const struct sb_ir_op_info ir_ops[SB_IR_OP_COUNT] = {
    NONE0(NOP, "nop"),
    ROW(MOV, "mov", 1, 1, 1, 1, T(F_), T(F_), T(KV), T(KV), false, true),
    ROW(MOVC, "movc", 1, 1, 3, 3, T(F_), T(U_, F_, F_), T(KV), T(KV, KV, KV), false, true),
    ROW(SWAPC, "swapc", 2, 2, 3, 3, T(F_, F_), T(U_, F_, F_), T(KV, KV), T(KV, KV, KV), false,
        true),
    ROW(DMOV, "dmov", 1, 1, 1, 1, T(D_), T(D_), T(KV), T(KV), false, true),
    ROW(DMOVC, "dmovc", 1, 1, 3, 3, T(D_), T(U_, D_, D_), T(KV), T(KV, KV, KV), false, true),
    ALU2(ADD, "add", F_, F_), ALU2(MUL, "mul", F_, F_), ALU3(MAD, "mad", F_, F_),
    ALU2(DIV, "div", F_, F_), ALU2(MIN, "min", F_, F_), ALU2(MAX, "max", F_, F_),
    ALU2(DP2, "dp2", F_, F_), ALU2(DP3, "dp3", F_, F_), ALU2(DP4, "dp4", F_, F_),
    ALU2(DPH, "dph", F_, F_), ALU2(DST, "dst", F_, F_),
    ALU1(FRC, "frc", F_, F_), ALU1(SQRT, "sqrt", F_, F_), ALU1(RSQ, "rsq", F_, F_),
    ALU1(RCP, "rcp", F_, F_), ALU1(EXP, "exp", F_, F_), ALU1(LOG, "log", F_, F_),
    ROW(SINCOS, "sincos", 2, 2, 1, 1, T(F_, F_), T(F_), T(KV, KV), T(KV), false, false),
    ALU1(ROUND_NE, "round_ne", F_, F_), ALU1(ROUND_NI, "round_ni", F_, F_),
    ALU1(ROUND_PI, "round_pi", F_, F_), ALU1(ROUND_Z, "round_z", F_, F_),
    ALU2(EQ, "eq", B_, F_), ALU2(NE, "ne", B_, F_), ALU2(LT, "lt", B_, F_),
    ALU2(GE, "ge", B_, F_), ALU2(SGE, "sge", F_, F_), ALU2(SLT, "slt", F_, F_),
    ALU1(DERIV_RTX, "deriv_rtx", F_, F_), ALU1(DERIV_RTY, "deriv_rty", F_, F_),
    ALU1(DERIV_RTX_COARSE, "deriv_rtx_coarse", F_, F_),
    ALU1(DERIV_RTX_FINE, "deriv_rtx_fine", F_, F_),
    ALU1(DERIV_RTY_COARSE, "deriv_rty_coarse", F_, F_),
    ALU1(DERIV_RTY_FINE, "deriv_rty_fine", F_, F_),
    ALU2(IADD, "iadd", I_, I_), ALU1(INEG, "ineg", I_, I_),
    ROW(IMUL, "imul", 2, 2, 2, 2, T(I_, I_), T(I_, I_), T(KV, KV), T(KV, KV), false, false),
    ALU3(IMAD, "imad", I_, I_), ALU2(IMIN, "imin", I_, I_), ALU2(IMAX, "imax", I_, I_),
    ROW(UMUL, "umul", 2, 2, 2, 2, T(U_, U_), T(U_, U_), T(KV, KV), T(KV, KV), false, false),
    ALU3(UMAD, "umad", U_, U_), ALU2(UMIN, "umin", U_, U_), ALU2(UMAX, "umax", U_, U_),
    ROW(UDIV, "udiv", 2, 2, 2, 2, T(U_, U_), T(U_, U_), T(KV, KV), T(KV, KV), false, false),
    ROW(UADDC, "uaddc", 2, 2, 2, 2, T(U_, U_), T(U_, U_), T(KV, KV), T(KV, KV), false, false),
    ROW(USUBB, "usubb", 2, 2, 2, 2, T(U_, U_), T(U_, U_), T(KV, KV), T(KV, KV), false, false),
    ALU2(IEQ, "ieq", B_, I_), ALU2(INE, "ine", B_, I_), ALU2(ILT, "ilt", B_, I_),
    ALU2(IGE, "ige", B_, I_), ALU2(ULT, "ult", B_, U_), ALU2(UGE, "uge", B_, U_),
    ALU3(MSAD, "msad", U_, U_),
    ALU2(AND, "and", U_, U_), ALU2(OR, "or", U_, U_), ALU2(XOR, "xor", U_, U_),
    ALU1(NOT, "not", U_, U_),
    ROW(ISHL, "ishl", 1, 1, 2, 2, T(I_), T(I_, U_), T(KV), T(KV, KV), false, false),
    ROW(ISHR, "ishr", 1, 1, 2, 2, T(I_), T(I_, U_), T(KV), T(KV, KV), false, false),
    ALU2(USHR, "ushr", U_, U_),
    ALU1(COUNTBITS, "countbits", U_, U_), ALU1(FIRSTBIT_HI, "firstbit_hi", U_, U_),
    ALU1(FIRSTBIT_LO, "firstbit_lo", U_, U_), ALU1(FIRSTBIT_SHI, "firstbit_shi", U_, I_),
    ALU3(UBFE, "ubfe", U_, U_),
    ROW(IBFE, "ibfe", 1, 1, 3, 3, T(I_), T(U_, U_, I_), T(KV), T(KV, KV, KV), false, false),
    ROW(BFI, "bfi", 1, 1, 4, 4, T(U_), T(U_, U_, U_, U_), T(KV), T(KV, KV, KV, KV), false,
        false),
    ALU1(BFREV, "bfrev", U_, U_),
    ALU1(FTOI, "ftoi", I_, F_), ALU1(FTOU, "ftou", U_, F_), ALU1(ITOF, "itof", F_, I_),
    ALU1(UTOF, "utof", F_, U_), ALU1(F32TOF16, "f32tof16", U_, F_),
    ALU1(F16TOF32, "f16tof32", F_, U_),
    ALU1(FTOD, "ftod", D_, F_), ALU1(DTOF, "dtof", F_, D_), ALU1(DTOI, "dtoi", I_, D_),
    ALU1(DTOU, "dtou", U_, D_), ALU1(ITOD, "itod", D_, I_), ALU1(UTOD, "utod", D_, U_),
    ALU2(DADD, "dadd", D_, D_), ALU2(DMUL, "dmul", D_, D_), ALU2(DDIV, "ddiv", D_, D_),
    ALU3(DFMA, "dfma", D_, D_), ALU2(DMIN, "dmin", D_, D_), ALU2(DMAX, "dmax", D_, D_),
    ALU1(DRCP, "drcp", D_, D_), ALU2(DEQ, "deq", B_, D_), ALU2(DNE, "dne", B_, D_),
    ALU2(DLT, "dlt", B_, D_), ALU2(DGE, "dge", B_, D_),
    ALU2(I64ADD, "i64add", D_, D_), ALU2(I64SUB, "i64sub", D_, D_),
    ALU2(I64MUL, "i64mul", D_, D_), ALU2(I64UDIV, "i64udiv", D_, D_),
    ALU2(I64UREM, "i64urem", D_, D_), ALU2(I64IDIV, "i64idiv", D_, D_),
    ALU2(I64IREM, "i64irem", D_, D_), ALU2(I64SHL, "i64shl", D_, D_),
    ALU2(I64ISHR, "i64ishr", D_, D_), ALU2(I64USHR, "i64ushr", D_, D_),
    ALU2(I64AND, "i64and", D_, D_), ALU2(I64OR, "i64or", D_, D_), ALU2(I64XOR, "i64xor", D_, D_),
    ALU1(I64NOT, "i64not", D_, D_),
    ALU2(I64EQ, "i64eq", B_, D_), ALU2(I64NE, "i64ne", B_, D_), ALU2(I64ILT, "i64ilt", B_, D_),
    ALU2(I64IGE, "i64ige", B_, D_), ALU2(I64ULT, "i64ult", B_, D_), ALU2(I64UGE, "i64uge", B_, D_),
    ALU1(I64TOI, "i64toi", U_, D_), ALU1(I64TOF, "i64tof", F_, D_), ALU1(U64TOF, "u64tof", F_, D_),
    ALU1(ITOI64, "itoi64", D_, I_), ALU1(UTOU64, "utou64", D_, U_),
    ALU1(FTOI64, "ftoi64", D_, F_), ALU1(FTOU64, "ftou64", D_, F_),
    ALU1(I64TOD, "i64tod", D_, D_), ALU1(U64TOD, "u64tod", D_, D_),
    ALU1(DTOI64, "dtoi64", D_, D_), ALU1(DTOU64, "dtou64", D_, D_),
    FLOW1(IF, "if", U_), FLOW0(ELSE, "else"), FLOW0(ENDIF, "endif"), FLOW0(LOOP, "loop"),
    FLOW0(ENDLOOP, "endloop"), FLOW1(SWITCH, "switch", I_), FLOW0(CASE, "case"),
    FLOW0(DEFAULT, "default"), FLOW0(ENDSWITCH, "endswitch"), FLOW0(BREAK, "break"),
    FLOW1(BREAKC, "breakc", U_), FLOW0(CONTINUE, "continue"),
    FLOW1(CONTINUEC, "continuec", U_), FLOW0(RET, "ret"), FLOW1(RETC, "retc", U_),
    FLOW1(DISCARD, "discard", U_), FLOW0(CALL, "call"), FLOW1(CALLC, "callc", U_),
    ROW(INTERFACE_CALL, "interface_call", 0, 0, 1, 1, T(N_), T(N_), T(0), T(KP), true, false),
    NONE0(EMIT, "emit"), NONE0(CUT, "cut"), NONE0(EMIT_THEN_CUT, "emit_then_cut"),
    ROW(SAMPLE, "sample", 1, 2, 3, 4, T(F_, U_), T(F_, N_, N_, F_), T(KV, KV),
        T(KV, KR, KS, KV), false, false),
    ROW(SAMPLE_B, "sample_b", 1, 2, 4, 5, T(F_, U_), T(F_, N_, N_, F_, F_), T(KV, KV),
        T(KV, KR, KS, KV, KV), false, false),
    ROW(SAMPLE_L, "sample_l", 1, 2, 4, 4, T(F_, U_), T(F_, N_, N_, F_), T(KV, KV),
        T(KV, KR, KS, KV), false, false),
    ROW(SAMPLE_D, "sample_d", 1, 2, 5, 6, T(F_, U_), T(F_, N_, N_, F_, F_, F_), T(KV, KV),
        T(KV, KR, KS, KV, KV, KV), false, false),
    ROW(SAMPLE_C, "sample_c", 1, 2, 4, 5, T(F_, U_), T(F_, N_, N_, F_, F_), T(KV, KV),
        T(KV, KR, KS, KV, KV), false, false),
    ROW(SAMPLE_C_LZ, "sample_c_lz", 1, 2, 4, 4, T(F_, U_), T(F_, N_, N_, F_), T(KV, KV),
        T(KV, KR, KS, KV), false, false),
    ROW(GATHER4, "gather4", 1, 2, 3, 3, T(F_, U_), T(F_, N_, N_), T(KV, KV), T(KV, KR, KS),
        false, false),
    ROW(GATHER4_C, "gather4_c", 1, 2, 4, 4, T(F_, U_), T(F_, N_, N_, F_), T(KV, KV),
        T(KV, KR, KS, KV), false, false),
    ROW(GATHER4_PO, "gather4_po", 1, 2, 4, 4, T(F_, U_), T(F_, I_, N_, N_), T(KV, KV),
        T(KV, KV, KR, KS), false, false),
    ROW(GATHER4_PO_C, "gather4_po_c", 1, 2, 5, 5, T(F_, U_), T(F_, I_, N_, N_, F_), T(KV, KV),
        T(KV, KV, KR, KS, KV), false, false),
    ROW(LD, "ld", 1, 2, 2, 2, T(F_, U_), T(I_, N_), T(KV, KV), T(KV, KR), false, false),
    ROW(LD_MS, "ld_ms", 1, 2, 3, 3, T(F_, U_), T(I_, N_, I_), T(KV, KV), T(KV, KR, KV), false,
        false),
    ROW(RESINFO, "resinfo", 1, 1, 2, 2, T(F_), T(U_, N_), T(KV), T(KV, KT), false, false),
    ROW(SAMPLE_INFO, "sample_info", 1, 1, 1, 1, T(F_), T(N_), T(KV), T(KR), false, false),
    ROW(SAMPLE_POS, "sample_pos", 1, 1, 2, 2, T(F_), T(N_, U_), T(KV), T(KR, KV), false, false),
    ROW(BUFINFO, "bufinfo", 1, 1, 1, 1, T(U_), T(N_), T(KV), T(KT), false, false),
    ROW(LOD, "lod", 1, 1, 3, 3, T(F_), T(F_, N_, N_), T(KV), T(KV, KR, KS), false, false),
    ROW(LD_UAV_TYPED, "ld_uav_typed", 1, 2, 2, 2, T(F_, U_), T(U_, N_), T(KV, KV), T(KV, KU),
        false, false),
    ROW(STORE_UAV_TYPED, "store_uav_typed", 1, 1, 2, 2, T(N_), T(U_, F_), T(KU), T(KV, KV),
        false, false),
    ROW(LD_RAW, "ld_raw", 1, 2, 2, 2, T(U_, U_), T(U_, N_), T(KV, KV), T(KV, KM), false, false),
    ROW(STORE_RAW, "store_raw", 1, 1, 2, 2, T(N_), T(U_, U_), T(KM), T(KV, KV), false, false),
    ROW(LD_STRUCTURED, "ld_structured", 1, 2, 3, 3, T(U_, U_), T(U_, U_, N_), T(KV, KV),
        T(KV, KV, KM), false, false),
    ROW(STORE_STRUCTURED, "store_structured", 1, 1, 3, 3, T(N_), T(U_, U_, U_), T(KM),
        T(KV, KV, KV), false, false),
    ATOM(ATOMIC_AND, "atomic_and", U_), ATOM(ATOMIC_OR, "atomic_or", U_),
    ATOM(ATOMIC_XOR, "atomic_xor", U_),
    ROW(ATOMIC_CMP_STORE, "atomic_cmp_store", 1, 1, 3, 3, T(N_), T(U_, U_, U_), T(KM),
        T(KV, KV, KV), false, false),
    ATOM(ATOMIC_IADD, "atomic_iadd", I_), ATOM(ATOMIC_IMAX, "atomic_imax", I_),
    ATOM(ATOMIC_IMIN, "atomic_imin", I_), ATOM(ATOMIC_UMAX, "atomic_umax", U_),
    ATOM(ATOMIC_UMIN, "atomic_umin", U_),
    ROW(IMM_ATOMIC_ALLOC, "imm_atomic_alloc", 2, 2, 0, 0, T(U_, N_), T(N_), T(KV, KU), T(0),
        false, false),
    ROW(IMM_ATOMIC_CONSUME, "imm_atomic_consume", 2, 2, 0, 0, T(U_, N_), T(N_), T(KV, KU),
        T(0), false, false),
    IMM_ATOM(IMM_ATOMIC_IADD, "imm_atomic_iadd", I_), IMM_ATOM(IMM_ATOMIC_AND, "imm_atomic_and", U_),
    IMM_ATOM(IMM_ATOMIC_OR, "imm_atomic_or", U_), IMM_ATOM(IMM_ATOMIC_XOR, "imm_atomic_xor", U_),
    IMM_ATOM(IMM_ATOMIC_EXCH, "imm_atomic_exch", U_),
    ROW(IMM_ATOMIC_CMP_EXCH, "imm_atomic_cmp_exch", 2, 2, 3, 3, T(U_, N_), T(U_, U_, U_),
        T(KV, KM), T(KV, KV, KV), false, false),
    IMM_ATOM(IMM_ATOMIC_IMAX, "imm_atomic_imax", I_), IMM_ATOM(IMM_ATOMIC_IMIN, "imm_atomic_imin", I_),
    IMM_ATOM(IMM_ATOMIC_UMAX, "imm_atomic_umax", U_), IMM_ATOM(IMM_ATOMIC_UMIN, "imm_atomic_umin", U_),
    ALU1(CHECK_ACCESS_FULLY_MAPPED, "check_access_fully_mapped", B_, U_),
    NONE0(SYNC, "sync"),
    ALU1(EVAL_CENTROID, "eval_centroid", F_, F_),
    ROW(EVAL_SAMPLE_INDEX, "eval_sample_index", 1, 1, 2, 2, T(F_), T(F_, I_), T(KV), T(KV, KV),
        false, false),
    ROW(EVAL_SNAPPED, "eval_snapped", 1, 1, 2, 2, T(F_), T(F_, I_), T(KV), T(KV, KV), false,
        false),
    ROW(PICA_CMP, "pica_cmp", 0, 0, 2, 2, T(N_), T(F_, F_), T(0), T(KV, KV), false, false),
    ALU1(PICA_MOVA, "pica_mova", I_, F_), ALU1(PICA_LITP, "pica_litp", F_, F_),
    NONE0(PICA_SETEMIT, "pica_setemit"),
    NONE0(ABORT, "abort"), NONE0(DEBUG_BREAK, "debug_break"),
    ROW(WAVE_IS_FIRST_LANE, "wave_is_first_lane", 1, 1, 0, 0, T(B_), T(N_), T(KV), T(0), false,
        false),
    ROW(WAVE_LANE_INDEX, "wave_lane_index", 1, 1, 0, 0, T(U_), T(N_), T(KV), T(0), false, false),
    ROW(WAVE_LANE_COUNT, "wave_lane_count", 1, 1, 0, 0, T(U_), T(N_), T(KV), T(0), false, false),
    ALU1(WAVE_ANY_TRUE, "wave_any_true", B_, U_), ALU1(WAVE_ALL_TRUE, "wave_all_true", B_, U_),
    ALU1(WAVE_ALL_EQUAL, "wave_all_equal", B_, U_), ALU1(WAVE_BALLOT, "wave_ballot", U_, U_),
    ALU2(WAVE_READ_LANE_AT, "wave_read_lane_at", U_, U_),
    ALU1(WAVE_READ_LANE_FIRST, "wave_read_lane_first", U_, U_),
    ALU1(WAVE_ACTIVE_FLOAT, "wave_active", F_, F_), ALU1(WAVE_ACTIVE_INT, "wave_active_i", I_, I_),
    ALU1(WAVE_ACTIVE_UINT, "wave_active_u", U_, U_),
    ALU1(WAVE_PREFIX_FLOAT, "wave_prefix", F_, F_), ALU1(WAVE_PREFIX_INT, "wave_prefix_i", I_, I_),
    ALU1(WAVE_ACTIVE_COUNT_BITS, "wave_active_countbits", U_, U_),
    ALU1(WAVE_PREFIX_COUNT_BITS, "wave_prefix_countbits", U_, U_),
    ALU2(QUAD_READ_LANE_AT, "quad_read_lane_at", U_, U_),
    ALU1(QUAD_READ_ACROSS_X, "quad_read_across_x", U_, U_),
    ALU1(QUAD_READ_ACROSS_Y, "quad_read_across_y", U_, U_),
    ALU1(QUAD_READ_ACROSS_DIAGONAL, "quad_read_across_diagonal", U_, U_),
    ROW(MESH_SET_COUNTS, "mesh_set_counts", 0, 0, 2, 2, T(N_), T(U_, U_), T(0), T(KV, KV), false,
        false),
    ROW(MESH_INDICES, "mesh_indices", 0, 0, 2, 2, T(N_), T(U_, U_), T(0), T(KV, KV), false, false),
    ROW(MESH_STORE_VERTEX, "mesh_store_vertex", 1, 1, 1, 1, T(U_), T(U_), T(KO), T(KV), false,
        false),
    ROW(MESH_STORE_PRIMITIVE, "mesh_store_primitive", 1, 1, 1, 1, T(U_), T(U_), T(KO), T(KV),
        false, false),
    ROW(DISPATCH_MESH, "dispatch_mesh", 0, 0, 1, 2, T(N_), T(U_, N_), T(0), T(KV, KM), false,
        false),
    ROW(SAMPLE_C_L, "sample_c_l", 1, 2, 5, 5, T(F_, U_), T(F_, N_, N_, F_, F_), T(KV, KV),
        T(KV, KR, KS, KV, KV), false, false),
    ROW(SAMPLE_C_D, "sample_c_d", 1, 2, 6, 7, T(F_, U_), T(F_, N_, N_, F_, F_, F_, F_), T(KV, KV),
        T(KV, KR, KS, KV, KV, KV, KV), false, false),
    ROW(SAMPLE_C_B, "sample_c_b", 1, 2, 5, 6, T(F_, U_), T(F_, N_, N_, F_, F_, F_), T(KV, KV),
        T(KV, KR, KS, KV, KV, KV), false, false),
    ROW(LD_UAV_TYPED_MS, "ld_uav_typed_ms", 1, 2, 3, 3, T(F_, U_), T(U_, N_, U_), T(KV, KV),
        T(KV, KU, KV), false, false),
    ROW(STORE_UAV_TYPED_MS, "store_uav_typed_ms", 1, 1, 3, 3, T(N_), T(U_, F_, U_), T(KU),
        T(KV, KV, KV), false, false),
    ATOM64(IMM_ATOMIC64_IADD, "imm_atomic64_iadd"), ATOM64(IMM_ATOMIC64_AND, "imm_atomic64_and"),
    ATOM64(IMM_ATOMIC64_OR, "imm_atomic64_or"), ATOM64(IMM_ATOMIC64_XOR, "imm_atomic64_xor"),
    ATOM64(IMM_ATOMIC64_IMAX, "imm_atomic64_imax"), ATOM64(IMM_ATOMIC64_IMIN, "imm_atomic64_imin"),
    ATOM64(IMM_ATOMIC64_UMAX, "imm_atomic64_umax"), ATOM64(IMM_ATOMIC64_UMIN, "imm_atomic64_umin"),
    ATOM64(IMM_ATOMIC64_EXCH, "imm_atomic64_exch"),
    ROW(IMM_ATOMIC64_CMP_EXCH, "imm_atomic64_cmp_exch", 2, 2, 3, 3, T(D_, N_), T(U_, D_, D_),
        T(KV, KU), T(KV, KV, KV), false, false),
};

/* Float and signed reductions have no bitwise forms; prefixes are sums and products only. */
bool sb_ir_wave_op_allowed(uint32_t op, uint32_t wave_op)
{
    switch (op) {
    case SB_IR_OP_WAVE_ACTIVE_FLOAT: case SB_IR_OP_WAVE_ACTIVE_INT: return wave_op <= SB_IR_WAVE_MAX;
    case SB_IR_OP_WAVE_ACTIVE_UINT: return wave_op < SB_IR_WAVE_OP_COUNT;
    case SB_IR_OP_WAVE_PREFIX_FLOAT: case SB_IR_OP_WAVE_PREFIX_INT: return wave_op <= SB_IR_WAVE_PRODUCT;
    default: return wave_op == 0;
    }
}

/* Spellings of enum sb_ir_wave_op for the printer and messages. */
const char *sb_ir_wave_op_name(uint32_t wave_op)
{
    static const char *const names[SB_IR_WAVE_OP_COUNT] = { "sum", "product", "min", "max",
                                                            "and", "or", "xor" };
    return wave_op < SB_IR_WAVE_OP_COUNT ? names[wave_op] : "?";
}

const struct sb_ir_op_info *sb_ir_op_info(uint32_t op)
{
    if (op >= SB_IR_OP_COUNT || !ir_ops[op].name)
        return NULL;
    return &ir_ops[op];
}

const char *sb_ir_op_name(uint32_t op)
{
    const struct sb_ir_op_info *info = sb_ir_op_info(op);
    return info ? info->name : "?";
}

struct sb_ir_operand sb_ir_double_source(const struct sb_ir_operand *src, uint32_t dst_mask)
{
    struct sb_ir_operand out = *src;
    if (!(dst_mask & 3u)) /* only zw written: it pairs with the source's second slot */
        out.swizzle[0] = out.swizzle[1];
    return out;
}

/* In 1/16 pixel (D3D11.3 functional specification, "Standard Sample Patterns"), the patterns
 * of 1, 2, 4, 8 and 16 samples in a row; Vulkan's standardSampleLocations table holds the same
 * points, shifted by 0.5 pixel. */
static const int8_t standard_positions[31][2] = {
    { 0, 0 },
    { 4, 4 }, { -4, -4 },
    { -2, -6 }, { 6, -2 }, { -6, 2 }, { 2, 6 },
    { 1, -3 }, { -1, 3 }, { 5, 1 }, { -3, -5 }, { -5, 5 }, { -7, -1 }, { 3, 7 }, { 7, -7 },
    { 1, 1 }, { -1, -3 }, { -3, 2 }, { 4, -1 }, { -5, -2 }, { 2, 5 }, { 5, 3 }, { 3, -5 },
    { -2, 6 }, { 0, -7 }, { -4, -6 }, { -6, 4 }, { -8, 0 }, { 7, -4 }, { 6, 7 }, { -7, -8 },
};

bool sb_ir_standard_sample_position(uint32_t count, uint32_t index, float xy[2])
{
    xy[0] = xy[1] = 0.0f;
    if (!count || count > 16 || (count & (count - 1)) || index >= count)
        return false;
    xy[0] = standard_positions[count - 1 + index][0] / 16.0f;
    xy[1] = standard_positions[count - 1 + index][1] / 16.0f;
    return true;
}
