// MSL shim, part 8 (included last): MSL keywords and the vector constructors as macros.
//
// Address spaces: device, threadgroup, thread, threadgroup_imageblock are empty; constant
// is const (writing through a constant pointer or reference is an error in MSL too).
// Why not clang's __attribute__((address_space(N))), which would also catch passing a
// threadgroup pointer where a device pointer is expected? clang rejects it on local
// variables in C++ ("automatic variable qualified with an address space"), which is
// exactly how MSL declares threadgroup memory (threadgroup float4 lds[64]; inside the
// kernel), and every member function would need address-space-qualified overloads.
// So address-space mismatches and a missing address space on a pointer parameter are
// NOT caught by this check, and member functions overloaded on the address space of
// *this (SPIRV-Cross's spvUnsafeArray, Tint's tint_array: "T& operator[](size_t) device")
// collapse into duplicate declarations: use metal::array instead.
// Under the CPU executor (MSL_SHIM_EXTERNAL_RUNTIME) the threads of a threadgroup are
// fibers of one host thread, each on its own stack, so a kernel-scope "threadgroup float4
// lds[64];" cannot stay a local: threadgroup makes it a static in section msl_threadgroup,
// one object for all threads. The executor runs one threadgroup at a time and fills that
// section with poison before each (threadgroup memory starts undefined).
// require_constant_initialization turns what a static would silently change into a
// compile error: a pointer into threadgroup memory initialised per thread
// ("threadgroup float* p = &lds[t];"). A threadgroup pointer parameter is an error too
// ("static" in a parameter list). Without the executor, threadgroup is empty.
//
// coherent(device) (MSL 3.2): erased; only "device" is accepted as its argument
// (coherent(threadgroup) becomes an undeclared identifier).
//
// kernel / vertex / fragment: empty (so [[kernel]] becomes the empty attribute [[]]).
// Consequence of the empty threadgroup macro: the [[threadgroup(N)]] parameter attribute
// cannot be written (it becomes [[(N)]], a syntax error); declare threadgroup memory
// inside the kernel instead. Attributes ([[buffer(0)]], [[thread_position_in_grid]] ...)
// are left to clang, which ignores unknown attributes; check-msl.sh checks their names.
//
// These are object-like macros named like ordinary words: include no standard header
// after <metal_stdlib> (the executor includes its own headers first).
#pragma once
#pragma clang system_header

// "const constant float* p" is common MSL; with constant = const it reads "const const",
// which clang warns about. The pragma (deliberately not popped) silences that warning for
// the rest of the translation unit: it is noise made by the shim, not a mistake in MSL.
#pragma clang diagnostic ignored "-Wduplicate-decl-specifier"

// threadgroup variables become plain locals, so clang's flow analysis would report one
// that a single thread writes ("if (t == 0) flag = ...; barrier; if (flag)") as
// "sometimes uninitialized" in the other threads; in MSL it is shared memory those
// threads see. The -Wuninitialized group is therefore off for the rest of the
// translation unit; the price is that genuinely uninitialized locals go unreported.
#pragma clang diagnostic ignored "-Wuninitialized"

// MSL has no double (nor long double): using the type is an error, as in Metal. Host
// code compiled with the shim can define MSL_SHIM_ALLOW_DOUBLE.
#ifndef MSL_SHIM_ALLOW_DOUBLE
#pragma GCC poison double
#endif

#define kernel
#define vertex
#define fragment
#define device
#ifdef MSL_SHIM_EXTERNAL_RUNTIME
#define threadgroup \
  [[clang::require_constant_initialization]] static __attribute__((section("msl_threadgroup")))
#else
#define threadgroup
#endif
#define threadgroup_imageblock
#define thread
#define constant const
#define coherent(space) __msl_coherent_##space
#define __msl_coherent_device

// ---- vector constructors ---------------------------------------------------------
// ext_vector_type types have no constructors in C++: float4(a, b, c, d) would be a
// functional cast with four operands. So each vector type name followed by '(' is a
// function-like macro: float4(...) -> __msl_make<float4>(...), which implements every
// MSL constructor form (see __msl::make in core.h): float4(), float4(x) splat,
// float4(a, b, c, d), float4(v.xyz, 1.0f), float4(v2, v2), float4(int4) / float4(half4)
// conversions; a wrong component count is a compile-time error. The type name not
// followed by '(' stays the ext_vector_type typedef, so declarations, swizzles (v.xy),
// v[i], operators and templates see a real vector type.
// Limits: "float4(" is always taken as a constructor, so a conversion operator named
// operator float4() or a declarator like float4 (x); cannot be written; vec<float, 4>(a, b)
// (more than one argument) is not supported; static_cast<float4>(some_int4) is clang's
// bit-cast of same-size vectors, not MSL's value conversion (it type-checks, but the
// executor would compute the wrong value) - use float4(v). bool2/3/4 are classes and
// need no macro.
#define char2(...) __msl_make<char2>(__VA_ARGS__)
#define char3(...) __msl_make<char3>(__VA_ARGS__)
#define char4(...) __msl_make<char4>(__VA_ARGS__)
#define uchar2(...) __msl_make<uchar2>(__VA_ARGS__)
#define uchar3(...) __msl_make<uchar3>(__VA_ARGS__)
#define uchar4(...) __msl_make<uchar4>(__VA_ARGS__)
#define short2(...) __msl_make<short2>(__VA_ARGS__)
#define short3(...) __msl_make<short3>(__VA_ARGS__)
#define short4(...) __msl_make<short4>(__VA_ARGS__)
#define ushort2(...) __msl_make<ushort2>(__VA_ARGS__)
#define ushort3(...) __msl_make<ushort3>(__VA_ARGS__)
#define ushort4(...) __msl_make<ushort4>(__VA_ARGS__)
#define int2(...) __msl_make<int2>(__VA_ARGS__)
#define int3(...) __msl_make<int3>(__VA_ARGS__)
#define int4(...) __msl_make<int4>(__VA_ARGS__)
#define uint2(...) __msl_make<uint2>(__VA_ARGS__)
#define uint3(...) __msl_make<uint3>(__VA_ARGS__)
#define uint4(...) __msl_make<uint4>(__VA_ARGS__)
#define long2(...) __msl_make<long2>(__VA_ARGS__)
#define long3(...) __msl_make<long3>(__VA_ARGS__)
#define long4(...) __msl_make<long4>(__VA_ARGS__)
#define ulong2(...) __msl_make<ulong2>(__VA_ARGS__)
#define ulong3(...) __msl_make<ulong3>(__VA_ARGS__)
#define ulong4(...) __msl_make<ulong4>(__VA_ARGS__)
#define half2(...) __msl_make<half2>(__VA_ARGS__)
#define half3(...) __msl_make<half3>(__VA_ARGS__)
#define half4(...) __msl_make<half4>(__VA_ARGS__)
#define float2(...) __msl_make<float2>(__VA_ARGS__)
#define float3(...) __msl_make<float3>(__VA_ARGS__)
#define float4(...) __msl_make<float4>(__VA_ARGS__)
