/** Answers that never end: a JSON list whose items keep coming, as fast as the client reads, plain or gzip-encoded. */
import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

/** The start of the list: a NamespaceList whose `items` array is never closed. */
const HEAD = '{"kind":"NamespaceList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[';

/** One item, as a namespace list carries it. */
const ITEM = JSON.stringify({
  metadata: {
    name: 'preview-endless',
    uid: '0f0e0d0c-0b0a-4908-8706-050403020100',
    resourceVersion: '1',
    labels: { preview: 'true' },
  },
  spec: { finalizers: ['kubernetes'] },
  status: { phase: 'Active' },
});

/** 64 KiB of items: what is written each time the socket can take more. */
const PLAIN_CHUNK = Buffer.from(`${ITEM},`.repeat(Math.ceil(65_536 / (ITEM.length + 1))));

/**
 * One gzip member of 1 MiB of items. Members may follow one another (RFC 1952 §2.2) and decode to the concatenation,
 * so a few kilobytes on the wire become a megabyte each: the decoded size grows without bound.
 */
const GZIP_HEAD = gzipSync(HEAD);
const GZIP_CHUNK = gzipSync(`${ITEM},`.repeat(Math.ceil(1_048_576 / (ITEM.length + 1))), { level: 9 });

/**
 * Answer 200 with a list that never ends, each write as soon as the socket drains, until the client goes away.
 * `gzip` sends it with `Content-Encoding: gzip` whatever the client asked for (a bomb: small on the wire, endless
 * once decoded).
 */
export function endlessList(res: ServerResponse, gzip: boolean): void {
  res.writeHead(200, {
    'Content-Type': 'application/json',
    ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
  });
  const chunk = gzip ? GZIP_CHUNK : PLAIN_CHUNK;
  const pump = (): void => {
    while (!res.destroyed && !res.writableEnded && res.write(chunk));
  };
  res.on('drain', pump);
  res.write(gzip ? GZIP_HEAD : HEAD);
  pump();
}
