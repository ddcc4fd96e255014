-- expect: solve_no_criterion.lua:3: model.solve: give a criterion: time = T
model.new{dim = 2}
model.solve{history_interval = 10}
