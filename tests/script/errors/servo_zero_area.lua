-- expect: servo_zero_area.lua:7: the servo of wall 1: the walls given for its area are 0 apart, so the stress would divide by zero; give walls that bound the specimen
model.new{dim = 2}
wall.create{id = 1, nodes = {{0, 0}, {1, 0}}}
wall.create{id = 2, nodes = {{0, 0}, {0, 1}}}
wall.create{id = 3, nodes = {{0, 0}, {0, 1}}}
ball.create{rad = 0.1, pos = {0.5, 0.2}}
wall.servo{id = 1, stress = 100, width = {2, 3}, vmax = 1}
