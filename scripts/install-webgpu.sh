#!/bin/sh
# Installs what the WGSL tests (tests/wgsl) need into the checkout's .deps/ (git-ignored),
# and only what is missing. Idempotent; needs no root. scripts/install-deps.sh runs it.
#   .deps/npm   the npm package `webgpu` (Dawn's node bindings: Tint validates WGSL with
#               the null backend, and runs it on Vulkan); needs node and npm
#   .deps/mesa  lavapipe from Mesa of Debian bookworm-backports, unpacked with dpkg -x (not
#               installed: the other tests keep the system's Mesa 22.3 lavapipe, which Dawn
#               refuses for lacking shaderUniform*ArrayDynamicIndexing), and lvp_icd.json
#               naming its library by absolute path, for VK_DRIVER_FILES
# A step that cannot run or fails says why and leaves the tests that need it skipped (they
# print the reason); the script exits 0 either way.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
deps=${SPDGEN_DEPS:-$root/.deps}
WEBGPU_VERSION=0.6.2
MESA_SUITE=bookworm-backports

if [ ! -f "$deps/npm/node_modules/webgpu/package.json" ]; then
    if command -v npm >/dev/null 2>&1 && command -v node >/dev/null 2>&1; then
        echo "spdgen: installing the npm package webgpu@$WEBGPU_VERSION into $deps/npm"
        mkdir -p "$deps/npm"
        [ -f "$deps/npm/package.json" ] || echo '{ "private": true }' >"$deps/npm/package.json"
        (cd "$deps/npm" && npm install --no-audit --no-fund --silent "webgpu@$WEBGPU_VERSION") ||
            echo "spdgen: npm install webgpu@$WEBGPU_VERSION failed: tests/wgsl will be skipped" >&2
    else
        echo "spdgen: node and npm missing: tests/wgsl will be skipped (apt-get install nodejs npm)" >&2
    fi
fi

fetch_lavapipe() {
    arch=$(dpkg --print-architecture)
    lib=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
    apt="$deps/mesa/apt"
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" || return 1
    echo "deb http://deb.debian.org/debian $MESA_SUITE main" >"$apt/sources.list" || return 1
    # A private apt state: only the backports index, the system's keyring, nothing installed.
    set -- -o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=/dev/null" \
        -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o "APT::Architecture=$arch" \
        -o "Debug::NoLocking=1"
    # As root apt drops to its _apt user, who cannot write into the checkout.
    [ "$(id -u)" -ne 0 ] || set -- "$@" -o "APT::Sandbox::User=root"
    echo "spdgen: fetching mesa-vulkan-drivers from $MESA_SUITE into $deps/mesa"
    apt-get "$@" -qq update || return 1
    (cd "$apt" && apt-get "$@" -qq download "mesa-vulkan-drivers/$MESA_SUITE") || return 1
    dpkg -x "$apt"/mesa-vulkan-drivers_*.deb "$deps/mesa/root" || return 1
    so="$deps/mesa/root/usr/lib/$lib/libvulkan_lvp.so"
    [ -f "$so" ] || { echo "spdgen: $so missing from the package" >&2; return 1; }
    api=$(sed -n 's/.*"api_version": *"\([^"]*\)".*/\1/p' "$deps/mesa/root/usr/share/vulkan/icd.d/lvp_icd.json" 2>/dev/null | head -1)
    cat >"$deps/mesa/lvp_icd.json" <<JSON
{
  "ICD": {
    "api_version": "${api:-1.3.0}",
    "library_path": "$so"
  },
  "file_format_version": "1.0.0"
}
JSON
    rm -rf "$apt"
}
if [ ! -f "$deps/mesa/lvp_icd.json" ]; then
    # Each step returns at its failure (set -e does not hold under ||); the tests then skip.
    fetch_lavapipe ||
        echo "spdgen: fetching Mesa's lavapipe from $MESA_SUITE failed: tests/wgsl/run.t will be skipped" >&2
fi
