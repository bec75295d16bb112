import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { ask, errorMessage, executeCommand, RequestSender, validateKBName } from '../protocol';

class Recorder implements RequestSender {
  calls: { method: string; params: unknown }[] = [];
  async sendRequest<R>(method: string, params: unknown): Promise<R> {
    this.calls.push({ method, params });
    return { ok: true } as R;
  }
}

describe('command requests', () => {
  it('sends one argument object through workspace/executeCommand', async () => {
    const r = new Recorder();
    await executeCommand(r, 'mrpvm.stats');
    await ask(r, { question: 'q', sessionId: 's-1', pins: { gs: 'gs-symbolic' } });
    assert.deepEqual(r.calls, [
      { method: 'workspace/executeCommand', params: { command: 'mrpvm.stats', arguments: [{}] } },
      { method: 'workspace/executeCommand', params: { command: 'mrpvm.ask', arguments: [{ question: 'q', sessionId: 's-1', pins: { gs: 'gs-symbolic' } }] } },
    ]);
  });

  it('validates snapshot names as the server does', () => {
    assert.equal(validateKBName('snap-1.v2_x'), undefined);
    assert.match(validateKBName('') ?? '', /Enter a name/);
    assert.match(validateKBName('../etc') ?? '', /letters, digits/);
    assert.match(validateKBName('a b') ?? '', /letters, digits/);
  });

  it('reads error messages', () => {
    assert.equal(errorMessage(new Error('kb_snapshot_missing: x')), 'kb_snapshot_missing: x');
    assert.equal(errorMessage({ message: 'm', code: -32800 }), 'm');
    assert.equal(errorMessage('plain'), 'plain');
  });
});
