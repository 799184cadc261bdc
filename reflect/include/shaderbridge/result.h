/* SPDX-License-Identifier: MIT */
/*
 * Result codes and the one structured error type shared by every
 * shaderbridge module.
 *
 * Codes are sign-coded: SB_SUCCESS is 0 and every failure is negative, so
 * `r != SB_SUCCESS` and `r < 0` always agree. Failures are grouped in
 * thousand-blocks by the stage that detected them (generic 1..999,
 * container readers 1000..1999, SM4/5 token decoder 2000..2999, translation
 * 3000..3999, running shaders 4000..4999, source text 5000..5999, LLVM
 * bitcode 6000..6999), so a code alone says which stage failed.
 *
 * SB_API marks the functions libshaderbridge.so exports: the library is built
 * with hidden visibility, so the functions declared in the installed headers
 * are its whole dynamic interface.
 */
#ifndef SHADERBRIDGE_RESULT_H
#define SHADERBRIDGE_RESULT_H

#include <stddef.h>
#include <stdint.h>

#ifndef SB_API
#if defined(__GNUC__) || defined(__clang__)
#define SB_API __attribute__((visibility("default")))
#else
#define SB_API
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** Status returned by every status-returning public function. */
enum sb_result {
    SB_SUCCESS = 0,

    /* Generic failures. */
    SB_ERROR_INVALID_ARGUMENT = -1, /**< a NULL or out-of-range argument */
    SB_ERROR_OUT_OF_MEMORY = -2,    /**< an allocation failed */
    SB_ERROR_UNKNOWN_FORMAT = -3,   /**< the bytes are none of the known formats */
    SB_ERROR_IO = -4,               /**< reading or writing a file failed */

    /* Container readers (DXContainer, SHBIN/DVLB, VBC). */
    SB_ERROR_TRUNCATED = -1001,     /**< a field or record runs past the end of its data */
    SB_ERROR_BAD_MAGIC = -1002,     /**< a magic number or FourCC is wrong */
    SB_ERROR_BAD_VERSION = -1003,   /**< an unsupported format or record version */
    SB_ERROR_BAD_OFFSET = -1004,    /**< an offset points outside its data or into a header */
    SB_ERROR_BAD_SIZE = -1005,      /**< a size field disagrees with the data */
    SB_ERROR_BAD_COUNT = -1006,     /**< a count exceeds what the data or format allows */
    SB_ERROR_BAD_VALUE = -1007,     /**< an enumerant or field value outside its range */
    SB_ERROR_BAD_STRING = -1008,    /**< a string is unterminated or not where it should be */
    SB_ERROR_TRAILING_DATA = -1009, /**< bytes left over where a format must be consumed exactly */
    SB_ERROR_DUPLICATE = -1010,     /**< a part or record that may appear once appears twice */

    /* SM4/5 token decoder (translator, ../shared/docs/sm4-tokens.md). The offset is that of the
     * offending token; sb_error::instr is the instruction index (UINT32_MAX for the
     * program header). */
    SB_ERROR_SM4_BAD_HEADER = -2001,     /**< version token (stage, model) or length token
                                              (< 2, past the data) invalid */
    SB_ERROR_SM4_UNKNOWN_OPCODE = -2002, /**< an opcode number that is reserved or unknown */
    SB_ERROR_SM4_BAD_LENGTH = -2003,     /**< an instruction length of 0 or one that runs
                                              past the program's end */
    SB_ERROR_SM4_LENGTH_TOO_SHORT = -2004, /**< the tokens an opcode defines (operands,
                                              payload) need more DWORDs than its length */
    SB_ERROR_SM4_BAD_OPERAND = -2005,    /**< an operand token with an invalid component
                                              count, selection mode or operand type */
    SB_ERROR_SM4_BAD_INDEX = -2006,      /**< an index representation above 4, or relative
                                              indices nested too deeply */
    SB_ERROR_SM4_BAD_EXTENDED = -2007,   /**< an extended opcode or operand token of an
                                              unknown type */
    SB_ERROR_SM4_BAD_CUSTOM_DATA = -2008, /**< a custom-data block with a bad length, an
                                              ICB that is not whole rows, or a shader
                                              message whose fields disagree */

    /* Translation (IR front ends, SPIR-V back end; translator/IR.md). The offset is that
     * of the source instruction or declaration concerned. */
    SB_ERROR_TRANSLATE_UNSUPPORTED = -3001, /**< a valid construct the translator cannot
                                                 express (named in the message) */
    SB_ERROR_TRANSLATE_INVALID = -3002,  /**< a program that breaks the ISA's rules: unbalanced
                                              control flow, an undeclared register, an index
                                              out of its declared range */
    SB_ERROR_SPIRV_INVALID = -3003,      /**< the generated SPIR-V failed validation (a
                                              translator bug; the message is spirv-val's) */
    SB_ERROR_SPIRV_OPTIMIZE = -3004,     /**< the SPIRV-Tools optimiser failed */
    SB_ERROR_TARGET_CROSS = -3005,       /**< SPIRV-Cross could not write the module in the
                                              chosen text target (GLSL, ESSL, MSL, HLSL); the
                                              message is SPIRV-Cross's */

    /* Running shaders (runtime/: the CPU interpreter and the Vulkan runtime). The offset is
     * that of the source instruction concerned, 0 when none is. */
    SB_ERROR_RUN_UNSUPPORTED = -4001,    /**< an instruction, resource kind or format the
                                              interpreter or runtime does not run (named) */
    SB_ERROR_RUN_BUDGET = -4002,         /**< the interpreter's instruction budget ran out
                                              (a shader that does not terminate, or too big
                                              a dispatch for the budget) */
    SB_ERROR_RUN_BINDING = -4003,        /**< a resource the shader declares was not given,
                                              or was given with a size or format it cannot
                                              be used with */
    SB_ERROR_VULKAN = -4004,             /**< a Vulkan call failed (the VkResult is named) */
    SB_ERROR_NO_DEVICE = -4005,          /**< no Vulkan loader or no matching device */

    /* Source text (the picasso-syntax PICA200 assembler). The offset is the byte offset
     * in the text; the assembler's diagnostic adds the line and column. */
    SB_ERROR_ASM_SYNTAX = -5001,         /**< text the assembler cannot read: an unknown
                                              mnemonic or directive, a malformed operand, a
                                              value out of range, a NUL byte (named) */

    /* LLVM bitcode (the DXIL program, ../shared/docs/dxil.md §2). The offset is the byte
     * holding the first bit of the offending item; the message adds its bit offset and
     * names the block, record and field. Truncation and count bombs use the container
     * codes above (SB_ERROR_TRUNCATED, SB_ERROR_BAD_COUNT). */
    SB_ERROR_BC_BAD_ABBREV = -6001,      /**< an abbreviation id that is not defined in its
                                              block, or a malformed DEFINE_ABBREV */
    SB_ERROR_BC_VBR_TOO_LONG = -6002,    /**< a VBR field whose value needs more than 64 bits */
    SB_ERROR_BC_BAD_BLOCK = -6003,       /**< a block whose length runs past its parent's end
                                              or the data, an END_BLOCK with no open block, a
                                              record outside any block, a missing block */
    SB_ERROR_BC_TOO_DEEP = -6004,        /**< blocks nested deeper than the reader allows */
    SB_ERROR_BC_BAD_RECORD = -6005,      /**< a record with too few operands, an unknown code
                                              where the reader must understand every one, or a
                                              field out of its range (named) */
    SB_ERROR_BC_BAD_TYPE = -6006,        /**< a type id out of range, or of a kind the record
                                              cannot use */
    SB_ERROR_BC_BAD_REFERENCE = -6007,   /**< a value, basic-block or metadata id out of range,
                                              or a forward reference that is never defined */

    SB_RESULT_MAX_ENUM = 0x7fffffff
};

/** Size of the message buffer inside struct sb_error, terminator included. */
#define SB_ERROR_MESSAGE_SIZE 192

/**
 * A structured error: what went wrong, where in the input, and a sentence
 * naming the field, the value found and the limit it broke.
 *
 * Functions that take a `struct sb_error *` accept NULL (no details wanted)
 * and on success leave the struct untouched.
 */
struct sb_error {
    enum sb_result code; /**< the failure; SB_SUCCESS when nothing failed */
    uint64_t offset;     /**< byte offset in the input where the problem lies */
    uint32_t instr;      /**< instruction index for decoders; UINT32_MAX when not applicable */
    char message[SB_ERROR_MESSAGE_SIZE]; /**< NUL-terminated English sentence, no trailing newline */
};

/** A non-fatal finding (for example a container checksum mismatch). */
struct sb_warning {
    uint64_t offset;                     /**< byte offset the warning refers to */
    char message[SB_ERROR_MESSAGE_SIZE]; /**< NUL-terminated sentence */
};

/**
 * Returns a short constant name for a result code ("SB_ERROR_TRUNCATED"),
 * or "SB_RESULT_UNKNOWN" for values that are not members of the enum.
 * The string is static; never free it.
 */
SB_API const char *sb_result_name(enum sb_result result);

#ifdef __cplusplus
}
#endif

#endif
