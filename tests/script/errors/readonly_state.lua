-- expect: readonly_state.lua:7: ball-ball contact 1-2: property 'lin_slip' of contact model 'linear' is read-only
model.new{dim = 2}
contact.cmat_default{model = "linear", kn = 1.0, ks = 1.0}
ball.create{id = 1, rad = 0.5, pos = {0, 0}}
ball.create{id = 2, rad = 0.5, pos = {0.9, 0}}
local cp = contact.find("ball-ball", 1, 2)
contact.prop(cp, "lin_slip", true)
