-- Write columns as a CSV that plot.history reads (header step,time,NAME...): what the
-- verification cases share for their data files.
local M = {}

function M.write(path, time, cols, names)
  local f = assert(io.open(path, "w"))
  f:write("step,time," .. table.concat(names, ",") .. "\n")
  for i = 1, #time do
    local row = {tostring(i), string.format("%.17g", time[i])}
    for j = 1, #names do row[#row + 1] = string.format("%.17g", cols[j][i]) end
    f:write(table.concat(row, ",") .. "\n")
  end
  f:close()
end

return M
