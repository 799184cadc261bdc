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

    print("%d checks, %d failed" % (checks, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
