/** Forcing as a plan or a diff: per object what is removed, the result and the policy line that allowed it. Pure. */
import { allowedByText, resultClass, resultText } from '../force/index.js';
import { earlierPutBack, putBackLines } from './force-put-back.js';
import { objectLabel } from '../diagnosis/index.js';
import type { AuditEntry, Decision, ForceStep, Refusal } from '../model/force.js';
import type { Finding } from '../model/findings.js';
import { formatDuration } from '../shared/duration.js';
import type { TargetReport } from '../model/run.js';
import { fence, md } from './escape.js';

type Mode = 'off' | 'dry-run' | 'on';

function decisionWords(decision: Decision, mode: Mode, waitMs: number | undefined): string {
  switch (decision) {
    case 'off':
      return 'forcing is off';
    case 'protected':
      return 'not forced: the namespace is protected';
    case 'not-terminating':
      return 'not forced: the namespace is not being deleted';
    case 'not-yet':
      return `not forced yet${waitMs !== undefined ? ` (${formatDuration(waitMs)} to go)` : ''}`;
    case 'nothing-to-force':
      return 'nothing blocks it that forcing could change';
    case 'nothing-allowed':
      return 'not forced: the policy allows none of what blocks it';
    case 'force':
      return mode === 'on' ? 'forced' : 'what force: on would do; nothing was changed';
  }
}

function forceIntro(decision: Decision, mode: Mode, waitMs: number | undefined): string {
  if (decision !== 'force') return `<code>force: ${mode}</code> — ${decisionWords(decision, mode, waitMs)}.`;
  return mode === 'on'
    ? 'Changed under <code>force: on</code>:'
    : 'What <code>force: on</code> would change (this run is <code>force: dry-run</code>: nothing was changed):';
}

const DONE = new Set(['removed', 'finalized', 'deleted', 'gone']);

const WOULD: Record<ForceStep['kind'], string> = {
  'pod-delete': 'would delete (grace period 0)',
  'object-finalizers': 'would remove',
  'namespace-metadata-finalizers': 'would remove',
  'namespace-finalize': 'would finalize (PUT /finalize)',
};

function resultWords(step: ForceStep, entry: AuditEntry | undefined): string {
  if (entry === undefined) return '— not run';
  const r = entry.result;
  if (r === 'removed') return '✅ removed';
  if (r === 'finalized') return '✅ finalized (PUT /finalize)';
  if (r === 'gone') return '✅ already gone';
  if (r === 'deleted') return '✅ deleted (grace period 0)';
  if (r === 'dry-run') return `🔍 ${WOULD[step.kind]}`;
  if (entry.result === 'failed') return `❌ **failed:** ${md(entry.error, 400)}`;
  if (entry.result === 'not-removed') return `❌ **not removed:** ${md(entry.why, 400)}`;
  return `⏭️ ${md(resultText(entry), 300)}`;
}

/** The audit entry of each step, by object and field. */
function entriesOf(audit: readonly AuditEntry[]): Map<string, AuditEntry> {
  return new Map(audit.map((a) => [`${a.object}\u0000${a.field}`, a]));
}

const entryKey = (step: ForceStep): string => `${step.object}\u0000${step.field}`;

function allowedWords(step: ForceStep): string {
  const policies = step.kind === 'pod-delete' ? [step.allowedBy] : step.remove.map((r) => r.allowedBy);
  return [...new Set(policies.map(allowedByText))].map((a) => `<code>${md(a, 200)}</code>`).join(', ');
}

/** Objects named in a grouped line: a few, then a count; all of them are in the JSON report. */
function someOf(names: readonly string[]): string {
  const shown = names
    .slice(0, 3)
    .map((n) => md(n, 120))
    .join(', ');
  return names.length > 3
    ? `${shown} and ${(names.length - 3).toLocaleString('en-US')} more (all in the JSON report)`
    : shown;
}

/** `kialis.kiali.io` of `kialis.kiali.io/kiali`. */
const typeOf = (object: string): string => object.slice(0, Math.max(0, object.lastIndexOf('/')));

function stepBlock(steps: readonly ForceStep[], entry: AuditEntry | undefined): string[] {
  const step = steps[0]!;
  const where = step.kind === 'pod-delete' ? ` on node ${md(step.node, 200)}` : '';
  const who =
    steps.length === 1
      ? `**${md(step.object, 200)}**`
      : `**${steps.length.toLocaleString('en-US')} ${md(typeOf(step.object), 200)} objects** (${someOf(steps.map((x) => x.object.slice(typeOf(x.object).length + 1)))})`;
  const head = `${who} <code>${step.field}</code>${where} — ${resultWords(step, entry)} · allowed by ${allowedWords(step)}`;
  const out = [head];
  if (step.kind !== 'pod-delete') {
    const removed = new Set(step.remove.map((r) => r.finalizer));
    out.push(fence(step.finalizers.map((f) => `${removed.has(f) ? '-' : ' '} ${f}`).join('\n'), 'diff'));
  }
  out.push(...putBackLines(entry));
  const taken = entry !== undefined && (DONE.has(entry.result) || entry.result === 'dry-run');
  const would = entry?.result === 'dry-run';
  if (taken) {
    const risks =
      step.kind === 'pod-delete' ? [step.risk] : step.remove.flatMap((x) => (x.risk ? [x.risk] : []));
    for (const risk of risks) out.push(`⚠️ ${would ? 'Would risk' : 'Risk taken'}: ${md(risk, 400)}`);
    if (step.kind === 'namespace-finalize' && step.orphans.length)
      out.push(
        `⚠️ **${would ? 'Would be left' : 'Left'} in storage without a namespace:**\n\n${step.orphans.map((o) => `- ${md(o, 300)}`).join('\n')}`,
      );
  }
  return out;
}

/** Steps that read the same apart from the object's name (same type, finalizers, removal and result), grouped. */
function groupSteps(steps: readonly ForceStep[], entries: Map<string, AuditEntry>): ForceStep[][] {
  const groups = new Map<string, ForceStep[]>();
  for (const step of steps) {
    const entry = entries.get(entryKey(step));
    const result = entry === undefined ? '' : resultClass(entry);
    const key =
      step.kind === 'object-finalizers'
        ? [
            step.kind,
            typeOf(step.object),
            step.finalizers.join(','),
            step.remove.map((x) => x.finalizer).join(','),
            result,
            allowedWords(step),
          ].join('\u0000')
        : `\u0001${entryKey(step)}`;
    groups.set(key, [...(groups.get(key) ?? []), step]);
  }
  return [...groups.values()];
}

/** Refusals that read the same apart from the object, grouped with a count. */
function refusalLines(refusals: readonly Refusal[]): string[] {
  const groups = new Map<string, Refusal[]>();
  for (const r of refusals) {
    const key = [typeOf(r.object), r.finalizer ?? '', r.reason, r.remedy].join('\u0000');
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()].map((rs) => {
    const r = rs[0]!;
    const objects =
      rs.length === 1
        ? md(r.object, 200)
        : `${rs.length.toLocaleString('en-US')} ${md(typeOf(r.object), 200)} objects (${someOf(rs.map((x) => x.object.slice(typeOf(x.object).length + 1)))})`;
    const what = `${objects}${r.finalizer ? ` <code>${md(r.finalizer, 200)}</code>` : ''}`;
    return `🚫 Not forced: ${what} — ${md(r.reason, 400)}. By hand: <code>${md(r.remedy, 800)}</code>`;
  });
}

/** The forcing part of a namespace, or '' when forcing never ran for it. */
export function renderForce(t: TargetReport): string {
  if (!t.force || t.force.plan.mode === 'off') return '';
  const { plan, audit } = t.force;
  const entries = entriesOf(audit);
  const earlier = earlierPutBack(plan.steps, audit);
  const intro =
    earlier.length && plan.decision !== 'force'
      ? 'Written under <code>force: on</code>, and answered without its effect (it is not written again):'
      : forceIntro(plan.decision, plan.mode, plan.waitMs);
  const lines = [intro, ...earlier];
  for (const group of groupSteps(plan.steps, entries))
    lines.push(...stepBlock(group, entries.get(entryKey(group[0]!))));
  lines.push(...refusalLines(plan.refusals));
  for (const n of plan.notes) lines.push(`<sub>${md(n, 400)}</sub>`);
  return lines.join('\n\n');
}

// Causes that outlive the namespace: forcing it gone resolves none of them (what is still broken is said apart).
const CLUSTER_WIDE = new Set([
  'apiservice-unavailable',
  'content-delete-refused',
  'admission-denied',
  'policy-cannot-evaluate',
  'still-broken',
  'will-recreate',
]);

/** Whether forcing changed everything the finding points at (so its patch is no longer needed). */
export function resolvedByForce(t: TargetReport, f: Finding): boolean {
  if (!t.force || t.force.plan.mode !== 'on' || CLUSTER_WIDE.has(f.id)) return false;
  const done = t.force.audit.filter((a) => DONE.has(a.result));
  if (done.some((a) => a.step === 'namespace-finalize')) return true;
  if (!f.targets?.length) return false;
  const objects = new Set(done.map((a) => a.object));
  return f.targets.every((x) => {
    if (x.kind === 'object-finalizers') return objects.has(objectLabel(x.resource, x.name));
    if (x.kind === 'namespace-metadata-finalizers') return done.some((a) => a.step === x.kind);
    if (x.kind === 'pod-on-lost-node')
      return done.some((a) => a.step === 'pod-delete' && a.object.endsWith(`/${x.name}`));
    return false;
  });
}
