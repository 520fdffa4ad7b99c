/* lua_fields.h: setting one field of the Lua table on top of the stack, for the code that
 * hands the configuration to the templates (lua_host.c, fft_cli.c). */
#ifndef SPDGEN_LUA_FIELDS_H
#define SPDGEN_LUA_FIELDS_H

#include <lua.h>

static inline void sg_set_string(lua_State *L, const char *key, const char *value)
{
    lua_pushstring(L, value);
    lua_setfield(L, -2, key);
}

static inline void sg_set_integer(lua_State *L, const char *key, lua_Integer value)
{
    lua_pushinteger(L, value);
    lua_setfield(L, -2, key);
}

static inline void sg_set_boolean(lua_State *L, const char *key, int value)
{
    lua_pushboolean(L, value);
    lua_setfield(L, -2, key);
}

#endif
