-- No NaN or infinity enters the model through a script call: every setter, creation option,
-- property write, wall or ball setter, gravity, timestep, solve criterion, specimen parameter and
-- measurement region below is called with NaN, +inf and -inf, and each must be refused with a
-- message. (A model domain's bounds may be infinite, an unbounded side, but not NaN; hertz's
-- hz_shear2 takes +inf, a rigid material: both checked at the end.)
local nan, inf = 0/0, math.huge
local function setup()
  model.new{dim = 3}
  contact.cmat_default{model = "linear", kn = 1e5, ks = 1e5}
  ball.create{id = 1, rad = 0.1, pos = {0, 0, 0}}
  ball.create{id = 2, rad = 0.1, pos = {0.19, 0, 0}}
  wall.create{id = 1, kind = "plane", point = {0, 0, -0.1}, normal = {0, 0, 1}}
  wall.create{id = 2, kind = "cylinder", point = {0, 0, 0}, axis = {0, 0, 1}, radius = 1}
  model.timestep{fix = 1e-4}
  model.cycle(1)
end
local cases = {
  {"ball.create rad", function(x) ball.create{rad = x, pos = {1, 1, 1}} end},
  {"ball.create pos", function(x) ball.create{rad = 0.1, pos = {x, 1, 1}} end},
  {"ball.create vel", function(x) ball.create{rad = 0.1, pos = {1, 1, 1}, vel = {x, 0, 0}} end},
  {"ball.create spin", function(x) ball.create{rad = 0.1, pos = {1, 1, 1}, spin = {x, 0, 0}} end},
  {"ball.create density", function(x) ball.create{rad = 0.1, pos = {1, 1, 1}, density = x} end},
  {"ball.create damp", function(x) ball.create{rad = 0.1, pos = {1, 1, 1}, damp = x} end},
  {"ball.pos", function(x) ball.pos(1, {x, 0, 0}) end},
  {"ball.vel", function(x) ball.vel(1, {x, 0, 0}) end},
  {"ball.spin", function(x) ball.spin(1, {x, 0, 0}) end},
  {"ball.rad", function(x) ball.rad(1, x) end},
  {"ball.density", function(x) ball.density(1, x) end},
  {"ball.damp", function(x) ball.damp(1, x) end},
  {"ball.force_app", function(x) ball.force_app(1, {x, 0, 0}) end},
  {"ball.moment_app", function(x) ball.moment_app(1, {x, 0, 0}) end},
  {"ball.attribute rad", function(x) ball.attribute{rad = x} end},
  {"ball.attribute vel", function(x) ball.attribute{vel = {x, 0, 0}} end},
  {"ball.attribute spin", function(x) ball.attribute{spin = {x, 0, 0}} end},
  {"ball.attribute density", function(x) ball.attribute{density = x} end},
  {"wall.create point", function(x) wall.create{kind = "plane", point = {x, 0, 0}, normal = {0, 0, 1}} end},
  {"wall.create normal", function(x) wall.create{kind = "plane", point = {0, 0, 0}, normal = {x, 0, 1}} end},
  {"wall.create nodes", function(x) wall.create{nodes = {{x, 0, 0}, {1, 0, 0}, {0, 1, 0}}} end},
  {"wall.create vel", function(x) wall.create{kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}, vel = {x, 0, 0}} end},
  {"wall.vel", function(x) wall.vel(1, {x, 0, 0}) end},
  {"wall.move", function(x) wall.move(1, {x, 0, 0}) end},
  {"wall.centre", function(x) wall.centre(1, {x, 0, 0}) end},
  {"wall.spin", function(x) wall.spin(2, {x, 0, 0}) end},
  {"wall.radius", function(x) wall.radius(2, x) end},
  {"wall.radial_vel", function(x) wall.radial_vel(2, x) end},
  {"wall.servo stress", function(x) wall.servo{id = 1, stress = x, area = 1, vmax = 1} end},
  {"wall.servo vmax", function(x) wall.servo{id = 1, stress = 1, area = 1, vmax = x} end},
  {"wall.servo area", function(x) wall.servo{id = 1, stress = 1, area = x, vmax = 1} end},
  {"wall.stress area", function(x) wall.stress(1, x) end},
  {"model.gravity", function(x) model.gravity{x, 0, 0} end},
  {"model.timestep fix", function(x) model.timestep{fix = x} end},
  {"model.timestep safety", function(x) model.timestep{auto = true, safety = x} end},
  {"model.domain nan", function() model.domain{min = {nan, -10, -10}, max = {10, 10, 10}} end},
  {"model.solve time", function(x) model.solve{time = x} end},
  {"model.solve ratio", function(x) model.solve{ratio = x, steps = 1} end},
  {"model.cycle", function(x) model.cycle(x) end},
  {"contact.cmat_default kn", function(x) contact.cmat_default{kn = x} end},
  {"contact.cmat_default proximity", function(x) contact.cmat_default{proximity = x} end},
  {"contact.prop kn", function(x) contact.prop(contact.find("ball-ball", 1, 2), "kn", x) end},
  {"contact.apply fric", function(x) contact.apply{fric = x} end},
  {"measure.create box", function(x) measure.create{shape = "box", min = {x, 0, 0}, max = {1, 1, 1}} end},
  {"measure.create sphere", function(x) measure.create{shape = "sphere", centre = {0, 0, 0}, radius = x} end},
  {"specimen.generate porosity", function(x) specimen.generate{shape = "box", min = {5, 5, 5}, max = {6, 6, 6}, porosity = x, size = {kind = "uniform", rmin = 0.1, rmax = 0.1}} end},
  {"specimen.generate rmin", function(x) specimen.generate{shape = "box", min = {5, 5, 5}, max = {6, 6, 6}, count = 3, size = {kind = "uniform", rmin = x, rmax = 0.1}} end},
  {"specimen.lattice rad", function(x) specimen.lattice{kind = "cubic", rad = x, n = {2, 2, 2}, origin = {5, 5, 5}} end},
  {"specimen.lattice origin", function(x) specimen.lattice{kind = "cubic", rad = 0.1, n = {2, 2, 2}, origin = {x, 5, 5}} end},
  {"history.interval", function(x) history.interval(x) end},
  {"contact.bond gap", function(x) contact.bond{model = "linearpbond", gap = x} end},
}
local refused, accepted = 0, 0
for _, c in ipairs(cases) do
  for _, x in ipairs({nan, inf, -inf}) do
    setup()
    local ok, err = pcall(c[2], x)
    if ok then
      accepted = accepted + 1
      print("FAILED: " .. c[1] .. " accepted " .. tostring(x))
    elseif not tostring(err):find("%S") then
      print("FAILED: " .. c[1] .. " refused without a message")
    else
      refused = refused + 1
    end
  end
end
-- allowed on purpose
setup()
local ok1 = pcall(model.domain, {min = {-inf, -inf, -inf}, max = {inf, inf, inf}})
contact.cmat_default{model = "hertz", hz_shear = 1e9, hz_poiss = 0.3}
local ok2 = pcall(contact.cmat_default, {model = "hertz", hz_shear = 1e9, hz_shear2 = inf})
if not (ok1 and ok2) then print("FAILED: an infinite domain bound or hz_shear2 = inf refused") end
print(string.format("nonfinite: %d calls with NaN or infinity, %d refused", refused + accepted,
                    refused))
