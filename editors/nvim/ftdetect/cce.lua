-- CCE and Ascend C (.asc) kernels are C++ with AscendC qualifiers.
vim.filetype.add({ extension = { cce = 'cpp', asc = 'cpp' } })
