-- expect: ball_outside_cylinder_auto.lua:8: ball 1 (centre (1.5, 0, 0)) is outside cylinder wall 1, whose balls are inside, so the wall would shoot it away; move the ball inside the cylinder or enlarge its radius
-- A ball placed outside a cylinder (whose balls are inside), under the automatic timestep: the
-- contact that would shoot it away is refused when detection first finds it, naming both.
model.new{dim = 3}
contact.cmat_default{model = "linear", kn = 1e6}
wall.create{id = 1, kind = "cylinder", point = {0, 0, 0}, axis = {0, 0, 1}, radius = 1}
ball.create{id = 1, rad = 0.1, pos = {1.5, 0, 0}}
model.cycle(100)
