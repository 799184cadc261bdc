/* SPDX-License-Identifier: MIT */
/*
 * Signature merge and RDEF names (translator/IR.md §Signatures,
 * §Resources): a ps_4_0 container built here with RDEF, ISGN, OSGN and SHDR.
 * Its declarations cover some signature elements partly, two elements share
 * a register, one element is never declared, one declared register has no
 * element, and SV_Depth has no register. The lowered program must report
 * each element with the declared lanes, interpolation and component type,
 * and the RDEF names of cb0, s1 and t3.
 */
#include <stdio.h>
#include <string.h>

#include "shaderbridge/dxbc.h"
#include "translator/ir.h"
#include "translator/sm4.h"
#include "fxc_builder.h"

int container_test(void);

/* Operand token helpers (../shared/docs/sm4-tokens.md §5.1). */
#define DST(type, mask) (2u | ((uint32_t)(mask) << 4) | ((uint32_t)(type) << 12) | (1u << 20))
#define SRC(type, swz) (2u | (1u << 2) | ((uint32_t)(swz) << 4) | ((uint32_t)(type) << 12) | (1u << 20))
#define OP(code, len, controls) ((uint32_t)(code) | ((uint32_t)(len) << 24) | ((uint32_t)(controls) << 11))

static const uint32_t program_tokens[] = {
    0x00000040, 0, /* ps_4_0, length patched */
    OP(0x59, 4, 0), 0x00208E46, 0, 1,            /* dcl_constantbuffer cb0[1] */
    OP(0x5a, 3, 0), 0x00106000, 1,               /* dcl_sampler s1, mode_default */
    OP(0x58, 4, 3), 0x00107000, 3, 0x5555,       /* dcl_resource_texture2d t3 */
    OP(0x64, 4, 4), DST(1, 0x3), 0, 1,           /* dcl_input_ps_siv linear noperspective v0.xy, position */
    OP(0x62, 3, 2), DST(1, 0x3), 1,              /* dcl_input_ps linear v1.xy */
    OP(0x62, 3, 1), DST(1, 0xC), 1,              /* dcl_input_ps constant v1.zw */
    OP(0x62, 3, 2), DST(1, 0x1), 3,              /* dcl_input_ps linear v3.x (no element) */
    OP(0x65, 3, 0), DST(2, 0xF), 0,              /* dcl_output o0.xyzw */
    OP(0x65, 2, 0), 0x0000C001,                  /* dcl_output oDepth */
    OP(0x68, 2, 0), 1,                           /* dcl_temps 1 */
    OP(0x45, 9, 0), DST(0, 0xF), 0, SRC(1, 0x04), 1, SRC(7, 0xE4), 3, 0x00106000, 1,
    OP(0x36, 5, 0), DST(2, 0xF), 0, SRC(0, 0xE4), 0, /* mov o0.xyzw, r0.xyzw */
    OP(0x36, 4, 0), 0x0000C001, 0x0010100A, 0,   /* mov oDepth, v0.x */
    OP(0x3e, 1, 0),                              /* ret */
};

static const char *const expected[] = {
    "signature input v0 mask 0x3 sig 0xf used 0x3 SV_Position0 sv 1 type 1 interp 4 stream 0 array 0",
    "signature input v1 mask 0x3 sig 0x3 used 0x3 TEXCOORD0 sv 0 type 1 interp 2 stream 0 array 0",
    "signature input v1 mask 0xc sig 0xc used 0xc TEXCOORD1 sv 0 type 3 interp 1 stream 0 array 0",
    "signature input v2 mask 0x0 sig 0xf used 0x0 COLOR0 sv 0 type 1 interp 0 stream 0 array 0",
    "signature output o0 mask 0xf sig 0xf used 0xf SV_Target0 sv 64 type 1 interp 0 stream 0 array 0",
    "signature output oDepth mask 0x1 sig 0x1 used 0x1 SV_Depth0 sv 65 type 1 interp 0 stream 0 array 0",
    "signature input v3 mask 0x1 sig 0x0 used 0x0 - sv 0 type 1 interp 2 stream 0 array 0",
    "resource cbv id 0 space 0 [0 +1] kind 0 dim 0 stride 0 cb_size 1 name Globals",
    "resource sampler id 1 space 0 [1 +1] kind 0 dim 0 stride 0 cb_size 0 name g_samp",
    "resource srv id 3 space 0 [3 +1] kind 0 dim 3 stride 0 cb_size 0 name g_tex",
};

int container_test(void)
{
    static struct blob shdr, isgn, osgn, rdef, container;
    struct rdef_marks marks;
    unsigned failures = 0;
    memset(&shdr, 0, sizeof(shdr));
    uint32_t count = sizeof(program_tokens) / sizeof(program_tokens[0]);
    for (uint32_t i = 0; i < count; i++)
        blob_u32(&shdr, i == 1 ? count : program_tokens[i]);
    static const struct sig_element_spec inputs[] = {
        { 0, "SV_Position", 0, 1, 3, 0, 0xf, 0x3, 0 },
        { 0, "TEXCOORD", 0, 0, 3, 1, 0x3, 0x3, 0 },
        { 0, "TEXCOORD", 1, 0, 1, 1, 0xc, 0xc, 0 },
        { 0, "COLOR", 0, 0, 3, 2, 0xf, 0x0, 0 },
    };
    static const struct sig_element_spec outputs[] = {
        { 0, "SV_Target", 0, 64, 3, 0, 0xf, 0x0, 0 },
        { 0, "SV_Depth", 0, 65, 3, 0xFFFFFFFFu, 0x1, 0xe, 0 },
    };
    build_signature(24, inputs, 4, &isgn);
    build_signature(24, outputs, 2, &osgn);
    build_rdef(RDEF_40, true, &rdef, &marks);
    const struct part_spec parts[] = {
        { SB_FOURCC('R', 'D', 'E', 'F'), &rdef },
        { SB_FOURCC('I', 'S', 'G', 'N'), &isgn },
        { SB_FOURCC('O', 'S', 'G', 'N'), &osgn },
        { SB_FOURCC('S', 'H', 'D', 'R'), &shdr },
    };
    build_container(parts, 4, &container, NULL);
    struct sb_dxbc *dxbc = NULL;
    struct sb_sm4_program *sm4 = NULL;
    struct sb_ir_program *ir = NULL;
    struct sb_error error;
    memset(&error, 0, sizeof(error));
    if (sb_dxbc_parse(container.bytes, container.size, &dxbc, &error) != SB_SUCCESS ||
        sb_sm4_decode_container(dxbc, &sm4, &error) != SB_SUCCESS ||
        sb_ir_from_sm4(sm4, dxbc, &ir, &error) != SB_SUCCESS) {
        fprintf(stderr, "container case failed: %s\n", error.message);
        sb_sm4_program_destroy(sm4);
        sb_dxbc_destroy(dxbc);
        return 1;
    }
    /* The IR must not borrow from the container or the decoded program. */
    sb_sm4_program_destroy(sm4);
    sb_dxbc_destroy(dxbc);
    char *text = sb_ir_print(ir);
    for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++)
        if (!text || !strstr(text, expected[i])) {
            fprintf(stderr, "missing: %s\n", expected[i]);
            failures++;
        }
    if (ir->signature_count != 7 || ir->resource_count != 3 || ir->signature[2].component_type !=
                                                                     SB_IR_TYPE_UINT ||
        ir->signature[5].file != SB_IR_FILE_DEPTH || strcmp(ir->resources[2].name, "g_tex")) {
        fprintf(stderr, "struct fields disagree with the text form\n");
        failures++;
    }
    if (failures)
        fprintf(stderr, "---- sb_ir_print ----\n%s\n", text ? text : "(null)");
    free(text);
    sb_ir_program_destroy(ir);
    printf("container: %u failures\n", failures);
    return failures ? 1 : 0;
}
