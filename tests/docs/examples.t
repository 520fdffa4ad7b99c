#!/bin/sh
# The docs' examples, run against this build, so README.md and docs/*.md cannot drift from
# the binary:
# - every `spdgen ...` line of a ```sh block runs as written, in an empty folder, and must
#   exit 0 and write the files it names with -o and --emit-header. (Not with --check added:
#   spdgen refuses --check beside -MD, -MF and --emit-header, which write files.) A
#   --selftest line runs on the local device and must be cheap: at most one 1080p frame of
#   SPD texels or 2^20 FFT values;
# - every `$ spdgen ...` line of a ```console block runs as written and its output must
#   match the lines shown under it (`<...>` stands for any text within a line, a line `...`
#   for any lines); exit 2 where the output shown is a usage error, else 0;
# - a `spdgen` command outside a fenced block fails (it would be untested);
# - examples/build/'s Make, CMake and Meson projects build as they stand, do nothing the
#   second time, regenerate when spdgen or a template override changes and not when anything
#   else does; the README's build snippets are lines of them (CMake and Meson are skipped
#   where not installed);
# - the C blocks compile (README.md and docs/spd.md against the Hi-Z contract header,
#   docs/runtime.md against the public runtime headers), and the runtime example runs;
# - docs/runtime.md names every function the public runtime headers declare and gives its
#   prototype in a C block (compiled against the headers, so a signature cannot drift), and
#   every spdrt_ name it uses exists in them;
# - every relative link in the docs points to a file or folder that exists.
. "$(dirname "$0")/../lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
DOCS="$ROOT/README.md $(ls "$ROOT"/docs/*.md 2>/dev/null)"
skip() { TAP_N=$((TAP_N + 1)); echo "ok $TAP_N # SKIP $1"; }

# ---- extract ------------------------------------------------------------------------------
# One record per command: "FILE:LINE<TAB>sh|console<TAB>ARGS" (ARGS: after "spdgen");
# console records' expected output goes to $WORK/expect.N (N = the record's number).
mkdir -p "$WORK/run"
perl -e '
use strict; use warnings;
my ($work, @files) = @ARGV;
my $n = 0;
open(my $out, ">", "$work/commands") or die;
open(my $bad, ">", "$work/unfenced") or die;
for my $file (@files) {
    open(my $in, "<", $file) or die "$file: $!";
    my @lines = <$in>;
    chomp @lines;
    (my $name = $file) =~ s{^.*/(README\.md|docs/[^/]+)$}{$1};
    my ($lang, $expect) = (undef, undef);
    for (my $i = 0; $i < @lines; $i++) {
        my $l = $lines[$i];
        if (!defined $lang) {
            if ($l =~ /^```(\w*)/) { $lang = $1; next; }
            print $bad "$name:" . ($i + 1) . ": $l\n" if $l =~ /^\s{4,}(\$ )?spdgen\s/;
            next;
        }
        if ($l =~ /^```\s*$/) { close $expect if $expect; ($lang, $expect) = (undef, undef); next; }
        if ($lang eq "console") {
            if ($l =~ /^\$ spdgen\s+(.*)$/) {
                close $expect if $expect;
                $n++;
                print $out "$name:" . ($i + 1) . "\tconsole\t$1\n";
                open($expect, ">", "$work/expect.$n") or die;
            } elsif ($expect) {
                print $expect "$l\n";
            }
        } elsif ($lang =~ /^(sh|bash|shell)$/ && $l =~ /^\s*spdgen\s+(.*)$/) {
            my ($at, $cmd) = ($i + 1, $1);
            while ($cmd =~ s/\\\s*$// && $i + 1 < @lines) { $cmd .= " " . $lines[++$i]; }
            $cmd =~ s/\s+#.*$//;
            $cmd =~ s/\s+/ /g;
            $n++;
            print $out "$name:$at\tsh\t$cmd\n";
        }
    }
}
' "$WORK" $DOCS
ok $? "the docs parse"

[ ! -s "$WORK/unfenced" ]
ok $? "every spdgen command in the docs sits in a fenced sh or console block (so it is run here)"
[ -s "$WORK/unfenced" ] && diag "$(cat "$WORK/unfenced")"
for doc in README.md docs/spd.md docs/fft.md; do
    grep -q "^$doc:" "$WORK/commands"
    ok $? "$doc has spdgen examples to run"
done

# ---- run ----------------------------------------------------------------------------------
# selftest_affordable ARGS: refuse a --selftest example the suite cannot afford on lavapipe.
selftest_affordable() {
    perl -e '
    my $a = join(" ", @ARGV);
    my ($w, $h, $l) = $a =~ /--size (\d+)x(\d+)(?:x(\d+))?/ ? ($1, $2, $3 || 1) : (1920, 1080, $a =~ /--array/ ? 6 : 1);
    my $texels = $a =~ /--spd/ ? $w * $h * $l : 0;
    my ($n) = $a =~ /--fft (\d+)/;
    my ($b) = $a =~ /--batch (\d+)/;
    my $values = $n ? $n * ($b || 4) : 0;
    exit($texels <= 1920 * 1080 && $values <= (1 << 20) ? 0 : 1);
    ' -- "$@"
}

# run ARGS: spdgen with ARGS in an empty folder; output to $WORK/out; returns the exit code.
run() { (cd "$WORK/run" && eval "\"\$SPDGEN\" $*") </dev/null >"$WORK/out" 2>&1; }

n=0
while IFS="$(printf '\t')" read -r where kind args; do
    n=$((n + 1))
    case " $args " in
    *" --selftest "*) extra=""; cheap=1; selftest_affordable $args || cheap=0 ;;
    *" --check "*|*" --help "*|*" --version "*) extra=""; cheap=1 ;;
    *) extra=" --check"; cheap=1 ;;
    esac
    if [ $cheap -eq 0 ]; then
        ok 1 "$where: spdgen $args: too large a --selftest for the suite (keep docs examples small)"
        continue
    fi
    if [ "$kind" = sh ]; then
        rm -rf "$WORK/run" && mkdir "$WORK/run"
        run "$args"
        rc=$?
        written=0
        for f in $(printf ' %s ' $args | perl -ne 'print "$1\n" while / (?:-o|--emit-header)\s+(\S+)/g'); do
            # a four-step FFT plan writes NAME.pass1.EXT, NAME.pass2.EXT and NAME.fftplan; a
            # --conv job NAME.<role>.EXT and NAME.convplan
            [ "$f" = - ] || [ -s "$WORK/run/$f" ] || [ -s "$WORK/run/${f%.*}.fftplan" ] ||
                [ -s "$WORK/run/${f%.*}.convplan" ] || written=1
        done
        [ $rc -eq 0 ] && [ $written -eq 0 ]
        ok $? "$where: spdgen $args"
        [ $rc -eq 0 ] && [ $written -eq 0 ] || diag "exit $rc:" "$(tail -5 "$WORK/out")" "$(ls "$WORK/run")"
        continue
    fi
    # console: as written; a usage error shown means exit 2, anything else must write nothing.
    want=0
    grep -q "^spdgen: error:" "$WORK/expect.$n" && want=2
    if [ $want -eq 0 ] && [ -n "$extra" ]; then
        ok 1 "$where: spdgen $args: a console example must write nothing (--selftest, --check, --help, --version or a usage error)"
        continue
    fi
    run "$args"
    rc=$?
    perl -e '
    my ($expect, $got) = @ARGV;
    open(my $e, "<", $expect) or die; my @e = <$e>; chomp @e;
    open(my $g, "<", $got) or die; local $/; my $text = <$g>;
    pop @e while @e && $e[-1] eq "";
    my $re = join("", map {
        $_ eq "..." ? "(?:[^\n]*\n)*?"
                    : join(".*?", map { quotemeta } split(/<[^>]*>/, $_, -1)) . "[ \t]*\n"
    } @e);
    exit($text =~ /\A$re\z/ ? 0 : 1);
    ' "$WORK/expect.$n" "$WORK/out"
    matched=$?
    [ $rc -eq $want ] && [ $matched -eq 0 ]
    ok $? "$where: spdgen $args: exit $want, the output shown"
    [ $rc -eq $want ] && [ $matched -eq 0 ] || diag "exit $rc, output:" "$(cat "$WORK/out")"
done <"$WORK/commands"

# ---- build-system projects ----------------------------------------------------------------
# examples/build/{make,cmake,meson}: each builds as it stands with spdgen on PATH, does
# nothing the second time, regenerates the shader when spdgen or a template override
# changes, and not when anything else does; the README's ```make, ```cmake and ```meson
# blocks are lines of those projects, so what the README shows is what is built here.
EXB="$ROOT/examples/build"
for lang in make:make/Makefile cmake:cmake/CMakeLists.txt meson:meson/meson.build; do
    perl -e '
    my ($lang, $readme, $file) = @ARGV;
    open(my $r, "<", $readme) or die; my @r = <$r>;
    open(my $f, "<", $file) or die; local $/; my $project = <$f>;
    my ($in, @blocks, $cur) = (0);
    for (@r) {
        if (!$in && /^```\Q$lang\E\s*$/) { $in = 1; $cur = ""; next }
        if ($in && /^```/) { $in = 0; push @blocks, $cur; next }
        $cur .= $_ if $in;
    }
    exit 1 unless @blocks;
    for (@blocks) { exit 1 if index($project, $_) < 0 }
    ' "${lang%%:*}" "$ROOT/README.md" "$EXB/${lang#*:}"
    ok $? "README.md's \`\`\`${lang%%:*} blocks are lines of examples/build/${lang#*:}"
done
mkdir -p "$WORK/bin" "$WORK/over/templates/spd"
cp "$SPDGEN" "$WORK/bin/spdgen"
# An override the builds read (a copy of the embedded template): editing it must regenerate.
cp "$ROOT/templates/spd/kernel.lua" "$WORK/over/templates/spd/kernel.lua"
PATH="$WORK/bin:$PATH"
SPDGEN_TEMPLATE_DIR="$WORK/over"
export PATH SPDGEN_TEMPLATE_DIR
# check_build NAME BUILD_COMMAND PROJECT OUTPUT_DIR: builds the copied project, checks its
# outputs and program, then what a rebuild regenerates after each kind of change.
check_build() {
    name=$1 build=$2 project=$3 dir=$4
    touch -d '@1000000000' "$WORK/bin/spdgen" "$WORK/over/templates/spd/kernel.lua"
    # mtime OUT: the shader's modification time ("" if missing).
    mtime() { stat -c %y "$dir/hiz.spv" 2>/dev/null; }
    sh -c "$build" >"$WORK/build.log" 2>&1 && [ -s "$dir/hiz.spv" ] &&
        grep -q "^#define HIZ_EDGE_CONSERVATIVE 1" "$dir/hiz.h" &&
        grep -q "Made with template overrides: templates/spd/kernel.lua" "$dir/hiz.h" &&
        "$dir/hiz_info" | grep -q "^hiz: 10 levels for 1920x1080, 30x17 workgroups, [0-9]* words of SPIR-V$"
    ok $? "$name: examples/build/$project builds hiz.spv, hiz.h (the override read) and hiz_info"
    [ -s "$dir/hiz.spv" ] || { diag "$(tail -20 "$WORK/build.log")"; return; }
    before=$(mtime)
    sh -c "$build" >"$WORK/build.log" 2>&1 && [ "$(mtime)" = "$before" ]
    ok $? "$name: a second build regenerates nothing"
    touch "$WORK/$project/main.c"
    sh -c "$build" >"$WORK/build.log" 2>&1 && [ "$(mtime)" = "$before" ] && "$dir/hiz_info" >/dev/null
    ok $? "$name: an edited main.c rebuilds the program and regenerates no shader"
    touch "$WORK/over/templates/spd/kernel.lua"
    sh -c "$build" >"$WORK/build.log" 2>&1 && [ "$(mtime)" != "$before" ]
    ok $? "$name: an edited template override regenerates the shader (the depfile names it)"
    before=$(mtime)
    touch "$WORK/bin/spdgen"
    sh -c "$build" >"$WORK/build.log" 2>&1 && [ "$(mtime)" != "$before" ]
    ok $? "$name: a newer spdgen regenerates the shader (the depfile names it)"
    before=$(mtime)
    sh -c "$build" >"$WORK/build.log" 2>&1 && [ "$(mtime)" = "$before" ]
    ok $? "$name: and then nothing again"
}

cp -r "$EXB/make" "$WORK/make"
check_build "Make" "make -C '$WORK/make'" make "$WORK/make"

if command -v cmake >/dev/null 2>&1; then
    cp -r "$EXB/cmake" "$WORK/cmake"
    check_build "CMake, Unix Makefiles" \
        "cmake -S '$WORK/cmake' -B '$WORK/cmake/mk' -G 'Unix Makefiles' && cmake --build '$WORK/cmake/mk'" \
        cmake "$WORK/cmake/mk"
    if command -v ninja >/dev/null 2>&1; then
        check_build "CMake, Ninja" \
            "cmake -S '$WORK/cmake' -B '$WORK/cmake/nj' -G Ninja && cmake --build '$WORK/cmake/nj'" \
            cmake "$WORK/cmake/nj"
    else
        skip "CMake with Ninja: ninja is not installed"
    fi
else
    skip "CMake: cmake is not installed"
fi

if command -v meson >/dev/null 2>&1 && command -v ninja >/dev/null 2>&1; then
    cp -r "$EXB/meson" "$WORK/meson"
    check_build "Meson" \
        "{ [ -d '$WORK/meson/b' ] || meson setup '$WORK/meson/b' '$WORK/meson'; } && ninja -C '$WORK/meson/b'" \
        meson "$WORK/meson/b"
else
    skip "Meson: meson or ninja is not installed"
fi
unset SPDGEN_TEMPLATE_DIR

# ---- C blocks --------------------------------------------------------------------------------
# Every ```c block: those of README.md and docs/spd.md inside a function, against the contract
# header of the Hi-Z example (named hiz and spd); those of docs/runtime.md against the public
# headers, spdrt_vk.h included (a
# prototype that differs from the header's fails), and a block with main() built against
# libspdrt and run on the local device with the Hi-Z shader.
mkdir -p "$WORK/c"
perl -e '
my ($dir, @files) = @ARGV;
for my $file (@files) {
    open(my $in, "<", $file) or next;
    (my $name = $file) =~ s{^.*/}{};
    my ($n, $out) = (0, undef);
    while (<$in>) {
        if (!$out && /^```c\s*$/) { $n++; open($out, ">", "$dir/$name.$n.c") or die; next; }
        if ($out && /^```/) { close $out; $out = undef; next; }
        print $out $_ if $out;
    }
}
' "$WORK/c" "$ROOT/README.md" "$ROOT/docs/spd.md" "$ROOT/docs/runtime.md"
RT_INCLUDES=$(for h in spdrt.h spdrt_fft.h spd_ref.h spd_passes.h; do
    find "$ROOT/runtime" -name "$h" -exec dirname {} \; ; done | sort -u | sed 's/^/-I/')
LIBSPDRT=$SPDGEN_BUILD/libspdrt.a
[ -f "$LIBSPDRT" ] || LIBSPDRT=$(find "$SPDGEN_BUILD" -name libspdrt.a | head -1)
# README.md names the header hiz (HIZ_ names), docs/spd.md spd (SPD_ names).
(cd "$WORK/c" && "$SPDGEN" --spd --op max --format r32f --edge conservative --name hiz -o hiz.comp \
    --emit-header hiz.h && "$SPDGEN" --spd --op max --format r32f --edge conservative --name spd \
    -o spd.comp --emit-header spd.h && "$SPDGEN" --spd --op max --format r32f --edge conservative \
    --target spirv -o hiz.spv)
for block in "$WORK"/c/*.md.*.c; do
    [ -f "$block" ] || continue
    name=${block##*/}
    case $name in
    runtime.md.*)
        if grep -q "int main(" "$block"; then
            ${CC:-cc} -std=c11 -Wall -Wextra -Werror $RT_INCLUDES -o "$block.bin" "$block" \
                "$LIBSPDRT" -ldl -lm 2>"$WORK/cc.log" && (cd "$WORK/c" && "$block.bin" hiz.spv) >>"$WORK/cc.log" 2>&1
            rc=$?
            ok $rc "docs/runtime.md, C block ${name#runtime.md.}: builds against libspdrt and runs the Hi-Z shader"
        else
            { printf '#include "spdrt_fft.h"\n#include "spdrt_vk.h"\n#include "spdrt_dmap.h"\n'; cat "$block"; } >"$block.tu.c"
            ${CC:-cc} -std=c11 -Wall -Wextra -Werror -fsyntax-only $RT_INCLUDES "$block.tu.c" 2>"$WORK/cc.log"
            rc=$?
            ok $rc "docs/runtime.md, C block ${name#runtime.md.}: compiles against the public headers"
        fi ;;
    *)
        {
            [ "${name%%.md.*}" = README ] && printf '#include "hiz.h"\n' || printf '#include "spd.h"\n'
            printf 'typedef struct Cmd *VkCommandBuffer;\ntypedef struct Layout *VkPipelineLayout;\n'
            printf '#define VK_SHADER_STAGE_COMPUTE_BIT 0x20u\n'
            printf 'void vkCmdPushConstants(VkCommandBuffer, VkPipelineLayout, unsigned, uint32_t, uint32_t, const void *);\n'
            printf 'void vkCmdDispatch(VkCommandBuffer, uint32_t, uint32_t, uint32_t);\n'
            printf 'void record(VkCommandBuffer cmd, VkPipelineLayout layout, uint32_t w, uint32_t h, uint32_t layers)\n{\n'
            printf '    (void)cmd, (void)layout, (void)w, (void)h, (void)layers;\n'
            cat "$block"
            printf '}\n'
        } >"$block.tu.c"
        ${CC:-cc} -std=c11 -Wall -Wextra -Werror -fsyntax-only -I"$WORK/c" "$block.tu.c" 2>"$WORK/cc.log"
        rc=$?
        ok $rc "$([ "${name%%.md.*}" = README ] && echo README.md || echo "docs/${name%%.md.*}.md"), C block ${name##*.md.}: compiles against the Hi-Z contract header" ;;
    esac
    [ $rc -eq 0 ] || diag "$(cat "$WORK/cc.log")"
done

# ---- docs/runtime.md against the public headers ---------------------------------------------
headers=$(find "$ROOT/runtime" -name 'spdrt*.h' ! -name '*internal*' 2>/dev/null)
missing=$(perl -ne 'print "$1\n" if /^[A-Za-z].*?\b(spdrt_[a-z0-9_]+)\s*\(/' $headers | sort -u |
    while read -r fn; do grep -q "\b$fn\b" "$ROOT/docs/runtime.md" || echo "$fn"; done)
[ -n "$headers" ] && [ -z "$missing" ]
ok $? "docs/runtime.md names every function of the public headers ($(echo $headers | wc -w) headers)"
[ -n "$missing" ] && diag "not documented: $missing"
# The signatures: every function has its prototype in a C block of docs/runtime.md, and the
# blocks compile against the headers above, so a prototype that drifts fails there.
unshown=$(perl -ne 'print "$1\n" if /^[A-Za-z].*?\b(spdrt_[a-z0-9_]+)\s*\(/' $headers | sort -u |
    while read -r fn; do grep -L "int main(" "$WORK"/c/runtime.md.*.c | xargs grep -q "^[A-Za-z].*\b$fn\s*(" ||
        echo "$fn"; done)
[ -n "$headers" ] && [ -z "$unshown" ]
ok $? "docs/runtime.md's C blocks declare every function of the public headers (so its signature is checked)"
[ -n "$unshown" ] && diag "no prototype in docs/runtime.md: $unshown"
# (spdgen::spdrt_static is a CMake target, not a C name.)
unknown=$(perl -ne 'print "$1\n" while /(?<!::)\b(spdrt_[a-z0-9_]*|SPDRT_[A-Z0-9_]*)/g' "$ROOT/docs/runtime.md" | sort -u |
    grep -v '_$' | while read -r name; do grep -qw "$name" $headers || echo "$name"; done)
[ -z "$unknown" ]
ok $? "every spdrt_ / SPDRT_ name docs/runtime.md uses is in a public header"
[ -n "$unknown" ] && diag "not in the headers: $unknown"

# ---- links ----------------------------------------------------------------------------------
broken=$(for doc in $DOCS "$ROOT/tests/README.md" "$ROOT/bench/results/NOTES.md"; do
    [ -f "$doc" ] || continue
    dir=$(dirname "$doc")
    perl -ne 'while (/\]\(([^)#]+)(?:#[^)]*)?\)/g) { print "$1\n" unless $1 =~ /^[a-z]+:/ }' "$doc" |
        while read -r link; do [ -e "$dir/$link" ] || echo "$doc: $link"; done
done)
[ -z "$broken" ]
ok $? "every relative link in the docs exists"
[ -n "$broken" ] && diag "$broken"

done_testing
