-- expect: bond_model_without_bond.lua:7: contact.bond: model 'linear' makes no bonds (it has no *_bond property); use a bonded model such as linearcbond or linearpbond
model.new{dim = 2}
contact.cmat_default{model = "linear", kn = 1e5}
ball.create{id = 1, rad = 0.1, pos = {0, 0}}
ball.create{id = 2, rad = 0.1, pos = {0.19, 0}}
model.clean()
contact.bond{model = "linear"}
