-- expect: wall_nodes_setter.lua:4: wall.nodes gives a wall's nodes and cannot set them: move a wall with wall.move(ID, D)
model.new{dim = 2}
wall.create{id = 1, nodes = {{-1, 0}, {1, 0}}}
wall.nodes(1, {{0, 0}, {1, 0}})
