import type { ApiResource } from '../../src/model/cluster.js';
import { crdTypes, customRules } from '../../src/permissions/custom-types.js';
import { roleOf } from '../../src/permissions/roles.js';

const served = (group: string, resource: string, namespaced = true): ApiResource => ({
  group,
  version: 'v1',
  resource,
  kind: 'K',
  namespaced,
  verbs: ['delete', 'get', 'list', 'patch', 'watch'],
});

describe('the custom types of a cluster', () => {
  test.each([
    {
      name: 'a namespaced type its CRD defines is one; its subresource, a second version, are not again',
      given: [
        served('acme.io', 'widgets'),
        served('acme.io', 'widgets/status'),
        served('acme.io', 'widgets'),
      ],
      crds: ['widgets.acme.io'],
      expect: [{ group: 'acme.io', resource: 'widgets' }],
    },
    {
      name: 'a cluster-scoped CRD type is not: nothing of it is in a namespace',
      given: [served('acme.io', 'clusterwidgets', false)],
      crds: ['clusterwidgets.acme.io'],
      expect: [],
    },
    {
      name: 'a type no CRD defines is not: built-in, or served by an aggregated API',
      given: [served('apps', 'deployments'), served('metrics.k8s.io', 'pods'), served('', 'secrets')],
      crds: ['widgets.acme.io'],
      expect: [],
    },
    {
      name: 'a name the API server would not accept for a CRD is never printed',
      given: [served('acme.io', 'Widgets'), served('acme.io\n  - secrets', 'x'), served('nodots', 'widgets')],
      crds: ['Widgets.acme.io', 'x.acme.io\n  - secrets', 'widgets.nodots'],
      expect: [],
    },
    {
      name: 'sorted by group, then resource, whatever discovery’s order',
      given: [served('b.io', 'zs'), served('a.io', 'ys'), served('a.io', 'xs')],
      crds: ['zs.b.io', 'ys.a.io', 'xs.a.io'],
      expect: [
        { group: 'a.io', resource: 'xs' },
        { group: 'a.io', resource: 'ys' },
        { group: 'b.io', resource: 'zs' },
      ],
    },
  ])('$name', ({ given, crds, expect: types }) => {
    expect(crdTypes(given, new Set(crds))).toEqual(types);
  });
});

describe('the rules each role gets for them', () => {
  const types = [
    { group: 'acme.io', resource: 'gadgets' },
    { group: 'acme.io', resource: 'widgets' },
    { group: 'kustomize.toolkit.fluxcd.io', resource: 'kustomizations' },
  ];

  test('one rule per API group with the role’s verbs, naming the CRDs', () => {
    expect(customRules(roleOf('custom-resources'), types)).toEqual([
      {
        apiGroups: ['acme.io'],
        resources: ['gadgets', 'widgets'],
        verbs: ['delete', 'list', 'watch'],
        why: 'CRDs gadgets.acme.io, widgets.acme.io.',
      },
      {
        apiGroups: ['kustomize.toolkit.fluxcd.io'],
        resources: ['kustomizations'],
        verbs: ['delete', 'list', 'watch'],
        why: 'CRDs kustomizations.kustomize.toolkit.fluxcd.io.',
      },
    ]);
    expect(customRules(roleOf('force'), types).map((r) => r.verbs)).toEqual([
      ['get', 'patch'],
      ['get', 'patch'],
    ]);
  });

  test('a type the role’s own rules already grant is left out (the diagnose role lists GitOps owners)', () => {
    expect(customRules(roleOf('diagnose'), types).map((r) => r.apiGroups)).toEqual([['acme.io']]);
  });

  test('none for a role that needs no custom types', () => {
    expect(customRules(roleOf('delete'), types)).toEqual([]);
    expect(customRules(roleOf('gitops-owners'), types)).toEqual([]);
  });
});
