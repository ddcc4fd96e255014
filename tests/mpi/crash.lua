-- MPI test (tests/mpi/run.sh crash): a plugin that crashes on one rank alone. Forty balls in a
-- row along x, decomposed into two bricks; the one contact, between balls 40 and 41 at the +x
-- end (rank 1's brick), is the crasher plugin's (tests/plugins/crasher.c), whose force function
-- writes through a null pointer; rank 0 has no contact and waits for rank 1 in the step's
-- exchanges. The crash must be reported once, with exit status 3, and end every rank.
model.new{dim = 3}
model.load(os.getenv("CAIRN_TEST_PLUGINS") .. "/libcrasher.so")
contact.cmat_default{model = "linear", kn = 1e4, ks = 1e4}
contact.cmat_add{group = "bad", kind = "ball-ball", model = "crasher"}
for i = 1, 40 do
  ball.create{id = i, rad = 0.01, pos = {-0.9 + 0.045 * i, 0, 0}, group = i == 40 and "bad" or nil}
end
ball.create{id = 41, rad = 0.01, pos = {0.919, 0, 0}, group = "bad"}
model.timestep{fix = 1e-4}
model.cycle(10)
print("FAILED: the crasher did not end the run")
