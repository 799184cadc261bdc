/* SPDX-License-Identifier: MIT */
/*
 * Writes the pixel shaders run_draw_input_cli.py draws with `run --draw 1x1 --input REG=FILE`:
 * each computes its one render target from a register the test fills with its own bytes, so
 * the test can check o0.bin against values worked out by hand. No inputs: the target is
 * the same in every pixel, whatever the generated vertex stage feeds.
 *
 *   cb_copy.dxbc   cb0[1]   o0 (float) = cb0[0]
 *   cb_mad.dxbc    cb0[3]   o0 (float) = cb0[0] * cb0[1] + cb0[2]
 *   cb_iadd.dxbc   cb0[4]   o0 (uint)  = cb0[0] + cb0[3]
 *   t0_raw.dxbc    t0 raw   o0 (uint)  = the 4 words at byte 4 of t0
 *   t0_tex.dxbc    t0 Texture2D<uint4>  o0 (uint) = texel (1, 2) of mip 0
 *   t0_f_mip1.dxbc t0 Texture2D<float4> o0 (float) = texel (1, 0) of mip 1 (a DDS input)
 *   t0_f_ld12.dxbc t0 Texture2D<float4> o0 (float) = texel (1, 2) of mip 0 (a DDS input)
 *   cs_t0_mip1.dxbc (compute, 1x1x1) u0 raw bytes 0..15 = texel (1, 0) of mip 1 of the
 *                  Texture2D<float4> t0 (a DDS input to a dispatch)
 *   u0_raw.dxbc    u0 raw   o0 (uint)  = the 4 words at byte 8 of u0 (read only, so u0.bin
 *                           comes back as given)
 *   t0_s0_sample_l.dxbc t0 Texture2D<float4>, s0, cb0[1]: o0 (float) = sample_l(t0, s0,
 *                  cb0[0].xy, LOD cb0[0].z): a PNG texture read through a sampler file
 *   t0_s0_sample_position.dxbc t0 Texture2D<float4>, s0: o0 = sample(t0, s0, SV_Position.xy *
 *                  (1/4, 1/8)): an implicit LOD over an anisotropic footprint
 *   cs_u0_copy.dxbc (compute, 1x1x1) RWTexture2D<float4> u0: texel (0, 0) = texel (1, 0), a
 *                  PNG or DDS as the UAV's starting texels
 *   inner_coverage.dxbc  o0 (uint) = vInnerCoverage + 5 (SV_InnerCoverage)
 *   vs_v0_v1.dxbc  (vertex) v0.xyz float, v1.x uint: o0 (SV_Position) = (v0.xyz, 1),
 *                  o1.x (uint) = v1.x << 1: vertex streams from --input v0/v1 files
 *
 * usage: draw_input_shaders DIR
 */
#include <stdio.h>

#include "sm4_asm.h"

enum { TYPE_UINT = 1, TYPE_FLOAT = 3 };

static struct sm4_operand o0(void)
{
    uint32_t r = 0;
    return sm4_reg(T_OUTPUT, 1, &r, NULL, "xyzw", 1);
}

static int write_shader(const char *dir, const char *name, const struct sm4_program *p, uint32_t target_type)
{
    /* System value 0 as fxc writes SV_Target (the harness captures targets by register). */
    static struct blob out;
    const struct sig_element_spec outs[] = { { 0, "SV_Target", 0, 0, target_type, 0, 0xf, 0x0, 0 } };
    memset(&out, 0, sizeof(out));
    sm4_container_sig(p, NULL, 0, outs, 1, NULL, 0, &out);
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(out.bytes, 1, out.size, f) == out.size;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok)
        fprintf(stderr, "draw_input_shaders: cannot write %s\n", path);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: draw_input_shaders DIR\n");
        return 2;
    }
    static struct sm4_program p;
    int failed = 0;

    sm4_begin(&p, 0, 4, 0, 0);
    sm4_dcl_cb(&p, 0, 1, 0);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 0, "xyzw", -1);
    I(&p, OP_MOV, o0(), scb(0, 0, NULL, "xyzw"));
    sm4_end(&p);
    failed |= write_shader(argv[1], "cb_copy.dxbc", &p, TYPE_FLOAT);

    sm4_begin(&p, 0, 4, 0, 0);
    sm4_dcl_cb(&p, 0, 3, 0);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 0, "xyzw", -1);
    I(&p, OP_MAD, o0(), scb(0, 0, NULL, "xyzw"), scb(0, 1, NULL, "xyzw"), scb(0, 2, NULL, "xyzw"));
    sm4_end(&p);
    failed |= write_shader(argv[1], "cb_mad.dxbc", &p, TYPE_FLOAT);

    sm4_begin(&p, 0, 4, 0, 0);
    sm4_dcl_cb(&p, 0, 4, 0);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 0, "xyzw", -1);
    I(&p, OP_IADD, o0(), scb(0, 0, NULL, "xyzw"), scb(0, 3, NULL, "xyzw"));
    sm4_end(&p);
    failed |= write_shader(argv[1], "cb_iadd.dxbc", &p, TYPE_UINT);

    sm4_begin(&p, 0, 5, 0, 1);
    sm4_dcl_resource_raw(&p, 0);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 0, "xyzw", -1);
    I(&p, OP_LD_RAW, dr(0, "xyzw"), l1(4), st(0, "xyzw"));
    I(&p, OP_MOV, o0(), sr(0, "xyzw"));
    sm4_end(&p);
    failed |= write_shader(argv[1], "t0_raw.dxbc", &p, TYPE_UINT);

    sm4_begin(&p, 0, 4, 0, 1);
    sm4_dcl_resource(&p, 0, 3 /* texture2d */, 0x4444 /* uint x4 */);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 0, "xyzw", -1);
    I(&p, OP_LD, dr(0, "xyzw"), l4(1, 2, 0, 0), st(0, "xyzw"));
    I(&p, OP_MOV, o0(), sr(0, "xyzw"));
    sm4_end(&p);
    failed |= write_shader(argv[1], "t0_tex.dxbc", &p, TYPE_UINT);

    /* Float Texture2Ds for DDS files: ld's address holds the mip level in .w. */
    sm4_begin(&p, 0, 4, 0, 1);
    sm4_dcl_resource(&p, 0, 3 /* texture2d */, 0x5555 /* float x4 */);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 0, "xyzw", -1);
    I(&p, OP_LD, dr(0, "xyzw"), l4(1, 0, 0, 1), st(0, "xyzw"));
    I(&p, OP_MOV, o0(), sr(0, "xyzw"));
    sm4_end(&p);
    failed |= write_shader(argv[1], "t0_f_mip1.dxbc", &p, TYPE_FLOAT);

    sm4_begin(&p, 0, 4, 0, 1);
    sm4_dcl_resource(&p, 0, 3 /* texture2d */, 0x5555 /* float x4 */);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 0, "xyzw", -1);
    I(&p, OP_LD, dr(0, "xyzw"), l4(1, 2, 0, 0), st(0, "xyzw"));
    I(&p, OP_MOV, o0(), sr(0, "xyzw"));
    sm4_end(&p);
    failed |= write_shader(argv[1], "t0_f_ld12.dxbc", &p, TYPE_FLOAT);

    sm4_begin(&p, 0, 5, 0, 1);
    sm4_dcl_uav_raw(&p, 0);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 0, "xyzw", -1);
    I(&p, OP_LD_RAW, dr(0, "xyzw"), l1(8), su(0, "xyzw"));
    I(&p, OP_MOV, o0(), sr(0, "xyzw"));
    sm4_end(&p);
    failed |= write_shader(argv[1], "u0_raw.dxbc", &p, TYPE_UINT);

    sm4_begin(&p, 0, 4, 0, 0);
    sm4_dcl_cb(&p, 0, 1, 0);
    sm4_dcl_sampler(&p, 0);
    sm4_dcl_resource(&p, 0, 3 /* texture2d */, 0x5555 /* float x4 */);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 0, "xyzw", -1);
    I(&p, OP_SAMPLE_L, o0(), scb(0, 0, NULL, "xyxx"), st(0, "xyzw"), ss(0), scb(0, 0, NULL, "zzzz"));
    sm4_end(&p);
    failed |= write_shader(argv[1], "t0_s0_sample_l.dxbc", &p, TYPE_FLOAT);

    /* sample at SV_Position.xy * (1/4, 1/8): a footprint twice as long in x as in y. */
    sm4_begin(&p, 0, 4, 0, 1);
    sm4_dcl_sampler(&p, 0);
    sm4_dcl_resource(&p, 0, 3 /* texture2d */, 0x5555 /* float x4 */);
    sm4_dcl_io(&p, 100, 4 /* linear_noperspective */, T_INPUT, 0, "xy", 1 /* position */);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 0, "xyzw", -1);
    uint32_t v0_reg = 0;
    I(&p, OP_MUL, dr(0, "xy"), sm4_reg(T_INPUT, 1, &v0_reg, NULL, "xyxx", 1), l4(0x3e800000u, 0x3e000000u, 0, 0));
    I(&p, OP_SAMPLE, o0(), sr(0, "xyxx"), st(0, "xyzw"), ss(0));
    sm4_end(&p);
    {
        static struct blob ps;
        const struct sig_element_spec ins[] = { { 0, "SV_Position", 0, 1, TYPE_FLOAT, 0, 0xf, 0x3, 0 } };
        const struct sig_element_spec outs[] = { { 0, "SV_Target", 0, 0, TYPE_FLOAT, 0, 0xf, 0x0, 0 } };
        memset(&ps, 0, sizeof(ps));
        sm4_container_sig(&p, ins, 1, outs, 1, NULL, 0, &ps);
        char ps_path[4096];
        snprintf(ps_path, sizeof(ps_path), "%s/t0_s0_sample_position.dxbc", argv[1]);
        FILE *pf = fopen(ps_path, "wb");
        int written = pf && fwrite(ps.bytes, 1, ps.size, pf) == ps.size;
        if (pf && fclose(pf) != 0)
            written = 0;
        if (!written) {
            fprintf(stderr, "draw_input_shaders: cannot write %s\n", ps_path);
            failed = 1;
        }
    }

    /* o0.x (uint) = vInnerCoverage + 5 (operand type 42, no index). */
    sm4_begin(&p, 0, 5, 0, 0);
    struct sm4_operand inner = { { 1u | (42u << 12) }, 1 };
    sm4_decl(&p, 95, inner, 0, NULL);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 0, "xyzw", -1);
    I(&p, OP_IADD, o0(), inner, l1(5));
    sm4_end(&p);
    failed |= write_shader(argv[1], "inner_coverage.dxbc", &p, TYPE_UINT);

    /* A vertex shader: inputs v0.xyz (float) and v1.x (uint), outputs o0 (position), o1.x. */
    sm4_begin(&p, 1, 4, 0, 0);
    sm4_dcl_io(&p, 95, 0, T_INPUT, 0, "xyz", -1);
    sm4_dcl_io(&p, 95, 0, T_INPUT, 1, "x", -1);
    sm4_dcl_io(&p, 103, 0, T_OUTPUT, 0, "xyzw", 1 /* position */);
    sm4_dcl_io(&p, 101, 0, T_OUTPUT, 1, "x", -1);
    uint32_t zero = 0, one = 1;
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, &zero, NULL, "xyz", 1), sm4_reg(T_INPUT, 1, &zero, NULL, "xyzx", 1));
    I(&p, OP_MOV, sm4_reg(T_OUTPUT, 1, &zero, NULL, "w", 1), lf(1.0f));
    I(&p, OP_ISHL, sm4_reg(T_OUTPUT, 1, &one, NULL, "x", 1), sm4_reg(T_INPUT, 1, &one, NULL, "xxxx", 1), l1(1));
    sm4_end(&p);
    {
        static struct blob vs;
        const struct sig_element_spec ins[] = { { 0, "POSITION", 0, 0, TYPE_FLOAT, 0, 0x7, 0x7, 0 },
                                                { 0, "BLENDINDICES", 0, 0, TYPE_UINT, 1, 0x1, 0x1, 0 } };
        const struct sig_element_spec outs[] = { { 0, "SV_Position", 0, 1, TYPE_FLOAT, 0, 0xf, 0x0, 0 },
                                                 { 0, "TEXCOORD", 0, 0, TYPE_UINT, 1, 0x1, 0xe, 0 } };
        memset(&vs, 0, sizeof(vs));
        sm4_container_sig(&p, ins, 2, outs, 2, NULL, 0, &vs);
        char vs_path[4096];
        snprintf(vs_path, sizeof(vs_path), "%s/vs_v0_v1.dxbc", argv[1]);
        FILE *vf = fopen(vs_path, "wb");
        int written = vf && fwrite(vs.bytes, 1, vs.size, vf) == vs.size;
        if (vf && fclose(vf) != 0)
            written = 0;
        if (!written) {
            fprintf(stderr, "draw_input_shaders: cannot write %s\n", vs_path);
            failed = 1;
        }
    }

    /* RWTexture2D<float4> u0: texel (0, 0) = texel (1, 0). */
    {
        static struct sm4_program q;
        static struct blob qb;
        sm4_begin_cs(&q, 1, 1, 1, 1);
        sm4_dcl_uav_typed(&q, 0, 3 /* texture2d */, 0x5555 /* float x4 */);
        I(&q, OP_LD_UAV_TYPED, dr(0, "xyzw"), l4(1, 0, 0, 0), su(0, "xyzw"));
        I(&q, OP_STORE_UAV_TYPED, du(0, "xyzw"), l4(0, 0, 0, 0), sr(0, "xyzw"));
        sm4_end(&q);
        memset(&qb, 0, sizeof(qb));
        sm4_container(&q, &qb);
        char q_path[4096];
        snprintf(q_path, sizeof(q_path), "%s/cs_u0_copy.dxbc", argv[1]);
        FILE *qf = fopen(q_path, "wb");
        int written = qf && fwrite(qb.bytes, 1, qb.size, qf) == qb.size;
        if (qf && fclose(qf) != 0)
            written = 0;
        if (!written) {
            fprintf(stderr, "draw_input_shaders: cannot write %s\n", q_path);
            failed = 1;
        }
    }

    static struct blob cs;
    sm4_begin_cs(&p, 1, 1, 1, 1);
    sm4_dcl_resource(&p, 0, 3 /* texture2d */, 0x5555 /* float x4 */);
    sm4_dcl_uav_raw(&p, 0);
    I(&p, OP_LD, dr(0, "xyzw"), l4(1, 0, 0, 1), st(0, "xyzw"));
    I(&p, OP_STORE_RAW, du(0, "xyzw"), l1(0), sr(0, "xyzw"));
    sm4_end(&p);
    memset(&cs, 0, sizeof(cs));
    sm4_container(&p, &cs);
    char path[4096];
    snprintf(path, sizeof(path), "%s/cs_t0_mip1.dxbc", argv[1]);
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(cs.bytes, 1, cs.size, f) == cs.size;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok) {
        fprintf(stderr, "draw_input_shaders: cannot write %s\n", path);
        failed = 1;
    }
    return failed;
}
