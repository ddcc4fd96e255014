-- Property blocks are shared by the contacts that got them from one assignment and copied on
-- write (contact_model.h): a write to one contact never reaches another, and a change of the
-- assignment table reaches only contacts made after it. The shared blocks also survive a save
-- and restore with each contact's values.
local function check(cond, what) if not cond then error("FAILED: " .. what, 2) end end
model.new{dim = 3}
contact.cmat_default{model = "linear", kn = 1e5, ks = 2e4, fric = 0.3}
ball.create{id = 1, rad = 0.1, pos = {0, 0, 0}}
ball.create{id = 2, rad = 0.1, pos = {0, 0, 0.199}}
ball.create{id = 3, rad = 0.1, pos = {0, 0, -0.199}}
model.clean()
local c12, c13 = contact.find("ball-ball", 1, 2), contact.find("ball-ball", 1, 3)
check(c12 and c13, "two contacts from the default assignment")
contact.prop(c12, "fric", 0.6)
check(contact.prop(c12, "fric") == 0.6, "the written contact has its own value")
check(contact.prop(c13, "fric") == 0.3, "the other contact of the assignment keeps 0.3")
contact.prop(c13, "kn", 3e5)
check(contact.prop(c12, "kn") == 1e5 and contact.prop(c13, "kn") == 3e5, "kn per contact")
-- The assignment changes after the contacts exist: they keep their values; a new contact
-- gets the new ones.
contact.cmat_default{model = "linear", kn = 7e5, ks = 2e4, fric = 0.1}
check(contact.prop(c12, "kn") == 1e5 and contact.prop(c13, "fric") == 0.3,
      "existing contacts keep the values they were made with")
ball.create{id = 4, rad = 0.1, pos = {0.199, 0, 0}}
model.clean()
local c14 = contact.find("ball-ball", 1, 4)
check(c14 and contact.prop(c14, "kn") == 7e5 and contact.prop(c14, "fric") == 0.1,
      "a contact made after the change gets the new assignment")
-- Save and restore: every contact's values come back.
model.save("shared_props.sav")
model.restore("shared_props.sav")
c12, c13, c14 = contact.find("ball-ball", 1, 2), contact.find("ball-ball", 1, 3),
                contact.find("ball-ball", 1, 4)
check(contact.prop(c12, "fric") == 0.6 and contact.prop(c12, "kn") == 1e5, "1-2 restored")
check(contact.prop(c13, "fric") == 0.3 and contact.prop(c13, "kn") == 3e5, "1-3 restored")
check(contact.prop(c14, "fric") == 0.1 and contact.prop(c14, "kn") == 7e5, "1-4 restored")
-- A write after the restore still reaches only its contact.
contact.prop(c14, "ks", 1e3)
check(contact.prop(c12, "ks") == 2e4 and contact.prop(c13, "ks") == 2e4, "ks per contact")
os.remove("shared_props.sav")
print("shared props ok")
