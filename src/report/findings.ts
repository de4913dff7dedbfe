/** Findings of one namespace as markdown: a verdict line, then a details block per finding. Pure. */
import type { Finding } from '../diagnosis/types.js';
import type { TargetReport } from '../outcome.js';
import { html, md } from './escape.js';
import { renderForce } from './force.js';

const ICON: Record<Finding['severity'], string> = { error: '🔴', warning: '🟠', notice: '🔵' };

function evidenceList(f: Finding): string {
  const rows = f.evidence.map(
    (e) =>
      `<li><code>${html(e.object, 300)}</code> ${html(e.field, 200)}: <code>${html(e.value, 600)}</code></li>`,
  );
  return rows.length ? `<ul>${rows.join('')}</ul>` : '';
}

function ownerLine(f: Finding): string {
  if (!f.owner) return '';
  const present =
    f.owner.present === 'unknown' ? 'unknown whether it runs' : f.owner.present ? 'running' : 'not running';
  const detail = f.owner.detail ? ` — ${html(f.owner.detail, 300)}` : '';
  return `<p>Owner: ${html(f.owner.controller, 200)} (${present})${detail}</p>`;
}

function remedyBlock(f: Finding): string {
  const parts: string[] = [];
  if (f.remedy.commands.length)
    parts.push(`<pre><code>${html(f.remedy.commands.join('\n'), 4000)}</code></pre>`);
  if (f.remedy.policy)
    parts.push(`<p>Force policy that would handle it: <code>${html(f.remedy.policy, 300)}</code></p>`);
  if (f.remedy.note) parts.push(`<p>${html(f.remedy.note, 600)}</p>`);
  return parts.length ? `<p><b>Remedy</b></p>${parts.join('')}` : '';
}

/** One finding as a collapsible block. */
export function renderFinding(f: Finding): string {
  const confidence = f.confidence !== undefined ? ` (confidence ${Math.round(f.confidence * 100)}%)` : '';
  const leak = f.leaked ? ' — finalizer leaked' : '';
  return [
    `<details><summary>${ICON[f.severity]} <code>${html(f.id, 80)}</code> ${html(f.summary, 400)}${leak}${confidence}</summary>`,
    '',
    evidenceList(f),
    ownerLine(f),
    remedyBlock(f),
    '</details>',
  ].join('\n');
}

/** The findings section of one namespace. */
export function renderFindings(t: TargetReport): string {
  const top = t.findings[0];
  const why = t.diagnosedBecause ? ` (${md(t.diagnosedBecause, 200)})` : '';
  const verdict = top ? `${md(top.summary, 300)}` : 'nothing found';
  const force = renderForce(t);
  const scan = t.scan ? `Scan: ${t.scan.mode} (${md(t.scan.detail, 300)})` : '';
  return [
    `### ${md(t.name, 80)}${why}`,
    `**Verdict:** ${verdict}`,
    ...t.findings.map(renderFinding),
    force,
    scan,
  ]
    .filter((s) => s.length > 0)
    .join('\n\n');
}
