import { selectorMatches } from '../../src/targets/selector.js';

describe('selectorMatches checks a list answer against the selector', () => {
  const labels = { env: 'preview', 'preview.example.com/pr': '123', keep: '' };
  test.each([
    { name: 'equality', selector: 'env=preview', expect: true },
    { name: 'double equals', selector: 'env==preview', expect: true },
    { name: 'equality, other value', selector: 'env=prod', expect: false },
    { name: 'prefixed key', selector: 'preview.example.com/pr=123', expect: true },
    { name: 'inequality', selector: 'env!=prod', expect: true },
    { name: 'inequality matches a missing key', selector: 'team!=a', expect: true },
    { name: 'in', selector: 'env in (pr, preview)', expect: true },
    { name: 'in, no value matches', selector: 'env in (pr,prod)', expect: false },
    { name: 'in, key missing', selector: 'team in (a)', expect: false },
    { name: 'notin', selector: 'env notin (prod)', expect: true },
    { name: 'notin, key missing', selector: 'team notin (a)', expect: true },
    { name: 'exists', selector: 'keep', expect: true },
    { name: 'does not exist', selector: '!keep', expect: false },
    { name: 'every requirement must hold', selector: 'env=preview,!team,keep', expect: true },
    { name: 'one failing requirement', selector: 'env=preview,team', expect: false },
  ])('$name: $selector → $expect', ({ selector, expect: want }) => {
    expect(selectorMatches(selector, labels)).toBe(want);
  });

  test('a namespace without labels matches no equality requirement', () => {
    expect(selectorMatches('preview=true', {})).toBe(false);
  });
});
