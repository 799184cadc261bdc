/* SPDX-License-Identifier: MIT */
/*
 * The DXIL disassembler on programs written by tests/common/dxil_programs.c,
 * against listings written by hand from each program's construction (no
 * tool needed): LLVM's numbering across blocks, `; <label>:N` lines with
 * their predecessors (latest use first), phis, compare and branch, a
 * groupshared global with GEP/load/store, fast-math float arithmetic with a
 * float constant, dx.op comments, and a module
 * without a program header.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cursor.h"
#include "dxil_programs.h"
#include "reflect/bitcode.h"
#include "shaderbridge/reflect.h"
#include "translator/dxil_disasm.h"

/* cs_loop: head (entry) -> loop | exit; loop -> loop | exit; exit stores the phi. */
static const char cs_loop_body[] =
    "define void @main() {\n"
    "  %1 = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)"
    "  ; CreateHandle(resourceClass,rangeId,index,nonUniformIndex)\n"
    "  %2 = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 2, i32 0, i32 0, i1 false)"
    "  ; CreateHandle(resourceClass,rangeId,index,nonUniformIndex)\n"
    "  %3 = call %dx.types.CBufRet.i32 @dx.op.cbufferLoadLegacy.i32(i32 59, %dx.types.Handle %2, "
    "i32 0)  ; CBufferLoadLegacy(handle,regIndex)\n"
    "  %4 = extractvalue %dx.types.CBufRet.i32 %3, 0\n"
    "  %5 = icmp eq i32 %4, 0\n"
    "  br i1 %5, label %12, label %6\n"
    "\n"
    "; <label>:6                                       ; preds = %6, %0\n"
    "  %7 = phi i32 [ 0, %0 ], [ %10, %6 ]\n"
    "  %8 = phi i32 [ 0, %0 ], [ %9, %6 ]\n"
    "  %9 = add i32 %8, %7\n"
    "  %10 = add i32 %7, 1\n"
    "  %11 = icmp ult i32 %10, %4\n"
    "  br i1 %11, label %6, label %12\n"
    "\n"
    "; <label>:12                                      ; preds = %6, %0\n"
    "  %13 = phi i32 [ 0, %0 ], [ %9, %6 ]\n"
    "  call void @dx.op.bufferStore.i32(i32 69, %dx.types.Handle %1, i32 0, i32 undef, i32 %13, "
    "i32 undef, i32 undef, i32 undef, i8 1)"
    "  ; BufferStore(uav,coord0,coord1,value0,value1,value2,value3,mask)\n"
    "  ret void\n"
    "}\n";

/* cs_groupshared: g[t] = t*t; barrier; u0[t*4] = g[7-t]; GEPs not inbounds. */
static const char cs_groupshared_body[] =
    "define void @main() {\n"
    "  %1 = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)"
    "  ; CreateHandle(resourceClass,rangeId,index,nonUniformIndex)\n"
    "  %2 = call i32 @dx.op.flattenedThreadIdInGroup.i32(i32 96)  ; FlattenedThreadIdInGroup()\n"
    "  %3 = mul i32 %2, %2\n"
    "  %4 = getelementptr [8 x i32], [8 x i32] addrspace(3)* @\"\\01?g_values@@3PAIA\", i32 0, "
    "i32 %2\n"
    "  store i32 %3, i32 addrspace(3)* %4, align 4\n"
    "  call void @dx.op.barrier(i32 80, i32 9)  ; Barrier(barrierMode)\n"
    "  %5 = sub i32 7, %2\n"
    "  %6 = getelementptr [8 x i32], [8 x i32] addrspace(3)* @\"\\01?g_values@@3PAIA\", i32 0, "
    "i32 %5\n"
    "  %7 = load i32, i32 addrspace(3)* %6, align 4\n"
    "  %8 = shl i32 %2, 2\n"
    "  call void @dx.op.bufferStore.i32(i32 69, %dx.types.Handle %1, i32 %8, i32 undef, i32 %7, "
    "i32 undef, i32 undef, i32 undef, i8 1)"
    "  ; BufferStore(uav,coord0,coord1,value0,value1,value2,value3,mask)\n"
    "  ret void\n"
    "}\n";

/* ps_scale: fast-math fmul, a float constant in LLVM's %e spelling, the last output stored
 * straight from the cbuffer row (1.0 * w folds away). */
static const char ps_scale_lines[] =
    "  %9 = fmul fast float %2, %5\n"
    "  %10 = fmul fast float %3, %6\n"
    "  %11 = fmul fast float %7, 0.000000e+00\n"
    "  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 0, float %9)";
static const char ps_scale_last_store[] =
    "  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 3, float %8)";

/* The DXIL part of a written container: its data, size and file offset. */
static bool find_dxil(const struct tbuf *container, const uint8_t **part, size_t *size,
                      uint64_t *offset)
{
    uint32_t count = sb_load_u32(container->data + 28);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t at = sb_load_u32(container->data + 32 + 4 * i);
        if (!memcmp(container->data + at, "DXIL", 4)) {
            *part = container->data + at + 8;
            *size = sb_load_u32(container->data + at + 4);
            *offset = at + 8;
            return true;
        }
    }
    return false;
}

static char *disassemble(bool (*write)(struct tbuf *))
{
    struct tbuf container = { 0 };
    char *text = NULL;
    const uint8_t *part = NULL;
    size_t size = 0;
    uint64_t offset = 0;
    struct sb_error error = { 0 };
    if (write(&container) && find_dxil(&container, &part, &size, &offset)) {
        enum sb_result result = sb_dxil_disassemble(part, size, offset, &text, &error);
        CHECK(result == SB_SUCCESS, "disassemble: %s", error.message);
    }
    free(container.data);
    return text;
}

static void expect_contains(const char *text, const char *expected, const char *what)
{
    bool found = text && strstr(text, expected);
    CHECK(found, "%s: expected\n%s\ngot\n%s", what, expected, text ? text : "(none)");
}

static void test_cs_loop(void)
{
    char *text = disassemble(dxil_program_cs_loop);
    expect_contains(text, cs_loop_body, "cs_loop body");
    expect_contains(text, "; shader model cs_6_0, DXIL version 1.0\n; entry point: main\n",
                    "cs_loop header");
    expect_contains(text, "\n%dx.types.CBufRet.i32 = type { i32, i32, i32, i32 }\n",
                    "cs_loop struct type");
    sb_dxil_text_free(text);
}

static void test_cs_groupshared(void)
{
    char *text = disassemble(dxil_program_cs_groupshared);
    expect_contains(text, cs_groupshared_body, "cs_groupshared body");
    expect_contains(text, "\n@\"\\01?g_values@@3PAIA\" = external addrspace(3) global [8 x i32]",
                    "cs_groupshared global");
    expect_contains(text, "; Function Attrs: noduplicate nounwind\n"
                          "declare void @dx.op.barrier(i32, i32) #",
                    "cs_groupshared barrier declaration");
    sb_dxil_text_free(text);
}

static void test_ps_scale(void)
{
    char *text = disassemble(dxil_program_ps_scale);
    expect_contains(text, ps_scale_lines, "ps_scale fmul and first store");
    expect_contains(text, ps_scale_last_store, "ps_scale last store");
    expect_contains(text, "  %2 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 0, i32 undef)",
                    "ps_scale loadInput");
    sb_dxil_text_free(text);
}

/* Bare bitcode (sb_bc_read, no program header): no header comments, the module from the
 * target lines on. */
static void test_bare_module(void)
{
    struct tbuf container = { 0 };
    const uint8_t *part = NULL;
    size_t size = 0;
    uint64_t offset = 0;
    struct sb_bc_module *module = NULL;
    struct sb_error error = { 0 };
    if (dxil_program_cs_store(&container) && find_dxil(&container, &part, &size, &offset)) {
        uint32_t bitcode = 8 + sb_load_u32(part + 16);
        CHECK(sb_bc_read(part + bitcode, sb_load_u32(part + 20), 0, &module, &error) ==
                  SB_SUCCESS, "bare read: %s", error.message);
    }
    char *text = NULL;
    if (module)
        CHECK(sb_dxil_disassemble_module(module, &text, &error) == SB_SUCCESS, "bare: %s",
              error.message);
    CHECK(text && !strncmp(text, "target datalayout = \"", 21), "bare starts with the target: %s",
          text ? text : "(none)");
    expect_contains(text, "  %5 = or i32 %4, 1\n", "bare body");
    sb_dxil_text_free(text);
    CHECK(sb_dxil_disassemble_module(NULL, &text, &error) == SB_ERROR_INVALID_ARGUMENT && !text,
          "NULL module refused");
    sb_bc_module_destroy(module);
    free(container.data);
}

int main(void)
{
    test_cs_loop();
    test_cs_groupshared();
    test_ps_scale();
    test_bare_module();
    printf("dxil_disasm_programs: %u checks, %u failed\n", checks, failures);
    return failures ? 1 : 0;
}
