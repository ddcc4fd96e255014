-- Contact properties by name: type and range checked against the model's table, read-only
-- state refused on write, clear messages.
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
local function fails(fn, text)
  local ok, msg = pcall(fn)
  check(not ok, "expected an error containing '" .. text .. "'")
  check(msg:find(text, 1, true), "message lacks '" .. text .. "': " .. tostring(msg))
  check(msg:find("test_props.lua:%d+:"), "message lacks file:line: " .. msg)
end
model.new{dim = 3}
contact.cmat_default{model = "linear", kn = 1e5, ks = 1e5, fric = 0.3}
ball.create{id = 1, rad = 0.1, pos = {0, 0, 0}}
ball.create{id = 2, rad = 0.1, pos = {0, 0, 0.199}}
local cp = contact.find("ball-ball", 1, 2)
check(cp, "contact found right after creating the balls")
check(contact.prop(cp, "kn") == 1e5, "kn from the default assignment")
contact.prop(cp, "fric", 0.6)
check(contact.prop(cp, "fric") == 0.6, "fric set")
fails(function() contact.prop(cp, "lin_slip", 1) end, "is read-only")
fails(function() contact.prop(cp, "bur_knk", 1) end,
      "has no property 'bur_knk' (models with it: burger); run `cairn models linear`")
fails(function() contact.prop(cp, "kn", -1) end, "'kn' = -1 is out of range [0, +inf)")
fails(function() contact.prop(cp, "kn", "stiff") end, "property 'kn' must be a number (got string)")
fails(function() contact.prop(cp, "kn", {1, 2, 3}) end, "takes a number (got 3 values)")
fails(function() contact.cmat_default{model = "linear", knn = 1} end, "has no property 'knn'")
fails(function() contact.cmat_default{model = "nosuch"} end, "contact model 'nosuch' is not known")
local f = contact.prop(cp, "lin_force")
check(type(f) == "table" and #f == 3, "VEC state reads as 3 numbers")
print("props ok")
