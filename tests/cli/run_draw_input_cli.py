#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`run --draw --input REG=FILE` (issue #15 item 6): the user's own bytes for a
draw's registers. Pixel shaders written by draw_input_shaders (see its header)
compute their one target from cb0, t0 (a raw buffer, a 2D texture) or u0; the
test writes those registers' bytes, draws 1x1 on the device and with --cpu,
and checks o0.bin against values worked out by hand. Then the refusals: a
constant buffer larger than its declaration, a texture of the wrong size, a
register the shader does not declare, one register twice, a register name
draws do not take, a missing file: usage errors, exit 2, as a dispatch's
--input refusals are. DDS files (`--input t0=FILE.dds`, written here): a 2D RGBA8
texture with two levels and a BC1 block read by float Texture2Ds in draws and a
dispatch, and the refusals of a 2D array for a Texture2D, a unorm format for a
uint texture, a format with no runtime counterpart and a truncated file.

PNG textures (`--input t0=FILE.png`, 8- and 16-bit files written here) read through
sampler files (`--input s0=FILE`: point sampling of a border colour, linear filtering
with wrapping), vertex streams (`--input v0=FILE` for a vertex shader, its vertices.bin
checked), and `validate --input` with the same files (agree on lavapipe), with the
refusals: a sampler file with a bad word (its byte offset), a truncated PNG, a vertex
stream of the wrong size or for a pixel shader. SV_InnerCoverage: its translation, the
interpreter's value, the device's refusal without VK_EXT_conservative_rasterization.
Render targets in the new formats (`--target o0=FORMAT`): hand-computed bytes of D3D's
conversions (rounding to nearest even, clamping, sRGB, packed and half floats), both sides.

usage: run_draw_input_cli.py SHADERBRIDGE DRAW_INPUT_SHADERS SCRATCH_DIR
Exit 77 when there is no Vulkan device (run exits 3).
"""
import os
import shutil
import struct
import subprocess
import sys
import zlib

failures = 0
checks = 0


def run(cmd):
    p = subprocess.run(cmd, capture_output=True)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def check(cond, what):
    global failures, checks
    checks += 1
    if not cond:
        failures += 1
        print("FAIL:", what)


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)
    return path


def target(cli, shader, inputs, scratch, name, cpu):
    """Draws 1x1 with `inputs` ({reg: path}); returns o0.bin's bytes, or None. A u# input
    must come back in its u#.bin as given (the shaders only read it)."""
    out = os.path.join(scratch, name + ("-cpu" if cpu else "-gpu"))
    shutil.rmtree(out, ignore_errors=True)
    args = [cli, "run", "--draw", "1x1", "-o", out]
    for reg, path in inputs.items():
        args += ["--input", f"{reg}={path}"]
    args += ["--cpu"] if cpu else []
    rc, stdout, err = run(args + [shader])
    if rc == 3 and not cpu:
        print("no Vulkan device:", err.strip())
        sys.exit(77)
    check(rc == 0, f"{name}{' --cpu' if cpu else ''}: exit {rc}: {err.strip()}")
    for reg, path in inputs.items():
        if reg.startswith("u"):
            with open(path, "rb") as f:
                given = f.read()
            got = open(os.path.join(out, reg + ".bin"), "rb").read() if os.path.exists(
                os.path.join(out, reg + ".bin")) else None
            check(got == given, f"{name}: {reg}.bin is not the given bytes ({len(got or b'')} bytes)")
    try:
        with open(os.path.join(out, "o0.bin"), "rb") as f:
            return f.read()
    except OSError:
        check(False, f"{name}: no o0.bin")
        return None


def dds(dxgi, width, height, mips, data, array_size=1, dimension=3):
    """A DDS file with the DX10 extension (DDS_HEADER, DDS_PIXELFORMAT with FourCC "DX10",
    DDS_HEADER_DXT10) of a texture of `dxgi` format, followed by `data` as given."""
    flags = 0x1 | 0x2 | 0x4 | 0x1000 | (0x20000 if mips > 1 else 0)  # CAPS HEIGHT WIDTH PIXELFORMAT MIPMAPCOUNT
    caps = 0x1000 | (0x400008 if mips > 1 else 0)                     # TEXTURE (MIPMAP COMPLEX)
    pixelformat = struct.pack("<8I", 32, 0x4, 0x30315844, 0, 0, 0, 0, 0)  # DDPF_FOURCC, "DX10"
    header = struct.pack("<7I", 124, flags, height, width, 0, 1, mips) + b"\0" * 44 + pixelformat + \
        struct.pack("<5I", caps, 0, 0, 0, 0)
    dx10 = struct.pack("<5I", dxgi, dimension, 0, array_size, 0)
    return b"DDS " + header + dx10 + data


def png(width, height, rows, depth=8, color_type=6):
    """A PNG file (no gamma chunk) of `rows` (bytes per row, unfiltered)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\0" + r for r in rows)
    header = struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def close(got, expected, tolerance):
    return got is not None and len(got) == len(expected) and all(abs(g - e) <= tolerance for g, e in zip(got, expected))


def inner_coverage(cli, scratch, sh):
    """SV_InnerCoverage (item 4): FullyCoveredEXT in the SPIR-V (spirv-val clean); the
    interpreter's one-pixel points are fully covered (o0.x = 1 + 5); a device without
    VK_EXT_conservative_rasterization for points (lavapipe) refuses the program, naming it, at
    the byte offset of its dcl_input vInnerCoverage (0x80 = 128)."""
    shader = sh("inner_coverage.dxbc")
    text = os.path.join(scratch, "inner_coverage.spvasm")
    rc, _, err = run([cli, "translate", "--validate", "--spirv-text", "-o", text, shader])
    body = open(text).read() if os.path.exists(text) else ""
    check(rc == 0 and "OpCapability FragmentFullyCoveredEXT" in body and "BuiltIn FullyCoveredEXT" in body and
          'OpExtension "SPV_EXT_fragment_fully_covered"' in body, f"inner coverage translation: exit {rc}: {err.strip()}")
    data = target(cli, shader, {}, scratch, "inner-coverage", True)
    got = struct.unpack("<4I", data[:16]) if data and len(data) >= 16 else None
    check(got is not None and got[0] == 6, f"inner coverage --cpu: o0 = {got}, expected x = 6")
    rc, out, err = run([cli, "run", "--draw", "1x1", "-o", os.path.join(scratch, "inner-gpu"), shader])
    if rc == 3:
        check(err.startswith(shader + ":128: error: vInnerCoverage") and "FullyCoveredEXT" in err and
              "VK_EXT_conservative_rasterization" in err and "SB_ERROR_RUN_UNSUPPORTED" in err,
              f"inner coverage without the extension: {err.strip()}")
        rc, out, err = run([cli, "validate", shader])
        check(rc == 3 and out.startswith("not-run") and "VK_EXT_conservative_rasterization" in out and
              "(byte 128)" in out,
              f"validate inner coverage: exit {rc}: {out[:300]}")
    else:  # a device with the extension draws it: fully covered there too
        path = os.path.join(scratch, "inner-gpu", "o0.bin")
        got = struct.unpack("<4I", open(path, "rb").read()[:16]) if rc == 0 and os.path.exists(path) else None
        check(got is not None and got[0] == 6, f"inner coverage on the device: exit {rc}, o0 = {got}")


def target_formats(cli, scratch, sh):
    """--target oN=FORMAT (item 5): render targets in the new formats, written by D3D's
    conversion rules. cb_copy writes cb0[0] = (0.5, 0.25, 1.5, -0.5) to o0; the bytes of a
    2x1 target, worked out by hand, per format (both pixels alike)."""
    cb = write(sh("rt-values.cb"), struct.pack("<4f", 0.5, 0.25, 1.5, -0.5))
    shader = sh("cb_copy.dxbc")
    cases = [
        # 0.5 * 255 = 127.5 -> 128 (nearest even), 63.75 -> 64, 1.5 clamps to 255, -0.5 to 0.
        ("r8g8b8a8_unorm", bytes([0x80, 0x40, 0xFF, 0x00])),
        # 0.5 * 127 = 63.5 -> 64, 31.75 -> 32, 127, -63.5 -> -64 (0xC0).
        ("r8g8b8a8_snorm", bytes([0x40, 0x20, 0x7F, 0xC0])),
        # 32767.5 -> 32768, 16383.75 -> 16384, 65535, 0.
        ("r16g16b16a16_unorm", struct.pack("<4H", 0x8000, 0x4000, 0xFFFF, 0)),
        # r 511.5 -> 512, g 255.75 -> 256, b 1023, a 0: 512 | 256 << 10 | 1023 << 20.
        ("r10g10b10a2_unorm", struct.pack("<I", 512 | 256 << 10 | 1023 << 20)),
        # 11-bit 0.5 = e14 m0 (0x380), 0.25 = e13 (0x340), 10-bit 1.5 = e15 m16 (0x1F0).
        ("r11g11b10_float", struct.pack("<I", 0x380 | 0x340 << 11 | 0x1F0 << 22)),
        ("r16g16b16a16_float", struct.pack("<4H", 0x3800, 0x3400, 0x3E00, 0xB800)),
        ("r16g16_float", struct.pack("<2H", 0x3800, 0x3400)),
        ("r8_unorm", bytes([0x80])),
        # sRGB: 255 * (1.055 * 0.5^(1/2.4) - 0.055) = 187.52 -> 188; 0.25 -> 136.96 -> 137; alpha
        # linear. A device may give 187: D3D allows 0.6 ULP (checked below).
        ("r8g8b8a8_unorm_srgb", bytes([0xBC, 0x89, 0xFF, 0x00])),
        ("b8g8r8a8_unorm_srgb", bytes([0xFF, 0x89, 0xBC, 0x00])),
    ]
    for name, texel in cases:
        want = texel * 2
        want += b"\0" * (-len(want) % 4)  # the resource is rounded up to whole words
        for cpu in ([], ["--cpu"]):
            out = os.path.join(scratch, "rt-" + name + ("-cpu" if cpu else "-gpu"))
            shutil.rmtree(out, ignore_errors=True)
            rc, _, err = run([cli, "run", "--draw", "2x1", "-o", out, "--target", f"o0={name}", "--input",
                              f"cb0={cb}"] + cpu + [shader])
            path = os.path.join(out, "o0.bin")
            got = open(path, "rb").read() if rc == 0 and os.path.exists(path) else None
            ok = got == want
            if not ok and not cpu and got is not None and "srgb" in name and len(got) == len(want):
                # 187.52 -> 187 lies within 0.6 ULP: the one other code D3D accepts.
                ok = all(g == w or (w == 0xBC and g == 0xBB) for g, w in zip(got, want))
            check(ok and os.path.exists(os.path.join(out, "o0.png")),
                  f"--target o0={name}{cpu}: exit {rc}, o0.bin {got.hex() if got else None}, expected {want.hex()} "
                  f"{err.strip()}")
        rc, out, err = run([cli, "validate", "--target", f"o0={name}", "--input", f"cb0={cb}", shader])
        check(rc == 0 and out.startswith("agree"), f"validate --target o0={name}: exit {rc}: {out[:200]}")
    rc, out, err = run([cli, "validate", "--target", "o0=r8_uint", shader])
    check(rc == 3 and "the program writes float, format r8_uint takes uint" in out,
          f"uint target for a float output: exit {rc}: {out[:200]}")
    rc, _, err = run([cli, "run", "--draw", "1x1", "--cpu", "--target", "o0=d16_unorm", shader])
    check(rc == 1 and "format d16_unorm is not a colour format" in err and "SB_ERROR_RUN_BINDING" in err,
          f"depth target: exit {rc}: {err.strip()}")
    rc, _, err = run([cli, "run", "--draw", "1x1", "--target", "o0=r9_unorm", shader])
    check(rc == 2 and "--target wants oN=FORMAT" in err, f"unknown format: exit {rc}: {err.strip()}")
    rc, _, err = run([cli, "run", "--draw", "3", "--target", "o0=r8_unorm", sh("vs_v0_v1.dxbc")])
    check(rc == 2 and "pixel shader" in err, f"--target for a vertex shader: exit {rc}: {err.strip()}")


def samplers_and_streams(cli, scratch, sh):
    """PNG textures through sampler files, vertex streams, validate --input (item 6)."""
    # 4x1 RGBA8: texel 0 (0, 0, 0, 255), texel 1 (100, 50, 200, 255), texel 2 (200, 20, 40, 128),
    # texel 3 (200, 100, 50, 255). Blends below are exact in 8 bits: lavapipe filters unorm8 in
    # 8-bit fixed point (it rounds 127.5 up), the interpreter in float.
    tex = write(sh("row.png"), png(4, 1, [bytes([0, 0, 0, 255, 100, 50, 200, 255, 200, 20, 40, 128,
                                                 200, 100, 50, 255])]))
    # 16-bit grey, 2x1: texel 1 is 0x4000, read as r16g16b16a16_unorm (16384 / 65535, alpha 1).
    grey16 = write(sh("grey16.png"), png(2, 1, [struct.pack(">HH", 0x1234, 0x4000)], depth=16, color_type=0))
    border = write(sh("border.sampler"), b"# point sampling, a border\nfilter = point\naddress = border\n"
                                         b"border_color = 0.25 0.5 0.75 1\n")
    linear = write(sh("linear.sampler"), b"filter=linear\naddress = wrap\n")
    point = write(sh("point.sampler"), b"filter = point\r\naddress = clamp\r\n")
    aniso = write(sh("aniso.sampler"), b"filter = anisotropic\nmax_anisotropy = 4\naddress = wrap\n")
    mirror_once = write(sh("mirror-once.sampler"), b"filter = point\naddress = mirror_once\n")
    mirrored = write(sh("uv-mirrored.cb"), struct.pack("<4f", -0.3, 0.5, 0, 0))
    past_end = write(sh("uv-past-end.cb"), struct.pack("<4f", 1.6, 0.5, 0, 0))
    # cb0[0] = (u, v, lod, 0) of sample_l.
    outside = write(sh("uv-outside.cb"), struct.pack("<4f", -0.25, 0.5, 0, 0))
    between = write(sh("uv-between.cb"), struct.pack("<4f", 0.25, 0.5, 0, 0))     # texel 0 | texel 1, 50/50
    wrapped = write(sh("uv-wrapped.cb"), struct.pack("<4f", 1.0, 0.5, 0, 0))      # wraps to u = 0: blends 3 and 0
    right = write(sh("uv-right.cb"), struct.pack("<4f", 0.75, 0.5, 0, 0))         # texel 1 of 2
    sample = sh("t0_s0_sample_l.dxbc")
    cases = [
        ("border colour", {"t0": tex, "s0": border, "cb0": outside}, (0.25, 0.5, 0.75, 1.0), 0),
        # Linear at u = 1/4: (texel 0 + texel 1) / 2 = (50, 25, 100, 255) / 255.
        ("linear", {"t0": tex, "s0": linear, "cb0": between}, (50 / 255, 25 / 255, 100 / 255, 1.0), 1e-6),
        # Wrapped: u = 1 wraps to 0, between texel 3 and texel 0: (100, 50, 25, 255) / 255.
        ("linear wrap", {"t0": tex, "s0": linear, "cb0": wrapped}, (100 / 255, 50 / 255, 25 / 255, 1.0), 1e-6),
        ("16-bit PNG", {"t0": grey16, "s0": point, "cb0": right}, (16384 / 65535,) * 3 + (1.0,), 1e-6),
        # Mirror once, point: u * 4 = -1.2 -> texel -2 -> mirrored to 1; u * 4 = 6.4 -> 6 -> clamped to 3.
        ("mirror once", {"t0": tex, "s0": mirror_once, "cb0": mirrored}, (100 / 255, 50 / 255, 200 / 255, 1.0),
         1e-6),
        ("mirror once clamp", {"t0": tex, "s0": mirror_once, "cb0": past_end}, (200 / 255, 100 / 255, 50 / 255, 1.0),
         1e-6),
        # An explicit LOD has no footprint: anisotropic filtering takes the one linear sample.
        ("anisotropic", {"t0": tex, "s0": aniso, "cb0": between}, (50 / 255, 25 / 255, 100 / 255, 1.0), 1e-6),
    ]
    for name, inputs, expected, tolerance in cases:
        for cpu in (False, True):
            data = target(cli, sample, inputs, scratch, "sample-" + name.replace(" ", "-"), cpu)
            got = struct.unpack("<4f", data[:16]) if data and len(data) >= 16 else None
            check(close(got, expected, tolerance), f"{name}{' --cpu' if cpu else ''}: o0 = {got}, expected {expected}")
        args = [cli, "validate"] + sum((["--input", f"{r}={p}"] for r, p in inputs.items()), []) + [sample]
        rc, out, err = run(args)
        check(rc == 0 and out.startswith("agree"), f"validate {name}: exit {rc}: {out[:200]} {err.strip()}")

    # Linear filtering of an 8-bit texture: lavapipe filters in 8-bit arithmetic, the interpreter
    # in float; the interpreter's bound (Vulkan's 4-bit minimum of filter-weight precision plus
    # one step of the format) must explain the difference: a verdict of agree or
    # agree-within-precision, never disagree. 16x16, texel (x, y) channel c = (37x + 91y + 53c) % 256.
    pattern = write(sh("pattern.png"), png(16, 16, [bytes((37 * x + 91 * y + 53 * c) % 256 for x in range(16)
                                                          for c in range(4)) for y in range(16)]))
    for u, v in ((0.37, 0.3), (0.1, 0.77), (0.513, 0.5)):
        at = write(sh("uv-filter.cb"), struct.pack("<4f", u, v, 0, 0))
        rc, out, err = run([cli, "validate", "--input", f"t0={pattern}", "--input", f"s0={linear}", "--input",
                            f"cb0={at}", sample])
        check(rc == 0 and (out.startswith("agree ") or out.startswith("agree-within-precision")),
              f"validate linear filtering of an 8-bit PNG at ({u}, {v}): exit {rc}: {out[:300]}")

    # The same texels as r8g8b8a8_unorm_srgb (a DDS): devices approximate the sRGB curve
    # (lavapipe by up to 0.0012), which the interpreter allows half an 8-bit step for, point
    # sampled or filtered.
    srgb = write(sh("pattern-srgb.dds"), dds(29, 16, 16, 1, bytes((37 * x + 91 * y + 53 * c) % 256 for y in range(16)
                                                                  for x in range(16) for c in range(4))))
    for sampler in (point, linear):
        at = write(sh("uv-srgb.cb"), struct.pack("<4f", 0.37, 0.3, 0, 0))
        rc, out, err = run([cli, "validate", "--input", f"t0={srgb}", "--input", f"s0={sampler}", "--input",
                            f"cb0={at}", sample])
        check(rc == 0 and (out.startswith("agree ") or out.startswith("agree-within-precision")),
              f"validate an sRGB DDS through {os.path.basename(sampler)}: exit {rc}: {out[:300]}")

    # A PNG as a UAV's starting texels (a dispatch): texel 0 becomes a copy of texel 1.
    for cpu in ([], ["--cpu"]):
        out = os.path.join(scratch, "u0-png" + ("-cpu" if cpu else "-gpu"))
        shutil.rmtree(out, ignore_errors=True)
        rc, _, err = run([cli, "run", "--dispatch", "1", "-o", out, "--input", f"u0={tex}"] + cpu +
                         [sh("cs_u0_copy.dxbc")])
        path = os.path.join(out, "u0.bin")
        got = open(path, "rb").read() if rc == 0 and os.path.exists(path) else None
        want = bytes([100, 50, 200, 255, 100, 50, 200, 255, 200, 20, 40, 128, 200, 100, 50, 255])
        check(got == want, f"u0 from a PNG{cpu}: exit {rc}, u0.bin {got.hex() if got else None} {err.strip()}")
    rc, out, err = run([cli, "validate", "--input", f"u0={tex}", sh("cs_u0_copy.dxbc")])
    check(rc == 0 and out.startswith("agree"), f"validate u0 from a PNG: exit {rc}: {out[:200]}")

    # A footprint twice as long in x as in y (coordinates from SV_Position): the device filters
    # anisotropically by its own pattern, which the interpreter refuses to guess (not-run).
    position = sh("t0_s0_sample_position.dxbc")
    rc, _, err = run([cli, "run", "--draw", "2x2", "--cpu", "--input", f"t0={tex}", "--input", f"s0={aniso}", position])
    check(rc == 3 and "anisotropic filtering of an anisotropic footprint" in err and "SB_ERROR_RUN_UNSUPPORTED" in err,
          f"anisotropic footprint --cpu: exit {rc}: {err.strip()}")
    rc, out, err = run([cli, "validate", "--input", f"t0={tex}", "--input", f"s0={aniso}", position])
    check(rc == 3 and out.startswith("not-run"), f"validate anisotropic footprint: exit {rc}: {out[:200]}")
    rc, out, err = run([cli, "validate", "--input", f"t0={tex}", "--input", f"s0={linear}", position])
    check(rc == 0 and out.startswith("agree"), f"validate linear footprint: exit {rc}: {out[:200]}")

    # Vertex streams: v0.xyz floats, v1.x uint, 3 vertices; o0 = (v0.xyz, 1), o1.x = v1.x << 1.
    v0 = write(sh("v0.bin"), struct.pack("<9f", 1, 2, 3, 4, 5, 6, 7, 8.5, -9))
    v1 = write(sh("v1.bin"), struct.pack("<3I", 5, 6, 0x80000001))
    vs = sh("vs_v0_v1.dxbc")
    for cpu in ([], ["--cpu"]):
        out = os.path.join(scratch, "vs-streams" + ("-cpu" if cpu else "-gpu"))
        shutil.rmtree(out, ignore_errors=True)
        rc, _, err = run([cli, "run", "--draw", "3", "-o", out, "--input", f"v0={v0}", "--input", f"v1={v1}"] + cpu +
                         [vs])
        check(rc == 0, f"vertex streams{cpu}: exit {rc}: {err.strip()}")
        path = os.path.join(out, "vertices.bin")
        data = open(path, "rb").read() if os.path.exists(path) else b""
        # Records of o0, o1 per vertex (32 bytes); o1.yzw are not written (zero).
        ok = len(data) == 96
        for v, (pos, index) in enumerate([((1, 2, 3), 10), ((4, 5, 6), 12), ((7, 8.5, -9), 2)]):
            ok = ok and struct.unpack_from("<4f", data, 32 * v) == pos + (1.0,) and \
                struct.unpack_from("<I", data, 32 * v + 16)[0] == index
        check(ok, f"vertex streams{cpu}: vertices.bin {data.hex()}")
        rc, _, err = run([cli, "run", "--draw", "4", "--input", f"v0={v0}", "--input", f"v1={v1}"] + cpu + [vs])
        check(rc == 2 and "--input v0=" in err and "takes 4 vertices of 12 bytes (components xyz, 4 bytes each) = "
              "48 bytes, 36 given" in err and "SB_ERROR_BAD_SIZE" in err, f"short stream{cpu}: exit {rc}: {err.strip()}")
        rc, _, err = run([cli, "run", "--draw", "1x1", "--input", f"v0={v0}"] + cpu + [sh("cb_copy.dxbc")])
        check(rc == 2 and "only vertex programs take" in err and "SB_ERROR_RUN_BINDING" in err,
              f"stream for a pixel shader{cpu}: exit {rc}: {err.strip()}")
        rc, _, err = run([cli, "run", "--draw", "3", "--input", f"v2={v0}"] + cpu + [vs])
        check(rc == 2 and "v2 is not an input register the program reads" in err,
              f"stream for v2{cpu}: exit {rc}: {err.strip()}")
        # Sampler and PNG refusals: where the reader stopped.
        bad = write(sh("bad.sampler"), b"filter = point\naddress = wrapp\n")
        rc, _, err = run([cli, "run", "--draw", "1x1", "--input", f"s0={bad}", "--input", f"t0={tex}",
                          "--input", f"cb0={outside}"] + cpu + [sample])
        check(rc == 2 and "bad.sampler:25: error: address takes wrap, mirror, clamp, border, mirror_once, not 'wrapp'" in err and
              "SB_ERROR_BAD_VALUE" in err, f"bad sampler{cpu}: exit {rc}: {err.strip()}")
        short = write(sh("short.png"), open(tex, "rb").read()[:60])
        rc, _, err = run([cli, "run", "--draw", "1x1", "--input", f"t0={short}"] + cpu + [sample])
        check(rc == 2 and "short.png:41: error: PNG: the file ends" in err, f"short PNG{cpu}: exit {rc}: {err.strip()}")
        rc, _, err = run([cli, "run", "--draw", "1x1", "--input", f"t0={tex}"] + cpu + [sh("t0_tex.dxbc")])
        check(rc == 2 and "returns uint, format r8g8b8a8_unorm reads as float" in err,
              f"PNG for a uint texture{cpu}: exit {rc}: {err.strip()}")

    inner_coverage(cli, scratch, sh)

    rc, out, err = run([cli, "validate", "--draw", "3", "--input", f"v0={v0}", "--input", f"v1={v1}", vs])
    check(rc == 0 and out.startswith("agree") and "3 vertices drawn" in out,
          f"validate vertex streams: exit {rc}: {out[:300]} {err.strip()}")
    rc, out, err = run([cli, "validate", "--input", f"v0={v0}", vs])
    check(rc == 1 and out.startswith("error") and "--input v0=" in out and "takes 64 vertices" in out,
          f"validate short stream: exit {rc}: {out[:300]}")
    rc, out, err = run([cli, "validate", "--input", "q0=" + v0, vs])
    check(rc == 2 and "takes cb#, t#, u#, s#" in err, f"validate q0: exit {rc}: {err.strip()}")


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    cli, maker, scratch = sys.argv[1:]
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    rc, _, err = run([maker, scratch])
    if rc != 0:
        print("FAIL: draw_input_shaders:", err.strip())
        return 1
    sh = lambda name: os.path.join(scratch, name)

    # (shader, inputs, expected o0 of the one pixel, unpack format)
    cb_copy = write(sh("copy.cb"), struct.pack("<4f", 1.5, -2.0, 0.25, 8.0))
    # o0 = cb0[0] * cb0[1] + cb0[2]: (1*0.5+10, 2*0.5+20, 3*2+30, 4*-1+40)
    cb_mad = write(sh("mad.cb"), struct.pack("<12f", 1, 2, 3, 4, 0.5, 0.5, 2, -1, 10, 20, 30, 40))
    # o0 = cb0[0] + cb0[3] (uint, wrapping): the full 64 bytes, and only 16 (the rest zero).
    cb_iadd = write(sh("iadd.cb"), struct.pack("<16I", 7, 0xFFFFFFFF, 100, 0x80000000,
                                               *([0xDEAD] * 8), 3, 2, 0x12345678, 0x80000001))
    cb_iadd_short = write(sh("iadd-short.cb"), struct.pack("<4I", 9, 8, 7, 6))
    # o0 = the 4 words at byte 4 of t0 (a raw buffer; 6 bytes past them, rounded up to 4).
    t0 = write(sh("raw.t0"), struct.pack("<6I", 0xAAAAAAAA, 11, 22, 33, 0xFFFFFFF0, 0x5555) + b"\x01\x02")
    u0 = write(sh("raw.u0"), struct.pack("<5I", 1, 2, 0x11111111, 0x22222222, 0x33333333) +
               struct.pack("<i", -5))
    # Texture2D<uint4> t0 as seeded: 16x16 R32G32B32A32_UINT, one level (4096 bytes, exactly).
    # Texel i = y * 16 + x holds (i, 3i, 1000 + i, 0xFFFF0000 | i); (1, 2) is texel 33.
    tex = write(sh("tex.t0"), b"".join(struct.pack("<4I", i, 3 * i, 1000 + i, 0xFFFF0000 | i)
                                        for i in range(256)))
    cases = [
        ("cb_copy", {"cb0": cb_copy}, (1.5, -2.0, 0.25, 8.0), "<4f"),
        ("cb_mad", {"cb0": cb_mad}, (10.5, 21.0, 36.0, 36.0), "<4f"),
        ("cb_iadd", {"cb0": cb_iadd}, (10, 1, 0x12345678 + 100, 1), "<4I"),
        ("cb_iadd", {"cb0": cb_iadd_short}, (9, 8, 7, 6), "<4I"),
        ("t0_raw", {"t0": t0}, (11, 22, 33, 0xFFFFFFF0), "<4I"),
        ("t0_tex", {"t0": tex}, (33, 99, 1033, 0xFFFF0021), "<4I"),
        ("u0_raw", {"u0": u0}, (0x11111111, 0x22222222, 0x33333333, 0xFFFFFFFB), "<4I"),
    ]
    # DDS files (item 6): the texture's format, shape and levels come from the file.
    # R8G8B8A8_UNORM (28), 4x2 with 2 levels: mip 0 is 8 texels of 0x01 bytes, mip 1 (2x1)
    # holds (10, 20, 30, 255) at texel 1, so ld (1, 0) at mip 1 reads (10, 20, 30, 255) / 255.
    rgba8 = dds(28, 4, 2, 2, b"\x01" * 32 + bytes([0, 0, 0, 0, 10, 20, 30, 255]))
    dds_rgba8 = write(sh("rgba8-mips.dds"), rgba8)
    # BC1_UNORM (71), 4x4, one block: color0 0xF800 (red) > color1 0x001F (blue) is 4-colour
    # mode; every index 0 (red) except texel (1, 2), bit pair 2 * (2 * 4 + 1), index 1: blue.
    dds_bc1 = write(sh("bc1.dds"), dds(71, 4, 4, 1, struct.pack("<HHI", 0xF800, 0x001F, 1 << 18)))
    cases += [
        ("t0_f_mip1", {"t0": dds_rgba8}, (10 / 255, 20 / 255, 30 / 255, 1.0), "<4f"),
        ("t0_f_ld12", {"t0": dds_bc1}, (0.0, 0.0, 1.0, 1.0), "<4f"),
    ]
    for k, (shader, inputs, expected, fmt) in enumerate(cases):
        for cpu in (False, True):
            data = target(cli, sh(shader + ".dxbc"), inputs, scratch, f"{shader}-{k}", cpu)
            if data is None:
                continue
            check(len(data) == 16, f"{shader} case {k}: o0.bin is {len(data)} bytes, not 16 (1x1 RGBA32)")
            got = struct.unpack(fmt, data[:16]) if len(data) >= 16 else None
            # Floats: unorm8 decoding is exact to a float's rounding, not to Python's division.
            same = got is not None and all(abs(g - e) <= 1e-6 if fmt == "<4f" else g == e
                                           for g, e in zip(got, expected))
            check(same, f"{shader} case {k}{' --cpu' if cpu else ''}: o0 = {got}, expected {expected}")

    array2 = write(sh("array2.dds"), dds(28, 4, 2, 1, b"\x01" * 64, array_size=2))
    # Refusals, on both sides: nothing is drawn.
    for cpu in ([], ["--cpu"]):
        rc, _, err = run([cli, "run", "--draw", "1x1", "--input", f"cb0={cb_mad}"] + cpu + [sh("cb_copy.dxbc")])
        check(rc == 2 and "--input cb0=" in err and "1 to 16 bytes" in err and "48 given" in err and
              "SB_ERROR_BAD_SIZE" in err, f"oversized cb0{cpu}: exit {rc}: {err.strip()}")
        rc, _, err = run([cli, "run", "--draw", "1x1", "--input", f"t0={cb_copy}"] + cpu + [sh("t0_tex.dxbc")])
        check(rc == 2 and "exactly 4096 bytes" in err and "16 given" in err,
              f"short texture{cpu}: exit {rc}: {err.strip()}")
        rc, _, err = run([cli, "run", "--draw", "1x1", "--input", f"cb1={cb_copy}"] + cpu + [sh("cb_copy.dxbc")])
        check(rc == 2 and "cb1" in err and "not a register the program declares" in err and
              "SB_ERROR_RUN_BINDING" in err, f"undeclared cb1{cpu}: exit {rc}: {err.strip()}")
        rc, _, err = run([cli, "run", "--draw", "1x1", "--input", f"cb0={cb_copy}", "--input", f"cb0={cb_copy}"] + cpu +
                         [sh("cb_copy.dxbc")])
        check(rc == 2 and "both give cb0" in err, f"cb0 twice{cpu}: exit {rc}: {err.strip()}")
        sampler = write(sh("plain.sampler"), b"filter = point\n")
        rc, _, err = run([cli, "run", "--draw", "1x1", "--input", f"s0={sampler}"] + cpu + [sh("cb_copy.dxbc")])
        check(rc == 2 and "s0 (space 0) is not a register the program declares" in err, f"s0{cpu}: exit {rc}: {err.strip()}")
        rc, _, err = run([cli, "run", "--draw", "1x1", "--input", f"x0={cb_copy}"] + cpu + [sh("cb_copy.dxbc")])
        check(rc == 2 and "takes cb#, t#, u#, s#" in err, f"x0{cpu}: exit {rc}: {err.strip()}")
        rc, _, err = run([cli, "run", "--draw", "1x1", "--input", "cb0=" + sh("missing.cb")] + cpu +
                         [sh("cb_copy.dxbc")])
        check(rc == 2 and "missing.cb" in err, f"missing file{cpu}: exit {rc}: {err.strip()}")

        # A dispatch takes the same DDS: u0's first 16 bytes are texel (1, 0) of mip 1.
        out = os.path.join(scratch, "cs-dds" + ("-cpu" if cpu else "-gpu"))
        shutil.rmtree(out, ignore_errors=True)
        rc, _, err = run([cli, "run", "--dispatch", "1,1,1", "-o", out, "--input", f"t0={dds_rgba8}"] + cpu +
                         [sh("cs_t0_mip1.dxbc")])
        check(rc == 0, f"dispatch with DDS{cpu}: exit {rc}: {err.strip()}")
        u0_path = os.path.join(out, "u0.bin")
        got = struct.unpack("<4f", open(u0_path, "rb").read()[:16]) if os.path.exists(u0_path) else None
        check(got is not None and all(abs(g - e) <= 1e-6 for g, e in zip(got, (10 / 255, 20 / 255, 30 / 255, 1.0))),
              f"dispatch with DDS{cpu}: u0 = {got}")
        rc, _, err = run([cli, "run", "--dispatch", "1,1,1", "-o", out, "--input", f"t0={array2}"] + cpu +
                         [sh("cs_t0_mip1.dxbc")])
        check(rc == 2 and "--input t0=" in err and "declared Texture2D, the data is a Texture2DArray" in err,
              f"dispatch with a 2D array{cpu}: exit {rc}: {err.strip()}")

        # DDS refusals: a 2D array for a Texture2D, a float format for a uint texture, a
        # format the runtime has no texture format for, a file cut short.
        rc, _, err = run([cli, "run", "--draw", "1x1", "--input", f"t0={array2}"] + cpu + [sh("t0_f_mip1.dxbc")])
        check(rc == 2 and "declared Texture2D, the data is a Texture2DArray (4x2x1, 2 layers)" in err and
              "SB_ERROR_RUN_BINDING" in err, f"2D array for Texture2D{cpu}: exit {rc}: {err.strip()}")
        rc, _, err = run([cli, "run", "--draw", "1x1", "--input", f"t0={dds_rgba8}"] + cpu + [sh("t0_tex.dxbc")])
        check(rc == 2 and "returns uint, format r8g8b8a8_unorm reads as float" in err,
              f"unorm for uint{cpu}: exit {rc}: {err.strip()}")
        rgb32 = write(sh("rgb32.dds"), dds(6, 1, 1, 1, b"\0" * 12))
        rc, _, err = run([cli, "run", "--draw", "1x1", "--input", f"t0={rgb32}"] + cpu + [sh("t0_f_mip1.dxbc")])
        check(rc == 2 and "DXGI format 6 (R32G32B32_FLOAT) has no texture format" in err,
              f"unmapped format{cpu}: exit {rc}: {err.strip()}")
        short = write(sh("short.dds"), rgba8[:-3])
        rc, _, err = run([cli, "run", "--draw", "1x1", "--input", f"t0={short}"] + cpu + [sh("t0_f_mip1.dxbc")])
        # The reader's message with its byte offset: mip 1's 8 bytes start at 148 + 32 = 180.
        check(rc == 2 and "short.dds:180: error:" in err and "mip 1 needs 8 bytes at offset 180 but only 5 remain" in err,
              f"truncated DDS{cpu}: exit {rc}: {err.strip()}")

    samplers_and_streams(cli, scratch, sh)
    target_formats(cli, scratch, sh)

    print(f"run_draw_input_cli: {checks - failures}/{checks} checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
