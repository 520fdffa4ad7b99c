# tap.sh: sourced by the MSL tests (tests/msl/*.t, tests/dmap/msl.t) after tests/lib.sh. The
# executor's programs print unnumbered TAP lines ("ok - ...", "not ok - ...",
# "ok # SKIP ...") and "# ..." comments; msl_run numbers them in the .t's sequence (lib.sh's
# TAP_N, TAP_FAILED) and adds a failure when the program itself fails, so that a crash or a
# hang (cut by timeout) never passes silently.

# msl_run WHAT COMMAND...: runs COMMAND (at most MSL_TIMEOUT seconds) and passes its TAP on.
msl_run() {
    msl_what=$1
    shift
    timeout "${MSL_TIMEOUT:-600}" "$@" >"$WORK/msl_run.out" 2>&1
    msl_rc=$?
    awk -v n="$TAP_N" '
        /^(not )?ok / { n++; sub(/ok /, "ok " n " "); print; next }
        /^#/ { print; next }
        { print "# " $0 }
        END { print n >"/dev/stderr" }' "$WORK/msl_run.out" 2>"$WORK/msl_run.n"
    TAP_N=$(cat "$WORK/msl_run.n")
    TAP_FAILED=$((TAP_FAILED + $(grep -c '^not ok' "$WORK/msl_run.out")))
    if [ $msl_rc -ne 0 ]; then
        ok 1 "$msl_what: exited with status $msl_rc"
    fi
}

# msl_build LOG TARGET...: builds with tests/msl/msl.mk into $MSL_BUILD; on failure one
# "not ok" with the end of the log, and status 1.
msl_build() {
    msl_log=$1
    shift
    if make -s -j2 -f "$MSL_DIR/msl.mk" B="$MSL_BUILD" SPDGEN_BUILD="$SPDGEN_BUILD" "$@" >"$msl_log" 2>&1; then
        return 0
    fi
    ok 1 "build with tests/msl/msl.mk"
    diag "$(tail -n 30 "$msl_log")"
    return 1
}

# msl_need_tools: the whole file skips (TAP 1..0) where clang++, Lua or make is missing.
msl_need_tools() {
    for tool in "${CLANGXX:-clang++}" "${LUA:-lua5.4}" make; do
        if ! command -v "$tool" >/dev/null 2>&1; then
            echo "1..0 # SKIP $tool not installed"
            exit 0
        fi
    done
}
