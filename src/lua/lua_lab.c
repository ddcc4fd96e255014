/* The lab module (docs/scripting.md, "lab"): laboratory tests as script calls, written in Lua
   (src/lua/lab/) and built into cairn as byte arrays (cmake/embed_lua.cmake). Each file is a
   chunk called with the module's table, in order: the tests (lab.rock, lab.soil), then the
   drivers (lab.lua), which take the tests' code out of sight. */
#include "lua/lua_api.h"

extern const int lab_n_chunks;
extern const char *const lab_chunk_name[];
extern const char *const lab_chunk_text[];
extern const size_t lab_chunk_len[];

void open_lab(lua_State *L) {
  lua_newtable(L);
  lua_newtable(L);
  lua_setfield(L, -2, "rock");
  lua_newtable(L);
  lua_setfield(L, -2, "soil");
  for (int i = 0; i < lab_n_chunks; i++) {
    /* a chunk that does not load or run is a fault of the build: an error here stops the start */
    if (luaL_loadbuffer(L, lab_chunk_text[i], lab_chunk_len[i], lab_chunk_name[i]) != LUA_OK)
      lua_error(L);
    lua_pushvalue(L, -2);
    lua_call(L, 1, 0);
  }
  lua_setglobal(L, "lab");
}
