#!/bin/sh
# conv_bench (bench/conv/) built and run briefly on the local device (lavapipe on CI): its
# times mean nothing here; what counts is that the recorded pipeline and each pass run on the
# harness, each pass's floor copy checks, and the checked whole run matches the CPU reference
# (exit 0), for both kernel spectra. Apart from smoke.t so a change to the convolution runs
# only this.
. "$(dirname "$0")/../lib.sh"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}

"$SPDGEN_BUILD/bench/conv_bench" --quick --storage f32 --markdown "$WORK/conv.md" \
    --json "$WORK/conv.json" >"$WORK/conv.txt" 2>"$WORK/conv.err"
rc=$?
[ $rc -eq 0 ] && ! grep -q MISMATCH "$WORK/conv.txt"
ok $? "conv_bench --quick --storage f32: runs, both jobs match the reference (exit $rc)"
[ $rc -eq 0 ] || diag "$(tail -8 "$WORK/conv.txt" "$WORK/conv.err")"
cmp -s "$WORK/conv.md" "$WORK/conv.txt"
ok $? "conv_bench --markdown: the file holds the report printed on stdout"
# Every job: checked, each pass and its floor and the pipeline timed (positive medians), the
# pass's share of its floor present, the resampled and the exact spectrum both there.
perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>);
    my @jobs = @{$j->{jobs}};
    my $good = $j->{error} eq "" && $j->{device}{name} ne "" && @jobs == 2 &&
        (join ",", sort map { $_->{spectrum} } @jobs) eq "exact,resampled";
    for my $r (@jobs) {
        $good &&= $r->{check}{ok} && $r->{check}{samples} == 64 && $r->{pipeline}{median_us} > 0;
        for my $p (1 .. 3) {
            $good &&= $r->{"pass$p"}{median_us} > 0 && $r->{"pass${p}_floor"}{median_us} > 0 &&
                      $r->{"pass$p"}{fraction_of_floor} > 0 && $r->{"pass${p}_bytes"} > 0;
        }
    }
    exit !$good' <"$WORK/conv.json"
ok $? "conv_bench --json: parses; both spectra, every pass, floor and pipeline timed, checks passed"
# An empty image is refused before any device work.
"$SPDGEN_BUILD/bench/conv_bench" --quick --cases 0x8:3 >/dev/null 2>"$WORK/bad.err"
[ $? -eq 2 ] && grep -q -- "--cases" "$WORK/bad.err"
ok $? "conv_bench --cases 0x8:3: a usage error (exit 2) naming the option"
done_testing
