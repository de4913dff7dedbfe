/** Whether a mutating webhook reaches an UPDATE: its rules, scope, subresource, match policy and selectors. */
import { reachesUpdate, type MutatingWebhookState, type WriteSubject } from '../../src/diagnosis/index.js';

const hook = (over: Partial<MutatingWebhookState> = {}): MutatingWebhookState => ({
  configuration: 'cfg',
  name: 'w.example.com',
  index: 0,
  failurePolicy: 'Fail',
  matchPolicy: 'Equivalent',
  rules: [
    {
      operations: ['UPDATE'],
      apiGroups: ['kiali.io'],
      apiVersions: ['v1'],
      resources: ['kialis'],
      scope: '*',
    },
  ],
  served: 'url https://w',
  ...over,
});

const KIALI: WriteSubject = {
  group: 'kiali.io',
  version: 'v1alpha1',
  resource: 'kialis',
  subresource: '',
  namespaced: true,
  labels: { app: 'kiali' },
  namespaceLabels: { team: 'payments' },
};
const FINALIZE: WriteSubject = {
  group: '',
  version: 'v1',
  resource: 'namespaces',
  subresource: 'finalize',
  namespaced: false,
  labels: { team: 'payments' },
};
const rule = (r: Partial<MutatingWebhookState['rules'][number]>): Partial<MutatingWebhookState> => ({
  rules: [
    { operations: ['UPDATE'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], scope: '*', ...r },
  ],
});

const table: {
  name: string;
  given: Partial<MutatingWebhookState>;
  subject?: WriteSubject;
  expect: string;
}[] = [
  { name: 'group and resource, another version under Equivalent', given: {}, expect: 'yes' },
  { name: 'another version under Exact', given: { matchPolicy: 'Exact' }, expect: 'no' },
  { name: 'CREATE only', given: rule({ operations: ['CREATE'] }), expect: 'no' },
  { name: 'every operation', given: rule({ operations: ['*'] }), expect: 'yes' },
  { name: 'another group', given: rule({ apiGroups: ['apps'] }), expect: 'no' },
  { name: 'Cluster scope for a namespaced object', given: rule({ scope: 'Cluster' }), expect: 'no' },
  {
    name: 'a subresource rule does not reach the object',
    given: rule({ resources: ['kialis/status'] }),
    expect: 'no',
  },
  { name: '*/* reaches /finalize', given: rule({ resources: ['*/*'] }), subject: FINALIZE, expect: 'yes' },
  {
    name: 'namespaces alone does not reach /finalize',
    given: rule({ resources: ['namespaces'] }),
    subject: FINALIZE,
    expect: 'no',
  },
  {
    name: 'namespaces/finalize reaches it',
    given: rule({ resources: ['namespaces/finalize'] }),
    subject: FINALIZE,
    expect: 'yes',
  },
  {
    name: 'namespace selector matching',
    given: { namespaceSelector: { matchLabels: { team: 'payments' } } },
    expect: 'yes',
  },
  {
    name: 'namespace selector not matching',
    given: { namespaceSelector: { matchLabels: { team: 'search' } } },
    expect: 'no',
  },
  {
    name: 'a Namespace is matched by its own labels',
    given: {
      ...rule({ resources: ['namespaces/finalize'] }),
      namespaceSelector: { matchLabels: { team: 'search' } },
    },
    subject: FINALIZE,
    expect: 'no',
  },
  {
    name: 'object selector NotIn',
    given: { objectSelector: { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['kiali'] }] } },
    expect: 'no',
  },
  {
    name: 'object selector with labels unknown',
    given: { objectSelector: { matchLabels: { app: 'kiali' } } },
    subject: { ...KIALI, labels: undefined },
    expect: 'unknown',
  },
  {
    name: 'an operator it does not know',
    given: { objectSelector: { matchExpressions: [{ key: 'app', operator: 'Gt', values: ['1'] }] } },
    expect: 'unknown',
  },
  {
    name: 'an empty selector with labels unknown',
    given: { objectSelector: {} },
    subject: { ...KIALI, labels: undefined },
    expect: 'yes',
  },
];

test.each(table)('$name: $expect', ({ given, subject, expect: want }) => {
  expect(reachesUpdate(hook(given), subject ?? KIALI)).toBe(want);
});

test('renaming every name that is not an API name changes nothing', () => {
  const renamed = hook({
    configuration: 'x',
    name: 'y.z.example',
    served: 'url https://q',
    namespaceSelector: { matchLabels: { t: 'p' } },
  });
  const subject = { ...KIALI, namespaceLabels: { t: 'p' } };
  expect(reachesUpdate(renamed, subject)).toBe('yes');
  expect(reachesUpdate(renamed, { ...subject, namespaceLabels: { t: 'other' } })).toBe('no');
});
