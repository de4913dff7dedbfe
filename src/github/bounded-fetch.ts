/** A fetch whose answer is read up to a size limit: a larger one is cut off where it passes the limit, never held whole. */

/** Thrown (and carried as the `cause` of Octokit's RequestError) when an answer passes its size limit. */
export class AnswerTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the answer is larger than ${formatBytes(maxBytes)}; not read`);
    this.name = 'AnswerTooLarge';
  }
}

/** `1 MiB`, `16 MiB`, `512 KiB`. */
export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
}

/** Statuses whose answer has no body (a Response built with one throws). */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/**
 * `inner`, with the answer's body read here (decoded, so a compressed answer is bounded by what it unpacks to) and
 * handed on whole in memory only when it is at most `maxBytes`; past that the connection is dropped.
 */
export function boundedFetch(inner: Fetch, maxBytes: number): Fetch {
  return async (url, init) => {
    const res = await inner(url, init);
    if (Number(res.headers.get('content-length')) > maxBytes) {
      await res.body?.cancel().catch(() => undefined);
      throw new AnswerTooLarge(maxBytes);
    }
    const body = res.body ? await readUpTo(res.body, maxBytes) : null;
    return new Response(NO_BODY.has(res.status) ? null : body, {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}

async function readUpTo(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new AnswerTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
