-- expect: contact_gone.lua:9: ball-ball contact 1-2 no longer exists (its gap opened and it was deleted)
model.new{dim = 2}
contact.cmat_default{model = "linear", kn = 1e3}
ball.create{id = 1, rad = 0.5, pos = {0, 0}}
ball.create{id = 2, rad = 0.5, pos = {0.99, 0}}
local cp = contact.find("ball-ball", 1, 2)
ball.pos(2, {3, 0})
model.clean()
print(contact.force(cp))
