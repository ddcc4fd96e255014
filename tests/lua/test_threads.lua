-- Runs are bitwise the same for any thread count: each contact is updated on its own and each
-- ball sums its contacts in a fixed order (design.md, Scale). A packing large enough for the
-- parallel loops (over 2048 balls and contacts) runs 300 steps on 1 and on 2 threads, and every
-- coordinate, velocity and spin must agree to the last bit; with linear contacts, and again with
-- hertz contacts with rolling and twisting resistance (the add-on's moments).
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
local linear = {model = "linear", kn = 1e4, ks = 5e3, fric = 0.4, dp_nratio = 0.2, dp_sratio = 0.1}
local hertz = {model = "hertz", hz_shear = 2e7, hz_poiss = 0.25, fric = 0.4, dp_nratio = 0.2,
               dp_sratio = 0.1, rr_fric = 0.1, tw_fric = 0.05}
local function run(threads, props)
  model.threads(threads)
  model.new{dim = 3}
  model.gravity{0, 0, -9.81}
  contact.cmat_default(props)
  local id, seed = 0, 7
  local function rnd() seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 end
  for i = 0, 15 do for j = 0, 15 do for k = 0, 11 do
    id = id + 1
    ball.create{id = id, rad = 0.001 * (1 + 0.05 * rnd()), density = 2500,
                pos = {0.002 * i, 0.002 * j, 0.002 * k}, -- touching neighbours: contacts at once
                vel = {0.05 * (rnd() - 0.5), 0.05 * (rnd() - 0.5), 0.05 * (rnd() - 0.5)}}
  end end end
  wall.create{id = 1, kind = "plane", point = {0, 0, -0.001}, normal = {0, 0, 1}}
  model.timestep{fix = 2e-5}
  local most = 0
  callback.on("after_force", function() most = math.max(most, contact.count()) end)
  model.cycle(300)
  local out = {}
  for _, b in ipairs(ball.list()) do
    local p, v, w = ball.pos(b), ball.vel(b), ball.spin(b)
    out[#out + 1] = string.format("%a %a %a %a %a %a %a %a %a", p[1], p[2], p[3], v[1], v[2],
                                  v[3], w[1], w[2], w[3])
  end
  return table.concat(out, "\n"), most
end
for _, props in ipairs{linear, hertz} do
  local one, n1 = run(1, props)
  local two, n2 = run(2, props)
  check(n1 > 2048, "enough contacts for the parallel loops (most at once): " .. n1)
  check(n1 == n2, "same largest contact count")
  check(one == two, "1 and 2 threads differ (" .. props.model .. ")")
  print(string.format("threads ok (%s): %d balls, up to %d contacts, bitwise equal on 1 and %d " ..
                      "threads", props.model, ball.count(), n1, model.threads()))
end
