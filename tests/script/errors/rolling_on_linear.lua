-- expect: rolling_on_linear.lua:4: contact assignment (ball-ball): contact model 'linear' has no property 'tw_fric'
-- linear does not take the add-on: rrlinear is linear with it (docs/contact-models.md).
model.new{dim = 3}
contact.cmat_default{model = "linear", kn = 1e6, tw_fric = 0.1}
