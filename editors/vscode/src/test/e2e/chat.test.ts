// The @mrpvm chat participant's request handler and the tools' results on
// the real `mrpvm lsp` (MRPVM_BIN): the handler's ask goes over the same
// protocol connection the extension's language client uses, and a
// recording stream stands in for VS Code's ChatResponseStream.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { askToolText, chatCommands, ChatDeps, ChatState, handleChatRequest, searchToolText } from '../../chat';
import { ask, AskResult, search } from '../../protocol';
import { Recorder } from '../recorder';
import { cleanup, Session, startSession } from './client';

const bin = process.env.MRPVM_BIN ?? '';
const skip = bin === '' ? 'MRPVM_BIN is not set: build the server (go build -o /tmp/mrpvm ./cmd/mrpvm) and set MRPVM_BIN=/tmp/mrpvm' : false;

describe('@mrpvm chat requests on the real server', { skip }, () => {
  let s: Session;
  let deps: ChatDeps;
  const asked: AskResult[] = [];

  before(async () => {
    s = startSession(bin);
    await s.initialize();
    await s.waitProgressEnd(/ingest/, 20000);
    deps = {
      ask: async (a) => {
        const r = await ask(s.conn, a);
        asked.push(r);
        return r;
      },
      folders: [s.ws],
    };
  });

  after(async () => {
    if (!s) return;
    assert.equal(await s.close(), 0, s.stderr);
    cleanup(s);
  });

  it('answers with the text in parts and anchors to real file lines', async () => {
    const out = new Recorder();
    const state: ChatState = {};
    const r = await handleChatRequest({ prompt: 'How do I install Frobnicator?' }, deps, out, state);
    assert.equal(r.status, 'answered');
    const resp = asked[asked.length - 1];
    assert.equal(state.sessionId, resp.sessionId);
    assert.match(out.text(), /Frobnicator/);
    const anchors = out.of('anchor');
    assert.ok(anchors.length >= 1, 'at least one anchor');
    assert.equal(out.of('reference').length, anchors.length);
    for (const e of anchors) {
      if (e.kind !== 'anchor') continue;
      const lines = fs.readFileSync(e.source.file!, 'utf8').split('\n');
      assert.ok(e.source.line >= 1 && e.source.line <= lines.length, `${e.source.label} is inside its file`);
      assert.ok(e.source.file!.startsWith(s.ws + path.sep), e.source.file);
    }
    const first = anchors[0];
    assert.equal(first.kind === 'anchor' && first.source.file, path.join(s.ws, 'guide', 'install.md'));
    // the answer text precedes the sources, and nothing repeats the server's plain list.
    const text = out.text();
    assert.ok(text.indexOf('Frobnicator') < text.indexOf('**Sources**'));
    assert.ok(!/^Sources:$/m.test(text), text);
  });

  it('follows up in the same server session, and /new starts another', async () => {
    const state: ChatState = {};
    await handleChatRequest({ prompt: 'What is a quibble?' }, deps, new Recorder(), state);
    const first = state.sessionId;
    assert.match(first ?? '', /\S/);
    const out = new Recorder();
    await handleChatRequest({ prompt: 'What is a sidecar?' }, deps, out, state);
    assert.equal(asked[asked.length - 1].sessionId, first);
    await handleChatRequest({ prompt: 'What is the default flux level?', command: chatCommands.newSession }, deps, new Recorder(), state);
    assert.notEqual(state.sessionId, first);
  });

  it('reports a request the server rejects in the chat and keeps working', async () => {
    const out = new Recorder();
    const r = await handleChatRequest({ prompt: 'How do I install Frobnicator?' }, deps, out, { sessionId: 'not a session id!' });
    assert.equal(r.status, 'error');
    assert.match(r.error ?? '', /session id/);
    assert.match(out.text(), /the question failed: .*session id/);
    const ok = await handleChatRequest({ prompt: 'How do I uninstall Frobnicator?' }, deps, new Recorder(), {});
    assert.equal(ok.status, 'answered');
  });

  it('gives the tools the answer and its sources', async () => {
    const resp = await ask(s.conn, { question: 'How do I install Frobnicator?' });
    const a = askToolText(resp, [s.ws]);
    assert.match(a, /^status: answered\n/);
    assert.match(a, /\[1\] .+ — guide\/install\.md:\d+/);
    const found = await search(s.conn, { query: 'install Frobnicator' });
    assert.ok(found.length > 0 && found.length <= 10, JSON.stringify(found));
    assert.ok(found[0].uri.startsWith('file:') && found[0].range && (found[0].score ?? 0) > 0, JSON.stringify(found[0]));
    const hits = searchToolText(found, [s.ws]).split('\n');
    assert.equal(hits.length, found.length);
    assert.match(hits[0], /^1\. guide\/install\.md:\d+ — /);
    assert.equal((await search(s.conn, { query: 'install Frobnicator', k: 1, plugin: 'kb-fast' })).length, 1);
    await assert.rejects(search(s.conn, { query: 'x', plugin: 'kb-nope' }), /unknown_plugin/);
  });
});
