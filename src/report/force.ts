/** Forcing as a plan or a diff: per object what is removed, the result and the policy line that allowed it. Pure. */
import { objectLabel } from '../force/plan.js';
import type { AuditEntry } from '../force/audit.js';
import { allowedByText, type Decision, type ForceStep } from '../force/plan.js';
import type { Finding } from '../diagnosis/types.js';
import { formatDuration } from '../duration.js';
import type { TargetReport } from '../outcome.js';
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
  const r = entry?.result;
  if (r === undefined) return '— not run';
  if (r === 'removed') return '✅ removed';
  if (r === 'finalized') return '✅ finalized (PUT /finalize)';
  if (r === 'gone') return '✅ already gone';
  if (r === 'deleted') return '✅ deleted (grace period 0)';
  if (r === 'dry-run') return `🔍 ${WOULD[step.kind]}`;
  if (r.startsWith('failed: ')) return `❌ **failed:** ${md(r.slice(8), 400)}`;
  return `⏭️ ${md(r, 300)}`;
}

/** The entry of the audit trail that belongs to the step. */
function entryOf(step: ForceStep, audit: AuditEntry[]): AuditEntry | undefined {
  return audit.find((a) => a.object === step.object && a.field === step.field);
}

function stepBlock(step: ForceStep, entry: AuditEntry | undefined): string[] {
  const policies = step.kind === 'pod-delete' ? [step.allowedBy] : step.remove.map((r) => r.allowedBy);
  const allowed = [...new Set(policies.map(allowedByText))]
    .map((a) => `<code>${md(a, 200)}</code>`)
    .join(', ');
  const where = step.kind === 'pod-delete' ? ` on node ${md(step.node, 200)}` : '';
  const head = `**${md(step.object, 200)}** <code>${step.field}</code>${where} — ${resultWords(step, entry)} · allowed by ${allowed}`;
  const out = [head];
  if (step.kind !== 'pod-delete') {
    const removed = new Set(step.remove.map((r) => r.finalizer));
    out.push(fence(step.finalizers.map((f) => `${removed.has(f) ? '-' : ' '} ${f}`).join('\n'), 'diff'));
  }
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

/** The forcing part of a namespace, or '' when forcing never ran for it. */
export function renderForce(t: TargetReport): string {
  if (!t.force || t.force.plan.mode === 'off') return '';
  const { plan, audit } = t.force;
  const lines = [forceIntro(plan.decision, plan.mode, plan.waitMs)];
  for (const step of plan.steps) lines.push(...stepBlock(step, entryOf(step, audit)));
  for (const r of plan.refusals) {
    const what = `${md(r.object, 200)}${r.finalizer ? ` <code>${md(r.finalizer, 200)}</code>` : ''}`;
    lines.push(`🚫 Not forced: ${what} — ${md(r.reason, 400)}. By hand: <code>${md(r.remedy, 800)}</code>`);
  }
  for (const n of plan.notes) lines.push(`<sub>${md(n, 400)}</sub>`);
  return lines.join('\n\n');
}

/** Whether forcing changed everything the finding points at (so its patch is no longer needed). */
export function resolvedByForce(t: TargetReport, f: Finding): boolean {
  if (!t.force || t.force.plan.mode !== 'on' || f.id === 'apiservice-unavailable') return false;
  const done = t.force.audit.filter((a) => DONE.has(a.result));
  if (done.some((a) => a.step === 'namespace-finalize')) return true;
  if (!f.targets?.length) return false;
  return f.targets.every((x) => {
    if (x.kind === 'object-finalizers') return done.some((a) => a.object === objectLabel(x.resource, x.name));
    if (x.kind === 'namespace-metadata-finalizers') return done.some((a) => a.step === x.kind);
    if (x.kind === 'pod-on-lost-node')
      return done.some((a) => a.step === 'pod-delete' && a.object.endsWith(`/${x.name}`));
    return false;
  });
}
