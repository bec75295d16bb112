-- The sources of an answer as vim.ui.select items, so whatever picker the
-- user installed (Telescope, fzf-lua, snacks, dressing) lists them; picking
-- one opens its file at the cited line. The quickfix list holds the same
-- sources.
local render = require('mrpvm.render')

local M = {}

--- The kind passed to vim.ui.select, for pickers that style items by kind.
M.kind = 'mrpvm.source'

--- Returns one item per source of an ask response, in the answer's order:
--- {index, title, location, filename (nil without a file), lnum, col}.
function M.items(resp, root)
  local out = {}
  local evidence = type(resp) == 'table' and type(resp.evidence) == 'table' and resp.evidence or {}
  for i, ev in ipairs(evidence) do
    local range = type(ev.range) == 'table' and ev.range or {}
    local title = ev.title
    if title == nil or title == vim.NIL or title == '' then
      title = tostring(ev.kuId or '')
    end
    table.insert(out, {
      index = i,
      title = tostring(title),
      location = render.evidence_location(ev, root),
      filename = render.evidence_path(ev, root),
      lnum = math.max(tonumber(range.startLine) or 1, 1),
      col = math.max(tonumber(range.startCol) or 1, 1),
    })
  end
  return out
end

--- The line a picker shows for an item: "[1] Steps — guide/install.md:11".
function M.format(item)
  return string.format('[%d] %s — %s', item.index, item.title, item.location)
end

--- Opens an item's file at its line in the current window; items without
--- a file (built-in plugin KUs) only echo where they come from.
function M.open(item)
  if not item then
    return
  end
  if not item.filename then
    vim.api.nvim_echo({ { 'mrpvm: ' .. M.format(item) .. ' lives in no file', 'WarningMsg' } }, false, {})
    return
  end
  vim.cmd('edit ' .. vim.fn.fnameescape(item.filename))
  local last = vim.api.nvim_buf_line_count(0)
  vim.api.nvim_win_set_cursor(0, { math.min(item.lnum, last), item.col - 1 })
end

--- Shows the sources with vim.ui.select; on_choice(item) runs after the
--- picked source opened (item is nil when the user cancelled).
function M.select(resp, root, question, on_choice)
  local items = M.items(resp, root)
  if #items == 0 then
    vim.api.nvim_echo({ { 'mrpvm: the answer has no sources', 'WarningMsg' } }, false, {})
    return
  end
  vim.ui.select(items, {
    prompt = 'mrpvm sources' .. (question and question ~= '' and (' of "' .. question .. '"') or '') .. ':',
    format_item = M.format,
    kind = M.kind,
  }, function(item)
    M.open(item)
    if on_choice then
      on_choice(item)
    end
  end)
end

return M
