import { describeWorkload, ownerOf, type OwnerVerdict } from '../owner.js';
import { shellCommand } from '../shell.js';
import type { Evidence, Finding, Severity } from '../types.js';

/** The parts of a finding that follow from an owner verdict. */
export interface VerdictParts {
  severity: Severity;
  leaked: boolean;
  confidence?: number;
  phrase: string;
  owner: NonNullable<Finding['owner']>;
  evidence: Evidence[];
  /** Commands to look at the controller before forcing anything. */
  inspect: string[];
}

/** Severity, leak flag, wording and evidence for a finalizer whose controller the verdict describes. */
export function verdictParts(v: OwnerVerdict, what: string): VerdictParts {
  const owner = ownerOf(v, what);
  const { evidence = [], ...rest } = byKind(v, owner.controller);
  const confidence = v.kind === 'unknown' ? undefined : v.confidence;
  return { ...rest, owner, confidence, evidence: [...workloadEvidence(v), ...evidence] };
}

type KindParts = Pick<VerdictParts, 'severity' | 'leaked' | 'phrase' | 'inspect'> & { evidence?: Evidence[] };

function byKind(v: OwnerVerdict, controller: string): KindParts {
  switch (v.kind) {
    case 'running':
      return {
        severity: 'warning',
        leaked: false,
        phrase: `its controller ${controller} is running; it should remove the finalizer (waiting)`,
        inspect: v.workloads.slice(0, 1).map(logsCommand),
      };
    case 'not-running':
      return {
        severity: 'error',
        leaked: false,
        phrase: `its controller ${controller} is installed but not running`,
        inspect: v.workloads.slice(0, 1).map(describeCommand),
      };
    case 'deadlock':
      return {
        severity: 'error',
        leaked: true,
        phrase: `deadlock: ${v.clue}; the controller is deleted with the namespace and can never remove its finalizer`,
        inspect: [],
        evidence: [{ object: 'controller', field: 'deadlock', value: v.clue }],
      };
    case 'absent': {
      const searched = {
        object: 'cluster',
        field: 'deployments,statefulsets,daemonsets',
        value: `none mentions ${v.tokens.join(', ')}`,
      };
      const phrase = 'no controller for it runs in the cluster (leaked: its owner is gone)';
      return { severity: 'error', leaked: true, phrase, inspect: [], evidence: [searched] };
    }
    case 'unknown':
      return {
        severity: 'warning',
        leaked: false,
        phrase: `its controller is unknown: ${v.reason}`,
        inspect: [],
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
