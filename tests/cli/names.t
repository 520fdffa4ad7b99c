#!/bin/sh
# Contract headers of several configurations in one C file (issue 28, items 2 and 3): every
# macro, function, type and include guard carries the header's name (--name, else the
# kernel and a hash of the regenerate command), and --embed-spirv puts the validated module
# in the header as a C array.
. "$(dirname "$0")/../lib.sh"
cd "$WORK" || exit 1

usage() { # usage DESCRIPTION TEXT-THE-ERROR-MUST-NAME ARGS...: exit 2, one line, nothing out
    desc=$1; text=$2; shift 2
    "$SPDGEN" "$@" >"$WORK/out" 2>"$WORK/err"
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -qF -- "$text" "$WORK/err" && [ ! -s "$WORK/out" ]
    ok $? "$desc: exit 2, one line naming '$text'"
    [ $rc -eq 2 ] || diag "exit $rc, stderr:" "$(cat "$WORK/err")"
}
# prefix HEADER: the macro prefix its include guard names ("SPD_1A2B3C4D_").
prefix() { sed -n 's/^#ifndef SPDGEN_\(.*_\)CONTRACT_H$/\1/p' "$1"; }
# foreign HEADER PREFIX: the macros, functions and types of HEADER that lack PREFIX.
foreign() {
    low=$(echo "$2" | tr 'A-Z' 'a-z')
    type=$(echo "$low" | sed 's/_$//' | perl -pe 's/^(.)/\u$1/')
    perl -ne '
        BEGIN { ($P, $p, $T) = splice(@ARGV, 1, 3) }
        print "macro $1\n" if /^#\s*define\s+(\w+)/ && $1 !~ /^\Q$P\E/ && $1 ne "SPDGEN_${P}CONTRACT_H";
        print "function $1\n" if /^static inline \w+ (\w+)\(/ && $1 !~ /^\Q$p\E/;
        print "array $1\n" if /^static const \w+ (\w+)\[/ && $1 !~ /^\Q$p\E/;
        print "type $1\n" if /^(?:typedef struct|}) (\w+)/ && $1 !~ /^\Q$T\E/;
    ' "$1" "$2" "$low" "$type"
}

# ---- the default: two configurations, two names -------------------------------------------
"$SPDGEN" --spd --op max --format r32f --edge conservative -o hiz.comp --emit-header hiz.h &&
    "$SPDGEN" --spd --op mean --format rgba16f --max-size 1024x1024 -o chain.comp --emit-header chain.h
ok $? "two configurations' headers written without --name"
A=$(prefix hiz.h) B=$(prefix chain.h)
echo "$A" | grep -q '^SPD_[0-9A-F]\{8\}_$' && echo "$B" | grep -q '^SPD_[0-9A-F]\{8\}_$' && [ "$A" != "$B" ]
ok $? "default names are the kernel and 8 hex digits, different per configuration ($A, $B)"
[ -z "$(foreign hiz.h "$A")" ] && [ -z "$(foreign chain.h "$B")" ]
ok $? "every macro, function and type of a default-named header carries its name"
foreign hiz.h "$A" | head -5 | while read -r l; do diag "$l"; done
a=$(echo "$A" | tr 'A-Z' 'a-z') b=$(echo "$B" | tr 'A-Z' 'a-z')
cat >both.c <<EOC
#include <stdio.h>
#include "hiz.h"
#include "chain.h"
int main(void)
{
    printf("%d %d %u %d %d %u\n", ${A}MAX_MIPS, ${A}CHANNELS, ${a}mip_count(1920, 1080),
           ${B}MAX_MIPS, ${B}CHANNELS, ${b}mip_count(1920, 1080));
    return 0;
}
EOC
cc -std=c11 -Wall -Wextra -Werror -o both both.c 2>cc.log && [ "$(./both)" = "12 1 10 10 4 10" ]
ok $? "both headers in one C file: each keeps its own values (12 levels, 1 channel; 10 levels, 4 channels)"
[ -s cc.log ] && diag "$(cat cc.log)"
"$SPDGEN" --spd --op max --format r32f --edge conservative -o again.comp --emit-header again.h &&
    cmp -s hiz.h again.h
ok $? "one configuration always gets the same name (the same header bytes)"
# The header's regenerate command reproduces it, names included.
cmd=$(regenerate_command hiz.h)
# shellcheck disable=SC2086
set -- $cmd
shift
"$SPDGEN" "$@" -o re.comp --emit-header re.h && cmp -s hiz.h re.h
ok $? "the regenerate command gives the same header (and name)"

# ---- --name ---------------------------------------------------------------------------------
"$SPDGEN" --spd --op max --format r32f --edge conservative --name hiz -o n1.comp --emit-header n1.h &&
    "$SPDGEN" --spd --op mean --format rgba16f --max-size 1024x1024 --name color -o n2.comp --emit-header n2.h &&
    [ "$(prefix n1.h)" = HIZ_ ] && [ "$(prefix n2.h)" = COLOR_ ] &&
    [ -z "$(foreign n1.h HIZ_)" ] && [ -z "$(foreign n2.h COLOR_)" ] &&
    grep -q "^typedef struct HizPushConstants {" n1.h && grep -q "hiz_update_dispatch(" n1.h
ok $? "--name hiz: HIZ_ macros, hiz_ functions, HizPushConstants, guard SPDGEN_HIZ_CONTRACT_H"
cat >named.cpp <<'EOC'
#include <cstdio>
#include "n1.h"
#include "n2.h"
int main()
{
    HizPushConstants h = {333, 200, hiz_mip_count(333, 200), 0, 0, 0, 0, 0};
    ColorPushConstants c = {1024, 1024, color_mip_count(1024, 1024), 0, 0, 0, 0, 0};
    std::printf("%d %d %d %d %u %u %d\n", HIZ_MAX_MIPS, HIZ_EDGE_CONSERVATIVE, COLOR_MAX_MIPS,
                COLOR_CHANNELS, h.mip_count, c.mip_count, (int)HIZ_GRID_X(333u));
    return 0;
}
EOC
${CXX:-c++} -Wall -Wextra -Werror -o named named.cpp 2>cc.log && [ "$(./named)" = "12 1 10 4 8 10 6" ]
ok $? "two named headers in one C++ file: each keeps its own values"
[ -s cc.log ] && diag "$(cat cc.log)"
"$SPDGEN" --spd --op max --format r32f --edge conservative --name spd -o s.comp --emit-header s.h &&
    [ "$(prefix s.h)" = SPD_ ] && grep -q "^#define SPD_MAX_MIPS 12" s.h &&
    grep -q "^typedef struct SpdPushConstants {" s.h && grep -q "spd_mip_count(" s.h &&
    regenerate_command s.h | grep -q " --name spd$"
ok $? "--name spd gives the SPD_ names (SpdPushConstants, spd_mip_count); the command names it"
"$SPDGEN" --fft 65536 --target spirv --name big -o big.spv --emit-header big.h &&
    [ "$(prefix big.h)" = BIG_ ] && [ -z "$(foreign big.h BIG_)" ] &&
    grep -q "^#define BIG_PASS1_N " big.h && grep -q "^#define BIG_PASS2_GRID_X(count)" big.h
ok $? "--name on a four-step FFT plan: BIG_ and BIG_PASS1_, BIG_PASS2_ names"
usage "--name with a capital" "--name Hiz" --spd --name Hiz
usage "--name starting with a digit" "--name 2d" --spd --name 2d
usage "--name with a dash" "--name hi-z" --spd --name hi-z
usage "--name past 32 characters" "--name abcdefghijabcdefghijabcdefghijabc" --spd --name abcdefghijabcdefghijabcdefghijabc
usage "--name empty" "--name " --spd --name ""
"$SPDGEN" --spd --name hi-z 2>&1 | grep -q "lowercase letters, digits and '_'"
ok $? "the --name error says what a name may hold"

# ---- --embed-spirv ----------------------------------------------------------------------------
# dump.c writes the header's array as a file, to compare with the module spdgen wrote.
dump() { # dump HEADER ARRAY WORDS OUT
    printf '#include <stdio.h>\n#include "%s"\nint main(void) { FILE *f = fopen("%s", "wb");\n  return !f || fwrite(%s, 4, %s, f) != %s || fclose(f) != 0; }\n' \
        "$1" "$4" "$2" "$3" "$3" >dump.c && cc -std=c11 -Wall -Werror -o dump dump.c && ./dump
}
"$SPDGEN" --spd --op max --format r32f --edge conservative --name hiz --target spirv --embed-spirv \
    -o e.spv --emit-header e.h && dump e.h hiz_spirv HIZ_SPIRV_WORDS e.bin && cmp -s e.spv e.bin &&
    [ "$(grep -c '^#define HIZ_SPIRV_WORDS ' e.h)" -eq 1 ]
ok $? "--embed-spirv: hiz_spirv[HIZ_SPIRV_WORDS] holds the bytes of the .spv written beside it"
"$SPDGEN" --spd --target spirv --name hiz -o plain.spv --emit-header plain.h && ! grep -q "SPIRV_WORDS" plain.h
ok $? "without --embed-spirv there is no array"
"$SPDGEN" --fft 65536 --target spirv --name big --embed-spirv -o big.spv --emit-header bige.h &&
    dump bige.h big_pass1_spirv BIG_PASS1_SPIRV_WORDS p1.bin && cmp -s big.pass1.spv p1.bin &&
    dump bige.h big_pass2_spirv BIG_PASS2_SPIRV_WORDS p2.bin && cmp -s big.pass2.spv p2.bin
ok $? "--embed-spirv on a plan: one array per pass, each the pass's module"
"$SPDGEN" --spd --target hlsl --name hiz --embed-spirv -o h.hlsl --emit-header h.h &&
    dump h.h hiz_spirv HIZ_SPIRV_WORDS h.bin && spirv-val --target-env vulkan1.1 h.bin
ok $? "--embed-spirv with --target hlsl: the array is the validated module of the HLSL"
usage "--embed-spirv with --target msl" "--embed-spirv" --spd --target msl --embed-spirv --emit-header x.h -o x.metal
[ ! -e x.h ] && [ ! -e x.metal ]
ok $? "a refused --embed-spirv writes nothing"

done_testing
