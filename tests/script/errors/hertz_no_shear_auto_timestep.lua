-- expect: hertz_no_shear_auto_timestep.lua:7: the automatic timestep has no stiffness to work from: contact model 'hertz', assigned to ball-ball contacts, refuses its properties: hz_shear must be > 0 (got 0)
-- Two hertz balls apart, under the automatic timestep, with no shear modulus: the cause is named.
model.new{dim = 3}
contact.cmat_default{model = "hertz", hz_poiss = 0.3}
ball.create{id = 1, rad = 0.1, pos = {0, 0, 0}, vel = {1, 0, 0}}
ball.create{id = 2, rad = 0.1, pos = {0.25, 0, 0}}
model.cycle(100)
