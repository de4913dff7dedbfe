/** Reading a response body with a bound on its size, decoded from gzip off the main thread when it is encoded. */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { messageOf } from '../shared/errors.js';
import { KubeError } from './port.js';
import { bodyKind, bodyLimit, mebibytes, urlOf, type Req } from './request.js';

/** zlib's default 16 KiB output chunks would mean a dozen main-thread callbacks per list page. */
const DECODE_CHUNK_BYTES = 256 * 1024;

/** The error for an answer that grew past its bound: it names the request (its continue token aside) and the bound. */
export function tooLarge(req: Req, limit: number, what = 'answer'): KubeError {
  const url = urlOf('', { ...req, query: { ...req.query, continue: undefined } });
  const kind = bodyKind(req);
  return new KubeError(
    `the server's ${what} to ${req.method} ${url} grew past ${mebibytes(limit)}, the most ` +
      `${kind === 'object' ? 'the answer about one object' : `a ${kind}`} may be; it was not read further`,
    0,
    'ResponseTooLarge',
    req.verb,
    req.resource,
  );
}

/**
 * The whole body, read as it arrives and never past `bodyLimit(req)` bytes (decoded, with `gzip`): past that the
 * connection is closed and a KubeError names the request. `onWire` is told each chunk's size as received. A body
 * that is not gzip after all is a KubeError; a connection that breaks is the network's error, as it was.
 */
export async function readBody(
  body: Readable,
  req: Req,
  gzip: boolean,
  onWire: (bytes: number) => void,
): Promise<Buffer> {
  const limit = bodyLimit(req);
  const chunks: Buffer[] = [];
  let wire = 0;
  let size = 0;
  const counted = async function* (source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const chunk of source) {
      wire += chunk.byteLength;
      onWire(chunk.byteLength);
      // Compressed bytes count too: without this an endless gzip stream of nothing would go on until the timeout.
      if (wire > limit) throw tooLarge(req, limit);
      yield chunk;
    }
  };
  const collect = async (source: AsyncIterable<Buffer>): Promise<void> => {
    for await (const chunk of source) {
      size += chunk.byteLength;
      if (size > limit) throw tooLarge(req, limit, gzip ? 'gzip-encoded answer, decoded,' : 'answer');
      chunks.push(chunk);
    }
  };
  try {
    if (gzip) await pipeline(body, counted, createGunzip({ chunkSize: DECODE_CHUNK_BYTES }), collect);
    else await pipeline(body, counted, collect);
  } catch (err) {
    if (err instanceof KubeError || !gzip || !isZlibError(err)) throw err;
    throw new KubeError(
      `the server's gzip-encoded answer to ${req.verb} ${req.resource ?? req.path} (${wire} bytes) cannot be decoded: ${messageOf(err)}`,
      0,
      'UnexpectedServerResponse',
      req.verb,
      req.resource,
    );
  }
  return Buffer.concat(chunks, size);
}

/** Whether `err` comes from zlib (a body that is not gzip), not from the connection. */
function isZlibError(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('Z_');
}
