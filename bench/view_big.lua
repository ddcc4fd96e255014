-- About 100 000 spheres (a cubic lattice) cycled for VIEW_SECONDS (default 40) of wall time, for the
-- live view's frame rate (docs/viewing.md): run it with `cairn run --view bench/view_big.lua`,
-- open the address, and read the fps in the page's progress line (or, headless:
-- chromium --headless=new --virtual-time-budget=20000 --dump-dom ADDRESS, the status element).
model.new{dim = 3}
contact.cmat_default{model = "linear", kn = 1e5}
specimen.lattice{kind = "cubic", rad = 0.005, n = {47, 47, 46}, origin = {0, 0, 0}}
model.timestep{fix = 1e-6}
print(ball.count())
local t0 = model.wallclock()
repeat model.cycle(1) until model.wallclock() - t0 > tonumber(os.getenv("VIEW_SECONDS") or "40")
