-- expect: rolling_on_burger.lua:4: contact assignment (ball-ball): contact model 'burger' has no property 'rr_fric'
-- Only hertz, rrlinear and the bonded models take the rolling add-on (docs/contact-models.md).
model.new{dim = 3}
contact.cmat_default{model = "burger", bur_knk = 1e6, rr_fric = 0.1}
