#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The `run` and `validate` commands end to end (issue #5 §4): compute
samples on the device and with --cpu give the same UAV bytes; --draw runs a
vertex shader (bundled sample) and, when the corpus is there, a pixel and a
geometry shader, and a PICA200 geometry shader of our own, on both sides, with
the same bytes and the files the help text names; validate agrees on the samples (exit 0) and its exit codes;
usage errors exit 2.

usage: run_validate_cli.py SHADERBRIDGE SAMPLES_DIR SCRATCH_DIR [CORPUS_DIR]
Exit 77 when there is no Vulkan device (run exits 3).
"""
import os
import shutil
import struct
import subprocess
import sys

failures = 0
checks = 0


def run(cli, args):
    p = subprocess.run([cli] + args, capture_output=True)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def check(cond, what):
    global failures, checks
    checks += 1
    if not cond:
        failures += 1
        print("FAIL:", what)


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def both_sides(cli, shader, extra, scratch, name, files):
    """Runs `shader` on the device and on the interpreter; every file in
    `files` must exist on both sides with the same bytes. Returns the
    device's output directory."""
    gpu, cpu = os.path.join(scratch, name + "-gpu"), os.path.join(scratch, name + "-cpu")
    for d in (gpu, cpu):
        shutil.rmtree(d, ignore_errors=True)
    rc, out, err = run(cli, ["run", shader, "-o", gpu] + extra)
    check(rc == 0, f"run {name}: exit {rc}: {err.strip()}")
    rc, out, err = run(cli, ["run", shader, "--cpu", "-o", cpu] + extra)
    check(rc == 0, f"run --cpu {name}: exit {rc}: {err.strip()}")
    check("CPU interpreter" in out, f"run --cpu {name} names the interpreter: {out!r}")
    for f in files:
        a, b = read(os.path.join(gpu, f)), read(os.path.join(cpu, f))
        check(a is not None and b is not None, f"{name}: {f} written on both sides")
        check(a == b, f"{name}: {f} differs between the device and the interpreter")
    return gpu


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    cli, samples, scratch = sys.argv[1:4]
    corpus = sys.argv[4] if len(sys.argv) > 4 else ""
    os.makedirs(scratch, exist_ok=True)
    saxpy = os.path.join(samples, "saxpy_cs_5_0.dxbc")
    vs = os.path.join(samples, "passthrough_vs_4_0.dxbc")

    rc, _, err = run(cli, ["run", saxpy, "--dispatch", "2", "-o", os.path.join(scratch, "probe")])
    if rc == 3:
        print("SKIPPED: no Vulkan device:", err.strip())
        return 77

    # Compute: the same bytes on both sides; the counter file; two groups.
    both_sides(cli, saxpy, ["--dispatch", "2"], scratch, "saxpy", ["u0.bin", "u0.counter"])

    # Vertex: 8 vertices, one text line each, equal records.
    gpu = both_sides(cli, vs, ["--draw", "8"], scratch, "vs", ["vertices.bin", "vertices.txt"])
    text = read(os.path.join(gpu, "vertices.txt")) or b""
    lines = text.decode().splitlines()
    check(len(lines) == 8 and lines[0].startswith("vertex 0: o0=("), f"vertices.txt: {lines[:2]}")
    records = read(os.path.join(gpu, "vertices.bin")) or b""
    check(len(records) > 0 and len(records) % (8 * 16) == 0, f"vertices.bin holds 8 records ({len(records)} bytes)")
    seeds = set()
    for seed in ("1", "2"):
        d = os.path.join(scratch, "vs-seed" + seed)
        shutil.rmtree(d, ignore_errors=True)
        run(cli, ["run", vs, "--draw", "8", "--seed", seed, "-o", d])
        seeds.add(read(os.path.join(d, "vertices.bin")))
    check(len(seeds) == 2, "--seed changes the vertex inputs")

    # Usage errors: --draw on compute, a count for a vertex shader's --draw must be >= 1,
    # a bad WxH.
    for args in (["run", saxpy, "--draw", "4"], ["run", vs, "--draw", "0"], ["run", vs, "--draw", "3x"],
                 ["run", vs, "--draw", "4x4"], ["run", vs, "--draw", "8", "--input", "u0=" + saxpy]):
        rc, _, err = run(cli, args)
        check(rc == 2, f"{' '.join(args[:1] + args[2:])}: exit {rc}, want 2 ({err.strip()})")

    # validate: the samples agree; an unreadable file is exit 1.
    rc, out, err = run(cli, ["validate", saxpy, vs, "--draw", "16"])
    check(rc == 0, f"validate samples: exit {rc}: {out} {err}")
    check(out.count("agree") >= 2, f"validate prints a verdict per file: {out!r}")
    broken = os.path.join(scratch, "broken.dxbc")
    with open(broken, "wb") as f:
        f.write(b"DXBC" + bytes(20))
    rc, _, _ = run(cli, ["validate", broken])
    check(rc == 1, f"validate of a broken file: exit {rc}, want 1")

    # A PICA200 geometry shader of our own (assembled here): its compute expansion's records,
    # u0.bin and the u0.txt listing, the same on both sides.
    gs_source = os.path.join(samples, "..", "tests", "pica_runtime", "programs", "gs_quad_point.pica")
    gs_shbin = os.path.join(scratch, "gs_quad_point.shbin")
    rc, _, err = run(cli, ["assemble", "-o", gs_shbin, gs_source])
    check(rc == 0, f"assemble gs_quad_point.pica: exit {rc} ({err.strip()})")
    gpu = both_sides(cli, gs_shbin, ["--draw", "2"], scratch, "pica-gs", ["u0.bin", "u0.txt"])
    lines = (read(os.path.join(gpu, "u0.txt")) or b"").decode().splitlines()
    check(lines[:1] == ["# 8 vertices emitted by 2 primitives"] and len(lines) == 9 and
          lines[3].startswith("vertex 2: primitive 0 id 2 winding 0 emit-primitive 1:"),
          f"u0.txt of the PICA quad expander: {lines[:4]}")
    rc, _, _ = run(cli, ["validate", "--seed", "1", gs_shbin])
    check(rc == 0, f"validate of the PICA geometry shader: exit {rc}")

    # Corpus shaders: a pixel shader (targets as .bin and .png) and a geometry shader.
    ps = os.path.join(corpus, "dxbc/angle/clearfloat11ps3.dxbc")
    gs = os.path.join(corpus, "dxbc/hlslcc/gs5_stream.dxbc")
    if corpus and os.path.exists(ps) and os.path.exists(gs):
        gpu = both_sides(cli, ps, ["--draw", "16x8"], scratch, "ps", ["o0.bin", "o1.bin", "o2.bin", "oDepth.bin"])
        png = read(os.path.join(gpu, "o0.png")) or b""
        check(png[:8] == b"\x89PNG\r\n\x1a\n", "o0.png is a PNG")
        if len(png) > 24:
            check(struct.unpack(">II", png[16:24]) == (16, 8), "o0.png is 16x8")
        check(len(read(os.path.join(gpu, "o0.bin")) or b"") == 16 * 8 * 16, "o0.bin: 16x8 RGBA32 texels")
        rc, _, _ = run(cli, ["run", ps, "--draw", "5"])
        check(rc == 2, f"a pixel shader with --draw N: exit {rc}, want 2")
        gpu = both_sides(cli, gs, ["--draw", "3"], scratch, "gs", ["gs-vertices.bin", "gs-vertices.txt"])
        lines = (read(os.path.join(gpu, "gs-vertices.txt")) or b"").decode().splitlines()
        check(any(l.startswith("primitive 2 instance 0 vertex 0 stream ") for l in lines),
              f"gs-vertices.txt lists the third primitive: {lines[:3]}")
    else:
        print("SKIPPED (part): corpus not found at", corpus or "(not given)", "- pixel and geometry draws not run")

    print(f"run/validate CLI: {checks} checks, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
