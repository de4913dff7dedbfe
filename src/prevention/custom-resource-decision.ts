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

/** Wait (with the evidence that its controllers run, or that it could not be told), or not (the controller is absent). */
export type WaitDecision =
  { wait: true; why: string } | { wait: false; reason: 'controller-absent'; finalizer: string; why: string };

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
 * controller judged present (Kubernetes' own, or a workload seen running) → wait; one whose controller could not be
 * told (what would tell was not read, or the API server could not be asked) → wait as well: deleting it first costs
 * seconds if none runs, and skipping that leaks it for real if one does; a controller absent → do not wait, naming the
 * finalizer (a leak either way).
 */
export function waitDecision(s: Snapshot, l: Leftover): WaitDecision {
  const finalizers = [...new Set(l.meta.finalizers)].sort();
  if (finalizers.length === 0) return { wait: true, why: 'no finalizers: it goes at once' };
  const reasons: string[] = [];
  for (const f of finalizers) {
    if (isBuiltInFinalizer(f)) {
      const a = builtInActor(s, f, BUILT_IN_FINALIZERS[f] ?? 'kube-controller-manager');
      const seen = a.liveness.evidence.join('; ');
      if (a.liveness.state === 'down')
        return {
          wait: false,
          reason: 'controller-absent',
          finalizer: f,
          why: `${f}: ${a.name} is not alive (${seen})`,
        };
      reasons.push(
        a.liveness.state === 'live'
          ? `${f}: ${a.name} is alive (${a.liveness.evidence[0] ?? ''})`
          : `${f}: deleted first all the same (whether ${a.name} runs could not be told: ${seen})`,
      );
      continue;
    }
    const presence = controllerPresence(releaseVerdict(s, f, heldBy([l])));
    if (presence.present === false) {
      return { wait: false, reason: 'controller-absent', finalizer: f, why: `${f}: ${presence.why}` };
    }
    const why =
      presence.present === 'unknown' ? `deleted first all the same (${presence.why})` : presence.why;
    reasons.push(`${f}: ${why}`);
  }
  return { wait: true, why: reasons.join('; ') };
}
