#!/bin/sh
# What made an output (issue 26, item 13): --version and every output carry the version and
# the source revision; the regenerate command is the complete resolved configuration, so
# running it again gives the same bytes; SPIR-V carries the stamp as OpModuleProcessed.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")/../.." && pwd)

version=$("$SPDGEN" --version)
echo "$version" | grep -Eq '^spdgen [0-9]+\.[0-9]+\.[0-9]+ \([0-9A-Za-z._-]+\)$'
ok $? "--version names the version and the revision: $version"
rev=$(echo "$version" | sed 's/.*(\(.*\))/\1/')
if git -C "$here" rev-parse --git-dir >/dev/null 2>&1; then
    [ "${rev%-dirty}" = "$(git -C "$here" describe --always 2>/dev/null)" ]
    ok $? "the revision is this checkout's (git describe)"
else
    [ "$rev" = unknown ]
    ok $? "outside git the revision is 'unknown'"
fi

# Every kind of output names the version and revision, and the command.
"$SPDGEN" --spd -o "$WORK/s.comp" --emit-header "$WORK/s.h" &&
    "$SPDGEN" --fft 65536 --target spirv -o "$WORK/p.spv" &&
    "$SPDGEN" --fft 1024 --target spirv -o "$WORK/f.spv"
ok $? "outputs written"
stamp="spdgen ${version#spdgen }"
head -1 "$WORK/s.comp" | grep -qF "// $stamp: " && head -1 "$WORK/s.h" | grep -qF "/* $stamp: " &&
    head -1 "$WORK/p.fftplan" | grep -qF "# $stamp: "
ok $? "shader text, header and plan file start with '$stamp'"
spirv-dis "$WORK/f.spv" | grep -F "OpModuleProcessed \"$stamp: spdgen --fft 1024 " >/dev/null &&
    spirv-dis "$WORK/p.pass2.spv" | grep -F "OpModuleProcessed \"$stamp: spdgen --fft 65536 " >/dev/null &&
    spirv-val --target-env vulkan1.1 "$WORK/f.spv"
ok $? "SPIR-V carries the stamp and the command as OpModuleProcessed and still validates"

# The regenerate command pins the output: run it again, get the same bytes. A sample over
# both kernels, every target and the options whose defaults depend on others.
same=0
total=0
while read -r ext args; do
    total=$((total + 1))
    # shellcheck disable=SC2086
    "$SPDGEN" $args -o "$WORK/a.$ext" --emit-header "$WORK/a.h" || { diag "failed: $args"; continue; }
    if [ "$ext" = spv ]; then
        cmd=$(spirv-dis "$WORK/a.spv" | sed -n 's/.*OpModuleProcessed "spdgen [^:]*: \(spdgen .*\)"$/\1/p')
    else
        cmd=$(regenerate_command "$WORK/a.$ext")
    fi
    # shellcheck disable=SC2086
    set -- $cmd
    shift
    "$SPDGEN" "$@" -o "$WORK/b.$ext" --emit-header "$WORK/b.h" 2>"$WORK/err" &&
        cmp -s "$WORK/a.$ext" "$WORK/b.$ext" && cmp -s "$WORK/a.h" "$WORK/b.h" && same=$((same + 1)) ||
        diag "not reproduced: $args" "  by: $cmd" "$(cat "$WORK/err")"
done <<'LIST'
comp --spd
comp --spd --op max --format r32f --edge conservative
hlsl --spd --format rgba8 --sampler linear --target hlsl
metal --spd --array --sampler linear --format rgba16f --target msl
spv --spd --format rgba16f --half --subgroup 8 --target spirv --spirv-from hlsl
comp --spd --tile 16 --op min --format r32f
comp --spd --max-size 16384x16384 --tail hierarchy --sampler linear
comp --spd --max-mips-per-pass 4 --format rgba16f --edge weighted
comp --spd --format rgba8 --max-size 1920x1080 --target-env vulkan1.3
comp --fft 4096
comp --fft 2048 --subgroup 8
hlsl --fft 1024 --stride --target hlsl
metal --fft 256 --real --target msl
spv --fft 8192 --storage f16 --target spirv
comp --fft 512 --order native --direction inverse --norm unitary
comp --fft 1024 --twiddles lut --ept 4
comp --fft 256 --stride --column-layout registers
LIST
[ $same -eq $total ]
ok $? "the regenerate command reproduces the same bytes: $same of $total"
# A four-step plan: the plan file's command regenerates every file of the plan.
cmd=$(regenerate_command "$WORK/p.fftplan")
mkdir "$WORK/again"
# shellcheck disable=SC2086
set -- $cmd
shift
"$SPDGEN" "$@" -o "$WORK/again/p.spv" && cmp -s "$WORK/p.pass1.spv" "$WORK/again/p.pass1.spv" &&
    cmp -s "$WORK/p.pass2.spv" "$WORK/again/p.pass2.spv" && cmp -s "$WORK/p.fftplan" "$WORK/again/p.fftplan"
ok $? "the plan file's command reproduces the plan"

done_testing
