#!/usr/bin/env bash
# Installs this build into a temporary root (meson install --destdir) and builds a tiny consumer
# project against the installed headers, library and kstreams.pc three ways: g++ with pkg-config,
# a meson project, a CMake project (pkg_check_modules). Each consumer must run and print its line.
# usage: check_install.sh <build dir> <consumer source dir> <b_sanitize value>
set -euo pipefail
build=$1 consumer=$2 sanitize=${3:-none}
root=$(mktemp -d "${TMPDIR:-/tmp}/kstreams-install.XXXXXX")
trap 'rm -rf "$root"' EXIT

meson install -C "$build" --destdir "$root/dest" --no-rebuild --quiet >/dev/null
pc=$(find "$root/dest" -name kstreams.pc -print -quit)
[[ -n $pc ]] || { echo "kstreams.pc was not installed"; exit 1; }
for f in kstreams/topology.hpp kstreams/serde.hpp kstreams/test/topology_test_driver.hpp kstreams/detail/node.hpp; do
    [[ -n $(find "$root/dest" -path "*/include/$f" -print -quit) ]] || { echo "header $f was not installed"; exit 1; }
done
[[ -n $(find "$root/dest" -name 'libkstreams.so*' -print -quit) ]] || { echo "libkstreams was not installed"; exit 1; }
# Private headers stay private.
[[ -z $(find "$root/dest" -name 'stream_task.hpp' -print -quit) ]] || { echo "a private header was installed"; exit 1; }

# The .pc file names the configured prefix; point it at the temporary root, as relocating a
# package does (nothing else in it is changed).
mkdir -p "$root/pc"
prefix=$(sed -n 's/^prefix=//p' "$pc")
sed "s|^prefix=.*|prefix=$root/dest$prefix|" "$pc" >"$root/pc/kstreams.pc"
export PKG_CONFIG_PATH="$root/pc"
libdir=$(dirname "$(find "$root/dest" -name 'libkstreams.so*' -print -quit)")
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# The library carries the build's sanitizers; the consumer must link the same runtimes.
san_flags=()
[[ $sanitize != none && -n $sanitize ]] && san_flags=("-fsanitize=$sanitize")
expected="INSTALLED KSTREAMS WORKS"

check_output() {
    local what=$1 exe=$2 out
    out=$("$exe")
    [[ $out == "$expected" ]] || { echo "$what consumer printed '$out', expected '$expected'"; exit 1; }
    echo "$what consumer: ok"
}

# 1. Plain g++ with pkg-config.
read -r -a pc_flags <<<"$(pkg-config --cflags --libs kstreams)"
g++ -std=c++20 "${san_flags[@]}" "$consumer/main.cpp" -o "$root/plain" "${pc_flags[@]}"
check_output pkg-config "$root/plain"

# 2. A meson project: dependency('kstreams') through pkg-config.
meson setup "$root/meson-build" "$consumer" -Db_sanitize="${sanitize:-none}" >/dev/null
ninja -C "$root/meson-build" >/dev/null
check_output meson "$root/meson-build/consumer"

# 3. A CMake project: pkg_check_modules.
cmake -S "$consumer" -B "$root/cmake-build" -G Ninja -DCMAKE_CXX_FLAGS="${san_flags[*]}" >/dev/null
cmake --build "$root/cmake-build" >/dev/null
check_output cmake "$root/cmake-build/consumer"
