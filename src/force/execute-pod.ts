/**
 * Step 0 against the cluster: re-read the pod and its node, then delete it with grace 0 and a UID precondition; deleted
 * only when the answer shows it removed.
 */
import { enc } from '../kube/paths.js';
import { sent, type Run, type StepResult } from './attempt.js';
import type { PodDeleteStep } from '../model/force.js';

type Json = Record<string, unknown>;
const rec = (v: unknown): Json => (typeof v === 'object' && v !== null ? (v as Json) : {});

function readyOf(node: unknown): string | undefined {
  const conditions = rec(rec(node).status).conditions;
  const ready = Array.isArray(conditions) ? conditions.map(rec).find((c) => c.type === 'Ready') : undefined;
  return typeof ready?.status === 'string' ? ready.status : undefined;
}

/** Why the fresh pod must not be deleted after all, if it must not. */
function staleReason(step: PodDeleteStep, pod: unknown): string | undefined {
  const meta = rec(rec(pod).metadata);
  if (meta.uid !== step.uid) return 'object recreated';
  if (rec(rec(pod).spec).nodeName !== step.node) return `no longer bound to node ${step.node}`;
  // Only a pod the namespace controller already asked to stop: the kubelet's confirmation is all that is missing.
  if (typeof meta.deletionTimestamp !== 'string') return 'not being deleted yet';
  return undefined;
}

/** One attempt of a pod-delete step; the caller has checked the namespace UID. */
export async function podAttempt(run: Run, step: PodDeleteStep): Promise<StepResult> {
  const pod = await run.kube.getRaw(`/api/v1/namespaces/${enc(step.namespace)}/pods/${enc(step.name)}`);
  if (pod === undefined) return { result: 'gone', before: [], after: [] };
  const finalizers = rec(rec(pod).metadata).finalizers;
  const kept = Array.isArray(finalizers) ? finalizers.filter((f): f is string => typeof f === 'string') : [];
  const stale = staleReason(step, pod);
  if (stale) return { result: 'skipped', why: `${stale}`, before: kept, after: kept };
  // The node may have come back since the diagnosis: then its kubelet finishes the pod properly.
  const node = await run.kube.getRaw(`/api/v1/nodes/${enc(step.node)}`);
  if (node !== undefined && readyOf(node) === 'True') {
    return { result: 'skipped', why: `node ${step.node} is Ready again`, before: kept, after: kept };
  }
  if (run.dryRun) return { result: 'dry-run', before: kept, after: kept };
  const answer = await sent(run, () => run.kube.deletePod(step.namespace, step.name, step.uid));
  if (answer === 'gone') return { result: 'gone', before: kept, after: [] };
  if (answer.removed) return { result: 'deleted', before: kept, after: [] };
  // Deleted with grace period 0, yet still there: what the answer shows holds it.
  const held = answer.answer.meta.finalizers;
  const by = held.length ? `held by ${held.join(', ')}` : 'a grace period still pending';
  return {
    result: 'not-removed',
    why: `the DELETE's answer shows the pod still there, ${by}`,
    before: kept,
    after: held,
  };
}
