/** Fleets for tests: fake clusters under names of their own, runs through the real entry, reports on disk. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { runOnCluster } from '../../src/entry/engine.js';
import type { Finding } from '../../src/model/findings.js';
import type { RunReport } from '../../src/model/run.js';
import { reportJson } from '../../src/report/json.js';
import { readSettings } from '../../src/settings/settings.js';
import { RecordingLogger, systemClock } from '../../src/shared/ports.js';
import { addKialiCR, addKialiCRD, addPreview, FAST, FakeCluster } from '../fake-apiserver/index.js';
import { runReport, targetReport } from './reports.js';
import { UNFENCED } from './inputs.js';

/** The fake cluster's kubeconfig with its cluster, user and context all called `name`. */
export function renamed(kubeconfig: string, name: string): string {
  return kubeconfig.replace(/^(\s*(?:- name|cluster|user|current-context): )fake$/gm, `$1${name}`);
}

type Named = { name: string; [key: string]: unknown };

/** One kubeconfig holding every (single-cluster) kubeconfig given, each cluster, user and context called `name`. */
export function joinKubeconfigs(configs: { name: string; kubeconfig: string }[]): string {
  const docs = configs.map(({ name, kubeconfig }) => {
    const doc = parse(kubeconfig) as { clusters: Named[]; users: Named[]; contexts: Named[] };
    return {
      clusters: doc.clusters.map((c) => ({ ...c, name })),
      users: doc.users.map((u) => ({ ...u, name })),
      contexts: doc.contexts.map((c) => ({ ...c, name, context: { cluster: name, user: name } })),
    };
  });
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: docs.flatMap((d) => d.clusters),
    users: docs.flatMap((d) => d.users),
    contexts: docs.flatMap((d) => d.contexts),
    'current-context': configs[0]!.name,
  });
}

/** A cluster with preview namespaces `preview-pr-<n>`; those in `leaked` hold a Kiali CR whose operator is gone. */
export function previewCluster(prs: number[], leaked: number[] = []): FakeCluster {
  const cluster = new FakeCluster({ controller: FAST });
  addKialiCRD(cluster);
  for (const pr of prs) {
    const ns = addPreview(cluster, pr, 'checkout');
    if (leaked.includes(pr)) addKialiCR(cluster, ns);
  }
  return cluster;
}

/** Run the teardown through the real entry (connect, name the cluster, run, close), as each matrix job does. */
export async function runCluster(kubeconfig: string, inputs: Record<string, string>): Promise<RunReport> {
  const settings = readSettings((name) => ({ ...UNFENCED, kubeconfig, ...inputs })[name] ?? '');
  return runOnCluster(
    settings,
    {
      kubeconfig,
      logger: new RecordingLogger(),
      pluginLog: () => undefined,
      signal: new AbortController().signal,
      started: systemClock.now(),
      github: () => Promise.reject(new Error('no GitHub in this test')),
      env: {},
    },
    { repository: 'acme/shop' },
  );
}

/** Write each report as the action does, one directory per artifact (`pattern:` without `merge-multiple`). */
export function writeArtifacts(dir: string, reports: RunReport[]): void {
  for (const report of reports) {
    const artifact = join(dir, `namespace-teardown-${report.context.cluster?.name ?? 'unnamed'}`);
    mkdirSync(artifact, { recursive: true });
    writeFileSync(
      join(artifact, 'namespace-teardown-teardown-20261122T100000Z-abcdef.json'),
      [...reportJson(report)].join(''),
    );
  }
}

/** The verdict a leaked Kiali finalizer gets in namespace `ns` (as the diagnosis writes it). */
export function leakedKiali(ns: string): Finding {
  return {
    id: 'finalizer-owner-gone',
    severity: 'error',
    cause: 'finalizer:kiali.io/finalizer|kialis.kiali.io|absent',
    summary: `kiali.io/finalizer on kialis.kiali.io/kiali: no controller for it runs in the cluster (leaked: its owner is gone)`,
    causeSummary: 'kiali.io/finalizer on kialis.kiali.io objects: no controller for it runs in the cluster',
    evidence: [
      { object: 'kialis.kiali.io/kiali', field: 'metadata.finalizers', value: 'kiali.io/finalizer' },
    ],
    remedy: {
      commands: [
        `kubectl patch kialis.kiali.io kiali -n ${ns} --type=json -p '[{"op":"remove","path":"/metadata/finalizers/0"}]'`,
      ],
      policy: 'force-finalizers: kiali.io/finalizer',
    },
    objects: 1,
    leaked: true,
  };
}

/** A cluster's report: `stuck` namespaces held by a leaked Kiali finalizer, `gone` ones gone. */
export function clusterReport(
  name: string,
  over: { stuck?: string[]; gone?: string[]; context?: string; server?: string; finishedAt?: string } = {},
): RunReport {
  const stuck = (over.stuck ?? []).map((ns) =>
    targetReport(ns, { outcome: 'stuck', terminatingForMs: 300_000, findings: [leakedKiali(ns)] }),
  );
  const gone = (over.gone ?? []).map((ns) => targetReport(ns, { durationMs: 2_000 }));
  return runReport([...stuck, ...gone], {
    context: {
      repository: 'acme/shop',
      cluster: {
        name,
        context: over.context ?? `kind-${name}`,
        server: over.server ?? `${name}.example.com:6443`,
      },
    },
    result: stuck.length ? 'stuck' : 'clean',
    ...(over.finishedAt ? { finishedAt: over.finishedAt } : {}),
  });
}
