-- written by cairn a116772 (save format 2): three spheres pressed and sheared, then saved
model.new{dim = 3}
contact.cmat_default{model = "linear", kn = 1e5, ks = 5e4, fric = 0.4, dp_nratio = 0.1}
ball.create{id = 1, rad = 0.1, pos = {0, 0, 0}}
ball.create{id = 2, rad = 0.1, pos = {0.05, 0.02, 0.19}}
ball.create{id = 3, rad = 0.1, pos = {0.19, -0.03, 0.01}}
ball.attribute{density = 2000}
ball.fix{"velocity", "spin", id = 1}
ball.vel(2, {0.3, -0.2, 0.0}); ball.spin(2, {1, 2, -3})
ball.vel(3, {-0.1, 0.25, 0.05})
model.timestep{fix = 1e-5}
model.cycle(300)
for _, pair in ipairs{{1, 2}, {1, 3}} do
  local cp = contact.find("ball-ball", pair[1], pair[2])
  local f, fg, lf = contact.force(cp), contact.force_global(cp), contact.prop(cp, "lin_force")
  print(string.format("%d %d %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g", pair[1], pair[2],
        f[1], fg[1], fg[2], fg[3], lf[1], lf[2], lf[3], contact.prop(cp, "dp_xi"), contact.prop(cp, "lin_slip")))
end
model.save("format2.sav")
