import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { defaultIsExecutable, expandSetting, resolveServerPath, serverArgs, serverEnv, ServerNotFoundError, serverSection } from '../server';

describe('resolveServerPath', () => {
  const exec = (paths: string[]) => (p: string) => paths.includes(p);
  const cases: {
    name: string;
    setting: string;
    env: NodeJS.ProcessEnv;
    platform?: NodeJS.Platform;
    files: string[];
    want?: { path: string; from: string };
    err?: RegExp;
  }[] = [
    { name: 'setting wins over PATH', setting: '/opt/mrpvm/bin/mrpvm', env: { PATH: '/usr/bin' }, files: ['/opt/mrpvm/bin/mrpvm', '/usr/bin/mrpvm'], want: { path: '/opt/mrpvm/bin/mrpvm', from: 'setting' } },
    { name: 'tilde in setting', setting: '~/go/bin/mrpvm', env: {}, files: ['/home/u/go/bin/mrpvm'], want: { path: '/home/u/go/bin/mrpvm', from: 'setting' } },
    { name: 'workspaceFolder in setting', setting: '${workspaceFolder}/bin/mrpvm', env: {}, files: ['/ws/bin/mrpvm'], want: { path: '/ws/bin/mrpvm', from: 'setting' } },
    { name: 'relative setting is taken from the folder', setting: 'bin/mrpvm', env: {}, files: ['/ws/bin/mrpvm'], want: { path: '/ws/bin/mrpvm', from: 'setting' } },
    { name: 'a wrong setting is an error, no fallback', setting: '/nope/mrpvm', env: { PATH: '/usr/bin' }, files: ['/usr/bin/mrpvm'], err: /mrpvm\.server\.path is set to "\/nope\/mrpvm"/ },
    { name: 'first on PATH', setting: '', env: { PATH: '/a::/b:/c' }, files: ['/b/mrpvm', '/c/mrpvm'], want: { path: '/b/mrpvm', from: 'PATH' } },
    { name: 'blank setting means PATH', setting: '  ', env: { PATH: '/c' }, files: ['/c/mrpvm'], want: { path: '/c/mrpvm', from: 'PATH' } },
    { name: 'not found', setting: '', env: { PATH: '/a:/b' }, files: [], err: /Cannot find the mrpvm binary: set "mrpvm\.server\.path" or put mrpvm on PATH/ },
    { name: 'no PATH at all', setting: '', env: {}, files: [], err: /Cannot find/ },
    { name: 'windows PATHEXT', setting: '', env: { Path: 'C:\\tools;C:\\go\\bin', PATHEXT: '.COM;.EXE' }, platform: 'win32', files: ['C:\\go\\bin\\mrpvm.exe'], want: { path: 'C:\\go\\bin\\mrpvm.exe', from: 'PATH' } },
    { name: 'windows setting without .exe', setting: 'C:\\go\\bin\\mrpvm', env: {}, platform: 'win32', files: ['C:\\go\\bin\\mrpvm.exe'], want: { path: 'C:\\go\\bin\\mrpvm.exe', from: 'setting' } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const run = () =>
        resolveServerPath({ setting: c.setting, env: c.env, platform: c.platform ?? 'linux', workspaceFolder: c.platform === 'win32' ? 'C:\\ws' : '/ws', homeDir: '/home/u', isExecutable: exec(c.files) });
      if (c.err) {
        assert.throws(run, (e: unknown) => e instanceof ServerNotFoundError && c.err!.test(e.message));
      } else {
        assert.deepEqual(run(), c.want);
      }
    });
  }

  it('needs a folder for ${workspaceFolder}', () => {
    assert.throws(
      () => resolveServerPath({ setting: '${workspaceFolder}/mrpvm', env: {}, platform: 'linux', homeDir: '/h', isExecutable: () => true }),
      /no folder is open/,
    );
  });

  it('checks real files for the executable bit', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mrpvm-path-'));
    try {
      const bin = path.join(dir, 'mrpvm');
      fs.writeFileSync(bin, '#!/bin/sh\n');
      fs.chmodSync(bin, 0o644);
      assert.equal(defaultIsExecutable(bin), process.platform === 'win32');
      fs.chmodSync(bin, 0o755);
      assert.equal(defaultIsExecutable(bin), true);
      assert.equal(defaultIsExecutable(dir), false, 'a folder is not a binary');
      assert.deepEqual(resolveServerPath({ setting: '', env: { PATH: dir }, platform: process.platform }), { path: bin, from: 'PATH' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('server command line and environment', () => {
  it('expands settings', () => {
    assert.equal(expandSetting(' ~/kb.db ', '/ws', '/h'), '/h/kb.db');
    assert.equal(expandSetting('${workspaceFolder}/.mrpvm/kb.db', '/ws', '/h'), '/ws/.mrpvm/kb.db');
    assert.equal(expandSetting('${userHome}/x', undefined, '/h'), '/h/x');
  });

  it('builds the arguments', () => {
    assert.deepEqual(serverArgs({ dbPath: '', llmEndpoint: '', llmModel: '' }, '/ws'), ['lsp']);
    assert.deepEqual(serverArgs({ dbPath: '${workspaceFolder}/kb.db', llmEndpoint: 'x', llmModel: 'y', apiKey: 'SECRET', logFile: '/l/server.log' }, '/ws'), [
      'lsp', '--db', '/ws/kb.db', '--log', '/l/server.log',
    ]);
  });

  it('gives the server only the settings it reads, expanded', () => {
    assert.deepEqual(serverSection({ dbPath: '', llmEndpoint: '', llmModel: '' }, '/ws'), {});
    assert.deepEqual(serverSection({ dbPath: '${workspaceFolder}/kb.db', llmEndpoint: '', llmModel: '', apiKey: 'k' }, '/ws'), { dbPath: '/ws/kb.db' });
    assert.deepEqual(serverSection({ dbPath: '', llmEndpoint: ' http://localhost:11434/v1 ', llmModel: 'llama3.2' }, '/ws'), {
      llm: { baseURL: 'http://localhost:11434/v1', model: 'llama3.2' },
    });
    const withKey = serverSection({ dbPath: '', llmEndpoint: 'https://api.example/v1', llmModel: '', apiKey: 'sk-SECRET' }, '/ws');
    assert.deepEqual(withKey, { llm: { baseURL: 'https://api.example/v1', apiKeyEnv: 'MRPVM_LLM_API_KEY' } });
    assert.ok(!JSON.stringify(withKey).includes('SECRET'), 'the key never goes into settings');
    assert.deepEqual(serverSection({ dbPath: '', llmEndpoint: '', llmModel: '', plugins: { 'kb-thinkingdb': false, 'sd-llm-deep': true } }, '/ws'),
      { plugins: { 'kb-thinkingdb': false, 'sd-llm-deep': true } });
    assert.deepEqual(serverSection({ dbPath: '', llmEndpoint: '', llmModel: '', plugins: {} }, '/ws'), {});
    assert.deepEqual(serverSection({ dbPath: '', llmEndpoint: '', llmModel: '', exclude: ['drafts/', ' ', '**/*.gen.md'] }, '/ws'), { exclude: ['drafts/', '**/*.gen.md'] });
    assert.deepEqual(serverSection({ dbPath: '', llmEndpoint: '', llmModel: '', exclude: [] }, '/ws'), {});
    assert.deepEqual(serverSection({ dbPath: '', llmEndpoint: '', llmModel: '', plugins: { 'kb-fast': 'no' as unknown as boolean } }, '/ws'), {},
      'values that are not true or false are left out');
  });

  it('passes LLM settings in the environment and keeps the key off the command line', () => {
    const s = { dbPath: '', llmEndpoint: ' http://localhost:11434/v1 ', llmModel: 'llama3.2', apiKey: 'sk-SECRET' };
    const env = serverEnv({ PATH: '/bin', MRPVM_LLM_MODEL: 'old' }, s);
    assert.equal(env.MRPVM_LLM_BASE_URL, 'http://localhost:11434/v1');
    assert.equal(env.MRPVM_LLM_MODEL, 'llama3.2');
    assert.equal(env.MRPVM_LLM_API_KEY, 'sk-SECRET');
    assert.equal(env.PATH, '/bin');
    assert.ok(!serverArgs(s, '/ws').join(' ').includes('SECRET'));
  });

  it('leaves inherited LLM variables alone when settings are empty', () => {
    const env = serverEnv({ MRPVM_LLM_API_KEY: 'inherited', MRPVM_LLM_BASE_URL: 'u' }, { dbPath: '', llmEndpoint: '', llmModel: '' });
    assert.equal(env.MRPVM_LLM_API_KEY, 'inherited');
    assert.equal(env.MRPVM_LLM_BASE_URL, 'u');
  });
});
