#!/bin/sh
# Every FFT length in a range on the local Vulkan device (issue 27: "every N from 2 to
# 1024"), through tests/fft/mixed (the real spdgen, a direct DFT in double, the bars of
# tests/fft/mixed.t), in parallel chunks. Not part of `make test`: on lavapipe a Bluestein
# shader near N = 1000 costs about 5 s of JIT per direction, so the whole range is an hour of
# CPU there (tests/fft/mixed.t runs a sample in the suite); on a real driver it takes minutes.
#
# usage: tests/fft/every_n.sh [FIRST] [LAST] [forward|all] [JOBS] [LANG]
#   defaults: 2 1024 all, JOBS = the number of CPUs, LANG glsl (or hlsl).
# Powers of two are included (they take the power-of-two path). Prints every TAP line, then a
# summary: lengths run, failures, and the worst relative L2 and max error per path. Exit 0
# only if every length ran and passed.
first=${1:-2}; last=${2:-1024}; mode=${3:-all}; jobs=${4:-$(nproc)}; lang=${5:-glsl}
build=${SPDGEN_BUILD:-$(cd "$(dirname "$0")/../.." && pwd)/build}
case $mode in forward|all) ;; *) echo "every_n.sh: mode '$mode': forward or all" >&2; exit 2 ;; esac
case $lang in glsl|hlsl) ;; *) echo "every_n.sh: language '$lang': glsl or hlsl" >&2; exit 2 ;; esac
[ "$first" -ge 2 ] && [ "$last" -ge "$first" ] ||
    { echo "every_n.sh: range $first..$last: 2 <= FIRST <= LAST" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Chunks of 8 lengths, interleaved (N, N + jobs, ...) so that every job gets small and large N.
seq "$first" "$last" | awk -v j="$jobs" '{ c[NR % j] = c[NR % j] " " $1 }
    END { for (k in c) { n = split(c[k], v, " "); line = "";
          for (i = 1; i <= n; i++) { line = line " " v[i]; if (i % 8 == 0) { print line; line = "" } }
          if (line != "") print line } }' >"$work/chunks"
i=0
while read -r chunk; do
    i=$((i + 1))
    echo "$i $chunk"
done <"$work/chunks" | xargs -P "$jobs" -L 1 sh -c \
    'id=$1; shift; "$0/tests/fft/mixed" '"$lang $mode"' "$@" >"'"$work"'/out.$id" 2>&1; echo $? >"'"$work"'/rc.$id"' \
    "$build"

cat "$work"/out.* | grep -E '^(not )?ok .*--fft ' |
    awk '{ for (i = 1; i <= NF; i++) if ($i == "--fft") print $(i + 1), $0 }' |
    sort -s -n -k1,1 | cut -d' ' -f2- >"$work/lines"
cat "$work/lines"
[ "$mode" = all ] && expected=$(( (last - first + 1) * 3 )) || expected=$((last - first + 1))
got=$(wc -l <"$work/lines")
fails=$(grep -c '^not ok' "$work/lines")
bad_chunks=$(cat "$work"/rc.* | grep -vc '^0$')
echo "# $lang $mode N = $first..$last: $got of $expected comparisons ran, $fails failed," \
     "$bad_chunks of $(ls "$work"/rc.* | wc -l) chunks exited nonzero"
# Worst errors per path: Rader and Bluestein lines carry the 1.5e-06 bar, smooth ones 4.0e-07,
# round trips 1.0e-06 (tests/fft/mixed.c's bars).
awk '{ for (i = 1; i <= NF; i++) { if ($i == "L2") l2 = $(i + 1); if ($i == "max") mx = $(i + 1) }
       for (i = 1; i <= NF; i++) if ($i == "--fft") n = $(i + 1);
       path = /inverse\(forward/ ? "round trip" : /1.5e-06/ ? "Rader or Bluestein" : "smooth";
       if (l2 + 0 > w[path]) { w[path] = l2 + 0; wn[path] = n }
       if (mx + 0 > m[path]) m[path] = mx + 0 }
     END { for (p in w) printf "# worst %s: rel L2 %.2e (N = %s), max %.2e\n", p, w[p], wn[p], m[p] }' \
    "$work/lines"
[ "$got" -eq "$expected" ] && [ "$fails" -eq 0 ] && [ "$bad_chunks" -eq 0 ]
