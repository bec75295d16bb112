-- Pure rendering helpers for the mrpvm Neovim client: they turn the server's
-- command results (ask responses, traces, plugin descriptors, ingest reports,
-- progress) into lines and quickfix items. Nothing here touches the editor
-- state, so the functions are easy to test.
local M = {}

local function str(v)
  if v == nil or v == vim.NIL then
    return ''
  end
  return tostring(v)
end

local function num(v)
  if type(v) == 'number' then
    return v
  end
  return tonumber(v) or 0
end

--- Splits text into lines, dropping one trailing empty line.
function M.lines(text)
  local out = vim.split(str(text):gsub('\r\n', '\n'), '\n', { plain = true })
  if #out > 1 and out[#out] == '' then
    table.remove(out)
  end
  return out
end

--- Returns the file path of a piece of evidence, or nil when it has none
--- (built-in plugin KUs such as plugin::kb-fast live in no file).
--- @param ev table evidence {kuId,title,sourceId,uri,range}
--- @param root string|nil workspace root used for relative source ids
function M.evidence_path(ev, root)
  local uri = str(ev.uri)
  if uri:match('^file://') then
    return vim.uri_to_fname(uri)
  end
  local sid = str(ev.sourceId)
  if sid == '' or sid:find('::', 1, true) or sid:match('^%a+:') then
    return nil
  end
  if sid:sub(1, 1) == '/' or not root or root == '' then
    return sid
  end
  return root .. '/' .. sid
end

--- Returns a display location "path:line" for evidence, relative to root
--- when possible; sources without a file show their source id.
function M.evidence_location(ev, root)
  local range = type(ev.range) == 'table' and ev.range or {}
  local line = num(range.startLine)
  local path = M.evidence_path(ev, root)
  if not path then
    return str(ev.sourceId)
  end
  if root and root ~= '' and path:sub(1, #root + 1) == root .. '/' then
    path = path:sub(#root + 2)
  end
  if line > 0 then
    return path .. ':' .. line
  end
  return path
end

--- Builds quickfix items from an ask response's evidence: one per source
--- that lives in a file, in the order the answer numbers them.
function M.qf_items(resp, root)
  local items = {}
  for i, ev in ipairs(type(resp) == 'table' and type(resp.evidence) == 'table' and resp.evidence or {}) do
    local path = M.evidence_path(ev, root)
    if path then
      local range = type(ev.range) == 'table' and ev.range or {}
      local title = str(ev.title)
      if title == '' then
        title = str(ev.kuId)
      end
      table.insert(items, {
        filename = path,
        lnum = math.max(num(range.startLine), 1),
        col = math.max(num(range.startCol), 1),
        end_lnum = num(range.endLine) > 0 and num(range.endLine) or nil,
        text = string.format('[%d] %s', i, title),
      })
    end
  end
  return items
end

local function is_item(l)
  return l:match('^%s*%[%d+%]%s') or l:match('^%s*%d+%.%s') or l:match('^%s*[-*]%s')
end

--- Removes the plain-text source list the server appends to an answer
--- ("Sources:" then "[1] title — file:line" lines); the answer buffer shows
--- its own list, with locations the quickfix list can walk.
function M.strip_sources(lines)
  local last = #lines
  while last > 0 and vim.trim(lines[last]) == '' do
    last = last - 1
  end
  for i = last, 1, -1 do
    local l = vim.trim(lines[i])
    local bare = l:gsub('^#+%s*', ''):gsub('%*', ''):gsub(':$', '')
    if bare:lower() == 'sources' then
      local any = false
      for j = i + 1, last do
        if vim.trim(lines[j]) ~= '' then
          if not is_item(lines[j]) then
            return vim.list_slice(lines, 1, last)
          end
          any = true
        end
      end
      if not any then
        return vim.list_slice(lines, 1, last)
      end
      local out = vim.list_slice(lines, 1, i - 1)
      while #out > 0 and vim.trim(out[#out]) == '' do
        table.remove(out)
      end
      return out
    end
    if l ~= '' and not is_item(lines[i]) then
      break
    end
  end
  return vim.list_slice(lines, 1, last)
end

--- The line shown above an answer computed while the first ingest ran
--- (resp.partial = {files, of}), or nil.
function M.partial_note(resp)
  local p = type(resp) == 'table' and resp.partial or nil
  if type(p) ~= 'table' then
    return nil
  end
  return string.format('Partial answer: the knowledge base is still being built (%d of %d files ingested). Ask again when it is done.',
    num(p.files), num(p.of))
end

--- Renders an ask response as Markdown lines for the answer buffer, and
--- returns a map from line number (1-based) to the evidence index shown on
--- that line, so <CR> can jump to a source.
function M.answer_lines(question, resp, root)
  local out, targets = {}, {}
  resp = type(resp) == 'table' and resp or {}
  if question and question ~= '' then
    table.insert(out, '# ' .. question:gsub('\n', ' '))
    table.insert(out, '')
  end
  local partial = M.partial_note(resp)
  if partial then
    table.insert(out, '> ⚠ ' .. partial)
    table.insert(out, '')
  end
  local evidence = type(resp.evidence) == 'table' and resp.evidence or {}
  local body = M.lines(str(resp.answerMarkdown))
  if #evidence > 0 then
    body = M.strip_sources(body)
  end
  if #body == 0 or (#body == 1 and vim.trim(body[1]) == '') then
    body = { '_No answer._' }
  end
  vim.list_extend(out, body)
  if #evidence > 0 then
    table.insert(out, '')
    table.insert(out, '## Sources')
    table.insert(out, '')
    for i, ev in ipairs(evidence) do
      local title = str(ev.title)
      if title == '' then
        title = str(ev.kuId)
      end
      table.insert(out, string.format('%d. %s — `%s`', i, title, M.evidence_location(ev, root)))
      targets[#out] = i
    end
  end
  table.insert(out, '')
  local meta = { str(resp.status) }
  if str(resp.requestId) ~= '' then
    table.insert(meta, 'request ' .. str(resp.requestId))
  end
  if str(resp.sessionId) ~= '' then
    table.insert(meta, 'session ' .. str(resp.sessionId))
  end
  table.insert(out, '_' .. table.concat(meta, ' · ') .. '_')
  if str(resp.hint) ~= '' then
    table.insert(out, '')
    table.insert(out, '> ' .. str(resp.hint))
  end
  return out, targets
end

-- pad right-pads s to width w (by display width).
local function pad(s, w)
  local n = vim.fn.strdisplaywidth(s)
  if n >= w then
    return s
  end
  return s .. string.rep(' ', w - n)
end

--- Formats rows (lists of strings) as an aligned text table with a header.
function M.table(header, rows)
  local widths = {}
  for i, h in ipairs(header) do
    widths[i] = vim.fn.strdisplaywidth(h)
  end
  for _, r in ipairs(rows) do
    for i, c in ipairs(r) do
      widths[i] = math.max(widths[i] or 0, vim.fn.strdisplaywidth(c))
    end
  end
  local function line(cells)
    local parts = {}
    for i, c in ipairs(cells) do
      parts[i] = i == #cells and c or pad(c, widths[i])
    end
    return (table.concat(parts, '  '):gsub('%s+$', ''))
  end
  local out = { line(header) }
  local rule = {}
  for i, w in ipairs(widths) do
    rule[i] = string.rep('-', w)
  end
  table.insert(out, table.concat(rule, '  '))
  for _, r in ipairs(rows) do
    table.insert(out, line(r))
  end
  return out
end

--- Renders a trace (Planner Outcome Schema plus frames and errors) as lines:
--- a header and one table row per stage call.
function M.trace_lines(trace)
  if type(trace) ~= 'table' then
    return { 'No trace.' }
  end
  local out = {}
  table.insert(out, 'request ' .. str(trace.requestId) .. '  session ' .. str(trace.sessionId))
  if str(trace.question) ~= '' then
    table.insert(out, 'question: ' .. str(trace.question))
  end
  local final = str(trace.finalStatus)
  if str(trace.finalAnswerStatus) ~= '' then
    final = final .. ' (' .. str(trace.finalAnswerStatus) .. ')'
  end
  table.insert(out, 'planner ' .. str(trace.plannerPluginId) .. '  final ' .. final
    .. '  frame depth ' .. str(trace.frameDepth or 0))
  table.insert(out, '')
  local rows, total = {}, 0
  for i, s in ipairs(type(trace.stages) == 'table' and trace.stages or {}) do
    local ms = num(s.durationMs or s.ms)
    total = total + ms
    local suff = ''
    if s.sufficient == true then
      suff = 'yes'
    elseif s.sufficient == false then
      suff = 'no'
    end
    table.insert(rows, {
      tostring(i), str(s.stage), str(s.pluginId), str(s.status), tostring(ms),
      tostring(num(s.llmCalls)), suff, str(s.model),
    })
  end
  vim.list_extend(out, M.table({ '#', 'STAGE', 'PLUGIN', 'STATUS', 'MS', 'LLM', 'SUFFICIENT', 'MODEL' }, rows))
  table.insert(out, '')
  table.insert(out, string.format('%d stage call(s), %d ms', #rows, total))
  local errors = type(trace.errors) == 'table' and trace.errors or {}
  if #errors > 0 then
    table.insert(out, '')
    table.insert(out, 'errors:')
    for _, e in ipairs(errors) do
      local at = num(e.stage) >= 0 and (' (stage ' .. (num(e.stage) + 1) .. ')') or ''
      table.insert(out, '  ' .. str(e.code) .. at .. ': ' .. str(e.message))
    end
  end
  local notes = type(trace.notes) == 'table' and trace.notes or {}
  if #notes > 0 then
    table.insert(out, '')
    table.insert(out, 'notes:')
    for _, n in ipairs(notes) do
      table.insert(out, '  ' .. str(n))
    end
  end
  return out
end

--- Renders plugin descriptors as a table: id, type, enabled, cost, LLM and
--- description.
function M.plugins_lines(list)
  if type(list) == 'table' and type(list.plugins) == 'table' then
    list = list.plugins
  end
  local rows = {}
  for _, d in ipairs(type(list) == 'table' and list or {}) do
    local enabled = 'no'
    if d.loaded == true then
      enabled = 'yes'
    elseif d.enabled == true and d.loaded == false then
      enabled = 'failed'
    elseif d.enabled == true then
      enabled = 'yes'
    end
    local llm = 'no'
    if d.usesLLM == true then
      llm = '<=' .. num(d.maxLLMCalls)
    end
    local id = str(d.id)
    if str(d.origin) == 'wrapper' then
      id = id .. ' (wrapper)'
    end
    table.insert(rows, { id, str(d.type), enabled, str(d.costClass), llm, str(d.description) })
  end
  return M.table({ 'ID', 'TYPE', 'ENABLED', 'COST', 'LLM', 'DESCRIPTION' }, rows)
end

--- Summarises an ingest report in one line.
function M.ingest_summary(rep)
  if type(rep) ~= 'table' then
    return 'mrpvm: ingest done'
  end
  if type(rep.report) == 'table' then
    rep = rep.report
  end
  local parts = {}
  if rep.files ~= nil then
    table.insert(parts, num(rep.files) .. ' file(s) ingested')
  end
  if rep.unchanged ~= nil then
    table.insert(parts, num(rep.unchanged) .. ' unchanged')
  end
  if num(rep.removed) > 0 then
    table.insert(parts, num(rep.removed) .. ' removed')
  end
  if rep.kus ~= nil then
    table.insert(parts, num(rep.kus) .. ' KUs')
  end
  local errs = type(rep.errors) == 'table' and #rep.errors or 0
  if errs > 0 then
    table.insert(parts, errs .. ' problem(s)')
  end
  if rep.seconds ~= nil then
    table.insert(parts, string.format('%.1fs', num(rep.seconds)))
  end
  if #parts == 0 then
    return 'mrpvm: ingest done'
  end
  return 'mrpvm: ' .. table.concat(parts, ', ')
end

--- Formats a byte count for people (1.5 MiB).
function M.bytes(n)
  n = num(n)
  if n < 1024 then
    return string.format('%d B', n)
  end
  local units = { 'KiB', 'MiB', 'GiB', 'TiB' }
  local i = 0
  repeat
    n = n / 1024
    i = i + 1
  until n < 1024 or i == #units
  return string.format('%.1f %s', n, units[i])
end

--- Summarises knowledge base statistics in one line.
function M.stats_summary(st)
  if type(st) ~= 'table' then
    return 'mrpvm: no statistics'
  end
  local s = string.format('mrpvm: %d source(s), %d KUs', num(st.sources), num(st.kus))
  if st.dbBytes ~= nil then
    s = s .. ', ' .. M.bytes(st.dbBytes)
  end
  if str(st.dbPath) ~= '' then
    s = s .. ' (' .. str(st.dbPath) .. ')'
  end
  return s
end

--- Renders the state of one $/progress token ({title, message, percentage})
--- for the echo area or a statusline.
function M.progress_text(p)
  if type(p) ~= 'table' then
    return ''
  end
  local s = str(p.title)
  if str(p.message) ~= '' then
    s = (s ~= '' and (s .. ': ') or '') .. str(p.message)
  end
  if type(p.percentage) == 'number' then
    s = s .. string.format(' (%d%%)', p.percentage)
  end
  return s
end

return M
