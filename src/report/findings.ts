/** Per-namespace details, collapsed: every finding with its evidence, owner and remedy. Pure. */
import type { Finding } from '../model/findings.js';
import { formatDuration } from '../shared/duration.js';
import type { TargetReport } from '../model/run.js';
import { layoutScript, withContext } from './commands.js';
import { fence, md } from './escape.js';
import { resolvedByForce } from './force.js';
import { conditionWords } from './words.js';

const ICON: Record<Finding['severity'], string> = { error: '🔴', warning: '🟠', notice: '🔵' };

const code = (text: string, max: number): string => `<code>${md(text, max)}</code>`;

function evidenceList(f: Finding): string {
  return f.evidence
    .map((e) => `- ${code(e.object, 300)} ${md(e.field, 200)}: ${code(e.value, 600)}`)
    .join('\n');
}

function ownerLine(f: Finding): string {
  if (!f.owner) return '';
  const present =
    f.owner.status ??
    (f.owner.present === 'unknown' ? 'unknown whether it runs' : f.owner.present ? 'running' : 'not running');
  const detail = f.owner.detail ? ` — ${md(f.owner.detail, 300)}` : '';
  return `- Owner: ${md(f.owner.controller, 200)} (${present})${detail}`;
}

/** One finding: its summary line, evidence, owner, and its remedy unless an earlier finding already showed it. */
export function renderFinding(
  t: TargetReport,
  f: Finding,
  shown: Set<string>,
  context: string | undefined,
): string {
  const confidence = f.confidence !== undefined ? ` · confidence ${Math.round(f.confidence * 100)}%` : '';
  const resolved = resolvedByForce(t, f);
  const head = `${ICON[f.severity]} **${md(f.id, 80)}** — ${md(f.summary, 400)}${confidence}${resolved ? ' · ✅ resolved by forcing' : ''}`;
  const parts = [head, [evidenceList(f), ownerLine(f)].filter(Boolean).join('\n')];
  if (!resolved) {
    const fresh = f.remedy.commands.map((c) => withContext(c, context)).filter((c) => !shown.has(c));
    for (const c of fresh) shown.add(c);
    if (fresh.length) parts.push(fence(layoutScript(fresh.join('\n')).slice(0, 6000), 'sh'));
    else if (f.remedy.commands.length) parts.push('<sub>Command: the same as above.</sub>');
    const last = f.remedy.lastResort;
    if (last) {
      const cmds = last.commands.map((c) => withContext(c, context));
      const again = cmds.every((c) => shown.has(c));
      cmds.forEach((c) => shown.add(c));
      parts.push(
        `⚠️ **Last resort, not the fix** — ${md(last.risk, 400)}${again ? ' (the command above)' : ':'}`,
      );
      if (!again) parts.push(fence(layoutScript(cmds.join('\n')).slice(0, 6000), 'sh'));
    }
    const notes = [f.remedy.note ? md(f.remedy.note, 600) : ''];
    if (f.remedy.policy) notes.push(`Force policy that would handle it: ${code(f.remedy.policy, 300)}`);
    if (notes.some(Boolean)) parts.push(`<sub>${notes.filter(Boolean).join(' ')}</sub>`);
  }
  return parts.filter(Boolean).join('\n\n');
}

/**
 * The collapsed details of a namespace whose cause another namespace's details already show in full: its verdict and
 * the evidence that names its own objects.
 */
function sameCauseDetails(t: TargetReport, sameAs: string): string {
  const v = t.findings[0]!;
  const evidence = v.evidence
    .slice(0, 4)
    .map((e) => `- ${code(e.object, 300)} ${md(e.field, 200)}: ${code(e.value, 300)}`)
    .join('\n');
  const n = t.findings.length;
  return [
    `<details><summary><b>${md(t.name, 80)}</b> — ${n} finding${n === 1 ? '' : 's'}, the same cause as ${md(sameAs, 80)}</summary>`,
    `${ICON[v.severity]} **${md(v.id, 80)}** — ${md(v.summary, 400)}`,
    evidence,
    `<sub>Its other findings and commands read as those of ${md(sameAs, 80)}, with its own names; all are in the JSON report.</sub>`,
    '</details>',
  ]
    .filter(Boolean)
    .join('\n\n');
}

/**
 * The collapsed details of one namespace: when it was diagnosed, its labels and conditions, every finding. With
 * `sameAs`, the namespace whose details already show this cause in full: only its own verdict and objects.
 */
export function renderDetails(t: TargetReport, context: string | undefined, sameAs?: string): string {
  if (sameAs !== undefined && t.findings.length > 0) return sameCauseDetails(t, sameAs);
  const shown = new Set<string>();
  const facts: string[] = [];
  if (t.diagnosedBecause) facts.push(`Diagnosed: ${md(t.diagnosedBecause, 200)}`);
  else if (t.terminatingForMs !== undefined)
    facts.push(`Terminating for ${formatDuration(t.terminatingForMs)}`);
  const labels = Object.entries(t.labels ?? {})
    .filter(([k]) => k !== 'kubernetes.io/metadata.name')
    .map(([k, v]) => code(`${k}=${v}`, 200));
  if (labels.length) facts.push(`Labels: ${labels.join(' ')}`);
  const said = conditionWords(t.conditions);
  if (said) facts.push(`The namespace controller says: ${md(said, 800)}`);
  const unread = t.unread ?? [];
  if (unread.length) {
    const shown = unread.slice(0, 3).map((e) => `${code(e.what, 120)} (${md(e.error, 200)})`);
    const more = unread.length > 3 ? ` and ${unread.length - 3} more in the JSON report` : '';
    facts.push(`Not read, so unknown to this diagnosis: ${shown.join('; ')}${more}`);
  }
  const n = t.findings.length;
  return [
    `<details><summary><b>${md(t.name, 80)}</b> — ${n} finding${n === 1 ? '' : 's'}</summary>`,
    facts.map((f) => `- ${f}`).join('\n'),
    ...t.findings.map((f) => renderFinding(t, f, shown, context)),
    t.scan ? `Scan: ${md(t.scan.mode, 40)} (${md(t.scan.detail, 300)})` : '',
    '</details>',
  ]
    .filter(Boolean)
    .join('\n\n');
}
