/** The same requests, in the same order, against any API server: what the fidelity comparison observes. */
import type { StartedCluster } from '../fake/cluster.js';
import { raw, waitFor, watch, type Loose } from '../fake/testkit.js';
import { observe, type Observation } from './observe.js';

/** Names used on both servers (the same, so messages compare byte for byte). */
export interface ProbeNames {
  ns: string;
  hookNs: string;
  webhook: string;
}

const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };

function conditionTexts(ns: Loose): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of ns?.status?.conditions ?? []) out[c.type] = `${c.status} ${c.reason}: ${c.message}`;
  return out;
}

function resourceEntries(list: Loose, prefix: string, names: Record<string, string>): Observation {
  const entries = (list?.resources ?? []).filter((x: Loose) => x.name.startsWith(prefix));
  const line = (x: Loose): string =>
    `${x.name} ${x.kind} [${[...(x.verbs ?? [])].sort().join(',')}] ${x.storageVersionHash ?? '-'}`;
  return observe({ status: 200, headers: {}, text: '', json: undefined }, names, {
    entries: entries.map(line).join('; '),
  });
}

/** Run every probe against one server (already prepared with the Widget CRD and the webhook) and observe it. */
export async function probe(s: StartedCluster, n: ProbeNames): Promise<Record<string, Observation>> {
  const names = { NS: n.ns, HOOKNS: n.hookNs, WEBHOOK: n.webhook };
  const o: Record<string, Observation> = {};
  const see = async (name: string, method: string, path: string, opts = {}): Promise<Loose> => {
    const r = await raw(s, method, path, opts);
    o[name] = observe(r, names);
    return r.json;
  };
  await see('GET /api', 'GET', '/api');
  await see('GET /apis', 'GET', '/apis');
  await see('GET /apis (aggregated Accept)', 'GET', '/apis', { headers: { Accept: AGGREGATED } });
  const v1 = await see('GET /api/v1', 'GET', '/api/v1');
  o['GET /api/v1 namespaces entries'] = resourceEntries(v1, 'namespaces', names);
  const widgets = await see('GET /apis/example.com/v1', 'GET', '/apis/example.com/v1');
  o['GET /apis/example.com/v1 widgets entries'] = resourceEntries(widgets, 'widgets', names);

  const labels = { fidelity: n.ns };
  await see('POST namespace', 'POST', '/api/v1/namespaces', { body: { metadata: { name: n.ns, labels } } });
  const created = await see('GET namespace', 'GET', `/api/v1/namespaces/${n.ns}`);
  await see('GET missing namespace', 'GET', `/api/v1/namespaces/${n.ns}-missing`);
  await see('LIST namespaces by label', 'GET', `/api/v1/namespaces?labelSelector=fidelity%3D${n.ns}`);
  await see('PATCH with a stale resourceVersion', 'PATCH', `/api/v1/namespaces/${n.ns}`, {
    headers: MERGE,
    body: { metadata: { resourceVersion: '1', labels: { stale: 'yes' } } },
  });
  const rv = created?.metadata?.resourceVersion ?? '';
  const stream = watch(
    s,
    `/api/v1/namespaces?fieldSelector=metadata.name%3D${n.ns}&watch=1&resourceVersion=${rv}`,
  );
  await see('POST widget with a finalizer', 'POST', `/apis/example.com/v1/namespaces/${n.ns}/widgets`, {
    body: {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w1', finalizers: ['example.com/cleanup'] },
    },
  });

  await see('POST hook namespace', 'POST', '/api/v1/namespaces', {
    body: { metadata: { name: n.hookNs, labels: { 'webhook-target': n.hookNs } } },
  });
  await see('POST configmap', 'POST', `/api/v1/namespaces/${n.hookNs}/configmaps`, {
    body: { metadata: { name: 'app-config' }, data: { a: 'b' } },
  });
  await see(
    'DELETE configmap refused by the webhook',
    'DELETE',
    `/api/v1/namespaces/${n.hookNs}/configmaps/app-config`,
  );

  await see('DELETE namespace', 'DELETE', `/api/v1/namespaces/${n.ns}`);
  await see('DELETE namespace again', 'DELETE', `/api/v1/namespaces/${n.ns}`);
  const settled = await waitFor(
    async () => {
      const r = await raw(s, 'GET', `/api/v1/namespaces/${n.ns}`);
      const c = conditionTexts(r.json);
      return Object.keys(c).length === 5 && c.NamespaceFinalizersRemaining?.startsWith('True')
        ? r.json
        : undefined;
    },
    30_000,
    100,
  );
  o['namespace conditions, held by the widget'] = observe(
    { status: 200, headers: {}, text: '', json: undefined },
    names,
    conditionTexts(settled),
  );
  const finalized = await see('PUT /finalize', 'PUT', `/api/v1/namespaces/${n.ns}/finalize`, {
    body: { ...settled, spec: { finalizers: [] } },
  });
  void finalized;
  await see('GET namespace after /finalize', 'GET', `/api/v1/namespaces/${n.ns}`);
  await waitFor(() => stream.events.some((e) => e.type === 'DELETED'), 10_000, 50);
  stream.close();
  const types = [...new Set(stream.events.map((e: Loose) => e.type))].join(',');
  const last = stream.events[stream.events.length - 1];
  o['WATCH namespace until DELETED'] = observe(
    { status: await stream.status, headers: {}, text: '', json: last },
    names,
    {
      'event types': types,
      'DELETED spec.finalizers': JSON.stringify(last?.object?.spec?.finalizers ?? null),
    },
  );
  return o;
}
