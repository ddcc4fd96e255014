-- A save of format 2 (cairn before contact-model ABI 4: contact forces and contact-plane state in
-- a stored (n, s, t) frame) restores into format-3 storage (global vectors): format2.sav was
-- written by format2_written_by_a116772.lua with cairn a116772, which printed the values below.
-- The global force is converted with the same products the old cairn used to report it, so it
-- must match to the bit; the normal components are copied (bit for bit); the shear spring force
-- keeps its magnitude (to 1e-12 relative: a rotation into the new frame, a few ulp); scalars
-- (dp_xi, lin_slip) are copied.
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
model.restore(here .. "format2.sav")
local want = {
  {1, 2, 34.962232762672045, 22.020894572634155, 168.18353057872153, 206.77494265136932,
   9.7466809414217561, -5.0738224192632186, 0.0020668219085768912, 172.83586436888032},
  {1, 3, 640.80545929994844, -132.89846904201571, 26.242424994575984, 700.16074939095733,
   33.655555647959311, 8.3046277648520519, 0.007000346070559345, 654.04941812040454},
}
for _, w in ipairs(want) do
  local cp = contact.find("ball-ball", w[1], w[2])
  check(cp, "contact " .. w[1] .. "-" .. w[2] .. " restored")
  local fg, lf = contact.force_global(cp), contact.prop(cp, "lin_force")
  check(fg[1] == w[3] and fg[2] == w[4] and fg[3] == w[5], "global force bit for bit")
  check(lf[1] == w[6], "normal spring force copied")
  local s_old, s_new = math.sqrt(w[7] ^ 2 + w[8] ^ 2), math.sqrt(lf[2] ^ 2 + lf[3] ^ 2)
  check(math.abs(s_new - s_old) <= 1e-12 * s_old, "shear spring force magnitude kept")
  check(contact.prop(cp, "dp_xi") == w[9] and contact.prop(cp, "lin_slip") == 0, "scalars copied")
  check(math.abs(contact.force(cp)[1] - w[10]) <= 1e-12 * w[10], "normal force component")
end
model.cycle(200) -- the restored model runs on
check(contact.count() == 2, "both contacts still there after 200 more steps")
print("format 2 restore ok")
