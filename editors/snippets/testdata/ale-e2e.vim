" Headless Vim + ALE end-to-end probe (run by snippets_test.go with the built
" extern-lsp first in PATH):
"   E2E_SNIPPET=ale.vim E2E_OUT=out.json vim -N -es -u ale-e2e.vim -c "call E2EProbe()" FILE
" Loads ALE and the README's snippet, waits for the server's diagnostics and
" writes them as JSON.
set nocompatible
let &runtimepath = '/usr/share/vim-ale,' . &runtimepath . ',/usr/share/vim-ale/after'
filetype plugin on
syntax off
let g:ale_linters = {'cpp': ['extern_lsp'], 'c': ['extern_lsp'], 'python': ['extern_lsp']}
let g:ale_lint_on_enter = 1
runtime plugin/ale.vim
execute 'source ' . fnameescape($E2E_SNIPPET)

function! E2EProbe() abort
  let l:result = {'vim': v:version}
  let l:buf = bufnr('%')
  let l:n = 0
  while l:n < 300 && empty(filter(copy(ale#engine#GetLoclist(l:buf)), 'v:val.linter_name ==# "extern_lsp"'))
    sleep 50m
    let l:n += 1
  endwhile
  let l:result.filetype = &filetype
  let l:result.diagnostics = map(filter(copy(ale#engine#GetLoclist(l:buf)), 'v:val.linter_name ==# "extern_lsp"'),
  \ {_, d -> {'line': d.lnum - 1, 'code': get(d, 'code', ''), 'text': d.text, 'type': d.type}})
  call writefile([json_encode(l:result)], $E2E_OUT)
  qall!
endfunction


