/** Pure mapping of failed exchanges to KubeError: error responses, network failures, and their wording. */
import { KubeError } from './port.js';
import { parseJson, rec, str } from './map.js';
import type { Req, Res } from './request.js';
import { CONNECT_CODES } from './retry.js';

/** What a 503 from an unavailable aggregated API says. */
export const UNAVAILABLE = 'the server is currently unable to handle the request';

/** Messages client-go uses when an error response carries no Status. */
const GENERIC_MESSAGES: Record<number, [string, string]> = {
  400: ['BadRequest', 'the server rejected our request for an unknown reason'],
  401: ['Unauthorized', 'Unauthorized'],
  403: ['Forbidden', 'the server does not allow access to the requested resource'],
  404: ['NotFound', 'the server could not find the requested resource'],
  405: ['MethodNotAllowed', 'the server does not allow this method on the requested resource'],
  406: ['NotAcceptable', 'the server was unable to respond with a content type that the client supports'],
  409: ['Conflict', 'the server reported a conflict'],
  410: ['Expired', 'the resource version is too old'],
  415: ['UnsupportedMediaType', 'the server does not support the request content type'],
  422: ['Invalid', 'the server rejected our request due to an error in our request'],
  429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
  500: ['InternalError', 'an error on the server has prevented the request from succeeding'],
  503: ['ServiceUnavailable', UNAVAILABLE],
  504: ['Timeout', 'the server was unable to return a response in the time allotted'],
};

/** Turn an error response into a KubeError: the Status message when there is one, else client-go's wording. */
export function statusError(res: Res, req: Req): KubeError {
  const status = rec(parseJson(res.text));
  if (status.kind === 'Status' && typeof status.message === 'string' && status.message !== '') {
    return new KubeError(status.message, res.status, str(status.reason) || undefined, req.verb, req.resource);
  }
  const [reason, generic] = GENERIC_MESSAGES[res.status] ?? [
    res.status >= 500 ? 'InternalError' : 'Unknown',
    `the server responded with HTTP ${res.status}`,
  ];
  const text = res.text.trim();
  const detail =
    text && res.status >= 500 && res.status !== 503 && text.length <= 200 && !text.startsWith('{')
      ? ` ("${text}")`
      : '';
  const on = req.resource ? ` (${req.verb} ${req.resource})` : ` (${req.verb} ${req.path})`;
  return new KubeError(`${generic}${detail}${on}`, res.status, reason, req.verb, req.resource);
}

/** A request that never got a response, after `tries` attempts, as a KubeError naming the server. */
export function networkError(err: unknown, code: string, tries: number, req: Req, server: string): KubeError {
  const detail = `${causeDetail(err, code)}${tries > 1 ? ` after ${tries} attempts` : ''}`;
  let message: string;
  if (CONNECT_CODES.has(code) || code === 'ENOTFOUND') {
    message = `cannot reach the Kubernetes API server at ${server}: ${detail}`;
  } else if (/CERT|^ERR_TLS|^ERR_SSL|SIGNATURE/.test(code)) {
    message = `TLS with the Kubernetes API server at ${server} failed: ${detail}`;
  } else {
    message = `${req.verb} ${req.resource ?? req.path} on the Kubernetes API server at ${server} failed: ${detail}`;
  }
  return new KubeError(message, 0, code, req.verb, req.resource);
}

/** `CODE (innermost message)`, or just `CODE` when the message adds nothing. */
export function causeDetail(err: unknown, code: string): string {
  const cause = innermostMessage(err);
  return `${code}${cause && cause !== code ? ` (${cause})` : ''}`;
}

/** The first error code found along the cause chain (undici wraps socket errors in `TypeError: fetch failed`). */
export function networkCode(err: unknown): string {
  let e: unknown = err;
  for (let depth = 0; depth < 6 && e; depth++) {
    const o = e as { code?: unknown; name?: unknown; cause?: unknown; errors?: unknown };
    if (typeof o.code === 'string' && o.code !== '') return o.code;
    if (o.name === 'TimeoutError') return 'ETIMEDOUT';
    if (Array.isArray(o.errors) && o.errors.length > 0) {
      const inner = networkCode(o.errors[0]);
      if (inner !== 'UNKNOWN') return inner;
    }
    e = o.cause;
  }
  if ((err as { name?: unknown }).name === 'AbortError') return 'ABORTED';
  return 'UNKNOWN';
}

function innermostMessage(err: unknown): string {
  let e: unknown = err;
  let message = '';
  for (let depth = 0; depth < 6 && e; depth++) {
    const o = e as { message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof o.message === 'string' && o.message !== '' && o.message !== 'fetch failed')
      message = o.message;
    e = o.cause ?? (Array.isArray(o.errors) ? o.errors[0] : undefined);
  }
  return message;
}
