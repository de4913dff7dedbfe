import { readSettings, type Settings } from '../../src/settings/settings.js';
import { ConfigError } from '../../src/shared/errors.js';
import { UNFENCED } from '../helpers/inputs.js';

const reader =
  (inputs: Record<string, string>) =>
  (name: string): string =>
    ({ ...UNFENCED, ...inputs })[name] ?? '';

describe('readSettings', () => {
  test('force on with nothing allowed is a warning, not an error', () => {
    const s = readSettings(reader({ namespaces: 'a', force: 'on' }));
    expect(s.force).toEqual({
      mode: 'on',
      afterMs: 60_000,
      finalizerPatterns: [],
      finalizeNamespace: false,
      deletePods: 'off',
    });
    expect(s.warnings.join('\n')).toMatch(/nothing can be forced/);
  });

  test('force-after defaults to 1m, or half a shorter timeout', () => {
    expect(
      readSettings(reader({ namespaces: 'a', force: 'on', 'force-finalizers': 'x/*' })).force.afterMs,
    ).toBe(60_000);
    expect(
      readSettings(reader({ namespaces: 'a', force: 'on', 'force-finalizers': 'x/*', timeout: '30s' })).force
        .afterMs,
    ).toBe(15_000);
  });

  test('force policy inputs are parsed', () => {
    const s = readSettings(
      reader({
        namespaces: 'a',
        force: 'dry-run',
        'force-after': '30s',
        'force-finalizers': 'kiali.io/*\n\nfinalizers.kubesphere.io/namespaces',
        'force-finalize-namespace': 'true',
        'force-delete-pods': 'lost-nodes',
      }),
    );
    expect(s.force).toEqual({
      mode: 'dry-run',
      afterMs: 30_000,
      finalizerPatterns: ['kiali.io/*', 'finalizers.kubesphere.io/namespaces'],
      finalizeNamespace: true,
      deletePods: 'lost-nodes',
    });
  });

  const ok: { name: string; given: Record<string, string>; expect: Partial<Settings> }[] = [
    {
      name: 'names split on newlines, commas and spaces, deduplicated',
      given: { namespaces: 'pr-1\npr-2, pr-3 pr-1' },
      expect: { namespaces: ['pr-1', 'pr-2', 'pr-3'], delete: true, timeoutMs: 300_000, failOn: 'leaked' },
    },
    {
      name: 'selector alone',
      given: { selector: 'preview.example.com/pr=123' },
      expect: { namespaces: [], selector: 'preview.example.com/pr=123' },
    },
    {
      name: 'set-based selector',
      given: { selector: 'env in (preview, pr),!keep' },
      expect: { selector: 'env in (preview, pr),!keep' },
    },
    {
      name: 'delete false, timeout 90s',
      given: { namespaces: 'a', delete: 'false', timeout: '90s' },
      expect: { delete: false, timeoutMs: 90_000 },
    },
    {
      name: 'compound duration',
      given: { namespaces: 'a', timeout: '1h30m' },
      expect: { timeoutMs: 5_400_000 },
    },
    { name: 'fail-on stuck', given: { namespaces: 'a', 'fail-on': 'stuck' }, expect: { failOn: 'stuck' } },
    { name: 'wait settled by default', given: { namespaces: 'a' }, expect: { wait: 'settled' } },
    { name: 'wait timeout', given: { namespaces: 'a', wait: 'timeout' }, expect: { wait: 'timeout' } },
    {
      name: 'custom resources first by default, with half the timeout for them',
      given: { namespaces: 'a', timeout: '5m' },
      expect: { teardownOrder: 'custom-resources-first', customResourcesTimeoutMs: 150_000 },
    },
    {
      name: 'teardown-order namespace; custom-resources-timeout given',
      given: { namespaces: 'a', 'teardown-order': 'namespace', 'custom-resources-timeout': '90s' },
      expect: { teardownOrder: 'namespace', customResourcesTimeoutMs: 90_000 },
    },
    {
      name: 'scope defaults to targets',
      given: { namespaces: 'a' },
      expect: { scope: 'targets', delete: true },
    },
    {
      name: 'scope all-terminating alone needs no names and deletes nothing',
      given: { scope: 'all-terminating' },
      expect: { scope: 'all-terminating', namespaces: [], selector: undefined, delete: false },
    },
    {
      name: 'scope all-terminating with a selector: the selector only narrows',
      given: { scope: 'all-terminating', selector: 'team=a', delete: 'true' },
      expect: { scope: 'all-terminating', selector: 'team=a', delete: false },
    },
  ];
  test.each(ok)('$name', ({ given, expect: expected }) => {
    expect(readSettings(reader(given))).toMatchObject(expected);
  });

  const bad: { name: string; given: Record<string, string>; message: RegExp }[] = [
    { name: 'no targets', given: {}, message: /No targets: set "namespaces".*or "selector"/ },
    {
      name: 'scope all-terminating with namespaces',
      given: { scope: 'all-terminating', namespaces: 'pr-1' },
      message: /^Input "namespaces" and "scope: all-terminating" cannot be used together/,
    },
    {
      name: 'scope all-terminating with the sweep',
      given: {
        scope: 'all-terminating',
        sweep: 'plan',
        'sweep-pr-label': 'pr',
        'sweep-repository': 'acme/shop',
        'github-token': 't',
      },
      message: /^Input "sweep" and "scope: all-terminating" cannot be used together/,
    },
    {
      name: 'unknown scope',
      given: { scope: 'everything', namespaces: 'a' },
      message: /^Input "scope" is "everything"; allowed: targets, all-terminating\./,
    },
    {
      name: 'upper-case name',
      given: { namespaces: 'PR-1' },
      message: /"namespaces": "PR-1" is not a valid namespace name: it contains upper-case/,
    },
    {
      name: 'underscore name',
      given: { namespaces: 'pr_1' },
      message: /"pr_1" is not a valid namespace name: a namespace name is a DNS-1123 label/,
    },
    {
      name: 'too long name',
      given: { namespaces: 'a'.repeat(64) },
      message: /64 characters long; at most 63/,
    },
    {
      name: 'protected name',
      given: { namespaces: 'pr-1 kube-system' },
      message: /protected namespace\(s\) "kube-system"/,
    },
    {
      name: 'protected by user glob',
      given: { namespaces: 'prod-eu', 'protected-namespaces': 'prod-*' },
      message: /"prod-eu"/,
    },
    {
      name: 'selector does not parse',
      given: { selector: 'env in (a' },
      message: /Input "selector" is "env in \(a", which does not parse/,
    },
    {
      name: 'a timeout over 24h, which timers cannot hold',
      given: { namespaces: 'pr-1', timeout: '600h' },
      message: /^Input "timeout" is "600h"; at most 24h is allowed\.$/,
    },
    {
      name: 'an empty set, which would match every namespace',
      given: { selector: 'env notin ()' },
      message: /Input "selector" is "env notin \(\)".*empty value set; "notin" needs at least one value/,
    },
    { name: 'selector bad key', given: { selector: 'bad key=1' }, message: /Input "selector"/ },
    {
      name: 'unparsable duration',
      given: { namespaces: 'a', timeout: '5 minutes' },
      message: /Input "timeout" is "5 minutes", which is not a duration; use .* 90s, 5m/,
    },
    {
      name: 'bare number duration',
      given: { namespaces: 'a', timeout: '300' },
      message: /Input "timeout" is "300"/,
    },
    {
      name: 'unknown fail-on',
      given: { namespaces: 'a', 'fail-on': 'always' },
      message: /Input "fail-on" is "always"; allowed: leaked, stuck, never/,
    },
    {
      name: 'bad boolean',
      given: { namespaces: 'a', delete: 'yes' },
      message: /Input "delete" is "yes"; allowed: true or false/,
    },
    {
      name: 'bad protected glob',
      given: { namespaces: 'a', 'protected-namespaces': 'prod[1]' },
      message: /"protected-namespaces": "prod\[1\]" is not a valid name or glob/,
    },
  ];
  bad.push(
    {
      name: 'unknown force value',
      given: { namespaces: 'a', force: 'yes' },
      message: /Input "force" is "yes"; allowed: off, dry-run, on/,
    },
    {
      name: 'invalid force glob',
      given: { namespaces: 'a', force: 'on', 'force-finalizers': 'kiali.io/*\nbad[glob]' },
      message: /"force-finalizers": "bad\[glob\]" is not a valid finalizer name or glob/,
    },
    {
      name: 'force-after longer than timeout',
      given: { namespaces: 'a', force: 'on', 'force-finalizers': 'x/*', timeout: '2m', 'force-after': '5m' },
      message: /"force-after" is 5m 00s, longer than "timeout" \(2m 00s\)/,
    },
    {
      name: 'unknown wait',
      given: { namespaces: 'a', wait: 'forever' },
      message: /Input "wait" is "forever"; allowed: settled, timeout\./,
    },
    {
      name: 'unknown teardown-order',
      given: { namespaces: 'a', 'teardown-order': 'pods-first' },
      message: /Input "teardown-order" is "pods-first"; allowed: custom-resources-first, namespace/,
    },
    {
      name: 'custom-resources-timeout longer than timeout',
      given: { namespaces: 'a', timeout: '2m', 'custom-resources-timeout': '3m' },
      message: /Input "custom-resources-timeout" is "3m"; at most "timeout" \(2m 00s\) is allowed/,
    },
    {
      name: 'custom-resources-timeout not a duration',
      given: { namespaces: 'a', 'custom-resources-timeout': 'soon' },
      message: /Input "custom-resources-timeout" is "soon", which is not a duration/,
    },
    {
      name: 'bad dry-run',
      given: { namespaces: 'a', 'dry-run': 'maybe' },
      message: /^Input "dry-run" is "maybe"; allowed: true or false\.$/,
    },
    {
      name: 'bad force-finalize-namespace',
      given: { namespaces: 'a', 'force-finalize-namespace': 'maybe' },
      message: /Input "force-finalize-namespace" is "maybe"; allowed: true or false/,
    },
  );
  test.each(bad)('refuses $name', ({ given, message }) => {
    let error: unknown;
    try {
      readSettings(reader(given));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
  });
});
