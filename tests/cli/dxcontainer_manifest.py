#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every dxcontainer corpus binary agrees with the corpus manifest (part list,
stage `<kind>_<major>_<minor>`) and its checksum verdict equals what the corpus
README states (the dxbc/ corpus is checked against its manifest's
checksum_ok column by tests/dxbc_fxc):

* real/dxc_dxbc2dxil: call2, cs3, cyclecounter, hs3, indexabletemp4 and
  indexabletemp6 were hand-assembled and carry a wrong digest (mismatch);
  every other file there is signed (valid);
* real/dxil_spirv: all-zero digest (unsigned);
* real/sdl_gpu_examples, real/armortools: signed (valid);
* yaml/NAME.bin: the digest is the `Hash:` of NAME.yaml, which yaml2obj
  copies without computing it: all zero -> unsigned, otherwise valid exactly
  when it equals the checksum we compute.

usage: dxcontainer_manifest.py SHADERBRIDGE CORPUS_DIR
"""
import json
import os
import re
import subprocess
import sys

BAD_DIGESTS = {"call2", "cs3", "cyclecounter", "hs3", "indexabletemp4", "indexabletemp6"}


def yaml_hash(path):
    text = open(path, encoding="utf-8").read()
    m = re.search(r"Header:\s*\n\s*Hash:\s*\[([^\]]*)\]", text)
    if not m:
        return None
    return bytes(int(v, 16) for v in m.group(1).replace("\n", " ").split(",") if v.strip())


def expected(rel, header, corpus):
    parts = rel.split("/")
    if parts[0] == "real":
        if parts[1] == "dxc_dxbc2dxil":
            stem = os.path.splitext(parts[-1])[0]
            return "mismatch" if stem in BAD_DIGESTS else "valid"
        if parts[1] == "dxil_spirv":
            return "unsigned"
        return "valid"
    digest = yaml_hash(os.path.join(corpus, "dxcontainer", rel[:-4] + ".yaml"))
    if digest is None or len(digest) != 16:
        return None
    if digest.hex() != header["digest"]:
        return "digest %s differs from the YAML's %s" % (header["digest"], digest.hex())
    if not any(digest):
        return "unsigned"
    return "valid" if digest.hex() == header["computed_digest"] else "mismatch"


def main():
    cli, corpus = sys.argv[1:3]
    root = os.path.join(corpus, "dxcontainer")
    if not os.path.isdir(root):
        print("SKIPPED: corpus not found at %s" % corpus)
        return 77
    checked = failures = staged = 0
    counts = {}
    with open(os.path.join(root, "MANIFEST.tsv"), encoding="utf-8") as manifest:
        columns = next(manifest).rstrip("\n").split("\t")
        rows = [dict(zip(columns, line.rstrip("\n").split("\t"))) for line in manifest]
    for row in rows:
        rel = row["file"]
        if not rel or rel.endswith(".yaml"):
            continue
        path = os.path.join(root, rel)
        p = subprocess.run([cli, "reflect", "--json", path], capture_output=True)
        if p.returncode != 0:
            print("FAIL: %s: does not parse: %s" % (rel, p.stderr.decode().strip()))
            failures += 1
            continue
        doc = json.loads(p.stdout)["dxcontainer"]
        header = doc["header"]
        parts = ",".join(part["name"] for part in doc["parts"])
        if parts != row["parts"]:
            print("FAIL: %s: parts %s, manifest %s" % (rel, parts, row["parts"]))
            failures += 1
        if re.match(r"^[a-z]+_\d+_\d+$", row["stages"]):
            info = subprocess.run([cli, "info", path], capture_output=True).stdout.decode()
            stage = info.split(": ", 1)[1].split(" ")[1].rstrip(",")
            if stage != row["stages"]:
                print("FAIL: %s: stage %s, manifest %s" % (rel, stage, row["stages"]))
                failures += 1
            staged += 1
        want = expected(rel, header, corpus)
        got = header["digest_status"]
        checked += 1
        counts[got] = counts.get(got, 0) + 1
        if want != got or header["checksum_ok"] != (got == "valid"):
            print("FAIL: %s: digest %s, expected %s" % (rel, got, want))
            failures += 1
    print("dxcontainer manifest: %d files, part lists compared for all, stages for %d; "
          "checksum verdicts: %s; %d failed" % (
              checked, staged, ", ".join("%d %s" % (v, k) for k, v in sorted(counts.items())),
              failures))
    return 1 if failures or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
