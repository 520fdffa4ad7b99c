#!/bin/sh
# Installs the Debian packages spdgen needs, and only those that are missing.
# Idempotent. Uses apt-get when run as root; otherwise prints the exact command to run.
set -eu

# cmake, ninja-build and meson: the tests build outside projects against an installed spdgen.
PACKAGES="build-essential pkg-config clang lua5.4 liblua5.4-dev glslang-dev glslang-tools
spirv-tools spirv-headers libvulkan-dev mesa-vulkan-drivers vulkan-tools
vulkan-validationlayers perl cmake ninja-build meson libstb-dev"

missing=""
for p in $PACKAGES; do
    # dpkg-query reports "install ok installed" only for fully installed packages.
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [ "$status" = "install ok installed" ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

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
