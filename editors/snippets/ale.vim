" extern-lsp with ALE (Vim 8.2+/9, or Neovim): diagnostics, hover (:ALEHover),
" code actions (:ALECodeAction). The root is the nearest pyproject.toml,
" extern-lsp.toml or .git.
function! s:ExternLspRoot(buffer) abort
  for l:marker in ['pyproject.toml', 'extern-lsp.toml']
    let l:found = ale#path#FindNearestFile(a:buffer, l:marker)
    if !empty(l:found)
      return fnamemodify(l:found, ':h')
    endif
  endfor
  let l:git = ale#path#FindNearestDirectory(a:buffer, '.git')
  return empty(l:git) ? expand('#' . a:buffer . ':p:h') : fnamemodify(l:git, ':h:h')
endfunction
for s:ft in ['c', 'cpp', 'python']
  call ale#linter#Define(s:ft, {
  \   'name': 'extern_lsp',
  \   'lsp': 'stdio',
  \   'executable': 'extern-lsp',
  \   'command': '%e',
  \   'project_root': function('s:ExternLspRoot'),
  \   'lsp_config': {'externLsp': {'ignore': [], 'checkPython': v:true}},
  \})
endfor
autocmd BufNewFile,BufRead *.cce,*.asc setfiletype cpp
