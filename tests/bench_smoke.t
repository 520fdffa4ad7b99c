#!/bin/sh
# The GPU benchmarks, built and run briefly on the local device (lavapipe on CI). Their times
# mean nothing here; what counts is that they run end to end and every correctness check they
# make against the CPU references passes (exit 0), so the benchmark code cannot rot unseen.
. "$(dirname "$0")/lib.sh"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}

"$SPDGEN_BUILD/bench/spd_bench" --quick --sizes 256x256 >"$WORK/spd.txt" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "0 failure(s)" "$WORK/spd.txt"
ok $? "spd_bench --quick --sizes 256x256: runs, every check against the reference passes"
[ $rc -eq 0 ] || diag "$(tail -5 "$WORK/spd.txt")"

"$SPDGEN_BUILD/bench/fft_bench" --quick --sizes 64,1024 >"$WORK/fft.txt" 2>&1
rc=$?
[ $rc -eq 0 ]
ok $? "fft_bench --quick --sizes 64,1024: runs, every output within the accuracy bars"
[ $rc -eq 0 ] || diag "$(tail -5 "$WORK/fft.txt")"
# Every 2D variant (two dispatches) also has each dispatch timed alone: a row per variant in
# "Each dispatch alone", both times positive numbers.
variants=$(sed -n '/^## 2D/,/^## /p' "$WORK/fft.txt" | grep -c '^| 1024x2048')
alone=$(sed -n '/^## Each dispatch alone/,/^## /p' "$WORK/fft.txt" |
    awk -F'|' '/^\| 1024x2048/ && $4 + 0 > 0 && $6 + 0 > 0' | wc -l)
[ "$variants" -gt 0 ] && [ "$alone" -eq "$variants" ]
ok $? "fft_bench: each of the $variants 2D variants has both dispatches timed alone ($alone rows)"
done_testing
