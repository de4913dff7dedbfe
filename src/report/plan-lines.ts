/** The plan of a plan-mode run as plain sentences, for the summary and the text output alike: order, hangs, refusals. Pure. */
import type { PlannedWrite, Refuser } from '../model/plan.js';
import type { RunReport, TargetReport } from '../model/run.js';

/** One entry of the plan: a line, and the lines under it. Cluster text in them is raw: each renderer escapes it. */
export interface PlanEntry {
  head: string;
  more: string[];
}

/** The plan in three parts; each empty when it has nothing to say. */
export interface PlanParts {
  order: PlanEntry[];
  hangs: PlanEntry[];
  refusals: PlanEntry[];
}

/** Who refused, in words: `admission webhook x`, `ValidatingAdmissionPolicy y`, `RBAC`, `the API server`. */
export function refuserWords(r: Refuser | undefined): string {
  if (r?.by === 'webhook') return `admission webhook ${r.name ?? '(unnamed)'}`;
  if (r?.by === 'policy') return `ValidatingAdmissionPolicy ${r.name ?? '(unnamed)'}`;
  if (r?.by === 'rbac') return 'RBAC';
  return 'the API server';
}

/** The answer to one dry-run write, in a few words. */
function answerWords(w: PlannedWrite | undefined): string {
  if (w === undefined) return 'no DELETE would be sent';
  if (w.answer === 'accepted') return 'DELETE accepted (dry run)';
  if (w.answer === 'gone') return 'already gone: nothing to delete';
  return `DELETE would be refused (${w.code ?? '?'}) by ${refuserWords(w.refusedBy)}`;
}

/** What goes before the namespace DELETE of one target: the custom resources, a hold-back. */
function firstOf(t: TargetReport): string[] {
  const cr = t.customResources;
  const first = (cr?.objects ?? []).filter((o) => o.waited);
  const out: string[] = [];
  if (first.length) {
    const names = first.slice(0, 3).map((o) => o.object);
    const more = first.length > 3 ? `, and ${first.length - 3} more` : '';
    out.push(`first ${first.length} custom resource(s) whose controller runs: ${names.join(', ')}${more}`);
  }
  if (cr?.held) out.push(`held until ${cr.held.serves.join(', ')} went: ${cr.held.why}`);
  return out;
}

/** The targets in the order their namespace DELETEs were sent, those without one last. */
function inOrder(report: RunReport): TargetReport[] {
  const sent = (report.plan?.writes ?? [])
    .filter((w) => w.verb === 'delete' && w.object.startsWith('namespaces/'))
    .map((w) => w.object.slice('namespaces/'.length));
  const at = (t: TargetReport): number => {
    const i = sent.indexOf(t.name);
    return i < 0 ? sent.length : i;
  };
  return [...report.targets].sort((a, b) => at(a) - at(b));
}

/** What forcing would do about one target's predicted hangs, under the policy given: a prediction. */
function forecastLines(t: TargetReport, subject: string): string[] {
  const plan = t.plan;
  if (!plan) return [];
  const lines = plan.forcing
    .filter((f) => f.about === subject)
    .map((f) => `forcing (prediction): ${f.words}`);
  if (!lines.length && plan.forcingNote) lines.push(`forcing (prediction): ${plan.forcingNote}`);
  return lines;
}

/** The plan of a plan-mode run, or undefined for a run that wrote. */
export function planParts(report: RunReport): PlanParts | undefined {
  if (!report.settings.dryRun) return undefined;
  const order = inOrder(report)
    .filter((t) => t.outcome === 'planned')
    .map((t) => ({ head: `${t.name}: ${answerWords(t.plan?.delete)}`, more: firstOf(t) }));
  const hangs = report.targets.flatMap((t) =>
    (t.preMortem?.predictions ?? [])
      .filter((p) => p.hang)
      .map((p) => ({
        head: `${t.name}: predicted to hang: ${p.summary}`,
        more: forecastLines(t, p.subject),
      })),
  );
  const refusals = (report.plan?.writes ?? [])
    .filter((w) => w.answer === 'refused')
    .map((w) => ({
      head: `${w.verb} ${w.namespace ? `${w.namespace}/` : ''}${w.object}: refused (${w.code ?? '?'}) by ${refuserWords(w.refusedBy)}`,
      more: [w.message ?? ''].filter(Boolean),
    }));
  return { order, hangs, refusals };
}
