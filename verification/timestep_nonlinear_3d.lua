-- The automatic timestep with a nonlinear contact law (3D; timestep_nonlinear_2d.lua runs the
-- same in 2D). The test plugin hertzlike (verification/plugins/hertzlike.c) gives
-- F = k overlap^1.5 and, with hl_naive = 1, reports the stiffness a first attempt at a plugin
-- would: the tangent stiffness at the current overlap, near zero at first touch. Two equal balls
-- (radius 0.01 m, 2500 kg/m3, k from E* = 1e9 Pa) meet head-on at 0.1, 1 and 10 m/s, with the
-- property-only estimate taken at hl_dref = 1e-2 r, automatic timestep with the default safety.
-- Before the bound, the timestep jumped up on the near-zero estimate at first touch (3x here in
-- one step; 26x in the plugin that found it). The automatic timestep now grows by at most 10 %
-- a step and may fall at once. Check: the largest growth from one step to the next over the
-- impacts is 1.1 (exact up to rounding, 1e-12); without the bound it is 3.0.
-- Not checked, and left open: the restitution of such an impact under the automatic timestep.
-- The estimate sqrt(m / k) with safety 0.8 resolves a Hertz impact in only 3 to 11 steps
-- (omega dt near 1.1 at the peak), and a timestep chosen before first touch from a property-only
-- estimate can let the balls overlap beyond the impact's peak in one step; the rows printed below
-- (restitution, steps in contact) show where that stands: 0.96 to 1.01 in 3D and 0.90 to 1.03
-- in 2D, with either estimate. Bounding it needs a look-ahead to first touch and a timestep
-- criterion for impacts, which are not built yet.
local dim = TS_DIM or 3
model.new{dim = dim}
model.load("hertzlike")
local r, rho = 0.01, 2500
local K = 4 / 3 * 1e9 * math.sqrt(r / 2)
local function vec(x) return dim == 3 and {x, 0, 0} or {x, 0} end
local worst_growth = 0
for _, naive in ipairs{1, 0} do
  for _, v in ipairs{0.1, 1, 10} do
    model.new{dim = dim}
    contact.cmat_default{model = "hertzlike", hl_k = K, hl_dref = 1e-2 * r, hl_naive = naive}
    ball.create{id = 1, rad = r, density = rho, pos = vec(0), vel = vec(v / 2)}
    ball.create{id = 2, rad = r, density = rho, pos = vec(2 * r + 1e-4), vel = vec(-v / 2)}
    model.timestep{auto = true}
    local prev, touched, steps = nil, false, 0
    for _ = 1, 100000 do
      model.cycle(1)
      local dt = model.timestep()
      if prev then worst_growth = math.max(worst_growth, dt / prev) end
      prev = dt
      local gap = ball.pos(2)[1] - ball.pos(1)[1] - 2 * r
      if gap < 0 then touched, steps = true, steps + 1 end
      if touched and gap > 0 then break end
    end
    print(string.format("timestep_nonlinear_%dd: hl_naive %d, %g m/s: restitution %.4f, %d steps "
                        .. "in contact", dim, naive, v, (ball.vel(2)[1] - ball.vel(1)[1]) / v,
                        steps))
  end
end
verify.check{quantity = "largest_timestep_growth_per_step", sim = worst_growth, ref = 1.1,
             tol = 1e-12}
