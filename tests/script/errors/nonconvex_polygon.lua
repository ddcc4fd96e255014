-- expect: nonconvex_polygon.lua:4: wall 1: polygon is not convex
model.new{dim = 3}
-- a 'house' with its roof pushed in: node 3 is a re-entrant corner
wall.create{id = 1, nodes = {{0, 0, 0}, {2, 0, 0}, {1, 0.5, 0}, {2, 2, 0}, {0, 2, 0}}}
