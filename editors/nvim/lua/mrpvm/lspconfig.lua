-- Registers mrpvm with nvim-lspconfig (the configs-table style used before
-- Neovim 0.11), for users who manage all servers through lspconfig:
--
--   require('mrpvm.lspconfig').register()
--   require('lspconfig').mrpvm.setup{}
--
-- The defaults mirror lsp/mrpvm.lua. require('mrpvm').setup{} is not needed
-- for this path, but its commands work with a client started this way.
local M = {}

--- Adds the mrpvm server to lspconfig's table; returns false without lspconfig.
function M.register()
  local ok, configs = pcall(require, 'lspconfig.configs')
  if not ok then
    return false
  end
  if configs.mrpvm then
    return true
  end
  local base = dofile(vim.api.nvim_get_runtime_file('lsp/mrpvm.lua', false)[1])
  configs.mrpvm = {
    default_config = {
      cmd = base.cmd,
      filetypes = base.filetypes,
      -- The nearest .mrpvm/.git folder, else the file's folder; nil (the
      -- server serves the file alone) rather than $HOME or /.
      root_dir = function(fname)
        return require('mrpvm').find_root(fname, base.root_markers)
      end,
      single_file_support = true,
      settings = base.settings,
    },
    docs = {
      description = 'mrpvm language server: a knowledge base of your Markdown, hover from Knowledge Units, mrpvm.* commands.',
    },
  }
  return true
end

return M
