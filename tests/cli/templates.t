#!/bin/sh
# Templates from --template-dir under hostile use (issue 26, items 9-12): limits on what a
# template may run, print kept off stdout, C headers that no template text can turn into
# code, outputs that say they were made with overrides, and depfiles that notice an override
# added later.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")/../.." && pwd)

one_line() { [ "$(wc -l <"$WORK/err")" -eq 1 ]; }

# 9. An endless loop and a memory bomb stop with one line naming the template and its line.
mkdir -p "$WORK/loop/templates/spd" "$WORK/bomb/templates/spd"
printf -- '-- an endless loop\nwhile true do end\n' >"$WORK/loop/templates/spd/kernel.lua"
start=$(date +%s)
"$SPDGEN" --spd --template-dir "$WORK/loop" --check 2>"$WORK/err"
rc=$?
took=$(($(date +%s) - start))
[ $rc -eq 1 ] && one_line && grep -q "loop/templates/spd/kernel.lua:2: template ran past its budget" "$WORK/err" &&
    [ $took -lt 120 ]
ok $? "an endless loop: exit 1 after the instruction budget (${took}s), one line with file:line"
printf 'local t, s = {}, string.rep("x", 1 << 20)\nfor i = 1, 1e9 do\n    t[i] = s .. i\nend\n' \
    >"$WORK/bomb/templates/spd/kernel.lua"
"$SPDGEN" --spd --template-dir "$WORK/bomb" --check 2>"$WORK/err"
[ $? -eq 1 ] && one_line && grep -q "bomb/templates/spd/kernel.lua:3: template ran past its 256 MiB memory limit" "$WORK/err"
ok $? "a memory bomb: exit 1 at the memory limit, one line with file:line"
printf 'return string.rep("x", 1 << 29)\n' >"$WORK/bomb/templates/spd/kernel.lua"
"$SPDGEN" --spd --template-dir "$WORK/bomb" --check 2>"$WORK/err"
[ $? -eq 1 ] && one_line && grep -q "memory limit" "$WORK/err"
ok $? "one allocation past the limit: exit 1, one line"

# 10. print in a template goes to stderr: -o - carries the shader alone (the header aside).
mkdir -p "$WORK/print/templates/spd"
{ echo 'print("hello from the template")'; cat "$here/templates/spd/kernel.lua"; } \
    >"$WORK/print/templates/spd/kernel.lua"
"$SPDGEN" --spd --template-dir "$WORK/print" -o - >"$WORK/out" 2>"$WORK/err"
[ $? -eq 0 ] && ! grep -q hello "$WORK/out" && grep -q "hello from the template" "$WORK/err" &&
    "$SPDGEN" --spd -o "$WORK/plain.comp" &&
    [ "$(sed '/^\/\*$/,/^\*\/$/d; /^\/\//d' "$WORK/out")" = \
        "$(sed '/^\/\*$/,/^\*\/$/d; /^\/\//d' "$WORK/plain.comp")" ]
ok $? "print in a template writes to stderr; stdout is the shader alone"

# 11. A contract comment cannot become code in the C header, a name must be an identifier,
# and every output made with an override names it.
mkdir -p "$WORK/inject/templates/spd"
sed 's|read with texel fetches (no sampler)|read with texel fetches */ __attribute__((constructor)) static void evil(void) { system(\\"touch PWNED\\"); } /* x|' \
    "$here/templates/spd/kernel.lua" >"$WORK/inject/templates/spd/kernel.lua"
grep -q 'touch PWNED' "$WORK/inject/templates/spd/kernel.lua"
ok $? "the injecting override is in place"
"$SPDGEN" --spd --name spd --template-dir "$WORK/inject" -o "$WORK/i.comp" --emit-header "$WORK/i.h" &&
    printf '#include <stdlib.h>\n#include "i.h"\nint main(void) { return SPD_TILE == 64 ? 0 : 1; }\n' >"$WORK/use.c" &&
    grep -q "touch PWNED" "$WORK/i.h" && cc -o "$WORK/use" "$WORK/use.c" -I"$WORK" && (cd "$WORK" && ./use) &&
    [ ! -e "$WORK/PWNED" ]
ok $? "comment text with */ and code compiles as comment text: nothing runs in the consumer"
grep -q "Made with template overrides: templates/spd/kernel.lua [0-9a-f]\{16\}" "$WORK/i.h" &&
    head -1 "$WORK/i.comp" | grep -q "^// spdgen: made with template overrides: templates/spd/kernel.lua [0-9a-f]\{16\}$" &&
    grep -q -- "--template-dir $WORK/inject" "$WORK/i.comp"
ok $? "the shader and the header name the override file and its hash; the command names --template-dir"
"$SPDGEN" --spd --target spirv --template-dir "$WORK/inject" -o "$WORK/i.spv" &&
    spirv-dis "$WORK/i.spv" | grep -q 'OpModuleProcessed ".*made with template overrides: templates/spd/kernel.lua'
ok $? "the SPIR-V stamp names the override too"
mkdir -p "$WORK/badname/templates/spd"
sed 's|macro = "SOURCE"|macro = "SOURCE 0\\n#define EVIL 1"|' "$here/templates/spd/kernel.lua" \
    >"$WORK/badname/templates/spd/kernel.lua"
"$SPDGEN" --spd --name spd --template-dir "$WORK/badname" -o "$WORK/b.comp" --emit-header "$WORK/b.h" 2>"$WORK/err"
[ $? -eq 1 ] && one_line && grep -q "contract.bindings\[1\].macro: 'SOURCE 0?#define EVIL 1' is not a C identifier" "$WORK/err" &&
    [ ! -e "$WORK/b.h" ]
ok $? "a contract name that is not a C identifier: exit 1, nothing written"

# 12. An override added after the first run reruns the rule: the depfile names the
# directories the lookup searched.
mkdir -p "$WORK/mk/over"
cat >"$WORK/mk/Makefile" <<MK
out.comp: ; "$SPDGEN" --spd --template-dir over -o out.comp -MD
-include out.comp.d
MK
(cd "$WORK/mk" && make -s >/dev/null 2>&1) && [ -f "$WORK/mk/out.comp" ] &&
    (cd "$WORK/mk" && make -q 2>/dev/null)
ok $? "make builds the shader once and then finds it up to date"
sleep 1
mkdir -p "$WORK/mk/over/templates/spd"
sed 's/single-pass downsampler (SPD)/single-pass downsampler (SPD, added later)/' \
    "$here/templates/spd/kernel.lua" >"$WORK/mk/over/templates/spd/kernel.lua"
(cd "$WORK/mk" && make -s >/dev/null 2>&1) && grep -q "added later" "$WORK/mk/out.comp"
ok $? "adding an override file later makes make regenerate the shader"

done_testing
