// One MSL kernel, bound for the executor: compile this once per kernel with
//   -DMSL_SHIM_EXTERNAL_RUNTIME -DMSL_UNIT=name
//   -DMSL_KERNEL_SOURCE='"file.metal"' -DMSL_KERNEL_ATTRS='"file.attrs.h"' (kernel-attrs.lua)
// and link it with executor.o and fiber.o; it defines
//   extern const msl_exec::bound_kernel name;
// The kernel's source lives in namespace name_source, so that several units (two variants
// of one file, say) link into one program without their functions colliding.
#include "bind.h" // standard headers and the shim's types first: no keyword macros yet

#include <metal_stdlib> // the keyword macros start here (included again below: a no-op)

#define MSL_UNIT_CAT2(a, b) a##b
#define MSL_UNIT_CAT(a, b) MSL_UNIT_CAT2(a, b)
#define MSL_UNIT_STRING2(x) #x
#define MSL_UNIT_STRING(x) MSL_UNIT_STRING2(x)
#define MSL_UNIT_SOURCE MSL_UNIT_CAT(MSL_UNIT, _source)

namespace MSL_UNIT_SOURCE {
#include MSL_KERNEL_SOURCE
}

#include MSL_KERNEL_ATTRS

namespace {
constexpr msl_exec::attr attributes[] = {MSL_KERNEL_ATTRIBUTES};
}

extern const msl_exec::bound_kernel MSL_UNIT;
const msl_exec::bound_kernel MSL_UNIT =
    msl_exec::bound<&MSL_UNIT_SOURCE::MSL_KERNEL_FUNCTION, attributes, sizeof attributes / sizeof *attributes>::make(
        MSL_UNIT_STRING(MSL_KERNEL_FUNCTION), MSL_KERNEL_MAX_THREADS);
