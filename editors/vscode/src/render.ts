// Rendering of the server's results for the extension's views: answer
// sources with file:line locations, the answer page (HTML for a webview),
// the trace stage table, the plugin table, status bar texts. Pure functions
// without vscode, tested under plain Node.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { AskResult, Evidence, IngestReport, KBStats, PluginDescriptor, Trace } from './protocol';

/** A numbered source of an answer, resolved to a file when it has one. */
export interface AnswerSource {
  index: number; // 1-based, as the answer cites it
  title: string;
  kuId: string;
  /** Absolute file path; undefined for sources without a file (plugin::...). */
  file?: string;
  /** 1-based line and column. */
  line: number;
  column: number;
  endLine: number;
  /** What the user reads: "notes/a.md:12" relative to the workspace folder. */
  label: string;
}

/** Returns the absolute file of evidence, or undefined when it lives in no file. */
export function evidenceFile(ev: Evidence, folders: readonly string[]): string | undefined {
  if (ev.uri && ev.uri.startsWith('file:')) {
    try {
      return fileURLToPath(ev.uri);
    } catch {
      return undefined;
    }
  }
  const sid = ev.sourceId ?? '';
  if (sid === '' || sid.includes('::') || /^[a-z][a-z0-9+.-]*:/i.test(sid)) {
    return undefined;
  }
  if (path.isAbsolute(sid)) {
    return sid;
  }
  return folders.length > 0 ? path.join(folders[0], sid) : undefined;
}

/** Returns p relative to the workspace folder holding it, else p. */
export function displayPath(p: string, folders: readonly string[]): string {
  for (const f of folders) {
    const rel = path.relative(f, p);
    if (rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)) {
      return rel.split(path.sep).join('/');
    }
  }
  return p;
}

/** Resolves an answer's evidence into numbered sources. */
export function answerSources(resp: Pick<AskResult, 'evidence'>, folders: readonly string[]): AnswerSource[] {
  return (resp.evidence ?? []).map((ev, i) => {
    const file = evidenceFile(ev, folders);
    const line = Math.max(ev.range?.startLine ?? 1, 1);
    const column = Math.max(ev.range?.startCol ?? 1, 1);
    const endLine = Math.max(ev.range?.endLine ?? line, line);
    let label = ev.sourceId || ev.kuId;
    if (file) {
      label = `${displayPath(file, folders)}:${line}`;
    }
    return { index: i + 1, title: ev.title || ev.kuId, kuId: ev.kuId, file, line, column, endLine, label };
  });
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * Removes the plain-text source list the server appends to an answer
 * ("Sources:" then "[1] title — file:line" lines) when the view shows its
 * own list with clickable locations.
 */
export function stripSourceList(md: string): string {
  const lines = md.replace(/\r\n/g, '\n').replace(/\s+$/, '').split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i].trim();
    if (/^(#{1,6}\s*)?(\*\*)?Sources:?(\*\*)?:?$/i.test(l)) {
      const rest = lines.slice(i + 1).filter((x) => x.trim() !== '');
      if (rest.length > 0 && rest.every((x) => /^\s*(\[\d+\]|\d+\.|[-*])\s/.test(x))) {
        return lines.slice(0, i).join('\n').replace(/\s+$/, '');
      }
      return md.trim();
    }
    if (l !== '' && !/^\s*(\[\d+\]|\d+\.|[-*])\s/.test(lines[i])) {
      return md.trim();
    }
  }
  return md.trim();
}

/** A one-line summary of an answer: status, source count, request and session. */
export function answerMeta(resp: AskResult): string {
  const n = resp.evidence?.length ?? 0;
  const parts = [resp.status || 'unknown', `${n} source${n === 1 ? '' : 's'}`];
  if (resp.requestId) parts.push(`request ${resp.requestId}`);
  if (resp.sessionId) parts.push(`session ${resp.sessionId}`);
  return parts.join(' · ');
}

/** The line shown above an answer computed from a partial knowledge base. */
export function partialNote(resp: Pick<AskResult, 'partial'>): string | undefined {
  const p = resp.partial;
  if (!p) return undefined;
  return `Partial answer: the knowledge base is still being built (${p.files} of ${p.of} files ingested). Ask again when it is done.`;
}

/** Renders an answer as a Markdown document with a numbered source list. */
export function answerMarkdown(question: string, resp: AskResult, folders: readonly string[]): string {
  const out: string[] = [];
  if (question) out.push(`# ${question.replace(/\s+/g, ' ').trim()}`, '');
  const partial = partialNote(resp);
  if (partial) out.push(`> ⚠ ${partial}`, '');
  const sources = answerSources(resp, folders);
  const body = sources.length > 0 ? stripSourceList(resp.answerMarkdown || '') : (resp.answerMarkdown || '').trim();
  out.push(body || '_No answer._');
  if (sources.length > 0) {
    out.push('', '## Sources', '');
    for (const s of sources) {
      out.push(`${s.index}. ${s.title} — \`${s.label}\``);
    }
  }
  out.push('', `_${answerMeta(resp)}_`);
  if (resp.hint) out.push('', `> ${resp.hint}`);
  return out.join('\n') + '\n';
}

/** What the answer page needs besides the answer. */
export interface AnswerPage {
  question: string;
  /** The answer's Markdown rendered to HTML (by VS Code's Markdown renderer). */
  answerHtml: string;
  sources: AnswerSource[];
  meta: string;
  hint?: string;
  /** partialNote of the answer, shown above it. */
  partial?: string;
  /** The webview's cspSource and a fresh nonce for the page script. */
  cspSource: string;
  nonce: string;
}

/**
 * Builds the webview page of an answer. Sources with a file are links that
 * post {type: "open", index} to the extension, which opens file:line.
 */
export function answerHtml(p: AnswerPage): string {
  const items = p.sources
    .map((s) => {
      const title = escapeHtml(s.title);
      const label = escapeHtml(s.label);
      if (s.file) {
        return `<li><a href="#" class="source" data-index="${s.index}" title="${escapeHtml(s.kuId)}">${label}</a> — ${title}</li>`;
      }
      return `<li><code>${label}</code> — ${title}</li>`;
    })
    .join('\n');
  const sources = p.sources.length > 0 ? `<h2>Sources</h2>\n<ol class="sources">\n${items}\n</ol>` : '';
  const hint = p.hint ? `<blockquote>${escapeHtml(p.hint)}</blockquote>` : '';
  const partial = p.partial ? `<p class="partial">⚠ ${escapeHtml(p.partial)}</p>` : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${p.cspSource} https: data:; style-src ${p.cspSource} 'unsafe-inline'; script-src 'nonce-${p.nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(p.question)}</title>
<style>
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); line-height: 1.5; padding: 0 1.5em; }
h1 { font-size: 1.3em; border-bottom: 1px solid var(--vscode-panel-border); padding-bottom: .3em; }
ol.sources li { margin: .2em 0; }
a.source { font-family: var(--vscode-editor-font-family); }
.meta { color: var(--vscode-descriptionForeground); font-size: .9em; margin-top: 1.5em; }
.partial { color: var(--vscode-editorWarning-foreground); }
</style>
</head>
<body>
<h1>${escapeHtml(p.question)}</h1>
${partial}
<div class="answer">
${p.answerHtml}
</div>
${sources}
${hint}
<p class="meta">${escapeHtml(p.meta)}</p>
<script nonce="${p.nonce}">
const vscode = acquireVsCodeApi();
for (const a of document.querySelectorAll('a.source')) {
  a.addEventListener('click', (e) => {
    e.preventDefault();
    vscode.postMessage({ type: 'open', index: Number(a.dataset.index) });
  });
}
</script>
</body>
</html>
`;
}

/** Wraps a Markdown page (trace, plugins) already rendered to HTML. */
export function markdownPageHtml(title: string, bodyHtml: string, cspSource: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${cspSource} 'unsafe-inline';">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); padding: 0 1.5em; }
table { border-collapse: collapse; }
th, td { border: 1px solid var(--vscode-panel-border); padding: .2em .6em; text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; }
</style>
</head>
<body>
${bodyHtml}
</body>
</html>
`;
}

/** Escapes a cell of a Markdown table. */
export function mdCell(s: unknown): string {
  if (s === undefined || s === null) return '';
  return String(s).replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function mdTable(header: string[], rows: string[][], right: Set<number> = new Set()): string {
  const align = header.map((_, i) => (right.has(i) ? '---:' : '---'));
  const line = (cells: string[]) => `| ${cells.map(mdCell).join(' | ')} |`;
  return [line(header), `| ${align.join(' | ')} |`, ...rows.map(line)].join('\n');
}

/** Renders a trace as Markdown: a header and a table of its stage calls. */
export function traceMarkdown(t: Trace): string {
  const out: string[] = [];
  out.push(`# Trace ${t.requestId}`, '');
  if (t.question) out.push(`**Question:** ${mdCell(t.question)}`, '');
  const final = t.finalAnswerStatus ? `${t.finalStatus} (${t.finalAnswerStatus})` : (t.finalStatus ?? '');
  out.push(
    `**Planner:** \`${t.plannerPluginId ?? ''}\` · **final:** ${final} · **session:** \`${t.sessionId}\` · **frame depth:** ${t.frameDepth ?? 0}`,
    '',
  );
  let total = 0;
  const rows = (t.stages ?? []).map((s, i) => {
    const ms = s.durationMs ?? s.ms ?? 0;
    total += ms;
    const suff = s.sufficient === true ? 'yes' : s.sufficient === false ? 'no' : '';
    return [String(i + 1), s.stage, `\`${s.pluginId}\``, s.status, String(ms), String(s.llmCalls ?? 0), suff, s.model ?? ''];
  });
  out.push(mdTable(['#', 'Stage', 'Plugin', 'Status', 'ms', 'LLM calls', 'Sufficient', 'Model'], rows, new Set([0, 4, 5])));
  out.push('', `${rows.length} stage call${rows.length === 1 ? '' : 's'}, ${total} ms in total.`);
  if (t.errors && t.errors.length > 0) {
    out.push('', '## Errors', '');
    for (const e of t.errors) {
      const at = e.stage >= 0 ? ` (stage ${e.stage + 1})` : '';
      out.push(`- \`${e.code}\`${at}: ${e.message}`);
    }
  }
  if (t.notes && t.notes.length > 0) {
    out.push('', '## Notes', '');
    for (const n of t.notes) out.push(`- ${n}`);
  }
  return out.join('\n') + '\n';
}

/** Whether a catalog entry runs: yes, no (disabled) or failed (enabled, not loaded). */
export function pluginState(d: PluginDescriptor): 'yes' | 'no' | 'failed' {
  if (d.loaded) return 'yes';
  if (d.enabled && d.loaded === false) return 'failed';
  return d.enabled ? 'yes' : 'no';
}

/** Renders the plugin list as a Markdown table. */
export function pluginsMarkdown(list: PluginDescriptor[]): string {
  const rows = list.map((d) => [
    `\`${d.id}\`${d.origin === 'wrapper' ? ' (wrapper)' : ''}`,
    d.type,
    pluginState(d),
    d.costClass ?? '',
    d.usesLLM ? `≤${d.maxLLMCalls ?? 0}` : 'no',
    d.description ?? '',
  ]);
  return `# Plugins\n\n${mdTable(['Plugin', 'Type', 'Enabled', 'Cost', 'LLM', 'Description'], rows)}\n\n${list.length} plugins.\n`;
}

/** Formats a byte count for people. */
export function humanBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = -1;
  do {
    v /= 1024;
    i++;
  } while (v >= 1024 && i < units.length - 1);
  return `${v.toFixed(1)} ${units[i]}`;
}

/** The progress of one $/progress token as the status bar keeps it. */
export interface ProgressState {
  title?: string;
  message?: string;
  percentage?: number;
}

/** The status bar text: ingest progress while it runs, else the KB size. */
export function statusText(progress: ProgressState | undefined, stats: KBStats | undefined): string {
  if (progress) {
    const pct = typeof progress.percentage === 'number' ? ` ${Math.round(progress.percentage)}%` : '';
    return `$(sync~spin) MRP-VM${pct}`;
  }
  if (stats) {
    return `$(database) MRP-VM ${stats.kus.toLocaleString('en-US')} KUs · ${humanBytes(stats.dbBytes ?? 0)}`;
  }
  return '$(database) MRP-VM';
}

/** The status bar tooltip. */
export function statusTooltip(progress: ProgressState | undefined, stats: KBStats | undefined): string {
  if (progress) {
    return [progress.title, progress.message].filter(Boolean).join(': ');
  }
  if (stats) {
    const lines = [`${stats.sources} sources, ${stats.kus} KUs`, `${stats.dbPath ?? ''} (${humanBytes(stats.dbBytes ?? 0)})`];
    if (stats.readOnly) lines.push('read-only copy (another server holds the knowledge base)');
    return lines.join('\n');
  }
  return 'MRP-VM: starting';
}

/** Summarises an ingest report in one line. */
export function ingestSummary(r: IngestReport): string {
  const parts: string[] = [];
  if (r.files !== undefined) parts.push(`${r.files} file${r.files === 1 ? '' : 's'} ingested`);
  if (r.unchanged !== undefined) parts.push(`${r.unchanged} unchanged`);
  if (r.removed) parts.push(`${r.removed} removed`);
  if (r.kus !== undefined) parts.push(`${r.kus} KUs`);
  const problems = r.errors?.length ?? 0;
  if (problems > 0) parts.push(`${problems} problem${problems === 1 ? '' : 's'}`);
  if (r.seconds !== undefined) parts.push(`${r.seconds.toFixed(1)} s`);
  return parts.length > 0 ? `MRP-VM: ${parts.join(', ')}` : 'MRP-VM: ingest done';
}
