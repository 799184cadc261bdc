#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs `shaderbridge info` and `shaderbridge reflect --json` on the
generated .vbc files and checks the output against the values the test
writer put in them (tests/vbc/vbc_specs.c). Exit 77 = skipped (no glslang,
so no files were generated).

Usage: check_cli.py SHADERBRIDGE VBC_DIR HAVE_GLSLANG(0|1)
"""
import json
import os
import subprocess
import sys

failures = 0


def check(what, got, want):
    global failures
    if got != want:
        print(f"FAIL {what}: got {got!r}, expected {want!r}")
        failures += 1


def run(cli, *args):
    result = subprocess.run([cli, *args], capture_output=True, text=True)
    if result.returncode != 0:
        print(f"FAIL {' '.join(args)}: exit {result.returncode}: {result.stderr}")
        sys.exit(1)
    return result.stdout


def main():
    cli, folder, have_glslang = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
    names = ["basic.vbc", "full.vbc", "formats.vbc"]
    paths = [os.path.join(folder, n) for n in names]
    if not all(os.path.exists(p) for p in paths):
        if have_glslang:
            print(f"FAIL: {folder} lacks the generated .vbc files (build target "
                  "sb_vbc_test_files)")
            return 1
        print("SKIP: no generated .vbc files (glslangValidator was not found)")
        return 77

    words = {}
    for name, path in zip(names, paths):
        doc = json.loads(run(cli, "reflect", "--json", path))
        check(f"{name} format", doc["format"], "vbc")
        check(f"{name} size", doc["size"], os.path.getsize(path))
        vbc = doc["vbc"]
        check(f"{name} magic", vbc["header"]["magic"], "VBC")
        check(f"{name} version", vbc["header"]["version"], 1)
        check(f"{name} shader type", vbc["header"]["shader_type"], "graphics")
        words[name] = vbc["header"]["bytecode_words"]
        spirv = vbc["spirv"]
        check(f"{name} spirv stages", [s["stage"] for s in spirv], vbc["stages"])
        end = spirv[-1]["offset"] + 4 * spirv[-1]["word_count"]
        check(f"{name} last blob ends the file", end, os.path.getsize(path))
        for s in spirv:
            check(f"{name} {s['stage']} words", s["word_count"], words[name][s["stage"]])
            with open(path, "rb") as f:
                f.seek(s["offset"])
                check(f"{name} {s['stage']} magic", f.read(4), b"\x03\x02\x23\x07")
        if name == "basic.vbc":
            check("basic stages", vbc["stages"], ["vert", "frag"])
            check("basic inputs", [(v["location"], v["type"]) for v in vbc["vertex_inputs"]],
                  [(0, "float3"), (1, "float2")])
            check("basic outputs", [v["type"] for v in vbc["fragment_outputs"]], ["float4"])
            check("basic bindings", [(b["slot"], b["binding_type"], b["descriptor_type"])
                                     for b in vbc["bindings"]],
                  [(0, "Sampler2D", "COMBINED_IMAGE_SAMPLER"), (1, "ROBuffer", "STORAGE_BUFFER"),
                   (2, "ROTexels", "UNIFORM_TEXEL_BUFFER")])
            check("basic buffer stride", vbc["bindings"][1]["buffer_stride"], 64)
            check("basic sampler format", vbc["bindings"][0]["format"]["name"], "float4")
            u = vbc["uniform"]
            check("basic uniform size", u["size"], 80)
            check("basic uniform stages", u["stage_mask"], ["vert", "frag"])
            check("basic members", [(m["name"], m["offset"], m["type"]) for m in u["members"]],
                  [("mvp", 0, "float4x4"), ("scale", 64, "float2"), ("mode", 72, "int"),
                   ("flags", 76, "uint")])
            check("basic push constants", vbc["push_constant_size"], 8)
            check("basic engine", vbc["engine"]["loadable"], True)
            check("basic subpass", vbc["subpass_inputs"], [])
        elif name == "full.vbc":
            check("full stages", vbc["stages"], ["vert", "tesc", "tese", "geom", "frag"])
            check("full tables", vbc["header"]["table_sizes"],
                  {"samplers": 64, "images": 16, "buffers": 32, "rotexels": 8, "rwtexels": 4})
            check("full input 4", vbc["vertex_inputs"][4]["type"], "float2x3")
            check("full input 4 locations", vbc["vertex_inputs"][4]["location_count"], 2)
            check("full location mask", vbc["vertex_location_mask"], 0xfff7)
            check("full image cube", vbc["bindings"][3]["binding_type"], "unmapped")
            check("full rwtexels format", vbc["bindings"][4]["format"]["name"], "s16norm2")
            check("full unused binding", vbc["bindings"][5]["stage_mask"], [])
            members = vbc["uniform"]["members"]
            check("full matrices", [m["type"] for m in members[:9]],
                  ["float2x2", "float3x3", "float4x4", "float2x3", "float3x2", "float2x4",
                   "float4x2", "float3x4", "float4x3"])
            check("full bools", [m["type"] for m in members[9:13]],
                  ["bool", "bool2", "bool3", "bool4"])
            check("full farr", (members[15]["array_size"], members[15]["size"]), (4, 64))
            check("full subpass", [s["texel_type"] for s in vbc["subpass_inputs"]],
                  ["float", "unsigned"])
            check("full push constants", vbc["push_constant_size"], 20)
            check("full engine", vbc["engine"],
                  {"stages": False, "default_tables": False, "binding_types": False,
                   "loadable": False})
        else:
            check("formats binding count", len(vbc["bindings"]), 32)
            check("formats slots", vbc["binding_slot_mask"], 0xffffffff)
            check("formats push constants", vbc["push_constant_size"], 64)
            check("formats uniform", vbc["uniform"], None)
            check("formats rwtexels", [b["format"]["name"] for b in vbc["bindings"][17:27]],
                  ["u8norm4", "u16norm", "u16norm2", "u16norm4", "s8norm", "s8norm2",
                   "s8norm4", "s16norm", "s16norm2", "s16norm4"])

    lines = run(cli, "info", *paths).splitlines()
    check("info line count", len(lines), 3)
    b = words["basic.vbc"]
    check("info basic", lines[0],
          f"{paths[0]}: VBC v1 graphics, stages vert+frag ({b['vert']}+{b['frag']} words), "
          "2 inputs, 1 output, 3 bindings, uniform 80 bytes (4 members), 0 subpass inputs")
    f = words["full.vbc"]
    check("info full", lines[1],
          f"{paths[1]}: VBC v1 graphics, stages vert+tesc+tese+geom+frag "
          f"({f['vert']}+{f['tesc']}+{f['tese']}+{f['geom']}+{f['frag']} words), "
          "10 inputs, 8 outputs, 6 bindings, uniform 464 bytes (18 members), 2 subpass inputs, "
          "table sizes 64/16/32/8/4, not loadable by the Vega engine")
    check("info formats", lines[2].split(", ", 2)[2],
          "6 inputs, 2 outputs, 32 bindings, no uniform, 0 subpass inputs")

    text = run(cli, "reflect", paths[0])
    check("text form names the uniform member", "name: mvp" in text, True)
    if failures:
        print(f"{failures} check(s) failed")
        return 1
    print("check_cli: info and reflect --json agree with the written files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
