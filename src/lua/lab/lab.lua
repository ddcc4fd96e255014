-- The lab module's drivers (docs/scripting.md, "lab"): each checks its options, fills in the
-- defaults of its size and runs the test of soil.lua, shear.lua or rock.lua. Loaded last, after
-- the files that define the tests (lua_lab.c).
local lab = ...
local soil, rock = lab.soil, lab.rock
lab.soil = nil -- (the tests' code, reached through the drivers only)

-- Stop with msg, reported at the script's line that called into the module (the first caller
-- outside the module's files).
local function fail(msg)
  for level = 2, 100 do
    local info = debug.getinfo(level, "S")
    if not info then break end
    if info.what ~= "C" and not info.source:match("^@lab/") then error(msg, level) end
  end
  error(msg, 0) -- (called from C: Python, a callback)
end

-- The options o of driver fname, checked against the defaults (the keys it takes, with their
-- values when not given) and the other keys it takes (extra); returns a copy with the defaults
-- filled in. 
local function options(fname, o, defaults, extra)
  if o == nil then o = {} end
  if type(o) ~= "table" then
    fail(string.format("%s takes a table of options, as in %s{seed = 2} (got a %s)", fname, fname,
                        type(o)))
  end
  for k in pairs(o) do
    if defaults[k] == nil and not extra[k] then
      local names = {}
      for n in pairs(defaults) do names[#names + 1] = n end
      for n in pairs(extra) do names[#names + 1] = n end
      table.sort(names)
      fail(string.format("%s: unknown option '%s'; it takes %s", fname, tostring(k),
                          table.concat(names, ", ")))
    end
  end
  local r = {}
  for k, v in pairs(defaults) do r[k] = v end
  for k, v in pairs(o) do r[k] = v end
  return r
end

-- Checks of single options.
local function positive(fname, o, key)
  local v = o[key]
  if type(v) ~= "number" or not (v > 0 and v < math.huge) then
    fail(string.format("%s: option '%s' must be a positive number (got %s)", fname, key,
                        tostring(v)))
  end
end
local function one_of(fname, o, key, allowed)
  for _, a in ipairs(allowed) do if o[key] == a then return end end
  local shown = {}
  for i, a in ipairs(allowed) do shown[i] = string.format("%q", a) end
  fail(string.format("%s: option '%s' must be %s (got %s)", fname, key,
                      table.concat(shown, " or "), tostring(o[key])))
end
local function size_of(fname, o)
  if type(o) ~= "table" or o.size == nil then return false end
  one_of(fname, o, "size", {"small", "full"})
  return o.size == "full"
end
-- A name becomes a folder and file names: letters, digits, '_', '-' and '.' only.
local function name_ok(fname, o)
  if type(o.name) ~= "string" or not o.name:match("^[%w_%-%.]+$") then
    fail(string.format("%s: option 'name' must be a word of letters, digits, '_', '-' or '.' (it " ..
                        "names the folder of the outputs; got %s)", fname, tostring(o.name)))
  end
end
local function box_ok(fname, o, dim)
  if type(o.L) ~= "table" or #o.L ~= dim then
    fail(string.format("%s: option 'L' must be the box's %d sizes, the axial last (got %s)",
                        fname, dim, tostring(o.L)))
  end
  for a = 1, dim do
    if type(o.L[a]) ~= "number" or not (o.L[a] > 0 and o.L[a] < math.huge) then
      fail(string.format("%s: option 'L' must hold positive sizes (L[%d] is %s)", fname, a,
                          tostring(o.L[a])))
    end
  end
end
local function radii_ok(fname, o)
  positive(fname, o, "rmin")
  positive(fname, o, "rmax")
  if o.rmin > o.rmax then
    fail(string.format("%s: option 'rmin' (%g) is larger than 'rmax' (%g)", fname, o.rmin,
                        o.rmax))
  end
end
local function fraction(fname, o, key)
  local v = o[key]
  if type(v) ~= "number" or not (v > 0 and v < 1) then
    fail(string.format("%s: option '%s' must lie between 0 and 1 (got %s)", fname, key,
                        tostring(v)))
  end
end

-- The drained test's options, with the defaults of its size where o gives none.
local DRAINED_EXTRA = {size = true, grain = true, test = true, consolidated = true, clump = true,
                       verify = true}
local function drained(fname, o, dim, sized)
  local full = size_of(fname, o)
  local d = sized(full)
  local x = options(fname, o, d, DRAINED_EXTRA)
  x.dim = dim
  name_ok(fname, x)
  box_ok(fname, x, dim)
  radii_ok(fname, x)
  for _, k in ipairs{"kn", "p0", "rate"} do positive(fname, x, k) end
  fraction(fname, x, "strain_end")
  fraction(fname, x, "porosity0")
  local r = soil.drained(x)
  if r then r.test, r.name = fname, x.name end
  return r
end

function lab.biaxial(o)
  local r = drained("lab.biaxial", o, 2, function(full)
    local k = full and 1 or 2
    return {name = "biaxial", title = "drained biaxial test", L = {0.05, 0.1}, rmin = 0.5e-3 * k,
            rmax = 0.8e-3 * k, kn = 1e8, p0 = 100e3, rate = 0.5, strain_end = full and 0.15 or 0.10,
            porosity0 = 0.5, seed = 7}
  end)
  return r
end

function lab.triaxial(o)
  local r = drained("lab.triaxial", o, 3, function(full)
    local k = full and 0.8 or 1.3
    return {name = "triaxial", title = "drained triaxial test", L = {0.03, 0.03, 0.06},
            rmin = 1.25e-3 * k, rmax = 2e-3 * k, kn = 1e7, p0 = 100e3, rate = 0.5,
            strain_end = full and 0.15 or 0.10, porosity0 = 0.72, seed = 7}
  end)
  return r
end

function lab.simple_shear(o)
  local fname = "lab.simple_shear"
  local full = size_of(fname, o)
  local k = full and 1.0 or 1.3
  local x = options(fname, o, {name = "simple_shear", L = full and 0.04 or 0.034,
                               rmin = 1.25e-3 * k, rmax = 2e-3 * k, p0 = 100e3, kn = 2e6,
                               rate = 1.0, gamma_end = full and 0.6 or 0.25, porosity0 = 0.72,
                               seed = 11}, {size = true})
  name_ok(fname, x)
  radii_ok(fname, x)
  for _, key in ipairs{"L", "p0", "kn", "rate", "gamma_end"} do positive(fname, x, key) end
  fraction(fname, x, "porosity0")
  local r = soil.simple_shear(x)
  r.test, r.name = fname, x.name
  return r
end

-- The rock tests' shared options.
local ROCK = {dim = 2, seed = 1, size = "small", scale = 1, rate = 1, material = "pbond"}
local ROCK_EXTRA = {out = true, props = true}
local function rock_options(fname, o, more, extra)
  local d, e = {}, {}
  for k, v in pairs(ROCK) do d[k] = v end
  for k, v in pairs(more or {}) do d[k] = v end
  for k in pairs(ROCK_EXTRA) do e[k] = true end
  for k in pairs(extra or {}) do e[k] = true end
  local x = options(fname, o, d, e)
  one_of(fname, x, "dim", {2, 3})
  one_of(fname, x, "size", {"small", "full"})
  one_of(fname, x, "material", {"pbond", "flatjoint"})
  positive(fname, x, "scale")
  positive(fname, x, "rate")
  if type(x.seed) ~= "number" or x.seed ~= math.floor(x.seed) then
    fail(string.format("%s: option 'seed' must be a whole number (got %s)", fname,
                        tostring(x.seed)))
  end
  if x.props ~= nil and type(x.props) ~= "table" then
    fail(string.format("%s: option 'props' must be a table of micro properties (got a %s)", fname,
                        type(x.props)))
  end
  if x.out ~= nil and type(x.out) ~= "string" then
    fail(string.format("%s: option 'out' must be a path prefix (got a %s)", fname, type(x.out)))
  end
  if x.out then -- its folder, made here
    local dir = x.out:match("^(.*)/[^/]*$")
    if dir and dir ~= "" then os.execute("mkdir -p '" .. dir:gsub("'", "'\\''") .. "'") end
  end
  return x
end

function lab.ucs(o)
  local x = rock_options("lab.ucs", o)
  local r = rock.ucs(x)
  r.test = "lab.ucs"
  return r
end

function lab.brazilian(o)
  local x = rock_options("lab.brazilian", o, {dim = 2})
  one_of("lab.brazilian", x, "dim", {2})
  local r = rock.brazilian(x)
  r.test = "lab.brazilian"
  return r
end

function lab.rock_triaxial(o)
  local x = rock_options("lab.rock_triaxial", o, {membrane = false}, {confinement = true,
                                                                       joint = true})
  positive("lab.rock_triaxial", x, "confinement")
  if type(x.membrane) ~= "boolean" then
    fail("lab.rock_triaxial: option 'membrane' must be true or false (got " ..
         tostring(x.membrane) .. ")")
  end
  if x.membrane and x.dim ~= 2 then
    fail("lab.rock_triaxial: option 'membrane' is for 2D specimens (dim = 2); in 3D the lateral " ..
         "walls confine")
  end
  if x.joint ~= nil and (type(x.joint) ~= "table" or type(x.joint.angle) ~= "number" or
                         type(x.joint.fric) ~= "number" or
                         (x.joint.later ~= nil and type(x.joint.later) ~= "boolean")) then
    fail("lab.rock_triaxial: option 'joint' must be {angle = DEGREES, fric = MU} (and " ..
         "optionally later = false)")
  end
  local r = rock.triaxial(x)
  r.test = "lab.rock_triaxial"
  return r
end

lab.hoek_brown_m = rock.hoek_brown_m

-- Stop with an error unless a test's results r (a driver's) are what such a test should give.
function lab.check(name, r)
  if type(name) ~= "string" or type(r) ~= "table" or type(r.test) ~= "string" then
    fail("lab.check takes a name and the results of a lab driver, as in " ..
          "lab.check(\"ucs\", lab.ucs{})")
  end
  local bad
  if r.test == "lab.biaxial" or r.test == "lab.triaxial" then
    bad = soil.problem(name, r)
  elseif r.test == "lab.simple_shear" then
    bad = soil.shear_problem(name, r)
  else
    bad = rock.problem(r)
    if bad then bad = name .. ": the test did not come out as a rock test should: " .. bad end
  end
  if bad then fail(bad) end
end

-- Three lines of a UCS test's results, as the examples print them.
function lab.report(name, r)
  if type(name) ~= "string" or type(r) ~= "table" or r.test ~= "lab.ucs" then
    fail("lab.report takes a name and the results of lab.ucs, as in lab.report(\"ucs\", lab.ucs{})")
  end
  rock.report(name, r)
end
