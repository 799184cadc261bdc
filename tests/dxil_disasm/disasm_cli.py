#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`shaderbridge disasm FILE.dxil`: the bundled DXIL sample's listing (body and
declarations written out by hand from the sample's HLSL: u0[i*4] = i*2+1,
i = SV_DispatchThreadID.x), and a DXIL part whose bitcode is cut short or
claimed longer than the part: exit 1 with FILE:OFFSET: error: ... [CODE].

usage: disasm_cli.py SHADERBRIDGE SAMPLES_DIR SCRATCH_DIR
"""
import os
import re
import struct
import subprocess
import sys

failures = 0
checks = 0


def check(cond, what):
    global failures, checks
    checks += 1
    if not cond:
        failures += 1
        print("FAIL:", what)


def run(cli, args):
    p = subprocess.run([cli] + args, capture_output=True)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


EXPECTED_BODY = """\
define void @main() {
  %1 = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)  ; CreateHandle(resourceClass,rangeId,index,nonUniformIndex)
  %2 = call i32 @dx.op.threadId.i32(i32 93, i32 0)  ; ThreadId(component)
  %3 = shl i32 %2, 2
  %4 = shl i32 %2, 1
  %5 = or i32 %4, 1
  call void @dx.op.bufferStore.i32(i32 69, %dx.types.Handle %1, i32 %3, i32 undef, i32 %5, i32 undef, i32 undef, i32 undef, i8 1)  ; BufferStore(uav,coord0,coord1,value0,value1,value2,value3,mask)
  ret void
}

; Function Attrs: nounwind readonly
declare %dx.types.Handle @dx.op.createHandle(i32, i8, i32, i32, i1) #0

; Function Attrs: nounwind readnone
declare i32 @dx.op.threadId.i32(i32, i32) #1

; Function Attrs: nounwind
declare void @dx.op.bufferStore.i32(i32, %dx.types.Handle, i32, i32, i32, i32, i32, i32, i8) #2

attributes #0 = { nounwind readonly }
attributes #1 = { nounwind readnone }
attributes #2 = { nounwind }
"""


def dxil_part_offset(data):
    """File offset of the DXIL part's data (after its FourCC and size)."""
    count = struct.unpack_from("<I", data, 28)[0]
    for i in range(count):
        offset = struct.unpack_from("<I", data, 32 + 4 * i)[0]
        if data[offset:offset + 4] == b"DXIL":
            return offset + 8
    raise SystemExit("the sample has no DXIL part")


def main():
    cli, samples, scratch = sys.argv[1:4]
    os.makedirs(scratch, exist_ok=True)
    sample = os.path.join(samples, "dxil", "store_index_cs_6_0.dxil")
    rc, out, err = run(cli, ["disasm", sample])
    check(rc == 0, "disasm of the DXIL sample exits 0 (%s)" % err)
    check(out.startswith("; shader model cs_6_0, DXIL version 1.0\n; entry point: main\n"),
          "header comments: %r" % out[:80])
    check('target triple = "dxil-ms-dx"\n' in out, "target triple")
    check("%dx.types.Handle = type { i8* }\n" in out, "named struct type")
    check(EXPECTED_BODY in out, "body, declarations and attribute groups:\n" + out)
    check("!3 = !{!\"cs\", i32 6, i32 0}\n" in out, "dx.shaderModel node")

    data = bytearray(open(sample, "rb").read())
    part = dxil_part_offset(data)
    bitcode_size = struct.unpack_from("<I", data, part + 20)[0]
    # Bitcode cut in half (kept a multiple of 4 words so the stream itself is what breaks).
    cut = bytearray(data)
    struct.pack_into("<I", cut, part + 20, (bitcode_size // 2) & ~3)
    # Bitcode claimed 64 bytes longer than the part holds.
    over = bytearray(data)
    struct.pack_into("<I", over, part + 20, bitcode_size + 64)
    for name, blob in (("cut", cut), ("over", over)):
        path = os.path.join(scratch, "disasm_%s.dxil" % name)
        with open(path, "wb") as f:
            f.write(blob)
        rc, out, err = run(cli, ["disasm", path])
        check(rc == 1, "%s: exit 1 (got %d)" % (name, rc))
        check(out == "", "%s: nothing on stdout" % name)
        m = re.match(re.escape(path) + r":(\d+): error: .* \[SB_ERROR_[A-Z_]+\]\n$", err)
        check(m is not None, "%s: FILE:OFFSET: error: ... [CODE]: %r" % (name, err))
        if m:
            offset = int(m.group(1))
            check(part <= offset < len(blob), "%s: offset %d inside the DXIL part" % (name, offset))
    # The header claiming too much is caught at the size field itself (program header +20).
    rc, _, err = run(cli, ["disasm", os.path.join(scratch, "disasm_over.dxil")])
    check(":%d: error:" % (part + 20) in err and "SB_ERROR_BAD_SIZE" in err,
          "over: the bitcode size field's offset and BAD_SIZE: %r" % err)
    print("disasm_cli: %d checks, %d failed" % (checks, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
