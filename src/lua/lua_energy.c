/* Script module 'energy': tracking of the energy balance (src/world/energy.h).
     energy.track(true|false)  start or stop adding work and losses at every step
     energy.reset()            zero the sums and take the current energy as the start
     energy.get()              a table of every figure; energy.get(name) one figure */
#include <string.h>

#include "contact/energy.h"
#include "lua/lua_api.h"

typedef struct figure {
  const char *name;
  size_t off;
} figure;

#define FIG(n, f)                                                                                  \
  { n, offsetof(energy_report, f) }
static const figure figures[] = {
    FIG("kinetic", kinetic),         FIG("kinetic_trans", kinetic_trans),
    FIG("kinetic_rot", kinetic_rot), FIG("strain", strain),
    FIG("dashpot", dashpot),         FIG("slip", slip),
    FIG("damping", damping),         FIG("gravity_work", gravity),
    FIG("wall_work", walls),         FIG("applied_work", applied),
    FIG("removed", removed),         FIG("start", start),
    FIG("balance", balance),
};
#undef FIG
#define N_FIGURES (sizeof figures / sizeof *figures)

static double figure_value(const energy_report *r, size_t k) {
  return *(const double *)((const char *)r + figures[k].off);
}

static int l_track(lua_State *L) {
  luaL_checktype(L, 1, LUA_TBOOLEAN);
  energy_set_tracking(ctx_world(L), lua_toboolean(L, 1));
  return 0;
}

static int l_reset(lua_State *L) {
  energy_reset(ctx_world(L));
  return 0;
}

static int l_get(lua_State *L) {
  cairn_world *w = ctx_world_reduced(L);
  if (!w->energy->started)
    return lua_raisef(L, "energy.get: energy is not tracked; call energy.track(true) before "
                         "the steps you want to account for");
  energy_report r;
  energy_report_get(w, &r);
  if (lua_gettop(L) >= 1) {
    const char *name = luaL_checkstring(L, 1);
    for (size_t k = 0; k < N_FIGURES; k++)
      if (strcmp(name, figures[k].name) == 0) {
        lua_pushnumber(L, figure_value(&r, k));
        return 1;
      }
    char known[512] = "";
    for (size_t k = 0; k < N_FIGURES; k++) {
      if (k) strncat(known, ", ", sizeof known - strlen(known) - 1);
      strncat(known, figures[k].name, sizeof known - strlen(known) - 1);
    }
    return lua_raisef(L, "energy.get: no figure named '%s'; the figures are %s", name, known);
  }
  lua_createtable(L, 0, (int)N_FIGURES + 1);
  for (size_t k = 0; k < N_FIGURES; k++) {
    lua_pushnumber(L, figure_value(&r, k));
    lua_setfield(L, -2, figures[k].name);
  }
  lua_pushinteger(L, (lua_Integer)r.n_unknown);
  lua_setfield(L, -2, "untracked_contacts");
  return 1;
}

static int l_tracking(lua_State *L) {
  lua_pushboolean(L, ctx_world_as_is(L)->energy->on);
  return 1;
}

void open_energy(lua_State *L) {
  static const luaL_Reg f[] = {{"track", l_track},
                               {"reset", l_reset},
                               {"get", l_get},
                               {"tracking", l_tracking},
                               {NULL, NULL}};
  luaL_newlib(L, f);
  lua_setglobal(L, "energy");
}
