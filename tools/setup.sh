#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# shaderbridge set-up for a fresh Debian 12 machine.
#
#   tools/setup.sh          install what is missing, build, run the main job
#                           (info, reflect and translate over the bundled samples/,
#                           then the compute samples run on lavapipe and checked
#                           against the CPU interpreter)
#   tools/setup.sh test     install what is missing, build with -Werror and run
#                           the test suite, then the same suite under ASan+UBSan
#
# Environment: BUILD_DIR (default build), JOBS (default: nproc),
# SB_CORPUS_DIR (default ../shared/corpus beside the checkout),
# SB_SKIP_SANITIZE=1 skips the sanitizer pass of `test`.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode=${1:-main}
build_dir=${BUILD_DIR:-$here/build}
jobs=${JOBS:-$(nproc)}
corpus=${SB_CORPUS_DIR:-$here/../shared/corpus}

packages=(cmake gcc g++ clang make pkg-config libjson-c-dev libpng-dev python3 python3-yaml
          libvulkan-dev libvulkan-volk-dev spirv-tools spirv-headers glslang-tools
          mesa-vulkan-drivers vulkan-validationlayers libclang-rt-14-dev
          libvkd3d-dev vkd3d-compiler vulkan-tools xvfb xauth)

install_packages() {
    local missing=()
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
            missing+=("$p")
    done
    if [ ${#missing[@]} -eq 0 ] && [ "${CI:-}" != "true" ]; then
        return
    fi
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    echo "setup: installing ${missing[*]:-(CI: refreshing) ${packages[*]}}"
    "${sudo[@]}" apt-get update
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends \
        "${packages[@]}"
}

configure_and_build() {
    local dir=$1; shift
    cmake -S "$here" -B "$dir" -DSB_CORPUS_DIR="$corpus" "$@"
    cmake --build "$dir" -j "$jobs"
}

run_main_job() {
    local cli=$build_dir/bin/shaderbridge
    echo "== shaderbridge info samples/*"
    "$cli" info "$here"/samples/*.dxbc "$here"/samples/*.shbin "$here"/samples/*.vbc
    for f in "$here"/samples/*.dxbc "$here"/samples/*.shbin "$here"/samples/*.vbc; do
        echo "== shaderbridge reflect $(basename "$f")"
        "$cli" reflect "$f"
    done
    local sample=$here/samples/passthrough_vs_4_0.dxbc
    echo "== shaderbridge translate --validate --spirv-text $(basename "$sample")"
    "$cli" translate --validate --spirv-text "$sample"
    echo "== shaderbridge disasm $(basename "$here"/samples/simple_tri.shbin) (picasso syntax)"
    "$cli" disasm "$here"/samples/simple_tri.shbin
    # The samples on the default device (lavapipe unless SHADERBRIDGE_DEVICE names
    # another), each cross-checked against the CPU interpreter: the compute shaders,
    # the D3D vertex shader, and the PICA200 vertex shader bit for bit (float24).
    echo "== shaderbridge validate samples/*_cs_5_0.dxbc passthrough_vs_4_0.dxbc simple_tri.shbin"
    "$cli" validate --dispatch 4 "$here"/samples/*_cs_5_0.dxbc "$here"/samples/passthrough_vs_4_0.dxbc \
        "$here"/samples/simple_tri.shbin
}

run_tests() {
    configure_and_build "$build_dir" -DSB_WERROR=ON
    (cd "$build_dir" && ctest --output-on-failure -j "$jobs")
    if [ "${SB_SKIP_SANITIZE:-0}" != 1 ]; then
        # The sanitizer pass uses clang when present, which also builds the
        # libFuzzer targets and runs a short fuzzing session for each reader.
        local compiler=() fuzzers=()
        if command -v clang >/dev/null; then
            compiler=(-DCMAKE_C_COMPILER=clang)
            fuzzers=(-DSB_BUILD_FUZZERS=ON)
        fi
        configure_and_build "$build_dir-asan" -DSB_WERROR=ON -DSB_SANITIZE=ON \
            -DCMAKE_BUILD_TYPE=Debug "${compiler[@]}" "${fuzzers[@]}"
        (cd "$build_dir-asan" && ctest --output-on-failure -j "$jobs")
    fi
}

install_packages
case "$mode" in
    main) configure_and_build "$build_dir"; run_main_job ;;
    test) run_tests ;;
    *) echo "usage: tools/setup.sh [main|test]" >&2; exit 2 ;;
esac
