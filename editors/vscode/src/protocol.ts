// The mrpvm server's command contract (workspace/executeCommand), shared by
// the extension and the protocol tests. Nothing here imports vscode, so it
// runs under plain Node too.

/** A 1-based line/column range of a Knowledge Unit in its file (EndLine inclusive). */
export interface KURange {
  startLine: number;
  startCol: number;
  endLine: number;
  endCol: number;
}

/** One source of an answer. */
export interface Evidence {
  kuId: string;
  title: string;
  sourceId: string;
  uri: string;
  range?: KURange;
  score?: number;
}

/** One stage call in a trace (the planner outcome's stages). */
export interface TraceStage {
  plannerPluginId?: string;
  stage: string;
  pluginId: string;
  status: string;
  durationMs?: number;
  ms?: number;
  llmCalls?: number;
  sufficient?: boolean | null;
  model?: string | null;
  modelRole?: string | null;
}

/** The trace of one request. */
export interface Trace {
  requestId: string;
  sessionId: string;
  plannerPluginId?: string;
  plannerAttempts?: string[];
  stages: TraceStage[];
  finalStatus?: string;
  finalAnswerStatus?: string | null;
  frameDepth?: number;
  framePurpose?: string | null;
  question?: string;
  errors?: { stage: number; frameId?: string; code: string; message: string }[];
  notes?: string[];
}

/** The result of mrpvm.ask. */
export interface AskResult {
  requestId: string;
  sessionId: string;
  status: string;
  answerMarkdown: string;
  evidence: Evidence[] | null;
  trace?: Trace | null;
  hint?: string;
  /** Set while the workspace's first ingest runs: files ingested of all. */
  partial?: { files: number; of: number } | null;
}

/** The argument of mrpvm.ask. */
export interface AskArgs {
  question: string;
  sessionId?: string;
  pins?: Record<string, string>;
  folder?: string;
}

/** The result of mrpvm.ingest. */
export interface IngestReport {
  files?: number;
  unchanged?: number;
  pluginSources?: number;
  removed?: number;
  kus?: number;
  errors?: { path: string; code: string; message: string; warning?: boolean }[] | null;
  /** Problems found in the files read (ingested as well as they could be). */
  warnings?: { path: string; line: number; col: number; code: string; message: string }[] | null;
  seconds?: number;
}

/** The result of mrpvm.stats. */
export interface KBStats {
  sources: number;
  kus: number;
  kusByLevel?: Record<string, number>;
  pluginIndexes?: string[];
  dbBytes?: number;
  dbPath?: string;
  readOnly?: boolean;
  folder?: string;
}

/** One entry of mrpvm.plugins: a plugin descriptor plus its catalog state. */
export interface PluginDescriptor {
  id: string;
  type: string;
  name?: string;
  version?: string;
  description?: string;
  costClass?: string;
  usesLLM?: boolean;
  maxLLMCalls?: number;
  enabled?: boolean;
  loaded?: boolean;
  origin?: string;
  ref?: string;
}

/** The result of mrpvm.kb. */
export interface KBResult {
  action: string;
  name: string;
  path: string;
}

/** The KB actions of mrpvm.kb. */
export const kbActions = ['save', 'load', 'fork'] as const;
export type KBAction = (typeof kbActions)[number];

/** Command ids the server implements (registered by the language client). */
export const ServerCommands = {
  ask: 'mrpvm.ask',
  search: 'mrpvm.search',
  ingest: 'mrpvm.ingest',
  plugins: 'mrpvm.plugins',
  trace: 'mrpvm.trace',
  kb: 'mrpvm.kb',
  stats: 'mrpvm.stats',
} as const;

/** The title of the server's ingest progress. */
export const ingestProgressTitle = 'mrpvm: ingest';

/**
 * Anything that can send an LSP request: vscode-languageclient's
 * LanguageClient and vscode-jsonrpc's MessageConnection both fit.
 */
export interface RequestSender {
  sendRequest<R>(method: string, params: unknown): Promise<R>;
}

/**
 * Runs a server command with its single argument object through
 * workspace/executeCommand.
 */
export function executeCommand<R>(conn: RequestSender, command: string, arg: object = {}): Promise<R> {
  return conn.sendRequest<R>('workspace/executeCommand', { command, arguments: [arg] });
}

/** Sends mrpvm.ask. */
export function ask(conn: RequestSender, args: AskArgs): Promise<AskResult> {
  return executeCommand<AskResult>(conn, ServerCommands.ask, args);
}

/** The argument of mrpvm.search. */
export interface SearchArgs {
  query: string;
  /** Hits wanted, 1-1000 (default 10). */
  k?: number;
  /** The kb-plugin that ranks (default kb-balanced). */
  plugin?: string;
  /** One hit per file, scored as its best Knowledge Unit. */
  bySource?: boolean;
  folder?: string;
}

/** One hit of mrpvm.search: the fields of an answer's evidence. */
export type SearchHit = Evidence;

/** Sends mrpvm.search. */
export function search(conn: RequestSender, args: SearchArgs): Promise<SearchHit[]> {
  return executeCommand<SearchHit[]>(conn, ServerCommands.search, args);
}

/** Names that mrpvm.kb accepts. */
export const kbNamePattern = /^[A-Za-z0-9._-]+$/;

/** Returns an error message for a bad snapshot name, or undefined. */
export function validateKBName(name: string): string | undefined {
  if (name.trim() === '') {
    return 'Enter a name.';
  }
  if (!kbNamePattern.test(name)) {
    return 'Use letters, digits, ".", "_" and "-" only.';
  }
  return undefined;
}

/** Returns the error message of a failed request, without the "Request failed" noise. */
export function errorMessage(err: unknown): string {
  if (err && typeof err === 'object' && 'message' in err) {
    return String((err as { message: unknown }).message);
  }
  return String(err);
}
