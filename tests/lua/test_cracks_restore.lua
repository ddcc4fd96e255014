-- Cracks are kept by save and restore: a bond broken before the save is still recorded after.
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
model.new{dim = 2}
contact.cmat_default{model = "linearcbond", kn = 1e6, ks = 5e5, cb_tenf = 2, cb_shearf = 3}
ball.create{id = 1, rad = 0.01, pos = {0, 0}}
ball.create{id = 2, rad = 0.01, pos = {0.01999, 0}, vel = {0.01, 0}}
ball.fix{"velocity", "spin"}
model.timestep{fix = 1e-6}
model.cycle(2000)
check(contact.cracks() == 1, "one crack before the save")
local before = contact.cracks{list = true}[1]
model.save("cracks.sav")
model.new{dim = 2}
check(contact.cracks() == 0, "a new model has no cracks")
model.restore("cracks.sav")
local after = contact.cracks{list = true}
check(#after == 1 and after[1].step == before.step and after[1].mode == before.mode and
      after[1].pos[1] == before.pos[1], "the crack restored bit for bit")
os.remove("cracks.sav")
-- and written for ParaView: a point per crack
vtk.write("cracks_vtk")
local f = io.open("cracks_vtk_cracks_00000.vtp")
local text = f and f:read("a") or ""
if f then f:close() end
check(text:find('NumberOfPoints="1"', 1, true) and text:find('Name="tension"', 1, true),
      "cracks_vtk_cracks_00000.vtp holds the crack")
print("cracks restore ok")
