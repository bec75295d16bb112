-- The plugin does nothing until require('mrpvm').setup{} is called; this
-- file only guards against loading twice and records the version.
if vim.g.loaded_mrpvm then
  return
end
vim.g.loaded_mrpvm = 1
