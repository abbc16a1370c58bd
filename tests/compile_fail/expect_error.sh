#!/usr/bin/env bash
# Compile-fail check: the file must compile with -DKSTREAMS_COMPILE_FAIL_CONTROL (so it fails only
# for the reason under test) and must fail without it, with `expected` in the compiler's output.
# usage: expect_error.sh <expected text> <source> <include dir> <compiler command...>
set -uo pipefail
expected=$1 src=$2 inc=$3
shift 3
flags=(-std=c++20 -fsyntax-only -I"$inc")
if ! control=$("$@" "${flags[@]}" -DKSTREAMS_COMPILE_FAIL_CONTROL "$src" 2>&1); then
    echo "the control build of $src failed; the test proves nothing:"
    echo "$control"
    exit 1
fi
if out=$("$@" "${flags[@]}" "$src" 2>&1); then
    echo "$src compiled, but it must not"
    exit 1
fi
if ! grep -qF -- "$expected" <<<"$out"; then
    echo "$src failed to compile, but without the expected message: $expected"
    echo "$out"
    exit 1
fi
echo "$src fails to compile with: $expected"
