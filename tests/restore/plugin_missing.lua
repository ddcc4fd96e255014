-- Restoring a save that uses a plugin model, without loading the plugin, names the model and
-- its library.
local ok, msg = pcall(function() model.restore("plugin.sav") end)
if ok or not msg:find("uses contact model 'cm1' (from ", 1, true) or not msg:find("libcm1.so", 1, true) then
  error("FAILED: missing plugin: " .. tostring(msg))
end
print("refused: " .. msg)
model.load("cm1")
model.restore("plugin.sav")
model.cycle(2)
print("restored with the plugin loaded")
