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

vim.api.nvim_create_user_command('ExternLspCoreView', function(o)
  require('extern_lsp').core_view(o.args ~= '' and o.args or nil)
end, {
  nargs = '?',
  complete = function()
    return { 'off', 'cube', 'vector' }
  end,
  desc = 'extern-lsp: dim what the cube or the vector core does not run (no argument: next view)',
})

vim.api.nvim_create_user_command('ExternLspClangdConfig', function(o)
  require('extern_lsp').clangd_config(o.args ~= '' and o.args or nil)
end, {
  nargs = '?',
  complete = function()
    return { 'cube', 'vector' }
  end,
  desc = 'extern-lsp: write .clangd for AscendC sources (default core: the per-core view)',
})

-- The code lens command runs in the client (it shows a markdown split).
vim.lsp.commands['externLsp.showAbiTable'] = function(command, ctx)
  require('extern_lsp').show_abi_command(command, ctx)
end

-- Code lenses of extern_lsp buffers stay current.
vim.api.nvim_create_autocmd('LspAttach', {
  group = vim.api.nvim_create_augroup('extern_lsp_attach', { clear = true }),
  callback = function(ev)
    local c = vim.lsp.get_client_by_id(ev.data.client_id)
    if c and c.name == 'extern_lsp' then
      require('extern_lsp').on_attach_lens(ev.buf)
    end
  end,
})
