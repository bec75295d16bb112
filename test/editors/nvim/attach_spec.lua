-- Headless tests of editors/nvim without setup{}: a client started from
-- lsp/mrpvm.lua the way vim.lsp.enable('mrpvm') (0.11+) or lspconfig start
-- it gets the :Mrp* commands on attach (plugin/mrpvm.lua's LspAttach);
-- :MrpSources offers the answer's sources through vim.ui.select; and
-- :checkhealth mrpvm reports the binary, the attached server, the knowledge
-- base and the LLM endpoint. Run by test/editors/run.sh.
local here = debug.getinfo(1, 'S').source:sub(2):match('(.*/)') or './'
local H = dofile(here .. 'harness.lua')

local bin, ws, tmp = H.start('MRPVM_BIN', 'MRPVM_TEST_WS', 'MRPVM_TEST_TMP')
-- -u NONE skips plugin/ scripts: load ours as a plugin manager would.
vim.cmd('runtime plugin/mrpvm.lua')
-- no endpoint from the test machine's environment.
for _, k in ipairs({ 'MRPVM_LLM_BASE_URL', 'OPENAI_BASE_URL', 'OLLAMA_HOST' }) do
  vim.env[k] = nil
end

local has_attach = vim.fn.exists('##LspAttach') == 1
local mrpvm = require('mrpvm')
local health = require('mrpvm.health')
local server_cmd = { bin, 'lsp', '--db', tmp .. '/kb.db', '--log', tmp .. '/server.log' }
local client, buf

H.test('plugin/mrpvm.lua loads and creates no command before a client attaches', function()
  H.eq(vim.g.loaded_mrpvm, 1, 'loaded flag')
  H.eq(vim.fn.exists(':MrpAsk'), 0, ':MrpAsk before attach')
  H.eq(mrpvm._state.setup_done, false, 'setup{} was not called')
end)

H.test('a client started from lsp/mrpvm.lua without setup{} gets the commands on attach', function()
  local files = vim.api.nvim_get_runtime_file('lsp/mrpvm.lua', false)
  H.eq(#files, 1, 'lsp/mrpvm.lua on the runtimepath')
  local base = dofile(files[1])
  local path = ws .. '/guide/install.md'
  if vim.lsp.config and vim.lsp.enable then
    -- Neovim 0.11+: the documented path itself.
    vim.lsp.config('mrpvm', { cmd = server_cmd })
    vim.lsp.enable('mrpvm')
    vim.cmd('edit ' .. vim.fn.fnameescape(path))
  else
    -- What vim.lsp.enable and lspconfig do with the same table.
    vim.cmd('edit ' .. vim.fn.fnameescape(path))
    local conf = vim.tbl_extend('force', base, { name = 'mrpvm', cmd = server_cmd, root_dir = mrpvm.find_root(path, base.root_markers) })
    conf.root_markers, conf.single_file_support = nil, nil
    if vim.lsp.start then
      vim.lsp.start(conf)
    else
      local id = vim.lsp.start_client(conf)
      vim.lsp.buf_attach_client(0, id)
    end
  end
  buf = vim.api.nvim_get_current_buf()
  client = H.attached(mrpvm, buf, 'the client to attach and initialize')
  H.eq(client.config.root_dir, ws, 'root from the .mrpvm marker')
  if has_attach then
    H.wait(2000, function()
      return vim.fn.exists(':MrpAsk') == 2
    end, ':MrpAsk after LspAttach')
    for _, c in ipairs({ 'MrpSources', 'MrpIngest', 'MrpPlugins', 'MrpTrace', 'MrpKb', 'MrpStats', 'MrpLog' }) do
      H.eq(vim.fn.exists(':' .. c), 2, ':' .. c .. ' after attach')
    end
  else
    -- Neovim 0.7 has no LspAttach: setup{ autostart = false } adds them.
    H.eq(vim.fn.exists(':MrpAsk'), 0, 'no LspAttach on 0.7')
    mrpvm.setup({ autostart = false, cmd = server_cmd })
    H.eq(vim.fn.exists(':MrpAsk'), 2, ':MrpAsk after setup{autostart=false}')
    H.eq(#mrpvm.clients(), 1, 'setup{autostart=false} starts no second client')
  end
  H.wait(15000, function()
    local res = H.request_sync(client, 'workspace/executeCommand', { command = 'mrpvm.stats', arguments = { vim.empty_dict() } }, 10000)
    return res and res.result and res.result.kus > 0
  end, 'the first ingest')
end)

local function ask_cmd(q)
  vim.cmd('MrpAsk ' .. q)
  H.wait(20000, function()
    local l = H.buf_lines('mrpvm://answer')
    return l and l[1] == '# ' .. q
  end, 'the answer to ' .. q)
  return mrpvm._state.last_answer.response
end

H.test(':MrpAsk answers through the client it did not start', function()
  local resp = ask_cmd('How do I install Frobnicator?')
  H.eq(resp.status, 'answered', 'status')
  H.eq(#mrpvm.clients(), 1, 'no second client was started')
  H.truthy(#vim.fn.getqflist() >= 1, 'the quickfix list holds the sources')
end)

H.test(':MrpSources lists the sources through vim.ui.select and opens the pick', function()
  local resp = mrpvm._state.last_answer.response
  local orig = vim.ui.select
  local got
  vim.ui.select = function(items, opts, on_choice)
    got = { items = items, opts = opts }
    on_choice(items[#items])
  end
  local ok, err = pcall(vim.cmd, 'MrpSources')
  vim.ui.select = orig
  H.truthy(ok, tostring(err))
  H.truthy(got, 'vim.ui.select was called')
  H.eq(#got.items, #resp.evidence, 'one item per source')
  H.eq(got.opts.kind, 'mrpvm.source', 'kind')
  H.contains(got.opts.prompt, 'How do I install Frobnicator?', 'prompt names the question')
  for i, ev in ipairs(resp.evidence) do
    H.eq(got.opts.format_item(got.items[i]), string.format('[%d] %s — %s:%d', i, ev.title, ev.sourceId, ev.range.startLine), 'item ' .. i)
  end
  local ev = resp.evidence[#resp.evidence]
  H.eq(vim.api.nvim_buf_get_name(0), ws .. '/' .. ev.sourceId, 'the picked source opened')
  H.eq(vim.api.nvim_win_get_cursor(0)[1], ev.range.startLine, 'at its line')
  -- a cancelled pick changes nothing.
  local before = vim.api.nvim_buf_get_name(0)
  vim.ui.select = function(_, _, on_choice)
    on_choice(nil)
  end
  vim.cmd('MrpSources')
  vim.ui.select = orig
  H.eq(vim.api.nvim_buf_get_name(0), before, 'cancel keeps the buffer')
end)

H.test('gs in the answer buffer opens the picker', function()
  local abuf = vim.fn.bufnr('mrpvm://answer')
  local win = H.win_of(abuf)
  H.truthy(win, 'the answer window')
  vim.api.nvim_set_current_win(win)
  local orig = vim.ui.select
  local n
  vim.ui.select = function(items, _, on_choice)
    n = #items
    on_choice(items[1])
  end
  vim.api.nvim_feedkeys('gs', 'x', false)
  vim.ui.select = orig
  H.eq(n, #mrpvm._state.last_answer.response.evidence, 'items offered')
  H.eq(vim.api.nvim_buf_get_name(0), ws .. '/' .. mrpvm._state.last_answer.response.evidence[1].sourceId, 'first source opened')
end)

-- checkhealth runs the check and returns the report's lines.
local function checkhealth()
  vim.cmd('checkhealth mrpvm')
  local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  vim.cmd('bwipeout!')
  return lines
end

local function has_line(lines, level, text)
  for _, l in ipairs(lines) do
    if l:find(level, 1, true) and l:find(text, 1, true) then
      return true
    end
  end
  error(string.format('no %s line with %q in:\n%s', level, text, table.concat(lines, '\n')), 2)
end

H.test(':checkhealth mrpvm reports the binary, the attached server and the knowledge base', function()
  local lines = checkhealth()
  H.out('# ' .. table.concat(lines, '\n# '))
  has_line(lines, 'OK', 'found ' .. bin)
  local v = vim.trim(vim.fn.system({ bin, '--version' }))
  if vim.v.shell_error ~= 0 then
    v = vim.trim(vim.fn.system({ bin, 'version' }))
  end
  if vim.v.shell_error == 0 and v ~= '' then
    has_line(lines, 'OK', 'version: ' .. vim.split(v, '\n', { plain = true })[1])
  else
    has_line(lines, 'WARN', 'version unknown')
  end
  has_line(lines, 'OK', string.format('client %d attached', client.id))
  has_line(lines, 'OK', 'workspace ' .. ws)
  has_line(lines, 'OK', 'knowledge base ' .. tmp .. '/kb.db')
  has_line(lines, 'OK', 'KUs')
  H.contains(lines, 'not configured', 'no LLM endpoint')
  for _, l in ipairs(lines) do
    H.truthy(not l:find('ERROR', 1, true), 'no error: ' .. l)
  end
end)

H.test(':checkhealth mrpvm probes the LLM endpoint', function()
  local uv = vim.loop
  local srv = uv.new_tcp()
  srv:bind('127.0.0.1', 0)
  local accepted = 0
  srv:listen(8, function()
    local c = uv.new_tcp()
    srv:accept(c)
    accepted = accepted + 1
    c:close()
  end)
  local port = srv:getsockname().port
  vim.env.OPENAI_BASE_URL = 'http://127.0.0.1:' .. port .. '/v1'
  local lines = checkhealth()
  has_line(lines, 'OK', 'http://127.0.0.1:' .. port .. '/v1 (from $OPENAI_BASE_URL) is reachable')
  H.wait(2000, function()
    return accepted > 0
  end, 'the probe to connect')
  -- MRPVM_LLM_BASE_URL comes first.
  srv:close()
  vim.wait(50, function()
    return false
  end)
  vim.env.MRPVM_LLM_BASE_URL = 'http://127.0.0.1:' .. port .. '/v1'
  lines = checkhealth()
  has_line(lines, 'WARN', '(from $MRPVM_LLM_BASE_URL) is not reachable')
  vim.env.MRPVM_LLM_BASE_URL, vim.env.OPENAI_BASE_URL = nil, nil
end)

H.test('health helpers: endpoint precedence and addresses', function()
  local env = { OLLAMA_HOST = 'gpu-box', OPENAI_BASE_URL = 'https://api.example.test/v1' }
  local getenv = function(k)
    return env[k]
  end
  H.eq({ health.llm_endpoint({}, getenv) }, { 'https://api.example.test/v1', '$OPENAI_BASE_URL' }, 'OPENAI_BASE_URL before OLLAMA_HOST')
  H.eq({ health.llm_endpoint({ cmd_env = { MRPVM_LLM_BASE_URL = 'http://a:1/v1' } }, getenv) }, { 'http://a:1/v1', 'cmd_env.MRPVM_LLM_BASE_URL' }, 'cmd_env first')
  H.eq({ health.llm_endpoint({ init_options = { llm = { baseURL = 'http://b:2/v1' } }, cmd_env = { MRPVM_LLM_BASE_URL = 'http://a:1/v1' } }, getenv) },
    { 'http://b:2/v1', 'the llm setting (init_options/settings)' }, 'the llm setting first')
  H.eq({ health.llm_endpoint({}, function() end) }, {}, 'nothing configured')
  H.eq({ health.host_port('http://localhost:11434/v1') }, { 'localhost', 11434 }, 'http')
  H.eq({ health.host_port('https://api.example.test/v1') }, { 'api.example.test', 443 }, 'https default port')
  H.eq({ health.host_port('gpu-box') }, { 'gpu-box', 11434 }, 'bare OLLAMA_HOST')
  H.eq({ health.host_port('0.0.0.0:8080') }, { '0.0.0.0', 8080 }, 'OLLAMA_HOST host:port')
  H.eq({ health.host_port('http://[::1]:9000/v1') }, { '::1', 9000 }, 'IPv6')
  H.eq({ health.host_port('ftp://x/') }, {}, 'not http')
end)

H.test(':checkhealth mrpvm reports a missing binary as an error', function()
  for _, c in ipairs(mrpvm.clients()) do
    if vim.fn.has('nvim-0.11') == 1 then
      c:stop(true)
    else
      c.stop(true)
    end
  end
  H.wait(5000, function()
    return #mrpvm.clients() == 0
  end, 'the client to stop')
  mrpvm.setup({ autostart = false, cmd = { tmp .. '/no-such-mrpvm', 'lsp' } })
  local lines = checkhealth()
  has_line(lines, 'ERROR', 'cannot run ' .. tmp .. '/no-such-mrpvm')
  has_line(lines, 'WARN', 'no mrpvm client is running')
end)

H.finish()
