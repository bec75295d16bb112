-- Headless tests of editors/nvim beyond the happy path: the pure renderers,
-- root detection, a server that cannot start, extra filetypes and answers
-- in a float. Run by test/editors/run.sh (see basic_spec.lua).
local here = debug.getinfo(1, 'S').source:sub(2):match('(.*/)') or './'
local H = dofile(here .. 'harness.lua')

local bin, ws, tmp = H.start('MRPVM_BIN', 'MRPVM_TEST_WS', 'MRPVM_TEST_TMP')
local render = require('mrpvm.render')
local mrpvm = require('mrpvm')

H.test('render.strip_sources', function()
  local cases = {
    { 'server block', { 'Run it. [1]', '', 'Sources:', '[1] Steps — a.md:11', '[2] X — b.md:2', '' }, { 'Run it. [1]' } },
    { 'no block', { 'Just text.' }, { 'Just text.' } },
    { 'answer ending in a list', { 'Do:', '1. one', '2. two' }, { 'Do:', '1. one', '2. two' } },
    { 'heading block', { 'A.', '', '## Sources', '', '- [a](b)' }, { 'A.' } },
    { 'prose after Sources is kept', { 'A.', 'Sources:', 'see the manual' }, { 'A.', 'Sources:', 'see the manual' } },
  }
  for _, c in ipairs(cases) do
    H.eq(render.strip_sources(c[2]), c[3], c[1])
  end
end)

H.test('render.answer_lines and qf_items', function()
  local resp = {
    status = 'answered',
    requestId = 'r-1',
    sessionId = 's-1',
    answerMarkdown = 'Use `frob`. [1] [2]\n\nSources:\n[1] Steps — guide/install.md:11\n[2] kb-fast usage — plugin::kb-fast\n',
    evidence = {
      { kuId = 'guide/install.md::2::0', title = 'Steps', sourceId = 'guide/install.md', uri = 'file:///w/guide/install.md', range = { startLine = 11, startCol = 4, endLine = 13, endCol = 9 } },
      { kuId = 'plugin::kb-fast::unit-000', title = 'kb-fast usage', sourceId = 'plugin::kb-fast', uri = '', range = { startLine = 0, startCol = 0, endLine = 0, endCol = 0 } },
      { kuId = 'x::0::0', title = '', sourceId = 'notes/x.md', uri = '', range = { startLine = 2, startCol = 1, endLine = 2, endCol = 5 } },
    },
    hint = 'configure an LLM for fuller answers',
  }
  local lines, targets = render.answer_lines('How?', resp, '/w')
  H.eq(lines, {
    '# How?',
    '',
    'Use `frob`. [1] [2]',
    '',
    '## Sources',
    '',
    '1. Steps — `guide/install.md:11`',
    '2. kb-fast usage — `plugin::kb-fast`',
    '3. x::0::0 — `notes/x.md:2`',
    '',
    '_answered · request r-1 · session s-1_',
    '',
    '> configure an LLM for fuller answers',
  }, 'answer lines')
  H.eq(targets, { [7] = 1, [8] = 2, [9] = 3 }, 'line targets')
  local qf = render.qf_items(resp, '/w')
  H.eq(#qf, 2, 'sources without a file are left out of the quickfix list')
  H.eq({ qf[1].filename, qf[1].lnum, qf[1].col, qf[1].text }, { '/w/guide/install.md', 11, 4, '[1] Steps' }, 'first item')
  H.eq({ qf[2].filename, qf[2].lnum, qf[2].text }, { '/w/notes/x.md', 2, '[3] x::0::0' }, 'relative source id')
  local empty = render.answer_lines('Q', { status = 'no-context', answerMarkdown = '', evidence = vim.NIL }, '/w')
  H.eq(empty[3], '_No answer._', 'no answer')
end)

H.test('render.trace_lines, plugins_lines, summaries', function()
  local t = {
    requestId = 'r-9', sessionId = 's-9', question = 'q', plannerPluginId = 'planner-default',
    finalStatus = 'failure', finalAnswerStatus = vim.NIL, frameDepth = 1,
    stages = {
      { stage = 'kb', pluginId = 'kb-fast', status = 'success', durationMs = 12, llmCalls = 0, sufficient = false, model = vim.NIL },
      { stage = 'goal-solver', pluginId = 'gs-llm-fast', status = 'failure', durationMs = 30000, llmCalls = 1, sufficient = vim.NIL, model = 'llama3.2' },
    },
    errors = { { stage = 1, code = 'PLUGIN_TIMEOUT', message = 'no answer in 30s' }, { stage = -1, code = 'REQUEST_TIMEOUT', message = 'late' } },
  }
  local lines = render.trace_lines(t)
  H.eq(lines[3], 'planner planner-default  final failure  frame depth 1', 'header')
  H.contains(lines, '1  kb           kb-fast      success  12     0    no', 'kb row')
  H.contains(lines, '2  goal-solver  gs-llm-fast  failure  30000  1                llama3.2', 'gs row')
  H.contains(lines, '2 stage call(s), 30012 ms', 'total')
  H.contains(lines, '  PLUGIN_TIMEOUT (stage 2): no answer in 30s', 'stage error')
  H.contains(lines, '  REQUEST_TIMEOUT: late', 'request error')
  H.eq(render.trace_lines(nil), { 'No trace.' }, 'nil trace')

  local p = render.plugins_lines({
    { id = 'kb-fast', type = 'kb-plugin', enabled = true, loaded = true, costClass = 'cheap', usesLLM = false, description = 'BM25' },
    { id = 'gs-llm-deep', type = 'gs-plugin', enabled = true, loaded = false, costClass = 'expensive', usesLLM = true, maxLLMCalls = 3, description = 'deep' },
    { id = 'w', type = 'kb-plugin', enabled = false, origin = 'wrapper' },
  })
  H.eq(p[1], 'ID           TYPE       ENABLED  COST       LLM  DESCRIPTION', 'plugins header')
  H.eq(p[3], 'kb-fast      kb-plugin  yes      cheap      no   BM25', 'loaded')
  H.eq(p[4], 'gs-llm-deep  gs-plugin  failed   expensive  <=3  deep', 'failed')
  H.eq(p[5], 'w (wrapper)  kb-plugin  no                  no', 'disabled wrapper')

  H.eq(render.ingest_summary({ files = 2, unchanged = 5, removed = 1, kus = 40, errors = { {} }, seconds = 0.4 }),
    'mrpvm: 2 file(s) ingested, 5 unchanged, 1 removed, 40 KUs, 1 problem(s), 0.4s', 'ingest summary')
  H.eq(render.stats_summary({ sources = 3, kus = 10, dbBytes = 1536, dbPath = '/c/kb.db' }),
    'mrpvm: 3 source(s), 10 KUs, 1.5 KiB (/c/kb.db)', 'stats summary')
  H.eq(render.progress_text({ title = 'mrpvm: ingest ws', message = '3/9 files', percentage = 33 }), 'mrpvm: ingest ws: 3/9 files (33%)', 'progress')
end)

H.test('find_root walks up to a marker, else uses the file folder', function()
  H.eq(mrpvm.find_root(ws .. '/guide/install.md', { '.mrpvm' }), ws, 'marker folder')
  H.eq(mrpvm.find_root(ws .. '/guide', { '.mrpvm' }), ws, 'from a folder')
  H.eq(mrpvm.find_root(ws .. '/guide/install.md', { '.no-such-marker' }), ws .. '/guide', 'fallback')
end)

H.test('find_root never falls back to the home folder or /', function()
  local home = tmp .. '/home'
  vim.fn.mkdir(home .. '/notes', 'p')
  vim.fn.mkdir(home .. '/.git', 'p') -- dotfiles in git: not a notes workspace
  local saved = os.getenv('HOME')
  vim.env.HOME = home
  local ok, err = pcall(function()
    H.eq(mrpvm.find_root(home .. '/todo.md', { '.mrpvm', '.git' }), nil, 'a loose file in $HOME')
    H.eq(mrpvm.find_root(home .. '/notes/a.md', { '.mrpvm', '.git' }), home .. '/notes', 'its own folder, not $HOME/.git')
    H.eq(mrpvm.find_root('/todo.md', { '.no-such-marker' }), nil, 'a file in /')
    vim.fn.mkdir(home .. '/.mrpvm', 'p')
    H.eq(mrpvm.find_root(home .. '/todo.md', { '.mrpvm', '.git' }), home, '$HOME with .mrpvm is opted in')
  end)
  vim.env.HOME = saved
  assert(ok, err)
end)

H.test('a server that cannot start is reported, not fatal', function()
  local notes = {}
  local orig = vim.notify
  vim.notify = function(msg, level)
    table.insert(notes, { msg = msg, level = level })
  end
  mrpvm.setup({ cmd = { tmp .. '/no-such-mrpvm', 'lsp' } })
  local ok, err = pcall(vim.cmd, 'edit ' .. vim.fn.fnameescape(ws .. '/notes/glossary.md'))
  vim.wait(500, function()
    return false
  end)
  H.truthy(ok, 'opening the file does not raise: ' .. tostring(err))
  H.eq(#mrpvm.clients(), 0, 'no client runs')
  H.contains(vim.inspect(notes), 'no-such-mrpvm', 'the failure names the command')
  notes = {}
  ok, err = pcall(vim.cmd, 'MrpAsk hello')
  vim.notify = orig
  H.truthy(ok, ':MrpAsk does not raise: ' .. tostring(err))
  H.contains(vim.inspect(notes), 'cannot run ' .. tmp .. '/no-such-mrpvm', ':MrpAsk explains')
  vim.cmd('bwipeout!')
end)

H.test('extra filetypes attach and answers can open in a float', function()
  for _, c in ipairs(vim.lsp.get_active_clients and vim.lsp.get_active_clients() or vim.lsp.get_clients()) do
    c.stop(true)
  end
  mrpvm.setup({ cmd = { bin, 'lsp' }, db = tmp .. '/kb.db', filetypes = { 'markdown', 'text' }, answer_window = 'float' })
  local f = io.open(ws .. '/notes/todo.txt', 'w')
  f:write('review the quibbles\n')
  f:close()
  vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/notes/todo.txt'))
  local buf = vim.api.nvim_get_current_buf()
  H.eq(vim.bo[buf].filetype, 'text', 'filetype')
  H.attached(mrpvm, buf, 'a client on the text buffer')
  H.wait(15000, function()
    return (mrpvm._state.ingests_done or 0) > 0
  end, 'the ingest')
  vim.cmd('MrpAsk What is a sidecar?')
  H.wait(20000, function()
    local l = H.buf_lines('mrpvm://answer')
    return l and l[1] == '# What is a sidecar?'
  end, 'the answer')
  local abuf = vim.fn.bufnr('mrpvm://answer')
  local float = false
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_buf(w) == abuf and vim.api.nvim_win_get_config(w).relative ~= '' then
      float = true
    end
  end
  H.truthy(float, 'the answer is in a floating window')
  H.contains(H.buf_lines('mrpvm://answer'), 'notes/glossary.md', 'source')
end)

H.finish()
