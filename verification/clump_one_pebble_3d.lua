-- A clump of one pebble is a ball: the same mass and moment of inertia (a one-pebble template
-- takes the ball's own), the same force sums and the same scheme (its principal moments are
-- equal, so it turns as a ball does). Two runs of the same model, one with a ball and one with a
-- one-pebble clump in its place: the body is thrown with spin onto a frictional, damped plane
-- under gravity with local damping and knocks into a second, free ball. After 30 000 steps every
-- position, velocity and spin must be the same to the last bit (tolerance 0).
local dim = CLUMP_DIM or 3
local function run(as_clump)
  model.new{dim = dim}
  model.gravity(dim == 3 and {0, 0, -9.81} or {0, -9.81})
  contact.cmat_default{model = "linear", kn = 1e6, ks = 5e5, fric = 0.4, dp_nratio = 0.2,
                       dp_sratio = 0.1}
  local up = dim == 3 and 3 or 2
  if dim == 3 then
    wall.create{kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}
  else
    wall.create{kind = "segment", nodes = {{-5, 0}, {5, 0}}}
  end
  local function at(x, h) return dim == 3 and {x, 0.01, h} or {x, h} end
  local spin = dim == 3 and {3, 20, 5} or -20
  local id
  if as_clump then
    clump.template{name = "one", pebbles = {dim == 3 and {0, 0, 0, 0.1} or {0, 0, 0.1}}}
    id = clump.create{template = "one", pos = at(0, 0.25), density = 2500, damp = 0.05,
                      vel = dim == 3 and {1.5, 0, -0.5} or {1.5, -0.5}, spin = spin}
  else
    id = ball.create{rad = 0.1, pos = at(0, 0.25), density = 2500, damp = 0.05,
                     vel = dim == 3 and {1.5, 0, -0.5} or {1.5, -0.5}, spin = spin}
  end
  local other = ball.create{rad = 0.08, pos = at(0.6, 0.08), density = 2500}
  model.timestep{fix = 2e-5}
  model.cycle(30000)
  local get = as_clump and clump or ball
  local s = get.spin(id)
  return {get.pos(id), get.vel(id), type(s) == "table" and s or {s}, ball.pos(other),
          ball.vel(other)}
end
local b, c = run(false), run(true)
local names = {"position", "velocity", "spin", "other_position", "other_velocity"}
for i, name in ipairs(names) do
  local worst = 0
  for k = 1, #b[i] do worst = math.max(worst, math.abs(b[i][k] - c[i][k])) end
  verify.check{quantity = name .. "_difference", sim = worst, ref = 0, tol = 0, kind = "abs"}
end
-- (the body did roll along the plane and knock the other ball on)
verify.check{quantity = "moved_along", sim = math.min(c[1][1], 0.3), ref = 0.3, tol = 0,
             kind = "abs"}
verify.check{quantity = "other_knocked", sim = math.min(c[4][1] - 0.6, 0.01), ref = 0.01, tol = 0,
             kind = "abs"}
