import { validateForcePolicy } from '../../src/settings/force-policy.js';
import { ConfigError } from '../../src/shared/errors.js';

const MIN = 60_000;
const base = {
  force: 'on',
  forceAfter: 10 * MIN,
  forceFinalizers: ['kiali.io/*'],
  finalizeNamespace: false,
  forceDeletePods: '',
  timeoutMs: 15 * MIN,
};
type Raw = typeof base;

interface Row {
  name: string;
  given: Partial<Raw>;
  expect:
    | { policy: ReturnType<typeof validateForcePolicy>['policy']; warnings?: string[] }
    | { error: string; input: string };
}

const rows: Row[] = [
  {
    name: 'a valid policy',
    given: {},
    expect: {
      policy: {
        mode: 'on',
        afterMs: 10 * MIN,
        finalizerPatterns: ['kiali.io/*'],
        finalizeNamespace: false,
        deletePods: 'off',
      },
    },
  },
  {
    name: 'empty force means off; force-after may then exceed timeout',
    given: { force: '', forceAfter: 30 * MIN, forceFinalizers: [] },
    expect: {
      policy: {
        mode: 'off',
        afterMs: 30 * MIN,
        finalizerPatterns: [],
        finalizeNamespace: false,
        deletePods: 'off',
      },
    },
  },
  {
    name: 'patterns are trimmed, blank ones dropped, duplicates removed in order',
    given: { force: 'dry-run', forceFinalizers: [' kiali.io/* ', '', 'x.io/f', 'kiali.io/*'] },
    expect: {
      policy: {
        mode: 'dry-run',
        afterMs: 10 * MIN,
        finalizerPatterns: ['kiali.io/*', 'x.io/f'],
        finalizeNamespace: false,
        deletePods: 'off',
      },
    },
  },
  {
    name: 'unknown force value',
    given: { force: 'yes-please' },
    expect: { error: 'Input "force" is "yes-please"; allowed: off, dry-run, on.', input: 'force' },
  },
  {
    name: 'force: true gets a hint',
    given: { force: 'true' },
    expect: {
      error:
        'Input "force" is "true"; allowed: off, dry-run, on (use "on" to force, "dry-run" to only show what would be forced).',
      input: 'force',
    },
  },
  {
    name: 'invalid glob',
    given: { forceFinalizers: ['kiali.io/[abc]'] },
    expect: {
      error:
        'Input "force-finalizers": "kiali.io/[abc]" is not a valid finalizer name or glob: only letters, digits, ".", "-", "_", "/", "*" and "?" are allowed.',
      input: 'force-finalizers',
    },
  },
  {
    name: 'force-after longer than timeout names both values',
    given: { forceAfter: 20 * MIN, timeoutMs: 15 * MIN },
    expect: {
      error:
        'Input "force-after" is 20m 00s, longer than "timeout" (15m 00s), so forcing could never start; allowed: "force-after" at most "timeout".',
      input: 'force-after',
    },
  },
  {
    name: 'negative force-after',
    given: { forceAfter: -1 },
    expect: {
      error: 'Input "force-after" is -1 ms; allowed: a duration of 0 or more, e.g. 10m.',
      input: 'force-after',
    },
  },
  {
    name: 'on with nothing allowed: a warning, not an error',
    given: { forceFinalizers: [] },
    expect: {
      policy: {
        mode: 'on',
        afterMs: 10 * MIN,
        finalizerPatterns: [],
        finalizeNamespace: false,
        deletePods: 'off',
      },
      warnings: [
        '"force" is on but "force-finalizers" is empty, "force-finalize-namespace" is false and "force-delete-pods" is off: nothing can be forced.',
      ],
    },
  },
  {
    name: 'force inputs set while off: a warning',
    given: { force: 'off', finalizeNamespace: true, forceFinalizers: [] },
    expect: {
      policy: {
        mode: 'off',
        afterMs: 10 * MIN,
        finalizerPatterns: [],
        finalizeNamespace: true,
        deletePods: 'off',
      },
      warnings: ['Force inputs are set but "force" is off: nothing will be forced.'],
    },
  },
  {
    name: 'force-delete-pods: lost-nodes alone is something to force',
    given: { forceFinalizers: [], forceDeletePods: ' lost-nodes ' },
    expect: {
      policy: {
        mode: 'on',
        afterMs: 10 * MIN,
        finalizerPatterns: [],
        finalizeNamespace: false,
        deletePods: 'lost-nodes',
      },
    },
  },
  {
    name: 'force-delete-pods set while force is off: a warning',
    given: { force: 'off', forceFinalizers: [], forceDeletePods: 'lost-nodes' },
    expect: {
      policy: {
        mode: 'off',
        afterMs: 10 * MIN,
        finalizerPatterns: [],
        finalizeNamespace: false,
        deletePods: 'lost-nodes',
      },
      warnings: ['Force inputs are set but "force" is off: nothing will be forced.'],
    },
  },
  {
    name: 'unknown force-delete-pods value',
    given: { forceDeletePods: 'all' },
    expect: {
      error: 'Input "force-delete-pods" is "all"; allowed: off, lost-nodes.',
      input: 'force-delete-pods',
    },
  },
  {
    name: '"*" is allowed with a warning',
    given: { forceFinalizers: ['*'] },
    expect: {
      policy: {
        mode: 'on',
        afterMs: 10 * MIN,
        finalizerPatterns: ['*'],
        finalizeNamespace: false,
        deletePods: 'off',
      },
      warnings: [
        '"force-finalizers" holds "*": any finalizer may be removed, except built-in ones that still wait or guard infrastructure, which must be named exactly.',
      ],
    },
  },
];

describe('validateForcePolicy', () => {
  test.each(rows)('$name', ({ given, expect: want }) => {
    const raw = { ...base, ...given };
    if ('error' in want) {
      let error: unknown;
      try {
        validateForcePolicy(raw);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect(error).toMatchObject({ message: want.error, input: want.input });
      return;
    }
    const { policy, warnings } = validateForcePolicy(raw);
    expect(policy).toEqual(want.policy);
    expect(Object.isFrozen(policy)).toBe(true);
    expect(warnings).toEqual(want.warnings ?? []);
  });
});
