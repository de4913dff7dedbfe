/** The markdown section of the real-server benchmark: the fake and the real server side by side. Pure. */
import type { RealColumn, RealResult } from './real.js';
import { RECIPE } from './big.js';
import { bytes, median, ms, spread, times } from './stats.js';

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
    ['naive ÷ ours', ratio(fake.naive, fake.ours), ratio(real.naive, real.ours), ''],
    [
      'kubectl recipe ÷ ours',
      fake.kubectl.length ? ratio(fake.kubectl, fake.ours) : 'n/a',
      real.kubectl.length ? ratio(real.kubectl, real.ours) : 'n/a',
      '',
    ],
    [
      'ours: requests, response bytes',
      `${fake.oursRequests}, ${bytes(fake.oursBytes)}`,
      `${real.oursRequests}, ${bytes(real.oursBytes)}`,
      '',
    ],
    ['ours: findings', String(fake.findings), String(real.findings), ''],
    ['objects the naive scan read', String(fake.naiveObjects), String(real.naiveObjects), ''],
  ];
}

/** `## 5. Big namespace on a real API server`, or one line saying why it was not measured. */
export function renderReal(r: RealResult): string {
  const s = r.spec;
  const head = '## 5. Big namespace on a real API server\n\n';
  if (!r.fake || !r.real) return `${head}Not measured in this run: ${r.skipped ?? 'unknown reason'}.\n`;
  const table = [
    '| Scan of one Terminating namespace | fake API server | real kube-apiserver 1.20.2 + etcd 3.4 | real ÷ fake |',
    '|---|---:|---:|---:|',
    ...rows(r.fake, r.real).map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
  return `${head}The scan of scenario 1 at a size a real control plane builds in minutes on 2 shared cores: ${s.types} CRD types in ${s.groups} groups, ${s.configMaps} ConfigMaps of ${bytes(s.configMapBytes)}, ${s.customResources} custom resources (${s.withFinalizers} with a finalizer), the namespace Terminating with no namespace controller running (as the fake's paused one). The same three scans run against the fake (no added latency) and against a real kube-apiserver with etcd on this machine (kube-apiserver ready in ${ms(r.startMs ?? NaN)}, the namespace built in ${ms(r.buildMs ?? NaN)}). Medians (min–max) of ${r.real.ours.length} runs after one warm-up; the kubectl recipe is \`${RECIPE}\`. The machine was shared with other work, so compare ratios more than absolute times.

${table}
`;
}
