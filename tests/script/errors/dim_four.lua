-- expect: dim_four.lua:2: model dimension must be 2 or 3 (got 4)
model.new{dim = 4}
