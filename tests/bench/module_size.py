#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""SPIR-V module size of shaderbridge against vkd3d-shader over the DXBC corpus.

Every corpus shader whose MANIFEST.tsv program_type is a stage (vs ps gs hs ds cs)
is translated by both engines, each in its own process: ours with
`shaderbridge translate --target-env ENV`, theirs with
`vkd3d-compiler -x dxbc-tpf -b spirv-binary`. Shaders that either engine
refuses are counted and left out. Debug instructions (OpSource*, OpString,
OpName, OpMemberName, OpLine, OpNoLine, OpModuleProcessed: what
`spirv-opt --strip-debug` removes) are dropped from both modules before
measuring, so names and line tables do not count on either side.

Printed: the number of shaders compared, the total bytes of each engine and
their ratio (ours / theirs), the median of the per-shader ratios with p10 and
p90, and the shaders with the largest ratios (--worst N). Nothing is timed.

    tests/bench/module_size.py --shaderbridge BUILD/tools/shaderbridge/shaderbridge \\
        --vkd3d-compiler /work/peer/vkd3d-1.17/build/vkd3d-compiler /work/shared/corpus
"""
import argparse
import concurrent.futures
import os
import statistics
import struct
import subprocess
import sys
import tempfile

STAGES = {"vs", "ps", "gs", "hs", "ds", "cs"}
# Opcodes that carry only debug information (SPIR-V spec §3.32.2, "Debug Instructions").
DEBUG_OPCODES = {2, 3, 4, 5, 6, 7, 8, 317, 330}
SPIRV_MAGIC = 0x07230203


def stripped_size(path):
    """Bytes of the module at `path` without its debug instructions; None if it is no module."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if len(data) < 20 or len(data) % 4:
        return None
    words = struct.unpack("<%dI" % (len(data) // 4), data)
    if words[0] != SPIRV_MAGIC:
        return None
    kept = 5
    i = 5
    while i < len(words):
        count = words[i] >> 16
        if count == 0 or i + count > len(words):
            return None  # a truncated or zero-length instruction: not a module we can measure
        if (words[i] & 0xFFFF) not in DEBUG_OPCODES:
            kept += count
        i += count
    return kept * 4


def corpus_shaders(corpus):
    manifest = os.path.join(corpus, "dxbc", "MANIFEST.tsv")
    with open(manifest, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        file_col, type_col = header.index("file"), header.index("program_type")
        for line in f:
            row = line.rstrip("\n").split("\t")
            if len(row) > type_col and row[type_col] in STAGES:
                yield row[file_col]


def measure(args, tmp, index, name):
    """(name, ours, theirs) in stripped bytes; None where that engine refused the shader."""
    src = os.path.join(args.corpus, "dxbc", name)
    ours_path = os.path.join(tmp, "%d.ours.spv" % index)
    theirs_path = os.path.join(tmp, "%d.theirs.spv" % index)
    sizes = []
    for cmd, out in (([args.shaderbridge, "translate", "--target-env", args.target_env, "-o", ours_path, src],
                      ours_path),
                     ([args.vkd3d_compiler, "-x", "dxbc-tpf", "-b", "spirv-binary", "-o", theirs_path, src],
                      theirs_path)):
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        sizes.append(stripped_size(out) if done.returncode == 0 else None)
        if os.path.exists(out):
            os.unlink(out)
    return name, sizes[0], sizes[1]


def percentile(sorted_values, fraction):
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", help="the corpus folder (holds dxbc/MANIFEST.tsv)")
    parser.add_argument("--shaderbridge", required=True, help="the shaderbridge CLI")
    parser.add_argument("--vkd3d-compiler", required=True, help="vkd3d-shader's vkd3d-compiler")
    parser.add_argument("--target-env", default="vulkan1.0",
                        help="ours (default vulkan1.0: SPIR-V 1.0, as vkd3d-compiler writes)")
    parser.add_argument("--jobs", type=int, default=2, help="processes at once (default 2)")
    parser.add_argument("--worst", type=int, default=5, help="list the N largest ratios")
    parser.add_argument("--csv", help="write name,ours,theirs per compared shader")
    args = parser.parse_args()

    names = list(corpus_shaders(args.corpus))
    if not names:
        print("no stage shaders in %s/dxbc/MANIFEST.tsv" % args.corpus, file=sys.stderr)
        return 77
    with tempfile.TemporaryDirectory(prefix="sb_module_size_") as tmp:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            rows = list(pool.map(lambda item: measure(args, tmp, *item), enumerate(names)))

    both = [(n, o, t) for n, o, t in rows if o is not None and t is not None]
    ours_only = sum(1 for _, o, t in rows if o is not None and t is None)
    theirs_only = sum(1 for _, o, t in rows if o is None and t is not None)
    neither = sum(1 for _, o, t in rows if o is None and t is None)
    if not both:
        print("no shader translated by both engines", file=sys.stderr)
        return 1
    total_ours = sum(o for _, o, _ in both)
    total_theirs = sum(t for _, _, t in both)
    ratios = sorted(o / t for _, o, t in both)
    print("%d stage shaders: %d compared, %d only ours, %d only vkd3d, %d neither"
          % (len(rows), len(both), ours_only, theirs_only, neither))
    print("total bytes (debug stripped): ours %d, vkd3d %d, ours/vkd3d %.3f"
          % (total_ours, total_theirs, total_ours / total_theirs))
    print("per-shader ours/vkd3d: median %.3f, p10 %.3f, p90 %.3f, min %.3f, max %.3f"
          % (statistics.median(ratios), percentile(ratios, 0.10), percentile(ratios, 0.90),
             ratios[0], ratios[-1]))
    for n, o, t in sorted(both, key=lambda r: r[1] / r[2], reverse=True)[:args.worst]:
        print("  %.3f  %7d / %7d  %s" % (o / t, o, t, n))
    if args.csv:
        with open(args.csv, "w", encoding="utf-8") as f:
            f.write("name,ours,theirs\n")
            for n, o, t in both:
                f.write("%s,%d,%d\n" % (n, o, t))
    return 0


if __name__ == "__main__":
    sys.exit(main())
