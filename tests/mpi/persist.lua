-- MPI test (tests/mpi/run.sh): the division persists between cycle calls. A 3D box of spheres
-- settles under a lid that a script moves between calls, with histories of what every rank
-- holds alike (the lid's force, the time) and of what the ranks sum (a region's stress and
-- porosity, the contacts). Ten consecutive cycle calls: after the first, none divides the model
-- or gathers it (model.ranks(): resumed, no gathers, still divided at its end), and the calls
-- between them that read or set what every rank holds or sum over the ranks (model.ratio,
-- wall.vel, wall.move, wall.force, history.get, the region's count, coordination, stress and
-- strain rate, contact.count) leave the model divided, as do queries of one ball or contact
-- (the rank that owns it answers: positions and the like, and names and tables, ball.group,
-- ball.extra, ball.fixed, ball.force_app, contact.props, contact.prop, contact.model),
-- ball.list, ball.count, ball.exists, contact.list,
-- contact.find and energy.get. Then a loop over every ball's position gathers it (once, past 64
-- queries), and every rank count gives the serial run's files bit for bit (the dump, the
-- histories and the figures between calls).
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local dump = dofile(here .. "dump.lua")
model.new{dim = 3}
model.gravity{0, 0, -9.81}
contact.cmat_default{kind = "ball-ball", model = "linear", kn = 1e5, ks = 5e4, fric = 0.4,
                     dp_nratio = 0.2}
contact.cmat_default{kind = "ball-wall", model = "linear", kn = 1e5, ks = 5e4, fric = 0.2}
local L = 0.1
wall.box{min = {0, 0, 0}, max = {L, L, 2 * L}}
local lid = wall.create{kind = "plane", point = {0, 0, 0.078}, normal = {0, 0, -1}}
local rand = dump.random(11)
local n = 0
for k = 0, 5 do
  for j = 0, 5 do
    for i = 0, 5 do
      n = n + 1
      ball.create{id = n, rad = 0.005 + 0.002 * rand(), density = 2600,
                  pos = {0.01 + i * 0.016, 0.01 + j * 0.016, 0.008 + k * 0.0125},
                  vel = {(rand() - 0.5) * 0.2, (rand() - 0.5) * 0.2, 0}}
    end
  end
end
ball.extra(n // 2, 3, 0.25)
ball.force_app(n // 3, {0, 0, -0.01})
ball.group(n, "top")
model.timestep{auto = true}
energy.track(true)
history.add("lid_fz", function() return wall.force(lid)[3] end)
history.add("t", function() return model.time() end)
local region = measure.create{shape = "box", min = {0.02, 0.02, 0.005}, max = {0.08, 0.08, 0.05}}
history.add("szz", function() return region:stress("zz") end)
history.add("porosity", function() return region:porosity() end)
history.add("contacts", function() return contact.count{active = true} end)
history.interval(50)
model.cycle(500)
local r = model.ranks()
local divided = r.count > 1 and r.decomposed
assert(not divided or not r.whole, "the first call leaves the model divided")
local ratios = {}
local hex = function(v) return type(v) == "table" and string.format("%a %a %a", v[1], v[2], v[3])
                                 or string.format("%a", v) end
for call = 2, 10 do
  wall.vel(lid, {0, 0, call % 2 == 0 and -0.3 or 0.05})
  if call == 6 then wall.move(lid, {0, 0, -0.002}) end
  model.cycle(200)
  r = model.ranks()
  local cn, nb = region:coordination()
  ratios[#ratios + 1] = string.format("%a %a %d %d %a %d %a", (model.ratio()), cn, nb,
                                      region:count(), region:stress("mean"), contact.count(),
                                      region:strain_rate("vol"))
  if call == 5 then -- queries of one ball or contact whose answers are a name or a table
    for _, id in ipairs({n // 3, n // 2, n}) do
      local fx = ball.fixed(id)
      ratios[#ratios + 1] = string.format("ball %d %s %a %s %a", id, ball.group(id),
                                          ball.extra(id, 3), tostring(fx.zvelocity),
                                          ball.force_app(id)[3])
    end
    assert(not pcall(ball.group, n + 1), "no such ball")
    local list = contact.list() -- (five of them: with the balls', 33 queries at this step)
    for k, h in ipairs(list) do
      if k % (#list // 5) == 1 then
        local props, names = contact.props(h), {}
        for name in pairs(props) do names[#names + 1] = name end
        table.sort(names)
        for i, name in ipairs(names) do
          local v = props[name]
          names[i] = name .. "=" .. hex(v)
        end
        ratios[#ratios + 1] = string.format("%s %s %a %s", tostring(h), contact.model(h),
                                            contact.prop(h, "kn"), table.concat(names, " "))
      end
    end
    local ok, err = pcall(contact.prop, contact.list()[1], "no_such_prop")
    assert(not ok and err:find("has no property 'no_such_prop'", 1, true), tostring(err))
  end
  local f = wall.force(lid)
  local h = history.get("lid_fz")
  assert(#h > 0 and f[3] == f[3], "the lid's force and history")
  if divided then
    assert(r.resumed, "call " .. call .. " went on from the last call's division")
    assert(r.gathers == 0, "call " .. call .. " gathered the model " .. r.gathers .. " times")
    assert(not r.whole, "call " .. call .. ": the model is whole after it")
  end
end
r = model.ranks()
assert(not divided or not r.whole, "reads of what every rank holds leave the model divided")
-- a query of one ball: its owner answers, nothing gathered
for _, id in ipairs({1, n // 2, n}) do
  ratios[#ratios + 1] = string.format("ball %d %a %a %a %a %a %a %a", id, ball.pos(id)[3],
                                      ball.vel(id)[1], ball.force(id)[3], ball.spin(id)[2],
                                      ball.moment(id)[1], ball.rad(id), ball.mass(id))
end
assert(not pcall(ball.pos, n + 1), "no such ball")
assert(ball.exists(n) and not ball.exists(n + 1), "ball.exists")
-- lists, counts and energies: each rank's part, brought together
local ids = ball.list()
assert(#ids == n)
ratios[#ratios + 1] = "list " .. table.concat(ids, " ")
local low = ball.list{in_box = {min = {0, 0, 0}, max = {L, L, 0.03}}}
ratios[#ratios + 1] = string.format("low %d %d %s", #low,
                                    ball.count{in_box = {min = {0, 0, 0}, max = {L, L, 0.03}}},
                                    table.concat(low, " "))
local e = energy.get()
local keys = {}
for k in pairs(e) do keys[#keys + 1] = k end
table.sort(keys)
for _, k in ipairs(keys) do ratios[#ratios + 1] = string.format("energy %s %a", k, e[k]) end
-- contacts: the list, a find, and queries of one contact, answered by the rank that books it
local contacts = contact.list()
assert(#contacts > 20)
for k = 1, #contacts, #contacts // 3 do -- (four: with the balls', under 64 queries at a step)
  local h = contacts[k]
  ratios[#ratios + 1] = string.format("%s | %s | %s | %s | %s | %s | %s | %s", tostring(h),
                                      hex(contact.force(h)), hex(contact.force_global(h)),
                                      hex(contact.moment(h)), hex(contact.normal(h)),
                                      hex(contact.point(h)), hex(contact.gap(h)),
                                      tostring(contact.active(h)))
end
local kind, id1, id2 = contact.ends(contacts[1])
assert(contact.find(kind, id1, id2) == contacts[1], "contact.find")
assert(contact.find("ball-ball", n + 1, n + 2) == nil)
ratios[#ratios + 1] = "ball-wall " .. #contact.list("ball-wall")
assert(not divided or not model.ranks().whole,
       "queries of balls and contacts, lists and energies gather nothing")
-- a loop over every ball: past 64 queries at one step the model is gathered once, and the rest
-- are read from it
local sum = 0
for _, id in ipairs(ids) do sum = sum + ball.pos(id)[3] end
ratios[#ratios + 1] = string.format("sum %a", sum)
if divided then assert(model.ranks().whole, "a loop over every ball gathered the model") end
local props = contact.props(contacts[1])
assert(props.kn)
-- the figures between calls: appended to the histories' file
history.export("history.csv")
if model.ranks().rank == 0 then
  local f = assert(io.open("history.csv", "a"))
  f:write("# between calls " .. table.concat(ratios, ", ") .. "\n")
  f:close()
end
-- a change of the model after the gathering: the next call divides anew
ball.delete(n)
model.cycle(100)
r = dump.report()
if divided then assert(not r.resumed, "the call after a gathering divides anew") end
dump.write("dump.txt")
