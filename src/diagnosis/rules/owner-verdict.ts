import { describeWorkload, ownerOf, type OwnerVerdict } from '../owner.js';
import { shellCommand } from '../shell.js';
import type { Evidence, Finding, Severity } from '../../model/findings.js';

/** The parts of a finding that follow from an owner verdict. */
export interface VerdictParts {
  severity: Severity;
  leaked: boolean;
  confidence?: number;
  phrase: string;
  owner: NonNullable<Finding['owner']>;
  evidence: Evidence[];
  /** Commands to look at the controller before anything is removed. */
  inspect: string[];
  /**
   * `fix` when its controller is gone (removing the finalizer skips nothing that could still happen);
   * `last-resort` when it runs, may come back, or cannot be told: removing it would skip live cleanup.
   */
  removal: 'fix' | 'last-resort';
  /** What removing it risks, for a last resort. */
  risk: string;
}

/** Severity, leak flag, wording, evidence and how safe removal is, for a finalizer whose controller the verdict describes. */
export function verdictParts(v: OwnerVerdict, what: string): VerdictParts {
  const owner = ownerOf(v, what);
  const { evidence = [], ...rest } = byKind(v, owner.controller);
  const confidence = v.kind === 'unknown' || v.kind === 'working' ? undefined : v.confidence;
  return { ...rest, owner, confidence, evidence: [...workloadEvidence(v), ...viaEvidence(v), ...evidence] };
}

type KindParts = Omit<VerdictParts, 'owner' | 'confidence' | 'evidence'> & { evidence?: Evidence[] };

const SKIPS = 'removing the finalizer skips the cleanup it would still do (a cloud resource, a DNS record)';

function byKind(v: OwnerVerdict, controller: string): KindParts {
  switch (v.kind) {
    case 'working':
      return {
        severity: 'warning',
        leaked: false,
        phrase: `its controller is removing it: ${v.released} of ${v.of} object(s) released it since the earlier diagnosis (waiting, not leaked)`,
        inspect: v.workloads.slice(0, 1).map(logsCommand),
        removal: 'last-resort',
        risk: `its controller is at work; ${SKIPS}`,
      };
    case 'running':
      return {
        severity: 'warning',
        leaked: false,
        phrase: `its controller ${controller} is running; it should remove the finalizer (waiting)`,
        inspect: v.workloads.slice(0, 1).map(logsCommand),
        removal: 'last-resort',
        risk: `its controller ${controller} is running; ${SKIPS}`,
      };
    case 'not-running':
      return {
        severity: 'error',
        leaked: false,
        phrase: `its controller ${controller} is installed but not running`,
        inspect: v.workloads.slice(0, 1).map(describeCommand),
        removal: 'last-resort',
        risk: `its controller ${controller} is installed: once it runs again it removes the finalizer itself; ${SKIPS}`,
      };
    case 'deadlock':
      return {
        severity: 'error',
        leaked: true,
        phrase: `deadlock: ${v.clue}; the controller is deleted with the namespace and can never remove its finalizer`,
        inspect: [],
        removal: 'fix',
        risk: 'the cleanup its controller would have done never happens',
        evidence: [{ object: 'controller', field: 'deadlock', value: v.clue }],
      };
    case 'absent': {
      const searched = {
        object: 'cluster',
        field: 'deployments,statefulsets,daemonsets',
        value: `none mentions ${v.tokens.join(', ') || 'it'}`,
      };
      const phrase = 'no controller for it runs in the cluster (leaked: its owner is gone)';
      return {
        severity: 'error',
        leaked: true,
        phrase,
        inspect: [],
        removal: 'fix',
        risk: 'the cleanup its controller would have done never happens',
        evidence: [searched],
      };
    }
    case 'unknown':
      return {
        severity: 'warning',
        leaked: false,
        phrase: `its controller is unknown: ${v.reason}`,
        inspect: [],
        removal: 'last-resort',
        risk: `whether its controller still runs could not be told; ${SKIPS}`,
      };
  }
}

function workloadEvidence(v: OwnerVerdict): Evidence[] {
  if (v.kind === 'absent' || v.kind === 'unknown') return [];
  return v.workloads.slice(0, 3).map((w) => ({
    object: `${w.kind.toLowerCase()}/${w.namespace}/${w.name}`,
    field: 'matched controller',
    value: `${describeWorkload(w)}; ${w.hints.slice(0, 3).join(' ')}`.trim(),
  }));
}

/** What the verdict rests on besides names: RBAC chains, Leases, progress seen. */
function viaEvidence(v: OwnerVerdict): Evidence[] {
  return v.via.slice(0, 5).map((value) => ({
    object: 'controller',
    field: value.startsWith('Lease ')
      ? 'leader election'
      : / may update /.test(value)
        ? 'RBAC'
        : / released /.test(value)
          ? 'progress'
          : 'evidence',
    value,
  }));
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
