-- extern-lsp for Neovim.
--
-- 0.11+: vim.lsp.enable('extern_lsp') is enough (the config is lsp/extern_lsp.lua);
-- setup() does that for you, with your overrides applied through vim.lsp.config.
-- 0.8-0.10: setup() starts the server per buffer with vim.lsp.start.
local M = {}

M.name = 'extern_lsp'

local has_011 = vim.fn.has('nvim-0.11') == 1
local uv = vim.uv or vim.loop

-- Method-call syntax on clients is required from 0.11 and unsupported before it.
local function request(client, method, params, handler, bufnr)
  if has_011 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

local function notify(client, method, params)
  if has_011 then
    return client:notify(method, params)
  end
  return client.notify(method, params)
end

--- The defaults, read from this plugin's lsp/extern_lsp.lua so there is one source.
function M.defaults()
  local here = debug.getinfo(1, 'S').source:sub(2)
  local file = vim.fs.normalize(vim.fn.fnamemodify(here, ':p:h:h:h') .. '/lsp/extern_lsp.lua')
  return dofile(file)
end

local function is_list(t)
  if vim.islist then
    return vim.islist(t)
  end
  return vim.tbl_islist(t)
end

-- Deep merge of dicts where lists (cmd, select, ignore) are replaced, not
-- merged index by index as vim.tbl_deep_extend would.
local function merge(base, over)
  if type(base) ~= 'table' or type(over) ~= 'table' or is_list(over) or is_list(base) then
    return over
  end
  local out = {}
  for k, v in pairs(base) do
    out[k] = v
  end
  for k, v in pairs(over) do
    out[k] = merge(base[k], v)
  end
  return setmetatable(out, getmetatable(base))
end
M._merge = merge

-- The command that runs the server: an attached client's, else the one
-- configured through setup() or vim.lsp.config (0.11+), else the default.
local function configured_cmd(bufnr)
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  local c = get({ name = M.name, bufnr = bufnr })[1] or get({ name = M.name })[1]
  local cmd = (c and c.config.cmd) or (M.config and M.config.cmd)
  if cmd == nil and vim.lsp.config then
    local ok, cfg = pcall(function()
      return vim.lsp.config[M.name]
    end)
    cmd = ok and cfg and cfg.cmd or nil
  end
  if type(cmd) ~= 'table' then
    cmd = M.defaults().cmd
  end
  return type(cmd) == 'table' and cmd[1] or 'extern-lsp'
end
M._cmd = configured_cmd

-- The folder of fname, or the nearest one up holding a marker: what M.root
-- falls back to when the binary cannot be run.
local function marker_root(fname, markers)
  local dir = vim.fs.dirname(fname)
  if vim.fs.root then
    return vim.fs.root(fname, markers) or dir
  end
  local found = vim.fs.find(markers, { upward = true, path = dir })[1]
  return found and vim.fs.dirname(found) or dir
end

--- The project root of a file, by the rule the server and `extern-lsp check`
--- use (`extern-lsp root FILE`): the nearest folder up holding
--- pyproject.toml, extern-lsp.toml, .git or a stub that names the file; else
--- the file's folder. Without the binary: the marker search.
function M.root(fname, bin)
  bin = bin or configured_cmd()
  local markers = { 'pyproject.toml', 'extern-lsp.toml', '.git' }
  if vim.fn.executable(bin) ~= 1 then
    return marker_root(fname, markers)
  end
  local out
  if vim.system then
    local ok, r = pcall(function()
      return vim.system({ bin, 'root', fname }, { text = true }):wait(5000)
    end)
    out = ok and r.code == 0 and r.stdout or nil
  else
    local text = vim.fn.system({ bin, 'root', fname })
    out = vim.v.shell_error == 0 and text or nil
  end
  out = out and vim.trim(out) or ''
  if out == '' then
    return marker_root(fname, markers)
  end
  return out
end

--- Starts (or reuses) the client for a buffer; the path for Neovim < 0.11.
function M.start(bufnr, cfg)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  cfg = cfg or M.config or M.defaults()
  local fname = vim.api.nvim_buf_get_name(bufnr)
  if fname == '' or not vim.tbl_contains(cfg.filetypes, vim.bo[bufnr].filetype) then
    return nil
  end
  return vim.lsp.start({
    name = M.name,
    cmd = cfg.cmd,
    root_dir = M.root(fname, type(cfg.cmd) == 'table' and cfg.cmd[1] or nil),
    settings = cfg.settings,
    init_options = cfg.init_options,
    capabilities = cfg.capabilities,
    handlers = cfg.handlers,
    on_attach = cfg.on_attach,
  }, { bufnr = bufnr })
end

--- setup({ cmd = {...}, settings = { externLsp = {...} }, filetypes = ..., autostart = true })
function M.setup(opts)
  opts = opts or {}
  local cfg = merge(M.defaults(), opts)
  local autostart = cfg.autostart ~= false
  cfg.autostart = nil
  M.config = cfg
  if has_011 and not opts.use_start then
    vim.lsp.config(M.name, cfg)
    if autostart then
      vim.lsp.enable(M.name)
    end
    return
  end
  if not autostart then
    return
  end
  local group = vim.api.nvim_create_augroup('extern_lsp', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = cfg.filetypes,
    callback = function(ev)
      M.start(ev.buf, cfg)
    end,
  })
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) then
      M.start(b, cfg)
    end
  end
end

function M.clients(bufnr)
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  return get({ name = M.name, bufnr = bufnr })
end

-- Pulls document diagnostics again for every buffer of a client that uses
-- pull diagnostics. After a settings change the server sends
-- workspace/diagnostic/refresh, but Neovim 0.10 ignores it and 0.11+ re-pulls
-- only workspace diagnostics, which it does not apply to buffers it pulls per
-- document: without this those buffers keep their old diagnostics.
local function repull(c)
  local provider = c.server_capabilities and c.server_capabilities.diagnosticProvider
  if not provider or not (vim.lsp.diagnostic and vim.lsp.diagnostic.on_diagnostic) then
    return
  end
  for bufnr in pairs(c.attached_buffers or {}) do
    local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, identifier = provider.identifier }
    request(c, 'textDocument/diagnostic', params, function(err, result, ctx)
      ctx.params = ctx.params or params
      vim.lsp.diagnostic.on_diagnostic(err, result, ctx)
    end, bufnr)
  end
end

--- workspace/diagnostic/refresh: pulls the diagnostics of every buffer of
--- the client again (a stub's findings read its C++: saving the C++ changes
--- them). Neovim 0.10 ignores the request and 0.11+ re-pulls only workspace
--- diagnostics.
function M.on_refresh(ctx)
  local c = ctx and vim.lsp.get_client_by_id(ctx.client_id)
  if c then
    repull(c)
  end
end

--- What each client's server last said it cannot see (externLsp/status),
--- by client id: { ok = bool, gaps = { { kind, message, fix, paths, root } } }.
M.status = {}

--- externLsp/status: a gap (the folder opened is below the stubs, entries
--- no stub links, ...) is said once as a warning, with how to fix it;
--- :checkhealth extern_lsp lists them.
function M.on_status(result, ctx)
  if type(result) ~= 'table' or not ctx then
    return
  end
  local old = M.status[ctx.client_id]
  M.status[ctx.client_id] = result
  for _, g in ipairs(result.gaps or {}) do
    local said = false
    for _, o in ipairs(old and old.gaps or {}) do
      said = said or (o.message == g.message)
    end
    if not said then
      vim.notify(('extern-lsp: %s; %s'):format(g.message, g.fix), vim.log.levels.WARN)
    end
  end
end

--- Merges `settings` (the externLsp section's fields) into every running
--- client and tells the server, which re-pulls its configuration.
function M.update_settings(settings)
  for _, c in ipairs(M.clients()) do
    c.settings = merge(c.settings or {}, { externLsp = settings })
    notify(c, 'workspace/didChangeConfiguration', { settings = c.settings })
    repull(c)
  end
end

-- Runs the CLI; cb(code, stdout, stderr) on the main loop. A binary that
-- cannot be started is code -1 with the reason, never a Lua error.
local function run(argv, cb)
  if vim.system then
    local ok, err = pcall(vim.system, argv, { text = true }, function(r)
      vim.schedule(function()
        cb(r.code, r.stdout or '', r.stderr or '')
      end)
    end)
    if not ok then
      cb(-1, '', string.format('cannot run %s: %s (set the server command: vim.lsp.config or setup({ cmd = {...} }))', argv[1], tostring(err)))
    end
  else
    if vim.fn.executable(argv[1]) ~= 1 then
      cb(-1, '', string.format('cannot run %s: not executable (set the server command: setup({ cmd = {...} }))', argv[1]))
      return
    end
    local out = vim.fn.system(argv)
    cb(vim.v.shell_error, out, vim.v.shell_error ~= 0 and out or '')
  end
end

--- Opens a read-only markdown scratch buffer in a split; returns its number.
function M.show(title, text)
  local lines = vim.split((text:gsub('%s+$', '')), '\n', { plain = true })
  local name = 'extern-lsp://' .. title
  local old = vim.fn.bufnr(name)
  if old ~= -1 then
    vim.api.nvim_buf_delete(old, { force = true })
  end
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.api.nvim_buf_set_name(buf, name)
  vim.bo[buf].filetype = 'markdown'
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].modifiable = false
  vim.cmd('botright split')
  vim.api.nvim_win_set_buf(0, buf)
  return buf
end

--- :ExternLspAbi: the args[] table(s) of the buffer, from the server's
--- externLsp/abiTable request or, when it cannot answer, `extern-lsp abi`.
--- `done(buf, text)` is called when the table is shown.
function M.abi(bufnr, done)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local fname = vim.api.nvim_buf_get_name(bufnr)
  local title = 'abi/' .. vim.fn.fnamemodify(fname, ':t')
  local function finish(text)
    local buf = M.show(title, text)
    if done then
      done(buf, text)
    end
  end
  local function fallback()
    -- Exit 1 with a table: the C++ disagrees with the stub (listed in it).
    run({ configured_cmd(bufnr), 'abi', '--format', 'text', fname }, function(code, out, err)
      if (code ~= 0 and code ~= 1) or out == '' then
        vim.notify('extern-lsp abi: ' .. (err ~= '' and err or out), vim.log.levels.ERROR)
        out = err ~= '' and err or out
      end
      finish('```text\n' .. out:gsub('%s+$', '') .. '\n```')
    end)
  end
  local c = M.clients(bufnr)[1]
  if not c then
    fallback()
    return
  end
  request(c, 'externLsp/abiTable', { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }, function(err, result)
    if err or type(result) ~= 'table' or type(result.markdown) ~= 'string' then
      fallback()
      return
    end
    finish(result.markdown)
  end, bufnr)
end

--- The command of the code lens above an extern entry: the args[] table
--- of the document it names (vim.lsp.commands handler signature).
function M.show_abi_command(command, ctx)
  local uri = command and command.arguments and command.arguments[1]
  local bufnr = ctx and ctx.bufnr or 0
  if type(uri) == 'string' then
    bufnr = vim.uri_to_bufnr(uri)
  end
  M.abi(bufnr)
end

--- Client-side commands the server's code lenses use.
M.commands = { ['externLsp.showAbiTable'] = M.show_abi_command }

--- The per-core views: the server dims (as comment semantic tokens) the
--- lines the chosen core does not compile or run.
M.core_views = { 'off', 'cube', 'vector' }

--- The current view (the coreView setting of the running clients).
function M.current_core_view()
  local c = M.clients()[1]
  local s = c and c.settings and c.settings.externLsp
  return (s and s.coreView) or 'off'
end

--- :ExternLspCoreView [off|cube|vector]: switches the view (no argument:
--- the next one) and refreshes the highlighting of every attached buffer.
function M.core_view(view)
  if view == nil or view == '' then
    local cur = M.current_core_view()
    for i, v in ipairs(M.core_views) do
      if v == cur then
        view = M.core_views[i % #M.core_views + 1]
      end
    end
    view = view or 'cube'
  end
  if not vim.tbl_contains(M.core_views, view) then
    vim.notify('extern-lsp: core view is one of off, cube, vector', vim.log.levels.ERROR)
    return
  end
  M.update_settings({ coreView = view })
  for _, c in ipairs(M.clients()) do
    for bufnr in pairs(c.attached_buffers or {}) do
      if vim.lsp.semantic_tokens and vim.lsp.semantic_tokens.force_refresh then
        vim.lsp.semantic_tokens.force_refresh(bufnr)
      end
    end
  end
  vim.notify('extern-lsp: ' .. (view == 'off' and 'per-core view off' or (view .. ' view: dimming what the ' .. view .. ' core does not run')))
  return view
end

--- :ExternLspClangdConfig [cube|vector]: writes the project's .clangd for
--- the core (default: the per-core view's), so clangd next to extern-lsp
--- knows the qualifiers and the core macro; switching the view with
--- :ExternLspCoreView switches it. `done(path)` is called once written.
function M.clangd_config(core, done)
  local args = {}
  if core and core ~= '' then
    args = { { core = core } }
  end
  local c = M.clients()[1]
  if not c then
    vim.notify('extern-lsp: no server running (open a kernel first)', vim.log.levels.ERROR)
    return
  end
  request(c, 'workspace/executeCommand', { command = 'extern-lsp.writeClangdConfig', arguments = args }, function(err, res)
    if err or type(res) ~= 'table' then
      vim.notify('extern-lsp: ' .. (err and err.message or 'no answer'), vim.log.levels.ERROR)
      return
    end
    vim.notify(('extern-lsp: wrote %s for the %s core'):format(res.path, res.core))
    if done then
      done(res.path)
    end
  end)
end

--- Keeps the code lenses of a buffer the client attached to current.
function M.on_attach_lens(bufnr)
  if not vim.lsp.codelens then
    return
  end
  local function refresh()
    if vim.lsp.codelens.enable then
      pcall(vim.lsp.codelens.enable, true, { bufnr = bufnr })
    else
      pcall(vim.lsp.codelens.refresh, { bufnr = bufnr })
    end
  end
  refresh()
  if not vim.lsp.codelens.enable then
    vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'BufWritePost' }, {
      group = vim.api.nvim_create_augroup('extern_lsp_lens_' .. bufnr, { clear = true }),
      buffer = bufnr,
      callback = refresh,
    })
  end
end

--- :ExternLspExplain [CODE]: the rule's page (`extern-lsp explain`).
function M.explain(code, done)
  if not code then
    local lnum = vim.api.nvim_win_get_cursor(0)[1] - 1
    for _, d in ipairs(vim.diagnostic.get(0, { lnum = lnum })) do
      if d.source == 'extern-lsp' and d.code then
        code = tostring(d.code)
        break
      end
    end
  end
  if not code then
    vim.notify('extern-lsp: give a rule code, e.g. :ExternLspExplain EXT004', vim.log.levels.WARN)
    return
  end
  run({ configured_cmd(0), 'explain', code }, function(rc, out, err)
    if rc ~= 0 then
      vim.notify('extern-lsp explain: ' .. (err ~= '' and err or out), vim.log.levels.ERROR)
      return
    end
    local buf = M.show('rule/' .. code, out)
    if done then
      done(buf, out)
    end
  end)
end

return M
