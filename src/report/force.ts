/** The force plan and audit of one namespace as markdown. Pure. */
import { allowedByText, type ForceStep } from '../force/plan.js';
import type { TargetReport } from '../outcome.js';
import { html, md } from './escape.js';

const list = (items: string[]): string => (items.length ? items.map((i) => md(i, 200)).join(', ') : '—');

function stepRow(step: ForceStep, result: string, at: string, after: string[]): string {
  const allowed =
    step.kind === 'pod-delete'
      ? `delete, grace period 0 (${md(allowedByText(step.allowedBy), 200)})`
      : step.remove.map((r) => `${md(r.finalizer, 200)} (${md(allowedByText(r.allowedBy), 200)})`).join(', ');
  return `| ${md(step.object, 200)} | ${step.field} | ${list(step.finalizers)} | ${list(after)} | ${allowed} | ${md(result, 200)} | ${at} |`;
}

function risks(steps: ForceStep[]): string[] {
  return steps.flatMap((s) => [
    ...(s.kind === 'pod-delete' ? [`${md(s.object)}: deleting it — ${md(s.risk, 400)}`] : []),
    ...s.remove
      .filter((r) => r.risk)
      .map((r) => `${md(s.object)}: removing ${md(r.finalizer)} — ${md(r.risk!, 400)}`),
  ]);
}

/** The "Forcing" part of a namespace section, or '' when force never ran for it. */
export function renderForce(t: TargetReport): string {
  if (!t.force) return '';
  const { plan, audit } = t.force;
  const lines = [`#### Forcing (${plan.mode}): ${plan.decision}`];
  if (plan.steps.length > 0) {
    lines.push(
      '| Object | Field | Before | After | Allowed by | Result | When |',
      '| --- | --- | --- | --- | --- | --- | --- |',
    );
    plan.steps.forEach((step, i) => {
      const entry = audit.find((a) => a.object === step.object && a.field === step.field) ?? audit[i];
      lines.push(stepRow(step, entry?.result ?? 'not run', entry?.at ?? '', entry?.after ?? step.keep));
    });
  }
  const orphans = plan.steps.flatMap((s) => (s.kind === 'namespace-finalize' ? s.orphans : []));
  if (orphans.length) lines.push(`Left in storage without a namespace: ${list(orphans)}`);
  for (const risk of risks(plan.steps)) lines.push(`- ⚠️ ${risk}`);
  for (const r of plan.refusals)
    lines.push(
      `- Not forced: ${md(r.object)}${r.finalizer ? ` ${md(r.finalizer)}` : ''} — ${md(r.reason, 400)}. Remedy: <code>${html(r.remedy, 600)}</code>`,
    );
  for (const n of plan.notes) lines.push(`- ${md(n, 400)}`);
  return lines.join('\n');
}
