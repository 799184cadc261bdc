/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V module builder (private to the translator): binary words written
 * straight from the SPIR-V headers' enums, one pass, no text round trip.
 *
 * A module is kept as one growable word stream per logical-layout section
 * (SPIR-V spec §2.4), concatenated by sb_spv_builder_finish(). Types and
 * constants are deduplicated through an open-addressing hash table keyed by
 * their opcode and operand words, so asking for an array type a thousand
 * times costs a hash probe, not a search; void and the 32-bit numeric
 * scalars and vectors, which every module asks for, are a table read. Global variables are remembered
 * with their storage class so the entry point's interface list can be
 * written at the end (SPIR-V 1.4+ lists every global, earlier versions only
 * Input/Output).
 *
 * Function bodies: one function is open at a time. Its OpFunction/parameters,
 * its Function-storage OpVariables and its body are kept apart so a variable
 * can be added while the body is being written; sb_spv_function_end() keeps
 * the three streams (no copy) and sb_spv_builder_finish() writes them after
 * the other sections (variables first in the entry block, as the spec requires).
 *
 * Block tracking: after a terminator (OpBranch, OpReturn, OpKill, ...) the
 * current block is closed; an instruction emitted while no block is open
 * first opens a fresh (unreachable) block, so emitters never produce an
 * instruction outside a block.
 *
 * Failure is sticky: an allocation failure (or an instruction over 65,535
 * words) sets `failed`, later calls are no-ops returning id 0, and
 * sb_spv_builder_word_count() reports it (0 words).
 */
#ifndef SHADERBRIDGE_SPIRV_BUILDER_H
#define SHADERBRIDGE_SPIRV_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <spirv/unified1/spirv.h>

/** A growable array of words. */
struct sb_spv_stream {
    uint32_t *words;
    size_t count;
    size_t capacity;
};

/** Module sections in logical-layout order (spec §2.4). */
enum sb_spv_section {
    SB_SPV_SECTION_CAPABILITY = 0,
    SB_SPV_SECTION_EXTENSION,
    SB_SPV_SECTION_EXT_INST_IMPORT,
    SB_SPV_SECTION_MEMORY_MODEL,
    SB_SPV_SECTION_ENTRY_POINT,
    SB_SPV_SECTION_EXECUTION_MODE,
    SB_SPV_SECTION_DEBUG_STRING,  /**< OpString, OpSource */
    SB_SPV_SECTION_DEBUG_NAME,    /**< OpName, OpMemberName */
    SB_SPV_SECTION_ANNOTATION,    /**< OpDecorate, OpMemberDecorate */
    SB_SPV_SECTION_GLOBAL,        /**< types, constants, global variables, OpUndef */
    SB_SPV_SECTION_FUNCTION,      /**< finished functions */
    SB_SPV_SECTION_COUNT
};

/** One deduplicated type/constant: hash of its key, where the key lies, its id. */
struct sb_spv_cache_entry {
    uint32_t hash;
    uint32_t key_offset; /**< into sb_spv_builder::keys */
    uint32_t key_count;
    uint32_t id;
    uint32_t generation; /**< the slot is empty unless this is the builder's generation */
};

/** A cached 32-bit scalar OpConstant (its own table: the most frequent lookup). */
struct sb_spv_const_entry {
    uint32_t type, bits, id;
    uint32_t generation; /**< the slot is empty unless this is the builder's generation */
};

/** A global OpVariable (for the entry point's interface list). */
struct sb_spv_global {
    uint32_t id;
    uint32_t storage_class; /**< SpvStorageClass */
};

/** The 32-bit numeric kinds (sb_spv_builder::numeric, sb_spv_type_numeric). */
enum sb_spv_numeric {
    SB_SPV_NUMERIC_FLOAT,
    SB_SPV_NUMERIC_INT,   /**< signed */
    SB_SPV_NUMERIC_UINT,
    SB_SPV_NUMERIC_BOOL,
};
/** No declaration or instruction is being translated (sb_spv_builder::origin). */
#define SB_SPV_NO_ORIGIN UINT64_MAX
/** Capabilities whose origin a builder records: more than any module declares (the
 *  capability set itself holds 192 small values and 16 large ones). */
#define SB_SPV_MAX_ORIGINS 64u

struct sb_spv_builder {
    uint32_t version;        /**< SPIR-V version word (0x00010300 = 1.3) */
    uint32_t next_id;        /**< the bound so far */
    bool failed;             /**< sticky allocation failure */
    struct sb_spv_stream sections[SB_SPV_SECTION_COUNT];

    /** Storage borrowed from this thread's workspace (spirv_builder_storage.c), given back
     *  by sb_spv_builder_release(). */
    bool borrowed;
    /** Marks this module's entries in the hash tables: tables kept from an earlier module
     *  need no clearing, their entries of other generations read as empty. */
    uint32_t generation;

    /* Type/constant cache. */
    struct sb_spv_cache_entry *cache;
    uint32_t cache_capacity; /**< power of two */
    uint32_t cache_used;
    struct sb_spv_stream keys;

    /* Capabilities already declared: a bit set over the small values and a
     * short list for the large (extension) ones. */
    uint64_t capability_bits[3];
    uint32_t capability_extra[16];
    uint32_t capability_extra_count;
    /** The byte offset in the input of the declaration or instruction being translated
     *  (SB_SPV_NO_ORIGIN between them), set by the back end as it walks the IR. A
     *  capability declared for the first time records it, so a runtime refusing the
     *  capability can point at what needed it (sb_translation::capability_origins). */
    uint64_t origin;
    uint32_t origin_capability[SB_SPV_MAX_ORIGINS];
    uint64_t origin_offset[SB_SPV_MAX_ORIGINS];
    uint32_t origin_count;
    uint32_t glsl_std450;    /**< OpExtInstImport id, 0 until asked for */
    /** Direct-mapped memo in front of `cache` for two-word keys (pointer, vector and
     *  array types are asked for over and over): op, key words, id; id 0 = empty. */
    struct { uint32_t op, a, b, id; } memo[64];
    struct sb_spv_const_entry *consts; /**< open addressing on (type, bits) */
    uint32_t const_capacity, const_used;
    /** void and the 32-bit numeric types, kept out of the hash table (spirv_builder_types.c):
     *  numeric[enum sb_spv_numeric][lanes], lanes 1 = the scalar, 2..4 its vectors; 0 until
     *  declared. */
    uint32_t void_type;
    uint32_t numeric[4][5];
    /** Fast path for the most common constants, small uints (indices, lanes): OpConstant
     *  uint ids for 0..31 (of numeric[SB_SPV_NUMERIC_UINT][1]), 0 until created. */
    uint32_t small_u32[32];

    struct sb_spv_global *globals;
    uint32_t global_count, global_capacity;

    /* The open function. */
    bool in_function;
    bool block_open;         /**< a label was emitted and no terminator yet */
    uint32_t current_block;  /**< id of the open block's label */
    uint32_t current_function;
    struct sb_spv_stream fn_header; /**< OpFunction, OpFunctionParameter, first OpLabel */
    struct sb_spv_stream fn_vars;   /**< Function-storage OpVariable */
    struct sb_spv_stream fn_body;
    /** Finished functions' streams (header, variables, body per function), handed over
     *  by sb_spv_function_end() instead of copied: sb_spv_builder_finish() copies each
     *  body once, straight into the module. */
    struct sb_spv_stream *fn_done;
    uint32_t fn_done_count, fn_done_capacity;
};

/* ---- lifetime -------------------------------------------------------------------- */
/*
 * The storage of a builder (word streams, hash tables, lists) is kept per
 * thread between modules (spirv_builder_storage.c): a translation then
 * writes into memory that is already mapped and warm instead of growing a
 * dozen fresh allocations from nothing, which dominated the cost of small
 * modules. One builder per thread borrows it at a time; another one on the
 * same thread simply allocates its own.
 */

/** Starts an empty module for SPIR-V `version` (e.g. 0x00010300). */
void sb_spv_builder_init(struct sb_spv_builder *b, uint32_t version);
/** Frees all storage; the builder may be initialised again. */
void sb_spv_builder_release(struct sb_spv_builder *b);
/**
 * Words of the finished module (header and every section); 0 after an allocation failure
 * (or an earlier one) or with a function still open: the module cannot be finished.
 */
size_t sb_spv_builder_word_count(const struct sb_spv_builder *b);
/** Writes the finished module, sb_spv_builder_word_count() words, to `out` (the caller's
 *  storage: the module is written once, where it is kept). */
void sb_spv_builder_finish(const struct sb_spv_builder *b, uint32_t *out);

/* ---- storage (spirv_builder_storage.c) ---------------------------------------------- */

/** Hands this thread's kept storage to `b` (initialised, empty) when no builder has it. */
void sb_spv_storage_borrow(struct sb_spv_builder *b);
/** Keeps `b`'s storage for the next builder of this thread; frees what is not kept. */
void sb_spv_storage_return(struct sb_spv_builder *b);
/** A kept empty stream for a new function's `role` (0 header, 1 variables, 2 body), or an empty one. */
struct sb_spv_stream sb_spv_storage_function_stream(struct sb_spv_builder *b, uint32_t role);

/* spirv_builder_stream.c */
/** Makes room for `extra` more words in `s`; false (sticky in `b`) on allocation failure. */
bool sb_spv_stream_grow(struct sb_spv_builder *b, struct sb_spv_stream *s, size_t extra);
/* spirv_builder_cache.c */
/** Doubles the type cache (64 entries at first), rehashing the live entries; false on OOM. */
bool sb_spv_cache_grow(struct sb_spv_builder *b);
/** Doubles the scalar-constant cache likewise; false on OOM. */
bool sb_spv_consts_grow(struct sb_spv_builder *b);
/**
 * The home slot of a 32-bit constant in that cache (`capacity` a power of two): the top
 * bits of a product. The low bits of a float's pattern are mostly zero (1.0 is 0x3F800000,
 * 0.5 0x3F000000), so a slot taken from the low bits sent most float constants of a type
 * down one probe chain: three probes a lookup on the corpus.
 */
static inline uint32_t sb_spv_const_slot(uint32_t type, uint32_t bits, uint32_t capacity)
{
    uint32_t h = ((bits * 0x9E3779B1u) ^ type) * 0x85EBCA77u;
    return (uint32_t)(((uint64_t)h * capacity) >> 32);
}

/* ---- raw emission ------------------------------------------------------------------ */

/** A fresh result id. */
uint32_t sb_spv_id(struct sb_spv_builder *b);
/** Appends one instruction `op` with `count` operand words to a section. */
void sb_spv_emit(struct sb_spv_builder *b, enum sb_spv_section section, SpvOp op,
                 const uint32_t *operands, uint32_t count);
/** Appends a NUL-terminated string as literal words (helper for string operands). */
/** sb_spv_emit() of the operands `head` then `tail`, written straight into the section (no
 *  joined copy to allocate for long operand lists). */
void sb_spv_emit_joined(struct sb_spv_builder *b, enum sb_spv_section section, SpvOp op,
                        const uint32_t *head, uint32_t head_count, const uint32_t *tail, uint32_t tail_count);
void sb_spv_stream_string(struct sb_spv_builder *b, struct sb_spv_stream *s, const char *str);
/** Words a literal string takes (terminator included). */
uint32_t sb_spv_string_words(const char *str);

/* ---- module-level ------------------------------------------------------------------ */

/** Declares a capability once (repeats are ignored); the first records the builder's origin. */
void sb_spv_capability(struct sb_spv_builder *b, SpvCapability cap);
/** Declares an extension once (repeats are ignored). */
void sb_spv_extension(struct sb_spv_builder *b, const char *name);
/** The "GLSL.std.450" import id (imported on first use). */
uint32_t sb_spv_glsl(struct sb_spv_builder *b);
/** OpMemoryModel Logical GLSL450. */
void sb_spv_memory_model(struct sb_spv_builder *b);
/**
 * OpEntryPoint `model` `function` "name" with the interface: every global
 * variable from the list when the version is 1.4 or later, else only the
 * Input/Output ones. Call once, after all globals were created.
 */
void sb_spv_entry_point(struct sb_spv_builder *b, SpvExecutionModel model, uint32_t function,
                        const char *name);
/** OpExecutionMode with up to 3 literals. */
void sb_spv_execution_mode(struct sb_spv_builder *b, uint32_t function, SpvExecutionMode mode,
                           const uint32_t *literals, uint32_t count);

/* ---- debug and annotations ----------------------------------------------------------- */

/** OpString; returns its id. */
uint32_t sb_spv_string(struct sb_spv_builder *b, const char *str);
/** OpSource `language` `version` [file]. file 0 = none. */
void sb_spv_source(struct sb_spv_builder *b, SpvSourceLanguage language, uint32_t version,
                   uint32_t file);
void sb_spv_name(struct sb_spv_builder *b, uint32_t id, const char *name);
void sb_spv_member_name(struct sb_spv_builder *b, uint32_t type, uint32_t member, const char *name);
/** OpDecorate with up to 3 literals. */
void sb_spv_decorate(struct sb_spv_builder *b, uint32_t id, SpvDecoration decoration,
                     const uint32_t *literals, uint32_t count);
/** OpDecorate with one literal. */
void sb_spv_decorate1(struct sb_spv_builder *b, uint32_t id, SpvDecoration decoration, uint32_t literal);
void sb_spv_member_decorate(struct sb_spv_builder *b, uint32_t type, uint32_t member,
                            SpvDecoration decoration, const uint32_t *literals, uint32_t count);

/* ---- types (cached unless named "unique") ------------------------------------------------ */

uint32_t sb_spv_type_void(struct sb_spv_builder *b);
uint32_t sb_spv_type_bool(struct sb_spv_builder *b);
uint32_t sb_spv_type_int(struct sb_spv_builder *b, uint32_t width, bool is_signed);
uint32_t sb_spv_type_float(struct sb_spv_builder *b, uint32_t width);
/**
 * The n-lane vector (n = 1: the scalar) of a 32-bit numeric kind, from
 * sb_spv_builder::numeric or declared now (a vector after its component); 0 for n
 * outside 1..4. The same ids as sb_spv_type_float/int/bool and sb_spv_type_vector.
 */
uint32_t sb_spv_type_numeric(struct sb_spv_builder *b, enum sb_spv_numeric kind, uint32_t n);
/** OpTypeVector; count 1 returns `component` itself. */
uint32_t sb_spv_type_vector(struct sb_spv_builder *b, uint32_t component, uint32_t count);
/** OpTypeArray with a uint constant length (cached: never decorate it). */
uint32_t sb_spv_type_array(struct sb_spv_builder *b, uint32_t element, uint32_t length);
/** A new OpTypeArray id each call, for arrays that get ArrayStride. */
uint32_t sb_spv_type_array_unique(struct sb_spv_builder *b, uint32_t element, uint32_t length);
/** A new OpTypeRuntimeArray each call (they are always decorated). */
uint32_t sb_spv_type_runtime_array_unique(struct sb_spv_builder *b, uint32_t element);
/** A cached OpTypeStruct, for undecorated result structs (OpIAddCarry ...). */
uint32_t sb_spv_type_struct(struct sb_spv_builder *b, const uint32_t *members, uint32_t count);
/** A new OpTypeStruct each call (structs carry Block/Offset decorations). */
uint32_t sb_spv_type_struct_unique(struct sb_spv_builder *b, const uint32_t *members, uint32_t count);
uint32_t sb_spv_type_pointer(struct sb_spv_builder *b, SpvStorageClass storage, uint32_t type);
uint32_t sb_spv_type_function(struct sb_spv_builder *b, uint32_t return_type, const uint32_t *params,
                              uint32_t count);
/** OpTypeImage sampled_type dim depth arrayed ms sampled format (no access qualifier). */
uint32_t sb_spv_type_image(struct sb_spv_builder *b, uint32_t sampled_type, SpvDim dim, uint32_t depth,
                           bool arrayed, bool ms, uint32_t sampled, SpvImageFormat format);
uint32_t sb_spv_type_sampler(struct sb_spv_builder *b);
uint32_t sb_spv_type_sampled_image(struct sb_spv_builder *b, uint32_t image_type);

/* ---- constants (cached) --------------------------------------------------------------------- */

/** A 32-bit scalar constant of `type` (int, uint or float) with these bits. */
uint32_t sb_spv_const32_slow(struct sb_spv_builder *b, uint32_t type, uint32_t bits);
static inline uint32_t sb_spv_const32(struct sb_spv_builder *b, uint32_t type, uint32_t bits)
{
    /* Small uints (lanes, indices) are most of the constants asked for. */
    if (type == b->numeric[SB_SPV_NUMERIC_UINT][1] && bits < 32 && b->small_u32[bits])
        return b->small_u32[bits];
    return sb_spv_const32_slow(b, type, bits);
}
/** A 64-bit scalar constant (double or 64-bit int). */
uint32_t sb_spv_const64(struct sb_spv_builder *b, uint32_t type, uint64_t bits);
uint32_t sb_spv_const_bool(struct sb_spv_builder *b, bool value);
uint32_t sb_spv_const_composite(struct sb_spv_builder *b, uint32_t type, const uint32_t *constituents,
                                uint32_t count);
/** A vector of `count` copies of a scalar constant (count 1 returns `scalar`). */
uint32_t sb_spv_const_splat(struct sb_spv_builder *b, uint32_t vector_type, uint32_t scalar,
                            uint32_t count);
uint32_t sb_spv_const_null(struct sb_spv_builder *b, uint32_t type);
/** uint (32-bit unsigned) constant: the most common index form. */
uint32_t sb_spv_const_u32(struct sb_spv_builder *b, uint32_t value);
uint32_t sb_spv_const_i32(struct sb_spv_builder *b, int32_t value);
uint32_t sb_spv_const_f32(struct sb_spv_builder *b, float value);
/** OpUndef of `type` (cached). */
uint32_t sb_spv_undef(struct sb_spv_builder *b, uint32_t type);

/* ---- variables ---------------------------------------------------------------------------- */

/** A global OpVariable (any storage class but Function); initializer 0 = none. */
uint32_t sb_spv_variable_global(struct sb_spv_builder *b, uint32_t pointer_type,
                                SpvStorageClass storage, uint32_t initializer);
/** A Function-storage OpVariable in the open function's entry block. */
uint32_t sb_spv_variable_local(struct sb_spv_builder *b, uint32_t pointer_type, uint32_t initializer);

/* ---- functions and blocks ---------------------------------------------------------------------- */

/**
 * Opens function `id` (0 = allocate) of `function_type` returning `return_type`,
 * with its first block open. Returns the function id.
 */
uint32_t sb_spv_function_begin(struct sb_spv_builder *b, uint32_t id, uint32_t return_type,
                               uint32_t function_type);
/** Makes room for about `words` words of the open function's body (a hint: skips regrowth). */
void sb_spv_function_reserve(struct sb_spv_builder *b, size_t words);
/** OpFunctionParameter (call right after sb_spv_function_begin). */
uint32_t sb_spv_function_parameter(struct sb_spv_builder *b, uint32_t type);
/** Closes the open block with OpReturn if still open, then OpFunctionEnd. */
void sb_spv_function_end(struct sb_spv_builder *b);
/** OpLabel `id` (0 = allocate): opens a block. An open block is first closed by a branch to it. */
uint32_t sb_spv_label(struct sb_spv_builder *b, uint32_t id);

/**
 * Appends an instruction to the open function's body (opening an unreachable
 * block first when none is open). Terminators close the block.
 */
void sb_spv_op(struct sb_spv_builder *b, SpvOp op, const uint32_t *operands, uint32_t count);

/** Room for `words` words in the open block of the body, opening a block or growing the
 *  stream first (the slow path of sb_spv_body_words); NULL after a failure. */
uint32_t *sb_spv_body_words_slow(struct sb_spv_builder *b, uint32_t words);

/* The few-operand emitters below are inline: they are most of what a module's body is
 * made of, and the call levels and operand arrays cost more than the writes. */

/** Room for `words` words in the open block of the body (opening one if needed). */
static inline uint32_t *sb_spv_body_words(struct sb_spv_builder *b, uint32_t words)
{
    struct sb_spv_stream *s = &b->fn_body;
    if (b->block_open && s->count + words <= s->capacity && !b->failed) {
        uint32_t *w = s->words + s->count;
        s->count += words;
        return w;
    }
    return sb_spv_body_words_slow(b, words);
}

/**
 * Starts a result-producing body instruction of `operands` operand words: writes its
 * header, result type and a fresh result id (*id), and returns where the operands go
 * (NULL after a failure, *id then 0). Result-producing instructions never end a block.
 */
static inline uint32_t *sb_spv_result_words(struct sb_spv_builder *b, SpvOp op, uint32_t type,
                                            uint32_t operands, uint32_t *id)
{
    uint32_t *w = sb_spv_body_words(b, operands + 3);
    *id = 0;
    if (!w)
        return NULL;
    *id = b->next_id++;
    w[0] = ((operands + 3) << SpvWordCountShift) | (uint32_t)op;
    w[1] = type;
    w[2] = *id;
    return w;
}

/** sb_spv_op() with a result type and a fresh result id, which is returned (inline: the
 *  callers' constant counts unroll the copy). */
static inline uint32_t sb_spv_op_result(struct sb_spv_builder *b, SpvOp op, uint32_t type,
                                        const uint32_t *operands, uint32_t count)
{
    uint32_t id;
    uint32_t *w = sb_spv_result_words(b, op, type, count, &id);
    if (!w)
        return 0;
    for (uint32_t i = 0; i < count; i++)
        w[3 + i] = operands[i];
    return id;
}

/** A result-producing instruction with up to three operand words (`count` of a, c, d). */
static inline uint32_t sb_spv_op_result3(struct sb_spv_builder *b, SpvOp op, uint32_t type,
                                         uint32_t count, uint32_t a, uint32_t c, uint32_t d)
{
    uint32_t id;
    uint32_t *w = sb_spv_result_words(b, op, type, count, &id);
    if (!w)
        return 0;
    if (count > 0)
        w[3] = a;
    if (count > 1)
        w[4] = c;
    if (count > 2)
        w[5] = d;
    return id;
}

static inline uint32_t sb_spv_op1(struct sb_spv_builder *b, SpvOp op, uint32_t type, uint32_t a)
{
    return sb_spv_op_result3(b, op, type, 1, a, 0, 0);
}

static inline uint32_t sb_spv_op2(struct sb_spv_builder *b, SpvOp op, uint32_t type, uint32_t a,
                                  uint32_t c)
{
    return sb_spv_op_result3(b, op, type, 2, a, c, 0);
}

static inline uint32_t sb_spv_op3(struct sb_spv_builder *b, SpvOp op, uint32_t type, uint32_t a,
                                  uint32_t c, uint32_t d)
{
    return sb_spv_op_result3(b, op, type, 3, a, c, d);
}
/** OpExtInst of GLSL.std.450 instruction `inst` (enum GLSLstd450) with `count` arguments. */
uint32_t sb_spv_glsl_op(struct sb_spv_builder *b, uint32_t type, uint32_t inst, const uint32_t *args,
                        uint32_t count);
uint32_t sb_spv_glsl1(struct sb_spv_builder *b, uint32_t type, uint32_t inst, uint32_t a);
uint32_t sb_spv_glsl2(struct sb_spv_builder *b, uint32_t type, uint32_t inst, uint32_t a, uint32_t c);
uint32_t sb_spv_glsl3(struct sb_spv_builder *b, uint32_t type, uint32_t inst, uint32_t a, uint32_t c,
                      uint32_t d);

static inline uint32_t sb_spv_load(struct sb_spv_builder *b, uint32_t type, uint32_t pointer)
{
    return sb_spv_op1(b, SpvOpLoad, type, pointer);
}

static inline void sb_spv_store(struct sb_spv_builder *b, uint32_t pointer, uint32_t value)
{
    uint32_t *w = sb_spv_body_words(b, 3);
    if (!w)
        return;
    w[0] = (3u << SpvWordCountShift) | (uint32_t)SpvOpStore;
    w[1] = pointer;
    w[2] = value;
}
/** OpAccessChain to `pointer_type` with `count` (at most 7) index ids. Inline and written
 *  in place: one of the most frequent instructions. */
static inline uint32_t sb_spv_access_chain(struct sb_spv_builder *b, uint32_t pointer_type, uint32_t base,
                                           const uint32_t *indices, uint32_t count)
{
    if (count > 7)
        return 0;
    uint32_t id;
    uint32_t *w = sb_spv_result_words(b, SpvOpAccessChain, pointer_type, count + 1, &id);
    if (!w)
        return 0;
    w[3] = base;
    for (uint32_t i = 0; i < count; i++)
        w[4 + i] = indices[i];
    return id;
}
/** OpCompositeExtract of one literal index. */
static inline uint32_t sb_spv_extract(struct sb_spv_builder *b, uint32_t type, uint32_t composite,
                                      uint32_t index)
{
    return sb_spv_op2(b, SpvOpCompositeExtract, type, composite, index);
}
uint32_t sb_spv_construct(struct sb_spv_builder *b, uint32_t type, const uint32_t *parts, uint32_t count);
/** OpVectorShuffle a, b with `count` (at most 4) literal components; inline, as above (forced:
 *  GCC otherwise keeps one out-of-line copy for the lane loads' hot path). */
static inline __attribute__((always_inline)) uint32_t sb_spv_shuffle(struct sb_spv_builder *b, uint32_t type, uint32_t v1, uint32_t v2,
                                      const uint32_t *components, uint32_t count)
{
    if (count > 4)
        return 0;
    uint32_t id;
    uint32_t *w = sb_spv_result_words(b, SpvOpVectorShuffle, type, count + 2, &id);
    if (!w)
        return 0;
    w[3] = v1;
    w[4] = v2;
    for (uint32_t i = 0; i < count; i++)
        w[5 + i] = components[i];
    return id;
}
/** OpVectorShuffle of `v` with itself: `count` (1-4) lanes of `v`, two bits each in `code`
 *  from bit 0. The longest form is reserved and written whole, then the words past `count`
 *  are given back: no branch on a count that changes from one operand to the next. */
static inline uint32_t sb_spv_swizzle(struct sb_spv_builder *b, uint32_t type, uint32_t v, uint32_t code,
                                      uint32_t count)
{
    if (count < 1 || count > 4)
        return 0;
    uint32_t id;
    uint32_t *w = sb_spv_result_words(b, SpvOpVectorShuffle, type, 6, &id);
    if (!w)
        return 0;
    w[0] = ((count + 5) << SpvWordCountShift) | (uint32_t)SpvOpVectorShuffle;
    w[3] = v;
    w[4] = v;
    for (uint32_t i = 0; i < 4; i++)
        w[5 + i] = (code >> 2 * i) & 3u;
    b->fn_body.count -= 4 - count;
    return id;
}
/** sb_spv_op_result3() for a `count` (0-3) known only at run time, written as
 *  sb_spv_swizzle(): all three words, then the unused ones given back. */
static inline uint32_t sb_spv_op_result_upto3(struct sb_spv_builder *b, SpvOp op, uint32_t type,
                                              uint32_t count, uint32_t a, uint32_t c, uint32_t d)
{
    if (count > 3)
        return 0;
    uint32_t id;
    uint32_t *w = sb_spv_result_words(b, op, type, 3, &id);
    if (!w)
        return 0;
    w[0] = ((count + 3) << SpvWordCountShift) | (uint32_t)op;
    w[3] = a;
    w[4] = c;
    w[5] = d;
    b->fn_body.count -= 3 - count;
    return id;
}
/** OpBitcast, or `value` itself when `from_type == to_type`. */
static inline uint32_t sb_spv_bitcast(struct sb_spv_builder *b, uint32_t to_type, uint32_t from_type,
                                      uint32_t value)
{
    if (to_type == from_type)
        return value;
    return sb_spv_op1(b, SpvOpBitcast, to_type, value);
}

void sb_spv_branch(struct sb_spv_builder *b, uint32_t target);
void sb_spv_branch_conditional(struct sb_spv_builder *b, uint32_t condition, uint32_t true_label,
                               uint32_t false_label);
void sb_spv_selection_merge(struct sb_spv_builder *b, uint32_t merge);
void sb_spv_loop_merge(struct sb_spv_builder *b, uint32_t merge, uint32_t continue_target);
/** OpReturn, OpKill, OpUnreachable ... (no operands). */
void sb_spv_terminate(struct sb_spv_builder *b, SpvOp op);

/** Is `op` a block terminator? */
bool sb_spv_is_terminator(SpvOp op);

#endif
