#!/bin/sh
# spdgen's command line, whatever the kernel (SPD stands in for any): usage errors of the
# generator's own flags, help/version, determinism, the regenerate command, --check, depfiles,
# --template-dir, and template and validation failures that leave earlier outputs intact.
# Runs the real binary; asserts on exit codes, file contents and properties of the messages,
# never on text pasted from a previous run.
. "$(dirname "$0")/../lib.sh"

# expect_usage_error DESCRIPTION FLAG_IN_MESSAGE ARGS...: exit 2, exactly one line on stderr
# naming the flag, nothing on stdout.
expect_usage_error() {
    desc=$1; flag=$2; shift 2
    "$SPDGEN" "$@" >"$WORK/out" 2>"$WORK/err"
    rc=$?
    lines=$(wc -l <"$WORK/err")
    [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && grep -q -- "^spdgen: error: .*$flag" "$WORK/err" && [ ! -s "$WORK/out" ]
    ok $? "$desc: exit 2, one line naming $flag"
    [ $rc -eq 2 ] && [ "$lines" -eq 1 ] || diag "exit $rc, stderr:" "$(cat "$WORK/err")"
}

expect_usage_error "no kernel" "--spd" --op max
expect_usage_error "two kernels" "--fft" --spd --fft 64
expect_usage_error "unknown flag" "--frobnicate" --spd --frobnicate
expect_usage_error "--target cuda" "--target cuda" --spd --target cuda
expect_usage_error "missing value" "--mips" --spd --mips
expect_usage_error "HLSL with vulkan1.2" "--target-env vulkan1.2" --spd --target hlsl --target-env vulkan1.2
expect_usage_error "--spirv-from without spirv" "--spirv-from" --spd --spirv-from hlsl
expect_usage_error "stray argument" "input.png" --spd input.png

# --help and --version: stdout, exit 0.
"$SPDGEN" --help >"$WORK/out" 2>"$WORK/err"
[ $? -eq 0 ] && grep -q -- "--subgroup" "$WORK/out" && grep -q -- "--edge E" "$WORK/out" && [ ! -s "$WORK/err" ]
ok $? "--help prints usage to stdout and exits 0"
"$SPDGEN" --version >"$WORK/out" 2>"$WORK/err"
[ $? -eq 0 ] && grep -Eq '^spdgen [0-9]+\.[0-9]+\.[0-9]+ \([0-9a-z.-]+\)$' "$WORK/out"
ok $? "--version prints 'spdgen X.Y.Z (revision)' and exits 0"

# Determinism: the same arguments give byte-identical output, run after run, for every
# target (Lua's pairs() order changes between runs, so this catches unsorted iteration).
for target in glsl hlsl msl spirv; do
    same=0
    "$SPDGEN" --spd --subgroup 8 --array --target $target -o "$WORK/a.$target" || same=1
    for i in 1 2 3; do
        "$SPDGEN" --spd --subgroup 8 --array --target $target -o "$WORK/b.$target" || same=1
        cmp -s "$WORK/a.$target" "$WORK/b.$target" || same=1
    done
    for edge in "--op max --edge conservative" "--edge weighted"; do
        # shellcheck disable=SC2086 # two flags each
        "$SPDGEN" --spd $edge --target $target -o "$WORK/e1.$target" &&
            "$SPDGEN" --spd $edge --target $target -o "$WORK/e2.$target" &&
            cmp -s "$WORK/e1.$target" "$WORK/e2.$target" || same=1
    done
    ok $same "deterministic output for --target $target"
done
# The output names the exact command that regenerates it, and that command regenerates it.
cmd=$(regenerate_command "$WORK/a.hlsl" | head -1)
[ -n "$cmd" ] && $SPDGEN_BUILD/$cmd -o "$WORK/c.hlsl" && cmp -s "$WORK/a.hlsl" "$WORK/c.hlsl"
ok $? "the regenerate command in the header reproduces the file"
! grep -q "$WORK" "$WORK/a.glsl"
ok $? "no output path or absolute path in the emitted text"

# The header compiles without a warning: a "//" line ending in "\\" continues the comment in
# any language with a C preprocessor (glslang warns of it), so the long regenerate command
# sits in a block comment. One shader per kernel, each with a command over 100 columns.
quiet=0
for kernel in "--spd --subgroup 8 --array" "--fft 2048 --wg 256" "--dmap fsr --content --subgroup 8" \
    "--dmap resolve" "--conv --image 1280x720 --psf 127x127"; do
    rm -f "$WORK"/w.*
    # shellcheck disable=SC2086 # a kernel's flags
    "$SPDGEN" $kernel --target glsl -o "$WORK/w.comp" || quiet=1
    for shader in "$WORK"/w*.comp; do
        glslangValidator -V --target-env vulkan1.1 "$shader" -o "$WORK/w.spv" >"$WORK/wlog" 2>&1 &&
            ! grep -qi "warning" "$WORK/wlog" || { quiet=1; diag "$kernel (glsl):" "$(cat "$WORK/wlog")"; }
    done
    for target in hlsl msl; do
        # shellcheck disable=SC2086
        "$SPDGEN" $kernel --target $target -o "$WORK/w.$target" || quiet=1
        ! grep -n '^//.*\\$' "$WORK"/w*."$target" >"$WORK/wlog" ||
            { quiet=1; diag "$kernel ($target):" "$(cat "$WORK/wlog")"; }
    done
done
ok $quiet "headers compile without a warning: no \"//\" line ends in \"\\\\\""
# A path holding "*/" or "/*" neither ends a block comment early nor (in WGSL, whose block
# comments nest; in C, where -Wcomment warns) opens another: the shader validates, no "*/" or
# "/*" is left inside its comment, its command regenerates it, and the C header compiles.
paths=0
mkdir -p "$WORK/t*/d/*e"
for target in glsl wgsl; do
    "$SPDGEN" --spd --template-dir "$WORK/t*/d/*e" --target $target -o "$WORK/p1.$target" &&
        [ "$(sed -n '/^\/\*$/,/^\*\/$/p' "$WORK/p1.$target" | sed '1d;$d' | grep -c '\*/\|/\*')" -eq 0 ] &&
        cmd=$(regenerate_command "$WORK/p1.$target") &&
        eval "\"\$SPDGEN_BUILD\"/$cmd -o \"\$WORK/p2.$target\"" && cmp -s "$WORK/p1.$target" "$WORK/p2.$target" ||
        { paths=1; diag "--target $target:" "$(sed -n '/^\/\*$/,/^\*\/$/p' "$WORK/p1.$target")"; }
done
"$SPDGEN" --spd --template-dir "$WORK/t*/d/*e" -o "$WORK/p3.comp" --emit-header "$WORK/p3.h" &&
    printf '#include "p3.h"\nint main(void) { return 0; }\n' >"$WORK/p3.c" &&
    cc -std=c11 -Wall -Werror -c "$WORK/p3.c" -o "$WORK/p3.o" 2>"$WORK/p3.err" || { paths=1; diag "$(cat "$WORK/p3.err")"; }
ok $paths "a --template-dir holding \"*/\" and \"/*\" keeps the headers one comment (the C header compiles with -Werror) and regenerates the file"
# Spaces inside a quoted path stay as they are: the commands in the shader and in the C header
# (each broken into lines by its own code) give the same files back.
spaced=0
mkdir -p "$WORK/two  spaces/it's  here"
dir="$WORK/two  spaces/it's  here"
"$SPDGEN" --spd --name sp --template-dir "$dir" -o "$WORK/s1.comp" --emit-header "$WORK/s1.h" || spaced=1
for from in s1.comp s1.h; do
    cmd=$(regenerate_command "$WORK/$from") &&
        eval "\"\$SPDGEN_BUILD\"/$cmd -o \"\$WORK/s2.comp\" --emit-header \"\$WORK/s2.h\"" &&
        cmp -s "$WORK/s1.comp" "$WORK/s2.comp" && cmp -s "$WORK/s1.h" "$WORK/s2.h" ||
        { spaced=1; diag "from $from: $cmd"; }
done
ok $spaced "a --template-dir with two spaces in a row and a quote: the shader's and the header's commands give the files back"
# A line break would end the comment lines that name it (the plan file's "#" lines too).
nl="$WORK/line
break" && mkdir -p "$nl"
expect_usage_error "a --template-dir with a line break" "--template-dir: a path with a line break" \
    --fft 65536 --template-dir "$nl" -o "$WORK/nl.comp"

# SPIR-V output is a SPIR-V module (magic number 0x07230203, little endian).
[ "$(od -An -tx4 -N4 "$WORK/a.spirv" | tr -d ' ')" = "07230203" ]
ok $? "--target spirv writes a SPIR-V binary"

# --check validates and writes nothing.
rm -f "$WORK/check.comp"
"$SPDGEN" --spd --check -o "$WORK/check.comp" >"$WORK/out"
[ $? -eq 0 ] && [ ! -e "$WORK/check.comp" ] && [ ! -s "$WORK/out" ]
ok $? "--check exits 0 and writes nothing"

# Depfiles: gcc -M form; with embedded templates the dependency is spdgen itself.
"$SPDGEN" --spd -o "$WORK/d.comp" -MD
head -1 "$WORK/d.comp.d" | grep -q "^$WORK/d.comp: .*spdgen"
ok $? "-MD writes OUT.d naming the output and the spdgen binary"
"$SPDGEN" --spd -o "$WORK/d.comp" -MF "$WORK/deps.mk" -MT my_target
head -1 "$WORK/deps.mk" | grep -q "^my_target: "
ok $? "-MF/-MT choose the depfile path and target"

# --template-dir overrides templates file by file; the depfile lists the override.
mkdir -p "$WORK/tdir/templates/spd"
sed 's/single-pass downsampler (SPD)/single-pass downsampler (SPD, overridden)/' \
    "$(dirname "$0")/../../templates/spd/kernel.lua" >"$WORK/tdir/templates/spd/kernel.lua"
"$SPDGEN" --spd --template-dir "$WORK/tdir" -o "$WORK/o.comp" -MD
grep -q "SPD, overridden" "$WORK/o.comp" && grep -q "$WORK/tdir/templates/spd/kernel.lua" "$WORK/o.comp.d" &&
    ! grep -q "targets/glsl.lua" "$WORK/o.comp.d"
ok $? "--template-dir overrides one template; depfile lists exactly that file"
SPDGEN_TEMPLATE_DIR="$WORK/tdir" "$SPDGEN" --spd -o "$WORK/e.comp"
grep -q "SPD, overridden" "$WORK/e.comp"
ok $? "SPDGEN_TEMPLATE_DIR does the same"

# A template error is a generation failure (exit 1) naming the template file and line.
printf 'error("broken on purpose")\n' >"$WORK/tdir/templates/spd/kernel.lua"
echo "keep me" >"$WORK/keep.comp"
"$SPDGEN" --spd --template-dir "$WORK/tdir" -o "$WORK/keep.comp" 2>"$WORK/err"
rc=$?
[ $rc -eq 1 ] && grep -q "templates/spd/kernel.lua:1: broken on purpose" "$WORK/err"
ok $? "a failing template exits 1 with file:line"
[ "$(cat "$WORK/keep.comp")" = "keep me" ] && [ -z "$(ls "$WORK" | grep spdgen-)" ]
ok $? "a failed run leaves the earlier output intact and no temporary file"

# A template emitting invalid GLSL fails validation: exit 1, the compiler's message with the
# emitted line.
sed 's/return min(min(a, b), min(c, d));/return min(min(a, b), undeclared_thing);/; s/body = "min(min(a, b), min(c, d))"/body = "min(min(a, b), undeclared_thing)"/' \
    "$(dirname "$0")/../../templates/spd/kernel.lua" >"$WORK/tdir/templates/spd/kernel.lua"
"$SPDGEN" --spd --op min --template-dir "$WORK/tdir" -o "$WORK/keep.comp" 2>"$WORK/err"
rc=$?
[ $rc -eq 1 ] && grep -q "error: .*undeclared_thing" "$WORK/err" && grep -q "| .*undeclared_thing" "$WORK/err"
ok $? "invalid emitted GLSL exits 1 with the message and the emitted line"
[ "$(cat "$WORK/keep.comp")" = "keep me" ]
ok $? "validation failure leaves the earlier output intact"

# -o into a missing directory: exit 1, nothing written.
"$SPDGEN" --spd -o "$WORK/no/such/dir/x.comp" 2>"$WORK/err"
[ $? -eq 1 ] && [ ! -e "$WORK/no" ] && grep -q "no/such/dir/x.comp" "$WORK/err"
ok $? "-o into a missing directory exits 1 and writes nothing"
# A header that cannot be written stops every output of the run.
rm -f "$WORK/h1.comp"
"$SPDGEN" --spd --name spd -o "$WORK/h1.comp" --emit-header "$WORK/missing/h.h" 2>/dev/null
[ $? -eq 1 ] && [ ! -e "$WORK/h1.comp" ]
ok $? "an unwritable --emit-header writes no output at all"

done_testing
