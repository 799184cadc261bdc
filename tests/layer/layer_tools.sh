#!/bin/sh
# SPDX-License-Identifier: MIT
# Programs we did not write, run with VK_LAYER_SHADERBRIDGE_translate enabled
# through the real loader (issue #7 §4, layer/README.md §Enabling):
#   vulkaninfo   MANIFEST_DIR            vulkaninfo with the layer above the validation layer
#                                        (VK_INSTANCE_LAYERS), and again enabled by
#                                        VK_LOADER_LAYERS_ENABLE: exit 0, layer listed and
#                                        loaded, zero validation errors
#   vkcube       MANIFEST_DIR            xvfb-run -a vkcube --c 50 with the layer and the
#                                        validation layer: exit 0, layer loaded, zero
#                                        "Validation Error" lines
#   install      BUILD_DIR TMP_DIR       cmake --install --component layer into TMP_DIR, then
#                                        vulkaninfo finds and loads the installed layer
# Exit 0 pass, 1 fail, 77 when a program is missing.
set -u
mode=$1
layer=VK_LAYER_SHADERBRIDGE_translate
validation=VK_LAYER_KHRONOS_validation
out=${TMPDIR:-/tmp}/sb_layer_tools.$$
trap 'rm -f "$out"' EXIT

need() {
    for p in "$@"; do
        if ! command -v "$p" >/dev/null 2>&1; then
            echo "SKIPPED: $p not found (Debian: vulkan-tools xvfb xauth)"
            exit 77
        fi
    done
}

fail() {
    echo "FAIL: $*"
    echo "---- output (last 60 lines)"
    tail -n 60 "$out"
    exit 1
}

# check WHAT RC: exit status 0, the layer loaded, no validation errors
check() {
    [ "$2" -eq 0 ] || fail "$1 exited with $2"
    grep -q "shaderbridge-layer: info: instance created" "$out" || fail "$1: the layer did not load"
    n=$(grep -c "Validation Error" "$out")
    [ "$n" -eq 0 ] || fail "$1: $n validation errors"
    echo "ok: $1"
}

export SHADERBRIDGE_LAYER_LOG=info
case "$mode" in
vulkaninfo)
    need vulkaninfo
    export VK_ADD_LAYER_PATH=$2
    VK_INSTANCE_LAYERS=$layer:$validation vulkaninfo >"$out" 2>&1
    check "vulkaninfo (VK_INSTANCE_LAYERS)" $?
    grep -q "$layer" "$out" || fail "vulkaninfo does not list $layer"
    VK_LOADER_LAYERS_ENABLE="*SHADERBRIDGE*" vulkaninfo --summary >"$out" 2>&1
    check "vulkaninfo --summary (VK_LOADER_LAYERS_ENABLE)" $?
    ;;
vkcube)
    need vkcube xvfb-run xauth
    export VK_ADD_LAYER_PATH=$2
    VK_INSTANCE_LAYERS=$layer:$validation xvfb-run -a vkcube --c 50 >"$out" 2>&1
    check "xvfb-run -a vkcube --c 50" $?
    grep -q "shaderbridge-layer: info: device created" "$out" || fail "vkcube: no device through the layer"
    ;;
install)
    need vulkaninfo
    rm -rf "$3"
    cmake --install "$2" --component layer --prefix "$3" >"$out" 2>&1 || fail "cmake --install"
    manifest=$(find "$3" -name VkLayer_shaderbridge.json)
    [ -n "$manifest" ] || fail "no manifest installed under $3"
    case "$manifest" in */share/vulkan/explicit_layer.d/VkLayer_shaderbridge.json) ;;
        *) fail "manifest at $manifest, not share/vulkan/explicit_layer.d" ;; esac
    lib=$(sed -n 's/.*"library_path": "\(.*\)".*/\1/p' "$manifest")
    [ -f "$(dirname "$manifest")/$lib" ] || fail "library_path $lib does not resolve from the manifest"
    VK_ADD_LAYER_PATH=$(dirname "$manifest") VK_INSTANCE_LAYERS=$layer vulkaninfo --summary >"$out" 2>&1
    check "installed layer (vulkaninfo --summary)" $?
    ;;
*)
    echo "usage: layer_tools.sh vulkaninfo|vkcube MANIFEST_DIR | install BUILD_DIR TMP_DIR"
    exit 2
    ;;
esac
exit 0
