/** Which forced changes are allowed: the validated force policy and the pure decision per namespace. */
import type { Finding, Leftover } from './diagnosis/types.js';
import { formatDuration } from './duration.js';
import { ConfigError } from './errors.js';
import { namespaceLabel, type Plan, type Refusal } from './force/plan.js';
import { planFinalize } from './force/finalize-step.js';
import { lostPods, planPods } from './force/pods.js';
import { blockedObjects, planNamespaceMetadata, planObject, sorted } from './force/steps.js';
import { globProblem } from './glob.js';
import { Inputs } from './io.js';
import type { NamespaceState } from './kube/port.js';

export type * from './force/plan.js';

/** What the user allows forcing. */
export interface ForcePolicy {
  mode: 'off' | 'dry-run' | 'on';
  /** force-after: how long the namespace must have been Terminating. */
  afterMs: number;
  /** force-finalizers: globs of finalizer names that may be removed (objects + namespace metadata.finalizers); empty = none. */
  finalizerPatterns: string[];
  /** force-finalize-namespace: allow PUT /finalize clearing spec.finalizers, last resort. */
  finalizeNamespace: boolean;
  /** force-delete-pods: `lost-nodes` deletes terminating pods whose node is gone or NotReady (grace 0). */
  deletePods: 'off' | 'lost-nodes';
}

const MODES = ['off', 'dry-run', 'on'] as const;
const POD_MODES = ['off', 'lost-nodes'] as const;

function readPodMode(raw: string): ForcePolicy['deletePods'] {
  const value = raw.trim() === '' ? 'off' : raw.trim();
  const mode = POD_MODES.find((m) => m === value);
  if (mode) return mode;
  throw new ConfigError(
    `Input "${Inputs.forceDeletePods}" is "${raw}"; allowed: ${POD_MODES.join(', ')}.`,
    Inputs.forceDeletePods,
  );
}

function readMode(raw: string): ForcePolicy['mode'] {
  const value = raw.trim() === '' ? 'off' : raw.trim();
  const mode = MODES.find((m) => m === value);
  if (mode) return mode;
  const hint = /^(true|yes)$/i.test(value)
    ? ' (use "on" to force, "dry-run" to only show what would be forced)'
    : '';
  throw new ConfigError(
    `Input "${Inputs.force}" is "${raw}"; allowed: ${MODES.join(', ')}${hint}.`,
    Inputs.force,
  );
}

function readPatterns(raw: readonly string[]): string[] {
  const patterns = [...new Set(raw.map((p) => p.trim()).filter((p) => p !== ''))];
  for (const pattern of patterns) {
    const problem = globProblem(pattern);
    if (problem) {
      throw new ConfigError(
        `Input "${Inputs.forceFinalizers}": "${pattern}" is not a valid finalizer name or glob: ${problem}.`,
        Inputs.forceFinalizers,
      );
    }
  }
  return patterns;
}

function checkAfter(mode: ForcePolicy['mode'], afterMs: number, timeoutMs: number): void {
  const name = Inputs.forceAfter;
  if (!Number.isFinite(afterMs) || afterMs < 0) {
    throw new ConfigError(
      `Input "${name}" is ${afterMs} ms; allowed: a duration of 0 or more, e.g. 10m.`,
      name,
    );
  }
  if (mode !== 'off' && afterMs > timeoutMs) {
    throw new ConfigError(
      `Input "${name}" is ${formatDuration(afterMs)}, longer than "${Inputs.timeout}" (${formatDuration(timeoutMs)}), ` +
        `so forcing could never start; allowed: ${name} at most ${Inputs.timeout}.`,
      name,
    );
  }
}

function warningsFor(policy: ForcePolicy): string[] {
  const { mode, finalizerPatterns: patterns, finalizeNamespace } = policy;
  const pods = policy.deletePods !== 'off';
  const warnings: string[] = [];
  if (mode !== 'off' && patterns.length === 0 && !finalizeNamespace && !pods) {
    warnings.push(
      `"${Inputs.force}" is ${mode} but "${Inputs.forceFinalizers}" is empty, ` +
        `"${Inputs.forceFinalizeNamespace}" is false and "${Inputs.forceDeletePods}" is off: nothing can be forced.`,
    );
  }
  if (mode === 'off' && (patterns.length > 0 || finalizeNamespace || pods)) {
    warnings.push(`Force inputs are set but "${Inputs.force}" is off: nothing will be forced.`);
  }
  if (mode !== 'off' && patterns.includes('*')) {
    warnings.push(
      `"${Inputs.forceFinalizers}" holds "*": any finalizer may be removed, except built-in ones that still ` +
        'wait or guard infrastructure, which must be named exactly.',
    );
  }
  return warnings;
}

/** Validate the parsed force inputs; throws ConfigError naming the input, the value and what is allowed. */
export function validateForcePolicy(raw: {
  force: string;
  forceAfter: number;
  forceFinalizers: string[];
  finalizeNamespace: boolean;
  forceDeletePods: string;
  timeoutMs: number;
}): { policy: ForcePolicy; warnings: string[] } {
  const mode = readMode(raw.force);
  const deletePods = readPodMode(raw.forceDeletePods);
  const finalizerPatterns = readPatterns(raw.forceFinalizers);
  checkAfter(mode, raw.forceAfter, raw.timeoutMs);
  const policy: ForcePolicy = {
    mode,
    afterMs: raw.forceAfter,
    finalizerPatterns,
    finalizeNamespace: raw.finalizeNamespace,
    deletePods,
  };
  return { policy: Object.freeze(policy), warnings: warningsFor(policy) };
}

type Gate = Pick<Plan, 'decision' | 'waitMs' | 'refusals' | 'notes'>;

/** The reasons to force nothing at all, checked before any finding is looked at. */
function gate(
  policy: ForcePolicy,
  ns: NamespaceState,
  now: number,
  isProtected: (name: string) => boolean,
): Gate | undefined {
  if (policy.mode === 'off')
    return { decision: 'off', refusals: [], notes: ['force is off: nothing is forced'] };
  if (isProtected(ns.name)) {
    const reason = `${ns.name} is a protected namespace; protected namespaces are never forced`;
    const refusal: Refusal = {
      object: namespaceLabel(ns.name),
      reason,
      remedy: 'resolve the findings by hand',
    };
    return { decision: 'protected', refusals: [refusal], notes: [] };
  }
  const since = ns.deletionTimestamp === undefined ? NaN : Date.parse(ns.deletionTimestamp);
  if (Number.isNaN(since)) {
    const note = `${ns.name} is not terminating (no deletionTimestamp); only a namespace being deleted is forced`;
    return { decision: 'not-terminating', refusals: [], notes: [note] };
  }
  const terminatingMs = Math.max(0, now - since);
  if (terminatingMs < policy.afterMs) {
    const waitMs = policy.afterMs - terminatingMs;
    const note = `terminating for ${formatDuration(terminatingMs)}; ${Inputs.forceAfter} is ${formatDuration(policy.afterMs)}, ${formatDuration(waitMs)} left`;
    return { decision: 'not-yet', waitMs, refusals: [], notes: [note] };
  }
  return undefined;
}

/** Notes on patterns that allowed nothing, so a typo in force-finalizers is visible. */
function patternNotes(
  patterns: readonly string[],
  plan: Pick<Plan, 'steps'>,
  blocking: readonly string[],
): string[] {
  if (blocking.length === 0) return [];
  const used = new Set(
    plan.steps.flatMap((s) =>
      s.remove.flatMap((r) => (r.allowedBy.input === 'force-finalizers' ? [r.allowedBy.pattern] : [])),
    ),
  );
  const unused = patterns.filter((p) => !used.has(p));
  const found = `blocking finalizers: ${sorted(blocking).join(', ')}`;
  if (patterns.length === 0)
    return [`${Inputs.forceFinalizers} is empty, so no finalizer may be removed; ${found}`];
  if (used.size === 0) {
    return [
      `nothing matched: no ${Inputs.forceFinalizers} pattern (${patterns.join(', ')}) allows removing a blocking finalizer; ${found}`,
    ];
  }
  return unused.map((p) => `${Inputs.forceFinalizers} pattern "${p}" matched no finalizer it may remove`);
}

/** The decision once the steps are known; `waitMs` when only pods inside the node-lost threshold remain. */
function decisionOf(
  steps: number,
  refusals: number,
  waitMs: number | undefined,
): Pick<Plan, 'decision' | 'waitMs'> {
  if (steps > 0) return { decision: 'force' };
  if (waitMs !== undefined) return { decision: 'not-yet', waitMs };
  return { decision: refusals > 0 ? 'nothing-allowed' : 'nothing-to-force' };
}

/**
 * Decide what to force for one terminating namespace: pods on lost nodes first, then object finalizers, then the
 * namespace's metadata.finalizers, then /finalize as a last resort — only what `policy` allows, never a protected
 * namespace. `leftovers` (what the scan saw) lets the plan list what /finalize would leave in storage.
 */
export function decide(
  policy: ForcePolicy,
  ns: NamespaceState,
  findings: readonly Finding[],
  now: number,
  isProtected: (name: string) => boolean,
  leftovers: readonly Leftover[] = [],
): Plan {
  const base = { namespace: ns.name, uid: ns.uid, mode: policy.mode, steps: [] };
  const stop = gate(policy, ns, now, isProtected);
  if (stop) return { ...base, ...stop };
  const patterns = policy.finalizerPatterns;
  const pods = planPods(policy.deletePods, ns.name, lostPods(findings), now);
  const objects = blockedObjects(findings).map((o) => planObject(o, ns.name, patterns));
  const meta = planNamespaceMetadata(ns, findings, patterns);
  const earlier = { leftovers, podsHandled: pods.handled };
  const fin = planFinalize(policy.finalizeNamespace, ns, findings, objects, meta.keep, earlier);
  const steps = [
    ...pods.steps,
    ...objects.flatMap((o) => (o.step ? [o.step] : [])),
    ...(meta.step ? [meta.step] : []),
    ...(fin.step ? [fin.step] : []),
  ];
  const refusals = [
    ...pods.refusals,
    ...objects.flatMap((o) => o.refusals),
    ...meta.refusals,
    ...fin.refusals,
  ];
  const blocking = [...objects.flatMap((o) => o.object.finalizers), ...ns.metadataFinalizers];
  const notes = [...pods.notes, ...patternNotes(patterns, { steps }, blocking), ...fin.notes];
  const decided = decisionOf(steps.length, refusals.length, pods.waitMs);
  if (decided.decision === 'nothing-to-force')
    notes.push('nothing blocks the namespace that forcing could change');
  return { ...base, ...decided, steps, refusals, notes };
}
