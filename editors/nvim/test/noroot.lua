-- Headless Neovim driver for a kernel outside any repository (run by
-- e2e_test.go): no .git and no pyproject.toml above the file, the stub in a
-- folder above the entries (the pypto-lib layout).
--   E2E_PLUGIN=editors/nvim EXTERN_LSP_BIN=/tmp/extern-lsp E2E_OUT=out.json \
--   E2E_MODE=config|setup nvim --headless -u noroot.lua models/rms/kernels/rms_norm/kernel/rms_body.hpp
-- It records the root the client got, what hover, inlay hints, definition
-- and diagnostics answer, :ExternLspExplain from a buffer no client is
-- attached to, and :ExternLspAbi through the CLI when no server runs.
local drv = dofile(vim.fs.dirname(debug.getinfo(1, 'S').source:sub(2)) .. '/driver.lua')
local res, note, request, find, timeout = drv.res, drv.note, drv.request, drv.find, drv.timeout

local function buffer_text(name)
  local b = vim.fn.bufnr(name)
  if b == -1 then
    return nil
  end
  return table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\n')
end

local function run()
  local ext = require('extern_lsp')
  local buf = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(buf)
  res.attached = vim.wait(timeout, function()
    return #ext.clients(buf) > 0
  end, 20)
  if not res.attached then
    note('no extern_lsp client attached')
    return
  end
  local client = ext.clients(buf)[1]
  res.root_dir = client.config.root_dir or ''
  vim.wait(timeout, function()
    return #vim.diagnostic.get(buf) >= 2
  end, 20)
  res.codes = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(res.codes, tostring(d.code))
  end
  table.sort(res.codes)

  local line, col = find(buf, 'args[1]')
  local h = request(buf, 'textDocument/hover', { textDocument = { uri = uri }, position = { line = line, character = col + 5 } })
  res.hover = h and h.contents and (h.contents.value or vim.inspect(h.contents)) or ''

  local hints = request(buf, 'textDocument/inlayHint', {
    textDocument = { uri = uri },
    range = { start = { line = 0, character = 0 }, ['end'] = { line = vim.api.nvim_buf_line_count(buf), character = 0 } },
  })
  res.inlay_hints = {}
  for _, hh in ipairs(hints or {}) do
    local label = hh.label
    if type(label) == 'table' then
      label = table.concat(vim.tbl_map(function(p)
        return p.value or ''
      end, label))
    end
    table.insert(res.inlay_hints, label)
  end

  line, col = find(buf, 'args[0]')
  local def = request(buf, 'textDocument/definition', { textDocument = { uri = uri }, position = { line = line, character = col + 5 } })
  if def and def.uri then
    def = { def }
  end
  res.definition = def and def[1] and (def[1].uri or def[1].targetUri) or ''

  -- :ExternLspExplain from a scratch buffer no client is attached to.
  vim.cmd('enew')
  local ok, err = pcall(vim.cmd, 'ExternLspExplain EXT102')
  if not ok then
    note('ExternLspExplain: ' .. tostring(err))
  end
  vim.wait(timeout, function()
    return buffer_text('extern-lsp://rule/EXT102') ~= nil
  end, 20)
  res.explain = buffer_text('extern-lsp://rule/EXT102') or ''

  -- :ExternLspAbi with no server: the CLI answers (exit 1, the C++ disagrees).
  vim.api.nvim_set_current_buf(buf)
  for _, c in ipairs(ext.clients()) do
    if vim.fn.has('nvim-0.11') == 1 then
      c:stop(true)
    else
      vim.lsp.stop_client(c.id, true)
    end
  end
  vim.wait(timeout, function()
    return #ext.clients() == 0
  end, 20)
  local shown
  ext.abi(buf, function(_, text)
    shown = text
  end)
  vim.wait(timeout, function()
    return shown ~= nil
  end, 20)
  res.abi = shown or ''
end

drv.main(run)
