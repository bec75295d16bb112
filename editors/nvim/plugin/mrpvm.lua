-- Loaded once at startup. Starts nothing: require('mrpvm').setup{} or
-- vim.lsp.enable('mrpvm') (with lsp/mrpvm.lua, Neovim 0.11+) start the
-- server. So that the :Mrp* commands exist however the client was started,
-- an LspAttach autocommand (Neovim 0.8+) creates them when a client named
-- mrpvm attaches; on 0.7, which has no LspAttach, setup{} creates them.
if vim.g.loaded_mrpvm then
  return
end
vim.g.loaded_mrpvm = 1

if vim.fn.exists('##LspAttach') == 1 then
  vim.api.nvim_create_autocmd('LspAttach', {
    group = vim.api.nvim_create_augroup('mrpvm_attach', { clear = true }),
    desc = 'mrpvm: create the :Mrp* commands when the mrpvm server attaches',
    callback = function(args)
      local id = type(args.data) == 'table' and args.data.client_id
      local client = id and vim.lsp.get_client_by_id(id)
      if client and client.name == 'mrpvm' and vim.fn.exists(':MrpAsk') ~= 2 then
        require('mrpvm').create_commands()
      end
    end,
  })
end
