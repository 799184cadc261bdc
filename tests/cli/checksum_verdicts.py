#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checksum verdicts of every dxcontainer corpus binary equal what the corpus
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

usage: checksum_verdicts.py SHADERBRIDGE CORPUS_DIR
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
    checked = failures = 0
    counts = {}
    for top, _, names in os.walk(root):
        for name in sorted(names):
            if not name.endswith((".bin", ".cso", ".dxbc")):
                continue
            path = os.path.join(top, name)
            rel = os.path.relpath(path, root)
            p = subprocess.run([cli, "reflect", "--json", path], capture_output=True)
            if p.returncode != 0:
                print("FAIL: %s: does not parse: %s" % (rel, p.stderr.decode().strip()))
                failures += 1
                continue
            header = json.loads(p.stdout)["dxcontainer"]["header"]
            want = expected(rel, header, corpus)
            got = header["digest_status"]
            checked += 1
            counts[got] = counts.get(got, 0) + 1
            if want != got or header["checksum_ok"] != (got == "valid"):
                print("FAIL: %s: digest %s, expected %s" % (rel, got, want))
                failures += 1
    print("checksum verdicts: %d files (%s), %d failed" % (
        checked, ", ".join("%d %s" % (v, k) for k, v in sorted(counts.items())), failures))
    return 1 if failures or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
