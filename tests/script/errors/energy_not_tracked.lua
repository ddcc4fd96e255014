-- expect: energy_not_tracked.lua:3: energy.get: energy is not tracked; call energy.track(true) before the steps you want to account for
model.new{dim = 2}
print(energy.get("kinetic"))
