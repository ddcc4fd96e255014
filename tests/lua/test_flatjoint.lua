-- The flatjoint model from scripts: its per-element arrays read as lists, kept bit for bit by
-- save and restore (the run after a restore is the run without it), the slit draws' fraction and
-- determinism, and each bad input refused with one sentence that names what to fix.
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
local function refused(f, text, what)
  local ok, err = pcall(f)
  check(not ok and tostring(err):find(text, 1, true), what .. " (got: " .. tostring(err) .. ")")
end

-- a bonded pair, loaded in tension, shear and bending at once
local function pair(dim)
  model.new{dim = dim}
  contact.cmat_default{model = "flatjoint", fj_kn = 1e10, fj_ks = 5e9, fj_ten = 2e4,
                       fj_coh = 3e4, fj_fric = 0.5, fj_nr = 3, fj_na = 5}
  ball.create{id = 1, rad = 0.01, pos = dim == 3 and {0, 0, 0} or {0, 0}, density = 1000}
  ball.create{id = 2, rad = 0.01, pos = dim == 3 and {0.019999, 0, 0} or {0.019999, 0},
              vel = dim == 3 and {0.004, 0.003, 0.001} or {0.004, 0.003},
              spin = dim == 3 and {1, 2, 8} or 8, density = 1000}
  model.timestep{fix = 1e-7}
end

for _, dim in ipairs{2, 3} do
  pair(dim)
  model.cycle(500)
  local cp = contact.find("ball-ball", 1, 2)
  local ne = dim == 3 and 15 or 3
  local modes, sn = contact.prop(cp, "fj_emode"), contact.prop(cp, "fj_esn")
  check(#modes == 64 and #sn == 64, dim .. "D: the per-element fields are lists of 64")
  check(modes[ne] >= 1 and modes[ne + 1] == -1, dim .. "D: -1 past the element count")
  local all = contact.props(cp)
  check(type(all.fj_egap) == "table" and #all.fj_egap == 64, dim .. "D: contact.props has them")
  -- save, run on, and compare with a restored run
  model.save("fj.sav")
  model.cycle(3000)
  local f1 = contact.force_global(cp)
  local m1 = contact.moment(cp)
  local g1 = contact.prop(cp, "fj_egap")
  local nb1 = contact.prop(cp, "fj_nbond")
  model.restore("fj.sav")
  model.cycle(3000)
  cp = contact.find("ball-ball", 1, 2)
  local g2 = contact.prop(cp, "fj_egap")
  for k = 1, 64 do check(g1[k] == g2[k], dim .. "D: element gap " .. k .. " after restore") end
  local f2 = contact.force_global(cp)
  for k = 1, #f1 do check(f1[k] == f2[k], dim .. "D: force after restore") end
  check(dim == 2 and m1 == contact.moment(cp) or dim == 3 and m1[3] == contact.moment(cp)[3],
        dim .. "D: moment after restore")
  check(nb1 == contact.prop(cp, "fj_nbond"), dim .. "D: bonded count after restore")
  check(nb1 < ne, dim .. "D: the load broke some elements (" .. nb1 .. " of " .. ne .. " left)")
  os.remove("fj.sav")
end

-- the slit draws: 40 separate pairs of 64 elements at fj_slit = 0.3 give a fraction within
-- 4 standard deviations (sqrt(0.3 * 0.7 / 2560) = 0.009), and the same run draws the same slits
local function slits()
  model.new{dim = 3}
  contact.cmat_default{model = "flatjoint", fj_kn = 1e10, fj_ks = 5e9, fj_nr = 8, fj_na = 8,
                       fj_slit = 0.3, fj_seed = 7}
  for i = 0, 39 do
    ball.create{id = 2 * i + 1, rad = 0.01, pos = {0.1 * i, 0.0001 * i, 0}}
    ball.create{id = 2 * i + 2, rad = 0.01 + 1e-5 * i, pos = {0.1 * i + 0.0199, 0.0001 * i, 0}}
  end
  model.timestep{fix = 1e-8}
  model.cycle(1)
  local n, list = 0, {}
  for i = 0, 39 do
    local cp = contact.find("ball-ball", 2 * i + 1, 2 * i + 2)
    n = n + contact.prop(cp, "fj_nslit")
    list[#list + 1] = table.concat(contact.prop(cp, "fj_emode"), ",")
  end
  return n, table.concat(list, ";")
end
local n1, l1 = slits()
local n2, l2 = slits()
check(math.abs(n1 / 2560 - 0.3) < 4 * 0.009, "slit fraction " .. n1 / 2560 .. " near 0.3")
check(l1 == l2, "the same run draws the same slits")

-- bad input
model.new{dim = 3}
refused(function() contact.cmat_default{model = "flatjoint", fj_nr = 0} end, "fj_nr",
        "fj_nr below 1")
refused(function() contact.cmat_default{model = "flatjoint", fj_na = 65} end, "fj_na",
        "fj_na above 64")
refused(function() contact.cmat_default{model = "flatjoint", fj_slit = 1.5} end, "fj_slit",
        "a slit fraction above 1")
refused(function() contact.cmat_default{model = "flatjoint", fj_slit = -0.1} end, "fj_slit",
        "a slit fraction below 0")
-- more than 64 elements: refused at the contact's first touch, the run stopped with its name
contact.cmat_default{model = "flatjoint", fj_kn = 1e10, fj_nr = 9, fj_na = 8}
ball.create{id = 1, rad = 0.01, pos = {0, 0, 0}}
ball.create{id = 2, rad = 0.01, pos = {0.0199, 0, 0}}
model.timestep{fix = 1e-8}
refused(function() model.cycle(1) end, "fj_nr * fj_na is 72 elements, more than the 64",
        "too many elements")
-- an array field is no column for the session's per-contact export, and is read-only
contact.cmat_default{model = "flatjoint", fj_kn = 1e10, fj_nr = 2, fj_na = 4}
model.new{dim = 3}
contact.cmat_default{model = "flatjoint", fj_kn = 1e10, fj_nr = 2, fj_na = 4}
ball.create{id = 1, rad = 0.01, pos = {0, 0, 0}}
ball.create{id = 2, rad = 0.01, pos = {0.0199, 0, 0}}
model.timestep{fix = 1e-8}
model.cycle(1)
local cp = contact.find("ball-ball", 1, 2)
refused(function() contact.prop(cp, "fj_esn", 1) end, "read-only", "writing an array state")
-- on a contact past its first touch, a write the model's check refuses is refused, unchanged
refused(function() contact.prop(cp, "fj_na", 40) end,
        "fj_nr * fj_na is 80 elements, more than the 64", "raising the count past 64")
check(contact.prop(cp, "fj_na") == 4, "the refused write changed nothing")
print("flatjoint ok")
