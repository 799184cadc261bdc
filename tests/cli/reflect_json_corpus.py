#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`shaderbridge reflect --json` must print valid JSON for every corpus file
(dxbc/, dxcontainer/ binaries, pica/) and exit 0.

usage: reflect_json_corpus.py SHADERBRIDGE CORPUS_DIR [--every N]

--every N reflects every Nth file only (the sanitizer build: each ASan process start
costs about 0.1 s there).
"""
import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def corpus_files(corpus):
    """Every binary listed in the three manifests (YAML sources excluded)."""
    for top in ("dxbc", "dxcontainer", "pica"):
        with open(os.path.join(corpus, top, "MANIFEST.tsv"), encoding="utf-8") as manifest:
            next(manifest)
            for line in manifest:
                name = line.split("\t", 1)[0]
                if name and not name.endswith(".yaml"):
                    yield os.path.join(corpus, top, name)


def reflect(cli, path):
    p = subprocess.run([cli, "reflect", "--json", path], capture_output=True)
    if p.returncode != 0:
        return "exit %d: %s" % (p.returncode, p.stderr.decode(errors="replace").strip())
    try:
        doc = json.loads(p.stdout)
    except ValueError as e:
        return "invalid JSON: %s" % e
    if doc.get("file") != path or doc.get("format") not in doc:
        return "JSON lacks file/format members"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cli")
    parser.add_argument("corpus")
    parser.add_argument("--every", type=int, default=1, metavar="N",
                        help="reflect every Nth file only")
    args = parser.parse_args()
    if args.every < 1:
        parser.error("--every takes a whole number of at least 1")
    cli, corpus, every = args.cli, args.corpus, args.every
    if not os.path.isdir(corpus):
        print("SKIPPED: corpus not found at %s" % corpus)
        return 77
    files = list(corpus_files(corpus))[::every]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(lambda f: reflect(cli, f), files))
    bad = [(f, r) for f, r in zip(files, results) if r]
    for f, r in bad[:20]:
        print("FAIL: %s: %s" % (f, r))
    print("reflect --json: %d files, %d valid JSON, %d failed" % (len(files), len(files) - len(bad), len(bad)))
    return 1 if bad or not files else 0


if __name__ == "__main__":
    sys.exit(main())
