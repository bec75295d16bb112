-- mrpvm: Neovim client for the mrpvm language server (`mrpvm lsp`).
--
-- require('mrpvm').setup{...} starts the server for Markdown buffers (and any
-- other configured filetypes) in the workspace found from root markers, and
-- adds the :MrpAsk, :MrpSources, :MrpIngest, :MrpPlugins, :MrpTrace, :MrpKb,
-- :MrpStats and :MrpLog commands (also created when any mrpvm client
-- attaches, see plugin/mrpvm.lua). Works on Neovim 0.7 through 0.11: vim.lsp.config and
-- vim.lsp.enable where present, vim.lsp.start on 0.8+, vim.lsp.start_client
-- on 0.7. See :help mrpvm.
local render = require('mrpvm.render')

local M = {}

local NAME = 'mrpvm'

--- Default options; see :help mrpvm-setup.
M.defaults = {
  cmd = { 'mrpvm', 'lsp' },
  filetypes = { 'markdown' },
  root_markers = { '.mrpvm', '.git' },
  db = nil, -- knowledge base file, passed as --db
  log = nil, -- server log file, passed as --log
  cmd_env = nil, -- extra environment for the server (MRPVM_LLM_* settings)
  answer_window = 'split', -- 'split' or 'float'
  answer_height = 15,
  progress = true, -- echo $/progress while the server ingests
  keep_session = true, -- follow-up :MrpAsk continue the same session
  preferences = nil, -- stage -> plugin id the session prefers, e.g. { kb = 'kb-thinkingdb' }
  on_attach = nil,
  capabilities = nil,
  settings = nil,
  init_options = nil,
  force_start = false, -- skip vim.lsp.config/enable even where present (0.11+)
  autostart = true, -- false: only the commands (the client is started elsewhere, e.g. lspconfig)
}

M.config = vim.deepcopy(M.defaults)

-- state shared by the commands.
local state = {
  progress = {}, -- token -> {title, message, percentage, done}
  last_echo = 0,
  session = nil, -- sessionId of the last answer
  last_request = nil, -- requestId of the last answer
  last_answer = nil, -- {question, response, root}
  clients = {}, -- root -> client id (0.7 path)
  setup_done = false,
}
M._state = state

local function has(feature)
  return vim.fn.has(feature) == 1
end

local function notify(msg, level)
  vim.notify(msg, level or vim.log.levels.INFO)
end

--- Returns the server command with --db appended when configured.
function M.server_cmd(cfg)
  cfg = cfg or M.config
  local cmd = cfg.cmd
  if type(cmd) == 'string' then
    cmd = { cmd, 'lsp' }
  end
  cmd = vim.deepcopy(cmd)
  if cfg.db and cfg.db ~= '' then
    table.insert(cmd, '--db')
    table.insert(cmd, vim.fn.expand(cfg.db))
  end
  if cfg.log and cfg.log ~= '' then
    table.insert(cmd, '--log')
    table.insert(cmd, vim.fn.expand(cfg.log))
  end
  return cmd
end

-- unsafe_root tells why dir must not be indexed whole unless it holds
-- .mrpvm: it is the home folder or a filesystem root (nil otherwise). The
-- server applies the same rule; this keeps the editor from asking for it.
local function unsafe_root(dir)
  local uv = vim.loop
  local real = uv.fs_realpath(dir) or dir
  if real == '/' or real:match('^%a:[/\\]?$') then
    return 'a filesystem root'
  end
  local home = os.getenv('HOME')
  if home and home ~= '' then
    home = uv.fs_realpath(home) or home
    if real == home:gsub('/$', '') then
      return 'your home folder'
    end
  end
  return nil
end
M.unsafe_root = unsafe_root

--- Finds the workspace root of path: the nearest folder holding one of the
--- markers (the home folder or a filesystem root only when it holds
--- .mrpvm: a home folder kept in git for its dotfiles is no notes
--- workspace), else the file's own folder unless that is the home folder
--- or a filesystem root. Returns nil when no folder may be indexed: the
--- server then serves the file alone and tells the user why.
function M.find_root(path, markers)
  markers = markers or M.config.root_markers
  local uv = vim.loop
  local dir
  if path == nil or path == '' then
    dir = vim.fn.getcwd()
  else
    dir = vim.fn.fnamemodify(path, ':p')
    local st = uv.fs_stat(dir)
    if not st or st.type ~= 'directory' then
      dir = vim.fn.fnamemodify(dir, ':h')
    end
  end
  dir = dir:gsub('/$', '')
  if dir == '' then
    dir = '/'
  end
  local start = dir
  while true do
    for _, m in ipairs(markers) do
      if uv.fs_stat(dir .. '/' .. m) then
        local st = uv.fs_stat(dir .. '/.mrpvm')
        if not unsafe_root(dir) or (m == '.mrpvm' and st and st.type == 'directory') then
          return dir
        end
      end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      break
    end
    dir = parent
  end
  if unsafe_root(start) then
    return nil
  end
  return start
end

--- Compatibility: the active clients named mrpvm (optionally for a buffer).
function M.clients(bufnr)
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  local out = {}
  for _, c in ipairs(get() or {}) do
    if c.name == NAME and (bufnr == nil or vim.lsp.buf_is_attached(bufnr, c.id)) then
      table.insert(out, c)
    end
  end
  return out
end

-- request sends an LSP request; 0.11 clients are objects with methods.
local function request(client, method, params, handler, bufnr)
  if has('nvim-0.11') then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

-- on_progress tracks $/progress and echoes it; the default handler runs too.
local function on_progress(err, result, ctx, config)
  local default = vim.lsp.handlers['$/progress']
  if default then
    pcall(default, err, result, ctx, config)
  end
  if err or type(result) ~= 'table' or type(result.value) ~= 'table' then
    return
  end
  local token, v = tostring(result.token), result.value
  local p = state.progress[token] or {}
  if v.kind == 'begin' then
    p = { title = v.title, message = v.message, percentage = v.percentage }
  elseif v.kind == 'report' then
    if v.message ~= nil then
      p.message = v.message
    end
    if v.percentage ~= nil then
      p.percentage = v.percentage
    end
  elseif v.kind == 'end' then
    p.done = true
    p.percentage = nil
    if v.message ~= nil then
      p.message = v.message
    end
  end
  state.progress[token] = p
  if M.config.progress then
    local now = vim.loop.now()
    if p.done or v.kind == 'begin' or now - state.last_echo > 100 then
      state.last_echo = now
      local text = render.progress_text(p)
      if text:sub(1, 5) ~= 'mrpvm' then
        text = 'mrpvm: ' .. text
      end
      vim.schedule(function()
        vim.api.nvim_echo({ { text, p.done and 'ModeMsg' or 'MoreMsg' } }, false, {})
      end)
    end
  end
  if p.done then
    state.progress[token] = nil
    state.last_done = p
    if tostring(p.title or ''):find('ingest', 1, true) then
      state.ingests_done = (state.ingests_done or 0) + 1
      state.last_ingest = p
    end
  end
  pcall(vim.api.nvim_exec_autocmds, 'User', { pattern = 'MrpvmProgress', modeline = false })
end

local function on_create_progress(_, _, _, _)
  return vim.NIL
end

--- Returns the LSP client configuration for a workspace root.
function M.client_config(root)
  local cfg = M.config
  local handlers = {
    ['$/progress'] = on_progress,
    ['window/workDoneProgress/create'] = vim.lsp.handlers['window/workDoneProgress/create'] or on_create_progress,
  }
  local c = {
    name = NAME,
    cmd = M.server_cmd(cfg),
    cmd_env = cfg.cmd_env,
    root_dir = root,
    workspace_folders = root and { { uri = vim.uri_from_fname(root), name = vim.fn.fnamemodify(root, ':t') } } or nil,
    handlers = handlers,
    capabilities = cfg.capabilities or vim.lsp.protocol.make_client_capabilities(),
    settings = cfg.settings,
    init_options = cfg.init_options,
    on_attach = cfg.on_attach,
  }
  return c
end

-- start_07 starts (or reuses) a client for root with vim.lsp.start_client
-- and attaches bufnr (Neovim 0.7).
local function start_07(bufnr, root)
  local key = root or ''
  local id = state.clients[key]
  if id and not vim.lsp.get_client_by_id(id) then
    id = nil
  end
  if not id then
    local c = M.client_config(root)
    c.on_exit = function()
      state.clients[key] = nil
    end
    id = vim.lsp.start_client(c)
    if not id then
      notify('mrpvm: could not start ' .. table.concat(c.cmd, ' '), vim.log.levels.ERROR)
      return nil
    end
    state.clients[key] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

--- Starts the server for bufnr (or reuses the one of its workspace) and
--- attaches the buffer. Returns the client id.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if vim.bo[bufnr].buftype ~= '' then
    return nil
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  local root = M.find_root(name ~= '' and name or nil)
  if vim.lsp.start then
    return vim.lsp.start(M.client_config(root), {
      bufnr = bufnr,
      reuse_client = function(client, conf)
        return client.name == conf.name and client.config.root_dir == conf.root_dir
      end,
    })
  end
  return start_07(bufnr, root)
end

--- Returns a running client for the current buffer, else any running
--- mrpvm client, else starts one for the current working directory.
function M.client()
  local buf = vim.api.nvim_get_current_buf()
  local cs = M.clients(buf)
  if #cs == 0 then
    cs = M.clients()
  end
  if #cs > 0 then
    return cs[1]
  end
  local root = M.find_root(vim.fn.getcwd())
  local c = M.client_config(root)
  local id
  if has('nvim-0.11') then
    id = vim.lsp.start(c, { bufnr = buf, attach = false })
  else
    id = vim.lsp.start_client(c)
  end
  if id then
    state.clients[root or ''] = state.clients[root or ''] or id
    return vim.lsp.get_client_by_id(id)
  end
  local exe = M.server_cmd()[1]
  if vim.fn.executable(exe) ~= 1 then
    notify('mrpvm: cannot run ' .. exe .. ': install mrpvm on $PATH or pass setup{cmd={\'/path/to/mrpvm\', \'lsp\'}}', vim.log.levels.ERROR)
  else
    notify('mrpvm: no server running; open a Markdown file of the workspace first', vim.log.levels.ERROR)
  end
  return nil
end

--- Runs a server command (workspace/executeCommand) with one argument
--- object, and calls cb(err, result) on the main loop.
function M.exec(command, arg, cb, client)
  client = client or M.client()
  if not client then
    if cb then
      cb({ message = 'no mrpvm server' }, nil)
    end
    return
  end
  if arg == nil or (type(arg) == 'table' and next(arg) == nil) then
    arg = vim.empty_dict()
  end
  request(client, 'workspace/executeCommand', { command = command, arguments = { arg } }, function(err, result)
    if cb then
      cb(err, result, client)
    end
  end, vim.api.nvim_get_current_buf())
end

local function err_text(err)
  if type(err) == 'table' then
    local s = err.message or vim.inspect(err)
    if err.data and type(err.data) == 'table' and err.data.code then
      s = err.data.code .. ': ' .. s
    end
    return s
  end
  return tostring(err)
end

-- scratch returns (creating it if needed) a named scratch buffer.
local function scratch(name, filetype)
  local buf = vim.fn.bufnr(name)
  if buf == -1 or not vim.api.nvim_buf_is_valid(buf) then
    buf = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_name(buf, name)
  end
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'hide'
  vim.bo[buf].swapfile = false
  vim.bo[buf].filetype = filetype
  return buf
end

local function set_lines(buf, lines)
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
end

-- show displays buf in a split at the bottom (reusing a window that shows
-- it) or in a centred float, and returns the window.
local function show(buf, how, height)
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_buf(win) == buf then
      return win
    end
  end
  if how == 'float' then
    local cols, rows = vim.o.columns, vim.o.lines
    local w = math.max(40, math.floor(cols * 0.7))
    local h = math.max(8, math.floor(rows * 0.6))
    local win = vim.api.nvim_open_win(buf, true, {
      relative = 'editor',
      width = math.min(w, cols - 2),
      height = math.min(h, rows - 4),
      row = math.floor((rows - h) / 2),
      col = math.floor((cols - w) / 2),
      style = 'minimal',
      border = 'rounded',
    })
    vim.wo[win].wrap = true
    return win
  end
  local cur = vim.api.nvim_get_current_win()
  vim.cmd('botright ' .. tostring(height or 15) .. 'split')
  local win = vim.api.nvim_get_current_win()
  vim.api.nvim_win_set_buf(win, buf)
  vim.wo[win].wrap = true
  vim.wo[win].linebreak = true
  if vim.api.nvim_win_is_valid(cur) then
    vim.api.nvim_set_current_win(cur)
  end
  return win
end

-- jump opens the source behind the answer line under the cursor.
local function jump_to_source()
  local buf = vim.api.nvim_get_current_buf()
  local ok, targets = pcall(vim.api.nvim_buf_get_var, buf, 'mrpvm_targets')
  if not ok then
    return
  end
  local idx = targets[tostring(vim.api.nvim_win_get_cursor(0)[1])]
  if not idx then
    return
  end
  vim.cmd('cc ' .. idx)
end

--- Displays an ask response: the answer buffer (Markdown) and a new
--- quickfix list of its sources.
function M.show_answer(question, resp, root)
  state.last_answer = { question = question, response = resp, root = root }
  local lines, targets = render.answer_lines(question, resp, root)
  local buf = scratch('mrpvm://answer', 'markdown')
  set_lines(buf, lines)
  -- map rendered line -> quickfix index (sources without a file have none).
  local qf_index, n = {}, 0
  for i, ev in ipairs(type(resp.evidence) == 'table' and resp.evidence or {}) do
    if render.evidence_path(ev, root) then
      n = n + 1
      qf_index[i] = n
    end
  end
  local tmap = {}
  for line, i in pairs(targets) do
    if qf_index[i] then
      tmap[tostring(line)] = qf_index[i]
    end
  end
  vim.api.nvim_buf_set_var(buf, 'mrpvm_targets', next(tmap) and tmap or vim.empty_dict())
  vim.api.nvim_buf_set_keymap(buf, 'n', '<CR>', '', { callback = jump_to_source, noremap = true, silent = true, desc = 'mrpvm: open source' })
  vim.api.nvim_buf_set_keymap(buf, 'n', 'q', '<cmd>close<CR>', { noremap = true, silent = true })
  vim.api.nvim_buf_set_keymap(buf, 'n', 'gs', '', { callback = M.sources, noremap = true, silent = true, desc = 'mrpvm: pick a source' })
  local items = render.qf_items(resp, root)
  vim.fn.setqflist({}, ' ', { title = 'mrpvm: ' .. question, items = items })
  show(buf, M.config.answer_window, M.config.answer_height)
  return buf
end

--- Lists the sources of the last answer with vim.ui.select (Telescope,
--- fzf-lua or snacks show them when they replace it); the picked one opens.
function M.sources(on_choice)
  local last = state.last_answer
  if not last then
    notify('mrpvm: no answer yet: :MrpAsk first', vim.log.levels.WARN)
    return
  end
  require('mrpvm.pick').select(last.response, last.root, last.question, type(on_choice) == 'function' and on_choice or nil)
end

--- Asks the knowledge base a question; the answer opens in the answer
--- buffer and its sources in the quickfix list. opts.new_session starts a
--- new session; opts.on_answer(resp) runs after display.
function M.ask(question, opts)
  opts = opts or {}
  question = vim.trim(question or '')
  if question == '' then
    notify('mrpvm: empty question', vim.log.levels.WARN)
    return
  end
  local client = M.client()
  if not client then
    return
  end
  local arg = { question = question }
  if M.config.keep_session and not opts.new_session and state.session then
    arg.sessionId = state.session
  end
  if opts.pins then
    arg.pins = opts.pins
  end
  if M.config.preferences and next(M.config.preferences) ~= nil then
    arg.preferences = M.config.preferences
  end
  if opts.context and opts.context ~= '' then
    arg.context = opts.context
  end
  vim.api.nvim_echo({ { 'mrpvm: thinking…', 'MoreMsg' } }, false, {})
  M.exec('mrpvm.ask', arg, function(err, resp)
    vim.schedule(function()
      if err then
        notify('mrpvm: ask failed: ' .. err_text(err), vim.log.levels.ERROR)
        if opts.on_error then
          opts.on_error(err)
        end
        return
      end
      resp = type(resp) == 'table' and resp or {}
      if resp.sessionId and resp.sessionId ~= '' then
        state.session = resp.sessionId
      end
      state.last_request = resp.requestId
      M.show_answer(question, resp, client.config.root_dir or client.root_dir)
      vim.api.nvim_echo({ { 'mrpvm: ' .. tostring(resp.status or 'done') .. ', ' .. #(resp.evidence or {}) .. ' source(s)', 'ModeMsg' } }, false, {})
      if opts.on_answer then
        opts.on_answer(resp)
      end
    end)
  end, client)
end

--- Runs command with arg; on the main loop, notifies '<what> failed' on an
--- error, else calls on_ok with the result, then calls cb (when given) with
--- the error and the result, or with what on_ok returned instead when that
--- is not nil.
local function run(command, arg, what, on_ok, cb)
  M.exec(command, arg, function(err, res)
    vim.schedule(function()
      if err then
        notify('mrpvm: ' .. what .. ' failed: ' .. err_text(err), vim.log.levels.ERROR)
      else
        local out = on_ok(res)
        if out ~= nil then
          res = out
        end
      end
      if cb then
        cb(err, res)
      end
    end)
  end)
end

--- Re-ingests the workspace (or one file).
function M.ingest(path, cb)
  local arg = {}
  if path and path ~= '' then
    arg.uri = vim.uri_from_fname(vim.fn.fnamemodify(path, ':p'))
  end
  run('mrpvm.ingest', arg, 'ingest', function(rep)
    vim.api.nvim_echo({ { render.ingest_summary(rep), 'ModeMsg' } }, true, {})
  end, cb)
end

local function show_table(name, lines)
  local buf = scratch(name, 'mrpvm')
  set_lines(buf, lines)
  vim.api.nvim_buf_set_keymap(buf, 'n', 'q', '<cmd>close<CR>', { noremap = true, silent = true })
  show(buf, 'split', math.min(#lines + 1, 20))
  return buf
end

--- Lists the plugins in a scratch buffer.
function M.plugins(cb)
  run('mrpvm.plugins', {}, 'plugins', function(list)
    show_table('mrpvm://plugins', render.plugins_lines(list))
  end, cb)
end

--- Shows the trace of a request (the last one by default) as a stage table.
function M.trace(request_id, cb)
  local arg = {}
  if request_id and request_id ~= '' then
    arg.requestId = request_id
  end
  run('mrpvm.trace', arg, 'trace', function(trace)
    if type(trace) == 'table' and type(trace.trace) == 'table' then
      trace = trace.trace
    end
    show_table('mrpvm://trace', render.trace_lines(trace))
    return trace
  end, cb)
end

M.kb_actions = { 'save', 'load', 'fork' }

--- Saves, loads or forks a named knowledge base.
function M.kb(action, name, cb)
  if not vim.tbl_contains(M.kb_actions, action or '') or not name or name == '' then
    notify('mrpvm: usage: :MrpKb save|load|fork {name}', vim.log.levels.ERROR)
    return
  end
  run('mrpvm.kb', { action = action, name = name }, 'kb ' .. action, function(res)
    local msg = type(res) == 'table' and (res.message or res.path or res.name) or res
    vim.api.nvim_echo({ { 'mrpvm: kb ' .. action .. ' ' .. name .. ': ' .. tostring(msg or 'done'), 'ModeMsg' } }, true, {})
    if action ~= 'save' then
      state.session = nil
    end
  end, cb)
end

--- Echoes knowledge base statistics.
function M.stats(cb)
  run('mrpvm.stats', {}, 'stats', function(st)
    state.stats = st
    vim.api.nvim_echo({ { render.stats_summary(st), 'ModeMsg' } }, true, {})
  end, cb)
end

--- Returns a short status for a statusline: ingest progress while it
--- runs, "mrpvm" when a server is attached to the buffer, else ''.
function M.status()
  for _, p in pairs(state.progress) do
    if not p.done then
      local text = render.progress_text(p)
      return text:sub(1, 5) == 'mrpvm' and text or ('mrpvm: ' .. text)
    end
  end
  local ok, cs = pcall(M.clients, vim.api.nvim_get_current_buf())
  if ok and #cs > 0 then
    return 'mrpvm'
  end
  return ''
end

--- Creates the :Mrp* commands (again: the definitions are replaced).
--- setup{} calls it, and so does the LspAttach autocommand of
--- plugin/mrpvm.lua for a client started without setup{}.
function M.create_commands()
  local cmd = vim.api.nvim_create_user_command
  cmd('MrpAsk', function(o)
    local q = o.args
    if q == nil or q == '' then
      vim.ui.input({ prompt = 'Ask mrpvm: ' }, function(input)
        if input and input ~= '' then
          M.ask(input, { new_session = o.bang })
        end
      end)
      return
    end
    M.ask(q, { new_session = o.bang })
  end, { nargs = '*', bang = true, desc = 'mrpvm: ask the knowledge base (! starts a new session)' })
  cmd('MrpSources', function()
    M.sources()
  end, { nargs = 0, desc = 'mrpvm: pick a source of the last answer (vim.ui.select)' })
  cmd('MrpIngest', function(o)
    M.ingest(o.args)
  end, { nargs = '?', complete = 'file', desc = 'mrpvm: re-ingest the workspace or one file' })
  cmd('MrpPlugins', function()
    M.plugins()
  end, { nargs = 0, desc = 'mrpvm: list plugins' })
  cmd('MrpTrace', function(o)
    M.trace(o.args)
  end, { nargs = '?', desc = 'mrpvm: show the trace of the last (or given) request' })
  cmd('MrpKb', function(o)
    local action, name = o.fargs[1], o.fargs[2]
    M.kb(action, name)
  end, {
    nargs = '+',
    complete = function(lead, line)
      local n = #vim.split(vim.trim(line), '%s+')
      if n == 1 or (n == 2 and lead ~= '') then
        return vim.tbl_filter(function(a)
          return a:sub(1, #lead) == lead
        end, M.kb_actions)
      end
      return {}
    end,
    desc = 'mrpvm: save|load|fork {name} a knowledge base',
  })
  cmd('MrpStats', function()
    M.stats()
  end, { nargs = 0, desc = 'mrpvm: knowledge base statistics' })
  cmd('MrpLog', function()
    vim.cmd('split ' .. vim.fn.fnameescape(vim.lsp.get_log_path()))
  end, { nargs = 0, desc = 'mrpvm: open the LSP log (server stderr goes there)' })
end

--- Configures the client: see :help mrpvm-setup.
--- Runs the server's "Ask about the selection" and "Explain …" code
--- actions: {question?, context?}; without a question it asks for one.
function M.ask_about(arg)
  arg = type(arg) == 'table' and arg or {}
  if arg.question and arg.question ~= '' then
    M.ask(arg.question, { context = arg.context })
    return
  end
  vim.ui.input({ prompt = 'Ask about the selection: ' }, function(q)
    if q and vim.trim(q) ~= '' then
      M.ask(q, { context = arg.context })
    end
  end)
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts or {})
  vim.lsp.commands['mrpvm.ui.askAbout'] = function(command)
    M.ask_about(command.arguments and command.arguments[1])
  end
  if opts and opts.filetypes then
    M.config.filetypes = opts.filetypes
  end
  if opts and opts.root_markers then
    M.config.root_markers = opts.root_markers
  end
  if opts and opts.cmd then
    M.config.cmd = opts.cmd
  end
  M.create_commands()
  local group = vim.api.nvim_create_augroup('mrpvm', { clear = true })
  if not M.config.autostart then
    state.setup_done = true
    return
  end
  if vim.lsp.config and vim.lsp.enable and not M.config.force_start then
    -- Neovim 0.11+: merged with lsp/mrpvm.lua from the runtimepath.
    local c = M.client_config(nil)
    c.workspace_folders = nil
    c.root_dir = function(bufnr, on_dir)
      local name = vim.api.nvim_buf_get_name(bufnr)
      on_dir(M.find_root(name ~= '' and name or nil))
    end
    c.filetypes = M.config.filetypes
    c.root_markers = M.config.root_markers
    vim.lsp.config(NAME, c)
    vim.lsp.enable(NAME)
  else
    vim.api.nvim_create_autocmd('FileType', {
      group = group,
      pattern = M.config.filetypes,
      callback = function(a)
        M.attach(a.buf)
      end,
      desc = 'mrpvm: start the language server',
    })
    -- buffers already open when setup runs.
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(b) and vim.tbl_contains(M.config.filetypes, vim.bo[b].filetype) then
        M.attach(b)
      end
    end
  end
  state.setup_done = true
end

return M
