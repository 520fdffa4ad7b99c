/* contract.h: a shader's dispatch contract as data. A template returns it as a Lua table
 * next to the shader text; contract.c reads it into this struct, checking every field (names
 * must be C identifiers, numbers integers, comments single-line text), so nothing
 * downstream parses generated text and no template text reaches a C header as code.
 *
 * The Lua table (all fields but `doc`, `grid_doc` and `values` required):
 *   { title = "single-pass downsampler (SPD)", doc = "...", entry = "main",
 *     workgroup = { x, y, z }, grid_doc = "...",
 *     subgroup = S, shared_bytes = B, push_constant_bytes = P,
 *     grid = { { arg = "src_width", per = 64 }, ..., { arg = "layers", value = 1 } },
 *                                                     -- x, y, z; { } = one workgroup
 *     bindings = { { binding = 0, macro = "SOURCE", name = "src_level0",
 *                    kind = "sampled image", count = 1, doc = "..." }, ... },
 *     push_constants = { { name = "src_width", offset = 0, doc = "..." }, ... },
 *     values = { { name = "TILE", value = 64, doc = "..." }, ... } }     -- in order
 * A value may be a float (FFT's SCALE); the header writes it as a float literal. */
#ifndef SPDGEN_CONTRACT_H
#define SPDGEN_CONTRACT_H

#define SG_CONTRACT_MAX_BINDINGS 8
#define SG_CONTRACT_MAX_PUSH 16
#define SG_CONTRACT_MAX_VALUES 64

typedef struct {
    char name[48];  /* macro suffix: PREFIX_<name> */
    int is_float;
    long long value;
    double fvalue;
    char doc[256];
} sg_contract_value;

typedef struct {
    long binding;
    char macro[32]; /* PREFIX_BINDING_<macro> */
    char name[48];  /* the shader's name for it */
    char kind[32];  /* "storage buffer", "sampled image", ... */
    long count;     /* array elements */
    char doc[400];
} sg_contract_binding;

typedef struct {
    char name[32];
    long offset;
    char doc[200];
} sg_contract_push;

typedef struct {
    char arg[24];  /* the macro's argument ("" on an axis of one workgroup: no macro) */
    long per;      /* items per workgroup along this axis */
    long constant; /* nonzero: the axis has this many workgroups whatever the argument */
} sg_contract_grid;

typedef struct sg_contract {
    char title[96];
    char doc[1200];    /* optional: what the header says under the title */
    char grid_doc[240]; /* optional: the grid's comment */
    char entry[32];
    long workgroup[3];
    long subgroup;     /* the subgroup size the shader's exchanges need (0: none; 4: quads) */
    long shared_bytes;
    long push_bytes;
    sg_contract_grid grid[3];
    sg_contract_binding bindings[SG_CONTRACT_MAX_BINDINGS];
    int binding_count;
    sg_contract_push push[SG_CONTRACT_MAX_PUSH];
    int push_count;
    sg_contract_value values[SG_CONTRACT_MAX_VALUES];
    int value_count;
} sg_contract;

struct lua_State;

/* Reads the contract table at `index` into *out. Returns 0, or -1 with a one-line reason in
 * err ("contract.bindings[2].macro: not a C identifier"). */
int sg_contract_read(struct lua_State *L, int index, sg_contract *out, char *err, size_t err_size);

/* The value called `name`, or NULL. */
const sg_contract_value *sg_contract_find(const sg_contract *c, const char *name);
/* Its integer, or `fallback` where there is none. */
long long sg_contract_int(const sg_contract *c, const char *name, long long fallback);

/* Appends a value (job contracts that kernels build in C). */
void sg_contract_add(sg_contract *c, const char *name, long long value, const char *doc);
void sg_contract_add_float(sg_contract *c, const char *name, double value, const char *doc);

#endif
