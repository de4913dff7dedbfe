/**
 * Forcing at scale: one namespace whose thousands of custom resources hold a leaked finalizer, forced with
 * `force-finalizers` — the requests the forcing pass sends and its wall time, and the same pass in dry-run.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { diagnose, takeSnapshot } from '../src/diagnosis/index.js';
import { executePlan } from '../src/force/execute.js';
import { decide } from '../src/force/policy.js';
import { createKube } from '../src/kube/client.js';
import { RecordingLogger, systemClock } from '../src/shared/ports.js';
import type { Options } from './args.js';
import { measure, type Sample } from './measure.js';
import { LEAKED_FINALIZER } from './protocol.js';
import type { RemoteCluster } from './remote.js';
import type { Target } from './stats.js';

const NAMESPACE = 'preview-leaked';

export interface ForcingResult {
  objects: number;
  latencyMs: number;
  diagnosis: Sample;
  dryRun: Sample;
  on: Sample & { patches: number; gets: number; removed: number; logLines: number };
}

async function pass(remote: RemoteCluster, kc: KubeConfig, mode: 'dry-run' | 'on') {
  const kube = createKube(kc);
  try {
    const ns = await kube.getNamespace(NAMESPACE);
    if (!ns) throw new Error(`bench: ${NAMESPACE} is gone`);
    const snapshot = await takeSnapshot(kube, ns);
    const findings = diagnose(snapshot);
    const policy = {
      mode,
      afterMs: 0,
      finalizerPatterns: [LEAKED_FINALIZER],
      finalizeNamespace: false,
      deletePods: 'off' as const,
    };
    const plan = decide(policy, ns, findings, Date.now(), () => false, snapshot.leftovers);
    const logger = new RecordingLogger();
    const m = await measure(remote, () =>
      executePlan(kube, plan, { dryRun: mode !== 'on', logger, clock: systemClock, expectedUid: ns.uid }),
    );
    return { m, logger };
  } finally {
    await kube.close();
  }
}

/** Section 6: forcing `objects` leaked custom resources at the bench's latency. */
export async function runForcing(
  remote: RemoteCluster,
  opts: Options,
  log: (line: string) => void,
): Promise<ForcingResult> {
  const objects = opts.smoke ? 20 : opts.quick ? 200 : 2000;
  const started = await remote.start({
    spec: { kind: 'leaked', namespace: NAMESPACE, objects },
    latencyMs: opts.latencyMs,
  });
  const kc = new KubeConfig();
  kc.loadFromString(started.kubeconfig);
  const diagnosis = await measure(remote, async () => {
    const kube = createKube(kc);
    const ns = await kube.getNamespace(NAMESPACE);
    diagnose(await takeSnapshot(kube, ns!));
    await kube.close();
  });
  const dry = await pass(remote, kc, 'dry-run');
  const on = await pass(remote, kc, 'on');
  const patches = on.m.log.filter((r) => r.method === 'PATCH').length;
  const gets = on.m.log.filter((r) => r.method === 'GET').length;
  const removed = on.m.value.filter((e) => e.result === 'removed').length;
  log(
    `forcing: ${objects} objects: ${on.m.sample.requests} requests (${patches} PATCH, ${gets} GET) in ${Math.round(on.m.sample.wallMs)} ms; dry-run ${dry.m.sample.requests} requests`,
  );
  return {
    objects,
    latencyMs: opts.latencyMs,
    diagnosis: diagnosis.sample,
    dryRun: dry.m.sample,
    on: { ...on.m.sample, patches, gets, removed, logLines: on.logger.lines.length },
  };
}

/** The target line: requests of the forcing pass against the goal of 1.1 per object. */
export function forcingTargets(r: ForcingResult): Target[] {
  const limit = Math.round(r.objects * 1.1);
  return [
    {
      id: 'forcing-requests',
      name: `Forcing ${r.objects.toLocaleString('en-US')} leaked custom resources: requests of the pass`,
      goal: `≤ ${limit.toLocaleString('en-US')} requests (${r.objects.toLocaleString('en-US')} removals)`,
      pass: r.on.requests <= limit && r.on.removed === r.objects,
      measured: `${r.on.requests} requests (${r.on.patches} PATCH, ${r.on.gets} GET), ${r.on.removed} removed, ${Math.round(r.on.wallMs)} ms`,
    },
  ];
}

const ms = (n: number): string => `${Math.round(n)} ms`;

/** Section 6 of BENCHMARKS.md. */
export function renderForcing(r: ForcingResult): string {
  const n = r.objects.toLocaleString('en-US');
  return `## 6. Forcing at scale

**Setup.** One namespace \`${NAMESPACE}\`, Terminating, with ${n} custom resources that each hold
\`${LEAKED_FINALIZER}\`, whose controller is gone; one pass of the namespace controller marked them all for
deletion. ${r.latencyMs} ms latency per request. The diagnosis runs once (its scan lists the objects, metadata only),
then \`decide\` with \`force-finalizers: ${LEAKED_FINALIZER}\` and \`executePlan\`: the namespace is read once per
pass, each object gets one merge PATCH carrying the UID and resourceVersion the scan listed (no read before it), eight
in flight; a 409 would read that object again.

| Pass | Wall time | Requests | What | Log lines |
| --- | --- | --- | --- | --- |
| diagnosis (scan + cluster reads) | ${ms(r.diagnosis.wallMs)} | ${r.diagnosis.requests} | discovery, metadata lists, reads | — |
| forcing, dry-run | ${ms(r.dryRun.wallMs)} | ${r.dryRun.requests} | the namespace read; nothing written | — |
| forcing, \`force: on\` | ${ms(r.on.wallMs)} | ${r.on.requests} | ${r.on.patches} PATCH, ${r.on.gets} GET; ${r.on.removed} removed | ${r.on.logLines} |

A pass that read the namespace and the object before every PATCH would send about
${(r.objects * 3).toLocaleString('en-US')} requests for ${n} objects. The floor at this latency with eight in flight is
${ms((r.objects / 8) * r.latencyMs)}.`;
}
