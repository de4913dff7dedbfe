import { createServer, type Server } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeCluster, kialiStuck, PREVIEW_LABEL } from '../fake-apiserver/index.js';
import { FAST, runCli } from '../helpers/harness.js';
import { tempDir } from '../helpers/temp.js';
import { cells } from '../../src/report/columns.js';
import { allFlags } from '../../src/entry/flags.js';

const LABEL = PREVIEW_LABEL.key;

/** The cluster's kubeconfig in a file, for `--kubeconfig`. */
async function started(cluster: FakeCluster): Promise<string> {
  const { kubeconfig } = await cluster.start();
  const file = join(tempDir('nt-habits-'), 'config');
  writeFileSync(file, kubeconfig);
  return file;
}

/** The table's lines: from its header to the first empty line. */
function tableOf(stdout: string): string[] {
  const lines = stdout.split('\n');
  const at = lines.findIndex((l) => l.startsWith('NAMESPACE '));
  const end = lines.findIndex((l, i) => i > at && l === '');
  return lines.slice(at, end);
}

/** Every word of every flag's help appears whole: joined, the help text holds each flag's help. */
function joinedHelp(text: string): string {
  return text.replace(/\s+/g, ' ');
}

describe('a fence on targets: a target without the preview label is refused before any write', () => {
  let cluster: FakeCluster;
  afterEach(() => cluster?.stop());

  function teamAndPreview(): FakeCluster {
    const c = new FakeCluster({ controller: FAST });
    c.addNamespace('team-a', { labels: { team: 'a' } });
    c.addNamespace('pr-1', { labels: { [LABEL]: '1', team: 'a' } });
    return c;
  }

  test('a newcomer who names a namespace and no label gets bad input (exit 2) and the cluster is never called', async () => {
    cluster = teamAndPreview();
    const config = await started(cluster);
    const before = cluster.requests.length;
    const run = await runCli(['--kubeconfig', config, '--namespaces', 'team-a']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('--target-label');
    expect(run.stderr).toContain('--target-label none');
    expect(cluster.requests.length).toBe(before);
    expect(cluster.namespace('team-a')).toBeDefined();
  });

  test('-n team-a,pr-1 --target-label KEY: team-a refused and untouched, pr-1 deleted; exit 1; the refusal names both', async () => {
    cluster = teamAndPreview();
    const config = await started(cluster);
    const report = join(tempDir('nt-habits-'), 'report.json');
    const from = cluster.requests.length;
    const run = await runCli([
      '--kubeconfig',
      config,
      '-n',
      'team-a,pr-1',
      '--target-label',
      LABEL,
      '--timeout',
      '20s',
      '--report',
      report,
    ]);
    expect(run.code).toBe(1);
    expect(cluster.namespace('team-a')).toBeDefined();
    expect(cluster.namespace('pr-1')).toBeUndefined();
    const writes = cluster.requests.slice(from).filter((r) => r.method !== 'GET');
    expect(writes.filter((r) => r.path.includes('team-a'))).toEqual([]);
    expect(run.stdout).toMatch(/^team-a +refused /m);
    // Cut in its row at 80 columns, said in full under the table.
    expect(run.stdout.replace(/\s+/g, ' ')).toContain(
      `Why, in full team-a: no label ${LABEL} (target-label): not a preview namespace, not touched`,
    );
    const json = JSON.parse(readFileSync(report, 'utf8')) as {
      targets: { name: string; outcome: string; missingLabel?: string }[];
      settings: { targetLabel?: string };
    };
    expect(json.targets.find((t) => t.name === 'team-a')).toMatchObject({
      outcome: 'refused',
      missingLabel: LABEL,
    });
    expect(json.settings.targetLabel).toBe(LABEL);
  }, 60_000);

  test('--target-label none: the explicit opt-out deletes a namespace without any label', async () => {
    cluster = teamAndPreview();
    const config = await started(cluster);
    const run = await runCli([
      '--kubeconfig',
      config,
      '--namespaces',
      'team-a',
      '--target-label',
      'none',
      '--timeout',
      '20s',
    ]);
    expect(run.code).toBe(0);
    expect(cluster.namespace('team-a')).toBeUndefined();
  }, 60_000);
});

describe('kubectl habits', () => {
  let cluster: FakeCluster | undefined;
  afterEach(async () => {
    await cluster?.stop();
    cluster = undefined;
  });

  test('--help into a pipe: 80 columns, no word broken, every flag whole', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.filter((l) => cells(l) > 80)).toEqual([]);
    const all = joinedHelp(run.stdout);
    for (const [name, spec] of allFlags()) {
      expect(all).toContain(`--${name}`);
      expect(all).toContain(joinedHelp(spec.help));
    }
    expect(all).toContain('-n, --namespaces LIST');
    expect(all).toContain('--show-labels');
  });

  test('--help with COLUMNS=120 into a pipe: 120 columns, some line wider than 80', async () => {
    const run = await runCli(['--help'], { COLUMNS: '120' });
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.filter((l) => cells(l) > 120)).toEqual([]);
    expect(lines.some((l) => cells(l) > 80)).toBe(true);
  });

  test('one line per namespace by default (awk $1 is the name); --show-labels adds a LABELS column', async () => {
    cluster = new FakeCluster({ controller: FAST });
    for (const n of ['pr-1', 'pr-2']) cluster.addNamespace(n, { labels: { [LABEL]: n, team: 'web' } });
    const config = await started(cluster);
    const args = ['--kubeconfig', config, '-l', LABEL, '--target-label', LABEL, '--timeout', '20s'];
    const run = await runCli(args);
    expect(run.code).toBe(0);
    const table = tableOf(run.stdout);
    expect(table.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(['pr-1', 'pr-2']);
    expect(run.stdout).not.toContain('team=web');
    cluster.addNamespace('pr-3', { labels: { [LABEL]: 'pr-3', team: 'web' } });
    const shown = await runCli([...args, '--show-labels']);
    const withLabels = tableOf(shown.stdout);
    expect(withLabels[0]).toMatch(/^NAMESPACE +OUTCOME +FOR +WHY +LABELS$|^NAMESPACE +OUTCOME +FOR +LABELS/);
    expect(withLabels.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(['pr-3']);
    expect(withLabels[1]).toContain(`${LABEL}=pr-3,team=web`);
  }, 60_000);

  test('a server that refuses the connection: exit 3, not 1 (stuck)', async () => {
    const dead = join(tempDir('nt-habits-'), 'config');
    writeFileSync(dead, kubeconfigFor('https://127.0.0.1:1'));
    const run = await runCli([
      '--kubeconfig',
      dead,
      '-n',
      'pr-1',
      '--target-label',
      'none',
      '--timeout',
      '5s',
    ]);
    expect(run.code).toBe(3);
    expect(run.stdout).toContain('cannot reach the Kubernetes API server');
  }, 60_000);

  test('a name that does not resolve: exit 3', async () => {
    const dead = join(tempDir('nt-habits-'), 'config');
    writeFileSync(dead, kubeconfigFor('https://no-such-cluster.invalid:6443'));
    const run = await runCli([
      '--kubeconfig',
      dead,
      '-n',
      'pr-1',
      '--target-label',
      'none',
      '--timeout',
      '5s',
    ]);
    expect(run.code).toBe(3);
  }, 60_000);

  test('a server that accepts and never answers: exit 3 at the timeout', async () => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    try {
      const file = join(tempDir('nt-habits-'), 'config');
      writeFileSync(file, kubeconfigFor(`https://127.0.0.1:${port}`));
      const run = await runCli([
        '--kubeconfig',
        file,
        '-n',
        'pr-1',
        '--target-label',
        'none',
        '--timeout',
        '1s',
      ]);
      expect(run.code).toBe(3);
    } finally {
      silent.close();
    }
  }, 60_000);

  test('a TLS server whose certificate the kubeconfig does not trust: exit 3', async () => {
    cluster = new FakeCluster({ controller: FAST });
    const { kubeconfig } = await cluster.start();
    const file = join(tempDir('nt-habits-'), 'config');
    // Another CA than the server's: the handshake fails before any answer.
    writeFileSync(
      file,
      kubeconfig.replace(/certificate-authority-data: .*/, `certificate-authority-data: ${OTHER_CA}`),
    );
    const run = await runCli([
      '--kubeconfig',
      file,
      '-n',
      'pr-1',
      '--target-label',
      'none',
      '--timeout',
      '5s',
    ]);
    expect(run.code).toBe(3);
  }, 60_000);

  test('-o json outside Actions invents no GitHub server', async () => {
    cluster = new FakeCluster({ controller: FAST });
    const config = await started(cluster);
    const run = await runCli([
      '--kubeconfig',
      config,
      '-n',
      'gone-already',
      '--target-label',
      'none',
      '-o',
      'json',
    ]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { context: Record<string, unknown> };
    expect(report.context.serverUrl).toBeUndefined();
    expect(run.stdout).not.toContain('github.com');
  }, 60_000);

  test('what the identity could not read is on stdout, with the verdict it leaves unknown', async () => {
    const s = kialiStuck({ controller: FAST });
    cluster = s.cluster;
    cluster.denyRBAC({ verb: 'list', resource: 'kialis', group: 'kiali.io' });
    const config = await started(cluster);
    const run = await runCli([
      '--kubeconfig',
      config,
      '-n',
      s.namespace,
      '--target-label',
      LABEL,
      '--timeout',
      '4s',
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/Not read/);
    expect(run.stdout).toContain('list kialis.kiali.io');
    expect(run.stdout).toMatch(/unknown/);
    expect(run.stdout).not.toContain('the other findings name the culprits.');
  }, 60_000);
});

function kubeconfigFor(server: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: c`,
    `  cluster: { server: "${server}", certificate-authority-data: ${OTHER_CA} }`,
    'users:',
    '- name: u',
    '  user: { token: abc }',
    'contexts:',
    '- name: c',
    '  context: { cluster: c, user: u }',
    'current-context: c',
    '',
  ].join('\n');
}

/** A CA no server in these tests uses. */
const OTHER_CA = readFileSync(new URL('./fixtures/other-ca.b64', import.meta.url), 'utf8').trim();
