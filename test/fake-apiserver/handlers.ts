/** Resource requests: path parsing (RequestInfo), authorization, and dispatch to the API layer. */
import type { ServerResponse } from 'node:http';
import { authorize } from './admission.js';
import type { Core } from './core.js';
import { deleteCollection, deleteObject, parseDeleteOptions } from './delete.js';
import { badRequest, dryRunOf, methodNotAllowed, routeNotFound } from './errors.js';
import { isRecord } from './meta.js';
import type { ResourceType } from './registry.js';
import { negotiate, renderList, renderObject } from './render.js';
import { exactName, parseFieldSelector, parseLabelSelector } from './selectors.js';
import type { JsonMap, OpContext, OpResult } from './types.js';

/** A parsed resource path (k8s.io/apiserver RequestInfo). */
export interface ResourcePath {
  group: string;
  version: string;
  /** Namespace segment of the URL; for `/namespaces/x[/sub]` it is `x`. */
  ns: string;
  resource: string;
  name: string;
  sub: string;
}

/** Parse the part of a path after `/api/v1` or `/apis/g/v`. */
export function parseResourcePath(group: string, version: string, rest: string[]): ResourcePath | undefined {
  let parts = rest;
  let ns = '';
  if (parts[0] === 'namespaces' && parts.length > 1) {
    ns = parts[1] ?? '';
    if (parts.length > 2 && parts[2] !== 'status' && parts[2] !== 'finalize') parts = parts.slice(2);
  }
  if (parts.length === 0 || parts.length > 3) return undefined;
  return { group, version, ns, resource: parts[0] ?? '', name: parts[1] ?? '', sub: parts[2] ?? '' };
}

export interface ResourceRequest {
  method: string;
  path: ResourcePath;
  query: URLSearchParams;
  accept: string | undefined;
  contentType: string;
  body: unknown;
  res: ServerResponse;
}

/** What the front should send: a JSON body, or nothing (a watch took over the response). */
export type Reply = { code: number; body: JsonMap; headers?: Record<string, string | string[]> } | 'streamed';

const isWatch = (q: URLSearchParams): boolean => ['1', 'true', 'True'].includes(q.get('watch') ?? '');

function verbOf(method: string, p: ResourcePath, q: URLSearchParams): string {
  switch (method) {
    case 'GET':
      return p.name ? 'get' : isWatch(q) ? 'watch' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return p.name ? 'delete' : 'deletecollection';
    default:
      return '';
  }
}

/** The options kind whose dryRun a write's query carries (a DELETE's options are parsed on their own). */
const WRITE_OPTIONS: Record<string, string> = {
  create: 'CreateOptions',
  update: 'UpdateOptions',
  patch: 'PatchOptions',
};

function resolveType(core: Core, p: ResourcePath): ResourceType {
  const rt = core.registry.find(p.group, p.version, p.resource);
  if (!rt) throw routeNotFound();
  const isNamespaceObj = rt.group === '' && rt.resource === 'namespaces';
  if (!rt.namespaced && p.ns && !isNamespaceObj) throw routeNotFound();
  if (p.sub && !rt.subresources.some((s) => s.name === p.sub)) throw routeNotFound();
  return rt;
}

/** Handle a request for a stored type. Throws ApiError for failures. */
export function handleResource(core: Core, r: ResourceRequest): Reply {
  const p = r.path;
  const rt = resolveType(core, p);
  const verb = verbOf(r.method, p, r.query);
  const isNamespaceObj = rt.group === '' && rt.resource === 'namespaces';
  const allowed = p.sub ? (rt.subresources.find((s) => s.name === p.sub)?.verbs ?? []) : rt.verbs;
  if (!verb || !allowed.includes(verb) || (verb === 'create' && p.name)) throw methodNotAllowed();
  const fields = parseFieldSelector(r.query.get('fieldSelector'), rt.kind);
  const labels = parseLabelSelector(r.query.get('labelSelector'));
  const name = p.name || (verb === 'list' || verb === 'watch' ? exactName(fields) : '');
  authorize(
    { verb, group: rt.group, resource: rt.resource, sub: p.sub, namespace: p.ns, name },
    core.denyRules,
  );

  // For the namespace type the URL namespace is the object's own name; storage is cluster-scoped.
  const ns = isNamespaceObj ? '' : p.ns;
  const scope = rt.namespaced && p.ns ? p.ns : undefined;
  // A write's dryRun is validated with its options before anything else happens to it; a DELETE's come from its body.
  const options = WRITE_OPTIONS[verb];
  const ctx: OpContext = { dryRun: options ? dryRunOf(r.query, options) : false, warnings: [] };
  const includeObject = r.query.get('includeObject');
  const out = negotiate(r.accept);
  const reply = (res: OpResult): Reply => ({
    code: res.code,
    body: renderObject(rt, res.body, out, includeObject),
    headers: ctx.warnings.length
      ? { Warning: ctx.warnings.map((w) => `299 - ${JSON.stringify(w)}`) }
      : undefined,
  });
  const bodyMap = (): JsonMap => {
    if (!isRecord(r.body)) throw badRequest("Object 'Kind' is missing in 'null'");
    return r.body;
  };
  const fieldValidation = r.query.get('fieldValidation') ?? '';

  switch (verb) {
    case 'get':
      return reply({ code: 200, body: core.api.get(rt, ns, p.name) });
    case 'list':
    case 'watch': {
      if (verb === 'watch' || isWatch(r.query)) {
        const rvParam = r.query.get('resourceVersion') ?? '';
        if (rvParam !== '' && !/^\d+$/.test(rvParam))
          throw badRequest(`invalid resource version: ${rvParam}`);
        core.hub.start(
          {
            rt,
            ns: scope,
            labels,
            fields,
            resourceVersion: rvParam,
            timeoutSeconds: r.query.has('timeoutSeconds') ? Number(r.query.get('timeoutSeconds')) : undefined,
            bookmarks: r.query.get('allowWatchBookmarks') === 'true',
            sendInitialEvents: r.query.get('sendInitialEvents') === 'true',
            out,
            includeObject,
          },
          r.res,
        );
        return 'streamed';
      }
      const items = core.api.list(rt, scope, { labels, fields });
      const limit = Number(r.query.get('limit') ?? 0);
      const body = renderList(rt, items, core.store.currentRv(), core.store.compactedRv, out, {
        limit: Number.isFinite(limit) ? limit : 0,
        continueToken: r.query.get('continue') ?? undefined,
        filtered: labels.length > 0 || fields.length > 0,
        includeObject,
      });
      return { code: 200, body };
    }
    case 'create':
      if (!p.ns && rt.namespaced) throw routeNotFound();
      return reply(core.api.create(rt, p.ns, bodyMap(), ctx, fieldValidation));
    case 'update':
      return reply(core.api.update(rt, ns, p.name, p.sub, bodyMap(), ctx, fieldValidation));
    case 'patch':
      return reply(core.api.patch(rt, ns, p.name, p.sub, r.contentType, r.body, ctx));
    case 'delete': {
      const o = parseDeleteOptions(r.query, r.body);
      return reply(deleteObject(core.api, rt, ns, p.name, o, { ...ctx, dryRun: o.dryRun }));
    }
    case 'deletecollection': {
      const o = parseDeleteOptions(r.query, r.body);
      return reply(
        deleteCollection(core.api, rt, scope, o, { labels, fields }, { ...ctx, dryRun: o.dryRun }),
      );
    }
    default:
      throw methodNotAllowed();
  }
}
