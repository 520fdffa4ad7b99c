#!/bin/sh
# Installs the Debian packages spdgen needs, and only those that are missing.
# Then the WGSL tests' WebGPU, into .deps/ (scripts/install-webgpu.sh). Idempotent. Uses
# apt-get when run as root; otherwise prints the exact command to run.
set -eu

# cmake, ninja-build and meson: the tests build outside projects against an installed spdgen.
PACKAGES="build-essential pkg-config clang lua5.4 liblua5.4-dev glslang-dev glslang-tools
spirv-tools spirv-headers libvulkan-dev mesa-vulkan-drivers vulkan-tools
vulkan-validationlayers perl cmake ninja-build meson libstb-dev"
# The WGSL tests run Dawn's node bindings (scripts/install-webgpu.sh): Debian's node and npm
# where no node is installed (one from elsewhere, e.g. Node 20, is kept).
command -v node >/dev/null 2>&1 || PACKAGES="$PACKAGES nodejs npm"

missing=""
for p in $PACKAGES; do
    # dpkg-query reports "install ok installed" only for fully installed packages.
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [ "$status" = "install ok installed" ] || missing="$missing $p"
done
here=$(dirname "$0")
if [ -z "$missing" ]; then
    exec "$here/install-webgpu.sh"
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "spdgen: missing Debian packages:$missing" >&2
    echo "spdgen: run: sudo apt-get update && sudo apt-get install -y$missing" >&2
    exit 1
fi
echo "spdgen: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing
"$here/install-webgpu.sh"
