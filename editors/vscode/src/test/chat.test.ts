import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { shouldStartServer } from '../activation';
import { askToolText, chatCommands, ChatState, handleChatRequest, markdownParts, searchToolText } from '../chat';
import type { AskArgs, AskResult, SearchHit } from '../protocol';
import { fixture } from './fixtures';
import { Recorder } from './recorder';

const folders = ['/ws'];
const manifestDir = path.resolve(__dirname, '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(manifestDir, 'package.json'), 'utf8'));

describe('markdownParts', () => {
  it('cuts paragraphs and keeps fenced code whole', () => {
    const md = 'One\nline two\n\n\nThree\n\n```sh\nfrob install\n\nfrob version\n```\n\nEnd';
    const parts = markdownParts(md);
    assert.deepEqual(parts, ['One\nline two\n\n', 'Three\n\n', '```sh\nfrob install\n\nfrob version\n```\n\n', 'End\n\n']);
  });
  it('gives nothing for blank text', () => {
    assert.deepEqual(markdownParts('  \n\n'), []);
  });
});

describe('handleChatRequest (fake server answers)', () => {
  const resp = fixture<AskResult>('ask.json');

  it('streams the answer, then the sources as anchors and references', async () => {
    const out = new Recorder();
    const asked: AskArgs[] = [];
    const state: ChatState = {};
    const r = await handleChatRequest({ prompt: '  How do I install Frobnicator? ' }, { ask: async (a) => (asked.push(a), resp), folders }, out, state);
    assert.deepEqual(asked, [{ question: 'How do I install Frobnicator?' }]);
    assert.equal(out.events[0].kind, 'progress');
    assert.deepEqual(r, { status: 'answered', requestId: resp.requestId, sessionId: resp.sessionId, sources: 4 });
    assert.equal(state.sessionId, resp.sessionId);
    const text = out.text();
    assert.ok(!text.includes('Sources:\n[1]'), 'the server\'s plain source list is replaced');
    assert.match(text, /\*\*Sources\*\*\n\n1\. \[guide\/install\.md:3\] Installing Frobnicator\n/);
    assert.match(text, /4\. `plugin::kb-fast` /, 'a source without a file is plain text');
    assert.deepEqual(out.of('anchor').map((e) => (e.kind === 'anchor' ? [e.source.file, e.source.line] : [])), [
      ['/ws/guide/install.md', 3],
      ['/ws/guide/install.md', 17],
      ['/ws/guide/install.md', 11],
    ]);
    assert.equal(out.of('reference').length, 3);
    assert.match(text, /_answered · 4 sources · request r-577810960c6a · session s-dfc6834ce4d6_/);
  });

  it('continues the session; /new forgets it; /sources leaves out the answer text', async () => {
    const state: ChatState = { sessionId: 's-old' };
    const asked: AskArgs[] = [];
    const deps = { ask: async (a: AskArgs) => (asked.push(a), resp), folders };
    await handleChatRequest({ prompt: 'again' }, deps, new Recorder(), state);
    assert.equal(asked[0].sessionId, 's-old');
    state.sessionId = 's-old';
    await handleChatRequest({ prompt: 'fresh', command: chatCommands.newSession }, deps, new Recorder(), state);
    assert.equal(asked[1].sessionId, undefined);
    const out = new Recorder();
    await handleChatRequest({ prompt: 'where', command: chatCommands.sources }, deps, out, state);
    assert.ok(!out.text().includes('tidies photo libraries'), out.text());
    assert.equal(out.of('anchor').length, 3);
  });

  it('explains an empty prompt and reports a failed request in the chat', async () => {
    const never = async (): Promise<AskResult> => assert.fail('no request for an empty prompt');
    const out = new Recorder();
    assert.equal((await handleChatRequest({ prompt: ' ' }, { ask: never, folders }, out, {})).status, 'empty');
    assert.match(out.text(), /Ask a question/);
    const state: ChatState = { sessionId: 's-1' };
    const out2 = new Recorder();
    assert.equal((await handleChatRequest({ prompt: '', command: 'new' }, { ask: never, folders }, out2, state)).status, 'new-session');
    assert.equal(state.sessionId, undefined);
    const out3 = new Recorder();
    const r = await handleChatRequest({ prompt: 'q' }, { ask: async () => Promise.reject(new Error('bad_argument: nope')), folders }, out3, {});
    assert.deepEqual(r, { status: 'error', sources: 0, error: 'bad_argument: nope' });
    assert.match(out3.text(), /failed: bad_argument: nope/);
  });

  it('stops streaming when the request is cancelled', async () => {
    const out = new Recorder();
    const r = await handleChatRequest({ prompt: 'q' }, { ask: async () => resp, folders, isCancelled: () => true }, out, {});
    assert.equal(r.status, 'cancelled');
    assert.equal(out.of('markdown').length, 0);
  });
});

describe('tool results', () => {
  const resp = fixture<AskResult>('ask.json');
  it('mrpvm_ask gives the answer and numbered file:line sources', () => {
    const t = askToolText(resp, folders);
    assert.match(t, /^status: answered\n\nFrobnicator is a command-line tool/);
    assert.match(t, /\nSources:\n\[1\] Installing Frobnicator — guide\/install\.md:3\n/);
    assert.equal(t.match(/Sources:/g)?.length, 1);
  });
  it('mrpvm_search lists the hits of mrpvm.search as file:line and title', () => {
    const hits: SearchHit[] = [
      { kuId: 'ku-1', title: 'Installing Frobnicator', sourceId: 'guide/install.md', uri: 'file:///ws/guide/install.md', range: { startLine: 3, startCol: 1, endLine: 9, endCol: 1 }, score: 7.5 },
      { kuId: 'ku-2', title: 'kb-fast', sourceId: 'plugin::kb-fast', uri: 'mrpvm:plugin::kb-fast', range: { startLine: 1, startCol: 1, endLine: 2, endCol: 1 }, score: 1.2 },
    ];
    assert.deepEqual(searchToolText(hits, folders).split('\n'), ['1. guide/install.md:3 — Installing Frobnicator', '2. plugin::kb-fast — kb-fast']);
    assert.match(searchToolText([], folders), /no source/);
  });
  it('mrpvm_search runs mrpvm.search, not mrpvm.ask', () => {
    const src = fs.readFileSync(path.join(manifestDir, 'src', 'extension.ts'), 'utf8');
    const searchTool = src.slice(src.indexOf('const searchTool'), src.indexOf('this.context.subscriptions.push(tool('));
    assert.match(searchTool, /command: ServerCommands\.search/);
    assert.doesNotMatch(searchTool, /ServerCommands\.ask/);
    assert.match(src, /tool\('mrpvm_search', [^)]*searchTool\)/);
  });
});

describe('activation', () => {
  it('starts the server only for a .mrpvm workspace or mrpvm.enable', () => {
    assert.equal(shouldStartServer({ enabled: false, hasMrpvmFolder: false, folders: 1 }), false);
    assert.equal(shouldStartServer({ enabled: false, hasMrpvmFolder: true, folders: 1 }), true);
    assert.equal(shouldStartServer({ enabled: true, hasMrpvmFolder: false, folders: 1 }), true);
    assert.equal(shouldStartServer({ enabled: true, hasMrpvmFolder: false, folders: 0 }), false);
  });
  it('activates on a .mrpvm folder, not on every Markdown workspace', () => {
    assert.deepEqual(manifest.activationEvents, ['workspaceContains:.mrpvm', 'onStartupFinished']);
    assert.equal(manifest.contributes.configuration.properties['mrpvm.enable'].default, false);
  });
});

describe('manifest', () => {
  it('declares the chat participant and the tools the extension registers', () => {
    const src = fs.readFileSync(path.join(manifestDir, 'src', 'extension.ts'), 'utf8');
    const [p] = manifest.contributes.chatParticipants;
    assert.equal(p.name, 'mrpvm');
    assert.ok(src.includes(`createChatParticipant('${p.id}'`), p.id);
    assert.deepEqual(p.commands.map((c: { name: string }) => c.name).sort(), Object.values(chatCommands).sort());
    for (const t of manifest.contributes.languageModelTools) {
      assert.ok(src.includes(`tool('${t.name}'`), t.name);
      assert.equal(t.inputSchema.type, 'object');
      assert.equal(t.inputSchema.required.length, 1);
    }
  });
  it('uses a VS Code API level that has the Chat and Language Model Tool APIs, matching @types/vscode', () => {
    const engine = manifest.engines.vscode.replace(/^\^/, '');
    assert.equal(manifest.devDependencies['@types/vscode'], engine);
    const [maj, min] = engine.split('.').map(Number);
    assert.ok(maj > 1 || min >= 95, `vscode.lm.registerTool needs 1.95+, engines says ${engine}`);
  });
  it('is bundled, licensed and points at its repository', () => {
    assert.equal(manifest.main, './dist/extension.js');
    assert.equal(manifest.vsce.dependencies, false, 'dependencies are inlined by esbuild, not packaged');
    assert.equal(manifest.license, 'MIT');
    assert.match(fs.readFileSync(path.join(manifestDir, 'LICENSE'), 'utf8'), /^MIT License\n/);
    assert.match(manifest.repository.url, /^https:\/\/github\.com\//);
  });
});
