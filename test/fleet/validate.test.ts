import { checkReport } from '../../src/fleet/validate.js';
import type { Loose } from '../fake-apiserver/index.js';
import { clusterReport } from '../helpers/fleet.js';

const good = clusterReport('eu', { stuck: ['preview-pr-1'], gone: ['preview-pr-2'] });
const text = (value: unknown): string => JSON.stringify(value, null, 2);
/** The good report with `edit` applied to a loosely typed copy, so a test can break any part of it. */
const edited = (edit: (r: Record<string, Loose>) => void): string => {
  const copy = JSON.parse(text(good)) as Record<string, Loose>;
  edit(copy);
  return text(copy);
};

describe('a report file is checked before it is merged', () => {
  test('a complete report of this version is taken as it is', () => {
    expect(checkReport(text(good))).toEqual({ report: good });
  });

  test('a report with fields this merge does not know (a later 1.x) still merges', () => {
    const checked = checkReport(edited((r) => (r.somethingNew = { a: 1 })));
    expect('report' in checked).toBe(true);
  });

  test.each([
    {
      name: 'a truncated file (an upload cut short)',
      given: text(good).slice(0, 300),
      problem: /^not JSON \(.+\): a truncated or corrupt file$/,
      cluster: undefined,
    },
    {
      name: 'JSON that is not an object',
      given: '[1, 2]',
      problem: /^not a namespace-teardown report: the JSON is not an object$/,
      cluster: undefined,
    },
    {
      name: 'a merged report among the clusters',
      given: '{"version": 1, "kind": "fleet", "clusters": []}',
      problem: /^a merged report, not one cluster's/,
      cluster: undefined,
    },
    {
      name: 'another JSON file (no version)',
      given: '{"name": "package"}',
      problem: /^not a namespace-teardown report: it has no "version"$/,
      cluster: undefined,
    },
    {
      name: 'a report of another version, its cluster still named',
      given: edited((r) => (r.version = 2)),
      problem: /^report version 2; this merge reads version 1: run the same namespace-teardown release/,
      cluster: 'eu',
    },
    {
      name: 'a report without targets',
      given: edited((r) => delete r.targets),
      problem: /^not a complete report: no "targets" list$/,
      cluster: 'eu',
    },
    {
      name: 'a target with an outcome no release writes',
      given: edited((r) => (r.targets[0].outcome = 'vanished')),
      problem: /^not a complete report: target 1 "preview-pr-1" has outcome "vanished", not one of gone, /,
      cluster: 'eu',
    },
    {
      name: 'a finding without its remedy',
      given: edited((r) => delete r.targets[0].findings[0].remedy),
      problem: /^not a complete report: target 1 "preview-pr-1" finding 1 has no "remedy.commands" list$/,
      cluster: 'eu',
    },
    {
      name: 'a result no release writes',
      given: edited((r) => (r.result = 'fine')),
      problem:
        /^not a complete report: "result" is "fine", not one of skipped, planned, clean, forced, stuck, error$/,
      cluster: 'eu',
    },
    {
      name: 'a result that is a command: not quoted back',
      given: edited((r) => (r.result = '$(touch x)')),
      problem: /^not a complete report: "result" is other text, not one of skipped/,
      cluster: 'eu',
    },
    {
      name: 'a cluster name a shell would run: refused, and never given as its cluster',
      given: edited((r) => (r.context.cluster.name = "eu'$(touch x)'")),
      problem:
        /^not a usable report: "context\.cluster\.name" cannot be used: it holds "'" at character 3; allowed: letters, digits and \. _ : \/ @ \+ -, starting with a letter or digit$/,
      cluster: undefined,
    },
    {
      name: 'a cluster name with a space',
      given: edited((r) => (r.context.cluster.name = 'eu dev')),
      problem: /^not a usable report: "context\.cluster\.name" cannot be used: it holds " " at character 3/,
      cluster: undefined,
    },
    {
      name: 'a context with a backtick, its cluster still named',
      given: edited((r) => (r.context.cluster.context = 'kind-`id`')),
      problem:
        /^not a usable report: "context\.cluster\.context" cannot be used: it holds "`" at character 6/,
      cluster: 'eu',
    },
    {
      name: 'a server that is not a host and port',
      given: edited((r) => (r.context.cluster.server = 'eu.example.com;id')),
      problem: /^not a usable report: "context\.cluster\.server" cannot be used: it is not a host and port$/,
      cluster: 'eu',
    },
    {
      name: 'a target whose name is not a namespace name',
      given: edited((r) => (r.targets[1].name = 'preview-2;id')),
      problem:
        /^not a usable report: target 2's "name" is not a namespace name: a namespace name is a DNS-1123 label/,
      cluster: 'eu',
    },
    {
      name: 'a finishedAt that is not a time',
      given: edited((r) => (r.finishedAt = 'yesterday $(id)')),
      problem: /^not a usable report: "finishedAt" is not a time as the action writes it$/,
      cluster: 'eu',
    },
  ])('$name is named, with its problem', ({ given, problem, cluster }) => {
    const checked = checkReport(given);
    expect(checked).toEqual({ problem: expect.stringMatching(problem), ...(cluster ? { cluster } : {}) });
  });

  test.each([
    { name: 'kind-eu', context: 'kind-eu', server: '127.0.0.1:6443' },
    {
      name: 'prod',
      context: 'arn:aws:eks:eu-west-1:123456789012:cluster/prod',
      server: 'ABCD.gr7.eu-west-1.eks.amazonaws.com',
    },
    {
      name: 'gke_shop_europe-west1_dev',
      context: 'default/api-dev-example-com:6443/kube:admin',
      server: '[fd00::1]:443',
    },
    { name: 'admin@dev+1', context: 'admin@dev', server: 'dev.example.com:6443' },
  ])('the names clusters are given in the wild are taken: $context', ({ name, context, server }) => {
    const checked = checkReport(edited((r) => (r.context.cluster = { name, context, server })));
    expect(checked).toMatchObject({ report: { context: { cluster: { name, context, server } } } });
  });
});
