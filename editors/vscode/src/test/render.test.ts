import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { AskResult, PluginDescriptor, Trace } from '../protocol';
import {
  answerHtml,
  answerMarkdown,
  answerSources,
  displayPath,
  escapeHtml,
  evidenceFile,
  humanBytes,
  ingestSummary,
  mdCell,
  partialNote,
  pluginsMarkdown,
  statusText,
  statusTooltip,
  stripSourceList,
  traceMarkdown,
} from '../render';
import { fixture } from './fixtures';

const folders = ['/ws'];

describe('answer sources', () => {
  const resp = fixture<AskResult>('ask.json');

  it('resolves evidence to numbered file:line sources', () => {
    const s = answerSources(resp, folders);
    assert.equal(s.length, 4);
    assert.deepEqual(
      s.map((x) => [x.index, x.label, x.file, x.line, x.column]),
      [
        [1, 'guide/install.md:3', '/ws/guide/install.md', 3, 1],
        [2, 'guide/install.md:17', '/ws/guide/install.md', 17, 1],
        [3, 'guide/install.md:11', '/ws/guide/install.md', 11, 4],
        [4, 'plugin::kb-fast', undefined, 1, 1],
      ],
    );
  });

  const cases: { name: string; ev: Parameters<typeof evidenceFile>[0]; want: string | undefined }[] = [
    { name: 'file uri', ev: { kuId: 'a', title: '', sourceId: 'x.md', uri: 'file:///ws/x%20y.md' }, want: '/ws/x y.md' },
    { name: 'relative source id', ev: { kuId: 'a', title: '', sourceId: 'd/x.md', uri: '' }, want: '/ws/d/x.md' },
    { name: 'plugin source', ev: { kuId: 'a', title: '', sourceId: 'plugin::kb-fast', uri: '' }, want: undefined },
    { name: 'session source', ev: { kuId: 'a', title: '', sourceId: 'session::t1', uri: '' }, want: undefined },
    { name: 'other scheme', ev: { kuId: 'a', title: '', sourceId: 'https://x/y', uri: '' }, want: undefined },
    { name: 'empty', ev: { kuId: 'a', title: '', sourceId: '', uri: '' }, want: undefined },
  ];
  for (const c of cases) {
    it(`evidenceFile: ${c.name}`, () => assert.equal(evidenceFile(c.ev, folders), c.want));
  }

  it('shows paths outside every folder as they are', () => {
    assert.equal(displayPath('/elsewhere/a.md', folders), '/elsewhere/a.md');
    assert.equal(displayPath('/ws/a/b.md', ['/other', '/ws']), 'a/b.md');
  });
});

describe('stripSourceList', () => {
  const cases: { name: string; in: string; want: string }[] = [
    {
      name: 'server source block',
      in: 'Run it. [1]\n\nSources:\n[1] Steps — guide/install.md:11\n[2] X — y.md:2\n',
      want: 'Run it. [1]',
    },
    { name: 'no block', in: 'Just text.\n', want: 'Just text.' },
    { name: 'answer ending in a list', in: 'Do this:\n1. one\n2. two\n', want: 'Do this:\n1. one\n2. two' },
    { name: 'heading block', in: 'A.\n\n## Sources\n\n- [a](b)\n', want: 'A.' },
    { name: 'sources line followed by prose is kept', in: 'A.\nSources:\nsee the manual\n', want: 'A.\nSources:\nsee the manual' },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(stripSourceList(c.in), c.want));
  }
});

describe('answer rendering', () => {
  const resp = fixture<AskResult>('ask.json');

  it('renders Markdown with one source list and the meta line', () => {
    const md = answerMarkdown('How do I install Frobnicator?', resp, folders);
    assert.match(md, /^# How do I install Frobnicator\?\n/);
    assert.equal(md.match(/Sources/g)?.length, 1, md);
    assert.match(md, /^3\. Steps — `guide\/install\.md:11`$/m);
    assert.match(md, /^4\. kb-fast usage — `plugin::kb-fast`$/m);
    assert.match(md, /_answered · 4 sources · request r-577810960c6a · session s-dfc6834ce4d6_/);
  });

  it('shows a line above an answer from a partial knowledge base', () => {
    const partial = { ...resp, partial: { files: 12, of: 340 } };
    const md = answerMarkdown('How do I install Frobnicator?', partial, folders);
    assert.match(md, /^# How do I install Frobnicator\?\n\n> ⚠ Partial answer: .*12 of 340 files ingested/);
    assert.equal(partialNote(resp), undefined);
    assert.doesNotMatch(answerMarkdown('q', resp, folders), /Partial answer/);
    const html = answerHtml({ question: 'q', answerHtml: '<p>ok</p>', sources: [], meta: 'm', partial: partialNote(partial), cspSource: 'x', nonce: 'n' });
    assert.match(html, /<p class="partial">⚠ Partial answer: .*12 of 340 files ingested/);
    assert.ok(html.indexOf('class="partial"') < html.indexOf('<div class="answer">'));
  });

  it('says when there is no answer', () => {
    const md = answerMarkdown('q', { requestId: '', sessionId: '', status: 'no-context', answerMarkdown: '', evidence: null }, folders);
    assert.match(md, /_No answer\._/);
    assert.match(md, /_no-context · 0 sources_/);
  });

  it('builds a webview page with clickable sources and a strict CSP', () => {
    const html = answerHtml({
      question: 'What is <b>a</b> "quibble"?',
      answerHtml: '<p>ok</p>',
      sources: answerSources(resp, folders),
      meta: 'answered',
      hint: 'try <this>',
      cspSource: 'vscode-resource:',
      nonce: 'N0NCE',
    });
    assert.match(html, /<h1>What is &lt;b&gt;a&lt;\/b&gt; &quot;quibble&quot;\?<\/h1>/);
    assert.match(html, /script-src 'nonce-N0NCE'/);
    assert.match(html, /<script nonce="N0NCE">/);
    assert.equal(html.match(/class="source"/g)?.length, 3, 'file sources are links');
    assert.match(html, /data-index="2"[^>]*>guide\/install\.md:17<\/a> — Uninstalling/);
    assert.match(html, /<code>plugin::kb-fast<\/code> — kb-fast usage/);
    assert.match(html, /<blockquote>try &lt;this&gt;<\/blockquote>/);
    assert.doesNotMatch(html, /<b>a<\/b>/);
  });

  it('escapes HTML', () => {
    assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});

describe('trace table', () => {
  const trace = fixture<Trace>('trace.json');

  it('renders every stage as a table row', () => {
    const md = traceMarkdown(trace);
    const rows = md.split('\n').filter((l) => /^\| \d+ \|/.test(l));
    assert.equal(rows.length, trace.stages.length);
    assert.match(rows[0], /^\| 1 \| seed-detector \| `sd-symbolic` \| success \| \d+ \| 0 \|  \|  \|$/);
    assert.match(rows[1], /\| kb \| `kb-fast` \| success \| \d+ \| 0 \| yes \|/);
    assert.match(md, /\*\*Planner:\*\* `planner-default` · \*\*final:\*\* success \(answered\)/);
    assert.match(md, new RegExp(`${trace.stages.length} stage calls, \\d+ ms in total`));
    assert.match(md, /- `PLUGIN_TIMEOUT` \(stage 3\): gs-llm did not answer in 30s/);
    assert.match(md, /## Notes\n\n- planner-default: kb: kb-fast first/);
  });

  it('escapes table cells', () => {
    assert.equal(mdCell('a|b\nc'), 'a\\|b c');
    assert.equal(mdCell(null), '');
  });
});

describe('plugins table', () => {
  it('shows state, cost and LLM use', () => {
    const list = fixture<PluginDescriptor[]>('plugins.json');
    list.push({ id: 'gs-broken', type: 'gs-plugin', enabled: true, loaded: false, origin: 'wrapper', description: 'a | b' });
    list.push({ id: 'kb-off', type: 'kb-plugin', enabled: false, loaded: false });
    const md = pluginsMarkdown(list);
    assert.match(md, /^\| `sd-llm-deep` \| sd-plugin \| yes \| expensive \| ≤2 \|/m);
    assert.match(md, /^\| `kb-fast` \| kb-plugin \| yes \| cheap \| no \|/m);
    assert.match(md, /^\| `gs-broken` \(wrapper\) \| gs-plugin \| failed \|  \| no \| a \\\| b \|$/m);
    assert.match(md, /^\| `kb-off` \| kb-plugin \| no \|/m);
    assert.match(md, /6 plugins\./);
  });
});

describe('status bar', () => {
  const stats = { sources: 16, kus: 12345, dbBytes: 3 * 1024 * 1024 + 1, dbPath: '/c/kb.db' };
  const cases: { name: string; p?: { title?: string; message?: string; percentage?: number }; s?: typeof stats; text: string }[] = [
    { name: 'starting', text: '$(database) MRP-VM' },
    { name: 'ingesting', p: { title: 'mrpvm: ingest', message: '10/40 files', percentage: 25 }, s: stats, text: '$(sync~spin) MRP-VM 25%' },
    { name: 'ingest without percentage', p: { title: 'mrpvm: ingest' }, text: '$(sync~spin) MRP-VM' },
    { name: 'idle with stats', s: stats, text: '$(database) MRP-VM 12,345 KUs · 3.0 MiB' },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(statusText(c.p, c.s), c.text));
  }
  it('tooltips', () => {
    assert.equal(statusTooltip({ title: 'mrpvm: ingest', message: '1/2 files' }, undefined), 'mrpvm: ingest: 1/2 files');
    assert.equal(statusTooltip(undefined, { ...stats, readOnly: true }), '16 sources, 12345 KUs\n/c/kb.db (3.0 MiB)\nread-only copy (another server holds the knowledge base)');
  });
  it('humanBytes', () => {
    assert.deepEqual([0, 1023, 1024, 1536, 5 * 1024 ** 3].map(humanBytes), ['0 B', '1023 B', '1.0 KiB', '1.5 KiB', '5.0 GiB']);
  });
});

describe('ingest summary', () => {
  it('summarises reports', () => {
    assert.equal(
      ingestSummary({ files: 3, unchanged: 10, removed: 1, kus: 110, errors: [{ path: 'a.md', code: 'x', message: 'y' }], seconds: 0.25 }),
      'MRP-VM: 3 files ingested, 10 unchanged, 1 removed, 110 KUs, 1 problem, 0.3 s',
    );
    assert.equal(ingestSummary({ files: 1, unchanged: 0, kus: 5, errors: [] }), 'MRP-VM: 1 file ingested, 0 unchanged, 5 KUs');
    assert.equal(ingestSummary({}), 'MRP-VM: ingest done');
  });
});
