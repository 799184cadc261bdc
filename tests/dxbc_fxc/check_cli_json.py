#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""CLI JSON of the FXC-era parts, checked two ways.

1. Fixed values: `shaderbridge reflect --json` on a few corpus files whose
   contents were read by hand (IFCE of interface1.dxbc, the SM 5.1 RDEF of
   cbuffer2.51.dxbc, PCSG direction in hull vs domain shaders, STAT fields).
2. LLVM cross-check: for every corpus container with an obj2yaml-22 YAML,
   every ISG1/OSG1/PSG1 element and every SFI0 flag that obj2yaml printed is
   compared with our JSON (keys from the brief: name, semantic_index,
   system_value_name, component_type_name, register, mask, rw_mask,
   min_precision_name, stream; SFI0 flag_names). yaml2obj wrote FileSize
   values larger than the data into some binaries, which our container
   reader rejects (../shared/docs/dxcontainer.md §1.1); such a file is compared from a
   temporary copy whose header size is corrected, since the parts are what
   is being checked. A file that still fails to parse in a part we do not
   own is reported and skipped.

Usage: check_cli_json.py SHADERBRIDGE CORPUS_DIR   (exit 77: no corpus)
"""
import json
import os
import struct
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:
    print("SKIPPED: PyYAML not available")
    sys.exit(77)

failures = 0
compared = 0

# LLVM tags its documents '!dxcontainer'; read them as plain mappings.
yaml.SafeLoader.add_constructor("!dxcontainer", yaml.SafeLoader.construct_mapping)


def fail(msg):
    global failures
    failures += 1
    print("FAIL:", msg)


def expect(what, got, want):
    global compared
    compared += 1
    if got != want:
        fail(f"{what}: expected {want!r}, got {got!r}")


def reflect(cli, path):
    r = subprocess.run([cli, "reflect", "--json", path], capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip()
    return json.loads(r.stdout), None


def parts_of(doc, name):
    return [p for p in doc["dxcontainer"]["parts"] if p["name"] == name]


def part(doc, name):
    found = parts_of(doc, name)
    if not found:
        fail(f"{doc['file']}: no {name} part")
        return {}
    return found[0].get("decoded", {})


def fixed_values(cli, corpus):
    real = os.path.join(corpus, "dxcontainer/real/dxc_dxbc2dxil")
    doc, err = reflect(cli, os.path.join(real, "interface1.dxbc"))
    if doc is None:
        fail(f"interface1.dxbc: {err}")
    else:
        ifce = part(doc, "IFCE")
        expect("interface1 IFCE slots", ifce.get("interface_slot_count"), 253)
        expect("interface1 class types", [t["name"] for t in ifce.get("class_types", [])],
               ["Second", "First"])
        expect("interface1 class instances", ifce.get("class_instances"), [])
        expect("interface1 slot", ifce.get("slots"),
               [{"first_slot": 0, "slot_span": 253, "type_ids": [0, 1], "table_ids": [0, 1]}])
        rdef = part(doc, "RDEF")
        expect("interface1 RDEF slots", rdef.get("interface_slot_count"), 253)
        expect("interface1 RDEF magic", rdef.get("magic"), 0x31314452)
        cbs = rdef.get("constant_buffers", [])
        expect("interface1 cbuffers", [(c["name"], c["type_name"]) for c in cbs],
               [("$Globals", "cbuffer"), ("$ThisPointer", "interface_pointers")])
        var = cbs[1]["variables"][0] if len(cbs) > 1 else {}
        expect("interface1 I flags", var.get("flag_names"), ["USED", "INTERFACE_POINTER"])
        t = rdef.get("types", [])[var.get("type_index", 0)] if rdef.get("types") else {}
        expect("interface1 I type", (t.get("class_name"), t.get("elements"), t.get("name")),
               ("interface_pointer", 253, "IFace"))
        shex = part(doc, "SHEX")
        expect("interface1 SHEX", (shex.get("profile"), shex.get("length_dwords")), ("ps_5_0", 144))
        stat = part(doc, "STAT")
        expect("interface1 STAT version", (stat.get("version"), stat.get("dword_count")), ("sm5", 37))
        expect("interface1 STAT instruction_count", stat.get("fields", {}).get("instruction_count"),
               stat.get("dwords", [None])[0])

    doc, err = reflect(cli, os.path.join(real, "cbuffer2.51.dxbc"))
    if doc is None:
        fail(f"cbuffer2.51.dxbc: {err}")
    else:
        rdef = part(doc, "RDEF")
        expect("cbuffer2.51 RDEF", (rdef.get("major"), rdef.get("minor"), rdef.get("magic"),
                                    rdef.get("binding_desc_size")), (5, 1, 0x25441313, 40))
        for b in rdef.get("bound_resources", []):
            expect(f"cbuffer2.51 binding {b['name']} has space/id", "space" in b and "id" in b, True)
        expect("cbuffer2.51 SHEX profile", part(doc, "SHEX").get("profile"), "ps_5_1")

    # PCSG: output of a hull shader (used_mask derived), input of a domain shader.
    for name, stage, has_used in (("hs1.dxbc", "hs", True), ("ds1.dxbc", "ds", False)):
        doc, err = reflect(cli, os.path.join(real, name))
        if doc is None:
            fail(f"{name}: {err}")
            continue
        pcsg = part(doc, "PCSG")
        elements = pcsg.get("elements", [])
        expect(f"{name} has PCSG elements", len(elements) > 0, True)
        for e in elements:
            expect(f"{name} PCSG {e['name']} used_mask present", "used_mask" in e, has_used)
            if has_used:
                expect(f"{name} PCSG {e['name']} used_mask", e["used_mask"], e["mask"] & ~e["rw_mask"])
        for e in part(doc, "ISGN").get("elements", []):
            expect(f"{name} ISGN {e['name']} has no used_mask", "used_mask" in e, False)
        expect(f"{name} profile", part(doc, "SHEX").get("profile", "")[:2], stage)


def sized_copy(path):
    """Returns (path to parse, temp file to delete or None)."""
    data = bytearray(open(path, "rb").read())
    if len(data) >= 32 and data[:4] == b"DXBC" and struct.unpack_from("<I", data, 24)[0] != len(data):
        struct.pack_into("<I", data, 24, len(data))
        tmp = tempfile.NamedTemporaryFile(suffix=".bin", delete=False)
        tmp.write(data)
        tmp.close()
        return tmp.name, tmp.name
    return path, None


def llvm_cross_check(cli, corpus):
    yamls = []
    for folder in ("dxcontainer/real/dxc_dxbc2dxil", "dxcontainer/yaml"):
        full = os.path.join(corpus, folder)
        yamls += [os.path.join(full, n) for n in sorted(os.listdir(full)) if n.endswith(".obj2yaml-22.yaml")]
    elements = flags = 0
    for y in yamls:
        try:
            ref = yaml.safe_load(open(y))
        except yaml.YAMLError as e:
            # LLVM 22's obj2yaml prints some PSV0 resources as invalid YAML.
            print(f"skip {os.path.basename(y)}: not valid YAML ({str(e).splitlines()[0]})")
            continue
        binary = y[: -len(".obj2yaml-22.yaml")]
        if not binary.endswith((".bin", ".dxbc")):
            binary += ".bin"
        if not os.path.exists(binary):
            continue
        wanted = [p for p in ref.get("Parts", []) if "Signature" in p or "Flags" in p]
        if not wanted:
            continue
        path, tmp = sized_copy(binary)
        doc, err = reflect(cli, path)
        if tmp:
            os.unlink(tmp)
        if doc is None:
            print(f"skip {os.path.basename(binary)}: {err}")
            continue
        ours = doc["dxcontainer"]["parts"]
        before = elements
        for index, p in enumerate(ref["Parts"]):
            if "Signature" not in p and "Flags" not in p:
                continue
            mine = ours[index].get("decoded", {})
            where = f"{os.path.basename(binary)} {p['Name']}"
            if "Flags" in p:
                want = sorted(k for k, v in p["Flags"].items() if v is True)
                expect(f"{where} flags", sorted(mine.get("flag_names", [])), want)
                flags += 1
                continue
            params = p["Signature"].get("Parameters") or []
            got = mine.get("elements", [])
            expect(f"{where} element count", len(got), len(params))
            for e, r in zip(got, params):
                expect(f"{where} {r['Name']}", (e["stream"], e["name"], e["semantic_index"],
                                                e["system_value_name"], e["component_type_name"],
                                                e["register"], e["mask"], e["rw_mask"],
                                                e["min_precision_name"]),
                       (r["Stream"], r["Name"], r["Index"], r["SystemValue"], r["CompType"],
                        r["Register"], r["Mask"], r["ExclusiveMask"], r["MinPrecision"]))
                elements += 1
        print(f"{os.path.basename(binary)}: {elements - before} signature elements compared")
    print(f"LLVM cross-check: {elements} signature elements and {flags} SFI0 parts compared")
    if elements < 15 or flags < 5:
        fail(f"too few LLVM comparisons ({elements} elements, {flags} SFI0 parts)")


def main():
    if len(sys.argv) != 3:
        print("usage: check_cli_json.py SHADERBRIDGE CORPUS_DIR")
        return 2
    cli, corpus = sys.argv[1], sys.argv[2]
    if not os.path.isdir(os.path.join(corpus, "dxcontainer")):
        print(f"SKIPPED: corpus not found at {corpus}")
        return 77
    fixed_values(cli, corpus)
    llvm_cross_check(cli, corpus)
    print(f"{compared} values compared, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
