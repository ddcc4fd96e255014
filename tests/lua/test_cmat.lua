-- The contact model assignment table: rules by group, first match wins, defaults per kind.
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
model.new{dim = 2}
contact.cmat_default{kind = "ball-ball", model = "linear", kn = 1}
contact.cmat_default{kind = "ball-wall", model = "linear", kn = 10}
contact.cmat_add{groups = {"a", "b"}, model = "linear", kn = 2}     -- a with b
contact.cmat_add{group = "a", model = "linear", kn = 3}             -- anything touching a
contact.cmat_add{group = "a", model = "linear", kn = 99}            -- never reached
contact.cmat_add{kind = "ball-wall", group = "w", model = "linear", kn = 4, proximity = 0.5}
-- a row of touching disks: a a b b, and a wall in group w near the last one
local g = {"a", "a", "b", "b"}
for i = 1, 4 do ball.create{id = i, rad = 0.5, pos = {0.99 * (i - 1), 0}, group = g[i]} end
wall.create{id = 1, nodes = {{2.97, -0.9}, {5, -0.9}}, group = "w"} -- gap 0.4 to ball 4
wall.create{id = 2, nodes = {{-1, -0.6}, {0.5, -0.6}}}              -- gap 0.1 to ball 1 (no group)
model.clean()
local function kn(kind, i, j)
  local cp = contact.find(kind, i, j)
  check(cp, "contact " .. kind .. " " .. i .. "-" .. j .. " exists")
  return contact.prop(cp, "kn")
end
check(kn("ball-ball", 1, 2) == 3, "a-a gets the 'a' rule")
check(kn("ball-ball", 2, 3) == 2, "a-b gets the first rule")
check(kn("ball-ball", 3, 4) == 1, "b-b gets the default")
check(kn("ball-wall", 4, 1) == 4, "ball-wall in w gets its rule, with proximity 0.5")
check(contact.find("ball-wall", 1, 2) == nil, "default proximity 0: no contact across a gap")
-- contact.apply changes every existing contact (of a kind)
contact.apply{kind = "ball-ball", kn = 7}
check(kn("ball-ball", 1, 2) == 7 and kn("ball-ball", 3, 4) == 7, "apply sets a property")
check(kn("ball-wall", 4, 1) == 4, "apply with a kind leaves the other kind alone")
contact.apply{model = "null"}
check(contact.model(contact.find("ball-ball", 1, 2)) == "null", "apply replaces the model")
contact.cmat_clear()
-- Setting only the proximity keeps the model and its properties.
contact.cmat_default{kind = "ball-ball", model = "linear", kn = 5}
contact.cmat_default{kind = "ball-ball", proximity = 0.1}
ball.create{id = 10, rad = 0.5, pos = {10, 0}}
ball.create{id = 11, rad = 0.5, pos = {11.05, 0}} -- gap 0.05 < proximity 0.1
model.clean()
check(kn("ball-ball", 10, 11) == 5, "proximity-only change kept kn")
-- A refused call changes nothing (all-or-nothing): a bad property after a new model leaves the
-- old model and its values; a rule with a bad property is not added.
local ok = pcall(contact.cmat_default, {model = "hertz", hz_shear = 1e8, hz_poiss = 0.7})
check(not ok, "hz_poiss = 0.7 is refused")
ok = pcall(contact.cmat_add, {group = "z", model = "linear", kn = -1})
check(not ok, "kn = -1 in a rule is refused")
ball.create{id = 12, rad = 0.5, pos = {20, 0}, group = "z"}
ball.create{id = 13, rad = 0.5, pos = {20.95, 0}, group = "z"}
model.clean()
local cp = contact.find("ball-ball", 12, 13)
check(contact.model(cp) == "linear" and kn("ball-ball", 12, 13) == 5,
      "the refused calls left the default (linear, kn = 5) and added no rule")
print("cmat ok")
