/* SPDX-License-Identifier: MIT */
/*
 * `shaderbridge`: command-line front end. Each subcommand lives in its own
 * cmd_<name>.c (commands.h); this file only dispatches and prints usage, and
 * is the top of the program: nothing calls into it.
 */
#include "commands.h"

#include <string.h>

static const char usage_text[] =
    "usage: shaderbridge <command> [options] FILE...\n"
    "\n"
    "commands:\n"
    "  info FILE...               one line per file: format, stage, parts, checksum\n"
    "  reflect [--json] [--target T [--VERSION-OPTION V]] [--unbounded-descriptors N]\n"
    "          [--device-profile lavapipe|FILE.json] FILE\n"
    "                             everything decoded from one file (text or JSON);\n"
    "                             --target glsl|essl|msl|hlsl adds to vulkan_bindings\n"
    "                             what each binding and location became in that text;\n"
    "                             --unbounded-descriptors N, --device-profile P: the\n"
    "                             bindings of a translation with those options\n"
    "  disasm [--offsets] [--no-header] FILE\n"
    "                             the SM4/5 program of a DXBC file in fxc's syntax,\n"
    "                             or a PICA200 SHBIN in picasso syntax\n"
    "  assemble [-o OUT] FILE.pica\n"
    "                             picasso-syntax PICA200 assembly to a SHBIN file\n"
    "                             (default OUT: FILE with .shbin)\n"
    "  translate [-o OUT] [--target-env vulkan1.0|vulkan1.1|vulkan1.2|vulkan1.3]\n"
    "            [-g] [-O] [--validate] [--spirv-text] [--jobs N]\n"
    "            [--unbounded-descriptors N] [--device-profile lavapipe|FILE.json]\n"
    "            [--target spirv|glsl|essl|msl|hlsl]\n"
    "            [--glsl-version 450] [--essl-version 310] [--msl-version 2.1]\n"
    "            [--hlsl-shader-model 50] FILE...\n"
    "                             DXBC (SM4/5) to SPIR-V (default vulkan1.1); -g debug\n"
    "                             names and OpLine = DXBC byte offset, -O SPIRV-Tools\n"
    "                             performance passes, --validate run spirv-val's checks,\n"
    "                             --spirv-text spirv-dis text. One FILE: output to OUT or\n"
    "                             stdout (binary never to a terminal). Several FILEs (or\n"
    "                             OUT an existing directory): OUT is a directory, created\n"
    "                             if missing, holding NAME.spv (.spvasm) per input;\n"
    "                             --jobs N translates in N threads;\n"
    "                             --unbounded-descriptors N: unbounded SM5.1 ranges as\n"
    "                             arrays of N descriptors (no runtimeDescriptorArray);\n"
    "                             --device-profile: fallbacks for what the device lacks\n"
    "                             (lavapipe, or JSON: features shaderResourceMinLod,\n"
    "                             shaderStorageImageReadWithoutFormat, ...);\n"
    "                             --target: GLSL (Vulkan semantics), ESSL, MSL or HLSL\n"
    "                             text through SPIRV-Cross (NAME.glsl, .essl, .metal,\n"
    "                             .hlsl in a directory), versions by the options above\n"
    "  run [--dispatch X,Y,Z | --draw N|WxH] [--input REG=FILE]... [--output DIR]\n"
    "      [--target oN=FORMAT]... [--cpu] [--seed N] [--device D] FILE\n"
    "                             run a shader on the GPU (--cpu: the CPU\n"
    "                             interpreter); inputs not given are seeded; UAVs are\n"
    "                             written to DIR/REG.bin (u0.bin ...), 2D ones also\n"
    "                             as DIR/REG.png. Vertex, pixel, geometry, hull and\n"
    "                             domain shaders draw (--draw N vertices, primitives\n"
    "                             or patches, WxH pixels): DIR/vertices.{bin,txt},\n"
    "                             oN.{bin,png}, gs-vertices.{bin,txt},\n"
    "                             hs-patches.{bin,txt}, ds-points.{bin,txt} (domain\n"
    "                             points and outputs); a draw's --input takes cb#,\n"
    "                             t#, u# (a constant buffer up to its declared size,\n"
    "                             a texture exactly its size). --input tN=FILE.dds\n"
    "                             or FILE.png (uN= too; draws and dispatches) takes\n"
    "                             the file's format, shape and levels; it must fit the\n"
    "                             declaration (dimension, return type). --input\n"
    "                             sN=FILE: a sampler as lines of 'key = value'\n"
    "                             (filter, min_filter, mag_filter, mip_filter:\n"
    "                             point|linear|anisotropic; address, address_u/v/w:\n"
    "                             wrap|mirror|clamp|border|mirror_once; border_color\n"
    "                             R G B A; comparison never|less|...; mip_lod_bias,\n"
    "                             min_lod, max_lod; max_anisotropy 1-16; '#' comments;\n"
    "                             tools/shaderbridge/README.md). --input vN=FILE\n"
    "                             (vertex shaders): per vertex, the components the\n"
    "                             shader reads from vN, 4 bytes each in their declared\n"
    "                             type, packed; --draw N vertices. --target oN=FORMAT\n"
    "                             (pixel shaders, run and validate): render target N\n"
    "                             in FORMAT (r8g8b8a8_unorm_srgb, r10g10b10a2_unorm,\n"
    "                             r11g11b10_float, r16g16_float, ...; default\n"
    "                             r32g32b32a32 of the output's type).\n"
    "                             SHBIN: --dvle N (entry point, default 0), --pica-fast\n"
    "                             (float32 mode; default float24-exact, compared bit\n"
    "                             for bit)\n"
    "  validate [--json] [--seed N] [--dispatch X,Y,Z] [--draw N|WxH] [--ulps N]\n"
    "           [--explain-precision N] [--device D] [--dvle N] [--pica-fast]\n"
    "           [--output DIR] [--input REG=FILE]... [--target oN=FORMAT]...\n"
    "           [--spirv MODULE.spv [--bindings MAP.json]] FILE...\n"
    "                             run compute, vertex, pixel, geometry, hull or domain\n"
    "                             shaders on the GPU and on the CPU interpreter with the\n"
    "                             same seeded inputs (--input REG=FILE replaces them as\n"
    "                             for 'run': cb#, t#, u#, s#, v#) and compare every UAV\n"
    "                             word and output (vertex outputs, render targets,\n"
    "                             emitted vertices, control points and patch constants,\n"
    "                             domain shader outputs; points, one pixel each). One\n"
    "                             line per FILE, verdict first: agree,\n"
    "                             agree-within-precision (inside the bounds Vulkan\n"
    "                             allows), undefined (a race or undefined read, named),\n"
    "                             not-run (the missing feature named), disagree (each\n"
    "                             differing word listed), error (invalid input); a\n"
    "                             table for several files. --json: one document,\n"
    "                             {\"results\": [one object per FILE]} (README.md).\n"
    "                             Exit 1 if any disagrees or is invalid, else 4 if any\n"
    "                             is undefined, else 3 if any did not run, else 0.\n"
    "                             --ulps N: an explicit tolerance (floats within N ULPs\n"
    "                             agree; reported as an override); --explain-precision\n"
    "                             N: how many differing words +-N ULPs in the\n"
    "                             approximated operations explain; --output DIR:\n"
    "                             differing 2D images as PNG (gpu, cpu, difference).\n"
    "                             Device: --device, SHADERBRIDGE_DEVICE, else lavapipe.\n"
    "                             --spirv: the GPU runs MODULE.spv (compute, vertex,\n"
    "                             pixel; one FILE) instead of shaderbridge's translation,\n"
    "                             the interpreter still FILE; its resources at the\n"
    "                             default bindings ('reflect --json': vulkan_bindings) or\n"
    "                             where --bindings MAP.json (that listing, edited) puts them\n"
    "  validate [--json] [--seed N] [--dispatch X,Y,Z] [--draw N|WxH] [--ulps N]\n"
    "           [--device D] --reference OTHER FILE\n"
    "                             FILE against OTHER (a dxc port against its fxc original,\n"
    "                             any DXBC/DXIL/SHBIN pair of one stage): both run on the\n"
    "                             interpreter with the same inputs (registers by class,\n"
    "                             register and space; vertex and pixel inputs and outputs\n"
    "                             by semantic), every UAV word and output compared; the\n"
    "                             verdict names the first differing word and both values,\n"
    "                             or the interfaces' difference. With a device each also\n"
    "                             runs GPU against CPU. Exit status as for validate.\n"
    "  help                       this text\n"
    "  version                    print the version\n"
    "\n"
    "FILE may be '-' for standard input. Exit status: 0 success, 1 invalid input\n"
    "(reported as FILE:OFFSET: error: ...), 2 usage error, 3 (run, validate) the\n"
    "shader could not be run, 4 (validate) undefined behaviour explains a difference.\n";

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage_text, stderr);
        return CLI_EXIT_USAGE;
    }
    const char *command = argv[1];
    if (!strcmp(command, "info"))
        return cli_cmd_info(argc - 1, argv + 1);
    if (!strcmp(command, "reflect"))
        return cli_cmd_reflect(argc - 1, argv + 1);
    if (!strcmp(command, "disasm"))
        return cli_cmd_disasm(argc - 1, argv + 1);
    if (!strcmp(command, "assemble"))
        return cli_cmd_assemble(argc - 1, argv + 1);
    if (!strcmp(command, "translate"))
        return cli_cmd_translate(argc - 1, argv + 1);
    if (!strcmp(command, "run"))
        return cli_cmd_run(argc - 1, argv + 1);
    if (!strcmp(command, "validate"))
        return cli_cmd_validate(argc - 1, argv + 1);
    if (!strcmp(command, "help") || !strcmp(command, "--help") || !strcmp(command, "-h")) {
        fputs(usage_text, stdout);
        return CLI_EXIT_OK;
    }
    if (!strcmp(command, "version") || !strcmp(command, "--version")) {
        printf("shaderbridge %d.%d.%d\n", SB_VERSION / 10000, SB_VERSION / 100 % 100,
               SB_VERSION % 100);
        return CLI_EXIT_OK;
    }
    cli_usage_error("unknown command '%s'", command);
    return CLI_EXIT_USAGE;
}
