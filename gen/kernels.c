/* kernels.c: the registry, as Lua's linit.c lists its libraries. A new kernel is its
 * folders (gen/<name>/, templates/<name>/, runtime/<name>/, tests/<name>/) and one line in
 * this list; each gen/<name>/<name>.c defines sg_<name>_kernel. */
#include "kernel.h"

#define KERNELS(X) \
    X(spd)         \
    X(fft)         \
    X(dmap)        \
    X(conv)

#define DECLARE(name) extern const sg_kernel sg_##name##_kernel;
#define ENTRY(name) &sg_##name##_kernel,
KERNELS(DECLARE)

const sg_kernel *const sg_kernels[] = {KERNELS(ENTRY) NULL};
