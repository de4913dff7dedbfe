/** Shared set-up for the snapshot tests: a discovery document, raw APIServices and a one-call snapshot. */
import { takeSnapshot } from '../../src/diagnosis/snapshot/take.js';
import type { Discovery } from '../../src/kube/port.js';
import { RecordingReader, type FakeData } from './fake-reader.js';
import { CONFIGMAPS, KIALIS, PODS, TAKEN_AT, TEXT, namespace, type } from './fixtures.js';

export const NS = 'preview-42';
export const APISERVICES = '/apis/apiregistration.k8s.io/v1/apiservices';
export const clock = (): number => Date.parse(TAKEN_AT);

export const discovery = (over: Partial<Discovery> = {}): Discovery => ({
  resources: [
    type('', 'v1', 'namespaces', 'Namespace', { namespaced: false }),
    CONFIGMAPS,
    PODS,
    type('', 'v1', 'pods/log', 'Pod', { verbs: ['get'] }),
    type('', 'v1', 'bindings', 'Binding', { verbs: ['create'] }),
    type('', 'v1', 'events', 'Event'),
    type('events.k8s.io', 'v1', 'events', 'Event'),
    KIALIS,
    type('kiali.io', 'v1beta1', 'kialis', 'Kiali'),
  ],
  failed: [],
  mode: 'aggregated',
  ...over,
});

export const metricsApiService = {
  metadata: { name: 'v1beta1.metrics.k8s.io' },
  spec: {
    group: 'metrics.k8s.io',
    version: 'v1beta1',
    service: { namespace: 'monitoring', name: 'prometheus-adapter', port: 443 },
  },
  status: {
    conditions: [
      { type: 'Available', status: 'False', reason: 'ServiceNotFound', message: TEXT.apiServiceGone },
    ],
  },
};
export const localApiService = {
  metadata: { name: 'v1.apps' },
  spec: { group: 'apps', version: 'v1' },
  status: {
    conditions: [
      {
        type: 'Available',
        status: 'True',
        reason: 'Local',
        message: 'Local APIServices are always available',
      },
    ],
  },
};

export async function snap(data: FakeData, ns = namespace(), opts = {}) {
  const kube = new RecordingReader({ discovery: discovery(), ...data });
  const s = await takeSnapshot(kube, ns, { clock, ...opts });
  return { kube, s };
}
