#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`shaderbridge assemble` and `shaderbridge disasm` on SHBIN: the round trip
through files, the FILE:LINE:COL error form with a non-zero exit, and usage
errors. Arguments: CLI PROGRAM_DIR WORK_DIR."""
import os
import struct
import subprocess
import sys

cli, programs, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
failures = 0


def check(cond, what):
    global failures
    if not cond:
        print("FAIL:", what)
        failures += 1


def program_words(path):
    data = open(path, "rb").read()
    count = struct.unpack_from("<I", data, 4)[0]
    dvlp = 8 + 4 * count
    code_off, code_n, desc_off, desc_n = struct.unpack_from("<IIII", data, dvlp + 8)
    code = struct.unpack_from("<%dI" % code_n, data, dvlp + code_off)
    desc = [struct.unpack_from("<I", data, dvlp + desc_off + 8 * i)[0] for i in range(desc_n)]
    return code, desc


src = os.path.join(programs, "vs_flow.pica")
first = os.path.join(work, "vs_flow.shbin")
r = subprocess.run([cli, "assemble", src, "-o", first], capture_output=True, text=True)
check(r.returncode == 0, "assemble vs_flow: " + r.stderr)
r = subprocess.run([cli, "disasm", first], capture_output=True, text=True)
check(r.returncode == 0 and ".proc main" in r.stdout and "ifu b0" in r.stdout, "disasm output")
text = os.path.join(work, "vs_flow.dis.pica")
open(text, "w").write(r.stdout)
# default output name: FILE.pica -> FILE.shbin
r = subprocess.run([cli, "assemble", text], capture_output=True, text=True)
again = os.path.join(work, "vs_flow.dis.shbin")
check(r.returncode == 0 and os.path.exists(again), "assemble disassembly: " + r.stderr)
if os.path.exists(again):
    check(program_words(first) == program_words(again), "round trip identical")

bad = os.path.join(work, "bad.pica")
open(bad, "w").write(".proc main\n    mov r0, r1\n    frobnicate r0\n.end\n")
r = subprocess.run([cli, "assemble", bad, "-o", os.path.join(work, "bad.shbin")],
                   capture_output=True, text=True)
check(r.returncode == 1, "error exit status %d" % r.returncode)
check(r.stderr.startswith(bad + ":3:5: error: unknown instruction 'frobnicate'"),
      "error text: " + r.stderr)
check(not os.path.exists(os.path.join(work, "bad.shbin")), "no output on error")
r = subprocess.run([cli, "assemble"], capture_output=True, text=True)
check(r.returncode == 2, "usage error without a file")

print("pica_asm_cli: %s" % ("ok" if failures == 0 else "%d failure(s)" % failures))
sys.exit(1 if failures else 0)
