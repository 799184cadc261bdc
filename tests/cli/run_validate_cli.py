#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The `run` and `validate` commands end to end (issue #5 §4): compute
samples on the device and with --cpu give the same UAV bytes; --draw runs a
vertex shader (bundled sample) and, when the corpus is there, a pixel and a
geometry shader, and a PICA200 geometry shader of our own, on both sides, with
the same bytes and the files the help text names; validate agrees on the samples (exit 0);
validate's verdicts (issue #14): the verdict line of each input, the summary table's verdict
column, the --json document (every key and its type, the counts adding up, the verdict
following from them), the exit status each verdict asks for and the worst-wins rule
across inputs, --ulps reported as an override, '-' for standard input; usage errors exit 2.

usage: run_validate_cli.py SHADERBRIDGE SAMPLES_DIR SCRATCH_DIR [CORPUS_DIR]
Exit 77 when there is no Vulkan device (run exits 3).
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys

failures = 0
checks = 0


def run(cli, args):
    p = subprocess.run([cli] + args, capture_output=True)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def check(cond, what):
    global failures, checks
    checks += 1
    if not cond:
        failures += 1
        print("FAIL:", what)


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def both_sides(cli, shader, extra, scratch, name, files):
    """Runs `shader` on the device and on the interpreter; every file in
    `files` must exist on both sides with the same bytes. Returns the
    device's output directory."""
    gpu, cpu = os.path.join(scratch, name + "-gpu"), os.path.join(scratch, name + "-cpu")
    for d in (gpu, cpu):
        shutil.rmtree(d, ignore_errors=True)
    rc, out, err = run(cli, ["run", shader, "-o", gpu] + extra)
    check(rc == 0, f"run {name}: exit {rc}: {err.strip()}")
    rc, out, err = run(cli, ["run", shader, "--cpu", "-o", cpu] + extra)
    check(rc == 0, f"run --cpu {name}: exit {rc}: {err.strip()}")
    check("CPU interpreter" in out, f"run --cpu {name} names the interpreter: {out!r}")
    for f in files:
        a, b = read(os.path.join(gpu, f)), read(os.path.join(cpu, f))
        check(a is not None and b is not None, f"{name}: {f} written on both sides")
        check(a == b, f"{name}: {f} differs between the device and the interpreter")
    return gpu


VERDICTS = ("agree", "agree-within-precision", "undefined", "not-run", "disagree", "error")
# The exit status each verdict asks for, and the order in which the worst input wins.
VERDICT_EXIT = {"agree": 0, "agree-within-precision": 0, "undefined": 4, "not-run": 3, "disagree": 1, "error": 1}
EXIT_RANK = {0: 0, 3: 1, 4: 2, 1: 3}
VERDICT_LINE = re.compile(r"^(agree-within-precision|agree|undefined|not-run|disagree|error) +(\S+): (\S.*)$")
COUNTS = ("words_compared", "mismatches", "within_precision", "precision_sensitive", "undefined_words",
          "unexplained", "unconstrained", "undefined_events")
RESULT_KEYS = {"file", "stage", "verdict", "reason", "ulps_override", "undefined", "worst", "differences",
               "domain_points", "resources",
               "timing", "error"} | set(COUNTS)
RESOURCE_KEYS = {"register", "class", "space", "index", "format", "vk_format", "dimension", "bytes"}
CLASS_PREFIX = {"cbv": "b", "srv": "t", "sampler": "s", "uav": "u"}


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_number_or_null(v):
    return v is None or (isinstance(v, (int, float)) and not isinstance(v, bool))


def int_or_null(v):
    return v is None or is_int(v)


def expected_exit(verdicts):
    """The status `validate` must return for these verdicts: the worst wins."""
    status = 0
    for v in verdicts:
        if EXIT_RANK[VERDICT_EXIT[v]] > EXIT_RANK[status]:
            status = VERDICT_EXIT[v]
    return status


def check_result(r, name):
    """One object of validate --json's "results": every key, its type, and the invariants
    between the counts and the verdict (README.md "validate --json")."""
    check(set(r) >= RESULT_KEYS, f"{name}: result keys {sorted(RESULT_KEYS - set(r))} missing")
    if not set(r) >= RESULT_KEYS:
        return
    verdict = r["verdict"]
    check(verdict in VERDICTS, f"{name}: verdict {verdict!r}")
    check(isinstance(r["reason"], str) and r["reason"] and "\n" not in r["reason"], f"{name}: one-line reason")
    check(isinstance(r["file"], str), f"{name}: file is a string")
    check(r["stage"] in ("cs", "vs", "ps", "gs", "hs", "ds", None), f"{name}: stage {r['stage']!r}")
    check(int_or_null(r["ulps_override"]), f"{name}: ulps_override is an integer or null")
    compared = verdict not in ("not-run", "error")
    for key in COUNTS:
        check(is_int(r[key]) if compared else r[key] is None, f"{name}: {key} = {r[key]!r} ({verdict})")
    check((r["error"] is None) == compared, f"{name}: error object exactly when not compared: {r['error']!r}")
    check(isinstance(r["resources"], list) if compared else r["resources"] is None,
          f"{name}: resources = {r['resources']!r} ({verdict})")
    for res in r["resources"] or []:
        check(set(res) == RESOURCE_KEYS and res["class"] in CLASS_PREFIX and
              res["register"] == CLASS_PREFIX[res["class"]] + str(res["index"]) and
              (res["format"] is None) == (res["vk_format"] is None) and is_int(res["bytes"]),
              f"{name}: resource {res!r}")
    if r["error"] is not None:
        e = r["error"]
        check(isinstance(e.get("code"), str) and e["code"].startswith("SB_") and is_int(e.get("offset")) and
              isinstance(e.get("message"), str) and e["message"] in r["reason"],
              f"{name}: error {{code, offset, message}} and the reason quoting it: {e!r}")
    check((r["timing"] is not None) == compared, f"{name}: timing exactly when compared")
    if r["timing"] is not None:
        t = r["timing"]
        check(all(is_number_or_null(t.get(k)) and t.get(k) is not None for k in
                  ("gpu_pipeline_ms", "gpu_upload_ms", "gpu_run_ms", "gpu_readback_ms", "cpu_ms",
                   "evidence_ms")) and
              is_int(t.get("cpu_instructions")), f"{name}: timing fields: {t!r}")
    check(isinstance(r["undefined"], list) and isinstance(r["differences"], list), f"{name}: arrays")
    for u in r["undefined"]:
        check(u.get("kind") in ("write-write", "read-write", "atomic-order", "uninitialized", "out-of-bounds") and
              re.match(r"^[a-z]+\d+(@space\d+)?$", str(u.get("location"))) is not None and
              is_int(u.get("byte_offset")) and
              len(u.get("invocations", [])) == 2 and all(int_or_null(x) for x in u["invocations"]) and
              len(u.get("instructions", [])) == 2 and all(int_or_null(x) for x in u["instructions"]),
              f"{name}: undefined event {u!r}")
    for d in r["differences"]:
        check(isinstance(d.get("resource"), str) and int_or_null(d.get("byte_offset")) and
              isinstance(d.get("counter"), bool) and (d["byte_offset"] is None) == d["counter"] and
              len(d.get("texel", [])) == 4 and all(is_int(x) for x in d["texel"]) and
              d.get("kind") in ("unknown", "float", "int", "uint", "bool", "double.lo", "double.hi") and
              is_number_or_null(d.get("gpu")) and is_number_or_null(d.get("cpu")) and
              re.match(r"^0x[0-9a-f]{8}$", str(d.get("gpu_bits"))) is not None and
              re.match(r"^0x[0-9a-f]{8}$", str(d.get("cpu_bits"))) is not None and d["gpu_bits"] != d["cpu_bits"] and
              d.get("explained") in ("within-precision", "precision-sensitive", "undefined", "unexplained") and
              is_number_or_null(d.get("bound")) and int_or_null(d.get("instruction")) and
              (d.get("op") is None or isinstance(d["op"], str)),
              f"{name}: difference {d!r}")
    if r["worst"] is not None:
        w = r["worst"]
        check(isinstance(w.get("resource"), str) and is_int(w.get("byte_offset")) and
              all(is_number_or_null(w.get(k)) for k in ("gpu", "cpu", "deviation", "bound")) and
              re.match(r"^0x[0-9a-f]{8}$", str(w.get("gpu_bits"))) is not None and
              int_or_null(w.get("instruction")) and (w.get("op") is None or isinstance(w["op"], str)),
              f"{name}: worst {w!r}")
        # A finite bound holds the deviation; a null (infinite) bound is a precision-sensitive
        # word, named only when no word differs within a finite bound.
        check(w["deviation"] is not None and
              ((w["bound"] is not None and w["deviation"] <= w["bound"]) or
               (w["bound"] is None and r.get("within_precision") == 0 and r.get("precision_sensitive", 0) > 0)),
              f"{name}: the worst deviation lies within its bound: {w!r}")
    if not compared:
        return
    # The counts add up and decide the verdict (validate.h).
    parts = r["within_precision"] + r["precision_sensitive"] + r["undefined_words"] + r["unexplained"]
    check(r["mismatches"] == parts, f"{name}: mismatches {r['mismatches']} = the four explanations {parts}")
    check(r["mismatches"] <= r["words_compared"], f"{name}: mismatches within words_compared")
    check(len(r["differences"]) == min(r["mismatches"], 64), f"{name}: the first 64 differing words are listed")
    check((r["unexplained"] > 0) == (verdict == "disagree"), f"{name}: disagree exactly when unexplained > 0")
    check((r["mismatches"] == 0) == (verdict == "agree"), f"{name}: agree exactly when nothing differs")
    if verdict == "undefined":
        check(r["undefined_words"] > 0 and r["undefined_events"] > 0 and r["undefined"],
              f"{name}: an undefined verdict names its events")
    unexplained = sum(d["explained"] == "unexplained" for d in r["differences"])
    check(unexplained <= r["unexplained"], f"{name}: listed unexplained words within the count")


def check_validate_verdicts(cli, samples, scratch, corpus):
    """validate's verdicts in text and JSON, and the exit status they ask for (issue #14)."""
    saxpy = os.path.join(samples, "saxpy_cs_5_0.dxbc")
    vs = os.path.join(samples, "passthrough_vs_4_0.dxbc")
    broken = os.path.join(scratch, "broken.dxbc")

    # Text: a verdict line per input, verdict first; the table's verdict column.
    rc, out, err = run(cli, ["validate", saxpy, vs, broken, "--draw", "16"])
    lines = [m for m in (VERDICT_LINE.match(l) for l in out.splitlines()) if m]
    check([(m.group(1), m.group(2)) for m in lines] == [("agree", saxpy), ("agree", vs), ("error", broken)],
          f"validate prints one verdict line per input, in order: {[m.group(0) for m in lines]}")
    check([m.group(3) for m in lines][:2] == ["16385 words identical", "128 words identical"] and
          any("[SB_ERROR_" in m.group(3) for m in lines),
          "the reason follows the verdict (saxpy 16385 words, 16 vertices x 8 words; the error code): "
          f"{[m.group(3) for m in lines]}")
    table = out[out.find("\nshader "):].splitlines()[1:]
    check(len(table) == 4 and table[0].split()[:2] == ["shader", "verdict"] and
          [row.split()[1] for row in table[1:]] == ["agree", "agree", "error"],
          f"the summary table has a verdict column: {table}")
    check(rc == 1, f"an invalid input among agreeing ones: exit {rc}, want 1")
    check(broken + ":" in err, f"the invalid input is still reported on stderr: {err!r}")

    # JSON of the same inputs plus standard input; and '-' alone.
    with open(saxpy, "rb") as f:
        saxpy_bytes = f.read()
    p = subprocess.run([cli, "validate", "--json", saxpy, broken, "-"], input=saxpy_bytes, capture_output=True)
    try:
        doc = json.loads(p.stdout)
    except ValueError as e:
        doc = {}
        check(False, f"validate --json writes JSON ({e}): {p.stdout[:200]!r}")
    check(isinstance(doc.get("device"), str) and doc.get("seed") == 1 and isinstance(doc.get("results"), list),
          f"validate --json top level: device, seed, results: {sorted(doc)}")
    results = doc.get("results", [])
    check([(r.get("file"), r.get("verdict")) for r in results] == [(saxpy, "agree"), (broken, "error"), ("-", "agree")],
          f"one result per input, in order, stdin as '-': {[(r.get('file'), r.get('verdict')) for r in results]}")
    for r in results:
        check_result(r, "json " + str(r.get("file")))
    if len(results) == 3:
        check(results[0]["stage"] == "cs" and results[0]["words_compared"] == 16385 and
              results[0]["mismatches"] == 0 and results[0]["reason"] == "16385 words identical",
              f"saxpy: 16385 words, none differing: {results[0]}")
        check(results[2]["words_compared"] == results[0]["words_compared"], "stdin gives the file's result")
        # saxpy: cb0 (one vector), t0 and u0 structured (stride 4, 16384 elements), none typed.
        check([(x["register"], x["format"], x["bytes"]) for x in results[0]["resources"]] ==
              [("b0", None, 16), ("t0", None, 65536), ("u0", None, 65536)],
              f"saxpy: the resources the run bound: {results[0]['resources']}")
        check(results[1]["stage"] is None and
              results[1]["error"]["code"] in ("SB_ERROR_TRUNCATED", "SB_ERROR_BAD_SIZE", "SB_ERROR_BAD_COUNT",
                                              "SB_ERROR_BAD_OFFSET"),
              f"the broken container: an error object with the reader's code: {results[1]['error']}")
    check(p.returncode == 1, f"validate --json with an invalid input: exit {p.returncode}, want 1")

    # A file that does not exist is an input too: error, SB_ERROR_IO, naming why.
    rc, out, _ = run(cli, ["validate", "--json", os.path.join(scratch, "no-such-file.dxbc")])
    r = (json.loads(out).get("results") or [{}])[0] if out.strip().startswith("{") else {}
    check(rc == 1 and r.get("verdict") == "error" and (r.get("error") or {}).get("code") == "SB_ERROR_IO" and
          "No such file" in r.get("reason", ""), f"a missing file: exit {rc}, {r}")

    # No device: every input is still reported, not-run (the device error) or error (invalid).
    rc, out, err = run(cli, ["validate", "--json", "--device", "no-such-device", saxpy, broken])
    doc = json.loads(out) if out.strip().startswith("{") else {}
    rs = doc.get("results", [])
    check(rc == 1 and "device" in doc and doc["device"] is None and
          [r.get("verdict") for r in rs] == ["not-run", "error"] and rs[0]["stage"] == "cs" and rs[0]["error"]["code"] == "SB_ERROR_NO_DEVICE" and
          rs[0]["reason"].endswith("[SB_ERROR_NO_DEVICE]") and "no-such-device" in rs[0]["reason"],
          f"validate with no device: exit {rc}, {doc}")
    for r in rs:
        check_result(r, "no device " + str(r.get("file")))
    rc, out, _ = run(cli, ["validate", "--device", "no-such-device", saxpy])
    check(rc == 3 and out.startswith("not-run "), f"validate with no device: exit {rc}, want 3: {out!r}")

    if not corpus or not os.path.isdir(os.path.join(corpus, "dxbc")):
        print("SKIPPED (part): corpus not found - not-run, disagreeing and --ulps checks not run")
        return
    hull = os.path.join(corpus, "dxbc/hlslcc/hs5_basic.dxbc")
    # Shaders whose words differ on lavapipe today (tests/validate/corpus_expected.tsv): their
    # verdicts move as the interpreter's evidence grows, so only the rules are asserted.
    differing = [os.path.join(corpus, "dxbc", p) for p in
                 ("hlslcc/ps5_gather.dxbc", "bgfx/cs_fsr_bilinear_16.dxbc",
                  "slimshader/Sdk_Direct3D11_AdaptiveTessellationCS40_TessellatorCS40_ScatterIDCS_Vertex.dxbc",
                  "hlslcc/ps5_atomic_mem.dxbc")]

    # not-run: a pixel shader needing a feature lavapipe lacks and the translator has no
    # fallback for (a rasterizer-ordered view: fragment shader interlock); the reason names
    # what is missing, the byte offset of the declaration that needs it (its
    # dcl_uav_typed_texture2darray_rov at byte 152) and the code.
    missing = os.path.join(corpus, "dxbc/vkd3d-proton/d3d12_rov__create_pso__ps_code_single_dxbc.dxbc")
    rc, out, _ = run(cli, ["validate", missing])
    m = [m for m in (VERDICT_LINE.match(l) for l in out.splitlines()) if m]
    check(rc == 3 and len(m) == 1 and m[0].group(1) == "not-run" and
          "u0 is a rasterizer-ordered view" in m[0].group(3) and
          "fragmentShaderPixelInterlock" in m[0].group(3) and
          "(byte 152) [SB_ERROR_RUN_UNSUPPORTED]" in m[0].group(3), f"a shader is not-run, exit 3: {rc} {out!r}")
    rc, out, _ = run(cli, ["validate", "--json", missing])
    r = json.loads(out)["results"][0]
    check_result(r, "json not-run")
    check(rc == 3 and r["verdict"] == "not-run" and r["stage"] == "ps" and
          r["error"]["code"] == "SB_ERROR_RUN_UNSUPPORTED",
          f"validate --json of a not-run shader: exit {rc}, {r}")
    rc, _, _ = run(cli, ["validate", missing, saxpy])
    check(rc == 3, f"not-run beside agree: exit {rc}, want 3")
    rc, _, _ = run(cli, ["validate", missing, broken])
    check(rc == 1, f"not-run beside an invalid input: exit {rc}, want 1")
    # A hull shader validates: 16 patches of 4 control points (o0.xyzw passed through) and
    # 2 patch constants (o0.x, o1.x): 16 x (4 x 4 + 2) = 288 words.
    rc, out, _ = run(cli, ["validate", "--json", hull])
    r = json.loads(out)["results"][0]
    check_result(r, "json hull")
    check(rc == 0 and r["verdict"] == "agree" and r["stage"] == "hs" and r["words_compared"] == 288 and
          r["domain_points"] is None, f"validate --json of a hull shader: exit {rc}, {r}")

    # Every differing shader alone: the exit status its verdict asks for; all of them together
    # with the not-run shader and a sample: the worst wins. Text and JSON give the same verdicts.
    verdicts = []
    for shader in differing:
        rc, out, _ = run(cli, ["validate", "--json", shader])
        r = json.loads(out)["results"][0]
        check_result(r, "json " + os.path.basename(shader))
        verdicts.append(r["verdict"])
        check(rc == VERDICT_EXIT[r["verdict"]], f"{os.path.basename(shader)}: {r['verdict']} exits {rc}")
        check(r["mismatches"] > 0, f"{os.path.basename(shader)} differs on the device: {r['mismatches']} words")
        rc, text, _ = run(cli, ["validate", shader])
        m = VERDICT_LINE.match(text.splitlines()[0] if text else "")
        check(m is not None and m.group(1) == r["verdict"] and m.group(3) == r["reason"],
              f"{os.path.basename(shader)}: the text's verdict line is the JSON's verdict and reason: {text[:200]!r}")
        if r["verdict"] in ("disagree", "undefined"):
            listed = re.findall(r"^  \S+ .*: (within-precision|precision-sensitive|undefined|unexplained) \(",
                                text, re.M)
            check(len(listed) == len(r["differences"]),
                  f"{os.path.basename(shader)}: every kept differing word listed with its explanation "
                  f"({len(listed)} of {len(r['differences'])})")
    fsr = differing[1]
    check(json.loads(run(cli, ["validate", "--json", fsr])[1])["results"][0]["words_compared"] == 1025,
          "cs_fsr_bilinear_16 compares 1025 words")
    rc, _, _ = run(cli, ["validate", saxpy, missing] + differing)
    want = expected_exit(["agree", "not-run"] + verdicts)
    check(rc == want, f"validate of {['agree', 'not-run'] + verdicts}: exit {rc}, want {want}")
    if "disagree" not in verdicts:
        print("NOTE: none of the differing corpus shaders disagrees any more; exit 1 for disagree is "
              "checked through the rule above only")

    # --ulps N: an explicit override, reported as one; wide enough, every float agrees.
    rc, out, _ = run(cli, ["validate", "--json", "--ulps", "4194304", fsr])
    r = json.loads(out)["results"][0]
    check(rc == 0 and r["ulps_override"] == 4194304 and r["verdict"] == "agree" and r["mismatches"] == 0,
          f"--ulps 4194304 on cs_fsr_bilinear_16: exit {rc}, {r['verdict']}, ulps_override {r['ulps_override']}")
    rc, out, _ = run(cli, ["validate", "--ulps", "4194304", fsr])
    check("--ulps 4194304: an explicit override" in out.splitlines()[0],
          f"the text says --ulps is an override: {out[:300]!r}")
    r = json.loads(run(cli, ["validate", "--json", fsr])[1])["results"][0]
    check(r["ulps_override"] is None, "without --ulps there is no override")


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    cli, samples, scratch = sys.argv[1:4]
    corpus = sys.argv[4] if len(sys.argv) > 4 else ""
    os.makedirs(scratch, exist_ok=True)
    saxpy = os.path.join(samples, "saxpy_cs_5_0.dxbc")
    vs = os.path.join(samples, "passthrough_vs_4_0.dxbc")

    rc, _, err = run(cli, ["run", saxpy, "--dispatch", "2", "-o", os.path.join(scratch, "probe")])
    if rc == 3:
        print("SKIPPED: no Vulkan device:", err.strip())
        return 77

    # Compute: the same bytes on both sides; the counter file; two groups.
    both_sides(cli, saxpy, ["--dispatch", "2"], scratch, "saxpy", ["u0.bin", "u0.counter"])

    # Vertex: 8 vertices, one text line each, equal records.
    gpu = both_sides(cli, vs, ["--draw", "8"], scratch, "vs", ["vertices.bin", "vertices.txt"])
    text = read(os.path.join(gpu, "vertices.txt")) or b""
    lines = text.decode().splitlines()
    check(len(lines) == 8 and lines[0].startswith("vertex 0: o0=("), f"vertices.txt: {lines[:2]}")
    records = read(os.path.join(gpu, "vertices.bin")) or b""
    check(len(records) > 0 and len(records) % (8 * 16) == 0, f"vertices.bin holds 8 records ({len(records)} bytes)")
    seeds = set()
    for seed in ("1", "2"):
        d = os.path.join(scratch, "vs-seed" + seed)
        shutil.rmtree(d, ignore_errors=True)
        run(cli, ["run", vs, "--draw", "8", "--seed", seed, "-o", d])
        seeds.add(read(os.path.join(d, "vertices.bin")))
    check(len(seeds) == 2, "--seed changes the vertex inputs")

    # Usage errors: --draw on compute, a count for a vertex shader's --draw must be >= 1,
    # a bad WxH, an --input for a register the vertex shader does not declare.
    for args in (["run", saxpy, "--draw", "4"], ["run", vs, "--draw", "0"], ["run", vs, "--draw", "3x"],
                 ["run", vs, "--draw", "4x4"], ["run", vs, "--draw", "8", "--input", "u0=" + saxpy]):
        rc, _, err = run(cli, args)
        check(rc == 2, f"{' '.join(args[:1] + args[2:])}: exit {rc}, want 2 ({err.strip()})")

    # validate: the samples agree; an unreadable file is exit 1.
    rc, out, err = run(cli, ["validate", saxpy, vs, "--draw", "16"])
    check(rc == 0, f"validate samples: exit {rc}: {out} {err}")
    check(out.count("agree") >= 2, f"validate prints a verdict per file: {out!r}")
    broken = os.path.join(scratch, "broken.dxbc")
    with open(broken, "wb") as f:
        f.write(b"DXBC" + bytes(20))
    rc, _, _ = run(cli, ["validate", broken])
    check(rc == 1, f"validate of a broken file: exit {rc}, want 1")
    check_validate_verdicts(cli, samples, scratch, corpus)

    # A PICA200 geometry shader of our own (assembled here): its compute expansion's records,
    # u0.bin and the u0.txt listing, the same on both sides.
    gs_source = os.path.join(samples, "..", "tests", "pica_runtime", "programs", "gs_quad_point.pica")
    gs_shbin = os.path.join(scratch, "gs_quad_point.shbin")
    rc, _, err = run(cli, ["assemble", "-o", gs_shbin, gs_source])
    check(rc == 0, f"assemble gs_quad_point.pica: exit {rc} ({err.strip()})")
    gpu = both_sides(cli, gs_shbin, ["--draw", "2"], scratch, "pica-gs", ["u0.bin", "u0.txt"])
    lines = (read(os.path.join(gpu, "u0.txt")) or b"").decode().splitlines()
    check(lines[:1] == ["# 8 vertices emitted by 2 primitives"] and len(lines) == 9 and
          lines[3].startswith("vertex 2: primitive 0 id 2 winding 0 emit-primitive 1:"),
          f"u0.txt of the PICA quad expander: {lines[:4]}")
    rc, _, _ = run(cli, ["validate", "--seed", "1", gs_shbin])
    check(rc == 0, f"validate of the PICA geometry shader: exit {rc}")

    # Corpus shaders: a pixel shader (targets as .bin and .png) and a geometry shader.
    ps = os.path.join(corpus, "dxbc/angle/clearfloat11ps3.dxbc")
    gs = os.path.join(corpus, "dxbc/hlslcc/gs5_stream.dxbc")
    if corpus and os.path.exists(ps) and os.path.exists(gs):
        gpu = both_sides(cli, ps, ["--draw", "16x8"], scratch, "ps", ["o0.bin", "o1.bin", "o2.bin", "oDepth.bin"])
        png = read(os.path.join(gpu, "o0.png")) or b""
        check(png[:8] == b"\x89PNG\r\n\x1a\n", "o0.png is a PNG")
        if len(png) > 24:
            check(struct.unpack(">II", png[16:24]) == (16, 8), "o0.png is 16x8")
        check(len(read(os.path.join(gpu, "o0.bin")) or b"") == 16 * 8 * 16, "o0.bin: 16x8 RGBA32 texels")
        rc, _, _ = run(cli, ["run", ps, "--draw", "5"])
        check(rc == 2, f"a pixel shader with --draw N: exit {rc}, want 2")
        gpu = both_sides(cli, gs, ["--draw", "3"], scratch, "gs", ["gs-vertices.bin", "gs-vertices.txt"])
        lines = (read(os.path.join(gpu, "gs-vertices.txt")) or b"").decode().splitlines()
        check(any(l.startswith("primitive 2 instance 0 vertex 0 stream ") for l in lines),
              f"gs-vertices.txt lists the third primitive: {lines[:3]}")
    else:
        print("SKIPPED (part): corpus not found at", corpus or "(not given)", "- pixel and geometry draws not run")

    print(f"run/validate CLI: {checks} checks, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
