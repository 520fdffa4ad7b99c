# lib.sh: a few TAP helpers for the shell tests. Source it; set `plan` first.
SPDGEN_BUILD=${SPDGEN_BUILD:-$(cd "$(dirname "$0")/.." && pwd)/build}
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
# regenerate_command [FILE]: the command an emitted shader's header names (its "//   spdgen"
# line and the lines its " \" continues), as one line.
regenerate_command() {
    awk '/^\/\/   spdgen /{on=1} on{line=$0; sub(/^\/\/ +/, "", line); more=sub(/ \\$/, "", line);
        printf "%s%s", sep, line; sep=" "; if (!more) { print ""; exit }}' "$@"
}
# long_lines FILE...: every line longer than 100 columns, as FILE:LINE: text (none: silent).
long_lines() { awk 'length > 100 { print FILENAME ":" FNR ": " $0 }' "$@"; }
