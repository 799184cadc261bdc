#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate the dx.op table of the DXIL front end from ../shared/docs/dxil.md.

The doc's §3.6 opcode tables (one markdown row per dx.op) and §3.4 operand
enumerations are the project's one written source for these facts; this
script turns them into C data so the front end, the disassembler and the
validator never hold a hand-copied second version that could drift:

  translator/internal/translator/dxil_opcodes.h  opcode, class and §3.4 value enums
  translator/src/dxil/dxil_ops_table.c          one const row per opcode, the
                                                operand lists, the class table
                                                and the §3.4 name tables

Usage:
  tools/gen_dxil_ops.py DOC REPO            rewrite the two files under REPO
  tools/gen_dxil_ops.py DOC REPO --check    compare instead; exit 1 with a
                                            diff when the committed files differ
                                            (77, SKIPPED, when DOC does not exist)
Every cell the script does not understand stops it with the doc's line
number, so a changed doc is noticed rather than half-read.
"""
import difflib
import os
import re
import sys

HEADER_PATH = "translator/internal/translator/dxil_opcodes.h"
TABLE_PATH = "translator/src/dxil/dxil_ops_table.c"

# Column legend of §3.6: operand and return type spellings -> enum sb_dxil_type.
TYPES = {
    "void": "VOID", "T": "OVERLOAD", "H": "HANDLE",
    "i1": "I1", "i8": "I8", "i16": "I16", "i32": "I32", "i64": "I64",
    "f16": "F16", "f32": "F32", "f64": "F64", "f32*": "F32_PTR", "udt*": "UDT_PTR",
    "obj": "OBJECT", "ResBind": "RES_BIND", "ResProps": "RES_PROPS",
    "NodeH": "NODE_HANDLE", "RecH": "RECORD_HANDLE", "NodeInfo": "NODE_INFO",
    "RecInfo": "RECORD_INFO", "HitObj": "HIT_OBJECT",
    "ResRet(T)": "RES_RET", "CBufRet(T)": "CBUF_RET",
    "i1\u2020": "I1_OR_VECTOR", "i32\u2020": "I32_OR_VECTOR",
    "twoi32": "TWO_I32", "i32c": "I32_WITH_CARRY", "splitdouble": "SPLIT_DOUBLE",
    "fouri32": "FOUR_I32", "fouri32/fouri16": "FOUR_I32_OR_I16",
    "Dimensions": "DIMENSIONS", "SamplePos": "SAMPLE_POS",
    "vec9(T)": "VEC9_OVERLOAD", "elt(T)": "ELEMENT",
}
# Overload letters of the legend -> SB_DXIL_OVERLOAD_* bits.
OVERLOADS = {"h": "F16", "f": "F32", "d": "F64", "1": "I1", "8": "I8",
             "w": "I16", "i": "I32", "l": "I64", "u": "UDT", "o": "OBJECT"}
STAGES = ["PS", "VS", "GS", "HS", "DS", "CS", "MS", "AS", "node",
          "RG", "IS", "AH", "CH", "MI", "CA"]
EARLY = {"\u2605": "REQUIRED", "conv": "CONVERTER", "flag": "FLAG", "": "NONE"}


class DocError(Exception):
    pass


def fail(line_no, what):
    raise DocError("dxil.md:%d: %s" % (line_no, what))


def upper_snake(name):
    """LoadInput -> LOAD_INPUT, GSInstanceID -> GS_INSTANCE_ID, CBuffer -> CBUFFER,
    Texture2DArray -> TEXTURE2D_ARRAY, node input -> NODE_INPUT (a lone capital prefix stays joined: IMax -> IMAX)."""
    name = re.sub(r"(?<=[a-z])(?=[A-Z])", "_", name)
    name = re.sub(r"(?<=[A-Z0-9][A-Z])(?=[A-Z][a-z])", "_", name)
    name = re.sub(r"(?<=[0-9])(?=[A-Z][a-z])", "_", name)
    name = re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_")
    return name.upper()


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split(" | ")]


def section_lines(lines, start_heading, end_heading):
    """(line number, text) of the lines between two '### ' headings."""
    inside = False
    for number, text in enumerate(lines, 1):
        if text.startswith("### "):
            if text.startswith(start_heading):
                inside = True
                continue
            if inside and text.startswith(end_heading):
                return
        if text.startswith("## ") and inside:
            return
        if inside:
            yield number, text


def parse_operands(number, cell):
    if cell == "\u2014":
        return []
    operands = []
    for part in cell.split(", "):
        match = re.fullmatch(r"(\w+):(\S+?)(!?)", part)
        if not match or match.group(2) not in TYPES:
            fail(number, "operand %r not understood" % part)
        operands.append((match.group(1), TYPES[match.group(2)], match.group(3) == "!"))
    return operands


def parse_overloads(number, cell):
    scalar, vector = [], []
    if cell == "\u2014":
        return scalar, vector
    for word in cell.split():
        vec = re.fullmatch(r"\+vec\(([hfd18wilu]+)\)", word)
        if vec:
            vector = [OVERLOADS[c] for c in vec.group(1)]
        elif word in OVERLOADS:
            scalar.append(OVERLOADS[word])
        else:
            fail(number, "overload %r not understood" % word)
    return scalar, vector


def parse_stages(number, semantics):
    match = re.search(r"\[([A-Za-z/]+)\]\s*$", semantics)
    if not match:
        return None
    stages = match.group(1).split("/")
    for stage in stages:
        if stage not in STAGES:
            fail(number, "stage %r not understood" % stage)
    return stages


def parse_opcode_rows(lines):
    ops = []
    for number, text in section_lines(lines, "### 3.6", "### 3.7"):
        if not re.match(r"\| (0x[0-9A-Fa-f]+|\d+) \|", text):
            continue
        row = cells(text)
        if len(row) != 9:
            fail(number, "opcode row has %d cells, not 9" % len(row))
        opcode = int(row[0], 0)
        if not re.fullmatch(r"\w+", row[1]):
            fail(number, "opcode name %r" % row[1])
        op_class = row[2].strip("`")
        if not re.fullmatch(r"[A-Za-z_0-9]+", op_class):
            fail(number, "class %r" % row[2])
        if row[4] not in TYPES:
            fail(number, "return type %r not understood" % row[4])
        sm = re.fullmatch(r"(\d+)\.(\d+)(\u2021?)", row[6])
        if not sm:
            fail(number, "shader model %r" % row[6])
        if row[7] not in EARLY:
            fail(number, "6.0-6.2 column %r" % row[7])
        scalar, vector = parse_overloads(number, row[5])
        ops.append({
            "line": number, "opcode": opcode, "name": row[1], "class": op_class,
            "operands": parse_operands(number, row[3]), "returns": TYPES[row[4]],
            "scalar": scalar, "vector": vector,
            "sm": (int(sm.group(1)), int(sm.group(2))), "vector_only": sm.group(3) != "",
            "early": EARLY[row[7]], "stages": parse_stages(number, row[8]),
        })
    seen = {}
    for op in ops:
        if op["opcode"] in seen:
            fail(op["line"], "opcode %#x listed twice" % op["opcode"])
        seen[op["opcode"]] = op
    return ops


def parse_enum_rows(lines):
    """§3.4: 'name / name' in the first cell, 'value name, ...' items in the second.

    Items are split on ',', ';' and ' / '; an item is '[label] [bit] NUMBER NAME',
    where the label is a lowercase word or 'SM x.y:'; text without a number
    (rules such as 'at least one fence bit required') is not an item. A value
    that does not grow starts the next enum of a 'A / B' row.
    """
    enums = []
    for number, text in section_lines(lines, "### 3.4", "### 3.5"):
        if not text.startswith("| ") or text.startswith("| enum") or text.startswith("| ---"):
            continue
        row = cells(text)
        names = [re.sub(r"\s*\(.*\)$", "", n).strip() for n in row[0].split(" / ")]
        groups = [[]]
        for item in re.split(r",|;| / ", row[1]):
            item = item.strip()
            match = re.fullmatch(r"(?:(?!bit )[a-z]+ |SM \d+\.\d+: )?(bit )?(0x[0-9A-Fa-f]+|\d+) (.+)", item)
            if not match:
                if re.search(r"\d", item):
                    fail(number, "enumerant %r not understood" % item)
                continue
            value = int(match.group(2), 0)
            if match.group(1):
                value = 1 << value
            label = re.split(r"\s+[(\u2014]", match.group(3))[0].strip()
            if groups[-1] and value <= groups[-1][-1][0]:
                groups.append([])
            groups[-1].append((value, label))
        if len(groups) != len(names):
            fail(number, "%d enum names but %d value runs" % (len(names), len(groups)))
        for name, values in zip(names, groups):
            if not re.fullmatch(r"[A-Za-z]+", name):
                fail(number, "enum name %r" % name)
            flags = bool(re.search(r"bit \d", row[1])) or name.endswith("Flag")
            enums.append({"name": name, "values": values, "flags": flags})
    return enums


def c_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def mask(prefix, names):
    return "|".join(prefix + n for n in names) if names else "0"


def banner():
    """The opening lines of both generated files."""
    return ["/* SPDX-License-Identifier: MIT */",
            "/* GENERATED by tools/gen_dxil_ops.py from ../shared/docs/dxil.md §3.4 and §3.6;",
            " * do not edit: change the doc, rerun the script (ctest dxil_ops_generated_current",
            " * fails while this file and the doc disagree). */"]


def render_header(ops, classes, enums):
    out = banner()
    out.append("#ifndef SB_TRANSLATOR_DXIL_OPCODES_H")
    out.append("#define SB_TRANSLATOR_DXIL_OPCODES_H")
    out.append("")
    out.append("/** Core dx.op opcode numbers (§3.6, table 0). */")
    out.append("enum sb_dxil_opcode {")
    for op in sorted(ops, key=lambda o: o["opcode"]):
        if op["opcode"] < 0x80000000:
            out.append("    SB_DXIL_OP_%s = %d," % (upper_snake(op["name"]), op["opcode"]))
    out.append("};")
    out.append("")
    # C17 enumerators must fit an int; the experimental table's numbers do not.
    out.append("/* Experimental dx.op numbers (table 0x8000): macros, as they pass INT_MAX. */")
    for op in sorted(ops, key=lambda o: o["opcode"]):
        if op["opcode"] >= 0x80000000:
            out.append("#define SB_DXIL_OP_%s 0x%08Xu" % (upper_snake(op["name"]), op["opcode"]))
    out.append("")
    core = [o["opcode"] for o in ops if o["opcode"] < 0x80000000]
    exp = [o["opcode"] & 0xFFFF for o in ops if o["opcode"] >= 0x80000000]
    out.append("/** Size of the dense core table: the highest core opcode + 1. */")
    out.append("#define SB_DXIL_CORE_OP_COUNT %du" % (max(core) + 1))
    out.append("/** Size of the experimental table (opcode & 0xFFFF indexes it). */")
    out.append("#define SB_DXIL_EXPERIMENTAL_OP_COUNT %du" % (max(exp) + 1))
    out.append("/** Opcodes the doc lists (reserved numbers excluded). */")
    out.append("#define SB_DXIL_LISTED_OP_COUNT %du" % len(ops))
    out.append("")
    out.append("/** dx.op classes, the <class> of `dx.op.<class>[.<overload>]`, sorted by name. */")
    out.append("enum sb_dxil_op_class {")
    for index, name in enumerate(classes):
        out.append("    SB_DXIL_CLASS_%s = %d, /* %s */" % (upper_snake(name), index, name))
    out.append("    SB_DXIL_CLASS_COUNT = %d" % len(classes))
    out.append("};")
    out.append("")
    out.append("/** The operand enumerations of §3.4, by name (sb_dxil_enum_value_name). */")
    out.append("enum sb_dxil_enum {")
    for index, enum in enumerate(enums):
        out.append("    SB_DXIL_ENUM_%s = %d," % (upper_snake(enum["name"]), index))
    out.append("    SB_DXIL_ENUM_COUNT = %d" % len(enums))
    out.append("};")
    for enum in enums:
        prefix = "SB_DXIL_" + upper_snake(enum["name"]) + "_"
        out.append("")
        out.append("/** %s (§3.4)%s. */" % (enum["name"], ", bit flags" if enum["flags"] else ""))
        out.append("enum sb_dxil_%s {" % upper_snake(enum["name"]).lower())
        for value, label in enum["values"]:
            out.append("    %s%s = 0x%X," % (prefix, upper_snake(label), value))
        out.append("};")
    out.append("")
    out.append("#endif")
    return "\n".join(out) + "\n"


def render_table(ops, classes, enums):
    out = banner()
    out.append('#include "translator/dxil_ops.h"')
    out.append("")
    out.append("/* Every opcode's operands after the opcode, rows in opcode order. */")
    operand_start = {}
    out.append("const struct sb_dxil_op_operand sb_dxil_op_operands[] = {")
    position = 0
    for op in sorted(ops, key=lambda o: o["opcode"]):
        operand_start[op["opcode"]] = position
        if op["operands"]:
            out.append("    /* %s */ %s" % (op["name"], " ".join(
                "{ %s, SB_DXIL_TYPE_%s, %s }," % (c_string(name), typ, "true" if immediate else "false")
                for name, typ, immediate in op["operands"])))
            position += len(op["operands"])
    out.append("};")
    out.append("")

    def row(op):
        stages = "SB_DXIL_STAGE_ALL" if op["stages"] is None else mask(
            "SB_DXIL_STAGE_", [upper_snake(s) for s in op["stages"]])
        return ("    [%d] = { .opcode = %s, .name = %s, .op_class = SB_DXIL_CLASS_%s, .operand_first = %d,\n"
                "            .operand_count = %d, .returns = SB_DXIL_TYPE_%s, .sm_major = %d, .sm_minor = %d,"
                " .sm_vector_only = %s, .early = SB_DXIL_EARLY_%s, .stages = %s,"
                " .overloads = %s, .vector_overloads = %s },") % (
            op["opcode"] & 0xFFFF,
            "0x%08Xu" % op["opcode"] if op["opcode"] >= 0x80000000 else str(op["opcode"]),
            c_string(op["name"]), upper_snake(op["class"]), operand_start[op["opcode"]],
            len(op["operands"]), op["returns"], op["sm"][0], op["sm"][1],
            "true" if op["vector_only"] else "false", op["early"], stages,
            mask("SB_DXIL_OVERLOAD_", op["scalar"]), mask("SB_DXIL_OVERLOAD_", op["vector"]))

    out.append("const struct sb_dxil_op_info sb_dxil_core_ops[SB_DXIL_CORE_OP_COUNT] = {")
    for op in sorted(ops, key=lambda o: o["opcode"]):
        if op["opcode"] < 0x80000000:
            out.append(row(op))
    out.append("};")
    out.append("")
    out.append("const struct sb_dxil_op_info sb_dxil_experimental_ops[SB_DXIL_EXPERIMENTAL_OP_COUNT] = {")
    for op in sorted(ops, key=lambda o: o["opcode"]):
        if op["opcode"] >= 0x80000000:
            out.append(row(op))
    out.append("};")
    out.append("")
    out.append("/* Per class: its name and the union of its opcodes' overloads (the name parser's")
    out.append(" * check); has_void: some opcode of the class has no overload (no suffix). */")
    out.append("const struct sb_dxil_op_class_info sb_dxil_op_classes[SB_DXIL_CLASS_COUNT] = {")
    for name in classes:
        members = [o for o in ops if o["class"] == name]
        scalar = sorted({s for o in members for s in o["scalar"]})
        vector = sorted({s for o in members for s in o["vector"]})
        has_void = any(not o["scalar"] and not o["vector"] for o in members)
        out.append("    [SB_DXIL_CLASS_%s] = { %s, %s, %s, %s }," % (
            upper_snake(name), c_string(name), mask("SB_DXIL_OVERLOAD_", scalar),
            mask("SB_DXIL_OVERLOAD_", vector), "true" if has_void else "false"))
    out.append("};")
    for enum in enums:
        out.append("")
        out.append("static const struct sb_dxil_enum_value %s_values[] = {" %
                   upper_snake(enum["name"]).lower())
        for value, label in enum["values"]:
            out.append("    { 0x%X, %s }," % (value, c_string(label)))
        out.append("};")
    out.append("")
    out.append("const struct sb_dxil_enum_info sb_dxil_enums[SB_DXIL_ENUM_COUNT] = {")
    for enum in enums:
        snake = upper_snake(enum["name"])
        out.append("    [SB_DXIL_ENUM_%s] = { %s, %s, %s_values, %d }," % (
            snake, c_string(enum["name"]), "true" if enum["flags"] else "false",
            snake.lower(), len(enum["values"])))
    out.append("};")
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) not in (3, 4) or (len(argv) == 4 and argv[3] != "--check"):
        sys.stderr.write("usage: gen_dxil_ops.py DOC REPO [--check]\n")
        return 2
    if len(argv) == 4 and not os.path.exists(argv[1]):
        print("SKIPPED: %s not found" % argv[1])
        return 77
    with open(argv[1], encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    try:
        ops = parse_opcode_rows(lines)
        enums = parse_enum_rows(lines)
    except DocError as error:
        sys.stderr.write("gen_dxil_ops: %s\n" % error)
        return 1
    if not ops or not enums:
        sys.stderr.write("gen_dxil_ops: no §3.6 opcode rows or §3.4 enums found in %s\n" % argv[1])
        return 1
    classes = sorted({op["class"] for op in ops})
    for kind, names in (("opcode", [op["name"] for op in ops]), ("class", classes),
                        ("enum", [e["name"] for e in enums])):
        spelled = [upper_snake(n) for n in names]
        if len(set(spelled)) != len(spelled):
            sys.stderr.write("gen_dxil_ops: two %s names give one C identifier\n" % kind)
            return 1
    outputs = {HEADER_PATH: render_header(ops, classes, enums),
               TABLE_PATH: render_table(ops, classes, enums)}
    status = 0
    for relative, text in outputs.items():
        path = os.path.join(argv[2], relative)
        if len(argv) == 4:
            try:
                with open(path, encoding="utf-8") as handle:
                    committed = handle.read()
            except OSError as error:
                sys.stderr.write("gen_dxil_ops: %s\n" % error)
                return 1
            if committed != text:
                sys.stdout.writelines(difflib.unified_diff(
                    committed.splitlines(True), text.splitlines(True),
                    relative + " (committed)", relative + " (from the doc)"))
                status = 1
        else:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
    print("gen_dxil_ops: %d opcodes, %d classes, %d enums: %s" % (
        len(ops), len(classes), len(enums), "differs" if status else "ok"))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
