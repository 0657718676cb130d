-- Headless Neovim end-to-end driver for extern-lsp (run by e2e_test.go):
--   E2E_PLUGIN=editors/nvim EXTERN_LSP_BIN=/tmp/extern-lsp E2E_OUT=out.json \
--   E2E_MODE=config|setup nvim --headless -u e2e.lua ws/kernels/scale_add.cpp
-- config: the 0.11+ path (lsp/extern_lsp.lua + vim.lsp.enable); setup: setup()
-- with vim.lsp.start, the path for older versions. It records what a user would
-- see (diagnostics, hover, inlay hints, the args table, a quick fix, a settings
-- change) as JSON and quits; the Go test asserts on it.
local drv = dofile(vim.fs.dirname(debug.getinfo(1, 'S').source:sub(2)) .. '/driver.lua')
local res, note, request, find, timeout = drv.res, drv.note, drv.request, drv.find, drv.timeout

local function wait(ms, cond)
  return vim.wait(ms, cond, 20)
end

local function diags(buf)
  return vim.tbl_map(function(d)
    return {
      lnum = d.lnum,
      col = d.col,
      end_lnum = d.end_lnum,
      code = d.code and tostring(d.code) or '',
      message = d.message,
      source = d.source or '',
      severity = d.severity,
    }
  end, vim.diagnostic.get(buf))
end

local function has_code(buf, code)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if tostring(d.code) == code then
      return true
    end
  end
  return false
end

-- The text of a hover result: MarkupContent, MarkedString or a list of them.
local function hover_text(contents)
  if type(contents) == 'string' then
    return contents
  end
  if type(contents) ~= 'table' then
    return ''
  end
  if contents.value then
    return contents.value
  end
  local parts = {}
  for _, c in ipairs(contents) do
    table.insert(parts, hover_text(c))
  end
  return table.concat(parts, '\n')
end

local function label_text(label)
  if type(label) == 'string' then
    return label
  end
  local parts = {}
  for _, p in ipairs(label or {}) do
    table.insert(parts, p.value or '')
  end
  return table.concat(parts)
end

local function run()
  local ext = require('extern_lsp')
  local buf = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(buf)
  res.filetype = vim.bo[buf].filetype
  res.attached = wait(timeout, function()
    return #ext.clients(buf) > 0
  end)
  if not res.attached then
    note('no extern_lsp client attached')
    return
  end
  local client = ext.clients(buf)[1]
  res.root_dir = client.config.root_dir
  res.diagnostics_ready = wait(timeout, function()
    return #vim.diagnostic.get(buf) > 0
  end)
  res.diagnostics = diags(buf)

  -- Hover on every args[N] of the file, keyed by N.
  res.hover = {}
  for n = 0, 4 do
    local line, col = find(buf, 'args[' .. n .. ']')
    if line then
      local r = request(buf, 'textDocument/hover', {
        textDocument = { uri = uri },
        position = { line = line, character = col + 5 },
      })
      res.hover[tostring(n)] = r and hover_text(r.contents) or ''
    end
  end

  local r = request(buf, 'textDocument/inlayHint', {
    textDocument = { uri = uri },
    range = { start = { line = 0, character = 0 }, ['end'] = { line = vim.api.nvim_buf_line_count(buf), character = 0 } },
  })
  res.inlay_hints = {}
  for _, h in ipairs(r or {}) do
    table.insert(res.inlay_hints, { line = h.position.line, character = h.position.character, label = label_text(h.label) })
  end
  -- The editor's own inlay hint display (0.10+), not just the raw request.
  if vim.lsp.inlay_hint and vim.lsp.inlay_hint.get then
    vim.lsp.inlay_hint.enable(true, { bufnr = buf })
    wait(timeout, function()
      return #vim.lsp.inlay_hint.get({ bufnr = buf }) > 0
    end)
    res.inlay_hints_shown = #vim.lsp.inlay_hint.get({ bufnr = buf })
  end

  -- :ExternLspAbi, as a user runs it: the table opens in a markdown split.
  vim.cmd('ExternLspAbi')
  local abi_name = 'extern-lsp://abi/' .. vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ':t')
  wait(timeout, function()
    local b = vim.fn.bufnr(abi_name)
    if b == -1 then
      return false
    end
    res.abi = table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\n')
    res.abi_filetype = vim.bo[b].filetype
    return true
  end)
  vim.api.nvim_set_current_buf(buf)

  -- The code lens above the entry, and its command run as a user runs it.
  wait(timeout, function()
    return vim.lsp.codelens and #vim.lsp.codelens.get(buf) > 0
  end)
  res.code_lenses = {}
  local lens
  for _, l in ipairs(vim.lsp.codelens and vim.lsp.codelens.get(buf) or {}) do
    if l.command then
      table.insert(res.code_lenses, { line = l.range.start.line, title = l.command.title, command = l.command.command })
      lens = lens or l
    end
  end
  local old = vim.fn.bufnr(abi_name)
  if old ~= -1 then
    vim.api.nvim_buf_delete(old, { force = true })
  end
  if lens then
    vim.lsp.commands[lens.command.command](lens.command, { bufnr = buf, client_id = client.id })
    wait(timeout, function()
      local b = vim.fn.bufnr(abi_name)
      if b == -1 then
        return false
      end
      res.lens_abi = table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\n')
      return true
    end)
  end
  vim.api.nvim_set_current_buf(buf)

  -- The per-core view: the lines with an extern_lsp comment token.
  local function dimmed()
    local lines = {}
    for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
      local col = line:find('%S')
      if col then
        for _, tok in ipairs(vim.lsp.semantic_tokens.get_at_pos(buf, i - 1, col - 1) or {}) do
          if tok.client_id == client.id and tok.type == 'comment' then
            table.insert(lines, i - 1)
            break
          end
        end
      end
    end
    return lines
  end
  -- Waits for the highlighting to settle on something other than what the
  -- previous view showed (tokens are cleared while the new ones come).
  local function view(v, prev)
    vim.cmd('ExternLspCoreView ' .. v)
    local got = {}
    wait(timeout, function()
      got = dimmed()
      return vim.inspect(got) ~= vim.inspect(prev) and ((#got > 0) == (v ~= 'off'))
    end)
    return got
  end
  if vim.lsp.semantic_tokens and vim.lsp.semantic_tokens.get_at_pos then
    local cube = view('cube', {})
    local vector = view('vector', cube)
    res.core_view = { cube = cube, vector = vector, off = view('off', vector) }
  end

  -- A live settings change: ignoring EXT004 must clear it, and un-ignoring must bring it back.
  ext.update_settings({ ignore = { 'EXT004' } })
  res.ignore_cleared = wait(timeout, function()
    return not has_code(buf, 'EXT004')
  end)
  res.ignored_diagnostics = diags(buf)
  ext.update_settings({ ignore = {} })
  res.ignore_restored = wait(timeout, function()
    return has_code(buf, 'EXT004')
  end)

  -- The EXT004 quick fix, applied the way vim.lsp.buf.code_action() does.
  local target
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if tostring(d.code) == 'EXT004' then
      target = d
    end
  end
  if not target then
    note('no EXT004 diagnostic for the code action')
    return
  end
  local lsp_diag = target.user_data and target.user_data.lsp
  local actions = request(buf, 'textDocument/codeAction', {
    textDocument = { uri = uri },
    range = {
      start = { line = target.lnum, character = target.col },
      ['end'] = { line = target.end_lnum or target.lnum, character = target.end_col or target.col },
    },
    context = { diagnostics = { lsp_diag }, only = { 'quickfix' } },
  }) or {}
  res.code_actions = {}
  local chosen
  for _, a in ipairs(actions) do
    table.insert(res.code_actions, { title = a.title, kind = a.kind or '', preferred = a.isPreferred or false })
    if not chosen and (a.isPreferred or (a.title or ''):find('SyncAll<false>', 1, true)) then
      chosen = a
    end
  end
  if chosen and not chosen.edit then
    chosen = request(buf, 'codeAction/resolve', chosen) or chosen
  end
  if chosen and chosen.edit then
    vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding)
    res.fixed_line = vim.api.nvim_buf_get_lines(buf, target.lnum, target.lnum + 1, false)[1]
    res.fix_cleared = wait(timeout, function()
      return not has_code(buf, 'EXT004')
    end)
  else
    note('no quick fix with an edit for EXT004')
  end
end

drv.main(run)
