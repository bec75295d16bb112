-- mrpvm language server configuration in the nvim-lspconfig / Neovim 0.11
-- style: with this folder on 'runtimepath', `vim.lsp.enable('mrpvm')` starts
-- `mrpvm lsp` for Markdown buffers in the folder holding .mrpvm or .git.
-- require('mrpvm').setup{} layers its options (db, cmd_env, handlers for
-- ingest progress) on top of this table through vim.lsp.config.
---@type vim.lsp.Config
return {
  cmd = { 'mrpvm', 'lsp' },
  filetypes = { 'markdown' },
  root_markers = { '.mrpvm', '.git' },
  -- Older nvim-lspconfig versions read root_dir/single_file_support instead.
  single_file_support = true,
  settings = {},
}
