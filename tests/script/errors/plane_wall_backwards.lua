-- expect: plane_wall_backwards.lua:10: ball 7 (centre (0, 0, 0.09)) is behind plane wall 3, whose normal (0, 0, -1) points away from it, so the wall would shoot it away; flip the wall's normal or move the ball to the side the normal points to
-- A floor whose normal points down, away from the ball resting on it: the ball's centre is
-- behind the plane (an overlap of 0.19, more than its radius), and the contact that would push
-- it through the plane is refused when detection first finds it (it left at 2 984 m/s before,
-- without a word).
model.new{dim = 3}
contact.cmat_default{model = "linear", kn = 1e6}
wall.create{id = 3, kind = "plane", point = {0, 0, 0}, normal = {0, 0, -1}}
ball.create{id = 7, rad = 0.1, pos = {0, 0, 0.09}}
model.cycle(100)
