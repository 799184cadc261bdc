# SPDX-License-Identifier: MIT
"""The corpus shaders of the translate_ tests, chosen exactly as
test_translate_corpus.c chooses them (its header comment gives the rules):
dxbc/MANIFEST.tsv rows with program_type vs/ps/gs/hs/ds/cs, then
dxcontainer/MANIFEST.tsv rows under real/ whose parts hold SHDR or SHEX.
"""
import csv
import os

STAGES = ("vs", "ps", "gs", "hs", "ds", "cs")


def _rows(path):
    with open(path, encoding="utf-8", newline="") as f:
        yield from csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)


def _stage(name):
    return name[:2] if name[:2] in STAGES and name[2:3] in ("", "_") else None


def shaders(corpus):
    """[(path relative to the corpus, stage)] in manifest order."""
    out = []
    for row in _rows(os.path.join(corpus, "dxbc", "MANIFEST.tsv")):
        stage = _stage(row["program_type"])
        if stage:
            out.append(("dxbc/" + row["file"], stage))
    for row in _rows(os.path.join(corpus, "dxcontainer", "MANIFEST.tsv")):
        stage = _stage(row["stages"])
        parts = row["parts"].split(",")
        if stage and row["file"].startswith("real/") and ("SHDR" in parts or "SHEX" in parts):
            out.append(("dxcontainer/" + row["file"], stage))
    return out


def expected_failures(path):
    """{relative path: outcome} of the expected-failure list ('translate' or 'spirv-val')."""
    listed = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            listed[cols[0]] = cols[1]
    return listed
