/** The API layer shared by HTTP handlers and in-process controllers: get, list, create, update, patch. */
import { type WebhookProbe, lifecycle } from './admission.js';
import { callWebhooks, mutateByWebhooks } from './webhooks.js';
import { convert, storageVersion } from './conversion.js';
import { policyDenied, policyMatches, type DenialRule, type PolicyDenial } from './denials.js';
import { CLIENT_USER } from './admission.js';
import { admissionDenial, type AdmissionPolicy } from './policies.js';
import {
  type FieldError,
  alreadyExists,
  badRequest,
  conflict,
  goQuote,
  goStringSlice,
  invalid,
  notFound,
  OPTIMISTIC_LOCK,
  unsupportedMediaType,
} from './errors.js';
import {
  asRecord,
  clone,
  dnsLabelErrors,
  dnsSubdomainErrors,
  finalizerErrors,
  goTime,
  isoSeconds,
  isRecord,
  newUid,
  normalize,
  randomSuffix,
  stableJson,
} from './meta.js';
import {
  JSON_PATCH,
  jsonPatch,
  MERGE_PATCH,
  mergePatch,
  STRATEGIC_PATCH,
  strategicMergePatch,
} from './patch.js';
import { type ResourceType, apiVersionOf, grOf } from './registry.js';
import { type FieldTerm, type LabelSelector, matchesFields, matchesLabels } from './selectors.js';
import type { Store } from './store.js';
import { type Strategy, strategyFor } from './strategy.js';
import { pruneNamespaceFields } from './schema.js';
import type { JsonMap, KObj, KubeVersion, OpContext, OpResult } from './types.js';

export interface Selectors {
  labels: LabelSelector;
  fields: FieldTerm[];
}

/** The fields of a request body that decide which object it addresses. */
function checkTypeMeta(rt: ResourceType, body: JsonMap): void {
  const want = apiVersionOf(rt);
  if (body.apiVersion !== undefined && body.apiVersion !== want) {
    throw badRequest(
      `the API version in the data (${String(body.apiVersion)}) does not match the expected API version (${want})`,
    );
  }
  if (body.kind !== undefined && body.kind !== rt.kind) {
    throw badRequest(`${String(body.kind)} in version "${rt.version}" cannot be handled as a ${rt.kind}`);
  }
}

/** Name validation on create: namespaces are DNS labels, CRs path segments, other types DNS subdomains. */
function nameErrors(rt: ResourceType, name: string): FieldError[] {
  let msgs: string[];
  if (rt.resource === 'namespaces' && rt.group === '') msgs = dnsLabelErrors(name);
  else if (rt.source === 'crd')
    msgs = /[/%]/.test(name) || name === '.' || name === '..' ? ["may not contain '/'"] : [];
  else msgs = dnsSubdomainErrors(name);
  return msgs.map((detail) => ({ type: 'Invalid', field: 'metadata.name', value: goQuote(name), detail }));
}

function finalizerNameErrors(rt: ResourceType, obj: KObj): FieldError[] {
  const fin = obj.metadata.finalizers ?? [];
  const errs = fin.flatMap((f, i) =>
    finalizerErrors(f, `metadata.finalizers[${i}]`, rt.source === 'builtin'),
  );
  if (fin.includes('orphan') && fin.includes('foregroundDeletion')) {
    errs.push({
      type: 'Invalid',
      field: 'metadata.finalizers',
      value: goStringSlice(fin),
      detail: 'finalizer orphan and foregroundDeletion cannot be both set',
    });
  }
  return errs;
}

/** ObjectMeta update checks; real servers run them twice (common fields + strategy), so causes repeat. */
function metaUpdateErrors(rt: ResourceType, next: KObj, old: KObj): FieldError[] {
  const upd: FieldError[] = [];
  const n = next.metadata;
  const o = old.metadata;
  if (o.deletionTimestamp) {
    const added = [...new Set((n.finalizers ?? []).filter((f) => !(o.finalizers ?? []).includes(f)))].sort();
    if (added.length) {
      upd.push({
        type: 'Forbidden',
        field: 'metadata.finalizers',
        detail: `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(added)}`,
      });
    }
  }
  if (n.uid !== o.uid)
    upd.push({ type: 'Invalid', field: 'metadata.uid', value: goQuote(n.uid), detail: 'field is immutable' });
  if (!o.deletionTimestamp && n.deletionTimestamp) {
    upd.push({
      type: 'Invalid',
      field: 'metadata.deletionTimestamp',
      value: goTime(n.deletionTimestamp),
      detail: 'field is immutable',
    });
  }
  return [...finalizerNameErrors(rt, next), ...upd, ...upd];
}

/** Go's generic.ShouldDeleteDuringUpdate: no finalizers left on an object whose deletion is due. */
function dueForDeletion(next: KObj, old: KObj): boolean {
  const grace = old.metadata.deletionGracePeriodSeconds;
  return (
    (next.metadata.finalizers ?? []).length === 0 &&
    Boolean(old.metadata.deletionTimestamp) &&
    (grace === undefined || grace === 0)
  );
}

export class ObjectApi {
  /** ValidatingAdmissionPolicies that deny (set by denyByPolicy), checked before the validating webhooks. */
  readonly policies: DenialRule<PolicyDenial>[] = [];

  constructor(
    readonly store: Store,
    readonly version: KubeVersion,
    readonly probe: WebhookProbe,
  ) {}

  /** ValidatingAdmissionPolicies loaded from YAML (addAdmissionPolicy), evaluated on every write. */
  readonly admissionPolicies: AdmissionPolicy[] = [];

  /** The ValidatingAdmissionPolicy admission step: the first matching policy that applies denies. */
  admitPolicies(
    op: 'CREATE' | 'UPDATE' | 'DELETE',
    rt: ResourceType,
    obj: KObj | undefined,
    at: { ctx?: OpContext; sub?: string; old?: KObj } = {},
  ): void {
    const hit = this.policies.find((p) => policyMatches(p.denial, op, rt) && (p.applies?.(obj) ?? true));
    if (hit && op === 'DELETE') throw policyDenied(rt, obj, hit.denial);
    this.admitLoaded(op, rt, obj, at);
  }

  /** The policies loaded from YAML (`addAdmissionPolicy`), their CEL evaluated; `admitPolicies` runs them after its own. */
  admitLoaded(
    op: 'CREATE' | 'UPDATE' | 'DELETE',
    rt: ResourceType,
    obj: KObj | undefined,
    at: { ctx?: OpContext; sub?: string; old?: KObj } = {},
  ): void {
    const subject = obj ?? at.old;
    const isNamespace = rt.group === '' && rt.resource === 'namespaces';
    const namespace = isNamespace
      ? (subject?.metadata.name ?? '')
      : rt.namespaced
        ? (subject?.metadata.namespace ?? '')
        : '';
    const labelsOf = (name: string): Record<string, string> =>
      (isNamespace ? subject : this.store.get('namespaces', '', name))?.metadata.labels ?? {};
    for (const p of this.admissionPolicies) {
      const denied = admissionDenial(p, {
        operation: op,
        rt,
        subResource: at.sub ?? '',
        namespace,
        name: subject?.metadata.name ?? '',
        user: at.ctx?.user ?? CLIENT_USER,
        object: op === 'DELETE' ? undefined : obj,
        oldObject: op === 'DELETE' ? obj : at.old,
        namespaceLabels: namespace ? labelsOf(namespace) : undefined,
      });
      if (denied) throw denied;
    }
  }

  strategy(rt: ResourceType): Strategy {
    return strategyFor(rt, this.version);
  }

  get(rt: ResourceType, ns: string, name: string): KObj {
    const o = this.store.get(grOf(rt), rt.namespaced ? ns : '', name);
    if (!o) throw notFound(rt.resource, rt.group, name);
    convert(this.store, rt, o, rt.version);
    return o;
  }

  /** `ns` undefined lists across namespaces; every item must convert to the version asked for. */
  list(rt: ResourceType, ns: string | undefined, sel: Selectors): KObj[] {
    const items = this.store
      .list(grOf(rt), rt.namespaced ? ns : undefined)
      .filter((o) => matchesLabels(sel.labels, o.metadata.labels) && matchesFields(sel.fields, o));
    for (const o of items) convert(this.store, rt, o, rt.version);
    return items;
  }

  /** A write stores the object at the CRD's storage version: that conversion must work too. */
  toStorage(rt: ResourceType, stored: KObj): void {
    convert(this.store, rt, stored, storageVersion(this.store, rt));
  }

  create(rt: ResourceType, ns: string, bodyIn: JsonMap, ctx: OpContext, fieldValidation = ''): OpResult {
    checkTypeMeta(rt, bodyIn);
    const body = rt.kind === 'Namespace' ? pruneNamespaceFields(bodyIn, fieldValidation, ctx) : bodyIn;
    const meta = asRecord(body.metadata);
    if (rt.namespaced && meta.namespace !== undefined && meta.namespace !== '' && meta.namespace !== ns) {
      throw badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    }
    if (meta.resourceVersion) throw badRequest('resourceVersion should not be set on objects to be created');
    const generateName = typeof meta.generateName === 'string' ? meta.generateName : '';
    let name = typeof meta.name === 'string' ? meta.name : '';
    lifecycle(this.store, 'CREATE', rt, ns, name || generateName);
    if (!name && generateName) name = generateName + randomSuffix();
    const built = normalize({
      ...body,
      kind: rt.kind,
      apiVersion: apiVersionOf(rt),
      metadata: {
        ...meta,
        name,
        namespace: rt.namespaced ? ns : undefined,
        uid: newUid(),
        creationTimestamp: isoSeconds(),
        resourceVersion: '',
        generation: rt.generation ? 1 : undefined,
        deletionTimestamp: undefined,
        deletionGracePeriodSeconds: undefined,
      },
    });
    const obj = name ? mutateByWebhooks(this.store, this.probe, 'CREATE', rt, '', built) : built;
    this.strategy(rt).prepareForCreate(obj);
    const errs: FieldError[] = name
      ? [
          ...nameErrors(rt, name),
          ...finalizerNameErrors(rt, obj),
          ...this.strategy(rt).validate(obj, undefined, ''),
        ]
      : [{ type: 'Required', field: 'metadata.name', detail: 'name or generateName is required' }];
    if (errs.length) throw invalid(rt.kind, rt.group, name, errs);
    this.admitPolicies('CREATE', rt, obj, { ctx });
    callWebhooks(this.store, this.probe, 'CREATE', rt, '', 'validating', obj);
    const existing = this.store.get(grOf(rt), ns, name);
    if (existing)
      throw alreadyExists(rt.resource, rt.group, name, Boolean(existing.metadata.deletionTimestamp));
    const out = normalize(obj);
    if (ctx.dryRun) return { code: 201, body: out };
    return { code: 201, body: this.store.create(grOf(rt), out) };
  }

  /** PUT of the main resource or a subresource (`status`, `finalize`). */
  update(
    rt: ResourceType,
    ns: string,
    name: string,
    sub: string,
    bodyIn: JsonMap,
    ctx: OpContext,
    fieldValidation = '',
  ): OpResult {
    checkTypeMeta(rt, bodyIn);
    const body = rt.kind === 'Namespace' ? pruneNamespaceFields(bodyIn, fieldValidation, ctx) : bodyIn;
    const meta = asRecord(body.metadata);
    const bodyName = typeof meta.name === 'string' ? meta.name : '';
    if (bodyName !== name) {
      throw badRequest(`the name of the object (${bodyName}) does not match the name on the URL (${name})`);
    }
    if (rt.namespaced && meta.namespace !== undefined && meta.namespace !== '' && meta.namespace !== ns) {
      throw badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    }
    const old = this.get(rt, ns, name);
    const next = normalize({
      ...body,
      kind: rt.kind,
      apiVersion: apiVersionOf(rt),
      metadata: { ...meta, namespace: rt.namespaced ? ns : undefined },
    });
    return this.commit(rt, old, next, sub, ctx);
  }

  patch(
    rt: ResourceType,
    ns: string,
    name: string,
    sub: string,
    contentType: string,
    patch: unknown,
    ctx: OpContext,
  ): OpResult {
    const types =
      rt.source === 'crd' ? [JSON_PATCH, MERGE_PATCH] : [JSON_PATCH, MERGE_PATCH, STRATEGIC_PATCH];
    if (!types.includes(contentType)) throw unsupportedMediaType([...types, 'application/apply-patch+yaml']);
    const old = this.get(rt, ns, name);
    let patched: unknown;
    if (contentType === JSON_PATCH) patched = jsonPatch(old, patch);
    else if (!isRecord(patch)) throw badRequest('Invalid JSON Patch');
    else if (contentType === MERGE_PATCH) patched = mergePatch(old, patch);
    else patched = strategicMergePatch(old, patch);
    const next = normalize({ ...asRecord(patched), kind: rt.kind, apiVersion: apiVersionOf(rt) });
    if (next.metadata.name !== name) {
      throw badRequest(
        `the name of the object (${next.metadata.name ?? ''}) does not match the name on the URL (${name})`,
      );
    }
    return this.commit(rt, old, next, sub, ctx);
  }

  /**
   * The storage half of an update: mutating admission, optimistic lock, BeforeUpdate, validation, validating
   * admission, delete-on-empty-finalizers; an object that comes out identical is not written (no new RV).
   */
  commit(rt: ResourceType, old: KObj, request: KObj, sub: string, ctx: OpContext): OpResult {
    const st = this.strategy(rt);
    const nextIn = mutateByWebhooks(this.store, this.probe, 'UPDATE', rt, sub, request, old);
    const name = old.metadata.name;
    const rv = nextIn.metadata.resourceVersion;
    if (!rv && rt.source === 'crd') {
      throw invalid(rt.resource, rt.group, name, [
        {
          type: 'Invalid',
          field: 'metadata.resourceVersion',
          value: '0',
          detail: 'must be specified for an update',
        },
      ]);
    }
    if (rv && rv !== old.metadata.resourceVersion)
      throw conflict(rt.resource, rt.group, name, OPTIMISTIC_LOCK);
    this.toStorage(rt, old);
    let next = clone(nextIn);
    next.metadata.resourceVersion = old.metadata.resourceVersion;
    next.metadata.generation = old.metadata.generation;
    next = st.prepareForUpdate(next, old, sub);
    const m = next.metadata;
    if (!m.uid) m.uid = old.metadata.uid;
    m.creationTimestamp = old.metadata.creationTimestamp;
    if (old.metadata.deletionTimestamp) m.deletionTimestamp = old.metadata.deletionTimestamp;
    if (m.deletionGracePeriodSeconds === undefined)
      m.deletionGracePeriodSeconds = old.metadata.deletionGracePeriodSeconds;
    if (rt.generation && sub === '' && stableJson(next.spec) !== stableJson(old.spec)) {
      m.generation = (old.metadata.generation ?? 0) + 1;
    }
    next = normalize(next);
    const errs = [...metaUpdateErrors(rt, next, old), ...st.validate(next, old, sub)];
    if (errs.length) throw invalid(rt.kind, rt.group, name, errs);
    this.admitPolicies('UPDATE', rt, next, { ctx, sub, old });
    callWebhooks(this.store, this.probe, 'UPDATE', rt, sub, 'validating', next, old);
    const gr = grOf(rt);
    if (dueForDeletion(next, old) && st.mayDeleteDuringUpdate(next)) {
      if (!ctx.dryRun) this.store.remove(gr, old.metadata.namespace, name);
      return { code: 200, body: next };
    }
    if (stableJson(next) === stableJson(old)) return { code: 200, body: old };
    if (ctx.dryRun) return { code: 200, body: next };
    return { code: 200, body: this.store.update(gr, next) };
  }
}
