#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`shaderbridge translate --target` and `reflect --target` on the bundled samples
(tests/targets/README.md): batch output names per target, --jobs, the version options
and their usage errors (exit 2), a version the language lacks (exit 1, the library's
message), and reflect's target_bindings for saxpy (cb0, t0, u0 at their D3D registers in
HLSL). targets_cli.py CLI SAMPLES SCRATCH"""
import json
import os
import shutil
import subprocess
import sys

cli, samples, scratch = sys.argv[1:4]
failures = []


def run(*args):
    return subprocess.run([cli] + list(args), capture_output=True, text=True)


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


saxpy = os.path.join(samples, "saxpy_cs_5_0.dxbc")
inputs = [os.path.join(samples, n) for n in
          ("saxpy_cs_5_0.dxbc", "group_sum_cs_5_0.dxbc", "passthrough_vs_4_0.dxbc", "simple_tri.shbin")]
shutil.rmtree(scratch, ignore_errors=True)
for target, ext, first_line in (("glsl", ".glsl", "#version 450"), ("essl", ".essl", "#version 310 es"),
                                ("msl", ".metal", "#include <metal_stdlib>"), ("hlsl", ".hlsl", None)):
    out = os.path.join(scratch, target)
    p = run("translate", "--jobs", "2", "--target", target, "-o", out, *inputs)
    check(p.returncode == 0, f"{target}: batch exit {p.returncode}: {p.stderr}")
    names = sorted(os.listdir(out)) if os.path.isdir(out) else []
    want = sorted(os.path.splitext(os.path.basename(i))[0] + ext for i in inputs)
    check(names == want, f"{target}: wrote {names}, want {want}")
    if first_line and names == want:
        text = open(os.path.join(out, "saxpy_cs_5_0" + ext)).read()
        check(first_line in text, f"{target}: saxpy has no '{first_line}'")

p = run("translate", "--target", "hlsl", "--hlsl-shader-model", "51", saxpy)
check(p.returncode == 0 and "register(u0, space0)" in p.stdout, "hlsl 51: u0 at register(u0, space0)")
for args, message in ((["--target", "glsl", "--msl-version", "2.1"], "--msl-version applies to --target msl only"),
                      (["--target", "hlsl", "--hlsl-shader-model", "5.0"], "the shader model times ten"),
                      (["--target", "metal"], "unknown target 'metal'"),
                      (["--target", "glsl", "--spirv-text"], "--spirv-text is for --target spirv")):
    p = run("translate", *args, saxpy)
    check(p.returncode == 2 and message in p.stderr, f"{args}: exit {p.returncode}, stderr {p.stderr!r}")
p = run("translate", "--target", "essl", "--essl-version", "330", saxpy)
check(p.returncode == 1 and "essl cannot be version 330 [SB_ERROR_INVALID_ARGUMENT]" in p.stderr,
      f"essl 330: exit {p.returncode}, stderr {p.stderr!r}")

p = run("reflect", "--json", "--target", "hlsl", saxpy)
check(p.returncode == 0, f"reflect --target hlsl: exit {p.returncode}")
if p.returncode == 0:
    vb = json.loads(p.stdout)["vulkan_bindings"]
    slots = [(b["kind"], b["set"], b["binding"], b["slot"]) for b in vb.get("target_bindings", [])]
    want = [("uniform_buffer", 0, 0, "register(b0)"), ("storage_buffer", 0, 32, "register(t0)"),
            ("storage_buffer", 0, 160, "register(u0)")]
    check(vb.get("target") == "hlsl" and slots == want, f"reflect hlsl target_bindings {slots}, want {want}")
print("targets_cli:", "FAILED" if failures else "all checks passed")
sys.exit(1 if failures else 0)
