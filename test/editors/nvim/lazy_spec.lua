-- The lazy.nvim spec documented in doc/mrpvm.txt (*mrpvm-lazy*) and the
-- README, run the way lazy.nvim runs it on the repository's checkout: the
-- repository root is the plugin folder, and only the spec's config puts
-- editors/nvim on the runtimepath. Then the first Markdown buffer starts the
-- server from $PATH, the commands exist and :checkhealth mrpvm is found.
-- Run by test/editors/run.sh (MRPVM_REPO is the repository root).
local here = debug.getinfo(1, 'S').source:sub(2):match('(.*/)') or './'
local H = dofile(here .. 'harness.lua')

local bin, ws, repo = H.start('MRPVM_BIN', 'MRPVM_TEST_WS', 'MRPVM_REPO')

local function read(path)
  local f = assert(io.open(path, 'r'))
  local s = f:read('*a')
  f:close()
  return s
end

-- The spec's text: the code block after the *mrpvm-lazy* tag, up to the
-- help file's closing "<".
local function doc_spec()
  local lines = vim.split(read(repo .. '/editors/nvim/doc/mrpvm.txt'), '\n', { plain = true })
  local out, start = {}, nil
  for i, l in ipairs(lines) do
    if l:find('*mrpvm-lazy*', 1, true) then
      start = i + 1
      break
    end
  end
  assert(start and lines[start] == '>lua', 'a >lua block after *mrpvm-lazy*')
  for i = start + 1, #lines do
    if lines[i] == '<' then
      break
    end
    table.insert(out, lines[i])
  end
  return table.concat(out, '\n')
end

local function squash(s)
  return (s:gsub('%s+', ' '))
end

local spec_text

H.test('the documented spec is one Lua table, the same in the README', function()
  spec_text = doc_spec()
  H.contains(spec_text, 'editors/nvim', 'spec')
  local readme = read(repo .. '/README.md')
  H.truthy(squash(readme):find(squash(vim.trim(spec_text)), 1, true), 'the README shows the same spec:\n' .. spec_text)
  local spec = assert(loadstring('return ' .. spec_text))()
  H.eq(type(spec), 'table', 'spec')
  H.eq(spec[1], 'mrpvm/mrpvm', 'the repository')
  H.eq(type(spec.config), 'function', 'config')
end)

H.test('the spec loads the plugin from the repository checkout', function()
  -- As lazy.nvim leaves things: the repository root on the runtimepath,
  -- not its editors/nvim folder.
  vim.opt.rtp:remove(repo .. '/editors/nvim')
  vim.opt.rtp:prepend(repo)
  H.eq(#vim.api.nvim_get_runtime_file('lua/mrpvm/init.lua', true), 0, 'the plugin is not found before config')
  vim.env.PATH = vim.fn.fnamemodify(bin, ':h') .. ':' .. vim.env.PATH
  for _, k in ipairs({ 'MRPVM_LLM_BASE_URL', 'OPENAI_BASE_URL', 'OLLAMA_HOST' }) do
    vim.env[k] = nil
  end
  -- lazy.nvim loads the plugin on the FileType event of the first Markdown
  -- buffer, then calls config(plugin, opts).
  vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/guide/install.md'))
  local spec = assert(loadstring('return ' .. spec_text))()
  if spec.init then
    spec.init({ dir = repo, name = 'mrpvm' })
  end
  spec.config({ dir = repo, name = 'mrpvm' }, spec.opts or {})
  H.eq(#vim.api.nvim_get_runtime_file('lua/mrpvm/health.lua', true), 1, 'lua/mrpvm/health.lua on the runtimepath')
  H.eq(vim.fn.exists(':MrpAsk'), 2, ':MrpAsk')
  H.eq(vim.fn.exists(':MrpSources'), 2, ':MrpSources')
  local mrpvm = require('mrpvm')
  local buf = vim.api.nvim_get_current_buf()
  H.eq(H.attached(mrpvm, buf, 'the server from $PATH to attach to the open buffer').config.root_dir, ws, 'workspace root')
end)

H.test(':checkhealth mrpvm is found and passes', function()
  vim.cmd('checkhealth mrpvm')
  local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  local text = table.concat(lines, '\n')
  H.truthy(not text:find('No healthcheck found', 1, true), text)
  H.contains(text, 'found ' .. vim.fn.exepath('mrpvm'), 'binary from $PATH')
  H.contains(text, 'attached', 'client')
  H.truthy(not text:find('ERROR', 1, true), 'no error:\n' .. text)
end)

H.finish()
