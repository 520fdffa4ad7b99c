#!/bin/sh
# Probe wrapper (not in the repository): "--probe-storage" picks a precomputed SPIR-V whose
# level 0 is read with imageLoad from a storage image; anything else runs the real spdgen.
here=$(dirname "$0")
args=""; out=""; probe=0
while [ $# -gt 0 ]; do
  case $1 in -o) out=$2; shift 2;; --probe-storage) probe=1; dir=probe; shift;;
    --probe-nofence) probe=1; dir=nofence; shift;; --probe-v1) probe=1; dir=v1; shift;;
    --probe-v2) probe=1; dir=v2; shift;; --probe-v3) probe=1; dir=v3; shift;; *) args="$args $1"; shift;; esac
done
if [ $probe = 1 ]; then
  key=$(printf '%s' "$args" | md5sum | cut -c1-32)
  cp "$here/$dir/$key.spv" "$out" || { echo "probe: no $key for$args" >&2; exit 1; }
  exit 0
fi
if [ -n "$out" ]; then exec "$here/spdgen.real" $args -o "$out"; else exec "$here/spdgen.real" $args; fi
