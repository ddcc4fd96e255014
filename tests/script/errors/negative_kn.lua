-- expect: negative_kn.lua:3: contact assignment (ball-ball): property 'kn' = -1 is out of range
model.new{dim = 2}
contact.cmat_default{model = "linear", kn = -1.0}
