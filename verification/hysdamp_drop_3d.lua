-- The seeds' drop test for the hysdamp model in 3D (seed 003, Example 4.10 and Figure 4.4, done
-- there in 2D): a sphere of radius 0.04 and density 2600, centre 1.0 above the floor, falls under
-- gravity 9.8 onto it; contact hys_knm = hys_ks = 5e5 (the seed's ball and wall stiffnesses 1e6
-- in series), hys_fric 0, hys_notension 1, no local damping; hys_dampn = d from 1 to 0.05.
-- Timestep 2.5e-5, not the seed's 1e-4: the sphere (0.70 kg) is 19 times lighter than the 2D
-- case's unit-thickness disk (13.1 kg), so at 1e-4 a loading at d = 1 takes only ~18 steps
-- (omega dt = 0.085, omega = sqrt(kl / m)) and the discretisation error, which scales as
-- (omega dt)^2, reaches 0.34 % (observed at 1e-4: worst 3.4e-3, v1/v0 at d = 0.4; 5e-5: 1.4e-3;
-- 1e-5: 4.3e-5, second order as expected). At 2.5e-5, omega dt = 0.021 matches the 2D case's
-- 0.020 at 1e-4, so the same tolerance holds for the same reason.
--
-- Closed forms (loading stiffness kl = 2 d k / (1 + d), unloading ku = 2 k / (1 + d), Eqs.
-- 4.13-4.14; h = 0.96 the drop height, m the sphere's mass):
--  * peak overlap: kl dmax^2 / 2 = m g (h + dmax), so
--    dmax = (m g + sqrt((m g)^2 + 2 kl m g h)) / kl;
--  * speed where the normal force returns to zero over the impact speed: sqrt(d) exactly (the
--    unloading line gives back d times the energy stored, and gravity's work scales the same way:
--    (1/2) m v1^2 = d (kl dmax^2 / 2 - m g dmax) = d (1/2) m v0^2);
--  * rebound height H (highest gap after leaving) over h: e^2 = d - (1 - d) dmax / h.
-- Measurement: the impact and release instants are interpolated linearly between steps (the gap
-- crossing 0, the overlap crossing (1 - d) dmax with dmax the model's recorded peak), and the
-- speed there between the half-step velocities on either side.
-- Tolerance 0.2 % (relative) on sqrt(d), e^2 and dmax: the centred differences at dt = 2.5e-5
-- (about 75 steps per loading at d = 1) reproduce them within about 0.03 % (see above).
-- Observed worst errors: sqrt(d) 2.6e-4 (d = 0.3), e^2 1.7e-4 (d = 0.3), dmax 3.9e-5.
--
-- 3D geometry: the floor is an infinite plane (one-sided), and the sphere is light enough that
-- dmax < r and e^2 > 0 over the whole sweep (e^2 = 0.033 at d = 0.05), so every case rebounds
-- and all three quantities are checked for each d.
local g, r, rho, k, dt, y0 = 9.8, 0.04, 2600, 5e5, 2.5e-5, 1.0
local h = y0 - r
local sweep = {1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.15, 0.1, 0.05}

local function drop(d)
  model.new{dim = 3}
  model.gravity{0, 0, -g}
  contact.cmat_default{model = "hysdamp", hys_knm = k, hys_ks = k, hys_fric = 0, hys_dampn = d,
                       hys_notension = true}
  ball.create{id = 1, rad = r, pos = {0, 0, y0}, density = rho}
  wall.create{id = 1, kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}
  model.timestep{fix = dt}
  local m = ball.mass(1)
  local res = {m = m}
  local prev -- {gap, vel} of the previous step
  local phase = "fall"
  local dmax = 0
  callback.on("after_force", function()
    local gap = ball.pos(1)[3] - r
    local v = ball.vel(1)[3]       -- half-step velocity that brought the sphere here
    if phase == "fall" and gap < 0 then
      local s = prev.gap / (prev.gap - gap)
      res.v_impact = -(prev.v + (v - prev.v) * (s + 0.5))
      phase = "contact"
    elseif phase == "contact" then
      -- The peak overlap as the model records it; at d = 1 the contact is gone (gap >= 0) in
      -- the step that releases the disk, so the value of the step before is kept.
      local cp = contact.list()[1]
      if cp then dmax = contact.prop(cp, "hys_dmax") end
      local d0 = (1 - d) * dmax
      if v > 0 and -gap <= d0 then -- the overlap passed the unloading line's zero in this step
        local s = (-prev.gap - d0) / (gap - prev.gap)
        res.v_release = prev.v + (v - prev.v) * (s + 0.5)
        res.dmax = dmax
        res.gap_max = gap
        phase = "rise"
      end
    elseif phase == "rise" then
      if gap > res.gap_max then res.gap_max = gap end
      if v < 0 then phase = "done" end
    end
    prev = {gap = gap, v = v}
  end)
  while phase ~= "done" and model.step() < 80000 do model.cycle(800) end
  if phase ~= "done" then error("drop d = " .. d .. ": no rebound apex within 80000 steps") end
  return res
end

local rows = {}
for _, d in ipairs(sweep) do
  local res = drop(d)
  local m = res.m
  local kl = 2 * d * k / (1 + d)
  local dmax = (m * g + math.sqrt((m * g) ^ 2 + 2 * kl * m * g * h)) / kl
  local e2 = d - (1 - d) * dmax / h
  local tag = string.format("(d=%.2f)", d)
  verify.check{quantity = "dmax" .. tag, sim = res.dmax, ref = dmax, tol = 2e-3}
  verify.check{quantity = "v1/v0" .. tag, sim = res.v_release / res.v_impact, ref = math.sqrt(d),
               tol = 2e-3}
  local e_reb = "nan"
  if e2 > 0 then
    e_reb = string.format("%.17g", math.sqrt(res.gap_max / h))
    verify.check{quantity = "e^2=H/h" .. tag, sim = res.gap_max / h, ref = e2, tol = 2e-3}
  else -- no rebound: the disk stays inside its dent (gap < 0) at the top of its rise
    verify.check{quantity = "no_rebound:gap<0" .. tag, sim = res.gap_max < 0 and 1 or 0, ref = 1,
                 tol = 0, kind = "abs"}
  end
  rows[#rows + 1] = string.format("%d,0,%.17g,%.17g,%.17g,%s,%s", #rows, d,
                                  res.v_release / res.v_impact, math.sqrt(d), e_reb,
                                  e2 > 0 and string.format("%.17g", math.sqrt(e2)) or "nan")
end

-- Restitution against hys_dampn, as the seed's Figure 4.4.
local csv = verify.path("hysdamp_drop_3d.csv")
local f = assert(io.open(csv, "w"))
f:write("step,time,hys_dampn,e_velocity,e_velocity_exact,e_rebound,e_rebound_exact\n")
f:write(table.concat(rows, "\n"), "\n")
f:close()
plot.history{csv = csv, out = verify.path("hysdamp_drop_3d.png"), x = "hys_dampn",
             y = {"e_velocity", "e_velocity_exact", "e_rebound", "e_rebound_exact"},
             title = "hysdamp drop test, 3D: restitution", xlabel = "hys_dampn [-]",
             ylabel = "restitution coefficient [-]"}
