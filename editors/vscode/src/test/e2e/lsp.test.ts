// Protocol-level end-to-end tests of the VS Code path: the real `mrpvm lsp`
// (MRPVM_BIN) driven through vscode-languageserver-protocol with VS Code's
// capabilities, and the extension's own request and rendering code applied
// to the real answers. VS Code itself (webview, palette, status bar widgets)
// is not exercised here.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';

import { CancellationTokenSource, Hover, HoverRequest, MarkupContent } from 'vscode-languageserver-protocol/node';

import { ask, AskResult, errorMessage, executeCommand, IngestReport, KBResult, KBStats, PluginDescriptor, ServerCommands, Trace } from '../../protocol';
import { answerMarkdown, answerSources, pluginsMarkdown, traceMarkdown } from '../../render';
import { cleanup, Session, startSession } from './client';

const bin = process.env.MRPVM_BIN ?? '';
const skip = bin === '' ? 'MRPVM_BIN is not set: build the server (go build -o /tmp/mrpvm ./cmd/mrpvm) and set MRPVM_BIN=/tmp/mrpvm' : false;

describe('mrpvm lsp over the VS Code protocol libraries', { skip }, () => {
  let s: Session;
  let first: AskResult;

  before(async () => {
    s = startSession(bin);
  });

  after(async () => {
    if (!s) return;
    const code = await s.close();
    assert.equal(code, 0, `exit status after shutdown+exit; stderr: ${s.stderr}`);
    cleanup(s);
  });

  it('initializes with hover and the mrpvm.* commands', async () => {
    const res = await s.initialize();
    const caps = res.capabilities;
    assert.ok(caps.hoverProvider, 'hoverProvider');
    assert.deepEqual([...(caps.executeCommandProvider?.commands ?? [])].sort(), Object.values(ServerCommands).sort());
  });

  it('reports the background ingest with workDoneProgress', async () => {
    const p = await s.waitProgressEnd(/ingest/, 20000);
    assert.ok(p.created, 'the token was created with window/workDoneProgress/create first');
    assert.equal(p.values[0].kind, 'begin');
    assert.equal(p.values[p.values.length - 1].kind, 'end');
    for (const v of p.values) {
      if (v.kind === 'report' && v.percentage !== undefined) {
        assert.ok(v.percentage >= 0 && v.percentage <= 100, `percentage ${v.percentage}`);
      }
    }
    const stats = await executeCommand<KBStats>(s.conn, ServerCommands.stats);
    assert.ok(stats.sources >= 3 && stats.kus > 0, JSON.stringify(stats));
    assert.equal(stats.dbPath, path.join(s.dir, 'kb.db'));
  });

  it('hovers with Markdown drawn from the Knowledge Unit that defines a term', async () => {
    const uri = await s.open('guide/config.md');
    const text = fs.readFileSync(path.join(s.ws, 'guide/config.md'), 'utf8').split('\n');
    // A term is explained by the heading that defines it (a word merely
    // used, such as flux_level, gets no hover).
    const line = text.findIndex((l) => l.startsWith('## The flux level'));
    const character = text[line].indexOf('flux') + 2;
    const h = (await s.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character } })) as Hover | null;
    assert.ok(h, 'a hover');
    const c = h.contents as MarkupContent;
    assert.equal(c.kind, 'markdown');
    assert.match(c.value, /flux/i);
    assert.match(c.value, /guide\/config\.md:\d+/, 'a file:line link');
    // a blank line has nothing to explain.
    const blank = text.findIndex((l) => l.trim() === '');
    const none = await s.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: blank, character: 0 } });
    assert.equal(none, null);
  });

  it('answers mrpvm.ask with file evidence the answer view can open', async () => {
    first = await ask(s.conn, { question: 'How do I install Frobnicator?' });
    assert.equal(first.status, 'answered');
    assert.match(first.requestId, /\S/);
    assert.match(first.sessionId, /\S/);
    assert.match(first.answerMarkdown, /Frobnicator/);
    assert.ok((first.evidence ?? []).length > 0, 'evidence');
    const sources = answerSources(first, [s.ws]);
    assert.equal(sources[0].file, path.join(s.ws, 'guide/install.md'));
    for (const src of sources) {
      if (!src.file) continue;
      assert.ok(fs.existsSync(src.file), `source file ${src.file}`);
      const lines = fs.readFileSync(src.file, 'utf8').split('\n');
      assert.ok(src.line >= 1 && src.line <= lines.length, `line ${src.line} inside ${src.label}`);
      assert.match(src.label, /^[\w/.-]+\.md:\d+$/);
    }
    const md = answerMarkdown('How do I install Frobnicator?', first, [s.ws]);
    assert.equal(md.match(/Sources/g)?.length, 1, 'one source list in the rendered answer');
    assert.ok(md.includes(`\`${sources[0].label}\``));
  });

  it('continues a session and returns the trace of the last request', async () => {
    const second = await ask(s.conn, { question: 'What is a quibble?', sessionId: first.sessionId });
    assert.equal(second.sessionId, first.sessionId);
    assert.ok((second.evidence ?? []).some((e) => e.sourceId === 'notes/glossary.md'), JSON.stringify(second.evidence));
    const last = await executeCommand<Trace>(s.conn, ServerCommands.trace, {});
    assert.equal(last.requestId, second.requestId);
    const byId = await executeCommand<Trace>(s.conn, ServerCommands.trace, { requestId: first.requestId });
    assert.equal(byId.requestId, first.requestId);
    assert.ok(byId.stages.length >= 3, 'stages');
    for (const st of byId.stages) {
      assert.equal(typeof st.stage, 'string');
      assert.equal(typeof st.pluginId, 'string');
      assert.equal(typeof st.status, 'string');
      assert.equal(typeof st.durationMs, 'number');
    }
    const md = traceMarkdown(byId);
    const rows = md.split('\n').filter((l) => /^\| \d+ \|/.test(l));
    assert.equal(rows.length, byId.stages.length);
    assert.ok(md.includes(`\`${byId.stages[0].pluginId}\``));
    await assert.rejects(executeCommand(s.conn, ServerCommands.trace, { requestId: 'r-does-not-exist' }), /./);
  });

  it('lists plugins, ingests and handles KB snapshots', async () => {
    const list = await executeCommand<PluginDescriptor[]>(s.conn, ServerCommands.plugins, {});
    assert.ok(list.some((d) => d.id === 'kb-fast' && d.loaded), 'kb-fast is loaded');
    assert.match(pluginsMarkdown(list), /\| `kb-fast` \| kb-plugin \| yes \|/);

    fs.writeFileSync(path.join(s.ws, 'notes', 'new.md'), '# Zorbification\n\nZorbification is the nightly compaction of sidecars.\n');
    const rep = await executeCommand<IngestReport>(s.conn, ServerCommands.ingest, {});
    assert.ok((rep.files ?? 0) >= 1, JSON.stringify(rep));
    const z = await ask(s.conn, { question: 'What is zorbification?' });
    assert.ok((z.evidence ?? []).some((e) => e.sourceId === 'notes/new.md'), JSON.stringify(z.evidence));

    const saved = await executeCommand<KBResult>(s.conn, ServerCommands.kb, { action: 'save', name: 'vscode-snap' });
    assert.ok(fs.existsSync(saved.path), saved.path);
    await assert.rejects(executeCommand(s.conn, ServerCommands.kb, { action: 'save', name: '../evil' }), (e: unknown) => /bad_argument|name/i.test(errorMessage(e)));
    await assert.rejects(executeCommand(s.conn, ServerCommands.kb, { action: 'load', name: 'missing-snap' }), (e: unknown) => /kb_snapshot_missing/.test(errorMessage(e)));
    await assert.rejects(executeCommand(s.conn, ServerCommands.kb, { action: 'explode', name: 'x' }), /./);
    const forked = await executeCommand<KBResult>(s.conn, ServerCommands.kb, { action: 'fork', name: 'vscode-fork' });
    assert.equal(forked.action, 'fork');
    const stats = await executeCommand<KBStats>(s.conn, ServerCommands.stats, {});
    assert.ok(stats.kus > 0);
    const again = await ask(s.conn, { question: 'How do I uninstall Frobnicator?' });
    assert.equal(again.status, 'answered');
  });

  it('rejects bad command arguments without dropping the connection', async () => {
    await assert.rejects(ask(s.conn, { question: '' }), /./);
    await assert.rejects(executeCommand(s.conn, 'mrpvm.nope', {}), /./);
    await assert.rejects(s.conn.sendRequest('workspace/executeCommand', { command: 'mrpvm.ask', arguments: ['not an object'] }), /./);
    const ok = await ask(s.conn, { question: 'What is a sidecar?' });
    assert.equal(ok.status, 'answered');
  });

  it('honours cancellation of a running request', async () => {
    const cts = new CancellationTokenSource();
    const p = s.conn.sendRequest('workspace/executeCommand', { command: ServerCommands.ask, arguments: [{ question: 'How is the cache folder configured?' }] }, cts.token);
    cts.cancel();
    // Either the answer was already on its way or the server reports -32800.
    try {
      await p;
    } catch (e) {
      assert.equal((e as { code?: number }).code, -32800, errorMessage(e));
    }
    const ok = await executeCommand<KBStats>(s.conn, ServerCommands.stats, {});
    assert.ok(ok.kus > 0, 'the server still answers');
  });

  it('serves the Markdown basics: link completion, references, code lens, rename, code actions', async () => {
    const rel = 'notes/links.md';
    const uri = pathToFileURL(path.join(s.ws, rel)).href;
    const text = 'See [[glossary#Quibble]] and [sidecars](glossary.md#sidecar).\nBroken: [[missing-page]]\n[[glo\n';
    await s.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text } });
    type Item = { label: string; detail?: string };
    const list = (await s.conn.sendRequest('textDocument/completion', { textDocument: { uri }, position: { line: 2, character: 5 } })) as {
      items: Item[];
    };
    const items = list.items;
    const g = items.find((it) => it.label === 'glossary');
    assert.ok(g, `wiki completion: ${JSON.stringify(items.map((it) => it.label))}`);
    assert.equal(g.detail, 'Glossary');

    const gloss = pathToFileURL(path.join(s.ws, 'notes/glossary.md')).href;
    const glines = fs.readFileSync(path.join(s.ws, 'notes/glossary.md'), 'utf8').split('\n');
    const qline = glines.findIndex((l) => l === '## Quibble');
    type Loc = { uri: string; range: { start: { line: number; character: number } } };
    const refs = (await s.conn.sendRequest('textDocument/references', {
      textDocument: { uri: gloss }, position: { line: qline, character: 4 }, context: { includeDeclaration: false },
    })) as Loc[];
    assert.deepEqual(refs.map((r) => `${r.uri === uri ? rel : r.uri}:${r.range.start.line}:${r.range.start.character}`), [`${rel}:0:4`]);

    const lenses = (await s.conn.sendRequest('textDocument/codeLens', { textDocument: { uri: gloss } })) as { command?: { title: string } }[];
    assert.deepEqual(lenses.map((l) => l.command?.title), ['1 reference', '1 reference']);

    type Edit = { changes: Record<string, { newText: string }[]> };
    const we = (await s.conn.sendRequest('textDocument/rename', {
      textDocument: { uri: gloss }, position: { line: qline, character: 4 }, newName: 'Quibbles',
    })) as Edit;
    assert.deepEqual(we.changes[uri].map((e) => e.newText), ['Quibbles']);
    assert.deepEqual(we.changes[gloss].map((e) => e.newText), ['Quibbles']);
    await assert.rejects(
      s.conn.sendRequest('textDocument/rename', { textDocument: { uri: gloss }, position: { line: qline, character: 4 }, newName: 'Sidecar' }),
      /rename_refused/,
    );

    type Action = { title: string; edit?: { documentChanges?: { kind?: string; uri?: string }[] }; command?: { command: string } };
    const actions = (await s.conn.sendRequest('textDocument/codeAction', {
      textDocument: { uri }, range: { start: { line: 1, character: 12 }, end: { line: 1, character: 12 } }, context: { diagnostics: [] },
    })) as Action[];
    const create = actions.find((a) => a.title === 'Create notes/missing-page.md');
    assert.ok(create, JSON.stringify(actions.map((a) => a.title)));
    assert.equal(create.edit?.documentChanges?.[0].kind, 'create');
    const explain = actions.find((a) => a.title === 'Explain missing-page');
    assert.equal(explain?.command?.command, 'mrpvm.ui.askAbout');
    const sel = (await s.conn.sendRequest('textDocument/codeAction', {
      textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } }, context: { diagnostics: [] },
    })) as Action[];
    assert.ok(sel.some((a) => a.title === 'Ask about the selection' && a.command?.command === 'mrpvm.ui.askAbout'));
  });

  it('serves workspace files by absolute file URIs', () => {
    // evidence URIs are file URIs the extension turns into paths.
    for (const e of first.evidence ?? []) {
      if (e.uri) assert.ok(fileURLToPath(e.uri).startsWith(s.ws), e.uri);
    }
  });
});
