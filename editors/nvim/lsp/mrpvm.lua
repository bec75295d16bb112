-- mrpvm language server configuration in the nvim-lspconfig / Neovim 0.11
-- style: with this folder on 'runtimepath', `vim.lsp.enable('mrpvm')` starts
-- `mrpvm lsp` for Markdown buffers in the folder holding .mrpvm or .git,
-- else the file's own folder, never the home folder or / (unless it holds
-- .mrpvm): with no such folder the server serves the file alone and says so.
-- require('mrpvm').setup{} layers its options (db, cmd_env, handlers for
-- ingest progress) on top of this table through vim.lsp.config.
---@type vim.lsp.Config
return {
  cmd = { 'mrpvm', 'lsp' },
  filetypes = { 'markdown' },
  root_markers = { '.mrpvm', '.git' },
  root_dir = function(bufnr, on_dir)
    local ok, mrpvm = pcall(require, 'mrpvm')
    local name = vim.api.nvim_buf_get_name(bufnr)
    on_dir(ok and name ~= '' and mrpvm.find_root(name, { '.mrpvm', '.git' }) or nil)
  end,
  -- Older nvim-lspconfig versions read root_dir/single_file_support instead.
  single_file_support = true,
  settings = {},
}
