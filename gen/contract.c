/* contract.c: reads a template's contract table into sg_contract (contract.h), checking
 * every field, so a template (embedded or an override) can only hand C numbers, C
 * identifiers and single-line comment text. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "contract.h"

typedef struct {
    lua_State *L;
    char *err;
    size_t err_size;
    char path[96]; /* where in the table we are, for the message */
} reader;

static int fail(reader *r, const char *field, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(reader *r, const char *field, const char *fmt, ...)
{
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(r->err, r->err_size, "contract%s%s%s: %s", r->path, field ? "." : "", field ? field : "",
             what);
    return -1;
}

static int is_identifier(const char *s)
{
    if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_')) return 0;
    for (s++; *s; s++)
        if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
              *s == '_'))
            return 0;
    return 1;
}

/* An integer field of the table on top of the stack. */
static int get_int(reader *r, const char *field, long lo, long hi, long *out)
{
    lua_getfield(r->L, -1, field);
    int isnum = lua_isinteger(r->L, -1);
    lua_Integer v = lua_tointeger(r->L, -1);
    lua_pop(r->L, 1);
    if (!isnum) return fail(r, field, "must be an integer");
    if (v < lo || v > hi) return fail(r, field, "%lld is outside %ld..%ld", (long long)v, lo, hi);
    *out = (long)v;
    return 0;
}

/* A string field; `identifier`: it must be a C identifier. Optional fields may be absent. */
static int get_string(reader *r, const char *field, int identifier, int optional, char *out,
                      size_t size)
{
    lua_getfield(r->L, -1, field);
    size_t len = 0;
    const char *s = lua_type(r->L, -1) == LUA_TSTRING ? lua_tolstring(r->L, -1, &len) : NULL;
    int rc = 0;
    if (!s && optional && lua_isnil(r->L, -1)) {
        out[0] = '\0';
    } else if (!s) {
        rc = fail(r, field, "must be a string");
    } else if (len >= size) {
        rc = fail(r, field, "longer than %zu characters", size - 1);
    } else if (identifier && !is_identifier(s)) {
        char shown[48];
        size_t n = 0;
        for (; s[n] && n < sizeof shown - 1; n++) shown[n] = s[n] < 32 || s[n] > 126 ? '?' : s[n];
        shown[n] = '\0';
        rc = fail(r, field, "'%s' is not a C identifier", shown);
    } else {
        /* Comment text: one line, printable, and never the end of a C comment. */
        for (size_t i = 0; i < len; i++) {
            char c = s[i];
            out[i] = (c < 32 || c > 126) ? ' ' : c;
            if (i > 0 && out[i - 1] == '*' && out[i] == '/') out[i] = '|';
        }
        out[len] = '\0';
    }
    lua_pop(r->L, 1);
    return rc;
}

/* Opens the array field `field` (pushes it); returns its length or -1. */
static int open_array(reader *r, const char *field, int most, int optional)
{
    lua_getfield(r->L, -1, field);
    if (optional && lua_isnil(r->L, -1)) return 0;
    if (!lua_istable(r->L, -1)) {
        lua_pop(r->L, 1);
        return fail(r, field, "must be a list");
    }
    int n = (int)luaL_len(r->L, -1);
    if (n > most) {
        lua_pop(r->L, 1);
        return fail(r, field, "more than %d entries", most);
    }
    return n;
}

/* Pushes element i of the array on top and names it in r->path; -1 unless it is a table. */
static int enter(reader *r, const char *field, int i)
{
    lua_geti(r->L, -1, i);
    snprintf(r->path, sizeof r->path, ".%s[%d]", field, i);
    if (!lua_istable(r->L, -1)) {
        lua_pop(r->L, 1);
        return fail(r, NULL, "must be a table");
    }
    return 0;
}

static int read_grid(reader *r, sg_contract *c)
{
    int n = open_array(r, "grid", 3, 0);
    if (n < 0) return -1;
    int rc = n == 3 ? 0 : fail(r, "grid", "must have 3 entries (x, y, z)");
    for (int i = 1; i <= n && rc == 0; i++) {
        sg_contract_grid *g = &c->grid[i - 1];
        if (enter(r, "grid", i)) { rc = -1; break; }
        lua_getfield(r->L, -1, "value");
        int constant = !lua_isnil(r->L, -1);
        lua_pop(r->L, 1);
        rc = get_string(r, "arg", 1, 1, g->arg, sizeof g->arg);
        if (rc == 0 && constant) rc = get_int(r, "value", 1, 1L << 30, &g->constant);
        else if (rc == 0 && g->arg[0]) rc = get_int(r, "per", 1, 1L << 30, &g->per);
        lua_pop(r->L, 1);
    }
    lua_pop(r->L, 1);
    r->path[0] = '\0';
    return rc;
}

static int read_bindings(reader *r, sg_contract *c)
{
    int n = open_array(r, "bindings", SG_CONTRACT_MAX_BINDINGS, 0);
    if (n < 0) return -1;
    int rc = 0;
    for (int i = 1; i <= n && rc == 0; i++) {
        sg_contract_binding *b = &c->bindings[i - 1];
        if (enter(r, "bindings", i)) { rc = -1; break; }
        lua_getfield(r->L, -1, "count");
        int has_count = !lua_isnil(r->L, -1);
        lua_pop(r->L, 1);
        b->count = 1;
        rc = get_int(r, "binding", 0, 31, &b->binding) ||
             get_string(r, "macro", 1, 0, b->macro, sizeof b->macro) ||
             get_string(r, "name", 1, 0, b->name, sizeof b->name) ||
             get_string(r, "kind", 0, 0, b->kind, sizeof b->kind) ||
             get_string(r, "doc", 0, 0, b->doc, sizeof b->doc) ||
             (has_count && get_int(r, "count", 1, 64, &b->count));
        lua_pop(r->L, 1);
    }
    c->binding_count = n;
    lua_pop(r->L, 1);
    r->path[0] = '\0';
    return rc;
}

static int read_push(reader *r, sg_contract *c)
{
    int n = open_array(r, "push_constants", SG_CONTRACT_MAX_PUSH, 0);
    if (n < 0) return -1;
    int rc = 0;
    for (int i = 1; i <= n && rc == 0; i++) {
        sg_contract_push *p = &c->push[i - 1];
        if (enter(r, "push_constants", i)) { rc = -1; break; }
        rc = get_string(r, "name", 1, 0, p->name, sizeof p->name) ||
             get_int(r, "offset", 0, 252, &p->offset) ||
             get_string(r, "doc", 0, 0, p->doc, sizeof p->doc);
        if (rc == 0 && p->offset != 4 * (i - 1))
            rc = fail(r, "offset", "must be %d (consecutive 32-bit fields)", 4 * (i - 1));
        lua_pop(r->L, 1);
    }
    c->push_count = n;
    lua_pop(r->L, 1);
    r->path[0] = '\0';
    return rc;
}

static int read_values(reader *r, sg_contract *c)
{
    int n = open_array(r, "values", SG_CONTRACT_MAX_VALUES, 1);
    if (n < 0) return -1;
    int rc = 0;
    for (int i = 1; i <= n && rc == 0; i++) {
        sg_contract_value *v = &c->values[i - 1];
        if (enter(r, "values", i)) { rc = -1; break; }
        rc = get_string(r, "name", 1, 0, v->name, sizeof v->name) ||
             get_string(r, "doc", 0, 1, v->doc, sizeof v->doc);
        lua_getfield(r->L, -1, "value");
        if (rc == 0 && lua_isinteger(r->L, -1)) {
            v->value = (long long)lua_tointeger(r->L, -1);
        } else if (rc == 0 && lua_type(r->L, -1) == LUA_TNUMBER) {
            v->is_float = 1;
            v->fvalue = (double)lua_tonumber(r->L, -1);
        } else if (rc == 0 && lua_isboolean(r->L, -1)) {
            v->value = lua_toboolean(r->L, -1);
        } else if (rc == 0) {
            rc = fail(r, "value", "must be a number or a boolean");
        }
        lua_pop(r->L, 2);
    }
    c->value_count = n;
    lua_pop(r->L, 1);
    r->path[0] = '\0';
    return rc;
}

int sg_contract_read(lua_State *L, int index, sg_contract *out, char *err, size_t err_size)
{
    reader r = {L, err, err_size, ""};
    memset(out, 0, sizeof *out);
    if (!lua_istable(L, index)) return fail(&r, NULL, "the template returned no contract table");
    lua_pushvalue(L, index);
    int rc = get_string(&r, "title", 0, 0, out->title, sizeof out->title) ||
             get_string(&r, "doc", 0, 1, out->doc, sizeof out->doc) ||
             get_string(&r, "grid_doc", 0, 1, out->grid_doc, sizeof out->grid_doc) ||
             get_string(&r, "entry", 1, 0, out->entry, sizeof out->entry) ||
             get_int(&r, "subgroup", 0, 128, &out->subgroup) ||
             get_int(&r, "shared_bytes", 0, 1L << 20, &out->shared_bytes) ||
             get_int(&r, "push_constant_bytes", 0, 256, &out->push_bytes);
    if (rc == 0) {
        int n = open_array(&r, "workgroup", 3, 0);
        rc = n == 3 ? 0 : n < 0 ? -1 : fail(&r, "workgroup", "must be { x, y, z }");
        for (int i = 1; i <= 3 && rc == 0; i++) {
            lua_geti(L, -1, i);
            out->workgroup[i - 1] = (long)lua_tointeger(L, -1);
            if (!lua_isinteger(L, -1) || out->workgroup[i - 1] < 1 || out->workgroup[i - 1] > 1024)
                rc = fail(&r, "workgroup", "entry %d must be an integer 1..1024", i);
            lua_pop(L, 1);
        }
        if (n >= 0) lua_pop(L, 1);
    }
    rc = rc || read_grid(&r, out) || read_bindings(&r, out) || read_push(&r, out) ||
         read_values(&r, out);
    lua_pop(L, 1);
    return rc ? -1 : 0;
}

const sg_contract_value *sg_contract_find(const sg_contract *c, const char *name)
{
    for (int i = 0; i < c->value_count; i++)
        if (strcmp(c->values[i].name, name) == 0) return &c->values[i];
    return NULL;
}

long long sg_contract_int(const sg_contract *c, const char *name, long long fallback)
{
    const sg_contract_value *v = sg_contract_find(c, name);
    return v && !v->is_float ? v->value : fallback;
}

static sg_contract_value *add(sg_contract *c, const char *name, const char *doc)
{
    if (c->value_count >= SG_CONTRACT_MAX_VALUES) return NULL;
    sg_contract_value *v = &c->values[c->value_count++];
    memset(v, 0, sizeof *v);
    snprintf(v->name, sizeof v->name, "%s", name);
    snprintf(v->doc, sizeof v->doc, "%s", doc ? doc : "");
    return v;
}

void sg_contract_add(sg_contract *c, const char *name, long long value, const char *doc)
{
    sg_contract_value *v = add(c, name, doc);
    if (v) v->value = value;
}

void sg_contract_add_float(sg_contract *c, const char *name, double value, const char *doc)
{
    sg_contract_value *v = add(c, name, doc);
    if (v) {
        v->is_float = 1;
        v->fvalue = value;
    }
}
