/**
 * Answers that never end, read by the bundle (node dist/index.js): each is cut at its bound with an error naming the
 * request, and the run still ends with a summary, outputs and a report, long before its deadline.
 */
import { jest } from '@jest/globals';
import { FakeCluster } from '../fake-apiserver/index.js';
import { FAST, runBundle } from '../helpers/harness.js';

jest.setTimeout(90_000);

const MiB = 1024 * 1024;
/** A list page may be 64 MiB; what the server sends past that is what its socket had buffered when it was closed. */
const PAGE = 64 * MiB;
const LIST = /^\/api\/v1\/namespaces$/;

describe('an answer past its bound is cut there (node dist/index.js)', () => {
  let cluster: FakeCluster;
  let kubeconfig: string;
  beforeEach(async () => {
    cluster = new FakeCluster({ controller: FAST });
    cluster.addNamespace('pr-1', { labels: { preview: 'true' } });
    ({ kubeconfig } = await cluster.start());
  });
  afterEach(() => cluster.stop());

  /** Bytes the server sent for the requests that match. */
  const sent = (path: RegExp): number =>
    cluster.requests.filter((r) => path.test(r.path)).reduce((n, r) => n + r.bytesOut, 0);

  test('a namespace list whose items never end: an error naming the request, and a report', async () => {
    cluster.misbehaveNext({ method: 'GET', path: LIST, query: /labelSelector=/ }, 'endless-body');
    const run = await runBundle({ selector: 'preview=true', kubeconfig, timeout: '30s' });
    expect(run.outputs.result).toBe('error');
    expect(run.report?.error).toBe(
      'listing namespaces by selector "preview=true" failed: the server\'s answer to GET ' +
        '/api/v1/namespaces?labelSelector=preview%3Dtrue&limit=500 grew past 64 MiB, the most a list page may be; ' +
        'it was not read further',
    );
    expect(run.summary).toContain('grew past 64 MiB');
    expect(run.summary.match(/^## /gm)).toHaveLength(1);
    // Read up to the bound, then the connection closed: the server stopped writing near it.
    expect(sent(LIST)).toBeGreaterThan(PAGE);
    expect(sent(LIST)).toBeLessThan(PAGE + 16 * MiB);
    // Nothing was deleted: no target was known.
    expect(cluster.namespace('pr-1')?.metadata.deletionTimestamp).toBeUndefined();
  });

  test('a gzip bomb: the decoded bytes count, so a few KiB on the wire end the read', async () => {
    cluster.misbehaveNext({ method: 'GET', path: LIST, query: /labelSelector=/ }, 'gzip-bomb');
    const run = await runBundle({ selector: 'preview=true', kubeconfig, timeout: '30s' });
    expect(run.outputs.result).toBe('error');
    expect(run.report?.error).toMatch(
      /the server's gzip-encoded answer, decoded, to GET \/api\/v1\/namespaces\?labelSelector=preview%3Dtrue&limit=500 grew past 64 MiB/,
    );
    // 64 MiB decoded is about 230 KiB of these members; what the sockets had buffered comes on top. The wire alone
    // stays far below the bound: it was the decoded bytes that ended the read.
    expect(sent(LIST)).toBeLessThan(16 * MiB);
  });

  test('a GET of one namespace that never ends: that target is an error, cut at 8 MiB', async () => {
    cluster.misbehaveNext({ method: 'GET', path: /^\/api\/v1\/namespaces\/pr-1$/ }, 'endless-body');
    const run = await runBundle({ namespaces: 'pr-1', kubeconfig, timeout: '30s' });
    expect(run.outputs.result).toBe('error');
    expect(run.report?.targets.map((t) => [t.name, t.outcome])).toEqual([['pr-1', 'error']]);
    expect(run.report?.targets[0]?.note).toBe(
      "reading the namespace failed: the server's answer to GET /api/v1/namespaces/pr-1 grew past 8 MiB, the most " +
        'the answer about one object may be; it was not read further',
    );
    expect(sent(/^\/api\/v1\/namespaces\/pr-1$/)).toBeLessThan(8 * MiB + 16 * MiB);
  });

  test('a discovery answer that never ends: cut at 32 MiB, said in the report, and the namespace still goes', async () => {
    cluster.misbehaveNext({ method: 'GET', path: /^\/apis$/ }, 'endless-body', Infinity);
    const run = await runBundle({ namespaces: 'pr-1', kubeconfig, timeout: '30s' });
    expect(run.report?.targets.map((t) => [t.name, t.outcome])).toEqual([['pr-1', 'gone']]);
    expect(JSON.stringify(run.report)).toContain(
      "the server's answer to GET /apis grew past 32 MiB, the most a discovery document may be",
    );
    const reads = cluster.requests.filter((r) => r.path === '/apis');
    expect(reads.length).toBeGreaterThan(0);
    for (const r of reads) expect(r.bytesOut).toBeLessThan(32 * MiB + 16 * MiB);
  });
});
