/** The same requests, in the same order, against any API server: what the fidelity comparison observes. */
import { gunzipSync } from 'node:zlib';
import { type StartedCluster, raw, waitFor, watch, type Loose } from '../fake-apiserver/index.js';
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
  return observe({ status: 200, headers: {}, body: Buffer.alloc(0), text: '', json: undefined }, names, {
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
  const widget = await see(
    'POST widget with a finalizer',
    'POST',
    `/apis/example.com/v1/namespaces/${n.ns}/widgets`,
    {
      body: {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w1', finalizers: ['example.com/cleanup'] },
      },
    },
  );
  await stalePreconditions(s, `/apis/example.com/v1/namespaces/${n.ns}/widgets/w1`, widget, names, o);

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

  await dryRuns(s, n.ns, created, names, o);
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
    { status: 200, headers: {}, body: Buffer.alloc(0), text: '', json: undefined },
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
    { status: await stream.status, headers: {}, body: Buffer.alloc(0), text: '', json: last },
    names,
    {
      'event types': types,
      'DELETED spec.finalizers': JSON.stringify(last?.object?.spec?.finalizers ?? null),
    },
  );
  await compression(s, n, names, o);
  await accessReviews(s, n, names, o);
  return o;
}

const SAR = '/apis/authorization.k8s.io/v1/subjectaccessreviews';

/** A SubjectAccessReview for the ServiceAccount `ns:name` (with the groups its token carries), about `attrs`. */
function review(ns: string, name: string, attrs: Record<string, string>): Loose {
  return {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    spec: {
      user: `system:serviceaccount:${ns}:${name}`,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'],
      resourceAttributes: attrs,
    },
  };
}

/**
 * SubjectAccessReviews answered from RBAC: a ClusterRole bound to a namespace's ServiceAccounts group, a Role bound to
 * one ServiceAccount by a RoleBinding, a question nothing allows, and one that names neither user nor group. Observed:
 * the status (allowed, and the authorizer's reason word for word) and the 422's message.
 */
async function accessReviews(
  s: StartedCluster,
  n: ProbeNames,
  names: Record<string, string>,
  o: Record<string, Observation>,
): Promise<void> {
  const ns = `${n.ns}-rights`;
  const rbac = '/apis/rbac.authorization.k8s.io/v1';
  const ref = (kind: string, name: string): Loose => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name });
  await raw(s, 'POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
  await raw(s, 'POST', `${rbac}/clusterroles`, {
    body: {
      metadata: { name: ns },
      rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['update'] }],
    },
  });
  await raw(s, 'POST', `${rbac}/clusterrolebindings`, {
    body: {
      metadata: { name: ns },
      roleRef: ref('ClusterRole', ns),
      subjects: [{ ...ref('Group', `system:serviceaccounts:${ns}`) }],
    },
  });
  await raw(s, 'POST', `${rbac}/namespaces/${ns}/roles`, {
    body: {
      metadata: { name: 'gadgets' },
      rules: [{ apiGroups: ['example.com'], resources: ['gadgets'], verbs: ['patch'] }],
    },
  });
  await raw(s, 'POST', `${rbac}/namespaces/${ns}/rolebindings`, {
    body: {
      metadata: { name: 'gadgets' },
      roleRef: ref('Role', 'gadgets'),
      subjects: [{ kind: 'ServiceAccount', name: 'operator', namespace: ns }],
    },
  });
  const cases: [string, Loose][] = [
    [
      'SubjectAccessReview allowed through a group',
      review(ns, 'operator', { namespace: n.ns, verb: 'update', group: 'example.com', resource: 'widgets' }),
    ],
    [
      'SubjectAccessReview allowed by a RoleBinding',
      review(ns, 'operator', { namespace: ns, verb: 'patch', group: 'example.com', resource: 'gadgets' }),
    ],
    [
      'SubjectAccessReview nothing allows',
      review(ns, 'operator', { namespace: n.ns, verb: 'update', group: '*', resource: '*' }),
    ],
    [
      'SubjectAccessReview naming no one',
      {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: { resourceAttributes: { verb: 'get', resource: 'pods' } },
      },
    ],
  ];
  for (const [name, body] of cases) {
    const r = await raw(s, 'POST', SAR, { body });
    o[name] = observe(
      r,
      { ...names, RIGHTS: ns },
      {
        status: JSON.stringify(r.json?.status ?? null),
        message: String(r.json?.message ?? ''),
      },
    );
  }
  await raw(s, 'DELETE', `${rbac}/clusterrolebindings/${ns}`);
  await raw(s, 'DELETE', `${rbac}/clusterroles/${ns}`);
  await raw(s, 'DELETE', `/api/v1/namespaces/${ns}`);
}

const DRY_BODY = {
  kind: 'DeleteOptions',
  apiVersion: 'v1',
  propagationPolicy: 'Background',
  dryRun: ['All'],
};

/**
 * Dry runs on the Active namespace and its widget: the answer is the object as it would be, nothing is stored, no
 * resourceVersion moves; an invalid dryRun value is refused with the options it belongs to; a DELETE whose body holds
 * its options reads no dryRun from the query (a widget made for it is deleted for real).
 */
async function dryRuns(
  s: StartedCluster,
  ns: string,
  created: Loose,
  names: Record<string, string>,
  o: Record<string, Observation>,
): Promise<void> {
  const path = `/api/v1/namespaces/${ns}`;
  const widget = `/apis/example.com/v1/namespaces/${ns}/widgets/w1`;
  const rv = String(created?.metadata?.resourceVersion ?? '');
  const state = (j: Loose): Record<string, string> => ({
    phase: String(j?.status?.phase ?? '-'),
    deletionTimestamp: j?.metadata?.deletionTimestamp ? 'set' : 'none',
    finalizers: JSON.stringify(j?.metadata?.finalizers ?? []),
  });
  const step = async (name: string, method: string, at: string, opts: Loose = {}): Promise<void> => {
    const r = await raw(s, method, at, opts);
    const extra = r.json?.kind === 'Status' ? {} : state(r.json);
    o[name] = observe(r, names, extra);
  };
  await step('DELETE namespace, dry run in DeleteOptions', 'DELETE', path, { body: DRY_BODY });
  const after = await raw(s, 'GET', path);
  o['GET namespace after the dry-run DELETE'] = observe(after, names, {
    ...state(after.json),
    'resourceVersion moved': String(after.json?.metadata?.resourceVersion !== rv),
  });
  await step('DELETE widget, dry run in the query', 'DELETE', `${widget}?dryRun=All`);
  await step('PATCH widget finalizers, dry run', 'PATCH', `${widget}?dryRun=All`, {
    headers: MERGE,
    body: { metadata: { finalizers: null } },
  });
  await step('GET widget after the dry runs', 'GET', widget);
  await step('DELETE namespace, dryRun=maybe', 'DELETE', `${path}?dryRun=maybe`);
  await step('PATCH namespace, dryRun=maybe', 'PATCH', `${path}?dryRun=maybe`, {
    headers: MERGE,
    body: { metadata: { labels: { a: 'b' } } },
  });
  const other = `/apis/example.com/v1/namespaces/${ns}/widgets`;
  await raw(s, 'POST', other, {
    body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'query-only' } },
  });
  const at = `${other}/query-only`;
  await raw(s, 'DELETE', `${at}?dryRun=All`, { body: { kind: 'DeleteOptions', apiVersion: 'v1' } });
  await step('GET widget after a DELETE with a body and dryRun=All in the query', 'GET', at);
}

/**
 * DELETE of the widget with a stale resourceVersion precondition, then with a UID one that is not its own: each a
 * 409 that deletes nothing. The widget's UID and resourceVersion are placeholders, as they differ between servers.
 */
async function stalePreconditions(
  s: StartedCluster,
  path: string,
  widget: Loose,
  names: Record<string, string>,
  o: Record<string, Observation>,
): Promise<void> {
  const held = {
    UID: String(widget?.metadata?.uid ?? ''),
    RV: String(widget?.metadata?.resourceVersion ?? ''),
  };
  const cases = [
    ['DELETE widget with a stale resourceVersion precondition', { uid: held.UID, resourceVersion: '1' }],
    ['DELETE widget with another UID as its precondition', { uid: 'not-its-uid' }],
  ] as const;
  for (const [name, preconditions] of cases) {
    const r = await raw(s, 'DELETE', path, {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions },
    });
    o[name] = observe(r, { ...names, ...held });
  }
}

/**
 * Response compression: a list of 50 ConfigMaps of 3000 bytes (over 128 KiB) asked for with and without
 * `Accept-Encoding: gzip`, and a one-item page with it. Observed: the Content-Encoding, the Vary header and the
 * decoded body.
 */
async function compression(
  s: StartedCluster,
  n: ProbeNames,
  names: Record<string, string>,
  o: Record<string, Observation>,
): Promise<void> {
  const ns = `${n.ns}-big`;
  await raw(s, 'POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
  for (let i = 0; i < 50; i++) {
    await raw(s, 'POST', `/api/v1/namespaces/${ns}/configmaps`, {
      body: { metadata: { name: `big-${i}` }, data: { payload: 'x'.repeat(3000) } },
    });
  }
  const list = `/api/v1/namespaces/${ns}/configmaps`;
  for (const [name, path, headers] of [
    ['LIST over 128 KiB, Accept-Encoding gzip', list, { 'Accept-Encoding': 'gzip' }],
    ['LIST over 128 KiB, no Accept-Encoding', list, {}],
    ['LIST of one item, Accept-Encoding gzip', `${list}?limit=1`, { 'Accept-Encoding': 'gzip' }],
  ] as const) {
    const r = await raw(s, 'GET', path, { headers });
    const encoding = String(r.headers['content-encoding'] ?? '(none)');
    const json = encoding === 'gzip' ? (JSON.parse(gunzipSync(r.body).toString('utf8')) as Loose) : r.json;
    o[name] = observe({ ...r, json }, names, {
      'content-encoding': encoding,
      vary: String(r.headers.vary ?? '(none)'),
      // Only ours: 1.20 also puts kube-root-ca.crt in every namespace, which the fake does not emulate.
      items: String(
        json?.items?.filter((i: Loose) => i.metadata?.name?.startsWith('big-')).length ?? 'not JSON',
      ),
    });
  }
  await raw(s, 'DELETE', `/api/v1/namespaces/${ns}`);
}
