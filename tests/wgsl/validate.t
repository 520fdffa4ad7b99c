#!/bin/sh
# Every WGSL file of a sample of --spd, --fft and --dmap configurations (tests/wgsl/sample:
# the options that change what is emitted, each at least once) is made by spdgen --target
# wgsl, kept within 100 columns, and validated by Tint on Dawn's null backend
# (validate.mjs: the module with exactly the features its header names, and a compute
# pipeline at WebGPU's default limits where the header claims them), all in one process.
. "$(dirname "$0")/../lib.sh"
. "$SPDGEN_ROOT/tests/wgsl/env.sh"

missing=$(wgsl_missing)
if [ -n "$missing" ]; then
    echo "1..0 # SKIP $missing"
    exit 0
fi

grep -v '^#' "$WGSL_DIR/sample" | grep . | sed 's/ *#.*//' >"$WORK/sample"
# A line ending in "# TODO: why" is a known failure of the WebGPU implementation: its Tint
# verdict is reported as a TAP TODO (a failure that does not fail the suite, and shows if it
# starts passing).
grep -v '^#' "$WGSL_DIR/sample" | grep . | sed -n 's/.*# TODO: *//p; t; s/.*//p' >"$WORK/todo"
# Made two at a time: line I of the sample into $WORK/cI.wgsl, its exit status into cI.rc.
awk '{ print NR, $0 }' "$WORK/sample" | W="$WORK" xargs -P2 -L1 sh -c \
    'n=$1; shift; "$0" "$@" --target wgsl -o "$W/c$n.wgsl" 2>"$W/c$n.err"; echo $? >"$W/c$n.rc"' \
    "$SPDGEN"
i=0
: >"$WORK/files"
while read -r args; do
    i=$((i + 1))
    rc=$(cat "$WORK/c$i.rc" 2>/dev/null || echo none)
    [ "$rc" = 0 ]
    ok $? "spdgen $args --target wgsl (exit $rc)"
    [ "$rc" = 0 ] || diag "$(cat "$WORK/c$i.err")"
    # A four-step FFT writes NAME.pass1.wgsl and NAME.pass2.wgsl instead (Bluestein's plan
    # NAME.pass3.wgsl too), a convolution its spectrum, resample and pass shaders.
    for f in "$WORK/c$i.wgsl" "$WORK/c$i".pass[123].wgsl "$WORK/c$i".spectrum[12].wgsl \
        "$WORK/c$i".resample.wgsl; do
        [ -f "$f" ] && echo "$f $args" >>"$WORK/files"
    done
done <"$WORK/sample"

long=$(cut -d' ' -f1 "$WORK/files" | xargs awk 'length > 100 { print FILENAME ":" FNR }')
[ -z "$long" ]
ok $? "$(wc -l <"$WORK/files") WGSL files, every line within 100 columns"
[ -z "$long" ] || diag "$long"

# One node process for all (40 s at most): a file without a verdict is a crash.
cut -d' ' -f1 "$WORK/files" | W="$WORK" xargs sh -c 'timeout 40 node "$0" "$@" 2>"$W/node.err"' \
    "$WGSL_DIR/validate.mjs" >"$WORK/verdicts"
# todo ARGS: the TODO reason of a sample line (empty: none).
todo() { awk -v a="$*" 'NR == FNR { r[FNR] = $0; next } $0 == a { print r[FNR]; exit }' \
    "$WORK/todo" "$WORK/sample"; }
while read -r f args; do
    why=$(todo "$args")
    if [ -n "$why" ]; then
        TAP_N=$((TAP_N + 1))
        line=$(grep -E "^(PASS|FAIL|NOVERDICT) $f:" "$WORK/verdicts")
        case "$line" in
        PASS*) echo "ok $TAP_N - Tint: spdgen $args: ${line#*: } # TODO $why" ;;
        *) echo "not ok $TAP_N - Tint: spdgen $args: ${line#*: } # TODO $why" ;;
        esac
        continue
    fi
    line=$(grep -E "^(PASS|FAIL|NOVERDICT) $f:" "$WORK/verdicts")
    case "$line" in
    PASS*) ok 0 "Tint: spdgen $args: ${line#*: }" ;;
    FAIL*) ok 1 "Tint: spdgen $args: ${line#*: }"; diag "$(grep -A40 "^FAIL $f:" "$WORK/verdicts" | sed -n '2,40{/^#/p}')" ;;
    *) ok 1 "Tint: spdgen $args: no verdict (node crashed or timed out)" ;;
    esac
done <"$WORK/files"

done_testing
