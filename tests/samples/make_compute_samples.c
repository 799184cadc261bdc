/* SPDX-License-Identifier: MIT */
/*
 * Writes the bundled compute samples (samples/NAME_cs_5_0.dxbc) from their token
 * programs, or with --check compares the committed files with what this
 * program writes, so the samples stay reproducible from the source below.
 * The programs are assembled with tests/vulkan/sm4_asm.h; samples/README.md
 * shows each one's listing (`shaderbridge disasm`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm4_asm.h"

/* y[i] = a * x[i] + y[i]: cb0[0].x = a, t0 = x (structured float), u0 = y. */
static void saxpy(struct sm4_program *p)
{
    sm4_begin_cs(p, 64, 1, 1, 2);
    sm4_dcl_cb(p, 0, 1, 0);
    sm4_dcl_resource_structured(p, 0, 4);
    sm4_dcl_uav_structured(p, 0, 4);
    sm4_dcl_thread_id(p, T_THREAD_ID, "x");
    I(p, OP_LD_STRUCTURED, dr(0, "x"), special(T_THREAD_ID, "x"), l1(0), st(0, "xxxx"));
    I(p, OP_LD_STRUCTURED, dr(0, "y"), special(T_THREAD_ID, "x"), l1(0), su(0, "xxxx"));
    I(p, OP_MAD, dr(0, "x"), sr(0, "x"), scb(0, 0, NULL, "x"), sr(0, "y"));
    I(p, OP_STORE_STRUCTURED, du(0, "x"), special(T_THREAD_ID, "x"), l1(0), sr(0, "x"));
    sm4_end(p);
}

/*
 * One sum per thread group: each of 64 threads loads a uint of t0 (raw) into
 * group-shared memory, a tree reduction with a barrier per step halves the
 * active threads, and thread 0 stores the group's sum to u0[group].
 */
static void group_sum(struct sm4_program *p)
{
    sm4_begin_cs(p, 64, 1, 1, 4);
    sm4_dcl_resource_raw(p, 0);
    sm4_dcl_uav_raw(p, 0);
    sm4_dcl_tgsm_raw(p, 0, 256);
    sm4_dcl_thread_id(p, T_THREAD_ID, "x");
    sm4_dcl_thread_id(p, T_GROUP_ID, "x");
    sm4_dcl_thread_id(p, T_THREAD_IN_GROUP, "x");
    I(p, OP_ISHL, dr(0, "x"), special(T_THREAD_ID, "x"), l1(2));
    I(p, OP_LD_RAW, dr(0, "y"), sr(0, "x"), st(0, "x"));
    I(p, OP_ISHL, dr(0, "z"), special(T_THREAD_IN_GROUP, "x"), l1(2));
    I(p, OP_STORE_RAW, dg(0, "x"), sr(0, "z"), sr(0, "y"));
    I0(p, OP_SYNC, SM4_SYNC_G | SM4_SYNC_T);
    I(p, OP_MOV, dr(1, "x"), l1(32));
    I0(p, OP_LOOP, 0);
    IC(p, OP_BREAKC, SM4_Z, sr(1, "x"));
    I(p, OP_ULT, dr(1, "y"), special(T_THREAD_IN_GROUP, "x"), sr(1, "x"));
    IC(p, OP_IF, SM4_NZ, sr(1, "y"));
    I(p, OP_IADD, dr(2, "x"), special(T_THREAD_IN_GROUP, "x"), sr(1, "x"));
    I(p, OP_ISHL, dr(2, "x"), sr(2, "x"), l1(2));
    I(p, OP_LD_RAW, dr(2, "y"), sr(2, "x"), sg(0, "x"));
    I(p, OP_LD_RAW, dr(2, "z"), sr(0, "z"), sg(0, "x"));
    I(p, OP_IADD, dr(2, "y"), sr(2, "y"), sr(2, "z"));
    I(p, OP_STORE_RAW, dg(0, "x"), sr(0, "z"), sr(2, "y"));
    I0(p, OP_ENDIF, 0);
    I0(p, OP_SYNC, SM4_SYNC_G | SM4_SYNC_T);
    I(p, OP_USHR, dr(1, "x"), sr(1, "x"), l1(1));
    I0(p, OP_ENDLOOP, 0);
    IC(p, OP_IF, SM4_Z, special(T_THREAD_IN_GROUP, "x"));
    I(p, OP_LD_RAW, dr(3, "x"), l1(0), sg(0, "x"));
    I(p, OP_ISHL, dr(3, "y"), special(T_GROUP_ID, "x"), l1(2));
    I(p, OP_STORE_RAW, du(0, "x"), sr(3, "y"), sr(3, "x"));
    I0(p, OP_ENDIF, 0);
    sm4_end(p);
}

/*
 * A 16x16 image: u0 (typed 2D float4) = t0 sampled (bilinear, s0) at the
 * texel centre scaled by 0.9, times (x / 16, y / 16, 1, 1).
 */
static void gradient(struct sm4_program *p)
{
    sm4_begin_cs(p, 8, 8, 1, 3);
    sm4_dcl_resource(p, 0, 3, 0x5555);
    sm4_dcl_sampler(p, 0);
    sm4_dcl_uav_typed(p, 0, 3, 0x5555);
    sm4_dcl_thread_id(p, T_THREAD_ID, "xy");
    I(p, OP_UTOF, dr(0, "xy"), special(T_THREAD_ID, "xyxx"));
    I(p, OP_ADD, dr(1, "xy"), sr(0, "xyxx"), l4(0x3f000000u, 0x3f000000u, 0, 0)); /* + 0.5 */
    I(p, OP_MUL, dr(1, "xy"), sr(1, "xyxx"), l4(0x3d666666u, 0x3d666666u, 0, 0)); /* * 0.05625 */
    I(p, OP_SAMPLE_L, dr(2, "xyzw"), sr(1, "xyxx"), st(0, "xyzw"), ss(0), l1(0));
    I(p, OP_MUL, dr(0, "xy"), sr(0, "xyxx"), l4(0x3d800000u, 0x3d800000u, 0, 0)); /* / 16 */
    I(p, OP_MOV, dr(0, "zw"), l4(0, 0, 0x3f800000u, 0x3f800000u));
    I(p, OP_MUL, dr(2, "xyzw"), sr(2, "xyzw"), sr(0, "xyzw"));
    I(p, OP_STORE_UAV_TYPED, du(0, "xyzw"), special(T_THREAD_ID, "xyyy"), sr(2, "xyzw"));
    sm4_end(p);
}

static const struct {
    const char *file;
    void (*build)(struct sm4_program *p);
} samples[] = {
    { "saxpy_cs_5_0.dxbc", saxpy },
    { "group_sum_cs_5_0.dxbc", group_sum },
    { "gradient_cs_5_0.dxbc", gradient },
};

int main(int argc, char **argv)
{
    bool check = argc == 3 && !strcmp(argv[1], "--check");
    if (!(argc == 2 || check)) {
        fprintf(stderr, "usage: make_compute_samples [--check] SAMPLES_DIR\n");
        return 2;
    }
    const char *dir = argv[argc - 1];
    int failures = 0;
    for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
        static struct sm4_program program;
        static struct blob container;
        memset(&program, 0, sizeof(program));
        samples[i].build(&program);
        sm4_container(&program, &container);
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", dir, samples[i].file);
        if (check) {
            static uint8_t committed[sizeof(container.bytes)];
            FILE *f = fopen(path, "rb");
            size_t n = f ? fread(committed, 1, sizeof(committed), f) : 0;
            if (f)
                fclose(f);
            bool same = n == container.size && !memcmp(committed, container.bytes, n);
            printf("%s: %s\n", samples[i].file, same ? "up to date" : "DIFFERS from make_compute_samples");
            failures += !same;
            continue;
        }
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(container.bytes, 1, container.size, f) != container.size || fclose(f)) {
            fprintf(stderr, "make_compute_samples: cannot write %s\n", path);
            return 1;
        }
        printf("%s: %zu bytes\n", path, (size_t)container.size);
    }
    return failures ? 1 : 0;
}
