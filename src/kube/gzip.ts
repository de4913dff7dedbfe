/** Decoding a gzip response body off the main thread, with a bound: a small hostile body must not explode. */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { messageOf } from '../shared/errors.js';
import { KubeError } from './port.js';
import type { Req } from './request.js';

/** The most a gzip-encoded body may expand to: a small hostile body must not become gigabytes in memory. */
export const MAX_DECODED_BYTES = 128 * 1024 * 1024;

const gunzipAsync = promisify(gunzip);
const DECODE_CHUNK_BYTES = 256 * 1024;

/** A gzip body, decoded; a KubeError when it is not gzip or expands past MAX_DECODED_BYTES. */
export async function decodeGzip(wire: Buffer, req: Req): Promise<Buffer> {
  try {
    // Large output chunks: zlib's default 16 KiB means a dozen main-thread callbacks per list page.
    return await gunzipAsync(wire, { maxOutputLength: MAX_DECODED_BYTES, chunkSize: DECODE_CHUNK_BYTES });
  } catch (err) {
    throw new KubeError(
      `the server's gzip-encoded answer to ${req.verb} ${req.resource ?? req.path} (${wire.byteLength} bytes) cannot be decoded: ${messageOf(err)}`,
      0,
      'UnexpectedServerResponse',
      req.verb,
      req.resource,
    );
  }
}
