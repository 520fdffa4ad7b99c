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

# msl_build LOG TARGET...: builds with tests/msl/msl.mk into $MSL_BUILD (MSL_JOBS make jobs, 2
# unless set); on failure one "not ok" with the end of the log, and status 1.
msl_build() {
    msl_log=$1
    shift
    if make -s -j"${MSL_JOBS:-2}" -f "$MSL_DIR/msl.mk" B="$MSL_BUILD" SPDGEN_BUILD="$SPDGEN_BUILD" "$@" >"$msl_log" 2>&1; then
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

# msl_fft_mutant C WHICH LINE EDIT FLAGS COUNT RUNS WHAT: kernel C's MSL (under
# $MSL_BUILD/fft, configuration FLAGS) with the awk program EDIT applied at LINE, built and
# run on COUNT FFTs in each dispatch of RUNS (fft_msl --runs): one TAP line, passing only if
# a dispatch fails (the mutant WHAT is caught).
msl_fft_mutant() {
    m_c=$1 m_which=$2 m_line=$3 m_edit=$4 m_flags=$5 m_count=$6 m_runs=$7 m_what=$8
    if [ -z "$m_line" ]; then
        ok 1 "mutant: $m_c has nothing to change for $m_which"
        return
    fi
    m_dir="$MSL_BUILD/mutant/$m_c-$m_which"
    mkdir -p "$m_dir"
    awk -v n="$m_line" "$m_edit" "$MSL_BUILD/fft/$m_c/kernel.metal" >"$m_dir/kernel.new"
    # Replaced only when changed, so that make reuses the last build.
    cmp -s "$m_dir/kernel.new" "$m_dir/kernel.metal" || mv "$m_dir/kernel.new" "$m_dir/kernel.metal"
    cmp -s "$MSL_BUILD/fft/$m_c/contract.h" "$m_dir/contract.h" ||
        cp "$MSL_BUILD/fft/$m_c/contract.h" "$m_dir/contract.h"
    msl_build "$WORK/mutant.log" "$m_dir/fft_msl" || return
    timeout 600 "$m_dir/fft_msl" --config "$m_flags" --label "mutant $m_which" --count "$m_count" \
        --runs "$m_runs" >"$WORK/mutant.out" 2>&1
    m_failed=$(grep -c '^not ok' "$WORK/mutant.out")
    m_runs_n=$(echo "$m_runs" | tr ',' '\n' | grep -c .)
    [ "$m_failed" -gt 0 ]
    ok $? "mutant: $m_c with $m_what (line $m_line) fails ($m_failed of $m_runs_n dispatches)"
    grep '^not ok' -A1 "$WORK/mutant.out" | cut -c1-300 | sed 's/^/# /'
}
