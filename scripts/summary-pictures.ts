/**
 * `npm run screenshot [scenario…]`: run each scenario for real on the fake cluster, render its job summary as
 * GitHub does (GFM, github-markdown-css, a 950 px panel) in headless Chromium, and write docs/summary/NAME.png
 * with the markdown beside it (`fleet`: the merge step's summary for three clusters). It also fails when a code block
 * would scroll sideways in that panel.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planAnnotations, type Annotation } from '../src/report/annotations.js';
import { planFleetAnnotations } from '../src/report/fleet-annotations.js';
import { renderFleetSummary } from '../src/report/fleet-markdown.js';
import { runFleetScenario } from './fleet-scenario.js';
import { renderSummary } from '../src/report/markdown.js';
import { gfm, gfmProblems } from '../test/helpers/gfm.js';
import { runScenario, SCENARIOS } from './scenarios.js';
import { LIFECYCLE_SCENARIOS } from './lifecycle-scenarios.js';

const OUT = 'docs/summary';
const RUN_URL = 'https://github.com/acme/shop/actions/runs/7';
const css = readFileSync(
  createRequire(import.meta.url).resolve('github-markdown-css/github-markdown-light.css'),
  'utf8',
);

// GitHub colours diff blocks: removed lines red, added ones green (github-markdown-css's classes for them).
gfm.set({
  highlight: (code, lang) => {
    if (lang !== 'diff') return '';
    const esc = (t: string): string => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const line = (l: string): string =>
      l.startsWith('-')
        ? `<span class="pl-md">${esc(l)}</span>`
        : l.startsWith('+')
          ? `<span class="pl-mi1">${esc(l)}</span>`
          : esc(l);
    return `<pre><code>${code.split('\n').map(line).join('\n')}</code></pre>`;
  },
});

function page(body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>${css}
body { margin: 0; background: #f6f8fa; }
.panel { width: 950px; box-sizing: border-box; background: #fff; border: 1px solid #d0d7de; border-radius: 6px; margin: 12px; }
.markdown-body { padding: 16px 24px; }
</style></head><body><div class="panel"><article class="markdown-body">${body}</article></div>
<script>
  const wide = [...document.querySelectorAll('pre, table')].filter((e) => e.scrollWidth > e.clientWidth + 1);
  document.body.dataset.overflow = wide.map((e) => e.textContent.slice(0, 60)).join(' | ');
  document.body.dataset.height = String(document.querySelector('.panel').getBoundingClientRect().bottom + 12);
</script></body></html>`;
}

function chromium(args: string[], userDir: string): string {
  const flags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'];
  flags.push('--disable-background-networking', '--disable-component-update', '--disable-sync');
  flags.push(`--user-data-dir=${userDir}`, '--hide-scrollbars', '--force-device-scale-factor=1');
  return execFileSync('chromium', [...flags, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
}

/** Render `markdown` as GitHub does into OUT/NAME.png (beside NAME.md); the problems found in it. */
function shoot(name: string, markdown: string, links: (string | RegExp)[] = []): string[] {
  writeFileSync(join(OUT, `${name}.md`), markdown);
  const problems = gfmProblems(markdown, [RUN_URL, ...links]);
  const dir = mkdtempSync(join(tmpdir(), 'nt-shot-'));
  try {
    const html = join(dir, 'summary.html');
    writeFileSync(html, page(gfm.render(markdown)));
    const dom = chromium(['--dump-dom', '--window-size=980,800', `file://${html}`], join(dir, 'profile-1'));
    const overflowText = /data-overflow="([^"]*)"/.exec(dom)?.[1] ?? '';
    const height = Math.ceil(Number(/data-height="([^"]*)"/.exec(dom)?.[1] ?? '1200'));
    if (overflowText) problems.push(`scrolls sideways: ${overflowText}`);
    const png = join(OUT, `${name}.png`);
    chromium(
      [`--screenshot=${png}`, `--window-size=980,${Math.min(height, 4000)}`, `file://${html}`],
      join(dir, 'profile-2'),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return problems;
}

const CONTEXT = {
  repository: 'acme/shop',
  pullRequest: { number: 123, title: 'Add the checkout service' },
  sha: '0123456789abcdef0123456789abcdef01234567',
  runUrl: RUN_URL,
  serverUrl: 'https://github.com',
};

function said(name: string, markdown: string, emit: Annotation[], overflow: number, failing: boolean): void {
  const levels = emit.reduce<Record<string, number>>(
    (n, a) => ({ ...n, [a.level]: (n[a.level] ?? 0) + 1 }),
    {},
  );
  console.log(
    `${name}: ${Buffer.byteLength(markdown)} bytes, ${markdown.split('\n').length - 1} lines; annotations ${JSON.stringify(levels)}${failing ? ' + the failure line' : ''}, ${overflow} over; ${OUT}/${name}.png`,
  );
}

const wanted = process.argv.slice(2);
mkdirSync(OUT, { recursive: true });
let failed = false;
for (const s of SCENARIOS.filter((x) => wanted.length === 0 || wanted.includes(x.name))) {
  const report = await runScenario(s);
  report.context = { ...report.context, ...CONTEXT, repository: report.context.repository };
  const { emit, overflow } = planAnnotations(report);
  const markdown = renderSummary(report, '/home/runner/work/_temp/namespace-teardown.json', { overflow });
  const problems = shoot(s.name, markdown);
  said(s.name, markdown, emit, overflow, report.failures.length > 0);
  for (const p of problems) console.log(`  problem: ${p}`);
  failed ||= problems.length > 0;
}
if (wanted.length === 0 || wanted.includes('fleet')) {
  // The merge step's summary for three clusters: one clean, one where a finalizer leaked, one unreachable.
  const fleet = await runFleetScenario(CONTEXT);
  const { emit, overflow } = planFleetAnnotations(fleet);
  const markdown = renderFleetSummary(fleet, '/home/runner/work/_temp/namespace-teardown-fleet.json', {
    overflow,
  });
  const problems = shoot('fleet', markdown);
  said('fleet', markdown, emit, overflow, fleet.failures.length > 0);
  for (const p of problems) console.log(`  problem: ${p}`);
  failed ||= problems.length > 0;
}
// The preview lifecycle's paths, through the bundle as the runner runs it: the summary it wrote, as it is.
for (const s of LIFECYCLE_SCENARIOS.filter((x) => wanted.length === 0 || wanted.includes(x.name))) {
  const markdown = await s.run();
  const problems = shoot(s.name, markdown, [/^https:\/\/github\.com\/acme\/shop\/pull\/\d+$/]);
  console.log(`${s.name}: ${Buffer.byteLength(markdown)} bytes, from the bundle; ${OUT}/${s.name}.png`);
  for (const p of problems) console.log(`  problem: ${p}`);
  failed ||= problems.length > 0;
}
process.exit(failed ? 1 : 0);
