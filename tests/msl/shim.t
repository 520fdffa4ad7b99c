#!/bin/sh
# TAP test of the <metal_stdlib> shim and tests/msl/check-msl.sh: the self-test kernel
# passes; shim_negative.metal and every tests/msl/negative/*.metal are rejected with
# the diagnostic named on their "// EXPECT:" line, and pass once their "// MISTAKE"
# line is removed (so each is rejected for that mistake only); the shim's
# implementations run on the CPU. Needs only tests/msl and clang++ (CLANGXX overrides).
msl=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd) || {
    echo "1..0 # SKIP tests/msl not found"
    exit 0
}
CLANGXX=${CLANGXX:-clang++}
if ! command -v "$CLANGXX" >/dev/null 2>&1; then
    echo "1..0 # SKIP $CLANGXX not found"
    exit 0
fi
export CLANGXX

check="$msl/check-msl.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1 # run from elsewhere: the check must find the shim by itself

negatives="$msl/shim_negative.metal"
for f in "$msl"/negative/*.metal; do
    [ -f "$f" ] && negatives="$negatives $f"
done
n_neg=$(echo "$negatives" | wc -w)
echo "1..$((3 + 2 * n_neg))"

t=0
ok() {
    t=$((t + 1))
    echo "ok $t - $1"
}
not_ok() {
    t=$((t + 1))
    echo "not ok $t - $1"
    shift
    for line in "$@"; do
        printf '%s\n' "$line" | sed 's/^/# /'
    done
}

# 1: usage error without files
"$check" >/dev/null 2>&1
rc=$?
if [ $rc -eq 2 ]; then ok "check-msl.sh without files is a usage error"; else not_ok "check-msl.sh without files is a usage error" "exit status $rc"; fi

# 2: the self-test passes
if out=$("$check" "$msl/shim_selftest.metal" 2>&1); then
    ok "shim_selftest.metal passes check-msl.sh"
else
    not_ok "shim_selftest.metal passes check-msl.sh" "$out"
fi

# negatives: rejected for the stated reason, accepted without the MISTAKE line
for f in $negatives; do
    name=${f#"$msl"/}
    expect=$(sed -n 's|^// EXPECT: ||p' "$f" | head -n 1)
    out=$("$check" "$f" 2>&1)
    rc=$?
    if [ $rc -ne 1 ]; then
        not_ok "$name is rejected" "exit status $rc (expected 1)" "$out"
    elif [ -z "$expect" ]; then
        not_ok "$name is rejected" "no // EXPECT: line in the file"
    elif ! printf '%s\n' "$out" | grep -F -q -- "$expect"; then
        not_ok "$name is rejected" "diagnostic lacks: $expect" "$out"
    else
        ok "$name is rejected: $expect"
    fi
    control="$tmp/control_$(basename "$f")"
    grep -v '// MISTAKE' "$f" >"$control"
    if out=$("$check" "$control" 2>&1); then
        ok "$name without its MISTAKE line passes"
    else
        not_ok "$name without its MISTAKE line passes" "$out"
    fi
done

# last: the implementations run (textures, atomics, half, constructors, math)
if out=$("$CLANGXX" -std=c++17 -O1 -Wall -Werror -Wno-unknown-attributes -flax-vector-conversions=none \
    -Xclang -fnative-half-type -Xclang -fnative-half-arguments-and-returns -I"$msl" \
    "$msl/shim_runtime_test.cpp" -o "$tmp/runtime_test" 2>&1) && out=$("$tmp/runtime_test" 2>&1); then
    ok "shim_runtime_test.cpp builds and its checks pass"
else
    not_ok "shim_runtime_test.cpp builds and its checks pass" "$out"
fi
