#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""translate_cli: the contract of `shaderbridge translate` (tools/shaderbridge/
cmd_translate.c documents it): exit codes 0/1/2, -o FILE, -o DIR (created,
NAME.spv per input), stdout and the refusal to write binary to a terminal,
--spirv-text (spirv-dis's text), --target-env (SPIR-V version per env, a
wrong spelling is a usage error), -g/-O/--validate still valid SPIR-V,
--unbounded-descriptors N (a fixed array of N for an unbounded range), --device-profile
(lavapipe's built-in profile and a JSON file, read strictly), --jobs 2 giving
the bytes of --jobs 1, errors as FILE:OFFSET: error: MESSAGE [CODE] with the
offset of the corrupted token, the progress bar only on a terminal; and
reflect's vulkan_bindings (the default binding scheme of translate.h, a
descriptor type that fits the register class, the translation's error in
place of the list for a shader that does not translate).

Inputs: six corpus shaders, one per stage, that translate_corpus expects to
translate cleanly (not in the expected-failure list).

usage: translate_cli.py SHADERBRIDGE CORPUS_DIR EXPECTED_TSV SCRATCH
exit: 0 all held, 1 a check failed, 77 corpus absent
"""
import json
import os
import pty
import re
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus_shaders  # noqa: E402

SPIRV_MAGIC = 0x07230203
# Highest SPIR-V version each Vulkan version accepts.
MAX_VERSION = {"vulkan1.0": 0x10000, "vulkan1.1": 0x10300, "vulkan1.2": 0x10500,
               "vulkan1.3": 0x10600}
ERROR_LINE = re.compile(r"^(?P<file>.+):(?P<offset>\d+): error: .+ \[(?P<code>SB_[A-Z0-9_]+)\]$")

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL: " + what)


def run(cli, args, **kw):
    return subprocess.run([cli, "translate"] + args, capture_output=True, **kw)


def spirv_version(data):
    magic, version = struct.unpack_from("<II", data, 0) if len(data) >= 8 else (0, 0)
    return version if magic == SPIRV_MAGIC else None


def pick_inputs(corpus, expected_tsv):
    listed = corpus_shaders.expected_failures(expected_tsv)
    chosen = {}
    for rel, stage in corpus_shaders.shaders(corpus):
        if rel not in listed and stage not in chosen and rel.startswith("dxbc/"):
            chosen[stage] = os.path.join(corpus, rel)
    return [chosen[s] for s in corpus_shaders.STAGES if s in chosen]


def run_with_tty(cli, args, tty_fd):
    """Runs with stdout or stderr on a pseudo-terminal; returns (exit, bytes read from it)."""
    master, slave = pty.openpty()
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    streams[tty_fd] = slave
    p = subprocess.Popen([cli, "translate"] + args, **streams)
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    p.communicate()
    os.close(master)
    return p.returncode, b"".join(chunks)


def test_usage(cli, one):
    for args, what in ([["--target-env", "vulkan1.4", one], "misspelt --target-env"],
                       [["--target-env=vulkan", one], "--target-env=vulkan"],
                       [[one, "--target-env"], "--target-env without a value"],
                       [["--frobnicate", one], "unknown option"],
                       [[], "no input"],
                       [["--jobs", "0", one], "--jobs 0"],
                       [["--jobs", "x", one], "--jobs x"],
                       [["--unbounded-descriptors", "0", one], "--unbounded-descriptors 0"],
                       [["--unbounded-descriptors=8x", one], "--unbounded-descriptors=8x"],
                       [[one, one], "two inputs without -o"]):
        p = run(cli, args)
        check(p.returncode == 2, "%s: exit %d, want 2" % (what, p.returncode))
        check(b"error:" in p.stderr, "%s: no error message" % what)


def test_single(cli, one, scratch, spirv_dis):
    out = os.path.join(scratch, "one.spv")
    p = run(cli, ["-o", out, one])
    check(p.returncode == 0, "-o FILE: exit %d: %s" % (p.returncode, p.stderr))
    data = open(out, "rb").read() if os.path.exists(out) else b""
    check(spirv_version(data) is not None and len(data) % 4 == 0, "-o FILE: not SPIR-V")
    piped = run(cli, [one])
    check(piped.returncode == 0 and piped.stdout == data,
          "binary to a pipe differs from -o FILE (exit %d)" % piped.returncode)
    dash = run(cli, ["-o", "-", one])
    check(dash.returncode == 0 and dash.stdout == data, "-o - differs from -o FILE")

    text = run(cli, ["--spirv-text", one])
    check(text.returncode == 0 and text.stdout.startswith(b"; SPIR-V"),
          "--spirv-text: exit %d, starts %r" % (text.returncode, text.stdout[:20]))
    if spirv_dis and data:
        dis = subprocess.run([spirv_dis, out], capture_output=True)
        check(dis.returncode == 0 and dis.stdout == text.stdout,
              "--spirv-text differs from spirv-dis of the binary")
    text_file = os.path.join(scratch, "one.spvasm")
    p = run(cli, ["--spirv-text", "-o", text_file, one])
    check(p.returncode == 0 and open(text_file, "rb").read() == text.stdout,
          "--spirv-text -o FILE differs from stdout")

    existing = os.path.join(scratch, "existing_dir")
    os.makedirs(existing)
    p = run(cli, ["-o", existing, one])
    stem = os.path.splitext(os.path.basename(one))[0]
    placed = os.path.join(existing, stem + ".spv")
    check(p.returncode == 0 and os.path.exists(placed) and open(placed, "rb").read() == data,
          "-o EXISTING_DIR with one input: want %s" % placed)



def test_target_envs(cli, one, spirv_val):
    for env, highest in MAX_VERSION.items():
        p = run(cli, ["--target-env", env, one])
        version = spirv_version(p.stdout)
        check(p.returncode == 0 and version is not None and version <= highest,
              "--target-env %s: exit %d, SPIR-V version %s" % (
                  env, p.returncode, hex(version) if version else None))
    p = run(cli, ["--target-env", "vulkan1.0", one])
    check(spirv_version(p.stdout) == 0x10000, "vulkan1.0 must produce SPIR-V 1.0")
    for flag in ("-g", "-O", "--validate"):
        p = run(cli, [flag, one])
        check(p.returncode == 0, "%s: exit %d: %s" % (flag, p.returncode, p.stderr))
        if spirv_val and p.returncode == 0:
            v = subprocess.run([spirv_val, "--target-env", "vulkan1.1", "-"], input=p.stdout,
                               capture_output=True)
            check(v.returncode == 0, "%s output fails spirv-val: %s" % (flag, v.stdout + v.stderr))
    g = run(cli, ["-g", "--spirv-text", one]).stdout
    check(b"OpName" in g or b"OpLine" in g, "-g: no OpName/OpLine in the module")


def test_many(cli, inputs, scratch):
    outs = {}
    for jobs in ("1", "2"):
        out_dir = os.path.join(scratch, "jobs" + jobs, "nested")
        p = run(cli, ["--jobs", jobs, "-o", out_dir] + inputs)
        check(p.returncode == 0, "--jobs %s: exit %d: %s" % (jobs, p.returncode, p.stderr))
        check(b"\r" not in p.stderr, "--jobs %s: progress bar on a pipe" % jobs)
        names = sorted(os.listdir(out_dir)) if os.path.isdir(out_dir) else []
        want = sorted(os.path.splitext(os.path.basename(i))[0] + ".spv" for i in inputs)
        check(names == want, "--jobs %s: outputs %s, want %s" % (jobs, names, want))
        outs[jobs] = {n: open(os.path.join(out_dir, n), "rb").read() for n in names}
    check(outs["1"] == outs["2"], "--jobs 2 output differs from --jobs 1")

    clash_dir = os.path.join(scratch, "clash")
    os.makedirs(clash_dir)
    copy = os.path.join(clash_dir, os.path.basename(inputs[0]))
    shutil.copyfile(inputs[0], copy)
    p = run(cli, ["-o", os.path.join(scratch, "clash_out"), inputs[0], copy])
    check(p.returncode == 2, "two inputs writing one output: exit %d, want 2" % p.returncode)


def corrupt(path, scratch):
    """A copy whose first SM4/5 instruction has an unknown opcode; returns (path, token offset)."""
    data = bytearray(open(path, "rb").read())
    count = struct.unpack_from("<I", data, 28)[0]
    for i in range(count):
        offset = struct.unpack_from("<I", data, 32 + 4 * i)[0]
        if bytes(data[offset:offset + 4]) in (b"SHDR", b"SHEX"):
            token = offset + 8 + 8  # part header, then version and length tokens
            value = struct.unpack_from("<I", data, token)[0]
            struct.pack_into("<I", data, token, (value & ~0x7FF) | 0x7FF)
            out = os.path.join(scratch, "corrupt_" + os.path.basename(path))
            open(out, "wb").write(data)
            return out, token
    raise SystemExit("no SHDR/SHEX in " + path)


def test_errors(cli, inputs, scratch):
    bad, token = corrupt(inputs[0], scratch)
    p = run(cli, ["-o", os.path.join(scratch, "bad.spv"), bad], text=True)
    lines = p.stderr.strip().splitlines()
    m = ERROR_LINE.match(lines[0]) if lines else None
    check(p.returncode == 1, "corrupt input: exit %d, want 1" % p.returncode)
    check(m is not None and m.group("file") == bad and int(m.group("offset")) == token,
          "corrupt input: want '%s:%d: error: ... [SB_...]', got %r" % (bad, token, p.stderr))
    check(not os.path.exists(os.path.join(scratch, "bad.spv")), "a failed input wrote output")

    missing = os.path.join(scratch, "no_such_file.dxbc")
    out_dir = os.path.join(scratch, "mixed")
    p = run(cli, ["--jobs", "2", "-o", out_dir, missing, inputs[1], bad], text=True)
    lines = p.stderr.strip().splitlines()
    check(p.returncode == 1, "mixed inputs: exit %d, want 1" % p.returncode)
    check(len(lines) == 2 and lines[0].startswith(missing + ":0: error:")
          and lines[1].startswith("%s:%d: error:" % (bad, token)),
          "mixed inputs: want the two errors in input order, got %r" % lines)
    good = os.path.join(out_dir, os.path.splitext(os.path.basename(inputs[1]))[0] + ".spv")
    check(os.path.exists(good), "mixed inputs: the good input was not written")
    check(sorted(os.listdir(out_dir)) == [os.path.basename(good)] if os.path.isdir(out_dir)
          else False, "mixed inputs: extra files %s" % (os.listdir(out_dir),))


# translate.h's default scheme: binding = base + register for space-0 registers inside the window.
DEFAULT_BINDING = {"cbv": (0, 16), "sampler": (16, 16), "srv": (32, 128), "uav": (160, 64)}
DESCRIPTOR_TYPES = {"cbv": {"VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER"},
                    "sampler": {"VK_DESCRIPTOR_TYPE_SAMPLER"},
                    "srv": {"VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE", "VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER",
                            "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"},
                    "uav": {"VK_DESCRIPTOR_TYPE_STORAGE_IMAGE", "VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER",
                            "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"}}


def test_reflect_bindings(cli, inputs, scratch):
    """reflect's vulkan_bindings: the default scheme, and an error instead of a list."""
    seen = 0
    for path in inputs:
        p = subprocess.run([cli, "reflect", "--json", path], capture_output=True)
        doc = json.loads(p.stdout) if p.returncode == 0 else {}
        vb = doc.get("vulkan_bindings", {})
        check(p.returncode == 0 and "bindings" in vb and vb.get("target_env") == "vulkan1.1",
              "reflect %s: no vulkan_bindings list (exit %d)" % (path, p.returncode))
        for b in vb.get("bindings", []):
            seen += 1
            base, window = DEFAULT_BINDING.get(b.get("class"), (None, 0))
            if b.get("space") == 0 and b.get("count") == 1 and b.get("lower_bound", 1 << 30) < window:
                check(b.get("set") == 0 and b.get("binding") == base + b["lower_bound"],
                      "reflect %s: %s at set %s binding %s, want 0/%d" % (
                          path, b.get("register"), b.get("set"), b.get("binding"),
                          base + b["lower_bound"]))
            check(b.get("descriptor_type") in DESCRIPTOR_TYPES.get(b.get("class"), ()),
                  "reflect %s: %s has descriptor type %s" % (path, b.get("register"),
                                                              b.get("descriptor_type")))
    check(seen >= 3, "reflect: only %d bindings across the inputs" % seen)

    bad, token = corrupt(inputs[0], scratch)
    p = subprocess.run([cli, "reflect", "--json", bad], capture_output=True)
    vb = json.loads(p.stdout).get("vulkan_bindings", {}) if p.returncode == 0 else {}
    err = vb.get("error", {})
    check(p.returncode == 0 and "bindings" not in vb and err.get("offset") == token and
          err.get("code", "").startswith("SB_ERROR_"),
          "reflect of an untranslatable shader: want exit 0 and an error at %d, got %d %r" % (
              token, p.returncode, vb))


def test_unbounded(cli, corpus, spirv_val):
    """--unbounded-descriptors N: an unbounded SM5.1 range (vkd3d's s0[1:*] test) becomes a
    fixed array of N and the module needs no RuntimeDescriptorArray."""
    shader = os.path.join(corpus, "dxbc", "vkd3d", "d3d12__test_unbounded_samplers__cs_code.dxbc")
    if not os.path.isfile(shader):
        check(False, "--unbounded-descriptors: %s missing from the corpus" % shader)
        return
    plain = run(cli, ["--spirv-text", shader]).stdout
    check(b"OpCapability RuntimeDescriptorArray" in plain and b"OpTypeRuntimeArray %" in plain,
          "unbounded sampler range without the option: no runtime descriptor array")
    p = run(cli, ["--spirv-text", "--unbounded-descriptors", "6", shader])
    check(p.returncode == 0 and b"RuntimeDescriptorArray" not in p.stdout and
          re.search(rb"= OpTypeArray %\w+ %uint_6\n", p.stdout) is not None,
          "--unbounded-descriptors 6: exit %d, want an OpTypeArray of 6 and no "
          "RuntimeDescriptorArray" % p.returncode)
    # reflect lists the bindings of the translation with the same options: count 6, and
    # lavapipe's profile (8 sets) keeps the one register space on its set.
    p = subprocess.run([cli, "reflect", "--json", "--unbounded-descriptors", "6", "--device-profile",
                        "lavapipe", shader], capture_output=True)
    bindings = json.loads(p.stdout).get("vulkan_bindings", {}).get("bindings", []) if p.returncode == 0 else []
    sampler = [b for b in bindings if b.get("class") == "sampler"]
    check(len(sampler) == 1 and sampler[0].get("count") == 6 and sampler[0].get("lower_bound") == 1,
          "reflect --unbounded-descriptors 6: exit %d, want one sampler range s1 of 6: %r" % (p.returncode, sampler))
    p = subprocess.run([cli, "reflect", "--json", "--unbounded-descriptors", "0", shader], capture_output=True)
    check(p.returncode == 2 and b"--unbounded-descriptors wants a number" in p.stderr,
          "reflect --unbounded-descriptors 0: exit %d, want the usage error" % p.returncode)
    binary = run(cli, ["--unbounded-descriptors=6", shader])
    if spirv_val and binary.returncode == 0:
        v = subprocess.run([spirv_val, "--target-env", "vulkan1.1", "-"], input=binary.stdout,
                           capture_output=True)
        check(v.returncode == 0, "--unbounded-descriptors output fails spirv-val: %s" % (
            v.stdout + v.stderr))


def test_device_profile(cli, corpus, inputs, scratch):
    """--device-profile: lavapipe's built-in profile turns vkd3d's non-uniform sampler index
    into a loop (no NonUniform left); a typed UAV read without a format is an error naming the
    register, a profile file giving its format declares it; 64 raw/structured u# past
    lavapipe's 32 storage buffers become R32ui storage texel buffers, a file allowing 64 keeps
    them, one with 16 storage images is refused naming the limit; a `_cl` sample keeps MinLod
    unless the profile lacks shaderResourceMinLod; vkd3d-proton's rasterizer-ordered view is
    refused for lavapipe at its dcl_uav_typed_texture2darray_rov (byte 152) naming
    fragmentShaderPixelInterlock, and translated with interlock for a file that has it; a file
    with a misspelt feature, a wrong type or bad JSON is an error against the file (exit 1);
    the default is unchanged."""
    samplers = os.path.join(corpus, "dxbc", "vkd3d", "d3d12__test_unbounded_samplers__cs_code.dxbc")
    typed = os.path.join(corpus, "dxbc", "vkd3d", "d3d12__test_typed_buffer_uav__cs_vec4_load_code.dxbc")
    clamped = os.path.join(corpus, "dxbc", "vkd3d-proton", "sparse__texture_feedback_sample_code_dxbc.dxbc")
    if not os.path.isfile(samplers) or not os.path.isfile(typed) or not os.path.isfile(clamped):
        check(False, "--device-profile: corpus shaders missing")
        return
    one = inputs[0]
    check(run(cli, ["--device-profile", "lavapipe", one]).stdout == run(cli, [one]).stdout or
          b"NonUniform" not in run(cli, ["--spirv-text", one]).stdout,
          "--device-profile lavapipe changed a shader that needs no fallback")
    p = run(cli, ["--spirv-text", "--unbounded-descriptors", "8", "--device-profile", "lavapipe", samplers])
    check(p.returncode == 0 and b"NonUniform" not in p.stdout and b"OpLoopMerge" in p.stdout,
          "--device-profile lavapipe: exit %d, want a loop and no NonUniform" % p.returncode)
    p = run(cli, ["--spirv-text", "--device-profile", "lavapipe", typed])
    err = p.stderr.decode()
    check(p.returncode == 1 and "u0 (space 0" in err and "shaderStorageImageReadWithoutFormat" in err and
          "[SB_ERROR_TRANSLATE_UNSUPPORTED]" in err,
          "typed UAV read without a format: exit %d, %s" % (p.returncode, err))
    rov = os.path.join(corpus, "dxbc", "vkd3d-proton", "d3d12_rov__create_pso__ps_code_pixel_dxbc.dxbc")
    if os.path.isfile(rov):
        p = run(cli, ["--device-profile", "lavapipe", rov])
        err = p.stderr.decode()
        check(p.returncode == 1 and err.startswith(rov + ":152: error: u0 is a rasterizer-ordered view") and
              "fragmentShaderPixelInterlock" in err and "[SB_ERROR_TRANSLATE_UNSUPPORTED]" in err,
              "rasterizer-ordered view for lavapipe: exit %d, %s" % (p.returncode, err))
        interlock = os.path.join(scratch, "interlock.json")
        with open(interlock, "w") as f:
            json.dump({"features": {"fragmentShaderPixelInterlock": True,
                                    "fullyCoveredFragmentShaderInputVariable": False}}, f)
        p = run(cli, ["--spirv-text", "--validate", "--device-profile", interlock, rov])
        check(p.returncode == 0 and b"OpCapability FragmentShaderPixelInterlockEXT" in p.stdout,
              "rasterizer-ordered view with interlock: exit %d %s" % (p.returncode, p.stderr))
    else:
        check(False, "--device-profile: corpus shader %s missing" % rov)
    good = os.path.join(scratch, "profile.json")
    with open(good, "w") as f:
        json.dump({"features": {"shaderStorageImageReadWithoutFormat": False},
                   "storage_formats": [{"space": 0, "register": 0, "vk_format": 109}]}, f)
    p = run(cli, ["--spirv-text", "--device-profile", good, typed])
    check(p.returncode == 0 and b"Rgba32f" in p.stdout and b"ReadWithoutFormat" not in p.stdout,
          "profile file with u0 as R32G32B32A32_SFLOAT: exit %d %s" % (p.returncode, p.stderr))
    # 64 raw/structured u# (u0[0:31] structured, u1[32:63] raw): lavapipe's 32 storage buffers
    # make u32..63 storage texel buffers; 64 allowed, nothing moves; 16 storage images: refused.
    many = os.path.join(corpus, "dxbc", "vkd3d-proton",
                        "robustness__undefined_read_typed_buffer_as_untyped_code_dxbc.dxbc")
    if os.path.isfile(many):
        p = run(cli, ["--spirv-text", "--device-profile", "lavapipe", many])
        check(p.returncode == 0 and b"OpTypeImage %uint Buffer 0 0 0 2 R32ui" in p.stdout and
              b"OpCapability ImageBuffer" in p.stdout,
              "--device-profile lavapipe: exit %d, want u32..63 as R32ui storage texel buffers" % p.returncode)
        for name, limits, code, want in [
                ("storage64.json", {"maxPerStageDescriptorStorageBuffers": 64}, 0, ""),
                ("storage32.json", {"maxPerStageDescriptorStorageBuffers": 32,
                                    "maxPerStageDescriptorStorageImages": 16}, 1,
                 "64 storage buffers (raw/structured t#/u#, UAV counters) pass "
                 "maxPerStageDescriptorStorageBuffers (32); 64 remain")]:
            path = os.path.join(scratch, name)
            with open(path, "w") as f:
                json.dump({"limits": limits}, f)
            p = run(cli, ["--spirv-text", "--device-profile", path, many])
            err = p.stderr.decode()
            check(p.returncode == code and b"OpTypeImage" not in p.stdout and want in err and
                  (code == 0 or "[SB_ERROR_TRANSLATE_UNSUPPORTED]" in err),
                  "--device-profile %s: exit %d, %s" % (name, p.returncode, err))
    # sample_cl_s: MinLod by default and for a profile with shaderResourceMinLod; lavapipe's
    # profile (without it) queries the LOD and selects per lane instead.
    p = run(cli, ["--spirv-text", clamped])
    check(p.returncode == 0 and b"OpCapability MinLod" in p.stdout, "sample_cl_s: want MinLod by default")
    p = run(cli, ["--spirv-text", "--device-profile", "lavapipe", clamped])
    check(p.returncode == 0 and b"MinLod" not in p.stdout and b"OpImageQueryLod" in p.stdout and
          b"OpSelect %v4float" in p.stdout,
          "sample_cl_s for lavapipe: exit %d, want no MinLod, a LOD query and a select" % p.returncode)
    with_min_lod = os.path.join(scratch, "min_lod.json")
    with open(with_min_lod, "w") as f:
        json.dump({"features": {"shaderResourceMinLod": True}}, f)
    p = run(cli, ["--spirv-text", "--device-profile", with_min_lod, clamped])
    check(p.returncode == 0 and b"OpCapability MinLod" in p.stdout and b"OpImageQueryLod" not in p.stdout,
          "sample_cl_s with shaderResourceMinLod: exit %d, want MinLod" % p.returncode)
    for name, text, want in [("misspelt.json", '{"features": {"shaderStorageImageReadWithoutFormats": false}}',
                              "unknown feature shaderStorageImageReadWithoutFormats"),
                             ("type.json", '{"features": {"shaderStorageImageReadWithoutFormat": 0}}',
                              "want true or false"),
                             ("member.json", '{"storage_formats": [{"space": 0, "register": 0}]}',
                              "want an integer vk_format"),
                             ("limit.json", '{"limits": {"maxBoundDescriptorSet": 4}}',
                              "unknown limit maxBoundDescriptorSet"),
                             ("broken.json", '{"features": ', "not JSON")]:
        path = os.path.join(scratch, name)
        with open(path, "w") as f:
            f.write(text)
        p = run(cli, ["--device-profile", path, one])
        err = p.stderr.decode()
        check(p.returncode == 1 and err.startswith(path + ":") and want in err,
              "--device-profile %s: exit %d, %s" % (name, p.returncode, err))


def test_terminal(cli, inputs, scratch):
    """Binary output refused on a terminal, text allowed, a progress bar on a terminal."""
    one = inputs[0]
    code, shown = run_with_tty(cli, [one], "stdout")
    check(code == 2 and SPIRV_MAGIC.to_bytes(4, "little") not in shown,
          "binary to a terminal: exit %d, want 2 and nothing written" % code)
    code, shown = run_with_tty(cli, ["--spirv-text", one], "stdout")
    check(code == 0 and b"; SPIR-V" in shown, "--spirv-text to a terminal: exit %d" % code)
    code, shown = run_with_tty(cli, ["--jobs", "2", "-o", os.path.join(scratch, "tty")] + inputs,
                               "stderr")
    check(code == 0 and b"\r[" in shown and b"%d/%d" % (len(inputs), len(inputs)) in shown,
          "no progress bar on a terminal (exit %d): %r" % (code, shown[-200:]))


def main():
    """usage: translate_cli.py CLI CORPUS EXPECTED_TSV SCRATCH [--terminal]
    --terminal runs only the checks that need a pseudo-terminal (ctest
    translate_cli_terminal); it is skipped (77) where none can be opened, e.g. in a
    chroot without /dev/pts."""
    cli, corpus, expected_tsv, scratch = sys.argv[1:5]
    terminal_only = sys.argv[5:6] == ["--terminal"]
    if not os.path.isfile(os.path.join(corpus, "dxbc", "MANIFEST.tsv")):
        print("SKIPPED: corpus not found at %s" % corpus)
        return 77
    inputs = pick_inputs(corpus, expected_tsv)
    if len(inputs) < 2:
        print("FAIL: fewer than two corpus shaders translate cleanly (%d)" % len(inputs))
        return 1
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    if terminal_only:
        try:
            for fd in pty.openpty():
                os.close(fd)
        except OSError as e:
            print("SKIPPED: no pseudo-terminal can be opened (%s)" % e)
            return 77
        test_terminal(cli, inputs, scratch)
        print("translate CLI on a terminal: %d failure(s)" % len(failures))
        return 1 if failures else 0
    spirv_dis, spirv_val = shutil.which("spirv-dis"), shutil.which("spirv-val")
    test_usage(cli, inputs[0])
    test_single(cli, inputs[0], scratch, spirv_dis)
    test_target_envs(cli, inputs[0], spirv_val)
    test_unbounded(cli, corpus, spirv_val)
    test_device_profile(cli, corpus, inputs, scratch)
    test_many(cli, inputs, scratch)
    test_errors(cli, inputs, scratch)
    test_reflect_bindings(cli, inputs, scratch)
    print("translate CLI: %d input(s) (%s), %d failure(s)" % (
        len(inputs), ", ".join(os.path.basename(i) for i in inputs), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
