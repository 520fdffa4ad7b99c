/* lua_host.c: the Lua 5.4 host. Pushes the config as a table, provides `require` over the
 * embedded templates (or --template-dir overrides, file by file) and runs the kernel's
 * template with the target's dialect.
 *
 * The Lua state is sandboxed: only the base, table, string and math libraries, and a
 * `require` that reads nothing but templates, so output never depends on the machine
 * (no io, os, LUA_PATH or environment). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "embedded.h"
#include "fft_cli.h"
#include "lua_fields.h"
#include "lua_host.h"
#include "output.h"

typedef struct {
    const sg_config *cfg;
    sg_generated *out;
} host_state;

static char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t cap = 0, len = 0, n;
    do {
        if (len + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 8192;
            char *grown = realloc(buf, cap);
            if (!grown) { free(buf); fclose(f); return NULL; }
            buf = grown;
        }
        n = fread(buf + len, 1, cap - len - 1, f);
        len += n;
    } while (n > 0);
    int failed = ferror(f);
    fclose(f);
    if (failed) { free(buf); return NULL; }
    buf[len] = '\0';
    *size = len;
    return buf;
}

static int add_dep(sg_generated *out, const char *path)
{
    char **grown = realloc(out->deps, (size_t)(out->dep_count + 1) * sizeof *grown);
    if (!grown) return -1;
    out->deps = grown;
    out->deps[out->dep_count] = strdup(path);
    if (!out->deps[out->dep_count]) return -1;
    out->dep_count++;
    return 0;
}

/* require(name): "templates.spd" -> templates/spd.lua, from the template dir when the file
 * exists there, else embedded. Results are cached per state like Lua's own require. */
static int host_require(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    host_state *hs = lua_touserdata(L, lua_upvalueindex(1));

    lua_getfield(L, LUA_REGISTRYINDEX, "spdgen.loaded");
    if (lua_getfield(L, -1, name) != LUA_TNIL) return 1;
    lua_pop(L, 1);

    char path[256];
    if (strlen(name) + 5 >= sizeof path || strstr(name, ".."))
        return luaL_error(L, "require: bad module name '%s'", name);
    snprintf(path, sizeof path, "%s.lua", name);
    for (char *p = path; *p && strcmp(p, ".lua"); p++)
        if (*p == '.') *p = '/';

    char chunkname[4200];
    snprintf(chunkname, sizeof chunkname, "=%s", path);
    int status = LUA_ERRFILE;
    const char *dir = hs->cfg->template_dir;
    char *disk = NULL;
    if (dir) {
        char full[4096];
        size_t size;
        snprintf(full, sizeof full, "%s/%s", dir, path);
        disk = read_file(full, &size);
        if (disk) {
            if (add_dep(hs->out, full)) { free(disk); return luaL_error(L, "out of memory"); }
            snprintf(chunkname, sizeof chunkname, "=%s", full);
            status = luaL_loadbufferx(L, disk, size, chunkname, "t");
            free(disk);
        }
    }
    if (!disk) {
        for (const sg_embedded_file *e = sg_embedded_files; e->path; e++) {
            if (strcmp(e->path, path) == 0) {
                status = luaL_loadbufferx(L, e->data, e->size, chunkname, "t");
                break;
            }
        }
    }
    if (status == LUA_ERRFILE) return luaL_error(L, "require: no template '%s'", path);
    if (status != LUA_OK) return lua_error(L);

    lua_pushstring(L, name);
    lua_call(L, 1, 1);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_pushboolean(L, 1);
    }
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, name);
    return 1;
}

/* embedded_source(path): the text of an embedded non-Lua file, e.g. "runtime/spd_passes.h",
 * which a template copies into its output so the runtime and the output share one
 * definition. Never read from disk: --template-dir overrides templates, not the runtime. */
static int host_embedded_source(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    for (const sg_embedded_file *e = sg_embedded_files; e->path; e++)
        if (strcmp(e->path, path) == 0 && !strstr(path, ".lua")) {
            lua_pushlstring(L, e->data, e->size);
            return 1;
        }
    return luaL_error(L, "embedded_source: no embedded file '%s'", path);
}

static void push_config(lua_State *L, const sg_config *cfg)
{
    lua_createtable(L, 0, 12);
    sg_set_string(L, "kernel", cfg->kernel == SG_KERNEL_SPD ? "spd" : "fft");
    sg_set_string(L, "op", cfg->op);
    /* With --max-mips-per-pass the shader makes K levels per dispatch: to the template
     * `mips` is what one dispatch writes, `total_mips` the whole chain. */
    int per_pass = cfg->max_mips_per_pass && cfg->max_mips_per_pass < cfg->mips ? cfg->max_mips_per_pass
                                                                                 : cfg->mips;
    sg_set_integer(L, "mips", per_pass);
    sg_set_integer(L, "total_mips", cfg->mips);
    sg_set_string(L, "format", cfg->format);
    sg_set_string(L, "max_size", cfg->max_size);
    sg_set_boolean(L, "sampler_linear", cfg->sampler_linear);
    sg_set_boolean(L, "sampler_normalized", cfg->sampler_normalized);
    sg_set_integer(L, "fetch_ahead", cfg->fetch_ahead);
    sg_set_string(L, "edge", cfg->edge ? cfg->edge : "drop");
    sg_set_string(L, "level1", cfg->level1 ? cfg->level1 : "interleaved");
    sg_set_integer(L, "wg", cfg->wg);
    sg_set_integer(L, "tile", cfg->tile);
    sg_set_string(L, "tail", cfg->tail ? cfg->tail : "loop");
    sg_set_integer(L, "subgroup", cfg->subgroup);
    sg_set_boolean(L, "array", cfg->array);
    sg_set_boolean(L, "half", cfg->half);
    sg_set_string(L, "target", sg_target_name(cfg->target));
    sg_set_string(L, "version", SPDGEN_VERSION);
    sg_set_string(L, "command", cfg->command);
    if (cfg->kernel == SG_KERNEL_FFT) sg_fft_push_fields(L, cfg);
}

/* Runs in protected mode: arguments (cfg table, dialect name, want_header). */
static const char driver[] =
    "local cfg, dialect_name, want_header = ...\n"
    "local kernel = require('templates.' .. cfg.kernel)\n"
    "local text, contract = kernel.generate(cfg, require('targets.' .. dialect_name))\n"
    "local header = want_header and require('templates.c_header').render(cfg, contract) or nil\n"
    "local wg = contract.workgroup\n"
    "return text, contract.entry, wg[1], wg[2], wg[3], header\n";

static int traceback(lua_State *L)
{
    luaL_traceback(L, L, lua_tostring(L, 1), 1);
    return 1;
}

static char *dup_lua_string(lua_State *L, int index, size_t *size)
{
    size_t len;
    const char *s = lua_tolstring(L, index, &len);
    char *copy = s ? malloc(len + 1) : NULL;
    if (!copy) return NULL;
    memcpy(copy, s, len + 1);
    *size = len;
    return copy;
}

int sg_generate(const sg_config *cfg, const char *dialect, int want_header, sg_generated *out)
{
    memset(out, 0, sizeof *out);
    lua_State *L = luaL_newstate();
    if (!L) {
        fprintf(stderr, "spdgen: error: cannot create a Lua state (out of memory)\n");
        return SG_EXIT_FAILURE;
    }
    static const luaL_Reg libs[] = {{LUA_GNAME, luaopen_base}, {LUA_TABLIBNAME, luaopen_table},
                                    {LUA_STRLIBNAME, luaopen_string}, {LUA_MATHLIBNAME, luaopen_math}};
    for (size_t i = 0; i < sizeof libs / sizeof *libs; i++) {
        luaL_requiref(L, libs[i].name, libs[i].func, 1);
        lua_pop(L, 1);
    }
    /* Nothing in a template may read files or the environment. */
    static const char *const unsafe[] = {"dofile", "loadfile", "load", "collectgarbage"};
    for (size_t i = 0; i < sizeof unsafe / sizeof *unsafe; i++) {
        lua_pushnil(L);
        lua_setglobal(L, unsafe[i]);
    }
    host_state hs = {cfg, out};
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, "spdgen.loaded");
    lua_pushlightuserdata(L, &hs);
    lua_pushcclosure(L, host_require, 1);
    lua_setglobal(L, "require");
    lua_pushcfunction(L, host_embedded_source);
    lua_setglobal(L, "embedded_source");

    int rc = SG_EXIT_FAILURE;
    lua_pushcfunction(L, traceback);
    if (luaL_loadbufferx(L, driver, sizeof driver - 1, "=spdgen", "t") != LUA_OK) {
        fprintf(stderr, "spdgen: error: %s\n", lua_tostring(L, -1));
        goto done;
    }
    push_config(L, cfg);
    lua_pushstring(L, dialect);
    lua_pushboolean(L, want_header);
    if (lua_pcall(L, 3, 6, 1) != LUA_OK) {
        fprintf(stderr, "spdgen: error: %s\n", lua_tostring(L, -1));
        goto done;
    }
    const char *entry = lua_tostring(L, -5);
    if (!lua_isstring(L, -6) || !entry || strlen(entry) >= sizeof out->entry) {
        fprintf(stderr, "spdgen: error: template for %s returned no shader text or entry point\n", dialect);
        goto done;
    }
    snprintf(out->entry, sizeof out->entry, "%s", entry);
    for (int i = 0; i < 3; i++) out->workgroup[i] = (unsigned)lua_tointeger(L, -4 + i);
    out->text = dup_lua_string(L, -6, &out->text_size);
    if (!out->text) goto oom;
    if (want_header) {
        out->header = dup_lua_string(L, -1, &out->header_size);
        if (!out->header) goto oom;
    }
    rc = 0;
    goto done;
oom:
    fprintf(stderr, "spdgen: error: out of memory\n");
done:
    lua_close(L);
    if (rc) sg_generated_free(out);
    return rc;
}

void sg_generated_free(sg_generated *g)
{
    free(g->text);
    free(g->header);
    for (int i = 0; i < g->dep_count; i++) free(g->deps[i]);
    free(g->deps);
    memset(g, 0, sizeof *g);
}

char *sg_generated_depfile(const char *target, const sg_generated *const *list, int count)
{
    const char *deps[64];
    int n = 0;
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len > 0) {
        self[len] = '\0';
        deps[n++] = self;
    }
    for (int g = 0; g < count; g++)
        for (int i = 0; list[g] && i < list[g]->dep_count && n < 63; i++) {
            int seen = 0;
            for (int j = 0; j < n; j++) seen |= strcmp(deps[j], list[g]->deps[i]) == 0;
            if (!seen) deps[n++] = list[g]->deps[i];
        }
    return sg_depfile_text(target, deps, n);
}
