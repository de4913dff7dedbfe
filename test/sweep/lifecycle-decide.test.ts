import { EXPIRES_ANNOTATION, TTL_ANNOTATION } from '../../src/model/lifecycle.js';
import type { PullState } from '../../src/model/pulls.js';
import { decide, type DecideInput, type DecideRules } from '../../src/sweep/decide.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const HOUR = 3_600_000;
const at = (hoursAgo: number): string => new Date(NOW - hoursAgo * HOUR).toISOString();
const RULES: DecideRules = {
  closedForMs: HOUR,
  maxAgeMs: undefined,
  prLabel: 'preview.example.com/pr',
  keepLabel: 'keep-preview',
};
const open = (labels?: string[]): PullState => ({ state: 'open', labels });
const closed = (hoursAgo: number, labels?: string[]): PullState => ({
  state: 'closed',
  closedAt: at(hoursAgo),
  labels,
});

const ROWS: {
  name: string;
  given: Partial<DecideInput>;
  rules?: Partial<DecideRules>;
  expect: {
    decision: 'go' | 'keep';
    reason: RegExp;
    keptBy?: string;
    expired?: boolean;
    invalidAnnotation?: boolean;
  };
}[] = [
  {
    name: 'closed PR with the keep label: kept',
    given: { label: '123', pull: closed(30, ['bug', 'keep-preview']) },
    expect: { decision: 'keep', reason: /^kept by label keep-preview on #123$/, keptBy: 'keep-preview' },
  },
  {
    name: 'the keep label in another case: kept (GitHub label names ignore case)',
    given: { label: '123', pull: closed(30, ['Keep-Preview']) },
    expect: { decision: 'keep', reason: /kept by label/, keptBy: 'keep-preview' },
  },
  {
    name: 'closed PR whose labels were not read whole: kept, the keep label cannot be ruled out',
    given: { label: '123', pull: closed(30) },
    expect: { decision: 'keep', reason: /labels could not be read whole/ },
  },
  {
    name: 'no keep label configured: labels not needed, the closed PR goes',
    given: { label: '123', pull: closed(30) },
    rules: { keepLabel: undefined },
    expect: { decision: 'go', reason: /PR #123 closed/ },
  },
  {
    name: 'closed PR with other labels: goes',
    given: { label: '123', pull: closed(30, ['bug']) },
    expect: { decision: 'go', reason: /PR #123 closed 30h 00m ago/ },
  },
  {
    name: 'open PR past max-age: goes, expired',
    given: { label: '5', pull: open([]), createdAt: at(9 * 24) },
    rules: { lifeMs: 7 * 24 * HOUR },
    expect: {
      decision: 'go',
      reason: /^PR #5 is open; expired 2 days ago \(max-age 7 days\)$/,
      expired: true,
    },
  },
  {
    name: 'open PR past max-age with the keep label: kept',
    given: { label: '5', pull: open(['keep-preview']), createdAt: at(9 * 24) },
    rules: { lifeMs: 7 * 24 * HOUR },
    expect: { decision: 'keep', reason: /kept by label/, keptBy: 'keep-preview' },
  },
  {
    name: 'open PR past max-age, state unknown: kept (unknown is never go)',
    given: { label: '5', pull: { state: 'unknown', error: 'HTTP 502' }, createdAt: at(9 * 24) },
    rules: { lifeMs: 7 * 24 * HOUR },
    expect: { decision: 'keep', reason: /state unknown \(HTTP 502\)/ },
  },
  {
    name: 'open PR younger than max-age: kept',
    given: { label: '5', pull: open([]), createdAt: at(24) },
    rules: { lifeMs: 7 * 24 * HOUR },
    expect: { decision: 'keep', reason: /PR #5 is open/ },
  },
  {
    name: 'ttl annotation reached: goes, with the ttl in the reason',
    given: { label: '5', pull: open([]), createdAt: at(96), annotations: { [TTL_ANNOTATION]: '48h' } },
    expect: { decision: 'go', reason: /expired 2 days ago \(ttl 48h\)$/, expired: true },
  },
  {
    name: 'ttl shorter than max-age: the earlier expiry wins',
    given: { label: '5', pull: open([]), createdAt: at(30), annotations: { [TTL_ANNOTATION]: '1d' } },
    rules: { lifeMs: 7 * 24 * HOUR },
    expect: { decision: 'go', reason: /expired 6h 00m ago \(ttl 1d\)$/, expired: true },
  },
  {
    name: 'expires annotation in the past: goes',
    given: { label: '5', pull: open([]), createdAt: at(30), annotations: { [EXPIRES_ANNOTATION]: at(3) } },
    expect: { decision: 'go', reason: /expired 3h 00m ago \(expires /, expired: true },
  },
  {
    name: 'expires annotation in the future: kept',
    given: { label: '5', pull: open([]), createdAt: at(30), annotations: { [EXPIRES_ANNOTATION]: at(-3) } },
    expect: { decision: 'keep', reason: /PR #5 is open/ },
  },
  {
    name: 'unparseable ttl: kept and flagged, even with a closed PR',
    given: {
      label: '5',
      pull: closed(30, []),
      createdAt: at(300),
      annotations: { [TTL_ANNOTATION]: 'forever' },
    },
    expect: { decision: 'keep', reason: /ttl is "forever", not a duration/, invalidAnnotation: true },
  },
  {
    name: 'expires that is no RFC 3339 time: kept and flagged',
    given: {
      label: '5',
      pull: open([]),
      createdAt: at(300),
      annotations: { [EXPIRES_ANNOTATION]: 'next week' },
    },
    expect: { decision: 'keep', reason: /expires is "next week", not a time/, invalidAnnotation: true },
  },
  {
    name: 'unlabelled namespace past its ttl: goes (no PR to keep it)',
    given: { label: undefined, createdAt: at(50), annotations: { [TTL_ANNOTATION]: '48h' } },
    expect: {
      decision: 'go',
      reason: /no preview.example.com\/pr label; expired 2h 00m ago \(ttl 48h\)/,
      expired: true,
    },
  },
  {
    name: 'unlabelled namespace past max-age: goes',
    given: { label: undefined, createdAt: at(200) },
    rules: { lifeMs: 7 * 24 * HOUR },
    expect: { decision: 'go', reason: /expired 32h 00m ago \(max-age 7 days\)/, expired: true },
  },
  {
    name: 'missing PR (404), young namespace, past max-age: goes',
    given: { label: '9', pull: { state: 'missing' }, createdAt: at(0.5) },
    rules: { lifeMs: 0.25 * HOUR },
    expect: { decision: 'go', reason: /PR #9 does not exist; expired 15m 00s ago/, expired: true },
  },
];

describe('the sweep decides with the keep label and expiry', () => {
  test.each(ROWS)('$name', ({ given, rules, expect: want }) => {
    const input: DecideInput = { label: undefined, createdAt: at(5), pull: undefined, ...given };
    const got = decide(input, { ...RULES, ...rules }, NOW);
    expect(got.decision).toBe(want.decision);
    expect(got.reason).toMatch(want.reason);
    expect(got.keptBy).toBe(want.keptBy);
    expect(got.expired).toBe(want.expired);
    expect(got.invalidAnnotation).toBe(want.invalidAnnotation);
  });
});
