-- extern-lsp for Neovim 0.11+: put this plugin on 'runtimepath' (or copy this
-- file into your config's lsp/ folder) and call vim.lsp.enable('extern_lsp').
-- Override any field with vim.lsp.config('extern_lsp', { ... }).
---@type vim.lsp.Config
return {
  cmd = { 'extern-lsp' },
  filetypes = { 'c', 'cpp', 'python' },
  -- Neovim 0.11+ uses root_dir when set: the rule `extern-lsp root FILE`
  -- applies (the nearest pyproject.toml, extern-lsp.toml, .git or folder
  -- holding a stub that names the file; else the file's folder), so a
  -- kernel outside any repository still gets a root. root_markers is what
  -- that falls back to without the plugin's Lua module.
  root_markers = { 'pyproject.toml', 'extern-lsp.toml', '.git' },
  root_dir = function(bufnr, on_dir)
    local fname = vim.api.nvim_buf_get_name(bufnr)
    if fname == '' then
      return
    end
    local ok, m = pcall(require, 'extern_lsp')
    if ok then
      on_dir(m.root(fname))
    else
      on_dir(vim.fs.root(bufnr, { 'pyproject.toml', 'extern-lsp.toml', '.git' }) or vim.fs.dirname(fname))
    end
  end,
  capabilities = {
    -- The server asks for a re-pull when a file other buffers depend on
    -- changes (a stub's findings read its C++); the handler below does it.
    workspace = { diagnostics = { refreshSupport = true } },
    -- The plugin shows externLsp/status itself (vim.notify, :checkhealth).
    experimental = { externLspStatus = true },
  },
  handlers = {
    ['workspace/diagnostic/refresh'] = function(_, _, ctx)
      local ok, m = pcall(require, 'extern_lsp')
      if ok then
        m.on_refresh(ctx)
      end
      return vim.NIL
    end,
    ['externLsp/status'] = function(_, result, ctx)
      local ok, m = pcall(require, 'extern_lsp')
      if ok then
        m.on_status(result, ctx)
      end
    end,
  },
  -- Answered to the server's workspace/configuration pull for section "externLsp".
  settings = {
    externLsp = {
      select = {},
      ignore = {},
      severity = vim.empty_dict(),
      checkPython = true,
      -- 'cube' or 'vector' dims the lines that core does not run (:ExternLspCoreView).
      coreView = 'off',
      -- debounce = 100, -- longest wait (ms) between an edit and its diagnostics; 0: at once
      -- maxFindingsPerRule = 200, -- findings of one rule listed per file, the rest counted (0: all)
      -- houseRules = 'info', -- house-rule infos (task-input reads) as infos; default: hints
    },
  },
}
