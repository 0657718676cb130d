-- extern-lsp for Neovim 0.11+: put this plugin on 'runtimepath' (or copy this
-- file into your config's lsp/ folder) and call vim.lsp.enable('extern_lsp').
-- Override any field with vim.lsp.config('extern_lsp', { ... }).
---@type vim.lsp.Config
return {
  cmd = { 'extern-lsp' },
  filetypes = { 'c', 'cpp', 'python' },
  root_markers = { 'pyproject.toml', 'extern-lsp.toml', '.git' },
  -- Answered to the server's workspace/configuration pull for section "externLsp".
  settings = {
    externLsp = {
      select = {},
      ignore = {},
      severity = vim.empty_dict(),
      checkPython = true,
    },
  },
}
