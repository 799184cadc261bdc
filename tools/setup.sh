#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# shaderbridge set-up for a fresh Debian 12 machine.
#
#   tools/setup.sh          install what is missing, build the `shaderbridge` program and the
#                           Vulkan layer (no tests), then the main job: a short tour of the
#                           bundled samples/ (info, a reflect excerpt, the SPIR-V of one
#                           sample, the GPU-vs-CPU table of `validate` on lavapipe), with
#                           every full output written under BUILD_DIR/tour/
#   tools/setup.sh test     install what is missing, build everything with -Werror and run
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
          libspirv-cross-c-shared-dev
          mesa-vulkan-drivers vulkan-validationlayers libclang-rt-14-dev
          libvkd3d-dev vkd3d-compiler vulkan-tools xvfb xauth
          llvm-14)  # llvm-dis-14: the oracle of the dxil_writer_llvm_dis test, never linked

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

# The main job builds only what it runs: the CLI and the layer (with the static library
# both link), not the tests. It sets no cache option, and `test` asks for the tests
# itself (-DSB_BUILD_TESTS=ON), so either may follow the other in one BUILD_DIR. The
# build's own output goes to a log; a failed build prints its last lines.
build_main() {
    local log=$build_dir/setup-build.log start=$SECONDS
    mkdir -p "$build_dir"
    echo "== building bin/shaderbridge and the Vulkan layer (log: $(show "$log"))"
    if ! { cmake -S "$here" -B "$build_dir" -DSB_CORPUS_DIR="$corpus" &&
           cmake --build "$build_dir" -j "$jobs" --target shaderbridge_cli VkLayer_shaderbridge; } \
         >"$log" 2>&1; then
        tail -n 30 "$log"
        echo "setup: the build failed; the whole log is $log" >&2
        exit 1
    fi
    echo "   built in $((SECONDS - start)) s"
}

# A path as the tour prints it: relative to the checkout when inside it.
show() {
    echo "${1#"$here"/}"
}

# Prints, indented, COUNT lines of FILE from the first line matching REGEX.
excerpt() {
    awk -v re="$2" -v n="$3" '$0 ~ re { on = 1 } on && n-- > 0' "$1" | sed 's/^/   /'
}

# A tour of samples/: a few lines of each output on the terminal, every full output in
# $tour under the names the tour prints, so the result fits on one screen.
run_main_job() {
    local cli=$build_dir/bin/shaderbridge tour=$build_dir/tour vs=passthrough_vs_4_0
    local samples=("$here"/samples/*.dxbc "$here"/samples/*.shbin "$here"/samples/*.vbc
                   "$here"/samples/dxil/*.dxil)
    # The DXIL sample (dxc-style cs_6_0) goes through the DXIL front end (issue #18).
    local programs=("$here"/samples/*.dxbc "$here"/samples/*.shbin "$here"/samples/dxil/*.dxil)
    rm -rf "$tour"
    mkdir -p "$tour"/reflect "$tour"/disasm "$tour"/spirv "$tour"/validate

    echo "== shaderbridge info samples/*: one line per file"
    (cd "$here" && "$cli" info samples/*.dxbc samples/*.shbin samples/*.vbc samples/dxil/*.dxil) |
        tee "$tour"/info.txt | sed 's/^/   /'

    local f name
    for f in "${samples[@]}"; do
        name=$(basename "${f%.*}")
        "$cli" reflect "$f" >"$tour/reflect/$name.txt"
        "$cli" reflect --json "$f" >"$tour/reflect/$name.json"
    done
    for f in "${programs[@]}"; do
        name=$(basename "${f%.*}")
        "$cli" disasm "$f" >"$tour/disasm/$name.asm"
    done
    local dump=$tour/reflect/$vs.txt
    echo "== shaderbridge reflect samples/$vs.dxbc: two excerpts of its $(wc -l <"$dump") lines"
    echo "   (every sample in full: $(show "$tour")/reflect/NAME.txt, as JSON NAME.json)"
    excerpt "$dump" '^  header:' 10
    echo "   ..."
    excerpt "$dump" '^vulkan_bindings:' 1000

    # Every DXBC and SHBIN sample to SPIR-V, each module checked by SPIRV-Tools' validator.
    "$cli" translate --validate --spirv-text -o "$tour"/spirv/ "${programs[@]}"
    local opt=$tour/spirv/$vs.opt.spvasm
    "$cli" translate --validate -O --spirv-text -o "$opt" "$here/samples/$vs.dxbc"
    echo "== shaderbridge translate --validate -O --spirv-text samples/$vs.dxbc: its function"
    echo "   (whole module: $(show "$opt"); every sample unoptimised: spirv/NAME.spvasm,"
    echo "   its fxc or picasso listing: disasm/NAME.asm, both beside reflect/)"
    excerpt "$opt" ' OpFunction ' 1000

    # The samples on the default device (lavapipe unless SHADERBRIDGE_DEVICE names
    # another), each cross-checked against the CPU interpreter: the compute shaders (the
    # DXIL sample's among them),
    # the D3D vertex shader, and the PICA200 vertex shader bit for bit (float24).
    local status=0
    "$cli" validate --dispatch 4 --output "$tour"/validate "$here"/samples/*_cs_5_0.dxbc \
        "$here"/samples/dxil/*.dxil "$here/samples/$vs.dxbc" "$here"/samples/simple_tri.shbin >"$tour"/validate.txt 2>&1 ||
        status=$?
    echo "== shaderbridge validate: the GPU (lavapipe) against the CPU interpreter"
    echo "   (device, timings and resources per shader: $(show "$tour")/validate.txt)"
    excerpt "$tour"/validate.txt '^shader ' 1000
    if [ "$status" -ne 0 ]; then
        tail -n 20 "$tour"/validate.txt
        echo "setup: validate exited with $status (1: GPU and CPU disagree, 3: could not run," \
             "4: undefined behaviour explains a difference)" >&2
        exit "$status"
    fi
    echo "== done. Full outputs: $(show "$tour")/; the tests: tools/setup.sh test"
}

run_tests() {
    configure_and_build "$build_dir" -DSB_WERROR=ON -DSB_BUILD_TESTS=ON
    (cd "$build_dir" && ctest --output-on-failure -j "$jobs")
    if [ "${SB_SKIP_SANITIZE:-0}" != 1 ]; then
        # The sanitizer pass uses clang when present, which also builds the
        # libFuzzer targets and runs a short fuzzing session for each reader.
        local compiler=() fuzzers=()
        if command -v clang >/dev/null; then
            compiler=(-DCMAKE_C_COMPILER=clang)
            fuzzers=(-DSB_BUILD_FUZZERS=ON)
        fi
        # Debug (assertions on) at -O1, as AddressSanitizer's own documentation advises:
        # its tests run in 485 s instead of 674 s here, for 90 s more of building.
        configure_and_build "$build_dir-asan" -DSB_WERROR=ON -DSB_BUILD_TESTS=ON -DSB_SANITIZE=ON \
            -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_C_FLAGS_DEBUG=-g -O1" "-DCMAKE_CXX_FLAGS_DEBUG=-g -O1" \
            "${compiler[@]}" "${fuzzers[@]}"
        (cd "$build_dir-asan" && ctest --output-on-failure -j "$jobs")
    fi
}

install_packages
case "$mode" in
    main) build_main; run_main_job ;;
    test) run_tests ;;
    *) echo "usage: tools/setup.sh [main|test]" >&2; exit 2 ;;
esac
