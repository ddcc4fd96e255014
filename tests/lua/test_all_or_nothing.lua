-- Calls that change many things are all-or-nothing (scripting.md): a refused call, caught with
-- pcall, leaves the model as it was. contact.bond draws a value per contact: when a draw falls
-- outside the property's range, no contact is bonded, not the ones before it.
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
model.new{dim = 2}
contact.cmat_default{model = "linear", kn = 1e6, ks = 5e5}
for i = 1, 24 do ball.create{id = i, rad = 0.5, pos = {0.99 * (i - 1), 0}} end
model.clean()
local n0 = #contact.list()
check(n0 == 23, "23 contacts in the row (got " .. n0 .. ")")
-- pb_mcf lies in [0, 1]: draws around 0.9 with sd 0.5 leave it for some contacts
local ok, msg = pcall(contact.bond, {model = "linearpbond", kn = 1e6, ks = 5e5, pb_kn = 1e9,
                                     pb_ks = 1e9, pb_ten = 1e3, pb_coh = 1e3,
                                     pb_mcf = {dist = "normal", mean = 0.9, sd = 0.5, seed = 3}})
check(not ok, "an out-of-range draw is refused")
check(tostring(msg):find("pb_mcf", 1, true), "the message names the property: " .. tostring(msg))
for _, cp in ipairs(contact.list()) do
  check(contact.model(cp) == "linear", "no contact was bonded by the refused call")
end
-- the same call with draws inside the range bonds every contact
local n = contact.bond{model = "linearpbond", kn = 1e6, ks = 5e5, pb_kn = 1e9, pb_ks = 1e9,
                       pb_ten = 1e3, pb_coh = 1e3,
                       pb_mcf = {dist = "normal", mean = 0.5, sd = 0.01, seed = 3}}
check(n == 23, "every contact bonded (got " .. n .. ")")
print("all-or-nothing ok")

-- ball.attribute and ball.fix check every selected ball before changing any
model.new{dim = 2}
ball.create{id = 1, rad = 0.1, pos = {0, 0}, density = 1000}
ball.create{id = 2, rad = 1000, pos = {5000, 0}, density = 1000}
-- density 1e300 gives ball 1 a finite mass, but ball 2 a moment of inertia beyond a double
ok, msg = pcall(ball.attribute, {density = 1e300})
check(not ok and tostring(msg):find("ball 2", 1, true), "ball 2's overflow is refused: " .. tostring(msg))
check(ball.density(1) == 1000, "ball 1 kept its density after the refused call")
ok = pcall(ball.attribute, {ids = {1, 99}, vel = {1, 0}})
check(not ok, "an unknown id is refused")
check(ball.vel(1)[1] == 0, "ball 1 kept its velocity after the refused call")
ok = pcall(ball.fix, {"velocity", ids = {1, 99}})
check(not ok, "ball.fix with an unknown id is refused")
check(not ball.fixed(1).xvelocity, "ball 1 was not fixed by the refused call")
print("ball selections ok")

-- contact.apply checks every contact against the model it will have before changing any
model.new{dim = 2}
contact.cmat_default{model = "linear", kn = 1e6}
contact.cmat_add{group = "v", model = "viscous", vis_kn = 1e6}
ball.create{id = 1, rad = 0.5, pos = {0, 0}}
ball.create{id = 2, rad = 0.5, pos = {0.99, 0}}
ball.create{id = 3, rad = 0.5, pos = {5, 0}, group = "v"}
ball.create{id = 4, rad = 0.5, pos = {5.99, 0}, group = "v"}
model.clean()
-- kn exists in linear, not in viscous: refused at the second contact, the first unchanged
ok, msg = pcall(contact.apply, {kn = 2e6})
check(not ok and tostring(msg):find("has no property 'kn'", 1, true), "kn refused: " .. tostring(msg))
check(contact.prop(contact.find("ball-ball", 1, 2), "kn") == 1e6, "the linear contact kept kn")
-- a new model for every contact with a bad value: none gets the model
ok = pcall(contact.apply, {model = "linear", kn = -1})
check(not ok, "kn = -1 is refused")
check(contact.model(contact.find("ball-ball", 3, 4)) == "viscous", "the viscous contact kept its model")
print("contact.apply ok")
