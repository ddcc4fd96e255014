-- contact.joint and the smoothjoint model from scripts: which contacts a joint plane or disk
-- takes, the normal it gives them, the contacts made later across it (and not with later =
-- false), save and restore bit for bit, and each bad input refused with one sentence, nothing
-- changed.
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
local function refused(f, text, what)
  local ok, err = pcall(f)
  check(not ok and tostring(err):find(text, 1, true), what .. " (got: " .. tostring(err) .. ")")
end

-- three touching pairs in a row along x: (1, 2) across z = 0 near the origin, (3, 4) across
-- z = 0 far from it, (5, 6) both above z = 0
local function pairs3()
  model.new{dim = 3}
  contact.cmat_default{model = "linear", kn = 1e6, ks = 1e6}
  local z = {{-0.0099, 0.0099}, {-0.0099, 0.0099}, {0.02, 0.0398}}
  for i = 1, 3 do
    ball.create{id = 2 * i - 1, rad = 0.01, pos = {0.1 * (i - 1), 0, z[i][1]}}
    ball.create{id = 2 * i, rad = 0.01, pos = {0.1 * (i - 1), 0, z[i][2]}}
  end
  model.clean()
end
local function model_of(a, b) return contact.model(contact.find("ball-ball", a, b)) end

pairs3()
check(contact.joint{point = {0, 0, 0}, normal = {0, 0, 2}, sj_kn = 1e12, sj_ks = 5e11} == 2,
      "a plane takes the two pairs it parts")
check(model_of(1, 2) == "smoothjoint" and model_of(3, 4) == "smoothjoint" and
      model_of(5, 6) == "linear", "and leaves the pair on one side")
local nrm = contact.prop(contact.find("ball-ball", 1, 2), "sj_normal")
check(nrm[1] == 0 and nrm[2] == 0 and nrm[3] == 1, "the normal given, made unit")

pairs3()
check(contact.joint{point = {0, 0, 0}, normal = {0, 0, 1}, radius = 0.05, sj_kn = 1e12} == 1,
      "a disk takes the pair it parts within its radius")
check(model_of(1, 2) == "smoothjoint" and model_of(3, 4) == "linear", "and not the one beyond")

-- contacts made later: a ball brought to touch across the joint gets the joint, unbonded, with
-- its normal and the values given; one across the disk's plane beyond its radius, or on one
-- side, the assignment's model; with later = false, none
local function later_pairs(opts)
  pairs3()
  local o = {point = {0, 0, 0}, normal = {0, 0, 1}, radius = 0.05, sj_kn = 1e12, sj_ks = 5e11,
             sj_fric = 0.4, sj_bond = 1, sj_ten = 1e9, sj_coh = 1e9}
  for k, v in pairs(opts) do o[k] = v end
  check(contact.joint(o) == 1, "the disk takes the pair it parts")
  ball.create{id = 7, rad = 0.01, pos = {0.017, 0, -0.0005}}  -- below: 2 across, 1 beside
  ball.create{id = 8, rad = 0.01, pos = {0.2199, 0, 0.0398}}  -- beside 6: one side
  ball.create{id = 9, rad = 0.01, pos = {0.117, 0, -0.0005}}  -- 4 across, beyond the disk
  model.clean()
end
later_pairs{}
check(model_of(2, 7) == "smoothjoint", "a contact made later across the joint gets it")
local c27 = contact.find("ball-ball", 2, 7)
nrm = contact.prop(c27, "sj_normal")
check(nrm[1] == 0 and nrm[2] == 0 and nrm[3] == 1, "with the joint's normal")
check(contact.prop(c27, "sj_fric") == 0.4 and contact.prop(c27, "sj_bond") == 0,
      "with the values given, unbonded")
check(model_of(1, 7) == "linear" and model_of(6, 8) == "linear", "not one on one side")
check(model_of(4, 9) == "linear", "nor one across the plane beyond the disk")
model.save("joint_later.sav")
model.restore("joint_later.sav")
ball.create{id = 10, rad = 0.01, pos = {-0.017, 0, 0.0005}} -- above: 1 across, 2 beside
model.clean()
check(model_of(1, 10) == "smoothjoint", "a restored model keeps the joint for later contacts")
os.remove("joint_later.sav")
later_pairs{later = false}
check(model_of(2, 7) == "linear", "later = false: only the contacts there when installed")
pairs3()
refused(function()
  contact.joint{point = {0, 0, 0}, normal = {0, 0, 1},
                sj_fric = {dist = "normal", mean = 0.5, sd = 0.05, seed = 1}}
end, "contacts made later across the joint take one value", "a distribution for later contacts")
refused(function() contact.joint{point = {0, 0, 0}, normal = {0, 0, 1}, later = 1} end,
        "later must be true or false", "a later that is not a boolean")
check(model_of(1, 2) == "linear", "nothing changed by the refused calls")
check(contact.joint{point = {0, 0, 0}, normal = {0, 0, 1}, later = false,
                    sj_fric = {dist = "normal", mean = 0.5, sd = 0.05, seed = 1}} == 2,
      "a distribution with later = false")

-- a bonded joint under tension: the joint's normal, not the line of centres, carries it; save
-- and restore keep every state field
pairs3()
contact.joint{point = {0, 0, 0}, normal = {0, 0, 1}, sj_kn = 1e12, sj_ks = 5e11, sj_bond = 1,
              sj_ten = 1e9, sj_coh = 1e9}
ball.fix{"velocity", "spin"}
ball.vel(2, {0.01, 0, 0.02})
model.timestep{fix = 1e-7}
model.cycle(100)
model.save("joint.sav")
model.cycle(200)
local cp = contact.find("ball-ball", 1, 2)
local fn1, us1 = contact.prop(cp, "sj_fn"), contact.prop(cp, "sj_us")
check(contact.prop(cp, "sj_state") == 1 and fn1 < 0, "the bonded joint holds in tension")
model.restore("joint.sav")
model.cycle(200)
cp = contact.find("ball-ball", 1, 2)
check(contact.prop(cp, "sj_fn") == fn1 and contact.prop(cp, "sj_us")[1] == us1[1],
      "the state after a restore, bit for bit")
os.remove("joint.sav")

-- bad input, each refused with nothing changed
pairs3()
refused(function() contact.joint{normal = {0, 0, 1}} end, "give point", "no point")
refused(function() contact.joint{point = {0, 0, 0}} end, "give normal", "no normal")
refused(function() contact.joint{point = {0, 0, 0}, normal = {0, 0, 0}} end,
        "the normal is zero", "a zero normal")
refused(function() contact.joint{point = {0, 0, 0}, normal = {0, 0, 1}, radius = -1} end,
        "radius must be a finite number > 0", "a negative radius")
refused(function() contact.joint{point = {0, 0, 0}, normal = {0, 0, 1}, model = "linearpbond"} end,
        "takes no joint normal", "a model without a joint normal")
refused(function() contact.joint{point = {0, 0, 0}, normal = {0, 0, 1}, sj_fric = -1} end,
        "sj_fric", "a negative friction")
refused(function() contact.joint{point = {0, 0, 5}, normal = {0, 0, 1}} end,
        "no touching ball-ball contact that the joint parts", "a plane that parts no contact")
check(model_of(1, 2) == "linear", "nothing changed by the refused calls")
-- a zero sj_normal given by an assignment, and friction and dilation adding up to 90 degrees:
-- the run stops at the contact's first touch, naming what to give
model.new{dim = 3}
contact.cmat_default{model = "smoothjoint", sj_kn = 1e12}
ball.create{id = 1, rad = 0.01, pos = {0, 0, 0}}
ball.create{id = 2, rad = 0.01, pos = {0, 0, 0.0199}}
model.timestep{fix = 1e-7}
refused(function() model.cycle(1) end, "sj_normal is zero", "a zero sj_normal")
model.new{dim = 3}
contact.cmat_default{model = "smoothjoint", sj_kn = 1e12, sj_normal = {0, 0, 1}, sj_fric = 1,
                     sj_da = 45}
ball.create{id = 1, rad = 0.01, pos = {0, 0, 0}}
ball.create{id = 2, rad = 0.01, pos = {0, 0, 0.0199}}
model.timestep{fix = 1e-7}
refused(function() model.cycle(1) end, "add up to 90 deg or more", "friction plus dilation")
print("joint ok")
