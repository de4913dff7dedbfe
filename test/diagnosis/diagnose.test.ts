import { diagnose, RULE_HELP, RULE_IDS, RULE_TABLE, takeSnapshot } from '../../src/diagnosis/index.js';
import type { Finding } from '../../src/model/findings.js';
import { RecordingReader } from './fake-reader.js';
import {
  CONFIGMAPS,
  KIALIS,
  TAKEN_AT,
  TEXT,
  ago,
  conditions,
  kialiCr,
  leftover,
  meta,
  metricsApiService,
  namespace,
  node,
  pod,
  snapshot,
} from './fixtures.js';

const clock = (): number => Date.parse(TAKEN_AT);
const ids = (fs: Finding[]): string[] => fs.map((f) => f.id);

describe('the rule table', () => {
  it('runs every rule id once, in order, each with help text', () => {
    expect(RULE_TABLE.map((r) => r.id)).toEqual([...RULE_IDS]);
    expect(Object.keys(RULE_HELP).sort()).toEqual([...RULE_IDS].sort());
    for (const id of RULE_IDS) expect(id).toMatch(/^[a-z]+(-[a-z]+)*$/);
  });
});

describe('diagnose', () => {
  it('partial discovery: a dead APIService and a leftover CR in another group give both findings', async () => {
    const kube = new RecordingReader({
      discovery: {
        resources: [CONFIGMAPS, KIALIS],
        failed: [
          {
            groupVersion: 'metrics.k8s.io/v1beta1',
            error: 'stale GroupVersion discovery: metrics.k8s.io/v1beta1',
          },
        ],
        mode: 'aggregated',
      },
      objects: {
        'kiali.io/kialis': [
          meta({
            name: 'kiali',
            uid: 'kiali-uid',
            namespace: 'preview-42',
            finalizers: ['kiali.io/finalizer'],
            deletionTimestamp: ago(600),
          }),
        ],
      },
      lists: {
        '/apis/apiregistration.k8s.io/v1/apiservices': [
          {
            metadata: { name: 'v1beta1.metrics.k8s.io' },
            spec: {
              group: 'metrics.k8s.io',
              version: 'v1beta1',
              service: { namespace: 'monitoring', name: 'prometheus-adapter' },
            },
            status: {
              conditions: [
                {
                  type: 'Available',
                  status: 'False',
                  reason: 'ServiceNotFound',
                  message: TEXT.apiServiceGone,
                },
              ],
            },
          },
        ],
      },
    });
    const ns = namespace({
      conditions: conditions({
        NamespaceDeletionDiscoveryFailure: ['DiscoveryFailed', TEXT.discoveryStale],
        NamespaceContentRemaining: ['SomeResourcesRemain', TEXT.kialiRemaining],
        NamespaceFinalizersRemaining: ['SomeFinalizersRemain', TEXT.kialiFinalizers],
      }),
    });
    const findings = diagnose(await takeSnapshot(kube, ns, { clock }));
    expect(ids(findings)).toEqual([
      'apiservice-unavailable',
      'finalizer-owner-gone',
      'object-finalizers',
      'controller-conditions',
    ]);
    const [api, owner, object] = findings;
    expect(api?.summary).toContain('APIService v1beta1.metrics.k8s.io is unavailable (ServiceNotFound)');
    expect(api?.remedy.commands).toEqual(['kubectl delete apiservice v1beta1.metrics.k8s.io']);
    expect(owner).toMatchObject({ severity: 'error', leaked: true });
    expect(owner?.summary).toContain('kiali.io/finalizer on kialis.kiali.io/kiali');
    expect(object?.targets).toEqual([
      {
        kind: 'object-finalizers',
        resource: { group: 'kiali.io', version: 'v1alpha1', resource: 'kialis', kind: 'Kiali' },
        name: 'kiali',
        uid: 'kiali-uid',
        resourceVersion: '7',
        deleting: true,
        finalizers: ['kiali.io/finalizer'],
        waiting: [],
      },
    ]);
  });

  it('kubesphere (field reports 001/004): leaked namespace metadata finalizer plus a discovery failure', () => {
    const findings = diagnose(
      snapshot({
        namespace: namespace({
          name: 'kubesphere-system',
          metadataFinalizers: ['finalizers.kubesphere.io/namespaces'],
          conditions: conditions({
            NamespaceDeletionDiscoveryFailure: ['DiscoveryFailed', TEXT.discoveryLegacy],
          }),
        }),
        apiServices: [metricsApiService()],
      }),
    );
    expect(findings.map((f) => [f.id, f.severity, f.leaked])).toEqual([
      ['apiservice-unavailable', 'error', true],
      ['namespace-metadata-finalizers', 'error', true],
      ['controller-conditions', 'error', false],
    ]);
  });

  it('sorts culprits by severity and rank, then the controller’s words — the same output whatever the input order', () => {
    const leftovers = [
      kialiCr('preview-42', { name: 'b', uid: 'b' }),
      leftover(CONFIGMAPS, { name: 'plain' }),
      kialiCr('preview-42', { name: 'a', uid: 'a' }),
    ];
    const base = {
      pods: [
        pod({
          name: 'web-0',
          nodeName: 'n1',
          deletionTimestamp: ago(300),
          terminationGracePeriodSeconds: 30,
        }),
      ],
      nodes: [node('n1', 'False')],
    };
    const one = diagnose(snapshot({ ...base, leftovers }));
    const two = diagnose(snapshot({ ...base, leftovers: [...leftovers].reverse() }));
    expect(two).toEqual(one);
    expect(one.map((f) => `${f.severity} ${f.id} ${f.evidence[0]?.object ?? ''}`)).toEqual([
      'error pods-not-terminating pods/web-0',
      'error finalizer-owner-gone kialis.kiali.io/a',
      'warning object-finalizers kialis.kiali.io/a',
      'notice still-progressing configmaps/plain',
      'notice controller-conditions ',
      'notice pods-not-terminating namespace/preview-42',
    ]);
    expect(
      one.filter((f) => f.id === 'object-finalizers').flatMap((f) => f.evidence.map((e) => e.object)),
    ).toEqual(['kialis.kiali.io/a', 'kialis.kiali.io/a', 'kialis.kiali.io/b', 'kialis.kiali.io/b']);
  });

  it('every finding has a known id, a summary, and a remedy', () => {
    const findings = diagnose(
      snapshot({
        namespace: namespace({
          specFinalizers: ['kubernetes', 'example.com/x'],
          metadataFinalizers: ['example.com/y'],
        }),
        leftovers: [kialiCr(), leftover(CONFIGMAPS, { name: 'cm' })],
        apiServices: [metricsApiService()],
      }),
    );
    for (const f of findings) {
      expect(RULE_IDS).toContain(f.id);
      expect(f.summary.length).toBeGreaterThan(0);
      expect(Array.isArray(f.remedy.commands)).toBe(true);
      if (f.confidence !== undefined) expect(f.confidence).toBeGreaterThan(0);
    }
  });

  it('is pure: a deep-frozen snapshot is neither mutated nor needed to be mutable', () => {
    const s = snapshot({
      namespace: namespace({
        specFinalizers: ['kubernetes', 'example.com/x'],
        metadataFinalizers: ['example.com/y'],
      }),
      leftovers: [
        kialiCr(),
        leftover(CONFIGMAPS, { name: 'cm' }),
        kialiCr('preview-42', { name: 'a', uid: 'a' }),
      ],
      pods: [
        pod({ name: 'z', nodeName: 'n1', deletionTimestamp: ago(300) }),
        pod({ name: 'a', nodeName: 'n1', deletionTimestamp: ago(300) }),
      ],
      nodes: [node('n1', 'False')],
      apiServices: [metricsApiService()],
    });
    const before = structuredClone(s);
    const first = diagnose(deepFreeze(s));
    expect(s).toEqual(before);
    expect(diagnose(s)).toEqual(first);
  });
});

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
