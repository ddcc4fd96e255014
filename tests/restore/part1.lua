-- Restore test, part 1: run 2000 steps uninterrupted and export the histories, saving the model
-- after 1000 steps. Part 2 restores that save in a new process and must reproduce the same
-- histories bit for bit.
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "scene.lua")
build_scene()
add_histories()
history.interval(50)
model.cycle(1000)
model.save("restart.sav")
model.cycle(1000)
history.export("full.csv")
print(string.format("part 1: %d contacts, t = %.6f", contact.count(), model.time()))
