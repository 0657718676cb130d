-- What the headless Neovim drivers (e2e.lua, noroot.lua) share: the
-- environment e2e_test.go sets, the client started as a user would
-- (E2E_MODE=config: lsp/extern_lsp.lua + vim.lsp.enable, the 0.11+ path;
-- setup: setup() with vim.lsp.start, the path for older versions), the
-- result table the Go test reads, and the request helpers.
--   local d = dofile(vim.fs.dirname(debug.getinfo(1, 'S').source:sub(2)) .. '/driver.lua')
--   d.main(function() ... d.res.x = ... end)
local M = {}

local plugin = assert(os.getenv('E2E_PLUGIN'), 'set E2E_PLUGIN')
M.bin = assert(os.getenv('EXTERN_LSP_BIN'), 'set EXTERN_LSP_BIN')
local out_path = assert(os.getenv('E2E_OUT'), 'set E2E_OUT')
M.mode = os.getenv('E2E_MODE') or 'config'
M.timeout = tonumber(os.getenv('E2E_TIMEOUT_MS') or '15000')

vim.opt.runtimepath:prepend(plugin)
vim.opt.swapfile = false
vim.opt.shadafile = 'NONE'

if M.mode == 'config' then
  -- Exactly what a 0.11+ user does; only the binary path is overridden.
  vim.lsp.config('extern_lsp', { cmd = { M.bin } })
  vim.lsp.enable('extern_lsp')
else
  require('extern_lsp').setup({ cmd = { M.bin }, use_start = true })
end

M.res = { nvim = tostring(vim.version()), mode = M.mode, errors = {} }

-- note records a problem the Go test reports.
function M.note(msg)
  table.insert(M.res.errors, msg)
end

-- request returns the first result of the extern_lsp client to a
-- synchronous request, noting errors and time-outs.
function M.request(buf, method, params)
  local responses, err = vim.lsp.buf_request_sync(buf, method, params, M.timeout)
  if not responses then
    M.note(method .. ': ' .. tostring(err))
    return nil
  end
  for _, r in pairs(responses) do
    if r.err then
      M.note(method .. ': ' .. vim.inspect(r.err))
    else
      return r.result
    end
  end
  return nil
end

-- find returns the 0-based line and column of the first occurrence of
-- needle in buf.
function M.find(buf, needle)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local s = line:find(needle, 1, true)
    if s then
      return i - 1, s - 1
    end
  end
  return nil
end

-- main runs fn once Neovim has started, then writes the results and quits
-- whatever fn did (an error is one of the results).
-- opts.nested: autocommands fire for what fn does (a buffer fn :edits gets
-- its filetype and its client).
function M.main(fn, opts)
  vim.api.nvim_create_autocmd('VimEnter', {
    once = true,
    nested = opts and opts.nested or false,
    callback = function()
      local ok, err = xpcall(fn, debug.traceback)
      if not ok then
        M.note(tostring(err))
      end
      local f = assert(io.open(out_path, 'w'))
      f:write(vim.json.encode(M.res))
      f:close()
      vim.cmd('qa!')
    end,
  })
end

return M
