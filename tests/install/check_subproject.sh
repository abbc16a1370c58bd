#!/usr/bin/env bash
# Builds a tiny consumer project that takes kstreams as a meson subproject (the source tree linked
# under its subprojects/), as a user vendoring kstreams would, and runs it. kstreams' own tests,
# benchmarks and examples are not built there.
# usage: check_subproject.sh <kstreams source root> <consumer source dir>
set -euo pipefail
source_root=$1 consumer=$2
root=$(mktemp -d "${TMPDIR:-/tmp}/kstreams-subproject.XXXXXX")
trap 'rm -rf "$root"' EXIT

mkdir -p "$root/project/subprojects"
ln -s "$source_root" "$root/project/subprojects/kstreams"
cp "$consumer/main.cpp" "$root/project/"
cat >"$root/project/meson.build" <<'MESON'
project('kstreams_vendoring', 'cpp', default_options: ['cpp_std=c++20'])
executable('consumer', 'main.cpp', dependencies: dependency('kstreams', fallback: 'kstreams'))
MESON
# Unoptimised and without sanitizers (everything is compiled here, the consumer included): this
# checks the subproject wiring, not the code.
meson setup "$root/build" "$root/project" --buildtype=plain \
    >"$root/setup.log" || { cat "$root/setup.log"; exit 1; }
grep -q "Subproject kstreams finished" "$root/setup.log" || { cat "$root/setup.log"; echo "kstreams was not used as a subproject"; exit 1; }
ninja -C "$root/build" consumer >/dev/null
out=$("$root/build/consumer")
[[ $out == "INSTALLED KSTREAMS WORKS" ]] || { echo "subproject consumer printed '$out'"; exit 1; }
echo "subproject consumer: ok"
