/**
 * Control characters in cluster text reach no sink raw: the step log, annotations, the job summary, the JSON report
 * and the PR comment of the action (node dist/index.js), and the CLI's stderr and its text, markdown and JSON output
 * (node dist/cli/index.js). Each is shown as its escape (`\u001b`), so the text is still there to read.
 */
import { jest } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { policyDenies, type FakeCluster } from '../fake-apiserver/index.js';
import { FakeGitHub } from '../github/fake-github.js';
import { FAST, runBundle, runCli, type BundleRun } from '../helpers/harness.js';
import { tempDir } from '../helpers/temp.js';

jest.setTimeout(120_000);

/** One of each: a CSI (clear the screen), an OSC 8 link, an OSC 52 clipboard write, C1 CSI and OSC, RLO, isolates. */
const HOSTILE =
  '\u001b[2J\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007 ' +
  '\u001b]52;c;cm0gLXJmIH4=\u0007 \u009b31mred \u009d0;owned\u009c txt.\u202eexe \u2066iso\u2069 \u200fmark';
/** How HOSTILE reads once made visible: every control as its escape, in place. */
const SHOWN =
  '\\u001b[2J\\u001b]8;;https://evil.example\\u0007click\\u001b]8;;\\u0007 ' +
  '\\u001b]52;c;cm0gLXJmIH4=\\u0007 \\u009b31mred \\u009d0;owned\\u009c txt.\\u202eexe \\u2066iso\\u2069 \\u200fmark';
/** What no sink may carry: C0 controls but the line feed, DEL, C1 controls, bidirectional controls and marks. */
// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const TOKEN = 'ghs_controls-token-never-printed-7';

/** The denial of policyDenies with HOSTILE in its message: it becomes the namespace's condition and the cause. */
function hostileCluster(): { cluster: FakeCluster; namespace: string } {
  const { cluster, namespace, webhook } = policyDenies({ controller: FAST });
  const message =
    `\n\nresource ConfigMap/${namespace}/db-credentials was blocked due to the following policies \n\n` +
    `protect-credentials:\n  block-delete: 'validation error: ${HOSTILE}. rule block-delete failed'\n`;
  cluster.denyWebhook(webhook, { message }, (obj) => obj?.metadata.labels?.retain === 'true');
  return { cluster, namespace };
}

/** Where RAW first matches in `text`, with a little context, or undefined: for a readable failure. */
const firstRaw = (text: string): string | undefined => {
  const at = text.search(RAW);
  return at < 0 ? undefined : JSON.stringify(text.slice(Math.max(0, at - 60), at + 20));
};

describe('the action: step log, annotations, summary, report and PR comment', () => {
  let cluster: FakeCluster;
  let gh: FakeGitHub;
  let run: BundleRun;
  beforeAll(async () => {
    const made = hostileCluster();
    cluster = made.cluster;
    gh = new FakeGitHub(TOKEN);
    const api = await gh.start();
    const { kubeconfig } = await cluster.start();
    const dir = tempDir('nt-controls-');
    const event = join(dir, 'event.json');
    writeFileSync(
      event,
      JSON.stringify({ action: 'closed', pull_request: { number: 42, title: `Add cart ${HOSTILE}` } }),
    );
    run = await runBundle(
      { namespaces: made.namespace, kubeconfig, timeout: '6s', 'pr-comment': 'true', 'github-token': TOKEN },
      { GITHUB_API_URL: api, GITHUB_EVENT_PATH: event, GITHUB_EVENT_NAME: 'pull_request' },
    );
  });
  afterAll(async () => {
    await cluster.stop();
    await gh.stop();
  });

  test('the run saw the hostile text (the sinks below are not empty of it)', () => {
    expect(run.outputs.result).toBe('stuck');
    expect(JSON.stringify(run.report)).toContain('validation error: \\u001b[2J');
  });

  test.each([
    {
      sink: 'the step log',
      text: () => run.stdout.replace(/^::error[^\n]*$/gm, '').replace(/^::warning[^\n]*$/gm, ''),
    },
    {
      sink: 'annotations',
      text: () =>
        run.stdout
          .split('\n')
          .filter((l) => /^::(error|warning|notice)/.test(l))
          .join('\n'),
    },
    { sink: 'the job summary', text: () => run.summary },
    { sink: 'the JSON report file', text: () => readFileSync(run.outputs.report!, 'utf8') },
    { sink: 'the PR comment', text: () => gh.comments.map((c) => c.body).join('\n') },
  ])('$sink: no raw control character, the text shown as its escapes', ({ text }) => {
    const t = text();
    expect(firstRaw(t)).toBeUndefined();
    expect(t.length).toBeGreaterThan(0);
  });

  test('each sink shows the text, escaped its own way', () => {
    // The log and the annotations as typed, escapes visible; the report as JSON escapes, which read back exactly.
    expect(run.stdout).toContain(SHOWN);
    expect(run.stdout).toMatch(/^::(error|warning)[^\n]*validation error: \\u001b\[2J/m);
    const report = readFileSync(run.outputs.report!, 'utf8');
    expect(report).toContain(SHOWN);
    expect(JSON.stringify(JSON.parse(report))).toContain('validation error: \\u001b[2J\\u001b]8;;https');
    // Markdown: the backslash of each escape is a character reference, nothing in it is a link or markup.
    expect(run.summary).toContain('&#92;u001b&#91;2J');
    expect(gh.comments.map((c) => c.body).join('\n')).toContain('&#92;u001b&#91;2J');
  });
});

describe('the CLI: stderr, and text, markdown and JSON on stdout', () => {
  let cluster: FakeCluster;
  let args: string[];
  let dir: string;
  beforeAll(async () => {
    const made = hostileCluster();
    cluster = made.cluster;
    const { kubeconfig } = await cluster.start();
    dir = tempDir('nt-controls-cli-');
    writeFileSync(join(dir, 'config'), kubeconfig);
    args = [
      '--kubeconfig',
      join(dir, 'config'),
      '--namespaces',
      made.namespace,
      '--target-label',
      'none',
      '--timeout',
      '4s',
    ];
  });
  afterAll(() => cluster.stop());

  test.each(['text', 'markdown', 'json'])('--output %s', async (output) => {
    const report = join(dir, `report-${output}.json`);
    const run = await runCli([...args, '--output', output, '--report', report]);
    expect(run.code).toBe(1);
    for (const [where, text] of [
      ['stdout', run.stdout],
      ['stderr', run.stderr],
      ['--report', readFileSync(report, 'utf8')],
    ] as const) {
      expect({ where, raw: firstRaw(text) }).toEqual({ where, raw: undefined });
    }
    expect(run.stderr).toContain(SHOWN);
    if (output === 'text') expect(run.stdout).toContain('\\u001b[2J');
    if (output === 'markdown') expect(run.stdout).toContain('&#92;u001b&#91;2J');
    if (output === 'json') {
      const parsed = JSON.parse(run.stdout) as unknown;
      expect(JSON.stringify(parsed)).toContain('validation error: \\u001b[2J');
      expect(run.stdout).toContain('\\u009b31mred');
    }
  });
});
