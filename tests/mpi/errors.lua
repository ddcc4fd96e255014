-- MPI test (tests/mpi/run.sh errors): failures stop every rank with the message printed once and
-- a non-zero exit, and no rank waits forever. CASE=rank1: the script fails on rank 1 only, while
-- rank 0 goes on (to a cycle of a decomposed model). CASE=domain: during a decomposed cycle a
-- ball leaves the model domain in one rank's brick ("stop" condition), which every rank must
-- learn at once. CASE=grid: CAIRN_MPI_GRID asks for a grid that cannot divide the model over the
-- ranks (run.sh sets it), which the first cycle refuses on every rank.
local case = os.getenv("CASE") or "rank1"
model.new{dim = 3}
contact.cmat_default{model = "linear", kn = 1e4, ks = 1e4}
model.domain{min = {-1, -1, -1}, max = {1, 1, 1}}
for i = 1, 40 do
  ball.create{id = i, rad = 0.01, pos = {-0.9 + 0.045 * i, 0, 0}}
end
model.timestep{fix = 1e-3}
if case == "rank1" and model.ranks().rank == 1 then
  error("this failure happens on rank 1 alone")
end
if case == "domain" then
  ball.vel(40, {5, 0, 0}) -- ball 40 sits at x = 0.9 (the last brick) and leaves past x = 1
end
model.cycle(200)
