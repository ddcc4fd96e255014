-- expect: rolling_on_pbond.lua:4: contact assignment (ball-ball): contact model 'linearpbond' has no property 'rr_fric'
-- The bonded models do not take the rolling and twisting add-on (docs/contact-models.md).
model.new{dim = 3}
contact.cmat_default{model = "linearpbond", kn = 1e6, rr_fric = 0.1}
