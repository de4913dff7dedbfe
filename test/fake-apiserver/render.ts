/** Content negotiation (Accept) and list rendering: full objects, PartialObjectMetadata, Table, pages. */
import { badRequest, expired, notAcceptable } from './errors.js';
import { isRecord } from './meta.js';
import { type ResourceType, apiVersionOf } from './registry.js';
import { toTable } from './table.js';
import type { JsonMap, KObj } from './types.js';

/** What the response body should be. */
export type Output = 'object' | 'yaml' | 'table' | 'meta' | 'metalist';

interface MediaRange {
  type: string;
  params: Record<string, string>;
  q: number;
}

function parseAccept(header: string | undefined): MediaRange[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, i) => {
      const [type = '', ...rest] = part.split(';').map((s) => s.trim());
      const params: Record<string, string> = {};
      for (const p of rest) {
        const eq = p.indexOf('=');
        if (eq > 0) params[p.slice(0, eq).toLowerCase()] = p.slice(eq + 1);
      }
      const q = params.q !== undefined ? Number(params.q) : 1;
      return { type: type.toLowerCase(), params, q, i };
    })
    .filter((r) => r.type && r.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
}

const ACCEPTED =
  'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf';

/** Pick the first acceptable media range; 406 when none is. */
export function negotiate(accept: string | undefined): Output {
  const ranges = parseAccept(accept);
  if (ranges.length === 0) return 'object';
  for (const r of ranges) {
    const as = r.params.as;
    const json = r.type === 'application/json' || r.type === '*/*' || r.type === 'application/*';
    if (as === undefined) {
      if (json) return 'object';
      if (r.type === 'application/yaml') return 'yaml';
      continue;
    }
    if (r.type !== 'application/json' || r.params.g !== 'meta.k8s.io') continue;
    if (r.params.v !== 'v1' && r.params.v !== 'v1beta1') continue;
    if (as === 'Table') return 'table';
    if (as === 'PartialObjectMetadata') return 'meta';
    if (as === 'PartialObjectMetadataList') return 'metalist';
  }
  throw notAcceptable(ACCEPTED);
}

/** Go's %T of the object the apiserver would be transforming. */
function goType(rt: ResourceType, list: boolean): string {
  if (rt.source === 'crd') return list ? '*unstructured.UnstructuredList' : '*unstructured.Unstructured';
  const pkg = rt.group === '' ? 'core' : (rt.group.split('.')[0] ?? rt.group);
  return `*${pkg}.${rt.kind}${list ? 'List' : ''}`;
}

const partial = (o: KObj): JsonMap => ({
  kind: 'PartialObjectMetadata',
  apiVersion: 'meta.k8s.io/v1',
  metadata: o.metadata,
});

/** Body for one object (GET/PUT/PATCH/POST/DELETE responses and watch events). */
export function renderObject(
  rt: ResourceType,
  obj: JsonMap,
  out: Output,
  includeObject: string | null,
): JsonMap {
  if (obj.kind === 'Status' || !isRecord(obj.metadata)) return obj;
  const o = obj as KObj;
  if (out === 'metalist') {
    throw notAcceptable(
      `you requested PartialObjectMetadataList, but the requested object is not a list (${goType(rt, false)})`,
    );
  }
  if (out === 'meta') return partial(o);
  if (out === 'table')
    return toTable(rt, [o], { resourceVersion: o.metadata.resourceVersion }, includeObject);
  return o;
}

interface ContinueToken {
  v: string;
  rv: number;
  start: string;
}

const keyOf = (o: KObj): string => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

function decodeContinue(token: string, compactedRv: number): ContinueToken {
  let t: ContinueToken;
  try {
    t = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as ContinueToken;
  } catch {
    throw badRequest('continue key is not valid: illegal base64 data');
  }
  if (t.v !== 'meta.k8s.io/v1' || typeof t.rv !== 'number' || typeof t.start !== 'string') {
    throw badRequest(
      'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
    );
  }
  if (t.rv < compactedRv) {
    throw expired(
      'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
    );
  }
  return t;
}

export interface ListParams {
  limit?: number;
  continueToken?: string;
  /** Selectors were given (then remainingItemCount is not reported). */
  filtered: boolean;
  includeObject: string | null;
}

/** A list response in the negotiated shape, one page when `limit` is set. */
export function renderList(
  rt: ResourceType,
  all: KObj[],
  currentRv: number,
  compactedRv: number,
  out: Output,
  p: ListParams,
): JsonMap {
  if (out === 'meta') {
    throw notAcceptable(
      `you requested PartialObjectMetadata, but the requested object is a list (${goType(rt, true)})`,
    );
  }
  let rv = currentRv;
  let items = all;
  if (p.continueToken) {
    const t = decodeContinue(p.continueToken, compactedRv);
    rv = t.rv;
    items = items.filter((o) => keyOf(o) > t.start);
  }
  const meta: JsonMap = { resourceVersion: String(rv) };
  if (p.limit && p.limit > 0 && items.length > p.limit) {
    const last = items[p.limit - 1];
    const token: ContinueToken = { v: 'meta.k8s.io/v1', rv, start: `${last ? keyOf(last) : ''}\u0000` };
    meta.continue = Buffer.from(JSON.stringify(token)).toString('base64url');
    if (!p.filtered) meta.remainingItemCount = items.length - p.limit;
    items = items.slice(0, p.limit);
  }
  if (out === 'table') return toTable(rt, items, meta, p.includeObject);
  if (out === 'metalist') {
    return {
      kind: 'PartialObjectMetadataList',
      apiVersion: 'meta.k8s.io/v1',
      metadata: meta,
      items: items.map(partial),
    };
  }
  // Items of built-in lists carry no kind/apiVersion on a real server (custom resources keep theirs).
  const listed = rt.source === 'crd' ? items : items.map(withoutTypeMeta);
  return { kind: `${rt.kind}List`, apiVersion: apiVersionOf(rt), metadata: meta, items: listed };
}

function withoutTypeMeta(o: KObj): KObj {
  const {
    kind: _kind,
    apiVersion: _apiVersion,
    ...rest
  } = o as KObj & { kind?: string; apiVersion?: string };
  return rest as KObj;
}
