-- expect: model_new_number.lua:2: model.new: give a table, model.new{dim = 2} (disks) or model.new{dim = 3} (spheres)
model.new(2)
