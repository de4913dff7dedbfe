import { takeSnapshot } from '../../src/diagnosis/snapshot/take.js';
import { KubeError, type KubeReader } from '../../src/kube/port.js';
import { RecordingReader } from './fake-reader.js';
import { TAKEN_AT, ago, conditions, meta, namespace, type } from './fixtures.js';
import {
  APISERVICES,
  NS,
  clock,
  discovery,
  localApiService,
  metricsApiService,
  snap,
} from './snapshot-helpers.js';

describe('takeSnapshot: the cluster reads the rules need', () => {
  const SLICES = (version: string): string =>
    `/apis/discovery.k8s.io/${version}/namespaces/monitoring/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Dprometheus-adapter`;
  const ENDPOINTS = '/api/v1/namespaces/monitoring/endpoints/prometheus-adapter';
  const SLICE_BODY = [
    {
      endpoints: [
        { addresses: ['10.0.0.1'], conditions: { ready: false } },
        { addresses: ['10.0.0.2', '10.0.0.3'] },
      ],
    },
  ];
  it.each([
    {
      name: 'its EndpointSlices v1 where discovery serves them',
      served: ['v1', 'v1beta1'],
      path: SLICES('v1'),
    },
    {
      name: 'its EndpointSlices v1beta1 where only it is served (1.20)',
      served: ['v1beta1'],
      path: SLICES('v1beta1'),
    },
    { name: 'its legacy Endpoints where no EndpointSlice is served', served: [], path: ENDPOINTS },
  ])(
    'looks up the backing Service only for APIServices that are not Available, and $name',
    async ({ served, path }) => {
      const down = {
        ...metricsApiService,
        status: {
          conditions: [{ type: 'Available', status: 'False', reason: 'MissingEndpoints', message: 'x' }],
        },
      };
      const slices = served.map((v) => type('discovery.k8s.io', v, 'endpointslices', 'EndpointSlice'));
      const { kube, s } = await snap({
        discovery: discovery({ resources: [...discovery().resources, ...slices] }),
        lists: { [APISERVICES]: [down, localApiService], [SLICES(served[0] ?? 'v1')]: SLICE_BODY },
        bodies: {
          '/api/v1/namespaces/monitoring/services/prometheus-adapter': {
            metadata: { name: 'prometheus-adapter' },
          },
          [ENDPOINTS]: {
            subsets: [
              {
                addresses: [{ ip: '10.0.0.2' }, { ip: '10.0.0.3' }],
                notReadyAddresses: [{ ip: '10.0.0.1' }],
              },
            ],
          },
        },
      });
      expect(kube.rawPaths().sort()).toEqual(
        ['/api/v1/namespaces/monitoring/services/prometheus-adapter', APISERVICES, path].sort(),
      );
      // discovery.k8s.io alone was asked which version serves EndpointSlices.
      expect(kube.of('discover').map((c) => c.args[0])).toContainEqual({
        core: false,
        groups: ['discovery.k8s.io'],
      });
      expect(s.apiServices.find((a) => a.name === 'v1beta1.metrics.k8s.io')?.backing).toEqual({
        serviceExists: true,
        readyEndpoints: 2,
      });
    },
  );

  it('an empty namespace costs discovery, the scan and the APIService list, nothing more', async () => {
    const { kube, s } = await snap({});
    expect(kube.rawPaths()).toEqual([APISERVICES]);
    expect(s.cost).toEqual({ requests: 5, bytes: 0 });
    expect(s.takenAt).toBe(TAKEN_AT);
  });

  it('uses the reader’s own cost() when it has one', async () => {
    const kube = new RecordingReader({ discovery: discovery(), withCost: true });
    await kube.discover(); // spent before the snapshot: not counted
    const s = await takeSnapshot(kube, namespace(), { clock });
    expect(s.cost).toEqual({ requests: 5, bytes: 500 });
    expect(typeof (kube as unknown as { cost: unknown }).cost).toBe('function');
    const plain: KubeReader = new RecordingReader({ discovery: discovery() });
    expect((await takeSnapshot(plain, namespace(), { clock })).cost.bytes).toBe(0);
  });

  it('reads pods and their nodes only when pods remain', async () => {
    const podBody = {
      metadata: {
        name: 'web-0',
        uid: 'u1',
        deletionTimestamp: ago(900),
        deletionGracePeriodSeconds: 30,
        finalizers: [],
      },
      spec: {
        nodeName: 'node-a',
        terminationGracePeriodSeconds: 30,
        volumes: [
          { name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } },
          { name: 'scratch', ephemeral: {} },
        ],
      },
      status: { phase: 'Running' },
    };
    const { kube, s } = await snap({
      objects: { '/pods': [meta({ name: 'web-0' })] },
      lists: { [`/api/v1/namespaces/${NS}/pods`]: [podBody] },
      bodies: { '/api/v1/nodes/node-a': { status: { conditions: [{ type: 'Ready', status: 'Unknown' }] } } },
    });
    expect(kube.rawPaths().sort()).toEqual([
      '/api/v1/namespaces/preview-42/pods',
      '/api/v1/nodes/node-a',
      APISERVICES,
    ]);
    expect(s.pods).toEqual([
      {
        name: 'web-0',
        uid: 'u1',
        phase: 'Running',
        nodeName: 'node-a',
        deletionTimestamp: ago(900),
        terminationGracePeriodSeconds: 30,
        finalizers: [],
        claims: ['data-web-0', 'web-0-scratch'],
      },
    ]);
    expect(s.nodes).toEqual([{ name: 'node-a', exists: true, ready: 'Unknown' }]);
  });

  it('reads webhooks only on a content failure, keeping those that intercept DELETE', async () => {
    const ns = namespace({
      conditions: conditions({
        NamespaceDeletionContentFailure: [
          'ContentDeletionFailed',
          'Failed to delete all resource types, 1 remaining: x',
        ],
      }),
    });
    const config = {
      metadata: { name: 'kyverno-resource-validating-webhook-cfg' },
      webhooks: [
        {
          name: 'validate.kyverno.svc-fail',
          clientConfig: { service: { namespace: 'kyverno', name: 'kyverno-svc' } },
          rules: [
            {
              operations: ['CREATE', 'UPDATE', 'DELETE'],
              apiGroups: ['', 'apps'],
              resources: ['pods', 'deployments'],
            },
          ],
        },
        {
          name: 'only-create',
          failurePolicy: 'Fail',
          rules: [{ operations: ['CREATE'], apiGroups: ['*'], resources: ['*'] }],
        },
        {
          name: 'ignore-all',
          failurePolicy: 'Ignore',
          clientConfig: { url: 'https://hooks.example.com/x' },
          rules: [{ operations: ['*'], apiGroups: ['*'], resources: ['*'] }],
        },
      ],
    };
    const { kube, s } = await snap(
      { lists: { '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations': [config] } },
      ns,
    );
    expect(kube.rawPaths()).toContain('/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations');
    expect(s.webhooks).toEqual([
      {
        configuration: 'kyverno-resource-validating-webhook-cfg',
        kind: 'ValidatingWebhookConfiguration',
        name: 'validate.kyverno.svc-fail',
        failurePolicy: 'Fail',
        deleteResources: ['deployments', 'deployments.apps', 'pods', 'pods.apps'],
        service: { namespace: 'kyverno', name: 'kyverno-svc' },
        url: undefined,
        backing: { serviceExists: false, readyEndpoints: 0 },
        // Its place, and the configuration's other webhooks (one intercepting no DELETE too): what a remedy keeps.
        index: 0,
        siblings: [
          { name: 'only-create', served: '(no clientConfig)' },
          { name: 'ignore-all', served: 'url https://hooks.example.com/x' },
        ],
      },
      {
        configuration: 'kyverno-resource-validating-webhook-cfg',
        kind: 'ValidatingWebhookConfiguration',
        name: 'ignore-all',
        failurePolicy: 'Ignore',
        deleteResources: ['*'],
        service: undefined,
        url: 'https://hooks.example.com/x',
        index: 2,
        siblings: [
          { name: 'validate.kyverno.svc-fail', served: 'service kyverno/kyverno-svc' },
          { name: 'only-create', served: '(no clientConfig)' },
        ],
      },
    ]);
    const without = await snap({});
    expect(without.kube.rawPaths().some((p) => p.includes('webhook'))).toBe(false);
  });

  it('reads the CRD, all workloads, roles and Leases only when a custom finalizer must be matched to its controller', async () => {
    // As a metadata-only list gives it: owner annotations kept, others (last-applied…) dropped by the adapter.
    const crd = meta({
      name: 'kialis.kiali.io',
      labels: { 'app.kubernetes.io/managed-by': 'Helm' },
      ownerAnnotations: { 'meta.helm.sh/release-namespace': 'kiali-operator' },
    });
    const deployment = {
      metadata: { name: 'kiali-operator', namespace: 'kiali-operator', labels: { app: 'kiali-operator' } },
      spec: {
        template: {
          spec: {
            containers: [{ image: 'quay.io/kiali/kiali-operator:v1.89', args: ['--zap-log-level=info'] }],
          },
        },
      },
      status: { readyReplicas: 1 },
    };
    const { kube, s } = await snap({
      objects: {
        'kiali.io/kialis': [meta({ name: 'kiali', finalizers: ['kiali.io/finalizer'] })],
        'apiextensions.k8s.io/customresourcedefinitions': [crd],
      },
      lists: { '/apis/apps/v1/deployments': [deployment] },
    });
    expect(kube.rawPaths().sort()).toEqual([
      APISERVICES,
      '/apis/apps/v1/daemonsets',
      '/apis/apps/v1/deployments',
      '/apis/apps/v1/statefulsets',
      '/apis/coordination.k8s.io/v1/leases',
      '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
      '/apis/rbac.authorization.k8s.io/v1/clusterroles',
      '/apis/rbac.authorization.k8s.io/v1/namespaces/preview-42/rolebindings',
    ]);
    // Every CRD in one metadata-only list (its name is plural.group); the kind is not needed.
    expect(kube.of('listMetadata').map((c) => c.args[0])).toContainEqual({
      group: 'apiextensions.k8s.io',
      version: 'v1',
      resource: 'customresourcedefinitions',
    });
    expect(s.crds).toEqual([
      {
        name: 'kialis.kiali.io',
        group: 'kiali.io',
        plural: 'kialis',
        kind: '',
        hints: ['app.kubernetes.io/managed-by=Helm', 'meta.helm.sh/release-namespace=kiali-operator'],
      },
    ]);
    expect(s.workloads).toEqual([
      {
        namespace: 'kiali-operator',
        name: 'kiali-operator',
        kind: 'Deployment',
        readyReplicas: 1,
        deleting: false,
        hints: ['quay.io/kiali/kiali-operator:v1.89', '--zap-log-level=info', 'app=kiali-operator'],
        serviceAccount: 'default',
        containers: [],
      },
    ]);
  });

  it('built-in finalizers alone need no workload or CRD reads: only kube-system’s Leases, and pods where no Lease is', async () => {
    const { kube } = await snap({
      objects: { '/configmaps': [meta({ name: 'cm', finalizers: ['foregroundDeletion'] })] },
    });
    expect(kube.rawPaths()).toEqual([
      APISERVICES,
      '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases',
      '/api/v1/namespaces/kube-system/pods?labelSelector=component%20in%20(kube-controller-manager%2Ccloud-controller-manager)',
    ]);
  });

  it('a 404 on a list means the type is not served: nothing of it, and no read error', async () => {
    const notFound = new KubeError('the server could not find the requested resource', 404, 'NotFound');
    const { s } = await snap({
      objects: { 'kiali.io/kialis': [meta({ name: 'kiali', finalizers: ['kiali.io/finalizer'] })] },
      errors: { '/apis/apps/v1/daemonsets': notFound, '/configmaps': notFound },
    });
    expect(s.readErrors).toEqual([]);
    expect(s.leftovers.map((l) => l.meta.name)).toEqual(['kiali']);
  });

  it('a 404 where an object was expected is still a read error when it is a collection the rules need', async () => {
    const notFound = new KubeError('the server could not find the requested resource', 404, 'NotFound');
    const { s } = await snap({ errors: { [APISERVICES]: notFound } });
    expect(s.readErrors).toEqual([
      { what: 'apiservices', error: '404 NotFound: the server could not find the requested resource' },
    ]);
  });
});
