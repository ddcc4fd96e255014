-- expect: energy_unknown_figure.lua:4: energy.get: no figure named 'potential'; the figures are kinetic, kinetic_trans, kinetic_rot, strain, dashpot, slip, damping, gravity_work, wall_work, applied_work, removed, start, balance
model.new{dim = 2}
energy.track(true)
print(energy.get("potential"))
