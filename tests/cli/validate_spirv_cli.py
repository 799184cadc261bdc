#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`validate --spirv MODULE.spv [--bindings MAP.json] FILE` end to end (issue #14):
the module `translate` wrote for a sample validates (exit 0), also stored big-endian;
an FAdd->FSub mutant of it disagrees (exit 1); bad modules (garbage, odd size,
truncated, missing, another stage's) are errors naming the module file (exit 1); the
`vulkan_bindings` of `reflect --json` round-trips as a binding map in each of its three
accepted shapes, a module whose u0 was moved validates with the edited map and is refused
without it; malformed maps are errors naming the map file; usage errors exit 2.

usage: validate_spirv_cli.py SHADERBRIDGE SAMPLES_DIR SCRATCH_DIR
Exit 77 when there is no Vulkan device (validate exits 3).
"""
import json
import os
import shutil
import struct
import subprocess
import sys

OP_DECORATE, OP_FADD, OP_FSUB, DECORATION_BINDING = 71, 129, 131, 33
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


def words_of(path):
    data = open(path, "rb").read()
    return list(struct.unpack("<%dI" % (len(data) // 4), data))


def write_words(path, words, order="<"):
    with open(path, "wb") as f:
        f.write(struct.pack(order + "%dI" % len(words), *words))


def instructions(words):
    i = 5
    while i < len(words) and words[i] >> 16:
        yield i, words[i] & 0xFFFF, words[i] >> 16
        i += words[i] >> 16


def write_json(path, value):
    with open(path, "w") as f:
        json.dump(value, f)


def modules(cli, saxpy, vs, scratch):
    spv = os.path.join(scratch, "saxpy.spv")
    rc, _, err = run(cli, ["translate", "-o", spv, saxpy])
    check(rc == 0, f"translate saxpy: exit {rc}: {err}")
    rc, out, err = run(cli, ["validate", "--seed", "1", "--spirv", spv, saxpy])
    if rc == 3:
        print("SKIPPED: no Vulkan device:", err.strip())
        sys.exit(77)
    check(rc == 0 and "agree" in out, f"validate --spirv of translate's module: exit {rc}: {out} {err}")

    words = words_of(spv)
    big = os.path.join(scratch, "saxpy-be.spv")
    write_words(big, words, ">")
    rc, out, err = run(cli, ["validate", "--spirv", big, saxpy])
    check(rc == 0, f"big-endian module: exit {rc}: {err}")

    mutant = list(words)
    fadds = [i for i, op, _ in instructions(mutant) if op == OP_FADD]
    check(len(fadds) == 1, f"saxpy's module has one OpFAdd, not {len(fadds)}")
    for i in fadds[:1]:
        mutant[i] = (mutant[i] & 0xFFFF0000) | OP_FSUB
    mut = os.path.join(scratch, "saxpy-fsub.spv")
    write_words(mut, mutant)
    rc, out, err = run(cli, ["validate", "--spirv", mut, saxpy])
    check(rc == 1 and "disagree" in out.lower(), f"FAdd->FSub mutant: exit {rc}, want 1: {out[-300:]} {err}")

    cases = {
        "garbage.spv": (b"\x01\x02\x03\x04" * 8, ":0: error:", "SB_ERROR_BAD_MAGIC"),
        "odd.spv": (struct.pack("<5I", *words[:5]) + b"\0", ":21: error:", "not whole 32-bit words"),
        "half.spv": (struct.pack("<%dI" % (len(words) // 2), *words[:len(words) // 2]), ":",
                     "runs past the module's end"),
    }
    for name, (data, where, what) in cases.items():
        path = os.path.join(scratch, name)
        with open(path, "wb") as f:
            f.write(data)
        rc, out, err = run(cli, ["validate", "--spirv", path, saxpy])
        check(rc == 1 and (path + where) in err and what in err,
              f"{name}: exit {rc}, want 1 and '{path}{where} ... {what}': {err.strip()}")
    missing = os.path.join(scratch, "missing.spv")
    rc, _, err = run(cli, ["validate", "--spirv", missing, saxpy])
    check(rc == 1 and missing in err, f"missing module: exit {rc}: {err.strip()}")
    rc, _, err = run(cli, ["validate", "--spirv", spv, vs, "--draw", "16"])
    check(rc == 1 and "no Vertex entry point" in err and spv in err,
          f"compute module for a vertex shader: exit {rc}: {err.strip()}")

    vs_spv = os.path.join(scratch, "vs.spv")
    rc, _, err = run(cli, ["translate", "-o", vs_spv, vs])
    rc, out, err = run(cli, ["validate", "--spirv", vs_spv, vs, "--draw", "16"])
    check(rc == 0 and "agree" in out, f"vertex module: exit {rc}: {out} {err}")
    return spv, words


def binding_maps(cli, saxpy, spv, words, scratch):
    rc, out, err = run(cli, ["reflect", "--json", saxpy])
    check(rc == 0, f"reflect --json: exit {rc}: {err}")
    reflected = json.loads(out)
    vb = reflected["vulkan_bindings"]
    shapes = {"reflect.json": reflected, "vulkan_bindings.json": vb, "bindings.json": vb["bindings"]}
    for name, value in shapes.items():
        path = os.path.join(scratch, name)
        write_json(path, value)
        rc, out, err = run(cli, ["validate", "--spirv", spv, "--bindings", path, saxpy])
        check(rc == 0, f"--bindings {name} (round trip): exit {rc}: {err.strip()}")

    # Move u0 from the default binding 160 to 7 in the module, then in the map.
    u0 = [b for b in vb["bindings"] if b["register"] == "u0"]
    check(len(u0) == 1 and u0[0]["binding"] == 160, f"u0 at binding 160 by default: {u0}")
    moved = list(words)
    patched = 0
    for i, op, n in instructions(moved):
        if op == OP_DECORATE and n == 4 and moved[i + 2] == DECORATION_BINDING and moved[i + 3] == 160:
            moved[i + 3] = 7
            patched += 1
    check(patched == 1, f"one Binding 160 decoration patched, not {patched}")
    moved_spv = os.path.join(scratch, "saxpy-moved.spv")
    write_words(moved_spv, moved)
    rc, _, err = run(cli, ["validate", "--spirv", moved_spv, saxpy])
    check(rc == 1 and "set 0 binding 7" in err and moved_spv in err,
          f"moved module without a map: exit {rc}: {err.strip()}")
    edited = json.loads(json.dumps(reflected))
    for b in edited["vulkan_bindings"]["bindings"]:
        if b["register"] == "u0":
            b["binding"] = 7
    moved_map = os.path.join(scratch, "moved.json")
    write_json(moved_map, edited)
    rc, out, err = run(cli, ["validate", "--spirv", moved_spv, "--bindings", moved_map, saxpy])
    check(rc == 0 and "agree" in out, f"moved module with the edited map: exit {rc}: {err.strip()}")

    bad_maps = {
        "notjson.json": ("{\"bindings\": [", "not JSON"),
        "nobinding.json": ([{"class": "uav", "space": 0, "lower_bound": 0, "set": 0}],
                           "entry 0 has no \"binding\""),
        "badclass.json": ([{"class": "texture", "space": 0, "lower_bound": 0, "set": 0, "binding": 1}],
                          "\"class\" must be"),
        "negative.json": ([{"class": "uav", "space": 0, "lower_bound": 0, "set": 0, "binding": -1}],
                          "not an integer"),
        "u5.json": ([{"class": "uav", "space": 0, "lower_bound": 5, "set": 0, "binding": 1}],
                    "u5 in space 0 is no register"),
        "error.json": ({"target_env": "vulkan1.1", "error": {"code": "x"}}, "translation error"),
    }
    for name, (value, what) in bad_maps.items():
        path = os.path.join(scratch, name)
        if isinstance(value, str):
            with open(path, "w") as f:
                f.write(value)
        else:
            write_json(path, value)
        rc, _, err = run(cli, ["validate", "--spirv", spv, "--bindings", path, saxpy])
        check(rc == 1 and path + ":" in err and what in err,
              f"map {name}: exit {rc}, want 1 and '{what}' against {path}: {err.strip()}")


def usage(cli, saxpy, spv, scratch):
    for args in (["validate", "--bindings", os.path.join(scratch, "bindings.json"), saxpy],
                 ["validate", "--spirv", spv, saxpy, saxpy],
                 ["validate", "--spirv"],
                 ["run", "--spirv", spv, saxpy]):
        rc, _, err = run(cli, args)
        check(rc == 2, f"{' '.join(args[:2])}...: exit {rc}, want 2: {err.strip()}")


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    cli, samples, scratch = sys.argv[1:]
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    saxpy = os.path.join(samples, "saxpy_cs_5_0.dxbc")
    vs = os.path.join(samples, "passthrough_vs_4_0.dxbc")
    spv, words = modules(cli, saxpy, vs, scratch)
    binding_maps(cli, saxpy, spv, words, scratch)
    usage(cli, saxpy, spv, scratch)
    print(f"validate --spirv CLI: {checks} checks, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
