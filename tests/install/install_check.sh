#!/usr/bin/env bash
# Installs the build into a scratch prefix and builds two consumers against it:
# one through find_package(shaderbridge), one through pkg-config.
# usage: install_check.sh BUILD_DIR SOURCE_DIR SCRATCH SAMPLE
set -euo pipefail
build=$1 src=$2 scratch=$3 sample=$4
rm -rf "$scratch" && mkdir -p "$scratch"
prefix=$scratch/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
for f in include/shaderbridge/reflect.h include/shaderbridge/dxbc.h bin/shaderbridge \
         lib/pkgconfig/shaderbridge.pc lib/cmake/shaderbridge/shaderbridgeConfig.cmake; do
    found=$(cd "$prefix" && ls -d $f lib/*/${f#lib/} 2>/dev/null | head -n1 || true)
    [ -n "$found" ] || { echo "FAIL: $f not installed"; exit 1; }
done
ls "$prefix"/lib*/libshaderbridge.so* "$prefix"/lib*/*/libshaderbridge.so* >/dev/null 2>&1 ||
    ls "$prefix"/lib/libshaderbridge.so >/dev/null
cmake -S "$src/tests/install/consumer" -B "$scratch/consumer" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$scratch/consumer" >/dev/null
out=$("$scratch/consumer/consumer" "$sample")
expected=$'parts=5 checksum_ok=1\nstage=vertex spirv_magic=1'
[ "$out" = "$expected" ] || { echo "FAIL: consumer printed '$out'"; exit 1; }
pc=$( (ls "$prefix"/lib*/pkgconfig/shaderbridge.pc "$prefix"/lib/*/pkgconfig/shaderbridge.pc 2>/dev/null || true) | head -n1)
export PKG_CONFIG_PATH=$(dirname "$pc")
cc $(pkg-config --cflags shaderbridge) "$src/tests/install/consumer/consumer.c" \
   -o "$scratch/consumer_pc" $(pkg-config --libs shaderbridge) -Wl,-rpath,"$(pkg-config --variable=libdir shaderbridge)"
out=$("$scratch/consumer_pc" "$sample")
[ "$out" = "$expected" ] || { echo "FAIL: pkg-config consumer printed '$out'"; exit 1; }
# What was installed is only the public API: the shared library exports exactly the
# functions of the installed headers, none of which includes an internal header, and
# each installed header compiles on its own.
lib=$( (ls "$prefix"/lib*/libshaderbridge.so "$prefix"/lib/*/libshaderbridge.so 2>/dev/null || true) | head -n1)
python3 "$src/tests/api/check_public_api.py" "$lib" "$prefix/include"
for h in "$prefix"/include/shaderbridge/*.h; do
    printf '#include <shaderbridge/%s>\n' "$(basename "$h")" |
        cc -std=c17 -Wall -Wextra -Werror -I"$prefix/include" -x c -fsyntax-only - ||
        { echo "FAIL: $(basename "$h") does not compile on its own"; exit 1; }
done
"$prefix/bin/shaderbridge" info "$sample" >/dev/null
echo "install: headers, libraries, program, pkg-config and CMake package work; only the public API is installed and exported"
