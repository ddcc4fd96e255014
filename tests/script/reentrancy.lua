-- Script functions inside every kind of callback, generated, not hand-picked: every function of
-- every module, called with no arguments, and a list of calls that change the model, each inside
-- each kind of callback (the cycle points, the contact events a small model raises, a history
-- function). The calls that must not run in the middle of a step (model.new, model.restore,
-- model.load, model.save, model.cycle, model.solve, history.add, history.clear) are refused
-- with one message naming the callback; every other call either works or fails with its own
-- message, and the run goes on: no crash (the sanitizer build runs this too), no stack overflow.
local MODULES = {"model", "ball", "wall", "contact", "history", "plot", "vtk", "specimen",
                 "measure", "energy", "callback", "verify"}
local REFUSED = {["model.new"] = true, ["model.restore"] = true, ["model.load"] = true,
                 ["model.save"] = true, ["model.cycle"] = true, ["model.solve"] = true,
                 ["history.add"] = true, ["history.clear"] = true}
local KINDS = {"before_force", "after_force", "contact_created", "contact_activated",
               "slip_change", "contact_deleted", "history"}
local CHANGES = {
  {"ball.delete(3)", function() ball.delete(3) end},
  {"ball.create", function() ball.create{rad = 0.05, pos = {5, 5}} end},
  {"ball.rad", function() ball.rad(1, 0.11) end},
  {"ball.pos", function() ball.pos(1, {0.01, 0}) end},
  {"wall.delete", function() wall.delete(1) end},
  {"model.clean", function() model.clean() end},
  {"model.calm", function() model.calm() end},
  {"contact.apply", function() contact.apply{fric = 0.1} end},
  {"contact.cmat_default", function() contact.cmat_default{model = "linear", kn = 1e5} end},
  {"specimen.lattice", function()
    specimen.lattice{kind = "square", rad = 0.05, n = {2, 2}, origin = {3, 3}}
  end},
  {"energy.track", function() energy.track(true) end},
  {"callback.clear", function() callback.clear() end},
  {"model.new", function() model.new{dim = 2} end},
  {"model.cycle", function() model.cycle(1) end},
}
local calls = {}
for _, m in ipairs(MODULES) do
  local names = {}
  for name in pairs(_G[m]) do names[#names + 1] = name end
  table.sort(names)
  for _, name in ipairs(names) do
    local full = m .. "." .. name
    calls[#calls + 1] = {full, function() return _G[m][name]() end}
  end
end
for _, c in ipairs(CHANGES) do calls[#calls + 1] = c end

-- A small model that raises every event: ball 2 slides into ball 1 (created, activated, slip),
-- then leaves it (deleted); ball 3 rests on wall 1.
local function build()
  model.new{dim = 2}
  contact.cmat_default{model = "linear", kn = 1e5, ks = 1e5, fric = 0.1}
  wall.create{id = 1, nodes = {{-1, -0.2}, {1, -0.2}}}
  ball.create{id = 1, rad = 0.1, pos = {0, 0}}
  ball.create{id = 2, rad = 0.1, pos = {-0.25, 0.05}, vel = {1, 0}}
  ball.create{id = 3, rad = 0.1, pos = {0.5, -0.1}}
  ball.fix{"velocity", "spin", ids = {1, 3}}
  model.timestep{fix = 5e-5}
end

local ran, refused, bad = 0, 0, {}
for _, kind in ipairs(KINDS) do
  for _, c in ipairs(calls) do
    build()
    local done, msg = false, nil
    local function call_once()
      if done then return end
      done = true
      local ok, err = pcall(c[2])
      if not ok then msg = tostring(err) end
    end
    if kind == "history" then
      history.interval(1)
      history.add("h", function() call_once() return 0 end)
    else
      callback.on(kind, function() call_once() end)
    end
    local ok, err = pcall(model.cycle, 5000)
    if not ok and not (err and tostring(err):find("in the", 1, true)) then
      bad[#bad + 1] = kind .. " / " .. c[1] .. ": the run failed: " .. tostring(err)
    end
    if not done then
      bad[#bad + 1] = kind .. " / " .. c[1] .. ": the callback was never called"
    end
    ran = ran + 1
    local name = c[1]:match("^([%w_]+%.[%w_]+)")
    if REFUSED[name] then
      local want = "cannot be called inside"
      if not (msg and msg:find(want, 1, true)) then
        bad[#bad + 1] = kind .. " / " .. c[1] .. ": not refused (" .. tostring(msg) .. ")"
      else
        refused = refused + 1
      end
    end
  end
end
print(string.format("reentrancy: %d calls in %d kinds of callback run, %d refused as they must be",
                    ran, #KINDS, refused))
for _, b in ipairs(bad) do print("FAILED: " .. b) end
