-- The cost of flat joints against parallel bonds (docs/contact-models.md#flatjoint): one 3D
-- specimen of the rock examples' genesis (the lab module's lab.rock; about 5 000 balls at the
-- default scale), its ball-ball contacts bonded once with linearpbond and once with flatjoint
-- (N_r x N_a elements), loaded between platens as in a UCS test. Prints the steps per second of
-- each and their ratio (flatjoint's time per step over linearpbond's).
--   CAIRN_BENCH_SCALE (0.78: about 5 000 balls), CAIRN_BENCH_NR (2), CAIRN_BENCH_NA (4),
--   CAIRN_BENCH_WARM (100), CAIRN_BENCH_TIMED (1000), CAIRN_BENCH_SPECIMEN and
--   CAIRN_BENCH_ONLY (below)
-- Run from the repository root: cairn run bench/flatjoint_cost.lua
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local rock = lab.rock
local scale = tonumber(os.getenv("CAIRN_BENCH_SCALE") or "0.78")
local nr = math.tointeger(tonumber(os.getenv("CAIRN_BENCH_NR") or "2"))
local na = math.tointeger(tonumber(os.getenv("CAIRN_BENCH_NA") or "4"))
local warm = math.tointeger(tonumber(os.getenv("CAIRN_BENCH_WARM") or "100"))
local timed = math.tointeger(tonumber(os.getenv("CAIRN_BENCH_TIMED") or "1000"))
local sz = rock.sizes(3, "full", scale)
local mi = rock.micro(3, 0.5 * (sz.rmin + sz.rmax))
-- CAIRN_BENCH_SPECIMEN=FILE keeps the specimen (its genesis takes minutes) in FILE and its walls'
-- ids in FILE.walls, and takes them from there when they exist
local keep = os.getenv("CAIRN_BENCH_SPECIMEN")
local path, sp = keep or os.tmpname(), nil
local f = keep and io.open(keep .. ".walls")
if f then
  sp = {walls = load("return " .. f:read("a"))()}
  f:close()
else
  sp = rock.specimen{dim = 3, W = sz.W, H = sz.H, D = sz.D, rmin = sz.rmin, rmax = sz.rmax,
                     seed = 1, micro = mi}
  model.save(path)
  if keep then
    f = assert(io.open(keep .. ".walls", "w"))
    f:write(string.format("{top = %d, bottom = %d, lateral = {%s}}", sp.walls.top,
                          sp.walls.bottom, table.concat(sp.walls.lateral, ", ")))
    f:close()
  end
end

local function run(kind)
  model.restore(path)
  if kind == "linearpbond" then
    rock.bond(mi, 1)
  else -- the same stiffnesses and strengths per area, on the same interface radius
    contact.bond{model = "flatjoint", kind = "ball-ball", fj_kn = mi.pb_kn, fj_ks = mi.pb_ks,
                 fj_rmul = mi.pb_rmul, fj_nr = nr, fj_na = na, fj_ten = mi.pb_ten,
                 fj_coh = mi.pb_coh, fj_fa = mi.pb_fa, fj_fric = mi.fric}
  end
  for _, id in ipairs(sp.walls.lateral) do wall.delete(id) end
  local h0 = rock.wall_level(3, sp.walls.top) - rock.wall_level(3, sp.walls.bottom)
  wall.vel(sp.walls.top, {0, 0, -0.5 * 0.05 * h0})
  wall.vel(sp.walls.bottom, {0, 0, 0.5 * 0.05 * h0})
  model.cycle(warm)
  local t0 = model.wallclock()
  model.cycle(timed)
  local sec = model.wallclock() - t0
  print(string.format("%-11s balls %d contacts %d threads %d steps %d wall %.2f s steps/s %.1f",
                      kind, ball.count(), contact.count(), model.threads(), timed, sec,
                      timed / sec))
  return sec
end
-- CAIRN_BENCH_ONLY=linearpbond or flatjoint runs one of them (for callgrind's counts)
local only = os.getenv("CAIRN_BENCH_ONLY")
local tp = (not only or only == "linearpbond") and run("linearpbond")
local tf = (not only or only == "flatjoint") and run("flatjoint")
if not keep then os.remove(path) end
if tp and tf then
  print(string.format("flatjoint (%d x %d = %d elements) over linearpbond, time per step: %.2f",
                      nr, na, nr * na, tf / tp))
end
