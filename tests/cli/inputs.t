#!/bin/sh
# Hostile input (issue 26, items 1-3): every number is parsed with overflow checks and echoed
# as typed; an option pair the generator cannot emit is refused before generation; a template
# directory that does not exist is refused, never silently replaced by the embedded one.
. "$(dirname "$0")/../lib.sh"

usage() { # usage DESCRIPTION TEXT-THE-ERROR-MUST-NAME ARGS...: exit 2, one line, nothing out
    desc=$1; text=$2; shift 2
    "$SPDGEN" "$@" >"$WORK/out" 2>"$WORK/err"
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -qF -- "$text" "$WORK/err" && [ ! -s "$WORK/out" ]
    ok $? "$desc: exit 2, one line naming '$text'"
    [ $rc -eq 2 ] || diag "exit $rc, stderr:" "$(cat "$WORK/err")"
}

# Numbers past 32 bits used to wrap around (4294967304 became 8, 4294967297 became 1).
usage "--max-size past 2^32" "--max-size 4294967304x4294967304" --spd --max-size 4294967304x4294967304 --check
usage "--max-size 2^32+1" "--max-size 4294967297x4294967297" --spd --max-size 4294967297x4294967297 --check
usage "--size past 2^32" "--size 4294967297x4294967298" --spd --selftest --size 4294967297x4294967298
usage "--mips with 20 digits" "--mips 18446744073709551617" --spd --mips 18446744073709551617 --check
usage "--seed past 32 bits" "--seed 4294967296" --spd --selftest --seed 4294967296
usage "--fft past 2^63" "--fft 9223372036854775808" --fft 9223372036854775808 --check
usage "--ept with a sign" "--ept +4" --fft 64 --ept +4 --check
usage "--tile in hex" "--tile 0x40" --spd --tile 0x40 --check
usage "--max-size with spaces" "--max-size 64 x64" --spd --max-size "64 x64" --check
usage "--columns-per-wg past 2^64" "--columns-per-wg 18446744073709551616" --fft 256 --stride --columns-per-wg 18446744073709551616 --check
# The largest legal values still work.
"$SPDGEN" --spd --max-size 16384x16384 --check 2>"$WORK/err"
ok $? "--max-size 16384x16384 is accepted"
"$SPDGEN" --spd --selftest --seed 4294967295 --size 2x2 --max-size 2x2 >/dev/null 2>&1
[ $? -ne 2 ]
ok $? "--seed 4294967295 is a valid seed (no usage error)"

# --real with --stride was accepted and then failed inside the generator (exit 1).
usage "--real with --stride" "--real: not with --stride" --fft 256 --real --stride --check
usage "--stride with --real, any N" "--real: not with --stride" --fft 4096 --stride --real --target hlsl --check

# --template-dir and SPDGEN_TEMPLATE_DIR must name a directory.
usage "--template-dir that does not exist" "--template-dir /nonexistent/spdgen" --spd --template-dir /nonexistent/spdgen --check
: >"$WORK/a-file"
usage "--template-dir naming a file" "not a directory" --spd --template-dir "$WORK/a-file" --check
long=$(printf '%04100d' 0)
usage "--template-dir longer than PATH_MAX" "--template-dir /0000" --spd --template-dir "/$long" --check
SPDGEN_TEMPLATE_DIR=/nonexistent/spdgen "$SPDGEN" --spd --check >"$WORK/out" 2>"$WORK/err"
[ $? -eq 2 ] && grep -q "SPDGEN_TEMPLATE_DIR /nonexistent/spdgen: no such directory" "$WORK/err"
ok $? "SPDGEN_TEMPLATE_DIR that does not exist: exit 2, named"
SPDGEN_TEMPLATE_DIR= "$SPDGEN" --spd --check
ok $? "an empty SPDGEN_TEMPLATE_DIR means the embedded templates"

done_testing
