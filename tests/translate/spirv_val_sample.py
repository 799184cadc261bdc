#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""translate_spirv_val_sample: a second opinion on translate_corpus.

Every 10th corpus shader (corpus_shaders.py order, starting with the first)
is translated by the `shaderbridge translate` program (one run per corpus
folder, several inputs, -o DIR, --jobs 2, --target-env vulkan1.1) and each
output is checked by the external spirv-val binary with the same
--target-env. The verdict must agree with the in-process one recorded in the
expected-failure list: clean unless listed as 'spirv-val'; shaders listed as
'translate' failures are left out (no output to check). Unlisted translation
failures fail this test as they fail translate_corpus.

usage: spirv_val_sample.py SHADERBRIDGE SPIRV_VAL CORPUS_DIR EXPECTED_TSV SCRATCH
exit: 0 all agree, 1 otherwise, 77 corpus absent
"""
import collections
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus_shaders  # noqa: E402

TARGET_ENV = "vulkan1.1"
STEP = 10


def main():
    cli, spirv_val, corpus, expected_tsv, scratch = sys.argv[1:6]
    if not os.path.isfile(os.path.join(corpus, "dxbc", "MANIFEST.tsv")):
        print("SKIPPED: corpus not found at %s" % corpus)
        return 77
    listed = corpus_shaders.expected_failures(expected_tsv)
    sample = corpus_shaders.shaders(corpus)[::STEP]
    checked = [(rel, stage) for rel, stage in sample if listed.get(rel) != "translate"]
    shutil.rmtree(scratch, ignore_errors=True)

    by_folder = collections.OrderedDict()
    for rel, _ in checked:
        by_folder.setdefault(os.path.dirname(rel), []).append(rel)
    problems = []
    for folder, rels in by_folder.items():
        out_dir = os.path.join(scratch, folder)
        p = subprocess.run([cli, "translate", "--target-env", TARGET_ENV, "--jobs", "2",
                            "-o", out_dir] + [os.path.join(corpus, r) for r in rels],
                           capture_output=True, text=True)
        if p.returncode not in (0, 1):
            problems.append("%s: translate exited %d: %s" % (folder, p.returncode, p.stderr.strip()))
        for line in p.stderr.splitlines():
            problems.append("translation failed (not in the expected list): " + line)

    agree = invalid_expected = 0
    for rel, _ in checked:
        stem = os.path.splitext(os.path.basename(rel))[0]
        out = os.path.join(scratch, os.path.dirname(rel), stem + ".spv")
        if not os.path.exists(out):
            continue  # reported above as a translation failure
        v = subprocess.run([spirv_val, "--target-env", TARGET_ENV, out],
                           capture_output=True, text=True)
        want_valid = listed.get(rel) != "spirv-val"
        if (v.returncode == 0) == want_valid:
            agree += 1
            invalid_expected += not want_valid
        else:
            first = (v.stdout + v.stderr).strip().splitlines()[:1]
            problems.append("%s: spirv-val says %s, translate_corpus says %s%s" % (
                rel, "valid" if v.returncode == 0 else "invalid",
                "valid" if want_valid else "invalid (listed)",
                ": " + first[0] if first else ""))

    for line in problems:
        print("MISMATCH " + line)
    print("spirv-val %s second opinion: %d sampled (every %dth of %d), %d listed as translation "
          "failures left out, %d checked, %d agree (%d of them listed invalid), %d problem(s)" % (
              TARGET_ENV, len(sample), STEP, len(corpus_shaders.shaders(corpus)),
              len(sample) - len(checked), len(checked), agree, invalid_expected, len(problems)))
    return 0 if not problems and agree == len(checked) else 1


if __name__ == "__main__":
    sys.exit(main())
