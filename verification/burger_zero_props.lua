-- Burger's model: zero properties (seed 002, Table 1: every default is 0). Zeros are accepted when
-- assigned; on a contact's first update the validation hook refuses those that would divide by
-- zero in Eq. 20, and gives the others their limiting meaning:
--  * bur_knm or bur_cnm (or bur_ksm, bur_csm) = 0: refused, the message names the contact and
--    the property. Checked: the error text of model.cycle.
--  * bur_knk = bur_cnk = 0 (or bur_ksk = bur_csk = 0): refused, naming both.
--  * bur_cnk = 0 alone: the Kelvin section is its spring alone (the limit Ck -> 0 of Eqs. 11-12,
--    written with the denominator 2 Ck + Kk dt). Then the contact is a Maxwell model of stiffness
--    K = Kk Km / (Kk + Km): relaxation f(t) = u0 K e^{-K t / Cm}.
--  * bur_knk = 0 alone: the Kelvin section is its dashpot alone; two dashpots in series make one
--    of viscosity Ce = Ck Cm / (Ck + Cm): f(t) = u0 Km e^{-Km t / Ce}.
-- The two limits run the seeds' relaxation set-up (disks of radius 0.05 fixed with an overlap of
-- 0.01, dt = 2.840299219037086e-4 s, 10 s) with Kk or Ck = 2e8, Km = 1e8, Cm = 1e8.
-- Tolerances as in burger_relax_2d.lua: 1.5 |f'/f| dt / 2 against f(n dt), with |f'/f| = K/Cm
-- (0.667 /s: tolerance 1.42e-4) or Km/Ce (1.5 /s: 3.2e-4); 1e-5 against f((n - 1/2) dt).
-- Observed: Ck = 0: 9.47e-5 and 1.5e-8; Kk = 0: 2.13e-4 and 2.0e-7 (at 10 s, where f has
-- decayed by e^-15 and the trapezoidal rule's phase error has grown with t).
local rad, u0, dt, T = 0.05, 0.01, 2.840299219037086e-4, 10.0
local base = {bur_knk = 2e8, bur_cnk = 2e8, bur_knm = 1e8, bur_cnm = 1e8, bur_ksk = 1e8,
              bur_csk = 1e8, bur_ksm = 1e8, bur_csm = 1e8}

local function setup(props)
  model.new{dim = 2}
  local p = {model = "burger"}
  for k, v in pairs(base) do p[k] = v end
  for k, v in pairs(props) do p[k] = v end
  contact.cmat_default(p)
  ball.create{id = 1, rad = rad, pos = {0, 0}}
  ball.create{id = 2, rad = rad, pos = {0, 2 * rad - u0}}
  ball.attribute{density = 2600}
  ball.fix{"velocity", "spin"}
  model.timestep{fix = dt}
  model.clean()
  return contact.find("ball-ball", 1, 2)
end

local function contains(s, part) return s:find(part, 1, true) ~= nil end

-- Refusals: the message must name the contact and the property.
local refused = {
  {{bur_knm = 0}, {"bur_knm"}}, {{bur_cnm = 0}, {"bur_cnm"}},
  {{bur_ksm = 0}, {"bur_ksm"}}, {{bur_csm = 0}, {"bur_csm"}},
  {{bur_knk = 0, bur_cnk = 0}, {"bur_knk", "bur_cnk"}},
  {{bur_ksk = 0, bur_csk = 0}, {"bur_ksk", "bur_csk"}},
}
for _, case in ipairs(refused) do
  setup(case[1]) -- accepted at assignment
  local ok, err = pcall(model.cycle, 1)
  local good = not ok and contains(tostring(err), "1-2") and contains(tostring(err), "burger")
  for _, name in ipairs(case[2]) do good = good and contains(tostring(err), name) end
  if not good then io.stderr:write("unexpected: ", tostring(ok), " ", tostring(err), "\n") end
  verify.check{quantity = "refused " .. table.concat(case[2], "+") .. " = 0",
               sim = good and 1 or 0, ref = 1, tol = 0, kind = "abs"}
end
-- The default assignment (every property 0) is accepted, and refused only when cycled.
model.new{dim = 2}
verify.check{quantity = "all-zero assignment accepted",
             sim = pcall(contact.cmat_default, {model = "burger"}) and 1 or 0, ref = 1, tol = 0,
             kind = "abs"}

-- Limits: relaxation against the one-exponential closed forms.
local function relax(props, k, c, label)
  local cp = setup(props)
  local sim, ref, half = {}, {}, {}
  local f = function(t) return u0 * k * math.exp(-k * t / c) end
  callback.on("after_force", function()
    local n = model.step() + 1
    sim[n], ref[n], half[n] = contact.prop(cp, "bur_force")[1], f(n * dt), f((n - 0.5) * dt)
  end)
  model.solve{time = T}
  verify.curve{quantity = "fn(t) " .. label, sim = sim, ref = ref, tol = 1.5 * k / c * dt / 2}
  verify.curve{quantity = "fn(t-dt/2) " .. label, sim = sim, ref = half, tol = 1e-5}
end
local Kk, Km, Cm, Ck = 2e8, 1e8, 1e8, 2e8
relax({bur_cnk = 0}, Kk * Km / (Kk + Km), Cm, "Ck=0")
relax({bur_knk = 0}, Km, Ck * Cm / (Ck + Cm), "Kk=0")
