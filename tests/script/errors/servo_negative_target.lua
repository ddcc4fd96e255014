-- expect: servo_negative_target.lua:5: the servo of wall 1: target -100 is not a finite number >= 0 (a servo holds a compressive stress or force on its wall)
model.new{dim = 2}
wall.create{id = 1, nodes = {{0, 0}, {1, 0}}}
ball.create{rad = 0.1, pos = {0.5, 0.2}}
wall.servo{id = 1, stress = -100, area = 1, vmax = 1}
