/**
 * A mutating admission webhook that puts a finalizer back, on the real server: served by this test over HTTPS on
 * loopback (its CA and serving certificate made with openssl, `clientConfig.url` and `caBundle`), it answers every
 * UPDATE of a ConfigMap in the test's namespace that lacks `example.com/hold` with a JSONPatch adding it. A PATCH
 * removing the finalizer is then answered 200 with it still there; the action says not removed, names the webhook,
 * writes at most twice, and claims nothing done.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { admin, apply, clearFinalizers, get, kubectl, raw, runAction, uniqueName, waitGone } from './kit.js';
import { servingPki } from './pki.js';

const FINALIZER = 'example.com/hold';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };

interface Review {
  request: {
    uid: string;
    namespace?: string;
    name?: string;
    operation: string;
    object?: { metadata?: { finalizers?: string[] } };
  };
}

describe('a mutating webhook that puts a finalizer back, on the real server', () => {
  const ns = uniqueName('putback');
  const config = `${uniqueName('putback')}.example.com`;
  const webhook = 'hold.putback.example.com';
  const path = `/api/v1/namespaces/${ns}/configmaps/held`;
  /** The UPDATEs of the held ConfigMap the webhook was called for: one per write that reached it. */
  const updates: string[] = [];
  let server: https.Server;

  beforeAll(async () => {
    const pki = servingPki(mkdtempSync(join(tmpdir(), 'putback-webhook-')));
    server = https.createServer(
      { key: readFileSync(pki.serverKey), cert: readFileSync(pki.serverCert) },
      (req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          const { request } = JSON.parse(body) as Review;
          const have = request.object?.metadata?.finalizers ?? [];
          if (request.namespace === ns && request.name === 'held') updates.push(request.operation);
          const put = request.namespace === ns && !have.includes(FINALIZER);
          const patch = [{ op: 'add', path: '/metadata/finalizers', value: [...have, FINALIZER] }];
          const response = put
            ? {
                uid: request.uid,
                allowed: true,
                patchType: 'JSONPatch',
                patch: Buffer.from(JSON.stringify(patch)).toString('base64'),
              }
            : { uid: request.uid, allowed: true };
          res.setHeader('Content-Type', 'application/json');
          res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }));
        });
      },
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    await apply(
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { 'putback-target': ns } } },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { namespace: ns, name: 'held', finalizers: [FINALIZER] },
      },
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'MutatingWebhookConfiguration',
        metadata: { name: config },
        webhooks: [
          {
            name: webhook,
            failurePolicy: 'Fail',
            sideEffects: 'None',
            admissionReviewVersions: ['v1'],
            reinvocationPolicy: 'Never',
            // Only this test's namespace: 1.20 does not label namespaces with their name, so the test does.
            namespaceSelector: { matchLabels: { 'putback-target': ns } },
            rules: [
              { apiGroups: [''], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['configmaps'] },
            ],
            clientConfig: {
              url: `https://127.0.0.1:${port}/mutate`,
              caBundle: readFileSync(pki.caCert).toString('base64'),
            },
          },
        ],
      },
    );
  });

  afterAll(async () => {
    // Cluster-scoped: it would reach no other test's namespace, but it must not outlive this one.
    await kubectl(['delete', 'mutatingwebhookconfiguration', config, '--ignore-not-found']);
    server.close();
  });

  test('not removed, the webhook named with its URL, written at most twice, nothing claimed done', async () => {
    const run = await runAction({
      namespaces: ns,
      timeout: '25s',
      'fail-on': 'stuck',
      force: 'on',
      'force-after': '3s',
      'force-finalizers': 'example.com/*',
    });
    expect(run.outputs.result).toBe('stuck');
    const t = run.report!.targets[0]!;
    expect(t.outcome).toBe('stuck');
    // A pass before the namespace controller deleted the ConfigMap skips it (not being deleted yet); every pass that
    // wrote was answered with the finalizer still there, and the pass after it writes nothing.
    const entries = t.force!.audit.filter((a) => a.object === 'configmaps/held' && a.writes > 0);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ result: 'not-removed', after: [FINALIZER], writes: 2 });
    expect(t.force!.audit.some((a) => a.result === 'removed')).toBe(false);
    // Put back by a live webhook, the finalizer is what nothing in the run will change: the wait ends settled, with no
    // further write (a later pass would refuse it, "not written again": test/force/put-back.test.ts).
    expect(run.report!.wait?.ended).toBe('settled');
    expect(t.settled).toBeDefined();
    expect(updates.length).toBeGreaterThanOrEqual(1);
    expect(updates.length).toBeLessThanOrEqual(2);
    const finding = t.findings[0]!;
    expect(finding.id).toBe('finalizer-put-back');
    expect(finding.summary).toContain(`mutating webhook ${webhook}`);
    expect(finding.summary).toContain(`MutatingWebhookConfiguration ${config}`);
    expect(finding.summary).toContain(`url https://127.0.0.1:`);
    expect(finding.summary).toContain('up: it answered this write');
    expect(run.summary).toContain(webhook);
    expect(run.summary).not.toMatch(/✅ removed|resolved by forcing/);
    expect(run.stdout).toContain(`after: [${FINALIZER}]`);
    expect(run.stdout).not.toContain('after: []');
    expect(JSON.stringify(run.report)).not.toMatch(/kubectl delete mutatingwebhookconfiguration/);
    expect((await get(path)).metadata.finalizers).toEqual([FINALIZER]);
  });

  test('as measured on 1.20: a PATCH removing it is 200, finalizer kept, resourceVersion unchanged; a new one is 422', async () => {
    const before = await get(path);
    expect(before.metadata.deletionTimestamp).toBeDefined();
    const kept = await raw(admin(), 'PATCH', path, {
      headers: MERGE,
      body: { metadata: { finalizers: [] } },
    });
    expect(kept.status).toBe(200);
    expect(kept.headers.warning).toBeUndefined();
    expect(kept.json.metadata.finalizers).toEqual([FINALIZER]);
    expect(kept.json.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    const added = await raw(admin(), 'PATCH', path, {
      headers: MERGE,
      body: { metadata: { finalizers: [FINALIZER, 'example.com/new'] } },
    });
    expect(added.status).toBe(422);
    expect(added.json.message).toBe(
      `ConfigMap "held" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/new"}`,
    );

    // The fix is the webhook: once its configuration goes, the finalizer can be removed and the namespace goes.
    await kubectl(['delete', 'mutatingwebhookconfiguration', config]);
    await clearFinalizers(path);
    expect(await waitGone(ns, 60_000)).toBe(true);
  });
});
