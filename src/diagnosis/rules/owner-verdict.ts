/** The parts of a finding that follow from the release verdict on a finalizer: words, evidence, remedy safety. Pure. */
import type { Actor, ReleaseVerdict } from '../actors/index.js';
import { formatSeconds } from '../../shared/duration.js';
import { shellCommand } from '../shell.js';
import type { ActorRecord, Evidence, Finding, Severity, Verdict } from '../../model/findings.js';

/** The parts of a finding that follow from a release verdict. */
export interface VerdictParts {
  severity: Severity;
  leaked: boolean;
  confidence?: number;
  verdict: Verdict;
  phrase: string;
  owner: NonNullable<Finding['owner']>;
  evidence: Evidence[];
  /** The one or two lines the verdict rests on. */
  basis: string[];
  actors: ActorRecord[];
  /** Commands to look at the actor before anything is removed. */
  inspect: string[];
  /**
   * `fix` when no actor can release it (removing the finalizer skips nothing that could still happen);
   * `last-resort` when one is alive, may come back, or cannot be told: removing it would skip live cleanup.
   */
  removal: 'fix' | 'last-resort';
  /** What removing it risks, for a last resort. */
  risk: string;
  /** The remedy's note: what to do, in the verdict's own terms (never "wait" for an actor that is not alive). */
  note: string;
}

const SKIPS = 'removing the finalizer skips the cleanup it would still do (a cloud resource, a DNS record)';
const CONFIDENCE = { specific: 0.9, group: 0.75, any: 0.5 } as const;

/** The report's view of an actor. */
export function actorRecord(a: Actor): ActorRecord {
  return { name: a.name, role: a.role, link: a.link, live: a.liveness.state, evidence: a.liveness.evidence };
}

/** Severity, verdict, wording, evidence and how safe removal is, for a finalizer whose actors the verdict describes. */
export function verdictParts(v: ReleaseVerdict, what: string): VerdictParts {
  const first = v.actors[0];
  const controller = first?.name ?? `controller for ${what}`;
  const parts = byKind(v, controller);
  const going = v.typeGoing ? `; ${v.typeGoing}` : '';
  const basis = v.via.slice(0, 2);
  return {
    ...parts,
    phrase: `${parts.phrase}${going}`,
    confidence: confidenceOf(v),
    owner: ownerOf(v, controller),
    evidence: [
      ...v.via.slice(0, 6).map((value) => ({ object: 'actor', field: fieldOf(value), value })),
      ...(v.typeGoing ? [{ object: 'crd', field: 'metadata.deletionTimestamp', value: v.typeGoing }] : []),
    ],
    basis: v.typeGoing ? [...basis.slice(0, 1), v.typeGoing] : basis,
    actors: v.actors.slice(0, 5).map(actorRecord),
  };
}

function confidenceOf(v: ReleaseVerdict): number | undefined {
  if (v.kind === 'unknown' || v.kind === 'working') return undefined;
  if (v.kind === 'absent') return 0.85;
  const a = v.actors[0];
  return a ? CONFIDENCE[a.reach] : 0.6;
}

type KindParts = Omit<VerdictParts, 'owner' | 'confidence' | 'evidence' | 'basis' | 'actors'>;

const LEAKED_NOTE =
  'No live actor can release it, so nothing will ever remove this finalizer; removing it skips that controller’s cleanup (external resources it managed may be left behind).';

function byKind(v: ReleaseVerdict, controller: string): KindParts {
  const w = v.actors.find((a) => a.workload)?.workload;
  switch (v.kind) {
    case 'working':
      return {
        severity: 'warning',
        leaked: false,
        verdict: 'waiting',
        phrase: `waiting, not leaked: ${v.released} of ${v.of} object(s) released it since the earlier diagnosis`,
        inspect: w ? [logsCommand(w)] : [],
        removal: 'last-resort',
        risk: `an actor is at work on it; ${SKIPS}`,
        note: `${controller} is releasing these objects now: its logs say how far it is; removing the finalizer skips the cleanup it is doing.`,
      };
    case 'running':
      return {
        severity: 'warning',
        leaked: false,
        verdict: 'waiting',
        phrase: `waiting: ${controller} is alive and can remove it`,
        inspect: w ? [logsCommand(w)] : [],
        removal: 'last-resort',
        risk: `${controller} is alive; ${SKIPS}`,
        note: `${controller} is alive and removes it once its cleanup is done: its logs say why it has not yet; removing the finalizer skips that cleanup.`,
      };
    case 'not-running':
      return notRunning(v, controller);
    case 'deadlock':
      return {
        severity: 'error',
        leaked: true,
        verdict: 'deadlock',
        phrase: `deadlock: ${v.clue}; it goes with the namespace and can never remove its finalizer`,
        inspect: [],
        removal: 'fix',
        risk: 'the cleanup its controller would have done never happens',
        note: LEAKED_NOTE,
      };
    case 'absent':
      return {
        severity: 'error',
        leaked: true,
        verdict: 'leaked',
        phrase: 'leaked: no live actor can release it',
        inspect: [],
        removal: 'fix',
        risk: 'the cleanup its controller would have done never happens',
        note: LEAKED_NOTE,
      };
    case 'unknown':
      return {
        severity: 'warning',
        leaked: false,
        verdict: 'unknown',
        phrase: `unknown: ${v.reason}`,
        inspect: w ? [logsCommand(w)] : [],
        removal: 'last-resort',
        risk: `whether an actor still runs could not be told; ${SKIPS}`,
        note: 'Whether a controller that removes it runs could not be told: find out first (what was not read is said above); remove the finalizer only once you know none will.',
      };
  }
}

/**
 * Its actor is installed and not alive: not running (no ready replica, being deleted), or running but not leading
 * (ready pods, an expired leader Lease: a hung controller). Either way it removes the finalizer itself once it runs
 * again — a restart for a hung one, whatever stops it for the other — so the remedy brings it back, never "wait".
 */
function notRunning(v: ReleaseVerdict, controller: string): KindParts {
  const a = v.actors[0];
  const w = v.actors.find((x) => x.workload)?.workload;
  const hung = a?.liveness.notLeading;
  const base = {
    severity: 'error' as const,
    leaked: false,
    verdict: 'down' as const,
    removal: 'last-resort' as const,
    risk: `${controller} is installed: once it runs again it removes the finalizer itself; ${SKIPS}`,
  };
  if (hung) {
    const ago =
      hung.renewedAgo === undefined ? 'never renewed' : `last renewed ${formatSeconds(hung.renewedAgo)} ago`;
    return {
      ...base,
      risk: `${controller} is installed and runs: once it leads again (restarted) it removes the finalizer itself; ${SKIPS}`,
      phrase: `down: ${controller} is running but not leading (Lease ${hung.lease} ${ago}), so it removes nothing until it is restarted`,
      inspect: w ? [restartCommand(w), logsCommand(w)] : [],
      note: `Its pods are ready but none holds the leader Lease: the controller hangs. Restarting it (above) lets it lead again and remove the finalizer itself, with its cleanup; its logs say why it stopped leading.`,
    };
  }
  return {
    ...base,
    phrase: `down: ${controller} can remove it but is not alive`,
    inspect: w ? [describeCommand(w)] : [],
    note: `${controller} is installed but not running: bring it back (its describe says why it does not run) and it removes the finalizer itself, with its cleanup.`,
  };
}

/** The Finding.owner for a verdict: the first actor, whether it is alive, and the line that says so. */
function ownerOf(v: ReleaseVerdict, controller: string): NonNullable<Finding['owner']> {
  const detail = v.kind === 'deadlock' ? v.clue : v.kind === 'unknown' ? v.reason : v.via[0];
  const present =
    v.kind === 'running' || v.kind === 'working' ? true : v.kind === 'unknown' ? ('unknown' as const) : false;
  // Ready pods and an expired Lease: neither "running" nor "not running" says it.
  const hung = v.kind === 'not-running' && v.actors[0]?.liveness.notLeading;
  return {
    controller,
    present,
    ...(detail ? { detail } : {}),
    ...(hung ? { status: 'running but not leading' } : {}),
  };
}

function fieldOf(value: string): string {
  if (value.startsWith('Lease ')) return 'leader election';
  if (/ may update /.test(value)) return 'RBAC';
  if (value.startsWith('managedFields')) return 'managedFields';
  if (/SubjectAccessReview|could be asked about/.test(value)) return 'access review';
  if (/ released /.test(value)) return 'progress';
  if (/ ready replica| ready$/.test(value)) return 'liveness';
  return 'evidence';
}

function logsCommand(w: { kind: string; namespace: string; name: string }): string {
  return shellCommand(
    'kubectl',
    'logs',
    '-n',
    w.namespace,
    `${w.kind.toLowerCase()}/${w.name}`,
    '--tail=100',
  );
}

/** `kubectl rollout restart deployment/x -n ns`: new pods, which take the leader Lease again. */
function restartCommand(w: { kind: string; namespace: string; name: string }): string {
  return shellCommand(
    'kubectl',
    'rollout',
    'restart',
    `${w.kind.toLowerCase()}/${w.name}`,
    '-n',
    w.namespace,
  );
}

function describeCommand(w: { kind: string; namespace: string; name: string }): string {
  return shellCommand('kubectl', 'describe', w.kind.toLowerCase(), w.name, '-n', w.namespace);
}
