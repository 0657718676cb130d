-- Headless Neovim driver (run by e2e_test.go): a stub's diagnostic that
-- depends on its C++ clears once the C++ is fixed and saved. The server
-- then sends workspace/diagnostic/refresh; the client must pull the stub
-- buffer's diagnostics again.
--   nvim --headless -u refresh.lua ops.py   (in the fixture folder)
local drv = dofile(vim.fs.dirname(debug.getinfo(1, 'S').source:sub(2)) .. '/driver.lua')
local res, note, timeout = drv.res, drv.note, drv.timeout

-- The plugin's warnings (externLsp/status), from the start.
res.notified = {}
local notify = vim.notify
vim.notify = function(msg, level, opts)
  if level == vim.log.levels.WARN then
    table.insert(res.notified, msg)
  end
  return notify(msg, level, opts)
end

local function codes(buf)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(out, tostring(d.code))
  end
  table.sort(out)
  return out
end

local function run()
  local ext = require('extern_lsp')
  local stub = vim.api.nvim_get_current_buf()
  res.attached = vim.wait(timeout, function()
    return #ext.clients(stub) > 0
  end, 20)
  if not res.attached then
    note('no extern_lsp client attached')
    return
  end
  vim.wait(timeout, function()
    return vim.tbl_contains(codes(stub), 'EXT105')
  end, 20)
  res.before = codes(stub)

  -- Fix the C++ the stub depends on, in another buffer, and save it.
  vim.cmd('edit kernels/fused.cpp')
  local cpp = vim.api.nvim_get_current_buf()
  if not vim.wait(timeout, function()
    return #ext.clients(cpp) > 0
  end, 20) then
    note('no extern_lsp client attached to kernels/fused.cpp')
  end
  for i, line in ipairs(vim.api.nvim_buf_get_lines(cpp, 0, -1, false)) do
    if line:find('SyncAll<false>', 1, true) then
      vim.api.nvim_buf_set_lines(cpp, i - 1, i, false, { '    // the barrier is gone' })
    end
  end
  vim.cmd('write')
  res.cleared = vim.wait(timeout, function()
    return not vim.tbl_contains(codes(stub), 'EXT105')
  end, 20)
  res.after = codes(stub)

  -- The orphan entry no stub links: said as a warning and in :checkhealth.
  vim.wait(timeout, function()
    for _, m in ipairs(res.notified) do
      if m:find('no stub links', 1, true) then
        return true
      end
    end
    return false
  end, 20)
  -- :ExternLspClangdConfig writes the project's .clangd through the server.
  local written
  ext.clangd_config('cube', function(path)
    written = path
  end)
  vim.wait(timeout, function()
    return written ~= nil
  end, 20)
  res.clangd = written or ''

  vim.cmd('checkhealth extern_lsp')
  res.health = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
end

drv.main(run, { nested = true })
