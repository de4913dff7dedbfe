/** Section 11 of BENCHMARKS.md, time to the answer, and its targets. Pure. */
import type { SettleResult, SettleSample } from './settle.js';
import { median, spread, type Target } from './stats.js';

/** The goals: a leak answered within this, and never later than this after the slowest healthy namespace. */
export const LEAK_GOAL_MS = 20_000;
export const AFTER_SLOWEST_MS = 20_000;

/** The real-server row, measured beside the fake's (undefined: why not, in `skipped`). */
export interface SettleReal {
  sample?: SettleSample;
  skipped?: string;
}

const s = (ms: number): string => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : 'n/a');
const wall = (xs: readonly SettleSample[]): number => median(xs.map((x) => x.wallMs));
const words = (xs: readonly SettleSample[], f: (x: SettleSample) => string): string =>
  [...new Set(xs.map(f))].join(', ');

function row(name: string, xs: readonly SettleSample[], note = ''): string {
  if (xs.length === 0) return `| ${name} | not measured | | | ${note} |`;
  return `| ${name} | ${spread(
    xs.map((x) => x.wallMs),
    s,
  )} | ${words(xs, (x) => x.result)} | ${words(xs, (x) => x.ended)} | ${note} |`;
}

/** `## 11.`: the table of cases, before and after. */
export function renderSettle(r: SettleResult, real: SettleReal): string {
  const slowest = median(r.ten.map((x) => x.slowestGoneMs ?? NaN));
  const reason = r.leak[0]?.settledReason ?? 'n/a';
  return [
    '## 11. Time to the answer: settled, not timed out',
    '',
    `Default inputs (\`wait: settled\`, \`timeout: 5m\`, \`teardown-order: custom-resources-first\`) unless a row says`,
    `otherwise; the fake API server with ${
      r.upstreamTiming
        ? 'the namespace controller as upstream times it (a pass 5 s after each write of the namespace, a recheck every 8 s while finalizers remain)'
        : 'a quicker namespace controller (the smoke run: a pass 0.5 s after each write, a recheck every second)'
    },`,
    `${r.latencyMs} ms per request. Each case runs the engine in this process against a fresh fake, from the start`,
    "of the run to its report (the check's answer; the bundle's start-up, section 4, comes on top); the cases of a run",
    `run side by side, ${r.runs} run(s) each, median (min–max). A leaked finalizer is a custom resource whose`,
    'controller is uninstalled; the live controller is an operator in a shared namespace that finishes its cleanup',
    `${r.holdMs / 1000} s after the run starts.`,
    '',
    '| Case | Start → answer | Result | Wait ended | Note |',
    '| --- | --- | --- | --- | --- |',
    row('one leaked namespace', r.leak),
    row(
      'one leaked namespace, `wait: timeout` (the behaviour before)',
      r.before ? [r.before] : [],
      `\`timeout: ${r.beforeTimeout}\`; once, beside the runs`,
    ),
    row('ten namespaces, one leaked', r.ten, `the slowest healthy one gone at ${s(slowest)}`),
    row(`one namespace a live controller holds ${r.holdMs / 1000} s`, r.held),
    row(
      'the same, `teardown-order: namespace`',
      r.heldNamespaceOrder,
      'the wait, not the first phase, holds',
    ),
    row(
      'real server 1.20: one leaked namespace',
      real.sample ? [real.sample] : [],
      real.sample ? 'kube-apiserver and kube-controller-manager 1.20.2' : `not measured: ${real.skipped}`,
    ),
    '',
    `What the leak's report says settled it: "${reason}".`,
  ].join('\n');
}

const held = (xs: readonly SettleSample[], holdMs: number): boolean =>
  xs.length > 0 && xs.every((x) => x.result === 'clean' && x.wallMs >= holdMs && x.wallMs <= holdMs + 20_000);

/** The targets of section 11. */
export function settleTargets(r: SettleResult, real: SettleReal): Target[] {
  const leak = wall(r.leak);
  const ten = wall(r.ten);
  const slowest = median(r.ten.map((x) => x.slowestGoneMs ?? NaN));
  const stuck = (xs: readonly SettleSample[]): boolean => xs.every((x) => x.result === 'stuck');
  return [
    {
      id: 'settle-leak',
      name: 'Time to the answer: one leaked namespace, default inputs (fake API server)',
      goal: `≤ ${LEAK_GOAL_MS / 1000} s, a failing check (was the whole timeout: 5m)`,
      pass: r.leak.length ? leak <= LEAK_GOAL_MS && stuck(r.leak) : undefined,
      measured: `${s(leak)}, ${words(r.leak, (x) => `${x.result}, wait ${x.ended}`)}; \`wait: timeout\` (${r.beforeTimeout}): ${s(r.before?.wallMs ?? NaN)}`,
    },
    {
      id: 'settle-ten',
      name: 'Time to the answer: ten namespaces, one leaked among them',
      goal: `≤ the slowest healthy one + ${AFTER_SLOWEST_MS / 1000} s`,
      pass: r.ten.length ? ten <= slowest + AFTER_SLOWEST_MS && stuck(r.ten) : undefined,
      measured: `${s(ten)} (slowest healthy one gone at ${s(slowest)})`,
    },
    {
      id: 'settle-held',
      name: `Never cut short: a namespace a live controller holds for ${r.holdMs / 1000} s`,
      goal: `clean, not before ${r.holdMs / 1000} s, within ${r.holdMs / 1000} s + 20 s (with each teardown order)`,
      pass: held(r.held, r.holdMs) && held(r.heldNamespaceOrder, r.holdMs),
      measured: `${s(wall(r.held))} (${words(r.held, (x) => x.result)}); \`teardown-order: namespace\` ${s(wall(r.heldNamespaceOrder))} (${words(r.heldNamespaceOrder, (x) => x.result)})`,
    },
    {
      id: 'real-settle-leak',
      name: 'Real server 1.20: time to the answer of a leaked finalizer, default inputs',
      goal: `≤ ${LEAK_GOAL_MS / 1000} s, a failing check`,
      pass: real.sample ? real.sample.wallMs <= LEAK_GOAL_MS && real.sample.result === 'stuck' : undefined,
      measured: real.sample
        ? `${s(real.sample.wallMs)}, ${real.sample.result}, wait ${real.sample.ended}`
        : `not measured: ${real.skipped}`,
    },
  ];
}
