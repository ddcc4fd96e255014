-- Two balls in contact under one of the undeclared plugin's models (CAIRN_UNDECLARED_MODEL),
-- which reads an input it does not declare: the run must stop in the first step that computes
-- the contact's force (tests/plugins/undeclared.cmake checks the message and the exit status).
local name = assert(os.getenv("CAIRN_UNDECLARED_MODEL"), "set CAIRN_UNDECLARED_MODEL")
model.new{dim = 3}
model.load(os.getenv("CAIRN_TEST_PLUGINS") .. "/libundeclared.so")
contact.cmat_default{model = name}
ball.create{id = 1, rad = 0.1, pos = {0, 0, 0}}
ball.create{id = 2, rad = 0.1, pos = {0, 0, 0.19}}
model.timestep{fix = 1e-5}
model.cycle(10)
print("FAILED: the " .. name .. " model read an undeclared input and the run went on")
