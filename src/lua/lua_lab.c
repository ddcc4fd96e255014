/* The lab module (docs/scripting.md, "lab"): laboratory tests as script calls, written in Lua
   (src/lua/lab/) and built into cairn as byte arrays (cmake/embed_lua.cmake). Each file is a
   chunk called with the module's table, in order: the tests (lab.rock, lab.soil), then the
   drivers (lab.lua), which take the tests' code out of sight. */
#include "io/io.h"
#include "lua/lua_api.h"

extern const int lab_n_chunks;
extern const char *const lab_chunk_name[];
extern const char *const lab_chunk_text[];
extern const size_t lab_chunk_len[];

/* lab.rock.write_csv(path, cols, rows): a CSV of the columns named in cols (a header line, then
   a line per row, rows[i][col] with 10 significant digits), written as cairn's own files are:
   whole or not at all, and by rank 0 alone under MPI, the others waiting for it (a collective
   call). */
static int l_write_csv(lua_State *L) {
  collective_call(L, CALL_LAB_WRITE_CSV);
  const char *path = luaL_checkstring(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  luaL_checktype(L, 3, LUA_TTABLE);
  lua_Integer nc = luaL_len(L, 2), nr = luaL_len(L, 3);
  for (lua_Integer i = 1; i <= nc; i++)
    if (lua_geti(L, 2, i) != LUA_TSTRING)
      lua_raisef(L, "lab.rock.write_csv: column %lld is not a name; give cols as strings",
                 (long long)i);
  lua_pop(L, (int)nc);
  /* every value checked before the file is opened: a bad row leaves nothing behind */
  for (lua_Integer r = 1; r <= nr; r++) {
    if (lua_geti(L, 3, r) != LUA_TTABLE)
      lua_raisef(L, "lab.rock.write_csv: row %lld is not a table", (long long)r);
    for (lua_Integer i = 1; i <= nc; i++) {
      lua_geti(L, 2, i);
      int ok = lua_gettable(L, -2) == LUA_TNUMBER;
      lua_pop(L, 1);
      if (!ok) {
        lua_geti(L, 2, i);
        lua_raisef(L, "lab.rock.write_csv: row %lld has no number for column '%s'", (long long)r,
                   lua_tostring(L, -1));
      }
    }
    lua_pop(L, 1);
  }
  atomic_file af;
  cairn_diag d;
  if (io_atomic_open(&af, path, &d) != CAIRN_OK)
    return lua_raisef(L, "lab.rock.write_csv: %s", d.msg);
  for (lua_Integer i = 1; i <= nc; i++) {
    lua_geti(L, 2, i);
    fprintf(af.f, i > 1 ? ",%s" : "%s", lua_tostring(L, -1));
    lua_pop(L, 1);
  }
  fputc('\n', af.f);
  for (lua_Integer r = 1; r <= nr; r++) {
    lua_geti(L, 3, r);
    for (lua_Integer i = 1; i <= nc; i++) {
      lua_geti(L, 2, i);
      lua_gettable(L, -2);
      fprintf(af.f, i > 1 ? ",%.10g" : "%.10g", lua_tonumber(L, -1));
      lua_pop(L, 1);
    }
    fputc('\n', af.f);
    lua_pop(L, 1);
  }
  if (io_atomic_commit(&af, &d) != CAIRN_OK) return lua_raisef(L, "lab.rock.write_csv: %s", d.msg);
  return 0;
}

void open_lab(lua_State *L) {
  lua_newtable(L);
  lua_newtable(L);
  lua_pushcfunction(L, l_write_csv);
  lua_setfield(L, -2, "write_csv");
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
