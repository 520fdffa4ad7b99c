/* lua_host.c: the Lua 5.4 host. Pushes one shader's configuration as a table, provides
 * `require` over the embedded templates (or --template-dir overrides, file by file) and
 * runs templates/<kernel>/kernel.lua with the target's dialect.
 *
 * The state is a sandbox: the base, table, string and math libraries only, a `require`
 * that reads nothing but templates, `print` to stderr (stdout may carry the shader), an
 * allocator capped at SG_LUA_MEMORY_LIMIT and a budget of SG_LUA_INSTRUCTION_LIMIT VM
 * instructions, so output never depends on the machine and an override cannot hang spdgen
 * or exhaust its memory. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "embedded.h"
#include "job.h"
#include "kernel.h"
#include "lua_host.h"

#define HOOK_EVERY 10000      /* instructions between budget checks */
#define MEMORY_GRACE (64u << 20) /* past the limit, room to stop at the next instruction */

typedef struct {
    const sg_run *run;
    sg_generated *out;
    lua_State *L;
    size_t allocated;
    long long instructions;
    int past_limit; /* the allocator went past SG_LUA_MEMORY_LIMIT: stop at the hook */
    int stopped;    /* a limit stopped the template: report one line */
    char where[160];
} host_state;

static void budget_hook(lua_State *L, lua_Debug *ar);

/* Allocations past the limit stop the template at its next instruction, where the hook
 * can name the line; one that would pass the limit by more than the grace fails at once. */
static void *capped_alloc(void *ud, void *ptr, size_t old, size_t size)
{
    host_state *hs = ud;
    if (!ptr) old = 0;
    if (size == 0) {
        free(ptr);
        hs->allocated -= old;
        return NULL;
    }
    if (size > old && hs->allocated + (size - old) > SG_LUA_MEMORY_LIMIT) {
        if (hs->allocated + (size - old) > (size_t)SG_LUA_MEMORY_LIMIT + MEMORY_GRACE) {
            snprintf(hs->where, sizeof hs->where, "spdgen: error: template ran past its %u MiB "
                     "memory limit", SG_LUA_MEMORY_LIMIT >> 20);
            hs->stopped = 1;
            return NULL;
        }
        if (!hs->past_limit && hs->L) lua_sethook(hs->L, budget_hook, LUA_MASKCOUNT, 1);
        hs->past_limit = 1;
    }
    void *p = realloc(ptr, size);
    if (p) hs->allocated = hs->allocated - old + size;
    return p;
}

static void budget_hook(lua_State *L, lua_Debug *ar)
{
    host_state *hs;
    lua_getallocf(L, (void **)&hs);
    hs->instructions += HOOK_EVERY;
    if (hs->past_limit || hs->instructions > SG_LUA_INSTRUCTION_LIMIT) {
        char at[128] = "template";
        if (lua_getinfo(L, "Sl", ar) && ar->currentline > 0)
            snprintf(at, sizeof at, "%s:%d", ar->short_src, ar->currentline);
        if (hs->past_limit)
            snprintf(hs->where, sizeof hs->where, "spdgen: error: %s: template ran past its %u MiB "
                     "memory limit", at, SG_LUA_MEMORY_LIMIT >> 20);
        else
            snprintf(hs->where, sizeof hs->where, "spdgen: error: %s: template ran past its budget "
                     "of %d million Lua instructions", at, (int)(SG_LUA_INSTRUCTION_LIMIT / 1000000));
        hs->stopped = 1;
        lua_sethook(L, NULL, 0, 0);
        luaL_error(L, "%s", hs->where);
    }
}

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
    for (int i = 0; i < out->dep_count; i++)
        if (strcmp(out->deps[i], path) == 0) return 0;
    char **grown = realloc(out->deps, (size_t)(out->dep_count + 1) * sizeof *grown);
    if (!grown) return -1;
    out->deps = grown;
    out->deps[out->dep_count] = strdup(path);
    if (!out->deps[out->dep_count]) return -1;
    out->dep_count++;
    return 0;
}

/* A lookup of `full` (dir/templates/x/y.lua) found nothing: the depfile names the deepest
 * directory on its way that exists, whose modification time changes when the file (or a
 * folder towards it) is added. */
static int add_searched_dir(sg_generated *out, const char *full, size_t dir_len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", full);
    for (char *slash = strrchr(path, '/'); slash && (size_t)(slash - path) >= dir_len;
         slash = strrchr(path, '/')) {
        *slash = '\0';
        struct stat st;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return add_dep(out, path);
    }
    return add_dep(out, path);
}

/* require(name): "templates.spd.kernel" -> templates/spd/kernel.lua, from the template dir
 * when the file exists there, else embedded. Results are cached like Lua's own require. */
static int host_require(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    host_state *hs = lua_touserdata(L, lua_upvalueindex(1));

    lua_getfield(L, LUA_REGISTRYINDEX, "spdgen.loaded");
    if (lua_getfield(L, -1, name) != LUA_TNIL) return 1;
    lua_pop(L, 1);

    char path[256];
    if (strlen(name) + 5 >= sizeof path || strstr(name, "..") || strchr(name, '/'))
        return luaL_error(L, "require: bad module name '%s'", name);
    snprintf(path, sizeof path, "%s.lua", name);
    for (char *p = path; *p && strcmp(p, ".lua"); p++)
        if (*p == '.') *p = '/';

    char chunkname[4200];
    snprintf(chunkname, sizeof chunkname, "=%s", path);
    int status = LUA_ERRFILE;
    const char *dir = hs->run->common.template_dir;
    char *disk = NULL;
    if (dir) {
        char full[4096];
        size_t size;
        snprintf(full, sizeof full, "%s/%s", dir, path);
        disk = read_file(full, &size);
        int failed = disk ? add_dep(hs->out, full) : add_searched_dir(hs->out, full, strlen(dir));
        if (failed) {
            free(disk);
            return luaL_error(L, "out of memory");
        }
        if (disk) {
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

/* print(...) for template authors: to stderr, so it never mixes with `-o -` output. */
static int host_print(lua_State *L)
{
    int n = lua_gettop(L);
    fputs("spdgen: template:", stderr);
    for (int i = 1; i <= n; i++) fprintf(stderr, " %s", luaL_tolstring(L, i, NULL));
    fputc('\n', stderr);
    return 0;
}

/* The shader's configuration: what every kernel's templates read, the kernel's options
 * that have a Lua name, then the kernel's derived fields. */
static void push_config(lua_State *L, const sg_run *run, const sg_job_shader *shader)
{
    const sg_kernel *k = run->kernel;
    lua_createtable(L, 0, 32);
    lua_pushstring(L, k->name);
    lua_setfield(L, -2, "kernel");
    lua_pushstring(L, sg_target_name(run->common.target));
    lua_setfield(L, -2, "target");
    lua_pushfstring(L, "%s (%s)", SPDGEN_VERSION, sg_revision);
    lua_setfield(L, -2, "version");
    lua_pushstring(L, run->command);
    lua_setfield(L, -2, "command");
    lua_pushstring(L, shader->role);
    lua_setfield(L, -2, "role");
    /* The workgroup storage a plan may use where the target sets one (WebGPU's limit);
     * the GLSL twin of a WGSL run plans within it too. */
    if (run->common.target == SG_TARGET_WGSL) {
        lua_pushinteger(L, run->common.wg_storage);
        lua_setfield(L, -2, "wg_storage");
    }
    for (const sg_option *o = k->options; o->name; o++) {
        if (!o->lua) continue;
        const void *base = run->params;
        const long *l = &SG_FIELD(base, o, long);
        switch (o->kind) {
        case SG_OPT_FLAG: lua_pushboolean(L, SG_FIELD(base, o, int)); break;
        case SG_OPT_CHOICE: lua_pushstring(L, o->choices[SG_FIELD(base, o, int)]); break;
        case SG_OPT_SIZE:
        case SG_OPT_SIZE3: lua_pushfstring(L, "%dx%d", (int)l[0], (int)l[1]); break;
        case SG_OPT_PATH:
        case SG_OPT_IDENT: lua_pushstring(L, SG_FIELD(base, o, const char *)); break;
        default: lua_pushinteger(L, *l); break;
        }
        lua_setfield(L, -2, o->lua);
    }
    if (k->push) k->push(L, run, shader);
}

/* Runs in protected mode: arguments (cfg table, dialect name). */
static const char driver[] =
    "local cfg, dialect_name = ...\n"
    "local kernel = require('templates.' .. cfg.kernel .. '.kernel')\n"
    "local text, contract = kernel.generate(cfg, require('targets.' .. dialect_name))\n"
    "return text, contract\n";

static int traceback(lua_State *L)
{
    luaL_traceback(L, L, lua_tostring(L, 1), 1);
    return 1;
}

static lua_State *new_state(host_state *hs)
{
    lua_State *L = lua_newstate(capped_alloc, hs);
    if (!L) return NULL;
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
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, "spdgen.loaded");
    lua_pushlightuserdata(L, hs);
    lua_pushcclosure(L, host_require, 1);
    lua_setglobal(L, "require");
    lua_pushcfunction(L, host_print);
    lua_setglobal(L, "print");
    lua_sethook(L, budget_hook, LUA_MASKCOUNT, HOOK_EVERY);
    return L;
}

int sg_generate(const sg_run *run, const sg_job_shader *shader, const char *dialect,
                sg_generated *out)
{
    memset(out, 0, sizeof *out);
    host_state hs = {run, out, NULL, 0, 0, 0, 0, ""};
    lua_State *L = new_state(&hs);
    hs.L = L;
    if (!L) {
        fprintf(stderr, "spdgen: error: cannot create a Lua state (out of memory)\n");
        return SG_EXIT_FAILURE;
    }
    int rc = SG_EXIT_FAILURE;
    char err[256];
    lua_pushcfunction(L, traceback);
    if (luaL_loadbufferx(L, driver, sizeof driver - 1, "=spdgen", "t") != LUA_OK) {
        fprintf(stderr, "spdgen: error: %s\n", lua_tostring(L, -1));
        goto done;
    }
    push_config(L, run, shader);
    lua_pushstring(L, dialect);
    if (lua_pcall(L, 2, 2, 1) != LUA_OK) {
        if (hs.stopped)
            fprintf(stderr, "%s\n", hs.where);
        else
            fprintf(stderr, "spdgen: error: %s\n", lua_tostring(L, -1));
        goto done;
    }
    size_t len;
    const char *text = lua_type(L, -2) == LUA_TSTRING ? lua_tolstring(L, -2, &len) : NULL;
    if (!text) {
        fprintf(stderr, "spdgen: error: template for %s returned no shader text\n", dialect);
        goto done;
    }
    if (sg_contract_read(L, -1, &out->contract, err, sizeof err)) {
        fprintf(stderr, "spdgen: error: template for %s: %s\n", dialect, err);
        goto done;
    }
    out->text = malloc(len + 1);
    if (!out->text) {
        fprintf(stderr, "spdgen: error: out of memory\n");
        goto done;
    }
    memcpy(out->text, text, len + 1);
    out->text_size = len;
    rc = 0;
done:
    lua_close(L);
    if (rc) sg_generated_free(out);
    return rc;
}

void sg_generated_free(sg_generated *g)
{
    free(g->text);
    for (int i = 0; i < g->dep_count; i++) free(g->deps[i]);
    free(g->deps);
    memset(g, 0, sizeof *g);
}

/* ---- the override stamp ---------------------------------------------------------------- */

static uint64_t fnv1a64(const char *data, size_t size)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < size; i++) h = (h ^ (unsigned char)data[i]) * 0x100000001b3ull;
    return h;
}

typedef struct {
    char **names;
    int count, cap;
} name_list;

static int collect(const char *root, const char *rel, name_list *list, int depth)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    DIR *d = opendir(path);
    if (!d) return 0; /* no such folder: nothing overridden there */
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", rel, e->d_name);
        size_t n = strlen(e->d_name);
        if (n > 4 && strcmp(e->d_name + n - 4, ".lua") == 0) {
            if (list->count == list->cap) {
                list->cap = list->cap ? 2 * list->cap : 16;
                char **grown = realloc(list->names, (size_t)list->cap * sizeof *grown);
                if (!grown) { rc = -1; break; }
                list->names = grown;
            }
            if (!(list->names[list->count++] = strdup(sub))) rc = -1;
        } else if (depth < 4) {
            rc = collect(root, sub, list, depth + 1);
        }
    }
    closedir(d);
    return rc;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int sg_template_overrides(const char *dir, char *out, size_t size)
{
    out[0] = '\0';
    if (!dir) return 0;
    name_list list = {0};
    int rc = collect(dir, "templates", &list, 0) || collect(dir, "targets", &list, 0) ? -1 : 0;
    if (list.count) qsort(list.names, (size_t)list.count, sizeof *list.names, by_name);
    for (int i = 0; rc == 0 && i < list.count; i++) {
        char path[4200];
        size_t len;
        snprintf(path, sizeof path, "%s/%s", dir, list.names[i]);
        char *data = read_file(path, &len);
        if (!data) { rc = -1; break; }
        /* Names go into comments: anything but plain path characters becomes '?'. */
        for (char *c = list.names[i]; *c; c++)
            if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-/", *c) ||
                (*c == '/' && c > list.names[i] && c[-1] == '*'))
                *c = '?';
        snprintf(out + strlen(out), size - strlen(out), "%s%s %016llx", i ? ", " : "", list.names[i],
                 (unsigned long long)fnv1a64(data, len));
        free(data);
    }
    for (int i = 0; i < list.count; i++) free(list.names[i]);
    free(list.names);
    return rc;
}
