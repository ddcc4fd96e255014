-- The seeds' 3-disk comparison (seed 003, Examples 4.1 and 4.2): the same run with the built-in
-- `linear` model (no dashpots) and with the `cm1` plugin loaded at run time must give the same
-- contact forces and ball positions at every history sample.
-- Reference: the built-in run. Tolerance: 1e-12 of the largest magnitude of the quantity over
-- the run (forces pass through zero as contacts open, so a pointwise relative error is
-- meaningless), printed as its computed absolute value. Both models do the same floating-point
-- operations in the same order, so the observed difference is exactly 0.
-- In 2D the cm1 run installs its model the way the seed's Example 4.2 does: a callback on each
-- new contact sets the model and its properties. cm1_three_disks_3d.lua runs this file in 3D
-- (CM1_DIM = 3), where the cm1 run uses the contact model assignment table instead.
local dim = CM1_DIM or 2
model.load("cm1")

-- A point (x, y) of the seed's set-up; spheres sit at z = 0.5 in 3D.
local function at(x, y) return dim == 2 and {x, y} or {x, y, 0.5} end
local function vec(x, y) return dim == 2 and {x, y} or {x, y, 0.0} end

local function box()
  if dim == 2 then
    wall.create{id = 1, nodes = {{0.0, 0.0}, {2.1, 0.0}}}
    wall.create{id = 2, nodes = {{0.0, 2.0}, {0.0, 0.0}}}
    wall.create{id = 3, nodes = {{2.1, 0.0}, {2.1, 2.0}}}
    wall.create{id = 4, nodes = {{2.1, 2.0}, {0.0, 2.0}}}
  else -- six planes; the z planes lie 0.05 clear of the spheres, so the motion stays in z = 0.5
    wall.create{id = 1, kind = "plane", point = {0, 0, 0}, normal = {0, 1, 0}}
    wall.create{id = 2, kind = "plane", point = {0, 0, 0}, normal = {1, 0, 0}}
    wall.create{id = 3, kind = "plane", point = {2.1, 0, 0}, normal = {-1, 0, 0}}
    wall.create{id = 4, kind = "plane", point = {0, 2.0, 0}, normal = {0, -1, 0}}
    wall.create{id = 5, kind = "plane", point = {0, 0, -0.05}, normal = {0, 0, 1}}
    wall.create{id = 6, kind = "plane", point = {0, 0, 1.05}, normal = {0, 0, -1}}
  end
end

local function run(use_cm1)
  model.new{dim = dim}
  if use_cm1 and dim == 2 then
    callback.on("contact_created", function(cp)
      contact.model(cp, "cm1")
      contact.prop(cp, "cm1_kn", 1.0)
      contact.prop(cp, "cm1_ks", 1.0)
      contact.prop(cp, "cm1_fric", 0.1)
    end)
  elseif use_cm1 then
    contact.cmat_default{model = "cm1", cm1_kn = 1.0, cm1_ks = 1.0, cm1_fric = 0.1}
  else
    contact.cmat_default{model = "linear", kn = 1.0, ks = 1.0, fric = 0.1}
  end
  ball.create{id = 1, rad = 0.5, pos = at(0.5, 0.5)}
  ball.create{id = 2, rad = 0.5, pos = at(1.5, 0.5)}
  ball.create{id = 3, rad = 0.5, pos = at(1.0, 1.3660254)}
  ball.attribute{density = 1.0, damp = 0.7}
  box()
  model.timestep{fix = 0.25}
  -- One sample every 10 steps: every ball position and every contact force, by contact name.
  local samples = {}
  callback.on("after_force", function()
    if model.step() % 10 ~= 0 then return end
    local s = {}
    for _, id in ipairs(ball.list()) do s["ball" .. id] = ball.pos(id) end
    for _, cp in ipairs(contact.list()) do s[tostring(cp)] = contact.force(cp) end
    samples[#samples + 1] = s
  end)
  wall.vel(4, vec(0.0, -0.001))
  model.cycle(700)
  wall.vel(4, vec(0.0, 0.0))
  model.cycle(500)
  return samples, contact.count()
end

local a, na = run(false)
local b, nb = run(true)
verify.check{quantity = "samples", sim = #b, ref = #a, tol = 0, kind = "abs"}
verify.check{quantity = "contacts_at_end", sim = nb, ref = na, tol = 0, kind = "abs"}
-- Largest difference over every sample, ball and contact component, and the largest magnitude
-- of that quantity over the run.
local function worst(prefix)
  local scale, diff, keys = 0, 0, 0
  for i = 1, #a do
    for k, va in pairs(a[i]) do
      if k:sub(1, #prefix) == prefix then
        local vb = b[i][k]
        if not vb then error("sample " .. i .. ": " .. k .. " missing in the cm1 run") end
        keys = keys + 1
        for c = 1, #va do
          scale = math.max(scale, math.abs(va[c]))
          diff = math.max(diff, math.abs(va[c] - vb[c]))
        end
      end
    end
  end
  return diff, scale, keys
end
local dpos, spos, npos = worst("ball")
local dforce, sforce, nforce = worst("contact")
verify.check{quantity = "ball_positions(" .. npos .. ")", sim = dpos, ref = 0,
             tol = 1e-12 * spos, kind = "abs"}
verify.check{quantity = "contact_forces(" .. nforce .. ")", sim = dforce, ref = 0,
             tol = 1e-12 * sforce, kind = "abs"}
