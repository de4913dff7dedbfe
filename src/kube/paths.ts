/** API paths: building them from a resource, and reading `resource[.group]` back out of one. */
import type { ApiResource } from '../model/cluster.js';
import type { Query } from './request.js';

/** A path segment, percent-encoded. */
export function enc(s: string): string {
  return encodeURIComponent(s);
}

/** The collection path of a resource, in `namespace` when given. */
export function resourcePath(
  res: Pick<ApiResource, 'group' | 'version' | 'resource'>,
  namespace?: string,
): string {
  const base = res.group ? `/apis/${res.group}/${res.version}` : `/api/${res.version}`;
  return `${base}${namespace ? `/namespaces/${enc(namespace)}` : ''}/${res.resource}`;
}

/**
 * `kialis.kiali.io` for a group resource, `pods` for a core one: the form kubectl, the API server's error messages and
 * the namespace's conditions use, and so evidence, remedies and the force plan.
 */
export function resourceName(res: Pick<ApiResource, 'group' | 'resource'>): string {
  return res.group ? `${res.resource}.${res.group}` : res.resource;
}

/** Split a path that may carry a query string into the path and its query. */
export function splitPath(path: string): { path: string; query: Query } {
  const i = path.indexOf('?');
  if (i < 0) return { path, query: {} };
  return { path: path.slice(0, i), query: Object.fromEntries(new URLSearchParams(path.slice(i + 1))) };
}

/** `resource[.group]` of an API path, for error messages; undefined for discovery paths. */
export function describePath(path: string): { resource?: string; name?: string } {
  const parts = path.split('/').filter((p) => p !== '');
  let group = '';
  let rest: string[];
  if (parts[0] === 'api') rest = parts.slice(2);
  else if (parts[0] === 'apis') {
    group = parts[1] ?? '';
    rest = parts.slice(3);
  } else return {};
  if (rest.length === 0) return {};
  let resource: string | undefined;
  let name: string | undefined;
  let sub: string | undefined;
  if (
    rest[0] === 'namespaces' &&
    rest.length >= 3 &&
    !(rest.length === 3 && ['finalize', 'status'].includes(rest[2]!))
  ) {
    [resource, name, sub] = rest.slice(2);
  } else {
    [resource, name, sub] = rest;
  }
  if (!resource) return {};
  const full = `${resource}${sub ? `/${sub}` : ''}${group ? `.${group}` : ''}`;
  return { resource: full, ...(name ? { name } : {}) };
}
