/**
 * CRD version conversion (apiextensions-apiserver): an object is stored at one version; reading it at another, or
 * writing it when the storage version is another, goes through the CRD's conversion webhook. When that webhook's
 * Service is gone the API server answers 500 with `conversion webhook for <group>/<stored>, Kind=<Kind> failed: …`
 * and no reason (measured on 1.20: test/real/conversion.test.ts). Strategy None converts by rewriting apiVersion.
 */
import { serviceFailure } from './admission.js';
import { ApiError, status } from './errors.js';
import { asRecord } from './meta.js';
import { type ResourceType, CRD_GR } from './registry.js';
import type { Store } from './store.js';
import type { KObj } from './types.js';

const versionOf = (apiVersion: string | undefined): string | undefined => apiVersion?.split('/').at(-1);

function crdOf(store: Store, rt: ResourceType): KObj | undefined {
  return rt.source === 'crd' ? store.get(CRD_GR, '', `${rt.resource}.${rt.group}`) : undefined;
}

/** The version a CRD stores new writes at. */
export function storageVersion(store: Store, rt: ResourceType): string {
  const versions = asRecord(crdOf(store, rt)?.spec).versions;
  const storage = Array.isArray(versions)
    ? versions.map(asRecord).find((v) => v.storage === true)
    : undefined;
  return typeof storage?.name === 'string' ? storage.name : rt.version;
}

/** Throw the API server's error when `obj` (as stored) cannot be converted to version `to`. */
export function convert(store: Store, rt: ResourceType, obj: KObj, to: string): void {
  const from = versionOf(obj.apiVersion);
  if (!from || from === to) return;
  const conversion = asRecord(asRecord(crdOf(store, rt)?.spec).conversion);
  if (conversion.strategy !== 'Webhook') return;
  const client = asRecord(asRecord(conversion.webhook).clientConfig);
  const failure = serviceFailure(store, asRecord(client.service), 30);
  if (failure) {
    throw new ApiError(
      status(500, '', `conversion webhook for ${rt.group}/${from}, Kind=${rt.kind} failed: ${failure}`),
    );
  }
}
