-- CCE kernels are C++ with AscendC qualifiers.
vim.filetype.add({ extension = { cce = 'cpp' } })
