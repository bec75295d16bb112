-- :checkhealth mrpvm — the server binary and its version, the running
-- clients, the knowledge base of each, and the LLM endpoint the editor
-- passes to the server (or finds in the environment). Works with the
-- report_* API of Neovim 0.7-0.9 and the vim.health.* API of 0.10+.
local M = {}

local function reporter()
  local h = vim.health
  if type(h) ~= 'table' or (h.start == nil and h.report_start == nil) then
    h = require('health')
  end
  return {
    start = h.start or h.report_start,
    ok = h.ok or h.report_ok,
    info = h.info or h.report_info,
    warn = h.warn or h.report_warn,
    error = h.error or h.report_error,
  }
end

-- The server command as the user configured it: setup{}'s cmd, else a
-- vim.lsp.config('mrpvm') entry (0.11+), else a running client's.
local function server_cmd(mrpvm)
  local cmd
  if mrpvm._state.setup_done then
    cmd = mrpvm.server_cmd()
  elseif vim.lsp.config then
    local ok, c = pcall(function()
      return vim.lsp.config.mrpvm
    end)
    if ok and type(c) == 'table' and type(c.cmd) == 'table' then
      cmd = c.cmd
    end
  end
  if not cmd then
    for _, c in ipairs(mrpvm.clients()) do
      if type(c.config.cmd) == 'table' then
        cmd = c.config.cmd
        break
      end
    end
  end
  return cmd or mrpvm.server_cmd()
end

--- Runs argv and returns its trimmed standard output and exit status
--- (vim.fn.system: present on every supported Neovim).
local function run(argv)
  local out = vim.fn.system(argv)
  return vim.trim(out or ''), vim.v.shell_error
end

--- Returns the version line of the binary: `--version`, else the
--- `version` subcommand, else nil.
function M.binary_version(exe)
  for _, args in ipairs({ { '--version' }, { 'version' } }) do
    local argv = { exe }
    vim.list_extend(argv, args)
    local out, code = run(argv)
    if code == 0 and out ~= '' then
      return vim.split(out, '\n', { plain = true })[1]
    end
  end
  return nil
end

-- Sources of the LLM endpoint, in the order the server applies them: the
-- editor's llm setting, then the server's environment.
local env_keys = { 'MRPVM_LLM_BASE_URL', 'OPENAI_BASE_URL', 'OLLAMA_HOST' }

--- Returns the endpoint URL the server is given and where it came from,
--- or nil when none is configured. cfg is require('mrpvm').config.
function M.llm_endpoint(cfg, getenv)
  getenv = getenv or os.getenv
  for _, t in ipairs({ cfg.init_options, cfg.settings }) do
    local llm = type(t) == 'table' and t.llm
    if type(llm) == 'table' and type(llm.baseURL) == 'string' and llm.baseURL ~= '' then
      return llm.baseURL, 'the llm setting (init_options/settings)'
    end
  end
  local env = type(cfg.cmd_env) == 'table' and cfg.cmd_env or {}
  for _, k in ipairs(env_keys) do
    local v = env[k]
    if type(v) == 'string' and v ~= '' then
      return v, 'cmd_env.' .. k
    end
  end
  for _, k in ipairs(env_keys) do
    local v = getenv(k)
    if v and v ~= '' then
      return v, '$' .. k
    end
  end
  return nil
end

--- Splits an endpoint into host and port; OLLAMA_HOST may be a bare
--- host:port. Returns nil for what is not an http(s) address.
function M.host_port(url)
  local scheme, rest = url:match('^(%a[%w+.-]*)://(.*)$')
  if not scheme then
    scheme, rest = 'http', url
  end
  scheme = scheme:lower()
  if scheme ~= 'http' and scheme ~= 'https' then
    return nil
  end
  local authority = rest:match('^([^/?#]*)') or ''
  authority = authority:gsub('^.*@', '')
  local host, port = authority:match('^%[([^%]]+)%]:?(%d*)$')
  if not host then
    host, port = authority:match('^([^:]+):?(%d*)$')
  end
  if not host or host == '' then
    return nil
  end
  port = tonumber(port) or (scheme == 'https' and 443 or 80)
  if url == rest and port == 80 and host and not authority:find(':') then
    port = 11434 -- a bare OLLAMA_HOST name uses Ollama's port.
  end
  return host, port
end

--- Opens a TCP connection to host:port within ms milliseconds. Returns
--- true, or false and the reason. Nothing is sent: a key never leaves.
function M.probe(host, port, ms)
  local uv = vim.loop
  local res, reason
  local addrs = uv.getaddrinfo(host, tostring(port), { socktype = 'stream' })
  if not addrs or #addrs == 0 then
    return false, 'cannot resolve ' .. host
  end
  local tcp = uv.new_tcp()
  tcp:connect(addrs[1].addr, addrs[1].port, function(err)
    res = err == nil
    reason = err
  end)
  vim.wait(ms, function()
    return res ~= nil
  end, 10)
  if not tcp:is_closing() then
    tcp:close()
  end
  if res == nil then
    return false, 'no answer in ' .. ms .. ' ms'
  end
  return res, reason
end

local function human(n)
  n = tonumber(n) or 0
  local units = { 'B', 'KiB', 'MiB', 'GiB' }
  local i = 1
  while n >= 1024 and i < #units do
    n = n / 1024
    i = i + 1
  end
  return (i == 1 and string.format('%d %s', n, units[i])) or string.format('%.1f %s', n, units[i])
end

local function stats_sync(client)
  local params = { command = 'mrpvm.stats', arguments = { vim.empty_dict() } }
  local res
  if vim.fn.has('nvim-0.11') == 1 then
    res = client:request_sync('workspace/executeCommand', params, 5000)
  else
    res = client.request_sync('workspace/executeCommand', params, 5000)
  end
  if not res then
    return nil, 'no answer in 5 s'
  end
  if res.err then
    return nil, res.err.message or vim.inspect(res.err)
  end
  return res.result
end

function M.check()
  local r = reporter()
  local mrpvm = require('mrpvm')

  r.start('mrpvm: server binary')
  local cmd = server_cmd(mrpvm)
  local exe = cmd[1]
  local path = vim.fn.exepath(exe)
  if path == '' then
    r.error('cannot run ' .. exe, {
      'install mrpvm on $PATH (see :help mrpvm-install)',
      "or pass require('mrpvm').setup{ cmd = { '/full/path/mrpvm', 'lsp' } }",
    })
  else
    r.ok('found ' .. path)
    local v = M.binary_version(path)
    if v then
      r.ok('version: ' .. v)
    else
      r.warn('version unknown: neither `mrpvm --version` nor `mrpvm version` answers (an old build?)')
    end
  end

  r.start('mrpvm: language server')
  local clients = mrpvm.clients()
  if #clients == 0 then
    r.warn('no mrpvm client is running', {
      'open a Markdown file of a workspace (a folder holding .mrpvm or .git)',
      "the server starts with require('mrpvm').setup{} or vim.lsp.enable('mrpvm') (0.11+)",
    })
  end
  for _, c in ipairs(clients) do
    local bufs = 0
    for _ in pairs(c.attached_buffers or {}) do
      bufs = bufs + 1
    end
    local info = c.server_info or (c.initialize_result and c.initialize_result.serverInfo)
    local name = type(info) == 'table' and ((info.name or 'mrpvm') .. (info.version and (' ' .. info.version) or '')) or 'mrpvm'
    local root = c.config.root_dir or '?'
    if not c.initialized then
      r.warn(string.format('client %d (%s) for %s has not finished initializing', c.id, name, root))
    else
      r.ok(string.format('client %d attached: %s, workspace %s, %d buffer(s)', c.id, name, root, bufs))
      local st, err = stats_sync(c)
      if st then
        r.ok(string.format('knowledge base %s: %s, %d source(s), %d KUs%s', tostring(st.dbPath or '?'), human(st.dbBytes),
          tonumber(st.sources) or 0, tonumber(st.kus) or 0, st.readOnly and ' (a private copy: another editor holds it)' or ''))
      else
        r.warn('knowledge base: mrpvm.stats failed: ' .. tostring(err))
      end
    end
  end

  r.start('mrpvm: LLM endpoint')
  local url, from = M.llm_endpoint(mrpvm.config)
  if not url then
    r.info('not configured: answers come from the symbolic plugins. Set MRPVM_LLM_BASE_URL and MRPVM_LLM_MODEL '
      .. '(or OPENAI_BASE_URL / OLLAMA_HOST), or init_options = { llm = { baseURL = ..., model = ... } }; '
      .. "a workspace's .mrpvm/llm-role-settings.json is not read here")
    return
  end
  local host, port = M.host_port(url)
  if not host then
    r.error(url .. ' (from ' .. from .. ') is not an http(s) address')
    return
  end
  local ok, why = M.probe(host, port, 2000)
  if ok then
    r.ok(string.format('%s (from %s) is reachable at %s:%d', url, from, host, port))
  else
    r.warn(string.format('%s (from %s) is not reachable: %s', url, from, tostring(why)), {
      'start the model server, or fix the address',
    })
  end
end

return M
