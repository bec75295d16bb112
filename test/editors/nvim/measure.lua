-- Latency of the Neovim client on a large workspace (run by
-- test/editors/measure.sh, not in CI): from :edit of a Markdown file to the
-- first :MrpAsk answer. MRPVM_MEASURE_MODE is "cold" (new knowledge base:
-- the server ingests everything in the background) or "warm" (the knowledge
-- base exists and is current). Prints one JSON line.
local bin = assert(os.getenv('MRPVM_BIN'))
local ws = assert(os.getenv('MRPVM_MEASURE_WS'))
local db = assert(os.getenv('MRPVM_MEASURE_DB'))
local file = os.getenv('MRPVM_MEASURE_FILE') or 'tar.md'
local question = os.getenv('MRPVM_MEASURE_QUESTION') or 'How do I extract a tar archive?'
local mode = os.getenv('MRPVM_MEASURE_MODE') or 'cold'

vim.cmd('filetype on')
local mrpvm = require('mrpvm')
mrpvm.setup({ cmd = { bin, 'lsp' }, db = db, progress = false })

local function now()
  return vim.loop.hrtime() / 1e6
end
local result = { mode = mode, question = question }
local t0 = now()
vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/' .. file))
local buf = vim.api.nvim_get_current_buf()
assert(vim.wait(30000, function()
  local cs = mrpvm.clients(buf)
  return #cs > 0 and cs[1].initialized
end, 5), 'attach')
result.attach_ms = now() - t0

local function ask()
  local got
  local t = now()
  mrpvm.ask(question, {
    on_answer = function(r)
      got = r
    end,
    on_error = function(e)
      got = { status = 'error: ' .. vim.inspect(e) }
    end,
  })
  assert(vim.wait(120000, function()
    return got ~= nil
  end, 5), 'answer')
  local first = got.evidence and got.evidence[1]
  return {
    at_ms = now() - t0,
    took_ms = now() - t,
    status = got.status,
    sources = got.evidence and #got.evidence or 0,
    first_source = first and (first.sourceId .. ':' .. first.range.startLine) or nil,
  }
end

result.first_answer = ask()
local ingest_done = vim.wait(300000, function()
  return (mrpvm._state.ingests_done or 0) > 0
end, 5)
result.ingest_end_ms = ingest_done and (now() - t0) or nil
if result.first_answer.status ~= 'answered' then
  result.first_grounded_answer = ask()
end
result.second_answer = ask()
io.stdout:write(vim.json.encode(result) .. '\n')
vim.cmd('qall!')
