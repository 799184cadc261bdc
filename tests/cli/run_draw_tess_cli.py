#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`shaderbridge run --draw N` on hull and domain shaders of the corpus
(lavapipe): the files it writes and values worked out from each shader's
code (runtime/README.md "Hull and domain programs" has the record layouts).

  hlslcc/hs5_basic (isoline, 4 control points, no control-point phase, a fork
  phase of 2 instances writing o[i].x = icb[i].x): hs-patches.bin holds
  N x (4 x 1 + 2) vectors; every patch's constants read o0.x = 1 (density)
  and o1.x = 8 (detail); the control points are the inputs passed through.
  pso__ds_prim_id_read (tri, 1 control point: o0.x = vPrim, o0.yz = vicp[0][0].xy):
  every point is in the triangle domain (u + v + w = 1), o0.x is the patch's
  vPrim in its draw (the records number patches across the four partitioning
  modes, N per mode), and o0.yz are the same at every point of a patch.
  d3d12__test_domain_shader_one_patch_constant_input (isoline: o0.w = vpc1.x,
  the detail factor): a patch of integer partitioning (mode 0) whose detail
  factor is d has density x (d + 1) points, density 1 to 4 (as seeded), on
  d + 1 distinct u; pow2 patches (mode 1) have d in {1, 2, 4}.
With --cpu (the interpreter; domain shaders at the CPU tessellator's points):
  hs5_basic's hs-patches.bin is byte for byte the device's; the isoline DS's integer and
  pow2 patches have the device's points (within 2^-12) with the same outputs there (the
  fractional modes' placement differs between lavapipe and the CPU tessellator:
  runtime/README.md "Hull and domain programs").
Usage: run_draw_tess_cli.py SHADERBRIDGE SCRATCH CORPUS. Exit 0 pass, 1 fail,
77 without the corpus or a device.
"""
import os
import re
import shutil
import subprocess
import sys

failures = checks = 0


def check(cond, what):
    global failures, checks
    checks += 1
    if not cond:
        failures += 1
        print("FAIL:", what)


def run_draw(cli, shader, n, out, cpu=False):
    shutil.rmtree(out, ignore_errors=True)
    p = subprocess.run([cli, "run", "--draw", str(n), "-o", out, shader] + (["--cpu"] if cpu else []),
                       capture_output=True)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def number(text):
    return int(text, 16) if text.startswith("0x") else float(text)


POINT = re.compile(r"^point (\d+) patch (\d+) domain \(([^)]*)\):(.*)$")
REGISTER = re.compile(r" o(\d+)=\(([^)]*)\)")


def points(path):
    """[(patch, (u, v, w), {register: [4 values]})] of a ds-points.txt."""
    out = []
    with open(path) as f:
        for line in f:
            m = POINT.match(line.strip())
            if not m:
                continue
            regs = {int(r): [number(x.strip()) for x in v.split(",")] for r, v in REGISTER.findall(m.group(4))}
            out.append((int(m.group(2)), tuple(float(x) for x in m.group(3).split(",")), regs))
    return out


def hull(cli, corpus, scratch):
    out = os.path.join(scratch, "hs")
    rc, _, err = run_draw(cli, os.path.join(corpus, "dxbc/hlslcc/hs5_basic.dxbc"), 3, out)
    check(rc == 0, f"run --draw 3 hs5_basic: exit {rc}: {err.strip()}")
    size = os.path.getsize(os.path.join(out, "hs-patches.bin")) if rc == 0 else 0
    check(size == 3 * (4 + 2) * 16, f"hs-patches.bin: {size} bytes, want 3 x 6 vectors")
    lines = open(os.path.join(out, "hs-patches.txt")).read().splitlines() if rc == 0 else []
    constants = [l for l in lines if " constants:" in l]
    check(len(constants) == 3 and len(lines) == 3 * 5, f"hs-patches.txt: 3 x (4 points + constants): {lines[:6]}")
    for l in constants:
        regs = {int(r): [number(x.strip()) for x in v.split(",")] for r, v in REGISTER.findall(l)}
        check(regs.get(0, [None])[0] == 1.0 and regs.get(1, [None])[0] == 8.0,
              f"patch constants o0.x = 1 and o1.x = 8 (icb): {l}")
    cpu = os.path.join(scratch, "hs-cpu")
    rc, _, err = run_draw(cli, os.path.join(corpus, "dxbc/hlslcc/hs5_basic.dxbc"), 3, cpu, cpu=True)
    check(rc == 0, f"run --cpu --draw 3 hs5_basic: exit {rc}: {err.strip()}")
    with open(os.path.join(out, "hs-patches.bin"), "rb") as a, open(os.path.join(cpu, "hs-patches.bin"), "rb") as b:
        check(a.read() == b.read(), "hs-patches.bin: the interpreter's bytes are the device's")


def domain_prim_id(cli, corpus, scratch):
    out = os.path.join(scratch, "ds-prim")
    rc, _, err = run_draw(cli, os.path.join(corpus, "dxbc/vkd3d-proton/pso__ds_prim_id_read_code_dxbc.dxbc"), 2, out)
    check(rc == 0, f"run --draw 2 pso__ds_prim_id_read: exit {rc}: {err.strip()}")
    pts = points(os.path.join(out, "ds-points.txt")) if rc == 0 else []
    check(len(pts) >= 8 * 3, f"ds-points: {len(pts)} points, at least 3 for each of 8 patches")
    check({p for p, _, _ in pts} == set(range(8)), f"patches 0-7 all drawn: {sorted({p for p, _, _ in pts})}")
    first = {}
    for patch, uvw, regs in pts:
        check(abs(sum(uvw) - 1.0) < 1e-6 and min(uvw) >= 0.0, f"patch {patch}: {uvw} is in the triangle domain")
        o0 = regs.get(0, [None] * 4)
        check(o0[0] == patch % 2, f"patch {patch}: o0.x = vPrim {patch % 2}, got {o0[0]}")
        first.setdefault(patch, o0[1:3])
        check(o0[1:3] == first[patch], f"patch {patch}: o0.yz the control point's at every point")


def domain_detail(cli, corpus, scratch):
    out = os.path.join(scratch, "ds-iso")
    shader = "dxbc/vkd3d/d3d12__test_domain_shader_one_patch_constant_input__ds_code.dxbc"
    rc, _, err = run_draw(cli, os.path.join(corpus, shader), 4, out)
    check(rc == 0, f"run --draw 4 one_patch_constant_input: exit {rc}: {err.strip()}")
    pts = points(os.path.join(out, "ds-points.txt")) if rc == 0 else []
    for patch in range(8):
        mine = [(uvw, regs) for p, uvw, regs in pts if p == patch]
        details = {regs.get(0, [0] * 4)[3] for _, regs in mine}
        check(len(details) == 1, f"patch {patch}: one detail factor at every point: {details}")
        if len(details) != 1:
            continue
        d = details.pop()
        allowed = {1.0, 2.0, 3.0, 4.0} if patch < 4 else {1.0, 2.0, 4.0}
        check(d in allowed, f"patch {patch}: detail {d} is one the mode seeds ({sorted(allowed)})")
        density, rest = divmod(len(mine), int(d) + 1)
        check(rest == 0 and 1 <= density <= 4, f"patch {patch}: {len(mine)} points are density x ({d} + 1)")
        check(len({round(uvw[0], 6) for uvw, _ in mine}) == int(d) + 1, f"patch {patch}: {int(d) + 1} distinct u")
    cpu = os.path.join(scratch, "ds-iso-cpu")
    rc, _, err = run_draw(cli, os.path.join(corpus, shader), 4, cpu, cpu=True)
    check(rc == 0, f"run --cpu --draw 4 one_patch_constant_input: exit {rc}: {err.strip()}")
    cpts = points(os.path.join(cpu, "ds-points.txt")) if rc == 0 else []
    for patch in range(8):  # integer (0-3) and pow2 (4-7)
        gpu_side = sorted((uvw[1], uvw[0], regs.get(0)) for p, uvw, regs in pts if p == patch)
        cpu_side = sorted((uvw[1], uvw[0], regs.get(0)) for p, uvw, regs in cpts if p == patch)
        same = len(gpu_side) == len(cpu_side) and all(
            abs(g[0] - c[0]) <= 2 ** -12 and abs(g[1] - c[1]) <= 2 ** -12 and g[2] == c[2]
            for g, c in zip(gpu_side, cpu_side))
        check(same, f"patch {patch}: the CPU tessellator's points and outputs are the device's "
                    f"({len(cpu_side)} and {len(gpu_side)} points)")


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    cli, scratch, corpus = sys.argv[1:4]
    if not os.path.exists(os.path.join(corpus, "dxbc/hlslcc/hs5_basic.dxbc")):
        print("SKIPPED: corpus not found at", corpus)
        return 77
    os.makedirs(scratch, exist_ok=True)
    probe = subprocess.run([cli, "run", "--draw", "1", "-o", os.path.join(scratch, "probe"),
                            os.path.join(corpus, "dxbc/hlslcc/hs5_basic.dxbc")], capture_output=True)
    if probe.returncode == 3 and b"device" in probe.stderr.lower():
        print("SKIPPED: no Vulkan device")
        return 77
    hull(cli, corpus, scratch)
    domain_prim_id(cli, corpus, scratch)
    domain_detail(cli, corpus, scratch)
    print(f"run --draw HS/DS: {checks} checks, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
