-- The 3D case of softening_paths_2d.lua (closed forms, tolerances and observed errors are in its
-- header; the 3D form of the model is the same law with the shear force as a vector).
CASE_DIM = 3
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "softening_paths_2d.lua")
