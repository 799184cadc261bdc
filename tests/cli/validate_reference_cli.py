#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`validate --reference OTHER FILE` end to end (issue #18 deliverable 5) on the samples:
the DXIL sample against itself agrees on its 64 KiB u0 and counter (16385 words), in text
and in --json (every key and its type); interfaces that differ (numthreads, stage, a
register of another kind) are `disagree` naming the difference, exit 1; an unreadable
OTHER is `error`, exit 1; usage errors (no OTHER, two FILEs, --spirv with it) exit 2.
With a device (lavapipe in ctest) the device leg is printed; without one the comparison
still runs on the interpreter.

usage: validate_reference_cli.py SHADERBRIDGE SAMPLES_DIR
"""
import json
import os
import sys

# The runner and the counting check of the run/validate test (same folder).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_validate_cli as common  # noqa: E402
from run_validate_cli import check, run  # noqa: E402


def main():
    cli, samples = sys.argv[1], sys.argv[2]
    dxil = os.path.join(samples, "dxil", "store_index_cs_6_0.dxil")
    group_sum = os.path.join(samples, "group_sum_cs_5_0.dxbc")
    saxpy = os.path.join(samples, "saxpy_cs_5_0.dxbc")
    vertex = os.path.join(samples, "passthrough_vs_4_0.dxbc")

    rc, out, err = run(cli, ["validate", "--reference", dxil, dxil])
    check(rc == 0, f"DXIL sample against itself: exit {rc}: {out}{err}")
    check(out.startswith("agree ") and "16385 words identical" in out, f"agree, 16385 words: {out!r}")
    check("device leg:" in out or "interpreter only" in out, f"the device leg is accounted for: {out!r}")

    rc, out, err = run(cli, ["validate", "--json", "--reference", dxil, dxil])
    check(rc == 0, f"--json: exit {rc}")
    doc = json.loads(out) if out.strip().startswith("{") else {}
    want = {"file": str, "reference": str, "verdict": str, "reason": str, "interface": str,
            "words_compared": int, "differ": int, "within_precision": int, "precision_sensitive": int,
            "undefined": int, "unexplained": int, "mismatches": list}
    for key, kind in want.items():
        check(isinstance(doc.get(key), kind), f"--json key {key} of type {kind.__name__}: {doc.get(key)!r}")
    check(doc.get("verdict") == "agree" and doc.get("interface") == "same" and doc.get("words_compared") == 16385
          and doc.get("differ") == 0, f"--json counts: {doc}")

    cases = [
        ([group_sum, dxil], "interfaces differ (thread-group): the program runs numthreads(8, 1, 1), "
                            "the reference numthreads(64, 1, 1)"),
        ([saxpy, vertex], "interfaces differ (stage): the program is a vertex program, the reference a "
                          "compute program"),
        ([saxpy, group_sum], "interfaces differ (resource-shape): t0 (space 0) is a raw buffer in the program "
                             "and a structured buffer in the other"),
    ]
    for (other, file), text in cases:
        rc, out, err = run(cli, ["validate", "--reference", other, file])
        check(rc == 1 and out.startswith("disagree ") and text in out,
              f"{os.path.basename(file)} against {os.path.basename(other)}: exit {rc}, want 1 and '{text}': {out!r}")

    rc, out, err = run(cli, ["validate", "--reference", os.path.join(samples, "missing.dxbc"), dxil])
    check(rc == 1 and out.startswith("error ") and "missing.dxbc" in out, f"unreadable OTHER: exit {rc}: {out!r}")
    for args in (["validate", "--reference"], ["validate", "--reference", dxil, dxil, dxil],
                 ["validate", "--spirv", dxil, "--reference", dxil, dxil]):
        rc, out, err = run(cli, args)
        check(rc == 2, f"usage error {args[1:]}: exit {rc}")
    print(f"validate --reference: {common.checks} checks, {common.failures} failed")
    return 1 if common.failures else 0


if __name__ == "__main__":
    sys.exit(main())
