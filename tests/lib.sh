# lib.sh: a few TAP helpers for the shell tests. Source it; set `plan` first.
# The checkout holding the test (tests/KERNEL/NAME.t or deeper): its build/ by default.
SPDGEN_ROOT=$(cd "$(dirname "$0")" && while [ ! -f tests/lib.sh ] && [ "$PWD" != / ]; do cd ..; done && pwd)
SPDGEN_BUILD=${SPDGEN_BUILD:-$SPDGEN_ROOT/build}
SPDGEN="$SPDGEN_BUILD/spdgen"
TAP_N=0
TAP_FAILED=0
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

ok() { # ok CONDITION_EXIT_CODE DESCRIPTION
    TAP_N=$((TAP_N + 1))
    if [ "$1" -eq 0 ]; then echo "ok $TAP_N - $2"; else echo "not ok $TAP_N - $2"; TAP_FAILED=$((TAP_FAILED + 1)); fi
}
diag() { printf '%s\n' "$@" | sed 's/^/# /'; }
done_testing() { echo "1..$TAP_N"; [ "$TAP_FAILED" -eq 0 ]; }
# regenerate_command FILE: the command a generated file names (a shader's "    spdgen" line in
# its block comment, a C header's " *   spdgen" or a plan's "#   spdgen" line, and the lines
# its " \\" continues), as one line.
regenerate_command() {
    mark=''
    case "$1" in *.h) mark=' \\*' ;; *.fftplan | *.convplan) mark='#' ;; esac
    awk -v m="$mark" '$0 ~ "^" m "   *spdgen " {on=1} on {line=$0; sub("^" m " +", "", line);
        more=sub(/ \\$/, "", line); printf "%s%s", sep, line; sep=" "; if (!more) { print ""; exit }}' "$1"
}
# long_lines FILE...: every line longer than 100 columns, as FILE:LINE: text (none: silent).
long_lines() { awk 'length > 100 { print FILENAME ":" FNR ": " $0 }' "$@"; }
