/**
 * `npm run bench`: the four benchmarks of the project against the fake API server, written to BENCHMARKS.md.
 * See `npm run bench -- --help` and BENCHMARKS.md ("How the figures are measured").
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs, USAGE, type Options } from './args.js';
import { runBig } from './big.js';
import { fleetTargets, renderFleet, runFleet } from './fleet.js';
import { forcingTargets, renderForcing, runForcing } from './forcing.js';
import { githubSweepTargets, renderGithubSweep, runGithubSweep } from './github-sweep.js';
import { machine } from './machine.js';
import { runMany } from './many.js';
import { runOperator } from './operator.js';
import { renderPeers } from './peers.js';
import { runReal } from './real.js';
import { renderScale, runScale, scaleTargets } from './scale.js';
import { realTargets, renderReal } from './real-report.js';
import { RemoteCluster } from './remote.js';
import { renderMarkdown } from './report.js';
import { runStartup } from './startup.js';
import { runSettle } from './settle.js';
import { runSettleReal } from './real-settle.js';
import { renderSettle, settleTargets, type SettleReal } from './settle-report.js';
import { findAssets } from '../test/real/control-plane.js';
import type { Target } from './stats.js';
import { bigPeerTargets, figures, finalLine, targets } from './verdicts.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function log(line: string): void {
  console.log(`bench: ${line}`);
}

async function main(): Promise<number> {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`bench: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (options === 'help') {
    console.log(USAGE);
    return 0;
  }
  const out = options.out
    ? resolve(options.out)
    : options.quick
      ? join(mkdtempSync(join(tmpdir(), 'nt-bench-')), 'BENCHMARKS.md')
      : join(ROOT, 'BENCHMARKS.md');
  const started = performance.now();
  const m = machine();
  log(
    `${m.cpu}, ${m.cores} cores, Node ${m.node}; latency ${options.latencyMs} ms, ${options.runs} run(s)` +
      (options.quick ? ', quick' : ''),
  );
  const remote = new RemoteCluster();
  try {
    if (options.only) return await runOnly(remote, options);
    const big = await runBig(remote, options, log);
    const many = await runMany(remote, options, log);
    const startup = await runStartup(ROOT, options.sizes.startupReps, log);
    const forcing = await runForcing(remote, options, log);
    const real = await runReal(remote, options, ROOT, log);
    const operator = await runOperator(options, log);
    const sweep = await runGithubSweep(options, log);
    // One run per case: each is a whole action run of up to a minute.
    const scale = await runScale(remote, { ...options, runs: 1 }, ROOT, log);
    const fleet = await runFleet(options, ROOT, log);
    const settle = await runSettle(options, log);
    const settleReal = await realSettle(options);
    const f = figures(big, many, startup);
    const list = [
      ...targets(f, big, many, startup),
      ...bigPeerTargets(big),
      ...forcingTargets(forcing),
      ...realTargets(real),
      ...githubSweepTargets(sweep),
      ...scaleTargets(scale),
      ...fleetTargets(fleet),
      ...settleTargets(settle, settleReal),
    ];
    const markdown = renderMarkdown({
      options,
      machine: m,
      big,
      many,
      startup,
      figures: f,
      targets: list,
      totalMs: performance.now() - started,
    });
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(
      out,
      `${markdown.trimEnd()}

${renderReal(real).trimEnd()}

${renderForcing(forcing).trimEnd()}

${operator.trimEnd()}

${renderGithubSweep(sweep).trimEnd()}

${renderScale(scale).trimEnd()}

${renderFleet(fleet).trimEnd()}

${renderSettle(settle, settleReal)}
`,
    );
    for (const t of list)
      log(`${t.pass === undefined ? 'n/a ' : t.pass ? 'pass' : 'MISS'}  ${t.name}: ${t.measured}`);
    log(`wrote ${out}`);
    console.log(finalLine(f, list, many));
    return 0;
  } finally {
    await remote.close();
  }
}

/** `--only`: the chosen sections, printed with their targets; BENCHMARKS.md is not written. */
async function runOnly(remote: RemoteCluster, options: Options): Promise<number> {
  const parts: string[] = [];
  const list: Target[] = [];
  if (options.only?.has('big')) {
    const big = await runBig(remote, options, log);
    parts.push(renderPeers(big));
    list.push(...bigPeerTargets(big));
  }
  if (options.only?.has('real')) {
    const real = await runReal(remote, options, ROOT, log);
    parts.push(renderReal(real));
    list.push(...realTargets(real));
  }
  if (options.only?.has('sweep')) {
    const sweep = await runGithubSweep(options, log);
    parts.push(renderGithubSweep(sweep));
    list.push(...githubSweepTargets(sweep));
  }
  if (options.only?.has('fleet')) {
    const fleet = await runFleet(options, ROOT, log);
    parts.push(renderFleet(fleet));
    list.push(...fleetTargets(fleet));
  }
  if (options.only?.has('settle')) {
    const settle = await runSettle(options, log);
    const real = await realSettle(options);
    parts.push(renderSettle(settle, real));
    list.push(...settleTargets(settle, real));
  }
  console.log(parts.join('\n\n'));
  for (const t of list)
    log(`${t.pass === undefined ? 'n/a ' : t.pass ? 'pass' : 'MISS'}  ${t.name}: ${t.measured}`);
  return 0;
}

/** Section 11's real-server row, where the control plane can be started (never in the smoke run). */
async function realSettle(options: Options): Promise<SettleReal> {
  if (options.smoke) return { skipped: '--smoke' };
  const assets = findAssets(ROOT);
  if (!assets)
    return { skipped: 'no control plane (set KUBE_ASSETS, or provide ../shared/realkube/install.sh)' };
  try {
    return { sample: await runSettleReal(assets, log) };
  } catch (e) {
    return { skipped: `failed: ${(e as Error).message}` };
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`bench: failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exit(1);
  },
);
