/** The markdown section of the real-server benchmark: the fake and the real server side by side. Pure. */
import type { RealColumn, RealResult } from './real.js';
import type { RealScanSample, RealStuckResult } from './real-stuck.js';
import { SCAN_LABELS } from './stuck.js';
import { RECIPE_ONE } from './peers.js';
import { RECIPE } from './scan.js';
import { bytes, count, median, ms, spread, times } from './stats.js';
import type { Target } from './stats.js';

const ratio = (a: number[], b: number[]): string => times(median(a) / median(b));

function rows(fake: RealColumn, real: RealColumn): string[][] {
  return [
    ['ours: snapshot + diagnosis', spread(fake.ours), spread(real.ours), ratio(real.ours, fake.ours)],
    ['naive client-node scan', spread(fake.naive), spread(real.naive), ratio(real.naive, fake.naive)],
    [
      'kubectl recipe',
      fake.kubectl.length ? spread(fake.kubectl) : 'n/a',
      real.kubectl.length ? spread(real.kubectl) : 'n/a',
      real.kubectl.length ? ratio(real.kubectl, fake.kubectl) : 'n/a',
    ],
    [
      'one-process kubectl recipe',
      fake.kubectlOne.length ? spread(fake.kubectlOne) : 'n/a',
      real.kubectlOne.length ? spread(real.kubectlOne) : 'n/a',
      real.kubectlOne.length ? ratio(real.kubectlOne, fake.kubectlOne) : 'n/a',
    ],
    ['naive ÷ ours', ratio(fake.naive, fake.ours), ratio(real.naive, real.ours), ''],
    [
      'kubectl recipe ÷ ours',
      fake.kubectl.length ? ratio(fake.kubectl, fake.ours) : 'n/a',
      real.kubectl.length ? ratio(real.kubectl, real.ours) : 'n/a',
      '',
    ],
    [
      'ours: requests, response bytes (as received)',
      `${fake.oursRequests}, ${bytes(fake.oursBytes)}`,
      `${real.oursRequests}, ${bytes(real.oursBytes)}`,
      '',
    ],
    [
      'ours, gzip off (`createKube(kc, { gzip: false })`)',
      spread(fake.oursNoGzip),
      spread(real.oursNoGzip),
      ratio(real.oursNoGzip, fake.oursNoGzip),
    ],
    [
      'ours: response bytes, gzip on (as received) / off',
      `${bytes(fake.oursBytes)} / ${bytes(fake.oursNoGzipBytes)}`,
      `${bytes(real.oursBytes)} / ${bytes(real.oursNoGzipBytes)}`,
      '',
    ],
    [
      'one-process kubectl recipe ÷ ours',
      fake.kubectlOne.length ? ratio(fake.kubectlOne, fake.ours) : 'n/a',
      real.kubectlOne.length ? ratio(real.kubectlOne, real.ours) : 'n/a',
      '',
    ],
    ['ours: findings', String(fake.findings), String(real.findings), ''],
    ['objects the naive scan read', String(fake.naiveObjects), String(real.naiveObjects), ''],
  ];
}

const med = (xs: readonly RealScanSample[], f: (s: RealScanSample) => number): number => median(xs.map(f));

function stuckRow(name: string, xs: readonly RealScanSample[], targetedMs: number): string[] {
  const wall = med(xs, (s) => s.wallMs);
  const req = med(xs, (s) => s.requests);
  const disc = med(xs, (s) => s.discoveryRequests);
  const lists = med(xs, (s) => s.listRequests);
  return [
    name,
    spread(xs.map((s) => s.wallMs)),
    `${count(req)} (${count(disc)} discovery + ${count(lists)} LIST + ${count(req - disc - lists)} cluster reads)`,
    bytes(med(xs, (s) => s.bytes)),
    count(med(xs, (s) => s.findings)),
    wall === targetedMs ? '1×' : times(wall / targetedMs),
  ];
}

const allTargeted = (s: RealStuckResult): boolean =>
  s.targeted.length > 0 && s.targeted.every((x) => x.scan.mode === 'targeted');

/** Why some timed targeted runs fell back to the full scan (empty when none did). */
function fallbacks(s: RealStuckResult): string {
  const fell = s.targeted.filter((x) => x.scan.mode !== 'targeted');
  return fell.map((x) => `${x.scan.reason}: ${x.scan.detail}`).join('; ');
}

/** `### 5b.`: the real-server counterpart of section 1b. */
function renderStuck(r: RealResult): string {
  const head = "### 5b. The big namespace after the real namespace controller's pass\n\n";
  const s = r.stuck;
  if (!s) return `${head}Not measured in this run: ${r.stuckSkipped ?? 'unknown reason'}.\n`;
  const targetedMs = med(s.targeted, (x) => x.wallMs);
  const rows = [
    stuckRow(SCAN_LABELS.targeted, s.targeted, targetedMs),
    stuckRow(SCAN_LABELS.full, s.full, targetedMs),
  ];
  if (s.kubectl.length) {
    const wall = median(s.kubectl.map((k) => k.wallMs));
    rows.push([
      `kubectl recipe (${s.kubectl.length} runs)`,
      spread(s.kubectl.map((k) => k.wallMs)),
      'not counted (kubectl processes)',
      'not counted',
      `(${s.kubectl[0]!.lines} output lines, exit ${s.kubectl[0]!.exitCode})`,
      times(wall / targetedMs),
    ]);
  }
  const table = [
    '| Approach | Wall time, median (min–max) | Requests | Bytes received | Findings | Time vs targeted |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
  const t0 = s.targeted[0];
  const f0 = s.full[0];
  const fell = fallbacks(s);
  const ids = s.findingIds.map(([id, n]) => `${id}${n > 1 ? ` ×${n}` : ''}`).join(', ');
  return `${head}The real-server counterpart of section 1b. A second control plane, started after section 5's one is stopped,
this time **with kube-controller-manager** (section 5's plane has none, so that its namespace keeps all its content),
ready in ${ms(s.startMs)}; the same namespace built the same way and DELETEd (${ms(s.buildMs)} with the DELETE). The real
namespace controller's first pass was seen ${ms(s.firstPassSeenMs)} after the DELETE (its conditions' \`lastTransitionTime\`
is ${s.firstPassStampS} s after the \`deletionTimestamp\`, both in whole seconds; upstream waits 5 s before the first pass).
The bench waits until the pass is complete — no ConfigMap and no finalizer-free custom resource left, the conditions
naming exactly the ${r.spec.withFinalizers} finalizer-held types — and until the deletion is more than 5 s old, so the targeted scan
may trust the conditions. The controller-manager keeps running during the measurements (the namespace controller
retries the namespace every few seconds, each time with discovery and a DELETE and a LIST of every type), as on a real cluster. Medians (min–max) of
${s.targeted.length} runs, each approach after one discarded warm-up; requests and bytes are the adapter's own count
(\`kube.cost()\`; discovery's share measured around \`discover()\`, the LIST pages of the namespace counted at
\`listMetadata\`).

The controller's conditions, verbatim:

- \`NamespaceContentRemaining\`: "${s.contentRemaining}"
- \`NamespaceFinalizersRemaining\`: "${s.finalizersRemaining}"

${table}

- **targeted**: \`${t0?.scan.mode ?? 'n/a'}\`, ${t0?.scan.reason ?? 'n/a'}: ${t0?.scan.detail ?? 'n/a'}; ${t0?.listedTypes ?? 'n/a'} type(s) listed.${fell ? ` **Some runs fell back to the full scan**: ${fell}.` : ''}
- **full** (${f0?.scan.reason ?? 'n/a'}): ${f0?.listedTypes ?? 'n/a'} types listed.
- Findings: ${s.sameFindings ? 'identical' : '**they differ**'} (\`JSON.stringify(diagnose())\` of a targeted and a full snapshot taken with the same clock; the targeted one chose \`${s.sameClockScan.mode}\`, ${s.sameClockScan.reason}) (${ids}).
- **Why the targeted scan still sends ${count(med(s.targeted, (x) => x.requests))} requests here** (section 1b's fake serves aggregated discovery): 1.20 has no aggregated discovery, so
  discovery is legacy: \`GET /apis\`, then one GET per group-version of the groups the conditions name
  (${count(med(s.targeted, (x) => x.discoveryRequests))} requests; the full scan reads every group-version, ${count(med(s.full, (x) => x.discoveryRequests))}). The LISTs drop from
  ${count(med(s.full, (x) => x.listRequests))} to ${count(med(s.targeted, (x) => x.listRequests))}. On a server with aggregated discovery (1.27+ by default) discovery is 1–2 requests.
`;
}

/** Section 5's row against the one-process kubectl recipe (RECIPE_ONE), the strongest kubectl peer. */
function oneProcessTarget(r: RealResult): Target {
  const c = r.real;
  const ours = c ? median(c.ours) : NaN;
  const one = c?.kubectlOne.length ? median(c.kubectlOne) : NaN;
  return {
    id: 'real-one-process-kubectl',
    name: 'Real server 1.20: big namespace, ours vs the one-process kubectl recipe',
    goal: '≥ 10× faster',
    pass: Number.isFinite(one) ? one / ours >= 10 : undefined,
    measured: Number.isFinite(one)
      ? `${times(one / ours)} (${ms(one)} vs ${ms(ours)})`
      : `not measured: ${r.skipped ?? 'kubectl not found or --kubectl-runs 0'}`,
  };
}

/** The real-server verdict rows (sections 5 and 5b); not measured when the section was skipped. */
export function realTargets(r: RealResult): Target[] {
  const s = r.stuck;
  const why = r.skipped ?? r.stuckSkipped ?? 'unknown reason';
  const targetedMs = s ? med(s.targeted, (x) => x.wallMs) : NaN;
  const kubectlMs = s?.kubectl.length ? median(s.kubectl.map((k) => k.wallMs)) : NaN;
  const ok = s ? allTargeted(s) : false;
  const note = s && !ok ? `; the targeted scan did not run every time (${fallbacks(s)})` : '';
  const t0 = s
    ? { req: med(s.targeted, (x) => x.requests), disc: med(s.targeted, (x) => x.discoveryRequests) }
    : undefined;
  return [
    oneProcessTarget(r),
    {
      id: 'real-targeted-kubectl',
      name: 'Real server 1.20: big namespace after the controller pass, targeted scan vs the kubectl recipe',
      goal: '≥ 300× faster',
      pass: s?.kubectl.length ? kubectlMs / targetedMs >= 300 && ok : undefined,
      measured: s?.kubectl.length
        ? `${times(kubectlMs / targetedMs)} (${ms(kubectlMs)} vs ${ms(targetedMs)})${note}`
        : `not measured: ${s ? 'kubectl not found or --kubectl-runs 0' : why}`,
    },
    {
      id: 'real-targeted-requests',
      name: 'Real server 1.20: big namespace after the controller pass, targeted scan requests, same findings as the full scan',
      // 1.20 serves no aggregated discovery: its /apis plus one request per named group stand for the one
      // aggregated /apis a current server answers; the rest is held to the fake's goal.
      goal: '≤ 15 requests, legacy discovery counted as the one aggregated /apis request; identical findings',
      pass: s && t0 ? t0.req - t0.disc + 1 <= 15 && ok && s.sameFindings : undefined,
      measured:
        s && t0
          ? `${count(t0.req)} requests, ${count(t0.disc)} of them legacy discovery: /apis and each named group (1.20 has no aggregated discovery; a server with it would need ${count(t0.req - t0.disc + 1)}); full scan ${count(med(s.full, (x) => x.requests))}; findings ${s.sameFindings ? 'identical' : 'DIFFER'}${note}`
          : `not measured: ${why}`,
    },
  ];
}

/** \`## 5. Big namespace on a real API server\`, or one line saying why it was not measured. */
export function renderReal(r: RealResult): string {
  const s = r.spec;
  const head = '## 5. Big namespace on a real API server\n\n';
  if (!r.fake || !r.real) return `${head}Not measured in this run: ${r.skipped ?? 'unknown reason'}.\n`;
  const table = [
    '| Scan of one Terminating namespace | fake API server | real kube-apiserver 1.20.2 + etcd 3.4 | real ÷ fake |',
    '|---|---:|---:|---:|',
    ...rows(r.fake, r.real).map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
  return `${head}The scan of scenario 1 at a size a real control plane builds in minutes on 2 shared cores: ${s.types} CRD types in ${s.groups} groups, ${s.configMaps} ConfigMaps of ${bytes(s.configMapBytes)}, ${s.customResources} custom resources (${s.withFinalizers} with a finalizer), the namespace Terminating with no namespace controller running (as the fake's paused one). The same three scans run against the fake (no added latency) and against a real kube-apiserver with etcd on this machine (kube-apiserver ready in ${ms(r.startMs ?? NaN)}, the namespace built in ${ms(r.buildMs ?? NaN)}). Medians (min–max) of ${r.real.ours.length} runs after one warm-up; the kubectl recipe is \`${RECIPE}\`, the one-process recipe \`${RECIPE_ONE}\`. Absolute times depend on the machine; compare the ratios.

${table}

Ours asks for gzip on every request but watches (\`createKube\`'s \`gzip\` option, on by default), as kubectl does;
kube-apiserver compresses only answers over 128 KiB — here the metadata-only pages of the ${s.configMaps} ConfigMaps — and
\`kube.cost().bytes\` counts them as received. The full scan's bytes on the wire: ${bytes(r.real.oursBytes)} with gzip on, ${bytes(r.real.oursNoGzipBytes)} with it
off (${times(r.real.oursNoGzipBytes / r.real.oursBytes)} less with gzip) on the real server; ${bytes(r.fake.oursBytes)} / ${bytes(r.fake.oursNoGzipBytes)} on the fake, which gzips the same way. The gzip-off
snapshot runs right after ours in each run, on its own adapter.

${renderStuck(r)}`;
}
