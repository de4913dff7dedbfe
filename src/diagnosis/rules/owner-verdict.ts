/** The parts of a finding that follow from the release verdict on a finalizer: words, evidence, remedy safety. Pure. */
import type { Actor, ReleaseVerdict } from '../actors/index.js';
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
      };
    case 'not-running':
      return {
        severity: 'error',
        leaked: false,
        verdict: 'down',
        phrase: `down: ${controller} can remove it but is not alive`,
        inspect: w ? [describeCommand(w)] : [],
        removal: 'last-resort',
        risk: `${controller} is installed: once it runs again it removes the finalizer itself; ${SKIPS}`,
      };
    case 'deadlock':
      return {
        severity: 'error',
        leaked: true,
        verdict: 'deadlock',
        phrase: `deadlock: ${v.clue}; it goes with the namespace and can never remove its finalizer`,
        inspect: [],
        removal: 'fix',
        risk: 'the cleanup its controller would have done never happens',
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
      };
  }
}

/** The Finding.owner for a verdict: the first actor, whether it is alive, and the line that says so. */
function ownerOf(v: ReleaseVerdict, controller: string): NonNullable<Finding['owner']> {
  const detail = v.kind === 'deadlock' ? v.clue : v.kind === 'unknown' ? v.reason : v.via[0];
  const present =
    v.kind === 'running' || v.kind === 'working' ? true : v.kind === 'unknown' ? ('unknown' as const) : false;
  return { controller, present, ...(detail ? { detail } : {}) };
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

function describeCommand(w: { kind: string; namespace: string; name: string }): string {
  return shellCommand('kubectl', 'describe', w.kind.toLowerCase(), w.name, '-n', w.namespace);
}
