import type { FakeCluster } from '../fake-apiserver/index.js';
import { cells } from '../../src/report/columns.js';
import { hasTmux, inTmux, stuckCluster } from '../helpers/terminal.js';

const WIDTH = 120;
const tmux = hasTmux();
if (!tmux)
  console.warn('tmux is not installed: the terminal tests of the CLI are skipped (apt-get install tmux).');
const maybe = tmux ? describe : describe.skip;

// eslint-disable-next-line no-control-regex
const ESC = /\u001b\[/;
const MARKUP = /<\/?[a-z][a-z0-9]*(\s[^>]*)?>|&(#\d+|#x[0-9a-f]+|[a-z]+);/i;
const TABLE_RULE = /^\s*\|?\s*:?-{3,}:?\s*\|/m;

/** The script as the shell reads it: ` \` continuations joined, the indent of the next line dropped. */
const joined = (lines: string[]): string => lines.join('\n').replace(/ \\\n\s*/g, ' ');

maybe.each([80, 120])('the CLI in a real terminal (tmux, %i columns) against the fake cluster', (width) => {
  let cluster: FakeCluster;
  let screen: string;
  let code: number;
  let kubeconfigFile: string;
  beforeAll(async () => {
    const made = await stuckCluster({ hung: true });
    cluster = made.cluster;
    kubeconfigFile = made.kubeconfigFile;
    const cli = `node dist/cli/index.js --kubeconfig ${made.kubeconfigFile} -n pr-7,ks-old,pr-9 --target-label preview.example.com/pr --timeout 3s`;
    ({ screen, code } = await inTmux(cli, { width, escapes: true }));
  }, 120_000);
  afterAll(() => cluster?.stop());

  test('plain text: no markup, each fix on lines of its own, nothing wider than the terminal', () => {
    expect(code).toBe(1);
    expect(screen).toMatch(ESC); // a terminal gets colour
    // eslint-disable-next-line no-control-regex
    const text = screen.replace(/\u001b\[[0-9;]*m/g, '');
    const lines = text.split('\n');
    expect(lines[0]).toBe('✗ Namespace teardown: 2 stuck, 1 gone of 3 namespaces');
    expect(text).not.toMatch(MARKUP);
    expect(text).not.toMatch(TABLE_RULE);
    expect(text).not.toMatch(/```|^#{1,6} |\*\*/m);
    expect(lines.filter((l) => cells(l) > width)).toEqual([]);
    expect(lines.filter((l) => l.trim() === '\\')).toEqual([]);
    // The live status line was cleared: only the result is left.
    expect(text).not.toMatch(/\d+ of 3 gone/);
    const fixes: [string, string][] = [
      ['ks-old', 'kubectl --context fake patch namespace ks-old --type=json -p'],
      ['pr-7', 'kubectl --context fake patch kialis.kiali.io kiali -n pr-7 --type=json -p'],
    ];
    for (const [target, command] of fixes) {
      const at = lines.findIndex((l) => l.trim().startsWith(command.split(' --type')[0]!));
      expect([target, at]).not.toEqual([target, -1]);
      // Nothing but the command on its lines: no prompt; the JSON patch below it, closed on its own line.
      const end = lines.findIndex((l, i) => i > at && l.trim() === "]'");
      const script = joined(lines.slice(at, end + 1).map((l) => l.trim()));
      expect(script.startsWith(`${command} '[`)).toBe(true);
      const patch = JSON.parse(/'(\[[\s\S]*\])'/.exec(script)![1]!) as { op: string; path: string }[];
      expect(patch[0]).toMatchObject({ op: 'test', path: '/metadata/uid' });
      expect(patch.at(-1)).toMatchObject({ op: 'remove' });
    }
    expect(text).toMatch(/^ks-old +stuck +\d+s +namespace ks-old metadata\.finalizers holds/m);
    expect(text).toMatch(/^pr-9 +gone +\d+m?s/m);
    // One line per namespace, its name first: no row of labels under it, as kubectl prints.
    const head = lines.findIndex((l) => l.startsWith('NAMESPACE '));
    const end = lines.findIndex((l, i) => i > head && l === '');
    expect(lines.slice(head + 1, end).map((l) => l.split(/\s+/)[0])).toEqual(['ks-old', 'pr-7', 'pr-9']);
    expect(text).not.toContain('preview.example.com/pr=');
  });

  test('bad input on a terminal: the refusal wrapped to its width, never mid-word; the cluster never called', async () => {
    const from = cluster.requests.length;
    const run = await inTmux(`node dist/cli/index.js --kubeconfig ${kubeconfigFile} -n pr-9`, { width });
    expect(run.code).toBe(2);
    const lines = run.screen.split('\n').filter(Boolean);
    expect(lines.filter((l) => cells(l) > width)).toEqual([]);
    expect(lines[0]).toMatch(/^namespace-teardown: --target-label is empty, and so is --sweep-pr-label/);
    expect(run.screen.replace(/\s+/g, ' ')).toContain('say so: --target-label none.');
    expect(cluster.requests.length).toBe(from);
  }, 60_000);

  test('--help: wrapped to the terminal, no line wider, no word broken', async () => {
    const help = await inTmux('node dist/cli/index.js --help', { width });
    const lines = help.screen.split('\n');
    expect(help.code).toBe(0);
    expect(lines.filter((l) => cells(l) > width)).toEqual([]);
    // Wider than 80 columns where the terminal is: the width is the terminal's, not a fixed one.
    expect(lines.some((l) => cells(l) > 80)).toBe(width > 80);
    expect(help.screen.replace(/\s+/g, ' ')).toContain(
      "the label every target must carry to be deleted or forced; one without it is refused (default: --sweep-pr-label; 'none': no fence)",
    );
  }, 60_000);
});

maybe('the CLI in a real terminal (tmux, 120 columns): formats and scopes', () => {
  let cluster: FakeCluster;
  let cli: string;
  beforeAll(async () => {
    const made = await stuckCluster({ hung: true });
    cluster = made.cluster;
    cli = `node dist/cli/index.js --kubeconfig ${made.kubeconfigFile} -n pr-7,ks-old,pr-9 --target-label preview.example.com/pr --timeout 3s`;
  }, 120_000);
  afterAll(() => cluster?.stop());

  test('NO_COLOR: not one escape code', async () => {
    const { screen } = await inTmux(`NO_COLOR=1 ${cli}`, { width: WIDTH, escapes: true });
    expect(screen).toContain('Namespace teardown: 2 stuck');
    expect(screen).not.toMatch(ESC);
  }, 60_000);

  test('a pipe: the same plain text, no colour; markdown only when asked for', async () => {
    const { screen } = await inTmux(`${cli} 2>/dev/null | cat`, { width: WIDTH, escapes: true });
    expect(screen.split('\n')[0]).toMatch(
      /^✗ Namespace teardown: 2 stuck, 1 (already )?gone of 3 namespaces$/,
    );
    expect(screen).not.toMatch(ESC);
    expect(screen).not.toMatch(MARKUP);
    const md = await inTmux(`${cli} -o markdown 2>/dev/null | cat`, { width: WIDTH, escapes: true });
    expect(md.screen).toContain('## ❌ Namespace teardown: 2 stuck');
    expect(md.screen).not.toMatch(ESC);
  }, 60_000);

  test('--output json prints the report, which parses', async () => {
    const { screen } = await inTmux(`${cli} --output json 2>/dev/null`, { width: WIDTH, escapes: true });
    const report = JSON.parse(screen) as { targets: { name: string; outcome: string }[] };
    expect(report.targets.map((t) => [t.name, t.outcome]).sort()).toEqual([
      ['ks-old', 'stuck'],
      ['pr-7', 'stuck'],
      ['pr-9', 'already-gone'],
    ]);
  }, 60_000);

  test('--scope all-terminating: the namespaces already Terminating, diagnosed, nothing deleted or written', async () => {
    // Someone else's teardown left two of them hanging.
    const made = await stuckCluster({ hung: true });
    try {
      const base = `node dist/cli/index.js --kubeconfig ${made.kubeconfigFile} --timeout 3s`;
      const from = made.cluster.requests.length;
      const { screen, code } = await inTmux(
        `${base} --scope all-terminating --selector preview.example.com/pr=7`,
        {
          width: WIDTH,
        },
      );
      expect(code).toBe(1);
      const lines = screen.split('\n');
      expect(lines[0]).toBe('✗ Namespace teardown: 1 stuck of 1 namespace');
      expect(screen).toMatch(/^pr-7 +stuck +\d+s +kiali\.io\/finalizer on kialis\.kiali\.io\/kiali/m);
      expect(screen).not.toMatch(/^ks-old/m);
      expect(made.cluster.requests.slice(from).filter((r) => r.method !== 'GET')).toEqual([]);
    } finally {
      await made.cluster.stop();
    }
  }, 60_000);
});
