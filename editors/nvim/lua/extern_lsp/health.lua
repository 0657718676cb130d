-- :checkhealth extern_lsp: the server binary, the running clients and what
-- their servers say they cannot see (externLsp/status), with the fix.
local M = {}

local health = vim.health or require('health')
local start = health.start or health.report_start
local ok = health.ok or health.report_ok
local warn = health.warn or health.report_warn
local info = health.info or health.report_info

function M.check()
  local ext = require('extern_lsp')
  start('extern-lsp')
  local bin = ext._cmd()
  if vim.fn.executable(bin) == 1 then
    ok('server: ' .. vim.fn.exepath(bin))
  else
    warn('server ' .. bin .. ' is not executable', { 'install extern-lsp or set the command: setup({ cmd = { ... } })' })
  end
  local clients = ext.clients()
  if #clients == 0 then
    info('no extern_lsp client is running (open a C++ kernel or a stub)')
    return
  end
  for _, c in ipairs(clients) do
    local st = ext.status[c.id]
    local where = 'client ' .. c.id .. ' (' .. tostring(c.config.root_dir) .. ')'
    if st == nil then
      info(where .. ': the server has not reported its status yet')
    elseif st.ok or #(st.gaps or {}) == 0 then
      ok(where .. ': the server sees the whole workspace')
    else
      for _, g in ipairs(st.gaps) do
        warn(where .. ': ' .. g.message, { g.fix })
      end
    end
  end
end

return M
