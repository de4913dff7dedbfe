/** The shape of one API request and response, the media types we send, and how a request becomes a URL. */

/** The HTTP methods the adapter uses. */
export type Method = 'GET' | 'DELETE' | 'PATCH' | 'POST' | 'PUT';
/** Query parameters; undefined and empty values are left out of the URL. */
export type Query = Record<string, string | number | undefined>;

/** One request, as the transport sends it. */
export interface Req {
  method: Method;
  /** Path below the server URL, without query. */
  path: string;
  query?: Query;
  accept?: string;
  contentType?: string;
  body?: unknown;
  /** For error messages: `get`, `list`, `watch`, `delete`, `patch`, `update`, `create`. */
  verb: string;
  /** For error messages: `namespaces`, `pods.metrics.k8s.io`, `namespaces/finalize`. */
  resource?: string;
  /** A discovery document, bounded as one (see `bodyLimit`). */
  discovery?: true;
}

/** A response with its body read as text (empty for a stream that is still open). */
export interface Res {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** Plain JSON, the default Accept and Content-Type. */
export const JSON_TYPE = 'application/json';
/** Asks for a metadata-only list (PartialObjectMetadataList). */
export const METADATA_LIST_TYPE = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
/** Asks for metadata-only objects (PartialObjectMetadata), as on a metadata watch. */
export const METADATA_TYPE = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
/** Asks for aggregated discovery (apidiscovery.k8s.io/v2). */
export const AGGREGATED_DISCOVERY_TYPE =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
/** JSON merge patch, for the finalizer patch. */
export const MERGE_PATCH_TYPE = 'application/merge-patch+json';

/**
 * `req` as a dry run (`dryRun=All`): the server runs authorization and admission (webhooks, policies) and answers
 * as it would, but stores nothing. A GET is left as it is; any other method gets `dryRun=All` in its query, and a
 * DELETE with a DeleteOptions body gets `dryRun: ["All"]` in that body too, because the server reads a DELETE's
 * options from its body when it has one and ignores the query then (the DELETE would be real). Pure.
 */
export function asDryRun(req: Req): Req {
  if (req.method === 'GET') return req;
  const b = req.body;
  const options = b !== null && typeof b === 'object' && !Array.isArray(b);
  const body = req.method === 'DELETE' && options ? { ...(b as object), dryRun: ['All'] } : b;
  return { ...req, query: { ...req.query, dryRun: 'All' }, body };
}

/** The full URL of `req` on `server`; empty and undefined query values are left out. */
export function urlOf(server: string, req: Req): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(req.query ?? {}))
    if (v !== undefined && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return `${server}${req.path}${qs ? `?${qs}` : ''}`;
}

const MiB = 1024 * 1024;

/** What an answer is, for its bound: a list page, a discovery document, or one object (a GET of it, a write). */
export type BodyKind = 'list page' | 'discovery document' | 'object';

/**
 * The most an answer of each kind may be, decoded. Pages ask for at most 500 items, and such a page of real objects
 * is a few MiB; etcd stores no object over 1.5 MiB unless told to; a discovery document lists every group, version
 * and kind of a cluster, a few MiB at most. Each bound is many times that, and far below the run's heap.
 */
export const BODY_LIMITS: Readonly<Record<BodyKind, number>> = {
  'list page': 64 * MiB,
  'discovery document': 32 * MiB,
  object: 8 * MiB,
};

/** What the answer to `req` is, for its bound. */
export function bodyKind(req: Req): BodyKind {
  if (req.discovery) return 'discovery document';
  return req.verb === 'list' ? 'list page' : 'object';
}

/** The most the answer to `req` may be, decoded. */
export function bodyLimit(req: Req): number {
  return BODY_LIMITS[bodyKind(req)];
}

/** `1.5 MiB`, `64 MiB`: a byte count for messages. */
export function mebibytes(bytes: number): string {
  return `${Number((bytes / MiB).toFixed(1))} MiB`;
}
