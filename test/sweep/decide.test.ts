import type { PullState } from '../../src/model/pulls.js';
import { decide, prNumberOf, type DecideInput, type DecideRules } from '../../src/sweep/decide.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const HOUR = 3_600_000;
const at = (hoursAgo: number): string => new Date(NOW - hoursAgo * HOUR).toISOString();
const RULES: DecideRules = { closedForMs: HOUR, maxAgeMs: undefined, prLabel: 'preview.example.com/pr' };

const open: PullState = { state: 'open' };
const closed = (hoursAgo: number): PullState => ({ state: 'closed', closedAt: at(hoursAgo) });
const merged = (hoursAgo: number): PullState => ({ state: 'merged', closedAt: at(hoursAgo) });

const ROWS: {
  name: string;
  given: Partial<DecideInput>;
  rules?: Partial<DecideRules>;
  expect: { decision: 'go' | 'keep'; reason: RegExp; invalidLabel?: boolean };
}[] = [
  {
    name: 'open PR: kept, however old the namespace',
    given: { label: '12', pull: open, createdAt: at(24 * 365) },
    expect: { decision: 'keep', reason: /PR #12 is open/ },
  },
  {
    name: 'open PR with a max age for unlabelled namespaces: still kept',
    given: { label: '12', pull: open, createdAt: at(1000) },
    rules: { maxAgeMs: HOUR },
    expect: { decision: 'keep', reason: /open/ },
  },
  {
    name: 'closed longer than sweep-closed-for: goes',
    given: { label: '12', pull: closed(3) },
    expect: { decision: 'go', reason: /PR #12 closed 3h 00m ago/ },
  },
  {
    name: 'merged longer than sweep-closed-for: goes',
    given: { label: '12', pull: merged(2) },
    expect: { decision: 'go', reason: /PR #12 merged 2h 00m ago/ },
  },
  {
    name: 'closed exactly sweep-closed-for ago: goes',
    given: { label: '12', pull: closed(1) },
    expect: { decision: 'go', reason: /closed 1h 00m ago/ },
  },
  {
    name: 'closed recently: kept until the grace period has passed',
    given: { label: '12', pull: closed(0.25) },
    expect: { decision: 'keep', reason: /closed 15m 00s ago; goes after 1h 00m/ },
  },
  {
    name: 'PR does not exist and the namespace is older than the grace: goes',
    given: { label: '99', pull: { state: 'missing' }, createdAt: at(5) },
    expect: { decision: 'go', reason: /PR #99 does not exist; namespace created 5h 00m ago/ },
  },
  {
    name: 'PR does not exist but the namespace is new: kept',
    given: { label: '99', pull: { state: 'missing' }, createdAt: at(0.5) },
    expect: { decision: 'keep', reason: /younger than 1h/ },
  },
  {
    name: 'PR does not exist and the namespace age is unknown: kept',
    given: { label: '99', pull: { state: 'missing' } },
    expect: { decision: 'keep', reason: /does not exist/ },
  },
  {
    name: 'GitHub error: unknown, kept',
    given: { label: '12', pull: { state: 'unknown', error: 'GitHub answered 502' }, createdAt: at(100) },
    expect: { decision: 'keep', reason: /state unknown \(GitHub answered 502\)/ },
  },
  {
    name: 'not asked (no answer recorded): kept',
    given: { label: '12', createdAt: at(100) },
    expect: { decision: 'keep', reason: /not asked/ },
  },
  {
    name: 'label value not a PR number: reported, kept, never guessed',
    given: { label: 'pr-12', createdAt: at(100) },
    rules: { maxAgeMs: HOUR },
    expect: { decision: 'keep', reason: /"pr-12" is not a pull request number/, invalidLabel: true },
  },
  {
    name: 'label value with a leading zero is not a PR number',
    given: { label: '012' },
    expect: { decision: 'keep', reason: /not a pull request number/, invalidLabel: true },
  },
  {
    name: 'no label, no max age: kept',
    given: { createdAt: at(1000) },
    expect: { decision: 'keep', reason: /no preview.example.com\/pr label/ },
  },
  {
    name: 'no label, older than sweep-max-age: goes',
    given: { createdAt: at(80) },
    rules: { maxAgeMs: 72 * HOUR },
    expect: { decision: 'go', reason: /over sweep-max-age/ },
  },
  {
    name: 'no label, younger than sweep-max-age: kept',
    given: { createdAt: at(10) },
    rules: { maxAgeMs: 72 * HOUR },
    expect: { decision: 'keep', reason: /no .* label/ },
  },
  {
    name: 'closed at an unreadable time: kept',
    given: { label: '12', pull: { state: 'closed', closedAt: 'yesterday' } },
    expect: { decision: 'keep', reason: /unreadable/ },
  },
];

describe('sweep decision', () => {
  test.each(ROWS)('$name', ({ given, rules, expect: want }) => {
    const input: DecideInput = { label: undefined, createdAt: undefined, pull: undefined, ...given };
    const got = decide(input, { ...RULES, ...rules }, NOW);
    expect(got.decision).toBe(want.decision);
    expect(got.reason).toMatch(want.reason);
    expect(got.invalidLabel).toBe(want.invalidLabel);
  });

  test.each([
    ['1', 1],
    ['4711', 4711],
    [undefined, undefined],
    ['', 'invalid'],
    ['0', 'invalid'],
    ['12a', 'invalid'],
    ['-3', 'invalid'],
    ['99999999999', 'invalid'],
  ])('PR number of label value %p is %p', (value, want) => {
    expect(prNumberOf(value)).toBe(want);
  });
});
