// How the extension finds and starts the server: the binary from the
// mrpvm.server.path setting, else from PATH; the command line; the
// environment carrying the LLM settings. Pure functions, tested under Node.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Inputs of resolveServerPath. */
export interface ResolveOptions {
  /** The mrpvm.server.path setting ('' : not set). */
  setting: string;
  /** The environment, for PATH (and PATHEXT on Windows). */
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** The first workspace folder, for ${workspaceFolder}. */
  workspaceFolder?: string;
  homeDir?: string;
  /** Whether p is an executable file; defaults to a filesystem check. */
  isExecutable?: (p: string) => boolean;
}

/** Where the server binary was found. */
export interface Resolved {
  path: string;
  from: 'setting' | 'PATH';
}

/** Error thrown when no server binary can be found. */
export class ServerNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ServerNotFoundError';
  }
}

/** Reports whether p is a regular file that may be executed. */
export function defaultIsExecutable(p: string): boolean {
  try {
    const st = fs.statSync(p);
    if (!st.isFile()) return false;
    if (process.platform === 'win32') return true;
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Expands a leading ~ and ${workspaceFolder} / ${userHome} in a setting. */
export function expandSetting(value: string, workspaceFolder: string | undefined, homeDir: string): string {
  let v = value.trim();
  if (v === '~' || v.startsWith('~/') || v.startsWith('~\\')) {
    v = homeDir + v.slice(1);
  }
  v = v.replace(/\$\{userHome\}/g, homeDir);
  if (workspaceFolder !== undefined) {
    v = v.replace(/\$\{workspaceFolder\}/g, workspaceFolder);
  }
  return v;
}

/**
 * Finds the mrpvm binary: the setting when given (relative paths are taken
 * from the workspace folder; it must exist: a wrong setting is an error, not
 * a reason to fall back), else the first `mrpvm` on PATH.
 */
export function resolveServerPath(o: ResolveOptions): Resolved {
  const isExec = o.isExecutable ?? defaultIsExecutable;
  const home = o.homeDir ?? os.homedir();
  const pathApi = o.platform === 'win32' ? path.win32 : path.posix;
  if (o.setting.trim() !== '') {
    let p = expandSetting(o.setting, o.workspaceFolder, home);
    if (p.includes('${workspaceFolder}')) {
      throw new ServerNotFoundError(`mrpvm.server.path uses \${workspaceFolder} but no folder is open: ${o.setting}`);
    }
    if (!pathApi.isAbsolute(p) && o.workspaceFolder) {
      p = pathApi.join(o.workspaceFolder, p);
    }
    const candidates = o.platform === 'win32' && !/\.[a-z]+$/i.test(p) ? [p, p + '.exe'] : [p];
    for (const c of candidates) {
      if (isExec(c)) return { path: c, from: 'setting' };
    }
    throw new ServerNotFoundError(`mrpvm.server.path is set to "${o.setting}" but ${p} is not an executable file.`);
  }
  const envPath = o.platform === 'win32' ? (o.env.Path ?? o.env.PATH ?? '') : (o.env.PATH ?? '');
  const sep = o.platform === 'win32' ? ';' : ':';
  const exts =
    o.platform === 'win32' ? (o.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';').filter(Boolean).map((e) => e.toLowerCase()) : [''];
  for (const dir of envPath.split(sep)) {
    if (dir === '') continue;
    for (const ext of exts) {
      const c = pathApi.join(dir, 'mrpvm' + ext);
      if (isExec(c)) return { path: c, from: 'PATH' };
    }
  }
  throw new ServerNotFoundError(
    'Cannot find the mrpvm binary: set "mrpvm.server.path" or put mrpvm on PATH (go install github.com/mrpvm/mrpvm/cmd/mrpvm@latest).',
  );
}

/** The settings that shape the server process. */
export interface ServerSettings {
  dbPath: string;
  llmEndpoint: string;
  llmModel: string;
  /** From SecretStorage; never written to settings or the command line. */
  apiKey?: string;
  /** A file for the server's own log (--log). */
  logFile?: string;
  /** mrpvm.plugins: plugin id -> enabled, over the configuration files. */
  plugins?: Record<string, boolean>;
  /** mrpvm.hover: terms, links or off. */
  hover?: string;
  /** mrpvm.askWaitMs: how long a question waits for the first ingest. */
  askWaitMs?: number;
  /** mrpvm.exclude: gitignore-style patterns of files never indexed. */
  exclude?: string[];
}

/**
 * The "mrpvm" settings section as the server reads it (initializationOptions
 * and workspace/configuration): only the keys it knows, paths expanded. The
 * LLM endpoint and model go both here and into the environment (serverEnv);
 * the API key only into the environment.
 */
export function serverSection(s: ServerSettings, workspaceFolder: string | undefined, homeDir: string = os.homedir()): ServerSection {
  const out: ServerSection = {};
  if (s.dbPath.trim() !== '') out.dbPath = expandSetting(s.dbPath, workspaceFolder, homeDir);
  const baseURL = s.llmEndpoint.trim();
  const model = s.llmModel.trim();
  if (baseURL !== '' || model !== '') {
    out.llm = {};
    if (baseURL !== '') out.llm.baseURL = baseURL;
    if (model !== '') out.llm.model = model;
    // The key itself stays in the environment; the server is told its name.
    if (s.apiKey) out.llm.apiKeyEnv = 'MRPVM_LLM_API_KEY';
  }
  const plugins = Object.entries(s.plugins ?? {}).filter(([, on]) => typeof on === 'boolean');
  if (plugins.length > 0) out.plugins = Object.fromEntries(plugins);
  if (s.hover === 'terms' || s.hover === 'links' || s.hover === 'off') out.hover = s.hover;
  if (typeof s.askWaitMs === 'number' && s.askWaitMs >= 0) out.askWaitMs = Math.floor(s.askWaitMs);
  const exclude = (s.exclude ?? []).filter((g) => typeof g === 'string' && g.trim() !== '');
  if (exclude.length > 0) out.exclude = exclude;
  return out;
}

/** The settings section the server understands (lsp.Settings). */
export interface ServerSection {
  dbPath?: string;
  /** Laid over the default LLM role (user-scope values only). */
  llm?: { baseURL?: string; model?: string; apiKeyEnv?: string };
  /** Plugin id -> enabled, over the configuration files (user-scope values only). */
  plugins?: Record<string, boolean>;
  hover?: string;
  askWaitMs?: number;
  /** Gitignore-style patterns of files never indexed, over engine.json's exclude. */
  exclude?: string[];
}

/** Builds the server's arguments: lsp [--db FILE] [--log FILE]. */
export function serverArgs(s: ServerSettings, workspaceFolder: string | undefined, homeDir: string = os.homedir()): string[] {
  const args = ['lsp'];
  if (s.dbPath.trim() !== '') {
    args.push('--db', expandSetting(s.dbPath, workspaceFolder, homeDir));
  }
  if (s.logFile) {
    args.push('--log', s.logFile);
  }
  return args;
}

/**
 * Builds the server's environment: the editor's environment plus the LLM
 * settings as MRPVM_LLM_* variables (the engine reads those). An API key
 * from SecretStorage goes into MRPVM_LLM_API_KEY only; with no key, any
 * inherited key stays as it was.
 */
export function serverEnv(base: NodeJS.ProcessEnv, s: ServerSettings): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  if (s.llmEndpoint.trim() !== '') env.MRPVM_LLM_BASE_URL = s.llmEndpoint.trim();
  if (s.llmModel.trim() !== '') env.MRPVM_LLM_MODEL = s.llmModel.trim();
  if (s.apiKey) env.MRPVM_LLM_API_KEY = s.apiKey;
  return env;
}

/** The secret storage key of the LLM API key. */
export const apiKeySecret = 'mrpvm.llm.apiKey';
