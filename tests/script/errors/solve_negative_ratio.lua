-- expect: solve_negative_ratio.lua:3: model.solve: ratio must be a positive number (got -1)
model.new{dim = 2}
model.solve{ratio = -1}
