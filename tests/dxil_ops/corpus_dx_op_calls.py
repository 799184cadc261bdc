#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every dx.op call of the DXIL corpus against the dx.op table.

Until the project's own bitcode reader lands, LLVM 14's disassembler (a test
oracle, never linked; it reads DXIL's LLVM 3.7 bitcode) lists the calls: for
each corpus container this takes the DXIL part's bitcode, runs llvm-dis-14 on
it and writes one line per call, `NAME OPCODE ARGS VALUES TYPE SM FILE` (ARGS =
operands after the opcode; VALUES = hex mask of those that are SSA values, not
constants; TYPE and SM = the manifest's program_type and shader_model) to
`test_dxil_ops corpus`, which checks each against the table.

Usage: corpus_dx_op_calls.py CORPUS_DIR LLVM_DIS TEST_DXIL_OPS WORK_DIR
Exit 77 (SKIPPED) without the corpus or llvm-dis-14.
"""
import os
import re
import struct
import subprocess
import sys

CALL = re.compile(r"call [^@\n]*@(dx\.op\.[\w.$]+)\(([^\n]*)\)")


def dxil_bitcode(data):
    """The bitcode of the container's DXIL part (container §2; dxil.md §1.1), or None."""
    if len(data) < 32 or data[:4] != b"DXBC":
        return None
    count = struct.unpack_from("<I", data, 28)[0]
    if 32 + 4 * count > len(data):
        return None
    for index in range(count):
        offset = struct.unpack_from("<I", data, 32 + 4 * index)[0]
        if offset + 8 + 24 > len(data) or data[offset:offset + 4] != b"DXIL":
            continue
        program = data[offset + 8:]
        bitcode_offset, bitcode_size = struct.unpack_from("<II", program, 16)
        start = 8 + bitcode_offset  # relative to the 'DXIL' magic at program byte 8
        if start + bitcode_size <= len(program):
            return program[start:start + bitcode_size]
    return None


def top_level_arguments(text):
    """Split a call's argument list at the commas outside any brackets."""
    arguments, depth, current = [], 0, ""
    for char in text:
        if char in "{[<(":
            depth += 1
        elif char in "}]>)":
            depth -= 1
        if char == "," and depth == 0:
            arguments.append(current)
            current = ""
        else:
            current += char
    arguments.append(current)
    return arguments


def value_mask(arguments):
    """Bit i set when operand i is an SSA value or global (`%x`, `@x`), not a constant."""
    mask = 0
    for index, argument in enumerate(arguments):
        parts = argument.strip().split(" ", 1)  # "<type> <value>"; types here are one token
        if len(parts) == 2 and parts[1].lstrip()[:1] in ("%", "@"):
            mask |= 1 << index
    return mask


def main(argv):
    if len(argv) != 5:
        sys.stderr.write(__doc__)
        return 2
    corpus, llvm_dis, tester, work = argv[1:]
    manifest = os.path.join(corpus, "dxil", "MANIFEST.tsv")
    if not llvm_dis or not os.path.exists(manifest):
        print("SKIPPED: needs %s and llvm-dis-14" % manifest)
        return 77
    lines, unreadable = [], []
    bitcode_path = os.path.join(work, "corpus_call.bc")
    for row in open(manifest, encoding="utf-8").read().splitlines()[1:]:
        fields = row.split("\t")
        relative, program_type, shader_model = fields[0], fields[3], fields[4]
        with open(os.path.join(corpus, "dxil", relative), "rb") as handle:
            bitcode = dxil_bitcode(handle.read())
        if bitcode is None:
            unreadable.append(relative)
            continue
        with open(bitcode_path, "wb") as handle:
            handle.write(bitcode)
        listing = subprocess.run([llvm_dis, bitcode_path, "-o", "-"], capture_output=True, text=True)
        if listing.returncode != 0:
            unreadable.append(relative)
            continue
        for match in CALL.finditer(listing.stdout):
            arguments = top_level_arguments(match.group(2))
            opcode = re.match(r"\s*i32 (-?\d+)$", arguments[0])
            lines.append("%s %s %d %x %s %s %s\n" % (
                match.group(1), opcode.group(1) if opcode else "?", len(arguments) - 1,
                value_mask(arguments[1:]), program_type, shader_model, relative))
    for relative in unreadable:
        print("no DXIL bitcode llvm-dis-14 reads: %s" % relative)
    checked = subprocess.run([tester, "corpus"], input="".join(lines), text=True)
    return 1 if unreadable else checked.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv))
