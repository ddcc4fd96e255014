-- A contact model that returns a non-finite force or moment stops the run in that very step (the
-- motion's runaway test fires, then the contact is found), and a non-finite state at the next
-- check of the states (every 16 steps), with one sentence naming the contact, the model (and its
-- library), what was not finite and the step. The balls' velocities are fixed, so a ball's
-- velocity never turns NaN: the motion checks fixed balls' forces and moments too.
local dir = assert(os.getenv("CAIRN_TEST_PLUGINS"), "set CAIRN_TEST_PLUGINS")
model.load(dir .. "/libnonfinite.so")
for what, text in pairs{[0] = "a non-finite force (", [1] = "a non-finite moment (",
                        [2] = "a non-finite value in its state field 'nf_val'",
                        [3] = "a non-finite value in its state field 'nf_pv'"} do
  for _, dim in ipairs{2, 3} do
    model.new{dim = dim}
    contact.cmat_default{model = "nonfinite", nf_what = what, nf_after = 7}
    ball.create{id = 1, rad = 0.1, pos = dim == 3 and {0, 0, 0} or {0, 0}}
    ball.create{id = 2, rad = 0.1, pos = dim == 3 and {0, 0, 0.19} or {0, 0.19}}
    ball.fix{"velocity", "spin"}
    model.timestep{fix = 1e-5}
    local ok, msg = pcall(model.cycle, 40)
    if ok then error(string.format("FAILED: what = %d, %dD: the run went on", what, dim)) end
    -- a force or moment in the step it goes bad (step 7); a state at the next check of the
    -- states, which come round every 16 steps (step 16)
    local step = what >= 2 and 16 or 7
    local at = what >= 2 and "found at step 16 (the states are checked every 16 steps)"
               or "at step 7;"
    for _, want in ipairs{"ball-ball contact 1-2", "contact model 'nonfinite' (", text, at,
                          "check its properties"} do
      if not msg:find(want, 1, true) then
        error(string.format("FAILED: what = %d, %dD: the message lacks '%s': %s", what, dim,
                            want, msg))
      end
    end
    -- the run stopped in the step of the finding, which is not counted
    if model.step() ~= step then error("FAILED: stopped after step " .. model.step()) end
    print("stopped as expected: " .. msg)
  end
end
