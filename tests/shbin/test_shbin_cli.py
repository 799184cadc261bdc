#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""CLI test of the SHBIN JSON and `info` line (../shared/docs/pica200.md §12).

Usage: test_shbin_cli.py SHADERBRIDGE MAKE_FILES WORKDIR CORPUS_DIR

Runs `shaderbridge info` and `reflect --json` on a writer-built Nintendo
file (labels, filenames, a geometry shader, inf/NaN constants) and, when the
corpus is present, on the worked example of §12.10; the JSON must be valid
(no bare NaN) and hold the decoded values. Exits 77 when the corpus is
absent, after the corpus-free checks passed.
"""
import json
import os
import subprocess
import sys

failures = 0


def check(cond, what):
    global failures
    if not cond:
        print("FAILED:", what)
        failures += 1


def run(*args):
    result = subprocess.run(list(args), capture_output=True, text=True)
    check(result.returncode == 0, f"{args} exited {result.returncode}: {result.stderr}")
    return result.stdout


def main():
    cli, make_files, workdir, corpus = sys.argv[1:5]
    os.makedirs(workdir, exist_ok=True)
    run(make_files, workdir)
    nintendo = os.path.join(workdir, "nintendo.shbin")

    line = run(cli, "info", nintendo).strip()
    check(line == nintendo + ": SHBIN, 2 DVLEs (vertex main=0 end=3, geometry main=3 end=6 "
          "fixed), 6 code words, 2 operand descriptors, 3 constants, 3 outputs, 2 uniforms",
          f"info line: {line}")
    doc = json.loads(run(cli, "reflect", "--json", nintendo))
    sh = doc["shbin"]
    check(sh["layout"] == "nintendo", "layout")
    check(sh["dvlb"]["dvle_count"] == 2, "dvle_count")
    dvlp = sh["dvlp"]
    check(dvlp["version"] == 0x0102, "dvlp version")
    check(dvlp["code"] == [0x4E000000, 0x4C210007, 0x88000000, 0x4C000000, 0xA8000000,
                           0x88000000], "code words")
    check([f["text"] for f in dvlp["filenames"]] == ["shader.vsh", "shader.gsh"], "filenames")
    check(dvlp["unknown_words"] == [1, 2, 3], "unknown words")
    d0 = dvlp["operand_descriptors"][1]
    check(d0["dest_mask"] == "xyz" and d0["src1_selector"] == "xyzz", f"descriptor {d0}")
    vs, gs = sh["dvles"]
    check(vs["labels"][0]["name"] == "main" and gs["labels"][0]["address"] == 3, "labels")
    c = vs["constants"]
    check(c[0]["register"] == "c90" and c[0]["float24"] == [0x7F0000, 0xFF0000, 0x7F8000,
                                                              0x3B9999], f"float raw {c[0]}")
    check(c[0]["value"][:3] == ["inf", "-inf", "nan"], f"non-finite values {c[0]['value']}")
    check(abs(c[0]["value"][3] - 0.09999942779541016) < 1e-12, "0.1 as picasso stores it")
    check(c[1]["register"] == "i1" and c[1]["value"] == [3, 2, 255, 0], f"int {c[1]}")
    check(c[2]["register"] == "b2" and c[2]["value"] is True, f"bool {c[2]}")
    out = vs["outputs"][1]
    check(out["type"] == "texcoord0" and out["mask"] == "xy" and
          out["semantics"] == ["texcoord0.u", "texcoord0.v", "unused", "unused"], f"{out}")
    u = vs["uniforms"]
    check(u[0]["first"] == "c0" and u[0]["last"] == "c3" and u[1]["first"] == "b1",
          f"uniforms {u}")
    check(gs["shader_type"] == "geometry" and gs["geometry"]["mode"] == "fixed" and
          gs["geometry"]["fixed_vertex_count"] == 3 and gs["merge_outmaps"] is True, "gs")
    text = run(cli, "reflect", nintendo)
    check("layout: nintendo" in text and "name: gmain" in text, "text rendering")

    example = os.path.join(corpus, "pica", "bin", "aroulin_simple_tri__vshader_9cc2852d.shbin")
    if not os.path.exists(example):
        print("SKIPPED: corpus not found at", example)
        return 1 if failures else 77
    line = run(cli, "info", example).strip()
    check(line == example + ": SHBIN, 1 DVLE (vertex main=0 end=11), 11 code words, "
          "8 operand descriptors, 1 constant, 2 outputs, 1 uniform", f"info line: {line}")
    sh = json.loads(run(cli, "reflect", "--json", example))["shbin"]
    check(sh["layout"] == "picasso-old", "example layout")
    d = sh["dvles"][0]
    check(d["constants"][0]["value"] == [0, 1, -2, -100], f"c4 {d['constants'][0]}")
    check(d["uniforms"][0]["name"] == "projection", "uniform name")
    check(len(sh["dvlp"]["code"]) == 11 and sh["dvlp"]["code"][10] == 0x88000000, "code")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
