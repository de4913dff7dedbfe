/** Whether to wait for one custom resource: only while the controllers behind its finalizers are judged present. Pure. */
import {
  BUILT_IN_FINALIZERS,
  builtInActor,
  heldBy,
  isBuiltInFinalizer,
  releaseVerdict,
  type ReleaseVerdict,
  type Snapshot,
} from '../diagnosis/index.js';
import type { Leftover } from '../model/findings.js';

/** Wait (with the evidence that its controllers run), or not (the finalizer whose controller is not seen running). */
export type WaitDecision =
  | { wait: true; why: string }
  | { wait: false; reason: 'controller-absent' | 'controller-unknown'; finalizer: string; why: string };

/** Whether an actor that can release the finalizer is alive now, and the evidence read in this run. */
export function controllerPresence(v: ReleaseVerdict): { present: boolean | 'unknown'; why: string } {
  const said = (a: ReleaseVerdict['actors'][number]): string =>
    `${a.name} is alive (${a.liveness.evidence[0] ?? ''}; ${a.link})`;
  switch (v.kind) {
    case 'working':
      return { present: true, why: v.via[0] ?? `${v.released} of ${v.of} released it` };
    case 'running':
      return { present: true, why: v.actors[0] ? said(v.actors[0]) : (v.via[0] ?? 'its controller runs') };
    case 'deadlock': {
      // Inside the target and alive: it runs until the namespace DELETE stops its pods.
      const live = v.actors.find((a) => a.liveness.state === 'live');
      if (live) return { present: true, why: `${said(live)} inside the namespace` };
      return { present: false, why: v.clue };
    }
    case 'not-running':
      return {
        present: false,
        why: `${v.actors[0]?.name ?? 'its controller'} is not alive (${v.via.join('; ')})`,
      };
    case 'absent':
      return { present: false, why: v.detail };
    case 'unknown':
      return { present: 'unknown', why: v.reason };
  }
}

/**
 * Decide for one leftover: no finalizers → it goes at once (wait to see it gone); every finalizer served by a
 * controller judged present (Kubernetes' own, or a workload seen running) → wait; otherwise do not wait, naming
 * the first finalizer whose controller is absent (a leak either way) or could not be judged.
 */
export function waitDecision(s: Snapshot, l: Leftover): WaitDecision {
  const finalizers = [...new Set(l.meta.finalizers)].sort();
  if (finalizers.length === 0) return { wait: true, why: 'no finalizers: it goes at once' };
  const reasons: string[] = [];
  let unknown: WaitDecision | undefined;
  for (const f of finalizers) {
    if (isBuiltInFinalizer(f)) {
      const a = builtInActor(s, f, BUILT_IN_FINALIZERS[f] ?? 'kube-controller-manager');
      if (a.liveness.state === 'live') {
        reasons.push(`${f}: ${a.name} is alive (${a.liveness.evidence[0] ?? ''})`);
        continue;
      }
      const why = `${f}: ${a.name} ${a.liveness.state === 'down' ? 'is not alive' : 'could not be told alive'} (${a.liveness.evidence.join('; ')})`;
      if (a.liveness.state === 'down') return { wait: false, reason: 'controller-absent', finalizer: f, why };
      unknown ??= { wait: false, reason: 'controller-unknown', finalizer: f, why };
      continue;
    }
    const presence = controllerPresence(releaseVerdict(s, f, heldBy([l])));
    if (presence.present === false) {
      return { wait: false, reason: 'controller-absent', finalizer: f, why: `${f}: ${presence.why}` };
    }
    if (presence.present === 'unknown') {
      unknown ??= { wait: false, reason: 'controller-unknown', finalizer: f, why: `${f}: ${presence.why}` };
      continue;
    }
    reasons.push(`${f}: ${presence.why}`);
  }
  return unknown ?? { wait: true, why: reasons.join('; ') };
}
