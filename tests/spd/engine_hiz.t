#!/bin/sh
# examples/engine_hiz.c (issue 28, item 4): a Hi-Z pyramid of a D32 depth buffer on an
# application's own device, written from the contract header alone (--name hiz
# --embed-spirv), runs under the validation layer with synchronization validation and
# reports no message; every level equals the largest depth of its footprint.
. "$(dirname "$0")/../lib.sh"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
bin="$SPDGEN_BUILD/examples/engine_hiz"

"$bin" >"$WORK/out" 2>"$WORK/err"
rc=$?
[ $rc -eq 0 ] && grep -q "^engine_hiz: [0-9]* levels of a 333x200 depth buffer, 0 wrong texels$" "$WORK/out"
ok $? "engine_hiz: every level of the pyramid is the largest depth of its footprint"
[ $rc -eq 0 ] && grep -q "^engine_hiz: 0 validation messages$" "$WORK/out" && [ ! -s "$WORK/err" ]
ok $? "engine_hiz: the validation layer and synchronization validation report nothing"
[ $rc -eq 0 ] || diag "exit $rc" "$(cat "$WORK/out")" "$(head -c 3000 "$WORK/err")"
! ldd "$bin" | grep -q libspdrt && ldd "$bin" | grep -q libvulkan &&
    grep -q "hiz_spirv\[HIZ_SPIRV_WORDS\]" "$SPDGEN_BUILD/examples/hiz.h"
ok $? "engine_hiz links the Vulkan loader and no libspdrt; its SPIR-V is the header's array"

done_testing
