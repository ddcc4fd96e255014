-- Energy balance of a damped pour with the hertz model (2D; the 3D twin is
-- energy_hertz_pour_3d.lua): the case, checks and tolerances of energy_pour_2d.lua with hertz
-- contacts (G 200 MPa, nu 0.3, friction 0.4, dp_nratio 0.2, dp_sratio 0.1). The hertz model
-- books its stored energy as the normal spring's F overlap / (alpha + 1) (2/5 F overlap) and the
-- shear spring's F_s^2 / (2 k_t), and its losses as the dashpots' work and the shear spring's
-- work less the change of its stored energy (slip, which includes what the changing stiffness
-- k_t does not store). The residual is the trapezoidal rule's error on the springs' work over
-- each step, second order in dt as for the linear model.
-- Observed: |balance| / W_g 6.5e-3 and 1.7e-3 at dt/2 (ratio 3.85) in 2D, 6.5e-3 and 1.6e-3
-- (ratio 4.11) in 3D, about twice the linear model's at the same timestep.
ENERGY_CMAT = {model = "hertz", hz_shear = 2e8, hz_poiss = 0.3, fric = 0.4, dp_nratio = 0.2,
               dp_sratio = 0.1}
ENERGY_NAME = "energy_hertz_pour"
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "energy_pour_2d.lua")
