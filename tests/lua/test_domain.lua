-- The model domain: with condition "destroy" a ball whose centre leaves it is deleted (with its
-- contacts) and counted; with "stop" the run stops naming the ball (tests/script/errors); no
-- domain means an unbounded model.
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
model.new{dim = 2}
model.domain{min = {-1, -1}, max = {1, 1}, condition = "destroy"}
contact.cmat_default{model = "linear", kn = 1e3}
ball.create{id = 1, rad = 0.1, pos = {0, 0}, vel = {10, 0}}   -- leaves through x = 1 after 0.1 s
ball.create{id = 2, rad = 0.1, pos = {0, 0.5}}                 -- stays
ball.create{id = 3, rad = 0.1, pos = {0.19, 0}, vel = {10, 0}} -- touches ball 1, leaves too
model.timestep{fix = 1e-3}
model.clean()
check(contact.count() == 1, "balls 1 and 3 touch")
model.cycle(200)
check(model.destroyed() == 2, "two balls destroyed, got " .. model.destroyed())
check(not ball.exists(1) and not ball.exists(3) and ball.exists(2), "balls 1 and 3 are gone")
check(contact.count() == 0, "their contact went with them")
-- Creating a ball outside the domain is refused; without a domain anything goes.
local ok, msg = pcall(function() ball.create{id = 4, rad = 0.1, pos = {2, 0}} end)
check(not ok and msg:find("lies outside the model domain", 1, true), "outside: " .. tostring(msg))
model.new{dim = 3}
ball.create{id = 1, rad = 1, pos = {1e6, -1e6, 1e6}, vel = {1e3, 0, 0}}
model.timestep{fix = 1}
model.cycle(10)
check(ball.pos(1)[1] == 1e6 + 1e4, "no domain: the ball flies on")
print("domain ok")
