-- expect: cbond_negative_strength.lua:3: contact assignment (ball-ball): property 'cb_tenf' = -1 is out of range [0, +inf)
model.new{dim = 2}
contact.cmat_default{model = "linearcbond", kn = 1e6, cb_tenf = -1}
