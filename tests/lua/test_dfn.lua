-- dfn.*: the Fisher sets against their closed forms, the file format's round trip and refusals
-- (each naming the line), the VTK file, and contact.joint with a network.
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
local function refused(f, text, what)
  local ok, err = pcall(f)
  check(not ok and tostring(err):find(text, 1, true), what .. " (got: " .. tostring(err) .. ")")
end
local function dot(a, b) return a[1] * b[1] + a[2] * b[2] + (a[3] or 0) * (b[3] or 0) end

-- 3D Fisher: the mean of cos(theta) about the mean pole is coth(k) - 1/k, its variance
-- 1/k^2 - 1/sinh(k)^2; 4000 draws must meet the mean within 4 standard errors
model.new{dim = 3}
local n, kappa = 4000, 20
local net = dfn.fisher{box = {min = {0, 0, 0}, max = {1, 2, 3}}, seed = 5,
                       sets = {{dip = 60, dip_direction = 120, kappa = kappa, count = n,
                                radius = {min = 0.1, max = 1, power = 2.5}}}}
check(#net == n, "count")
local pole = {math.sin(math.rad(60)) * math.sin(math.rad(120)),
              math.sin(math.rad(60)) * math.cos(math.rad(120)), math.cos(math.rad(60))}
local sum, rsum, inside = 0, 0, true
for _, j in ipairs(net) do
  sum = sum + dot(j.normal, pole)
  rsum = rsum + j.radius
  check(math.abs(dot(j.normal, j.normal) - 1) < 1e-12, "unit normals")
  inside = inside and j.radius >= 0.1 and j.radius <= 1 and j.centre[1] >= 0 and
           j.centre[1] <= 1 and j.centre[2] <= 2 and j.centre[3] <= 3 and j.set == 0
end
check(inside, "centres in the box, radii in range, set 0")
local mean = 1 / math.tanh(kappa) - 1 / kappa
local sd = math.sqrt(1 / kappa ^ 2 - 1 / math.sinh(kappa) ^ 2)
check(math.abs(sum / n - mean) < 4 * sd / math.sqrt(n),
      string.format("Fisher mean cos %.5f against %.5f", sum / n, mean))
-- power-law radii: density r^-a on [A, B] has the mean (1-a)/(2-a) (B^(2-a) - A^(2-a)) /
-- (B^(1-a) - A^(1-a)); its standard deviation is below (B - A) / 2
local a, A, B = 2.5, 0.1, 1
local rmean = (1 - a) / (2 - a) * (B ^ (2 - a) - A ^ (2 - a)) / (B ^ (1 - a) - A ^ (1 - a))
check(math.abs(rsum / n - rmean) < 4 * 0.45 / math.sqrt(n),
      string.format("power-law mean radius %.5f against %.5f", rsum / n, rmean))
-- the same seed, the same network
local again = dfn.fisher{box = {min = {0, 0, 0}, max = {1, 2, 3}}, seed = 5,
                         sets = {{dip = 60, dip_direction = 120, kappa = kappa, count = n,
                                  radius = {min = 0.1, max = 1, power = 2.5}}}}
check(again[n].normal[2] == net[n].normal[2] and again[17].radius == net[17].radius, "seeded")

-- round trip, bit for bit
dfn.write("net.txt", net)
local back = dfn.read("net.txt")
check(#back == n, "read back the count")
for i = 1, n, 97 do
  for k = 1, 3 do
    check(back[i].centre[k] == net[i].centre[k] and back[i].normal[k] == net[i].normal[k],
          "joint " .. i .. " read back bit for bit")
  end
  check(back[i].radius == net[i].radius and back[i].set == net[i].set, "radius and set")
end
os.remove("net.txt")

-- refusals, naming the line
local function file(text)
  local f = assert(io.open("bad.txt", "w"))
  f:write(text)
  f:close()
  return "bad.txt"
end
refused(function() dfn.read(file("# ok\n0 0 0 0 0 1 1 0\n0 0 0 0 0 1 1\n")) end,
        "line 3 has fewer numbers where a joint has 8", "too few numbers")
refused(function() dfn.read(file("0 0 0 0 0 1 1 0 9\n")) end, "line 1 has more numbers",
        "too many numbers")
refused(function() dfn.read(file("\n\n0 0 0 0 0 x 1 0\n")) end,
        "line 3 holds something that is not a number", "not a number")
refused(function() dfn.read(file("0 0 0 0 0 0 1 0\n")) end, "line 1: the joint's normal is zero",
        "a zero normal")
refused(function() dfn.read(file("0 0 0 0 0 1 -1 0\n")) end, "line 1: the joint's radius is -1",
        "a negative radius")
refused(function() dfn.read(file("0 0 0 0 0 1 1 2.5\n")) end, "line 1: the set id is 2.5",
        "a fractional set")
refused(function() dfn.read("no/such/file.txt") end, "cannot read the joint file", "no file")
os.remove("bad.txt")
refused(function() dfn.fisher{box = {min = {0, 0, 0}, max = {1, 1, 1}},
                              sets = {{count = 3, radius = 1, kappa = -1}}} end,
        "kappa must be a finite number >= 0", "a negative kappa")
refused(function() dfn.fisher{box = {min = {0, 0, 0}, max = {1, 1, 1}},
                              sets = {{count = 3, radius = {min = 2, max = 1}}}} end,
        "radii must satisfy 0 < min <= max", "radii out of order")
refused(function() dfn.fisher{box = {min = {0, 0, 0}, max = {1, 1, 1}},
                              sets = {{count = 3, radius = 1, dipp = 3}}} end, "dipp",
        "an unknown field")
refused(function() dfn.fisher{box = {min = {0, 0, 0}, max = {0, 1, 1}},
                              sets = {{count = 3, radius = 1}}} end,
        "box.max must exceed box.min", "an empty box")

-- ParaView: one polygon per disk
dfn.vtk("net.vtp", {net[1], net[2], net[3]})
local f = assert(io.open("net.vtp"))
local text = f:read("a")
f:close()
check(text:find('NumberOfPolys="3"', 1, true) and text:find('NumberOfPoints="72"', 1, true),
      "three 24-gons")
os.remove("net.vtp")

-- 2D: the von Mises mean of cos(theta) is I1(k) / I0(k), integrated here (Simpson, 2000 pieces)
model.new{dim = 2}
kappa = 5
local net2 = dfn.fisher{box = {min = {0, 0}, max = {1, 1}}, seed = 2,
                        sets = {{dip = 30, kappa = kappa, count = n, radius = 0.1}}}
local p2 = {-math.sin(math.rad(30)), math.cos(math.rad(30))}
sum = 0
for _, j in ipairs(net2) do sum = sum + dot(j.normal, p2) end
local num, den, m = 0, 0, 2000
for i = 0, m do
  local t = -math.pi + 2 * math.pi * i / m
  local wgt = (i == 0 or i == m) and 1 or (i % 2 == 1 and 4 or 2)
  num = num + wgt * math.cos(t) * math.exp(kappa * math.cos(t))
  den = den + wgt * math.exp(kappa * math.cos(t))
end
local m2 = num / den
local sd2 = math.sqrt(0.5 + 0.5 * (function()
  local c2 = 0
  for i = 0, m do
    local t = -math.pi + 2 * math.pi * i / m
    local wgt = (i == 0 or i == m) and 1 or (i % 2 == 1 and 4 or 2)
    c2 = c2 + wgt * math.cos(2 * t) * math.exp(kappa * math.cos(t))
  end
  return c2 / den
end)() - m2 * m2)
check(math.abs(sum / n - m2) < 4 * sd2 / math.sqrt(n),
      string.format("von Mises mean cos %.5f against %.5f", sum / n, m2))

-- contact.joint with a network: a lattice cut by two disks; each contact takes the normal of
-- the first joint that parts it
model.new{dim = 3}
contact.cmat_default{model = "linear", kn = 1e6, ks = 5e5}
specimen.lattice{kind = "cubic", rad = 0.01, spacing = 0.01999, n = {6, 6, 6}}
model.clean()
local joints = {{centre = {0.05, 0.05, 0.03}, normal = {0, 0, 1}, radius = 0.02, set = 0},
                {centre = {0.05, 0.05, 0.07}, normal = {0, 0, -1}, radius = 1, set = 1}}
local count = contact.joint{joints = joints, sj_kn = 1e10, sj_ks = 5e9}
check(count == 4 + 36, "4 contacts under the small disk, 36 under the wide one (got " .. count ..
      ")")
refused(function() contact.joint{joints = joints, point = {0, 0, 0}} end, "not both",
        "a network and a joint")
refused(function() contact.joint{joints = {}} end, "the list of joints is empty", "no joints")
refused(function() contact.joint{joints = {{centre = {0, 0, 0}, normal = {0, 0, 0}, radius = 1}}}
        end, "joint 1's normal is zero", "a zero normal in a list")
print("dfn ok")
