-- expect: unknown_contact_model.lua:3: contact model 'linaer' is not known; run `cairn models`
model.new{dim = 2}
contact.cmat_default{model = "linaer", kn = 1.0}
