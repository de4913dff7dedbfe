/** The GETs of the port: namespaces, metadata-only lists, and raw objects for the diagnosis. */
import { KubeError, type MetaPage } from './port.js';
import { type ApiResource, type NamespaceState } from '../model/cluster.js';
import { arr, continueOf, mapMeta, mapNamespace, rec, str } from './map.js';
import { describePath, enc, resourceName, resourcePath, splitPath } from './paths.js';
import { JSON_TYPE, METADATA_LIST_TYPE } from './request.js';
import type { Transport } from './transport.js';

/** The raw Namespace object, or undefined when it does not exist. */
export async function getNamespaceObject(t: Transport, name: string): Promise<unknown> {
  return t.requestJson(
    { method: 'GET', path: `/api/v1/namespaces/${enc(name)}`, verb: 'get', resource: 'namespaces' },
    true,
  );
}

/** One namespace, or undefined when it does not exist. */
export async function getNamespace(t: Transport, name: string): Promise<NamespaceState | undefined> {
  const obj = await getNamespaceObject(t, name);
  return obj === undefined ? undefined : mapNamespace(obj);
}

/** Every namespace matching `labelSelector`, following `continue` tokens. */
export async function listNamespaces(t: Transport, labelSelector: string): Promise<NamespaceState[]> {
  const out: NamespaceState[] = [];
  await pageNamespaces(t, labelSelector, (items) => out.push(...items));
  return out;
}

/** Every namespace, page by page into `onPage`; the list's resourceVersion (that of its first page). */
export async function listAllNamespaces(
  t: Transport,
  onPage: (items: NamespaceState[]) => void,
): Promise<string> {
  return pageNamespaces(t, undefined, onPage);
}

/** The pages of a namespace list, following `continue` tokens; resolves to the first page's resourceVersion. */
async function pageNamespaces(
  t: Transport,
  labelSelector: string | undefined,
  onPage: (items: NamespaceState[]) => void,
): Promise<string> {
  const seen = new Set<string>();
  let cont: string | undefined;
  let resourceVersion: string | undefined;
  do {
    const list = rec(
      await t.requestJson({
        method: 'GET',
        path: '/api/v1/namespaces',
        query: { labelSelector, limit: 500, continue: cont },
        verb: 'list',
        resource: 'namespaces',
      }),
    );
    resourceVersion ??= str(rec(list.metadata).resourceVersion);
    onPage(arr(list.items).map(mapNamespace));
    cont = continueOf(list) || undefined;
    // A server that repeats a token would page forever: that is an error, not a longer list.
    if (cont !== undefined && seen.has(cont)) {
      throw new KubeError(
        `the server repeated the continue token of the namespace list after ${seen.size} page(s); stopped paging`,
        0,
        'UnexpectedServerResponse',
        'list',
        'namespaces',
      );
    }
    if (cont !== undefined) seen.add(cont);
  } while (cont);
  return resourceVersion ?? '';
}

/** One page of a metadata-only list. */
export async function listMetadata(
  t: Transport,
  res: Pick<ApiResource, 'group' | 'version' | 'resource'>,
  o: { namespace?: string; limit?: number; continue?: string; labelSelector?: string },
): Promise<MetaPage> {
  const list = rec(
    await t.requestJson({
      method: 'GET',
      path: resourcePath(res, o.namespace),
      query: { limit: o.limit, continue: o.continue, labelSelector: o.labelSelector },
      // Falls back to full objects if an aggregated API ignores the transformation; the mapping reads metadata.
      accept: `${METADATA_LIST_TYPE},${JSON_TYPE}`,
      verb: 'list',
      resource: resourceName(res),
    }),
  );
  const cont = continueOf(list);
  const rv = str(rec(list.metadata).resourceVersion);
  return {
    items: arr(list.items).map(mapMeta),
    ...(cont ? { continue: cont } : {}),
    ...(rv ? { resourceVersion: rv } : {}),
  };
}

/** One page of full objects at an API path (which may carry its own query). */
export async function listRaw(
  t: Transport,
  path: string,
  o?: { limit?: number; continue?: string },
): Promise<{ items: unknown[]; continue?: string }> {
  const { path: p, query } = splitPath(path);
  const list = rec(
    await t.requestJson({
      method: 'GET',
      path: p,
      query: { ...query, limit: o?.limit, continue: o?.continue },
      verb: 'list',
      resource: describePath(p).resource,
    }),
  );
  const cont = continueOf(list);
  return { items: arr(list.items), ...(cont ? { continue: cont } : {}) };
}

/** The object at an API path, or undefined when it does not exist. */
export async function getRaw(t: Transport, path: string): Promise<unknown> {
  const { path: p, query } = splitPath(path);
  return t.requestJson(
    { method: 'GET', path: p, query, verb: 'get', resource: describePath(p).resource },
    true,
  );
}
