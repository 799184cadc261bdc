#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`run --draw --input REG=FILE` (issue #15 item 6): the user's own bytes for a
draw's registers. Pixel shaders written by draw_input_shaders (see its header)
compute their one target from cb0, t0 (a raw buffer, a 2D texture) or u0; the
test writes those registers' bytes, draws 1x1 on the device and with --cpu,
and checks o0.bin against values worked out by hand. Then the refusals: a
constant buffer larger than its declaration, a texture of the wrong size, a
register the shader does not declare, one register twice, a register name
draws do not take, a missing file: usage errors, exit 2, as a dispatch's
--input refusals are.

usage: run_draw_input_cli.py SHADERBRIDGE DRAW_INPUT_SHADERS SCRATCH_DIR
Exit 77 when there is no Vulkan device (run exits 3).
"""
import os
import shutil
import struct
import subprocess
import sys

failures = 0
checks = 0


def run(cmd):
    p = subprocess.run(cmd, capture_output=True)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def check(cond, what):
    global failures, checks
    checks += 1
    if not cond:
        failures += 1
        print("FAIL:", what)


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)
    return path


def target(cli, shader, inputs, scratch, name, cpu):
    """Draws 1x1 with `inputs` ({reg: path}); returns o0.bin's bytes, or None. A u# input
    must come back in its u#.bin as given (the shaders only read it)."""
    out = os.path.join(scratch, name + ("-cpu" if cpu else "-gpu"))
    shutil.rmtree(out, ignore_errors=True)
    args = [cli, "run", "--draw", "1x1", "-o", out]
    for reg, path in inputs.items():
        args += ["--input", f"{reg}={path}"]
    args += ["--cpu"] if cpu else []
    rc, stdout, err = run(args + [shader])
    if rc == 3 and not cpu:
        print("no Vulkan device:", err.strip())
        sys.exit(77)
    check(rc == 0, f"{name}{' --cpu' if cpu else ''}: exit {rc}: {err.strip()}")
    for reg, path in inputs.items():
        if reg.startswith("u"):
            with open(path, "rb") as f:
                given = f.read()
            got = open(os.path.join(out, reg + ".bin"), "rb").read() if os.path.exists(
                os.path.join(out, reg + ".bin")) else None
            check(got == given, f"{name}: {reg}.bin is not the given bytes ({len(got or b'')} bytes)")
    try:
        with open(os.path.join(out, "o0.bin"), "rb") as f:
            return f.read()
    except OSError:
        check(False, f"{name}: no o0.bin")
        return None


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    cli, maker, scratch = sys.argv[1:]
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    rc, _, err = run([maker, scratch])
    if rc != 0:
        print("FAIL: draw_input_shaders:", err.strip())
        return 1
    sh = lambda name: os.path.join(scratch, name)

    # (shader, inputs, expected o0 of the one pixel, unpack format)
    cb_copy = write(sh("copy.cb"), struct.pack("<4f", 1.5, -2.0, 0.25, 8.0))
    # o0 = cb0[0] * cb0[1] + cb0[2]: (1*0.5+10, 2*0.5+20, 3*2+30, 4*-1+40)
    cb_mad = write(sh("mad.cb"), struct.pack("<12f", 1, 2, 3, 4, 0.5, 0.5, 2, -1, 10, 20, 30, 40))
    # o0 = cb0[0] + cb0[3] (uint, wrapping): the full 64 bytes, and only 16 (the rest zero).
    cb_iadd = write(sh("iadd.cb"), struct.pack("<16I", 7, 0xFFFFFFFF, 100, 0x80000000,
                                               *([0xDEAD] * 8), 3, 2, 0x12345678, 0x80000001))
    cb_iadd_short = write(sh("iadd-short.cb"), struct.pack("<4I", 9, 8, 7, 6))
    # o0 = the 4 words at byte 4 of t0 (a raw buffer; 6 bytes past them, rounded up to 4).
    t0 = write(sh("raw.t0"), struct.pack("<6I", 0xAAAAAAAA, 11, 22, 33, 0xFFFFFFF0, 0x5555) + b"\x01\x02")
    u0 = write(sh("raw.u0"), struct.pack("<5I", 1, 2, 0x11111111, 0x22222222, 0x33333333) +
               struct.pack("<i", -5))
    # Texture2D<uint4> t0 as seeded: 16x16 R32G32B32A32_UINT, one level (4096 bytes, exactly).
    # Texel i = y * 16 + x holds (i, 3i, 1000 + i, 0xFFFF0000 | i); (1, 2) is texel 33.
    tex = write(sh("tex.t0"), b"".join(struct.pack("<4I", i, 3 * i, 1000 + i, 0xFFFF0000 | i)
                                        for i in range(256)))
    cases = [
        ("cb_copy", {"cb0": cb_copy}, (1.5, -2.0, 0.25, 8.0), "<4f"),
        ("cb_mad", {"cb0": cb_mad}, (10.5, 21.0, 36.0, 36.0), "<4f"),
        ("cb_iadd", {"cb0": cb_iadd}, (10, 1, 0x12345678 + 100, 1), "<4I"),
        ("cb_iadd", {"cb0": cb_iadd_short}, (9, 8, 7, 6), "<4I"),
        ("t0_raw", {"t0": t0}, (11, 22, 33, 0xFFFFFFF0), "<4I"),
        ("t0_tex", {"t0": tex}, (33, 99, 1033, 0xFFFF0021), "<4I"),
        ("u0_raw", {"u0": u0}, (0x11111111, 0x22222222, 0x33333333, 0xFFFFFFFB), "<4I"),
    ]
    for k, (shader, inputs, expected, fmt) in enumerate(cases):
        for cpu in (False, True):
            data = target(cli, sh(shader + ".dxbc"), inputs, scratch, f"{shader}-{k}", cpu)
            if data is None:
                continue
            check(len(data) == 16, f"{shader} case {k}: o0.bin is {len(data)} bytes, not 16 (1x1 RGBA32)")
            got = struct.unpack(fmt, data[:16]) if len(data) >= 16 else None
            check(got == expected, f"{shader} case {k}{' --cpu' if cpu else ''}: o0 = {got}, expected {expected}")

    # Refusals, on both sides: nothing is drawn.
    for cpu in ([], ["--cpu"]):
        rc, _, err = run([cli, "run", "--draw", "1x1", "--input", f"cb0={cb_mad}"] + cpu + [sh("cb_copy.dxbc")])
        check(rc == 2 and "--input cb0=" in err and "1 to 16 bytes" in err and "48 given" in err and
              "SB_ERROR_BAD_SIZE" in err, f"oversized cb0{cpu}: exit {rc}: {err.strip()}")
        rc, _, err = run([cli, "run", "--draw", "1x1", "--input", f"t0={cb_copy}"] + cpu + [sh("t0_tex.dxbc")])
        check(rc == 2 and "exactly 4096 bytes" in err and "16 given" in err,
              f"short texture{cpu}: exit {rc}: {err.strip()}")
        rc, _, err = run([cli, "run", "--draw", "1x1", "--input", f"cb1={cb_copy}"] + cpu + [sh("cb_copy.dxbc")])
        check(rc == 2 and "cb1" in err and "not a register the program declares" in err and
              "SB_ERROR_RUN_BINDING" in err, f"undeclared cb1{cpu}: exit {rc}: {err.strip()}")
        rc, _, err = run([cli, "run", "--draw", "1x1", "--input", f"cb0={cb_copy}", "--input", f"cb0={cb_copy}"] + cpu +
                         [sh("cb_copy.dxbc")])
        check(rc == 2 and "both give cb0" in err, f"cb0 twice{cpu}: exit {rc}: {err.strip()}")
        rc, _, err = run([cli, "run", "--draw", "1x1", "--input", f"s0={cb_copy}"] + cpu + [sh("cb_copy.dxbc")])
        check(rc == 2 and "draws take cb#, t# or u#" in err, f"s0{cpu}: exit {rc}: {err.strip()}")
        rc, _, err = run([cli, "run", "--draw", "1x1", "--input", "cb0=" + sh("missing.cb")] + cpu +
                         [sh("cb_copy.dxbc")])
        check(rc == 2 and "missing.cb" in err, f"missing file{cpu}: exit {rc}: {err.strip()}")

    print(f"run_draw_input_cli: {checks - failures}/{checks} checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
