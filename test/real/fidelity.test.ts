import { FakeCluster, FAST } from '../fake-apiserver/index.js';
import { admin, apply, createCRD, kubectl, uniqueName } from './kit.js';
import { compare, type Observation } from './observe.js';
import { probe, type ProbeNames } from './probes.js';

const WEBHOOK_SERVICE = { namespace: 'default', name: 'deny-delete-gone' };

/**
 * Every difference the comparison may find, with its reason (also listed in test/fake-apiserver/README.md). A difference
 * not matched here fails the test; an entry that matches nothing fails it too, so the list stays true.
 */
const KNOWN: { pattern: RegExp; reason: string }[] = [
  {
    pattern: /^GET \/apis \(aggregated Accept\): /,
    reason:
      '1.20 has no aggregated discovery and answers with the legacy APIGroupList; the fake follows 1.34',
  },
  {
    pattern: /^GET \/api\/v1: field only the real server sends: resources\[\]\.(group|version)$/,
    reason:
      'the fake serves a subset of /api/v1; the real list has subresources of other groups (pods/eviction, serviceaccounts/token)',
  },
  {
    pattern: /: field only the real server sends: (items\[\]\.|object\.)?metadata\.managedFields$/,
    reason: 'server-side apply bookkeeping is not emulated; the action never reads it',
  },
  {
    pattern:
      /^DELETE configmap refused by the webhook: message fake "Internal error occurred: failed calling webhook "WEBHOOK": failed to call webhook: Post "https:\/\/deny-delete-gone\.default\.svc:443\/\?timeout=10s": dial tcp [0-9.]+:443: connect: connection refused", real "Internal error occurred: failed calling webhook "WEBHOOK": Post "https:\/\/deny-delete-gone\.default\.svc:443\/\?timeout=10s": service "deny-delete-gone" not found"$/,
    reason:
      'the fake models a webhook whose pods are down (connection refused) in 1.34 wording ("failed to call webhook:" came after 1.20); the real case has no Service at all',
  },
];

async function prepareReal(n: ProbeNames): Promise<void> {
  await createCRD('example.com', 'Widget', 'widgets');
  await apply({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: n.webhook },
    webhooks: [
      {
        name: n.webhook,
        failurePolicy: 'Fail',
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        // Only the probe's namespace: the shared control plane serves other tests too.
        namespaceSelector: { matchLabels: { 'webhook-target': n.hookNs } },
        rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['DELETE'], resources: ['configmaps'] }],
        clientConfig: { service: { ...WEBHOOK_SERVICE, port: 443 } },
      },
    ],
  });
}

async function probeFake(n: ProbeNames): Promise<Record<string, Observation>> {
  const cluster = new FakeCluster({ controller: FAST });
  cluster.addCRD({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets' });
  cluster.addWebhook({
    kind: 'Validating',
    name: n.webhook,
    failurePolicy: 'Fail',
    resources: ['configmaps'],
    operations: ['DELETE'],
    service: WEBHOOK_SERVICE,
    down: true,
  });
  const started = await cluster.start();
  try {
    return await probe(started, n);
  } finally {
    await cluster.stop();
  }
}

describe('the fake API server compared with the real one', () => {
  const n: ProbeNames = {
    ns: uniqueName('fidelity'),
    hookNs: uniqueName('fidelity-hook'),
    webhook: `${uniqueName('deny')}.example.com`,
  };
  afterAll(async () => {
    await kubectl(['delete', 'validatingwebhookconfiguration', n.webhook, '--ignore-not-found']);
    await kubectl(['delete', 'namespace', n.hookNs, '--ignore-not-found', '--wait=false']);
  });

  test('answers discovery, namespace GET/LIST/WATCH/DELETE, /finalize, a stale PATCH, stale DELETE preconditions, dry runs, a webhook refusal, the conditions and SubjectAccessReviews alike, but for the listed differences', async () => {
    await prepareReal(n);
    const real = await probe(admin(), n);
    const fake = await probeFake(n);
    expect(Object.keys(fake)).toEqual(Object.keys(real));
    const diffs = Object.keys(real).flatMap((k) => compare(k, fake[k]!, real[k]!));
    const unexplained = diffs.filter((d) => !KNOWN.some((k) => k.pattern.test(d)));
    expect(unexplained).toEqual([]);
    const stale = KNOWN.filter((k) => !diffs.some((d) => k.pattern.test(d))).map((k) => k.reason);
    expect(stale).toEqual([]);
    // The namespace conditions, word for word, were among what matched (1.20 and the fake agree).
    expect(real['namespace conditions, held by the widget']!.text).toEqual(
      fake['namespace conditions, held by the widget']!.text,
    );
    // The DELETE preconditions matched as 409s that say which one failed (a GitOps owner's DELETE carries both).
    expect(real['DELETE widget with a stale resourceVersion precondition']).toMatchObject({
      status: 409,
      text: {
        reason: 'Conflict',
        message:
          'Operation cannot be fulfilled on Widget.example.com "w1": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (RV). The object might have been modified',
      },
    });
    expect(real['DELETE widget with another UID as its precondition']).toMatchObject({
      status: 409,
      text: {
        message:
          'Operation cannot be fulfilled on Widget.example.com "w1": the UID in the precondition (not-its-uid) does not match the UID in record (UID). The object might have been deleted and then recreated',
      },
    });
    // Dry runs matched: the namespace answered Terminating and read back Active under the same resourceVersion; an
    // invalid value is a 422 naming its options; with a DeleteOptions body, dryRun=All in the query deletes for real.
    expect(real['DELETE namespace, dry run in DeleteOptions']!.text).toMatchObject({
      phase: 'Terminating',
      deletionTimestamp: 'set',
    });
    expect(real['GET namespace after the dry-run DELETE']!.text).toMatchObject({
      phase: 'Active',
      'resourceVersion moved': 'false',
    });
    expect(real['DELETE namespace, dryRun=maybe']).toMatchObject({
      status: 422,
      text: {
        message:
          'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"maybe"}: supported values: "All"',
      },
    });
    expect(real['GET widget after a DELETE with a body and dryRun=All in the query']!.status).toBe(404);
    // Compression matched because both compress the big list and neither the small one nor an unasked one.
    const encodings = (o: Record<string, Observation>) =>
      Object.entries(o)
        .filter(([, v]) => 'content-encoding' in v.text)
        .map(([k, v]) => `${k}: ${v.text['content-encoding']}, vary ${v.text.vary}`);
    expect(encodings(real)).toEqual([
      'LIST over 128 KiB, Accept-Encoding gzip: gzip, vary Accept-Encoding',
      'LIST over 128 KiB, no Accept-Encoding: (none), vary (none)',
      'LIST of one item, Accept-Encoding gzip: (none), vary (none)',
    ]);
    expect(encodings(fake)).toEqual(encodings(real));
  });
});
