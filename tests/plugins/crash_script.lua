-- Two balls in contact under one of the crasher plugin's models (CAIRN_CRASH_MODEL, 'crasher'
-- without it): its force function ends the run at the first step.
local name = os.getenv("CAIRN_CRASH_MODEL") or "crasher"
model.new{dim = 2}
model.load(os.getenv("CAIRN_TEST_PLUGINS") .. "/libcrasher.so")
contact.cmat_default{model = name}
ball.create{id = 1, rad = 0.01, pos = {0, 0}}
ball.create{id = 2, rad = 0.01, pos = {0.0199, 0}}
model.save("before_" .. name .. ".sav")
print("saved before the " .. name .. " runs") -- must reach stdout before the end
model.timestep{fix = 1e-6}
model.cycle(1)
print("FAILED: the " .. name .. " did not end the run")
