import { parseConditions } from '../../src/diagnosis/conditions.js';
import { apiServiceUnavailable } from '../../src/diagnosis/rules/apiservice-unavailable.js';
import { TEXT, conditions, metricsApiService, namespace, snapshot, type RuleRow } from './fixtures.js';

const staleNs = namespace({
  conditions: conditions({ NamespaceDeletionDiscoveryFailure: ['DiscoveryFailed', TEXT.discoveryStale] }),
});

const rows: RuleRow[] = [
  {
    name: 'field report 004: v1beta1.metrics.k8s.io False (ServiceNotFound), prometheus-adapter deleted',
    given: snapshot({ namespace: staleNs, apiServices: [metricsApiService()] }),
    expect: [
      {
        id: 'apiservice-unavailable',
        severity: 'error',
        summary:
          'APIService v1beta1.metrics.k8s.io is unavailable (ServiceNotFound): its service monitoring/prometheus-adapter does not exist; discovery of metrics.k8s.io/v1beta1 fails, which blocks every namespace deletion',
        evidence: [
          {
            object: 'apiservice/v1beta1.metrics.k8s.io',
            field: 'status.conditions[Available]',
            value: 'False ServiceNotFound: service/prometheus-adapter in "monitoring" is not present',
          },
          {
            object: 'apiservice/v1beta1.metrics.k8s.io',
            field: 'spec.service',
            value: 'monitoring/prometheus-adapter',
          },
          { object: 'service/monitoring/prometheus-adapter', field: 'exists', value: 'false' },
          { object: 'service/monitoring/prometheus-adapter', field: 'ready endpoint addresses', value: '0' },
          {
            object: 'namespace/preview-42',
            field: 'discovery of metrics.k8s.io/v1beta1',
            value: TEXT.discoveryStale,
          },
        ],
        owner: { controller: 'service monitoring/prometheus-adapter', present: false },
        remedy: {
          commands: ['kubectl delete apiservice v1beta1.metrics.k8s.io'],
          policy: 'force-finalize-namespace: true',
          note: expect.stringContaining('ALL namespace deletions cluster-wide') as unknown as string,
        },
        leaked: true,
        targets: [
          {
            kind: 'namespace-finalize',
            reason: 'APIService v1beta1.metrics.k8s.io is unavailable (ServiceNotFound)',
          },
        ],
      },
    ],
  },
  {
    name: 'MissingEndpoints: the service exists with no ready endpoints; fix it, deleting the APIService only a last resort',
    given: snapshot({
      apiServices: [
        metricsApiService({
          service: { namespace: 'kube-system', name: 'metrics-server' },
          available: {
            status: 'False',
            reason: 'MissingEndpoints',
            message:
              'endpointslices for service/metrics-server in "kube-system" have no addresses with port name "https"',
          },
          backing: { serviceExists: true, readyEndpoints: 0 },
        }),
      ],
      discovery: {
        failed: [
          {
            groupVersion: 'metrics.k8s.io/v1beta1',
            error: 'stale GroupVersion discovery: metrics.k8s.io/v1beta1',
          },
        ],
        mode: 'aggregated',
        listedTypes: 40,
      },
    }),
    expect: [
      {
        summary:
          'APIService v1beta1.metrics.k8s.io is unavailable (MissingEndpoints): its service kube-system/metrics-server has 0 ready endpoint address(es); discovery of metrics.k8s.io/v1beta1 fails, which blocks every namespace deletion',
        owner: { controller: 'service kube-system/metrics-server', present: false },
        // Its Service is still there, so its provider may come back: look first, delete only as a marked last resort.
        remedy: expect.objectContaining({
          commands: [
            'kubectl get endpointslices -n kube-system -l kubernetes.io/service-name=metrics-server',
            'kubectl get apiservice v1beta1.metrics.k8s.io -o yaml',
          ],
          lastResort: expect.objectContaining({
            commands: ['kubectl delete apiservice v1beta1.metrics.k8s.io'],
            risk: expect.stringContaining('removes the metrics.k8s.io API') as unknown,
          }) as unknown,
        }) as never,
        leaked: false,
      },
    ],
  },
  {
    name: 'FailedDiscoveryCheck with endpoints up: reason and message verbatim',
    given: snapshot({
      apiServices: [
        metricsApiService({
          available: {
            status: 'False',
            reason: 'FailedDiscoveryCheck',
            message:
              'failing or missing response from https://10.96.0.20:443/apis/metrics.k8s.io/v1beta1: bad status from https://10.96.0.20:443/apis/metrics.k8s.io/v1beta1: 503',
          },
          backing: { serviceExists: true, readyEndpoints: 1 },
        }),
      ],
    }),
    expect: [
      {
        evidence: expect.arrayContaining([
          {
            object: 'apiservice/v1beta1.metrics.k8s.io',
            field: 'status.conditions[Available]',
            value:
              'False FailedDiscoveryCheck: failing or missing response from https://10.96.0.20:443/apis/metrics.k8s.io/v1beta1: bad status from https://10.96.0.20:443/apis/metrics.k8s.io/v1beta1: 503',
          },
        ]) as never,
        owner: { controller: 'service monitoring/prometheus-adapter', present: true },
      },
    ],
  },
  {
    name: 'Available APIServices are fine',
    given: snapshot({
      apiServices: [
        metricsApiService({ available: { status: 'True', reason: 'Passed', message: 'all checks passed' } }),
      ],
    }),
    expect: [],
  },
  {
    name: 'the conditions name a failing group-version but APIServices could not be read',
    given: snapshot({
      namespace: staleNs,
      readErrors: [
        { what: 'apiservices', error: '403 Forbidden: apiservices.apiregistration.k8s.io is forbidden' },
      ],
    }),
    expect: [
      {
        severity: 'error',
        summary:
          'discovery of metrics.k8s.io/v1beta1 fails, which blocks every namespace deletion; APIService v1beta1.metrics.k8s.io could not be read',
        confidence: 0.6,
        remedy: expect.objectContaining({
          commands: ['kubectl get apiservice v1beta1.metrics.k8s.io -o yaml'],
        }) as never,
        targets: [{ kind: 'namespace-finalize', reason: 'discovery of metrics.k8s.io/v1beta1 fails' }],
      },
    ],
  },
];

describe('apiservice-unavailable', () => {
  it.each(rows)('$name', ({ given, expect: want }) => {
    const got = apiServiceUnavailable(given, parseConditions(given.namespace.conditions));
    expect(got).toHaveLength(want.length);
    want.forEach((w, i) => expect(got[i]).toMatchObject(w));
  });
});
