-- A tiny test harness for headless Neovim: named tests, assertions with
-- messages, waiting on conditions, a closing "N passed, N failed" line and
-- the exit status (nonzero when anything failed).
local H = { passed = 0, failed = 0, failures = {} }

local function out(s)
  io.stdout:write(s .. '\n')
  io.stdout:flush()
end
H.out = out

--- Starts a spec the way every spec starts: reads the environment
--- variables run.sh sets (each named one is required), sizes the screen,
--- turns filetype detection on and prints the Neovim version. Returns the
--- variables' values in the order named.
function H.start(...)
  local vals = {}
  for i, k in ipairs({ ... }) do
    vals[i] = assert(os.getenv(k), k)
  end
  vim.o.columns, vim.o.lines = 160, 50
  vim.cmd('filetype on')
  local v = vim.version()
  out('# Neovim ' .. tostring(v.major) .. '.' .. v.minor .. '.' .. v.patch)
  return unpack(vals)
end

--- Sends a request through client c and waits up to ms for the response
--- ({ err, result } or nil on time-out). Client methods take a colon from
--- Neovim 0.11 on (fields called with a dot before).
function H.request_sync(c, method, params, ms, bufnr)
  if vim.fn.has('nvim-0.11') == 1 then
    return c:request_sync(method, params, ms, bufnr)
  end
  return c.request_sync(method, params, ms, bufnr)
end

--- Calls start with a callback and waits up to ms for it to be called;
--- returns the callback's two arguments (error, result).
function H.await(ms, what, start)
  local got
  start(function(err, res)
    got = { err = err, res = res }
  end)
  H.wait(ms, function()
    return got ~= nil
  end, what)
  return got.err, got.res
end

--- Waits up to 10 s for a client of the mrpvm module to attach to buffer
--- bufnr and initialize; returns the client.
function H.attached(mrpvm, bufnr, what)
  H.wait(10000, function()
    local cs = mrpvm.clients(bufnr)
    return #cs > 0 and cs[1].initialized
  end, what)
  return mrpvm.clients(bufnr)[1]
end

--- Returns the last window showing buffer bufnr, or nil.
function H.win_of(bufnr)
  local win
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_buf(w) == bufnr then
      win = w
    end
  end
  return win
end

--- Runs fn as test `name`; errors mark it failed and are reported.
function H.test(name, fn)
  local t0 = vim.loop.hrtime()
  local ok, err = xpcall(fn, debug.traceback)
  local ms = (vim.loop.hrtime() - t0) / 1e6
  if ok then
    H.passed = H.passed + 1
    out(string.format('ok - %s (%.0f ms)', name, ms))
  else
    H.failed = H.failed + 1
    table.insert(H.failures, name)
    out(string.format('not ok - %s (%.0f ms)\n%s', name, ms, tostring(err):gsub('\n', '\n    ')))
  end
  return ok
end

--- Waits up to ms for cond() to be truthy; fails with what otherwise.
function H.wait(ms, cond, what)
  local ok = vim.wait(ms, function()
    local good, v = pcall(cond)
    return good and v
  end, 20)
  if not ok then
    error('timed out after ' .. ms .. ' ms waiting for ' .. what, 2)
  end
end

function H.eq(got, want, what)
  if not vim.deep_equal(got, want) then
    error(string.format('%s: got %s, want %s', what or 'value', vim.inspect(got), vim.inspect(want)), 2)
  end
end

function H.truthy(v, what)
  if not v then
    error((what or 'condition') .. ' is false', 2)
  end
  return v
end

--- Asserts that text contains the plain string s.
function H.contains(text, s, what)
  if type(text) == 'table' then
    text = table.concat(text, '\n')
  end
  if not tostring(text):find(s, 1, true) then
    error(string.format('%s: %q not found in:\n%s', what or 'text', s, text), 2)
  end
end

--- Returns the lines of the buffer named name, or nil.
function H.buf_lines(name)
  local b = vim.fn.bufnr(name)
  if b == -1 then
    return nil
  end
  return vim.api.nvim_buf_get_lines(b, 0, -1, false)
end

--- Prints the summary and exits Neovim with the right status.
function H.finish()
  out(string.format('%d passed, %d failed', H.passed, H.failed))
  if H.failed > 0 then
    out('failed: ' .. table.concat(H.failures, ', '))
    vim.cmd('cquit 1')
  else
    vim.cmd('qall!')
  end
end

return H
