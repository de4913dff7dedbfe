/**
 * The pre-mortem's rules: from one read-only snapshot of an Active namespace (and the diagnosis of it), what its
 * deletion will run into. Pure; the same owner evidence (`findOwner`) the diagnosis uses, so both always agree.
 */
import {
  heldBy,
  isBuiltInFinalizer,
  objectLabel,
  releaseVerdict,
  type Snapshot,
  type WebhookState,
} from '../diagnosis/index.js';
import type { Evidence, Finding, Leftover } from '../model/findings.js';
import type { TeardownOrder } from '../settings/settings.js';
import { compareText } from '../shared/compare.js';
import { controllerPresence } from './custom-resource-decision.js';
import type { Prediction } from '../model/prevention.js';

/** What the predictions depend on besides the snapshot. */
export interface PredictContext {
  order: TeardownOrder;
  /** Whether the cluster deletes pods first (Kubernetes 1.33+); 'unknown' when its version could not be read. */
  podsFirst: boolean | 'unknown';
}

const PVC_PROTECTION = 'kubernetes.io/pvc-protection';
const LB_CLEANUP = 'service.kubernetes.io/load-balancer-cleanup';

const holderEvidence = (f: string, objects: Leftover[]): Evidence[] =>
  objects
    .slice(0, 5)
    .map((l) => ({ object: objectLabel(l.resource, l.meta.name), field: 'metadata.finalizers', value: f }));

/** Leftovers holding each finalizer, sorted by finalizer. */
function holders(s: Snapshot): [string, Leftover[]][] {
  const by = new Map<string, Leftover[]>();
  for (const l of s.leftovers)
    for (const f of new Set(l.meta.finalizers)) by.set(f, [...(by.get(f) ?? []), l]);
  return [...by].sort((a, b) => compareText(a[0], b[0]));
}

function podsFirstWords(ctx: PredictContext): string {
  if (ctx.podsFirst === true) return 'this cluster deletes pods first (Kubernetes 1.33+)';
  if (ctx.podsFirst === false) return 'this cluster does not delete pods first, so it may still run in time';
  return 'on Kubernetes 1.33+ pods are deleted first';
}

/** A finalizer whose controller is absent (a certain leak), or runs inside this very namespace. */
function finalizerPredictions(s: Snapshot, ctx: PredictContext): Prediction[] {
  return holders(s).flatMap(([f, objects]): Prediction[] => {
    if (isBuiltInFinalizer(f)) return [];
    const verdict = releaseVerdict(s, f, heldBy(objects));
    const presence = controllerPresence(verdict);
    const base = {
      subject: f,
      objects: objects.map((l) => objectLabel(l.resource, l.meta.name)),
      evidence: holderEvidence(f, objects),
    };
    if (presence.present === false) {
      const summary = `leak of ${f}: ${presence.why}; nothing will remove it`;
      return [{ ...base, kind: 'leak', hang: true, key: `leak ${f}`, summary }];
    }
    if (presence.present !== true || verdict.kind !== 'deadlock') return [];
    const runs = `${f}: its controller ${presence.why}`;
    const evidence = [...base.evidence, { object: 'controller', field: 'runs in', value: presence.why }];
    if (ctx.order === 'namespace') {
      const hang = ctx.podsFirst !== false;
      const summary = `${runs}; ${podsFirstWords(ctx)}, so it stops before its resources are deleted: a deadlock`;
      return [
        {
          ...base,
          evidence,
          kind: 'in-namespace-controller',
          hang,
          key: `in-namespace ${f} namespace`,
          summary,
        },
      ];
    }
    const summary = `${runs}; its custom resources are deleted first, while it still runs`;
    return [
      {
        ...base,
        evidence,
        kind: 'in-namespace-controller',
        hang: false,
        key: `in-namespace ${f} first`,
        summary,
      },
    ];
  });
}

/** Pods bound to a node that is gone or not Ready: the kubelet can never confirm they stopped. */
function lostNodePredictions(s: Snapshot): Prediction[] {
  const lost = s.nodes.filter((n) => !n.exists || n.ready !== 'True');
  return lost.map((n) => {
    const pods = s.pods.filter((p) => p.nodeName === n.name).map((p) => `pods/${p.name}`);
    const state = n.exists
      ? `Ready ${n.ready}${n.readySince ? ` since ${n.readySince}` : ''}`
      : 'gone from the API';
    return {
      kind: 'lost-node',
      hang: true,
      key: `lost-node ${n.name}`,
      subject: n.name,
      objects: pods,
      summary: `pods on node ${n.name} (${state}) can never be confirmed stopped, and everything else waits for them (force-delete-pods: lost-nodes can finish them)`,
      evidence: [{ object: `node/${n.name}`, field: 'status.conditions[Ready]', value: state }],
    };
  });
}

/** An unavailable APIService, as the diagnosis already reports it. */
function apiServicePredictions(findings: readonly Finding[]): Prediction[] {
  return findings
    .filter((f) => f.id === 'apiservice-unavailable')
    .map((f) => {
      const subject = (f.evidence[0]?.object ?? '').replace(/^apiservice\//, '');
      return {
        kind: 'apiservice',
        hang: true,
        key: `apiservice ${subject}`,
        subject,
        objects: [],
        summary: f.summary,
        evidence: f.evidence.slice(0, 3),
      };
    });
}

/** Whether a webhook's DELETE rule entry (`*`, `res`, `res.group`, with `*` parts) covers a leftover's type. */
export function intercepts(entry: string, l: Leftover): boolean {
  if (entry === '*') return true;
  const dot = entry.indexOf('.');
  const res = dot < 0 ? entry : entry.slice(0, dot);
  const group = dot < 0 ? '' : entry.slice(dot + 1);
  return (res === '*' || res === l.resource.resource) && (group === '*' || group === l.resource.group);
}

/** A `failurePolicy: Fail` webhook on DELETE whose in-cluster service has no ready endpoint, for types present here. */
function webhookPredictions(s: Snapshot): Prediction[] {
  const down = (w: WebhookState): boolean =>
    w.failurePolicy === 'Fail' && w.backing !== undefined && w.backing.readyEndpoints === 0;
  return s.webhooks.filter(down).flatMap((w): Prediction[] => {
    const hit = s.leftovers.filter((l) => w.deleteResources.some((e) => intercepts(e, l)));
    if (hit.length === 0) return [];
    const svc = w.service ? `${w.service.namespace}/${w.service.name}` : '?';
    const state = w.backing?.serviceExists === false ? 'does not exist' : 'has no ready endpoint';
    return [
      {
        kind: 'webhook',
        hang: true,
        key: `webhook ${w.name}`,
        subject: w.name,
        objects: hit.slice(0, 20).map((l) => objectLabel(l.resource, l.meta.name)),
        summary: `webhook ${w.name} (failurePolicy Fail) will refuse the deletes: its service ${svc} ${state}`,
        evidence: [
          {
            object: `${w.kind}/${w.configuration}`,
            field: 'webhooks[].clientConfig.service',
            value: `${svc} ${state}`,
          },
        ],
      },
    ];
  });
}

/** PVCs and LoadBalancer Services: their controllers clean up outside the namespace, which can take minutes. */
function slowPredictions(s: Snapshot): Prediction[] {
  const pvcs = s.leftovers.filter(
    (l) => l.resource.group === '' && l.resource.resource === 'persistentvolumeclaims',
  );
  const lbs = s.leftovers.filter((l) => l.meta.finalizers.includes(LB_CLEANUP));
  const out: Prediction[] = [];
  if (pvcs.length) {
    const summary = `PersistentVolumeClaims: ${PVC_PROTECTION} holds each until no pod mounts it, then the volume is released`;
    out.push({
      kind: 'slow-cleanup',
      hang: false,
      key: 'slow pvc',
      subject: PVC_PROTECTION,
      objects: pvcs.map((l) => objectLabel(l.resource, l.meta.name)),
      summary,
      evidence: [],
    });
  }
  if (lbs.length) {
    const summary = `LoadBalancer Services: ${LB_CLEANUP} holds each until the cloud load balancer is deleted, often minutes`;
    out.push({
      kind: 'slow-cleanup',
      hang: false,
      key: 'slow lb',
      subject: LB_CLEANUP,
      objects: lbs.map((l) => objectLabel(l.resource, l.meta.name)),
      summary,
      evidence: [],
    });
  }
  return out;
}

/** Every prediction for one Active namespace, certain hangs first. */
export function predict(s: Snapshot, findings: readonly Finding[], ctx: PredictContext): Prediction[] {
  const all = [
    ...apiServicePredictions(findings),
    ...webhookPredictions(s),
    ...lostNodePredictions(s),
    ...finalizerPredictions(s, ctx),
    ...slowPredictions(s),
  ];
  return all.sort((a, b) => Number(b.hang) - Number(a.hang) || compareText(a.key, b.key));
}

/** Whether a server version (`/version`'s major and minor) deletes pods first: 1.33 and later do by default. */
export function deletesPodsFirst(version: unknown): boolean | 'unknown' {
  const v = version !== null && typeof version === 'object' ? (version as Record<string, unknown>) : {};
  const major = Number.parseInt(String(v.major ?? ''), 10);
  const minor = Number.parseInt(String(v.minor ?? ''), 10);
  if (Number.isNaN(major) || Number.isNaN(minor)) return 'unknown';
  return major > 1 || (major === 1 && minor >= 33);
}
