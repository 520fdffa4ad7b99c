/* spirv_interface.c: a module's resources against the layout libspdrt builds for it. A module
 * of another kernel, or of another build of the same kernel, would otherwise reach the driver,
 * and Vulkan leaves a mismatch undefined: drivers have run such a module on the wrong data, or
 * crashed. Checked: the entry point "main" is a compute shader; every descriptor the module
 * declares is in set 0, at a binding of the layout, of a type that binding can hold, with at
 * most its count; a storage image declares its view's format (or none); the push-constant
 * block fits the layout's range. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum {
    OP_ENTRY_POINT = 15, OP_TYPE_INT = 21, OP_TYPE_FLOAT = 22, OP_TYPE_VECTOR = 23,
    OP_TYPE_MATRIX = 24, OP_TYPE_IMAGE = 25, OP_TYPE_SAMPLER = 26, OP_TYPE_SAMPLED_IMAGE = 27,
    OP_TYPE_ARRAY = 28, OP_TYPE_RUNTIME_ARRAY = 29, OP_TYPE_STRUCT = 30, OP_TYPE_POINTER = 32,
    OP_CONSTANT = 43, OP_VARIABLE = 59, OP_DECORATE = 71, OP_MEMBER_DECORATE = 72
};
enum { DEC_BUFFER_BLOCK = 3, DEC_ARRAY_STRIDE = 6, DEC_BINDING = 33,
       DEC_DESCRIPTOR_SET = 34, DEC_OFFSET = 35 };
enum { SC_UNIFORM_CONSTANT = 0, SC_UNIFORM = 2, SC_PUSH_CONSTANT = 9, SC_STORAGE_BUFFER = 12 };
enum { MODEL_GL_COMPUTE = 5, DIM_BUFFER = 5 };
#define UNSET 0xffffffffu
#define TYPE_DEPTH 8  /* nesting of arrays and structs followed in a push-constant block */

/* What the module says of one id: its defining instruction, and its decorations. calloc'd
 * (zero means unset), so a large id bound costs only the pages the module's ids touch. */
typedef struct {
    size_t at;            /* word index of the instruction that defines the id, 0 = none */
    uint32_t set, binding, array_stride;
    uint32_t bytes;       /* type_bytes's answer, once bytes_state is 2 */
    unsigned char has_set, has_binding, buffer_block, bytes_state;
} id_facts;

/* One OpMemberDecorate ... Offset: sorted by id, then member, for bsearch. */
typedef struct {
    uint32_t id, member, offset;
} member_offset;

typedef struct {
    const uint32_t *w;
    size_t words;
    uint32_t bound;
    id_facts *ids;
    member_offset *offsets;
    size_t offset_count;
} module;

static const uint32_t *def(const module *m, uint32_t id) {
    return id < m->bound && m->ids[id].at ? m->w + m->ids[id].at : NULL;
}

static uint32_t op_of(const uint32_t *ins) {
    return ins ? ins[0] & 0xffffu : 0;
}

/* The value of an OpConstant of 32 bits or less, else UNSET. */
static uint32_t constant(const module *m, uint32_t id) {
    const uint32_t *c = def(m, id);
    return op_of(c) == OP_CONSTANT && (c[0] >> 16) >= 4 ? c[3] : UNSET;
}

static const char *type_name(VkDescriptorType t) {
    switch (t) {
    case VK_DESCRIPTOR_TYPE_SAMPLER: return "a sampler";
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER: return "a combined image sampler";
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE: return "a sampled image";
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE: return "a storage image";
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER: return "a uniform texel buffer";
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: return "a storage texel buffer";
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: return "a uniform buffer";
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER: return "a storage buffer";
    default: return "a descriptor";
    }
}

/* The descriptor type a resource of type `ins` in storage class `sc` needs, or -1. */
static int descriptor_of(const module *m, const uint32_t *ins, uint32_t sc, uint32_t id) {
    switch (op_of(ins)) {
    case OP_TYPE_IMAGE:
        if ((ins[0] >> 16) < 9) return -1;
        if (ins[3] == DIM_BUFFER)
            return ins[7] == 2 ? VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER
                               : VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
        return ins[7] == 2 ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE : VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
    case OP_TYPE_SAMPLER: return VK_DESCRIPTOR_TYPE_SAMPLER;
    case OP_TYPE_SAMPLED_IMAGE: return VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    case OP_TYPE_STRUCT:
        if (sc == SC_STORAGE_BUFFER || (sc == SC_UNIFORM && m->ids[id].buffer_block))
            return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        return sc == SC_UNIFORM ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : -1;
    default: return -1;
    }
}

/* SPIR-V's image formats that libspdrt's storage images use, and their views' formats. */
static const struct {
    uint32_t spirv;
    VkFormat vk;
    const char *name;
} image_formats[] = {
    {1, VK_FORMAT_R32G32B32A32_SFLOAT, "rgba32f"}, {2, VK_FORMAT_R16G16B16A16_SFLOAT, "rgba16f"},
    {3, VK_FORMAT_R32_SFLOAT, "r32f"}, {4, VK_FORMAT_R8G8B8A8_UNORM, "rgba8"},
    {6, VK_FORMAT_R32G32_SFLOAT, "rg32f"}, {7, VK_FORMAT_R16G16_SFLOAT, "rg16f"},
    {9, VK_FORMAT_R16_SFLOAT, "r16f"}, {13, VK_FORMAT_R8G8_UNORM, "rg8"},
    {15, VK_FORMAT_R8_UNORM, "r8"}, {33, VK_FORMAT_R32_UINT, "r32ui"},
    {39, VK_FORMAT_R8_UINT, "r8ui"},
};

/* The name of a view format, or NULL when the table does not hold it. */
static const char *vk_format_name(VkFormat f) {
    size_t i;
    for (i = 0; i < sizeof image_formats / sizeof image_formats[0]; i++)
        if (image_formats[i].vk == f) return image_formats[i].name;
    return NULL;
}

/* The view format a storage image of SPIR-V format `spirv` needs: UNDEFINED for Unknown (the
 * view's own format is read) and for a format the table does not hold (not checked). */
static VkFormat spirv_format_vk(uint32_t spirv) {
    size_t i;
    for (i = 0; i < sizeof image_formats / sizeof image_formats[0]; i++)
        if (image_formats[i].spirv == spirv) return image_formats[i].vk;
    return VK_FORMAT_UNDEFINED;
}

/* A binding of type `layout` serves a resource needing `shader`: the same type, or a combined
 * image sampler, which a separate image or sampler may read. */
static int serves(VkDescriptorType layout, int shader) {
    if ((int)layout == shader) return 1;
    return layout == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER &&
           (shader == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE || shader == VK_DESCRIPTOR_TYPE_SAMPLER);
}

static int offset_order(const void *a, const void *b) {
    const member_offset *x = a, *y = b;
    if (x->id != y->id) return x->id < y->id ? -1 : 1;
    return x->member < y->member ? -1 : x->member > y->member;
}

/* The Offset of a struct's member, or UNSET. */
static uint32_t member_offset_of(const module *m, uint32_t id, uint32_t member) {
    member_offset key = {id, member, 0};
    const member_offset *hit = bsearch(&key, m->offsets, m->offset_count, sizeof key,
                                       offset_order);
    return hit ? hit->offset : UNSET;
}

/* a x b, or UNSET past 32 bits. */
static uint32_t times(uint32_t a, uint32_t b) {
    uint64_t p = (uint64_t)a * b;
    return a == UNSET || b == UNSET || p >= UNSET ? UNSET : (uint32_t)p;
}

static uint32_t type_bytes_of(module *m, uint32_t id, int depth);

/* Bytes a push-constant member of type id takes, or UNSET when the module does not say (or
 * the types nest deeper than TYPE_DEPTH, or refer to themselves). Each id is worked out once,
 * so a damaged module's shared or wide types cost no more than its size. */
static uint32_t type_bytes(module *m, uint32_t id, int depth) {
    id_facts *f = id < m->bound ? &m->ids[id] : NULL;
    if (!f || depth > TYPE_DEPTH || f->bytes_state == 1) return UNSET;
    if (f->bytes_state == 0) {
        f->bytes_state = 1;
        f->bytes = type_bytes_of(m, id, depth);
        f->bytes_state = 2;
    }
    return f->bytes;
}

static uint32_t type_bytes_of(module *m, uint32_t id, int depth) {
    const uint32_t *t = def(m, id);
    uint32_t len, i, end = 0;
    if (!t) return UNSET;
    len = t[0] >> 16;
    switch (op_of(t)) {
    case OP_TYPE_INT:
    case OP_TYPE_FLOAT:
        return len >= 3 ? t[2] / 8 : UNSET;
    case OP_TYPE_VECTOR:
    case OP_TYPE_MATRIX:
        return len >= 4 ? times(type_bytes(m, t[2], depth + 1), t[3]) : UNSET;
    case OP_TYPE_ARRAY:
        if (len < 4) return UNSET;
        return times(constant(m, t[3]), m->ids[id].array_stride ? m->ids[id].array_stride
                                                                : type_bytes(m, t[2], depth + 1));
    case OP_TYPE_STRUCT:
        /* The struct's extent: the largest member end, each member at its Offset. */
        for (i = 0; i + 2 < len; i++) {
            uint32_t off = member_offset_of(m, id, i), b = type_bytes(m, t[2 + i], depth + 1);
            if (off == UNSET || b == UNSET || (uint64_t)off + b >= UNSET) return UNSET;
            if (off + b > end) end = off + b;
        }
        return end;
    default:
        return UNSET;
    }
}

/* One pass over the module: where each id is defined, and its decorations. */
static int scan(module *m, int *compute_main, char *why, size_t size) {
    size_t i, len;
    *compute_main = 0;
    m->ids = calloc(m->bound, sizeof *m->ids);
    /* An OpMemberDecorate takes 5 words at least. */
    m->offsets = calloc(m->words / 5 + 1, sizeof *m->offsets);
    m->offset_count = 0;
    if (!m->ids || !m->offsets) return snprintf(why, size, "out of memory"), -2;
    for (i = 5; i < m->words; i += len) {
        const uint32_t *ins = m->w + i;
        uint32_t op = op_of(ins), result = UNSET;
        len = ins[0] >> 16;
        if (len == 0 || i + len > m->words)
            return snprintf(why, size, "the SPIR-V module is damaged: an instruction at word "
                            "%zu runs past its end", i), -1;
        if (op == OP_ENTRY_POINT && len >= 5 && ins[1] == MODEL_GL_COMPUTE &&
            memcmp(ins + 3, "main", 5) == 0)
            *compute_main = 1;
        else if (op == OP_DECORATE && len >= 3 && ins[1] < m->bound) {
            id_facts *f = &m->ids[ins[1]];
            if (ins[2] == DEC_BUFFER_BLOCK) f->buffer_block = 1;
            if (len >= 4 && ins[2] == DEC_BINDING) f->binding = ins[3], f->has_binding = 1;
            if (len >= 4 && ins[2] == DEC_DESCRIPTOR_SET) f->set = ins[3], f->has_set = 1;
            if (len >= 4 && ins[2] == DEC_ARRAY_STRIDE) f->array_stride = ins[3];
        } else if (op == OP_MEMBER_DECORATE && len >= 5 && ins[3] == DEC_OFFSET) {
            member_offset *o = &m->offsets[m->offset_count++];
            o->id = ins[1], o->member = ins[2], o->offset = ins[4];
        } else if (op >= OP_TYPE_INT && op <= OP_TYPE_POINTER && len >= 2)
            result = ins[1];                      /* types: the result id comes first */
        else if ((op == OP_CONSTANT || op == OP_VARIABLE) && len >= 3)
            result = ins[2];
        if (result != UNSET) {
            if (result >= m->bound)
                return snprintf(why, size, "the SPIR-V module is damaged: id %u is past its "
                                "bound %u", result, m->bound), -1;
            m->ids[result].at = i;
        }
    }
    qsort(m->offsets, m->offset_count, sizeof *m->offsets, offset_order);
    return 0;
}

/* -1, with why = "the shader does not fit ...: " and the rest (a mismatch's likeliest cause is
 * a module of another kernel or configuration, so the message says so). */
static int misfit(char *why, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int misfit(char *why, size_t size, const char *fmt, ...) {
    va_list ap;
    int n = snprintf(why, size, "the shader does not fit this kernel's layout: ");
    if (n >= 0 && (size_t)n < size) {
        va_start(ap, fmt);
        vsnprintf(why + n, size - (size_t)n, fmt, ap);
        va_end(ap);
    }
    n = (int)strlen(why);
    if ((size_t)n < size)
        snprintf(why + n, size - (size_t)n, " (a module of another kernel or configuration?)");
    return -1;
}

/* One resource variable against the layout. */
static int check_resource(const module *m, const spdrt_binding *bindings, uint32_t binding_count,
                          uint32_t var, uint32_t sc, uint32_t pointee, char *why, size_t size) {
    const id_facts *f = &m->ids[var];
    const uint32_t *t = def(m, pointee);
    uint32_t count = 1, type_id = pointee, have;
    int need;
    if (op_of(t) == OP_TYPE_ARRAY || op_of(t) == OP_TYPE_RUNTIME_ARRAY) {
        count = op_of(t) == OP_TYPE_ARRAY && (t[0] >> 16) >= 4 ? constant(m, t[3]) : UNSET;
        type_id = t[2];
        t = def(m, type_id);
    }
    need = descriptor_of(m, t, sc, type_id);
    if (need < 0) return 0;   /* not a descriptor (none of spdgen's modules has one) */
    if (!f->has_set || f->set != 0 || !f->has_binding)
        return misfit(why, size, "it declares %s in descriptor set %d, and libspdrt binds set 0 "
                      "only", type_name((VkDescriptorType)need),
                      f->has_set ? (int)f->set : -1);
    if (f->binding >= binding_count)
        return misfit(why, size, "it declares %s at binding %u, and the layout has bindings "
                      "0..%u", type_name((VkDescriptorType)need), f->binding, binding_count - 1);
    if (!serves(bindings[f->binding].type, need))
        return misfit(why, size, "binding %u is %s in the shader and %s in the layout",
                      f->binding, type_name((VkDescriptorType)need),
                      type_name(bindings[f->binding].type));
    if (need == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE && bindings[f->binding].format &&
        spirv_format_vk(t[8]) && spirv_format_vk(t[8]) != bindings[f->binding].format &&
        vk_format_name(bindings[f->binding].format))
        return misfit(why, size, "binding %u is a storage image of %s in the shader and of %s "
                      "in the run", f->binding, vk_format_name(spirv_format_vk(t[8])),
                      vk_format_name(bindings[f->binding].format));
    have = bindings[f->binding].count ? bindings[f->binding].count : 1;
    if (count == UNSET)
        return misfit(why, size, "binding %u is an unbounded array in the shader and holds %u "
                      "descriptors in the layout", f->binding, have);
    if (count > have)
        return misfit(why, size, "binding %u is an array of %u descriptors in the shader and of "
                      "%u in the layout", f->binding, count, have);
    return 0;
}

int spdrt__spirv_fits(const uint32_t *spirv, size_t words, const spdrt_binding *bindings,
                      uint32_t binding_count, uint32_t push_bytes, char *why, size_t size) {
    module m;
    int res;
    int compute_main, pass;
    size_t i, len;
    if (!spirv || words < 5)
        return snprintf(why, size, "not a SPIR-V module (%zu words)", words), -1;
    memset(&m, 0, sizeof m);
    m.w = spirv;
    m.words = words;
    m.bound = spirv[3];
    if (m.bound == 0 || m.bound > (1u << 22))
        return snprintf(why, size, "the SPIR-V module is damaged: its id bound is %u", m.bound), -1;
    res = scan(&m, &compute_main, why, size);
    if (res == 0 && !compute_main) {
        snprintf(why, size, "the SPIR-V module has no compute entry point named \"main\"");
        res = -1;
    }
    /* Descriptors first (the likelier mistake to name), then the push constants. */
    for (pass = 0; pass < 2; pass++)
    for (i = 5; res == 0 && i < m.words; i += len) {
        const uint32_t *ins = m.w + i, *ptr;
        len = ins[0] >> 16;
        if (op_of(ins) != OP_VARIABLE || len < 4) continue;
        ptr = def(&m, ins[1]);
        if (op_of(ptr) != OP_TYPE_POINTER || (ptr[0] >> 16) < 4) continue;
        if (pass == 0 && (ins[3] == SC_UNIFORM_CONSTANT || ins[3] == SC_UNIFORM ||
                          ins[3] == SC_STORAGE_BUFFER))
            res = check_resource(&m, bindings, binding_count, ins[2], ins[3], ptr[3], why, size);
        else if (pass == 1 && ins[3] == SC_PUSH_CONSTANT) {
            uint32_t bytes = type_bytes(&m, ptr[3], 0);
            if (bytes != UNSET && bytes > push_bytes)
                res = misfit(why, size, "its push constants take %u bytes and the layout has %u",
                             bytes, push_bytes);
        }
    }
    free(m.ids);
    free(m.offsets);
    return res;
}
