#!/bin/sh
# The GPU benchmarks, built and run briefly on the local device (lavapipe on CI). Their times
# mean nothing here; what counts is that they run end to end and every correctness check they
# make against the CPU references passes (exit 0), so the benchmark code cannot rot unseen.
. "$(dirname "$0")/../lib.sh"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}

"$SPDGEN_BUILD/bench/spd_bench" --quick --sizes 256x256 --markdown "$WORK/spd.md" \
    --json "$WORK/spd.json" >"$WORK/spd.txt" 2>"$WORK/spd.err"
rc=$?
[ $rc -eq 0 ] && grep -q "0 failure(s)" "$WORK/spd.txt"
ok $? "spd_bench --quick --sizes 256x256: runs, every check against the reference passes"
[ $rc -eq 0 ] || diag "$(tail -5 "$WORK/spd.txt" "$WORK/spd.err")"
# --markdown writes the report printed on stdout; --json a document that parses, with the
# same device and no failures; neither leaves its temporary file behind.
cmp -s "$WORK/spd.md" "$WORK/spd.txt"
ok $? "spd_bench --markdown: the file holds the report printed on stdout"
perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>);
    my @g = @{$j->{groups}};
    exit !($j->{failures} == 0 && $j->{device}{name} ne "" && @g == 3 &&
           !grep { $_->{width} != 256 || $_->{height} != 256 } @g)' <"$WORK/spd.json"
ok $? "spd_bench --json: parses; 256x256 in each of the 3 formats, no failures, the device named"
[ ! -e "$WORK/spd.md.tmp" ] && [ ! -e "$WORK/spd.json.tmp" ]
ok $? "spd_bench: no report's temporary file is left"

# --variants: spdgen's default row first (the shader of no flags, libspdrt's tiles), then the
# given flags with their tiles per workgroup, each checked; in the JSON exactly one default.
"$SPDGEN_BUILD/bench/spd_bench" --quick --sizes 256x256 --formats r32f --ops max \
    --variants "--subgroup 4@1;--level1 blocks" --json "$WORK/var.json" >"$WORK/var.txt" 2>"$WORK/var.err"
rc=$?
# Each pattern ends at the tiles: the fastest row gets " **best**" after them, and which row
# is fastest depends on the load the test runs under.
[ $rc -eq 0 ] && grep -q '| 256x256 | r32f | max | default (no flags: `--tail loop`), 2 tiles per workgroup' "$WORK/var.txt" &&
    grep -q '| 256x256 | r32f | max | `--subgroup 4`, 1 tile per workgroup' "$WORK/var.txt" &&
    grep -q '| 256x256 | r32f | max | `--level1 blocks`, 2 tiles per workgroup' "$WORK/var.txt" &&
    perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>);
        my @v = @{$j->{groups}[0]{ops}[0]{variants}};
        exit !(@v == 3 && (grep { $_->{default} } @v) == 1 && $v[0]{default} &&
               $v[0]{spdgen} eq "spdgen --spd --op max --format r32f --max-size 256x256 --mips 8 --target spirv" &&
               $v[1]{spdgen} =~ / --subgroup 4$/ && $v[2]{spdgen} =~ / --level1 blocks$/ &&
               !grep { $_->{check}{status} ne "ok" } @v)' <"$WORK/var.json"
ok $? "spd_bench --variants: the default row, then the given flags at their tiles per workgroup, all checked"
[ $rc -eq 0 ] || diag "$(tail -5 "$WORK/var.txt" "$WORK/var.err")"
for bad in "subgroup 4" "--subgroup 4@0" "--tail hierarchy@65" ""; do
    "$SPDGEN_BUILD/bench/spd_bench" --variants "$bad" >"$WORK/usage.txt" 2>"$WORK/usage.err"
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$WORK/usage.err")" -eq 1 ] && grep -q -- "--variants $bad" "$WORK/usage.err"
    ok $? "spd_bench --variants '$bad': exit 2 (got $rc), one line naming the flag and value"
done

# A report that cannot be written fails the run (exit 1) with the path named, and leaves
# nothing behind. --json: the target is a directory, so the rename over it fails.
# --markdown: the temporary's name is taken by a directory, so the file cannot be started,
# and the report of the run before must come through whole (a writer that wrote straight
# into the target would replace it and exit 0).
mkdir "$WORK/taken" "$WORK/old.md.tmp"
echo "the run before" >"$WORK/old.md"
"$SPDGEN_BUILD/bench/fft_bench" --quick --sizes 64 --no-2d --json "$WORK/taken" \
    --markdown "$WORK/old.md" >"$WORK/taken.txt" 2>"$WORK/taken.err"
rc=$?
[ $rc -eq 1 ] && grep -q "^$WORK/taken: " "$WORK/taken.err" && [ -d "$WORK/taken" ] &&
    [ ! -e "$WORK/taken.tmp" ]
ok $? "fft_bench --json onto a directory: exit 1 (got $rc), the path named, no file left"
grep -q "^$WORK/old.md: " "$WORK/taken.err" && [ "$(cat "$WORK/old.md")" = "the run before" ]
ok $? "fft_bench --markdown that cannot start: the path named, the file before left whole"

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

# --rows: a mixed-radix length also timed with rows per workgroup, each variant checked.
"$SPDGEN_BUILD/bench/fft_bench" --quick --sizes 2187 --no-2d --subgroups 0 --pairs 0 --rows 2 \
    --batch-mib 1 --json "$WORK/rows.json" >/dev/null 2>"$WORK/rows.err"
rc=$?
[ $rc -eq 0 ] && perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>);
    my @v = @{$j->{groups}[0]{variants}};
    exit !(@v >= 2 && $v[0]{default} && (grep { $_->{spdgen} =~ /--ept 27 --wg 81 .*--rows-per-wg 2$/ } @v) &&
           !grep { $_->{check}{status} ne "ok" } @v)' <"$WORK/rows.json"
ok $? "fft_bench --rows 2: 2187 timed by default and as E 27 x W 81 with 2 rows, every variant checked"
[ $rc -eq 0 ] || diag "$(tail -3 "$WORK/rows.err")"
"$SPDGEN_BUILD/bench/fft_bench" --rows 1 >"$WORK/usage.txt" 2>"$WORK/usage.err"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$WORK/usage.err")" -eq 1 ] && grep -q -- "--rows 1: 2..16" "$WORK/usage.err"
ok $? "fft_bench --rows 1: exit 2 (got $rc), one line naming the flag, the value and the range"

# conv_bench: one job kept on the device, its pipeline and each pass timed beside the floor
# of the same bytes, the output checked (exit 1 on a mismatch or a value never written).
"$SPDGEN_BUILD/bench/conv_bench" --quick --storage f16 --variants "--columns-per-wg 2" \
    --json "$WORK/conv.json" --markdown "$WORK/conv.md" >"$WORK/conv.txt" 2>"$WORK/conv.err"
rc=$?
[ $rc -eq 0 ]
ok $? "conv_bench --quick --storage f16: runs, the output within the bars"
[ $rc -eq 0 ] || diag "$(tail -5 "$WORK/conv.txt" "$WORK/conv.err")"
cmp -s "$WORK/conv.md" "$WORK/conv.txt"
ok $? "conv_bench --markdown: the file holds the report printed on stdout"
perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>);
    my @jobs = @{$j->{jobs}};
    my $rows = grep { my $r = $_;
        !grep { $r->{$_}{status} ne "ok" || !($r->{$_}{median_us} > 0) ||
                $r->{"${_}_floor"}{status} ne "ok" || !($r->{"${_}_bytes"} > 0) }
            qw(pass1 pass2 pass3 pipeline resample) } @jobs;
    exit !($j->{failures} == 0 && @jobs == 1 && $rows == 1 && $jobs[0]{storage} eq "f16" &&
           $jobs[0]{check}{status} eq "ok" && $jobs[0]{check}{samples} > 0 &&
           $jobs[0]{command} =~ / --columns-per-wg 2$/ &&
           $jobs[0]{pipeline_bytes} == $jobs[0]{pass1_bytes} + $jobs[0]{pass2_bytes} +
                                       $jobs[0]{pass3_bytes})' <"$WORK/conv.json"
ok $? "conv_bench --json: one f16 job of the variant's flags, the pipeline, the three passes and the resample timed with their floors, checked"
# --passes after: passes 2 and 3 each timed after the passes before them ran untimed.
"$SPDGEN_BUILD/bench/conv_bench" --quick --passes after --spectrum exact --storage f32 \
    --json "$WORK/after.json" --markdown "$WORK/after.md" >/dev/null 2>"$WORK/after.err"
rc=$?
[ $rc -eq 0 ] && grep -q "(\`--passes after\`)" "$WORK/after.md" &&
    perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>); my $r = $j->{jobs}[0];
        exit !($j->{settings}{passes} eq "after" && $r->{check}{status} eq "ok" &&
               !grep { $r->{$_}{status} ne "ok" || !($r->{$_}{median_us} > 0) } qw(pass1 pass2 pass3))' \
        <"$WORK/after.json"
ok $? "conv_bench --passes after: runs, says so in the report and the JSON settings, every pass timed"
[ $rc -eq 0 ] || diag "$(tail -5 "$WORK/after.err")"
"$SPDGEN_BUILD/bench/conv_bench" --passes before >"$WORK/usage.txt" 2>"$WORK/usage.err"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$WORK/usage.err")" -eq 1 ] && grep -q -- "--passes before: alone, after" "$WORK/usage.err"
ok $? "conv_bench --passes before: exit 2 (got $rc), one line naming the flag, the value and the modes"
"$SPDGEN_BUILD/bench/conv_bench" --cases 64x64 >"$WORK/usage.txt" 2>"$WORK/usage.err"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$WORK/usage.err")" -eq 1 ] && grep -q -- "--cases 64x64" "$WORK/usage.err"
ok $? "conv_bench --cases 64x64 (no PSF): exit 2 (got $rc), one line naming the flag and value"
"$SPDGEN_BUILD/bench/conv_bench" --variants "columns-per-wg 2" >"$WORK/usage.txt" 2>"$WORK/usage.err"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$WORK/usage.err")" -eq 1 ] && grep -q -- "--variants columns-per-wg 2" "$WORK/usage.err"
ok $? "conv_bench --variants without --: exit 2 (got $rc), one line naming the flag and value"
# dmap_bench: every variant's map exact against the reference; --markdown holds the report
# printed on stdout and --json the same run's figures (it used to accept both and write
# neither).
"$SPDGEN_BUILD/bench/dmap_bench" --quick --sizes 128x128 --json "$WORK/dmap.json" \
    --markdown "$WORK/dmap.md" >"$WORK/dmap.txt" 2>"$WORK/dmap.err"
rc=$?
[ $rc -eq 0 ] && grep -q "^### 128x128" "$WORK/dmap.txt" && cmp -s "$WORK/dmap.md" "$WORK/dmap.txt"
ok $? "dmap_bench --quick --sizes 128x128: runs, every map exact; --markdown holds the report on stdout"
[ $rc -eq 0 ] || diag "$(tail -5 "$WORK/dmap.err")"
perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>); my @s = @{$j->{sizes}};
    my @v = @{$s[0]{variants}};
    exit !($j->{failures} == 0 && $j->{device}{name} ne "" && @s == 1 && $s[0]{width} == 128 &&
           $s[0]{floor_us} > 0 && @v > 1 && !grep { $_->{map} ne "exact" || !($_->{median_us} > 0) } @v)' \
    <"$WORK/dmap.json"
ok $? "dmap_bench --json: parses; one size, the floor and every variant timed, every map exact"

# Lists with an empty item, numbers past 32 bits, a list past its limit: exit 2, one line
# naming the flag and value (they used to run: "64,,128" as 64,128; 4294967360 as 64).
while IFS='|' read -r bench flag value; do
    "$SPDGEN_BUILD/bench/$bench" "$flag" "$value" >"$WORK/usage.txt" 2>"$WORK/usage.err"
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$WORK/usage.err")" -eq 1 ] && grep -q -- "$flag $value" "$WORK/usage.err"
    ok $? "$bench $flag '$value': exit 2 (got $rc), one line naming the flag and value"
done <<'LIST'
spd_bench|--sizes|64,,128
spd_bench|--sizes|64,
spd_bench|--sizes|4294967360
spd_bench|--sizes|+64
spd_bench|--formats|rgba8,,r32f
spd_bench|--subgroups|4,8,16,32,64,0,4
fft_bench|--sizes|64,,1024
conv_bench|--cases|4294967360x48:7
conv_bench|--cases|64x48:4294967303
conv_bench|--spectrum|resampled,,exact
dmap_bench|--sizes|64x48,,64x48
dmap_bench|--sizes|4294967360x48
LIST
# --json through a link writes the file it names and keeps the link; a device is written
# through, never replaced (a private one where we may make it), and a full one fails the run.
tiny="--quick --sizes 64 --formats r32f --ops max --reps 1 --warmup 0 --b2b 0 --heat-ms 0 --scrub-mib 0"
ln -s report.json "$WORK/link.json"
# shellcheck disable=SC2086 # several flags
"$SPDGEN_BUILD/bench/spd_bench" $tiny --json "$WORK/link.json" >/dev/null 2>&1 &&
    [ -L "$WORK/link.json" ] && [ -s "$WORK/report.json" ]
ok $? "spd_bench --json LINK: the file it names is written, the link kept"
if mknod "$WORK/full" c 1 7 2>/dev/null; then
    # shellcheck disable=SC2086 # several flags
    "$SPDGEN_BUILD/bench/spd_bench" $tiny --json "$WORK/full" >/dev/null 2>"$WORK/full.err"
    rc=$?
    [ $rc -eq 1 ] && [ -c "$WORK/full" ] && grep -q "No space left" "$WORK/full.err"
    ok $? "spd_bench --json on a full device: exit 1 (got $rc), the device left a device"
else
    echo "ok $((TAP_N + 1)) # SKIP making a device node needs root"; TAP_N=$((TAP_N + 1))
fi
done_testing
