#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the `shaderbridge` program's contract: exit codes (0 ok, 1 invalid
input, 2 usage), the `FILE:OFFSET: error: ...` message form, standard input
as `-`, and that `info` and `reflect --json` work on the bundled samples.

usage: cli_behaviour.py SHADERBRIDGE SAMPLES_DIR SCRATCH_DIR
"""
import json
import os
import re
import subprocess
import sys

failures = 0
checks = 0


def run(cli, args, stdin=None):
    p = subprocess.run([cli] + args, input=stdin, capture_output=True)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def check(cond, what):
    global failures, checks
    checks += 1
    if not cond:
        failures += 1
        print("FAIL:", what)


def check_disasm(cli, dxbc, shbin, blob, scratch):
    """disasm: fxc's listing of the sample, --offsets pointing at the opcode
    tokens in the file, --no-header, and the error paths."""
    for args in (["disasm"], ["disasm", "--bogus", dxbc], ["disasm", dxbc, dxbc]):
        rc, _, err = run(cli, args)
        check(rc == 2 and err.strip(), "usage error %r exits 2 with a message" % (args,))

    rc, out, err = run(cli, ["disasm", dxbc])
    lines = out.splitlines()
    check(rc == 0, "disasm of the sample exits 0 (%s)" % err)
    check("// Input signature:" in lines and "vs_4_0" in lines,
          "disasm prints fxc's header comments and the version line")
    check("dp4 o0.x, r0.xyzw, cb0[0].xyzw" in lines and "mov r0.w, l(1.000000)" in lines,
          "disasm prints fxc's instruction syntax")

    rc, bare, _ = run(cli, ["disasm", "--no-header", dxbc])
    check(rc == 0 and bare.splitlines()[0] == "vs_4_0" and "//" not in bare.split("ret")[0],
          "--no-header starts at the version line")

    # Every --offsets line names the byte offset of its opcode token: the
    # token's low 11 bits are the opcode, so the mnemonic must agree.
    opcodes = {"dcl_globalFlags": 0x6A, "dcl_constantbuffer": 0x59, "dcl_input": 0x5F,
               "dcl_output_siv": 0x67, "dcl_output": 0x65, "dcl_temps": 0x68,
               "mov": 0x36, "dp4": 0x11, "ret": 0x3E}
    rc, out, _ = run(cli, ["disasm", "--offsets", "--no-header", dxbc])
    seen = 0
    for line in out.splitlines():
        m = re.match(r"0x([0-9a-f]{8}): (\S+)", line)
        if not m:
            continue
        offset, mnemonic = int(m.group(1), 16), m.group(2)
        token = int.from_bytes(blob[offset:offset + 4], "little")
        check(opcodes.get(mnemonic) == token & 0x7FF,
              "--offsets 0x%x is the %s token (found 0x%x)" % (offset, mnemonic, token))
        seen += 1
    check(rc == 0 and seen == 15, "--offsets prefixes all 15 instructions (got %d)" % seen)

    # A SHBIN disassembles in picasso syntax (issue #6).
    rc, out, err = run(cli, ["disasm", shbin])
    check(rc == 0 and ".proc main" in out and "dp4 o0.x" in out, "disasm of a SHBIN: %r" % err)
    # A token stream whose length word lies is reported at that word.
    shdr = blob.find(b"SHDR")
    broken = bytearray(blob)
    broken[shdr + 12:shdr + 16] = (0x100000).to_bytes(4, "little")
    rc, _, err = run(cli, ["disasm", "-"], stdin=bytes(broken))
    check(rc == 1 and re.match(r"-:\d+: error: ", err) is not None,
          "disasm of a corrupt token stream exits 1 with FILE:OFFSET: %r" % err)


def check_shbin_vulkan(cli, shbin):
    """reflect --json of a SHBIN: the uniform buffer's set/binding and the locations its
    attributes and output map get (issue #6 item 5)."""
    rc, out, err = run(cli, ["reflect", "--json", shbin])
    check(rc == 0, f"reflect --json {shbin}: exit {rc} ({err.strip()})")
    try:
        vk = json.loads(out).get("vulkan_bindings", {})
    except ValueError:
        vk = {}
    bindings = vk.get("bindings", [])
    check(any(b.get("register") == "cb0" and b.get("set") == 0 and b.get("binding") == 0 and
              b.get("descriptor_type") == "VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER" for b in bindings),
          f"SHBIN uniforms at set 0 binding 0: {bindings}")
    check([i.get("location") for i in vk.get("inputs", [])] == [0], f"SHBIN inputs: {vk.get('inputs')}")
    check([(o.get("location"), o.get("semantic")) for o in vk.get("outputs", [])] == [(1, "color")],
          f"SHBIN outputs (o1 color; position is a built-in): {vk.get('outputs')}")


def main():
    cli, samples, scratch = sys.argv[1:4]
    os.makedirs(scratch, exist_ok=True)
    dxbc = os.path.join(samples, "passthrough_vs_4_0.dxbc")
    shbin = os.path.join(samples, "simple_tri.shbin")
    vbc = os.path.join(samples, "textured_quad.vbc")

    # Usage errors: exit 2 with a message on stderr.
    for args in ([], ["frobnicate"], ["info"], ["reflect"], ["reflect", "--bogus", dxbc],
                 ["reflect", dxbc, shbin], ["info", "--nope", dxbc]):
        rc, out, err = run(cli, args)
        check(rc == 2, "usage error %r exits 2 (got %d)" % (args, rc))
        check(err.strip() != "", "usage error %r explains itself on stderr" % (args,))
    rc, out, _ = run(cli, ["help"])
    check(rc == 0 and "reflect" in out, "help prints usage and exits 0")
    # validate's usage errors come before any device is opened (no device needed here), and
    # the help names its verdicts, --json and the exit status of each (issue #14).
    for args in (["validate"], ["validate", "--json"], ["validate", "--ulps", "x", dxbc],
                 ["validate", "--bogus", dxbc], ["validate", "--cpu", dxbc], ["validate", dxbc, "--seed"]):
        rc, _, err = run(cli, args)
        check(rc == 2 and "validate" in err, "usage error %r exits 2 naming validate (got %d: %r)" % (args, rc, err))
    flat = " ".join(out.split())
    check("validate [--json]" in flat and all(v in flat for v in (
              "agree,", "agree-within-precision", "undefined", "not-run", "disagree", "error")) and
          "Exit 1 if any disagrees or is invalid, else 4 if any is undefined, else 3 if any did not run, "
          "else 0" in flat,
          "help describes validate's verdicts, --json and exit status")

    # Valid input: exit 0, one line per file.
    rc, out, err = run(cli, ["info", dxbc, shbin, vbc])
    check(rc == 0, "info on the samples exits 0 (got %d: %s)" % (rc, err))
    check(len(out.splitlines()) == 3, "info prints one line per file")
    check(out.startswith(dxbc + ": DXBC vs_4_0, 5 parts"), "info names the file and the format")

    # Standard input.
    with open(dxbc, "rb") as f:
        blob = f.read()
    rc, out, err = run(cli, ["info", "-"], stdin=blob)
    check(rc == 0 and out.startswith("-: DXBC vs_4_0"), "info reads '-' from stdin")
    rc, out, err = run(cli, ["reflect", "--json", "-"], stdin=blob)
    check(rc == 0 and json.loads(out)["format"] == "dxcontainer", "reflect --json reads stdin")

    # Invalid input: exit 1 and FILE:OFFSET: error: on stderr, with the offset of the field.
    truncated = os.path.join(scratch, "truncated.dxbc")
    with open(truncated, "wb") as f:
        f.write(blob[:30])
    rc, out, err = run(cli, ["reflect", truncated])
    check(rc == 1, "truncated container exits 1 (got %d)" % rc)
    check(re.match(re.escape(truncated) + r":28: error: .+", err) is not None,
          "truncated container reported at offset 28: %r" % err)
    lying = bytearray(blob)
    lying[28:32] = (0x40000000).to_bytes(4, "little")
    rc, out, err = run(cli, ["info", "-"], stdin=bytes(lying))
    check(rc == 1 and err.startswith("-:32: error: "), "lying part count reported at 32: %r" % err)
    lying = bytearray(blob)
    lying[24:28] = (len(blob) + 4).to_bytes(4, "little")
    rc, out, err = run(cli, ["reflect", "--json", "-"], stdin=bytes(lying))
    warnings = json.loads(out)["dxcontainer"]["warnings"] if rc == 0 else []
    check(rc == 0 and any(w["offset"] == 24 for w in warnings),
          "a lying file size is a warning at offset 24: %r" % warnings)
    unknown = os.path.join(scratch, "unknown.bin")
    with open(unknown, "wb") as f:
        f.write(b"hello world")
    rc, out, err = run(cli, ["info", unknown, dxbc])
    check(rc == 1, "info with one bad file exits 1")
    check(unknown + ":0: error: " in err and dxbc + ": DXBC" in out,
          "info reports the bad file and still describes the good one")
    rc, out, err = run(cli, ["info", os.path.join(scratch, "does-not-exist")])
    check(rc == 1 and "error:" in err, "missing file exits 1 with an error")

    # reflect --json is valid JSON with the expected top level for every sample.
    for path, fmt in ((dxbc, "dxcontainer"), (shbin, "shbin"), (vbc, "vbc")):
        rc, out, err = run(cli, ["reflect", "--json", path])
        check(rc == 0, "reflect --json %s exits 0 (%s)" % (path, err))
        try:
            doc = json.loads(out)
            check(doc["format"] == fmt and fmt in doc, "%s is reported as %s" % (path, fmt))
        except ValueError as e:
            check(False, "reflect --json %s is valid JSON (%s)" % (path, e))
        rc, text, _ = run(cli, ["reflect", path])
        check(rc == 0 and text.startswith("file: " + path), "reflect text form for %s" % path)

    check_disasm(cli, dxbc, shbin, blob, scratch)
    check_shbin_vulkan(cli, shbin)

    print("%d checks, %d failed" % (checks, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
