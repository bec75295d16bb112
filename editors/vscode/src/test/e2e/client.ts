// A protocol-level stand-in for VS Code's language client: it starts the
// real `mrpvm lsp` and talks to it with vscode-languageserver-protocol (the
// library vscode-languageclient is built on), announcing the capabilities
// VS Code announces and answering the server's requests the way VS Code does.
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

import {
  ClientCapabilities,
  ConfigurationRequest,
  createProtocolConnection,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  InitializeResult,
  LogMessageNotification,
  ProtocolConnection,
  RegistrationRequest,
  ShowMessageNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  WorkDoneProgress,
  WorkDoneProgressBegin,
  WorkDoneProgressCreateRequest,
  WorkDoneProgressEnd,
  WorkDoneProgressReport,
} from 'vscode-languageserver-protocol/node';

import { serverSection } from '../../server';

/** The workspace the editor tests use (test/editors/workspace in the repo). */
export const repoWorkspace = path.resolve(__dirname, '..', '..', '..', '..', '..', 'test', 'editors', 'workspace');

/** One $/progress token's life as the client saw it. */
export interface ProgressLog {
  token: string;
  created: boolean;
  values: (WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd)[];
}

/** A running server with a connection to it. */
export class Session {
  readonly conn: ProtocolConnection;
  readonly proc: ChildProcess;
  readonly progress = new Map<string, ProgressLog>();
  readonly messages: { type: number; message: string }[] = [];
  readonly registrations: string[] = [];
  stderr = '';
  private exitCode: Promise<number | null>;
  private progressListeners: (() => void)[] = [];

  constructor(
    readonly bin: string,
    readonly dir: string, // temporary folder: ws/, kb.db, data/
    readonly ws: string,
  ) {
    this.proc = spawn(bin, ['lsp', '--db', path.join(dir, 'kb.db'), '--log', path.join(dir, 'server.log')], {
      cwd: ws,
      env: { ...process.env, XDG_DATA_HOME: path.join(dir, 'data'), XDG_CACHE_HOME: path.join(dir, 'cache'), XDG_CONFIG_HOME: path.join(dir, 'config') },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.proc.stderr!.on('data', (b: Buffer) => (this.stderr += b.toString()));
    this.exitCode = new Promise((resolve) => this.proc.on('exit', (code) => resolve(code)));
    this.conn = createProtocolConnection(new StreamMessageReader(this.proc.stdout!), new StreamMessageWriter(this.proc.stdin!));
    this.conn.onRequest(WorkDoneProgressCreateRequest.type, ({ token }) => {
      const key = String(token);
      this.progress.set(key, { token: key, created: true, values: [] });
      this.conn.onProgress(WorkDoneProgress.type, token, (v) => {
        this.progress.get(key)!.values.push(v);
        for (const l of this.progressListeners) l();
      });
      return null;
    });
    // What the extension's configuration middleware answers (serverSection).
    const section = serverSection({ dbPath: path.join(dir, 'kb.db'), llmEndpoint: '', llmModel: '' }, ws);
    this.conn.onRequest(ConfigurationRequest.type, (p) => p.items.map((it) => (it.section === 'mrpvm' ? section : null)));
    this.conn.onRequest(RegistrationRequest.type, (p) => {
      for (const r of p.registrations) this.registrations.push(r.method);
      return null;
    });
    this.conn.onNotification(ShowMessageNotification.type, (m) => this.messages.push(m));
    this.conn.onNotification(LogMessageNotification.type, () => undefined);
    this.conn.listen();
  }

  /** The capabilities VS Code 1.82+ announces that the server acts on. */
  static capabilities(): ClientCapabilities {
    return {
      window: { workDoneProgress: true, showMessage: { messageActionItem: { additionalPropertiesSupport: true } } },
      workspace: {
        configuration: true,
        workspaceFolders: true,
        didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
        executeCommand: { dynamicRegistration: true },
        symbol: { dynamicRegistration: true },
      },
      textDocument: {
        synchronization: { dynamicRegistration: true, didSave: true, willSave: true },
        hover: { dynamicRegistration: true, contentFormat: ['markdown', 'plaintext'] },
        documentSymbol: { hierarchicalDocumentSymbolSupport: true },
        definition: { linkSupport: true },
      },
    };
  }

  /** Sends initialize and initialized for the workspace folder. */
  async initialize(): Promise<InitializeResult> {
    const uri = pathToFileURL(this.ws).href;
    const res = await this.conn.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      clientInfo: { name: 'Visual Studio Code (protocol test)', version: '1.82.0' },
      rootUri: uri,
      workspaceFolders: [{ uri, name: path.basename(this.ws) }],
      capabilities: Session.capabilities(),
      initializationOptions: {},
    });
    await this.conn.sendNotification(InitializedNotification.type, {});
    return res;
  }

  /** Resolves when some progress token titled like title has ended. */
  waitProgressEnd(title: RegExp, ms: number): Promise<ProgressLog> {
    return new Promise((resolve, reject) => {
      const check = () => {
        for (const p of this.progress.values()) {
          const begin = p.values.find((v) => v.kind === 'begin') as WorkDoneProgressBegin | undefined;
          if (begin && title.test(begin.title) && p.values.some((v) => v.kind === 'end')) {
            clearTimeout(timer);
            this.progressListeners = this.progressListeners.filter((l) => l !== check);
            resolve(p);
            return true;
          }
        }
        return false;
      };
      const timer = setTimeout(() => {
        this.progressListeners = this.progressListeners.filter((l) => l !== check);
        reject(new Error(`no ended progress matching ${title} in ${ms} ms; saw ${JSON.stringify([...this.progress.values()])}`));
      }, ms);
      if (!check()) this.progressListeners.push(check);
    });
  }

  /** Opens a workspace file in the server (textDocument/didOpen). */
  async open(rel: string): Promise<string> {
    const file = path.join(this.ws, rel);
    const uri = pathToFileURL(file).href;
    await this.conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'markdown', version: 1, text: fs.readFileSync(file, 'utf8') },
    });
    return uri;
  }

  /** Sends shutdown and exit; returns the exit status. */
  async close(): Promise<number | null> {
    try {
      await this.conn.sendRequest(ShutdownRequest.type);
      await this.conn.sendNotification(ExitNotification.type);
    } catch {
      // the process is already gone; its status says why.
    }
    const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 10000).unref());
    const code = await Promise.race([this.exitCode, timeout]);
    this.conn.dispose();
    if (code === 'timeout') {
      this.proc.kill('SIGKILL');
      throw new Error('the server did not exit within 10 s of exit');
    }
    return code;
  }
}

/** Copies the test workspace to a fresh temporary folder and starts a server on it. */
export function startSession(bin: string): Session {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mrpvm-vscode-e2e-'));
  const ws = path.join(dir, 'ws');
  fs.cpSync(repoWorkspace, ws, { recursive: true });
  fs.mkdirSync(path.join(ws, '.mrpvm'));
  return new Session(bin, dir, fs.realpathSync(ws));
}

/** Removes a session's temporary folder. */
export function cleanup(s: Session): void {
  fs.rmSync(s.dir, { recursive: true, force: true });
}
