-- Two balls in contact under the crasher model: its force function crashes at the first step.
model.new{dim = 2}
model.load(os.getenv("CAIRN_TEST_PLUGINS") .. "/libcrasher.so")
contact.cmat_default{model = "crasher"}
ball.create{id = 1, rad = 0.01, pos = {0, 0}}
ball.create{id = 2, rad = 0.01, pos = {0.0199, 0}}
model.save("before_crash.sav")
model.timestep{fix = 1e-6}
model.cycle(1)
print("FAILED: the crasher did not crash")
