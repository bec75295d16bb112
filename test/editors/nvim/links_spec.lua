-- Headless end-to-end test of the Markdown basics in editors/nvim against
-- the real `mrpvm lsp`: link completion, references, heading rename applied
-- to the buffers, and the code actions (create the missing file, explain a
-- term through the client-side mrpvm.ui.askAbout command).
--
-- Run by test/editors/run.sh (see basic_spec.lua for the environment).
local here = debug.getinfo(1, 'S').source:sub(2):match('(.*/)') or './'
local H = dofile(here .. 'harness.lua')

local bin, ws, tmp = H.start('MRPVM_BIN', 'MRPVM_TEST_WS', 'MRPVM_TEST_TMP')
vim.o.hidden = true

local mrpvm = require('mrpvm')
local client, gbuf, lbuf

local function req(method, params, bufnr)
  local res = H.request_sync(client, method, params, 5000, bufnr)
  H.truthy(res, method .. ' answered')
  H.truthy(not res.err, method .. ' error: ' .. vim.inspect(res.err))
  return res.result
end

local function line_of(bufnr, text)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if l == text then
      return i - 1
    end
  end
  error('no line ' .. text)
end

H.test('attach and ingest', function()
  mrpvm.setup({ cmd = { bin, 'lsp' }, db = tmp .. '/kb.db', log = tmp .. '/server.log', answer_window = 'split' })
  vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/notes/glossary.md'))
  gbuf = vim.api.nvim_get_current_buf()
  client = H.attached(mrpvm, gbuf, 'the client to attach')
  H.wait(15000, function()
    return (mrpvm._state.ingests_done or 0) > 0
  end, 'the first ingest')
  vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/notes/links.md'))
  lbuf = vim.api.nvim_get_current_buf()
  H.wait(5000, function()
    return vim.lsp.buf_is_attached(lbuf, client.id)
  end, 'the new buffer to attach')
  vim.api.nvim_buf_set_lines(lbuf, 0, -1, false, {
    'See [[glossary#Quibble]] and [sidecars](glossary.md#sidecar).',
    'Broken: [[missing-page]]',
    '[[glo',
  })
end)

H.test('completion offers wiki links with the title as detail', function()
  local items
  H.wait(5000, function()
    local r = req('textDocument/completion', { textDocument = { uri = vim.uri_from_bufnr(lbuf) }, position = { line = 2, character = 5 } }, lbuf)
    items = r and (r.items or r) or {}
    for _, it in ipairs(items) do
      if it.label == 'glossary' then
        return true
      end
    end
    return false
  end, 'glossary in the completion (the edit reached the server)')
  for _, it in ipairs(items) do
    if it.label == 'glossary' then
      H.eq(it.detail, 'Glossary', 'detail is the title')
    end
  end
end)

H.test('references of a heading list the links to it', function()
  local q = line_of(gbuf, '## Quibble')
  local locs = req('textDocument/references', { textDocument = { uri = vim.uri_from_bufnr(gbuf) }, position = { line = q, character = 4 },
    context = { includeDeclaration = false } }, gbuf)
  H.eq(#locs, 1, 'one reference: ' .. vim.inspect(locs))
  H.eq(locs[1].uri, vim.uri_from_bufnr(lbuf), 'from links.md')
  H.eq(locs[1].range.start, { line = 0, character = 4 }, 'at the wiki link')
end)

H.test('rename of a heading updates the links in every buffer', function()
  local q = line_of(gbuf, '## Quibble')
  vim.api.nvim_set_current_buf(gbuf)
  vim.api.nvim_win_set_cursor(0, { q + 1, 4 })
  vim.lsp.buf.rename('Quibbles')
  H.wait(5000, function()
    return vim.api.nvim_buf_get_lines(lbuf, 0, 1, false)[1]:find('[[glossary#Quibbles]]', 1, true) ~= nil
  end, 'the link in links.md to follow the rename')
  H.eq(vim.api.nvim_buf_get_lines(gbuf, q, q + 1, false)[1], '## Quibbles', 'the heading')
  -- renaming onto another heading is refused with a clear message.
  local params = { textDocument = { uri = vim.uri_from_bufnr(gbuf) }, position = { line = q, character = 4 }, newName = 'Sidecar' }
  local res = H.request_sync(client, 'textDocument/rename', params, 5000, gbuf)
  local err = res and res.err
  H.truthy(err, 'a refusal')
  H.contains(err.message, 'rename_refused', 'stable code')
end)

H.test('code actions: create the missing file, explain a term', function()
  vim.api.nvim_set_current_buf(lbuf)
  local actions = req('textDocument/codeAction', { textDocument = { uri = vim.uri_from_bufnr(lbuf) },
    range = { start = { line = 1, character = 12 }, ['end'] = { line = 1, character = 12 } }, context = { diagnostics = {} } }, lbuf)
  local create, explain
  for _, a in ipairs(actions) do
    if a.title == 'Create notes/missing-page.md' then
      create = a
    elseif a.title == 'Explain missing-page' then
      explain = a
    end
  end
  H.truthy(create, 'a create-file action: ' .. vim.inspect(actions))
  H.truthy(explain, 'an explain action')
  vim.lsp.util.apply_workspace_edit(create.edit, 'utf-16')
  local path = ws .. '/notes/missing-page.md'
  H.truthy(vim.fn.bufexists(path) == 1, 'the new file has a buffer')
  H.eq(vim.fn.getbufline(vim.fn.bufnr(path), 1)[1], '# missing-page', 'with a title')
  -- the explain action runs the client command, which asks and opens the answer.
  vim.lsp.commands[explain.command.command](explain.command, { client_id = client.id, bufnr = lbuf })
  H.wait(10000, function()
    local lines = H.buf_lines('mrpvm://answer')
    return lines and #lines > 0 and lines[1]:find('What is missing-page', 1, true) ~= nil
  end, 'the answer buffer')
end)

H.test('an answer from a partial knowledge base says so above the answer', function()
  local render = require('mrpvm.render')
  local lines = render.answer_lines('q', { status = 'answered', answerMarkdown = 'A.', evidence = {}, partial = { files = 3, of = 40 } }, ws)
  H.contains(lines[3], 'Partial answer', 'the line above the answer')
  H.contains(lines[3], '3 of 40 files', 'the counts')
  H.eq(lines[5], 'A.', 'the answer follows')
  lines = render.answer_lines('q', { status = 'answered', answerMarkdown = 'A.', evidence = {} }, ws)
  H.eq(lines[3], 'A.', 'no line without partial')
end)

H.finish()
