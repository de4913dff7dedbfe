import { contextsOf } from '../../src/entry/cli-fleet.js';

describe('--context a,b,c', () => {
  test.each([
    { given: 'kind-eu,kind-us', want: ['kind-eu', 'kind-us'] },
    { given: ' kind-eu , kind-us ', want: ['kind-eu', 'kind-us'] },
    { given: 'kind-eu', want: ['kind-eu'] },
  ])('"$given" names $want', ({ given, want }) => {
    expect(contextsOf(given)).toEqual(want);
  });

  test.each([
    { given: 'kind-eu,', why: /^--context is "kind-eu,": an empty context name; list contexts as a,b,c\.$/ },
    { given: ',kind-eu', why: /^--context is ",kind-eu": an empty context name/ },
    { given: 'kind-eu,,kind-us', why: /^--context is "kind-eu,,kind-us": an empty context name/ },
    { given: 'kind-eu,kind-eu', why: /^--context names "kind-eu" twice\.$/ },
  ])('"$given" is refused, naming the flag', ({ given, why }) => {
    expect(() => contextsOf(given)).toThrow(why);
  });
});
