-- User commands; the module loads on first use.
if vim.g.loaded_extern_lsp then
  return
end
vim.g.loaded_extern_lsp = true

vim.api.nvim_create_user_command('ExternLspAbi', function()
  require('extern_lsp').abi()
end, { desc = 'extern-lsp: show the args[] table of this file' })

vim.api.nvim_create_user_command('ExternLspExplain', function(o)
  require('extern_lsp').explain(o.args ~= '' and o.args or nil)
end, { nargs = '?', desc = 'extern-lsp: show a rule page (default: the rule under the cursor)' })
