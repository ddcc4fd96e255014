-- The seeds' 3-disk comparison (seed 003, Examples 4.1 and 4.2): the same run with the built-in
-- `linear` model (no dashpots) and with the `cm1` plugin loaded at run time must give the same
-- contact forces and ball positions at every history sample.
-- Reference: the built-in run. Tolerance: 1e-12 of the largest magnitude of the quantity over
-- the run (forces pass through zero as contacts open, so a pointwise relative error is
-- meaningless), printed as its computed absolute value. Both models do the same floating-point
-- operations in the same order, so the observed difference is exactly 0.
-- The cm1 run installs its model the way the seed's Example 4.2 does: a callback on each new
-- contact sets the model and its properties.
model.load("cm1")

local function run(use_cm1)
  model.new{dim = 2}
  if use_cm1 then
    callback.on("contact_created", function(cp)
      contact.model(cp, "cm1")
      contact.prop(cp, "cm1_kn", 1.0)
      contact.prop(cp, "cm1_ks", 1.0)
      contact.prop(cp, "cm1_fric", 0.1)
    end)
  else
    contact.cmat_default{model = "linear", kn = 1.0, ks = 1.0, fric = 0.1}
  end
  ball.create{id = 1, rad = 0.5, pos = {0.5, 0.5}}
  ball.create{id = 2, rad = 0.5, pos = {1.5, 0.5}}
  ball.create{id = 3, rad = 0.5, pos = {1.0, 1.3660254}}
  ball.attribute{density = 1.0, damp = 0.7}
  wall.create{id = 1, nodes = {{0.0, 0.0}, {2.1, 0.0}}}
  wall.create{id = 2, nodes = {{0.0, 2.0}, {0.0, 0.0}}}
  wall.create{id = 3, nodes = {{2.1, 0.0}, {2.1, 2.0}}}
  wall.create{id = 4, nodes = {{2.1, 2.0}, {0.0, 2.0}}}
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
  wall.vel(4, {0.0, -0.001})
  model.cycle(700)
  wall.vel(4, {0.0, 0.0})
  model.cycle(500)
  return samples, contact.count()
end

local a, na = run(false)
local b, nb = run(true)
verify.check{quantity = "samples", sim = #b, ref = #a, tol = 0, kind = "abs"}
verify.check{quantity = "contacts_at_end", sim = nb, ref = na, tol = 0, kind = "abs"}
-- Largest difference over every sample, ball and contact component, relative to the largest
-- magnitude of that quantity over the run (forces pass through zero when contacts open).
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
