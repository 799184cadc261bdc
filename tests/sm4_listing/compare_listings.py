#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare `shaderbridge disasm --no-header` with fxc's own listings.

Issue #3 acceptance test. For every corpus blob with has_asm=1 in
corpus/dxbc/MANIFEST.tsv, runs `SHADERBRIDGE disasm --no-header FILE.dxbc`
and compares its output with FILE.asm after the normalisation documented in
tests/sm4_listing/README.md (whitespace, comments, #line, blank lines,
header/footer, ICB line joining, case; for 10level9 listings only the SM4
part). The spelling differences between fxc versions of ../shared/docs/sm4-tokens.md
§9.15 are accepted by the rules in SPELLING_RULES and float_spellings_agree()
and nowhere else; every use of a rule is counted in the report.

usage: compare_listings.py SHADERBRIDGE CORPUS_DIR [--report PATH] [--jobs N]
                           [--only SUBSTRING] [--every N]
       compare_listings.py --self-test

Prints `listings: M/N identical (P%)`, the first differing line pair of each
mismatch, and writes the full report (per-file status, rules used, a diff of
every mismatch) to --report. Exit status: 0 when the rate reaches
MIN_MATCH_RATE, 1 below it, 77 when the corpus is absent.
"""
import argparse
import difflib
import os
import re
import struct
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from decimal import Context, Decimal, ROUND_HALF_EVEN, ROUND_HALF_UP

# Issue #3 asks for fxc-identical output on the corpus listings. The reference
# decoder of ../shared/docs/sm4-tokens.md §10 reached 590/590, so a correct disassembler
# should too; 99% leaves room for at most 5 listings whose difference is an
# accepted, explained one (each shows in the output), while any systematic
# decode or printing bug touches far more listings than that and fails.
MIN_MATCH_RATE = 0.99

SKIP = 77
SHADER_TYPES = ("vs", "ps", "gs", "hs", "ds", "cs")
# The SM4/5 version line starts the compared part of an fxc listing. 10level9
# shaders print `ps_4_0` (sm4-tokens.md §9.1); the `_level_9_N` form is
# accepted as well. The embedded D3D9 listing (`ps_2_0`) never matches.
VERSION_RE = re.compile(r"^(vs|ps|gs|hs|ds|cs)_[45]_[01](_level_9_[1-3])?$")
FOOTER_RE = re.compile(r"^\s*//\s*approximately\s+\d+\s+instruction\s+slots\s+used", re.I)
NUMBER_RE = re.compile(r"(-?\d+\.\d+)")
DISASM_TIMEOUT_S = 60


# ---------------------------------------------------------------------------
# Normalisation (README "Normalisation", rules N1-N8)

def strip_comment(line):
    """Drops a `//` comment (N2), ignoring `//` inside a "..." string (printf)."""
    in_string = False
    i = 0
    while i < len(line):
        c = line[i]
        if c == '"' and (i == 0 or line[i - 1] != "\\"):
            in_string = not in_string
        elif not in_string and line.startswith("//", i):
            return line[:i]
        i += 1
    return line


def normalise(lines):
    """N1-N6 on a sequence of (line number, text); returns [(line number, text)]."""
    out = []
    for number, raw in lines:
        if raw.lstrip().startswith("#line"):          # N3
            continue
        text = " ".join(strip_comment(raw).split())    # N1, N2
        if not text:                                   # N4
            continue
        out.append((number, text.lower()))             # N6
    return join_icb(out)


def join_icb(lines):
    """N5: the rows of `dcl_immediateConstantBuffer { ... }` become one line."""
    out = []
    i = 0
    while i < len(lines):
        number, text = lines[i]
        if text.startswith("dcl_immediateconstantbuffer"):
            depth = text.count("{") - text.count("}")
            while depth > 0 and i + 1 < len(lines):
                i += 1
                text += " " + lines[i][1]
                depth += lines[i][1].count("{") - lines[i][1].count("}")
        out.append((number, text))
        i += 1
    return out


def fxc_body(text):
    """N7, N8: the lines of an fxc listing from the SM4/5 version line up to
    the `// Approximately N instruction slots used` footer (or `#endif` of
    an /Fh header, or the end). None when there is no version line."""
    lines = text.splitlines()
    start = None
    for i, raw in enumerate(lines):
        if VERSION_RE.match(" ".join(strip_comment(raw).split()).lower()):
            start = i
            break
    if start is None:
        return None
    body = []
    for i in range(start, len(lines)):
        if FOOTER_RE.match(lines[i]) or lines[i].strip() == "#endif":
            break
        body.append((i + 1, lines[i]))
    return normalise(body)


def ours_body(text):
    """Our output gets the same N1-N6; nothing before the version line is
    skipped, so stray output there is a difference."""
    return normalise([(i + 1, raw) for i, raw in enumerate(text.splitlines())])


# ---------------------------------------------------------------------------
# fxc version differences (README "Version spellings", rules V1-V4)

def generator_of(text):
    """('fxc', (major, minor)) from the "Generated by" line, ('disassembler',
    None) for the D3D Shader Disassembler, ('unknown', None) otherwise."""
    m = re.search(r"Generated by Microsoft \(R\) HLSL Shader Compiler (\d+)\.(\d+)", text)
    if m:
        return ("fxc", (int(m.group(1)), int(m.group(2))))
    if re.search(r"Generated by Microsoft \(R\) D3D Shader Disassembler", text):
        return ("disassembler", None)
    return ("unknown", None)


def generator_name(generator):
    kind, version = generator
    return "fxc %d.%d" % version if kind == "fxc" else kind


def is_fxc_before(generator, version):
    return generator[0] == "fxc" and generator[1] < version


# Each rule: name, the generators whose listings use the older spelling
# (sm4-tokens.md §9.15), and a rewrite of *our* line into that spelling that
# is applied only when it makes our line equal to fxc's (so a rule can never
# hide a difference in anything but the spelling it names).
SPELLING_RULES = (
    # V1: fxc 9.29 prints `sample_l(0,1,0)` for `sample_l_aoffimmi(0,1,0)`.
    ("V1 sample-controls without _aoffimmi (fxc 9.29)",
     lambda g: is_fxc_before(g, (9, 30)),
     lambda line: re.sub(r"^(\S+?)_aoffimmi(?=[_(])", r"\1", line)),
    # V2: fxc 9.29 (and one 2012 D3D Shader Disassembler listing) print
    # `discard` without the _z/_nz test; the listing carries no test to check.
    ("V2 discard without _z/_nz (fxc 9.29, 2012 disassembler)",
     lambda g: is_fxc_before(g, (9, 30)) or g[0] == "disassembler",
     lambda line: re.sub(r"^discard_n?z ", "discard ", line)),
    # V3: fxc 9.x omits the interpolation mode of dcl_input_ps_sgv.
    ("V3 dcl_input_ps_sgv without interpolation mode (fxc 9.x)",
     lambda g: is_fxc_before(g, (10, 0)),
     lambda line: re.sub(r"^dcl_input_ps_sgv (?:constant|linear(?: centroid| sample)?"
                         r"(?: noperspective(?: centroid| sample)?)?) ", "dcl_input_ps_sgv ",
                         line)),
)
ROUNDING_RULE = "V4 %f rounding of the older/newer C runtime (same float)"


def f32_candidates(text):
    """Float32 values near the decimal `text` (nearest and its neighbours)."""
    try:
        bits = struct.unpack("<I", struct.pack("<f", float(text)))[0]
    except (OverflowError, struct.error):
        return []
    out = []
    for b in (bits - 1, bits, bits + 1):
        if 0 <= b <= 0xFFFFFFFF:
            value = struct.unpack("<f", struct.pack("<I", b))[0]
            if value == value and abs(value) != float("inf"):
                out.append(value)
    return out


def printf_newer(value):
    """fxc 10.1 / DirectXTex: exact decimal value, ties to even (§9.7)."""
    return "%.6f" % value


def printf_older(value):
    """fxc 9.30 / DirectXTK: 17 significant digits (half even), then 6
    decimals with ties away from zero, later digits as zeros (§9.7)."""
    exact = Decimal(value)
    if exact == 0:
        return "%.6f" % value
    wide = Context(prec=200)
    reduced = Context(prec=17, rounding=ROUND_HALF_EVEN).plus(exact)
    return format(reduced.quantize(Decimal("0.000001"), rounding=ROUND_HALF_UP, context=wide),
                  "f")


def float_spellings_agree(ours, fxc):
    """V4: two %f spellings are the same float32 printed by the two runtimes."""
    if ours == fxc:
        return True
    try:
        middle = str((Decimal(ours) + Decimal(fxc)) / 2)
    except ArithmeticError:
        return False
    for text in (ours, fxc, middle):
        for value in f32_candidates(text):
            if {printf_newer(value), printf_older(value)} == {ours, fxc}:
                return True
    return False


def lines_agree(ours, fxc, generator):
    """(agree, set of rules needed). Our line is tried as printed and with
    each applicable V1-V3 rewrite; numbers may then differ only by V4."""
    if ours == fxc:
        return True, set()
    candidates = [(ours, set())]
    for name, applies, rewrite in SPELLING_RULES:
        rewritten = rewrite(ours)
        if applies(generator) and rewritten != ours:
            candidates.append((rewritten, {name}))
    for text, used in candidates:
        if text == fxc:
            return True, used
    for text, used in candidates:
        if numbers_agree(text, fxc):
            return True, used | {ROUNDING_RULE}
    return False, set()


def numbers_agree(ours, fxc):
    a = NUMBER_RE.split(ours)
    b = NUMBER_RE.split(fxc)
    if len(a) != len(b):
        return False
    for i, (x, y) in enumerate(zip(a, b)):
        if i % 2 == 0:
            if x != y:
                return False
        elif not float_spellings_agree(x, y):
            return False
    return True


# ---------------------------------------------------------------------------
# Comparison

class Outcome:
    def __init__(self, path, generator):
        self.path = path
        self.generator = generator
        self.identical = False
        self.problem = None       # text for failures that are not a line pair
        self.first = None         # (our line no, ours, fxc line no, fxc)
        self.rules = {}           # rule name -> number of lines
        self.diff = []
        self.lines = 0


def compare(cli, dxbc_path, asm_path):
    with open(asm_path, encoding="utf-8", errors="replace") as f:
        listing = f.read()
    outcome = Outcome(dxbc_path, generator_of(listing))
    expected = fxc_body(listing)
    if expected is None:
        outcome.problem = "listing has no SM4/5 version line"
        return outcome
    try:
        p = subprocess.run([cli, "disasm", "--no-header", dxbc_path], capture_output=True,
                           timeout=DISASM_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        outcome.problem = "disasm timed out after %d s" % DISASM_TIMEOUT_S
        return outcome
    if p.returncode != 0:
        outcome.problem = "disasm exit %d: %s" % (
            p.returncode, p.stderr.decode(errors="replace").strip()[:300])
        return outcome
    actual = ours_body(p.stdout.decode(errors="replace"))
    outcome.lines = len(expected)
    for i in range(max(len(actual), len(expected))):
        mine = actual[i] if i < len(actual) else (0, "<end of output>")
        theirs = expected[i] if i < len(expected) else (0, "<end of listing>")
        agree, used = lines_agree(mine[1], theirs[1], outcome.generator)
        if not agree:
            outcome.first = (mine[0], mine[1], theirs[0], theirs[1])
            outcome.diff = list(difflib.unified_diff(
                [t for _, t in expected], [t for _, t in actual], "fxc", "shaderbridge",
                n=2, lineterm=""))
            return outcome
        for rule in used:
            outcome.rules[rule] = outcome.rules.get(rule, 0) + 1
    outcome.identical = True
    return outcome


def listed_blobs(corpus_dxbc, only):
    with open(os.path.join(corpus_dxbc, "MANIFEST.tsv"), encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        col = {name: i for i, name in enumerate(header)}
        for row in f:
            cells = row.rstrip("\n").split("\t")
            if len(cells) < len(header) or cells[col["has_asm"]] != "1":
                continue
            if cells[col["program_type"]] not in SHADER_TYPES:
                continue
            rel = cells[col["file"]]
            if only and only not in rel:
                continue
            yield rel


def write_report(path, outcomes, rate, corpus_dxbc):
    with open(path, "w", encoding="utf-8") as out:
        identical = sum(o.identical for o in outcomes)
        out.write("sm4_listing_match report\n")
        out.write("listings: %d/%d identical (%.2f%%), threshold %.0f%%\n\n" % (
            identical, len(outcomes), rate * 100, MIN_MATCH_RATE * 100))
        by_generator = {}
        for o in outcomes:
            name = generator_name(o.generator)
            total, same = by_generator.get(name, (0, 0))
            by_generator[name] = (total + 1, same + o.identical)
        out.write("by generator:\n")
        for name in sorted(by_generator):
            total, same = by_generator[name]
            out.write("  %-28s %4d/%-4d identical\n" % (name, same, total))
        rules = {}
        for o in outcomes:
            for rule, count in o.rules.items():
                files, lines = rules.get(rule, (0, 0))
                rules[rule] = (files + 1, lines + count)
        out.write("\nversion-spelling rules used (files, lines):\n")
        for rule in sorted(rules):
            out.write("  %-62s %4d %6d\n" % (rule, rules[rule][0], rules[rule][1]))
        if not rules:
            out.write("  none\n")
        out.write("\nlines compared in identical listings: %d\n\n" % sum(
            o.lines for o in outcomes if o.identical))
        out.write("per file:\n")
        for o in outcomes:
            rel = os.path.relpath(o.path, corpus_dxbc)
            status = "identical" if o.identical else "MISMATCH"
            extra = "; ".join("%s x%d" % (r.split(" ")[0], n) for r, n in sorted(o.rules.items()))
            out.write("  %-9s %-28s %s%s\n" % (status, generator_name(o.generator), rel,
                                              " [" + extra + "]" if extra else ""))
        for o in outcomes:
            if o.identical:
                continue
            out.write("\n=== %s (%s)\n" % (os.path.relpath(o.path, corpus_dxbc),
                                           generator_name(o.generator)))
            if o.problem:
                out.write(o.problem + "\n")
                continue
            out.write("first difference: ours line %d / fxc line %d\n" % (o.first[0], o.first[2]))
            out.write("\n".join(o.diff[:200]) + "\n")
            if len(o.diff) > 200:
                out.write("... %d more diff lines\n" % (len(o.diff) - 200))


def run(args):
    corpus_dxbc = os.path.join(args.corpus, "dxbc")
    if not os.path.isfile(os.path.join(corpus_dxbc, "MANIFEST.tsv")):
        print("SKIPPED: corpus not found at %s" % corpus_dxbc)
        return SKIP
    pairs = []
    for rel in listed_blobs(corpus_dxbc, args.only):
        dxbc = os.path.join(corpus_dxbc, rel)
        pairs.append((dxbc, os.path.splitext(dxbc)[0] + ".asm"))
    pairs = pairs[::args.every]
    if not pairs:
        print("no listings selected")
        return 1
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        outcomes = list(pool.map(lambda pair: compare(args.cli, *pair), pairs))
    identical = sum(o.identical for o in outcomes)
    rate = identical / len(outcomes)
    for o in outcomes:
        if o.identical:
            continue
        print("MISMATCH %s (%s)" % (os.path.relpath(o.path, corpus_dxbc),
                                    generator_name(o.generator)))
        if o.problem:
            print("  " + o.problem)
        else:
            print("  ours %5d: %s" % (o.first[0], o.first[1]))
            print("  fxc  %5d: %s" % (o.first[2], o.first[3]))
    rules = {}
    for o in outcomes:
        for rule, count in o.rules.items():
            rules[rule] = rules.get(rule, 0) + count
    for rule in sorted(rules):
        print("rule used: %s: %d lines" % (rule, rules[rule]))
    print("listings: %d/%d identical (%.1f%%)" % (identical, len(outcomes), rate * 100))
    if args.report:
        write_report(args.report, outcomes, rate, corpus_dxbc)
        print("report: %s" % args.report)
    if rate < MIN_MATCH_RATE:
        print("FAIL: below the %.0f%% threshold (MIN_MATCH_RATE)" % (MIN_MATCH_RATE * 100))
        return 1
    return 0


# ---------------------------------------------------------------------------
# Self-test: the README examples, accepted and rejected.

def self_test():
    fxc929 = ("fxc", (9, 29))
    fxc930 = ("fxc", (9, 30))
    fxc101 = ("fxc", (10, 1))
    dis = ("disassembler", None)
    listing = "\n".join([
        "//", "// Generated by Microsoft (R) D3D Shader Disassembler", "//",
        "// Level9 shader bytecode:", "    ps_2_0", "    dcl t0  // pin<0,1,2,3>",
        "#line 111 \"D:\\x.fx\"", "    texld r0, t2, s0",
        "// approximately 10 instruction slots used (1 texture, 9 arithmetic)",
        "ps_4_0", "dcl_constantbuffer CB0[3], immediateIndexed",
        "dcl_immediateConstantBuffer { { 1.000000, 0, 0, 0},",
        "                              { 8.000000, 0, 0, 0} }", "",
        "#line 18 \"D:\\Common.fxh\"",
        "  mad r1.xyz, cb0[2].xyzx, r0.wwww, -r0.xyzx  // ApplyFog::color<0,1,2>",
        "ret ", "// Approximately 0 instruction slots used", "#endif",
        "const BYTE g_ps[] = { 68, 88 };"])
    ours = ("ps_4_0\ndcl_constantbuffer cb0[3], immediateIndexed\n"
            "dcl_immediateConstantBuffer { { 1.000000, 0, 0, 0},\n"
            "                              { 8.000000, 0, 0, 0} }\n"
            "mad r1.xyz, cb0[2].xyzx, r0.wwww, -r0.xyzx\nret\n")
    expected = ["ps_4_0", "dcl_constantbuffer cb0[3], immediateindexed",
                "dcl_immediateconstantbuffer { { 1.000000, 0, 0, 0}, { 8.000000, 0, 0, 0} }",
                "mad r1.xyz, cb0[2].xyzx, r0.wwww, -r0.xyzx", "ret"]
    checks = [
        ("N1-N8 listing body", [t for _, t in fxc_body(listing)] == expected),
        ("N1-N6 our body", [t for _, t in ours_body(ours)] == expected),
        ("generator", generator_of(listing) == dis),
        ("printf strings keep //", strip_comment('printf "a//b", r0.x // c') == 'printf "a//b", r0.x '),
        ("V1 accepted for 9.29", lines_agree("sample_l_aoffimmi(0,1,0) r9.x, r0.xyxx, t0.xyzw, s0, l(0.000000)",
                                             "sample_l(0,1,0) r9.x, r0.xyxx, t0.xyzw, s0, l(0.000000)", fxc929)[0]),
        ("V1 refused for 10.1", not lines_agree("sample_l_aoffimmi(0,1,0) r9.x", "sample_l(0,1,0) r9.x", fxc101)[0]),
        ("V1 refuses other offsets", not lines_agree("sample_l_aoffimmi(0,1,0) r9.x", "sample_l(1,1,0) r9.x", fxc929)[0]),
        ("V2 accepted", lines_agree("discard_nz r1.x", "discard r1.x", dis)[0]),
        ("V2 refuses z/nz swap", not lines_agree("discard_z r1.x", "discard_nz r1.x", dis)[0]),
        ("V3 accepted for 9.30", lines_agree("dcl_input_ps_sgv constant v5.y, is_front_face",
                                             "dcl_input_ps_sgv v5.y, is_front_face", fxc930)[0]),
        ("V3 refused for 10.1", not lines_agree("dcl_input_ps_sgv constant v5.y, is_front_face",
                                                "dcl_input_ps_sgv v5.y, is_front_face", fxc101)[0]),
        ("V4 tie 0.0078125", lines_agree("mul r0.x, r0.x, l(0.007812)", "mul r0.x, r0.x, l(0.007813)", fxc930)[0]),
        ("V4 tie 18.8515625", lines_agree("l(18.851563)", "l(18.851562)", fxc101)[0]),
        ("V4 FLT_MAX", lines_agree("l(340282346638528859811704183484516925440.000000)",
                                   "l(340282346638528860000000000000000000000.000000)", fxc930)[0]),
        ("V4 refuses a different float", not lines_agree("l(0.500000)", "l(0.500001)", fxc930)[0]),
        ("V4 refuses a different value", not lines_agree("l(0.007812)", "l(0.007814)", fxc930)[0]),
        ("V4 refuses integer/float swap", not lines_agree("l(1)", "l(1.000000)", fxc930)[0]),
        ("V4 refuses register change", not lines_agree("mul r1.x, l(0.007812)", "mul r0.x, l(0.007813)", fxc930)[0]),
    ]
    failed = [name for name, ok in checks if not ok]
    for name in failed:
        print("FAIL: self-test %s" % name)
    print("self-test: %d/%d checks passed" % (len(checks) - len(failed), len(checks)))
    return 1 if failed else 0


def positive_int(text):
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError("%r is not a whole number of at least 1" % text)
    return int(text)


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        return self_test()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cli")
    parser.add_argument("corpus", help="the shared corpus folder (holding dxbc/)")
    parser.add_argument("--report", help="write the full report here")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--only", help="compare only files whose path contains this")
    parser.add_argument("--every", type=positive_int, default=1, metavar="N",
                        help="compare every Nth listing only (the sanitizer build, where each "
                             "process start costs about 0.1 s)")
    return run(parser.parse_args())


if __name__ == "__main__":
    sys.exit(main())
