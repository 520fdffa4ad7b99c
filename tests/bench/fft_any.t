#!/bin/sh
# FFT lengths beyond powers of two in the benchmark (issue 27), on the local device (lavapipe
# on CI): bench/fft_any_gpu.sh --quick runs fft_bench on a mixed-radix N (15, 1000), a
# primes (41: Bluestein by default, 97: Rader) and a power of two, every output checked against the double reference in
# the same run, and writes the reports and the summary; a length spdgen refuses fails the
# run. Times mean nothing here.
. "$(dirname "$0")/../lib.sh"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
export SPDGEN_BUILD

"$SPDGEN_ROOT/bench/fft_any_gpu.sh" --quick "$WORK/out" >"$WORK/run.log" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "0 failure(s) in all" "$WORK/out/fft_any.md"
ok $? "fft_any_gpu.sh --quick: exit 0 (got $rc), every fft_bench check passes"
[ $rc -eq 0 ] || diag "$(tail -5 "$WORK/run.log" "$WORK/out/fft_any.md" 2>/dev/null)"

# The JSON: each N with spdgen's default and another --ept/--wg pair where spdgen lists one,
# every variant checked against the reference on 64 rows within the bar of its path
# (Rader's and Bluestein's relative L2 1.5e-6, the others 4e-7), and the primes' variants
# running the pipeline with their tables: Rader's (L = N - 1) or Bluestein's (the shape names
# M, a power of two or 7-smooth >= 2N - 1); 41's default Bluestein's, 97's Rader's, and a
# Bluestein variant for each.
perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>); my $bad = "";
    my %want = (15 => 4e-7, 41 => 1.5e-6, 97 => 1.5e-6, 1000 => 4e-7, 1024 => 4e-7);
    my %default = (41 => "Bluestein", 97 => "Rader"); my %bluestein;
    for my $g (@{$j->{groups}}) {
        my $n = $g->{n}; my $b = delete $want{$n};
        $bad .= "N = $n unexpected; " unless defined $b;
        my @v = @{$g->{variants}};
        $bad .= "N = $n: no default; " unless grep { $_->{default} } @v;
        $bad .= "N = $n: no --ept/--wg pair; " if $n != 1024 && !grep { $_->{requests}[0]{ept} } @v;
        for my $v (@v) {
            my $c = $v->{check};
            $bad .= "$v->{spdgen}: check $c->{status}, bound $c->{bound_rel_l2}; "
                unless $c->{status} eq "ok" && $c->{rows_compared} == 64 &&
                       abs($c->{bound_rel_l2} - $b) < 1e-12 && $c->{rel_l2} <= $b;
            next unless $default{$n};
            # M >= 2N - 1, 2^a 3^b 5^c 7^d (97: the power of two 256 or spdgen'"'"'s smooth 196)
            my ($m) = $v->{shape} =~ /Bluestein, M = (\d+)/;
            my $rader = $v->{shape} =~ /Rader, L = @{[$n - 1]}\)/;
            if (defined $m && $m >= 2 * $n - 1) { for my $p (2, 3, 5, 7) { $m /= $p while $m % $p == 0 } }
            my $b = defined $m && $m == 1;
            $bluestein{$n}++ if $b;
            $bad .= "$v->{spdgen}: shape $v->{shape}; " unless $rader || $b;
            $bad .= "$n: the default is not $default{$n} ($v->{shape}); "
                if $v->{default} && ($default{$n} eq "Rader" ? !$rader : !$b);
        }
    }
    $bad .= "missing N = " . join(",", keys %want) if %want;
    $bad .= "41: no Bluestein variant; " unless $bluestein{41};
    $bad .= "97: no Bluestein pair; " unless $bluestein{97};
    print $bad; exit($bad ne "")' <"$WORK/out/fft_any.json" >"$WORK/json.txt"
ok $? "fft_any.json: N = 15, 41 and 97 (Bluestein and Rader), 1000, 1024, each variant checked within its path's bar"
[ -s "$WORK/json.txt" ] && diag "$(cat "$WORK/json.txt")"

# The summary: one row per N with its path, and cuFFT said to be absent where it is.
rows=$(grep -cE '^\| (15 \| mixed|41 \| Bluestein|97 \| Rader|1000 \| mixed|1024 \| power of two) \|' "$WORK/out/SUMMARY.md")
[ "$rows" -eq 5 ] && grep -q "^fft_bench: 0 failure(s)" "$WORK/out/SUMMARY.md"
ok $? "SUMMARY.md: a row for each of the 5 N with its path ($rows), no failures"

# A length whose plan fft_bench cannot time (Bluestein beyond one dispatch: three passes)
# fails the run, with the reason in the notes.
"$SPDGEN_BUILD/bench/fft_bench" --quick --no-2d --sizes 16411 --batch-mib 1 \
    >"$WORK/refused.md" 2>"$WORK/refused.err"
rc=$?
[ $rc -eq 1 ] && grep -q "^fft_bench: 1 failure(s)" "$WORK/refused.err" &&
    grep -q "16411.*Bluestein's plan of three passes" "$WORK/refused.md"
ok $? "fft_bench --sizes 16411 (Bluestein's plan): exit 1 (got $rc), the note says it is not timed"
[ $rc -eq 1 ] || diag "$(tail -3 "$WORK/refused.md" "$WORK/refused.err")"
done_testing
