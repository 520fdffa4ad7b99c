#!/bin/sh
# check-msl.sh [CLANG-OPTION...] FILE.metal...
#
# Syntax- and type-checks Metal Shading Language files with clang++ against the
# <metal_stdlib> shim next to this script (no open-source Metal compiler exists).
# Options starting with '-' (e.g. -DSPD_LINEAR=1) are passed to clang++ for every file.
# Prints clang's diagnostics; exits 0 if every file passes, 1 if any fails, 2 on usage
# errors. Quiet on success. Works from any directory. CLANGXX overrides clang++.
#
# Two passes per file:
#  1. clang++ -std=c++17 -fsyntax-only -x c++ -I<shim> -Wall -Werror with
#     -Wno-unknown-attributes: MSL attributes ([[buffer(0)]], [[thread_position_in_grid]]
#     ...) are unknown to clang, which ignores them;
#     -flax-vector-conversions=none: MSL has no implicit vector-to-vector conversions
#     (clang's default lets int2 pass as uint2);
#     -Xclang -fnative-half-type -Xclang -fnative-half-arguments-and-returns: half is
#     __fp16 (clang 14 has no _Float16 on x86_64) and must be a real arithmetic type.
#     The shim's headers are system headers, so their own code draws no warnings; two
#     warnings its macros cause in MSL code are switched off by pragmas in
#     shim/keywords.h: -Wduplicate-decl-specifier ("const constant") and -Wuninitialized
#     (threadgroup variables written by one thread look uninitialized to the others).
#  2. Attribute names: clang is run again reporting only unknown attributes, and every
#     attribute name must be in MSL_ATTRIBUTES below, so a misspelling such as
#     [[thread_position_in_grd]] fails. Attribute arguments and placement are not checked.
set -u

here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd) || exit 2
CLANGXX=${CLANGXX:-clang++}

# MSL 3.2 attribute names (sections 5.2 - 5.8), kernel ones first.
MSL_ATTRIBUTES='
thread_position_in_grid thread_position_in_threadgroup thread_index_in_threadgroup
threadgroup_position_in_grid threads_per_grid threads_per_threadgroup threadgroups_per_grid
thread_index_in_simdgroup thread_index_in_quadgroup simdgroup_index_in_threadgroup
quadgroup_index_in_threadgroup threads_per_simdgroup simdgroups_per_threadgroup
quadgroups_per_threadgroup dispatch_threads_per_threadgroup dispatch_simdgroups_per_threadgroup
dispatch_quadgroups_per_threadgroup grid_origin grid_size thread_execution_width
max_total_threads_per_threadgroup buffer texture sampler function_constant id host_name
visible stitchable user position color stage_in flat center_perspective center_no_perspective
centroid_perspective centroid_no_perspective sample_perspective sample_no_perspective
vertex_id instance_id base_vertex base_instance amplification_id amplification_count
point_size clip_distance render_target_array_index viewport_array_index front_facing
point_coord sample_id sample_mask depth stencil primitive_id barycentric_coord
early_fragment_tests raster_order_group invariant shared payload
'

# shellcheck disable=SC2086 # one space-separated line: " name1 name2 ... "
known_attributes=" $(printf '%s ' $MSL_ATTRIBUTES)"

if [ $# -eq 0 ]; then
    echo "usage: $0 [CLANG-OPTION...] FILE.metal..." >&2
    exit 2
fi

opts=''
for a in "$@"; do
    case $a in
    -*) opts="$opts $a" ;;
    esac
done

base_flags="-std=c++17 -fsyntax-only -x c++ -I$here -flax-vector-conversions=none \
-Xclang -fnative-half-type -Xclang -fnative-half-arguments-and-returns"

status=0
nfiles=0
for f in "$@"; do
    case $f in
    -*) continue ;;
    esac
    nfiles=$((nfiles + 1))
    if [ ! -r "$f" ]; then
        echo "check-msl: cannot read $f" >&2
        status=1
        continue
    fi
    # shellcheck disable=SC2086 # word splitting of the flag lists is intended
    if ! "$CLANGXX" $base_flags -Wall -Werror -Wno-unknown-attributes $opts "$f"; then
        echo "check-msl: FAILED: $f" >&2
        status=1
        continue
    fi
    # shellcheck disable=SC2086
    unknown=$("$CLANGXX" $base_flags -Wno-everything -Wunknown-attributes \
        -fno-caret-diagnostics $opts "$f" 2>&1 |
        sed -n "s/^\(.*\): warning: unknown attribute '\([^']*\)' ignored.*/\1 \2/p")
    bad=0
    if [ -n "$unknown" ]; then
        while read -r where name; do
            case $known_attributes in
            *" $name "*) ;;
            *)
                echo "${where%:}: error: '$name' is not an MSL attribute" >&2
                bad=1
                ;;
            esac
        done <<EOF
$unknown
EOF
    fi
    if [ $bad -ne 0 ]; then
        echo "check-msl: FAILED: $f" >&2
        status=1
    fi
done

if [ $nfiles -eq 0 ]; then
    echo "usage: $0 [CLANG-OPTION...] FILE.metal..." >&2
    exit 2
fi
exit $status
