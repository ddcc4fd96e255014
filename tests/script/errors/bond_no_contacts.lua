-- expect: bond_no_contacts.lua:5: contact.bond: no touching contact to bond in group loose; create the specimen and let contacts form first
model.new{dim = 2}
ball.create{id = 1, rad = 0.1, pos = {0, 0}, group = "loose"}
ball.create{id = 2, rad = 0.1, pos = {1, 0}, group = "loose"}
contact.bond{model = "linearcbond", in_group = "loose", cb_tenf = 1}
