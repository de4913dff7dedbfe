/**
 * A policy engine that is up and denies on purpose, on the real server: a webhook served by this test on loopback
 * answers `allowed: false` with Kyverno's wording. kube-apiserver 1.20 words the refusal without the current
 * `<resource> "<name>" is forbidden:` prefix and with code 400 when the webhook sets none (the fake follows current
 * servers; the diagnosis reads both).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  admin,
  apply,
  kubectl,
  namespace,
  raw,
  runAction,
  uniqueName,
  waitCondition,
  waitGone,
} from './kit.js';

const POLICY_TEXT =
  "\n\nresource ConfigMap/{ns}/db-credentials was blocked due to the following policies \n\nprotect-credentials:\n  block-delete: 'validation error: ConfigMaps labelled retain=true must not be deleted. rule block-delete failed at path /metadata/labels/retain/'\n";

describe('an admission webhook that denies on purpose, on the real server', () => {
  const ns = uniqueName('denied');
  const config = uniqueName('kyverno-resource-validating-webhook-cfg');
  let server: https.Server;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'denying-webhook-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    server = https.createServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      (req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          const review = JSON.parse(body) as {
            request: { uid: string; oldObject?: { metadata?: { labels?: Record<string, string> } } };
          };
          const retain = review.request.oldObject?.metadata?.labels?.retain === 'true';
          const response = retain
            ? {
                uid: review.request.uid,
                allowed: false,
                status: { message: POLICY_TEXT.replace('{ns}', ns) },
              }
            : { uid: review.request.uid, allowed: true };
          res.setHeader('Content-Type', 'application/json');
          res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }));
        });
      },
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    await apply(
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { 'webhook-target': ns } } },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { namespace: ns, name: 'db-credentials', labels: { retain: 'true' } },
      },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: ns, name: 'app-config' } },
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name: config },
        webhooks: [
          {
            name: 'validate.kyverno.svc-fail',
            failurePolicy: 'Fail',
            sideEffects: 'None',
            admissionReviewVersions: ['v1'],
            namespaceSelector: { matchLabels: { 'webhook-target': ns } },
            rules: [
              { apiGroups: [''], apiVersions: ['v1'], operations: ['DELETE'], resources: ['configmaps'] },
            ],
            clientConfig: {
              url: `https://127.0.0.1:${port}/validate`,
              caBundle: readFileSync(join(dir, 'cert.pem')).toString('base64'),
            },
          },
        ],
      },
    );
  });
  afterAll(async () => {
    await kubectl(['delete', 'validatingwebhookconfiguration', config, '--ignore-not-found']);
    server.close();
  });

  test('1.20 words the denial as measured; the diagnosis quotes the policy and never offers to switch the webhook off', async () => {
    const direct = await raw(admin(), 'DELETE', `/api/v1/namespaces/${ns}/configmaps/db-credentials`);
    expect(direct.status).toBe(400);
    expect(direct.json.message).toBe(
      `admission webhook "validate.kyverno.svc-fail" denied the request: ${POLICY_TEXT.replace('{ns}', ns)}`,
    );

    const run = await runAction({
      namespaces: ns,
      timeout: '15s',
      'fail-on': 'stuck',
      force: 'on',
      'force-after': '5s',
      'force-finalize-namespace': 'true',
    });
    expect(run.outputs.result).toBe('stuck');
    const t = run.report!.targets[0]!;
    expect(t.findings[0]).toMatchObject({ id: 'admission-denied' });
    expect(t.findings[0]!.summary).toContain(
      `Kyverno policy protect-credentials (rule block-delete) denies deleting ConfigMap/${ns}/db-credentials on purpose`,
    );
    expect(JSON.stringify(run.report)).not.toMatch(/kubectl delete validatingwebhookconfiguration/);
    // /finalize would go around a control that is up: refused, never sent.
    expect(t.force?.audit.some((a) => a.step === 'namespace-finalize')).toBe(false);
    expect((await namespace(ns)).status.phase).toBe('Terminating');
    expect((await waitCondition(ns, 'NamespaceDeletionContentFailure')).message).toContain(
      'denied the request',
    );

    // The fix is the object (or an exception): once the label goes, the policy allows the delete.
    await kubectl(['label', 'configmap', 'db-credentials', '-n', ns, 'retain-']);
    expect(await waitGone(ns, 90_000)).toBe(true);
  });
});
