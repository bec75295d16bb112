-- Headless end-to-end test of editors/nvim against the real `mrpvm lsp`:
-- attach on a Markdown file, ingest progress, hover, :MrpAsk (answer buffer
-- and quickfix list), :MrpTrace, :MrpPlugins, :MrpStats, :MrpIngest, :MrpKb.
--
-- Run by test/editors/run.sh:
--   MRPVM_BIN=... MRPVM_TEST_WS=... MRPVM_TEST_TMP=... \
--   nvim --headless -u NONE -i NONE --cmd 'set rtp^=editors/nvim' -l-less: -c 'luafile test/editors/nvim/basic_spec.lua'
local here = debug.getinfo(1, 'S').source:sub(2):match('(.*/)') or './'
local H = dofile(here .. 'harness.lua')

local bin, ws, tmp = H.start('MRPVM_BIN', 'MRPVM_TEST_WS', 'MRPVM_TEST_TMP')

local mrpvm = require('mrpvm')
local progress_seen, status_seen = {}, {}
vim.api.nvim_create_autocmd('User', {
  pattern = 'MrpvmProgress',
  callback = function()
    for _, p in pairs(mrpvm._state.progress) do
      table.insert(progress_seen, vim.deepcopy(p))
    end
    table.insert(status_seen, mrpvm.status())
  end,
})

local client, buf

H.test('setup attaches the server to a Markdown file', function()
  mrpvm.setup({
    cmd = { bin, 'lsp' },
    db = tmp .. '/kb.db',
    log = tmp .. '/server.log',
    answer_window = 'split',
  })
  H.eq(mrpvm.server_cmd(), { bin, 'lsp', '--db', tmp .. '/kb.db', '--log', tmp .. '/server.log' }, 'server command')
  vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/guide/install.md'))
  buf = vim.api.nvim_get_current_buf()
  H.eq(vim.bo[buf].filetype, 'markdown', 'filetype')
  client = H.attached(mrpvm, buf, 'the client to attach and initialize')
  H.eq(client.config.root_dir, ws, 'root from the .mrpvm marker')
  H.eq(mrpvm.status(), 'mrpvm', 'status when idle')
end)

H.test('ingest progress arrives and ends', function()
  H.wait(15000, function()
    return (mrpvm._state.ingests_done or 0) > 0
  end, 'the ingest progress to end')
  H.truthy(#progress_seen > 0, 'progress was seen')
  H.contains(progress_seen[1].title or '', 'ingest', 'progress title')
  local any_status = false
  for _, s in ipairs(status_seen) do
    if s:find('ingest', 1, true) then
      any_status = true
    end
  end
  H.truthy(any_status, 'status() showed the ingest: ' .. vim.inspect(status_seen))
end)

local function hover_text(line, col, bufnr)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr or buf) },
    position = { line = line, character = col },
  }
  local res = H.request_sync(client, 'textDocument/hover', params, 5000, bufnr or buf)
  H.truthy(res, 'hover answered')
  H.truthy(not res.err, 'hover error: ' .. vim.inspect(res.err))
  local r = res.result
  if not r or r == vim.NIL then
    return nil
  end
  local c = r.contents
  if type(c) == 'table' and c.value then
    return c.value
  end
  return vim.inspect(c)
end

H.test('hover shows Markdown from a Knowledge Unit', function()
  -- The heading "The flux level" in guide/config.md, line 5 (0-based 4):
  -- a term is explained by the section that defines it.
  vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/guide/config.md'))
  local cbuf = vim.api.nvim_get_current_buf()
  H.wait(5000, function()
    return vim.lsp.buf_is_attached(cbuf, client.id)
  end, 'the second buffer to attach to the same client')
  local line = vim.api.nvim_buf_get_lines(cbuf, 4, 5, false)[1]
  local col = line:find('flux', 1, true)
  H.truthy(col, 'the flux level heading on line 5')
  local text = hover_text(4, col, cbuf)
  H.truthy(text, 'a hover for the flux level')
  H.contains(text, 'flux', 'hover text')
  H.contains(text, 'config.md', 'hover links the file')
  -- the built-in hover opens a floating window with it.
  vim.api.nvim_win_set_cursor(0, { 5, col })
  local before = #vim.api.nvim_list_wins()
  vim.lsp.buf.hover()
  H.wait(5000, function()
    return #vim.api.nvim_list_wins() > before
  end, 'the hover float')
  vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/guide/install.md'))
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(w).relative ~= '' then
      vim.api.nvim_win_close(w, true)
    end
  end
end)

local function ask(question)
  local got
  mrpvm.ask(question, {
    on_answer = function(r)
      got = r
    end,
    on_error = function(e)
      got = { error = e }
    end,
  })
  H.wait(20000, function()
    return got ~= nil
  end, 'the answer to ' .. question)
  H.truthy(not got.error, 'ask error: ' .. vim.inspect(got.error))
  return got
end

H.test(':MrpAsk shows the answer and fills the quickfix list', function()
  local done = false
  local t0 = vim.loop.hrtime()
  vim.cmd('MrpAsk How do I install Frobnicator?')
  H.wait(20000, function()
    local l = H.buf_lines('mrpvm://answer')
    return l and #l > 2 and vim.fn.getqflist({ title = 1 }).title:find('install', 1, true)
  end, 'the answer buffer')
  done = true
  H.out(string.format('# :MrpAsk answered in %.0f ms', (vim.loop.hrtime() - t0) / 1e6))
  local lines = H.buf_lines('mrpvm://answer')
  local resp = mrpvm._state.last_answer.response
  H.eq(lines[1], '# How do I install Frobnicator?', 'first line')
  H.contains(lines, 'Frobnicator', 'answer text')
  H.contains(lines, '## Sources', 'source list')
  H.eq(resp.status, 'answered', 'status')
  local n = 0
  for _, l in ipairs(lines) do
    if l:match('^Sources:') then
      n = n + 1
    end
  end
  H.eq(n, 0, 'the server\'s plain source list is replaced')
  -- every piece of evidence is listed with its file:line, in order.
  local files = {}
  for i, ev in ipairs(resp.evidence) do
    local want = string.format('%d. %s — `%s:%d`', i, ev.title, ev.sourceId, ev.range.startLine)
    H.contains(lines, want, 'source line ' .. i)
    table.insert(files, { ws .. '/' .. ev.sourceId, ev.range.startLine })
  end
  H.truthy(#files >= 1, 'at least one source')
  H.eq(files[1][1], ws .. '/guide/install.md', 'the install guide is the first source')
  local abuf = vim.fn.bufnr('mrpvm://answer')
  H.eq(vim.bo[abuf].filetype, 'markdown', 'answer filetype')
  H.eq(vim.bo[abuf].modifiable, false, 'answer buffer is read-only')
  H.truthy(H.win_of(abuf), 'the answer is shown in a window')
  -- the quickfix list holds the same sources, in the same order.
  local qf = vim.fn.getqflist()
  local got = {}
  for _, it in ipairs(qf) do
    table.insert(got, { vim.api.nvim_buf_get_name(it.bufnr), it.lnum })
  end
  H.eq(got, files, 'quickfix entries')
  H.contains(qf[1].text, '[1] ' .. resp.evidence[1].title, 'quickfix text')
  -- :cfirst / :cnext walk the sources.
  vim.cmd('cfirst')
  H.eq({ vim.api.nvim_buf_get_name(0), vim.api.nvim_win_get_cursor(0)[1] }, files[1], ':cfirst position')
  if #files > 1 then
    vim.cmd('cnext')
    H.eq({ vim.api.nvim_buf_get_name(0), vim.api.nvim_win_get_cursor(0)[1] }, files[2], ':cnext position')
  end
  H.truthy(done, 'done')
end)

H.test('<CR> on a source line of the answer opens it', function()
  local abuf = vim.fn.bufnr('mrpvm://answer')
  local win = H.win_of(abuf)
  vim.api.nvim_set_current_win(win)
  local lines = vim.api.nvim_buf_get_lines(abuf, 0, -1, false)
  local resp = mrpvm._state.last_answer.response
  local ev = resp.evidence[#resp.evidence]
  local target
  for i, l in ipairs(lines) do
    if l:match('^' .. #resp.evidence .. '%. ') then
      target = i
    end
  end
  H.truthy(target, 'the last source line')
  vim.api.nvim_win_set_cursor(win, { target, 0 })
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('<CR>', true, false, true), 'x', false)
  H.eq(vim.api.nvim_buf_get_name(0), ws .. '/' .. ev.sourceId, 'opened file')
  H.eq(vim.api.nvim_win_get_cursor(0)[1], ev.range.startLine, 'opened line')
end)

H.test(':MrpAsk without an argument prompts, follow-ups keep the session', function()
  local first_session = mrpvm._state.session
  H.truthy(first_session, 'a session after the first answer')
  local orig = vim.ui.input
  local prompted
  vim.ui.input = function(opts, on_confirm)
    prompted = opts.prompt
    on_confirm('What is a quibble?')
  end
  vim.cmd('MrpAsk')
  vim.ui.input = orig
  H.contains(prompted or '', 'Ask', 'prompt')
  H.wait(20000, function()
    local l = H.buf_lines('mrpvm://answer')
    return l and l[1] == '# What is a quibble?'
  end, 'the second answer')
  H.contains(H.buf_lines('mrpvm://answer'), 'notes/glossary.md', 'glossary source')
  H.eq(mrpvm._state.session, first_session, 'same session')
  local r = ask('What is a sidecar?')
  H.eq(r.sessionId, first_session, 'session passed to the server')
  vim.cmd('MrpAsk! What is the default flux level?')
  H.wait(20000, function()
    local l = H.buf_lines('mrpvm://answer')
    return l and l[1] == '# What is the default flux level?'
  end, 'the answer in a new session')
  H.truthy(mrpvm._state.session ~= first_session, ':MrpAsk! starts a new session')
end)

H.test(':MrpTrace shows the stage table of the last request', function()
  local err, t = H.await(10000, 'the trace', function(cb)
    mrpvm.trace(nil, cb)
  end)
  H.truthy(not err, vim.inspect(err))
  H.eq(t.requestId, mrpvm._state.last_request, 'trace of the last request')
  local lines = H.buf_lines('mrpvm://trace')
  H.contains(lines[1], 'request ' .. mrpvm._state.last_request, 'header')
  H.contains(lines, 'STAGE', 'table header')
  H.contains(lines, 'seed-detector', 'seed stage row')
  H.contains(lines, 'stage call(s)', 'total line')
end)

H.test(':MrpPlugins lists the plugins', function()
  vim.cmd('MrpPlugins')
  H.wait(10000, function()
    local l = H.buf_lines('mrpvm://plugins')
    return l and #l > 5
  end, 'the plugin list')
  local lines = H.buf_lines('mrpvm://plugins')
  H.contains(lines[1], 'ID', 'header')
  H.contains(lines, 'kb-fast', 'kb-fast row')
  H.contains(lines, 'planner-default', 'planner row')
end)

H.test(':MrpStats and :MrpIngest report the knowledge base', function()
  local err, st = H.await(10000, 'stats', mrpvm.stats)
  H.truthy(not err, vim.inspect(err))
  H.truthy(st.kus > 0 and st.sources >= 3, 'KUs and sources: ' .. vim.inspect(st))
  H.eq(st.dbPath, tmp .. '/kb.db', 'db path from setup{db=}')
  -- a new file is picked up by :MrpIngest.
  local f = io.open(ws .. '/notes/new.md', 'w')
  f:write('# Zorbification\n\nZorbification is the nightly compaction of sidecars.\n')
  f:close()
  local ierr, rep = H.await(20000, 'ingest', function(cb)
    mrpvm.ingest(nil, cb)
  end)
  H.truthy(not ierr, vim.inspect(ierr))
  H.truthy(rep.files >= 1, 'the new file was ingested: ' .. vim.inspect(rep))
  local r = ask('What is zorbification?')
  local found = false
  for _, ev in ipairs(r.evidence or {}) do
    if ev.sourceId == 'notes/new.md' then
      found = true
    end
  end
  H.truthy(found, 'the new file answers: ' .. vim.inspect(r.evidence))
end)

H.test(':MrpKb save, fork and load snapshots; bad names fail cleanly', function()
  local function kb(action, name)
    local err, res = H.await(15000, 'kb ' .. action, function(cb)
      mrpvm.kb(action, name, cb)
    end)
    return { err = err, res = res }
  end
  local r = kb('save', 'editors-snap')
  H.truthy(not r.err, vim.inspect(r.err))
  H.truthy(vim.loop.fs_stat(r.res.path), 'snapshot file ' .. tostring(r.res.path))
  r = kb('fork', 'editors-fork')
  H.truthy(not r.err, vim.inspect(r.err))
  r = kb('load', 'editors-snap')
  H.truthy(not r.err, vim.inspect(r.err))
  r = kb('load', 'no-such-snapshot')
  H.truthy(r.err, 'loading a missing snapshot fails')
  H.contains(r.err.message, 'kb_snapshot_missing', 'stable error code')
  -- the server still answers after the error.
  local a = ask('How do I uninstall Frobnicator?')
  H.eq(a.status, 'answered', 'status after kb errors')
  -- the command line form.
  vim.cmd('MrpKb save editors-snap-2')
  H.wait(10000, function()
    return vim.loop.fs_stat(os.getenv('XDG_DATA_HOME') .. '/mrpvm/snapshots/editors-snap-2.db') ~= nil
  end, ':MrpKb save to write the snapshot')
end)

H.test(':MrpKb completes its actions', function()
  local got = vim.fn.getcompletion('MrpKb f', 'cmdline')
  H.eq(got, { 'fork' }, 'completion')
end)

H.finish()
