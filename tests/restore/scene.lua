-- Shared scene of the restore tests: 300 spheres poured into a box with a servo lid, linear
-- contacts with friction and dashpots between the balls and hertz contacts with rolling and
-- twisting resistance (the add-on's state) on the walls, so contacts open, close, slide and
-- roll; two balls carry applied loads.
function build_scene()
  model.new{dim = 3}
  model.gravity{0, 0, -9.81}
  contact.cmat_default{model = "linear", kn = 2e4, ks = 1e4, fric = 0.4, dp_nratio = 0.2,
                       dp_sratio = 0.1}
  contact.cmat_default{kind = "ball-wall", model = "hertz", hz_shear = 2e8, hz_poiss = 0.25,
                       fric = 0.4, dp_nratio = 0.2, rr_fric = 0.1, tw_fric = 0.05}
  local id, seed = 0, 12345
  local function rnd() seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 end
  for i = 0, 5 do for j = 0, 5 do for k = 0, 8 do
    id = id + 1
    ball.create{id = id, rad = 0.004 + 0.001 * rnd(), density = 2500,
                pos = {0.006 + 0.011 * i, 0.006 + 0.011 * j, 0.006 + 0.011 * k},
                vel = {0.1 * (rnd() - 0.5), 0.1 * (rnd() - 0.5), 0}}
  end end end
  wall.create{id = 1, kind = "plane", point = {0, 0, 0}, normal = {0, 0, 1}}
  wall.create{id = 2, kind = "plane", point = {0, 0, 0}, normal = {1, 0, 0}}
  wall.create{id = 3, kind = "plane", point = {0, 0, 0}, normal = {0, 1, 0}}
  wall.create{id = 4, kind = "plane", point = {0.066, 0, 0}, normal = {-1, 0, 0}}
  wall.create{id = 5, kind = "polygon", nodes = {{0.066, 0.066, 0}, {0, 0.066, 0},
                                                 {0, 0.066, 0.1}, {0.066, 0.066, 0.1}},
              spin = {0, 0.5, 0}} -- turning in its own plane: it drags the balls it touches
  wall.create{id = 6, kind = "plane", point = {0, 0, 0.1}, normal = {0, 0, -1}}
  -- a servo lid (saved since format 5): closes at vmax, then holds a stress that ramps up
  wall.servo{id = 6, stress = {time = {0, 0.05}, value = {20, 60}}, width = {2, 4},
             depth = {3, 5}, vmax = 0.05, alpha = 0.3}
  -- a cylinder around the box, closing slowly on the balls in its corners (saved since format 5)
  wall.create{id = 7, kind = "cylinder", point = {0.033, 0.033, 0}, axis = {0, 0, 1},
              radius = 0.05}
  wall.radial_vel(7, -0.01)
  model.timestep{auto = true}
  -- applied loads (saved since format 4): a push and a twist on two balls
  ball.force_app(1, {0.002, 0, 0})
  ball.moment_app(2, {0, 0, 1e-6})
end

-- Histories that see every ball and contact, so any difference in any bit shows.
function add_histories()
  history.add("sum_pos", function()
    local s = 0
    for i, id in ipairs(ball.list()) do local p = ball.pos(id); s = s + i * (p[1] + 2 * p[2] + 3 * p[3]) end
    return s
  end)
  history.add("sum_spin", function()
    local s = 0
    for i, id in ipairs(ball.list()) do local w = ball.spin(id); s = s + i * (w[1] - w[2] + w[3]) end
    return s
  end)
  history.add("contacts", function() return contact.count() end)
  history.add("sum_shear", function()
    local s = 0
    for _, cp in ipairs(contact.list()) do local f = contact.force(cp); s = s + f[2] + f[3] end
    return s
  end)
  history.add("dt", function() return model.timestep() end)
  history.add("lid", function() return wall.disp(6)[3] + wall.stress(6) end)
end
