/**
 * The writes of the port: DELETE of a namespace, a pod or one namespaced object, the finalizer and spec patches, and
 * the `/finalize` PUT. Each returns what the server's answer shows, never what was sent.
 */
import { deleteAnswer, writeAnswer } from './answers.js';
import { KubeError, type DeleteAnswer, type WriteAnswer } from './port.js';
import { type ApiResource } from '../model/cluster.js';
import { rec, str, type Obj } from './map.js';
import { enc, resourceName, resourcePath } from './paths.js';
import { getNamespaceObject } from './reads.js';
import { MERGE_PATCH_TYPE, type Req } from './request.js';
import type { Transport } from './transport.js';

type Guard = { uid: string; resourceVersion: string };

/** Send a write: the object its answer shows, 404 → 'gone', anything else → KubeError. */
async function write(t: Transport, req: Req): Promise<WriteAnswer | 'gone'> {
  const body = await t.requestJson(req, true);
  return body === undefined ? 'gone' : writeAnswer(body, req);
}

/** A DELETE with its DeleteOptions body: what its answer shows, 404 → `gone`. */
async function deleteWith(
  t: Transport,
  target: { path: string; resource: string },
  options: Record<string, unknown>,
): Promise<DeleteAnswer | 'gone'> {
  const req: Req = {
    method: 'DELETE',
    ...target,
    body: { kind: 'DeleteOptions', apiVersion: 'v1', ...options },
    verb: 'delete',
  };
  const body = await t.requestJson(req, true);
  return body === undefined ? 'gone' : deleteAnswer(body, req);
}

/** DELETE a namespace with Background propagation, guarded by its UID when given. */
export async function deleteNamespace(
  t: Transport,
  name: string,
  o?: { uid?: string },
): Promise<DeleteAnswer | 'gone'> {
  const target = { path: `/api/v1/namespaces/${enc(name)}`, resource: 'namespaces' };
  const guard = o?.uid ? { preconditions: { uid: o.uid } } : {};
  return deleteWith(t, target, { propagationPolicy: 'Background', ...guard });
}

/** DELETE one namespaced object with Background propagation, only if it still has `uid` (and `resourceVersion`, when given). */
export async function deleteObject(
  t: Transport,
  res: Pick<ApiResource, 'group' | 'version' | 'resource'>,
  namespace: string,
  name: string,
  guard: { uid: string; resourceVersion?: string },
): Promise<DeleteAnswer | 'gone'> {
  const target = { path: `${resourcePath(res, namespace)}/${enc(name)}`, resource: resourceName(res) };
  const version = guard.resourceVersion ? { resourceVersion: guard.resourceVersion } : {};
  const options = { propagationPolicy: 'Background', preconditions: { uid: guard.uid, ...version } };
  return deleteWith(t, target, options);
}

/** DELETE a pod at once (`gracePeriodSeconds: 0`), only if it still has `uid`: no kubelet confirmation. */
export async function deletePod(
  t: Transport,
  namespace: string,
  name: string,
  uid: string,
): Promise<DeleteAnswer | 'gone'> {
  const target = { path: `/api/v1/namespaces/${enc(namespace)}/pods/${enc(name)}`, resource: 'pods' };
  return deleteWith(t, target, { gracePeriodSeconds: 0, preconditions: { uid } });
}

/** Replace an object's `metadata.finalizers` with a merge patch guarded by uid and resourceVersion. */
export async function patchFinalizers(
  t: Transport,
  res: Pick<ApiResource, 'group' | 'version' | 'resource'>,
  namespace: string | undefined,
  name: string,
  guard: Guard,
  finalizers: string[],
): Promise<WriteAnswer | 'gone'> {
  const req: Req = {
    method: 'PATCH',
    path: `${resourcePath(res, namespace)}/${enc(name)}`,
    contentType: MERGE_PATCH_TYPE,
    body: { metadata: { uid: guard.uid, resourceVersion: guard.resourceVersion, finalizers } },
    verb: 'patch',
    resource: resourceName(res),
  };
  return write(t, req);
}

/** Merge `spec` into an object's spec with a merge patch guarded by uid and resourceVersion. */
export async function patchSpec(
  t: Transport,
  res: Pick<ApiResource, 'group' | 'version' | 'resource'>,
  namespace: string,
  name: string,
  guard: Guard,
  spec: Record<string, unknown>,
): Promise<WriteAnswer | 'gone'> {
  const req: Req = {
    method: 'PATCH',
    path: `${resourcePath(res, namespace)}/${enc(name)}`,
    contentType: MERGE_PATCH_TYPE,
    body: { metadata: { uid: guard.uid, resourceVersion: guard.resourceVersion }, spec },
    verb: 'patch',
    resource: resourceName(res),
  };
  return write(t, req);
}

/** Re-read the namespace, check its UID, and PUT it to `/finalize` with the given spec.finalizers. */
export async function finalizeNamespace(
  t: Transport,
  name: string,
  guard: Guard,
  specFinalizers: string[],
): Promise<WriteAnswer | 'gone'> {
  const current = await getNamespaceObject(t, name);
  if (current === undefined) return 'gone';
  const obj = rec(current);
  const metadata = rec(obj.metadata);
  if (metadata.uid !== guard.uid) {
    throw new KubeError(
      `Operation cannot be fulfilled on namespaces "${name}": uid changed (expected ${guard.uid}, found ${str(metadata.uid) ?? 'none'})`,
      409,
      'Conflict',
      'update',
      'namespaces/finalize',
    );
  }
  const req: Req = {
    method: 'PUT',
    path: `/api/v1/namespaces/${enc(name)}/finalize`,
    body: finalizeBody(obj, metadata, guard, specFinalizers),
    verb: 'update',
    resource: 'namespaces/finalize',
  };
  return write(t, req);
}

function finalizeBody(obj: Obj, metadata: Obj, guard: Guard, specFinalizers: string[]): Obj {
  return {
    ...obj,
    kind: 'Namespace',
    apiVersion: 'v1',
    metadata: { ...metadata, resourceVersion: guard.resourceVersion },
    spec: { ...rec(obj.spec), finalizers: specFinalizers },
  };
}
