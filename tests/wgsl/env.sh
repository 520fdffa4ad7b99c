# env.sh: what the WGSL tests share (source it after tests/lib.sh). The WebGPU they use is
# Dawn's node bindings (the npm package `webgpu`) in .deps/npm, and for running shaders a
# Mesa 25 lavapipe in .deps/mesa (Dawn refuses Debian 12's Mesa 22.3 lavapipe: it lacks
# shaderUniform*ArrayDynamicIndexing); scripts/install-deps.sh installs both.
WGSL_DIR="$SPDGEN_ROOT/tests/wgsl"
WGSL_DEPS=${SPDGEN_DEPS:-$SPDGEN_ROOT/.deps}
# wgsl_missing: why WebGPU cannot run here (empty: it can). Node, and the npm package.
wgsl_missing() {
    command -v node >/dev/null 2>&1 || { echo "node not installed (scripts/install-deps.sh)"; return; }
    [ -f "$WGSL_DEPS/npm/node_modules/webgpu/package.json" ] ||
        echo "$WGSL_DEPS/npm/node_modules/webgpu not installed (scripts/install-deps.sh)"
}
# wgsl_lavapipe_missing: why the private lavapipe cannot run here (empty: it can); sets
# VK_DRIVER_FILES to its ICD file and XDG_RUNTIME_DIR for Dawn.
wgsl_lavapipe_missing() {
    icd="$WGSL_DEPS/mesa/lvp_icd.json"
    if [ ! -f "$icd" ]; then
        echo "$icd not installed (scripts/install-deps.sh)"
        return
    fi
    VK_DRIVER_FILES="$icd"
    XDG_RUNTIME_DIR="$WORK"
    export VK_DRIVER_FILES XDG_RUNTIME_DIR
}
# wgsl_node SECONDS SCRIPT ARGS...: node on a script of tests/wgsl, killed after SECONDS;
# its stderr into $WORK/node.err without Dawn's warnings about dynamic buffer limits.
wgsl_node() {
    t=$1
    shift
    script=$1
    shift
    timeout "$t" node "$WGSL_DIR/$script" "$@" 2>"$WORK/node.err.$$"
    rc=$?
    grep -v '^Warning: maxDynamic' "$WORK/node.err.$$" >"$WORK/node.err"
    rm -f "$WORK/node.err.$$"
    return $rc
}
