#!/bin/sh
# The installed package (issue 28, item 1): `make install` into a temporary prefix gives
# spdgen, the public headers, a static PIC libspdrt and a shared one with a versioned
# soname, spdgen.pc and a CMake config package; outside C and C++ programs build against it
# with pkg-config, CMake and Meson; DESTDIR stages it; `make uninstall` removes it all.
. "$(dirname "$0")/../lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUTSIDE="$ROOT/tests/package/outside"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
P="$WORK/prefix"
skip() { TAP_N=$((TAP_N + 1)); echo "ok $TAP_N # SKIP $1"; }
# mk TARGET VARS...: the repository's Makefile on the suite's build folder.
mk() { make --no-print-directory -C "$ROOT" BUILD="$SPDGEN_BUILD" "$@" >"$WORK/make.log" 2>&1; }
VERSION=$(sed -n 's/^#define SPDGEN_VERSION "\(.*\)"$/\1/p' "$ROOT/gen/cli.h")
SOVERSION=$(echo "$VERSION" | awk -F. '{ print $1 == 0 ? $1 "." $2 : $1 }')

mk install PREFIX="$P"
ok $? "make install PREFIX=$P"
[ -s "$WORK/make.log" ] && grep -q "rror" "$WORK/make.log" && diag "$(tail -5 "$WORK/make.log")"

# ---- the layout -------------------------------------------------------------------------------
want=$(for h in "$ROOT"/runtime/include/*.h; do echo "include/spdgen/${h##*/}"; done
    printf '%s\n' bin/spdgen lib/libspdrt.a "lib/libspdrt.so.$VERSION" "lib/libspdrt.so.$SOVERSION" \
        lib/libspdrt.so lib/pkgconfig/spdgen.pc lib/cmake/spdgen/spdgenConfig.cmake \
        lib/cmake/spdgen/spdgenConfigVersion.cmake)
got=$(cd "$P" && find . ! -type d | sed 's|^\./||')
[ "$(echo "$want" | sort)" = "$(echo "$got" | sort)" ]
ok $? "the install holds exactly spdgen, the public headers, the libraries, spdgen.pc and the CMake package"
[ "$(echo "$want" | sort)" = "$(echo "$got" | sort)" ] || diag "$(echo "$want" | sort | diff - "$(echo "$got" | sort >"$WORK/got"; echo "$WORK/got")")"
! ls "$P/include/spdgen" | grep -q "internal\|loader" && ! grep -l "vulkan/vulkan.h" "$P"/include/spdgen/*.h |
    grep -v "spdrt_vk.h" | grep -q .
ok $? "no private header is installed; only spdrt_vk.h (the API on an application's device) includes vulkan.h"
[ "$(readlink "$P/lib/libspdrt.so")" = "libspdrt.so.$SOVERSION" ] &&
    [ "$(readlink "$P/lib/libspdrt.so.$SOVERSION")" = "libspdrt.so.$VERSION" ] &&
    readelf -d "$P/lib/libspdrt.so.$VERSION" | grep -q "SONAME.*\[libspdrt.so.$SOVERSION\]"
ok $? "libspdrt.so.$VERSION has the soname libspdrt.so.$SOVERSION; the links point along the chain"
# Exported: exactly the functions the public headers declare (a static inline one is not).
perl -ne 'print "$1\n" if /^(?!static\b)[A-Za-z].*?\b((?:spdrt|spd_ref)_\w+)\s*\(/' "$P"/include/spdgen/*.h | sort -u >"$WORK/declared"
nm -D --defined-only "$P/lib/libspdrt.so.$VERSION" | awk '$2 == "T" { print $3 }' | sed 's/@.*//' | sort -u >"$WORK/exported"
cmp -s "$WORK/declared" "$WORK/exported"
ok $? "the shared library exports exactly the $(wc -l <"$WORK/declared") functions of the public headers (no spdrt__ internals)"
cmp -s "$WORK/declared" "$WORK/exported" || diag "$(diff "$WORK/declared" "$WORK/exported")"
# The static library defines nothing an application might also name: only the API and the
# spdrt__ internals (conv_lines, dmap_merged, ... clashed with a program's own functions).
nm -g --defined-only "$P/lib/libspdrt.a" | awk 'NF == 3 { print $3 }' | grep -v -E '^(spdrt_|spd_ref_)' | sort -u >"$WORK/stray"
[ ! -s "$WORK/stray" ]
ok $? "libspdrt.a defines only spdrt_, spdrt__ and spd_ref_ names"
[ -s "$WORK/stray" ] && diag "$(head -5 "$WORK/stray")"
[ "$("$P/bin/spdgen" --version)" = "$("$SPDGEN" --version)" ]
ok $? "the installed spdgen is this build's"
# Its C++ runtime is linked in (the Makefile's -static-libstdc++), as glslang, SPIRV-Tools and
# Lua are: it needs only the C library where it is copied.
! ldd "$P/bin/spdgen" | grep -q -E 'libstdc\+\+|libgcc_s'
ok $? "the installed spdgen needs no libstdc++ or libgcc_s"

# ---- the issue's failing command: libspdrt inside a shared object -------------------------------
printf '#include <spdgen/spdrt.h>\nint plugin_mips(void) { return (int)spdrt_spd_mip_count(64, 64, 12); }\n' >"$WORK/plugin.c"
cc -shared -fPIC -I"$P/include" -o "$WORK/plugin_static.so" "$WORK/plugin.c" "$P/lib/libspdrt.a" -ldl -lm 2>"$WORK/cc.log" &&
    cc -shared -fPIC -I"$P/include" -o "$WORK/plugin_shared.so" "$WORK/plugin.c" -L"$P/lib" -lspdrt 2>>"$WORK/cc.log"
ok $? "cc -shared -fPIC plugin.c with libspdrt.a (position-independent) and with -lspdrt"
[ -s "$WORK/cc.log" ] && diag "$(cat "$WORK/cc.log")"

# ---- pkg-config ---------------------------------------------------------------------------------
# The contract header every outside program includes, from the installed spdgen.
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
GEN_ARGS="--spd --op max --format r32f --edge conservative --target spirv --name hiz --embed-spirv"
mkdir -p "$WORK/pc"
spdgen_pc=$(pkg-config --variable=spdgen spdgen)
[ "$spdgen_pc" = "$P/bin/spdgen" ] && [ "$(pkg-config --modversion spdgen)" = "$VERSION" ] &&
    # shellcheck disable=SC2086
    (cd "$WORK/pc" && "$spdgen_pc" $GEN_ARGS -o hiz.spv --emit-header hiz.h)
ok $? "pkg-config: version $VERSION, the generator's path (--variable=spdgen), which writes the header"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror -I"$WORK/pc" -o "$WORK/pc/app" "$OUTSIDE/app.c" $(pkg-config --cflags --libs spdgen) 2>"$WORK/cc.log" &&
    LD_LIBRARY_PATH="$P/lib" "$WORK/pc/app" run >"$WORK/pc/out" 2>&1 &&
    [ "$(head -1 "$WORK/pc/out")" = "c 1 10 10 1" ] && grep -q "right" "$WORK/pc/out" &&
    LD_LIBRARY_PATH="$P/lib" ldd "$WORK/pc/app" | grep -q "libspdrt.so.$SOVERSION => $P/lib/"
ok $? "pkg-config: a C program links the shared libspdrt and dispatches the header's embedded SPIR-V"
grep -q right "$WORK/pc/out" 2>/dev/null || diag "$(cat "$WORK/cc.log" "$WORK/pc/out" 2>/dev/null)"
# shellcheck disable=SC2046
c++ -Wall -Wextra -Werror -I"$WORK/pc" -o "$WORK/pc/app_cpp" "$OUTSIDE/app.cpp" $(pkg-config --cflags spdgen) \
    "$P/lib/libspdrt.a" $(pkg-config --static --libs-only-l spdgen | sed 's/-lspdrt//') 2>"$WORK/cc.log" &&
    [ "$("$WORK/pc/app_cpp")" = "c++ 6144 10 10 1" ] && ! ldd "$WORK/pc/app_cpp" | grep -q libspdrt
ok $? "pkg-config --static: a C++ program links libspdrt.a and includes every installed header"
[ -s "$WORK/cc.log" ] && diag "$(cat "$WORK/cc.log")"

# ---- CMake --------------------------------------------------------------------------------------
if command -v cmake >/dev/null 2>&1; then
    mkdir -p "$WORK/cmake"
    cat >"$WORK/cmake/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.20)
project(outside C CXX)
find_package(spdgen $VERSION REQUIRED)
add_custom_command(OUTPUT hiz.spv hiz.h
  COMMAND spdgen::spdgen $GEN_ARGS -o hiz.spv --emit-header hiz.h
  COMMENT "spdgen: hiz.h")
add_custom_target(hiz_header DEPENDS hiz.h)
add_executable(app "$OUTSIDE/app.c")
target_link_libraries(app PRIVATE spdgen::spdrt)
target_include_directories(app PRIVATE \${CMAKE_CURRENT_BINARY_DIR})
add_dependencies(app hiz_header)
add_executable(app_cpp "$OUTSIDE/app.cpp")
target_link_libraries(app_cpp PRIVATE spdgen::spdrt_static)
target_include_directories(app_cpp PRIVATE \${CMAKE_CURRENT_BINARY_DIR})
add_dependencies(app_cpp hiz_header)
EOF
    gen=; command -v ninja >/dev/null 2>&1 && gen="-G Ninja"
    # shellcheck disable=SC2086
    cmake -S "$WORK/cmake" -B "$WORK/cmake/b" $gen -DCMAKE_PREFIX_PATH="$P" >"$WORK/cmake.log" 2>&1 &&
        cmake --build "$WORK/cmake/b" >>"$WORK/cmake.log" 2>&1 &&
        [ "$("$WORK/cmake/b/app" run | head -1)" = "c 1 10 10 1" ] &&
        [ "$("$WORK/cmake/b/app_cpp")" = "c++ 6144 10 10 1" ] &&
        ldd "$WORK/cmake/b/app" | grep -q "libspdrt.so.$SOVERSION => $P/lib/" &&
        ! ldd "$WORK/cmake/b/app_cpp" | grep -q libspdrt
    ok $? "CMake: find_package(spdgen $VERSION): spdgen::spdgen writes the header, spdgen::spdrt and spdgen::spdrt_static link"
    grep -q "Build files have been written" "$WORK/cmake.log" && [ -x "$WORK/cmake/b/app_cpp" ] ||
        diag "$(tail -15 "$WORK/cmake.log")"
    mkdir -p "$WORK/cmake_new"
    printf 'cmake_minimum_required(VERSION 3.20)\nproject(newer C)\nfind_package(spdgen 9.0 REQUIRED)\n' \
        >"$WORK/cmake_new/CMakeLists.txt"
    cmake -S "$WORK/cmake_new" -B "$WORK/cmake_new/b" -DCMAKE_PREFIX_PATH="$P" >"$WORK/cmake.log" 2>&1
    [ $? -ne 0 ] && grep -q "spdgenConfig.cmake, version: $VERSION" "$WORK/cmake.log"
    ok $? "CMake: find_package(spdgen 9.0) refuses version $VERSION"
else
    skip "CMake: cmake is not installed"
    skip "CMake version check: cmake is not installed"
fi

# ---- Meson --------------------------------------------------------------------------------------
if command -v meson >/dev/null 2>&1 && command -v ninja >/dev/null 2>&1; then
    mkdir -p "$WORK/meson"
    args=$(for a in $GEN_ARGS; do printf "'%s', " "$a"; done)
    cat >"$WORK/meson/meson.build" <<EOF
project('outside', 'c', 'cpp', default_options: ['c_std=c11'])
spdrt = dependency('spdgen', version: '>= $VERSION')
spdgen = find_program(spdrt.get_variable(pkgconfig: 'spdgen'))
hiz = custom_target('hiz', output: ['hiz.spv', 'hiz.h'],
  command: [spdgen, $args '-o', '@OUTPUT0@', '--emit-header', '@OUTPUT1@'])
executable('app', '$OUTSIDE/app.c', hiz, dependencies: spdrt)
executable('app_cpp', '$OUTSIDE/app.cpp', hiz, dependencies: spdrt)
EOF
    meson setup "$WORK/meson/b" "$WORK/meson" >"$WORK/meson.log" 2>&1 &&
        ninja -C "$WORK/meson/b" >>"$WORK/meson.log" 2>&1 &&
        [ "$(LD_LIBRARY_PATH="$P/lib" "$WORK/meson/b/app" run | head -1)" = "c 1 10 10 1" ] &&
        [ "$(LD_LIBRARY_PATH="$P/lib" "$WORK/meson/b/app_cpp")" = "c++ 6144 10 10 1" ]
    ok $? "Meson: dependency('spdgen') and its spdgen variable build and run the C and C++ programs"
    [ -x "$WORK/meson/b/app_cpp" ] || diag "$(tail -15 "$WORK/meson.log")"
else
    skip "Meson: meson or ninja is not installed"
fi

# ---- DESTDIR and uninstall ----------------------------------------------------------------------
mk install DESTDIR="$WORK/stage" PREFIX=/opt/spdgen &&
    [ -x "$WORK/stage/opt/spdgen/bin/spdgen" ] && [ -f "$WORK/stage/opt/spdgen/include/spdgen/spdrt.h" ] &&
    grep -qx "prefix=/opt/spdgen" "$WORK/stage/opt/spdgen/lib/pkgconfig/spdgen.pc" &&
    grep -q '"/opt/spdgen/lib/libspdrt.so' "$WORK/stage/opt/spdgen/lib/cmake/spdgen/spdgenConfig.cmake" &&
    [ "$(ls "$WORK/stage")" = opt ]
ok $? "DESTDIR stages the tree; the package files name the final prefix"
mk uninstall DESTDIR="$WORK/stage" PREFIX=/opt/spdgen && [ -z "$(find "$WORK/stage" ! -type d)" ]
ok $? "make uninstall with the same DESTDIR and PREFIX leaves no file"
touch "$P/include/keep.h"
mk uninstall PREFIX="$P" && [ "$(cd "$P" && find . ! -type d)" = ./include/keep.h ] &&
    [ ! -d "$P/include/spdgen" ] && [ ! -d "$P/lib/cmake/spdgen" ]
ok $? "make uninstall removes every installed file and spdgen's folders, and nothing else"
# A prefix with a space: make would split it (install wrote beside it; uninstall removed what
# the first word named), so both refuse it and touch nothing.
mkdir "$WORK/sp" && echo keep >"$WORK/sp/data" && mkdir "$WORK/sp/data x"
mk uninstall PREFIX="$WORK/sp/data x"
rc=$?
[ $rc -ne 0 ] && [ "$(cat "$WORK/sp/data")" = keep ] && grep -q "may not hold spaces" "$WORK/make.log"
ok $? "make uninstall PREFIX with a space: refused, and the file named by its first word kept"
mk install PREFIX="$WORK/sp/p x"
rc=$?
[ $rc -ne 0 ] && [ ! -e "$WORK/sp/p" ] && [ ! -e "$ROOT/x" ] && grep -q "may not hold spaces" "$WORK/make.log"
ok $? "make install PREFIX with a space: refused, nothing written"

done_testing
