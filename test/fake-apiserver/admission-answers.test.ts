/** Denials with the API server's wording, and CRD conversion through a webhook that is gone, over real HTTPS. */
import { type StartedCluster, FakeCluster } from './index.js';
import { FAST, raw, waitFor, type Loose } from './testkit.js';

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };
const cluster = new FakeCluster({ controller: FAST });
let s: StartedCluster;

beforeAll(async () => {
  cluster.addNamespace('deny');
  cluster.addObject(CONFIGMAPS, { namespace: 'deny', name: 'keep', labels: { protected: 'true' } });
  cluster.addObject(CONFIGMAPS, { namespace: 'deny', name: 'free' });
  cluster.addWebhook({
    kind: 'Validating',
    name: 'validation.gatekeeper.sh',
    failurePolicy: 'Ignore',
    resources: ['configmaps'],
    operations: ['DELETE'],
    down: false,
  });
  cluster.addService('webhook-system', 'validation-webhook', 1);
  cluster.denyWebhook(
    'validation.gatekeeper.sh',
    {
      code: 403,
      reason: 'Forbidden',
      message: '[deny-delete-protected] deletion of protected objects is not allowed',
    },
    (obj) => obj?.metadata.labels?.protected === 'true',
  );
  cluster.addNamespace('vap');
  cluster.addObject(CONFIGMAPS, { namespace: 'vap', name: 'cm' });
  cluster.denyByPolicy(
    {
      policy: 'no-delete',
      binding: 'no-delete-binding',
      operations: ['DELETE'],
      resources: ['configmaps'],
      message: 'failed expression: false',
    },
    (obj) => obj?.metadata.namespace === 'vap',
  );
  cluster.addNamespace('conv');
  cluster.addCRD({
    group: 'conv.example.com',
    version: 'v1beta1',
    kind: 'Gadget',
    plural: 'gadgets',
    versions: [{ name: 'v1beta1', storage: true }, { name: 'v1' }],
    conversion: { service: { namespace: 'conv-system', name: 'conv-webhook', path: '/convert' } },
  });
  cluster.addObject(
    { group: 'conv.example.com', version: 'v1beta1', resource: 'gadgets' },
    {
      namespace: 'conv',
      name: 'g1',
      finalizers: ['conv.example.com/cleanup'],
    },
  );
  s = await cluster.start();
});
afterAll(() => cluster.stop());

test('a webhook that answers allowed: false refuses with its own words, whatever its failurePolicy; others pass', async () => {
  const r = await raw(s, 'DELETE', '/api/v1/namespaces/deny/configmaps/keep');
  expect(r.status).toBe(403);
  expect(r.json).toEqual({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message:
      'configmaps "keep" is forbidden: admission webhook "validation.gatekeeper.sh" denied the request: [deny-delete-protected] deletion of protected objects is not allowed',
    reason: 'Forbidden',
    details: { name: 'keep', kind: 'configmaps' },
    code: 403,
  });
  expect((await raw(s, 'DELETE', '/api/v1/namespaces/deny/configmaps/free')).status).toBe(200);
});

test('a ValidatingAdmissionPolicy denies with 422 Invalid and the policy and binding named', async () => {
  const r = await raw(s, 'DELETE', '/api/v1/namespaces/vap/configmaps/cm');
  expect(r.status).toBe(422);
  expect(r.json.reason).toBe('Invalid');
  expect(r.json.message).toBe(
    "configmaps \"cm\" is forbidden: ValidatingAdmissionPolicy 'no-delete' with binding 'no-delete-binding' denied request: failed expression: false",
  );
  expect(r.json.details.causes).toEqual([
    {
      message:
        "ValidatingAdmissionPolicy 'no-delete' with binding 'no-delete-binding' denied request: failed expression: false",
    },
  ]);
});

test('the namespace controller records the denial as the content failure', async () => {
  await raw(s, 'DELETE', '/api/v1/namespaces/deny');
  const ns = await waitFor(async () => {
    const got = (await raw(s, 'GET', '/api/v1/namespaces/deny')).json as Loose;
    const c = (got.status.conditions ?? []).find((x: Loose) => x.type === 'NamespaceDeletionContentFailure');
    return c?.status === 'True' ? c : undefined;
  }, 5000);
  expect(ns.message).toBe(
    'Failed to delete all resource types, 1 remaining: configmaps "keep" is forbidden: admission webhook "validation.gatekeeper.sh" denied the request: [deny-delete-protected] deletion of protected objects is not allowed',
  );
});

describe('a CRD whose conversion webhook is gone', () => {
  const META = { Accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1' };

  test('the preferred version is the highest one, v1', async () => {
    const r = await raw(s, 'GET', '/apis/conv.example.com');
    expect(r.json.preferredVersion).toEqual({ groupVersion: 'conv.example.com/v1', version: 'v1' });
  });

  test('reading at v1 objects stored at v1beta1 fails with the measured 500; at v1beta1 it works', async () => {
    const bad = await raw(s, 'GET', '/apis/conv.example.com/v1/namespaces/conv/gadgets', { headers: META });
    expect(bad.status).toBe(500);
    expect(bad.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'conversion webhook for conv.example.com/v1beta1, Kind=Gadget failed: Post "https://conv-webhook.conv-system.svc:443/convert?timeout=30s": service "conv-webhook" not found',
      code: 500,
    });
    const ok = await raw(s, 'GET', '/apis/conv.example.com/v1beta1/namespaces/conv/gadgets', {
      headers: META,
    });
    expect(ok.status).toBe(200);
    expect(ok.json.items.map((i: Loose) => i.metadata.name)).toEqual(['g1']);
  });

  test('the namespace controller cannot delete them: the same error is its content failure', async () => {
    await raw(s, 'DELETE', '/api/v1/namespaces/conv');
    const c = await waitFor(async () => {
      const got = (await raw(s, 'GET', '/api/v1/namespaces/conv')).json as Loose;
      const x = (got.status.conditions ?? []).find(
        (y: Loose) => y.type === 'NamespaceDeletionContentFailure',
      );
      return x?.status === 'True' ? x : undefined;
    }, 5000);
    expect(c.message).toMatch(
      /^Failed to delete all resource types, 1 remaining: conversion webhook for conv\.example\.com\/v1beta1, Kind=Gadget failed: /,
    );
  });

  test('with the Service back, reads at v1 convert again', async () => {
    cluster.addService('conv-system', 'conv-webhook', 1);
    const ok = await raw(s, 'GET', '/apis/conv.example.com/v1/namespaces/conv/gadgets', { headers: META });
    expect(ok.status).toBe(200);
  });
});
