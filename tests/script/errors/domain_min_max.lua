-- expect: domain_min_max.lua:3: model.domain: min must be below max in every coordinate (coordinate 1: 0 >= 0)
model.new{dim = 2}
model.domain{min = {0, 0}, max = {0, 1}}
