// The @mrpvm chat participant's request handling and the language model
// tools' results, kept free of the vscode module: the extension adapts VS
// Code's ChatResponseStream to ChatOut, and the tests drive the same code
// with a recording ChatOut and a real language server.
import { AskArgs, AskResult, errorMessage, SearchHit } from './protocol';
import { AnswerSource, answerMeta, answerSources, stripSourceList } from './render';

/** What the handler writes; VS Code's ChatResponseStream behind it. */
export interface ChatOut {
  progress(message: string): void;
  markdown(md: string): void;
  /** An inline link to a source that lives in a file. */
  anchor(source: AnswerSource): void;
  /** A source in the response's reference list. */
  reference(source: AnswerSource): void;
}

/** The part of a chat request the handler reads. */
export interface ChatRequestLike {
  prompt: string;
  command?: string;
}

/** What the handler needs from the extension. */
export interface ChatDeps {
  /** Sends mrpvm.ask to the running server. */
  ask(args: AskArgs): Promise<AskResult>;
  /** Workspace folders, for relative source ids and labels. */
  folders: readonly string[];
  isCancelled?: () => boolean;
}

/** State kept between requests of one chat: the server session. */
export interface ChatState {
  sessionId?: string;
}

/** What a request ended with (returned as the chat result's metadata). */
export interface ChatOutcome {
  status: string;
  requestId?: string;
  sessionId?: string;
  sources: number;
  error?: string;
}

/** Chat commands the participant declares in package.json. */
export const chatCommands = {
  newSession: 'new',
  sources: 'sources',
} as const;

/**
 * Splits Markdown into the parts the answer is streamed in: paragraphs
 * (blank-line separated), with fenced code blocks kept whole. Each part
 * keeps its trailing blank line so that joining the parts gives the text.
 */
export function markdownParts(md: string): string[] {
  const lines = md.replace(/\r\n/g, '\n').split('\n');
  const parts: string[] = [];
  let cur: string[] = [];
  let fence: string | undefined;
  const flush = () => {
    if (cur.some((l) => l.trim() !== '')) parts.push(cur.join('\n') + '\n\n');
    cur = [];
  };
  for (const l of lines) {
    const m = /^\s*(```+|~~~+)/.exec(l);
    if (fence) {
      cur.push(l);
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length) fence = undefined;
      continue;
    }
    if (m) {
      fence = m[1];
      cur.push(l);
      continue;
    }
    if (l.trim() === '') {
      flush();
      continue;
    }
    cur.push(l);
  }
  flush();
  return parts;
}

/**
 * Answers one chat request from the knowledge base: progress, the answer
 * in parts (the server returns whole answers, so the parts are streamed as
 * they are cut, not as a model writes them), then the numbered sources as
 * anchors and references. /new starts a new server session; /sources lists
 * the sources without the answer text. Errors are written to the chat and
 * returned, never thrown.
 */
export async function handleChatRequest(req: ChatRequestLike, deps: ChatDeps, out: ChatOut, state: ChatState): Promise<ChatOutcome> {
  const question = req.prompt.trim();
  if (req.command === chatCommands.newSession) state.sessionId = undefined;
  if (question === '') {
    if (req.command === chatCommands.newSession) {
      out.markdown('Started a new session: the next question does not continue the previous ones.');
      return { status: 'new-session', sources: 0 };
    }
    out.markdown('Ask a question about this workspace, e.g. `@mrpvm how do I install it?` (`/new` starts a new session, `/sources` lists only the sources).');
    return { status: 'empty', sources: 0 };
  }
  out.progress('Asking the knowledge base…');
  let resp: AskResult;
  try {
    const args: AskArgs = { question };
    if (state.sessionId) args.sessionId = state.sessionId;
    resp = await deps.ask(args);
  } catch (err) {
    const msg = errorMessage(err);
    out.markdown(`**MRP-VM:** the question failed: ${msg}`);
    return { status: 'error', sources: 0, error: msg };
  }
  if (deps.isCancelled?.()) return { status: 'cancelled', sources: 0 };
  if (resp.sessionId) state.sessionId = resp.sessionId;
  const sources = answerSources(resp, deps.folders);
  if (req.command !== chatCommands.sources) {
    const body = (sources.length > 0 ? stripSourceList(resp.answerMarkdown || '') : (resp.answerMarkdown || '').trim()) || '_No answer._';
    for (const part of markdownParts(body)) {
      if (deps.isCancelled?.()) return { status: 'cancelled', sources: 0 };
      out.markdown(part);
    }
  }
  if (sources.length > 0) {
    out.markdown('**Sources**\n\n');
    for (const s of sources) {
      out.markdown(`${s.index}. `);
      if (s.file) {
        out.anchor(s);
        out.reference(s);
      } else {
        out.markdown(`\`${s.label}\``);
      }
      out.markdown(` ${s.title}\n`);
    }
    out.markdown('\n');
  } else if (req.command === chatCommands.sources) {
    out.markdown('The knowledge base has no source for that.\n\n');
  }
  out.markdown(`_${answerMeta(resp)}_`);
  if (resp.hint) out.markdown(`\n\n> ${resp.hint}`);
  return { status: resp.status, requestId: resp.requestId, sessionId: resp.sessionId, sources: sources.length };
}

/** The text the mrpvm_ask tool returns to the model: the answer, then its sources. */
export function askToolText(resp: AskResult, folders: readonly string[]): string {
  const sources = answerSources(resp, folders);
  const body = (sources.length > 0 ? stripSourceList(resp.answerMarkdown || '') : (resp.answerMarkdown || '').trim()) || '(no answer)';
  const out = [`status: ${resp.status}`, '', body];
  if (sources.length > 0) {
    out.push('', 'Sources:');
    for (const s of sources) out.push(`[${s.index}] ${s.title} — ${s.label}`);
  }
  return out.join('\n');
}

/** The text the mrpvm_search tool returns: the hits of mrpvm.search, best first. */
export function searchToolText(hits: readonly SearchHit[], folders: readonly string[]): string {
  const sources = answerSources({ evidence: [...hits] }, folders);
  if (sources.length === 0) return 'The knowledge base has no source for that query.';
  return sources.map((s) => `${s.index}. ${s.label} — ${s.title}`).join('\n');
}
