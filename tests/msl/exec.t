#!/bin/sh
# The MSL CPU executor (tests/msl/exec) tested on its own: the self-test kernels of
# tests/msl/selftest run with both fiber implementations (x86-64 assembly and ucontext),
# and kernel-attrs.lua refuses a kernel it cannot bind. What the executor proves and what
# it cannot: tests/msl/README.md. Builds into $SPDGEN_BUILD/msl/exec (kept between runs).
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
MSL_DIR="$here"
MSL_BUILD="$SPDGEN_BUILD/msl/exec"
. "$MSL_DIR/tap.sh"
LUA=${LUA:-lua5.4}

msl_need_tools

if msl_build "$WORK/build.log" "$MSL_BUILD/exec/selftest" "$MSL_BUILD/exec/selftest-ucontext"; then
    msl_run "selftest" "$MSL_BUILD/exec/selftest" "$MSL_DIR/selftest"
    msl_run "selftest-ucontext" "$MSL_BUILD/exec/selftest-ucontext" "$MSL_DIR/selftest"
fi

# kernel-attrs.lua: a parameter without an attribute cannot be bound; the error names it.
cat >"$WORK/unbound.metal" <<'METAL'
kernel void unbound(device float* out [[buffer(0)]], uint n) { out[0] = float(n); }
METAL
"$LUA" "$MSL_DIR/exec/kernel-attrs.lua" "$WORK/unbound.metal" >/dev/null 2>"$WORK/err"
rc=$?
[ $rc -eq 1 ] && grep -q "parameter n of unbound needs exactly one attribute" "$WORK/err"
ok $? "kernel-attrs.lua refuses a parameter without an attribute (exit $rc)"
diag "$(cat "$WORK/err")"
done_testing
