-- expect: call_nil.lua:4: attempt to call a nil value (local 'f')
model.new{dim = 2}
local f = nil
f()
