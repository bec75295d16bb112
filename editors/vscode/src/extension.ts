// The MRP-VM extension: starts `mrpvm lsp` through vscode-languageclient and
// adds the palette commands (ids mrpvm.ui.*, because the language client
// registers the server's own command ids mrpvm.ask, mrpvm.ingest, ... as VS
// Code commands), the answer view with clickable sources, the trace and
// plugin tables, a status bar item with ingest progress and KB size, the
// @mrpvm chat participant and the mrpvm_ask / mrpvm_search language model
// tools. The server starts only in a workspace with a .mrpvm folder, when
// mrpvm.enable is set, or on the first command, chat request or tool call.
import * as crypto from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';

import * as vscode from 'vscode';
import {
  ClientCapabilities,
  DynamicFeature,
  FeatureState,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
  StaticFeature,
  TransportKind,
  WorkDoneProgress,
  WorkDoneProgressCreateRequest,
} from 'vscode-languageclient/node';

import { shouldStartServer } from './activation';
import { askToolText, ChatOut, ChatState, handleChatRequest, searchToolText } from './chat';
import {
  AskArgs,
  AskResult,
  errorMessage,
  executeCommand,
  IngestReport,
  KBAction,
  KBResult,
  KBStats,
  PluginDescriptor,
  SearchArgs,
  SearchHit,
  ServerCommands,
  Trace,
  validateKBName,
} from './protocol';
import {
  AnswerSource,
  answerHtml,
  answerMeta,
  answerSources,
  escapeHtml,
  ingestSummary,
  markdownPageHtml,
  pluginsMarkdown,
  ProgressState,
  statusText,
  statusTooltip,
  stripSourceList,
  traceMarkdown,
  partialNote,
} from './render';
import { apiKeySecret, resolveServerPath, serverArgs, serverEnv, ServerNotFoundError, serverSection, ServerSettings } from './server';

let ext: Extension | undefined;

/** Receives the server's window/workDoneProgress/create tokens. */
type ProgressCreate = (token: string | number) => void;

/**
 * Owns work-done progress in place of the client's built-in
 * ProgressFeature, so that every token the server creates, from the very
 * first ingest after initialize on, drives the status bar as well as a
 * window progress indicator.
 */
class OwnProgressFeature implements StaticFeature {
  constructor(private readonly client: MrpvmClient) {}
  getState(): FeatureState {
    return { kind: 'static' };
  }
  fillClientCapabilities(caps: ClientCapabilities): void {
    caps.window = { ...(caps.window ?? {}), workDoneProgress: true };
  }
  initialize(): void {
    this.client.onRequest(WorkDoneProgressCreateRequest.type, ({ token }) => {
      this.client.progressCreate?.(token);
    });
  }
  clear(): void {}
}

/** A LanguageClient whose work-done progress the extension handles. */
class MrpvmClient extends LanguageClient {
  // Set after construction; the features registered by the base constructor
  // read it only when the server creates a token.
  progressCreate: ProgressCreate | undefined;

  override registerFeature(feature: StaticFeature | DynamicFeature<unknown>): void {
    if (feature.constructor?.name === 'ProgressFeature') {
      super.registerFeature(new OwnProgressFeature(this));
      return;
    }
    super.registerFeature(feature);
  }
}

/**
 * Activates the extension: registers the commands, the chat participant
 * and the tools, and starts the server when the workspace asks for it.
 */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  ext = new Extension(context);
  ext.registerCommands();
  ext.registerChat();
  if (await ext.wantsServer()) await ext.start();
}

/** Stops the server. */
export async function deactivate(): Promise<void> {
  await ext?.stop();
  ext = undefined;
}

class Extension {
  private client: LanguageClient | undefined;
  private readonly output: vscode.OutputChannel;
  private readonly status: vscode.StatusBarItem;
  private readonly progress = new Map<string, ProgressState>();
  private stats: KBStats | undefined;
  private sessionId: string | undefined;
  private lastQuestion = '';
  private answerPanel: vscode.WebviewPanel | undefined;
  private answerSources: AnswerSource[] = [];
  private readonly panels = new Map<string, vscode.WebviewPanel>();

  constructor(private readonly context: vscode.ExtensionContext) {
    this.output = vscode.window.createOutputChannel('MRP-VM');
    this.status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 10);
    this.status.command = 'mrpvm.ui.stats';
    context.subscriptions.push(this.output, this.status);
    context.subscriptions.push(
      vscode.workspace.onDidChangeConfiguration(async (e) => {
        if (
          e.affectsConfiguration('mrpvm.server.path') ||
          e.affectsConfiguration('mrpvm.dbPath') ||
          e.affectsConfiguration('mrpvm.languages') ||
          e.affectsConfiguration('mrpvm.llm') ||
          e.affectsConfiguration('mrpvm.plugins') ||
          e.affectsConfiguration('mrpvm.hover') ||
          e.affectsConfiguration('mrpvm.askWaitMs') ||
          e.affectsConfiguration('mrpvm.exclude')
        ) {
          if (this.client) await this.restart();
        }
        if (e.affectsConfiguration('mrpvm.enable') && !this.client && (await this.wantsServer())) await this.start();
      }),
    );
  }

  /** Whether the server starts with the window: see shouldStartServer. */
  async wantsServer(): Promise<boolean> {
    const enabled = vscode.workspace.getConfiguration('mrpvm').get<boolean>('enable', false);
    let hasMrpvmFolder = false;
    for (const f of vscode.workspace.workspaceFolders ?? []) {
      try {
        const st = await vscode.workspace.fs.stat(vscode.Uri.joinPath(f.uri, '.mrpvm'));
        if (st.type & vscode.FileType.Directory) hasMrpvmFolder = true;
      } catch {
        // no .mrpvm folder here.
      }
    }
    return shouldStartServer({ enabled, hasMrpvmFolder, folders: this.folders().length });
  }

  /** Starts the server when it is not running; returns the client or undefined. */
  private async ensure(): Promise<LanguageClient | undefined> {
    if (!this.client) await this.start();
    return this.client && this.client.state === State.Running ? this.client : undefined;
  }

  /** Registers the @mrpvm chat participant and the language model tools. */
  registerChat(): void {
    const state: ChatState = {};
    const participant = vscode.chat.createChatParticipant('mrpvm.chat', async (request, _ctx, stream, token) => {
      const client = await this.ensure();
      if (!client) {
        const msg = 'the language server is not running (see **MRP-VM: Show Server Log**)';
        stream.markdown(`**MRP-VM:** ${msg}`);
        return { errorDetails: { message: msg } };
      }
      const out: ChatOut = {
        progress: (m) => stream.progress(m),
        markdown: (md) => stream.markdown(md),
        anchor: (src) => stream.anchor(new vscode.Location(vscode.Uri.file(src.file!), new vscode.Position(src.line - 1, src.column - 1)), src.label),
        reference: (src) =>
          stream.reference(new vscode.Location(vscode.Uri.file(src.file!), new vscode.Range(src.line - 1, 0, src.endLine - 1, 0))),
      };
      const outcome = await handleChatRequest(
        request,
        {
          ask: (args) => client.sendRequest<AskResult>('workspace/executeCommand', { command: ServerCommands.ask, arguments: [args] }, token),
          folders: this.folders(),
          isCancelled: () => token.isCancellationRequested,
        },
        out,
        state,
      );
      return { metadata: outcome, errorDetails: outcome.error ? { message: outcome.error } : undefined };
    });
    participant.iconPath = new vscode.ThemeIcon('book');
    this.context.subscriptions.push(participant);

    // Each tool sends its own server command: mrpvm_ask an answer
    // (mrpvm.ask), mrpvm_search a ranking (mrpvm.search).
    type Run = (client: LanguageClient, text: string, token: vscode.CancellationToken) => Promise<string>;
    const tool = (name: string, verb: string, run: Run): vscode.Disposable =>
      vscode.lm.registerTool<{ question?: string; query?: string }>(name, {
        prepareInvocation: (options) => ({ invocationMessage: `MRP-VM: ${verb} "${options.input.question ?? options.input.query ?? ''}"` }),
        invoke: async (options, token) => {
          const text = (options.input.question ?? options.input.query ?? '').trim();
          if (text === '') throw new Error('MRP-VM: the question is empty');
          const client = await this.ensure();
          if (!client) throw new Error('MRP-VM: the language server is not running');
          return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(await run(client, text, token))]);
        },
      });
    const askTool: Run = async (client, question, token) => {
      const args: AskArgs = { question };
      const resp = await client.sendRequest<AskResult>('workspace/executeCommand', { command: ServerCommands.ask, arguments: [args] }, token);
      return askToolText(resp, this.folders());
    };
    const searchTool: Run = async (client, query, token) => {
      const args: SearchArgs = { query };
      const hits = await client.sendRequest<SearchHit[]>('workspace/executeCommand', { command: ServerCommands.search, arguments: [args] }, token);
      return searchToolText(hits, this.folders());
    };
    this.context.subscriptions.push(tool('mrpvm_ask', 'asking the knowledge base', askTool), tool('mrpvm_search', 'searching the knowledge base for', searchTool));
  }

  registerCommands(): void {
    const reg = (id: string, fn: () => unknown) =>
      this.context.subscriptions.push(vscode.commands.registerCommand(id, fn));
    reg('mrpvm.ui.ask', () => this.ask());
    // Run by the server's "Ask about the selection" and "Explain …" code actions.
    this.context.subscriptions.push(
      vscode.commands.registerCommand('mrpvm.ui.askAbout', (arg?: { question?: string; context?: string }) =>
        this.ask(arg?.question, arg?.context),
      ),
    );
    reg('mrpvm.ui.ingest', () => this.ingest());
    reg('mrpvm.ui.plugins', () => this.showPlugins());
    reg('mrpvm.ui.trace', () => this.showTrace());
    reg('mrpvm.ui.kbSave', () => this.kb('save'));
    reg('mrpvm.ui.kbLoad', () => this.kb('load'));
    reg('mrpvm.ui.kbFork', () => this.kb('fork'));
    reg('mrpvm.ui.stats', () => this.showStats());
    reg('mrpvm.ui.setApiKey', () => this.setApiKey());
    reg('mrpvm.ui.clearApiKey', () => this.clearApiKey());
    reg('mrpvm.ui.restart', () => this.restart());
    reg('mrpvm.ui.showLog', () => this.showLog());
  }

  private folders(): string[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  }

  private serverLogFile(): string {
    return path.join(this.context.logUri.fsPath, 'server.log');
  }

  private async settings(): Promise<ServerSettings> {
    const cfg = vscode.workspace.getConfiguration('mrpvm');
    await vscode.workspace.fs.createDirectory(this.context.logUri);
    return {
      dbPath: cfg.get<string>('dbPath', ''),
      llmEndpoint: cfg.get<string>('llm.endpoint', ''),
      llmModel: cfg.get<string>('llm.model', ''),
      apiKey: await this.context.secrets.get(apiKeySecret),
      logFile: this.serverLogFile(),
      plugins: cfg.inspect<Record<string, boolean>>('plugins')?.globalValue,
      hover: cfg.get<string>('hover', 'terms'),
      askWaitMs: cfg.get<number>('askWaitMs', 3000),
      exclude: cfg.get<string[]>('exclude', []),
    };
  }

  /** Starts the language server; problems are shown, not thrown. */
  async start(): Promise<void> {
    const cfg = vscode.workspace.getConfiguration('mrpvm');
    const folder = this.folders()[0];
    let command: string;
    try {
      command = resolveServerPath({
        setting: cfg.get<string>('server.path', ''),
        env: process.env,
        platform: process.platform,
        workspaceFolder: folder,
        homeDir: os.homedir(),
      }).path;
    } catch (err) {
      const msg = err instanceof ServerNotFoundError ? err.message : errorMessage(err);
      this.setStatus('$(error) MRP-VM', msg);
      const pick = await vscode.window.showErrorMessage(msg, 'Open Settings');
      if (pick === 'Open Settings') {
        await vscode.commands.executeCommand('workbench.action.openSettings', 'mrpvm.server.path');
      }
      return;
    }
    const s = await this.settings();
    const serverOptions: ServerOptions = {
      command,
      args: serverArgs(s, folder),
      transport: TransportKind.stdio,
      options: { env: serverEnv(process.env, s), cwd: folder },
    };
    const languages = cfg.get<string[]>('languages', ['markdown']);
    const clientOptions: LanguageClientOptions = {
      documentSelector: languages.map((language) => ({ scheme: 'file', language })),
      outputChannel: this.output,
      initializationOptions: serverSection(s, folder),
      middleware: {
        workspace: {
          // Answer the server's settings pull with what it understands,
          // paths expanded, rather than the raw VS Code section.
          configuration: (params) => params.items.map((item) => (item.section === 'mrpvm' ? serverSection(s, folder) : null)),
        },
      },
    };
    const client = new MrpvmClient('mrpvm', 'MRP-VM', serverOptions, clientOptions);
    client.progressCreate = (token) => this.trackProgress(client, token);
    this.client = client;
    this.setStatus('$(sync~spin) MRP-VM', 'MRP-VM: starting');
    try {
      await client.start();
    } catch (err) {
      this.setStatus('$(error) MRP-VM', `MRP-VM failed to start: ${errorMessage(err)}`);
      void vscode.window.showErrorMessage(`MRP-VM: the server failed to start: ${errorMessage(err)}`, 'Show Log').then((p) => {
        if (p) this.showLog();
      });
      return;
    }
    client.onDidChangeState((e) => {
      if (e.newState === State.Stopped) this.setStatus('$(error) MRP-VM', 'MRP-VM: server stopped');
    });
    await this.refreshStats();
  }

  async stop(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    this.progress.clear();
    if (c) {
      try {
        await c.stop(5000);
      } catch (err) {
        this.output.appendLine(`stopping the server: ${errorMessage(err)}`);
      }
    }
  }

  async restart(): Promise<void> {
    await this.stop();
    this.sessionId = undefined;
    await this.start();
  }

  private trackProgress(client: LanguageClient, token: string | number): void {
    const key = String(token);
    let resolveDone: () => void = () => undefined;
    const done = new Promise<void>((r) => (resolveDone = r));
    let report: ((v: { message?: string; increment?: number }) => void) | undefined;
    let last = 0;
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'MRP-VM' }, (p) => {
      report = (v) => p.report(v);
      return done;
    });
    const sub = client.onProgress(WorkDoneProgress.type, token, (v) => {
      const st = this.progress.get(key) ?? {};
      if (v.kind === 'begin') {
        Object.assign(st, { title: v.title, message: v.message, percentage: v.percentage });
      } else if (v.kind === 'report') {
        if (v.message !== undefined) st.message = v.message;
        if (v.percentage !== undefined) st.percentage = v.percentage;
      }
      if (v.kind === 'end') {
        const wasIngest = /ingest/i.test(st.title ?? '');
        this.progress.delete(key);
        sub.dispose();
        resolveDone();
        if (wasIngest) void this.refreshStats();
        else this.updateStatus();
        return;
      }
      this.progress.set(key, st);
      const pct = st.percentage ?? last;
      report?.({ message: [st.title, st.message].filter(Boolean).join(' '), increment: pct - last });
      last = pct;
      this.updateStatus();
    });
  }

  private setStatus(text: string, tooltip: string): void {
    this.status.text = text;
    this.status.tooltip = tooltip;
    this.status.show();
  }

  private updateStatus(): void {
    const p = [...this.progress.values()][0];
    this.setStatus(statusText(p, this.stats), statusTooltip(p, this.stats));
  }

  private async refreshStats(): Promise<void> {
    if (!this.client) return;
    try {
      this.stats = await executeCommand<KBStats>(this.client, ServerCommands.stats, {});
    } catch (err) {
      this.output.appendLine(`mrpvm.stats: ${errorMessage(err)}`);
    }
    this.updateStatus();
  }

  /** Returns the running client, or shows why there is none. */
  private ready(): LanguageClient | undefined {
    if (this.client && this.client.state === State.Running) return this.client;
    void vscode.window.showErrorMessage('MRP-VM: the language server is not running.', 'Restart', 'Show Log').then((p) => {
      if (p === 'Restart') void this.restart();
      if (p === 'Show Log') this.showLog();
    });
    return undefined;
  }

  private async run<R>(title: string, command: string, arg: object, location = vscode.ProgressLocation.Window): Promise<R | undefined> {
    if (!this.client) await this.start();
    const client = this.ready();
    if (!client) return undefined;
    try {
      return await vscode.window.withProgress({ location, title, cancellable: location === vscode.ProgressLocation.Notification }, (_p, token) =>
        client.sendRequest<R>('workspace/executeCommand', { command, arguments: [arg] }, token),
      );
    } catch (err) {
      void vscode.window.showErrorMessage(`MRP-VM: ${command} failed: ${errorMessage(err)}`);
      return undefined;
    }
  }

  async ask(preset?: string, context?: string): Promise<void> {
    const question = preset ?? await vscode.window.showInputBox({
      title: 'MRP-VM: Ask a Question',
      prompt: this.sessionId ? `Continues session ${this.sessionId}` : 'Answered from the workspace knowledge base',
      placeHolder: 'How do I …?',
      value: '',
      ignoreFocusOut: true,
    });
    if (!question || question.trim() === '') return;
    this.lastQuestion = question.trim();
    const arg: { question: string; sessionId?: string; context?: string; preferences?: Record<string, string> } = { question: this.lastQuestion };
    if (this.sessionId) arg.sessionId = this.sessionId;
    const prefs = vscode.workspace.getConfiguration('mrpvm').get<Record<string, string>>('preferences', {});
    if (prefs && Object.keys(prefs).length > 0) arg.preferences = prefs;
    if (context) arg.context = context;
    const resp = await this.run<AskResult>('MRP-VM: thinking…', ServerCommands.ask, arg, vscode.ProgressLocation.Notification);
    if (!resp) return;
    if (resp.sessionId) this.sessionId = resp.sessionId;
    await this.showAnswer(this.lastQuestion, resp);
  }

  private async renderMarkdown(md: string): Promise<string> {
    try {
      const html = await vscode.commands.executeCommand<string>('markdown.api.render', md);
      if (typeof html === 'string') return html;
    } catch (err) {
      this.output.appendLine(`markdown.api.render: ${errorMessage(err)}`);
    }
    return `<pre>${escapeHtml(md)}</pre>`;
  }

  private viewColumn(): vscode.ViewColumn {
    const beside = vscode.workspace.getConfiguration('mrpvm').get<boolean>('answer.openBeside', true);
    return beside ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
  }

  private async showAnswer(question: string, resp: AskResult): Promise<void> {
    if (!this.answerPanel) {
      this.answerPanel = vscode.window.createWebviewPanel(
        'mrpvm.answer',
        'MRP-VM Answer',
        { viewColumn: this.viewColumn(), preserveFocus: true },
        { enableScripts: true, localResourceRoots: [], enableFindWidget: true },
      );
      this.answerPanel.onDidDispose(() => (this.answerPanel = undefined));
      this.answerPanel.webview.onDidReceiveMessage((m: { type?: string; index?: number }) => {
        if (m.type === 'open' && typeof m.index === 'number') void this.openSource(m.index);
      });
    }
    this.answerSources = answerSources(resp, this.folders());
    const panel = this.answerPanel;
    panel.title = `MRP-VM: ${question.length > 40 ? question.slice(0, 39) + '…' : question}`;
    panel.webview.html = answerHtml({
      question,
      answerHtml: await this.renderMarkdown(
        (this.answerSources.length > 0 ? stripSourceList(resp.answerMarkdown || '') : resp.answerMarkdown) || '_No answer._',
      ),
      sources: this.answerSources,
      meta: answerMeta(resp),
      hint: resp.hint,
      partial: partialNote(resp),
      cspSource: panel.webview.cspSource,
      nonce: crypto.randomBytes(16).toString('base64'),
    });
    panel.reveal(undefined, true);
  }

  private async openSource(index: number): Promise<void> {
    const s = this.answerSources.find((x) => x.index === index);
    if (!s?.file) return;
    const start = new vscode.Position(s.line - 1, s.column - 1);
    try {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(s.file));
      await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, selection: new vscode.Range(start, start) });
    } catch (err) {
      void vscode.window.showErrorMessage(`MRP-VM: cannot open ${s.label}: ${errorMessage(err)}`);
    }
  }

  private async showPage(id: string, title: string, markdown: string): Promise<void> {
    let panel = this.panels.get(id);
    if (!panel) {
      panel = vscode.window.createWebviewPanel(id, title, { viewColumn: this.viewColumn(), preserveFocus: true }, { enableFindWidget: true });
      this.panels.set(id, panel);
      panel.onDidDispose(() => this.panels.delete(id));
    }
    panel.title = title;
    panel.webview.html = markdownPageHtml(title, await this.renderMarkdown(markdown), panel.webview.cspSource);
    panel.reveal(undefined, true);
  }

  async ingest(): Promise<void> {
    const rep = await this.run<IngestReport>('MRP-VM: ingesting', ServerCommands.ingest, {});
    if (!rep) return;
    const problems = rep.errors ?? [];
    if (problems.length > 0) {
      this.output.appendLine(`ingest: ${problems.length} problem(s)`);
      for (const p of problems) this.output.appendLine(`  ${p.path}: ${p.code}: ${p.message}`);
      void vscode.window.showWarningMessage(ingestSummary(rep), 'Show Problems').then((p) => {
        if (p) this.output.show(true);
      });
    } else {
      void vscode.window.showInformationMessage(ingestSummary(rep));
    }
    await this.refreshStats();
  }

  async showPlugins(): Promise<void> {
    const list = await this.run<PluginDescriptor[]>('MRP-VM: plugins', ServerCommands.plugins, {});
    if (list) await this.showPage('mrpvm.plugins', 'MRP-VM Plugins', pluginsMarkdown(list));
  }

  async showTrace(): Promise<void> {
    const trace = await this.run<Trace>('MRP-VM: trace', ServerCommands.trace, {});
    if (trace) await this.showPage('mrpvm.trace', `MRP-VM Trace ${trace.requestId}`, traceMarkdown(trace));
  }

  async kb(action: KBAction): Promise<void> {
    const verbs = { save: 'Save the knowledge base as', load: 'Load the knowledge base snapshot', fork: 'Fork the knowledge base as' };
    const name = await vscode.window.showInputBox({
      title: `MRP-VM: KB ${action[0].toUpperCase()}${action.slice(1)}`,
      prompt: `${verbs[action]} (a name: letters, digits, ".", "_", "-")`,
      validateInput: validateKBName,
      ignoreFocusOut: true,
    });
    if (!name) return;
    const res = await this.run<KBResult>(`MRP-VM: KB ${action}`, ServerCommands.kb, { action, name });
    if (!res) return;
    if (action !== 'save') this.sessionId = undefined;
    void vscode.window.showInformationMessage(`MRP-VM: KB ${action} "${res.name ?? name}" — ${res.path ?? ''}`);
    await this.refreshStats();
  }

  async showStats(): Promise<void> {
    if (!this.client) await this.start();
    await this.refreshStats();
    if (!this.stats) return;
    const s = this.stats;
    void vscode.window.showInformationMessage(`MRP-VM: ${s.sources} sources, ${s.kus} KUs — ${statusTooltip(undefined, s).split('\n')[1]}`);
  }

  async setApiKey(): Promise<void> {
    const key = await vscode.window.showInputBox({
      title: 'MRP-VM: LLM API Key',
      prompt: 'Kept in VS Code secret storage and given to the server as MRPVM_LLM_API_KEY.',
      password: true,
      ignoreFocusOut: true,
    });
    if (key === undefined) return;
    await this.context.secrets.store(apiKeySecret, key.trim());
    void vscode.window.showInformationMessage('MRP-VM: API key stored; restarting the server.');
    await this.restart();
  }

  async clearApiKey(): Promise<void> {
    await this.context.secrets.delete(apiKeySecret);
    void vscode.window.showInformationMessage('MRP-VM: API key removed; restarting the server.');
    await this.restart();
  }

  showLog(): void {
    this.output.show(true);
    void vscode.workspace.openTextDocument(vscode.Uri.file(this.serverLogFile())).then(
      (doc) => vscode.window.showTextDocument(doc, { preview: true }),
      () => this.output.appendLine(`no server log yet at ${this.serverLogFile()}`),
    );
  }
}
