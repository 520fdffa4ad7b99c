#!/bin/sh
# spdgen --fft's command line: every usage error (exit 2, one line naming the flag), the
# E/W derivation (the default shape), determinism for every target, the regenerate command, the
# contract header, and --selftest (pass, and fail on a deliberately wrong template).
# Asserts on exit codes, the rule's numbers and properties of the output, never on text
# pasted from a previous run.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)

expect_usage_error() { # DESCRIPTION FLAG_IN_MESSAGE ARGS...
    desc=$1; flag=$2; shift 2
    "$SPDGEN" "$@" >"$WORK/out" 2>"$WORK/err"
    rc=$?
    lines=$(wc -l <"$WORK/err")
    [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && grep -q -- "^spdgen: error: .*$flag" "$WORK/err" && [ ! -s "$WORK/out" ]
    ok $? "$desc: exit 2, one line naming $flag"
    [ $rc -eq 2 ] && [ "$lines" -eq 1 ] || diag "exit $rc, stderr:" "$(cat "$WORK/err")"
}

expect_usage_error "N < 2" "--fft 1" --fft 1
# Lengths beyond powers of two (issue 27): smooth N (no prime factor above 31) by mixed
# radix, others by Bluestein's chirp-z: in one dispatch while its M <= 16 x --max-wg, else a
# plan of three passes over M = M1 x M2 (up to N = 2^20); where --max-wg makes the passes too
# short for M, the error names the prime factor, M and --max-wg.
expect_usage_error "Bluestein's M beyond two passes of 16 x --max-wg" "--max-wg 64" --fft 999983 --max-wg 64
"$SPDGEN" --fft 999983 --max-wg 64 2>&1 | grep "prime factor 999983" | grep -q "M = 2097152"
ok $? "--fft 999983 --max-wg 64 names its prime factor and M = 2097152 (the power of two >= 2N - 1)"
expect_usage_error "--ept beside Bluestein's plan" "--ept 16" --fft 8209 --ept 16
# Bluestein's plan: three passes (pass 3 the shape of pass 1) whose lengths multiply to M, the
# power of two >= 2N - 1; the regenerate command in its plan file writes every file again.
mkdir -p "$WORK/bplan"
"$SPDGEN" --fft 8209 -o "$WORK/bplan/a.comp" &&
    grep -q "^bluestein 32768$" "$WORK/bplan/a.fftplan" && grep -q "^passes 3$" "$WORK/bplan/a.fftplan" &&
    m1=$(sed -n 's/^pass 1 file a.pass1.comp n \([0-9]*\) .*/\1/p' "$WORK/bplan/a.fftplan") &&
    m2=$(sed -n 's/^pass 2 file a.pass2.comp n \([0-9]*\) .*/\1/p' "$WORK/bplan/a.fftplan") &&
    grep -q "^pass 3 file a.pass3.comp n $m1 " "$WORK/bplan/a.fftplan" && [ $((m1 * m2)) -eq 32768 ] &&
    cmd=$(regenerate_command "$WORK/bplan/a.fftplan" | sed 's/^spdgen //') &&
    # shellcheck disable=SC2086
    "$SPDGEN" $cmd -o "$WORK/bplan/b.comp" &&
    [ "$(cat "$WORK/bplan/a.fftplan")" = "$(sed 's/ file b\./ file a./' "$WORK/bplan/b.fftplan")" ] &&
    cmp -s "$WORK/bplan/a.pass1.comp" "$WORK/bplan/b.pass1.comp" &&
    cmp -s "$WORK/bplan/a.pass2.comp" "$WORK/bplan/b.pass2.comp" &&
    cmp -s "$WORK/bplan/a.pass3.comp" "$WORK/bplan/b.pass3.comp"
ok $? "--fft 8209: a plan of three passes over M = 32768 = M1 x M2; its regenerate command writes it again"
# Bluestein in one dispatch (--bluestein-m auto): M is the power of two >= 2N - 1 unless a
# 2^a 3^b 5^c 7^d from 2N - 1 to 20% above it is cheaper by the planner's estimate times M.
# N = 4099: 2N - 1 = 8197, so a smooth M < 16384 (about half the values); its comment, its
# header's FFT_*_BLUESTEIN_M and the regenerate command agree, and --bluestein-m pow2 keeps
# the power of two. (--selftest of it: with the device's cases below.)
smooth7() { s7=$1; for p in 2 3 5 7; do while [ $((s7 % p)) -eq 0 ]; do s7=$((s7 / p)); done; done; [ "$s7" -eq 1 ]; }
mkdir -p "$WORK/bsmooth"
"$SPDGEN" --fft 4099 -o "$WORK/bsmooth/a.comp" --emit-header "$WORK/bsmooth/a.h" &&
    m=$(sed -n 's/^#define FFT_[0-9A-F]*_BLUESTEIN_M \([0-9]*\)$/\1/p' "$WORK/bsmooth/a.h") &&
    [ -n "$m" ] && [ "$m" -ge 8197 ] && [ "$m" -lt 16384 ] && smooth7 "$m" &&
    tr -d '\n/' <"$WORK/bsmooth/a.comp" | tr -s ' ' | grep -q "convolution of length M = $m >= 2N - 1" &&
    grep -q "^// Plan: $m = " "$WORK/bsmooth/a.comp" && ! grep -q "16384" "$WORK/bsmooth/a.comp" &&
    cmd=$(regenerate_command "$WORK/bsmooth/a.comp" | sed 's/^spdgen //') &&
    # shellcheck disable=SC2086
    "$SPDGEN" $cmd -o "$WORK/bsmooth/b.comp" && cmp -s "$WORK/bsmooth/a.comp" "$WORK/bsmooth/b.comp"
ok $? "--fft 4099: Bluestein's M is 7-smooth, 8197 <= M < 16384, named by the comment, the Plan line and the header; its regenerate command writes it again"
"$SPDGEN" --fft 4099 --bluestein-m pow2 -o "$WORK/bsmooth/p.comp" &&
    grep -q "^// Plan: 16384 = " "$WORK/bsmooth/p.comp" && ! grep -q -- "--bluestein-m" "$WORK/bsmooth/p.comp"
ok $? "--fft 4099 --bluestein-m pow2: M = 16384, the regenerate command as before (no --bluestein-m)"
# The candidates reach 20% past 2N - 1, beyond the power of two, and the estimate counts the
# bank conflicts of each exchange's writes. For N = 1019 (2N - 1 = 2037, window up to 2444) the
# power of two, 2048, writes its first exchange 8 slots apart (radix-8 stages); an odd smooth M
# writes at odd strides, which meet in no bank, so M is past 2048 and odd.
"$SPDGEN" --fft 1019 -o "$WORK/bsmooth/c.comp" &&
    m=$(sed -n 's|^// Plan: \([0-9]*\) = .*|\1|p' "$WORK/bsmooth/c.comp") && [ -n "$m" ] &&
    [ "$m" -gt 2048 ] && [ "$m" -le 2444 ] && [ $((m % 2)) -eq 1 ] && smooth7 "$m"
ok $? "--fft 1019: Bluestein's M (${m:-none}) is odd, 7-smooth, past the power of two 2048 and within 20% of 2N - 1"
expect_usage_error "--bluestein-m smooth where no smooth M in the window fits" "M from 8197 to 9836" \
    --fft 4099 --bluestein-m smooth --ept 64
# Complex rows count their exchanges' bank conflicts too: 1280 = 2^8 5 no longer starts with a
# stage of radix 16, whose outputs go 16 slots apart (16 invocations in one bank).
"$SPDGEN" --fft 1280 -o "$WORK/bsmooth/r.comp" &&
    r=$(sed -n 's|^// Plan: 1280 = \([0-9]*\) x.*|\1|p' "$WORK/bsmooth/r.comp") && [ -n "$r" ] &&
    [ $((r % 16)) -ne 0 ]
ok $? "--fft 1280: the first stage's radix (${r:-none}) is not a multiple of 16"
"$SPDGEN" --fft 8191 -o "$WORK/bsmooth/q.comp" && grep -q "^// Plan: 16384 = " "$WORK/bsmooth/q.comp"
ok $? "--fft 8191: M = 16384 (also the smallest smooth length >= 2N - 1)"
expect_usage_error "--bluestein-m not a choice" "--bluestein-m" --fft 4099 --bluestein-m odd
grep -q "pow2 | smooth" "$WORK/err"
ok $? "--bluestein-m odd: the error names the allowed values"
expect_usage_error "--bluestein-m beside a mixed N" "--bluestein-m smooth" --fft 1000 --bluestein-m smooth
expect_usage_error "--bluestein-m beside a power of two" "--bluestein-m pow2" --fft 1024 --bluestein-m pow2
# Rader's convolution (--prime auto): a prime N whose N - 1 is smooth runs as a convolution
# of N - 1 points. N = 1009: the header names the primitive root (11, the smallest: its
# powers are every residue), the comment and the Plan line name 1008, the regenerate
# command writes the file again; --prime bluestein keeps Bluestein's M = 2048; --prime is
# refused where Rader does not apply, and beside --bluestein-m.
mkdir -p "$WORK/rader"
"$SPDGEN" --fft 1009 -o "$WORK/rader/a.comp" --emit-header "$WORK/rader/a.h" &&
    [ "$(sed -n 's/^#define FFT_[0-9A-F]*_RADER_ROOT \([0-9]*\)$/\1/p' "$WORK/rader/a.h")" = 11 ] &&
    ! grep -q "BLUESTEIN_M" "$WORK/rader/a.h" &&
    tr -d '\n/' <"$WORK/rader/a.comp" | tr -s ' ' | grep -q "convolution of L = N - 1 = 1008 points" &&
    grep -q "^// Plan: 1008 = " "$WORK/rader/a.comp" &&
    cmd=$(regenerate_command "$WORK/rader/a.comp" | sed 's/^spdgen //') &&
    # shellcheck disable=SC2086
    "$SPDGEN" $cmd -o "$WORK/rader/b.comp" && cmp -s "$WORK/rader/a.comp" "$WORK/rader/b.comp"
ok $? "--fft 1009: Rader over 1008 points, root 11 in the header; its regenerate command writes it again"
"$SPDGEN" --fft 1009 --prime bluestein -o "$WORK/rader/p.comp" &&
    m=$(sed -n 's|^// Plan: \([0-9]*\) = .*|\1|p' "$WORK/rader/p.comp") && [ "$m" -ge 2017 ] &&
    tr -d '\n/' <"$WORK/rader/p.comp" | tr -s ' ' | grep -q "convolution of length M = $m >= 2N - 1"
ok $? "--fft 1009 --prime bluestein: Bluestein's convolution, of M >= 2N - 1 = 2017 points"
"$SPDGEN" --fft 1019 -o "$WORK/rader/q.comp" && grep -q "Bluestein's chirp-z" "$WORK/rader/q.comp"
ok $? "--fft 1019 (1018 = 2 x 509): Bluestein"
expect_usage_error "--prime rader beside a prime whose N - 1 is not smooth" "--prime rader" --fft 1019 --prime rader
expect_usage_error "--prime beside a mixed N" "--prime bluestein" --fft 1000 --prime bluestein
expect_usage_error "--prime beside a power of two" "--prime rader" --fft 1024 --prime rader
expect_usage_error "--prime rader with --bluestein-m" "--bluestein-m pow2" --fft 1009 --prime rader --bluestein-m pow2
expect_usage_error "--prime not a choice" "--prime" --fft 1009 --prime chirp
expect_usage_error "--bluestein-m beside Bluestein's plan" "--bluestein-m smooth" --fft 8209 --bluestein-m smooth
expect_usage_error "--ept that no plan of a mixed N takes" "--ept 7" --fft 1000 --ept 7
# The pairs the error lists: each multiplies to N and generates.
pairs=$("$SPDGEN" --fft 1000 --ept 7 2>&1 | sed 's/.*; use //' | tr ',' '\n')
[ "$(echo "$pairs" | grep -c "ept")" -ge 3 ] && echo "$pairs" | while read -r _ e _ w; do
    [ $((e * w)) -eq 1000 ] && "$SPDGEN" --fft 1000 --ept "$e" --wg "$w" --check || exit 1
done
ok $? "--fft 1000 --ept 7: the error lists three or more --ept/--wg pairs, each E x W = 1000 and each generates"
expect_usage_error "--wg that does not divide a mixed N" "--wg 7" --fft 1000 --wg 7
expect_usage_error "--ept x --wg != a mixed N" "--ept 10 --wg 10" --fft 1000 --ept 10 --wg 10
expect_usage_error "--order native beside a mixed N" "--order native" --fft 1000 --order native
expect_usage_error "--twiddles lut beside a mixed N" "--twiddles lut" --fft 1000 --twiddles lut
expect_usage_error "--real with an odd N" "--real" --fft 15 --real
expect_usage_error "--stride beside Bluestein" "--stride" --fft 74 --stride
expect_usage_error "--ept of a power of two that is not one" "--ept 3" --fft 1024 --ept 3
# A mixed-radix or Bluestein shader's regenerate command (the shape it was given or chose:
# --ept, --wg, --rows-per-wg or --columns-per-wg) writes the same file again; its opening
# comment names N's factorization as the product of its stage radices.
mkdir -p "$WORK/mregen"
for flags in "--fft 6" "--fft 360" "--fft 1000 --real" "--fft 100 --stride" "--fft 97" \
    "--fft 1001 --ept 13 --wg 77" "--fft 3200" "--fft 3840" "--fft 7680" "--fft 10000" "--fft 2400" \
    "--fft 4200" "--fft 4800 --ept 24"; do
    # shellcheck disable=SC2086
    "$SPDGEN" $flags -o "$WORK/mregen/a.comp" &&
        cmd=$(regenerate_command "$WORK/mregen/a.comp" | sed 's/^spdgen //') &&
        # shellcheck disable=SC2086
        "$SPDGEN" $cmd -o "$WORK/mregen/b.comp" && cmp -s "$WORK/mregen/a.comp" "$WORK/mregen/b.comp" &&
        plan=$(sed -n 's|^// Plan: \([0-9]*\) = \([0-9x ]*\),.*|\1 \2|p' "$WORK/mregen/a.comp") &&
        [ -n "$plan" ] && [ "$(echo "$plan" | awk '{ p = 1; for (i = 2; i <= NF; i += 2) p *= $i; print (p == $1) }')" = 1 ]
    ok $? "$flags: the regenerate command writes the same shader; the Plan line's radices multiply to its N"
done
# largest_round N: the most bytes one exchange round of `spdgen --fft N` holds (its Phases
# comment: a round of slots holds complex values, 8 bytes; a round by component floats, 4), 0
# if it names none.
largest_round() {
    "$SPDGEN" --fft "$1" -o "$WORK/mregen/s.comp" &&
        tr -d '\n/' <"$WORK/mregen/s.comp" | tr -s ' ' |
        grep -o "\(round of\|rounds of\) [0-9]* \(slots\|floats\)" |
        awk '{ b = $3 * ($4 == "floats" ? 4 : 8); if (b > m) m = b } END { print m + 0 }'
}
# Complex rows of 16 KB to 9000 points exchange in rounds of at most 16 KB where a shape of
# E <= 40 makes them by element (3200 = 2^7 5^2: E 20 x W 160), and past E 40 where that shape
# has W <= 128 and the 32 KB one is poor: E <= 12, E >= 40, or by component past 24 KB
# (7680 = 60 x 128 by element, not 16 x 480 by component in 30 KB rounds). Up to 4096 points
# such rounds go by component with E <= 40 (3840 = 60 x 64 -> 16 x 240, 3969 = 63 x 63 ->
# 21 x 189).
for n in 3200 4000 8000 3840 3969 7680; do
    bytes=$(largest_round "$n") && [ "$bytes" -gt 0 ] && [ "$bytes" -le 16384 ]
    ok $? "--fft $n: its exchange rounds hold at most 16 KB (${bytes:-none} bytes)"
done
# Where the 32 KB shape's E lies between 12 and 40 (7200 = 30 x 240) or the small-round shape is
# wider than 128 (8640 = 60 x 144), the rounds stay at 32 KB: a round past 16 KB.
for n in 7200 8640; do
    bytes=$(largest_round "$n") && [ "$bytes" -gt 16384 ]
    ok $? "--fft $n: keeps rounds of 32 KB (largest round ${bytes:-none} bytes)"
done
# Exchanges by component (docs/fft.md): where rounds by element would force E past 40 (2400 =
# 2^5 3 5^2 by element only as 60 x 40), or no one-dispatch shape exists by element (4200 =
# 2^3 3 5^2 7: a four-step plan before), the real parts go through shared memory, then the
# imaginary, and E stays between 16 and 40.
for n in 2400 4200 4800 6300; do
    e=
    "$SPDGEN" --fft "$n" -o "$WORK/mregen/c.comp" &&
        e=$(sed -n 's|^// Plan: [0-9]* = [0-9x ]*, \([0-9]*\) elements.*|\1|p' "$WORK/mregen/c.comp") &&
        [ "${e:-0}" -ge 16 ] && [ "$e" -le 40 ] && grep -q 'shared float fft_part\[' "$WORK/mregen/c.comp" &&
        tr -d '\n/' <"$WORK/mregen/c.comp" | tr -s ' ' | grep -q "the real parts, then the imaginary)"
    ok $? "--fft $n: one shader, E ${e:-none} in 16..40, exchanges by component"
done
# An exchange by component goes through one float array, so --shared-layout does not apply:
# given, it is refused (it was ignored), and the regenerate command leaves it out.
expect_usage_error "--shared-layout beside an exchange by component" "--shared-layout paired" \
    --fft 4200 --shared-layout paired
"$SPDGEN" --fft 4200 -o "$WORK/mregen/l.comp" && ! regenerate_command "$WORK/mregen/l.comp" | grep -q -- "--shared-layout"
ok $? "--fft 4200: its regenerate command names no --shared-layout"
"$SPDGEN" --fft 7056 --shared-layout split -o "$WORK/mregen/l.comp" && grep -q "^shared float fft_re\[" "$WORK/mregen/l.comp"
ok $? "--fft 7056 --shared-layout split: a plan by element keeps the flag"
# Past 6144 points a round by component holds more than 24 KB, and two workgroups no longer
# share a multiprocessor: a shape by element whose rounds stay within 24 KB comes first (7056
# as 42 x 168 in rounds of 18816 bytes, not 16 x 441 by component in 28224).
"$SPDGEN" --fft 7056 -o "$WORK/mregen/p.comp" &&
    grep -q "^// Plan: 7056 = [0-9x ]*, 42 elements per invocation x 168 invocations" "$WORK/mregen/p.comp" &&
    ! grep -q 'fft_part' "$WORK/mregen/p.comp" && [ "$(largest_round 7056)" -le 24576 ]
ok $? "--fft 7056: by element as 42 x 168, its rounds within 24 KB"
# A given shape that only exchanges by component is taken (4800 as 16 x 300 was refused).
"$SPDGEN" --fft 4800 --ept 16 -o "$WORK/mregen/g.comp" 2>"$WORK/mregen/g.err" &&
    grep -q "^// Plan: 4800 = [0-9x ]*, 16 elements per invocation x 300 invocations" "$WORK/mregen/g.comp"
ok $? "--fft 4800 --ept 16: a plan by component ($(head -c 200 "$WORK/mregen/g.err"))"
# Rows per workgroup (docs/fft.md, E and W): complex rows stay within one subgroup of 32
# invocations (961 = 31 x 31: one row; 46 = 23 x 2: 16 rows; 169 = 13 x 13: 2 rows); Rader's
# rows fill two subgroups (97: L = 96 as 12 x 8, 8 rows).
while read -r n w rows; do
    "$SPDGEN" --fft "$n" -o "$WORK/mregen/r.comp" &&
        grep -q "elements per invocation x $w invocations" "$WORK/mregen/r.comp" &&
        grep -q -- "--rows-per-wg $rows " "$WORK/mregen/r.comp"
    ok $? "--fft $n: W = $w, rows per workgroup $rows"
done <<ROWS
961 31 1
46 2 16
169 13 2
97 8 8
ROWS
expect_usage_error "N not a number" "--fft 64k" --fft 64k
expect_usage_error "N beyond 2^20" "--fft 2097152" --fft 2097152
expect_usage_error "E x W != N" "--ept 4 --wg 8" --fft 64 --ept 4 --wg 8
expect_usage_error "E = 1" "--ept 1" --fft 64 --ept 1
expect_usage_error "E = 3" "--ept 3" --fft 64 --ept 3
expect_usage_error "E = 128" "--ept 128" --fft 1024 --ept 128
expect_usage_error "W > --max-wg" "--wg 1024" --fft 4096 --wg 1024 --max-wg 512
expect_usage_error "E gives W > --max-wg" "--ept 2" --fft 4096 --ept 2
expect_usage_error "W not dividing N" "--wg 48" --fft 64 --wg 48
expect_usage_error "--max-wg not a power of two" "--max-wg 1000" --fft 64 --max-wg 1000
expect_usage_error "--subgroup 3" "--subgroup 3" --fft 64 --subgroup 3
expect_usage_error "--subgroup above W" "--subgroup 16" --fft 16 --subgroup 16
expect_usage_error "--real with N < 8" "--real" --fft 4 --real
expect_usage_error "unknown --order" "--order sideways" --fft 64 --order sideways
expect_usage_error "unknown --direction" "--direction backward" --fft 64 --direction backward
expect_usage_error "unknown --norm" "--norm ortho" --fft 64 --norm ortho
expect_usage_error "unknown --storage" "--storage f64" --fft 64 --storage f64
expect_usage_error "unknown --twiddles" "--twiddles table" --fft 64 --twiddles table
expect_usage_error "unknown --shared-layout" "--shared-layout interleaved" --fft 64 --shared-layout interleaved
expect_usage_error "--shared-layout with --spd" "--shared-layout" --spd --shared-layout paired
expect_usage_error "--real with native order" "--order native" --fft 64 --real --order native
expect_usage_error "an SPD flag with --fft" "--op" --fft 64 --op max
expect_usage_error "--batch 0" "--batch 0" --fft 64 --batch 0
expect_usage_error "--rows-per-wg 3" "--rows-per-wg 3" --fft 64 --rows-per-wg 3
expect_usage_error "--rows-per-wg 64" "--rows-per-wg 64" --fft 64 --rows-per-wg 64
expect_usage_error "--rows-per-wg beyond 64 values" "--rows-per-wg 16" --fft 256 --ept 8 --rows-per-wg 16
expect_usage_error "--rows-per-wg at E = 64" "--rows-per-wg 2" --fft 16384 --rows-per-wg 2
expect_usage_error "--rows-per-wg with --stride" "--rows-per-wg 2" --fft 256 --stride --rows-per-wg 2
expect_usage_error "--rows-per-wg with --real" "--rows-per-wg 2" --fft 256 --ept 4 --real --rows-per-wg 2
expect_usage_error "--ept without a value" "--ept" --fft 64 --ept
expect_usage_error "--prefetch-rows 3" "--prefetch-rows 3" --fft 4096 --prefetch-rows 3
expect_usage_error "--prefetch-rows 128" "--prefetch-rows 128" --fft 4096 --prefetch-rows 128
expect_usage_error "--prefetch-rows with --stride" "--prefetch-rows 2" --fft 256 --stride --prefetch-rows 2
expect_usage_error "--prefetch-rows with --real" "--prefetch-rows 2" --fft 256 --real --prefetch-rows 2
expect_usage_error "--prefetch-rows with --rows-per-wg" "--prefetch-rows 2" --fft 64 --rows-per-wg 2 --prefetch-rows 2
expect_usage_error "--prefetch-rows with a plan" "--prefetch-rows 2" --fft 65536 --prefetch-rows 2
expect_usage_error "--prefetch-rows with E = 32" "--prefetch-rows 2" --fft 8192 --prefetch-rows 2

# The message for inconsistent E and W lists pairs that work: each must be accepted.
"$SPDGEN" --fft 256 --ept 4 --wg 32 2>"$WORK/err"
pairs=$(sed -n 's/.*; use //p' "$WORK/err" | tr ',' '\n')
good=0 n=0
while read -r pair; do
    [ -z "$pair" ] && continue
    n=$((n + 1))
    # shellcheck disable=SC2086
    "$SPDGEN" --fft 256 $pair --check || good=1
done <<EOF2
$pairs
EOF2
[ $good -eq 0 ] && [ "$n" -ge 3 ]
ok $? "the E x W != N message lists $n working --ept/--wg pairs, each accepted"

# The default shape: E = 16 while W = N/16 keeps >= 32 invocations (else W = 32, or N/2
# below N = 64); complex rows keep W <= 256 by a larger E (SG_FFT_WIDE_WG), columns and real
# rows do not; W <= --max-wg; one of E and W given, the other follows.
shape() { # ARGS... -> "E W" read from the regenerate command
    "$SPDGEN" "$@" -o "$WORK/s.comp" &&
        regenerate_command "$WORK/s.comp" | sed -n 's|^spdgen .*--ept \([0-9]*\) --wg \([0-9]*\) .*|\1 \2|p'
}
rule_ok=0
for case in "4 2 2" "32 2 16" "64 2 32" "128 4 32" "256 8 32" "512 16 32" "1024 16 64" "2048 16 128" "4096 16 256" "8192 32 256" "16384 64 256"; do
    set -- $case
    [ "$(shape --fft $1)" = "$2 $3" ] || { rule_ok=1; diag "--fft $1: $(shape --fft $1), want $2 $3"; }
done
[ "$(shape --fft 4096 --max-wg 256)" = "16 256" ] || rule_ok=1
[ "$(shape --fft 8192 --max-wg 512)" = "32 256" ] || rule_ok=1
[ "$(shape --fft 16384 --stride)" = "16 1024" ] || rule_ok=1
[ "$(shape --fft 16384 --real)" = "16 1024" ] || rule_ok=1
[ "$(shape --fft 8192 --wg 512)" = "16 512" ] || rule_ok=1
[ "$(shape --fft 8192 --ept 64)" = "64 128" ] || rule_ok=1
[ "$(shape --fft 256 --max-wg 16)" = "16 16" ] || rule_ok=1
[ "$(shape --fft 2048 --wg 512)" = "4 512" ] || rule_ok=1
[ "$(shape --fft 2048 --ept 8)" = "8 256" ] || rule_ok=1
# Rows per workgroup in the default shape: 8/E at E <= 4, 2 at W = 256 with E = 32 (N = 8192)
# and E = 16 (4096) with --subgroup 4, 4 at 4096 with --subgroup 0, else 1 (the command names
# the value for rows, nothing for columns and real rows); a given --prefetch-rows keeps 1.
rows() { "$SPDGEN" "$@" | regenerate_command | sed -n 's|^spdgen .*--rows-per-wg \([0-9]*\).*|\1|p'; }
[ "$(rows --fft 64)" = "4" ] && [ "$(rows --fft 128)" = "2" ] && [ "$(rows --fft 8)" = "4" ] &&
    [ "$(rows --fft 256)" = "1" ] && [ "$(rows --fft 64 --ept 2)" = "1" ] &&
    [ "$(rows --fft 64 --real)" = "" ] && [ "$(rows --fft 64 --stride)" = "" ] &&
    [ "$(rows --fft 4096)" = "4" ] && [ "$(rows --fft 8192)" = "2" ] && [ "$(rows --fft 2048)" = "1" ] &&
    [ "$(rows --fft 16384)" = "1" ] && [ "$(rows --fft 2048 --max-wg 128)" = "1" ] &&
    [ "$(rows --fft 4096 --prefetch-rows 1)" = "1" ] && [ "$(rows --fft 8192 --wg 256)" = "1" ] &&
    [ "$(rows --fft 4096 --rows-per-wg 4)" = "4" ] && [ "$(rows --fft 4096 --subgroup 4)" = "2" ] &&
    [ "$(rows --fft 4096 --subgroup 32)" = "1" ] && [ "$(rows --fft 8192 --subgroup 32)" = "2" ] || rule_ok=1
# Rows in turn (--prefetch-rows): 2 for complex rows in the default shape at E = 16 with
# W = 64..256 (N = 1024..4096) where one row is in registers (4096 with shuffles), else 1 (named
# for rows); the contract dispatches one workgroup per 2 rows either way.
prefetch() { "$SPDGEN" "$@" | regenerate_command | sed -n 's|^spdgen .*--prefetch-rows \([0-9]*\).*|\1|p'; }
[ "$(prefetch --fft 4096)" = "1" ] && [ "$(prefetch --fft 4096 --subgroup 32)" = "2" ] &&
    [ "$(prefetch --fft 4096 --prefetch-rows 2)" = "2" ] && [ "$(prefetch --fft 2048)" = "2" ] && [ "$(prefetch --fft 1024)" = "2" ] &&
    [ "$(prefetch --fft 512)" = "1" ] && [ "$(prefetch --fft 256)" = "1" ] && [ "$(prefetch --fft 8192)" = "1" ] &&
    [ "$(prefetch --fft 4096 --ept 16)" = "1" ] && [ "$(prefetch --fft 4096 --real)" = "" ] &&
    [ "$(prefetch --fft 4096 --stride)" = "" ] && [ "$(prefetch --fft 4096 --wg 512)" = "1" ] &&
    [ "$(prefetch --fft 1024 --prefetch-rows 4)" = "4" ] && [ "$(prefetch --fft 1024 --prefetch-rows 1)" = "1" ] || rule_ok=1
"$SPDGEN" --fft 4096 --name fft --emit-header "$WORK/p.h" -o "$WORK/p.comp" &&
    grep -q "^#define FFT_COLUMNS_PER_WORKGROUP 4 " "$WORK/p.h" && grep -q "^#define FFT_GRID_X(count) (((count) + 3u) / 4u)" "$WORK/p.h" &&
    grep -q "^#define FFT_ROWS_IN_TURN 0$" "$WORK/p.h" || rule_ok=1
# The header says which: rows in turn at N = 1024 (--prefetch-rows 2), in registers at 4096.
"$SPDGEN" --fft 1024 --name fft --emit-header "$WORK/q.h" -o "$WORK/q.comp" &&
    grep -q "^#define FFT_COLUMNS_PER_WORKGROUP 2 " "$WORK/q.h" && grep -q "^#define FFT_ROWS_IN_TURN 1$" "$WORK/q.h" || rule_ok=1
ok $rule_ok "E/W derivation: E = 16 with W >= 32 (or N/2), complex rows W <= 256 by a larger E, W <= --max-wg, 8/E rows per workgroup at E <= 4, 4 at N = 4096 (S 0), 2 at 4096 (S 4) and 8192; one given, the other follows"

# --twiddles default: squared for complex rows in the default shape at --subgroup 0 with
# N = 2048 (rows in turn) and 4096 (4 rows in registers), the arrangements measured faster;
# device everywhere else, and a given --twiddles wins.
twiddles() { "$SPDGEN" "$@" | regenerate_command | sed -n 's|^spdgen .*--twiddles \([a-z]*\).*|\1|p'; }
tw_ok=0
[ "$(twiddles --fft 2048)" = "squared" ] && [ "$(twiddles --fft 4096)" = "squared" ] &&
    [ "$(twiddles --fft 1024)" = "device" ] && [ "$(twiddles --fft 8192)" = "device" ] &&
    [ "$(twiddles --fft 16384)" = "device" ] && [ "$(twiddles --fft 4096 --subgroup 4)" = "device" ] &&
    [ "$(twiddles --fft 2048 --subgroup 8)" = "device" ] && [ "$(twiddles --fft 4096 --rows-per-wg 2)" = "device" ] &&
    [ "$(twiddles --fft 4096 --rows-per-wg 4)" = "squared" ] && [ "$(twiddles --fft 2048 --prefetch-rows 1)" = "device" ] &&
    [ "$(twiddles --fft 2048 --real)" = "device" ] && [ "$(twiddles --fft 2048 --stride)" = "device" ] &&
    [ "$(twiddles --fft 2048 --ept 8)" = "device" ] && [ "$(twiddles --fft 4096 --twiddles device)" = "device" ] &&
    [ "$(twiddles --fft 2048 --twiddles lut)" = "lut" ] && [ "$(twiddles --fft 1024 --twiddles squared)" = "squared" ] || tw_ok=1
"$SPDGEN" --fft 4096 | grep -q "^// (--twiddles squared)\.$\|squaring that twiddle" || tw_ok=1
ok $tw_ok "--twiddles default: squared at N = 2048 and 4096 in the default shape at --subgroup 0, device elsewhere; a given value wins"

# The plan's shared-memory exchanges at --subgroup 0: bringing the W invocation bits into
# registers takes ceil(w / group) exchanges (group: the most bits one exchange brings in, at
# most e, with 2^group slots per invocation in the 32 KB budget of 4096 slots), and a
# natural-order output costs no more than the native (bit-reversed) order: the reorder rides
# on the last butterfly exchange.
exchanges() { # ARGS... -> the number in the Plan line's "N shared-memory exchange(s)"
    "$SPDGEN" "$@" | tr '\n' ' ' |
        sed -n 's|.*// Plan: [^;]*; [^;]*, \([0-9]*\) [/ ]*shared-memory exchange.*|\1|p'
}
ex_ok=0
for case in "256 3 5" "1024 4 6" "4096 4 8" "8192 4 9" "16384 4 10" "2048 3 8" "8192 5 8" "16384 6 8" "4096 6 6"; do
    set -- $case
    n=$1; e=$2; w=$3; group=0
    while [ $group -lt $e ] && [ $((4096 >> (group + 1))) -ge $((1 << w)) ]; do group=$((group + 1)); done
    want=$(((w + group - 1) / group))
    for order in natural native; do
        got=$(exchanges --fft "$n" --ept $((1 << e)) --subgroup 0 --order $order)
        [ "$got" = "$want" ] || { ex_ok=1; diag "--fft $n --ept $((1 << e)) --order $order: $got exchanges, want $want"; }
    done
done
ok $ex_ok "--subgroup 0: ceil(w / group) shared exchanges, the natural-order reorder folded into the last one"

# --shared-layout by N: split below 1024, paired from 1024 (SG_FFT_PAIRED_FROM_N); the
# regenerate command names the layout, so an explicit split at N >= 1024 is reproduced.
"$SPDGEN" --fft 512 -o "$WORK/sl512.comp" && grep -q "^shared float fft_re\[" "$WORK/sl512.comp" &&
    "$SPDGEN" --fft 1024 -o "$WORK/sl1024.comp" && grep -q "^shared vec2 fft_c\[" "$WORK/sl1024.comp" &&
    ! grep -q "fft_re" "$WORK/sl1024.comp" &&
    "$SPDGEN" --fft 4096 --shared-layout split -o "$WORK/sl4096.comp" && grep -q "^shared float fft_re\[" "$WORK/sl4096.comp" &&
    cmd=$(regenerate_command "$WORK/sl4096.comp" | head -1) &&
    case $cmd in *"--shared-layout split"*) true ;; *) false ;; esac &&
    $SPDGEN_BUILD/$cmd -o "$WORK/sl4096b.comp" && cmp -s "$WORK/sl4096.comp" "$WORK/sl4096b.comp"
ok $? "--shared-layout: split below N = 1024, paired from 1024; an explicit split is named in the regenerate command and reproduced"

# Columns (--stride, a plan's passes): --column-layout lanes|registers and --columns-per-wg.
expect_usage_error "--columns-per-wg 3" "--columns-per-wg 3" --fft 256 --stride --columns-per-wg 3
expect_usage_error "--columns-per-wg 0" "--columns-per-wg 0" --fft 256 --stride --columns-per-wg 0
expect_usage_error "--columns-per-wg 2048" "--columns-per-wg 2048" --fft 256 --stride --columns-per-wg 2048
expect_usage_error "--columns-per-wg x W beyond --max-wg" "--columns-per-wg 32" --fft 256 --ept 4 --stride --columns-per-wg 32
expect_usage_error "--columns-per-wg x W beyond a lower --max-wg" "--columns-per-wg 16" --fft 256 --stride --max-wg 256 --columns-per-wg 16
expect_usage_error "--columns-per-wg x a pass's W beyond --max-wg" "--columns-per-wg 64" --fft 65536 --columns-per-wg 64
expect_usage_error "--columns-per-wg with rows" "--columns-per-wg 8" --fft 256 --columns-per-wg 8
expect_usage_error "--column-layout with rows" "--column-layout lanes" --fft 256 --column-layout lanes
expect_usage_error "unknown --column-layout" "--column-layout diagonal" --fft 256 --stride --column-layout diagonal
expect_usage_error "--columns-per-wg with --column-layout registers" "--columns-per-wg 4" --fft 256 --stride --column-layout registers --columns-per-wg 4
expect_usage_error "--columns-per-wg with --spd" "--columns-per-wg" --spd --columns-per-wg 4
# C1,C2: a four-step plan's pass 1 and pass 2, each checked against its own W.
expect_usage_error "two --columns-per-wg values for one shader" "--columns-per-wg 4,8: two values are for a four-step plan" --fft 256 --stride --columns-per-wg 4,8
expect_usage_error "--columns-per-wg with an empty second value" "--columns-per-wg 4,:" --fft 65536 --columns-per-wg 4,
expect_usage_error "--columns-per-wg with a second value not a power of two" "--columns-per-wg 4,3:" --fft 65536 --columns-per-wg 4,3
expect_usage_error "--columns-per-wg with three values" "--columns-per-wg 4,8,16:" --fft 65536 --columns-per-wg 4,8,16
expect_usage_error "--columns-per-wg: pass 2's C x W beyond --max-wg" "--columns-per-wg 4,64: 64 columns x 32 invocations (pass 2) .* pass 2 takes 32 columns at most" --fft 32768 --columns-per-wg 4,64
# The rule (docs/fft.md, "Columns"): lanes with C = the largest power of two up
# to 16 with C x W <= --max-wg where that C is >= 8, else 16/E (<= 4) columns in registers;
# read from the contract header: columns per workgroup, local size, lanes.
columns() { # ARGS... -> "C LOCAL_SIZE LANES"
    "$SPDGEN" "$@" --name fft --emit-header "$WORK/c.h" -o "$WORK/c.comp" &&
        for d in COLUMNS_PER_WORKGROUP WORKGROUP_SIZE_X COLUMNS_IN_LANES; do
            sed -n "s/^#define FFT_$d \([0-9]*\).*/\1/p" "$WORK/c.h"
        done | tr '\n' ' ' | sed 's/ $//'
}
cols_ok=0
for case in "64:16 512 1" "256:16 512 1" "1024:16 1024 1" "2048:8 1024 1" "4096:1 256 0" "16384:1 1024 0"; do
    n=${case%%:*} want=${case#*:}
    got=$(columns --fft "$n" --stride)
    [ "$got" = "$want" ] || { cols_ok=1; diag "--fft $n --stride: $got, want $want"; }
done
[ "$(columns --fft 4096 --stride --column-layout lanes)" = "4 1024 1" ] || cols_ok=1
[ "$(columns --fft 256 --stride --max-wg 128)" = "2 32 0" ] || cols_ok=1
[ "$(columns --fft 256 --stride --columns-per-wg 2)" = "2 64 1" ] || cols_ok=1
[ "$(columns --fft 256 --stride --column-layout registers)" = "2 32 0" ] || cols_ok=1
[ "$(columns --fft 64 --stride --ept 4 --column-layout registers)" = "4 16 0" ] || cols_ok=1
ok $cols_ok "columns per workgroup: lanes of 16 up to W = 64, 8 at W = 128, registers (16/E) beyond; --column-layout and --columns-per-wg pick"
# Shuffles in lanes only where the subgroup spans more than the C columns: the contract's
# subgroup size is the one the shader needs.
[ "$("$SPDGEN" --fft 256 --name fft --stride --subgroup 8 --emit-header "$WORK/c.h" -o "$WORK/c.comp" &&
    sed -n 's/^#define FFT_SUBGROUP_SIZE \([0-9]*\).*/\1/p' "$WORK/c.h")" = 0 ] &&
    grep -q "subgroup 8 is not used" "$WORK/c.comp" && ! grep -q subgroupShuffle "$WORK/c.comp" &&
    [ "$("$SPDGEN" --fft 256 --name fft --stride --subgroup 8 --columns-per-wg 2 --emit-header "$WORK/c.h" -o "$WORK/c.comp" &&
    sed -n 's/^#define FFT_SUBGROUP_SIZE \([0-9]*\).*/\1/p' "$WORK/c.h")" = 8 ] && grep -q subgroupShuffleXor "$WORK/c.comp"
ok $? "lanes: --subgroup 8 with 16 columns needs no subgroup (FFT_SUBGROUP_SIZE 0, no shuffles); with 2 columns it shuffles"
"$SPDGEN" --fft 256 --stride --subgroup 8 --columns-per-wg 4 --target hlsl -o "$WORK/l.hlsl" &&
    cmd=$(regenerate_command "$WORK/l.hlsl" | head -1) &&
    echo "$cmd" | grep -q -- "--column-layout lanes --columns-per-wg 4" &&
    $SPDGEN_BUILD/$cmd -o "$WORK/l2.hlsl" && cmp -s "$WORK/l.hlsl" "$WORK/l2.hlsl"
ok $? "the regenerate command of a lanes shader names its layout and reproduces the file"

# Beyond one dispatch (N > 16 x --max-wg): a four-step plan of two shaders and a plan file.
expect_usage_error "a plan to stdout" "--fft 65536" --fft 65536
expect_usage_error "--ept with a plan" "--ept" --fft 65536 --ept 16
expect_usage_error "--wg with a plan" "--wg" --fft 65536 --wg 1024
expect_usage_error "--real with a plan" "--real" --fft 65536 --real
expect_usage_error "--order native with a plan" "--order native" --fft 65536 --order native
expect_usage_error "--stride with a plan" "--stride" --fft 65536 --stride
expect_usage_error "--twiddles lut with a plan" "--twiddles lut" --fft 65536 --twiddles lut
expect_usage_error "--subgroup above a pass's workgroup" "--subgroup 64" --fft 65536 --max-wg 32 --subgroup 64
mkdir -p "$WORK/plan"
"$SPDGEN" --fft 65536 --name fft --subgroup 8 --target spirv -o "$WORK/plan/fft.spv" --emit-header "$WORK/plan/fft.h" -MD &&
    [ -s "$WORK/plan/fft.pass1.spv" ] && [ -s "$WORK/plan/fft.pass2.spv" ] && [ ! -e "$WORK/plan/fft.spv" ] &&
    grep -q "^spdgen-fft-plan 1$" "$WORK/plan/fft.fftplan" && grep -q "^n 65536$" "$WORK/plan/fft.fftplan" &&
    grep -q "^pass 1 file fft.pass1.spv n 256 " "$WORK/plan/fft.fftplan" &&
    grep -q "^pass 2 file fft.pass2.spv n 256 " "$WORK/plan/fft.fftplan" &&
    head -1 "$WORK/plan/fft.fftplan.d" | grep -q "fft.fftplan: .*spdgen"
ok $? "--fft 65536 -o fft.spv writes fft.pass1.spv, fft.pass2.spv, the plan fft.fftplan and its depfile"
# A mixed-radix plan's short pass holds more columns: 12167 = 529 x 23, the 23-point pass has
# W = 1, so 16 columns (16 invocations) instead of the plan's 4; the 529-point pass keeps 4.
"$SPDGEN" --fft 12167 -o "$WORK/plan/p.comp" &&
    grep -q "^pass 1 file p.pass1.comp n 529 wg 92 subgroup 0 columns 4 " "$WORK/plan/p.fftplan" &&
    grep -q "^pass 2 file p.pass2.comp n 23 wg 16 subgroup 0 columns 16 " "$WORK/plan/p.fftplan"
ok $? "--fft 12167: the 23-point pass of its plan holds 16 columns per workgroup, the 529-point pass 4"
cat >"$WORK/plan/h.c" <<'EOF2'
#include "fft.h"
int main(void)
{
    return !(FFT_N == 65536 && FFT_PASSES == 2 && FFT_PASS1_N * FFT_PASS2_N == FFT_N &&
             FFT_PASS1_COUNT(3) == 3 * (FFT_N / FFT_PASS1_N) && sizeof(FftPushConstants) == 16 &&
             FFT_SCRATCH_BYTES(2) == 2u * 65536u * 8u);
}
EOF2
${CC:-cc} -std=c11 -Wall -Werror -I"$WORK/plan" "$WORK/plan/h.c" -o "$WORK/plan/h" && "$WORK/plan/h"
ok $? "the plan's contract header compiles and its numbers are the plan's"
# A plan's passes: columns in lanes by default (N = 32768 = 256 x 128, both passes W = 32:
# 4 columns, the plan default, 128 invocations; --columns-per-wg 16: 512 in both; 4,16:
# 128 then 512), in registers with --column-layout registers (16/E: E = 8 then 4), the plan
# file's wg the local size; the regenerate line names the columns each pass got.
regenerated_columns() { regenerate_command "$1" | sed -n 's/^spdgen .*\(--columns-per-wg [0-9,]*\|--column-layout [a-z]*\).*/\1/p'; }
"$SPDGEN" --fft 32768 --target spirv -o "$WORK/plan/l.spv" &&
    grep -q "^pass 1 file l.pass1.spv n 256 wg 128 subgroup 0 columns 4 .* ept 8$" "$WORK/plan/l.fftplan" &&
    grep -q "^pass 2 file l.pass2.spv n 128 wg 128 subgroup 0 columns 4 .* ept 4$" "$WORK/plan/l.fftplan" &&
    [ "$(regenerated_columns "$WORK/plan/l.fftplan")" = "--columns-per-wg 4,4" ] &&
    "$SPDGEN" --fft 32768 --columns-per-wg 16 --target spirv -o "$WORK/plan/m.spv" &&
    grep -q "^pass 1 file m.pass1.spv n 256 wg 512 subgroup 0 columns 16 .* ept 8$" "$WORK/plan/m.fftplan" &&
    grep -q "^pass 2 file m.pass2.spv n 128 wg 512 subgroup 0 columns 16 .* ept 4$" "$WORK/plan/m.fftplan" &&
    [ "$(regenerated_columns "$WORK/plan/m.fftplan")" = "--columns-per-wg 16,16" ] &&
    "$SPDGEN" --fft 32768 --columns-per-wg 4,16 --target spirv -o "$WORK/plan/p.spv" &&
    grep -q "^pass 1 file p.pass1.spv n 256 wg 128 subgroup 0 columns 4 .* ept 8$" "$WORK/plan/p.fftplan" &&
    grep -q "^pass 2 file p.pass2.spv n 128 wg 512 subgroup 0 columns 16 .* ept 4$" "$WORK/plan/p.fftplan" &&
    [ "$(regenerated_columns "$WORK/plan/p.fftplan")" = "--columns-per-wg 4,16" ] &&
    "$SPDGEN" --fft 32768 --column-layout registers --target spirv -o "$WORK/plan/r.spv" &&
    grep -q "^pass 1 file r.pass1.spv n 256 wg 32 subgroup 0 columns 2 .* ept 8$" "$WORK/plan/r.fftplan" &&
    grep -q "^pass 2 file r.pass2.spv n 128 wg 32 subgroup 0 columns 4 .* ept 4$" "$WORK/plan/r.fftplan" &&
    [ "$(regenerated_columns "$WORK/plan/r.fftplan")" = "--column-layout registers" ]
ok $? "plan passes: 4 columns in lanes by default, 16 with --columns-per-wg 16, 4 then 16 with 4,16, 16/E in registers with --column-layout registers; the regenerate line names them"
"$SPDGEN" --fft 1048576 --check
ok $? "--fft 1048576 (2^20) --check"
for target in glsl hlsl msl; do
    "$SPDGEN" --fft 131072 --target $target -o "$WORK/plan/big.$target" &&
        [ -s "$WORK/plan/big.pass1.$target" ] && [ -s "$WORK/plan/big.pass2.$target" ] &&
        grep -q "pass 1 of 2 of a four-step forward FFT of N = 131072" "$WORK/plan/big.pass1.$target"
    ok $? "--fft 131072 --target $target writes two commented passes"
done

# The issue's example works for every target.
for target in glsl hlsl msl spirv; do
    "$SPDGEN" --fft 2048 --wg 512 --target $target -o "$WORK/ex.$target"
    ok $? "spdgen --fft 2048 --wg 512 --target $target"
done
grep -q "kernel void fft_main" "$WORK/ex.msl" && grep -q "max_total_threads_per_threadgroup(512)" "$WORK/ex.msl"
ok $? "the MSL kernel is fft_main with 512 threads per threadgroup"

# Determinism, for every target and a config with every exchange kind.
for target in glsl hlsl msl spirv; do
    same=0
    args="--fft 4096 --ept 8 --wg 512 --subgroup 8 --real --target $target"
    # shellcheck disable=SC2086
    "$SPDGEN" $args -o "$WORK/a.$target" || same=1
    for i in 1 2 3; do
        # shellcheck disable=SC2086
        "$SPDGEN" $args -o "$WORK/b.$target" || same=1
        cmp -s "$WORK/a.$target" "$WORK/b.$target" || same=1
    done
    ok $same "deterministic FFT output for --target $target"
done
cmd=$(regenerate_command "$WORK/a.hlsl" | head -1)
[ -n "$cmd" ] && $SPDGEN_BUILD/$cmd -o "$WORK/c.hlsl" && cmp -s "$WORK/a.hlsl" "$WORK/c.hlsl"
ok $? "the regenerate command in the FFT header reproduces the file"
# Every emitted line fits in 100 columns: each target, with the options that shape the text
# most (shuffles, quads, real rows, halves, columns in lanes and registers, the twiddle
# table and squares, rows in turn, a four-step plan's passes and Bluestein's; its .fftplan is not
# a shader).
wide=0
for target in glsl hlsl msl; do
    for args in "--fft 4" "--fft 4096 --subgroup 8 --twiddles squared" "--fft 1024 --subgroup 4" \
        "--fft 4096 --ept 8 --wg 512 --subgroup 8 --real" "--fft 1024 --real --direction inverse --storage f16" \
        "--fft 256 --stride --columns-per-wg 4 --subgroup 8" "--fft 1024 --stride --column-layout registers" \
        "--fft 1024 --twiddles lut --direction inverse" "--fft 2048 --prefetch-rows 2 --shared-layout split" \
        "--fft 65536 --columns-per-wg 8,4" "--fft 8209"; do
        rm -rf "$WORK/w" && mkdir "$WORK/w"
        # shellcheck disable=SC2086 # several flags
        "$SPDGEN" $args --target $target -o "$WORK/w/out.$target" && [ -z "$(long_lines "$WORK/w"/*."$target")" ] && continue
        wide=1
        diag "$args --target $target:" "$(long_lines "$WORK/w"/*."$target" | head -3)"
    done
done
ok $wide "no emitted line is longer than 100 columns (FFT, every target)"

# Every emitted file states its contract: bindings, push constants, grid, shared memory and
# the subgroup requirement.
grep -q "binding 0" "$WORK/a.glsl" && grep -q "push constants, FftParams params: uint count, in_stride, out_stride" "$WORK/a.glsl" &&
    grep -q "dispatch (count, 1, 1)" "$WORK/a.glsl" && grep -Eq "shared memory [0-9]+ bytes; needs full subgroups of 8" "$WORK/a.glsl"
ok $? "the emitted FFT states its contract"

# The contract header compiles, and its numbers are the configuration's.
"$SPDGEN" --fft 1024 --name fft --ept 4 --subgroup 8 --stride --twiddles lut --emit-header "$WORK/fft.h" -o "$WORK/h.comp"
cat >"$WORK/h.c" <<'EOF2'
#include <math.h>
#include <stdio.h>
#include "fft.h"
int main(void)
{
    static float table[FFT_N];
    int bad = FFT_N != 1024 || FFT_ELEMENTS_PER_INVOCATION != 4 || FFT_WORKGROUP_SIZE_X != 256 ||
              FFT_SUBGROUP_SIZE != 8 || FFT_STRIDED != 1 || FFT_TWIDDLE_LUT != 1 ||
              FFT_GRID_X(FFT_COLUMNS_PER_WORKGROUP * 3 + 1) != 4 || sizeof(FftPushConstants) != 16 ||
              FFT_SCALE != 1.0f; /* forward, --norm inverse: no scaling; must be a C literal */
    for (uint32_t k = 0; k < FFT_N; k++)
        bad |= fft_native_index(fft_native_index(k)) != k || (k < FFT_N && fft_native_index(k) >= FFT_N);
    bad |= fft_native_index(1) != FFT_N / 2;
    fft_fill_twiddles(table);
    bad |= table[0] != 1.0f || table[1] != 0.0f || fabs(table[2 * (FFT_N / 4)] - 0.0) > 1e-7 ||
           table[2 * (FFT_N / 4) + 1] != -1.0f;
    return bad;
}
EOF2
${CC:-cc} -std=c11 -Wall -Werror -I"$WORK" "$WORK/h.c" -o "$WORK/h" -lm && "$WORK/h"
ok $? "the FFT contract header compiles and its numbers, index map and twiddle table are right"

# --selftest: passes for each target on the local device, and fails (exit 1) for a shader
# whose twiddles turn the wrong way (a template override), without a device, exit 1 too.
if "$SPDGEN_BUILD/tests/fft/list" >/dev/null 2>&1 && vulkaninfo --summary >/dev/null 2>&1; then
    for target in glsl hlsl msl; do
        "$SPDGEN" --fft 1024 --ept 4 --subgroup 8 --real --target $target --selftest >"$WORK/out" 2>&1
        rc=$?
        [ $rc -eq 0 ] && grep -q "selftest passed" "$WORK/out" && grep -q "relative L2 error" "$WORK/out"
        ok $? "--selftest passes for --target $target and prints the errors"
    done
    for d in forward inverse; do
        "$SPDGEN" --fft 4099 --direction $d --selftest >"$WORK/out" 2>&1 &&
            grep -q "selftest passed" "$WORK/out" && grep -q -- "--bluestein-m smooth" "$WORK/out"
        ok $? "--fft 4099 --direction $d (Bluestein over a smooth M): --selftest passes"
    done
    mkdir -p "$WORK/tdir/templates/fft"
    sed 's/c:line(sign < 0 and "return $float2(w.x, -w.y);" or "return w;")/c:line("return w;")/' \
        "$here/../../templates/fft/twiddle.lua" >"$WORK/tdir/templates/fft/twiddle.lua"
    ! cmp -s "$here/../../templates/fft/twiddle.lua" "$WORK/tdir/templates/fft/twiddle.lua"
    ok $? "the broken twiddle template differs from the real one"
    "$SPDGEN" --fft 256 --template-dir "$WORK/tdir" --selftest >"$WORK/out" 2>&1
    rc=$?
    [ $rc -eq 1 ] && grep -q "selftest FAILED" "$WORK/out"
    ok $? "--selftest fails (exit 1) for twiddles of the wrong sign"
    "$SPDGEN" --fft 65536 --subgroup 8 --direction inverse --selftest >"$WORK/out" 2>&1 &&
        grep -q "(two passes)" "$WORK/out" && grep -q "selftest passed" "$WORK/out"
    ok $? "--selftest runs a four-step plan (--fft 65536) and passes"
    mkdir -p "$WORK/paired"
    "$SPDGEN" --fft 65536 --shared-layout paired -o "$WORK/paired/p.comp" &&
        grep -q "^shared vec2 fft_c\[" "$WORK/paired/p.pass1.comp" &&
        grep -q "^shared vec2 fft_c\[" "$WORK/paired/p.pass2.comp" &&
        ! grep -q "fft_re" "$WORK/paired/p.pass1.comp" "$WORK/paired/p.pass2.comp" &&
        "$SPDGEN" --fft 65536 --shared-layout paired --selftest >"$WORK/out" 2>&1 &&
        grep -q "selftest passed" "$WORK/out"
    ok $? "--shared-layout paired: both plan passes exchange through one float2 array; --selftest passes"
    "$SPDGEN" --fft 65536 --template-dir "$WORK/tdir" --selftest >"$WORK/out" 2>&1
    [ $? -eq 1 ] && grep -q "selftest FAILED" "$WORK/out"
    ok $? "--selftest fails (exit 1) for a plan with twiddles of the wrong sign"
    # Lengths beyond powers of two: mixed radix in one dispatch and a four-step plan of two
    # mixed-radix passes pass; twiddles of the wrong sign (templates/fft/twiddle_any.lua) fail.
    # 12167 = 529 x 23: the 23-point pass holds 16 columns per workgroup (W = 1).
    for flags in "--fft 1000 --target hlsl" "--fft 18000 --batch 2" "--fft 12167 --batch 2"; do
        # shellcheck disable=SC2086
        "$SPDGEN" $flags --selftest >"$WORK/out" 2>&1 && grep -q "selftest passed" "$WORK/out"
        ok $? "--selftest passes for $flags"
    done
    mkdir -p "$WORK/mdir/templates/fft"
    sed 's/c:line(sign < 0 and "return $float2(w.x, -w.y);" or "return w;")/c:line("return w;")/' \
        "$here/../../templates/fft/twiddle_any.lua" >"$WORK/mdir/templates/fft/twiddle_any.lua"
    ! cmp -s "$here/../../templates/fft/twiddle_any.lua" "$WORK/mdir/templates/fft/twiddle_any.lua"
    ok $? "the broken mixed-radix twiddle template differs from the real one"
    "$SPDGEN" --fft 1000 --template-dir "$WORK/mdir" --selftest >"$WORK/out" 2>&1
    [ $? -eq 1 ] && grep -q "selftest FAILED" "$WORK/out"
    ok $? "--selftest fails (exit 1) for --fft 1000 with twiddles of the wrong sign"
    # Columns in lanes: a shared-memory slot with the column and the FFT's invocation swapped
    # ((column << log2 C) | address instead of (address << log2 C) | column) must fail.
    "$SPDGEN" --fft 256 --stride --batch 21 --selftest >"$WORK/out" 2>&1 && grep -q "selftest passed" "$WORK/out"
    ok $? "--selftest passes for 21 columns in lanes (--fft 256 --stride)"
    mkdir -p "$WORK/ldir/templates/fft"
    sed 's/string.format("(%s << %s) | %s", operand(hi), u(tc), operand(col))/string.format("(%s << %s) | %s", operand(col), u(tc), operand(hi))/' \
        "$here/../../templates/fft/steps.lua" >"$WORK/ldir/templates/fft/steps.lua"
    ! cmp -s "$here/../../templates/fft/steps.lua" "$WORK/ldir/templates/fft/steps.lua"
    ok $? "the mutant template swapping column and invocation in the shared slot differs from the real one"
    for flags in "--fft 256 --stride --batch 21" "--fft 32768 --batch 1"; do
        # shellcheck disable=SC2086
        "$SPDGEN" $flags --template-dir "$WORK/ldir" --selftest >"$WORK/out" 2>&1
        [ $? -eq 1 ] && grep -q "selftest FAILED" "$WORK/out"
        ok $? "--selftest fails (exit 1) for $flags with column and invocation swapped in the shared slot"
    done
else
    ok 0 "# SKIP no Vulkan device"
fi
done_testing
