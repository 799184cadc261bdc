#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Issue #16 item 4's figures over the corpus (tests/targets/README.md).

targets_corpus.py CLI CORPUS SCRATCH [--sample N] [--jobs N] [--require-glsl PCT]
                  [--require-compute PCT] [--compute-only]

Every DXBC corpus shader (MANIFEST.tsv rows with program_type vs/ps/gs/hs/ds/cs) is
translated to SPIR-V; those that translate are then translated to GLSL 450, ESSL 310 (the
stages ES has: vs, ps, cs), MSL 2.1 and HLSL SM5.0 with `shaderbridge translate --target`.
Figures printed:
  - per target: text written / shaders that translate to SPIR-V;
  - GLSL: `glslangValidator -V` compiles / GLSL written; ESSL: glslang (ES rules) compiles;
  - compute shaders: the GLSL (translated with --unbounded-descriptors 8 and lavapipe's
    device profile with the typed u# formats our own run bound, as validate translates its
    own) compiled by glslang and run by `shaderbridge validate --spirv` on lavapipe,
    verdict agree or agree-within-precision / compute shaders with a module, beside the
    same count for our own SPIR-V on the same shaders, and the share of the shaders our own
    module agrees on that agree through GLSL too (--require-compute applies to this one: the
    others are device limits and undefined behaviour, alike on both paths).
--sample N takes every k-th shader (N in all, deterministic) for a bounded run (the ctest);
--require-* exit 1 when a rate in percent is below the figure given. --compute-only takes
the compute shaders alone and writes GLSL only (the round trip's part, about a fifth of
the time). Exit 77 without the corpus or glslangValidator.
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys

STAGES = {"vs": "vert", "ps": "frag", "gs": "geom", "hs": "tesc", "ds": "tese", "cs": "comp"}
ES_STAGES = {"vs", "ps", "cs"}
TARGETS = [("glsl", ".glsl", []), ("essl", ".essl", []), ("msl", ".metal", []), ("hlsl", ".hlsl", [])]


def manifest(corpus):
    path = os.path.join(corpus, "dxbc", "MANIFEST.tsv")
    rows = []
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        file_col, type_col = header.index("file"), header.index("program_type")
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) > type_col and cols[type_col] in STAGES:
                rows.append((os.path.join(corpus, "dxbc", cols[file_col]), cols[type_col]))
    return rows


def stem(path):
    base = os.path.basename(path)
    return base[: base.rfind(".")] if "." in base[1:] else base


def translate(cli, files, out_dir, jobs, extra):
    """Batch-translates `files` into out_dir; returns {input that failed: its message}."""
    os.makedirs(out_dir, exist_ok=True)
    failed = {}
    # Several inputs with one name would collide: the caller keeps names unique.
    for start in range(0, len(files), 400):  # keep the command line short
        chunk = files[start:start + 400]
        p = subprocess.run([cli, "translate", "--jobs", str(jobs), "-o", out_dir] + extra + chunk,
                           capture_output=True, text=True)
        if p.returncode not in (0, 1):
            raise SystemExit(f"FAIL: translate {' '.join(extra)} ended with status {p.returncode}: "
                             f"{p.stderr[-400:]}")
        for line in p.stderr.splitlines():
            for f in chunk:
                if line.startswith(f + ":"):
                    failed[f] = line[len(f) + 1:].split(": error: ", 1)[-1]
    return failed


def run_all(commands, jobs):
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(lambda c: subprocess.run(c, capture_output=True, text=True), commands))


def verdict(process):
    try:
        return json.loads(process.stdout)["results"][0]["verdict"]
    except (ValueError, KeyError, IndexError):
        return "error"


# lavapipe 22.3: what `translate --device-profile lavapipe` assumes (tools/shaderbridge/
# device_profile.h), spelt out so the view formats of a run can join it.
LAVAPIPE_FEATURES = ["shaderStorageImageReadWithoutFormat", "shaderResourceMinLod",
                     "shaderSampledImageArrayNonUniformIndexing", "shaderStorageImageArrayNonUniformIndexing",
                     "shaderUniformTexelBufferArrayNonUniformIndexing",
                     "shaderStorageTexelBufferArrayNonUniformIndexing",
                     "shaderStorageBufferArrayNonUniformIndexing"]
LAVAPIPE_LIMITS = {"maxBoundDescriptorSets": 8, "maxPerStageDescriptorStorageBuffers": 32,
                   "maxPerStageDescriptorStorageImages": 64, "maxPerStageDescriptorSampledImages": 128}


def lavapipe_profile(validated):
    """lavapipe's device profile plus the formats of the typed u# views the run of
    `validated` (a validate --json process) bound."""
    formats = []
    try:
        for r in json.loads(validated.stdout)["results"][0]["resources"] or []:
            if r["class"] == "uav" and r["vk_format"] is not None:
                formats.append({"space": r["space"], "register": r["index"], "vk_format": r["vk_format"]})
    except (ValueError, KeyError, IndexError, TypeError):
        pass
    return {"features": {name: False for name in LAVAPIPE_FEATURES}, "limits": LAVAPIPE_LIMITS,
            "storage_formats": formats}


def pct(a, b):
    return 100.0 * a / b if b else 100.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("corpus")
    ap.add_argument("scratch")
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--require-glsl", type=float, default=None)
    ap.add_argument("--require-compute", type=float, default=None)
    ap.add_argument("--compute-only", action="store_true")
    a = ap.parse_args()
    if not os.path.isfile(os.path.join(a.corpus, "dxbc", "MANIFEST.tsv")):
        print(f"SKIPPED: corpus not found at {a.corpus}")
        return 77
    glslang = shutil.which("glslangValidator")
    if not glslang:
        print("SKIPPED: glslangValidator not found")
        return 77
    rows = manifest(a.corpus)
    if a.compute_only:
        rows = [(path, stage) for path, stage in rows if stage == "cs"]
    # Names must be unique inside one output folder: keep the first of each stem.
    seen, unique = set(), []
    for path, stage in rows:
        if stem(path) not in seen:
            seen.add(stem(path))
            unique.append((path, stage))
    if a.sample and a.sample < len(unique):
        step = len(unique) / a.sample
        unique = [unique[int(i * step)] for i in range(a.sample)]
    shutil.rmtree(a.scratch, ignore_errors=True)
    stage_of = dict(unique)
    files = [p for p, _ in unique]

    spirv_failed = translate(a.cli, files, os.path.join(a.scratch, "spirv"), a.jobs, [])
    good = [f for f in files if f not in spirv_failed]
    print(f"SPIR-V: {len(good)}/{len(files)} translate")
    status = 0
    fails = {target: {} for target, _, _ in TARGETS}
    for target, ext, extra in TARGETS:
        if a.compute_only and target != "glsl":
            continue
        inputs = [f for f in good if target != "essl" or stage_of[f] in ES_STAGES]
        failed = translate(a.cli, inputs, os.path.join(a.scratch, target), a.jobs, ["--target", target] + extra)
        fails[target] = failed
        print(f"{target}: {len(inputs) - len(failed)}/{len(inputs)} written "
              f"({pct(len(inputs) - len(failed), len(inputs)):.2f}%)")
        reasons = {}
        for f, message in failed.items():
            reasons.setdefault(message.split(" [")[0], []).append(f)
        for message, fs in sorted(reasons.items(), key=lambda kv: -len(kv[1])):
            print(f"  {len(fs):4d} x {message[:150]} (e.g. {os.path.relpath(fs[0], a.corpus)})")

    for target, ext, rules in (("glsl", ".glsl", ["-V"]), ("essl", ".essl", [])):
        if a.compute_only and target != "glsl":
            continue
        written = [f for f in good if f not in fails[target] and (target != "essl" or stage_of[f] in ES_STAGES)]
        commands = []
        for f in written:
            src = os.path.join(a.scratch, target, stem(f) + ext)
            out = os.path.join(a.scratch, target, stem(f) + ".spv")
            commands.append([glslang] + rules + ["-S", STAGES[stage_of[f]], src] + (["-o", out] if rules else []))
        results = run_all(commands, a.jobs)
        ok = sum(1 for r in results if r.returncode == 0)
        print(f"{target}: glslangValidator {' '.join(rules) or '(ES rules)'} compiles {ok}/{len(written)} "
              f"({pct(ok, len(written)):.2f}%)")
        for f, r in list(zip(written, results)):
            if r.returncode != 0:
                first = next((l for l in r.stdout.splitlines() if "ERROR" in l), r.stdout.strip()[:160])
                print(f"  {os.path.relpath(f, a.corpus)}: {first}")
        if target == "glsl":
            glsl_ok = {f for f, r in zip(written, results) if r.returncode == 0}
            if a.require_glsl is not None and pct(ok, len(written)) < a.require_glsl:
                print(f"FAIL: GLSL compile rate below {a.require_glsl}%")
                status = 1

    # validate runs our own module with unbounded SM5.1 ranges as arrays of 8 descriptors
    # (SB_RT_UNBOUNDED_DESCRIPTORS; lavapipe lacks runtimeDescriptorArray) and fitted to the
    # device: the GLSL it compares is translated the same way, for lavapipe's profile with the
    # typed u# view formats our own run bound (validate --json "resources"), then compiled by
    # glslang.
    compute = [f for f in good if stage_of[f] == "cs" and f in glsl_ok]
    run_dir = os.path.join(a.scratch, "glsl_run")
    os.makedirs(run_dir, exist_ok=True)
    direct = dict(zip(compute, run_all([[a.cli, "validate", "--json", f] for f in compute], a.jobs)))
    commands = []
    for f in compute:
        profile = os.path.join(run_dir, stem(f) + ".profile.json")
        with open(profile, "w") as out:
            json.dump(lavapipe_profile(direct[f]), out)
        commands.append([a.cli, "translate", "--target", "glsl", "--unbounded-descriptors", "8",
                         "--device-profile", profile, "-o", os.path.join(run_dir, stem(f) + ".glsl"), f])
    translated = run_all(commands, a.jobs)
    # The profile may move register spaces onto other sets: the module's bindings, for
    # validate --spirv --bindings, are what reflect lists for the same options.
    maps = run_all([[a.cli, "reflect", "--json", "--unbounded-descriptors", "8", "--device-profile",
                     os.path.join(run_dir, stem(f) + ".profile.json"), f] for f in compute], a.jobs)
    for f, m in zip(compute, maps):
        with open(os.path.join(run_dir, stem(f) + ".bindings.json"), "w") as out:
            out.write(m.stdout)
    compiled = run_all([[glslang, "-V", "-S", "comp", os.path.join(run_dir, stem(f) + ".glsl"),
                         "-o", os.path.join(run_dir, stem(f) + ".spv")] for f in compute], a.jobs)
    failed = {f for f, t, c in zip(compute, translated, compiled) if t.returncode != 0 or c.returncode != 0}
    for f in sorted(failed):
        print(f"  {os.path.relpath(f, a.corpus)}: GLSL for lavapipe's profile does not translate or compile")
    compute = [f for f in compute if f not in failed]
    if compute:
        via_glsl = run_all([[a.cli, "validate", "--json", "--spirv", os.path.join(run_dir, stem(f) + ".spv"),
                             "--bindings", os.path.join(run_dir, stem(f) + ".bindings.json"), f]
                            for f in compute], a.jobs)
        direct = [direct[f] for f in compute]
        agreeing = ("agree", "agree-within-precision")
        g = sum(1 for r in via_glsl if verdict(r) in agreeing)
        d = sum(1 for r in direct if verdict(r) in agreeing)
        # What the GLSL path itself loses: of the shaders our own module agrees on (the
        # others are device limits and undefined behaviour, the same on both paths).
        both = sum(1 for r, s in zip(via_glsl, direct) if verdict(r) in agreeing and verdict(s) in agreeing)
        print(f"compute via GLSL -> glslang -> lavapipe: {g}/{len(compute)} agree ({pct(g, len(compute)):.2f}%); "
              f"our SPIR-V on the same shaders: {d}/{len(compute)} ({pct(d, len(compute)):.2f}%); "
              f"of those {d}, via GLSL: {both} ({pct(both, d):.2f}%)")
        for f, r, s in zip(compute, via_glsl, direct):
            if verdict(r) not in agreeing:
                print(f"  {os.path.relpath(f, a.corpus)}: via GLSL {verdict(r)}, our SPIR-V {verdict(s)}")
        if a.require_compute is not None and pct(both, d) < a.require_compute:
            print(f"FAIL: compute agreement through GLSL below {a.require_compute}% of our own")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
