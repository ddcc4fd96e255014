-- expect: unknown_contact_property.lua:3: contact assignment (ball-ball): contact model 'linear' has no property 'kss'; run `cairn models linear`
model.new{dim = 2}
contact.cmat_default{model = "linear", kn = 1.0, kss = 1.0}
